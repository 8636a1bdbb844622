/* The bool type: a subclass of int with exactly two instances, False and
   True, both static and immortal.  They share int's layout (values 0 and
   1), so int arithmetic on them needs no special casing. */

#include "Python.h"
#include "pycore_long.h"
#include "pycore_object.h"

PyLongObject _Py_FalseStruct = {
    PyObject_HEAD_INIT(&PyBool_Type)
    _PyLong_TAG(0, 0),
    {0},
};

PyLongObject _Py_TrueStruct = {
    PyObject_HEAD_INIT(&PyBool_Type)
    _PyLong_TAG(1, 1),
    {1},
};

PyObject *
PyBool_FromLong(long ok)
{
    return ok ? Py_True : Py_False;
}

static PyObject *
bool_repr(PyObject *self)
{
    static PyObject *true_str, *false_str;
    PyObject **slot = self == Py_True ? &true_str : &false_str;
    if (*slot == NULL) {
        *slot = PyUnicode_InternFromString(self == Py_True ? "True" : "False");
        if (*slot == NULL) {
            return NULL;
        }
    }
    return Py_NewRef(*slot);
}

static PyObject *
bool_from_args(Py_ssize_t nargs, PyObject *arg)
{
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "bool expected at most 1 argument, got %zd", nargs);
        return NULL;
    }
    if (nargs == 0) {
        return Py_False;
    }
    int ok = PyObject_IsTrue(arg);
    if (ok < 0) {
        return NULL;
    }
    return PyBool_FromLong(ok);
}

static PyObject *
bool_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "bool() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    return bool_from_args(nargs, nargs > 0 ? PyTuple_GET_ITEM(args, 0) : NULL);
}

static PyObject *
bool_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        PyErr_SetString(PyExc_TypeError, "bool() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    return bool_from_args(nargs, nargs > 0 ? args[0] : NULL);
}

/* &, | and ^ of two bools are bools; anything else is int arithmetic. */
static PyObject *
bool_and(PyObject *a, PyObject *b)
{
    if (!PyBool_Check(a) || !PyBool_Check(b)) {
        return PyLong_Type.tp_as_number->nb_and(a, b);
    }
    return PyBool_FromLong((a == Py_True) & (b == Py_True));
}

static PyObject *
bool_or(PyObject *a, PyObject *b)
{
    if (!PyBool_Check(a) || !PyBool_Check(b)) {
        return PyLong_Type.tp_as_number->nb_or(a, b);
    }
    return PyBool_FromLong((a == Py_True) | (b == Py_True));
}

static PyObject *
bool_xor(PyObject *a, PyObject *b)
{
    if (!PyBool_Check(a) || !PyBool_Check(b)) {
        return PyLong_Type.tp_as_number->nb_xor(a, b);
    }
    return PyBool_FromLong((a == Py_True) ^ (b == Py_True));
}

static PyObject *
bool_invert(PyObject *v)
{
    if (PyErr_WarnEx(PyExc_DeprecationWarning,
                     "Bitwise inversion '~' on bool is deprecated and will be removed in "
                     "Python 3.16. This returns the bitwise inversion of the underlying int "
                     "object and is usually not what you expect from negating a bool. Use "
                     "the 'not' operator for boolean negation or ~int(x) if you really want "
                     "the bitwise inversion of the underlying int.", 1) < 0) {
        return NULL;
    }
    return PyLong_Type.tp_as_number->nb_invert(v);
}

/* True and False are immortal: this never runs. */
static void
bool_dealloc(PyObject *Py_UNUSED(self))
{
}

/* The slots not set here are inherited from int by PyType_Ready. */
static PyNumberMethods bool_as_number = {
    .nb_invert = bool_invert,
    .nb_and = bool_and,
    .nb_xor = bool_xor,
    .nb_or = bool_or,
};

PyTypeObject PyBool_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "bool",
    .tp_basicsize = offsetof(PyLongObject, ob_digit),
    .tp_itemsize = sizeof(digit),
    .tp_dealloc = bool_dealloc,
    .tp_repr = bool_repr,
    .tp_as_number = &bool_as_number,
    .tp_str = bool_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_LONG_SUBCLASS | Py_TPFLAGS_IMMUTABLETYPE,
    .tp_doc = "bool(object=False, /)\n--\n\n"
              "The truth value of the object: True or False, the type's only two\n"
              "values.  bool is an int subclass (False == 0, True == 1) that cannot\n"
              "itself be subclassed.",
    .tp_base = &PyLong_Type,
    .tp_new = bool_new,
    .tp_vectorcall = bool_vectorcall,
};
