/* range: an immutable arithmetic progression. */
#ifndef Py_RANGEOBJECT_H
#define Py_RANGEOBJECT_H

PyAPI_DATA(PyTypeObject) PyRange_Type;
PyAPI_DATA(PyTypeObject) PyRangeIter_Type;
PyAPI_DATA(PyTypeObject) PyLongRangeIter_Type;
#define PyRange_Check(op) Py_IS_TYPE((op), &PyRange_Type)

#endif /* !Py_RANGEOBJECT_H */
