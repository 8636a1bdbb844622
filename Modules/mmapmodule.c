/* The `mmap` module: mmap.mmap, a mutable byte buffer over mmap(2) of a
   file descriptor (or of anonymous memory for fileno -1), with a file-like
   cursor (read/write/seek), bytes-like indexing and the buffer protocol.

   State of a map: `base` is NULL exactly when the map is closed.  The
   descriptor is a dup() of the caller's (kept for size() and resize(),
   which must follow the file), or -1 for anonymous maps and for
   trackfd=False.  While buffers are exported (memoryview, ...) the
   mapping may neither move nor go away, so close() and resize() refuse.

   The access mode decides what may change: ACCESS_READ maps are
   read-only, ACCESS_COPY maps are private (writes never reach the file)
   and cannot be resized; ACCESS_WRITE and ACCESS_DEFAULT write through. */

#include "Python.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum map_access {
    ACCESS_DEFAULT = 0,
    ACCESS_READ = 1,
    ACCESS_WRITE = 2,
    ACCESS_COPY = 3,
};

typedef struct {
    PyObject_HEAD
    char *base;          /* the mapping, NULL once closed */
    Py_ssize_t length;   /* bytes mapped */
    Py_ssize_t cursor;   /* file-like position, 0 <= cursor (may pass length after a shrink) */
    long long offset;    /* where in the file the mapping starts */
    int fd;              /* our own descriptor of the file, or -1 */
    int trackfd;
    enum map_access access;
    Py_ssize_t exports;  /* buffers handed out and not released */
    size_t shared_anon;  /* for MAP_SHARED|MAP_ANONYMOUS: bytes of its shared memory object */
    int prot;            /* the protection it was mapped with */
    PyObject *weakrefs;
} MapObject;

static PyTypeObject MapType;

/* ---- guards ---------------------------------------------------------------------------- */

static int
check_open(MapObject *self)
{
    if (self->base == NULL) {
        PyErr_SetString(PyExc_ValueError, "mmap closed or invalid");
        return -1;
    }
    return 0;
}

static int
check_writable(MapObject *self)
{
    if (self->access == ACCESS_READ) {
        PyErr_SetString(PyExc_TypeError, "mmap can't modify a readonly memory map.");
        return -1;
    }
    return 0;
}

/* Bytes left between the cursor and the end (0 when past it). */
static Py_ssize_t
remaining(MapObject *self)
{
    return self->cursor < self->length ? self->length - self->cursor : 0;
}

static void
release_mapping(MapObject *self)
{
    if (self->base != NULL) {
        munmap(self->base, (size_t)self->length);
        self->base = NULL;
    }
    if (self->fd >= 0) {
        close(self->fd);
        self->fd = -1;
    }
}

/* ---- construction ---------------------------------------------------------------------- */

/* The flags and protection an access mode stands for; ACCESS_DEFAULT
   keeps the caller's and only names the mode they amount to. */
static int
resolve_access(int access, int *flags, int *prot, enum map_access *mode)
{
    switch (access) {
    case ACCESS_READ:
        *flags = MAP_SHARED;
        *prot = PROT_READ;
        break;
    case ACCESS_WRITE:
        *flags = MAP_SHARED;
        *prot = PROT_READ | PROT_WRITE;
        break;
    case ACCESS_COPY:
        *flags = MAP_PRIVATE;
        *prot = PROT_READ | PROT_WRITE;
        break;
    case ACCESS_DEFAULT:
        if (!(*prot & PROT_WRITE)) {
            access = ACCESS_READ;
        }
        else if (!(*prot & PROT_READ)) {
            access = ACCESS_WRITE;
        }
        break;
    default:
        PyErr_SetString(PyExc_ValueError, "mmap invalid access parameter.");
        return -1;
    }
    *mode = (enum map_access)access;
    return 0;
}

/* For a regular file, check (or, when 0, choose) the length against the
   file's size past `offset`. */
static int
fit_to_file(int fd, long long offset, Py_ssize_t *length)
{
    struct stat st;
    if (fstat(fd, &st) < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        return 0;
    }
    long long file_size = (long long)st.st_size;
    if (*length == 0) {
        if (file_size == 0) {
            PyErr_SetString(PyExc_ValueError, "cannot mmap an empty file");
            return -1;
        }
        if (offset >= file_size) {
            PyErr_SetString(PyExc_ValueError, "mmap offset is greater than file size");
            return -1;
        }
        if (file_size - offset > PY_SSIZE_T_MAX) {
            PyErr_SetString(PyExc_ValueError, "mmap length is too large");
            return -1;
        }
        *length = (Py_ssize_t)(file_size - offset);
    }
    else if (offset > file_size || file_size - offset < (long long)*length) {
        PyErr_SetString(PyExc_ValueError, "mmap length is greater than file size");
        return -1;
    }
    return 0;
}

static size_t
round_to_pages(size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (size + page - 1) / page * page;
}

static PyObject *
map_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"fileno", "length", "flags", "prot", "access", "offset", "trackfd", NULL};
    int fileno, flags = MAP_SHARED, prot = PROT_READ | PROT_WRITE, access = ACCESS_DEFAULT;
    int trackfd = 1;
    Py_ssize_t length;
    long offset = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "in|iiil$p", keywords, &fileno, &length, &flags,
                                     &prot, &access, &offset, &trackfd)) {
        return NULL;
    }
    if (length < 0) {
        PyErr_SetString(PyExc_OverflowError, "memory mapped length must be positive");
        return NULL;
    }
    if (offset < 0) {
        PyErr_SetString(PyExc_OverflowError, "memory mapped offset must be positive");
        return NULL;
    }
    if (access != ACCESS_DEFAULT && (flags != MAP_SHARED || prot != (PROT_READ | PROT_WRITE))) {
        PyErr_SetString(PyExc_ValueError, "mmap can't specify both access and flags, prot.");
        return NULL;
    }
    enum map_access mode;
    if (resolve_access(access, &flags, &prot, &mode) < 0) {
        return NULL;
    }
    if (fileno != -1 && fit_to_file(fileno, offset, &length) < 0) {
        return NULL;
    }
    MapObject *self = (MapObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->fd = -1;
    self->access = mode;
    self->offset = offset;
    self->trackfd = trackfd;
    if (fileno == -1) {
        flags |= MAP_ANONYMOUS;
    }
    else if (trackfd && (self->fd = dup(fileno)) < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        Py_DECREF(self);
        return NULL;
    }
    void *base = mmap(NULL, (size_t)length, prot, flags, fileno, (off_t)offset);
    if (base == MAP_FAILED) {
        PyErr_SetFromErrno(PyExc_OSError);
        Py_DECREF(self);
        return NULL;
    }
    self->base = base;
    self->length = length;
    if (fileno == -1 && (flags & MAP_SHARED)) {
        self->shared_anon = round_to_pages((size_t)length);
    }
    self->prot = prot;
    return (PyObject *)self;
}

static void
map_dealloc(PyObject *op)
{
    MapObject *self = (MapObject *)op;
    if (self->weakrefs != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    release_mapping(self);
    Py_TYPE(op)->tp_free(op);
}

static PyObject *
map_repr(PyObject *op)
{
    MapObject *self = (MapObject *)op;
    const char *type_name = Py_TYPE(op)->tp_name;
    if (self->base == NULL) {
        return PyUnicode_FromFormat("<%s closed=True>", type_name);
    }
    static const char *const access_names[] = {
        "ACCESS_DEFAULT", "ACCESS_READ", "ACCESS_WRITE", "ACCESS_COPY",
    };
    return PyUnicode_FromFormat("<%s closed=False, access=%s, length=%zd, pos=%zd, offset=%lld>",
                                type_name, access_names[self->access], self->length, self->cursor,
                                self->offset);
}

/* ---- file-like methods ----------------------------------------------------------------- */

static PyObject *
map_close(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    MapObject *self = (MapObject *)op;
    if (self->exports > 0) {
        PyErr_SetString(PyExc_BufferError, "cannot close exported pointers exist");
        return NULL;
    }
    release_mapping(self);
    Py_RETURN_NONE;
}

static PyObject *
map_enter(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    if (check_open((MapObject *)op) < 0) {
        return NULL;
    }
    return Py_NewRef(op);
}

static PyObject *
map_exit(PyObject *op, PyObject *Py_UNUSED(args))
{
    return map_close(op, NULL);
}

/* Hand out `count` bytes at the cursor and move past them. */
static PyObject *
take_bytes(MapObject *self, Py_ssize_t count)
{
    PyObject *res = PyBytes_FromStringAndSize(self->base + self->cursor, count);
    if (res != NULL) {
        self->cursor += count;
    }
    return res;
}

static PyObject *
map_read(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    MapObject *self = (MapObject *)op;
    Py_ssize_t wanted = -1;
    if (!_PyArg_CheckPositional("read", nargs, 0, 1) ||
        (nargs == 1 && !_Py_convert_optional_to_ssize_t(args[0], &wanted)) || check_open(self) < 0) {
        return NULL;
    }
    Py_ssize_t left = remaining(self);
    return take_bytes(self, (wanted < 0 || wanted > left) ? left : wanted);
}

static PyObject *
map_read_byte(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    MapObject *self = (MapObject *)op;
    if (check_open(self) < 0) {
        return NULL;
    }
    if (remaining(self) == 0) {
        PyErr_SetString(PyExc_ValueError, "read byte out of range");
        return NULL;
    }
    return PyLong_FromLong((unsigned char)self->base[self->cursor++]);
}

static PyObject *
map_readline(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    MapObject *self = (MapObject *)op;
    if (check_open(self) < 0) {
        return NULL;
    }
    Py_ssize_t left = remaining(self);
    const char *start = self->base + self->cursor;
    const char *newline = left > 0 ? memchr(start, '\n', (size_t)left) : NULL;
    return take_bytes(self, newline != NULL ? newline - start + 1 : left);
}

static PyObject *
map_write(PyObject *op, PyObject *arg)
{
    MapObject *self = (MapObject *)op;
    if (check_open(self) < 0) {
        return NULL;
    }
    Py_buffer data;
    if (PyObject_GetBuffer(arg, &data, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *res = NULL;
    if (check_writable(self) == 0) {
        if (data.len > remaining(self)) {
            PyErr_SetString(PyExc_ValueError, "data out of range");
        }
        else {
            memcpy(self->base + self->cursor, data.buf, (size_t)data.len);
            self->cursor += data.len;
            res = PyLong_FromSsize_t(data.len);
        }
    }
    PyBuffer_Release(&data);
    return res;
}

static PyObject *
map_write_byte(PyObject *op, PyObject *arg)
{
    MapObject *self = (MapObject *)op;
    unsigned char byte;
    if (check_open(self) < 0 || !PyArg_Parse(arg, "b", &byte) || check_writable(self) < 0) {
        return NULL;
    }
    if (remaining(self) == 0) {
        PyErr_SetString(PyExc_ValueError, "write byte out of range");
        return NULL;
    }
    self->base[self->cursor++] = (char)byte;
    Py_RETURN_NONE;
}

static PyObject *
map_seek(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    MapObject *self = (MapObject *)op;
    if (!_PyArg_CheckPositional("seek", nargs, 1, 2)) {
        return NULL;
    }
    Py_ssize_t distance = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
    int whence = nargs == 2 ? PyLong_AsInt(args[1]) : 0;
    if (PyErr_Occurred() || check_open(self) < 0) {
        return NULL;
    }
    Py_ssize_t origin;
    switch (whence) {
    case SEEK_SET: origin = 0; break;
    case SEEK_CUR: origin = self->cursor; break;
    case SEEK_END: origin = self->length; break;
    default:
        PyErr_SetString(PyExc_ValueError, "unknown seek type");
        return NULL;
    }
    /* origin + distance within [0, length], without overflowing. */
    if (distance < -origin || distance > self->length - origin) {
        PyErr_SetString(PyExc_ValueError, "seek out of range");
        return NULL;
    }
    self->cursor = origin + distance;
    return PyLong_FromSsize_t(self->cursor);
}

static PyObject *
map_tell(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    MapObject *self = (MapObject *)op;
    if (check_open(self) < 0) {
        return NULL;
    }
    return PyLong_FromSsize_t(self->cursor);
}

static PyObject *
map_seekable(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_TRUE;
}

/* The size of the underlying file (of the descriptor the map keeps), as
   CPython reports it: anonymous maps and trackfd=False have none, and
   fstat(-1) answers EBADF. */
static PyObject *
map_size(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    MapObject *self = (MapObject *)op;
    if (check_open(self) < 0) {
        return NULL;
    }
    struct stat st;
    if (fstat(self->fd, &st) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromLongLong((long long)st.st_size);
}

/* ---- whole-map operations -------------------------------------------------------------- */

static int
check_resizable(MapObject *self, Py_ssize_t new_length)
{
    if (self->access == ACCESS_READ || self->access == ACCESS_COPY) {
        PyErr_SetString(PyExc_TypeError, "mmap can't resize a readonly or copy-on-write memory map.");
        return -1;
    }
    if (self->exports > 0) {
        PyErr_SetString(PyExc_BufferError, "mmap can't resize with extant buffers exported.");
        return -1;
    }
    if (!self->trackfd) {
        PyErr_SetString(PyExc_ValueError, "mmap can't resize with trackfd=False.");
        return -1;
    }
    if (new_length < 0 || (long long)new_length > PY_SSIZE_T_MAX - self->offset) {
        PyErr_SetString(PyExc_ValueError, "new size out of range");
        return -1;
    }
    return 0;
}

/* mremap() cannot grow the memory object behind a shared anonymous map:
   pages past its end would fault with SIGBUS.  So such a map grows into
   a fresh mapping holding a copy (processes forked earlier keep sharing
   the old one). */
static void *
regrow_shared_anon(MapObject *self, Py_ssize_t new_length)
{
    void *fresh = mmap(NULL, (size_t)new_length, self->prot, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (fresh == MAP_FAILED) {
        return MAP_FAILED;
    }
    memcpy(fresh, self->base, (size_t)self->length);
    munmap(self->base, (size_t)self->length);
    self->shared_anon = round_to_pages((size_t)new_length);
    return fresh;
}

static PyObject *
map_resize(PyObject *op, PyObject *arg)
{
    MapObject *self = (MapObject *)op;
    Py_ssize_t new_length = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if ((new_length == -1 && PyErr_Occurred()) || check_open(self) < 0 ||
        check_resizable(self, new_length) < 0) {
        return NULL;
    }
    /* The file grows or shrinks first, so that the new pages exist. */
    if (self->fd >= 0 && ftruncate(self->fd, (off_t)(self->offset + new_length)) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    void *moved;
    if (self->shared_anon != 0 && (size_t)new_length > self->shared_anon) {
        moved = regrow_shared_anon(self, new_length);
    }
    else {
        moved = mremap(self->base, (size_t)self->length, (size_t)new_length, MREMAP_MAYMOVE);
    }
    if (moved == MAP_FAILED) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    self->base = moved;
    self->length = new_length;
    Py_RETURN_NONE;
}

static PyObject *
map_move(PyObject *op, PyObject *args)
{
    MapObject *self = (MapObject *)op;
    Py_ssize_t dest, src, count;
    if (!PyArg_ParseTuple(args, "nnn:move", &dest, &src, &count) || check_open(self) < 0 ||
        check_writable(self) < 0) {
        return NULL;
    }
    if (dest < 0 || src < 0 || count < 0 || src > self->length - count ||
        dest > self->length - count) {
        PyErr_SetString(PyExc_ValueError, "source, destination, or count out of range");
        return NULL;
    }
    memmove(self->base + dest, self->base + src, (size_t)count);
    Py_RETURN_NONE;
}

static PyObject *
map_flush(PyObject *op, PyObject *args)
{
    MapObject *self = (MapObject *)op;
    Py_ssize_t start = 0, count = self->length;
    if (!PyArg_ParseTuple(args, "|nn:flush", &start, &count) || check_open(self) < 0) {
        return NULL;
    }
    if (start < 0 || count < 0 || self->length - start < count) {
        PyErr_SetString(PyExc_ValueError, "flush values out of range");
        return NULL;
    }
    /* Nothing of a read-only or private map can reach the file. */
    if (self->access == ACCESS_READ || self->access == ACCESS_COPY) {
        Py_RETURN_NONE;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = msync(self->base + start, (size_t)count, MS_SYNC);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

static PyObject *
map_madvise(PyObject *op, PyObject *args)
{
    MapObject *self = (MapObject *)op;
    int advice;
    Py_ssize_t start = 0, count = PY_SSIZE_T_MAX;
    if (!PyArg_ParseTuple(args, "i|nn:madvise", &advice, &start, &count) || check_open(self) < 0) {
        return NULL;
    }
    if (start < 0 || start >= self->length) {
        PyErr_SetString(PyExc_ValueError, "madvise start out of bounds");
        return NULL;
    }
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "madvise length invalid");
        return NULL;
    }
    if (count > self->length - start) {
        count = self->length - start;
    }
    if (madvise(self->base + start, (size_t)count, advice) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

/* ---- searching ------------------------------------------------------------------------- */

/* A search bound as find() reads it: negative counts from the end, and
   the result is clamped to the map. */
static Py_ssize_t
clamp_bound(Py_ssize_t bound, Py_ssize_t length)
{
    if (bound < 0) {
        bound += length;
    }
    return bound < 0 ? 0 : (bound > length ? length : bound);
}

static Py_ssize_t
first_match(const char *hay, Py_ssize_t hay_len, const char *needle, Py_ssize_t needle_len)
{
    for (Py_ssize_t at = 0; at + needle_len <= hay_len; at++) {
        const char *hit = memchr(hay + at, needle[0], (size_t)(hay_len - needle_len - at + 1));
        if (hit == NULL) {
            return -1;
        }
        at = hit - hay;
        if (memcmp(hit, needle, (size_t)needle_len) == 0) {
            return at;
        }
    }
    return -1;
}

static Py_ssize_t
last_match(const char *hay, Py_ssize_t hay_len, const char *needle, Py_ssize_t needle_len)
{
    for (Py_ssize_t at = hay_len - needle_len; at >= 0; at--) {
        if (hay[at] == needle[0] && memcmp(hay + at, needle, (size_t)needle_len) == 0) {
            return at;
        }
    }
    return -1;
}

/* find()/rfind() arguments: (sub[, start[, end]]), start defaulting to
   the position and end to the length. */
static int
search_args(MapObject *self, const char *name, PyObject *const *args, Py_ssize_t nargs,
            Py_buffer *needle, Py_ssize_t *start, Py_ssize_t *end)
{
    if (!_PyArg_CheckPositional(name, nargs, 1, 3) ||
        PyObject_GetBuffer(args[0], needle, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    *start = self->cursor;
    *end = self->length;
    Py_ssize_t *bounds[2] = {start, end};
    for (Py_ssize_t i = 1; i < nargs; i++) {
        *bounds[i - 1] = PyNumber_AsSsize_t(args[i], PyExc_OverflowError);
        if (*bounds[i - 1] == -1 && PyErr_Occurred()) {
            PyBuffer_Release(needle);
            return -1;
        }
    }
    if (check_open(self) < 0) {
        PyBuffer_Release(needle);
        return -1;
    }
    return 0;
}

static PyObject *
search(MapObject *self, PyObject *const *args, Py_ssize_t nargs, int from_end)
{
    Py_buffer needle;
    Py_ssize_t start, end;
    if (search_args(self, from_end ? "rfind" : "find", args, nargs, &needle, &start, &end) < 0) {
        return NULL;
    }
    start = clamp_bound(start, self->length);
    end = clamp_bound(end, self->length);
    Py_ssize_t found = -1;
    if (needle.len == 0) {
        found = start <= end ? (from_end ? end : start) : -1;
    }
    else if (end - start >= needle.len) {
        const char *hay = self->base + start;
        found = from_end ? last_match(hay, end - start, needle.buf, needle.len)
                         : first_match(hay, end - start, needle.buf, needle.len);
        if (found >= 0) {
            found += start;
        }
    }
    PyBuffer_Release(&needle);
    return PyLong_FromSsize_t(found);
}

static PyObject *
map_find(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    return search((MapObject *)op, args, nargs, 0);
}

static PyObject *
map_rfind(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    return search((MapObject *)op, args, nargs, 1);
}

/* ---- indexing -------------------------------------------------------------------------- */

/* An index into the map, negative counting from the end. */
static int
resolve_index(MapObject *self, PyObject *key, Py_ssize_t *index)
{
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (i < 0) {
        i += self->length;
    }
    if (i < 0 || i >= self->length) {
        PyErr_SetString(PyExc_IndexError, "mmap index out of range");
        return -1;
    }
    *index = i;
    return 0;
}

static Py_ssize_t
map_length(PyObject *op)
{
    MapObject *self = (MapObject *)op;
    return check_open(self) < 0 ? -1 : self->length;
}

static PyObject *
slice_bytes(MapObject *self, PyObject *slice)
{
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(slice, &start, &stop, &step) < 0) {
        return NULL;
    }
    Py_ssize_t count = PySlice_AdjustIndices(self->length, &start, &stop, step);
    if (step == 1) {
        return PyBytes_FromStringAndSize(self->base + start, count);
    }
    PyObject *res = PyBytes_FromStringAndSize(NULL, count);
    if (res == NULL) {
        return NULL;
    }
    char *out = PyBytes_AS_STRING(res);
    for (Py_ssize_t i = 0; i < count; i++) {
        out[i] = self->base[start + i * step];
    }
    return res;
}

static PyObject *
map_subscript(PyObject *op, PyObject *key)
{
    MapObject *self = (MapObject *)op;
    if (check_open(self) < 0) {
        return NULL;
    }
    if (PySlice_Check(key)) {
        return slice_bytes(self, key);
    }
    if (!PyIndex_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "mmap indices must be integers");
        return NULL;
    }
    Py_ssize_t i;
    if (resolve_index(self, key, &i) < 0) {
        return NULL;
    }
    return PyLong_FromLong((unsigned char)self->base[i]);
}

/* Iteration goes through the sequence protocol, which yields one-byte
   bytes objects (unlike m[i], which is an int). */
static PyObject *
map_item(PyObject *op, Py_ssize_t i)
{
    MapObject *self = (MapObject *)op;
    if (check_open(self) < 0) {
        return NULL;
    }
    if (i < 0 || i >= self->length) {
        PyErr_SetString(PyExc_IndexError, "mmap index out of range");
        return NULL;
    }
    return PyBytes_FromStringAndSize(self->base + i, 1);
}

static int
store_byte(MapObject *self, PyObject *key, PyObject *value)
{
    Py_ssize_t i;
    if (resolve_index(self, key, &i) < 0) {
        return -1;
    }
    if (!PyIndex_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "mmap item value must be an int");
        return -1;
    }
    Py_ssize_t byte = PyNumber_AsSsize_t(value, PyExc_OverflowError);
    if (byte == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
            return -1;
        }
        PyErr_Clear();
    }
    if (byte < 0 || byte > 255) {
        PyErr_SetString(PyExc_ValueError, "mmap item value must be in range(0, 256)");
        return -1;
    }
    self->base[i] = (char)byte;
    return 0;
}

static int
store_slice(MapObject *self, PyObject *slice, PyObject *value)
{
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(slice, &start, &stop, &step) < 0) {
        return -1;
    }
    Py_ssize_t count = PySlice_AdjustIndices(self->length, &start, &stop, step);
    Py_buffer data;
    if (PyObject_GetBuffer(value, &data, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    int rc = -1;
    if (data.len != count) {
        PyErr_SetString(PyExc_IndexError, "mmap slice assignment is wrong size");
    }
    else {
        const char *src = data.buf;
        for (Py_ssize_t i = 0; i < count; i++) {
            self->base[start + i * step] = src[i];
        }
        rc = 0;
    }
    PyBuffer_Release(&data);
    return rc;
}

static int
map_ass_subscript(PyObject *op, PyObject *key, PyObject *value)
{
    MapObject *self = (MapObject *)op;
    if (check_open(self) < 0 || check_writable(self) < 0) {
        return -1;
    }
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "mmap doesn't support item deletion");
        return -1;
    }
    if (PySlice_Check(key)) {
        return store_slice(self, key, value);
    }
    if (!PyIndex_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "mmap indices must be integer");
        return -1;
    }
    return store_byte(self, key, value);
}

/* ---- buffer protocol ------------------------------------------------------------------- */

static int
map_getbuffer(PyObject *op, Py_buffer *view, int flags)
{
    MapObject *self = (MapObject *)op;
    if (check_open(self) < 0 ||
        PyBuffer_FillInfo(view, op, self->base, self->length, self->access == ACCESS_READ, flags) < 0) {
        return -1;
    }
    self->exports++;
    return 0;
}

static void
map_releasebuffer(PyObject *op, Py_buffer *Py_UNUSED(view))
{
    ((MapObject *)op)->exports--;
}

static PyObject *
map_get_closed(PyObject *op, void *Py_UNUSED(closure))
{
    return PyBool_FromLong(((MapObject *)op)->base == NULL);
}

/* ---- the type -------------------------------------------------------------------------- */

static PyMethodDef map_methods[] = {
    {"close", map_close, METH_NOARGS, "close()\n\nUnmap the memory and close the file descriptor."},
    {"find", _PyCFunction_CAST(map_find), METH_FASTCALL,
     "find(sub[, start[, end]]) -> int\n\n"
     "Lowest index of sub within [start, end) (start defaults to the position), or -1."},
    {"rfind", _PyCFunction_CAST(map_rfind), METH_FASTCALL,
     "rfind(sub[, start[, end]]) -> int\n\nLike find(), but the highest index."},
    {"flush", map_flush, METH_VARARGS,
     "flush([offset[, size]])\n\nWrite changes in the given range back to the file."},
    {"madvise", map_madvise, METH_VARARGS,
     "madvise(option[, start[, length]])\n\nTell the kernel how a range will be used (MADV_*)."},
    {"move", map_move, METH_VARARGS, "move(dest, src, count)\n\nCopy count bytes from src to dest."},
    {"read", _PyCFunction_CAST(map_read), METH_FASTCALL,
     "read([n]) -> bytes\n\nUp to n bytes from the position (all that is left without n)."},
    {"read_byte", map_read_byte, METH_NOARGS, "read_byte() -> int\n\nThe byte at the position."},
    {"readline", map_readline, METH_NOARGS,
     "readline() -> bytes\n\nThe bytes up to and including the next newline."},
    {"resize", map_resize, METH_O,
     "resize(newsize)\n\nChange the size of the map (and of its file)."},
    {"seek", _PyCFunction_CAST(map_seek), METH_FASTCALL,
     "seek(pos[, whence]) -> int\n\nMove the position (whence: SEEK_SET, SEEK_CUR, SEEK_END)."},
    {"seekable", map_seekable, METH_NOARGS, "seekable() -> True"},
    {"size", map_size, METH_NOARGS, "size() -> int\n\nThe size of the mapped file."},
    {"tell", map_tell, METH_NOARGS, "tell() -> int\n\nThe current position."},
    {"write", map_write, METH_O,
     "write(bytes) -> int\n\nStore bytes at the position and move past them."},
    {"write_byte", map_write_byte, METH_O,
     "write_byte(byte)\n\nStore one byte (an int) at the position."},
    {"__enter__", map_enter, METH_NOARGS, NULL},
    {"__exit__", map_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef map_getset[] = {
    {"closed", map_get_closed, NULL, "True once the map is closed.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods map_as_sequence = {
    .sq_length = map_length,
    .sq_item = map_item,
};

static PyMappingMethods map_as_mapping = {
    .mp_length = map_length,
    .mp_subscript = map_subscript,
    .mp_ass_subscript = map_ass_subscript,
};

static PyBufferProcs map_as_buffer = {
    .bf_getbuffer = map_getbuffer,
    .bf_releasebuffer = map_releasebuffer,
};

static PyTypeObject MapType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "mmap.mmap",
    .tp_basicsize = sizeof(MapObject),
    .tp_dealloc = map_dealloc,
    .tp_repr = map_repr,
    .tp_as_sequence = &map_as_sequence,
    .tp_as_mapping = &map_as_mapping,
    .tp_as_buffer = &map_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "mmap(fileno, length[, flags[, prot[, access[, offset]]]], *, trackfd=True)\n\n"
              "Map length bytes of the file open as fileno, from offset on (length 0:\n"
              "to the end of the file); fileno -1 maps anonymous memory.",
    .tp_weaklistoffset = offsetof(MapObject, weakrefs),
    .tp_methods = map_methods,
    .tp_getset = map_getset,
    .tp_new = map_new,
};

/* ---- the module ------------------------------------------------------------------------ */

#define C(name) {#name, (long)(name)}
static const struct {
    const char *name;
    long value;
} mmap_constants[] = {
    C(MAP_SHARED), C(MAP_PRIVATE), C(MAP_ANONYMOUS), {"MAP_ANON", MAP_ANONYMOUS},
    C(MAP_DENYWRITE), C(MAP_EXECUTABLE), C(MAP_NORESERVE), C(MAP_POPULATE), C(MAP_STACK),
    C(MAP_32BIT), C(PROT_EXEC), C(PROT_READ), C(PROT_WRITE), C(MADV_NORMAL), C(MADV_RANDOM),
    C(MADV_SEQUENTIAL), C(MADV_WILLNEED), C(MADV_DONTNEED), C(MADV_REMOVE), C(MADV_DONTFORK),
    C(MADV_DOFORK), C(MADV_HWPOISON), C(MADV_MERGEABLE), C(MADV_UNMERGEABLE), C(MADV_HUGEPAGE),
    C(MADV_NOHUGEPAGE), C(MADV_DONTDUMP), C(MADV_DODUMP), C(MADV_FREE), C(ACCESS_DEFAULT),
    C(ACCESS_READ), C(ACCESS_WRITE), C(ACCESS_COPY),
};
#undef C

static int
mmap_exec(PyObject *module)
{
    if (_PyStaticType_InitBuiltin(&MapType) < 0 ||
        PyModule_AddObjectRef(module, "mmap", (PyObject *)&MapType) < 0 ||
        PyModule_AddObjectRef(module, "error", PyExc_OSError) < 0) {
        return -1;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(mmap_constants); i++) {
        if (PyModule_AddIntConstant(module, mmap_constants[i].name, mmap_constants[i].value) < 0) {
            return -1;
        }
    }
    long page = sysconf(_SC_PAGESIZE);
    if (PyModule_AddIntConstant(module, "PAGESIZE", page) < 0 ||
        PyModule_AddIntConstant(module, "ALLOCATIONGRANULARITY", page) < 0) {
        return -1;
    }
    return 0;
}

static PyModuleDef_Slot mmap_slots[] = {
    {Py_mod_exec, mmap_exec},
    {0, NULL},
};

static PyModuleDef mmap_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "mmap",
    .m_doc = "Memory-mapped files and anonymous shared memory: the mmap type.",
    .m_slots = mmap_slots,
};

PyObject *
PyInit_mmap(void)
{
    return PyModuleDef_Init(&mmap_module);
}
