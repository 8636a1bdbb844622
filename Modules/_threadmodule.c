/* The _thread module: starting OS threads that run Python callables,
   locks and re-entrant locks, thread handles to join, thread-local
   objects, and the hook that reports a thread's uncaught exception.
   Lib/threading.py is written on top of it.

   A started thread is described by a `thread_record`, a plain C struct
   with an atomic reference count: the _ThreadHandle object holds one
   reference and the running thread another, since the thread finishes
   its bookkeeping after it has given up the interpreter lock.  The
   record's `done` lock is held from creation until the thread has ended;
   joiners wait by acquiring it (and at once release it for the next).
   Non-daemon threads are also linked into `shutdown_list`, which
   _shutdown() (called from threading._shutdown at exit) waits on. */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_traceback.h"
#include "pycore_typeobject.h"
#include "structmember.h"
#include <signal.h>

/* Objects/weakrefobject.c (no public header declares it yet). */
PyAPI_FUNC(int) PyWeakref_GetRef(PyObject *ref, PyObject **pobj);

/* ---- Waiting on a lock ------------------------------------------------------ */

/* Acquire lock, waiting up to timeout_us (-1: forever) with the
   interpreter lock released.  A signal interrupts the wait to run the
   Python handlers; if one raises, PY_LOCK_INTR with the exception set. */
static PyLockStatus
acquire_interruptibly(PyThread_type_lock lock, long long timeout_us)
{
    PyLockStatus got = PyThread_acquire_lock_timed(lock, 0, 0);
    if (got == PY_LOCK_ACQUIRED || timeout_us == 0) {
        return got;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long start = (long long)now.tv_sec * 1000000 + now.tv_nsec / 1000;
    long long left = timeout_us;
    for (;;) {
        Py_BEGIN_ALLOW_THREADS
        got = PyThread_acquire_lock_timed(lock, left, 1);
        Py_END_ALLOW_THREADS
        if (got != PY_LOCK_INTR) {
            return got;
        }
        if (Py_MakePendingCalls() < 0) {
            return PY_LOCK_INTR;
        }
        if (timeout_us > 0) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            long long spent = (long long)now.tv_sec * 1000000 + now.tv_nsec / 1000 - start;
            left = timeout_us - spent;
            if (left <= 0) {
                return PyThread_acquire_lock_timed(lock, 0, 0);
            }
        }
    }
}

/* Seconds (a float, or None for "forever") to microseconds. */
static int
timeout_from_object(PyObject *obj, long long *us)
{
    if (obj == NULL || Py_IsNone(obj)) {
        *us = -1;
        return 0;
    }
    double secs = PyFloat_AsDouble(obj);
    if (secs == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (secs != secs) {
        PyErr_SetString(PyExc_ValueError, "Invalid value NaN (not a number)");
        return -1;
    }
    if (secs < 0) {
        *us = -1;
        return 1; /* negative: the caller decides */
    }
    /* Past this the wait does not fit in 64-bit nanoseconds. */
    if (secs * 1e6 > (double)PY_TIMEOUT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "timestamp out of range for platform time_t");
        return -1;
    }
    *us = (long long)(secs * 1e6);
    return 0;
}

/* The (blocking=True, timeout=-1) arguments of acquire(). */
static int
parse_acquire_args(PyObject *args, PyObject *kwds, long long *timeout_us)
{
    static char *kwlist[] = {"blocking", "timeout", NULL};
    int blocking = 1;
    PyObject *timeout = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|pO:acquire", kwlist, &blocking, &timeout)) {
        return -1;
    }
    double secs = -1;
    if (timeout != NULL) {
        secs = PyFloat_AsDouble(timeout);
        if (secs == -1.0 && PyErr_Occurred()) {
            return -1;
        }
    }
    if (!blocking && secs != -1) {
        PyErr_SetString(PyExc_ValueError, "can't specify a timeout for a non-blocking call");
        return -1;
    }
    if (secs < 0 && secs != -1) {
        PyErr_SetString(PyExc_ValueError, "timeout value must be a non-negative number");
        return -1;
    }
    if (!blocking) {
        *timeout_us = 0;
        return 0;
    }
    if (secs == -1) {
        *timeout_us = -1;
        return 0;
    }
    return timeout_from_object(timeout, timeout_us) < 0 ? -1 : 0;
}

/* ---- _thread.lock ----------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyThread_type_lock lock;
    char locked;
    PyObject *weakreflist;
} lockobject;

static PyTypeObject Lock_Type;

/* An instance of type whose PyThread lock lives at lock_offset. */
static PyObject *
alloc_with_os_lock(PyTypeObject *type, size_t lock_offset)
{
    PyObject *obj = type->tp_alloc(type, 0);
    if (obj == NULL) {
        return NULL;
    }
    PyThread_type_lock *slot = (PyThread_type_lock *)((char *)obj + lock_offset);
    *slot = PyThread_allocate_lock();
    if (*slot != NULL) {
        return obj;
    }
    Py_DECREF(obj);
    PyErr_SetString(PyExc_MemoryError, "can't allocate lock");
    return NULL;
}

static PyObject *
lock_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    Py_ssize_t nargs = args == NULL ? 0 : PyTuple_GET_SIZE(args);
    if (kwds != NULL && PyDict_GET_SIZE(kwds) > 0) {
        PyErr_SetString(PyExc_TypeError, "lock() takes no keyword arguments");
        return NULL;
    }
    if (nargs != 0) {
        PyErr_Format(PyExc_TypeError, "lock expected 0 arguments, got %zd", nargs);
        return NULL;
    }
    return alloc_with_os_lock(type, offsetof(lockobject, lock));
}

static void
lock_dealloc(PyObject *op)
{
    lockobject *self = (lockobject *)op;
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    if (self->lock != NULL) {
        if (self->locked) {
            PyThread_release_lock(self->lock);
        }
        PyThread_free_lock(self->lock);
    }
    Py_TYPE(op)->tp_free(op);
}

static PyObject *
lock_acquire(PyObject *op, PyObject *args, PyObject *kwds)
{
    lockobject *self = (lockobject *)op;
    long long timeout_us;
    if (parse_acquire_args(args, kwds, &timeout_us) < 0) {
        return NULL;
    }
    PyLockStatus got = acquire_interruptibly(self->lock, timeout_us);
    if (got == PY_LOCK_INTR) {
        return NULL;
    }
    if (got == PY_LOCK_ACQUIRED) {
        self->locked = 1;
    }
    return PyBool_FromLong(got == PY_LOCK_ACQUIRED);
}

static PyObject *
lock_release(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    lockobject *self = (lockobject *)op;
    if (!self->locked) {
        PyErr_SetString(PyExc_RuntimeError, "release unlocked lock");
        return NULL;
    }
    self->locked = 0;
    PyThread_release_lock(self->lock);
    Py_RETURN_NONE;
}

static PyObject *
lock_exit(PyObject *op, PyObject *Py_UNUSED(args))
{
    return lock_release(op, NULL);
}

static PyObject *
lock_locked(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(((lockobject *)op)->locked);
}

static PyObject *
lock_at_fork_reinit(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    lockobject *self = (lockobject *)op;
    PyThread_type_lock fresh = PyThread_allocate_lock();
    if (fresh == NULL) {
        PyErr_SetString(PyExc_MemoryError, "can't allocate lock");
        return NULL;
    }
    PyThread_free_lock(self->lock);
    self->lock = fresh;
    self->locked = 0;
    Py_RETURN_NONE;
}

static PyObject *
lock_repr(PyObject *op)
{
    lockobject *self = (lockobject *)op;
    return PyUnicode_FromFormat("<%s %s object at %p>", self->locked ? "locked" : "unlocked",
                                Py_TYPE(op)->tp_name, op);
}

static PyMethodDef lock_methods[] = {
    {"acquire", _PyCFunction_CAST(lock_acquire), METH_VARARGS | METH_KEYWORDS,
     "Take the lock, waiting if asked to; True when taken."},
    {"acquire_lock", _PyCFunction_CAST(lock_acquire), METH_VARARGS | METH_KEYWORDS,
     "An old name of acquire()."},
    {"__enter__", _PyCFunction_CAST(lock_acquire), METH_VARARGS | METH_KEYWORDS,
     "acquire() for the with statement."},
    {"release", lock_release, METH_NOARGS, "Let the lock go (any thread may)."},
    {"release_lock", lock_release, METH_NOARGS, "An old name of release()."},
    {"__exit__", lock_exit, METH_VARARGS, "release() for the with statement."},
    {"locked", lock_locked, METH_NOARGS, "Whether the lock is held."},
    {"locked_lock", lock_locked, METH_NOARGS, "An old name of locked()."},
    {"_at_fork_reinit", lock_at_fork_reinit, METH_NOARGS, "Make the lock new and free (after fork)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject Lock_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_thread.lock",
    .tp_basicsize = sizeof(lockobject),
    .tp_dealloc = lock_dealloc,
    .tp_repr = lock_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A lock: one holder at a time; any thread may release it.",
    .tp_weaklistoffset = offsetof(lockobject, weakreflist),
    .tp_methods = lock_methods,
    .tp_new = lock_new,
};

static lockobject *
new_lock(void)
{
    return (lockobject *)lock_new(&Lock_Type, NULL, NULL);
}

/* ---- _thread.RLock ----------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyThread_type_lock lock;
    unsigned long owner;
    unsigned long count;
    PyObject *weakreflist;
} rlockobject;

/* Arguments are accepted and ignored, as threading.RLock(*args) does. */
static PyObject *
rlock_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return alloc_with_os_lock(type, offsetof(rlockobject, lock));
}

static void
rlock_dealloc(PyObject *op)
{
    rlockobject *self = (rlockobject *)op;
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    if (self->lock != NULL) {
        if (self->count > 0) {
            PyThread_release_lock(self->lock);
        }
        PyThread_free_lock(self->lock);
    }
    Py_TYPE(op)->tp_free(op);
}

static int
rlock_is_mine(rlockobject *self)
{
    return self->count > 0 && self->owner == PyThread_get_thread_ident();
}

/* Take the underlying lock for this thread: 1 taken, 0 timed out, -1 error. */
static int
rlock_take(rlockobject *self, long long timeout_us)
{
    if (rlock_is_mine(self)) {
        if (self->count == ULONG_MAX) {
            PyErr_SetString(PyExc_OverflowError, "Internal lock count overflowed");
            return -1;
        }
        self->count++;
        return 1;
    }
    PyLockStatus got = acquire_interruptibly(self->lock, timeout_us);
    if (got == PY_LOCK_INTR) {
        return -1;
    }
    if (got != PY_LOCK_ACQUIRED) {
        return 0;
    }
    self->owner = PyThread_get_thread_ident();
    self->count = 1;
    return 1;
}

static PyObject *
rlock_acquire(PyObject *op, PyObject *args, PyObject *kwds)
{
    long long timeout_us;
    if (parse_acquire_args(args, kwds, &timeout_us) < 0) {
        return NULL;
    }
    int r = rlock_take((rlockobject *)op, timeout_us);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

static PyObject *
rlock_release(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    rlockobject *self = (rlockobject *)op;
    if (!rlock_is_mine(self)) {
        PyErr_SetString(PyExc_RuntimeError, "cannot release un-acquired lock");
        return NULL;
    }
    if (--self->count == 0) {
        self->owner = 0;
        PyThread_release_lock(self->lock);
    }
    Py_RETURN_NONE;
}

static PyObject *
rlock_exit(PyObject *op, PyObject *Py_UNUSED(args))
{
    return rlock_release(op, NULL);
}

static PyObject *
rlock_locked(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(((rlockobject *)op)->count > 0);
}

static PyObject *
rlock_is_owned(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(rlock_is_mine((rlockobject *)op));
}

static PyObject *
rlock_recursion_count(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    rlockobject *self = (rlockobject *)op;
    return PyLong_FromUnsignedLong(rlock_is_mine(self) ? self->count : 0);
}

/* For Condition.wait: give the lock up entirely, returning what
   _acquire_restore needs to take it back. */
static PyObject *
rlock_release_save(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    rlockobject *self = (rlockobject *)op;
    if (self->count == 0) {
        PyErr_SetString(PyExc_RuntimeError, "cannot release un-acquired lock");
        return NULL;
    }
    PyObject *state = Py_BuildValue("(kk)", self->count, self->owner);
    if (state == NULL) {
        return NULL;
    }
    self->count = 0;
    self->owner = 0;
    PyThread_release_lock(self->lock);
    return state;
}

static PyObject *
rlock_acquire_restore(PyObject *op, PyObject *state)
{
    rlockobject *self = (rlockobject *)op;
    unsigned long count, owner;
    if (!PyArg_ParseTuple(state, "kk:_acquire_restore", &count, &owner)) {
        return NULL;
    }
    if (acquire_interruptibly(self->lock, -1) != PY_LOCK_ACQUIRED) {
        return NULL;
    }
    self->owner = owner;
    self->count = count;
    Py_RETURN_NONE;
}

static PyObject *
rlock_at_fork_reinit(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    rlockobject *self = (rlockobject *)op;
    PyThread_type_lock fresh = PyThread_allocate_lock();
    if (fresh == NULL) {
        PyErr_SetString(PyExc_MemoryError, "can't allocate lock");
        return NULL;
    }
    PyThread_free_lock(self->lock);
    self->lock = fresh;
    self->owner = 0;
    self->count = 0;
    Py_RETURN_NONE;
}

static PyObject *
rlock_repr(PyObject *op)
{
    rlockobject *self = (rlockobject *)op;
    return PyUnicode_FromFormat("<%s %s object owner=%lu count=%lu at %p>",
                                self->count > 0 ? "locked" : "unlocked", Py_TYPE(op)->tp_name,
                                self->owner, self->count, op);
}

static PyMethodDef rlock_methods[] = {
    {"acquire", _PyCFunction_CAST(rlock_acquire), METH_VARARGS | METH_KEYWORDS,
     "Take the lock; a thread that holds it may take it again."},
    {"__enter__", _PyCFunction_CAST(rlock_acquire), METH_VARARGS | METH_KEYWORDS,
     "acquire() for the with statement."},
    {"release", rlock_release, METH_NOARGS, "Undo one acquire() by the owning thread."},
    {"__exit__", rlock_exit, METH_VARARGS, "release() for the with statement."},
    {"locked", rlock_locked, METH_NOARGS, "Whether some thread holds the lock."},
    {"_is_owned", rlock_is_owned, METH_NOARGS, "Whether this thread holds the lock."},
    {"_recursion_count", rlock_recursion_count, METH_NOARGS,
     "How many times this thread holds the lock."},
    {"_release_save", rlock_release_save, METH_NOARGS, "Release fully; return the state to restore."},
    {"_acquire_restore", rlock_acquire_restore, METH_O, "Take back a state from _release_save()."},
    {"_at_fork_reinit", rlock_at_fork_reinit, METH_NOARGS, "Make the lock new and free (after fork)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RLock_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_thread.RLock",
    .tp_basicsize = sizeof(rlockobject),
    .tp_dealloc = rlock_dealloc,
    .tp_repr = rlock_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A re-entrant lock: its owner may acquire it again.",
    .tp_weaklistoffset = offsetof(rlockobject, weakreflist),
    .tp_methods = rlock_methods,
    .tp_new = rlock_new,
};

/* ---- Thread records and _ThreadHandle ----------------------------------------- */

enum { NOT_STARTED, STARTING, RUNNING, DONE };

typedef struct thread_record {
    int refs;                       /* atomic */
    int state;                      /* atomic */
    PyThread_ident_t ident;
    PyThread_handle_t os_handle;
    int has_os_thread;              /* pthread to join or detach */
    int os_thread_released;         /* joined or detached */
    PyThread_type_lock done;        /* held until the thread ended */
    struct thread_record *prev, *next; /* shutdown_list, under the GIL */
    int listed;
} thread_record;

static thread_record *shutdown_list = NULL;
static long running_threads = 0; /* started here, still running (_count) */

static thread_record *
record_new(void)
{
    thread_record *rec = PyMem_RawCalloc(1, sizeof(thread_record));
    if (rec == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    rec->refs = 1;
    rec->done = PyThread_allocate_lock();
    if (rec->done == NULL) {
        PyMem_RawFree(rec);
        PyErr_NoMemory();
        return NULL;
    }
    PyThread_acquire_lock(rec->done, WAIT_LOCK);
    return rec;
}

static void
record_incref(thread_record *rec)
{
    __atomic_fetch_add(&rec->refs, 1, __ATOMIC_SEQ_CST);
}

static void
record_decref(thread_record *rec)
{
    if (__atomic_sub_fetch(&rec->refs, 1, __ATOMIC_SEQ_CST) != 0) {
        return;
    }
    if (rec->has_os_thread && !rec->os_thread_released) {
        PyThread_detach_thread(rec->os_handle);
    }
    PyThread_free_lock(rec->done);
    PyMem_RawFree(rec);
}

static int
record_state(thread_record *rec)
{
    return __atomic_load_n(&rec->state, __ATOMIC_ACQUIRE);
}

static void
record_mark_done(thread_record *rec)
{
    __atomic_store_n(&rec->state, DONE, __ATOMIC_RELEASE);
    PyThread_release_lock(rec->done);
}

static void
list_add(thread_record *rec)
{
    rec->prev = NULL;
    rec->next = shutdown_list;
    if (shutdown_list != NULL) {
        shutdown_list->prev = rec;
    }
    shutdown_list = rec;
    rec->listed = 1;
    record_incref(rec);
}

static void
list_remove(thread_record *rec)
{
    if (!rec->listed) {
        return;
    }
    if (rec->prev != NULL) {
        rec->prev->next = rec->next;
    }
    else {
        shutdown_list = rec->next;
    }
    if (rec->next != NULL) {
        rec->next->prev = rec->prev;
    }
    rec->prev = rec->next = NULL;
    rec->listed = 0;
    record_decref(rec);
}

/* Wait for the record's thread to end; 1 ended, 0 timed out, -1 error. */
static int
record_wait(thread_record *rec, long long timeout_us)
{
    if (record_state(rec) != DONE) {
        PyLockStatus got = acquire_interruptibly(rec->done, timeout_us);
        if (got == PY_LOCK_INTR) {
            return -1;
        }
        if (got != PY_LOCK_ACQUIRED) {
            return 0;
        }
        PyThread_release_lock(rec->done);
    }
    if (rec->has_os_thread && !rec->os_thread_released) {
        rec->os_thread_released = 1;
        PyThread_handle_t h = rec->os_handle;
        Py_BEGIN_ALLOW_THREADS
        PyThread_join_thread(h);
        Py_END_ALLOW_THREADS
    }
    return 1;
}

typedef struct {
    PyObject_HEAD
    thread_record *rec;
} handleobject;

static PyTypeObject Handle_Type;

static PyObject *
handle_wrap(thread_record *rec)
{
    handleobject *self = PyObject_New(handleobject, &Handle_Type);
    if (self == NULL) {
        record_decref(rec);
        return NULL;
    }
    self->rec = rec;
    return (PyObject *)self;
}

static PyObject *
handle_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (!_PyArg_NoPositional("_ThreadHandle", args) || !_PyArg_NoKeywords("_ThreadHandle", kwds)) {
        return NULL;
    }
    thread_record *rec = record_new();
    return rec == NULL ? NULL : handle_wrap(rec);
}

static void
handle_dealloc(PyObject *op)
{
    record_decref(((handleobject *)op)->rec);
    PyObject_Free(op);
}

static PyObject *
handle_repr(PyObject *op)
{
    return PyUnicode_FromFormat("<%s object: ident=%llu>", Py_TYPE(op)->tp_name,
                                (unsigned long long)((handleobject *)op)->rec->ident);
}

static PyObject *
handle_get_ident(PyObject *op, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong(((handleobject *)op)->rec->ident);
}

static PyObject *
handle_join(PyObject *op, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"timeout", NULL};
    PyObject *timeout = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:join", kwlist, &timeout)) {
        return NULL;
    }
    long long us;
    int neg = timeout_from_object(timeout, &us);
    if (neg < 0) {
        return NULL;
    }
    if (neg > 0) {
        us = 0;
    }
    thread_record *rec = ((handleobject *)op)->rec;
    int state = record_state(rec);
    if (state == NOT_STARTED) {
        PyErr_SetString(PyExc_RuntimeError, "thread not started");
        return NULL;
    }
    if (state != DONE && rec->ident == PyThread_get_thread_ident_ex()) {
        PyErr_SetString(PyExc_RuntimeError, "Cannot join current thread");
        return NULL;
    }
    if (record_wait(rec, us) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
handle_is_done(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(record_state(((handleobject *)op)->rec) == DONE);
}

static PyObject *
handle_set_done(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    thread_record *rec = ((handleobject *)op)->rec;
    if (rec->has_os_thread) {
        PyErr_SetString(PyExc_RuntimeError, "only a handle made by _make_thread_handle can be set done");
        return NULL;
    }
    if (record_state(rec) != DONE) {
        record_mark_done(rec);
    }
    Py_RETURN_NONE;
}

static PyMethodDef handle_methods[] = {
    {"join", _PyCFunction_CAST(handle_join), METH_VARARGS | METH_KEYWORDS,
     "Wait for the thread to end, at most timeout seconds."},
    {"is_done", handle_is_done, METH_NOARGS, "Whether the thread has ended."},
    {"_set_done", handle_set_done, METH_NOARGS, "Mark a thread not started here as ended."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef handle_getset[] = {
    {"ident", handle_get_ident, NULL, "The thread's identifier (0 before it starts).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject Handle_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_thread._ThreadHandle",
    .tp_basicsize = sizeof(handleobject),
    .tp_dealloc = handle_dealloc,
    .tp_repr = handle_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A handle on an OS thread, to join it.",
    .tp_methods = handle_methods,
    .tp_getset = handle_getset,
    .tp_new = handle_new,
};

/* ---- Starting threads ----------------------------------------------------------- */

typedef struct {
    PyObject *func;
    PyObject *args;
    PyObject *kwargs;
    PyThreadState *tstate;
    thread_record *rec;
} boot_info;

/* Report an exception that escaped a thread started by start_new_thread
   or start_joinable_thread (threading's threads catch their own). */
static void
report_thread_exception(PyObject *func)
{
    if (PyErr_ExceptionMatches(PyExc_SystemExit)) {
        PyErr_Clear();
        return;
    }
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *file = PySys_GetObject("stderr");
    if (file != NULL && !Py_IsNone(file)) {
        Py_INCREF(file);
        PyObject *line = PyUnicode_FromFormat("Exception ignored in thread started by %R:\n", func);
        if (line != NULL) {
            PyFile_WriteObject(line, file, Py_PRINT_RAW);
            Py_DECREF(line);
        }
        PyErr_Clear();
        PyObject *tb = PyException_GetTraceback(exc);
        _PyErr_Display(file, (PyObject *)Py_TYPE(exc), exc, tb);
        Py_XDECREF(tb);
        Py_DECREF(file);
    }
    Py_DECREF(exc);
    PyErr_Clear();
}

static void
thread_main(void *raw)
{
    boot_info *boot = raw;
    PyThreadState *tstate = boot->tstate;
    thread_record *rec = boot->rec;
    _PyThreadState_Bind(tstate);
    _Py_tss_tstate = NULL;
    PyEval_AcquireThread(tstate);
    running_threads++;
    PyObject *res = PyObject_Call(boot->func, boot->args, boot->kwargs);
    if (res == NULL) {
        report_thread_exception(boot->func);
    }
    Py_XDECREF(res);
    Py_DECREF(boot->func);
    Py_DECREF(boot->args);
    Py_XDECREF(boot->kwargs);
    PyMem_RawFree(boot);
    running_threads--;
    list_remove(rec);
    PyThreadState_Clear(tstate);
    _PyThreadState_DeleteCurrent(tstate);
    /* No more Python from here: the interpreter lock is gone. */
    record_mark_done(rec);
    record_decref(rec);
}

/* Start func(*args, **kwargs) in a new OS thread described by rec. */
static int
start_thread(thread_record *rec, PyObject *func, PyObject *args, PyObject *kwargs, int daemon)
{
    PyThreadState *me = _PyThreadState_GET();
    if (me->interp->finalizing || _PyEval_IsFinalizing()) {
        PyErr_SetString(PyExc_PythonFinalizationError, "can't create new thread at interpreter shutdown");
        return -1;
    }
    boot_info *boot = PyMem_RawMalloc(sizeof(boot_info));
    if (boot == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    boot->tstate = _PyThreadState_New(me->interp);
    if (boot->tstate == NULL) {
        PyMem_RawFree(boot);
        PyErr_NoMemory();
        return -1;
    }
    boot->func = Py_NewRef(func);
    boot->args = Py_NewRef(args);
    boot->kwargs = Py_XNewRef(kwargs);
    boot->rec = rec;
    record_incref(rec);
    __atomic_store_n(&rec->state, STARTING, __ATOMIC_RELEASE);
    if (!daemon) {
        list_add(rec);
    }
    PyThread_ident_t ident;
    PyThread_handle_t os_handle;
    if (PyThread_start_joinable_thread(thread_main, boot, &ident, &os_handle) < 0) {
        list_remove(rec);
        __atomic_store_n(&rec->state, NOT_STARTED, __ATOMIC_RELEASE);
        record_decref(rec);
        Py_DECREF(boot->func);
        Py_DECREF(boot->args);
        Py_XDECREF(boot->kwargs);
        PyThreadState_Delete(boot->tstate);
        PyMem_RawFree(boot);
        PyErr_SetString(PyExc_RuntimeError, "can't start new thread");
        return -1;
    }
    /* The thread cannot run Python code before we let go of the lock,
       so these are in place before it can look. */
    rec->ident = ident;
    rec->os_handle = os_handle;
    rec->has_os_thread = 1;
    if (record_state(rec) == STARTING) {
        __atomic_store_n(&rec->state, RUNNING, __ATOMIC_RELEASE);
    }
    return 0;
}

static PyObject *
thread_start_joinable_thread(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"function", "handle", "daemon", NULL};
    PyObject *func, *handle = Py_None;
    int daemon = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|Op:start_joinable_thread", kwlist, &func, &handle,
                                     &daemon)) {
        return NULL;
    }
    if (!PyCallable_Check(func)) {
        PyErr_SetString(PyExc_TypeError, "thread function must be callable");
        return NULL;
    }
    if (Py_IsNone(handle)) {
        handle = handle_new(&Handle_Type, NULL, NULL);
        if (handle == NULL) {
            return NULL;
        }
    }
    else if (Py_IS_TYPE(handle, &Handle_Type)) {
        Py_INCREF(handle);
    }
    else {
        PyErr_SetString(PyExc_TypeError, "'handle' must be a _ThreadHandle");
        return NULL;
    }
    thread_record *rec = ((handleobject *)handle)->rec;
    if (record_state(rec) != NOT_STARTED) {
        Py_DECREF(handle);
        PyErr_SetString(PyExc_RuntimeError, "thread already started");
        return NULL;
    }
    PyObject *noargs = PyTuple_New(0);
    int err = noargs == NULL ? -1 : start_thread(rec, func, noargs, NULL, daemon);
    Py_XDECREF(noargs);
    if (err < 0) {
        Py_DECREF(handle);
        return NULL;
    }
    return handle;
}

static PyObject *
thread_start_new_thread(PyObject *module, PyObject *args)
{
    PyObject *func, *fargs, *fkwargs = NULL;
    if (!PyArg_UnpackTuple(args, "start_new_thread", 2, 3, &func, &fargs, &fkwargs)) {
        return NULL;
    }
    if (!PyCallable_Check(func)) {
        PyErr_SetString(PyExc_TypeError, "first arg must be callable");
        return NULL;
    }
    if (!PyTuple_Check(fargs)) {
        PyErr_SetString(PyExc_TypeError, "2nd arg must be a tuple");
        return NULL;
    }
    if (fkwargs != NULL && !PyDict_Check(fkwargs)) {
        PyErr_SetString(PyExc_TypeError, "optional 3rd arg must be a dictionary");
        return NULL;
    }
    thread_record *rec = record_new();
    if (rec == NULL) {
        return NULL;
    }
    if (start_thread(rec, func, fargs, fkwargs, 1) < 0) {
        record_decref(rec);
        return NULL;
    }
    PyThread_ident_t ident = rec->ident;
    rec->os_thread_released = 1;
    PyThread_detach_thread(rec->os_handle);
    record_decref(rec);
    return PyLong_FromUnsignedLongLong(ident);
}

static PyObject *
thread_make_thread_handle(PyObject *module, PyObject *ident)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(ident);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    thread_record *rec = record_new();
    if (rec == NULL) {
        return NULL;
    }
    rec->ident = v;
    rec->state = RUNNING;
    return handle_wrap(rec);
}

/* Wait for every non-daemon thread (but this one) to end. */
static PyObject *
thread_shutdown(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    PyThread_ident_t me = PyThread_get_thread_ident_ex();
    thread_record *rec = shutdown_list;
    while (rec != NULL) {
        if (rec->ident == me) {
            rec = rec->next;
            continue;
        }
        record_incref(rec);
        int r = record_wait(rec, -1);
        list_remove(rec);
        record_decref(rec);
        if (r < 0) {
            return NULL;
        }
        rec = shutdown_list;
    }
    Py_RETURN_NONE;
}

/* ---- _thread._local ------------------------------------------------------------ */

/* Each thread sees its own attribute dict; `dicts` maps the thread
   state's id to it.  A thread's entry goes when the thread ends (through
   tstate->local_weakrefs) or with the local object. */
typedef struct {
    PyObject_HEAD
    PyObject *dicts;
    PyObject *args;
    PyObject *kwargs;
    PyObject *weakreflist;
} localobject;

static PyTypeObject Local_Type;

/* A long-lived thread (the main one) makes locals that die before it:
   their weakrefs would pile up in tstate->local_weakrefs.  The dead ones
   are dropped on every add while the list is short (so a program that
   makes one local at a time holds no dead entry past the next add, and
   refleak runs see a flat count), then each time the list reaches a power
   of two: the list stays within twice the live locals plus 16, at
   amortized O(1). */
static void
drop_dead_weakrefs(PyObject *list)
{
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (n > 16 && (n & (n - 1)) != 0) {
        return;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *target = NULL;
        int alive = PyWeakref_GetRef(PyList_GET_ITEM(list, i), &target);
        if (alive > 0) {
            Py_DECREF(target);
        }
        else {
            PyErr_Clear();
            Py_DECREF(PyList_GET_ITEM(list, i));
            PyList_SET_ITEM(list, i, NULL);
        }
    }
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *wr = PyList_GET_ITEM(list, i);
        if (wr != NULL) {
            PyList_SET_ITEM(list, i, NULL);
            PyList_SET_ITEM(list, kept++, wr);
        }
    }
    Py_SET_SIZE(list, kept);
}

/* Create this thread's dict in self: a new reference, or NULL. */
static PyObject *
local_add_dict(localobject *self, PyThreadState *tstate, PyObject *key)
{
    PyObject *d = PyDict_New();
    if (d == NULL || PyDict_SetItem(self->dicts, key, d) < 0) {
        Py_XDECREF(d);
        return NULL;
    }
    if (tstate->local_weakrefs == NULL) {
        tstate->local_weakrefs = PyList_New(0);
    }
    else {
        drop_dead_weakrefs(tstate->local_weakrefs);
    }
    PyObject *wr = tstate->local_weakrefs == NULL ? NULL : PyWeakref_NewRef((PyObject *)self, NULL);
    if (wr == NULL || PyList_Append(tstate->local_weakrefs, wr) < 0) {
        Py_XDECREF(wr);
        PyDict_DelItem(self->dicts, key);
        Py_DECREF(d);
        return NULL;
    }
    Py_DECREF(wr);
    return d;
}

/* This thread's dict, made (and __init__ rerun) on first use. */
static PyObject *
local_dict(localobject *self)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *key = PyLong_FromUnsignedLongLong(tstate->id);
    if (key == NULL) {
        return NULL;
    }
    PyObject *d = NULL;
    if (PyDict_GetItemRef(self->dicts, key, &d) != 0) {
        Py_DECREF(key);
        return d;
    }
    d = local_add_dict(self, tstate, key);
    if (d != NULL && Py_TYPE(self)->tp_init != PyBaseObject_Type.tp_init) {
        if (Py_TYPE(self)->tp_init((PyObject *)self, self->args, self->kwargs) < 0) {
            PyDict_DelItem(self->dicts, key);
            Py_CLEAR(d);
        }
    }
    Py_DECREF(key);
    return d;
}

static PyObject *
local_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    int has_args = PyTuple_GET_SIZE(args) > 0 || (kwds != NULL && PyDict_GET_SIZE(kwds) > 0);
    if (has_args && type->tp_init == PyBaseObject_Type.tp_init) {
        PyErr_SetString(PyExc_TypeError, "Initialization arguments are not supported");
        return NULL;
    }
    localobject *self = (localobject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->args = Py_NewRef(args);
    self->kwargs = Py_XNewRef(kwds);
    self->dicts = PyDict_New();
    if (self->dicts == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *key = PyLong_FromUnsignedLongLong(tstate->id);
    PyObject *d = key == NULL ? NULL : local_add_dict(self, tstate, key);
    Py_XDECREF(key);
    if (d == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    Py_DECREF(d);
    return (PyObject *)self;
}

static int
local_traverse(PyObject *op, visitproc visit, void *arg)
{
    localobject *self = (localobject *)op;
    /* Not Py_TYPE(op): _local is a static type, and a heap subclass's
       subtype_traverse visits the subclass before calling us. */
    Py_VISIT(self->dicts);
    Py_VISIT(self->args);
    Py_VISIT(self->kwargs);
    return 0;
}

static int
local_clear(PyObject *op)
{
    localobject *self = (localobject *)op;
    Py_CLEAR(self->dicts);
    Py_CLEAR(self->args);
    Py_CLEAR(self->kwargs);
    return 0;
}

/* Subclasses' instances come here through the subtype dealloc, which
   drops the reference to their heap type itself. */
static void
local_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    if (((localobject *)op)->weakreflist != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    local_clear(op);
    Py_TYPE(op)->tp_free(op);
}

static int
is_dict_name(PyObject *name)
{
    return PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "__dict__") == 0;
}

static PyObject *
local_getattro(PyObject *op, PyObject *name)
{
    PyObject *d = local_dict((localobject *)op);
    if (d == NULL) {
        return NULL;
    }
    PyObject *res;
    if (is_dict_name(name)) {
        res = Py_NewRef(d);
    }
    else {
        res = _PyObject_GenericGetAttrWithDict(op, name, d, 0);
    }
    Py_DECREF(d);
    return res;
}

static int
local_setattro(PyObject *op, PyObject *name, PyObject *value)
{
    if (is_dict_name(name)) {
        PyErr_Format(PyExc_AttributeError, "'%.100s' object attribute '__dict__' is read-only",
                     Py_TYPE(op)->tp_name);
        return -1;
    }
    PyObject *d = local_dict((localobject *)op);
    if (d == NULL) {
        return -1;
    }
    int res = _PyObject_GenericSetAttrWithDict(op, name, value, d);
    Py_DECREF(d);
    return res;
}

static PyTypeObject Local_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_thread._local",
    .tp_basicsize = sizeof(localobject),
    .tp_dealloc = local_dealloc,
    .tp_getattro = local_getattro,
    .tp_setattro = local_setattro,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "An object whose attributes each thread sees separately.",
    .tp_traverse = local_traverse,
    .tp_clear = local_clear,
    .tp_weaklistoffset = offsetof(localobject, weakreflist),
    .tp_new = local_new,
};

void
_PyThread_ClearLocals(PyThreadState *tstate)
{
    PyObject *refs = tstate->local_weakrefs;
    if (refs == NULL) {
        return;
    }
    tstate->local_weakrefs = NULL;
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *key = PyLong_FromUnsignedLongLong(tstate->id);
    for (Py_ssize_t i = 0; key != NULL && i < PyList_GET_SIZE(refs); i++) {
        PyObject *obj = NULL;
        if (PyWeakref_GetRef(PyList_GET_ITEM(refs, i), &obj) > 0) {
            localobject *local = (localobject *)obj;
            if (local->dicts != NULL && PyDict_DelItem(local->dicts, key) < 0) {
                PyErr_Clear();
            }
            Py_DECREF(obj);
        }
    }
    PyErr_Clear();
    Py_XDECREF(key);
    Py_DECREF(refs);
    PyErr_SetRaisedException(exc);
}

/* ---- threading.excepthook ---------------------------------------------------- */

static PyStructSequence_Field hookargs_fields[] = {
    {"exc_type", "Exception type"},
    {"exc_value", "Exception value"},
    {"exc_traceback", "Exception traceback"},
    {"thread", "Thread"},
    {NULL, NULL},
};

static PyStructSequence_Desc hookargs_desc = {
    "_thread._ExceptHookArgs",
    "What threading.excepthook receives.",
    hookargs_fields,
    4,
};

static PyTypeObject HookArgs_Type;

/* Where the report goes: sys.stderr, else the thread's saved _stderr. */
static PyObject *
hook_stream(PyObject *thread)
{
    PyObject *file = PySys_GetObject("stderr");
    if (file != NULL && !Py_IsNone(file)) {
        return Py_NewRef(file);
    }
    if (Py_IsNone(thread)) {
        return NULL;
    }
    file = PyObject_GetAttrString(thread, "_stderr");
    if (file == NULL || Py_IsNone(file)) {
        PyErr_Clear();
        Py_XDECREF(file);
        return NULL;
    }
    return file;
}

static int
write_thread_header(PyObject *file, PyObject *thread)
{
    PyObject *name = NULL;
    if (!Py_IsNone(thread)) {
        name = PyObject_GetAttrString(thread, "name");
        if (name == NULL) {
            PyErr_Clear();
        }
    }
    if (name == NULL) {
        name = PyLong_FromUnsignedLong(PyThread_get_thread_ident());
        if (name == NULL) {
            return -1;
        }
    }
    PyObject *line = PyUnicode_FromFormat("Exception in thread %S:\n", name);
    Py_DECREF(name);
    if (line == NULL) {
        return -1;
    }
    int err = PyFile_WriteObject(line, file, Py_PRINT_RAW);
    Py_DECREF(line);
    return err;
}

static int
flush_stream(PyObject *file)
{
    PyObject *res = PyObject_CallMethod(file, "flush", NULL);
    if (res == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(res);
    return 0;
}

static PyObject *
thread_excepthook(PyObject *module, PyObject *args)
{
    if (!Py_IS_TYPE(args, &HookArgs_Type)) {
        PyErr_SetString(PyExc_TypeError, "_thread.excepthook argument type must be ExceptHookArgs");
        return NULL;
    }
    PyObject *exc_type = PyStructSequence_GetItem(args, 0);
    PyObject *exc_value = PyStructSequence_GetItem(args, 1);
    PyObject *exc_tb = PyStructSequence_GetItem(args, 2);
    PyObject *thread = PyStructSequence_GetItem(args, 3);
    if (exc_type == PyExc_SystemExit) {
        Py_RETURN_NONE;
    }
    PyObject *file = hook_stream(thread);
    if (file == NULL) {
        Py_RETURN_NONE;
    }
    if (write_thread_header(file, thread) < 0) {
        Py_DECREF(file);
        return NULL;
    }
    flush_stream(file);
    _PyErr_Display(file, exc_type, exc_value, exc_tb);
    flush_stream(file);
    Py_DECREF(file);
    Py_RETURN_NONE;
}

/* ---- Module functions ----------------------------------------------------------- */

static PyObject *
thread_allocate_lock(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return (PyObject *)new_lock();
}

static PyObject *
thread_get_ident(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLong(PyThread_get_thread_ident());
}

static PyObject *
thread_get_native_id(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLong(PyThread_get_thread_native_id());
}

static PyObject *
thread_get_main_thread_ident(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLong(_PyThread_MainIdent());
}

static PyObject *
thread_count(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(running_threads);
}

static PyObject *
thread_true(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_TRUE;
}

static PyObject *
thread_exit(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    PyErr_SetNone(PyExc_SystemExit);
    return NULL;
}

static PyObject *
thread_interrupt_main(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"signum", NULL};
    int signum = SIGINT;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|i:interrupt_main", kwlist, &signum)) {
        return NULL;
    }
    if (PyErr_SetInterruptEx(signum) < 0) {
        PyErr_SetString(PyExc_ValueError, "signal number out of range");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
thread_stack_size(PyObject *module, PyObject *args)
{
    Py_ssize_t size = 0;
    if (!PyArg_ParseTuple(args, "|n:stack_size", &size)) {
        return NULL;
    }
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "size must be 0 or a positive value");
        return NULL;
    }
    size_t old = PyThread_get_stacksize();
    if (PyThread_set_stacksize((size_t)size) < 0) {
        PyErr_Format(PyExc_ValueError, "size not valid: %zd bytes", size);
        return NULL;
    }
    return PyLong_FromSize_t(old);
}

static PyObject *
thread_set_name(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"name", NULL};
    PyObject *name;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "U:set_name", kwlist, &name)) {
        return NULL;
    }
    Py_ssize_t len;
    const char *utf8 = PyUnicode_AsUTF8AndSize(name, &len);
    if (utf8 == NULL) {
        return NULL;
    }
    /* Linux takes at most 15 bytes; cut on a character boundary. */
    char buf[16];
    Py_ssize_t n = len < 15 ? len : 15;
    while (n > 0 && n < len && ((unsigned char)utf8[n] & 0xC0) == 0x80) {
        n--;
    }
    memcpy(buf, utf8, (size_t)n);
    buf[n] = '\0';
    int err = pthread_setname_np(pthread_self(), buf);
    if (err != 0) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

static PyMethodDef thread_methods[] = {
    {"start_joinable_thread", _PyCFunction_CAST(thread_start_joinable_thread), METH_VARARGS | METH_KEYWORDS,
     "Run function() in a new thread; return its _ThreadHandle."},
    {"start_new_thread", thread_start_new_thread, METH_VARARGS,
     "Run function(*args, **kwargs) in a new thread; return its ident."},
    {"start_new", thread_start_new_thread, METH_VARARGS, "An old name of start_new_thread()."},
    {"allocate_lock", thread_allocate_lock, METH_NOARGS, "A new unlocked lock."},
    {"allocate", thread_allocate_lock, METH_NOARGS, "An old name of allocate_lock()."},
    {"get_ident", thread_get_ident, METH_NOARGS, "A nonzero number identifying this thread."},
    {"get_native_id", thread_get_native_id, METH_NOARGS, "The operating system's id of this thread."},
    {"_get_main_thread_ident", thread_get_main_thread_ident, METH_NOARGS,
     "get_ident() of the main thread."},
    {"_make_thread_handle", thread_make_thread_handle, METH_O,
     "A handle for a thread not started here (the main thread)."},
    {"_shutdown", thread_shutdown, METH_NOARGS, "Wait for every non-daemon thread to end."},
    {"_count", thread_count, METH_NOARGS, "How many threads started here are running."},
    {"_is_main_interpreter", thread_true, METH_NOARGS, "Whether this is the main interpreter."},
    {"daemon_threads_allowed", thread_true, METH_NOARGS, "Whether daemon threads may be started."},
    {"_excepthook", thread_excepthook, METH_O, "Print a thread's uncaught exception."},
    {"exit", thread_exit, METH_NOARGS, "End this thread (raises SystemExit)."},
    {"exit_thread", thread_exit, METH_NOARGS, "An old name of exit()."},
    {"interrupt_main", _PyCFunction_CAST(thread_interrupt_main), METH_VARARGS | METH_KEYWORDS,
     "Act as if the signal (SIGINT) arrived, for the main thread."},
    {"stack_size", thread_stack_size, METH_VARARGS,
     "Set the stack size of threads started later; return the old one."},
    {"set_name", _PyCFunction_CAST(thread_set_name), METH_VARARGS | METH_KEYWORDS,
     "Name this thread for the operating system."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef threadmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_thread",
    .m_doc = "Low-level threads: start them, lock, keep per-thread data.",
    .m_size = -1,
    .m_methods = thread_methods,
};

/* The module's types are readied at start-up, like the core's (the
   import machinery needs _thread early anyway). */
int
_PyThread_InitTypes(void)
{
    PyTypeObject *types[] = {&Lock_Type, &RLock_Type, &Handle_Type, &Local_Type};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(types); i++) {
        if (_PyStaticType_InitBuiltin(types[i]) < 0) {
            return -1;
        }
    }
    if (!PyType_HasFeature(&HookArgs_Type, Py_TPFLAGS_READY) &&
        PyStructSequence_InitType2(&HookArgs_Type, &hookargs_desc) < 0) {
        return -1;
    }
    return 0;
}

PyObject *
PyInit__thread(void)
{
    if (_PyThread_InitTypes() < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&threadmodule);
    if (m == NULL) {
        return NULL;
    }
    double timeout_max = (double)(PY_TIMEOUT_MAX / 1000000);
    PyObject *tmax = PyFloat_FromDouble(timeout_max);
    int err = tmax == NULL || PyModule_AddObjectRef(m, "TIMEOUT_MAX", tmax) < 0 ||
              PyModule_AddObjectRef(m, "LockType", (PyObject *)&Lock_Type) < 0 ||
              PyModule_AddObjectRef(m, "lock", (PyObject *)&Lock_Type) < 0 ||
              PyModule_AddObjectRef(m, "RLock", (PyObject *)&RLock_Type) < 0 ||
              PyModule_AddObjectRef(m, "_ThreadHandle", (PyObject *)&Handle_Type) < 0 ||
              PyModule_AddObjectRef(m, "_local", (PyObject *)&Local_Type) < 0 ||
              PyModule_AddObjectRef(m, "_ExceptHookArgs", (PyObject *)&HookArgs_Type) < 0 ||
              PyModule_AddObjectRef(m, "error", PyExc_RuntimeError) < 0;
    Py_XDECREF(tmax);
    if (err) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

void
_PyThread_Fini(void)
{
    while (shutdown_list != NULL) {
        list_remove(shutdown_list);
    }
}
