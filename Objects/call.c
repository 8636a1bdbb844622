/* Calling objects from C.

   Two protocols coexist.  tp_call takes an argument tuple and a keyword
   dict.  Vectorcall takes a C array of positional arguments followed by
   the keyword values, plus a tuple of keyword names; it avoids building
   containers for the common call.  Every entry point here picks the
   cheapest route the callee supports and converts only when it must.

   Results are checked in one place (_Py_CheckFunctionResult): a NULL
   result needs an exception, a real result must come without one. */
#include "Python.h"
#include "pycore_call.h"
#include "pycore_ceval.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_tuple.h"

PyObject *
_Py_CheckFunctionResult(PyThreadState *tstate, PyObject *callable, PyObject *result,
                        const char *where)
{
    if (result == NULL) {
        if (!_PyErr_Occurred(tstate)) {
            if (callable != NULL) {
                _PyErr_Format(tstate, PyExc_SystemError,
                              "%R returned NULL without setting an exception", callable);
            }
            else {
                _PyErr_Format(tstate, PyExc_SystemError,
                              "%s returned NULL without setting an exception", where);
            }
        }
        return NULL;
    }
    if (_PyErr_Occurred(tstate)) {
        Py_DECREF(result);
        if (callable != NULL) {
            _PyErr_FormatFromCause(PyExc_SystemError,
                                   "%R returned a result with an exception set", callable);
        }
        else {
            _PyErr_FormatFromCause(PyExc_SystemError,
                                   "%s returned a result with an exception set", where);
        }
        return NULL;
    }
    return result;
}

vectorcallfunc
PyVectorcall_Function(PyObject *callable)
{
    return _PyVectorcall_FunctionInline(callable);
}

static PyObject *
not_callable(PyThreadState *tstate, PyObject *callable)
{
    _PyErr_Format(tstate, PyExc_TypeError, "'%.200s' object is not callable",
                  Py_TYPE(callable)->tp_name);
    return NULL;
}

/* ---- Converting between the two argument conventions ------------------------------ */

PyObject *
_PyStack_AsDict(PyObject *const *values, PyObject *kwnames)
{
    Py_ssize_t nkwargs = PyTuple_GET_SIZE(kwnames);
    PyObject *kwdict = _PyDict_NewPresized(nkwargs);
    if (kwdict == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nkwargs; i++) {
        if (PyDict_SetItem(kwdict, PyTuple_GET_ITEM(kwnames, i), values[i]) < 0) {
            Py_DECREF(kwdict);
            return NULL;
        }
    }
    return kwdict;
}

/* The array returned has one spare slot in front, so callees may use
   PY_VECTORCALL_ARGUMENTS_OFFSET; every item is a new reference because
   the caller's dict might change while the call runs. */
int
_PyStack_UnpackDict(PyThreadState *tstate, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwargs, PyObject *const **p_stack, PyObject **p_kwnames)
{
    Py_ssize_t nkwargs = PyDict_GET_SIZE(kwargs);
    size_t maxnargs = PY_SSIZE_T_MAX / sizeof(PyObject *) - 1;
    if ((size_t)nargs > maxnargs - (size_t)nkwargs) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject **stack = PyMem_Malloc((size_t)(1 + nargs + nkwargs) * sizeof(PyObject *));
    if (stack == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject *kwnames = PyTuple_New(nkwargs);
    if (kwnames == NULL) {
        PyMem_Free(stack);
        return -1;
    }
    stack++;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        stack[i] = Py_NewRef(args[i]);
    }
    PyObject **kwstack = stack + nargs;
    Py_ssize_t pos = 0, i = 0;
    PyObject *key, *value;
    int keys_are_strings = 1;
    while (PyDict_Next(kwargs, &pos, &key, &value)) {
        keys_are_strings &= PyUnicode_Check(key);
        PyTuple_SET_ITEM(kwnames, i, Py_NewRef(key));
        kwstack[i] = Py_NewRef(value);
        i++;
    }
    if (!keys_are_strings) {
        _PyErr_SetString(tstate, PyExc_TypeError, "keywords must be strings");
        _PyStack_UnpackDict_Free(stack, nargs, kwnames);
        return -1;
    }
    *p_stack = stack;
    *p_kwnames = kwnames;
    return 0;
}

void
_PyStack_UnpackDict_Free(PyObject *const *stack, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t n = PyTuple_GET_SIZE(kwnames) + nargs;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_DECREF(stack[i]);
    }
    PyMem_Free((PyObject **)stack - 1);
    Py_DECREF(kwnames);
}

/* ---- Calling through tp_call -------------------------------------------------------- */

static PyObject *
make_tp_call(PyThreadState *tstate, PyObject *callable, PyObject *const *args, Py_ssize_t nargs,
             PyObject *keywords)
{
    ternaryfunc call = Py_TYPE(callable)->tp_call;
    if (call == NULL) {
        return not_callable(tstate, callable);
    }
    PyObject *argstuple = _PyTuple_FromArray(args, nargs);
    if (argstuple == NULL) {
        return NULL;
    }
    PyObject *kwdict;
    if (keywords == NULL || (PyTuple_Check(keywords) && PyTuple_GET_SIZE(keywords) == 0)) {
        kwdict = NULL;
    }
    else if (PyTuple_Check(keywords)) {
        kwdict = _PyStack_AsDict(args + nargs, keywords);
        if (kwdict == NULL) {
            Py_DECREF(argstuple);
            return NULL;
        }
    }
    else {
        kwdict = Py_NewRef(keywords);
    }
    PyObject *result = NULL;
    if (_Py_EnterRecursiveCallTstate(tstate, " while calling a Python object") == 0) {
        result = call(callable, argstuple, kwdict);
        _Py_LeaveRecursiveCallTstate(tstate);
    }
    Py_DECREF(argstuple);
    Py_XDECREF(kwdict);
    return _Py_CheckFunctionResult(tstate, callable, result, NULL);
}

PyObject *
_PyObject_MakeTpCall(PyObject *callable, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames)
{
    return make_tp_call(_PyThreadState_GET(), callable, args, nargs, kwnames);
}

/* ---- Vectorcall entry points ---------------------------------------------------------- */

PyObject *
PyObject_Vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    return _PyObject_VectorcallTstate(_PyThreadState_GET(), callable, args, nargsf, kwnames);
}

PyObject *
_PyObject_FastCall(PyObject *callable, PyObject *const *args, Py_ssize_t nargs)
{
    return _PyObject_VectorcallTstate(_PyThreadState_GET(), callable, args, (size_t)nargs, NULL);
}

PyObject *
PyObject_CallNoArgs(PyObject *func)
{
    return _PyObject_VectorcallTstate(_PyThreadState_GET(), func, NULL, 0, NULL);
}

PyObject *
PyObject_CallOneArg(PyObject *func, PyObject *arg)
{
    PyObject *stack[2] = {NULL, arg};
    return _PyObject_VectorcallTstate(_PyThreadState_GET(), func, stack + 1,
                                      1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

PyObject *
_PyObject_FastCallDictTstate(PyThreadState *tstate, PyObject *callable, PyObject *const *args,
                             size_t nargsf, PyObject *kwargs)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    vectorcallfunc func = _PyVectorcall_FunctionInline(callable);
    if (func == NULL) {
        return make_tp_call(tstate, callable, args, nargs, kwargs);
    }
    PyObject *res;
    if (kwargs == NULL || PyDict_GET_SIZE(kwargs) == 0) {
        res = func(callable, args, nargsf, NULL);
    }
    else {
        PyObject *kwnames;
        PyObject *const *newargs;
        if (_PyStack_UnpackDict(tstate, args, nargs, kwargs, &newargs, &kwnames) < 0) {
            return NULL;
        }
        res = func(callable, newargs, (size_t)nargs | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
        _PyStack_UnpackDict_Free(newargs, nargs, kwnames);
    }
    return _Py_CheckFunctionResult(tstate, callable, res, NULL);
}

PyObject *
PyObject_VectorcallDict(PyObject *callable, PyObject *const *args, size_t nargsf,
                        PyObject *kwargs)
{
    return _PyObject_FastCallDictTstate(_PyThreadState_GET(), callable, args, nargsf, kwargs);
}

PyObject *
_PyVectorcall_Call(PyThreadState *tstate, vectorcallfunc func, PyObject *callable,
                   PyObject *tuple, PyObject *kwargs)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(tuple);
    PyObject *result;
    if (kwargs == NULL || PyDict_GET_SIZE(kwargs) == 0) {
        result = func(callable, _PyTuple_ITEMS(tuple), (size_t)nargs, NULL);
    }
    else {
        PyObject *kwnames;
        PyObject *const *args;
        if (_PyStack_UnpackDict(tstate, _PyTuple_ITEMS(tuple), nargs, kwargs, &args, &kwnames) < 0) {
            return NULL;
        }
        result = func(callable, args, (size_t)nargs | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
        _PyStack_UnpackDict_Free(args, nargs, kwnames);
    }
    return _Py_CheckFunctionResult(tstate, callable, result, NULL);
}

PyObject *
PyVectorcall_Call(PyObject *callable, PyObject *tuple, PyObject *kwargs)
{
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t offset = Py_TYPE(callable)->tp_vectorcall_offset;
    vectorcallfunc func = NULL;
    if (offset > 0) {
        memcpy(&func, (char *)callable + offset, sizeof(func));
    }
    if (func == NULL) {
        _PyErr_Format(tstate, PyExc_TypeError, "'%.200s' object does not support vectorcall",
                      Py_TYPE(callable)->tp_name);
        return NULL;
    }
    return _PyVectorcall_Call(tstate, func, callable, tuple, kwargs);
}

/* ---- Tuple-and-dict entry points --------------------------------------------------------- */

PyObject *
_PyObject_Call(PyThreadState *tstate, PyObject *callable, PyObject *args, PyObject *kwargs)
{
    vectorcallfunc vector_func = _PyVectorcall_FunctionInline(callable);
    if (vector_func != NULL) {
        return _PyVectorcall_Call(tstate, vector_func, callable, args, kwargs);
    }
    ternaryfunc call = Py_TYPE(callable)->tp_call;
    if (call == NULL) {
        return not_callable(tstate, callable);
    }
    if (_Py_EnterRecursiveCallTstate(tstate, " while calling a Python object")) {
        return NULL;
    }
    PyObject *result = call(callable, args, kwargs);
    _Py_LeaveRecursiveCallTstate(tstate);
    return _Py_CheckFunctionResult(tstate, callable, result, NULL);
}

PyObject *
PyObject_Call(PyObject *callable, PyObject *args, PyObject *kwargs)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (!PyTuple_Check(args)) {
        _PyErr_SetString(tstate, PyExc_TypeError, "argument list must be a tuple");
        return NULL;
    }
    if (kwargs != NULL && !PyDict_Check(kwargs)) {
        _PyErr_SetString(tstate, PyExc_TypeError, "keyword list must be a dictionary");
        return NULL;
    }
    return _PyObject_Call(tstate, callable, args, kwargs);
}

PyObject *
PyObject_CallObject(PyObject *callable, PyObject *args)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (args == NULL) {
        return _PyObject_CallNoArgsTstate(tstate, callable);
    }
    if (!PyTuple_Check(args)) {
        _PyErr_SetString(tstate, PyExc_TypeError, "argument list must be a tuple");
        return NULL;
    }
    return _PyObject_Call(tstate, callable, args, NULL);
}

/* ---- Prepending an argument -------------------------------------------------------------- */

PyObject *
_PyObject_Call_Prepend(PyThreadState *tstate, PyObject *callable, PyObject *obj, PyObject *args,
                       PyObject *kwargs)
{
    PyObject *small_stack[_PY_FASTCALL_SMALL_STACK];
    PyObject **stack;
    Py_ssize_t argcount = PyTuple_GET_SIZE(args);
    if (argcount + 1 <= (Py_ssize_t)Py_ARRAY_LENGTH(small_stack)) {
        stack = small_stack;
    }
    else {
        stack = PyMem_Malloc((size_t)(argcount + 1) * sizeof(PyObject *));
        if (stack == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    stack[0] = obj;
    memcpy(&stack[1], _PyTuple_ITEMS(args), (size_t)argcount * sizeof(PyObject *));
    PyObject *result = _PyObject_FastCallDictTstate(tstate, callable, stack, (size_t)argcount + 1,
                                                    kwargs);
    if (stack != small_stack) {
        PyMem_Free(stack);
    }
    return result;
}

PyObject *
_PyObject_VectorcallPrepend(PyThreadState *tstate, PyObject *callable, PyObject *arg,
                            PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargsf & PY_VECTORCALL_ARGUMENTS_OFFSET) {
        /* The caller lent us args[-1]. */
        PyObject **newargs = (PyObject **)args - 1;
        PyObject *tmp = newargs[0];
        newargs[0] = arg;
        PyObject *res = _PyObject_VectorcallTstate(tstate, callable, newargs, (size_t)nargs + 1,
                                                   kwnames);
        newargs[0] = tmp;
        return res;
    }
    Py_ssize_t total = nargs + nkw;
    PyObject *small_stack[_PY_FASTCALL_SMALL_STACK];
    PyObject **stack = small_stack;
    if (total + 2 > (Py_ssize_t)Py_ARRAY_LENGTH(small_stack)) {
        stack = PyMem_Malloc((size_t)(total + 2) * sizeof(PyObject *));
        if (stack == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    stack[1] = arg;
    if (total > 0) {
        memcpy(&stack[2], args, (size_t)total * sizeof(PyObject *));
    }
    PyObject *res = _PyObject_VectorcallTstate(tstate, callable, stack + 1,
                                               ((size_t)nargs + 1) | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                               kwnames);
    if (stack != small_stack) {
        PyMem_Free(stack);
    }
    return res;
}

/* ---- Methods ------------------------------------------------------------------------------ */

PyObject *
PyObject_VectorcallMethod(PyObject *name, PyObject *const *args, size_t nargsf,
                          PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *callable;
    int unbound = _PyObject_GetMethod(args[0], name, &callable);
    if (callable == NULL) {
        return NULL;
    }
    PyObject *result;
    if (unbound) {
        /* args[0] is the first argument of the plain function. */
        result = _PyObject_VectorcallTstate(tstate, callable, args, nargsf, kwnames);
    }
    else {
        /* Bound: drop args[0], which the callee may now borrow. */
        result = _PyObject_VectorcallTstate(tstate, callable, args + 1,
                                            (nargsf - 1) | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                            kwnames);
    }
    Py_DECREF(callable);
    return result;
}

PyObject *
PyObject_CallMethodNoArgs(PyObject *self, PyObject *name)
{
    return PyObject_VectorcallMethod(name, &self, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

PyObject *
PyObject_CallMethodOneArg(PyObject *self, PyObject *name, PyObject *arg)
{
    PyObject *args[2] = {self, arg};
    return PyObject_VectorcallMethod(name, args, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

/* ---- Calls with Py_BuildValue formats ------------------------------------------------------ */

static PyObject *
call_with_format(PyThreadState *tstate, PyObject *callable, const char *format, va_list va)
{
    if (format == NULL || *format == '\0') {
        return _PyObject_CallNoArgsTstate(tstate, callable);
    }
    PyObject *small_stack[_PY_FASTCALL_SMALL_STACK];
    Py_ssize_t nargs;
    PyObject **stack = _Py_VaBuildStack(small_stack, Py_ARRAY_LENGTH(small_stack), format, va,
                                        &nargs);
    if (stack == NULL) {
        return NULL;
    }
    PyObject *result;
    if (nargs == 1 && PyTuple_Check(stack[0])) {
        /* Historical rule: a format producing one tuple supplies all the
           arguments, so "O" with a tuple calls f(*tuple). */
        PyObject *args = stack[0];
        result = _PyObject_VectorcallTstate(tstate, callable, _PyTuple_ITEMS(args),
                                            (size_t)PyTuple_GET_SIZE(args), NULL);
    }
    else {
        result = _PyObject_VectorcallTstate(tstate, callable, stack, (size_t)nargs, NULL);
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        Py_DECREF(stack[i]);
    }
    if (stack != small_stack) {
        PyMem_Free(stack);
    }
    return result;
}

PyObject *
PyObject_CallFunction(PyObject *callable, const char *format, ...)
{
    PyThreadState *tstate = _PyThreadState_GET();
    va_list va;
    va_start(va, format);
    PyObject *result = call_with_format(tstate, callable, format, va);
    va_end(va);
    return result;
}

PyObject *
PyObject_CallMethod(PyObject *obj, const char *name, const char *format, ...)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (obj == NULL || name == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_BadInternalCall();
        }
        return NULL;
    }
    PyObject *callable = PyObject_GetAttrString(obj, name);
    if (callable == NULL) {
        return NULL;
    }
    va_list va;
    va_start(va, format);
    PyObject *result = call_with_format(tstate, callable, format, va);
    va_end(va);
    Py_DECREF(callable);
    return result;
}

PyObject *
_PyObject_CallMethod(PyObject *obj, PyObject *name, const char *format, ...)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *callable = PyObject_GetAttr(obj, name);
    if (callable == NULL) {
        return NULL;
    }
    va_list va;
    va_start(va, format);
    PyObject *result = call_with_format(tstate, callable, format, va);
    va_end(va);
    Py_DECREF(callable);
    return result;
}

/* ---- NULL-terminated argument lists ------------------------------------------------------- */

static Py_ssize_t
count_varargs(va_list va)
{
    Py_ssize_t n = 0;
    while (va_arg(va, PyObject *) != NULL) {
        n++;
    }
    return n;
}

/* Call `callable` with `first` (if not NULL) followed by the varargs. */
static PyObject *
call_with_varargs(PyThreadState *tstate, PyObject *callable, PyObject *first, va_list va)
{
    va_list countva;
    va_copy(countva, va);
    Py_ssize_t nargs = count_varargs(countva) + (first != NULL);
    va_end(countva);

    PyObject *small_stack[_PY_FASTCALL_SMALL_STACK];
    PyObject **stack = small_stack;
    if (nargs > (Py_ssize_t)Py_ARRAY_LENGTH(small_stack)) {
        stack = PyMem_Malloc((size_t)nargs * sizeof(PyObject *));
        if (stack == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    Py_ssize_t i = 0;
    if (first != NULL) {
        stack[i++] = first;
    }
    for (; i < nargs; i++) {
        stack[i] = va_arg(va, PyObject *);
    }
    PyObject *result = _PyObject_VectorcallTstate(tstate, callable, stack, (size_t)nargs, NULL);
    if (stack != small_stack) {
        PyMem_Free(stack);
    }
    return result;
}

PyObject *
PyObject_CallFunctionObjArgs(PyObject *callable, ...)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (callable == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_BadInternalCall();
        }
        return NULL;
    }
    va_list va;
    va_start(va, callable);
    PyObject *result = call_with_varargs(tstate, callable, NULL, va);
    va_end(va);
    return result;
}

PyObject *
PyObject_CallMethodObjArgs(PyObject *obj, PyObject *name, ...)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (obj == NULL || name == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_BadInternalCall();
        }
        return NULL;
    }
    PyObject *callable;
    int unbound = _PyObject_GetMethod(obj, name, &callable);
    if (callable == NULL) {
        return NULL;
    }
    va_list va;
    va_start(va, name);
    PyObject *result = call_with_varargs(tstate, callable, unbound ? obj : NULL, va);
    va_end(va);
    Py_DECREF(callable);
    return result;
}
