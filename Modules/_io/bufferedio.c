/* Buffered binary streams: BufferedReader, BufferedWriter, BufferedRandom
   (one implementation, three types) and BufferedRWPair.

   The buffer is in one of two states at a time, never both:
     - reading: buf[rpos:rlen] holds bytes read ahead from the raw stream,
       so the raw position is rlen - rpos bytes past the logical one;
     - writing: buf[0:wlen] holds bytes not yet given to the raw stream,
       which is wlen bytes behind the logical position.
   Switching to writing gives the read-ahead back with a relative raw seek;
   switching to reading flushes.  This keeps tell() a single raw.tell(). */

#include "_iomodule.h"
#include "structmember.h"
#include <errno.h>

typedef struct {
    IO_HEAD
    PyObject *raw;
    char ok;
    char detached;
    char readable;
    char writable;
    char raw_is_fileio; /* a plain FileIO: call its descriptor loops */
    int busy;           /* inside a raw readinto()/write() call */
    char *buf;
    Py_ssize_t size;
    Py_ssize_t rpos;
    Py_ssize_t rlen;
    Py_ssize_t wlen;
} buffered;

#define BUF(op) ((buffered *)(op))

/* ---- State checks ------------------------------------------------------------------- */

static int
check_ready(buffered *b)
{
    if (b->busy) {
        /* The raw stream called back into us while we hold pointers into
           the buffer: refuse rather than let it be moved or freed. */
        PyErr_Format(PyExc_RuntimeError, "reentrant call inside %s", Py_TYPE(b)->tp_name);
        return -1;
    }
    if (b->ok) {
        return 0;
    }
    PyErr_SetString(PyExc_ValueError,
                    b->detached ? "raw stream has been detached" : "I/O operation on uninitialized object");
    return -1;
}

/* Ready and open; `msg` is the closed-file message (NULL: the generic
   one).  A closed reader may still hand out the bytes it holds. */
static int
check_usable(buffered *b, const char *msg)
{
    if (check_ready(b) < 0) {
        return -1;
    }
    int closed = _PyIO_IsClosed(b->raw);
    if (closed <= 0) {
        return closed;
    }
    if (msg != NULL && strncmp(msg, "read ", 5) == 0 && b->rlen > b->rpos) {
        return 0;
    }
    _PyIO_ClosedError(msg ? msg : "I/O operation on closed file");
    return -1;
}

#define CHECK_USABLE(b, what)            \
    if (check_usable((b), (what)) < 0) { \
        return NULL;                     \
    }

/* ---- Raw stream access -------------------------------------------------------------- */

/* Read up to n bytes from the raw stream into dst: bytes read, 0 at EOF,
   -2 when it would block, -1 on error. */
static Py_ssize_t
raw_read(buffered *b, char *dst, Py_ssize_t n)
{
    if (b->raw_is_fileio) {
        return _PyIO_FileIO_RawRead(b->raw, dst, n);
    }
    PyObject *tmp = PyByteArray_FromStringAndSize(NULL, n);
    if (tmp == NULL) {
        return -1;
    }
    PyObject *r;
    b->busy++;
    do {
        r = PyObject_CallMethod(b->raw, "readinto", "O", tmp);
    } while (r == NULL && PyErr_ExceptionMatches(PyExc_InterruptedError) && (PyErr_Clear(), 1));
    b->busy--;
    Py_ssize_t got = -1;
    if (r != NULL && Py_IsNone(r)) {
        got = -2;
    }
    else if (r != NULL) {
        got = PyNumber_AsSsize_t(r, PyExc_ValueError);
        if (got == -1 && PyErr_Occurred()) {
            got = -1;
        }
        else if (got < 0 || got > n) {
            PyErr_Format(PyExc_OSError, "raw readinto() returned invalid length %zd (should have been between 0 and %zd)",
                         got, n);
            got = -1;
        }
        else {
            memcpy(dst, PyByteArray_AS_STRING(tmp), (size_t)got);
        }
    }
    Py_XDECREF(r);
    Py_DECREF(tmp);
    return got;
}

static Py_ssize_t
raw_write(buffered *b, const char *src, Py_ssize_t n)
{
    if (b->raw_is_fileio) {
        return _PyIO_FileIO_RawWrite(b->raw, src, n);
    }
    PyObject *data = PyBytes_FromStringAndSize(src, n);
    if (data == NULL) {
        return -1;
    }
    PyObject *r;
    b->busy++;
    do {
        r = PyObject_CallMethod(b->raw, "write", "O", data);
    } while (r == NULL && PyErr_ExceptionMatches(PyExc_InterruptedError) && (PyErr_Clear(), 1));
    b->busy--;
    Py_DECREF(data);
    if (r == NULL) {
        return -1;
    }
    if (Py_IsNone(r)) {
        Py_DECREF(r);
        return -2;
    }
    Py_ssize_t done = PyNumber_AsSsize_t(r, PyExc_ValueError);
    Py_DECREF(r);
    if (done == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (done < 0 || done > n) {
        PyErr_Format(PyExc_OSError, "raw write() returned invalid length %zd (should have been between 0 and %zd)",
                     done, n);
        return -1;
    }
    return done;
}

static off_t
raw_seek(buffered *b, off_t pos, int whence)
{
    PyObject *r = PyObject_CallMethod(b->raw, "seek", "Li", (long long)pos, whence);
    if (r == NULL) {
        return -1;
    }
    long long v = PyLong_AsLongLong(r);
    Py_DECREF(r);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (v < 0) {
        PyErr_Format(PyExc_OSError, "Raw stream returned invalid position %lld", v);
        return -1;
    }
    return (off_t)v;
}

static PyObject *
blocking_error(Py_ssize_t written)
{
    PyObject *exc = PyObject_CallFunction(PyExc_BlockingIOError, "isn", EAGAIN,
                                          "write could not complete without blocking", written);
    if (exc != NULL) {
        PyErr_SetObject(PyExc_BlockingIOError, exc);
        Py_DECREF(exc);
    }
    return NULL;
}

/* Hand all pending write bytes to the raw stream. */
static int
flush_writes(buffered *b)
{
    Py_ssize_t done = 0;
    while (done < b->wlen) {
        Py_ssize_t n = raw_write(b, b->buf + done, b->wlen - done);
        if (n == -1) {
            goto error;
        }
        if (n == -2) {
            blocking_error(0);
            goto error;
        }
        done += n;
    }
    b->wlen = 0;
    return 0;
error:
    /* Keep what was not written at the front of the buffer. */
    memmove(b->buf, b->buf + done, (size_t)(b->wlen - done));
    b->wlen -= done;
    return -1;
}

/* Leave the reading state: give unread read-ahead back to the raw stream. */
static int
drop_read_ahead(buffered *b)
{
    Py_ssize_t ahead = b->rlen - b->rpos;
    b->rpos = b->rlen = 0;
    if (ahead > 0 && raw_seek(b, -(off_t)ahead, SEEK_CUR) < 0) {
        return -1;
    }
    return 0;
}

/* Make the buffer ready for reading. */
static int
enter_reading(buffered *b)
{
    if (b->wlen > 0) {
        return flush_writes(b);
    }
    return 0;
}

/* Refill the empty read buffer with one raw read. */
static Py_ssize_t
fill_buffer(buffered *b)
{
    b->rpos = b->rlen = 0;
    Py_ssize_t n = raw_read(b, b->buf, b->size);
    if (n > 0) {
        b->rlen = n;
    }
    return n;
}

/* ---- Construction ------------------------------------------------------------------- */

static int
check_raw(PyObject *raw, const char *method, const char *msg)
{
    PyObject *r = PyObject_CallMethod(raw, method, NULL);
    if (r == NULL) {
        return -1;
    }
    int ok = PyObject_IsTrue(r);
    Py_DECREF(r);
    if (ok == 0) {
        _PyIO_Unsupported(msg);
    }
    return ok > 0 ? 0 : -1;
}

static int
buffered_setup(PyObject *self, PyObject *raw, Py_ssize_t size, int readable, int writable)
{
    buffered *b = BUF(self);
    if (b->busy) {
        return check_ready(b);
    }
    b->ok = 0;
    if ((readable && check_raw(raw, "readable", "File or stream is not readable.") < 0) ||
        (writable && check_raw(raw, "writable", "File or stream is not writable.") < 0) ||
        (readable && writable && check_raw(raw, "seekable", "File or stream is not seekable.") < 0)) {
        return -1;
    }
    if (size <= 0) {
        PyErr_SetString(PyExc_ValueError, "buffer size must be strictly positive");
        return -1;
    }
    char *mem = PyMem_Realloc(b->buf, (size_t)size);
    if (mem == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->buf = mem;
    b->size = size;
    b->rpos = b->rlen = b->wlen = 0;
    Py_XSETREF(b->raw, Py_NewRef(raw));
    b->readable = (char)readable;
    b->writable = (char)writable;
    b->raw_is_fileio = Py_IS_TYPE(raw, &_PyIO_FileIO_Type);
    b->detached = 0;
    b->ok = 1;
    return 0;
}

static int
buffered_init_common(PyObject *self, PyObject *args, PyObject *kwds, const char *fname, int readable,
                     int writable)
{
    static char *kwlist[] = {"raw", "buffer_size", NULL};
    char fmt[64];
    PyObject *raw;
    Py_ssize_t size = IO_DEFAULT_BUFFER_SIZE;
    snprintf(fmt, sizeof(fmt), "O|n:%s", fname);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, &raw, &size)) {
        return -1;
    }
    return buffered_setup(self, raw, size, readable, writable);
}

static int
reader_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    return buffered_init_common(self, args, kwds, "BufferedReader", 1, 0);
}

static int
writer_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    return buffered_init_common(self, args, kwds, "BufferedWriter", 0, 1);
}

static int
random_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    return buffered_init_common(self, args, kwds, "BufferedRandom", 1, 1);
}

static void
buffered_dealloc(PyObject *self)
{
    buffered *b = BUF(self);
    b->finalizing = 1;
    if (PyObject_CallFinalizerFromDealloc(self) < 0) {
        return;
    }
    PyObject_GC_UnTrack(self);
    b->ok = 0;
    _PyIO_ClearHead(self);
    Py_CLEAR(b->raw);
    PyMem_Free(b->buf);
    b->buf = NULL;
    Py_TYPE(self)->tp_free(self);
}

static int
buffered_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(BUF(self)->raw);
    return _PyIO_TraverseHead(self, visit, arg);
}

static int
buffered_clear(PyObject *self)
{
    BUF(self)->ok = 0;
    Py_CLEAR(BUF(self)->raw);
    Py_CLEAR(IO_OBJ(self)->dict);
    return 0;
}

/* ---- Reading ------------------------------------------------------------------------ */

/* Copy up to n bytes into dst; with `once`, at most one raw read is made
   (read1/readinto1).  Returns the count, or -1/-2 (error / would block
   with nothing copied). */
static Py_ssize_t
read_into(buffered *b, char *dst, Py_ssize_t n, int once)
{
    Py_ssize_t got = 0;
    Py_ssize_t avail = b->rlen - b->rpos;
    if (avail > 0) {
        got = avail < n ? avail : n;
        memcpy(dst, b->buf + b->rpos, (size_t)got);
        b->rpos += got;
        if (got == n || once) {
            return got;
        }
    }
    while (got < n) {
        Py_ssize_t want = n - got, r;
        if (want >= b->size) {
            /* Big requests skip the buffer. */
            b->rpos = b->rlen = 0;
            r = raw_read(b, dst + got, want);
            if (r > 0) {
                got += r;
            }
        }
        else {
            r = fill_buffer(b);
            if (r > 0) {
                Py_ssize_t k = r < want ? r : want;
                memcpy(dst + got, b->buf, (size_t)k);
                b->rpos = k;
                got += k;
            }
        }
        if (r == -1) {
            return -1;
        }
        if (r == -2) {
            return got ? got : -2;
        }
        if (r == 0 || once) {
            break;
        }
    }
    return got;
}

/* For raw streams without readall(): read() until it gives b'' (or None,
   meaning "would block", once nothing has arrived). */
static PyObject *
read_until_eof(PyObject *raw)
{
    PyObject *acc = PyBytes_FromStringAndSize(NULL, 0);
    while (acc != NULL) {
        PyObject *chunk = PyObject_CallMethod(raw, "read", NULL);
        if (chunk == NULL || Py_IsNone(chunk)) {
            if (chunk != NULL && PyBytes_GET_SIZE(acc) == 0) {
                Py_DECREF(acc);
                return chunk;
            }
            Py_XDECREF(chunk);
            if (chunk == NULL) {
                Py_CLEAR(acc);
            }
            break;
        }
        if (!PyBytes_Check(chunk)) {
            PyErr_SetString(PyExc_TypeError, "read() should return bytes");
            Py_DECREF(chunk);
            Py_CLEAR(acc);
            break;
        }
        int empty = PyBytes_GET_SIZE(chunk) == 0;
        PyBytes_ConcatAndDel(&acc, chunk);
        if (empty) {
            break;
        }
    }
    return acc;
}

/* read(-1): the buffered bytes and then the raw stream up to EOF. */
static PyObject *
read_all(buffered *b)
{
    PyObject *head = PyBytes_FromStringAndSize(b->buf + b->rpos, b->rlen - b->rpos);
    b->rpos = b->rlen = 0;
    if (head == NULL) {
        return NULL;
    }
    PyObject *rest = PyObject_HasAttrString(b->raw, "readall") ? PyObject_CallMethod(b->raw, "readall", NULL)
                                                                : read_until_eof(b->raw);
    if (rest == NULL) {
        Py_DECREF(head);
        return NULL;
    }
    if (Py_IsNone(rest)) {
        if (PyBytes_GET_SIZE(head) > 0) {
            Py_DECREF(rest);
            return head;
        }
        Py_DECREF(head);
        return rest;
    }
    if (!PyBytes_Check(rest)) {
        PyErr_SetString(PyExc_TypeError, "readall() should return bytes");
        Py_DECREF(head);
        Py_DECREF(rest);
        return NULL;
    }
    PyBytes_ConcatAndDel(&head, rest);
    return head;
}

static PyObject *
read_sized(buffered *b, Py_ssize_t n, int once)
{
    PyObject *res = PyBytes_FromStringAndSize(NULL, n);
    if (res == NULL) {
        return NULL;
    }
    Py_ssize_t got = n ? read_into(b, PyBytes_AS_STRING(res), n, once) : 0;
    if (got < 0) {
        Py_DECREF(res);
        if (got == -2) {
            Py_RETURN_NONE;
        }
        return NULL;
    }
    if (got != n && _PyBytes_Resize(&res, got) < 0) {
        return NULL;
    }
    return res;
}

static PyObject *
buffered_read(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    buffered *b = BUF(self);
    Py_ssize_t n = -1;
    if (!_PyArg_CheckPositional("read", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &n) < 0) {
        return NULL;
    }
    if (n < -1) {
        PyErr_SetString(PyExc_ValueError, "read length must be non-negative or -1");
        return NULL;
    }
    CHECK_USABLE(b, "read of closed file");
    if (enter_reading(b) < 0) {
        return NULL;
    }
    return n < 0 ? read_all(b) : read_sized(b, n, 0);
}

static PyObject *
buffered_read1(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    buffered *b = BUF(self);
    Py_ssize_t n = -1;
    if (!_PyArg_CheckPositional("read1", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &n) < 0) {
        return NULL;
    }
    CHECK_USABLE(b, "read of closed file");
    if (enter_reading(b) < 0) {
        return NULL;
    }
    if (n < 0) {
        n = b->size;
    }
    return read_sized(b, n, 1);
}

static PyObject *
readinto_common(PyObject *self, PyObject *arg, int once)
{
    buffered *b = BUF(self);
    CHECK_USABLE(b, "readinto of closed file");
    if (enter_reading(b) < 0) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_WRITABLE) < 0) {
        return NULL;
    }
    Py_ssize_t got = view.len ? read_into(b, view.buf, view.len, once) : 0;
    PyBuffer_Release(&view);
    if (got == -1) {
        return NULL;
    }
    if (got == -2) {
        Py_RETURN_NONE;
    }
    return PyLong_FromSsize_t(got);
}

static PyObject *
buffered_readinto(PyObject *self, PyObject *arg)
{
    return readinto_common(self, arg, 0);
}

static PyObject *
buffered_readinto1(PyObject *self, PyObject *arg)
{
    return readinto_common(self, arg, 1);
}

static PyObject *
buffered_peek(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    buffered *b = BUF(self);
    if (!_PyArg_CheckPositional("peek", nargs, 0, 1)) {
        return NULL;
    }
    CHECK_USABLE(b, "peek of closed file");
    if (enter_reading(b) < 0) {
        return NULL;
    }
    if (b->rlen == b->rpos && fill_buffer(b) == -1) {
        return NULL;
    }
    return PyBytes_FromStringAndSize(b->buf + b->rpos, b->rlen - b->rpos);
}

static PyObject *
read_line(buffered *b, Py_ssize_t limit)
{
    PyObject *line = PyBytes_FromStringAndSize(NULL, 0);
    while (line != NULL && (limit < 0 || PyBytes_GET_SIZE(line) < limit)) {
        if (b->rlen == b->rpos) {
            Py_ssize_t r = fill_buffer(b);
            if (r == -1) {
                Py_CLEAR(line);
            }
            if (r <= 0) {
                break;
            }
        }
        Py_ssize_t avail = b->rlen - b->rpos;
        if (limit >= 0 && avail > limit - PyBytes_GET_SIZE(line)) {
            avail = limit - PyBytes_GET_SIZE(line);
        }
        const char *start = b->buf + b->rpos;
        const char *nl = memchr(start, '\n', (size_t)avail);
        Py_ssize_t k = nl ? nl - start + 1 : avail;
        PyBytes_ConcatAndDel(&line, PyBytes_FromStringAndSize(start, k));
        b->rpos += k;
        if (nl != NULL) {
            break;
        }
    }
    return line;
}

static PyObject *
buffered_readline(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    buffered *b = BUF(self);
    Py_ssize_t limit = -1;
    if (!_PyArg_CheckPositional("readline", nargs, 0, 1) || _PyIO_SizeArg(nargs ? args[0] : NULL, &limit) < 0) {
        return NULL;
    }
    CHECK_USABLE(b, "readline of closed file");
    if (enter_reading(b) < 0) {
        return NULL;
    }
    return read_line(b, limit);
}

static PyObject *
buffered_iternext(PyObject *self)
{
    buffered *b = BUF(self);
    if (!Py_IS_TYPE(self, &_PyIO_BufferedReader_Type) && !Py_IS_TYPE(self, &_PyIO_BufferedRandom_Type)) {
        return _PyIO_IterNext(self);
    }
    CHECK_USABLE(b, "readline of closed file");
    if (enter_reading(b) < 0) {
        return NULL;
    }
    PyObject *line = read_line(b, -1);
    if (line != NULL && PyBytes_GET_SIZE(line) == 0) {
        Py_CLEAR(line);
    }
    return line;
}

/* ---- Writing ------------------------------------------------------------------------ */

static PyObject *
buffered_write(PyObject *self, PyObject *arg)
{
    buffered *b = BUF(self);
    CHECK_USABLE(b, "write to closed file");
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    Py_ssize_t n = view.len;
    const char *src = view.buf;
    if (b->rlen > 0 && drop_read_ahead(b) < 0) {
        goto error;
    }
    if (b->wlen + n > b->size) {
        if (flush_writes(b) < 0) {
            goto error;
        }
        /* What does not fit goes straight to the raw stream. */
        while (n >= b->size) {
            Py_ssize_t done = raw_write(b, src, n);
            if (done == -1) {
                goto error;
            }
            if (done == -2) {
                blocking_error(view.len - n);
                goto error;
            }
            src += done;
            n -= done;
        }
    }
    memcpy(b->buf + b->wlen, src, (size_t)n);
    b->wlen += n;
    n = view.len;
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(n);
error:
    PyBuffer_Release(&view);
    return NULL;
}

static PyObject *
buffered_flush(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    buffered *b = BUF(self);
    CHECK_USABLE(b, b->writable ? "flush of closed file" : "I/O operation on closed file.");
    if (b->wlen > 0 && flush_writes(b) < 0) {
        return NULL;
    }
    return PyObject_CallMethod(b->raw, "flush", NULL);
}

/* ---- Positioning -------------------------------------------------------------------- */

static PyObject *
buffered_tell(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    buffered *b = BUF(self);
    CHECK_USABLE(b, NULL);
    off_t pos = raw_seek(b, 0, SEEK_CUR);
    if (pos < 0) {
        return NULL;
    }
    pos = pos - (b->rlen - b->rpos) + b->wlen;
    return PyLong_FromLongLong(pos < 0 ? 0 : (long long)pos);
}

static PyObject *
buffered_seek(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    buffered *b = BUF(self);
    int whence = 0;
    off_t pos;
    if (!_PyArg_CheckPositional("seek", nargs, 1, 2) || _PyIO_OffsetArg(args[0], &pos) < 0) {
        return NULL;
    }
    if (nargs > 1) {
        whence = PyLong_AsInt(args[1]);
        if (whence == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    if (whence < 0 || whence > 2) {
        PyErr_Format(PyExc_ValueError, "whence value %d unsupported", whence);
        return NULL;
    }
    CHECK_USABLE(b, "seek of closed file");
    if (b->wlen > 0 && flush_writes(b) < 0) {
        return NULL;
    }
    if (whence == SEEK_CUR) {
        pos -= b->rlen - b->rpos;
    }
    b->rpos = b->rlen = 0;
    off_t r = raw_seek(b, pos, whence);
    return r < 0 ? NULL : PyLong_FromLongLong((long long)r);
}

static PyObject *
buffered_truncate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    buffered *b = BUF(self);
    if (!_PyArg_CheckPositional("truncate", nargs, 0, 1)) {
        return NULL;
    }
    CHECK_USABLE(b, "truncate of closed file");
    if (!b->writable) {
        return _PyIO_Unsupported("truncate");
    }
    if (b->wlen > 0 && flush_writes(b) < 0) {
        return NULL;
    }
    PyObject *pos = nargs && !Py_IsNone(args[0]) ? Py_NewRef(args[0]) : buffered_tell(self, NULL);
    if (pos == NULL) {
        return NULL;
    }
    if (drop_read_ahead(b) < 0) {
        Py_DECREF(pos);
        return NULL;
    }
    PyObject *r = PyObject_CallMethod(b->raw, "truncate", "O", pos);
    Py_DECREF(pos);
    return r;
}

/* ---- Closing and delegation --------------------------------------------------------- */

static PyObject *
buffered_close(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    buffered *b = BUF(self);
    if (check_ready(b) < 0) {
        return NULL;
    }
    int closed = _PyIO_IsClosed(b->raw);
    if (closed != 0) {
        return closed < 0 ? NULL : Py_NewRef(Py_None);
    }
    if (b->finalizing) {
        PyObject *r = PyObject_CallMethod(b->raw, "_dealloc_warn", "O", self);
        Py_XDECREF(r);
        PyErr_Clear();
    }
    PyObject *r = PyObject_CallMethod(self, "flush", NULL);
    PyObject *exc = r == NULL ? PyErr_GetRaisedException() : NULL;
    Py_XDECREF(r);
    b->wlen = 0;
    b->rpos = b->rlen = 0;
    r = PyObject_CallMethod(b->raw, "close", NULL);
    if (r == NULL) {
        if (exc != NULL) {
            PyObject *later = PyErr_GetRaisedException();
            PyException_SetContext(later, exc);
            PyErr_SetRaisedException(later);
        }
        return NULL;
    }
    Py_DECREF(r);
    if (exc != NULL) {
        PyErr_SetRaisedException(exc);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
buffered_detach(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    buffered *b = BUF(self);
    if (check_ready(b) < 0) {
        return NULL;
    }
    PyObject *r = PyObject_CallMethod(self, "flush", NULL);
    if (r == NULL) {
        return NULL;
    }
    Py_DECREF(r);
    if (drop_read_ahead(b) < 0) {
        PyErr_Clear();
    }
    PyObject *raw = b->raw;
    b->raw = NULL;
    b->ok = 0;
    b->detached = 1;
    return raw;
}

/* Methods forwarded to the raw stream unchanged. */
static PyObject *
forward(PyObject *self, const char *name)
{
    buffered *b = BUF(self);
    if (check_ready(b) < 0) {
        return NULL;
    }
    return PyObject_CallMethod(b->raw, name, NULL);
}

static PyObject *
buffered_seekable(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return forward(self, "seekable");
}

static PyObject *
buffered_readable(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return forward(self, "readable");
}

static PyObject *
buffered_writable(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return forward(self, "writable");
}

static PyObject *
buffered_fileno(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return forward(self, "fileno");
}

static PyObject *
buffered_isatty(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return forward(self, "isatty");
}

static PyObject *
buffered_dealloc_warn(PyObject *self, PyObject *source)
{
    buffered *b = BUF(self);
    if (b->ok && b->raw != NULL) {
        PyObject *r = PyObject_CallMethod(b->raw, "_dealloc_warn", "O", source);
        Py_XDECREF(r);
        PyErr_Clear();
    }
    Py_RETURN_NONE;
}

static PyObject *
buffered_getstate(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyErr_Format(PyExc_TypeError, "cannot pickle '%.100s' instances", Py_TYPE(self)->tp_name);
    return NULL;
}

static PyObject *
raw_attr(PyObject *self, const char *name)
{
    buffered *b = BUF(self);
    if (check_ready(b) < 0) {
        return NULL;
    }
    return PyObject_GetAttrString(b->raw, name);
}

static PyObject *
buffered_closed_get(PyObject *self, void *closure)
{
    return raw_attr(self, "closed");
}

static PyObject *
buffered_name_get(PyObject *self, void *closure)
{
    return raw_attr(self, "name");
}

static PyObject *
buffered_mode_get(PyObject *self, void *closure)
{
    return raw_attr(self, "mode");
}

static PyObject *
buffered_raw_get(PyObject *self, void *closure)
{
    if (check_ready(BUF(self)) < 0) {
        return NULL;
    }
    return Py_NewRef(BUF(self)->raw);
}

static PyObject *
buffered_repr(PyObject *self)
{
    return _PyIO_ReprWithName(self, NULL, NULL);
}

static PyObject *
buffered_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSsize_t(Py_TYPE(self)->tp_basicsize + BUF(self)->size);
}

#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL

#define COMMON_METHODS                                                           \
    {"flush", buffered_flush, METH_NOARGS, "Write out buffered data."},          \
    {"close", buffered_close, METH_NOARGS, "Flush and close the raw stream."},   \
    {"detach", buffered_detach, METH_NOARGS, "Disconnect and return the raw."}, \
    {"seek", FASTCALL(buffered_seek), "Move the stream position."},              \
    {"tell", buffered_tell, METH_NOARGS, "The stream position."},                \
    {"seekable", buffered_seekable, METH_NOARGS, NULL},                          \
    {"fileno", buffered_fileno, METH_NOARGS, NULL},                              \
    {"isatty", buffered_isatty, METH_NOARGS, NULL},                              \
    {"_dealloc_warn", buffered_dealloc_warn, METH_O, NULL},                      \
    {"__getstate__", buffered_getstate, METH_NOARGS, NULL},                      \
    {"__sizeof__", buffered_sizeof, METH_NOARGS, NULL},

#define READ_METHODS                                                                   \
    {"read", FASTCALL(buffered_read), "Read size bytes (all with -1)."},               \
    {"read1", FASTCALL(buffered_read1), "Read with at most one raw read."},            \
    {"readinto", buffered_readinto, METH_O, "Read into a writable buffer."},           \
    {"readinto1", buffered_readinto1, METH_O, "readinto with at most one raw read."}, \
    {"readline", FASTCALL(buffered_readline), "Read one line."},                       \
    {"peek", FASTCALL(buffered_peek), "Buffered bytes, without moving."},              \
    {"readable", buffered_readable, METH_NOARGS, NULL},

#define WRITE_METHODS                                                      \
    {"write", buffered_write, METH_O, "Buffer bytes for writing."},        \
    {"truncate", FASTCALL(buffered_truncate), "Truncate the raw stream."}, \
    {"writable", buffered_writable, METH_NOARGS, NULL},

static PyMethodDef reader_methods[] = {COMMON_METHODS READ_METHODS{NULL, NULL, 0, NULL}};
static PyMethodDef writer_methods[] = {COMMON_METHODS WRITE_METHODS{NULL, NULL, 0, NULL}};
static PyMethodDef random_methods[] = {COMMON_METHODS READ_METHODS WRITE_METHODS{NULL, NULL, 0, NULL}};

static PyGetSetDef buffered_getset[] = {
    {"closed", buffered_closed_get, NULL, NULL, NULL},
    {"name", buffered_name_get, NULL, NULL, NULL},
    {"mode", buffered_mode_get, NULL, NULL, NULL},
    {"raw", buffered_raw_get, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef buffered_members[] = {
    {"_finalizing", Py_T_BOOL, offsetof(buffered, finalizing), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

#define BUFFERED_TYPE(cname, pyname, doc, methods, init)                                \
    PyTypeObject cname = {                                                               \
        PyVarObject_HEAD_INIT(&PyType_Type, 0).tp_name = pyname,                         \
        .tp_basicsize = sizeof(buffered),                                                \
        .tp_dealloc = buffered_dealloc,                                                  \
        .tp_repr = buffered_repr,                                                        \
        .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,       \
        .tp_doc = doc,                                                                   \
        .tp_traverse = buffered_traverse,                                                \
        .tp_clear = buffered_clear,                                                      \
        .tp_iternext = buffered_iternext,                                                \
        .tp_methods = methods,                                                           \
        .tp_members = buffered_members,                                                  \
        .tp_getset = buffered_getset,                                                    \
        .tp_base = &_PyIO_BufferedIOBase_Type,                                           \
        .tp_init = init,                                                                 \
        .tp_new = PyType_GenericNew,                                                     \
        .tp_finalize = _PyIO_Finalize,                                                   \
    };

BUFFERED_TYPE(_PyIO_BufferedReader_Type, "_io.BufferedReader",
              "BufferedReader(raw, buffer_size=DEFAULT_BUFFER_SIZE)\n\nA buffer over a readable raw stream.",
              reader_methods, reader_init)
BUFFERED_TYPE(_PyIO_BufferedWriter_Type, "_io.BufferedWriter",
              "BufferedWriter(raw, buffer_size=DEFAULT_BUFFER_SIZE)\n\nA buffer over a writable raw stream.",
              writer_methods, writer_init)
BUFFERED_TYPE(_PyIO_BufferedRandom_Type, "_io.BufferedRandom",
              "BufferedRandom(raw, buffer_size=DEFAULT_BUFFER_SIZE)\n\nA buffer over a seekable raw stream.",
              random_methods, random_init)

/* ---- BufferedRWPair ----------------------------------------------------------------- */

typedef struct {
    IO_HEAD
    PyObject *reader;
    PyObject *writer;
} rwpair;

#define PAIR(op) ((rwpair *)(op))

static int
rwpair_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *r, *w;
    Py_ssize_t size = IO_DEFAULT_BUFFER_SIZE;
    if (!_PyArg_NoKeywords("BufferedRWPair", kwds) || !PyArg_ParseTuple(args, "OO|n:BufferedRWPair", &r, &w, &size)) {
        return -1;
    }
    PyObject *reader = PyObject_CallFunction((PyObject *)&_PyIO_BufferedReader_Type, "On", r, size);
    if (reader == NULL) {
        return -1;
    }
    PyObject *writer = PyObject_CallFunction((PyObject *)&_PyIO_BufferedWriter_Type, "On", w, size);
    if (writer == NULL) {
        Py_DECREF(reader);
        return -1;
    }
    Py_XSETREF(PAIR(self)->reader, reader);
    Py_XSETREF(PAIR(self)->writer, writer);
    return 0;
}

static void
rwpair_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    _PyIO_ClearHead(self);
    Py_CLEAR(PAIR(self)->reader);
    Py_CLEAR(PAIR(self)->writer);
    Py_TYPE(self)->tp_free(self);
}

static int
rwpair_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(PAIR(self)->reader);
    Py_VISIT(PAIR(self)->writer);
    return _PyIO_TraverseHead(self, visit, arg);
}

static int
rwpair_clear(PyObject *self)
{
    Py_CLEAR(PAIR(self)->reader);
    Py_CLEAR(PAIR(self)->writer);
    Py_CLEAR(IO_OBJ(self)->dict);
    return 0;
}

static PyObject *
pair_side(PyObject *self, int writer)
{
    PyObject *side = writer ? PAIR(self)->writer : PAIR(self)->reader;
    if (side == NULL) {
        PyErr_SetString(PyExc_ValueError, "I/O operation on uninitialized object");
    }
    return side;
}

/* Call name(*args) on one side of the pair. */
static PyObject *
pair_call(PyObject *self, int writer, const char *name, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *side = pair_side(self, writer);
    if (side == NULL) {
        return NULL;
    }
    PyObject *meth = PyObject_GetAttrString(side, name);
    if (meth == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_Vectorcall(meth, args, (size_t)nargs, NULL);
    Py_DECREF(meth);
    return r;
}

#define PAIR_METHOD(fname, side, name)                                               \
    static PyObject *fname(PyObject *self, PyObject *const *args, Py_ssize_t nargs) \
    {                                                                                \
        return pair_call(self, side, name, args, nargs);                             \
    }

PAIR_METHOD(rwpair_read, 0, "read")
PAIR_METHOD(rwpair_read1, 0, "read1")
PAIR_METHOD(rwpair_peek, 0, "peek")
PAIR_METHOD(rwpair_readinto, 0, "readinto")
PAIR_METHOD(rwpair_readinto1, 0, "readinto1")
PAIR_METHOD(rwpair_readable, 0, "readable")
PAIR_METHOD(rwpair_write, 1, "write")
PAIR_METHOD(rwpair_flush, 1, "flush")
PAIR_METHOD(rwpair_writable, 1, "writable")

static PyObject *
rwpair_close(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *r = pair_call(self, 1, "close", NULL, 0);
    PyObject *exc = r == NULL ? PyErr_GetRaisedException() : NULL;
    Py_XDECREF(r);
    r = pair_call(self, 0, "close", NULL, 0);
    if (exc != NULL) {
        if (r == NULL) {
            PyObject *later = PyErr_GetRaisedException();
            PyException_SetContext(later, exc);
            PyErr_SetRaisedException(later);
            return NULL;
        }
        Py_DECREF(r);
        PyErr_SetRaisedException(exc);
        return NULL;
    }
    return r;
}

static PyObject *
rwpair_isatty(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *r = pair_call(self, 1, "isatty", NULL, 0);
    if (r == NULL || r != Py_False) {
        return r;
    }
    Py_DECREF(r);
    return pair_call(self, 0, "isatty", NULL, 0);
}

static PyObject *
rwpair_closed_get(PyObject *self, void *closure)
{
    PyObject *w = pair_side(self, 1);
    return w ? PyObject_GetAttrString(w, "closed") : NULL;
}

static PyMethodDef rwpair_methods[] = {
    {"read", FASTCALL(rwpair_read), NULL},
    {"read1", FASTCALL(rwpair_read1), NULL},
    {"peek", FASTCALL(rwpair_peek), NULL},
    {"readinto", FASTCALL(rwpair_readinto), NULL},
    {"readinto1", FASTCALL(rwpair_readinto1), NULL},
    {"readable", FASTCALL(rwpair_readable), NULL},
    {"write", FASTCALL(rwpair_write), NULL},
    {"flush", FASTCALL(rwpair_flush), NULL},
    {"writable", FASTCALL(rwpair_writable), NULL},
    {"close", rwpair_close, METH_NOARGS, NULL},
    {"isatty", rwpair_isatty, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef rwpair_getset[] = {
    {"closed", rwpair_closed_get, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PyIO_BufferedRWPair_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_io.BufferedRWPair",
    .tp_basicsize = sizeof(rwpair),
    .tp_dealloc = rwpair_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "BufferedRWPair(reader, writer, buffer_size=DEFAULT_BUFFER_SIZE)\n\n"
              "One buffered stream over a reader and a writer.",
    .tp_traverse = rwpair_traverse,
    .tp_clear = rwpair_clear,
    .tp_methods = rwpair_methods,
    .tp_getset = rwpair_getset,
    .tp_base = &_PyIO_BufferedIOBase_Type,
    .tp_init = rwpair_init,
    .tp_new = PyType_GenericNew,
};
