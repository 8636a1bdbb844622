# Code objects from user-supplied parts are validated where they are made
# (code.replace, types.CodeType, marshal.loads): malformed bytecode is a
# ValueError, never a crash when run.  Also exec()/eval() of code that
# needs a closure.  CPython 3.13 crashes on the malformed-bytecode cases,
# so the .exp was written from our output (checked by hand): the first
# part matches 3.13 exactly.
import marshal
import types


def outer():
    x = 1
    return lambda: x


code = outer().__code__
for label, thunk in [
    ('exec', lambda: exec(code)),
    ('eval', lambda: eval(code)),
    ('exec closure=()', lambda: exec(code, {}, closure=())),
    ('exec closure=(1,)', lambda: exec(code, {}, closure=(1,))),
    ('exec closure on plain code', lambda: exec(compile('1', 's', 'exec'), {}, closure=())),
    ('FunctionType no closure', lambda: types.FunctionType(code, {})),
    ('__code__ swap', lambda: setattr(lambda: 0, '__code__', code)),
]:
    try:
        thunk()
        print(label, 'ok')
    except (TypeError, ValueError) as e:
        print(label, type(e).__name__, e)


def f():
    return 'abc'


def g(x):
    return x.y


def h(a, b):
    for i in a:
        b += i
    return b


good = f.__code__
bad_cases = [
    ('no consts', lambda: f.__code__.replace(co_consts=())),
    ('opcode 0xff', lambda: f.__code__.replace(co_code=b'\xff\x00' * 10)),
    ('truncated', lambda: f.__code__.replace(co_code=f.__code__.co_code[:3])),
    # RESUME, LOAD_FAST, GET_ITER and its counter: the loop is cut off.
    ('cut after an instruction', lambda: h.__code__.replace(co_code=h.__code__.co_code[:8])),
    ('cut in a cache', lambda: h.__code__.replace(co_code=h.__code__.co_code[:6])),
    ('empty', lambda: f.__code__.replace(co_code=b'')),
    ('all caches', lambda: f.__code__.replace(co_code=b'\x00\x00' * 8)),
    ('no names', lambda: g.__code__.replace(co_names=())),
    ('no locals', lambda: g.__code__.replace(co_varnames=(), co_argcount=0, co_nlocals=0)),
    ('jump far', lambda: h.__code__.replace(co_code=bytes(
        b if i % 2 == 0 or h.__code__.co_code[i - 1] not in (77, 73, 75) else 250
        for i, b in enumerate(h.__code__.co_code)))),
    ('oparg flood', lambda: h.__code__.replace(co_code=bytes(
        b if i % 2 == 0 else 255 for i, b in enumerate(h.__code__.co_code)))),
]
for label, make in bad_cases:
    try:
        c = make()
        f.__code__ = c
        try:
            f()
        except Exception:
            pass
        print(label, 'accepted and ran')
    except ValueError as e:
        print(label, 'ValueError', e)
    f.__code__ = good

# valid code still passes: replace() with nothing, a marshal round trip,
# and everything compile() makes
print(f.__code__.replace()() if False else f.__code__.replace() == f.__code__)
print(marshal.loads(marshal.dumps(h.__code__)) == h.__code__)
for src in ['x = [i for i in range(3)]', 'async def a():\n    async with b: pass',
            'try:\n    1/0\nexcept* ValueError:\n    pass',
            'def gen():\n    yield from range(3)', 'match x:\n    case [1, *r]: pass',
            'class C:\n    def m(self): return super().m()', 'lambda: (yield)']:
    co = compile(src, 's', 'exec')
    print(marshal.loads(marshal.dumps(co)) == co, co.replace() == co)
print(sum(1 for _ in range(3)), f())
