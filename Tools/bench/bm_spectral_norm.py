"""The spectral norm of an infinite matrix by power iteration (nested
loops, float math, calls of a small function, generator expressions).

The matrix entry (i, j) is 1 / ((i + j)(i + j + 1) / 2 + i + 1); ten
rounds of u <- A^T A u on an n-element vector give the largest singular
value.  The size is n.
"""

from benchlib import main


def entry(i, j):
    s = i + j
    return 1.0 / (s * (s + 1) // 2 + i + 1)


def times_a(u):
    n = len(u)
    return [sum(entry(i, j) * u[j] for j in range(n)) for i in range(n)]


def times_a_transposed(u):
    n = len(u)
    return [sum(entry(j, i) * u[j] for j in range(n)) for i in range(n)]


def workload(size):
    u = [1.0] * size
    v = u
    for _ in range(10):
        v = times_a_transposed(times_a(u))
        u = times_a_transposed(times_a(v))
    vbv = sum(a * b for a, b in zip(u, v))
    vv = sum(b * b for b in v)
    return round((vbv / vv) ** 0.5, 9)


if __name__ == "__main__":
    main(workload, default=300, quick=30,
         expect={300: '1.274223986',
                 30: '1.27409738'})
