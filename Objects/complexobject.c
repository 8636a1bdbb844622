/* The complex type: a pair of doubles.

   Arithmetic follows C99 Annex G's "mixed mode" rules as Python 3.14
   does: an int or float operand is a real number, not a complex number
   with a zero imaginary part, so for instance complex * float scales both
   parts and never produces a spurious NaN from 0 * inf. */

#include "Python.h"
#include "pycore_floatobject.h"
#include "pycore_long.h"
#include "pycore_object.h"
#include "pycore_format.h"

#include <float.h>

#define DIV_ZERO_MSG "division by zero"

/* ---- The C-level operations (public in CPython as _Py_c_*) ------------------- */

Py_complex
_Py_c_sum(Py_complex a, Py_complex b)
{
    Py_complex r = {a.real + b.real, a.imag + b.imag};
    return r;
}

Py_complex
_Py_c_diff(Py_complex a, Py_complex b)
{
    Py_complex r = {a.real - b.real, a.imag - b.imag};
    return r;
}

Py_complex
_Py_c_neg(Py_complex a)
{
    Py_complex r = {-a.real, -a.imag};
    return r;
}

/* Clear a NaN to a zero of the same sign (Annex G's recovery step). */
static inline double
nan_to_zero(double x)
{
    return isnan(x) ? copysign(0.0, x) : x;
}

/* Infinite parts become +-1, finite ones +-0. */
static inline double
box_infinity(double x)
{
    return copysign(isinf(x) ? 1.0 : 0.0, x);
}

/* The schoolbook product, except that infinities lost to inf - inf or
   0 * inf NaNs are recovered as C99 Annex G.5.1 prescribes. */
Py_complex
_Py_c_prod(Py_complex z, Py_complex w)
{
    double a = z.real, b = z.imag, c = w.real, d = w.imag;
    double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    Py_complex r = {ac - bd, ad + bc};
    if (!(isnan(r.real) && isnan(r.imag))) {
        return r;
    }
    int recalc = 0;
    if (isinf(a) || isinf(b)) {
        a = box_infinity(a);
        b = box_infinity(b);
        c = nan_to_zero(c);
        d = nan_to_zero(d);
        recalc = 1;
    }
    if (isinf(c) || isinf(d)) {
        c = box_infinity(c);
        d = box_infinity(d);
        a = nan_to_zero(a);
        b = nan_to_zero(b);
        recalc = 1;
    }
    if (!recalc && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
        /* an overflowed product: the result is infinite */
        a = nan_to_zero(a);
        b = nan_to_zero(b);
        c = nan_to_zero(c);
        d = nan_to_zero(d);
        recalc = 1;
    }
    if (recalc) {
        r.real = HUGE_VAL * (a * c - b * d);
        r.imag = HUGE_VAL * (a * d + b * c);
    }
    return r;
}

/* a / b by scaling with the larger part of b (Smith's method), so that
   neither |b|**2 nor the products overflow needlessly.  Sets errno to
   EDOM for a zero divisor. */
Py_complex
_Py_c_quot(Py_complex a, Py_complex b)
{
    Py_complex r;
    double abs_br = fabs(b.real), abs_bi = fabs(b.imag);
    if (abs_br >= abs_bi) {
        if (abs_br == 0.0) {
            errno = EDOM;
            r.real = r.imag = 0.0;
            return r;
        }
        double ratio = b.imag / b.real;
        double denom = b.real + b.imag * ratio;
        r.real = (a.real + a.imag * ratio) / denom;
        r.imag = (a.imag - a.real * ratio) / denom;
    }
    else if (abs_bi >= abs_br) {
        double ratio = b.real / b.imag;
        double denom = b.real * ratio + b.imag;
        r.real = (a.real * ratio + a.imag) / denom;
        r.imag = (a.imag * ratio - a.real) / denom;
    }
    else {
        /* a NaN part */
        r.real = r.imag = (double)NAN;
    }
    /* Recover infinities and zeros the scaled formula turned into NaNs
       (C99 Annex G.5.1). */
    if (isnan(r.real) && isnan(r.imag)) {
        if ((isinf(a.real) || isinf(a.imag)) && isfinite(b.real) && isfinite(b.imag)) {
            double x = copysign(isinf(a.real) ? 1.0 : 0.0, a.real);
            double y = copysign(isinf(a.imag) ? 1.0 : 0.0, a.imag);
            r.real = HUGE_VAL * (x * b.real + y * b.imag);
            r.imag = HUGE_VAL * (y * b.real - x * b.imag);
        }
        else if ((isinf(abs_br) || isinf(abs_bi)) && isfinite(a.real) && isfinite(a.imag)) {
            double x = copysign(isinf(b.real) ? 1.0 : 0.0, b.real);
            double y = copysign(isinf(b.imag) ? 1.0 : 0.0, b.imag);
            r.real = 0.0 * (a.real * x + a.imag * y);
            r.imag = 0.0 * (a.imag * x - a.real * y);
        }
    }
    return r;
}

/* a ** b through polar form; errno EDOM for 0 to a negative or complex
   power. */
Py_complex
_Py_c_pow(Py_complex a, Py_complex b)
{
    Py_complex r;
    if (b.real == 0.0 && b.imag == 0.0) {
        r.real = 1.0;
        r.imag = 0.0;
    }
    else if (a.real == 0.0 && a.imag == 0.0) {
        if (b.imag != 0.0 || b.real < 0.0) {
            errno = EDOM;
        }
        r.real = 0.0;
        r.imag = 0.0;
    }
    else {
        double vabs = hypot(a.real, a.imag);
        double len = pow(vabs, b.real);
        double at = atan2(a.imag, a.real);
        double phase = at * b.real;
        if (b.imag != 0.0) {
            len /= exp(at * b.imag);
            phase += b.imag * log(vabs);
        }
        r.real = len * cos(phase);
        r.imag = len * sin(phase);
    }
    return r;
}

/* a ** n for a small integer n by repeated squaring. */
static Py_complex
c_powu(Py_complex x, long n)
{
    Py_complex r = {1.0, 0.0}, p = x;
    for (unsigned long mask = 1; mask > 0 && (unsigned long)n >= mask; mask <<= 1) {
        if ((unsigned long)n & mask) {
            r = _Py_c_prod(r, p);
        }
        p = _Py_c_prod(p, p);
    }
    return r;
}

static Py_complex
c_powi(Py_complex x, long n)
{
    if (n > 0) {
        return c_powu(x, n);
    }
    Py_complex one = {1.0, 0.0};
    return _Py_c_quot(one, c_powu(x, -n));
}

double
_Py_c_abs(Py_complex z)
{
    errno = 0;
    if (!isfinite(z.real) || !isfinite(z.imag)) {
        /* an infinite part wins over a NaN */
        if (isinf(z.real)) {
            errno = 0;
            return fabs(z.real);
        }
        if (isinf(z.imag)) {
            errno = 0;
            return fabs(z.imag);
        }
        return (double)NAN;
    }
    double result = hypot(z.real, z.imag);
    errno = isfinite(result) ? 0 : ERANGE;
    return result;
}

/* ---- Objects ------------------------------------------------------------ */

PyObject *
PyComplex_FromCComplex(Py_complex cval)
{
    PyComplexObject *op = PyObject_Malloc(sizeof(PyComplexObject));
    if (op == NULL) {
        return PyErr_NoMemory();
    }
    _PyObject_Init((PyObject *)op, &PyComplex_Type);
    op->cval = cval;
    return (PyObject *)op;
}

PyObject *
PyComplex_FromDoubles(double real, double imag)
{
    Py_complex c = {real, imag};
    return PyComplex_FromCComplex(c);
}

static PyObject *
complex_subtype_from_c_complex(PyTypeObject *type, Py_complex cval)
{
    if (type == &PyComplex_Type) {
        return PyComplex_FromCComplex(cval);
    }
    PyObject *op = type->tp_alloc(type, 0);
    if (op != NULL) {
        ((PyComplexObject *)op)->cval = cval;
    }
    return op;
}

static void
complex_dealloc(PyObject *op)
{
    if (PyComplex_CheckExact(op)) {
        PyObject_Free(op);
        return;
    }
    Py_TYPE(op)->tp_free(op);
}

/* __complex__ of a non-complex object: a new reference to a complex, NULL
   with an error, or NULL without one when there is no such method. */
static PyObject *
try_complex_special_method(PyObject *op)
{
    static PyObject *name = NULL;
    if (name == NULL) {
        name = PyUnicode_InternFromString("__complex__");
        if (name == NULL) {
            return NULL;
        }
    }
    PyObject *f = _PyObject_LookupSpecial(op, name);
    if (f == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_CallNoArgs(f);
    Py_DECREF(f);
    if (res == NULL || PyComplex_CheckExact(res)) {
        return res;
    }
    if (!PyComplex_Check(res)) {
        PyErr_Format(PyExc_TypeError, "__complex__ returned non-complex (type %.200s)",
                     Py_TYPE(res)->tp_name);
        Py_DECREF(res);
        return NULL;
    }
    if (PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                         "__complex__ returned non-complex (type %.200s).  The ability to "
                         "return an instance of a strict subclass of complex is deprecated, "
                         "and may be removed in a future version of Python.",
                         Py_TYPE(res)->tp_name) < 0) {
        Py_DECREF(res);
        return NULL;
    }
    return res;
}

Py_complex
PyComplex_AsCComplex(PyObject *op)
{
    Py_complex cv = {-1.0, 0.0};
    if (op == NULL) {
        PyErr_BadArgument();
        return cv;
    }
    if (PyComplex_Check(op)) {
        return ((PyComplexObject *)op)->cval;
    }
    PyObject *newop = try_complex_special_method(op);
    if (newop != NULL) {
        cv = ((PyComplexObject *)newop)->cval;
        Py_DECREF(newop);
        return cv;
    }
    if (PyErr_Occurred()) {
        return cv;
    }
    cv.real = PyFloat_AsDouble(op);
    return cv;
}

double
PyComplex_RealAsDouble(PyObject *op)
{
    if (PyComplex_Check(op)) {
        return ((PyComplexObject *)op)->cval.real;
    }
    Py_complex c = PyComplex_AsCComplex(op);
    return c.real;
}

double
PyComplex_ImagAsDouble(PyObject *op)
{
    if (PyComplex_Check(op)) {
        return ((PyComplexObject *)op)->cval.imag;
    }
    Py_complex c = PyComplex_AsCComplex(op);
    if (c.real == -1.0 && PyErr_Occurred()) {
        return -1.0;
    }
    return c.imag;
}

/* ---- repr and hash ------------------------------------------------------ */

/* real and imag with the 'r' code (or a format code and precision), the
   real part dropped when it is +0.0 and parentheses around the pair:
   CPython's layout, shared with format(). */
static char *
format_part(double x, char code, int precision, int flags)
{
    return PyOS_double_to_string(x, code, precision, flags, NULL);
}

static PyObject *
complex_repr(PyObject *self)
{
    Py_complex c = ((PyComplexObject *)self)->cval;
    char *re = NULL, *im = NULL;
    PyObject *result = NULL;
    int skip_re = c.real == 0.0 && !signbit(c.real);
    if (!skip_re) {
        re = format_part(c.real, 'r', 0, 0);
        if (re == NULL) {
            return NULL;
        }
    }
    im = format_part(c.imag, 'r', 0, skip_re ? 0 : Py_DTSF_SIGN);
    if (im == NULL) {
        goto done;
    }
    char buf[128];
    snprintf(buf, sizeof(buf), skip_re ? "%s%sj" : "(%s%sj)", skip_re ? "" : re, im);
    result = PyUnicode_FromString(buf);
done:
    PyMem_Free(re);
    PyMem_Free(im);
    return result;
}

static Py_hash_t
complex_hash(PyObject *self)
{
    Py_complex c = ((PyComplexObject *)self)->cval;
    Py_uhash_t hreal = (Py_uhash_t)_Py_HashDouble(self, c.real);
    Py_uhash_t himag = (Py_uhash_t)_Py_HashDouble(self, c.imag);
    Py_uhash_t combined = hreal + PyHASH_IMAG * himag;
    Py_hash_t h = (Py_hash_t)combined;
    return h == -1 ? -2 : h;
}

/* ---- Operands ----------------------------------------------------------- */

/* Classify an operand: 2 complex, 1 real (int or float, value in *real),
   0 NotImplemented, -1 error. */
static int
operand(PyObject *obj, Py_complex *c)
{
    if (PyComplex_Check(obj)) {
        *c = ((PyComplexObject *)obj)->cval;
        return 2;
    }
    if (PyFloat_Check(obj)) {
        c->real = PyFloat_AS_DOUBLE(obj);
        c->imag = 0.0;
        return 1;
    }
    if (PyLong_Check(obj)) {
        c->real = PyLong_AsDouble(obj);
        c->imag = 0.0;
        if (c->real == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        return 1;
    }
    return 0;
}

#define GET_OPERANDS(v, w, a, b, ka, kb)        \
    do {                                        \
        ka = operand((v), &(a));                \
        if (ka <= 0) {                          \
            if (ka < 0) {                       \
                return NULL;                    \
            }                                   \
            Py_RETURN_NOTIMPLEMENTED;           \
        }                                       \
        kb = operand((w), &(b));                \
        if (kb <= 0) {                          \
            if (kb < 0) {                       \
                return NULL;                    \
            }                                   \
            Py_RETURN_NOTIMPLEMENTED;           \
        }                                       \
    } while (0)

static PyObject *
complex_add(PyObject *v, PyObject *w)
{
    Py_complex a, b, r;
    int ka, kb;
    GET_OPERANDS(v, w, a, b, ka, kb);
    r.real = a.real + b.real;
    /* a real operand has no imaginary part to add (keeps -0.0) */
    r.imag = ka == 1 ? b.imag : kb == 1 ? a.imag : a.imag + b.imag;
    return PyComplex_FromCComplex(r);
}

static PyObject *
complex_sub(PyObject *v, PyObject *w)
{
    Py_complex a, b, r;
    int ka, kb;
    GET_OPERANDS(v, w, a, b, ka, kb);
    r.real = a.real - b.real;
    r.imag = ka == 1 ? -b.imag : kb == 1 ? a.imag : a.imag - b.imag;
    return PyComplex_FromCComplex(r);
}

static PyObject *
complex_mul(PyObject *v, PyObject *w)
{
    Py_complex a, b, r;
    int ka, kb;
    GET_OPERANDS(v, w, a, b, ka, kb);
    if (ka == 1) {
        r.real = a.real * b.real;
        r.imag = a.real * b.imag;
    }
    else if (kb == 1) {
        r.real = a.real * b.real;
        r.imag = a.imag * b.real;
    }
    else {
        r = _Py_c_prod(a, b);
    }
    return PyComplex_FromCComplex(r);
}

static PyObject *
complex_div(PyObject *v, PyObject *w)
{
    Py_complex a, b, r;
    int ka, kb;
    GET_OPERANDS(v, w, a, b, ka, kb);
    if (kb == 1) {
        if (b.real == 0.0) {
            PyErr_SetString(PyExc_ZeroDivisionError, DIV_ZERO_MSG);
            return NULL;
        }
        r.real = a.real / b.real;
        r.imag = a.imag / b.real;
        return PyComplex_FromCComplex(r);
    }
    errno = 0;
    r = _Py_c_quot(a, b);
    if (errno == EDOM) {
        PyErr_SetString(PyExc_ZeroDivisionError, DIV_ZERO_MSG);
        return NULL;
    }
    return PyComplex_FromCComplex(r);
}

static PyObject *
complex_pow(PyObject *v, PyObject *w, PyObject *z)
{
    Py_complex a, b, r;
    int ka, kb;
    GET_OPERANDS(v, w, a, b, ka, kb);
    if (z != Py_None) {
        PyErr_SetString(PyExc_ValueError, "complex modulo");
        return NULL;
    }
    errno = 0;
    /* small integral exponents: exact-ish repeated multiplication */
    if (b.imag == 0.0 && b.real == floor(b.real) && fabs(b.real) <= 100.0) {
        r = c_powi(a, (long)b.real);
    }
    else {
        r = _Py_c_pow(a, b);
    }
    if (errno == EDOM) {
        PyErr_SetString(PyExc_ZeroDivisionError, "zero to a negative or complex power");
        return NULL;
    }
    /* an infinite result is an overflow; underflow to zero is fine */
    if (isinf(r.real) || isinf(r.imag)) {
        PyErr_SetString(PyExc_OverflowError, "complex exponentiation");
        return NULL;
    }
    return PyComplex_FromCComplex(r);
}

static PyObject *
complex_neg(PyObject *v)
{
    return PyComplex_FromCComplex(_Py_c_neg(((PyComplexObject *)v)->cval));
}

static PyObject *
complex_pos(PyObject *v)
{
    if (PyComplex_CheckExact(v)) {
        return Py_NewRef(v);
    }
    return PyComplex_FromCComplex(((PyComplexObject *)v)->cval);
}

static PyObject *
complex_abs(PyObject *v)
{
    double result = _Py_c_abs(((PyComplexObject *)v)->cval);
    if (errno == ERANGE) {
        PyErr_SetString(PyExc_OverflowError, "absolute value too large");
        return NULL;
    }
    return PyFloat_FromDouble(result);
}

static int
complex_bool(PyObject *v)
{
    Py_complex c = ((PyComplexObject *)v)->cval;
    return c.real != 0.0 || c.imag != 0.0;
}

static PyObject *
complex_richcompare(PyObject *v, PyObject *w, int op)
{
    if (op != Py_EQ && op != Py_NE) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    Py_complex a = ((PyComplexObject *)v)->cval;
    int equal;
    if (PyLong_Check(w)) {
        /* exact: compare the real part with the int through float */
        if (a.imag != 0.0) {
            equal = 0;
        }
        else {
            PyObject *re = PyFloat_FromDouble(a.real);
            if (re == NULL) {
                return NULL;
            }
            PyObject *r = PyFloat_Type.tp_richcompare(re, w, op);
            Py_DECREF(re);
            return r;
        }
    }
    else if (PyFloat_Check(w)) {
        equal = a.real == PyFloat_AS_DOUBLE(w) && a.imag == 0.0;
    }
    else if (PyComplex_Check(w)) {
        Py_complex b = ((PyComplexObject *)w)->cval;
        equal = a.real == b.real && a.imag == b.imag;
    }
    else {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

/* ---- Construction ------------------------------------------------------- */

static inline int
is_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The grammar after whitespace and parentheses are stripped: a real, an
   imaginary ("<float>j", "j"), or both ("<float><sign><float>j",
   "<float><sign>j").  0 on success, -1 malformed, -2 error set. */
static int
parse_complex_body(const char *s, Py_ssize_t len, Py_complex *out)
{
    double x, y;
    out->real = out->imag = 0.0;
    Py_ssize_t n = _PyOS_ScanFloat(s, len, &x);
    if (n < 0) {
        return -2;
    }
    if (n == 0) {
        /* "j", "+j", "-j" */
        Py_ssize_t i = 0;
        double sign = 1.0;
        if (i < len && (s[i] == '+' || s[i] == '-')) {
            sign = s[i] == '-' ? -1.0 : 1.0;
            i++;
        }
        if (i + 1 == len && (s[i] | 0x20) == 'j') {
            out->imag = sign;
            return 0;
        }
        return -1;
    }
    if (n == len) {
        out->real = x;
        return 0;
    }
    if (n + 1 == len && (s[n] | 0x20) == 'j') {
        out->imag = x;
        return 0;
    }
    if (s[n] != '+' && s[n] != '-') {
        return -1;
    }
    out->real = x;
    const char *t = s + n;
    Py_ssize_t tl = len - n;
    Py_ssize_t m = _PyOS_ScanFloat(t, tl, &y);
    if (m < 0) {
        return -2;
    }
    if (m == 0) {
        if (tl == 2 && (t[1] | 0x20) == 'j') {
            out->imag = t[0] == '-' ? -1.0 : 1.0;
            return 0;
        }
        return -1;
    }
    if (m + 1 == tl && (t[m] | 0x20) == 'j') {
        out->imag = y;
        return 0;
    }
    return -1;
}

static PyObject *
complex_from_text(PyTypeObject *type, const char *s, Py_ssize_t len, PyObject *orig)
{
    /* whitespace, then optional parentheses with whitespace inside */
    while (len > 0 && is_space(*s)) {
        s++;
        len--;
    }
    while (len > 0 && is_space(s[len - 1])) {
        len--;
    }
    if (len >= 2 && s[0] == '(' && s[len - 1] == ')') {
        s++;
        len -= 2;
        while (len > 0 && is_space(*s)) {
            s++;
            len--;
        }
        while (len > 0 && is_space(s[len - 1])) {
            len--;
        }
    }
    char *buf = PyMem_Malloc((size_t)len + 1);
    if (buf == NULL) {
        return PyErr_NoMemory();
    }
    Py_ssize_t n = _PyOS_StripUnderscores(s, len, buf);
    if (n < 0) {
        PyMem_Free(buf);
        PyErr_Format(PyExc_ValueError, "could not convert string to complex: %R", orig);
        return NULL;
    }
    Py_complex c;
    int rc = parse_complex_body(buf, n, &c);
    PyMem_Free(buf);
    if (rc == -1) {
        PyErr_SetString(PyExc_ValueError, "complex() arg is a malformed string");
    }
    if (rc < 0) {
        return NULL;
    }
    return complex_subtype_from_c_complex(type, c);
}

static PyObject *
complex_from_string(PyTypeObject *type, PyObject *v)
{
    if (PyUnicode_IS_ASCII(v)) {
        return complex_from_text(type, (const char *)PyUnicode_DATA(v),
                                 PyUnicode_GET_LENGTH(v), v);
    }
    Py_ssize_t len;
    char *buf = _PyUnicode_NumberToASCII(v, &len);
    if (buf == NULL) {
        return NULL;
    }
    PyObject *r = complex_from_text(type, buf, len, v);
    PyMem_Free(buf);
    return r;
}

static int
is_number(PyObject *x)
{
    PyNumberMethods *nb = Py_TYPE(x)->tp_as_number;
    return PyComplex_Check(x) ||
           (nb != NULL && (nb->nb_float != NULL || nb->nb_index != NULL));
}

/* The real argument as a complex value (through __complex__, __float__
   or __index__); *is_complex tells whether it had an imaginary part. */
static int
real_argument(PyObject *x, Py_complex *c, int *is_complex)
{
    *is_complex = 0;
    if (PyComplex_Check(x)) {
        *c = ((PyComplexObject *)x)->cval;
        *is_complex = 1;
        return 0;
    }
    PyObject *special = try_complex_special_method(x);
    if (special != NULL) {
        *c = ((PyComplexObject *)special)->cval;
        Py_DECREF(special);
        *is_complex = 1;
        return 0;
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    if (!is_number(x)) {
        PyErr_Format(PyExc_TypeError,
                     "complex() first argument must be a string or a number, not '%.200s'",
                     Py_TYPE(x)->tp_name);
        return -1;
    }
    c->real = PyFloat_AsDouble(x);
    c->imag = 0.0;
    if (c->real == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    return 0;
}

/* The imag argument: a complex or a real number, no __complex__. */
static int
imag_argument(PyObject *x, Py_complex *c, int *is_complex)
{
    *is_complex = PyComplex_Check(x);
    if (*is_complex) {
        *c = ((PyComplexObject *)x)->cval;
        return 0;
    }
    c->real = PyFloat_AsDouble(x);
    c->imag = 0.0;
    if (c->real == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    return 0;
}

static PyObject *
complex_new_impl(PyTypeObject *type, PyObject *r, PyObject *i)
{
    if (r == NULL) {
        r = _PyLong_GetZero();
    }
    if (PyComplex_CheckExact(r) && i == NULL && type == &PyComplex_Type) {
        return Py_NewRef(r);
    }
    if (PyUnicode_Check(r)) {
        if (i != NULL) {
            PyErr_SetString(PyExc_TypeError,
                            "complex() can't take second arg if first is a string");
            return NULL;
        }
        return complex_from_string(type, r);
    }
    if (i != NULL && PyUnicode_Check(i)) {
        PyErr_SetString(PyExc_TypeError, "complex() second arg can't be a string");
        return NULL;
    }
    Py_complex cr, ci = {0.0, 0.0};
    int cr_is_complex, ci_is_complex = 0;
    if (real_argument(r, &cr, &cr_is_complex) < 0) {
        return NULL;
    }
    if (i != NULL) {
        if (!is_number(i)) {
            PyErr_Format(PyExc_TypeError,
                         "complex() second argument must be a number, not '%.200s'",
                         Py_TYPE(i)->tp_name);
            return NULL;
        }
        if (PyComplex_Check(r) &&
            PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                             "complex() argument 'real' must be a real number, not %.200s",
                             Py_TYPE(r)->tp_name) < 0) {
            return NULL;
        }
        if (PyComplex_Check(i) &&
            PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                             "complex() argument 'imag' must be a real number, not %.200s",
                             Py_TYPE(i)->tp_name) < 0) {
            return NULL;
        }
        if (imag_argument(i, &ci, &ci_is_complex) < 0) {
            return NULL;
        }
    }
    /* r + i*1j, keeping the sign of zero parts */
    Py_complex result;
    if (ci_is_complex) {
        result.real = cr.real - ci.imag;
    }
    else {
        result.real = cr.real;
    }
    if (cr_is_complex && i != NULL) {
        result.imag = cr.imag + ci.real;
    }
    else if (cr_is_complex) {
        result.imag = cr.imag;
    }
    else {
        result.imag = ci.real;
    }
    return complex_subtype_from_c_complex(type, result);
}

static PyObject *
complex_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static const char *const kwlist[] = {"real", "imag", NULL};
    PyObject *r = NULL, *i = NULL;
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "complex() takes at most 2 arguments (%zd given)",
                     nargs + (kwds ? PyDict_GET_SIZE(kwds) : 0));
        return NULL;
    }
    r = nargs > 0 ? PyTuple_GET_ITEM(args, 0) : NULL;
    i = nargs > 1 ? PyTuple_GET_ITEM(args, 1) : NULL;
    if (kwds != NULL) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(kwds, &pos, &key, &value)) {
            int which = -1;
            for (int k = 0; k < 2; k++) {
                if (PyUnicode_Check(key) && _PyUnicode_EqualToASCIIString(key, kwlist[k])) {
                    which = k;
                }
            }
            if (which < 0) {
                PyErr_Format(PyExc_TypeError,
                             "complex() got an unexpected keyword argument '%S'", key);
                return NULL;
            }
            PyObject **slot = which == 0 ? &r : &i;
            if (*slot != NULL) {
                PyErr_Format(PyExc_TypeError,
                             "argument for complex() given by name ('%s') and position (%d)",
                             kwlist[which], which + 1);
                return NULL;
            }
            if (which == 0 && PyUnicode_Check(value)) {
                PyErr_SetString(PyExc_TypeError,
                                "complex() argument 'real' must be a real number, not str");
                return NULL;
            }
            *slot = value;
        }
    }
    return complex_new_impl(type, r, i);
}

static PyObject *
complex_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if ((PyTypeObject *)type != &PyComplex_Type ||
        (kwnames != NULL && PyTuple_GET_SIZE(kwnames)) || nargs > 2) {
        return _PyObject_MakeTpCall(type, args, nargs, kwnames);
    }
    return complex_new_impl(&PyComplex_Type, nargs > 0 ? args[0] : NULL,
                            nargs > 1 ? args[1] : NULL);
}

/* ---- Methods ------------------------------------------------------------ */

static PyObject *
complex_conjugate(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    Py_complex c = ((PyComplexObject *)self)->cval;
    c.imag = -c.imag;
    return PyComplex_FromCComplex(c);
}

static PyObject *
complex_getnewargs(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    Py_complex c = ((PyComplexObject *)self)->cval;
    PyObject *re = PyFloat_FromDouble(c.real), *im = PyFloat_FromDouble(c.imag);
    PyObject *r = (re && im) ? PyTuple_Pack(2, re, im) : NULL;
    Py_XDECREF(re);
    Py_XDECREF(im);
    return r;
}

static PyObject *
complex_complex(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return complex_pos(self);
}

static PyObject *
complex_format(PyObject *self, PyObject *spec)
{
    if (!PyUnicode_Check(spec)) {
        PyErr_Format(PyExc_TypeError, "__format__() argument must be str, not %.200s",
                     Py_TYPE(spec)->tp_name);
        return NULL;
    }
    return _PyComplex_FormatAdvanced(self, spec, 0, PyUnicode_GET_LENGTH(spec));
}

static PyObject *
complex_from_number(PyObject *type, PyObject *number)
{
    if (PyUnicode_Check(number) || PyBytes_Check(number) || PyByteArray_Check(number)) {
        PyErr_Format(PyExc_TypeError, "complex() argument must be a number, not %.200s",
                     Py_TYPE(number)->tp_name);
        return NULL;
    }
    Py_complex c = PyComplex_AsCComplex(number);
    if (c.real == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *result = PyComplex_FromCComplex(c);
    if (result != NULL && (PyTypeObject *)type != &PyComplex_Type) {
        Py_SETREF(result, PyObject_CallOneArg(type, result));
    }
    return result;
}

static PyObject *
complex_get_real(PyObject *self, void *Py_UNUSED(closure))
{
    return PyFloat_FromDouble(((PyComplexObject *)self)->cval.real);
}

static PyObject *
complex_get_imag(PyObject *self, void *Py_UNUSED(closure))
{
    return PyFloat_FromDouble(((PyComplexObject *)self)->cval.imag);
}

static PyMethodDef complex_methods[] = {
    {"from_number", complex_from_number, METH_O | METH_CLASS,
     "complex(number) for numbers only (no strings)."},
    {"conjugate", complex_conjugate, METH_NOARGS,
     "The complex number with the imaginary part negated."},
    {"__complex__", complex_complex, METH_NOARGS, "The value as an exact complex."},
    {"__getnewargs__", complex_getnewargs, METH_NOARGS, NULL},
    {"__format__", complex_format, METH_O,
     "format(self, format_spec) for the standard format spec."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef complex_getset[] = {
    {"real", complex_get_real, NULL, "the real part, a float", NULL},
    {"imag", complex_get_imag, NULL, "the imaginary part, a float", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyNumberMethods complex_as_number = {
    .nb_add = complex_add,
    .nb_subtract = complex_sub,
    .nb_multiply = complex_mul,
    .nb_power = complex_pow,
    .nb_negative = complex_neg,
    .nb_positive = complex_pos,
    .nb_absolute = complex_abs,
    .nb_bool = complex_bool,
    .nb_true_divide = complex_div,
};

PyTypeObject PyComplex_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "complex",
    .tp_basicsize = sizeof(PyComplexObject),
    .tp_dealloc = complex_dealloc,
    .tp_repr = complex_repr,
    .tp_as_number = &complex_as_number,
    .tp_hash = complex_hash,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    .tp_doc = "complex(real=0, imag=0)\n--\n\n"
              "A complex number: real + imag*1j, from two real numbers, from one\n"
              "number, or from text such as '1+2j'.",
    .tp_richcompare = complex_richcompare,
    .tp_methods = complex_methods,
    .tp_getset = complex_getset,
    .tp_new = complex_new,
    .tp_free = PyObject_Free,
    .tp_vectorcall = complex_vectorcall,
};
