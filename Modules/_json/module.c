/* _json: the C accelerator json.decoder, json.scanner and json.encoder
   pick up when it imports (see json.h for the file layout). */

#include "json.h"
#include "pycore_object.h"      /* _PyStaticType_InitBuiltin */

static PyMethodDef json_functions[] = {
    {"encode_basestring_ascii", _PyJson_encode_basestring_ascii, METH_O,
     "encode_basestring_ascii(string)\n--\n\n"
     "Quote a str as a JSON string literal using only ASCII characters."},
    {"encode_basestring", _PyJson_encode_basestring, METH_O,
     "encode_basestring(string)\n--\n\n"
     "Quote a str as a JSON string literal, leaving non-ASCII text as is."},
    {"scanstring", _PyJson_scanstring, METH_VARARGS,
     "scanstring(string, end, strict=True)\n--\n\n"
     "Decode the JSON string literal whose body starts at index end (just "
     "past its opening quote).  Returns (str, index past the closing "
     "quote)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef json_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_json",
    .m_doc = "C speedups for the json package.",
    .m_size = -1,
    .m_methods = json_functions,
};

PyObject *
PyInit__json(void)
{
    if (_PyStaticType_InitBuiltin(&_PyJson_ScannerType) < 0
        || _PyStaticType_InitBuiltin(&_PyJson_EncoderType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&json_module);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "make_scanner",
                              (PyObject *)&_PyJson_ScannerType) < 0
        || PyModule_AddObjectRef(m, "make_encoder",
                                 (PyObject *)&_PyJson_EncoderType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
