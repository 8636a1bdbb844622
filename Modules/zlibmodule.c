/* zlib: deflate compression (RFC 1950/1951/1952) over the system zlib.

   One-shot compress() and decompress(), the streaming Compress and
   Decompress objects made by compressobj() and decompressobj(), the
   _ZlibDecompressor that gzip reads with, and the crc32/adler32
   checksums.  The loops that feed zlib and grow the output are shared
   with _bz2 and _lzma (compression_stream.h); this file only knows how
   to make one zlib call and how zlib reports errors.

   Built only when configure found zlib (HAVE_ZLIB). */

#include "Python.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"

#ifdef HAVE_ZLIB

#include <zlib.h>
#include "compression_stream.h"

#define DEFAULT_WBITS MAX_WBITS
#define DEFAULT_MEM_LEVEL 8
#define DEFAULT_BUF_SIZE (16 * 1024)

static PyObject *ZlibError;   /* zlib.error */

/* ---- Errors ----------------------------------------------------------------- */

/* zlib.error("Error <code> <doing>: <what>"), preferring zlib's own
   message and else a description of the code. */
static void
raise_zlib(int code, const char *zmsg, const char *doing)
{
    const char *what = zmsg;
    if (code == Z_VERSION_ERROR) {
        what = "library version mismatch";
    }
    else if (what == NULL) {
        switch (code) {
        case Z_BUF_ERROR: what = "incomplete or truncated stream"; break;
        case Z_STREAM_ERROR: what = "inconsistent stream state"; break;
        case Z_DATA_ERROR: what = "invalid input data"; break;
        default: break;
        }
    }
    if (what == NULL) {
        PyErr_Format(ZlibError, "Error %d %s", code, doing);
    }
    else {
        PyErr_Format(ZlibError, "Error %d %s: %.200s", code, doing, what);
    }
}

/* ---- Arguments ---------------------------------------------------------------- */

/* An optional int argument: `fallback` when absent. */
static int
int_arg(PyObject *obj, int fallback, int *out)
{
    if (obj == NULL) {
        *out = fallback;
        return 0;
    }
    int v = PyLong_AsInt(obj);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = v;
    return 0;
}

/* An optional Py_ssize_t argument. */
static int
ssize_arg(PyObject *obj, Py_ssize_t fallback, Py_ssize_t *out)
{
    if (obj == NULL) {
        *out = fallback;
        return 0;
    }
    return cs_ssize_arg(obj, out);
}

/* ---- One zlib call ------------------------------------------------------------ */

/* What a step needs besides the window: the stream, the dictionary to
   hand inflate when it asks for one, and the words for error messages. */
typedef struct {
    z_stream *zs;
    PyObject *zdict;       /* a buffer object, or NULL */
    const char *doing;     /* "while compressing data", ... */
} zjob;

/* Load the window into the z_stream (at most 4 GiB each way) and take
   back what zlib used.  Returns how much input was handed over. */
static uInt
window_to_stream(z_stream *zs, const cs_window *w)
{
    zs->next_in = (Bytef *)w->in;
    zs->avail_in = cs_clamp_uint(w->in_left);
    zs->next_out = w->out;
    zs->avail_out = cs_clamp_uint(w->out_left);
    return zs->avail_in;
}

static void
stream_to_window(const z_stream *zs, cs_window *w)
{
    w->in_left -= (size_t)(zs->next_in - w->in);
    w->in = zs->next_in;
    w->out_left -= (size_t)(zs->next_out - w->out);
    w->out = zs->next_out;
}

static int
set_inflate_dict(z_stream *zs, PyObject *zdict)
{
    Py_buffer view;
    if (PyObject_GetBuffer(zdict, &view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    int rc = Z_DATA_ERROR;
    if ((size_t)view.len <= UINT_MAX) {
        rc = inflateSetDictionary(zs, view.buf, (uInt)view.len);
    }
    PyBuffer_Release(&view);
    if (rc != Z_OK) {
        raise_zlib(rc, zs->msg, "while setting zdict");
        return -1;
    }
    return 0;
}

static int
deflate_step(void *job_ptr, cs_window *w, int flush)
{
    zjob *job = job_ptr;
    z_stream *zs = job->zs;
    uInt handed = window_to_stream(zs, w);
    /* A finishing flush must only be asked for once all input is in. */
    int mode = w->in_left > handed ? Z_NO_FLUSH : flush;
    int rc = deflate(zs, mode);
    stream_to_window(zs, w);
    if (rc == Z_STREAM_END) {
        return CS_END;
    }
    if (rc == Z_OK) {
        return CS_MORE;
    }
    if (rc == Z_BUF_ERROR) {
        return w->out_left == 0 ? CS_MORE : CS_STALL;
    }
    raise_zlib(rc, zs->msg, job->doing);
    return CS_ERROR;
}

static int
inflate_step(void *job_ptr, cs_window *w, int flush)
{
    zjob *job = job_ptr;
    z_stream *zs = job->zs;
    window_to_stream(zs, w);
    int rc = inflate(zs, flush);
    stream_to_window(zs, w);
    switch (rc) {
    case Z_OK:
        return CS_MORE;
    case Z_BUF_ERROR:
        /* With Z_FINISH a full output buffer is reported this way too;
           only spare room means inflate truly lacks input. */
        return w->out_left == 0 ? CS_MORE : CS_STALL;
    case Z_STREAM_END:
        return CS_END;
    case Z_NEED_DICT:
        if (job->zdict != NULL) {
            return set_inflate_dict(zs, job->zdict) < 0 ? CS_ERROR : CS_MORE;
        }
        break;
    default:
        break;
    }
    raise_zlib(rc, zs->msg, job->doing);
    return CS_ERROR;
}

/* A z_stream that allocates through PyMem (zlib's default is malloc). */
static voidpf
zalloc_pymem(voidpf opaque, uInt items, uInt size)
{
    return PyMem_Calloc(items, size);
}

static void
zfree_pymem(voidpf opaque, voidpf ptr)
{
    PyMem_Free(ptr);
}

static void
zstream_prepare(z_stream *zs)
{
    memset(zs, 0, sizeof(*zs));
    zs->zalloc = zalloc_pymem;
    zs->zfree = zfree_pymem;
}

/* ---- One-shot functions --------------------------------------------------------- */

static PyObject *
zlib_compress(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "level", "wbits", NULL};
    PyObject *a[3];
    int level, wbits;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "compress", kwlist, 1, 3, 0, a) ||
        int_arg(a[1], Z_DEFAULT_COMPRESSION, &level) < 0 ||
        int_arg(a[2], DEFAULT_WBITS, &wbits) < 0) {
        return NULL;
    }
    Py_buffer data;
    if (PyObject_GetBuffer(a[0], &data, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    z_stream zs;
    zstream_prepare(&zs);
    int rc = deflateInit2(&zs, level, Z_DEFLATED, wbits, DEFAULT_MEM_LEVEL, Z_DEFAULT_STRATEGY);
    if (rc != Z_OK) {
        PyBuffer_Release(&data);
        if (rc == Z_MEM_ERROR) {
            return PyErr_NoMemory();
        }
        if (rc == Z_STREAM_ERROR) {
            PyErr_SetString(ZlibError, "Bad compression level");
        }
        else {
            raise_zlib(rc, zs.msg, "while compressing data");
        }
        return NULL;
    }
    zjob job = {&zs, NULL, "while compressing data"};
    cs_window w = {data.buf, (size_t)data.len, NULL, 0};
    cs_output out;
    /* Deflate rarely grows data much: start near the input size. */
    cs_output_init(&out, -1, data.len / 2 + 64);
    int ended;
    int failed = cs_run(&job, deflate_step, Z_FINISH, 1, &w, &out, &ended) < 0;
    deflateEnd(&zs);
    PyBuffer_Release(&data);
    if (failed) {
        cs_output_discard(&out);
        return NULL;
    }
    return cs_output_finish(&out);
}

static PyObject *
zlib_decompress(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "wbits", "bufsize", NULL};
    PyObject *a[3];
    int wbits;
    Py_ssize_t bufsize;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "decompress", kwlist, 1, 3, 0, a) ||
        int_arg(a[1], DEFAULT_WBITS, &wbits) < 0 ||
        ssize_arg(a[2], DEFAULT_BUF_SIZE, &bufsize) < 0) {
        return NULL;
    }
    if (bufsize < 0) {
        PyErr_SetString(PyExc_ValueError, "bufsize must be non-negative");
        return NULL;
    }
    Py_buffer data;
    if (PyObject_GetBuffer(a[0], &data, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    z_stream zs;
    zstream_prepare(&zs);
    int rc = inflateInit2(&zs, wbits);
    if (rc != Z_OK) {
        PyBuffer_Release(&data);
        if (rc == Z_MEM_ERROR) {
            return PyErr_NoMemory();
        }
        raise_zlib(rc, zs.msg, "while preparing to decompress data");
        return NULL;
    }
    zjob job = {&zs, NULL, "while decompressing data"};
    cs_window w = {data.buf, (size_t)data.len, NULL, 0};
    cs_output out;
    cs_output_init(&out, -1, bufsize > 0 ? bufsize : 1);
    int ended = 0;
    int failed = cs_run(&job, inflate_step, Z_NO_FLUSH, 0, &w, &out, &ended) < 0;
    if (!failed && !ended) {
        raise_zlib(Z_BUF_ERROR, NULL, "while decompressing data");
        failed = 1;
    }
    inflateEnd(&zs);
    PyBuffer_Release(&data);
    if (failed) {
        cs_output_discard(&out);
        return NULL;
    }
    return cs_output_finish(&out);
}

/* ---- Checksums ------------------------------------------------------------------ */

typedef uLong (*checksum_fn)(uLong, const Bytef *, uInt);

/* crc32/adler32(data, value=start): fed in pieces that fit a uInt. */
static PyObject *
run_checksum(const char *fname, checksum_fn fn, unsigned long start, PyObject *const *args,
             Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional(fname, nargs, 1, 2)) {
        return NULL;
    }
    unsigned long value = start;
    if (nargs == 2) {
        value = PyLong_AsUnsignedLongMask(args[1]);
        if (value == (unsigned long)-1 && PyErr_Occurred()) {
            return NULL;
        }
        value &= 0xFFFFFFFFUL;
    }
    Py_buffer data;
    if (PyObject_GetBuffer(args[0], &data, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    const Bytef *p = data.buf;
    size_t left = (size_t)data.len;
    do {
        uInt piece = cs_clamp_uint(left);
        value = fn(value, p, piece);
        p += piece;
        left -= piece;
    } while (left > 0);
    PyBuffer_Release(&data);
    return PyLong_FromUnsignedLong(value & 0xFFFFFFFFUL);
}

static PyObject *
zlib_crc32(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    return run_checksum("crc32", crc32, 0, args, nargs);
}

static PyObject *
zlib_adler32(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    return run_checksum("adler32", adler32, 1, args, nargs);
}

/* ---- The streaming objects (zlibstreams) --------------------------------------- */

/* zlib.Compress, zlib.Decompress and zlib._ZlibDecompressor live in this
   file too: they share the steps above. */

typedef struct {
    PyObject_HEAD
    z_stream zs;
    char live;            /* zs is initialised (not yet ended) */
} CompressObject;

typedef struct {
    PyObject_HEAD
    z_stream zs;
    char live;
    char eof;
    PyObject *zdict;           /* or NULL */
    PyObject *unused_data;     /* bytes after the end of the stream */
    PyObject *unconsumed_tail; /* input a max_length left unread */
} DecompressObject;

typedef struct {
    PyObject_HEAD
    z_stream zs;
    char live;
    PyObject *zdict;
    cs_pending pending;
} ZlibDecompressorObject;

static PyTypeObject Compress_Type;
static PyTypeObject Decompress_Type;
static PyTypeObject ZlibDecompressor_Type;

static void
inconsistent_state(void)
{
    PyErr_SetString(PyExc_ValueError, "Inconsistent stream state");
}

/* A zdict argument as a new reference (NULL for None or absent). */
static int
zdict_arg(PyObject *obj, PyObject **out)
{
    *out = NULL;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    if (!PyObject_CheckBuffer(obj)) {
        PyErr_SetString(PyExc_TypeError, "zdict argument must support the buffer protocol");
        return -1;
    }
    *out = Py_NewRef(obj);
    return 0;
}

/* Feed `data` through the stream with `flush`, for the streaming
   objects' compress and flush. */
static PyObject *
stream_pass(z_stream *zs, cs_step step, const Py_buffer *data, int flush, int to_end,
            const char *doing, int *ended)
{
    zjob job = {zs, NULL, doing};
    cs_window w = {data ? data->buf : NULL, data ? (size_t)data->len : 0, NULL, 0};
    cs_output out;
    cs_output_init(&out, -1, DEFAULT_BUF_SIZE);
    if (cs_run(&job, step, flush, to_end, &w, &out, ended) < 0) {
        cs_output_discard(&out);
        return NULL;
    }
    return cs_output_finish(&out);
}

/* ---- Compress ------------------------------------------------------------------- */

static void
compress_dealloc(PyObject *self)
{
    CompressObject *c = (CompressObject *)self;
    if (c->live) {
        deflateEnd(&c->zs);
    }
    PyObject_Free(self);
}

static PyObject *
zlib_compressobj(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"level", "method", "wbits", "memLevel", "strategy",
                                         "zdict", NULL};
    PyObject *a[6];
    int level, method, wbits, mem_level, strategy;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "compressobj", kwlist, 0, 6, 0, a) ||
        int_arg(a[0], Z_DEFAULT_COMPRESSION, &level) < 0 ||
        int_arg(a[1], Z_DEFLATED, &method) < 0 || int_arg(a[2], DEFAULT_WBITS, &wbits) < 0 ||
        int_arg(a[3], DEFAULT_MEM_LEVEL, &mem_level) < 0 ||
        int_arg(a[4], Z_DEFAULT_STRATEGY, &strategy) < 0) {
        return NULL;
    }
    Py_buffer dict = {0};
    if (a[5] != NULL && a[5] != Py_None && PyObject_GetBuffer(a[5], &dict, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    CompressObject *c = PyObject_New(CompressObject, &Compress_Type);
    if (c == NULL) {
        goto error;
    }
    c->live = 0;
    zstream_prepare(&c->zs);
    int rc = deflateInit2(&c->zs, level, method, wbits, mem_level, strategy);
    if (rc == Z_MEM_ERROR) {
        PyErr_SetString(PyExc_MemoryError, "Can't allocate memory for compression object");
        goto error;
    }
    if (rc == Z_STREAM_ERROR) {
        PyErr_SetString(PyExc_ValueError, "Invalid initialization option");
        goto error;
    }
    if (rc != Z_OK) {
        raise_zlib(rc, c->zs.msg, "while creating compression object");
        goto error;
    }
    c->live = 1;
    if (dict.obj != NULL) {
        if ((size_t)dict.len > UINT_MAX ||
            deflateSetDictionary(&c->zs, dict.buf, (uInt)dict.len) != Z_OK) {
            PyErr_SetString(PyExc_ValueError, "Invalid dictionary");
            goto error;
        }
        PyBuffer_Release(&dict);
    }
    return (PyObject *)c;

error:
    if (dict.obj != NULL) {
        PyBuffer_Release(&dict);
    }
    Py_XDECREF(c);
    return NULL;
}

static PyObject *
compress_compress(PyObject *self, PyObject *arg)
{
    CompressObject *c = (CompressObject *)self;
    Py_buffer data;
    if (PyObject_GetBuffer(arg, &data, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result;
    if (!c->live) {
        raise_zlib(Z_STREAM_ERROR, NULL, "while compressing data");
        result = NULL;
    }
    else {
        int ended;
        result = stream_pass(&c->zs, deflate_step, &data, Z_NO_FLUSH, 0, "while compressing data",
                             &ended);
    }
    PyBuffer_Release(&data);
    return result;
}

static PyObject *
compress_flush(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    CompressObject *c = (CompressObject *)self;
    int mode = Z_FINISH;
    if (!_PyArg_CheckPositional("flush", nargs, 0, 1) ||
        int_arg(nargs > 0 ? args[0] : NULL, Z_FINISH, &mode) < 0) {
        return NULL;
    }
    if (mode == Z_NO_FLUSH) {
        return PyBytes_FromStringAndSize(NULL, 0);
    }
    if (!c->live) {
        raise_zlib(Z_STREAM_ERROR, NULL, "while flushing");
        return NULL;
    }
    int ended = 0;
    PyObject *result = stream_pass(&c->zs, deflate_step, NULL, mode, mode == Z_FINISH,
                                   "while flushing", &ended);
    if (result != NULL && ended) {
        deflateEnd(&c->zs);
        c->live = 0;
    }
    return result;
}

static PyObject *
compress_copy(PyObject *self, PyObject *unused)
{
    CompressObject *c = (CompressObject *)self;
    if (!c->live) {
        inconsistent_state();
        return NULL;
    }
    CompressObject *twin = PyObject_New(CompressObject, &Compress_Type);
    if (twin == NULL) {
        return NULL;
    }
    twin->live = 0;
    int rc = deflateCopy(&twin->zs, &c->zs);
    if (rc != Z_OK) {
        if (rc == Z_MEM_ERROR) {
            PyErr_SetString(PyExc_MemoryError, "Can't allocate memory for compression object");
        }
        else if (rc == Z_STREAM_ERROR) {
            inconsistent_state();
        }
        else {
            raise_zlib(rc, c->zs.msg, "while copying compression object");
        }
        Py_DECREF(twin);
        return NULL;
    }
    twin->live = 1;
    return (PyObject *)twin;
}

static PyObject *
compress_deepcopy(PyObject *self, PyObject *memo)
{
    return compress_copy(self, NULL);
}

static PyMethodDef compress_methods[] = {
    {"compress", compress_compress, METH_O,
     "compress($self, data, /)\n--\n\n"
     "Deflate data; return what is ready of the output so far."},
    {"flush", _PyCFunction_CAST(compress_flush), METH_FASTCALL,
     "flush($self, mode=zlib.Z_FINISH, /)\n--\n\n"
     "Emit the pending output; Z_FINISH also ends the stream."},
    {"copy", compress_copy, METH_NOARGS,
     "copy($self, /)\n--\n\nAn independent compressor in the same state."},
    {"__copy__", compress_copy, METH_NOARGS, "The same as copy()."},
    {"__deepcopy__", compress_deepcopy, METH_O, "The same as copy()."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject Compress_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "zlib.Compress",
    .tp_basicsize = sizeof(CompressObject),
    .tp_dealloc = compress_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "A deflate stream being written; made by zlib.compressobj().",
    .tp_methods = compress_methods,
};

/* ---- Decompress ----------------------------------------------------------------- */

static void
decompress_dealloc(PyObject *self)
{
    DecompressObject *d = (DecompressObject *)self;
    if (d->live) {
        inflateEnd(&d->zs);
    }
    Py_XDECREF(d->zdict);
    Py_XDECREF(d->unused_data);
    Py_XDECREF(d->unconsumed_tail);
    PyObject_Free(self);
}

static DecompressObject *
decompress_alloc(void)
{
    DecompressObject *d = PyObject_New(DecompressObject, &Decompress_Type);
    if (d == NULL) {
        return NULL;
    }
    d->live = d->eof = 0;
    d->zdict = NULL;
    d->unused_data = PyBytes_FromStringAndSize(NULL, 0);
    d->unconsumed_tail = Py_NewRef(d->unused_data);
    if (d->unused_data == NULL) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

/* Raise for a failed inflateInit2 of a streaming object. */
static void
raise_inflate_init(int rc, z_stream *zs)
{
    if (rc == Z_MEM_ERROR) {
        PyErr_SetString(PyExc_MemoryError, "Can't allocate memory for decompression object");
    }
    else if (rc == Z_STREAM_ERROR) {
        PyErr_SetString(PyExc_ValueError, "Invalid initialization option");
    }
    else {
        raise_zlib(rc, zs->msg, "while creating decompression object");
    }
}

/* inflateInit2 for a streaming object; a raw stream (wbits < 0) never
   asks for its dictionary, so it is given up front. */
static int
start_inflate(z_stream *zs, int wbits, PyObject *zdict)
{
    zstream_prepare(zs);
    int rc = inflateInit2(zs, wbits);
    if (rc != Z_OK) {
        raise_inflate_init(rc, zs);
        return -1;
    }
    if (zdict != NULL && wbits < 0 && set_inflate_dict(zs, zdict) < 0) {
        inflateEnd(zs);
        return -1;
    }
    return 0;
}

static PyObject *
zlib_decompressobj(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"wbits", "zdict", NULL};
    PyObject *a[2];
    int wbits;
    PyObject *zdict;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "decompressobj", kwlist, 0, 2, 0, a) ||
        int_arg(a[0], DEFAULT_WBITS, &wbits) < 0 || zdict_arg(a[1], &zdict) < 0) {
        return NULL;
    }
    DecompressObject *d = decompress_alloc();
    if (d == NULL) {
        Py_XDECREF(zdict);
        return NULL;
    }
    d->zdict = zdict;
    if (start_inflate(&d->zs, wbits, zdict) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    d->live = 1;
    return (PyObject *)d;
}

/* After a pass: input past the end of the stream joins unused_data;
   input a max_length left unread becomes unconsumed_tail. */
static int
decompress_keep_input(DecompressObject *d, const cs_window *w, int ended)
{
    PyObject *rest = PyBytes_FromStringAndSize((const char *)w->in, (Py_ssize_t)w->in_left);
    if (rest == NULL) {
        return -1;
    }
    if (!ended) {
        Py_SETREF(d->unconsumed_tail, rest);
        return 0;
    }
    d->eof = 1;
    if (PyBytes_GET_SIZE(rest) > 0) {
        PyObject *joined = PySequence_Concat(d->unused_data, rest);
        if (joined == NULL) {
            Py_DECREF(rest);
            return -1;
        }
        Py_SETREF(d->unused_data, joined);
    }
    Py_DECREF(rest);
    Py_SETREF(d->unconsumed_tail, PyBytes_FromStringAndSize(NULL, 0));
    return d->unconsumed_tail == NULL ? -1 : 0;
}

/* Inflate `in`/`in_len` with `flush`: the shared body of decompress()
   and flush(). */
static PyObject *
decompress_pass(DecompressObject *d, const void *in, size_t in_len, int flush, int to_end,
                Py_ssize_t cap, Py_ssize_t first, const char *doing, int *ended)
{
    zjob job = {&d->zs, d->zdict, doing};
    cs_window w = {in, in_len, NULL, 0};
    cs_output out;
    cs_output_init(&out, cap, first);
    if (cs_run(&job, inflate_step, flush, to_end, &w, &out, ended) < 0 ||
        decompress_keep_input(d, &w, *ended) < 0) {
        cs_output_discard(&out);
        return NULL;
    }
    return cs_output_finish(&out);
}

static PyObject *
decompress_decompress(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "max_length", NULL};
    DecompressObject *d = (DecompressObject *)self;
    PyObject *a[2];
    Py_ssize_t max_length;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "decompress", kwlist, 1, 2, 0, a) ||
        ssize_arg(a[1], 0, &max_length) < 0) {
        return NULL;
    }
    if (max_length < 0) {
        PyErr_SetString(PyExc_ValueError, "max_length must be non-negative");
        return NULL;
    }
    Py_buffer data;
    if (PyObject_GetBuffer(a[0], &data, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    if (!d->live) {
        raise_zlib(Z_STREAM_ERROR, NULL, "while decompressing data");
    }
    else {
        int ended;
        result = decompress_pass(d, data.buf, (size_t)data.len, Z_SYNC_FLUSH, 0,
                                 max_length == 0 ? -1 : max_length, DEFAULT_BUF_SIZE,
                                 "while decompressing data", &ended);
    }
    PyBuffer_Release(&data);
    return result;
}

static PyObject *
decompress_flush(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    DecompressObject *d = (DecompressObject *)self;
    Py_ssize_t length;
    if (!_PyArg_CheckPositional("flush", nargs, 0, 1) ||
        ssize_arg(nargs > 0 ? args[0] : NULL, DEFAULT_BUF_SIZE, &length) < 0) {
        return NULL;
    }
    if (length <= 0) {
        PyErr_SetString(PyExc_ValueError, "length must be greater than zero");
        return NULL;
    }
    if (!d->live) {
        /* An earlier flush ended the stream: nothing is left. */
        return PyBytes_FromStringAndSize(NULL, 0);
    }
    /* The tail is replaced during the pass, so hold on to it. */
    PyObject *tail = Py_NewRef(d->unconsumed_tail);
    int ended = 0;
    PyObject *result = decompress_pass(d, PyBytes_AS_STRING(tail), (size_t)PyBytes_GET_SIZE(tail),
                                       Z_FINISH, 1, -1, length, "while flushing", &ended);
    Py_DECREF(tail);
    if (result != NULL && ended) {
        inflateEnd(&d->zs);
        d->live = 0;
    }
    return result;
}

static PyObject *
decompress_copy(PyObject *self, PyObject *unused)
{
    DecompressObject *d = (DecompressObject *)self;
    if (!d->live) {
        inconsistent_state();
        return NULL;
    }
    DecompressObject *twin = decompress_alloc();
    if (twin == NULL) {
        return NULL;
    }
    int rc = inflateCopy(&twin->zs, &d->zs);
    if (rc != Z_OK) {
        if (rc == Z_MEM_ERROR) {
            PyErr_SetString(PyExc_MemoryError, "Can't allocate memory for decompression object");
        }
        else {
            inconsistent_state();
        }
        Py_DECREF(twin);
        return NULL;
    }
    twin->live = 1;
    twin->eof = d->eof;
    twin->zdict = Py_XNewRef(d->zdict);
    Py_SETREF(twin->unused_data, Py_NewRef(d->unused_data));
    Py_SETREF(twin->unconsumed_tail, Py_NewRef(d->unconsumed_tail));
    return (PyObject *)twin;
}

static PyObject *
decompress_deepcopy(PyObject *self, PyObject *memo)
{
    return decompress_copy(self, NULL);
}

static PyMethodDef decompress_methods[] = {
    {"decompress", _PyCFunction_CAST(decompress_decompress), METH_FASTCALL | METH_KEYWORDS,
     "decompress($self, data, /, max_length=0)\n--\n\n"
     "Inflate data; with max_length > 0 at most that many bytes come back\n"
     "and the unread input waits in unconsumed_tail."},
    {"flush", _PyCFunction_CAST(decompress_flush), METH_FASTCALL,
     "flush($self, length=zlib.DEF_BUF_SIZE, /)\n--\n\n"
     "Inflate whatever input is left and return all remaining output."},
    {"copy", decompress_copy, METH_NOARGS,
     "copy($self, /)\n--\n\nAn independent decompressor in the same state."},
    {"__copy__", decompress_copy, METH_NOARGS, "The same as copy()."},
    {"__deepcopy__", decompress_deepcopy, METH_O, "The same as copy()."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef decompress_members[] = {
    {"unused_data", Py_T_OBJECT_EX, offsetof(DecompressObject, unused_data), Py_READONLY,
     "Bytes found after the end of the compressed stream."},
    {"unconsumed_tail", Py_T_OBJECT_EX, offsetof(DecompressObject, unconsumed_tail), Py_READONLY,
     "Input not yet read because max_length was reached."},
    {"eof", Py_T_BOOL, offsetof(DecompressObject, eof), Py_READONLY,
     "True once the end of the stream was seen."},
    {NULL},
};

static PyTypeObject Decompress_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "zlib.Decompress",
    .tp_basicsize = sizeof(DecompressObject),
    .tp_dealloc = decompress_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "A deflate stream being read; made by zlib.decompressobj().",
    .tp_methods = decompress_methods,
    .tp_members = decompress_members,
};

/* ---- _ZlibDecompressor ---------------------------------------------------------- */

static PyObject *
zdecomp_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"wbits", "zdict", NULL};
    PyObject *a[2];
    int wbits;
    PyObject *zdict;
    if (!_PyArg_ParseTupleAndKeywordsStack(args, kwargs, "_ZlibDecompressor", kwlist, 0, 2, 0, a) ||
        int_arg(a[0], DEFAULT_WBITS, &wbits) < 0 || zdict_arg(a[1], &zdict) < 0) {
        return NULL;
    }
    ZlibDecompressorObject *z = (ZlibDecompressorObject *)type->tp_alloc(type, 0);
    if (z == NULL) {
        Py_XDECREF(zdict);
        return NULL;
    }
    z->zdict = zdict;
    if (cs_pending_init(&z->pending, 0) < 0 || start_inflate(&z->zs, wbits, zdict) < 0) {
        Py_DECREF(z);
        return NULL;
    }
    z->live = 1;
    return (PyObject *)z;
}

static void
zdecomp_dealloc(PyObject *self)
{
    ZlibDecompressorObject *z = (ZlibDecompressorObject *)self;
    if (z->live) {
        inflateEnd(&z->zs);
    }
    Py_XDECREF(z->zdict);
    cs_pending_clear(&z->pending);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
zdecomp_decompress(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"data", "max_length", NULL};
    ZlibDecompressorObject *z = (ZlibDecompressorObject *)self;
    PyObject *a[2];
    Py_ssize_t max_length;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "decompress", kwlist, 1, 2, 0, a) ||
        cs_max_length_arg(a[1], &max_length) < 0) {
        return NULL;
    }
    Py_buffer data;
    if (PyObject_GetBuffer(a[0], &data, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    zjob job = {&z->zs, z->zdict, "while decompressing data"};
    PyObject *result = cs_decompress(&z->pending, &job, inflate_step, Z_SYNC_FLUSH, &data,
                                     max_length, "End of stream already reached");
    PyBuffer_Release(&data);
    return result;
}

static PyMethodDef zdecomp_methods[] = {
    {"decompress", _PyCFunction_CAST(zdecomp_decompress), METH_FASTCALL | METH_KEYWORDS,
     "decompress($self, /, data, max_length=-1)\n--\n\n"
     "Inflate data, returning at most max_length bytes when it is not\n"
     "negative; input not yet used is kept for the next call."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef zdecomp_members[] = {
    {"eof", Py_T_BOOL, offsetof(ZlibDecompressorObject, pending.eof), Py_READONLY,
     "True once the end of the stream was seen."},
    {"unused_data", Py_T_OBJECT_EX, offsetof(ZlibDecompressorObject, pending.unused_data),
     Py_READONLY, "Bytes found after the end of the compressed stream."},
    {"needs_input", Py_T_BOOL, offsetof(ZlibDecompressorObject, pending.needs_input), Py_READONLY,
     "False when decompress() can give more output without new input."},
    {NULL},
};

static PyTypeObject ZlibDecompressor_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "zlib._ZlibDecompressor",
    .tp_basicsize = sizeof(ZlibDecompressorObject),
    .tp_dealloc = zdecomp_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "_ZlibDecompressor(wbits=15, zdict=b'')\n--\n\n"
              "A one-stream deflate reader with a max_length cap, as gzip uses.",
    .tp_methods = zdecomp_methods,
    .tp_members = zdecomp_members,
    .tp_new = zdecomp_new,
};

/* ---- The module ------------------------------------------------------------------ */

static PyMethodDef zlib_methods[] = {
    {"compress", _PyCFunction_CAST(zlib_compress), METH_FASTCALL | METH_KEYWORDS,
     "compress($module, data, /, level=Z_DEFAULT_COMPRESSION, wbits=MAX_WBITS)\n--\n\n"
     "Deflate data in one go."},
    {"decompress", _PyCFunction_CAST(zlib_decompress), METH_FASTCALL | METH_KEYWORDS,
     "decompress($module, data, /, wbits=MAX_WBITS, bufsize=DEF_BUF_SIZE)\n--\n\n"
     "Inflate one complete stream; bufsize is only the first output size."},
    {"compressobj", _PyCFunction_CAST(zlib_compressobj), METH_FASTCALL | METH_KEYWORDS,
     "compressobj($module, /, level=Z_DEFAULT_COMPRESSION, method=DEFLATED,\n"
     "            wbits=MAX_WBITS, memLevel=DEF_MEM_LEVEL,\n"
     "            strategy=Z_DEFAULT_STRATEGY, zdict=None)\n--\n\n"
     "A Compress object for data that arrives in pieces."},
    {"decompressobj", _PyCFunction_CAST(zlib_decompressobj), METH_FASTCALL | METH_KEYWORDS,
     "decompressobj($module, /, wbits=MAX_WBITS, zdict=b'')\n--\n\n"
     "A Decompress object for data that arrives in pieces."},
    {"crc32", _PyCFunction_CAST(zlib_crc32), METH_FASTCALL,
     "crc32($module, data, value=0, /)\n--\n\n"
     "The CRC-32 of data, continuing from value."},
    {"adler32", _PyCFunction_CAST(zlib_adler32), METH_FASTCALL,
     "adler32($module, data, value=1, /)\n--\n\n"
     "The Adler-32 checksum of data, continuing from value."},
    {NULL, NULL, 0, NULL},
};

/* The module that made ZlibError (borrowed), so it goes with it at exit. */
static PyObject *owner_module;

static void
zlib_module_free(void *m)
{
    if (m == owner_module) {
        Py_CLEAR(ZlibError);
        owner_module = NULL;
    }
}

static struct PyModuleDef zlibmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "zlib",
    .m_doc = "Deflate compression and decompression (zlib, gzip and raw formats)\n"
             "and the CRC-32 and Adler-32 checksums, over the system zlib.",
    .m_size = -1,
    .m_methods = zlib_methods,
    .m_free = zlib_module_free,
};

static int
add_int_constants(PyObject *m)
{
    static const struct {
        const char *name;
        int value;
    } table[] = {
        {"MAX_WBITS", MAX_WBITS}, {"DEFLATED", Z_DEFLATED},
        {"DEF_MEM_LEVEL", DEFAULT_MEM_LEVEL}, {"DEF_BUF_SIZE", DEFAULT_BUF_SIZE},
        {"Z_NO_COMPRESSION", Z_NO_COMPRESSION}, {"Z_BEST_SPEED", Z_BEST_SPEED},
        {"Z_BEST_COMPRESSION", Z_BEST_COMPRESSION},
        {"Z_DEFAULT_COMPRESSION", Z_DEFAULT_COMPRESSION}, {"Z_FILTERED", Z_FILTERED},
        {"Z_HUFFMAN_ONLY", Z_HUFFMAN_ONLY}, {"Z_RLE", Z_RLE}, {"Z_FIXED", Z_FIXED},
        {"Z_DEFAULT_STRATEGY", Z_DEFAULT_STRATEGY}, {"Z_NO_FLUSH", Z_NO_FLUSH},
        {"Z_PARTIAL_FLUSH", Z_PARTIAL_FLUSH}, {"Z_SYNC_FLUSH", Z_SYNC_FLUSH},
        {"Z_FULL_FLUSH", Z_FULL_FLUSH}, {"Z_FINISH", Z_FINISH}, {"Z_BLOCK", Z_BLOCK},
        {"Z_TREES", Z_TREES},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(table); i++) {
        if (PyModule_AddIntConstant(m, table[i].name, table[i].value) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
zlib_fill(PyObject *m)
{
    if (ZlibError == NULL) {
        ZlibError = PyErr_NewException("zlib.error", NULL, NULL);
        if (ZlibError == NULL) {
            return -1;
        }
    }
    if (add_int_constants(m) < 0 || PyModule_AddObjectRef(m, "error", ZlibError) < 0 ||
        PyModule_AddObjectRef(m, "_ZlibDecompressor", (PyObject *)&ZlibDecompressor_Type) < 0 ||
        PyModule_AddStringConstant(m, "ZLIB_VERSION", ZLIB_VERSION) < 0) {
        return -1;
    }
    return PyModule_AddStringConstant(m, "ZLIB_RUNTIME_VERSION", zlibVersion());
}

PyObject *
PyInit_zlib(void)
{
    if (_PyStaticType_InitBuiltin(&Compress_Type) < 0 ||
        _PyStaticType_InitBuiltin(&Decompress_Type) < 0 ||
        _PyStaticType_InitBuiltin(&ZlibDecompressor_Type) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&zlibmodule);
    if (m != NULL && zlib_fill(m) < 0) {
        Py_CLEAR(m);
    }
    if (m != NULL) {
        owner_module = m;
    }
    return m;
}

#endif /* HAVE_ZLIB */
