"""Gravitational n-body integration (float arithmetic, list indexing).

A star and five planets on roughly circular, slightly inclined orbits,
kept as one flat list per coordinate.  Each step computes every body's
acceleration from all pairs, then kicks the velocities and drifts the
positions.  The checksum is the system's energy, before and after, and
the final position of the innermost planet.  The size is the number of
steps.
"""

import math

from benchlib import main

GRAVITY = 39.478            # about 4 pi^2: AU, years, solar masses


class System:
    def __init__(self):
        self.mass = []
        self.px, self.py, self.pz = [], [], []
        self.vx, self.vy, self.vz = [], [], []

    def add(self, mass, position, velocity):
        self.mass.append(mass)
        self.px.append(position[0])
        self.py.append(position[1])
        self.pz.append(position[2])
        self.vx.append(velocity[0])
        self.vy.append(velocity[1])
        self.vz.append(velocity[2])

    def add_orbit(self, mass, radius, phase, tilt, star_mass):
        speed = math.sqrt(GRAVITY * star_mass / radius)
        c, s = math.cos(phase), math.sin(phase)
        self.add(mass,
                 (radius * c, radius * s * math.cos(tilt), radius * s * math.sin(tilt)),
                 (-speed * s, speed * c * math.cos(tilt), speed * c * math.sin(tilt)))

    def still_centre(self):
        """Give the star the momentum that makes the total zero."""
        total = sum(self.mass)
        for v in (self.vx, self.vy, self.vz):
            momentum = 0.0
            for k in range(1, len(self.mass)):
                momentum += self.mass[k] * v[k]
            v[0] = -momentum / self.mass[0]
        return total

    def energy(self):
        m = self.mass
        n = len(m)
        kinetic = 0.0
        for k in range(n):
            kinetic += 0.5 * m[k] * (self.vx[k] * self.vx[k] + self.vy[k] * self.vy[k]
                                + self.vz[k] * self.vz[k])
        potential = 0.0
        for a in range(n):
            for b in range(a + 1, n):
                dx = self.px[a] - self.px[b]
                dy = self.py[a] - self.py[b]
                dz = self.pz[a] - self.pz[b]
                potential -= GRAVITY * m[a] * m[b] / math.sqrt(dx * dx + dy * dy + dz * dz)
        return kinetic + potential

    def run(self, steps, dt):
        m = self.mass
        px, py, pz = self.px, self.py, self.pz
        vx, vy, vz = self.vx, self.vy, self.vz
        n = len(m)
        pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
        sqrt = math.sqrt
        for _ in range(steps):
            ax = [0.0] * n
            ay = [0.0] * n
            az = [0.0] * n
            for a, b in pairs:
                dx = px[b] - px[a]
                dy = py[b] - py[a]
                dz = pz[b] - pz[a]
                d2 = dx * dx + dy * dy + dz * dz
                scale = GRAVITY / (d2 * sqrt(d2))
                fa = scale * m[b]
                fb = scale * m[a]
                ax[a] += dx * fa
                ay[a] += dy * fa
                az[a] += dz * fa
                ax[b] -= dx * fb
                ay[b] -= dy * fb
                az[b] -= dz * fb
            for k in range(n):
                vx[k] += ax[k] * dt
                vy[k] += ay[k] * dt
                vz[k] += az[k] * dt
                px[k] += vx[k] * dt
                py[k] += vy[k] * dt
                pz[k] += vz[k] * dt


def build():
    system = System()
    star = 1.0
    system.add(star, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    planets = [
        (0.0000003, 0.72, 0.3, 0.02),
        (0.0000030, 1.00, 2.1, 0.00),
        (0.0009500, 5.20, 4.0, 0.023),
        (0.0002900, 9.50, 1.2, 0.043),
        (0.0000440, 19.2, 5.5, 0.013),
    ]
    for mass, radius, phase, tilt in planets:
        system.add_orbit(mass, radius, phase, tilt, star)
    system.still_centre()
    return system


def workload(size):
    system = build()
    before = system.energy()
    system.run(size, 0.001)
    after = system.energy()
    return (round(before, 10), round(after, 10),
            round(system.px[1], 8), round(system.py[1], 8))


if __name__ == "__main__":
    main(workload, default=100000, quick=4000,
         expect={100000: '(-0.0043201533, -0.0043201534, 0.37583467, -0.61731157)',
                 4000: '(-0.0043201533, -0.0043201509, -0.58226846, -0.4353687)'})
