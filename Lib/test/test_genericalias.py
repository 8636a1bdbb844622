# types.GenericAlias: subscripted builtin classes (list[int], dict[str, int]).
from _typing import TypeVar

GenericAlias = type(list[int])
T = TypeVar("T")
U = TypeVar("U")


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


print(GenericAlias.__name__, GenericAlias.__module__)
for a in (list[int], dict[str, int], tuple[int, ...], tuple[()], set[bytes],
          frozenset[int], type[int], enumerate[str], list[[int, str]], list[None],
          list[...], list["a"], list[1], list[int, ], dict[str, list[T]]):
    print(repr(a), a.__origin__, a.__args__, a.__parameters__)


class Local:
    pass


print(list[Local], list[list], list[int | str], list[T | int].__parameters__)
print(GenericAlias(list, int), GenericAlias(list, (int, str)), GenericAlias(dict, ()))
show("no args", lambda: GenericAlias(list))
show("keywords", lambda: GenericAlias(list, int, x=1))

# Substitution
print(list[T][int], dict[T, U][str, bytes], dict[str, list[T]][int])
print(dict[T, list[U]][int, str], list[T][list[U]].__parameters__, list[T][None])
print(tuple[T, ...][int], list[list[T]][dict[str, T]])
show("not generic", lambda: list[int][int])
show("too many", lambda: dict[T, U][int, str, float])
show("too many 1", lambda: list[T][int, str])

# Equality and hashing
print(list[int] == list[int], list[int] != list[str], list[int] == list, list[int] == tuple[int])
print(hash(list[int]) == hash(list[int]), len({list[int], list[int], list[str]}))
print(dict[str, int] == dict[str, int], dict[str, int] == dict[int, str])

# Attribute forwarding
a = list[int]
print(a.__name__, a.__qualname__, a.__module__, a.__doc__ == list.__doc__, a.__class__)
print(a.append is list.append, a.__mro_entries__((a,)), a.__reduce__())
show("setattr", lambda: setattr(a, "x", 1))
show("missing", lambda: a.no_such_attribute)

# Calling makes an instance of the origin
print(list[int](), dict[str, int](a=1), list[int]((1, 2)), type(list[int]()))


class MyList(list):
    pass


x = GenericAlias(MyList, int)()
print(type(x).__name__, x.__orig_class__ == GenericAlias(MyList, int))
print(repr(GenericAlias(MyList, int)).endswith("MyList[int]"))


# Subclassing through an alias
class Sub(list[int]):
    pass


print(Sub.__bases__, Sub.__mro__[1], Sub.__orig_bases__)

# isinstance refusal
show("isinstance", lambda: isinstance([], list[int]))
show("issubclass", lambda: issubclass(list, list[int]))

# Unpacking: *tuple[int]
starred = next(iter(tuple[int, str]))
print(starred, starred.__unpacked__, starred.__typing_unpacked_tuple_args__)
print(list[int].__unpacked__, list[int].__typing_unpacked_tuple_args__)
print(next(iter(list[int])).__typing_unpacked_tuple_args__)
print(starred == tuple[int, str], starred == next(iter(tuple[int, str])))
print(tuple[*tuple[int]], tuple[int, *tuple[str, ...]], [*list[int]])
it = iter(list[int])
print(next(it), next(it, "done"))
r = starred.__reduce__()
print(r[0] is next, r[0](*r[1]))

# | makes a union
print(list[int] | None, int | list[str], list[int] | dict[str, int])

# __class_getitem__ on the builtin generics
for cls in (list, dict, tuple, set, frozenset, enumerate, BaseExceptionGroup):
    print(cls.__name__, "__class_getitem__" in cls.__dict__, cls[int])
show("int[str]", lambda: int[str])
show("object[int]", lambda: object[int])
print(type(x for x in ())[int], type({}.keys()).__dict__.get("__class_getitem__"))


class WithHook:
    def __class_getitem__(cls, item):
        return ("hook", cls.__name__, item)


print(WithHook[int], WithHook[int, str])


# A subclass (as collections.abc.Callable's alias is); subscripting gives a
# plain GenericAlias.
class CA(GenericAlias):
    __slots__ = ()
    def __new__(cls, origin, args):
        t_args, t_result = args
        return super().__new__(cls, origin, (*t_args, t_result))


a = CA(tuple, ([int, T], str))
print(a, type(a).__name__, a.__args__, a.__parameters__)
print(type(GenericAlias.__getitem__(a, bytes)).__name__, GenericAlias.__getitem__(a, bytes))
try:
    a.x = 1
except AttributeError:
    print("AttributeError")

d = dir(list[int])
print(len(d) > 40, d == sorted(d), sorted(set(d) - set(dir(list))), sorted(set(dir(list)) - set(d)))
