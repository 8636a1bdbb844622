/* `_posixsubprocess.fork_exec`: the fork-and-exec at the heart of
   subprocess.Popen on POSIX.

   Everything that allocates or may fail in Python terms (converting the
   arguments, the environment, the file descriptors to keep) is done in
   the parent before fork(); the child only makes system calls, then
   either execs or reports why it could not through the error pipe, as
   "ExceptionName:hex errno:detail" (the format subprocess.py parses),
   and exits with status 255. */

#include "Python.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- Arguments, converted in the parent -------------------------------------------- */

/* A NULL-terminated char* array over bytes objects the struct owns. */
typedef struct {
    char **items;
    PyObject *owners; /* list of the bytes objects */
} c_strings;

static void
c_strings_clear(c_strings *s)
{
    PyMem_Free(s->items);
    Py_CLEAR(s->owners);
    s->items = NULL;
}

/* From a sequence of str / bytes / path-like (None: leaves items NULL). */
static int
c_strings_from(c_strings *s, PyObject *seq, const char *what)
{
    s->items = NULL;
    s->owners = NULL;
    if (seq == Py_None) {
        return 0;
    }
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    s->owners = PyList_New(0);
    s->items = PyMem_Calloc((size_t)n + 1, sizeof(char *));
    if (s->owners == NULL || s->items == NULL) {
        Py_DECREF(fast);
        c_strings_clear(s);
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *encoded = NULL;
        if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(fast, i), &encoded) ||
            PyList_Append(s->owners, encoded) < 0) {
            Py_XDECREF(encoded);
            Py_DECREF(fast);
            c_strings_clear(s);
            return -1;
        }
        s->items[i] = PyBytes_AS_STRING(encoded);
        Py_DECREF(encoded);
    }
    Py_DECREF(fast);
    return 0;
}

/* The sorted tuple of fds the child keeps open. */
static int
read_fds_to_keep(PyObject *tuple, int **fds, Py_ssize_t *count)
{
    if (!PyTuple_Check(tuple)) {
        PyErr_SetString(PyExc_TypeError, "fds_to_keep must be a tuple");
        return -1;
    }
    *count = PyTuple_GET_SIZE(tuple);
    *fds = PyMem_Malloc(((size_t)*count + 1) * sizeof(int));
    if (*fds == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int previous = -1;
    for (Py_ssize_t i = 0; i < *count; i++) {
        int fd = PyLong_AsInt(PyTuple_GET_ITEM(tuple, i));
        if ((fd == -1 && PyErr_Occurred()) || fd < 0 || fd <= previous) {
            PyMem_Free(*fds);
            *fds = NULL;
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "bad value(s) in fds_to_keep");
            }
            return -1;
        }
        (*fds)[i] = previous = fd;
    }
    return 0;
}

/* A uid/gid argument: None is -1 ("leave it"). */
static int
read_id(PyObject *obj, long *out)
{
    if (obj == Py_None) {
        *out = -1;
        return 0;
    }
    *out = PyLong_AsLong(obj);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int
read_groups(PyObject *obj, gid_t **groups, Py_ssize_t *count)
{
    *groups = NULL;
    *count = -1;
    if (obj == Py_None) {
        return 0;
    }
    if (!PyList_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "extra_groups must be a list");
        return -1;
    }
    *count = PyList_GET_SIZE(obj);
    *groups = PyMem_Malloc(((size_t)*count + 1) * sizeof(gid_t));
    if (*groups == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < *count; i++) {
        long gid = PyLong_AsLong(PyList_GET_ITEM(obj, i));
        if (gid == -1 && PyErr_Occurred()) {
            PyMem_Free(*groups);
            *groups = NULL;
            return -1;
        }
        (*groups)[i] = (gid_t)gid;
    }
    return 0;
}

/* ---- The child ------------------------------------------------------------------------ */

typedef struct {
    char **argv;
    char **executables;
    char **envp;           /* NULL: inherit the parent's environment */
    const char *cwd;
    const int *fds_to_keep;
    Py_ssize_t nfds_to_keep;
    int close_fds;
    int p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite;
    int errpipe_read, errpipe_write;
    int restore_signals, call_setsid;
    long pgid_to_set, gid, uid;
    const gid_t *groups;
    Py_ssize_t ngroups;    /* -1: leave the groups */
    int child_umask;
    PyObject *preexec_fn;
} spawn_request;

/* Write to the error pipe with no allocation (we are between fork and
   exec). */
static void
report_failure(int fd, const char *exc_name, int err, const char *detail)
{
    char hex[2 * sizeof(int) + 1];
    int n = 0;
    unsigned int value = (unsigned int)err;
    do {
        hex[sizeof(hex) - 1 - ++n] = "0123456789abcdef"[value & 0xf];
        value >>= 4;
    } while (value != 0);
    ssize_t ignored = write(fd, exc_name, strlen(exc_name));
    ignored = write(fd, ":", 1);
    ignored = write(fd, hex + sizeof(hex) - 1 - n, (size_t)n);
    ignored = write(fd, ":", 1);
    ignored = write(fd, detail, strlen(detail));
    (void)ignored;
}

static int
set_inheritable(int fd, int inheritable)
{
    int flags = fcntl(fd, F_GETFD);
    if (flags < 0) {
        return -1;
    }
    int wanted = inheritable ? (flags & ~FD_CLOEXEC) : (flags | FD_CLOEXEC);
    return wanted == flags ? 0 : fcntl(fd, F_SETFD, wanted);
}

/* Make `fd` the child's standard descriptor `target` (inheritable). */
static int
install_std_fd(int fd, int target)
{
    if (fd < 0) {
        return 0;
    }
    if (fd == target) {
        return set_inheritable(fd, 1); /* dup2 would not clear FD_CLOEXEC */
    }
    return dup2(fd, target) < 0 ? -1 : 0;
}

/* A standard descriptor is about to be overwritten while another pipe
   end still lives there: move that end out of the way first. */
static int
move_above_std(int *fd)
{
    if (*fd < 0 || *fd > 2) {
        return 0;
    }
    int moved = fcntl(*fd, F_DUPFD_CLOEXEC, 3);
    if (moved < 0) {
        return -1;
    }
    *fd = moved;
    return 0;
}

static int
wire_std_fds(spawn_request *r)
{
    /* The parent's ends of the pipes are not for the child. */
    int parent_ends[] = {r->p2cwrite, r->c2pread, r->errread};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(parent_ends); i++) {
        if (parent_ends[i] >= 0) {
            close(parent_ends[i]);
        }
    }
    if (move_above_std(&r->c2pwrite) < 0 || move_above_std(&r->errwrite) < 0) {
        return -1;
    }
    if (install_std_fd(r->p2cread, 0) < 0 || install_std_fd(r->c2pwrite, 1) < 0 ||
        install_std_fd(r->errwrite, 2) < 0) {
        return -1;
    }
    return 0;
}

static void
close_fd_range(int first, int last)
{
    if (first > last) {
        return;
    }
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned int)first, (unsigned int)last, 0) == 0) {
        return;
    }
#endif
    for (int fd = first; fd <= last; fd++) {
        close(fd);
    }
}

/* close_fds: every descriptor from 3 up, except the kept ones (sorted). */
static void
close_other_fds(const spawn_request *r)
{
    long limit = sysconf(_SC_OPEN_MAX);
    int max_fd = limit > 0 && limit < INT_MAX ? (int)limit - 1 : INT_MAX - 1;
    int next = 3;
    for (Py_ssize_t i = 0; i < r->nfds_to_keep; i++) {
        int kept = r->fds_to_keep[i];
        if (kept >= next) {
            close_fd_range(next, kept - 1);
            next = kept + 1;
        }
    }
    close_fd_range(next, max_fd);
}

static int
switch_identity(const spawn_request *r)
{
    if (r->ngroups >= 0 && setgroups((size_t)r->ngroups, r->groups) < 0) {
        return -1;
    }
    if (r->gid != -1 && setregid((gid_t)r->gid, (gid_t)r->gid) < 0) {
        return -1;
    }
    if (r->uid != -1 && setreuid((uid_t)r->uid, (uid_t)r->uid) < 0) {
        return -1;
    }
    return 0;
}

/* Everything between fork and exec; returns only on failure, with
   *stage naming the detail subprocess.py expects. */
static void
prepare_child(spawn_request *r, const char **stage)
{
    *stage = "noexec";
    for (Py_ssize_t i = 0; i < r->nfds_to_keep; i++) {
        if (r->fds_to_keep[i] != r->errpipe_write && set_inheritable(r->fds_to_keep[i], 1) < 0) {
            return;
        }
    }
    if (wire_std_fds(r) < 0) {
        return;
    }
    if (r->cwd != NULL && chdir(r->cwd) < 0) {
        *stage = "noexec:chdir";
        return;
    }
    if (r->child_umask >= 0) {
        umask((mode_t)r->child_umask);
    }
    if (r->restore_signals) {
        signal(SIGPIPE, SIG_DFL);
        signal(SIGXFSZ, SIG_DFL);
    }
    if (r->call_setsid && setsid() < 0) {
        return;
    }
    if (r->pgid_to_set >= 0 && setpgid(0, (pid_t)r->pgid_to_set) < 0) {
        return;
    }
    if (switch_identity(r) < 0) {
        return;
    }
    *stage = NULL;
}

static void
exec_first(const spawn_request *r)
{
    int first_errno = 0;
    for (char **exe = r->executables; *exe != NULL; exe++) {
        if (r->envp != NULL) {
            execve(*exe, r->argv, r->envp);
        }
        else {
            execv(*exe, r->argv);
        }
        /* A missing candidate says less than a real failure: keep the
           first interesting errno, as a PATH search does. */
        if (errno != ENOENT && errno != ENOTDIR && first_errno == 0) {
            first_errno = errno;
        }
    }
    if (first_errno != 0) {
        errno = first_errno;
    }
}

static void _Py_NO_RETURN
run_child(spawn_request *r)
{
    const char *stage;
    prepare_child(r, &stage);
    if (stage == NULL && r->preexec_fn != Py_None) {
        PyObject *res = PyObject_CallNoArgs(r->preexec_fn);
        if (res == NULL) {
            report_failure(r->errpipe_write, "SubprocessError", 0, "Exception occurred in preexec_fn.");
            _exit(255);
        }
        Py_DECREF(res);
    }
    if (stage == NULL) {
        if (r->close_fds) {
            close_other_fds(r);
        }
        exec_first(r);
        stage = "";
    }
    report_failure(r->errpipe_write, "OSError", errno, stage);
    _exit(255);
}

/* ---- fork_exec ----------------------------------------------------------------------- */

static int
int_arg(PyObject *obj, int *out)
{
    *out = PyLong_AsInt(obj);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static PyObject *
subprocess_fork_exec(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 22) {
        PyErr_Format(PyExc_TypeError, "fork_exec() takes exactly 22 arguments (%zd given)", nargs);
        return NULL;
    }
    spawn_request r = {0};
    c_strings argv = {0}, exes = {0}, env = {0};
    int *fds = NULL;
    gid_t *groups = NULL;
    PyObject *cwd = NULL, *result = NULL;

    r.close_fds = PyObject_IsTrue(args[2]);
    if (r.close_fds < 0 || c_strings_from(&argv, args[0], "args must be a sequence") < 0 ||
        c_strings_from(&exes, args[1], "executable_list must be a sequence") < 0 ||
        read_fds_to_keep(args[3], &fds, &r.nfds_to_keep) < 0 ||
        (args[4] != Py_None && !PyUnicode_FSConverter(args[4], &cwd)) ||
        c_strings_from(&env, args[5], "env must be a sequence") < 0) {
        goto done;
    }
    int *fd_fields[] = {&r.p2cread, &r.p2cwrite, &r.c2pread, &r.c2pwrite,
                        &r.errread, &r.errwrite, &r.errpipe_read, &r.errpipe_write};
    for (int i = 0; i < 8; i++) {
        if (int_arg(args[6 + i], fd_fields[i]) < 0) {
            goto done;
        }
    }
    r.restore_signals = PyObject_IsTrue(args[14]);
    r.call_setsid = PyObject_IsTrue(args[15]);
    if (r.restore_signals < 0 || r.call_setsid < 0 || read_id(args[16], &r.pgid_to_set) < 0 ||
        read_id(args[17], &r.gid) < 0 || read_groups(args[18], &groups, &r.ngroups) < 0 ||
        read_id(args[19], &r.uid) < 0 || int_arg(args[20], &r.child_umask) < 0) {
        goto done;
    }
    if (args[21] != Py_None && !PyCallable_Check(args[21])) {
        PyErr_SetString(PyExc_TypeError, "preexec_fn must be callable or None");
        goto done;
    }
    if (exes.items == NULL || argv.items == NULL) {
        PyErr_SetString(PyExc_TypeError, "args and executable_list may not be None");
        goto done;
    }
    r.argv = argv.items;
    r.executables = exes.items;
    r.envp = env.items;
    r.cwd = cwd ? PyBytes_AS_STRING(cwd) : NULL;
    r.fds_to_keep = fds;
    r.groups = groups;
    r.preexec_fn = args[21];

    pid_t pid = fork();
    if (pid == 0) {
        run_child(&r);
    }
    if (pid < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        goto done;
    }
    result = PyLong_FromLong((long)pid);
done:
    c_strings_clear(&argv);
    c_strings_clear(&exes);
    c_strings_clear(&env);
    PyMem_Free(fds);
    PyMem_Free(groups);
    Py_XDECREF(cwd);
    return result;
}

static PyMethodDef subprocess_methods[] = {
    {"fork_exec", _PyCFunction_CAST(subprocess_fork_exec), METH_FASTCALL,
     "Fork a child that wires its standard streams and execs a program; returns its pid."},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef subprocess_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_posixsubprocess",
    .m_doc = "The POSIX fork-and-exec helper behind subprocess.Popen.",
    .m_methods = subprocess_methods,
};

PyObject *
PyInit__posixsubprocess(void)
{
    return PyModuleDef_Init(&subprocess_module);
}
