/* Context variables (Python/context.c): contextvars.Context, ContextVar
   and Token.  Each thread has a current Context; a ContextVar's value is
   looked up in it. */
#ifndef Py_CONTEXT_H
#define Py_CONTEXT_H

PyAPI_DATA(PyTypeObject) PyContext_Type;
PyAPI_DATA(PyTypeObject) PyContextVar_Type;
PyAPI_DATA(PyTypeObject) PyContextToken_Type;

#define PyContext_CheckExact(o) Py_IS_TYPE((o), &PyContext_Type)
#define PyContextVar_CheckExact(o) Py_IS_TYPE((o), &PyContextVar_Type)
#define PyContextToken_CheckExact(o) Py_IS_TYPE((o), &PyContextToken_Type)

/* A new empty context, a copy of ctx, a copy of the current one. */
PyAPI_FUNC(PyObject *) PyContext_New(void);
PyAPI_FUNC(PyObject *) PyContext_Copy(PyObject *ctx);
PyAPI_FUNC(PyObject *) PyContext_CopyCurrent(void);
/* Make ctx the thread's current context / go back to the previous one.
   A context can be entered only once at a time. */
PyAPI_FUNC(int) PyContext_Enter(PyObject *ctx);
PyAPI_FUNC(int) PyContext_Exit(PyObject *ctx);

/* A new variable; def (may be NULL) is its default value. */
PyAPI_FUNC(PyObject *) PyContextVar_New(const char *name, PyObject *def);
/* *value: the variable's value in the current context, else
   default_value, else its default, else NULL.  -1 only on error. */
PyAPI_FUNC(int) PyContextVar_Get(PyObject *var, PyObject *default_value, PyObject **value);
/* Set in the current context; returns a Token for PyContextVar_Reset. */
PyAPI_FUNC(PyObject *) PyContextVar_Set(PyObject *var, PyObject *value);
PyAPI_FUNC(int) PyContextVar_Reset(PyObject *var, PyObject *token);

#endif /* !Py_CONTEXT_H */
