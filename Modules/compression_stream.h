/* Shared plumbing of the compression modules (zlibmodule.c, _bz2module.c,
   _lzmamodule.c).

   Each library has its own stream struct (z_stream, bz_stream,
   lzma_stream) with its own integer widths, but all three work the same
   way: a window of input, a window of output, and a call that advances
   both.  The modules describe one call of their library as a `cs_step`
   over a neutral `cs_window`; everything around it lives here once:

   - cs_output: a bytes object that grows geometrically as the library
     fills it, optionally capped (the max_length of the decompressors).
   - cs_run: call the step until the input is used up (or the stream
     ends, or the cap is reached), collecting the output.
   - cs_pending + cs_decompress: the one-shot "decompressor" protocol of
     bz2.BZ2Decompressor, lzma.LZMADecompressor and zlib._ZlibDecompressor
     (eof, unused_data, needs_input, max_length, input kept between calls).

   Everything is static inline: each module includes this header once. */

#ifndef Py_COMPRESSION_STREAM_H
#define Py_COMPRESSION_STREAM_H

#include "Python.h"
#include <limits.h>
#include <string.h>

/* First allocation for output whose size is unknown.  The buffer then
   doubles, so the copies made by growing it add up to at most its final
   size, whatever that is (a gigabyte stream is not copied over and over). */
#define CS_FIRST_CHUNK ((Py_ssize_t)(32 * 1024))

/* ---- The window a step works on ------------------------------------------- */

typedef struct {
    const unsigned char *in;
    size_t in_left;
    unsigned char *out;
    size_t out_left;
} cs_window;

/* What a step reports. */
enum {
    CS_ERROR = -1,   /* a Python exception is set */
    CS_MORE = 0,     /* the stream goes on */
    CS_END = 1,      /* the end of the stream was reached */
    CS_STALL = 2,    /* the library can make no progress with this window */
};

/* A step that neither reads nor writes is retried (some decoders spend a
   call choosing a format); this many in a row ends the loop instead of
   spinning forever on a library that never says CS_STALL. */
#define CS_MAX_IDLE_STEPS 8

/* One call of the library: advance w->in/out, return a CS_ code.  `how`
   is the module's own flush or action code, passed through. */
typedef int (*cs_step)(void *stream, cs_window *w, int how);

/* Libraries with 32-bit counters get at most this per call; the callers
   loop, so larger buffers simply take several calls. */
static inline unsigned int
cs_clamp_uint(size_t n)
{
    return n > UINT_MAX ? UINT_MAX : (unsigned int)n;
}

/* ---- Growing output -------------------------------------------------------- */

typedef struct {
    PyObject *bytes;     /* NULL until the first reserve */
    Py_ssize_t filled;   /* bytes written so far */
    Py_ssize_t cap;      /* most bytes wanted, or -1 for no limit */
    Py_ssize_t first;    /* size of the first allocation */
} cs_output;

static inline void
cs_output_init(cs_output *o, Py_ssize_t cap, Py_ssize_t first)
{
    o->bytes = NULL;
    o->filled = 0;
    o->cap = cap;
    o->first = first > 0 ? first : CS_FIRST_CHUNK;
}

/* Point w->out at free space: 0 when there is some, 1 when the cap is
   reached (w->out_left is then 0), -1 on MemoryError. */
static inline int
cs_output_reserve(cs_output *o, cs_window *w)
{
    if (o->cap >= 0 && o->filled >= o->cap) {
        w->out_left = 0;
        return 1;
    }
    Py_ssize_t size = o->bytes == NULL ? 0 : PyBytes_GET_SIZE(o->bytes);
    if (o->filled == size) {
        Py_ssize_t grow = size == 0 ? o->first : size;
        Py_ssize_t want = size > PY_SSIZE_T_MAX - grow ? PY_SSIZE_T_MAX : size + grow;
        if (o->cap >= 0 && want > o->cap) {
            want = o->cap;
        }
        if (want == size) {
            PyErr_NoMemory();
            return -1;
        }
        if (o->bytes == NULL) {
            o->bytes = PyBytes_FromStringAndSize(NULL, want);
            if (o->bytes == NULL) {
                return -1;
            }
        }
        else if (_PyBytes_Resize(&o->bytes, want) < 0) {
            return -1;
        }
        size = want;
    }
    w->out = (unsigned char *)PyBytes_AS_STRING(o->bytes) + o->filled;
    w->out_left = (size_t)(size - o->filled);
    return 0;
}

/* Account for what the library wrote since the last reserve. */
static inline void
cs_output_commit(cs_output *o, const cs_window *w)
{
    if (o->bytes != NULL) {
        unsigned char *base = (unsigned char *)PyBytes_AS_STRING(o->bytes);
        o->filled = (Py_ssize_t)(w->out - base);
    }
}

/* Whether the output is at its cap. */
static inline int
cs_output_full(const cs_output *o)
{
    return o->cap >= 0 && o->filled >= o->cap;
}

/* The bytes collected, trimmed to size (steals the buffer). */
static inline PyObject *
cs_output_finish(cs_output *o)
{
    PyObject *result = o->bytes;
    o->bytes = NULL;
    if (result == NULL) {
        return PyBytes_FromStringAndSize(NULL, 0);
    }
    if (PyBytes_GET_SIZE(result) != o->filled && _PyBytes_Resize(&result, o->filled) < 0) {
        return NULL;
    }
    return result;
}

static inline void
cs_output_discard(cs_output *o)
{
    Py_CLEAR(o->bytes);
}

/* ---- Driving a step -------------------------------------------------------- */

/* Call `step` until it has nothing more to give: the stream ended, or the
   output cap was reached, or (unless `to_end`) the input is used up and
   the library left output space unused, which means it holds nothing
   back.  With `to_end` only the end of the stream stops it (used for
   the final flush).  *ended tells whether the stream ended.  Returns 0,
   or -1 with an exception set. */
static inline int
cs_run(void *stream, cs_step step, int how, int to_end, cs_window *w, cs_output *o, int *ended)
{
    *ended = 0;
    int idle = 0;
    for (;;) {
        int room = cs_output_reserve(o, w);
        if (room < 0) {
            return -1;
        }
        if (room > 0) {
            return 0;
        }
        size_t in_before = w->in_left, out_before = w->out_left;
        int rc = step(stream, w, how);
        cs_output_commit(o, w);
        if (rc == CS_ERROR) {
            return -1;
        }
        if (rc == CS_END) {
            *ended = 1;
            return 0;
        }
        if (rc == CS_STALL) {
            /* It wants input that is not there (say, a truncated stream
               being flushed): what came out so far is the answer. */
            return 0;
        }
        if (!to_end && w->in_left == 0 && w->out_left > 0) {
            return 0;
        }
        int idle_step = w->in_left == in_before && w->out_left == out_before;
        idle = idle_step ? idle + 1 : 0;
        if (idle >= CS_MAX_IDLE_STEPS) {
            return 0;
        }
    }
}

/* ---- The decompressor protocol -------------------------------------------- */

/* Input a decompressor received but has not consumed yet, kept between
   calls when max_length stopped it early; and the stream's end state. */
typedef struct {
    unsigned char *kept;    /* PyMem buffer, or NULL */
    size_t kept_len;
    size_t kept_size;
    PyObject *unused_data;  /* bytes after the end of the stream */
    char eof;
    char needs_input;
    /* Whether a decoder that used all its input while filling the output
       to max_length may still hold output back (needs_input stays False
       then).  True for _lzma; _bz2 and zlib report needs_input as soon as
       the input is used up, as CPython does. */
    char may_hold_output;
} cs_pending;

static inline int
cs_pending_init(cs_pending *p, int may_hold_output)
{
    p->may_hold_output = (char)may_hold_output;
    p->kept = NULL;
    p->kept_len = p->kept_size = 0;
    p->eof = 0;
    p->needs_input = 1;
    p->unused_data = PyBytes_FromStringAndSize(NULL, 0);
    return p->unused_data == NULL ? -1 : 0;
}

static inline void
cs_pending_clear(cs_pending *p)
{
    PyMem_Free(p->kept);
    p->kept = NULL;
    p->kept_len = p->kept_size = 0;
    Py_CLEAR(p->unused_data);
}

/* Append `n` bytes to the kept input. */
static inline int
cs_pending_append(cs_pending *p, const unsigned char *data, size_t n)
{
    if (n == 0) {
        return 0;
    }
    if (p->kept_len + n > p->kept_size) {
        size_t size = p->kept_size ? p->kept_size : 1024;
        while (size < p->kept_len + n) {
            if (size > PY_SSIZE_T_MAX / 2) {
                size = p->kept_len + n;
                break;
            }
            size *= 2;
        }
        unsigned char *grown = PyMem_Realloc(p->kept, size);
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        p->kept = grown;
        p->kept_size = size;
    }
    memcpy(p->kept + p->kept_len, data, n);
    p->kept_len += n;
    return 0;
}

/* Keep what is left in the window once the call returns.  When the window
   was p->kept itself (`from_kept`) the rest moves to its front. */
static inline int
cs_pending_keep_rest(cs_pending *p, const cs_window *w, int from_kept)
{
    if (w->in_left == 0) {
        p->kept_len = 0;
        return 0;
    }
    if (from_kept) {
        memmove(p->kept, w->in, w->in_left);
        p->kept_len = w->in_left;
        return 0;
    }
    p->kept_len = 0;
    return cs_pending_append(p, w->in, w->in_left);
}

/* decompress(data, max_length) of the one-shot decompressors: the kept
   input and `data` are fed to the step (with `how`) until the stream
   ends, the input runs out, or max_length bytes (when >= 0) came out.
   `eof_message` is the EOFError raised when called after the end. */
static inline PyObject *
cs_decompress(cs_pending *p, void *stream, cs_step step, int how, const Py_buffer *data,
              Py_ssize_t max_length, const char *eof_message)
{
    if (p->eof) {
        PyErr_SetString(PyExc_EOFError, eof_message);
        return NULL;
    }
    cs_window w = {0};
    int from_kept = p->kept_len > 0;
    if (from_kept) {
        if (cs_pending_append(p, data->buf, (size_t)data->len) < 0) {
            return NULL;
        }
        w.in = p->kept;
        w.in_left = p->kept_len;
    }
    else {
        w.in = data->buf;
        w.in_left = (size_t)data->len;
    }
    cs_output out;
    cs_output_init(&out, max_length < 0 ? -1 : max_length, 0);
    int ended = 0;
    if (cs_run(stream, step, how, 0, &w, &out, &ended) < 0) {
        cs_output_discard(&out);
        return NULL;
    }
    if (ended) {
        p->eof = 1;
        p->needs_input = 0;
        PyObject *rest = PyBytes_FromStringAndSize((const char *)w.in, (Py_ssize_t)w.in_left);
        if (rest == NULL) {
            cs_output_discard(&out);
            return NULL;
        }
        Py_SETREF(p->unused_data, rest);
        p->kept_len = 0;
    }
    else {
        /* Input left over, or every byte used while the output is at its
           cap: the library may have more to give without new input. */
        p->needs_input = w.in_left == 0 && !(p->may_hold_output && cs_output_full(&out));
        if (cs_pending_keep_rest(p, &w, from_kept) < 0) {
            cs_output_discard(&out);
            return NULL;
        }
    }
    return cs_output_finish(&out);
}

/* A Py_ssize_t argument (anything with __index__), overflow reported as
   for the other size arguments of the interpreter. */
static inline int
cs_ssize_arg(PyObject *obj, Py_ssize_t *out)
{
    PyObject *index = PyNumber_Index(obj);
    if (index == NULL) {
        return -1;
    }
    *out = PyLong_AsSsize_t(index);
    Py_DECREF(index);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* The max_length argument: an int, -1 (or any negative) for no limit. */
static inline int
cs_max_length_arg(PyObject *obj, Py_ssize_t *out)
{
    if (obj == NULL) {
        *out = -1;
        return 0;
    }
    Py_ssize_t n;
    if (cs_ssize_arg(obj, &n) < 0) {
        return -1;
    }
    *out = n < 0 ? -1 : n;
    return 0;
}

#endif /* !Py_COMPRESSION_STREAM_H */
