"""Method calls, attribute access and object creation."""


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def add(self, other):
        return Point(self.x + other.x, self.y + other.y)

    def norm2(self):
        return self.x * self.x + self.y * self.y


p = Point(0, 0)
step = Point(1, 2)
acc = 0
for i in range(800000):
    p = p.add(step)
    acc += p.norm2() % 10
print(p.x, p.y, acc)
