/* Running generators and coroutines: the interpreter's side.

   A generator owns its interpreter frame (gi_iframe, embedded in the
   object).  RETURN_GENERATOR moves the function's fresh frame into a new
   generator and returns the generator; send() pushes the sent value on
   that frame's stack and runs it; YIELD_VALUE suspends it and hands the
   value back.  While the frame runs, tstate->exc_info points at the
   generator's own handled-exception item, so `sys.exception()` inside and
   outside the generator stay separate. */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_frame.h"
#include "pycore_genobject.h"
#include "pycore_object.h"
#include "pycore_pystate.h"

/* Move a frame that has just started into `gen`.  The frame's contents
   (references included) now belong to the generator. */
PyObject *
_PyEval_MoveFrameToGenerator(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PyFunctionObject *func = (PyFunctionObject *)PyStackRef_AsPyObjectBorrow(frame->f_funcobj);
    PyGenObject *gen = _PyGen_NewForFunction(func);
    if (gen == NULL) {
        return NULL;
    }
    _PyInterpreterFrame *gen_frame = &gen->gi_iframe;
    Py_ssize_t used = frame->stackpointer - frame->localsplus;
    size_t size = offsetof(_PyInterpreterFrame, localsplus) + (size_t)used * sizeof(_PyStackRef);
    memcpy(gen_frame, frame, size);
    gen_frame->stackpointer = gen_frame->localsplus + used;
    gen_frame->previous = NULL;
    gen_frame->owner = FRAME_OWNED_BY_GENERATOR;
    if (gen_frame->frame_obj != NULL) {
        gen_frame->frame_obj->f_frame = gen_frame;
    }
    gen->gi_frame_state = FRAME_CREATED;
    int depth = tstate->coroutine_origin_tracking_depth;
    if (depth > 0 && PyCoro_CheckExact(gen) &&
        _PyCoro_RecordOrigin(gen, frame->previous, depth) < 0) {
        Py_DECREF(gen);
        return NULL;
    }
    return (PyObject *)gen;
}

/* Called by _PyEval_FrameClearAndPop when a generator's frame returns or
   raises: the generator is finished. */
void
_PyEval_ClearGeneratorFrame(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    PyGenObject *gen = _PyGen_GetGeneratorFromFrame(frame);
    _PyGen_LeaveExcState(tstate, gen);
    _PyGen_ClearFrame(gen); /* finished: straight to FRAME_CLEARED */
}

static const char *
gen_kind(PyGenObject *gen)
{
    if (PyCoro_CheckExact(gen)) {
        return "coroutine";
    }
    if (PyAsyncGen_CheckExact(gen)) {
        return "async generator";
    }
    return "generator";
}

/* Resume the frame with `arg` pushed (or, with exc, raising the current
   exception at the suspension point). */
static PySendResult
resume(PyThreadState *tstate, PyGenObject *gen, PyObject *arg, int exc, PyObject **presult)
{
    /* The value YIELD_VALUE leaves: also pushed (None) when throwing, as
       the handler of a `yield from` (CLEANUP_THROW) expects it there. */
    _PyInterpreterFrame *frame = _PyGen_EnterFrameInline(
        tstate, gen, PyStackRef_FromPyObjectNew(arg ? arg : Py_None));
    if (exc) {
        /* Thrown in while handling an exception of its own: as if raised
           there. */
        _PyErr_ChainContext(tstate->current_exception, gen->gi_exc_state.exc_value);
    }
    PyObject *result = _PyEval_EvalFrameDefault(tstate, frame, exc);
    if (result == NULL) {
        *presult = NULL;
        return PYGEN_ERROR;
    }
    *presult = result;
    return FRAME_STATE_SUSPENDED(gen->gi_frame_state) ? PYGEN_NEXT : PYGEN_RETURN;
}

/* State checks shared by send and throw: -1 with an exception set, 1 when
   the generator is finished (the caller decides what that means), 0 ok. */
static int
check_runnable(PyThreadState *tstate, PyGenObject *gen)
{
    if (gen->gi_frame_state == FRAME_EXECUTING) {
        _PyErr_Format(tstate, PyExc_ValueError, "%s already executing", gen_kind(gen));
        return -1;
    }
    if (FRAME_STATE_FINISHED(gen->gi_frame_state)) {
        return 1;
    }
    return 0;
}

PySendResult
_PyGen_Send(PyGenObject *gen, PyObject *arg, PyObject **presult)
{
    PyThreadState *tstate = _PyThreadState_GET();
    int r = check_runnable(tstate, gen);
    if (r < 0) {
        *presult = NULL;
        return PYGEN_ERROR;
    }
    if (r > 0) {
        if (PyCoro_CheckExact(gen)) {
            _PyErr_SetString(tstate, PyExc_RuntimeError, "cannot reuse already awaited coroutine");
            *presult = NULL;
            return PYGEN_ERROR;
        }
        *presult = Py_NewRef(Py_None);
        return PYGEN_RETURN;
    }
    if (gen->gi_frame_state == FRAME_CREATED && arg != NULL && !Py_IsNone(arg)) {
        _PyErr_Format(tstate, PyExc_TypeError, "can't send non-None value to a just-started %s",
                      gen_kind(gen));
        *presult = NULL;
        return PYGEN_ERROR;
    }
    return resume(tstate, gen, arg, 0, presult);
}

/* Raise `exc` inside the generator and run it to the next yield. */
static PyObject *
throw_here(PyThreadState *tstate, PyGenObject *gen, PyObject *exc)
{
    if (gen->gi_frame_state == FRAME_CREATED) {
        /* Never started: the exception is raised as if at the first line,
           and the generator is finished. */
        gen->gi_frame_state = FRAME_COMPLETED;
        _PyGen_ClearFrame(gen);
        _PyErr_SetRaisedException(tstate, Py_NewRef(exc));
        return NULL;
    }
    _PyErr_SetRaisedException(tstate, Py_NewRef(exc));
    PyObject *result;
    PySendResult r = resume(tstate, gen, NULL, 1, &result);
    if (r == PYGEN_RETURN) {
        /* Returned instead of yielding: that is StopIteration(value). */
        _PyGen_SetStopIterationValue(result);
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

/* gen.close() on the iterator a `yield from` delegates to: NULL with an
   error set, else a new reference to whatever close() returned. */
static PyObject *
close_delegate(PyObject *yf)
{
    if (_PyGen_AnyCheck(yf)) {
        return _PyGen_Close((PyGenObject *)yf);
    }
    PyObject *meth = NULL;
    if (PyObject_GetOptionalAttrString(yf, "close", &meth) < 0) {
        /* A delegate whose close cannot even be looked up must not stop
           the generator from closing: report it and go on. */
        PyErr_WriteUnraisable(yf);
    }
    if (meth == NULL) {
        Py_RETURN_NONE;
    }
    PyObject *res = PyObject_CallNoArgs(meth);
    Py_DECREF(meth);
    return res;
}

/* gen.throw(exc) on the delegate: its next value, or NULL with an error
   (StopIteration when it finished).  *no_throw is set, with no error, for
   a delegate that has no throw() method. */
static PyObject *
throw_into_delegate(PyObject *yf, PyObject *exc, int *no_throw)
{
    if (_PyGen_AnyCheck(yf)) {
        return _PyGen_Throw((PyGenObject *)yf, exc);
    }
    PyObject *meth = NULL;
    if (PyObject_GetOptionalAttrString(yf, "throw", &meth) < 0) {
        return NULL;
    }
    if (meth == NULL) {
        *no_throw = 1;
        return NULL;
    }
    PyObject *res = PyObject_CallOneArg(meth, exc);
    Py_DECREF(meth);
    return res;
}

/* Raise the error set now (StopIteration if there is none) at gen's
   suspension point. */
static PyObject *
throw_current_error_here(PyThreadState *tstate, PyGenObject *gen)
{
    if (!_PyErr_Occurred(tstate)) {
        PyErr_SetNone(PyExc_StopIteration);
    }
    PyObject *err = _PyErr_GetRaisedException(tstate);
    PyObject *res = throw_here(tstate, gen, err);
    Py_DECREF(err);
    return res;
}

PyObject *
_PyGen_Throw(PyGenObject *gen, PyObject *exc)
{
    PyThreadState *tstate = _PyThreadState_GET();
    int r = check_runnable(tstate, gen);
    if (r < 0) {
        return NULL;
    }
    if (r > 0) {
        if (PyCoro_CheckExact(gen)) {
            _PyErr_SetString(tstate, PyExc_RuntimeError, "cannot reuse already awaited coroutine");
            return NULL;
        }
        _PyErr_SetRaisedException(tstate, Py_NewRef(exc));
        return NULL;
    }
    PyObject *yf = gen->gi_frame_state == FRAME_SUSPENDED_YIELD_FROM ? _PyGen_yf(gen) : NULL;
    if (yf == NULL) {
        return throw_here(tstate, gen, exc);
    }
    /* The delegate goes first.  Meanwhile gen counts as running, and its
       frame is on the thread's frame chain as when SEND resumes the
       delegate, so stack walks from inside see it. */
    int closing = PyErr_GivenExceptionMatches(exc, PyExc_GeneratorExit);
    int no_throw = 0;
    int8_t saved = gen->gi_frame_state;
    gen->gi_frame_state = FRAME_EXECUTING;
    gen->gi_iframe.previous = tstate->current_frame;
    tstate->current_frame = &gen->gi_iframe;
    PyObject *ret = closing ? close_delegate(yf) : throw_into_delegate(yf, exc, &no_throw);
    tstate->current_frame = gen->gi_iframe.previous;
    gen->gi_iframe.previous = NULL;
    gen->gi_frame_state = saved;
    Py_DECREF(yf);
    if (closing && ret != NULL) {
        /* The delegate closed quietly: now close gen itself. */
        Py_DECREF(ret);
        return throw_here(tstate, gen, exc);
    }
    if (no_throw) {
        return throw_here(tstate, gen, exc);
    }
    if (ret != NULL) {
        return ret;
    }
    /* The delegate failed or finished: its exception is raised at the
       `yield from`, whose handler (CLEANUP_THROW) turns a StopIteration
       into the value of the expression. */
    return throw_current_error_here(tstate, gen);
}

PyObject *
_PyGen_Close(PyGenObject *gen)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (gen->gi_frame_state == FRAME_CREATED) {
        gen->gi_frame_state = FRAME_COMPLETED;
        _PyGen_ClearFrame(gen);
        Py_RETURN_NONE;
    }
    if (FRAME_STATE_FINISHED(gen->gi_frame_state)) {
        Py_RETURN_NONE;
    }
    PyObject *exit = PyObject_CallNoArgs(PyExc_GeneratorExit);
    if (exit == NULL) {
        return NULL;
    }
    PyObject *yielded = _PyGen_Throw(gen, exit);
    Py_DECREF(exit);
    if (yielded != NULL) {
        Py_DECREF(yielded);
        _PyErr_Format(tstate, PyExc_RuntimeError, "%s ignored GeneratorExit", gen_kind(gen));
        return NULL;
    }
    if (_PyErr_ExceptionMatches(tstate, PyExc_GeneratorExit)) {
        _PyErr_Clear(tstate);
        Py_RETURN_NONE;
    }
    if (_PyErr_ExceptionMatches(tstate, PyExc_StopIteration)) {
        PyObject *value;
        if (_PyGen_FetchStopIterationValue(&value) < 0) {
            return NULL;
        }
        return value;
    }
    return NULL;
}

/* SEND's slow path: advance `receiver` with `value`.  Generators and
   coroutines are resumed directly, types with am_send (async generator
   steps) through it; other iterators get next() for None and .send(value)
   otherwise. */
PySendResult
_PyEval_SendTo(PyThreadState *tstate, PyObject *receiver, PyObject *value, PyObject **result)
{
    if (_PyGen_AnyCheck(receiver)) {
        return _PyGen_Send((PyGenObject *)receiver, value, result);
    }
    PyAsyncMethods *am = Py_TYPE(receiver)->tp_as_async;
    if (am != NULL && am->am_send != NULL) {
        return am->am_send(receiver, value, result);
    }
    if (Py_IsNone(value) && Py_TYPE(receiver)->tp_iternext != NULL) {
        *result = Py_TYPE(receiver)->tp_iternext(receiver);
    }
    else {
        PyObject *name = PyUnicode_InternFromString("send");
        *result = name != NULL ? PyObject_CallMethodOneArg(receiver, name, value) : NULL;
        Py_XDECREF(name);
    }
    if (*result != NULL) {
        return PYGEN_NEXT;
    }
    if (_PyErr_ExceptionMatches(tstate, PyExc_StopIteration) || !_PyErr_Occurred(tstate)) {
        if (_PyGen_FetchStopIterationValue(result) == 0) {
            return PYGEN_RETURN;
        }
    }
    return PYGEN_ERROR;
}

/* The error of sending a value into `yield from seq` for a sequence
   iterated virtually: what its real iterator would raise. */
void
_PyEval_RefuseSendToSequence(PyThreadState *tstate, PyObject *seq)
{
    PyObject *it = PyObject_GetIter(seq);
    if (it == NULL) {
        return;
    }
    _PyErr_Format(tstate, PyExc_AttributeError, "'%.100s' object has no attribute 'send'",
                  Py_TYPE(it)->tp_name);
    Py_DECREF(it);
}

/* GET_AWAITABLE: the iterator `await obj` drives. */
PyObject *
_PyEval_GetAwaitable(PyThreadState *tstate, PyObject *obj, int oparg)
{
    if (PyCoro_CheckExact(obj)) {
        PyGenObject *coro = (PyGenObject *)obj;
        PyObject *yf = coro->gi_frame_state == FRAME_SUSPENDED_YIELD_FROM ? _PyGen_yf(coro) : NULL;
        if (yf != NULL) {
            Py_DECREF(yf);
            _PyErr_SetString(tstate, PyExc_RuntimeError, "coroutine is being awaited already");
            return NULL;
        }
        return Py_NewRef(obj);
    }
    if (PyGen_CheckExact(obj) &&
        (_PyGen_GetCode((PyGenObject *)obj)->co_flags & CO_ITERABLE_COROUTINE)) {
        return Py_NewRef(obj);
    }
    unaryfunc getter = NULL;
    if (Py_TYPE(obj)->tp_as_async != NULL) {
        getter = Py_TYPE(obj)->tp_as_async->am_await;
    }
    if (getter == NULL) {
        if (oparg == 1 || oparg == 2) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "'async with' received an object from %s that does not implement "
                          "__await__: %.100s",
                          oparg == 1 ? "__aenter__" : "__aexit__", Py_TYPE(obj)->tp_name);
        }
        else {
            _PyErr_Format(tstate, PyExc_TypeError, "object %.100s can't be used in 'await' expression",
                          Py_TYPE(obj)->tp_name);
        }
        return NULL;
    }
    PyObject *res = getter(obj);
    if (res == NULL) {
        return NULL;
    }
    if (PyCoro_CheckExact(res) || !PyIter_Check(res)) {
        if (PyCoro_CheckExact(res)) {
            _PyErr_SetString(tstate, PyExc_TypeError, "__await__() returned a coroutine");
        }
        else {
            _PyErr_Format(tstate, PyExc_TypeError, "__await__() returned non-iterator of type '%.100s'",
                          Py_TYPE(res)->tp_name);
        }
        Py_DECREF(res);
        return NULL;
    }
    return res;
}

PyObject *
_PyEval_GetAIter(PyThreadState *tstate, PyObject *obj)
{
    PyAsyncMethods *am = Py_TYPE(obj)->tp_as_async;
    if (am == NULL || am->am_aiter == NULL) {
        _PyErr_Format(tstate, PyExc_TypeError,
                      "'async for' requires an object with __aiter__ method, got %.100s",
                      Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyObject *aiter = am->am_aiter(obj);
    if (aiter == NULL) {
        return NULL;
    }
    am = Py_TYPE(aiter)->tp_as_async;
    if (am == NULL || am->am_anext == NULL) {
        _PyErr_Format(tstate, PyExc_TypeError,
                      "'async for' received an object from __aiter__ "
                      "that does not implement __anext__: %.100s",
                      Py_TYPE(aiter)->tp_name);
        Py_DECREF(aiter);
        return NULL;
    }
    return aiter;
}

PyObject *
_PyEval_GetANext(PyThreadState *tstate, PyObject *aiter)
{
    if (PyAsyncGen_CheckExact(aiter)) {
        /* Its asend step is already the iterator. */
        return _PyAsyncGen_ANext(aiter);
    }
    PyAsyncMethods *am = Py_TYPE(aiter)->tp_as_async;
    if (am == NULL || am->am_anext == NULL) {
        _PyErr_Format(tstate, PyExc_TypeError,
                      "'async for' requires an iterator with __anext__ method, got %.100s",
                      Py_TYPE(aiter)->tp_name);
        return NULL;
    }
    PyObject *next = am->am_anext(aiter);
    if (next == NULL) {
        return NULL;
    }
    PyObject *iter = _PyEval_GetAwaitable(tstate, next, 0);
    if (iter == NULL) {
        _PyErr_FormatFromCause(PyExc_TypeError,
                               "'async for' received an invalid object from __anext__: %.100s",
                               Py_TYPE(next)->tp_name);
    }
    Py_DECREF(next);
    return iter;
}
