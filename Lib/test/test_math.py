# The math module (a first subset).
import math
print(math.sqrt(16), math.floor(2.7), math.ceil(2.1), math.trunc(-2.7), type(math.floor(2.5)).__name__)
print(math.pi, math.e, math.tau, math.inf, math.isnan(math.nan))
print(math.log(8, 2), math.log(100, 10), math.log(math.e), math.log2(1024), math.log10(1000))
print(math.pow(2, 10), math.hypot(3, 4), math.atan2(1, 1) == math.pi / 4, math.copysign(3, -0.0))
print(math.gcd(12, 18), math.gcd(), math.gcd(0, 5), math.factorial(20), math.isqrt(10**20 + 5))
print(math.prod([1, 2, 3, 4]), math.fsum([0.1] * 10), math.modf(2.5), math.degrees(math.pi), math.radians(180))
print(math.isclose(1.0, 1.0 + 1e-10), math.isclose(1.0, 1.1), math.isinf(math.inf), math.isfinite(1.0))
print(math.floor(10**30), math.log(2**2000) > 1386, round(math.sin(math.pi / 2), 10), math.fabs(-3))
for bad in ("math.sqrt(-1)", "math.log(0)", "math.exp(1000)", "math.factorial(-1)", "math.isqrt(-1)", "math.acos(2)"):
    try:
        eval(bad)
    except (ValueError, OverflowError) as e:
        print(bad, type(e).__name__, e)

# ---- The rest of the module ----



def show(f, *args, **kwargs):
    try:
        r = f(*args, **kwargs)
    except Exception as e:
        r = "%s: %s" % (type(e).__name__, e)
    print(f.__name__, args, kwargs or "", r)


inf, nan = math.inf, math.nan
for name in ["cbrt", "exp2", "expm1", "log1p", "asinh", "acosh", "atanh", "erf", "erfc",
             "sqrt", "exp", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
             "log2", "log10", "fabs"]:
    f = getattr(math, name)
    for x in [0.0, -0.0, 0.5, 1.0, -1.0, 2.0, -2.5, 1e-300, 700.0, 1100.0, inf, -inf, nan]:
        try:
            r = f(x)
            r = "%.15g" % r
        except (ValueError, OverflowError) as e:
            r = "%s: %s" % (type(e).__name__, e)
        print(name, x, r)
for x in [0.5, 1.0, 1.5, 5.0, 10.0, 0.1, -0.5, -1.5, 100.5, 171.5, 171.7, 1e-300, -200.5,
          0.0, -0.0, -1.0, -2.0, inf, -inf, nan, 1e308]:
    for f in (math.gamma, math.lgamma):
        try:
            r = "%.13g" % f(x)
        except (ValueError, OverflowError) as e:
            r = "%s: %s" % (type(e).__name__, e)
        print(f.__name__, x, r)
print(math.gamma(5), math.gamma(1), math.lgamma(1), math.lgamma(2), math.erf(0), math.erfc(0))

# Exact results.
print(math.cbrt(27), math.cbrt(-8), math.exp2(10), math.exp2(-1), math.expm1(0), math.log1p(0))
print(math.log(2**3000), math.log2(2**3000), math.log10(10**400), math.log(2**3000, 2))
print(math.log(10**400, 10**200), math.log(1), math.log10(1), math.log2(True))
for bad in [0, -5, -1.5, 0.0, -inf]:
    for f in (math.log, math.log2, math.log10):
        show(f, bad)
show(math.log, 8, 1)
show(math.log, 8, 0)
show(math.log, 8, -2.0)
show(math.log, 2**5000, 2.0)
show(math.log, nan)
show(math.log, inf)

# Two-argument functions.
for x, y in [(5, 3), (-5, 3), (5.5, 2), (inf, 1), (1, 0), (1, inf), (nan, 1), (1, nan), (-0.0, 1),
             (3, -2), (1e308, 1e-308)]:
    for f in (math.remainder, math.fmod, math.copysign, math.atan2):
        try:
            r = repr(f(x, y))
        except (ValueError, OverflowError) as e:
            r = "%s: %s" % (type(e).__name__, e)
        print(f.__name__, x, y, r)
for x, y in [(0.0, -inf), (0.0, -1), (-1, 0.5), (2, 1024), (-2, 3), (inf, -1), (-inf, 3),
             (1, nan), (nan, 0), (0.0, 0.0), (-0.0, -3), (-8, 1 / 3)]:
    show(math.pow, x, y)

# Floating-point manipulation.
for x, i in [(1.0, 3), (0.75, -1), (1.0, 1024), (1.0, -1075), (1.0, -1074), (3.0, 10**30),
             (3.0, -10**30), (0.0, 10**30), (inf, -5), (nan, 5), (-1.5, 4), (2.0, True)]:
    show(math.ldexp, x, i)
show(math.ldexp, 1.0, 1.5)
show(math.ldexp, 1.0, "2")
for x in [0.0, -0.0, 1.0, -3.5, 1e-310, 1e308, inf, -inf, 2**-1074, 12345.678]:
    print("frexp", x, math.frexp(x), math.ulp(x), math.nextafter(x, inf), math.nextafter(x, -inf))
print(math.frexp(nan)[1], math.isnan(math.ulp(nan)), math.ulp(1.7976931348623157e308))
for x, y, steps in [(1.0, 2.0, 0), (1.0, 2.0, 1), (1.0, 2.0, 5), (1.0, 0.0, 3), (0.0, 1.0, 2),
                    (-5e-324, 1.0, 1), (-5e-324, 1.0, 2), (5e-324, -1.0, 1), (0.0, -1.0, 1),
                    (1.0, 1.0 + 4e-16, 10), (0.0, 1.0, 10**30), (-1.0, inf, 2**63),
                    (nan, 1.0, 3), (1.0, nan, 3), (2.0, 2.0, 7), (inf, 0.0, 1), (-0.0, 0.0, 1),
                    (1e308, inf, 2**52 * 10)]:
    show(math.nextafter, x, y, steps=steps)
show(math.nextafter, 1.0, 2.0, steps=-1)
show(math.nextafter, 1.0, 2.0, steps=1.5)
show(math.nextafter, 1.0, 2.0, steps=None)
show(math.nextafter, 1.0, 2.0, 3)
for a, b, c in [(2, 3, 4), (0.1, 10, -1), (1e308, 10, -1e308), (inf, 0, 1), (1e308, 10, 0),
                (inf, 1, -inf), (nan, 0, inf), (1.5, 2.5, nan), (-0.0, 0.0, -0.0),
                (1 + 2**-52, 1 - 2**-52, -1)]:
    show(math.fma, a, b, c)

# hypot and dist: accurate to the last bit.
for args in [(), (3,), (-3,), (3, 4), (1, 1), (1e300, 1e300), (1e-320, 1e-320), (inf, nan),
             (nan, 1), (0, 0, 0), (1, 2, 3, 4, 5), (0.1,) * 10, (3, 4, 12), (1e200, 1e-200),
             (2.0**-1074, 2.0**-1074), (1.7976931348623157e308, 1.7976931348623157e308 / 2),
             (1.0, 1e-8), tuple(range(100)), (True, 1.5), (-inf, 1)]:
    print("hypot", args[:4], repr(math.hypot(*args)))
acc = 0
for i in range(1, 2000):
    a, b, c = i * 0.37, i ** 0.5, 1.0 / i
    acc += math.hypot(a, b, c) == math.hypot(c, a, b) and abs(math.hypot(a, b) - (a * a + b * b) ** 0.5) <= 2e-16 * math.hypot(a, b)
print("hypot permutations and accuracy", acc)
print(math.dist((1, 2), (4, 6)), math.dist([0, 0, 0], (1, 1, 1)), math.dist(iter([1]), (3,)),
      math.dist((), ()), math.dist((1.5, -inf), (0, 0)))
show(math.dist, (1, 2), (3,))
show(math.dist, 1, (3,))
show(math.dist, ("a",), (3,))
show(math.hypot, "a")

# fsum is exact.
for data in [[0.1] * 10, [1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50], [1.0, 1e-16, 1e-16],
             [2.0**53, -0.5, -2.0**-54], [2.0**53, 1.0, 2.0**-52], [], [-0.0], [inf, 1],
             [inf, inf], [nan, 1], [inf, -inf, nan], [1e308, -1e308, 1e308],
             [1.7976931348623157e308, 1e292], [0.1, 0.2, 0.3, -0.6],
             [(-1) ** i * 10.0 ** (i % 300) for i in range(600)], range(10**4)]:
    try:
        r = repr(math.fsum(data))
    except (ValueError, OverflowError) as e:
        r = "%s: %s" % (type(e).__name__, e)
    print("fsum", r)
show(math.fsum, [inf, -inf])
show(math.fsum, [1e308, 1e308])
show(math.fsum, ["a"])
show(math.fsum, 5)

# sumprod: exact for ints, extended precision for floats, general otherwise.
class Num:
    def __init__(self, v):
        self.v = v

    def __mul__(self, o):
        return Num(self.v * (o.v if isinstance(o, Num) else o))

    __rmul__ = __mul__

    def __add__(self, o):
        return Num(self.v + (o.v if isinstance(o, Num) else o))

    __radd__ = __add__

    def __repr__(self):
        return "Num(%r)" % (self.v,)


for p, q in [([1, 2, 3], [4, 5, 6]), ([0.1] * 10, [0.1] * 10), ([1, 2.5], [3, 4]),
             ([10**30, 1], [10**30, 1]), ([], []), ([1e308, 1e308], [10, -10]),
             ([True, False], [3, 4]), ([2**60, 0.5], [3, 0.25]), ([0.5, Num(2)], [2, 3]),
             ([Num(1), 2], [3, 0.5]), ([1.5, 2**70], [2.0, 1]), ([x / 7 for x in range(50)], range(50))]:
    show(math.sumprod, p, q)
show(math.sumprod, [1, 2], [3])
show(math.sumprod, [1], [3, 4])
show(math.sumprod, 1, [3])
show(math.sumprod, ["a"], [2])
acc = 0
for i in range(1, 300):
    p = [((i * 7919 + k * 104729) % 1000) / 997.0 - 0.5 for k in range(i % 17 + 1)]
    q = [((i * 31 + k * 17) % 1000) / 991.0 - 0.5 for k in range(i % 17 + 1)]
    # Each product is exactly prod + fma(a, b, -prod); fsum rounds once.
    terms = []
    for a, b in zip(p, q):
        terms += [a * b, math.fma(a, b, -(a * b))]
    acc += math.sumprod(p, q) == math.fsum(terms)
print("sumprod exact", acc)

# Integer functions.
print(math.comb(10, 3), math.comb(10, 0), math.comb(10, 10), math.comb(10, 11), math.comb(0, 0),
      math.comb(100, 50), math.comb(10**20, 3), math.comb(True, True))
print(math.perm(10, 3), math.perm(10), math.perm(10, None), math.perm(3, 5), math.perm(0),
      math.perm(10**20, 2), math.perm(25, 25) == math.factorial(25))
print(math.comb(2**64 + 1, 2), math.perm(2**64 - 1, 2), math.comb(2**64 - 1, 3) % 10**9)
print(sum(math.comb(40, k) for k in range(41)) == 2**40, math.comb(1000, 500) % 10**20)
print(math.factorial(0), math.factorial(1), math.factorial(25), math.factorial(True),
      len(str(math.factorial(1000))), math.factorial(5000).bit_length(), math.factorial(200) // math.factorial(198))
print(math.lcm(), math.lcm(4), math.lcm(-4), math.lcm(4, 6), math.lcm(4, 6, 0), math.lcm(3, 5, 7),
      math.lcm(2**70, 6), math.gcd(-12), math.gcd(2**70, 2**35 * 3))
for f, args in [(math.comb, (5, -1)), (math.comb, (-5, 1)), (math.comb, (5.0, 1)),
                (math.comb, (10**20, 10**19)), (math.perm, (5, -1)), (math.perm, (-1,)),
                (math.perm, (5, 1.5)), (math.factorial, (2**100,)), (math.factorial, (5.0,)),
                (math.factorial, (-1,)), (math.factorial, (-2**100,)), (math.lcm, (1.5,)),
                (math.comb, (5,)), (math.perm, ()), (math.trunc, ("a",)), (math.trunc, (2.5,)),
                (math.isqrt, (2.0,))]:
    show(f, *args)
print(sorted(n for n in dir(math) if not n.startswith("_")))
