/* Shared declarations of the _json accelerator (Modules/_json/).

   strings.c  JSON string literals: decoding (scanstring) and the two
              escaping encoders (encode_basestring[_ascii]).
   scanner.c  the Scanner type behind json.scanner.make_scanner.
   encoder.c  the Encoder type behind json.encoder.c_make_encoder.
   module.c   the module object and its function table.

   Every helper follows the NULL / -1 with an exception convention.  */

#ifndef Py_JSON_INTERNAL_H
#define Py_JSON_INTERNAL_H

#include "Python.h"

extern PyTypeObject _PyJson_ScannerType;
extern PyTypeObject _PyJson_EncoderType;

/* Raise json.decoder.JSONDecodeError(msg, doc, pos). */
void _PyJson_RaiseDecodeError(const char *msg, PyObject *doc, Py_ssize_t pos);

/* Decode the string literal whose body starts at `start` (just past the
   opening quote) in `doc`.  Returns the new str and stores the index just
   past the closing quote in *after. */
PyObject *_PyJson_DecodeString(PyObject *doc, Py_ssize_t start, int strict,
                               Py_ssize_t *after);

/* Quote and escape `text` as a JSON string literal, keeping only ASCII
   (ascii_only) or keeping every non-control character as it is. */
PyObject *_PyJson_QuoteString(PyObject *text, int ascii_only);

/* The module-level functions, exposed so the encoder can recognise them
   and skip the Python call. */
PyObject *_PyJson_encode_basestring_ascii(PyObject *module, PyObject *arg);
PyObject *_PyJson_encode_basestring(PyObject *module, PyObject *arg);
PyObject *_PyJson_scanstring(PyObject *module, PyObject *args);

#endif /* Py_JSON_INTERNAL_H */
