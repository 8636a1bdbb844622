/* The async generator protocol (PEP 525): the awaitables that
   __anext__(), asend(), athrow() and aclose() return, and the box that
   marks what an async generator yields.

   An async generator's frame suspends for two reasons: at `yield v`, where
   v is for whoever iterates the generator, and inside an `await`, where
   the value is for the event loop.  The compiler boxes every yielded
   value (INTRINSIC_ASYNC_GEN_WRAP), so the awaitable driving the frame can
   tell the two apart: a box finishes the awaitable (StopIteration carrying
   the value), anything else is handed up unchanged.

   One struct serves all four awaitables; `op` says what the first
   resumption does (send a value, throw an exception, throw GeneratorExit).
   Each goes FRESH -> RUNNING -> DONE once.  While one is RUNNING its
   generator's ag_running_async is set and no other may start. */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_genobject.h"
#include "pycore_object.h"
#include "pycore_pystate.h"

/* ---- The box around yielded values ------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *value;
} YieldedBox;

/* Boxes are made and dropped once per `yield`: keep a few. */
#define BOX_CACHE_SIZE 16
static YieldedBox *box_cache[BOX_CACHE_SIZE];
static int box_cache_len;

PyObject *
_PyAsyncGen_WrapValue(PyObject *value)
{
    YieldedBox *box;
    if (box_cache_len > 0) {
        box = box_cache[--box_cache_len];
    }
    else {
        box = PyObject_Malloc(sizeof(YieldedBox));
        if (box == NULL) {
            return PyErr_NoMemory();
        }
    }
    _PyObject_Init((PyObject *)box, &_PyAsyncGenWrappedValue_Type);
    box->value = Py_NewRef(value);
    return (PyObject *)box;
}

static void
box_dealloc(PyObject *self)
{
    YieldedBox *box = (YieldedBox *)self;
    Py_CLEAR(box->value);
    if (box_cache_len < BOX_CACHE_SIZE) {
        box_cache[box_cache_len++] = box;
        return;
    }
    PyObject_Free(self);
}

/* Take the value out of a box (stealing the box reference). */
static PyObject *
unbox(PyObject *boxed)
{
    PyObject *value = Py_NewRef(((YieldedBox *)boxed)->value);
    Py_DECREF(boxed);
    return value;
}

PyTypeObject _PyAsyncGenWrappedValue_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "async_generator_wrapped_value",
    .tp_basicsize = sizeof(YieldedBox),
    .tp_dealloc = box_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
};

/* ---- The awaitables ------------------------------------------------------------ */

typedef enum { OP_SEND, OP_THROW, OP_CLOSE } step_op;
typedef enum { STEP_FRESH, STEP_RUNNING, STEP_DONE } step_state;

typedef struct {
    PyObject_HEAD
    PyAsyncGenObject *gen;
    /* OP_SEND: the value asend() was given; OP_THROW: the exception
       instance; OP_CLOSE: NULL. */
    PyObject *payload;
    uint8_t op;
    uint8_t state;
} AsyncGenStep;

/* The method name users called, for messages. */
static const char *
op_method(const AsyncGenStep *st)
{
    switch (st->op) {
    case OP_SEND:
        return "asend";
    case OP_THROW:
        return "athrow";
    default:
        return "aclose";
    }
}

static PyObject *
reuse_error(const AsyncGenStep *st)
{
    PyErr_SetString(PyExc_RuntimeError, st->op == OP_SEND
                                            ? "cannot reuse already awaited __anext__()/asend()"
                                            : "cannot reuse already awaited aclose()/athrow()");
    return NULL;
}

/* Resume the generator once: throw `exc` if given, else send `value`.
   A frame that returned comes back as PYGEN_RETURN either way. */
static PySendResult
resume_generator(PyAsyncGenObject *gen, PyObject *value, PyObject *exc, PyObject **out)
{
    if (exc == NULL) {
        return _PyGen_Send((PyGenObject *)gen, value, out);
    }
    *out = _PyGen_Throw((PyGenObject *)gen, exc);
    if (*out != NULL) {
        return PYGEN_NEXT;
    }
    if (PyErr_ExceptionMatches(PyExc_StopIteration)) {
        PyErr_Clear();
        *out = Py_NewRef(Py_None);
        return PYGEN_RETURN;
    }
    return PYGEN_ERROR;
}

static int
ended_by(void)
{
    return PyErr_ExceptionMatches(PyExc_StopAsyncIteration) ||
           PyErr_ExceptionMatches(PyExc_GeneratorExit);
}

/* What one resumption means for the awaitable.  PYGEN_NEXT: the
   generator awaits something, *out goes up to the event loop.  Otherwise
   the awaitable is done: PYGEN_RETURN with its result, or PYGEN_ERROR. */
static PySendResult
settle(AsyncGenStep *st, PySendResult r, PyObject **out)
{
    PyAsyncGenObject *gen = st->gen;
    if (r == PYGEN_NEXT && !Py_IS_TYPE(*out, &_PyAsyncGenWrappedValue_Type)) {
        return PYGEN_NEXT;
    }
    gen->ag_running_async = 0;
    st->state = STEP_DONE;
    if (r == PYGEN_NEXT) {
        PyObject *value = unbox(*out);
        if (st->op == OP_CLOSE) {
            Py_DECREF(value);
            *out = NULL;
            PyErr_SetString(PyExc_RuntimeError, "async generator ignored GeneratorExit");
            return PYGEN_ERROR;
        }
        *out = value;
        return PYGEN_RETURN;
    }
    if (r == PYGEN_RETURN) {
        gen->ag_closed = 1;
        if (st->op == OP_CLOSE) {
            return PYGEN_RETURN; /* *out is None */
        }
        Py_CLEAR(*out);
        PyErr_SetNone(PyExc_StopAsyncIteration);
        return PYGEN_ERROR;
    }
    if (ended_by()) {
        gen->ag_closed = 1;
        if (st->op == OP_CLOSE) {
            PyErr_Clear();
            *out = Py_NewRef(Py_None);
            return PYGEN_RETURN;
        }
    }
    return PYGEN_ERROR;
}

/* The checks before an awaitable first resumes its generator.  1: go on;
   0: finished without running (*out set); -1: error. */
static int
may_start(AsyncGenStep *st, PyObject *sent, PyObject **out)
{
    PyAsyncGenObject *gen = st->gen;
    if (gen->ag_running_async) {
        st->state = STEP_DONE;
        PyErr_Format(PyExc_RuntimeError, "%s(): asynchronous generator is already running",
                     st->op == OP_SEND ? "anext" : op_method(st));
        return -1;
    }
    if (st->op == OP_SEND) {
        return 1;
    }
    if (gen->ag_closed || FRAME_STATE_FINISHED(gen->ag_frame_state)) {
        /* athrow() and aclose() of a finished generator do nothing. */
        st->state = STEP_DONE;
        *out = Py_NewRef(Py_None);
        return 0;
    }
    if (sent != NULL && !Py_IsNone(sent)) {
        PyErr_SetString(PyExc_RuntimeError, "can't send non-None value to a just-started coroutine");
        return -1;
    }
    return 1;
}

/* The exception a fresh athrow()/aclose() raises in the generator (new). */
static PyObject *
exception_to_throw(AsyncGenStep *st)
{
    if (st->op == OP_THROW) {
        return Py_NewRef(st->payload);
    }
    st->gen->ag_closed = 1;
    return PyObject_CallNoArgs(PyExc_GeneratorExit);
}

/* Resume with `sent` (NULL or None for next()). */
static PySendResult
step_send(AsyncGenStep *st, PyObject *sent, PyObject **out)
{
    *out = NULL;
    if (st->state == STEP_DONE) {
        reuse_error(st);
        return PYGEN_ERROR;
    }
    PyObject *exc = NULL;
    if (st->state == STEP_FRESH) {
        int go = may_start(st, sent, out);
        if (go <= 0) {
            return go == 0 ? PYGEN_RETURN : PYGEN_ERROR;
        }
        if (st->op == OP_SEND) {
            if (sent == NULL || Py_IsNone(sent)) {
                sent = st->payload;
            }
        }
        else {
            exc = exception_to_throw(st);
            if (exc == NULL) {
                return PYGEN_ERROR;
            }
        }
        st->state = STEP_RUNNING;
    }
    st->gen->ag_running_async = 1;
    PySendResult r = resume_generator(st->gen, sent ? sent : Py_None, exc, out);
    Py_XDECREF(exc);
    return settle(st, r, out);
}

/* Raise `exc` (borrowed) in the generator. */
static PySendResult
step_throw(AsyncGenStep *st, PyObject *exc, PyObject **out)
{
    *out = NULL;
    if (st->state == STEP_DONE) {
        reuse_error(st);
        return PYGEN_ERROR;
    }
    if (st->state == STEP_FRESH) {
        int go = may_start(st, NULL, out);
        if (go <= 0) {
            return go == 0 ? PYGEN_RETURN : PYGEN_ERROR;
        }
        st->state = STEP_RUNNING;
    }
    st->gen->ag_running_async = 1;
    PySendResult r = resume_generator(st->gen, NULL, exc, out);
    return settle(st, r, out);
}

/* The iterator protocol's view of a step: a result is StopIteration. */
static PyObject *
as_iteration(PySendResult r, PyObject *out)
{
    if (r == PYGEN_RETURN) {
        _PyGen_SetStopIterationValue(out);
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

static PySendResult
step_am_send(PyObject *self, PyObject *arg, PyObject **out)
{
    return step_send((AsyncGenStep *)self, arg, out);
}

static PyObject *
step_iternext(PyObject *self)
{
    PyObject *out;
    PySendResult r = step_send((AsyncGenStep *)self, NULL, &out);
    return as_iteration(r, out);
}

static PyObject *
step_send_method(PyObject *self, PyObject *arg)
{
    PyObject *out;
    PySendResult r = step_send((AsyncGenStep *)self, arg, &out);
    return as_iteration(r, out);
}

static PyObject *
step_throw_method(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("throw", nargs, 1, 3) ||
        _PyGen_WarnThrowSignature("throw", nargs) < 0) {
        return NULL;
    }
    int instantiation_failed;
    PyObject *exc = _PyGen_NormalizeThrown(args, nargs, &instantiation_failed);
    if (exc == NULL) {
        return NULL;
    }
    PyObject *out;
    PySendResult r = step_throw((AsyncGenStep *)self, exc, &out);
    Py_DECREF(exc);
    return as_iteration(r, out);
}

/* close(): an awaitable abandoned mid-way closes the generator. */
static PyObject *
step_close_method(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    AsyncGenStep *st = (AsyncGenStep *)self;
    if (st->state == STEP_DONE) {
        Py_RETURN_NONE;
    }
    PyObject *exit = PyObject_CallNoArgs(PyExc_GeneratorExit);
    if (exit == NULL) {
        return NULL;
    }
    PyObject *out;
    PySendResult r = step_throw(st, exit, &out);
    Py_DECREF(exit);
    st->state = STEP_DONE;
    if (r == PYGEN_NEXT) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_RuntimeError, "coroutine ignored GeneratorExit");
        return NULL;
    }
    if (r == PYGEN_RETURN) {
        Py_DECREF(out);
        Py_RETURN_NONE;
    }
    if (PyErr_ExceptionMatches(PyExc_StopIteration) || ended_by()) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    return NULL;
}

/* tp_finalize: the warning names the awaitable as its source, so it runs
   where the object may be seen (and even kept) by Python code. */
static void
warn_never_awaited(PyObject *self)
{
    AsyncGenStep *st = (AsyncGenStep *)self;
    if (st->state != STEP_FRESH) {
        return;
    }
    PyObject *exc = PyErr_GetRaisedException();
    if (_PyErr_WarnFormatWithSource((PyObject *)st, PyExc_RuntimeWarning, 1,
                                    "coroutine method '%s' of %R was never awaited", op_method(st),
                                    st->gen->ag_qualname) < 0) {
        PyErr_WriteUnraisable((PyObject *)st);
    }
    PyErr_SetRaisedException(exc);
}

static void
step_dealloc(PyObject *self)
{
    AsyncGenStep *st = (AsyncGenStep *)self;
    if (st->state == STEP_FRESH && PyObject_CallFinalizerFromDealloc(self) < 0) {
        return; /* resurrected */
    }
    PyObject_GC_UnTrack(self);
    Py_CLEAR(st->gen);
    Py_CLEAR(st->payload);
    PyObject_GC_Del(self);
}

static int
step_traverse(PyObject *self, visitproc visit, void *arg)
{
    AsyncGenStep *st = (AsyncGenStep *)self;
    Py_VISIT(st->gen);
    Py_VISIT(st->payload);
    return 0;
}

static PyMethodDef step_methods[] = {
    {"send", step_send_method, METH_O,
     "send($self, value, /)\n--\n\nResume the async generator with value."},
    {"throw", _PyCFunction_CAST(step_throw_method), METH_FASTCALL,
     "throw(value)\n--\n\nRaise value inside the async generator."},
    {"close", step_close_method, METH_NOARGS,
     "close($self, /)\n--\n\nAbandon the step, closing the async generator if it started."},
    {NULL},
};

static PyAsyncMethods step_as_async = {
    .am_await = PyObject_SelfIter,
    .am_send = step_am_send,
};

#define STEP_TYPE_BODY                                       \
    .tp_basicsize = sizeof(AsyncGenStep),                    \
    .tp_dealloc = step_dealloc,                              \
    .tp_as_async = &step_as_async,                           \
    .tp_getattro = PyObject_GenericGetAttr,                  \
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,     \
    .tp_traverse = step_traverse,                            \
    .tp_iter = PyObject_SelfIter,                            \
    .tp_iternext = step_iternext,                            \
    .tp_methods = step_methods,                              \
    .tp_finalize = warn_never_awaited

PyTypeObject _PyAsyncGenASend_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "async_generator_asend",
    STEP_TYPE_BODY,
};

PyTypeObject _PyAsyncGenAThrow_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "async_generator_athrow",
    STEP_TYPE_BODY,
};

/* ---- The generator's methods --------------------------------------------------- */

/* The first time anything iterates the generator, the thread's event
   loop hooks learn about it (sys.set_asyncgen_hooks). */
static int
run_first_iteration_hooks(PyAsyncGenObject *gen)
{
    if (gen->ag_hooks_inited) {
        return 0;
    }
    gen->ag_hooks_inited = 1;
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate->async_gen_finalizer != NULL) {
        Py_XSETREF(gen->ag_origin_or_finalizer, Py_NewRef(tstate->async_gen_finalizer));
    }
    if (tstate->async_gen_firstiter == NULL) {
        return 0;
    }
    PyObject *hook = Py_NewRef(tstate->async_gen_firstiter);
    PyObject *res = PyObject_CallOneArg(hook, (PyObject *)gen);
    Py_DECREF(hook);
    if (res == NULL) {
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

static PyObject *
new_step(PyTypeObject *type, PyObject *self, step_op op, PyObject *payload)
{
    PyAsyncGenObject *gen = (PyAsyncGenObject *)self;
    if (run_first_iteration_hooks(gen) < 0) {
        return NULL;
    }
    AsyncGenStep *st = PyObject_GC_New(AsyncGenStep, type);
    if (st == NULL) {
        return NULL;
    }
    st->gen = (PyAsyncGenObject *)Py_NewRef(self);
    st->payload = Py_XNewRef(payload);
    st->op = (uint8_t)op;
    st->state = STEP_FRESH;
    PyObject_GC_Track(st);
    return (PyObject *)st;
}

PyObject *
_PyAsyncGen_ANext(PyObject *self)
{
    return new_step(&_PyAsyncGenASend_Type, self, OP_SEND, Py_None);
}

PyObject *
_PyAsyncGen_ASend(PyObject *self, PyObject *arg)
{
    return new_step(&_PyAsyncGenASend_Type, self, OP_SEND, arg);
}

PyObject *
_PyAsyncGen_AThrow(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (_PyGen_WarnThrowSignature("athrow", nargs) < 0) {
        return NULL;
    }
    int instantiation_failed;
    PyObject *exc = _PyGen_NormalizeThrown(args, nargs, &instantiation_failed);
    if (exc == NULL) {
        return NULL;
    }
    PyObject *st = new_step(&_PyAsyncGenAThrow_Type, self, OP_THROW, exc);
    Py_DECREF(exc);
    return st;
}

PyObject *
_PyAsyncGen_AClose(PyObject *self)
{
    return new_step(&_PyAsyncGenAThrow_Type, self, OP_CLOSE, NULL);
}
