# typing.Union (types.UnionType): int | str, Union[int, str] in 3.14.
from _typing import TypeVar

Union = type(int | str)
T = TypeVar("T")
U = TypeVar("U")


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


# Building with |
for u in (int | str, int | None, None | int, int | str | float, (int | str) | float,
          int | (str | float), int | int, int | str | int, list[int] | None,
          int | list[str], dict[str, int] | tuple[int, ...], type(None) | int):
    print(repr(u), getattr(u, "__args__", None))
print(type(int | str) is Union, type(int | int) is Union)
show("int | 1", lambda: int | 1)
show("1 | int", lambda: 1 | int)
show("int | 'str'", lambda: int | "str")

# Equality and hashing ignore order
print((int | str) == (str | int), (int | str) == (int | float), (int | str) != (str | int))
print(hash(int | str) == hash(str | int), len({int | str, str | int, int | None}))
print((int | str) == int, (int | str | None) == (None | str | int))

# isinstance / issubclass
print(isinstance(1, int | str), isinstance("a", int | str), isinstance(1.5, int | str))
print(isinstance(None, int | None), issubclass(bool, int | str), issubclass(float, int | str))
print(isinstance(1, int | list[int]))
show("isinstance generic", lambda: isinstance("a", int | list[int]))
print(isinstance([], (int, str | list)))

# Parameters and substitution
u = T | int
print(u, u.__parameters__, u[str], u[int], (T | U)[int, str], (list[T] | None)[bytes])
print((T | U).__parameters__, (dict[T, U] | T).__parameters__)
show("too many", lambda: (T | int)[int, str])
show("not generic", lambda: (int | str)[int])

# No attribute setting, no subclassing
show("setattr", lambda: setattr(int | str, "x", 1))
show("args setattr", lambda: setattr(int | str, "__args__", ()))


def subclass():
    class X(int | str):
        pass


show("subclass", subclass)

# In a generic alias
print(list[int | str], dict[str, int | None].__args__)

# 3.14: Union[...] is the same object as |, and shows the same.
print(Union.__name__, Union.__module__, Union.__qualname__)
print(Union[int, str], Union[int, str] == (int | str), type(Union[int, str]) is Union)
print(Union[int], Union[int, int], Union[int, None], Union[None], Union[int, Union[str, float]])
print(Union[T, int].__parameters__, Union[list[T], None][int])
print(isinstance(int | str, Union), isinstance(int, Union), (int | str).__origin__ is Union)
print((int | str).__name__)
show("empty", lambda: Union[()])
