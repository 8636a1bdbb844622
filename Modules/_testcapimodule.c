/* _testcapi: the part of CPython's C-API test module that CPython's own
   tests reach for as a plain fact about the build: the C limits of the
   platform's integer and floating types and a few sizes (tests size their
   boundary cases with them, e.g. `from _testcapi import INT_MAX`).

   It is built against the public API only, like a third-party extension.
   The C-API exercisers of CPython's module (the hundreds of test_* helper
   functions) are not here: tests that need them fail on AttributeError, as
   a missing feature should. */

#include "Python.h"
#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <wchar.h>

/* Each limit becomes an int object named after its C macro. */
typedef enum { LIM_SIGNED, LIM_UNSIGNED, LIM_DOUBLE } limit_kind;

typedef struct {
    const char *name;
    limit_kind kind;
    long long s;
    unsigned long long u;
    double d;
} limit_entry;

#define SLIM(NAME) {#NAME, LIM_SIGNED, (long long)(NAME), 0, 0.0}
#define ULIM(NAME) {#NAME, LIM_UNSIGNED, 0, (unsigned long long)(NAME), 0.0}
#define DLIM(NAME) {#NAME, LIM_DOUBLE, 0, 0, (double)(NAME)}

static const limit_entry c_limits[] = {
    SLIM(CHAR_MAX), SLIM(CHAR_MIN), ULIM(UCHAR_MAX),
    SLIM(SHRT_MAX), SLIM(SHRT_MIN), ULIM(USHRT_MAX),
    SLIM(INT_MAX), SLIM(INT_MIN), ULIM(UINT_MAX),
    SLIM(LONG_MAX), SLIM(LONG_MIN), ULIM(ULONG_MAX),
    SLIM(LLONG_MAX), SLIM(LLONG_MIN), ULIM(ULLONG_MAX),
    SLIM(PY_SSIZE_T_MAX), SLIM(PY_SSIZE_T_MIN), ULIM(SIZE_MAX),
    DLIM(FLT_MAX), DLIM(FLT_MIN), DLIM(DBL_MAX), DLIM(DBL_MIN),
    {"SIZEOF_VOID_P", LIM_SIGNED, (long long)sizeof(void *), 0, 0.0},
    {"SIZEOF_TIME_T", LIM_SIGNED, (long long)sizeof(time_t), 0, 0.0},
    {"SIZEOF_WCHAR_T", LIM_SIGNED, (long long)sizeof(wchar_t), 0, 0.0},
    {"SIZEOF_PID_T", LIM_SIGNED, (long long)sizeof(pid_t), 0, 0.0},
};

static PyObject *
limit_value(const limit_entry *e)
{
    switch (e->kind) {
    case LIM_SIGNED:
        return PyLong_FromLongLong(e->s);
    case LIM_UNSIGNED:
        return PyLong_FromUnsignedLongLong(e->u);
    default:
        return PyFloat_FromDouble(e->d);
    }
}

static int
testcapi_exec(PyObject *m)
{
    size_t n = sizeof(c_limits) / sizeof(c_limits[0]);
    for (size_t i = 0; i < n; i++) {
        PyObject *v = limit_value(&c_limits[i]);
        if (v == NULL || PyModule_Add(m, c_limits[i].name, v) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyModuleDef_Slot testcapi_slots[] = {
    {Py_mod_exec, testcapi_exec},
    {0, NULL},
};

static struct PyModuleDef testcapi_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_testcapi",
    .m_doc = "C limits of this build, for CPython's tests (a small part of CPython's _testcapi).",
    .m_size = 0,
    .m_slots = testcapi_slots,
};

PyMODINIT_FUNC
PyInit__testcapi(void)
{
    return PyModuleDef_Init(&testcapi_module);
}
