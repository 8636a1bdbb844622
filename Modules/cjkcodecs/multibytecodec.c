/* _multibytecodec: the Python face of the CJK codecs.

   MultibyteCodec wraps one cjk_codec descriptor (handed out by the
   _codecs_xx modules' getcodec()); the incremental encoder and decoder and
   the stream reader and writer are base classes the encodings package
   subclasses, each finding its codec in the subclass's `codec` attribute.

   All four stateful classes share one object layout (coder_object): the
   codec, the error handler's name, the codec's 8-byte state and what an
   unfinished sequence left pending (code points when encoding, bytes when
   decoding).  A call works on copies and stores them back only when it
   succeeds, so an exception leaves the object as it was.

   Errors go through the codecs error-handler registry, with "strict" and
   "ignore" decided here.  Doc/cjkcodecs.md has the details. */

#include "cjkcodecs.h"
#include "pycore_object.h"   /* _PyStaticType_InitBuiltin */

#define MAX_PENDING 8
#define REASON_ILLEGAL "illegal multibyte sequence"
#define REASON_INCOMPLETE "incomplete multibyte sequence"

typedef struct {
    PyObject_HEAD
    const cjk_codec *codec;
} codec_object;

typedef struct {
    PyObject_HEAD
    const cjk_codec *codec;
    PyObject *errors;                 /* str */
    cjk_state state;
    Py_ssize_t npending;
    Py_UCS4 text_pending[MAX_PENDING];
    unsigned char byte_pending[MAX_PENDING];
    PyObject *stream;                 /* the stream classes only */
} coder_object;

static PyTypeObject CodecType;
static PyTypeObject IncEncoderType;
static PyTypeObject IncDecoderType;
static PyTypeObject ReaderType;
static PyTypeObject WriterType;

static void
state_init(const cjk_codec *codec, cjk_state *st, int encoding)
{
    memset(st, 0, sizeof(*st));
    if (codec->init != NULL) {
        codec->init(codec, st, encoding);
    }
}

/* ---- Error handling -------------------------------------------------------------- */

static int
is_named(PyObject *errors, const char *name)
{
    return errors == NULL || PyUnicode_CompareWithASCIIString(errors, name) == 0;
}

/* Call the registered handler on `exc`; return its replacement (new
   reference) and store the resume position, checked against `length`. */
static PyObject *
call_handler(PyObject *errors, PyObject *exc, Py_ssize_t length, Py_ssize_t *newpos,
             const char *what)
{
    const char *name = PyUnicode_AsUTF8(errors);
    if (name == NULL) {
        return NULL;
    }
    PyObject *handler = PyCodec_LookupError(name);
    if (handler == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_CallOneArg(handler, exc);
    Py_DECREF(handler);
    if (res == NULL) {
        return NULL;
    }
    int encoding = what[0] == 'e';
    PyObject *first = PyTuple_Check(res) && PyTuple_GET_SIZE(res) == 2 ? PyTuple_GET_ITEM(res, 0)
                                                                        : NULL;
    int usable = first != NULL && (PyUnicode_Check(first) || (encoding && PyBytes_Check(first)));
    if (!usable || !PyLong_Check(PyTuple_GET_ITEM(res, 1))) {
        PyErr_Format(PyExc_TypeError, "%s error handler must return (%s, int) tuple", what,
                     encoding ? "str/bytes" : "str");
        Py_DECREF(res);
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(PyTuple_GET_ITEM(res, 1));
    if (pos == -1 && PyErr_Occurred()) {
        Py_DECREF(res);
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_IndexError, "position from error handler out of bounds");
        }
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
    PyObject *replacement = Py_NewRef(PyTuple_GET_ITEM(res, 0));
    Py_DECREF(res);
    return replacement;
}

static void
raise_exception(PyObject *exc)
{
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
}

/* ---- Encoding ------------------------------------------------------------------------ */

static int run_encoder(const cjk_codec *codec, cjk_state *st, const Py_UCS4 *text,
                       Py_ssize_t n, PyObject *errors, int final, cjk_bytes *out,
                       Py_ssize_t *used);

static PyObject *
make_encode_error(const cjk_codec *codec, const Py_UCS4 *text, Py_ssize_t n,
                  Py_ssize_t start, Py_ssize_t end, const char *reason)
{
    PyObject *str = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, text, n);
    if (str == NULL) {
        return NULL;
    }
    PyObject *exc = PyObject_CallFunction(PyExc_UnicodeEncodeError, "sOnns", codec->name, str,
                                          start, end, reason);
    Py_DECREF(str);
    return exc;
}

/* text[start..end) can't be encoded: apply the handler; returns the
   position to resume at, or -1. */
static Py_ssize_t
encode_failed(const cjk_codec *codec, cjk_state *st, const Py_UCS4 *text, Py_ssize_t n,
              Py_ssize_t start, Py_ssize_t end, PyObject *errors, cjk_bytes *out)
{
    if (errors != NULL && is_named(errors, "ignore")) {
        return end;
    }
    PyObject *exc = make_encode_error(codec, text, n, start, end, REASON_ILLEGAL);
    if (exc == NULL) {
        return -1;
    }
    if (is_named(errors, "strict")) {
        raise_exception(exc);
        Py_DECREF(exc);
        return -1;
    }
    Py_ssize_t newpos;
    PyObject *replacement = call_handler(errors, exc, n, &newpos, "encoding");
    if (replacement == NULL) {
        Py_DECREF(exc);
        return -1;
    }
    if (PyBytes_Check(replacement)) {
        /* Bytes from the handler go to the output as they are. */
        int r = _PyCJK_PutBytes(out, (const unsigned char *)PyBytes_AS_STRING(replacement),
                                PyBytes_GET_SIZE(replacement));
        Py_DECREF(replacement);
        Py_DECREF(exc);
        return r < 0 ? -1 : newpos;
    }
    Py_UCS4 *chars = PyUnicode_AsUCS4Copy(replacement);
    Py_ssize_t len = PyUnicode_GET_LENGTH(replacement);
    Py_DECREF(replacement);
    if (chars == NULL) {
        Py_DECREF(exc);
        return -1;
    }
    Py_ssize_t done;
    int r = run_encoder(codec, st, chars, len, NULL, 1, out, &done);
    PyMem_Free(chars);
    if (r < 0) {
        if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            PyErr_Clear();
            raise_exception(exc);
        }
        Py_DECREF(exc);
        return -1;
    }
    Py_DECREF(exc);
    return newpos;
}

/* Encode text[0..n).  Unless `final`, a step that wants more input stops the
   loop and *used tells how far it got. */
static int
run_encoder(const cjk_codec *codec, cjk_state *st, const Py_UCS4 *text, Py_ssize_t n,
            PyObject *errors, int final, cjk_bytes *out, Py_ssize_t *used)
{
    Py_ssize_t i = 0;
    while (i < n) {
        Py_ssize_t bad = 1;
        Py_ssize_t r = codec->encode(codec, st, text + i, n - i, final, out, &bad);
        if (r > 0) {
            i += r;
            continue;
        }
        if (r == CJK_NOMEM) {
            return -1;
        }
        if (r == CJK_MORE && !final) {
            break;
        }
        Py_ssize_t end = r == CJK_MORE ? n : i + bad;
        i = encode_failed(codec, st, text, n, i, end, errors, out);
        if (i < 0) {
            return -1;
        }
    }
    *used = i;
    return 0;
}

static PyObject *
bytes_from(cjk_bytes *out)
{
    PyObject *res = PyBytes_FromStringAndSize((const char *)out->buf, out->len);
    PyMem_Free(out->buf);
    out->buf = NULL;
    return res;
}

static PyObject *
str_from(cjk_chars *out)
{
    PyObject *res = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out->buf, out->len);
    PyMem_Free(out->buf);
    out->buf = NULL;
    return res;
}

/* Encode `pending + input`; on success store the new state and pending
   text into *st / pending and return the bytes. */
static PyObject *
encode_with_state(const cjk_codec *codec, cjk_state *st, Py_UCS4 *pending,
                  Py_ssize_t *npending, PyObject *input, PyObject *errors, int final)
{
    if (!PyUnicode_Check(input)) {
        PyErr_SetString(PyExc_TypeError, "couldn't convert the object to unicode.");
        return NULL;
    }
    Py_ssize_t inlen = PyUnicode_GET_LENGTH(input);
    Py_ssize_t n = *npending + inlen;
    Py_UCS4 *text = PyMem_Malloc(sizeof(Py_UCS4) * (size_t)(n ? n : 1));
    if (text == NULL) {
        return PyErr_NoMemory();
    }
    memcpy(text, pending, sizeof(Py_UCS4) * (size_t)*npending);
    for (Py_ssize_t k = 0; k < inlen; k++) {
        text[*npending + k] = PyUnicode_READ_CHAR(input, k);
    }
    cjk_state work = *st;
    cjk_bytes out = {NULL, 0, 0};
    Py_ssize_t used;
    if (run_encoder(codec, &work, text, n, errors, final, &out, &used) < 0) {
        goto error;
    }
    if (n - used > MAX_PENDING) {
        PyErr_SetString(PyExc_UnicodeError, "pending buffer overflow");
        goto error;
    }
    if (final && codec->encode_reset != NULL && codec->encode_reset(codec, &work, &out) < 0) {
        goto error;
    }
    memmove(pending, text + used, sizeof(Py_UCS4) * (size_t)(n - used));
    *npending = n - used;
    PyMem_Free(text);
    *st = work;
    return bytes_from(&out);

error:
    PyMem_Free(text);
    PyMem_Free(out.buf);
    return NULL;
}

/* ---- Decoding -------------------------------------------------------------------------- */

static Py_ssize_t
decode_failed(const cjk_codec *codec, const unsigned char *data, Py_ssize_t n,
              Py_ssize_t start, Py_ssize_t end, const char *reason, PyObject *errors,
              cjk_chars *out)
{
    if (errors != NULL && is_named(errors, "ignore")) {
        return end;
    }
    PyObject *exc = PyUnicodeDecodeError_Create(codec->name, (const char *)data, n, start, end,
                                                reason);
    if (exc == NULL) {
        return -1;
    }
    if (is_named(errors, "strict")) {
        raise_exception(exc);
        Py_DECREF(exc);
        return -1;
    }
    Py_ssize_t newpos;
    PyObject *replacement = call_handler(errors, exc, n, &newpos, "decoding");
    Py_DECREF(exc);
    if (replacement == NULL) {
        return -1;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(replacement);
    for (Py_ssize_t k = 0; k < len; k++) {
        if (_PyCJK_PutChar(out, PyUnicode_READ_CHAR(replacement, k)) < 0) {
            Py_DECREF(replacement);
            return -1;
        }
    }
    Py_DECREF(replacement);
    return newpos;
}

static int
run_decoder(const cjk_codec *codec, cjk_state *st, const unsigned char *data, Py_ssize_t n,
            PyObject *errors, int final, cjk_chars *out, Py_ssize_t *used)
{
    Py_ssize_t i = 0;
    while (i < n) {
        Py_ssize_t bad = 1;
        Py_ssize_t r = codec->decode(codec, st, data + i, n - i, out, &bad);
        if (r > 0) {
            i += r;
            continue;
        }
        if (r == CJK_NOMEM) {
            return -1;
        }
        if (r == CJK_MORE) {
            if (!final) {
                break;
            }
            i = decode_failed(codec, data, n, i, n, REASON_INCOMPLETE, errors, out);
        }
        else {
            i = decode_failed(codec, data, n, i, i + bad, REASON_ILLEGAL, errors, out);
        }
        if (i < 0) {
            return -1;
        }
    }
    *used = i;
    return 0;
}

/* Decode `pending + the bytes of input`, as encode_with_state does. */
static PyObject *
decode_with_state(const cjk_codec *codec, cjk_state *st, unsigned char *pending,
                  Py_ssize_t *npending, const void *input, Py_ssize_t inlen, PyObject *errors,
                  int final)
{
    Py_ssize_t n = *npending + inlen;
    unsigned char *data = PyMem_Malloc((size_t)(n ? n : 1));
    if (data == NULL) {
        return PyErr_NoMemory();
    }
    memcpy(data, pending, (size_t)*npending);
    memcpy(data + *npending, input, (size_t)inlen);
    cjk_state work = *st;
    cjk_chars out = {NULL, 0, 0};
    Py_ssize_t used;
    if (run_decoder(codec, &work, data, n, errors, final, &out, &used) < 0) {
        goto error;
    }
    if (n - used > MAX_PENDING) {
        /* CPython drops the pending bytes with this error. */
        *npending = 0;
        PyErr_SetString(PyExc_UnicodeError, "pending buffer overflow");
        goto error;
    }
    memmove(pending, data + used, (size_t)(n - used));
    *npending = n - used;
    PyMem_Free(data);
    *st = work;
    return str_from(&out);

error:
    PyMem_Free(data);
    PyMem_Free(out.buf);
    return NULL;
}

/* ---- Argument binding -------------------------------------------------------------------- */

/* Fill slots[0..count) (borrowed references, NULL when not passed) from
   positional `args` and keyword `kwds` by the parameter names; the first
   `required` must be present. */
static int
bind_args(const char *fname, PyObject *args, PyObject *kwds, const char *const *names,
          int required, int count, PyObject **slots)
{
    Py_ssize_t given = PyTuple_GET_SIZE(args);
    if (given > count) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)", fname,
                     count, given);
        return -1;
    }
    Py_ssize_t matched = 0;
    for (int k = 0; k < count; k++) {
        PyObject *by_name = kwds ? PyDict_GetItemString(kwds, names[k]) : NULL;
        if (k < given && by_name != NULL) {
            PyErr_Format(PyExc_TypeError, "argument for %s() given by name ('%s') and position",
                         fname, names[k]);
            return -1;
        }
        slots[k] = k < given ? PyTuple_GET_ITEM(args, k) : by_name;
        matched += by_name != NULL;
        if (slots[k] == NULL && k < required) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fname,
                         names[k]);
            return -1;
        }
    }
    if (kwds && PyDict_GET_SIZE(kwds) > matched) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument", fname);
        return -1;
    }
    return 0;
}

/* An optional flag argument (absent: false). */
static int
flag_value(PyObject *arg)
{
    return arg == NULL ? 0 : PyObject_IsTrue(arg);
}

static const char *const input_final_names[] = {"input", "final"};
static const char *const input_errors_names[] = {"input", "errors"};
static const char *const errors_names[] = {"errors"};
static const char *const stream_names[] = {"stream", "errors"};

/* ---- MultibyteCodec ------------------------------------------------------------------------ */

/* The errors argument of encode()/decode(): NULL for None or absent. */
static PyObject *
errors_argument(const char *fname, PyObject *errors)
{
    if (errors == NULL || errors == Py_None) {
        return NULL;
    }
    if (!PyUnicode_Check(errors)) {
        PyErr_Format(PyExc_TypeError, "%s() argument 'errors' must be str or None, not %.50s",
                     fname, Py_TYPE(errors)->tp_name);
        return NULL;
    }
    return errors;
}

/* What encode() works on: str as it is, anything else as str(obj), as
   CPython does (new reference). */
static PyObject *
as_text(PyObject *input)
{
    return PyUnicode_Check(input) ? Py_NewRef(input) : PyObject_Str(input);
}

static PyObject *
codec_encode(codec_object *self, PyObject *args, PyObject *kwds)
{
    PyObject *a[2];
    if (bind_args("encode", args, kwds, input_errors_names, 1, 2, a) < 0) {
        return NULL;
    }
    PyObject *errors = errors_argument("encode", a[1]);
    if (errors == NULL && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *text = as_text(a[0]);
    if (text == NULL) {
        return NULL;
    }
    cjk_state st;
    state_init(self->codec, &st, 1);
    Py_UCS4 pending[MAX_PENDING];
    Py_ssize_t npending = 0;
    PyObject *res = encode_with_state(self->codec, &st, pending, &npending, text, errors, 1);
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    Py_DECREF(text);
    if (res == NULL) {
        return NULL;
    }
    return Py_BuildValue("Nn", res, len);
}

static PyObject *
codec_decode(codec_object *self, PyObject *args, PyObject *kwds)
{
    PyObject *a[2];
    if (bind_args("decode", args, kwds, input_errors_names, 1, 2, a) < 0) {
        return NULL;
    }
    PyObject *errors = errors_argument("decode", a[1]);
    if (errors == NULL && PyErr_Occurred()) {
        return NULL;
    }
    if (PyUnicode_Check(a[0])) {
        PyErr_SetString(PyExc_TypeError, "a bytes-like object is required, not 'str'");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(a[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    cjk_state st;
    state_init(self->codec, &st, 0);
    unsigned char pending[MAX_PENDING];
    Py_ssize_t npending = 0;
    PyObject *res = decode_with_state(self->codec, &st, pending, &npending, view.buf, view.len,
                                      errors, 1);
    Py_ssize_t len = view.len;
    PyBuffer_Release(&view);
    if (res == NULL) {
        return NULL;
    }
    return Py_BuildValue("Nn", res, len);
}

static PyMethodDef codec_methods[] = {
    {"encode", (PyCFunction)(void (*)(void))codec_encode, METH_VARARGS | METH_KEYWORDS, NULL},
    {"decode", (PyCFunction)(void (*)(void))codec_decode, METH_VARARGS | METH_KEYWORDS, NULL},
    {NULL, NULL, 0, NULL},
};

static void
codec_dealloc(PyObject *self)
{
    PyObject_Free(self);
}

static PyTypeObject CodecType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_multibytecodec.MultibyteCodec",
    .tp_basicsize = sizeof(codec_object),
    .tp_dealloc = codec_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = codec_methods,
};

static int
ready_types(void)
{
    PyTypeObject *types[] = {&CodecType, &IncEncoderType, &IncDecoderType, &ReaderType,
                             &WriterType};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        if (_PyStaticType_InitBuiltin(types[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

PyObject *
_PyCJK_NewCodecObject(const cjk_codec *codec)
{
    if (ready_types() < 0) {
        return NULL;
    }
    codec_object *self = PyObject_New(codec_object, &CodecType);
    if (self == NULL) {
        return NULL;
    }
    self->codec = codec;
    return (PyObject *)self;
}

/* ---- The stateful classes: shared parts ------------------------------------------------------ */

static PyObject *
coder_new(PyTypeObject *type, PyObject *errors, PyObject *stream, int encoding)
{
    PyObject *codec = PyObject_GetAttrString((PyObject *)type, "codec");
    if (codec == NULL) {
        return NULL;
    }
    if (!PyObject_TypeCheck(codec, &CodecType)) {
        PyErr_SetString(PyExc_TypeError, "codec is unexpected type");
        Py_DECREF(codec);
        return NULL;
    }
    coder_object *self = (coder_object *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(codec);
        return NULL;
    }
    self->codec = ((codec_object *)codec)->codec;
    Py_DECREF(codec);
    self->errors = errors ? Py_NewRef(errors) : PyUnicode_FromString("strict");
    self->stream = Py_XNewRef(stream);
    self->npending = 0;
    state_init(self->codec, &self->state, encoding);
    if (self->errors == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static int
coder_traverse(coder_object *self, visitproc visit, void *arg)
{
    Py_VISIT(self->errors);
    Py_VISIT(self->stream);
    return 0;
}

static int
coder_clear(coder_object *self)
{
    Py_CLEAR(self->errors);
    Py_CLEAR(self->stream);
    return 0;
}

static void
coder_dealloc(coder_object *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    coder_clear(self);
    type->tp_free((PyObject *)self);
}

static int
coder_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    (void)args;
    (void)kwds;
    return 0;
}

static PyObject *
coder_get_errors(coder_object *self, void *closure)
{
    (void)closure;
    return Py_NewRef(self->errors);
}

static int
coder_set_errors(coder_object *self, PyObject *value, void *closure)
{
    (void)closure;
    if (value != NULL && PyUnicode_Check(value)) {
        Py_SETREF(self->errors, Py_NewRef(value));
        return 0;
    }
    PyErr_SetString(value ? PyExc_TypeError : PyExc_AttributeError,
                    value ? "errors must be a string" : "cannot delete attribute");
    return -1;
}

static PyGetSetDef coder_getset[] = {
    {"errors", (getter)coder_get_errors, (setter)coder_set_errors, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *
coder_encode(coder_object *self, PyObject *input, int final)
{
    PyObject *text = as_text(input);
    if (text == NULL) {
        return NULL;
    }
    PyObject *res = encode_with_state(self->codec, &self->state, self->text_pending,
                                      &self->npending, text, self->errors, final);
    Py_DECREF(text);
    return res;
}

static PyObject *
coder_decode(coder_object *self, PyObject *input, int final)
{
    if (PyUnicode_Check(input)) {
        PyErr_SetString(PyExc_TypeError, "a bytes-like object is required, not 'str'");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(input, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *res = decode_with_state(self->codec, &self->state, self->byte_pending,
                                      &self->npending, view.buf, view.len, self->errors, final);
    PyBuffer_Release(&view);
    return res;
}

static PyObject *
state_as_int(const unsigned char *bytes, Py_ssize_t n)
{
    PyObject *b = PyBytes_FromStringAndSize((const char *)bytes, n);
    if (b == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_CallMethod((PyObject *)&PyLong_Type, "from_bytes", "Os", b, "little");
    Py_DECREF(b);
    return res;
}

/* Write the int `value` into bytes[0..n), little-endian. */
static int
int_as_state(PyObject *value, unsigned char *bytes, Py_ssize_t n)
{
    PyObject *b = PyObject_CallMethod(value, "to_bytes", "ns", n, "little");
    if (b == NULL) {
        return -1;
    }
    memcpy(bytes, PyBytes_AS_STRING(b), (size_t)n);
    Py_DECREF(b);
    return 0;
}

/* ---- MultibyteIncrementalEncoder ---------------------------------------------------------------- */

/* The incremental classes take (errors=None), the stream ones
   (stream, errors=None). */
static PyObject *
coder_make(PyTypeObject *type, PyObject *args, PyObject *kwds, int encoding, int streaming)
{
    PyObject *a[2];
    const char *const *names = streaming ? stream_names : errors_names;
    static const char *const labels[2][2] = {{"IncrementalDecoder", "IncrementalEncoder"},
                                             {"StreamReader", "StreamWriter"}};
    const char *label = labels[streaming][encoding];
    if (bind_args(label, args, kwds, names, streaming, 1 + streaming, a) < 0) {
        return NULL;
    }
    PyObject *errors = a[streaming];
    if (errors != NULL && !PyUnicode_Check(errors)) {
        PyErr_Format(PyExc_TypeError, "%s() argument %d must be str, not %.50s", label,
                     1 + streaming, errors == Py_None ? "None" : Py_TYPE(errors)->tp_name);
        return NULL;
    }
    return streaming ? coder_new(type, a[1], a[0], encoding) : coder_new(type, a[0], NULL, encoding);
}

static PyObject *
incenc_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return coder_make(type, args, kwds, 1, 0);
}

static PyObject *
incenc_encode(coder_object *self, PyObject *args, PyObject *kwds)
{
    PyObject *a[2];
    if (bind_args("encode", args, kwds, input_final_names, 1, 2, a) < 0) {
        return NULL;
    }
    int final = flag_value(a[1]);
    return final < 0 ? NULL : coder_encode(self, a[0], final);
}

static PyObject *
incenc_reset(coder_object *self, PyObject *unused)
{
    (void)unused;
    self->npending = 0;
    state_init(self->codec, &self->state, 1);
    Py_RETURN_NONE;
}

/* The state as an int: little-endian bytes [n][n bytes of the pending text
   in UTF-8][the 8 state bytes]. */
static PyObject *
incenc_getstate(coder_object *self, PyObject *unused)
{
    (void)unused;
    PyObject *text = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, self->text_pending,
                                               self->npending);
    if (text == NULL) {
        return NULL;
    }
    PyObject *utf8 = PyUnicode_AsUTF8String(text);
    Py_DECREF(text);
    if (utf8 == NULL) {
        return NULL;
    }
    Py_ssize_t ulen = PyBytes_GET_SIZE(utf8);
    if (ulen > MAX_PENDING) {
        Py_DECREF(utf8);
        PyErr_SetString(PyExc_UnicodeError, "pending buffer too large");
        return NULL;
    }
    unsigned char packed[1 + MAX_PENDING + sizeof(cjk_state)];
    packed[0] = (unsigned char)ulen;
    memcpy(packed + 1, PyBytes_AS_STRING(utf8), (size_t)ulen);
    memcpy(packed + 1 + ulen, self->state.c, sizeof(cjk_state));
    Py_DECREF(utf8);
    return state_as_int(packed, 1 + ulen + (Py_ssize_t)sizeof(cjk_state));
}

static PyObject *
incenc_setstate(coder_object *self, PyObject *value)
{
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "setstate() argument must be int, not %.100s",
                     Py_TYPE(value)->tp_name);
        return NULL;
    }
    unsigned char packed[1 + MAX_PENDING + sizeof(cjk_state)];
    if (int_as_state(value, packed, sizeof(packed)) < 0) {
        return NULL;
    }
    if (packed[0] > MAX_PENDING) {
        PyErr_SetString(PyExc_UnicodeError, "pending buffer too large");
        return NULL;
    }
    PyObject *text = PyUnicode_DecodeUTF8((const char *)packed + 1, packed[0], "strict");
    if (text == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    for (Py_ssize_t k = 0; k < n; k++) {
        self->text_pending[k] = PyUnicode_READ_CHAR(text, k);
    }
    Py_DECREF(text);
    self->npending = n;
    memcpy(self->state.c, packed + 1 + packed[0], sizeof(cjk_state));
    Py_RETURN_NONE;
}

static PyMethodDef incenc_methods[] = {
    {"encode", (PyCFunction)(void (*)(void))incenc_encode, METH_VARARGS | METH_KEYWORDS, NULL},
    {"reset", (PyCFunction)incenc_reset, METH_NOARGS, NULL},
    {"getstate", (PyCFunction)incenc_getstate, METH_NOARGS, NULL},
    {"setstate", (PyCFunction)incenc_setstate, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

#define CODER_TYPE_SLOTS \
    .tp_basicsize = sizeof(coder_object), \
    .tp_dealloc = (destructor)coder_dealloc, \
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE, \
    .tp_traverse = (traverseproc)coder_traverse, \
    .tp_clear = (inquiry)coder_clear, \
    .tp_getset = coder_getset, \
    .tp_init = coder_init, \
    .tp_alloc = PyType_GenericAlloc, \
    .tp_free = PyObject_GC_Del

static PyTypeObject IncEncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_multibytecodec.MultibyteIncrementalEncoder",
    CODER_TYPE_SLOTS,
    .tp_methods = incenc_methods,
    .tp_new = incenc_new,
};

/* ---- MultibyteIncrementalDecoder ------------------------------------------------------------- */

static PyObject *
incdec_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return coder_make(type, args, kwds, 0, 0);
}

static PyObject *
incdec_decode(coder_object *self, PyObject *args, PyObject *kwds)
{
    PyObject *a[2];
    if (bind_args("decode", args, kwds, input_final_names, 1, 2, a) < 0) {
        return NULL;
    }
    int final = flag_value(a[1]);
    return final < 0 ? NULL : coder_decode(self, a[0], final);
}

static PyObject *
incdec_reset(coder_object *self, PyObject *unused)
{
    (void)unused;
    self->npending = 0;
    state_init(self->codec, &self->state, 0);
    Py_RETURN_NONE;
}

static PyObject *
incdec_getstate(coder_object *self, PyObject *unused)
{
    (void)unused;
    PyObject *flags = state_as_int(self->state.c, sizeof(cjk_state));
    if (flags == NULL) {
        return NULL;
    }
    return Py_BuildValue("y#N", (const char *)self->byte_pending, self->npending, flags);
}

static PyObject *
incdec_setstate(coder_object *self, PyObject *value)
{
    if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 2 ||
        !PyBytes_Check(PyTuple_GET_ITEM(value, 0)) || !PyLong_Check(PyTuple_GET_ITEM(value, 1))) {
        PyErr_SetString(PyExc_TypeError, "setstate() argument must be a (bytes, int) tuple");
        return NULL;
    }
    PyObject *buffer = PyTuple_GET_ITEM(value, 0);
    Py_ssize_t n = PyBytes_GET_SIZE(buffer);
    if (n > MAX_PENDING) {
        /* As 3.13 does: a UnicodeDecodeError over the whole buffer. */
        PyObject *exc = PyUnicodeDecodeError_Create(self->codec->name, PyBytes_AS_STRING(buffer),
                                                    n, 0, n, "pending buffer too large");
        if (exc != NULL) {
            raise_exception(exc);
            Py_DECREF(exc);
        }
        return NULL;
    }
    cjk_state st;
    if (int_as_state(PyTuple_GET_ITEM(value, 1), st.c, sizeof(st.c)) < 0) {
        return NULL;
    }
    memcpy(self->byte_pending, PyBytes_AS_STRING(buffer), (size_t)n);
    self->npending = n;
    self->state = st;
    Py_RETURN_NONE;
}

static PyMethodDef incdec_methods[] = {
    {"decode", (PyCFunction)(void (*)(void))incdec_decode, METH_VARARGS | METH_KEYWORDS, NULL},
    {"reset", (PyCFunction)incdec_reset, METH_NOARGS, NULL},
    {"getstate", (PyCFunction)incdec_getstate, METH_NOARGS, NULL},
    {"setstate", (PyCFunction)incdec_setstate, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject IncDecoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_multibytecodec.MultibyteIncrementalDecoder",
    CODER_TYPE_SLOTS,
    .tp_methods = incdec_methods,
    .tp_new = incdec_new,
};

/* ---- MultibyteStreamReader ---------------------------------------------------------------------- */


static PyObject *
reader_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return coder_make(type, args, kwds, 0, 1);
}

/* A size argument: None or an int (negative: no limit). */
static int
size_argument(PyObject *arg, Py_ssize_t *size)
{
    if (arg == NULL || arg == Py_None) {
        *size = -1;
        return 0;
    }
    if (!PyLong_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "arg 1 must be an integer");
        return -1;
    }
    *size = PyLong_AsSsize_t(arg);
    return (*size == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* Call stream.<method>(size) until something decodes or the stream ends. */
static PyObject *
reader_pull(coder_object *self, const char *method, Py_ssize_t size)
{
    if (size == 0) {
        return PyUnicode_New(0, 0);
    }
    for (;;) {
        PyObject *data = size < 0 ? PyObject_CallMethod(self->stream, method, NULL)
                                  : PyObject_CallMethod(self->stream, method, "n", size);
        if (data == NULL) {
            return NULL;
        }
        if (!PyBytes_Check(data)) {
            PyErr_Format(PyExc_TypeError, "stream function returned a non-bytes object (%.100s)",
                         Py_TYPE(data)->tp_name);
            Py_DECREF(data);
            return NULL;
        }
        int eof = PyBytes_GET_SIZE(data) == 0;
        PyObject *text = coder_decode(self, data, eof);
        Py_DECREF(data);
        if (text == NULL || eof || size < 0 || PyUnicode_GET_LENGTH(text) > 0) {
            return text;
        }
        Py_DECREF(text);
    }
}

static PyObject *
reader_read(coder_object *self, PyObject *args)
{
    PyObject *arg = NULL;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "|O:read", &arg) || size_argument(arg, &size) < 0) {
        return NULL;
    }
    return reader_pull(self, "read", size);
}

/* readline() and readlines() take (size=None, keepends=True): the 3.14
   codecs.StreamReaderWriter passes keepends on. */
static int
line_arguments(PyObject *args, const char *fname, Py_ssize_t *size, int *keepends)
{
    PyObject *arg = NULL, *keep = NULL;
    if (!PyArg_UnpackTuple(args, fname, 0, 2, &arg, &keep) || size_argument(arg, size) < 0) {
        return -1;
    }
    *keepends = keep == NULL ? 1 : PyObject_IsTrue(keep);
    return *keepends < 0 ? -1 : 0;
}

static PyObject *
reader_readline(coder_object *self, PyObject *args)
{
    Py_ssize_t size;
    int keepends;
    if (line_arguments(args, "readline", &size, &keepends) < 0) {
        return NULL;
    }
    PyObject *line = reader_pull(self, "readline", size);
    if (line == NULL || keepends || PyUnicode_GET_LENGTH(line) == 0) {
        return line;
    }
    PyObject *parts = PyUnicode_Splitlines(line, 0);
    Py_DECREF(line);
    if (parts == NULL) {
        return NULL;
    }
    PyObject *first = PyList_GET_SIZE(parts) ? Py_NewRef(PyList_GET_ITEM(parts, 0))
                                             : PyUnicode_New(0, 0);
    Py_DECREF(parts);
    return first;
}

static PyObject *
reader_readlines(coder_object *self, PyObject *args)
{
    Py_ssize_t size;
    int keepends;
    if (line_arguments(args, "readlines", &size, &keepends) < 0) {
        return NULL;
    }
    PyObject *text = reader_pull(self, "read", size);
    if (text == NULL) {
        return NULL;
    }
    PyObject *lines = PyUnicode_Splitlines(text, keepends);
    Py_DECREF(text);
    return lines;
}

static PyObject *
reader_reset(coder_object *self, PyObject *unused)
{
    return incdec_reset(self, unused);
}

static PyMethodDef reader_methods[] = {
    {"read", (PyCFunction)reader_read, METH_VARARGS, NULL},
    {"readline", (PyCFunction)reader_readline, METH_VARARGS, NULL},
    {"readlines", (PyCFunction)reader_readlines, METH_VARARGS, NULL},
    {"reset", (PyCFunction)reader_reset, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef stream_members[] = {
    {"stream", Py_T_OBJECT_EX, offsetof(coder_object, stream), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject ReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_multibytecodec.MultibyteStreamReader",
    CODER_TYPE_SLOTS,
    .tp_methods = reader_methods,
    .tp_members = stream_members,
    .tp_new = reader_new,
};

/* ---- MultibyteStreamWriter ------------------------------------------------------------------------ */

static PyObject *
writer_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return coder_make(type, args, kwds, 1, 1);
}

static int
writer_put(coder_object *self, PyObject *text, int final)
{
    PyObject *data = coder_encode(self, text, final);
    if (data == NULL) {
        return -1;
    }
    if (final && PyBytes_GET_SIZE(data) == 0) {
        Py_DECREF(data);
        return 0;
    }
    PyObject *res = PyObject_CallMethod(self->stream, "write", "O", data);
    Py_DECREF(data);
    Py_XDECREF(res);
    return res == NULL ? -1 : 0;
}

static PyObject *
writer_write(coder_object *self, PyObject *text)
{
    if (writer_put(self, text, 0) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
writer_writelines(coder_object *self, PyObject *lines)
{
    PyObject *it = PyObject_GetIter(lines);
    if (it == NULL) {
        return NULL;
    }
    PyObject *line;
    while ((line = PyIter_Next(it)) != NULL) {
        int r = writer_put(self, line, 0);
        Py_DECREF(line);
        if (r < 0) {
            Py_DECREF(it);
            return NULL;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
writer_reset(coder_object *self, PyObject *unused)
{
    (void)unused;
    /* As CPython: with nothing pending, reset() writes nothing (not even
       the return to the initial shift state). */
    if (self->npending == 0) {
        Py_RETURN_NONE;
    }
    PyObject *empty = PyUnicode_New(0, 0);
    if (empty == NULL) {
        return NULL;
    }
    int r = writer_put(self, empty, 1);
    Py_DECREF(empty);
    if (r < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef writer_methods[] = {
    {"write", (PyCFunction)writer_write, METH_O, NULL},
    {"writelines", (PyCFunction)writer_writelines, METH_O, NULL},
    {"reset", (PyCFunction)writer_reset, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject WriterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_multibytecodec.MultibyteStreamWriter",
    CODER_TYPE_SLOTS,
    .tp_methods = writer_methods,
    .tp_members = stream_members,
    .tp_new = writer_new,
};

/* ---- The module ---------------------------------------------------------------------------------- */

static struct PyModuleDef multibytecodec_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_multibytecodec",
    .m_doc = "The machinery behind the CJK codecs of the encodings package.",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__multibytecodec(void)
{
    if (ready_types() < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&multibytecodec_module);
    if (m == NULL) {
        return NULL;
    }
    struct {
        const char *name;
        PyTypeObject *type;
    } exported[] = {
        {"MultibyteCodec", &CodecType},
        {"MultibyteIncrementalEncoder", &IncEncoderType},
        {"MultibyteIncrementalDecoder", &IncDecoderType},
        {"MultibyteStreamReader", &ReaderType},
        {"MultibyteStreamWriter", &WriterType},
    };
    for (size_t i = 0; i < sizeof(exported) / sizeof(exported[0]); i++) {
        if (PyModule_AddObjectRef(m, exported[i].name, (PyObject *)exported[i].type) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
