/* types.GenericAlias: what subscripting a builtin class gives (list[int]). */
#ifndef Py_GENERICALIASOBJECT_H
#define Py_GENERICALIASOBJECT_H

PyAPI_DATA(PyTypeObject) Py_GenericAliasType;

/* A new alias of origin over args (a tuple, or one object). */
PyAPI_FUNC(PyObject *) Py_GenericAlias(PyObject *origin, PyObject *args);

#endif
