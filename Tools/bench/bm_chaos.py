"""The chaos game: draw an iterated-function-system fractal by applying
randomly chosen affine maps to one wandering point and counting where it
lands on a grid (method calls, float arithmetic, tuples, list indexing).

Two figures are drawn: a fern of four weighted maps, and a pentagon
figure whose point jumps part of the way toward a random corner.  The
random choices come from a fixed linear congruential sequence.  The size
is the number of points drawn for each figure.
"""

import math

from benchlib import Lcg, main


class Affine:
    def __init__(self, a, b, c, d, e, f, weight):
        self.a, self.b, self.c = a, b, c
        self.d, self.e, self.f = d, e, f
        self.weight = weight

    def apply(self, x, y):
        return (self.a * x + self.b * y + self.e,
                self.c * x + self.d * y + self.f)


class Toward:
    """Move a fraction of the way toward a fixed corner."""

    def __init__(self, cx, cy, fraction):
        self.cx = cx
        self.cy = cy
        self.fraction = fraction
        self.weight = 1

    def apply(self, x, y):
        t = self.fraction
        return (x + (self.cx - x) * t, y + (self.cy - y) * t)


class Canvas:
    def __init__(self, width, height, left, bottom, right, top):
        self.width = width
        self.height = height
        self.left = left
        self.bottom = bottom
        self.sx = (width - 1) / (right - left)
        self.sy = (height - 1) / (top - bottom)
        self.cells = [[0] * width for _ in range(height)]

    def plot(self, x, y):
        col = int((x - self.left) * self.sx)
        row = int((y - self.bottom) * self.sy)
        if 0 <= col < self.width and 0 <= row < self.height:
            self.cells[row][col] += 1

    def digest(self):
        lit = 0
        mixed = 0
        for r, line in enumerate(self.cells):
            for c, hits in enumerate(line):
                if hits:
                    lit += 1
                    mixed = (mixed * 7 + hits * (r + 1) + c) % 999983
        return lit, mixed


class Game:
    def __init__(self, maps, rng):
        self.maps = maps
        self.rng = rng
        self.table = []
        for m in maps:
            self.table.extend([m] * m.weight)

    def draw(self, canvas, points):
        x, y = 0.1, 0.1
        for _ in range(20):
            x, y = self.pick().apply(x, y)
        for _ in range(points):
            x, y = self.pick().apply(x, y)
            canvas.plot(x, y)

    def pick(self):
        return self.table[self.rng.below(len(self.table))]


def fern():
    return [Affine(0.0, 0.0, 0.0, 0.16, 0.0, 0.0, 1),
            Affine(0.85, 0.04, -0.04, 0.85, 0.0, 1.6, 85),
            Affine(0.2, -0.26, 0.23, 0.22, 0.0, 1.6, 7),
            Affine(-0.15, 0.28, 0.26, 0.24, 0.0, 0.44, 7)]


def pentagon():
    corners = []
    for k in range(5):
        angle = math.pi / 2 + k * 2 * math.pi / 5
        corners.append(Toward(math.cos(angle), math.sin(angle), 0.618))
    return corners


def workload(size):
    first = Canvas(120, 200, -2.5, 0.0, 2.8, 10.0)
    Game(fern(), Lcg(2024)).draw(first, size)
    second = Canvas(160, 160, -1.0, -1.0, 1.0, 1.0)
    Game(pentagon(), Lcg(7)).draw(second, size)
    return first.digest() + second.digest()


if __name__ == "__main__":
    main(workload, default=320000, quick=5000,
         expect={320000: '(9773, 54988, 6888, 792432)',
                 5000: '(3246, 968776, 3337, 18477)'})
