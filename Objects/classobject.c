/* Bound methods (PyMethod_Type): a callable paired with the object it was
   looked up on.  `obj.f(x)` calls `f(obj, x)`; the vectorcall entry puts
   `obj` in front of the arguments without copying them when the caller
   left a free slot before args (PY_VECTORCALL_ARGUMENTS_OFFSET). */

#include "Python.h"
#include "pycore_call.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_typeobject.h"

static PyObject *
method_vectorcall(PyObject *method, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *self = PyMethod_GET_SELF(method);
    PyObject *func = PyMethod_GET_FUNCTION(method);
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *result;

    if (nargsf & PY_VECTORCALL_ARGUMENTS_OFFSET) {
        /* The caller lent us args[-1]: borrow it for self and put it back. */
        PyObject **newargs = (PyObject **)args - 1;
        PyObject *saved = newargs[0];
        newargs[0] = self;
        result = _PyObject_VectorcallTstate(tstate, func, newargs, nargs + 1, kwnames);
        newargs[0] = saved;
        return result;
    }

    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    Py_ssize_t total = nargs + nkw;
    PyObject *small[_PY_FASTCALL_SMALL_STACK];
    PyObject **newargs = small;
    if (total + 1 > (Py_ssize_t)Py_ARRAY_LENGTH(small)) {
        newargs = PyMem_Malloc((size_t)(total + 1) * sizeof(PyObject *));
        if (newargs == NULL) {
            return PyErr_NoMemory();
        }
    }
    newargs[0] = self;
    if (total > 0) {
        memcpy(newargs + 1, args, (size_t)total * sizeof(PyObject *));
    }
    result = _PyObject_VectorcallTstate(tstate, func, newargs, nargs + 1, kwnames);
    if (newargs != small) {
        PyMem_Free(newargs);
    }
    return result;
}

PyObject *
PyMethod_New(PyObject *func, PyObject *self)
{
    if (self == NULL || func == NULL) {
        PyErr_BadInternalCall();
        return NULL;
    }
    PyMethodObject *im = PyObject_GC_New(PyMethodObject, &PyMethod_Type);
    if (im == NULL) {
        return NULL;
    }
    im->im_weakreflist = NULL;
    im->im_func = Py_NewRef(func);
    im->im_self = Py_NewRef(self);
    im->vectorcall = method_vectorcall;
    PyObject_GC_Track(im);
    return (PyObject *)im;
}

static PyObject *
method_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *func, *self;
    if (!_PyArg_NoKeywords("method", kwargs)) {
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "method", 2, 2, &func, &self)) {
        return NULL;
    }
    if (!PyCallable_Check(func)) {
        PyErr_SetString(PyExc_TypeError, "first argument must be callable");
        return NULL;
    }
    if (self == Py_None) {
        PyErr_SetString(PyExc_TypeError, "instance must not be None");
        return NULL;
    }
    return PyMethod_New(func, self);
}

static void
method_dealloc(PyObject *self)
{
    PyMethodObject *im = (PyMethodObject *)self;
    PyObject_GC_UnTrack(self);
    if (im->im_weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    Py_DECREF(im->im_func);
    Py_XDECREF(im->im_self);
    PyObject_GC_Del(self);
}

static int
method_traverse(PyObject *self, visitproc visit, void *arg)
{
    PyMethodObject *im = (PyMethodObject *)self;
    Py_VISIT(im->im_func);
    Py_VISIT(im->im_self);
    return 0;
}

/* Attributes the method type itself defines win; anything else is the
   function's (so m.__name__, m.__doc__, m.__module__ are the function's). */
static PyObject *
method_getattro(PyObject *obj, PyObject *name)
{
    PyTypeObject *tp = Py_TYPE(obj);
    PyObject *descr = _PyType_Lookup(tp, name);
    if (descr != NULL) {
        descrgetfunc f = Py_TYPE(descr)->tp_descr_get;
        if (f == NULL) {
            return Py_NewRef(descr);
        }
        Py_INCREF(descr);
        PyObject *res = f(descr, obj, (PyObject *)tp);
        Py_DECREF(descr);
        return res;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    return PyObject_GetAttr(PyMethod_GET_FUNCTION(obj), name);
}

static PyObject *
method_get_doc(PyObject *self, void *closure)
{
    return PyObject_GetAttrString(PyMethod_GET_FUNCTION(self), "__doc__");
}

static PyObject *
method_reduce(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *name = PyObject_GetAttrString(PyMethod_GET_FUNCTION(self), "__name__");
    if (name == NULL) {
        return NULL;
    }
    PyObject *builtins = PyEval_GetBuiltins();
    PyObject *getattr = builtins == NULL ? NULL : PyDict_GetItemString(builtins, "getattr");
    if (getattr == NULL) {
        Py_DECREF(name);
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_RuntimeError, "lost builtins.getattr");
        }
        return NULL;
    }
    PyObject *res = Py_BuildValue("O(ON)", getattr, PyMethod_GET_SELF(self), name);
    return res;
}

static PyObject *
method_richcompare(PyObject *self, PyObject *other, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyMethod_Check(self) || !PyMethod_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyMethodObject *a = (PyMethodObject *)self;
    PyMethodObject *b = (PyMethodObject *)other;
    int eq = a->im_self == b->im_self;
    if (eq) {
        eq = PyObject_RichCompareBool(a->im_func, b->im_func, Py_EQ);
        if (eq < 0) {
            return NULL;
        }
    }
    if (op == Py_EQ) {
        return PyBool_FromLong(eq);
    }
    return PyBool_FromLong(!eq);
}

static PyObject *
method_repr(PyObject *self)
{
    PyObject *func = PyMethod_GET_FUNCTION(self);
    PyObject *name;
    int r = PyObject_GetOptionalAttrString(func, "__qualname__", &name);
    if (r == 0) {
        r = PyObject_GetOptionalAttrString(func, "__name__", &name);
    }
    if (r < 0) {
        return NULL;
    }
    if (name != NULL && !PyUnicode_Check(name)) {
        Py_CLEAR(name);
    }
    PyObject *res = PyUnicode_FromFormat("<bound method %V of %R>", name, "?",
                                         PyMethod_GET_SELF(self));
    Py_XDECREF(name);
    return res;
}

static Py_hash_t
method_hash(PyObject *self)
{
    Py_hash_t x = Py_HashPointer(PyMethod_GET_SELF(self));
    Py_hash_t y = PyObject_Hash(PyMethod_GET_FUNCTION(self));
    if (y == -1) {
        return -1;
    }
    x = x ^ y;
    if (x == -1) {
        x = -2;
    }
    return x;
}

/* A bound method is already bound: __get__ gives it back unchanged. */
static PyObject *
method_descr_get(PyObject *meth, PyObject *obj, PyObject *type)
{
    return Py_NewRef(meth);
}

static PyMethodDef method_methods[] = {
    {"__reduce__", method_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyMemberDef method_memberlist[] = {
    {"__func__", _Py_T_OBJECT, offsetof(PyMethodObject, im_func), Py_READONLY,
     "the function (or other callable) implementing a method"},
    {"__self__", _Py_T_OBJECT, offsetof(PyMethodObject, im_self), Py_READONLY,
     "the instance to which a method is bound"},
    {NULL},
};

static PyGetSetDef method_getset[] = {
    {"__doc__", method_get_doc, NULL, NULL, NULL},
    {NULL},
};

PyTypeObject PyMethod_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "method",
    .tp_basicsize = sizeof(PyMethodObject),
    .tp_dealloc = method_dealloc,
    .tp_vectorcall_offset = offsetof(PyMethodObject, vectorcall),
    .tp_repr = method_repr,
    .tp_hash = method_hash,
    .tp_call = PyVectorcall_Call,
    .tp_getattro = method_getattro,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "method(function, instance, /)\n--\n\nA function bound to an instance.",
    .tp_traverse = method_traverse,
    .tp_richcompare = method_richcompare,
    .tp_weaklistoffset = offsetof(PyMethodObject, im_weakreflist),
    .tp_methods = method_methods,
    .tp_members = method_memberlist,
    .tp_getset = method_getset,
    .tp_descr_get = method_descr_get,
    .tp_new = method_new,
};
