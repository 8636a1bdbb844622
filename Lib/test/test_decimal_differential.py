# Golden differential test for decimal: 1500 seeded random Context operations
# over special and edge values (all rounding modes, small exponent limits,
# clamping, untrapped signals), each printed with its result and the flags.
import random, decimal
from decimal import *
rng = random.Random(1234)
vals = ["0", "-0", "1", "-1", "0.1", "2.5", "-3.75", "1e10", "1e-10", "123456789.987654321",
        "Infinity", "-Infinity", "NaN", "sNaN", "9.999999999999999999999999999", "1E+999998", "1E-999998", "7", "-2", "0.00"]
ops2 = ["add", "subtract", "multiply", "divide", "divide_int", "remainder", "remainder_near", "power",
        "compare", "compare_signal", "max", "min", "max_mag", "min_mag", "quantize", "next_toward",
        "compare_total", "copy_sign", "same_quantum", "scaleb", "shift", "rotate", "divmod"]
ops1 = ["abs", "plus", "minus", "exp", "ln", "log10", "sqrt", "logb", "normalize", "next_plus", "next_minus",
        "to_integral_exact", "to_integral_value", "number_class", "to_eng_string", "to_sci_string", "is_normal", "is_subnormal"]
out = []
for i in range(1500):
    prec = rng.choice([1, 3, 9, 28, 40])
    rnd = rng.choice([ROUND_UP, ROUND_DOWN, ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, ROUND_HALF_DOWN, ROUND_HALF_EVEN, ROUND_05UP])
    c = Context(prec=prec, rounding=rnd, Emax=rng.choice([999999, 50]), Emin=rng.choice([-999999, -50]), traps=[], clamp=rng.choice([0, 1]))
    if rng.random() < 0.6:
        op = rng.choice(ops2); a = Decimal(rng.choice(vals)); b = Decimal(rng.choice(vals))
        try: r = getattr(c, op)(a, b)
        except Exception as e: r = type(e).__name__
        out.append("%s %s %s %s %s -> %r %s" % (prec, rnd, op, a, b, r, [s.__name__ for s in c.flags if c.flags[s]]))
    else:
        op = rng.choice(ops1); a = Decimal(rng.choice(vals))
        try: r = getattr(c, op)(a)
        except Exception as e: r = type(e).__name__
        out.append("%s %s %s %s -> %r %s" % (prec, rnd, op, a, r, [s.__name__ for s in c.flags if c.flags[s]]))
for v in vals:
    d = Decimal(v)
    try: h = hash(d) if not d.is_nan() else "nan: hash by identity"
    except Exception as e: h = type(e).__name__
    out.append("%s %r %s %s" % (v, h, d.as_tuple(), [format(d, s) for s in ["", ".3e", ".2f", "g", "%", ">12", ",.1f"]]))
print("\n".join(out))
