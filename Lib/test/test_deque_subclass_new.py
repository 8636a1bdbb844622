# A deque subclass whose constructor returns something else: copy,
# repetition and concatenation raise TypeError instead of crashing.
from collections import deque
class X(deque): pass
d = X([1, 2])
print(d * 2, d + X([3]), d.copy())
X.__new__ = lambda c, *a, **k: [42]
for label, op in (("repeat", lambda: d * 42), ("concat", lambda: d + X()), ("copy", lambda: d.copy())):
    try:
        print(label, op())
    except TypeError as e:
        print(label, "TypeError:", e)
