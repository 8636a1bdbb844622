/* What builtins.anext(aiterator, default) returns: an awaitable that
   awaits what aiterator.__anext__() returned and finishes with `default`
   instead of raising StopAsyncIteration.

   The awaited object's iterator is made on first use and kept: later
   sends drive the same one. */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_genobject.h"
#include "pycore_object.h"
#include "pycore_pystate.h"

typedef struct {
    PyObject_HEAD
    PyObject *awaitable;     /* what __anext__() returned */
    PyObject *default_value;
    PyObject *inner;         /* the awaitable's iterator, once made */
} AnextAwaitable;

PyObject *
_PyAnextAwaitable_New(PyObject *awaitable, PyObject *default_value)
{
    AnextAwaitable *aw = PyObject_GC_New(AnextAwaitable, &_PyAnextAwaitable_Type);
    if (aw == NULL) {
        return NULL;
    }
    aw->awaitable = Py_NewRef(awaitable);
    aw->default_value = Py_NewRef(default_value);
    aw->inner = NULL;
    PyObject_GC_Track(aw);
    return (PyObject *)aw;
}

/* The awaitable's iterator, made on first use (borrowed). */
static PyObject *
inner_iterator(AnextAwaitable *aw)
{
    if (aw->inner == NULL) {
        aw->inner = _PyEval_GetAwaitable(_PyThreadState_GET(), aw->awaitable, 0);
    }
    return aw->inner;
}

/* After the inner iterator stopped with an error: the iterator's end
   (StopAsyncIteration) becomes the default value. */
static PyObject *
default_on_end(AnextAwaitable *aw)
{
    if (PyErr_ExceptionMatches(PyExc_StopAsyncIteration)) {
        PyErr_Clear();
        _PyGen_SetStopIterationValue(aw->default_value);
    }
    return NULL;
}

static PyObject *
anext_send(PyObject *self, PyObject *value)
{
    AnextAwaitable *aw = (AnextAwaitable *)self;
    PyObject *inner = inner_iterator(aw);
    if (inner == NULL) {
        return default_on_end(aw);
    }
    PyObject *out;
    PySendResult r = _PyEval_SendTo(_PyThreadState_GET(), inner, value, &out);
    if (r == PYGEN_NEXT) {
        return out;
    }
    if (r == PYGEN_RETURN) {
        _PyGen_SetStopIterationValue(out);
        Py_DECREF(out);
        return NULL;
    }
    return default_on_end(aw);
}

static PyObject *
anext_iternext(PyObject *self)
{
    return anext_send(self, Py_None);
}

/* Call inner.<name>(*args), as awaitables other than ours have them. */
static PyObject *
forward(AnextAwaitable *aw, const char *name, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *inner = inner_iterator(aw);
    if (inner == NULL) {
        return default_on_end(aw);
    }
    PyObject *method = PyObject_GetAttrString(inner, name);
    if (method == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_Vectorcall(method, args, (size_t)nargs, NULL);
    Py_DECREF(method);
    return res != NULL ? res : default_on_end(aw);
}

static PyObject *
anext_throw(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("throw", nargs, 1, 3)) {
        return NULL;
    }
    return forward((AnextAwaitable *)self, "throw", args, nargs);
}

static PyObject *
anext_close(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return forward((AnextAwaitable *)self, "close", NULL, 0);
}

static void
anext_dealloc(PyObject *self)
{
    AnextAwaitable *aw = (AnextAwaitable *)self;
    PyObject_GC_UnTrack(self);
    Py_CLEAR(aw->awaitable);
    Py_CLEAR(aw->default_value);
    Py_CLEAR(aw->inner);
    PyObject_GC_Del(self);
}

static int
anext_traverse(PyObject *self, visitproc visit, void *arg)
{
    AnextAwaitable *aw = (AnextAwaitable *)self;
    Py_VISIT(aw->awaitable);
    Py_VISIT(aw->default_value);
    Py_VISIT(aw->inner);
    return 0;
}

static PyMethodDef anext_methods[] = {
    {"send", anext_send, METH_O, "send($self, value, /)\n--\n\nResume the awaited __anext__()."},
    {"throw", _PyCFunction_CAST(anext_throw), METH_FASTCALL,
     "throw(value)\n--\n\nRaise value inside the awaited __anext__()."},
    {"close", anext_close, METH_NOARGS, "close($self, /)\n--\n\nClose the awaited __anext__()."},
    {NULL},
};

static PyAsyncMethods anext_as_async = {
    .am_await = PyObject_SelfIter,
};

PyTypeObject _PyAnextAwaitable_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "anext_awaitable",
    .tp_basicsize = sizeof(AnextAwaitable),
    .tp_dealloc = anext_dealloc,
    .tp_as_async = &anext_as_async,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = anext_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = anext_iternext,
    .tp_methods = anext_methods,
};
