/* The _weakref module: the low-level face of Objects/weakrefobject.c.

   weakref.py builds WeakValueDictionary, finalize and friends on top of
   these few names; the types themselves live in Objects/. */
#include "Python.h"
#include "pycore_typeobject.h"

#define WEAKLIST_HEAD(o) \
    (*(PyWeakReference **)((char *)(o) + Py_TYPE(o)->tp_weaklistoffset))

static PyObject *
weakref_getweakrefcount(PyObject *module, PyObject *obj)
{
    return PyLong_FromSsize_t(_PyWeakref_GetWeakrefCount(obj));
}

static PyObject *
weakref_getweakrefs(PyObject *module, PyObject *obj)
{
    PyObject *result = PyList_New(0);
    if (result == NULL || Py_TYPE(obj)->tp_weaklistoffset == 0) {
        return result;
    }
    for (PyWeakReference *wr = WEAKLIST_HEAD(obj); wr != NULL; wr = wr->wr_next) {
        if (PyList_Append(result, (PyObject *)wr) < 0) {
            Py_DECREF(result);
            return NULL;
        }
    }
    return result;
}

static PyObject *
weakref_proxy(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("proxy", nargs, 1, 2)) {
        return NULL;
    }
    return PyWeakref_NewProxy(args[0], nargs == 2 ? args[1] : NULL);
}

/* True when `value` is a weak reference whose referent has died. */
static int
is_dead_ref(PyObject *value)
{
    if (!PyWeakref_Check(value)) {
        return 0;
    }
    PyObject *target = ((PyWeakReference *)value)->wr_object;
    return target == Py_None || Py_REFCNT(target) == 0;
}

/* Called from a WeakValueDictionary callback: the entry may have been
   replaced by a live reference meanwhile, so only a dead one goes. */
static PyObject *
weakref_remove_dead_weakref(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("_remove_dead_weakref", nargs, 2, 2)) {
        return NULL;
    }
    PyObject *dct = args[0], *key = args[1];
    if (!PyDict_Check(dct)) {
        PyErr_Format(PyExc_TypeError, "_remove_dead_weakref() argument 1 must be dict, not %.200s",
                     Py_TYPE(dct)->tp_name);
        return NULL;
    }
    PyObject *value;
    int found = PyDict_GetItemRef(dct, key, &value);
    if (found < 0) {
        return NULL;
    }
    if (found == 0) {
        Py_RETURN_NONE;
    }
    int dead = is_dead_ref(value);
    Py_DECREF(value);
    if (dead && PyDict_DelItem(dct, key) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_KeyError)) {
            return NULL;
        }
        PyErr_Clear();
    }
    Py_RETURN_NONE;
}

static PyMethodDef weakref_functions[] = {
    {"getweakrefcount", weakref_getweakrefcount, METH_O,
     "Number of weak references and proxies to the object."},
    {"getweakrefs", weakref_getweakrefs, METH_O,
     "A list of the weak references and proxies to the object."},
    {"proxy", (PyCFunction)(void (*)(void))weakref_proxy, METH_FASTCALL,
     "proxy(object[, callback]): a proxy that forwards to object while it lives."},
    {"_remove_dead_weakref", (PyCFunction)(void (*)(void))weakref_remove_dead_weakref,
     METH_FASTCALL, "Delete dict[key] if it holds a dead weak reference."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef weakref_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_weakref",
    .m_doc = "Weak-reference support used by the weakref module.",
    .m_size = -1,
    .m_methods = weakref_functions,
};

PyObject *
PyInit__weakref(void)
{
    PyObject *mod = PyModule_Create(&weakref_module);
    if (mod == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(mod, "ref", (PyObject *)&_PyWeakref_RefType) < 0 ||
        PyModule_AddObjectRef(mod, "ReferenceType", (PyObject *)&_PyWeakref_RefType) < 0 ||
        PyModule_AddObjectRef(mod, "ProxyType", (PyObject *)&_PyWeakref_ProxyType) < 0 ||
        PyModule_AddObjectRef(mod, "CallableProxyType",
                              (PyObject *)&_PyWeakref_CallableProxyType) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
