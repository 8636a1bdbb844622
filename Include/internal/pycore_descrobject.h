/* Internal view of the descriptor types (Objects/descrobject.c). */
#ifndef Py_INTERNAL_DESCROBJECT_H
#define Py_INTERNAL_DESCROBJECT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* property instances (the interpreter's LOAD_ATTR_PROPERTY specialization
   reads prop_get directly). */
typedef struct {
    PyObject_HEAD
    PyObject *prop_get;
    PyObject *prop_set;
    PyObject *prop_del;
    PyObject *prop_doc;
    PyObject *prop_name;
    int getter_doc; /* the doc was copied from fget's __doc__ */
} _PyPropertyObject;

/* method-wrapper instances: a slot wrapper bound to an object. */
typedef struct {
    PyObject_HEAD
    PyWrapperDescrObject *descr;
    PyObject *self;
} _PyMethodWrapperObject;

/* "descriptor 'x' for 'T' objects doesn't apply to a 'U' object" unless
   obj is an instance of the descriptor's type.  0 ok, -1 error. */
PyAPI_FUNC(int) _PyDescr_CheckSelf(PyDescrObject *descr, PyObject *obj);

/* Builtin docs may begin with "name(signature)\n--\n\n".  These split
   such a doc into __doc__ (None when empty) and __text_signature__ (None
   when absent). */
PyAPI_FUNC(PyObject *) _PyDescr_DocFromInternalDoc(const char *name, const char *doc);
PyAPI_FUNC(PyObject *) _PyDescr_SignatureFromInternalDoc(const char *name, const char *doc);

#endif /* !Py_INTERNAL_DESCROBJECT_H */
