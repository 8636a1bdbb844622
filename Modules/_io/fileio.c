/* _io.FileIO: raw, unbuffered binary I/O on an operating-system file
   descriptor.  Every call is one system call (retried on EINTR); a
   non-blocking descriptor that would block makes read/write return None. */

#include "_iomodule.h"
#include "structmember.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    IO_HEAD
    int fd;
    char readable;
    char writable;
    char appending;
    char created;
    char closefd;
    signed char seekable; /* -1 until first asked */
    Py_ssize_t blksize;
} fileio;

#define FIO(op) ((fileio *)(op))

static PyObject *
err_closed(void)
{
    return _PyIO_ClosedError("I/O operation on closed file");
}

static PyObject *
err_mode(const char *action)
{
    PyErr_Format(_PyIO_UnsupportedOperation, "File not open for %s", action);
    return NULL;
}

/* The descriptor-level loops shared with the buffered classes. */
Py_ssize_t
_PyIO_FileIO_RawRead(PyObject *self, char *buf, Py_ssize_t n)
{
    fileio *f = FIO(self);
    if (f->fd < 0) {
        err_closed();
        return -1;
    }
    if (!f->readable) {
        err_mode("reading");
        return -1;
    }
    for (;;) {
        ssize_t got = read(f->fd, buf, (size_t)n);
        if (got >= 0) {
            return got;
        }
        if (errno == EINTR) {
            if (PyErr_CheckSignals() < 0) {
                return -1;
            }
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return -2;
        }
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
}

Py_ssize_t
_PyIO_FileIO_RawWrite(PyObject *self, const char *buf, Py_ssize_t n)
{
    fileio *f = FIO(self);
    if (f->fd < 0) {
        err_closed();
        return -1;
    }
    if (!f->writable) {
        err_mode("writing");
        return -1;
    }
    for (;;) {
        ssize_t done = write(f->fd, buf, (size_t)n);
        if (done >= 0) {
            return done;
        }
        if (errno == EINTR) {
            if (PyErr_CheckSignals() < 0) {
                return -1;
            }
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return -2;
        }
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
}

/* ---- Construction ------------------------------------------------------------------- */

/* Turn a mode string into open(2) flags and the object's mode bits. */
static int
parse_mode(fileio *f, PyObject *modeobj, int *flags)
{
    const char *mode = PyUnicode_AsUTF8(modeobj);
    if (mode == NULL) {
        return -1;
    }
    int primary = 0, plus = 0, acc = 0;
    for (const char *p = mode; *p; p++) {
        switch (*p) {
        case 'r':
        case 'w':
        case 'x':
        case 'a':
            if (primary++) {
                goto bad_combo;
            }
            f->readable = *p == 'r';
            f->writable = *p != 'r';
            f->created = *p == 'x';
            f->appending = *p == 'a';
            acc = *p == 'r' ? 0 : *p == 'w' ? O_CREAT | O_TRUNC : *p == 'x' ? O_CREAT | O_EXCL : O_CREAT | O_APPEND;
            break;
        case '+':
            if (plus++) {
                goto bad_combo;
            }
            break;
        case 'b':
            break;
        default:
            PyErr_Format(PyExc_ValueError, "invalid mode: %.200s", mode);
            return -1;
        }
    }
    if (!primary) {
        goto bad_combo;
    }
    if (plus) {
        f->readable = f->writable = 1;
    }
    *flags = acc | O_CLOEXEC | (plus ? O_RDWR : f->readable ? O_RDONLY : O_WRONLY);
    return 0;
bad_combo:
    PyErr_SetString(PyExc_ValueError,
                    "Must have exactly one of create/read/write/append mode and at most one plus");
    return -1;
}

static int
open_with_opener(PyObject *opener, PyObject *name, int flags)
{
    PyObject *r = PyObject_CallFunction(opener, "Oi", name, flags);
    if (r == NULL) {
        return -1;
    }
    if (!PyLong_Check(r)) {
        PyErr_SetString(PyExc_TypeError, "expected integer from opener");
        Py_DECREF(r);
        return -1;
    }
    long fd = PyLong_AsLong(r);
    Py_DECREF(r);
    if (fd == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (fd < 0) {
        PyErr_Format(PyExc_ValueError, "opener returned %ld", fd);
        return -1;
    }
    return (int)fd;
}

static int
open_path(PyObject *name, int flags, PyObject *opener)
{
    if (opener != NULL && !Py_IsNone(opener)) {
        return open_with_opener(opener, name, flags);
    }
    PyObject *bytes = NULL;
    if (!PyUnicode_FSConverter(name, &bytes)) {
        return -1;
    }
    int fd;
    do {
        fd = open(PyBytes_AS_STRING(bytes), flags, 0666);
    } while (fd < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    Py_DECREF(bytes);
    if (fd < 0 && !PyErr_Occurred()) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, name);
    }
    return fd;
}

/* Close the descriptor if we own it; -1 with OSError if close(2) fails. */
static int
release_fd(fileio *f)
{
    int fd = f->fd;
    f->fd = -1;
    if (fd < 0 || !f->closefd) {
        return 0;
    }
    if (close(fd) < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    return 0;
}

static int
fileio_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"file", "mode", "closefd", "opener", NULL};
    fileio *f = FIO(self);
    PyObject *file, *mode = NULL, *opener = NULL;
    int closefd = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|UpO:FileIO", kwlist, &file, &mode, &closefd, &opener)) {
        return -1;
    }
    if (f->fd >= 0 && release_fd(f) < 0) {
        return -1;
    }
    f->readable = f->writable = f->appending = f->created = 0;
    f->seekable = -1;
    f->blksize = 0;
    if (PyFloat_Check(file)) {
        PyErr_SetString(PyExc_TypeError, "expected str, bytes or os.PathLike object, not float");
        return -1;
    }
    int flags;
    PyObject *defmode = NULL;
    if (mode == NULL) {
        mode = defmode = PyUnicode_FromString("r");
        if (mode == NULL) {
            return -1;
        }
    }
    int err = parse_mode(f, mode, &flags);
    Py_XDECREF(defmode);
    if (err < 0) {
        return -1;
    }
    int fd = -1;
    if (PyLong_Check(file)) {
        long v = PyLong_AsLong(file);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (v < 0) {
            PyErr_SetString(PyExc_ValueError, "negative file descriptor");
            return -1;
        }
        fd = (int)v;
    }
    else {
        if (!closefd) {
            PyErr_SetString(PyExc_ValueError, "Cannot use closefd=False with file name");
            return -1;
        }
        fd = open_path(file, flags, opener);
        if (fd < 0) {
            return -1;
        }
    }
    f->fd = fd;
    f->closefd = (char)closefd;
    struct stat st;
    if (fstat(fd, &st) < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        goto error;
    }
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, file);
        goto error;
    }
    f->blksize = st.st_blksize > 1 ? (Py_ssize_t)st.st_blksize : IO_DEFAULT_BUFFER_SIZE;
    if (PyObject_SetAttrString(self, "name", file) < 0) {
        goto error;
    }
    if (f->appending && lseek(fd, 0, SEEK_END) < 0 && errno != ESPIPE) {
        PyErr_SetFromErrno(PyExc_OSError);
        goto error;
    }
    return 0;
error:
    if (!PyLong_Check(file)) {
        PyObject *exc = PyErr_GetRaisedException();
        (void)release_fd(f);
        PyErr_SetRaisedException(exc);
    }
    f->fd = -1;
    return -1;
}

static PyObject *
fileio_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *self = type->tp_alloc(type, 0);
    if (self != NULL) {
        FIO(self)->fd = -1;
        FIO(self)->seekable = -1;
        FIO(self)->closefd = 1;
    }
    return self;
}

/* A FileIO has nothing to flush, so it closes its descriptor in dealloc
   rather than in a finalizer: in a garbage cycle the collector may run
   finalizers in any order, and a buffered wrapper over this file must get
   to flush into it first. */
static void
fileio_finalize(PyObject *self)
{
}

static void
fileio_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    if (FIO(self)->fd >= 0 && FIO(self)->closefd) {
        (void)close(FIO(self)->fd);
    }
    FIO(self)->fd = -1;
    _PyIO_ClearHead(self);
    Py_TYPE(self)->tp_free(self);
}

static int
fileio_clear(PyObject *self)
{
    Py_CLEAR(IO_OBJ(self)->dict);
    return 0;
}

/* ---- Methods ------------------------------------------------------------------------- */

static PyObject *
fileio_readinto(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    if (FIO(self)->fd < 0) {
        return err_closed();
    }
    if (PyObject_GetBuffer(arg, &view, PyBUF_WRITABLE) < 0) {
        return NULL;
    }
    Py_ssize_t n = _PyIO_FileIO_RawRead(self, view.buf, view.len);
    PyBuffer_Release(&view);
    if (n == -1) {
        return NULL;
    }
    if (n == -2) {
        Py_RETURN_NONE;
    }
    return PyLong_FromSsize_t(n);
}

/* How much a readall() should expect: the bytes from here to the end. */
static Py_ssize_t
remaining_hint(int fd)
{
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        return 0;
    }
    off_t pos = lseek(fd, 0, SEEK_CUR);
    if (pos < 0 || st.st_size <= pos) {
        return 0;
    }
    return (Py_ssize_t)(st.st_size - pos);
}

static PyObject *
fileio_readall(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    fileio *f = FIO(self);
    if (f->fd < 0) {
        return err_closed();
    }
    Py_ssize_t cap = remaining_hint(f->fd) + 1;
    if (cap < 8192) {
        cap = 8192;
    }
    PyObject *res = PyBytes_FromStringAndSize(NULL, cap);
    Py_ssize_t len = 0;
    while (res != NULL) {
        if (len == cap) {
            cap += cap / 2;
            if (_PyBytes_Resize(&res, cap) < 0) {
                return NULL;
            }
        }
        Py_ssize_t n = _PyIO_FileIO_RawRead(self, PyBytes_AS_STRING(res) + len, cap - len);
        if (n == -1) {
            Py_CLEAR(res);
            break;
        }
        if (n == -2) {
            if (len == 0) {
                Py_DECREF(res);
                Py_RETURN_NONE;
            }
            break;
        }
        if (n == 0) {
            break;
        }
        len += n;
    }
    if (res != NULL && _PyBytes_Resize(&res, len) < 0) {
        return NULL;
    }
    return res;
}

static PyObject *
fileio_read(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t size = -1;
    if (!_PyArg_CheckPositional("read", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &size) < 0) {
        return NULL;
    }
    if (FIO(self)->fd < 0) {
        return err_closed();
    }
    if (!FIO(self)->readable) {
        return err_mode("reading");
    }
    if (size < 0) {
        return fileio_readall(self, NULL);
    }
    PyObject *res = PyBytes_FromStringAndSize(NULL, size);
    if (res == NULL) {
        return NULL;
    }
    Py_ssize_t n = _PyIO_FileIO_RawRead(self, PyBytes_AS_STRING(res), size);
    if (n < 0) {
        Py_DECREF(res);
        if (n == -2) {
            Py_RETURN_NONE;
        }
        return NULL;
    }
    if (n != size && _PyBytes_Resize(&res, n) < 0) {
        return NULL;
    }
    return res;
}

static PyObject *
fileio_write(PyObject *self, PyObject *arg)
{
    if (FIO(self)->fd < 0) {
        return err_closed();
    }
    if (!FIO(self)->writable) {
        return err_mode("writing");
    }
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    Py_ssize_t n = _PyIO_FileIO_RawWrite(self, view.buf, view.len);
    PyBuffer_Release(&view);
    if (n == -1) {
        return NULL;
    }
    if (n == -2) {
        Py_RETURN_NONE;
    }
    return PyLong_FromSsize_t(n);
}

static PyObject *
do_lseek(fileio *f, off_t pos, int whence)
{
    if (f->fd < 0) {
        return err_closed();
    }
    off_t r = lseek(f->fd, pos, whence);
    if (r < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromLongLong((long long)r);
}

static PyObject *
fileio_seek(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int whence = 0;
    off_t pos;
    if (!_PyArg_CheckPositional("seek", nargs, 1, 2)) {
        return NULL;
    }
    if (PyFloat_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "an integer is required");
        return NULL;
    }
    if (_PyIO_OffsetArg(args[0], &pos) < 0) {
        return NULL;
    }
    if (nargs > 1) {
        whence = PyLong_AsInt(args[1]);
        if (whence == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    return do_lseek(FIO(self), pos, whence);
}

static PyObject *
fileio_tell(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return do_lseek(FIO(self), 0, SEEK_CUR);
}

static PyObject *
fileio_truncate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    fileio *f = FIO(self);
    if (!_PyArg_CheckPositional("truncate", nargs, 0, 1)) {
        return NULL;
    }
    if (f->fd < 0) {
        return err_closed();
    }
    if (!f->writable) {
        return err_mode("writing");
    }
    off_t size;
    if (nargs == 0 || Py_IsNone(args[0])) {
        size = lseek(f->fd, 0, SEEK_CUR);
        if (size < 0) {
            return PyErr_SetFromErrno(PyExc_OSError);
        }
    }
    else if (_PyIO_OffsetArg(args[0], &size) < 0) {
        return NULL;
    }
    if (ftruncate(f->fd, size) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromLongLong((long long)size);
}

static PyObject *
fileio_close(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    /* _RawIOBase.close flushes (nothing for a raw file) and marks closed. */
    PyObject *r = PyObject_CallMethod((PyObject *)&_PyIO_RawIOBase_Type, "close", "O", self);
    PyObject *exc = r == NULL ? PyErr_GetRaisedException() : NULL;
    Py_XDECREF(r);
    if (release_fd(FIO(self)) < 0) {
        if (exc != NULL) {
            PyObject *later = PyErr_GetRaisedException();
            PyException_SetContext(later, exc);
            PyErr_SetRaisedException(later);
        }
        return NULL;
    }
    if (exc != NULL) {
        PyErr_SetRaisedException(exc);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
fileio_seekable(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    fileio *f = FIO(self);
    if (f->fd < 0) {
        return err_closed();
    }
    if (f->seekable < 0) {
        f->seekable = lseek(f->fd, 0, SEEK_CUR) >= 0;
    }
    return PyBool_FromLong(f->seekable);
}

static PyObject *
fileio_readable(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (FIO(self)->fd < 0) {
        return err_closed();
    }
    return PyBool_FromLong(FIO(self)->readable);
}

static PyObject *
fileio_writable(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (FIO(self)->fd < 0) {
        return err_closed();
    }
    return PyBool_FromLong(FIO(self)->writable);
}

static PyObject *
fileio_fileno(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (FIO(self)->fd < 0) {
        return err_closed();
    }
    return PyLong_FromLong(FIO(self)->fd);
}

static PyObject *
fileio_isatty(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (FIO(self)->fd < 0) {
        return err_closed();
    }
    return PyBool_FromLong(isatty(FIO(self)->fd));
}

/* Called by wrappers being finalized; warnings are not emitted (CPython's
   ResourceWarning is ignored by default and we have no filters yet). */
static PyObject *
fileio_dealloc_warn(PyObject *self, PyObject *source)
{
    Py_RETURN_NONE;
}

static PyObject *
fileio_getstate(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyErr_Format(PyExc_TypeError, "cannot pickle '%.100s' instances", Py_TYPE(self)->tp_name);
    return NULL;
}

static const char *
mode_string(fileio *f)
{
    if (f->created) {
        return f->readable ? "xb+" : "xb";
    }
    if (f->appending) {
        return f->readable ? "ab+" : "ab";
    }
    if (f->readable) {
        return f->writable ? "rb+" : "rb";
    }
    return "wb";
}

static PyObject *
fileio_mode_get(PyObject *self, void *closure)
{
    return PyUnicode_FromString(mode_string(FIO(self)));
}

static PyObject *
fileio_closed_get(PyObject *self, void *closure)
{
    return PyBool_FromLong(FIO(self)->fd < 0);
}

static PyObject *
fileio_closefd_get(PyObject *self, void *closure)
{
    return PyBool_FromLong(FIO(self)->closefd);
}

static PyObject *
fileio_repr(PyObject *self)
{
    fileio *f = FIO(self);
    if (f->fd < 0) {
        return PyUnicode_FromFormat("<%s [closed]>", Py_TYPE(self)->tp_name);
    }
    PyObject *name = NULL;
    if (PyObject_GetOptionalAttrString(self, "name", &name) < 0) {
        return NULL;
    }
    const char *closefd = f->closefd ? "True" : "False";
    PyObject *r;
    if (name == NULL) {
        r = PyUnicode_FromFormat("<%s fd=%d mode='%s' closefd=%s>", Py_TYPE(self)->tp_name, f->fd,
                                 mode_string(f), closefd);
    }
    else {
        r = PyUnicode_FromFormat("<%s name=%R mode='%s' closefd=%s>", Py_TYPE(self)->tp_name, name,
                                 mode_string(f), closefd);
        Py_DECREF(name);
    }
    return r;
}

static PyMethodDef fileio_methods[] = {
    {"read", (PyCFunction)(void (*)(void))fileio_read, METH_FASTCALL, "Read at most size bytes (one system call)."},
    {"readall", fileio_readall, METH_NOARGS, "Read until EOF."},
    {"readinto", fileio_readinto, METH_O, "Read into a writable buffer."},
    {"write", fileio_write, METH_O, "Write a bytes-like object; returns the count written."},
    {"seek", (PyCFunction)(void (*)(void))fileio_seek, METH_FASTCALL, "Move the file position."},
    {"tell", fileio_tell, METH_NOARGS, "The current file position."},
    {"truncate", (PyCFunction)(void (*)(void))fileio_truncate, METH_FASTCALL, "Truncate the file."},
    {"close", fileio_close, METH_NOARGS, "Close the file (and the descriptor when owned)."},
    {"seekable", fileio_seekable, METH_NOARGS, NULL},
    {"readable", fileio_readable, METH_NOARGS, NULL},
    {"writable", fileio_writable, METH_NOARGS, NULL},
    {"fileno", fileio_fileno, METH_NOARGS, NULL},
    {"isatty", fileio_isatty, METH_NOARGS, NULL},
    {"_dealloc_warn", fileio_dealloc_warn, METH_O, NULL},
    {"__getstate__", fileio_getstate, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef fileio_getset[] = {
    {"closed", fileio_closed_get, NULL, "True if the file is closed.", NULL},
    {"closefd", fileio_closefd_get, NULL, "Whether close() closes the descriptor.", NULL},
    {"mode", fileio_mode_get, NULL, "The mode string.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef fileio_members[] = {
    {"_blksize", Py_T_PYSSIZET, offsetof(fileio, blksize), 0, NULL},
    {"_finalizing", Py_T_BOOL, offsetof(fileio, finalizing), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject _PyIO_FileIO_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_io.FileIO",
    .tp_basicsize = sizeof(fileio),
    .tp_dealloc = fileio_dealloc,
    .tp_repr = fileio_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "FileIO(file, mode='r', closefd=True, opener=None)\n\nRaw I/O on a file descriptor.",
    .tp_traverse = _PyIO_TraverseHead,
    .tp_clear = fileio_clear,
    .tp_methods = fileio_methods,
    .tp_members = fileio_members,
    .tp_getset = fileio_getset,
    .tp_base = &_PyIO_RawIOBase_Type,
    .tp_init = fileio_init,
    .tp_new = fileio_new,
    .tp_finalize = fileio_finalize,
};
