/* The codec registry (Python/codecregistry.c): search functions, lookup,
   encode/decode through a named codec, and named error handlers. */
#ifndef Py_CODECREGISTRY_H
#define Py_CODECREGISTRY_H

PyAPI_FUNC(int) PyCodec_Register(PyObject *search_function);
PyAPI_FUNC(int) PyCodec_Unregister(PyObject *search_function);
/* The CodecInfo for an encoding name; LookupError if no search function
   knows it.  The first call imports the `encodings` package. */
PyAPI_FUNC(PyObject *) PyCodec_Lookup(const char *encoding);
PyAPI_FUNC(int) PyCodec_KnownEncoding(const char *encoding);
PyAPI_FUNC(PyObject *) PyCodec_Encode(PyObject *object, const char *encoding, const char *errors);
PyAPI_FUNC(PyObject *) PyCodec_Decode(PyObject *object, const char *encoding, const char *errors);
PyAPI_FUNC(PyObject *) PyCodec_Encoder(const char *encoding);
PyAPI_FUNC(PyObject *) PyCodec_Decoder(const char *encoding);
PyAPI_FUNC(PyObject *) PyCodec_IncrementalEncoder(const char *encoding, const char *errors);
PyAPI_FUNC(PyObject *) PyCodec_IncrementalDecoder(const char *encoding, const char *errors);
PyAPI_FUNC(PyObject *) PyCodec_StreamReader(const char *encoding, PyObject *stream,
                                            const char *errors);
PyAPI_FUNC(PyObject *) PyCodec_StreamWriter(const char *encoding, PyObject *stream,
                                            const char *errors);

/* Error handlers by name ("strict", "ignore", ... or registered ones);
   LookupError for an unknown name.  NULL means "strict". */
PyAPI_FUNC(int) PyCodec_RegisterError(const char *name, PyObject *error);
PyAPI_FUNC(PyObject *) PyCodec_LookupError(const char *name);

#endif /* !Py_CODECREGISTRY_H */
