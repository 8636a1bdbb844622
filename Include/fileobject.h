/* Python file objects from C (Objects/fileobject.c).  Early in start-up
   sys.stdout and sys.stderr are "std printers", minimal file objects over
   the C file descriptors; then io streams replace them. */
#ifndef Py_FILEOBJECT_H
#define Py_FILEOBJECT_H

#define PY_STDIOTEXTMODE "b"

/* Write str(v) (or repr(v) without Py_PRINT_RAW) to file f. */
PyAPI_FUNC(int) PyFile_WriteObject(PyObject *v, PyObject *f, int flags);
PyAPI_FUNC(int) PyFile_WriteString(const char *s, PyObject *f);
PyAPI_FUNC(PyObject *) PyFile_GetLine(PyObject *f, int n);
PyAPI_FUNC(PyObject *) PyFile_NewStdPrinter(int fd);
PyAPI_FUNC(PyObject *) PyFile_FromFd(int fd, const char *name, const char *mode, int buffering,
                                     const char *encoding, const char *errors, const char *newline,
                                     int closefd);
PyAPI_FUNC(int) PyObject_AsFileDescriptor(PyObject *o);
PyAPI_DATA(PyTypeObject) PyStdPrinter_Type;

#endif /* !Py_FILEOBJECT_H */
