"""Float objects and their methods: build many 3-d points from sines and
cosines, scale each to unit length, then fold them into one point holding
the largest coordinate seen on each axis, summing a difference of two
coordinates on the way (float creation, attribute stores, method
calls).  The size is the number of points.
"""

import math

from benchlib import main


class Vec3:
    def __init__(self, seed):
        a = math.sin(seed)
        self.x = a
        self.y = math.cos(seed) * 2.5
        self.z = a * a * 0.75

    def unit(self):
        length = math.sqrt(self.x * self.x + self.y * self.y + self.z * self.z)
        self.x /= length
        self.y /= length
        self.z /= length

    def take_larger(self, other):
        if other.x > self.x:
            self.x = other.x
        if other.y > self.y:
            self.y = other.y
        if other.z > self.z:
            self.z = other.z
        return self


def fold(count, offset):
    cloud = [Vec3(k * 0.37 + offset) for k in range(count)]
    for v in cloud:
        v.unit()
    best = cloud[0]
    drift = 0.0
    for v in cloud[1:]:
        best = best.take_larger(v)
        drift += v.y - v.z
    return best, drift


def workload(size):
    digest = []
    for offset in range(3):
        top, drift = fold(size, offset)
        digest.extend((top.x, top.y, top.z, round(drift, 6)))
    return tuple(digest)


if __name__ == "__main__":
    main(workload, default=200000, quick=10000,
         expect={200000: '(0.7999999997476601, 1.0, 0.5999999999482268, -48686.77192, 0.7999999999914885, 0.9999999999805749, 0.5999999999918627, -48691.515234, 0.7999999997362021, 0.9999999999999931, 0.5999999999531234, -48692.430272)',
                 10000: '(0.7999999531034939, 1.0, 0.5999999551648787, -2437.672037, 0.7999998020529913, 0.9999999976884039, 0.5999999988496422, -2437.327956, 0.7999999044102966, 0.9999999907536149, 0.5999999722321998, -2433.201712)'})
