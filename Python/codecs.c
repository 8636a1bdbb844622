/* The built-in text encodings: UTF-8 (and UTF-8 with signature), UTF-16,
   UTF-32, ASCII, Latin-1, unicode-escape and raw-unicode-escape, each with
   the standard error handlers (strict, ignore, replace, surrogateescape,
   surrogatepass, backslashreplace, xmlcharrefreplace, namereplace).
   Also the entry points that pick an encoding by name (PyUnicode_Decode,
   PyUnicode_AsEncodedString, str.encode, the file-system and locale
   conversions) and wchar_t conversions.

   Everything else (other encodings, custom error handlers and namereplace,
   which needs unicodedata) goes through the registry in
   Python/codecregistry.c. */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_unicodeobject.h"
#include "pycore_unicodedata.h"
#include "pycore_bytesobject.h"
#include "pycore_codecs.h"

_PyCodec_HookFunc _PyCodec_EncodeHook = _PyCodec_TextEncodeViaRegistry;
_PyCodec_HookFunc _PyCodec_DecodeHook = _PyCodec_TextDecodeViaRegistry;

/* ---- Encoding names ---------------------------------------------------------------- */

int
_PyCodec_NormalizeName(const char *encoding, char *out, size_t size)
{
    size_t n = 0;
    int pending = 0;
    for (const unsigned char *p = (const unsigned char *)encoding; *p; p++) {
        unsigned char c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c >= 128) {
            /* keep */
        }
        else if (c >= 'A' && c <= 'Z') {
            c = (unsigned char)(c + 32);
        }
        else {
            pending = n > 0;
            continue;
        }
        if (pending) {
            if (n + 1 >= size) {
                return 0;
            }
            out[n++] = '_';
            pending = 0;
        }
        if (n + 1 >= size) {
            return 0;
        }
        out[n++] = (char)c;
    }
    out[n] = '\0';
    return 1;
}

static const struct {
    const char *name;
    _Py_BuiltinEncoding enc;
} encoding_aliases[] = {
    {"utf_8", _Py_ENC_UTF8}, {"utf8", _Py_ENC_UTF8}, {"u8", _Py_ENC_UTF8},
    {"utf", _Py_ENC_UTF8}, {"utf8_ucs2", _Py_ENC_UTF8}, {"utf8_ucs4", _Py_ENC_UTF8},
    {"cp65001", _Py_ENC_UTF8},
    {"utf_8_sig", _Py_ENC_UTF8_SIG}, {"utf8_sig", _Py_ENC_UTF8_SIG},
    {"ascii", _Py_ENC_ASCII}, {"us_ascii", _Py_ENC_ASCII}, {"646", _Py_ENC_ASCII},
    {"ansi_x3.4_1968", _Py_ENC_ASCII}, {"ansi_x3_4_1968", _Py_ENC_ASCII},
    {"ansi_x3.4_1986", _Py_ENC_ASCII}, {"cp367", _Py_ENC_ASCII}, {"csascii", _Py_ENC_ASCII},
    {"ibm367", _Py_ENC_ASCII}, {"iso646_us", _Py_ENC_ASCII}, {"iso_646.irv_1991", _Py_ENC_ASCII},
    {"iso_ir_6", _Py_ENC_ASCII}, {"us", _Py_ENC_ASCII},
    {"latin_1", _Py_ENC_LATIN1}, {"latin1", _Py_ENC_LATIN1}, {"latin", _Py_ENC_LATIN1},
    {"l1", _Py_ENC_LATIN1}, {"iso8859_1", _Py_ENC_LATIN1}, {"iso_8859_1", _Py_ENC_LATIN1},
    {"8859", _Py_ENC_LATIN1}, {"cp819", _Py_ENC_LATIN1}, {"csisolatin1", _Py_ENC_LATIN1},
    {"ibm819", _Py_ENC_LATIN1}, {"iso_8859_1_1987", _Py_ENC_LATIN1},
    {"iso_ir_100", _Py_ENC_LATIN1}, {"iso8859", _Py_ENC_LATIN1},
    {"utf_16", _Py_ENC_UTF16}, {"utf16", _Py_ENC_UTF16}, {"u16", _Py_ENC_UTF16},
    {"utf_16_le", _Py_ENC_UTF16_LE}, {"utf_16le", _Py_ENC_UTF16_LE},
    {"utf_16_be", _Py_ENC_UTF16_BE}, {"utf_16be", _Py_ENC_UTF16_BE},
    {"utf_32", _Py_ENC_UTF32}, {"utf32", _Py_ENC_UTF32}, {"u32", _Py_ENC_UTF32},
    {"utf_32_le", _Py_ENC_UTF32_LE}, {"utf_32le", _Py_ENC_UTF32_LE},
    {"utf_32_be", _Py_ENC_UTF32_BE}, {"utf_32be", _Py_ENC_UTF32_BE},
    {"unicode_escape", _Py_ENC_UNICODE_ESCAPE},
    {"raw_unicode_escape", _Py_ENC_RAW_UNICODE_ESCAPE},
};

/* Codecs of the standard library that are not str <-> bytes. */
static const char *const non_text_codecs[] = {
    "rot13", "rot_13", "hex", "hex_codec", "base64", "base64_codec", "base_64", "bz2",
    "bz2_codec", "zlib", "zlib_codec", "zip", "quopri", "quopri_codec", "quotedprintable",
    "quoted_printable", "uu", "uu_codec",
};

_Py_BuiltinEncoding
_PyCodec_LookupBuiltin(const char *encoding)
{
    char norm[64];
    if (!_PyCodec_NormalizeName(encoding, norm, sizeof(norm))) {
        return _Py_ENC_UNKNOWN;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(encoding_aliases); i++) {
        if (strcmp(norm, encoding_aliases[i].name) == 0) {
            return encoding_aliases[i].enc;
        }
    }
    return _Py_ENC_UNKNOWN;
}

static void
unknown_encoding(const char *encoding, int decoding)
{
    char norm[64];
    if (_PyCodec_NormalizeName(encoding, norm, sizeof(norm))) {
        for (size_t i = 0; i < Py_ARRAY_LENGTH(non_text_codecs); i++) {
            if (strcmp(norm, non_text_codecs[i]) == 0) {
                PyErr_Format(PyExc_LookupError,
                             "'%.400s' is not a text encoding; use codecs.%s() to handle "
                             "arbitrary codecs",
                             encoding, decoding ? "decode" : "encode");
                return;
            }
        }
    }
    PyErr_Format(PyExc_LookupError, "unknown encoding: %.400s", encoding);
}

/* ---- Error handlers -------------------------------------------------------------------- */

typedef enum {
    EH_STRICT,
    EH_IGNORE,
    EH_REPLACE,
    EH_SURROGATEESCAPE,
    EH_SURROGATEPASS,
    EH_BACKSLASHREPLACE,
    EH_XMLCHARREFREPLACE,
    EH_NAMEREPLACE,
    EH_UNKNOWN,
} errhandler;

static errhandler
get_errhandler(const char *errors)
{
    if (errors == NULL || strcmp(errors, "strict") == 0) {
        return EH_STRICT;
    }
    static const struct {
        const char *name;
        errhandler eh;
    } names[] = {
        {"ignore", EH_IGNORE}, {"replace", EH_REPLACE},
        {"surrogateescape", EH_SURROGATEESCAPE}, {"surrogatepass", EH_SURROGATEPASS},
        {"backslashreplace", EH_BACKSLASHREPLACE}, {"xmlcharrefreplace", EH_XMLCHARREFREPLACE},
        {"namereplace", EH_NAMEREPLACE},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(names); i++) {
        if (strcmp(errors, names[i].name) == 0) {
            return names[i].eh;
        }
    }
    return EH_UNKNOWN;
}

void
_PyCodec_RaiseEncodeError(const char *encoding, PyObject *str, Py_ssize_t start,
                          Py_ssize_t end, const char *reason)
{
    PyObject *exc = PyObject_CallFunction(PyExc_UnicodeEncodeError, "sOnns", encoding, str,
                                          start, end, reason);
    if (exc != NULL) {
        PyErr_SetObject(PyExc_UnicodeEncodeError, exc);
        Py_DECREF(exc);
    }
}

void
_PyCodec_RaiseDecodeError(const char *encoding, const char *s, Py_ssize_t size,
                          Py_ssize_t start, Py_ssize_t end, const char *reason)
{
    PyObject *exc = PyObject_CallFunction(PyExc_UnicodeDecodeError, "sy#nns", encoding, s, size,
                                          start, end, reason);
    if (exc != NULL) {
        PyErr_SetObject(PyExc_UnicodeDecodeError, exc);
        Py_DECREF(exc);
    }
}

/* ---- Growable byte output (encoders) --------------------------------------------------- */

typedef struct {
    PyObject *bytes; /* capacity = its size */
    Py_ssize_t len;
} outbuf;

static int
ob_init(outbuf *o, Py_ssize_t cap)
{
    o->len = 0;
    o->bytes = PyBytes_FromStringAndSize(NULL, cap < 16 ? 16 : cap);
    return o->bytes == NULL ? -1 : 0;
}

static int
ob_reserve(outbuf *o, Py_ssize_t extra)
{
    Py_ssize_t cap = PyBytes_GET_SIZE(o->bytes);
    if (extra <= cap - o->len) {
        return 0;
    }
    if (extra > PY_SSIZE_T_MAX - o->len) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t need = o->len + extra;
    Py_ssize_t newcap = cap <= PY_SSIZE_T_MAX / 2 ? cap * 2 : PY_SSIZE_T_MAX;
    if (newcap < need) {
        newcap = need;
    }
    return _PyBytes_Resize(&o->bytes, newcap);
}

static char *
ob_ptr(outbuf *o)
{
    return PyBytes_AS_STRING(o->bytes) + o->len;
}

static int
ob_write(outbuf *o, const char *s, Py_ssize_t n)
{
    if (ob_reserve(o, n) < 0) {
        return -1;
    }
    memcpy(ob_ptr(o), s, (size_t)n);
    o->len += n;
    return 0;
}

static PyObject *
ob_finish(outbuf *o)
{
    if (_PyBytes_Resize(&o->bytes, o->len) < 0) {
        return NULL;
    }
    PyObject *res = o->bytes;
    o->bytes = NULL;
    return res;
}

static void
ob_discard(outbuf *o)
{
    Py_CLEAR(o->bytes);
}

/* ---- Encoders ------------------------------------------------------------------------------ */

/* How one code unit sequence is written in the target encoding. */
typedef enum { TARGET_UTF8, TARGET_8BIT, TARGET_UTF16, TARGET_UTF32 } target_t;

typedef struct {
    const char *encoding; /* name for error messages */
    target_t target;
    int big_endian;
    Py_UCS4 limit;        /* first unencodable code point for 8-bit targets */
    const char *reason;
    PyObject *str;
    errhandler eh;
    const char *errors;
    outbuf out;
} encoder;

static int
put_unit16(outbuf *o, Py_UCS4 u, int be)
{
    if (ob_reserve(o, 2) < 0) {
        return -1;
    }
    unsigned char *p = (unsigned char *)ob_ptr(o);
    p[be ? 0 : 1] = (unsigned char)(u >> 8);
    p[be ? 1 : 0] = (unsigned char)(u & 0xff);
    o->len += 2;
    return 0;
}

static int
put_unit32(outbuf *o, Py_UCS4 u, int be)
{
    if (ob_reserve(o, 4) < 0) {
        return -1;
    }
    unsigned char *p = (unsigned char *)ob_ptr(o);
    for (int i = 0; i < 4; i++) {
        unsigned char b = (unsigned char)(u >> (8 * i));
        p[be ? 3 - i : i] = b;
    }
    o->len += 4;
    return 0;
}

static int
put_utf8(outbuf *o, Py_UCS4 c)
{
    if (ob_reserve(o, 4) < 0) {
        return -1;
    }
    unsigned char *p = (unsigned char *)ob_ptr(o);
    int n;
    if (c < 0x80) {
        p[0] = (unsigned char)c;
        n = 1;
    }
    else if (c < 0x800) {
        p[0] = (unsigned char)(0xC0 | (c >> 6));
        p[1] = (unsigned char)(0x80 | (c & 0x3F));
        n = 2;
    }
    else if (c < 0x10000) {
        p[0] = (unsigned char)(0xE0 | (c >> 12));
        p[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        p[2] = (unsigned char)(0x80 | (c & 0x3F));
        n = 3;
    }
    else {
        p[0] = (unsigned char)(0xF0 | (c >> 18));
        p[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
        p[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        p[3] = (unsigned char)(0x80 | (c & 0x3F));
        n = 4;
    }
    o->len += n;
    return 0;
}

/* Write an ASCII replacement text in the target encoding. */
static int
put_ascii_text(encoder *e, const char *s, Py_ssize_t n)
{
    switch (e->target) {
    case TARGET_UTF8:
    case TARGET_8BIT:
        return ob_write(&e->out, s, n);
    case TARGET_UTF16:
        for (Py_ssize_t i = 0; i < n; i++) {
            if (put_unit16(&e->out, (unsigned char)s[i], e->big_endian) < 0) {
                return -1;
            }
        }
        return 0;
    default:
        for (Py_ssize_t i = 0; i < n; i++) {
            if (put_unit32(&e->out, (unsigned char)s[i], e->big_endian) < 0) {
                return -1;
            }
        }
        return 0;
    }
}

static int
backslash_escape(Py_UCS4 c, char *buf)
{
    if (c < 0x100) {
        return sprintf(buf, "\\x%02x", (unsigned int)c);
    }
    if (c < 0x10000) {
        return sprintf(buf, "\\u%04x", (unsigned int)c);
    }
    return sprintf(buf, "\\U%08x", (unsigned int)c);
}

/* Write a replacement string from a registered error handler: each
   character must itself be encodable in the target. */
static int
put_replacement(encoder *e, PyObject *repl, Py_ssize_t start, Py_ssize_t end)
{
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(repl); i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(repl, i);
        int r;
        if ((e->target == TARGET_8BIT && c >= e->limit) || Py_UNICODE_IS_SURROGATE(c)) {
            _PyCodec_RaiseEncodeError(e->encoding, e->str, start, end, e->reason);
            return -1;
        }
        switch (e->target) {
        case TARGET_8BIT: {
            char b = (char)c;
            r = ob_write(&e->out, &b, 1);
            break;
        }
        case TARGET_UTF8:
            r = put_utf8(&e->out, c);
            break;
        case TARGET_UTF16:
            if (c >= 0x10000) {
                r = put_unit16(&e->out, 0xD800 | ((c - 0x10000) >> 10), e->big_endian);
                c = 0xDC00 | ((c - 0x10000) & 0x3FF);
                if (r < 0) {
                    return -1;
                }
            }
            r = put_unit16(&e->out, c, e->big_endian);
            break;
        default:
            r = put_unit32(&e->out, c, e->big_endian);
            break;
        }
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}

/* An error handler that is not built into the encoders: ask the registry. */
static Py_ssize_t
encode_error_registered(encoder *e, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t newpos;
    PyObject *repl = _PyCodec_CallEncodeErrorHandler(e->errors, e->encoding, e->str, start, end,
                                                     e->reason, &newpos);
    if (repl == NULL) {
        return -1;
    }
    int r = PyBytes_Check(repl)
                ? ob_write(&e->out, PyBytes_AS_STRING(repl), PyBytes_GET_SIZE(repl))
                : put_replacement(e, repl, start, end);
    Py_DECREF(repl);
    return r < 0 ? -1 : newpos;
}

/* Handle the unencodable characters str[start:end]; returns where to
   resume, or -1 with an exception set. */
static Py_ssize_t
encode_error(encoder *e, Py_ssize_t start, Py_ssize_t end)
{
    PyObject *str = e->str;
    char buf[32];
    switch (e->eh) {
    case EH_STRICT:
        _PyCodec_RaiseEncodeError(e->encoding, str, start, end, e->reason);
        return -1;
    case EH_UNKNOWN:
    case EH_NAMEREPLACE:
        return encode_error_registered(e, start, end);
    case EH_IGNORE:
        return end;
    case EH_REPLACE:
        for (Py_ssize_t i = start; i < end; i++) {
            if (put_ascii_text(e, "?", 1) < 0) {
                return -1;
            }
        }
        return end;
    case EH_BACKSLASHREPLACE:
        for (Py_ssize_t i = start; i < end; i++) {
            int n = backslash_escape(PyUnicode_READ_CHAR(str, i), buf);
            if (put_ascii_text(e, buf, n) < 0) {
                return -1;
            }
        }
        return end;
    case EH_XMLCHARREFREPLACE:
        for (Py_ssize_t i = start; i < end; i++) {
            int n = sprintf(buf, "&#%u;", (unsigned int)PyUnicode_READ_CHAR(str, i));
            if (put_ascii_text(e, buf, n) < 0) {
                return -1;
            }
        }
        return end;
    case EH_SURROGATEESCAPE:
        for (Py_ssize_t i = start; i < end; i++) {
            Py_UCS4 c = PyUnicode_READ_CHAR(str, i);
            if (c < 0xDC80 || c > 0xDCFF || e->target == TARGET_UTF16 ||
                e->target == TARGET_UTF32) {
                _PyCodec_RaiseEncodeError(e->encoding, str, i, i + 1, e->reason);
                return -1;
            }
            char b = (char)(c - 0xDC00);
            if (ob_write(&e->out, &b, 1) < 0) {
                return -1;
            }
        }
        return end;
    case EH_SURROGATEPASS:
        for (Py_ssize_t i = start; i < end; i++) {
            Py_UCS4 c = PyUnicode_READ_CHAR(str, i);
            int r;
            if (!Py_UNICODE_IS_SURROGATE(c) || e->target == TARGET_8BIT) {
                _PyCodec_RaiseEncodeError(e->encoding, str, start, end, e->reason);
                return -1;
            }
            if (e->target == TARGET_UTF8) {
                r = put_utf8(&e->out, c);
            }
            else if (e->target == TARGET_UTF16) {
                r = put_unit16(&e->out, c, e->big_endian);
            }
            else {
                r = put_unit32(&e->out, c, e->big_endian);
            }
            if (r < 0) {
                return -1;
            }
        }
        return end;
    }
    return -1;
}

static int
encoder_init(encoder *e, PyObject *str, const char *encoding, target_t target,
             const char *errors, Py_ssize_t cap)
{
    e->encoding = encoding;
    e->target = target;
    e->big_endian = 0;
    e->limit = 0x110000;
    e->reason = "surrogates not allowed";
    e->str = str;
    e->errors = errors;
    e->eh = get_errhandler(errors);
    return ob_init(&e->out, cap);
}

static PyObject *
encode_utf8_impl(PyObject *str, const char *errors, const char *encoding, int with_bom)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    if (PyUnicode_IS_ASCII(str) && !with_bom) {
        return PyBytes_FromStringAndSize(PyUnicode_DATA(str), len);
    }
    int kind = PyUnicode_KIND(str);
    const void *d = PyUnicode_DATA(str);
    if (len > (PY_SSIZE_T_MAX - 3) / 4) {
        return PyErr_NoMemory();
    }
    encoder e;
    if (encoder_init(&e, str, encoding, TARGET_UTF8, errors, len * (kind == 1 ? 2 : kind == 2 ? 3 : 4) + 3) < 0) {
        return NULL;
    }
    if (with_bom && ob_write(&e.out, "\xef\xbb\xbf", 3) < 0) {
        goto error;
    }
    for (Py_ssize_t i = 0; i < len;) {
        Py_UCS4 c = PyUnicode_READ(kind, d, i);
        if (Py_UNICODE_IS_SURROGATE(c)) {
            Py_ssize_t j = i + 1;
            while (j < len && Py_UNICODE_IS_SURROGATE(PyUnicode_READ(kind, d, j))) {
                j++;
            }
            j = encode_error(&e, i, j);
            if (j < 0) {
                goto error;
            }
            i = j;
            continue;
        }
        if (put_utf8(&e.out, c) < 0) {
            goto error;
        }
        i++;
    }
    return ob_finish(&e.out);
error:
    ob_discard(&e.out);
    return NULL;
}

PyObject *
_PyUnicode_AsUTF8String(PyObject *str, const char *errors)
{
    return encode_utf8_impl(str, errors, "utf-8", 0);
}

PyObject *
PyUnicode_AsUTF8String(PyObject *unicode)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return NULL;
    }
    return _PyUnicode_AsUTF8String(unicode, NULL);
}

static PyObject *
encode_8bit(PyObject *str, const char *errors, Py_UCS4 limit)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    if (PyUnicode_MAX_CHAR_VALUE(str) < limit) {
        if (PyUnicode_KIND(str) == PyUnicode_1BYTE_KIND) {
            return PyBytes_FromStringAndSize(PyUnicode_DATA(str), len);
        }
    }
    int kind = PyUnicode_KIND(str);
    const void *d = PyUnicode_DATA(str);
    encoder e;
    if (encoder_init(&e, str, limit == 128 ? "ascii" : "latin-1", TARGET_8BIT, errors, len) < 0) {
        return NULL;
    }
    e.limit = limit;
    e.reason = limit == 128 ? "ordinal not in range(128)" : "ordinal not in range(256)";
    for (Py_ssize_t i = 0; i < len;) {
        Py_UCS4 c = PyUnicode_READ(kind, d, i);
        if (c >= limit) {
            Py_ssize_t j = i + 1;
            while (j < len && PyUnicode_READ(kind, d, j) >= limit) {
                j++;
            }
            j = encode_error(&e, i, j);
            if (j < 0) {
                goto error;
            }
            i = j;
            continue;
        }
        char b = (char)c;
        if (ob_write(&e.out, &b, 1) < 0) {
            goto error;
        }
        i++;
    }
    return ob_finish(&e.out);
error:
    ob_discard(&e.out);
    return NULL;
}

PyObject *
_PyUnicode_AsASCIIString(PyObject *str, const char *errors)
{
    return encode_8bit(str, errors, 128);
}

PyObject *
_PyUnicode_AsLatin1String(PyObject *str, const char *errors)
{
    return encode_8bit(str, errors, 256);
}

PyObject *
PyUnicode_AsASCIIString(PyObject *unicode)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return NULL;
    }
    return encode_8bit(unicode, NULL, 128);
}

PyObject *
PyUnicode_AsLatin1String(PyObject *unicode)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return NULL;
    }
    return encode_8bit(unicode, NULL, 256);
}

static int
native_big_endian(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 0;
}

static PyObject *
encode_utf16_32(PyObject *str, const char *errors, int byteorder, int wide)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    int kind = PyUnicode_KIND(str);
    const void *d = PyUnicode_DATA(str);
    int be = byteorder == 0 ? native_big_endian() : byteorder > 0;
    const char *name = wide ? (byteorder == 0 ? "utf-32" : be ? "utf-32-be" : "utf-32-le")
                            : (byteorder == 0 ? "utf-16" : be ? "utf-16-be" : "utf-16-le");
    if (len > PY_SSIZE_T_MAX / 4 - 1) {
        return PyErr_NoMemory();
    }
    encoder e;
    if (encoder_init(&e, str, name, wide ? TARGET_UTF32 : TARGET_UTF16, errors,
                     (len + 1) * (wide ? 4 : 2)) < 0) {
        return NULL;
    }
    e.big_endian = be;
    if (byteorder == 0) {
        int r = wide ? put_unit32(&e.out, 0xFEFF, be) : put_unit16(&e.out, 0xFEFF, be);
        if (r < 0) {
            goto error;
        }
    }
    for (Py_ssize_t i = 0; i < len;) {
        Py_UCS4 c = PyUnicode_READ(kind, d, i);
        int r;
        if (Py_UNICODE_IS_SURROGATE(c)) {
            Py_ssize_t j = i + 1;
            while (j < len && Py_UNICODE_IS_SURROGATE(PyUnicode_READ(kind, d, j))) {
                j++;
            }
            j = encode_error(&e, i, j);
            if (j < 0) {
                goto error;
            }
            i = j;
            continue;
        }
        if (wide) {
            r = put_unit32(&e.out, c, be);
        }
        else if (c >= 0x10000) {
            r = put_unit16(&e.out, 0xD800 | ((c - 0x10000) >> 10), be);
            if (r == 0) {
                r = put_unit16(&e.out, 0xDC00 | ((c - 0x10000) & 0x3FF), be);
            }
        }
        else {
            r = put_unit16(&e.out, c, be);
        }
        if (r < 0) {
            goto error;
        }
        i++;
    }
    return ob_finish(&e.out);
error:
    ob_discard(&e.out);
    return NULL;
}

PyObject *
_PyUnicode_EncodeUTF16(PyObject *str, const char *errors, int byteorder)
{
    return encode_utf16_32(str, errors, byteorder, 0);
}

PyObject *
_PyUnicode_EncodeUTF32(PyObject *str, const char *errors, int byteorder)
{
    return encode_utf16_32(str, errors, byteorder, 1);
}

PyObject *
PyUnicode_AsUTF16String(PyObject *unicode)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return NULL;
    }
    return encode_utf16_32(unicode, NULL, 0, 0);
}

PyObject *
PyUnicode_AsUTF32String(PyObject *unicode)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return NULL;
    }
    return encode_utf16_32(unicode, NULL, 0, 1);
}

static PyObject *
encode_escape(PyObject *str, int raw)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    int kind = PyUnicode_KIND(str);
    const void *d = PyUnicode_DATA(str);
    outbuf o;
    char buf[16];
    if (ob_init(&o, len + 16) < 0) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, d, i);
        int n;
        if (raw) {
            if (c < 0x100) {
                buf[0] = (char)c;
                n = 1;
            }
            else {
                n = backslash_escape(c, buf);
            }
        }
        else if (c == '\\') {
            n = sprintf(buf, "\\\\");
        }
        else if (c == '\t') {
            n = sprintf(buf, "\\t");
        }
        else if (c == '\n') {
            n = sprintf(buf, "\\n");
        }
        else if (c == '\r') {
            n = sprintf(buf, "\\r");
        }
        else if (c >= 0x20 && c < 0x7f) {
            buf[0] = (char)c;
            n = 1;
        }
        else {
            n = backslash_escape(c, buf);
        }
        if (ob_write(&o, buf, n) < 0) {
            ob_discard(&o);
            return NULL;
        }
    }
    return ob_finish(&o);
}

PyObject *
PyUnicode_AsUnicodeEscapeString(PyObject *str)
{
    if (!PyUnicode_Check(str)) {
        PyErr_BadArgument();
        return NULL;
    }
    return encode_escape(str, 0);
}

PyObject *
PyUnicode_AsRawUnicodeEscapeString(PyObject *str)
{
    if (!PyUnicode_Check(str)) {
        PyErr_BadArgument();
        return NULL;
    }
    return encode_escape(str, 1);
}

/* ---- Decoders ----------------------------------------------------------------------------------- */

typedef struct {
    const char *encoding;
    const char *s;
    Py_ssize_t size;
    errhandler eh;
    const char *errors;
    _PyUnicodeWriter w;
} decoder;

static void
decoder_init(decoder *dc, const char *encoding, const char *s, Py_ssize_t size,
             const char *errors)
{
    dc->encoding = encoding;
    dc->s = s;
    dc->size = size;
    dc->errors = errors;
    dc->eh = get_errhandler(errors);
    _PyUnicodeWriter_Init(&dc->w);
    dc->w.min_length = size;
}

/* Handle the undecodable bytes s[start:end] (surrogatepass is handled by
   the decoders that support it before they get here).  Returns where to
   resume, or -1 with an exception set.  surrogateescape takes only the
   leading bytes >= 128 (at most 4), as CPython's handler does, so decoding
   may resume inside the range. */
static Py_ssize_t
decode_error_registered(decoder *dc, Py_ssize_t start, Py_ssize_t end, const char *reason)
{
    Py_ssize_t newpos;
    PyObject *repl = _PyCodec_CallDecodeErrorHandler(dc->errors, dc->encoding, dc->s, dc->size,
                                                     start, end, reason, &newpos);
    if (repl == NULL) {
        return -1;
    }
    int r = _PyUnicodeWriter_WriteStr(&dc->w, repl);
    Py_DECREF(repl);
    return r < 0 ? -1 : newpos;
}

static Py_ssize_t
decode_error(decoder *dc, Py_ssize_t start, Py_ssize_t end, const char *reason)
{
    char buf[8];
    switch (dc->eh) {
    case EH_IGNORE:
        return end;
    case EH_REPLACE:
        return _PyUnicodeWriter_WriteChar(&dc->w, 0xFFFD) < 0 ? -1 : end;
    case EH_BACKSLASHREPLACE:
        for (Py_ssize_t i = start; i < end; i++) {
            int n = sprintf(buf, "\\x%02x", (unsigned int)(unsigned char)dc->s[i]);
            if (_PyUnicodeWriter_WriteASCIIString(&dc->w, buf, n) < 0) {
                return -1;
            }
        }
        return end;
    case EH_SURROGATEESCAPE: {
        Py_ssize_t i = start;
        while (i < end && i - start < 4 && (unsigned char)dc->s[i] >= 128) {
            if (_PyUnicodeWriter_WriteChar(&dc->w, 0xDC00 + (unsigned char)dc->s[i]) < 0) {
                return -1;
            }
            i++;
        }
        if (i == start) {
            _PyCodec_RaiseDecodeError(dc->encoding, dc->s, dc->size, start, end, reason);
            return -1;
        }
        return i;
    }
    case EH_UNKNOWN:
    case EH_NAMEREPLACE:
    case EH_XMLCHARREFREPLACE:
        return decode_error_registered(dc, start, end, reason);
    default:
        _PyCodec_RaiseDecodeError(dc->encoding, dc->s, dc->size, start, end, reason);
        return -1;
    }
}

static PyObject *
decoder_finish(decoder *dc)
{
    return _PyUnicodeWriter_Finish(&dc->w);
}

static PyObject *
decoder_fail(decoder *dc)
{
    _PyUnicodeWriter_Dealloc(&dc->w);
    return NULL;
}

/* ---- UTF-8 ---- */

enum { U8_OK, U8_INVALID_START, U8_INVALID_CONT, U8_TRUNCATED };

/* Decode one sequence at s[i]: U8_OK with *len and *cp, or an error kind
   with *len the size of the maximal invalid subpart. */
static int
utf8_step(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, int allow_surrogates,
          Py_UCS4 *cp, Py_ssize_t *len)
{
    unsigned char c = s[i];
    int need;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) {
        *cp = c;
        *len = 1;
        return U8_OK;
    }
    if (c < 0xC2) {
        *len = 1;
        return U8_INVALID_START;
    }
    if (c < 0xE0) {
        need = 1;
        *cp = c & 0x1F;
    }
    else if (c < 0xF0) {
        need = 2;
        *cp = c & 0x0F;
        if (c == 0xE0) {
            lo = 0xA0;
        }
        else if (c == 0xED && !allow_surrogates) {
            hi = 0x9F;
        }
    }
    else if (c < 0xF5) {
        need = 3;
        *cp = c & 0x07;
        if (c == 0xF0) {
            lo = 0x90;
        }
        else if (c == 0xF4) {
            hi = 0x8F;
        }
    }
    else {
        *len = 1;
        return U8_INVALID_START;
    }
    for (int k = 1; k <= need; k++) {
        if (i + k >= n) {
            *len = n - i;
            return U8_TRUNCATED;
        }
        unsigned char b = s[i + k];
        if (k > 1) {
            lo = 0x80;
            hi = 0xBF;
        }
        if (b < lo || b > hi) {
            *len = k;
            return U8_INVALID_CONT;
        }
        if (k == 1 && c == 0xED && b >= 0xA0) {
            /* A surrogate, allowed by surrogatepass only when complete:
               otherwise it is the plain invalid continuation it is
               without that handler. */
            if (i + 2 >= n || s[i + 2] < 0x80 || s[i + 2] > 0xBF) {
                *len = 1;
                return U8_INVALID_CONT;
            }
        }
        *cp = (*cp << 6) | (b & 0x3F);
    }
    *len = need + 1;
    return U8_OK;
}

static const char *const utf8_reasons[] = {
    NULL, "invalid start byte", "invalid continuation byte", "unexpected end of data",
};

/* Fast path: valid input.  Returns NULL without an exception if the input
   needs the slow path. */
static PyObject *
decode_utf8_valid(const unsigned char *s, Py_ssize_t size)
{
    Py_ssize_t count = 0, i = 0;
    Py_UCS4 maxchar = 0, cp;
    Py_ssize_t len;
    while (i < size) {
        if (s[i] < 0x80) {
            i++;
            count++;
            continue;
        }
        if (utf8_step(s, i, size, 0, &cp, &len) != U8_OK) {
            return NULL;
        }
        maxchar = cp > maxchar ? cp : maxchar;
        i += len;
        count++;
    }
    if (count == 1 && maxchar < 256) {
        return _PyUnicode_FromLatin1Char((Py_UCS1)(s[0] < 0x80 ? s[0] : ((s[0] & 0x1F) << 6 | (s[1] & 0x3F))));
    }
    PyObject *u = PyUnicode_New(count, maxchar);
    if (u == NULL) {
        return NULL;
    }
    int kind = PyUnicode_KIND(u);
    void *d = PyUnicode_DATA(u);
    Py_ssize_t j = 0;
    i = 0;
    while (i < size) {
        if (s[i] < 0x80) {
            PyUnicode_WRITE(kind, d, j++, s[i++]);
            continue;
        }
        (void)utf8_step(s, i, size, 0, &cp, &len);
        PyUnicode_WRITE(kind, d, j++, cp);
        i += len;
    }
    return u;
}

PyObject *
PyUnicode_DecodeUTF8Stateful(const char *str, Py_ssize_t size, const char *errors,
                             Py_ssize_t *consumed)
{
    const unsigned char *s = (const unsigned char *)str;
    Py_ssize_t i = 0;
    while (i < size && s[i] < 0x80) {
        i++;
    }
    if (i == size) {
        if (consumed) {
            *consumed = size;
        }
        return _PyUnicode_FromASCII(str, size);
    }
    PyObject *fast = decode_utf8_valid(s, size);
    if (fast != NULL || PyErr_Occurred()) {
        if (consumed && fast) {
            *consumed = size;
        }
        return fast;
    }
    decoder dc;
    decoder_init(&dc, "utf-8", str, size, errors);
    int allow_sur = dc.eh == EH_SURROGATEPASS;
    if (_PyUnicodeWriter_WriteASCIIString(&dc.w, str, i) < 0) {
        return decoder_fail(&dc);
    }
    while (i < size) {
        Py_UCS4 cp;
        Py_ssize_t len;
        int st = utf8_step(s, i, size, allow_sur, &cp, &len);
        if (st == U8_OK) {
            if (_PyUnicodeWriter_WriteChar(&dc.w, cp) < 0) {
                return decoder_fail(&dc);
            }
            i += len;
            continue;
        }
        if (st == U8_TRUNCATED && consumed != NULL) {
            break;
        }
        i = decode_error(&dc, i, i + len, utf8_reasons[st]);
        if (i < 0) {
            return decoder_fail(&dc);
        }
    }
    if (consumed) {
        *consumed = i;
    }
    return decoder_finish(&dc);
}

PyObject *
PyUnicode_DecodeUTF8(const char *s, Py_ssize_t size, const char *errors)
{
    return PyUnicode_DecodeUTF8Stateful(s, size, errors, NULL);
}

/* ---- ASCII and Latin-1 ---- */

PyObject *
PyUnicode_DecodeLatin1(const char *s, Py_ssize_t size, const char *errors)
{
    return _PyUnicode_FromUCS1((const Py_UCS1 *)s, size);
}

PyObject *
PyUnicode_DecodeASCII(const char *s, Py_ssize_t size, const char *errors)
{
    Py_ssize_t i = 0;
    while (i < size && (unsigned char)s[i] < 128) {
        i++;
    }
    if (i == size) {
        return _PyUnicode_FromASCII(s, size);
    }
    decoder dc;
    decoder_init(&dc, "ascii", s, size, errors);
    if (_PyUnicodeWriter_WriteASCIIString(&dc.w, s, i) < 0) {
        return decoder_fail(&dc);
    }
    for (; i < size; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 128) {
            if (_PyUnicodeWriter_WriteChar(&dc.w, c) < 0) {
                return decoder_fail(&dc);
            }
        }
        else if (decode_error(&dc, i, i + 1, "ordinal not in range(128)") < 0) {
            return decoder_fail(&dc);
        }
    }
    return decoder_finish(&dc);
}

/* ---- UTF-16 / UTF-32 ---- */

static Py_UCS4
read_unit(const unsigned char *p, int width, int be)
{
    Py_UCS4 v = 0;
    for (int k = 0; k < width; k++) {
        v = (v << 8) | p[be ? k : width - 1 - k];
    }
    return v;
}

/* Consume a BOM when *byteorder is 0; fixes *byteorder for later calls. */
static Py_ssize_t
detect_bom(const unsigned char *s, Py_ssize_t size, int width, int *bo)
{
    if (*bo != 0 || size < width) {
        return 0;
    }
    Py_UCS4 le = read_unit(s, width, 0), be = read_unit(s, width, 1);
    if (le == 0xFEFF) {
        *bo = -1;
        return width;
    }
    if (be == 0xFEFF) {
        *bo = 1;
        return width;
    }
    return 0;
}

PyObject *
PyUnicode_DecodeUTF16Stateful(const char *str, Py_ssize_t size, const char *errors,
                              int *byteorder, Py_ssize_t *consumed)
{
    const unsigned char *s = (const unsigned char *)str;
    int bo = byteorder ? *byteorder : 0;
    Py_ssize_t i = detect_bom(s, size, 2, &bo);
    int be = bo == 0 ? native_big_endian() : bo > 0;
    if (byteorder) {
        *byteorder = bo;
    }
    decoder dc;
    decoder_init(&dc, be ? "utf-16-be" : "utf-16-le", str, size, errors);
    dc.w.min_length = size / 2;
    while (i < size) {
        if (size - i < 2) {
            if (consumed) {
                break;
            }
            i = decode_error(&dc, i, size, "truncated data");
            if (i < 0) {
                return decoder_fail(&dc);
            }
            continue;
        }
        Py_UCS4 u = read_unit(s + i, 2, be);
        if (u < 0xD800 || u > 0xDFFF) {
            if (_PyUnicodeWriter_WriteChar(&dc.w, u) < 0) {
                return decoder_fail(&dc);
            }
            i += 2;
            continue;
        }
        const char *reason = NULL;
        Py_ssize_t errend = i + 2;
        if (u >= 0xDC00) {
            reason = "illegal encoding";
        }
        else if (size - i < 4) {
            if (consumed) {
                break;
            }
            reason = "unexpected end of data";
            errend = size;
        }
        else {
            Py_UCS4 u2 = read_unit(s + i + 2, 2, be);
            if (u2 >= 0xDC00 && u2 <= 0xDFFF) {
                Py_UCS4 cp = 0x10000 + ((u - 0xD800) << 10) + (u2 - 0xDC00);
                if (_PyUnicodeWriter_WriteChar(&dc.w, cp) < 0) {
                    return decoder_fail(&dc);
                }
                i += 4;
                continue;
            }
            reason = "illegal UTF-16 surrogate";
        }
        if (dc.eh == EH_SURROGATEPASS) {
            if (_PyUnicodeWriter_WriteChar(&dc.w, u) < 0) {
                return decoder_fail(&dc);
            }
            i += 2;
            continue;
        }
        i = decode_error(&dc, i, errend, reason);
        if (i < 0) {
            return decoder_fail(&dc);
        }
    }
    if (consumed) {
        *consumed = i;
    }
    return decoder_finish(&dc);
}

PyObject *
PyUnicode_DecodeUTF16(const char *s, Py_ssize_t size, const char *errors, int *byteorder)
{
    return PyUnicode_DecodeUTF16Stateful(s, size, errors, byteorder, NULL);
}

PyObject *
PyUnicode_DecodeUTF32Stateful(const char *str, Py_ssize_t size, const char *errors,
                              int *byteorder, Py_ssize_t *consumed)
{
    const unsigned char *s = (const unsigned char *)str;
    int bo = byteorder ? *byteorder : 0;
    Py_ssize_t i = detect_bom(s, size, 4, &bo);
    int be = bo == 0 ? native_big_endian() : bo > 0;
    if (byteorder) {
        *byteorder = bo;
    }
    decoder dc;
    decoder_init(&dc, be ? "utf-32-be" : "utf-32-le", str, size, errors);
    dc.w.min_length = size / 4;
    while (i < size) {
        if (size - i < 4) {
            if (consumed) {
                break;
            }
            i = decode_error(&dc, i, size, "truncated data");
            if (i < 0) {
                return decoder_fail(&dc);
            }
            continue;
        }
        Py_UCS4 u = read_unit(s + i, 4, be);
        const char *reason = NULL;
        if (u > 0x10FFFF) {
            reason = "code point not in range(0x110000)";
        }
        else if (Py_UNICODE_IS_SURROGATE(u) && dc.eh != EH_SURROGATEPASS) {
            reason = "code point in surrogate code point range(0xd800, 0xe000)";
        }
        if (reason == NULL) {
            if (_PyUnicodeWriter_WriteChar(&dc.w, u) < 0) {
                return decoder_fail(&dc);
            }
            i += 4;
        }
        else if ((i = decode_error(&dc, i, i + 4, reason)) < 0) {
            return decoder_fail(&dc);
        }
    }
    if (consumed) {
        *consumed = i;
    }
    return decoder_finish(&dc);
}

PyObject *
PyUnicode_DecodeUTF32(const char *s, Py_ssize_t size, const char *errors, int *byteorder)
{
    return PyUnicode_DecodeUTF32Stateful(s, size, errors, byteorder, NULL);
}

/* ---- unicode-escape and raw-unicode-escape ---- */

static int
hexval(unsigned char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Read `digits` hex digits at s[i]; returns the count actually read. */
static int
read_hex(const unsigned char *s, Py_ssize_t i, Py_ssize_t size, int digits, Py_UCS4 *out)
{
    Py_UCS4 v = 0;
    int k = 0;
    for (; k < digits && i + k < size; k++) {
        int h = hexval(s[i + k]);
        if (h < 0) {
            break;
        }
        v = (v << 4) | (Py_UCS4)h;
    }
    *out = v;
    return k;
}

/* \N{name} at s[i] (just after the N): returns the end index; -1 for a
   malformed escape (*malformed_end: where the error ends, as CPython
   reports it); -2 - end for an unknown name. */
static Py_ssize_t
read_named(const unsigned char *s, Py_ssize_t i, Py_ssize_t size, Py_UCS4 *out,
           Py_ssize_t *malformed_end)
{
    if (i >= size || s[i] != '{') {
        *malformed_end = i;
        return -1;
    }
    Py_ssize_t j = i + 1;
    while (j < size && s[j] != '}') {
        j++;
    }
    if (j >= size || j == i + 1) {
        *malformed_end = j;
        return -1;
    }
    if (!_PyUnicode_LookupCharName((const char *)s + i + 1, j - i - 1, out)) {
        return -2 - (j + 1);
    }
    return j + 1;
}

PyObject *
_PyUnicode_DecodeUnicodeEscapeInternal(const char *str, Py_ssize_t size, const char *errors,
                                       Py_ssize_t *consumed, const char **first_invalid_escape)
{
    const unsigned char *s = (const unsigned char *)str;
    decoder dc;
    decoder_init(&dc, "unicodeescape", str, size, errors);
    if (first_invalid_escape) {
        *first_invalid_escape = NULL;
    }
    Py_ssize_t i = 0;
    while (i < size) {
        unsigned char c = s[i];
        if (c != '\\') {
            if (_PyUnicodeWriter_WriteChar(&dc.w, c) < 0) {
                return decoder_fail(&dc);
            }
            i++;
            continue;
        }
        Py_ssize_t start = i++;
        if (i >= size) {
            if (consumed) {
                i = start;
                break;
            }
            if (decode_error(&dc, start, size, "\\ at end of string") < 0) {
                return decoder_fail(&dc);
            }
            break;
        }
        c = s[i++];
        Py_UCS4 ch;
        const char *err = NULL;
        int digits = 0;
        switch (c) {
        case '\n': continue;
        case '\\': ch = '\\'; break;
        case '\'': ch = '\''; break;
        case '"': ch = '"'; break;
        case 'b': ch = '\b'; break;
        case 'f': ch = '\f'; break;
        case 't': ch = '\t'; break;
        case 'n': ch = '\n'; break;
        case 'r': ch = '\r'; break;
        case 'v': ch = '\v'; break;
        case 'a': ch = '\a'; break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
            ch = c - '0';
            if (i < size && s[i] >= '0' && s[i] <= '7') {
                ch = (ch << 3) + (s[i++] - '0');
                if (i < size && s[i] >= '0' && s[i] <= '7') {
                    ch = (ch << 3) + (s[i++] - '0');
                }
            }
            if (ch > 0377 && first_invalid_escape && *first_invalid_escape == NULL) {
                *first_invalid_escape = str + start;
            }
            break;
        case 'x': digits = 2; err = "truncated \\xXX escape"; break;
        case 'u': digits = 4; err = "truncated \\uXXXX escape"; break;
        case 'U': digits = 8; err = "truncated \\UXXXXXXXX escape"; break;
        case 'N': {
            Py_ssize_t malformed_end = i;
            Py_ssize_t end = read_named(s, i, size, &ch, &malformed_end);
            if (end == -1) {
                if (decode_error(&dc, start, malformed_end, "malformed \\N character escape") < 0) {
                    return decoder_fail(&dc);
                }
                i = malformed_end;
                continue;
            }
            if (end < -1) {
                end = -2 - end;
                if (decode_error(&dc, start, end, "unknown Unicode character name") < 0) {
                    return decoder_fail(&dc);
                }
                i = end;
                continue;
            }
            i = end;
            break;
        }
        default:
            if (first_invalid_escape && *first_invalid_escape == NULL) {
                *first_invalid_escape = str + start;
            }
            if (_PyUnicodeWriter_WriteChar(&dc.w, '\\') < 0) {
                return decoder_fail(&dc);
            }
            ch = c;
            break;
        }
        if (digits) {
            int got = read_hex(s, i, size, digits, &ch);
            if (got < digits) {
                if (consumed && i + got >= size) {
                    i = start;
                    break;
                }
                if (decode_error(&dc, start, i + got, err) < 0) {
                    return decoder_fail(&dc);
                }
                i += got;
                continue;
            }
            i += digits;
            if (ch > 0x10FFFF) {
                if (decode_error(&dc, start, i, "illegal Unicode character") < 0) {
                    return decoder_fail(&dc);
                }
                continue;
            }
        }
        if (_PyUnicodeWriter_WriteChar(&dc.w, ch) < 0) {
            return decoder_fail(&dc);
        }
    }
    if (consumed) {
        *consumed = i;
    }
    return decoder_finish(&dc);
}

PyObject *
PyUnicode_DecodeUnicodeEscape(const char *s, Py_ssize_t size, const char *errors)
{
    const char *first_invalid = NULL;
    PyObject *res = _PyUnicode_DecodeUnicodeEscapeInternal(s, size, errors, NULL, &first_invalid);
    if (res != NULL && first_invalid != NULL) {
        unsigned char c = (unsigned char)first_invalid[1];
        int r = (c >= '4' && c <= '7')
                    ? PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                                       "invalid octal escape sequence '\\%.3s'", first_invalid + 1)
                    : PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                                       "invalid escape sequence '\\%c'", c);
        if (r < 0) {
            Py_DECREF(res);
            return NULL;
        }
    }
    return res;
}

PyObject *
PyUnicode_DecodeRawUnicodeEscape(const char *str, Py_ssize_t size, const char *errors)
{
    const unsigned char *s = (const unsigned char *)str;
    decoder dc;
    decoder_init(&dc, "rawunicodeescape", str, size, errors);
    Py_ssize_t i = 0;
    while (i < size) {
        unsigned char c = s[i];
        if (c != '\\') {
            if (_PyUnicodeWriter_WriteChar(&dc.w, c) < 0) {
                return decoder_fail(&dc);
            }
            i++;
            continue;
        }
        /* Only a backslash run of odd length escapes a following u/U. */
        Py_ssize_t j = i;
        while (j < size && s[j] == '\\') {
            j++;
        }
        Py_ssize_t run = j - i;
        int escapes = (run & 1) && j < size && (s[j] == 'u' || s[j] == 'U');
        for (Py_ssize_t k = 0; k < run - (escapes ? 1 : 0); k++) {
            if (_PyUnicodeWriter_WriteChar(&dc.w, '\\') < 0) {
                return decoder_fail(&dc);
            }
        }
        i = j;
        if (!escapes) {
            continue;
        }
        Py_ssize_t start = j - 1;
        int digits = s[j] == 'u' ? 4 : 8;
        Py_UCS4 ch;
        i = j + 1;
        int got = read_hex(s, i, size, digits, &ch);
        if (got < digits) {
            if (decode_error(&dc, start, i + got,
                             digits == 4 ? "truncated \\uXXXX escape"
                                         : "truncated \\UXXXXXXXX escape") < 0) {
                return decoder_fail(&dc);
            }
            i += got;
            continue;
        }
        i += digits;
        if (ch > 0x10FFFF) {
            if (decode_error(&dc, start, i, "\\Uxxxxxxxx out of range") < 0) {
                return decoder_fail(&dc);
            }
            continue;
        }
        if (_PyUnicodeWriter_WriteChar(&dc.w, ch) < 0) {
            return decoder_fail(&dc);
        }
    }
    return decoder_finish(&dc);
}

/* ---- Choosing an encoding by name ------------------------------------------------------------ */

static PyObject *
decode_utf8_sig(const char *s, Py_ssize_t size, const char *errors)
{
    if (size >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
        s += 3;
        size -= 3;
    }
    return PyUnicode_DecodeUTF8Stateful(s, size, errors, NULL);
}

PyObject *
_PyCodec_DecodeText(const char *s, Py_ssize_t size, const char *encoding, const char *errors)
{
    int bo;
    switch (_PyCodec_LookupBuiltin(encoding)) {
    case _Py_ENC_UTF8: return PyUnicode_DecodeUTF8Stateful(s, size, errors, NULL);
    case _Py_ENC_UTF8_SIG: return decode_utf8_sig(s, size, errors);
    case _Py_ENC_ASCII: return PyUnicode_DecodeASCII(s, size, errors);
    case _Py_ENC_LATIN1: return PyUnicode_DecodeLatin1(s, size, errors);
    case _Py_ENC_UTF16: bo = 0; return PyUnicode_DecodeUTF16(s, size, errors, &bo);
    case _Py_ENC_UTF16_LE: bo = -1; return PyUnicode_DecodeUTF16(s, size, errors, &bo);
    case _Py_ENC_UTF16_BE: bo = 1; return PyUnicode_DecodeUTF16(s, size, errors, &bo);
    case _Py_ENC_UTF32: bo = 0; return PyUnicode_DecodeUTF32(s, size, errors, &bo);
    case _Py_ENC_UTF32_LE: bo = -1; return PyUnicode_DecodeUTF32(s, size, errors, &bo);
    case _Py_ENC_UTF32_BE: bo = 1; return PyUnicode_DecodeUTF32(s, size, errors, &bo);
    case _Py_ENC_UNICODE_ESCAPE: return PyUnicode_DecodeUnicodeEscape(s, size, errors);
    case _Py_ENC_RAW_UNICODE_ESCAPE: return PyUnicode_DecodeRawUnicodeEscape(s, size, errors);
    default: break;
    }
    if (_PyCodec_DecodeHook != NULL) {
        PyObject *bytes = PyBytes_FromStringAndSize(s, size);
        if (bytes == NULL) {
            return NULL;
        }
        PyObject *res = _PyCodec_DecodeHook(bytes, encoding, errors);
        Py_DECREF(bytes);
        if (res != NULL && !PyUnicode_Check(res)) {
            PyErr_Format(PyExc_TypeError,
                         "'%.400s' decoder returned '%.400s' instead of 'str'; use "
                         "codecs.decode() to decode to arbitrary types",
                         encoding, Py_TYPE(res)->tp_name);
            Py_DECREF(res);
            return NULL;
        }
        return res;
    }
    unknown_encoding(encoding, 1);
    return NULL;
}

PyObject *
_PyCodec_EncodeText(PyObject *str, const char *encoding, const char *errors)
{
    switch (_PyCodec_LookupBuiltin(encoding)) {
    case _Py_ENC_UTF8: return encode_utf8_impl(str, errors, "utf-8", 0);
    case _Py_ENC_UTF8_SIG: return encode_utf8_impl(str, errors, "utf-8", 1);
    case _Py_ENC_ASCII: return encode_8bit(str, errors, 128);
    case _Py_ENC_LATIN1: return encode_8bit(str, errors, 256);
    case _Py_ENC_UTF16: return encode_utf16_32(str, errors, 0, 0);
    case _Py_ENC_UTF16_LE: return encode_utf16_32(str, errors, -1, 0);
    case _Py_ENC_UTF16_BE: return encode_utf16_32(str, errors, 1, 0);
    case _Py_ENC_UTF32: return encode_utf16_32(str, errors, 0, 1);
    case _Py_ENC_UTF32_LE: return encode_utf16_32(str, errors, -1, 1);
    case _Py_ENC_UTF32_BE: return encode_utf16_32(str, errors, 1, 1);
    case _Py_ENC_UNICODE_ESCAPE: return encode_escape(str, 0);
    case _Py_ENC_RAW_UNICODE_ESCAPE: return encode_escape(str, 1);
    default: break;
    }
    if (_PyCodec_EncodeHook != NULL) {
        PyObject *res = _PyCodec_EncodeHook(str, encoding, errors);
        if (res != NULL && !PyBytes_Check(res)) {
            if (PyByteArray_Check(res)) {
                PyObject *b = PyBytes_FromStringAndSize(PyByteArray_AS_STRING(res),
                                                        PyByteArray_GET_SIZE(res));
                Py_DECREF(res);
                return b;
            }
            PyErr_Format(PyExc_TypeError,
                         "'%.400s' encoder returned '%.400s' instead of 'bytes'; use "
                         "codecs.encode() to encode to arbitrary types",
                         encoding, Py_TYPE(res)->tp_name);
            Py_DECREF(res);
            return NULL;
        }
        return res;
    }
    unknown_encoding(encoding, 0);
    return NULL;
}

PyObject *
PyUnicode_Decode(const char *s, Py_ssize_t size, const char *encoding, const char *errors)
{
    if (encoding == NULL) {
        return PyUnicode_DecodeUTF8Stateful(s, size, errors, NULL);
    }
    return _PyCodec_DecodeText(s, size, encoding, errors);
}

PyObject *
PyUnicode_AsEncodedString(PyObject *unicode, const char *encoding, const char *errors)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return NULL;
    }
    if (encoding == NULL) {
        return encode_utf8_impl(unicode, errors, "utf-8", 0);
    }
    return _PyCodec_EncodeText(unicode, encoding, errors);
}

PyObject *
PyUnicode_AsDecodedObject(PyObject *unicode, const char *encoding, const char *errors)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return NULL;
    }
    if (_PyCodec_DecodeHook != NULL) {
        return _PyCodec_DecodeHook(unicode, encoding ? encoding : "utf-8", errors);
    }
    PyErr_SetString(PyExc_TypeError, "decoding str is not supported");
    return NULL;
}

/* A str argument as a C string without embedded NULs (for names). */
static int
c_string_arg(PyObject *obj, const char *fname, const char *argname, const char **out)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be str, not %.50s", fname, argname,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t size;
    const char *s = PyUnicode_AsUTF8AndSize(obj, &size);
    if (s == NULL) {
        return -1;
    }
    if ((size_t)size != strlen(s)) {
        PyErr_SetString(PyExc_ValueError, "embedded null character");
        return -1;
    }
    *out = s;
    return 0;
}

/* encode/decode argument parsing shared with bytes.decode. */
int
_PyCodec_ParseEncodingArgs(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                           const char *fname, const char **encoding, const char **errors)
{
    static const char *const kwlist[] = {"encoding", "errors", NULL};
    PyObject *out[2] = {NULL, NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, fname, kwlist, 0, 2, 0, out)) {
        return -1;
    }
    *encoding = NULL;
    *errors = NULL;
    if (out[0] != NULL && c_string_arg(out[0], fname, "encoding", encoding) < 0) {
        return -1;
    }
    if (out[1] != NULL && c_string_arg(out[1], fname, "errors", errors) < 0) {
        return -1;
    }
    return 0;
}

PyObject *
_PyUnicode_EncodeMethod(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames)
{
    const char *encoding, *errors;
    if (_PyCodec_ParseEncodingArgs(args, nargs, kwnames, "encode", &encoding, &errors) < 0) {
        return NULL;
    }
    return PyUnicode_AsEncodedString(self, encoding ? encoding : "utf-8", errors);
}

/* ---- File system, locale and wchar_t ------------------------------------------------------------ */

PyObject *
PyUnicode_DecodeFSDefaultAndSize(const char *s, Py_ssize_t size)
{
    return PyUnicode_DecodeUTF8Stateful(s, size, "surrogateescape", NULL);
}

PyObject *
PyUnicode_DecodeFSDefault(const char *s)
{
    return PyUnicode_DecodeFSDefaultAndSize(s, (Py_ssize_t)strlen(s));
}

PyObject *
PyUnicode_EncodeFSDefault(PyObject *unicode)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return NULL;
    }
    return encode_utf8_impl(unicode, "surrogateescape", "utf-8", 0);
}

/* The locale is taken to be UTF-8 (what a UTF-8 mode runtime does). */
PyObject *
PyUnicode_DecodeLocale(const char *str, const char *errors)
{
    return PyUnicode_DecodeUTF8Stateful(str, (Py_ssize_t)strlen(str),
                                        errors ? errors : "strict", NULL);
}

PyObject *
PyUnicode_EncodeLocale(PyObject *unicode, const char *errors)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return NULL;
    }
    return encode_utf8_impl(unicode, errors, "locale", 0);
}

/* os.fspath() for the converters: str and bytes pass, PathLike is asked. */
static PyObject *
fspath(PyObject *path)
{
    if (PyUnicode_Check(path) || PyBytes_Check(path)) {
        return Py_NewRef(path);
    }
    PyObject *meth = PyObject_GetAttrString((PyObject *)Py_TYPE(path), "__fspath__");
    if (meth == NULL) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "expected str, bytes or os.PathLike object, not %.200s",
                     Py_TYPE(path)->tp_name);
        return NULL;
    }
    PyObject *res = PyObject_CallOneArg(meth, path);
    Py_DECREF(meth);
    if (res != NULL && !PyUnicode_Check(res) && !PyBytes_Check(res)) {
        PyErr_Format(PyExc_TypeError,
                     "expected %.200s.__fspath__() to return str or bytes, not %.200s",
                     Py_TYPE(path)->tp_name, Py_TYPE(res)->tp_name);
        Py_CLEAR(res);
    }
    return res;
}

int
PyUnicode_FSConverter(PyObject *arg, void *addr)
{
    if (arg == NULL) {
        Py_CLEAR(*(PyObject **)addr);
        return 1;
    }
    PyObject *path = fspath(arg);
    if (path == NULL) {
        return 0;
    }
    PyObject *output;
    if (PyBytes_Check(path)) {
        output = path;
    }
    else {
        output = PyUnicode_EncodeFSDefault(path);
        Py_DECREF(path);
        if (output == NULL) {
            return 0;
        }
    }
    if ((size_t)PyBytes_GET_SIZE(output) != strlen(PyBytes_AS_STRING(output))) {
        PyErr_SetString(PyExc_ValueError, "embedded null byte");
        Py_DECREF(output);
        return 0;
    }
    *(PyObject **)addr = output;
    return Py_CLEANUP_SUPPORTED;
}

int
PyUnicode_FSDecoder(PyObject *arg, void *addr)
{
    if (arg == NULL) {
        Py_CLEAR(*(PyObject **)addr);
        return 1;
    }
    PyObject *path = fspath(arg);
    if (path == NULL) {
        return 0;
    }
    PyObject *output;
    if (PyUnicode_Check(path)) {
        output = path;
    }
    else {
        output = PyUnicode_DecodeFSDefaultAndSize(PyBytes_AS_STRING(path), PyBytes_GET_SIZE(path));
        Py_DECREF(path);
        if (output == NULL) {
            return 0;
        }
    }
    if (PyUnicode_FindChar(output, 0, 0, PyUnicode_GET_LENGTH(output), 1) >= 0) {
        PyErr_SetString(PyExc_ValueError, "embedded null character");
        Py_DECREF(output);
        return 0;
    }
    *(PyObject **)addr = output;
    return Py_CLEANUP_SUPPORTED;
}

PyObject *
PyUnicode_FromWideChar(const wchar_t *w, Py_ssize_t size)
{
    if (w == NULL && size != 0) {
        PyErr_BadInternalCall();
        return NULL;
    }
    if (size == -1) {
        size = (Py_ssize_t)wcslen(w);
    }
    Py_BUILD_ASSERT(sizeof(wchar_t) == 4);
    return _PyUnicode_FromUCS4((const Py_UCS4 *)w, size);
}

Py_ssize_t
PyUnicode_AsWideChar(PyObject *unicode, wchar_t *w, Py_ssize_t size)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return -1;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(unicode);
    if (w == NULL) {
        return len + 1;
    }
    Py_ssize_t n = size < len ? size : len;
    for (Py_ssize_t i = 0; i < n; i++) {
        w[i] = (wchar_t)PyUnicode_READ_CHAR(unicode, i);
    }
    if (n < size) {
        w[n] = 0;
    }
    return n;
}

wchar_t *
PyUnicode_AsWideCharString(PyObject *unicode, Py_ssize_t *size)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(unicode);
    wchar_t *w = PyMem_New(wchar_t, len + 1);
    if (w == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        w[i] = (wchar_t)PyUnicode_READ_CHAR(unicode, i);
        if (w[i] == 0 && size == NULL) {
            PyMem_Free(w);
            PyErr_SetString(PyExc_ValueError, "embedded null character");
            return NULL;
        }
    }
    w[len] = 0;
    if (size) {
        *size = len;
    }
    return w;
}
