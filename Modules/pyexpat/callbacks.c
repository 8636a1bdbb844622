/* pyexpat's side of expat's callbacks.

   Expat reports each event through a C function pointer.  For every handler
   slot there is one such function here ("on_*"); it is registered with
   expat only while the Python attribute holds a handler, because some
   registrations change what expat does (a DefaultHandler turns off entity
   expansion, a SkippedEntityHandler sees undeclared entities).

   Every event goes through the same three steps:
     event_wanted()  - drop it after a handler failed, flush buffered text
                       so events stay in document order;
     build the argument tuple with pack_args() (it steals its items);
     dispatch()      - call the handler; on an exception stop the parser and
                       drop every handler so nothing more runs before Parse
                       returns the exception to its caller.

   Character data may be coalesced (buffer_text): see append_text(). */

#include "pyexpat.h"

#ifdef HAVE_EXPAT

#include <stdarg.h>
#include <string.h>

const char *const _PyExpat_HandlerNames[EH_COUNT] = {
    [EH_START_ELEMENT] = "StartElementHandler",
    [EH_END_ELEMENT] = "EndElementHandler",
    [EH_PROCESSING_INSTRUCTION] = "ProcessingInstructionHandler",
    [EH_CHARACTER_DATA] = "CharacterDataHandler",
    [EH_UNPARSED_ENTITY_DECL] = "UnparsedEntityDeclHandler",
    [EH_NOTATION_DECL] = "NotationDeclHandler",
    [EH_START_NAMESPACE_DECL] = "StartNamespaceDeclHandler",
    [EH_END_NAMESPACE_DECL] = "EndNamespaceDeclHandler",
    [EH_COMMENT] = "CommentHandler",
    [EH_START_CDATA_SECTION] = "StartCdataSectionHandler",
    [EH_END_CDATA_SECTION] = "EndCdataSectionHandler",
    [EH_DEFAULT] = "DefaultHandler",
    [EH_DEFAULT_EXPAND] = "DefaultHandlerExpand",
    [EH_NOT_STANDALONE] = "NotStandaloneHandler",
    [EH_EXTERNAL_ENTITY_REF] = "ExternalEntityRefHandler",
    [EH_START_DOCTYPE_DECL] = "StartDoctypeDeclHandler",
    [EH_END_DOCTYPE_DECL] = "EndDoctypeDeclHandler",
    [EH_ENTITY_DECL] = "EntityDeclHandler",
    [EH_XML_DECL] = "XmlDeclHandler",
    [EH_ELEMENT_DECL] = "ElementDeclHandler",
    [EH_ATTLIST_DECL] = "AttlistDeclHandler",
    [EH_SKIPPED_ENTITY] = "SkippedEntityHandler",
};

/* ---- Converting expat's strings (UTF-8, since XML_Char is char) ---- */

static PyObject *
text_or_none(const XML_Char *s)
{
    if (s == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "strict");
}

static PyObject *
text_sized(const XML_Char *s, int len)
{
    return PyUnicode_DecodeUTF8(s, len, "strict");
}

/* Names (of elements and attributes) are shared through the parser's
   intern dict, so a document with many equal tags holds one str each. */
static PyObject *
shared_name(ExpatParserObject *self, const XML_Char *s)
{
    PyObject *fresh = text_or_none(s);
    if (fresh == NULL || fresh == Py_None || self->intern == NULL) {
        return fresh;
    }
    PyObject *kept;
    int rc = PyDict_SetDefaultRef(self->intern, fresh, fresh, &kept);
    Py_DECREF(fresh);
    return rc < 0 ? NULL : kept;
}

static PyObject *
small_int(long v)
{
    return PyLong_FromLong(v);
}

/* A tuple made of `n` new references, which it steals.  Any NULL item (a
   failed conversion, exception set) makes the whole result NULL. */
static PyObject *
pack_args(Py_ssize_t n, ...)
{
    PyObject *tuple = PyTuple_New(n);
    int broken = (tuple == NULL);
    va_list items;
    va_start(items, n);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = va_arg(items, PyObject *);
        if (item == NULL) {
            broken = 1;
        }
        if (broken) {
            Py_XDECREF(item);
        }
        else {
            PyTuple_SET_ITEM(tuple, i, item);
        }
    }
    va_end(items);
    if (broken) {
        Py_XDECREF(tuple);
        return NULL;
    }
    return tuple;
}

/* ---- Dispatch ---- */

static void
handler_raised(ExpatParserObject *self)
{
    self->handler_failed = 1;
    /* Only meaningful while expat is running; harmless otherwise. */
    XML_StopParser(self->parser, XML_FALSE);
    _PyExpat_DropHandlers(self);
}

/* Call the handler in `slot` with `args` (stolen; NULL when building them
   failed).  Returns the handler's result, or NULL after the failure has
   been recorded. */
static PyObject *
dispatch(ExpatParserObject *self, int slot, PyObject *args)
{
    PyObject *result = NULL;
    PyObject *fn = self->handlers[slot];
    if (args != NULL && fn != NULL) {
        Py_INCREF(fn);
        result = PyObject_Call(fn, args, NULL);
        Py_DECREF(fn);
    }
    Py_XDECREF(args);
    if (result == NULL && PyErr_Occurred()) {
        handler_raised(self);
    }
    return result;
}

static void
dispatch_void(ExpatParserObject *self, int slot, PyObject *args)
{
    Py_XDECREF(dispatch(self, slot, args));
}

/* Whether an event should reach Python.  Text waiting in the buffer goes
   out first, as it came earlier in the document. */
static int
event_wanted(ExpatParserObject *self, int slot)
{
    if (self->handler_failed || self->handlers[slot] == NULL) {
        return 0;
    }
    if (_PyExpat_FlushText(self) < 0) {
        return 0;
    }
    return self->handlers[slot] != NULL;
}

/* ---- Character data and its buffer ---- */

static void
deliver_text(ExpatParserObject *self, const XML_Char *s, int len)
{
    dispatch_void(self, EH_CHARACTER_DATA, pack_args(1, text_sized(s, len)));
}

int
_PyExpat_FlushText(ExpatParserObject *self)
{
    if (self->text == NULL || self->text_used == 0) {
        return 0;
    }
    if (self->handler_failed || self->handlers[EH_CHARACTER_DATA] == NULL) {
        self->text_used = 0;
        return 0;
    }
    /* buffer_used still reports the pending length while the handler runs. */
    PyObject *args = pack_args(1, text_sized(self->text, self->text_used));
    PyObject *result = dispatch(self, EH_CHARACTER_DATA, args);
    self->text_used = 0;
    if (result == NULL) {
        return -1;
    }
    Py_DECREF(result);
    return 0;
}

/* Pieces that fit are appended to the buffer; a piece larger than the
   whole buffer goes straight to the handler (after what was pending). */
static void
append_text(ExpatParserObject *self, const XML_Char *s, int len)
{
    if (self->text_used + (long)len > self->text_size) {
        if (_PyExpat_FlushText(self) < 0 || self->handler_failed) {
            return;
        }
    }
    /* The flush ran Python code, which may have changed the buffer. */
    if (self->text == NULL || self->text_used + (long)len > self->text_size) {
        if (self->handlers[EH_CHARACTER_DATA] != NULL) {
            deliver_text(self, s, len);
        }
        return;
    }
    memcpy(self->text + self->text_used, s, (size_t)len);
    self->text_used += len;
}

static void XMLCALL
on_character_data(void *ud, const XML_Char *s, int len)
{
    ExpatParserObject *self = ud;
    if (self->handler_failed || self->handlers[EH_CHARACTER_DATA] == NULL) {
        return;
    }
    if (self->text != NULL) {
        append_text(self, s, len);
    }
    else {
        deliver_text(self, s, len);
    }
}

/* ---- Elements ---- */

static PyObject *
attributes_object(ExpatParserObject *self, const XML_Char **atts)
{
    int count = 0;
    while (atts[count] != NULL) {
        count += 2;
    }
    if (self->specified_attributes) {
        count = XML_GetSpecifiedAttributeCount(self->parser);
    }
    PyObject *out = self->ordered_attributes ? PyList_New(0) : PyDict_New();
    if (out == NULL) {
        return NULL;
    }
    for (int i = 0; i < count && atts[i] != NULL; i += 2) {
        PyObject *key = shared_name(self, atts[i]);
        PyObject *value = key ? text_or_none(atts[i + 1]) : NULL;
        int rc = -1;
        if (value != NULL) {
            if (self->ordered_attributes) {
                rc = PyList_Append(out, key) < 0 ? -1 : PyList_Append(out, value);
            }
            else {
                rc = PyDict_SetItem(out, key, value);
            }
        }
        Py_XDECREF(key);
        Py_XDECREF(value);
        if (rc < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

static void XMLCALL
on_start_element(void *ud, const XML_Char *name, const XML_Char **atts)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_START_ELEMENT)) {
        /* Attributes first: the intern dict then fills in document order
           of the names as CPython's does. */
        PyObject *attrs = attributes_object(self, atts);
        PyObject *tag = attrs ? shared_name(self, name) : NULL;
        dispatch_void(self, EH_START_ELEMENT, pack_args(2, tag, attrs));
    }
}

static void XMLCALL
on_end_element(void *ud, const XML_Char *name)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_END_ELEMENT)) {
        dispatch_void(self, EH_END_ELEMENT, pack_args(1, shared_name(self, name)));
    }
}

/* ---- Events carrying only strings ---- */

static void XMLCALL
on_processing_instruction(void *ud, const XML_Char *target, const XML_Char *data)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_PROCESSING_INSTRUCTION)) {
        dispatch_void(self, EH_PROCESSING_INSTRUCTION,
                      pack_args(2, text_or_none(target), text_or_none(data)));
    }
}

static void XMLCALL
on_unparsed_entity_decl(void *ud, const XML_Char *entity, const XML_Char *base,
                        const XML_Char *system_id, const XML_Char *public_id,
                        const XML_Char *notation)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_UNPARSED_ENTITY_DECL)) {
        dispatch_void(self, EH_UNPARSED_ENTITY_DECL,
                      pack_args(5, text_or_none(entity), text_or_none(base),
                                text_or_none(system_id), text_or_none(public_id),
                                text_or_none(notation)));
    }
}

static void XMLCALL
on_notation_decl(void *ud, const XML_Char *notation, const XML_Char *base,
                 const XML_Char *system_id, const XML_Char *public_id)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_NOTATION_DECL)) {
        dispatch_void(self, EH_NOTATION_DECL,
                      pack_args(4, text_or_none(notation), text_or_none(base),
                                text_or_none(system_id), text_or_none(public_id)));
    }
}

static void XMLCALL
on_start_namespace_decl(void *ud, const XML_Char *prefix, const XML_Char *uri)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_START_NAMESPACE_DECL)) {
        dispatch_void(self, EH_START_NAMESPACE_DECL,
                      pack_args(2, text_or_none(prefix), text_or_none(uri)));
    }
}

static void XMLCALL
on_end_namespace_decl(void *ud, const XML_Char *prefix)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_END_NAMESPACE_DECL)) {
        dispatch_void(self, EH_END_NAMESPACE_DECL, pack_args(1, text_or_none(prefix)));
    }
}

static void XMLCALL
on_comment(void *ud, const XML_Char *data)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_COMMENT)) {
        dispatch_void(self, EH_COMMENT, pack_args(1, text_or_none(data)));
    }
}

static void XMLCALL
on_start_cdata(void *ud)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_START_CDATA_SECTION)) {
        dispatch_void(self, EH_START_CDATA_SECTION, PyTuple_New(0));
    }
}

static void XMLCALL
on_end_cdata(void *ud)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_END_CDATA_SECTION)) {
        dispatch_void(self, EH_END_CDATA_SECTION, PyTuple_New(0));
    }
}

static void XMLCALL
on_default(void *ud, const XML_Char *s, int len)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_DEFAULT)) {
        dispatch_void(self, EH_DEFAULT, pack_args(1, text_sized(s, len)));
    }
}

static void XMLCALL
on_default_expand(void *ud, const XML_Char *s, int len)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_DEFAULT_EXPAND)) {
        dispatch_void(self, EH_DEFAULT_EXPAND, pack_args(1, text_sized(s, len)));
    }
}

static void XMLCALL
on_end_doctype(void *ud)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_END_DOCTYPE_DECL)) {
        dispatch_void(self, EH_END_DOCTYPE_DECL, PyTuple_New(0));
    }
}

static void XMLCALL
on_skipped_entity(void *ud, const XML_Char *name, int is_parameter_entity)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_SKIPPED_ENTITY)) {
        dispatch_void(self, EH_SKIPPED_ENTITY,
                      pack_args(2, text_or_none(name), small_int(is_parameter_entity)));
    }
}

/* ---- Declarations ---- */

static void XMLCALL
on_start_doctype(void *ud, const XML_Char *name, const XML_Char *system_id,
                 const XML_Char *public_id, int has_internal_subset)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_START_DOCTYPE_DECL)) {
        dispatch_void(self, EH_START_DOCTYPE_DECL,
                      pack_args(4, text_or_none(name), text_or_none(system_id),
                                text_or_none(public_id), small_int(has_internal_subset)));
    }
}

static void XMLCALL
on_entity_decl(void *ud, const XML_Char *name, int is_parameter_entity,
               const XML_Char *value, int value_length, const XML_Char *base,
               const XML_Char *system_id, const XML_Char *public_id,
               const XML_Char *notation)
{
    ExpatParserObject *self = ud;
    if (!event_wanted(self, EH_ENTITY_DECL)) {
        return;
    }
    /* An external entity has no value (NULL), an internal one a sized one. */
    PyObject *text = value ? text_sized(value, value_length) : Py_NewRef(Py_None);
    dispatch_void(self, EH_ENTITY_DECL,
                  pack_args(7, text_or_none(name), small_int(is_parameter_entity),
                            text, text_or_none(base), text_or_none(system_id),
                            text_or_none(public_id), text_or_none(notation)));
}

static void XMLCALL
on_xml_decl(void *ud, const XML_Char *version, const XML_Char *encoding,
            int standalone)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_XML_DECL)) {
        dispatch_void(self, EH_XML_DECL,
                      pack_args(3, text_or_none(version), text_or_none(encoding),
                                small_int(standalone)));
    }
}

/* An element's content model as nested tuples:
   (type, quantifier, name or None, (child models...)). */
static PyObject *
content_model(const XML_Content *node)
{
    PyObject *children = PyTuple_New(node->numchildren);
    if (children == NULL) {
        return NULL;
    }
    for (unsigned int i = 0; i < node->numchildren; i++) {
        PyObject *child = content_model(&node->children[i]);
        if (child == NULL) {
            Py_DECREF(children);
            return NULL;
        }
        PyTuple_SET_ITEM(children, i, child);
    }
    return pack_args(4, small_int(node->type), small_int(node->quant),
                     text_or_none(node->name), children);
}

static void XMLCALL
on_element_decl(void *ud, const XML_Char *name, XML_Content *model)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_ELEMENT_DECL)) {
        PyObject *tree = content_model(model);
        dispatch_void(self, EH_ELEMENT_DECL,
                      pack_args(2, text_or_none(name), tree));
    }
    /* The model is ours to free whether or not Python saw it. */
    XML_FreeContentModel(self->parser, model);
}

static void XMLCALL
on_attlist_decl(void *ud, const XML_Char *element, const XML_Char *attribute,
                const XML_Char *type, const XML_Char *default_value,
                int required)
{
    ExpatParserObject *self = ud;
    if (event_wanted(self, EH_ATTLIST_DECL)) {
        dispatch_void(self, EH_ATTLIST_DECL,
                      pack_args(5, text_or_none(element), text_or_none(attribute),
                                text_or_none(type), text_or_none(default_value),
                                small_int(required)));
    }
}

/* ---- Events whose handler answers expat ---- */

/* The handler's result as the int expat wants; -1 with an exception. */
static int
answer_as_int(ExpatParserObject *self, PyObject *result)
{
    if (result == NULL) {
        return -1;
    }
    long v = PyLong_AsLong(result);
    Py_DECREF(result);
    if (v == -1 && PyErr_Occurred()) {
        handler_raised(self);
        return -1;
    }
    return (int)v;
}

static int XMLCALL
on_not_standalone(void *ud)
{
    ExpatParserObject *self = ud;
    if (!event_wanted(self, EH_NOT_STANDALONE)) {
        return 0;
    }
    int v = answer_as_int(self, dispatch(self, EH_NOT_STANDALONE, PyTuple_New(0)));
    return v < 0 ? 0 : v;
}

static int XMLCALL
on_external_entity_ref(XML_Parser parser, const XML_Char *context,
                       const XML_Char *base, const XML_Char *system_id,
                       const XML_Char *public_id)
{
    ExpatParserObject *self = XML_GetUserData(parser);
    if (!event_wanted(self, EH_EXTERNAL_ENTITY_REF)) {
        return 0;
    }
    PyObject *args = pack_args(4, text_or_none(context), text_or_none(base),
                               text_or_none(system_id), text_or_none(public_id));
    int v = answer_as_int(self, dispatch(self, EH_EXTERNAL_ENTITY_REF, args));
    return v < 0 ? 0 : v;
}

/* ---- Encodings expat does not know ---- */

/* Expat knows UTF-8, UTF-16, ISO-8859-1 and US-ASCII.  Any other encoding
   Python has a single-byte codec for is described to expat as a 256-entry
   map; bytes the codec cannot decode are marked invalid (-1). */
static int XMLCALL
on_unknown_encoding(void *unused, const XML_Char *name, XML_Encoding *info)
{
    char every_byte[256];
    for (int i = 0; i < 256; i++) {
        every_byte[i] = (char)i;
    }
    PyObject *decoded = PyUnicode_Decode(every_byte, 256, name, "replace");
    if (decoded == NULL) {
        /* The codec's LookupError is what Parse() raises. */
        return XML_STATUS_ERROR;
    }
    int ok = (PyUnicode_GET_LENGTH(decoded) == 256);
    for (int i = 0; ok && i < 256; i++) {
        Py_UCS4 ch = PyUnicode_READ_CHAR(decoded, i);
        info->map[i] = (ch == 0xFFFD) ? -1 : (int)ch;
    }
    Py_DECREF(decoded);
    info->data = NULL;
    info->convert = NULL;
    info->release = NULL;
    return ok ? XML_STATUS_OK : XML_STATUS_ERROR;
}

/* ---- Registration ---- */

/* DefaultHandler and DefaultHandlerExpand share one expat hook: clearing
   one must leave the other in place if it is set. */
static void
install_default(ExpatParserObject *self)
{
    if (self->handlers[EH_DEFAULT] != NULL) {
        XML_SetDefaultHandler(self->parser, on_default);
    }
    else if (self->handlers[EH_DEFAULT_EXPAND] != NULL) {
        XML_SetDefaultHandlerExpand(self->parser, on_default_expand);
    }
    else {
        XML_SetDefaultHandlerExpand(self->parser, NULL);
    }
}

void
_PyExpat_InstallHandler(ExpatParserObject *self, int slot, int on)
{
    XML_Parser p = self->parser;
#define HOOK(fn) (on ? (fn) : NULL)
    switch ((ExpatHandlerSlot)slot) {
    case EH_START_ELEMENT:
        XML_SetStartElementHandler(p, HOOK(on_start_element));
        break;
    case EH_END_ELEMENT:
        XML_SetEndElementHandler(p, HOOK(on_end_element));
        break;
    case EH_PROCESSING_INSTRUCTION:
        XML_SetProcessingInstructionHandler(p, HOOK(on_processing_instruction));
        break;
    case EH_CHARACTER_DATA:
        XML_SetCharacterDataHandler(p, HOOK(on_character_data));
        break;
    case EH_UNPARSED_ENTITY_DECL:
        XML_SetUnparsedEntityDeclHandler(p, HOOK(on_unparsed_entity_decl));
        break;
    case EH_NOTATION_DECL:
        XML_SetNotationDeclHandler(p, HOOK(on_notation_decl));
        break;
    case EH_START_NAMESPACE_DECL:
        XML_SetStartNamespaceDeclHandler(p, HOOK(on_start_namespace_decl));
        break;
    case EH_END_NAMESPACE_DECL:
        XML_SetEndNamespaceDeclHandler(p, HOOK(on_end_namespace_decl));
        break;
    case EH_COMMENT:
        XML_SetCommentHandler(p, HOOK(on_comment));
        break;
    case EH_START_CDATA_SECTION:
        XML_SetStartCdataSectionHandler(p, HOOK(on_start_cdata));
        break;
    case EH_END_CDATA_SECTION:
        XML_SetEndCdataSectionHandler(p, HOOK(on_end_cdata));
        break;
    case EH_DEFAULT:
    case EH_DEFAULT_EXPAND:
        install_default(self);
        break;
    case EH_NOT_STANDALONE:
        XML_SetNotStandaloneHandler(p, HOOK(on_not_standalone));
        break;
    case EH_EXTERNAL_ENTITY_REF:
        XML_SetExternalEntityRefHandler(p, HOOK(on_external_entity_ref));
        break;
    case EH_START_DOCTYPE_DECL:
        XML_SetStartDoctypeDeclHandler(p, HOOK(on_start_doctype));
        break;
    case EH_END_DOCTYPE_DECL:
        XML_SetEndDoctypeDeclHandler(p, HOOK(on_end_doctype));
        break;
    case EH_ENTITY_DECL:
        XML_SetEntityDeclHandler(p, HOOK(on_entity_decl));
        break;
    case EH_XML_DECL:
        XML_SetXmlDeclHandler(p, HOOK(on_xml_decl));
        break;
    case EH_ELEMENT_DECL:
        XML_SetElementDeclHandler(p, HOOK(on_element_decl));
        break;
    case EH_ATTLIST_DECL:
        XML_SetAttlistDeclHandler(p, HOOK(on_attlist_decl));
        break;
    case EH_SKIPPED_ENTITY:
        XML_SetSkippedEntityHandler(p, HOOK(on_skipped_entity));
        break;
    case EH_COUNT:
        break;
    }
#undef HOOK
}

void
_PyExpat_InstallFixedHandlers(ExpatParserObject *self)
{
    XML_SetUserData(self->parser, self);
    XML_SetUnknownEncodingHandler(self->parser, on_unknown_encoding, NULL);
}

void
_PyExpat_DropHandlers(ExpatParserObject *self)
{
    for (int slot = 0; slot < EH_COUNT; slot++) {
        PyObject *old = self->handlers[slot];
        self->handlers[slot] = NULL;
        if (self->parser != NULL) {
            _PyExpat_InstallHandler(self, slot, 0);
        }
        Py_XDECREF(old);
    }
}

#endif /* HAVE_EXPAT */
