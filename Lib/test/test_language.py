# Language features beyond the first slice: match, comprehensions, walrus,
# decorators, unpacking, formatting, slicing.
# match statements
def describe(x):
    match x:
        case 0:
            return "zero"
        case int(n) if n < 0:
            return "negative"
        case [a, b]:
            return f"pair {a},{b}"
        case [a, *rest]:
            return f"list head {a} rest {rest}"
        case {"k": v, **others}:
            return f"dict k={v} others={others}"
        case str() | bytes():
            return "text"
        case (1 | 2) as small:
            return f"small {small}"
        case _:
            return "other"
for v in [0, -3, [1, 2], [1, 2, 3], {"k": 1, "z": 2}, "s", b"b", 2, 3.5]:
    print(describe(v))

class Point:
    __match_args__ = ("x", "y")
    def __init__(self, x, y): self.x, self.y = x, y
match Point(1, 2):
    case Point(1, y=yy):
        print("point", yy)

# comprehensions and scoping
x = 10
print([x for x in range(3)], x)
print({k: [v * i for i in range(3)] for k, v in zip("ab", (1, 2))})
print([(i, j) for i in range(3) for j in range(i) if (i + j) % 2])
print(sum(i * i for i in range(10)), max((len(w), w) for w in "a bb ccc".split()))
# walrus
data = [1, 5, 9]
if (n := len(data)) > 2:
    print("n =", n)
print([y for v in data if (y := v * 2) > 5])
# decorators
def deco(tag):
    def wrap(f):
        def inner(*a, **k):
            return f"{tag}({f(*a, **k)})"
        return inner
    return wrap
@deco("outer")
@deco("inner")
def hello(name):
    return "hi " + name
print(hello("bob"))
# unpacking
a, (b, c), *d = 1, (2, 3), 4, 5
print(a, b, c, d, [*range(3), *"ab"], {**{"a": 1}, "b": 2}, (*d, 0))
first, *_, last = range(10)
print(first, last)
# lambda defaults, closures in loops
fs = [lambda i=i: i * 10 for i in range(3)]
print([f() for f in fs])
# nonlocal/global
counter = 0
def bump():
    global counter
    counter += 1
    def inner():
        nonlocal_val = counter
        return nonlocal_val
    return inner()
print(bump(), bump())
# chained comparisons, ternaries, boolean ops
print(1 < 2 <= 2 < 3, "yes" if [] else "no", None or [] or 0 or "last", 1 and 2 and 3)
# string formatting
print(f"{3.14159:.3f} {42:05d} {255:#x} {1234567:,} {'x':>4}|{'y':<3}|{'z':^5}|")
print(f"{'nested {}'.format(1)} {[1,2]!r:>10} {{literal}}")
print("{:>8.2%}".format(0.1234), format(12, "b"), "%-5s|%5.1f" % ("ab", 2.25))
# slicing assignments and deletes
L = list(range(10))
L[2:5] = ["x"]
del L[::3]
L[1:1] = [99, 98]
print(L, L[::-2], L[-3:], L[:100])
# try/except/else/finally ordering
def order():
    log = []
    try:
        log.append("try")
    except Exception:
        log.append("except")
    else:
        log.append("else")
    finally:
        log.append("finally")
    return log
print(order())
# while with complex conditions
i, j = 0, 10
while i < j and not (i == 5):
    i += 1; j -= 1
print(i, j)
# global constants & star args
def f(*args, sep="-", **kw):
    return sep.join(map(str, args)) + str(sorted(kw))
print(f(1, 2, 3, sep="+", z=1, a=2))
print(int.__name__, str.upper("x"), (1).__add__(2), [].__class__.__name__)
print(divmod(-7, 2), -7 % 3, 7 % -3, 2 ** 0.5, round(-2.5), abs(-0.0))
