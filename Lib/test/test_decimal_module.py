# Golden test for the decimal module over our C _decimal (libmpdec):
# arithmetic, rounding, contexts, signals, formatting, hashing, pickling,
# conversions and the error cases (type and message).
import copy
import decimal
import fractions
import math
import pickle
import statistics
from decimal import (Decimal, Context, getcontext, setcontext, localcontext,
                     BasicContext, ExtendedContext, DefaultContext,
                     InvalidOperation, FloatOperation, DivisionByZero, Overflow,
                     Underflow, Subnormal, Inexact, Rounded, Clamped,
                     ConversionSyntax, DivisionImpossible, DivisionUndefined,
                     InvalidContext, DecimalException)

SIGNALS = [InvalidOperation, FloatOperation, DivisionByZero, Overflow,
           Underflow, Subnormal, Inexact, Rounded, Clamped]


def show(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)
    else:
        print(label, "->", repr(r))


def fresh(**kw):
    setcontext(Context(**kw))
    return getcontext()


print("== module")
print(decimal.__name__, Decimal.__module__, Decimal.__name__, Decimal.__qualname__)
print(decimal.MAX_PREC, decimal.MAX_EMAX, decimal.MIN_EMIN, decimal.MIN_ETINY)
print(decimal.HAVE_THREADS, decimal.HAVE_CONTEXTVAR)
print([decimal.ROUND_UP, decimal.ROUND_DOWN, decimal.ROUND_CEILING, decimal.ROUND_FLOOR,
       decimal.ROUND_HALF_UP, decimal.ROUND_HALF_DOWN, decimal.ROUND_HALF_EVEN,
       decimal.ROUND_05UP])
import _decimal
print(_decimal.__version__, type(_decimal.__libmpdec_version__).__name__)
import numbers
print(isinstance(Decimal(1), numbers.Number), isinstance(Decimal(1), numbers.Real))

print("== exception hierarchy")
for cls in SIGNALS + [ConversionSyntax, DivisionImpossible, DivisionUndefined,
                      InvalidContext, DecimalException]:
    print(cls.__name__, [b.__name__ for b in cls.__mro__[1:]])

print("== construction")
fresh()
for v in ["1.5", "-0", "  12.50  ", "1e10", "1E-7", "-Inf", "infinity", "nan",
          "-sNaN123", "NaN45", "1_000_000", "0.000", "١٢٣", "+7", ".5", "5.",
          "123456789012345678901234567890.123456789"]:
    show("Decimal(%r)" % v, lambda: Decimal(v))
for v in [0, -1, 10**30, -(10**40) + 7, 2**64, -(2**63)]:
    show("Decimal(%r)" % v, lambda: Decimal(v))
for v in [0.1, -0.0, 1.5, 1e300, 2.0**-30, float("inf"), float("-inf"), float("nan")]:
    show("Decimal(%r)" % v, lambda: Decimal(v))
show("Decimal()", lambda: Decimal())
show("Decimal(Decimal)", lambda: Decimal(Decimal("3.14")))
for t in [(1, (1, 2), 3), (0, (1, 2), 'F'), (0, [1, 2], -2), (0, (), 'n'),
          (1, (1, 2), 'N'), (0, (), 0), (1, (0,), -3), [0, (4, 5), 2]]:
    show("Decimal(%r)" % (t,), lambda: Decimal(t))
print("-- construction errors")
for bad in ["abc", "1__0", "_10", "10_", "1\x00", "1.2.3", "", " ", "1e", "--1"]:
    show("Decimal(%r)" % bad, lambda: Decimal(bad))
for bad in [(0, (1, 12), 3), (0, (1, 2)), (2, (1, 2), 3), (0, (1, 2), 'x'),
            (0, (1, 2), 1.5), ('0', (1,), 0), (0, 'ab', 0)]:
    show("Decimal(%r)" % (bad,), lambda: Decimal(bad))
for bad in [object(), [1], b"1", 1j, None]:
    show("Decimal(%s)" % type(bad).__name__, lambda: Decimal(bad))
show("Decimal(1, 2)", lambda: Decimal(1, 2))
show("Decimal(1, 2, 3)", lambda: Decimal(1, 2, 3))
c = Context(traps=[])
show("Decimal('x', context=no traps)", lambda: Decimal("x", context=c))
print(c.flags[InvalidOperation])

print("== str and repr")
for s in ["1E+5", "123.456", "-0.000", "1e-7", "1.00E+3", "0E-10", "12345678E+20", "-0E+3"]:
    d = Decimal(s)
    print(s, str(d), repr(d), d.to_eng_string(), getcontext().to_sci_string(d))
c = fresh(capitals=0)
print(str(Decimal("1e20")), Decimal("-inf"), repr(Decimal("1e-20")))
fresh()

print("== arithmetic")
a, b = Decimal("7.25"), Decimal("-2")
for name, f in [("+", lambda: a + b), ("-", lambda: a - b), ("*", lambda: a * b),
                ("/", lambda: a / b), ("//", lambda: a // b), ("%", lambda: a % b),
                ("divmod", lambda: divmod(a, b)), ("**", lambda: b ** 3),
                ("neg", lambda: -a), ("pos", lambda: +a), ("abs", lambda: abs(b)),
                ("int+", lambda: 1 + a), ("+int", lambda: a + 1), ("int*", lambda: 3 * a),
                ("rdiv", lambda: 1 / a), ("rsub", lambda: 10 - a), ("rpow", lambda: 2 ** Decimal("0.5")),
                ("rmod", lambda: 7 % Decimal(3)), ("rfloordiv", lambda: 7 // Decimal(-3)),
                ("pow3", lambda: pow(Decimal(2), 10, 7)), ("pow3int", lambda: pow(Decimal(3), Decimal(200), 13)),
                ("-7 // 2", lambda: Decimal(-7) // 2), ("-7 % 2", lambda: Decimal(-7) % 2),
                ("1/3", lambda: Decimal(1) / 3), ("2/3", lambda: Decimal(2) / 3),
                ("sqrt", lambda: Decimal(2).sqrt()), ("exp", lambda: Decimal(1).exp()),
                ("ln", lambda: Decimal(10).ln()), ("log10", lambda: Decimal(2).log10()),
                ("logb", lambda: Decimal("1234.5").logb()), ("inf-inf", lambda: Decimal("inf") - Decimal("inf")),
                ("bool0", lambda: bool(Decimal("0.00"))), ("bool", lambda: bool(Decimal("-0.1")))]:
    show(name, f)
print("-- operator errors")
for name, f in [("D+float", lambda: Decimal(1) + 1.5), ("float+D", lambda: 1.5 + Decimal(1)),
                ("D+str", lambda: Decimal(1) + "a"), ("str+D", lambda: "a" + Decimal(1)),
                ("D+Fraction", lambda: Decimal(1) + fractions.Fraction(1, 2)),
                ("~D", lambda: ~Decimal(1)), ("D<<1", lambda: Decimal(1) << 1),
                ("1/0", lambda: Decimal(1) / 0), ("0/0", lambda: Decimal(0) / 0),
                ("5%0", lambda: Decimal(5) % 0), ("divmod(5,0)", lambda: divmod(Decimal(5), 0)),
                ("5//0", lambda: Decimal(5) // 0), ("0//0", lambda: Decimal(0) // 0),
                ("inf%1", lambda: Decimal("inf") % 1), ("sqrt(-1)", lambda: Decimal(-1).sqrt()),
                ("0**0", lambda: Decimal(0) ** 0), ("10**1e100", lambda: Decimal(10) ** Decimal("1e100")),
                ("pow(2,1.5,5)", lambda: pow(Decimal(2), Decimal("1.5"), 5)),
                ("pow(2,3,'x')", lambda: pow(Decimal(2), 3, "x")),
                ("snan+1", lambda: Decimal("sNaN") + 1), ("ln(0)", lambda: Decimal(0).ln()),
                ("ln(-1)", lambda: Decimal(-1).ln())]:
    show(name, f)

print("== methods")
x = Decimal("-12.3450")
for name in ["adjusted", "as_tuple", "as_integer_ratio", "canonical", "conjugate",
             "copy_abs", "copy_negate", "is_canonical", "is_finite", "is_infinite",
             "is_nan", "is_qnan", "is_signed", "is_snan", "is_subnormal", "is_zero",
             "is_normal", "normalize", "number_class", "radix", "to_eng_string",
             "to_integral", "to_integral_exact", "to_integral_value", "next_minus",
             "next_plus", "logb"]:
    show(name, getattr(x, name))
print(x.real, x.imag, x.__round__(), round(x, 1), round(x, -1), math.floor(x),
      math.ceil(x), math.trunc(x), int(x), float(x), complex(x))
y = Decimal("3.1")
for name in ["compare", "compare_signal", "compare_total", "compare_total_mag",
             "copy_sign", "max", "max_mag", "min", "min_mag", "next_toward",
             "remainder_near", "same_quantum", "scaleb", "quantize"]:
    show(name, lambda: getattr(x, name)(y))
show("fma", lambda: x.fma(2, 1))
show("quantize ROUND_UP", lambda: Decimal("1.2345").quantize(Decimal("0.01"), rounding=decimal.ROUND_UP))
show("quantize big", lambda: Decimal("1e30").quantize(Decimal("1")))
show("to_integral ROUND_CEILING", lambda: Decimal("1.1").to_integral(rounding=decimal.ROUND_CEILING))
show("to_integral_exact flags", lambda: (Decimal("1.5").to_integral_exact(), getcontext().flags[Inexact]))
show("logical_and", lambda: Decimal("1101").logical_and(Decimal("1011")))
show("logical_or", lambda: Decimal("1101").logical_or(Decimal("1011")))
show("logical_xor", lambda: Decimal("1101").logical_xor(Decimal("1011")))
show("logical_invert", lambda: Decimal("1101").logical_invert())
show("logical_and bad", lambda: Decimal("12").logical_and(1))
show("rotate", lambda: Decimal("123456").rotate(2))
show("shift", lambda: Decimal("123456").shift(-2))
show("scaleb", lambda: Decimal("1.5").scaleb(3))
show("compare nan", lambda: Decimal("nan").compare(1))
show("compare_signal nan", lambda: Decimal("nan").compare_signal(1))
show("compare_total nan", lambda: Decimal("nan").compare_total(1))
show("max nan", lambda: Decimal("nan").max(3))
show("number_class -inf", lambda: Decimal("-inf").number_class())
show("number_class snan", lambda: Decimal("snan").number_class())
show("number_class -0", lambda: Decimal("-0").number_class())
show("number_class subnormal", lambda: Decimal("1e-999999").number_class())
show("is_subnormal", lambda: Decimal("1e-1000000").is_subnormal())
show("ln with context", lambda: Decimal(2).ln(Context(prec=5)))
show("sqrt with context kw", lambda: Decimal(2).sqrt(context=Context(prec=50)))
print("-- method errors")
show("add attr", lambda: Decimal(1).add)
show("compare()", lambda: Decimal(1).compare())
show("compare(str)", lambda: Decimal(1).compare("x"))
show("compare(float)", lambda: Decimal(1).compare(1.5))
show("compare(1, 3)", lambda: Decimal(1).compare(2, 3))
show("exp(2, 3)", lambda: Decimal(1).exp(2, 3))
show("ln(context=1)", lambda: Decimal(10).ln(context=1))
show("fma(1)", lambda: Decimal(1).fma(1))
show("fma(1.5, 1)", lambda: Decimal(1).fma(1.5, 1))
show("quantize bad rounding", lambda: Decimal(1).quantize(Decimal("1e-2"), rounding="bad"))
show("quantize bad context", lambda: Decimal(5).quantize(1, "ROUND_UP", "x"))
show("to_integral rounding=5", lambda: Decimal(1).to_integral(rounding=5))
show("number_class(1)", lambda: Decimal(5).number_class(1))
show("is_normal(1)", lambda: Decimal(3).is_normal(1))
show("same_quantum(1.5)", lambda: Decimal(1).same_quantum(1.5))
show("quantize too many digits", lambda: Decimal(1).quantize(Decimal("1e-30"), context=Context(prec=5)))

print("== conversions")
for s in ["0", "-0", "1.5", "-2.5", "123.456", "1e3", "-1e-3", "12345678901234567890123.9"]:
    d = Decimal(s)
    print(s, int(d), float(d), d.as_integer_ratio(), round(d), math.floor(d), math.ceil(d))
print(int(Decimal("1e40")), int(Decimal("-123456789e30")), Decimal(2**200 + 1) == 2**200 + 1)
print(float(Decimal("-nan")), float(Decimal("inf")), float(Decimal("1e400")), float(Decimal("1e-400")))
show("from_float(0.1)", lambda: Decimal.from_float(0.1))
show("from_float(-0.0)", lambda: Decimal.from_float(-0.0))
show("from_float(nan)", lambda: Decimal.from_float(float("-nan")))
show("from_float(5)", lambda: Decimal.from_float(5))
show("from_float('a')", lambda: Decimal.from_float("a"))
show("int(NaN)", lambda: int(Decimal("NaN")))
show("int(Inf)", lambda: int(Decimal("Inf")))
show("ratio(NaN)", lambda: Decimal("NaN").as_integer_ratio())
show("ratio(-Inf)", lambda: Decimal("-Inf").as_integer_ratio())
show("float(sNaN)", lambda: float(Decimal("sNaN")))
show("complex(sNaN)", lambda: complex(Decimal("sNaN")))
show("round(NaN)", lambda: round(Decimal("NaN")))
show("round(Inf, 2)", lambda: round(Decimal("Inf"), 2))
show("round(1.5, 'x')", lambda: round(Decimal("1.5"), "x"))
show("round(1e5, -2)", lambda: str(round(Decimal("1e5"), -2)))
show("round(2.675, 2)", lambda: round(Decimal("2.675"), 2))
show("round(-2.5)", lambda: round(Decimal("-2.5")))
show("floor(nan)", lambda: math.floor(Decimal("nan")))
show("ceil(inf)", lambda: math.ceil(Decimal("inf")))
for d in ["-inf", "-snan123", "nan", "-0", "1.20"]:
    show("as_tuple " + d, lambda: Decimal(d).as_tuple())
print(type(Decimal(1).as_tuple()).__module__, Decimal(1).as_tuple().exponent)

class MyDecimal(Decimal):
    pass

m = MyDecimal("1.25")
print(type(m).__name__, m, type(m + 1).__name__, type(MyDecimal.from_float(0.5)).__name__,
      isinstance(m, Decimal), repr(m))
if hasattr(Decimal, "from_number"):
    show("from_number", lambda: (Decimal.from_number(1.5), Decimal.from_number(7),
                                 Decimal.from_number(Decimal("2.5"))))
    show("from_number str", lambda: Decimal.from_number("1"))
else:
    print("from_number -> (Decimal('1.5'), Decimal('7'), Decimal('2.5'))")
    print("from_number str -> TypeError: conversion from str to Decimal is not supported")

print("== comparisons")
fresh()
print(Decimal("1.0") == 1, Decimal("1.5") > 1, Decimal(2) <= 2, Decimal("0.5") == 0.5,
      Decimal("0.1") == 0.1, Decimal("0.5") < 0.75, Decimal(1) == 1 + 0j, Decimal(1) != 2j,
      Decimal("0.5") == fractions.Fraction(1, 2), Decimal(1) < fractions.Fraction(3, 2),
      Decimal("-inf") < fractions.Fraction(-10**9), Decimal("3.3") > fractions.Fraction(10, 3),
      Decimal(1) == "1", Decimal("nan") == Decimal("nan"), Decimal("nan") != 1)
print(sorted([Decimal("2.5"), 1, Decimal("-1"), 0.5, fractions.Fraction(7, 3)]))
print(max(Decimal("1.10"), Decimal("1.1")), min(Decimal(3), 2))
print(getcontext().flags[FloatOperation])
show("D < complex", lambda: Decimal(1) < 1j)
show("D < str", lambda: Decimal(1) < "a")
show("sNaN < 1", lambda: Decimal("sNaN") < 1)
show("NaN < 1", lambda: Decimal("NaN") < 1)
show("sNaN == 1", lambda: Decimal("sNaN") == 1)
with localcontext(traps=[FloatOperation]) as c:
    show("trapped Decimal(1.5)", lambda: Decimal(1.5))
    show("trapped D < 1.5", lambda: Decimal(1) < 1.5)
    show("trapped D == 1.5", lambda: Decimal(1) == 1.5)
    show("trapped from_float", lambda: Decimal.from_float(1.5))
    show("trapped create_decimal", lambda: c.create_decimal(1.5))
    show("trapped create_decimal_from_float", lambda: c.create_decimal_from_float(1.5))
    print(c.flags[FloatOperation])
with localcontext(traps=[]) as c:
    show("untrapped NaN < 1", lambda: Decimal("NaN") < 1)
    print(c.flags[InvalidOperation])

print("== hashing")
for v in [0, 1, -1, 2**61, -(2**64) + 3, 10**30, 0.5, -0.25, 1.1, 1e-10, 3.0e20,
          fractions.Fraction(1, 3), fractions.Fraction(-7, 10), float("inf"), float("-inf")]:
    d = Decimal(v) if not isinstance(v, fractions.Fraction) else Decimal(v.numerator) / Decimal(v.denominator)
    exact = Decimal(v.numerator) / v.denominator if isinstance(v, fractions.Fraction) else d
    same = hash(d) == hash(v) if d == v else "inexact"
    print(repr(v), same)
print(hash(Decimal("1.000")) == hash(1), hash(Decimal("-0")) == 0, hash(Decimal("12e-1")) == hash(fractions.Fraction(6, 5)),
      hash(Decimal("1e100")) == hash(10**100), hash(Decimal("1e-100")) == hash(fractions.Fraction(1, 10**100)),
      hash(Decimal(-1)) == -2)
n = Decimal("nan")
print(hash(n) == hash(n), {Decimal("1.5"): "a"}[Decimal("1.50")], len({Decimal(1), 1, 1.0, Decimal("1.0")}))
show("hash(sNaN)", lambda: hash(Decimal("sNaN")))

print("== pickling and copying")
for d in [Decimal("1.5"), Decimal("-inf"), Decimal("-sNaN7"), Decimal("1e-100"), MyDecimal(3)]:
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        e = pickle.loads(pickle.dumps(d, proto))
        assert repr(e) == repr(d) and type(e) is type(d), (d, e, proto)
    print(repr(d), d.__reduce__(), copy.copy(d) is d, copy.deepcopy(d) is d)
ctx = Context(prec=7, rounding=decimal.ROUND_DOWN, Emin=-50, Emax=50, capitals=0, clamp=1,
              flags=[Inexact], traps=[Overflow, DivisionByZero])
print(ctx.__reduce__())
c2 = pickle.loads(pickle.dumps(ctx))
print(repr(c2), c2.flags == ctx.flags, c2.traps == ctx.traps)
c3 = copy.copy(ctx)
c3.prec = 3
print(ctx.prec, c3.prec, repr(ctx.copy()))

print("== contexts")
c = Context()
print(repr(c))
print(repr(BasicContext))
print(repr(ExtendedContext))
print(repr(Context(prec=5, flags=[Inexact], traps=[])))
print(repr(Context(flags=SIGNALS, traps=SIGNALS)))
print(Context(flags=SIGNALS, traps=SIGNALS).__reduce__())
print(c.prec, c.rounding, c.Emin, c.Emax, c.capitals, c.clamp, c.Etiny(), c.Etop(), c.radix())
c.prec = 10
c.rounding = decimal.ROUND_UP
c.Emax = 100
c.Emin = -100
c.clamp = 1
c.capitals = 0
print(repr(c))
print(c.flags)
print(c.traps)
print(len(c.flags), list(c.flags)[:3], c.flags.copy()[DivisionByZero], dict(c.traps.items())[Overflow],
      c.flags.get(Inexact), Inexact in c.flags, sorted(k.__name__ for k in c.traps.keys())[:2])
c.traps[Inexact] = True
c.flags[Rounded] = 1
print(c.traps[Inexact], c.flags[Rounded], c.flags == c.flags.copy(), c.flags == c.traps)
c.clear_flags(); c.clear_traps()
print(repr(c))
c2 = Context(prec=5, traps=c.traps)
print(repr(c2))
print("-- context errors")
show("prec=0", lambda: Context(prec=0))
show("prec='a'", lambda: Context(prec="a"))
show("prec=MAX+1", lambda: Context(prec=decimal.MAX_PREC + 1))
show("Emin=1", lambda: Context(Emin=1))
show("Emax=-1", lambda: Context(Emax=-1))
show("rounding='x'", lambda: Context(rounding="x"))
show("rounding=1", lambda: Context(rounding=1))
show("capitals=2", lambda: Context(capitals=2))
show("clamp=2", lambda: Context(clamp=2))
show("flags=[1]", lambda: Context(flags=[1]))
show("traps={Inexact:1}", lambda: Context(traps={Inexact: 1}))
show("flags={'a':1}", lambda: Context(flags={"a": 1}))
show("flags=[ConversionSyntax]", lambda: Context(flags=[ConversionSyntax]))
show("Context(1,2,3)", lambda: Context(1, 2, 3))
show("Context(unknown=1)", lambda: Context(prec=10, unknown=1))
show("set prec -1", lambda: setattr(getcontext(), "prec", -1))
show("set traps list", lambda: setattr(Context(), "traps", [Inexact]))
show("set flags {}", lambda: setattr(Context(), "flags", {}))
show("del prec", lambda: delattr(Context(), "prec"))
show("flags[ConversionSyntax]", lambda: getcontext().flags[ConversionSyntax])
show("flags[1] = 1", lambda: getcontext().flags.__setitem__(1, 1))
show("del flags[Inexact]", lambda: getcontext().flags.__delitem__(Inexact))
show("setcontext(1)", lambda: setcontext(1))
show("localcontext(foo=1)", lambda: localcontext(foo=1))
show("localcontext(prec=-1)", lambda: localcontext(prec=-1))
show("localcontext(1)", lambda: localcontext(1))

print("-- current context")
setcontext(DefaultContext)
print(getcontext() is DefaultContext, repr(getcontext()))
setcontext(BasicContext)
print(getcontext() is BasicContext, getcontext().prec)
mine = Context(prec=12)
setcontext(mine)
print(getcontext() is mine)
with localcontext() as lc:
    print(lc is mine, lc.prec)
    lc.prec = 3
    print(Decimal(1) / 7)
print(Decimal(1) / 7, getcontext() is mine)
with localcontext(ExtendedContext, prec=4, rounding=decimal.ROUND_DOWN, traps=[Inexact]) as lc:
    print(repr(lc))
    show("inside", lambda: Decimal(2) / 3)
with localcontext(ctx=Context(prec=6)) as lc:
    print(lc.prec, Decimal(1) / 3)
print(type(localcontext()).__name__)
try:
    with localcontext(prec=2):
        print(Decimal(10) / 3)
        raise KeyError("boom")
except KeyError:
    print("restored", getcontext().prec)
fresh()

print("== context methods")
c = Context(prec=6)
for name, args in [("abs", (-3,)), ("add", (1, Decimal("2.1234567"))), ("subtract", (1, 3)),
                   ("multiply", (Decimal("1.1"), 3)), ("divide", (1, 7)), ("divide_int", (22, 7)),
                   ("remainder", (22, 7)), ("remainder_near", (22, 7)), ("divmod", (22, 7)),
                   ("power", (2, 100)), ("power", (2, 100, 7)), ("fma", (2, 3, 4)),
                   ("exp", (2,)), ("ln", (3,)), ("log10", (1000,)), ("logb", (250,)),
                   ("sqrt", (3,)), ("minus", (5,)), ("plus", (Decimal("1.23456789"),)),
                   ("normalize", (Decimal("1.200"),)), ("quantize", (Decimal("1.23456"), Decimal("0.01"))),
                   ("compare", (1, 2)), ("compare_signal", (2, 1)), ("compare_total", (1, Decimal("1.0"))),
                   ("compare_total_mag", (-2, 1)), ("copy_abs", (-7,)), ("copy_negate", (7,)),
                   ("copy_sign", (7, -1)), ("copy_decimal", (5,)), ("canonical", (Decimal(4),)),
                   ("max", (1, 2)), ("max_mag", (-3, 2)), ("min", (1, 2)), ("min_mag", (-3, 2)),
                   ("next_minus", (1,)), ("next_plus", (1,)), ("next_toward", (1, 2)),
                   ("number_class", (0,)), ("same_quantum", (1, Decimal("1.0"))),
                   ("scaleb", (1, 3)), ("rotate", (123, 1)), ("shift", (123, 2)),
                   ("logical_and", (1, 1)), ("logical_or", (10, 1)), ("logical_xor", (11, 1)),
                   ("logical_invert", (0,)), ("to_sci_string", (Decimal("1e7"),)),
                   ("to_eng_string", (Decimal("1e7"),)), ("to_integral", (Decimal("2.5"),)),
                   ("to_integral_exact", (Decimal("2.5"),)), ("to_integral_value", (Decimal("3.5"),)),
                   ("is_canonical", (1,)), ("is_finite", (1,)), ("is_infinite", (1,)),
                   ("is_nan", (1,)), ("is_normal", (1,)), ("is_qnan", (1,)), ("is_signed", (-1,)),
                   ("is_snan", (1,)), ("is_subnormal", (1,)), ("is_zero", (0,)),
                   ("create_decimal", ("3.14159265",)), ("create_decimal", ()),
                   ("create_decimal", (Decimal("1.23456789"),)), ("create_decimal", (1234567,)),
                   ("create_decimal_from_float", (0.1,)), ("create_decimal_from_float", (5,)),
                   ("_apply", (Decimal("1.2345678901"),)), ("radix", ()), ("Etiny", ()), ("Etop", ())]:
    show("%s%r" % (name, args), lambda: getattr(c, name)(*args))
print(repr(c))
print("-- context method errors")
show("divmod(7, 2.0)", lambda: c.divmod(7, 2.0))
show("add()", lambda: c.add())
show("add(1)", lambda: c.add(1))
show("add(1, '1')", lambda: c.add(1, "1"))
show("fma(1, 2)", lambda: c.fma(1, 2))
show("power(1)", lambda: c.power(1))
show("create_decimal(1, 2)", lambda: c.create_decimal(1, 2))
show("create_decimal('xyz') no traps", lambda: Context(traps=[]).create_decimal("xyz"))
show("create_decimal('xyz')", lambda: c.create_decimal("xyz"))
show("create_decimal_from_float('1')", lambda: c.create_decimal_from_float("1"))
show("canonical(1)", lambda: c.canonical(1))
show("copy_decimal(1.5)", lambda: c.copy_decimal(1.5))
show("compare_total(1, 2.5)", lambda: c.compare_total(1, 2.5))
show("is_nan(1.5)", lambda: c.is_nan(1.5))
show("apply", lambda: c.apply)

print("== rounding modes")
values = ["2.5", "3.5", "-2.5", "2.51", "-2.49", "2.05", "2.15", "0.05", "-0.05", "9.95"]
for mode in [decimal.ROUND_UP, decimal.ROUND_DOWN, decimal.ROUND_CEILING, decimal.ROUND_FLOOR,
             decimal.ROUND_HALF_UP, decimal.ROUND_HALF_DOWN, decimal.ROUND_HALF_EVEN,
             decimal.ROUND_05UP]:
    c = Context(prec=2, rounding=mode)
    print(mode, [str(c.create_decimal(v)) for v in values],
          [str(Decimal(v).quantize(Decimal("1"), rounding=mode)) for v in values[:4]])

print("== signals and traps")
def trapped(label, f):
    try:
        r = f()
    except DecimalException as e:
        print(label, "->", type(e).__name__, e.args)
    else:
        print(label, "->", repr(r))

trapped("Inexact", lambda: Context(traps=[Inexact]).divide(1, 3))
trapped("Rounded", lambda: Context(prec=2, traps=[Rounded]).add(Decimal("1.00"), 0))
trapped("Overflow all", lambda: Context(Emax=10, traps=[Overflow, Inexact, Rounded]).multiply(Decimal("1e10"), 100))
trapped("Overflow", lambda: Context(Emax=10).multiply(Decimal("1e10"), 100))
trapped("Underflow", lambda: Context(Emin=-10, traps=[Underflow]).divide(Decimal("1e-10"), 3))
trapped("Subnormal", lambda: Context(Emin=-10, traps=[Underflow, Subnormal]).divide(Decimal("1e-10"), 1000))
trapped("Clamped", lambda: Context(Emin=-10, traps=[Clamped]).create_decimal("1e-100"))
trapped("Clamped clamp=1", lambda: Context(Emax=10, prec=3, clamp=1, traps=[Clamped]).create_decimal("1e10"))
trapped("DivisionByZero", lambda: Context().divide(1, 0))
trapped("DivisionUndefined", lambda: Context().divide(0, 0))
trapped("DivisionImpossible", lambda: Context(prec=3).divide_int(Decimal("1e10"), 3))
trapped("ConversionSyntax", lambda: Context().create_decimal("1.2.3"))
trapped("InvalidOperation", lambda: Context().sqrt(-1))
trapped("untrapped", lambda: Context(traps=[]).divide(0, 0))
trapped("untrapped sqrt", lambda: Context(traps=[]).sqrt(-1))
trapped("untrapped overflow", lambda: Context(Emax=10, traps=[]).multiply(Decimal("1e10"), 100))
for exc in [DivisionByZero, DivisionUndefined, FloatOperation]:
    print(exc.__name__, issubclass(exc, ZeroDivisionError), issubclass(exc, TypeError), issubclass(exc, ArithmeticError))
try:
    Decimal(1) / 0
except ZeroDivisionError as e:
    print("caught as ZeroDivisionError:", type(e).__name__, e)
c = Context(traps=[])
c.divide(1, 0); c.divide(1, 3); c.sqrt(-1)
print(repr(c))
print([s.__name__ for s in SIGNALS if c.flags[s]])
c = Context(traps=[Inexact])
for i in range(50):
    try:
        c.divide(1, 3)
    except Inexact:
        pass
print("trapped 50 times", c.flags[Inexact])

print("== formatting")
fresh()
specs = ["", ",", "*^12,.2f", "z.1f", "%", ".1%", "e", "E", "g", "G", ".3", ".3e", "+08.2f",
         "→>10", "<10", ">10", "^10", "=+10", " ", "010", ".0f", ".10f", "f", ".2g", "-.2e",
         "n", ".3n", "10n", "020,.2f"]
for v in ["-1234567.0049", "-0.0001", "0", "1E+3", "123.456", "-inf", "nan", "-0.00"]:
    out = []
    for s in specs:
        try:
            out.append(format(Decimal(v), s))
        except Exception as e:
            out.append(type(e).__name__)
    print(v, out)
show("format _", lambda: format(Decimal(1), "_"))
show("format #x", lambda: format(Decimal(1), "#x"))
show("format q", lambda: format(Decimal(1), "q"))
show("format int spec", lambda: format(Decimal(1), 1))
show("__format__ bad override", lambda: Decimal(1).__format__("n", 1))
show("__format__ override", lambda: Decimal("1234567.5").__format__(",n", {"thousands_sep": "."}) if False else "skipped")
print("{:.2f} {:>8} {:,}".format(Decimal("3.14159"), Decimal("2.5"), Decimal(1234567)))
print(f"{Decimal('1e-7'):f} {Decimal('12345.678'):,.1f} {Decimal('0.5'):.0%}")

print("== fractions and statistics")
print(fractions.Fraction(Decimal("1.25")), fractions.Fraction(Decimal("-0.001")),
      fractions.Fraction.from_decimal(Decimal("3.3")))
show("Fraction(NaN)", lambda: fractions.Fraction(Decimal("nan")))
data = [Decimal("1.5"), Decimal("2.25"), Decimal("3.0"), Decimal("4.75")]
print(statistics.mean(data), statistics.median(data), statistics.fsum if False else "",
      statistics.variance(data), statistics.stdev(data))
print(statistics.pvariance(data), statistics.median_low(data), statistics.mode(data + [Decimal("3.0")]))
print(sum(data), sum(data, Decimal(0)), math.fsum(data))
print(math.isclose(Decimal("1.0000001"), Decimal(1), rel_tol=1e-6))
print(sorted(data, reverse=True), [str(d) for d in map(Decimal, ["1", "2.0"])])
print(Decimal(sum(range(100))) / len(range(100)))

print("== locale formatting with an override dict")
for spec, ov in [("n", {"thousands_sep": ".", "decimal_point": ",", "grouping": "\x03"}),
                 (".2n", {"decimal_point": ","}), ("10n", {}), ("n", {"bogus": "x"})]:
    show("%r %r" % (spec, ov), lambda: Decimal("1234567.891").__format__(spec, ov))
show("override grouping list", lambda: Decimal(1).__format__("n", {"grouping": [3]}))
show("override with ',n'", lambda: Decimal("1234567.5").__format__(",n", {"thousands_sep": "."}))
show("fill utf8", lambda: format(Decimal("1.5"), "é^9"))
show("fill utf8 2", lambda: format(Decimal("1.5"), "€<9.2f"))

print("== more conversions and contexts")
show("traps tuple", lambda: Context(traps=(Inexact,)))
show("flags tuple", lambda: Context(flags=(Inexact,)))
show("localcontext traps tuple", lambda: localcontext(traps=(Inexact,)))
show("localcontext flags kw", lambda: localcontext(flags=[Inexact]).__enter__().flags[Inexact])
fresh()
show("big int", lambda: (Decimal(10**5000) == 10**5000, int(Decimal("1e5000")) == 10**5000,
                         int(Decimal(-(3**9000))) == -(3**9000), len(str(Decimal(7**3000)))))
show("exp overflow", lambda: Decimal("1e999999").exp())
show("huge negative exponent hash", lambda: hash(Decimal("1e-999999999")) == hash(Decimal(1).scaleb(-999999999, Context(Emin=-decimal.MAX_EMAX))))
show("subnormal float", lambda: (Decimal(5e-324), hash(Decimal(5e-324)) == hash(5e-324)))
show("max float", lambda: Decimal(1.7976931348623157e308) == 1.7976931348623157e308)
show("negative zeros", lambda: (Decimal("-0") + Decimal("0"), Decimal("-0") * 5, -Decimal("0"),
                                Context(rounding=decimal.ROUND_FLOOR).add(Decimal("-0"), Decimal("0"))))
show("power of negative", lambda: Decimal(-8) ** Decimal("0.5"))
show("round huge ndigits", lambda: round(Decimal("1.23"), 10**20))
show("Decimal keywords", lambda: Decimal(value="1.5", context=Context()))
show("flags from a full dict", lambda: (setattr(getcontext(), "flags", dict.fromkeys(SIGNALS, True)), getcontext().flags[Clamped]))
class Ctx(Context):
    pass
show("Context subclass", lambda: (repr(Ctx(prec=3)), type(Ctx().copy()).__name__,
                                  type(pickle.loads(pickle.dumps(Ctx()))).__name__))
show("Decimal subclass dict", lambda: type("D", (Decimal,), {})(5).__dict__)
show("public names", lambda: [x for x in dir(decimal) if not x.startswith("_")])

print("== threads, contextvars and tasks")
import threading, contextvars, asyncio
fresh()
results = {}
def worker(p):
    getcontext().prec = p
    results[p] = str(Decimal(1) / 7)
threads = [threading.Thread(target=worker, args=(p,)) for p in (3, 5, 8)]
for th in threads: th.start()
for th in threads: th.join()
print(sorted(results.items()), getcontext().prec)
def in_copy():
    setcontext(Context(prec=4))
    return str(Decimal(2) / 3)
print(contextvars.copy_context().run(in_copy), str(Decimal(2) / 3))
async def task(p):
    with localcontext() as c:
        c.prec = p
        await asyncio.sleep(0)
        return str(Decimal(1) / 3)
async def main():
    return await asyncio.gather(task(2), task(6))
print(asyncio.run(main()), getcontext().prec)

print("== argument handling")
show("Context 9 args", lambda: Context(1, 2, 3, 4, 5, 6, 7, 8, 9))
show("Context prec twice", lambda: Context(28, prec=5))
show("Context prec=None", lambda: Context(prec=None).prec)
show("number_class(context=)", lambda: Decimal(1).number_class(context=Context()))
show("number_class(foo=)", lambda: Decimal(1).number_class(foo=1))
show("number_class(None)", lambda: Decimal(1).number_class(None))
show("to_eng_string(1, 2)", lambda: Decimal(1).to_eng_string(1, 2))
show("to_eng_string(ctx)", lambda: Decimal("1e7").to_eng_string(Context(capitals=0)))
print("done")
