/* The operations of Decimal and Context as tables (X-macros), so each is
   named once and both types' methods are generated from the same entry.

   Every libmpdec function is called through one of three shapes; the
   adapters below give the few odd-shaped ones (copies, total orderings)
   the common shape. */

#ifndef Py_DECIMAL_OPS_H
#define Py_DECIMAL_OPS_H

#include "decimal.h"

typedef void (*DecUnaryFn)(mpd_t *, const mpd_t *, const mpd_context_t *, uint32_t *);
typedef void (*DecBinaryFn)(mpd_t *, const mpd_t *, const mpd_t *,
                            const mpd_context_t *, uint32_t *);
typedef int (*DecPredicateFn)(const mpd_t *, const mpd_context_t *);

/* Adapters (operations.c). */
void _PyDecOp_CopyAbs(mpd_t *, const mpd_t *, const mpd_context_t *, uint32_t *);
void _PyDecOp_CopyNegate(mpd_t *, const mpd_t *, const mpd_context_t *, uint32_t *);
void _PyDecOp_Apply(mpd_t *, const mpd_t *, const mpd_context_t *, uint32_t *);
void _PyDecOp_ToIntegral(mpd_t *, const mpd_t *, const mpd_context_t *, uint32_t *);
void _PyDecOp_Compare(mpd_t *, const mpd_t *, const mpd_t *, const mpd_context_t *, uint32_t *);
void _PyDecOp_CompareSignal(mpd_t *, const mpd_t *, const mpd_t *, const mpd_context_t *, uint32_t *);
void _PyDecOp_CompareTotal(mpd_t *, const mpd_t *, const mpd_t *, const mpd_context_t *, uint32_t *);
void _PyDecOp_CompareTotalMag(mpd_t *, const mpd_t *, const mpd_t *, const mpd_context_t *, uint32_t *);
void _PyDecOp_CopySign(mpd_t *, const mpd_t *, const mpd_t *, const mpd_context_t *, uint32_t *);
int _PyDecOp_IsCanonical(const mpd_t *, const mpd_context_t *);
int _PyDecOp_IsFinite(const mpd_t *, const mpd_context_t *);
int _PyDecOp_IsInfinite(const mpd_t *, const mpd_context_t *);
int _PyDecOp_IsNan(const mpd_t *, const mpd_context_t *);
int _PyDecOp_IsQnan(const mpd_t *, const mpd_context_t *);
int _PyDecOp_IsSnan(const mpd_t *, const mpd_context_t *);
int _PyDecOp_IsSigned(const mpd_t *, const mpd_context_t *);
int _PyDecOp_IsZero(const mpd_t *, const mpd_context_t *);
int _PyDecOp_IsNormal(const mpd_t *, const mpd_context_t *);
int _PyDecOp_IsSubnormal(const mpd_t *, const mpd_context_t *);

/* Unary operations that round to the context: X(name, function, doc). */
#define DEC_UNARY_OPS(X)                                                          \
    X(exp, mpd_qexp, "e raised to the power of the operand.")                     \
    X(ln, mpd_qln, "The natural logarithm.")                                      \
    X(log10, mpd_qlog10, "The base 10 logarithm.")                                \
    X(sqrt, mpd_qsqrt, "The square root, correctly rounded.")                     \
    X(logb, mpd_qlogb, "The adjusted exponent as a Decimal.")                     \
    X(logical_invert, mpd_qinvert, "Digit-wise inversion of a logical operand.")  \
    X(normalize, mpd_qreduce, "Rounded, with trailing zeros stripped.")           \
    X(next_minus, mpd_qnext_minus, "The largest representable number below.")     \
    X(next_plus, mpd_qnext_plus, "The smallest representable number above.")

/* Unary operations whose Decimal methods also take a rounding mode. */
#define DEC_ROUNDING_UNARY_OPS(X)                                                 \
    X(to_integral_exact, mpd_qround_to_intx,                                      \
      "Rounded to an integer, signalling Inexact and Rounded.")                   \
    X(to_integral_value, _PyDecOp_ToIntegral,                                     \
      "Rounded to an integer without signalling Inexact or Rounded.")             \
    X(to_integral, _PyDecOp_ToIntegral, "The same as to_integral_value().")

/* Exact unary operations (Decimal methods take no context). */
#define DEC_EXACT_UNARY_OPS(X)                                                    \
    X(copy_abs, _PyDecOp_CopyAbs, "The absolute value, exactly.")                 \
    X(copy_negate, _PyDecOp_CopyNegate, "The operand with its sign inverted.")

/* Unary operations only Context has as methods. */
#define DEC_CONTEXT_UNARY_OPS(X)                                                  \
    X(abs, mpd_qabs, "The absolute value, rounded.")                              \
    X(plus, mpd_qplus, "The operand rounded, as unary plus.")                     \
    X(minus, mpd_qminus, "The operand negated and rounded.")                      \
    X(_apply, _PyDecOp_Apply, "The operand rounded to this context.")

/* Binary operations shared by both types. */
#define DEC_BINARY_OPS(X)                                                         \
    X(compare, _PyDecOp_Compare, "-1, 0 or 1 as a Decimal; NaN for a NaN.")       \
    X(compare_signal, _PyDecOp_CompareSignal,                                     \
      "As compare(), but any NaN signals InvalidOperation.")                      \
    X(compare_total, _PyDecOp_CompareTotal, "The total ordering of the operands.")\
    X(compare_total_mag, _PyDecOp_CompareTotalMag,                                \
      "The total ordering of the absolute values.")                               \
    X(copy_sign, _PyDecOp_CopySign, "The first operand with the second's sign.")  \
    X(max, mpd_qmax, "The larger operand, NaNs being ignored.")                   \
    X(max_mag, mpd_qmax_mag, "The operand of larger absolute value.")             \
    X(min, mpd_qmin, "The smaller operand, NaNs being ignored.")                  \
    X(min_mag, mpd_qmin_mag, "The operand of smaller absolute value.")            \
    X(next_toward, mpd_qnext_toward, "The next number from the first toward the second.") \
    X(remainder_near, mpd_qrem_near, "The remainder nearest to zero.")            \
    X(logical_and, mpd_qand, "Digit-wise and of two logical operands.")           \
    X(logical_or, mpd_qor, "Digit-wise or of two logical operands.")              \
    X(logical_xor, mpd_qxor, "Digit-wise exclusive or of two logical operands.")  \
    X(rotate, mpd_qrotate, "The digits rotated by the second operand.")           \
    X(scaleb, mpd_qscaleb, "The exponent adjusted by the second operand.")        \
    X(shift, mpd_qshift, "The digits shifted by the second operand.")

#define DEC_ROUNDING_BINARY_OPS(X)                                                \
    X(quantize, mpd_qquantize, "The first operand with the exponent of the second.")

#define DEC_CONTEXT_BINARY_OPS(X)                                                 \
    X(add, mpd_qadd, "The sum, rounded.")                                         \
    X(subtract, mpd_qsub, "The difference, rounded.")                             \
    X(multiply, mpd_qmul, "The product, rounded.")                                \
    X(divide, mpd_qdiv, "The quotient, rounded.")                                 \
    X(divide_int, mpd_qdivint, "The integer part of the quotient.")               \
    X(remainder, mpd_qrem, "The remainder of the integer division.")

/* Predicates: X(name, function, doc). */
#define DEC_PREDICATES(X)                                                         \
    X(is_canonical, _PyDecOp_IsCanonical, "Always True: every Decimal is canonical.") \
    X(is_finite, _PyDecOp_IsFinite, "True unless infinite or a NaN.")             \
    X(is_infinite, _PyDecOp_IsInfinite, "True for an infinity.")                  \
    X(is_nan, _PyDecOp_IsNan, "True for a quiet or signalling NaN.")              \
    X(is_qnan, _PyDecOp_IsQnan, "True for a quiet NaN.")                          \
    X(is_snan, _PyDecOp_IsSnan, "True for a signalling NaN.")                     \
    X(is_signed, _PyDecOp_IsSigned, "True when the sign is negative.")            \
    X(is_zero, _PyDecOp_IsZero, "True for a (positive or negative) zero.")

/* Predicates that depend on the context's exponent limits. */
#define DEC_CONTEXT_PREDICATES(X)                                                 \
    X(is_normal, _PyDecOp_IsNormal, "True for a finite, non-zero, non-subnormal number.") \
    X(is_subnormal, _PyDecOp_IsSubnormal, "True for a subnormal number.")

/* Runners (operations.c).  LIMITS, when not NULL, replaces the context's. */
PyObject *_PyDecOp_Unary(DecUnaryFn fn, PyObject *a, PyObject *ctx,
                         const mpd_context_t *limits);
PyObject *_PyDecOp_Binary(DecBinaryFn fn, PyObject *a, PyObject *b, PyObject *ctx,
                          const mpd_context_t *limits);
PyObject *_PyDecOp_Radix(void);

/* Context method bodies (operations.c). */
PyObject *_PyDecOp_ContextUnary(PyObject *ctx, PyObject *a, DecUnaryFn fn);
PyObject *_PyDecOp_ContextBinary(PyObject *ctx, PyObject *args, DecBinaryFn fn);
PyObject *_PyDecOp_ContextPredicate(PyObject *ctx, PyObject *a, DecPredicateFn fn);
PyObject *_PyDecOp_ContextFma(PyObject *ctx, PyObject *args);
PyObject *_PyDecOp_ContextPower(PyObject *ctx, PyObject *args, PyObject *kwargs);
PyObject *_PyDecOp_ContextDivmod(PyObject *ctx, PyObject *args);
PyObject *_PyDecOp_ContextSameQuantum(PyObject *ctx, PyObject *args);
PyObject *_PyDecOp_ContextNumberClass(PyObject *ctx, PyObject *a);
PyObject *_PyDecOp_ContextToSci(PyObject *ctx, PyObject *a);
PyObject *_PyDecOp_ContextToEng(PyObject *ctx, PyObject *a);
PyObject *_PyDecOp_ContextCanonical(PyObject *ctx, PyObject *a);
PyObject *_PyDecOp_ContextCopyDecimal(PyObject *ctx, PyObject *a);

/* Shared by Context and Decimal methods. */
PyObject *_PyDecOp_Fma(PyObject *a, PyObject *b, PyObject *c, PyObject *ctx);
PyObject *_PyDecOp_Power(PyObject *base, PyObject *exp, PyObject *mod, PyObject *ctx);
PyObject *_PyDecOp_Divmod(PyObject *a, PyObject *b, PyObject *ctx);
PyObject *_PyDecOp_NumberClass(PyObject *a, PyObject *ctx);

#endif /* Py_DECIMAL_OPS_H */
