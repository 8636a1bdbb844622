/* The interpreter lock: one lock that a thread must hold to run Python
   code or touch objects, and the hand-over between threads.

   A thread that wants the lock waits on a condition for the switch
   interval (5 ms by default).  If the lock has not changed hands by then,
   it sets the drop request bit in the holder's eval breaker; the holder
   sees it at its next RESUME or backward jump (_Py_HandlePending), lets go
   and waits until some waiter has taken the lock before queueing again,
   so that a busy thread cannot immediately win it back.  Threads release
   the lock by themselves around blocking calls (Py_BEGIN_ALLOW_THREADS).

   The single-thread fast path costs nothing new: the eval breaker word
   was already tested at those points.

   This file also keeps the queue of Py_AddPendingCall. */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_pystate.h"
#include <pthread.h>
#include <time.h>

static struct {
    pthread_mutex_t mutex;
    pthread_cond_t released;   /* the lock became free */
    pthread_cond_t switched;   /* the lock changed hands */
    int initialized;
    int locked;
    int waiting;               /* threads queued in take_gil */
    unsigned long handovers;   /* counts every take */
    PyThreadState *holder;
    unsigned long interval_us;
    PyThreadState *finalizer;  /* the only thread allowed to run, at exit */
} gil = {
    .mutex = PTHREAD_MUTEX_INITIALIZER,
    .interval_us = 5000,
};

static void
init_conditions(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&gil.released, &attr);
    pthread_cond_init(&gil.switched, &attr);
    pthread_condattr_destroy(&attr);
}

/* Wait on gil.released for the switch interval: nonzero on a timeout. */
static int
wait_interval(void)
{
    struct timespec abs;
    clock_gettime(CLOCK_MONOTONIC, &abs);
    unsigned long us = gil.interval_us;
    abs.tv_sec += (time_t)(us / 1000000);
    abs.tv_nsec += (long)(us % 1000000) * 1000;
    if (abs.tv_nsec >= 1000000000) {
        abs.tv_sec += 1;
        abs.tv_nsec -= 1000000000;
    }
    return pthread_cond_timedwait(&gil.released, &gil.mutex, &abs) == ETIMEDOUT;
}

static void
release_locked(void)
{
    gil.locked = 0;
    __atomic_store_n(&gil.holder, NULL, __ATOMIC_RELEASE);
    pthread_cond_signal(&gil.released);
}

void
_PyEval_DropGIL(PyThreadState *tstate)
{
    (void)tstate;
    pthread_mutex_lock(&gil.mutex);
    assert(gil.locked && gil.holder == tstate);
    release_locked();
    pthread_mutex_unlock(&gil.mutex);
}

/* Let go because another thread asked, and stay out of the queue until
   one of the waiters got the lock. */
static void
yield_gil(PyThreadState *tstate)
{
    (void)tstate;
    pthread_mutex_lock(&gil.mutex);
    release_locked();
    if (gil.waiting > 0) {
        unsigned long seen = gil.handovers;
        while (gil.handovers == seen) {
            pthread_cond_wait(&gil.switched, &gil.mutex);
        }
    }
    pthread_mutex_unlock(&gil.mutex);
}

void
_PyEval_TakeGIL(PyThreadState *tstate)
{
    int saved_errno = errno;
    pthread_mutex_lock(&gil.mutex);
    if (gil.locked) {
        gil.waiting++;
        while (gil.locked) {
            unsigned long seen = gil.handovers;
            if (wait_interval() && gil.locked && gil.handovers == seen && gil.holder != NULL) {
                _Py_set_eval_breaker_bit(gil.holder, _PY_GIL_DROP_REQUEST_BIT);
            }
        }
        gil.waiting--;
    }
    gil.locked = 1;
    __atomic_store_n(&gil.holder, tstate, __ATOMIC_RELEASE);
    gil.handovers++;
    pthread_cond_broadcast(&gil.switched);
    PyThreadState *finalizer = gil.finalizer;
    pthread_mutex_unlock(&gil.mutex);
    /* A request made of an earlier holding period is stale. */
    _Py_unset_eval_breaker_bit(tstate, _PY_GIL_DROP_REQUEST_BIT);
    if (finalizer != NULL && finalizer != tstate) {
        _PyEval_DropGIL(tstate);
        PyThread_hang_thread();
    }
    errno = saved_errno;
}

int
_PyEval_HoldsGIL(PyThreadState *tstate)
{
    return tstate != NULL && __atomic_load_n(&gil.holder, __ATOMIC_ACQUIRE) == tstate;
}

void
_PyEval_InitGIL(PyThreadState *tstate)
{
    if (!gil.initialized) {
        init_conditions();
        gil.initialized = 1;
    }
    _PyEval_TakeGIL(tstate);
}

void
_PyEval_StartFinalizing(PyThreadState *tstate)
{
    pthread_mutex_lock(&gil.mutex);
    gil.finalizer = tstate;
    pthread_mutex_unlock(&gil.mutex);
}

int
_PyEval_IsFinalizing(void)
{
    return gil.finalizer != NULL;
}

void
_PyEval_SetSwitchInterval(unsigned long microseconds)
{
    gil.interval_us = microseconds == 0 ? 1 : microseconds;
}

unsigned long
_PyEval_GetSwitchInterval(void)
{
    return gil.interval_us;
}

/* ---- Releasing the lock around blocking code ---------------------------- */

PyThreadState *
PyEval_SaveThread(void)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate == NULL) {
        Py_FatalError("the function must be called with the interpreter lock held");
    }
    _Py_tss_tstate = NULL;
    _PyEval_DropGIL(tstate);
    return tstate;
}

void
PyEval_RestoreThread(PyThreadState *tstate)
{
    if (tstate == NULL) {
        Py_FatalError("NULL thread state");
    }
    _PyEval_TakeGIL(tstate);
    _Py_tss_tstate = tstate;
}

void
PyEval_AcquireThread(PyThreadState *tstate)
{
    PyEval_RestoreThread(tstate);
}

void
PyEval_ReleaseThread(PyThreadState *tstate)
{
    if (_PyThreadState_GET() != tstate) {
        Py_FatalError("wrong thread state");
    }
    PyEval_SaveThread();
}

void
PyEval_InitThreads(void)
{
}

int
PyEval_ThreadsInitialized(void)
{
    return 1;
}

/* ---- Calls other threads queue for the main thread ----------------------- */

#define NPENDINGCALLS 32

static struct {
    pthread_mutex_t mutex;
    int first;
    int count;
    struct {
        int (*func)(void *);
        void *arg;
    } calls[NPENDINGCALLS];
} pending = {.mutex = PTHREAD_MUTEX_INITIALIZER};

int
Py_AddPendingCall(int (*func)(void *), void *arg)
{
    pthread_mutex_lock(&pending.mutex);
    if (pending.count == NPENDINGCALLS) {
        pthread_mutex_unlock(&pending.mutex);
        return -1;
    }
    int slot = (pending.first + pending.count) % NPENDINGCALLS;
    pending.calls[slot].func = func;
    pending.calls[slot].arg = arg;
    pending.count++;
    pthread_mutex_unlock(&pending.mutex);
    PyThreadState *main_tstate = _PyThreadState_Main();
    if (main_tstate != NULL) {
        _Py_set_eval_breaker_bit(main_tstate, _PY_CALLS_TO_DO_BIT);
    }
    return 0;
}

/* Take the oldest queued call: 0 when the queue is empty. */
static int
pop_pending(int (**func)(void *), void **arg)
{
    pthread_mutex_lock(&pending.mutex);
    int found = pending.count > 0;
    if (found) {
        *func = pending.calls[pending.first].func;
        *arg = pending.calls[pending.first].arg;
        pending.first = (pending.first + 1) % NPENDINGCALLS;
        pending.count--;
    }
    pthread_mutex_unlock(&pending.mutex);
    return found;
}

int
_PyEval_RunPendingCalls(PyThreadState *tstate)
{
    if (tstate != _PyThreadState_Main()) {
        return 0;
    }
    int (*func)(void *);
    void *arg;
    while (pop_pending(&func, &arg)) {
        if (func(arg) != 0) {
            /* The rest wait for the next check. */
            _Py_set_eval_breaker_bit(tstate, _PY_CALLS_TO_DO_BIT);
            return -1;
        }
    }
    return 0;
}

int
Py_MakePendingCalls(void)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (_PyErr_CheckSignalsTstate(tstate) < 0) {
        return -1;
    }
    return _PyEval_RunPendingCalls(tstate);
}

/* ---- The eval breaker ----------------------------------------------------- */

int
_Py_HandlePending(PyThreadState *tstate)
{
    uintptr_t bits = __atomic_exchange_n(&tstate->eval_breaker, 0, __ATOMIC_SEQ_CST);
    if (bits & _PY_GC_SCHEDULED_BIT) {
        _PyGC_CollectIfNeeded(tstate);
    }
    if (bits & _PY_GIL_DROP_REQUEST_BIT) {
        yield_gil(tstate);
        _PyEval_TakeGIL(tstate);
    }
    if ((bits & _PY_CALLS_TO_DO_BIT) && _PyEval_RunPendingCalls(tstate) < 0) {
        return -1;
    }
    return _PyErr_CheckSignalsTstate(tstate);
}
