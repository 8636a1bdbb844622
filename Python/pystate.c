/* Interpreter and thread states, and the per-thread data stack that
   interpreter frames are allocated on.

   Each OS thread that runs Python code has its own thread state: its
   frames, its exceptions, its recursion counters.  _Py_tss_tstate, a
   thread-local, is the state of the running thread while it holds the
   interpreter lock; `bound_tstate` remembers the thread's state while it
   has let go of the lock (PyGILState_Ensure finds it there).  The list of
   an interpreter's thread states is guarded by its own mutex, since
   PyGILState_Ensure adds to it before it has the interpreter lock. */

#include "Python.h"
#include "pycore_optimizer.h"
#include <pthread.h>
#include <sys/resource.h>
#include "pycore_ceval.h"
#include "pycore_frame.h"
#include "pycore_pystate.h"

__thread PyThreadState *_Py_tss_tstate = NULL;
static __thread PyThreadState *bound_tstate = NULL;

static PyInterpreterState *main_interpreter = NULL;
static PyThreadState *main_tstate = NULL;
static unsigned long main_thread_ident = 0;
static pthread_mutex_t threads_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint64_t next_thread_id = 1;

PyInterpreterState *
_PyInterpreterState_New(void)
{
    PyInterpreterState *interp = PyMem_RawCalloc(1, sizeof(PyInterpreterState));
    if (interp == NULL) {
        return NULL;
    }
    interp->recursion_limit = Py_DEFAULT_RECURSION_LIMIT;
    interp->func_version_next = 1;
    interp->type_version_next = 1;
    _PyGC_InitState(&interp->gc);
    if (main_interpreter == NULL) {
        main_interpreter = interp;
    }
    return interp;
}

void
_PyInterpreterState_Delete(PyInterpreterState *interp)
{
    if (interp == main_interpreter) {
        main_interpreter = NULL;
    }
    PyMem_RawFree(interp);
}

PyInterpreterState *
_PyInterpreterState_Main(void)
{
    return main_interpreter;
}

PyInterpreterState *
PyInterpreterState_Main(void)
{
    return main_interpreter;
}

PyThreadState *
_PyThreadState_New(PyInterpreterState *interp)
{
    PyThreadState *tstate = PyMem_RawCalloc(1, sizeof(PyThreadState));
    if (tstate == NULL) {
        return NULL;
    }
    tstate->interp = interp;
    tstate->py_recursion_limit = interp->recursion_limit;
    tstate->py_recursion_remaining = interp->recursion_limit;
    tstate->c_recursion_remaining = Py_C_RECURSION_LIMIT;
    tstate->exc_info = &tstate->exc_state;
    pthread_mutex_lock(&threads_mutex);
    tstate->id = next_thread_id++;
    tstate->next = interp->threads_head;
    if (interp->threads_head) {
        interp->threads_head->prev = tstate;
    }
    interp->threads_head = tstate;
    pthread_mutex_unlock(&threads_mutex);
    return tstate;
}

PyThreadState *
PyThreadState_New(PyInterpreterState *interp)
{
    return _PyThreadState_New(interp);
}

static void
free_data_stack(PyThreadState *tstate)
{
    _PyStackChunk *chunk = tstate->datastack_chunk;
    while (chunk != NULL) {
        _PyStackChunk *prev = chunk->previous;
        PyMem_RawFree(chunk);
        chunk = prev;
    }
    tstate->datastack_chunk = NULL;
    tstate->datastack_top = NULL;
    tstate->datastack_limit = NULL;
}

void
PyThreadState_Clear(PyThreadState *tstate)
{
    _PyThread_ClearLocals(tstate);
#ifdef _Py_TIER2
    _PyTrace_FreeRecorder(tstate);
#endif
    Py_CLEAR(tstate->dict);
    Py_CLEAR(tstate->async_gen_firstiter);
    Py_CLEAR(tstate->async_gen_finalizer);
    Py_CLEAR(tstate->context);
    Py_CLEAR(tstate->current_exception);
    Py_CLEAR(tstate->exc_state.exc_value);
    Py_CLEAR(tstate->c_profileobj);
    Py_CLEAR(tstate->c_traceobj);
    tstate->c_profilefunc = NULL;
    tstate->c_tracefunc = NULL;
}

static void
unlink_tstate(PyThreadState *tstate)
{
    PyInterpreterState *interp = tstate->interp;
    pthread_mutex_lock(&threads_mutex);
    if (tstate->prev) {
        tstate->prev->next = tstate->next;
    }
    else if (interp->threads_head == tstate) {
        interp->threads_head = tstate->next;
    }
    if (tstate->next) {
        tstate->next->prev = tstate->prev;
    }
    tstate->prev = tstate->next = NULL;
    pthread_mutex_unlock(&threads_mutex);
    if (tstate == main_tstate) {
        main_tstate = NULL;
    }
}

void
_PyThreadState_Delete(PyThreadState *tstate)
{
    unlink_tstate(tstate);
    PyThreadState_Clear(tstate);
    free_data_stack(tstate);
    if (_Py_tss_tstate == tstate) {
        _Py_tss_tstate = NULL;
    }
    if (bound_tstate == tstate) {
        bound_tstate = NULL;
    }
    PyMem_RawFree(tstate);
}

void
PyThreadState_Delete(PyThreadState *tstate)
{
    if (tstate == _PyThreadState_GET()) {
        Py_FatalError("the thread state to delete is the current one");
    }
    unlink_tstate(tstate);
    free_data_stack(tstate);
    if (bound_tstate == tstate) {
        bound_tstate = NULL;
    }
    PyMem_RawFree(tstate);
}

void
_PyThreadState_DeleteCurrent(PyThreadState *tstate)
{
    unlink_tstate(tstate);
    free_data_stack(tstate);
    _Py_tss_tstate = NULL;
    bound_tstate = NULL;
    _PyEval_DropGIL(tstate);
    PyMem_RawFree(tstate);
}

void
PyThreadState_DeleteCurrent(void)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate == NULL) {
        Py_FatalError("no current thread state");
    }
    _PyThreadState_DeleteCurrent(tstate);
}

/* Limits for the C stack: RecursionError below the soft limit, leaving
   room to build and report it; a fatal error past the hard one.  The main
   thread measures from where it binds its state (near the top of its
   stack) with the rlimit size; other threads ask pthreads where their
   stack ends. */
static uintptr_t
stack_low_end(int is_main, size_t *size)
{
    char here;
    *size = 8 * 1024 * 1024;
    if (!is_main) {
        pthread_attr_t attr;
        void *addr = NULL;
        size_t got = 0;
        int ok = pthread_getattr_np(pthread_self(), &attr) == 0;
        if (ok) {
            ok = pthread_attr_getstack(&attr, &addr, &got) == 0;
            pthread_attr_destroy(&attr);
        }
        if (ok) {
            *size = got;
            return (uintptr_t)addr;
        }
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < ((rlim_t)1 << 30)) {
        *size = (size_t)rl.rlim_cur;
    }
    return (uintptr_t)&here - *size;
}

static void
set_stack_limits(PyThreadState *tstate, int is_main)
{
    size_t size;
    uintptr_t low = stack_low_end(is_main, &size);
    size_t soft_margin = size / 8 > 1024 * 1024 ? 1024 * 1024 : size / 8;
    tstate->c_stack_soft_limit = low + soft_margin;
    tstate->c_stack_hard_limit = low + soft_margin / 4;
}

/* Make tstate the running thread's own state (the caller holds or is
   about to take the interpreter lock). */
void
_PyThreadState_Bind(PyThreadState *tstate)
{
    int is_main = main_tstate == NULL;
    _Py_tss_tstate = tstate;
    bound_tstate = tstate;
    tstate->thread_id = PyThread_get_thread_ident();
    tstate->native_thread_id = PyThread_get_thread_native_id();
    set_stack_limits(tstate, is_main);
    if (is_main) {
        main_tstate = tstate;
        main_thread_ident = tstate->thread_id;
    }
}

PyThreadState *
_PyThreadState_Bound(void)
{
    return bound_tstate;
}

PyThreadState *
_PyThreadState_Main(void)
{
    return main_tstate;
}

unsigned long
_PyThread_MainIdent(void)
{
    return main_thread_ident;
}

PyThreadState *
PyThreadState_GetUnchecked(void)
{
    return _PyThreadState_GET();
}

uint64_t
PyThreadState_GetID(PyThreadState *tstate)
{
    return tstate->id;
}

PyThreadState *
PyInterpreterState_ThreadHead(PyInterpreterState *interp)
{
    return interp->threads_head;
}

PyThreadState *
PyThreadState_Next(PyThreadState *tstate)
{
    return tstate->next;
}

/* Detach the running state (releasing the lock) and attach newts
   (taking it); either may be NULL. */
PyThreadState *
PyThreadState_Swap(PyThreadState *newts)
{
    PyThreadState *oldts = _PyThreadState_GET();
    if (oldts == newts) {
        return oldts;
    }
    if (oldts != NULL) {
        _Py_tss_tstate = NULL;
        _PyEval_DropGIL(oldts);
    }
    if (newts != NULL) {
        _PyEval_TakeGIL(newts);
        _Py_tss_tstate = newts;
        if (bound_tstate == NULL) {
            bound_tstate = newts;
        }
    }
    return oldts;
}

/* ---- PyGILState ------------------------------------------------------------ */

PyThreadState *
PyGILState_GetThisThreadState(void)
{
    return bound_tstate;
}

int
PyGILState_Check(void)
{
    PyThreadState *tstate = _PyThreadState_GET();
    return tstate != NULL && _PyEval_HoldsGIL(tstate);
}

PyGILState_STATE
PyGILState_Ensure(void)
{
    PyThreadState *tstate = bound_tstate;
    if (tstate == NULL) {
        if (main_interpreter == NULL) {
            Py_FatalError("the runtime is not initialized");
        }
        tstate = _PyThreadState_New(main_interpreter);
        if (tstate == NULL) {
            Py_FatalError("can't create a thread state");
        }
        tstate->made_by_gilstate = 1;
        _PyThreadState_Bind(tstate);
        _Py_tss_tstate = NULL;
        PyEval_RestoreThread(tstate);
        tstate->gilstate_counter = 1;
        return PyGILState_UNLOCKED;
    }
    tstate->gilstate_counter++;
    if (_PyThreadState_GET() == tstate && _PyEval_HoldsGIL(tstate)) {
        return PyGILState_LOCKED;
    }
    PyEval_RestoreThread(tstate);
    return PyGILState_UNLOCKED;
}

void
PyGILState_Release(PyGILState_STATE oldstate)
{
    PyThreadState *tstate = bound_tstate;
    if (tstate == NULL || _PyThreadState_GET() != tstate) {
        Py_FatalError("thread state mismatch in PyGILState_Release");
    }
    if (--tstate->gilstate_counter == 0 && tstate->made_by_gilstate) {
        PyThreadState_Clear(tstate);
        _PyThreadState_DeleteCurrent(tstate);
        return;
    }
    if (oldstate == PyGILState_UNLOCKED) {
        PyEval_SaveThread();
    }
}

PyThreadState *
PyThreadState_Get(void)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate == NULL) {
        Py_FatalError("the function must be called with a thread state");
    }
    return tstate;
}

PyInterpreterState *
PyInterpreterState_Get(void)
{
    return PyThreadState_Get()->interp;
}

PyInterpreterState *
PyThreadState_GetInterpreter(PyThreadState *tstate)
{
    return tstate->interp;
}

PyObject *
PyThreadState_GetDict(void)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate == NULL) {
        return NULL;
    }
    if (tstate->dict == NULL) {
        tstate->dict = PyDict_New();
        if (tstate->dict == NULL) {
            PyErr_Clear();
        }
    }
    return tstate->dict;
}

PyFrameObject *
PyThreadState_GetFrame(PyThreadState *tstate)
{
    _PyInterpreterFrame *f = _PyFrame_GetFirstComplete(tstate->current_frame);
    if (f == NULL) {
        return NULL;
    }
    PyFrameObject *frame = _PyFrame_GetFrameObject(f);
    if (frame == NULL) {
        PyErr_Clear();
    }
    return (PyFrameObject *)Py_XNewRef(frame);
}

/* ---- The data stack ----------------------------------------------------------

   Frames are bump-allocated from chunks of memory; a new chunk is linked
   in when the current one is full, and freed again when its first frame is
   popped.  Sizes are in words (PyObject * sized). */

#define DATA_STACK_CHUNK_SIZE (16 * 1024)

static _PyStackChunk *
allocate_chunk(size_t size_in_bytes, _PyStackChunk *previous)
{
    _PyStackChunk *res = PyMem_RawMalloc(size_in_bytes);
    if (res == NULL) {
        return NULL;
    }
    res->previous = previous;
    res->size = size_in_bytes;
    res->top = 0;
    return res;
}

static _PyInterpreterFrame *
push_chunk(PyThreadState *tstate, size_t size)
{
    size_t allocate_size = DATA_STACK_CHUNK_SIZE;
    while (allocate_size < sizeof(PyObject *) * (size + 8)) {
        allocate_size *= 2;
    }
    _PyStackChunk *new = allocate_chunk(allocate_size, tstate->datastack_chunk);
    if (new == NULL) {
        return NULL;
    }
    if (tstate->datastack_chunk) {
        tstate->datastack_chunk->top = (size_t)(tstate->datastack_top - &tstate->datastack_chunk->data[0]);
    }
    tstate->datastack_chunk = new;
    tstate->datastack_limit = (PyObject **)(((char *)new) + allocate_size);
    PyObject **res = &new->data[0];
    tstate->datastack_top = res + size;
    return (_PyInterpreterFrame *)res;
}

_PyInterpreterFrame *
_PyThreadState_PushFrame(PyThreadState *tstate, size_t size)
{
    if (tstate->datastack_top != NULL && size < (size_t)(tstate->datastack_limit - tstate->datastack_top)) {
        _PyInterpreterFrame *res = (_PyInterpreterFrame *)tstate->datastack_top;
        tstate->datastack_top += size;
        return res;
    }
    _PyInterpreterFrame *res = push_chunk(tstate, size);
    if (res == NULL) {
        PyErr_NoMemory();
    }
    return res;
}

void
_PyThreadState_PopFrame(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PyObject **base = (PyObject **)frame;
    if (base == &tstate->datastack_chunk->data[0]) {
        _PyStackChunk *chunk = tstate->datastack_chunk;
        _PyStackChunk *previous = chunk->previous;
        tstate->datastack_chunk = previous;
        if (previous != NULL) {
            tstate->datastack_top = &previous->data[previous->top];
            tstate->datastack_limit = (PyObject **)(((char *)previous) + previous->size);
        }
        else {
            tstate->datastack_top = NULL;
            tstate->datastack_limit = NULL;
        }
        PyMem_RawFree(chunk);
    }
    else {
        assert(tstate->datastack_top);
        assert(tstate->datastack_top >= base);
        tstate->datastack_top = base;
    }
}

/* ---- sys functions that look at every thread ------------------------------- */

/* Map each thread's ident to what pick(tstate) gives (a new reference). */
static PyObject *
map_threads(PyObject *(*pick)(PyThreadState *))
{
    PyObject *result = PyDict_New();
    if (result == NULL) {
        return NULL;
    }
    PyInterpreterState *interp = _PyInterpreterState_GET();
    for (PyThreadState *t = interp->threads_head; t != NULL; t = t->next) {
        PyObject *value = pick(t);
        if (value == NULL) {
            if (PyErr_Occurred()) {
                Py_DECREF(result);
                return NULL;
            }
            continue;
        }
        PyObject *key = PyLong_FromUnsignedLong(t->thread_id);
        int err = key == NULL || PyDict_SetItem(result, key, value) < 0;
        Py_XDECREF(key);
        Py_DECREF(value);
        if (err) {
            Py_DECREF(result);
            return NULL;
        }
    }
    return result;
}

static PyObject *
pick_frame(PyThreadState *t)
{
    return (PyObject *)PyThreadState_GetFrame(t);
}

static PyObject *
pick_exception(PyThreadState *t)
{
    _PyErr_StackItem *item = _PyErr_GetTopmostException(t);
    PyObject *exc = item != NULL ? item->exc_value : NULL;
    return Py_NewRef(exc != NULL ? exc : Py_None);
}

static PyObject *
sys_current_frames(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return map_threads(pick_frame);
}

static PyObject *
sys_current_exceptions(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return map_threads(pick_exception);
}

static PyObject *
sys_setswitchinterval(PyObject *module, PyObject *arg)
{
    double secs = PyFloat_AsDouble(arg);
    if (secs == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    if (!(secs > 0.0)) {
        PyErr_SetString(PyExc_ValueError, "switch interval must be strictly positive");
        return NULL;
    }
    double us = secs * 1e6;
    _PyEval_SetSwitchInterval(us > (double)ULONG_MAX ? ULONG_MAX : (unsigned long)us);
    Py_RETURN_NONE;
}

static PyObject *
sys_getswitchinterval(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyFloat_FromDouble((double)_PyEval_GetSwitchInterval() / 1e6);
}

static PyMethodDef thread_sys_methods[] = {
    {"_current_frames", sys_current_frames, METH_NOARGS,
     "Each thread's ident mapped to its topmost frame."},
    {"_current_exceptions", sys_current_exceptions, METH_NOARGS,
     "Each thread's ident mapped to the exception it is handling, or None."},
    {"setswitchinterval", sys_setswitchinterval, METH_O,
     "How long (seconds) a thread may run before others get the interpreter lock."},
    {"getswitchinterval", sys_getswitchinterval, METH_NOARGS, "The value set by setswitchinterval()."},
    {NULL, NULL, 0, NULL},
};

int
_PySys_AddThreadFunctions(PyObject *sysdict)
{
    PyObject *modname = PyUnicode_FromString("sys");
    if (modname == NULL) {
        return -1;
    }
    for (PyMethodDef *def = thread_sys_methods; def->ml_name != NULL; def++) {
        PyObject *func = PyCFunction_NewEx(def, NULL, modname);
        if (func == NULL || PyDict_SetItemString(sysdict, def->ml_name, func) < 0) {
            Py_XDECREF(func);
            Py_DECREF(modname);
            return -1;
        }
        Py_DECREF(func);
    }
    Py_DECREF(modname);
    return 0;
}
