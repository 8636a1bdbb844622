/* Generic iterators: over anything with __getitem__ (the old sequence
   protocol, used by iter(obj) when there is no __iter__), and over a
   callable until it returns a sentinel (iter(callable, sentinel)). */
#include "Python.h"
#include "pycore_object.h"

/* ---- Sequence iterator ----------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Py_ssize_t it_index;
    PyObject *it_seq; /* NULL once exhausted */
} seqiterobject;

PyObject *
PySeqIter_New(PyObject *seq)
{
    if (!PySequence_Check(seq)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    seqiterobject *it = PyObject_GC_New(seqiterobject, &PySeqIter_Type);
    if (it == NULL) {
        return NULL;
    }
    it->it_index = 0;
    it->it_seq = Py_NewRef(seq);
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

static void
iter_dealloc(PyObject *op)
{
    seqiterobject *it = (seqiterobject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(it->it_seq);
    PyObject_GC_Del(op);
}

static int
iter_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((seqiterobject *)op)->it_seq);
    return 0;
}

static PyObject *
iter_iternext(PyObject *op)
{
    seqiterobject *it = (seqiterobject *)op;
    PyObject *seq = it->it_seq;
    if (seq == NULL) {
        return NULL;
    }
    if (it->it_index == PY_SSIZE_T_MAX) {
        PyErr_SetString(PyExc_OverflowError, "iter index too large");
        return NULL;
    }
    PyObject *result = PySequence_GetItem(seq, it->it_index);
    if (result != NULL) {
        it->it_index++;
        return result;
    }
    /* Both IndexError and StopIteration mean "no more items". */
    if (PyErr_ExceptionMatches(PyExc_IndexError) ||
        PyErr_ExceptionMatches(PyExc_StopIteration)) {
        PyErr_Clear();
        it->it_seq = NULL;
        Py_DECREF(seq);
    }
    return NULL;
}

static PyObject *
iter_len(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    seqiterobject *it = (seqiterobject *)op;
    if (it->it_seq) {
        if (!PySequence_Check(it->it_seq) ||
            Py_TYPE(it->it_seq)->tp_as_sequence->sq_length == NULL) {
            Py_RETURN_NOTIMPLEMENTED;
        }
        Py_ssize_t seqsize = PySequence_Size(it->it_seq);
        if (seqsize == -1) {
            return NULL;
        }
        Py_ssize_t len = seqsize - it->it_index;
        if (len >= 0) {
            return PyLong_FromSsize_t(len);
        }
    }
    return PyLong_FromLong(0);
}

static PyObject *
iter_setstate(PyObject *op, PyObject *state)
{
    seqiterobject *it = (seqiterobject *)op;
    Py_ssize_t index = PyLong_AsSsize_t(state);
    if (index == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (it->it_seq != NULL) {
        it->it_index = index < 0 ? 0 : index;
    }
    Py_RETURN_NONE;
}

static PyMethodDef seqiter_methods[] = {
    {"__length_hint__", iter_len, METH_NOARGS,
     "Private method returning an estimate of len(list(it))."},
    {"__setstate__", iter_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PySeqIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "iterator",
    .tp_basicsize = sizeof(seqiterobject),
    .tp_dealloc = iter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = iter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = iter_iternext,
    .tp_methods = seqiter_methods,
};

/* ---- Callable iterator ----------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *it_callable; /* NULL once exhausted */
    PyObject *it_sentinel; /* NULL once exhausted */
} calliterobject;

PyObject *
PyCallIter_New(PyObject *callable, PyObject *sentinel)
{
    calliterobject *it = PyObject_GC_New(calliterobject, &PyCallIter_Type);
    if (it == NULL) {
        return NULL;
    }
    it->it_callable = Py_NewRef(callable);
    it->it_sentinel = Py_NewRef(sentinel);
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

static void
calliter_dealloc(PyObject *op)
{
    calliterobject *it = (calliterobject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(it->it_callable);
    Py_XDECREF(it->it_sentinel);
    PyObject_GC_Del(op);
}

static int
calliter_traverse(PyObject *op, visitproc visit, void *arg)
{
    calliterobject *it = (calliterobject *)op;
    Py_VISIT(it->it_callable);
    Py_VISIT(it->it_sentinel);
    return 0;
}

static PyObject *
calliter_iternext(PyObject *op)
{
    calliterobject *it = (calliterobject *)op;
    if (it->it_callable == NULL) {
        return NULL;
    }
    PyObject *result = PyObject_CallNoArgs(it->it_callable);
    if (result != NULL && it->it_sentinel != NULL) {
        int ok = PyObject_RichCompareBool(it->it_sentinel, result, Py_EQ);
        if (ok == 0) {
            return result;
        }
        if (ok > 0) {
            Py_CLEAR(it->it_callable);
            Py_CLEAR(it->it_sentinel);
        }
    }
    else if (result == NULL && PyErr_ExceptionMatches(PyExc_StopIteration)) {
        PyErr_Clear();
        Py_CLEAR(it->it_callable);
        Py_CLEAR(it->it_sentinel);
    }
    Py_XDECREF(result);
    return NULL;
}

PyTypeObject PyCallIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "callable_iterator",
    .tp_basicsize = sizeof(calliterobject),
    .tp_dealloc = calliter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = calliter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = calliter_iternext,
};
