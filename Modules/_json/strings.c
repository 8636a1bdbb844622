/* JSON string literals for _json: turning a literal inside a document into
   a str (with the exact error positions json.decoder reports), and quoting
   a str back into a literal, either pure ASCII or keeping non-ASCII text. */

#include "json.h"

void
_PyJson_RaiseDecodeError(const char *msg, PyObject *doc, Py_ssize_t pos)
{
    /* Looked up at raise time: errors are rare, and this keeps the module
       free of cached references into json.decoder. */
    PyObject *decoder_mod = PyImport_ImportModule("json.decoder");
    if (decoder_mod == NULL) {
        return;
    }
    PyObject *error_type = PyObject_GetAttrString(decoder_mod,
                                                  "JSONDecodeError");
    Py_DECREF(decoder_mod);
    if (error_type == NULL) {
        return;
    }
    PyObject *exc = PyObject_CallFunction(error_type, "sOn", msg, doc, pos);
    Py_DECREF(error_type);
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
}

/* ---- decoding ------------------------------------------------------- */

/* The value of four hex digits at doc[at..at+3], or -1 if they are not
   all there or not all hex. */
static long
read_hex4(int kind, const void *data, Py_ssize_t len, Py_ssize_t at)
{
    if (at + 4 > len) {
        return -1;
    }
    long value = 0;
    for (Py_ssize_t k = at; k < at + 4; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        int digit;
        if (c >= '0' && c <= '9') {
            digit = (int)(c - '0');
        }
        else if (c >= 'a' && c <= 'f') {
            digit = (int)(c - 'a' + 10);
        }
        else if (c >= 'A' && c <= 'F') {
            digit = (int)(c - 'A' + 10);
        }
        else {
            return -1;
        }
        value = value * 16 + digit;
    }
    return value;
}

/* The character a one-letter escape stands for, or -1 if unknown. */
static int
simple_escape(Py_UCS4 letter)
{
    switch (letter) {
    case '"': return '"';
    case '\\': return '\\';
    case '/': return '/';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    default: return -1;
    }
}

/* Decode the escape whose backslash is at doc[slash].  Stores the code
   point in *out and returns the index just past the escape, or -1 with
   JSONDecodeError set.  A \u high surrogate directly followed by a \u low
   surrogate becomes one astral character. */
static Py_ssize_t
decode_escape(PyObject *doc, Py_ssize_t slash, Py_ssize_t quote_pos,
              Py_UCS4 *out)
{
    int kind = PyUnicode_KIND(doc);
    const void *data = PyUnicode_DATA(doc);
    Py_ssize_t len = PyUnicode_GET_LENGTH(doc);
    if (slash + 1 >= len) {
        _PyJson_RaiseDecodeError("Unterminated string starting at", doc,
                                 quote_pos);
        return -1;
    }
    Py_UCS4 letter = PyUnicode_READ(kind, data, slash + 1);
    if (letter != 'u') {
        int c = simple_escape(letter);
        if (c < 0) {
            _PyJson_RaiseDecodeError("Invalid \\escape", doc, slash);
            return -1;
        }
        *out = (Py_UCS4)c;
        return slash + 2;
    }
    long unit = read_hex4(kind, data, len, slash + 2);
    if (unit < 0) {
        _PyJson_RaiseDecodeError("Invalid \\uXXXX escape", doc, slash + 1);
        return -1;
    }
    Py_ssize_t next = slash + 6;
    *out = (Py_UCS4)unit;
    if (unit >= 0xD800 && unit <= 0xDBFF && next + 1 < len
        && PyUnicode_READ(kind, data, next) == '\\'
        && PyUnicode_READ(kind, data, next + 1) == 'u') {
        long low = read_hex4(kind, data, len, next + 2);
        if (low < 0) {
            _PyJson_RaiseDecodeError("Invalid \\uXXXX escape", doc, next + 1);
            return -1;
        }
        if (low >= 0xDC00 && low <= 0xDFFF) {
            *out = 0x10000 + (Py_UCS4)(((unit - 0xD800) << 10) | (low - 0xDC00));
            next += 6;
        }
    }
    return next;
}

/* Copy doc[from:to] into the writer (no-op for an empty run). */
static int
flush_run(PyUnicodeWriter *w, PyObject *doc, Py_ssize_t from, Py_ssize_t to)
{
    if (from >= to) {
        return 0;
    }
    return PyUnicodeWriter_WriteSubstring(w, doc, from, to);
}

PyObject *
_PyJson_DecodeString(PyObject *doc, Py_ssize_t start, int strict,
                     Py_ssize_t *after)
{
    int kind = PyUnicode_KIND(doc);
    const void *data = PyUnicode_DATA(doc);
    Py_ssize_t len = PyUnicode_GET_LENGTH(doc);
    Py_ssize_t quote_pos = start - 1;
    /* The writer only exists once an escape forces a copy; until then the
       result is a plain substring of the document. */
    PyUnicodeWriter *w = NULL;
    Py_ssize_t run = start;
    Py_ssize_t i = start;
    while (i < len) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c == '"') {
            *after = i + 1;
            if (w == NULL) {
                return PyUnicode_Substring(doc, start, i);
            }
            if (flush_run(w, doc, run, i) < 0) {
                goto error;
            }
            return PyUnicodeWriter_Finish(w);
        }
        if (c == '\\') {
            if (w == NULL && (w = PyUnicodeWriter_Create(0)) == NULL) {
                return NULL;
            }
            Py_UCS4 decoded;
            Py_ssize_t next = decode_escape(doc, i, quote_pos, &decoded);
            if (next < 0 || flush_run(w, doc, run, i) < 0
                || PyUnicodeWriter_WriteChar(w, decoded) < 0) {
                goto error;
            }
            i = run = next;
            continue;
        }
        if (c < 0x20 && strict) {
            _PyJson_RaiseDecodeError("Invalid control character at", doc, i);
            goto error;
        }
        i++;
    }
    _PyJson_RaiseDecodeError("Unterminated string starting at", doc,
                             quote_pos);
error:
    if (w != NULL) {
        PyUnicodeWriter_Discard(w);
    }
    return NULL;
}

/* ---- quoting -------------------------------------------------------- */

/* The second letter of a two-character escape for c, or 0. */
static char
short_escape(Py_UCS4 c)
{
    switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '\b': return 'b';
    case '\f': return 'f';
    case '\n': return 'n';
    case '\r': return 'r';
    case '\t': return 't';
    default: return 0;
    }
}

/* How many characters c takes once quoted. */
static Py_ssize_t
quoted_width(Py_UCS4 c, int ascii_only)
{
    if (short_escape(c)) {
        return 2;
    }
    if (c < 0x20) {
        return 6;
    }
    if (!ascii_only || c < 0x7F) {
        return 1;
    }
    return c > 0xFFFF ? 12 : 6;
}

/* Write \uXXXX for one UTF-16 unit at out[at]; returns the next index. */
static Py_ssize_t
put_unit(int kind, void *out, Py_ssize_t at, Py_UCS4 unit)
{
    static const char hex[] = "0123456789abcdef";
    PyUnicode_WRITE(kind, out, at, '\\');
    PyUnicode_WRITE(kind, out, at + 1, 'u');
    for (int shift = 12, k = 2; shift >= 0; shift -= 4, k++) {
        PyUnicode_WRITE(kind, out, at + k, hex[(unit >> shift) & 0xF]);
    }
    return at + 6;
}

static Py_ssize_t
put_quoted_char(int kind, void *out, Py_ssize_t at, Py_UCS4 c, int ascii_only)
{
    char letter = short_escape(c);
    if (letter) {
        PyUnicode_WRITE(kind, out, at, '\\');
        PyUnicode_WRITE(kind, out, at + 1, letter);
        return at + 2;
    }
    if (c < 0x20 || (ascii_only && c >= 0x7F && c <= 0xFFFF)) {
        return put_unit(kind, out, at, c);
    }
    if (ascii_only && c > 0xFFFF) {
        Py_UCS4 v = c - 0x10000;
        at = put_unit(kind, out, at, 0xD800 | (v >> 10));
        return put_unit(kind, out, at, 0xDC00 | (v & 0x3FF));
    }
    PyUnicode_WRITE(kind, out, at, c);
    return at + 1;
}

PyObject *
_PyJson_QuoteString(PyObject *text, int ascii_only)
{
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    /* First pass sizes the result exactly, second fills it. */
    Py_ssize_t size = 2;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_ssize_t width = quoted_width(PyUnicode_READ(kind, data, i),
                                        ascii_only);
        if (size > PY_SSIZE_T_MAX - width) {
            PyErr_SetString(PyExc_OverflowError,
                            "string is too long to escape");
            return NULL;
        }
        size += width;
    }
    Py_UCS4 maxchar = ascii_only ? 0x7F : PyUnicode_MAX_CHAR_VALUE(text);
    PyObject *result = PyUnicode_New(size, maxchar);
    if (result == NULL) {
        return NULL;
    }
    int out_kind = PyUnicode_KIND(result);
    void *out = PyUnicode_DATA(result);
    Py_ssize_t at = 0;
    PyUnicode_WRITE(out_kind, out, at++, '"');
    for (Py_ssize_t i = 0; i < len; i++) {
        at = put_quoted_char(out_kind, out, at,
                             PyUnicode_READ(kind, data, i), ascii_only);
    }
    PyUnicode_WRITE(out_kind, out, at, '"');
    return result;
}

/* ---- module functions ----------------------------------------------- */

static int
require_str(PyObject *arg)
{
    if (PyUnicode_Check(arg)) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "first argument must be a string, not %.80s",
                 Py_TYPE(arg)->tp_name);
    return -1;
}

PyObject *
_PyJson_encode_basestring_ascii(PyObject *module, PyObject *arg)
{
    return require_str(arg) < 0 ? NULL : _PyJson_QuoteString(arg, 1);
}

PyObject *
_PyJson_encode_basestring(PyObject *module, PyObject *arg)
{
    return require_str(arg) < 0 ? NULL : _PyJson_QuoteString(arg, 0);
}

PyObject *
_PyJson_scanstring(PyObject *module, PyObject *args)
{
    PyObject *doc;
    Py_ssize_t end;
    int strict = 1;
    if (!PyArg_ParseTuple(args, "On|p:scanstring", &doc, &end, &strict)
        || require_str(doc) < 0) {
        return NULL;
    }
    if (end < 0 || end > PyUnicode_GET_LENGTH(doc)) {
        PyErr_SetString(PyExc_ValueError, "end is out of bounds");
        return NULL;
    }
    Py_ssize_t after;
    PyObject *text = _PyJson_DecodeString(doc, end, strict, &after);
    if (text == NULL) {
        return NULL;
    }
    return Py_BuildValue("Nn", text, after);
}
