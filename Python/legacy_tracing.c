/* sys.settrace and sys.setprofile, built on sys.monitoring.

   Both keep their Python-visible function per thread (tstate->c_traceobj,
   tstate->c_profileobj) and share one monitoring tool each:
   PY_MONITORING_SYS_TRACE_ID and PY_MONITORING_SYS_PROFILE_ID.  The tool's
   events are on while at least one thread has a function installed; the
   callbacks below turn monitoring events into the old (frame, event, arg)
   calls, and do nothing on threads without a function.

   Trace semantics kept from the old interface: the global function gets
   'call' and its result becomes the frame's f_trace (the local function);
   'line', 'return', 'exception' and 'opcode' go to f_trace; a local result
   other than None replaces f_trace; an exception in a trace function
   uninstalls tracing on the thread and propagates. */

#include "Python.h"
#include "pycore_code.h"
#include "pycore_frame.h"
#include "pycore_instruments.h"
#include "pycore_pystate.h"

enum legacy_what {
    WHAT_CALL, WHAT_EXCEPTION, WHAT_LINE, WHAT_RETURN,
    WHAT_C_CALL, WHAT_C_EXCEPTION, WHAT_C_RETURN, WHAT_OPCODE, WHAT_COUNT
};

static const char *const what_names[WHAT_COUNT] = {
    "call", "exception", "line", "return", "c_call", "c_exception", "c_return", "opcode",
};

static PyObject *what_strings[WHAT_COUNT];
static int trace_threads;     /* threads with a trace function */
static int profile_threads;   /* threads with a profile function */
static int tools_ready;       /* callbacks registered */

/* The frame whose trace function runs now, and for which event: only there
   may f_lineno be set. */
static PyFrameObject *traced_frame;
static int traced_what = -1;

int
_PyLegacyTracing_CurrentEvent(PyFrameObject *frame)
{
    return frame == traced_frame ? traced_what : -1;
}

#define EV(name) (1u << PY_MONITORING_EVENT_##name)
#define TRACE_EVENTS (EV(PY_START) | EV(PY_RESUME) | EV(PY_THROW) | EV(PY_RETURN) | \
                      EV(PY_YIELD) | EV(PY_UNWIND) | EV(RAISE) | EV(LINE) | EV(JUMP))
#define PROFILE_EVENTS (EV(PY_START) | EV(PY_RESUME) | EV(PY_THROW) | EV(PY_RETURN) | \
                        EV(PY_YIELD) | EV(PY_UNWIND) | EV(CALL))

/* The frame the event is about: the running one, if it runs `code`. */
static PyFrameObject *
event_frame(PyThreadState *tstate, PyObject *code)
{
    _PyInterpreterFrame *iframe = tstate->current_frame;
    if (iframe == NULL || iframe->owner == FRAME_OWNED_BY_INTERPRETER ||
        (PyObject *)_PyFrame_GetCode(iframe) != code) {
        return NULL;
    }
    return _PyFrame_GetFrameObject(iframe);
}

static PyObject *
call_legacy(PyObject *func, PyFrameObject *f, int what, PyObject *arg)
{
    PyObject *args[3] = {(PyObject *)f, what_strings[what], arg != NULL ? arg : Py_None};
    return PyObject_Vectorcall(func, args, 3, NULL);
}

/* ---- Tracing ------------------------------------------------------------------- */

static PyObject *
trace_dispatch(PyObject *code, int what, PyObject *arg)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate->c_traceobj == NULL) {
        Py_RETURN_NONE;
    }
    PyFrameObject *f = event_frame(tstate, code);
    if (f == NULL) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    PyObject *callback = what == WHAT_CALL ? tstate->c_traceobj : f->f_trace;
    if (callback == NULL || (what == WHAT_LINE && !f->f_trace_lines) ||
        (what == WHAT_OPCODE && !f->f_trace_opcodes)) {
        Py_RETURN_NONE;
    }
    Py_INCREF(callback);
    Py_INCREF(f);
    PyFrameObject *outer_frame = traced_frame;
    int outer_what = traced_what;
    traced_frame = f;
    traced_what = what;
    PyObject *result = call_legacy(callback, f, what, arg);
    traced_frame = outer_frame;
    traced_what = outer_what;
    Py_DECREF(callback);
    if (result == NULL) {
        _PyEval_SetTrace(tstate, NULL);
        Py_CLEAR(f->f_trace);
        Py_DECREF(f);
        return NULL;
    }
    if (!Py_IsNone(result)) {
        Py_XSETREF(f->f_trace, result);
    }
    else {
        Py_DECREF(result);
    }
    Py_DECREF(f);
    Py_RETURN_NONE;
}

static PyObject *
trace_start(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return trace_dispatch(args[0], WHAT_CALL, NULL);
}

static PyObject *
trace_return(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return trace_dispatch(args[0], WHAT_RETURN, nargs > 2 ? args[2] : NULL);
}

static PyObject *
trace_unwind(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return trace_dispatch(args[0], WHAT_RETURN, NULL);
}

static PyObject *
trace_raise(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *exc = args[2];
    PyObject *tb = PyException_GetTraceback(exc);
    PyObject *triple = PyTuple_Pack(3, (PyObject *)Py_TYPE(exc), exc, tb != NULL ? tb : Py_None);
    Py_XDECREF(tb);
    if (triple == NULL) {
        return NULL;
    }
    PyObject *res = trace_dispatch(args[0], WHAT_EXCEPTION, triple);
    Py_DECREF(triple);
    return res;
}

static PyObject *
trace_line(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return trace_dispatch(args[0], WHAT_LINE, NULL);
}

/* A backward jump to the line it comes from gets no LINE event (same line),
   but the old interface reported a new 'line' for every loop iteration. */
static PyObject *
trace_jump(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyCodeObject *code = (PyCodeObject *)args[0];
    int from = PyLong_AsInt(args[1]) / (int)sizeof(_Py_CODEUNIT);
    int to = PyLong_AsInt(args[2]) / (int)sizeof(_Py_CODEUNIT);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (to > from) {
        return Py_NewRef(_PyMonitoring_GetDisable());
    }
    int to_line = _PyMonitoring_LineOf(code, to);
    if (to_line < 0 || to_line != _PyMonitoring_LineOf(code, from)) {
        Py_RETURN_NONE;
    }
    return trace_dispatch(args[0], WHAT_LINE, NULL);
}

static PyObject *
trace_instruction(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return trace_dispatch(args[0], WHAT_OPCODE, NULL);
}

/* ---- Profiling ---------------------------------------------------------------- */

static PyObject *
profile_dispatch(PyObject *code, int what, PyObject *arg)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate->c_profileobj == NULL) {
        Py_RETURN_NONE;
    }
    PyFrameObject *f = event_frame(tstate, code);
    if (f == NULL) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    PyObject *callback = Py_NewRef(tstate->c_profileobj);
    Py_INCREF(f);
    PyObject *result = call_legacy(callback, f, what, arg);
    Py_DECREF(callback);
    Py_DECREF(f);
    if (result == NULL) {
        _PyEval_SetProfile(tstate, NULL);
        return NULL;
    }
    Py_DECREF(result);
    Py_RETURN_NONE;
}

static PyObject *
profile_start(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return profile_dispatch(args[0], WHAT_CALL, NULL);
}

static PyObject *
profile_return(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return profile_dispatch(args[0], WHAT_RETURN, nargs > 2 ? args[2] : NULL);
}

static PyObject *
profile_unwind(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return profile_dispatch(args[0], WHAT_RETURN, NULL);
}

/* The callable a C-level event names: builtins as they are, method
   descriptors bound to their first argument (what the old interface
   passed); None for anything else, which is not reported. */
static PyObject *
c_function_of(PyObject *callable, PyObject *arg0)
{
    if (PyCFunction_Check(callable)) {
        return Py_NewRef(callable);
    }
    if (Py_IS_TYPE(callable, &PyMethodDescr_Type) && arg0 != _PyMonitoring_GetMissing()) {
        descrgetfunc get = Py_TYPE(callable)->tp_descr_get;
        return get(callable, arg0, (PyObject *)Py_TYPE(arg0));
    }
    return Py_NewRef(Py_None);
}

static PyObject *
profile_c_event(PyObject *const *args, int what)
{
    PyObject *func = c_function_of(args[2], args[3]);
    if (func == NULL) {
        return NULL;
    }
    PyObject *res = Py_IsNone(func) ? Py_NewRef(Py_None) : profile_dispatch(args[0], what, func);
    Py_DECREF(func);
    return res;
}

static PyObject *
profile_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return profile_c_event(args, WHAT_C_CALL);
}

static PyObject *
profile_c_return(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return profile_c_event(args, WHAT_C_RETURN);
}

static PyObject *
profile_c_raise(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return profile_c_event(args, WHAT_C_EXCEPTION);
}

/* ---- Installing ------------------------------------------------------------------ */

typedef struct {
    int tool;
    int event;
    PyMethodDef def;
} legacy_callback;

#define CB(tool, event, fn) \
    {tool, PY_MONITORING_EVENT_##event, {#fn, _PyCFunction_CAST(fn), METH_FASTCALL, NULL}}

static legacy_callback callbacks[] = {
    CB(PY_MONITORING_SYS_TRACE_ID, PY_START, trace_start),
    CB(PY_MONITORING_SYS_TRACE_ID, PY_RESUME, trace_start),
    CB(PY_MONITORING_SYS_TRACE_ID, PY_THROW, trace_start),
    CB(PY_MONITORING_SYS_TRACE_ID, PY_RETURN, trace_return),
    CB(PY_MONITORING_SYS_TRACE_ID, PY_YIELD, trace_return),
    CB(PY_MONITORING_SYS_TRACE_ID, PY_UNWIND, trace_unwind),
    CB(PY_MONITORING_SYS_TRACE_ID, RAISE, trace_raise),
    CB(PY_MONITORING_SYS_TRACE_ID, LINE, trace_line),
    CB(PY_MONITORING_SYS_TRACE_ID, JUMP, trace_jump),
    CB(PY_MONITORING_SYS_TRACE_ID, INSTRUCTION, trace_instruction),
    CB(PY_MONITORING_SYS_PROFILE_ID, PY_START, profile_start),
    CB(PY_MONITORING_SYS_PROFILE_ID, PY_RESUME, profile_start),
    CB(PY_MONITORING_SYS_PROFILE_ID, PY_THROW, profile_start),
    CB(PY_MONITORING_SYS_PROFILE_ID, PY_RETURN, profile_return),
    CB(PY_MONITORING_SYS_PROFILE_ID, PY_YIELD, profile_return),
    CB(PY_MONITORING_SYS_PROFILE_ID, PY_UNWIND, profile_unwind),
    CB(PY_MONITORING_SYS_PROFILE_ID, CALL, profile_call),
    CB(PY_MONITORING_SYS_PROFILE_ID, C_RETURN, profile_c_return),
    CB(PY_MONITORING_SYS_PROFILE_ID, C_RAISE, profile_c_raise),
};

static int
setup_tools(void)
{
    if (tools_ready) {
        return 0;
    }
    for (int i = 0; i < WHAT_COUNT; i++) {
        what_strings[i] = PyUnicode_InternFromString(what_names[i]);
        if (what_strings[i] == NULL) {
            return -1;
        }
    }
    PyObject *trace_name = PyUnicode_FromString("sys.settrace");
    PyObject *profile_name = PyUnicode_FromString("sys.setprofile");
    if (trace_name == NULL || profile_name == NULL ||
        _PyMonitoring_UseTool(PY_MONITORING_SYS_TRACE_ID, trace_name) < 0 ||
        _PyMonitoring_UseTool(PY_MONITORING_SYS_PROFILE_ID, profile_name) < 0) {
        Py_XDECREF(trace_name);
        Py_XDECREF(profile_name);
        return -1;
    }
    Py_DECREF(trace_name);
    Py_DECREF(profile_name);
    for (size_t i = 0; i < Py_ARRAY_LENGTH(callbacks); i++) {
        PyObject *fn = PyCFunction_New(&callbacks[i].def, NULL);
        if (fn == NULL) {
            return -1;
        }
        _PyMonitoring_RegisterCallback(callbacks[i].tool, callbacks[i].event, fn);
        Py_DECREF(fn);
    }
    tools_ready = 1;
    return 0;
}

/* Install `func` (NULL to remove) in one of the thread's two slots and keep
   the tool's events on exactly while some thread uses it. */
static int
set_legacy(PyThreadState *tstate, PyObject *func, PyObject **slot, void **marker,
           int *users, int tool, uint32_t events)
{
    if (setup_tools() < 0) {
        return -1;
    }
    int had = *slot != NULL;
    Py_XSETREF(*slot, Py_XNewRef(func));
    *marker = func != NULL ? (void *)func : NULL;
    int delta = (func != NULL) - had;
    if (delta == 0) {
        return 0;
    }
    *users += delta;
    if (*users == 0 || (*users == 1 && delta > 0)) {
        return _PyMonitoring_SetGlobalEvents(tool, *users ? events : 0);
    }
    return 0;
}

int
_PyEval_SetTrace(PyThreadState *tstate, PyObject *func)
{
    return set_legacy(tstate, func, &tstate->c_traceobj, &tstate->c_tracefunc,
                      &trace_threads, PY_MONITORING_SYS_TRACE_ID, TRACE_EVENTS);
}

int
_PyEval_SetProfile(PyThreadState *tstate, PyObject *func)
{
    return set_legacy(tstate, func, &tstate->c_profileobj, &tstate->c_profilefunc,
                      &profile_threads, PY_MONITORING_SYS_PROFILE_ID, PROFILE_EVENTS);
}

/* f_trace_opcodes: INSTRUCTION events for that frame's code. */
int
_PyEval_SetOpcodeTrace(PyFrameObject *frame, int enable)
{
    if (setup_tools() < 0) {
        return -1;
    }
    PyCodeObject *code = _PyFrame_GetCode(frame->f_frame);
    uint32_t events = 0;
    _PyCoMonitoringData *data = code->_co_monitoring;
    if (data != NULL) {
        for (int ev = 0; ev < _PY_MONITORING_LOCAL_EVENTS; ev++) {
            if (data->local_tools[ev] & (1u << PY_MONITORING_SYS_TRACE_ID)) {
                events |= 1u << ev;
            }
        }
    }
    events = enable ? events | EV(INSTRUCTION) : events & ~EV(INSTRUCTION);
    return _PyMonitoring_SetLocalEvents(PY_MONITORING_SYS_TRACE_ID, code, events);
}

/* The threads of this interpreter, for the *_all_threads variants. */
static int
set_all_threads(PyObject *func, int (*setter)(PyThreadState *, PyObject *))
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    for (PyThreadState *ts = interp->threads_head; ts != NULL; ts = ts->next) {
        if (setter(ts, func) < 0) {
            return -1;
        }
    }
    return 0;
}

int
_PyEval_SetTraceAllThreads(PyObject *func)
{
    return set_all_threads(func, _PyEval_SetTrace);
}

int
_PyEval_SetProfileAllThreads(PyObject *func)
{
    return set_all_threads(func, _PyEval_SetProfile);
}

/* At exit: drop every thread's functions, the tools and their callbacks. */
void
_PyLegacyTracing_Fini(void)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    for (PyThreadState *ts = interp->threads_head; ts != NULL; ts = ts->next) {
        Py_CLEAR(ts->c_traceobj);
        Py_CLEAR(ts->c_profileobj);
        ts->c_tracefunc = NULL;
        ts->c_profilefunc = NULL;
    }
    trace_threads = profile_threads = 0;
    if (tools_ready) {
        _PyMonitoring_FreeTool(PY_MONITORING_SYS_TRACE_ID);
        _PyMonitoring_FreeTool(PY_MONITORING_SYS_PROFILE_ID);
        tools_ready = 0;
    }
}
