/* _bz2: the BZ2Compressor and BZ2Decompressor types behind the bz2 module,
   over the system libbz2.

   The feeding loops, the output growth and the decompressor protocol
   (eof, unused_data, needs_input, max_length) come from
   compression_stream.h; this file holds the two libbz2 calls and the
   mapping of libbz2's result codes to Python exceptions.

   Built only when configure found libbz2 (HAVE_BZ2). */

#include "Python.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"

#ifdef HAVE_BZ2

#include <bzlib.h>
#include "compression_stream.h"

/* ---- libbz2 plumbing --------------------------------------------------------- */

/* Turn a libbz2 failure into the exception bz2 users expect.  Returns
   -1 when `code` is a failure (exception set), else 0. */
static int
check_bz2(int code)
{
    switch (code) {
    case BZ_OK:
    case BZ_RUN_OK:
    case BZ_FLUSH_OK:
    case BZ_FINISH_OK:
    case BZ_STREAM_END:
        return 0;
    case BZ_DATA_ERROR:
    case BZ_DATA_ERROR_MAGIC:
        PyErr_SetString(PyExc_OSError, "Invalid data stream");
        break;
    case BZ_MEM_ERROR:
        PyErr_NoMemory();
        break;
    case BZ_PARAM_ERROR:
        PyErr_SetString(PyExc_ValueError,
                        "Internal error - invalid parameters passed to libbzip2");
        break;
    case BZ_IO_ERROR:
        PyErr_SetString(PyExc_OSError, "Unknown I/O error");
        break;
    case BZ_UNEXPECTED_EOF:
        PyErr_SetString(PyExc_EOFError,
                        "Compressed file ended before the logical end-of-stream was detected");
        break;
    case BZ_SEQUENCE_ERROR:
        PyErr_SetString(PyExc_RuntimeError,
                        "Internal error - Invalid sequence of commands sent to libbzip2");
        break;
    default:
        PyErr_Format(PyExc_SystemError, "Unrecognized error from libbzip2: %d", code);
        break;
    }
    return -1;
}

static void *
bz_alloc_pymem(void *opaque, int items, int size)
{
    if (items < 0 || size < 0 || (size != 0 && (size_t)items > PY_SSIZE_T_MAX / (size_t)size)) {
        return NULL;
    }
    return PyMem_Malloc((size_t)items * (size_t)size);
}

static void
bz_free_pymem(void *opaque, void *ptr)
{
    PyMem_Free(ptr);
}

static void
bz_prepare(bz_stream *bzs)
{
    memset(bzs, 0, sizeof(*bzs));
    bzs->bzalloc = bz_alloc_pymem;
    bzs->bzfree = bz_free_pymem;
}

/* Load the window (at most 4 GiB each way) and, after the call, take back
   what libbz2 used. */
static unsigned int
bz_load(bz_stream *bzs, const cs_window *w)
{
    bzs->next_in = (char *)w->in;
    bzs->avail_in = cs_clamp_uint(w->in_left);
    bzs->next_out = (char *)w->out;
    bzs->avail_out = cs_clamp_uint(w->out_left);
    return bzs->avail_in;
}

static void
bz_unload(const bz_stream *bzs, cs_window *w)
{
    const unsigned char *in = (const unsigned char *)bzs->next_in;
    unsigned char *out = (unsigned char *)bzs->next_out;
    w->in_left -= (size_t)(in - w->in);
    w->in = in;
    w->out_left -= (size_t)(out - w->out);
    w->out = out;
}

static int
bz_compress_step(void *stream, cs_window *w, int action)
{
    bz_stream *bzs = stream;
    bz_load(bzs, w);
    int rc = BZ2_bzCompress(bzs, action);
    bz_unload(bzs, w);
    if (rc == BZ_PARAM_ERROR && action == BZ_RUN && w->in_left == 0) {
        /* libbz2's way to say a BZ_RUN call had nothing to do. */
        return CS_STALL;
    }
    if (check_bz2(rc) < 0) {
        return CS_ERROR;
    }
    return rc == BZ_STREAM_END ? CS_END : CS_MORE;
}

static int
bz_decompress_step(void *stream, cs_window *w, int unused)
{
    bz_stream *bzs = stream;
    bz_load(bzs, w);
    int rc = BZ2_bzDecompress(bzs);
    bz_unload(bzs, w);
    if (check_bz2(rc) < 0) {
        return CS_ERROR;
    }
    return rc == BZ_STREAM_END ? CS_END : CS_MORE;
}

/* ---- BZ2Compressor --------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    bz_stream bzs;
    char live;      /* bzs initialised */
    char flushed;   /* flush() was called: no more input */
} CompressorObject;

static PyObject *
compressor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (!_PyArg_NoKeywords("BZ2Compressor", kwargs) ||
        !_PyArg_CheckPositional("BZ2Compressor", PyTuple_GET_SIZE(args), 0, 1)) {
        return NULL;
    }
    int level = 9;
    if (PyTuple_GET_SIZE(args) == 1) {
        level = PyLong_AsInt(PyTuple_GET_ITEM(args, 0));
        if (level == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    if (level < 1 || level > 9) {
        PyErr_SetString(PyExc_ValueError, "compresslevel must be between 1 and 9");
        return NULL;
    }
    CompressorObject *c = (CompressorObject *)type->tp_alloc(type, 0);
    if (c == NULL) {
        return NULL;
    }
    bz_prepare(&c->bzs);
    if (check_bz2(BZ2_bzCompressInit(&c->bzs, level, 0, 0)) < 0) {
        Py_DECREF(c);
        return NULL;
    }
    c->live = 1;
    return (PyObject *)c;
}

static void
compressor_dealloc(PyObject *self)
{
    CompressorObject *c = (CompressorObject *)self;
    if (c->live) {
        BZ2_bzCompressEnd(&c->bzs);
    }
    Py_TYPE(self)->tp_free(self);
}

/* Run the compressor over `data` (NULL for none) with `action`. */
static PyObject *
compressor_pass(CompressorObject *c, const Py_buffer *data, int action)
{
    cs_window w = {data ? data->buf : NULL, data ? (size_t)data->len : 0, NULL, 0};
    cs_output out;
    cs_output_init(&out, -1, 0);
    int ended;
    if (cs_run(&c->bzs, bz_compress_step, action, action == BZ_FINISH, &w, &out, &ended) < 0) {
        cs_output_discard(&out);
        return NULL;
    }
    return cs_output_finish(&out);
}

static PyObject *
compressor_compress(PyObject *self, PyObject *arg)
{
    CompressorObject *c = (CompressorObject *)self;
    Py_buffer data;
    if (PyObject_GetBuffer(arg, &data, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    if (c->flushed) {
        PyErr_SetString(PyExc_ValueError, "Compressor has been flushed");
    }
    else {
        result = compressor_pass(c, &data, BZ_RUN);
    }
    PyBuffer_Release(&data);
    return result;
}

static PyObject *
compressor_flush(PyObject *self, PyObject *unused)
{
    CompressorObject *c = (CompressorObject *)self;
    if (c->flushed) {
        PyErr_SetString(PyExc_ValueError, "Repeated call to flush()");
        return NULL;
    }
    c->flushed = 1;
    return compressor_pass(c, NULL, BZ_FINISH);
}

static PyMethodDef compressor_methods[] = {
    {"compress", compressor_compress, METH_O,
     "compress($self, data, /)\n--\n\n"
     "Feed data to the compressor; return the compressed bytes ready so far\n"
     "(often none: bzip2 works in blocks)."},
    {"flush", compressor_flush, METH_NOARGS,
     "flush($self, /)\n--\n\n"
     "End the stream and return the rest of the output; the compressor\n"
     "takes no more data after this."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject Compressor_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_bz2.BZ2Compressor",
    .tp_basicsize = sizeof(CompressorObject),
    .tp_dealloc = compressor_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "BZ2Compressor(compresslevel=9, /)\n--\n\n"
              "Incremental bzip2 compression; compresslevel runs from 1 (fast)\n"
              "to 9 (small).",
    .tp_methods = compressor_methods,
    .tp_new = compressor_new,
};

/* ---- BZ2Decompressor ---------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    bz_stream bzs;
    char live;
    cs_pending pending;
} DecompressorObject;

static PyObject *
decompressor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (!_PyArg_NoKeywords("BZ2Decompressor", kwargs) ||
        !_PyArg_NoPositional("BZ2Decompressor", args)) {
        return NULL;
    }
    DecompressorObject *d = (DecompressorObject *)type->tp_alloc(type, 0);
    if (d == NULL) {
        return NULL;
    }
    if (cs_pending_init(&d->pending, 0) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    bz_prepare(&d->bzs);
    if (check_bz2(BZ2_bzDecompressInit(&d->bzs, 0, 0)) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    d->live = 1;
    return (PyObject *)d;
}

static void
decompressor_dealloc(PyObject *self)
{
    DecompressorObject *d = (DecompressorObject *)self;
    if (d->live) {
        BZ2_bzDecompressEnd(&d->bzs);
    }
    cs_pending_clear(&d->pending);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
decompressor_decompress(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames)
{
    static const char *const kwlist[] = {"data", "max_length", NULL};
    DecompressorObject *d = (DecompressorObject *)self;
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
    PyObject *result = cs_decompress(&d->pending, &d->bzs, bz_decompress_step, 0, &data,
                                     max_length, "End of stream already reached");
    PyBuffer_Release(&data);
    return result;
}

static PyMethodDef decompressor_methods[] = {
    {"decompress", _PyCFunction_CAST(decompressor_decompress), METH_FASTCALL | METH_KEYWORDS,
     "decompress($self, /, data, max_length=-1)\n--\n\n"
     "Decompress data, returning at most max_length bytes when it is not\n"
     "negative; input not yet used is kept for the next call."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef decompressor_members[] = {
    {"eof", Py_T_BOOL, offsetof(DecompressorObject, pending.eof), Py_READONLY,
     "True once the end-of-stream marker was read."},
    {"unused_data", Py_T_OBJECT_EX, offsetof(DecompressorObject, pending.unused_data),
     Py_READONLY, "Bytes found after the end of the compressed stream."},
    {"needs_input", Py_T_BOOL, offsetof(DecompressorObject, pending.needs_input), Py_READONLY,
     "False when decompress() can give more output without new input."},
    {NULL},
};

static PyTypeObject Decompressor_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_bz2.BZ2Decompressor",
    .tp_basicsize = sizeof(DecompressorObject),
    .tp_dealloc = decompressor_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "BZ2Decompressor()\n--\n\n"
              "Incremental decompression of one bzip2 stream.",
    .tp_methods = decompressor_methods,
    .tp_members = decompressor_members,
    .tp_new = decompressor_new,
};

/* ---- The module ---------------------------------------------------------------------- */

static struct PyModuleDef bz2module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_bz2",
    .m_doc = "bzip2 compressor and decompressor objects for the bz2 module (libbz2).",
    .m_size = -1,
};

PyObject *
PyInit__bz2(void)
{
    if (_PyStaticType_InitBuiltin(&Compressor_Type) < 0 ||
        _PyStaticType_InitBuiltin(&Decompressor_Type) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&bz2module);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "BZ2Compressor", (PyObject *)&Compressor_Type) < 0 ||
        PyModule_AddObjectRef(m, "BZ2Decompressor", (PyObject *)&Decompressor_Type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

#endif /* HAVE_BZ2 */
