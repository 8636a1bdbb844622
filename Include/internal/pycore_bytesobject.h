/* Internal interface of bytes and bytearray (Objects/bytesobject.c,
   Objects/bytearrayobject.c, Objects/bytes_methods.c). */
#ifndef Py_INTERNAL_BYTESOBJECT_H
#define Py_INTERNAL_BYTESOBJECT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* ---- Used by the rest of the runtime ---------------------------------- */

PyAPI_FUNC(int) _PyBytes_InitTypes(PyInterpreterState *interp);
/* The immortal empty bytes and 1-byte bytes (borrowed). */
PyAPI_FUNC(PyObject *) _PyBytes_GetEmpty(void);
PyAPI_FUNC(PyObject *) _PyBytes_FromByte(unsigned char c);
/* Parser: decode a bytes literal's escapes; *first_invalid_escape as for
   str literals. */
PyAPI_FUNC(PyObject *) _PyBytes_DecodeEscape(const char *s, Py_ssize_t len, const char *errors,
                                             const char **first_invalid_escape);
PyAPI_FUNC(PyObject *) PyBytes_DecodeEscape(const char *s, Py_ssize_t len, const char *errors,
                                            Py_ssize_t unicode, const char *recode_encoding);
/* `bytes % args` */
PyAPI_FUNC(PyObject *) _PyBytes_FormatEx(const char *format, Py_ssize_t format_len,
                                         PyObject *args, int use_bytearray);
PyAPI_FUNC(PyObject *) _PyBytes_Repeat_Object(PyObject *self, Py_ssize_t n);
PyAPI_FUNC(PyObject *) PyByteArray_Concat(PyObject *a, PyObject *b);

/* ---- Shared by bytes and bytearray (Objects/bytes_methods.c) ----------- */

/* Constructor of the result type, so one implementation serves both. */
typedef PyObject *(*_PyBytes_Maker)(const char *s, Py_ssize_t len);

PyAPI_FUNC(PyObject *) _Py_bytes_isspace(const char *s, Py_ssize_t len);
PyAPI_FUNC(PyObject *) _Py_bytes_isalpha(const char *s, Py_ssize_t len);
PyAPI_FUNC(PyObject *) _Py_bytes_isalnum(const char *s, Py_ssize_t len);
PyAPI_FUNC(PyObject *) _Py_bytes_isascii(const char *s, Py_ssize_t len);
PyAPI_FUNC(PyObject *) _Py_bytes_isdigit(const char *s, Py_ssize_t len);
PyAPI_FUNC(PyObject *) _Py_bytes_islower(const char *s, Py_ssize_t len);
PyAPI_FUNC(PyObject *) _Py_bytes_isupper(const char *s, Py_ssize_t len);
PyAPI_FUNC(PyObject *) _Py_bytes_istitle(const char *s, Py_ssize_t len);
PyAPI_FUNC(void) _Py_bytes_lower(char *result, const char *s, Py_ssize_t len);
PyAPI_FUNC(void) _Py_bytes_upper(char *result, const char *s, Py_ssize_t len);
PyAPI_FUNC(void) _Py_bytes_title(char *result, const char *s, Py_ssize_t len);
PyAPI_FUNC(void) _Py_bytes_capitalize(char *result, const char *s, Py_ssize_t len);
PyAPI_FUNC(void) _Py_bytes_swapcase(char *result, const char *s, Py_ssize_t len);

/* Methods taking the receiver's data; `make` builds results of its type. */
PyAPI_FUNC(PyObject *) _Py_bytes_find(const char *s, Py_ssize_t len, PyObject *const *args,
                                      Py_ssize_t nargs, const char *fname, int dir, int raise);
PyAPI_FUNC(PyObject *) _Py_bytes_count(const char *s, Py_ssize_t len, PyObject *const *args,
                                       Py_ssize_t nargs);
PyAPI_FUNC(PyObject *) _Py_bytes_tailmatch(const char *s, Py_ssize_t len, PyObject *const *args,
                                           Py_ssize_t nargs, const char *fname, int dir);
PyAPI_FUNC(int) _Py_bytes_contains(const char *s, Py_ssize_t len, PyObject *arg);
PyAPI_FUNC(PyObject *) _Py_bytes_split(_PyBytes_Maker make, PyObject *self, const char *s,
                                       Py_ssize_t len, PyObject *const *args, Py_ssize_t nargs,
                                       PyObject *kwnames, int right);
PyAPI_FUNC(PyObject *) _Py_bytes_strip(_PyBytes_Maker make, PyObject *self, const char *s,
                                       Py_ssize_t len, PyObject *const *args, Py_ssize_t nargs,
                                       const char *fname, int how);
PyAPI_FUNC(PyObject *) _Py_bytes_partition(_PyBytes_Maker make, PyObject *self, const char *s,
                                           Py_ssize_t len, PyObject *sep, int right);
PyAPI_FUNC(PyObject *) _Py_bytes_replace(_PyBytes_Maker make, PyObject *self, const char *s,
                                         Py_ssize_t len, PyObject *const *args, Py_ssize_t nargs,
                                         PyObject *kwnames);
PyAPI_FUNC(PyObject *) _Py_bytes_splitlines(_PyBytes_Maker make, PyObject *self, const char *s,
                                            Py_ssize_t len, PyObject *const *args,
                                            Py_ssize_t nargs, PyObject *kwnames);
PyAPI_FUNC(PyObject *) _Py_bytes_expandtabs(_PyBytes_Maker make, const char *s, Py_ssize_t len,
                                            PyObject *const *args, Py_ssize_t nargs,
                                            PyObject *kwnames);
PyAPI_FUNC(PyObject *) _Py_bytes_pad(_PyBytes_Maker make, PyObject *self, const char *s,
                                     Py_ssize_t len, PyObject *const *args, Py_ssize_t nargs,
                                     const char *fname, int how);
PyAPI_FUNC(PyObject *) _Py_bytes_zfill(_PyBytes_Maker make, PyObject *self, const char *s,
                                       Py_ssize_t len, PyObject *arg);
PyAPI_FUNC(PyObject *) _Py_bytes_affix(_PyBytes_Maker make, PyObject *self, const char *s,
                                       Py_ssize_t len, PyObject *arg, int suffix);
PyAPI_FUNC(PyObject *) _Py_bytes_translate(_PyBytes_Maker make, PyObject *self, const char *s,
                                           Py_ssize_t len, PyObject *const *args,
                                           Py_ssize_t nargs, PyObject *kwnames);
PyAPI_FUNC(PyObject *) _Py_bytes_maketrans(PyObject *const *args, Py_ssize_t nargs);
PyAPI_FUNC(PyObject *) _Py_bytes_join(_PyBytes_Maker make, const char *sep, Py_ssize_t seplen,
                                      PyObject *iterable);
PyAPI_FUNC(PyObject *) _Py_bytes_hex(const char *s, Py_ssize_t len, PyObject *const *args,
                                     Py_ssize_t nargs, PyObject *kwnames);
PyAPI_FUNC(PyObject *) _Py_bytes_fromhex(_PyBytes_Maker make, PyObject *string);
PyAPI_FUNC(PyObject *) _Py_bytes_decode(const char *s, Py_ssize_t len, PyObject *const *args,
                                        Py_ssize_t nargs, PyObject *kwnames);
PyAPI_FUNC(PyObject *) _Py_bytes_richcompare(const char *a, Py_ssize_t alen, const char *b,
                                             Py_ssize_t blen, int op);
PyAPI_FUNC(PyObject *) _Py_bytes_repr(const char *s, Py_ssize_t len, int smartquotes,
                                      const char *prefix, const char *suffix);
/* Collect bytes from an iterable of ints in 0..255 (bytes(iterable)). */
PyAPI_FUNC(int) _Py_bytes_from_iterable(PyObject *it, char **buf, Py_ssize_t *len);
PyAPI_FUNC(int) _Py_bytes_byte_value(PyObject *obj, int *value);

#endif /* !Py_INTERNAL_BYTESOBJECT_H */
