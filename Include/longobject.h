/* int: arbitrary precision integers.  Layout in Include/cpython/longintrepr.h
   (internal to Objects/longobject.c and the interpreter's fast paths). */
#ifndef Py_LONGOBJECT_H
#define Py_LONGOBJECT_H

typedef struct _longobject PyLongObject;

PyAPI_DATA(PyTypeObject) PyLong_Type;

#define PyLong_Check(op) PyType_FastSubclass(Py_TYPE(op), Py_TPFLAGS_LONG_SUBCLASS)
#define PyLong_CheckExact(op) Py_IS_TYPE((op), &PyLong_Type)

PyAPI_FUNC(PyObject *) PyLong_FromLong(long);
PyAPI_FUNC(PyObject *) PyLong_FromUnsignedLong(unsigned long);
PyAPI_FUNC(PyObject *) PyLong_FromSize_t(size_t);
PyAPI_FUNC(PyObject *) PyLong_FromSsize_t(Py_ssize_t);
PyAPI_FUNC(PyObject *) PyLong_FromLongLong(long long);
PyAPI_FUNC(PyObject *) PyLong_FromUnsignedLongLong(unsigned long long);
PyAPI_FUNC(PyObject *) PyLong_FromInt32(int32_t);
PyAPI_FUNC(PyObject *) PyLong_FromInt64(int64_t);
PyAPI_FUNC(PyObject *) PyLong_FromDouble(double);
PyAPI_FUNC(PyObject *) PyLong_FromString(const char *str, char **pend, int base);
PyAPI_FUNC(PyObject *) PyLong_FromUnicodeObject(PyObject *u, int base);
PyAPI_FUNC(PyObject *) PyLong_FromVoidPtr(void *);
PyAPI_FUNC(long) PyLong_AsLong(PyObject *);
PyAPI_FUNC(long) PyLong_AsLongAndOverflow(PyObject *, int *);
PyAPI_FUNC(long long) PyLong_AsLongLong(PyObject *);
PyAPI_FUNC(long long) PyLong_AsLongLongAndOverflow(PyObject *, int *);
PyAPI_FUNC(unsigned long) PyLong_AsUnsignedLong(PyObject *);
PyAPI_FUNC(unsigned long long) PyLong_AsUnsignedLongLong(PyObject *);
PyAPI_FUNC(unsigned long) PyLong_AsUnsignedLongMask(PyObject *);
PyAPI_FUNC(Py_ssize_t) PyLong_AsSsize_t(PyObject *);
PyAPI_FUNC(size_t) PyLong_AsSize_t(PyObject *);
PyAPI_FUNC(int) PyLong_AsInt(PyObject *);
PyAPI_FUNC(int) PyLong_AsInt32(PyObject *, int32_t *);
PyAPI_FUNC(int) PyLong_AsInt64(PyObject *, int64_t *);
PyAPI_FUNC(double) PyLong_AsDouble(PyObject *);
PyAPI_FUNC(void *) PyLong_AsVoidPtr(PyObject *);
PyAPI_FUNC(int) _PyLong_Sign(PyObject *);
PyAPI_FUNC(int) PyLong_GetSign(PyObject *, int *);
PyAPI_FUNC(int64_t) _PyLong_NumBits(PyObject *);
PyAPI_FUNC(PyObject *) PyLong_GetInfo(void);
/* repr in the given base (2, 8, 10, 16), with the 0b/0o/0x prefix when
   alternate is set */
PyAPI_FUNC(PyObject *) _PyLong_Format(PyObject *obj, int base);


/* Added with Objects/longobject.c */
#define PyLong_AS_LONG(op) PyLong_AsLong(op)
#define _PyLong_AsInt PyLong_AsInt
PyAPI_FUNC(PyObject *) PyLong_FromUInt32(uint32_t);
PyAPI_FUNC(PyObject *) PyLong_FromUInt64(uint64_t);
PyAPI_FUNC(int) PyLong_AsUInt32(PyObject *, uint32_t *);
PyAPI_FUNC(int) PyLong_AsUInt64(PyObject *, uint64_t *);
PyAPI_FUNC(unsigned long long) PyLong_AsUnsignedLongLongMask(PyObject *);

/* Native-endian (or chosen-endian) two's complement buffers.
   PyLong_AsNativeBytes returns the number of bytes the value needs (it
   fills the first n_bytes of them) or -1 with an exception. */
#define Py_ASNATIVEBYTES_DEFAULTS -1
#define Py_ASNATIVEBYTES_BIG_ENDIAN 0
#define Py_ASNATIVEBYTES_LITTLE_ENDIAN 1
#define Py_ASNATIVEBYTES_NATIVE_ENDIAN 3
#define Py_ASNATIVEBYTES_UNSIGNED_BUFFER 4
#define Py_ASNATIVEBYTES_REJECT_NEGATIVE 8
#define Py_ASNATIVEBYTES_ALLOW_INDEX 16
PyAPI_FUNC(Py_ssize_t) PyLong_AsNativeBytes(PyObject *v, void *buffer, Py_ssize_t n_bytes,
                                            int flags);
PyAPI_FUNC(PyObject *) PyLong_FromNativeBytes(const void *buffer, size_t n_bytes, int flags);
PyAPI_FUNC(PyObject *) PyLong_FromUnsignedNativeBytes(const void *buffer, size_t n_bytes,
                                                      int flags);

#endif /* !Py_LONGOBJECT_H */
