/* Generic iterators: over a __getitem__ sequence, and callable/sentinel. */
#ifndef Py_ITEROBJECT_H
#define Py_ITEROBJECT_H

PyAPI_DATA(PyTypeObject) PySeqIter_Type;
PyAPI_DATA(PyTypeObject) PyCallIter_Type;
#define PySeqIter_Check(op) Py_IS_TYPE((op), &PySeqIter_Type)
PyAPI_FUNC(PyObject *) PySeqIter_New(PyObject *);
#define PyCallIter_Check(op) Py_IS_TYPE((op), &PyCallIter_Type)
PyAPI_FUNC(PyObject *) PyCallIter_New(PyObject *, PyObject *);

#endif /* !Py_ITEROBJECT_H */
