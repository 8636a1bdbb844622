# Exception groups and except*.
def raise_group():
    raise ExceptionGroup("many", [ValueError(1), TypeError(2), ValueError(3)])

try:
    raise_group()
except* ValueError as e:
    print("values:", e.exceptions)
except* TypeError as e:
    print("types:", e.exceptions)

try:
    try:
        raise_group()
    except* TypeError:
        print("handled types")
except ExceptionGroup as e:
    print("left over:", repr(e))

try:
    try:
        raise KeyError("naked")
    except* ValueError:
        print("not reached")
except KeyError as e:
    print("naked passes through:", repr(e))

try:
    raise ValueError("wrapped")
except* ValueError as e:
    print("naked wrapped:", type(e).__name__, e.exceptions)

eg = ExceptionGroup("outer", [ValueError("a"), ExceptionGroup("inner", [TypeError("b")])])
match, rest = eg.split(TypeError)
print(repr(match), repr(rest))
print(eg.subgroup(ValueError), len(eg.exceptions))
e = ValueError("with note")
e.add_note("a note")
print(e.__notes__)
