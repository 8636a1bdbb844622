/* The buffer protocol: direct access to another object's memory
   (bytes, bytearray, memoryview, array, mmap...).  Py_buffer and the
   PyBUF_* request flags are in object.h, beside the type slots. */
#ifndef Py_PYBUFFER_H
#define Py_PYBUFFER_H

/* 1 when obj supports the buffer protocol. */
PyAPI_FUNC(int) PyObject_CheckBuffer(PyObject *obj);
/* Fill *view as flags ask; 0, or -1 with TypeError "a bytes-like object is
   required, not 'T'" (or BufferError when the request cannot be met). */
PyAPI_FUNC(int) PyObject_GetBuffer(PyObject *obj, Py_buffer *view, int flags);
/* Give back a view from PyObject_GetBuffer; drops its reference to obj. */
PyAPI_FUNC(void) PyBuffer_Release(Py_buffer *view);
/* For bf_getbuffer implementations: a contiguous 1-D byte view of
   buf[0:len] owned by obj. */
PyAPI_FUNC(int) PyBuffer_FillInfo(Py_buffer *view, PyObject *obj, void *buf,
                                  Py_ssize_t len, int readonly, int flags);

/* The most dimensions a view may have. */
#define PyBUF_MAX_NDIM 64

/* 1 when the view's memory is laid out contiguously in `order`: 'C'
   (row-major), 'F' (column-major) or 'A' (either). */
PyAPI_FUNC(int) PyBuffer_IsContiguous(const Py_buffer *view, char order);
/* The address of the element at indices[0..ndim-1]. */
PyAPI_FUNC(void *) PyBuffer_GetPointer(const Py_buffer *view, const Py_ssize_t *indices);
/* Copy the view's elements to/from a contiguous buffer of len bytes (which
   must equal view->len), in `order` ('C', 'F', or 'A' for the view's own
   order). */
PyAPI_FUNC(int) PyBuffer_ToContiguous(void *buf, const Py_buffer *view, Py_ssize_t len,
                                      char order);
PyAPI_FUNC(int) PyBuffer_FromContiguous(const Py_buffer *view, const void *buf, Py_ssize_t len,
                                        char order);
/* Strides of a contiguous array of this shape. */
PyAPI_FUNC(void) PyBuffer_FillContiguousStrides(int ndim, Py_ssize_t *shape, Py_ssize_t *strides,
                                                int itemsize, char order);
/* Copy the bytes of src's buffer into dest's (writable) buffer. */
PyAPI_FUNC(int) PyObject_CopyData(PyObject *dest, PyObject *src);

#endif /* !Py_PYBUFFER_H */
