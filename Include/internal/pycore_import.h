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

/* ---- C extension modules in shared objects (Python/importdl.c) ---- */

/* _imp.extension_suffixes(): the file endings importlib looks for. */
PyAPI_FUNC(PyObject *) _PyImport_ExtensionSuffixes(void);
/* _imp.create_dynamic(spec): open spec.origin and run its PyInit_ function.
   A single-phase module comes back ready; a multi-phase one created but
   not yet executed (see _PyImport_ExecExtension). */
PyAPI_FUNC(PyObject *) _PyImport_CreateDynamic(PyObject *spec);
/* Run a multi-phase module's Py_mod_exec slots (no-op for others). */
PyAPI_FUNC(int) _PyImport_ExecExtension(PyObject *mod);
/* At finalization: forget the single-phase modules kept for re-import. */
PyAPI_FUNC(void) _PyImport_ClearExtensions(void);
/* sys.getdlopenflags() (Python/sysmodule.c). */
PyAPI_FUNC(int) _PySys_GetDlopenFlags(void);

#endif /* !Py_INTERNAL_IMPORT_H */
