/* _queue: SimpleQueue, the unbounded FIFO that queue.py re-exports, and
   the Empty exception.

   Items live in a growable ring buffer.  Every access happens with the
   interpreter lock held, so the buffer needs no lock of its own; what
   needs one is waiting.  A single PyThread lock serves as a binary
   "an item may be there" signal: it is held while unsignalled, put()
   releases it when a getter is waiting, and a getter that acquires it
   takes the signal and looks again (another thread may have been
   quicker, so a wake-up is only a hint).  The wait happens with the
   interpreter lock released, and a signal interrupts it so that Python
   handlers run (and may raise KeyboardInterrupt). */

#include "Python.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"
#include <time.h>

static PyObject *queue_empty_error;   /* _queue.Empty */
static PyObject *empty_owner;         /* the module object that owns it */

typedef struct {
    PyObject_HEAD
    PyObject **ring;
    Py_ssize_t capacity;
    Py_ssize_t head;        /* index of the oldest item */
    Py_ssize_t count;
    PyThread_type_lock wakeup;
    int signalled;          /* wakeup is released (not held) */
    Py_ssize_t waiting;     /* getters blocked on wakeup */
    PyObject *weakreflist;
} simplequeue;

static PyTypeObject simplequeue_type;

/* ---- The ring buffer --------------------------------------------------------- */

static int
ring_grow(simplequeue *q)
{
    Py_ssize_t cap = q->capacity ? q->capacity * 2 : 8;
    if ((size_t)cap > PY_SSIZE_T_MAX / sizeof(PyObject *)) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject **fresh = PyMem_Malloc(cap * sizeof(PyObject *));
    if (fresh == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < q->count; i++) {
        fresh[i] = q->ring[(q->head + i) % q->capacity];
    }
    PyMem_Free(q->ring);
    q->ring = fresh;
    q->capacity = cap;
    q->head = 0;
    return 0;
}

static int
ring_push(simplequeue *q, PyObject *item)
{
    if (q->count == q->capacity && ring_grow(q) < 0) {
        return -1;
    }
    q->ring[(q->head + q->count) % q->capacity] = Py_NewRef(item);
    q->count++;
    return 0;
}

/* The oldest item, a reference handed to the caller; count must be > 0. */
static PyObject *
ring_pop(simplequeue *q)
{
    PyObject *item = q->ring[q->head];
    q->head = (q->head + 1) % q->capacity;
    q->count--;
    return item;
}

/* ---- Waking and waiting -------------------------------------------------------- */

/* Pass the signal on if an item is there for a waiting getter. */
static void
maybe_wake_getter(simplequeue *q)
{
    if (q->count > 0 && q->waiting > 0 && !q->signalled) {
        q->signalled = 1;
        PyThread_release_lock(q->wakeup);
    }
}

static long long
monotonic_us(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

/* Wait for the signal until deadline_us (-1: forever).  1 when signalled,
   0 on timeout, -1 when a signal handler raised. */
static int
wait_for_signal(simplequeue *q, long long deadline_us)
{
    for (;;) {
        long long left = -1;
        if (deadline_us >= 0) {
            left = deadline_us - monotonic_us();
            if (left < 0) {
                left = 0;
            }
        }
        PyLockStatus got;
        q->waiting++;
        Py_BEGIN_ALLOW_THREADS
        got = PyThread_acquire_lock_timed(q->wakeup, left, 1);
        Py_END_ALLOW_THREADS
        q->waiting--;
        if (got == PY_LOCK_ACQUIRED) {
            q->signalled = 0;
            return 1;
        }
        if (got == PY_LOCK_FAILURE) {
            return 0;
        }
        if (Py_MakePendingCalls() < 0) {
            return -1;
        }
    }
}

/* ---- Arguments ------------------------------------------------------------------- */

/* The timeout argument of get() as a deadline (-1: no deadline). */
static int
deadline_from_timeout(PyObject *timeout, long long *deadline_us)
{
    *deadline_us = -1;
    if (timeout == NULL || Py_IsNone(timeout)) {
        return 0;
    }
    double secs;
    if (PyFloat_Check(timeout)) {
        secs = PyFloat_AS_DOUBLE(timeout);
        if (secs != secs) {
            PyErr_SetString(PyExc_ValueError, "Invalid value NaN (not a number)");
            return -1;
        }
    }
    else {
        PyObject *as_int = PyNumber_Index(timeout);
        if (as_int == NULL) {
            return -1;
        }
        secs = PyLong_AsDouble(as_int);
        Py_DECREF(as_int);
        if (secs == -1.0 && PyErr_Occurred()) {
            return -1;
        }
    }
    if (secs < 0) {
        PyErr_SetString(PyExc_ValueError, "'timeout' must be a non-negative number");
        return -1;
    }
    if (secs * 1e6 > (double)PY_TIMEOUT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "timestamp out of range for platform time_t");
        return -1;
    }
    *deadline_us = monotonic_us() + (long long)(secs * 1e6);
    return 0;
}

/* ---- Methods --------------------------------------------------------------------- */

static PyObject *
take_item(simplequeue *q)
{
    PyObject *item = ring_pop(q);
    maybe_wake_getter(q);
    return item;
}

static PyObject *
raise_empty(void)
{
    if (queue_empty_error == NULL) {
        /* Only after finalization has released the module. */
        PyErr_SetString(PyExc_RuntimeError, "_queue has been finalized");
        return NULL;
    }
    PyErr_SetNone(queue_empty_error);
    return NULL;
}

static PyObject *
simplequeue_get(PyObject *op, PyObject *args, PyObject *kwds)
{
    static const char *const kwlist[] = {"block", "timeout", NULL};
    simplequeue *q = (simplequeue *)op;
    PyObject *given[2];
    if (!_PyArg_ParseTupleAndKeywordsStack(args, kwds, "get", kwlist, 0, 2, 0, given)) {
        return NULL;
    }
    int block = given[0] == NULL ? 1 : PyObject_IsTrue(given[0]);
    if (block < 0) {
        return NULL;
    }
    PyObject *timeout = given[1];
    long long deadline = -1;
    if (block && deadline_from_timeout(timeout, &deadline) < 0) {
        return NULL;
    }
    if (!block) {
        deadline = 0;
    }
    for (;;) {
        if (q->count > 0) {
            return take_item(q);
        }
        if (deadline == 0) {
            return raise_empty();
        }
        int woke = wait_for_signal(q, deadline);
        if (woke < 0) {
            return NULL;
        }
        if (!woke && q->count == 0) {
            return raise_empty();
        }
    }
}

static PyObject *
simplequeue_get_nowait(PyObject *op, PyObject *unused)
{
    simplequeue *q = (simplequeue *)op;
    return q->count > 0 ? take_item(q) : raise_empty();
}

static PyObject *
put_item(simplequeue *q, PyObject *item)
{
    if (ring_push(q, item) < 0) {
        return NULL;
    }
    maybe_wake_getter(q);
    Py_RETURN_NONE;
}

static PyObject *
simplequeue_put(PyObject *op, PyObject *args, PyObject *kwds)
{
    /* block and timeout exist for Queue compatibility: an unbounded queue
       never has to wait to accept an item. */
    static const char *const kwlist[] = {"item", "block", "timeout", NULL};
    PyObject *given[3];
    if (!_PyArg_ParseTupleAndKeywordsStack(args, kwds, "put", kwlist, 1, 3, 0, given)) {
        return NULL;
    }
    return put_item((simplequeue *)op, given[0]);
}

static PyObject *
simplequeue_put_nowait(PyObject *op, PyObject *args, PyObject *kwds)
{
    static const char *const kwlist[] = {"item", NULL};
    PyObject *item;
    if (!_PyArg_ParseTupleAndKeywordsStack(args, kwds, "put_nowait", kwlist, 1, 1, 0, &item)) {
        return NULL;
    }
    return put_item((simplequeue *)op, item);
}

static PyObject *
simplequeue_empty(PyObject *op, PyObject *unused)
{
    return PyBool_FromLong(((simplequeue *)op)->count == 0);
}

static PyObject *
simplequeue_qsize(PyObject *op, PyObject *unused)
{
    return PyLong_FromSsize_t(((simplequeue *)op)->count);
}

#define KW (PyCFunction)(void (*)(void))

static PyMethodDef simplequeue_methods[] = {
    {"empty", simplequeue_empty, METH_NOARGS,
     "empty($self, /)\n--\n\nTrue if the queue holds no items (a snapshot)."},
    {"get", KW simplequeue_get, METH_VARARGS | METH_KEYWORDS,
     "get($self, /, block=True, timeout=None)\n--\n\n"
     "Remove and return the oldest item.  Without block, or once timeout\n"
     "seconds have passed with nothing to take, raise Empty."},
    {"get_nowait", simplequeue_get_nowait, METH_NOARGS,
     "get_nowait($self, /)\n--\n\nget(False): an item if one is there, else raise Empty."},
    {"put", KW simplequeue_put, METH_VARARGS | METH_KEYWORDS,
     "put($self, /, item, block=True, timeout=None)\n--\n\n"
     "Append item.  Never waits; block and timeout are accepted for\n"
     "compatibility with queue.Queue."},
    {"put_nowait", KW simplequeue_put_nowait, METH_VARARGS | METH_KEYWORDS,
     "put_nowait($self, /, item)\n--\n\nAppend item (the same as put(item))."},
    {"qsize", simplequeue_qsize, METH_NOARGS,
     "qsize($self, /)\n--\n\nThe number of items queued (a snapshot)."},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS,
     "Subscripting gives a GenericAlias."},
    {NULL, NULL, 0, NULL},
};

/* ---- Life cycle -------------------------------------------------------------------- */

static PyObject *
simplequeue_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) != 0) {
        PyErr_SetString(PyExc_TypeError, "SimpleQueue() takes no positional arguments");
        return NULL;
    }
    if (kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "SimpleQueue() takes no keyword arguments");
        return NULL;
    }
    simplequeue *q = (simplequeue *)type->tp_alloc(type, 0);
    if (q == NULL) {
        return NULL;
    }
    /* Held from the start: "no signal yet". */
    q->wakeup = PyThread_allocate_lock();
    if (q->wakeup == NULL) {
        Py_DECREF(q);
        PyErr_SetString(PyExc_MemoryError, "can't allocate lock");
        return NULL;
    }
    PyThread_acquire_lock(q->wakeup, WAIT_LOCK);
    return (PyObject *)q;
}

static int
simplequeue_traverse(PyObject *op, visitproc visit, void *arg)
{
    simplequeue *q = (simplequeue *)op;
    for (Py_ssize_t i = 0; i < q->count; i++) {
        Py_VISIT(q->ring[(q->head + i) % q->capacity]);
    }
    return 0;
}

static int
simplequeue_clear(PyObject *op)
{
    simplequeue *q = (simplequeue *)op;
    while (q->count > 0) {
        PyObject *item = ring_pop(q);
        Py_DECREF(item);
    }
    return 0;
}

static void
simplequeue_dealloc(PyObject *op)
{
    simplequeue *q = (simplequeue *)op;
    PyObject_GC_UnTrack(op);
    if (q->weakreflist != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    simplequeue_clear(op);
    PyMem_Free(q->ring);
    if (q->wakeup != NULL) {
        if (!q->signalled) {
            PyThread_release_lock(q->wakeup);
        }
        PyThread_free_lock(q->wakeup);
    }
    Py_TYPE(op)->tp_free(op);
}

static PyTypeObject simplequeue_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_queue.SimpleQueue",
    .tp_basicsize = sizeof(simplequeue),
    .tp_dealloc = simplequeue_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "SimpleQueue()\n--\n\nAn unbounded FIFO queue, safe to share between threads.",
    .tp_traverse = simplequeue_traverse,
    .tp_clear = simplequeue_clear,
    .tp_weaklistoffset = offsetof(simplequeue, weakreflist),
    .tp_methods = simplequeue_methods,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = simplequeue_new,
    .tp_free = PyObject_GC_Del,
};

/* Drop Empty with the module that created it, so nothing outlives
   finalization. */
static void
queue_module_free(void *module)
{
    if (module == empty_owner) {
        Py_CLEAR(queue_empty_error);
        empty_owner = NULL;
    }
}

static struct PyModuleDef queuemodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_queue",
    .m_doc = "SimpleQueue, the C queue that queue.py re-exports.",
    .m_size = -1,
    .m_free = queue_module_free,
};

PyObject *
PyInit__queue(void)
{
    if (_PyStaticType_InitBuiltin(&simplequeue_type) < 0) {
        return NULL;
    }
    if (queue_empty_error == NULL) {
        queue_empty_error = PyErr_NewExceptionWithDoc(
            "_queue.Empty",
            "Raised by get() when no item came in time, and by get_nowait() on an\n"
            "empty queue.",
            NULL, NULL);
        if (queue_empty_error == NULL) {
            return NULL;
        }
    }
    PyObject *m = PyModule_Create(&queuemodule);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "SimpleQueue", (PyObject *)&simplequeue_type) < 0 ||
        PyModule_AddObjectRef(m, "Empty", queue_empty_error) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    if (empty_owner == NULL) {
        empty_owner = m;
    }
    return m;
}
