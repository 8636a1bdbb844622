/* The sys module. */
#ifndef Py_SYSMODULE_H
#define Py_SYSMODULE_H

PyAPI_FUNC(PyObject *) PySys_GetObject(const char *); /* borrowed */
PyAPI_FUNC(int) PySys_SetObject(const char *, PyObject *);
PyAPI_FUNC(void) PySys_WriteStdout(const char *format, ...);
PyAPI_FUNC(void) PySys_WriteStderr(const char *format, ...);
PyAPI_FUNC(void) PySys_FormatStdout(const char *format, ...);
PyAPI_FUNC(void) PySys_FormatStderr(const char *format, ...);
/* Audit events (PEP 578): hooks see (event, args tuple built from the
   format); a hook that raises makes the call fail with -1. */
typedef int (*Py_AuditHookFunction)(const char *event, PyObject *args, void *user_data);
PyAPI_FUNC(int) PySys_Audit(const char *event, const char *format, ...);
PyAPI_FUNC(int) PySys_AddAuditHook(Py_AuditHookFunction hook, void *user_data);

/* Deprecated (3.12): the -O level; read sys.flags.optimize instead. */
PyAPI_DATA(int) Py_OptimizeFlag;

#endif /* !Py_SYSMODULE_H */
