/* string.templatelib.Interpolation: one replacement field of a template
   string, holding the evaluated value, the source text of its expression,
   the conversion (None or 's', 'r', 'a') and the formatted spec string.
   Instances are immutable; see Objects/templateobject.c for Template. */

#include "Python.h"
#include "pycore_opcode_utils.h"
#include "pycore_template.h"

typedef struct {
    PyObject_HEAD
    PyObject *value;
    PyObject *expression;   /* str */
    PyObject *conversion;   /* None or a one-character str */
    PyObject *format_spec;  /* str */
} interpobject;

#define INTERP(op) ((interpobject *)(op))

/* True for None and for the strings "s", "r" and "a". */
static int
conversion_is_valid(PyObject *conv)
{
    if (conv == Py_None) {
        return 1;
    }
    if (!PyUnicode_Check(conv) || PyUnicode_GET_LENGTH(conv) != 1) {
        return 0;
    }
    Py_UCS4 ch = PyUnicode_READ_CHAR(conv, 0);
    return ch == 's' || ch == 'r' || ch == 'a';
}

static PyObject *
interp_alloc(PyTypeObject *type, PyObject *value, PyObject *expression,
             PyObject *conversion, PyObject *format_spec)
{
    interpobject *it = PyObject_GC_New(interpobject, type);
    if (it == NULL) {
        return NULL;
    }
    it->value = Py_NewRef(value);
    it->expression = Py_NewRef(expression);
    it->conversion = Py_NewRef(conversion);
    it->format_spec = Py_NewRef(format_spec);
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

/* 0 with TypeError unless `arg` (an optional argument) is absent or str. */
static int
check_str_arg(const char *what, PyObject *arg)
{
    if (arg == NULL || PyUnicode_Check(arg)) {
        return 1;
    }
    PyErr_Format(PyExc_TypeError,
                 "Interpolation() argument '%s' must be str, not %s", what,
                 Py_TYPE(arg)->tp_name);
    return 0;
}

static PyObject *
interp_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"value", "expression", "conversion",
                            "format_spec", NULL};
    PyObject *value, *expression = NULL, *conversion = Py_None;
    PyObject *format_spec = NULL;
    PyObject *empty, *res;

    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOO:Interpolation", names,
                                     &value, &expression, &conversion,
                                     &format_spec)
        || !check_str_arg("expression", expression)
        || !check_str_arg("format_spec", format_spec)) {
        return NULL;
    }
    if (!conversion_is_valid(conversion)) {
        PyErr_SetString(PyExc_ValueError,
                        "Interpolation() argument 'conversion' must be one "
                        "of 's', 'a' or 'r'");
        return NULL;
    }
    empty = PyUnicode_FromStringAndSize("", 0);
    if (empty == NULL) {
        return NULL;
    }
    res = interp_alloc(type, value, expression ? expression : empty,
                       conversion, format_spec ? format_spec : empty);
    Py_DECREF(empty);
    return res;
}

PyObject *
_PyInterpolation_Build(PyObject *value, PyObject *expression, int conversion,
                       PyObject *format_spec)
{
    static const char letters[] = {0, 's', 'r', 'a'};
    PyObject *conv, *spec, *res;

    if (conversion < FVC_NONE || conversion > FVC_ASCII) {
        PyErr_Format(PyExc_SystemError, "bad conversion code %d", conversion);
        return NULL;
    }
    if (conversion == FVC_NONE) {
        conv = Py_NewRef(Py_None);
    }
    else {
        conv = PyUnicode_FromStringAndSize(&letters[conversion], 1);
        if (conv == NULL) {
            return NULL;
        }
    }
    spec = format_spec ? Py_NewRef(format_spec)
                       : PyUnicode_FromStringAndSize("", 0);
    if (spec == NULL) {
        Py_DECREF(conv);
        return NULL;
    }
    res = interp_alloc(&_PyInterpolation_Type, value, expression, conv, spec);
    Py_DECREF(conv);
    Py_DECREF(spec);
    return res;
}

static void
interp_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    Py_CLEAR(INTERP(op)->value);
    Py_CLEAR(INTERP(op)->expression);
    Py_CLEAR(INTERP(op)->conversion);
    Py_CLEAR(INTERP(op)->format_spec);
    Py_TYPE(op)->tp_free(op);
}

static int
interp_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(INTERP(op)->value);
    Py_VISIT(INTERP(op)->expression);
    Py_VISIT(INTERP(op)->conversion);
    Py_VISIT(INTERP(op)->format_spec);
    return 0;
}

static PyObject *
interp_repr(PyObject *op)
{
    interpobject *it = INTERP(op);
    return PyUnicode_FromFormat("%s(%R, %R, %R, %R)", _PyType_Name(Py_TYPE(op)),
                                it->value, it->expression, it->conversion,
                                it->format_spec);
}

/* Pickles as a call of the type with the four fields. */
static PyObject *
interp_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    interpobject *it = INTERP(op);
    return Py_BuildValue("O(OOOO)", (PyObject *)Py_TYPE(op), it->value,
                         it->expression, it->conversion, it->format_spec);
}

static PyMethodDef interp_methods[] = {
    {"__reduce__", interp_reduce, METH_NOARGS, "Support for pickling."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef interp_members[] = {
    {"value", _Py_T_OBJECT, offsetof(interpobject, value), Py_READONLY,
     "The evaluated value of the expression."},
    {"expression", _Py_T_OBJECT, offsetof(interpobject, expression),
     Py_READONLY, "The source text of the expression."},
    {"conversion", _Py_T_OBJECT, offsetof(interpobject, conversion),
     Py_READONLY, "None, or one of 's', 'r' and 'a'."},
    {"format_spec", _Py_T_OBJECT, offsetof(interpobject, format_spec),
     Py_READONLY, "The format specification, '' when absent."},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject _PyInterpolation_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "string.templatelib.Interpolation",
    .tp_basicsize = sizeof(interpobject),
    .tp_dealloc = interp_dealloc,
    .tp_repr = interp_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Interpolation(value, expression='', conversion=None, "
              "format_spec='')\n--\n\nOne replacement field of a template "
              "string.",
    .tp_traverse = interp_traverse,
    .tp_methods = interp_methods,
    .tp_members = interp_members,
    .tp_new = interp_new,
    .tp_free = PyObject_GC_Del,
};
