/* Argument parsing and value building for C functions (Python/getargs.c,
   Python/modsupport.c). */
#ifndef Py_MODSUPPORT_H
#define Py_MODSUPPORT_H

#include <stdarg.h>

PyAPI_FUNC(int) PyArg_Parse(PyObject *, const char *, ...);
PyAPI_FUNC(int) PyArg_ParseTuple(PyObject *, const char *, ...);
PyAPI_FUNC(int) PyArg_ParseTupleAndKeywords(PyObject *, PyObject *, const char *, char *const *, ...);
PyAPI_FUNC(int) PyArg_VaParse(PyObject *, const char *, va_list);
PyAPI_FUNC(int) PyArg_VaParseTupleAndKeywords(PyObject *, PyObject *, const char *, char *const *, va_list);
PyAPI_FUNC(int) PyArg_ValidateKeywordArguments(PyObject *);
PyAPI_FUNC(int) PyArg_UnpackTuple(PyObject *, const char *, Py_ssize_t, Py_ssize_t, ...);
PyAPI_FUNC(PyObject *) Py_BuildValue(const char *, ...);
PyAPI_FUNC(PyObject *) Py_VaBuildValue(const char *, va_list);

/* Helpers for METH_FASTCALL functions.  Like the PyArg_Parse* family they
   return 1 on success and 0 with an exception set on failure, so write
   `if (!_PyArg_CheckPositional("f", nargs, 1, 2)) return NULL;`. */
PyAPI_FUNC(int) _PyArg_CheckPositional(const char *funcname, Py_ssize_t nargs, Py_ssize_t min, Py_ssize_t max);
PyAPI_FUNC(int) _PyArg_NoKeywords(const char *funcname, PyObject *kwargs);
PyAPI_FUNC(int) _PyArg_NoKwnames(const char *funcname, PyObject *kwnames);
PyAPI_FUNC(int) _PyArg_NoPositional(const char *funcname, PyObject *args);
PyAPI_FUNC(int) _PyArg_UnpackStack(PyObject *const *args, Py_ssize_t nargs, const char *name,
                                   Py_ssize_t min, Py_ssize_t max, ...);
/* Parse vectorcall-style arguments against a list of keyword names:
   fills out[0..maxpos+kwonly-1] (borrowed; NULL for missing optional ones).
   `kwlist` is NULL-terminated; names of positional-only parameters are "".
   The first maxpos names may be given positionally, the rest only by
   keyword; the first minpos are required, and so are the first minkw
   keyword-only ones.  Returns 1 on success, 0 with TypeError set. */
PyAPI_FUNC(int) _PyArg_ParseStackAndKeywords(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                                             const char *funcname, const char *const *kwlist,
                                             Py_ssize_t minpos, Py_ssize_t maxpos, Py_ssize_t minkw,
                                             PyObject **out);

#define Py_CLEANUP_SUPPORTED 0x20000

#endif /* !Py_MODSUPPORT_H */
