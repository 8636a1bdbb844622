/* cmath: mathematical functions on complex numbers.

   The functions are the C library's <complex.h> ones, whose branch cuts
   and special values follow C99 Annex G as Python's do.  Errors follow
   Python's rules: a NaN made from an input without NaNs is a domain error
   (ValueError), an infinity made from finite input is an overflow
   (OverflowError), or a domain error at the poles of log and atan(h). */

#include "Python.h"
#include "pycore_modsupport.h"
#include <complex.h>
#include <math.h>

typedef double complex (*cfunc)(double complex);

static PyObject *
math_error(int domain)
{
    PyErr_SetString(domain ? PyExc_ValueError : PyExc_OverflowError,
                    domain ? "math domain error" : "math range error");
    return NULL;
}

/* The argument as a C complex (anything with __complex__, __float__ or
   __index__). */
static int
complex_arg(PyObject *arg, double complex *out)
{
    Py_complex c = PyComplex_AsCComplex(arg);
    if (c.real == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    *out = CMPLX(c.real, c.imag);
    return 0;
}

static int
has_nan(double complex z)
{
    return isnan(creal(z)) || isnan(cimag(z));
}

static int
is_finite(double complex z)
{
    return isfinite(creal(z)) && isfinite(cimag(z));
}

/* 1 and an exception when f(z) = r breaks Python's rules; `pole` says an
   infinite result from finite input is a domain error. */
static int
check_result(double complex z, double complex r, int pole)
{
    if (has_nan(r) && !has_nan(z)) {
        math_error(1);
        return 1;
    }
    if (!is_finite(r) && !has_nan(r) && is_finite(z)) {
        math_error(pole);
        return 1;
    }
    return 0;
}

static PyObject *
from_c(double complex r)
{
    return PyComplex_FromDoubles(creal(r), cimag(r));
}

static PyObject *
apply(PyObject *arg, cfunc f, int pole)
{
    double complex z;
    if (complex_arg(arg, &z) < 0) {
        return NULL;
    }
    double complex r = f(z);
    return check_result(z, r, pole) ? NULL : from_c(r);
}

#define CFUNC(NAME, F, POLE)                                   \
    static PyObject *cmath_##NAME(PyObject *m, PyObject *arg)  \
    {                                                          \
        return apply(arg, F, POLE);                            \
    }

/* Where C99 leaves a sign or a value open, the C library may choose
   differently from Python; these wrappers settle those special values as
   Python does. */
static double complex
sinh_of(double complex z)
{
    if (creal(z) == 0.0 && isnan(cimag(z))) {
        return CMPLX(0.0, cimag(z));
    }
    return csinh(z);
}

static double complex
tanh_of(double complex z)
{
    double re = creal(z), im = cimag(z);
    if (isinf(re) && !isfinite(im)) {
        return CMPLX(copysign(1.0, re), 0.0);
    }
    if (re == 0.0 && isnan(im)) {
        return CMPLX(NAN, NAN);
    }
    return ctanh(z);
}

static double complex
asinh_of(double complex z)
{
    if (isnan(creal(z)) && isinf(cimag(z))) {
        return CMPLX(INFINITY, NAN);
    }
    return casinh(z);
}

static double complex
acos_of(double complex z)
{
    if (isinf(creal(z)) && isnan(cimag(z))) {
        return CMPLX(NAN, INFINITY);
    }
    return cacos(z);
}

static double complex
acosh_of(double complex z)
{
    if (isfinite(creal(z)) && isnan(cimag(z))) {
        return CMPLX(NAN, NAN);
    }
    return cacosh(z);
}

static double complex
atanh_of(double complex z)
{
    if (isnan(creal(z)) && isinf(cimag(z))) {
        return CMPLX(0.0, copysign(M_PI_2, cimag(z)));
    }
    return catanh(z);
}

/* The circular functions through the hyperbolic ones, as CPython derives
   them: f(z) = -i g(iz); this settles the signs C99 leaves open the same
   way. */
static double complex
through_i(double complex (*g)(double complex), double complex z)
{
    double complex w = g(CMPLX(-cimag(z), creal(z)));
    return CMPLX(cimag(w), -creal(w));
}

static double complex
sin_of(double complex z)
{
    return through_i(sinh_of, z);
}

static double complex
tan_of(double complex z)
{
    return through_i(tanh_of, z);
}

static double complex
asin_of(double complex z)
{
    return through_i(asinh_of, z);
}

static double complex
atan_of(double complex z)
{
    return through_i(atanh_of, z);
}

CFUNC(sqrt, csqrt, 0)
CFUNC(exp, cexp, 0)
CFUNC(sin, sin_of, 0)
CFUNC(cos, ccos, 0)
CFUNC(tan, tan_of, 0)
CFUNC(asin, asin_of, 0)
CFUNC(acos, acos_of, 0)
CFUNC(atan, atan_of, 1)
CFUNC(sinh, sinh_of, 0)
CFUNC(cosh, ccosh, 0)
CFUNC(tanh, tanh_of, 0)
CFUNC(asinh, asinh_of, 0)
CFUNC(acosh, acosh_of, 0)
CFUNC(atanh, atanh_of, 1)

static double complex
log10_of(double complex z)
{
    double complex l = clog(z);
    return CMPLX(creal(l) / M_LN10, cimag(l) / M_LN10);
}

CFUNC(log10, log10_of, 1)

/* log(z[, base]).  With a base, only a zero log(base) (base 1) or an
   error in log(base) itself is reported, as in CPython. */
static PyObject *
cmath_log(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("log", nargs, 1, 2)) {
        return NULL;
    }
    double complex z, base;
    if (complex_arg(args[0], &z) < 0) {
        return NULL;
    }
    double complex r = clog(z);
    if (nargs == 1) {
        return check_result(z, r, 1) ? NULL : from_c(r);
    }
    if (complex_arg(args[1], &base) < 0) {
        return NULL;
    }
    double complex lb = clog(base);
    if (creal(lb) == 0.0 && cimag(lb) == 0.0) {
        return math_error(1);
    }
    if (check_result(base, lb, 1)) {
        return NULL;
    }
    return from_c(r / lb);
}

static PyObject *
cmath_phase(PyObject *m, PyObject *arg)
{
    double complex z;
    if (complex_arg(arg, &z) < 0) {
        return NULL;
    }
    return PyFloat_FromDouble(atan2(cimag(z), creal(z)));
}

static PyObject *
cmath_polar(PyObject *m, PyObject *arg)
{
    double complex z;
    if (complex_arg(arg, &z) < 0) {
        return NULL;
    }
    double r = hypot(creal(z), cimag(z));
    if (isinf(r) && is_finite(z)) {
        return math_error(0);
    }
    return Py_BuildValue("(dd)", r, atan2(cimag(z), creal(z)));
}

/* r * (cos(phi) + i sin(phi)), with the special cases Python gives: a
   zero angle keeps the imaginary part a signed zero, and an infinite
   angle is a domain error unless r is 0 or NaN. */
static PyObject *
cmath_rect(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("rect", nargs, 2, 2)) {
        return NULL;
    }
    double r = PyFloat_AsDouble(args[0]);
    if (r == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    double phi = PyFloat_AsDouble(args[1]);
    if (phi == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    if (r == 0.0 && !isfinite(phi)) {
        return PyComplex_FromDoubles(r, r);
    }
    if (isnan(r)) {
        return PyComplex_FromDoubles(r, phi == 0.0 ? phi : r);
    }
    if (isinf(phi)) {
        return math_error(1);
    }
    if (isnan(phi)) {
        return PyComplex_FromDoubles(isinf(r) ? fabs(r) : phi, phi);
    }
    if (phi == 0.0) {
        return PyComplex_FromDoubles(r, signbit(r) ? -phi : phi);
    }
    return PyComplex_FromDoubles(r * cos(phi), r * sin(phi));
}

static PyObject *
classify(PyObject *arg, int which)
{
    double complex z;
    if (complex_arg(arg, &z) < 0) {
        return NULL;
    }
    double re = creal(z), im = cimag(z);
    int result = which == 0   ? (isnan(re) || isnan(im))
                 : which == 1 ? (isinf(re) || isinf(im))
                              : (isfinite(re) && isfinite(im));
    return PyBool_FromLong(result);
}

static PyObject *
cmath_isnan(PyObject *m, PyObject *arg)
{
    return classify(arg, 0);
}

static PyObject *
cmath_isinf(PyObject *m, PyObject *arg)
{
    return classify(arg, 1);
}

static PyObject *
cmath_isfinite(PyObject *m, PyObject *arg)
{
    return classify(arg, 2);
}

static PyObject *
cmath_isclose(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "", "rel_tol", "abs_tol", NULL};
    PyObject *a[4];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "isclose", kwlist, 2, 2, 0, a)) {
        return NULL;
    }
    double complex x, y;
    double rel_tol = 1e-09, abs_tol = 0.0;
    if (complex_arg(a[0], &x) < 0 || complex_arg(a[1], &y) < 0) {
        return NULL;
    }
    if ((a[2] != NULL && (rel_tol = PyFloat_AsDouble(a[2])) == -1.0 && PyErr_Occurred()) ||
        (a[3] != NULL && (abs_tol = PyFloat_AsDouble(a[3])) == -1.0 && PyErr_Occurred())) {
        return NULL;
    }
    if (rel_tol < 0.0 || abs_tol < 0.0) {
        PyErr_SetString(PyExc_ValueError, "tolerances must be non-negative");
        return NULL;
    }
    if (creal(x) == creal(y) && cimag(x) == cimag(y)) {
        Py_RETURN_TRUE;
    }
    if (!is_finite(x) || !is_finite(y)) {
        Py_RETURN_FALSE; /* infinities are close only to themselves */
    }
    double diff = cabs(y - x);
    return PyBool_FromLong(diff <= rel_tol * cabs(y) || diff <= rel_tol * cabs(x) ||
                           diff <= abs_tol);
}

static PyMethodDef cmath_methods[] = {
    {"sqrt", cmath_sqrt, METH_O, NULL},
    {"exp", cmath_exp, METH_O, NULL},
    {"log", _PyCFunction_CAST(cmath_log), METH_FASTCALL, NULL},
    {"log10", cmath_log10, METH_O, NULL},
    {"sin", cmath_sin, METH_O, NULL},
    {"cos", cmath_cos, METH_O, NULL},
    {"tan", cmath_tan, METH_O, NULL},
    {"asin", cmath_asin, METH_O, NULL},
    {"acos", cmath_acos, METH_O, NULL},
    {"atan", cmath_atan, METH_O, NULL},
    {"sinh", cmath_sinh, METH_O, NULL},
    {"cosh", cmath_cosh, METH_O, NULL},
    {"tanh", cmath_tanh, METH_O, NULL},
    {"asinh", cmath_asinh, METH_O, NULL},
    {"acosh", cmath_acosh, METH_O, NULL},
    {"atanh", cmath_atanh, METH_O, NULL},
    {"phase", cmath_phase, METH_O, NULL},
    {"polar", cmath_polar, METH_O, NULL},
    {"rect", _PyCFunction_CAST(cmath_rect), METH_FASTCALL, NULL},
    {"isnan", cmath_isnan, METH_O, NULL},
    {"isinf", cmath_isinf, METH_O, NULL},
    {"isfinite", cmath_isfinite, METH_O, NULL},
    {"isclose", _PyCFunction_CAST(cmath_isclose), METH_FASTCALL | METH_KEYWORDS, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef cmathmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cmath",
    .m_doc = "Mathematical functions on complex numbers.",
    .m_size = -1,
    .m_methods = cmath_methods,
};

PyObject *
PyInit_cmath(void)
{
    PyObject *m = PyModule_Create(&cmathmodule);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_Add(m, "pi", PyFloat_FromDouble(M_PI)) < 0 ||
        PyModule_Add(m, "e", PyFloat_FromDouble(M_E)) < 0 ||
        PyModule_Add(m, "tau", PyFloat_FromDouble(2.0 * M_PI)) < 0 ||
        PyModule_Add(m, "inf", PyFloat_FromDouble(INFINITY)) < 0 ||
        PyModule_Add(m, "infj", PyComplex_FromDoubles(0.0, INFINITY)) < 0 ||
        PyModule_Add(m, "nan", PyFloat_FromDouble(NAN)) < 0 ||
        PyModule_Add(m, "nanj", PyComplex_FromDoubles(0.0, NAN)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
