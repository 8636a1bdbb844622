/* The _decimal module: the object decimal.py re-exports with
   `from _decimal import *`.  The types and signals live in their own files;
   this one adds the constants and the pieces written in Python terms
   (DecimalTuple, the numbers.Number registration). */

#include "decimal.h"

PyObject *_PyDec_DecimalTuple;

static int
add_limits(PyObject *m)
{
    static const struct {
        const char *name;
        long long value;
    } limits[] = {
        {"MAX_PREC", MPD_MAX_PREC},
        {"MAX_EMAX", MPD_MAX_EMAX},
        {"MIN_EMIN", MPD_MIN_EMIN},
        {"MIN_ETINY", MPD_MIN_ETINY},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(limits); i++) {
        PyObject *v = PyLong_FromLongLong(limits[i].value);
        if (v == NULL || PyModule_Add(m, limits[i].name, v) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
add_rounding_names(PyObject *m)
{
    static const char *const names[] = {
        "ROUND_UP", "ROUND_DOWN", "ROUND_CEILING", "ROUND_FLOOR",
        "ROUND_HALF_UP", "ROUND_HALF_DOWN", "ROUND_HALF_EVEN", "ROUND_05UP",
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(names); i++) {
        PyObject *v = PyUnicode_InternFromString(names[i]);
        if (v == NULL || PyModule_Add(m, names[i], v) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
add_python_parts(PyObject *m)
{
    if (_PyDec_DecimalTuple == NULL) {
        PyObject *collections = PyImport_ImportModule("collections");
        if (collections == NULL) {
            return -1;
        }
        PyObject *factory = PyObject_GetAttrString(collections, "namedtuple");
        Py_DECREF(collections);
        if (factory == NULL) {
            return -1;
        }
        PyObject *args = Py_BuildValue("(ss)", "DecimalTuple", "sign digits exponent");
        PyObject *kwargs = Py_BuildValue("{ss}", "module", "decimal");
        if (args != NULL && kwargs != NULL) {
            _PyDec_DecimalTuple = PyObject_Call(factory, args, kwargs);
        }
        Py_XDECREF(args);
        Py_XDECREF(kwargs);
        Py_DECREF(factory);
        if (_PyDec_DecimalTuple == NULL) {
            return -1;
        }
        /* Decimal is a numbers.Number (but not a Real: it does not mix
           freely with floats). */
        PyObject *numbers = PyImport_ImportModule("numbers");
        if (numbers == NULL) {
            return -1;
        }
        PyObject *number = PyObject_GetAttrString(numbers, "Number");
        Py_DECREF(numbers);
        if (number == NULL) {
            return -1;
        }
        PyObject *registered = PyObject_CallMethod(number, "register", "O", (PyObject *)&_PyDec_Type);
        Py_DECREF(number);
        if (registered == NULL) {
            return -1;
        }
        Py_DECREF(registered);
    }
    return PyModule_AddObjectRef(m, "DecimalTuple", _PyDec_DecimalTuple);
}

static PyObject *state_owner;   /* the module the statics were made for */

static int
init_module(PyObject *m)
{
    if (_PyDecType_Init(m) < 0 || _PyDecSignals_Init(m) < 0
        || _PyDecContext_Init(m) < 0 || add_limits(m) < 0
        || add_rounding_names(m) < 0 || add_python_parts(m) < 0) {
        return -1;
    }
    if (PyModule_AddObjectRef(m, "HAVE_THREADS", Py_True) < 0
        || PyModule_AddObjectRef(m, "HAVE_CONTEXTVAR", Py_True) < 0
        || PyModule_AddStringConstant(m, "__version__", "1.70") < 0
        || PyModule_AddStringConstant(m, "__libmpdec_version__", mpd_version()) < 0) {
        return -1;
    }
    if (state_owner == NULL) {
        state_owner = m;
    }
    return 0;
}

/* Release the shared objects when their module goes away at finalization. */
static void
decimal_module_free(void *m)
{
    if (m != state_owner) {
        return;
    }
    Py_CLEAR(_PyDec_DecimalTuple);
    _PyDecContext_Fini();
    _PyDecSignals_Fini();
    state_owner = NULL;
}

static struct PyModuleDef decimal_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_decimal",
    .m_doc = "Decimal fixed-point and floating-point arithmetic over libmpdec.",
    .m_size = -1,
    .m_free = decimal_module_free,
};

PyObject *
PyInit__decimal(void)
{
    PyObject *m = PyModule_Create(&decimal_module);
    if (m != NULL && init_module(m) < 0) {
        Py_CLEAR(m);
    }
    return m;
}
