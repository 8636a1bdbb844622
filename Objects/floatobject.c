/* The float type: IEEE 754 binary64 values.

   Text conversion lives in Python/pystrtod.c, hashing in Python/pyhash.c
   and the format-spec mini-language in Python/formatter_unicode.c.
   Comparisons with ints are exact (no rounding of huge ints). */

#include "Python.h"
#include "pycore_floatobject.h"
#include "pycore_long.h"
#include "pycore_object.h"
#include "pycore_format.h"
#include "pycore_stress.h"

#include <float.h>

#define DIV_ZERO_MSG "division by zero"
#define ZERO_POW_MSG "zero to a negative power"

/* ---- Allocation --------------------------------------------------------- */

#define FREELIST_SIZE 100 /* the stress build keeps none (pycore_stress.h) */
static PyFloatObject *freelist[FREELIST_SIZE];
static int freelist_len;

PyObject *
PyFloat_FromDouble(double fval)
{
    PyFloatObject *op;
    if (freelist_len > 0) {
        op = freelist[--freelist_len];
    }
    else {
        op = PyObject_Malloc(sizeof(PyFloatObject));
        if (op == NULL) {
            return PyErr_NoMemory();
        }
    }
    _PyObject_Init((PyObject *)op, &PyFloat_Type);
    op->ob_fval = fval;
    return (PyObject *)op;
}

void
_PyFloat_ClearFreeList(void)
{
    while (freelist_len > 0) {
        PyObject_Free(freelist[--freelist_len]);
    }
}

static void
float_dealloc(PyObject *op)
{
    if (PyFloat_CheckExact(op)) {
        if (!_Py_STRESS && freelist_len < FREELIST_SIZE) {
            freelist[freelist_len++] = (PyFloatObject *)op;
        }
        else {
            PyObject_Free(op);
        }
        return;
    }
    Py_TYPE(op)->tp_free(op);
}

/* ---- Conversion to double ----------------------------------------------- */

/* The value of __float__; checks it is a float. */
static PyObject *
call_nb_float(PyObject *op, unaryfunc nb_float)
{
    PyObject *res = nb_float(op);
    if (res == NULL || PyFloat_CheckExact(res)) {
        return res;
    }
    if (!PyFloat_Check(res)) {
        PyErr_Format(PyExc_TypeError, "%.50s.__float__ returned non-float (type %.50s)",
                     Py_TYPE(op)->tp_name, Py_TYPE(res)->tp_name);
        Py_DECREF(res);
        return NULL;
    }
    if (PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                         "%.50s.__float__ returned non-float (type %.50s).  The ability to "
                         "return an instance of a strict subclass of float is deprecated, "
                         "and may be removed in a future version of Python.",
                         Py_TYPE(op)->tp_name, Py_TYPE(res)->tp_name) < 0) {
        Py_DECREF(res);
        return NULL;
    }
    double v = PyFloat_AS_DOUBLE(res);
    Py_DECREF(res);
    return PyFloat_FromDouble(v);
}

double
PyFloat_AsDouble(PyObject *op)
{
    if (op == NULL) {
        PyErr_BadArgument();
        return -1.0;
    }
    if (PyFloat_Check(op)) {
        return PyFloat_AS_DOUBLE(op);
    }
    PyNumberMethods *nb = Py_TYPE(op)->tp_as_number;
    if (nb == NULL || nb->nb_float == NULL) {
        if (nb != NULL && nb->nb_index != NULL) {
            PyObject *res = PyNumber_Index(op);
            if (res == NULL) {
                return -1.0;
            }
            double v = PyLong_AsDouble(res);
            Py_DECREF(res);
            return v;
        }
        PyErr_Format(PyExc_TypeError, "must be real number, not %.50s", Py_TYPE(op)->tp_name);
        return -1.0;
    }
    PyObject *res = call_nb_float(op, nb->nb_float);
    if (res == NULL) {
        return -1.0;
    }
    double v = PyFloat_AS_DOUBLE(res);
    Py_DECREF(res);
    return v;
}

/* The double value of a float or int operand of a binary operator;
   0 if the type is not one of ours (NotImplemented), -1 on error. */
static inline int
operand_to_double(PyObject *obj, double *out)
{
    if (PyFloat_Check(obj)) {
        *out = PyFloat_AS_DOUBLE(obj);
        return 1;
    }
    if (PyLong_Check(obj)) {
        PyLongObject *v = (PyLongObject *)obj;
        if (_PyLong_IsCompact(v)) {
            *out = (double)_PyLong_CompactValue(v);
            return 1;
        }
        *out = PyLong_AsDouble(obj);
        if (*out == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        return 1;
    }
    return 0;
}

#define CONVERT_OPERANDS(v, w, a, b)                 \
    do {                                             \
        int _rv = operand_to_double((v), &(a));      \
        if (_rv <= 0) {                              \
            if (_rv < 0) {                           \
                return NULL;                         \
            }                                        \
            Py_RETURN_NOTIMPLEMENTED;                \
        }                                            \
        _rv = operand_to_double((w), &(b));          \
        if (_rv <= 0) {                              \
            if (_rv < 0) {                           \
                return NULL;                         \
            }                                        \
            Py_RETURN_NOTIMPLEMENTED;                \
        }                                            \
    } while (0)

/* ---- Text --------------------------------------------------------------- */

char *
_PyUnicode_NumberToASCII(PyObject *u, Py_ssize_t *plen)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(u);
    char *buf = PyMem_Malloc((size_t)n + 1);
    if (buf == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    int kind = PyUnicode_KIND(u);
    const void *data = PyUnicode_DATA(u);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch < 128) {
            buf[i] = (char)ch;
        }
        else if (Py_UNICODE_ISSPACE(ch)) {
            buf[i] = ' ';
        }
        else {
            int d = Py_UNICODE_TODECIMAL(ch);
            buf[i] = d >= 0 ? (char)('0' + d) : '?';
        }
    }
    buf[n] = '\0';
    *plen = n;
    return buf;
}

static inline int
is_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* float() of text: surrounding whitespace, PEP 515 underscores. */
static PyObject *
float_from_text(const char *s, Py_ssize_t len, PyObject *orig)
{
    while (len > 0 && is_space(*s)) {
        s++;
        len--;
    }
    while (len > 0 && is_space(s[len - 1])) {
        len--;
    }
    double x;
    int rc = _PyOS_ParseFloatLiteral(s, len, &x);
    if (rc == 0) {
        return PyFloat_FromDouble(x);
    }
    if (rc == -1) {
        PyErr_Format(PyExc_ValueError, "could not convert string to float: %R", orig);
    }
    return NULL;
}

PyObject *
PyFloat_FromString(PyObject *v)
{
    if (PyUnicode_Check(v)) {
        if (PyUnicode_IS_ASCII(v)) {
            return float_from_text((const char *)PyUnicode_DATA(v), PyUnicode_GET_LENGTH(v), v);
        }
        Py_ssize_t len;
        char *buf = _PyUnicode_NumberToASCII(v, &len);
        if (buf == NULL) {
            return NULL;
        }
        PyObject *r = float_from_text(buf, len, v);
        PyMem_Free(buf);
        return r;
    }
    if (PyBytes_Check(v)) {
        return float_from_text(PyBytes_AS_STRING(v), PyBytes_GET_SIZE(v), v);
    }
    if (PyByteArray_Check(v)) {
        return float_from_text(PyByteArray_AS_STRING(v), PyByteArray_GET_SIZE(v), v);
    }
    PyBufferProcs *bp = Py_TYPE(v)->tp_as_buffer;
    if (bp != NULL && bp->bf_getbuffer != NULL) {
        Py_buffer view;
        if (bp->bf_getbuffer(v, &view, PyBUF_SIMPLE) < 0) {
            return NULL;
        }
        PyObject *copy = PyBytes_FromStringAndSize(view.buf, view.len);
        if (bp->bf_releasebuffer != NULL) {
            bp->bf_releasebuffer(v, &view);
        }
        Py_XDECREF(view.obj);
        if (copy == NULL) {
            return NULL;
        }
        PyObject *r = float_from_text(PyBytes_AS_STRING(copy), PyBytes_GET_SIZE(copy), copy);
        Py_DECREF(copy);
        return r;
    }
    PyErr_Format(PyExc_TypeError,
                 "float() argument must be a string or a real number, not '%.200s'",
                 Py_TYPE(v)->tp_name);
    return NULL;
}

static PyObject *
float_repr(PyObject *v)
{
    char *buf = PyOS_double_to_string(PyFloat_AS_DOUBLE(v), 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
    if (buf == NULL) {
        return NULL;
    }
    PyObject *r = PyUnicode_FromString(buf);
    PyMem_Free(buf);
    return r;
}

/* ---- Construction ------------------------------------------------------- */

PyObject *
_PyFloat_FromNumber(PyObject *x)
{
    if (PyFloat_CheckExact(x)) {
        return Py_NewRef(x);
    }
    PyNumberMethods *nb = Py_TYPE(x)->tp_as_number;
    if (nb != NULL && nb->nb_float != NULL) {
        return call_nb_float(x, nb->nb_float);
    }
    if (nb != NULL && nb->nb_index != NULL) {
        PyObject *i = PyNumber_Index(x);
        if (i == NULL) {
            return NULL;
        }
        double v = PyLong_AsDouble(i);
        Py_DECREF(i);
        if (v == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
        return PyFloat_FromDouble(v);
    }
    if (PyFloat_Check(x)) {
        return PyFloat_FromDouble(PyFloat_AS_DOUBLE(x));
    }
    return PyFloat_FromString(x);
}

static PyObject *
float_subtype_new(PyTypeObject *type, PyObject *x)
{
    PyObject *tmp = x == NULL ? PyFloat_FromDouble(0.0) : _PyFloat_FromNumber(x);
    if (tmp == NULL) {
        return NULL;
    }
    PyObject *newobj = type->tp_alloc(type, 0);
    if (newobj != NULL) {
        ((PyFloatObject *)newobj)->ob_fval = PyFloat_AS_DOUBLE(tmp);
    }
    Py_DECREF(tmp);
    return newobj;
}

static PyObject *
float_new_impl(PyTypeObject *type, PyObject *x)
{
    if (type != &PyFloat_Type) {
        return float_subtype_new(type, x);
    }
    if (x == NULL) {
        return PyFloat_FromDouble(0.0);
    }
    if (PyUnicode_CheckExact(x)) {
        return PyFloat_FromString(x);
    }
    return _PyFloat_FromNumber(x);
}

static PyObject *
float_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (type == &PyFloat_Type && kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "float() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "float expected at most 1 argument, got %zd", nargs);
        return NULL;
    }
    return float_new_impl(type, nargs ? PyTuple_GET_ITEM(args, 0) : NULL);
}

static PyObject *
float_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if ((PyTypeObject *)type != &PyFloat_Type) {
        return _PyObject_MakeTpCall(type, args, nargs, kwnames);
    }
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        PyErr_SetString(PyExc_TypeError, "float() takes no keyword arguments");
        return NULL;
    }
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "float expected at most 1 argument, got %zd", nargs);
        return NULL;
    }
    return float_new_impl(&PyFloat_Type, nargs ? args[0] : NULL);
}

/* ---- Comparison --------------------------------------------------------- */

/* Compare a double with an int exactly: -1, 0, 1, or 2 for "unordered"
   (NaN); -2 on error. */
static int
compare_double_int(double x, PyObject *i)
{
    PyLongObject *v = (PyLongObject *)i;
    if (isnan(x)) {
        return 2;
    }
    if (_PyLong_IsCompact(v)) {
        double y = (double)_PyLong_CompactValue(v);   /* exact */
        return (x > y) - (x < y);
    }
    if (isinf(x)) {
        return x > 0 ? 1 : -1;
    }
    int isign = _PyLong_IsNegative(v) ? -1 : 1;
    int xsign = x > 0 ? 1 : (x < 0 ? -1 : 0);
    if (xsign != isign) {
        return xsign < isign ? -1 : 1;
    }
    /* Same sign and the int is nonzero.  Compare magnitudes by bit
       length first: |x| < 2**e, and |i| >= 2**(nbits - 1). */
    int e;
    frexp(x, &e);
    int64_t nbits = _PyLong_NumBits(i);
    if (nbits > e) {
        return -isign;
    }
    if (nbits < e) {
        return isign;
    }
    /* Comparable sizes (x >= 2**29 here): compare the integral parts as
       ints, then let the fraction break a tie. */
    double ipart;
    double frac = modf(x, &ipart);
    PyObject *xi = PyLong_FromDouble(ipart);
    if (xi == NULL) {
        return -2;
    }
    int c = _PyLong_Compare((PyLongObject *)xi, v);
    Py_DECREF(xi);
    if (c != 0) {
        return c;
    }
    return (frac > 0) - (frac < 0);
}

static PyObject *
float_richcompare(PyObject *v, PyObject *w, int op)
{
    double x = PyFloat_AS_DOUBLE(v);
    int c;
    if (PyFloat_Check(w)) {
        double y = PyFloat_AS_DOUBLE(w);
        switch (op) {
        case Py_EQ: return PyBool_FromLong(x == y);
        case Py_NE: return PyBool_FromLong(x != y);
        case Py_LT: return PyBool_FromLong(x < y);
        case Py_LE: return PyBool_FromLong(x <= y);
        case Py_GT: return PyBool_FromLong(x > y);
        case Py_GE: return PyBool_FromLong(x >= y);
        }
        Py_UNREACHABLE();
    }
    if (!PyLong_Check(w)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    c = compare_double_int(x, w);
    if (c == -2) {
        return NULL;
    }
    if (c == 2) {
        return PyBool_FromLong(op == Py_NE);
    }
    Py_RETURN_RICHCOMPARE(c, 0, op);
}

static Py_hash_t
float_hash(PyObject *v)
{
    return _Py_HashDouble(v, PyFloat_AS_DOUBLE(v));
}

/* ---- Arithmetic --------------------------------------------------------- */

static PyObject *
float_add(PyObject *v, PyObject *w)
{
    double a, b;
    CONVERT_OPERANDS(v, w, a, b);
    return PyFloat_FromDouble(a + b);
}

static PyObject *
float_sub(PyObject *v, PyObject *w)
{
    double a, b;
    CONVERT_OPERANDS(v, w, a, b);
    return PyFloat_FromDouble(a - b);
}

static PyObject *
float_mul(PyObject *v, PyObject *w)
{
    double a, b;
    CONVERT_OPERANDS(v, w, a, b);
    return PyFloat_FromDouble(a * b);
}

static PyObject *
float_div(PyObject *v, PyObject *w)
{
    double a, b;
    CONVERT_OPERANDS(v, w, a, b);
    if (b == 0.0) {
        PyErr_SetString(PyExc_ZeroDivisionError, DIV_ZERO_MSG);
        return NULL;
    }
    return PyFloat_FromDouble(a / b);
}

/* a % b with the sign of b */
static double
float_mod_value(double a, double b)
{
    double mod = fmod(a, b);
    if (mod != 0.0) {
        if ((b < 0) != (mod < 0)) {
            mod += b;
        }
    }
    else {
        mod = copysign(0.0, b);
    }
    return mod;
}

static PyObject *
float_rem(PyObject *v, PyObject *w)
{
    double a, b;
    CONVERT_OPERANDS(v, w, a, b);
    if (b == 0.0) {
        PyErr_SetString(PyExc_ZeroDivisionError, DIV_ZERO_MSG);
        return NULL;
    }
    return PyFloat_FromDouble(float_mod_value(a, b));
}

/* Floor quotient and remainder with a == q*b + r, r having b's sign, q
   the exactly rounded floor. */
static void
float_divmod_values(double a, double b, double *pq, double *pr)
{
    double mod = fmod(a, b);
    /* (a - mod) is, up to rounding, an exact multiple of b */
    double div = (a - mod) / b;
    if (mod != 0.0) {
        if ((b < 0) != (mod < 0)) {
            mod += b;
            div -= 1.0;
        }
    }
    else {
        mod = copysign(0.0, b);
    }
    double floordiv;
    if (div != 0.0) {
        floordiv = floor(div);
        if (div - floordiv > 0.5) {
            floordiv += 1.0;
        }
    }
    else {
        floordiv = copysign(0.0, a / b);
    }
    *pq = floordiv;
    *pr = mod;
}

static PyObject *
float_floor_div(PyObject *v, PyObject *w)
{
    double a, b, q, r;
    CONVERT_OPERANDS(v, w, a, b);
    if (b == 0.0) {
        PyErr_SetString(PyExc_ZeroDivisionError, DIV_ZERO_MSG);
        return NULL;
    }
    float_divmod_values(a, b, &q, &r);
    return PyFloat_FromDouble(q);
}

static PyObject *
float_divmod(PyObject *v, PyObject *w)
{
    double a, b, q, r;
    CONVERT_OPERANDS(v, w, a, b);
    if (b == 0.0) {
        PyErr_SetString(PyExc_ZeroDivisionError, DIV_ZERO_MSG);
        return NULL;
    }
    float_divmod_values(a, b, &q, &r);
    PyObject *t = PyTuple_New(2);
    if (t == NULL) {
        return NULL;
    }
    PyObject *qo = PyFloat_FromDouble(q), *ro = PyFloat_FromDouble(r);
    if (qo == NULL || ro == NULL) {
        Py_XDECREF(qo);
        Py_XDECREF(ro);
        Py_DECREF(t);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, qo);
    PyTuple_SET_ITEM(t, 1, ro);
    return t;
}

static int
is_odd_integer(double w)
{
    return fmod(fabs(w), 2.0) == 1.0;
}

/* x ** y for the cases C's pow() and Python disagree on, or where Python
   raises.  Returns 1 with *res set when handled. */
static int
pow_special(double x, double y, double *res)
{
    if (y == 0.0) {
        *res = 1.0;          /* even for NaN x */
        return 1;
    }
    if (isnan(x)) {
        *res = x;
        return 1;
    }
    if (isnan(y)) {
        *res = x == 1.0 ? 1.0 : y;
        return 1;
    }
    if (isinf(y)) {
        double ax = fabs(x);
        if (ax == 1.0) {
            *res = 1.0;
        }
        else if ((y > 0) == (ax > 1.0)) {
            *res = HUGE_VAL;
        }
        else {
            *res = 0.0;
        }
        return 1;
    }
    if (isinf(x)) {
        int odd = is_odd_integer(y);
        if (y > 0) {
            *res = odd ? x : fabs(x);
        }
        else {
            *res = odd ? copysign(0.0, x) : 0.0;
        }
        return 1;
    }
    return 0;
}

static PyObject *
float_pow(PyObject *v, PyObject *w, PyObject *z)
{
    double x, y, res;
    if (z != Py_None) {
        PyErr_SetString(PyExc_TypeError,
                        "pow() 3rd argument not allowed unless all arguments are integers");
        return NULL;
    }
    CONVERT_OPERANDS(v, w, x, y);
    if (pow_special(x, y, &res)) {
        return PyFloat_FromDouble(res);
    }
    if (x == 0.0) {
        if (y < 0.0) {
            PyErr_SetString(PyExc_ZeroDivisionError, ZERO_POW_MSG);
            return NULL;
        }
        /* an odd integer power keeps the sign of zero */
        return PyFloat_FromDouble(is_odd_integer(y) ? x : 0.0);
    }
    if (x < 0.0 && y != floor(y)) {
        /* a negative base to a fractional power is complex */
        return PyComplex_Type.tp_as_number->nb_power(v, w, z);
    }
    if (x == 1.0) {
        return PyFloat_FromDouble(1.0);
    }
    errno = 0;
    res = pow(x, y);
    if (isinf(res)) {
        errno = ERANGE;
        return PyErr_SetFromErrno(PyExc_OverflowError);
    }
    return PyFloat_FromDouble(res);
}

PyObject *
_PyFloat_Pow(PyObject *v, PyObject *w)
{
    return float_pow(v, w, Py_None);
}

static PyObject *
float_neg(PyObject *v)
{
    return PyFloat_FromDouble(-PyFloat_AS_DOUBLE(v));
}

static PyObject *
float_abs(PyObject *v)
{
    return PyFloat_FromDouble(fabs(PyFloat_AS_DOUBLE(v)));
}

static int
float_bool(PyObject *v)
{
    return PyFloat_AS_DOUBLE(v) != 0.0;
}

static PyObject *
float_float(PyObject *v)
{
    if (PyFloat_CheckExact(v)) {
        return Py_NewRef(v);
    }
    return PyFloat_FromDouble(PyFloat_AS_DOUBLE(v));
}

static PyObject *
float_trunc(PyObject *v, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromDouble(PyFloat_AS_DOUBLE(v));
}

static PyObject *
float_int(PyObject *v)
{
    return PyLong_FromDouble(PyFloat_AS_DOUBLE(v));
}

static PyObject *
float_floor(PyObject *v, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromDouble(floor(PyFloat_AS_DOUBLE(v)));
}

static PyObject *
float_ceil(PyObject *v, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromDouble(ceil(PyFloat_AS_DOUBLE(v)));
}

/* ---- round() ------------------------------------------------------------ */

static PyObject *float_as_integer_ratio(PyObject *self, PyObject *Py_UNUSED(ignored));

/* 10**k as an int, k >= 0 */
static PyObject *
int_pow10(Py_ssize_t k)
{
    PyObject *result = PyLong_FromLong(1), *base = PyLong_FromLong(10);
    while (k > 0 && result != NULL && base != NULL) {
        if (k & 1) {
            Py_SETREF(result, _PyLong_Multiply((PyLongObject *)result, (PyLongObject *)base));
        }
        k >>= 1;
        if (k > 0 && result != NULL) {
            Py_SETREF(base, _PyLong_Multiply((PyLongObject *)base, (PyLongObject *)base));
        }
    }
    Py_XDECREF(base);
    if (base == NULL) {
        Py_CLEAR(result);
    }
    return result;
}

/* Rounding to a negative number of digits: exactly, through ints.
   x = n / d with d a power of two; round(n / (d * 10**k)) * 10**k. */
static PyObject *
round_negative_digits(PyObject *self, Py_ssize_t ndigits)
{
    double x = PyFloat_AS_DOUBLE(self);
    PyObject *den = NULL, *qr = NULL, *scaled = NULL, *result = NULL;
    PyObject *ratio = float_as_integer_ratio(self, NULL);
    if (ratio == NULL) {
        return NULL;
    }
    PyObject *pw = int_pow10(-ndigits);
    if (pw == NULL) {
        goto done;
    }
    den = _PyLong_Multiply((PyLongObject *)PyTuple_GET_ITEM(ratio, 1), (PyLongObject *)pw);
    if (den == NULL) {
        goto done;
    }
    qr = _PyLong_DivmodNear(PyTuple_GET_ITEM(ratio, 0), den);
    if (qr == NULL) {
        goto done;
    }
    scaled = _PyLong_Multiply((PyLongObject *)PyTuple_GET_ITEM(qr, 0), (PyLongObject *)pw);
    if (scaled == NULL) {
        goto done;
    }
    double r = PyLong_AsDouble(scaled);
    if (r == -1.0 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_SetString(PyExc_OverflowError, "rounded value too large to represent");
        }
        goto done;
    }
    result = PyFloat_FromDouble(r == 0.0 ? copysign(0.0, x) : r);
done:
    Py_DECREF(ratio);
    Py_XDECREF(pw);
    Py_XDECREF(den);
    Py_XDECREF(qr);
    Py_XDECREF(scaled);
    return result;
}

/* Rounding to ndigits >= 0: the exact decimal expansion, correctly
   rounded by snprintf (ties to even on the exact binary value), read
   back with correct rounding. */
static PyObject *
round_nonnegative_digits(double x, Py_ssize_t ndigits)
{
    char *s = PyOS_double_to_string(x, 'f', (int)ndigits, 0, NULL);
    if (s == NULL) {
        return NULL;
    }
    double r = PyOS_string_to_double(s, NULL, NULL);
    PyMem_Free(s);
    if (r == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    return PyFloat_FromDouble(r);
}

/* The limits beyond which rounding cannot change a double: no double has
   nonzero digits past about 323 decimal places, or reaches 10**309. */
#define NDIGITS_MAX 323
#define NDIGITS_MIN (-308)

static PyObject *
float_round(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("__round__", nargs, 0, 1)) {
        return NULL;
    }
    double x = PyFloat_AS_DOUBLE(self);
    if (nargs == 0 || args[0] == Py_None) {
        /* to an int, ties to even */
        double r = round(x);
        if (fabs(x - r) == 0.5) {
            r = 2.0 * round(x / 2.0);
        }
        return PyLong_FromDouble(r);
    }
    Py_ssize_t ndigits = PyNumber_AsSsize_t(args[0], NULL);
    if (ndigits == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (!isfinite(x) || x == 0.0 || ndigits > NDIGITS_MAX) {
        return PyFloat_FromDouble(x);
    }
    if (ndigits < NDIGITS_MIN) {
        return PyFloat_FromDouble(0.0 * x);
    }
    if (ndigits >= 0) {
        return round_nonnegative_digits(x, ndigits);
    }
    return round_negative_digits(self, ndigits);
}

/* ---- Other methods ------------------------------------------------------ */

static PyObject *
float_is_integer(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    double x = PyFloat_AS_DOUBLE(self);
    return PyBool_FromLong(isfinite(x) && floor(x) == x);
}

static PyObject *
float_as_integer_ratio(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    double x = PyFloat_AS_DOUBLE(self);
    if (isinf(x)) {
        PyErr_SetString(PyExc_OverflowError, "cannot convert Infinity to integer ratio");
        return NULL;
    }
    if (isnan(x)) {
        PyErr_SetString(PyExc_ValueError, "cannot convert NaN to integer ratio");
        return NULL;
    }
    int e;
    double m = frexp(x, &e);
    /* scale the mantissa up until it is an integer (at most 53 steps) */
    while (m != floor(m)) {
        m *= 2.0;
        e--;
    }
    PyObject *num = PyLong_FromDouble(m), *den = NULL, *result = NULL;
    if (num == NULL) {
        return NULL;
    }
    den = PyLong_FromLong(1);
    if (e > 0) {
        Py_SETREF(num, _PyLong_Lshift(num, e));
    }
    else if (e < 0) {
        Py_SETREF(den, _PyLong_Lshift(den, -e));
    }
    if (num != NULL && den != NULL) {
        result = PyTuple_Pack(2, num, den);
    }
    Py_XDECREF(num);
    Py_XDECREF(den);
    return result;
}

static PyObject *
float_conjugate(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return float_float(self);
}

static PyObject *
float_hex(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    double x = PyFloat_AS_DOUBLE(self);
    if (isnan(x) || isinf(x)) {
        return float_repr(self);
    }
    if (x == 0.0) {
        return PyUnicode_FromString(signbit(x) ? "-0x0.0p+0" : "0x0.0p+0");
    }
    uint64_t bits;
    memcpy(&bits, &x, sizeof(bits));
    int biased = (int)((bits >> 52) & 0x7FF);
    uint64_t frac = bits & (((uint64_t)1 << 52) - 1);
    int lead = biased != 0;
    int exp = biased != 0 ? biased - 1023 : -1022;
    char buf[40];
    snprintf(buf, sizeof(buf), "%s0x%d.%013llxp%+d", signbit(x) ? "-" : "", lead,
             (unsigned long long)frac, exp);
    return PyUnicode_FromString(buf);
}

static inline int
hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = (char)(c | 0x20);
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

/* Validate Python's hex float syntax and rebuild it for strtod. */
static int
parse_hex_float(const char *s, Py_ssize_t len, double *out)
{
    Py_ssize_t i = 0;
    while (i < len && is_space(s[i])) {
        i++;
    }
    while (len > i && is_space(s[len - 1])) {
        len--;
    }
    const char *t = s + i;
    Py_ssize_t n = len - i;
    double special;
    if (n > 0 && _PyOS_ScanFloat(t, n, &special) == n &&
        (isinf(special) || isnan(special))) {
        *out = special;
        return 0;
    }
    Py_ssize_t j = 0;
    if (j < n && (t[j] == '+' || t[j] == '-')) {
        j++;
    }
    Py_ssize_t sign_end = j;
    if (n - j >= 2 && t[j] == '0' && (t[j + 1] | 0x20) == 'x') {
        j += 2;
    }
    Py_ssize_t mant_start = j, hexdigits = 0;
    while (j < n && hex_value(t[j]) >= 0) {
        j++;
        hexdigits++;
    }
    if (j < n && t[j] == '.') {
        j++;
        while (j < n && hex_value(t[j]) >= 0) {
            j++;
            hexdigits++;
        }
    }
    if (hexdigits == 0) {
        return -1;
    }
    Py_ssize_t mant_end = j;
    Py_ssize_t exp_start = j, exp_end = j;
    if (j < n && (t[j] | 0x20) == 'p') {
        j++;
        exp_start = j;
        if (j < n && (t[j] == '+' || t[j] == '-')) {
            j++;
        }
        Py_ssize_t d0 = j;
        while (j < n && t[j] >= '0' && t[j] <= '9') {
            j++;
        }
        if (j == d0) {
            return -1;
        }
        exp_end = j;
    }
    if (j != n) {
        return -1;
    }
    /* "<sign>0x<mantissa>p<exponent>" for strtod */
    size_t cap = (size_t)(n + 8);
    char *buf = PyMem_Malloc(cap);
    if (buf == NULL) {
        PyErr_NoMemory();
        return -2;
    }
    size_t k = 0;
    memcpy(buf, t, (size_t)sign_end);
    k += (size_t)sign_end;
    buf[k++] = '0';
    buf[k++] = 'x';
    memcpy(buf + k, t + mant_start, (size_t)(mant_end - mant_start));
    k += (size_t)(mant_end - mant_start);
    buf[k++] = 'p';
    if (exp_end > exp_start) {
        memcpy(buf + k, t + exp_start, (size_t)(exp_end - exp_start));
        k += (size_t)(exp_end - exp_start);
    }
    else {
        buf[k++] = '0';
    }
    buf[k] = '\0';
    errno = 0;
    *out = _PyOS_ascii_strtod(buf, NULL);
    int overflow = errno == ERANGE && isinf(*out);
    PyMem_Free(buf);
    if (overflow) {
        PyErr_SetString(PyExc_OverflowError,
                        "hexadecimal value too large to represent as a float");
        return -2;
    }
    return 0;
}

static PyObject *
float_fromhex(PyObject *type, PyObject *string)
{
    if (!PyUnicode_Check(string)) {
        PyErr_SetString(PyExc_TypeError, "bad argument type for built-in operation");
        return NULL;
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(string, &len);
    if (s == NULL) {
        return NULL;
    }
    double x;
    int rc = parse_hex_float(s, len, &x);
    if (rc == -1) {
        PyErr_SetString(PyExc_ValueError, "invalid hexadecimal floating-point string");
    }
    if (rc < 0) {
        return NULL;
    }
    PyObject *result = PyFloat_FromDouble(x);
    if (result != NULL && (PyTypeObject *)type != &PyFloat_Type) {
        Py_SETREF(result, PyObject_CallOneArg(type, result));
    }
    return result;
}

static PyObject *
float_from_number(PyObject *type, PyObject *number)
{
    if (PyUnicode_Check(number) || PyBytes_Check(number) || PyByteArray_Check(number)) {
        PyErr_Format(PyExc_TypeError, "must be real number, not %.50s", Py_TYPE(number)->tp_name);
        return NULL;
    }
    double x = PyFloat_AsDouble(number);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *result = PyFloat_FromDouble(x);
    if (result != NULL && (PyTypeObject *)type != &PyFloat_Type) {
        Py_SETREF(result, PyObject_CallOneArg(type, result));
    }
    return result;
}

static PyObject *
float_getnewargs(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *v = PyFloat_FromDouble(PyFloat_AS_DOUBLE(self));
    if (v == NULL) {
        return NULL;
    }
    PyObject *r = PyTuple_Pack(1, v);
    Py_DECREF(v);
    return r;
}

static PyObject *
float_getformat(PyObject *type, PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "__getformat__() argument must be str, not %.50s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    if (!_PyUnicode_EqualToASCIIString(arg, "double") &&
        !_PyUnicode_EqualToASCIIString(arg, "float")) {
        PyErr_SetString(PyExc_ValueError,
                        "__getformat__() argument 1 must be 'double' or 'float'");
        return NULL;
    }
    const uint16_t probe = 1;
    return PyUnicode_FromString(*(const unsigned char *)&probe == 1 ? "IEEE, little-endian"
                                                                    : "IEEE, big-endian");
}

static PyObject *
float_format(PyObject *self, PyObject *spec)
{
    if (!PyUnicode_Check(spec)) {
        PyErr_Format(PyExc_TypeError, "__format__() argument must be str, not %.200s",
                     Py_TYPE(spec)->tp_name);
        return NULL;
    }
    return _PyFloat_FormatAdvanced(self, spec, 0, PyUnicode_GET_LENGTH(spec));
}

static PyObject *
float_get_real(PyObject *self, void *Py_UNUSED(closure))
{
    return float_float(self);
}

static PyObject *
float_get_imag(PyObject *self, void *Py_UNUSED(closure))
{
    return PyFloat_FromDouble(0.0);
}

static PyMethodDef float_methods[] = {
    {"conjugate", float_conjugate, METH_NOARGS, "A float is its own complex conjugate."},
    {"__trunc__", float_trunc, METH_NOARGS, "The int part of the float, rounded towards zero."},
    {"__floor__", float_floor, METH_NOARGS, "The largest int <= self."},
    {"__ceil__", float_ceil, METH_NOARGS, "The smallest int >= self."},
    {"__round__", _PyCFunction_CAST(float_round), METH_FASTCALL,
     "round(self): the nearest int, ties to even; round(self, ndigits): the\n"
     "float nearest to self rounded to ndigits decimal places."},
    {"as_integer_ratio", float_as_integer_ratio, METH_NOARGS,
     "(numerator, denominator): ints whose ratio is exactly self, in lowest terms."},
    {"fromhex", float_fromhex, METH_O | METH_CLASS,
     "The float a hexadecimal string such as '0x1.8p+3' describes."},
    {"from_number", float_from_number, METH_O | METH_CLASS,
     "float(number) for real numbers only (no strings)."},
    {"hex", float_hex, METH_NOARGS,
     "The float in hexadecimal, e.g. '0x1.8000000000000p+3'; exact."},
    {"is_integer", float_is_integer, METH_NOARGS,
     "True for finite floats without a fractional part."},
    {"__getnewargs__", float_getnewargs, METH_NOARGS, NULL},
    {"__getformat__", float_getformat, METH_O | METH_CLASS,
     "The storage format of C doubles ('double' or 'float'): for tests."},
    {"__format__", float_format, METH_O,
     "format(self, format_spec) for the standard format spec."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef float_getset[] = {
    {"real", float_get_real, NULL, "the float itself", NULL},
    {"imag", float_get_imag, NULL, "0.0: a float has no imaginary part", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyNumberMethods float_as_number = {
    .nb_add = float_add,
    .nb_subtract = float_sub,
    .nb_multiply = float_mul,
    .nb_remainder = float_rem,
    .nb_divmod = float_divmod,
    .nb_power = float_pow,
    .nb_negative = float_neg,
    .nb_positive = float_float,
    .nb_absolute = float_abs,
    .nb_bool = float_bool,
    .nb_int = float_int,
    .nb_float = float_float,
    .nb_floor_divide = float_floor_div,
    .nb_true_divide = float_div,
};

PyTypeObject PyFloat_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "float",
    .tp_basicsize = sizeof(PyFloatObject),
    .tp_dealloc = float_dealloc,
    .tp_repr = float_repr,
    .tp_as_number = &float_as_number,
    .tp_hash = float_hash,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    .tp_doc = "float(x=0, /)\n--\n\n"
              "A double-precision floating-point number made from a number or from text.",
    .tp_richcompare = float_richcompare,
    .tp_methods = float_methods,
    .tp_getset = float_getset,
    .tp_new = float_new,
    .tp_free = PyObject_Free,
    .tp_vectorcall = float_vectorcall,
};

/* ---- Module-level helpers ------------------------------------------------------------------ */

double
PyFloat_GetMax(void)
{
    return DBL_MAX;
}

double
PyFloat_GetMin(void)
{
    return DBL_MIN;
}

/* PyFloat_GetInfo (sys.float_info) is in Python/sysinfo.c with the other sys tables. */

/* ---- IEEE packing ------------------------------------------------------- */

static void
store_bytes(uint64_t bits, int nbytes, char *p, int le)
{
    for (int i = 0; i < nbytes; i++) {
        unsigned char b = (unsigned char)(bits >> (8 * i));
        p[le ? i : nbytes - 1 - i] = (char)b;
    }
}

static uint64_t
load_bytes(const char *p, int nbytes, int le)
{
    uint64_t bits = 0;
    for (int i = 0; i < nbytes; i++) {
        unsigned char b = (unsigned char)p[le ? i : nbytes - 1 - i];
        bits |= (uint64_t)b << (8 * i);
    }
    return bits;
}

int
PyFloat_Pack8(double x, char *p, int le)
{
    uint64_t bits;
    memcpy(&bits, &x, 8);
    store_bytes(bits, 8, p, le);
    return 0;
}

double
PyFloat_Unpack8(const char *p, int le)
{
    uint64_t bits = load_bytes(p, 8, le);
    double x;
    memcpy(&x, &bits, 8);
    return x;
}

int
PyFloat_Pack4(double x, char *p, int le)
{
    float y = (float)x;
    if (isinf(y) && !isinf(x)) {
        PyErr_SetString(PyExc_OverflowError, "float too large to pack with f format");
        return -1;
    }
    uint32_t bits;
    memcpy(&bits, &y, 4);
    if (isnan(x)) {
        /* keep the sign and the quiet bit of NaNs */
        bits = (signbit(x) ? 0x80000000u : 0u) | 0x7fc00000u;
    }
    store_bytes(bits, 4, p, le);
    return 0;
}

double
PyFloat_Unpack4(const char *p, int le)
{
    uint32_t bits = (uint32_t)load_bytes(p, 4, le);
    float y;
    memcpy(&y, &bits, 4);
    return (double)y;
}

/* binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits;
   round to nearest, ties to even. */
int
PyFloat_Pack2(double x, char *p, int le)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    uint16_t bits;
    double ax = fabs(x);
    if (isnan(x)) {
        bits = sign | 0x7e00;
    }
    else if (isinf(x)) {
        bits = sign | 0x7c00;
    }
    else if (ax == 0.0) {
        bits = sign;
    }
    else {
        int e;
        double m = frexp(ax, &e);   /* ax = m * 2**e, 0.5 <= m < 1 */
        if (e < -13) {
            /* subnormal (or zero): units of 2**-24 */
            double units = ldexp(ax, 24);
            double r = nearbyint(units);
            bits = sign | (uint16_t)r;   /* r == 1024 becomes the smallest normal */
        }
        else {
            double frac = ldexp(m, 11);    /* 1024 <= frac < 2048 */
            double r = nearbyint(frac);
            if (r == 2048.0) {
                r = 1024.0;
                e++;
            }
            int biased = e - 1 + 15;
            if (biased >= 31) {
                PyErr_SetString(PyExc_OverflowError, "float too large to pack with e format");
                return -1;
            }
            bits = sign | (uint16_t)(biased << 10) | (uint16_t)((uint32_t)r - 1024);
        }
    }
    store_bytes(bits, 2, p, le);
    return 0;
}

double
PyFloat_Unpack2(const char *p, int le)
{
    uint16_t bits = (uint16_t)load_bytes(p, 2, le);
    int sign = bits >> 15;
    int e = (bits >> 10) & 0x1f;
    int f = bits & 0x3ff;
    double x;
    if (e == 0x1f) {
        x = f ? (double)NAN : HUGE_VAL;
    }
    else if (e == 0) {
        x = ldexp((double)f, -24);
    }
    else {
        x = ldexp((double)(f + 1024), e - 25);
    }
    return sign ? -x : x;
}
