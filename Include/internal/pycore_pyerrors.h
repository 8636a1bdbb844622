/* Internal error helpers shared by the parser, compiler and runtime
   (Python/errors.c). */
#ifndef Py_INTERNAL_PYERRORS_H
#define Py_INTERNAL_PYERRORS_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* Raise SyntaxError(msg, (filename, lineno, offset, text, end_lineno,
   end_offset)).  col_offset and end_col_offset are 0-based UTF-8 byte
   offsets into the line (as the AST stores them); they are converted to
   the 1-based character offsets SyntaxError reports, using the source
   line read from `filename` when it exists (text is None otherwise).
   end_lineno/end_col_offset may be -1 when unknown. */
PyAPI_FUNC(void) _PyErr_RaiseSyntaxError(PyObject *msg, PyObject *filename, int lineno,
                                         int col_offset, int end_lineno, int end_col_offset);
/* Same, but with the source text of the line supplied by the caller (the
   parser has it, and `-c` code has no file). */
PyAPI_FUNC(void) _PyErr_RaiseSyntaxErrorWithText(PyObject *exc_type, PyObject *msg, PyObject *filename,
                                                 int lineno, int col_offset, int end_lineno,
                                                 int end_col_offset, PyObject *line_text);
/* Line `lineno` of file `filename` as str (with its newline), or NULL
   without an exception when it cannot be read. */
PyAPI_FUNC(PyObject *) _PyErr_ProgramDecodedTextObject(PyObject *filename, int lineno, const char *encoding);
PyAPI_FUNC(PyObject *) PyErr_ProgramTextObject(PyObject *filename, int lineno);

/* Report an exception that cannot propagate through sys.unraisablehook
   ("msg: obj" or "Exception ignored in: obj"); Python/sysmodule.c. */
PyAPI_FUNC(void) _PyErr_WriteUnraisableMsg(const char *msg, PyObject *obj);

#endif /* !Py_INTERNAL_PYERRORS_H */
