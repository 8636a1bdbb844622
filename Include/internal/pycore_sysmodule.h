/* Internal interface of the sys module (Python/sysmodule.c). */
#ifndef Py_INTERNAL_SYSMODULE_H
#define Py_INTERNAL_SYSMODULE_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

PyAPI_FUNC(PyObject *) _PySys_Create(PyThreadState *tstate);
PyAPI_FUNC(int) _PySys_SetArgv(int argc, char **argv);
PyAPI_FUNC(int) _PySys_SetExecutable(const char *argv0);
/* sys.flags, warnoptions, _xoptions, dont_write_bytecode from _Py_Config. */
PyAPI_FUNC(int) _PySys_UpdateConfig(void);
/* sys.float_info, int_info, hash_info, thread_info (Python/sysinfo.c). */
PyAPI_FUNC(int) _PySys_AddInfo(PyObject *sysdict);
PyAPI_FUNC(void) _PySys_FlushStdFiles(void);

#endif /* !Py_INTERNAL_SYSMODULE_H */
