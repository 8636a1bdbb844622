/* The PyFile_* C API over Python file objects, and the std printer.

   The std printer is a minimal text file over a file descriptor, used for
   sys.stdout and sys.stderr until start-up replaces them with io streams
   (init_stdio in Python/pylifecycle.c), and as a fallback after that.  Like io's
   defaults it buffers stdout (line-buffered on a terminal) and writes
   stderr through at once.  Text is written as UTF-8 with
   "backslashreplace" for lone surrogates. */

#include "Python.h"
#include "pycore_object.h"
#include <unistd.h>

#define PRINTER_BUFSIZE 8192

typedef struct {
    PyObject_HEAD
    int fd;
    int line_buffered;
    int unbuffered;
    Py_ssize_t len;
    char buf[PRINTER_BUFSIZE];
} PyStdPrinter_Object;

static int
write_all(int fd, const char *data, Py_ssize_t size)
{
    while (size > 0) {
        ssize_t n = write(fd, data, (size_t)size);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            PyErr_SetFromErrno(PyExc_OSError);
            return -1;
        }
        data += n;
        size -= n;
    }
    return 0;
}

static int
printer_flush_buffer(PyStdPrinter_Object *self)
{
    Py_ssize_t len = self->len;
    self->len = 0;
    return write_all(self->fd, self->buf, len);
}

static int
printer_write_bytes(PyStdPrinter_Object *self, const char *data, Py_ssize_t size)
{
    if (self->unbuffered) {
        return write_all(self->fd, data, size);
    }
    if (self->len + size > PRINTER_BUFSIZE) {
        if (printer_flush_buffer(self) < 0) {
            return -1;
        }
        if (size > PRINTER_BUFSIZE) {
            return write_all(self->fd, data, size);
        }
    }
    memcpy(self->buf + self->len, data, (size_t)size);
    self->len += size;
    if (self->line_buffered && memchr(data, '\n', (size_t)size) != NULL) {
        return printer_flush_buffer(self);
    }
    return 0;
}

static PyObject *
printer_write(PyObject *op, PyObject *arg)
{
    PyStdPrinter_Object *self = (PyStdPrinter_Object *)op;
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "write() argument must be str, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    Py_ssize_t size;
    const char *data = PyUnicode_AsUTF8AndSize(arg, &size);
    PyObject *bytes = NULL;
    if (data == NULL) {
        /* Lone surrogates: fall back to an escaped encoding. */
        PyErr_Clear();
        bytes = PyUnicode_AsEncodedString(arg, "utf-8", "backslashreplace");
        if (bytes == NULL) {
            return NULL;
        }
        data = PyBytes_AS_STRING(bytes);
        size = PyBytes_GET_SIZE(bytes);
    }
    int err = printer_write_bytes(self, data, size);
    Py_XDECREF(bytes);
    if (err < 0) {
        return NULL;
    }
    return PyLong_FromSsize_t(PyUnicode_GET_LENGTH(arg));
}

static PyObject *
printer_flush(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    if (printer_flush_buffer((PyStdPrinter_Object *)op) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
printer_fileno(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(((PyStdPrinter_Object *)op)->fd);
}

static PyObject *
printer_isatty(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(isatty(((PyStdPrinter_Object *)op)->fd));
}

static PyObject *
printer_false(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_FALSE;
}

static PyObject *
printer_repr(PyObject *op)
{
    return PyUnicode_FromFormat("<stdprinter(fd=%d) object at %p>", ((PyStdPrinter_Object *)op)->fd, op);
}

static void
printer_dealloc(PyObject *op)
{
    PyStdPrinter_Object *self = (PyStdPrinter_Object *)op;
    if (self->len) {
        (void)write_all(self->fd, self->buf, self->len);
    }
    PyObject_Free(op);
}

static PyObject *
printer_get_encoding(PyObject *op, void *closure)
{
    return PyUnicode_FromString("utf-8");
}

static PyObject *
printer_get_errors(PyObject *op, void *closure)
{
    return PyUnicode_FromString("backslashreplace");
}

static PyMethodDef printer_methods[] = {
    {"write", printer_write, METH_O, NULL},
    {"flush", printer_flush, METH_NOARGS, NULL},
    {"fileno", printer_fileno, METH_NOARGS, NULL},
    {"isatty", printer_isatty, METH_NOARGS, NULL},
    {"readable", printer_false, METH_NOARGS, NULL},
    {"seekable", printer_false, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyObject *
printer_get_closed(PyObject *op, void *closure)
{
    Py_RETURN_FALSE;
}

static PyGetSetDef printer_getset[] = {
    {"closed", printer_get_closed, NULL, NULL, NULL},
    {"encoding", printer_get_encoding, NULL, NULL, NULL},
    {"errors", printer_get_errors, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PyStdPrinter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "stderrprinter",
    .tp_basicsize = sizeof(PyStdPrinter_Object),
    .tp_dealloc = printer_dealloc,
    .tp_repr = printer_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_methods = printer_methods,
    .tp_getset = printer_getset,
};

PyObject *
PyFile_NewStdPrinter(int fd)
{
    PyStdPrinter_Object *self = PyObject_New(PyStdPrinter_Object, &PyStdPrinter_Type);
    if (self == NULL) {
        return NULL;
    }
    self->fd = fd;
    self->len = 0;
    self->unbuffered = (fd == 2);
    self->line_buffered = isatty(fd);
    return (PyObject *)self;
}

/* ---- Generic helpers ----------------------------------------------------------------- */

int
PyFile_WriteObject(PyObject *v, PyObject *f, int flags)
{
    if (f == NULL) {
        PyErr_SetString(PyExc_TypeError, "writeobject with NULL file");
        return -1;
    }
    PyObject *value = (flags & Py_PRINT_RAW) ? PyObject_Str(v) : PyObject_Repr(v);
    if (value == NULL) {
        return -1;
    }
    PyObject *result;
    if (Py_IS_TYPE(f, &PyStdPrinter_Type)) {
        result = printer_write(f, value);
    }
    else {
        result = PyObject_CallMethod(f, "write", "O", value);
    }
    Py_DECREF(value);
    if (result == NULL) {
        return -1;
    }
    Py_DECREF(result);
    return 0;
}

/* Write a C string to f.  Refuses to run with an exception pending (the
   traceback printer calls this while one is set aside, never raised). */
int
PyFile_WriteString(const char *s, PyObject *f)
{
    if (PyErr_Occurred()) {
        return -1;
    }
    if (f == NULL) {
        PyErr_SetString(PyExc_SystemError, "null file for PyFile_WriteString");
        return -1;
    }
    PyObject *text = PyUnicode_FromString(s);
    int status = text ? PyFile_WriteObject(text, f, Py_PRINT_RAW) : -1;
    Py_XDECREF(text);
    return status;
}

/* readline() on f; with n < 0 the trailing newline is dropped and an empty
   result (end of file) raises EOFError, as input() needs. */
PyObject *
PyFile_GetLine(PyObject *f, int n)
{
    if (f == NULL) {
        PyErr_BadInternalCall();
        return NULL;
    }
    PyObject *line = n <= 0 ? PyObject_CallMethod(f, "readline", NULL)
                            : PyObject_CallMethod(f, "readline", "i", n);
    if (line == NULL || n >= 0) {
        return line;
    }
    if (!PyBytes_Check(line) && !PyUnicode_Check(line)) {
        Py_DECREF(line);
        PyErr_SetString(PyExc_TypeError, "object.readline() returned non-string");
        return NULL;
    }
    Py_ssize_t len = PyObject_Size(line);
    if (len == 0) {
        Py_DECREF(line);
        PyErr_SetString(PyExc_EOFError, "EOF when reading a line");
        return NULL;
    }
    int ends_nl = PyUnicode_Check(line) ? PyUnicode_READ_CHAR(line, len - 1) == '\n'
                                        : PyBytes_AS_STRING(line)[len - 1] == '\n';
    if (ends_nl) {
        PyObject *cut = PyUnicode_Check(line) ? PyUnicode_Substring(line, 0, len - 1)
                                              : PyBytes_FromStringAndSize(PyBytes_AS_STRING(line), len - 1);
        Py_SETREF(line, cut);
    }
    return line;
}

/* A file object over fd, made by io.open (name is unused, as in CPython). */
PyObject *
PyFile_FromFd(int fd, const char *name, const char *mode, int buffering, const char *encoding,
              const char *errors, const char *newline, int closefd)
{
    (void)name;
    PyObject *io = PyImport_ImportModule("_io");
    if (io == NULL) {
        return NULL;
    }
    PyObject *f = PyObject_CallMethod(io, "open", "isizzzi", fd, mode ? mode : "r", buffering, encoding, errors,
                                      newline, closefd);
    Py_DECREF(io);
    return f;
}

/* The descriptor of an int or of an object with a fileno() method. */
int
PyObject_AsFileDescriptor(PyObject *o)
{
    PyObject *num;
    if (PyLong_Check(o)) {
        num = Py_NewRef(o);
    }
    else {
        PyObject *meth;
        if (PyObject_GetOptionalAttrString(o, "fileno", &meth) < 0) {
            return -1;
        }
        if (meth == NULL) {
            PyErr_SetString(PyExc_TypeError, "argument must be an int, or have a fileno() method.");
            return -1;
        }
        num = PyObject_CallNoArgs(meth);
        Py_DECREF(meth);
        if (num == NULL) {
            return -1;
        }
        if (!PyLong_Check(num)) {
            PyErr_SetString(PyExc_TypeError, "fileno() returned a non-integer");
            Py_DECREF(num);
            return -1;
        }
    }
    int fd = PyLong_AsInt(num);
    Py_DECREF(num);
    if (fd == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (fd < 0) {
        PyErr_Format(PyExc_ValueError, "file descriptor cannot be a negative integer (%i)", fd);
        return -1;
    }
    return fd;
}
