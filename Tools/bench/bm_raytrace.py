"""A small ray tracer (vector objects with operator methods, float math,
virtual dispatch over scene objects).

Spheres over a checkered floor, lit by two point lights with shadows,
diffuse and specular shading and up to three mirror bounces.  Each pixel
is quantized to 0..255 per channel and folded into a digest.  The size is
the image width; the height is three quarters of it.
"""

import math

from benchlib import main


class V:
    __slots__ = ("x", "y", "z")

    def __init__(self, x, y, z):
        self.x = x
        self.y = y
        self.z = z

    def __add__(self, o):
        return V(self.x + o.x, self.y + o.y, self.z + o.z)

    def __sub__(self, o):
        return V(self.x - o.x, self.y - o.y, self.z - o.z)

    def __mul__(self, k):
        return V(self.x * k, self.y * k, self.z * k)

    def dot(self, o):
        return self.x * o.x + self.y * o.y + self.z * o.z

    def tint(self, o):
        return V(self.x * o.x, self.y * o.y, self.z * o.z)

    def norm(self):
        return self * (1.0 / math.sqrt(self.dot(self)))


class Surface:
    def __init__(self, colour, shine, mirror):
        self.colour = colour
        self.shine = shine
        self.mirror = mirror

    def colour_at(self, point):
        return self.colour


class Checker(Surface):
    def colour_at(self, point):
        if (math.floor(point.x) + math.floor(point.z)) % 2 == 0:
            return V(0.9, 0.9, 0.9)
        return V(0.15, 0.15, 0.2)


class Ball:
    def __init__(self, centre, radius, surface):
        self.centre = centre
        self.r2 = radius * radius
        self.surface = surface

    def hit(self, origin, direction):
        oc = origin - self.centre
        b = oc.dot(direction)
        disc = b * b - (oc.dot(oc) - self.r2)
        if disc < 0.0:
            return None
        root = math.sqrt(disc)
        t = -b - root
        if t > 1e-6:
            return t
        t = -b + root
        return t if t > 1e-6 else None

    def normal(self, point):
        return (point - self.centre).norm()


class Floor:
    def __init__(self, height, surface):
        self.height = height
        self.surface = surface
        self.up = V(0.0, 1.0, 0.0)

    def hit(self, origin, direction):
        if abs(direction.y) < 1e-9:
            return None
        t = (self.height - origin.y) / direction.y
        return t if t > 1e-6 else None

    def normal(self, point):
        return self.up


class Scene:
    def __init__(self):
        self.things = [
            Floor(0.0, Checker(None, 0.0, 0.25)),
            Ball(V(0.0, 1.0, 3.0), 1.0, Surface(V(0.9, 0.2, 0.2), 40.0, 0.3)),
            Ball(V(-1.9, 0.6, 4.2), 0.6, Surface(V(0.2, 0.8, 0.3), 12.0, 0.1)),
            Ball(V(1.7, 0.75, 2.4), 0.75, Surface(V(0.3, 0.4, 0.95), 80.0, 0.5)),
        ]
        self.lights = [(V(-4.0, 6.0, -2.0), V(0.8, 0.8, 0.7)),
                       (V(3.0, 4.0, 0.0), V(0.35, 0.35, 0.5))]
        self.sky = V(0.25, 0.35, 0.55)

    def nearest(self, origin, direction):
        best_t = None
        best = None
        for thing in self.things:
            t = thing.hit(origin, direction)
            if t is not None and (best_t is None or t < best_t):
                best_t = t
                best = thing
        return best, best_t

    def blocked(self, origin, direction, distance):
        for thing in self.things:
            t = thing.hit(origin, direction)
            if t is not None and t < distance:
                return True
        return False

    def trace(self, origin, direction, depth):
        thing, t = self.nearest(origin, direction)
        if thing is None:
            return self.sky
        point = origin + direction * t
        normal = thing.normal(point)
        surface = thing.surface
        base = surface.colour_at(point)
        result = base * 0.1
        for where, light in self.lights:
            to_light = where - point
            distance = math.sqrt(to_light.dot(to_light))
            to_light = to_light * (1.0 / distance)
            facing = normal.dot(to_light)
            if facing <= 0.0 or self.blocked(point, to_light, distance):
                continue
            result = result + base.tint(light) * facing
            if surface.shine:
                half = (to_light - direction).norm()
                spec = normal.dot(half)
                if spec > 0.0:
                    result = result + light * (spec ** surface.shine)
        if depth < 3 and surface.mirror:
            bounce = direction - normal * (2.0 * normal.dot(direction))
            result = result * (1.0 - surface.mirror) + \
                self.trace(point, bounce, depth + 1) * surface.mirror
        return result


def render(width):
    height = width * 3 // 4
    scene = Scene()
    eye = V(0.0, 1.4, -3.0)
    digest = 0
    bright = 0
    for row in range(height):
        for col in range(width):
            x = (col + 0.5) / width * 2.0 - 1.0
            y = 1.0 - (row + 0.5) / height * 1.5
            ray = V(x * 1.2, y, 1.6).norm()
            c = scene.trace(eye, ray, 0)
            for channel in (c.x, c.y, c.z):
                level = int(min(channel, 1.0) * 255.0)
                digest = (digest * 257 + level) % 2147483647
                bright += level
    return digest, bright


def workload(size):
    return render(size)


if __name__ == "__main__":
    main(workload, default=300, quick=40,
         expect={300: '(1422056764, 18798752)',
                 40: '(688227655, 334984)'})
