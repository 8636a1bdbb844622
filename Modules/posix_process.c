/* The posix module's process and system calls: ids, fork with its
   register_at_fork hooks, exec, wait and the W* status decoders, signals
   to processes, and system information (uname, times, sysconf, confstr,
   pathconf, the terminal size, the load average). */

#include "posixmodule.h"

#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

typedef PyObject *(*fastcall_fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);
#define FASTCALL(f) (PyCFunction)(void (*)(void))(fastcall_fn)(f), METH_FASTCALL | METH_KEYWORDS

/* ---- Ids ----------------------------------------------------------------------------------- */

static PyObject *
posix_getpid(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong((long)getpid());
}

static PyObject *
posix_getppid(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong((long)getppid());
}

static PyObject *
posix_getuid(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLong((unsigned long)getuid());
}

static PyObject *
posix_geteuid(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLong((unsigned long)geteuid());
}

static PyObject *
posix_getgid(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLong((unsigned long)getgid());
}

static PyObject *
posix_getegid(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLong((unsigned long)getegid());
}

static PyObject *
posix_getpgrp(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong((long)getpgrp());
}

static PyObject *
posix_getgroups(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    int n = getgroups(0, NULL);
    if (n < 0) {
        return _PyPosix_Error();
    }
    gid_t *groups = PyMem_New(gid_t, n + 1);
    if (groups == NULL) {
        return PyErr_NoMemory();
    }
    n = getgroups(n, groups);
    PyObject *list = n < 0 ? _PyPosix_Error() : PyList_New(n);
    for (int i = 0; list != NULL && i < n; i++) {
        PyObject *g = PyLong_FromUnsignedLong((unsigned long)groups[i]);
        if (g == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, g);
    }
    PyMem_Free(groups);
    return list;
}

static PyObject *
posix_getlogin(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    errno = 0;
    char *name = getlogin();
    if (name == NULL) {
        if (errno == 0) {
            PyErr_SetString(PyExc_OSError, "unable to determine login name");
            return NULL;
        }
        return _PyPosix_Error();
    }
    return PyUnicode_DecodeFSDefault(name);
}

/* One pid_t argument, a call that returns a pid or -1. */
static PyObject *
pid_query(PyObject *arg, pid_t (*fn)(pid_t))
{
    long pid = PyLong_AsLong(arg);
    if (pid == -1 && PyErr_Occurred()) {
        return NULL;
    }
    pid_t res = fn((pid_t)pid);
    return res < 0 ? _PyPosix_Error() : PyLong_FromLong((long)res);
}

static PyObject *
posix_getpgid(PyObject *m, PyObject *arg)
{
    return pid_query(arg, getpgid);
}

static PyObject *
posix_getsid(PyObject *m, PyObject *arg)
{
    return pid_query(arg, getsid);
}

static PyObject *
posix_setsid(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return setsid() < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
posix_setpgid(PyObject *m, PyObject *args)
{
    int pid, pgrp;
    if (!PyArg_ParseTuple(args, "ii:setpgid", &pid, &pgrp)) {
        return NULL;
    }
    return setpgid((pid_t)pid, (pid_t)pgrp) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

/* setuid, setgid and friends: one id argument, an int-returning call. */
static PyObject *
set_id(PyObject *arg, int (*fn)(unsigned int))
{
    unsigned long id = PyLong_AsUnsignedLong(arg);
    if (id == (unsigned long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    return fn((unsigned int)id) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
posix_setuid(PyObject *m, PyObject *arg)
{
    return set_id(arg, setuid);
}

static PyObject *
posix_setgid(PyObject *m, PyObject *arg)
{
    return set_id(arg, setgid);
}

static PyObject *
posix_nice(PyObject *m, PyObject *arg)
{
    int inc = PyLong_AsInt(arg);
    if (inc == -1 && PyErr_Occurred()) {
        return NULL;
    }
    /* -1 is a valid new niceness: only errno tells failure apart. */
    errno = 0;
    int res = nice(inc);
    if (res == -1 && errno != 0) {
        return _PyPosix_Error();
    }
    return PyLong_FromLong(res);
}

/* ---- Signals to processes ------------------------------------------------------------------ */

static PyObject *
send_signal(PyObject *args, const char *format, int group)
{
    int pid, sig;
    if (!PyArg_ParseTuple(args, format, &pid, &sig)) {
        return NULL;
    }
    int rc = group ? killpg((pid_t)pid, sig) : kill((pid_t)pid, sig);
    if (rc < 0) {
        return _PyPosix_Error();
    }
    /* A signal to ourselves may have a Python handler waiting to run. */
    if (PyErr_CheckSignals() < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
posix_kill(PyObject *m, PyObject *args)
{
    return send_signal(args, "ii:kill", 0);
}

static PyObject *
posix_killpg(PyObject *m, PyObject *args)
{
    return send_signal(args, "ii:killpg", 1);
}

static PyObject *
posix_abort(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    abort();
}

static PyObject *
posix__exit(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"status", NULL};
    PyObject *a[1];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "_exit", kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    int status = PyLong_AsInt(a[0]);
    if (status == -1 && PyErr_Occurred()) {
        return NULL;
    }
    _exit(status);
}

/* ---- fork and register_at_fork ------------------------------------------------------------- */

/* The hooks: lists of callables, made on first registration. */
static PyObject *before_fork_hooks;
static PyObject *child_fork_hooks;
static PyObject *parent_fork_hooks;

static int
add_hook(PyObject **list, PyObject *func, const char *what)
{
    if (func == NULL) {
        return 0;
    }
    if (!PyCallable_Check(func)) {
        PyErr_Format(PyExc_TypeError, "'%s' must be callable, not %.200s", what, Py_TYPE(func)->tp_name);
        return -1;
    }
    if (*list == NULL && (*list = PyList_New(0)) == NULL) {
        return -1;
    }
    return PyList_Append(*list, func);
}

static PyObject *
posix_register_at_fork(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"before", "after_in_child", "after_in_parent", NULL};
    PyObject *a[3];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "register_at_fork", kwlist, 0, 0, 0, a)) {
        return NULL;
    }
    if (a[0] == NULL && a[1] == NULL && a[2] == NULL) {
        PyErr_SetString(PyExc_TypeError, "At least one argument is required.");
        return NULL;
    }
    /* Check everything before registering anything. */
    const char *names[] = {"before", "after_in_child", "after_in_parent"};
    for (int i = 0; i < 3; i++) {
        if (a[i] != NULL && !PyCallable_Check(a[i])) {
            PyErr_Format(PyExc_TypeError, "'%s' must be callable, not %.200s", names[i],
                         Py_TYPE(a[i])->tp_name);
            return NULL;
        }
    }
    if (add_hook(&before_fork_hooks, a[0], names[0]) < 0 || add_hook(&child_fork_hooks, a[1], names[1]) < 0 ||
        add_hook(&parent_fork_hooks, a[2], names[2]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

void
_PyPosix_FiniProcess(void)
{
    Py_CLEAR(before_fork_hooks);
    Py_CLEAR(child_fork_hooks);
    Py_CLEAR(parent_fork_hooks);
}

/* Call each hook (last registered first when `reverse`); a failing hook is
   reported as unraisable and the rest still run. */
static void
run_hooks(PyObject *list, int reverse)
{
    if (list == NULL) {
        return;
    }
    PyObject *copy = PyList_GetSlice(list, 0, PyList_GET_SIZE(list));
    if (copy == NULL) {
        PyErr_WriteUnraisable(NULL);
        return;
    }
    Py_ssize_t n = PyList_GET_SIZE(copy);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *func = PyList_GET_ITEM(copy, reverse ? n - 1 - k : k);
        PyObject *res = PyObject_CallNoArgs(func);
        if (res == NULL) {
            PyErr_WriteUnraisable(func);
        }
        Py_XDECREF(res);
    }
    Py_DECREF(copy);
}

static PyObject *
posix_fork(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    run_hooks(before_fork_hooks, 1);
    pid_t pid = fork();
    int saved = errno;
    if (pid == 0) {
        run_hooks(child_fork_hooks, 0);
    }
    else {
        run_hooks(parent_fork_hooks, 0);
    }
    if (pid < 0) {
        errno = saved;
        return _PyPosix_Error();
    }
    return PyLong_FromLong((long)pid);
}

/* ---- exec ---------------------------------------------------------------------------------- */

/* A NULL-terminated char* array over encoded items (kept in `keep`). */
static char **
string_array(PyObject *items, PyObject *keep)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    char **out = PyMem_New(char *, n + 1);
    if (out == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *bytes = NULL;
        if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(items, i), &bytes) ||
            PyList_Append(keep, bytes) < 0) {
            Py_XDECREF(bytes);
            PyMem_Free(out);
            return NULL;
        }
        out[i] = PyBytes_AS_STRING(bytes);
        Py_DECREF(bytes);
    }
    out[n] = NULL;
    return out;
}

static PyObject *
exec_argv(const char *func, PyObject *argv)
{
    if (!PyList_Check(argv) && !PyTuple_Check(argv)) {
        PyErr_Format(PyExc_TypeError, "%s() arg 2 must be a tuple or list", func);
        return NULL;
    }
    PyObject *fast = PySequence_Fast(argv, "argv");
    if (fast == NULL) {
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(fast) == 0) {
        PyErr_Format(PyExc_ValueError, "%s() arg 2 must not be empty", func);
        Py_DECREF(fast);
        return NULL;
    }
    return fast;
}

/* env mapping -> list of b"KEY=VALUE". */
static PyObject *
env_entries(PyObject *env)
{
    PyObject *keys = PyMapping_Keys(env);
    PyObject *out = keys ? PyList_New(0) : NULL;
    for (Py_ssize_t i = 0; out != NULL && i < PyList_GET_SIZE(keys); i++) {
        PyObject *k = NULL, *v = NULL, *val = PyObject_GetItem(env, PyList_GET_ITEM(keys, i));
        PyObject *entry = NULL;
        if (val != NULL && PyUnicode_FSConverter(PyList_GET_ITEM(keys, i), &k) &&
            PyUnicode_FSConverter(val, &v)) {
            if (PyBytes_GET_SIZE(k) == 0 || strchr(PyBytes_AS_STRING(k), '=') != NULL) {
                PyErr_SetString(PyExc_ValueError, "illegal environment variable name");
            }
            else {
                entry = PyBytes_FromFormat("%s=%s", PyBytes_AS_STRING(k), PyBytes_AS_STRING(v));
            }
        }
        if (entry == NULL || PyList_Append(out, entry) < 0) {
            Py_CLEAR(out);
        }
        Py_XDECREF(entry);
        Py_XDECREF(val);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    Py_XDECREF(keys);
    return out;
}

static PyObject *
do_exec(const char *func, PyObject *path_obj, PyObject *argv_obj, PyObject *env_obj)
{
    _PyPosixPath path = {.func = func, .arg = "path"};
    PyObject *argv = NULL, *keep = PyList_New(0), *env = NULL;
    char **cargv = NULL, **cenv = NULL;
    int pflags = env_obj != NULL ? _PyPosix_PATH_FD : 0;
    if (keep == NULL || _PyPosix_PathConvert(&path, path_obj, pflags) < 0 ||
        (argv = exec_argv(func, argv_obj)) == NULL || (cargv = string_array(argv, keep)) == NULL) {
        goto done;
    }
    if (cargv[0][0] == '\0') {
        PyErr_Format(PyExc_ValueError, "%s() arg 2 first element cannot be empty", func);
        goto done;
    }
    if (env_obj != NULL) {
        if (!PyMapping_Check(env_obj)) {
            PyErr_SetString(PyExc_TypeError, "execve: environment must be a mapping object");
            goto done;
        }
        if ((env = env_entries(env_obj)) == NULL || (cenv = string_array(env, keep)) == NULL) {
            goto done;
        }
        if (path.fd >= 0) {
            fexecve(path.fd, cargv, cenv);
        }
        else {
            execve(path.name, cargv, cenv);
        }
    }
    else {
        execv(path.name, cargv);
    }
    /* Only reached when exec failed; like CPython, the error names no file. */
    _PyPosix_Error();
done:
    PyMem_Free(cargv);
    PyMem_Free(cenv);
    Py_XDECREF(argv);
    Py_XDECREF(env);
    Py_XDECREF(keep);
    _PyPosix_PathClear(&path);
    return NULL;
}

static PyObject *
posix_execv(PyObject *m, PyObject *args)
{
    PyObject *path, *argv;
    if (!PyArg_ParseTuple(args, "OO:execv", &path, &argv)) {
        return NULL;
    }
    return do_exec("execv", path, argv, NULL);
}

static PyObject *
posix_execve(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "argv", "env", NULL};
    PyObject *a[3];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "execve", kwlist, 3, 3, 0, a)) {
        return NULL;
    }
    return do_exec("execve", a[0], a[1], a[2]);
}

/* ---- wait ---------------------------------------------------------------------------------- */

static PyObject *
posix_waitpid(PyObject *m, PyObject *args)
{
    int pid, options, status = 0;
    if (!PyArg_ParseTuple(args, "ii:waitpid", &pid, &options)) {
        return NULL;
    }
    pid_t res;
    do {
        res = waitpid((pid_t)pid, &status, options);
    } while (res < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    if (res < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    return Py_BuildValue("(ii)", (int)res, status);
}

static PyObject *
posix_wait(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    int status = 0;
    pid_t res;
    do {
        res = wait(&status);
    } while (res < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    if (res < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    return Py_BuildValue("(ii)", (int)res, status);
}

static int
status_arg(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *func, int *status)
{
    static const char *const kwlist[] = {"status", NULL};
    PyObject *a[1];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, func, kwlist, 1, 1, 0, a)) {
        return -1;
    }
    *status = PyLong_AsInt(a[0]);
    return (*status == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* The W* macros as functions: one table row per decoder. */
#define STATUS_DECODER(pyname, macro, as_bool)                                                  \
    static PyObject *posix_##pyname(PyObject *m, PyObject *const *args, Py_ssize_t nargs,       \
                                    PyObject *kwnames)                                          \
    {                                                                                           \
        int status;                                                                             \
        if (status_arg(args, nargs, kwnames, #pyname, &status) < 0) {                           \
            return NULL;                                                                        \
        }                                                                                       \
        return as_bool ? PyBool_FromLong(macro(status)) : PyLong_FromLong(macro(status));       \
    }

STATUS_DECODER(WIFEXITED, WIFEXITED, 1)
STATUS_DECODER(WEXITSTATUS, WEXITSTATUS, 0)
STATUS_DECODER(WIFSIGNALED, WIFSIGNALED, 1)
STATUS_DECODER(WTERMSIG, WTERMSIG, 0)
STATUS_DECODER(WIFSTOPPED, WIFSTOPPED, 1)
STATUS_DECODER(WSTOPSIG, WSTOPSIG, 0)
STATUS_DECODER(WIFCONTINUED, WIFCONTINUED, 1)
STATUS_DECODER(WCOREDUMP, WCOREDUMP, 1)
#undef STATUS_DECODER

static PyObject *
posix_waitstatus_to_exitcode(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int status;
    if (status_arg(args, nargs, kwnames, "waitstatus_to_exitcode", &status) < 0) {
        return NULL;
    }
    if (WIFEXITED(status)) {
        return PyLong_FromLong(WEXITSTATUS(status));
    }
    if (WIFSIGNALED(status)) {
        return PyLong_FromLong(-WTERMSIG(status));
    }
    if (WIFSTOPPED(status)) {
        return PyErr_Format(PyExc_ValueError, "process stopped by delivery of signal %i", WSTOPSIG(status));
    }
    return PyErr_Format(PyExc_ValueError, "invalid wait status: %i", status);
}

static PyObject *
posix_system(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"command", NULL};
    PyObject *a[1], *cmd = NULL;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "system", kwlist, 1, 1, 0, a) ||
        !PyUnicode_FSConverter(a[0], &cmd)) {
        return NULL;
    }
    int rc = system(PyBytes_AS_STRING(cmd));
    Py_DECREF(cmd);
    return PyLong_FromLong(rc);
}

/* ---- Struct sequences: uname, times, terminal size ----------------------------------------- */

static PyStructSequence_Field uname_fields[] = {
    {"sysname", "kernel name"},
    {"nodename", "host name on the network"},
    {"release", "kernel release"},
    {"version", "kernel build version"},
    {"machine", "machine architecture"},
    {NULL, NULL},
};

static PyStructSequence_Desc uname_desc = {
    "posix.uname_result", "The result of os.uname().", uname_fields, 5,
};

static PyStructSequence_Field times_fields[] = {
    {"user", "CPU seconds in user mode"},
    {"system", "CPU seconds in the kernel"},
    {"children_user", "user-mode seconds of waited-for children"},
    {"children_system", "kernel seconds of waited-for children"},
    {"elapsed", "wall-clock seconds from a fixed past moment"},
    {NULL, NULL},
};

static PyStructSequence_Desc times_desc = {
    "posix.times_result", "The result of os.times(), in seconds.", times_fields, 5,
};

static PyStructSequence_Field terminal_fields[] = {
    {"columns", "character cells across"},
    {"lines", "rows of text"},
    {NULL, NULL},
};

static PyStructSequence_Desc terminal_desc = {
    "os.terminal_size", "The size of a terminal window, from os.get_terminal_size().", terminal_fields, 2,
};

static PyTypeObject UnameResultType;
static PyTypeObject TimesResultType;
static PyTypeObject TerminalSizeType;

/* Fill a struct sequence from `n` new references (any NULL fails it). */
static PyObject *
fill_struct(PyTypeObject *type, PyObject **items, int n)
{
    PyObject *res = PyStructSequence_New(type);
    for (int i = 0; i < n; i++) {
        if (res == NULL || items[i] == NULL) {
            Py_CLEAR(res);
            Py_XDECREF(items[i]);
            continue;
        }
        PyStructSequence_SetItem(res, i, items[i]);
    }
    return res;
}

static PyObject *
posix_uname(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    struct utsname u;
    if (uname(&u) < 0) {
        return _PyPosix_Error();
    }
    PyObject *items[] = {
        PyUnicode_DecodeFSDefault(u.sysname), PyUnicode_DecodeFSDefault(u.nodename),
        PyUnicode_DecodeFSDefault(u.release), PyUnicode_DecodeFSDefault(u.version),
        PyUnicode_DecodeFSDefault(u.machine),
    };
    return fill_struct(&UnameResultType, items, 5);
}

static PyObject *
posix_times(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    struct tms t;
    clock_t elapsed = times(&t);
    if (elapsed == (clock_t)-1) {
        return _PyPosix_Error();
    }
    double hz = (double)sysconf(_SC_CLK_TCK);
    PyObject *items[] = {
        PyFloat_FromDouble((double)t.tms_utime / hz), PyFloat_FromDouble((double)t.tms_stime / hz),
        PyFloat_FromDouble((double)t.tms_cutime / hz), PyFloat_FromDouble((double)t.tms_cstime / hz),
        PyFloat_FromDouble((double)elapsed / hz),
    };
    return fill_struct(&TimesResultType, items, 5);
}

static PyObject *
posix_get_terminal_size(PyObject *m, PyObject *args)
{
    int fd = STDOUT_FILENO;
    if (!PyArg_ParseTuple(args, "|i:get_terminal_size", &fd)) {
        return NULL;
    }
    struct winsize w;
    if (ioctl(fd, TIOCGWINSZ, &w) < 0) {
        return _PyPosix_Error();
    }
    PyObject *items[] = {PyLong_FromLong(w.ws_col), PyLong_FromLong(w.ws_row)};
    return fill_struct(&TerminalSizeType, items, 2);
}

static PyObject *
posix_getloadavg(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    double load[3];
    if (getloadavg(load, 3) != 3) {
        PyErr_SetString(PyExc_OSError, "Load averages are unobtainable");
        return NULL;
    }
    return Py_BuildValue("(ddd)", load[0], load[1], load[2]);
}

static PyObject *
posix_cpu_count(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(n);
}

static PyObject *
posix_sched_getaffinity(PyObject *m, PyObject *arg)
{
    long pid = PyLong_AsLong(arg);
    if (pid == -1 && PyErr_Occurred()) {
        return NULL;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity((pid_t)pid, sizeof(set), &set) < 0) {
        return _PyPosix_Error();
    }
    PyObject *res = PySet_New(NULL);
    for (int cpu = 0; res != NULL && cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set)) {
            continue;
        }
        PyObject *n = PyLong_FromLong(cpu);
        if (n == NULL || PySet_Add(res, n) < 0) {
            Py_CLEAR(res);
        }
        Py_XDECREF(n);
    }
    return res;
}

/* ---- More ids, priorities, scheduling ------------------------------------------------------ */

/* Two or three ids, each -1 for "unchanged". */
static int
id_args(PyObject *args, const char *format, unsigned int *ids, int count)
{
    PyObject *objs[3] = {NULL, NULL, NULL};
    if (!PyArg_ParseTuple(args, format, &objs[0], &objs[1], &objs[2])) {
        return -1;
    }
    for (int i = 0; i < count; i++) {
        long long v = PyLong_AsLongLong(objs[i]);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (v < -1 || v > (long long)UINT_MAX) {
            PyErr_SetString(PyExc_OverflowError, "uid/gid out of range");
            return -1;
        }
        ids[i] = (unsigned int)v;
    }
    return 0;
}

static PyObject *
posix_seteuid(PyObject *m, PyObject *arg)
{
    return set_id(arg, seteuid);
}

static PyObject *
posix_setegid(PyObject *m, PyObject *arg)
{
    return set_id(arg, setegid);
}

static PyObject *
posix_setreuid(PyObject *m, PyObject *args)
{
    unsigned int ids[2];
    if (id_args(args, "OO:setreuid", ids, 2) < 0) {
        return NULL;
    }
    return setreuid(ids[0], ids[1]) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
posix_setregid(PyObject *m, PyObject *args)
{
    unsigned int ids[2];
    if (id_args(args, "OO:setregid", ids, 2) < 0) {
        return NULL;
    }
    return setregid(ids[0], ids[1]) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
posix_setresuid(PyObject *m, PyObject *args)
{
    unsigned int ids[3];
    if (id_args(args, "OOO:setresuid", ids, 3) < 0) {
        return NULL;
    }
    return setresuid(ids[0], ids[1], ids[2]) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
posix_setresgid(PyObject *m, PyObject *args)
{
    unsigned int ids[3];
    if (id_args(args, "OOO:setresgid", ids, 3) < 0) {
        return NULL;
    }
    return setresgid(ids[0], ids[1], ids[2]) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
posix_getresuid(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    uid_t r, e, s;
    if (getresuid(&r, &e, &s) < 0) {
        return _PyPosix_Error();
    }
    return Py_BuildValue("(kkk)", (unsigned long)r, (unsigned long)e, (unsigned long)s);
}

static PyObject *
posix_getresgid(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    gid_t r, e, s;
    if (getresgid(&r, &e, &s) < 0) {
        return _PyPosix_Error();
    }
    return Py_BuildValue("(kkk)", (unsigned long)r, (unsigned long)e, (unsigned long)s);
}

static PyObject *
posix_setgroups(PyObject *m, PyObject *arg)
{
    PyObject *fast = PySequence_Fast(arg, "setgroups argument must be a sequence");
    if (fast == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    gid_t *groups = PyMem_New(gid_t, n + 1);
    PyObject *res = NULL;
    if (groups == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long g = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(fast, i));
        if (g == (unsigned long)-1 && PyErr_Occurred()) {
            goto done;
        }
        groups[i] = (gid_t)g;
    }
    res = setgroups((size_t)n, groups) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
done:
    PyMem_Free(groups);
    Py_DECREF(fast);
    return res;
}

static PyObject *
posix_initgroups(PyObject *m, PyObject *args)
{
    PyObject *user = NULL;
    unsigned int gid;
    if (!PyArg_ParseTuple(args, "O&I:initgroups", PyUnicode_FSConverter, &user, &gid)) {
        return NULL;
    }
    int rc = initgroups(PyBytes_AS_STRING(user), (gid_t)gid);
    Py_DECREF(user);
    return rc < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
posix_getgrouplist(PyObject *m, PyObject *args)
{
    const char *user;
    unsigned int base;
    if (!PyArg_ParseTuple(args, "sI:getgrouplist", &user, &base)) {
        return NULL;
    }
    /* Ask with a growing buffer until the list fits. */
    for (int size = 64;; size *= 2) {
        gid_t *groups = PyMem_New(gid_t, size);
        if (groups == NULL) {
            return PyErr_NoMemory();
        }
        int n = size;
        if (getgrouplist(user, (gid_t)base, groups, &n) >= 0) {
            PyObject *list = PyList_New(n);
            for (int i = 0; list != NULL && i < n; i++) {
                PyObject *g = PyLong_FromUnsignedLong((unsigned long)groups[i]);
                if (g == NULL) {
                    Py_CLEAR(list);
                    break;
                }
                PyList_SET_ITEM(list, i, g);
            }
            PyMem_Free(groups);
            return list;
        }
        PyMem_Free(groups);
        if (size > 65536) {
            errno = EINVAL;
            return _PyPosix_Error();
        }
    }
}

static PyObject *
posix_setpgrp(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return setpgid(0, 0) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
posix_getpriority(PyObject *m, PyObject *args)
{
    int which, who;
    if (!PyArg_ParseTuple(args, "ii:getpriority", &which, &who)) {
        return NULL;
    }
    errno = 0;
    int prio = getpriority(which, (id_t)who);
    if (prio == -1 && errno != 0) {
        return _PyPosix_Error();
    }
    return PyLong_FromLong(prio);
}

static PyObject *
posix_setpriority(PyObject *m, PyObject *args)
{
    int which, who, prio;
    if (!PyArg_ParseTuple(args, "iii:setpriority", &which, &who, &prio)) {
        return NULL;
    }
    return setpriority(which, (id_t)who, prio) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
posix_sched_yield(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    return sched_yield() < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

static PyObject *
priority_bound(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *func, int upper)
{
    static const char *const kwlist[] = {"policy", NULL};
    PyObject *a[1];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, func, kwlist, 1, 1, 0, a)) {
        return NULL;
    }
    int policy = PyLong_AsInt(a[0]);
    if (policy == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int res = upper ? sched_get_priority_max(policy) : sched_get_priority_min(policy);
    return res < 0 ? _PyPosix_Error() : PyLong_FromLong(res);
}

static PyObject *
posix_sched_get_priority_max(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return priority_bound(args, nargs, kwnames, "sched_get_priority_max", 1);
}

static PyObject *
posix_sched_get_priority_min(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return priority_bound(args, nargs, kwnames, "sched_get_priority_min", 0);
}

static PyObject *
posix_sched_setaffinity(PyObject *m, PyObject *args)
{
    int pid;
    PyObject *cpus;
    if (!PyArg_ParseTuple(args, "iO:sched_setaffinity", &pid, &cpus)) {
        return NULL;
    }
    PyObject *iter = PyObject_GetIter(cpus);
    if (iter == NULL) {
        return NULL;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    PyObject *item;
    while ((item = PyIter_Next(iter)) != NULL) {
        long cpu = PyLong_AsLong(item);
        Py_DECREF(item);
        if (cpu == -1 && PyErr_Occurred()) {
            break;
        }
        if (cpu < 0 || cpu >= CPU_SETSIZE) {
            PyErr_SetString(cpu < 0 ? PyExc_ValueError : PyExc_OverflowError, "invalid CPU number");
            break;
        }
        CPU_SET((int)cpu, &set);
    }
    Py_DECREF(iter);
    if (PyErr_Occurred()) {
        return NULL;
    }
    return sched_setaffinity((pid_t)pid, sizeof(set), &set) < 0 ? _PyPosix_Error() : Py_NewRef(Py_None);
}

/* ---- waitid -------------------------------------------------------------------------------- */

static PyStructSequence_Field waitid_fields[] = {
    {"si_pid", "the child's process id"},
    {"si_uid", "the child's real user id"},
    {"si_signo", "always SIGCHLD"},
    {"si_status", "exit code or signal number, per si_code"},
    {"si_code", "what happened to the child (CLD_*)"},
    {NULL, NULL},
};

static PyStructSequence_Desc waitid_desc = {
    "posix.waitid_result", "The result of waitid().", waitid_fields, 5,
};

static PyTypeObject WaitidResultType;

static PyObject *
posix_waitid(PyObject *m, PyObject *args)
{
    int idtype, id, options;
    if (!PyArg_ParseTuple(args, "iii:waitid", &idtype, &id, &options)) {
        return NULL;
    }
    siginfo_t info;
    memset(&info, 0, sizeof(info));
    int rc;
    do {
        rc = waitid((idtype_t)idtype, (id_t)id, &info, options);
    } while (rc < 0 && errno == EINTR && PyErr_CheckSignals() == 0);
    if (rc < 0) {
        return PyErr_Occurred() ? NULL : _PyPosix_Error();
    }
    /* WNOHANG with nothing to report leaves si_pid zero. */
    if (info.si_pid == 0) {
        Py_RETURN_NONE;
    }
    PyObject *items[] = {
        PyLong_FromLong((long)info.si_pid), PyLong_FromUnsignedLong((unsigned long)info.si_uid),
        PyLong_FromLong(info.si_signo), PyLong_FromLong(info.si_status), PyLong_FromLong(info.si_code),
    };
    return fill_struct(&WaitidResultType, items, 5);
}

static PyObject *
posix_pidfd_open(PyObject *m, PyObject *args)
{
    int pid;
    unsigned int flags = 0;
    if (!PyArg_ParseTuple(args, "i|I:pidfd_open", &pid, &flags)) {
        return NULL;
    }
    long fd = syscall(SYS_pidfd_open, pid, flags);
    return fd < 0 ? _PyPosix_Error() : PyLong_FromLong(fd);
}

/* ---- sysconf, confstr, pathconf ------------------------------------------------------------ */

typedef struct {
    const char *name;
    int value;
} conf_name;

#define N(prefix, x) {#x, prefix##x}
static const conf_name sysconf_table[] = {
    N(_, SC_ARG_MAX), N(_, SC_CHILD_MAX), N(_, SC_CLK_TCK), N(_, SC_NGROUPS_MAX),
    N(_, SC_OPEN_MAX), N(_, SC_STREAM_MAX), N(_, SC_TZNAME_MAX), N(_, SC_JOB_CONTROL),
    N(_, SC_SAVED_IDS), N(_, SC_REALTIME_SIGNALS), N(_, SC_PRIORITY_SCHEDULING), N(_, SC_TIMERS),
    N(_, SC_ASYNCHRONOUS_IO), N(_, SC_PRIORITIZED_IO), N(_, SC_SYNCHRONIZED_IO), N(_, SC_FSYNC),
    N(_, SC_MAPPED_FILES), N(_, SC_MEMLOCK), N(_, SC_MEMLOCK_RANGE), N(_, SC_MEMORY_PROTECTION),
    N(_, SC_MESSAGE_PASSING), N(_, SC_SEMAPHORES), N(_, SC_SHARED_MEMORY_OBJECTS),
    N(_, SC_AIO_LISTIO_MAX), N(_, SC_AIO_MAX), N(_, SC_AIO_PRIO_DELTA_MAX), N(_, SC_DELAYTIMER_MAX),
    N(_, SC_MQ_OPEN_MAX), N(_, SC_MQ_PRIO_MAX), N(_, SC_VERSION), N(_, SC_PAGESIZE),
    {"SC_PAGE_SIZE", _SC_PAGESIZE}, N(_, SC_RTSIG_MAX), N(_, SC_SEM_NSEMS_MAX), N(_, SC_SEM_VALUE_MAX),
    N(_, SC_SIGQUEUE_MAX), N(_, SC_TIMER_MAX), N(_, SC_BC_BASE_MAX), N(_, SC_BC_DIM_MAX),
    N(_, SC_BC_SCALE_MAX), N(_, SC_BC_STRING_MAX), N(_, SC_COLL_WEIGHTS_MAX), N(_, SC_EXPR_NEST_MAX),
    N(_, SC_LINE_MAX), N(_, SC_RE_DUP_MAX), N(_, SC_2_VERSION), N(_, SC_2_C_BIND), N(_, SC_2_C_DEV),
    N(_, SC_2_FORT_DEV), N(_, SC_2_FORT_RUN), N(_, SC_2_SW_DEV), N(_, SC_2_LOCALEDEF),
    N(_, SC_THREADS), N(_, SC_THREAD_SAFE_FUNCTIONS), N(_, SC_GETGR_R_SIZE_MAX),
    N(_, SC_GETPW_R_SIZE_MAX), N(_, SC_LOGIN_NAME_MAX), N(_, SC_TTY_NAME_MAX),
    N(_, SC_THREAD_DESTRUCTOR_ITERATIONS), N(_, SC_THREAD_KEYS_MAX), N(_, SC_THREAD_STACK_MIN),
    N(_, SC_THREAD_THREADS_MAX), N(_, SC_THREAD_ATTR_STACKADDR), N(_, SC_THREAD_ATTR_STACKSIZE),
    N(_, SC_THREAD_PRIORITY_SCHEDULING), N(_, SC_THREAD_PRIO_INHERIT), N(_, SC_THREAD_PRIO_PROTECT),
    N(_, SC_THREAD_PROCESS_SHARED), N(_, SC_NPROCESSORS_CONF), N(_, SC_NPROCESSORS_ONLN),
    N(_, SC_PHYS_PAGES), N(_, SC_AVPHYS_PAGES), N(_, SC_ATEXIT_MAX), N(_, SC_PASS_MAX),
    N(_, SC_XOPEN_VERSION), N(_, SC_XOPEN_XCU_VERSION), N(_, SC_XOPEN_UNIX), N(_, SC_XOPEN_CRYPT),
    N(_, SC_XOPEN_ENH_I18N), N(_, SC_XOPEN_SHM), N(_, SC_2_CHAR_TERM), N(_, SC_2_UPE),
    N(_, SC_IOV_MAX), N(_, SC_HOST_NAME_MAX), N(_, SC_MINSIGSTKSZ),
    {NULL, 0},
};

static const conf_name confstr_table[] = {
    N(_, CS_PATH), N(_, CS_GNU_LIBC_VERSION), N(_, CS_GNU_LIBPTHREAD_VERSION),
    N(_, CS_LFS64_CFLAGS), N(_, CS_LFS64_LDFLAGS), N(_, CS_LFS64_LIBS), N(_, CS_LFS64_LINTFLAGS),
    N(_, CS_LFS_CFLAGS), N(_, CS_LFS_LDFLAGS), N(_, CS_LFS_LIBS), N(_, CS_LFS_LINTFLAGS),
    N(_, CS_XBS5_ILP32_OFF32_CFLAGS), N(_, CS_XBS5_ILP32_OFF32_LDFLAGS),
    N(_, CS_XBS5_ILP32_OFF32_LIBS), N(_, CS_XBS5_ILP32_OFF32_LINTFLAGS),
    N(_, CS_XBS5_ILP32_OFFBIG_CFLAGS), N(_, CS_XBS5_ILP32_OFFBIG_LDFLAGS),
    N(_, CS_XBS5_ILP32_OFFBIG_LIBS), N(_, CS_XBS5_ILP32_OFFBIG_LINTFLAGS),
    N(_, CS_XBS5_LP64_OFF64_CFLAGS), N(_, CS_XBS5_LP64_OFF64_LDFLAGS),
    N(_, CS_XBS5_LP64_OFF64_LIBS), N(_, CS_XBS5_LP64_OFF64_LINTFLAGS),
    N(_, CS_XBS5_LPBIG_OFFBIG_CFLAGS), N(_, CS_XBS5_LPBIG_OFFBIG_LDFLAGS),
    N(_, CS_XBS5_LPBIG_OFFBIG_LIBS), N(_, CS_XBS5_LPBIG_OFFBIG_LINTFLAGS),
    {NULL, 0},
};

static const conf_name pathconf_table[] = {
    N(_, PC_LINK_MAX), N(_, PC_MAX_CANON), N(_, PC_MAX_INPUT), N(_, PC_NAME_MAX), N(_, PC_PATH_MAX),
    N(_, PC_PIPE_BUF), N(_, PC_CHOWN_RESTRICTED), N(_, PC_NO_TRUNC), N(_, PC_VDISABLE),
    N(_, PC_SYNC_IO), N(_, PC_ASYNC_IO), N(_, PC_PRIO_IO), N(_, PC_FILESIZEBITS),
    N(_, PC_REC_INCR_XFER_SIZE), N(_, PC_REC_MAX_XFER_SIZE), N(_, PC_REC_MIN_XFER_SIZE),
    N(_, PC_REC_XFER_ALIGN), N(_, PC_ALLOC_SIZE_MIN), N(_, PC_SYMLINK_MAX), N(_, PC_SOCK_MAXBUF),
    {NULL, 0},
};
#undef N

/* A configuration name: an int, or a key of the table. */
static int
conf_lookup(PyObject *obj, const conf_name *table, int *out)
{
    if (PyLong_Check(obj)) {
        *out = PyLong_AsInt(obj);
        return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
    }
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "configuration names must be strings or integers, not %.200s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    const char *name = PyUnicode_AsUTF8(obj);
    if (name == NULL) {
        return -1;
    }
    for (; table->name != NULL; table++) {
        if (strcmp(table->name, name) == 0) {
            *out = table->value;
            return 0;
        }
    }
    PyErr_SetString(PyExc_ValueError, "unrecognized configuration name");
    return -1;
}

static PyObject *
conf_dict(const conf_name *table)
{
    PyObject *d = PyDict_New();
    for (; d != NULL && table->name != NULL; table++) {
        PyObject *v = PyLong_FromLong(table->value);
        if (v == NULL || PyDict_SetItemString(d, table->name, v) < 0) {
            Py_CLEAR(d);
        }
        Py_XDECREF(v);
    }
    return d;
}

/* sysconf and pathconf report "no limit" as -1 with errno untouched. */
static PyObject *
conf_result(long value)
{
    if (value == -1 && errno != 0) {
        return _PyPosix_Error();
    }
    return PyLong_FromLong(value);
}

static PyObject *
posix_sysconf(PyObject *m, PyObject *arg)
{
    int name;
    if (conf_lookup(arg, sysconf_table, &name) < 0) {
        return NULL;
    }
    errno = 0;
    return conf_result(sysconf(name));
}

static PyObject *
posix_confstr(PyObject *m, PyObject *arg)
{
    int name;
    if (conf_lookup(arg, confstr_table, &name) < 0) {
        return NULL;
    }
    errno = 0;
    size_t len = confstr(name, NULL, 0);
    if (len == 0) {
        if (errno != 0) {
            return _PyPosix_Error();
        }
        Py_RETURN_NONE;
    }
    char *buf = PyMem_Malloc(len);
    if (buf == NULL) {
        return PyErr_NoMemory();
    }
    confstr(name, buf, len);
    PyObject *res = PyUnicode_DecodeFSDefaultAndSize(buf, (Py_ssize_t)len - 1);
    PyMem_Free(buf);
    return res;
}

static PyObject *
posix_pathconf(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "name", NULL};
    PyObject *a[2];
    _PyPosixPath path = {.func = "pathconf", .arg = "path"};
    int name;
    PyObject *res = NULL;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "pathconf", kwlist, 2, 2, 0, a)) {
        return NULL;
    }
    if (_PyPosix_PathConvert(&path, a[0], _PyPosix_PATH_FD) == 0 &&
        conf_lookup(a[1], pathconf_table, &name) == 0) {
        errno = 0;
        long value = path.fd >= 0 ? fpathconf(path.fd, name) : pathconf(path.name, name);
        res = (value == -1 && errno != 0) ? _PyPosix_PathError(&path) : PyLong_FromLong(value);
    }
    _PyPosix_PathClear(&path);
    return res;
}

static PyObject *
posix_fpathconf(PyObject *m, PyObject *args)
{
    int fd, name;
    PyObject *name_obj;
    if (!PyArg_ParseTuple(args, "iO:fpathconf", &fd, &name_obj) ||
        conf_lookup(name_obj, pathconf_table, &name) < 0) {
        return NULL;
    }
    errno = 0;
    return conf_result(fpathconf(fd, name));
}

/* ---- Module part --------------------------------------------------------------------------- */

static PyMethodDef process_methods[] = {
    {"getpid", posix_getpid, METH_NOARGS, "The current process id."},
    {"getppid", posix_getppid, METH_NOARGS, "The parent's process id."},
    {"getuid", posix_getuid, METH_NOARGS, "The real user id."},
    {"geteuid", posix_geteuid, METH_NOARGS, "The effective user id."},
    {"getgid", posix_getgid, METH_NOARGS, "The real group id."},
    {"getegid", posix_getegid, METH_NOARGS, "The effective group id."},
    {"getgroups", posix_getgroups, METH_NOARGS, "The supplementary group ids."},
    {"getlogin", posix_getlogin, METH_NOARGS, "The name of the user logged in on the terminal."},
    {"getpgrp", posix_getpgrp, METH_NOARGS, "The current process group id."},
    {"getpgid", posix_getpgid, METH_O, "The process group id of a process."},
    {"getsid", posix_getsid, METH_O, "The session id of a process."},
    {"setsid", posix_setsid, METH_NOARGS, "Start a new session."},
    {"setpgid", posix_setpgid, METH_VARARGS, "Move a process to a process group."},
    {"setuid", posix_setuid, METH_O, "Set the user id."},
    {"setgid", posix_setgid, METH_O, "Set the group id."},
    {"nice", posix_nice, METH_O, "Add to the niceness; return the new one."},
    {"kill", posix_kill, METH_VARARGS, "Send a signal to a process."},
    {"killpg", posix_killpg, METH_VARARGS, "Send a signal to a process group."},
    {"abort", posix_abort, METH_NOARGS, "Kill this process with SIGABRT."},
    {"_exit", FASTCALL(posix__exit), "Exit at once, skipping clean-up."},
    {"fork", posix_fork, METH_NOARGS, "Make a child process; 0 in the child, its pid in the parent."},
    {"register_at_fork", FASTCALL(posix_register_at_fork), "Add callables run around fork()."},
    {"execv", posix_execv, METH_VARARGS, "Replace this process with a program."},
    {"execve", FASTCALL(posix_execve), "execv() with a new environment."},
    {"waitpid", posix_waitpid, METH_VARARGS, "Wait for a child: (pid, status)."},
    {"wait", posix_wait, METH_NOARGS, "Wait for any child: (pid, status)."},
    {"waitstatus_to_exitcode", FASTCALL(posix_waitstatus_to_exitcode),
     "An exit code from a wait status (minus the signal number if killed)."},
    {"WIFEXITED", FASTCALL(posix_WIFEXITED), "Whether the process exited normally."},
    {"WEXITSTATUS", FASTCALL(posix_WEXITSTATUS), "The exit code of a process that exited."},
    {"WIFSIGNALED", FASTCALL(posix_WIFSIGNALED), "Whether a signal ended the process."},
    {"WTERMSIG", FASTCALL(posix_WTERMSIG), "The signal that ended the process."},
    {"WIFSTOPPED", FASTCALL(posix_WIFSTOPPED), "Whether the process is stopped."},
    {"WSTOPSIG", FASTCALL(posix_WSTOPSIG), "The signal that stopped the process."},
    {"WIFCONTINUED", FASTCALL(posix_WIFCONTINUED), "Whether the process was resumed."},
    {"WCOREDUMP", FASTCALL(posix_WCOREDUMP), "Whether the process dumped core."},
    {"system", FASTCALL(posix_system), "Run a shell command; return its wait status."},
    {"uname", posix_uname, METH_NOARGS, "Identify the system, as a uname_result."},
    {"times", posix_times, METH_NOARGS, "Process times in seconds, as a times_result."},
    {"get_terminal_size", posix_get_terminal_size, METH_VARARGS, "The size of a terminal window."},
    {"getloadavg", posix_getloadavg, METH_NOARGS, "The run queue averaged over 1, 5 and 15 minutes."},
    {"cpu_count", posix_cpu_count, METH_NOARGS, "The number of CPUs online, or None."},
    {"sched_getaffinity", posix_sched_getaffinity, METH_O, "The CPUs a process may run on."},
    {"sysconf", posix_sysconf, METH_O, "A system configuration value."},
    {"confstr", posix_confstr, METH_O, "A system configuration string, or None."},
    {"pathconf", FASTCALL(posix_pathconf), "A configuration limit of a file."},
    {"fpathconf", posix_fpathconf, METH_VARARGS, "A configuration limit of an open file."},
    {"seteuid", posix_seteuid, METH_O, "Set the effective user id."},
    {"setegid", posix_setegid, METH_O, "Set the effective group id."},
    {"setreuid", posix_setreuid, METH_VARARGS, "Set the real and effective user ids."},
    {"setregid", posix_setregid, METH_VARARGS, "Set the real and effective group ids."},
    {"setresuid", posix_setresuid, METH_VARARGS, "Set the real, effective and saved user ids."},
    {"setresgid", posix_setresgid, METH_VARARGS, "Set the real, effective and saved group ids."},
    {"getresuid", posix_getresuid, METH_NOARGS, "(real, effective, saved) user ids."},
    {"getresgid", posix_getresgid, METH_NOARGS, "(real, effective, saved) group ids."},
    {"setgroups", posix_setgroups, METH_O, "Set the supplementary group ids."},
    {"initgroups", posix_initgroups, METH_VARARGS, "Set the groups from the group database for a user."},
    {"getgrouplist", posix_getgrouplist, METH_VARARGS, "The groups a user belongs to."},
    {"setpgrp", posix_setpgrp, METH_NOARGS, "Make this process a process group leader."},
    {"getpriority", posix_getpriority, METH_VARARGS, "The scheduling priority of a process, group or user."},
    {"setpriority", posix_setpriority, METH_VARARGS, "Set the scheduling priority of a process, group or user."},
    {"sched_yield", posix_sched_yield, METH_NOARGS, "Give up the CPU for now."},
    {"sched_get_priority_max", FASTCALL(posix_sched_get_priority_max), "Highest priority of a policy."},
    {"sched_get_priority_min", FASTCALL(posix_sched_get_priority_min), "Lowest priority of a policy."},
    {"sched_setaffinity", posix_sched_setaffinity, METH_VARARGS, "Pin a process to a set of CPUs."},
    {"waitid", posix_waitid, METH_VARARGS, "Wait for a child; a waitid_result or None."},
    {"pidfd_open", posix_pidfd_open, METH_VARARGS, "A file descriptor referring to a process."},
    {NULL, NULL, 0, NULL},
};

#define C(name) {#name, (int)(name)}
static const conf_name process_constants[] = {
    C(WNOHANG), C(WUNTRACED), C(WCONTINUED), C(WEXITED), C(WSTOPPED), C(WNOWAIT),
    C(P_PID), C(P_PGID), C(P_ALL), C(PRIO_PROCESS), C(PRIO_PGRP), C(PRIO_USER),
    C(SCHED_OTHER), C(SCHED_FIFO), C(SCHED_RR), C(SCHED_BATCH), C(SCHED_IDLE),
    C(SCHED_RESET_ON_FORK), C(P_PIDFD),
    C(CLD_EXITED), C(CLD_KILLED), C(CLD_DUMPED), C(CLD_TRAPPED), C(CLD_STOPPED), C(CLD_CONTINUED),
    {NULL, 0},
};
#undef C

int
_PyPosix_InitProcess(PyObject *module)
{
    if (PyStructSequence_InitType2(&UnameResultType, &uname_desc) < 0 ||
        PyStructSequence_InitType2(&TimesResultType, &times_desc) < 0 ||
        PyStructSequence_InitType2(&TerminalSizeType, &terminal_desc) < 0 ||
        PyStructSequence_InitType2(&WaitidResultType, &waitid_desc) < 0 ||
        _PyStaticType_InitBuiltin(&UnameResultType) < 0 || _PyStaticType_InitBuiltin(&TimesResultType) < 0 ||
        _PyStaticType_InitBuiltin(&TerminalSizeType) < 0 || _PyStaticType_InitBuiltin(&WaitidResultType) < 0) {
        return -1;
    }
    for (const conf_name *c = process_constants; c->name != NULL; c++) {
        if (PyModule_AddIntConstant(module, c->name, c->value) < 0) {
            return -1;
        }
    }
    if (PyModule_AddFunctions(module, process_methods) < 0 ||
        PyModule_AddObjectRef(module, "uname_result", (PyObject *)&UnameResultType) < 0 ||
        PyModule_AddObjectRef(module, "times_result", (PyObject *)&TimesResultType) < 0 ||
        PyModule_AddObjectRef(module, "terminal_size", (PyObject *)&TerminalSizeType) < 0 ||
        PyModule_AddObjectRef(module, "waitid_result", (PyObject *)&WaitidResultType) < 0 ||
        PyModule_Add(module, "sysconf_names", conf_dict(sysconf_table)) < 0 ||
        PyModule_Add(module, "confstr_names", conf_dict(confstr_table)) < 0 ||
        PyModule_Add(module, "pathconf_names", conf_dict(pathconf_table)) < 0) {
        return -1;
    }
    return 0;
}
