# marshal: the byte format of every supported type, references, versions,
# code objects that run as the compiled ones, and errors on bad input.
import marshal

print(marshal.version)

# ---- Exact encodings (as CPython writes them) ----
samples = [None, True, False, ..., StopIteration, 0, 1, -1, 2**31 - 1, -2**31, 2**31,
           -2**31 - 1, 2**45 - 1, 2**60, 7**40, -(7**40), 0.0, -0.0, 1.5, 1e300,
           float("inf"), -float("inf"), 1 + 2j, -0.5j, b"", b"abc", bytearray(b"xy"),
           "", "abc", "a" * 300,
           (), (1, 2), tuple(range(300)), [], [1, [2, [3]]], {}, {1: "one", "k": (2,)},
           set(), {5, 3, 1}, frozenset(), frozenset({"zz", "b", "aaa"})]
# Built at run time, so no compiler interns them.
samples += ["".join(["\xe9", "t\xe9"]), "".join(["\u20ac"] * 2), "".join(["\U0001f600", "x"]),
            "".join(["\udc80", "."])]
for v in samples:
    for version in range(6):
        d = marshal.dumps(v, version)
        back = marshal.loads(d)
        same = back == v or (v != v and back != back)
        shown = "a set" if isinstance(v, (set, frozenset)) else repr(v)[:40]
        print(version, shown, len(d), d[:24], same, type(back).__name__)

# Floats keep their sign and NaN survives.
import math
print(math.copysign(1, marshal.loads(marshal.dumps(-0.0))))
print(math.isnan(marshal.loads(marshal.dumps(float("nan")))))
print(math.isnan(marshal.loads(marshal.dumps(float("nan"), 1))))

# Big ints of every size round-trip.
for k in [14, 15, 16, 29, 30, 31, 44, 45, 46, 59, 60, 61, 200, 1000]:
    for v in (2**k - 1, 2**k, 2**k + 1, -(2**k), 3**k):
        assert marshal.loads(marshal.dumps(v)) == v, v
print("ints ok")

# ---- References: a shared object is written once ----
shared = ("shared", float("1.25"))
d = marshal.dumps([shared, shared, shared])
print(d)
x = marshal.loads(d)
print(x[0] is x[1] is x[2])
print(marshal.dumps([shared, shared], 2))
rec = []
rec.append(rec)
r = marshal.loads(marshal.dumps(rec))
print(r[0] is r)
drec = {}
drec["me"] = drec
dr = marshal.loads(marshal.dumps(drec))
print(dr["me"] is dr)
try:
    marshal.dumps(rec, 2)
except ValueError as e:
    print("ValueError", e)

# Interned strings come back interned.
import sys
name = sys.intern("some_identifier_name")
back = marshal.loads(marshal.dumps((name,)))[0]
print(back is name)

# Set order does not depend on insertion order.
a = {"pear", "apple", "fig", "kiwi", "banana"}
b = set()
for s in ["kiwi", "banana", "fig", "pear", "apple"]:
    b.add(s)
print(marshal.dumps(a) == marshal.dumps(b))

# ---- Code objects ----
SOURCE = '''
import sys
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

def counter():
    count = 0
    def bump(step=1, *, twice=False):
        nonlocal count
        count += step * (2 if twice else 1)
        return count
    return bump

def gen(n):
    for i in range(n):
        x = yield i * i
        if x:
            yield from ("sent", x)

class Shape:
    """A docstring."""
    sides = 0
    def __init__(self, name):
        self.name = name
    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, sides={self.sides})"
    @property
    def label(self):
        return self.name.upper()

class Square(Shape):
    sides = 4
    def area(self, side):
        return side ** 2

def risky(v):
    try:
        return 10 / v
    except ZeroDivisionError as e:
        return "caught " + str(e)
    finally:
        out.append("finally")

def group():
    try:
        raise ExceptionGroup("eg", [ValueError(1), TypeError(2)])
    except* ValueError as e:
        out.append(("value", len(e.exceptions)))
    except* TypeError:
        out.append("type")

def comps(data):
    return ([x * 2 for x in data if x % 2], {x: x * x for x in data},
            {x % 3 for x in data}, sum(x for x in data), data[1:3], data[::-1])

def star(*args, **kwargs):
    a, *rest = args
    match kwargs:
        case {"k": v}:
            return a, rest, v
        case _:
            return a, rest, None

async def coro(x):
    return x + 1

def drive(c):
    try:
        c.send(None)
    except StopIteration as e:
        return e.value

def with_lambda(xs):
    return sorted(xs, key=lambda s: (-len(s), s))

out = []
out.append(fib(15))
b = counter()
out.append((b(), b(5), b(twice=True)))
g = gen(4)
out.append([next(g), next(g), g.send("hi"), next(g), next(g)])
out.append(repr(Square("sq")))
out.append((Square("sq").label, Square("s").area(3), Shape.__doc__))
out.append(risky(2))
out.append(risky(0))
group()
out.append(comps([1, 2, 3, 4, 5]))
out.append(star(1, 2, 3, k="v"))
out.append(star(9))
out.append(drive(coro(41)))
out.append(with_lambda(["bb", "a", "ccc", "dd"]))
out.append(b"bytes" + bytes(range(3)))
out.append((1.5, 2j, -7, 2**100, ..., None, frozenset({1})))
try:
    undefined_name
except NameError as e:
    out.append(str(e))
'''

code = compile(SOURCE, "<marshal-test>", "exec")
data = marshal.dumps(code)
loaded = marshal.loads(data)
print(type(loaded).__name__, loaded == code, marshal.dumps(loaded) == data)

ns1, ns2 = {}, {}
exec(code, ns1)
exec(loaded, ns2)
print(ns1["out"] == ns2["out"])
for item in ns2["out"]:
    print(item)


def all_codes(co):
    yield co
    for c in co.co_consts:
        if isinstance(c, type(co)):
            yield from all_codes(c)


fields = ["co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_nlocals",
          "co_stacksize", "co_flags", "co_code", "co_consts", "co_names", "co_varnames",
          "co_freevars", "co_cellvars", "co_filename", "co_name", "co_qualname",
          "co_firstlineno", "co_linetable", "co_exceptiontable"]
mismatch = []
count = 0
for a, b in zip(all_codes(code), all_codes(loaded)):
    count += 1
    for f in fields:
        if getattr(a, f) != getattr(b, f):
            mismatch.append((a.co_qualname, f))
    if list(a.co_positions()) != list(b.co_positions()):
        mismatch.append((a.co_qualname, "co_positions"))
    if list(a.co_lines()) != list(b.co_lines()):
        mismatch.append((a.co_qualname, "co_lines"))
print(count > 15, mismatch)
print(sorted(c.co_qualname for c in all_codes(loaded))[:8])

# Tracebacks from loaded code point at the right lines.
tb_src = "def f(x):\n    y = 1\n    return 1 / x\n"
tb_code = marshal.loads(marshal.dumps(compile(tb_src, "tb.py", "exec")))
tbns = {}
exec(tb_code, tbns)
try:
    tbns["f"](0)
except ZeroDivisionError as e:
    tb = e.__traceback__
    while tb.tb_next:
        tb = tb.tb_next
    print(tb.tb_frame.f_code.co_name, tb.tb_lineno)

# Loaded code gets warm-up counters like compiled code: hot loops in it
# specialise (white box; other runtimes just print the expected line).
loop_src = "def hot(n):\n    t = 0\n    for i in range(n):\n        t = t + i\n    return t\n"
lns = {}
exec(marshal.loads(marshal.dumps(compile(loop_src, "hot.py", "exec"))), lns)
print(lns["hot"](1000))
try:
    import _testinternalcapi as _t
    _t.current_opcodes
except (ImportError, AttributeError):
    print("specialised: True")
else:
    ops = _t.current_opcodes(lns["hot"])
    print("specialised:", not _t.specialization_enabled() or
          any(op.startswith("BINARY_OP_") for op in ops))

print(marshal.dumps(compile("pass", "x", "exec"), allow_code=True) == marshal.dumps(
    compile("pass", "x", "exec")))
for call in (lambda: marshal.dumps(code, allow_code=False),
             lambda: marshal.dumps([1, code], 4, allow_code=False),
             lambda: marshal.loads(data, allow_code=False)):
    try:
        call()
    except ValueError as e:
        print("ValueError", e)

# ---- Files: dump/load read exactly one object ----
class BytesFile:
    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.pos = 0

    def write(self, b):
        self.data += b
        return len(b)

    def read(self, n=-1):
        if n < 0:
            n = len(self.data) - self.pos
        r = bytes(self.data[self.pos:self.pos + n])
        self.pos += len(r)
        return r

    def readinto(self, buf):
        r = self.read(len(buf))
        buf[:len(r)] = r
        return len(r)


f = BytesFile()
# dump() returns what write() returned.
print(marshal.dump({"a": [1, 2]}, f), marshal.dump("next", f, 2), marshal.dump(code, f) > 1000)
f.pos = 0
print(marshal.load(f), f.pos, marshal.load(f), marshal.load(f) == code)
try:
    marshal.load(f)
except EOFError as e:
    print("EOFError", e)


class TextFile:
    def read(self, n=-1):
        return "text"


try:
    marshal.load(TextFile())
except TypeError as e:
    print("TypeError", e)

# ---- Errors ----
class Sub(int):
    pass


for bad in [object(), Sub(3), [1, {2: object}], print, type, 1j.__class__, slice(1, 2)]:
    try:
        marshal.dumps(bad, 4)
        print("dumped", bad)
    except ValueError as e:
        print("ValueError", e)

deep = []
for i in range(5000):
    deep = [deep]
try:
    marshal.dumps(deep)
except ValueError as e:
    print("ValueError", e)
ok = []
for i in range(1000):
    ok = (ok,)
print(marshal.loads(marshal.dumps(ok)) == ok)

cases = [b"", b"i", b"i\x01\x02", b"Q", b"N", b"0", b"r\x00\x00\x00\x00",
         b"[\x01\x00\x00\x00r\x00\x00\x00\x00", b"\xdb\x01\x00\x00\x00r\x00\x00\x00\x00",
         b"(\xff\xff\xff\xff", b"(\x01\x00\x00\x00", b"(\x01\x00\x00\x000", b"[\x01\x00\x00\x000",
         b"[\xff\xff\xff\x7f", b"<\x01\x00\x00\x00[\x00\x00\x00\x00",
         b"{[\x00\x00\x00\x00N0", b"{N0", b"{0", b"{NN", b"l\x00\x00\x00\x00",
         b"l\x01\x00\x00\x00\xff\xff", b"l\x01\x00\x00\x00\x00\x00", b"l\x02\x00\x00\x00\x01\x00",
         b"l\x00\x00\x00\x80", b"s\xff\xff\xff\x7f", b"s\xff\xff\xff\xff", b"u\x02\x00\x00\x00\xc3",
         b"u\x01\x00\x00\x00\xff", b"z\x05abc", b"a\x03\x00\x00\x00\xe9t\xe9", b"g\x00",
         b"f\x03abc", b"f\x031.5", b"x\x011\x012", b"y" + b"\x00" * 15,
         b"I\x01\x00\x00\x00\x00\x00\x00\x80", b":NNN", b":NN", b"\x7f", b"c\x00\x00",
         b"[" + b"\x01\x00\x00\x00[" * 3000]
for d in cases:
    try:
        print(repr(marshal.loads(d))[:60])
    except (EOFError, ValueError, TypeError, UnicodeDecodeError) as e:
        print(type(e).__name__, str(e)[:70])

# A code object whose parts have the wrong types is refused.
bad_code = bytearray(marshal.dumps(compile("x = 1", "f", "exec")))
i = bad_code.index(b"f")
try:
    marshal.loads(bytes(bad_code).replace(b"\xda\x01f", b"\xe9\x05\x00\x00\x00"))
except (ValueError, TypeError, SystemError) as e:
    print("refused")

for args in [(), (1, 2, 3), (1, "x")]:
    try:
        marshal.dumps(*args)
    except TypeError as e:
        print("TypeError", e)
for arg in ["str", 5, None]:
    try:
        marshal.loads(arg)
    except TypeError as e:
        print("TypeError", e)
try:
    marshal.loads(b"N", bogus=1)
except TypeError as e:
    print("TypeError", e)
print(marshal.loads(b"i\x07\x00\x00\x00extra"), marshal.loads(bytearray(b"T")))

# ---- Corrupt input never crashes: flip bytes of a marshalled module ----
seed = 12345


def rand(n):
    global seed
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    return seed % n


kinds = {}
for trial in range(3000):
    buf = bytearray(data)
    for _ in range(1 + rand(4)):
        buf[rand(len(buf))] = rand(256)
    if rand(4) == 0:
        del buf[rand(len(buf)):]
    try:
        obj = marshal.loads(bytes(buf))
        if isinstance(obj, type(code)):
            for c in all_codes(obj):
                list(c.co_positions())
                list(c.co_lines())
        repr(obj)
        name = "loaded"
    except Exception as e:
        name = "error"
    kinds[name] = kinds.get(name, 0) + 1
print("fuzz survived", sorted(kinds))
