/* What the core takes from the unicodedata module (Modules/unicodedata*.c,
   linked into the executable): character names for \N{...} escapes and
   NFKC for identifiers (PEP 3131). */

#ifndef Py_INTERNAL_UNICODEDATA_H
#define Py_INTERNAL_UNICODEDATA_H

#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* The character called `name` (case-insensitive; aliases accepted, named
   sequences not): returns 1 and sets *ch, or 0 when no character has that
   name.  Never raises. */
PyAPI_FUNC(int) _PyUnicode_LookupCharName(const char *name, Py_ssize_t len, Py_UCS4 *ch);

/* str in normal form NFKC (a new reference; str itself when unchanged). */
PyAPI_FUNC(PyObject *) _PyUnicode_NormalizeNFKC(PyObject *str);

#endif /* !Py_INTERNAL_UNICODEDATA_H */
