# The specializing interpreter: results are the same whatever forms the
# instructions take, and hot sites do get specialised (white box, through
# _testinternalcapi.current_opcodes).
import _testinternalcapi as t

ops = ["<", "<=", "==", "!=", ">", ">="]
vals = [(1, 2), (2, 2), (3, 2), (1.0, 2.0), (2.0, 2.0), (float("nan"), 1.0), ("a", "b"),
        ("a", "a"), (2**70, 1), (1, 2.5), (True, 1)]
out = []
for op in ops:
    f = eval(f"lambda a, b: [a {op} b for _ in range(5)]")
    g = eval(f"lambda a, b: 1 if a {op} b else 0")
    for a, b in vals:
        try:
            r = f(a, b) + [g(a, b) for _ in range(5)]
        except TypeError as e:
            r = str(e)
        out.append((op, repr(a), repr(b), r))
for x in [(1, 2), (1.5, 2.25), ("a", "b"), ([1], [2]), (2**64, 3), (True, 2), (1, 2.5)]:
    h = lambda a, b: [(a + b, a * b) for _ in range(6)]
    try:
        out.append(h(*x))
    except TypeError as e:
        out.append(str(e))
    k = lambda a, b: [a - b for _ in range(6)]
    try:
        out.append(k(*x))
    except TypeError as e:
        out.append(str(e))
lst = [10, 20, 30]
tup = (1, 2)
out.append([lst[i] for i in range(3) for _ in range(3)])
out.append([tup[-1] for _ in range(5)])
try:
    [lst[i] for i in range(5)]
except IndexError as e:
    out.append(str(e))
for v in [0, 1, [], [1], "", "x", None, 0.0, 2**80, (), True]:
    out.append([bool(v) if v else "f" for _ in range(5)])


def mutate():
    a = [1, 2, 3]
    res = []
    for x in a:
        res.append(x)
        if x == 2:
            a.append(4)
    return res


out.append([mutate() for _ in range(4)])
for o in out:
    print(o)


def add(a, b):
    return a + b


def loop(items):
    total = 0.0
    for x in items:
        if x > 0.5:
            total = total * 1.5
    return total


for _ in range(10):
    add(1, 2)
    loop((1.0, 0.25))
on = t.specialization_enabled()
ops_add = t.current_opcodes(add)
ops_loop = t.current_opcodes(loop)
print("int add specialised:", ("BINARY_OP_ADD_INT" in ops_add) == on)
print("float compare specialised:", ("COMPARE_OP_FLOAT" in ops_loop) == on)
print("tuple loop specialised:", ("FOR_ITER_TUPLE" in ops_loop) == on)
# A type change makes the specialised form fall back and still be right.
print(add("x", "y"), add([1], [2]), add(1.5, 2), loop([0.75, 0.9]))


# Calls specialised for exact positional arguments fall back when the
# function, its code or the argument count changes.
def f1(a, b):
    return a - b


for _ in range(10):
    f1(5, 3)


def g1(a, b):
    return a * b


f1.__code__ = g1.__code__
print(f1(5, 3), [f1(2, 3) for _ in range(3)])


class C:
    def m(self, x):
        return x + 1


c = C()
print([c.m(i) for i in range(5)], [C.m(c, 1) for _ in range(3)])


def varargs(*a):
    return a


print([varargs(1) for _ in range(5)])
try:
    [f1(1) for _ in range(5)]
except TypeError as e:
    print(e)
calls = [f1, g1, varargs, len]
print([fn(4, 5) if fn is not len else fn("abcd") for fn in calls for _ in range(2) if fn is not varargs])


# Attribute loads specialised on the type's version fall back when the
# class or the instance changes under them.
class P:
    def __init__(self, x):
        self.x = x

    def get(self):
        return self.x


def read_all(objs):
    return [(o.x, o.get()) for o in objs]


ps = [P(i) for i in range(6)]
print(read_all(ps))
ps[2].get = lambda: "shadowed"        # instance dict shadows the method
del ps[3].x                            # attribute gone
try:
    read_all(ps)
except AttributeError as e:
    print("AttributeError:", e)
ps[3].x = 33
print(read_all(ps))
P.get = lambda self: -self.x           # class changed: new version
print(read_all(ps))
P.get = lambda self: self.x
P.x = property(lambda self: "property wins")  # data descriptor now overrides the dict
print(read_all(ps))
del P.x
P.__getattr__ = lambda self, name: "fallback " + name
q = P(1)
del q.x
print(q.x, q.get())
def f(items):
    out = []
    for a, b in items:
        out.append(a - b)
    return out
print(f([(1, 2), (3, 4), [5, 6], (7, 8)] * 3))
try:
    f([(1, 2)] * 5 + [(1, 2, 3)])
except ValueError as e:
    print(e)
def g():
    l = [0] * 4
    d = {}
    for i in range(8):
        l[i % 4] = i
        d[i % 3] = i
    l[-1] = "neg"
    return l, d
print([g() for _ in range(3)][-1])
try:
    l = [1]
    for i in range(5):
        l[i] = i
except IndexError as e:
    print(e)
class D(dict): pass
dd = D()
for i in range(5): dd[i] = i
print(dd)
X = 1
def f():
    return [X for _ in range(4)]
print(f(), f())
X = 2
print(f())
del X
try:
    f()
except NameError as e:
    print(e)
X = 3
print(f())
def g():
    global Y
    out = []
    for i in range(6):
        Y = i
        out.append(Y + X)
    return out
print(g())
import builtins
def h():
    return [len("ab") for _ in range(4)]
print(h())
len = lambda s: 99
print(h())
del len
print(h())
class S:
    def __init__(self, v):
        self.v = v
objs = [S(i) for i in range(5)]
print([o.v for o in objs])
log = []
S.v = property(lambda self: "prop", lambda self, val: log.append(val))
objs2 = [S(i) for i in range(3)]
print(log, [o.v for o in objs2])
del S.v
class T:
    def __setattr__(self, k, val):
        object.__setattr__(self, k, val * 2)
    def __init__(self, v):
        self.v = v
print([T(i).v for i in range(4)])
class U:
    __slots__ = ("v",)
    def __init__(self, v):
        self.v = v
print([U(i).v for i in range(4)])
def f(items):
    out = []
    for x in items:
        out.append(len(x))
    return out
print(f(["a", "bb", [1, 2, 3], {}] * 3))
class L(list): pass
def g(l):
    for i in range(5):
        l.append(i)
    return l
print(g([]), g(L()), type(g(L())).__name__)
def h(obj):
    return [obj.append(1) for _ in range(3)]
class A:
    def append(self, x): return "custom"
print(h([]), h(A()))
try:
    len(5)
except TypeError as e:
    print(e)
def k():
    return [len(x) for x in ("ab", 5)]
try:
    k()
except TypeError as e:
    print(e)
import builtins
def m():
    return [len("abc") for _ in range(4)]
print(m())
builtins.len = lambda s: -1
print(m())
del builtins.len
