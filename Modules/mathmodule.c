/* The math module: the C library's functions on floats, with Python's
   error rules (ValueError for a domain error, OverflowError for a result
   too large), plus the integer functions. */

#include "Python.h"
#include "pycore_long.h"
#include <math.h>
#include <float.h>

/* Run f(x); classify the result the way CPython's math module does. */
static PyObject *
math_1(PyObject *arg, double (*f)(double), int can_overflow)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    errno = 0;
    double r = f(x);
    if (isnan(r) && !isnan(x)) {
        PyErr_SetString(PyExc_ValueError, "math domain error");
        return NULL;
    }
    if (isinf(r) && isfinite(x)) {
        if (can_overflow) {
            PyErr_SetString(PyExc_OverflowError, "math range error");
        }
        else {
            PyErr_SetString(PyExc_ValueError, "math domain error");
        }
        return NULL;
    }
    return PyFloat_FromDouble(r);
}

#define MATH_FUNC1(NAME, CFUNC, OVERFLOWS)                    \
    static PyObject *math_##NAME(PyObject *m, PyObject *arg)  \
    {                                                         \
        return math_1(arg, CFUNC, OVERFLOWS);                 \
    }

MATH_FUNC1(sqrt, sqrt, 0)
MATH_FUNC1(exp, exp, 1)
MATH_FUNC1(sin, sin, 0)
MATH_FUNC1(cos, cos, 0)
MATH_FUNC1(tan, tan, 0)
MATH_FUNC1(asin, asin, 0)
MATH_FUNC1(acos, acos, 0)
MATH_FUNC1(atan, atan, 0)
MATH_FUNC1(sinh, sinh, 1)
MATH_FUNC1(cosh, cosh, 1)
MATH_FUNC1(tanh, tanh, 0)
MATH_FUNC1(fabs, fabs, 0)
MATH_FUNC1(log2, log2, 0)
MATH_FUNC1(log10, log10, 0)

/* floor/ceil/trunc: the type's __floor__ etc. for non-floats, else an int
   from the rounded float. */
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

static PyObject *
math_log(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("log", nargs, 1, 2)) {
        return NULL;
    }
    double x;
    if (PyLong_Check(args[0]) && _PyLong_Sign(args[0]) > 0) {
        /* Big ints: log of the mantissa plus exponent * log(2). */
        int64_t bits = _PyLong_NumBits(args[0]);
        if (bits > 1000) {
            PyObject *shift = PyLong_FromLongLong(bits - 60);
            PyObject *top = shift ? PyNumber_Rshift(args[0], shift) : NULL;
            Py_XDECREF(shift);
            if (top == NULL) {
                return NULL;
            }
            x = log(PyLong_AsDouble(top)) + (double)(bits - 60) * log(2.0);
            Py_DECREF(top);
            goto have_log;
        }
    }
    x = PyFloat_AsDouble(args[0]);
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    if (x <= 0) {
        PyErr_SetString(PyExc_ValueError, "math domain error");
        return NULL;
    }
    x = log(x);
have_log:
    if (nargs == 2) {
        double base = PyFloat_AsDouble(args[1]);
        if (base == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
        if (base <= 0) {
            PyErr_SetString(PyExc_ValueError, "math domain error");
            return NULL;
        }
        double lb = log(base);
        if (lb == 0.0) {
            PyErr_SetString(PyExc_ZeroDivisionError, "division by zero");
            return NULL;
        }
        x /= lb;
    }
    return PyFloat_FromDouble(x);
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
    if (x == 0.0 && y < 0.0) {
        PyErr_SetString(PyExc_ValueError, "math domain error");
        return NULL;
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
    if (y == 0.0 && !isnan(x)) {
        PyErr_SetString(PyExc_ValueError, "math domain error");
        return NULL;
    }
    return PyFloat_FromDouble(fmod(x, y));
}

static PyObject *
math_hypot(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    double acc = 0.0;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        double v = PyFloat_AsDouble(args[i]);
        if (v == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
        acc = hypot(acc, v);
    }
    return PyFloat_FromDouble(acc);
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
math_factorial(PyObject *m, PyObject *arg)
{
    if (PyFloat_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "'float' object cannot be interpreted as an integer");
        return NULL;
    }
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "factorial() not defined for negative values");
        return NULL;
    }
    PyObject *res = PyLong_FromLong(1);
    for (long i = 2; res != NULL && i <= n; i++) {
        PyObject *k = PyLong_FromLong(i);
        if (k == NULL) {
            Py_CLEAR(res);
            break;
        }
        Py_SETREF(res, PyNumber_Multiply(res, k));
        Py_DECREF(k);
    }
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

static PyObject *
math_fsum(PyObject *m, PyObject *seq)
{
    /* Neumaier compensated summation (CPython's is exact; this is the
       same as sum() of floats and exact in all common cases). */
    PyObject *it = PyObject_GetIter(seq);
    if (it == NULL) {
        return NULL;
    }
    double f = 0.0, c = 0.0;
    PyObject *item;
    while ((item = PyIter_Next(it)) != NULL) {
        double x = PyFloat_AsDouble(item);
        Py_DECREF(item);
        if (x == -1.0 && PyErr_Occurred()) {
            Py_DECREF(it);
            return NULL;
        }
        double t = f + x;
        c += fabs(f) >= fabs(x) ? (f - t) + x : (x - t) + f;
        f = t;
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        return NULL;
    }
    return PyFloat_FromDouble(isfinite(c) ? f + c : f);
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
    {"exp", math_exp, METH_O, NULL},
    {"sin", math_sin, METH_O, NULL},
    {"cos", math_cos, METH_O, NULL},
    {"tan", math_tan, METH_O, NULL},
    {"asin", math_asin, METH_O, NULL},
    {"acos", math_acos, METH_O, NULL},
    {"atan", math_atan, METH_O, NULL},
    {"sinh", math_sinh, METH_O, NULL},
    {"cosh", math_cosh, METH_O, NULL},
    {"tanh", math_tanh, METH_O, NULL},
    {"fabs", math_fabs, METH_O, NULL},
    {"log2", math_log2, METH_O, NULL},
    {"log10", math_log10, METH_O, NULL},
    {"floor", math_floor, METH_O, NULL},
    {"ceil", math_ceil, METH_O, NULL},
    {"trunc", math_trunc, METH_O, NULL},
    {"log", _PyCFunction_CAST(math_log), METH_FASTCALL, NULL},
    {"pow", _PyCFunction_CAST(math_pow), METH_FASTCALL, NULL},
    {"atan2", _PyCFunction_CAST(math_atan2), METH_FASTCALL, NULL},
    {"copysign", _PyCFunction_CAST(math_copysign), METH_FASTCALL, NULL},
    {"fmod", _PyCFunction_CAST(math_fmod), METH_FASTCALL, NULL},
    {"hypot", _PyCFunction_CAST(math_hypot), METH_FASTCALL, NULL},
    {"degrees", math_degrees, METH_O, NULL},
    {"radians", math_radians, METH_O, NULL},
    {"isnan", math_isnan, METH_O, NULL},
    {"isinf", math_isinf, METH_O, NULL},
    {"isfinite", math_isfinite, METH_O, NULL},
    {"isclose", _PyCFunction_CAST(math_isclose), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"gcd", _PyCFunction_CAST(math_gcd), METH_FASTCALL, NULL},
    {"factorial", math_factorial, METH_O, NULL},
    {"isqrt", math_isqrt, METH_O, NULL},
    {"prod", _PyCFunction_CAST(math_prod), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"fsum", math_fsum, METH_O, NULL},
    {"modf", math_modf, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef mathmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "math",
    .m_doc = "Mathematical functions (a first subset).",
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
