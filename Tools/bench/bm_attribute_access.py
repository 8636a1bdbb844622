"""Reading and writing attributes: instance attributes, ``__slots__``
members, class attributes read through instances, properties, a
``__getattr__`` fallback, and module globals.  The size is the number of
rounds.
"""

from benchlib import main

SCALE = 3


class Counter:
    step = 2

    def __init__(self):
        self.value = 0
        self.hits = 0

    @property
    def doubled(self):
        return self.value * 2

    @property
    def level(self):
        return self.hits & 7

    @level.setter
    def level(self, v):
        self.hits = v


class Packed:
    __slots__ = ("x", "y")

    def __init__(self):
        self.x = 1
        self.y = 2


class Fallback:
    def __init__(self):
        self.real = 5

    def __getattr__(self, name):
        return len(name)


def workload(size):
    c = Counter()
    p = Packed()
    f = Fallback()
    total = 0
    for k in range(size):
        c.value = c.value + c.step
        c.hits += 1
        p.x = p.y + k
        p.y = p.x & 255
        total += c.doubled + c.level + p.x - p.y
        if k & 15 == 0:
            c.level = k & 63
            total += f.real + f.missing
        total += SCALE
        total &= 0xFFFFFFFF
    return (total, c.value, c.hits, p.x, p.y)


if __name__ == "__main__":
    main(workload, default=1500000, quick=20000,
         expect={1500000: '(2900934457, 3000000, 31, 1500242, 82)',
                 20000: '(1000174761, 40000, 31, 20210, 242)'})
