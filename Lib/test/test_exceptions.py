# Exceptions raised and caught across function boundaries.
def divide(a, b):
    return a / b

def safe_divide(a, b):
    try:
        return divide(a, b)
    except ZeroDivisionError as e:
        print("caught:", e)
        return None
    finally:
        print("finally runs")

print(safe_divide(6, 3))
print(safe_divide(1, 0))

def lookup(d, key):
    return d[key]

try:
    lookup({}, "missing")
except KeyError as e:
    print("KeyError", repr(e), e.args)

try:
    [1, 2, 3][10]
except IndexError as e:
    print("IndexError:", e)

try:
    int("abc")
except ValueError as e:
    print("ValueError:", e)

try:
    undefined_name
except NameError as e:
    print("NameError:", e)

try:
    "a" + 1
except TypeError as e:
    print("TypeError:", e)

def raiser(kind):
    if kind == 1:
        raise ValueError("one")
    if kind == 2:
        raise TypeError("two")
    raise RuntimeError("other")

for k in (1, 2, 3):
    try:
        raiser(k)
    except (ValueError, TypeError) as e:
        print("tuple caught", type(e).__name__, e)
    except Exception as e:
        print("generic caught", type(e).__name__, e)
    else:
        print("no exception")

try:
    try:
        raise ValueError("inner")
    except ValueError as e:
        raise RuntimeError("outer") from e
except RuntimeError as e:
    print(e, "caused by", repr(e.__cause__))

try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise KeyError("during handling")
except KeyError as e:
    print(repr(e), "context", type(e.__context__).__name__)

def reraise():
    try:
        raise ValueError("again")
    except ValueError:
        raise

try:
    reraise()
except ValueError as e:
    print("re-raised", e)

def finally_return():
    try:
        return "try"
    finally:
        print("cleanup before return")

print(finally_return())

count = 0
for i in range(5):
    try:
        if i == 3:
            break
        continue
    finally:
        count += 1
print("finally count", count)

try:
    raise ValueError
except ValueError as e:
    print("bare class raised:", repr(e))

try:
    assert 1 == 2, "math is broken"
except AssertionError as e:
    print("assert:", e)

def deep(n):
    return deep(n + 1)

try:
    deep(0)
except RecursionError as e:
    print("RecursionError:", e)
print("still running")
