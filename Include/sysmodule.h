/* The sys module. */
#ifndef Py_SYSMODULE_H
#define Py_SYSMODULE_H

PyAPI_FUNC(PyObject *) PySys_GetObject(const char *); /* borrowed */
PyAPI_FUNC(int) PySys_SetObject(const char *, PyObject *);
PyAPI_FUNC(void) PySys_WriteStdout(const char *format, ...);
PyAPI_FUNC(void) PySys_WriteStderr(const char *format, ...);
PyAPI_FUNC(void) PySys_FormatStdout(const char *format, ...);
PyAPI_FUNC(void) PySys_FormatStderr(const char *format, ...);
PyAPI_FUNC(int) PySys_Audit(const char *event, const char *argFormat, ...);

#endif /* !Py_SYSMODULE_H */
