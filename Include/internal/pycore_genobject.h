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
/* Async generator protocol: __anext__, asend, athrow, aclose return the
   awaitables of the async generator machinery.  Not written yet: weak
   placeholders in genobject.c raise SystemError until they are. */
PyAPI_FUNC(PyObject *) _PyAsyncGen_ANext(PyObject *self);
PyAPI_FUNC(PyObject *) _PyAsyncGen_ASend(PyObject *self, PyObject *arg);
PyAPI_FUNC(PyObject *) _PyAsyncGen_AThrow(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyAPI_FUNC(PyObject *) _PyAsyncGen_AClose(PyObject *self);

#endif /* !Py_INTERNAL_GENOBJECT_H */
