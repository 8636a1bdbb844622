/* The pyexpat module object: ParserCreate, ErrorString, ExpatError, the
   version and feature constants, and the `errors` and `model` submodules
   (registered in sys.modules as pyexpat.errors and pyexpat.model, which
   xml.parsers.expat re-exports). */

#include "pyexpat.h"
#include "pycore_object.h"      /* _PyStaticType_InitBuiltin */

#ifdef HAVE_EXPAT

#include <string.h>

static PyObject *expat_error;       /* xml.parsers.expat.ExpatError */
static PyObject *state_owner;       /* the module that holds expat_error */

/* ---- ExpatError ---- */

static int
set_int_attr(PyObject *obj, const char *name, long value)
{
    PyObject *v = PyLong_FromLong(value);
    if (v == NULL) {
        return -1;
    }
    int rc = PyObject_SetAttrString(obj, name, v);
    Py_DECREF(v);
    return rc;
}

/* Raise ExpatError for `code` at the parser's error position, with the
   position in the message and as the code/lineno/offset attributes. */
PyObject *
_PyExpat_SetError(ExpatParserObject *self, enum XML_Error code)
{
    long line = (long)XML_GetErrorLineNumber(self->parser);
    long column = (long)XML_GetErrorColumnNumber(self->parser);
    const XML_LChar *what = XML_ErrorString(code);
    PyObject *exc = PyObject_CallFunction(expat_error, "N",
        PyUnicode_FromFormat("%s: line %ld, column %ld",
                             what ? what : "unknown error", line, column));
    if (exc == NULL) {
        return NULL;
    }
    if (set_int_attr(exc, "code", code) < 0
        || set_int_attr(exc, "lineno", line) < 0
        || set_int_attr(exc, "offset", column) < 0) {
        Py_DECREF(exc);
        return NULL;
    }
    PyErr_SetObject(expat_error, exc);
    Py_DECREF(exc);
    return NULL;
}

/* ---- ParserCreate ---- */

static int
str_or_none(PyObject *arg, const char *name, const char **out)
{
    *out = NULL;
    if (arg == NULL || arg == Py_None) {
        return 0;
    }
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError,
                     "ParserCreate() argument '%s' must be str or None, not %.100s",
                     name, Py_TYPE(arg)->tp_name);
        return -1;
    }
    *out = PyUnicode_AsUTF8(arg);
    return *out == NULL ? -1 : 0;
}

/* The intern argument: omitted means a fresh dict, None means none. */
static int
intern_argument(PyObject *arg, PyObject **out)
{
    *out = NULL;
    if (arg == NULL) {
        *out = PyDict_New();
        return *out == NULL ? -1 : 0;
    }
    if (arg == Py_None) {
        return 0;
    }
    if (!PyDict_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "intern must be a dictionary");
        return -1;
    }
    *out = Py_NewRef(arg);
    return 0;
}

static PyObject *
pyexpat_ParserCreate(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames)
{
    static const char *const keywords[] = {"encoding", "namespace_separator",
                                           "intern", NULL};
    PyObject *given[3] = {NULL, NULL, NULL};
    const char *encoding, *separator;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "ParserCreate", keywords,
                                      0, 3, 0, given)) {
        return NULL;
    }
    PyObject *encoding_arg = given[0], *separator_arg = given[1], *intern_arg = given[2];
    if (str_or_none(encoding_arg, "encoding", &encoding) < 0
        || str_or_none(separator_arg, "namespace_separator", &separator) < 0) {
        return NULL;
    }
    /* Expat's separator is one XML_Char (a byte of UTF-8). */
    if (separator != NULL && strlen(separator) > 1) {
        PyErr_SetString(PyExc_ValueError,
                        "namespace_separator must be at most one character, "
                        "omitted, or None");
        return NULL;
    }
    PyObject *intern;
    if (intern_argument(intern_arg, &intern) < 0) {
        return NULL;
    }
    PyObject *parser = _PyExpat_NewParser(encoding, separator, intern);
    Py_XDECREF(intern);
    return parser;
}

static PyObject *
pyexpat_ErrorString(PyObject *module, PyObject *arg)
{
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) {
        return NULL;
    }
    const XML_LChar *text = XML_ErrorString((enum XML_Error)code);
    if (text == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(text);
}

static PyMethodDef pyexpat_methods[] = {
    {"ParserCreate", (PyCFunction)(void (*)(void))pyexpat_ParserCreate,
     METH_FASTCALL | METH_KEYWORDS,
     "ParserCreate(encoding=None, namespace_separator=None, intern=<new dict>)\n--\n\n"
     "Make a new XML parser object."},
    {"ErrorString", pyexpat_ErrorString, METH_O,
     "ErrorString(code, /)\n--\n\nThe message expat has for an error code."},
    {NULL},
};

/* ---- The errors submodule ---- */

#define ERROR_NAME(n) {#n, n},
static const struct { const char *name; enum XML_Error code; } error_names[] = {
    ERROR_NAME(XML_ERROR_NO_MEMORY)
    ERROR_NAME(XML_ERROR_SYNTAX)
    ERROR_NAME(XML_ERROR_NO_ELEMENTS)
    ERROR_NAME(XML_ERROR_INVALID_TOKEN)
    ERROR_NAME(XML_ERROR_UNCLOSED_TOKEN)
    ERROR_NAME(XML_ERROR_PARTIAL_CHAR)
    ERROR_NAME(XML_ERROR_TAG_MISMATCH)
    ERROR_NAME(XML_ERROR_DUPLICATE_ATTRIBUTE)
    ERROR_NAME(XML_ERROR_JUNK_AFTER_DOC_ELEMENT)
    ERROR_NAME(XML_ERROR_PARAM_ENTITY_REF)
    ERROR_NAME(XML_ERROR_UNDEFINED_ENTITY)
    ERROR_NAME(XML_ERROR_RECURSIVE_ENTITY_REF)
    ERROR_NAME(XML_ERROR_ASYNC_ENTITY)
    ERROR_NAME(XML_ERROR_BAD_CHAR_REF)
    ERROR_NAME(XML_ERROR_BINARY_ENTITY_REF)
    ERROR_NAME(XML_ERROR_ATTRIBUTE_EXTERNAL_ENTITY_REF)
    ERROR_NAME(XML_ERROR_MISPLACED_XML_PI)
    ERROR_NAME(XML_ERROR_UNKNOWN_ENCODING)
    ERROR_NAME(XML_ERROR_INCORRECT_ENCODING)
    ERROR_NAME(XML_ERROR_UNCLOSED_CDATA_SECTION)
    ERROR_NAME(XML_ERROR_EXTERNAL_ENTITY_HANDLING)
    ERROR_NAME(XML_ERROR_NOT_STANDALONE)
    ERROR_NAME(XML_ERROR_UNEXPECTED_STATE)
    ERROR_NAME(XML_ERROR_ENTITY_DECLARED_IN_PE)
    ERROR_NAME(XML_ERROR_FEATURE_REQUIRES_XML_DTD)
    ERROR_NAME(XML_ERROR_CANT_CHANGE_FEATURE_ONCE_PARSING)
    ERROR_NAME(XML_ERROR_UNBOUND_PREFIX)
    ERROR_NAME(XML_ERROR_UNDECLARING_PREFIX)
    ERROR_NAME(XML_ERROR_INCOMPLETE_PE)
    ERROR_NAME(XML_ERROR_XML_DECL)
    ERROR_NAME(XML_ERROR_TEXT_DECL)
    ERROR_NAME(XML_ERROR_PUBLICID)
    ERROR_NAME(XML_ERROR_SUSPENDED)
    ERROR_NAME(XML_ERROR_NOT_SUSPENDED)
    ERROR_NAME(XML_ERROR_ABORTED)
    ERROR_NAME(XML_ERROR_FINISHED)
    ERROR_NAME(XML_ERROR_SUSPEND_PE)
    ERROR_NAME(XML_ERROR_RESERVED_PREFIX_XML)
    ERROR_NAME(XML_ERROR_RESERVED_PREFIX_XMLNS)
    ERROR_NAME(XML_ERROR_RESERVED_NAMESPACE_URI)
    ERROR_NAME(XML_ERROR_INVALID_ARGUMENT)
    ERROR_NAME(XML_ERROR_NO_BUFFER)
    ERROR_NAME(XML_ERROR_AMPLIFICATION_LIMIT_BREACH)
};
#undef ERROR_NAME

/* Adds XML_ERROR_* (each the message string) and the codes and messages
   dicts mapping between messages and numbers. */
static int
fill_errors(PyObject *errors)
{
    PyObject *codes = PyDict_New();
    PyObject *messages = PyDict_New();
    int rc = (codes && messages) ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < Py_ARRAY_LENGTH(error_names); i++) {
        const XML_LChar *text = XML_ErrorString(error_names[i].code);
        PyObject *msg = PyUnicode_FromString(text ? text : "");
        PyObject *num = PyLong_FromLong(error_names[i].code);
        rc = (msg && num
              && PyModule_AddObjectRef(errors, error_names[i].name, msg) == 0
              && PyDict_SetItem(codes, msg, num) == 0
              && PyDict_SetItem(messages, num, msg) == 0) ? 0 : -1;
        Py_XDECREF(msg);
        Py_XDECREF(num);
    }
    if (rc == 0) {
        rc = PyModule_AddObjectRef(errors, "codes", codes) < 0
             || PyModule_AddObjectRef(errors, "messages", messages) < 0 ? -1 : 0;
    }
    Py_XDECREF(codes);
    Py_XDECREF(messages);
    return rc;
}

static int
fill_model(PyObject *model)
{
    static const struct { const char *name; int value; } consts[] = {
        {"XML_CTYPE_EMPTY", XML_CTYPE_EMPTY}, {"XML_CTYPE_ANY", XML_CTYPE_ANY},
        {"XML_CTYPE_MIXED", XML_CTYPE_MIXED}, {"XML_CTYPE_NAME", XML_CTYPE_NAME},
        {"XML_CTYPE_CHOICE", XML_CTYPE_CHOICE}, {"XML_CTYPE_SEQ", XML_CTYPE_SEQ},
        {"XML_CQUANT_NONE", XML_CQUANT_NONE}, {"XML_CQUANT_OPT", XML_CQUANT_OPT},
        {"XML_CQUANT_REP", XML_CQUANT_REP}, {"XML_CQUANT_PLUS", XML_CQUANT_PLUS},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(consts); i++) {
        if (PyModule_AddIntConstant(model, consts[i].name, consts[i].value) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Make pyexpat.<name>, fill it, attach it to the module and to sys.modules
   (so `import pyexpat.errors` and xml.parsers.expat find it). */
static int
add_submodule(PyObject *module, const char *name, const char *doc,
              int (*fill)(PyObject *))
{
    PyObject *full = PyUnicode_FromFormat("pyexpat.%s", name);
    PyObject *sub = full ? PyModule_NewObject(full) : NULL;
    int rc = -1;
    if (sub != NULL
        && PyModule_AddStringConstant(sub, "__doc__", doc) == 0
        && fill(sub) == 0
        && PyDict_SetItem(PyImport_GetModuleDict(), full, sub) == 0
        && PyModule_AddObjectRef(module, name, sub) == 0) {
        rc = 0;
    }
    Py_XDECREF(sub);
    Py_XDECREF(full);
    return rc;
}

/* ---- Version and feature constants ---- */

static PyObject *
feature_list(void)
{
    PyObject *list = PyList_New(0);
    const XML_Feature *f = XML_GetFeatureList();
    for (; list != NULL && f != NULL && f->feature != XML_FEATURE_END; f++) {
        PyObject *pair = Py_BuildValue("(sl)", f->name, f->value);
        if (pair == NULL || PyList_Append(list, pair) < 0) {
            Py_XDECREF(pair);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(pair);
    }
    return list;
}

static int
add_versions(PyObject *m)
{
    XML_Expat_Version v = XML_ExpatVersionInfo();
    PyObject *info = Py_BuildValue("(iii)", v.major, v.minor, v.micro);
    PyObject *features = feature_list();
    int rc = (info && features
              && PyModule_AddObjectRef(m, "version_info", info) == 0
              && PyModule_AddObjectRef(m, "features", features) == 0
              && PyModule_AddStringConstant(m, "EXPAT_VERSION", XML_ExpatVersion()) == 0
              && PyModule_AddStringConstant(m, "native_encoding", "UTF-8") == 0) ? 0 : -1;
    Py_XDECREF(info);
    Py_XDECREF(features);
    return rc;
}

static int
add_entity_parsing_constants(PyObject *m)
{
    if (PyModule_AddIntConstant(m, "XML_PARAM_ENTITY_PARSING_NEVER",
                                XML_PARAM_ENTITY_PARSING_NEVER) < 0
        || PyModule_AddIntConstant(m, "XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE",
                                   XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE) < 0
        || PyModule_AddIntConstant(m, "XML_PARAM_ENTITY_PARSING_ALWAYS",
                                   XML_PARAM_ENTITY_PARSING_ALWAYS) < 0) {
        return -1;
    }
    return 0;
}

/* ---- The module ---- */

static void
pyexpat_free(void *m)
{
    if (m == state_owner) {
        Py_CLEAR(expat_error);
        state_owner = NULL;
    }
}

static struct PyModuleDef pyexpat_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "pyexpat",
    .m_doc = "Python wrapper for Expat parser.",
    .m_size = -1,
    .m_methods = pyexpat_methods,
    .m_free = pyexpat_free,
};

static int
init_module(PyObject *m)
{
    _PyExpat_FillHandlerNames();
    if (_PyStaticType_InitBuiltin(&_PyExpat_ParserType) < 0) {
        return -1;
    }
    if (expat_error == NULL) {
        expat_error = PyErr_NewException("xml.parsers.expat.ExpatError", NULL, NULL);
        if (expat_error == NULL) {
            return -1;
        }
        state_owner = m;
    }
    if (PyModule_AddObjectRef(m, "ExpatError", expat_error) < 0
        || PyModule_AddObjectRef(m, "error", expat_error) < 0
        || PyModule_AddObjectRef(m, "XMLParserType",
                                 (PyObject *)&_PyExpat_ParserType) < 0
        || add_versions(m) < 0
        || add_entity_parsing_constants(m) < 0) {
        return -1;
    }
    if (add_submodule(m, "errors", "Constants used to describe error conditions.",
                      fill_errors) < 0
        || add_submodule(m, "model",
                         "Constants used to interpret content model information.",
                         fill_model) < 0) {
        return -1;
    }
    return 0;
}

PyObject *
PyInit_pyexpat(void)
{
    PyObject *m = PyModule_Create(&pyexpat_module);
    if (m != NULL && init_module(m) < 0) {
        Py_CLEAR(m);
    }
    return m;
}

#endif /* HAVE_EXPAT */
