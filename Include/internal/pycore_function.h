/* Internal interface of function objects (Objects/funcobject.c). */
#ifndef Py_INTERNAL_FUNCTION_H
#define Py_INTERNAL_FUNCTION_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* The function's version for the specializer: the value that call-site
   caches compare against.  Every function gets a fresh version when it is
   made and whenever __code__, __defaults__, __kwdefaults__ or __closure__
   change, so a cached version can never describe stale state.  Returns 0
   ("don't specialize") once the interpreter's counter is exhausted. */
PyAPI_FUNC(uint32_t) _PyFunction_GetVersionForCurrentState(PyFunctionObject *func);

/* Give `func` a new version (call after changing one of the fields above
   directly, as SET_FUNCTION_ATTRIBUTE does). */
PyAPI_FUNC(void) _PyFunction_NewVersion(PyFunctionObject *func);

/* A function for running `code` with explicit globals and builtins (exec,
   module bodies, class bodies): unlike PyFunction_New, builtins are not
   looked up in globals.  qualname may be NULL (the code's is used).
   New reference, or NULL with an exception set. */
PyAPI_FUNC(PyFunctionObject *) _PyFunction_FromCode(PyCodeObject *code, PyObject *globals,
                                                    PyObject *builtins, PyObject *qualname);

/* classmethod and staticmethod share this layout. */
typedef struct {
    PyObject_HEAD
    PyObject *cm_callable;
    PyObject *cm_dict;
} _PyClassMethodObject;

/* The callable wrapped by a classmethod or staticmethod (borrowed). */
#define _PyClassMethod_GET_FUNC(cm) (((_PyClassMethodObject *)(cm))->cm_callable)
#define _PyStaticMethod_GET_FUNC(sm) (((_PyClassMethodObject *)(sm))->cm_callable)

#endif /* !Py_INTERNAL_FUNCTION_H */
