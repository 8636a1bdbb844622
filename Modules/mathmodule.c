/* The math module: the C library's functions on floats, with Python's
   error rules (ValueError for a domain error, OverflowError for a result
   too large), the integer functions (factorial, comb, perm, gcd, lcm,
   isqrt), and the accurate sums and norms (fsum, sumprod, hypot, dist).

   Domain errors carry 3.14's messages where it has one ("expected a
   nonnegative input, got -1.0"), else "math domain error". */

#include "Python.h"
#include "pycore_long.h"
#include "pycore_modsupport.h"
#include <math.h>
#include <float.h>

static PyObject *
domain_error(const char *expected, double x)
{
    if (expected == NULL) {
        PyErr_SetString(PyExc_ValueError, "math domain error");
        return NULL;
    }
    PyObject *given = PyFloat_FromDouble(x);
    if (given != NULL) {
        PyErr_Format(PyExc_ValueError, "%s%R", expected, given);
        Py_DECREF(given);
    }
    return NULL;
}

static PyObject *
range_error(void)
{
    PyErr_SetString(PyExc_OverflowError, "math range error");
    return NULL;
}

/* A one-argument float function: the C function, whether a too-large
   result is an overflow (else a domain error), and the start of the
   message for an argument outside the domain (NULL: the generic one). */
typedef struct {
    double (*fn)(double);
    int can_overflow;
    const char *expected;
} unary;

static PyObject *
apply_unary(PyObject *arg, const unary *u)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    double r = u->fn(x);
    if (isnan(r) && !isnan(x)) {
        return domain_error(u->expected, x);
    }
    if (isinf(r) && isfinite(x)) {
        return u->can_overflow ? range_error() : domain_error(u->expected, x);
    }
    return PyFloat_FromDouble(r);
}

#define IN_UNIT_RANGE "expected a number in range from -1 up to 1, got "
#define FINITE_INPUT "expected a finite input, got "

#define UNARY(NAME, CFUNC, OVERFLOWS, EXPECTED)                      \
    static PyObject *math_##NAME(PyObject *m, PyObject *arg)         \
    {                                                                \
        static const unary spec = {CFUNC, OVERFLOWS, EXPECTED};      \
        return apply_unary(arg, &spec);                              \
    }

UNARY(sqrt, sqrt, 0, "expected a nonnegative input, got ")
UNARY(exp, exp, 1, NULL)
UNARY(exp2, exp2, 1, NULL)
UNARY(expm1, expm1, 1, NULL)
UNARY(sin, sin, 0, FINITE_INPUT)
UNARY(cos, cos, 0, FINITE_INPUT)
UNARY(tan, tan, 0, FINITE_INPUT)
UNARY(asin, asin, 0, IN_UNIT_RANGE)
UNARY(acos, acos, 0, IN_UNIT_RANGE)
UNARY(atan, atan, 0, NULL)
UNARY(sinh, sinh, 1, NULL)
UNARY(cosh, cosh, 1, NULL)
UNARY(tanh, tanh, 0, NULL)
UNARY(asinh, asinh, 0, NULL)
UNARY(acosh, acosh, 0, "expected argument value not less than 1, got ")
UNARY(atanh, atanh, 0, "expected a number between -1 and 1, got ")
UNARY(fabs, fabs, 0, NULL)
UNARY(cbrt, cbrt, 0, NULL)
UNARY(erf, erf, 0, NULL)
UNARY(erfc, erfc, 0, NULL)
UNARY(log1p, log1p, 0, "expected argument value > -1, got ")

/* Gamma has poles at 0 and the negative integers; -inf is refused too. */
#define GAMMA_DOMAIN "expected a noninteger or positive integer, got "

static int
at_gamma_pole(double x)
{
    return (x <= 0.0 && x == floor(x)) || x == -INFINITY;
}

static PyObject *
math_gamma(PyObject *m, PyObject *arg)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    if (at_gamma_pole(x)) {
        return domain_error(GAMMA_DOMAIN, x);
    }
    double r = tgamma(x);
    if (isinf(r) && isfinite(x)) {
        return range_error();
    }
    return PyFloat_FromDouble(r);
}

static PyObject *
math_lgamma(PyObject *m, PyObject *arg)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    if (isinf(x)) {
        return PyFloat_FromDouble(INFINITY);
    }
    if (at_gamma_pole(x)) {
        return domain_error(GAMMA_DOMAIN, x);
    }
    int sign;
    double r = lgamma_r(x, &sign);
    if (isinf(r) && isfinite(x)) {
        return range_error();
    }
    return PyFloat_FromDouble(r);
}

/* floor/ceil/trunc: the type's __floor__ etc. for non-floats, else (floor
   and ceil only) an int from the rounded float. */
static PyObject *
round_to_int(PyObject *arg, const char *special, double (*f)(double))
{
    if (!PyFloat_CheckExact(arg)) {
        PyObject *meth = PyObject_GetAttrString((PyObject *)Py_TYPE(arg), special);
        if (meth != NULL) {
            PyObject *res = PyObject_CallOneArg(meth, arg);
            Py_DECREF(meth);
            return res;
        }
        PyErr_Clear();
        if (f == trunc) {
            PyErr_Format(PyExc_TypeError, "type %.100s doesn't define __trunc__ method",
                         Py_TYPE(arg)->tp_name);
            return NULL;
        }
    }
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    return PyLong_FromDouble(f(x));
}

static PyObject *
math_floor(PyObject *m, PyObject *arg)
{
    return round_to_int(arg, "__floor__", floor);
}

static PyObject *
math_ceil(PyObject *m, PyObject *arg)
{
    return round_to_int(arg, "__ceil__", ceil);
}

static PyObject *
math_trunc(PyObject *m, PyObject *arg)
{
    return round_to_int(arg, "__trunc__", trunc);
}

/* f(x) for log, log2 and log10.  Ints of any size are welcome: one too
   large for a float is m * 2**e, so its logarithm is f(m) + e * f(2). */
static int
log_of(PyObject *arg, double (*f)(double), double *out)
{
    if (PyLong_Check(arg)) {
        if (_PyLong_Sign(arg) <= 0) {
            PyErr_SetString(PyExc_ValueError, "expected a positive input");
            return -1;
        }
        double x = PyLong_AsDouble(arg);
        if (x == -1.0 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
                return -1;
            }
            PyErr_Clear();
            int64_t e;
            double mant = _PyLong_Frexp((PyLongObject *)arg, &e);
            if (mant == -1.0 && PyErr_Occurred()) {
                return -1;
            }
            *out = f(mant) + (double)e * f(2.0);
            return 0;
        }
        *out = f(x);
        return 0;
    }
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (x <= 0.0) {
        domain_error("expected a positive input, got ", x);
        return -1;
    }
    *out = f(x);
    return 0;
}

static PyObject *
math_log(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("log", nargs, 1, 2)) {
        return NULL;
    }
    double num, den;
    if (log_of(args[0], log, &num) < 0) {
        return NULL;
    }
    if (nargs == 1) {
        return PyFloat_FromDouble(num);
    }
    if (log_of(args[1], log, &den) < 0) {
        return NULL;
    }
    if (den == 0.0) {
        PyErr_SetString(PyExc_ZeroDivisionError, "division by zero");
        return NULL;
    }
    return PyFloat_FromDouble(num / den);
}

static PyObject *
math_log2(PyObject *m, PyObject *arg)
{
    double r;
    return log_of(arg, log2, &r) < 0 ? NULL : PyFloat_FromDouble(r);
}

static PyObject *
math_log10(PyObject *m, PyObject *arg)
{
    double r;
    return log_of(arg, log10, &r) < 0 ? NULL : PyFloat_FromDouble(r);
}

static int
two_doubles(PyObject *const *args, Py_ssize_t nargs, const char *name, double *a, double *b)
{
    if (!_PyArg_CheckPositional(name, nargs, 2, 2)) {
        return -1;
    }
    *a = PyFloat_AsDouble(args[0]);
    if (*a == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    *b = PyFloat_AsDouble(args[1]);
    if (*b == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    return 0;
}

static PyObject *
math_pow(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    double x, y;
    if (two_doubles(args, nargs, "pow", &x, &y) < 0) {
        return NULL;
    }
    if (x == 0.0 && y < 0.0 && isfinite(y)) {
        return domain_error(NULL, x);
    }
    double r = pow(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y)) {
        PyErr_SetString(PyExc_ValueError, "math domain error");
        return NULL;
    }
    if (isinf(r) && isfinite(x) && isfinite(y)) {
        PyErr_SetString(PyExc_OverflowError, "math range error");
        return NULL;
    }
    return PyFloat_FromDouble(r);
}

static PyObject *
math_atan2(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    double y, x;
    if (two_doubles(args, nargs, "atan2", &y, &x) < 0) {
        return NULL;
    }
    return PyFloat_FromDouble(atan2(y, x));
}

static PyObject *
math_copysign(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    double x, y;
    if (two_doubles(args, nargs, "copysign", &x, &y) < 0) {
        return NULL;
    }
    return PyFloat_FromDouble(copysign(x, y));
}

static PyObject *
math_fmod(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    double x, y;
    if (two_doubles(args, nargs, "fmod", &x, &y) < 0) {
        return NULL;
    }
    /* fmod(x, inf) is x for finite x; infinite x or zero y is an error. */
    double r = fmod(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y)) {
        return domain_error(NULL, x);
    }
    return PyFloat_FromDouble(r);
}

/* The IEEE remainder: x - n*y for the integer n nearest x/y. */
static PyObject *
math_remainder(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    double x, y;
    if (two_doubles(args, nargs, "remainder", &x, &y) < 0) {
        return NULL;
    }
    double r = remainder(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y)) {
        return domain_error(NULL, x);
    }
    return PyFloat_FromDouble(r);
}

/* ---- Norms --------------------------------------------------------------- */

/* a + b as hi + lo exactly (no precondition on the magnitudes). */
static inline void
two_sum(double a, double b, double *hi, double *lo)
{
    double s = a + b;
    double bv = s - a;
    *lo = (a - (s - bv)) + (b - bv);
    *hi = s;
}

/* The Euclidean norm of v[0:n], with |v| <= vmax.  The values are scaled
   by a power of two near 1/vmax (exact), their squares summed in
   double-double arithmetic, and the square root refined by one Newton
   step on the exact residual: the result is correctly rounded in all but
   the rarest cases. */
static double
vector_norm(const double *v, Py_ssize_t n, double vmax, int has_nan)
{
    if (isinf(vmax)) {
        return vmax;
    }
    if (has_nan) {
        return NAN;
    }
    if (vmax == 0.0 || n <= 1) {
        return vmax;
    }
    int e;
    frexp(vmax, &e);
    double hi = 0.0, lo = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        double x = ldexp(v[i], -e);
        double sq = x * x;
        double sq_err = fma(x, x, -sq);
        double t;
        two_sum(hi, sq, &hi, &t);
        lo += t + sq_err;
    }
    two_sum(hi, lo, &hi, &lo);
    double h = sqrt(hi);
    double hh = h * h;
    double residual = ((hi - hh) - fma(h, h, -hh)) + lo;
    h += residual / (2.0 * h);
    return ldexp(h, e);
}

/* Absolute values of floats taken from items, with their maximum. */
static int
collect_coordinates(PyObject *const *items, Py_ssize_t n, double *out, double *vmax,
                    int *has_nan)
{
    *vmax = 0.0;
    *has_nan = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        double x = PyFloat_AsDouble(items[i]);
        if (x == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        out[i] = fabs(x);
        *has_nan |= isnan(x);
        if (out[i] > *vmax) {
            *vmax = out[i];
        }
    }
    return 0;
}

static double *
coordinate_buffer(Py_ssize_t n, double *small, Py_ssize_t nsmall)
{
    if (n <= nsmall) {
        return small;
    }
    double *buf = PyMem_Malloc((size_t)n * sizeof(double));
    if (buf == NULL) {
        PyErr_NoMemory();
    }
    return buf;
}

static PyObject *
math_hypot(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    double small[16];
    double *v = coordinate_buffer(nargs, small, 16);
    if (v == NULL) {
        return NULL;
    }
    double vmax;
    int has_nan;
    PyObject *res = NULL;
    if (collect_coordinates(args, nargs, v, &vmax, &has_nan) == 0) {
        res = PyFloat_FromDouble(vector_norm(v, nargs, vmax, has_nan));
    }
    if (v != small) {
        PyMem_Free(v);
    }
    return res;
}

/* dist(p, q): the norm of p - q for two points given as iterables. */
static PyObject *
math_dist(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("dist", nargs, 2, 2)) {
        return NULL;
    }
    PyObject *p = PySequence_Tuple(args[0]);
    PyObject *q = p ? PySequence_Tuple(args[1]) : NULL;
    PyObject *res = NULL;
    double small[16], *v = NULL;
    if (q == NULL) {
        goto done;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(p);
    if (PyTuple_GET_SIZE(q) != n) {
        PyErr_SetString(PyExc_ValueError, "both points must have the same number of dimensions");
        goto done;
    }
    if ((v = coordinate_buffer(n, small, 16)) == NULL) {
        goto done;
    }
    double vmax = 0.0;
    int has_nan = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        double a = PyFloat_AsDouble(PyTuple_GET_ITEM(p, i));
        double b = (a == -1.0 && PyErr_Occurred()) ? 0.0 : PyFloat_AsDouble(PyTuple_GET_ITEM(q, i));
        if (PyErr_Occurred()) {
            goto done;
        }
        v[i] = fabs(a - b);
        has_nan |= isnan(v[i]);
        vmax = v[i] > vmax ? v[i] : vmax;
    }
    res = PyFloat_FromDouble(vector_norm(v, n, vmax, has_nan));
done:
    if (v != NULL && v != small) {
        PyMem_Free(v);
    }
    Py_XDECREF(p);
    Py_XDECREF(q);
    return res;
}

/* ---- Floating-point manipulation ---------------------------------------- */

static PyObject *
math_ldexp(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("ldexp", nargs, 2, 2)) {
        return NULL;
    }
    double x = PyFloat_AsDouble(args[0]);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    if (!PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "Expected an int as second argument to ldexp.");
        return NULL;
    }
    int overflow;
    long long e = PyLong_AsLongLongAndOverflow(args[1], &overflow);
    if (e == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (x == 0.0 || !isfinite(x)) {
        return PyFloat_FromDouble(x);
    }
    /* Exponents beyond any double's range saturate. */
    if (overflow > 0 || e > INT_MAX) {
        return range_error();
    }
    if (overflow < 0 || e < INT_MIN) {
        return PyFloat_FromDouble(copysign(0.0, x));
    }
    double r = ldexp(x, (int)e);
    if (isinf(r)) {
        return range_error();
    }
    return PyFloat_FromDouble(r);
}

static PyObject *
math_frexp(PyObject *m, PyObject *arg)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    int e = 0;
    double mant = (x == 0.0 || !isfinite(x)) ? x : frexp(x, &e);
    return Py_BuildValue("(di)", mant, e);
}

static PyObject *
math_fma(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    double v[3];
    if (!_PyArg_CheckPositional("fma", nargs, 3, 3)) {
        return NULL;
    }
    for (int i = 0; i < 3; i++) {
        v[i] = PyFloat_AsDouble(args[i]);
        if (v[i] == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
    }
    double r = fma(v[0], v[1], v[2]);
    if (isnan(r) && !isnan(v[0]) && !isnan(v[1]) && !isnan(v[2])) {
        PyErr_SetString(PyExc_ValueError, "invalid operation in fma");
        return NULL;
    }
    if (isinf(r) && isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2])) {
        PyErr_SetString(PyExc_OverflowError, "overflow in fma");
        return NULL;
    }
    return PyFloat_FromDouble(r);
}

/* Doubles in numeric order as integers: ordinal(nextafter(x, inf)) is
   ordinal(x) + 1, with both zeros at 0. */
static int64_t
ordinal(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof(bits));
    int64_t mag = (int64_t)(bits & ~(UINT64_C(1) << 63));
    return (bits >> 63) ? -mag : mag;
}

static double
from_ordinal(int64_t k, double zero)
{
    if (k == 0) {
        return zero;
    }
    uint64_t bits = k < 0 ? ((UINT64_C(1) << 63) | (uint64_t)-k) : (uint64_t)k;
    double x;
    memcpy(&x, &bits, sizeof(x));
    return x;
}

/* x moved `steps` representable doubles towards y, stopping at y. */
static double
step_towards(double x, double y, unsigned long long steps)
{
    if (isnan(x) || isnan(y) || steps == 0 || x == y) {
        return isnan(x) ? x : (isnan(y) ? y : (steps == 0 ? x : y));
    }
    int64_t from = ordinal(x), to = ordinal(y);
    uint64_t gap = from < to ? (uint64_t)to - (uint64_t)from : (uint64_t)from - (uint64_t)to;
    if (steps >= gap) {
        return y;
    }
    int64_t k = from < to ? from + (int64_t)steps : from - (int64_t)steps;
    /* Arriving at zero keeps the sign of the side we came from. */
    return from_ordinal(k, copysign(0.0, x));
}

static PyObject *
math_nextafter(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "", "steps", NULL};
    PyObject *a[3];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "nextafter", kwlist, 2, 2, 0, a)) {
        return NULL;
    }
    double x = PyFloat_AsDouble(a[0]);
    double y = (x == -1.0 && PyErr_Occurred()) ? 0.0 : PyFloat_AsDouble(a[1]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (a[2] == NULL || a[2] == Py_None) {
        return PyFloat_FromDouble(nextafter(x, y));
    }
    PyObject *n = PyNumber_Index(a[2]);
    if (n == NULL) {
        return NULL;
    }
    unsigned long long steps = ULLONG_MAX;
    int sign = _PyLong_Sign(n);
    if (sign >= 0) {
        steps = PyLong_AsUnsignedLongLong(n);
        if (steps == ULLONG_MAX && PyErr_Occurred()) {
            PyErr_Clear(); /* more steps than doubles: the same as ULLONG_MAX */
            steps = ULLONG_MAX;
        }
    }
    Py_DECREF(n);
    if (sign < 0) {
        PyErr_SetString(PyExc_ValueError, "steps must be a non-negative integer");
        return NULL;
    }
    return PyFloat_FromDouble(step_towards(x, y, steps));
}

static PyObject *
math_ulp(PyObject *m, PyObject *arg)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    x = fabs(x);
    if (!isfinite(x)) {
        return PyFloat_FromDouble(x);
    }
    double up = nextafter(x, INFINITY);
    /* The largest double has no finite successor: use the gap below. */
    return PyFloat_FromDouble(isinf(up) ? x - nextafter(x, 0.0) : up - x);
}

static PyObject *
math_degrees(PyObject *m, PyObject *arg)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    return PyFloat_FromDouble(x * (180.0 / M_PI));
}

static PyObject *
math_radians(PyObject *m, PyObject *arg)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    return PyFloat_FromDouble(x * (M_PI / 180.0));
}

/* isnan/isinf/isfinite share the conversion. */
static PyObject *
classify(PyObject *arg, int (*test)(double))
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    return PyBool_FromLong(test(x));
}

static int
test_nan(double x)
{
    return isnan(x);
}

static int
test_inf(double x)
{
    return isinf(x);
}

static int
test_finite(double x)
{
    return isfinite(x);
}

static PyObject *
math_isnan(PyObject *m, PyObject *arg)
{
    return classify(arg, test_nan);
}

static PyObject *
math_isinf(PyObject *m, PyObject *arg)
{
    return classify(arg, test_inf);
}

static PyObject *
math_isfinite(PyObject *m, PyObject *arg)
{
    return classify(arg, test_finite);
}

static PyObject *
math_isclose(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "", "rel_tol", "abs_tol", NULL};
    PyObject *out[4] = {NULL, NULL, NULL, NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "isclose", kwlist, 2, 2, 0, out)) {
        return NULL;
    }
    double a = PyFloat_AsDouble(out[0]), b = PyFloat_AsDouble(out[1]);
    double rel_tol = out[2] ? PyFloat_AsDouble(out[2]) : 1e-09;
    double abs_tol = out[3] ? PyFloat_AsDouble(out[3]) : 0.0;
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (rel_tol < 0.0 || abs_tol < 0.0) {
        PyErr_SetString(PyExc_ValueError, "tolerances must be non-negative");
        return NULL;
    }
    if (a == b) {
        Py_RETURN_TRUE;
    }
    if (isinf(a) || isinf(b)) {
        Py_RETURN_FALSE;
    }
    double diff = fabs(b - a);
    return PyBool_FromLong((diff <= fabs(rel_tol * b)) || (diff <= fabs(rel_tol * a)) || (diff <= abs_tol));
}

/* ---- Integer functions ------------------------------------------------------------ */

static PyObject *
math_gcd(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *res = PyLong_FromLong(0);
    for (Py_ssize_t i = 0; res != NULL && i < nargs; i++) {
        PyObject *x = PyNumber_Index(args[i]);
        if (x == NULL) {
            Py_CLEAR(res);
            break;
        }
        Py_SETREF(res, _PyLong_GCD(res, x));
        Py_DECREF(x);
    }
    return res;
}

static PyObject *
math_lcm(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *res = PyLong_FromLong(1);
    for (Py_ssize_t i = 0; res != NULL && i < nargs; i++) {
        PyObject *x = PyNumber_Index(args[i]);
        if (x == NULL) {
            Py_CLEAR(res);
            break;
        }
        /* lcm(a, b) = |a // gcd(a, b) * b|, and 0 once any is 0. */
        PyObject *next = NULL;
        if (_PyLong_Sign(x) == 0 || _PyLong_Sign(res) == 0) {
            next = PyLong_FromLong(0);
        }
        else {
            PyObject *g = _PyLong_GCD(res, x);
            PyObject *q = g ? PyNumber_FloorDivide(res, g) : NULL;
            PyObject *prod = q ? PyNumber_Multiply(q, x) : NULL;
            next = prod ? PyNumber_Absolute(prod) : NULL;
            Py_XDECREF(g);
            Py_XDECREF(q);
            Py_XDECREF(prod);
        }
        Py_DECREF(x);
        Py_SETREF(res, next);
    }
    return res;
}

/* lo * (lo+1) * ... * hi (1 when lo > hi), splitting the range in halves
   so the big multiplications are between numbers of similar size. */
static PyObject *
range_product(unsigned long long lo, unsigned long long hi)
{
    if (lo > hi) {
        return PyLong_FromLong(1);
    }
    if (hi - lo < 8) {
        /* A short run: multiply in a machine word while it fits. */
        unsigned long long acc = 1, used = 0, count = hi - lo + 1;
        for (; used < count; used++) {
            unsigned long long next;
            if (__builtin_mul_overflow(acc, lo + used, &next)) {
                break;
            }
            acc = next;
        }
        PyObject *res = PyLong_FromUnsignedLongLong(acc);
        if (used < count && res != NULL) {
            PyObject *rest = range_product(lo + used, hi);
            PyObject *prod = rest ? PyNumber_Multiply(res, rest) : NULL;
            Py_XDECREF(rest);
            Py_SETREF(res, prod);
        }
        return res;
    }
    unsigned long long mid = lo + (hi - lo) / 2;
    PyObject *left = range_product(lo, mid);
    PyObject *right = left ? range_product(mid + 1, hi) : NULL;
    PyObject *res = right ? PyNumber_Multiply(left, right) : NULL;
    Py_XDECREF(left);
    Py_XDECREF(right);
    return res;
}

/* n * (n-1) * ... * (n-k+1) for an n of any size. */
static PyObject *
falling_product(PyObject *n, unsigned long long k)
{
    if (k == 0) {
        return PyLong_FromLong(1);
    }
    unsigned long long small = PyLong_AsUnsignedLongLong(n);
    if (!(small == ULLONG_MAX && PyErr_Occurred())) {
        return range_product(small - k + 1, small);
    }
    PyErr_Clear();
    /* A huge n: split k in halves, the top half starting from n - k/2. */
    if (k == 1) {
        return Py_NewRef(n);
    }
    unsigned long long half = k / 2;
    PyObject *top = falling_product(n, half);
    PyObject *shift = top ? PyLong_FromUnsignedLongLong(half) : NULL;
    PyObject *rest_n = shift ? PyNumber_Subtract(n, shift) : NULL;
    PyObject *bottom = rest_n ? falling_product(rest_n, k - half) : NULL;
    PyObject *res = bottom ? PyNumber_Multiply(top, bottom) : NULL;
    Py_XDECREF(top);
    Py_XDECREF(shift);
    Py_XDECREF(rest_n);
    Py_XDECREF(bottom);
    return res;
}

static PyObject *
math_factorial(PyObject *m, PyObject *arg)
{
    PyObject *n = PyNumber_Index(arg);
    if (n == NULL) {
        return NULL;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(n, &overflow);
    Py_DECREF(n);
    if (v == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (overflow > 0) {
        PyErr_Format(PyExc_OverflowError, "factorial() argument should not exceed %lld",
                     LLONG_MAX);
        return NULL;
    }
    if (overflow < 0 || v < 0) {
        PyErr_SetString(PyExc_ValueError, "factorial() not defined for negative values");
        return NULL;
    }
    return range_product(1, (unsigned long long)v);
}

/* n and k of comb() and perm() as non-negative ints (new references;
   *k stays NULL when karg is). */
static int
counting_args(PyObject *narg, PyObject *karg, PyObject **n, PyObject **k)
{
    *k = NULL;
    if ((*n = PyNumber_Index(narg)) == NULL) {
        return -1;
    }
    if (karg != NULL && (*k = PyNumber_Index(karg)) == NULL) {
        Py_CLEAR(*n);
        return -1;
    }
    const char *bad = _PyLong_Sign(*n) < 0 ? "n must be a non-negative integer"
                      : (*k != NULL && _PyLong_Sign(*k) < 0) ? "k must be a non-negative integer"
                                                             : NULL;
    if (bad != NULL) {
        PyErr_SetString(PyExc_ValueError, bad);
        Py_CLEAR(*n);
        Py_CLEAR(*k);
        return -1;
    }
    return 0;
}

/* k as a C count; `what` names it in the overflow message. */
static int
count_value(PyObject *k, const char *what, unsigned long long *out)
{
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(k, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow) {
        PyErr_Format(PyExc_OverflowError, "%s must not exceed %lld", what, LLONG_MAX);
        return -1;
    }
    *out = (unsigned long long)v;
    return 0;
}

/* perm(n, k=None): n! / (n - k)!, and 0 when k > n. */
static PyObject *
math_perm(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("perm", nargs, 1, 2)) {
        return NULL;
    }
    if (nargs == 1 || args[1] == Py_None) {
        return math_factorial(m, args[0]);
    }
    PyObject *n, *k;
    if (counting_args(args[0], args[1], &n, &k) < 0) {
        return NULL;
    }
    PyObject *res = NULL;
    int too_many = PyObject_RichCompareBool(k, n, Py_GT);
    unsigned long long kc;
    if (too_many > 0) {
        res = PyLong_FromLong(0);
    }
    else if (too_many == 0 && count_value(k, "k", &kc) == 0) {
        res = falling_product(n, kc);
    }
    Py_DECREF(n);
    Py_DECREF(k);
    return res;
}

/* comb(n, k): n! / (k! (n - k)!), from the shorter of the two ranges. */
static PyObject *
math_comb(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("comb", nargs, 2, 2)) {
        return NULL;
    }
    PyObject *n, *k;
    if (counting_args(args[0], args[1], &n, &k) < 0) {
        return NULL;
    }
    PyObject *res = NULL;
    PyObject *rest = PyNumber_Subtract(n, k);
    unsigned long long kc;
    if (rest == NULL) {
        goto done;
    }
    if (_PyLong_Sign(rest) < 0) {
        res = PyLong_FromLong(0);
        goto done;
    }
    int rest_smaller = PyObject_RichCompareBool(rest, k, Py_LT);
    if (rest_smaller < 0 || count_value(rest_smaller ? rest : k, "min(n - k, k)", &kc) < 0) {
        goto done;
    }
    PyObject *top = falling_product(n, kc);
    PyObject *bottom = top ? range_product(1, kc) : NULL;
    res = bottom ? PyNumber_FloorDivide(top, bottom) : NULL;
    Py_XDECREF(top);
    Py_XDECREF(bottom);
done:
    Py_XDECREF(rest);
    Py_DECREF(n);
    Py_DECREF(k);
    return res;
}

/* isqrt(n): the floor of the exact square root, by Newton's method on
   ints starting from a float estimate. */
static PyObject *
math_isqrt(PyObject *m, PyObject *arg)
{
    PyObject *n = PyNumber_Index(arg);
    if (n == NULL) {
        return NULL;
    }
    if (_PyLong_Sign(n) < 0) {
        Py_DECREF(n);
        PyErr_SetString(PyExc_ValueError, "isqrt() argument must be nonnegative");
        return NULL;
    }
    if (_PyLong_Sign(n) == 0) {
        return n;
    }
    int64_t bits = _PyLong_NumBits(n);
    PyObject *shift = PyLong_FromLongLong((bits + 1) / 2);
    PyObject *one = PyLong_FromLong(1);
    PyObject *x = (shift && one) ? PyNumber_Lshift(one, shift) : NULL; /* x >= sqrt(n) */
    Py_XDECREF(shift);
    while (x != NULL) {
        PyObject *q = PyNumber_FloorDivide(n, x);
        PyObject *sum = q ? PyNumber_Add(x, q) : NULL;
        Py_XDECREF(q);
        PyObject *y = sum ? PyNumber_Rshift(sum, one) : NULL;
        Py_XDECREF(sum);
        if (y == NULL) {
            Py_CLEAR(x);
            break;
        }
        int smaller = PyObject_RichCompareBool(y, x, Py_LT);
        if (smaller <= 0) {
            Py_DECREF(y);
            if (smaller < 0) {
                Py_CLEAR(x);
            }
            break;
        }
        Py_SETREF(x, y);
    }
    Py_XDECREF(one);
    Py_DECREF(n);
    return x;
}

static PyObject *
math_prod(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "start", NULL};
    PyObject *out[2] = {NULL, NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "prod", kwlist, 1, 1, 0, out)) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(out[0]);
    if (it == NULL) {
        return NULL;
    }
    PyObject *res = out[1] ? Py_NewRef(out[1]) : PyLong_FromLong(1);
    PyObject *item;
    while (res != NULL && (item = PyIter_Next(it)) != NULL) {
        Py_SETREF(res, PyNumber_Multiply(res, item));
        Py_DECREF(item);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        Py_XDECREF(res);
        return NULL;
    }
    return res;
}

/* ---- Accurate sums -------------------------------------------------------- */

/* fsum keeps the running sum exactly, as a list of non-overlapping
   partial sums in increasing magnitude (Shewchuk, "Adaptive Precision
   Floating-Point Arithmetic", 1997); the result is the correctly rounded
   value of the exact sum.  Infinities and NaNs are summed on the side. */
typedef struct {
    double *p;
    Py_ssize_t n;
    Py_ssize_t cap;
    double small[32];
} partials;

static int
partials_add(partials *ps, double x)
{
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < ps->n; i++) {
        double y = ps->p[i];
        double hi, lo;
        two_sum(x, y, &hi, &lo);
        if (lo != 0.0) {
            ps->p[kept++] = lo;
        }
        x = hi;
    }
    if (!isfinite(x)) {
        PyErr_SetString(PyExc_OverflowError, "intermediate overflow in fsum");
        return -1;
    }
    if (kept == ps->cap) {
        Py_ssize_t cap = ps->cap * 2;
        double *p = PyMem_Malloc((size_t)cap * sizeof(double));
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(p, ps->p, (size_t)kept * sizeof(double));
        if (ps->p != ps->small) {
            PyMem_Free(ps->p);
        }
        ps->p = p;
        ps->cap = cap;
    }
    ps->p[kept++] = x;
    ps->n = kept;
    return 0;
}

/* The partials rounded to one double: add from the largest down while
   that is exact; a half-way case is settled by the next partial's sign. */
static double
partials_round(const partials *ps)
{
    Py_ssize_t i = ps->n;
    if (i == 0) {
        return 0.0;
    }
    double hi = ps->p[--i], lo = 0.0;
    while (i > 0) {
        double y = ps->p[--i];
        double sum = hi + y;
        lo = y - (sum - hi);
        hi = sum;
        if (lo != 0.0) {
            break;
        }
    }
    if (i > 0 && ((lo < 0.0 && ps->p[i - 1] < 0.0) || (lo > 0.0 && ps->p[i - 1] > 0.0))) {
        double twice = lo * 2.0;
        double bumped = hi + twice;
        if (bumped - hi == twice) {
            hi = bumped;
        }
    }
    return hi;
}

static PyObject *
math_fsum(PyObject *m, PyObject *seq)
{
    PyObject *it = PyObject_GetIter(seq);
    if (it == NULL) {
        return NULL;
    }
    partials ps = {.n = 0, .cap = 32};
    ps.p = ps.small;
    double infinities = 0.0; /* the sum of the infinite items */
    int have_special = 0, saw_nan = 0, failed = 0;
    PyObject *item;
    while (!failed && (item = PyIter_Next(it)) != NULL) {
        double x = PyFloat_AsDouble(item);
        Py_DECREF(item);
        if (x == -1.0 && PyErr_Occurred()) {
            failed = 1;
        }
        else if (!isfinite(x)) {
            saw_nan |= isnan(x);
            infinities += isnan(x) ? 0.0 : x;
            have_special = 1;
        }
        else {
            failed = partials_add(&ps, x) < 0;
        }
    }
    Py_DECREF(it);
    double result = partials_round(&ps);
    if (ps.p != ps.small) {
        PyMem_Free(ps.p);
    }
    if (failed || PyErr_Occurred()) {
        return NULL;
    }
    if (have_special) {
        if (isnan(infinities)) {
            PyErr_SetString(PyExc_ValueError, "-inf + inf in fsum");
            return NULL;
        }
        result = saw_nan ? NAN : infinities;
    }
    /* An exact zero sum is +0.0, as if summing started from 0.0. */
    return PyFloat_FromDouble(result + 0.0);
}

/* sumprod(p, q): sum(a * b for a, b in zip(p, q, strict=True)).  Pairs of
   ints are summed exactly as ints; pairs of floats (or of a float and an
   int a double holds exactly) are summed as exact products in
   double-double arithmetic; anything else falls back to Python's * and +
   from the point where it appears. */
typedef struct {
    PyObject *ints;  /* exact sum of the int products */
    double hi, lo;   /* double-double sum of the float products */
    int have_float;
    PyObject *total; /* the general sum, once it is needed */
} products;

static int
as_exact_double(PyObject *v, double *out)
{
    if (PyFloat_CheckExact(v)) {
        *out = PyFloat_AS_DOUBLE(v);
        return 1;
    }
    if (PyLong_CheckExact(v) || PyBool_Check(v)) {
        int overflow;
        long long n = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (!overflow && n >= -(1LL << 53) && n <= (1LL << 53)) {
            *out = (double)n;
            return 1;
        }
    }
    return 0;
}

static void
add_float_product(products *acc, double a, double b)
{
    double prod = a * b;
    double err = fma(a, b, -prod);
    double t;
    two_sum(acc->hi, prod, &acc->hi, &t);
    acc->lo += t + err;
    acc->have_float = 1;
}

/* The fast sums so far as one Python number. */
static PyObject *
fast_total(products *acc)
{
    if (!acc->have_float) {
        return Py_NewRef(acc->ints);
    }
    double ints = PyLong_AsDouble(acc->ints);
    if (ints == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    /* ints is exact when the int sum is small, as it is when floats and
       ints mix here; the error term keeps it exact otherwise. */
    PyObject *back = PyLong_FromDouble(ints);
    PyObject *diff = back ? PyNumber_Subtract(acc->ints, back) : NULL;
    double rest = diff ? PyLong_AsDouble(diff) : -1.0;
    Py_XDECREF(back);
    Py_XDECREF(diff);
    if (rest == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    double hi, lo;
    two_sum(acc->hi, ints, &hi, &lo);
    return PyFloat_FromDouble(hi + (lo + acc->lo + rest));
}

static int
add_product(products *acc, PyObject *a, PyObject *b)
{
    double x, y;
    if (acc->total == NULL) {
        if (PyLong_CheckExact(a) && PyLong_CheckExact(b)) {
            PyObject *p = PyNumber_Multiply(a, b);
            PyObject *sum = p ? PyNumber_Add(acc->ints, p) : NULL;
            Py_XDECREF(p);
            if (sum == NULL) {
                return -1;
            }
            Py_SETREF(acc->ints, sum);
            return 0;
        }
        if (as_exact_double(a, &x) && as_exact_double(b, &y) &&
            (PyFloat_CheckExact(a) || PyFloat_CheckExact(b))) {
            add_float_product(acc, x, y);
            return 0;
        }
        if ((acc->total = fast_total(acc)) == NULL) {
            return -1;
        }
    }
    PyObject *p = PyNumber_Multiply(a, b);
    PyObject *sum = p ? PyNumber_Add(acc->total, p) : NULL;
    Py_XDECREF(p);
    if (sum == NULL) {
        return -1;
    }
    Py_SETREF(acc->total, sum);
    return 0;
}

static PyObject *
math_sumprod(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("sumprod", nargs, 2, 2)) {
        return NULL;
    }
    PyObject *pi = PyObject_GetIter(args[0]);
    PyObject *qi = pi ? PyObject_GetIter(args[1]) : NULL;
    products acc = {PyLong_FromLong(0), 0.0, 0.0, 0, NULL};
    PyObject *res = NULL;
    if (qi == NULL || acc.ints == NULL) {
        goto done;
    }
    for (;;) {
        PyObject *a = PyIter_Next(pi);
        if (a == NULL && PyErr_Occurred()) {
            goto done;
        }
        PyObject *b = PyIter_Next(qi);
        if (b == NULL && PyErr_Occurred()) {
            Py_XDECREF(a);
            goto done;
        }
        if (a == NULL || b == NULL) {
            if (a != NULL || b != NULL) {
                PyErr_SetString(PyExc_ValueError, "Inputs are not the same length");
            }
            Py_XDECREF(a);
            Py_XDECREF(b);
            break;
        }
        int rc = add_product(&acc, a, b);
        Py_DECREF(a);
        Py_DECREF(b);
        if (rc < 0) {
            goto done;
        }
    }
    if (!PyErr_Occurred()) {
        res = acc.total ? Py_NewRef(acc.total) : fast_total(&acc);
    }
done:
    Py_XDECREF(pi);
    Py_XDECREF(qi);
    Py_XDECREF(acc.ints);
    Py_XDECREF(acc.total);
    return res;
}

static PyObject *
math_modf(PyObject *m, PyObject *arg)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    double ip;
    double fp = modf(x, &ip);
    return Py_BuildValue("(dd)", fp, ip);
}

static PyMethodDef math_methods[] = {
    {"sqrt", math_sqrt, METH_O, NULL},
    {"cbrt", math_cbrt, METH_O, NULL},
    {"exp", math_exp, METH_O, NULL},
    {"exp2", math_exp2, METH_O, NULL},
    {"expm1", math_expm1, METH_O, NULL},
    {"sin", math_sin, METH_O, NULL},
    {"cos", math_cos, METH_O, NULL},
    {"tan", math_tan, METH_O, NULL},
    {"asin", math_asin, METH_O, NULL},
    {"acos", math_acos, METH_O, NULL},
    {"atan", math_atan, METH_O, NULL},
    {"sinh", math_sinh, METH_O, NULL},
    {"cosh", math_cosh, METH_O, NULL},
    {"tanh", math_tanh, METH_O, NULL},
    {"asinh", math_asinh, METH_O, NULL},
    {"acosh", math_acosh, METH_O, NULL},
    {"atanh", math_atanh, METH_O, NULL},
    {"fabs", math_fabs, METH_O, NULL},
    {"erf", math_erf, METH_O, NULL},
    {"erfc", math_erfc, METH_O, NULL},
    {"gamma", math_gamma, METH_O, NULL},
    {"lgamma", math_lgamma, METH_O, NULL},
    {"log", _PyCFunction_CAST(math_log), METH_FASTCALL, NULL},
    {"log2", math_log2, METH_O, NULL},
    {"log10", math_log10, METH_O, NULL},
    {"log1p", math_log1p, METH_O, NULL},
    {"floor", math_floor, METH_O, NULL},
    {"ceil", math_ceil, METH_O, NULL},
    {"trunc", math_trunc, METH_O, NULL},
    {"pow", _PyCFunction_CAST(math_pow), METH_FASTCALL, NULL},
    {"atan2", _PyCFunction_CAST(math_atan2), METH_FASTCALL, NULL},
    {"copysign", _PyCFunction_CAST(math_copysign), METH_FASTCALL, NULL},
    {"fmod", _PyCFunction_CAST(math_fmod), METH_FASTCALL, NULL},
    {"remainder", _PyCFunction_CAST(math_remainder), METH_FASTCALL, NULL},
    {"hypot", _PyCFunction_CAST(math_hypot), METH_FASTCALL, NULL},
    {"dist", _PyCFunction_CAST(math_dist), METH_FASTCALL, NULL},
    {"ldexp", _PyCFunction_CAST(math_ldexp), METH_FASTCALL, NULL},
    {"frexp", math_frexp, METH_O, NULL},
    {"fma", _PyCFunction_CAST(math_fma), METH_FASTCALL, NULL},
    {"nextafter", _PyCFunction_CAST(math_nextafter), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"ulp", math_ulp, METH_O, NULL},
    {"degrees", math_degrees, METH_O, NULL},
    {"radians", math_radians, METH_O, NULL},
    {"isnan", math_isnan, METH_O, NULL},
    {"isinf", math_isinf, METH_O, NULL},
    {"isfinite", math_isfinite, METH_O, NULL},
    {"isclose", _PyCFunction_CAST(math_isclose), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"gcd", _PyCFunction_CAST(math_gcd), METH_FASTCALL, NULL},
    {"lcm", _PyCFunction_CAST(math_lcm), METH_FASTCALL, NULL},
    {"factorial", math_factorial, METH_O, NULL},
    {"comb", _PyCFunction_CAST(math_comb), METH_FASTCALL, NULL},
    {"perm", _PyCFunction_CAST(math_perm), METH_FASTCALL, NULL},
    {"isqrt", math_isqrt, METH_O, NULL},
    {"prod", _PyCFunction_CAST(math_prod), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"fsum", math_fsum, METH_O, NULL},
    {"sumprod", _PyCFunction_CAST(math_sumprod), METH_FASTCALL, NULL},
    {"modf", math_modf, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef mathmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "math",
    .m_doc = "Mathematical functions on floats and ints.",
    .m_size = -1,
    .m_methods = math_methods,
};

PyObject *
PyInit_math(void)
{
    PyObject *m = PyModule_Create(&mathmodule);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_Add(m, "pi", PyFloat_FromDouble(M_PI)) < 0 ||
        PyModule_Add(m, "e", PyFloat_FromDouble(M_E)) < 0 ||
        PyModule_Add(m, "tau", PyFloat_FromDouble(2.0 * M_PI)) < 0 ||
        PyModule_Add(m, "inf", PyFloat_FromDouble(INFINITY)) < 0 ||
        PyModule_Add(m, "nan", PyFloat_FromDouble(NAN)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
