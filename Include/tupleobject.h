/* tuple: an immutable array of references, items stored inline. */
#ifndef Py_TUPLEOBJECT_H
#define Py_TUPLEOBJECT_H

typedef struct {
    PyObject_VAR_HEAD
    Py_hash_t ob_hash; /* cached hash, -1 until computed */
    PyObject *ob_item[1];
} PyTupleObject;

PyAPI_DATA(PyTypeObject) PyTuple_Type;
PyAPI_DATA(PyTypeObject) PyTupleIter_Type;

#define PyTuple_Check(op) PyType_FastSubclass(Py_TYPE(op), Py_TPFLAGS_TUPLE_SUBCLASS)
#define PyTuple_CheckExact(op) Py_IS_TYPE((op), &PyTuple_Type)
#define _PyTuple_CAST(op) ((PyTupleObject *)(op))
#define PyTuple_GET_SIZE(op) Py_SIZE(op)
#define PyTuple_GET_ITEM(op, i) (_PyTuple_CAST(op)->ob_item[(i)])
#define PyTuple_SET_ITEM(op, i, v) ((void)(_PyTuple_CAST(op)->ob_item[(i)] = (v)))
#define _PyTuple_ITEMS(op) (_PyTuple_CAST(op)->ob_item)

PyAPI_FUNC(PyObject *) PyTuple_New(Py_ssize_t size);
PyAPI_FUNC(Py_ssize_t) PyTuple_Size(PyObject *);
PyAPI_FUNC(PyObject *) PyTuple_GetItem(PyObject *, Py_ssize_t);
PyAPI_FUNC(int) PyTuple_SetItem(PyObject *, Py_ssize_t, PyObject *);
PyAPI_FUNC(PyObject *) PyTuple_GetSlice(PyObject *, Py_ssize_t, Py_ssize_t);
PyAPI_FUNC(PyObject *) PyTuple_Pack(Py_ssize_t, ...);
PyAPI_FUNC(int) _PyTuple_Resize(PyObject **, Py_ssize_t);
PyAPI_FUNC(PyObject *) _PyTuple_FromArray(PyObject *const *, Py_ssize_t);
PyAPI_FUNC(PyObject *) _PyTuple_FromArraySteal(PyObject *const *, Py_ssize_t);

#endif /* !Py_TUPLEOBJECT_H */
