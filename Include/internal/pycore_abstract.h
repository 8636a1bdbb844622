/* Internal helpers of the abstract object layer (Objects/abstract.c). */
#ifndef Py_INTERNAL_ABSTRACT_H
#define Py_INTERNAL_ABSTRACT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* Does the object's type implement __index__? */
static inline int
_PyIndex_Check(PyObject *obj)
{
    PyNumberMethods *nb = Py_TYPE(obj)->tp_as_number;
    return nb != NULL && nb->nb_index != NULL;
}

/* Like PyNumber_Index, but an int subclass is returned as is (no
   conversion to an exact int). */
PyAPI_FUNC(PyObject *) _PyNumber_Index(PyObject *o);

/* Two-argument power and in-place power, for the BINARY_OP table. */
PyAPI_FUNC(PyObject *) _PyNumber_PowerNoMod(PyObject *lhs, PyObject *rhs);
PyAPI_FUNC(PyObject *) _PyNumber_InPlacePowerNoMod(PyObject *lhs, PyObject *rhs);

/* Linear search of an iterable.  COUNT returns the number of matches,
   INDEX the first index (ValueError if absent), CONTAINS 1 or 0. */
#define PY_ITERSEARCH_COUNT 1
#define PY_ITERSEARCH_INDEX 2
#define PY_ITERSEARCH_CONTAINS 3
PyAPI_FUNC(Py_ssize_t) _PySequence_IterSearch(PyObject *seq, PyObject *obj, int operation);

/* isinstance/issubclass without the __instancecheck__/__subclasscheck__
   hooks (what type.__instancecheck__ and type.__subclasscheck__ do). */
PyAPI_FUNC(int) _PyObject_RealIsInstance(PyObject *inst, PyObject *cls);
PyAPI_FUNC(int) _PyObject_RealIsSubclass(PyObject *derived, PyObject *cls);

/* tp_iternext of it under the C stack check: iterators that wrap
   iterators (map, zip, enumerate, itertools...) recurse once per level, so
   a chain a million deep must end in RecursionError, not a crash.  Returns
   what tp_iternext returns (NULL with or without an exception). */
PyAPI_FUNC(PyObject *) _PyIter_NextGuarded(PyObject *it);

/* Does the object support len()? */
PyAPI_FUNC(int) _PyObject_HasLen(PyObject *o);

#endif /* !Py_INTERNAL_ABSTRACT_H */
