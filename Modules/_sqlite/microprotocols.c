/* PEP 246-style adaptation as the sqlite3 module uses it: the adapter
   registry keyed by (type, protocol), the protocol objects' __adapt__ and
   the objects' __conform__, and the PrepareProtocol marker type. */

#include "module.h"

PyTypeObject _PySqlite_PrepareProtocolType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sqlite3.PrepareProtocol",
    .tp_basicsize = sizeof(PyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The protocol objects are adapted to before they are bound.",
    .tp_new = PyType_GenericNew,
};

int
_PySqlite_InitAdapters(void)
{
    if (SQ->adapters == NULL && (SQ->adapters = PyDict_New()) == NULL) {
        return -1;
    }
    return 0;
}

/* Call obj.<hook>(arg) when the hook exists.  Returns 1 with *out set to
   a non-None result, 0 when the hook is absent or declined (None or a
   TypeError), -1 on other errors. */
static int
try_hook(PyObject *obj, const char *hook, PyObject *arg, PyObject **out)
{
    PyObject *method;
    if (PyObject_GetOptionalAttrString(obj, hook, &method) <= 0) {
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *result = PyObject_CallOneArg(method, arg);
    Py_DECREF(method);
    if (result == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
            return -1;
        }
        PyErr_Clear();
        return 0;
    }
    if (result == Py_None) {
        Py_DECREF(result);
        return 0;
    }
    *out = result;
    return 1;
}

PyObject *
_PySqlite_Adapt(PyObject *obj, PyObject *proto, PyObject *alt)
{
    PyObject *key = PyTuple_Pack(2, (PyObject *)Py_TYPE(obj), proto);
    if (key == NULL) {
        return NULL;
    }
    PyObject *adapter = PyDict_GetItemWithError(SQ->adapters, key);
    Py_DECREF(key);
    if (adapter != NULL) {
        return PyObject_CallOneArg(adapter, obj);
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    PyObject *result = NULL;
    int found = try_hook(proto, "__adapt__", obj, &result);
    if (found == 0) {
        found = try_hook(obj, "__conform__", proto, &result);
    }
    if (found != 0) {
        return result;
    }
    if (alt != NULL) {
        return Py_NewRef(alt);
    }
    PyErr_SetString(SQ->ProgrammingError, "can't adapt");
    return NULL;
}

/* adapt(obj, proto=PrepareProtocol, alt=<unset>, /) */
static PyObject *
sq_adapt(PyObject *module, PyObject *args)
{
    PyObject *obj, *alt = NULL;
    PyObject *proto = (PyObject *)&_PySqlite_PrepareProtocolType;
    if (!PyArg_ParseTuple(args, "O|OO:adapt", &obj, &proto, &alt)) {
        return NULL;
    }
    return _PySqlite_Adapt(obj, proto, alt);
}

PyMethodDef _PySqlite_AdapterMethods[] = {
    {"adapt", sq_adapt, METH_VARARGS,
     "Adapt obj to the protocol through the registry, __adapt__ or "
     "__conform__; alt (if given) when none applies."},
    {NULL},
};
