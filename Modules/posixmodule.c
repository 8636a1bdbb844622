/* The posix module, which the stdlib's os module re-exports.

   This file holds what the other parts share (path arguments and OSError
   raising), the environment, randomness, the constants and the module's
   start-up.  File descriptor I/O is in posix_fd.c, file system calls and
   scandir in posix_fs.c, extended attributes in posix_xattr.c, processes,
   users and system information in posix_process.c. */

#include "posixmodule.h"
#include "pycore_object.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <sysexits.h>
#include <unistd.h>

extern char **environ;

/* ---- os.fspath ------------------------------------------------------------------------------- */

PyObject *
PyOS_FSPath(PyObject *path)
{
    if (PyUnicode_Check(path) || PyBytes_Check(path)) {
        return Py_NewRef(path);
    }
    PyObject *hook = PyObject_GetAttrString((PyObject *)Py_TYPE(path), "__fspath__");
    if (hook == NULL || hook == Py_None) {
        if (hook == NULL && !PyErr_ExceptionMatches(PyExc_AttributeError)) {
            return NULL;
        }
        PyErr_Clear();
        Py_XDECREF(hook);
        return PyErr_Format(PyExc_TypeError, "expected str, bytes or os.PathLike object, not %.200s",
                            Py_TYPE(path)->tp_name);
    }
    PyObject *res = PyObject_CallOneArg(hook, path);
    Py_DECREF(hook);
    if (res != NULL && !PyUnicode_Check(res) && !PyBytes_Check(res)) {
        PyErr_Format(PyExc_TypeError, "expected %.200s.__fspath__() to return str or bytes, not %.200s",
                     Py_TYPE(path)->tp_name, Py_TYPE(res)->tp_name);
        Py_CLEAR(res);
    }
    return res;
}

static PyObject *
posix_fspath(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", NULL};
    PyObject *path;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "fspath", kwlist, 1, 1, 0, &path)) {
        return NULL;
    }
    return PyOS_FSPath(path);
}

/* ---- Path arguments -------------------------------------------------------------------------- */

static int
path_type_error(_PyPosixPath *path, PyObject *obj, int flags)
{
    const char *kinds;
    if ((flags & _PyPosix_PATH_FD) && (flags & _PyPosix_PATH_NONE)) {
        kinds = "string, bytes, os.PathLike, integer or None";
    }
    else if (flags & _PyPosix_PATH_FD) {
        kinds = "string, bytes, os.PathLike or integer";
    }
    else if (flags & _PyPosix_PATH_NONE) {
        kinds = "string, bytes, os.PathLike or None";
    }
    else {
        kinds = "string, bytes or os.PathLike";
    }
    PyErr_Format(PyExc_TypeError, "%s: %s should be %s, not %.200s", path->func, path->arg, kinds,
                 Py_TYPE(obj)->tp_name);
    return -1;
}

/* An int where an fd is allowed: bool works but is warned about. */
static int
path_from_fd(_PyPosixPath *path, PyObject *obj)
{
    if (PyBool_Check(obj) &&
        PyErr_WarnEx(PyExc_RuntimeWarning, "bool is used as a file descriptor", 1) < 0) {
        return -1;
    }
    int fd = PyLong_AsInt(obj);
    if (fd == -1 && PyErr_Occurred()) {
        return -1;
    }
    /* No call can succeed on a negative fd: fail as the kernel would. */
    if (fd < 0) {
        errno = EBADF;
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, obj);
        return -1;
    }
    path->fd = fd;
    path->object = Py_NewRef(obj);
    return 0;
}

static int
path_from_name(_PyPosixPath *path, PyObject *name)
{
    path->object = name;
    if (PyBytes_Check(name)) {
        path->as_bytes = 1;
        path->encoded = Py_NewRef(name);
    }
    else {
        path->encoded = PyUnicode_EncodeFSDefault(name);
        if (path->encoded == NULL) {
            return -1;
        }
    }
    path->name = PyBytes_AS_STRING(path->encoded);
    if (strlen(path->name) != (size_t)PyBytes_GET_SIZE(path->encoded)) {
        PyErr_Format(PyExc_ValueError, "%s: embedded null character in %s", path->func, path->arg);
        return -1;
    }
    return 0;
}

int
_PyPosix_PathConvert(_PyPosixPath *path, PyObject *obj, int flags)
{
    path->object = NULL;
    path->encoded = NULL;
    path->name = NULL;
    path->fd = -1;
    path->as_bytes = 0;
    if (obj == NULL || obj == Py_None) {
        if (!(flags & _PyPosix_PATH_NONE)) {
            return path_type_error(path, obj ? obj : Py_None, flags);
        }
        path->object = Py_NewRef(Py_None);
        path->name = ".";
        return 0;
    }
    if ((flags & _PyPosix_PATH_FD) && PyLong_Check(obj)) {
        return path_from_fd(path, obj);
    }
    if (!PyUnicode_Check(obj) && !PyBytes_Check(obj)) {
        PyObject *hook = PyObject_GetAttrString((PyObject *)Py_TYPE(obj), "__fspath__");
        if (hook == NULL) {
            PyErr_Clear();
            return path_type_error(path, obj, flags);
        }
        Py_DECREF(hook);
    }
    PyObject *name = PyOS_FSPath(obj);
    if (name == NULL) {
        return -1;
    }
    return path_from_name(path, name);
}

void
_PyPosix_PathClear(_PyPosixPath *path)
{
    Py_CLEAR(path->object);
    Py_CLEAR(path->encoded);
    path->name = NULL;
}

/* The filename an OSError carries: the path as given (None is left out). */
static PyObject *
error_filename(_PyPosixPath *path)
{
    if (path == NULL || path->object == NULL || path->object == Py_None) {
        return NULL;
    }
    return path->object;
}

PyObject *
_PyPosix_PathError(_PyPosixPath *path)
{
    return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, error_filename(path));
}

PyObject *
_PyPosix_PathError2(_PyPosixPath *a, _PyPosixPath *b)
{
    int code = errno;
    PyObject *second = error_filename(b);
    if (second == NULL) {
        return _PyPosix_PathError(a);
    }
    PyObject *first = error_filename(a);
    PyObject *message = PyUnicode_DecodeFSDefault(strerror(code));
    if (message == NULL) {
        return NULL;
    }
    /* OSError's fourth argument is winerror, which POSIX leaves out. */
    PyObject *exc = PyObject_CallFunction(PyExc_OSError, "iOOOO", code, message,
                                          first ? first : Py_None, Py_None, second);
    Py_DECREF(message);
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

PyObject *
_PyPosix_Error(void)
{
    return PyErr_SetFromErrno(PyExc_OSError);
}

int
_PyPosix_DirFd(PyObject *obj, int *fd)
{
    *fd = AT_FDCWD;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "argument should be integer or None, not %.200s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    *fd = PyLong_AsInt(obj);
    return (*fd == -1 && PyErr_Occurred()) ? -1 : 0;
}

int
_PyPosix_Fd(PyObject *obj, int *fd)
{
    if (PyBool_Check(obj) &&
        PyErr_WarnEx(PyExc_RuntimeWarning, "bool is used as a file descriptor", 1) < 0) {
        return -1;
    }
    *fd = PyLong_AsInt(obj);
    return (*fd == -1 && PyErr_Occurred()) ? -1 : 0;
}

int
_PyPosix_Int(PyObject *obj, int *out)
{
    *out = PyLong_AsInt(obj);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

int
_PyPosix_Flag(PyObject *obj, int dflt)
{
    return obj == NULL ? dflt : PyObject_IsTrue(obj);
}

/* ---- Environment, errors, randomness ------------------------------------------------------- */

static PyObject *
posix_getrandom(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"size", "flags", NULL};
    PyObject *a[2];
    int flags = 0;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "getrandom", kwlist, 1, 2, 0, a) ||
        (a[1] != NULL && _PyPosix_Int(a[1], &flags) < 0)) {
        return NULL;
    }
    Py_ssize_t size = PyLong_AsSsize_t(a[0]);
    if (size == -1 && PyErr_Occurred()) {
        return NULL;
    }
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
        n = getrandom(PyBytes_AS_STRING(buf), (size_t)size, (unsigned int)flags);
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

/* posix.environ: bytes -> bytes, a snapshot taken at start-up. */
static PyObject *
environ_snapshot(void)
{
    PyObject *d = PyDict_New();
    if (d == NULL) {
        return NULL;
    }
    for (char **entry = environ; entry != NULL && *entry != NULL; entry++) {
        const char *eq = strchr(*entry, '=');
        if (eq == NULL) {
            continue;
        }
        PyObject *k = PyBytes_FromStringAndSize(*entry, eq - *entry);
        PyObject *v = PyBytes_FromString(eq + 1);
        /* The first of duplicated names wins, as getenv() sees it. */
        int err = (k == NULL || v == NULL) ? -1 : PyDict_SetDefaultRef(d, k, v, NULL);
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (err < 0) {
            Py_DECREF(d);
            return NULL;
        }
    }
    return d;
}

/* os.reload_environ() rebuilds os.environ from this. */
static PyObject *
posix__create_environ(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return environ_snapshot();
}

/* An environment name or value: str or bytes (or PathLike), no NUL. */
static int
env_string(PyObject *obj, PyObject **out)
{
    return PyUnicode_FSConverter(obj, out) ? 0 : -1;
}

static PyObject *
posix_putenv(PyObject *m, PyObject *args)
{
    PyObject *name_obj, *value_obj, *name = NULL, *value = NULL;
    if (!PyArg_ParseTuple(args, "OO:putenv", &name_obj, &value_obj)) {
        return NULL;
    }
    PyObject *res = NULL;
    if (env_string(name_obj, &name) < 0 || env_string(value_obj, &value) < 0) {
        goto done;
    }
    /* An empty name is left for setenv() to refuse (EINVAL). */
    const char *n = PyBytes_AS_STRING(name);
    if (strchr(n, '=') != NULL) {
        PyErr_SetString(PyExc_ValueError, "illegal environment variable name");
        goto done;
    }
    if (setenv(n, PyBytes_AS_STRING(value), 1) < 0) {
        _PyPosix_Error();
        goto done;
    }
    res = Py_NewRef(Py_None);
done:
    Py_XDECREF(name);
    Py_XDECREF(value);
    return res;
}

static PyObject *
posix_unsetenv(PyObject *m, PyObject *arg)
{
    PyObject *name = NULL;
    if (env_string(arg, &name) < 0) {
        return NULL;
    }
    /* unsetenv() itself refuses "" and names with "=" (EINVAL). */
    int err = unsetenv(PyBytes_AS_STRING(name));
    Py_DECREF(name);
    if (err < 0) {
        return _PyPosix_Error();
    }
    Py_RETURN_NONE;
}

static PyObject *
posix_strerror(PyObject *m, PyObject *arg)
{
    int code = PyLong_AsInt(arg);
    if (code == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyUnicode_DecodeLocale(strerror(code), "surrogateescape");
}

static PyObject *
posix_urandom(PyObject *m, PyObject *arg)
{
    Py_ssize_t size = PyLong_AsSsize_t(arg);
    if (size == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "negative argument not allowed");
        return NULL;
    }
    PyObject *buf = PyBytes_FromStringAndSize(NULL, size);
    if (buf == NULL) {
        return NULL;
    }
    char *p = PyBytes_AS_STRING(buf);
    for (Py_ssize_t got = 0; got < size;) {
        ssize_t n = getrandom(p + got, (size_t)(size - got), 0);
        if (n < 0) {
            if (errno == EINTR && PyErr_CheckSignals() == 0) {
                continue;
            }
            Py_DECREF(buf);
            return PyErr_Occurred() ? NULL : _PyPosix_Error();
        }
        got += n;
    }
    return buf;
}

/* PyOS_InputHook (Python/interactive.c), for _pyrepl's event loop: a
   GUI toolkit installs it to run its events while the REPL waits. */
static PyObject *
posix__is_inputhook_installed(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    return PyBool_FromLong(PyOS_InputHook != NULL);
}

static PyObject *
posix__inputhook(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    int (*hook)(void) = PyOS_InputHook;
    if (hook != NULL) {
        (void)hook();
    }
    Py_RETURN_NONE;
}

static PyMethodDef core_methods[] = {
    {"_is_inputhook_installed", posix__is_inputhook_installed, METH_NOARGS,
     "Whether PyOS_InputHook is set."},
    {"_inputhook", posix__inputhook, METH_NOARGS, "Call PyOS_InputHook once."},
    {"fspath", (PyCFunction)(void (*)(void))posix_fspath, METH_FASTCALL | METH_KEYWORDS,
     "Return the str or bytes form of a path-like object."},
    {"getrandom", (PyCFunction)(void (*)(void))posix_getrandom, METH_FASTCALL | METH_KEYWORDS,
     "Up to size random bytes from the kernel."},
    {"_create_environ", posix__create_environ, METH_NOARGS, "A new bytes dict of the C environment."},
    {"putenv", posix_putenv, METH_VARARGS, "Set an environment variable."},
    {"unsetenv", posix_unsetenv, METH_O, "Remove an environment variable."},
    {"strerror", posix_strerror, METH_O, "The message for an error number."},
    {"urandom", posix_urandom, METH_O, "n random bytes from the kernel."},
    {NULL, NULL, 0, NULL},
};

/* ---- Module -------------------------------------------------------------------------------- */

typedef struct {
    const char *name;
    long value;
} int_constant;

#define C(name) {#name, (long)(name)}
static const int_constant core_constants[] = {
    C(F_OK), C(R_OK), C(W_OK), C(X_OK),
    C(SEEK_DATA), C(SEEK_HOLE),
    C(O_RDONLY), C(O_WRONLY), C(O_RDWR), C(O_APPEND), C(O_CREAT), C(O_EXCL), C(O_TRUNC),
    C(O_NONBLOCK), C(O_NDELAY), C(O_SYNC), C(O_DSYNC), C(O_RSYNC), C(O_NOCTTY),
    C(O_CLOEXEC), C(O_DIRECTORY), C(O_NOFOLLOW), C(O_ACCMODE), C(O_ASYNC), C(O_DIRECT),
    C(O_LARGEFILE), C(O_NOATIME), C(O_PATH), C(O_TMPFILE),
    C(O_FSYNC), C(TMP_MAX), C(NGROUPS_MAX), C(MFD_CLOEXEC), C(MFD_ALLOW_SEALING), C(MFD_HUGETLB),
    C(POSIX_FADV_NORMAL), C(POSIX_FADV_SEQUENTIAL), C(POSIX_FADV_RANDOM), C(POSIX_FADV_NOREUSE),
    C(POSIX_FADV_WILLNEED), C(POSIX_FADV_DONTNEED),
    C(RWF_DSYNC), C(RWF_HIPRI), C(RWF_SYNC), C(RWF_NOWAIT), C(RWF_APPEND),
    C(EX_OK), C(EX_USAGE), C(EX_DATAERR), C(EX_NOINPUT), C(EX_NOUSER), C(EX_NOHOST),
    C(EX_UNAVAILABLE), C(EX_SOFTWARE), C(EX_OSERR), C(EX_OSFILE), C(EX_CANTCREAT),
    C(EX_IOERR), C(EX_TEMPFAIL), C(EX_PROTOCOL), C(EX_NOPERM), C(EX_CONFIG),
    C(F_LOCK), C(F_TLOCK), C(F_ULOCK), C(F_TEST),
    C(GRND_NONBLOCK), C(GRND_RANDOM),
    {NULL, 0},
};
#undef C

/* The HAVE_* names os.py reads to fill supports_dir_fd, supports_fd and
   supports_follow_symlinks: only what our functions really accept. */
static const char *const have_functions[] = {
    "HAVE_FACCESSAT", "HAVE_FCHDIR", "HAVE_FCHMOD", "HAVE_FCHMODAT", "HAVE_FCHOWN",
    "HAVE_FCHOWNAT", "HAVE_FDOPENDIR", "HAVE_FEXECVE", "HAVE_FPATHCONF", "HAVE_FSTATAT",
    "HAVE_FSTATVFS", "HAVE_FTRUNCATE", "HAVE_FUTIMENS", "HAVE_LINKAT", "HAVE_LCHOWN",
    "HAVE_LSTAT", "HAVE_MEMFD_CREATE", "HAVE_MKDIRAT", "HAVE_MKFIFOAT", "HAVE_MKNODAT",
    "HAVE_OPENAT", "HAVE_READLINKAT", "HAVE_RENAMEAT", "HAVE_SYMLINKAT", "HAVE_UNLINKAT",
    "HAVE_UTIMENSAT",
    NULL,
};

static int
add_constants(PyObject *module, const int_constant *table)
{
    for (; table->name != NULL; table++) {
        if (PyModule_AddIntConstant(module, table->name, table->value) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
add_have_functions(PyObject *module)
{
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return -1;
    }
    for (const char *const *p = have_functions; *p != NULL; p++) {
        PyObject *s = PyUnicode_FromString(*p);
        if (s == NULL || PyList_Append(list, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(list);
            return -1;
        }
        Py_DECREF(s);
    }
    return PyModule_Add(module, "_have_functions", list);
}

static void
posix_free(void *module)
{
    _PyPosix_FiniProcess();
}

static struct PyModuleDef posixmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "posix",
    .m_doc = "The POSIX system calls; use the os module instead.",
    .m_size = -1,
    .m_methods = core_methods,
    .m_free = posix_free,
};

PyObject *
PyInit_posix(void)
{
    PyObject *m = PyModule_Create(&posixmodule);
    if (m == NULL) {
        return NULL;
    }
    if (add_constants(m, core_constants) < 0 || add_have_functions(m) < 0 ||
        PyModule_Add(m, "environ", environ_snapshot()) < 0 ||
        PyModule_AddObjectRef(m, "error", PyExc_OSError) < 0 ||
        _PyPosix_InitFd(m) < 0 || _PyPosix_InitFs(m) < 0 || _PyPosix_InitProcess(m) < 0 || _PyPosix_InitXattr(m) < 0 ||
        _PyPosix_InitPath(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
