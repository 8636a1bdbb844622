/* The Pickler type: turns an object graph into a pickle stream.

   Output goes to a growable byte buffer owned by the pickler.  For dump()
   to a file the buffer is handed to file.write() each time a frame is
   committed and at the end; for dumps() it becomes the result.

   The bytes written are the same as the pure-Python pickler's
   (pickle._Pickler) for every object and protocol: same opcode choices,
   same memo indices, same frame boundaries.  Doc/pickle.md lists the
   rules that make this hold (mainly: the frame check happens at the start
   of every save, and large payloads bypass frames).  */

#include "pickle.h"

typedef struct {
    PyObject_HEAD
    PyObject *file_write;       /* bound file.write, NULL for dumps() */
    PyObject *pers_attr;        /* value stored in .persistent_id */
    PyObject *dispatch_table;   /* value stored in .dispatch_table */
    PyObject *buffer_callback;
    /* Looked up at the start of each dump (NULL when absent). */
    PyObject *pers_func;
    PyObject *reducer_override;
    PyObject *table;
    _PyPickleMemo memo;
    int proto;
    int bin;
    int fast;
    int fix_imports;
    int initialized;
    int busy;
    char *out;
    Py_ssize_t len;
    Py_ssize_t cap;
    /* Offset of the reserved FRAME header of the open frame, or -1. */
    Py_ssize_t frame_start;
} PicklerObject;

#define P(o) ((PicklerObject *)(o))

_PyPickleMemo *
_PyPickle_PicklerMemo(PyObject *pickler)
{
    return &P(pickler)->memo;
}

static int save(PicklerObject *p, PyObject *obj, int use_pers);

/* ---- Output buffer ---------------------------------------------------------- */

static int
out_grow(PicklerObject *p, Py_ssize_t need)
{
    if (need > PY_SSIZE_T_MAX - p->len) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t want = p->len + need;
    Py_ssize_t cap = p->cap ? p->cap : 256;
    while (cap < want) {
        cap = cap > PY_SSIZE_T_MAX / 2 ? want : cap * 2;
    }
    char *buf = PyMem_Realloc(p->out, (size_t)cap);
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    p->out = buf;
    p->cap = cap;
    return 0;
}

static inline int
out_put(PicklerObject *p, const void *data, Py_ssize_t n)
{
    if (p->cap - p->len < n && out_grow(p, n) < 0) {
        return -1;
    }
    memcpy(p->out + p->len, data, (size_t)n);
    p->len += n;
    return 0;
}

static inline int
out_op(PicklerObject *p, int op)
{
    char c = (char)op;
    return out_put(p, &c, 1);
}

/* opcode followed by an n-byte little-endian unsigned argument */
static int
out_op_uint(PicklerObject *p, int op, uint64_t value, int n)
{
    unsigned char buf[9];
    buf[0] = (unsigned char)op;
    for (int i = 0; i < n; i++) {
        buf[1 + i] = (unsigned char)(value >> (8 * i));
    }
    return out_put(p, buf, 1 + n);
}

/* Pass everything buffered so far to file.write() (file mode only). */
static int
out_flush(PicklerObject *p, Py_ssize_t upto)
{
    if (p->file_write == NULL || upto == 0) {
        return 0;
    }
    PyObject *chunk = PyBytes_FromStringAndSize(p->out, upto);
    if (chunk == NULL) {
        return -1;
    }
    PyObject *r = PyObject_CallOneArg(p->file_write, chunk);
    Py_DECREF(chunk);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    memmove(p->out, p->out + upto, (size_t)(p->len - upto));
    p->len -= upto;
    return 0;
}

/* ---- Framing (protocol 4+) --------------------------------------------------- */

static int
frame_open(PicklerObject *p)
{
    if (p->cap - p->len < PICKLE_FRAME_HEADER
        && out_grow(p, PICKLE_FRAME_HEADER) < 0) {
        return -1;
    }
    p->frame_start = p->len;
    p->len += PICKLE_FRAME_HEADER;
    return 0;
}

/* Close the open frame: fill in its header, or drop the header when the
   frame is too small to deserve one.  Leaves no frame open. */
static void
frame_close(PicklerObject *p)
{
    Py_ssize_t body = p->frame_start + PICKLE_FRAME_HEADER;
    Py_ssize_t size = p->len - body;
    if (size >= PICKLE_FRAME_MIN) {
        unsigned char *h = (unsigned char *)p->out + p->frame_start;
        h[0] = OP_FRAME;
        for (int i = 0; i < 8; i++) {
            h[1 + i] = (unsigned char)((uint64_t)size >> (8 * i));
        }
    }
    else {
        memmove(p->out + p->frame_start, p->out + body, (size_t)size);
        p->len -= PICKLE_FRAME_HEADER;
    }
    p->frame_start = -1;
}

/* The check made before each object is saved: a frame that reached the
   target size is committed and a new one started. */
static inline int
frame_check(PicklerObject *p)
{
    if (p->frame_start < 0
        || p->len - p->frame_start - PICKLE_FRAME_HEADER < PICKLE_FRAME_TARGET) {
        return 0;
    }
    frame_close(p);
    if (out_flush(p, p->len) < 0) {
        return -1;
    }
    return frame_open(p);
}

/* Write header + payload for a payload large enough to bypass frames:
   the open frame is committed, the two pieces go out unframed, and a new
   frame starts after them.  `owner`, when given, is an object exposing the
   payload, written to the file as is instead of copied. */
static int
out_large(PicklerObject *p, const void *header, Py_ssize_t hlen,
          const char *payload, Py_ssize_t n, PyObject *owner)
{
    int framing = p->frame_start >= 0;
    if (framing) {
        frame_close(p);
    }
    if (out_put(p, header, hlen) < 0) {
        return -1;
    }
    if (p->file_write != NULL && owner != NULL) {
        if (out_flush(p, p->len) < 0) {
            return -1;
        }
        PyObject *r = PyObject_CallOneArg(p->file_write, owner);
        if (r == NULL) {
            return -1;
        }
        Py_DECREF(r);
    }
    else if (out_put(p, payload, n) < 0) {
        return -1;
    }
    if (framing) {
        if (out_flush(p, p->len) < 0) {
            return -1;
        }
        return frame_open(p);
    }
    return 0;
}

/* ---- Memo opcodes -------------------------------------------------------------- */

static int
out_decimal_line(PicklerObject *p, int op, Py_ssize_t value)
{
    char buf[32];
    int n = snprintf(buf, sizeof(buf), "%c%zd\n", op, value);
    return out_put(p, buf, n);
}

static int
write_get(PicklerObject *p, Py_ssize_t idx)
{
    if (!p->bin) {
        return out_decimal_line(p, OP_GET, idx);
    }
    if (idx < 256) {
        return out_op_uint(p, OP_BINGET, (uint64_t)idx, 1);
    }
    return out_op_uint(p, OP_LONG_BINGET, (uint64_t)idx, 4);
}

static int
memoize(PicklerObject *p, PyObject *obj)
{
    if (p->fast) {
        return 0;
    }
    Py_ssize_t idx = p->memo.used;
    int rc;
    if (p->proto >= 4) {
        rc = out_op(p, OP_MEMOIZE);
    }
    else if (!p->bin) {
        rc = out_decimal_line(p, OP_PUT, idx);
    }
    else if (idx < 256) {
        rc = out_op_uint(p, OP_BINPUT, (uint64_t)idx, 1);
    }
    else {
        rc = out_op_uint(p, OP_LONG_BINPUT, (uint64_t)idx, 4);
    }
    if (rc < 0) {
        return -1;
    }
    return _PyPickleMemo_Insert(&p->memo, obj, idx);
}

/* If saving the parts of `obj` already memoized it (a recursive structure),
   drop what was pushed (`pops` POPs, or a POP_MARK when `mark` is set) and
   fetch the memoized object.  Returns 1 when that happened. */
static int
resolve_recursive(PicklerObject *p, PyObject *obj, Py_ssize_t pops, int mark)
{
    Py_ssize_t idx = _PyPickleMemo_Lookup(&p->memo, obj);
    if (idx < 0) {
        return 0;
    }
    if (mark && p->bin) {
        if (out_op(p, OP_POP_MARK) < 0) {
            return -1;
        }
    }
    else {
        for (Py_ssize_t i = 0; i < pops + (mark ? 1 : 0); i++) {
            if (out_op(p, OP_POP) < 0) {
                return -1;
            }
        }
    }
    return write_get(p, idx) < 0 ? -1 : 1;
}

/* ---- Errors -------------------------------------------------------------------- */

static int
pickling_error(const char *fmt, ...)
{
    va_list va;
    va_start(va, fmt);
    PyObject *msg = PyUnicode_FromFormatV(fmt, va);
    va_end(va);
    if (msg != NULL) {
        PyErr_SetObject(_PyPickle_State.PicklingError, msg);
        Py_DECREF(msg);
    }
    return -1;
}

/* ---- Atoms ------------------------------------------------------------------------ */

static int
save_bool(PicklerObject *p, PyObject *obj)
{
    if (p->proto >= 2) {
        return out_op(p, obj == Py_True ? OP_NEWTRUE : OP_NEWFALSE);
    }
    return out_put(p, obj == Py_True ? "I01\n" : "I00\n", 4);
}

static int
out_repr_line(PicklerObject *p, int op, PyObject *obj, const char *suffix)
{
    PyObject *r = PyObject_Repr(obj);
    if (r == NULL) {
        return -1;
    }
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(r, &n);
    int rc = -1;
    if (s != NULL && out_op(p, op) == 0 && out_put(p, s, n) == 0) {
        rc = out_put(p, suffix, (Py_ssize_t)strlen(suffix));
    }
    Py_DECREF(r);
    return rc;
}

/* Minimal two's-complement little-endian bytes, empty for zero. */
static int
save_long_binary(PicklerObject *p, PyObject *obj)
{
    int64_t nbits = _PyLong_NumBits(obj);
    if (nbits < 0) {
        return -1;
    }
    if (nbits == 0) {
        return out_put(p, "\x8a\x00", 2);
    }
    int64_t nbytes = (nbits >> 3) + 1;
    if (nbytes > 0x7fffffff) {
        PyErr_SetString(PyExc_OverflowError, "int too large to pickle");
        return -1;
    }
    unsigned char *buf = PyMem_Malloc((size_t)nbytes);
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (PyLong_AsNativeBytes(obj, buf, (Py_ssize_t)nbytes,
                             Py_ASNATIVEBYTES_LITTLE_ENDIAN) < 0) {
        PyMem_Free(buf);
        return -1;
    }
    /* A negative number whose top byte is pure sign extension loses it. */
    if (_PyLong_Sign(obj) < 0 && nbytes > 1 && buf[nbytes - 1] == 0xff
        && (buf[nbytes - 2] & 0x80)) {
        nbytes--;
    }
    int rc;
    if (nbytes < 256) {
        rc = out_op_uint(p, OP_LONG1, (uint64_t)nbytes, 1);
    }
    else {
        rc = out_op_uint(p, OP_LONG4, (uint64_t)nbytes, 4);
    }
    if (rc == 0) {
        rc = out_put(p, buf, (Py_ssize_t)nbytes);
    }
    PyMem_Free(buf);
    return rc;
}

static int
save_long(PicklerObject *p, PyObject *obj)
{
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    int fits32 = !overflow && v >= -0x80000000LL && v <= 0x7fffffffLL;
    if (p->bin && fits32) {
        if (v >= 0 && v <= 0xff) {
            return out_op_uint(p, OP_BININT1, (uint64_t)v, 1);
        }
        if (v >= 0 && v <= 0xffff) {
            return out_op_uint(p, OP_BININT2, (uint64_t)v, 2);
        }
        return out_op_uint(p, OP_BININT, (uint64_t)(uint32_t)(int32_t)v, 4);
    }
    if (p->proto >= 2) {
        return save_long_binary(p, obj);
    }
    if (fits32) {
        return out_decimal_line(p, OP_INT, (Py_ssize_t)v);
    }
    return out_repr_line(p, OP_LONG, obj, "L\n");
}

static int
save_float(PicklerObject *p, PyObject *obj)
{
    if (!p->bin) {
        return out_repr_line(p, OP_FLOAT, obj, "\n");
    }
    char buf[9];
    buf[0] = (char)OP_BINFLOAT;
    if (PyFloat_Pack8(PyFloat_AS_DOUBLE(obj), buf + 1, 0) < 0) {
        return -1;
    }
    return out_put(p, buf, 9);
}

/* ---- Reduce --------------------------------------------------------------------- */

static int save_reduce(PicklerObject *p, PyObject *func, PyObject *args,
                       PyObject *state, PyObject *listitems,
                       PyObject *dictitems, PyObject *state_setter,
                       PyObject *obj);

/* save_reduce(func, (a,), obj=obj) / (func, (a, b), obj=obj) */
static int
save_reduce_args(PicklerObject *p, PyObject *func, PyObject *args,
                 PyObject *obj)
{
    if (args == NULL) {
        return -1;
    }
    int rc = save_reduce(p, func, args, NULL, NULL, NULL, NULL, obj);
    Py_DECREF(args);
    return rc;
}

/* ---- Bytes, bytearray, str -------------------------------------------------------- */

static int
write_bytes_nomemo(PicklerObject *p, const char *data, Py_ssize_t n,
                   PyObject *owner)
{
    unsigned char h[9];
    if (n <= 0xff) {
        h[0] = OP_SHORT_BINBYTES;
        h[1] = (unsigned char)n;
        if (out_put(p, h, 2) < 0) {
            return -1;
        }
        return out_put(p, data, n);
    }
    if ((uint64_t)n > 0xffffffffULL && p->proto >= 4) {
        h[0] = OP_BINBYTES8;
        for (int i = 0; i < 8; i++) {
            h[1 + i] = (unsigned char)((uint64_t)n >> (8 * i));
        }
        return out_large(p, h, 9, data, n, owner);
    }
    if ((uint64_t)n > 0xffffffffULL) {
        PyErr_SetString(PyExc_OverflowError,
                        "serializing a bytes object larger than 4 GiB "
                        "requires pickle protocol 4 or higher");
        return -1;
    }
    h[0] = OP_BINBYTES;
    for (int i = 0; i < 4; i++) {
        h[1 + i] = (unsigned char)((uint64_t)n >> (8 * i));
    }
    if (n >= PICKLE_FRAME_TARGET) {
        return out_large(p, h, 5, data, n, owner);
    }
    if (out_put(p, h, 5) < 0) {
        return -1;
    }
    return out_put(p, data, n);
}

static int
write_bytearray_nomemo(PicklerObject *p, const char *data, Py_ssize_t n,
                       PyObject *owner)
{
    unsigned char h[9];
    h[0] = OP_BYTEARRAY8;
    for (int i = 0; i < 8; i++) {
        h[1 + i] = (unsigned char)((uint64_t)n >> (8 * i));
    }
    if (n >= PICKLE_FRAME_TARGET) {
        return out_large(p, h, 9, data, n, owner);
    }
    if (out_put(p, h, 9) < 0) {
        return -1;
    }
    return out_put(p, data, n);
}

static int
save_bytes(PicklerObject *p, PyObject *obj)
{
    if (p->proto < 3) {
        /* Protocols 0-2 have no bytes opcode: rebuild through
           bytes() or codecs.encode(latin1 text, 'latin1'). */
        if (PyBytes_GET_SIZE(obj) == 0) {
            return save_reduce_args(p, (PyObject *)&PyBytes_Type,
                                    PyTuple_New(0), obj);
        }
        PyObject *text = PyUnicode_FromEncodedObject(obj, "latin1", NULL);
        if (text == NULL) {
            return -1;
        }
        return save_reduce_args(p, _PyPickle_State.codecs_encode,
                                Py_BuildValue("(NO)", text, _PyPickle_State.str_latin1), obj);
    }
    if (write_bytes_nomemo(p, PyBytes_AS_STRING(obj), PyBytes_GET_SIZE(obj),
                           obj) < 0) {
        return -1;
    }
    return memoize(p, obj);
}

static int
save_bytearray(PicklerObject *p, PyObject *obj)
{
    if (p->proto < 5) {
        if (PyByteArray_GET_SIZE(obj) == 0) {
            return save_reduce_args(p, (PyObject *)&PyByteArray_Type,
                                    PyTuple_New(0), obj);
        }
        /* bytes(obj) through the type, so that the copy has the identity
           (cached or fresh) the pure-Python pickler's copy has */
        PyObject *copy = PyObject_CallOneArg((PyObject *)&PyBytes_Type, obj);
        if (copy == NULL) {
            return -1;
        }
        return save_reduce_args(p, (PyObject *)&PyByteArray_Type,
                                Py_BuildValue("(N)", copy), obj);
    }
    if (write_bytearray_nomemo(p, PyByteArray_AS_STRING(obj),
                               PyByteArray_GET_SIZE(obj), NULL) < 0) {
        return -1;
    }
    return memoize(p, obj);
}

/* Protocol 0 text: raw-unicode-escape, with backslash, NUL, newline,
   carriage return and ^Z also escaped so that the line stays one line. */
static int
write_text_line(PicklerObject *p, PyObject *obj)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(obj);
    int kind = PyUnicode_KIND(obj);
    const void *data = PyUnicode_DATA(obj);
    static const char hex[] = "0123456789abcdef";
    if (out_op(p, OP_UNICODE) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        char buf[10];
        int len;
        if (ch >= 0x10000) {
            buf[0] = '\\';
            buf[1] = 'U';
            for (int k = 0; k < 8; k++) {
                buf[2 + k] = hex[(ch >> (28 - 4 * k)) & 0xf];
            }
            len = 10;
        }
        else if (ch >= 0x100 || ch == '\\' || ch == 0 || ch == '\n'
                 || ch == '\r' || ch == 0x1a) {
            buf[0] = '\\';
            buf[1] = 'u';
            for (int k = 0; k < 4; k++) {
                buf[2 + k] = hex[(ch >> (12 - 4 * k)) & 0xf];
            }
            len = 6;
        }
        else {
            buf[0] = (char)ch;
            len = 1;
        }
        if (out_put(p, buf, len) < 0) {
            return -1;
        }
    }
    return out_op(p, '\n');
}

static int
save_str(PicklerObject *p, PyObject *obj)
{
    if (!p->bin) {
        if (write_text_line(p, obj) < 0) {
            return -1;
        }
        return memoize(p, obj);
    }
    PyObject *encoded = NULL;
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(obj, &n);
    if (s == NULL) {
        /* lone surrogates: keep them, as 'surrogatepass' does */
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            return -1;
        }
        PyErr_Clear();
        encoded = PyUnicode_AsEncodedString(obj, "utf-8", "surrogatepass");
        if (encoded == NULL) {
            return -1;
        }
        s = PyBytes_AS_STRING(encoded);
        n = PyBytes_GET_SIZE(encoded);
    }
    unsigned char h[9];
    int rc;
    if (n <= 0xff && p->proto >= 4) {
        h[0] = OP_SHORT_BINUNICODE;
        h[1] = (unsigned char)n;
        rc = out_put(p, h, 2);
        if (rc == 0) {
            rc = out_put(p, s, n);
        }
    }
    else if ((uint64_t)n > 0xffffffffULL && p->proto >= 4) {
        h[0] = OP_BINUNICODE8;
        for (int i = 0; i < 8; i++) {
            h[1 + i] = (unsigned char)((uint64_t)n >> (8 * i));
        }
        rc = out_large(p, h, 9, s, n, NULL);
    }
    else if ((uint64_t)n > 0xffffffffULL) {
        PyErr_SetString(PyExc_OverflowError,
                        "serializing a string larger than 4 GiB "
                        "requires pickle protocol 4 or higher");
        rc = -1;
    }
    else {
        h[0] = OP_BINUNICODE;
        for (int i = 0; i < 4; i++) {
            h[1 + i] = (unsigned char)((uint64_t)n >> (8 * i));
        }
        if (n >= PICKLE_FRAME_TARGET) {
            rc = out_large(p, h, 5, s, n, NULL);
        }
        else {
            rc = out_put(p, h, 5);
            if (rc == 0) {
                rc = out_put(p, s, n);
            }
        }
    }
    Py_XDECREF(encoded);
    if (rc < 0) {
        return -1;
    }
    return memoize(p, obj);
}

/* ---- Containers -------------------------------------------------------------------- */

static int
save_tuple(PicklerObject *p, PyObject *obj)
{
    Py_ssize_t n = PyTuple_GET_SIZE(obj);
    if (n == 0) {
        return p->bin ? out_op(p, OP_EMPTY_TUPLE) : out_put(p, "(t", 2);
    }
    int small = n <= 3 && p->proto >= 2;
    if (!small && out_op(p, OP_MARK) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (save(p, PyTuple_GET_ITEM(obj, i), 1) < 0) {
            return -1;
        }
    }
    int r = resolve_recursive(p, obj, small ? n : n, !small);
    if (r != 0) {
        return r < 0 ? -1 : 0;
    }
    static const unsigned char by_size[] = {0, OP_TUPLE1, OP_TUPLE2,
                                            OP_TUPLE3};
    if (out_op(p, small ? by_size[n] : OP_TUPLE) < 0) {
        return -1;
    }
    return memoize(p, obj);
}

/* Emit `items` (count n) as APPEND or MARK ... APPENDS. */
static int
emit_append_batch(PicklerObject *p, PyObject **items, Py_ssize_t n)
{
    if (n == 1) {
        if (save(p, items[0], 1) < 0) {
            return -1;
        }
        return out_op(p, OP_APPEND);
    }
    if (out_op(p, OP_MARK) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (save(p, items[i], 1) < 0) {
            return -1;
        }
    }
    return out_op(p, OP_APPENDS);
}

/* Items come from `iter` (an iterator) or, when it is NULL, from the list
   `list` read by index, so that a list changing under us is read the way
   a list iterator would read it. */
static int
batch_appends(PicklerObject *p, PyObject *iter, PyObject *list)
{
    Py_ssize_t pos = 0;
    PyObject **batch = NULL;
    Py_ssize_t n = 0;
    int rc = -1;
    if (!p->bin) {
        for (;;) {
            PyObject *item;
            if (iter != NULL) {
                item = PyIter_Next(iter);
                if (item == NULL) {
                    return PyErr_Occurred() ? -1 : 0;
                }
            }
            else {
                if (pos >= PyList_GET_SIZE(list)) {
                    return 0;
                }
                item = Py_NewRef(PyList_GET_ITEM(list, pos++));
            }
            int r = save(p, item, 1);
            Py_DECREF(item);
            if (r < 0 || out_op(p, OP_APPEND) < 0) {
                return -1;
            }
        }
    }
    batch = PyMem_Malloc(PICKLE_BATCH * sizeof(PyObject *));
    if (batch == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (;;) {
        n = 0;
        while (n < PICKLE_BATCH) {
            PyObject *item;
            if (iter != NULL) {
                item = PyIter_Next(iter);
                if (item == NULL) {
                    if (PyErr_Occurred()) {
                        goto done;
                    }
                    break;
                }
            }
            else {
                if (pos >= PyList_GET_SIZE(list)) {
                    break;
                }
                item = Py_NewRef(PyList_GET_ITEM(list, pos++));
            }
            batch[n++] = item;
        }
        if (n == 0) {
            break;
        }
        if (emit_append_batch(p, batch, n) < 0) {
            goto done;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_DECREF(batch[i]);
        }
        n = 0;
    }
    rc = 0;
done:
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_DECREF(batch[i]);
    }
    PyMem_Free(batch);
    return rc;
}

static int
save_list(PicklerObject *p, PyObject *obj)
{
    int rc = p->bin ? out_op(p, OP_EMPTY_LIST) : out_put(p, "(l", 2);
    if (rc < 0 || memoize(p, obj) < 0) {
        return -1;
    }
    return batch_appends(p, NULL, obj);
}

/* One (key, value) pair from a dictitems iterator. */
static int
split_pair(PyObject *item, PyObject **k, PyObject **v)
{
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
        PyErr_SetString(PyExc_TypeError,
                        "dict items iterator must return 2-tuples");
        return -1;
    }
    *k = PyTuple_GET_ITEM(item, 0);
    *v = PyTuple_GET_ITEM(item, 1);
    return 0;
}

/* Pair source for batch_setitems: an iterator of pairs, or a dict walked
   with PyDict_Next (watching for size changes as its iterator would). */
typedef struct {
    PyObject *iter;
    PyObject *dict;
    Py_ssize_t pos;
    Py_ssize_t size;
} PairSource;

/* 1 with new references in *k, *v; 0 at the end; -1 on error */
static int
next_pair(PairSource *src, PyObject **k, PyObject **v)
{
    if (src->iter != NULL) {
        PyObject *item = PyIter_Next(src->iter);
        if (item == NULL) {
            return PyErr_Occurred() ? -1 : 0;
        }
        PyObject *kb, *vb;
        if (split_pair(item, &kb, &vb) < 0) {
            Py_DECREF(item);
            return -1;
        }
        *k = Py_NewRef(kb);
        *v = Py_NewRef(vb);
        Py_DECREF(item);
        return 1;
    }
    if (PyDict_GET_SIZE(src->dict) != src->size) {
        PyErr_SetString(PyExc_RuntimeError,
                        "dictionary changed size during iteration");
        return -1;
    }
    PyObject *kb, *vb;
    if (!PyDict_Next(src->dict, &src->pos, &kb, &vb)) {
        return 0;
    }
    *k = Py_NewRef(kb);
    *v = Py_NewRef(vb);
    return 1;
}

static int
emit_setitem_batch(PicklerObject *p, PyObject **pairs, Py_ssize_t n)
{
    if (n != 1 && out_op(p, OP_MARK) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (save(p, pairs[2 * i], 1) < 0 || save(p, pairs[2 * i + 1], 1) < 0) {
            return -1;
        }
    }
    return out_op(p, n == 1 ? OP_SETITEM : OP_SETITEMS);
}

static int
batch_setitems(PicklerObject *p, PairSource *src)
{
    PyObject *k, *v;
    if (!p->bin) {
        int r;
        while ((r = next_pair(src, &k, &v)) == 1) {
            int rc = save(p, k, 1);
            if (rc == 0) {
                rc = save(p, v, 1);
            }
            Py_DECREF(k);
            Py_DECREF(v);
            if (rc < 0 || out_op(p, OP_SETITEM) < 0) {
                return -1;
            }
        }
        return r;
    }
    PyObject **pairs = PyMem_Malloc(2 * PICKLE_BATCH * sizeof(PyObject *));
    if (pairs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t n = 0;
    int rc = -1;
    for (;;) {
        n = 0;
        int r = 0;
        while (n < PICKLE_BATCH && (r = next_pair(src, &k, &v)) == 1) {
            pairs[2 * n] = k;
            pairs[2 * n + 1] = v;
            n++;
        }
        if (r < 0) {
            goto done;
        }
        if (n == 0) {
            break;
        }
        if (emit_setitem_batch(p, pairs, n) < 0) {
            goto done;
        }
        for (Py_ssize_t i = 0; i < 2 * n; i++) {
            Py_DECREF(pairs[i]);
        }
        n = 0;
    }
    rc = 0;
done:
    for (Py_ssize_t i = 0; i < 2 * n; i++) {
        Py_DECREF(pairs[i]);
    }
    PyMem_Free(pairs);
    return rc;
}

static int
save_dict(PicklerObject *p, PyObject *obj)
{
    int rc = p->bin ? out_op(p, OP_EMPTY_DICT) : out_put(p, "(d", 2);
    if (rc < 0 || memoize(p, obj) < 0) {
        return -1;
    }
    PairSource src = {NULL, obj, 0, PyDict_GET_SIZE(obj)};
    return batch_setitems(p, &src);
}

static int
save_set_via_list(PicklerObject *p, PyObject *obj, PyTypeObject *type)
{
    PyObject *items = PySequence_List(obj);
    if (items == NULL) {
        return -1;
    }
    return save_reduce_args(p, (PyObject *)type, Py_BuildValue("(N)", items),
                            obj);
}

static int
save_set(PicklerObject *p, PyObject *obj)
{
    if (p->proto < 4) {
        return save_set_via_list(p, obj, &PySet_Type);
    }
    if (out_op(p, OP_EMPTY_SET) < 0 || memoize(p, obj) < 0) {
        return -1;
    }
    PyObject *iter = PyObject_GetIter(obj);
    if (iter == NULL) {
        return -1;
    }
    PyObject **batch = PyMem_Malloc(PICKLE_BATCH * sizeof(PyObject *));
    if (batch == NULL) {
        Py_DECREF(iter);
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t n = 0;
    int rc = -1;
    for (;;) {
        n = 0;
        PyObject *item = NULL;
        while (n < PICKLE_BATCH && (item = PyIter_Next(iter)) != NULL) {
            batch[n++] = item;
        }
        if (item == NULL && PyErr_Occurred()) {
            goto done;
        }
        if (n == 0) {
            break;
        }
        if (out_op(p, OP_MARK) < 0) {
            goto done;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (save(p, batch[i], 1) < 0) {
                goto done;
            }
        }
        if (out_op(p, OP_ADDITEMS) < 0) {
            goto done;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_DECREF(batch[i]);
        }
        n = 0;
    }
    rc = 0;
done:
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_DECREF(batch[i]);
    }
    PyMem_Free(batch);
    Py_DECREF(iter);
    return rc;
}

static int
save_frozenset(PicklerObject *p, PyObject *obj)
{
    if (p->proto < 4) {
        return save_set_via_list(p, obj, &PyFrozenSet_Type);
    }
    if (out_op(p, OP_MARK) < 0) {
        return -1;
    }
    PyObject *iter = PyObject_GetIter(obj);
    if (iter == NULL) {
        return -1;
    }
    PyObject *item;
    while ((item = PyIter_Next(iter)) != NULL) {
        int r = save(p, item, 1);
        Py_DECREF(item);
        if (r < 0) {
            Py_DECREF(iter);
            return -1;
        }
    }
    Py_DECREF(iter);
    if (PyErr_Occurred()) {
        return -1;
    }
    int r = resolve_recursive(p, obj, 0, 1);
    if (r != 0) {
        return r < 0 ? -1 : 0;
    }
    if (out_op(p, OP_FROZENSET) < 0) {
        return -1;
    }
    return memoize(p, obj);
}

/* ---- Globals ----------------------------------------------------------------------- */

/* Find the module that holds `obj` under the dotted name `parts`; the
   name of that module (new reference).  Mirrors pickle.whichmodule. */
static PyObject *
which_module(PyObject *obj, PyObject *name, PyObject *parts)
{
    PyObject *locals = PyUnicode_FromString("<locals>");
    if (locals == NULL) {
        return NULL;
    }
    int has_locals = PySequence_Contains(parts, locals);
    Py_DECREF(locals);
    if (has_locals < 0) {
        return NULL;
    }
    PyObject *module_name;
    if (PyObject_GetOptionalAttrString(obj, "__module__", &module_name) < 0) {
        return NULL;
    }
    if (has_locals) {
        Py_XDECREF(module_name);
        pickling_error("Can't pickle local object %R", obj);
        return NULL;
    }
    if (module_name == Py_None) {
        Py_CLEAR(module_name);
    }
    if (module_name == NULL) {
        /* Search every loaded module, on a snapshot of sys.modules. */
        PyObject *modules = PySys_GetObject("modules");
        PyObject *snapshot = modules ? PyDict_Items(modules) : NULL;
        if (snapshot == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_RuntimeError, "lost sys.modules");
            }
            return NULL;
        }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(snapshot); i++) {
            PyObject *pair = PyList_GET_ITEM(snapshot, i);
            PyObject *mname = PyTuple_GET_ITEM(pair, 0);
            PyObject *mod = PyTuple_GET_ITEM(pair, 1);
            if (mod == Py_None || !PyUnicode_Check(mname)
                || PyUnicode_EqualToUTF8(mname, "__main__")
                || PyUnicode_EqualToUTF8(mname, "__mp_main__")) {
                continue;
            }
            PyObject *found = _PyPickle_GetDotted(mod, parts);
            if (found == NULL) {
                if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
                    Py_DECREF(snapshot);
                    return NULL;
                }
                PyErr_Clear();
                continue;
            }
            Py_DECREF(found);
            if (found == obj) {
                module_name = Py_NewRef(mname);
                Py_DECREF(snapshot);
                return module_name;
            }
        }
        Py_DECREF(snapshot);
        module_name = PyUnicode_FromString("__main__");
        if (module_name == NULL) {
            return NULL;
        }
    }
    PyObject *module = _PyPickle_ImportModule(module_name);
    if (module == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ImportError)
            || PyErr_ExceptionMatches(PyExc_ValueError)
            || PyErr_ExceptionMatches(PyExc_KeyError)) {
            PyObject *exc = PyErr_GetRaisedException();
            pickling_error("Can't pickle %R: %S", obj, exc);
            PyObject *mine = PyErr_GetRaisedException();
            PyException_SetCause(mine, Py_NewRef(exc));
            PyException_SetContext(mine, exc);
            PyErr_SetRaisedException(mine);
        }
        Py_DECREF(module_name);
        return NULL;
    }
    PyObject *found = _PyPickle_GetDotted(module, parts);
    Py_DECREF(module);
    if (found == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            pickling_error("Can't pickle %R: it's not found as %S.%S",
                           obj, module_name, name);
        }
        Py_DECREF(module_name);
        return NULL;
    }
    Py_DECREF(found);
    if (found != obj) {
        pickling_error("Can't pickle %R: it's not the same object as %S.%S",
                       obj, module_name, name);
        Py_DECREF(module_name);
        return NULL;
    }
    return module_name;
}

static int
write_identifier_line(PicklerObject *p, PyObject *ident, const char *what)
{
    PyObject *enc = PyUnicode_Check(ident)
        ? PyUnicode_AsEncodedString(ident, p->proto >= 3 ? "utf-8" : "ascii",
                                    "strict")
        : NULL;
    if (enc == NULL) {
        if (PyUnicode_Check(ident)
            && !PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            return -1;
        }
        PyErr_Clear();
        return pickling_error("can't pickle %s identifier %R using "
                              "pickle protocol %d", what, ident, p->proto);
    }
    int rc = out_put(p, PyBytes_AS_STRING(enc), PyBytes_GET_SIZE(enc));
    Py_DECREF(enc);
    return rc < 0 ? -1 : out_op(p, '\n');
}

/* GLOBAL module\nname\n, mapped back to Python 2 names when asked. */
static int
save_toplevel_by_name(PicklerObject *p, PyObject *module_name, PyObject *name)
{
    PyObject *mod = Py_NewRef(module_name);
    PyObject *nm = Py_NewRef(name);
    int rc = -1;
    if (p->proto < 3 && p->fix_imports) {
        PyObject *key = PyTuple_Pack(2, mod, nm);
        PyObject *mapped;
        if (key == NULL) {
            goto done;
        }
        int r = PyDict_GetItemRef(_PyPickle_State.name_3to2, key, &mapped);
        Py_DECREF(key);
        if (r < 0) {
            goto done;
        }
        if (r > 0) {
            if (!PyTuple_Check(mapped) || PyTuple_GET_SIZE(mapped) != 2) {
                PyErr_SetString(PyExc_RuntimeError,
                                "_compat_pickle.REVERSE_NAME_MAPPING values "
                                "should be 2-tuples");
                Py_DECREF(mapped);
                goto done;
            }
            Py_SETREF(mod, Py_NewRef(PyTuple_GET_ITEM(mapped, 0)));
            Py_SETREF(nm, Py_NewRef(PyTuple_GET_ITEM(mapped, 1)));
            Py_DECREF(mapped);
        }
        else {
            r = PyDict_GetItemRef(_PyPickle_State.import_3to2, mod, &mapped);
            if (r < 0) {
                goto done;
            }
            if (r > 0) {
                Py_SETREF(mod, mapped);
            }
        }
    }
    if (out_op(p, OP_GLOBAL) < 0
        || write_identifier_line(p, mod, "module") < 0
        || write_identifier_line(p, nm, "global") < 0) {
        goto done;
    }
    rc = 0;
done:
    Py_DECREF(mod);
    Py_DECREF(nm);
    return rc;
}

static int
write_extension(PicklerObject *p, PyObject *code_obj)
{
    long code = PyLong_AsLong(code_obj);
    if (code == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (code <= 0 || code > 0x7fffffffL) {
        PyErr_Format(PyExc_RuntimeError, "extension code %ld is out of range",
                     code);
        return -1;
    }
    if (code <= 0xff) {
        return out_op_uint(p, OP_EXT1, (uint64_t)code, 1);
    }
    if (code <= 0xffff) {
        return out_op_uint(p, OP_EXT2, (uint64_t)code, 2);
    }
    return out_op_uint(p, OP_EXT4, (uint64_t)code, 4);
}

static int
save_global_parts(PicklerObject *p, PyObject *obj, PyObject *name,
                  PyObject *parts)
{
    PyObject *module_name = which_module(obj, name, parts);
    if (module_name == NULL) {
        return -1;
    }
    int rc = -1;
    if (p->proto >= 2) {
        PyObject *key = PyTuple_Pack(2, module_name, name);
        PyObject *code;
        if (key == NULL) {
            goto done;
        }
        int r = PyDict_GetItemRef(_PyPickle_State.extension_registry, key,
                                  &code);
        Py_DECREF(key);
        if (r < 0) {
            goto done;
        }
        if (r > 0) {
            rc = write_extension(p, code);
            Py_DECREF(code);
            goto done;
        }
    }
    if (p->proto >= 4) {
        if (save(p, module_name, 1) < 0 || save(p, name, 1) < 0
            || out_op(p, OP_STACK_GLOBAL) < 0) {
            goto done;
        }
    }
    else if (PyList_GET_SIZE(parts) > 1) {
        /* getattr(getattr(top, a), b) ... */
        Py_ssize_t n = PyList_GET_SIZE(parts);
        for (Py_ssize_t i = 1; i < n; i++) {
            if (save(p, _PyPickle_State.builtin_getattr, 1) < 0) {
                goto done;
            }
            if (p->proto < 2 && out_op(p, OP_MARK) < 0) {
                goto done;
            }
        }
        if (save_toplevel_by_name(p, module_name,
                                  PyList_GET_ITEM(parts, 0)) < 0) {
            goto done;
        }
        for (Py_ssize_t i = 1; i < n; i++) {
            if (save(p, PyList_GET_ITEM(parts, i), 1) < 0
                || out_op(p, p->proto < 2 ? OP_TUPLE : OP_TUPLE2) < 0
                || out_op(p, OP_REDUCE) < 0) {
                goto done;
            }
        }
    }
    else if (save_toplevel_by_name(p, module_name, name) < 0) {
        goto done;
    }
    rc = memoize(p, obj);
done:
    Py_DECREF(module_name);
    return rc;
}

static int
save_global(PicklerObject *p, PyObject *obj, PyObject *name)
{
    PyObject *owned = NULL;
    if (name == NULL) {
        if (PyObject_GetOptionalAttrString(obj, "__qualname__", &owned) < 0) {
            return -1;
        }
        if (owned == NULL || owned == Py_None) {
            Py_XDECREF(owned);
            owned = PyObject_GetAttrString(obj, "__name__");
            if (owned == NULL) {
                return -1;
            }
        }
        name = owned;
    }
    if (!PyUnicode_Check(name)) {
        Py_XDECREF(owned);
        PyErr_Format(PyExc_TypeError, "name must be a str, not %.200s",
                     Py_TYPE(name)->tp_name);
        return -1;
    }
    PyObject *dot = PyUnicode_FromStringAndSize(".", 1);
    PyObject *parts = dot ? PyUnicode_Split(name, dot, -1) : NULL;
    Py_XDECREF(dot);
    int rc = -1;
    if (parts != NULL) {
        rc = save_global_parts(p, obj, name, parts);
        Py_DECREF(parts);
    }
    Py_XDECREF(owned);
    return rc;
}

static int
save_type(PicklerObject *p, PyObject *obj)
{
    PyObject *singleton = NULL;
    if (obj == (PyObject *)&_PyNone_Type) {
        singleton = Py_None;
    }
    else if (obj == (PyObject *)&_PyNotImplemented_Type) {
        singleton = Py_NotImplemented;
    }
    else if (obj == (PyObject *)&PyEllipsis_Type) {
        singleton = Py_Ellipsis;
    }
    if (singleton != NULL) {
        return save_reduce_args(p, (PyObject *)&PyType_Type,
                                PyTuple_Pack(1, singleton), obj);
    }
    return save_global(p, obj, NULL);
}

/* ---- PickleBuffer ---------------------------------------------------------------- */

static int
save_picklebuffer(PicklerObject *p, PyObject *obj)
{
    if (p->proto < 5) {
        return pickling_error("PickleBuffer can only be pickled with "
                              "protocol >= 5");
    }
    const Py_buffer *view = _PyPickleBuffer_GetView(obj);
    if (view == NULL) {
        return -1;
    }
    if (!PyBuffer_IsContiguous(view, 'A')) {
        return pickling_error("PickleBuffer can not be pickled when "
                              "pointing to a non-contiguous buffer");
    }
    int in_band = 1;
    if (p->buffer_callback != NULL) {
        PyObject *r = PyObject_CallOneArg(p->buffer_callback, obj);
        if (r == NULL) {
            return -1;
        }
        in_band = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (in_band < 0) {
            return -1;
        }
        /* the callback may have released the buffer */
        view = _PyPickleBuffer_GetView(obj);
        if (view == NULL) {
            return -1;
        }
    }
    if (!in_band) {
        if (out_op(p, OP_NEXT_BUFFER) < 0) {
            return -1;
        }
        return view->readonly ? out_op(p, OP_READONLY_BUFFER) : 0;
    }
    /* In band: the data as raw().tobytes(), the copy pickle.py makes and
       memoizes (unless that very object is memoized already). */
    PyObject *raw = PyObject_CallMethod(obj, "raw", NULL);
    if (raw == NULL) {
        return -1;
    }
    PyObject *copy = PyObject_CallMethod(raw, "tobytes", NULL);
    Py_DECREF(raw);
    if (copy == NULL) {
        return -1;
    }
    if (!PyBytes_Check(copy)) {
        Py_DECREF(copy);
        PyErr_SetString(PyExc_TypeError, "tobytes() did not return bytes");
        return -1;
    }
    int readonly = view->readonly;
    int in_memo = _PyPickleMemo_Lookup(&p->memo, copy) >= 0;
    int rc = readonly
        ? write_bytes_nomemo(p, PyBytes_AS_STRING(copy),
                             PyBytes_GET_SIZE(copy), copy)
        : write_bytearray_nomemo(p, PyBytes_AS_STRING(copy),
                                 PyBytes_GET_SIZE(copy), copy);
    if (rc == 0 && !in_memo) {
        rc = memoize(p, copy);
    }
    Py_DECREF(copy);
    return rc;
}

/* ---- save_reduce --------------------------------------------------------------------- */

static int
reduce_name_is(PyObject *func, const char *want)
{
    PyObject *name;
    if (PyObject_GetOptionalAttrString(func, "__name__", &name) < 0) {
        return -1;
    }
    int r = name != NULL && PyUnicode_Check(name)
            && PyUnicode_EqualToUTF8(name, want);
    Py_XDECREF(name);
    return r;
}

static int
check_newobj_class(PyObject *cls, PyObject *obj, const char *func)
{
    int has_new = PyObject_HasAttrStringWithError(cls, "__new__");
    if (has_new < 0) {
        return -1;
    }
    if (!has_new) {
        return pickling_error("first argument to %s() has no __new__", func);
    }
    if (obj != NULL && (PyObject *)Py_TYPE(obj) != cls) {
        PyObject *klass = PyObject_GetAttrString(obj, "__class__");
        if (klass == NULL) {
            return -1;
        }
        int same = klass == cls;
        if (!same) {
            pickling_error("first argument to %s() must be %R, not %R", func,
                           klass, cls);
        }
        Py_DECREF(klass);
        return same ? 0 : -1;
    }
    return 0;
}

static int
save_newobj_ex(PicklerObject *p, PyObject *args, PyObject *obj)
{
    if (PyTuple_GET_SIZE(args) != 3) {
        return pickling_error("length of the NEWOBJ_EX argument tuple must "
                              "be exactly 3, not %zd", PyTuple_GET_SIZE(args));
    }
    PyObject *cls = PyTuple_GET_ITEM(args, 0);
    PyObject *cargs = PyTuple_GET_ITEM(args, 1);
    PyObject *kwargs = PyTuple_GET_ITEM(args, 2);
    if (check_newobj_class(cls, obj, "__newobj_ex__") < 0) {
        return -1;
    }
    if (p->proto >= 4) {
        if (save(p, cls, 1) < 0 || save(p, cargs, 1) < 0
            || save(p, kwargs, 1) < 0) {
            return -1;
        }
        return out_op(p, OP_NEWOBJ_EX);
    }
    /* Protocols 2-3: partial(cls.__new__, cls, *args, **kwargs)() */
    if (!PyTuple_Check(cargs) || !PyDict_Check(kwargs)) {
        return pickling_error("__newobj_ex__ args must be a tuple and "
                              "kwargs a dict");
    }
    PyObject *new_func = PyObject_GetAttrString(cls, "__new__");
    if (new_func == NULL) {
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(cargs);
    PyObject *pargs = PyTuple_New(n + 2);
    if (pargs == NULL) {
        Py_DECREF(new_func);
        return -1;
    }
    PyTuple_SET_ITEM(pargs, 0, new_func);
    PyTuple_SET_ITEM(pargs, 1, Py_NewRef(cls));
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(pargs, i + 2, Py_NewRef(PyTuple_GET_ITEM(cargs, i)));
    }
    PyObject *partial = PyObject_Call(_PyPickle_State.partial, pargs, kwargs);
    Py_DECREF(pargs);
    if (partial == NULL) {
        return -1;
    }
    int rc = save(p, partial, 1);
    Py_DECREF(partial);
    if (rc < 0) {
        return -1;
    }
    PyObject *empty = PyTuple_New(0);
    if (empty == NULL) {
        return -1;
    }
    rc = save(p, empty, 1);
    Py_DECREF(empty);
    return rc < 0 ? -1 : out_op(p, OP_REDUCE);
}

static int
save_newobj(PicklerObject *p, PyObject *args, PyObject *obj)
{
    if (PyTuple_GET_SIZE(args) < 1) {
        return pickling_error("__newobj__ arglist is empty");
    }
    PyObject *cls = PyTuple_GET_ITEM(args, 0);
    if (check_newobj_class(cls, obj, "__newobj__") < 0) {
        return -1;
    }
    if (save(p, cls, 1) < 0) {
        return -1;
    }
    PyObject *rest = PyTuple_GetSlice(args, 1, PyTuple_GET_SIZE(args));
    if (rest == NULL) {
        return -1;
    }
    int rc = save(p, rest, 1);
    Py_DECREF(rest);
    return rc < 0 ? -1 : out_op(p, OP_NEWOBJ);
}

static int
save_items_from(PicklerObject *p, PyObject *iterable, int dict)
{
    PyObject *iter = PyObject_GetIter(iterable);
    if (iter == NULL) {
        return -1;
    }
    int rc;
    if (dict) {
        PairSource src = {iter, NULL, 0, 0};
        rc = batch_setitems(p, &src);
    }
    else {
        rc = batch_appends(p, iter, NULL);
    }
    Py_DECREF(iter);
    return rc;
}

/* Arguments that are None count as absent (NULL). */
static int
save_reduce(PicklerObject *p, PyObject *func, PyObject *args, PyObject *state,
            PyObject *listitems, PyObject *dictitems, PyObject *state_setter,
            PyObject *obj)
{
    if (!PyCallable_Check(func)) {
        return pickling_error("first item of the tuple returned by "
                              "__reduce__ must be callable, not %T", func);
    }
    if (!PyTuple_Check(args)) {
        return pickling_error("second item of the tuple returned by "
                              "__reduce__ must be a tuple, not %T", args);
    }
    int is_ex = 0, is_new = 0;
    if (p->proto >= 2) {
        if ((is_ex = reduce_name_is(func, "__newobj_ex__")) < 0) {
            return -1;
        }
        if (!is_ex && (is_new = reduce_name_is(func, "__newobj__")) < 0) {
            return -1;
        }
    }
    int rc;
    if (is_ex) {
        rc = save_newobj_ex(p, args, obj);
    }
    else if (is_new) {
        rc = save_newobj(p, args, obj);
    }
    else {
        rc = save(p, func, 1);
        if (rc == 0) {
            rc = save(p, args, 1);
        }
        if (rc == 0) {
            rc = out_op(p, OP_REDUCE);
        }
    }
    if (rc < 0) {
        return -1;
    }
    if (obj != NULL) {
        Py_ssize_t idx = _PyPickleMemo_Lookup(&p->memo, obj);
        if (idx >= 0) {
            if (out_op(p, OP_POP) < 0 || write_get(p, idx) < 0) {
                return -1;
            }
        }
        else if (memoize(p, obj) < 0) {
            return -1;
        }
    }
    if (listitems != NULL && save_items_from(p, listitems, 0) < 0) {
        return -1;
    }
    if (dictitems != NULL && save_items_from(p, dictitems, 1) < 0) {
        return -1;
    }
    if (state != NULL) {
        if (state_setter == NULL) {
            if (save(p, state, 1) < 0 || out_op(p, OP_BUILD) < 0) {
                return -1;
            }
        }
        else {
            if (save(p, state_setter, 1) < 0 || save(p, obj, 1) < 0
                || save(p, state, 1) < 0
                || out_put(p, "\x86R0", 3) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* A reduce value: a str (save as global) or a 2..6-tuple. */
static int
save_reduce_value(PicklerObject *p, PyObject *obj, PyObject *rv)
{
    if (PyUnicode_Check(rv)) {
        return save_global(p, obj, rv);
    }
    if (!PyTuple_Check(rv)) {
        return pickling_error("__reduce__ must return a string or tuple, "
                              "not %T", rv);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(rv);
    if (n < 2 || n > 6) {
        return pickling_error("tuple returned by __reduce__ must contain "
                              "2 through 6 elements");
    }
    PyObject *items[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyTuple_GET_ITEM(rv, i);
        items[i] = (i >= 2 && v == Py_None) ? NULL : v;
    }
    return save_reduce(p, items[0], items[1], items[2], items[3], items[4],
                       items[5], obj);
}

/* ---- save ---------------------------------------------------------------------------- */

static int
save_pers(PicklerObject *p, PyObject *pid)
{
    if (p->bin) {
        if (save(p, pid, 0) < 0) {
            return -1;
        }
        return out_op(p, OP_BINPERSID);
    }
    PyObject *s = PyObject_Str(pid);
    if (s == NULL) {
        return -1;
    }
    PyObject *enc = PyUnicode_AsASCIIString(s);
    Py_DECREF(s);
    if (enc == NULL) {
        if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            PyErr_Clear();
            return pickling_error("persistent IDs in protocol 0 must be "
                                  "ASCII strings");
        }
        return -1;
    }
    int rc = out_op(p, OP_PERSID);
    if (rc == 0) {
        rc = out_put(p, PyBytes_AS_STRING(enc), PyBytes_GET_SIZE(enc));
    }
    Py_DECREF(enc);
    return rc < 0 ? -1 : out_op(p, '\n');
}

/* The reduce value for an object no save_* writer handles. */
static PyObject *
reduce_object(PicklerObject *p, PyObject *obj, int *as_global)
{
    PyTypeObject *t = Py_TYPE(obj);
    PyObject *reducer = NULL;
    *as_global = 0;
    if (p->table != NULL) {
        int r;
        if (PyDict_CheckExact(p->table)) {
            r = PyDict_GetItemRef(p->table, (PyObject *)t, &reducer);
        }
        else {
            reducer = PyObject_GetItem(p->table, (PyObject *)t);
            r = reducer != NULL;
            if (!r) {
                if (!PyErr_ExceptionMatches(PyExc_KeyError)) {
                    return NULL;
                }
                PyErr_Clear();
            }
        }
        if (r < 0) {
            return NULL;
        }
        if (reducer != NULL) {
            PyObject *rv = PyObject_CallOneArg(reducer, obj);
            Py_DECREF(reducer);
            return rv;
        }
    }
    if (PyType_IsSubtype(t, &PyType_Type)) {
        *as_global = 1;
        return NULL;
    }
    if (PyObject_GetOptionalAttrString(obj, "__reduce_ex__", &reducer) < 0) {
        return NULL;
    }
    if (reducer != NULL) {
        PyObject *proto = PyLong_FromLong(p->proto);
        PyObject *rv = proto ? PyObject_CallOneArg(reducer, proto) : NULL;
        Py_XDECREF(proto);
        Py_DECREF(reducer);
        return rv;
    }
    if (PyObject_GetOptionalAttrString(obj, "__reduce__", &reducer) < 0) {
        return NULL;
    }
    if (reducer != NULL) {
        PyObject *rv = PyObject_CallNoArgs(reducer);
        Py_DECREF(reducer);
        return rv;
    }
    pickling_error("Can't pickle %s object", t->tp_name);
    return NULL;
}

/* The writers for exact types; NULL when the type has none. */
typedef int (*saver)(PicklerObject *, PyObject *);

static int
save_global_default(PicklerObject *p, PyObject *obj)
{
    return save_global(p, obj, NULL);
}

static int
save_none(PicklerObject *p, PyObject *obj)
{
    (void)obj;
    return out_op(p, OP_NONE);
}

static saver
saver_for(PyTypeObject *t)
{
    if (t == &PyUnicode_Type) return save_str;
    if (t == &PyLong_Type) return save_long;
    if (t == &PyFloat_Type) return save_float;
    if (t == &PyDict_Type) return save_dict;
    if (t == &PyList_Type) return save_list;
    if (t == &PyTuple_Type) return save_tuple;
    if (t == &_PyNone_Type) return save_none;
    if (t == &PyBool_Type) return save_bool;
    if (t == &PyBytes_Type) return save_bytes;
    if (t == &PyByteArray_Type) return save_bytearray;
    if (t == &PySet_Type) return save_set;
    if (t == &PyFrozenSet_Type) return save_frozenset;
    if (t == &PyFunction_Type) return save_global_default;
    if (t == &PyType_Type) return save_type;
    if (t == &_PyPickle_PickleBufferType) return save_picklebuffer;
    return NULL;
}

static int
save_dispatch(PicklerObject *p, PyObject *obj)
{
    PyObject *rv = NULL;
    if (p->reducer_override != NULL) {
        rv = PyObject_CallOneArg(p->reducer_override, obj);
        if (rv == NULL) {
            return -1;
        }
        if (rv == Py_NotImplemented) {
            Py_CLEAR(rv);
        }
    }
    if (rv == NULL) {
        saver f = saver_for(Py_TYPE(obj));
        if (f != NULL) {
            return f(p, obj);
        }
        int as_global;
        rv = reduce_object(p, obj, &as_global);
        if (rv == NULL) {
            return as_global ? save_global(p, obj, NULL) : -1;
        }
    }
    int rc = save_reduce_value(p, obj, rv);
    Py_DECREF(rv);
    return rc;
}

static int
save(PicklerObject *p, PyObject *obj, int use_pers)
{
    if (frame_check(p) < 0) {
        return -1;
    }
    if (use_pers && p->pers_func != NULL) {
        PyObject *pid = PyObject_CallOneArg(p->pers_func, obj);
        if (pid == NULL) {
            return -1;
        }
        if (pid != Py_None) {
            int rc = save_pers(p, pid);
            Py_DECREF(pid);
            return rc;
        }
        Py_DECREF(pid);
    }
    PyTypeObject *t = Py_TYPE(obj);
    if (p->reducer_override == NULL) {
        /* Atoms are never memoized: skip the memo probe. */
        if (t == &PyLong_Type) {
            return save_long(p, obj);
        }
        if (t == &PyFloat_Type) {
            return save_float(p, obj);
        }
        if (obj == Py_None) {
            return out_op(p, OP_NONE);
        }
        if (t == &PyBool_Type) {
            return save_bool(p, obj);
        }
    }
    Py_ssize_t idx = _PyPickleMemo_Lookup(&p->memo, obj);
    if (idx >= 0) {
        return write_get(p, idx);
    }
    if (Py_EnterRecursiveCall(" while pickling an object")) {
        return -1;
    }
    int rc = save_dispatch(p, obj);
    Py_LeaveRecursiveCall();
    return rc;
}

/* ---- dump --------------------------------------------------------------------------- */

/* Resolve the per-dump hooks: subclasses may define persistent_id,
   reducer_override or dispatch_table as methods or class attributes. */
static int
resolve_hooks(PicklerObject *p)
{
    Py_CLEAR(p->pers_func);
    Py_CLEAR(p->reducer_override);
    Py_CLEAR(p->table);
    if (Py_IS_TYPE(p, &_PyPickle_PicklerType)) {
        p->pers_func = Py_XNewRef(p->pers_attr);
        p->table = Py_XNewRef(p->dispatch_table);
    }
    else {
        PyObject *self = (PyObject *)p;
        if (PyObject_GetOptionalAttrString(self, "persistent_id",
                                           &p->pers_func) < 0
            || PyObject_GetOptionalAttrString(self, "reducer_override",
                                              &p->reducer_override) < 0
            || PyObject_GetOptionalAttrString(self, "dispatch_table",
                                              &p->table) < 0) {
            return -1;
        }
        if (p->pers_func == Py_None) {
            Py_CLEAR(p->pers_func);
        }
        if (p->reducer_override == Py_None) {
            Py_CLEAR(p->reducer_override);
        }
    }
    if (p->table == NULL) {
        p->table = Py_NewRef(_PyPickle_State.dispatch_table);
    }
    return 0;
}

static PyObject *
pickler_run(PicklerObject *p, PyObject *obj)
{
    if (!p->initialized) {
        PyErr_Format(_PyPickle_State.PicklingError,
                     "Pickler.__init__() was not called by %s.__init__()",
                     Py_TYPE(p)->tp_name);
        return NULL;
    }
    if (p->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Pickler.dump() called while the same pickler "
                        "is already dumping");
        return NULL;
    }
    p->busy = 1;
    p->len = 0;
    p->frame_start = -1;
    PyObject *result = NULL;
    if (resolve_hooks(p) < 0) {
        goto done;
    }
    if (p->proto >= 2 && out_op_uint(p, OP_PROTO, (uint64_t)p->proto, 1) < 0) {
        goto done;
    }
    if (p->proto >= 4 && frame_open(p) < 0) {
        goto done;
    }
    if (save(p, obj, 1) < 0 || out_op(p, OP_STOP) < 0) {
        goto done;
    }
    if (p->frame_start >= 0) {
        frame_close(p);
    }
    if (p->file_write != NULL) {
        if (out_flush(p, p->len) < 0) {
            goto done;
        }
        result = Py_NewRef(Py_None);
    }
    else {
        result = PyBytes_FromStringAndSize(p->out, p->len);
    }
done:
    p->len = 0;
    p->frame_start = -1;
    Py_CLEAR(p->pers_func);
    Py_CLEAR(p->reducer_override);
    Py_CLEAR(p->table);
    /* Do not keep a huge buffer around between dumps. */
    if (p->cap > (1 << 20)) {
        PyMem_Free(p->out);
        p->out = NULL;
        p->cap = 0;
    }
    p->busy = 0;
    return result;
}

/* ---- The type ------------------------------------------------------------------------ */

static int
parse_protocol(PyObject *protocol, int *out)
{
    if (protocol == NULL || protocol == Py_None) {
        *out = PICKLE_DEFAULT_PROTOCOL;
        return 0;
    }
    long v = PyLong_AsLong(protocol);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (v < 0) {
        v = PICKLE_HIGHEST_PROTOCOL;
    }
    else if (v > PICKLE_HIGHEST_PROTOCOL) {
        PyErr_Format(PyExc_ValueError, "pickle protocol must be <= %d",
                     PICKLE_HIGHEST_PROTOCOL);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int
pickler_setup(PicklerObject *p, PyObject *file, PyObject *protocol,
              int fix_imports, PyObject *buffer_callback)
{
    int proto;
    if (parse_protocol(protocol, &proto) < 0) {
        return -1;
    }
    if (buffer_callback == Py_None) {
        buffer_callback = NULL;
    }
    if (buffer_callback != NULL && proto < 5) {
        PyErr_SetString(PyExc_ValueError,
                        "buffer_callback needs protocol >= 5");
        return -1;
    }
    PyObject *write = NULL;
    if (file != NULL) {
        if (PyObject_GetOptionalAttrString(file, "write", &write) < 0) {
            return -1;
        }
        if (write == NULL) {
            PyErr_SetString(PyExc_TypeError,
                            "file must have a 'write' attribute");
            return -1;
        }
    }
    Py_XSETREF(p->file_write, write);
    Py_XSETREF(p->buffer_callback, Py_XNewRef(buffer_callback));
    _PyPickleMemo_Clear(&p->memo);
    p->proto = proto;
    p->bin = proto >= 1;
    p->fix_imports = fix_imports && proto < 3;
    p->fast = 0;
    p->initialized = 1;
    return 0;
}

static int
pickler_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"file", "protocol", "fix_imports",
                             "buffer_callback", NULL};
    PyObject *file, *protocol = Py_None, *callback = Py_None;
    int fix_imports = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OpO:Pickler", kwlist,
                                     &file, &protocol, &fix_imports,
                                     &callback)) {
        return -1;
    }
    if (P(self)->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "cannot re-initialize a Pickler while it dumps");
        return -1;
    }
    return pickler_setup(P(self), file, protocol, fix_imports, callback);
}

static PyObject *
pickler_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *self = type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    P(self)->frame_start = -1;
    if (_PyPickleMemo_Init(&P(self)->memo) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

static int
pickler_clear(PyObject *self)
{
    PicklerObject *p = P(self);
    Py_CLEAR(p->file_write);
    Py_CLEAR(p->pers_attr);
    Py_CLEAR(p->dispatch_table);
    Py_CLEAR(p->buffer_callback);
    Py_CLEAR(p->pers_func);
    Py_CLEAR(p->reducer_override);
    Py_CLEAR(p->table);
    _PyPickleMemo_Clear(&p->memo);
    return 0;
}

static int
pickler_traverse(PyObject *self, visitproc visit, void *arg)
{
    PicklerObject *p = P(self);
    Py_VISIT(p->file_write);
    Py_VISIT(p->pers_attr);
    Py_VISIT(p->dispatch_table);
    Py_VISIT(p->buffer_callback);
    Py_VISIT(p->pers_func);
    Py_VISIT(p->reducer_override);
    Py_VISIT(p->table);
    return _PyPickleMemo_Traverse(&p->memo, visit, arg);
}

static void
pickler_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    pickler_clear(self);
    _PyPickleMemo_Free(&P(self)->memo);
    PyMem_Free(P(self)->out);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
pickler_dump(PyObject *self, PyObject *obj)
{
    if (P(self)->initialized && P(self)->file_write == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "this Pickler was created without a file");
        return NULL;
    }
    return pickler_run(P(self), obj);
}

static PyObject *
pickler_clear_memo(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    _PyPickleMemo_Clear(&P(self)->memo);
    Py_RETURN_NONE;
}

static PyObject *
pickler_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PicklerObject *p = P(self);
    size_t size = (size_t)Py_TYPE(self)->tp_basicsize + (size_t)p->cap;
    if (p->memo.slots != NULL) {
        size += (p->memo.mask + 1) * sizeof(_PyPickleMemoSlot);
    }
    return PyLong_FromSize_t(size);
}

static PyMethodDef pickler_methods[] = {
    {"dump", pickler_dump, METH_O,
     "dump($self, obj, /)\n--\n\n"
     "Pickle obj and pass the bytes to the file's write()."},
    {"clear_memo", pickler_clear_memo, METH_NOARGS,
     "clear_memo($self, /)\n--\n\n"
     "Forget every object pickled so far (they will be written again)."},
    {"__sizeof__", pickler_sizeof, METH_NOARGS,
     "Size of the pickler in memory, in bytes."},
    {NULL, NULL, 0, NULL},
};

static PyObject *
pickler_get_memo(PyObject *self, void *Py_UNUSED(closure))
{
    return _PyPickle_NewMemoProxy(&_PyPickle_PicklerMemoProxyType, self);
}

static int
pickler_set_memo(PyObject *self, PyObject *value, void *Py_UNUSED(closure))
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "attribute deletion is not supported");
        return -1;
    }
    PyObject *owner = _PyPickle_MemoProxyOwner(
        &_PyPickle_PicklerMemoProxyType, value);
    if (owner != NULL) {
        PyObject *contents = _PyPickleMemo_AsDict(&P(owner)->memo);
        if (contents == NULL) {
            return -1;
        }
        int rc = _PyPickleMemo_FromDict(&P(self)->memo, contents);
        Py_DECREF(contents);
        return rc;
    }
    return _PyPickleMemo_FromDict(&P(self)->memo, value);
}

static PyObject *
pickler_get_pers(PyObject *self, void *Py_UNUSED(closure))
{
    if (P(self)->pers_attr == NULL) {
        PyErr_SetString(PyExc_AttributeError, "persistent_id");
        return NULL;
    }
    return Py_NewRef(P(self)->pers_attr);
}

static int
pickler_set_pers(PyObject *self, PyObject *value, void *Py_UNUSED(closure))
{
    return _PyPickle_StoreHook(&P(self)->pers_attr, value, "persistent_id");
}

static PyGetSetDef pickler_getset[] = {
    {"memo", pickler_get_memo, pickler_set_memo, NULL, NULL},
    {"persistent_id", pickler_get_pers, pickler_set_pers, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef pickler_members[] = {
    {"bin", Py_T_INT, offsetof(PicklerObject, bin), 0, NULL},
    {"fast", Py_T_INT, offsetof(PicklerObject, fast), 0, NULL},
    {"dispatch_table", Py_T_OBJECT_EX, offsetof(PicklerObject, dispatch_table),
     0, NULL},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject _PyPickle_PicklerType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_pickle.Pickler",
    .tp_basicsize = sizeof(PicklerObject),
    .tp_dealloc = pickler_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Pickler(file, protocol=None, fix_imports=True, "
              "buffer_callback=None)\n--\n\n"
              "Write pickle data streams to a binary file.",
    .tp_traverse = pickler_traverse,
    .tp_clear = pickler_clear,
    .tp_methods = pickler_methods,
    .tp_members = pickler_members,
    .tp_getset = pickler_getset,
    .tp_init = pickler_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = pickler_new,
    .tp_free = PyObject_GC_Del,
};

/* dumps()/dump(): a private pickler for one call. */
PyObject *
_PyPickle_Dumps(PyObject *obj, PyObject *file, PyObject *protocol,
                int fix_imports, PyObject *buffer_callback)
{
    PyObject *self = pickler_new(&_PyPickle_PicklerType, NULL, NULL);
    if (self == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    if (pickler_setup(P(self), file, protocol, fix_imports,
                      buffer_callback) == 0) {
        result = pickler_run(P(self), obj);
    }
    Py_DECREF(self);
    return result;
}
