/* The `fcntl` module: fcntl(), ioctl(), flock() and lockf() on file
   descriptors (or objects with fileno()).

   An argument that is bytes-like is copied into a local buffer, passed
   by address, and the (possibly changed) buffer is returned, as the
   system call's contract with pointer arguments requires; an int is
   passed by value and the call's int result returned. */

#include "Python.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Room for any structure fcntl/ioctl may fill in. */
#define ARG_BUFFER_SIZE 1024

/* An int, or an object's fileno(): the fd in *fd, or -1. */
static int
fd_arg(PyObject *obj, int *fd)
{
    *fd = PyObject_AsFileDescriptor(obj);
    return *fd < 0 ? -1 : 0;
}

/* Retry a call interrupted by a signal once its handler ran (PEP 475). */
static int
retry_after_signal(void)
{
    return errno == EINTR && PyErr_CheckSignals() == 0;
}

/* The buffer form shared by fcntl() and ioctl(); `writeback`, when not
   NULL, is a writable buffer to update in place instead. */
static PyObject *
call_with_buffer(int fd, unsigned long code, int is_ioctl, PyObject *arg, Py_buffer *writeback)
{
    char buf[ARG_BUFFER_SIZE];
    Py_buffer view;
    if (writeback == NULL && PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    Py_buffer *src = writeback ? writeback : &view;
    if (src->len > ARG_BUFFER_SIZE) {
        if (writeback == NULL) {
            PyBuffer_Release(&view);
        }
        PyErr_SetString(PyExc_ValueError, "fcntl argument 3 is too long");
        return NULL;
    }
    Py_ssize_t len = src->len;
    memcpy(buf, src->buf, (size_t)len);
    int ret;
    do {
        ret = is_ioctl ? ioctl(fd, code, buf) : fcntl(fd, (int)code, buf);
    } while (ret < 0 && retry_after_signal());
    if (ret >= 0 && writeback != NULL) {
        memcpy(writeback->buf, buf, (size_t)len);
    }
    if (writeback == NULL) {
        PyBuffer_Release(&view);
    }
    if (ret < 0) {
        return PyErr_Occurred() ? NULL : PyErr_SetFromErrno(PyExc_OSError);
    }
    return writeback ? PyLong_FromLong(ret) : PyBytes_FromStringAndSize(buf, len);
}

static PyObject *
call_with_int(int fd, unsigned long code, int is_ioctl, PyObject *arg)
{
    long value = 0;
    if (arg != NULL) {
        value = PyLong_AsLong(arg);
        if (value == -1 && PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "argument 3 must be an int or a bytes-like object, not %.100s",
                         Py_TYPE(arg)->tp_name);
            return NULL;
        }
    }
    int ret;
    do {
        ret = is_ioctl ? ioctl(fd, code, value) : fcntl(fd, (int)code, value);
    } while (ret < 0 && retry_after_signal());
    if (ret < 0) {
        return PyErr_Occurred() ? NULL : PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromLong(ret);
}

static int
is_buffer_arg(PyObject *arg)
{
    return arg != NULL && !PyLong_Check(arg) && PyObject_CheckBuffer(arg);
}

static PyObject *
fcntl_fcntl(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 2 || nargs > 3) {
        PyErr_Format(PyExc_TypeError, "fcntl expected 2 or 3 arguments, got %zd", nargs);
        return NULL;
    }
    int fd, cmd = PyLong_AsInt(args[1]);
    if ((cmd == -1 && PyErr_Occurred()) || fd_arg(args[0], &fd) < 0) {
        return NULL;
    }
    PyObject *arg = nargs == 3 ? args[2] : NULL;
    if (is_buffer_arg(arg)) {
        return call_with_buffer(fd, (unsigned long)cmd, 0, arg, NULL);
    }
    return call_with_int(fd, (unsigned long)cmd, 0, arg);
}

static PyObject *
fcntl_ioctl(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 2 || nargs > 4) {
        PyErr_Format(PyExc_TypeError, "ioctl expected 2 to 4 arguments, got %zd", nargs);
        return NULL;
    }
    int fd;
    unsigned long request = PyLong_AsUnsignedLongMask(args[1]);
    if ((request == (unsigned long)-1 && PyErr_Occurred()) || fd_arg(args[0], &fd) < 0) {
        return NULL;
    }
    PyObject *arg = nargs >= 3 ? args[2] : NULL;
    int mutate = nargs == 4 ? PyObject_IsTrue(args[3]) : 1;
    if (mutate < 0) {
        return NULL;
    }
    if (!is_buffer_arg(arg)) {
        return call_with_int(fd, request, 1, arg);
    }
    Py_buffer writable;
    if (mutate && PyObject_GetBuffer(arg, &writable, PyBUF_WRITABLE) == 0) {
        PyObject *res = call_with_buffer(fd, request, 1, arg, &writable);
        PyBuffer_Release(&writable);
        return res;
    }
    PyErr_Clear(); /* read-only buffers are passed by copy */
    return call_with_buffer(fd, request, 1, arg, NULL);
}

static PyObject *
fcntl_flock(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "flock expected 2 arguments, got %zd", nargs);
        return NULL;
    }
    int fd, op = PyLong_AsInt(args[1]);
    if ((op == -1 && PyErr_Occurred()) || fd_arg(args[0], &fd) < 0) {
        return NULL;
    }
    int ret;
    do {
        ret = flock(fd, op);
    } while (ret < 0 && retry_after_signal());
    if (ret < 0) {
        return PyErr_Occurred() ? NULL : PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

/* lockf() as Python defines it: LOCK_UN / LOCK_SH / LOCK_EX (| LOCK_NB)
   over a byte range, done with fcntl record locks. */
static PyObject *
fcntl_lockf(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 2 || nargs > 5) {
        PyErr_Format(PyExc_TypeError, "lockf expected 2 to 5 arguments, got %zd", nargs);
        return NULL;
    }
    int fd, code = PyLong_AsInt(args[1]);
    if ((code == -1 && PyErr_Occurred()) || fd_arg(args[0], &fd) < 0) {
        return NULL;
    }
    long long fields[3] = {0, 0, 0}; /* len, start, whence */
    for (Py_ssize_t i = 2; i < nargs; i++) {
        fields[i - 2] = PyLong_AsLongLong(args[i]);
        if (fields[i - 2] == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    struct flock lock = {.l_len = (off_t)fields[0], .l_start = (off_t)fields[1],
                         .l_whence = (short)fields[2]};
    /* As CPython reads `cmd`: LOCK_UN exactly, else the LOCK_SH bit,
       else the LOCK_EX bit. */
    if (code == LOCK_UN) {
        lock.l_type = F_UNLCK;
    }
    else if (code & LOCK_SH) {
        lock.l_type = F_RDLCK;
    }
    else if (code & LOCK_EX) {
        lock.l_type = F_WRLCK;
    }
    else {
        PyErr_SetString(PyExc_ValueError, "unrecognized lockf argument");
        return NULL;
    }
    int cmd = (code & LOCK_NB) ? F_SETLK : F_SETLKW;
    int ret;
    do {
        ret = fcntl(fd, cmd, &lock);
    } while (ret < 0 && retry_after_signal());
    if (ret < 0) {
        return PyErr_Occurred() ? NULL : PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

static PyMethodDef fcntl_methods[] = {
    {"fcntl", _PyCFunction_CAST(fcntl_fcntl), METH_FASTCALL,
     "fcntl(fd, cmd, arg=0): perform the operation cmd on file descriptor fd."},
    {"ioctl", _PyCFunction_CAST(fcntl_ioctl), METH_FASTCALL,
     "ioctl(fd, request, arg=0, mutate_flag=True): device-specific control."},
    {"flock", _PyCFunction_CAST(fcntl_flock), METH_FASTCALL,
     "flock(fd, operation): take or release a whole-file advisory lock."},
    {"lockf", _PyCFunction_CAST(fcntl_lockf), METH_FASTCALL,
     "lockf(fd, cmd, len=0, start=0, whence=0): lock or unlock a byte range."},
    {NULL, NULL, 0, NULL},
};

static int
fcntl_exec(PyObject *m)
{
    static const struct {
        const char *name;
        long value;
    } constants[] = {
        {"LOCK_SH", LOCK_SH}, {"LOCK_EX", LOCK_EX}, {"LOCK_NB", LOCK_NB}, {"LOCK_UN", LOCK_UN},
        {"F_DUPFD", F_DUPFD}, {"F_DUPFD_CLOEXEC", F_DUPFD_CLOEXEC}, {"F_GETFD", F_GETFD},
        {"F_SETFD", F_SETFD}, {"F_GETFL", F_GETFL}, {"F_SETFL", F_SETFL}, {"F_GETLK", F_GETLK},
        {"F_SETLK", F_SETLK}, {"F_SETLKW", F_SETLKW}, {"F_GETOWN", F_GETOWN},
        {"F_SETOWN", F_SETOWN}, {"F_GETSIG", F_GETSIG}, {"F_SETSIG", F_SETSIG},
        {"F_RDLCK", F_RDLCK}, {"F_WRLCK", F_WRLCK}, {"F_UNLCK", F_UNLCK},
        {"F_GETLEASE", F_GETLEASE}, {"F_SETLEASE", F_SETLEASE}, {"F_NOTIFY", F_NOTIFY},
        {"F_GETPIPE_SZ", F_GETPIPE_SZ}, {"F_SETPIPE_SZ", F_SETPIPE_SZ},
        {"F_ADD_SEALS", F_ADD_SEALS}, {"F_GET_SEALS", F_GET_SEALS},
        {"F_SEAL_SEAL", F_SEAL_SEAL}, {"F_SEAL_SHRINK", F_SEAL_SHRINK},
        {"F_SEAL_GROW", F_SEAL_GROW}, {"F_SEAL_WRITE", F_SEAL_WRITE},
        {"F_OFD_GETLK", F_OFD_GETLK}, {"F_OFD_SETLK", F_OFD_SETLK},
        {"F_OFD_SETLKW", F_OFD_SETLKW}, {"FD_CLOEXEC", FD_CLOEXEC},
        {"DN_ACCESS", DN_ACCESS}, {"DN_MODIFY", DN_MODIFY}, {"DN_CREATE", DN_CREATE},
        {"DN_DELETE", DN_DELETE}, {"DN_RENAME", DN_RENAME}, {"DN_ATTRIB", DN_ATTRIB},
        {"DN_MULTISHOT", (long)DN_MULTISHOT},
        {"LOCK_MAND", 32}, {"LOCK_READ", 64}, {"LOCK_WRITE", 128}, {"LOCK_RW", 192},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(constants); i++) {
        if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyModuleDef_Slot fcntl_slots[] = {
    {Py_mod_exec, fcntl_exec},
    {0, NULL},
};

static PyModuleDef fcntl_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "fcntl",
    .m_doc = "File and I/O control on file descriptors: fcntl, ioctl, flock, lockf.",
    .m_methods = fcntl_methods,
    .m_slots = fcntl_slots,
};

PyObject *
PyInit_fcntl(void)
{
    return PyModuleDef_Init(&fcntl_module);
}
