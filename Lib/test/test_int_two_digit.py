# +, - and * of ints around the one-, two- and three-digit boundaries
# (30-bit digits), where the int64 fast paths hand over to digit loops.
import random
r = random.Random(5)
vals = [0, 1, -1, 2**30-1, 2**30, -2**30, 2**60-1, -(2**60-1), 2**60, 2**59+12345, -2**31, 2**62, 2**63-1, -2**63, 3**40, -(3**38)]
vals += [r.randrange(-2**61, 2**61) for _ in range(300)]
h = 0
for a in vals:
    for b in vals:
        h = (h * 1000003 + hash((a + b, a - b, a * b))) % (1 << 61)
print(h)
edges = [2**60 - 1, -(2**60 - 1), 2**61, 2**62 - 1, 2**63 - 1, -2**63]
print([a * b for a in edges[:2] for b in edges[:2]])
print((2**60 - 1) + (2**60 - 1), -(2**60 - 1) - (2**60 - 1), (2**31) * (2**31), (-2**31) * (2**32))
