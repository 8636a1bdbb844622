# The code validator's exception-table and stack-depth checks: code objects
# hand-built with code.replace() (and one through marshal.loads) that would
# unwind to a bad handler, pop an empty stack, outgrow co_stacksize or meet
# themselves at two depths are a ValueError naming the problem.  CPython
# does not check these (it may crash running them), so the .exp is our
# output, checked by hand; the compiler's own code objects must pass.
import marshal
import opcode


def assemble(*instrs):
    """Bytes for (name, arg) pairs, each followed by its zeroed caches."""
    out = bytearray()
    for name, arg in instrs:
        out += bytes([opcode.opmap[name], arg])
        out += b'\x00\x00' * opcode._inline_cache_entries.get(name, 0)
    return bytes(out)


def varint(value, first=False):
    groups = []
    while True:
        groups.append(value & 63)
        value >>= 6
        if not value:
            break
    groups.reverse()
    out = bytearray(g | 64 for g in groups[:-1])
    out.append(groups[-1])
    if first:
        out[0] |= 128
    return bytes(out)


def entry(first, size, target, depth, lasti=0):
    return (varint(first, True) + varint(size) + varint(target) +
            varint(depth * 2 + lasti))


def f():
    return 'abc'


def t(a):
    try:
        return a.b
    except AttributeError:
        return 2


base = f.__code__
tcode = t.__code__


def show(label, make):
    try:
        code = make()
    except ValueError as e:
        print(label, 'ValueError:', e)
    else:
        print(label, 'ok', code.co_stacksize)


# Stack depth.
show('underflow', lambda: base.replace(co_code=assemble(
    ('RESUME', 0), ('POP_TOP', 0), ('LOAD_CONST', 0), ('RETURN_VALUE', 0))))
show('too deep', lambda: base.replace(co_stacksize=0))
show('deep enough', lambda: base.replace(co_stacksize=1))
show('two depths at a merge', lambda: base.replace(co_stacksize=3, co_code=assemble(
    ('RESUME', 0), ('LOAD_CONST', 0), ('POP_JUMP_IF_FALSE', 1),
    ('LOAD_CONST', 0), ('LOAD_CONST', 0), ('RETURN_VALUE', 0))))
show('loop that grows the stack', lambda: base.replace(co_stacksize=10, co_code=assemble(
    ('RESUME', 0), ('LOAD_CONST', 0), ('JUMP_BACKWARD', 4))))
show('jump into a cache entry', lambda: base.replace(co_stacksize=3, co_code=assemble(
    ('RESUME', 0), ('LOAD_CONST', 0), ('POP_JUMP_IF_FALSE', 0),
    ('LOAD_CONST', 0), ('RETURN_VALUE', 0), ('JUMP_BACKWARD', 5))))
show('jump past the end', lambda: base.replace(co_code=assemble(
    ('RESUME', 0), ('JUMP_FORWARD', 2), ('LOAD_CONST', 0), ('RETURN_VALUE', 0))))
show('jump between EXTENDED_ARG and its opcode', lambda: base.replace(co_code=assemble(
    ('RESUME', 0), ('JUMP_FORWARD', 1), ('EXTENDED_ARG', 0), ('LOAD_CONST', 0),
    ('RETURN_VALUE', 0))))
show('EXTENDED_ARG kept whole', lambda: base.replace(co_code=assemble(
    ('RESUME', 0), ('JUMP_FORWARD', 0), ('EXTENDED_ARG', 0), ('LOAD_CONST', 0),
    ('RETURN_VALUE', 0))))

# The exception table.
show('unchanged', lambda: tcode.replace(co_exceptiontable=tcode.co_exceptiontable))
n = len(tcode.co_code) // 2
for label, table in [
    ('truncated entry', b'\x80\x01'),
    ('number runs off the end', entry(0, 1, 2, 0) + b'\xc1'),
    ('no start marker', b'\x00\x01\x02\x00'),
    ('start marker inside an entry', b'\x80\x81\x02\x00'),
    ('number too large', b'\xc1\x7f\x7f\x7f\x7f\x7f\x01\x01\x00'),
    ('range past the end', entry(0, n + 1, 2, 0)),
    ('overlapping entries', entry(1, 4, 14, 0) + entry(3, 4, 14, 0)),
    ('out of order', entry(10, 2, 14, 0) + entry(1, 4, 14, 0)),
    ('handler past the end', entry(1, 2, n, 0)),
    ('handler inside an instruction', entry(1, 2, 4, 0)),
    ('handler deeper than co_stacksize', entry(1, 2, 14, 4)),
    ('handler depth above the stack', entry(2, 2, 14, 2)),
    ('handler reached at two depths', entry(2, 2, 14, 0) + entry(14, 1, 14, 1, 1)),
    ('empty table', b''),
]:
    show(label, lambda: tcode.replace(co_exceptiontable=table))

# The same checks on marshal.loads: the handler depth byte of the first
# entry raised past co_stacksize in a dumped code object.
data = bytearray(marshal.dumps(tcode))
at = data.index(tcode.co_exceptiontable)
data[at + 3] = 40
try:
    marshal.loads(bytes(data))
except ValueError as e:
    print('marshal', 'ValueError:', e)
else:
    print('marshal accepted it')

# Compiled code of every shape passes, also through marshal.
src = '''
import sys
async def agen(xs):
    async with xs as y:
        async for z in y:
            yield [w async for w in z]
def gen(a, *b, c, **d):
    try:
        yield from a
    except* (ValueError, TypeError) as e:
        print({k: v for k, v in d.items() if k not in b})
    finally:
        del c
class C[T]:
    def m(self, x: T) -> T:
        match x:
            case [1, *rest] if rest: return rest
            case {"k": v, **kw}: return v
            case C(a=1) | None: return None
        with open(x) as f, open(x) as g:
            return [(i, j) for i in f for j in g if i != j]
lam = lambda *a, **k: (yield)
'''
code = compile(src, 'shapes', 'exec')
count = 0
stack = [code]
while stack:
    c = stack.pop()
    c.replace(co_code=c.co_code)
    marshal.loads(marshal.dumps(c))
    count += 1
    stack.extend(k for k in c.co_consts if hasattr(k, 'co_code'))
print('compiled code objects checked:', count)

# A validated handler still runs.
good = tcode.replace(co_exceptiontable=tcode.co_exceptiontable)
import types
run = types.FunctionType(good, globals())
print('handler runs:', run({}), run(types.SimpleNamespace(b=1)))

# Locals: the loads that skip the unbound check need a bound local, the
# cell instructions a cell.
def u(a):
    b = a
    return b


def cellf(a):
    def inner():
        return a
    return inner


ucode = u.__code__
show('unchecked load of an argument', lambda: ucode.replace(co_code=assemble(
    ('RESUME', 0), ('LOAD_FAST', 0), ('RETURN_VALUE', 0))))
show('unchecked load of an unbound local', lambda: ucode.replace(co_code=assemble(
    ('RESUME', 0), ('LOAD_FAST_BORROW', 1), ('RETURN_VALUE', 0))))
show('checked load of an unbound local', lambda: ucode.replace(co_code=assemble(
    ('RESUME', 0), ('LOAD_FAST_CHECK', 1), ('RETURN_VALUE', 0))))
show('argument gone', lambda: ucode.replace(co_argcount=0))
show('load after delete', lambda: ucode.replace(co_code=assemble(
    ('RESUME', 0), ('DELETE_FAST', 0), ('LOAD_FAST', 0), ('RETURN_VALUE', 0))))
show('load bound on one path only', lambda: ucode.replace(co_stacksize=2, co_code=assemble(
    ('RESUME', 0), ('LOAD_FAST', 0), ('POP_JUMP_IF_FALSE', 2),
    ('LOAD_FAST', 0), ('STORE_FAST', 1), ('LOAD_FAST', 1), ('RETURN_VALUE', 0))))
show('pair load', lambda: ucode.replace(co_stacksize=2, co_code=assemble(
    ('RESUME', 0), ('LOAD_FAST_LOAD_FAST', 0x01), ('POP_TOP', 0), ('RETURN_VALUE', 0))))
ccode = cellf.__code__
show('cells unchanged', lambda: ccode.replace(co_code=ccode.co_code))
show('deref before MAKE_CELL', lambda: ccode.replace(co_code=assemble(
    ('RESUME', 0), ('LOAD_DEREF', 0), ('RETURN_VALUE', 0))))
show('deref of a plain local', lambda: ucode.replace(co_code=assemble(
    ('RESUME', 0), ('LOAD_DEREF', 0), ('RETURN_VALUE', 0))))
show('store over the cell', lambda: ccode.replace(co_stacksize=1, co_code=assemble(
    ('MAKE_CELL', 0), ('RESUME', 0), ('LOAD_CONST', 0), ('STORE_FAST', 0),
    ('LOAD_DEREF', 0), ('RETURN_VALUE', 0))))
inner = cellf(1)
show('free vars copied', lambda: inner.__code__.replace(co_code=inner.__code__.co_code))
show('COPY_FREE_VARS count', lambda: inner.__code__.replace(co_code=assemble(
    ('COPY_FREE_VARS', 2), ('RESUME', 0), ('LOAD_DEREF', 0), ('RETURN_VALUE', 0))))
show('deref of a free var not copied', lambda: inner.__code__.replace(co_code=assemble(
    ('RESUME', 0), ('LOAD_DEREF', 0), ('RETURN_VALUE', 0))))

# A fourth EXTENDED_ARG would shift the oparg past 32 bits.
show('three EXTENDED_ARGs', lambda: base.replace(co_code=assemble(
    ('RESUME', 0), ('EXTENDED_ARG', 0), ('EXTENDED_ARG', 0), ('EXTENDED_ARG', 0),
    ('LOAD_CONST', 0), ('RETURN_VALUE', 0))))
show('four EXTENDED_ARGs', lambda: base.replace(co_code=assemble(
    ('RESUME', 0), ('EXTENDED_ARG', 1), ('EXTENDED_ARG', 0), ('EXTENDED_ARG', 0),
    ('EXTENDED_ARG', 0), ('LOAD_CONST', 0), ('RETURN_VALUE', 0))))
show('oparg past INT_MAX', lambda: base.replace(co_code=assemble(
    ('RESUME', 0), ('EXTENDED_ARG', 0x80), ('EXTENDED_ARG', 0), ('EXTENDED_ARG', 0),
    ('LOAD_CONST', 0), ('RETURN_VALUE', 0))))
