/* The marshal format: the serialisation of code objects and the constants
   they hold, as .pyc files store them.  Python/marshal.c implements it;
   include this header explicitly (Python.h does not). */
#ifndef Py_MARSHAL_H
#define Py_MARSHAL_H

#include <stdio.h>

/* The format version written by default (5 adds slices). */
#define Py_MARSHAL_VERSION 5

/* A new bytes object holding the serialised object, or NULL with
   ValueError ("unmarshallable object", ...) set. */
PyAPI_FUNC(PyObject *) PyMarshal_WriteObjectToString(PyObject *obj, int version);
/* The object serialised in data[0:len] (trailing bytes are ignored), or
   NULL with EOFError, ValueError or TypeError set. */
PyAPI_FUNC(PyObject *) PyMarshal_ReadObjectFromString(const char *data, Py_ssize_t len);

/* A 32-bit little-endian integer.  Errors leave an exception set. */
PyAPI_FUNC(void) PyMarshal_WriteLongToFile(long value, FILE *fp, int version);
PyAPI_FUNC(void) PyMarshal_WriteObjectToFile(PyObject *obj, FILE *fp, int version);
/* -1 with EOFError set at the end of the file. */
PyAPI_FUNC(long) PyMarshal_ReadLongFromFile(FILE *fp);
PyAPI_FUNC(int) PyMarshal_ReadShortFromFile(FILE *fp);
/* Reads exactly the bytes of one object. */
PyAPI_FUNC(PyObject *) PyMarshal_ReadObjectFromFile(FILE *fp);
/* Reads the rest of the file, which must hold one object. */
PyAPI_FUNC(PyObject *) PyMarshal_ReadLastObjectFromFile(FILE *fp);

#endif /* !Py_MARSHAL_H */
