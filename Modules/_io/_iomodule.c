/* The _io module: open(), open_code(), text_encoding(), the constants and
   the class table.  The classes live in the other files of this folder;
   io.py re-exports them and registers them with its ABCs. */

#include "_iomodule.h"

PyObject *_PyIO_UnsupportedOperation = NULL;

PyObject *
_PyIO_LocaleEncoding(void)
{
    /* Start-up never switches LC_CTYPE away from a UTF-8 locale (as
       CPython's locale coercion does for the C locale). */
    return PyUnicode_FromString("UTF-8");
}

/* ---- open() ------------------------------------------------------------------------ */

typedef struct {
    int creating, reading, writing, appending, updating, text, binary;
} open_mode;

static int
parse_open_mode(PyObject *modeobj, open_mode *m)
{
    const char *mode = PyUnicode_AsUTF8(modeobj);
    if (mode == NULL) {
        return -1;
    }
    memset(m, 0, sizeof(*m));
    int *slot;
    for (const char *p = mode; *p; p++) {
        switch (*p) {
        case 'x': slot = &m->creating; break;
        case 'r': slot = &m->reading; break;
        case 'w': slot = &m->writing; break;
        case 'a': slot = &m->appending; break;
        case '+': slot = &m->updating; break;
        case 't': slot = &m->text; break;
        case 'b': slot = &m->binary; break;
        default: slot = NULL; break;
        }
        if (slot == NULL || *slot) {
            PyErr_Format(PyExc_ValueError, "invalid mode: %R", modeobj);
            return -1;
        }
        *slot = 1;
    }
    if (m->text && m->binary) {
        PyErr_SetString(PyExc_ValueError, "can't have text and binary mode at once");
        return -1;
    }
    int primaries = m->creating + m->reading + m->writing + m->appending;
    if (primaries > 1) {
        PyErr_SetString(PyExc_ValueError, "must have exactly one of create/read/write/append mode");
        return -1;
    }
    if (primaries == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "Must have exactly one of create/read/write/append mode and at most one plus");
        return -1;
    }
    return 0;
}

static int
check_binary_args(const open_mode *m, PyObject *encoding, PyObject *errors, PyObject *newline)
{
    if (!m->binary) {
        return 0;
    }
    const char *which = !Py_IsNone(encoding) ? "an encoding" : !Py_IsNone(errors) ? "an errors"
                        : !Py_IsNone(newline) ? "a newline" : NULL;
    if (which != NULL) {
        PyErr_Format(PyExc_ValueError, "binary mode doesn't take %s argument", which);
        return -1;
    }
    return 0;
}

static int
check_str_or_none(PyObject *v, const char *name)
{
    if (Py_IsNone(v) || PyUnicode_Check(v)) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "open() argument '%s' must be str or None, not %.200s", name,
                 Py_TYPE(v)->tp_name);
    return -1;
}

/* open()'s file argument: an int, or a path made str/bytes through
   __fspath__ (so the stream's name is the path, as CPython shows it). */
static PyObject *
file_arg(PyObject *file)
{
    if (PyLong_Check(file) || PyUnicode_Check(file) || PyBytes_Check(file)) {
        return Py_NewRef(file);
    }
    PyObject *meth = PyFloat_Check(file) ? NULL : PyObject_GetAttrString((PyObject *)Py_TYPE(file), "__fspath__");
    if (meth == NULL) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "expected str, bytes or os.PathLike object, not %.200s",
                     Py_TYPE(file)->tp_name);
        return NULL;
    }
    PyObject *path = PyObject_CallOneArg(meth, file);
    Py_DECREF(meth);
    if (path != NULL && !PyUnicode_Check(path) && !PyBytes_Check(path)) {
        PyErr_Format(PyExc_TypeError, "expected %.200s.__fspath__() to return str or bytes, not %.200s",
                     Py_TYPE(file)->tp_name, Py_TYPE(path)->tp_name);
        Py_CLEAR(path);
    }
    return path;
}

/* Pick the buffered class and wrap raw; steals nothing. */
static PyObject *
wrap_buffered(PyObject *raw, const open_mode *m, Py_ssize_t size)
{
    PyTypeObject *cls = m->updating ? &_PyIO_BufferedRandom_Type
                        : m->reading ? &_PyIO_BufferedReader_Type
                                     : &_PyIO_BufferedWriter_Type;
    return PyObject_CallFunction((PyObject *)cls, "On", raw, size);
}

static PyObject *
build_stream(PyObject *file, PyObject *modeobj, const open_mode *m, Py_ssize_t buffering, PyObject *encoding,
             PyObject *errors, PyObject *newline, int closefd, PyObject *opener)
{
    char rawmode[5], *p = rawmode;
    *p++ = m->creating ? 'x' : m->reading ? 'r' : m->writing ? 'w' : 'a';
    if (m->updating) {
        *p++ = '+';
    }
    *p = '\0';
    PyObject *raw = PyObject_CallFunction((PyObject *)&_PyIO_FileIO_Type, "OsiO", file, rawmode, closefd, opener);
    if (raw == NULL) {
        return NULL;
    }
    PyObject *result = raw, *buffer = NULL, *text = NULL;
    int line_buffering = buffering == 1;
    if (buffering < 0) {
        PyObject *tty = PyObject_CallMethod(raw, "isatty", NULL);
        int v = tty ? PyObject_IsTrue(tty) : -1;
        Py_XDECREF(tty);
        if (v < 0) {
            goto error;
        }
        line_buffering = v;
    }
    if (buffering == 1 || buffering < 0) {
        /* The file's block size, within [DEFAULT_BUFFER_SIZE, 8 MiB]. */
        PyObject *blk = PyObject_GetAttrString(raw, "_blksize");
        Py_ssize_t size = blk ? PyLong_AsSsize_t(blk) : -1;
        Py_XDECREF(blk);
        if (size == -1 && PyErr_Occurred()) {
            goto error;
        }
        size = size > 8192 * 1024 ? 8192 * 1024 : size;
        buffering = size > IO_DEFAULT_BUFFER_SIZE ? size : IO_DEFAULT_BUFFER_SIZE;
    }
    if (buffering == 0) {
        if (m->binary) {
            return raw;
        }
        PyErr_SetString(PyExc_ValueError, "can't have unbuffered text I/O");
        goto error;
    }
    buffer = wrap_buffered(raw, m, buffering);
    if (buffer == NULL) {
        goto error;
    }
    result = buffer;
    Py_DECREF(raw);
    if (m->binary) {
        return buffer;
    }
    text = PyObject_CallFunction((PyObject *)&_PyIO_TextIOWrapper_Type, "OOOOi", buffer, encoding, errors,
                                 newline, line_buffering);
    if (text == NULL) {
        goto error;
    }
    result = text;
    Py_DECREF(buffer);
    if (PyObject_SetAttrString(text, "mode", modeobj) < 0) {
        goto error;
    }
    return text;
error: {
    /* Close what was opened so the descriptor does not leak. */
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *r = PyObject_CallMethod(result, "close", NULL);
    Py_XDECREF(r);
    PyErr_Clear();
    PyErr_SetRaisedException(exc);
    Py_DECREF(result);
    return NULL;
}
}

static PyObject *
io_open(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"file", "mode", "buffering", "encoding", "errors",
                                         "newline", "closefd", "opener", NULL};
    PyObject *a[8];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "open", kwlist, 1, 8, 0, a)) {
        return NULL;
    }
    PyObject *file = a[0], *modeobj = a[1], *encoding = a[3] ? a[3] : Py_None;
    PyObject *errors = a[4] ? a[4] : Py_None, *newline = a[5] ? a[5] : Py_None;
    PyObject *opener = a[7] ? a[7] : Py_None;
    Py_ssize_t buffering = -1;
    int closefd = 1;
    if (modeobj != NULL && !PyUnicode_Check(modeobj)) {
        PyErr_Format(PyExc_TypeError, "open() argument 'mode' must be str, not %.200s", Py_TYPE(modeobj)->tp_name);
        return NULL;
    }
    if (a[2] != NULL) {
        if (PyFloat_Check(a[2])) {
            PyErr_SetString(PyExc_TypeError, "'float' object cannot be interpreted as an integer");
            return NULL;
        }
        buffering = PyNumber_AsSsize_t(a[2], PyExc_OverflowError);
        if (buffering == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    if (a[6] != NULL && (closefd = PyObject_IsTrue(a[6])) < 0) {
        return NULL;
    }
    if (check_str_or_none(encoding, "encoding") < 0 || check_str_or_none(errors, "errors") < 0 ||
        check_str_or_none(newline, "newline") < 0) {
        return NULL;
    }
    PyObject *defmode = NULL;
    file = file_arg(file);
    if (file == NULL) {
        return NULL;
    }
    if (modeobj == NULL) {
        modeobj = defmode = PyUnicode_FromString("r");
        if (modeobj == NULL) {
            Py_DECREF(file);
            return NULL;
        }
    }
    open_mode m;
    PyObject *res = NULL;
    if (parse_open_mode(modeobj, &m) < 0 || check_binary_args(&m, encoding, errors, newline) < 0) {
        goto done;
    }
    if (m.binary && buffering == 1 &&
        PyErr_WarnEx(PyExc_RuntimeWarning,
                     "line buffering (buffering=1) isn't supported in binary mode, the default buffer size will be used",
                     1) < 0) {
        goto done;
    }
    res = build_stream(file, modeobj, &m, buffering, encoding, errors, newline, closefd, opener);
done:
    Py_XDECREF(defmode);
    Py_DECREF(file);
    return res;
}

static PyObject *
io_open_code(PyObject *module, PyObject *path)
{
    if (!PyUnicode_Check(path)) {
        PyErr_Format(PyExc_TypeError, "open_code() argument 'path' must be str, not %.200s",
                     Py_TYPE(path)->tp_name);
        return NULL;
    }
    PyObject *raw = PyObject_CallFunction((PyObject *)&_PyIO_FileIO_Type, "Os", path, "r");
    if (raw == NULL) {
        return NULL;
    }
    PyObject *buffered = PyObject_CallFunction((PyObject *)&_PyIO_BufferedReader_Type, "O", raw);
    Py_DECREF(raw);
    return buffered;
}

static PyObject *
io_text_encoding(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("text_encoding", nargs, 1, 2)) {
        return NULL;
    }
    if (!Py_IsNone(args[0])) {
        return Py_NewRef(args[0]);
    }
    return PyUnicode_FromString("locale");
}

static PyMethodDef io_functions[] = {
    {"open", (PyCFunction)(void (*)(void))io_open, METH_FASTCALL | METH_KEYWORDS,
     "open(file, mode='r', buffering=-1, encoding=None, errors=None, newline=None, closefd=True, opener=None)\n\n"
     "Open a file and return a stream."},
    {"open_code", io_open_code, METH_O, "Open a file of code for reading in binary mode."},
    {"text_encoding", (PyCFunction)(void (*)(void))io_text_encoding, METH_FASTCALL,
     "The encoding to use when none is given: 'locale' for None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef io_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_io",
    .m_doc = "The io module's classes and open(), in C.",
    .m_size = -1,
    .m_methods = io_functions,
};

static PyTypeObject *const io_types[] = {
    &_PyIO_IOBase_Type, &_PyIO_RawIOBase_Type, &_PyIO_BufferedIOBase_Type, &_PyIO_TextIOBase_Type,
    &_PyIO_FileIO_Type, &_PyIO_BytesIO_Type, &_PyIO_StringIO_Type, &_PyIO_BufferedReader_Type,
    &_PyIO_BufferedWriter_Type, &_PyIO_BufferedRandom_Type, &_PyIO_BufferedRWPair_Type,
    &_PyIO_TextIOWrapper_Type, &_PyIO_NewlineDecoder_Type,
};

static int
add_types(PyObject *mod)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(io_types); i++) {
        PyTypeObject *tp = io_types[i];
        if (PyType_Ready(tp) < 0) {
            return -1;
        }
        const char *dot = strrchr(tp->tp_name, '.');
        if (PyModule_AddObjectRef(mod, dot + 1, (PyObject *)tp) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
make_unsupported(void)
{
    if (_PyIO_UnsupportedOperation != NULL) {
        return 0;
    }
    PyObject *bases = PyTuple_Pack(2, PyExc_OSError, PyExc_ValueError);
    if (bases == NULL) {
        return -1;
    }
    _PyIO_UnsupportedOperation = PyErr_NewException("io.UnsupportedOperation", bases, NULL);
    Py_DECREF(bases);
    return _PyIO_UnsupportedOperation ? 0 : -1;
}

PyMODINIT_FUNC
PyInit__io(void)
{
    PyObject *mod = PyModule_Create(&io_module);
    if (mod == NULL) {
        return NULL;
    }
    if (make_unsupported() < 0 || add_types(mod) < 0 ||
        PyModule_AddIntConstant(mod, "DEFAULT_BUFFER_SIZE", IO_DEFAULT_BUFFER_SIZE) < 0 ||
        PyModule_AddObjectRef(mod, "UnsupportedOperation", _PyIO_UnsupportedOperation) < 0 ||
        PyModule_AddObjectRef(mod, "BlockingIOError", PyExc_BlockingIOError) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
