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

/* Python/obmalloc.c: blocks allocated and not yet freed, counted only when
   PYTHONCOUNTBLOCKS is set (else 0); sys.getallocatedblocks(). */
PyAPI_FUNC(Py_ssize_t) _PyMem_AllocatedBlocks(void);

#endif /* !Py_INTERNAL_SYSMODULE_H */
