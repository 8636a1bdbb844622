/* _lzma: LZMACompressor, LZMADecompressor and the filter helpers behind
   the lzma module, over the system liblzma (xz-utils).

   Three concerns, three sections:
   - filter specifiers: the dicts of the Python API ({"id": FILTER_LZMA2,
     "preset": 6, ...}) turned into liblzma's lzma_filter chains and back;
   - the compressor and decompressor objects, whose feeding loops come
     from compression_stream.h;
   - the module: constants, LZMAError, is_check_supported and the
     properties helpers zipfile uses for its LZMA entries.

   Built only when configure found liblzma (HAVE_LZMA). */

#include "Python.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"

#ifdef HAVE_LZMA

#include <lzma.h>
#include "compression_stream.h"

/* The container formats of the Python API (not liblzma names). */
enum { FORMAT_AUTO, FORMAT_XZ, FORMAT_ALONE, FORMAT_RAW };

static PyObject *LzmaError;   /* _lzma.LZMAError */

/* ---- liblzma plumbing -------------------------------------------------------- */

/* Raise for a failed liblzma call; -1 when `rc` is a failure, else 0. */
static int
check_lzma(lzma_ret rc)
{
    const char *what;
    switch (rc) {
    case LZMA_OK:
    case LZMA_STREAM_END:
    case LZMA_GET_CHECK:
    case LZMA_NO_CHECK:
        return 0;
    case LZMA_MEM_ERROR:
        PyErr_NoMemory();
        return -1;
    case LZMA_UNSUPPORTED_CHECK: what = "Unsupported integrity check"; break;
    case LZMA_MEMLIMIT_ERROR: what = "Memory usage limit exceeded"; break;
    case LZMA_FORMAT_ERROR: what = "Input format not supported by decoder"; break;
    case LZMA_OPTIONS_ERROR: what = "Invalid or unsupported options"; break;
    case LZMA_DATA_ERROR: what = "Corrupt input data"; break;
    case LZMA_BUF_ERROR: what = "Insufficient buffer space"; break;
    case LZMA_PROG_ERROR: what = "Internal error"; break;
    default:
        PyErr_Format(LzmaError, "Unrecognized error from liblzma: %d", (int)rc);
        return -1;
    }
    PyErr_SetString(LzmaError, what);
    return -1;
}

static void *
lz_alloc_pymem(void *opaque, size_t items, size_t size)
{
    if (size != 0 && items > PY_SSIZE_T_MAX / size) {
        return NULL;
    }
    return PyMem_Malloc(items * size);
}

static void
lz_free_pymem(void *opaque, void *ptr)
{
    PyMem_Free(ptr);
}

static const lzma_allocator pymem_allocator = {lz_alloc_pymem, lz_free_pymem, NULL};

/* ---- Integer arguments ---------------------------------------------------------- */

/* An int into an unsigned 64-bit value (TypeError for a non-int,
   OverflowError when negative or too large). */
static int
u64_arg(PyObject *obj, uint64_t *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "an integer is required");
        return -1;
    }
    int sign = PyObject_RichCompareBool(obj, Py_False, Py_LT);
    if (sign != 0) {
        if (sign > 0) {
            PyErr_SetString(PyExc_OverflowError, "can't convert negative int to unsigned");
        }
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

static int
u32_arg(PyObject *obj, uint32_t *out)
{
    uint64_t v;
    if (u64_arg(obj, &v) < 0) {
        return -1;
    }
    if (v > UINT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "Value too large for uint32_t type");
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* ---- Filter specifiers -> lzma_filter ------------------------------------------- */

/* The keys of a filter kind besides "id", each a uint32 field of the
   kind's options struct. */
typedef struct {
    const char *key;
    size_t offset;
} spec_field;

static const spec_field lzma_fields[] = {
    {"dict_size", offsetof(lzma_options_lzma, dict_size)},
    {"lc", offsetof(lzma_options_lzma, lc)},
    {"lp", offsetof(lzma_options_lzma, lp)},
    {"pb", offsetof(lzma_options_lzma, pb)},
    {"mode", offsetof(lzma_options_lzma, mode)},
    {"nice_len", offsetof(lzma_options_lzma, nice_len)},
    {"mf", offsetof(lzma_options_lzma, mf)},
    {"depth", offsetof(lzma_options_lzma, depth)},
    {"preset", (size_t)-1},   /* applied first, see lzma_options_from */
    {NULL, 0},
};
static const spec_field delta_fields[] = {
    {"dist", offsetof(lzma_options_delta, dist)},
    {NULL, 0},
};
static const spec_field bcj_fields[] = {
    {"start_offset", offsetof(lzma_options_bcj, start_offset)},
    {NULL, 0},
};

/* The enum fields (mode, mf) are stored through uint32_t too. */
_Static_assert(sizeof(lzma_mode) == sizeof(uint32_t), "lzma_mode is 32 bits");
_Static_assert(sizeof(lzma_match_finder) == sizeof(uint32_t), "lzma_match_finder is 32 bits");

/* Store each entry of `spec` but "id" into `options` by the table;
   an unknown key or a bad value makes -1 (no exception set). */
static int
fill_fields(PyObject *spec, const spec_field *fields, void *options)
{
    PyObject *items = PyMapping_Items(spec);
    if (items == NULL) {
        return -1;
    }
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(items); i++) {
        PyObject *pair = PyList_GET_ITEM(items, i);
        PyObject *key = PyTuple_GET_ITEM(pair, 0);
        const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (name == NULL) {
            rc = -1;
            break;
        }
        if (strcmp(name, "id") == 0) {
            continue;
        }
        const spec_field *f = fields;
        while (f->key != NULL && strcmp(f->key, name) != 0) {
            f++;
        }
        if (f->key == NULL) {
            rc = -1;
        }
        else if (f->offset != (size_t)-1) {
            rc = u32_arg(PyTuple_GET_ITEM(pair, 1), (uint32_t *)((char *)options + f->offset));
        }
    }
    Py_DECREF(items);
    return rc;
}

/* spec[key] as a new reference in *out, NULL when the key is absent. */
static int
spec_lookup(PyObject *spec, const char *key, PyObject **out)
{
    PyObject *name = PyUnicode_FromString(key);
    if (name == NULL) {
        *out = NULL;
        return -1;
    }
    int rc = PyMapping_GetOptionalItem(spec, name, out);
    Py_DECREF(name);
    return rc;
}

/* The options of an LZMA1/LZMA2 filter: the preset's settings, then any
   explicit keys on top of them. */
static void *
lzma_options_from(PyObject *spec)
{
    uint32_t preset = LZMA_PRESET_DEFAULT;
    PyObject *preset_obj;
    if (spec_lookup(spec, "preset", &preset_obj) < 0) {
        return NULL;
    }
    if (preset_obj != NULL) {
        int bad = u32_arg(preset_obj, &preset);
        Py_DECREF(preset_obj);
        if (bad) {
            return NULL;
        }
    }
    lzma_options_lzma *o = PyMem_Calloc(1, sizeof(*o));
    if (o == NULL) {
        return PyErr_NoMemory();
    }
    if (lzma_lzma_preset(o, preset)) {
        PyMem_Free(o);
        PyErr_Format(LzmaError, "Invalid compression preset: %u", (unsigned int)preset);
        return NULL;
    }
    if (fill_fields(spec, lzma_fields, o) < 0) {
        PyMem_Free(o);
        PyErr_SetString(PyExc_ValueError, "Invalid filter specifier for LZMA filter");
        return NULL;
    }
    return o;
}

/* The options of a delta or branch-call-jump filter: zeroed, then the
   kind's defaults, then the spec's keys. */
static void *
simple_options_from(PyObject *spec, size_t size, const spec_field *fields, const char *kind,
                    int is_delta)
{
    void *o = PyMem_Calloc(1, size);
    if (o == NULL) {
        return PyErr_NoMemory();
    }
    if (is_delta) {
        lzma_options_delta *d = o;
        d->type = LZMA_DELTA_TYPE_BYTE;
        d->dist = 1;
    }
    if (fill_fields(spec, fields, o) < 0) {
        PyMem_Free(o);
        PyErr_Format(PyExc_ValueError, "Invalid filter specifier for %s filter", kind);
        return NULL;
    }
    return o;
}

static int
is_bcj_filter(lzma_vli id)
{
    return id == LZMA_FILTER_X86 || id == LZMA_FILTER_POWERPC || id == LZMA_FILTER_IA64 ||
           id == LZMA_FILTER_ARM || id == LZMA_FILTER_ARMTHUMB || id == LZMA_FILTER_SPARC;
}

/* One filter specifier into *f (f->options is PyMem memory). */
static int
filter_from_spec(PyObject *spec, lzma_filter *f)
{
    if (!PyMapping_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "Filter specifier must be a dict or dict-like object");
        return -1;
    }
    PyObject *id_obj;
    if (spec_lookup(spec, "id", &id_obj) < 0) {
        return -1;
    }
    if (id_obj == NULL) {
        PyErr_SetString(PyExc_ValueError, "Filter specifier must have an \"id\" entry");
        return -1;
    }
    uint64_t id;
    int bad = u64_arg(id_obj, &id);
    Py_DECREF(id_obj);
    if (bad) {
        return -1;
    }
    f->id = id;
    if (id == LZMA_FILTER_LZMA1 || id == LZMA_FILTER_LZMA2) {
        f->options = lzma_options_from(spec);
    }
    else if (id == LZMA_FILTER_DELTA) {
        f->options = simple_options_from(spec, sizeof(lzma_options_delta), delta_fields,
                                         "delta", 1);
    }
    else if (is_bcj_filter(id)) {
        f->options = simple_options_from(spec, sizeof(lzma_options_bcj), bcj_fields, "BCJ", 0);
    }
    else {
        PyErr_Format(PyExc_ValueError, "Invalid filter ID: %llu", (unsigned long long)id);
        return -1;
    }
    return f->options == NULL ? -1 : 0;
}

static void
free_chain(lzma_filter *chain)
{
    for (int i = 0; chain[i].id != LZMA_VLI_UNKNOWN; i++) {
        PyMem_Free(chain[i].options);
        chain[i].options = NULL;
    }
}

/* A sequence of specifiers into `chain` (LZMA_FILTERS_MAX + 1 slots,
   terminated by LZMA_VLI_UNKNOWN); free_chain() releases it. */
static int
chain_from_specs(PyObject *specs, lzma_filter *chain)
{
    chain[0].id = LZMA_VLI_UNKNOWN;
    Py_ssize_t n = PySequence_Size(specs);
    if (n < 0) {
        return -1;
    }
    if (n > LZMA_FILTERS_MAX) {
        PyErr_Format(PyExc_ValueError, "Too many filters - liblzma supports a maximum of %d",
                     LZMA_FILTERS_MAX);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *spec = PySequence_GetItem(specs, i);
        int bad = spec == NULL || filter_from_spec(spec, &chain[i]) < 0;
        Py_XDECREF(spec);
        if (bad) {
            chain[i].id = LZMA_VLI_UNKNOWN;   /* a failed entry holds no options */
            free_chain(chain);
            return -1;
        }
        chain[i + 1].id = LZMA_VLI_UNKNOWN;
    }
    return 0;
}

/* ---- lzma_filter -> filter specifier --------------------------------------------- */

static int
put_u64(PyObject *dict, const char *key, uint64_t value)
{
    PyObject *v = PyLong_FromUnsignedLongLong(value);
    if (v == NULL) {
        return -1;
    }
    int rc = PyDict_SetItemString(dict, key, v);
    Py_DECREF(v);
    return rc;
}

/* The specifier of a decoded filter: its id and the options that its
   properties carry. */
static PyObject *
spec_from_filter(const lzma_filter *f)
{
    PyObject *spec = PyDict_New();
    if (spec == NULL || put_u64(spec, "id", f->id) < 0) {
        goto error;
    }
    if (f->id == LZMA_FILTER_LZMA1) {
        const lzma_options_lzma *o = f->options;
        if (put_u64(spec, "lc", o->lc) < 0 || put_u64(spec, "lp", o->lp) < 0 ||
            put_u64(spec, "pb", o->pb) < 0 || put_u64(spec, "dict_size", o->dict_size) < 0) {
            goto error;
        }
    }
    else if (f->id == LZMA_FILTER_LZMA2) {
        const lzma_options_lzma *o = f->options;
        if (put_u64(spec, "dict_size", o->dict_size) < 0) {
            goto error;
        }
    }
    else if (f->id == LZMA_FILTER_DELTA) {
        const lzma_options_delta *o = f->options;
        if (put_u64(spec, "dist", o->dist) < 0) {
            goto error;
        }
    }
    else if (is_bcj_filter(f->id) && f->options != NULL) {
        const lzma_options_bcj *o = f->options;
        if (put_u64(spec, "start_offset", o->start_offset) < 0) {
            goto error;
        }
    }
    return spec;

error:
    Py_XDECREF(spec);
    return NULL;
}

/* ---- The lzma_code step ------------------------------------------------------------ */

typedef struct {
    lzma_stream lzs;
    int check;   /* integrity check seen by a decoder, or LZMA_CHECK_ID_MAX + 1 */
} lzma_job;

static int
lz_step(void *stream, cs_window *w, int action)
{
    lzma_job *job = stream;
    lzma_stream *lzs = &job->lzs;
    lzs->next_in = w->in;
    lzs->avail_in = w->in_left;
    lzs->next_out = w->out;
    lzs->avail_out = w->out_left;
    lzma_ret rc = lzma_code(lzs, (lzma_action)action);
    w->in = lzs->next_in;
    w->in_left = lzs->avail_in;
    w->out = lzs->next_out;
    w->out_left = lzs->avail_out;
    if (rc == LZMA_GET_CHECK || rc == LZMA_NO_CHECK) {
        job->check = (int)lzma_get_check(lzs);
        return CS_MORE;
    }
    if (rc == LZMA_BUF_ERROR) {
        /* No progress was possible: the driver stops here. */
        return CS_STALL;
    }
    if (check_lzma(rc) < 0) {
        return CS_ERROR;
    }
    return rc == LZMA_STREAM_END ? CS_END : CS_MORE;
}

static void
lz_job_prepare(lzma_job *job)
{
    lzma_stream blank = LZMA_STREAM_INIT;
    job->lzs = blank;
    job->lzs.allocator = &pymem_allocator;
    job->check = LZMA_CHECK_ID_MAX + 1;
}

/* ---- LZMACompressor ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    lzma_job job;
    char live;
    char flushed;
} CompressorObject;

/* A compressor's encoder for `format`; `filters` is NULL to use `preset`. */
static int
start_encoder(lzma_stream *lzs, int format, int check, uint32_t preset, PyObject *filters)
{
    lzma_filter chain[LZMA_FILTERS_MAX + 1];
    if (filters != NULL && chain_from_specs(filters, chain) < 0) {
        return -1;
    }
    lzma_ret rc = LZMA_OK;
    if (format == FORMAT_XZ) {
        lzma_check c = check == -1 ? LZMA_CHECK_CRC64 : (lzma_check)check;
        rc = filters ? lzma_stream_encoder(lzs, chain, c) : lzma_easy_encoder(lzs, preset, c);
    }
    else if (format == FORMAT_ALONE && filters == NULL) {
        lzma_options_lzma options;
        if (lzma_lzma_preset(&options, preset)) {
            PyErr_Format(LzmaError, "Invalid compression preset: %u", (unsigned int)preset);
            return -1;
        }
        rc = lzma_alone_encoder(lzs, &options);
    }
    else if (format == FORMAT_ALONE) {
        if (chain[0].id != LZMA_FILTER_LZMA1 || chain[1].id != LZMA_VLI_UNKNOWN) {
            free_chain(chain);
            PyErr_SetString(PyExc_ValueError,
                            "Invalid filter chain for FORMAT_ALONE - must be a single LZMA1 filter");
            return -1;
        }
        rc = lzma_alone_encoder(lzs, chain[0].options);
    }
    else {
        rc = lzma_raw_encoder(lzs, chain);
    }
    if (filters != NULL) {
        free_chain(chain);
    }
    return check_lzma(rc);
}

/* The compressor's argument rules, checked before anything is built. */
static int
check_compressor_args(int format, int check, PyObject *preset, PyObject *filters)
{
    if (check != -1 && format != FORMAT_XZ) {
        PyErr_SetString(PyExc_ValueError, "Integrity checks are only supported by FORMAT_XZ");
        return -1;
    }
    if (preset != NULL && filters != NULL) {
        PyErr_SetString(PyExc_ValueError, "Cannot specify both preset and filter chain");
        return -1;
    }
    if (format < FORMAT_XZ || format > FORMAT_RAW) {
        PyErr_Format(PyExc_ValueError, "Invalid container format: %d", format);
        return -1;
    }
    if (format == FORMAT_RAW && filters == NULL) {
        PyErr_SetString(PyExc_ValueError, "Must specify filters for FORMAT_RAW");
        return -1;
    }
    return 0;
}

/* None counts as absent. */
static PyObject *
absent_if_none(PyObject *obj)
{
    return obj == Py_None ? NULL : obj;
}

static int
int_or(PyObject *obj, int fallback, int *out)
{
    *out = fallback;
    if (obj == NULL) {
        return 0;
    }
    *out = PyLong_AsInt(obj);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static PyObject *
compressor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"format", "check", "preset", "filters", NULL};
    PyObject *a[4];
    int format, check;
    if (!_PyArg_ParseTupleAndKeywordsStack(args, kwargs, "LZMACompressor", kwlist, 0, 4, 0, a) ||
        int_or(a[0], FORMAT_XZ, &format) < 0 || int_or(a[1], -1, &check) < 0) {
        return NULL;
    }
    PyObject *preset_obj = absent_if_none(a[2]), *filters = absent_if_none(a[3]);
    uint32_t preset = LZMA_PRESET_DEFAULT;
    if (check_compressor_args(format, check, preset_obj, filters) < 0 ||
        (preset_obj != NULL && u32_arg(preset_obj, &preset) < 0)) {
        return NULL;
    }
    CompressorObject *c = (CompressorObject *)type->tp_alloc(type, 0);
    if (c == NULL) {
        return NULL;
    }
    lz_job_prepare(&c->job);
    if (start_encoder(&c->job.lzs, format, check, preset, filters) < 0) {
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
        lzma_end(&c->job.lzs);
    }
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
compressor_pass(CompressorObject *c, const Py_buffer *data, lzma_action action)
{
    cs_window w = {data ? data->buf : NULL, data ? (size_t)data->len : 0, NULL, 0};
    cs_output out;
    cs_output_init(&out, -1, 0);
    int ended;
    if (cs_run(&c->job, lz_step, action, action == LZMA_FINISH, &w, &out, &ended) < 0) {
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
        result = compressor_pass(c, &data, LZMA_RUN);
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
    return compressor_pass(c, NULL, LZMA_FINISH);
}

static PyMethodDef compressor_methods[] = {
    {"compress", compressor_compress, METH_O,
     "compress($self, data, /)\n--\n\n"
     "Feed data to the encoder; return the compressed bytes ready so far."},
    {"flush", compressor_flush, METH_NOARGS,
     "flush($self, /)\n--\n\n"
     "End the stream and return the rest of the output; no data is\n"
     "accepted after this."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject Compressor_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_lzma.LZMACompressor",
    .tp_basicsize = sizeof(CompressorObject),
    .tp_dealloc = compressor_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "LZMACompressor(format=FORMAT_XZ, check=-1, preset=None, filters=None)\n--\n\n"
              "Incremental compression to the .xz, .lzma or raw format, from a\n"
              "preset or an explicit filter chain.",
    .tp_methods = compressor_methods,
    .tp_new = compressor_new,
};

/* ---- LZMADecompressor ---------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    lzma_job job;
    char live;
    cs_pending pending;
} DecompressorObject;

static int
start_decoder(lzma_job *job, int format, uint64_t memlimit, PyObject *filters)
{
    const uint32_t tell = LZMA_TELL_ANY_CHECK | LZMA_TELL_NO_CHECK;
    lzma_ret rc;
    switch (format) {
    case FORMAT_AUTO:
        rc = lzma_auto_decoder(&job->lzs, memlimit, tell);
        break;
    case FORMAT_XZ:
        rc = lzma_stream_decoder(&job->lzs, memlimit, tell);
        break;
    case FORMAT_ALONE:
        job->check = LZMA_CHECK_NONE;
        rc = lzma_alone_decoder(&job->lzs, memlimit);
        break;
    default: {
        lzma_filter chain[LZMA_FILTERS_MAX + 1];
        if (chain_from_specs(filters, chain) < 0) {
            return -1;
        }
        job->check = LZMA_CHECK_NONE;
        rc = lzma_raw_decoder(&job->lzs, chain);
        free_chain(chain);
        break;
    }
    }
    return check_lzma(rc);
}

static int
check_decompressor_args(int format, PyObject *memlimit, PyObject *filters)
{
    if (memlimit != NULL && format == FORMAT_RAW) {
        PyErr_SetString(PyExc_ValueError, "Cannot specify memory limit with FORMAT_RAW");
        return -1;
    }
    if (format == FORMAT_RAW && filters == NULL) {
        PyErr_SetString(PyExc_ValueError, "Must specify filters for FORMAT_RAW");
        return -1;
    }
    if (format != FORMAT_RAW && filters != NULL) {
        PyErr_SetString(PyExc_ValueError, "Cannot specify filters except with FORMAT_RAW");
        return -1;
    }
    if (format < FORMAT_AUTO || format > FORMAT_RAW) {
        PyErr_Format(PyExc_ValueError, "Invalid container format: %d", format);
        return -1;
    }
    return 0;
}

static PyObject *
decompressor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"format", "memlimit", "filters", NULL};
    PyObject *a[3];
    int format;
    if (!_PyArg_ParseTupleAndKeywordsStack(args, kwargs, "LZMADecompressor", kwlist, 0, 3, 0, a) ||
        int_or(a[0], FORMAT_AUTO, &format) < 0) {
        return NULL;
    }
    PyObject *limit_obj = absent_if_none(a[1]), *filters = absent_if_none(a[2]);
    uint64_t memlimit = UINT64_MAX;
    if (check_decompressor_args(format, limit_obj, filters) < 0 ||
        (limit_obj != NULL && u64_arg(limit_obj, &memlimit) < 0)) {
        return NULL;
    }
    DecompressorObject *d = (DecompressorObject *)type->tp_alloc(type, 0);
    if (d == NULL) {
        return NULL;
    }
    lz_job_prepare(&d->job);
    if (cs_pending_init(&d->pending, 1) < 0 || start_decoder(&d->job, format, memlimit, filters) < 0) {
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
        lzma_end(&d->job.lzs);
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
    PyObject *result = cs_decompress(&d->pending, &d->job, lz_step, LZMA_RUN, &data, max_length,
                                     "Already at end of stream");
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
    {"check", Py_T_INT, offsetof(DecompressorObject, job.check), Py_READONLY,
     "The stream's integrity check (CHECK_UNKNOWN until it is known)."},
    {"eof", Py_T_BOOL, offsetof(DecompressorObject, pending.eof), Py_READONLY,
     "True once the end of the stream was reached."},
    {"unused_data", Py_T_OBJECT_EX, offsetof(DecompressorObject, pending.unused_data),
     Py_READONLY, "Bytes found after the end of the compressed stream."},
    {"needs_input", Py_T_BOOL, offsetof(DecompressorObject, pending.needs_input), Py_READONLY,
     "False when decompress() can give more output without new input."},
    {NULL},
};

static PyTypeObject Decompressor_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_lzma.LZMADecompressor",
    .tp_basicsize = sizeof(DecompressorObject),
    .tp_dealloc = decompressor_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "LZMADecompressor(format=FORMAT_AUTO, memlimit=None, filters=None)\n--\n\n"
              "Incremental decompression of one .xz, .lzma or raw stream.",
    .tp_methods = decompressor_methods,
    .tp_members = decompressor_members,
    .tp_new = decompressor_new,
};

/* ---- Module functions ------------------------------------------------------------------ */

static PyObject *
lzma_is_check_supported(PyObject *module, PyObject *arg)
{
    int id = PyLong_AsInt(arg);
    if (id == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyBool_FromLong(lzma_check_is_supported((lzma_check)id));
}

static PyObject *
lzma_encode_filter_properties(PyObject *module, PyObject *spec)
{
    lzma_filter f = {LZMA_VLI_UNKNOWN, NULL};
    if (filter_from_spec(spec, &f) < 0) {
        return NULL;
    }
    uint32_t size = 0;
    PyObject *result = NULL;
    if (check_lzma(lzma_properties_size(&size, &f)) == 0) {
        result = PyBytes_FromStringAndSize(NULL, size);
        if (result != NULL &&
            check_lzma(lzma_properties_encode(&f, (uint8_t *)PyBytes_AS_STRING(result))) < 0) {
            Py_CLEAR(result);
        }
    }
    PyMem_Free(f.options);
    return result;
}

static PyObject *
lzma_decode_filter_properties(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("_decode_filter_properties", nargs, 2, 2)) {
        return NULL;
    }
    uint64_t id;
    if (u64_arg(args[0], &id) < 0) {
        return NULL;
    }
    Py_buffer props;
    if (PyObject_GetBuffer(args[1], &props, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    lzma_filter f = {id, NULL};
    lzma_ret rc = lzma_properties_decode(&f, &pymem_allocator, props.buf, (size_t)props.len);
    PyBuffer_Release(&props);
    if (check_lzma(rc) < 0) {
        return NULL;
    }
    PyObject *spec = spec_from_filter(&f);
    PyMem_Free(f.options);   /* liblzma allocated it through pymem_allocator */
    return spec;
}

static PyMethodDef lzma_methods[] = {
    {"is_check_supported", lzma_is_check_supported, METH_O,
     "is_check_supported($module, check_id, /)\n--\n\n"
     "Whether this liblzma can verify the integrity check check_id."},
    {"_encode_filter_properties", lzma_encode_filter_properties, METH_O,
     "_encode_filter_properties($module, filter, /)\n--\n\n"
     "The properties bytes of a filter specifier (as raw containers store them)."},
    {"_decode_filter_properties", _PyCFunction_CAST(lzma_decode_filter_properties), METH_FASTCALL,
     "_decode_filter_properties($module, filter_id, encoded_props, /)\n--\n\n"
     "The filter specifier that properties bytes describe."},
    {NULL, NULL, 0, NULL},
};

/* ---- The module ------------------------------------------------------------------------- */

static PyObject *owner_module;   /* borrowed: the module that made LzmaError */

static void
lzma_module_free(void *m)
{
    if (m == owner_module) {
        Py_CLEAR(LzmaError);
        owner_module = NULL;
    }
}

static struct PyModuleDef lzmamodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_lzma",
    .m_doc = "LZMA and XZ compression for the lzma module, over liblzma.",
    .m_size = -1,
    .m_methods = lzma_methods,
    .m_free = lzma_module_free,
};

static int
add_constants(PyObject *m)
{
    static const struct {
        const char *name;
        unsigned long long value;
    } table[] = {
        {"FORMAT_AUTO", FORMAT_AUTO}, {"FORMAT_XZ", FORMAT_XZ},
        {"FORMAT_ALONE", FORMAT_ALONE}, {"FORMAT_RAW", FORMAT_RAW},
        {"CHECK_NONE", LZMA_CHECK_NONE}, {"CHECK_CRC32", LZMA_CHECK_CRC32},
        {"CHECK_CRC64", LZMA_CHECK_CRC64}, {"CHECK_SHA256", LZMA_CHECK_SHA256},
        {"CHECK_ID_MAX", LZMA_CHECK_ID_MAX}, {"CHECK_UNKNOWN", LZMA_CHECK_ID_MAX + 1},
        {"FILTER_LZMA1", LZMA_FILTER_LZMA1}, {"FILTER_LZMA2", LZMA_FILTER_LZMA2},
        {"FILTER_DELTA", LZMA_FILTER_DELTA}, {"FILTER_X86", LZMA_FILTER_X86},
        {"FILTER_IA64", LZMA_FILTER_IA64}, {"FILTER_ARM", LZMA_FILTER_ARM},
        {"FILTER_ARMTHUMB", LZMA_FILTER_ARMTHUMB}, {"FILTER_SPARC", LZMA_FILTER_SPARC},
        {"FILTER_POWERPC", LZMA_FILTER_POWERPC},
        {"MF_HC3", LZMA_MF_HC3}, {"MF_HC4", LZMA_MF_HC4}, {"MF_BT2", LZMA_MF_BT2},
        {"MF_BT3", LZMA_MF_BT3}, {"MF_BT4", LZMA_MF_BT4},
        {"MODE_FAST", LZMA_MODE_FAST}, {"MODE_NORMAL", LZMA_MODE_NORMAL},
        {"PRESET_DEFAULT", LZMA_PRESET_DEFAULT}, {"PRESET_EXTREME", LZMA_PRESET_EXTREME},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(table); i++) {
        if (PyModule_Add(m, table[i].name, PyLong_FromUnsignedLongLong(table[i].value)) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
lzma_fill(PyObject *m)
{
    if (LzmaError == NULL) {
        LzmaError = PyErr_NewException("_lzma.LZMAError", NULL, NULL);
        if (LzmaError == NULL) {
            return -1;
        }
    }
    if (add_constants(m) < 0 || PyModule_AddObjectRef(m, "LZMAError", LzmaError) < 0 ||
        PyModule_AddObjectRef(m, "LZMACompressor", (PyObject *)&Compressor_Type) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(m, "LZMADecompressor", (PyObject *)&Decompressor_Type);
}

PyObject *
PyInit__lzma(void)
{
    if (_PyStaticType_InitBuiltin(&Compressor_Type) < 0 ||
        _PyStaticType_InitBuiltin(&Decompressor_Type) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&lzmamodule);
    if (m != NULL && lzma_fill(m) < 0) {
        Py_CLEAR(m);
    }
    if (m != NULL) {
        owner_module = m;
    }
    return m;
}

#endif /* HAVE_LZMA */
