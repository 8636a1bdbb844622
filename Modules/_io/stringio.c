/* _io.StringIO: a text stream over an in-memory buffer of code points.

   Text is kept as an array of Py_UCS4 so that writes at any position are
   plain stores; positions are code point indexes.  The newline argument
   works as for TextIOWrapper: with None, \r and \r\n are turned into \n as
   they are written; with '\r' or '\r\n', a written \n becomes that string;
   with '' nothing is translated but any line ending ends a line. */

#include "_iomodule.h"

typedef struct {
    IO_HEAD
    Py_UCS4 *buf; /* NULL once closed */
    Py_ssize_t len;
    Py_ssize_t cap;
    Py_ssize_t pos;
    char universal;      /* newline None or '' */
    char track;          /* keep .newlines (universal) */
    PyObject *readnl;    /* str or NULL for universal */
    PyObject *writenl;   /* str replacing \n on write, or NULL */
    _PyIO_NewlineState nl;
} stringio;

#define SIO(op) ((stringio *)(op))

static int
check_open(stringio *s)
{
    if (s->buf == NULL) {
        _PyIO_ClosedError("I/O operation on closed file");
        return -1;
    }
    return 0;
}

#define CHECK_OPEN(s)        \
    if (check_open(s) < 0) { \
        return NULL;         \
    }

static int
reserve(stringio *s, Py_ssize_t need)
{
    if (need <= s->cap) {
        return 0;
    }
    Py_ssize_t cap = s->cap < 32 ? 32 : s->cap;
    while (cap < need) {
        cap = cap > PY_SSIZE_T_MAX / 8 ? need : cap * 2;
    }
    if ((size_t)cap > PY_SSIZE_T_MAX / sizeof(Py_UCS4)) {
        PyErr_NoMemory();
        return -1;
    }
    Py_UCS4 *nb = PyMem_Realloc(s->buf, (size_t)cap * sizeof(Py_UCS4));
    if (nb == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->buf = nb;
    s->cap = cap;
    return 0;
}

/* Store already-translated text at the position. */
static int
store(stringio *s, PyObject *text)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (n == 0) {
        return 0;
    }
    Py_ssize_t end = s->pos + n;
    if (reserve(s, end) < 0) {
        return -1;
    }
    for (Py_ssize_t i = s->len; i < s->pos; i++) {
        s->buf[i] = 0;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    for (Py_ssize_t i = 0; i < n; i++) {
        s->buf[s->pos + i] = PyUnicode_READ(kind, data, i);
    }
    s->pos = end;
    if (end > s->len) {
        s->len = end;
    }
    return 0;
}

/* Apply the write-side newline rules to text; returns a new reference. */
static PyObject *
translate_for_write(stringio *s, PyObject *text)
{
    if (s->track) {
        /* Each write is complete: a trailing \r is not held back. */
        return _PyIO_NewlineFeed(&s->nl, text, 1);
    }
    if (s->writenl != NULL && PyUnicode_FindChar(text, '\n', 0, PyUnicode_GET_LENGTH(text), 1) >= 0) {
        PyObject *lf = PyUnicode_FromString("\n");
        if (lf == NULL) {
            return NULL;
        }
        PyObject *r = PyUnicode_Replace(text, lf, s->writenl, -1);
        Py_DECREF(lf);
        return r;
    }
    return Py_NewRef(text);
}

static Py_ssize_t
write_str(stringio *s, PyObject *text)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    PyObject *t = translate_for_write(s, text);
    if (t == NULL) {
        return -1;
    }
    int r = store(s, t);
    Py_DECREF(t);
    return r < 0 ? -1 : n;
}

static PyObject *
slice_str(stringio *s, Py_ssize_t start, Py_ssize_t n)
{
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, s->buf + start, n);
}

static int
configure_newline(stringio *s, PyObject *newline)
{
    Py_CLEAR(s->readnl);
    Py_CLEAR(s->writenl);
    s->universal = newline == NULL || Py_IsNone(newline) || PyUnicode_GET_LENGTH(newline) == 0;
    s->track = s->universal;
    s->nl.translate = newline != NULL && Py_IsNone(newline);
    s->nl.pendingcr = s->nl.seennl = 0;
    if (!s->universal) {
        s->readnl = Py_NewRef(newline);
        if (!PyUnicode_EqualToUTF8(newline, "\n")) {
            s->writenl = Py_NewRef(newline);
        }
    }
    return 0;
}

static int
stringio_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"initial_value", "newline", NULL};
    stringio *s = SIO(self);
    PyObject *value = NULL, *newline = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:StringIO", kwlist, &value, &newline)) {
        return -1;
    }
    if (newline != NULL && !Py_IsNone(newline) && !PyUnicode_Check(newline)) {
        PyErr_Format(PyExc_TypeError, "newline must be str or None, not %.200s", Py_TYPE(newline)->tp_name);
        return -1;
    }
    if (newline != NULL && _PyIO_CheckNewline(newline, "StringIO") < 0) {
        return -1;
    }
    if (value != NULL && !Py_IsNone(value) && !PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "initial_value must be str or None, not %.200s", Py_TYPE(value)->tp_name);
        return -1;
    }
    if (newline == NULL) {
        /* The default is '\n': no translation, lines end at \n. */
        newline = PyUnicode_FromString("\n");
        if (newline == NULL) {
            return -1;
        }
        configure_newline(s, newline);
        Py_DECREF(newline);
    }
    else {
        configure_newline(s, newline);
    }
    s->len = s->pos = 0;
    if (reserve(s, 1) < 0) {
        return -1;
    }
    if (value != NULL && !Py_IsNone(value)) {
        if (write_str(s, value) < 0) {
            return -1;
        }
        s->pos = 0;
    }
    return 0;
}

static PyObject *
stringio_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *self = type->tp_alloc(type, 0);
    if (self != NULL && reserve(SIO(self), 1) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

static void
stringio_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    _PyIO_ClearHead(self);
    PyMem_Free(SIO(self)->buf);
    Py_CLEAR(SIO(self)->readnl);
    Py_CLEAR(SIO(self)->writenl);
    Py_TYPE(self)->tp_free(self);
}

static int
stringio_clear(PyObject *self)
{
    Py_CLEAR(IO_OBJ(self)->dict);
    return 0;
}

/* ---- Methods ------------------------------------------------------------------------- */

static PyObject *
stringio_getvalue(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_OPEN(SIO(self));
    return slice_str(SIO(self), 0, SIO(self)->len);
}

static PyObject *
take(stringio *s, Py_ssize_t n)
{
    Py_ssize_t avail = s->len > s->pos ? s->len - s->pos : 0;
    if (n < 0 || n > avail) {
        n = avail;
    }
    PyObject *r = slice_str(s, s->pos, n);
    if (r != NULL) {
        s->pos += n;
    }
    return r;
}

static PyObject *
stringio_read(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    if (!_PyArg_CheckPositional("read", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &n) < 0) {
        return NULL;
    }
    CHECK_OPEN(SIO(self));
    return take(SIO(self), n);
}

/* Length of the next line from the position, at most limit (if >= 0). */
static Py_ssize_t
next_line_length(stringio *s, Py_ssize_t limit)
{
    Py_ssize_t avail = s->len > s->pos ? s->len - s->pos : 0;
    if (limit >= 0 && limit < avail) {
        avail = limit;
    }
    const Py_UCS4 *p = s->buf + s->pos;
    if (s->universal) {
        for (Py_ssize_t i = 0; i < avail; i++) {
            if (p[i] == '\n') {
                return i + 1;
            }
            if (p[i] == '\r') {
                return (i + 1 < avail && p[i + 1] == '\n') ? i + 2 : i + 1;
            }
        }
        return avail;
    }
    /* No readnl (only before __init__ has run) means "\n". */
    Py_ssize_t nlen = s->readnl ? PyUnicode_GET_LENGTH(s->readnl) : 1;
    Py_UCS4 first = s->readnl ? PyUnicode_READ_CHAR(s->readnl, 0) : '\n';
    Py_UCS4 second = nlen > 1 ? PyUnicode_READ_CHAR(s->readnl, 1) : 0;
    for (Py_ssize_t i = 0; i + nlen <= avail; i++) {
        if (p[i] == first && (nlen == 1 || p[i + 1] == second)) {
            return i + nlen;
        }
    }
    return avail;
}

static PyObject *
stringio_readline(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t limit;
    if (!_PyArg_CheckPositional("readline", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &limit) < 0) {
        return NULL;
    }
    CHECK_OPEN(SIO(self));
    return take(SIO(self), next_line_length(SIO(self), limit));
}

/* The _IOBase check, hence its message (with the full stop). */
static PyObject *
stringio_iter(PyObject *self)
{
    if (SIO(self)->buf == NULL) {
        return _PyIO_ClosedError(NULL);
    }
    return Py_NewRef(self);
}

static PyObject *
stringio_iternext(PyObject *self)
{
    stringio *s = SIO(self);
    CHECK_OPEN(s);
    if (!Py_IS_TYPE(self, &_PyIO_StringIO_Type)) {
        /* A subclass may override readline(). */
        return _PyIO_IterNext(self);
    }
    Py_ssize_t n = next_line_length(s, -1);
    return n == 0 ? NULL : take(s, n);
}

static PyObject *
stringio_write(PyObject *self, PyObject *arg)
{
    CHECK_OPEN(SIO(self));
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "string argument expected, got '%.200s'", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    Py_ssize_t n = write_str(SIO(self), arg);
    return n < 0 ? NULL : PyLong_FromSsize_t(n);
}

static PyObject *
stringio_seek(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    stringio *s = SIO(self);
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
    CHECK_OPEN(s);
    if (whence < 0 || whence > 2) {
        PyErr_Format(PyExc_ValueError, "Invalid whence (%d, should be 0, 1 or 2)", whence);
        return NULL;
    }
    if (whence == 0 && pos < 0) {
        PyErr_Format(PyExc_ValueError, "Negative seek position %zd", pos);
        return NULL;
    }
    if (whence != 0 && pos != 0) {
        PyErr_SetString(PyExc_OSError, "Can't do nonzero cur-relative seeks");
        return NULL;
    }
    if (whence == 2) {
        pos = s->len;
    }
    else if (whence == 1) {
        pos = s->pos;
    }
    s->pos = pos;
    return PyLong_FromSsize_t(pos);
}

static PyObject *
stringio_tell(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_OPEN(SIO(self));
    return PyLong_FromSsize_t(SIO(self)->pos);
}

static PyObject *
stringio_truncate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    stringio *s = SIO(self);
    if (!_PyArg_CheckPositional("truncate", nargs, 0, 1)) {
        return NULL;
    }
    CHECK_OPEN(s);
    Py_ssize_t size = s->pos;
    if (nargs && !Py_IsNone(args[0])) {
        size = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
        if (size == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (size < 0) {
            PyErr_Format(PyExc_ValueError, "Negative size value %zd", size);
            return NULL;
        }
    }
    if (size < s->len) {
        s->len = size;
    }
    return PyLong_FromSsize_t(size);
}

static PyObject *
stringio_true(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK_OPEN(SIO(self));
    Py_RETURN_TRUE;
}

static PyObject *
stringio_close(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    stringio *s = SIO(self);
    PyMem_Free(s->buf);
    s->buf = NULL;
    s->len = s->cap = s->pos = 0;
    s->base_closed = 1;
    Py_RETURN_NONE;
}

static PyObject *
stringio_closed_get(PyObject *self, void *closure)
{
    return PyBool_FromLong(SIO(self)->buf == NULL);
}

static PyObject *
stringio_false_get(PyObject *self, void *closure)
{
    CHECK_OPEN(SIO(self));
    Py_RETURN_FALSE;
}

static PyObject *
stringio_newlines_get(PyObject *self, void *closure)
{
    CHECK_OPEN(SIO(self));
    if (!SIO(self)->track) {
        Py_RETURN_NONE;
    }
    return _PyIO_NewlinesValue(SIO(self)->nl.seennl);
}

static PyObject *
stringio_getstate(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    stringio *s = SIO(self);
    PyObject *value = stringio_getvalue(self, NULL);
    if (value == NULL) {
        return NULL;
    }
    PyObject *nl = s->universal ? (s->nl.translate ? Py_NewRef(Py_None) : PyUnicode_FromString(""))
                                : Py_NewRef(s->readnl);
    PyObject *d = IO_OBJ(self)->dict ? PyDict_Copy(IO_OBJ(self)->dict) : Py_NewRef(Py_None);
    if (d == NULL || nl == NULL) {
        Py_DECREF(value);
        Py_XDECREF(nl);
        Py_XDECREF(d);
        return NULL;
    }
    return Py_BuildValue("(NNnN)", value, nl, s->pos, d);
}

#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL

static PyMethodDef stringio_methods[] = {
    {"getvalue", stringio_getvalue, METH_NOARGS, "The whole buffer as a str."},
    {"read", FASTCALL(stringio_read), "Read up to size characters."},
    {"readline", FASTCALL(stringio_readline), "Read one line."},
    {"write", stringio_write, METH_O, "Write a str at the position."},
    {"seek", FASTCALL(stringio_seek), "Move the position."},
    {"tell", stringio_tell, METH_NOARGS, "The position."},
    {"truncate", FASTCALL(stringio_truncate), "Cut the buffer at size (default: the position)."},
    {"readable", stringio_true, METH_NOARGS, NULL},
    {"writable", stringio_true, METH_NOARGS, NULL},
    {"seekable", stringio_true, METH_NOARGS, NULL},
    {"close", stringio_close, METH_NOARGS, "Free the buffer."},
    {"__getstate__", stringio_getstate, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef stringio_getset[] = {
    {"closed", stringio_closed_get, NULL, NULL, NULL},
    {"line_buffering", stringio_false_get, NULL, NULL, NULL},
    {"newlines", stringio_newlines_get, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PyIO_StringIO_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_io.StringIO",
    .tp_basicsize = sizeof(stringio),
    .tp_dealloc = stringio_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "StringIO(initial_value='', newline='\\n')\n\nA text stream in memory.",
    .tp_traverse = _PyIO_TraverseHead,
    .tp_clear = stringio_clear,
    .tp_iter = stringio_iter,
    .tp_iternext = stringio_iternext,
    .tp_methods = stringio_methods,
    .tp_getset = stringio_getset,
    .tp_base = &_PyIO_TextIOBase_Type,
    .tp_init = stringio_init,
    .tp_new = stringio_new,
};
