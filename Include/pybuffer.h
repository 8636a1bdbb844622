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

#endif /* !Py_PYBUFFER_H */
