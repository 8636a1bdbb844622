"""``super()`` calls: a four-level class hierarchy where each override
chains to its parent for an ordinary method, a class method and
``__init__``, plus a diamond resolved through the MRO.  The size is the
number of rounds.
"""

from benchlib import main


class Root:
    def __init__(self, seed):
        self.seed = seed
        self.trail = 1

    def weigh(self, x):
        return x + self.seed

    @classmethod
    def label(cls):
        return 1


class Trunk(Root):
    def __init__(self, seed):
        super().__init__(seed)
        self.trail += 1

    def weigh(self, x):
        return super().weigh(x) * 2

    @classmethod
    def label(cls):
        return super().label() + 2


class Branch(Trunk):
    def __init__(self, seed):
        super().__init__(seed + 1)
        self.trail += 1

    def weigh(self, x):
        return super().weigh(x) - 3


class Leaf(Branch):
    def weigh(self, x):
        return super().weigh(x + 1) & 0xFFFF

    @classmethod
    def label(cls):
        return super().label() * 5


class Left(Root):
    def weigh(self, x):
        return super().weigh(x) + 10


class Right(Root):
    def weigh(self, x):
        return super().weigh(x) + 100


class Diamond(Left, Right):
    def weigh(self, x):
        return super().weigh(x) + 1000


def workload(size):
    total = 0
    leaf = Leaf(3)
    gem = Diamond(4)
    for k in range(size):
        total += leaf.weigh(k) + gem.weigh(k & 31)
        if k & 7 == 0:
            total += Leaf(k & 15).trail + Leaf.label()
        total &= 0xFFFFFFF
    return total


if __name__ == "__main__":
    main(workload, default=500000, quick=10000,
         expect={500000: '100965368',
                 10000: '111377372'})
