/* The Unpickler type: runs a pickle stream and returns the object it
   builds.

   Input comes either from one buffer (loads(), or the bytes of a frame
   read from a file) or straight from the file: read(n) and readline() are
   called for exactly what the next opcode needs, so a load() leaves the
   file positioned just past the STOP opcode.

   The value stack is a C array; MARK pushes the current stack height on a
   second array ("marks"), and the height of the innermost mark is the
   fence below which pops are refused. */

#include "pickle.h"

typedef struct {
    PyObject_HEAD
    PyObject *read;             /* bound file.read, NULL for loads() */
    PyObject *readline;
    PyObject *pers_attr;        /* value stored in .persistent_load */
    PyObject *pers_func;        /* resolved at the start of each load */
    int custom_find_class;      /* find_class is looked up on self */
    PyObject *buffers;          /* iterator of out-of-band buffers or NULL */
    char *encoding;
    char *errors;
    int fix_imports;
    int proto;
    int initialized;
    int busy;
    /* the bytes being read */
    Py_buffer input;            /* loads(): the whole pickle */
    PyObject *chunk;            /* file mode: the last block read */
    const char *buf;
    Py_ssize_t buf_len;
    Py_ssize_t pos;
    /* the value stack */
    PyObject **stack;
    Py_ssize_t sp;
    Py_ssize_t stack_cap;
    Py_ssize_t fence;
    Py_ssize_t *marks;
    Py_ssize_t nmarks;
    Py_ssize_t marks_cap;
    _PyUnpickleMemo memo;
} UnpicklerObject;

#define U(o) ((UnpicklerObject *)(o))

_PyUnpickleMemo *
_PyPickle_UnpicklerMemo(PyObject *unpickler)
{
    return &U(unpickler)->memo;
}

static int
unpickling_error(const char *fmt, ...)
{
    va_list va;
    va_start(va, fmt);
    PyObject *msg = PyUnicode_FromFormatV(fmt, va);
    va_end(va);
    if (msg != NULL) {
        PyErr_SetObject(_PyPickle_State.UnpicklingError, msg);
        Py_DECREF(msg);
    }
    return -1;
}

/* ---- Input ------------------------------------------------------------------ */

static int
truncated(void)
{
    return unpickling_error("pickle data was truncated");
}

/* Read through file.read(n): exactly n bytes, kept in u->chunk. */
static int
read_from_file(UnpicklerObject *u, Py_ssize_t n, int at_opcode)
{
    PyObject *len = PyLong_FromSsize_t(n);
    if (len == NULL) {
        return -1;
    }
    PyObject *data = PyObject_CallOneArg(u->read, len);
    Py_DECREF(len);
    if (data == NULL) {
        return -1;
    }
    if (!PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError,
                     "read() returned non-bytes object (%.200s)",
                     Py_TYPE(data)->tp_name);
        Py_DECREF(data);
        return -1;
    }
    Py_ssize_t got = PyBytes_GET_SIZE(data);
    if (got != n) {
        Py_DECREF(data);
        if (got > n) {
            PyErr_Format(PyExc_ValueError,
                         "read() returned too much data: %zd bytes "
                         "requested, %zd returned", n, got);
            return -1;
        }
        if (got == 0 && at_opcode) {
            PyErr_SetString(PyExc_EOFError, "Ran out of input");
            return -1;
        }
        return truncated();
    }
    Py_XSETREF(u->chunk, data);
    u->buf = PyBytes_AS_STRING(data);
    u->buf_len = n;
    u->pos = 0;
    return 0;
}

static int
read_slow(UnpicklerObject *u, Py_ssize_t n, const char **out, int at_opcode)
{
    if (u->read == NULL) {
        if (at_opcode && u->pos == u->buf_len) {
            PyErr_SetString(PyExc_EOFError, "Ran out of input");
            return -1;
        }
        return truncated();
    }
    if (u->pos < u->buf_len) {
        return unpickling_error("pickle exhausted before end of frame");
    }
    if (read_from_file(u, n, at_opcode) < 0) {
        return -1;
    }
    *out = u->buf;
    u->pos = n;
    return 0;
}

/* Point *out at the next n bytes (valid until the next read). */
static inline int
read_bytes(UnpicklerObject *u, Py_ssize_t n, const char **out)
{
    if (u->buf_len - u->pos >= n) {
        *out = u->buf + u->pos;
        u->pos += n;
        return 0;
    }
    return read_slow(u, n, out, 0);
}

/* The next n bytes as a little-endian unsigned number (n <= 8). */
static int
read_uint(UnpicklerObject *u, int n, uint64_t *value)
{
    const char *s = NULL;
    if (read_bytes(u, n, &s) < 0) {
        return -1;
    }
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) {
        v = (v << 8) | (unsigned char)s[i];
    }
    *value = v;
    return 0;
}

/* A whole line, newline included. */
static int
read_line(UnpicklerObject *u, const char **out, Py_ssize_t *len)
{
    const char *start = u->buf + u->pos;
    Py_ssize_t avail = u->buf_len - u->pos;
    const char *nl = avail > 0 ? memchr(start, '\n', (size_t)avail) : NULL;
    if (nl != NULL) {
        *out = start;
        *len = nl - start + 1;
        u->pos += *len;
        return 0;
    }
    if (u->read == NULL) {
        return truncated();
    }
    if (avail > 0) {
        return unpickling_error("pickle exhausted before end of frame");
    }
    PyObject *line = PyObject_CallNoArgs(u->readline);
    if (line == NULL) {
        return -1;
    }
    if (!PyBytes_Check(line)) {
        PyErr_Format(PyExc_TypeError,
                     "readline() returned non-bytes object (%.200s)",
                     Py_TYPE(line)->tp_name);
        Py_DECREF(line);
        return -1;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(line);
    if (n == 0 || PyBytes_AS_STRING(line)[n - 1] != '\n') {
        Py_DECREF(line);
        return truncated();
    }
    Py_XSETREF(u->chunk, line);
    u->buf = PyBytes_AS_STRING(line);
    u->buf_len = n;
    u->pos = n;
    *out = u->buf;
    *len = n;
    return 0;
}

static int
load_frame(UnpicklerObject *u)
{
    uint64_t size;
    if (read_uint(u, 8, &size) < 0) {
        return -1;
    }
    if (size > (uint64_t)PY_SSIZE_T_MAX) {
        return unpickling_error("frame size > sys.maxsize: %llu",
                                (unsigned long long)size);
    }
    if (u->read == NULL) {
        /* the frame is already in the buffer: just check it is all there */
        if ((uint64_t)(u->buf_len - u->pos) < size) {
            return unpickling_error("pickle exhausted before end of frame");
        }
        return 0;
    }
    if (u->pos < u->buf_len) {
        return unpickling_error("beginning of a new frame before end of "
                                "current frame");
    }
    if (read_from_file(u, (Py_ssize_t)size, 0) < 0) {
        if (PyErr_ExceptionMatches(_PyPickle_State.UnpicklingError)) {
            PyErr_Clear();
            return unpickling_error("pickle exhausted before end of frame");
        }
        return -1;
    }
    return 0;
}

/* ---- Stack ----------------------------------------------------------------- */

static int
stack_underflow(void)
{
    return unpickling_error("unpickling stack underflow");
}

/* Push, stealing the reference (NULL is an error already set). */
static inline int
push(UnpicklerObject *u, PyObject *obj)
{
    if (obj == NULL) {
        return -1;
    }
    if (u->sp == u->stack_cap) {
        Py_ssize_t cap = u->stack_cap ? u->stack_cap * 2 : 64;
        PyObject **s = PyMem_Realloc(u->stack, (size_t)cap * sizeof(*s));
        if (s == NULL) {
            Py_DECREF(obj);
            PyErr_NoMemory();
            return -1;
        }
        u->stack = s;
        u->stack_cap = cap;
    }
    u->stack[u->sp++] = obj;
    return 0;
}

/* Pop: a new reference, or NULL with UnpicklingError. */
static inline PyObject *
pop(UnpicklerObject *u)
{
    if (u->sp <= u->fence) {
        stack_underflow();
        return NULL;
    }
    return u->stack[--u->sp];
}

/* Top of stack, borrowed. */
static inline PyObject *
top(UnpicklerObject *u)
{
    if (u->sp <= u->fence) {
        stack_underflow();
        return NULL;
    }
    return u->stack[u->sp - 1];
}

static int
push_mark(UnpicklerObject *u)
{
    if (u->nmarks == u->marks_cap) {
        Py_ssize_t cap = u->marks_cap ? u->marks_cap * 2 : 16;
        Py_ssize_t *m = PyMem_Realloc(u->marks, (size_t)cap * sizeof(*m));
        if (m == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        u->marks = m;
        u->marks_cap = cap;
    }
    u->marks[u->nmarks++] = u->sp;
    u->fence = u->sp;
    return 0;
}

/* Close the innermost mark: the height it recorded, or -1. */
static Py_ssize_t
pop_mark(UnpicklerObject *u)
{
    if (u->nmarks == 0) {
        unpickling_error("could not find MARK");
        return -1;
    }
    Py_ssize_t k = u->marks[--u->nmarks];
    u->fence = u->nmarks ? u->marks[u->nmarks - 1] : 0;
    return k;
}

static void
stack_drop_to(UnpicklerObject *u, Py_ssize_t k)
{
    while (u->sp > k) {
        PyObject *o = u->stack[--u->sp];
        Py_DECREF(o);
    }
}

/* The items above the innermost mark as a tuple or list; the mark is
   consumed.  NULL on error. */
static PyObject *
pop_marked(UnpicklerObject *u, int as_list)
{
    Py_ssize_t k = pop_mark(u);
    if (k < 0) {
        return NULL;
    }
    Py_ssize_t n = u->sp - k;
    PyObject *seq = as_list ? PyList_New(n) : PyTuple_New(n);
    if (seq == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = u->stack[k + i];
        if (as_list) {
            PyList_SET_ITEM(seq, i, item);
        }
        else {
            PyTuple_SET_ITEM(seq, i, item);
        }
    }
    u->sp = k;
    return seq;
}

/* ---- Numbers ------------------------------------------------------------------ */

/* Copy a line without its newline into a NUL-terminated buffer. */
static char *
line_cstr(const char *s, Py_ssize_t len)
{
    char *c = PyMem_Malloc((size_t)len);
    if (c == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(c, s, (size_t)(len - 1));
    c[len - 1] = '\0';
    return c;
}

static PyObject *
parse_int_text(const char *s, Py_ssize_t len, int strip_l)
{
    if (strip_l && len >= 2 && s[len - 2] == 'L') {
        len--;
        char *c = line_cstr(s, len);
        if (c == NULL) {
            return NULL;
        }
        PyObject *v = PyLong_FromString(c, NULL, 0);
        PyMem_Free(c);
        return v;
    }
    char *c = line_cstr(s, len);
    if (c == NULL) {
        return NULL;
    }
    PyObject *v = PyLong_FromString(c, NULL, 0);
    PyMem_Free(c);
    return v;
}

static int
load_int(UnpicklerObject *u)
{
    const char *s = NULL;
    Py_ssize_t n = 0;
    if (read_line(u, &s, &n) < 0) {
        return -1;
    }
    if (n == 3 && s[0] == '0' && (s[1] == '0' || s[1] == '1')) {
        return push(u, PyBool_FromLong(s[1] == '1'));
    }
    return push(u, parse_int_text(s, n, 0));
}

static int
load_long_text(UnpicklerObject *u)
{
    const char *s = NULL;
    Py_ssize_t n = 0;
    if (read_line(u, &s, &n) < 0) {
        return -1;
    }
    return push(u, parse_int_text(s, n, 1));
}

static int
load_binint(UnpicklerObject *u, int size)
{
    uint64_t v;
    if (read_uint(u, size, &v) < 0) {
        return -1;
    }
    if (size == 4) {
        return push(u, PyLong_FromLong((long)(int32_t)(uint32_t)v));
    }
    return push(u, PyLong_FromLong((long)v));
}

static int
load_long_binary(UnpicklerObject *u, int size_bytes)
{
    uint64_t raw;
    if (read_uint(u, size_bytes, &raw) < 0) {
        return -1;
    }
    int64_t n = size_bytes == 4 ? (int64_t)(int32_t)(uint32_t)raw
                                : (int64_t)raw;
    if (n < 0) {
        return unpickling_error("LONG pickle has negative byte count");
    }
    const char *s = NULL;
    if (read_bytes(u, (Py_ssize_t)n, &s) < 0) {
        return -1;
    }
    if (n == 0) {
        return push(u, PyLong_FromLong(0));
    }
    return push(u, PyLong_FromNativeBytes(s, (size_t)n,
                                          Py_ASNATIVEBYTES_LITTLE_ENDIAN));
}

static int
load_float_text(UnpicklerObject *u)
{
    const char *s = NULL;
    Py_ssize_t n = 0;
    if (read_line(u, &s, &n) < 0) {
        return -1;
    }
    PyObject *text = PyBytes_FromStringAndSize(s, n - 1);
    if (text == NULL) {
        return -1;
    }
    PyObject *v = PyFloat_FromString(text);
    Py_DECREF(text);
    return push(u, v);
}

static int
load_binfloat(UnpicklerObject *u)
{
    const char *s = NULL;
    if (read_bytes(u, 8, &s) < 0) {
        return -1;
    }
    double d = PyFloat_Unpack8(s, 0);
    if (d == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    return push(u, PyFloat_FromDouble(d));
}

/* ---- Strings ------------------------------------------------------------------- */

/* Length field of `size` bytes; BINSTRING-style fields are signed. */
static int
read_length(UnpicklerObject *u, int size, int is_signed, const char *what,
            Py_ssize_t *len)
{
    uint64_t raw;
    if (read_uint(u, size, &raw) < 0) {
        return -1;
    }
    if (is_signed && (int32_t)(uint32_t)raw < 0) {
        return unpickling_error("%s pickle has negative byte count", what);
    }
    if (raw > (uint64_t)PY_SSIZE_T_MAX) {
        return unpickling_error("%s exceeds system's maximum size of %zd "
                                "bytes", what, PY_SSIZE_T_MAX);
    }
    *len = (Py_ssize_t)raw;
    return 0;
}

/* A Python 2 str: bytes with encoding='bytes', text otherwise. */
static PyObject *
decode_py2_string(UnpicklerObject *u, const char *s, Py_ssize_t n)
{
    if (strcmp(u->encoding, "bytes") == 0) {
        return PyBytes_FromStringAndSize(s, n);
    }
    return PyUnicode_Decode(s, n, u->encoding, u->errors);
}

static int
load_counted_string(UnpicklerObject *u, int size, int kind)
{
    /* kind: 0 py2 str, 1 bytes, 2 text, 3 bytearray */
    static const char *const names[4][9] = {
        {NULL, "SHORT_BINSTRING", NULL, NULL, "BINSTRING"},
        {NULL, "SHORT_BINBYTES", NULL, NULL, "BINBYTES", NULL, NULL, NULL,
         "BINBYTES8"},
        {NULL, "SHORT_BINUNICODE", NULL, NULL, "BINUNICODE", NULL, NULL, NULL,
         "BINUNICODE8"},
        {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "BYTEARRAY8"},
    };
    Py_ssize_t n = 0;
    const char *s = NULL;
    if (read_length(u, size, kind == 0 && size == 4, names[kind][size], &n) < 0
        || read_bytes(u, n, &s) < 0) {
        return -1;
    }
    switch (kind) {
    case 0:
        return push(u, decode_py2_string(u, s, n));
    case 1:
        return push(u, PyBytes_FromStringAndSize(s, n));
    case 2:
        return push(u, PyUnicode_DecodeUTF8(s, n, "surrogatepass"));
    default:
        return push(u, PyByteArray_FromStringAndSize(s, n));
    }
}

static int
load_string_text(UnpicklerObject *u)
{
    const char *s = NULL;
    Py_ssize_t n = 0;
    if (read_line(u, &s, &n) < 0) {
        return -1;
    }
    n--;                        /* the newline */
    if (n < 2 || s[0] != s[n - 1] || (s[0] != '"' && s[0] != '\'')) {
        return unpickling_error("the STRING opcode argument must be quoted");
    }
    PyObject *raw = PyBytes_FromStringAndSize(s + 1, n - 2);
    if (raw == NULL) {
        return -1;
    }
    PyObject *r = PyObject_CallOneArg(_PyPickle_State.escape_decode, raw);
    Py_DECREF(raw);
    if (r == NULL) {
        return -1;
    }
    PyObject *bytes = PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 2
        ? PyTuple_GET_ITEM(r, 0) : NULL;
    if (bytes == NULL || !PyBytes_Check(bytes)) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_RuntimeError, "codecs.escape_decode misbehaved");
        return -1;
    }
    PyObject *v = decode_py2_string(u, PyBytes_AS_STRING(bytes),
                                    PyBytes_GET_SIZE(bytes));
    Py_DECREF(r);
    return push(u, v);
}

static int
load_unicode_text(UnpicklerObject *u)
{
    const char *s = NULL;
    Py_ssize_t n = 0;
    if (read_line(u, &s, &n) < 0) {
        return -1;
    }
    return push(u, PyUnicode_Decode(s, n - 1, "raw-unicode-escape", NULL));
}

/* ---- Out-of-band buffers --------------------------------------------------------- */

static int
load_next_buffer(UnpicklerObject *u)
{
    if (u->buffers == NULL) {
        return unpickling_error("pickle stream refers to out-of-band data "
                                "but no *buffers* argument was given");
    }
    PyObject *buf = PyIter_Next(u->buffers);
    if (buf == NULL) {
        if (!PyErr_Occurred()) {
            unpickling_error("not enough out-of-band buffers");
        }
        return -1;
    }
    return push(u, buf);
}

static int
load_readonly_buffer(UnpicklerObject *u)
{
    PyObject *obj = top(u);
    if (obj == NULL) {
        return -1;
    }
    PyObject *view = PyMemoryView_FromObject(obj);
    if (view == NULL) {
        return -1;
    }
    if (((PyMemoryViewObject *)view)->view.readonly) {
        Py_DECREF(view);
        return 0;
    }
    PyObject *ro = PyObject_CallMethod(view, "toreadonly", NULL);
    Py_DECREF(view);
    if (ro == NULL) {
        return -1;
    }
    Py_SETREF(u->stack[u->sp - 1], ro);
    return 0;
}

/* ---- Containers ------------------------------------------------------------------ */

static int
load_tuple_n(UnpicklerObject *u, Py_ssize_t n)
{
    if (u->sp - u->fence < n) {
        return stack_underflow();
    }
    PyObject *t = PyTuple_New(n);
    if (t == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(t, i, u->stack[u->sp - n + i]);
    }
    u->sp -= n;
    return push(u, t);
}

static int
load_dict_marked(UnpicklerObject *u)
{
    Py_ssize_t k = pop_mark(u);
    if (k < 0) {
        return -1;
    }
    if ((u->sp - k) % 2) {
        stack_drop_to(u, k);
        return unpickling_error("odd number of items for DICT");
    }
    PyObject *d = PyDict_New();
    if (d == NULL) {
        stack_drop_to(u, k);
        return -1;
    }
    for (Py_ssize_t i = k; i < u->sp; i += 2) {
        if (PyDict_SetItem(d, u->stack[i], u->stack[i + 1]) < 0) {
            Py_DECREF(d);
            stack_drop_to(u, k);
            return -1;
        }
    }
    stack_drop_to(u, k);
    return push(u, d);
}

static int
load_frozenset(UnpicklerObject *u)
{
    PyObject *items = pop_marked(u, 0);
    if (items == NULL) {
        return -1;
    }
    PyObject *fs = PyFrozenSet_New(items);
    Py_DECREF(items);
    return push(u, fs);
}

static int
call_method_each(PyObject *target, const char *method, PyObject **items,
                 Py_ssize_t n)
{
    PyObject *fn = PyObject_GetAttrString(target, method);
    if (fn == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = PyObject_CallOneArg(fn, items[i]);
        if (r == NULL) {
            Py_DECREF(fn);
            return -1;
        }
        Py_DECREF(r);
    }
    Py_DECREF(fn);
    return 0;
}

/* APPEND / APPENDS: items stack[k:] go onto the list below them. */
static int
append_from(UnpicklerObject *u, Py_ssize_t k)
{
    if (k <= u->fence || k < 1) {
        stack_drop_to(u, k);
        return stack_underflow();
    }
    PyObject *target = u->stack[k - 1];
    Py_ssize_t n = u->sp - k;
    int rc = 0;
    if (PyList_CheckExact(target)) {
        for (Py_ssize_t i = k; i < u->sp && rc == 0; i++) {
            rc = PyList_Append(target, u->stack[i]);
        }
    }
    else if (n == 1) {
        rc = call_method_each(target, "append", u->stack + k, 1);
    }
    else {
        PyObject *extend;
        rc = PyObject_GetOptionalAttrString(target, "extend", &extend);
        if (rc == 0) {
            rc = call_method_each(target, "append", u->stack + k, n);
        }
        else if (rc > 0) {
            PyObject *items = PyList_New(n);
            rc = items ? 0 : -1;
            for (Py_ssize_t i = 0; items && i < n; i++) {
                PyList_SET_ITEM(items, i, Py_NewRef(u->stack[k + i]));
            }
            if (items != NULL) {
                PyObject *r = PyObject_CallOneArg(extend, items);
                rc = r ? 0 : -1;
                Py_XDECREF(r);
                Py_DECREF(items);
            }
            Py_DECREF(extend);
        }
    }
    stack_drop_to(u, k);
    return rc;
}

static int
load_appends(UnpicklerObject *u)
{
    Py_ssize_t k = pop_mark(u);
    return k < 0 ? -1 : append_from(u, k);
}

/* SETITEM / SETITEMS: pairs stack[k:] go into the mapping below them. */
static int
setitems_from(UnpicklerObject *u, Py_ssize_t k, const char *what)
{
    if (k <= u->fence || k < 1) {
        stack_drop_to(u, k);
        return stack_underflow();
    }
    if ((u->sp - k) % 2) {
        stack_drop_to(u, k);
        return unpickling_error("odd number of items for %s", what);
    }
    PyObject *target = u->stack[k - 1];
    int rc = 0;
    for (Py_ssize_t i = k; i < u->sp && rc == 0; i += 2) {
        rc = PyDict_CheckExact(target)
            ? PyDict_SetItem(target, u->stack[i], u->stack[i + 1])
            : PyObject_SetItem(target, u->stack[i], u->stack[i + 1]);
    }
    stack_drop_to(u, k);
    return rc;
}

static int
load_setitem(UnpicklerObject *u)
{
    if (u->sp - u->fence < 2) {
        return stack_underflow();
    }
    return setitems_from(u, u->sp - 2, "SETITEM");
}

static int
load_setitems(UnpicklerObject *u)
{
    Py_ssize_t k = pop_mark(u);
    return k < 0 ? -1 : setitems_from(u, k, "SETITEMS");
}

static int
load_additems(UnpicklerObject *u)
{
    Py_ssize_t k = pop_mark(u);
    if (k < 0) {
        return -1;
    }
    if (k <= u->fence || k < 1) {
        stack_drop_to(u, k);
        return stack_underflow();
    }
    PyObject *target = u->stack[k - 1];
    int rc = 0;
    if (PySet_Check(target)) {
        for (Py_ssize_t i = k; i < u->sp && rc == 0; i++) {
            rc = PySet_Add(target, u->stack[i]);
        }
    }
    else {
        rc = call_method_each(target, "add", u->stack + k, u->sp - k);
    }
    stack_drop_to(u, k);
    return rc;
}

/* ---- Memo ------------------------------------------------------------------------- */

static int
memo_missing(Py_ssize_t idx)
{
    return unpickling_error("Memo value not found at index %zd", idx);
}

static int
push_memo(UnpicklerObject *u, size_t idx)
{
    PyObject *v = _PyUnpickleMemo_Get(&u->memo, idx);
    if (v == NULL) {
        return memo_missing((Py_ssize_t)idx);
    }
    return push(u, Py_NewRef(v));
}

/* A decimal memo index on a line (GET / PUT). */
static int
read_index_line(UnpicklerObject *u, const char *op, size_t *idx)
{
    const char *s = NULL;
    Py_ssize_t n = 0;
    if (read_line(u, &s, &n) < 0) {
        return -1;
    }
    PyObject *v = parse_int_text(s, n, 0);
    if (v == NULL) {
        return -1;
    }
    Py_ssize_t i = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    if (i == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (i < 0) {
        PyErr_Format(PyExc_ValueError, "negative %s argument", op);
        return -1;
    }
    *idx = (size_t)i;
    return 0;
}

static int
memo_store(UnpicklerObject *u, size_t idx)
{
    PyObject *v = top(u);
    if (v == NULL) {
        return -1;
    }
    return _PyUnpickleMemo_Put(&u->memo, idx, v);
}

/* ---- Globals and objects ------------------------------------------------------------ */

static PyObject *
apply_mapping(PyObject **module, PyObject **name, UnpicklerObject *u)
{
    if (u->proto >= 3 || !u->fix_imports) {
        return Py_None;
    }
    PyObject *key = PyTuple_Pack(2, *module, *name);
    if (key == NULL) {
        return NULL;
    }
    PyObject *mapped;
    int r = PyDict_GetItemRef(_PyPickle_State.name_2to3, key, &mapped);
    Py_DECREF(key);
    if (r < 0) {
        return NULL;
    }
    if (r > 0) {
        if (!PyTuple_Check(mapped) || PyTuple_GET_SIZE(mapped) != 2
            || !PyUnicode_Check(PyTuple_GET_ITEM(mapped, 0))
            || !PyUnicode_Check(PyTuple_GET_ITEM(mapped, 1))) {
            Py_DECREF(mapped);
            PyErr_SetString(PyExc_RuntimeError,
                            "_compat_pickle.NAME_MAPPING values should be "
                            "pairs of str");
            return NULL;
        }
        Py_SETREF(*module, Py_NewRef(PyTuple_GET_ITEM(mapped, 0)));
        Py_SETREF(*name, Py_NewRef(PyTuple_GET_ITEM(mapped, 1)));
        Py_DECREF(mapped);
        return Py_None;
    }
    r = PyDict_GetItemRef(_PyPickle_State.import_2to3, *module, &mapped);
    if (r < 0) {
        return NULL;
    }
    if (r > 0) {
        if (!PyUnicode_Check(mapped)) {
            Py_DECREF(mapped);
            PyErr_SetString(PyExc_RuntimeError,
                            "_compat_pickle.IMPORT_MAPPING values should be "
                            "str");
            return NULL;
        }
        Py_SETREF(*module, mapped);
    }
    return Py_None;
}

/* The default find_class. */
static PyObject *
default_find_class(UnpicklerObject *u, PyObject *module_name, PyObject *name)
{
    if (PySys_Audit("pickle.find_class", "OO", module_name, name) < 0) {
        return NULL;
    }
    PyObject *mod = Py_NewRef(module_name);
    PyObject *nm = Py_NewRef(name);
    PyObject *result = NULL;
    if (apply_mapping(&mod, &nm, u) == NULL) {
        goto done;
    }
    PyObject *module = _PyPickle_ImportModule(mod);
    if (module == NULL) {
        goto done;
    }
    Py_ssize_t dot = PyUnicode_Check(nm)
        ? PyUnicode_FindChar(nm, '.', 0, PyUnicode_GET_LENGTH(nm), 1) : -1;
    if (u->proto >= 4 && dot >= 0) {
        PyObject *sep = PyUnicode_FromString(".");
        PyObject *parts = sep ? PyUnicode_Split(nm, sep, -1) : NULL;
        Py_XDECREF(sep);
        if (parts != NULL) {
            result = _PyPickle_GetDotted(module, parts);
            Py_DECREF(parts);
            if (result == NULL
                && PyErr_ExceptionMatches(PyExc_AttributeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_AttributeError,
                             "Can't resolve path %R on module %R", nm, mod);
            }
        }
    }
    else {
        result = PyObject_GetAttr(module, nm);
    }
    Py_DECREF(module);
done:
    Py_DECREF(mod);
    Py_DECREF(nm);
    return result;
}

static PyObject *
find_class(UnpicklerObject *u, PyObject *module_name, PyObject *name)
{
    if (u->custom_find_class) {
        return PyObject_CallMethod((PyObject *)u, "find_class", "OO",
                                   module_name, name);
    }
    return default_find_class(u, module_name, name);
}

static PyObject *
line_text(UnpicklerObject *u, const char *encoding)
{
    const char *s = NULL;
    Py_ssize_t n = 0;
    if (read_line(u, &s, &n) < 0) {
        return NULL;
    }
    return PyUnicode_Decode(s, n - 1, encoding, "strict");
}

static int
load_global(UnpicklerObject *u)
{
    PyObject *module = line_text(u, "utf-8");
    if (module == NULL) {
        return -1;
    }
    PyObject *name = line_text(u, "utf-8");
    if (name == NULL) {
        Py_DECREF(module);
        return -1;
    }
    PyObject *cls = find_class(u, module, name);
    Py_DECREF(module);
    Py_DECREF(name);
    return push(u, cls);
}

static int
load_stack_global(UnpicklerObject *u)
{
    PyObject *name = pop(u);
    if (name == NULL) {
        return -1;
    }
    PyObject *module = pop(u);
    if (module == NULL) {
        Py_DECREF(name);
        return -1;
    }
    PyObject *cls = NULL;
    if (!PyUnicode_CheckExact(name) || !PyUnicode_CheckExact(module)) {
        unpickling_error("STACK_GLOBAL requires str");
    }
    else {
        cls = find_class(u, module, name);
    }
    Py_DECREF(module);
    Py_DECREF(name);
    return push(u, cls);
}

static int
load_extension(UnpicklerObject *u, int size)
{
    uint64_t raw;
    if (read_uint(u, size, &raw) < 0) {
        return -1;
    }
    long code = size == 4 ? (long)(int32_t)(uint32_t)raw : (long)raw;
    PyObject *key = PyLong_FromLong(code);
    if (key == NULL) {
        return -1;
    }
    PyObject *obj;
    int r = PyDict_GetItemRef(_PyPickle_State.extension_cache, key, &obj);
    if (r != 0) {
        Py_DECREF(key);
        return r < 0 ? -1 : push(u, obj);
    }
    PyObject *pair;
    r = PyDict_GetItemRef(_PyPickle_State.inverted_registry, key, &pair);
    if (r <= 0) {
        Py_DECREF(key);
        if (r == 0) {
            if (code <= 0) {
                return unpickling_error("EXT specifies code <= 0");
            }
            PyErr_Format(PyExc_ValueError, "unregistered extension code %ld",
                         code);
        }
        return -1;
    }
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        Py_DECREF(pair);
        Py_DECREF(key);
        PyErr_Format(PyExc_ValueError,
                     "_inverted_registry[%ld] isn't a 2-tuple of strings",
                     code);
        return -1;
    }
    obj = find_class(u, PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1));
    Py_DECREF(pair);
    if (obj == NULL || PyDict_SetItem(_PyPickle_State.extension_cache, key,
                                      obj) < 0) {
        Py_XDECREF(obj);
        Py_DECREF(key);
        return -1;
    }
    Py_DECREF(key);
    return push(u, obj);
}

/* klass(*args), or klass.__new__(klass) for an old-style instance with
   no arguments (INST / OBJ). */
static PyObject *
instantiate(PyObject *klass, PyObject *args)
{
    int plain_new = PyTuple_GET_SIZE(args) == 0 && PyType_Check(klass);
    if (plain_new) {
        int has = PyObject_HasAttrStringWithError(klass, "__getinitargs__");
        if (has < 0) {
            return NULL;
        }
        plain_new = !has;
    }
    if (plain_new) {
        PyObject *new_func = PyObject_GetAttrString(klass, "__new__");
        if (new_func == NULL) {
            return NULL;
        }
        PyObject *r = PyObject_CallOneArg(new_func, klass);
        Py_DECREF(new_func);
        return r;
    }
    return PyObject_Call(klass, args, NULL);
}

static int
load_inst(UnpicklerObject *u)
{
    PyObject *module = line_text(u, "ascii");
    if (module == NULL) {
        return -1;
    }
    PyObject *name = line_text(u, "ascii");
    if (name == NULL) {
        Py_DECREF(module);
        return -1;
    }
    PyObject *cls = find_class(u, module, name);
    Py_DECREF(module);
    Py_DECREF(name);
    if (cls == NULL) {
        return -1;
    }
    PyObject *args = pop_marked(u, 0);
    if (args == NULL) {
        Py_DECREF(cls);
        return -1;
    }
    PyObject *obj = instantiate(cls, args);
    Py_DECREF(cls);
    Py_DECREF(args);
    return push(u, obj);
}

static int
load_obj(UnpicklerObject *u)
{
    PyObject *items = pop_marked(u, 0);
    if (items == NULL) {
        return -1;
    }
    if (PyTuple_GET_SIZE(items) == 0) {
        Py_DECREF(items);
        return stack_underflow();
    }
    PyObject *cls = PyTuple_GET_ITEM(items, 0);
    PyObject *args = PyTuple_GetSlice(items, 1, PyTuple_GET_SIZE(items));
    PyObject *obj = args ? instantiate(cls, args) : NULL;
    Py_XDECREF(args);
    Py_DECREF(items);
    return push(u, obj);
}

/* cls.__new__(cls, *args, **kwargs) */
static PyObject *
call_new(PyObject *cls, PyObject *args, PyObject *kwargs)
{
    PyObject *new_func = PyObject_GetAttrString(cls, "__new__");
    if (new_func == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *full = PyTuple_New(n + 1);
    if (full == NULL) {
        Py_DECREF(new_func);
        return NULL;
    }
    PyTuple_SET_ITEM(full, 0, Py_NewRef(cls));
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(full, i + 1, Py_NewRef(PyTuple_GET_ITEM(args, i)));
    }
    PyObject *r = PyObject_Call(new_func, full, kwargs);
    Py_DECREF(full);
    Py_DECREF(new_func);
    return r;
}

static int
load_newobj(UnpicklerObject *u, int with_kwargs)
{
    PyObject *kwargs = NULL, *args = NULL, *cls = NULL, *obj = NULL;
    if (with_kwargs && (kwargs = pop(u)) == NULL) {
        return -1;
    }
    if ((args = pop(u)) == NULL || (cls = pop(u)) == NULL) {
        goto done;
    }
    const char *op = with_kwargs ? "NEWOBJ_EX" : "NEWOBJ";
    if (!PyType_Check(cls)) {
        unpickling_error("%s class argument must be a type, not %T", op, cls);
        goto done;
    }
    if (!PyTuple_Check(args)) {
        unpickling_error("%s args argument must be a tuple, not %T", op, args);
        goto done;
    }
    if (kwargs != NULL && !PyDict_Check(kwargs)) {
        unpickling_error("%s kwargs argument must be a dict, not %T", op,
                         kwargs);
        goto done;
    }
    obj = call_new(cls, args, kwargs);
done:
    Py_XDECREF(kwargs);
    Py_XDECREF(args);
    Py_XDECREF(cls);
    return obj ? push(u, obj) : -1;
}

static int
load_reduce(UnpicklerObject *u)
{
    PyObject *args = pop(u);
    if (args == NULL) {
        return -1;
    }
    PyObject *func = top(u);
    if (func == NULL) {
        Py_DECREF(args);
        return -1;
    }
    PyObject *argt = PyTuple_Check(args) ? Py_NewRef(args)
                                         : PySequence_Tuple(args);
    Py_DECREF(args);
    if (argt == NULL) {
        return -1;
    }
    PyObject *r = PyObject_Call(func, argt, NULL);
    Py_DECREF(argt);
    if (r == NULL) {
        return -1;
    }
    /* the call may have run arbitrary code, but the stack is ours */
    Py_SETREF(u->stack[u->sp - 1], r);
    return 0;
}

/* state.items() as a list of pairs (a dict is walked directly). */
static int
apply_state_items(PyObject *state, int (*apply)(PyObject *, PyObject *,
                                                PyObject *), PyObject *target)
{
    if (PyDict_CheckExact(state)) {
        /* iterate over a copy: the setters may run code */
        PyObject *items = PyDict_Items(state);
        if (items == NULL) {
            return -1;
        }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); i++) {
            PyObject *pair = PyList_GET_ITEM(items, i);
            if (apply(target, PyTuple_GET_ITEM(pair, 0),
                      PyTuple_GET_ITEM(pair, 1)) < 0) {
                Py_DECREF(items);
                return -1;
            }
        }
        Py_DECREF(items);
        return 0;
    }
    PyObject *items = PyObject_CallMethod(state, "items", NULL);
    if (items == NULL) {
        return -1;
    }
    PyObject *iter = PyObject_GetIter(items);
    Py_DECREF(items);
    if (iter == NULL) {
        return -1;
    }
    PyObject *pair;
    while ((pair = PyIter_Next(iter)) != NULL) {
        int rc;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_ValueError,
                            "state items must be (key, value) pairs");
            rc = -1;
        }
        else {
            rc = apply(target, PyTuple_GET_ITEM(pair, 0),
                       PyTuple_GET_ITEM(pair, 1));
        }
        Py_DECREF(pair);
        if (rc < 0) {
            Py_DECREF(iter);
            return -1;
        }
    }
    Py_DECREF(iter);
    return PyErr_Occurred() ? -1 : 0;
}

static int
set_dict_entry(PyObject *dict, PyObject *key, PyObject *value)
{
    if (PyUnicode_CheckExact(key)) {
        Py_INCREF(key);
        PyUnicode_InternInPlace(&key);
        int rc = PyObject_SetItem(dict, key, value);
        Py_DECREF(key);
        return rc;
    }
    return PyObject_SetItem(dict, key, value);
}

static int
set_attr_entry(PyObject *obj, PyObject *key, PyObject *value)
{
    return PyObject_SetAttr(obj, key, value);
}

static int
load_build(UnpicklerObject *u)
{
    PyObject *state = pop(u);
    if (state == NULL) {
        return -1;
    }
    PyObject *inst = top(u);
    if (inst == NULL) {
        Py_DECREF(state);
        return -1;
    }
    Py_INCREF(inst);
    int rc = -1;
    PyObject *setstate;
    if (PyObject_GetOptionalAttrString(inst, "__setstate__", &setstate) < 0) {
        goto done;
    }
    if (setstate != NULL) {
        PyObject *r = PyObject_CallOneArg(setstate, state);
        Py_DECREF(setstate);
        rc = r ? 0 : -1;
        Py_XDECREF(r);
        goto done;
    }
    PyObject *dict_state = state, *slot_state = NULL;
    if (PyTuple_Check(state) && PyTuple_GET_SIZE(state) == 2) {
        dict_state = PyTuple_GET_ITEM(state, 0);
        slot_state = PyTuple_GET_ITEM(state, 1);
    }
    int truth = PyObject_IsTrue(dict_state);
    if (truth < 0) {
        goto done;
    }
    if (truth) {
        PyObject *d = PyObject_GetAttrString(inst, "__dict__");
        if (d == NULL) {
            goto done;
        }
        int r = apply_state_items(dict_state, set_dict_entry, d);
        Py_DECREF(d);
        if (r < 0) {
            goto done;
        }
    }
    if (slot_state != NULL) {
        truth = PyObject_IsTrue(slot_state);
        if (truth < 0) {
            goto done;
        }
        if (truth && apply_state_items(slot_state, set_attr_entry, inst) < 0) {
            goto done;
        }
    }
    rc = 0;
done:
    Py_DECREF(inst);
    Py_DECREF(state);
    return rc;
}

/* ---- Persistent ids ------------------------------------------------------------------ */

static int
push_persistent(UnpicklerObject *u, PyObject *pid)
{
    if (u->pers_func == NULL) {
        Py_DECREF(pid);
        return unpickling_error("A load persistent id instruction was "
                                "encountered, but no persistent_load "
                                "function was specified.");
    }
    PyObject *obj = PyObject_CallOneArg(u->pers_func, pid);
    Py_DECREF(pid);
    return push(u, obj);
}

static int
load_persid(UnpicklerObject *u)
{
    const char *s = NULL;
    Py_ssize_t n = 0;
    if (read_line(u, &s, &n) < 0) {
        return -1;
    }
    PyObject *pid = PyUnicode_DecodeASCII(s, n - 1, "strict");
    if (pid == NULL) {
        if (PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
            PyErr_Clear();
            return unpickling_error("persistent IDs in protocol 0 must be "
                                    "ASCII strings");
        }
        return -1;
    }
    return push_persistent(u, pid);
}

/* ---- The loop ------------------------------------------------------------------------- */

static int
load_pop(UnpicklerObject *u)
{
    if (u->sp > u->fence) {
        PyObject *o = u->stack[--u->sp];
        Py_DECREF(o);
        return 0;
    }
    if (u->nmarks > 0) {
        (void)pop_mark(u);
        return 0;
    }
    return stack_underflow();
}

static int
load_pop_mark(UnpicklerObject *u)
{
    Py_ssize_t k = pop_mark(u);
    if (k < 0) {
        return -1;
    }
    stack_drop_to(u, k);
    return 0;
}

static int
bad_opcode(int op)
{
    if (op >= 0x20 && op < 0x7f && op != '\'' && op != '\\') {
        return unpickling_error("invalid load key, '%c'.", op);
    }
    return unpickling_error("invalid load key, '\\x%02x'.", op);
}

/* Read the next opcode byte; EOFError when the input ends cleanly. */
static inline int
next_opcode(UnpicklerObject *u)
{
    if (u->pos < u->buf_len) {
        return (unsigned char)u->buf[u->pos++];
    }
    const char *s = NULL;
    if (read_slow(u, 1, &s, 1) < 0) {
        return -1;
    }
    return (unsigned char)s[0];
}

/* One opcode; 1 after STOP (with the result in *result). */
static int
step(UnpicklerObject *u, int op, PyObject **result)
{
    uint64_t v;
    size_t idx;
    switch (op) {
    case OP_MARK: return push_mark(u);
    case OP_STOP:
        *result = pop(u);
        return *result ? 1 : -1;
    case OP_POP: return load_pop(u);
    case OP_POP_MARK: return load_pop_mark(u);
    case OP_DUP: {
        PyObject *t = top(u);
        return t ? push(u, Py_NewRef(t)) : -1;
    }
    case OP_NONE: return push(u, Py_NewRef(Py_None));
    case OP_NEWTRUE: return push(u, Py_NewRef(Py_True));
    case OP_NEWFALSE: return push(u, Py_NewRef(Py_False));
    case OP_INT: return load_int(u);
    case OP_LONG: return load_long_text(u);
    case OP_BININT: return load_binint(u, 4);
    case OP_BININT1: return load_binint(u, 1);
    case OP_BININT2: return load_binint(u, 2);
    case OP_LONG1: return load_long_binary(u, 1);
    case OP_LONG4: return load_long_binary(u, 4);
    case OP_FLOAT: return load_float_text(u);
    case OP_BINFLOAT: return load_binfloat(u);
    case OP_STRING: return load_string_text(u);
    case OP_BINSTRING: return load_counted_string(u, 4, 0);
    case OP_SHORT_BINSTRING: return load_counted_string(u, 1, 0);
    case OP_BINBYTES: return load_counted_string(u, 4, 1);
    case OP_SHORT_BINBYTES: return load_counted_string(u, 1, 1);
    case OP_BINBYTES8: return load_counted_string(u, 8, 1);
    case OP_UNICODE: return load_unicode_text(u);
    case OP_BINUNICODE: return load_counted_string(u, 4, 2);
    case OP_SHORT_BINUNICODE: return load_counted_string(u, 1, 2);
    case OP_BINUNICODE8: return load_counted_string(u, 8, 2);
    case OP_BYTEARRAY8: return load_counted_string(u, 8, 3);
    case OP_NEXT_BUFFER: return load_next_buffer(u);
    case OP_READONLY_BUFFER: return load_readonly_buffer(u);
    case OP_EMPTY_TUPLE: return push(u, PyTuple_New(0));
    case OP_TUPLE: return push(u, pop_marked(u, 0));
    case OP_TUPLE1: return load_tuple_n(u, 1);
    case OP_TUPLE2: return load_tuple_n(u, 2);
    case OP_TUPLE3: return load_tuple_n(u, 3);
    case OP_EMPTY_LIST: return push(u, PyList_New(0));
    case OP_LIST: return push(u, pop_marked(u, 1));
    case OP_EMPTY_DICT: return push(u, PyDict_New());
    case OP_DICT: return load_dict_marked(u);
    case OP_EMPTY_SET: return push(u, PySet_New(NULL));
    case OP_FROZENSET: return load_frozenset(u);
    case OP_APPEND:
        if (u->sp - u->fence < 1) {
            return stack_underflow();
        }
        return append_from(u, u->sp - 1);
    case OP_APPENDS: return load_appends(u);
    case OP_SETITEM: return load_setitem(u);
    case OP_SETITEMS: return load_setitems(u);
    case OP_ADDITEMS: return load_additems(u);
    case OP_GET:
        if (read_index_line(u, "GET", &idx) < 0) {
            return -1;
        }
        return push_memo(u, idx);
    case OP_BINGET:
    case OP_LONG_BINGET:
        if (read_uint(u, op == OP_BINGET ? 1 : 4, &v) < 0) {
            return -1;
        }
        return push_memo(u, (size_t)v);
    case OP_PUT:
        if (read_index_line(u, "PUT", &idx) < 0) {
            return -1;
        }
        return memo_store(u, idx);
    case OP_BINPUT:
    case OP_LONG_BINPUT:
        if (read_uint(u, op == OP_BINPUT ? 1 : 4, &v) < 0) {
            return -1;
        }
        return memo_store(u, (size_t)v);
    case OP_MEMOIZE: return memo_store(u, (size_t)u->memo.count);
    case OP_GLOBAL: return load_global(u);
    case OP_STACK_GLOBAL: return load_stack_global(u);
    case OP_INST: return load_inst(u);
    case OP_OBJ: return load_obj(u);
    case OP_NEWOBJ: return load_newobj(u, 0);
    case OP_NEWOBJ_EX: return load_newobj(u, 1);
    case OP_REDUCE: return load_reduce(u);
    case OP_BUILD: return load_build(u);
    case OP_EXT1: return load_extension(u, 1);
    case OP_EXT2: return load_extension(u, 2);
    case OP_EXT4: return load_extension(u, 4);
    case OP_PERSID: return load_persid(u);
    case OP_BINPERSID: {
        PyObject *pid = pop(u);
        return pid ? push_persistent(u, pid) : -1;
    }
    case OP_PROTO:
        if (read_uint(u, 1, &v) < 0) {
            return -1;
        }
        if (v > PICKLE_HIGHEST_PROTOCOL) {
            PyErr_Format(PyExc_ValueError, "unsupported pickle protocol: %d",
                         (int)v);
            return -1;
        }
        u->proto = (int)v;
        return 0;
    case OP_FRAME: return load_frame(u);
    default:
        return bad_opcode(op);
    }
}

static void
reset_run_state(UnpicklerObject *u)
{
    stack_drop_to(u, 0);
    u->nmarks = 0;
    u->fence = 0;
    if (u->input.obj != NULL) {
        PyBuffer_Release(&u->input);
        u->input.obj = NULL;
    }
    Py_CLEAR(u->chunk);
    Py_CLEAR(u->pers_func);
    u->buf = NULL;
    u->buf_len = 0;
    u->pos = 0;
}

static int
resolve_load_hooks(UnpicklerObject *u)
{
    Py_CLEAR(u->pers_func);
    u->custom_find_class = !Py_IS_TYPE(u, &_PyPickle_UnpicklerType);
    if (!u->custom_find_class) {
        u->pers_func = Py_XNewRef(u->pers_attr);
        return 0;
    }
    return PyObject_GetOptionalAttrString((PyObject *)u, "persistent_load",
                                          &u->pers_func) < 0 ? -1 : 0;
}

/* Run the loop over the configured input.  `data` is the pickle for
   loads() (NULL: read from the file). */
static PyObject *
unpickler_run(UnpicklerObject *u, PyObject *data)
{
    if (!u->initialized) {
        PyErr_Format(_PyPickle_State.UnpicklingError,
                     "Unpickler.__init__() was not called by %s.__init__()",
                     Py_TYPE(u)->tp_name);
        return NULL;
    }
    if (u->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Unpickler.load() called while the same unpickler "
                        "is already loading");
        return NULL;
    }
    u->busy = 1;
    PyObject *result = NULL;
    if (data != NULL) {
        if (PyObject_GetBuffer(data, &u->input, PyBUF_SIMPLE) < 0) {
            u->input.obj = NULL;
            goto done;
        }
        u->buf = u->input.buf;
        u->buf_len = u->input.len;
        u->pos = 0;
    }
    u->proto = 0;
    if (resolve_load_hooks(u) < 0) {
        goto done;
    }
    for (;;) {
        int op = next_opcode(u);
        if (op < 0) {
            break;
        }
        int r = step(u, op, &result);
        if (r != 0) {
            break;
        }
    }
done:
    reset_run_state(u);
    u->busy = 0;
    return result;
}

/* ---- The type --------------------------------------------------------------------------- */

static int
unpickler_setup(UnpicklerObject *u, PyObject *file, int fix_imports,
                const char *encoding, const char *errors, PyObject *buffers)
{
    PyObject *read = NULL, *readline = NULL;
    if (file != NULL) {
        if (PyObject_GetOptionalAttrString(file, "read", &read) < 0
            || PyObject_GetOptionalAttrString(file, "readline",
                                              &readline) < 0) {
            Py_XDECREF(read);
            return -1;
        }
        if (read == NULL || readline == NULL) {
            Py_XDECREF(read);
            Py_XDECREF(readline);
            PyErr_SetString(PyExc_TypeError,
                            "file must have 'read' and 'readline' attributes");
            return -1;
        }
    }
    PyObject *iter = NULL;
    if (buffers != NULL && buffers != Py_None) {
        iter = PyObject_GetIter(buffers);
        if (iter == NULL) {
            Py_XDECREF(read);
            Py_XDECREF(readline);
            return -1;
        }
    }
    char *enc = PyMem_Malloc(strlen(encoding) + 1);
    char *err = PyMem_Malloc(strlen(errors) + 1);
    if (enc == NULL || err == NULL) {
        PyMem_Free(enc);
        PyMem_Free(err);
        Py_XDECREF(read);
        Py_XDECREF(readline);
        Py_XDECREF(iter);
        PyErr_NoMemory();
        return -1;
    }
    strcpy(enc, encoding);
    strcpy(err, errors);
    PyMem_Free(u->encoding);
    PyMem_Free(u->errors);
    u->encoding = enc;
    u->errors = err;
    Py_XSETREF(u->read, read);
    Py_XSETREF(u->readline, readline);
    Py_XSETREF(u->buffers, iter);
    _PyUnpickleMemo_Clear(&u->memo);
    u->fix_imports = fix_imports;
    u->proto = 0;
    u->initialized = 1;
    return 0;
}

static int
unpickler_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"file", "fix_imports", "encoding", "errors",
                             "buffers", NULL};
    PyObject *file, *buffers = NULL;
    int fix_imports = 1;
    const char *encoding = "ASCII", *errors = "strict";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$pssO:Unpickler", kwlist,
                                     &file, &fix_imports, &encoding, &errors,
                                     &buffers)) {
        return -1;
    }
    if (U(self)->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "cannot re-initialize an Unpickler while it loads");
        return -1;
    }
    return unpickler_setup(U(self), file, fix_imports, encoding, errors,
                           buffers);
}

static int
unpickler_clear(PyObject *self)
{
    UnpicklerObject *u = U(self);
    Py_CLEAR(u->read);
    Py_CLEAR(u->readline);
    Py_CLEAR(u->pers_attr);
    Py_CLEAR(u->pers_func);
    Py_CLEAR(u->buffers);
    Py_CLEAR(u->chunk);
    _PyUnpickleMemo_Clear(&u->memo);
    return 0;
}

static int
unpickler_traverse(PyObject *self, visitproc visit, void *arg)
{
    UnpicklerObject *u = U(self);
    Py_VISIT(u->read);
    Py_VISIT(u->readline);
    Py_VISIT(u->pers_attr);
    Py_VISIT(u->pers_func);
    Py_VISIT(u->buffers);
    Py_VISIT(u->chunk);
    for (Py_ssize_t i = 0; i < u->sp; i++) {
        Py_VISIT(u->stack[i]);
    }
    return _PyUnpickleMemo_Traverse(&u->memo, visit, arg);
}

static void
unpickler_dealloc(PyObject *self)
{
    UnpicklerObject *u = U(self);
    PyObject_GC_UnTrack(self);
    reset_run_state(u);
    unpickler_clear(self);
    PyMem_Free(u->stack);
    PyMem_Free(u->marks);
    PyMem_Free(u->encoding);
    PyMem_Free(u->errors);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
unpickler_load(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (U(self)->initialized && U(self)->read == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "this Unpickler was created without a file");
        return NULL;
    }
    return unpickler_run(U(self), NULL);
}

static PyObject *
unpickler_find_class(PyObject *self, PyObject *args)
{
    PyObject *module, *name;
    if (!PyArg_ParseTuple(args, "OO:find_class", &module, &name)) {
        return NULL;
    }
    return default_find_class(U(self), module, name);
}

static PyObject *
unpickler_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    UnpicklerObject *u = U(self);
    size_t size = (size_t)Py_TYPE(self)->tp_basicsize
        + (size_t)u->stack_cap * sizeof(PyObject *)
        + (size_t)u->marks_cap * sizeof(Py_ssize_t)
        + (size_t)u->memo.size * sizeof(PyObject *);
    if (u->encoding != NULL) {
        size += strlen(u->encoding) + 1;
    }
    if (u->errors != NULL) {
        size += strlen(u->errors) + 1;
    }
    return PyLong_FromSize_t(size);
}

static PyMethodDef unpickler_methods[] = {
    {"load", unpickler_load, METH_NOARGS,
     "load($self, /)\n--\n\n"
     "Read one pickle from the file and return the object it describes."},
    {"find_class", unpickler_find_class, METH_VARARGS,
     "find_class($self, module_name, global_name, /)\n--\n\n"
     "Import module_name and return its attribute global_name (the hook a "
     "subclass overrides to restrict what a pickle may load)."},
    {"__sizeof__", unpickler_sizeof, METH_NOARGS,
     "Size of the unpickler in memory, in bytes."},
    {NULL, NULL, 0, NULL},
};

static PyObject *
unpickler_get_memo(PyObject *self, void *Py_UNUSED(closure))
{
    return _PyPickle_NewMemoProxy(&_PyPickle_UnpicklerMemoProxyType, self);
}

static int
unpickler_set_memo(PyObject *self, PyObject *value, void *Py_UNUSED(closure))
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "attribute deletion is not supported");
        return -1;
    }
    PyObject *owner = _PyPickle_MemoProxyOwner(
        &_PyPickle_UnpicklerMemoProxyType, value);
    if (owner != NULL) {
        if (owner == self) {
            return 0;
        }
        PyObject *contents = _PyUnpickleMemo_AsDict(&U(owner)->memo);
        if (contents == NULL) {
            return -1;
        }
        int rc = _PyUnpickleMemo_FromDict(&U(self)->memo, contents);
        Py_DECREF(contents);
        return rc;
    }
    return _PyUnpickleMemo_FromDict(&U(self)->memo, value);
}

static PyObject *
unpickler_get_pers(PyObject *self, void *Py_UNUSED(closure))
{
    if (U(self)->pers_attr == NULL) {
        PyErr_SetString(PyExc_AttributeError, "persistent_load");
        return NULL;
    }
    return Py_NewRef(U(self)->pers_attr);
}

static int
unpickler_set_pers(PyObject *self, PyObject *value, void *Py_UNUSED(closure))
{
    return _PyPickle_StoreHook(&U(self)->pers_attr, value, "persistent_load");
}

static PyGetSetDef unpickler_getset[] = {
    {"memo", unpickler_get_memo, unpickler_set_memo, NULL, NULL},
    {"persistent_load", unpickler_get_pers, unpickler_set_pers, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PyPickle_UnpicklerType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_pickle.Unpickler",
    .tp_basicsize = sizeof(UnpicklerObject),
    .tp_dealloc = unpickler_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Unpickler(file, *, fix_imports=True, encoding='ASCII', "
              "errors='strict', buffers=())\n--\n\n"
              "Read pickle data streams from a binary file.",
    .tp_traverse = unpickler_traverse,
    .tp_clear = unpickler_clear,
    .tp_methods = unpickler_methods,
    .tp_getset = unpickler_getset,
    .tp_init = unpickler_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = PyType_GenericNew,
    .tp_free = PyObject_GC_Del,
};

PyObject *
_PyPickle_Loads(PyObject *data, PyObject *file, int fix_imports,
                const char *encoding, const char *errors, PyObject *buffers)
{
    if (data != NULL && PyUnicode_Check(data)) {
        PyErr_SetString(PyExc_TypeError,
                        "Can't load pickle from unicode string");
        return NULL;
    }
    PyObject *self = PyType_GenericNew(&_PyPickle_UnpicklerType, NULL, NULL);
    if (self == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    if (unpickler_setup(U(self), file, fix_imports, encoding, errors,
                        buffers) == 0) {
        result = unpickler_run(U(self), data);
    }
    Py_DECREF(self);
    return result;
}
