/* Thread state and interpreter state.  One interpreter, any number of OS
   threads, each with its own thread state; one lock (Python/ceval_gil.c)
   decides which of them runs Python code.  Every helper receives the
   thread state explicitly (the JIT's "execution context"). */
#ifndef Py_INTERNAL_PYSTATE_H
#define Py_INTERNAL_PYSTATE_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_gc.h"
#include "pycore_stackref.h"

struct _PyInterpreterFrame;

/* A handled exception (the one `sys.exception()` returns), per frame that
   is inside an except block; generators keep their own. */
typedef struct _err_stackitem {
    PyObject *exc_value;
    struct _err_stackitem *previous_item;
} _PyErr_StackItem;

typedef struct _stack_chunk {
    struct _stack_chunk *previous;
    size_t size;
    size_t top;
    PyObject *data[1];
} _PyStackChunk;

#define Py_C_RECURSION_LIMIT 8000
#define Py_DEFAULT_RECURSION_LIMIT 1000

struct _ts {
    PyThreadState *prev;
    PyThreadState *next;
    PyInterpreterState *interp;

    /* Frame being executed: the top of the interpreter-frame stack. */
    struct _PyInterpreterFrame *current_frame;

    /* Set by the eval loop's check; nonzero asks it to stop and look
       (signals, pending calls, GC). */
    uintptr_t eval_breaker;

    PyObject *current_exception; /* exception being raised, or NULL */
    _PyErr_StackItem *exc_info;  /* top of the handled-exception stack */
    _PyErr_StackItem exc_state;  /* bottom item, owned by the thread */

    int py_recursion_remaining;
    int py_recursion_limit;
    int c_recursion_remaining;
    /* Below this address the C stack is nearly exhausted: C-level
       recursion raises RecursionError instead of crashing. */
    uintptr_t c_stack_soft_limit;
    uintptr_t c_stack_hard_limit;
    int recursion_headroom;      /* >0 while handling a RecursionError */

    int tracing;
    int what_event;
    PyObject *c_profileobj;
    PyObject *c_traceobj;
    void *c_profilefunc;
    void *c_tracefunc;

    /* The trashcan (Python/gc.c): nesting depth of container deallocs,
       and the containers whose dealloc was deferred to keep the C stack
       shallow (chained through their GC header). */
    int dealloc_depth;
    PyObject *delete_later;

    PyObject *dict;              /* PyThreadState_GetDict() */
    /* sys.set_asyncgen_hooks(): event loops set these per thread. */
    PyObject *async_gen_firstiter;
    PyObject *async_gen_finalizer;
    /* sys.set_coroutine_origin_tracking_depth(): how many callers a new
       coroutine records in cr_origin (0: none). */
    int coroutine_origin_tracking_depth;
    PyObject *context;           /* current contextvars.Context, NULL until first used */
    uint64_t context_ver;        /* bumped whenever `context` changes (Python/context.c) */
    unsigned long thread_id;     /* PyThread_get_thread_ident() of its thread */
    unsigned long native_thread_id;
    uint64_t id;                 /* unique, never reused (keys _thread._local) */
    int gilstate_counter;        /* PyGILState_Ensure nesting */
    int made_by_gilstate;        /* PyGILState_Ensure created it */
    PyObject *local_weakrefs;    /* list: weakrefs to the _local objects it has
                                    a dict in, cleaned when the thread ends */

    struct _PyTraceRecorder *trace_recorder; /* tier 2: NULL until a loop gets hot */
    /* While JIT code runs: the executor whose code it is (a strong
       reference the eval loop owns; JIT code that jumps from an exit into
       its side trace's code hands the reference on).  Python/jit.c. */
    struct _PyExecutorObject *jit_executor;
    /* The frame the innermost run of JIT code on this thread started in
       (sys._jit.is_active()), NULL when none runs. */
    struct _PyInterpreterFrame *jit_entry_frame;

    _PyStackChunk *datastack_chunk;
    PyObject **datastack_top;
    PyObject **datastack_limit;
};

struct _is {
    PyInterpreterState *next;
    PyThreadState *threads_head;
    int64_t id;

    PyObject *modules;      /* sys.modules */
    PyObject *sysdict;      /* sys.__dict__ */
    PyObject *builtins;     /* builtins.__dict__ */
    PyObject *dict;         /* interpreter-wide scratch dict */
    PyObject *importlib;

    int recursion_limit;
    int finalizing;
    int64_t func_version_next; /* for PyFunctionObject.func_version */
    uint32_t type_version_next;

    struct _gc_runtime_state gc;
    PyObject *interned;     /* dict of interned strings */
};

/* The state of the running thread while it holds the interpreter lock
   (NULL before start-up and while the thread has released the lock). */
extern __thread PyThreadState *_Py_tss_tstate;

static inline PyThreadState *
_PyThreadState_GET(void)
{
    return _Py_tss_tstate;
}

static inline PyInterpreterState *
_PyInterpreterState_GET(void)
{
    return _Py_tss_tstate->interp;
}

PyAPI_FUNC(PyInterpreterState *) _PyInterpreterState_Main(void);
PyAPI_FUNC(PyThreadState *) _PyThreadState_New(PyInterpreterState *interp);
PyAPI_FUNC(void) _PyThreadState_Delete(PyThreadState *tstate);
PyAPI_FUNC(PyInterpreterState *) _PyInterpreterState_New(void);
PyAPI_FUNC(void) _PyInterpreterState_Delete(PyInterpreterState *interp);
PyAPI_FUNC(void) _PyThreadState_Bind(PyThreadState *tstate);

/* The thread state this OS thread was bound to, attached or not. */
PyAPI_FUNC(PyThreadState *) _PyThreadState_Bound(void);
/* The main thread's state (the one start-up made), and its ident. */
PyAPI_FUNC(PyThreadState *) _PyThreadState_Main(void);
PyAPI_FUNC(unsigned long) _PyThread_MainIdent(void);
/* Unlink and free the running thread's state, releasing the interpreter
   lock; the state must have been cleared. */
PyAPI_FUNC(void) _PyThreadState_DeleteCurrent(PyThreadState *tstate);
/* Drop the _thread._local dicts that belong to tstate
   (Modules/_threadmodule.c). */
PyAPI_FUNC(void) _PyThread_ClearLocals(PyThreadState *tstate);
/* sys._current_frames, _current_exceptions, setswitchinterval and
   getswitchinterval (Python/pystate.c), added to sys at start-up. */
PyAPI_FUNC(int) _PySys_AddThreadFunctions(PyObject *sysdict);

/* Error helpers that take the thread state explicitly (Python/errors.c). */
PyAPI_FUNC(void) _PyErr_SetString(PyThreadState *tstate, PyObject *exception, const char *string);
PyAPI_FUNC(void) _PyErr_SetObject(PyThreadState *tstate, PyObject *exception, PyObject *value);
PyAPI_FUNC(PyObject *) _PyErr_Format(PyThreadState *tstate, PyObject *exception, const char *format, ...);
PyAPI_FUNC(void) _PyErr_SetRaisedException(PyThreadState *tstate, PyObject *exc);
PyAPI_FUNC(PyObject *) _PyErr_GetRaisedException(PyThreadState *tstate);
PyAPI_FUNC(int) _PyErr_ExceptionMatches(PyThreadState *tstate, PyObject *exc);
PyAPI_FUNC(void) _PyErr_Clear(PyThreadState *tstate);
PyAPI_FUNC(void) _PyErr_SetKeyError(PyObject *key);
PyAPI_FUNC(PyObject *) _PyErr_FormatFromCause(PyObject *exception, const char *format, ...);
/* PyErr_WarnFormat with the object the warning is about (warnings.warn's
   `source`, which lets tracemalloc show where it was allocated). */
PyAPI_FUNC(int) _PyErr_WarnFormatWithSource(PyObject *source, PyObject *category,
                                             Py_ssize_t stack_level, const char *format, ...);
PyAPI_FUNC(void) _PyErr_ChainExceptions1(PyObject *exc);

static inline PyObject *
_PyErr_Occurred(PyThreadState *tstate)
{
    return tstate->current_exception == NULL
               ? NULL
               : (PyObject *)Py_TYPE(tstate->current_exception);
}

/* The handled exception for sys.exception(): the innermost non-None. */
PyAPI_FUNC(_PyErr_StackItem *) _PyErr_GetTopmostException(PyThreadState *tstate);
/* Make `handled` (an exception, None or NULL) the __context__ of
   exception `value`, cutting value out of handled's chain first so that no
   loop forms. */
PyAPI_FUNC(void) _PyErr_ChainContext(PyObject *value, PyObject *handled);

#endif /* !Py_INTERNAL_PYSTATE_H */
