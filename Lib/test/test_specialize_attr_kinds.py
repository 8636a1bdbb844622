# LOAD_ATTR_SLOT / STORE_ATTR_SLOT, LOAD_ATTR_METHOD_NO_DICT,
# LOAD_ATTR_MODULE and LOAD_ATTR_CLASS: run each hot, then break its
# assumptions and compare with the generic path.
import math
import sys
import types

N = 50


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


# ---- __slots__ ----
class S:
    __slots__ = ("a", "b")

    def __init__(self, a):
        self.a = a

    def total(self):
        return self.a + self.b


def get_a(o):
    return o.a


def get_b(o):
    return o.b


def set_b(o, v):
    o.b = v


ss = [S(i) for i in range(N)]
for o in ss:
    set_b(o, 2)
print("slots", sum(get_a(o) + get_b(o) for o in ss), ss[3].total())
show("empty slot", lambda: get_b(S(1)))
e = S(4)
set_b(e, 5)
del e.b
show("deleted slot", lambda: get_b(e))
show("deleted slot method", lambda: e.total())
set_b(e, 6)
print("reset slot", get_b(e))


class SubS(S):
    __slots__ = ("c",)


sub = SubS(10)
set_b(sub, 11)
print("subclass slots", get_a(sub), get_b(sub))


class NoSlot:
    def __init__(self):
        self.a = "dict a"
        self.b = "dict b"


print("other class at site", get_a(NoSlot()), get_b(NoSlot()))
set_b(ns := NoSlot(), "nb")
print("other class set", ns.b)

# The slot replaced on the class by a property, then restored.
saved = S.__dict__["b"]
S.b = property(lambda self: "prop b")
print("slot shadowed", get_b(ss[0]))
show("slot shadowed set", lambda: set_b(ss[0], 1))
S.b = saved
print("slot restored", get_b(ss[0]))
del S.b
show("slot descriptor deleted", lambda: get_b(ss[0]))
show("slot descriptor deleted set", lambda: set_b(ss[0], 1))
S.b = saved


# __class__ assignment between layouts with the same slots.
class S2:
    __slots__ = ("a", "b")


t = S(1)
set_b(t, 2)
t.__class__ = S2
print("class assigned", get_a(t), get_b(t), type(t).__name__)


# A member descriptor moved to a class it does not belong to.
class Thief:
    b = S.__dict__["b"]


for i in range(N):
    try:
        get_b(Thief())
    except TypeError as ex:
        msg = str(ex)
print("foreign member", msg)


# Values stored into slots are released when replaced.
class Noisy:
    def __init__(self, tag):
        self.tag = tag

    def __del__(self):
        print("  del", self.tag)


h = S(0)
for i in range(3):
    set_b(h, Noisy(i))
set_b(h, None)
print("noisy done")

# ---- methods on instances without a dict ----


def appender(lst, n):
    for i in range(n):
        lst.append(i)
    return lst


def upper_all(words):
    return [w.upper() for w in words]


print("list methods", len(appender([], N)), upper_all(["ab", "cd"] * 30)[-1])


def call_total(o):
    return o.total()


for o in ss:
    call_total(o)
print("slot method", call_total(ss[1]))
S.total = lambda self: "replaced total"
print("method replaced", call_total(ss[1]))
del S.total
show("method deleted", lambda: call_total(ss[1]))


class MyList(list):
    pass


ml = MyList()
appender(ml, 3)
print("subclass with dict", ml)
ml.append = lambda x: print("  shadowed append", x)
appender(ml, 2)
print("after shadow", ml)


class Tup(tuple):
    __slots__ = ()

    def first(self):
        return self[0]


def call_first(t):
    return t.first()


for i in range(N):
    call_first(Tup((i, 0)))
print("tuple subclass method", call_first(Tup(("x",))))
Tup.first = lambda self: "new first"
print("tuple subclass replaced", call_first(Tup(("x",))))

# ---- module attributes ----


def use_math(x):
    return math.sqrt(x) + math.pi


def read_attr(m):
    return m.value


print("module", round(sum(use_math(i) for i in range(N)), 6))
mod = types.ModuleType("mod")
mod.value = 1
mod.other = 2
for i in range(N):
    read_attr(mod)
mod.value = 2
print("module value changed", read_attr(mod))
mod.extra = 3
print("module grown", read_attr(mod))
del mod.value
show("module deleted", lambda: read_attr(mod))
mod.__getattr__ = lambda name: "module getattr " + name
print("module __getattr__", read_attr(mod))
mod.value = "back"
print("module back", read_attr(mod))
mod.__dict__.clear()
show("module cleared", lambda: read_attr(mod))
for k in range(30):
    setattr(mod, "k%d" % k, k)
mod.value = "late"
print("module late", read_attr(mod))


class ModSub(types.ModuleType):
    @property
    def value(self):
        return "property on module subclass"


ms = ModSub("ms")
print("module subclass", read_attr(ms))


class HasValue:
    value = "class value"


print("not a module", read_attr(HasValue()))
sys.modules["fake_mod"] = mod
print("module call", (lambda: math.floor(2.5))())

# ---- class attributes ----


class K:
    value = 10

    def f(x):
        return x * 2

    @classmethod
    def cm(cls):
        return cls.__name__

    @staticmethod
    def sm(x):
        return x + 1


def read_k(c):
    return c.value


def call_f(c, x):
    return c.f(x)


def call_cm(c):
    return c.cm()


for i in range(N):
    read_k(K)
    call_f(K, i)
    call_cm(K)
print("class", read_k(K), call_f(K, 4), call_cm(K), K.sm(1))
K.value = 11
print("class value changed", read_k(K))


class KSub(K):
    pass


print("subclass", read_k(KSub), call_f(KSub, 5), call_cm(KSub))
K.value = 12
print("base changed", read_k(KSub))
KSub.value = "own"
print("subclass own", read_k(KSub), read_k(K))
del K.value
show("class deleted", lambda: read_k(K))
print("subclass still", read_k(KSub))
K.f = staticmethod(lambda x: "static now %s" % x)
print("function replaced", call_f(K, 1))


class Meta(type):
    value = "meta value"

    @property
    def f(cls):
        return lambda x: "meta property f %s" % x


class WithMeta(metaclass=Meta):
    pass


print("metaclass", read_k(WithMeta), call_f(WithMeta, 2))


class WithMeta2(metaclass=Meta):
    value = "own value"

    def f(x):
        return "own f"


print("metaclass own", read_k(WithMeta2), call_f(WithMeta2, 2))
show("instance at class site", lambda: read_k(KSub()))
show("int at class site", lambda: read_k(3))


def read_name(c):
    return c.__name__


for i in range(N):
    read_name(K)
print("type attribute", read_name(K), read_name(int))
K.__name__ = "Renamed"
print("type attribute renamed", read_name(K))


def read_doc(c):
    return c.__doc__


class Doc:
    """doc string"""


for i in range(N):
    read_doc(Doc)
print("doc", read_doc(Doc))
Doc.__doc__ = "new doc"
print("doc changed", read_doc(Doc))
