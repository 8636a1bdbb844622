# Generators: yield, send, throw, close, yield from, generator expressions.
def count_up(n):
    i = 0
    while i < n:
        yield i
        i += 1

print(list(count_up(5)), sum(count_up(101)))

def echo():
    received = []
    while True:
        value = yield len(received)
        if value is None:
            break
        received.append(value)
    return received

gen = echo()
print(next(gen), gen.send("a"), gen.send("b"))
try:
    next(gen)
except StopIteration as e:
    print("returned", e.value)

def guarded():
    try:
        yield 1
        yield 2
    except ValueError as e:
        yield "caught " + str(e)
    finally:
        print("cleanup")

g = guarded()
print(next(g), g.throw(ValueError("boom")))
g.close()

def delegate():
    result = yield from count_up(3)
    yield from ["x", "y"]
    yield from (c.upper() for c in "ab")
    return result

print(list(delegate()))
squares = (x * x for x in range(10) if x % 3 == 0)
print(next(squares), list(squares), list(squares))
print(any(x > 3 for x in range(5)), all(x < 3 for x in range(5)), tuple(c for c in "hi"))

def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b

out = []
for value in fib():
    if value > 100:
        break
    out.append(value)
print(out)

def bad():
    yield 1
    raise StopIteration

try:
    list(bad())
except RuntimeError as e:
    print("RuntimeError:", e)

g = count_up(2)
print(g.__name__, type(g).__name__, iter(g) is g)
