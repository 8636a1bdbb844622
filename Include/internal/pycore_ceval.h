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

static inline int
_Py_EnterRecursiveCallTstate(PyThreadState *tstate, const char *where)
{
    return (tstate->c_recursion_remaining-- <= 0) && _Py_CheckRecursiveCall(tstate, where);
}

static inline void
_Py_LeaveRecursiveCallTstate(PyThreadState *tstate)
{
    tstate->c_recursion_remaining++;
}

static inline int
_Py_EnterRecursivePy(PyThreadState *tstate)
{
    return (tstate->py_recursion_remaining-- <= 0) && _Py_CheckRecursiveCall(tstate, "");
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
PyAPI_FUNC(PyObject *) _PyEval_BuiltinsFromGlobals(PyThreadState *tstate, PyObject *globals);

#endif /* !Py_INTERNAL_CEVAL_H */
