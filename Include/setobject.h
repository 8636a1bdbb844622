/* set and frozenset: hash tables of keys. */
#ifndef Py_SETOBJECT_H
#define Py_SETOBJECT_H

typedef struct {
    PyObject *key;
    Py_hash_t hash;
} setentry;

#define PySet_MINSIZE 8

typedef struct {
    PyObject_HEAD
    Py_ssize_t fill;   /* active + dummy entries */
    Py_ssize_t used;   /* active entries */
    Py_ssize_t mask;   /* table size - 1 */
    setentry *table;
    Py_hash_t hash;    /* frozenset only, -1 until computed */
    Py_ssize_t finger;
    setentry smalltable[PySet_MINSIZE];
    PyObject *weakreflist;
} PySetObject;

PyAPI_DATA(PyTypeObject) PySet_Type;
PyAPI_DATA(PyTypeObject) PyFrozenSet_Type;
PyAPI_DATA(PyTypeObject) PySetIter_Type;

#define PyFrozenSet_CheckExact(ob) Py_IS_TYPE((ob), &PyFrozenSet_Type)
#define PyFrozenSet_Check(ob) PyObject_TypeCheck((ob), &PyFrozenSet_Type)
#define PySet_CheckExact(op) Py_IS_TYPE((op), &PySet_Type)
#define PySet_Check(ob) PyObject_TypeCheck((ob), &PySet_Type)
#define PyAnySet_CheckExact(ob) (PySet_CheckExact(ob) || PyFrozenSet_CheckExact(ob))
#define PyAnySet_Check(ob) (PySet_Check(ob) || PyFrozenSet_Check(ob))
#define PySet_GET_SIZE(so) (((PySetObject *)(so))->used)

PyAPI_FUNC(PyObject *) PySet_New(PyObject *);
PyAPI_FUNC(PyObject *) PyFrozenSet_New(PyObject *);
PyAPI_FUNC(int) PySet_Add(PyObject *set, PyObject *key);
PyAPI_FUNC(int) PySet_Clear(PyObject *set);
PyAPI_FUNC(int) PySet_Contains(PyObject *anyset, PyObject *key);
PyAPI_FUNC(int) PySet_Discard(PyObject *set, PyObject *key);
PyAPI_FUNC(PyObject *) PySet_Pop(PyObject *set);
PyAPI_FUNC(Py_ssize_t) PySet_Size(PyObject *anyset);
PyAPI_FUNC(int) _PySet_Update(PyObject *set, PyObject *iterable);
PyAPI_FUNC(int) _PySet_NextEntry(PyObject *set, Py_ssize_t *pos, PyObject **key, Py_hash_t *hash);

#endif /* !Py_SETOBJECT_H */
