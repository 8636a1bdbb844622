/* Internal interface of tracebacks and exception display (Python/traceback.c). */
#ifndef Py_INTERNAL_TRACEBACK_H
#define Py_INTERNAL_TRACEBACK_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* Print an exception as sys.excepthook does (Python/pythonrun.c): through
   the traceback module when it can be used (colour, carets, suggestions
   and all), else with a plain C rendering (chained exceptions, entries
   with their source lines, notes, groups, the SyntaxError layout).
   `exception` is ignored (kept for the CPython signature); if `value` has
   no __traceback__, `tb` is attached first.  Errors while printing are
   swallowed; a pending exception is preserved.  file NULL or None means
   sys.stderr. */
PyAPI_FUNC(void) _PyErr_Display(PyObject *file, PyObject *exception, PyObject *value, PyObject *tb);

/* "Traceback (most recent call last):" and the entries of `tb`, plain
   (no carets), honouring sys.tracebacklimit.  0 ok, -1 error. */
PyAPI_FUNC(int) _PyTraceBack_Print(PyObject *tb, PyObject *file);
/* The same text as a str (new reference), or NULL with an exception set. */
PyAPI_FUNC(PyObject *) _PyTraceBack_Format(PyObject *tb);

/* Add an entry for C code (a function `funcname` at `filename`:`lineno`)
   to the traceback of the exception being raised. */
PyAPI_FUNC(void) _PyTraceBack_Add(const char *funcname, const char *filename, int lineno);

/* Source text for a file name that is not a real file (e.g. "<string>"
   for -c, "<stdin>"): tracebacks read lines from it.  source may be None
   to forget. */
PyAPI_FUNC(int) _PyTraceBack_RegisterSource(PyObject *filename, PyObject *source);

/* Line `lineno` of `filename` (a file, or a registered source), stripped;
   NULL without an exception when it cannot be read. */
PyAPI_FUNC(PyObject *) _PyTraceBack_SourceLine(PyObject *filename, int lineno);
/* At finalization: forget the registered sources. */
PyAPI_FUNC(void) _PyTraceBack_Fini(void);

#endif /* !Py_INTERNAL_TRACEBACK_H */
