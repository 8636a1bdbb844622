# abc over the C _abc module: abstract methods, register(), virtual
# subclasses, __subclasshook__, caches and their invalidation, weak
# references to registered classes, collections.abc.
import abc
import _abc
import gc
import sys
import collections.abc as cabc


def report(label, fn, *args):
    try:
        print(label, "->", repr(fn(*args)))
    except Exception as e:
        print(label, "->", type(e).__name__, e)


print("C implementation:", "_py_abc" not in sys.modules, type(abc.ABC._abc_impl).__name__)

# ---- abstract methods ---------------------------------------------------------
class Base(abc.ABC):
    @abc.abstractmethod
    def run(self): ...

    @property
    @abc.abstractmethod
    def size(self): ...

    @classmethod
    @abc.abstractmethod
    def make(cls): ...

    def concrete(self):
        return "concrete"


print("Base abstracts:", sorted(Base.__abstractmethods__))
report("instantiate Base", Base)


class Half(Base):
    def run(self):
        return "run"


print("Half abstracts (inherited):", sorted(Half.__abstractmethods__))
report("instantiate Half", Half)


class Full(Half):
    size = 3

    @classmethod
    def make(cls):
        return cls()


print("Full abstracts:", sorted(Full.__abstractmethods__), Full.make().run(), Full().size)


class Late(Base):
    pass


Late.run = lambda self: 1
Late.size = 2
Late.make = classmethod(lambda cls: cls())
print("before update:", sorted(Late.__abstractmethods__))
abc.update_abstractmethods(Late)
print("after update:", sorted(Late.__abstractmethods__), type(Late.make()).__name__)
print("update on plain class:", abc.update_abstractmethods(int) is int)


class Meta(metaclass=abc.ABCMeta):
    pass


print("metaclass form:", type(Meta).__name__, Meta.__abstractmethods__, isinstance(Meta(), Meta))

# ---- register -------------------------------------------------------------------
class Shape(abc.ABC):
    pass


class Circle:
    pass


class SmallCircle(Circle):
    pass


token0 = abc.get_cache_token()
print("register returns class:", Shape.register(Circle) is Circle)
print("token changed:", abc.get_cache_token() != token0, type(token0).__name__)
print("virtual:", issubclass(Circle, Shape), isinstance(Circle(), Shape),
      issubclass(SmallCircle, Shape), isinstance(SmallCircle(), Shape))
print("not in mro:", Shape in Circle.__mro__)
token1 = abc.get_cache_token()
print("re-register is no-op:", Shape.register(SmallCircle) is SmallCircle,
      abc.get_cache_token() == token1)
print("self register no-op:", Shape.register(Shape) is Shape)


@Shape.register
class Square:
    pass


print("decorator:", Square.__name__, issubclass(Square, Shape))
report("register instance", Shape.register, 5)
report("register non-class", Shape.register, "x")


class Outer(abc.ABC):
    pass


class Inner(Outer):
    pass


report("cycle", Inner.register, Outer)
Outer.register(int)
report("cycle builtin", lambda: Outer.register(int) and int.__name__)
print("int registered:", issubclass(bool, Outer), isinstance(True, Outer), issubclass(float, Outer))

# Registration through a subclass's registry counts for the parent.
class Animal(abc.ABC):
    pass


class Pet(Animal):
    pass


class Dog:
    pass


Pet.register(Dog)
print("via subclass registry:", issubclass(Dog, Pet), issubclass(Dog, Animal))

# ---- __subclasshook__ ----------------------------------------------------------
class Quacks(abc.ABC):
    @classmethod
    def __subclasshook__(cls, C):
        if cls is not Quacks:
            return NotImplemented
        if any("quack" in B.__dict__ for B in C.__mro__):
            return True
        if any("bark" in B.__dict__ for B in C.__mro__):
            return False
        return NotImplemented


class Duck:
    def quack(self): ...


class Barker:
    def bark(self): ...


class Quiet:
    pass


class LoudBarker(Barker):
    pass


Quacks.register(LoudBarker)
print("hook True:", issubclass(Duck, Quacks), isinstance(Duck(), Quacks))
print("hook False beats registry:", issubclass(Barker, Quacks), issubclass(LoudBarker, Quacks))
print("hook NotImplemented:", issubclass(Quiet, Quacks))


class BadHook(abc.ABC):
    @classmethod
    def __subclasshook__(cls, C):
        return 1


report("bad hook", issubclass, int, BadHook)


class RaisingHook(abc.ABC):
    @classmethod
    def __subclasshook__(cls, C):
        raise KeyError("hook")


report("raising hook", issubclass, int, RaisingHook)
report("issubclass non-class", issubclass, 5, Shape)
report("isinstance non-class cls", _abc._abc_subclasscheck, Shape, 5)

# ---- caches --------------------------------------------------------------------
class Cached(abc.ABC):
    pass


class Plain:
    pass


print("negative first:", issubclass(Plain, Cached))
reg, pos, neg, ver = _abc._get_dump(Cached)
print("dump after negative:", len(reg), len(pos), [r() for r in neg], ver == abc.get_cache_token())
Cached.register(Plain)
print("register invalidates negative cache:", issubclass(Plain, Cached))


class PlainChild(Plain):
    pass


print("child via registry:", issubclass(PlainChild, Cached))
reg, pos, neg, ver = _abc._get_dump(Cached)
print("dump:", [r() for r in reg], [r() for r in pos], [r() for r in neg])
Cached._abc_caches_clear()
reg, pos, neg, ver = _abc._get_dump(Cached)
print("after caches clear:", len(reg), len(pos), len(neg))
Cached._abc_registry_clear()
print("after registry clear:", len(_abc._get_dump(Cached)[0]), issubclass(Plain, Cached))
print("types of dump:", [type(x).__name__ for x in _abc._get_dump(Cached)])

# Hook results are cached: a second call does not ask the hook again.
calls = []


class Counting(abc.ABC):
    @classmethod
    def __subclasshook__(cls, C):
        calls.append(C.__name__)
        return C is int


issubclass(int, Counting), issubclass(int, Counting), issubclass(str, Counting), issubclass(str, Counting)
print("hook calls:", calls)
Counting._abc_caches_clear()
issubclass(int, Counting)
print("hook calls after clear:", calls)

# ---- weak references ------------------------------------------------------------
class Registry(abc.ABC):
    pass


def make_temp():
    class Temp:
        pass

    Registry.register(Temp)
    issubclass(Temp, Registry)
    return Temp


t = make_temp()
print("registered:", len(_abc._get_dump(Registry)[0]), issubclass(t, Registry))
del t
gc.collect()
print("after death:", [len(s) for s in _abc._get_dump(Registry)[:3]])

# ---- instance checks with a lying __class__ ---------------------------------------
class Liar:
    @property
    def __class__(self):
        return Circle


print("__class__ honoured:", isinstance(Liar(), Shape), isinstance(Liar(), Circle))


class Proxyish(abc.ABC):
    pass


Proxyish.register(Liar)
print("type() honoured:", isinstance(Liar(), Proxyish))

# ---- direct _abc errors --------------------------------------------------------------
class WrongImpl:
    _abc_impl = 5


report("wrong _abc_impl", _abc._abc_subclasscheck, WrongImpl, int)
report("missing _abc_impl", _abc._abc_instancecheck, int, 1)
report("reset missing", _abc._reset_caches, int)
report("dump missing", _abc._get_dump, int)
report("register argc", _abc._abc_register, Shape)
print("token is int:", isinstance(_abc.get_cache_token(), int))

# ---- collections.abc -------------------------------------------------------------
checks = [
    ("list Sequence", isinstance([], cabc.Sequence)),
    ("tuple Sequence", isinstance((), cabc.Sequence)),
    ("str Sequence", isinstance("", cabc.Sequence)),
    ("dict Sequence", isinstance({}, cabc.Sequence)),
    ("dict Mapping", issubclass(dict, cabc.Mapping)),
    ("dict MutableMapping", issubclass(dict, cabc.MutableMapping)),
    ("list MutableSequence", issubclass(list, cabc.MutableSequence)),
    ("set Set", isinstance(set(), cabc.Set)),
    ("frozenset MutableSet", isinstance(frozenset(), cabc.MutableSet)),
    ("int Hashable", isinstance(1, cabc.Hashable)),
    ("list Hashable", isinstance([], cabc.Hashable)),
    ("list Iterable", isinstance([], cabc.Iterable)),
    ("int Iterable", isinstance(1, cabc.Iterable)),
    ("iter Iterator", isinstance(iter([]), cabc.Iterator)),
    ("list Iterator", isinstance([], cabc.Iterator)),
    ("gen Generator", isinstance((x for x in ()), cabc.Generator)),
    ("len Sized", isinstance(b"", cabc.Sized)),
    ("func Callable", isinstance(len, cabc.Callable)),
    ("range Reversible", isinstance(range(3), cabc.Reversible)),
    ("keys KeysView", isinstance({}.keys(), cabc.KeysView)),
    ("memoryview Sequence", isinstance(memoryview(b""), cabc.Sequence)),
]
for label, value in checks:
    print("collections.abc", label, value)


class MyIterable:
    def __iter__(self):
        return iter(())


class NoIter(MyIterable):
    __iter__ = None


print("hook Iterable:", issubclass(MyIterable, cabc.Iterable), issubclass(NoIter, cabc.Iterable))


class MySeq(cabc.Sequence):
    def __getitem__(self, i):
        return [1, 2, 3][i]

    def __len__(self):
        return 3


s = MySeq()
print("Sequence mixins:", list(s), s.index(2), s.count(3), 2 in s, list(reversed(s)))


class Vec:
    def __init__(self, *v):
        self.v = v

    def __len__(self):
        return len(self.v)

    def __getitem__(self, i):
        return self.v[i]


cabc.Sequence.register(Vec)


def shape_of(x):
    match x:
        case {"k": v}:
            return "mapping", v
        case [a, b]:
            return "pair", a, b
        case _:
            return "other"


print("match registered Sequence:", shape_of(Vec(1, 2)), shape_of(MySeq()), shape_of({"k": 1}))
report("abstract Sequence", cabc.Sequence)
print("Sequence has __abc_tpflags__ left:", "__abc_tpflags__" in cabc.Sequence.__dict__)
