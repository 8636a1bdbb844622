/* The _codecs module: the registry (Python/codecregistry.c) and the
   stateless coder functions the encodings modules modules are built from.

   Each coder returns (result, length consumed).  The text coders wrap the
   built-in encodings of Python/codecs.c; the charmap coders (every cp*,
   iso8859_*, mac_* codec) and the bytes escape coders live here. */

#include "Python.h"
#include "pycore_codecs.h"
#include "pycore_bytesobject.h"

#include <ctype.h>

/* ---- Arguments ------------------------------------------------------------------------- */

/* Input bytes: any buffer, or with `text_ok` a str (as UTF-8). */
typedef struct {
    Py_buffer view;
    int has_view;
    const char *data;
    Py_ssize_t size;
} input_data;

static int
get_input(PyObject *obj, input_data *in, int text_ok)
{
    in->has_view = 0;
    if (text_ok && PyUnicode_Check(obj)) {
        in->data = PyUnicode_AsUTF8AndSize(obj, &in->size);
        return in->data == NULL ? -1 : 0;
    }
    if (PyUnicode_Check(obj) || PyObject_GetBuffer(obj, &in->view, PyBUF_SIMPLE) < 0) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.100s'",
                         Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    in->has_view = 1;
    in->data = in->view.buf;
    in->size = in->view.len;
    return 0;
}

static void
release_input(input_data *in)
{
    if (in->has_view) {
        PyBuffer_Release(&in->view);
    }
}

static int
check_str(PyObject *obj, const char *fname)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s() argument 1 must be str, not %.100s", fname,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

/* (result, consumed), stealing result. */
static PyObject *
coder_result(PyObject *result, Py_ssize_t consumed)
{
    if (result == NULL) {
        return NULL;
    }
    PyObject *res = Py_BuildValue("(Nn)", result, consumed);
    return res;
}

/* ---- Registry ------------------------------------------------------------------------ */

static PyObject *
codecs_register(PyObject *module, PyObject *search_function)
{
    if (PyCodec_Register(search_function) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
codecs_unregister(PyObject *module, PyObject *search_function)
{
    if (PyCodec_Unregister(search_function) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* A name argument: str without NUL characters. */
static const char *
name_arg(PyObject *obj, const char *fname)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s() argument must be str, not %.100s", fname,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(obj, &n);
    if (s != NULL && strlen(s) != (size_t)n) {
        PyErr_SetString(PyExc_ValueError, "embedded null character");
        return NULL;
    }
    return s;
}

static PyObject *
codecs_lookup(PyObject *module, PyObject *arg)
{
    const char *encoding = name_arg(arg, "lookup");
    return encoding == NULL ? NULL : PyCodec_Lookup(encoding);
}

static PyObject *
codecs_forget_codec(PyObject *module, PyObject *arg)
{
    const char *encoding = name_arg(arg, "_forget_codec");
    if (encoding == NULL) {
        return NULL;
    }
    if (_PyCodec_Forget(encoding) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* encode()/decode(): obj, encoding='utf-8', errors='strict'. */
static PyObject *
run_named_codec(PyObject *args, PyObject *kwargs, const char *fname, int decoding)
{
    static char *kwlist[] = {"obj", "encoding", "errors", NULL};
    PyObject *obj;
    const char *encoding = "utf-8", *errors = "strict";
    char format[16];
    snprintf(format, sizeof(format), "O|ss:%s", fname);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, kwlist, &obj, &encoding, &errors)) {
        return NULL;
    }
    return decoding ? PyCodec_Decode(obj, encoding, errors) : PyCodec_Encode(obj, encoding, errors);
}

static PyObject *
codecs_encode(PyObject *module, PyObject *args, PyObject *kwargs)
{
    return run_named_codec(args, kwargs, "encode", 0);
}

static PyObject *
codecs_decode(PyObject *module, PyObject *args, PyObject *kwargs)
{
    return run_named_codec(args, kwargs, "decode", 1);
}

static PyObject *
codecs_lookup_error(PyObject *module, PyObject *arg)
{
    const char *name = name_arg(arg, "lookup_error");
    return name == NULL ? NULL : PyCodec_LookupError(name);
}

static PyObject *
codecs_register_error(PyObject *module, PyObject *args)
{
    const char *name;
    PyObject *handler;
    if (!PyArg_ParseTuple(args, "sO:register_error", &name, &handler)) {
        return NULL;
    }
    if (PyCodec_RegisterError(name, handler) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
codecs_unregister_error(PyObject *module, PyObject *args)
{
    const char *name;
    if (!PyArg_ParseTuple(args, "s:_unregister_error", &name)) {
        return NULL;
    }
    int r = _PyCodec_UnregisterError(name);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

/* ---- Text coders over the built-in encodings -------------------------------------------- */

/* name(str, errors=None) -> (bytes, len(str)), for encoders of one
   argument shape.  `which` picks the encoding. */
typedef PyObject *(*str_encoder)(PyObject *str, const char *errors);

/* The optional `errors` argument: None or a str. */
static int
errors_arg(PyObject *obj, const char *fname, const char **errors)
{
    if (obj == Py_None) {
        *errors = NULL;
        return 0;
    }
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s() argument 2 must be str or None, not %.100s", fname,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    *errors = PyUnicode_AsUTF8(obj);
    return *errors == NULL ? -1 : 0;
}

static PyObject *
encode_with(PyObject *args, const char *fname, str_encoder enc)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    const char *errors = NULL;
    if (!_PyArg_CheckPositional(fname, nargs, 1, 2)) {
        return NULL;
    }
    PyObject *text = PyTuple_GET_ITEM(args, 0);
    if (check_str(text, fname) < 0 ||
        (nargs == 2 && errors_arg(PyTuple_GET_ITEM(args, 1), fname, &errors) < 0)) {
        return NULL;
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    return coder_result(enc(text, errors), length);
}

static PyObject *
enc_utf16_le(PyObject *s, const char *e)
{
    return _PyUnicode_EncodeUTF16(s, e, -1);
}

static PyObject *
enc_utf16_be(PyObject *s, const char *e)
{
    return _PyUnicode_EncodeUTF16(s, e, 1);
}

static PyObject *
enc_utf32_le(PyObject *s, const char *e)
{
    return _PyUnicode_EncodeUTF32(s, e, -1);
}

static PyObject *
enc_utf32_be(PyObject *s, const char *e)
{
    return _PyUnicode_EncodeUTF32(s, e, 1);
}

static PyObject *
enc_unicode_escape(PyObject *s, const char *e)
{
    return PyUnicode_AsUnicodeEscapeString(s);
}

static PyObject *
enc_raw_unicode_escape(PyObject *s, const char *e)
{
    return PyUnicode_AsRawUnicodeEscapeString(s);
}

#define ENCODER(NAME, FUNC)                                        \
    static PyObject *codecs_##NAME(PyObject *module, PyObject *args) \
    {                                                              \
        return encode_with(args, #NAME, FUNC);                     \
    }

ENCODER(utf_8_encode, _PyUnicode_AsUTF8String)
ENCODER(latin_1_encode, _PyUnicode_AsLatin1String)
ENCODER(ascii_encode, _PyUnicode_AsASCIIString)
ENCODER(utf_16_le_encode, enc_utf16_le)
ENCODER(utf_16_be_encode, enc_utf16_be)
ENCODER(utf_32_le_encode, enc_utf32_le)
ENCODER(utf_32_be_encode, enc_utf32_be)
ENCODER(unicode_escape_encode, enc_unicode_escape)
ENCODER(raw_unicode_escape_encode, enc_raw_unicode_escape)
#undef ENCODER

/* utf_16_encode / utf_32_encode take a byte order: 0 native with BOM. */
static PyObject *
encode_utf_ordered(PyObject *args, const char *fname, int wide)
{
    PyObject *str;
    const char *errors = NULL;
    int byteorder = 0;
    if (!PyArg_ParseTuple(args, "O|zi", &str, &errors, &byteorder) || check_str(str, fname) < 0) {
        return NULL;
    }
    int bo = byteorder < 0 ? -1 : byteorder > 0 ? 1 : 0;
    PyObject *res = wide ? _PyUnicode_EncodeUTF32(str, errors, bo)
                         : _PyUnicode_EncodeUTF16(str, errors, bo);
    return coder_result(res, PyUnicode_GET_LENGTH(str));
}

static PyObject *
codecs_utf_16_encode(PyObject *module, PyObject *args)
{
    return encode_utf_ordered(args, "utf_16_encode", 0);
}

static PyObject *
codecs_utf_32_encode(PyObject *module, PyObject *args)
{
    return encode_utf_ordered(args, "utf_32_encode", 1);
}

/* Decoders of the shape (data, errors=None, final=False). */
static int
parse_decode_args(PyObject *args, const char *fmt, input_data *in, const char **errors,
                  int *final, int text_ok)
{
    PyObject *obj;
    *errors = NULL;
    if (!PyArg_ParseTuple(args, fmt, &obj, errors, final)) {
        return -1;
    }
    return get_input(obj, in, text_ok);
}

static PyObject *
codecs_utf_8_decode(PyObject *module, PyObject *args)
{
    input_data in;
    const char *errors;
    int final = 0;
    if (parse_decode_args(args, "O|zp:utf_8_decode", &in, &errors, &final, 0) < 0) {
        return NULL;
    }
    Py_ssize_t consumed = in.size;
    PyObject *res = PyUnicode_DecodeUTF8Stateful(in.data, in.size, errors,
                                                 final ? NULL : &consumed);
    release_input(&in);
    return coder_result(res, consumed);
}

/* The UTF-16/32 decoders: byteorder 0 reads a BOM, -1 little, 1 big. */
static PyObject *
decode_utf_wide(input_data *in, const char *errors, int *byteorder, int final, int wide)
{
    Py_ssize_t consumed = in->size;
    Py_ssize_t *pc = final ? NULL : &consumed;
    PyObject *res = wide ? PyUnicode_DecodeUTF32Stateful(in->data, in->size, errors, byteorder, pc)
                         : PyUnicode_DecodeUTF16Stateful(in->data, in->size, errors, byteorder, pc);
    release_input(in);
    return coder_result(res, consumed);
}

static PyObject *
decode_fixed_order(PyObject *args, const char *fmt, int order, int wide)
{
    input_data in;
    const char *errors;
    int final = 0;
    if (parse_decode_args(args, fmt, &in, &errors, &final, 0) < 0) {
        return NULL;
    }
    int bo = order;
    return decode_utf_wide(&in, errors, &bo, final, wide);
}

#define FIXED_DECODER(NAME, ORDER, WIDE)                                    \
    static PyObject *codecs_##NAME(PyObject *module, PyObject *args)          \
    {                                                                       \
        return decode_fixed_order(args, "O|zp:" #NAME, ORDER, WIDE);        \
    }

FIXED_DECODER(utf_16_decode, 0, 0)
FIXED_DECODER(utf_16_le_decode, -1, 0)
FIXED_DECODER(utf_16_be_decode, 1, 0)
FIXED_DECODER(utf_32_decode, 0, 1)
FIXED_DECODER(utf_32_le_decode, -1, 1)
FIXED_DECODER(utf_32_be_decode, 1, 1)
#undef FIXED_DECODER

/* _ex: (data, errors=None, byteorder=0, final=False) -> (str, consumed,
   byteorder found), for the stream reader that detects the BOM once. */
static PyObject *
decode_utf_ex(PyObject *args, const char *fmt, int wide)
{
    PyObject *obj;
    const char *errors = NULL;
    int byteorder = 0, final = 0;
    input_data in;
    if (!PyArg_ParseTuple(args, fmt, &obj, &errors, &byteorder, &final) ||
        get_input(obj, &in, 0) < 0) {
        return NULL;
    }
    int bo = byteorder < 0 ? -1 : byteorder > 0 ? 1 : 0;
    PyObject *pair = decode_utf_wide(&in, errors, &bo, final, wide);
    if (pair == NULL) {
        return NULL;
    }
    PyObject *res = Py_BuildValue("(OOi)", PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1),
                                  bo);
    Py_DECREF(pair);
    return res;
}

static PyObject *
codecs_utf_16_ex_decode(PyObject *module, PyObject *args)
{
    return decode_utf_ex(args, "O|zip:utf_16_ex_decode", 0);
}

static PyObject *
codecs_utf_32_ex_decode(PyObject *module, PyObject *args)
{
    return decode_utf_ex(args, "O|zip:utf_32_ex_decode", 1);
}

typedef PyObject *(*plain_decoder)(const char *s, Py_ssize_t size, const char *errors);

static PyObject *
decode_plain(PyObject *args, const char *fmt, plain_decoder dec)
{
    PyObject *obj;
    const char *errors = NULL;
    input_data in;
    if (!PyArg_ParseTuple(args, fmt, &obj, &errors) || get_input(obj, &in, 0) < 0) {
        return NULL;
    }
    PyObject *res = dec(in.data, in.size, errors);
    Py_ssize_t size = in.size;
    release_input(&in);
    return coder_result(res, size);
}

static PyObject *
codecs_latin_1_decode(PyObject *module, PyObject *args)
{
    return decode_plain(args, "O|z:latin_1_decode", PyUnicode_DecodeLatin1);
}

static PyObject *
codecs_ascii_decode(PyObject *module, PyObject *args)
{
    return decode_plain(args, "O|z:ascii_decode", PyUnicode_DecodeASCII);
}

/* Where an unfinished escape starts at the end of s, so a non-final
   chunk stops before it: a lone trailing backslash, or \x \u \U \N with
   too few characters after it.  `raw`: only \u and \U escape. */
static Py_ssize_t
complete_prefix(const char *s, Py_ssize_t size, int raw)
{
    Py_ssize_t back = size - 1;
    Py_ssize_t limit = size > 12 ? size - 12 : 0;
    for (; back >= limit; back--) {
        if (s[back] != '\\') {
            continue;
        }
        Py_ssize_t run = 0;
        while (back - run >= 0 && s[back - run] == '\\') {
            run++;
        }
        if (run % 2 == 0) {
            continue; /* an escaped backslash */
        }
        Py_ssize_t left = size - back - 1;
        if (left == 0) {
            return back;
        }
        char kind = s[back + 1];
        int need = kind == 'x' && !raw ? 2 : kind == 'u' ? 4 : kind == 'U' ? 8 : 0;
        if (need > 0 && left - 1 < need) {
            return back;
        }
        if (kind == 'N' && !raw && memchr(s + back, '}', left + 1) == NULL) {
            return back;
        }
        return size;
    }
    return size;
}

static PyObject *
decode_escapes(PyObject *args, const char *fmt, int raw)
{
    PyObject *obj;
    const char *errors = NULL;
    int final = 1;
    input_data in;
    if (!PyArg_ParseTuple(args, fmt, &obj, &errors, &final) || get_input(obj, &in, 1) < 0) {
        return NULL;
    }
    Py_ssize_t size = final ? in.size : complete_prefix(in.data, in.size, raw);
    PyObject *res = raw ? PyUnicode_DecodeRawUnicodeEscape(in.data, size, errors)
                        : PyUnicode_DecodeUnicodeEscape(in.data, size, errors);
    release_input(&in);
    return coder_result(res, size);
}

static PyObject *
codecs_unicode_escape_decode(PyObject *module, PyObject *args)
{
    return decode_escapes(args, "O|zp:unicode_escape_decode", 0);
}

static PyObject *
codecs_raw_unicode_escape_decode(PyObject *module, PyObject *args)
{
    return decode_escapes(args, "O|zp:raw_unicode_escape_decode", 1);
}

/* ---- UTF-7 (RFC 2152) -------------------------------------------------------------------

   ASCII letters, digits, punctuation other than '+', '\\' and '~', and
   white space stand for themselves; everything else goes in "shift
   sequences": '+', the UTF-16 code units in modified base64, and a '-'
   when the next byte could be mistaken for more base64 (or at the end). */

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int
b64_value(unsigned char c)
{
    const char *p = c != 0 ? strchr(b64_alphabet, c) : NULL;
    return p == NULL ? -1 : (int)(p - b64_alphabet);
}

static int
utf7_direct(Py_UCS4 c)
{
    return c < 128 && c != 0 && c != '+' && c != '\\' && c != '~' &&
           (isalnum((int)c) || strchr("'(),-./:? \t\r\n!\"#$%&*;<=>@[]^_`{|}", (int)c) != NULL);
}

typedef struct {
    char *p;            /* next output byte */
    uint32_t acc;       /* pending bits, the low `nbits` of them */
    int nbits;
    int shifted;
} utf7_out;

static void
utf7_push_unit(utf7_out *o, Py_UCS4 unit)
{
    o->acc = (o->acc << 16) | unit;
    o->nbits += 16;
    while (o->nbits >= 6) {
        o->nbits -= 6;
        *o->p++ = b64_alphabet[(o->acc >> o->nbits) & 0x3F];
    }
}

/* Leave a shift sequence before `next` (0 at the end of the input). */
static void
utf7_unshift(utf7_out *o, Py_UCS4 next)
{
    if (o->nbits > 0) {
        *o->p++ = b64_alphabet[(o->acc << (6 - o->nbits)) & 0x3F];
    }
    if (next == 0 || next == '-' || (next < 128 && b64_value((unsigned char)next) >= 0)) {
        *o->p++ = '-';
    }
    o->acc = 0;
    o->nbits = 0;
    o->shifted = 0;
}

static PyObject *
codecs_utf_7_encode(PyObject *module, PyObject *args)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    const char *errors = NULL;
    if (!_PyArg_CheckPositional("utf_7_encode", nargs, 1, 2)) {
        return NULL;
    }
    PyObject *text = PyTuple_GET_ITEM(args, 0);
    if (check_str(text, "utf_7_encode") < 0 ||
        (nargs == 2 && errors_arg(PyTuple_GET_ITEM(args, 1), "utf_7_encode", &errors) < 0)) {
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (n > PY_SSIZE_T_MAX / 8 - 2) {
        return PyErr_NoMemory();
    }
    /* At most 16/3 bytes per unit and two units per character. */
    PyObject *out = PyBytes_FromStringAndSize(NULL, 8 * n + 2);
    if (out == NULL) {
        return NULL;
    }
    utf7_out o = {PyBytes_AS_STRING(out), 0, 0, 0};
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(text, i);
        if (o.shifted && utf7_direct(c)) {
            utf7_unshift(&o, c);
        }
        if (!o.shifted && utf7_direct(c)) {
            *o.p++ = (char)c;
            continue;
        }
        if (!o.shifted && c == '+') {
            *o.p++ = '+';
            *o.p++ = '-';
            continue;
        }
        if (!o.shifted) {
            *o.p++ = '+';
            o.shifted = 1;
        }
        if (c >= 0x10000) {
            utf7_push_unit(&o, 0xD800 | ((c - 0x10000) >> 10));
            c = 0xDC00 | ((c - 0x10000) & 0x3FF);
        }
        utf7_push_unit(&o, c);
    }
    if (o.shifted) {
        utf7_unshift(&o, 0);
    }
    if (_PyBytes_Resize(&out, o.p - PyBytes_AS_STRING(out)) < 0) {
        return NULL;
    }
    return coder_result(out, n);
}

typedef struct {
    _PyUnicodeWriter w;
    uint32_t acc;
    int nbits;
    Py_UCS4 high;          /* a high surrogate waiting for its partner, or 0 */
    Py_ssize_t start;      /* where the current shift sequence began, or -1 */
    Py_ssize_t out_start;  /* output length when it began */
} utf7_in;

#define IS_HIGH_HALF(u) ((u) >= 0xD800 && (u) <= 0xDBFF)
#define IS_LOW_HALF(u) ((u) >= 0xDC00 && (u) <= 0xDFFF)

static int
utf7_emit_unit(utf7_in *st, Py_UCS4 unit)
{
    if (st->high != 0) {
        Py_UCS4 high = st->high;
        st->high = 0;
        if (IS_LOW_HALF(unit)) {
            Py_UCS4 joined = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00);
            return _PyUnicodeWriter_WriteChar(&st->w, joined);
        }
        if (_PyUnicodeWriter_WriteChar(&st->w, high) < 0) {
            return -1;
        }
    }
    if (IS_HIGH_HALF(unit)) {
        st->high = unit;
        return 0;
    }
    return _PyUnicodeWriter_WriteChar(&st->w, unit);
}

/* Close the shift sequence; its leftover bits must be fewer than six
   and zero.  Returns the reason it is malformed, or NULL. */
static const char *
utf7_close(utf7_in *st)
{
    const char *why = NULL;
    if (st->nbits >= 6) {
        why = "partial character in shift sequence";
    }
    else if ((st->acc & ((1u << st->nbits) - 1)) != 0) {
        why = "non-zero padding bits in shift sequence";
    }
    if (why == NULL && st->high != 0 && _PyUnicodeWriter_WriteChar(&st->w, st->high) < 0) {
        return "";
    }
    st->high = 0;
    st->acc = 0;
    st->nbits = 0;
    st->start = -1;
    return why;
}

/* Report s[start:end] to the error handler; returns where to go on. */
static Py_ssize_t
utf7_error(utf7_in *st, input_data *in, const char *errors, Py_ssize_t start, Py_ssize_t end,
           const char *reason)
{
    Py_ssize_t resume;
    PyObject *repl = _PyCodec_CallDecodeErrorHandler(errors, "utf7", in->data, in->size, start,
                                                     end, reason, &resume);
    if (repl == NULL) {
        return -1;
    }
    int r = _PyUnicodeWriter_WriteStr(&st->w, repl);
    Py_DECREF(repl);
    st->start = -1;
    st->high = 0;
    st->acc = 0;
    st->nbits = 0;
    return r < 0 ? -1 : resume;
}

/* One step of the decoder at s[i]; returns the next position or -1. */
static Py_ssize_t
utf7_step(utf7_in *st, input_data *in, const char *errors, Py_ssize_t i)
{
    const unsigned char *s = (const unsigned char *)in->data;
    unsigned char c = s[i];
    if (st->start >= 0) {
        int v = b64_value(c);
        if (v >= 0) {
            st->acc = (st->acc << 6) | (uint32_t)v;
            st->nbits += 6;
            if (st->nbits >= 16) {
                st->nbits -= 16;
                if (utf7_emit_unit(st, (st->acc >> st->nbits) & 0xFFFF) < 0) {
                    return -1;
                }
            }
            return i + 1;
        }
        /* A '-' ends the sequence and is dropped; another byte ends it
           and is itself decoded, unless the sequence was malformed (then
           it is part of the error). */
        Py_ssize_t start = st->start;
        const char *why = utf7_close(st);
        if (why != NULL) {
            return *why ? utf7_error(st, in, errors, start, i + 1, why) : -1;
        }
        return c == '-' ? i + 1 : i;
    }
    if (c == '+') {
        if (i + 1 < in->size && s[i + 1] == '-') {
            return _PyUnicodeWriter_WriteChar(&st->w, '+') < 0 ? -1 : i + 2;
        }
        if (i + 1 < in->size && b64_value(s[i + 1]) < 0) {
            return utf7_error(st, in, errors, i, i + 2, "ill-formed sequence");
        }
        st->start = i;
        st->out_start = st->w.pos;
        return i + 1;
    }
    if (c >= 128) {
        return utf7_error(st, in, errors, i, i + 1, "unexpected special character");
    }
    return _PyUnicodeWriter_WriteChar(&st->w, c) < 0 ? -1 : i + 1;
}

static PyObject *
codecs_utf_7_decode(PyObject *module, PyObject *args)
{
    input_data in;
    const char *errors;
    int final = 0;
    if (parse_decode_args(args, "O|zp:utf_7_decode", &in, &errors, &final, 0) < 0) {
        return NULL;
    }
    utf7_in st = {.acc = 0, .nbits = 0, .high = 0, .start = -1, .out_start = 0};
    _PyUnicodeWriter_Init(&st.w);
    Py_ssize_t i = 0, consumed = in.size;
    while (i >= 0 && i < in.size) {
        i = utf7_step(&st, &in, errors, i);
    }
    if (i >= 0 && st.start >= 0 && !final) {
        /* An open shift sequence waits for more input. */
        consumed = st.start;
        st.w.pos = st.out_start;
    }
    else if (i >= 0 && st.start >= 0) {
        Py_ssize_t start = st.start;
        int broken = st.nbits >= 6 || st.high != 0 || (st.acc & ((1u << st.nbits) - 1)) != 0;
        st.start = -1;
        if (broken) {
            i = utf7_error(&st, &in, errors, start, in.size, "unterminated shift sequence");
        }
    }
    release_input(&in);
    if (i < 0) {
        _PyUnicodeWriter_Dealloc(&st.w);
        return NULL;
    }
    return coder_result(_PyUnicodeWriter_Finish(&st.w), consumed);
}

/* ---- Bytes to bytes ------------------------------------------------------------------- */

static PyObject *
codecs_escape_decode(PyObject *module, PyObject *args)
{
    PyObject *obj;
    const char *errors = NULL;
    input_data in;
    if (!PyArg_ParseTuple(args, "O|z:escape_decode", &obj, &errors) ||
        get_input(obj, &in, 1) < 0) {
        return NULL;
    }
    PyObject *res = PyBytes_DecodeEscape(in.data, in.size, errors, 0, NULL);
    Py_ssize_t size = in.size;
    release_input(&in);
    return coder_result(res, size);
}

/* The inside of a bytes repr with single quotes escaped. */
static PyObject *
codecs_escape_encode(PyObject *module, PyObject *args)
{
    PyObject *data;
    const char *errors = NULL;
    if (!PyArg_ParseTuple(args, "O|z:escape_encode", &data, &errors)) {
        return NULL;
    }
    if (!PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "escape_encode() argument 1 must be bytes, not %.100s",
                     Py_TYPE(data)->tp_name);
        return NULL;
    }
    const unsigned char *s = (const unsigned char *)PyBytes_AS_STRING(data);
    Py_ssize_t n = PyBytes_GET_SIZE(data);
    if (n > PY_SSIZE_T_MAX / 4) {
        return PyErr_NoMemory();
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * 4);
    if (out == NULL) {
        return NULL;
    }
    char *p = PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        const char *named = c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r"
                          : c == '\\' ? "\\\\" : c == '\'' ? "\\'" : NULL;
        if (named != NULL) {
            memcpy(p, named, 2);
            p += 2;
        }
        else if (c < ' ' || c >= 0x7f) {
            p += sprintf(p, "\\x%02x", c);
        }
        else {
            *p++ = (char)c;
        }
    }
    if (_PyBytes_Resize(&out, p - PyBytes_AS_STRING(out)) < 0) {
        return NULL;
    }
    return coder_result(out, n);
}

static PyObject *
codecs_readbuffer_encode(PyObject *module, PyObject *args)
{
    PyObject *obj;
    const char *errors = NULL;
    input_data in;
    if (!PyArg_ParseTuple(args, "O|z:readbuffer_encode", &obj, &errors) ||
        get_input(obj, &in, 1) < 0) {
        return NULL;
    }
    PyObject *res = PyBytes_FromStringAndSize(in.data, in.size);
    Py_ssize_t size = in.size;
    release_input(&in);
    return coder_result(res, size);
}

/* ---- Charmap codecs -------------------------------------------------------------------

   A decoding table is a str of 256 characters (U+FFFE: undefined) or a
   mapping from byte values; an encoding table is a mapping from code
   points to byte values (charmap_build makes a dict from a decoding
   table, PyUnicode_BuildEncodingMap) or to bytes. */

static PyObject *
codecs_charmap_build(PyObject *module, PyObject *table)
{
    if (check_str(table, "charmap_build") < 0) {
        return NULL;
    }
    return PyUnicode_BuildEncodingMap(table);
}

/* What one byte decodes to: a new str, Py_None (borrowed, undefined), or
   NULL with an exception. */
static PyObject *
charmap_decode_byte(PyObject *mapping, unsigned char b)
{
    if (PyUnicode_Check(mapping)) {
        if (b >= PyUnicode_GET_LENGTH(mapping) || PyUnicode_READ_CHAR(mapping, b) == 0xFFFE) {
            return Py_None;
        }
        return PyUnicode_Substring(mapping, b, b + 1);
    }
    PyObject *key = PyLong_FromLong(b);
    if (key == NULL) {
        return NULL;
    }
    PyObject *value = PyObject_GetItem(mapping, key);
    Py_DECREF(key);
    if (value == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_LookupError)) {
            return NULL;
        }
        PyErr_Clear();
        return Py_None;
    }
    if (value == Py_None) {
        Py_DECREF(value);
        return Py_None;
    }
    if (PyLong_Check(value)) {
        long c = PyLong_AsLong(value);
        Py_DECREF(value);
        if (c < 0 || c > 0x10FFFF) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "character mapping must be in range(0x110000)");
            }
            return NULL;
        }
        return c == 0xFFFE ? Py_None : PyUnicode_FromOrdinal((int)c);
    }
    if (PyUnicode_Check(value)) {
        if (PyUnicode_GET_LENGTH(value) == 1 && PyUnicode_READ_CHAR(value, 0) == 0xFFFE) {
            Py_DECREF(value);
            return Py_None;
        }
        return value;
    }
    PyErr_SetString(PyExc_TypeError, "character mapping must return integer, None or str");
    Py_DECREF(value);
    return NULL;
}

static PyObject *
charmap_decode_impl(const char *s, Py_ssize_t size, const char *errors, PyObject *mapping)
{
    _PyUnicodeWriter w;
    _PyUnicodeWriter_Init(&w);
    Py_ssize_t i = 0;
    while (i < size) {
        PyObject *piece = charmap_decode_byte(mapping, (unsigned char)s[i]);
        if (piece == NULL) {
            goto error;
        }
        if (piece != Py_None) {
            int r = _PyUnicodeWriter_WriteStr(&w, piece);
            Py_DECREF(piece);
            if (r < 0) {
                goto error;
            }
            i++;
            continue;
        }
        PyObject *repl = _PyCodec_CallDecodeErrorHandler(errors, "charmap", s, size, i, i + 1,
                                                         "character maps to <undefined>", &i);
        if (repl == NULL) {
            goto error;
        }
        int r = _PyUnicodeWriter_WriteStr(&w, repl);
        Py_DECREF(repl);
        if (r < 0) {
            goto error;
        }
    }
    return _PyUnicodeWriter_Finish(&w);
error:
    _PyUnicodeWriter_Dealloc(&w);
    return NULL;
}

static PyObject *
codecs_charmap_decode(PyObject *module, PyObject *args)
{
    PyObject *obj, *mapping = Py_None;
    const char *errors = NULL;
    input_data in;
    if (!PyArg_ParseTuple(args, "O|zO:charmap_decode", &obj, &errors, &mapping) ||
        get_input(obj, &in, 0) < 0) {
        return NULL;
    }
    PyObject *res = mapping == Py_None ? PyUnicode_DecodeLatin1(in.data, in.size, errors)
                                       : charmap_decode_impl(in.data, in.size, errors, mapping);
    Py_ssize_t size = in.size;
    release_input(&in);
    return coder_result(res, size);
}

/* Append the encoding of c to *out (at *len).  Returns 1 done, 0 when
   the mapping has no entry for c, -1 on error. */
static int
charmap_encode_char(PyObject *mapping, Py_UCS4 c, PyObject **out, Py_ssize_t *len)
{
    PyObject *key = PyLong_FromLong((long)c);
    if (key == NULL) {
        return -1;
    }
    PyObject *value = PyObject_GetItem(mapping, key);
    Py_DECREF(key);
    if (value == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_LookupError)) {
            return -1;
        }
        PyErr_Clear();
        return 0;
    }
    const char *bytes;
    char one;
    Py_ssize_t n;
    if (value == Py_None) {
        Py_DECREF(value);
        return 0;
    }
    if (PyLong_Check(value)) {
        long b = PyLong_AsLong(value);
        if (b < 0 || b > 255) {
            Py_DECREF(value);
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "character mapping must be in range(256)");
            }
            return -1;
        }
        one = (char)b;
        bytes = &one;
        n = 1;
    }
    else if (PyBytes_Check(value)) {
        bytes = PyBytes_AS_STRING(value);
        n = PyBytes_GET_SIZE(value);
    }
    else {
        PyErr_Format(PyExc_TypeError,
                     "character mapping must return integer, bytes or None, not %.400s",
                     Py_TYPE(value)->tp_name);
        Py_DECREF(value);
        return -1;
    }
    Py_ssize_t cap = PyBytes_GET_SIZE(*out);
    if (*len + n > cap && _PyBytes_Resize(out, (*len + n) * 2 + 16) < 0) {
        Py_DECREF(value);
        return -1;
    }
    memcpy(PyBytes_AS_STRING(*out) + *len, bytes, n);
    *len += n;
    Py_DECREF(value);
    return 1;
}

/* The unencodable run str[start:end]: the handler's replacement is
   either bytes or a str that must itself go through the mapping. */
static Py_ssize_t
charmap_encode_error(PyObject *str, Py_ssize_t start, Py_ssize_t end, const char *errors,
                     PyObject *mapping, PyObject **out, Py_ssize_t *len)
{
    static const char reason[] = "character maps to <undefined>";
    Py_ssize_t newpos;
    PyObject *repl = _PyCodec_CallEncodeErrorHandler(errors, "charmap", str, start, end, reason,
                                                     &newpos);
    if (repl == NULL) {
        return -1;
    }
    if (PyBytes_Check(repl)) {
        Py_ssize_t n = PyBytes_GET_SIZE(repl);
        int r = *len + n > PyBytes_GET_SIZE(*out) ? _PyBytes_Resize(out, (*len + n) * 2 + 16) : 0;
        if (r == 0) {
            memcpy(PyBytes_AS_STRING(*out) + *len, PyBytes_AS_STRING(repl), n);
            *len += n;
        }
        Py_DECREF(repl);
        return r < 0 ? -1 : newpos;
    }
    for (Py_ssize_t k = 0; k < PyUnicode_GET_LENGTH(repl); k++) {
        int r = charmap_encode_char(mapping, PyUnicode_READ_CHAR(repl, k), out, len);
        if (r <= 0) {
            if (r == 0) {
                _PyCodec_RaiseEncodeError("charmap", str, start, end, reason);
            }
            Py_DECREF(repl);
            return -1;
        }
    }
    Py_DECREF(repl);
    return newpos;
}

static PyObject *
charmap_encode_impl(PyObject *str, const char *errors, PyObject *mapping)
{
    Py_ssize_t size = PyUnicode_GET_LENGTH(str), len = 0;
    PyObject *out = PyBytes_FromStringAndSize(NULL, size + 16);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t i = 0;
    while (i < size) {
        int r = charmap_encode_char(mapping, PyUnicode_READ_CHAR(str, i), &out, &len);
        if (r < 0) {
            goto error;
        }
        if (r > 0) {
            i++;
            continue;
        }
        Py_ssize_t end = i + 1;
        for (; end < size; end++) {
            Py_ssize_t probe_len = len;
            r = charmap_encode_char(mapping, PyUnicode_READ_CHAR(str, end), &out, &probe_len);
            if (r < 0) {
                goto error;
            }
            if (r > 0) {
                break; /* encodable: written past len, overwritten below */
            }
        }
        i = charmap_encode_error(str, i, end, errors, mapping, &out, &len);
        if (i < 0) {
            goto error;
        }
    }
    if (_PyBytes_Resize(&out, len) < 0) {
        return NULL;
    }
    return out;
error:
    Py_DECREF(out);
    return NULL;
}

static PyObject *
codecs_charmap_encode(PyObject *module, PyObject *args)
{
    PyObject *str, *mapping = Py_None;
    const char *errors = NULL;
    if (!PyArg_ParseTuple(args, "O|zO:charmap_encode", &str, &errors, &mapping) ||
        check_str(str, "charmap_encode") < 0) {
        return NULL;
    }
    PyObject *res = mapping == Py_None ? _PyUnicode_AsLatin1String(str, errors)
                                       : charmap_encode_impl(str, errors, mapping);
    return coder_result(res, PyUnicode_GET_LENGTH(str));
}

/* ---- The module ---------------------------------------------------------------------- */

#define CODER(NAME, DOC) {#NAME, codecs_##NAME, METH_VARARGS, DOC}

static PyMethodDef codecs_functions[] = {
    {"register", codecs_register, METH_O, "Add a codec search function."},
    {"unregister", codecs_unregister, METH_O, "Remove a codec search function."},
    {"lookup", codecs_lookup, METH_O, "The CodecInfo registered for an encoding."},
    {"_forget_codec", codecs_forget_codec, METH_O, "Drop an encoding from the cache."},
    {"encode", (PyCFunction)(void (*)(void))codecs_encode, METH_VARARGS | METH_KEYWORDS,
     "encode(obj, encoding='utf-8', errors='strict') through the registry."},
    {"decode", (PyCFunction)(void (*)(void))codecs_decode, METH_VARARGS | METH_KEYWORDS,
     "decode(obj, encoding='utf-8', errors='strict') through the registry."},
    {"lookup_error", codecs_lookup_error, METH_O, "The error handler of that name."},
    {"register_error", codecs_register_error, METH_VARARGS, "Name an error handler."},
    {"_unregister_error", codecs_unregister_error, METH_VARARGS,
     "Forget a registered error handler; True if there was one."},
    CODER(utf_8_encode, "str -> (UTF-8 bytes, length)."),
    CODER(utf_8_decode, "UTF-8 bytes -> (str, bytes consumed)."),
    CODER(utf_16_encode, "str -> (UTF-16 bytes, length); byteorder 0 adds a BOM."),
    CODER(utf_16_le_encode, "str -> (UTF-16-LE bytes, length)."),
    CODER(utf_16_be_encode, "str -> (UTF-16-BE bytes, length)."),
    CODER(utf_16_decode, "UTF-16 bytes (BOM or native order) -> (str, consumed)."),
    CODER(utf_16_le_decode, "UTF-16-LE bytes -> (str, consumed)."),
    CODER(utf_16_be_decode, "UTF-16-BE bytes -> (str, consumed)."),
    CODER(utf_16_ex_decode, "UTF-16 bytes -> (str, consumed, byte order)."),
    CODER(utf_32_encode, "str -> (UTF-32 bytes, length); byteorder 0 adds a BOM."),
    CODER(utf_32_le_encode, "str -> (UTF-32-LE bytes, length)."),
    CODER(utf_32_be_encode, "str -> (UTF-32-BE bytes, length)."),
    CODER(utf_32_decode, "UTF-32 bytes (BOM or native order) -> (str, consumed)."),
    CODER(utf_32_le_decode, "UTF-32-LE bytes -> (str, consumed)."),
    CODER(utf_32_be_decode, "UTF-32-BE bytes -> (str, consumed)."),
    CODER(utf_32_ex_decode, "UTF-32 bytes -> (str, consumed, byte order)."),
    CODER(utf_7_encode, "str -> (UTF-7 bytes, length)."),
    CODER(utf_7_decode, "UTF-7 bytes -> (str, consumed)."),
    CODER(latin_1_encode, "str -> (Latin-1 bytes, length)."),
    CODER(latin_1_decode, "Latin-1 bytes -> (str, length)."),
    CODER(ascii_encode, "str -> (ASCII bytes, length)."),
    CODER(ascii_decode, "ASCII bytes -> (str, length)."),
    CODER(unicode_escape_encode, "str -> (bytes with Python escapes, length)."),
    CODER(unicode_escape_decode, "Bytes with Python escapes -> (str, consumed)."),
    CODER(raw_unicode_escape_encode, "str -> (Latin-1 bytes with \\u escapes, length)."),
    CODER(raw_unicode_escape_decode, "Latin-1 bytes with \\u escapes -> (str, consumed)."),
    CODER(escape_encode, "bytes -> (bytes with escapes, length)."),
    CODER(escape_decode, "Bytes with escapes -> (bytes, length)."),
    CODER(readbuffer_encode, "Any buffer -> (bytes, length)."),
    CODER(charmap_encode, "str -> (bytes, length) through an encoding map."),
    CODER(charmap_decode, "bytes -> (str, length) through a decoding table."),
    {"charmap_build", codecs_charmap_build, METH_O, "An encoding map from a decoding table."},
    {NULL, NULL, 0, NULL},
};

#undef CODER

static struct PyModuleDef codecs_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_codecs",
    .m_doc = "The codec registry and the built-in coders.",
    .m_size = -1,
    .m_methods = codecs_functions,
};

PyObject *
PyInit__codecs(void)
{
    return PyModule_Create(&codecs_module);
}
