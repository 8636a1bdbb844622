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

#endif /* !Py_PYTHONRUN_H */
