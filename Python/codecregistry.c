/* The codec registry: search functions, the lookup cache, the named error
   handlers, and the PyCodec_* C API on top of them.

   Python/codecs.c keeps the built-in encodings with their fast paths; an
   encoding it does not know comes here through _PyCodec_EncodeHook and
   _PyCodec_DecodeHook, and an error handler name it does not know through
   _PyCodec_CallEncodeErrorHandler / _PyCodec_CallDecodeErrorHandler.

   The first lookup imports the `encodings` package, whose import registers
   encodings.search_function.  State is process-wide for now: one
   interpreter. */

#include "Python.h"
#include "pycore_codecs.h"

static PyObject *search_path;    /* list of search functions */
static PyObject *lookup_cache;   /* normalised name -> CodecInfo */
static PyObject *error_handlers; /* name -> callable */
static int importing_encodings;

static int register_builtin_handlers(PyObject *registry);

static int
registry_ready(void)
{
    if (search_path != NULL) {
        return 0;
    }
    PyObject *path = PyList_New(0);
    PyObject *cache = PyDict_New();
    PyObject *handlers = PyDict_New();
    if (path == NULL || cache == NULL || handlers == NULL ||
        register_builtin_handlers(handlers) < 0) {
        Py_XDECREF(path);
        Py_XDECREF(cache);
        Py_XDECREF(handlers);
        return -1;
    }
    search_path = path;
    lookup_cache = cache;
    error_handlers = handlers;
    return 0;
}

/* The key of the cache and the name the search functions see: lower
   case, runs of punctuation and spaces as one underscore. */
static PyObject *
normalized_name(const char *encoding)
{
    size_t n = strlen(encoding);
    char *buf = PyMem_Malloc(n + 2);
    if (buf == NULL) {
        return PyErr_NoMemory();
    }
    (void)_PyCodec_NormalizeName(encoding, buf, n + 2);
    PyObject *res = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)strlen(buf), "surrogateescape");
    PyMem_Free(buf);
    return res;
}

/* Drop the registry at interpreter exit (Py_FinalizeEx), after the
   modules are cleared, so what it holds can be collected. */
void
_PyCodec_Fini(void)
{
    Py_CLEAR(search_path);
    Py_CLEAR(lookup_cache);
    Py_CLEAR(error_handlers);
}

/* ---- Search functions ------------------------------------------------------------------ */

int
PyCodec_Register(PyObject *search_function)
{
    if (registry_ready() < 0) {
        return -1;
    }
    if (!PyCallable_Check(search_function)) {
        PyErr_SetString(PyExc_TypeError, "argument must be callable");
        return -1;
    }
    return PyList_Append(search_path, search_function);
}

int
PyCodec_Unregister(PyObject *search_function)
{
    if (registry_ready() < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(search_path); i++) {
        if (PyList_GET_ITEM(search_path, i) == search_function) {
            PyDict_Clear(lookup_cache);
            return PySequence_DelItem(search_path, i);
        }
    }
    return 0;
}

int
_PyCodec_Forget(const char *encoding)
{
    if (registry_ready() < 0) {
        return -1;
    }
    PyObject *key = normalized_name(encoding);
    if (key == NULL) {
        return -1;
    }
    int r = PyDict_Pop(lookup_cache, key, NULL);
    Py_DECREF(key);
    return r < 0 ? -1 : 0;
}

/* Import `encodings` once, so its search function is registered. */
static int
ensure_encodings(void)
{
    if (PyList_GET_SIZE(search_path) > 0 || importing_encodings) {
        return 0;
    }
    importing_encodings = 1;
    PyObject *mod = PyImport_ImportModule("encodings");
    importing_encodings = 0;
    if (mod == NULL) {
        return -1;
    }
    Py_DECREF(mod);
    return 0;
}

/* Ask each search function in turn; the first non-None answer wins. */
static PyObject *
search_codec(PyObject *key)
{
    PyObject *path = PySequence_Tuple(search_path);
    if (path == NULL) {
        return NULL;
    }
    PyObject *found = NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(path) && found == NULL; i++) {
        PyObject *info = PyObject_CallOneArg(PyTuple_GET_ITEM(path, i), key);
        if (info == NULL) {
            break;
        }
        if (info == Py_None) {
            Py_DECREF(info);
            continue;
        }
        if (!PyTuple_Check(info) || PyTuple_GET_SIZE(info) != 4) {
            PyErr_SetString(PyExc_TypeError, "codec search functions must return 4-tuples");
            Py_DECREF(info);
            break;
        }
        found = info;
    }
    Py_DECREF(path);
    return found;
}

PyObject *
PyCodec_Lookup(const char *encoding)
{
    if (encoding == NULL) {
        PyErr_BadArgument();
        return NULL;
    }
    if (registry_ready() < 0 || ensure_encodings() < 0) {
        return NULL;
    }
    PyObject *key = normalized_name(encoding);
    if (key == NULL) {
        return NULL;
    }
    PyObject *info;
    if (PyDict_GetItemRef(lookup_cache, key, &info) != 0) {
        Py_DECREF(key);
        return info;
    }
    info = search_codec(key);
    if (info != NULL && PyDict_SetItem(lookup_cache, key, info) < 0) {
        Py_CLEAR(info);
    }
    Py_DECREF(key);
    if (info == NULL && !PyErr_Occurred()) {
        PyErr_Format(PyExc_LookupError, "unknown encoding: %s", encoding);
    }
    return info;
}

int
PyCodec_KnownEncoding(const char *encoding)
{
    PyObject *info = PyCodec_Lookup(encoding);
    if (info == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(info);
    return 1;
}

/* One of the four CodecInfo entries: 0 encoder, 1 decoder, 2 reader, 3 writer. */
static PyObject *
codec_part(const char *encoding, Py_ssize_t index)
{
    PyObject *info = PyCodec_Lookup(encoding);
    if (info == NULL) {
        return NULL;
    }
    PyObject *part = Py_NewRef(PyTuple_GET_ITEM(info, index));
    Py_DECREF(info);
    return part;
}

PyObject *
PyCodec_Encoder(const char *encoding)
{
    return codec_part(encoding, 0);
}

PyObject *
PyCodec_Decoder(const char *encoding)
{
    return codec_part(encoding, 1);
}

/* Incremental coders and streams come from CodecInfo attributes. */
static PyObject *
make_from_attr(const char *encoding, const char *attr, PyObject *arg, const char *errors)
{
    PyObject *info = PyCodec_Lookup(encoding);
    if (info == NULL) {
        return NULL;
    }
    PyObject *factory = PyObject_GetAttrString(info, attr);
    Py_DECREF(info);
    if (factory == NULL) {
        return NULL;
    }
    PyObject *res;
    if (arg != NULL) {
        res = errors ? PyObject_CallFunction(factory, "Os", arg, errors)
                     : PyObject_CallOneArg(factory, arg);
    }
    else {
        res = errors ? PyObject_CallFunction(factory, "s", errors) : PyObject_CallNoArgs(factory);
    }
    Py_DECREF(factory);
    return res;
}

PyObject *
PyCodec_IncrementalEncoder(const char *encoding, const char *errors)
{
    return make_from_attr(encoding, "incrementalencoder", NULL, errors);
}

PyObject *
PyCodec_IncrementalDecoder(const char *encoding, const char *errors)
{
    return make_from_attr(encoding, "incrementaldecoder", NULL, errors);
}

PyObject *
PyCodec_StreamReader(const char *encoding, PyObject *stream, const char *errors)
{
    return make_from_attr(encoding, "streamreader", stream, errors);
}

PyObject *
PyCodec_StreamWriter(const char *encoding, PyObject *stream, const char *errors)
{
    return make_from_attr(encoding, "streamwriter", stream, errors);
}

/* Run a stateless coder: it returns (result, length consumed). */
static PyObject *
run_coder(PyObject *coder, PyObject *obj, const char *errors, const char *what)
{
    PyObject *res = errors ? PyObject_CallFunction(coder, "Os", obj, errors)
                           : PyObject_CallOneArg(coder, obj);
    if (res == NULL) {
        return NULL;
    }
    if (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != 2) {
        PyErr_Format(PyExc_TypeError, "%s must return a tuple (object, integer)", what);
        Py_DECREF(res);
        return NULL;
    }
    PyObject *value = Py_NewRef(PyTuple_GET_ITEM(res, 0));
    Py_DECREF(res);
    return value;
}

PyObject *
PyCodec_Encode(PyObject *object, const char *encoding, const char *errors)
{
    PyObject *enc = PyCodec_Encoder(encoding);
    if (enc == NULL) {
        return NULL;
    }
    PyObject *res = run_coder(enc, object, errors, "encoder");
    Py_DECREF(enc);
    return res;
}

PyObject *
PyCodec_Decode(PyObject *object, const char *encoding, const char *errors)
{
    PyObject *dec = PyCodec_Decoder(encoding);
    if (dec == NULL) {
        return NULL;
    }
    PyObject *res = run_coder(dec, object, errors, "decoder");
    Py_DECREF(dec);
    return res;
}

/* ---- str.encode / bytes.decode with a registered encoding -------------------------------- */

/* The coder of a text encoding; codecs such as rot13 or zlib mark
   themselves with _is_text_encoding = False. */
static PyObject *
text_coder(const char *encoding, Py_ssize_t index, const char *alternative)
{
    PyObject *info = PyCodec_Lookup(encoding);
    if (info == NULL) {
        return NULL;
    }
    PyObject *flag;
    if (PyObject_GetOptionalAttrString(info, "_is_text_encoding", &flag) < 0) {
        Py_DECREF(info);
        return NULL;
    }
    if (flag != NULL) {
        int is_text = PyObject_IsTrue(flag);
        Py_DECREF(flag);
        if (is_text <= 0) {
            Py_DECREF(info);
            if (is_text == 0) {
                PyErr_Format(PyExc_LookupError,
                             "'%.400s' is not a text encoding; use %s to handle arbitrary codecs",
                             encoding, alternative);
            }
            return NULL;
        }
    }
    PyObject *coder = Py_NewRef(PyTuple_GET_ITEM(info, index));
    Py_DECREF(info);
    return coder;
}

PyObject *
_PyCodec_TextEncodeViaRegistry(PyObject *str, const char *encoding, const char *errors)
{
    PyObject *enc = text_coder(encoding, 0, "codecs.encode()");
    if (enc == NULL) {
        return NULL;
    }
    PyObject *res = run_coder(enc, str, errors, "encoder");
    Py_DECREF(enc);
    return res;
}

PyObject *
_PyCodec_TextDecodeViaRegistry(PyObject *data, const char *encoding, const char *errors)
{
    PyObject *dec = text_coder(encoding, 1, "codecs.decode()");
    if (dec == NULL) {
        return NULL;
    }
    PyObject *res = run_coder(dec, data, errors, "decoder");
    Py_DECREF(dec);
    return res;
}

/* ---- Named error handlers -------------------------------------------------------------- */

int
PyCodec_RegisterError(const char *name, PyObject *error)
{
    if (registry_ready() < 0) {
        return -1;
    }
    if (!PyCallable_Check(error)) {
        PyErr_SetString(PyExc_TypeError, "handler must be callable");
        return -1;
    }
    return PyDict_SetItemString(error_handlers, name, error);
}

int
_PyCodec_UnregisterError(const char *name)
{
    static const char *const fixed[] = {
        "strict", "ignore", "replace", "xmlcharrefreplace", "backslashreplace",
        "namereplace", "surrogateescape", "surrogatepass",
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(fixed); i++) {
        if (strcmp(name, fixed[i]) == 0) {
            PyErr_Format(PyExc_ValueError, "cannot un-register built-in error handler '%s'", name);
            return -1;
        }
    }
    if (registry_ready() < 0) {
        return -1;
    }
    PyObject *key = PyUnicode_FromString(name);
    if (key == NULL) {
        return -1;
    }
    int r = PyDict_Pop(error_handlers, key, NULL);
    Py_DECREF(key);
    return r;
}

PyObject *
PyCodec_LookupError(const char *name)
{
    if (registry_ready() < 0) {
        return NULL;
    }
    if (name == NULL) {
        name = "strict";
    }
    PyObject *handler;
    int r = PyDict_GetItemStringRef(error_handlers, name, &handler);
    if (r == 0) {
        PyErr_Format(PyExc_LookupError, "unknown error handler name '%.400s'", name);
    }
    return r > 0 ? handler : NULL;
}

/* Call handler(exc) and check its (replacement, position) answer; a
   negative position counts from the end of the input.  `accept_bytes`:
   encoders may be given bytes to copy as they are. */
static PyObject *
call_handler(const char *errors, PyObject *exc, Py_ssize_t length, int accept_bytes,
             Py_ssize_t *newpos)
{
    PyObject *handler = PyCodec_LookupError(errors);
    if (handler == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_CallOneArg(handler, exc);
    Py_DECREF(handler);
    if (res == NULL) {
        return NULL;
    }
    PyObject *repl = PyTuple_Check(res) && PyTuple_GET_SIZE(res) == 2
                         ? PyTuple_GET_ITEM(res, 0) : NULL;
    if (repl == NULL || !(PyUnicode_Check(repl) || (accept_bytes && PyBytes_Check(repl))) ||
        !PyLong_Check(PyTuple_GET_ITEM(res, 1))) {
        PyErr_SetString(PyExc_TypeError,
                        accept_bytes ? "encoding error handler must return (str/bytes, int) tuple"
                                     : "decoding error handler must return (str, int) tuple");
        Py_DECREF(res);
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(PyTuple_GET_ITEM(res, 1));
    if (pos == -1 && PyErr_Occurred()) {
        Py_DECREF(res);
        return NULL;
    }
    if (pos < 0) {
        pos += length;
    }
    if (pos < 0 || pos > length) {
        PyErr_Format(PyExc_IndexError, "position %zd from error handler out of bounds", pos);
        Py_DECREF(res);
        return NULL;
    }
    *newpos = pos;
    Py_INCREF(repl);
    Py_DECREF(res);
    return repl;
}

PyObject *
_PyCodec_CallEncodeErrorHandler(const char *errors, const char *encoding, PyObject *str,
                                Py_ssize_t start, Py_ssize_t end, const char *reason,
                                Py_ssize_t *newpos)
{
    PyObject *exc = PyObject_CallFunction(PyExc_UnicodeEncodeError, "sOnns", encoding, str,
                                          start, end, reason);
    if (exc == NULL) {
        return NULL;
    }
    PyObject *repl = call_handler(errors, exc, PyUnicode_GET_LENGTH(str), 1, newpos);
    Py_DECREF(exc);
    return repl;
}

PyObject *
_PyCodec_CallDecodeErrorHandler(const char *errors, const char *encoding, const char *s,
                                Py_ssize_t size, Py_ssize_t start, Py_ssize_t end,
                                const char *reason, Py_ssize_t *newpos)
{
    PyObject *exc = PyUnicodeDecodeError_Create(encoding, s, size, start, end, reason);
    if (exc == NULL) {
        return NULL;
    }
    PyObject *repl = call_handler(errors, exc, size, 0, newpos);
    Py_DECREF(exc);
    return repl;
}

/* ---- The built-in handlers as Python callables ----------------------------------------

   The C codecs apply these themselves without calling them; the
   callables serve codecs written in Python (charmap, cp*, ...) and
   codecs.lookup_error(). */

typedef enum { ERR_ENCODE, ERR_DECODE, ERR_TRANSLATE, ERR_OTHER } errkind;

static errkind
error_kind(PyObject *exc)
{
    if (PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_UnicodeEncodeError)) {
        return ERR_ENCODE;
    }
    if (PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_UnicodeDecodeError)) {
        return ERR_DECODE;
    }
    if (PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_UnicodeTranslateError)) {
        return ERR_TRANSLATE;
    }
    return ERR_OTHER;
}

static PyObject *
cannot_handle(PyObject *exc)
{
    PyErr_Format(PyExc_TypeError, "don't know how to handle %.200s in error callback",
                 Py_TYPE(exc)->tp_name);
    return NULL;
}

/* start/end of any of the three error kinds; both clamped by the getters. */
static int
error_range(PyObject *exc, errkind kind, Py_ssize_t *start, Py_ssize_t *end)
{
    switch (kind) {
    case ERR_ENCODE:
        return PyUnicodeEncodeError_GetStart(exc, start) < 0 ||
               PyUnicodeEncodeError_GetEnd(exc, end) < 0 ? -1 : 0;
    case ERR_DECODE:
        return PyUnicodeDecodeError_GetStart(exc, start) < 0 ||
               PyUnicodeDecodeError_GetEnd(exc, end) < 0 ? -1 : 0;
    default:
        return PyUnicodeTranslateError_GetStart(exc, start) < 0 ||
               PyUnicodeTranslateError_GetEnd(exc, end) < 0 ? -1 : 0;
    }
}

static PyObject *
error_object(PyObject *exc, errkind kind)
{
    switch (kind) {
    case ERR_ENCODE:
        return PyUnicodeEncodeError_GetObject(exc);
    case ERR_DECODE:
        return PyUnicodeDecodeError_GetObject(exc);
    default:
        return PyUnicodeTranslateError_GetObject(exc);
    }
}

static PyObject *
answer(PyObject *repl, Py_ssize_t pos)
{
    if (repl == NULL) {
        return NULL;
    }
    PyObject *res = Py_BuildValue("(On)", repl, pos);
    Py_DECREF(repl);
    return res;
}

static PyObject *
handler_strict(PyObject *self, PyObject *exc)
{
    if (!PyExceptionInstance_Check(exc)) {
        PyErr_SetString(PyExc_TypeError, "codec must pass exception instance");
        return NULL;
    }
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    return NULL;
}

static PyObject *
handler_ignore(PyObject *self, PyObject *exc)
{
    errkind kind = error_kind(exc);
    Py_ssize_t start, end;
    if (kind == ERR_OTHER) {
        return cannot_handle(exc);
    }
    if (error_range(exc, kind, &start, &end) < 0) {
        return NULL;
    }
    return answer(PyUnicode_New(0, 0), end);
}

/* n copies of one character. */
static PyObject *
repeat_char(Py_UCS4 c, Py_ssize_t n)
{
    PyObject *s = PyUnicode_New(n, c);
    if (s != NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            PyUnicode_WRITE(PyUnicode_KIND(s), PyUnicode_DATA(s), i, c);
        }
    }
    return s;
}

static PyObject *
handler_replace(PyObject *self, PyObject *exc)
{
    errkind kind = error_kind(exc);
    Py_ssize_t start, end;
    if (kind == ERR_OTHER) {
        return cannot_handle(exc);
    }
    if (error_range(exc, kind, &start, &end) < 0) {
        return NULL;
    }
    Py_ssize_t n = end > start ? end - start : 0;
    switch (kind) {
    case ERR_ENCODE:
        return answer(repeat_char('?', n), end);
    case ERR_DECODE:
        return answer(repeat_char(0xFFFD, 1), end);
    default:
        return answer(repeat_char(0xFFFD, n), end);
    }
}

/* Each character of str[start:end] through `fmt` (a per-character
   printf-style spelling, chosen by code point). */
typedef int (*spell_func)(Py_UCS4 c, char *buf);

static PyObject *
spell_range(PyObject *str, Py_ssize_t start, Py_ssize_t end, spell_func spell)
{
    _PyUnicodeWriter w;
    _PyUnicodeWriter_Init(&w);
    char buf[32];
    for (Py_ssize_t i = start; i < end; i++) {
        int n = spell(PyUnicode_READ_CHAR(str, i), buf);
        if (_PyUnicodeWriter_WriteASCIIString(&w, buf, n) < 0) {
            _PyUnicodeWriter_Dealloc(&w);
            return NULL;
        }
    }
    return _PyUnicodeWriter_Finish(&w);
}

static int
spell_xmlref(Py_UCS4 c, char *buf)
{
    return sprintf(buf, "&#%u;", (unsigned int)c);
}

static int
spell_backslash(Py_UCS4 c, char *buf)
{
    if (c < 0x100) {
        return sprintf(buf, "\\x%02x", (unsigned int)c);
    }
    return sprintf(buf, c < 0x10000 ? "\\u%04x" : "\\U%08x", (unsigned int)c);
}

/* The string part of an encode/translate error: its object and range. */
static PyObject *
text_range(PyObject *exc, errkind kind, Py_ssize_t *start, Py_ssize_t *end)
{
    if (error_range(exc, kind, start, end) < 0) {
        return NULL;
    }
    PyObject *obj = error_object(exc, kind);
    if (obj != NULL && *end < *start) {
        *end = *start;
    }
    return obj;
}

static PyObject *
handler_xmlcharrefreplace(PyObject *self, PyObject *exc)
{
    Py_ssize_t start, end;
    if (error_kind(exc) != ERR_ENCODE) {
        return cannot_handle(exc);
    }
    PyObject *obj = text_range(exc, ERR_ENCODE, &start, &end);
    if (obj == NULL) {
        return NULL;
    }
    PyObject *repl = spell_range(obj, start, end, spell_xmlref);
    Py_DECREF(obj);
    return answer(repl, end);
}

static PyObject *
handler_backslashreplace(PyObject *self, PyObject *exc)
{
    errkind kind = error_kind(exc);
    Py_ssize_t start, end;
    if (kind == ERR_OTHER) {
        return cannot_handle(exc);
    }
    if (kind != ERR_DECODE) {
        PyObject *obj = text_range(exc, kind, &start, &end);
        if (obj == NULL) {
            return NULL;
        }
        PyObject *repl = spell_range(obj, start, end, spell_backslash);
        Py_DECREF(obj);
        return answer(repl, end);
    }
    if (error_range(exc, kind, &start, &end) < 0) {
        return NULL;
    }
    PyObject *obj = error_object(exc, kind);
    if (obj == NULL) {
        return NULL;
    }
    /* Bytes are spelled \xNN: run them through Latin-1 first. */
    PyObject *text = PyUnicode_DecodeLatin1(PyBytes_AS_STRING(obj) + start,
                                            end > start ? end - start : 0, NULL);
    Py_DECREF(obj);
    if (text == NULL) {
        return NULL;
    }
    PyObject *repl = spell_range(text, 0, PyUnicode_GET_LENGTH(text), spell_backslash);
    Py_DECREF(text);
    return answer(repl, end);
}

/* namereplace spells characters by their Unicode names, so it needs the
   unicodedata module; characters without a name are backslash-escaped. */
static PyObject *
handler_namereplace(PyObject *self, PyObject *exc)
{
    Py_ssize_t start, end;
    if (error_kind(exc) != ERR_ENCODE) {
        return cannot_handle(exc);
    }
    PyObject *ucd = PyImport_ImportModule("unicodedata");
    if (ucd == NULL) {
        return NULL;
    }
    PyObject *obj = text_range(exc, ERR_ENCODE, &start, &end);
    if (obj == NULL) {
        Py_DECREF(ucd);
        return NULL;
    }
    _PyUnicodeWriter w;
    _PyUnicodeWriter_Init(&w);
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(obj, i);
        PyObject *name = PyObject_CallMethod(ucd, "name", "NO", PyUnicode_FromOrdinal((int)c),
                                             Py_None);
        int r;
        if (name == NULL) {
            goto error;
        }
        if (name == Py_None) {
            char buf[16];
            r = _PyUnicodeWriter_WriteASCIIString(&w, buf, spell_backslash(c, buf));
        }
        else {
            r = _PyUnicodeWriter_WriteASCIIString(&w, "\\N{", 3) < 0 ||
                _PyUnicodeWriter_WriteStr(&w, name) < 0 ||
                _PyUnicodeWriter_WriteChar(&w, '}') < 0 ? -1 : 0;
        }
        Py_DECREF(name);
        if (r < 0) {
            goto error;
        }
    }
    Py_DECREF(obj);
    Py_DECREF(ucd);
    return answer(_PyUnicodeWriter_Finish(&w), end);
error:
    _PyUnicodeWriter_Dealloc(&w);
    Py_DECREF(obj);
    Py_DECREF(ucd);
    return NULL;
}

static PyObject *
handler_surrogateescape(PyObject *self, PyObject *exc)
{
    errkind kind = error_kind(exc);
    Py_ssize_t start, end;
    if (kind != ERR_ENCODE && kind != ERR_DECODE) {
        return cannot_handle(exc);
    }
    if (error_range(exc, kind, &start, &end) < 0) {
        return NULL;
    }
    PyObject *obj = error_object(exc, kind);
    if (obj == NULL) {
        return NULL;
    }
    PyObject *repl = NULL;
    Py_ssize_t pos = end;
    if (kind == ERR_ENCODE) {
        repl = PyBytes_FromStringAndSize(NULL, end > start ? end - start : 0);
        for (Py_ssize_t i = start; repl != NULL && i < end; i++) {
            Py_UCS4 c = PyUnicode_READ_CHAR(obj, i);
            if (c < 0xDC80 || c > 0xDCFF) {
                Py_CLEAR(repl);
            }
            else {
                PyBytes_AS_STRING(repl)[i - start] = (char)(c - 0xDC00);
            }
        }
    }
    else {
        /* At most four bytes, all >= 128, become lone surrogates. */
        const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(obj);
        Py_ssize_t n = 0;
        while (n < 4 && start + n < end && p[start + n] >= 128) {
            n++;
        }
        if (n > 0) {
            repl = PyUnicode_New(n, 0xDCFF);
            for (Py_ssize_t i = 0; repl != NULL && i < n; i++) {
                PyUnicode_WRITE(PyUnicode_2BYTE_KIND, PyUnicode_DATA(repl), i, 0xDC00 + p[start + i]);
            }
            pos = start + n;
        }
    }
    Py_DECREF(obj);
    if (repl == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        }
        return NULL;
    }
    return answer(repl, pos);
}

/* surrogatepass: which UTF the error came from decides the byte layout of
   a surrogate.  Returns the unit width (1 for UTF-8, 2, 4) and sets
   *big_endian, or 0 for other encodings. */
static int
surrogate_layout(PyObject *exc, int *big_endian)
{
    PyObject *enc = PyObject_GetAttrString(exc, "encoding");
    if (enc == NULL) {
        PyErr_Clear();
        return 0;
    }
    const char *name = PyUnicode_Check(enc) ? PyUnicode_AsUTF8(enc) : NULL;
    int width = 0;
    char norm[32];
    if (name != NULL && _PyCodec_NormalizeName(name, norm, sizeof(norm))) {
        *big_endian = strstr(norm, "be") != NULL;
        if (strcmp(norm, "utf_8") == 0 || strcmp(norm, "utf8") == 0) {
            width = 1;
        }
        else if (strncmp(norm, "utf_16", 6) == 0) {
            width = 2;
        }
        else if (strncmp(norm, "utf_32", 6) == 0) {
            width = 4;
        }
        if (width > 1 && (strcmp(norm + 6, "") == 0)) {
            *big_endian = 0; /* BOM-less name in an error: little endian here */
        }
    }
    PyErr_Clear();
    Py_DECREF(enc);
    return width;
}

static void
put_surrogate(unsigned char *p, Py_UCS4 c, int width, int be)
{
    if (width == 1) {
        p[0] = (unsigned char)(0xE0 | (c >> 12));
        p[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        p[2] = (unsigned char)(0x80 | (c & 0x3F));
        return;
    }
    for (int k = 0; k < width; k++) {
        int shift = 8 * (be ? width - 1 - k : k);
        p[k] = (unsigned char)((c >> shift) & 0xFF);
    }
}

/* The surrogate encoded at p (n bytes available), or 0. */
static Py_UCS4
read_surrogate(const unsigned char *p, Py_ssize_t n, int width, int be)
{
    Py_UCS4 c = 0;
    if (width == 1) {
        if (n < 3 || (p[0] & 0xF0) != 0xE0 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) {
            return 0;
        }
        c = ((Py_UCS4)(p[0] & 0x0F) << 12) | ((Py_UCS4)(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    }
    else {
        if (n < width) {
            return 0;
        }
        for (int k = 0; k < width; k++) {
            int shift = 8 * (be ? width - 1 - k : k);
            c |= (Py_UCS4)p[k] << shift;
        }
    }
    return Py_UNICODE_IS_SURROGATE(c) ? c : 0;
}

static PyObject *
handler_surrogatepass(PyObject *self, PyObject *exc)
{
    errkind kind = error_kind(exc);
    Py_ssize_t start, end;
    int be = 0;
    if (kind != ERR_ENCODE && kind != ERR_DECODE) {
        return cannot_handle(exc);
    }
    int width = surrogate_layout(exc, &be);
    if (error_range(exc, kind, &start, &end) < 0) {
        return NULL;
    }
    PyObject *obj = error_object(exc, kind);
    if (obj == NULL) {
        return NULL;
    }
    PyObject *repl = NULL;
    Py_ssize_t pos = end;
    int unit = width == 1 ? 3 : width;
    if (width == 0) {
        /* not a UTF: nothing to pass through */
    }
    else if (kind == ERR_ENCODE) {
        repl = PyBytes_FromStringAndSize(NULL, (end > start ? end - start : 0) * unit);
        for (Py_ssize_t i = start; repl != NULL && i < end; i++) {
            Py_UCS4 c = PyUnicode_READ_CHAR(obj, i);
            if (!Py_UNICODE_IS_SURROGATE(c)) {
                Py_CLEAR(repl);
                break;
            }
            put_surrogate((unsigned char *)PyBytes_AS_STRING(repl) + (i - start) * unit, c,
                          width, be);
        }
    }
    else {
        const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(obj);
        Py_UCS4 c = read_surrogate(p + start, PyBytes_GET_SIZE(obj) - start, width, be);
        if (c != 0) {
            repl = PyUnicode_FromOrdinal((int)c);
            pos = start + unit;
        }
    }
    Py_DECREF(obj);
    if (repl == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        }
        return NULL;
    }
    return answer(repl, pos);
}

static PyMethodDef builtin_handlers[] = {
    {"strict_errors", handler_strict, METH_O, "Raise the codec error."},
    {"ignore_errors", handler_ignore, METH_O, "Skip the malformed data."},
    {"replace_errors", handler_replace, METH_O, "Substitute '?' or U+FFFD."},
    {"xmlcharrefreplace_errors", handler_xmlcharrefreplace, METH_O,
     "Substitute XML character references."},
    {"backslashreplace_errors", handler_backslashreplace, METH_O,
     "Substitute backslash escapes."},
    {"namereplace_errors", handler_namereplace, METH_O, "Substitute \\N{...} escapes."},
    {"surrogateescape", handler_surrogateescape, METH_O,
     "Bytes 0x80-0xFF to and from U+DC80-U+DCFF."},
    {"surrogatepass", handler_surrogatepass, METH_O, "Let surrogates through a UTF codec."},
};

static int
register_builtin_handlers(PyObject *registry)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(builtin_handlers); i++) {
        PyMethodDef *def = &builtin_handlers[i];
        char key[32];
        const char *suffix = strstr(def->ml_name, "_errors");
        size_t n = suffix ? (size_t)(suffix - def->ml_name) : strlen(def->ml_name);
        memcpy(key, def->ml_name, n);
        key[n] = '\0';
        PyObject *func = PyCFunction_New(def, NULL);
        if (func == NULL) {
            return -1;
        }
        int r = PyDict_SetItemString(registry, key, func);
        Py_DECREF(func);
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}
