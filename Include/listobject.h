/* list: a growable array of references. */
#ifndef Py_LISTOBJECT_H
#define Py_LISTOBJECT_H

typedef struct {
    PyObject_VAR_HEAD
    PyObject **ob_item;   /* ob_size used, `allocated` slots */
    Py_ssize_t allocated;
} PyListObject;

PyAPI_DATA(PyTypeObject) PyList_Type;
PyAPI_DATA(PyTypeObject) PyListIter_Type;
PyAPI_DATA(PyTypeObject) PyListRevIter_Type;

#define PyList_Check(op) PyType_FastSubclass(Py_TYPE(op), Py_TPFLAGS_LIST_SUBCLASS)
#define PyList_CheckExact(op) Py_IS_TYPE((op), &PyList_Type)
#define _PyList_CAST(op) ((PyListObject *)(op))
#define PyList_GET_SIZE(op) Py_SIZE(op)
#define PyList_GET_ITEM(op, i) (_PyList_CAST(op)->ob_item[(i)])
#define PyList_SET_ITEM(op, i, v) ((void)(_PyList_CAST(op)->ob_item[(i)] = (v)))

PyAPI_FUNC(PyObject *) PyList_New(Py_ssize_t size);
PyAPI_FUNC(Py_ssize_t) PyList_Size(PyObject *);
PyAPI_FUNC(PyObject *) PyList_GetItem(PyObject *, Py_ssize_t);      /* borrowed */
PyAPI_FUNC(PyObject *) PyList_GetItemRef(PyObject *, Py_ssize_t);   /* new */
PyAPI_FUNC(int) PyList_SetItem(PyObject *, Py_ssize_t, PyObject *); /* steals */
PyAPI_FUNC(int) PyList_Insert(PyObject *, Py_ssize_t, PyObject *);
PyAPI_FUNC(int) PyList_Append(PyObject *, PyObject *);
PyAPI_FUNC(int) PyList_Extend(PyObject *list, PyObject *iterable);
PyAPI_FUNC(int) PyList_Clear(PyObject *list);
PyAPI_FUNC(PyObject *) PyList_GetSlice(PyObject *, Py_ssize_t, Py_ssize_t);
PyAPI_FUNC(int) PyList_SetSlice(PyObject *, Py_ssize_t, Py_ssize_t, PyObject *);
PyAPI_FUNC(int) PyList_Sort(PyObject *);
PyAPI_FUNC(int) PyList_Reverse(PyObject *);
PyAPI_FUNC(PyObject *) PyList_AsTuple(PyObject *);
/* Append, taking ownership of newitem (used by LIST_APPEND). */
PyAPI_FUNC(int) _PyList_AppendTakeRef(PyListObject *self, PyObject *newitem);
PyAPI_FUNC(PyObject *) _PyList_FromArraySteal(PyObject *const *src, Py_ssize_t n);
PyAPI_FUNC(PyObject *) _PyList_Extend(PyListObject *self, PyObject *iterable);

#endif /* !Py_LISTOBJECT_H */
