/* Internal interface of tracebacks and exception display (Python/traceback.c). */
#ifndef Py_INTERNAL_TRACEBACK_H
#define Py_INTERNAL_TRACEBACK_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* Print an exception the way CPython's default sys.excepthook does (the
   traceback module's format, without colour): chained exceptions, source
   lines with carets, notes, exception groups, "Did you mean" suggestions.
   `exception` is ignored (kept for the CPython signature); if `value` has
   no __traceback__, `tb` is attached first.  Errors while printing are
   swallowed; a pending exception is preserved.  file NULL or None means
   the C stderr. */
PyAPI_FUNC(void) _PyErr_Display(PyObject *file, PyObject *exception, PyObject *value, PyObject *tb);
/* The same text as a str (new reference), or NULL with an exception set. */
PyAPI_FUNC(PyObject *) _PyErr_FormatException(PyObject *value);

/* "Traceback (most recent call last):" and the entries of `tb`, in the
   format above.  0 ok, -1 error. */
PyAPI_FUNC(int) _PyTraceBack_Print(PyObject *tb, PyObject *file);

/* Add an entry for C code (a function `funcname` at `filename`:`lineno`)
   to the traceback of the exception being raised. */
PyAPI_FUNC(void) _PyTraceBack_Add(const char *funcname, const char *filename, int lineno);

/* Source text for a file name that is not a real file (e.g. "<string>"
   for -c, "<stdin>"): tracebacks read lines from it.  source may be None
   to forget. */
PyAPI_FUNC(int) _PyTraceBack_RegisterSource(PyObject *filename, PyObject *source);

/* Write line `lineno` of `filename`, stripped, after `indent` spaces and
   followed by a newline, to `f` (when f is not NULL); *line receives the
   stripped line as a str when line is not NULL.  Returns 0 on success, -1
   when the line cannot be read (no exception set) or on a write error. */
PyAPI_FUNC(int) _Py_DisplaySourceLine(PyObject *f, PyObject *filename, int lineno, int indent,
                                      int *truncation, PyObject **line);

#endif /* !Py_INTERNAL_TRACEBACK_H */
