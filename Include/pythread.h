/* Operating-system threads, locks and thread-specific storage
   (Python/thread.c, on POSIX threads). */
#ifndef Py_PYTHREAD_H
#define Py_PYTHREAD_H

#include <pthread.h>

typedef void *PyThread_type_lock;

/* What a timed acquire came to: PY_LOCK_INTR when a signal arrived while
   waiting and the caller asked to hear of it. */
typedef enum PyLockStatus {
    PY_LOCK_FAILURE = 0,
    PY_LOCK_ACQUIRED = 1,
    PY_LOCK_INTR
} PyLockStatus;

#define WAIT_LOCK 1
#define NOWAIT_LOCK 0

/* The longest wait accepted, in microseconds (and in seconds for the
   _thread.TIMEOUT_MAX the lock objects show). */
#define PY_TIMEOUT_T long long
#define PY_TIMEOUT_MAX (LLONG_MAX / 1000)

#define PYTHREAD_INVALID_THREAD_ID ((unsigned long)-1)

typedef unsigned long long PyThread_ident_t;
typedef unsigned long long PyThread_handle_t;

PyAPI_FUNC(void) PyThread_init_thread(void);
PyAPI_FUNC(unsigned long) PyThread_start_new_thread(void (*func)(void *), void *arg);
PyAPI_FUNC(int) PyThread_start_joinable_thread(void (*func)(void *), void *arg,
                                               PyThread_ident_t *ident, PyThread_handle_t *handle);
PyAPI_FUNC(int) PyThread_join_thread(PyThread_handle_t handle);
PyAPI_FUNC(int) PyThread_detach_thread(PyThread_handle_t handle);
PyAPI_FUNC(void) _Py_NO_RETURN PyThread_exit_thread(void);
PyAPI_FUNC(void) _Py_NO_RETURN PyThread_hang_thread(void);
PyAPI_FUNC(unsigned long) PyThread_get_thread_ident(void);
PyAPI_FUNC(PyThread_ident_t) PyThread_get_thread_ident_ex(void);
PyAPI_FUNC(unsigned long) PyThread_get_thread_native_id(void);

PyAPI_FUNC(PyThread_type_lock) PyThread_allocate_lock(void);
PyAPI_FUNC(void) PyThread_free_lock(PyThread_type_lock);
PyAPI_FUNC(int) PyThread_acquire_lock(PyThread_type_lock, int waitflag);
PyAPI_FUNC(PyLockStatus) PyThread_acquire_lock_timed(PyThread_type_lock, PY_TIMEOUT_T microseconds,
                                                     int intr_flag);
PyAPI_FUNC(void) PyThread_release_lock(PyThread_type_lock);

PyAPI_FUNC(size_t) PyThread_get_stacksize(void);
PyAPI_FUNC(int) PyThread_set_stacksize(size_t);

/* Thread-specific storage: one key, a value per thread. */
typedef struct {
    int _is_initialized;
    pthread_key_t _key;
} Py_tss_t;

#define Py_tss_NEEDS_INIT {0}

PyAPI_FUNC(Py_tss_t *) PyThread_tss_alloc(void);
PyAPI_FUNC(void) PyThread_tss_free(Py_tss_t *key);
PyAPI_FUNC(int) PyThread_tss_is_created(Py_tss_t *key);
PyAPI_FUNC(int) PyThread_tss_create(Py_tss_t *key);
PyAPI_FUNC(void) PyThread_tss_delete(Py_tss_t *key);
PyAPI_FUNC(int) PyThread_tss_set(Py_tss_t *key, void *value);
PyAPI_FUNC(void *) PyThread_tss_get(Py_tss_t *key);

#endif /* !Py_PYTHREAD_H */
