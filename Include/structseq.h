/* Struct sequences: named tuples implemented in C (Objects/structseq.c). */
#ifndef Py_STRUCTSEQ_H
#define Py_STRUCTSEQ_H

typedef struct PyStructSequence_Field {
    const char *name;
    const char *doc;
} PyStructSequence_Field;

typedef struct PyStructSequence_Desc {
    const char *name;
    const char *doc;
    PyStructSequence_Field *fields; /* terminated by {NULL, NULL} */
    int n_in_sequence;              /* how many fields are tuple items */
} PyStructSequence_Desc;

PyAPI_DATA(const char *const) PyStructSequence_UnnamedField;

PyAPI_FUNC(void) PyStructSequence_InitType(PyTypeObject *type, PyStructSequence_Desc *desc);
PyAPI_FUNC(int) PyStructSequence_InitType2(PyTypeObject *type, PyStructSequence_Desc *desc);
PyAPI_FUNC(PyTypeObject *) PyStructSequence_NewType(PyStructSequence_Desc *desc);
PyAPI_FUNC(PyObject *) PyStructSequence_New(PyTypeObject *type);
PyAPI_FUNC(void) PyStructSequence_SetItem(PyObject *, Py_ssize_t, PyObject *); /* steals */
PyAPI_FUNC(PyObject *) PyStructSequence_GetItem(PyObject *, Py_ssize_t);     /* borrowed */
#define PyStructSequence_SET_ITEM PyStructSequence_SetItem
#define PyStructSequence_GET_ITEM PyStructSequence_GetItem

/* types.SimpleNamespace (Objects/namespaceobject.c) */
PyAPI_DATA(PyTypeObject) _PyNamespace_Type;
PyAPI_FUNC(PyObject *) _PyNamespace_New(PyObject *kwds);

#endif /* !Py_STRUCTSEQ_H */
