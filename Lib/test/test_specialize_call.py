# CALL of a class with a Python __init__ (CALL_ALLOC_AND_ENTER_INIT):
# run each shape hot, then break each assumption and check the results
# and error messages stay what the generic path gives.
import sys
import traceback

N = 50


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def make_points(n):
    return [Point(i, -i) for i in range(n)]


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


pts = make_points(N)
print("hot", len(pts), pts[7].x, pts[7].y, type(pts[7]).__name__)


# __init__ returning something other than None.
class Returns:
    def __init__(self, v):
        self.v = v
        if v >= N:
            return v


def make_returns(v):
    return Returns(v)


for i in range(N):
    make_returns(i)
show("returns int", lambda: make_returns(N))
show("still fine", lambda: make_returns(1).v)


# An exception inside __init__: the traceback shows caller and __init__ only.
class Raises:
    def __init__(self, v):
        if v >= N:
            raise ValueError("bad value %d" % v)
        self.v = v


def make_raises(v):
    return Raises(v)


for i in range(N):
    make_raises(i)
try:
    make_raises(N)
except ValueError as e:
    print("raised", e)
    for fs in traceback.extract_tb(e.__traceback__):
        print("  tb", fs.name, fs.line)
    tb = e.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    print("  init f_back", tb.tb_frame.f_back.f_code.co_name)


# The frame running __init__ sees its caller as f_back.
class Looks:
    def __init__(self):
        f = sys._getframe()
        self.back = f.f_back.f_code.co_name
        self.back2 = sys._getframe(1).f_code.co_name


def make_looks():
    return Looks()


for i in range(N):
    o = make_looks()
print("f_back", o.back, o.back2)


# Replacing __init__ on the class.
class Swap:
    def __init__(self, a):
        self.a = a


def make_swap(a):
    return Swap(a)


for i in range(N):
    make_swap(i)
print("swap before", make_swap(3).a)


def other_init(self, a):
    self.a = a * 100


Swap.__init__ = other_init
print("swap after", make_swap(3).a)
del Swap.__init__
show("swap deleted", lambda: make_swap(3))


# Changing __init__'s code (same function object).
class Recode:
    def __init__(self, a):
        self.a = a


def make_recode(a):
    return Recode(a)


for i in range(N):
    make_recode(i)


def recoded(self, a):
    self.a = -a


Recode.__init__.__code__ = recoded.__code__
print("recode", make_recode(4).a)


def two_args(self, a, b):
    self.a = a + b


Recode.__init__.__code__ = two_args.__code__
show("recode arity", lambda: make_recode(4))


# Adding __new__ to the class, to a base, and making it abstract.
class Base:
    pass


class Derived(Base):
    def __init__(self, a):
        self.a = a


def make_derived(a):
    return Derived(a)


for i in range(N):
    make_derived(i)


def base_new(cls, *args):
    print("  base __new__", cls.__name__, args)
    return object.__new__(cls)


Base.__new__ = base_new
print("new on base", make_derived(5).a)


class Concrete:
    def __init__(self, a):
        self.a = a


def make_concrete(a):
    return Concrete(a)


for i in range(N):
    make_concrete(i)
Concrete.__abstractmethods__ = frozenset({"spam"})
show("abstract", lambda: make_concrete(7))
Concrete.__abstractmethods__ = frozenset()
print("concrete again", make_concrete(8).a)


# Wrong number of arguments after being hot.
class Pair:
    def __init__(self, a, b):
        self.s = a + b


def make_pair(*args):
    return Pair(*args)


def make_pair2(a, b):
    return Pair(a, b)


for i in range(N):
    make_pair2(i, i)
show("pair ok", lambda: make_pair2(1, 2).s)
show("pair too few", lambda: make_pair(1))
show("pair too many", lambda: make_pair(1, 2, 3))
show("pair kw", lambda: Pair(1, b=5).s)


# Same call site seeing different classes.
class One:
    def __init__(self, v):
        self.v = ("one", v)


class Two:
    def __init__(self, v):
        self.v = ("two", v)


class Three:
    def __init__(self, v, w=0):
        self.v = ("three", v, w)


def build(cls, v):
    return cls(v)


for i in range(N):
    build(One, i)
print("site", build(Two, 1).v, build(Three, 2).v, build(One, 3).v)
print("site int", build(int, "42"), build(list, (1, 2)))


# A metaclass with __call__ is never bypassed.
class Meta(type):
    def __call__(cls, *args):
        print("  Meta.__call__", cls.__name__, args)
        return super().__call__(*args)


class WithMeta(metaclass=Meta):
    def __init__(self, v):
        self.v = v


for i in range(3):
    print("meta", build(WithMeta, i).v)


# Recursion through __init__ and deep nesting.
class Node:
    def __init__(self, depth):
        self.child = Node(depth - 1) if depth else None
        self.depth = depth


n = Node(200)
count = 0
while n is not None:
    count += 1
    n = n.child
print("depth", count)


class Forever:
    def __init__(self):
        Forever()


try:
    Forever()
except RecursionError as e:
    print("recursion", type(e).__name__)


# __init__ that is a generator function or has closures.
def outer(k):
    class Cl:
        def __init__(self, v):
            self.v = v + k
    return Cl


Cl = outer(10)
for i in range(N):
    c = build(Cl, i)
print("closure", c.v)


class GenInit:
    def __init__(self, v):
        yield v


show("generator init", lambda: build(GenInit, 1))
for i in range(N):
    try:
        build(GenInit, i)
    except TypeError as e:
        last = str(e)
print("generator init hot", last)


# Subclasses of builtins take the generic path.
class MyList(list):
    def __init__(self, v):
        super().__init__([v, v])


for i in range(N):
    ml = build(MyList, i)
print("mylist", ml)


class Exc(Exception):
    def __init__(self, v):
        super().__init__("exc", v)


for i in range(N):
    ex = build(Exc, i)
print("exc", ex.args)


# __class__ assignment on the instances made.
class Other:
    pass


for i in range(N):
    p = Point(i, i)
p.__class__ = Other
print("class assigned", type(p).__name__, p.x)
