/* Internal interface of Python/pythonrun.c and Python/pylifecycle.c. */
#ifndef Py_INTERNAL_PYTHONRUN_H
#define Py_INTERNAL_PYTHONRUN_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

PyAPI_FUNC(PyObject *) _PyBuiltin_Init(PyInterpreterState *interp);
/* Run a file as __main__; returns the process exit status. */
PyAPI_FUNC(int) _PyRun_MainFile(const char *filename);
/* Run a -c command as __main__; returns the process exit status. */
PyAPI_FUNC(int) _PyRun_MainCommand(const char *command);
/* Print the current exception (or exit for SystemExit); returns the exit
   status the process should use. */
PyAPI_FUNC(int) _PyRun_HandleUncaught(void);
/* Python/interactive.c: the basic REPL over `fp` until end of input. */
PyAPI_FUNC(int) _PyRun_InteractiveLoopObject(FILE *fp, PyObject *filename, PyCompilerFlags *flags);
/* sys._baserepl() */
PyAPI_FUNC(PyObject *) _PySys_BaseRepl(PyObject *module, PyObject *unused);
/* Give linecache the source of code that has no file (-c, the REPL). */
PyAPI_FUNC(void) _PyRun_RegisterWithLinecache(PyObject *code, PyObject *source, PyObject *name);
/* -i / PYTHONINSPECT will start the REPL after the main program. */
PyAPI_FUNC(int) _PyRun_InspectAfterMain(void);
/* From now on SystemExit ends the process again (the REPL has begun). */
PyAPI_FUNC(void) _PyRun_MarkReplStarted(void);
PyAPI_FUNC(int) _Py_InitializeMain(int argc, char **argv, int script_index, int run_module);
/* Builtin module table (Modules/config.c) */
struct _inittab {
    const char *name;
    PyObject *(*initfunc)(void);
};
PyAPI_DATA(struct _inittab) _PyImport_Inittab[];
PyAPI_FUNC(int) _PyImport_Init(PyInterpreterState *interp);

#endif /* !Py_INTERNAL_PYTHONRUN_H */
