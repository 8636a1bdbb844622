/* memoryview (Objects/memoryobject.c): a view of another object's
   buffer, with its own shape, strides and format. */
#ifndef Py_MEMORYOBJECT_H
#define Py_MEMORYOBJECT_H

PyAPI_DATA(PyTypeObject) PyMemoryView_Type;
#define PyMemoryView_Check(op) Py_IS_TYPE((op), &PyMemoryView_Type)

/* A view of any object supporting the buffer protocol. */
PyAPI_FUNC(PyObject *) PyMemoryView_FromObject(PyObject *base);
/* A 1-D byte view of raw memory; flags PyBUF_READ or PyBUF_WRITE. */
PyAPI_FUNC(PyObject *) PyMemoryView_FromMemory(char *mem, Py_ssize_t size, int flags);
/* A view described by *info (copied); info->obj may be NULL. */
PyAPI_FUNC(PyObject *) PyMemoryView_FromBuffer(const Py_buffer *info);
/* A C- or Fortran-contiguous view of base, copying into bytes if needed;
   buffertype PyBUF_READ or PyBUF_WRITE. */
PyAPI_FUNC(PyObject *) PyMemoryView_GetContiguous(PyObject *base, int buffertype, char order);

/* Every view of one export shares a holder that owns the exporter's
   Py_buffer; the export is given back when the last view lets go. */
typedef struct {
    PyObject_VAR_HEAD    /* ob_size: 2 * ndim entries in dims[] */
    PyObject *holder;    /* NULL once released */
    Py_buffer view;      /* shape and strides point into dims[] */
    Py_ssize_t exports;  /* buffers handed out by this view */
    Py_hash_t hash;      /* -1 until computed */
    int layout;          /* _Py_MEMORY_C / _F contiguity bits */
    PyObject *weakreflist;
    Py_ssize_t dims[1];
} PyMemoryViewObject;

#define _Py_MEMORY_C 1
#define _Py_MEMORY_F 2

#define PyMemoryView_GET_BUFFER(op) (&((PyMemoryViewObject *)(op))->view)
#define PyMemoryView_GET_BASE(op) (((PyMemoryViewObject *)(op))->view.obj)

#endif /* !Py_MEMORYOBJECT_H */
