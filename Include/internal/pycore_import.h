/* Internal interface of the import system (Python/import.c). */
#ifndef Py_INTERNAL_IMPORT_H
#define Py_INTERNAL_IMPORT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* sys.implementation.cache_tag: names our files in __pycache__. */
#define _PY_CACHE_TAG "lazypy-314"

/* Load importlib's bootstrap from the stdlib in `stdlib_dir` and make it
   the import system: 1 done, 0 no stdlib there, -1 error. */
PyAPI_FUNC(int) _PyImport_InitExternal(PyInterpreterState *interp, const char *stdlib_dir);
/* sys.builtin_module_names (a sorted tuple). */
PyAPI_FUNC(PyObject *) _PyImport_BuiltinModuleNames(void);
/* After fork(), in the child. */
PyAPI_FUNC(void) _PyImport_ReInitLock(void);
/* getattr(import(modname), attrname): new reference or NULL. */
PyAPI_FUNC(PyObject *) _PyImport_GetModuleAttrString(const char *modname, const char *attrname);
/* sys.modules[name] if there (new reference), else NULL, no error. */
PyAPI_FUNC(PyObject *) _PyImport_GetModuleIfLoaded(const char *name);
PyAPI_FUNC(PyObject *) PyInit__imp(void);

#endif /* !Py_INTERNAL_IMPORT_H */
