/* slice objects and the helpers that turn them into index ranges. */
#ifndef Py_SLICEOBJECT_H
#define Py_SLICEOBJECT_H

typedef struct {
    PyObject_HEAD
    PyObject *start, *stop, *step; /* never NULL; None when omitted */
} PySliceObject;

PyAPI_DATA(PyTypeObject) PySlice_Type;
#define PySlice_Check(op) Py_IS_TYPE((op), &PySlice_Type)

PyAPI_FUNC(PyObject *) PySlice_New(PyObject *start, PyObject *stop, PyObject *step);
/* Steals start and stop (used by BUILD_SLICE/BINARY_SLICE). */
PyAPI_FUNC(PyObject *) _PySlice_FromIndices(Py_ssize_t start, Py_ssize_t stop);
PyAPI_FUNC(PyObject *) _PyBuildSlice_ConsumeRefs(PyObject *start, PyObject *stop);
PyAPI_FUNC(int) PySlice_Unpack(PyObject *slice, Py_ssize_t *start, Py_ssize_t *stop, Py_ssize_t *step);
PyAPI_FUNC(Py_ssize_t) PySlice_AdjustIndices(Py_ssize_t length, Py_ssize_t *start,
                                             Py_ssize_t *stop, Py_ssize_t step);
PyAPI_FUNC(int) PySlice_GetIndicesEx(PyObject *r, Py_ssize_t length, Py_ssize_t *start,
                                     Py_ssize_t *stop, Py_ssize_t *step, Py_ssize_t *slicelength);
/* Clamp an index object to a Py_ssize_t (for slicing); 1 ok, 0 error. */
PyAPI_FUNC(int) _PyEval_SliceIndex(PyObject *, Py_ssize_t *);
PyAPI_FUNC(int) _PyEval_SliceIndexNotNone(PyObject *, Py_ssize_t *);

#endif /* !Py_SLICEOBJECT_H */
