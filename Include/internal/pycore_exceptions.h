/* Internal interface of the built-in exception classes (Objects/exceptions.c). */
#ifndef Py_INTERNAL_EXCEPTIONS_H
#define Py_INTERNAL_EXCEPTIONS_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* Start-up: ready every built-in exception type (parents first).  Call
   after the core types (object, type, tuple, dict, str) are ready. */
PyAPI_FUNC(int) _PyExc_InitTypes(PyInterpreterState *interp);
/* Put every built-in exception class (and the EnvironmentError and IOError
   aliases) into the builtins module's dict. */
PyAPI_FUNC(int) _PyBuiltins_AddExceptions(PyObject *bltinmod_dict);

#define _PyBaseExceptionGroup_Check(x) \
    PyObject_TypeCheck((x), (PyTypeObject *)PyExc_BaseExceptionGroup)

/* A MemoryError instance (new reference) that needs no memory while the
   start-up reserve lasts, for PyErr_NoMemory. */
PyAPI_FUNC(PyObject *) _PyExc_NewMemoryError(void);

/* If the raised exception is an AttributeError whose name and obj are not
   set yet, set them (the traceback printer uses them for "Did you mean"
   suggestions).  Leaves the exception raised. */
PyAPI_FUNC(void) _PyExc_SetAttributeErrorContext(PyObject *obj, PyObject *name);

/* BaseExceptionGroup(msg, excs) where excs is a list or tuple; the result
   is an ExceptionGroup when every item is an Exception. */
PyAPI_FUNC(PyObject *) _PyExc_CreateExceptionGroup(const char *msg, PyObject *excs);

/* `except*` support.  Split `eg` (any exception) by an exception type or
   tuple of types: *match and *rest receive new references or None.  A
   plain exception matches or not as a whole.  0 ok, -1 error. */
PyAPI_FUNC(int) _PyExc_SplitByType(PyObject *eg, PyObject *types, PyObject **match,
                                   PyObject **rest);
/* What a try/except* statement re-raises at its end (INTRINSIC_PREP_RERAISE_STAR):
   `orig` is the exception it caught, `excs` a list of what each except*
   clause raised or re-raised (None for nothing).  Re-raised parts keep the
   shape of `orig`; newly raised ones join them in a new ExceptionGroup.
   Returns a new reference (None when nothing is left to raise). */
PyAPI_FUNC(PyObject *) _PyExc_PrepReraiseStar(PyObject *orig, PyObject *excs);

/* Makers for the codec errors (encoding and reason as UTF-8 C strings). */
PyAPI_FUNC(PyObject *) _PyUnicodeEncodeError_Create(const char *encoding, PyObject *object,
                                                    Py_ssize_t start, Py_ssize_t end,
                                                    const char *reason);
PyAPI_FUNC(PyObject *) _PyUnicodeTranslateError_Create(PyObject *object, Py_ssize_t start,
                                                       Py_ssize_t end, const char *reason);

#endif /* !Py_INTERNAL_EXCEPTIONS_H */
