# Generic classes from PEP 695 syntax and _typing.Generic, with a stand-in
# typing module: the C objects call back into typing's helpers
# (_GenericAlias, _generic_class_getitem, _generic_init_subclass, Unpack)
# lazily, by name; this records the calls.
import sys
import types

calls = []
fake = types.ModuleType("typing")


class _GenericAlias:
    def __init__(self, origin, args):
        self.__origin__, self.__args__ = origin, args

    def __mro_entries__(self, bases):
        calls.append(("mro_entries", self.__origin__.__name__))
        return (self.__origin__,)

    def __repr__(self):
        return f"Alias({self.__origin__.__name__}, {self.__args__})"


def _generic_class_getitem(cls, args):
    calls.append(("class_getitem", cls.__name__, args))
    return _GenericAlias(cls, args if isinstance(args, tuple) else (args,))


def _generic_init_subclass(cls, *args, **kwargs):
    calls.append(("init_subclass", cls.__name__, args, sorted(kwargs)))
    cls.__parameters__ = getattr(cls, "__type_params__", ())


class _Unpack:
    def __getitem__(self, item):
        return ("Unpack", item)


fake._GenericAlias = _GenericAlias
fake._generic_class_getitem = _generic_class_getitem
fake._generic_init_subclass = _generic_init_subclass
fake.Unpack = _Unpack()
sys.modules["typing"] = fake

from _typing import Generic, TypeVar


class Box[T]:
    def get(self) -> T:
        return 1


print(Box.__type_params__, Box.__mro__, Box.__parameters__, Box.__orig_bases__)
print(calls)
calls.clear()


class Pair[K, *Vs, **P](dict):
    pass


print(Pair.__mro__, Pair.__type_params__, Pair.__orig_bases__)
print(calls)
calls.clear()

U = TypeVar("U")


class Old(Generic[U]):
    pass


print(Old.__mro__, Old.__orig_bases__, calls)
calls.clear()
print(Box[int], calls)
