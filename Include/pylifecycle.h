/* Starting and stopping the runtime. */
#ifndef Py_PYLIFECYCLE_H
#define Py_PYLIFECYCLE_H

PyAPI_FUNC(void) Py_Initialize(void);
PyAPI_FUNC(void) Py_InitializeEx(int);
PyAPI_FUNC(int) Py_IsInitialized(void);
PyAPI_FUNC(void) Py_Finalize(void);
PyAPI_FUNC(int) Py_FinalizeEx(void);
PyAPI_FUNC(void) _Py_NO_RETURN Py_Exit(int);
PyAPI_FUNC(void) _Py_NO_RETURN Py_FatalError(const char *message);
#define Py_FatalError(message) _Py_FatalErrorFunc(__func__, (message))
PyAPI_FUNC(void) _Py_NO_RETURN _Py_FatalErrorFunc(const char *func, const char *message);
PyAPI_FUNC(int) Py_AtExit(void (*func)(void));
PyAPI_FUNC(int) Py_Main(int argc, wchar_t **argv);
/* sys.version and its parts (Modules/getbuildinfo.c). */
PyAPI_FUNC(const char *) Py_GetVersion(void);
PyAPI_FUNC(const char *) Py_GetBuildInfo(void);
PyAPI_FUNC(const char *) Py_GetCompiler(void);
PyAPI_FUNC(int) Py_BytesMain(int argc, char **argv);
/* -u: sys.stdout and sys.stderr write through (Python/pylifecycle.c). */

#endif /* !Py_PYLIFECYCLE_H */
