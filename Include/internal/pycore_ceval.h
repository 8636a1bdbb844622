/* Internal interface of the evaluation loop (Python/ceval.c). */
#ifndef Py_INTERNAL_CEVAL_H
#define Py_INTERNAL_CEVAL_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_frame.h"
#include "pycore_pystate.h"

/* Run `frame` (already pushed and initialised) until it returns. */
PyAPI_FUNC(PyObject *) _PyEval_EvalFrameDefault(PyThreadState *tstate,
                                                _PyInterpreterFrame *frame, int throwflag);
/* Call a Python function with vectorcall arguments (borrowed). */
PyAPI_FUNC(PyObject *) _PyEval_Vector(PyThreadState *tstate, PyFunctionObject *func,
                                      PyObject *locals, PyObject *const *args,
                                      size_t argcount, PyObject *kwnames);
/* Push a frame for func and bind the arguments (which it takes ownership
   of).  Returns NULL with an exception set on failure. */
PyAPI_FUNC(_PyInterpreterFrame *) _PyEvalFramePushAndInit(PyThreadState *tstate, _PyStackRef func,
                                                          PyObject *locals, _PyStackRef const *args,
                                                          size_t argcount, PyObject *kwnames,
                                                          _PyInterpreterFrame *previous);
PyAPI_FUNC(void) _PyEval_FrameClearAndPop(PyThreadState *tstate, _PyInterpreterFrame *frame);

PyAPI_FUNC(int) _Py_CheckRecursiveCall(PyThreadState *tstate, const char *where);

/* Nonzero when the C stack is below the thread's soft limit. */
static inline int
_Py_StackIsLow(PyThreadState *tstate)
{
    char here;
    return (uintptr_t)&here < tstate->c_stack_soft_limit;
}

static inline int
_Py_EnterRecursiveCallTstate(PyThreadState *tstate, const char *where)
{
    return (tstate->c_recursion_remaining-- <= 0 || _Py_StackIsLow(tstate)) &&
           _Py_CheckRecursiveCall(tstate, where);
}

static inline void
_Py_LeaveRecursiveCallTstate(PyThreadState *tstate)
{
    tstate->c_recursion_remaining++;
}

PyAPI_FUNC(int) _Py_CheckRecursiveCallPy(PyThreadState *tstate);

static inline int
_Py_EnterRecursivePy(PyThreadState *tstate)
{
    return (tstate->py_recursion_remaining-- <= 0) && _Py_CheckRecursiveCallPy(tstate);
}

static inline void
_Py_LeaveRecursiveCallPy(PyThreadState *tstate)
{
    tstate->py_recursion_remaining++;
}

/* Helpers the interpreter (and later the JIT) call.  They take the thread
   state, never the caller's frame. */
PyAPI_DATA(const binaryfunc) _PyEval_BinaryOps[];
PyAPI_FUNC(int) _PyEval_CheckExceptTypeValid(PyThreadState *tstate, PyObject *right);
PyAPI_FUNC(void) _PyEval_FormatExcCheckArg(PyThreadState *tstate, PyObject *exc,
                                           const char *format_str, PyObject *obj);
PyAPI_FUNC(void) _PyEval_FormatExcUnbound(PyThreadState *tstate, PyCodeObject *co, int oparg);
PyAPI_FUNC(int) _PyEval_UnpackIterableStackRef(PyThreadState *tstate, PyObject *v, int argcnt,
                                               int argcntafter, _PyStackRef *sp);
PyAPI_FUNC(PyObject *) _PyEval_GetBuiltins(PyThreadState *tstate);
/* PyEval_EvalCode with the cells for the code's free variables (exec's
   closure=); closure NULL for none. */
PyAPI_FUNC(PyObject *) _PyEval_EvalCodeWithClosure(PyObject *co, PyObject *globals,
                                                   PyObject *locals, PyObject *closure);
PyAPI_FUNC(PyObject *) _PyEval_BuiltinsFromGlobals(PyThreadState *tstate, PyObject *globals);


/* ---- Frame push and pop on the interpreter's fast paths ------------------ */

/* _PyThreadState_PushFrame without the call when the current chunk has
   room, which is nearly always. */
static inline _PyInterpreterFrame *
_PyEval_PushFrameFast(PyThreadState *tstate, size_t size)
{
    PyObject **top = tstate->datastack_top;
    if (top != NULL && size < (size_t)(tstate->datastack_limit - top)) {
        tstate->datastack_top = top + size;
        return (_PyInterpreterFrame *)top;
    }
    return _PyThreadState_PushFrame(tstate, size);
}

/* _PyEval_FrameClearAndPop for the frame a return leaves behind.  When no
   one has looked at it (no frame object, no locals mapping), the thread
   owns it and it is not the first in its chunk, popping is releasing its
   references and moving the stack top back; anything else takes the
   general path.  The caller has already made the previous frame current. */
static inline void
_PyEval_PopFrameFast(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    int plain = frame->owner == FRAME_OWNED_BY_THREAD && frame->frame_obj == NULL &&
                frame->f_locals == NULL &&
                (PyObject **)frame != &tstate->datastack_chunk->data[0];
    if (!plain) {
        _PyEval_FrameClearAndPop(tstate, frame);
        return;
    }
    _PyStackRef *live_end = frame->stackpointer;
    frame->stackpointer = frame->localsplus;
    for (_PyStackRef *slot = frame->localsplus; slot < live_end; slot++) {
        PyStackRef_XCLOSE(*slot);
    }
    PyStackRef_CLOSE(frame->f_funcobj);
    PyStackRef_CLOSE(frame->f_executable);
    tstate->datastack_top = (PyObject **)frame;
}

/* CALL_ALLOC_AND_ENTER_INIT: the __init__ function a class's
   specialised calls run, while it is the one they were specialised for
   (same function version); NULL otherwise.  `cls` is a heap type whose
   version tag a specialised call has just checked. */
static inline PyFunctionObject *
_PyType_SpecializedInit(PyTypeObject *cls)
{
    PyHeapTypeObject *heap = (PyHeapTypeObject *)cls;
    PyFunctionObject *init = (PyFunctionObject *)heap->_spec_init;
    if (init == NULL || init->func_version != heap->_spec_init_version) {
        return NULL;
    }
    return init;
}

/* Push the two frames of an inlined class call above `caller`: the shim
   (running `shim_code`, holding a reference to `self` on its value stack)
   and, on top of it, __init__'s frame with `self` as its first local.
   On success the __init__ frame owns the `init` and `self` references
   passed in and is returned with its other arguments still to fill in;
   on failure (no memory) NULL is returned and nothing was taken. */
static inline _PyInterpreterFrame *
_PyEval_PushInitFrames(PyThreadState *tstate, _PyInterpreterFrame *caller, PyCodeObject *shim_code,
                       PyFunctionObject *init, PyObject *self)
{
    PyCodeObject *init_code = (PyCodeObject *)init->func_code;
    _PyInterpreterFrame *shim = _PyEval_PushFrameFast(tstate, (size_t)shim_code->co_framesize);
    if (shim == NULL) {
        return NULL;
    }
    _PyInterpreterFrame *init_frame = _PyEval_PushFrameFast(tstate, (size_t)init_code->co_framesize);
    if (init_frame == NULL) {
        _PyThreadState_PopFrame(tstate, shim);
        return NULL;
    }
    shim->previous = caller;
    shim->f_executable = PyStackRef_FromPyObjectNew((PyObject *)shim_code);
    shim->f_funcobj = PyStackRef_None;
    shim->f_globals = init->func_globals;
    shim->f_builtins = init->func_builtins;
    shim->f_locals = NULL;
    shim->frame_obj = NULL;
    shim->instr_ptr = _PyCode_CODE(shim_code);
    shim->return_offset = 0;
    shim->owner = FRAME_OWNED_BY_THREAD;
    shim->visited = 0;
    shim->localsplus[0] = PyStackRef_FromPyObjectNew(self);
    shim->stackpointer = shim->localsplus + 1;
    _PyFrame_Initialize(tstate, init_frame, PyStackRef_FromPyObjectSteal((PyObject *)init), NULL, init_code,
                        init_code->co_argcount, shim);
    init_frame->localsplus[0] = PyStackRef_FromPyObjectSteal(self);
    /* RETURN_VALUE (or unwinding) out of the shim gives back a level of
       Python recursion that was never taken: take it here.  The __init__
       frame's own entry checks the limit. */
    tstate->py_recursion_remaining--;
    return init_frame;
}

/* Run pending work flagged in tstate->eval_breaker (signals, ...). */
PyAPI_FUNC(int) _Py_HandlePending(PyThreadState *tstate);

/* The eval breaker's bits.  Others set them (the collector, the C signal
   handler, a thread waiting for the interpreter lock); the running thread
   clears them when it looks, at RESUME and backward jumps. */
#define _PY_GC_SCHEDULED_BIT ((uintptr_t)1)
#define _PY_SIGNALS_PENDING_BIT ((uintptr_t)2)
#define _PY_GIL_DROP_REQUEST_BIT ((uintptr_t)4)
#define _PY_CALLS_TO_DO_BIT ((uintptr_t)8)

static inline void
_Py_set_eval_breaker_bit(PyThreadState *tstate, uintptr_t bit)
{
    __atomic_fetch_or(&tstate->eval_breaker, bit, __ATOMIC_SEQ_CST);
}

static inline void
_Py_unset_eval_breaker_bit(PyThreadState *tstate, uintptr_t bit)
{
    __atomic_fetch_and(&tstate->eval_breaker, ~bit, __ATOMIC_SEQ_CST);
}

static inline uintptr_t
_Py_eval_breaker_bits(PyThreadState *tstate)
{
    return __atomic_load_n(&tstate->eval_breaker, __ATOMIC_RELAXED);
}

/* ---- The interpreter lock (Python/ceval_gil.c) -------------------------- */

/* Create the lock and give it to the starting thread. */
PyAPI_FUNC(void) _PyEval_InitGIL(PyThreadState *tstate);
/* Take and release it for tstate, which the caller binds or unbinds. */
PyAPI_FUNC(void) _PyEval_TakeGIL(PyThreadState *tstate);
PyAPI_FUNC(void) _PyEval_DropGIL(PyThreadState *tstate);
/* Nonzero when tstate holds the lock. */
PyAPI_FUNC(int) _PyEval_HoldsGIL(PyThreadState *tstate);
/* From now on only tstate may run: any other thread that takes the lock
   parks forever (daemon threads at exit). */
PyAPI_FUNC(void) _PyEval_StartFinalizing(PyThreadState *tstate);
PyAPI_FUNC(int) _PyEval_IsFinalizing(void);
/* sys.setswitchinterval, in microseconds. */
PyAPI_FUNC(void) _PyEval_SetSwitchInterval(unsigned long microseconds);
PyAPI_FUNC(unsigned long) _PyEval_GetSwitchInterval(void);
/* Run the calls queued by Py_AddPendingCall (main thread only). */
PyAPI_FUNC(int) _PyEval_RunPendingCalls(PyThreadState *tstate);

/* ---- Signals (Modules/signalmodule.c) ------------------------------------ */

/* Install the start-up handlers (SIGINT raises KeyboardInterrupt, SIGPIPE
   and SIGXFSZ ignored) when install is nonzero. */
PyAPI_FUNC(int) _PySignal_Init(int install);
/* Drop the Python handlers and restore the C defaults. */
PyAPI_FUNC(void) _PySignal_Fini(void);
/* Run the Python handlers of the signals that arrived (main thread). */
PyAPI_FUNC(int) _PyErr_CheckSignalsTstate(PyThreadState *tstate);

/* ---- Exit (Modules/atexitmodule.c, Modules/_threadmodule.c) ------------ */

/* Run and drop the atexit callbacks, last registered first. */
PyAPI_FUNC(void) _PyAtExit_Call(void);
/* Ready the _thread module's types (start-up). */
PyAPI_FUNC(int) _PyThread_InitTypes(void);
/* Forget the _thread module's bookkeeping (after all threads ended). */
PyAPI_FUNC(void) _PyThread_Fini(void);

/* ---- Instruction helpers (Python/ceval_helpers.c) -------------------------
   Slow paths of instructions, out of line so the loop stays small.  Each
   takes the thread state, never the caller's frame, unless it needs the
   frame's namespaces (LOAD_NAME and friends). */
PyAPI_FUNC(PyObject *) _PyEval_CommonConstant(int index);
PyAPI_FUNC(PyObject *) _PyEval_BuiltinsName(void);       /* interned "__builtins__" */
PyAPI_FUNC(PyObject *) _PyEval_BuiltinsModuleName(void); /* interned "builtins" */
PyAPI_FUNC(PyObject *) _PyEval_GetIter(PyThreadState *tstate, PyObject *iterable, int yield_from);
/* 1 with a new reference in *item, 0 when exhausted, -1 on error. */
PyAPI_FUNC(int) _PyEval_IterNext(PyThreadState *tstate, PyObject *iter, PyObject **item);
PyAPI_FUNC(void) _PyEval_SetFunctionAttribute(PyFunctionObject *func, int flag, PyObject *attr);
PyAPI_FUNC(int) _PyEval_IsInlinablePyFunction(PyObject *callable);
PyAPI_FUNC(PyObject *) _PyEval_VectorcallStackRefs(PyThreadState *tstate, PyObject *callable,
                                                   _PyStackRef *args, int nargs, PyObject *kwnames);
PyAPI_FUNC(PyObject *) _PyEval_CallVectorcallFunction(PyThreadState *tstate, vectorcallfunc fn,
                                                      PyObject *callable, _PyStackRef *args, int nargs);
PyAPI_FUNC(PyObject *) _PyEval_VectorcallAndClose(PyThreadState *tstate, _PyStackRef callable,
                                                  _PyStackRef *args, int nargs, PyObject *kwnames);

/* The guards of the CALL and CALL_KW forms for bound methods: a method
   object whose function is the Python function of that version. */
static inline int
_PyEval_IsMethodOfVersion(PyObject *callable, uint32_t func_version)
{
    if (!Py_IS_TYPE(callable, &PyMethod_Type)) {
        return 0;
    }
    PyObject *func = PyMethod_GET_FUNCTION(callable);
    return PyFunction_Check(func) && ((PyFunctionObject *)func)->func_version == func_version;
}

/* What the *_NON_PY forms leave to the others: Python functions and bound
   methods. */
static inline int
_PyEval_IsPythonCallable(PyObject *callable)
{
    return PyFunction_Check(callable) || Py_IS_TYPE(callable, &PyMethod_Type);
}

/* CALL of a bound method with no self: call its function with the method's
   self in the self_or_null slot instead (no second call layer). */
static inline void
_PyEval_ExpandBoundMethod(_PyStackRef *callable, _PyStackRef *self_or_null)
{
    PyObject *method = PyStackRef_AsPyObjectBorrow(*callable);
    if (!PyStackRef_IsNull(*self_or_null) || !PyMethod_Check(method)) {
        return;
    }
    *self_or_null = PyStackRef_FromPyObjectNew(PyMethod_GET_SELF(method));
    _PyStackRef func = PyStackRef_FromPyObjectNew(PyMethod_GET_FUNCTION(method));
    PyStackRef_CLOSE(*callable);
    *callable = func;
}
/* sys.monitoring helpers for instrumented instructions (Python/ceval_helpers.c). */
PyAPI_FUNC(PyObject *) _PyEval_MonitorCallResult(PyThreadState *tstate, struct _PyInterpreterFrame *frame,
                                                 _Py_CODEUNIT *instr, PyObject *func, PyObject *arg0,
                                                 PyObject *result);
PyAPI_FUNC(int) _PyEval_MonitorBranch(PyThreadState *tstate, struct _PyInterpreterFrame *frame,
                                      _Py_CODEUNIT *instr, _Py_CODEUNIT *next, int oparg, int taken);
PyAPI_FUNC(PyObject *) _PyEval_CallFunctionEx(PyThreadState *tstate, PyObject *func, PyObject *self,
                                              PyObject *callargs, PyObject *kwargs);
PyAPI_FUNC(PyObject *) _PyEval_CallIntrinsic1(PyThreadState *tstate, int oparg, PyObject *value);
PyAPI_FUNC(PyObject *) _PyEval_CallIntrinsic2(PyThreadState *tstate, int oparg, PyObject *value2,
                                              PyObject *value1);
PyAPI_FUNC(PyObject *) _PyEval_LoadGlobal(PyThreadState *tstate, PyObject *globals,
                                          PyObject *builtins, PyObject *name);
/* The helpers that instructions call take the namespaces and cells they
   need, never the frame: code run by tier 2 (or a JIT with lazy frames)
   need not make its frame true to call them. */
/* Name lookups for module and class bodies: 0 and the value in *result,
   or -1 with an exception. */
PyAPI_FUNC(int) _PyEval_LoadName(PyThreadState *tstate, PyObject *locals, PyObject *globals,
                                 PyObject *builtins, PyObject *name, _PyStackRef *result);
PyAPI_FUNC(int) _PyEval_LoadFromDictOrGlobals(PyThreadState *tstate, PyObject *dict,
                                              PyObject *globals, PyObject *builtins,
                                              PyObject *name, _PyStackRef *result);
PyAPI_FUNC(PyObject *) _PyEval_LoadFromDictOrDeref(PyThreadState *tstate, PyObject *dict,
                                                   PyCodeObject *code, PyObject *cell, int oparg);
PyAPI_FUNC(PyObject *) _PyEval_LoadBuildClass(PyThreadState *tstate, PyObject *builtins);
PyAPI_FUNC(int) _PyEval_SetupAnnotations(PyThreadState *tstate, PyObject *locals);
PyAPI_FUNC(PyObject *) _PyEval_LoadSuperAttr(PyThreadState *tstate, PyObject *global_super,
                                             PyObject *class, PyObject *self, PyObject *name, int oparg);
PyAPI_FUNC(PyObject *) _PyEval_LoadSpecial(PyThreadState *tstate, PyObject *owner, int which,
                                           PyObject **self_or_null);
PyAPI_FUNC(PyObject *) _PyEval_TupleFromStackRefsSteal(_PyStackRef *values, int n);
PyAPI_FUNC(PyObject *) _PyEval_ListFromStackRefsSteal(_PyStackRef *values, int n);
PyAPI_FUNC(PyObject *) _PyEval_SetFromStackRefsSteal(_PyStackRef *values, int n);
PyAPI_FUNC(PyObject *) _PyEval_DictFromStackRefsSteal(_PyStackRef *values, int npairs);
PyAPI_FUNC(PyObject *) _PyEval_StringFromStackRefsSteal(_PyStackRef *pieces, int n);
PyAPI_FUNC(int) _PyEval_ListExtend(PyThreadState *tstate, PyObject *list, PyObject *iterable);
PyAPI_FUNC(int) _PyEval_DictUpdate(PyThreadState *tstate, PyObject *dict, PyObject *update);
PyAPI_FUNC(int) _PyEval_DictMerge(PyThreadState *tstate, PyObject *callable, PyObject *dict,
                                  PyObject *update);
PyAPI_FUNC(PyObject *) _PyEval_ConvertValue(PyObject *value, int conversion);
/* __import__ for IMPORT_NAME: 0 and the module in *result, or -1. */
PyAPI_FUNC(int) _PyEval_ImportName(PyThreadState *tstate, PyObject *globals, PyObject *locals,
                                   PyObject *name, PyObject *fromlist, PyObject *level,
                                   _PyStackRef *result);
PyAPI_FUNC(PyObject *) _PyEval_ImportFrom(PyThreadState *tstate, PyObject *v, PyObject *name);
/* Returns 1 for a bare re-raise (no new traceback entry), 0 otherwise;
   either way an exception is set.  Steals exc and cause. */
PyAPI_FUNC(int) _PyEval_DoRaise(PyThreadState *tstate, PyObject *exc, PyObject *cause);
PyAPI_FUNC(int) _PyEval_ExceptionGroupMatch(PyThreadState *tstate, PyObject *exc_value,
                                            PyObject *match_type, PyObject **match, PyObject **rest);
PyAPI_FUNC(PyObject *) _PyEval_CallExitWithException(PyThreadState *tstate, PyObject *exit_func,
                                                     PyObject *exit_self, PyObject *val);
PyAPI_FUNC(PyObject *) _PyEval_MatchClass(PyThreadState *tstate, PyObject *subject, PyObject *type,
                                          int nargs, PyObject *kwargs);
PyAPI_FUNC(PyObject *) _PyEval_MatchKeys(PyThreadState *tstate, PyObject *map, PyObject *keys);
/* Generators (Python/ceval_gen.c) */
PyAPI_FUNC(PyObject *) _PyEval_MoveFrameToGenerator(PyThreadState *tstate, _PyInterpreterFrame *frame);
PyAPI_FUNC(void) _PyEval_ClearGeneratorFrame(PyThreadState *tstate, _PyInterpreterFrame *frame);
PyAPI_FUNC(PySendResult) _PyEval_SendTo(PyThreadState *tstate, PyObject *receiver, PyObject *value,
                                        PyObject **result);
PyAPI_FUNC(PyObject *) _PyEval_GetAwaitable(PyThreadState *tstate, PyObject *obj, int oparg);
PyAPI_FUNC(void) _PyEval_RefuseSendToSequence(PyThreadState *tstate, PyObject *seq);
/* GET_AITER: obj.__aiter__(), checked to have __anext__. */
PyAPI_FUNC(PyObject *) _PyEval_GetAIter(PyThreadState *tstate, PyObject *obj);
/* GET_ANEXT: the iterator that awaiting aiter.__anext__() drives. */
PyAPI_FUNC(PyObject *) _PyEval_GetANext(PyThreadState *tstate, PyObject *aiter);

#endif /* !Py_INTERNAL_CEVAL_H */
