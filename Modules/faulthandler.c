/* The faulthandler module: Python tracebacks on a fatal signal
   (enable/disable), on demand (dump_traceback), after a timeout
   (dump_traceback_later, a watchdog thread) and on a user signal
   (register/unregister), plus the crash helpers the tests use.

   All the state is process-wide, as signal dispositions are: one static
   record per feature, each holding the target fd and a strong reference
   to the file object the fd came from, so the file stays open while a
   handler may write to it.  The writing itself is in faulthandler_dump.c
   and is async-signal-safe; see Doc/faulthandler.md. */

#include "Python.h"
#include "pycore_faulthandler.h"
#include "pycore_pystate.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The C stack cannot be walked safely from a handler here; say so in the
   place CPython 3.14 prints it. */
#define C_STACK_TITLE "Current thread's C stack trace (most recent call first):\n"
#define C_STACK_UNAVAILABLE "  <cannot get C stack on this system>\n"

/* ---- The file argument ----------------------------------------------------------------- */

/* The fd that `file` (an int, an object with fileno(), or None/absent for
   sys.stderr) names.  *holder receives a new reference to the file
   object, or NULL for a bare fd.  Returns -1 with an exception. */
static int
file_to_fd(PyObject *file, PyObject **holder)
{
    *holder = NULL;
    if (file == NULL || Py_IsNone(file)) {
        file = PySys_GetObject("stderr");
        if (file == NULL || Py_IsNone(file)) {
            PyErr_SetString(PyExc_RuntimeError, "sys.stderr is None");
            return -1;
        }
    }
    if (PyLong_Check(file)) {
        int fd = PyLong_AsInt(file);
        if (fd == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (fd < 0) {
            PyErr_SetString(PyExc_ValueError, "file is not a valid file descriptor");
            return -1;
        }
        return fd;
    }
    PyObject *number = PyObject_CallMethod(file, "fileno", NULL);
    if (number == NULL) {
        return -1;
    }
    int fd = PyLong_Check(number) ? PyLong_AsInt(number) : -1;
    Py_DECREF(number);
    if (fd < 0) {
        PyErr_Clear();
        PyErr_SetString(PyExc_RuntimeError, "file.fileno() is not a valid file descriptor");
        return -1;
    }
    /* Text still buffered in the file object would come out after the
       traceback, or never if the process dies. */
    PyObject *flushed = PyObject_CallMethod(file, "flush", NULL);
    if (flushed == NULL) {
        PyErr_Clear();
    }
    Py_XDECREF(flushed);
    *holder = Py_NewRef(file);
    return fd;
}

/* ---- Fatal signals --------------------------------------------------------------------- */

typedef struct {
    int signum;
    const char *title;
    struct sigaction previous;
} fatal_signal;

static fatal_signal fatal_signals[] = {
    {SIGBUS, "Bus error"},
    {SIGILL, "Illegal instruction"},
    {SIGFPE, "Floating-point exception"},
    {SIGABRT, "Aborted"},
    {SIGSEGV, "Segmentation fault"},
};
#define N_FATAL_SIGNALS (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

static struct {
    volatile sig_atomic_t enabled;
    int fd;
    PyObject *file;
    int all_threads;
    int c_stack;
    PyInterpreterState *interp;
} fatal_state;

/* Handlers run on this stack so that a C stack overflow can still be
   reported. */
static stack_t alt_stack;

static int
ensure_alt_stack(void)
{
    if (alt_stack.ss_sp != NULL) {
        return 0;
    }
    size_t size = SIGSTKSZ * 2 + 64 * 1024;
    void *memory = PyMem_RawMalloc(size);
    if (memory == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    stack_t wanted = {.ss_sp = memory, .ss_size = size, .ss_flags = 0};
    if (sigaltstack(&wanted, NULL) != 0) {
        PyMem_RawFree(memory);
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    alt_stack = wanted;
    return 0;
}

static void
release_alt_stack(void)
{
    if (alt_stack.ss_sp == NULL) {
        return;
    }
    stack_t off = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
    PyMem_RawFree(alt_stack.ss_sp);
    alt_stack.ss_sp = NULL;
}

/* Put back the dispositions enable() replaced; safe in a handler. */
static void
restore_fatal_handlers(void)
{
    if (!fatal_state.enabled) {
        return;
    }
    for (size_t i = 0; i < N_FATAL_SIGNALS; i++) {
        sigaction(fatal_signals[i].signum, &fatal_signals[i].previous, NULL);
    }
    fatal_state.enabled = 0;
}

static void
on_fatal_signal(int signum)
{
    int saved_errno = errno;
    const char *title = NULL;
    for (size_t i = 0; i < N_FATAL_SIGNALS; i++) {
        if (fatal_signals[i].signum == signum) {
            title = fatal_signals[i].title;
        }
    }
    if (title == NULL) {
        return;
    }
    if (!fatal_state.enabled) {
        /* Caught while disable() runs: the old dispositions are back. */
        errno = saved_errno;
        raise(signum);
        return;
    }
    /* From here a second fault, or the re-raise below, goes to the
       previous handler (usually the default: the process dies). */
    restore_fatal_handlers();
    int fd = fatal_state.fd;
    _PyFaulthandler_WriteText(fd, "Fatal Python error: ");
    _PyFaulthandler_WriteText(fd, title);
    _PyFaulthandler_WriteText(fd, "\n\n");
    PyInterpreterState *interp = fatal_state.interp;
    _PyFaulthandler_DumpStacks(fd, interp, _PyFaulthandler_FindCurrent(interp),
                               fatal_state.all_threads);
    if (fatal_state.c_stack) {
        _PyFaulthandler_WriteText(fd, "\n" C_STACK_TITLE C_STACK_UNAVAILABLE);
    }
    errno = saved_errno;
    /* SA_NODEFER: delivered now, to the handler just put back.  For a
       real fault, returning re-runs the faulting instruction too. */
    raise(signum);
}

static int
install_fatal_handlers(void)
{
    if (ensure_alt_stack() < 0) {
        return -1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_NODEFER | SA_ONSTACK;
    for (size_t i = 0; i < N_FATAL_SIGNALS; i++) {
        if (sigaction(fatal_signals[i].signum, &action, &fatal_signals[i].previous) != 0) {
            int saved = errno;
            while (i-- > 0) {
                sigaction(fatal_signals[i].signum, &fatal_signals[i].previous, NULL);
            }
            errno = saved;
            PyErr_SetFromErrno(PyExc_OSError);
            return -1;
        }
    }
    fatal_state.enabled = 1;
    return 0;
}

static PyObject *
faulthandler_enable(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"file", "all_threads", "c_stack", NULL};
    PyObject *file = NULL;
    int all_threads = 1, c_stack = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|Opp:enable", kwlist, &file, &all_threads,
                                     &c_stack)) {
        return NULL;
    }
    PyObject *holder;
    int fd = file_to_fd(file, &holder);
    if (fd < 0) {
        return NULL;
    }
    /* The handler reads these; it is not installed yet, or the old
       values stay valid until the swap of `file` below. */
    fatal_state.fd = fd;
    fatal_state.all_threads = all_threads;
    fatal_state.c_stack = c_stack;
    fatal_state.interp = _PyInterpreterState_GET();
    Py_XSETREF(fatal_state.file, holder);
    if (!fatal_state.enabled && install_fatal_handlers() < 0) {
        Py_CLEAR(fatal_state.file);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
faulthandler_disable(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    restore_fatal_handlers();
    Py_CLEAR(fatal_state.file);
    Py_RETURN_NONE;
}

static PyObject *
faulthandler_is_enabled(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(fatal_state.enabled);
}

/* ---- On demand ------------------------------------------------------------------------- */

static PyObject *
faulthandler_dump_traceback(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"file", "all_threads", NULL};
    PyObject *file = NULL;
    int all_threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|Op:dump_traceback", kwlist, &file,
                                     &all_threads)) {
        return NULL;
    }
    PyObject *holder;
    int fd = file_to_fd(file, &holder);
    if (fd < 0) {
        return NULL;
    }
    PyThreadState *tstate = _PyThreadState_GET();
    _PyFaulthandler_DumpStacks(fd, tstate->interp, tstate, all_threads);
    Py_XDECREF(holder);
    Py_RETURN_NONE;
}

static PyObject *
faulthandler_dump_c_stack(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"file", NULL};
    PyObject *file = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:dump_c_stack", kwlist, &file)) {
        return NULL;
    }
    PyObject *holder;
    int fd = file_to_fd(file, &holder);
    if (fd < 0) {
        return NULL;
    }
    _PyFaulthandler_WriteText(fd, C_STACK_TITLE C_STACK_UNAVAILABLE);
    Py_XDECREF(holder);
    Py_RETURN_NONE;
}

/* ---- The watchdog ---------------------------------------------------------------------- */

/* While armed, the arming side holds `wake`; releasing it is the cancel
   request, which the watchdog sees as a successful timed acquire.  The
   watchdog holds `done` while it runs, so cancelling waits on it. */
static struct {
    PyThread_type_lock wake;
    PyThread_type_lock done;
    int armed;
    PY_TIMEOUT_T timeout_us;
    int repeat;
    int exit_after;
    int fd;
    PyObject *file;
    PyInterpreterState *interp;
    char header[80];
} watchdog;

static void
watchdog_main(void *unused)
{
    (void)unused;
    for (;;) {
        PyLockStatus woke = PyThread_acquire_lock_timed(watchdog.wake, watchdog.timeout_us, 0);
        if (woke == PY_LOCK_ACQUIRED) {
            PyThread_release_lock(watchdog.wake);
            break;
        }
        _PyFaulthandler_WriteText(watchdog.fd, watchdog.header);
        _PyFaulthandler_DumpStacks(watchdog.fd, watchdog.interp, NULL, 1);
        if (watchdog.exit_after) {
            _exit(1);
        }
        if (!watchdog.repeat) {
            break;
        }
    }
    PyThread_release_lock(watchdog.done);
}

static void
watchdog_cancel(void)
{
    if (!watchdog.armed) {
        return;
    }
    PyThread_release_lock(watchdog.wake);
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(watchdog.done, WAIT_LOCK);
    Py_END_ALLOW_THREADS
    PyThread_release_lock(watchdog.done);
    watchdog.armed = 0;
    Py_CLEAR(watchdog.file);
}

/* "Timeout (H:MM:SS[.ffffff])!\n", made before arming: the watchdog
   must not format anything. */
static void
format_timeout_header(PY_TIMEOUT_T us)
{
    long long seconds = us / 1000000, fraction = us % 1000000;
    char clock[48];
    snprintf(clock, sizeof(clock), "%lld:%02lld:%02lld", seconds / 3600,
                  (seconds / 60) % 60, seconds % 60);
    if (fraction != 0) {
        snprintf(watchdog.header, sizeof(watchdog.header), "Timeout (%s.%06lld)!\n",
                      clock, fraction);
    }
    else {
        snprintf(watchdog.header, sizeof(watchdog.header), "Timeout (%s)!\n", clock);
    }
}

/* The timeout in microseconds, rounded up; -1 with an exception. */
static PY_TIMEOUT_T
timeout_to_us(PyObject *timeout)
{
    double seconds;
    if (PyFloat_Check(timeout)) {
        seconds = PyFloat_AS_DOUBLE(timeout);
        if (isnan(seconds)) {
            PyErr_SetString(PyExc_ValueError, "Invalid value NaN (not a number)");
            return -1;
        }
    }
    else {
        PyObject *whole = PyNumber_Index(timeout);
        if (whole == NULL) {
            return -1;
        }
        seconds = PyLong_AsDouble(whole);
        Py_DECREF(whole);
        if (seconds == -1.0 && PyErr_Occurred()) {
            return -1;
        }
    }
    double us = ceil(seconds * 1e6);
    if (!(us < (double)PY_TIMEOUT_MAX)) {
        PyErr_SetString(PyExc_OverflowError, "timestamp out of range for platform time_t");
        return -1;
    }
    if (us <= 0) {
        PyErr_SetString(PyExc_ValueError, "timeout must be greater than 0");
        return -1;
    }
    return (PY_TIMEOUT_T)us;
}

static int
ensure_watchdog_locks(void)
{
    if (watchdog.wake == NULL) {
        watchdog.wake = PyThread_allocate_lock();
    }
    if (watchdog.done == NULL) {
        watchdog.done = PyThread_allocate_lock();
    }
    if (watchdog.wake == NULL || watchdog.done == NULL) {
        PyErr_SetString(PyExc_MemoryError, "unable to allocate the watchdog locks");
        return -1;
    }
    return 0;
}

static PyObject *
faulthandler_dump_traceback_later(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"timeout", "repeat", "file", "exit", NULL};
    PyObject *timeout, *file = NULL;
    int repeat = 0, exit_after = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|pOp:dump_traceback_later", kwlist,
                                     &timeout, &repeat, &file, &exit_after)) {
        return NULL;
    }
    PY_TIMEOUT_T us = timeout_to_us(timeout);
    if (us < 0) {
        return NULL;
    }
    PyObject *holder;
    int fd = file_to_fd(file, &holder);
    if (fd < 0) {
        return NULL;
    }
    if (ensure_watchdog_locks() < 0) {
        Py_XDECREF(holder);
        return NULL;
    }
    watchdog_cancel();
    watchdog.timeout_us = us;
    watchdog.repeat = repeat;
    watchdog.exit_after = exit_after;
    watchdog.fd = fd;
    watchdog.file = holder;
    watchdog.interp = _PyInterpreterState_GET();
    format_timeout_header(us);
    PyThread_acquire_lock(watchdog.wake, WAIT_LOCK);
    PyThread_acquire_lock(watchdog.done, WAIT_LOCK);
    if (PyThread_start_new_thread(watchdog_main, NULL) == PYTHREAD_INVALID_THREAD_ID) {
        PyThread_release_lock(watchdog.wake);
        PyThread_release_lock(watchdog.done);
        Py_CLEAR(watchdog.file);
        PyErr_SetString(PyExc_RuntimeError, "unable to start watchdog thread");
        return NULL;
    }
    watchdog.armed = 1;
    Py_RETURN_NONE;
}

static PyObject *
faulthandler_cancel_dump_traceback_later(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    watchdog_cancel();
    Py_RETURN_NONE;
}

/* ---- User signals ---------------------------------------------------------------------- */

typedef struct {
    volatile sig_atomic_t registered;
    int fd;
    int all_threads;
    int chain;
    PyObject *file;
    PyInterpreterState *interp;
    struct sigaction previous;
} user_signal;

static user_signal user_signals[NSIG];

/* Hand the signal on to the disposition register() replaced. */
static void
chain_to_previous(int signum, user_signal *entry, siginfo_t *info, void *context)
{
    struct sigaction *prev = &entry->previous;
    if (prev->sa_flags & SA_SIGINFO) {
        prev->sa_sigaction(signum, info, context);
        return;
    }
    if (prev->sa_handler == SIG_IGN) {
        return;
    }
    if (prev->sa_handler != SIG_DFL) {
        prev->sa_handler(signum);
        return;
    }
    /* The default action: let it happen (it usually ends the process),
       then take the signal back if it did not. */
    struct sigaction ours;
    sigaction(signum, prev, &ours);
    sigset_t just_this;
    sigemptyset(&just_this);
    sigaddset(&just_this, signum);
    raise(signum);
    pthread_sigmask(SIG_UNBLOCK, &just_this, NULL);
    sigaction(signum, &ours, NULL);
}

static void
on_user_signal(int signum, siginfo_t *info, void *context)
{
    if (signum <= 0 || signum >= NSIG || !user_signals[signum].registered) {
        return;
    }
    int saved_errno = errno;
    user_signal *entry = &user_signals[signum];
    PyThreadState *current = _PyFaulthandler_FindCurrent(entry->interp);
    _PyFaulthandler_DumpStacks(entry->fd, entry->interp, current, entry->all_threads);
    if (entry->chain) {
        chain_to_previous(signum, entry, info, context);
    }
    errno = saved_errno;
}

static int
check_user_signum(int signum)
{
    for (size_t i = 0; i < N_FATAL_SIGNALS; i++) {
        if (fatal_signals[i].signum == signum) {
            PyErr_Format(PyExc_RuntimeError,
                         "signal %i cannot be registered, use enable() instead", signum);
            return -1;
        }
    }
    if (signum < 1 || signum >= NSIG) {
        PyErr_SetString(PyExc_ValueError, "signal number out of range");
        return -1;
    }
    return 0;
}

static int
install_user_handler(int signum)
{
    if (ensure_alt_stack() < 0) {
        return -1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = on_user_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    if (sigaction(signum, &action, &user_signals[signum].previous) != 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    return 0;
}

static PyObject *
faulthandler_register(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"signum", "file", "all_threads", "chain", NULL};
    int signum, all_threads = 1, chain = 0;
    PyObject *file = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i|Opp:register", kwlist, &signum, &file,
                                     &all_threads, &chain)) {
        return NULL;
    }
    if (check_user_signum(signum) < 0) {
        return NULL;
    }
    PyObject *holder;
    int fd = file_to_fd(file, &holder);
    if (fd < 0) {
        return NULL;
    }
    user_signal *entry = &user_signals[signum];
    entry->fd = fd;
    entry->all_threads = all_threads;
    entry->chain = chain;
    entry->interp = _PyInterpreterState_GET();
    Py_XSETREF(entry->file, holder);
    if (!entry->registered) {
        if (install_user_handler(signum) < 0) {
            Py_CLEAR(entry->file);
            return NULL;
        }
        entry->registered = 1;
    }
    Py_RETURN_NONE;
}

/* Put one user signal's disposition back; 0 if it was not registered. */
static int
restore_user_signal(int signum)
{
    user_signal *entry = &user_signals[signum];
    if (!entry->registered) {
        return 0;
    }
    entry->registered = 0;
    sigaction(signum, &entry->previous, NULL);
    Py_CLEAR(entry->file);
    return 1;
}

static PyObject *
faulthandler_unregister(PyObject *module, PyObject *arg)
{
    int signum = PyLong_AsInt(arg);
    if (signum == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (check_user_signum(signum) < 0) {
        return NULL;
    }
    return PyBool_FromLong(restore_user_signal(signum));
}

/* ---- Crash helpers for the tests ------------------------------------------------------- */

/* _sigsegv(release_gil=False): the fault can also come from a thread
   that has let go of the GIL, whose thread-local state pointer is NULL. */
static PyObject *
faulthandler_sigsegv(PyObject *module, PyObject *args)
{
    int detach = 0;
    if (!PyArg_ParseTuple(args, "|p:_sigsegv", &detach)) {
        return NULL;
    }
    PyThreadState *detached = detach ? PyEval_SaveThread() : NULL;
    raise(SIGSEGV);
    if (detached != NULL) {
        PyEval_RestoreThread(detached);
    }
    Py_RETURN_NONE;
}

static PyObject *
faulthandler_read_null(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    volatile int *volatile nowhere = NULL;
    int value = *nowhere;
    return PyLong_FromLong(value);
}

static PyObject *
faulthandler_sigabrt(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    abort();
}

static PyObject *
faulthandler_sigfpe(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    raise(SIGFPE);
    Py_RETURN_NONE;
}

/* Recurse on the C stack until the guard page is hit; the handlers run
   on the alternate stack, so the overflow is still reported.  The depth
   is bounded so that an unlimited stack cannot eat all memory: past the
   bound a plain SIGSEGV stands in for the overflow. */
static Py_NO_INLINE uintptr_t
grow_stack(volatile char *previous, int depth)
{
    volatile char frame[4096];
    frame[0] = (char)depth;
    frame[sizeof(frame) - 1] = previous != NULL ? previous[0] : 0;
    if (depth >= 1 << 20) {
        raise(SIGSEGV);
        return 0;
    }
    return grow_stack(frame, depth + 1) + (uintptr_t)frame[0];
}

static PyObject *
faulthandler_stack_overflow(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSize_t((size_t)grow_stack(NULL, 0));
}

/* ---- Module ---------------------------------------------------------------------------- */

void
_PyFaulthandler_Fini(void)
{
    watchdog_cancel();
    if (watchdog.wake != NULL) {
        PyThread_free_lock(watchdog.wake);
        watchdog.wake = NULL;
    }
    if (watchdog.done != NULL) {
        PyThread_free_lock(watchdog.done);
        watchdog.done = NULL;
    }
    for (int signum = 1; signum < NSIG; signum++) {
        restore_user_signal(signum);
    }
    restore_fatal_handlers();
    Py_CLEAR(fatal_state.file);
    release_alt_stack();
}

int
_PyFaulthandler_StartUp(void)
{
    PyObject *module = PyImport_ImportModule("faulthandler");
    if (module == NULL) {
        return -1;
    }
    PyObject *result = PyObject_CallMethod(module, "enable", NULL);
    Py_DECREF(module);
    Py_XDECREF(result);
    return result == NULL ? -1 : 0;
}

static PyMethodDef faulthandler_methods[] = {
    {"enable", (PyCFunction)(void (*)(void))faulthandler_enable, METH_VARARGS | METH_KEYWORDS,
     "enable($module, /, file=sys.stderr, all_threads=True, c_stack=True)\n--\n\n"
     "Write a traceback to file when a fatal signal arrives."},
    {"disable", faulthandler_disable, METH_NOARGS,
     "disable($module, /)\n--\n\nPut back the fatal-signal handlers enable() replaced."},
    {"is_enabled", faulthandler_is_enabled, METH_NOARGS,
     "is_enabled($module, /)\n--\n\nWhether the fatal-signal handlers are installed."},
    {"dump_traceback", (PyCFunction)(void (*)(void))faulthandler_dump_traceback,
     METH_VARARGS | METH_KEYWORDS,
     "dump_traceback($module, /, file=sys.stderr, all_threads=True)\n--\n\n"
     "Write the Python stack of this thread, or of every thread, to file."},
    {"dump_c_stack", (PyCFunction)(void (*)(void))faulthandler_dump_c_stack,
     METH_VARARGS | METH_KEYWORDS,
     "dump_c_stack($module, /, file=sys.stderr)\n--\n\n"
     "Write the C stack to file (this build says it cannot)."},
    {"dump_traceback_later", (PyCFunction)(void (*)(void))faulthandler_dump_traceback_later,
     METH_VARARGS | METH_KEYWORDS,
     "dump_traceback_later($module, /, timeout, repeat=False, file=sys.stderr, exit=False)\n"
     "--\n\n"
     "After timeout seconds (every timeout seconds with repeat), write every\n"
     "thread's stack to file; with exit, then end the process with status 1."},
    {"cancel_dump_traceback_later", faulthandler_cancel_dump_traceback_later, METH_NOARGS,
     "cancel_dump_traceback_later($module, /)\n--\n\nDisarm dump_traceback_later()."},
    {"register", (PyCFunction)(void (*)(void))faulthandler_register,
     METH_VARARGS | METH_KEYWORDS,
     "register($module, /, signum, file=sys.stderr, all_threads=True, chain=False)\n--\n\n"
     "Write the stacks to file whenever signum arrives; with chain, then run\n"
     "the handler that was there before."},
    {"unregister", faulthandler_unregister, METH_O,
     "unregister($module, signum, /)\n--\n\n"
     "Undo register(signum); False if it was not registered."},
    {"_sigsegv", faulthandler_sigsegv, METH_VARARGS,
     "_sigsegv($module, release_gil=False, /)\n--\n\nRaise SIGSEGV (a test helper)."},
    {"_read_null", faulthandler_read_null, METH_NOARGS,
     "_read_null($module, /)\n--\n\nRead through a NULL pointer (a test helper)."},
    {"_sigabrt", faulthandler_sigabrt, METH_NOARGS,
     "_sigabrt($module, /)\n--\n\nCall abort() (a test helper)."},
    {"_sigfpe", faulthandler_sigfpe, METH_NOARGS,
     "_sigfpe($module, /)\n--\n\nRaise SIGFPE (a test helper)."},
    {"_stack_overflow", faulthandler_stack_overflow, METH_NOARGS,
     "_stack_overflow($module, /)\n--\n\nOverflow the C stack (a test helper)."},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef faulthandler_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "faulthandler",
    .m_doc = "Python tracebacks on fatal signals, after a timeout or on a user signal.",
    .m_size = -1,
    .m_methods = faulthandler_methods,
};

PyObject *
PyInit_faulthandler(void)
{
    return PyModule_Create(&faulthandler_module);
}
