/* Text streams: TextIOWrapper (str over a buffered binary stream) and
   IncrementalNewlineDecoder, plus the universal-newline helpers StringIO
   shares.

   Decoding: UTF-8, ASCII and Latin-1 are decoded here with the C codecs
   (the UTF-8 decoder keeps up to three bytes of an unfinished sequence);
   any other encoding uses the incremental codec objects that
   codecs.lookup() returns.  Either way the decoder state is a pair
   (pending bytes, flags) and, when newlines are universal, bit 0 of the
   flags is the newline layer's held-back \r.

   Positions (tell/seek): each chunk read from the buffer remembers the
   decoder flags before it and the bytes it was fed (the "snapshot").  tell()
   replays those bytes one at a time from the snapshot to find the last
   point where the decoder held no bytes; the cookie then says "seek to that
   byte, set these flags, feed this many bytes, skip this many characters".
   The cookie packs five fields of 64 bits each into one int. */

#include "_iomodule.h"
#include "pycore_codecs.h"
#include "structmember.h"

/* ---- Newline layer -------------------------------------------------------------------- */

PyObject *
_PyIO_NewlineFeed(_PyIO_NewlineState *st, PyObject *text, int final)
{
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "decoder should return a string result, not '%.200s'",
                     Py_TYPE(text)->tp_name);
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    PyObject *s = Py_NewRef(text);
    if (st->pendingcr && (n > 0 || final)) {
        PyObject *cr = PyUnicode_FromString("\r");
        if (cr == NULL) {
            Py_DECREF(s);
            return NULL;
        }
        PyUnicode_AppendAndDel(&cr, s);
        s = cr;
        if (s == NULL) {
            return NULL;
        }
        st->pendingcr = 0;
        n++;
    }
    if (!final && n > 0 && PyUnicode_READ_CHAR(s, n - 1) == '\r') {
        Py_SETREF(s, PyUnicode_Substring(s, 0, n - 1));
        if (s == NULL) {
            return NULL;
        }
        st->pendingcr = 1;
        n--;
    }
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    Py_ssize_t lone_cr = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c == '\n') {
            st->seennl |= IO_SEEN_LF;
        }
        else if (c == '\r') {
            if (i + 1 < n && PyUnicode_READ(kind, data, i + 1) == '\n') {
                st->seennl |= IO_SEEN_CRLF;
                i++;
            }
            else {
                st->seennl |= IO_SEEN_CR;
            }
            lone_cr++;
        }
    }
    if (!st->translate || lone_cr == 0) {
        return s;
    }
    /* Rewrite: \r\n and \r each become one \n. */
    PyObject *out = PyUnicode_New(n, PyUnicode_MAX_CHAR_VALUE(s));
    if (out == NULL) {
        Py_DECREF(s);
        return NULL;
    }
    int okind = PyUnicode_KIND(out);
    void *odata = PyUnicode_DATA(out);
    Py_ssize_t j = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c == '\r') {
            c = '\n';
            if (i + 1 < n && PyUnicode_READ(kind, data, i + 1) == '\n') {
                i++;
            }
        }
        PyUnicode_WRITE(okind, odata, j++, c);
    }
    Py_DECREF(s);
    PyObject *r = PyUnicode_Substring(out, 0, j);
    Py_DECREF(out);
    return r;
}

PyObject *
_PyIO_NewlinesValue(int seennl)
{
    static const char *const names[] = {"\r", "\n", "\r\n"};
    static const int bits[] = {IO_SEEN_CR, IO_SEEN_LF, IO_SEEN_CRLF};
    PyObject *items[3];
    Py_ssize_t n = 0;
    for (int i = 0; i < 3; i++) {
        if (seennl & bits[i]) {
            items[n] = PyUnicode_FromString(names[i]);
            if (items[n] == NULL) {
                while (n > 0) {
                    Py_DECREF(items[--n]);
                }
                return NULL;
            }
            n++;
        }
    }
    if (n == 0) {
        Py_RETURN_NONE;
    }
    if (n == 1) {
        return items[0];
    }
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (t == NULL) {
            Py_DECREF(items[i]);
        }
        else {
            PyTuple_SET_ITEM(t, i, items[i]);
        }
    }
    return t;
}

Py_ssize_t
_PyIO_FindLineEnd(PyObject *text, Py_ssize_t start, int universal, PyObject *readnl, int at_eof)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (!universal) {
        if (readnl == NULL) {
            Py_ssize_t i = start < n ? PyUnicode_FindChar(text, '\n', start, n, 1) : -1;
            return i < 0 ? -1 : i + 1;
        }
        Py_ssize_t i = start < n ? PyUnicode_Find(text, readnl, start, n, 1) : -1;
        return i < 0 ? -1 : i + PyUnicode_GET_LENGTH(readnl);
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    for (Py_ssize_t i = start; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c == '\n') {
            return i + 1;
        }
        if (c == '\r') {
            if (i + 1 < n) {
                return PyUnicode_READ(kind, data, i + 1) == '\n' ? i + 2 : i + 1;
            }
            /* A \r at the end may be half of a \r\n still to come. */
            return at_eof ? i + 1 : -1;
        }
    }
    return -1;
}

int
_PyIO_CheckNewline(PyObject *newline, const char *what)
{
    if (newline == NULL || Py_IsNone(newline)) {
        return 0;
    }
    static const char *const ok[] = {"", "\n", "\r", "\r\n"};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(ok); i++) {
        if (PyUnicode_EqualToUTF8(newline, ok[i])) {
            return 0;
        }
    }
    if (strcmp(what, "StringIO") == 0) {
        PyErr_Format(PyExc_ValueError, "illegal newline value: %R", newline);
    }
    else {
        PyErr_Format(PyExc_ValueError, "illegal newline value: %U", newline);
    }
    return -1;
}

/* ---- IncrementalNewlineDecoder ------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *decoder; /* None: the input is already str */
    PyObject *errors;
    _PyIO_NewlineState nl;
} nldecoder;

#define NLD(op) ((nldecoder *)(op))

static int
nldecoder_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"decoder", "translate", "errors", NULL};
    PyObject *decoder, *errors = NULL;
    int translate;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Op|O:IncrementalNewlineDecoder", kwlist, &decoder,
                                     &translate, &errors)) {
        return -1;
    }
    Py_XSETREF(NLD(self)->decoder, Py_NewRef(decoder));
    Py_XSETREF(NLD(self)->errors, errors ? Py_NewRef(errors) : PyUnicode_FromString("strict"));
    NLD(self)->nl.translate = translate;
    NLD(self)->nl.pendingcr = NLD(self)->nl.seennl = 0;
    return NLD(self)->errors ? 0 : -1;
}

static int
nldecoder_ready(nldecoder *d)
{
    if (d->decoder == NULL) {
        PyErr_SetString(PyExc_ValueError, "IncrementalNewlineDecoder.__init__() not called");
        return -1;
    }
    return 0;
}

static void
nldecoder_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(NLD(self)->decoder);
    Py_CLEAR(NLD(self)->errors);
    Py_TYPE(self)->tp_free(self);
}

static int
nldecoder_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(NLD(self)->decoder);
    Py_VISIT(NLD(self)->errors);
    return 0;
}

static int
nldecoder_clear(PyObject *self)
{
    Py_CLEAR(NLD(self)->decoder);
    Py_CLEAR(NLD(self)->errors);
    return 0;
}

static PyObject *
nldecoder_decode(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"input", "final", NULL};
    nldecoder *d = NLD(self);
    PyObject *input;
    int final = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|p:decode", kwlist, &input, &final) || nldecoder_ready(d) < 0) {
        return NULL;
    }
    PyObject *out = Py_IsNone(d->decoder) ? Py_NewRef(input)
                                           : PyObject_CallMethod(d->decoder, "decode", "Oi", input, final);
    if (out == NULL) {
        return NULL;
    }
    PyObject *r = _PyIO_NewlineFeed(&d->nl, out, final);
    Py_DECREF(out);
    return r;
}

static PyObject *
nldecoder_getstate(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    nldecoder *d = NLD(self);
    if (nldecoder_ready(d) < 0) {
        return NULL;
    }
    PyObject *buf, *flags;
    if (Py_IsNone(d->decoder)) {
        buf = PyBytes_FromStringAndSize(NULL, 0);
        flags = PyLong_FromLong(0);
    }
    else {
        PyObject *st = PyObject_CallMethod(d->decoder, "getstate", NULL);
        if (st == NULL) {
            return NULL;
        }
        if (!PyTuple_Check(st) || PyTuple_GET_SIZE(st) != 2) {
            Py_DECREF(st);
            PyErr_SetString(PyExc_TypeError, "illegal decoder state");
            return NULL;
        }
        buf = Py_NewRef(PyTuple_GET_ITEM(st, 0));
        flags = Py_NewRef(PyTuple_GET_ITEM(st, 1));
        Py_DECREF(st);
    }
    PyObject *one = PyLong_FromLong(1);
    PyObject *shifted = flags && one ? PyNumber_Lshift(flags, one) : NULL;
    PyObject *bit = PyLong_FromLong(d->nl.pendingcr);
    PyObject *all = shifted && bit ? PyNumber_Or(shifted, bit) : NULL;
    Py_XDECREF(one);
    Py_XDECREF(shifted);
    Py_XDECREF(bit);
    Py_XDECREF(flags);
    if (all == NULL || buf == NULL) {
        Py_XDECREF(all);
        Py_XDECREF(buf);
        return NULL;
    }
    return Py_BuildValue("(NN)", buf, all);
}

static PyObject *
nldecoder_setstate(PyObject *self, PyObject *state)
{
    nldecoder *d = NLD(self);
    PyObject *buf, *flags;
    if (nldecoder_ready(d) < 0 || !PyArg_ParseTuple(state, "OO:setstate", &buf, &flags)) {
        return NULL;
    }
    long long f = PyLong_AsLongLong(flags);
    if (f == -1 && PyErr_Occurred()) {
        return NULL;
    }
    d->nl.pendingcr = (int)(f & 1);
    if (Py_IsNone(d->decoder)) {
        Py_RETURN_NONE;
    }
    return PyObject_CallMethod(d->decoder, "setstate", "((OL))", buf, f >> 1);
}

static PyObject *
nldecoder_reset(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    nldecoder *d = NLD(self);
    if (nldecoder_ready(d) < 0) {
        return NULL;
    }
    d->nl.seennl = 0;
    d->nl.pendingcr = 0;
    if (Py_IsNone(d->decoder)) {
        Py_RETURN_NONE;
    }
    return PyObject_CallMethod(d->decoder, "reset", NULL);
}

static PyObject *
nldecoder_newlines_get(PyObject *self, void *closure)
{
    if (nldecoder_ready(NLD(self)) < 0) {
        return NULL;
    }
    return _PyIO_NewlinesValue(NLD(self)->nl.seennl);
}

static PyMethodDef nldecoder_methods[] = {
    {"decode", (PyCFunction)(void (*)(void))nldecoder_decode, METH_VARARGS | METH_KEYWORDS,
     "Decode input and apply the newline rules."},
    {"getstate", nldecoder_getstate, METH_NOARGS, "(pending bytes, flags)."},
    {"setstate", nldecoder_setstate, METH_O, "Restore a getstate() value."},
    {"reset", nldecoder_reset, METH_NOARGS, "Forget all state."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef nldecoder_getset[] = {
    {"newlines", nldecoder_newlines_get, NULL, "The line endings seen so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PyIO_NewlineDecoder_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_io.IncrementalNewlineDecoder",
    .tp_basicsize = sizeof(nldecoder),
    .tp_dealloc = nldecoder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "IncrementalNewlineDecoder(decoder, translate, errors='strict')\n\n"
              "Wrap a decoder to handle universal newlines.",
    .tp_traverse = nldecoder_traverse,
    .tp_clear = nldecoder_clear,
    .tp_methods = nldecoder_methods,
    .tp_getset = nldecoder_getset,
    .tp_init = nldecoder_init,
    .tp_new = PyType_GenericNew,
};

/* ---- TextIOWrapper: state ------------------------------------------------------------ */

enum { CODEC_UTF8, CODEC_ASCII, CODEC_LATIN1, CODEC_OTHER };

typedef struct {
    IO_HEAD
    char ok;
    char detached;
    char readable;
    char writable;
    char seekable;
    char telling;
    char has_read1;
    char line_buffering;
    char write_through;
    char universal;      /* newline None or '' */
    char writetranslate; /* replace \n with writenl on write */
    PyObject *buffer;
    PyObject *encoding;
    PyObject *errors;
    PyObject *readnl;  /* the line ending searched for (NULL: \n) */
    PyObject *writenl; /* NULL: write \n as is */
    int codec;
    PyObject *pydecoder;
    PyObject *pyencoder;
    unsigned char u8pend[4];
    int nu8pend;
    _PyIO_NewlineState nl;
    PyObject *decoded; /* the current chunk's text */
    Py_ssize_t used;   /* characters of it already returned */
    PyObject *snap_input; /* bytes fed for the current chunk (NULL: none) */
    long long snap_flags;
    Py_ssize_t chunk_size;
} textio;

#define TIO(op) ((textio *)(op))

static int
check_attached(textio *t)
{
    if (t->ok) {
        return 0;
    }
    PyErr_SetString(PyExc_ValueError,
                    t->detached ? "underlying buffer has been detached" : "I/O operation on uninitialized object");
    return -1;
}

static int
check_open(textio *t)
{
    if (check_attached(t) < 0) {
        return -1;
    }
    return _PyIO_CheckClosed(t->buffer);
}

#define CHECK_OPEN(t)        \
    if (check_open(t) < 0) { \
        return NULL;         \
    }

static const char *
errors_str(textio *t)
{
    return PyUnicode_AsUTF8(t->errors);
}

static void
set_decoded(textio *t, PyObject *text)
{
    Py_XSETREF(t->decoded, text);
    t->used = 0;
}

static Py_ssize_t
decoded_avail(textio *t)
{
    return t->decoded ? PyUnicode_GET_LENGTH(t->decoded) - t->used : 0;
}

/* Take up to n (n < 0: all) decoded characters. */
static PyObject *
take_decoded(textio *t, Py_ssize_t n)
{
    Py_ssize_t avail = decoded_avail(t);
    if (n < 0 || n > avail) {
        n = avail;
    }
    if (t->decoded == NULL) {
        return PyUnicode_FromString("");
    }
    PyObject *r = PyUnicode_Substring(t->decoded, t->used, t->used + n);
    if (r != NULL) {
        t->used += n;
    }
    return r;
}

static void
forget_read_ahead(textio *t)
{
    Py_CLEAR(t->decoded);
    t->used = 0;
    Py_CLEAR(t->snap_input);
}

/* ---- TextIOWrapper: the decoder --------------------------------------------------------- */

static PyObject *
decode_utf8(textio *t, const char *p, Py_ssize_t n, int final)
{
    char *joined = NULL;
    if (t->nu8pend > 0) {
        joined = PyMem_Malloc((size_t)(n + t->nu8pend));
        if (joined == NULL) {
            return PyErr_NoMemory();
        }
        memcpy(joined, t->u8pend, (size_t)t->nu8pend);
        memcpy(joined + t->nu8pend, p, (size_t)n);
        p = joined;
        n += t->nu8pend;
    }
    Py_ssize_t consumed = n;
    PyObject *s = PyUnicode_DecodeUTF8Stateful(p, n, errors_str(t), final ? NULL : &consumed);
    if (s != NULL) {
        Py_ssize_t left = n - consumed;
        if (left > 4) {
            left = 4;
        }
        memcpy(t->u8pend, p + consumed, (size_t)left);
        t->nu8pend = (int)left;
    }
    PyMem_Free(joined);
    return s;
}

/* Bytes -> str with the codec alone (no newline handling). */
static PyObject *
decode_raw(textio *t, PyObject *bytes, int final)
{
    const char *p = PyBytes_AS_STRING(bytes);
    Py_ssize_t n = PyBytes_GET_SIZE(bytes);
    switch (t->codec) {
    case CODEC_UTF8:
        return decode_utf8(t, p, n, final);
    case CODEC_ASCII:
        return PyUnicode_DecodeASCII(p, n, errors_str(t));
    case CODEC_LATIN1:
        return PyUnicode_DecodeLatin1(p, n, errors_str(t));
    default: {
        PyObject *s = PyObject_CallMethod(t->pydecoder, "decode", "Oi", bytes, final);
        if (s != NULL && !PyUnicode_Check(s)) {
            PyErr_Format(PyExc_TypeError, "decoder should return a string result, not '%.200s'",
                         Py_TYPE(s)->tp_name);
            Py_CLEAR(s);
        }
        return s;
    }
    }
}

static PyObject *
decode_bytes(textio *t, PyObject *bytes, int final)
{
    PyObject *s = decode_raw(t, bytes, final);
    if (s == NULL || !t->universal) {
        return s;
    }
    PyObject *r = _PyIO_NewlineFeed(&t->nl, s, final);
    Py_DECREF(s);
    return r;
}

static int
dec_getstate(textio *t, PyObject **buf, long long *flags)
{
    *flags = 0;
    if (t->codec == CODEC_OTHER) {
        PyObject *st = PyObject_CallMethod(t->pydecoder, "getstate", NULL);
        if (st == NULL) {
            return -1;
        }
        PyObject *b;
        if (!PyArg_ParseTuple(st, "OL", &b, flags) || !PyBytes_Check(b)) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "illegal decoder state");
            }
            Py_DECREF(st);
            return -1;
        }
        *buf = Py_NewRef(b);
        Py_DECREF(st);
    }
    else {
        *buf = PyBytes_FromStringAndSize((const char *)t->u8pend, t->codec == CODEC_UTF8 ? t->nu8pend : 0);
        if (*buf == NULL) {
            return -1;
        }
    }
    if (t->universal) {
        *flags = (*flags << 1) | t->nl.pendingcr;
    }
    return 0;
}

static int
dec_setstate(textio *t, PyObject *buf, long long flags)
{
    if (t->universal) {
        t->nl.pendingcr = (int)(flags & 1);
        flags >>= 1;
    }
    if (t->codec == CODEC_OTHER) {
        PyObject *r = PyObject_CallMethod(t->pydecoder, "setstate", "((OL))", buf, flags);
        Py_XDECREF(r);
        return r ? 0 : -1;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(buf);
    t->nu8pend = (int)(n > 4 ? 4 : n);
    memcpy(t->u8pend, PyBytes_AS_STRING(buf), (size_t)t->nu8pend);
    return 0;
}

static int
dec_reset(textio *t)
{
    t->nu8pend = 0;
    t->nl.pendingcr = 0;
    t->nl.seennl = 0;
    if (t->codec == CODEC_OTHER && t->pydecoder != NULL) {
        PyObject *r = PyObject_CallMethod(t->pydecoder, "reset", NULL);
        Py_XDECREF(r);
        return r ? 0 : -1;
    }
    return 0;
}

/* ---- TextIOWrapper: set-up ------------------------------------------------------------ */

/* Resolve the codec: fast C paths or incremental objects from codecs. */
static int
setup_codec(textio *t)
{
    Py_CLEAR(t->pydecoder);
    Py_CLEAR(t->pyencoder);
    t->nu8pend = 0;
    const char *enc = PyUnicode_AsUTF8(t->encoding);
    if (enc == NULL) {
        return -1;
    }
    switch (_PyCodec_LookupBuiltin(enc)) {
    case _Py_ENC_UTF8:
        t->codec = CODEC_UTF8;
        return 0;
    case _Py_ENC_ASCII:
        t->codec = CODEC_ASCII;
        return 0;
    case _Py_ENC_LATIN1:
        t->codec = CODEC_LATIN1;
        return 0;
    default:
        break;
    }
    t->codec = CODEC_OTHER;
    PyObject *codecs = PyImport_ImportModule("codecs");
    if (codecs == NULL) {
        PyErr_Clear();
        PyErr_Format(PyExc_LookupError, "unknown encoding: %s (the codecs module is not available)", enc);
        return -1;
    }
    PyObject *info = PyObject_CallMethod(codecs, "lookup", "O", t->encoding);
    Py_DECREF(codecs);
    if (info == NULL) {
        return -1;
    }
    PyObject *is_text = NULL;
    if (PyObject_GetOptionalAttrString(info, "_is_text_encoding", &is_text) < 0) {
        goto error;
    }
    if (is_text != NULL && PyObject_Not(is_text) == 1) {
        Py_DECREF(is_text);
        PyErr_Format(PyExc_LookupError, "'%s' is not a text encoding; use codecs.open() to handle arbitrary codecs",
                     enc);
        goto error;
    }
    Py_XDECREF(is_text);
    if (t->readable) {
        t->pydecoder = PyObject_CallMethod(info, "incrementaldecoder", "O", t->errors);
        if (t->pydecoder == NULL) {
            goto error;
        }
    }
    if (t->writable) {
        t->pyencoder = PyObject_CallMethod(info, "incrementalencoder", "O", t->errors);
        if (t->pyencoder == NULL) {
            goto error;
        }
    }
    Py_DECREF(info);
    return 0;
error:
    Py_DECREF(info);
    return -1;
}

static void
setup_newline(textio *t, PyObject *newline)
{
    int is_none = newline == NULL || Py_IsNone(newline);
    Py_CLEAR(t->readnl);
    Py_CLEAR(t->writenl);
    t->universal = is_none || PyUnicode_GET_LENGTH(newline) == 0;
    t->nl.translate = is_none;
    t->nl.pendingcr = 0;
    t->writetranslate = is_none || PyUnicode_GET_LENGTH(newline) > 0;
    if (!is_none && PyUnicode_GET_LENGTH(newline) > 0) {
        t->readnl = Py_NewRef(newline);
        if (!PyUnicode_EqualToUTF8(newline, "\n")) {
            t->writenl = Py_NewRef(newline);
        }
    }
}

static int
str_or_none(PyObject *v, const char *arg, const char *fname)
{
    if (v == NULL || Py_IsNone(v) || PyUnicode_Check(v)) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be str or None, not %.200s", fname, arg,
                 Py_TYPE(v)->tp_name);
    return -1;
}

static int
call_bool(PyObject *obj, const char *method)
{
    PyObject *r = PyObject_CallMethod(obj, method, NULL);
    if (r == NULL) {
        return -1;
    }
    int v = PyObject_IsTrue(r);
    Py_DECREF(r);
    return v;
}

/* A BOM-writing encoder must not write one when appending mid-file. */
static int
fix_encoder_start(textio *t)
{
    if (t->pyencoder == NULL || !t->seekable) {
        return 0;
    }
    PyObject *pos = PyObject_CallMethod(t->buffer, "tell", NULL);
    if (pos == NULL) {
        return -1;
    }
    int at_start = PyObject_Not(pos);
    Py_DECREF(pos);
    if (at_start == 0) {
        PyObject *r = PyObject_CallMethod(t->pyencoder, "setstate", "i", 0);
        Py_XDECREF(r);
        return r ? 0 : -1;
    }
    return at_start < 0 ? -1 : 0;
}

static int
textio_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"buffer", "encoding", "errors", "newline", "line_buffering", "write_through", NULL};
    textio *t = TIO(self);
    PyObject *buffer, *encoding = NULL, *errors = NULL, *newline = NULL;
    int line_buffering = 0, write_through = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOOpp:TextIOWrapper", kwlist, &buffer, &encoding, &errors,
                                     &newline, &line_buffering, &write_through)) {
        return -1;
    }
    t->ok = 0;
    if (str_or_none(encoding, "encoding", "TextIOWrapper") < 0 || str_or_none(errors, "errors", "TextIOWrapper") < 0 ||
        str_or_none(newline, "newline", "TextIOWrapper") < 0 || _PyIO_CheckNewline(newline, "TextIOWrapper") < 0) {
        return -1;
    }
    if (encoding == NULL || Py_IsNone(encoding) || PyUnicode_EqualToUTF8(encoding, "locale")) {
        Py_XSETREF(t->encoding, _PyIO_LocaleEncoding());
    }
    else {
        Py_XSETREF(t->encoding, Py_NewRef(encoding));
    }
    Py_XSETREF(t->errors, errors && !Py_IsNone(errors) ? Py_NewRef(errors) : PyUnicode_FromString("strict"));
    if (t->encoding == NULL || t->errors == NULL) {
        return -1;
    }
    Py_XSETREF(t->buffer, Py_NewRef(buffer));
    forget_read_ahead(t);
    int r = call_bool(buffer, "readable"), w = r < 0 ? -1 : call_bool(buffer, "writable");
    int s = w < 0 ? -1 : call_bool(buffer, "seekable");
    if (s < 0) {
        return -1;
    }
    t->readable = (char)r;
    t->writable = (char)w;
    t->seekable = t->telling = (char)s;
    t->has_read1 = (char)PyObject_HasAttrString(buffer, "read1");
    t->line_buffering = (char)line_buffering;
    t->write_through = (char)write_through;
    t->chunk_size = 8192;
    t->nl.seennl = 0;
    setup_newline(t, newline);
    if (setup_codec(t) < 0 || fix_encoder_start(t) < 0) {
        return -1;
    }
    t->detached = 0;
    t->ok = 1;
    return 0;
}

static void
textio_dealloc(PyObject *self)
{
    textio *t = TIO(self);
    if (PyObject_CallFinalizerFromDealloc(self) < 0) {
        return;
    }
    PyObject_GC_UnTrack(self);
    t->ok = 0;
    _PyIO_ClearHead(self);
    Py_CLEAR(t->buffer);
    Py_CLEAR(t->encoding);
    Py_CLEAR(t->errors);
    Py_CLEAR(t->readnl);
    Py_CLEAR(t->writenl);
    Py_CLEAR(t->pydecoder);
    Py_CLEAR(t->pyencoder);
    Py_CLEAR(t->decoded);
    Py_CLEAR(t->snap_input);
    Py_TYPE(self)->tp_free(self);
}

static int
textio_traverse(PyObject *self, visitproc visit, void *arg)
{
    textio *t = TIO(self);
    Py_VISIT(t->buffer);
    Py_VISIT(t->pydecoder);
    Py_VISIT(t->pyencoder);
    return _PyIO_TraverseHead(self, visit, arg);
}

static int
textio_clear(PyObject *self)
{
    textio *t = TIO(self);
    t->ok = 0;
    Py_CLEAR(t->buffer);
    Py_CLEAR(t->pydecoder);
    Py_CLEAR(t->pyencoder);
    Py_CLEAR(IO_OBJ(self)->dict);
    return 0;
}

/* ---- TextIOWrapper: reading ----------------------------------------------------------- */

/* Read and decode one chunk into t->decoded.  1: got bytes, 0: EOF. */
static int
read_chunk(textio *t)
{
    PyObject *state_buf = NULL;
    long long state_flags = 0;
    if (t->telling && dec_getstate(t, &state_buf, &state_flags) < 0) {
        return -1;
    }
    const char *meth = t->has_read1 ? "read1" : "read";
    PyObject *input = PyObject_CallMethod(t->buffer, meth, "n", t->chunk_size);
    if (input != NULL && !PyBytes_Check(input)) {
        if (PyObject_CheckBuffer(input)) {
            Py_SETREF(input, PyBytes_FromObject(input));
        }
        else {
            PyErr_Format(PyExc_TypeError, "underlying %s() should have returned a bytes-like object, not '%.200s'",
                         meth, Py_TYPE(input)->tp_name);
            Py_CLEAR(input);
        }
    }
    if (input == NULL) {
        Py_XDECREF(state_buf);
        return -1;
    }
    int eof = PyBytes_GET_SIZE(input) == 0;
    PyObject *text = decode_bytes(t, input, eof);
    if (text == NULL) {
        Py_DECREF(input);
        Py_XDECREF(state_buf);
        return -1;
    }
    set_decoded(t, text);
    if (t->telling) {
        PyBytes_ConcatAndDel(&state_buf, input);
        Py_XSETREF(t->snap_input, state_buf);
        t->snap_flags = state_flags;
        if (state_buf == NULL) {
            return -1;
        }
    }
    else {
        Py_DECREF(input);
    }
    return !eof;
}

static int
check_readable(textio *t)
{
    if (!t->readable) {
        _PyIO_Unsupported("not readable");
        return -1;
    }
    return 0;
}

static PyObject *
read_everything(textio *t)
{
    PyObject *bytes = PyObject_CallMethod(t->buffer, "read", NULL);
    if (bytes == NULL) {
        return NULL;
    }
    if (!PyBytes_Check(bytes)) {
        PyErr_Format(PyExc_TypeError, "underlying read() should have returned a bytes object, not '%.200s'",
                     Py_TYPE(bytes)->tp_name);
        Py_DECREF(bytes);
        return NULL;
    }
    PyObject *text = decode_bytes(t, bytes, 1);
    Py_DECREF(bytes);
    if (text == NULL) {
        return NULL;
    }
    PyObject *head = take_decoded(t, -1);
    forget_read_ahead(t);
    if (head == NULL) {
        Py_DECREF(text);
        return NULL;
    }
    PyUnicode_AppendAndDel(&head, text);
    return head;
}

static PyObject *
textio_read(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    textio *t = TIO(self);
    Py_ssize_t n = -1;
    if (!_PyArg_CheckPositional("read", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &n) < 0) {
        return NULL;
    }
    CHECK_OPEN(t);
    if (check_readable(t) < 0) {
        return NULL;
    }
    if (n < 0) {
        return read_everything(t);
    }
    PyObject *res = take_decoded(t, n);
    while (res != NULL && PyUnicode_GET_LENGTH(res) < n) {
        int r = read_chunk(t);
        if (r < 0) {
            Py_CLEAR(res);
            break;
        }
        PyUnicode_AppendAndDel(&res, take_decoded(t, n - PyUnicode_GET_LENGTH(res)));
        if (r == 0) {
            break;
        }
    }
    return res;
}

static PyObject *
read_line(textio *t, Py_ssize_t limit)
{
    int universal = t->universal && !t->nl.translate;
    if (decoded_avail(t) > 0) {
        /* Fast path: the whole line is in the current chunk. */
        Py_ssize_t end = _PyIO_FindLineEnd(t->decoded, t->used, universal, t->readnl, 0);
        if (end >= 0 && (limit < 0 || end - t->used <= limit)) {
            PyObject *line = PyUnicode_Substring(t->decoded, t->used, end);
            if (line != NULL) {
                t->used = end;
            }
            return line;
        }
    }
    PyObject *line = take_decoded(t, -1);
    Py_ssize_t search = 0, end;
    int eof = 0;
    for (;;) {
        if (line == NULL) {
            return NULL;
        }
        end = _PyIO_FindLineEnd(line, search, universal, t->readnl, eof);
        Py_ssize_t len = PyUnicode_GET_LENGTH(line);
        if (end >= 0) {
            break;
        }
        if (limit >= 0 && len >= limit) {
            end = limit;
            break;
        }
        if (eof) {
            end = len;
            break;
        }
        search = len > 0 ? len - 1 : 0;
        int r = read_chunk(t);
        if (r < 0) {
            Py_DECREF(line);
            return NULL;
        }
        eof = r == 0;
        PyUnicode_AppendAndDel(&line, take_decoded(t, -1));
    }
    if (limit >= 0 && end > limit) {
        end = limit;
    }
    /* The unused tail of the line is the tail of the current chunk. */
    Py_ssize_t rest = PyUnicode_GET_LENGTH(line) - end;
    if (rest > 0) {
        t->used -= rest;
        Py_SETREF(line, PyUnicode_Substring(line, 0, end));
    }
    return line;
}

static PyObject *
textio_readline(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    textio *t = TIO(self);
    Py_ssize_t limit = -1;
    if (!_PyArg_CheckPositional("readline", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &limit) < 0) {
        return NULL;
    }
    CHECK_OPEN(t);
    if (check_readable(t) < 0) {
        return NULL;
    }
    return read_line(t, limit);
}

static PyObject *
textio_iternext(PyObject *self)
{
    textio *t = TIO(self);
    t->telling = 0;
    PyObject *line;
    if (Py_IS_TYPE(self, &_PyIO_TextIOWrapper_Type)) {
        if (check_open(t) < 0 || check_readable(t) < 0) {
            return NULL;
        }
        line = read_line(t, -1);
    }
    else {
        line = PyObject_CallMethod(self, "readline", NULL);
        if (line != NULL && !PyUnicode_Check(line)) {
            PyErr_Format(PyExc_OSError, "readline() should have returned a str object, not '%.200s'",
                         Py_TYPE(line)->tp_name);
            Py_CLEAR(line);
        }
    }
    if (line != NULL && PyUnicode_GET_LENGTH(line) == 0) {
        Py_CLEAR(line);
        Py_CLEAR(t->snap_input);
        t->telling = t->seekable;
    }
    return line;
}

/* ---- TextIOWrapper: writing ----------------------------------------------------------- */

static PyObject *
encode_text(textio *t, PyObject *text)
{
    switch (t->codec) {
    case CODEC_UTF8:
        return _PyUnicode_AsUTF8String(text, errors_str(t));
    case CODEC_ASCII:
        return _PyUnicode_AsASCIIString(text, errors_str(t));
    case CODEC_LATIN1:
        return _PyUnicode_AsLatin1String(text, errors_str(t));
    default: {
        PyObject *b = PyObject_CallMethod(t->pyencoder, "encode", "O", text);
        if (b != NULL && !PyBytes_Check(b)) {
            PyErr_Format(PyExc_TypeError, "encoder should return a bytes object, not '%.200s'", Py_TYPE(b)->tp_name);
            Py_CLEAR(b);
        }
        return b;
    }
    }
}

static PyObject *
textio_write(PyObject *self, PyObject *text)
{
    textio *t = TIO(self);
    CHECK_OPEN(t);
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "write() argument must be str, not %.200s", Py_TYPE(text)->tp_name);
        return NULL;
    }
    if (!t->writable) {
        return _PyIO_Unsupported("not writable");
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int has_lf = PyUnicode_FindChar(text, '\n', 0, n, 1) >= 0;
    int needflush = t->line_buffering && (has_lf || PyUnicode_FindChar(text, '\r', 0, n, 1) >= 0);
    PyObject *out = Py_NewRef(text);
    if (has_lf && t->writetranslate && t->writenl != NULL) {
        PyObject *lf = PyUnicode_FromString("\n");
        Py_SETREF(out, lf ? PyUnicode_Replace(out, lf, t->writenl, -1) : NULL);
        Py_XDECREF(lf);
        if (out == NULL) {
            return NULL;
        }
    }
    PyObject *bytes = encode_text(t, out);
    Py_DECREF(out);
    if (bytes == NULL) {
        return NULL;
    }
    if (t->decoded != NULL || t->snap_input != NULL) {
        forget_read_ahead(t);
        if (dec_reset(t) < 0) {
            Py_DECREF(bytes);
            return NULL;
        }
    }
    PyObject *r = PyObject_CallMethod(t->buffer, "write", "O", bytes);
    Py_DECREF(bytes);
    if (r == NULL) {
        return NULL;
    }
    Py_DECREF(r);
    if (needflush) {
        r = PyObject_CallMethod(t->buffer, "flush", NULL);
        if (r == NULL) {
            return NULL;
        }
        Py_DECREF(r);
    }
    return PyLong_FromSsize_t(n);
}

static PyObject *
textio_flush(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    textio *t = TIO(self);
    CHECK_OPEN(t);
    t->telling = t->seekable;
    return PyObject_CallMethod(t->buffer, "flush", NULL);
}

static int
flush_self(PyObject *self)
{
    PyObject *r = PyObject_CallMethod(self, "flush", NULL);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* ---- TextIOWrapper: positions --------------------------------------------------------- */

enum { CK_POS, CK_SKIP, CK_FEED, CK_FLAGS, CK_EOF, CK_FIELDS };

static PyObject *
pack_cookie(const unsigned long long fields[CK_FIELDS])
{
    PyObject *r = PyLong_FromLong(0);
    PyObject *shift = PyLong_FromLong(64);
    for (int i = CK_FIELDS - 1; i >= 0 && r != NULL && shift != NULL; i--) {
        PyObject *f = PyLong_FromUnsignedLongLong(fields[i]);
        PyObject *moved = f ? PyNumber_Lshift(r, shift) : NULL;
        Py_SETREF(r, moved ? PyNumber_Or(moved, f) : NULL);
        Py_XDECREF(moved);
        Py_XDECREF(f);
    }
    Py_XDECREF(shift);
    return r;
}

static int
unpack_cookie(PyObject *cookie, unsigned long long fields[CK_FIELDS])
{
    PyObject *shift = PyLong_FromLong(64);
    PyObject *v = Py_NewRef(cookie);
    for (int i = 0; i < CK_FIELDS && v != NULL && shift != NULL; i++) {
        fields[i] = PyLong_AsUnsignedLongLongMask(v);
        Py_SETREF(v, PyNumber_Rshift(v, shift));
    }
    Py_XDECREF(shift);
    if (v == NULL || PyErr_Occurred()) {
        Py_XDECREF(v);
        return -1;
    }
    Py_DECREF(v);
    return 0;
}

/* The decoder as it is before a tell() replay, so it can be put back. */
typedef struct {
    PyObject *buf;
    long long flags;
    _PyIO_NewlineState nl;
} saved_decoder;

/* Replay snap_input from the snapshot until `skip` characters come out;
   fills the cookie fields relative to the snapshot start. */
static int
replay_for_tell(textio *t, Py_ssize_t skip, unsigned long long fields[CK_FIELDS])
{
    PyObject *empty = PyBytes_FromStringAndSize(NULL, 0);
    if (empty == NULL || dec_setstate(t, empty, t->snap_flags) < 0) {
        Py_XDECREF(empty);
        return -1;
    }
    /* Our own reference: a Python decoder may re-enter the wrapper. */
    PyObject *input = Py_NewRef(t->snap_input);
    const char *in = PyBytes_AS_STRING(input);
    Py_ssize_t n = PyBytes_GET_SIZE(input), i = 0, chars = 0;
    Py_ssize_t safe_i = 0, safe_chars = 0;
    long long safe_flags = t->snap_flags;
    int found = skip == 0;
    while (!found && i < n) {
        PyObject *one = PyBytes_FromStringAndSize(in + i, 1);
        PyObject *out = one ? decode_bytes(t, one, 0) : NULL;
        Py_XDECREF(one);
        if (out == NULL) {
            goto error;
        }
        chars += PyUnicode_GET_LENGTH(out);
        Py_DECREF(out);
        i++;
        PyObject *pend;
        long long flags;
        if (dec_getstate(t, &pend, &flags) < 0) {
            goto error;
        }
        if (PyBytes_GET_SIZE(pend) == 0 && chars <= skip) {
            safe_i = i;
            safe_chars = chars;
            safe_flags = flags;
        }
        Py_DECREF(pend);
        found = chars >= skip;
    }
    if (!found) {
        PyObject *out = decode_bytes(t, empty, 1);
        if (out == NULL) {
            goto error;
        }
        chars += PyUnicode_GET_LENGTH(out);
        Py_DECREF(out);
        if (chars < skip) {
            PyErr_SetString(PyExc_OSError, "can't reconstruct logical file position");
            goto error;
        }
        fields[CK_EOF] = 1;
    }
    fields[CK_POS] += (unsigned long long)safe_i;
    fields[CK_FLAGS] = (unsigned long long)safe_flags;
    fields[CK_FEED] = (unsigned long long)(i - safe_i);
    fields[CK_SKIP] = (unsigned long long)(skip - safe_chars);
    Py_DECREF(input);
    Py_DECREF(empty);
    return 0;
error:
    Py_DECREF(input);
    Py_DECREF(empty);
    return -1;
}

static PyObject *
textio_tell(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    textio *t = TIO(self);
    CHECK_OPEN(t);
    if (!t->seekable) {
        return _PyIO_Unsupported("underlying stream is not seekable");
    }
    if (!t->telling) {
        PyErr_SetString(PyExc_OSError, "telling position disabled by next() call");
        return NULL;
    }
    if (flush_self(self) < 0) {
        return NULL;
    }
    PyObject *posobj = PyObject_CallMethod(t->buffer, "tell", NULL);
    if (posobj == NULL || !t->readable || t->snap_input == NULL) {
        return posobj;
    }
    long long pos = PyLong_AsLongLong(posobj);
    Py_DECREF(posobj);
    if (pos == -1 && PyErr_Occurred()) {
        return NULL;
    }
    unsigned long long fields[CK_FIELDS] = {0};
    fields[CK_POS] = (unsigned long long)(pos - PyBytes_GET_SIZE(t->snap_input));
    fields[CK_FLAGS] = (unsigned long long)t->snap_flags;
    if (t->used > 0) {
        saved_decoder saved;
        if (dec_getstate(t, &saved.buf, &saved.flags) < 0) {
            return NULL;
        }
        saved.nl = t->nl;
        int err = replay_for_tell(t, t->used, fields);
        PyObject *exc = err < 0 ? PyErr_GetRaisedException() : NULL;
        int restore = dec_setstate(t, saved.buf, saved.flags);
        t->nl = saved.nl;
        Py_DECREF(saved.buf);
        if (exc != NULL) {
            PyErr_SetRaisedException(exc);
            return NULL;
        }
        if (restore < 0) {
            return NULL;
        }
    }
    return pack_cookie(fields);
}

static PyObject *
seek_end(textio *t)
{
    forget_read_ahead(t);
    if (dec_reset(t) < 0) {
        return NULL;
    }
    PyObject *pos = PyObject_CallMethod(t->buffer, "seek", "ii", 0, 2);
    if (pos != NULL && t->pyencoder != NULL) {
        PyObject *r = PyObject_CallMethod(t->pyencoder, "setstate", "i", 0);
        Py_XDECREF(r);
        if (r == NULL) {
            Py_CLEAR(pos);
        }
    }
    return pos;
}

/* Restore the state a cookie describes (the buffer is already flushed). */
static int
seek_to_cookie(textio *t, PyObject *cookie)
{
    unsigned long long f[CK_FIELDS];
    if (unpack_cookie(cookie, f) < 0) {
        return -1;
    }
    PyObject *r = PyObject_CallMethod(t->buffer, "seek", "K", f[CK_POS]);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    forget_read_ahead(t);
    if (t->readable) {
        PyObject *empty = PyBytes_FromStringAndSize(NULL, 0);
        int err = empty == NULL;
        if (!err) {
            err = PyObject_Not(cookie) == 1 ? dec_reset(t) : dec_setstate(t, empty, (long long)f[CK_FLAGS]);
        }
        if (err) {
            Py_XDECREF(empty);
            return -1;
        }
        t->snap_flags = (long long)f[CK_FLAGS];
        t->snap_input = empty;
    }
    if (f[CK_SKIP] > 0 || f[CK_FEED] > 0) {
        PyObject *input = PyObject_CallMethod(t->buffer, "read", "K", f[CK_FEED]);
        if (input == NULL) {
            return -1;
        }
        if (!PyBytes_Check(input)) {
            Py_DECREF(input);
            PyErr_SetString(PyExc_TypeError, "underlying read() should have returned a bytes object");
            return -1;
        }
        PyObject *text = decode_bytes(t, input, (int)f[CK_EOF]);
        Py_XSETREF(t->snap_input, input);
        if (text == NULL) {
            return -1;
        }
        set_decoded(t, text);
        if ((unsigned long long)PyUnicode_GET_LENGTH(text) < f[CK_SKIP]) {
            PyErr_SetString(PyExc_OSError, "can't restore logical file position");
            return -1;
        }
        t->used = (Py_ssize_t)f[CK_SKIP];
    }
    if (t->pyencoder != NULL) {
        r = PyObject_Not(cookie) == 1 ? PyObject_CallMethod(t->pyencoder, "reset", NULL)
                                      : PyObject_CallMethod(t->pyencoder, "setstate", "i", 0);
        Py_XDECREF(r);
        return r ? 0 : -1;
    }
    return 0;
}

static PyObject *
textio_seek(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    textio *t = TIO(self);
    int whence = 0;
    if (!_PyArg_CheckPositional("seek", nargs, 1, 2)) {
        return NULL;
    }
    if (nargs > 1) {
        whence = PyLong_AsInt(args[1]);
        if (whence == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    CHECK_OPEN(t);
    if (!t->seekable) {
        return _PyIO_Unsupported("underlying stream is not seekable");
    }
    PyObject *cookie = PyNumber_Index(args[0]);
    if (cookie == NULL) {
        return NULL;
    }
    int zero = PyObject_Not(cookie);
    PyObject *res = NULL;
    if (whence == 1 || whence == 2) {
        if (!zero) {
            _PyIO_Unsupported(whence == 1 ? "can't do nonzero cur-relative seeks" : "can't do nonzero end-relative seeks");
        }
        else if (whence == 1) {
            res = textio_tell(self, NULL);
        }
        else if (flush_self(self) == 0) {
            res = seek_end(t);
        }
        Py_DECREF(cookie);
        return res;
    }
    if (whence != 0) {
        PyErr_Format(PyExc_ValueError, "invalid whence (%d, should be 0, 1 or 2)", whence);
        Py_DECREF(cookie);
        return NULL;
    }
    if (PyLong_AsLongLong(cookie) < 0 && !PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "negative seek position %R", cookie);
        Py_DECREF(cookie);
        return NULL;
    }
    PyErr_Clear();
    if (flush_self(self) < 0 || seek_to_cookie(t, cookie) < 0) {
        Py_DECREF(cookie);
        return NULL;
    }
    return cookie;
}

static PyObject *
textio_truncate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    textio *t = TIO(self);
    if (!_PyArg_CheckPositional("truncate", nargs, 0, 1)) {
        return NULL;
    }
    CHECK_OPEN(t);
    if (flush_self(self) < 0) {
        return NULL;
    }
    /* Like CPython, None goes to the buffer, whose position may be past
       the text position after a read-ahead. */
    return PyObject_CallMethod(t->buffer, "truncate", "O", nargs ? args[0] : Py_None);
}

/* ---- TextIOWrapper: the rest ----------------------------------------------------------- */

static PyObject *
textio_close(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    textio *t = TIO(self);
    if (check_attached(t) < 0) {
        return NULL;
    }
    int closed = _PyIO_IsClosed(t->buffer);
    if (closed != 0) {
        return closed < 0 ? NULL : Py_NewRef(Py_None);
    }
    if (t->finalizing) {
        PyObject *r = PyObject_CallMethod(t->buffer, "_dealloc_warn", "O", self);
        Py_XDECREF(r);
        PyErr_Clear();
    }
    PyObject *exc = flush_self(self) < 0 ? PyErr_GetRaisedException() : NULL;
    PyObject *r = PyObject_CallMethod(t->buffer, "close", NULL);
    if (r == NULL) {
        if (exc != NULL) {
            PyObject *later = PyErr_GetRaisedException();
            PyException_SetContext(later, exc);
            PyErr_SetRaisedException(later);
        }
        return NULL;
    }
    Py_DECREF(r);
    if (exc != NULL) {
        PyErr_SetRaisedException(exc);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
textio_detach(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    textio *t = TIO(self);
    if (check_attached(t) < 0 || flush_self(self) < 0) {
        return NULL;
    }
    PyObject *buffer = t->buffer;
    t->buffer = NULL;
    t->ok = 0;
    t->detached = 1;
    return buffer;
}

static PyObject *
buffer_call(PyObject *self, const char *name)
{
    textio *t = TIO(self);
    if (check_attached(t) < 0) {
        return NULL;
    }
    return PyObject_CallMethod(t->buffer, name, NULL);
}

static PyObject *
textio_fileno(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return buffer_call(self, "fileno");
}

static PyObject *
textio_isatty(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return buffer_call(self, "isatty");
}

static PyObject *
textio_seekable(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_OPEN(TIO(self));
    return PyBool_FromLong(TIO(self)->seekable);
}

static PyObject *
textio_readable(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return buffer_call(self, "readable");
}

static PyObject *
textio_writable(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return buffer_call(self, "writable");
}

static PyObject *
textio_reconfigure(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"encoding", "errors", "newline", "line_buffering", "write_through", NULL};
    textio *t = TIO(self);
    PyObject *encoding = Py_None, *errors = Py_None, *newline = NULL, *lb = Py_None, *wt = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|$OOOOO:reconfigure", kwlist, &encoding, &errors, &newline, &lb,
                                     &wt)) {
        return NULL;
    }
    if (check_attached(t) < 0 || str_or_none(encoding, "encoding", "reconfigure") < 0 ||
        str_or_none(errors, "errors", "reconfigure") < 0) {
        return NULL;
    }
    if (newline != NULL && str_or_none(newline, "newline", "reconfigure") < 0) {
        return NULL;
    }
    int changes_codec = !Py_IsNone(encoding) || !Py_IsNone(errors) || newline != NULL;
    if (changes_codec && t->decoded != NULL) {
        return _PyIO_Unsupported("It is not possible to set the encoding or newline of stream after the first read");
    }
    if (newline != NULL && _PyIO_CheckNewline(newline, "TextIOWrapper") < 0) {
        return NULL;
    }
    if (flush_self(self) < 0) {
        return NULL;
    }
    if (!Py_IsNone(encoding) || !Py_IsNone(errors)) {
        if (!Py_IsNone(encoding)) {
            Py_SETREF(t->encoding, PyUnicode_EqualToUTF8(encoding, "locale") ? _PyIO_LocaleEncoding()
                                                                             : Py_NewRef(encoding));
            Py_SETREF(t->errors, Py_IsNone(errors) ? PyUnicode_FromString("strict") : Py_NewRef(errors));
        }
        else {
            Py_SETREF(t->errors, Py_NewRef(errors));
        }
        if (t->encoding == NULL || t->errors == NULL || setup_codec(t) < 0 || fix_encoder_start(t) < 0) {
            t->ok = t->encoding != NULL && t->errors != NULL;
            return NULL;
        }
    }
    if (newline != NULL) {
        setup_newline(t, newline);
    }
    if (!Py_IsNone(lb)) {
        int v = PyObject_IsTrue(lb);
        if (v < 0) {
            return NULL;
        }
        t->line_buffering = (char)v;
    }
    if (!Py_IsNone(wt)) {
        int v = PyObject_IsTrue(wt);
        if (v < 0) {
            return NULL;
        }
        t->write_through = (char)v;
    }
    Py_RETURN_NONE;
}

static PyObject *
textio_repr(PyObject *self)
{
    textio *t = TIO(self);
    PyObject *res = _PyIO_ReprWithName(self, NULL, NULL);
    if (res == NULL) {
        return NULL;
    }
    /* Drop the closing '>' to append mode and encoding. */
    Py_SETREF(res, PyUnicode_Substring(res, 0, PyUnicode_GET_LENGTH(res) - 1));
    PyObject *mode = NULL;
    if (res != NULL && PyObject_GetOptionalAttrString(self, "mode", &mode) < 0) {
        PyErr_Clear();
    }
    if (res != NULL && mode != NULL) {
        PyUnicode_AppendAndDel(&res, PyUnicode_FromFormat(" mode=%R", mode));
    }
    Py_XDECREF(mode);
    if (res != NULL && t->encoding != NULL) {
        PyUnicode_AppendAndDel(&res, PyUnicode_FromFormat(" encoding=%R", t->encoding));
    }
    if (res != NULL) {
        PyUnicode_AppendAndDel(&res, PyUnicode_FromString(">"));
    }
    return res;
}

static PyObject *
textio_name_get(PyObject *self, void *closure)
{
    if (check_attached(TIO(self)) < 0) {
        return NULL;
    }
    return PyObject_GetAttrString(TIO(self)->buffer, "name");
}

static PyObject *
textio_closed_get(PyObject *self, void *closure)
{
    if (check_attached(TIO(self)) < 0) {
        return NULL;
    }
    return PyObject_GetAttrString(TIO(self)->buffer, "closed");
}

/* None once detached (CPython answers the same). */
static PyObject *
textio_buffer_get(PyObject *self, void *closure)
{
    PyObject *buffer = TIO(self)->buffer;
    return Py_NewRef(buffer ? buffer : Py_None);
}

static PyObject *
textio_newlines_get(PyObject *self, void *closure)
{
    textio *t = TIO(self);
    if (check_attached(t) < 0) {
        return NULL;
    }
    if (!t->universal || !t->readable) {
        Py_RETURN_NONE;
    }
    return _PyIO_NewlinesValue(t->nl.seennl);
}

static PyObject *
textio_encoding_get(PyObject *self, void *closure)
{
    return Py_NewRef(TIO(self)->encoding ? TIO(self)->encoding : Py_None);
}

static PyObject *
textio_errors_get(PyObject *self, void *closure)
{
    return Py_NewRef(TIO(self)->errors ? TIO(self)->errors : Py_None);
}

static PyObject *
textio_chunk_get(PyObject *self, void *closure)
{
    return PyLong_FromSsize_t(TIO(self)->chunk_size);
}

static int
textio_chunk_set(PyObject *self, PyObject *value, void *closure)
{
    Py_ssize_t n = 0;
    if (value != NULL) {
        n = PyLong_AsSsize_t(value);
        if (n == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    if (n < 1) {
        PyErr_SetString(value ? PyExc_ValueError : PyExc_AttributeError,
                        value ? "a strictly positive integer is required" : "cannot delete attribute");
        return -1;
    }
    TIO(self)->chunk_size = n;
    return 0;
}

#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL

static PyMethodDef textio_methods[] = {
    {"read", FASTCALL(textio_read), "Read up to size characters (all with -1)."},
    {"readline", FASTCALL(textio_readline), "Read one line."},
    {"write", textio_write, METH_O, "Write a str; returns its length."},
    {"flush", textio_flush, METH_NOARGS, "Flush the buffer."},
    {"close", textio_close, METH_NOARGS, "Flush and close the buffer."},
    {"detach", textio_detach, METH_NOARGS, "Disconnect and return the buffer."},
    {"tell", textio_tell, METH_NOARGS, "An opaque position cookie."},
    {"seek", FASTCALL(textio_seek), "Go to a tell() cookie."},
    {"truncate", FASTCALL(textio_truncate), "Truncate the buffer."},
    {"fileno", textio_fileno, METH_NOARGS, NULL},
    {"isatty", textio_isatty, METH_NOARGS, NULL},
    {"seekable", textio_seekable, METH_NOARGS, NULL},
    {"readable", textio_readable, METH_NOARGS, NULL},
    {"writable", textio_writable, METH_NOARGS, NULL},
    {"reconfigure", (PyCFunction)(void (*)(void))textio_reconfigure, METH_VARARGS | METH_KEYWORDS,
     "Change encoding, errors, newline, line_buffering or write_through."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef textio_members[] = {
    {"line_buffering", Py_T_BOOL, offsetof(textio, line_buffering), Py_READONLY, NULL},
    {"write_through", Py_T_BOOL, offsetof(textio, write_through), Py_READONLY, NULL},
    {"_finalizing", Py_T_BOOL, offsetof(textio, finalizing), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef textio_getset[] = {
    {"name", textio_name_get, NULL, NULL, NULL},
    {"closed", textio_closed_get, NULL, NULL, NULL},
    {"buffer", textio_buffer_get, NULL, NULL, NULL},
    {"newlines", textio_newlines_get, NULL, NULL, NULL},
    {"encoding", textio_encoding_get, NULL, NULL, NULL},
    {"errors", textio_errors_get, NULL, NULL, NULL},
    {"_CHUNK_SIZE", textio_chunk_get, textio_chunk_set, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PyIO_TextIOWrapper_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_io.TextIOWrapper",
    .tp_basicsize = sizeof(textio),
    .tp_dealloc = textio_dealloc,
    .tp_repr = textio_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "TextIOWrapper(buffer, encoding=None, errors=None, newline=None, line_buffering=False, "
              "write_through=False)\n\nA text stream over a buffered binary stream.",
    .tp_traverse = textio_traverse,
    .tp_clear = textio_clear,
    .tp_iternext = textio_iternext,
    .tp_methods = textio_methods,
    .tp_members = textio_members,
    .tp_getset = textio_getset,
    .tp_base = &_PyIO_TextIOBase_Type,
    .tp_init = textio_init,
    .tp_new = PyType_GenericNew,
    .tp_finalize = _PyIO_Finalize,
};
