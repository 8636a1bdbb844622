/* _io.BytesIO: a binary stream over a growable in-memory byte buffer.
   The buffer is a plain malloc'ed block; len is the logical size of the
   stream, cap the allocation.  A write past the end fills the gap with
   zero bytes, as seeking past the end of a real file does.  buf == NULL
   means closed. */

#include "_iomodule.h"
#include "pycore_object.h"

typedef struct {
    IO_HEAD
    char *buf;
    Py_ssize_t len;
    Py_ssize_t cap;
    Py_ssize_t pos;
    Py_ssize_t exports; /* views handed out by getbuffer() still alive */
} bytesio;

#define BIO(op) ((bytesio *)(op))

static int
check_open(bytesio *b)
{
    if (b->buf == NULL) {
        _PyIO_ClosedError(NULL);
        return -1;
    }
    return 0;
}

#define CHECK_OPEN(b)          \
    if (check_open(b) < 0) {   \
        return NULL;           \
    }

/* While a getbuffer() view lives, the buffer may neither move nor
   change size. */
static int
check_no_exports(bytesio *b)
{
    if (b->exports > 0) {
        PyErr_SetString(PyExc_BufferError, "Existing exports of data: object cannot be re-sized");
        return -1;
    }
    return 0;
}

#define CHECK_NO_EXPORTS(b)        \
    if (check_no_exports(b) < 0) { \
        return NULL;               \
    }

/* Make room for at least `need` bytes. */
static int
reserve(bytesio *b, Py_ssize_t need)
{
    if (need <= b->cap) {
        return 0;
    }
    Py_ssize_t cap = b->cap < 64 ? 64 : b->cap;
    while (cap < need) {
        if (cap > PY_SSIZE_T_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    char *nb = PyMem_Realloc(b->buf, (size_t)cap);
    if (nb == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->buf = nb;
    b->cap = cap;
    return 0;
}

static Py_ssize_t
write_bytes(bytesio *b, const char *data, Py_ssize_t n)
{
    if (n == 0) {
        return 0;
    }
    if (b->pos > PY_SSIZE_T_MAX - n) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t end = b->pos + n;
    if (reserve(b, end) < 0) {
        return -1;
    }
    if (b->pos > b->len) {
        memset(b->buf + b->len, 0, (size_t)(b->pos - b->len));
    }
    memcpy(b->buf + b->pos, data, (size_t)n);
    b->pos = end;
    if (end > b->len) {
        b->len = end;
    }
    return n;
}

/* Take up to n bytes (n < 0: all) from the position. */
static PyObject *
take(bytesio *b, Py_ssize_t n)
{
    Py_ssize_t avail = b->len > b->pos ? b->len - b->pos : 0;
    if (n < 0 || n > avail) {
        n = avail;
    }
    PyObject *r = PyBytes_FromStringAndSize(b->buf + b->pos, n);
    if (r != NULL) {
        b->pos += n;
    }
    return r;
}

static Py_ssize_t
line_length(bytesio *b, Py_ssize_t limit)
{
    Py_ssize_t avail = b->len > b->pos ? b->len - b->pos : 0;
    if (limit >= 0 && limit < avail) {
        avail = limit;
    }
    const char *nl = memchr(b->buf + b->pos, '\n', (size_t)avail);
    return nl ? nl - (b->buf + b->pos) + 1 : avail;
}

static int
set_initial(bytesio *b, PyObject *initial)
{
    b->len = b->pos = 0;
    if (reserve(b, 1) < 0) {
        return -1;
    }
    if (initial == NULL || Py_IsNone(initial)) {
        return 0;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(initial, &view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    Py_ssize_t r = write_bytes(b, view.buf, view.len);
    PyBuffer_Release(&view);
    b->pos = 0;
    return r < 0 ? -1 : 0;
}

/* One optional argument, positional or by keyword; re-running __init__
   starts the stream over. */
static int
bytesio_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"initial_bytes", NULL};
    PyObject *arg = NULL;
    int ok = PyArg_ParseTupleAndKeywords(args, kwds, "|O:BytesIO", names, &arg);
    if (ok) {
        ok = check_no_exports(BIO(self)) == 0 && set_initial(BIO(self), arg) == 0;
    }
    return ok ? 0 : -1;
}

static PyObject *
bytesio_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *self = type->tp_alloc(type, 0);
    if (self != NULL && reserve(BIO(self), 1) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

static void
bytesio_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    _PyIO_ClearHead(self);
    PyMem_Free(BIO(self)->buf);
    Py_TYPE(self)->tp_free(self);
}

static int
bytesio_clear(PyObject *self)
{
    Py_CLEAR(IO_OBJ(self)->dict);
    return 0;
}

/* ---- Methods ------------------------------------------------------------------------- */

static PyObject *
bytesio_getvalue(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_OPEN(BIO(self));
    return PyBytes_FromStringAndSize(BIO(self)->buf, BIO(self)->len);
}

static PyObject *
bytesio_read(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    if (!_PyArg_CheckPositional("read", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &n) < 0) {
        return NULL;
    }
    CHECK_OPEN(BIO(self));
    return take(BIO(self), n);
}

static PyObject *
bytesio_readline(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t limit;
    if (!_PyArg_CheckPositional("readline", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &limit) < 0) {
        return NULL;
    }
    CHECK_OPEN(BIO(self));
    return take(BIO(self), line_length(BIO(self), limit));
}

static PyObject *
bytesio_readlines(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t hint;
    if (!_PyArg_CheckPositional("readlines", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &hint) < 0) {
        return NULL;
    }
    bytesio *b = BIO(self);
    CHECK_OPEN(b);
    PyObject *lines = PyList_New(0);
    Py_ssize_t total = 0;
    while (lines != NULL && b->pos < b->len) {
        Py_ssize_t n = line_length(b, -1);
        PyObject *line = take(b, n);
        if (line == NULL || PyList_Append(lines, line) < 0) {
            Py_CLEAR(lines);
        }
        Py_XDECREF(line);
        total += n;
        if (hint > 0 && total >= hint) {
            break;
        }
    }
    return lines;
}

static PyObject *
bytesio_readinto(PyObject *self, PyObject *arg)
{
    bytesio *b = BIO(self);
    CHECK_OPEN(b);
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_WRITABLE) < 0) {
        return NULL;
    }
    Py_ssize_t avail = b->len > b->pos ? b->len - b->pos : 0;
    Py_ssize_t n = view.len < avail ? view.len : avail;
    memcpy(view.buf, b->buf + b->pos, (size_t)n);
    b->pos += n;
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(n);
}

static PyObject *
bytesio_write(PyObject *self, PyObject *arg)
{
    CHECK_OPEN(BIO(self));
    CHECK_NO_EXPORTS(BIO(self));
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    Py_ssize_t n = write_bytes(BIO(self), view.buf, view.len);
    PyBuffer_Release(&view);
    return n < 0 ? NULL : PyLong_FromSsize_t(n);
}

static PyObject *
bytesio_writelines(PyObject *self, PyObject *lines)
{
    CHECK_OPEN(BIO(self));
    CHECK_NO_EXPORTS(BIO(self));
    PyObject *it = PyObject_GetIter(lines);
    if (it == NULL) {
        return NULL;
    }
    PyObject *item;
    while ((item = PyIter_Next(it)) != NULL) {
        PyObject *r = bytesio_write(self, item);
        Py_DECREF(item);
        if (r == NULL) {
            Py_DECREF(it);
            return NULL;
        }
        Py_DECREF(r);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
bytesio_seek(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    bytesio *b = BIO(self);
    int whence = 0;
    if (!_PyArg_CheckPositional("seek", nargs, 1, 2)) {
        return NULL;
    }
    Py_ssize_t pos = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
    if (pos == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (nargs > 1) {
        whence = PyLong_AsInt(args[1]);
        if (whence == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    CHECK_OPEN(b);
    if (whence < 0 || whence > 2) {
        PyErr_Format(PyExc_ValueError, "invalid whence (%d, should be 0, 1 or 2)", whence);
        return NULL;
    }
    if (whence == 0 && pos < 0) {
        PyErr_Format(PyExc_ValueError, "negative seek value %zd", pos);
        return NULL;
    }
    Py_ssize_t base = whence == 0 ? 0 : whence == 1 ? b->pos : b->len;
    if (pos > 0 && base > PY_SSIZE_T_MAX - pos) {
        PyErr_SetString(PyExc_OverflowError, "new position too large");
        return NULL;
    }
    pos += base;
    b->pos = pos < 0 ? 0 : pos;
    return PyLong_FromSsize_t(b->pos);
}

static PyObject *
bytesio_tell(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_OPEN(BIO(self));
    return PyLong_FromSsize_t(BIO(self)->pos);
}

static PyObject *
bytesio_truncate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    bytesio *b = BIO(self);
    if (!_PyArg_CheckPositional("truncate", nargs, 0, 1)) {
        return NULL;
    }
    CHECK_OPEN(b);
    CHECK_NO_EXPORTS(b);
    Py_ssize_t size = b->pos;
    if (nargs && !Py_IsNone(args[0])) {
        size = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
        if (size == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (size < 0) {
            PyErr_Format(PyExc_ValueError, "negative size value %zd", size);
            return NULL;
        }
    }
    if (size < b->len) {
        b->len = size;
    }
    return PyLong_FromSsize_t(size);
}

static PyObject *
bytesio_true(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_OPEN(BIO(self));
    Py_RETURN_TRUE;
}

static PyObject *
bytesio_isatty(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_OPEN(BIO(self));
    Py_RETURN_FALSE;
}

static PyObject *
bytesio_flush(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_OPEN(BIO(self));
    Py_RETURN_NONE;
}

static PyObject *
bytesio_close(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    bytesio *b = BIO(self);
    CHECK_NO_EXPORTS(b);
    PyMem_Free(b->buf);
    b->buf = NULL;
    b->len = b->cap = b->pos = 0;
    b->base_closed = 1;
    Py_RETURN_NONE;
}

static PyObject *
bytesio_closed_get(PyObject *self, void *closure)
{
    return PyBool_FromLong(BIO(self)->buf == NULL);
}

static PyObject *
bytesio_iter(PyObject *self)
{
    CHECK_OPEN(BIO(self));
    return Py_NewRef(self);
}

static PyObject *
bytesio_iternext(PyObject *self)
{
    bytesio *b = BIO(self);
    CHECK_OPEN(b);
    Py_ssize_t n = line_length(b, -1);
    if (n == 0) {
        return NULL;
    }
    return take(b, n);
}

/* Pickling: (value, position, dict). */
static PyObject *
bytesio_getstate(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *value = bytesio_getvalue(self, NULL);
    if (value == NULL) {
        return NULL;
    }
    PyObject *d = IO_OBJ(self)->dict ? PyDict_Copy(IO_OBJ(self)->dict) : Py_NewRef(Py_None);
    if (d == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    return Py_BuildValue("(NnN)", value, BIO(self)->pos, d);
}

static PyObject *
bytesio_setstate(PyObject *self, PyObject *state)
{
    CHECK_NO_EXPORTS(BIO(self));
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) < 3) {
        PyErr_Format(PyExc_TypeError, "%.200s.__setstate__ argument should be 3-tuple, got %.200s",
                     Py_TYPE(self)->tp_name, Py_TYPE(state)->tp_name);
        return NULL;
    }
    if (set_initial(BIO(self), PyTuple_GET_ITEM(state, 0)) < 0) {
        return NULL;
    }
    Py_ssize_t pos = PyNumber_AsSsize_t(PyTuple_GET_ITEM(state, 1), PyExc_OverflowError);
    if (pos == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (pos < 0) {
        PyErr_SetString(PyExc_ValueError, "position value cannot be negative");
        return NULL;
    }
    BIO(self)->pos = pos;
    PyObject *d = PyTuple_GET_ITEM(state, 2);
    if (!Py_IsNone(d)) {
        PyObject *own = PyObject_GenericGetDict(self, NULL);
        if (own == NULL || PyDict_Update(own, d) < 0) {
            Py_XDECREF(own);
            return NULL;
        }
        Py_DECREF(own);
    }
    Py_RETURN_NONE;
}

/* ---- getbuffer() ------------------------------------------------------------------------

   The view is a memoryview over a small exporter object, so that the
   BytesIO itself is not a bytes-like object (as in CPython) and so that
   the export count lives as long as any view of the buffer. */

typedef struct {
    PyObject_HEAD
    bytesio *owner;
} buffer_exporter;

static int
exporter_getbuffer(PyObject *op, Py_buffer *view, int flags)
{
    bytesio *b = ((buffer_exporter *)op)->owner;
    if (check_open(b) < 0) {
        return -1;
    }
    if (PyBuffer_FillInfo(view, op, b->buf, b->len, 0, flags) < 0) {
        return -1;
    }
    b->exports++;
    return 0;
}

static void
exporter_releasebuffer(PyObject *op, Py_buffer *view)
{
    ((buffer_exporter *)op)->owner->exports--;
}

static void
exporter_dealloc(PyObject *op)
{
    Py_DECREF(((buffer_exporter *)op)->owner);
    PyObject_Free(op);
}

static PyBufferProcs exporter_as_buffer = {
    .bf_getbuffer = exporter_getbuffer,
    .bf_releasebuffer = exporter_releasebuffer,
};

static PyTypeObject BufferExporter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_io._BytesIOBuffer",
    .tp_basicsize = sizeof(buffer_exporter),
    .tp_dealloc = exporter_dealloc,
    .tp_as_buffer = &exporter_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
};

static PyObject *
bytesio_getbuffer(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_OPEN(BIO(self));
    if (_PyStaticType_InitBuiltin(&BufferExporter_Type) < 0) {
        return NULL;
    }
    buffer_exporter *exp = PyObject_New(buffer_exporter, &BufferExporter_Type);
    if (exp == NULL) {
        return NULL;
    }
    exp->owner = (bytesio *)Py_NewRef(self);
    PyObject *view = PyMemoryView_FromObject((PyObject *)exp);
    Py_DECREF(exp);
    return view;
}

#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL

static PyMethodDef bytesio_methods[] = {
    {"getvalue", bytesio_getvalue, METH_NOARGS, "The whole buffer as bytes."},
    {"getbuffer", bytesio_getbuffer, METH_NOARGS, "A writable memoryview of the buffer."},
    {"read", FASTCALL(bytesio_read), "Read up to size bytes."},
    {"read1", FASTCALL(bytesio_read), "Read up to size bytes."},
    {"readline", FASTCALL(bytesio_readline), "Read one line."},
    {"readlines", FASTCALL(bytesio_readlines), "Read the remaining lines."},
    {"readinto", bytesio_readinto, METH_O, "Read into a writable buffer."},
    {"readinto1", bytesio_readinto, METH_O, "Read into a writable buffer."},
    {"write", bytesio_write, METH_O, "Write bytes at the position."},
    {"writelines", bytesio_writelines, METH_O, "Write every item of an iterable."},
    {"seek", FASTCALL(bytesio_seek), "Move the position."},
    {"tell", bytesio_tell, METH_NOARGS, "The position."},
    {"truncate", FASTCALL(bytesio_truncate), "Cut the buffer at size (default: the position)."},
    {"readable", bytesio_true, METH_NOARGS, NULL},
    {"writable", bytesio_true, METH_NOARGS, NULL},
    {"seekable", bytesio_true, METH_NOARGS, NULL},
    {"isatty", bytesio_isatty, METH_NOARGS, NULL},
    {"flush", bytesio_flush, METH_NOARGS, NULL},
    {"close", bytesio_close, METH_NOARGS, "Free the buffer."},
    {"__getstate__", bytesio_getstate, METH_NOARGS, NULL},
    {"__setstate__", bytesio_setstate, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef bytesio_getset[] = {
    {"closed", bytesio_closed_get, NULL, "True once closed.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PyIO_BytesIO_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_io.BytesIO",
    .tp_basicsize = sizeof(bytesio),
    .tp_dealloc = bytesio_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "BytesIO(initial_bytes=b'')\n\nA binary stream in memory.",
    .tp_traverse = _PyIO_TraverseHead,
    .tp_clear = bytesio_clear,
    .tp_iter = bytesio_iter,
    .tp_iternext = bytesio_iternext,
    .tp_methods = bytesio_methods,
    .tp_getset = bytesio_getset,
    .tp_base = &_PyIO_BufferedIOBase_Type,
    .tp_init = bytesio_init,
    .tp_new = bytesio_new,
};
