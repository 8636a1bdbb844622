/* Module objects and module definitions for C modules. */
#ifndef Py_MODULEOBJECT_H
#define Py_MODULEOBJECT_H

PyAPI_DATA(PyTypeObject) PyModule_Type;
PyAPI_DATA(PyTypeObject) PyModuleDef_Type;
#define PyModule_Check(op) PyObject_TypeCheck((op), &PyModule_Type)
#define PyModule_CheckExact(op) Py_IS_TYPE((op), &PyModule_Type)

typedef struct PyModuleDef_Base {
    PyObject_HEAD
    PyObject *(*m_init)(void);
    Py_ssize_t m_index;
    PyObject *m_copy;
} PyModuleDef_Base;
#define PyModuleDef_HEAD_INIT {PyObject_HEAD_INIT(NULL) NULL, 0, NULL}

typedef struct PyModuleDef_Slot {
    int slot;
    void *value;
} PyModuleDef_Slot;
#define Py_mod_create 1
#define Py_mod_exec 2
#define Py_mod_multiple_interpreters 3
#define Py_mod_gil 4
/* Values of the Py_mod_multiple_interpreters and Py_mod_gil slots (the
   runtime has one interpreter and a GIL, so they are only recorded). */
#define Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED ((void *)0)
#define Py_MOD_MULTIPLE_INTERPRETERS_SUPPORTED ((void *)1)
#define Py_MOD_PER_INTERPRETER_GIL_SUPPORTED ((void *)2)
#define Py_MOD_GIL_USED ((void *)0)
#define Py_MOD_GIL_NOT_USED ((void *)1)

typedef struct PyModuleDef {
    PyModuleDef_Base m_base;
    const char *m_name;
    const char *m_doc;
    Py_ssize_t m_size;
    PyMethodDef *m_methods;
    PyModuleDef_Slot *m_slots;
    traverseproc m_traverse;
    inquiry m_clear;
    freefunc m_free;
} PyModuleDef;

typedef struct {
    PyObject_HEAD
    PyObject *md_dict;
    PyModuleDef *md_def;
    void *md_state;
    PyObject *md_weaklist;
    PyObject *md_name;
} PyModuleObject;

PyAPI_FUNC(PyObject *) PyModule_NewObject(PyObject *name);
PyAPI_FUNC(PyObject *) PyModule_New(const char *name);
PyAPI_FUNC(PyObject *) PyModule_GetDict(PyObject *); /* borrowed */
PyAPI_FUNC(PyObject *) PyModule_GetNameObject(PyObject *);
PyAPI_FUNC(const char *) PyModule_GetName(PyObject *);
PyAPI_FUNC(PyObject *) PyModule_GetFilenameObject(PyObject *);
PyAPI_FUNC(PyModuleDef *) PyModule_GetDef(PyObject *);
PyAPI_FUNC(void *) PyModule_GetState(PyObject *);
PyAPI_FUNC(PyObject *) PyModuleDef_Init(PyModuleDef *);
#define PYTHON_API_VERSION 1013
PyAPI_FUNC(PyObject *) PyModule_Create2(PyModuleDef *, int apiver);
#define PyModule_Create(module) PyModule_Create2((module), PYTHON_API_VERSION)
PyAPI_FUNC(int) PyModule_AddObjectRef(PyObject *mod, const char *, PyObject *value);
PyAPI_FUNC(int) PyModule_Add(PyObject *mod, const char *, PyObject *value); /* steals */
PyAPI_FUNC(int) PyModule_AddObject(PyObject *mod, const char *, PyObject *value);
PyAPI_FUNC(int) PyModule_AddIntConstant(PyObject *, const char *, long);
PyAPI_FUNC(int) PyModule_AddStringConstant(PyObject *, const char *, const char *);
PyAPI_FUNC(int) PyModule_AddType(PyObject *module, PyTypeObject *type);
PyAPI_FUNC(int) PyModule_AddFunctions(PyObject *, PyMethodDef *);
PyAPI_FUNC(int) PyModule_ExecDef(PyObject *module, PyModuleDef *def);
PyAPI_FUNC(PyObject *) PyModule_FromDefAndSpec2(PyModuleDef *def, PyObject *spec, int module_api_version);
#define PyModule_FromDefAndSpec(module, spec) \
    PyModule_FromDefAndSpec2((module), (spec), PYTHON_API_VERSION)
PyAPI_FUNC(int) PyModule_SetDocString(PyObject *, const char *);
#define PyModule_AddIntMacro(m, c) PyModule_AddIntConstant((m), #c, (c))
#define PyModule_AddStringMacro(m, c) PyModule_AddStringConstant((m), #c, (c))

#endif /* !Py_MODULEOBJECT_H */
