/* _testinternalcapi: white-box checks of runtime internals, run from
   Lib/test.  Each check returns None or raises AssertionError naming what
   went wrong, so a golden test can call them one by one. */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_dict.h"
#include "pycore_frame.h"
#include "pycore_jit.h"
#include "pycore_object.h"
#include "pycore_opcode_utils.h"
#include "pycore_optimizer.h"
#include "pycore_pystate.h"
#include "pycore_stress.h"
#include "opcode_ids.h"
#include "pycore_opcode_metadata.h"

extern Py_ssize_t _Py_frame_objects_created;
extern Py_ssize_t _Py_frame_reifications;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            PyErr_Format(PyExc_AssertionError, "%s:%d: check failed: %s",        \
                         __func__, __LINE__, #cond);                              \
            return NULL;                                                         \
        }                                                                        \
    } while (0)

/* Stack refs: tags survive round trips and closing borrowed refs is free. */
static PyObject *
test_stackref(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *obj = PyList_New(0);
    if (obj == NULL) {
        return NULL;
    }
    Py_ssize_t before = Py_REFCNT(obj);
    _PyStackRef owned = PyStackRef_FromPyObjectNew(obj);
    CHECK(Py_REFCNT(obj) == before + 1);
    CHECK(PyStackRef_AsPyObjectBorrow(owned) == obj);
    _PyStackRef borrowed = PyStackRef_FromPyObjectBorrow(obj);
    CHECK(PyStackRef_IsBorrowed(borrowed));
    CHECK(PyStackRef_AsPyObjectBorrow(borrowed) == obj);
    PyStackRef_CLOSE(borrowed);
    CHECK(Py_REFCNT(obj) == before + 1);
    _PyStackRef safe = PyStackRef_MakeHeapSafe(borrowed);
    CHECK(!PyStackRef_IsBorrowed(safe));
    CHECK(Py_REFCNT(obj) == before + 2);
    PyStackRef_CLOSE(safe);
    PyStackRef_CLOSE(owned);
    CHECK(Py_REFCNT(obj) == before);
    for (Py_ssize_t i = -3; i < 1000000; i += 99991) {
        _PyStackRef t = PyStackRef_TagInt(i);
        CHECK(PyStackRef_IsTaggedInt(t));
        CHECK(PyStackRef_UntagInt(t) == i);
        PyStackRef_XCLOSE(t); /* tagged ints are not objects: a no-op */
    }
    CHECK(PyStackRef_IsNull(PyStackRef_NULL));
    Py_DECREF(obj);
    Py_RETURN_NONE;
}

/* Immortal objects ignore reference counting. */
static PyObject *
test_immortal(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *objs[] = {Py_None, Py_True, Py_False, PyLong_FromLong(5)};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(objs); i++) {
        CHECK(_Py_IsImmortal(objs[i]));
        Py_ssize_t rc = Py_REFCNT(objs[i]);
        Py_INCREF(objs[i]);
        Py_DECREF(objs[i]);
        Py_DECREF(objs[i]);
        CHECK(Py_REFCNT(objs[i]) == rc);
    }
    CHECK(PyLong_FromLong(200) == PyLong_FromLong(200));
    Py_RETURN_NONE;
}

/* Frames are bump-allocated; crossing a chunk boundary and popping back
   must restore the previous chunk. */
static PyObject *
test_data_stack(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyThreadState *tstate = _PyThreadState_GET();
    enum { N = 64 };
    _PyInterpreterFrame *frames[N];
    PyObject **top_before = tstate->datastack_top;
    for (int i = 0; i < N; i++) {
        frames[i] = _PyThreadState_PushFrame(tstate, 1000);
        if (frames[i] == NULL) {
            return NULL;
        }
        if (i > 0) {
            CHECK(frames[i] != frames[i - 1]);
        }
    }
    for (int i = N - 1; i >= 0; i--) {
        _PyThreadState_PopFrame(tstate, frames[i]);
    }
    CHECK(tstate->datastack_top == top_before);
    Py_RETURN_NONE;
}

/* The generated metadata agrees with the encodings the compiler uses. */
static PyObject *
test_opcode_metadata(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    CHECK(_PyOpcode_Caches[BINARY_OP] == 5);
    CHECK(_PyOpcode_Caches[CALL] == 3);
    CHECK(_PyOpcode_Caches[LOAD_ATTR] == 9);
    CHECK(_PyOpcode_Caches[LOAD_GLOBAL] == 4);
    CHECK(_PyOpcode_num_popped(GET_ITER, 0) == 1);
    CHECK(_PyOpcode_num_pushed(GET_ITER, 0) == 2);
    CHECK(_PyOpcode_num_popped(POP_ITER, 0) == 2);
    CHECK(_PyOpcode_num_popped(CALL, 3) == 5);
    CHECK(_PyOpcode_num_pushed(LOAD_GLOBAL, 1) == 2);
    CHECK(_PyOpcode_num_pushed(LOAD_GLOBAL, 0) == 1);
    CHECK(OPCODE_HAS_JUMP(FOR_ITER));
    CHECK(!OPCODE_HAS_ARG(NOP));
    CHECK(CACHE == 0 && RESUME == 128);
    Py_RETURN_NONE;
}

/* ---- A toy lazy JIT ------------------------------------------------------------------

   Uses PyUnstable_JITExecutable the way a third-party JIT would.  The
   "compiled code" of a Python function is just a C call of a callback,
   made while the function's frame is on the stack in its lazy form: its
   locals are left NULL (the JIT "keeps them in registers") and its
   instruction pointer stale.  The reifier writes the true values back
   when someone looks at the frame. */

/* state = (values for localsplus, instruction index the "JIT" is at) */
static int
toy_reifier(_PyInterpreterFrame *frame, PyObject *state)
{
    PyObject *values = PyTuple_GET_ITEM(state, 0);
    Py_ssize_t index = PyLong_AsSsize_t(PyTuple_GET_ITEM(state, 1));
    if (index < 0 && PyErr_Occurred()) {
        return -1;
    }
    PyCodeObject *code = ((PyUnstable_JITExecutable *)PyStackRef_AsPyObjectBorrow(frame->f_executable))->je_code;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(values) && i < code->co_nlocalsplus; i++) {
        if (PyStackRef_IsNull(frame->localsplus[i])) {
            frame->localsplus[i] = PyStackRef_FromPyObjectNew(PyTuple_GET_ITEM(values, i));
        }
    }
    frame->instr_ptr = _PyCode_CODE(code) + index;
    frame->stackpointer = frame->localsplus + code->co_nlocalsplus;
    return 0;
}

/* lazy_call(func, callback, values, index): run callback() "inside" func,
   whose frame is lazy.  If callback raises, the toy JIT records its frame
   in the traceback, as a JIT must. */
static PyObject *
lazy_call(PyObject *self, PyObject *args)
{
    PyObject *func, *callback, *values, *index;
    if (!PyArg_ParseTuple(args, "O!OO!O!:lazy_call", &PyFunction_Type, &func, &callback,
                          &PyTuple_Type, &values, &PyLong_Type, &index)) {
        return NULL;
    }
    PyThreadState *tstate = _PyThreadState_GET();
    PyCodeObject *code = (PyCodeObject *)((PyFunctionObject *)func)->func_code;
    PyObject *state = PyTuple_Pack(2, values, index);
    if (state == NULL) {
        return NULL;
    }
    PyObject *executable = PyUnstable_MakeJITExecutable(toy_reifier, code, state);
    Py_DECREF(state);
    if (executable == NULL) {
        return NULL;
    }
    _PyInterpreterFrame *frame = _PyThreadState_PushFrame(tstate, (size_t)code->co_framesize);
    if (frame == NULL) {
        Py_DECREF(executable);
        return NULL;
    }
    _PyFrame_Initialize(tstate, frame, PyStackRef_FromPyObjectNew(func), NULL, code, 0,
                        tstate->current_frame);
    /* Lazy from here on: locals NULL, instruction pointer at the start. */
    _PyStackRef code_ref = frame->f_executable;
    frame->f_executable = PyStackRef_FromPyObjectSteal(executable);
    PyStackRef_CLOSE(code_ref);
    tstate->current_frame = frame;

    PyObject *result = PyObject_CallNoArgs(callback);
    if (result == NULL) {
        PyFrameObject *f = _PyFrame_GetFrameObject(frame);
        if (f != NULL) {
            PyTraceBack_Here(f);
        }
    }
    tstate->current_frame = frame->previous;
    _PyEval_FrameClearAndPop(tstate, frame);
    return result;
}

/* Whether a frame still has its JIT executable (has not been reified). */
static PyObject *
caller_is_lazy(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    _PyInterpreterFrame *frame = _PyThreadState_GET()->current_frame;
    frame = frame ? _PyFrame_GetFirstComplete(frame->previous) : NULL;
    return PyBool_FromLong(frame != NULL && _PyFrame_IsLazy(frame));
}

/* The instructions of a function as they are now (specialised forms
   included), by name, without the inline caches. */
static PyObject *
current_opcodes(PyObject *self, PyObject *func)
{
    if (!PyFunction_Check(func)) {
        PyErr_SetString(PyExc_TypeError, "expected a function");
        return NULL;
    }
    PyCodeObject *code = (PyCodeObject *)PyFunction_GET_CODE(func);
    PyObject *names = PyList_New(0);
    if (names == NULL) {
        return NULL;
    }
    _Py_CODEUNIT *instrs = _PyCode_CODE(code);
    for (Py_ssize_t i = 0; i < Py_SIZE(code); i++) {
        int opcode = instrs[i].op.code;
        PyObject *name = PyUnicode_FromString(_PyOpcode_OpName[opcode]);
        if (name == NULL || PyList_Append(names, name) < 0) {
            Py_XDECREF(name);
            Py_DECREF(names);
            return NULL;
        }
        Py_DECREF(name);
        /* ENTER_EXECUTOR stands where a JUMP_BACKWARD was, caches and all. */
        i += _PyOpcode_Caches[opcode == ENTER_EXECUTOR ? JUMP_BACKWARD : _PyOpcode_Deopt[opcode]];
    }
    return names;
}

static PyObject *
specialization_enabled(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(_Py_Specialization_Enabled);
}

static PyObject *
frame_counters(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return Py_BuildValue("(nn)", _Py_frame_objects_created, _Py_frame_reifications);
}

/* ---- tier 2 ---- */

#ifdef _Py_TIER2
static int
set_count(PyObject *dict, const char *key, Py_ssize_t value)
{
    PyObject *number = PyLong_FromSsize_t(value);
    int err = number == NULL || PyDict_SetItemString(dict, key, number) < 0;
    Py_XDECREF(number);
    return err ? -1 : 0;
}
#endif

/* The tier-2 counters as a dict (None in a build without tier 2). */
static PyObject *
tier2_stats(PyObject *self, PyObject *Py_UNUSED(ignored))
{
#ifdef _Py_TIER2
    const _PyTier2Stats *st = &_Py_Tier2_Stats;
    PyObject *stats = PyDict_New();
    PyObject *aborted = PyDict_New();
    int err = stats == NULL || aborted == NULL;
    for (int r = 0; !err && r < TRACE_ABORT_REASONS; r++) {
        err = set_count(aborted, _PyTrace_AbortReasonNames[r], st->aborted_by_reason[r]) < 0;
    }
    err = err || set_count(stats, "traces_started", st->traces_started) < 0 ||
          set_count(stats, "traces_recorded", st->traces_recorded) < 0 ||
          set_count(stats, "traces_aborted", st->traces_aborted) < 0 ||
          PyDict_SetItemString(stats, "aborted", aborted) < 0 ||
          set_count(stats, "executors_created", st->executors_created) < 0 ||
          set_count(stats, "executors_invalidated", st->executors_invalidated) < 0 ||
          set_count(stats, "executors_entered", st->executors_entered) < 0 ||
          set_count(stats, "side_exits_taken", st->side_exits_taken) < 0 ||
          set_count(stats, "uops_executed", st->uops_executed) < 0;
    Py_XDECREF(aborted);
    if (err) {
        Py_XDECREF(stats);
        return NULL;
    }
    return stats;
#else
    Py_RETURN_NONE;
#endif
}

/* The JIT's counters (pycore_jit.h), or None on a build without it. */
static PyObject *
jit_stats(PyObject *self, PyObject *Py_UNUSED(ignored))
{
#ifdef _Py_JIT
    const _PyJITStats *st = &_Py_JIT_Stats;
    PyObject *stats = PyDict_New();
    if (stats == NULL ||
        set_count(stats, "executors_compiled", st->executors_compiled) < 0 ||
        set_count(stats, "executors_refused", st->executors_refused) < 0 ||
        set_count(stats, "code_bytes", st->code_bytes) < 0 ||
        set_count(stats, "runs", st->runs) < 0) {
        Py_XDECREF(stats);
        return NULL;
    }
    return stats;
#else
    Py_RETURN_NONE;
#endif
}

/* Where the executor's machine code is mapped: (address, size), or None
   when it runs in the uop interpreter. */
static PyObject *
executor_jit_code(PyObject *self, PyObject *arg)
{
#ifdef _Py_TIER2
    if (!PyObject_TypeCheck(arg, &_PyUOpExecutor_Type)) {
        PyErr_Format(PyExc_TypeError, "expected an executor, not %.100s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    _PyExecutorObject *executor = (_PyExecutorObject *)arg;
    if (executor->jit_code != NULL) {
        return Py_BuildValue("(Kn)", (unsigned long long)(uintptr_t)executor->jit_code,
                             (Py_ssize_t)executor->jit_size);
    }
#endif
    Py_RETURN_NONE;
}

static PyCodeObject *
code_of(PyObject *arg)
{
    if (PyFunction_Check(arg)) {
        arg = PyFunction_GET_CODE(arg);
    }
    if (!PyCode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "expected a function or code object, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    return (PyCodeObject *)arg;
}

/* The executors installed in a function's (or code object's) loops, in
   the order of their back edges. */
static PyObject *
get_executors(PyObject *self, PyObject *arg)
{
    PyCodeObject *code = code_of(arg);
    if (code == NULL) {
        return NULL;
    }
    PyObject *list = PyList_New(0);
#ifdef _Py_TIER2
    for (Py_ssize_t i = 0; list != NULL && i < Py_SIZE(code); i++) {
        _PyExecutorObject *executor = _PyCode_GetExecutor(code, (int)i);
        if (executor != NULL && PyList_Append(list, (PyObject *)executor) < 0) {
            Py_CLEAR(list);
        }
    }
#endif
    return list;
}

/* For white-box tests: the uop names of each executor of a function. */
static PyObject *
get_executor_uops(PyObject *self, PyObject *arg)
{
    PyObject *executors = get_executors(self, arg);
    if (executors == NULL) {
        return NULL;
    }
    PyObject *result = PyList_New(0);
    for (Py_ssize_t i = 0; result != NULL && i < PyList_GET_SIZE(executors); i++) {
        PyObject *uops = PyObject_GetAttrString(PyList_GET_ITEM(executors, i), "uops");
        PyObject *names = uops == NULL ? NULL : PyList_New(0);
        for (Py_ssize_t j = 0; names != NULL && j < PyList_GET_SIZE(uops); j++) {
            if (PyList_Append(names, PyTuple_GET_ITEM(PyList_GET_ITEM(uops, j), 0)) < 0) {
                Py_CLEAR(names);
            }
        }
        if (names == NULL || PyList_Append(result, names) < 0) {
            Py_CLEAR(result);
        }
        Py_XDECREF(names);
        Py_XDECREF(uops);
    }
    Py_DECREF(executors);
    return result;
}

/* Every executor stops being valid, as when monitoring comes on. */
static PyObject *
invalidate_executors(PyObject *self, PyObject *Py_UNUSED(ignored))
{
#ifdef _Py_TIER2
    _PyExecutor_InvalidateAll();
#endif
    Py_RETURN_NONE;
}


/* Dict watchers: each change to a watched dict is told, in order, before
   it happens; an unwatched dict or a cleared watcher tells nothing. */
#define MAX_SEEN_EVENTS 16
static int seen_events[MAX_SEEN_EVENTS];
static int seen_count;

static int
record_dict_event(PyDict_WatchEvent event, PyObject *dict, PyObject *key, PyObject *new_value)
{
    if (seen_count < MAX_SEEN_EVENTS) {
        seen_events[seen_count++] = (int)event;
    }
    return 0;
}

static int
failing_dict_watcher(PyDict_WatchEvent event, PyObject *dict, PyObject *key, PyObject *new_value)
{
    return 0;
}

static int
exercise_watched_dict(PyObject *dict)
{
    PyObject *key = PyUnicode_FromString("watched key");
    int err = key == NULL ||
              PyDict_SetItem(dict, key, Py_True) < 0 ||   /* added */
              PyDict_SetItem(dict, key, Py_False) < 0 ||  /* modified */
              PyDict_DelItem(dict, key) < 0 ||            /* deleted */
              PyDict_SetItem(dict, key, Py_None) < 0;     /* added */
    Py_XDECREF(key);
    if (err) {
        return -1;
    }
    PyDict_Clear(dict);                                   /* cleared */
    return 0;
}

static PyObject *
test_dict_watchers(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    int id = PyDict_AddWatcher(record_dict_event);
    CHECK(id > 0);
    PyObject *dict = PyDict_New();
    CHECK(dict != NULL);
    seen_count = 0;
    CHECK(exercise_watched_dict(dict) == 0);
    CHECK(seen_count == 0);                 /* not watched yet */
    CHECK(PyDict_Watch(id, dict) == 0);
    CHECK(exercise_watched_dict(dict) == 0);
    CHECK(seen_count == 5);
    CHECK(seen_events[0] == PyDict_EVENT_ADDED && seen_events[1] == PyDict_EVENT_MODIFIED);
    CHECK(seen_events[2] == PyDict_EVENT_DELETED && seen_events[3] == PyDict_EVENT_ADDED);
    CHECK(seen_events[4] == PyDict_EVENT_CLEARED);
    CHECK(PyDict_Unwatch(id, dict) == 0);
    seen_count = 0;
    CHECK(exercise_watched_dict(dict) == 0);
    CHECK(seen_count == 0);
    CHECK(PyDict_Watch(id, dict) == 0);
    Py_DECREF(dict);
    CHECK(seen_count == 1 && seen_events[0] == PyDict_EVENT_DEALLOCATED);

    /* Bad arguments. */
    CHECK(PyDict_Watch(id, Py_None) < 0 && PyErr_ExceptionMatches(PyExc_ValueError));
    PyErr_Clear();
    CHECK(PyDict_Watch(99, Py_None) < 0);
    PyErr_Clear();
    CHECK(PyDict_ClearWatcher(99) < 0 && PyErr_ExceptionMatches(PyExc_ValueError));
    PyErr_Clear();

    /* The ids run out, and come back when cleared. */
    int more[DICT_MAX_WATCHERS];
    int taken = 0;
    while (taken < DICT_MAX_WATCHERS && (more[taken] = PyDict_AddWatcher(failing_dict_watcher)) >= 0) {
        taken++;
    }
    CHECK(taken < DICT_MAX_WATCHERS && PyErr_ExceptionMatches(PyExc_RuntimeError));
    PyErr_Clear();
    for (int i = 0; i < taken; i++) {
        CHECK(PyDict_ClearWatcher(more[i]) == 0);
    }
    CHECK(PyDict_ClearWatcher(id) == 0);
    CHECK(PyDict_ClearWatcher(id) < 0 && PyErr_ExceptionMatches(PyExc_ValueError));
    PyErr_Clear();
    Py_RETURN_NONE;
}

/* set_nomemory(start, stop=0): allocations after the next `start` fail,
   up to allocation number `stop` (0: all of them), as CPython's _testcapi
   helper of the same name; remove_mem_hooks() ends it. */
static PyObject *
set_nomemory(PyObject *self, PyObject *args)
{
    Py_ssize_t start, stop = 0;
    if (!PyArg_ParseTuple(args, "n|n:set_nomemory", &start, &stop)) {
        return NULL;
    }
    if (start < 0 || stop < 0 || (stop != 0 && stop < start)) {
        PyErr_SetString(PyExc_ValueError, "set_nomemory: need 0 <= start and stop == 0 or stop >= start");
        return NULL;
    }
    _PyMem_SetNoMemory(start, stop);
    Py_RETURN_NONE;
}

static PyObject *
remove_mem_hooks(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    _PyMem_ClearNoMemory();
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_nomemory", set_nomemory, METH_VARARGS, NULL},
    {"remove_mem_hooks", remove_mem_hooks, METH_NOARGS, NULL},
    {"test_dict_watchers", test_dict_watchers, METH_NOARGS, NULL},
    {"tier2_stats", tier2_stats, METH_NOARGS, NULL},
    {"jit_stats", jit_stats, METH_NOARGS, NULL},
    {"executor_jit_code", executor_jit_code, METH_O, NULL},
    {"get_executors", get_executors, METH_O, NULL},
    {"get_executor_uops", get_executor_uops, METH_O, NULL},
    {"invalidate_executors", invalidate_executors, METH_NOARGS, NULL},
    {"test_stackref", test_stackref, METH_NOARGS, NULL},
    {"test_immortal", test_immortal, METH_NOARGS, NULL},
    {"test_data_stack", test_data_stack, METH_NOARGS, NULL},
    {"test_opcode_metadata", test_opcode_metadata, METH_NOARGS, NULL},
    {"frame_counters", frame_counters, METH_NOARGS, NULL},
    {"lazy_call", lazy_call, METH_VARARGS, NULL},
    {"current_opcodes", current_opcodes, METH_O, NULL},
    {"specialization_enabled", specialization_enabled, METH_NOARGS, NULL},
    {"caller_is_lazy", caller_is_lazy, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_testinternalcapi",
    .m_doc = "White-box checks of the runtime's internals.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyObject *
PyInit__testinternalcapi(void)
{
    return PyModule_Create(&module_def);
}
