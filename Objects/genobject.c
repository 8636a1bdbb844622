/* Generator, coroutine and async generator objects: the object side.

   The three types share one layout (pycore_genobject.h): a header and the
   generator's own interpreter frame at the end.  This file holds creation,
   attributes, the Python-level methods' argument handling and the
   lifetime; resuming the frame (send, throw, close) belongs with the
   interpreter (Python/ceval_gen.c), behind the hooks declared in
   pycore_genobject.h. */

#include "Python.h"
#include "pycore_frame.h"
#include "pycore_import.h"
#include "pycore_genobject.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_typeobject.h"

/* ---- Finalization ---------------------------------------------------------------- */

/* warnings._warn_unawaited_coroutine(coro) when the module is loaded and
   working (it can show cr_origin): 1 done, 0 not available, -1 it failed. */
static int
warn_through_module(PyGenObject *coro)
{
    PyObject *warnings = _PyImport_GetModuleIfLoaded("warnings");
    PyObject *formatter = NULL;
    if (warnings != NULL) {
        (void)PyObject_GetOptionalAttrString(warnings, "_warn_unawaited_coroutine", &formatter);
        Py_DECREF(warnings);
    }
    if (formatter == NULL || !PyCallable_Check(formatter)) {
        PyErr_Clear();
        Py_XDECREF(formatter);
        return 0;
    }
    PyObject *res = PyObject_CallOneArg(formatter, (PyObject *)coro);
    Py_DECREF(formatter);
    Py_XDECREF(res);
    return res != NULL ? 1 : -1;
}

/* A broken formatter is reported, and the plain warning still goes out. */
static void
warn_unawaited(PyGenObject *coro)
{
    int done = warn_through_module(coro);
    if (done > 0) {
        return;
    }
    if (done < 0) {
        PyErr_WriteUnraisable((PyObject *)coro);
    }
    if (PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "coroutine '%S' was never awaited",
                         coro->gi_qualname) < 0) {
        PyErr_WriteUnraisable((PyObject *)coro);
    }
}

/* tp_finalize: a generator dying while paused is closed, so that its
   finally blocks and context managers run; an async generator is handed
   to its finalizer (the event loop's hook); a coroutine that never ran
   gets a RuntimeWarning instead. */
void
_PyGen_Finalize(PyObject *self)
{
    PyGenObject *gen = (PyGenObject *)self;
    if (gen->gi_frame_state >= FRAME_COMPLETED) {
        return;
    }
    PyObject *exc = PyErr_GetRaisedException();
    if (PyAsyncGen_CheckExact(self)) {
        PyObject *finalizer = gen->gi_origin_or_finalizer;
        if (finalizer != NULL && !gen->gi_closed) {
            PyObject *res = PyObject_CallOneArg(finalizer, self);
            if (res == NULL) {
                PyErr_WriteUnraisable(self);
            }
            Py_XDECREF(res);
            PyErr_SetRaisedException(exc);
            return;
        }
    }
    PyCodeObject *code = _PyGen_GetCode(gen);
    if (code != NULL && (code->co_flags & CO_COROUTINE) && gen->gi_frame_state == FRAME_CREATED) {
        warn_unawaited(gen);
    }
    else {
        PyObject *res = _PyGen_Close(gen);
        if (res == NULL) {
            if (PyErr_Occurred()) {
                PyErr_WriteUnraisable(self);
            }
        }
        Py_XDECREF(res);
    }
    PyErr_SetRaisedException(exc);
}

/* ---- Creation ------------------------------------------------------------------- */

PyGenObject *
_PyGen_NewForFunction(PyFunctionObject *func)
{
    PyCodeObject *code = (PyCodeObject *)func->func_code;
    PyTypeObject *type = &PyGen_Type;
    if (code->co_flags & CO_COROUTINE) {
        type = &PyCoro_Type;
    }
    else if (code->co_flags & CO_ASYNC_GENERATOR) {
        type = &PyAsyncGen_Type;
    }
    Py_ssize_t slots = (Py_ssize_t)code->co_nlocalsplus + code->co_stacksize;
    PyGenObject *gen = PyObject_GC_NewVar(PyGenObject, type, slots);
    if (gen == NULL) {
        return NULL;
    }
    gen->gi_weakreflist = NULL;
    gen->gi_name = Py_NewRef(func->func_name);
    gen->gi_qualname = Py_NewRef(func->func_qualname);
    gen->gi_exc_state.exc_value = NULL;
    gen->gi_exc_state.previous_item = NULL;
    gen->gi_origin_or_finalizer = NULL;
    gen->gi_hooks_inited = 0;
    gen->gi_closed = 0;
    gen->gi_running_async = 0;
    gen->gi_frame_state = FRAME_CLEARED;
    _PyInterpreterFrame *frame = &gen->gi_iframe;
    frame->f_executable = PyStackRef_NULL;
    frame->f_funcobj = PyStackRef_NULL;
    frame->previous = NULL;
    frame->f_globals = NULL;
    frame->f_builtins = NULL;
    frame->f_locals = NULL;
    frame->frame_obj = NULL;
    frame->instr_ptr = NULL;
    frame->stackpointer = frame->localsplus;
    frame->return_offset = 0;
    frame->owner = FRAME_OWNED_BY_GENERATOR;
    frame->visited = 0;
    PyObject_GC_Track(gen);
    return gen;
}

/* cr_origin: (filename, line, function name) of up to `depth` callers,
   innermost first, or NULL with an exception set. */
static PyObject *
origin_of(_PyInterpreterFrame *caller, int depth)
{
    PyObject *entries = PyList_New(0);
    if (entries == NULL) {
        return NULL;
    }
    for (_PyInterpreterFrame *f = _PyFrame_GetFirstComplete(caller);
         f != NULL && PyList_GET_SIZE(entries) < depth;
         f = _PyFrame_GetFirstComplete(f->previous)) {
        PyCodeObject *code = _PyFrame_GetCode(f);
        PyObject *entry = Py_BuildValue("OiO", code->co_filename,
                                        PyUnstable_InterpreterFrame_GetLine(f), code->co_name);
        if (entry == NULL || PyList_Append(entries, entry) < 0) {
            Py_XDECREF(entry);
            Py_DECREF(entries);
            return NULL;
        }
        Py_DECREF(entry);
    }
    PyObject *origin = PyList_AsTuple(entries);
    Py_DECREF(entries);
    return origin;
}

int
_PyCoro_RecordOrigin(PyGenObject *coro, _PyInterpreterFrame *caller, int depth)
{
    PyObject *origin = origin_of(caller, depth);
    if (origin == NULL) {
        return -1;
    }
    Py_XSETREF(coro->gi_origin_or_finalizer, origin);
    return 0;
}

void
_PyGen_ClearFrame(PyGenObject *gen)
{
    int8_t was = gen->gi_frame_state;
    gen->gi_frame_state = FRAME_CLEARED;
    if (was != FRAME_CLEARED) {
        Py_CLEAR(gen->gi_exc_state.exc_value);
        gen->gi_iframe.previous = NULL;
        _PyFrame_ClearExceptCode(&gen->gi_iframe);
    }
}

PyObject *
_PyGen_yf(PyGenObject *gen)
{
    if (gen->gi_frame_state != FRAME_SUSPENDED_YIELD_FROM) {
        return NULL;
    }
    _PyInterpreterFrame *frame = &gen->gi_iframe;
    if (frame->stackpointer <= _PyFrame_Stackbase(frame)) {
        return NULL;
    }
    _PyStackRef top = frame->stackpointer[-1];
    if (PyStackRef_IsNull(top) || PyStackRef_IsTaggedInt(top)) {
        /* A virtual iterator (sequence, index) pair: the sequence is below. */
        if (frame->stackpointer - 2 < _PyFrame_Stackbase(frame)) {
            return NULL;
        }
        top = frame->stackpointer[-2];
        if (PyStackRef_IsNull(top) || PyStackRef_IsTaggedInt(top)) {
            return NULL;
        }
    }
    return PyStackRef_AsPyObjectNew(top);
}

int
_PyGen_SetStopIterationValue(PyObject *value)
{
    if (value == Py_None) {
        PyErr_SetNone(PyExc_StopIteration);
        return 0;
    }
    /* StopIteration(value) rather than PyErr_SetObject(StopIteration,
       value): a tuple or exception value must not be taken as the
       exception's arguments or as the exception itself. */
    PyObject *exc = PyObject_CallOneArg(PyExc_StopIteration, value);
    if (exc == NULL) {
        return -1;
    }
    PyErr_SetObject(PyExc_StopIteration, exc);
    Py_DECREF(exc);
    return 0;
}

int
_PyGen_FetchStopIterationValue(PyObject **pvalue)
{
    PyObject *stop = NULL;
    PyObject *value = Py_None;
    if (PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_StopIteration)) {
            return -1;
        }
        stop = PyErr_GetRaisedException();
        PyObject *carried = ((PyStopIterationObject *)stop)->value;
        if (carried != NULL) {
            value = carried;
        }
    }
    *pvalue = Py_NewRef(value);
    Py_XDECREF(stop);
    return 0;
}

/* ---- Python-level protocol --------------------------------------------------------- */

static PyObject *
gen_iternext(PyObject *self)
{
    PyObject *result;
    PySendResult r = _PyGen_Send((PyGenObject *)self, Py_None, &result);
    if (r == PYGEN_RETURN) {
        if (result != Py_None) {
            _PyGen_SetStopIterationValue(result);
        }
        Py_DECREF(result);
        return NULL;
    }
    return r == PYGEN_NEXT ? result : NULL;
}

static PySendResult
gen_am_send(PyObject *self, PyObject *arg, PyObject **presult)
{
    return _PyGen_Send((PyGenObject *)self, arg, presult);
}

static PyObject *
gen_send(PyObject *self, PyObject *arg)
{
    PyObject *result;
    PySendResult r = _PyGen_Send((PyGenObject *)self, arg, &result);
    if (r == PYGEN_RETURN) {
        if (PyAsyncGen_CheckExact(self)) {
            PyErr_SetNone(PyExc_StopAsyncIteration);
        }
        else {
            _PyGen_SetStopIterationValue(result);
        }
        Py_DECREF(result);
        return NULL;
    }
    return r == PYGEN_NEXT ? result : NULL;
}

/* throw(value), or the deprecated throw(type[, value[, traceback]]):
   normalised here to one exception instance carrying its traceback. */
/* throw(cls[, value]): cls called the way `raise` would call it. */
static PyObject *
instantiate_thrown(PyObject *cls, PyObject *val)
{
    if (val != NULL && PyObject_TypeCheck(val, (PyTypeObject *)cls)) {
        return Py_NewRef(val);
    }
    PyObject *exc = val == NULL || Py_IsNone(val) ? PyObject_CallNoArgs(cls)
                    : PyTuple_Check(val)           ? PyObject_Call(cls, val, NULL)
                                                   : PyObject_CallOneArg(cls, val);
    if (exc != NULL && !PyExceptionInstance_Check(exc)) {
        PyErr_Format(PyExc_TypeError,
                     "calling %R should have returned an instance of BaseException, not %s", cls,
                     Py_TYPE(exc)->tp_name);
        Py_CLEAR(exc);
    }
    return exc;
}

PyObject *
_PyGen_NormalizeThrown(PyObject *const *args, Py_ssize_t nargs, int *instantiation_failed)
{
    PyObject *typ = args[0];
    PyObject *val = nargs > 1 ? args[1] : NULL;
    PyObject *tb = nargs > 2 ? args[2] : NULL;
    *instantiation_failed = 0;
    if (tb == Py_None) {
        tb = NULL;
    }
    else if (tb != NULL && !PyTraceBack_Check(tb)) {
        PyErr_SetString(PyExc_TypeError, "throw() third argument must be a traceback object");
        return NULL;
    }
    PyObject *exc;
    if (PyExceptionClass_Check(typ)) {
        exc = instantiate_thrown(typ, val);
        if (exc == NULL) {
            *instantiation_failed = 1;
            return NULL;
        }
    }
    else if (PyExceptionInstance_Check(typ)) {
        if (val != NULL && val != Py_None) {
            PyErr_SetString(PyExc_TypeError, "instance exception may not have a separate value");
            return NULL;
        }
        exc = Py_NewRef(typ);
    }
    else {
        PyErr_Format(PyExc_TypeError,
                     "exceptions must be classes or instances deriving from BaseException, not %s",
                     Py_TYPE(typ)->tp_name);
        return NULL;
    }
    if (tb != NULL && PyException_SetTraceback(exc, tb) < 0) {
        Py_DECREF(exc);
        return NULL;
    }
    return exc;
}

int
_PyGen_WarnThrowSignature(const char *method, Py_ssize_t nargs)
{
    if (nargs < 2) {
        return 0;
    }
    return PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                            "the (type, exc, tb) signature of %s() is deprecated, use the "
                            "single-arg signature instead.",
                            method);
}

static PyObject *
gen_throw(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("throw", nargs, 1, 3)) {
        return NULL;
    }
    if (_PyGen_WarnThrowSignature("throw", nargs) < 0) {
        return NULL;
    }
    int instantiation_failed;
    PyObject *exc = _PyGen_NormalizeThrown(args, nargs, &instantiation_failed);
    if (exc == NULL) {
        if (!instantiation_failed) {
            return NULL;
        }
        /* As if `raise cls` had failed inside: the generator sees that
           error. */
        exc = PyErr_GetRaisedException();
    }
    PyObject *res = _PyGen_Throw((PyGenObject *)self, exc);
    Py_DECREF(exc);
    return res;
}

static PyObject *
gen_close(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return _PyGen_Close((PyGenObject *)self);
}

/* ---- Attributes ----------------------------------------------------------------- */

/* __name__ and __qualname__: the getset closure is the attribute name;
   both are str slots of the header. */
static PyObject **
name_slot(PyObject *self, void *closure)
{
    PyGenObject *gen = (PyGenObject *)self;
    return strcmp((const char *)closure, "__name__") == 0 ? &gen->gi_name : &gen->gi_qualname;
}

static PyObject *
gen_get_name_attr(PyObject *self, void *closure)
{
    return Py_NewRef(*name_slot(self, closure));
}

static int
gen_set_name_attr(PyObject *self, PyObject *value, void *closure)
{
    if (value != NULL && PyUnicode_Check(value)) {
        Py_SETREF(*name_slot(self, closure), Py_NewRef(value));
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s must be set to a string object", (const char *)closure);
    return -1;
}

static PyObject *
gen_get_yieldfrom(PyObject *self, void *closure)
{
    PyObject *yf = _PyGen_yf((PyGenObject *)self);
    return yf != NULL ? yf : Py_NewRef(Py_None);
}

static PyObject *
gen_get_running(PyObject *self, void *closure)
{
    return PyBool_FromLong(((PyGenObject *)self)->gi_frame_state == FRAME_EXECUTING);
}

static PyObject *
gen_get_suspended(PyObject *self, void *closure)
{
    return PyBool_FromLong(FRAME_STATE_SUSPENDED(((PyGenObject *)self)->gi_frame_state));
}

static PyObject *
gen_get_frame(PyObject *self, void *closure)
{
    PyGenObject *gen = (PyGenObject *)self;
    if (gen->gi_frame_state == FRAME_CLEARED) {
        Py_RETURN_NONE;
    }
    PyFrameObject *f = _PyFrame_GetFrameObject(&gen->gi_iframe);
    return Py_XNewRef((PyObject *)f);
}

static PyObject *
gen_get_code(PyObject *self, void *closure)
{
    PyCodeObject *code = _PyGen_GetCode((PyGenObject *)self);
    return Py_NewRef(code != NULL ? (PyObject *)code : Py_None);
}

static PyObject *
coro_get_origin(PyObject *self, void *closure)
{
    PyObject *origin = ((PyCoroObject *)self)->cr_origin_or_finalizer;
    return Py_NewRef(origin != NULL ? origin : Py_None);
}

static PyObject *
ag_get_running(PyObject *self, void *closure)
{
    return PyBool_FromLong(((PyAsyncGenObject *)self)->ag_running_async);
}

static PyGetSetDef gen_getsetlist[] = {
    {"__name__", gen_get_name_attr, gen_set_name_attr, NULL, "__name__"},
    {"__qualname__", gen_get_name_attr, gen_set_name_attr, NULL, "__qualname__"},
    {"gi_yieldfrom", gen_get_yieldfrom, NULL, "the iterator a suspended yield from passes values to, or None"},
    {"gi_running", gen_get_running, NULL, NULL, NULL},
    {"gi_frame", gen_get_frame, NULL, NULL, NULL},
    {"gi_suspended", gen_get_suspended, NULL, NULL, NULL},
    {"gi_code", gen_get_code, NULL, NULL, NULL},
    {NULL},
};

static PyGetSetDef coro_getsetlist[] = {
    {"__name__", gen_get_name_attr, gen_set_name_attr, NULL, "__name__"},
    {"__qualname__", gen_get_name_attr, gen_set_name_attr, NULL, "__qualname__"},
    {"cr_await", gen_get_yieldfrom, NULL, "object being awaited on, or None"},
    {"cr_running", gen_get_running, NULL, NULL, NULL},
    {"cr_frame", gen_get_frame, NULL, NULL, NULL},
    {"cr_code", gen_get_code, NULL, NULL, NULL},
    {"cr_suspended", gen_get_suspended, NULL, NULL, NULL},
    {"cr_origin", coro_get_origin, NULL, NULL, NULL},
    {NULL},
};

static PyGetSetDef ag_getsetlist[] = {
    {"__name__", gen_get_name_attr, gen_set_name_attr, NULL, "__name__"},
    {"__qualname__", gen_get_name_attr, gen_set_name_attr, NULL, "__qualname__"},
    {"ag_await", gen_get_yieldfrom, NULL, "object being awaited on, or None"},
    {"ag_running", ag_get_running, NULL, NULL, NULL},
    {"ag_frame", gen_get_frame, NULL, NULL, NULL},
    {"ag_code", gen_get_code, NULL, NULL, NULL},
    {"ag_suspended", gen_get_suspended, NULL, NULL, NULL},
    {NULL},
};

static PyObject *
gen_repr(PyObject *self)
{
    const char *kind = PyCoro_CheckExact(self)       ? "coroutine"
                       : PyAsyncGen_CheckExact(self) ? "async_generator"
                                                     : "generator";
    return PyUnicode_FromFormat("<%s object %S at %p>", kind, ((PyGenObject *)self)->gi_qualname,
                                self);
}

static PyObject *
gen_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSize_t(_PyObject_VAR_SIZE(Py_TYPE(self), Py_SIZE(self)));
}

/* ---- Lifetime ------------------------------------------------------------------- */

static int
gen_traverse(PyObject *self, visitproc visit, void *arg)
{
    PyGenObject *gen = (PyGenObject *)self;
    Py_VISIT(gen->gi_name);
    Py_VISIT(gen->gi_qualname);
    Py_VISIT(gen->gi_origin_or_finalizer);
    Py_VISIT(gen->gi_exc_state.exc_value);
    if (gen->gi_frame_state < FRAME_CLEARED) {
        if (gen->gi_frame_state == FRAME_EXECUTING) {
            /* The running frame's stack is in flux; the thread owns it. */
            return 0;
        }
        return _PyFrame_Traverse(&gen->gi_iframe, visit, arg);
    }
    _PyStackRef exe = gen->gi_iframe.f_executable;
    if (!PyStackRef_IsNull(exe) && !PyStackRef_IsBorrowed(exe)) {
        Py_VISIT(PyStackRef_AsPyObjectBorrow(exe));
    }
    return 0;
}

/* Run tp_finalize on a dying generator whose frame still needs finishing
   (closing a suspended generator runs its finally blocks).  Returns 1 if
   the finalizer resurrected the object. */
static int
finalize_from_dealloc(PyObject *self)
{
    if (((PyGenObject *)self)->gi_frame_state >= FRAME_COMPLETED) {
        return 0;
    }
    return PyObject_CallFinalizerFromDealloc(self) != 0;
}

static void
gen_dealloc(PyObject *self)
{
    PyGenObject *gen = (PyGenObject *)self;
    PyObject_GC_UnTrack(self);
    if (gen->gi_weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    if (finalize_from_dealloc(self)) {
        PyObject_GC_Track(self);
        return;
    }
    _PyGen_ClearFrame(gen);
    PyStackRef_CLEAR(gen->gi_iframe.f_executable);
    Py_CLEAR(gen->gi_origin_or_finalizer);
    Py_CLEAR(gen->gi_name);
    Py_CLEAR(gen->gi_qualname);
    PyObject_GC_Del(self);
}

/* ---- Types ---------------------------------------------------------------------- */

static PyMethodDef gen_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {"send", gen_send, METH_O,
     "send($self, value, /)\n--\n\nResume the generator with value as the result of the paused yield."},
    {"throw", _PyCFunction_CAST(gen_throw), METH_FASTCALL,
     "throw(value)\n--\n\nRaise value where the generator is paused and resume it."},
    {"close", gen_close, METH_NOARGS, "close($self, /)\n--\n\nRaise GeneratorExit inside the generator."},
    {"__sizeof__", gen_sizeof, METH_NOARGS, NULL},
    {NULL},
};

static PyAsyncMethods gen_as_async = {
    .am_send = gen_am_send,
};

#define GEN_BASICSIZE (offsetof(PyGenObject, gi_iframe) + offsetof(_PyInterpreterFrame, localsplus))

PyTypeObject PyGen_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "generator",
    .tp_basicsize = GEN_BASICSIZE,
    .tp_itemsize = sizeof(_PyStackRef),
    .tp_dealloc = gen_dealloc,
    .tp_as_async = &gen_as_async,
    .tp_repr = gen_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = gen_traverse,
    .tp_weaklistoffset = offsetof(PyGenObject, gi_weakreflist),
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = gen_iternext,
    .tp_methods = gen_methods,
    .tp_getset = gen_getsetlist,
    .tp_finalize = _PyGen_Finalize,
};

/* coroutine.__await__() returns a wrapper that iterates the coroutine. */
typedef struct {
    PyObject_HEAD
    PyObject *cw_coroutine;
} PyCoroWrapper;

static PyObject *
coro_await(PyObject *coro)
{
    /* GenericAlloc zeroes the object and starts tracking it. */
    PyObject *wrapper = PyType_GenericAlloc(&_PyCoroWrapper_Type, 0);
    if (wrapper != NULL) {
        ((PyCoroWrapper *)wrapper)->cw_coroutine = Py_NewRef(coro);
    }
    return wrapper;
}

static PyObject *
coro_await_method(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return coro_await(self);
}

static PyMethodDef coro_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {"send", gen_send, METH_O,
     "send($self, value, /)\n--\n\nResume the coroutine with value."},
    {"throw", _PyCFunction_CAST(gen_throw), METH_FASTCALL,
     "throw(value)\n--\n\nRaise an exception in the coroutine at the point where it is paused."},
    {"close", gen_close, METH_NOARGS, "close($self, /)\n--\n\nRaise GeneratorExit inside the coroutine."},
    {"__await__", coro_await_method, METH_NOARGS, NULL},
    {"__sizeof__", gen_sizeof, METH_NOARGS, NULL},
    {NULL},
};

static PyAsyncMethods coro_as_async = {
    .am_await = coro_await,
    .am_send = gen_am_send,
};

PyTypeObject PyCoro_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "coroutine",
    .tp_basicsize = GEN_BASICSIZE,
    .tp_itemsize = sizeof(_PyStackRef),
    .tp_dealloc = gen_dealloc,
    .tp_as_async = &coro_as_async,
    .tp_repr = gen_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = gen_traverse,
    .tp_weaklistoffset = offsetof(PyCoroObject, cr_weakreflist),
    .tp_methods = coro_methods,
    .tp_getset = coro_getsetlist,
    .tp_finalize = _PyGen_Finalize,
};

static void
cw_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(((PyCoroWrapper *)self)->cw_coroutine);
    PyObject_GC_Del(self);
}

static int
cw_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((PyCoroWrapper *)self)->cw_coroutine);
    return 0;
}

static PyObject *
cw_iternext(PyObject *self)
{
    return gen_iternext(((PyCoroWrapper *)self)->cw_coroutine);
}

static PyObject *
cw_send(PyObject *self, PyObject *arg)
{
    return gen_send(((PyCoroWrapper *)self)->cw_coroutine, arg);
}

static PyObject *
cw_throw(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return gen_throw(((PyCoroWrapper *)self)->cw_coroutine, args, nargs);
}

static PyObject *
cw_close(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return gen_close(((PyCoroWrapper *)self)->cw_coroutine, NULL);
}

static PyMethodDef cw_methods[] = {
    {"send", cw_send, METH_O, NULL},
    {"throw", _PyCFunction_CAST(cw_throw), METH_FASTCALL, NULL},
    {"close", cw_close, METH_NOARGS, NULL},
    {NULL},
};

PyTypeObject _PyCoroWrapper_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "coroutine_wrapper",
    .tp_basicsize = sizeof(PyCoroWrapper),
    .tp_dealloc = cw_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The iterator coroutine.__await__() returns; it drives the coroutine.",
    .tp_traverse = cw_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = cw_iternext,
    .tp_methods = cw_methods,
};

static PyObject *
ag_asend(PyObject *self, PyObject *arg)
{
    return _PyAsyncGen_ASend(self, arg);
}

static PyObject *
ag_athrow(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("athrow", nargs, 1, 3)) {
        return NULL;
    }
    return _PyAsyncGen_AThrow(self, args, nargs);
}

static PyObject *
ag_aclose(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return _PyAsyncGen_AClose(self);
}

static PyMethodDef ag_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {"asend", ag_asend, METH_O, "asend($self, value, /)\n--\n\nResume the generator with value, awaitably."},
    {"athrow", _PyCFunction_CAST(ag_athrow), METH_FASTCALL,
     "athrow(value)\n--\n\nRaise an exception in the generator, awaitably."},
    {"aclose", ag_aclose, METH_NOARGS, "aclose($self, /)\n--\n\nClose the generator, awaitably."},
    {"__sizeof__", gen_sizeof, METH_NOARGS, NULL},
    {NULL},
};

static PyAsyncMethods ag_as_async = {
    .am_aiter = PyObject_SelfIter,
    .am_anext = _PyAsyncGen_ANext,
};

PyTypeObject PyAsyncGen_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "async_generator",
    .tp_basicsize = GEN_BASICSIZE,
    .tp_itemsize = sizeof(_PyStackRef),
    .tp_dealloc = gen_dealloc,
    .tp_as_async = &ag_as_async,
    .tp_repr = gen_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = gen_traverse,
    .tp_weaklistoffset = offsetof(PyAsyncGenObject, ag_weakreflist),
    .tp_methods = ag_methods,
    .tp_getset = ag_getsetlist,
    .tp_finalize = _PyGen_Finalize,
};
