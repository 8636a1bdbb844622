/* Internal calling helpers (Objects/call.c).

   Everything that calls a Python-level callable from C funnels through
   here: the vectorcall fast path when the callee offers one, otherwise a
   tuple-and-dict call through tp_call.  Helpers take the thread state so
   that the interpreter and the JIT need not look it up again. */
#ifndef Py_INTERNAL_CALL_H
#define Py_INTERNAL_CALL_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_pystate.h"

/* Up to this many arguments, helpers build argument arrays on the C
   stack instead of allocating. */
#define _PY_FASTCALL_SMALL_STACK 5

/* Checks the result of a call: NULL needs an exception, non-NULL must
   come without one.  Turns a violation into SystemError.  `callable` may
   be NULL when `where` names the caller instead. */
PyAPI_FUNC(PyObject *) _Py_CheckFunctionResult(PyThreadState *tstate, PyObject *callable,
                                               PyObject *result, const char *where);

/* PyObject_Call with the thread state given. */
PyAPI_FUNC(PyObject *) _PyObject_Call(PyThreadState *tstate, PyObject *callable,
                                      PyObject *args, PyObject *kwargs);
/* callable(obj, *args, **kwargs) without building a new tuple when the
   callee supports vectorcall. */
PyAPI_FUNC(PyObject *) _PyObject_Call_Prepend(PyThreadState *tstate, PyObject *callable,
                                              PyObject *obj, PyObject *args, PyObject *kwargs);
/* callable(arg, *args) where args is a vectorcall array. */
PyAPI_FUNC(PyObject *) _PyObject_VectorcallPrepend(PyThreadState *tstate, PyObject *callable,
                                                   PyObject *arg, PyObject *const *args,
                                                   size_t nargsf, PyObject *kwnames);
PyAPI_FUNC(PyObject *) _PyObject_FastCallDictTstate(PyThreadState *tstate, PyObject *callable,
                                                    PyObject *const *args, size_t nargsf,
                                                    PyObject *kwargs);
/* Turns positional args plus a kwargs dict into one vectorcall array and
   a tuple of names.  Free the results with _PyStack_UnpackDict_Free. */
PyAPI_FUNC(int) _PyStack_UnpackDict(PyThreadState *tstate, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwargs, PyObject *const **p_stack,
                                    PyObject **p_kwnames);
PyAPI_FUNC(void) _PyStack_UnpackDict_Free(PyObject *const *stack, Py_ssize_t nargs,
                                          PyObject *kwnames);
/* obj.name(*Py_BuildValue(format, ...)) with name given as an object. */
PyAPI_FUNC(PyObject *) _PyObject_CallMethod(PyObject *obj, PyObject *name, const char *format, ...);
/* Calls the vectorcall entry of `callable` with a tuple and dict (used as
   tp_call by types that only implement vectorcall). */
PyAPI_FUNC(PyObject *) _PyVectorcall_Call(PyThreadState *tstate, vectorcallfunc func,
                                          PyObject *callable, PyObject *tuple, PyObject *kwargs);

static inline vectorcallfunc
_PyVectorcall_FunctionInline(PyObject *callable)
{
    PyTypeObject *tp = Py_TYPE(callable);
    if (!PyType_HasFeature(tp, Py_TPFLAGS_HAVE_VECTORCALL)) {
        return NULL;
    }
    Py_ssize_t offset = tp->tp_vectorcall_offset;
    vectorcallfunc func;
    memcpy(&func, (char *)callable + offset, sizeof(func));
    return func;
}

static inline PyObject *
_PyObject_VectorcallTstate(PyThreadState *tstate, PyObject *callable, PyObject *const *args,
                           size_t nargsf, PyObject *kwnames)
{
    vectorcallfunc func = _PyVectorcall_FunctionInline(callable);
    if (func == NULL) {
        Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
        return _PyObject_MakeTpCall(callable, args, nargs, kwnames);
    }
    PyObject *res = func(callable, args, nargsf, kwnames);
    return _Py_CheckFunctionResult(tstate, callable, res, NULL);
}

static inline PyObject *
_PyObject_CallNoArgsTstate(PyThreadState *tstate, PyObject *func)
{
    return _PyObject_VectorcallTstate(tstate, func, NULL, 0, NULL);
}

static inline PyObject *
_PyObject_CallNoArgs(PyObject *func)
{
    return _PyObject_VectorcallTstate(_PyThreadState_GET(), func, NULL, 0, NULL);
}

static inline PyObject *
_PyObject_FastCallTstate(PyThreadState *tstate, PyObject *func, PyObject *const *args,
                         Py_ssize_t nargs)
{
    return _PyObject_VectorcallTstate(tstate, func, args, (size_t)nargs, NULL);
}

#endif /* !Py_INTERNAL_CALL_H */
