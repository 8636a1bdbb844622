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
