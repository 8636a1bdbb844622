/* Operating-system threads for the runtime, on POSIX threads: starting
   and joining threads, their identities, the lock the _thread module and
   the interpreter build on, and thread-specific storage.

   Locks are counting semaphores capped at one: a semaphore may be released
   by a thread other than the one that took it (Python's locks allow that),
   and sem_wait is interrupted by a signal handler whatever SA_RESTART
   says, which lets a blocked acquire notice Ctrl-C. */

#include "Python.h"
#include "pythread.h"
#include <semaphore.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* 0 means "the platform's default". */
static size_t thread_stack_size = 0;

void
PyThread_init_thread(void)
{
}

/* ---- Threads ---------------------------------------------------------- */

typedef struct {
    void (*func)(void *);
    void *arg;
} start_record;

static void *
thread_trampoline(void *raw)
{
    start_record rec = *(start_record *)raw;
    PyMem_RawFree(raw);
    rec.func(rec.arg);
    return NULL;
}

static int
spawn(void (*func)(void *), void *arg, pthread_t *out)
{
    start_record *rec = PyMem_RawMalloc(sizeof(start_record));
    if (rec == NULL) {
        return -1;
    }
    rec->func = func;
    rec->arg = arg;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) {
        PyMem_RawFree(rec);
        return -1;
    }
    if (thread_stack_size != 0) {
        pthread_attr_setstacksize(&attr, thread_stack_size);
    }
    int err = pthread_create(out, &attr, thread_trampoline, rec);
    pthread_attr_destroy(&attr);
    if (err != 0) {
        PyMem_RawFree(rec);
        errno = err;
        return -1;
    }
    return 0;
}

int
PyThread_start_joinable_thread(void (*func)(void *), void *arg, PyThread_ident_t *ident,
                               PyThread_handle_t *handle)
{
    pthread_t th;
    if (spawn(func, arg, &th) < 0) {
        return -1;
    }
    *ident = (PyThread_ident_t)th;
    *handle = (PyThread_handle_t)th;
    return 0;
}

unsigned long
PyThread_start_new_thread(void (*func)(void *), void *arg)
{
    pthread_t th;
    if (spawn(func, arg, &th) < 0) {
        return PYTHREAD_INVALID_THREAD_ID;
    }
    pthread_detach(th);
    return (unsigned long)th;
}

int
PyThread_join_thread(PyThread_handle_t handle)
{
    return pthread_join((pthread_t)handle, NULL) == 0 ? 0 : -1;
}

int
PyThread_detach_thread(PyThread_handle_t handle)
{
    return pthread_detach((pthread_t)handle) == 0 ? 0 : -1;
}

void _Py_NO_RETURN
PyThread_exit_thread(void)
{
    pthread_exit(NULL);
}

/* For threads that must never run again (daemon threads once the runtime
   is finalizing): sleep with every signal blocked until the process ends. */
void _Py_NO_RETURN
PyThread_hang_thread(void)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    for (;;) {
        pause();
    }
}

unsigned long
PyThread_get_thread_ident(void)
{
    return (unsigned long)pthread_self();
}

PyThread_ident_t
PyThread_get_thread_ident_ex(void)
{
    return (PyThread_ident_t)pthread_self();
}

unsigned long
PyThread_get_thread_native_id(void)
{
    return (unsigned long)syscall(SYS_gettid);
}

size_t
PyThread_get_stacksize(void)
{
    return thread_stack_size;
}

/* 0 restores the default; otherwise at least 32 KiB (and what the system
   accepts).  -1 for a size the system refuses. */
int
PyThread_set_stacksize(size_t size)
{
    if (size == 0) {
        thread_stack_size = 0;
        return 0;
    }
    if (size < 0x8000) {
        return -1;
    }
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) {
        return -1;
    }
    int bad = pthread_attr_setstacksize(&attr, size);
    pthread_attr_destroy(&attr);
    if (bad) {
        return -1;
    }
    thread_stack_size = size;
    return 0;
}

/* ---- Locks ------------------------------------------------------------ */

PyThread_type_lock
PyThread_allocate_lock(void)
{
    sem_t *sem = PyMem_RawMalloc(sizeof(sem_t));
    if (sem == NULL) {
        return NULL;
    }
    if (sem_init(sem, 0, 1) != 0) {
        PyMem_RawFree(sem);
        return NULL;
    }
    return (PyThread_type_lock)sem;
}

void
PyThread_free_lock(PyThread_type_lock lock)
{
    if (lock == NULL) {
        return;
    }
    sem_destroy((sem_t *)lock);
    PyMem_RawFree(lock);
}

static long long
monotonic_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One wait on the semaphore: 0 taken, else the errno (ETIMEDOUT, EINTR). */
static int
sem_wait_once(sem_t *sem, long long deadline_us)
{
    int rc;
    if (deadline_us < 0) {
        rc = sem_wait(sem);
    }
    else {
        struct timespec abs;
        abs.tv_sec = (time_t)(deadline_us / 1000000);
        abs.tv_nsec = (long)(deadline_us % 1000000) * 1000;
        rc = sem_clockwait(sem, CLOCK_MONOTONIC, &abs);
    }
    return rc == 0 ? 0 : errno;
}

PyLockStatus
PyThread_acquire_lock_timed(PyThread_type_lock lock, PY_TIMEOUT_T microseconds, int intr_flag)
{
    sem_t *sem = (sem_t *)lock;
    if (microseconds == 0) {
        return sem_trywait(sem) == 0 ? PY_LOCK_ACQUIRED : PY_LOCK_FAILURE;
    }
    long long deadline = -1;
    if (microseconds > 0) {
        if (microseconds > PY_TIMEOUT_MAX) {
            microseconds = PY_TIMEOUT_MAX;
        }
        deadline = monotonic_us() + microseconds;
    }
    for (;;) {
        int err = sem_wait_once(sem, deadline);
        if (err == 0) {
            return PY_LOCK_ACQUIRED;
        }
        if (err == EINTR) {
            if (intr_flag) {
                return PY_LOCK_INTR;
            }
            continue;
        }
        return PY_LOCK_FAILURE;
    }
}

int
PyThread_acquire_lock(PyThread_type_lock lock, int waitflag)
{
    return PyThread_acquire_lock_timed(lock, waitflag ? -1 : 0, 0) == PY_LOCK_ACQUIRED;
}

/* Releasing an unlocked lock is the caller's mistake; the cap keeps the
   semaphore a lock even then. */
void
PyThread_release_lock(PyThread_type_lock lock)
{
    sem_t *sem = (sem_t *)lock;
    int value = 0;
    if (sem_getvalue(sem, &value) == 0 && value > 0) {
        return;
    }
    sem_post(sem);
}

/* ---- Thread-specific storage ------------------------------------------ */

Py_tss_t *
PyThread_tss_alloc(void)
{
    Py_tss_t *key = PyMem_RawCalloc(1, sizeof(Py_tss_t));
    return key;
}

void
PyThread_tss_free(Py_tss_t *key)
{
    if (key != NULL) {
        PyThread_tss_delete(key);
        PyMem_RawFree(key);
    }
}

int
PyThread_tss_is_created(Py_tss_t *key)
{
    return key->_is_initialized;
}

int
PyThread_tss_create(Py_tss_t *key)
{
    if (key->_is_initialized) {
        return 0;
    }
    if (pthread_key_create(&key->_key, NULL) != 0) {
        return -1;
    }
    key->_is_initialized = 1;
    return 0;
}

void
PyThread_tss_delete(Py_tss_t *key)
{
    if (key->_is_initialized) {
        pthread_key_delete(key->_key);
        key->_is_initialized = 0;
    }
}

int
PyThread_tss_set(Py_tss_t *key, void *value)
{
    return pthread_setspecific(key->_key, value) == 0 ? 0 : -1;
}

void *
PyThread_tss_get(Py_tss_t *key)
{
    return pthread_getspecific(key->_key);
}
