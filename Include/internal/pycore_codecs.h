/* Internal interface of the built-in text encodings (Python/codecs.c):
   UTF-8, UTF-16, UTF-32, ASCII, Latin-1, unicode-escape and
   raw-unicode-escape, with the standard error handlers.  The `codecs`
   module registry builds on these. */
#ifndef Py_INTERNAL_CODECS_H
#define Py_INTERNAL_CODECS_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* The built-in encodings, by normalised name. */
typedef enum {
    _Py_ENC_UNKNOWN = 0,
    _Py_ENC_UTF8,
    _Py_ENC_UTF8_SIG,
    _Py_ENC_ASCII,
    _Py_ENC_LATIN1,
    _Py_ENC_UTF16,
    _Py_ENC_UTF16_LE,
    _Py_ENC_UTF16_BE,
    _Py_ENC_UTF32,
    _Py_ENC_UTF32_LE,
    _Py_ENC_UTF32_BE,
    _Py_ENC_UNICODE_ESCAPE,
    _Py_ENC_RAW_UNICODE_ESCAPE,
} _Py_BuiltinEncoding;

/* Map an encoding name ('UTF-8', 'utf8', 'latin_1', 'us-ascii', ...) to a
   built-in encoding, _Py_ENC_UNKNOWN if it is none of them. */
PyAPI_FUNC(_Py_BuiltinEncoding) _PyCodec_LookupBuiltin(const char *encoding);
/* Lower-case, '-' and ' ' to '_' (what encodings.normalize_encoding does
   for ASCII names); returns 0 if the name does not fit in `size`. */
PyAPI_FUNC(int) _PyCodec_NormalizeName(const char *encoding, char *out, size_t size);

/* Encoders: str -> bytes.  `errors` NULL means "strict". */
PyAPI_FUNC(PyObject *) _PyUnicode_AsUTF8String(PyObject *str, const char *errors);
PyAPI_FUNC(PyObject *) _PyUnicode_AsASCIIString(PyObject *str, const char *errors);
PyAPI_FUNC(PyObject *) _PyUnicode_AsLatin1String(PyObject *str, const char *errors);
/* byteorder: -1 little, 1 big, 0 native order with a BOM first. */
PyAPI_FUNC(PyObject *) _PyUnicode_EncodeUTF16(PyObject *str, const char *errors, int byteorder);
PyAPI_FUNC(PyObject *) _PyUnicode_EncodeUTF32(PyObject *str, const char *errors, int byteorder);
PyAPI_FUNC(PyObject *) PyUnicode_AsUnicodeEscapeString(PyObject *str);
PyAPI_FUNC(PyObject *) PyUnicode_AsRawUnicodeEscapeString(PyObject *str);

/* Decoders: bytes -> str. */
PyAPI_FUNC(PyObject *) PyUnicode_DecodeUTF16Stateful(const char *s, Py_ssize_t size,
                                                     const char *errors, int *byteorder,
                                                     Py_ssize_t *consumed);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeUTF32Stateful(const char *s, Py_ssize_t size,
                                                     const char *errors, int *byteorder,
                                                     Py_ssize_t *consumed);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeUnicodeEscape(const char *s, Py_ssize_t size,
                                                     const char *errors);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeRawUnicodeEscape(const char *s, Py_ssize_t size,
                                                        const char *errors);

/* Encode/decode with any built-in encoding; LookupError "unknown encoding:
   NAME" for others (until the codecs registry takes over via the hooks
   below). */
PyAPI_FUNC(PyObject *) _PyCodec_EncodeText(PyObject *str, const char *encoding,
                                           const char *errors);
PyAPI_FUNC(PyObject *) _PyCodec_DecodeText(const char *s, Py_ssize_t size,
                                           const char *encoding, const char *errors);

/* The (encoding=, errors=) arguments of str.encode and bytes.decode, with
   their messages; NULL outputs for omitted arguments. */
PyAPI_FUNC(int) _PyCodec_ParseEncodingArgs(PyObject *const *args, Py_ssize_t nargs,
                                           PyObject *kwnames, const char *fname,
                                           const char **encoding, const char **errors);

/* Set by the codecs registry (Modules/_codecsmodule.c / Python/codecs
   registry) to handle encodings that are not built in.  Return NULL with
   LookupError set when they do not know the name either. */
typedef PyObject *(*_PyCodec_HookFunc)(PyObject *obj, const char *encoding,
                                       const char *errors);
PyAPI_DATA(_PyCodec_HookFunc) _PyCodec_EncodeHook;
PyAPI_DATA(_PyCodec_HookFunc) _PyCodec_DecodeHook;

/* Raise UnicodeEncodeError / UnicodeDecodeError with the CPython argument
   shape (encoding, object, start, end, reason). */
PyAPI_FUNC(void) _PyCodec_RaiseEncodeError(const char *encoding, PyObject *str,
                                           Py_ssize_t start, Py_ssize_t end,
                                           const char *reason);
PyAPI_FUNC(void) _PyCodec_RaiseDecodeError(const char *encoding, const char *s,
                                           Py_ssize_t size, Py_ssize_t start,
                                           Py_ssize_t end, const char *reason);

/* Python/codecregistry.c.  The hooks above default to these: an encoding
   that is not built in is looked up in the registry, and must be a text
   encoding (CodecInfo._is_text_encoding not false). */
PyAPI_FUNC(PyObject *) _PyCodec_TextEncodeViaRegistry(PyObject *str, const char *encoding,
                                                      const char *errors);
PyAPI_FUNC(PyObject *) _PyCodec_TextDecodeViaRegistry(PyObject *data, const char *encoding,
                                                      const char *errors);
/* Release the registry's state at exit. */
PyAPI_FUNC(void) _PyCodec_Fini(void);
/* Drop an encoding from the lookup cache (codecs._forget_codec). */
PyAPI_FUNC(int) _PyCodec_Forget(const char *encoding);
/* codecs.unregister_error: 1 removed, 0 not registered, -1 error (the
   built-in handlers cannot be removed). */
PyAPI_FUNC(int) _PyCodec_UnregisterError(const char *name);

/* Call the error handler registered under `errors` with a fresh
   UnicodeEncodeError / UnicodeDecodeError; returns its replacement (str,
   or for encoders also bytes) and where to resume in *newpos, already
   checked against the input's bounds. */
PyAPI_FUNC(PyObject *) _PyCodec_CallEncodeErrorHandler(const char *errors, const char *encoding,
                                                       PyObject *str, Py_ssize_t start,
                                                       Py_ssize_t end, const char *reason,
                                                       Py_ssize_t *newpos);
PyAPI_FUNC(PyObject *) _PyCodec_CallDecodeErrorHandler(const char *errors, const char *encoding,
                                                       const char *s, Py_ssize_t size,
                                                       Py_ssize_t start, Py_ssize_t end,
                                                       const char *reason, Py_ssize_t *newpos);

#endif /* !Py_INTERNAL_CODECS_H */
