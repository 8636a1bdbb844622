/* Importing modules (Python/import.c). */
#ifndef Py_IMPORT_H
#define Py_IMPORT_H

PyAPI_FUNC(PyObject *) PyImport_ImportModule(const char *name);
PyAPI_FUNC(PyObject *) PyImport_Import(PyObject *name);
PyAPI_FUNC(PyObject *) PyImport_ImportModuleLevelObject(PyObject *name, PyObject *globals,
                                                        PyObject *locals, PyObject *fromlist, int level);
PyAPI_FUNC(PyObject *) PyImport_GetModuleDict(void);
PyAPI_FUNC(PyObject *) PyImport_GetModule(PyObject *name);
PyAPI_FUNC(PyObject *) PyImport_AddModuleRef(const char *name);
PyAPI_FUNC(PyObject *) PyImport_AddModuleObject(PyObject *name);
PyAPI_FUNC(int) PyImport_AppendInittab(const char *name, PyObject *(*initfunc)(void));

#endif /* !Py_IMPORT_H */
