/* Cells: the boxes that closures share variables through. */
#ifndef Py_CELLOBJECT_H
#define Py_CELLOBJECT_H

typedef struct {
    PyObject_HEAD
    PyObject *ob_ref; /* content, NULL when empty */
} PyCellObject;

PyAPI_DATA(PyTypeObject) PyCell_Type;
#define PyCell_Check(op) Py_IS_TYPE((op), &PyCell_Type)
#define PyCell_GET(op) (((PyCellObject *)(op))->ob_ref)
#define PyCell_SET(op, v) ((void)(((PyCellObject *)(op))->ob_ref = (v)))
PyAPI_FUNC(PyObject *) PyCell_New(PyObject *);
PyAPI_FUNC(PyObject *) PyCell_Get(PyObject *);
PyAPI_FUNC(int) PyCell_Set(PyObject *, PyObject *);

#endif /* !Py_CELLOBJECT_H */
