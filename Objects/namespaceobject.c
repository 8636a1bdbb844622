/* types.SimpleNamespace: an object whose attributes are its keyword
   arguments, compared by attributes (sys.implementation is one). */

#include "Python.h"
#include "pycore_object.h"

typedef struct {
    PyObject_HEAD
    PyObject *ns_dict;
} _PyNamespaceObject;

static PyObject *
namespace_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    _PyNamespaceObject *ns = (_PyNamespaceObject *)type->tp_alloc(type, 0);
    if (ns == NULL) {
        return NULL;
    }
    ns->ns_dict = PyDict_New();
    if (ns->ns_dict == NULL) {
        Py_DECREF(ns);
        return NULL;
    }
    return (PyObject *)ns;
}

static int
namespace_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    _PyNamespaceObject *ns = (_PyNamespaceObject *)op;
    if (PyTuple_GET_SIZE(args) > 1) {
        PyErr_Format(PyExc_TypeError, "%s expected at most 1 positional argument, got %zd",
                     Py_TYPE(op)->tp_name, PyTuple_GET_SIZE(args));
        return -1;
    }
    if (PyTuple_GET_SIZE(args) == 1 && PyDict_MergeFromSeq2(ns->ns_dict, PyTuple_GET_ITEM(args, 0), 1) < 0 &&
        (PyErr_Clear(), PyDict_Update(ns->ns_dict, PyTuple_GET_ITEM(args, 0)) < 0)) {
        return -1;
    }
    if (kwds == NULL) {
        return 0;
    }
    if (!PyArg_ValidateKeywordArguments(kwds)) {
        return -1;
    }
    return PyDict_Update(ns->ns_dict, kwds);
}

static void
namespace_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    Py_CLEAR(((_PyNamespaceObject *)op)->ns_dict);
    Py_TYPE(op)->tp_free(op);
}

static int
namespace_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((_PyNamespaceObject *)op)->ns_dict);
    return 0;
}

static int
namespace_clear(PyObject *op)
{
    Py_CLEAR(((_PyNamespaceObject *)op)->ns_dict);
    return 0;
}

/* "namespace(a=1, b='x')"; "SubClass(...)" for subclasses. */
static PyObject *
namespace_repr(PyObject *op)
{
    const char *name = Py_IS_TYPE(op, &_PyNamespace_Type) ? "namespace" : Py_TYPE(op)->tp_name;
    int r = Py_ReprEnter(op);
    if (r != 0) {
        return r > 0 ? PyUnicode_FromFormat("%s(...)", name) : NULL;
    }
    PyObject *pairs = PyList_New(0);
    PyObject *result = NULL;
    if (pairs == NULL) {
        goto done;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    PyObject *d = ((_PyNamespaceObject *)op)->ns_dict;
    while (PyDict_Next(d, &pos, &key, &value)) {
        if (!PyUnicode_Check(key) || PyUnicode_GET_LENGTH(key) == 0) {
            continue;
        }
        PyObject *item = PyUnicode_FromFormat("%U=%R", key, value);
        if (item == NULL || PyList_Append(pairs, item) < 0) {
            Py_XDECREF(item);
            goto done;
        }
        Py_DECREF(item);
    }
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *joined = sep ? PyUnicode_Join(sep, pairs) : NULL;
    Py_XDECREF(sep);
    if (joined != NULL) {
        result = PyUnicode_FromFormat("%s(%U)", name, joined);
        Py_DECREF(joined);
    }
done:
    Py_XDECREF(pairs);
    Py_ReprLeave(op);
    return result;
}

static PyObject *
namespace_richcompare(PyObject *self, PyObject *other, int op)
{
    if (PyObject_TypeCheck(self, &_PyNamespace_Type) && PyObject_TypeCheck(other, &_PyNamespace_Type)) {
        return PyObject_RichCompare(((_PyNamespaceObject *)self)->ns_dict,
                                    ((_PyNamespaceObject *)other)->ns_dict, op);
    }
    Py_RETURN_NOTIMPLEMENTED;
}

static PyMemberDef namespace_members[] = {
    {"__dict__", _Py_T_OBJECT, offsetof(_PyNamespaceObject, ns_dict), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject _PyNamespace_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "types.SimpleNamespace",
    .tp_basicsize = sizeof(_PyNamespaceObject),
    .tp_dealloc = namespace_dealloc,
    .tp_repr = namespace_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A simple attribute-based namespace.",
    .tp_traverse = namespace_traverse,
    .tp_clear = namespace_clear,
    .tp_richcompare = namespace_richcompare,
    .tp_members = namespace_members,
    .tp_dictoffset = offsetof(_PyNamespaceObject, ns_dict),
    .tp_init = namespace_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = namespace_new,
    .tp_free = PyObject_GC_Del,
};

PyObject *
_PyNamespace_New(PyObject *kwds)
{
    PyObject *ns = namespace_new(&_PyNamespace_Type, NULL, NULL);
    if (ns == NULL) {
        return NULL;
    }
    if (kwds != NULL && PyDict_Update(((_PyNamespaceObject *)ns)->ns_dict, kwds) < 0) {
        Py_DECREF(ns);
        return NULL;
    }
    return ns;
}
