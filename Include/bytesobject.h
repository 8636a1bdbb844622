/* bytes and bytearray: immutable and mutable byte strings. */
#ifndef Py_BYTESOBJECT_H
#define Py_BYTESOBJECT_H

#include <stdarg.h>

typedef struct {
    PyObject_VAR_HEAD
    Py_hash_t ob_shash; /* -1 until computed */
    char ob_sval[1];    /* ob_size + 1 bytes, ob_sval[ob_size] == 0 */
} PyBytesObject;

PyAPI_DATA(PyTypeObject) PyBytes_Type;
PyAPI_DATA(PyTypeObject) PyBytesIter_Type;
#define PyBytes_Check(op) PyType_FastSubclass(Py_TYPE(op), Py_TPFLAGS_BYTES_SUBCLASS)
#define PyBytes_CheckExact(op) Py_IS_TYPE((op), &PyBytes_Type)
#define PyBytes_AS_STRING(op) (((PyBytesObject *)(op))->ob_sval)
#define PyBytes_GET_SIZE(op) Py_SIZE(op)

PyAPI_FUNC(PyObject *) PyBytes_FromStringAndSize(const char *, Py_ssize_t);
PyAPI_FUNC(PyObject *) PyBytes_FromString(const char *);
PyAPI_FUNC(PyObject *) PyBytes_FromObject(PyObject *);
PyAPI_FUNC(PyObject *) PyBytes_FromFormat(const char *, ...);
PyAPI_FUNC(PyObject *) PyBytes_FromFormatV(const char *, va_list);
PyAPI_FUNC(Py_ssize_t) PyBytes_Size(PyObject *);
PyAPI_FUNC(char *) PyBytes_AsString(PyObject *);
PyAPI_FUNC(int) PyBytes_AsStringAndSize(PyObject *obj, char **s, Py_ssize_t *len);
PyAPI_FUNC(void) PyBytes_Concat(PyObject **, PyObject *);
PyAPI_FUNC(void) PyBytes_ConcatAndDel(PyObject **, PyObject *);
PyAPI_FUNC(PyObject *) PyBytes_Repr(PyObject *, int smartquotes);
PyAPI_FUNC(int) _PyBytes_Resize(PyObject **, Py_ssize_t);
PyAPI_FUNC(PyObject *) _PyBytes_Join(PyObject *sep, PyObject *iterable);

typedef struct {
    PyObject_VAR_HEAD
    Py_ssize_t ob_alloc;
    char *ob_bytes;
    char *ob_start;
    Py_ssize_t ob_exports;
} PyByteArrayObject;

PyAPI_DATA(PyTypeObject) PyByteArray_Type;
PyAPI_DATA(PyTypeObject) PyByteArrayIter_Type;
#define PyByteArray_Check(op) PyObject_TypeCheck((op), &PyByteArray_Type)
#define PyByteArray_CheckExact(op) Py_IS_TYPE((op), &PyByteArray_Type)
#define PyByteArray_AS_STRING(op) (((PyByteArrayObject *)(op))->ob_start)
#define PyByteArray_GET_SIZE(op) Py_SIZE(op)
PyAPI_FUNC(PyObject *) PyByteArray_FromStringAndSize(const char *, Py_ssize_t);
PyAPI_FUNC(PyObject *) PyByteArray_FromObject(PyObject *);
PyAPI_FUNC(int) PyByteArray_Resize(PyObject *, Py_ssize_t);
PyAPI_FUNC(char *) PyByteArray_AsString(PyObject *);
PyAPI_FUNC(Py_ssize_t) PyByteArray_Size(PyObject *);

#endif /* !Py_BYTESOBJECT_H */
