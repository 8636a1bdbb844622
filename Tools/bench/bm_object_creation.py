"""Creating instances: classes with ``__init__`` taking positional and
keyword arguments, a ``__slots__`` class, a class without ``__init__``,
a subclass whose ``__init__`` chains to its base, and instances dropped
right away.  The size is the number of rounds.
"""

from benchlib import main


class Plain:
    def __init__(self, a, b, c):
        self.a = a
        self.b = b
        self.c = c


class Slotted:
    __slots__ = ("left", "right")

    def __init__(self, left, right):
        self.left = left
        self.right = right


class Bare:
    pass


class Keyed:
    def __init__(self, name, size=1, *, flag=False):
        self.name = name
        self.size = size
        self.flag = flag


class Derived(Plain):
    def __init__(self, a, b):
        Plain.__init__(self, a, b, a + b)
        self.extra = a * b


def workload(size):
    acc = 0
    keep = []
    for k in range(size):
        p = Plain(k, 2, 3)
        s = Slotted(p, k)
        b = Bare()
        b.tag = k & 3
        kw = Keyed("n", size=k & 7, flag=k & 1 == 0)
        d = Derived(k & 15, 3)
        acc += p.a + s.right + b.tag + kw.size + d.extra + d.c
        if kw.flag:
            acc += 1
        if k % 1000 == 0:
            keep.append(s)
    return (acc, len(keep), keep[-1].right)


if __name__ == "__main__":
    main(workload, default=400000, quick=5000,
         expect={400000: '(160015000000, 400, 399000)',
                 5000: '(25187372, 5, 4000)'})
