/* Internal interface of module objects (Objects/moduleobject.c). */
#ifndef Py_INTERNAL_MODULEOBJECT_H
#define Py_INTERNAL_MODULEOBJECT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* Unchecked accessors: `mod` must be a module (PyModule_Check). */
static inline PyObject *
_PyModule_GetDict(PyObject *mod)
{
    return ((PyModuleObject *)mod)->md_dict; /* borrowed, never NULL */
}

static inline PyModuleDef *
_PyModule_GetDef(PyObject *mod)
{
    return ((PyModuleObject *)mod)->md_def;
}

static inline void *
_PyModule_GetState(PyObject *mod)
{
    return ((PyModuleObject *)mod)->md_state;
}

/* True when spec._initializing is true: the module is still running its
   body (used for the "partially initialized module" message). -1 on
   error. */
PyAPI_FUNC(int) _PyModuleSpec_IsInitializing(PyObject *spec);

/* Shutdown: replace the values of a module dict by None, names starting
   with an underscore first, __builtins__ last of all (kept), so that
   destructors running meanwhile still find most things. */
PyAPI_FUNC(void) _PyModule_ClearDict(PyObject *dict);
/* The same for a module's own dict. */
PyAPI_FUNC(void) _PyModule_Clear(PyObject *mod);

#endif /* !Py_INTERNAL_MODULEOBJECT_H */
