/* Signals: the _signal module (Lib/signal.py wraps it in enums) and
   PyErr_CheckSignals.

   The C-level handler only records that a signal arrived: a flag per
   signal number, a global "something tripped" flag, the signal-pending bit
   in the main thread's eval breaker, and a byte to the wakeup fd when one
   is set.  The Python handlers run later in the main thread, when it
   next checks its eval breaker or calls PyErr_CheckSignals. */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_pystate.h"
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <fcntl.h>
#include <unistd.h>

#ifndef NSIG
#define NSIG 65
#endif

static volatile sig_atomic_t arrived[NSIG];
static volatile sig_atomic_t any_arrived = 0;
static volatile sig_atomic_t wakeup_fd = -1;

/* Python-level handler per signal: a callable, or the ints SIG_DFL /
   SIG_IGN, or None for a handler not installed from Python. */
static PyObject *handlers[NSIG];
static PyObject *default_int_handler = NULL;
static PyObject *itimer_error = NULL;

static int
signum_in_range(long signum)
{
    return signum >= 1 && signum < NSIG;
}

static void
c_signal_handler(int signum)
{
    int saved_errno = errno;
    arrived[signum] = 1;
    any_arrived = 1;
    PyThreadState *main_tstate = _PyThreadState_Main();
    if (main_tstate != NULL) {
        _Py_set_eval_breaker_bit(main_tstate, _PY_SIGNALS_PENDING_BIT);
    }
    if (wakeup_fd >= 0) {
        unsigned char byte = (unsigned char)signum;
        ssize_t ignored = write(wakeup_fd, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

/* Install func as the C handler; without SA_RESTART so blocking calls
   return EINTR and Python handlers get to run (PEP 475 retries). */
static int
set_c_handler(int signum, void (*func)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = func;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_ONSTACK;
    return sigaction(signum, &sa, NULL);
}

static int
on_main_thread(void)
{
    return PyThread_get_thread_ident() == _PyThread_MainIdent();
}

/* ---- Running the Python handlers ------------------------------------------ */

static int
run_handler(PyThreadState *tstate, int signum)
{
    PyObject *handler = handlers[signum];
    if (handler == NULL || PyLong_Check(handler) || Py_IsNone(handler)) {
        return 0;
    }
    PyObject *frame = (PyObject *)PyEval_GetFrame();
    PyObject *args[2];
    args[0] = PyLong_FromLong(signum);
    if (args[0] == NULL) {
        return -1;
    }
    args[1] = frame != NULL ? frame : Py_None;
    Py_INCREF(handler);
    PyObject *res = PyObject_Vectorcall(handler, args, 2, NULL);
    Py_DECREF(handler);
    Py_DECREF(args[0]);
    (void)tstate;
    if (res == NULL) {
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

int
_PyErr_CheckSignalsTstate(PyThreadState *tstate)
{
    if (!any_arrived || tstate == NULL || tstate != _PyThreadState_Main()) {
        return 0;
    }
    any_arrived = 0;
    for (int signum = 1; signum < NSIG; signum++) {
        if (!arrived[signum]) {
            continue;
        }
        arrived[signum] = 0;
        if (run_handler(tstate, signum) < 0) {
            /* The others run at the next check. */
            any_arrived = 1;
            _Py_set_eval_breaker_bit(tstate, _PY_SIGNALS_PENDING_BIT);
            return -1;
        }
    }
    return 0;
}

int
PyErr_CheckSignals(void)
{
    return _PyErr_CheckSignalsTstate(_PyThreadState_GET());
}

void
PyErr_SetInterrupt(void)
{
    c_signal_handler(SIGINT);
}

int
PyErr_SetInterruptEx(int signum)
{
    if (!signum_in_range(signum)) {
        return -1;
    }
    PyObject *handler = handlers[signum];
    if (handler == NULL || PyLong_Check(handler)) {
        return 0;
    }
    c_signal_handler(signum);
    return 0;
}

/* ---- signal.signal and friends ----------------------------------------------- */

static int
parse_signum(PyObject *arg, int *signum)
{
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (!signum_in_range(v)) {
        PyErr_SetString(PyExc_ValueError, "signal number out of range");
        return -1;
    }
    *signum = (int)v;
    return 0;
}

static PyObject *
handler_or_none(int signum)
{
    PyObject *h = handlers[signum];
    return Py_NewRef(h != NULL ? h : Py_None);
}

static PyObject *
signal_signal(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int signum;
    if (!_PyArg_CheckPositional("signal", nargs, 2, 2) || parse_signum(args[0], &signum) < 0) {
        return NULL;
    }
    if (!on_main_thread()) {
        PyErr_SetString(PyExc_ValueError, "signal only works in main thread of the main interpreter");
        return NULL;
    }
    PyObject *handler = args[1];
    void (*func)(int) = c_signal_handler;
    if (PyLong_Check(handler)) {
        long v = PyLong_AsLong(handler);
        if (v == (long)(intptr_t)SIG_DFL || v == (long)(intptr_t)SIG_IGN) {
            func = v == (long)(intptr_t)SIG_DFL ? SIG_DFL : SIG_IGN;
        }
        else {
            if (v == -1 && PyErr_Occurred()) {
                PyErr_Clear();
            }
            handler = NULL;
        }
    }
    else if (!PyCallable_Check(handler)) {
        handler = NULL;
    }
    if (handler == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "signal handler must be signal.SIG_IGN, signal.SIG_DFL, or a callable object");
        return NULL;
    }
    /* Run what arrived under the old handler first. */
    if (PyErr_CheckSignals() < 0) {
        return NULL;
    }
    if (set_c_handler(signum, func) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    PyObject *old = handler_or_none(signum);
    Py_XSETREF(handlers[signum], Py_NewRef(handler));
    return old;
}

static PyObject *
signal_getsignal(PyObject *module, PyObject *arg)
{
    int signum;
    if (parse_signum(arg, &signum) < 0) {
        return NULL;
    }
    return handler_or_none(signum);
}

static PyObject *
signal_default_int_handler(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("default_int_handler", nargs, 2, 2)) {
        return NULL;
    }
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    return NULL;
}

static PyObject *
signal_raise_signal(PyObject *module, PyObject *arg)
{
    int signum;
    if (parse_signum(arg, &signum) < 0) {
        return NULL;
    }
    if (raise(signum) != 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    if (PyErr_CheckSignals() < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
signal_strsignal(PyObject *module, PyObject *arg)
{
    int signum;
    if (parse_signum(arg, &signum) < 0) {
        return NULL;
    }
    const char *text = strsignal(signum);
    if (text == NULL || strstr(text, "Unknown signal") != NULL || strstr(text, "Real-time signal") != NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(text);
}

static PyObject *
signal_alarm(PyObject *module, PyObject *arg)
{
    long secs = PyLong_AsLong(arg);
    if (secs == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyLong_FromLong((long)alarm((unsigned int)secs));
}

static PyObject *
signal_pause(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    Py_BEGIN_ALLOW_THREADS
    (void)pause();
    Py_END_ALLOW_THREADS
    if (PyErr_CheckSignals() < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
signal_siginterrupt(PyObject *module, PyObject *args)
{
    int signum, flag;
    if (!PyArg_ParseTuple(args, "ii:siginterrupt", &signum, &flag)) {
        return NULL;
    }
    if (!signum_in_range(signum)) {
        PyErr_SetString(PyExc_ValueError, "signal number out of range");
        return NULL;
    }
    struct sigaction sa;
    if (sigaction(signum, NULL, &sa) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    if (flag) {
        sa.sa_flags &= ~SA_RESTART;
    }
    else {
        sa.sa_flags |= SA_RESTART;
    }
    if (sigaction(signum, &sa, NULL) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

static PyObject *
signal_set_wakeup_fd(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"", "warn_on_full_buffer", NULL};
    int fd, warn = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "i|$p:set_wakeup_fd", kwlist, &fd, &warn)) {
        return NULL;
    }
    if (!on_main_thread()) {
        PyErr_SetString(PyExc_ValueError,
                        "set_wakeup_fd only works in main thread of the main interpreter");
        return NULL;
    }
    if (fd != -1) {
        struct stat st;
        if (fstat(fd, &st) != 0) {
            return PyErr_SetFromErrno(PyExc_OSError);
        }
        int flags = fcntl(fd, F_GETFL);
        if (flags < 0) {
            return PyErr_SetFromErrno(PyExc_OSError);
        }
        if (!(flags & O_NONBLOCK)) {
            PyErr_Format(PyExc_ValueError, "the fd %i must be in non-blocking mode", fd);
            return NULL;
        }
    }
    int old = wakeup_fd;
    wakeup_fd = fd;
    return PyLong_FromLong(old);
}

/* ---- Signal sets ------------------------------------------------------------ */

static int
iterable_to_sigset(PyObject *iterable, sigset_t *set)
{
    sigemptyset(set);
    PyObject *it = PyObject_GetIter(iterable);
    if (it == NULL) {
        return -1;
    }
    PyObject *item;
    while ((item = PyIter_Next(it)) != NULL) {
        long v = PyLong_AsLong(item);
        Py_DECREF(item);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(it);
            return -1;
        }
        if (!signum_in_range(v)) {
            PyErr_Format(PyExc_ValueError, "signal number %ld out of range [1; %i]", v, NSIG - 1);
            Py_DECREF(it);
            return -1;
        }
        sigaddset(set, (int)v);
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *
sigset_to_set(const sigset_t *set)
{
    PyObject *result = PySet_New(NULL);
    for (int signum = 1; result != NULL && signum < NSIG; signum++) {
        if (sigismember(set, signum) != 1) {
            continue;
        }
        PyObject *v = PyLong_FromLong(signum);
        if (v == NULL || PySet_Add(result, v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(result);
            break;
        }
        Py_DECREF(v);
    }
    return result;
}

static PyObject *
signal_valid_signals(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    sigset_t all;
    sigfillset(&all);
    return sigset_to_set(&all);
}

static PyObject *
signal_pthread_sigmask(PyObject *module, PyObject *args)
{
    int how;
    PyObject *mask_arg;
    if (!PyArg_ParseTuple(args, "iO:pthread_sigmask", &how, &mask_arg)) {
        return NULL;
    }
    sigset_t mask, previous;
    if (iterable_to_sigset(mask_arg, &mask) < 0) {
        return NULL;
    }
    int err = pthread_sigmask(how, &mask, &previous);
    if (err != 0) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    /* Signals just unblocked may be waiting for their handlers. */
    if (PyErr_CheckSignals() < 0) {
        return NULL;
    }
    return sigset_to_set(&previous);
}

static PyObject *
signal_sigpending(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    sigset_t set;
    if (sigpending(&set) != 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return sigset_to_set(&set);
}

static PyObject *
signal_sigwait(PyObject *module, PyObject *arg)
{
    sigset_t set;
    if (iterable_to_sigset(arg, &set) < 0) {
        return NULL;
    }
    int signum = 0, err;
    Py_BEGIN_ALLOW_THREADS
    err = sigwait(&set, &signum);
    Py_END_ALLOW_THREADS
    if (err != 0) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromLong(signum);
}

static PyObject *
signal_pthread_kill(PyObject *module, PyObject *args)
{
    unsigned long ident;
    int signum;
    if (!PyArg_ParseTuple(args, "ki:pthread_kill", &ident, &signum)) {
        return NULL;
    }
    int err = pthread_kill((pthread_t)ident, signum);
    if (err != 0) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    if (PyErr_CheckSignals() < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- Interval timers ------------------------------------------------------- */

static void
seconds_to_timeval(double secs, struct timeval *tv)
{
    tv->tv_sec = (time_t)secs;
    tv->tv_usec = (suseconds_t)((secs - (double)tv->tv_sec) * 1e6);
    /* A positive value too small for a microsecond still means "arm". */
    if (secs > 0 && tv->tv_sec == 0 && tv->tv_usec == 0) {
        tv->tv_usec = 1;
    }
}

static PyObject *
itimer_tuple(const struct itimerval *v)
{
    return Py_BuildValue("(dd)", (double)v->it_value.tv_sec + (double)v->it_value.tv_usec * 1e-6,
                         (double)v->it_interval.tv_sec + (double)v->it_interval.tv_usec * 1e-6);
}

static PyObject *
signal_setitimer(PyObject *module, PyObject *args)
{
    int which;
    double seconds, interval = 0.0;
    if (!PyArg_ParseTuple(args, "id|d:setitimer", &which, &seconds, &interval)) {
        return NULL;
    }
    if (seconds < 0 || interval < 0) {
        errno = EINVAL;
        PyErr_SetFromErrno(itimer_error);
        return NULL;
    }
    struct itimerval new_value, old_value;
    seconds_to_timeval(seconds, &new_value.it_value);
    seconds_to_timeval(interval, &new_value.it_interval);
    if (setitimer(which, &new_value, &old_value) != 0) {
        PyErr_SetFromErrno(itimer_error);
        return NULL;
    }
    return itimer_tuple(&old_value);
}

static PyObject *
signal_getitimer(PyObject *module, PyObject *arg)
{
    int which = PyLong_AsInt(arg);
    if (which == -1 && PyErr_Occurred()) {
        return NULL;
    }
    struct itimerval value;
    if (getitimer(which, &value) != 0) {
        PyErr_SetFromErrno(itimer_error);
        return NULL;
    }
    return itimer_tuple(&value);
}

static PyMethodDef default_int_handler_def = {
    "default_int_handler", _PyCFunction_CAST(signal_default_int_handler), METH_FASTCALL,
    "The default handler for SIGINT: raise KeyboardInterrupt.",
};

static PyMethodDef signal_methods[] = {
    {"signal", _PyCFunction_CAST(signal_signal), METH_FASTCALL,
     "Set the handler for a signal; return the previous one."},
    {"getsignal", signal_getsignal, METH_O, "The current handler for a signal."},
    {"raise_signal", signal_raise_signal, METH_O, "Send a signal to this process."},
    {"strsignal", signal_strsignal, METH_O, "The system's description of a signal, or None."},
    {"alarm", signal_alarm, METH_O, "Arm SIGALRM in so many seconds; return the previous delay."},
    {"pause", signal_pause, METH_NOARGS, "Wait until a signal arrives."},
    {"siginterrupt", signal_siginterrupt, METH_VARARGS,
     "Whether a signal interrupts system calls (1) or restarts them (0)."},
    {"set_wakeup_fd", _PyCFunction_CAST(signal_set_wakeup_fd), METH_VARARGS | METH_KEYWORDS,
     "Write each signal's number to this fd as it arrives; -1 turns it off."},
    {"valid_signals", signal_valid_signals, METH_NOARGS, "The set of signal numbers valid here."},
    {"pthread_sigmask", signal_pthread_sigmask, METH_VARARGS,
     "Change the calling thread's signal mask; return the previous one."},
    {"sigpending", signal_sigpending, METH_NOARGS, "Signals blocked and waiting."},
    {"sigwait", signal_sigwait, METH_O, "Wait for one of the signals in a set; return its number."},
    {"pthread_kill", signal_pthread_kill, METH_VARARGS, "Send a signal to a thread."},
    {"setitimer", signal_setitimer, METH_VARARGS,
     "Arm an interval timer; return its previous (delay, interval)."},
    {"getitimer", signal_getitimer, METH_O, "An interval timer's (delay, interval)."},
    {NULL, NULL, 0, NULL},
};

/* ---- The module ------------------------------------------------------------ */

static const struct {
    const char *name;
    int value;
} signal_names[] = {
    {"SIGHUP", SIGHUP},       {"SIGINT", SIGINT},       {"SIGQUIT", SIGQUIT},
    {"SIGILL", SIGILL},       {"SIGTRAP", SIGTRAP},     {"SIGABRT", SIGABRT},
    {"SIGIOT", SIGIOT},       {"SIGBUS", SIGBUS},       {"SIGFPE", SIGFPE},
    {"SIGKILL", SIGKILL},     {"SIGUSR1", SIGUSR1},     {"SIGSEGV", SIGSEGV},
    {"SIGUSR2", SIGUSR2},     {"SIGPIPE", SIGPIPE},     {"SIGALRM", SIGALRM},
    {"SIGTERM", SIGTERM},     {"SIGSTKFLT", SIGSTKFLT}, {"SIGCHLD", SIGCHLD},
    {"SIGCONT", SIGCONT},     {"SIGSTOP", SIGSTOP},     {"SIGTSTP", SIGTSTP},
    {"SIGTTIN", SIGTTIN},     {"SIGTTOU", SIGTTOU},     {"SIGURG", SIGURG},
    {"SIGXCPU", SIGXCPU},     {"SIGXFSZ", SIGXFSZ},     {"SIGVTALRM", SIGVTALRM},
    {"SIGPROF", SIGPROF},     {"SIGWINCH", SIGWINCH},   {"SIGIO", SIGIO},
    {"SIGPOLL", SIGPOLL},     {"SIGPWR", SIGPWR},       {"SIGSYS", SIGSYS},
    {"SIG_DFL", 0},           {"SIG_IGN", 1},           {"SIG_BLOCK", SIG_BLOCK},
    {"SIG_UNBLOCK", SIG_UNBLOCK}, {"SIG_SETMASK", SIG_SETMASK},
    {"ITIMER_REAL", ITIMER_REAL}, {"ITIMER_VIRTUAL", ITIMER_VIRTUAL},
    {"ITIMER_PROF", ITIMER_PROF}, {"NSIG", NSIG},
};

static struct PyModuleDef signalmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_signal",
    .m_doc = "Setting handlers for asynchronous events (signals).",
    .m_size = -1,
    .m_methods = signal_methods,
};

static int
add_constants(PyObject *m)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(signal_names); i++) {
        if (PyModule_AddIntConstant(m, signal_names[i].name, signal_names[i].value) < 0) {
            return -1;
        }
    }
    if (PyModule_AddIntConstant(m, "SIGRTMIN", SIGRTMIN) < 0 ||
        PyModule_AddIntConstant(m, "SIGRTMAX", SIGRTMAX) < 0) {
        return -1;
    }
    return 0;
}

PyObject *
PyInit__signal(void)
{
    PyObject *m = PyModule_Create(&signalmodule);
    if (m == NULL) {
        return NULL;
    }
    if (itimer_error == NULL) {
        itimer_error = PyErr_NewException("signal.itimer_error", PyExc_OSError, NULL);
    }
    if (itimer_error == NULL || add_constants(m) < 0 ||
        PyModule_AddObjectRef(m, "ItimerError", itimer_error) < 0 ||
        PyModule_AddObjectRef(m, "default_int_handler", default_int_handler) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

/* Learn each signal's current disposition, so getsignal() answers
   SIG_DFL, SIG_IGN or None (a handler set from C) for those never set
   from Python. */
static void
record_startup_handlers(void)
{
    for (int signum = 1; signum < NSIG; signum++) {
        struct sigaction sa;
        PyObject *h = Py_None;
        if (sigaction(signum, NULL, &sa) == 0) {
            if (sa.sa_handler == SIG_DFL) {
                h = PyLong_FromLong(0);
            }
            else if (sa.sa_handler == SIG_IGN) {
                h = PyLong_FromLong(1);
            }
        }
        handlers[signum] = h == Py_None ? Py_NewRef(Py_None) : h;
    }
}

int
_PySignal_Init(int install)
{
    default_int_handler = PyCFunction_New(&default_int_handler_def, NULL);
    if (default_int_handler == NULL) {
        return -1;
    }
    if (install) {
        signal(SIGPIPE, SIG_IGN);
        signal(SIGXFSZ, SIG_IGN);
    }
    record_startup_handlers();
    if (install && handlers[SIGINT] != NULL && PyLong_Check(handlers[SIGINT]) &&
        PyLong_AsLong(handlers[SIGINT]) == 0) {
        if (set_c_handler(SIGINT, c_signal_handler) == 0) {
            Py_SETREF(handlers[SIGINT], Py_NewRef(default_int_handler));
        }
    }
    return 0;
}

void
_PySignal_Fini(void)
{
    for (int signum = 1; signum < NSIG; signum++) {
        PyObject *h = handlers[signum];
        if (h != NULL && !PyLong_Check(h) && !Py_IsNone(h)) {
            /* Python handlers are gone; back to the default action. */
            set_c_handler(signum, SIG_DFL);
        }
        handlers[signum] = NULL;
        Py_XDECREF(h);
        arrived[signum] = 0;
    }
    any_arrived = 0;
    Py_CLEAR(default_int_handler);
    Py_CLEAR(itimer_error);
}
