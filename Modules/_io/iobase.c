/* The abstract io base classes: _IOBase, _RawIOBase, _BufferedIOBase and
   _TextIOBase.  Their methods are the defaults io.py's ABCs inherit; they
   call other methods through attribute lookup so Python subclasses that
   override read()/readinto()/peek() get the generic behaviour for free. */

#include "_iomodule.h"
#include "structmember.h"

/* ---- Shared helpers ---------------------------------------------------------------- */

PyObject *
_PyIO_Unsupported(const char *msg)
{
    PyErr_SetString(_PyIO_UnsupportedOperation, msg);
    return NULL;
}

PyObject *
_PyIO_ClosedError(const char *msg)
{
    PyErr_SetString(PyExc_ValueError, msg ? msg : "I/O operation on closed file.");
    return NULL;
}

int
_PyIO_IsClosed(PyObject *obj)
{
    PyObject *v = PyObject_GetAttrString(obj, "closed");
    if (v == NULL) {
        return -1;
    }
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

int
_PyIO_CheckClosed(PyObject *obj)
{
    int r = _PyIO_IsClosed(obj);
    if (r > 0) {
        _PyIO_ClosedError(NULL);
        return -1;
    }
    return r;
}

int
_PyIO_SizeArg(PyObject *arg, Py_ssize_t *out)
{
    if (arg == NULL || Py_IsNone(arg)) {
        *out = -1;
        return 0;
    }
    if (!PyIndex_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "argument should be integer or None, not '%.200s'",
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    Py_ssize_t n = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (n == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = n;
    return 0;
}

int
_PyIO_OffsetArg(PyObject *arg, off_t *out)
{
    PyObject *idx = PyNumber_Index(arg);
    if (idx == NULL) {
        return -1;
    }
    long long v = PyLong_AsLongLong(idx);
    Py_DECREF(idx);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (off_t)v;
    return 0;
}

PyObject *
_PyIO_IterNext(PyObject *self)
{
    PyObject *line = PyObject_CallMethod(self, "readline", NULL);
    if (line == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyObject_Size(line);
    if (n <= 0) {
        /* Exhausted (or a size error, which propagates). */
        Py_DECREF(line);
        return NULL;
    }
    return line;
}

void
_PyIO_Finalize(PyObject *self)
{
    PyObject *exc = PyErr_GetRaisedException();
    int closed = _PyIO_IsClosed(self);
    if (closed == 0) {
        IO_OBJ(self)->finalizing = 1;
        PyObject *r = PyObject_CallMethod(self, "close", NULL);
        Py_XDECREF(r);
    }
    /* Errors while closing an abandoned file have nowhere to go. */
    PyErr_Clear();
    PyErr_SetRaisedException(exc);
}

void
_PyIO_ClearHead(PyObject *self)
{
    if (IO_OBJ(self)->weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    Py_CLEAR(IO_OBJ(self)->dict);
}

int
_PyIO_TraverseHead(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(IO_OBJ(self)->dict);
    return 0;
}

PyGetSetDef _PyIO_DictGetSet = {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict,
                                NULL, NULL};

PyObject *
_PyIO_ReprWithName(PyObject *self, const char *tail_fmt, PyObject *tail)
{
    const char *tname = Py_TYPE(self)->tp_name;
    PyObject *name = NULL;
    if (PyObject_GetOptionalAttrString(self, "name", &name) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError)) {
            return NULL;
        }
        /* A detached or closed wrapper has no name to show. */
        PyErr_Clear();
    }
    PyObject *head = name ? PyUnicode_FromFormat("<%s name=%R", tname, name)
                          : PyUnicode_FromFormat("<%s", tname);
    Py_XDECREF(name);
    if (head == NULL || tail_fmt == NULL) {
        if (head != NULL) {
            PyUnicode_AppendAndDel(&head, PyUnicode_FromString(">"));
        }
        return head;
    }
    PyObject *rest = PyUnicode_FromFormat(tail_fmt, tail);
    if (rest == NULL) {
        Py_DECREF(head);
        return NULL;
    }
    PyUnicode_Append(&head, rest);
    Py_DECREF(rest);
    return head;
}

/* ---- _IOBase --------------------------------------------------------------------------- */

static PyObject *
iobase_unsupported_seek(PyObject *self, PyObject *args)
{
    return _PyIO_Unsupported("seek");
}

static PyObject *
iobase_tell(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyObject_CallMethod(self, "seek", "ii", 0, 1);
}

static PyObject *
iobase_truncate(PyObject *self, PyObject *args)
{
    return _PyIO_Unsupported("truncate");
}

static PyObject *
iobase_fileno(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return _PyIO_Unsupported("fileno");
}

static PyObject *
iobase_flush(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (IO_OBJ(self)->base_closed) {
        return _PyIO_ClosedError(NULL);
    }
    Py_RETURN_NONE;
}

static PyObject *
iobase_close(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (IO_OBJ(self)->base_closed) {
        Py_RETURN_NONE;
    }
    PyObject *r = PyObject_CallMethod(self, "flush", NULL);
    /* Closed even when flushing fails, so close() is not retried forever. */
    IO_OBJ(self)->base_closed = 1;
    if (r == NULL) {
        return NULL;
    }
    Py_DECREF(r);
    Py_RETURN_NONE;
}

static PyObject *
iobase_closed_get(PyObject *self, void *closure)
{
    return PyBool_FromLong(IO_OBJ(self)->base_closed);
}

static PyObject *
return_false(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_FALSE;
}

static PyObject *
iobase_isatty(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (_PyIO_CheckClosed(self) < 0) {
        return NULL;
    }
    Py_RETURN_FALSE;
}

/* _checkReadable() and friends: call the predicate, raise if false. */
static PyObject *
check_predicate(PyObject *self, const char *method, const char *msg)
{
    PyObject *r = PyObject_CallMethod(self, method, NULL);
    if (r == NULL) {
        return NULL;
    }
    int ok = PyObject_IsTrue(r);
    Py_DECREF(r);
    if (ok < 0) {
        return NULL;
    }
    if (!ok) {
        return _PyIO_Unsupported(msg);
    }
    Py_RETURN_TRUE;
}

static PyObject *
iobase_check_readable(PyObject *self, PyObject *args)
{
    return check_predicate(self, "readable", "File or stream is not readable.");
}

static PyObject *
iobase_check_writable(PyObject *self, PyObject *args)
{
    return check_predicate(self, "writable", "File or stream is not writable.");
}

static PyObject *
iobase_check_seekable(PyObject *self, PyObject *args)
{
    return check_predicate(self, "seekable", "File or stream is not seekable.");
}

static PyObject *
iobase_check_closed(PyObject *self, PyObject *args)
{
    if (_PyIO_CheckClosed(self) < 0) {
        return NULL;
    }
    Py_RETURN_TRUE;
}

static PyObject *
iobase_enter(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (_PyIO_CheckClosed(self) < 0) {
        return NULL;
    }
    return Py_NewRef(self);
}

static PyObject *
iobase_exit(PyObject *self, PyObject *args)
{
    return PyObject_CallMethod(self, "close", NULL);
}

static PyObject *
iobase_iter(PyObject *self)
{
    if (_PyIO_CheckClosed(self) < 0) {
        return NULL;
    }
    return Py_NewRef(self);
}

/* How many bytes the next read may take to stop right after a newline:
   asks peek() when the object has one, else reads byte by byte. */
static Py_ssize_t
readline_step(PyObject *self, int has_peek, Py_ssize_t limit)
{
    if (!has_peek) {
        return 1;
    }
    PyObject *ahead = PyObject_CallMethod(self, "peek", "i", 1);
    if (ahead == NULL) {
        return -1;
    }
    if (!PyBytes_Check(ahead)) {
        PyErr_Format(PyExc_OSError, "peek() should have returned a bytes object, not '%.200s'",
                     Py_TYPE(ahead)->tp_name);
        Py_DECREF(ahead);
        return -1;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(ahead);
    const char *nl = memchr(PyBytes_AS_STRING(ahead), '\n', (size_t)n);
    if (nl != NULL) {
        n = nl - PyBytes_AS_STRING(ahead) + 1;
    }
    Py_DECREF(ahead);
    if (n == 0) {
        n = 1;
    }
    if (limit >= 0 && n > limit) {
        n = limit;
    }
    return n;
}

static PyObject *
iobase_readline(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t limit = -1;
    if (!_PyArg_CheckPositional("readline", nargs, 0, 1) ||
        _PyIO_SizeArg(nargs ? args[0] : NULL, &limit) < 0) {
        return NULL;
    }
    int has_peek = PyObject_HasAttrString(self, "peek");
    PyObject *acc = PyByteArray_FromStringAndSize(NULL, 0);
    if (acc == NULL) {
        return NULL;
    }
    while (limit < 0 || PyByteArray_GET_SIZE(acc) < limit) {
        Py_ssize_t want = readline_step(self, has_peek,
                                        limit < 0 ? -1 : limit - PyByteArray_GET_SIZE(acc));
        if (want < 0) {
            goto error;
        }
        PyObject *chunk = PyObject_CallMethod(self, "read", "n", want);
        if (chunk == NULL) {
            goto error;
        }
        if (!PyBytes_Check(chunk)) {
            PyErr_Format(PyExc_OSError, "read() should have returned a bytes object, not '%.200s'",
                         Py_TYPE(chunk)->tp_name);
            Py_DECREF(chunk);
            goto error;
        }
        Py_ssize_t n = PyBytes_GET_SIZE(chunk);
        int done = n == 0 || PyBytes_AS_STRING(chunk)[n - 1] == '\n';
        PyObject *r = n ? PySequence_InPlaceConcat(acc, chunk) : Py_NewRef(acc);
        Py_DECREF(chunk);
        if (r == NULL) {
            goto error;
        }
        Py_DECREF(r);
        if (done) {
            break;
        }
    }
    PyObject *res = PyBytes_FromStringAndSize(PyByteArray_AS_STRING(acc), PyByteArray_GET_SIZE(acc));
    Py_DECREF(acc);
    return res;
error:
    Py_DECREF(acc);
    return NULL;
}

static PyObject *
iobase_readlines(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t hint = -1;
    if (!_PyArg_CheckPositional("readlines", nargs, 0, 1) ||
        _PyIO_SizeArg(nargs ? args[0] : NULL, &hint) < 0) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(self);
    if (it == NULL) {
        return NULL;
    }
    PyObject *lines = PyList_New(0);
    Py_ssize_t total = 0;
    PyObject *line;
    while (lines != NULL && (line = PyIter_Next(it)) != NULL) {
        Py_ssize_t n = PyObject_Size(line);
        if (n < 0 || PyList_Append(lines, line) < 0) {
            Py_CLEAR(lines);
        }
        Py_DECREF(line);
        total += n;
        if (hint > 0 && total >= hint) {
            break;
        }
    }
    Py_DECREF(it);
    if (lines != NULL && PyErr_Occurred()) {
        Py_CLEAR(lines);
    }
    return lines;
}

static PyObject *
iobase_writelines(PyObject *self, PyObject *lines)
{
    if (_PyIO_CheckClosed(self) < 0) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(lines);
    if (it == NULL) {
        return NULL;
    }
    PyObject *line;
    while ((line = PyIter_Next(it)) != NULL) {
        PyObject *r = PyObject_CallMethod(self, "write", "O", line);
        Py_DECREF(line);
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

static void
iobase_dealloc(PyObject *self)
{
    if (PyObject_CallFinalizerFromDealloc(self) < 0) {
        return;
    }
    PyObject_GC_UnTrack(self);
    _PyIO_ClearHead(self);
    Py_TYPE(self)->tp_free(self);
}

static int
iobase_clear(PyObject *self)
{
    Py_CLEAR(IO_OBJ(self)->dict);
    return 0;
}

static PyMethodDef iobase_methods[] = {
    {"seek", iobase_unsupported_seek, METH_VARARGS, "Change the stream position."},
    {"tell", iobase_tell, METH_NOARGS, "Return the stream position."},
    {"truncate", iobase_truncate, METH_VARARGS, "Truncate the stream."},
    {"flush", iobase_flush, METH_NOARGS, "Flush write buffers (nothing here)."},
    {"close", iobase_close, METH_NOARGS, "Flush and close the stream."},
    {"seekable", return_false, METH_NOARGS, "Whether seek() works."},
    {"readable", return_false, METH_NOARGS, "Whether read() works."},
    {"writable", return_false, METH_NOARGS, "Whether write() works."},
    {"_checkClosed", iobase_check_closed, METH_VARARGS, NULL},
    {"_checkSeekable", iobase_check_seekable, METH_VARARGS, NULL},
    {"_checkReadable", iobase_check_readable, METH_VARARGS, NULL},
    {"_checkWritable", iobase_check_writable, METH_VARARGS, NULL},
    {"fileno", iobase_fileno, METH_NOARGS, "The underlying file descriptor."},
    {"isatty", iobase_isatty, METH_NOARGS, "Whether the stream is a terminal."},
    {"__enter__", iobase_enter, METH_NOARGS, NULL},
    {"__exit__", iobase_exit, METH_VARARGS, NULL},
    {"readline", (PyCFunction)(void (*)(void))iobase_readline, METH_FASTCALL,
     "Read up to and including the next b'\\n'."},
    {"readlines", (PyCFunction)(void (*)(void))iobase_readlines, METH_FASTCALL,
     "Read lines into a list (stopping once hint bytes are reached)."},
    {"writelines", iobase_writelines, METH_O, "Write every item of an iterable."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef iobase_getset[] = {
    {"closed", iobase_closed_get, NULL, NULL, NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define IO_BASE_FLAGS (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC)

PyTypeObject _PyIO_IOBase_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_io._IOBase",
    .tp_basicsize = sizeof(_PyIO_Object),
    .tp_dealloc = iobase_dealloc,
    .tp_flags = IO_BASE_FLAGS,
    .tp_doc = "The base class of all I/O classes.",
    .tp_traverse = _PyIO_TraverseHead,
    .tp_clear = iobase_clear,
    .tp_weaklistoffset = offsetof(_PyIO_Object, weakreflist),
    .tp_iter = iobase_iter,
    .tp_iternext = _PyIO_IterNext,
    .tp_methods = iobase_methods,
    .tp_getset = iobase_getset,
    .tp_dictoffset = offsetof(_PyIO_Object, dict),
    .tp_new = PyType_GenericNew,
    .tp_finalize = _PyIO_Finalize,
};

/* ---- _RawIOBase ------------------------------------------------------------------------ */

static PyObject *
rawiobase_read(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n = -1;
    if (!_PyArg_CheckPositional("read", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &n) < 0) {
        return NULL;
    }
    if (n < 0) {
        return PyObject_CallMethod(self, "readall", NULL);
    }
    PyObject *b = PyByteArray_FromStringAndSize(NULL, n);
    if (b == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_CallMethod(self, "readinto", "O", b);
    if (r == NULL || Py_IsNone(r)) {
        Py_DECREF(b);
        return r;
    }
    Py_ssize_t got = PyNumber_AsSsize_t(r, PyExc_ValueError);
    Py_DECREF(r);
    if (got == -1 && PyErr_Occurred()) {
        Py_DECREF(b);
        return NULL;
    }
    if (got < 0 || got > n) {
        Py_DECREF(b);
        PyErr_Format(PyExc_ValueError, "readinto returned %zd outside buffer size %zd", got, n);
        return NULL;
    }
    PyObject *res = PyBytes_FromStringAndSize(PyByteArray_AS_STRING(b), got);
    Py_DECREF(b);
    return res;
}

static PyObject *
rawiobase_readall(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *acc = PyBytes_FromStringAndSize(NULL, 0);
    while (acc != NULL) {
        PyObject *chunk = PyObject_CallMethod(self, "read", "i", IO_DEFAULT_BUFFER_SIZE);
        if (chunk == NULL) {
            Py_CLEAR(acc);
            break;
        }
        if (Py_IsNone(chunk)) {
            /* Non-blocking and nothing yet: None, else what we have. */
            Py_DECREF(chunk);
            if (PyBytes_GET_SIZE(acc) == 0) {
                Py_DECREF(acc);
                Py_RETURN_NONE;
            }
            break;
        }
        if (!PyBytes_Check(chunk)) {
            PyErr_SetString(PyExc_TypeError, "read() should return bytes");
            Py_DECREF(chunk);
            Py_CLEAR(acc);
            break;
        }
        Py_ssize_t n = PyBytes_GET_SIZE(chunk);
        PyBytes_ConcatAndDel(&acc, chunk);
        if (n == 0) {
            break;
        }
    }
    return acc;
}

static PyObject *
not_implemented(PyObject *self, PyObject *args)
{
    PyErr_SetNone(PyExc_NotImplementedError);
    return NULL;
}

static PyMethodDef rawiobase_methods[] = {
    {"read", (PyCFunction)(void (*)(void))rawiobase_read, METH_FASTCALL, "Read up to size bytes."},
    {"readall", rawiobase_readall, METH_NOARGS, "Read until EOF."},
    {"readinto", not_implemented, METH_VARARGS, NULL},
    {"write", not_implemented, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject _PyIO_RawIOBase_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_io._RawIOBase",
    .tp_basicsize = sizeof(_PyIO_Object),
    .tp_dealloc = iobase_dealloc,
    .tp_flags = IO_BASE_FLAGS,
    .tp_doc = "Base class for raw binary I/O.",
    .tp_traverse = _PyIO_TraverseHead,
    .tp_clear = iobase_clear,
    .tp_methods = rawiobase_methods,
    .tp_base = &_PyIO_IOBase_Type,
    .tp_new = PyType_GenericNew,
    .tp_finalize = _PyIO_Finalize,
};

/* ---- _BufferedIOBase ------------------------------------------------------------------- */

static PyObject *
bufiobase_read(PyObject *self, PyObject *args)
{
    return _PyIO_Unsupported("read");
}

static PyObject *
bufiobase_read1(PyObject *self, PyObject *args)
{
    return _PyIO_Unsupported("read1");
}

static PyObject *
bufiobase_write(PyObject *self, PyObject *args)
{
    return _PyIO_Unsupported("write");
}

static PyObject *
bufiobase_detach(PyObject *self, PyObject *args)
{
    return _PyIO_Unsupported("detach");
}

/* readinto(b) through read(len(b)) or read1(len(b)). */
static PyObject *
readinto_via(PyObject *self, PyObject *arg, const char *method)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_WRITABLE) < 0) {
        return NULL;
    }
    PyObject *data = PyObject_CallMethod(self, method, "n", view.len);
    if (data == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    if (!PyBytes_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "read() should return bytes");
        goto error;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(data);
    if (n > view.len) {
        PyErr_Format(PyExc_ValueError, "read() returned too much data: %zd bytes requested, %zd returned",
                     view.len, n);
        goto error;
    }
    memcpy(view.buf, PyBytes_AS_STRING(data), (size_t)n);
    Py_DECREF(data);
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(n);
error:
    Py_DECREF(data);
    PyBuffer_Release(&view);
    return NULL;
}

static PyObject *
bufiobase_readinto(PyObject *self, PyObject *arg)
{
    return readinto_via(self, arg, "read");
}

static PyObject *
bufiobase_readinto1(PyObject *self, PyObject *arg)
{
    return readinto_via(self, arg, "read1");
}

static PyMethodDef bufiobase_methods[] = {
    {"read", bufiobase_read, METH_VARARGS, NULL},
    {"read1", bufiobase_read1, METH_VARARGS, NULL},
    {"write", bufiobase_write, METH_VARARGS, NULL},
    {"detach", bufiobase_detach, METH_NOARGS, NULL},
    {"readinto", bufiobase_readinto, METH_O, "Read into a writable buffer."},
    {"readinto1", bufiobase_readinto1, METH_O, "Read into a buffer with at most one raw read."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject _PyIO_BufferedIOBase_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_io._BufferedIOBase",
    .tp_basicsize = sizeof(_PyIO_Object),
    .tp_dealloc = iobase_dealloc,
    .tp_flags = IO_BASE_FLAGS,
    .tp_doc = "Base class for buffered binary I/O.",
    .tp_traverse = _PyIO_TraverseHead,
    .tp_clear = iobase_clear,
    .tp_methods = bufiobase_methods,
    .tp_base = &_PyIO_IOBase_Type,
    .tp_new = PyType_GenericNew,
    .tp_finalize = _PyIO_Finalize,
};

/* ---- _TextIOBase ----------------------------------------------------------------------- */

static PyObject *
textiobase_readline(PyObject *self, PyObject *args)
{
    return _PyIO_Unsupported("readline");
}

static PyObject *
return_none_attr(PyObject *self, void *closure)
{
    Py_RETURN_NONE;
}

static PyMethodDef textiobase_methods[] = {
    {"read", bufiobase_read, METH_VARARGS, NULL},
    {"readline", textiobase_readline, METH_VARARGS, NULL},
    {"write", bufiobase_write, METH_VARARGS, NULL},
    {"detach", bufiobase_detach, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef textiobase_getset[] = {
    {"encoding", return_none_attr, NULL, NULL, NULL},
    {"newlines", return_none_attr, NULL, NULL, NULL},
    {"errors", return_none_attr, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PyIO_TextIOBase_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_io._TextIOBase",
    .tp_basicsize = sizeof(_PyIO_Object),
    .tp_dealloc = iobase_dealloc,
    .tp_flags = IO_BASE_FLAGS,
    .tp_doc = "Base class for text I/O.",
    .tp_traverse = _PyIO_TraverseHead,
    .tp_clear = iobase_clear,
    .tp_methods = textiobase_methods,
    .tp_getset = textiobase_getset,
    .tp_base = &_PyIO_IOBase_Type,
    .tp_new = PyType_GenericNew,
    .tp_finalize = _PyIO_Finalize,
};
