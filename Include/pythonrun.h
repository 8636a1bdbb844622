/* Running files and strings at the top level (Python/pythonrun.c). */
#ifndef Py_PYTHONRUN_H
#define Py_PYTHONRUN_H

PyAPI_FUNC(PyObject *) PyRun_StringFlags(const char *str, int start, PyObject *globals,
                                         PyObject *locals, PyCompilerFlags *flags);
#define PyRun_String(str, s, g, l) PyRun_StringFlags((str), (s), (g), (l), NULL)
PyAPI_FUNC(int) PyRun_SimpleStringFlags(const char *command, PyCompilerFlags *flags);
#define PyRun_SimpleString(s) PyRun_SimpleStringFlags((s), NULL)
PyAPI_FUNC(int) PyRun_SimpleFileExFlags(FILE *fp, const char *filename, int closeit, PyCompilerFlags *flags);
PyAPI_FUNC(PyObject *) PyRun_FileExFlags(FILE *fp, const char *filename, int start, PyObject *globals,
                                         PyObject *locals, int closeit, PyCompilerFlags *flags);
PyAPI_FUNC(int) PyRun_InteractiveLoopFlags(FILE *fp, const char *filename, PyCompilerFlags *flags);
#define PyRun_InteractiveLoop(fp, name) PyRun_InteractiveLoopFlags((fp), (name), NULL)
PyAPI_FUNC(int) PyRun_InteractiveOneObject(FILE *fp, PyObject *filename, PyCompilerFlags *flags);
PyAPI_FUNC(int) PyRun_InteractiveOneFlags(FILE *fp, const char *filename, PyCompilerFlags *flags);
#define PyRun_InteractiveOne(fp, name) PyRun_InteractiveOneFlags((fp), (name), NULL)
/* The interactive loop for a terminal (Py_FdIsInteractive), else the whole file. */
PyAPI_FUNC(int) PyRun_AnyFileExFlags(FILE *fp, const char *filename, int closeit, PyCompilerFlags *flags);
#define PyRun_AnyFile(fp, name) PyRun_AnyFileExFlags((fp), (name), 0, NULL)
#define PyRun_AnyFileEx(fp, name, closeit) PyRun_AnyFileExFlags((fp), (name), (closeit), NULL)
#define PyRun_AnyFileFlags(fp, name, flags) PyRun_AnyFileExFlags((fp), (name), 0, (flags))
PyAPI_FUNC(int) Py_FdIsInteractive(FILE *fp, const char *filename);
/* Called while the interactive loop waits for a line (GUI event loops). */
PyAPI_DATA(int) (*PyOS_InputHook)(void);

#endif /* !Py_PYTHONRUN_H */
