/* memoryview: views of buffer-protocol memory.

   memoryview(obj) asks obj for one export (PyBUF_FULL_RO) and keeps it in
   a small holder object.  Every view derived from it (slices, casts,
   toreadonly(), memoryview(view)) points at the same holder and carries
   its own ndim/shape/strides/format; the export is released when the
   last view is released or dies.  That is what makes
   `bytearray.append` raise BufferError while a view is alive and work
   again after view.release().

   Elements are read and written for the native single-character struct
   formats ("@" prefix allowed); other formats can be viewed, copied and
   cast from, but not indexed. */

#include "Python.h"
#include "pycore_bytesobject.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"

#ifdef WORDS_BIGENDIAN
#  define NATIVE_LITTLE 0
#else
#  define NATIVE_LITTLE 1
#endif

/* ---- The export holder ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Py_buffer master;
} bufholder;

static void
bufholder_dealloc(PyObject *op)
{
    bufholder *h = (bufholder *)op;
    if (h->master.obj != NULL) {
        PyBuffer_Release(&h->master);
    }
    PyObject_Free(op);
}

static PyTypeObject BufHolder_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "memoryview_export",
    .tp_basicsize = sizeof(bufholder),
    .tp_dealloc = bufholder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
};

static bufholder *
holder_new(void)
{
    if (_PyStaticType_InitBuiltin(&BufHolder_Type) < 0) {
        return NULL;
    }
    bufholder *h = PyObject_New(bufholder, &BufHolder_Type);
    if (h != NULL) {
        memset(&h->master, 0, sizeof(h->master));
    }
    return h;
}

/* ---- Formats ------------------------------------------------------------------------------ */

typedef struct {
    char code;
    const char *name;
    Py_ssize_t size;
} fmtinfo;

static const fmtinfo native_formats[] = {
    {'?', "?", sizeof(_Bool)},
    {'c', "c", 1},
    {'b', "b", 1},
    {'B', "B", 1},
    {'h', "h", sizeof(short)},
    {'H', "H", sizeof(short)},
    {'i', "i", sizeof(int)},
    {'I', "I", sizeof(int)},
    {'l', "l", sizeof(long)},
    {'L', "L", sizeof(long)},
    {'q', "q", sizeof(long long)},
    {'Q', "Q", sizeof(long long)},
    {'n', "n", sizeof(Py_ssize_t)},
    {'N', "N", sizeof(size_t)},
    {'f', "f", sizeof(float)},
    {'d', "d", sizeof(double)},
    {'e', "e", 2},
    {'P', "P", sizeof(void *)},
};

/* The table entry of a native single-character format, or NULL. */
static const fmtinfo *
native_format(const char *fmt)
{
    if (fmt == NULL) {
        return &native_formats[3];
    }
    if (fmt[0] == '@') {
        fmt++;
    }
    if (fmt[0] == '\0' || fmt[1] != '\0') {
        return NULL;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(native_formats); i++) {
        if (native_formats[i].code == fmt[0]) {
            return &native_formats[i];
        }
    }
    return NULL;
}

static int
is_byte_format(const char *fmt)
{
    const fmtinfo *f = native_format(fmt);
    return f != NULL && (f->code == 'B' || f->code == 'b' || f->code == 'c');
}

static PyObject *
unpack_item(const fmtinfo *f, const char *p)
{
#define LOAD(T) (memcpy(&tmp.T##_v, p, sizeof(tmp.T##_v)), tmp.T##_v)
    union {
        _Bool bool_v; signed char sc_v; unsigned char uc_v; short short_v;
        unsigned short ushort_v; int int_v; unsigned int uint_v; long long_v;
        unsigned long ulong_v; long long ll_v; unsigned long long ull_v; Py_ssize_t ssize_v;
        size_t size_v; float float_v; double double_v; void *ptr_v;
    } tmp;
    switch (f->code) {
    case '?': return PyBool_FromLong(LOAD(bool));
    case 'c': return PyBytes_FromStringAndSize(p, 1);
    case 'b': return PyLong_FromLong(LOAD(sc));
    case 'B': return PyLong_FromLong(LOAD(uc));
    case 'h': return PyLong_FromLong(LOAD(short));
    case 'H': return PyLong_FromLong(LOAD(ushort));
    case 'i': return PyLong_FromLong(LOAD(int));
    case 'I': return PyLong_FromUnsignedLong(LOAD(uint));
    case 'l': return PyLong_FromLong(LOAD(long));
    case 'L': return PyLong_FromUnsignedLong(LOAD(ulong));
    case 'q': return PyLong_FromLongLong(LOAD(ll));
    case 'Q': return PyLong_FromUnsignedLongLong(LOAD(ull));
    case 'n': return PyLong_FromSsize_t(LOAD(ssize));
    case 'N': return PyLong_FromSize_t(LOAD(size));
    case 'f': return PyFloat_FromDouble(LOAD(float));
    case 'd': return PyFloat_FromDouble(LOAD(double));
    case 'e': return PyFloat_FromDouble(PyFloat_Unpack2(p, NATIVE_LITTLE));
    default: return PyLong_FromVoidPtr(LOAD(ptr));
    }
#undef LOAD
}

static int
bad_item(const fmtinfo *f, int wrong_type)
{
    PyErr_Format(wrong_type ? PyExc_TypeError : PyExc_ValueError,
                 "memoryview: invalid %s for format '%s'", wrong_type ? "type" : "value", f->name);
    return -1;
}

/* An integer item in [lo, hi] (unsigned formats: hi as unsigned). */
static int
pack_integer(const fmtinfo *f, char *p, PyObject *value)
{
    if (!PyLong_Check(value)) {
        return bad_item(f, 1);
    }
    int overflow = 0;
    long long v = 0;
    unsigned long long u = 0;
    int is_unsigned = strchr("BHILQN", f->code) != NULL;
    if (is_unsigned) {
        u = PyLong_AsUnsignedLongLong(value);
        overflow = u == (unsigned long long)-1 && PyErr_Occurred();
    }
    else {
        v = PyLong_AsLongLongAndOverflow(value, &overflow);
        overflow = overflow || (v == -1 && PyErr_Occurred());
    }
    if (overflow) {
        PyErr_Clear();
        return bad_item(f, 0);
    }
    int bits = (int)(8 * f->size);
    if (is_unsigned ? (bits < 64 && u >> bits != 0)
                    : (bits < 64 && (v < -(1LL << (bits - 1)) || v >= (1LL << (bits - 1))))) {
        return bad_item(f, 0);
    }
    /* Little and big endian alike: store through the right-sized type. */
    switch (f->size) {
    case 1: { unsigned char x = (unsigned char)(is_unsigned ? u : (unsigned long long)v); memcpy(p, &x, 1); break; }
    case 2: { unsigned short x = (unsigned short)(is_unsigned ? u : (unsigned long long)v); memcpy(p, &x, 2); break; }
    case 4: { unsigned int x = (unsigned int)(is_unsigned ? u : (unsigned long long)v); memcpy(p, &x, 4); break; }
    default: { unsigned long long x = is_unsigned ? u : (unsigned long long)v; memcpy(p, &x, 8); break; }
    }
    return 0;
}

static int
pack_item(const fmtinfo *f, char *p, PyObject *value)
{
    switch (f->code) {
    case '?': {
        int t = PyObject_IsTrue(value);
        if (t < 0) {
            return -1;
        }
        _Bool b = (_Bool)t;
        memcpy(p, &b, sizeof(b));
        return 0;
    }
    case 'c':
        if (!PyBytes_Check(value)) {
            return bad_item(f, 1);
        }
        if (PyBytes_GET_SIZE(value) != 1) {
            return bad_item(f, 0);
        }
        *p = PyBytes_AS_STRING(value)[0];
        return 0;
    case 'f':
    case 'd':
    case 'e': {
        double d = PyFloat_AsDouble(value);
        if (d == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return bad_item(f, 1);
        }
        if (f->code == 'e') {
            return PyFloat_Pack2(d, p, NATIVE_LITTLE);
        }
        if (f->code == 'f') {
            float x = (float)d;
            memcpy(p, &x, sizeof(x));
        }
        else {
            memcpy(p, &d, sizeof(d));
        }
        return 0;
    }
    case 'P': {
        if (!PyLong_Check(value)) {
            return bad_item(f, 1);
        }
        void *ptr = PyLong_AsVoidPtr(value);
        if (ptr == NULL && PyErr_Occurred()) {
            return -1;
        }
        memcpy(p, &ptr, sizeof(ptr));
        return 0;
    }
    default:
        return pack_integer(f, p, value);
    }
}

/* ---- Creating views ----------------------------------------------------------------------- */

static PyObject *
released_error(void)
{
    PyErr_SetString(PyExc_ValueError, "operation forbidden on released memoryview object");
    return NULL;
}

#define CHECK_RELEASED(mv)                   \
    do {                                     \
        if ((mv)->holder == NULL) {          \
            return released_error();         \
        }                                    \
    } while (0)

#define CHECK_RELEASED_INT(mv)               \
    do {                                     \
        if ((mv)->holder == NULL) {          \
            released_error();                \
            return -1;                       \
        }                                    \
    } while (0)

/* A view object with room for ndim dimensions, sharing `holder`.  The
   caller fills shape and strides, then calls finish_view. */
static PyMemoryViewObject *
view_alloc(PyObject *holder, const Py_buffer *like, int ndim)
{
    PyMemoryViewObject *mv = PyObject_NewVar(PyMemoryViewObject, &PyMemoryView_Type, 2 * ndim);
    if (mv == NULL) {
        return NULL;
    }
    mv->holder = Py_NewRef(holder);
    mv->view = *like;
    mv->view.ndim = ndim;
    mv->view.shape = mv->dims;
    mv->view.strides = mv->dims + ndim;
    mv->view.suboffsets = NULL;
    mv->view.internal = NULL;
    mv->exports = 0;
    mv->hash = -1;
    mv->layout = 0;
    mv->weakreflist = NULL;
    return mv;
}

static void
finish_view(PyMemoryViewObject *mv)
{
    Py_ssize_t n = mv->view.itemsize;
    for (int k = 0; k < mv->view.ndim; k++) {
        n *= mv->view.shape[k];
    }
    mv->view.len = n;
    mv->layout = (PyBuffer_IsContiguous(&mv->view, 'C') ? _Py_MEMORY_C : 0) |
                 (PyBuffer_IsContiguous(&mv->view, 'F') ? _Py_MEMORY_F : 0);
}

/* The first view of a holder's master buffer. */
static PyObject *
view_of_master(bufholder *h)
{
    Py_buffer *m = &h->master;
    if (m->suboffsets != NULL) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "memoryview: buffers with suboffsets are not supported");
        return NULL;
    }
    int ndim = m->shape == NULL ? 1 : m->ndim;
    if (ndim < 0 || ndim > PyBUF_MAX_NDIM) {
        PyErr_SetString(PyExc_ValueError, "memoryview: number of dimensions must not exceed 64");
        return NULL;
    }
    if (m->itemsize <= 0) {
        m->itemsize = 1;
    }
    PyMemoryViewObject *mv = view_alloc((PyObject *)h, m, ndim);
    if (mv == NULL) {
        return NULL;
    }
    if (mv->view.format == NULL) {
        mv->view.format = "B";
    }
    if (m->shape == NULL) {
        mv->view.shape[0] = m->len / m->itemsize;
    }
    else {
        memcpy(mv->view.shape, m->shape, ndim * sizeof(Py_ssize_t));
    }
    if (m->strides == NULL) {
        PyBuffer_FillContiguousStrides(ndim, mv->view.shape, mv->view.strides,
                                       (int)m->itemsize, 'C');
    }
    else {
        memcpy(mv->view.strides, m->strides, ndim * sizeof(Py_ssize_t));
    }
    finish_view(mv);
    return (PyObject *)mv;
}

/* A copy of a live view (same holder, shape and strides). */
static PyMemoryViewObject *
view_copy(PyMemoryViewObject *src)
{
    int ndim = src->view.ndim;
    PyMemoryViewObject *mv = view_alloc(src->holder, &src->view, ndim);
    if (mv != NULL) {
        memcpy(mv->dims, src->dims, 2 * ndim * sizeof(Py_ssize_t));
        finish_view(mv);
    }
    return mv;
}

PyObject *
PyMemoryView_FromObject(PyObject *base)
{
    if (PyMemoryView_Check(base)) {
        PyMemoryViewObject *src = (PyMemoryViewObject *)base;
        CHECK_RELEASED(src);
        return (PyObject *)view_copy(src);
    }
    if (!PyObject_CheckBuffer(base)) {
        PyErr_Format(PyExc_TypeError,
                     "memoryview: a bytes-like object is required, not '%.200s'",
                     Py_TYPE(base)->tp_name);
        return NULL;
    }
    bufholder *h = holder_new();
    if (h == NULL) {
        return NULL;
    }
    if (PyObject_GetBuffer(base, &h->master, PyBUF_FULL_RO) < 0) {
        Py_DECREF(h);
        return NULL;
    }
    PyObject *mv = view_of_master(h);
    Py_DECREF(h);
    return mv;
}

PyObject *
PyMemoryView_FromBuffer(const Py_buffer *info)
{
    if (info->buf == NULL) {
        PyErr_SetString(PyExc_ValueError, "PyMemoryView_FromBuffer(): info->buf must not be NULL");
        return NULL;
    }
    bufholder *h = holder_new();
    if (h == NULL) {
        return NULL;
    }
    h->master = *info;
    h->master.obj = NULL; /* nothing to give back */
    PyObject *mv = view_of_master(h);
    if (mv != NULL) {
        ((PyMemoryViewObject *)mv)->view.obj = info->obj;
    }
    /* The master's shape/strides belong to the caller: forget them. */
    h->master.shape = NULL;
    h->master.strides = NULL;
    Py_DECREF(h);
    return mv;
}

PyObject *
PyMemoryView_FromMemory(char *mem, Py_ssize_t size, int flags)
{
    Py_buffer info;
    if (PyBuffer_FillInfo(&info, NULL, mem, size, (flags & PyBUF_WRITE) == 0, PyBUF_FULL_RO) < 0) {
        return NULL;
    }
    return PyMemoryView_FromBuffer(&info);
}

PyObject *
PyMemoryView_GetContiguous(PyObject *base, int buffertype, char order)
{
    PyObject *mv = PyMemoryView_FromObject(base);
    if (mv == NULL) {
        return NULL;
    }
    Py_buffer *view = PyMemoryView_GET_BUFFER(mv);
    if (PyBuffer_IsContiguous(view, order)) {
        return mv;
    }
    if (buffertype == PyBUF_WRITE) {
        Py_DECREF(mv);
        PyErr_SetString(PyExc_BufferError, "writable contiguous buffer requested for a "
                                           "non-contiguous object.");
        return NULL;
    }
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, view->len);
    if (bytes == NULL ||
        PyBuffer_ToContiguous(PyBytes_AS_STRING(bytes), view, view->len, order) < 0) {
        Py_XDECREF(bytes);
        Py_DECREF(mv);
        return NULL;
    }
    Py_DECREF(mv);
    mv = PyMemoryView_FromObject(bytes);
    Py_DECREF(bytes);
    return mv;
}

static PyObject *
memory_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static const char *const names[] = {"object", NULL};
    PyObject *source;
    int ok = _PyArg_ParseTupleAndKeywordsStack(args, kwargs, "memoryview", names, 1, 1, 0,
                                               &source);
    return ok ? PyMemoryView_FromObject(source) : NULL;
}

/* ---- Release and death ----------------------------------------------------------------------- */

static int
release_view(PyMemoryViewObject *self)
{
    if (self->holder == NULL) {
        return 0;
    }
    if (self->exports > 0) {
        PyErr_Format(PyExc_BufferError, "memoryview has %zd exported buffer%s", self->exports,
                     self->exports > 1 ? "s" : "");
        return -1;
    }
    self->view.obj = NULL;
    Py_CLEAR(self->holder);
    return 0;
}

static void
memory_dealloc(PyObject *op)
{
    PyMemoryViewObject *self = (PyMemoryViewObject *)op;
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    Py_CLEAR(self->holder);
    PyObject_Free(op);
}

static PyObject *
memory_release(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    if (release_view((PyMemoryViewObject *)op) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
memory_enter(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    CHECK_RELEASED((PyMemoryViewObject *)op);
    return Py_NewRef(op);
}

static PyObject *
memory_exit(PyObject *op, PyObject *args)
{
    return memory_release(op, NULL);
}

/* ---- Exporting ---------------------------------------------------------------------------- */

static int
memory_getbuffer(PyObject *op, Py_buffer *view, int flags)
{
    PyMemoryViewObject *self = (PyMemoryViewObject *)op;
    CHECK_RELEASED_INT(self);
    const char *why = NULL;
    if ((flags & PyBUF_WRITABLE) && self->view.readonly) {
        why = "memoryview: underlying buffer is not writable";
    }
    else if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !(self->layout & _Py_MEMORY_C)) {
        why = "memoryview: underlying buffer is not C-contiguous";
    }
    else if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !(self->layout & _Py_MEMORY_F)) {
        why = "memoryview: underlying buffer is not Fortran contiguous";
    }
    else if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && self->layout == 0) {
        why = "memoryview: underlying buffer is not contiguous";
    }
    else if (!(flags & PyBUF_ND) && !(self->layout & _Py_MEMORY_C)) {
        why = "memoryview: underlying buffer is not C-contiguous";
    }
    if (why != NULL) {
        PyErr_SetString(PyExc_BufferError, why);
        return -1;
    }
    *view = self->view;
    view->obj = Py_NewRef(op);
    view->format = (flags & PyBUF_FORMAT) ? self->view.format : NULL;
    view->shape = (flags & PyBUF_ND) ? self->view.shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? self->view.strides : NULL;
    if (!(flags & PyBUF_ND)) {
        view->ndim = 1;
    }
    self->exports++;
    return 0;
}

static void
memory_releasebuffer(PyObject *op, Py_buffer *view)
{
    ((PyMemoryViewObject *)op)->exports--;
}

static PyBufferProcs memory_as_buffer = {
    .bf_getbuffer = memory_getbuffer,
    .bf_releasebuffer = memory_releasebuffer,
};

/* ---- Attributes ------------------------------------------------------------------------------ */

static PyObject *
ssize_tuple(const Py_ssize_t *values, int n)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t != NULL && i < n; i++) {
        PyObject *v = PyLong_FromSsize_t(values[i]);
        if (v == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

#define MV(op) ((PyMemoryViewObject *)(op))

static PyObject *
memory_obj_get(PyObject *op, void *closure)
{
    CHECK_RELEASED(MV(op));
    return Py_NewRef(MV(op)->view.obj != NULL ? MV(op)->view.obj : Py_None);
}

static PyObject *
memory_nbytes_get(PyObject *op, void *closure)
{
    CHECK_RELEASED(MV(op));
    return PyLong_FromSsize_t(MV(op)->view.len);
}

static PyObject *
memory_readonly_get(PyObject *op, void *closure)
{
    CHECK_RELEASED(MV(op));
    return PyBool_FromLong(MV(op)->view.readonly);
}

static PyObject *
memory_itemsize_get(PyObject *op, void *closure)
{
    CHECK_RELEASED(MV(op));
    return PyLong_FromSsize_t(MV(op)->view.itemsize);
}

static PyObject *
memory_format_get(PyObject *op, void *closure)
{
    CHECK_RELEASED(MV(op));
    return PyUnicode_FromString(MV(op)->view.format);
}

static PyObject *
memory_ndim_get(PyObject *op, void *closure)
{
    CHECK_RELEASED(MV(op));
    return PyLong_FromLong(MV(op)->view.ndim);
}

static PyObject *
memory_shape_get(PyObject *op, void *closure)
{
    CHECK_RELEASED(MV(op));
    return ssize_tuple(MV(op)->view.shape, MV(op)->view.ndim);
}

static PyObject *
memory_strides_get(PyObject *op, void *closure)
{
    CHECK_RELEASED(MV(op));
    return ssize_tuple(MV(op)->view.strides, MV(op)->view.ndim);
}

static PyObject *
memory_suboffsets_get(PyObject *op, void *closure)
{
    CHECK_RELEASED(MV(op));
    return PyTuple_New(0);
}

static PyObject *
layout_flag(PyObject *op, int mask)
{
    CHECK_RELEASED(MV(op));
    return PyBool_FromLong((MV(op)->layout & mask) != 0);
}

static PyObject *
memory_c_contiguous_get(PyObject *op, void *closure)
{
    return layout_flag(op, _Py_MEMORY_C);
}

static PyObject *
memory_f_contiguous_get(PyObject *op, void *closure)
{
    return layout_flag(op, _Py_MEMORY_F);
}

static PyObject *
memory_contiguous_get(PyObject *op, void *closure)
{
    return layout_flag(op, _Py_MEMORY_C | _Py_MEMORY_F);
}

static PyGetSetDef memory_getset[] = {
    {"obj", memory_obj_get, NULL, "The object whose memory this views.", NULL},
    {"nbytes", memory_nbytes_get, NULL, "Size of the viewed memory in bytes.", NULL},
    {"readonly", memory_readonly_get, NULL, "Whether the memory is read-only.", NULL},
    {"itemsize", memory_itemsize_get, NULL, "Size of one element in bytes.", NULL},
    {"format", memory_format_get, NULL, "struct-module format of the elements.", NULL},
    {"ndim", memory_ndim_get, NULL, "Number of dimensions.", NULL},
    {"shape", memory_shape_get, NULL, "Elements along each dimension.", NULL},
    {"strides", memory_strides_get, NULL, "Bytes between elements along each dimension.", NULL},
    {"suboffsets", memory_suboffsets_get, NULL, "Always empty: no indirect arrays.", NULL},
    {"c_contiguous", memory_c_contiguous_get, NULL, "Row-major contiguous.", NULL},
    {"f_contiguous", memory_f_contiguous_get, NULL, "Column-major contiguous.", NULL},
    {"contiguous", memory_contiguous_get, NULL, "Row- or column-major contiguous.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- Elements ------------------------------------------------------------------------------ */

static const fmtinfo *
element_format(PyMemoryViewObject *self)
{
    const fmtinfo *f = native_format(self->view.format);
    if (f == NULL) {
        PyErr_Format(PyExc_NotImplementedError, "memoryview: format %s not supported",
                     self->view.format);
    }
    return f;
}

/* Address of element `index` along dimension `dim` from `base`. */
static char *
step_into(PyMemoryViewObject *self, char *base, int dim, PyObject *key)
{
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_ssize_t n = self->view.shape[dim];
    if (i < 0) {
        i += n;
    }
    if (i < 0 || i >= n) {
        PyErr_Format(PyExc_IndexError, "index out of bounds on dimension %d", dim + 1);
        return NULL;
    }
    return base + i * self->view.strides[dim];
}

/* The element address for an int key (1-D) or a tuple of ints (N-D). */
static char *
element_address(PyMemoryViewObject *self, PyObject *key)
{
    int ndim = self->view.ndim;
    if (!PyTuple_Check(key)) {
        if (ndim != 1) {
            PyErr_SetString(PyExc_NotImplementedError,
                            "multi-dimensional sub-views are not implemented");
            return NULL;
        }
        return step_into(self, self->view.buf, 0, key);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(key);
    for (Py_ssize_t k = 0; k < n; k++) {
        if (!PyIndex_Check(PyTuple_GET_ITEM(key, k))) {
            PyErr_SetString(PyExc_TypeError, "memoryview: invalid slice key");
            return NULL;
        }
    }
    if (n < ndim) {
        PyErr_SetString(PyExc_NotImplementedError, "sub-views are not implemented");
        return NULL;
    }
    if (n > ndim) {
        PyErr_Format(PyExc_TypeError, "cannot index %d-dimension view with %zd-element tuple",
                     ndim, n);
        return NULL;
    }
    char *p = self->view.buf;
    for (int k = 0; k < ndim && p != NULL; k++) {
        p = step_into(self, p, k, PyTuple_GET_ITEM(key, k));
    }
    return p;
}

static int
is_slice_tuple(PyObject *key)
{
    if (!PyTuple_Check(key)) {
        return 0;
    }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(key); k++) {
        if (PySlice_Check(PyTuple_GET_ITEM(key, k))) {
            return 1;
        }
    }
    return 0;
}

/* A view of self sliced along its first dimension. */
static PyObject *
slice_view(PyMemoryViewObject *self, PyObject *slice)
{
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(slice, &start, &stop, &step) < 0) {
        return NULL;
    }
    Py_ssize_t count = PySlice_AdjustIndices(self->view.shape[0], &start, &stop, step);
    PyMemoryViewObject *mv = view_copy(self);
    if (mv == NULL) {
        return NULL;
    }
    mv->view.buf = (char *)self->view.buf + start * self->view.strides[0];
    mv->view.shape[0] = count;
    mv->view.strides[0] = self->view.strides[0] * step;
    finish_view(mv);
    return (PyObject *)mv;
}

static PyObject *
memory_subscript(PyObject *op, PyObject *key)
{
    PyMemoryViewObject *self = MV(op);
    CHECK_RELEASED(self);
    if (self->view.ndim == 0) {
        if (key == Py_Ellipsis) {
            return Py_NewRef(op);
        }
        if (PyTuple_Check(key) && PyTuple_GET_SIZE(key) == 0) {
            const fmtinfo *f = element_format(self);
            return f == NULL ? NULL : unpack_item(f, self->view.buf);
        }
        PyErr_SetString(PyExc_TypeError, "invalid indexing of 0-dim memory");
        return NULL;
    }
    if (PySlice_Check(key)) {
        return slice_view(self, key);
    }
    if (is_slice_tuple(key)) {
        PyErr_SetString(PyExc_NotImplementedError, "multi-dimensional slicing is not implemented");
        return NULL;
    }
    if (!PyIndex_Check(key) && !PyTuple_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "memoryview: invalid slice key");
        return NULL;
    }
    const fmtinfo *f = element_format(self);
    if (f == NULL) {
        return NULL;
    }
    char *p = element_address(self, key);
    return p == NULL ? NULL : unpack_item(f, p);
}

static PyObject *
memory_item(PyObject *op, Py_ssize_t i)
{
    PyObject *key = PyLong_FromSsize_t(i);
    if (key == NULL) {
        return NULL;
    }
    PyObject *res = memory_subscript(op, key);
    Py_DECREF(key);
    return res;
}

/* view[slice] = buffer: same format, itemsize and length required. */
static int
assign_slice(PyMemoryViewObject *self, PyObject *key, PyObject *value)
{
    if (self->view.ndim != 1) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "memoryview slice assignments are currently restricted to ndim = 1");
        return -1;
    }
    PyMemoryViewObject *dst = (PyMemoryViewObject *)slice_view(self, key);
    if (dst == NULL) {
        return -1;
    }
    Py_buffer src;
    int r = -1;
    if (PyObject_GetBuffer(value, &src, PyBUF_FULL_RO) < 0) {
        Py_DECREF(dst);
        return -1;
    }
    const fmtinfo *fs = native_format(src.format), *fd = native_format(dst->view.format);
    Py_ssize_t src_len = src.ndim == 0 ? 1 : (src.shape ? src.shape[0] : src.len / src.itemsize);
    int same = src.ndim <= 1 && src.itemsize == dst->view.itemsize &&
               src_len == dst->view.shape[0] &&
               (fs != NULL && fd != NULL ? fs->code == fd->code
                                         : strcmp(src.format ? src.format : "B", dst->view.format) == 0);
    if (!same) {
        PyErr_SetString(PyExc_ValueError,
                        "memoryview assignment: lvalue and rvalue have different structures");
    }
    else {
        /* Through a temporary: source and target may overlap. */
        char *tmp = PyMem_Malloc(src.len ? src.len : 1);
        if (tmp == NULL) {
            PyErr_NoMemory();
        }
        else {
            r = PyBuffer_ToContiguous(tmp, &src, src.len, 'C');
            if (r == 0) {
                r = PyBuffer_FromContiguous(&dst->view, tmp, src.len, 'C');
            }
            PyMem_Free(tmp);
        }
    }
    PyBuffer_Release(&src);
    Py_DECREF(dst);
    return r;
}

static int
memory_ass_subscript(PyObject *op, PyObject *key, PyObject *value)
{
    PyMemoryViewObject *self = MV(op);
    CHECK_RELEASED_INT(self);
    if (self->view.readonly) {
        PyErr_SetString(PyExc_TypeError, "cannot modify read-only memory");
        return -1;
    }
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "cannot delete memory");
        return -1;
    }
    const fmtinfo *f;
    if (self->view.ndim == 0) {
        if (key == Py_Ellipsis || (PyTuple_Check(key) && PyTuple_GET_SIZE(key) == 0)) {
            f = element_format(self);
            return f == NULL ? -1 : pack_item(f, self->view.buf, value);
        }
        PyErr_SetString(PyExc_TypeError, "invalid indexing of 0-dim memory");
        return -1;
    }
    if (PySlice_Check(key)) {
        return assign_slice(self, key, value);
    }
    if (is_slice_tuple(key)) {
        PyErr_SetString(PyExc_NotImplementedError, "memoryview slice assignments are currently "
                                                   "restricted to ndim = 1");
        return -1;
    }
    if (!PyIndex_Check(key) && !PyTuple_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "memoryview: invalid slice key");
        return -1;
    }
    f = element_format(self);
    if (f == NULL) {
        return -1;
    }
    char *p = element_address(self, key);
    return p == NULL ? -1 : pack_item(f, p, value);
}

static Py_ssize_t
memory_length(PyObject *op)
{
    PyMemoryViewObject *self = MV(op);
    if (self->holder != NULL && self->view.ndim > 0) {
        return self->view.shape[0];
    }
    if (self->holder == NULL) {
        released_error();
    }
    else {
        PyErr_SetString(PyExc_TypeError, "0-dim memory has no length");
    }
    return -1;
}

/* ---- Whole-view conversions ------------------------------------------------------------------ */

static PyObject *
to_bytes(PyMemoryViewObject *self, char order)
{
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, self->view.len);
    if (bytes != NULL &&
        PyBuffer_ToContiguous(PyBytes_AS_STRING(bytes), &self->view, self->view.len, order) < 0) {
        Py_CLEAR(bytes);
    }
    return bytes;
}

static PyObject *
memory_tobytes(PyObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"order", NULL};
    PyObject *order = NULL;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "tobytes", kwlist, 0, 1, 0, &order)) {
        return NULL;
    }
    CHECK_RELEASED(MV(op));
    char ord = 'C';
    if (order != NULL && order != Py_None) {
        const char *s = PyUnicode_Check(order) ? PyUnicode_AsUTF8(order) : NULL;
        if (s == NULL || (strcmp(s, "C") != 0 && strcmp(s, "F") != 0 && strcmp(s, "A") != 0)) {
            if (s == NULL && !PyErr_Occurred()) {
                PyErr_Format(PyExc_TypeError, "tobytes() argument 'order' must be str or None, not %.50s",
                             Py_TYPE(order)->tp_name);
            }
            else if (s != NULL) {
                PyErr_SetString(PyExc_ValueError, "order must be 'C', 'F' or 'A'");
            }
            return NULL;
        }
        ord = s[0];
    }
    return to_bytes(MV(op), ord);
}

static PyObject *
memory_hex(PyObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    CHECK_RELEASED(MV(op));
    PyObject *bytes = to_bytes(MV(op), 'C');
    if (bytes == NULL) {
        return NULL;
    }
    PyObject *res = _Py_bytes_hex(PyBytes_AS_STRING(bytes), PyBytes_GET_SIZE(bytes), args, nargs,
                                  kwnames);
    Py_DECREF(bytes);
    return res;
}

/* Nested lists along dimension `dim` starting at p. */
static PyObject *
list_from(PyMemoryViewObject *self, const fmtinfo *f, char *p, int dim)
{
    Py_ssize_t n = self->view.shape[dim];
    PyObject *list = PyList_New(n);
    for (Py_ssize_t i = 0; list != NULL && i < n; i++) {
        char *q = p + i * self->view.strides[dim];
        PyObject *item = dim + 1 == self->view.ndim ? unpack_item(f, q)
                                                    : list_from(self, f, q, dim + 1);
        if (item == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *
memory_tolist(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    PyMemoryViewObject *self = MV(op);
    CHECK_RELEASED(self);
    const fmtinfo *f = element_format(self);
    if (f == NULL) {
        return NULL;
    }
    if (self->view.ndim == 0) {
        return unpack_item(f, self->view.buf);
    }
    return list_from(self, f, self->view.buf, 0);
}

static PyObject *
memory_toreadonly(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    CHECK_RELEASED(MV(op));
    PyMemoryViewObject *mv = view_copy(MV(op));
    if (mv != NULL) {
        mv->view.readonly = 1;
    }
    return (PyObject *)mv;
}

/* cast(format[, shape]): reinterpret a C-contiguous view. */
static int
cast_shape(PyObject *shape, Py_ssize_t *dims, int *ndim)
{
    if (!PyList_Check(shape) && !PyTuple_Check(shape)) {
        PyErr_SetString(PyExc_TypeError, "shape must be a list or a tuple");
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(shape);
    if (n > PyBUF_MAX_NDIM) {
        PyErr_SetString(PyExc_ValueError, "memoryview: number of dimensions must not exceed 64");
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(shape, k);
        if (!PyLong_Check(item)) {
            PyErr_SetString(PyExc_TypeError,
                            "memoryview.cast(): elements of shape must be integers > 0");
            return -1;
        }
        Py_ssize_t v = PyLong_AsSsize_t(item);
        if (v <= 0) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError,
                                "memoryview.cast(): elements of shape must be integers > 0");
            }
            return -1;
        }
        dims[k] = v;
    }
    *ndim = (int)n;
    return 0;
}

static PyObject *
memory_cast(PyObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"format", "shape", NULL};
    PyObject *out[2] = {NULL, NULL};
    PyMemoryViewObject *self = MV(op);
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "cast", kwlist, 1, 2, 0, out)) {
        return NULL;
    }
    CHECK_RELEASED(self);
    if (!PyUnicode_Check(out[0])) {
        PyErr_Format(PyExc_TypeError, "cast() argument 'format' must be str, not %.50s",
                     Py_TYPE(out[0])->tp_name);
        return NULL;
    }
    const char *fmt = PyUnicode_AsUTF8(out[0]);
    if (fmt == NULL) {
        return NULL;
    }
    const fmtinfo *f = native_format(fmt);
    if (!(self->layout & _Py_MEMORY_C)) {
        PyErr_SetString(PyExc_TypeError, "memoryview: casts are restricted to C-contiguous views");
        return NULL;
    }
    if (f == NULL) {
        PyErr_SetString(PyExc_ValueError, "memoryview: destination format must be a native single "
                                          "character format prefixed with an optional '@'");
        return NULL;
    }
    if (!is_byte_format(fmt) && !is_byte_format(self->view.format)) {
        PyErr_SetString(PyExc_TypeError, "memoryview: cannot cast between two non-byte formats");
        return NULL;
    }
    Py_ssize_t dims[PyBUF_MAX_NDIM];
    int ndim = 1;
    if (out[1] != NULL && out[1] != Py_None) {
        if (cast_shape(out[1], dims, &ndim) < 0) {
            return NULL;
        }
        if (self->view.ndim != 1 && ndim != 1) {
            PyErr_SetString(PyExc_TypeError, "memoryview: cast must be 1D -> ND or ND -> 1D");
            return NULL;
        }
        Py_ssize_t total = f->size;
        for (int k = 0; k < ndim; k++) {
            total *= dims[k];
        }
        if (total != self->view.len) {
            PyErr_SetString(PyExc_TypeError, "memoryview: product(shape) * itemsize != buffer size");
            return NULL;
        }
    }
    else {
        if (self->view.len % f->size != 0) {
            PyErr_SetString(PyExc_TypeError, "memoryview: length is not a multiple of itemsize");
            return NULL;
        }
        dims[0] = self->view.len / f->size;
    }
    PyMemoryViewObject *mv = view_alloc(self->holder, &self->view, ndim);
    if (mv == NULL) {
        return NULL;
    }
    mv->view.format = (char *)f->name;
    mv->view.itemsize = f->size;
    memcpy(mv->view.shape, dims, ndim * sizeof(Py_ssize_t));
    PyBuffer_FillContiguousStrides(ndim, mv->view.shape, mv->view.strides, (int)f->size, 'C');
    finish_view(mv);
    return (PyObject *)mv;
}

/* count(value) and index(value, start, stop) over a 1-D view. */
static const fmtinfo *
lookup_format(PyMemoryViewObject *self, const char *what)
{
    if (self->holder == NULL) {
        released_error();
        return NULL;
    }
    if (self->view.ndim != 1) {
        PyErr_Format(PyExc_NotImplementedError, "multi-dimensional %s is not implemented", what);
        return NULL;
    }
    return element_format(self);
}

/* 1 if element i equals value, 0 if not, -1 on error. */
static int
element_equals(PyMemoryViewObject *self, const fmtinfo *f, Py_ssize_t i, PyObject *value)
{
    PyObject *item = unpack_item(f, (char *)self->view.buf + i * self->view.strides[0]);
    if (item == NULL) {
        return -1;
    }
    int r = PyObject_RichCompareBool(item, value, Py_EQ);
    Py_DECREF(item);
    return r;
}

static PyObject *
memory_count(PyObject *op, PyObject *value)
{
    PyMemoryViewObject *self = MV(op);
    const fmtinfo *f = lookup_format(self, "lookup");
    if (f == NULL) {
        return NULL;
    }
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < self->view.shape[0]; i++) {
        int r = element_equals(self, f, i, value);
        if (r < 0) {
            return NULL;
        }
        count += r;
    }
    return PyLong_FromSsize_t(count);
}

static PyObject *
memory_index(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    PyMemoryViewObject *self = MV(op);
    if (!_PyArg_CheckPositional("index", nargs, 1, 3)) {
        return NULL;
    }
    const fmtinfo *f = lookup_format(self, "lookup");
    if (f == NULL) {
        return NULL;
    }
    Py_ssize_t n = self->view.shape[0], start = 0, stop = PY_SSIZE_T_MAX;
    if ((nargs > 1 && !_PyEval_SliceIndex(args[1], &start)) ||
        (nargs > 2 && !_PyEval_SliceIndex(args[2], &stop))) {
        return NULL;
    }
    PySlice_AdjustIndices(n, &start, &stop, 1);
    for (Py_ssize_t i = start; i < stop; i++) {
        int r = element_equals(self, f, i, args[0]);
        if (r != 0) {
            return r < 0 ? NULL : PyLong_FromSsize_t(i);
        }
    }
    PyErr_SetString(PyExc_ValueError, "memoryview.index(x): x not found");
    return NULL;
}

/* ---- Comparison, hash, repr -------------------------------------------------------------------- */

/* Element-wise equality of two views of equal shape. */
static int
views_equal(const Py_buffer *a, const Py_buffer *b)
{
    if (a->ndim != b->ndim) {
        return 0;
    }
    for (int k = 0; k < a->ndim; k++) {
        if (a->shape[k] != b->shape[k]) {
            return 0;
        }
        if (a->shape[k] == 0) {
            return 1;
        }
    }
    const fmtinfo *fa = native_format(a->format), *fb = native_format(b->format);
    int raw = fa == NULL || fb == NULL;
    if (raw && (strcmp(a->format ? a->format : "B", b->format ? b->format : "B") != 0 ||
                a->itemsize != b->itemsize)) {
        return 0;
    }
    Py_ssize_t index[PyBUF_MAX_NDIM] = {0};
    for (;;) {
        char *pa = PyBuffer_GetPointer(a, index), *pb = PyBuffer_GetPointer(b, index);
        if (raw) {
            if (memcmp(pa, pb, a->itemsize) != 0) {
                return 0;
            }
        }
        else {
            PyObject *x = unpack_item(fa, pa), *y = x ? unpack_item(fb, pb) : NULL;
            int r = y ? PyObject_RichCompareBool(x, y, Py_EQ) : -1;
            Py_XDECREF(x);
            Py_XDECREF(y);
            if (r <= 0) {
                return r;
            }
        }
        int k = a->ndim - 1;
        while (k >= 0 && ++index[k] == a->shape[k]) {
            index[k--] = 0;
        }
        if (k < 0) {
            return 1;
        }
    }
}

static PyObject *
memory_richcompare(PyObject *self, PyObject *other, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_CheckBuffer(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int eq;
    if (self == other) {
        eq = 1;
    }
    else if (MV(self)->holder == NULL ||
             (PyMemoryView_Check(other) && MV(other)->holder == NULL)) {
        eq = 0; /* a released view equals only itself */
    }
    else {
        Py_buffer theirs;
        if (PyObject_GetBuffer(other, &theirs, PyBUF_FULL_RO) < 0) {
            PyErr_Clear();
            Py_RETURN_NOTIMPLEMENTED;
        }
        Py_ssize_t shape1;
        if (theirs.shape == NULL) {
            shape1 = theirs.len / (theirs.itemsize ? theirs.itemsize : 1);
            theirs.shape = &shape1;
            theirs.ndim = 1;
        }
        eq = views_equal(&MV(self)->view, &theirs);
        PyBuffer_Release(&theirs);
        if (eq < 0) {
            return NULL;
        }
    }
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t
memory_hash(PyObject *op)
{
    PyMemoryViewObject *self = MV(op);
    if (self->hash != -1) {
        return self->hash;
    }
    CHECK_RELEASED_INT(self);
    if (!self->view.readonly) {
        PyErr_SetString(PyExc_ValueError, "cannot hash writable memoryview object");
        return -1;
    }
    if (!is_byte_format(self->view.format)) {
        PyErr_SetString(PyExc_ValueError,
                        "memoryview: hashing is restricted to formats 'B', 'b' or 'c'");
        return -1;
    }
    if (self->view.obj != NULL && PyObject_Hash(self->view.obj) == -1) {
        return -1;
    }
    PyObject *bytes = to_bytes(self, 'C');
    if (bytes == NULL) {
        return -1;
    }
    self->hash = PyObject_Hash(bytes);
    Py_DECREF(bytes);
    return self->hash;
}

static PyObject *
memory_repr(PyObject *op)
{
    return PyUnicode_FromFormat(MV(op)->holder == NULL ? "<released memory at %p>"
                                                       : "<memory at %p>", op);
}

/* ---- The type ---------------------------------------------------------------------------------- */

static PyMethodDef memory_methods[] = {
    {"release", memory_release, METH_NOARGS, "Give back the underlying buffer now."},
    {"tobytes", _PyCFunction_CAST(memory_tobytes), METH_FASTCALL | METH_KEYWORDS,
     "The data as bytes, in 'C' (default), 'F' or 'A' order."},
    {"hex", _PyCFunction_CAST(memory_hex), METH_FASTCALL | METH_KEYWORDS,
     "The data as hexadecimal digits, like bytes.hex()."},
    {"tolist", memory_tolist, METH_NOARGS, "The elements as (nested) lists."},
    {"toreadonly", memory_toreadonly, METH_NOARGS, "A read-only view of the same memory."},
    {"cast", _PyCFunction_CAST(memory_cast), METH_FASTCALL | METH_KEYWORDS,
     "cast(format[, shape]): the same memory seen with another format and shape."},
    {"count", memory_count, METH_O, "Number of elements equal to value."},
    {"index", _PyCFunction_CAST(memory_index), METH_FASTCALL,
     "index(value[, start[, stop]]): position of the first element equal to value."},
    {"__enter__", memory_enter, METH_NOARGS, NULL},
    {"__exit__", memory_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods memory_as_sequence = {
    .sq_length = memory_length,
    .sq_item = memory_item,
};

static PyMappingMethods memory_as_mapping = {
    .mp_length = memory_length,
    .mp_subscript = memory_subscript,
    .mp_ass_subscript = memory_ass_subscript,
};

PyTypeObject PyMemoryView_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "memoryview",
    .tp_basicsize = offsetof(PyMemoryViewObject, dims),
    .tp_itemsize = sizeof(Py_ssize_t),
    .tp_dealloc = memory_dealloc,
    .tp_repr = memory_repr,
    .tp_as_sequence = &memory_as_sequence,
    .tp_as_mapping = &memory_as_mapping,
    .tp_hash = memory_hash,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_as_buffer = &memory_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_SEQUENCE,
    .tp_doc = "memoryview(object): a view of the memory of a bytes-like object.",
    .tp_richcompare = memory_richcompare,
    .tp_weaklistoffset = offsetof(PyMemoryViewObject, weakreflist),
    .tp_methods = memory_methods,
    .tp_getset = memory_getset,
    .tp_new = memory_new,
};
