# Errors raised by instructions that consume one item while the container
# they build stays on the stack: the stack must unwind to the handler's
# depth exactly (and nothing may leak: checked by the pydebug build).
def build(kind, items):
    try:
        if kind == "set":
            return {x for x in items}
        if kind == "dict":
            return {x: 1 for x in items}
        if kind == "list":
            return [*items]
        if kind == "merge":
            return dict(**items)
    except TypeError as e:
        return "TypeError: " + str(e)


print(build("set", [1, [2], 3]))
print(build("dict", [1, {}, 3]))
print(build("list", 5))
print(build("merge", [1]))
print(build("set", [1, 2]), build("dict", "ab"))


def nested():
    total = 0
    for i in range(3):
        try:
            total += len({x for x in (i, [i])})
        except TypeError:
            total += 100
    return total


print(nested())
try:
    from sys import no_such_name
except ImportError as e:
    print("ImportError:", e)


def f(**kw):
    return kw


try:
    f(**{"a": 1}, **{"a": 2})
except TypeError as e:
    print("TypeError:", e)
def f(*a): pass
try:
    f(*5)
except TypeError as e: print(e)
try:
    print(*5)
except TypeError as e: print(e)
try:
    f(**5)
except TypeError as e: print(e)
