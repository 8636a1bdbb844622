# Deeply nested data must never crash the process: repr, comparison and
# hashing raise RecursionError (the C stack is checked, not just a
# counter), and freeing goes through the trashcan.
nested = []
for i in range(30000):
    nested = [nested]
try:
    repr(nested)
except RecursionError as e:
    print("repr:", e)

a = []
b = []
for i in range(30000):
    a = [a]
    b = [b]
try:
    a == b
except RecursionError as e:
    print("compare:", e)

t = ()
for i in range(30000):
    t = (t,)
try:
    hash(t)
except RecursionError as e:
    print("hash:", e)

d = {}
for i in range(30000):
    d = {"k": d}
del nested, a, b, t, d

x = None
for i in range(150000):
    x = [x, (x,)]
del x
print("freed without overflowing the C stack")
