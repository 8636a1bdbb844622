/* Internal set helpers, shared with the dict views. */
#ifndef Py_INTERNAL_SETOBJECT_H
#define Py_INTERNAL_SETOBJECT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* In-place versions of the set methods, accepting any iterable as
   `other`; 0 on success, -1 with an exception set. */
PyAPI_FUNC(int) _PySet_DifferenceUpdate(PyObject *set, PyObject *other);
PyAPI_FUNC(int) _PySet_IntersectionUpdate(PyObject *set, PyObject *other);
PyAPI_FUNC(int) _PySet_SymmetricDifferenceUpdate(PyObject *set, PyObject *other);

/* Add/contains with a hash the caller already has. */
PyAPI_FUNC(int) _PySet_AddKnownHash(PyObject *set, PyObject *key, Py_hash_t hash);
PyAPI_FUNC(int) _PySet_Contains(PySetObject *so, PyObject *key);

#endif /* !Py_INTERNAL_SETOBJECT_H */
