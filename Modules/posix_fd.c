/* The posix module's file descriptor calls: open and close, reading and
   writing (plain, positioned, vectored, zero-copy), seeking, duplicating,
   pipes, descriptor flags (inheritable, blocking), locks and space
   reservation, and pseudo-terminals. */

#include "posixmodule.h"
#include "pycore_long.h"

#include <fcntl.h>
#include <pty.h>
#include <utmp.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <unistd.h>

typedef PyObject *(*fastcall_fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);
#define FASTCALL(f) (PyCFunction)(void (*)(void))(fastcall_fn)(f), METH_FASTCALL | METH_KEYWORDS

/* ---- Low-level file descriptor I/O ------------------------------------------------------------ */

/* Parse (fd,) from a single-argument call. */
static int
one_fd(PyObject *arg, int *fd)
{
    return _PyPosix_Fd(arg, fd);
}

static PyObject *
posix_open(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "flags", "mode", "dir_fd", NULL};
    PyObject *a[4];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "open", kwlist, 2, 3, 0, a)) {
        return NULL;
    }
    _PyPosixPath path = {.func = "open", .arg = "path"};
    int flags, mode = 0777, dir_fd, fd = -1;
    if (_PyPosix_PathConvert(&path, a[0], 0) < 0 || _PyPosix_Int(a[1], &flags) < 0 ||
        (a[2] != NULL && _PyPosix_Int(a[2], &mode) < 0) || _PyPosix_DirFd(a[3], &dir_fd) < 0) {
        goto done;
    }
    /* New descriptors are not inherited by exec'd children (PEP 446). */
    do {
        fd = openat(dir_fd, path.name, flags | O_CLOEXEC, mode);
    } while (fd < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    if (fd < 0) {
        _PyPosix_PathError(&path);
    }
done:
    _PyPosix_PathClear(&path);
    return fd < 0 ? NULL : PyLong_FromLong(fd);
}

static PyObject *
posix_close(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"fd", NULL};
    PyObject *a[1];
    int fd;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "close", kwlist, 1, 1, 0, a) ||
        one_fd(a[0], &fd) < 0) {
        return NULL;
    }
    /* Retrying close() after EINTR may close someone else's new fd: don't. */
    if (close(fd) < 0 && errno != EINTR) {
        return _PyPosix_Error();
    }
    Py_RETURN_NONE;
}

static PyObject *
posix_closerange(PyObject *m, PyObject *args)
{
    int low, high;
    if (!PyArg_ParseTuple(args, "ii:closerange", &low, &high)) {
        return NULL;
    }
    if (low < 0) {
        low = 0;
    }
    if (low >= high) {
        Py_RETURN_NONE;
    }
    /* One system call for the whole range; a loop where the kernel lacks it.
       Errors are ignored, as for closing fds that were never open. */
    if (close_range((unsigned int)low, (unsigned int)(high - 1), 0) < 0) {
        for (int fd = low; fd < high; fd++) {
            (void)close(fd);
        }
    }
    Py_RETURN_NONE;
}

static PyObject *
read_into_bytes(int fd, Py_ssize_t size, off_t offset, int positioned)
{
    if (size < 0) {
        errno = EINVAL;
        return _PyPosix_Error();
    }
    PyObject *buf = PyBytes_FromStringAndSize(NULL, size);
    if (buf == NULL) {
        return NULL;
    }
    ssize_t n;
    do {
        n = positioned ? pread(fd, PyBytes_AS_STRING(buf), (size_t)size, offset)
                       : read(fd, PyBytes_AS_STRING(buf), (size_t)size);
    } while (n < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    if (n < 0) {
        Py_DECREF(buf);
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    if (n != size && _PyBytes_Resize(&buf, n) < 0) {
        return NULL;
    }
    return buf;
}

static PyObject *
posix_read(PyObject *m, PyObject *args)
{
    int fd;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "in:read", &fd, &size)) {
        return NULL;
    }
    return read_into_bytes(fd, size, 0, 0);
}

static PyObject *
posix_pread(PyObject *m, PyObject *args)
{
    int fd;
    Py_ssize_t size;
    long long offset;
    if (!PyArg_ParseTuple(args, "inL:pread", &fd, &size, &offset)) {
        return NULL;
    }
    return read_into_bytes(fd, size, (off_t)offset, 1);
}

static PyObject *
write_buffer(PyObject *args, const char *format, int positioned)
{
    int fd;
    PyObject *data;
    long long offset = 0;
    if (!PyArg_ParseTuple(args, format, &fd, &data, &offset)) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    ssize_t n;
    do {
        n = positioned ? pwrite(fd, view.buf, (size_t)view.len, (off_t)offset)
                       : write(fd, view.buf, (size_t)view.len);
    } while (n < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    PyBuffer_Release(&view);
    if (n < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    return PyLong_FromSsize_t(n);
}

static PyObject *
posix_write(PyObject *m, PyObject *args)
{
    return write_buffer(args, "iO:write", 0);
}

static PyObject *
posix_pwrite(PyObject *m, PyObject *args)
{
    return write_buffer(args, "iOL:pwrite", 1);
}

/* Gather the buffers of a sequence into iovecs; returns the count or -1. */
static Py_ssize_t
collect_buffers(PyObject *seq, struct iovec **iov, Py_buffer **views, int writable)
{
    PyObject *fast = PySequence_Fast(seq, "buffers must be a sequence");
    if (fast == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast), done = 0;
    *iov = PyMem_New(struct iovec, n + 1);
    *views = PyMem_New(Py_buffer, n + 1);
    if (*iov == NULL || *views == NULL) {
        PyErr_NoMemory();
        goto error;
    }
    for (; done < n; done++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, done);
        if (PyObject_GetBuffer(item, &(*views)[done], writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0) {
            goto error;
        }
        (*iov)[done].iov_base = (*views)[done].buf;
        (*iov)[done].iov_len = (size_t)(*views)[done].len;
    }
    Py_DECREF(fast);
    return n;
error:
    for (Py_ssize_t i = 0; i < done; i++) {
        PyBuffer_Release(&(*views)[i]);
    }
    PyMem_Free(*iov);
    PyMem_Free(*views);
    Py_DECREF(fast);
    return -1;
}

static PyObject *
vector_io(PyObject *args, const char *format, int writing)
{
    int fd;
    PyObject *seq;
    if (!PyArg_ParseTuple(args, format, &fd, &seq)) {
        return NULL;
    }
    struct iovec *iov;
    Py_buffer *views;
    Py_ssize_t count = collect_buffers(seq, &iov, &views, !writing);
    if (count < 0) {
        return NULL;
    }
    ssize_t n;
    do {
        n = writing ? writev(fd, iov, (int)count) : readv(fd, iov, (int)count);
    } while (n < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyBuffer_Release(&views[i]);
    }
    PyMem_Free(iov);
    PyMem_Free(views);
    if (n < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    return PyLong_FromSsize_t(n);
}

static PyObject *
posix_readv(PyObject *m, PyObject *args)
{
    return vector_io(args, "iO:readv", 0);
}

static PyObject *
posix_writev(PyObject *m, PyObject *args)
{
    return vector_io(args, "iO:writev", 1);
}

static PyObject *
posix_lseek(PyObject *m, PyObject *args)
{
    int fd, how;
    long long pos;
    if (!PyArg_ParseTuple(args, "iLi:lseek", &fd, &pos, &how)) {
        return NULL;
    }
    off_t res = lseek(fd, (off_t)pos, how);
    if (res < 0) {
        return _PyPosix_Error();
    }
    return PyLong_FromLongLong((long long)res);
}

static PyObject *
posix_dup(PyObject *m, PyObject *arg)
{
    int fd;
    if (one_fd(arg, &fd) < 0) {
        return NULL;
    }
    int res = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    return res < 0 ? _PyPosix_Error() : PyLong_FromLong(res);
}

static PyObject *
posix_dup2(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"fd", "fd2", "inheritable", NULL};
    PyObject *a[3];
    int fd, fd2;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "dup2", kwlist, 2, 3, 0, a) ||
        _PyPosix_Fd(a[0], &fd) < 0 || _PyPosix_Fd(a[1], &fd2) < 0) {
        return NULL;
    }
    int inheritable = _PyPosix_Flag(a[2], 1);
    if (inheritable < 0) {
        return NULL;
    }
    int res = (inheritable || fd == fd2) ? dup2(fd, fd2) : dup3(fd, fd2, O_CLOEXEC);
    return res < 0 ? _PyPosix_Error() : PyLong_FromLong(res);
}

static PyObject *
fd_pair(int flags)
{
    int fds[2];
    if (pipe2(fds, flags) < 0) {
        return _PyPosix_Error();
    }
    return Py_BuildValue("(ii)", fds[0], fds[1]);
}

static PyObject *
posix_pipe(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return fd_pair(O_CLOEXEC);
}

static PyObject *
posix_pipe2(PyObject *m, PyObject *arg)
{
    int flags;
    if (_PyPosix_Int(arg, &flags) < 0) {
        return NULL;
    }
    return fd_pair(flags);
}

static PyObject *
posix_isatty(PyObject *m, PyObject *arg)
{
    int fd;
    if (one_fd(arg, &fd) < 0) {
        return NULL;
    }
    return PyBool_FromLong(isatty(fd));
}

/* fsync() accepts an int or any object with a fileno() method. */
static int
fd_or_fileno(PyObject *arg, int *fd)
{
    if (PyLong_Check(arg)) {
        return _PyPosix_Fd(arg, fd);
    }
    PyObject *res = PyObject_CallMethod(arg, "fileno", NULL);
    if (res == NULL) {
        return -1;
    }
    int err = _PyPosix_Fd(res, fd);
    Py_DECREF(res);
    return err;
}

static PyObject *
sync_fd(PyObject *arg, int data_only)
{
    int fd;
    if (fd_or_fileno(arg, &fd) < 0) {
        return NULL;
    }
    if ((data_only ? fdatasync(fd) : fsync(fd)) < 0) {
        return _PyPosix_Error();
    }
    Py_RETURN_NONE;
}

static PyObject *
posix_fsync(PyObject *m, PyObject *arg)
{
    return sync_fd(arg, 0);
}

static PyObject *
posix_fdatasync(PyObject *m, PyObject *arg)
{
    return sync_fd(arg, 1);
}

/* Flip one bit of fcntl(F_GETFD/F_GETFL) state; returns the old bit or -1. */
static int
fd_flag(int fd, int get, int set, int bit, int value)
{
    int flags = fcntl(fd, get);
    if (flags < 0) {
        _PyPosix_Error();
        return -1;
    }
    if (value >= 0) {
        int wanted = value ? (flags | bit) : (flags & ~bit);
        if (wanted != flags && fcntl(fd, set, wanted) < 0) {
            _PyPosix_Error();
            return -1;
        }
    }
    return (flags & bit) != 0;
}

static PyObject *
posix_get_inheritable(PyObject *m, PyObject *arg)
{
    int fd;
    if (one_fd(arg, &fd) < 0) {
        return NULL;
    }
    int cloexec = fd_flag(fd, F_GETFD, F_SETFD, FD_CLOEXEC, -1);
    return cloexec < 0 ? NULL : PyBool_FromLong(!cloexec);
}

static PyObject *
posix_set_inheritable(PyObject *m, PyObject *args)
{
    int fd, inheritable;
    if (!PyArg_ParseTuple(args, "ip:set_inheritable", &fd, &inheritable)) {
        return NULL;
    }
    if (fd_flag(fd, F_GETFD, F_SETFD, FD_CLOEXEC, !inheritable) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
posix_get_blocking(PyObject *m, PyObject *arg)
{
    int fd;
    if (one_fd(arg, &fd) < 0) {
        return NULL;
    }
    int nonblock = fd_flag(fd, F_GETFL, F_SETFL, O_NONBLOCK, -1);
    return nonblock < 0 ? NULL : PyBool_FromLong(!nonblock);
}

static PyObject *
posix_set_blocking(PyObject *m, PyObject *args)
{
    int fd, blocking;
    if (!PyArg_ParseTuple(args, "ip:set_blocking", &fd, &blocking)) {
        return NULL;
    }
    if (fd_flag(fd, F_GETFL, F_SETFL, O_NONBLOCK, !blocking) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* A terminal is taken to speak the (UTF-8) locale; anything else has no
   encoding of its own. */
static PyObject *
posix_device_encoding(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"fd", NULL};
    PyObject *a[1];
    int fd;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "device_encoding", kwlist, 1, 1, 0, a) ||
        _PyPosix_Fd(a[0], &fd) < 0) {
        return NULL;
    }
    if (!isatty(fd)) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString("UTF-8");
}

static PyObject *
posix_sendfile(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"out_fd", "in_fd", "offset", "count", NULL};
    PyObject *a[4];
    int out_fd, in_fd;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "sendfile", kwlist, 4, 4, 0, a) ||
        _PyPosix_Fd(a[0], &out_fd) < 0 || _PyPosix_Fd(a[1], &in_fd) < 0) {
        return NULL;
    }
    Py_ssize_t count = PyLong_AsSsize_t(a[3]);
    if (count == -1 && PyErr_Occurred()) {
        return NULL;
    }
    off_t offset = 0;
    if (a[2] != Py_None) {
        offset = (off_t)PyLong_AsLongLong(a[2]);
        if (offset == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    ssize_t n;
    do {
        n = sendfile(out_fd, in_fd, a[2] == Py_None ? NULL : &offset, (size_t)count);
    } while (n < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    if (n < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    return PyLong_FromSsize_t(n);
}

static PyObject *
posix_readinto(PyObject *m, PyObject *args)
{
    int fd;
    PyObject *target;
    if (!PyArg_ParseTuple(args, "iO:readinto", &fd, &target)) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(target, &view, PyBUF_WRITABLE) < 0) {
        return NULL;
    }
    ssize_t n;
    do {
        n = read(fd, view.buf, (size_t)view.len);
    } while (n < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    PyBuffer_Release(&view);
    if (n < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    return PyLong_FromSsize_t(n);
}

/* preadv/pwritev: readv/writev at an offset (flags must be 0 or RWF_*). */
static PyObject *
vector_io_at(PyObject *args, const char *format, int writing)
{
    int fd, flags = 0;
    PyObject *seq;
    long long offset;
    if (!PyArg_ParseTuple(args, format, &fd, &seq, &offset, &flags)) {
        return NULL;
    }
    struct iovec *iov;
    Py_buffer *views;
    Py_ssize_t count = collect_buffers(seq, &iov, &views, !writing);
    if (count < 0) {
        return NULL;
    }
    ssize_t n;
    do {
        n = writing ? pwritev2(fd, iov, (int)count, (off_t)offset, flags)
                    : preadv2(fd, iov, (int)count, (off_t)offset, flags);
    } while (n < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyBuffer_Release(&views[i]);
    }
    PyMem_Free(iov);
    PyMem_Free(views);
    if (n < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    return PyLong_FromSsize_t(n);
}

static PyObject *
posix_preadv(PyObject *m, PyObject *args)
{
    return vector_io_at(args, "iOL|i:preadv", 0);
}

static PyObject *
posix_pwritev(PyObject *m, PyObject *args)
{
    return vector_io_at(args, "iOL|i:pwritev", 1);
}

static PyObject *
posix_lockf(PyObject *m, PyObject *args)
{
    int fd, cmd;
    long long len;
    if (!PyArg_ParseTuple(args, "iiL:lockf", &fd, &cmd, &len)) {
        return NULL;
    }
    return lockf(fd, cmd, (off_t)len) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

/* posix_fallocate and posix_fadvise return the error instead of setting errno. */
static PyObject *
returned_errno(int rc)
{
    if (rc == EINTR && PyErr_CheckSignals() < 0) {
        return NULL;
    }
    if (rc != 0) {
        errno = rc;
        return _PyPosix_Error();
    }
    Py_RETURN_NONE;
}

static PyObject *
posix_posix_fallocate(PyObject *m, PyObject *args)
{
    int fd;
    long long offset, len;
    if (!PyArg_ParseTuple(args, "iLL:posix_fallocate", &fd, &offset, &len)) {
        return NULL;
    }
    return returned_errno(posix_fallocate(fd, (off_t)offset, (off_t)len));
}

static PyObject *
posix_posix_fadvise(PyObject *m, PyObject *args)
{
    int fd, advice;
    long long offset, len;
    if (!PyArg_ParseTuple(args, "iLLi:posix_fadvise", &fd, &offset, &len, &advice)) {
        return NULL;
    }
    return returned_errno(posix_fadvise(fd, (off_t)offset, (off_t)len, advice));
}

/* An optional file offset: None means "use and move the file position". */
static int
optional_offset(PyObject *obj, off_t *value, off_t **ptr)
{
    *ptr = NULL;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *value = (off_t)v;
    *ptr = value;
    return 0;
}

static PyObject *
posix_copy_file_range(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"src", "dst", "count", "offset_src", "offset_dst", NULL};
    PyObject *a[5];
    int src, dst;
    off_t off_src, off_dst, *p_src, *p_dst;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "copy_file_range", kwlist, 3, 5, 0, a) ||
        _PyPosix_Fd(a[0], &src) < 0 || _PyPosix_Fd(a[1], &dst) < 0 ||
        optional_offset(a[3], &off_src, &p_src) < 0 || optional_offset(a[4], &off_dst, &p_dst) < 0) {
        return NULL;
    }
    Py_ssize_t count = PyLong_AsSsize_t(a[2]);
    if (count == -1 && PyErr_Occurred()) {
        return NULL;
    }
    ssize_t n;
    do {
        n = copy_file_range(src, p_src, dst, p_dst, (size_t)count, 0);
    } while (n < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    if (n < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    return PyLong_FromSsize_t(n);
}

static PyObject *
posix_memfd_create(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"name", "flags", NULL};
    PyObject *a[2], *name = NULL;
    int flags = MFD_CLOEXEC;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "memfd_create", kwlist, 1, 2, 0, a) ||
        (a[1] != NULL && _PyPosix_Int(a[1], &flags) < 0) || !PyUnicode_FSConverter(a[0], &name)) {
        return NULL;
    }
    int fd = memfd_create(PyBytes_AS_STRING(name), (unsigned int)flags);
    Py_DECREF(name);
    return fd < 0 ? _PyPosix_Error() : PyLong_FromLong(fd);
}

static PyObject *
posix_openpty(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    int controller, terminal;
    if (openpty(&controller, &terminal, NULL, NULL, NULL) < 0) {
        return _PyPosix_Error();
    }
    /* Both ends are non-inheritable, like every descriptor we make. */
    if (fcntl(controller, F_SETFD, FD_CLOEXEC) < 0 || fcntl(terminal, F_SETFD, FD_CLOEXEC) < 0) {
        int saved = errno;
        close(controller);
        close(terminal);
        errno = saved;
        return _PyPosix_Error();
    }
    return Py_BuildValue("(ii)", controller, terminal);
}

/* login_tty(fd): what pty.fork() runs in the child when os.forkpty is
   missing: a new session with the terminal fd as its controlling tty
   and as fds 0, 1 and 2. */
static PyObject *
posix_login_tty(PyObject *m, PyObject *arg)
{
    int fd;
    if (one_fd(arg, &fd) < 0) {
        return NULL;
    }
    if (login_tty(fd) < 0) {
        return _PyPosix_Error();
    }
    Py_RETURN_NONE;
}

static PyObject *
posix_ttyname(PyObject *m, PyObject *arg)
{
    int fd;
    if (_PyPosix_Fd(arg, &fd) < 0) {
        return NULL;
    }
    char buf[256];
    int rc = ttyname_r(fd, buf, sizeof(buf));
    if (rc != 0) {
        errno = rc;
        return _PyPosix_Error();
    }
    return PyUnicode_DecodeFSDefault(buf);
}

static PyObject *
posix_ctermid(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    char buf[L_ctermid];
    if (ctermid(buf) == NULL) {
        return _PyPosix_Error();
    }
    return PyUnicode_DecodeFSDefault(buf);
}

static PyObject *
posix_tcgetpgrp(PyObject *m, PyObject *arg)
{
    int fd;
    if (_PyPosix_Fd(arg, &fd) < 0) {
        return NULL;
    }
    pid_t pgrp = tcgetpgrp(fd);
    return pgrp < 0 ? _PyPosix_Error() : PyLong_FromLong((long)pgrp);
}

static PyObject *
posix_tcsetpgrp(PyObject *m, PyObject *args)
{
    int fd, pgrp;
    if (!PyArg_ParseTuple(args, "ii:tcsetpgrp", &fd, &pgrp)) {
        return NULL;
    }
    return tcsetpgrp(fd, (pid_t)pgrp) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

/* ---- eventfd and splice ------------------------------------------------------------------- */

/* An event counter value: a non-negative int. */
static int
counter_value(PyObject *obj, unsigned long long *out)
{
    if (PyLong_Check(obj) && PyObject_RichCompareBool(obj, _PyLong_GetZero(), Py_LT) == 1) {
        PyErr_SetString(PyExc_ValueError, "value must be positive");
        return -1;
    }
    *out = PyLong_AsUnsignedLongLong(obj);
    return (*out == (unsigned long long)-1 && PyErr_Occurred()) ? -1 : 0;
}

static PyObject *
posix_eventfd(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"initval", "flags", NULL};
    PyObject *a[2];
    int flags = EFD_CLOEXEC;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "eventfd", kwlist, 1, 2, 0, a) ||
        (a[1] != NULL && _PyPosix_Int(a[1], &flags) < 0)) {
        return NULL;
    }
    unsigned long long initval;
    if (counter_value(a[0], &initval) < 0) {
        return NULL;
    }
    if (initval > UINT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "initval is greater than maximum");
        return NULL;
    }
    int fd = eventfd((unsigned int)initval, flags);
    return fd < 0 ? _PyPosix_Error() : PyLong_FromLong(fd);
}

static PyObject *
posix_eventfd_read(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"fd", NULL};
    PyObject *a[1];
    int fd;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "eventfd_read", kwlist, 1, 1, 0, a) ||
        _PyPosix_Fd(a[0], &fd) < 0) {
        return NULL;
    }
    eventfd_t value;
    int rc;
    do {
        rc = eventfd_read(fd, &value);
    } while (rc < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    if (rc < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    return PyLong_FromUnsignedLongLong((unsigned long long)value);
}

static PyObject *
posix_eventfd_write(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"fd", "value", NULL};
    PyObject *a[2];
    int fd;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "eventfd_write", kwlist, 2, 2, 0, a) ||
        _PyPosix_Fd(a[0], &fd) < 0) {
        return NULL;
    }
    unsigned long long value;
    if (counter_value(a[1], &value) < 0) {
        return NULL;
    }
    int rc;
    do {
        rc = eventfd_write(fd, (eventfd_t)value);
    } while (rc < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    if (rc < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    Py_RETURN_NONE;
}

static PyObject *
posix_splice(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"src", "dst", "count", "offset_src", "offset_dst", "flags", NULL};
    PyObject *a[6];
    int src, dst, flags = 0;
    off_t off_src, off_dst, *p_src, *p_dst;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "splice", kwlist, 3, 6, 0, a) ||
        _PyPosix_Fd(a[0], &src) < 0 || _PyPosix_Fd(a[1], &dst) < 0 ||
        optional_offset(a[3], &off_src, &p_src) < 0 || optional_offset(a[4], &off_dst, &p_dst) < 0 ||
        (a[5] != NULL && _PyPosix_Int(a[5], &flags) < 0)) {
        return NULL;
    }
    Py_ssize_t count = PyLong_AsSsize_t(a[2]);
    if (count == -1 && PyErr_Occurred()) {
        return NULL;
    }
    ssize_t n;
    do {
        n = splice(src, p_src, dst, p_dst, (size_t)count, (unsigned int)flags);
    } while (n < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    if (n < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    return PyLong_FromSsize_t(n);
}

static PyMethodDef fd_methods[] = {
    {"eventfd", FASTCALL(posix_eventfd), "Make an event counter descriptor."},
    {"eventfd_read", FASTCALL(posix_eventfd_read), "Read (and reset) an event counter."},
    {"eventfd_write", FASTCALL(posix_eventfd_write), "Add to an event counter."},
    {"splice", FASTCALL(posix_splice), "Move bytes between a pipe and a descriptor in the kernel."},
    {"open", (PyCFunction)(void (*)(void))posix_open, METH_FASTCALL | METH_KEYWORDS,
     "Open a file and return its file descriptor."},
    {"close", (PyCFunction)(void (*)(void))posix_close, METH_FASTCALL | METH_KEYWORDS,
     "Close a file descriptor."},
    {"closerange", posix_closerange, METH_VARARGS, "Close every descriptor in [low, high)."},
    {"read", posix_read, METH_VARARGS, "Read at most n bytes from a descriptor."},
    {"pread", posix_pread, METH_VARARGS, "Read at an offset without moving the file position."},
    {"write", posix_write, METH_VARARGS, "Write a bytes-like object; return the count written."},
    {"pwrite", posix_pwrite, METH_VARARGS, "Write at an offset without moving the file position."},
    {"readv", posix_readv, METH_VARARGS, "Read into a sequence of writable buffers."},
    {"writev", posix_writev, METH_VARARGS, "Write a sequence of buffers."},
    {"lseek", posix_lseek, METH_VARARGS, "Move a descriptor's position; return the new one."},
    {"dup", posix_dup, METH_O, "Duplicate a descriptor (not inheritable)."},
    {"dup2", (PyCFunction)(void (*)(void))posix_dup2, METH_FASTCALL | METH_KEYWORDS,
     "Duplicate fd onto fd2."},
    {"pipe", posix_pipe, METH_NOARGS, "Make a pipe: (read_fd, write_fd)."},
    {"pipe2", posix_pipe2, METH_O, "Make a pipe with O_* flags."},
    {"isatty", posix_isatty, METH_O, "Whether the descriptor is a terminal."},
    {"fsync", posix_fsync, METH_O, "Flush a file's data and metadata to disk."},
    {"fdatasync", posix_fdatasync, METH_O, "Flush a file's data to disk."},
    {"get_inheritable", posix_get_inheritable, METH_O, "Whether children inherit the descriptor."},
    {"set_inheritable", posix_set_inheritable, METH_VARARGS, "Set whether children inherit it."},
    {"get_blocking", posix_get_blocking, METH_O, "Whether the descriptor is in blocking mode."},
    {"set_blocking", posix_set_blocking, METH_VARARGS, "Switch blocking mode on or off."},
    {"device_encoding", (PyCFunction)(void (*)(void))posix_device_encoding,
     METH_FASTCALL | METH_KEYWORDS, "The encoding of a terminal descriptor, else None."},
    {"sendfile", (PyCFunction)(void (*)(void))posix_sendfile, METH_FASTCALL | METH_KEYWORDS,
     "Copy count bytes between descriptors in the kernel."},
    {"readinto", posix_readinto, METH_VARARGS, "Read into a writable buffer; return the count."},
    {"preadv", posix_preadv, METH_VARARGS, "readv() at an offset."},
    {"pwritev", posix_pwritev, METH_VARARGS, "writev() at an offset."},
    {"lockf", posix_lockf, METH_VARARGS, "Lock, unlock or test a section of an open file."},
    {"posix_fallocate", posix_posix_fallocate, METH_VARARGS, "Reserve disk space for a file region."},
    {"posix_fadvise", posix_posix_fadvise, METH_VARARGS, "Tell the kernel how a region will be read."},
    {"copy_file_range", (PyCFunction)(void (*)(void))posix_copy_file_range, METH_FASTCALL | METH_KEYWORDS,
     "Copy bytes between files inside the kernel."},
    {"memfd_create", (PyCFunction)(void (*)(void))posix_memfd_create, METH_FASTCALL | METH_KEYWORDS,
     "Make an anonymous in-memory file; return its descriptor."},
    {"openpty", posix_openpty, METH_NOARGS, "Open a pseudo-terminal pair: (controller_fd, terminal_fd)."},
    {"login_tty", posix_login_tty, METH_O, "Make the terminal fd this new session's controlling tty and stdio."},
    {"ttyname", posix_ttyname, METH_O, "The device name of a terminal descriptor."},
    {"ctermid", posix_ctermid, METH_NOARGS, "The name of the controlling terminal."},
    {"tcgetpgrp", posix_tcgetpgrp, METH_O, "The foreground process group of a terminal."},
    {"tcsetpgrp", posix_tcsetpgrp, METH_VARARGS, "Set the foreground process group of a terminal."},
    {NULL, NULL, 0, NULL},
};

#define C(name) {#name, (long)(name)}
static const struct {
    const char *name;
    long value;
} fd_constants[] = {
    C(EFD_CLOEXEC), C(EFD_NONBLOCK), C(EFD_SEMAPHORE),
    C(SPLICE_F_MOVE), C(SPLICE_F_NONBLOCK), C(SPLICE_F_MORE),
    {NULL, 0},
};
#undef C

int
_PyPosix_InitFd(PyObject *module)
{
    for (int i = 0; fd_constants[i].name != NULL; i++) {
        if (PyModule_AddIntConstant(module, fd_constants[i].name, fd_constants[i].value) < 0) {
            return -1;
        }
    }
    return PyModule_AddFunctions(module, fd_methods);
}
