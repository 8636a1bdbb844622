/* os.fspath() for C code (Modules/posixmodule.c). */
#ifndef Py_OSMODULE_H
#define Py_OSMODULE_H

/* Returns a new reference to a str or bytes: the argument itself when it
   is one, else what its __fspath__() gives.  NULL with TypeError set for
   anything else. */
PyAPI_FUNC(PyObject *) PyOS_FSPath(PyObject *path);

#endif /* !Py_OSMODULE_H */
