/* The posix module's file system calls: os.stat_result and the stat
   family, the calls that make, rename and remove names, permissions and
   times, and directory listing (listdir, scandir with its DirEntry).

   Every call that takes a path also takes dir_fd where the *at() form of
   the system call exists, and follow_symlinks where Linux can honour it. */

#include "posixmodule.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

typedef PyObject *(*fastcall_fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);
#define FASTCALL(f) (PyCFunction)(void (*)(void))(fastcall_fn)(f), METH_FASTCALL | METH_KEYWORDS

/* ---- os.stat_result ------------------------------------------------------------------------ */

static PyStructSequence_Field stat_fields[] = {
    {"st_mode", "file type and permission bits"},
    {"st_ino", "inode number"},
    {"st_dev", "id of the device holding the file"},
    {"st_nlink", "count of hard links"},
    {"st_uid", "owner's user id"},
    {"st_gid", "owner's group id"},
    {"st_size", "size in bytes"},
    /* The integer times are items 7-9 only (stat_result[ST_MTIME]); their
       names become PyStructSequence_UnnamedField at start-up. */
    {"", "access time, whole seconds"},
    {"", "modification time, whole seconds"},
    {"", "status change time, whole seconds"},
    {"st_atime", "access time, seconds as a float"},
    {"st_mtime", "modification time, seconds as a float"},
    {"st_ctime", "status change time, seconds as a float"},
    {"st_atime_ns", "access time, integer nanoseconds"},
    {"st_mtime_ns", "modification time, integer nanoseconds"},
    {"st_ctime_ns", "status change time, integer nanoseconds"},
    {"st_blksize", "preferred I/O block size"},
    {"st_blocks", "512-byte blocks allocated"},
    {"st_rdev", "device number, for device files"},
    {NULL, NULL},
};

static PyStructSequence_Desc stat_desc = {
    "os.stat_result",
    "The result of stat(), fstat() and lstat(): the first ten fields as a tuple,\n"
    "the rest by name only.",
    stat_fields,
    10,
};

static PyTypeObject StatResultType;

/* Seconds and nanoseconds into (int seconds, float seconds, int ns). */
static int
set_time(PyObject *res, int index, struct timespec ts)
{
    PyObject *secs = PyLong_FromLongLong((long long)ts.tv_sec);
    PyObject *billion = PyLong_FromLong(1000000000L);
    PyObject *nsec = PyLong_FromLong(ts.tv_nsec);
    PyObject *scaled = (secs && billion) ? PyNumber_Multiply(secs, billion) : NULL;
    PyObject *total = (scaled && nsec) ? PyNumber_Add(scaled, nsec) : NULL;
    PyObject *flt = PyFloat_FromDouble((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9);
    Py_XDECREF(billion);
    Py_XDECREF(nsec);
    Py_XDECREF(scaled);
    if (secs == NULL || total == NULL || flt == NULL) {
        Py_XDECREF(secs);
        Py_XDECREF(total);
        Py_XDECREF(flt);
        return -1;
    }
    PyStructSequence_SetItem(res, 7 + index, secs);
    PyStructSequence_SetItem(res, 10 + index, flt);
    PyStructSequence_SetItem(res, 13 + index, total);
    return 0;
}

PyObject *
_PyPosix_StatResult(const struct stat *st)
{
    PyObject *res = PyStructSequence_New(&StatResultType);
    if (res == NULL) {
        return NULL;
    }
    unsigned long long plain[] = {
        st->st_mode, st->st_ino, st->st_dev, st->st_nlink, st->st_uid, st->st_gid,
    };
    for (int i = 0; i < 6; i++) {
        PyStructSequence_SetItem(res, i, PyLong_FromUnsignedLongLong(plain[i]));
    }
    PyStructSequence_SetItem(res, 6, PyLong_FromLongLong((long long)st->st_size));
    PyStructSequence_SetItem(res, 16, PyLong_FromLong((long)st->st_blksize));
    PyStructSequence_SetItem(res, 17, PyLong_FromLongLong((long long)st->st_blocks));
    PyStructSequence_SetItem(res, 18, PyLong_FromUnsignedLongLong(st->st_rdev));
    if (set_time(res, 0, st->st_atim) < 0 || set_time(res, 1, st->st_mtim) < 0 ||
        set_time(res, 2, st->st_ctim) < 0) {
        Py_DECREF(res);
        return NULL;
    }
    /* Any NULL item above was a failed allocation. */
    for (int i = 0; i < 19; i++) {
        if (PyStructSequence_GetItem(res, i) == NULL) {
            Py_DECREF(res);
            return NULL;
        }
    }
    return res;
}

/* stat_result(seq[, dict]) from Python: float times left out fall back to
   the integer ones, so a 10-tuple makes a usable result. */
static newfunc structseq_new_func;

static PyObject *
statresult_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *res = structseq_new_func(type, args, kwds);
    if (res == NULL) {
        return NULL;
    }
    for (int i = 0; i < 3; i++) {
        if (PyStructSequence_GetItem(res, 10 + i) == Py_None) {
            PyStructSequence_SetItem(res, 10 + i, Py_NewRef(PyStructSequence_GetItem(res, 7 + i)));
        }
    }
    return res;
}

/* ---- stat, lstat, fstat -------------------------------------------------------------------- */

/* stat() of a converted path: an fd, or a name relative to dir_fd. */
static int
stat_path(_PyPosixPath *path, int dir_fd, int follow, struct stat *st)
{
    if (path->fd >= 0) {
        return fstat(path->fd, st);
    }
    return fstatat(dir_fd, path->name, st, follow ? 0 : AT_SYMLINK_NOFOLLOW);
}

/* An fd argument cannot be combined with dir_fd or follow_symlinks=False. */
static int
check_fd_options(_PyPosixPath *path, int dir_fd, int follow)
{
    if (path->fd < 0) {
        return 0;
    }
    if (dir_fd != AT_FDCWD) {
        PyErr_Format(PyExc_ValueError, "%s: can't specify dir_fd without matching path", path->func);
        return -1;
    }
    if (!follow) {
        PyErr_Format(PyExc_ValueError, "%s: cannot use fd and follow_symlinks together", path->func);
        return -1;
    }
    return 0;
}

static PyObject *
do_stat(const char *func, PyObject *obj, int flags, PyObject *dir_fd_obj, int follow)
{
    _PyPosixPath path = {.func = func, .arg = "path"};
    int dir_fd;
    struct stat st;
    PyObject *res = NULL;
    if (_PyPosix_PathConvert(&path, obj, flags) < 0 || _PyPosix_DirFd(dir_fd_obj, &dir_fd) < 0 ||
        check_fd_options(&path, dir_fd, follow) < 0) {
        goto done;
    }
    if (stat_path(&path, dir_fd, follow, &st) < 0) {
        _PyPosix_PathError(&path);
        goto done;
    }
    res = _PyPosix_StatResult(&st);
done:
    _PyPosix_PathClear(&path);
    return res;
}

static PyObject *
posix_stat(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "dir_fd", "follow_symlinks", NULL};
    PyObject *a[3];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "stat", kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    int follow = _PyPosix_Flag(a[2], 1);
    return follow < 0 ? NULL : do_stat("stat", a[0], _PyPosix_PATH_FD, a[1], follow);
}

static PyObject *
posix_lstat(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "dir_fd", NULL};
    PyObject *a[2];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "lstat", kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    return do_stat("lstat", a[0], 0, a[1], 0);
}

static PyObject *
posix_fstat(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"fd", NULL};
    PyObject *a[1];
    int fd;
    struct stat st;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "fstat", kwlist, 1, 1, 0, a) ||
        _PyPosix_Fd(a[0], &fd) < 0) {
        return NULL;
    }
    if (fstat(fd, &st) < 0) {
        return _PyPosix_Error();
    }
    return _PyPosix_StatResult(&st);
}

/* ---- Calls on one path --------------------------------------------------------------------- */

/* The arguments most path calls share, parsed and converted. */
typedef struct {
    _PyPosixPath path;
    int dir_fd;
    int follow;
} path_call;

static int
path_call_init(path_call *c, const char *func, PyObject *obj, int flags, PyObject *dir_fd,
               PyObject *follow)
{
    c->path = (_PyPosixPath){.func = func, .arg = "path"};
    c->follow = 1;
    c->dir_fd = AT_FDCWD;
    if (_PyPosix_PathConvert(&c->path, obj, flags) < 0 || _PyPosix_DirFd(dir_fd, &c->dir_fd) < 0) {
        return -1;
    }
    c->follow = _PyPosix_Flag(follow, 1);
    if (c->follow < 0) {
        return -1;
    }
    return check_fd_options(&c->path, c->dir_fd, c->follow);
}

/* Finish a call whose system call returned `rc`: None, or OSError. */
static PyObject *
path_call_done(path_call *c, int rc)
{
    PyObject *res = rc < 0 ? _PyPosix_PathError(&c->path) : Py_NewRef(Py_None);
    _PyPosix_PathClear(&c->path);
    return res;
}

static PyObject *
path_call_fail(path_call *c)
{
    _PyPosix_PathClear(&c->path);
    return NULL;
}

static PyObject *
posix_access(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "mode", "dir_fd", "effective_ids", "follow_symlinks", NULL};
    PyObject *a[5];
    path_call c;
    int mode;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "access", kwlist, 2, 2, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, "access", a[0], 0, a[2], a[4]) < 0 || _PyPosix_Int(a[1], &mode) < 0) {
        return path_call_fail(&c);
    }
    int effective = _PyPosix_Flag(a[3], 0);
    if (effective < 0) {
        return path_call_fail(&c);
    }
    int flags = (effective ? AT_EACCESS : 0) | (c.follow ? 0 : AT_SYMLINK_NOFOLLOW);
    int rc = faccessat(c.dir_fd, c.path.name, mode, flags);
    _PyPosix_PathClear(&c.path);
    return PyBool_FromLong(rc == 0);
}

static PyObject *
posix_chdir(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", NULL};
    PyObject *a[1];
    path_call c;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "chdir", kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, "chdir", a[0], _PyPosix_PATH_FD, NULL, NULL) < 0) {
        return path_call_fail(&c);
    }
    return path_call_done(&c, c.path.fd >= 0 ? fchdir(c.path.fd) : chdir(c.path.name));
}

static PyObject *
posix_fchdir(PyObject *m, PyObject *arg)
{
    int fd;
    if (_PyPosix_Fd(arg, &fd) < 0) {
        return NULL;
    }
    return fchdir(fd) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
current_dir(int as_bytes)
{
    char *buf = getcwd(NULL, 0);
    if (buf == NULL) {
        return _PyPosix_Error();
    }
    PyObject *res = as_bytes ? PyBytes_FromString(buf) : PyUnicode_DecodeFSDefault(buf);
    free(buf);
    return res;
}

static PyObject *
posix_getcwd(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return current_dir(0);
}

static PyObject *
posix_getcwdb(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return current_dir(1);
}

/* mkdir and mkfifo: (path, mode=DEFAULT, *, dir_fd=None). */
static PyObject *
make_node(const char *func, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int dflt,
          int is_dir)
{
    static const char *const kwlist[] = {"path", "mode", "dir_fd", NULL};
    PyObject *a[3];
    path_call c;
    int mode = dflt;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, func, kwlist, 1, 2, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, func, a[0], 0, a[2], NULL) < 0 ||
        (a[1] != NULL && _PyPosix_Int(a[1], &mode) < 0)) {
        return path_call_fail(&c);
    }
    int rc = is_dir ? mkdirat(c.dir_fd, c.path.name, (mode_t)mode)
                    : mkfifoat(c.dir_fd, c.path.name, (mode_t)mode);
    return path_call_done(&c, rc);
}

static PyObject *
posix_mkdir(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return make_node("mkdir", args, nargs, kwnames, 0777, 1);
}

static PyObject *
posix_mkfifo(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return make_node("mkfifo", args, nargs, kwnames, 0666, 0);
}

/* rmdir, unlink and remove: (path, *, dir_fd=None). */
static PyObject *
remove_name(const char *func, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int flags)
{
    static const char *const kwlist[] = {"path", "dir_fd", NULL};
    PyObject *a[2];
    path_call c;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, func, kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, func, a[0], 0, a[1], NULL) < 0) {
        return path_call_fail(&c);
    }
    return path_call_done(&c, unlinkat(c.dir_fd, c.path.name, flags));
}

static PyObject *
posix_rmdir(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return remove_name("rmdir", args, nargs, kwnames, AT_REMOVEDIR);
}

static PyObject *
posix_unlink(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return remove_name("unlink", args, nargs, kwnames, 0);
}

static PyObject *
posix_remove(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return remove_name("remove", args, nargs, kwnames, 0);
}

static PyObject *
posix_readlink(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "dir_fd", NULL};
    PyObject *a[2];
    path_call c;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "readlink", kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, "readlink", a[0], 0, a[1], NULL) < 0) {
        return path_call_fail(&c);
    }
    /* Grow the buffer until the target fits with room to spare. */
    PyObject *res = NULL;
    for (size_t size = 256;; size *= 2) {
        char *buf = PyMem_Malloc(size);
        if (buf == NULL) {
            PyErr_NoMemory();
            break;
        }
        ssize_t n = readlinkat(c.dir_fd, c.path.name, buf, size);
        if (n < 0) {
            _PyPosix_PathError(&c.path);
        }
        else if ((size_t)n < size) {
            res = c.path.as_bytes ? PyBytes_FromStringAndSize(buf, n)
                                  : PyUnicode_DecodeFSDefaultAndSize(buf, n);
        }
        PyMem_Free(buf);
        if (n < 0 || (size_t)n < size) {
            break;
        }
    }
    _PyPosix_PathClear(&c.path);
    return res;
}

static PyObject *
posix_chmod(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "mode", "dir_fd", "follow_symlinks", NULL};
    PyObject *a[4];
    path_call c;
    int mode;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "chmod", kwlist, 2, 2, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, "chmod", a[0], _PyPosix_PATH_FD, a[2], a[3]) < 0 ||
        _PyPosix_Int(a[1], &mode) < 0) {
        return path_call_fail(&c);
    }
    if (c.path.fd >= 0) {
        return path_call_done(&c, fchmod(c.path.fd, (mode_t)mode));
    }
    int flags = c.follow ? 0 : AT_SYMLINK_NOFOLLOW;
    return path_call_done(&c, fchmodat(c.dir_fd, c.path.name, (mode_t)mode, flags));
}

static PyObject *
posix_fchmod(PyObject *m, PyObject *args)
{
    int fd, mode;
    if (!PyArg_ParseTuple(args, "ii:fchmod", &fd, &mode)) {
        return NULL;
    }
    return fchmod(fd, (mode_t)mode) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

/* A uid or gid; -1 means "leave unchanged". */
static int
id_arg(PyObject *obj, unsigned int *id)
{
    long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (v < -1 || v > (long long)UINT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "uid/gid out of range");
        return -1;
    }
    *id = (unsigned int)v;
    return 0;
}

static PyObject *
change_owner(const char *func, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int pflags,
             int nofollow)
{
    static const char *const kwlist[] = {"path", "uid", "gid", "dir_fd", "follow_symlinks", NULL};
    PyObject *a[5];
    path_call c;
    unsigned int uid, gid;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, func, kwlist, 3, 3, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, func, a[0], pflags, a[3], a[4]) < 0 || id_arg(a[1], &uid) < 0 ||
        id_arg(a[2], &gid) < 0) {
        return path_call_fail(&c);
    }
    if (c.path.fd >= 0) {
        return path_call_done(&c, fchown(c.path.fd, uid, gid));
    }
    int flags = (c.follow && !nofollow) ? 0 : AT_SYMLINK_NOFOLLOW;
    return path_call_done(&c, fchownat(c.dir_fd, c.path.name, uid, gid, flags));
}

static PyObject *
posix_chown(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return change_owner("chown", args, nargs, kwnames, _PyPosix_PATH_FD, 0);
}

static PyObject *
posix_lchown(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return change_owner("lchown", args, nargs, kwnames, 0, 1);
}

static PyObject *
posix_fchown(PyObject *m, PyObject *args)
{
    int fd;
    PyObject *uo, *go;
    unsigned int uid, gid;
    if (!PyArg_ParseTuple(args, "iOO:fchown", &fd, &uo, &go) || id_arg(uo, &uid) < 0 ||
        id_arg(go, &gid) < 0) {
        return NULL;
    }
    return fchown(fd, uid, gid) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
posix_truncate(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "length", NULL};
    PyObject *a[2];
    path_call c;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "truncate", kwlist, 2, 2, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, "truncate", a[0], _PyPosix_PATH_FD, NULL, NULL) < 0) {
        return path_call_fail(&c);
    }
    long long length = PyLong_AsLongLong(a[1]);
    if (length == -1 && PyErr_Occurred()) {
        return path_call_fail(&c);
    }
    int rc = c.path.fd >= 0 ? ftruncate(c.path.fd, (off_t)length) : truncate(c.path.name, (off_t)length);
    return path_call_done(&c, rc);
}

static PyObject *
posix_ftruncate(PyObject *m, PyObject *args)
{
    int fd;
    long long length;
    if (!PyArg_ParseTuple(args, "iL:ftruncate", &fd, &length)) {
        return NULL;
    }
    return ftruncate(fd, (off_t)length) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
posix_umask(PyObject *m, PyObject *arg)
{
    int mask = PyLong_AsInt(arg);
    if (mask == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyLong_FromLong((long)umask((mode_t)mask));
}

/* ---- utime --------------------------------------------------------------------------------- */

/* A time in seconds (int or float) as a timespec, rounding toward minus
   infinity like the kernel's own clocks. */
static int
time_range_error(void)
{
    PyErr_SetString(PyExc_OverflowError, "timestamp out of range for platform time_t");
    return -1;
}

static int
seconds_to_timespec(PyObject *obj, struct timespec *ts)
{
    if (PyFloat_Check(obj)) {
        double d = PyFloat_AsDouble(obj);
        if (isnan(d)) {
            PyErr_SetString(PyExc_ValueError, "Invalid value NaN (not a number)");
            return -1;
        }
        /* time_t is 64-bit: beyond +-2**63 the cast would be undefined. */
        if (!(d > -9.2e18 && d < 9.2e18)) {
            return time_range_error();
        }
        double whole = floor(d);
        ts->tv_sec = (time_t)whole;
        ts->tv_nsec = (long)((d - whole) * 1e9);
        if (ts->tv_nsec >= 1000000000L) {
            ts->tv_sec++;
            ts->tv_nsec -= 1000000000L;
        }
        return 0;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow) {
        return time_range_error();
    }
    ts->tv_sec = (time_t)v;
    ts->tv_nsec = 0;
    return 0;
}

static int
ns_to_timespec(PyObject *obj, struct timespec *ts)
{
    PyObject *billion = PyLong_FromLong(1000000000L);
    if (billion == NULL) {
        return -1;
    }
    PyObject *qr = PyNumber_Divmod(obj, billion);
    Py_DECREF(billion);
    if (qr == NULL) {
        return -1;
    }
    long long secs = PyLong_AsLongLong(PyTuple_GET_ITEM(qr, 0));
    long nsec = PyLong_AsLong(PyTuple_GET_ITEM(qr, 1));
    Py_DECREF(qr);
    if (PyErr_Occurred()) {
        return -1;
    }
    ts->tv_sec = (time_t)secs;
    ts->tv_nsec = nsec;
    return 0;
}

/* times=(atime, mtime) or ns=(atime_ns, mtime_ns) into two timespecs. */
static int
utime_pair(const char *what, PyObject *pair, int (*conv)(PyObject *, struct timespec *),
           struct timespec out[2])
{
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_Format(PyExc_TypeError, "utime: '%s' must be %s", what,
                     conv == ns_to_timespec ? "a tuple of two ints" : "either a tuple of two ints or None");
        return -1;
    }
    if (conv == ns_to_timespec &&
        (!PyLong_Check(PyTuple_GET_ITEM(pair, 0)) || !PyLong_Check(PyTuple_GET_ITEM(pair, 1)))) {
        PyErr_SetString(PyExc_TypeError, "utime: 'ns' must be a tuple of two ints");
        return -1;
    }
    return (conv(PyTuple_GET_ITEM(pair, 0), &out[0]) < 0 || conv(PyTuple_GET_ITEM(pair, 1), &out[1]) < 0)
               ? -1 : 0;
}

static int
utime_times(PyObject *times, PyObject *ns, struct timespec ts[2])
{
    int has_times = times != NULL && times != Py_None;
    if (has_times && ns != NULL) {
        PyErr_SetString(PyExc_ValueError, "utime: you may specify either 'times' or 'ns' but not both");
        return -1;
    }
    if (has_times) {
        return utime_pair("times", times, seconds_to_timespec, ts);
    }
    if (ns != NULL) {
        return utime_pair("ns", ns, ns_to_timespec, ts);
    }
    ts[0].tv_nsec = ts[1].tv_nsec = UTIME_NOW;
    ts[0].tv_sec = ts[1].tv_sec = 0;
    return 0;
}

static PyObject *
posix_utime(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "times", "ns", "dir_fd", "follow_symlinks", NULL};
    PyObject *a[5];
    path_call c;
    struct timespec ts[2];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "utime", kwlist, 1, 2, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, "utime", a[0], _PyPosix_PATH_FD, a[3], a[4]) < 0 ||
        utime_times(a[1], a[2], ts) < 0) {
        return path_call_fail(&c);
    }
    if (c.path.fd >= 0) {
        return path_call_done(&c, futimens(c.path.fd, ts));
    }
    int flags = c.follow ? 0 : AT_SYMLINK_NOFOLLOW;
    return path_call_done(&c, utimensat(c.dir_fd, c.path.name, ts, flags));
}

/* ---- Calls on two paths -------------------------------------------------------------------- */

typedef struct {
    _PyPosixPath src, dst;
    int src_dir_fd, dst_dir_fd;
} two_paths;

static int
two_paths_init(two_paths *t, const char *func, PyObject *src, PyObject *dst, PyObject *src_dir_fd,
               PyObject *dst_dir_fd)
{
    t->src = (_PyPosixPath){.func = func, .arg = "src"};
    t->dst = (_PyPosixPath){.func = func, .arg = "dst"};
    if (_PyPosix_PathConvert(&t->src, src, 0) < 0 || _PyPosix_PathConvert(&t->dst, dst, 0) < 0 ||
        _PyPosix_DirFd(src_dir_fd, &t->src_dir_fd) < 0 || _PyPosix_DirFd(dst_dir_fd, &t->dst_dir_fd) < 0) {
        return -1;
    }
    return 0;
}

static PyObject *
two_paths_done(two_paths *t, int rc)
{
    PyObject *res = rc < 0 ? _PyPosix_PathError2(&t->src, &t->dst) : Py_NewRef(Py_None);
    _PyPosix_PathClear(&t->src);
    _PyPosix_PathClear(&t->dst);
    return res;
}

static PyObject *
move_name(const char *func, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"src", "dst", "src_dir_fd", "dst_dir_fd", NULL};
    PyObject *a[4];
    two_paths t;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, func, kwlist, 2, 2, 0, a)) {
        return NULL;
    }
    if (two_paths_init(&t, func, a[0], a[1], a[2], a[3]) < 0) {
        _PyPosix_PathClear(&t.src);
        _PyPosix_PathClear(&t.dst);
        return NULL;
    }
    return two_paths_done(&t, renameat(t.src_dir_fd, t.src.name, t.dst_dir_fd, t.dst.name));
}

static PyObject *
posix_rename(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return move_name("rename", args, nargs, kwnames);
}

static PyObject *
posix_replace(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return move_name("replace", args, nargs, kwnames);
}

static PyObject *
posix_link(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"src", "dst", "src_dir_fd", "dst_dir_fd", "follow_symlinks", NULL};
    PyObject *a[5];
    two_paths t;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "link", kwlist, 2, 2, 0, a)) {
        return NULL;
    }
    int follow = _PyPosix_Flag(a[4], 1);
    if (follow < 0 || two_paths_init(&t, "link", a[0], a[1], a[2], a[3]) < 0) {
        if (follow >= 0) {
            _PyPosix_PathClear(&t.src);
            _PyPosix_PathClear(&t.dst);
        }
        return NULL;
    }
    int flags = follow ? AT_SYMLINK_FOLLOW : 0;
    return two_paths_done(&t, linkat(t.src_dir_fd, t.src.name, t.dst_dir_fd, t.dst.name, flags));
}

static PyObject *
posix_symlink(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"src", "dst", "target_is_directory", "dir_fd", NULL};
    PyObject *a[4];
    two_paths t;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "symlink", kwlist, 2, 3, 0, a)) {
        return NULL;
    }
    /* target_is_directory only matters on Windows. */
    if (two_paths_init(&t, "symlink", a[0], a[1], NULL, a[3]) < 0) {
        _PyPosix_PathClear(&t.src);
        _PyPosix_PathClear(&t.dst);
        return NULL;
    }
    return two_paths_done(&t, symlinkat(t.src.name, t.dst_dir_fd, t.dst.name));
}

/* ---- listdir ------------------------------------------------------------------------------- */

static int
is_dot_or_dotdot(const char *name)
{
    return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

/* Open a directory stream for a path or an fd.  An fd is duplicated so
   closedir() leaves the caller's descriptor open, and rewound so every
   listing starts from the beginning. */
static DIR *
open_dir(_PyPosixPath *path)
{
    if (path->fd < 0) {
        return opendir(path->name);
    }
    int fd = fcntl(path->fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) {
        return NULL;
    }
    DIR *dir = fdopendir(fd);
    if (dir == NULL) {
        int saved = errno;
        close(fd);
        errno = saved;
        return NULL;
    }
    rewinddir(dir);
    return dir;
}

/* The next entry other than . and ..; NULL at the end (errno 0) or on error. */
static struct dirent *
next_entry(DIR *dir)
{
    for (;;) {
        errno = 0;
        struct dirent *ent = readdir(dir);
        if (ent == NULL || !is_dot_or_dotdot(ent->d_name)) {
            return ent;
        }
    }
}

static PyObject *
entry_name(const char *name, int as_bytes)
{
    return as_bytes ? PyBytes_FromString(name) : PyUnicode_DecodeFSDefault(name);
}

static PyObject *
posix_listdir(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", NULL};
    PyObject *a[1];
    _PyPosixPath path = {.func = "listdir", .arg = "path"};
    PyObject *list = NULL;
    DIR *dir = NULL;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "listdir", kwlist, 0, 1, 0, a)) {
        return NULL;
    }
    if (_PyPosix_PathConvert(&path, a[0], _PyPosix_PATH_FD | _PyPosix_PATH_NONE) < 0) {
        goto done;
    }
    dir = open_dir(&path);
    if (dir == NULL) {
        _PyPosix_PathError(&path);
        goto done;
    }
    list = PyList_New(0);
    struct dirent *ent;
    while (list != NULL && (ent = next_entry(dir)) != NULL) {
        PyObject *name = entry_name(ent->d_name, path.as_bytes);
        if (name == NULL || PyList_Append(list, name) < 0) {
            Py_CLEAR(list);
        }
        Py_XDECREF(name);
    }
    if (list != NULL && errno != 0) {
        Py_CLEAR(list);
        _PyPosix_PathError(&path);
    }
done:
    if (dir != NULL) {
        closedir(dir);
    }
    _PyPosix_PathClear(&path);
    return list;
}

/* ---- DirEntry ------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    PyObject *name;     /* str or bytes, like the scandir() argument */
    PyObject *path;     /* name joined to the directory (just name for an fd) */
    PyObject *stat;     /* cached stat() result, or NULL */
    PyObject *lstat;    /* cached lstat() result, or NULL */
    unsigned char d_type;
    ino_t d_ino;
    int dir_fd;         /* the directory's fd when scandir() got one, else -1 */
} DirEntryObject;

static PyTypeObject DirEntryType;

static void
direntry_dealloc(PyObject *op)
{
    DirEntryObject *e = (DirEntryObject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(e->name);
    Py_XDECREF(e->path);
    Py_XDECREF(e->stat);
    Py_XDECREF(e->lstat);
    PyObject_GC_Del(op);
}

static int
direntry_traverse(PyObject *op, visitproc visit, void *arg)
{
    DirEntryObject *e = (DirEntryObject *)op;
    Py_VISIT(e->stat);
    Py_VISIT(e->lstat);
    return 0;
}

/* stat or lstat of the entry, fetched once and then cached. */
static PyObject *
direntry_fetch(DirEntryObject *e, int follow)
{
    PyObject **slot = follow ? &e->stat : &e->lstat;
    if (*slot != NULL) {
        return Py_NewRef(*slot);
    }
    PyObject *encoded = NULL;
    if (!PyUnicode_FSConverter(e->dir_fd >= 0 ? e->name : e->path, &encoded)) {
        return NULL;
    }
    struct stat st;
    int rc = fstatat(e->dir_fd >= 0 ? e->dir_fd : AT_FDCWD, PyBytes_AS_STRING(encoded), &st,
                     follow ? 0 : AT_SYMLINK_NOFOLLOW);
    Py_DECREF(encoded);
    if (rc < 0) {
        return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, e->path);
    }
    *slot = _PyPosix_StatResult(&st);
    return Py_XNewRef(*slot);
}

/* Whether the entry is a symlink, from d_type when the file system gave one. */
static int
direntry_test_link(DirEntryObject *e)
{
    if (e->d_type != DT_UNKNOWN) {
        return e->d_type == DT_LNK;
    }
    PyObject *st = direntry_fetch(e, 0);
    if (st == NULL) {
        return -1;
    }
    long mode = PyLong_AsLong(PyStructSequence_GetItem(st, 0));
    Py_DECREF(st);
    return S_ISLNK(mode);
}

/* The entry's file type bits (S_IFMT), following links when asked; -2
   when the file has gone (which the is_*() methods answer with False). */
static long
direntry_kind(DirEntryObject *e, int follow)
{
    if (e->d_type != DT_UNKNOWN && !(follow && e->d_type == DT_LNK)) {
        return (long)DTTOIF(e->d_type);
    }
    PyObject *st = direntry_fetch(e, follow);
    if (st == NULL) {
        if (PyErr_ExceptionMatches(PyExc_FileNotFoundError)) {
            PyErr_Clear();
            return -2;
        }
        return -1;
    }
    long mode = PyLong_AsLong(PyStructSequence_GetItem(st, 0));
    Py_DECREF(st);
    return mode & S_IFMT;
}

static int
follow_kwarg(const char *func, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"follow_symlinks", NULL};
    PyObject *a[1];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, func, kwlist, 0, 0, 0, a)) {
        return -1;
    }
    return _PyPosix_Flag(a[0], 1);
}

static PyObject *
direntry_is_kind(PyObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                 const char *func, long want)
{
    int follow = follow_kwarg(func, args, nargs, kwnames);
    if (follow < 0) {
        return NULL;
    }
    long kind = direntry_kind((DirEntryObject *)op, follow);
    if (kind == -1) {
        return NULL;
    }
    return PyBool_FromLong(kind == want);
}

static PyObject *
direntry_is_dir(PyObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return direntry_is_kind(op, args, nargs, kwnames, "is_dir", S_IFDIR);
}

static PyObject *
direntry_is_file(PyObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return direntry_is_kind(op, args, nargs, kwnames, "is_file", S_IFREG);
}

static PyObject *
direntry_is_symlink(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    int res = direntry_test_link((DirEntryObject *)op);
    return res < 0 ? NULL : PyBool_FromLong(res);
}

static PyObject *
direntry_is_junction(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_FALSE;
}

static PyObject *
direntry_stat(PyObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    DirEntryObject *e = (DirEntryObject *)op;
    int follow = follow_kwarg("stat", args, nargs, kwnames);
    if (follow < 0) {
        return NULL;
    }
    if (follow) {
        int link = direntry_test_link(e);
        if (link < 0) {
            return NULL;
        }
        /* Not a link: stat and lstat agree, so share one cache slot. */
        if (!link) {
            if (e->stat == NULL) {
                PyObject *st = direntry_fetch(e, 0);
                if (st == NULL) {
                    return NULL;
                }
                e->stat = st;
            }
            return Py_NewRef(e->stat);
        }
    }
    return direntry_fetch(e, follow);
}

static PyObject *
direntry_inode(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLongLong((unsigned long long)((DirEntryObject *)op)->d_ino);
}

static PyObject *
direntry_fspath(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return Py_NewRef(((DirEntryObject *)op)->path);
}

static PyObject *
direntry_repr(PyObject *op)
{
    return PyUnicode_FromFormat("<DirEntry %R>", ((DirEntryObject *)op)->name);
}

static PyMethodDef direntry_methods[] = {
    {"is_dir", FASTCALL(direntry_is_dir), "Whether the entry is a directory (or a link to one)."},
    {"is_file", FASTCALL(direntry_is_file), "Whether the entry is a regular file (or a link to one)."},
    {"is_symlink", direntry_is_symlink, METH_NOARGS, "Whether the entry is a symbolic link."},
    {"is_junction", direntry_is_junction, METH_NOARGS, "Always False: junctions are Windows'."},
    {"stat", FASTCALL(direntry_stat), "The entry's stat_result, cached."},
    {"inode", direntry_inode, METH_NOARGS, "The entry's inode number."},
    {"__fspath__", direntry_fspath, METH_NOARGS, "The entry's path."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef direntry_members[] = {
    {"name", _Py_T_OBJECT, offsetof(DirEntryObject, name), Py_READONLY, "the entry's base name"},
    {"path", _Py_T_OBJECT, offsetof(DirEntryObject, path), Py_READONLY, "the entry's full path"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject DirEntryType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "posix.DirEntry",
    .tp_basicsize = sizeof(DirEntryObject),
    .tp_dealloc = direntry_dealloc,
    .tp_repr = direntry_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "One entry of a scandir() listing.",
    .tp_traverse = direntry_traverse,
    .tp_methods = direntry_methods,
    .tp_members = direntry_members,
    .tp_free = PyObject_GC_Del,
};

/* ---- scandir ------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    DIR *dir;           /* NULL once closed or exhausted */
    PyObject *prefix;   /* directory name as str/bytes, or NULL for an fd */
    int as_bytes;
    int fd;             /* the fd given to scandir(), else -1 */
} ScandirObject;

static PyTypeObject ScandirType;

static void
scandir_close_dir(ScandirObject *it)
{
    if (it->dir != NULL) {
        closedir(it->dir);
        it->dir = NULL;
    }
}

static void
scandir_dealloc(PyObject *op)
{
    ScandirObject *it = (ScandirObject *)op;
    scandir_close_dir(it);
    Py_XDECREF(it->prefix);
    PyObject_Free(op);
}

/* prefix + "/" + name, without doubling a trailing slash. */
static PyObject *
join_path(ScandirObject *it, PyObject *name)
{
    if (it->prefix == NULL) {
        return Py_NewRef(name);
    }
    Py_ssize_t n = it->as_bytes ? PyBytes_GET_SIZE(it->prefix) : PyUnicode_GET_LENGTH(it->prefix);
    int slash = n > 0 && (it->as_bytes ? PyBytes_AS_STRING(it->prefix)[n - 1] == '/'
                                       : PyUnicode_READ_CHAR(it->prefix, n - 1) == '/');
    if (it->as_bytes) {
        return PyBytes_FromFormat("%s%s%s", PyBytes_AS_STRING(it->prefix), slash ? "" : "/",
                                  PyBytes_AS_STRING(name));
    }
    return PyUnicode_FromFormat("%U%s%U", it->prefix, slash ? "" : "/", name);
}

static PyObject *
make_entry(ScandirObject *it, struct dirent *ent)
{
    DirEntryObject *e = PyObject_GC_New(DirEntryObject, &DirEntryType);
    if (e == NULL) {
        return NULL;
    }
    e->stat = e->lstat = NULL;
    e->d_type = ent->d_type;
    e->d_ino = ent->d_ino;
    e->dir_fd = it->fd;
    e->path = NULL;
    e->name = entry_name(ent->d_name, it->as_bytes);
    if (e->name != NULL) {
        e->path = join_path(it, e->name);
    }
    if (e->path == NULL) {
        Py_DECREF(e);
        return NULL;
    }
    PyObject_GC_Track(e);
    return (PyObject *)e;
}

static PyObject *
scandir_next(PyObject *op)
{
    ScandirObject *it = (ScandirObject *)op;
    if (it->dir == NULL) {
        return NULL;
    }
    struct dirent *ent = next_entry(it->dir);
    if (ent == NULL) {
        int code = errno;
        scandir_close_dir(it);
        if (code != 0) {
            errno = code;
            return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, it->prefix);
        }
        return NULL;
    }
    return make_entry(it, ent);
}

static PyObject *
scandir_close(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    scandir_close_dir((ScandirObject *)op);
    Py_RETURN_NONE;
}

static PyObject *
scandir_enter(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return Py_NewRef(op);
}

static PyObject *
scandir_exit(PyObject *op, PyObject *Py_UNUSED(args))
{
    scandir_close_dir((ScandirObject *)op);
    Py_RETURN_FALSE;
}

static PyMethodDef scandir_methods[] = {
    {"close", scandir_close, METH_NOARGS, "Release the directory stream."},
    {"__enter__", scandir_enter, METH_NOARGS, NULL},
    {"__exit__", scandir_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ScandirType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "posix.ScandirIterator",
    .tp_basicsize = sizeof(ScandirObject),
    .tp_dealloc = scandir_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "Iterator over DirEntry objects for one directory.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = scandir_next,
    .tp_methods = scandir_methods,
    .tp_free = PyObject_Free,
};

static PyObject *
posix_scandir(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", NULL};
    PyObject *a[1];
    _PyPosixPath path = {.func = "scandir", .arg = "path"};
    ScandirObject *it = NULL;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "scandir", kwlist, 0, 1, 0, a)) {
        return NULL;
    }
    if (_PyPosix_PathConvert(&path, a[0], _PyPosix_PATH_FD | _PyPosix_PATH_NONE) < 0) {
        goto done;
    }
    it = PyObject_New(ScandirObject, &ScandirType);
    if (it == NULL) {
        goto done;
    }
    it->as_bytes = path.as_bytes;
    it->fd = path.fd;
    /* scandir() without an argument names its entries "./name", as os.walk expects. */
    it->prefix = path.fd >= 0 ? NULL
                              : (path.object == Py_None ? PyUnicode_FromString(".") : Py_NewRef(path.object));
    it->dir = open_dir(&path);
    if (it->dir == NULL) {
        _PyPosix_PathError(&path);
        Py_CLEAR(it);
    }
done:
    _PyPosix_PathClear(&path);
    return (PyObject *)it;
}

/* ---- statvfs, device numbers, mknod ------------------------------------------------------- */

static PyStructSequence_Field statvfs_fields[] = {
    {"f_bsize", "file system block size"},
    {"f_frsize", "fragment size"},
    {"f_blocks", "size in f_frsize units"},
    {"f_bfree", "free blocks"},
    {"f_bavail", "free blocks an unprivileged user may use"},
    {"f_files", "inode count"},
    {"f_ffree", "free inodes"},
    {"f_favail", "free inodes an unprivileged user may use"},
    {"f_flag", "mount flags (ST_*)"},
    {"f_namemax", "longest file name allowed"},
    {"f_fsid", "file system id"},
    {NULL, NULL},
};

static PyStructSequence_Desc statvfs_desc = {
    "os.statvfs_result", "The result of statvfs() and fstatvfs().", statvfs_fields, 10,
};

static PyTypeObject StatvfsResultType;

static PyObject *
statvfs_result(const struct statvfs *v)
{
    unsigned long long values[] = {
        v->f_bsize, v->f_frsize, v->f_blocks, v->f_bfree, v->f_bavail, v->f_files,
        v->f_ffree, v->f_favail, v->f_flag, v->f_namemax, v->f_fsid,
    };
    PyObject *res = PyStructSequence_New(&StatvfsResultType);
    for (int i = 0; res != NULL && i < 11; i++) {
        PyObject *item = PyLong_FromUnsignedLongLong(values[i]);
        if (item == NULL) {
            Py_CLEAR(res);
            break;
        }
        PyStructSequence_SetItem(res, i, item);
    }
    return res;
}

static PyObject *
posix_statvfs(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", NULL};
    PyObject *a[1];
    path_call c;
    struct statvfs v;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "statvfs", kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, "statvfs", a[0], _PyPosix_PATH_FD, NULL, NULL) < 0) {
        return path_call_fail(&c);
    }
    int rc = c.path.fd >= 0 ? fstatvfs(c.path.fd, &v) : statvfs(c.path.name, &v);
    if (rc < 0) {
        return path_call_done(&c, rc);
    }
    _PyPosix_PathClear(&c.path);
    return statvfs_result(&v);
}

static PyObject *
posix_fstatvfs(PyObject *m, PyObject *arg)
{
    int fd;
    struct statvfs v;
    if (_PyPosix_Fd(arg, &fd) < 0) {
        return NULL;
    }
    if (fstatvfs(fd, &v) < 0) {
        return _PyPosix_Error();
    }
    return statvfs_result(&v);
}

static int
device_arg(PyObject *obj, dev_t *dev)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    *dev = (dev_t)v;
    return 0;
}

static PyObject *
posix_major(PyObject *m, PyObject *arg)
{
    dev_t dev;
    return device_arg(arg, &dev) < 0 ? NULL : PyLong_FromUnsignedLong(major(dev));
}

static PyObject *
posix_minor(PyObject *m, PyObject *arg)
{
    dev_t dev;
    return device_arg(arg, &dev) < 0 ? NULL : PyLong_FromUnsignedLong(minor(dev));
}

static PyObject *
posix_makedev(PyObject *m, PyObject *args)
{
    unsigned int maj, min;
    if (!PyArg_ParseTuple(args, "II:makedev", &maj, &min)) {
        return NULL;
    }
    return PyLong_FromUnsignedLongLong((unsigned long long)makedev(maj, min));
}

static PyObject *
posix_mknod(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "mode", "device", "dir_fd", NULL};
    PyObject *a[4];
    path_call c;
    int mode = 0600;
    dev_t dev = 0;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "mknod", kwlist, 1, 3, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, "mknod", a[0], 0, a[3], NULL) < 0 ||
        (a[1] != NULL && _PyPosix_Int(a[1], &mode) < 0) || (a[2] != NULL && device_arg(a[2], &dev) < 0)) {
        return path_call_fail(&c);
    }
    return path_call_done(&c, mknodat(c.dir_fd, c.path.name, (mode_t)mode, dev));
}

static PyObject *
posix_chroot(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", NULL};
    PyObject *a[1];
    path_call c;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "chroot", kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    if (path_call_init(&c, "chroot", a[0], 0, NULL, NULL) < 0) {
        return path_call_fail(&c);
    }
    return path_call_done(&c, chroot(c.path.name));
}

static PyObject *
posix_sync(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    sync();
    Py_RETURN_NONE;
}

/* ---- Module part --------------------------------------------------------------------------- */

static PyMethodDef fs_methods[] = {
    {"stat", FASTCALL(posix_stat), "Status of a path or file descriptor, as a stat_result."},
    {"lstat", FASTCALL(posix_lstat), "Like stat(), but a symbolic link is not followed."},
    {"fstat", FASTCALL(posix_fstat), "Status of an open file descriptor."},
    {"access", FASTCALL(posix_access), "Whether the real user may use the path in `mode`."},
    {"chdir", FASTCALL(posix_chdir), "Change the current working directory."},
    {"fchdir", posix_fchdir, METH_O, "Change to the directory open as fd."},
    {"getcwd", posix_getcwd, METH_NOARGS, "The current working directory, as str."},
    {"getcwdb", posix_getcwdb, METH_NOARGS, "The current working directory, as bytes."},
    {"mkdir", FASTCALL(posix_mkdir), "Make a directory."},
    {"mkfifo", FASTCALL(posix_mkfifo), "Make a named pipe."},
    {"rmdir", FASTCALL(posix_rmdir), "Remove an empty directory."},
    {"unlink", FASTCALL(posix_unlink), "Remove a file."},
    {"remove", FASTCALL(posix_remove), "Remove a file (the same as unlink)."},
    {"rename", FASTCALL(posix_rename), "Rename src to dst."},
    {"replace", FASTCALL(posix_replace), "Rename src to dst, replacing dst."},
    {"link", FASTCALL(posix_link), "Make a hard link dst to src."},
    {"symlink", FASTCALL(posix_symlink), "Make a symbolic link dst pointing to src."},
    {"readlink", FASTCALL(posix_readlink), "The target of a symbolic link."},
    {"chmod", FASTCALL(posix_chmod), "Change a path's mode bits."},
    {"fchmod", posix_fchmod, METH_VARARGS, "Change the mode bits of an open file."},
    {"chown", FASTCALL(posix_chown), "Change a path's owner and group."},
    {"lchown", FASTCALL(posix_lchown), "chown() without following symbolic links."},
    {"fchown", posix_fchown, METH_VARARGS, "Change the owner and group of an open file."},
    {"truncate", FASTCALL(posix_truncate), "Cut or extend a file to a length."},
    {"ftruncate", posix_ftruncate, METH_VARARGS, "Cut or extend an open file to a length."},
    {"umask", posix_umask, METH_O, "Set the file creation mask; return the old one."},
    {"utime", FASTCALL(posix_utime), "Set access and modification times."},
    {"listdir", FASTCALL(posix_listdir), "The names in a directory, without . and .."},
    {"scandir", FASTCALL(posix_scandir), "An iterator of DirEntry objects for a directory."},
    {"statvfs", FASTCALL(posix_statvfs), "File system statistics for a path, as a statvfs_result."},
    {"fstatvfs", posix_fstatvfs, METH_O, "File system statistics for an open file."},
    {"major", posix_major, METH_O, "The major number of a device number."},
    {"minor", posix_minor, METH_O, "The minor number of a device number."},
    {"makedev", posix_makedev, METH_VARARGS, "A device number from major and minor numbers."},
    {"mknod", FASTCALL(posix_mknod), "Make a file system node (file, device or named pipe)."},
    {"chroot", FASTCALL(posix_chroot), "Change the root directory of this process."},
    {"sync", posix_sync, METH_NOARGS, "Flush all file system buffers to disk."},
    {NULL, NULL, 0, NULL},
};

#define C(name) {#name, (long)(name)}
static const struct {
    const char *name;
    long value;
} fs_constants[] = {
    C(ST_RDONLY), C(ST_NOSUID), C(ST_NODEV), C(ST_NOEXEC), C(ST_SYNCHRONOUS), C(ST_MANDLOCK),
    C(ST_WRITE), C(ST_APPEND), C(ST_NOATIME), C(ST_NODIRATIME), C(ST_RELATIME),
    {NULL, 0},
};
#undef C

int
_PyPosix_InitFs(PyObject *module)
{
    for (int i = 7; i < 10; i++) {
        stat_fields[i].name = PyStructSequence_UnnamedField;
    }
    if (PyStructSequence_InitType2(&StatResultType, &stat_desc) < 0 ||
        PyStructSequence_InitType2(&StatvfsResultType, &statvfs_desc) < 0 ||
        PyType_Ready(&DirEntryType) < 0 || PyType_Ready(&ScandirType) < 0) {
        return -1;
    }
    if (structseq_new_func == NULL) {
        structseq_new_func = StatResultType.tp_new;
        StatResultType.tp_new = statresult_new;
    }
    if (_PyStaticType_InitBuiltin(&StatResultType) < 0 || _PyStaticType_InitBuiltin(&StatvfsResultType) < 0 ||
        _PyStaticType_InitBuiltin(&DirEntryType) < 0 || _PyStaticType_InitBuiltin(&ScandirType) < 0) {
        return -1;
    }
    if (PyModule_AddFunctions(module, fs_methods) < 0 ||
        PyModule_AddObjectRef(module, "stat_result", (PyObject *)&StatResultType) < 0 ||
        PyModule_AddObjectRef(module, "DirEntry", (PyObject *)&DirEntryType) < 0 ||
        PyModule_AddObjectRef(module, "statvfs_result", (PyObject *)&StatvfsResultType) < 0) {
        return -1;
    }
    for (int i = 0; fs_constants[i].name != NULL; i++) {
        if (PyModule_AddIntConstant(module, fs_constants[i].name, fs_constants[i].value) < 0) {
            return -1;
        }
    }
    return 0;
}
