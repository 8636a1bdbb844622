/* The pyexpat.xmlparser type: one expat parser plus its Python handlers.

   Instances come only from ParserCreate() and ExternalEntityParserCreate();
   the type has no constructor.  Handlers may refer back to their parser, so
   the type takes part in the cyclic GC. */

#include "pyexpat.h"

#ifdef HAVE_EXPAT

#include <limits.h>
#include <string.h>

/* How much ParseFile asks of read() at a time. */
#define FILE_CHUNK 2048
/* XML_Parse takes an int length: bigger inputs are fed in pieces. */
#define PARSE_CHUNK (1 << 30)

#if XML_MAJOR_VERSION > 2 || (XML_MAJOR_VERSION == 2 && XML_MINOR_VERSION >= 6)
#define HAVE_REPARSE_DEFERRAL 1
#endif

PyObject *
_PyExpat_NewParser(const char *encoding, const char *separator, PyObject *intern)
{
    ExpatParserObject *self = PyObject_GC_New(ExpatParserObject, &_PyExpat_ParserType);
    if (self == NULL) {
        return NULL;
    }
    memset((char *)self + sizeof(PyObject), 0, sizeof(*self) - sizeof(PyObject));
    self->text_size = EXPAT_TEXT_BUFFER_DEFAULT;
#ifdef HAVE_REPARSE_DEFERRAL
    self->reparse_deferral = 1;
#endif
    self->intern = Py_XNewRef(intern);
    self->parser = separator ? XML_ParserCreateNS(encoding, *separator)
                             : XML_ParserCreate(encoding);
    if (self->parser == NULL) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_MemoryError, "XML_ParserCreate failed");
        return NULL;
    }
    _PyExpat_InstallFixedHandlers(self);
    PyObject_GC_Track(self);
    return (PyObject *)self;
}

/* ---- Feeding data ---- */

static int
enter_parse(ExpatParserObject *self)
{
    if (self->parsing) {
        PyErr_SetString(PyExc_RuntimeError,
                        "cannot parse with a parser from inside its own handler");
        return -1;
    }
    self->parsing = 1;
    self->handler_failed = 0;
    return 0;
}

/* What Parse/ParseFile return once expat is done with a piece: the handler's
   exception, an ExpatError, or the status after buffered text went out. */
static PyObject *
parse_outcome(ExpatParserObject *self, enum XML_Status status)
{
    self->parsing = 0;
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (status == XML_STATUS_ERROR) {
        return _PyExpat_SetError(self, XML_GetErrorCode(self->parser));
    }
    return _PyExpat_FlushText(self) < 0 ? NULL : PyLong_FromLong(status);
}

static enum XML_Status
feed_bytes(ExpatParserObject *self, const char *data, Py_ssize_t len, int isfinal)
{
    while (len > PARSE_CHUNK) {
        if (XML_Parse(self->parser, data, PARSE_CHUNK, 0) == XML_STATUS_ERROR
            || self->handler_failed) {
            return XML_STATUS_ERROR;
        }
        data += PARSE_CHUNK;
        len -= PARSE_CHUNK;
    }
    return XML_Parse(self->parser, data, (int)len, isfinal);
}

/* Positional-only arguments of a fastcall method into `out`. */
static int
positional_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                const char *name, Py_ssize_t min, Py_ssize_t max, PyObject **out)
{
    /* The name list must hold exactly `max` entries: the parser treats any
       further name as a keyword-only slot of `out`. */
    static const char *const unnamed[] = {"", "", NULL};
    assert(max >= 0 && max <= 2);
    return _PyArg_ParseStackAndKeywords(args, nargs, kwnames, name,
                                        unnamed + (2 - max), min, max, 0, out);
}

static PyObject *
xmlparser_Parse(ExpatParserObject *self, PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames)
{
    PyObject *given[2] = {NULL, NULL};
    if (!positional_args(args, nargs, kwnames, "Parse", 1, 2, given)) {
        return NULL;
    }
    PyObject *data = given[0];
    int isfinal = given[1] ? PyObject_IsTrue(given[1]) : 0;
    if (isfinal < 0) {
        return NULL;
    }
    if (PyUnicode_Check(data)) {
        Py_ssize_t len;
        const char *utf8 = PyUnicode_AsUTF8AndSize(data, &len);
        if (utf8 == NULL || enter_parse(self) < 0) {
            return NULL;
        }
        /* The text is handed over as UTF-8, whatever it declares. */
        XML_SetEncoding(self->parser, "utf-8");
        return parse_outcome(self, feed_bytes(self, utf8, len, isfinal));
    }
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    if (enter_parse(self) == 0) {
        result = parse_outcome(self, feed_bytes(self, view.buf, view.len, isfinal));
    }
    PyBuffer_Release(&view);
    return result;
}

/* One read() of ParseFile, checked; NULL with an exception if it is wrong. */
static PyObject *
read_chunk(PyObject *read)
{
    PyObject *chunk = PyObject_CallFunction(read, "i", FILE_CHUNK);
    if (chunk == NULL) {
        return NULL;
    }
    if (!PyBytes_Check(chunk)) {
        PyErr_Format(PyExc_TypeError,
                     "read() did not return a bytes object (type=%.400s)",
                     Py_TYPE(chunk)->tp_name);
        Py_DECREF(chunk);
        return NULL;
    }
    if (PyBytes_GET_SIZE(chunk) > FILE_CHUNK) {
        PyErr_Format(PyExc_ValueError,
                     "read() returned too much data: %i bytes requested, %zd returned",
                     FILE_CHUNK, PyBytes_GET_SIZE(chunk));
        Py_DECREF(chunk);
        return NULL;
    }
    return chunk;
}

static PyObject *
xmlparser_ParseFile(ExpatParserObject *self, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames)
{
    PyObject *file, *read;
    if (!positional_args(args, nargs, kwnames, "ParseFile", 1, 1, &file)) {
        return NULL;
    }
    if (PyObject_GetOptionalAttrString(file, "read", &read) < 0) {
        return NULL;
    }
    if (read == NULL) {
        PyErr_SetString(PyExc_TypeError, "argument must have 'read' attribute");
        return NULL;
    }
    if (enter_parse(self) < 0) {
        Py_DECREF(read);
        return NULL;
    }
    enum XML_Status status = XML_STATUS_OK;
    for (;;) {
        PyObject *chunk = read_chunk(read);
        if (chunk == NULL) {
            break;
        }
        Py_ssize_t len = PyBytes_GET_SIZE(chunk);
        status = XML_Parse(self->parser, PyBytes_AS_STRING(chunk), (int)len, len == 0);
        Py_DECREF(chunk);
        if (len == 0 || status == XML_STATUS_ERROR || self->handler_failed) {
            break;
        }
    }
    Py_DECREF(read);
    return parse_outcome(self, status);
}

/* ---- Other methods ---- */

static PyObject *
xmlparser_SetBase(ExpatParserObject *self, PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "SetBase() argument must be str, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    const char *base = PyUnicode_AsUTF8(arg);
    if (base == NULL) {
        return NULL;
    }
    if (XML_SetBase(self->parser, base) == XML_STATUS_ERROR) {
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

static PyObject *
xmlparser_GetBase(ExpatParserObject *self, PyObject *unused)
{
    const XML_Char *base = XML_GetBase(self->parser);
    if (base == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_DecodeUTF8(base, (Py_ssize_t)strlen(base), "strict");
}

/* The input expat is looking at, from the current event to the end of its
   buffer; only available while a handler runs. */
static PyObject *
xmlparser_GetInputContext(ExpatParserObject *self, PyObject *unused)
{
    int offset = 0, size = 0;
    const char *buf = self->parsing
        ? XML_GetInputContext(self->parser, &offset, &size) : NULL;
    if (buf == NULL) {
        Py_RETURN_NONE;
    }
    return PyBytes_FromStringAndSize(buf + offset, size - offset);
}

/* Optional str-or-None argument as UTF-8; *out stays NULL for None. */
static int
optional_utf8(PyObject *arg, const char *func, const char *name, const char **out)
{
    *out = NULL;
    if (arg == NULL || arg == Py_None) {
        return 0;
    }
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s() %s must be str or None, not %.100s",
                     func, name, Py_TYPE(arg)->tp_name);
        return -1;
    }
    *out = PyUnicode_AsUTF8(arg);
    return *out == NULL ? -1 : 0;
}

/* The new parser inherits the handlers and options of this one. */
static int
inherit_settings(ExpatParserObject *child, ExpatParserObject *self)
{
    child->ordered_attributes = self->ordered_attributes;
    child->specified_attributes = self->specified_attributes;
    child->namespace_prefixes = self->namespace_prefixes;
    child->reparse_deferral = self->reparse_deferral;
    child->text_size = self->text_size;
    if (self->text != NULL) {
        child->text = PyMem_Malloc(child->text_size);
        if (child->text == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    for (int slot = 0; slot < EH_COUNT; slot++) {
        child->handlers[slot] = Py_XNewRef(self->handlers[slot]);
        _PyExpat_InstallHandler(child, slot, self->handlers[slot] != NULL);
    }
    return 0;
}

static PyObject *
xmlparser_ExternalEntityParserCreate(ExpatParserObject *self, PyObject *const *args,
                                     Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *given[2] = {NULL, NULL};
    const char *context, *encoding;
    if (!positional_args(args, nargs, kwnames, "ExternalEntityParserCreate", 1, 2, given)) {
        return NULL;
    }
    PyObject *context_arg = given[0], *encoding_arg = given[1];
    if (optional_utf8(context_arg, "ExternalEntityParserCreate", "argument 1", &context) < 0
        || optional_utf8(encoding_arg, "ExternalEntityParserCreate", "argument 2", &encoding) < 0) {
        return NULL;
    }
    ExpatParserObject *child = PyObject_GC_New(ExpatParserObject, &_PyExpat_ParserType);
    if (child == NULL) {
        return NULL;
    }
    memset((char *)child + sizeof(PyObject), 0, sizeof(*child) - sizeof(PyObject));
    child->parent = Py_NewRef(self);
    child->intern = Py_XNewRef(self->intern);
    child->parser = XML_ExternalEntityParserCreate(self->parser, context, encoding);
    if (child->parser == NULL) {
        Py_DECREF(child);
        return PyErr_NoMemory();
    }
    _PyExpat_InstallFixedHandlers(child);
    if (inherit_settings(child, self) < 0) {
        Py_DECREF(child);
        return NULL;
    }
    PyObject_GC_Track(child);
    return (PyObject *)child;
}

static PyObject *
xmlparser_SetParamEntityParsing(ExpatParserObject *self, PyObject *arg)
{
    int flag = PyLong_AsInt(arg);
    if (flag == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyLong_FromLong(XML_SetParamEntityParsing(self->parser, flag));
}

static PyObject *
xmlparser_UseForeignDTD(ExpatParserObject *self, PyObject *const *args,
                        Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *given[1] = {NULL};
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError,
                     "UseForeignDTD() takes at most 1 argument (%zd given)", nargs);
        return NULL;
    }
    if (!positional_args(args, nargs, kwnames, "UseForeignDTD", 0, 1, given)) {
        return NULL;
    }
    int flag = given[0] ? PyObject_IsTrue(given[0]) : 1;
    if (flag < 0) {
        return NULL;
    }
    enum XML_Error rc = XML_UseForeignDTD(self->parser, flag ? XML_TRUE : XML_FALSE);
    if (rc != XML_ERROR_NONE) {
        return _PyExpat_SetError(self, rc);
    }
    Py_RETURN_NONE;
}

static PyObject *
xmlparser_GetReparseDeferralEnabled(ExpatParserObject *self, PyObject *unused)
{
    return PyBool_FromLong(self->reparse_deferral);
}

/* With an expat older than 2.6 there is no reparse deferral at all: the
   call changes nothing and GetReparseDeferralEnabled() keeps saying False. */
static PyObject *
xmlparser_SetReparseDeferralEnabled(ExpatParserObject *self, PyObject *arg)
{
    int enabled = PyObject_IsTrue(arg);
    if (enabled < 0) {
        return NULL;
    }
#ifdef HAVE_REPARSE_DEFERRAL
    if (XML_SetReparseDeferralEnabled(self->parser, enabled ? XML_TRUE : XML_FALSE)) {
        self->reparse_deferral = enabled;
    }
#endif
    Py_RETURN_NONE;
}

static PyMethodDef xmlparser_methods[] = {
    {"Parse", (PyCFunction)(void (*)(void))xmlparser_Parse, METH_FASTCALL | METH_KEYWORDS,
     "Parse(data, isfinal=False, /)\n--\n\nFeed a str or bytes-like chunk of "
     "the document; isfinal marks the last one."},
    {"ParseFile", (PyCFunction)(void (*)(void))xmlparser_ParseFile,
     METH_FASTCALL | METH_KEYWORDS,
     "ParseFile(file, /)\n--\n\nRead the whole document from a binary file object."},
    {"SetBase", (PyCFunction)xmlparser_SetBase, METH_O,
     "SetBase(base, /)\n--\n\nSet the base URI used to resolve relative system identifiers."},
    {"GetBase", (PyCFunction)xmlparser_GetBase, METH_NOARGS,
     "GetBase()\n--\n\nThe base URI given to SetBase(), or None."},
    {"GetInputContext", (PyCFunction)xmlparser_GetInputContext, METH_NOARGS,
     "GetInputContext()\n--\n\nWhile a handler runs, the raw input from the current event on."},
    {"ExternalEntityParserCreate",
     (PyCFunction)(void (*)(void))xmlparser_ExternalEntityParserCreate,
     METH_FASTCALL | METH_KEYWORDS,
     "ExternalEntityParserCreate(context, encoding=None, /)\n--\n\n"
     "A parser for an external entity referenced from this document."},
    {"SetParamEntityParsing", (PyCFunction)xmlparser_SetParamEntityParsing, METH_O,
     "SetParamEntityParsing(flag, /)\n--\n\nChoose when parameter entities are parsed."},
    {"UseForeignDTD", (PyCFunction)(void (*)(void))xmlparser_UseForeignDTD,
     METH_FASTCALL | METH_KEYWORDS,
     "UseForeignDTD(flag=True, /)\n--\n\nAsk for an external DTD even if the document names none."},
    {"GetReparseDeferralEnabled", (PyCFunction)xmlparser_GetReparseDeferralEnabled,
     METH_NOARGS,
     "GetReparseDeferralEnabled()\n--\n\nWhether expat defers reparsing of big tokens."},
    {"SetReparseDeferralEnabled", (PyCFunction)xmlparser_SetReparseDeferralEnabled,
     METH_O,
     "SetReparseDeferralEnabled(enabled, /)\n--\n\nTurn reparse deferral on or off."},
    {NULL},
};

/* ---- Attributes ---- */

static int
refuse_delete(PyObject *value)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Cannot delete attribute");
        return -1;
    }
    return 0;
}

static PyObject *
handler_get(ExpatParserObject *self, void *closure)
{
    PyObject *fn = self->handlers[(intptr_t)closure];
    return Py_NewRef(fn ? fn : Py_None);
}

static int
handler_set(ExpatParserObject *self, PyObject *value, void *closure)
{
    int slot = (int)(intptr_t)closure;
    if (refuse_delete(value) < 0) {
        return -1;
    }
    /* Text buffered for the old character handler belongs to it. */
    if (slot == EH_CHARACTER_DATA && _PyExpat_FlushText(self) < 0) {
        return -1;
    }
    PyObject *old = self->handlers[slot];
    self->handlers[slot] = (value == Py_None) ? NULL : Py_NewRef(value);
    _PyExpat_InstallHandler(self, slot, value != Py_None);
    Py_XDECREF(old);
    return 0;
}

typedef enum {
    POS_ERROR_CODE, POS_ERROR_LINE, POS_ERROR_COLUMN, POS_ERROR_BYTE,
    POS_CURRENT_LINE, POS_CURRENT_COLUMN, POS_CURRENT_BYTE,
} PositionField;

static PyObject *
position_get(ExpatParserObject *self, void *closure)
{
    XML_Parser p = self->parser;
    switch ((PositionField)(intptr_t)closure) {
    case POS_ERROR_CODE:
        return PyLong_FromLong(XML_GetErrorCode(p));
    case POS_ERROR_LINE:
        return PyLong_FromUnsignedLong(XML_GetErrorLineNumber(p));
    case POS_ERROR_COLUMN:
        return PyLong_FromUnsignedLong(XML_GetErrorColumnNumber(p));
    case POS_ERROR_BYTE:
        return PyLong_FromLong(XML_GetErrorByteIndex(p));
    case POS_CURRENT_LINE:
        return PyLong_FromUnsignedLong(XML_GetCurrentLineNumber(p));
    case POS_CURRENT_COLUMN:
        return PyLong_FromUnsignedLong(XML_GetCurrentColumnNumber(p));
    case POS_CURRENT_BYTE:
        return PyLong_FromLong(XML_GetCurrentByteIndex(p));
    }
    Py_RETURN_NONE;
}

static PyObject *
buffer_text_get(ExpatParserObject *self, void *unused)
{
    return PyBool_FromLong(self->text != NULL);
}

static int
buffer_text_set(ExpatParserObject *self, PyObject *value, void *unused)
{
    int on = value ? PyObject_IsTrue(value) : 0;
    if (refuse_delete(value) < 0 || on < 0) {
        return -1;
    }
    if (on && self->text == NULL) {
        self->text = PyMem_Malloc(self->text_size);
        if (self->text == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        self->text_used = 0;
    }
    else if (!on && self->text != NULL) {
        if (_PyExpat_FlushText(self) < 0) {
            return -1;
        }
        PyMem_Free(self->text);
        self->text = NULL;
    }
    return 0;
}

static PyObject *
buffer_size_get(ExpatParserObject *self, void *unused)
{
    return PyLong_FromLong(self->text_size);
}

static int
buffer_size_set(ExpatParserObject *self, PyObject *value, void *unused)
{
    if (refuse_delete(value) < 0) {
        return -1;
    }
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "buffer_size must be an integer");
        return -1;
    }
    long size = PyLong_AsLong(value);
    if (size == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (size <= 0) {
        PyErr_SetString(PyExc_ValueError, "buffer_size must be greater than zero");
        return -1;
    }
    if (size > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "buffer_size must not be greater than %i", INT_MAX);
        return -1;
    }
    if (self->text != NULL) {
        if (_PyExpat_FlushText(self) < 0) {
            return -1;
        }
        char *bigger = PyMem_Realloc(self->text, (size_t)size);
        if (bigger == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        self->text = bigger;
    }
    self->text_size = (int)size;
    return 0;
}

static PyObject *
buffer_used_get(ExpatParserObject *self, void *unused)
{
    return PyLong_FromLong(self->text_used);
}

/* The three boolean options, addressed by their offset in the object. */
static PyObject *
flag_get(ExpatParserObject *self, void *closure)
{
    return PyBool_FromLong(*(int *)((char *)self + (intptr_t)closure));
}

static int
flag_set(ExpatParserObject *self, PyObject *value, void *closure)
{
    int on = value ? PyObject_IsTrue(value) : 0;
    if (refuse_delete(value) < 0 || on < 0) {
        return -1;
    }
    *(int *)((char *)self + (intptr_t)closure) = on;
    if ((intptr_t)closure == offsetof(ExpatParserObject, namespace_prefixes)) {
        XML_SetReturnNSTriplet(self->parser, on);
    }
    return 0;
}

#define HANDLER_ATTR(slot) \
    {NULL, (getter)handler_get, (setter)handler_set, NULL, (void *)(intptr_t)(slot)}
#define POSITION_ATTR(name, field) \
    {name, (getter)position_get, NULL, NULL, (void *)(intptr_t)(field)}
#define FLAG_ATTR(name, member) \
    {name, (getter)flag_get, (setter)flag_set, NULL, \
     (void *)(intptr_t)offsetof(ExpatParserObject, member)}

/* The handler entries get their names from _PyExpat_HandlerNames at start-up
   (see fill_handler_names), keeping the name list in one place. */
static PyGetSetDef xmlparser_getset[] = {
    HANDLER_ATTR(EH_START_ELEMENT), HANDLER_ATTR(EH_END_ELEMENT),
    HANDLER_ATTR(EH_PROCESSING_INSTRUCTION), HANDLER_ATTR(EH_CHARACTER_DATA),
    HANDLER_ATTR(EH_UNPARSED_ENTITY_DECL), HANDLER_ATTR(EH_NOTATION_DECL),
    HANDLER_ATTR(EH_START_NAMESPACE_DECL), HANDLER_ATTR(EH_END_NAMESPACE_DECL),
    HANDLER_ATTR(EH_COMMENT), HANDLER_ATTR(EH_START_CDATA_SECTION),
    HANDLER_ATTR(EH_END_CDATA_SECTION), HANDLER_ATTR(EH_DEFAULT),
    HANDLER_ATTR(EH_DEFAULT_EXPAND), HANDLER_ATTR(EH_NOT_STANDALONE),
    HANDLER_ATTR(EH_EXTERNAL_ENTITY_REF), HANDLER_ATTR(EH_START_DOCTYPE_DECL),
    HANDLER_ATTR(EH_END_DOCTYPE_DECL), HANDLER_ATTR(EH_ENTITY_DECL),
    HANDLER_ATTR(EH_XML_DECL), HANDLER_ATTR(EH_ELEMENT_DECL),
    HANDLER_ATTR(EH_ATTLIST_DECL), HANDLER_ATTR(EH_SKIPPED_ENTITY),
    POSITION_ATTR("ErrorCode", POS_ERROR_CODE),
    POSITION_ATTR("ErrorLineNumber", POS_ERROR_LINE),
    POSITION_ATTR("ErrorColumnNumber", POS_ERROR_COLUMN),
    POSITION_ATTR("ErrorByteIndex", POS_ERROR_BYTE),
    POSITION_ATTR("CurrentLineNumber", POS_CURRENT_LINE),
    POSITION_ATTR("CurrentColumnNumber", POS_CURRENT_COLUMN),
    POSITION_ATTR("CurrentByteIndex", POS_CURRENT_BYTE),
    {"buffer_text", (getter)buffer_text_get, (setter)buffer_text_set, NULL, NULL},
    {"buffer_size", (getter)buffer_size_get, (setter)buffer_size_set, NULL, NULL},
    {"buffer_used", (getter)buffer_used_get, NULL, NULL, NULL},
    FLAG_ATTR("ordered_attributes", ordered_attributes),
    FLAG_ATTR("specified_attributes", specified_attributes),
    FLAG_ATTR("namespace_prefixes", namespace_prefixes),
    {NULL},
};

static PyMemberDef xmlparser_members[] = {
    {"intern", _Py_T_OBJECT, offsetof(ExpatParserObject, intern), Py_READONLY,
     "The dict that shares name strings, or None."},
    {NULL},
};

void
_PyExpat_FillHandlerNames(void)
{
    for (int slot = 0; slot < EH_COUNT; slot++) {
        xmlparser_getset[slot].name = _PyExpat_HandlerNames[slot];
    }
}

/* ---- Life cycle ---- */

static int
xmlparser_traverse(ExpatParserObject *self, visitproc visit, void *arg)
{
    for (int slot = 0; slot < EH_COUNT; slot++) {
        Py_VISIT(self->handlers[slot]);
    }
    Py_VISIT(self->intern);
    Py_VISIT(self->parent);
    return 0;
}

/* The parent is kept: expat needs it for as long as this parser lives. */
static int
xmlparser_clear(ExpatParserObject *self)
{
    _PyExpat_DropHandlers(self);
    Py_CLEAR(self->intern);
    return 0;
}

static void
xmlparser_dealloc(ExpatParserObject *self)
{
    PyObject_GC_UnTrack(self);
    if (self->parser != NULL) {
        XML_ParserFree(self->parser);
        self->parser = NULL;
    }
    _PyExpat_DropHandlers(self);
    Py_CLEAR(self->intern);
    PyMem_Free(self->text);
    self->text = NULL;
    Py_CLEAR(self->parent);
    PyObject_GC_Del(self);
}

PyTypeObject _PyExpat_ParserType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pyexpat.xmlparser",
    .tp_basicsize = sizeof(ExpatParserObject),
    .tp_dealloc = (destructor)xmlparser_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "An XML parser made by ParserCreate().",
    .tp_traverse = (traverseproc)xmlparser_traverse,
    .tp_clear = (inquiry)xmlparser_clear,
    .tp_methods = xmlparser_methods,
    .tp_getset = xmlparser_getset,
    .tp_members = xmlparser_members,
};

#endif /* HAVE_EXPAT */
