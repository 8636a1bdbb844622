/* The format-spec mini-language (Python/formatter_unicode.c): what
   int.__format__, float.__format__, complex.__format__ and str.__format__
   do with a standard format spec such as "*^+#012,.3f".

   Each function formats `obj` (of the named type, or a subclass) with the
   spec format_spec[start:end].  The PyObject * versions return a new str;
   the Writer versions append to a _PyUnicodeWriter (for str.format) and
   return 0, or -1 with an exception set. */
#ifndef Py_INTERNAL_FORMAT_H
#define Py_INTERNAL_FORMAT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

PyAPI_FUNC(PyObject *) _PyLong_FormatAdvanced(PyObject *obj, PyObject *format_spec,
                                              Py_ssize_t start, Py_ssize_t end);
PyAPI_FUNC(PyObject *) _PyFloat_FormatAdvanced(PyObject *obj, PyObject *format_spec,
                                               Py_ssize_t start, Py_ssize_t end);
PyAPI_FUNC(PyObject *) _PyComplex_FormatAdvanced(PyObject *obj, PyObject *format_spec,
                                                 Py_ssize_t start, Py_ssize_t end);
/* str: fill, align, width and precision (truncation) only */
PyAPI_FUNC(PyObject *) _PyUnicode_FormatAdvanced(PyObject *obj, PyObject *format_spec,
                                                 Py_ssize_t start, Py_ssize_t end);

PyAPI_FUNC(int) _PyLong_FormatAdvancedWriter(_PyUnicodeWriter *writer, PyObject *obj,
                                             PyObject *format_spec, Py_ssize_t start,
                                             Py_ssize_t end);
PyAPI_FUNC(int) _PyFloat_FormatAdvancedWriter(_PyUnicodeWriter *writer, PyObject *obj,
                                              PyObject *format_spec, Py_ssize_t start,
                                              Py_ssize_t end);
PyAPI_FUNC(int) _PyComplex_FormatAdvancedWriter(_PyUnicodeWriter *writer, PyObject *obj,
                                                PyObject *format_spec, Py_ssize_t start,
                                                Py_ssize_t end);
PyAPI_FUNC(int) _PyUnicode_FormatAdvancedWriter(_PyUnicodeWriter *writer, PyObject *obj,
                                                PyObject *format_spec, Py_ssize_t start,
                                                Py_ssize_t end);

#endif /* !Py_INTERNAL_FORMAT_H */
