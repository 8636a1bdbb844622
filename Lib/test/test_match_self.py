# Class patterns of the builtins that match themselves: `T(x)` binds the
# subject, for T and its subclasses; any other class needs __match_args__.

class MyFloat(float):
    pass

class MySet(set):
    pass

class Plain:
    pass

cases = [
    (bool, True), (int, 5), (float, 2.5), (str, "s"), (bytes, b"b"),
    (bytearray, bytearray(b"ba")), (list, [1]), (tuple, (1,)), (dict, {1: 2}),
    (set, {1}), (frozenset, frozenset({2})), (MyFloat, MyFloat(1.5)), (MySet, MySet({3})),
]
for cls, value in cases:
    match value:
        case cls(bound):
            print(cls.__name__, bound is value, repr(bound))

# Two positional sub-patterns are one too many, even for these.
for cls, value in [(set, {1}), (bytearray, bytearray()), (MyFloat, MyFloat(0.5))]:
    try:
        match value:
            case cls(a, b):
                print("matched?")
    except TypeError as exc:
        print(type(exc).__name__, exc)

# A plain class has no positional sub-patterns at all.
try:
    match Plain():
        case Plain(x):
            print("matched?")
except TypeError as exc:
    print(type(exc).__name__, exc)

# A subject of another type simply does not match.
match {1}:
    case frozenset(x):
        print("wrong")
    case _:
        print("set is not a frozenset")
