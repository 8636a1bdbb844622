/* Out-of-line slow paths of instructions (see Python/bytecodes.c).

   Each helper takes the thread state and plain object pointers, and none
   needs the caller's frame object: the JIT calls the same helpers without
   materialising frames.  The few that read a frame's namespaces (LOAD_NAME
   and friends) take the interpreter frame, never a PyFrameObject. */

#include "Python.h"
#include "pycore_instruments.h"
#include "pycore_call.h"
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_dict.h"
#include "pycore_exceptions.h"
#include "pycore_frame.h"
#include "pycore_genobject.h"
#include "pycore_object.h"
#include "pycore_opcode_utils.h"
#include "pycore_pystate.h"
#include "pycore_typing.h"

/* ---- Interned names ------------------------------------------------------------ */

static PyObject *
interned(PyObject **slot, const char *name)
{
    if (*slot == NULL) {
        *slot = PyUnicode_InternFromString(name);
    }
    return *slot;
}

#define NAME_GETTER(FUNC, TEXT)           \
    PyObject *FUNC(void)                  \
    {                                     \
        static PyObject *cached;          \
        return interned(&cached, TEXT);   \
    }

NAME_GETTER(_PyEval_BuiltinsName, "__builtins__")
NAME_GETTER(_PyEval_BuiltinsModuleName, "builtins")
static NAME_GETTER(build_class_name, "__build_class__")
static NAME_GETTER(annotations_name, "__annotations__")
static NAME_GETTER(name_name, "__name__")

/* ---- Constants, operators ------------------------------------------------------- */

PyObject *
_PyEval_CommonConstant(int index)
{
    switch (index) {
    case CONSTANT_ASSERTIONERROR:
        return PyExc_AssertionError;
    case CONSTANT_NOTIMPLEMENTEDERROR:
        return PyExc_NotImplementedError;
    case CONSTANT_BUILTIN_TUPLE:
        return (PyObject *)&PyTuple_Type;
    case CONSTANT_BUILTIN_ALL:
    case CONSTANT_BUILTIN_ANY: {
        PyObject *builtins = _PyEval_GetBuiltins(_PyThreadState_GET());
        PyObject *f = PyDict_GetItemString(builtins, index == CONSTANT_BUILTIN_ALL ? "all" : "any");
        return f ? f : Py_None;
    }
    default:
        Py_UNREACHABLE();
    }
}

static PyObject *
binary_subscr(PyObject *container, PyObject *sub)
{
    return PyObject_GetItem(container, sub);
}

static PyObject *
power_no_mod(PyObject *lhs, PyObject *rhs)
{
    return PyNumber_Power(lhs, rhs, Py_None);
}

static PyObject *
inplace_power_no_mod(PyObject *lhs, PyObject *rhs)
{
    return PyNumber_InPlacePower(lhs, rhs, Py_None);
}

/* Indexed by BINARY_OP's oparg (NB_*). */
const binaryfunc _PyEval_BinaryOps[] = {
    [NB_ADD] = PyNumber_Add,
    [NB_AND] = PyNumber_And,
    [NB_FLOOR_DIVIDE] = PyNumber_FloorDivide,
    [NB_LSHIFT] = PyNumber_Lshift,
    [NB_MATRIX_MULTIPLY] = PyNumber_MatrixMultiply,
    [NB_MULTIPLY] = PyNumber_Multiply,
    [NB_REMAINDER] = PyNumber_Remainder,
    [NB_OR] = PyNumber_Or,
    [NB_POWER] = power_no_mod,
    [NB_RSHIFT] = PyNumber_Rshift,
    [NB_SUBTRACT] = PyNumber_Subtract,
    [NB_TRUE_DIVIDE] = PyNumber_TrueDivide,
    [NB_XOR] = PyNumber_Xor,
    [NB_INPLACE_ADD] = PyNumber_InPlaceAdd,
    [NB_INPLACE_AND] = PyNumber_InPlaceAnd,
    [NB_INPLACE_FLOOR_DIVIDE] = PyNumber_InPlaceFloorDivide,
    [NB_INPLACE_LSHIFT] = PyNumber_InPlaceLshift,
    [NB_INPLACE_MATRIX_MULTIPLY] = PyNumber_InPlaceMatrixMultiply,
    [NB_INPLACE_MULTIPLY] = PyNumber_InPlaceMultiply,
    [NB_INPLACE_REMAINDER] = PyNumber_InPlaceRemainder,
    [NB_INPLACE_OR] = PyNumber_InPlaceOr,
    [NB_INPLACE_POWER] = inplace_power_no_mod,
    [NB_INPLACE_RSHIFT] = PyNumber_InPlaceRshift,
    [NB_INPLACE_SUBTRACT] = PyNumber_InPlaceSubtract,
    [NB_INPLACE_TRUE_DIVIDE] = PyNumber_InPlaceTrueDivide,
    [NB_INPLACE_XOR] = PyNumber_InPlaceXor,
    [NB_SUBSCR] = binary_subscr,
};


/* ---- Iteration ------------------------------------------------------------------- */

PyObject *
_PyEval_GetIter(PyThreadState *tstate, PyObject *iterable, int yield_from)
{
    if (yield_from && PyCoro_CheckExact(iterable)) {
        /* Only a generator-based coroutine (types.coroutine) may delegate
           to a coroutine. */
        int flags = _PyFrame_GetCode(tstate->current_frame)->co_flags;
        if (!(flags & (CO_COROUTINE | CO_ITERABLE_COROUTINE))) {
            _PyErr_SetString(tstate, PyExc_TypeError,
                             "cannot 'yield from' a coroutine object in a non-coroutine generator");
            return NULL;
        }
        return Py_NewRef(iterable);
    }
    return PyObject_GetIter(iterable);
}

int
_PyEval_IterNext(PyThreadState *tstate, PyObject *iter, PyObject **item)
{
    iternextfunc next = Py_TYPE(iter)->tp_iternext;
    if (next == NULL) {
        _PyErr_Format(tstate, PyExc_TypeError, "'%.200s' object is not an iterator",
                      Py_TYPE(iter)->tp_name);
        return -1;
    }
    PyObject *res = next(iter);
    if (res != NULL) {
        *item = res;
        return 1;
    }
    if (_PyErr_Occurred(tstate)) {
        if (!_PyErr_ExceptionMatches(tstate, PyExc_StopIteration)) {
            return -1;
        }
        /* Tools see the StopIteration the loop swallows. */
        _PyInterpreterFrame *frame = tstate->current_frame;
        if (frame != NULL && frame->owner != FRAME_OWNED_BY_INTERPRETER &&
            _PyMonitoring_CodeWants(_PyFrame_GetCode(frame), PY_MONITORING_EVENT_RAISE)) {
            _PyMonitoring_FireException(tstate, frame, frame->instr_ptr, PY_MONITORING_EVENT_RAISE);
            if (!_PyErr_ExceptionMatches(tstate, PyExc_StopIteration)) {
                return -1;
            }
        }
        _PyErr_Clear(tstate);
    }
    return 0;
}

/* ---- Functions ---------------------------------------------------------------------- */

void
_PyEval_SetFunctionAttribute(PyFunctionObject *func, int flag, PyObject *attr)
{
    switch (flag) {
    case MAKE_FUNCTION_CLOSURE:
        Py_XSETREF(func->func_closure, attr);
        break;
    case MAKE_FUNCTION_ANNOTATIONS:
        Py_XSETREF(func->func_annotations, attr);
        break;
    case MAKE_FUNCTION_KWDEFAULTS:
        Py_XSETREF(func->func_kwdefaults, attr);
        break;
    case MAKE_FUNCTION_DEFAULTS:
        Py_XSETREF(func->func_defaults, attr);
        break;
    case MAKE_FUNCTION_ANNOTATE:
        Py_XSETREF(func->func_annotate, attr);
        break;
    default:
        Py_UNREACHABLE();
    }
}

/* The argument array a vectorcall takes, borrowed from stack refs, with
   a spare slot in front so callees may use PY_VECTORCALL_ARGUMENTS_OFFSET:
   in `inline_buf` (ARGV_INLINE slots) when it fits, else in a new block. */
#define ARGV_INLINE 9

static PyObject **
borrowed_argv(_PyStackRef *args, Py_ssize_t total, PyObject **inline_buf)
{
    PyObject **buf = inline_buf;
    if (total + 1 > ARGV_INLINE) {
        buf = PyMem_Malloc((size_t)(total + 1) * sizeof(PyObject *));
        if (buf == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    buf[0] = NULL;
    for (Py_ssize_t i = 0; i < total; i++) {
        buf[i + 1] = PyStackRef_AsPyObjectBorrow(args[i]);
    }
    return buf + 1;
}

PyObject *
_PyEval_VectorcallStackRefs(PyThreadState *tstate, PyObject *callable, _PyStackRef *args,
                            int nargs, PyObject *kwnames)
{
    (void)tstate;
    PyObject *inline_buf[ARGV_INLINE];
    PyObject **argv = borrowed_argv(args, nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0), inline_buf);
    if (argv == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_Vectorcall(callable, argv, (size_t)nargs | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                        kwnames);
    if (argv - 1 != inline_buf) {
        PyMem_Free(argv - 1);
    }
    return res;
}

/* CALL_BUILTIN_CLASS: `fn` is the callable's own vectorcall function, known
   by the guards, called without looking it up again (positional
   arguments only). */
PyObject *
_PyEval_CallVectorcallFunction(PyThreadState *tstate, vectorcallfunc fn, PyObject *callable,
                               _PyStackRef *args, int nargs)
{
    PyObject *inline_buf[ARGV_INLINE];
    PyObject **argv = borrowed_argv(args, nargs, inline_buf);
    if (argv == NULL) {
        return NULL;
    }
    PyObject *res = fn(callable, argv, (size_t)nargs | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    if (argv - 1 != inline_buf) {
        PyMem_Free(argv - 1);
    }
    return _Py_CheckFunctionResult(tstate, callable, res, NULL);
}

/* Vectorcall, then release the callable and every argument (positional
   and keyword values).  Used by CALL and CALL_KW. */
PyObject *
_PyEval_VectorcallAndClose(PyThreadState *tstate, _PyStackRef callable, _PyStackRef *args,
                           int nargs, PyObject *kwnames)
{
    PyObject *res = _PyEval_VectorcallStackRefs(tstate, PyStackRef_AsPyObjectBorrow(callable), args,
                                                nargs, kwnames);
    int total = nargs + (kwnames ? (int)PyTuple_GET_SIZE(kwnames) : 0);
    PyStackRef_CLOSE(callable);
    for (int i = 0; i < total; i++) {
        PyStackRef_CLOSE(args[i]);
    }
    return res;
}

PyObject *
_PyEval_CallFunctionEx(PyThreadState *tstate, PyObject *func, PyObject *self, PyObject *callargs,
                       PyObject *kwargs)
{
    PyObject *args_tuple;
    if (PyTuple_CheckExact(callargs) && self == NULL) {
        args_tuple = Py_NewRef(callargs);
    }
    else {
        PyObject *seq = PySequence_Tuple(callargs);
        if (seq == NULL) {
            if (_PyErr_ExceptionMatches(tstate, PyExc_TypeError) && !PyIter_Check(callargs) &&
                Py_TYPE(callargs)->tp_iter == NULL && !PySequence_Check(callargs)) {
                _PyErr_Clear(tstate);
                PyObject *funcstr = _PyObject_FunctionStr(func);
                if (funcstr != NULL) {
                    _PyErr_Format(tstate, PyExc_TypeError,
                                  "%U argument after * must be an iterable, not %.200s",
                                  funcstr, Py_TYPE(callargs)->tp_name);
                    Py_DECREF(funcstr);
                }
            }
            return NULL;
        }
        if (self != NULL) {
            Py_ssize_t n = PyTuple_GET_SIZE(seq);
            args_tuple = PyTuple_New(n + 1);
            if (args_tuple == NULL) {
                Py_DECREF(seq);
                return NULL;
            }
            PyTuple_SET_ITEM(args_tuple, 0, Py_NewRef(self));
            for (Py_ssize_t i = 0; i < n; i++) {
                PyTuple_SET_ITEM(args_tuple, i + 1, Py_NewRef(PyTuple_GET_ITEM(seq, i)));
            }
            Py_DECREF(seq);
        }
        else {
            args_tuple = seq;
        }
    }
    PyObject *kw = NULL;
    if (kwargs != NULL) {
        if (PyDict_CheckExact(kwargs)) {
            kw = Py_NewRef(kwargs);
        }
        else {
            kw = PyDict_New();
            if (kw == NULL || _PyEval_DictMerge(tstate, func, kw, kwargs) < 0) {
                Py_XDECREF(kw);
                Py_DECREF(args_tuple);
                return NULL;
            }
        }
    }
    PyObject *res = PyObject_Call(func, args_tuple, kw);
    Py_DECREF(args_tuple);
    Py_XDECREF(kw);
    return res;
}

/* ---- Intrinsics ------------------------------------------------------------------- */

static PyObject *
print_expr(PyThreadState *tstate, PyObject *value)
{
    /* sys.displayhook decides what to show (it skips None itself). */
    PyObject *hook = PyDict_GetItemString(tstate->interp->sysdict, "displayhook");
    if (hook == NULL) {
        _PyErr_SetString(tstate, PyExc_RuntimeError, "lost sys.displayhook");
        return NULL;
    }
    return PyObject_CallOneArg(hook, value);
}

static PyObject *
import_star(PyThreadState *tstate, PyObject *module)
{
    _PyInterpreterFrame *frame = tstate->current_frame;
    PyObject *locals = frame->f_locals;
    if (locals == NULL) {
        _PyErr_SetString(tstate, PyExc_SystemError, "no locals found during 'import *'");
        return NULL;
    }
    PyObject *all = NULL;
    if (PyObject_GetOptionalAttrString(module, "__all__", &all) < 0) {
        return NULL;
    }
    int skip_underscore = 0;
    if (all == NULL) {
        PyObject *dict = NULL;
        if (PyObject_GetOptionalAttrString(module, "__dict__", &dict) < 0) {
            return NULL;
        }
        if (dict == NULL) {
            _PyErr_SetString(tstate, PyExc_ImportError,
                             "from-import-* object has no __dict__ and no __all__");
            return NULL;
        }
        all = PyMapping_Keys(dict);
        Py_DECREF(dict);
        if (all == NULL) {
            return NULL;
        }
        skip_underscore = 1;
    }
    PyObject *iter = PyObject_GetIter(all);
    Py_DECREF(all);
    if (iter == NULL) {
        return NULL;
    }
    PyObject *name;
    int err = 0;
    while (err == 0 && (name = PyIter_Next(iter)) != NULL) {
        if (skip_underscore && PyUnicode_Check(name) && PyUnicode_READ_CHAR(name, 0) == '_') {
            Py_DECREF(name);
            continue;
        }
        PyObject *value = PyObject_GetAttr(module, name);
        if (value == NULL) {
            err = -1;
        }
        else {
            err = PyObject_SetItem(locals, name, value);
            Py_DECREF(value);
        }
        Py_DECREF(name);
    }
    Py_DECREF(iter);
    if (err < 0 || PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* PEP 479 and PEP 525: a StopIteration escaping a generator or
   coroutine, or a StopAsyncIteration escaping an async generator, would
   look like its normal end to whoever drives it; it becomes a
   RuntimeError with the original as its cause. */
static PyObject *
stop_iteration_error(PyThreadState *tstate, PyObject *value)
{
    int flags = _PyFrame_GetCode(tstate->current_frame)->co_flags;
    const char *kind = (flags & CO_ASYNC_GENERATOR) ? "async generator"
                       : (flags & CO_COROUTINE)     ? "coroutine"
                                                    : "generator";
    const char *escaped = NULL;
    if (PyErr_GivenExceptionMatches(value, PyExc_StopIteration)) {
        escaped = "StopIteration";
    }
    else if ((flags & CO_ASYNC_GENERATOR) &&
             PyErr_GivenExceptionMatches(value, PyExc_StopAsyncIteration)) {
        escaped = "StopAsyncIteration";
    }
    if (escaped == NULL) {
        return Py_NewRef(value);
    }
    PyObject *msg = PyUnicode_FromFormat("%s raised %s", kind, escaped);
    if (msg == NULL) {
        return NULL;
    }
    PyObject *err = PyObject_CallOneArg(PyExc_RuntimeError, msg);
    Py_DECREF(msg);
    if (err == NULL) {
        return NULL;
    }
    PyException_SetCause(err, Py_NewRef(value));
    PyException_SetContext(err, Py_NewRef(value));
    return err;
}

PyObject *
_PyEval_CallIntrinsic1(PyThreadState *tstate, int oparg, PyObject *value)
{
    switch (oparg) {
    case INTRINSIC_PRINT:
        return print_expr(tstate, value);
    case INTRINSIC_IMPORT_STAR:
        return import_star(tstate, value);
    case INTRINSIC_STOPITERATION_ERROR:
        return stop_iteration_error(tstate, value);
    case INTRINSIC_ASYNC_GEN_WRAP:
        return _PyAsyncGen_WrapValue(value);
    case INTRINSIC_UNARY_POSITIVE:
        return PyNumber_Positive(value);
    case INTRINSIC_LIST_TO_TUPLE:
        return PyList_AsTuple(value);
    case INTRINSIC_TYPEVAR:
        return _Py_make_typevar(value, NULL, NULL);
    case INTRINSIC_PARAMSPEC:
        return _Py_make_paramspec(value);
    case INTRINSIC_TYPEVARTUPLE:
        return _Py_make_typevartuple(value);
    case INTRINSIC_SUBSCRIPT_GENERIC:
        return _Py_subscript_generic(value);
    case INTRINSIC_TYPEALIAS:
        return _Py_make_typealias(value);
    default:
        _PyErr_Format(tstate, PyExc_SystemError, "intrinsic %d is not supported yet", oparg);
        return NULL;
    }
}

PyObject *
_PyEval_CallIntrinsic2(PyThreadState *tstate, int oparg, PyObject *value2, PyObject *value1)
{
    switch (oparg) {
    case INTRINSIC_PREP_RERAISE_STAR:
        /* value2: the exception group that entered except*; value1: the
           list of what each clause raised or re-raised. */
        return _PyExc_PrepReraiseStar(value2, value1);
    /* PEP 695: value2 is the parameter's name (or the parameter, or the
       function), value1 the function computing its bound, constraints or
       default on first use (or the type parameter tuple). */
    case INTRINSIC_TYPEVAR_WITH_BOUND:
        return _Py_make_typevar(value2, value1, NULL);
    case INTRINSIC_TYPEVAR_WITH_CONSTRAINTS:
        return _Py_make_typevar(value2, NULL, value1);
    case INTRINSIC_SET_TYPEPARAM_DEFAULT:
        return _Py_set_typeparam_default(value2, value1);
    case INTRINSIC_SET_FUNCTION_TYPE_PARAMS:
        if (PyObject_SetAttrString(value2, "__type_params__", value1) < 0) {
            return NULL;
        }
        return Py_NewRef(value2);
    default:
        _PyErr_Format(tstate, PyExc_SystemError, "intrinsic2 %d is not supported yet", oparg);
        return NULL;
    }
}

/* ---- Names ---------------------------------------------------------------------------- */

void
_PyEval_FormatExcCheckArg(PyThreadState *tstate, PyObject *exc, const char *format_str, PyObject *obj)
{
    if (obj == NULL) {
        return;
    }
    const char *name = PyUnicode_AsUTF8(obj);
    if (name == NULL) {
        return;
    }
    _PyErr_Format(tstate, exc, format_str, name);
    if (exc == PyExc_NameError || exc == PyExc_UnboundLocalError) {
        PyObject *raised = _PyErr_GetRaisedException(tstate);
        if (raised != NULL && PyObject_SetAttrString(raised, "name", obj) < 0) {
            PyErr_Clear();
        }
        _PyErr_SetRaisedException(tstate, raised);
    }
}

void
_PyEval_FormatExcUnbound(PyThreadState *tstate, PyCodeObject *co, int oparg)
{
    if (_PyErr_Occurred(tstate)) {
        return;
    }
    PyObject *name = PyTuple_GET_ITEM(co->co_localsplusnames, oparg);
    if (oparg < co->co_nlocalsplus - co->co_nfreevars &&
        !(_PyLocals_GetKind(co->co_localspluskinds, oparg) & CO_FAST_FREE)) {
        _PyEval_FormatExcCheckArg(tstate, PyExc_UnboundLocalError,
            "cannot access local variable '%s' where it is not associated with a value", name);
    }
    else {
        _PyEval_FormatExcCheckArg(tstate, PyExc_NameError,
            "cannot access free variable '%s' where it is not associated with a value in enclosing scope",
            name);
    }
}

static PyObject *
name_error(PyThreadState *tstate, PyObject *name)
{
    _PyEval_FormatExcCheckArg(tstate, PyExc_NameError, "name '%.200s' is not defined", name);
    return NULL;
}

/* New reference, or NULL with NameError (or another error) set. */
PyObject *
_PyEval_LoadGlobal(PyThreadState *tstate, PyObject *globals, PyObject *builtins, PyObject *name)
{
    PyObject *v;
    if (PyDict_CheckExact(globals) && PyDict_CheckExact(builtins)) {
        if (PyDict_GetItemRef(globals, name, &v) != 0) {
            return v;
        }
        if (PyDict_GetItemRef(builtins, name, &v) != 0) {
            return v;
        }
        return name_error(tstate, name);
    }
    if (PyMapping_GetOptionalItem(globals, name, &v) != 0) {
        return v;
    }
    if (PyMapping_GetOptionalItem(builtins, name, &v) != 0) {
        return v;
    }
    return name_error(tstate, name);
}

/* The value found (a new reference) as the stack's, or -1. */
static int
found_or_error(PyObject *value, _PyStackRef *result)
{
    if (value == NULL) {
        return -1;
    }
    *result = PyStackRef_FromPyObjectSteal(value);
    return 0;
}

/* `namespace`, then the module's globals, then the builtins. */
static PyObject *
lookup_through(PyThreadState *tstate, PyObject *namespace, PyObject *globals, PyObject *builtins,
               PyObject *name)
{
    PyObject *value;
    int status = PyMapping_GetOptionalItem(namespace, name, &value);
    if (status == 0) {
        return _PyEval_LoadGlobal(tstate, globals, builtins, name);
    }
    return status > 0 ? value : NULL;
}

int
_PyEval_LoadName(PyThreadState *tstate, PyObject *locals, PyObject *globals, PyObject *builtins,
                 PyObject *name, _PyStackRef *result)
{
    if (locals == NULL) {
        _PyErr_Format(tstate, PyExc_SystemError, "no locals found when loading %R", name);
        return -1;
    }
    return found_or_error(lookup_through(tstate, locals, globals, builtins, name), result);
}

int
_PyEval_LoadFromDictOrGlobals(PyThreadState *tstate, PyObject *dict, PyObject *globals,
                              PyObject *builtins, PyObject *name, _PyStackRef *result)
{
    return found_or_error(lookup_through(tstate, dict, globals, builtins, name), result);
}

PyObject *
_PyEval_LoadFromDictOrDeref(PyThreadState *tstate, PyObject *dict, PyCodeObject *code,
                            PyObject *cell, int oparg)
{
    PyObject *name = PyTuple_GET_ITEM(code->co_localsplusnames, oparg);
    PyObject *v;
    if (PyMapping_GetOptionalItem(dict, name, &v) != 0) {
        return v;
    }
    v = PyCell_GET(cell);
    if (v == NULL) {
        _PyEval_FormatExcUnbound(tstate, code, oparg);
        return NULL;
    }
    return Py_NewRef(v);
}

PyObject *
_PyEval_LoadBuildClass(PyThreadState *tstate, PyObject *builtins)
{
    PyObject *bc;
    if (PyMapping_GetOptionalItem(builtins, build_class_name(), &bc) == 0) {
        _PyErr_SetString(tstate, PyExc_NameError, "__build_class__ not found");
    }
    return bc;
}

int
_PyEval_SetupAnnotations(PyThreadState *tstate, PyObject *locals)
{
    if (locals == NULL) {
        _PyErr_SetString(tstate, PyExc_SystemError, "no locals found when setting up annotations");
        return -1;
    }
    PyObject *ann;
    int r = PyMapping_GetOptionalItem(locals, annotations_name(), &ann);
    if (r < 0) {
        return -1;
    }
    if (r > 0) {
        Py_DECREF(ann);
        return 0;
    }
    ann = PyDict_New();
    if (ann == NULL) {
        return -1;
    }
    int err = PyObject_SetItem(locals, annotations_name(), ann);
    Py_DECREF(ann);
    return err;
}

/* ---- Attributes ------------------------------------------------------------------------ */

PyObject *
_PyEval_LoadSuperAttr(PyThreadState *tstate, PyObject *global_super, PyObject *class, PyObject *self,
                      PyObject *name, int oparg)
{
    (void)tstate;
    PyObject *super;
    if (oparg & 2) {
        PyObject *stack[2] = {class, self};
        super = PyObject_Vectorcall(global_super, stack, 2, NULL);
    }
    else {
        super = PyObject_CallNoArgs(global_super);
    }
    if (super == NULL) {
        return NULL;
    }
    PyObject *attr = PyObject_GetAttr(super, name);
    Py_DECREF(super);
    return attr;
}

static const char *const special_names[] = {
    [SPECIAL___ENTER__] = "__enter__",
    [SPECIAL___EXIT__] = "__exit__",
    [SPECIAL___AENTER__] = "__aenter__",
    [SPECIAL___AEXIT__] = "__aexit__",
};

PyObject *
_PyEval_LoadSpecial(PyThreadState *tstate, PyObject *owner, int which, PyObject **self_or_null)
{
    PyObject *name = PyUnicode_InternFromString(special_names[which]);
    if (name == NULL) {
        return NULL;
    }
    PyObject *descr = _PyType_LookupRef(Py_TYPE(owner), name);
    if (descr == NULL) {
        if (!_PyErr_Occurred(tstate)) {
            const char *what = (which == SPECIAL___ENTER__ || which == SPECIAL___EXIT__)
                                   ? "the context manager protocol"
                                   : "the asynchronous context manager protocol";
            /* With the entry method present, say which half is missing. */
            const char *missed = "";
            if (which == SPECIAL___EXIT__ || which == SPECIAL___AEXIT__) {
                PyObject *entry = PyUnicode_InternFromString(
                    special_names[which == SPECIAL___EXIT__ ? SPECIAL___ENTER__ : SPECIAL___AENTER__]);
                PyObject *found = entry ? _PyType_LookupRef(Py_TYPE(owner), entry) : NULL;
                if (found != NULL) {
                    missed = which == SPECIAL___EXIT__ ? " (missed __exit__ method)"
                                                       : " (missed __aexit__ method)";
                }
                Py_XDECREF(found);
                Py_XDECREF(entry);
            }
            _PyErr_Format(tstate, PyExc_TypeError, "'%.200s' object does not support %s%s",
                          Py_TYPE(owner)->tp_name, what, missed);
        }
        Py_DECREF(name);
        return NULL;
    }
    Py_DECREF(name);
    descrgetfunc get = Py_TYPE(descr)->tp_descr_get;
    if (PyFunction_Check(descr) || get == NULL) {
        if (get == NULL) {
            *self_or_null = NULL;
            return descr;
        }
        *self_or_null = Py_NewRef(owner);
        return descr;
    }
    PyObject *bound = get(descr, owner, (PyObject *)Py_TYPE(owner));
    Py_DECREF(descr);
    *self_or_null = NULL;
    return bound;
}

/* ---- Building values ----------------------------------------------------------------------- */

PyObject *
_PyEval_TupleFromStackRefsSteal(_PyStackRef *values, int n)
{
    PyObject *tup = PyTuple_New(n);
    if (tup == NULL) {
        for (int i = 0; i < n; i++) {
            PyStackRef_CLOSE(values[i]);
        }
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyTuple_SET_ITEM(tup, i, PyStackRef_AsPyObjectSteal(values[i]));
    }
    return tup;
}

PyObject *
_PyEval_ListFromStackRefsSteal(_PyStackRef *values, int n)
{
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        for (int i = 0; i < n; i++) {
            PyStackRef_CLOSE(values[i]);
        }
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyList_SET_ITEM(list, i, PyStackRef_AsPyObjectSteal(values[i]));
    }
    return list;
}

PyObject *
_PyEval_SetFromStackRefsSteal(_PyStackRef *values, int n)
{
    PyObject *set = PySet_New(NULL);
    int err = set == NULL ? -1 : 0;
    for (int i = 0; i < n; i++) {
        if (err == 0) {
            err = PySet_Add(set, PyStackRef_AsPyObjectBorrow(values[i]));
        }
        PyStackRef_CLOSE(values[i]);
    }
    if (err != 0) {
        Py_XDECREF(set);
        return NULL;
    }
    return set;
}

PyObject *
_PyEval_DictFromStackRefsSteal(_PyStackRef *values, int npairs)
{
    PyObject *dict = _PyDict_NewPresized(npairs);
    int err = dict == NULL ? -1 : 0;
    for (int i = 0; i < npairs; i++) {
        if (err == 0) {
            err = PyDict_SetItem(dict, PyStackRef_AsPyObjectBorrow(values[2 * i]),
                                 PyStackRef_AsPyObjectBorrow(values[2 * i + 1]));
        }
        PyStackRef_CLOSE(values[2 * i]);
        PyStackRef_CLOSE(values[2 * i + 1]);
    }
    if (err != 0) {
        Py_XDECREF(dict);
        return NULL;
    }
    return dict;
}

PyObject *
_PyEval_StringFromStackRefsSteal(_PyStackRef *pieces, int n)
{
    PyObject *small[16];
    PyObject **objs = small;
    if (n > (int)Py_ARRAY_LENGTH(small)) {
        objs = PyMem_Malloc((size_t)n * sizeof(PyObject *));
        if (objs == NULL) {
            for (int i = 0; i < n; i++) {
                PyStackRef_CLOSE(pieces[i]);
            }
            return PyErr_NoMemory();
        }
    }
    for (int i = 0; i < n; i++) {
        objs[i] = PyStackRef_AsPyObjectBorrow(pieces[i]);
    }
    PyObject *empty = PyUnicode_FromStringAndSize("", 0);
    PyObject *str = empty ? _PyUnicode_JoinArray(empty, objs, n) : NULL;
    Py_XDECREF(empty);
    for (int i = 0; i < n; i++) {
        PyStackRef_CLOSE(pieces[i]);
    }
    if (objs != small) {
        PyMem_Free(objs);
    }
    return str;
}

int
_PyEval_ListExtend(PyThreadState *tstate, PyObject *list, PyObject *iterable)
{
    PyObject *none_val = _PyList_Extend((PyListObject *)list, iterable);
    if (none_val == NULL) {
        if (_PyErr_ExceptionMatches(tstate, PyExc_TypeError) && Py_TYPE(iterable)->tp_iter == NULL &&
            !PySequence_Check(iterable)) {
            _PyErr_Clear(tstate);
            _PyErr_Format(tstate, PyExc_TypeError, "Value after * must be an iterable, not %.200s",
                          Py_TYPE(iterable)->tp_name);
        }
        return -1;
    }
    Py_DECREF(none_val);
    return 0;
}

int
_PyEval_DictUpdate(PyThreadState *tstate, PyObject *dict, PyObject *update)
{
    if (PyDict_Update(dict, update) < 0) {
        if (_PyErr_ExceptionMatches(tstate, PyExc_AttributeError)) {
            _PyErr_Clear(tstate);
            _PyErr_Format(tstate, PyExc_TypeError, "'%.200s' object is not a mapping",
                          Py_TYPE(update)->tp_name);
        }
        return -1;
    }
    return 0;
}

/* f(**a, **b): merge b into the call's kwargs; a duplicate key is an
   error naming the callee ("__main__.f()", "dict()"). */
int
_PyEval_DictMerge(PyThreadState *tstate, PyObject *callable, PyObject *dict, PyObject *update)
{
    if (_PyDict_MergeEx(dict, update, 2) == 0) {
        return 0;
    }
    PyObject *funcstr = NULL;
    if (_PyErr_ExceptionMatches(tstate, PyExc_AttributeError)) {
        _PyErr_Clear(tstate);
        funcstr = _PyObject_FunctionStr(callable);
        if (funcstr != NULL) {
            _PyErr_Format(tstate, PyExc_TypeError, "%U argument after ** must be a mapping, not %.200s",
                          funcstr, Py_TYPE(update)->tp_name);
        }
    }
    else if (_PyErr_ExceptionMatches(tstate, PyExc_KeyError)) {
        PyObject *exc = _PyErr_GetRaisedException(tstate);
        PyObject *args = PyException_GetArgs(exc);
        if (args && PyTuple_Check(args) && PyTuple_GET_SIZE(args) == 1 &&
            (funcstr = _PyObject_FunctionStr(callable)) != NULL) {
            PyObject *key = PyTuple_GET_ITEM(args, 0);
            if (PyUnicode_Check(key)) {
                _PyErr_Format(tstate, PyExc_TypeError, "%U got multiple values for keyword argument '%S'",
                              funcstr, key);
            }
            else {
                _PyErr_Format(tstate, PyExc_TypeError, "%U keywords must be strings", funcstr);
            }
            Py_DECREF(exc);
        }
        else {
            _PyErr_SetRaisedException(tstate, exc);
        }
        Py_XDECREF(args);
    }
    Py_XDECREF(funcstr);
    return -1;
}

/* Unpack `v` into argcnt items (and, when argcntafter >= 0, a list of the
   middle plus argcntafter more), storing them below `sp` in reverse order
   as UNPACK_SEQUENCE/UNPACK_EX define.  Returns 1 on success, 0 on error. */
int
_PyEval_UnpackIterableStackRef(PyThreadState *tstate, PyObject *v, int argcnt, int argcntafter,
                               _PyStackRef *sp)
{
    int i = 0, j = 0;
    Py_ssize_t ll = 0;
    PyObject *it;
    PyObject *w;
    PyObject *l = NULL;

    it = PyObject_GetIter(v);
    if (it == NULL) {
        if (_PyErr_ExceptionMatches(tstate, PyExc_TypeError) && Py_TYPE(v)->tp_iter == NULL &&
            !PySequence_Check(v)) {
            _PyErr_Format(tstate, PyExc_TypeError, "cannot unpack non-iterable %.200s object",
                          Py_TYPE(v)->tp_name);
        }
        return 0;
    }
    for (; i < argcnt; i++) {
        w = PyIter_Next(it);
        if (w == NULL) {
            if (!_PyErr_Occurred(tstate)) {
                if (argcntafter == -1) {
                    _PyErr_Format(tstate, PyExc_ValueError,
                                  "not enough values to unpack (expected %d, got %d)", argcnt, i);
                }
                else {
                    _PyErr_Format(tstate, PyExc_ValueError,
                                  "not enough values to unpack (expected at least %d, got %d)",
                                  argcnt + argcntafter, i);
                }
            }
            goto error;
        }
        *--sp = PyStackRef_FromPyObjectSteal(w);
    }
    if (argcntafter == -1) {
        w = PyIter_Next(it);
        if (w == NULL) {
            if (_PyErr_Occurred(tstate)) {
                goto error;
            }
            Py_DECREF(it);
            return 1;
        }
        Py_DECREF(w);
        if (PyList_CheckExact(v) || PyTuple_CheckExact(v) || PyDict_CheckExact(v)) {
            ll = PyDict_CheckExact(v) ? PyDict_Size(v) : Py_SIZE(v);
            _PyErr_Format(tstate, PyExc_ValueError, "too many values to unpack (expected %d, got %zd)",
                          argcnt, ll);
        }
        else {
            _PyErr_Format(tstate, PyExc_ValueError, "too many values to unpack (expected %d)", argcnt);
        }
        goto error;
    }
    l = PySequence_List(it);
    if (l == NULL) {
        goto error;
    }
    *--sp = PyStackRef_FromPyObjectSteal(l);
    i++;
    ll = PyList_GET_SIZE(l);
    if (ll < argcntafter) {
        _PyErr_Format(tstate, PyExc_ValueError,
                      "not enough values to unpack (expected at least %d, got %zd)",
                      argcnt + argcntafter, argcnt + ll);
        goto error;
    }
    /* Pop the "after-variable" args off the list. */
    for (j = argcntafter; j > 0; j--, i++) {
        *--sp = PyStackRef_FromPyObjectSteal(PyList_GET_ITEM(l, ll - j));
    }
    Py_SET_SIZE(l, ll - argcntafter);
    Py_DECREF(it);
    return 1;

error:
    for (; i > 0; i--, sp++) {
        PyStackRef_CLOSE(*sp);
    }
    Py_XDECREF(it);
    return 0;
}

PyObject *
_PyEval_ConvertValue(PyObject *value, int conversion)
{
    switch (conversion) {
    case FVC_STR:
        return PyObject_Str(value);
    case FVC_REPR:
        return PyObject_Repr(value);
    case FVC_ASCII:
        return PyObject_ASCII(value);
    default:
        PyErr_Format(PyExc_SystemError, "unexpected conversion flag %d", conversion);
        return NULL;
    }
}

/* ---- Imports ------------------------------------------------------------------------- */

int
_PyEval_ImportName(PyThreadState *tstate, PyObject *globals, PyObject *locals, PyObject *name,
                   PyObject *fromlist, PyObject *level, _PyStackRef *result)
{
    int depth = PyLong_AsInt(level);
    if (depth == -1 && _PyErr_Occurred(tstate)) {
        return -1;
    }
    PyObject *module = PyImport_ImportModuleLevelObject(name, globals, locals ? locals : Py_None,
                                                        fromlist, depth);
    if (module == NULL) {
        return -1;
    }
    *result = PyStackRef_FromPyObjectSteal(module);
    return 0;
}

/* True while `mod` is still running its body (importlib's flag). */
static int
module_initializing(PyObject *mod)
{
    PyObject *spec, *flag = NULL;
    int busy = 0;
    if (PyObject_GetOptionalAttrString(mod, "__spec__", &spec) > 0) {
        if (PyObject_GetOptionalAttrString(spec, "_initializing", &flag) > 0) {
            busy = PyObject_IsTrue(flag) > 0;
        }
        Py_XDECREF(flag);
        Py_DECREF(spec);
    }
    PyErr_Clear();
    return busy;
}

/* `from pkg import name` found no `name`: an ImportError carrying the
   module's name and file, and the name asked for (name_from), worded as
   CPython words it, circular imports included. */
static void
raise_cannot_import(PyThreadState *tstate, PyObject *mod, PyObject *name, PyObject *pkgname)
{
    PyObject *file = NULL;
    if (PyObject_GetOptionalAttrString(mod, "__file__", &file) < 0 ||
        (file != NULL && !PyUnicode_Check(file))) {
        _PyErr_Clear(tstate);
        Py_CLEAR(file);
    }
    PyObject *msg;
    if (module_initializing(mod)) {
        msg = PyUnicode_FromFormat("cannot import name '%U' from partially initialized module '%U' "
                                   "(most likely due to a circular import) (%S)",
                                   name, pkgname, file ? file : Py_None);
    }
    else if (file != NULL) {
        msg = PyUnicode_FromFormat("cannot import name '%U' from '%U' (%U)", name, pkgname, file);
    }
    else {
        msg = PyUnicode_FromFormat("cannot import name '%U' from '%U' (unknown location)", name,
                                   pkgname);
    }
    PyObject *kwargs = msg ? Py_BuildValue("{sOsOsO}", "name", pkgname, "path",
                                           file ? file : Py_None, "name_from", name) : NULL;
    PyObject *args = kwargs ? PyTuple_Pack(1, msg) : NULL;
    PyObject *exc = args ? PyObject_Call(PyExc_ImportError, args, kwargs) : NULL;
    if (exc != NULL) {
        _PyErr_SetObject(tstate, PyExc_ImportError, exc);
    }
    Py_XDECREF(exc);
    Py_XDECREF(args);
    Py_XDECREF(kwargs);
    Py_XDECREF(msg);
    Py_XDECREF(file);
}

PyObject *
_PyEval_ImportFrom(PyThreadState *tstate, PyObject *v, PyObject *name)
{
    PyObject *x;
    if (PyObject_GetOptionalAttr(v, name, &x) != 0) {
        return x;
    }
    /* A submodule imported during a circular import may not be an
       attribute yet: look in sys.modules. */
    PyObject *pkgname = NULL;
    if (PyObject_GetOptionalAttr(v, name_name(), &pkgname) > 0 && PyUnicode_Check(pkgname)) {
        PyObject *fullname = PyUnicode_FromFormat("%U.%U", pkgname, name);
        if (fullname != NULL) {
            x = PyImport_GetModule(fullname);
            Py_DECREF(fullname);
            if (x != NULL) {
                Py_DECREF(pkgname);
                return x;
            }
        }
    }
    if (pkgname != NULL && PyUnicode_Check(pkgname)) {
        raise_cannot_import(tstate, v, name, pkgname);
    }
    else {
        _PyErr_Format(tstate, PyExc_ImportError, "cannot import name '%U'", name);
    }
    Py_XDECREF(pkgname);
    return NULL;
}

/* ---- Exceptions ----------------------------------------------------------------------------- */

int
_PyEval_DoRaise(PyThreadState *tstate, PyObject *exc, PyObject *cause)
{
    PyObject *type = NULL, *value = NULL;

    if (exc == NULL) {
        /* Re-raise the exception being handled. */
        _PyErr_StackItem *exc_info = _PyErr_GetTopmostException(tstate);
        exc = exc_info->exc_value;
        if (exc == NULL || Py_IsNone(exc)) {
            _PyErr_SetString(tstate, PyExc_RuntimeError, "No active exception to reraise");
            return 0;
        }
        _PyErr_SetRaisedException(tstate, Py_NewRef(exc));
        return 1;
    }

    /* raise <type> instantiates it, raise <instance> uses it. */
    if (PyExceptionClass_Check(exc)) {
        type = exc;
        value = PyObject_CallNoArgs(exc);
        if (value == NULL) {
            goto raise_error;
        }
        if (!PyExceptionInstance_Check(value)) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "calling %R should have returned an instance of BaseException, not %R",
                          type, Py_TYPE(value));
            goto raise_error;
        }
    }
    else if (PyExceptionInstance_Check(exc)) {
        value = exc;
        type = PyExceptionInstance_Class(exc);
        Py_INCREF(type);
    }
    else {
        Py_DECREF(exc);
        _PyErr_SetString(tstate, PyExc_TypeError, "exceptions must derive from BaseException");
        goto raise_error;
    }

    assert(type != NULL);
    assert(value != NULL);

    if (cause) {
        PyObject *fixed_cause;
        if (PyExceptionClass_Check(cause)) {
            fixed_cause = PyObject_CallNoArgs(cause);
            if (fixed_cause == NULL) {
                goto raise_error;
            }
            if (!PyExceptionInstance_Check(fixed_cause)) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "calling %R should have returned an instance of BaseException, not %R",
                              cause, Py_TYPE(fixed_cause));
                Py_DECREF(fixed_cause);
                goto raise_error;
            }
            Py_DECREF(cause);
        }
        else if (PyExceptionInstance_Check(cause)) {
            fixed_cause = cause;
        }
        else if (Py_IsNone(cause)) {
            Py_DECREF(cause);
            fixed_cause = NULL;
        }
        else {
            _PyErr_SetString(tstate, PyExc_TypeError, "exception causes must derive from BaseException");
            goto raise_error;
        }
        PyException_SetCause(value, fixed_cause);
    }

    _PyErr_SetObject(tstate, type, value);
    Py_DECREF(value);
    Py_DECREF(type);
    return 0;

raise_error:
    Py_XDECREF(value);
    Py_XDECREF(type);
    Py_XDECREF(cause);
    return 0;
}

int
_PyEval_CheckExceptTypeValid(PyThreadState *tstate, PyObject *right)
{
    if (PyTuple_Check(right)) {
        Py_ssize_t length = PyTuple_GET_SIZE(right);
        for (Py_ssize_t i = 0; i < length; i++) {
            PyObject *exc = PyTuple_GET_ITEM(right, i);
            if (!PyExceptionClass_Check(exc)) {
                _PyErr_SetString(tstate, PyExc_TypeError,
                                 "catching classes that do not inherit from BaseException is not allowed");
                return -1;
            }
        }
    }
    else if (!PyExceptionClass_Check(right)) {
        _PyErr_SetString(tstate, PyExc_TypeError,
                         "catching classes that do not inherit from BaseException is not allowed");
        return -1;
    }
    return 0;
}

int
_PyEval_ExceptionGroupMatch(PyThreadState *tstate, PyObject *exc_value, PyObject *match_type,
                            PyObject **match, PyObject **rest)
{
    if (_PyEval_CheckExceptTypeValid(tstate, match_type) < 0) {
        return -1;
    }
    if (Py_IsNone(exc_value)) {
        *match = Py_NewRef(Py_None);
        *rest = Py_NewRef(Py_None);
        return 0;
    }
    if (PyErr_GivenExceptionMatches(exc_value, match_type)) {
        /* A naked exception matching the type: wrap it in a group. */
        int is_eg = PyErr_GivenExceptionMatches(exc_value, PyExc_BaseExceptionGroup);
        if (is_eg) {
            *match = Py_NewRef(exc_value);
        }
        else {
            PyObject *excs = PyTuple_Pack(1, exc_value);
            if (excs == NULL) {
                return -1;
            }
            PyObject *wrapped = PyObject_CallFunction(PyExc_BaseExceptionGroup, "sO", "", excs);
            Py_DECREF(excs);
            if (wrapped == NULL) {
                return -1;
            }
            *match = wrapped;
        }
        *rest = Py_NewRef(Py_None);
        return 0;
    }
    if (PyErr_GivenExceptionMatches(exc_value, PyExc_BaseExceptionGroup)) {
        PyObject *pair = PyObject_CallMethod(exc_value, "split", "(O)", match_type);
        if (pair == NULL) {
            return -1;
        }
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) {
            _PyErr_Format(tstate, PyExc_TypeError, "%.200s.split must return a 2-tuple",
                          Py_TYPE(exc_value)->tp_name);
            Py_DECREF(pair);
            return -1;
        }
        *match = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
        *rest = Py_NewRef(PyTuple_GET_ITEM(pair, 1));
        Py_DECREF(pair);
        return 0;
    }
    /* No match: all of it is left over. */
    *match = Py_NewRef(Py_None);
    *rest = Py_NewRef(exc_value);
    return 0;
}

PyObject *
_PyEval_CallExitWithException(PyThreadState *tstate, PyObject *exit_func, PyObject *exit_self,
                              PyObject *val)
{
    (void)tstate;
    PyObject *tb = PyException_GetTraceback(val);
    if (tb == NULL) {
        tb = Py_NewRef(Py_None);
    }
    PyObject *args[4];
    int n = 0;
    if (exit_self != NULL) {
        args[n++] = exit_self;
    }
    args[n++] = (PyObject *)Py_TYPE(val);
    args[n++] = val;
    args[n++] = tb;
    PyObject *res = PyObject_Vectorcall(exit_func, args, (size_t)n, NULL);
    Py_DECREF(tb);
    return res;
}

/* ---- Pattern matching -------------------------------------------------------------------- */

/* The builtins whose class pattern `T(x)` binds the subject itself (and so
   do their subclasses): the types with a fast-subclass flag, plus the four
   that have none. */
static int
type_matches_itself(PyTypeObject *type)
{
    static PyTypeObject *const unflagged[] = {
        &PyFloat_Type, &PyByteArray_Type, &PySet_Type, &PyFrozenSet_Type,
    };
    unsigned long flagged = Py_TPFLAGS_LONG_SUBCLASS | Py_TPFLAGS_UNICODE_SUBCLASS |
                            Py_TPFLAGS_LIST_SUBCLASS | Py_TPFLAGS_TUPLE_SUBCLASS |
                            Py_TPFLAGS_DICT_SUBCLASS | Py_TPFLAGS_BYTES_SUBCLASS;
    if (PyType_HasFeature(type, flagged)) {
        return 1;
    }
    for (size_t i = 0; i < sizeof(unflagged) / sizeof(unflagged[0]); i++) {
        if (PyType_IsSubtype(type, unflagged[i])) {
            return 1;
        }
    }
    return 0;
}

PyObject *
_PyEval_MatchClass(PyThreadState *tstate, PyObject *subject, PyObject *type, int nargs,
                   PyObject *kwargs)
{
    if (!PyType_Check(type)) {
        _PyErr_Format(tstate, PyExc_TypeError, "called match pattern must be a class");
        return NULL;
    }
    int is = PyObject_IsInstance(subject, type);
    if (is <= 0) {
        return NULL;
    }
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwargs);
    PyObject *attrs = PyList_New(0);
    if (attrs == NULL) {
        return NULL;
    }
    if (nargs) {
        PyObject *match_args = NULL;
        if (PyObject_GetOptionalAttrString(type, "__match_args__", &match_args) < 0) {
            goto fail;
        }
        int match_self = 0;
        if (match_args == NULL) {
            /* Builtins like int match themselves positionally. */
            match_self = type_matches_itself((PyTypeObject *)type);
            match_args = PyTuple_New(0);
            if (match_args == NULL) {
                goto fail;
            }
        }
        if (!PyTuple_CheckExact(match_args)) {
            _PyErr_Format(tstate, PyExc_TypeError, "%s.__match_args__ must be a tuple (got %s)",
                          ((PyTypeObject *)type)->tp_name, Py_TYPE(match_args)->tp_name);
            Py_DECREF(match_args);
            goto fail;
        }
        Py_ssize_t allowed = match_self ? 1 : PyTuple_GET_SIZE(match_args);
        if (allowed < nargs) {
            _PyErr_Format(tstate, PyExc_TypeError, "%s() accepts %zd positional sub-pattern%s (%d given)",
                          ((PyTypeObject *)type)->tp_name, allowed, allowed == 1 ? "" : "s", nargs);
            Py_DECREF(match_args);
            goto fail;
        }
        if (match_self) {
            if (PyList_Append(attrs, subject) < 0) {
                Py_DECREF(match_args);
                goto fail;
            }
        }
        else {
            for (int i = 0; i < nargs; i++) {
                PyObject *name = PyTuple_GET_ITEM(match_args, i);
                PyObject *attr;
                if (PyObject_GetOptionalAttr(subject, name, &attr) <= 0) {
                    Py_DECREF(match_args);
                    Py_DECREF(attrs);
                    return NULL;
                }
                int err = PyList_Append(attrs, attr);
                Py_DECREF(attr);
                if (err < 0) {
                    Py_DECREF(match_args);
                    goto fail;
                }
            }
        }
        Py_DECREF(match_args);
    }
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *attr;
        if (PyObject_GetOptionalAttr(subject, PyTuple_GET_ITEM(kwargs, i), &attr) <= 0) {
            Py_DECREF(attrs);
            return NULL;
        }
        int err = PyList_Append(attrs, attr);
        Py_DECREF(attr);
        if (err < 0) {
            goto fail;
        }
    }
    PyObject *res = PyList_AsTuple(attrs);
    Py_DECREF(attrs);
    return res;
fail:
    Py_DECREF(attrs);
    return NULL;
}

PyObject *
_PyEval_MatchKeys(PyThreadState *tstate, PyObject *map, PyObject *keys)
{
    (void)tstate;
    Py_ssize_t nkeys = PyTuple_GET_SIZE(keys);
    if (!nkeys) {
        return PyTuple_New(0);
    }
    PyObject *values = PyList_New(0);
    if (values == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nkeys; i++) {
        PyObject *key = PyTuple_GET_ITEM(keys, i);
        PyObject *value;
        int r = PyMapping_GetOptionalItem(map, key, &value);
        if (r < 0) {
            Py_DECREF(values);
            return NULL;
        }
        if (r == 0) {
            Py_DECREF(values);
            Py_RETURN_NONE;
        }
        int err = PyList_Append(values, value);
        Py_DECREF(value);
        if (err < 0) {
            Py_DECREF(values);
            return NULL;
        }
    }
    PyObject *tuple = PyList_AsTuple(values);
    Py_DECREF(values);
    return tuple;
}

/* ---- Frame-independent queries ---------------------------------------------------------------- */

PyObject *
_PyEval_BuiltinsFromGlobals(PyThreadState *tstate, PyObject *globals)
{
    PyObject *builtins = PyDict_GetItemWithError(globals, _PyEval_BuiltinsName());
    if (builtins) {
        if (PyModule_Check(builtins)) {
            builtins = PyModule_GetDict(builtins);
        }
        return builtins;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    return _PyEval_GetBuiltins(tstate);
}

PyObject *
_PyEval_GetBuiltins(PyThreadState *tstate)
{
    _PyInterpreterFrame *frame = tstate->current_frame;
    while (frame != NULL && frame->owner == FRAME_OWNED_BY_INTERPRETER) {
        frame = frame->previous;
    }
    if (frame != NULL) {
        return frame->f_builtins;
    }
    return tstate->interp->builtins;
}

PyObject *
PyEval_GetBuiltins(void)
{
    return _PyEval_GetBuiltins(_PyThreadState_GET());
}

PyObject *
PyEval_GetFrameBuiltins(void)
{
    return Py_XNewRef(PyEval_GetBuiltins());
}

PyObject *
PyEval_GetGlobals(void)
{
    _PyInterpreterFrame *frame = _PyFrame_GetFirstComplete(_PyThreadState_GET()->current_frame);
    return frame == NULL ? NULL : frame->f_globals;
}

PyObject *
PyEval_GetFrameGlobals(void)
{
    return Py_XNewRef(PyEval_GetGlobals());
}

PyFrameObject *
PyEval_GetFrame(void)
{
    _PyInterpreterFrame *frame = _PyFrame_GetFirstComplete(_PyThreadState_GET()->current_frame);
    if (frame == NULL) {
        return NULL;
    }
    PyFrameObject *f = _PyFrame_GetFrameObject(frame);
    if (f == NULL) {
        PyErr_Clear();
    }
    return f;
}

const char *
PyEval_GetFuncName(PyObject *func)
{
    if (PyMethod_Check(func)) {
        return PyEval_GetFuncName(PyMethod_GET_FUNCTION(func));
    }
    if (PyFunction_Check(func)) {
        return PyUnicode_AsUTF8(((PyFunctionObject *)func)->func_name);
    }
    if (PyCFunction_Check(func)) {
        return ((PyCFunctionObject *)func)->m_ml->ml_name;
    }
    return Py_TYPE(func)->tp_name;
}

const char *
PyEval_GetFuncDesc(PyObject *func)
{
    if (PyMethod_Check(func) || PyFunction_Check(func) || PyCFunction_Check(func)) {
        return "()";
    }
    return " object";
}

PyObject *
PyEval_GetFrameLocals(void)
{
    _PyInterpreterFrame *frame = _PyFrame_GetFirstComplete(_PyThreadState_GET()->current_frame);
    if (frame == NULL) {
        PyErr_SetString(PyExc_SystemError, "frame does not exist");
        return NULL;
    }
    PyObject *locals = _PyFrame_GetLocals(frame);
    if (locals == NULL || !Py_IS_TYPE(locals, &PyFrameLocalsProxy_Type)) {
        return locals;
    }
    /* PEP 667: a function's locals() is a snapshot, independent of the
       frame (and of other snapshots); only f_locals writes through. */
    PyObject *snapshot = PyDict_New();
    if (snapshot != NULL && PyDict_Update(snapshot, locals) < 0) {
        Py_CLEAR(snapshot);
    }
    Py_DECREF(locals);
    return snapshot;
}

/* ---- sys.monitoring helpers for the instrumented calls and branches ------- */

/* After a call that ran no frame of ours: report C_RETURN (or C_RAISE when
   it failed).  Steals `func` and `arg0`; returns the result, or NULL when
   the call or a callback failed. */
PyObject *
_PyEval_MonitorCallResult(PyThreadState *tstate, _PyInterpreterFrame *frame, _Py_CODEUNIT *instr,
                          PyObject *func, PyObject *arg0, PyObject *result)
{
    if (!PyFunction_Check(func)) {
        if (result == NULL) {
            PyObject *exc = PyErr_GetRaisedException();
            if (_PyMonitoring_FireCall(tstate, frame, instr, PY_MONITORING_EVENT_C_RAISE, func, arg0) < 0) {
                Py_XDECREF(exc);
            }
            else {
                PyErr_SetRaisedException(exc);
            }
        }
        else if (_PyMonitoring_FireCall(tstate, frame, instr, PY_MONITORING_EVENT_C_RETURN, func, arg0) < 0) {
            Py_CLEAR(result);
        }
    }
    Py_DECREF(func);
    Py_XDECREF(arg0);
    return result;
}

/* A conditional jump: BRANCH_RIGHT to the target when taken, BRANCH_LEFT
   to the next instruction when not. */
int
_PyEval_MonitorBranch(PyThreadState *tstate, _PyInterpreterFrame *frame, _Py_CODEUNIT *instr,
                      _Py_CODEUNIT *next, int oparg, int taken)
{
    if (taken) {
        return _PyMonitoring_FireJump(tstate, frame, instr, PY_MONITORING_EVENT_BRANCH_RIGHT, next + oparg);
    }
    return _PyMonitoring_FireJump(tstate, frame, instr, PY_MONITORING_EVENT_BRANCH_LEFT, next);
}
