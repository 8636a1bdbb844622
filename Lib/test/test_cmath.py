# cmath: every function on ordinary and special values (signed zeros, infinities,
# NaNs), the error rules, and the helpers (phase, polar, rect, isclose).
import cmath, math
inf, nan = math.inf, math.nan
def fmt(z):
    if isinstance(z, complex):
        return "(%s, %s)" % (fmt(z.real), fmt(z.imag))
    if isinstance(z, float):
        if math.isnan(z): return "nan"
        if math.isinf(z) or z == 0: return repr(z)
        return "%.12g" % z
    return repr(z)
vals = [0j, -0j, complex(0.0, -0.0), complex(-0.0, -0.0), 1+0j, -1+0j, 2+3j, -2.5-1j, 0.5j, -0.5j, 1j, -1j, 2+0j, -2+0j,
        1e-300+1e-300j, 1e300+1e300j, 800+0j, -800+0j, 800j, complex(inf, 0), complex(-inf, 0), complex(0, inf), complex(0, -inf),
        complex(inf, inf), complex(-inf, inf), complex(inf, -inf), complex(nan, 0), complex(0, nan), complex(nan, nan),
        complex(inf, nan), complex(nan, inf), complex(1, inf), complex(1, nan), complex(inf, 1), complex(-inf, 1)]
for name in ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]:
    f = getattr(cmath, name)
    for z in vals:
        try:
            r = fmt(f(z))
        except (ValueError, OverflowError) as e:
            r = "%s: %s" % (type(e).__name__, e)
        print(name, fmt(z), r)


def show(f, *args, **kwargs):
    try:
        r = f(*args, **kwargs)
        r = fmt(r) if isinstance(r, (complex, float)) else repr(r)
    except Exception as e:
        r = "%s: %s" % (type(e).__name__, e)
    print(f.__name__, args, r)


class C:
    def __repr__(self):
        return "C()"

    def __complex__(self):
        return 3 + 4j


class F:
    def __repr__(self):
        return "F()"

    def __float__(self):
        return 2.0


class I:
    def __repr__(self):
        return "I()"

    def __index__(self):
        return 9


show(cmath.sqrt, "a")
show(cmath.sqrt, None)
show(cmath.sqrt, C())
show(cmath.sqrt, F())
show(cmath.sqrt, I())
show(cmath.sqrt, 2**2000)
show(cmath.sqrt, -4)
show(cmath.phase, -1)
show(cmath.phase, complex(-1, -0.0))
show(cmath.phase, 1j)
show(cmath.polar, 1j)
show(cmath.polar, complex(1e308, 1e308))
show(cmath.polar, complex(1.7e308, 1.7e308))
show(cmath.polar, complex(inf, nan))
for r, p in [(1, 0), (-1, 0), (2, math.pi / 2), (0, inf), (1, inf), (inf, 0), (inf, 1), (-inf, 0),
             (inf, inf), (nan, 0), (1, nan), (0, nan), (inf, nan), (-0.0, 1), (0.0, -1),
             (inf, -0.0), (-inf, 2), (3, 0.5)]:
    show(cmath.rect, r, p)
show(cmath.rect, "a", 1)
show(cmath.log, 8, 2)
show(cmath.log, 1j, 1j)
show(cmath.log, 8, 1)
show(cmath.log, 8, 0)
show(cmath.log, 0, 2)
show(cmath.log, -1)
show(cmath.log, 8, 2, 3)
show(cmath.log10, 100)
show(cmath.isclose, 1j, 1j + 1e-10)
show(cmath.isclose, 1, 1.1, rel_tol=-1)
show(cmath.isclose, complex(inf, 1), complex(inf, 1))
show(cmath.isclose, complex(inf, 1), complex(inf, 2))
show(cmath.isclose, 1, 1.01, abs_tol=0.1)
show(cmath.isclose, 1, 1.01)
show(cmath.isclose, nan, nan)
show(cmath.isnan, complex(1, nan))
show(cmath.isinf, complex(inf, nan))
show(cmath.isfinite, 1j)
show(cmath.isfinite, complex(1, inf))
print(cmath.pi, cmath.e, cmath.tau, cmath.inf, cmath.nan, cmath.infj, cmath.nanj)
print(sorted(n for n in dir(cmath) if not n.startswith("_")))
