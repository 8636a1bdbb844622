"""Method calls, attribute access and object creation: a point class
whose ``add`` returns a new instance.  The size is the number of steps.
"""

from benchlib import main


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def add(self, other):
        return Point(self.x + other.x, self.y + other.y)

    def norm2(self):
        return self.x * self.x + self.y * self.y


def workload(size):
    p = Point(0, 0)
    step = Point(1, 2)
    acc = 0
    for _ in range(size):
        p = p.add(step)
        acc += p.norm2() % 10
    return (p.x, p.y, acc)


if __name__ == "__main__":
    main(workload, default=1300000, quick=20000,
         expect={1300000: '(1300000, 2600000, 3250000)',
                 20000: '(20000, 40000, 50000)'})
