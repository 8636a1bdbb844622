/* Generators, coroutines and async generators (Objects/genobject.c).

   Each embeds its interpreter frame (gi_iframe) at the end of the object,
   sized for the code, so suspending and resuming never copies the frame.
   This header has the layouts and the object-level API; running the frame
   (send, throw, close) is done together with the interpreter. */
#ifndef Py_INTERNAL_GENOBJECT_H
#define Py_INTERNAL_GENOBJECT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_frame.h"
#include "pycore_pystate.h"

/* gi_frame_state values.  Suspended states are negative so that "not yet
   finished" is `state < FRAME_EXECUTING`. */
#ifndef FRAME_CREATED
#  define FRAME_CREATED (-3)              /* made by RETURN_GENERATOR, never run */
#  define FRAME_SUSPENDED (-2)            /* stopped at a yield */
#  define FRAME_SUSPENDED_YIELD_FROM (-1) /* stopped inside yield from / await */
#  define FRAME_EXECUTING 0
#  define FRAME_COMPLETED 1               /* returned or raised, frame not yet cleared */
#  define FRAME_CLEARED 4                 /* frame released (or never filled) */
#endif
#define FRAME_STATE_SUSPENDED(S) ((S) == FRAME_SUSPENDED || (S) == FRAME_SUSPENDED_YIELD_FROM)
#define FRAME_STATE_FINISHED(S) ((S) >= FRAME_COMPLETED)

#define _PyGenObject_HEAD(prefix)                                                     \
    PyObject_HEAD                                                                      \
    PyObject *prefix##_weakreflist;                                                    \
    PyObject *prefix##_name;                                                           \
    PyObject *prefix##_qualname;                                                       \
    _PyErr_StackItem prefix##_exc_state; /* the exception being handled inside */     \
    PyObject *prefix##_origin_or_finalizer; /* coroutine origin / async gen finalizer */ \
    char prefix##_hooks_inited; /* async generators: firstiter hook called */          \
    char prefix##_closed;       /* async generators: aclose() finished */              \
    char prefix##_running_async; /* async generators: an asend/athrow is running */    \
    int8_t prefix##_frame_state;                                                       \
    _PyInterpreterFrame prefix##_iframe; /* must be last: sized per code object */

typedef struct {
    _PyGenObject_HEAD(gi)
} PyGenObject;

typedef struct {
    _PyGenObject_HEAD(cr)
} PyCoroObject;

typedef struct {
    _PyGenObject_HEAD(ag)
} PyAsyncGenObject;

PyAPI_DATA(PyTypeObject) PyGen_Type;
PyAPI_DATA(PyTypeObject) PyCoro_Type;
PyAPI_DATA(PyTypeObject) PyAsyncGen_Type;
PyAPI_DATA(PyTypeObject) _PyCoroWrapper_Type; /* what coroutine.__await__() returns */

#define PyGen_Check(op) PyObject_TypeCheck((op), &PyGen_Type)
#define PyGen_CheckExact(op) Py_IS_TYPE((op), &PyGen_Type)
#define PyCoro_CheckExact(op) Py_IS_TYPE((op), &PyCoro_Type)
#define PyAsyncGen_CheckExact(op) Py_IS_TYPE((op), &PyAsyncGen_Type)
/* Any of the three (they share the layout). */
#define _PyGen_AnyCheck(op) \
    (PyGen_CheckExact(op) || PyCoro_CheckExact(op) || PyAsyncGen_CheckExact(op))

static inline PyGenObject *
_PyGen_GetGeneratorFromFrame(_PyInterpreterFrame *frame)
{
    assert(frame->owner == FRAME_OWNED_BY_GENERATOR);
    return (PyGenObject *)((char *)frame - offsetof(PyGenObject, gi_iframe));
}

/* The frame of `gen` stops running (yield, return or raise): the thread's
   handled-exception stack drops the generator's own item. */
static inline void
_PyGen_LeaveExcState(PyThreadState *tstate, PyGenObject *gen)
{
    tstate->exc_info = gen->gi_exc_state.previous_item;
    gen->gi_exc_state.previous_item = NULL;
}

/* Make a suspended (or fresh) generator's frame the one to run, with
   `sent` (a new reference) as the value of its yield: for resume() in
   Python/ceval_gen.c, which runs it in a nested C loop, and for
   FOR_ITER_GEN and SEND_GEN, which dispatch into it in their own.  Where the caller picks up again is fixed by the
   two ways the frame leaves: YIELD_VALUE resumes the caller just past
   its resuming instruction and caches (see YIELD_VALUE), RETURN_VALUE at
   the caller's return_offset, which the caller points at its END_FOR or
   END_SEND. */
static inline _PyInterpreterFrame *
_PyGen_EnterFrameInline(PyThreadState *tstate, PyGenObject *gen, _PyStackRef sent)
{
    _PyInterpreterFrame *gen_frame = &gen->gi_iframe;
    *gen_frame->stackpointer++ = sent;
    gen->gi_exc_state.previous_item = tstate->exc_info;
    tstate->exc_info = &gen->gi_exc_state;
    gen->gi_frame_state = FRAME_EXECUTING;
    return gen_frame;
}

/* The code object (borrowed; NULL before RETURN_GENERATOR filled the frame). */
static inline PyCodeObject *
_PyGen_GetCode(PyGenObject *gen)
{
    if (PyStackRef_IsNull(gen->gi_iframe.f_executable)) {
        return NULL;
    }
    return _PyFrame_GetCode(&gen->gi_iframe);
}

/* For RETURN_GENERATOR: a generator, coroutine or async generator
   (chosen by the code's flags) with room for `func`'s frame, named after
   the function.  Its frame is empty and gi_frame_state is FRAME_CLEARED:
   the caller moves the frame in (including f_executable, whose reference
   it transfers), sets gi_iframe.owner = FRAME_OWNED_BY_GENERATOR and
   gi_frame_state = FRAME_CREATED.  New reference, tracked by the GC. */
PyAPI_FUNC(PyGenObject *) _PyGen_NewForFunction(PyFunctionObject *func);
/* Store cr_origin: where `caller` and up to depth-1 of its callers
   are.  0, or -1 with an exception set. */
PyAPI_FUNC(int) _PyCoro_RecordOrigin(PyGenObject *coro, _PyInterpreterFrame *caller, int depth);
/* Release the frame's contents (not f_executable: gi_code stays valid)
   and the handled-exception state; state becomes FRAME_CLEARED. */
PyAPI_FUNC(void) _PyGen_ClearFrame(PyGenObject *gen);
/* The iterator a suspended `yield from`/`await` delegates to (new
   reference), or NULL. */
PyAPI_FUNC(PyObject *) _PyGen_yf(PyGenObject *gen);
/* Raise StopIteration(value) so that value survives even when it is a
   tuple or an exception; None raises a bare StopIteration. */
PyAPI_FUNC(int) _PyGen_SetStopIterationValue(PyObject *value);
/* After a StopIteration was raised: clear it and store its value (None if
   it had none) in *pvalue.  0 on success, -1 if another error is set. */
PyAPI_FUNC(int) _PyGen_FetchStopIterationValue(PyObject **pvalue);

/* ---- Running the frame (the interpreter's side, Python/ceval_gen.c) ------- */

/* Resume `gen` with `arg` (None for next()).  Does every state check
   (already executing, non-None sent to a just-started generator, already
   finished).  PYGEN_NEXT with the yielded value, PYGEN_RETURN with the
   return value (None when exhausted), PYGEN_ERROR with an exception set;
   *presult is a new reference for the first two. */
PyAPI_FUNC(PySendResult) _PyGen_Send(PyGenObject *gen, PyObject *arg, PyObject **presult);
/* Raise exception instance `exc` (borrowed; its __traceback__ is kept)
   at the suspension point, first into the delegated iterator if any.
   Returns the next yielded value, or NULL (StopIteration set on return). */
PyAPI_FUNC(PyObject *) _PyGen_Throw(PyGenObject *gen, PyObject *exc);
/* gen.close(): throws GeneratorExit; returns the return value if the
   generator returned one (3.13+), None otherwise, NULL on error. */
PyAPI_FUNC(PyObject *) _PyGen_Close(PyGenObject *gen);
/* tp_finalize of all three types (Objects/genobject.c): closes a suspended
   generator, warns about never-awaited coroutines, calls the async
   generator finalizer. */
PyAPI_FUNC(void) _PyGen_Finalize(PyObject *self);
/* ---- The async generator protocol (Objects/asyncgenobject.c) ------------- */

/* __anext__() and asend(): an awaitable that resumes the generator and
   finishes (StopIteration) with the next value it yields. */
PyAPI_FUNC(PyObject *) _PyAsyncGen_ANext(PyObject *self);
PyAPI_FUNC(PyObject *) _PyAsyncGen_ASend(PyObject *self, PyObject *arg);
/* athrow(exc) and aclose(): awaitables that raise exc (GeneratorExit for
   aclose) at the generator's suspension point.  args as given to
   athrow(), already checked to hold 1 to 3 items. */
PyAPI_FUNC(PyObject *) _PyAsyncGen_AThrow(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyAPI_FUNC(PyObject *) _PyAsyncGen_AClose(PyObject *self);
/* INTRINSIC_ASYNC_GEN_WRAP: box a value an async generator yields, so the
   awaitables above can tell it from what an `await` inside it yields. */
PyAPI_FUNC(PyObject *) _PyAsyncGen_WrapValue(PyObject *value);
/* The normalised exception for throw()/athrow() arguments
   (value) or (type[, value[, traceback]]); new reference, or NULL with
   *instantiation_failed set when it was calling the class that failed. */
PyAPI_FUNC(PyObject *) _PyGen_NormalizeThrown(PyObject *const *args, Py_ssize_t nargs,
                                              int *instantiation_failed);
/* With more than one argument, the DeprecationWarning of the old
   throw(type, value, tb) form of `method`; -1 if it became an error. */
PyAPI_FUNC(int) _PyGen_WarnThrowSignature(const char *method, Py_ssize_t nargs);

/* builtins.anext(aiterator, default)'s awaitable around what
   aiterator.__anext__() returned (Objects/anextawaitable.c). */
PyAPI_FUNC(PyObject *) _PyAnextAwaitable_New(PyObject *awaitable, PyObject *default_value);

PyAPI_DATA(PyTypeObject) _PyAsyncGenASend_Type;
PyAPI_DATA(PyTypeObject) _PyAsyncGenAThrow_Type;
PyAPI_DATA(PyTypeObject) _PyAsyncGenWrappedValue_Type;
PyAPI_DATA(PyTypeObject) _PyAnextAwaitable_Type;

#endif /* !Py_INTERNAL_GENOBJECT_H */
