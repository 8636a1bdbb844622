"""Nested loops, float math and function calls (spectral norm of a matrix)."""


def eval_a(i, j):
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def times_a(u):
    n = len(u)
    return [sum(eval_a(i, j) * u[j] for j in range(n)) for i in range(n)]


def times_at(u):
    n = len(u)
    return [sum(eval_a(j, i) * u[j] for j in range(n)) for i in range(n)]


def times_ata(u):
    return times_at(times_a(u))


n = 200
u = [1.0] * n
for _ in range(10):
    v = times_ata(u)
    u = times_ata(v)
vbv = sum(ue * ve for ue, ve in zip(u, v))
vv = sum(ve * ve for ve in v)
print(round((vbv / vv) ** 0.5, 9))
