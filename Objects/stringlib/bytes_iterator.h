/* The iterator type of bytes and bytearray, instantiated once per type.

   Iterating either type yields its bytes as ints, reading through
   STRINGLIB_STR on every step so a bytearray resized during iteration is
   seen as it is now.  The two iterator types differ only in their names, so
   each file defines, before including this file:

     STRINGLIB(name)       the static name prefix (bytes_name, bytearray_name)
     STRINGLIB_STR         the type's AS_STRING macro
     STRINGLIB_ITER_TYPE   the public iterator type object to define
     STRINGLIB_ITER_NAME   its tp_name

   This file undefines STRINGLIB, STRINGLIB_ITER_TYPE and STRINGLIB_ITER_NAME;
   STRINGLIB(iter) is the tp_iter of the sequence type. */

#if !defined(STRINGLIB) || !defined(STRINGLIB_STR) || !defined(STRINGLIB_ITER_TYPE) \
    || !defined(STRINGLIB_ITER_NAME)
#  error "define STRINGLIB, STRINGLIB_STR, STRINGLIB_ITER_TYPE and STRINGLIB_ITER_NAME first"
#endif

typedef struct {
    PyObject_HEAD
    Py_ssize_t it_index;
    PyObject *it_seq; /* NULL when exhausted */
} STRINGLIB(iterobject);

static PyObject *
STRINGLIB(iter)(PyObject *seq)
{
    STRINGLIB(iterobject) *it = PyObject_GC_New(STRINGLIB(iterobject), &STRINGLIB_ITER_TYPE);
    if (it == NULL) {
        return NULL;
    }
    it->it_index = 0;
    it->it_seq = Py_NewRef(seq);
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

static void
STRINGLIB(iter_dealloc)(PyObject *op)
{
    STRINGLIB(iterobject) *it = (STRINGLIB(iterobject) *)op;
    PyObject_GC_UnTrack(it);
    Py_XDECREF(it->it_seq);
    PyObject_GC_Del(it);
}

static int
STRINGLIB(iter_traverse)(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((STRINGLIB(iterobject) *)op)->it_seq);
    return 0;
}

static PyObject *
STRINGLIB(iter_next)(PyObject *op)
{
    STRINGLIB(iterobject) *it = (STRINGLIB(iterobject) *)op;
    PyObject *seq = it->it_seq;
    if (seq == NULL) {
        return NULL;
    }
    if (it->it_index < Py_SIZE(seq)) {
        return PyLong_FromLong((unsigned char)STRINGLIB_STR(seq)[it->it_index++]);
    }
    it->it_seq = NULL;
    Py_DECREF(seq);
    return NULL;
}

static PyObject *
STRINGLIB(iter_length_hint)(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    STRINGLIB(iterobject) *it = (STRINGLIB(iterobject) *)op;
    Py_ssize_t n = it->it_seq ? Py_SIZE(it->it_seq) - it->it_index : 0;
    return PyLong_FromSsize_t(n < 0 ? 0 : n);
}

static PyObject *
STRINGLIB(iter_reduce)(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    STRINGLIB(iterobject) *it = (STRINGLIB(iterobject) *)op;
    PyObject *iter = PyDict_GetItemString(PyEval_GetBuiltins(), "iter");
    if (iter == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_RuntimeError, "lost builtins.iter");
        }
        return NULL;
    }
    if (it->it_seq != NULL) {
        return Py_BuildValue("O(O)n", iter, it->it_seq, it->it_index);
    }
    return Py_BuildValue("O(())", iter);
}

static PyMethodDef STRINGLIB(iter_methods)[] = {
    {"__reduce__", STRINGLIB(iter_reduce), METH_NOARGS, "Return state information for pickling."},
    {"__length_hint__", STRINGLIB(iter_length_hint), METH_NOARGS,
     "Private method returning an estimate of len(list(it))."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject STRINGLIB_ITER_TYPE = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = STRINGLIB_ITER_NAME,
    .tp_basicsize = sizeof(STRINGLIB(iterobject)),
    .tp_dealloc = STRINGLIB(iter_dealloc),
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = STRINGLIB(iter_traverse),
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = STRINGLIB(iter_next),
    .tp_methods = STRINGLIB(iter_methods),
};

#undef STRINGLIB
#undef STRINGLIB_ITER_TYPE
#undef STRINGLIB_ITER_NAME
