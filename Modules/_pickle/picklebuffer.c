/* PickleBuffer: a wrapper around a buffer-providing object, which
   protocol 5 can hand out of band (see Doc/pickle.md).

   The wrapper takes a full view of the object when it is created and
   forwards buffer requests to the wrapped object; release() gives its
   view back early. */

#include "pickle.h"

typedef struct {
    PyObject_HEAD
    Py_buffer view;             /* view.obj == NULL once released */
    PyObject *weakreflist;
} PickleBufferObject;

#define PB(o) ((PickleBufferObject *)(o))

const Py_buffer *
_PyPickleBuffer_GetView(PyObject *obj)
{
    PickleBufferObject *b = PB(obj);
    if (b->view.obj == NULL) {
        PyErr_SetString(PyExc_ValueError,
                        "operation forbidden on released PickleBuffer object");
        return NULL;
    }
    return &b->view;
}

static PyObject *
picklebuffer_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"buffer", NULL};
    PyObject *wrapped;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:PickleBuffer", names,
                                     &wrapped)) {
        return NULL;
    }
    PyObject *self = type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    /* The view is taken in place: exporters may point shape/strides into
       the Py_buffer itself, so it must not be copied. */
    if (PyObject_GetBuffer(wrapped, &PB(self)->view, PyBUF_FULL_RO) < 0) {
        PB(self)->view.obj = NULL;
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

static int
picklebuffer_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(PB(self)->view.obj);
    return 0;
}

static int
picklebuffer_clear(PyObject *self)
{
    if (PB(self)->view.obj != NULL) {
        PyBuffer_Release(&PB(self)->view);
    }
    return 0;
}

static void
picklebuffer_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    if (PB(self)->weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    picklebuffer_clear(self);
    Py_TYPE(self)->tp_free(self);
}

/* Exports are fresh requests to the wrapped object, so they stay valid
   after release() drops the PickleBuffer's own view. */
static int
picklebuffer_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    const Py_buffer *src = _PyPickleBuffer_GetView(self);
    if (src == NULL) {
        view->obj = NULL;
        return -1;
    }
    return PyObject_GetBuffer(src->obj, view, flags);
}

static PyBufferProcs picklebuffer_as_buffer = {
    .bf_getbuffer = picklebuffer_getbuffer,
};

static PyObject *
picklebuffer_raw(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    const Py_buffer *src = _PyPickleBuffer_GetView(self);
    if (src == NULL) {
        return NULL;
    }
    if (!PyBuffer_IsContiguous(src, 'A')) {
        PyErr_SetString(PyExc_BufferError,
                        "cannot extract raw buffer from non-contiguous buffer");
        return NULL;
    }
    /* A flat unsigned-byte view of the same memory, kept alive through
       `self`. */
    PyObject *mv = PyMemoryView_FromObject(self);
    if (mv == NULL) {
        return NULL;
    }
    PyObject *flat = PyObject_CallMethod(mv, "cast", "s", "B");
    Py_DECREF(mv);
    return flat;
}

static PyObject *
picklebuffer_release(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    picklebuffer_clear(self);
    Py_RETURN_NONE;
}

static PyMethodDef picklebuffer_methods[] = {
    {"raw", picklebuffer_raw, METH_NOARGS,
     "raw($self, /)\n--\n\n"
     "Return a 1-dimensional 'B'-format memoryview of the raw memory "
     "behind this buffer (which must be contiguous)."},
    {"release", picklebuffer_release, METH_NOARGS,
     "release($self, /)\n--\n\n"
     "Release the underlying buffer held by this PickleBuffer."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject _PyPickle_PickleBufferType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "pickle.PickleBuffer",
    .tp_basicsize = sizeof(PickleBufferObject),
    .tp_dealloc = picklebuffer_dealloc,
    .tp_as_buffer = &picklebuffer_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "PickleBuffer(buffer)\n--\n\n"
              "Mark a buffer-providing object as one that protocol 5 may "
              "hand over out of band.",
    .tp_traverse = picklebuffer_traverse,
    .tp_clear = picklebuffer_clear,
    .tp_weaklistoffset = offsetof(PickleBufferObject, weakreflist),
    .tp_methods = picklebuffer_methods,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = picklebuffer_new,
    .tp_free = PyObject_GC_Del,
};
