/* Calling Python functions: pushing a frame and binding arguments to
   parameters, from the interpreter (CALL) and from C (vectorcall). */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_frame.h"
#include "pycore_object.h"
#include "pycore_pystate.h"

/* ---- Argument binding errors ----------------------------------------------- */

static PyObject *
func_qualname(PyFunctionObject *func)
{
    return func->func_qualname;
}

/* "f() missing 2 required positional arguments: 'a' and 'b'" */
static void
format_missing(PyThreadState *tstate, const char *kind, PyFunctionObject *func, PyObject *names)
{
    Py_ssize_t len = PyList_GET_SIZE(names);
    PyObject *name_str = NULL;
    if (len == 1) {
        name_str = Py_NewRef(PyList_GET_ITEM(names, 0));
    }
    else if (len == 2) {
        name_str = PyUnicode_FromFormat("%U and %U", PyList_GET_ITEM(names, 0), PyList_GET_ITEM(names, 1));
    }
    else {
        PyObject *tail = PyUnicode_FromFormat(", %U, and %U", PyList_GET_ITEM(names, len - 2),
                                              PyList_GET_ITEM(names, len - 1));
        if (tail == NULL) {
            return;
        }
        if (PyList_SetSlice(names, len - 2, len, NULL) < 0) {
            Py_DECREF(tail);
            return;
        }
        PyObject *sep = PyUnicode_FromString(", ");
        PyObject *head = sep ? PyUnicode_Join(sep, names) : NULL;
        Py_XDECREF(sep);
        if (head != NULL) {
            name_str = PyUnicode_Concat(head, tail);
            Py_DECREF(head);
        }
        Py_DECREF(tail);
    }
    if (name_str == NULL) {
        return;
    }
    _PyErr_Format(tstate, PyExc_TypeError, "%U() missing %zd required %s argument%s: %U",
                  func_qualname(func), len, kind, len == 1 ? "" : "s", name_str);
    Py_DECREF(name_str);
}

static void
missing_arguments(PyThreadState *tstate, PyFunctionObject *func, Py_ssize_t missing,
                  Py_ssize_t defcount, _PyStackRef *localsplus, int positional)
{
    PyCodeObject *co = (PyCodeObject *)func->func_code;
    Py_ssize_t start, end;
    if (positional) {
        start = 0;
        end = co->co_argcount - defcount;
    }
    else {
        start = co->co_argcount;
        end = start + co->co_kwonlyargcount;
    }
    PyObject *names = PyList_New(missing);
    if (names == NULL) {
        return;
    }
    Py_ssize_t j = 0;
    for (Py_ssize_t i = start; i < end; i++) {
        if (PyStackRef_IsNull(localsplus[i])) {
            PyObject *raw = PyTuple_GET_ITEM(co->co_localsplusnames, i);
            PyObject *name = PyObject_Repr(raw);
            if (name == NULL) {
                Py_DECREF(names);
                return;
            }
            PyList_SET_ITEM(names, j++, name);
        }
    }
    assert(j == missing);
    format_missing(tstate, positional ? "positional" : "keyword-only", func, names);
    Py_DECREF(names);
}

static void
too_many_positional(PyThreadState *tstate, PyFunctionObject *func, Py_ssize_t given,
                    PyObject *defaults, _PyStackRef *localsplus)
{
    PyCodeObject *co = (PyCodeObject *)func->func_code;
    Py_ssize_t co_argcount = co->co_argcount;
    Py_ssize_t kwonly_given = 0;
    for (Py_ssize_t i = co_argcount; i < co_argcount + co->co_kwonlyargcount; i++) {
        if (!PyStackRef_IsNull(localsplus[i])) {
            kwonly_given++;
        }
    }
    Py_ssize_t defcount = defaults == NULL ? 0 : PyTuple_GET_SIZE(defaults);
    PyObject *sig;
    int plural;
    if (defcount) {
        Py_ssize_t atleast = co_argcount - defcount;
        plural = 1;
        sig = PyUnicode_FromFormat("from %zd to %zd", atleast, co_argcount);
    }
    else {
        plural = (co_argcount != 1);
        sig = PyUnicode_FromFormat("%zd", co_argcount);
    }
    if (sig == NULL) {
        return;
    }
    PyObject *kwonly_sig = NULL;
    if (kwonly_given) {
        kwonly_sig = PyUnicode_FromFormat(" positional argument%s (and %zd keyword-only argument%s)",
                                          given != 1 ? "s" : "", kwonly_given,
                                          kwonly_given != 1 ? "s" : "");
    }
    else {
        kwonly_sig = PyUnicode_FromString("");
    }
    if (kwonly_sig == NULL) {
        Py_DECREF(sig);
        return;
    }
    _PyErr_Format(tstate, PyExc_TypeError, "%U() takes %U positional argument%s but %zd%U %s given",
                  func_qualname(func), sig, plural ? "s" : "", given, kwonly_sig,
                  given == 1 && !kwonly_given ? "was" : "were");
    Py_DECREF(sig);
    Py_DECREF(kwonly_sig);
}

static int
positional_only_passed_as_keyword(PyThreadState *tstate, PyFunctionObject *func, PyObject *kwnames,
                                  Py_ssize_t kwcount, PyObject *const *kwvalues)
{
    PyCodeObject *co = (PyCodeObject *)func->func_code;
    int posonly_conflicts = 0;
    PyObject *names = PyList_New(0);
    if (names == NULL) {
        return -1;
    }
    for (int k = 0; k < co->co_posonlyargcount; k++) {
        PyObject *posonly_name = PyTuple_GET_ITEM(co->co_localsplusnames, k);
        for (Py_ssize_t k2 = 0; k2 < kwcount; k2++) {
            PyObject *kwname = PyTuple_GET_ITEM(kwnames, k2);
            if (kwname == posonly_name || PyObject_RichCompareBool(kwname, posonly_name, Py_EQ) == 1) {
                if (PyList_Append(names, kwname) < 0) {
                    Py_DECREF(names);
                    return -1;
                }
                posonly_conflicts++;
            }
        }
    }
    (void)kwvalues;
    if (posonly_conflicts) {
        PyObject *comma = PyUnicode_FromString(", ");
        PyObject *error_names = comma ? PyUnicode_Join(comma, names) : NULL;
        Py_XDECREF(comma);
        if (error_names != NULL) {
            _PyErr_Format(tstate, PyExc_TypeError,
                          "%U() got some positional-only arguments passed as keyword arguments: '%U'",
                          func_qualname(func), error_names);
            Py_DECREF(error_names);
        }
        Py_DECREF(names);
        return 1;
    }
    Py_DECREF(names);
    return 0;
}

/* ---- Binding ----------------------------------------------------------------- */

/* Moves args (owned stack refs) into the frame's parameters.  Consumes all
   args, even on failure.  Returns 0, or -1 with an exception set. */
static int
initialize_locals(PyThreadState *tstate, PyFunctionObject *func, _PyStackRef *localsplus,
                  _PyStackRef const *args, Py_ssize_t argcount, PyObject *kwnames)
{
    PyCodeObject *co = (PyCodeObject *)func->func_code;
    const Py_ssize_t total_args = co->co_argcount + co->co_kwonlyargcount;
    Py_ssize_t kwcount = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    Py_ssize_t i, j, n;
    PyObject *kwdict = NULL;
    Py_ssize_t consumed_kw = 0; /* index of the first keyword value not yet consumed */

    if (co->co_flags & CO_VARKEYWORDS) {
        kwdict = PyDict_New();
        if (kwdict == NULL) {
            goto fail_pre_positional;
        }
        i = total_args;
        if (co->co_flags & CO_VARARGS) {
            i++;
        }
        localsplus[i] = PyStackRef_FromPyObjectSteal(kwdict);
    }

    /* Positional parameters */
    n = argcount > co->co_argcount ? co->co_argcount : argcount;
    for (j = 0; j < n; j++) {
        localsplus[j] = PyStackRef_MakeHeapSafe(args[j]);
    }

    /* *args */
    if (co->co_flags & CO_VARARGS) {
        PyObject *u;
        if (argcount > n) {
            u = PyTuple_New(argcount - n);
            if (u == NULL) {
                for (j = n; j < argcount; j++) {
                    PyStackRef_CLOSE(args[j]);
                }
                goto fail_post_positional;
            }
            for (j = n; j < argcount; j++) {
                PyTuple_SET_ITEM(u, j - n, PyStackRef_AsPyObjectSteal(args[j]));
            }
        }
        else {
            u = PyTuple_New(0);
            if (u == NULL) {
                goto fail_post_positional;
            }
        }
        localsplus[total_args] = PyStackRef_FromPyObjectSteal(u);
    }
    else if (argcount > n) {
        for (j = n; j < argcount; j++) {
            PyStackRef_CLOSE(args[j]);
        }
    }

    /* Keyword arguments */
    if (kwnames != NULL) {
        PyObject **co_varnames = ((PyTupleObject *)co->co_localsplusnames)->ob_item;
        for (i = 0; i < kwcount; i++) {
            PyObject *keyword = PyTuple_GET_ITEM(kwnames, i);
            _PyStackRef value_stackref = args[i + argcount];
            consumed_kw = i + 1;
            Py_ssize_t k;
            if (keyword == NULL || !PyUnicode_Check(keyword)) {
                _PyErr_Format(tstate, PyExc_TypeError, "%U() keywords must be strings",
                              func_qualname(func));
                PyStackRef_CLOSE(value_stackref);
                goto kw_fail;
            }
            /* Speed hack: identity first (names are interned). */
            for (k = co->co_posonlyargcount; k < total_args; k++) {
                if (co_varnames[k] == keyword) {
                    goto kw_found;
                }
            }
            for (k = co->co_posonlyargcount; k < total_args; k++) {
                int cmp = PyObject_RichCompareBool(keyword, co_varnames[k], Py_EQ);
                if (cmp > 0) {
                    goto kw_found;
                }
                else if (cmp < 0) {
                    PyStackRef_CLOSE(value_stackref);
                    goto kw_fail;
                }
            }
            if (kwdict == NULL) {
                if (co->co_posonlyargcount &&
                    positional_only_passed_as_keyword(tstate, func, kwnames, kwcount, NULL)) {
                    PyStackRef_CLOSE(value_stackref);
                    goto kw_fail;
                }
                _PyErr_Format(tstate, PyExc_TypeError,
                              "%U() got an unexpected keyword argument '%S'",
                              func_qualname(func), keyword);
                PyStackRef_CLOSE(value_stackref);
                goto kw_fail;
            }
            {
                PyObject *value = PyStackRef_AsPyObjectSteal(value_stackref);
                if (PyDict_SetItem(kwdict, keyword, value) == -1) {
                    Py_DECREF(value);
                    goto kw_fail;
                }
                Py_DECREF(value);
            }
            continue;
        kw_found:
            if (!PyStackRef_IsNull(localsplus[k])) {
                _PyErr_Format(tstate, PyExc_TypeError,
                              "%U() got multiple values for argument '%S'",
                              func_qualname(func), keyword);
                PyStackRef_CLOSE(value_stackref);
                goto kw_fail;
            }
            localsplus[k] = PyStackRef_MakeHeapSafe(value_stackref);
        }
    }

    /* Too many positional arguments? */
    if ((argcount > co->co_argcount) && !(co->co_flags & CO_VARARGS)) {
        too_many_positional(tstate, func, argcount, func->func_defaults, localsplus);
        goto fail_post_args;
    }

    /* Defaults for missing positional parameters */
    if (argcount < co->co_argcount) {
        Py_ssize_t defcount = func->func_defaults == NULL ? 0 : PyTuple_GET_SIZE(func->func_defaults);
        Py_ssize_t m = co->co_argcount - defcount;
        Py_ssize_t missing = 0;
        for (i = argcount; i < m; i++) {
            if (PyStackRef_IsNull(localsplus[i])) {
                missing++;
            }
        }
        if (missing) {
            missing_arguments(tstate, func, missing, defcount, localsplus, 1);
            goto fail_post_args;
        }
        if (n > m) {
            i = n - m;
        }
        else {
            i = 0;
        }
        if (defcount) {
            PyObject **defs = &PyTuple_GET_ITEM(func->func_defaults, 0);
            for (; i < defcount; i++) {
                if (PyStackRef_IsNull(localsplus[m + i])) {
                    localsplus[m + i] = PyStackRef_FromPyObjectNew(defs[i]);
                }
            }
        }
    }

    /* Keyword-only defaults */
    if (co->co_kwonlyargcount > 0) {
        Py_ssize_t missing = 0;
        for (i = co->co_argcount; i < total_args; i++) {
            if (!PyStackRef_IsNull(localsplus[i])) {
                continue;
            }
            PyObject *varname = PyTuple_GET_ITEM(co->co_localsplusnames, i);
            if (func->func_kwdefaults != NULL) {
                PyObject *def;
                if (PyDict_GetItemRef(func->func_kwdefaults, varname, &def) < 0) {
                    goto fail_post_args;
                }
                if (def) {
                    localsplus[i] = PyStackRef_FromPyObjectSteal(def);
                    continue;
                }
            }
            missing++;
        }
        if (missing) {
            missing_arguments(tstate, func, missing, -1, localsplus, 0);
            goto fail_post_args;
        }
    }
    return 0;

fail_pre_positional:
    for (j = 0; j < argcount; j++) {
        PyStackRef_CLOSE(args[j]);
    }
    /* fall through */
fail_post_positional:
    if (kwnames) {
        for (j = argcount; j < argcount + kwcount; j++) {
            PyStackRef_CLOSE(args[j]);
        }
    }
    return -1;

kw_fail:
    for (j = argcount + consumed_kw; j < argcount + kwcount; j++) {
        PyStackRef_CLOSE(args[j]);
    }
    /* fall through */
fail_post_args:
    return -1;
}

/* ---- Frames ---------------------------------------------------------------------- */

_PyInterpreterFrame *
_PyEvalFramePushAndInit(PyThreadState *tstate, _PyStackRef func, PyObject *locals,
                        _PyStackRef const *args, size_t argcount, PyObject *kwnames,
                        _PyInterpreterFrame *previous)
{
    PyFunctionObject *func_obj = (PyFunctionObject *)PyStackRef_AsPyObjectBorrow(func);
    PyCodeObject *code = (PyCodeObject *)func_obj->func_code;
    _PyInterpreterFrame *frame = _PyEval_PushFrameFast(tstate, (size_t)code->co_framesize);
    if (frame == NULL) {
        PyStackRef_CLOSE(func);
        size_t total = argcount + (kwnames ? (size_t)PyTuple_GET_SIZE(kwnames) : 0);
        for (size_t i = 0; i < total; i++) {
            PyStackRef_CLOSE(args[i]);
        }
        return NULL;
    }
    _PyFrame_Initialize(tstate, frame, PyStackRef_MakeHeapSafe(func), Py_XNewRef(locals), code, 0,
                        previous);
    if (initialize_locals(tstate, func_obj, frame->localsplus, args, argcount, kwnames)) {
        _PyEval_FrameClearAndPop(tstate, frame);
        return NULL;
    }
    return frame;
}

void
_PyEval_FrameClearAndPop(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    if (frame->owner == FRAME_OWNED_BY_GENERATOR) {
        _PyEval_ClearGeneratorFrame(tstate, frame);
        return;
    }
    assert(frame->owner == FRAME_OWNED_BY_THREAD);
    _PyFrame_ClearExceptCode(frame);
    PyStackRef_CLEAR(frame->f_executable);
    _PyThreadState_PopFrame(tstate, frame);
}

PyObject *
_PyEval_Vector(PyThreadState *tstate, PyFunctionObject *func, PyObject *locals,
               PyObject *const *args, size_t argcount, PyObject *kwnames)
{
    size_t total_args = argcount + (kwnames ? (size_t)PyTuple_GET_SIZE(kwnames) : 0);
    _PyStackRef small[8] = {{0}};
    _PyStackRef *refs = small;
    if (total_args > Py_ARRAY_LENGTH(small)) {
        refs = PyMem_Malloc(total_args * sizeof(_PyStackRef));
        if (refs == NULL) {
            return PyErr_NoMemory();
        }
    }
    for (size_t i = 0; i < total_args; i++) {
        refs[i] = PyStackRef_FromPyObjectNew(args[i]);
    }
    _PyInterpreterFrame *frame = _PyEvalFramePushAndInit(
        tstate, PyStackRef_FromPyObjectNew((PyObject *)func), locals, refs, argcount, kwnames,
        tstate->current_frame);
    if (refs != small) {
        PyMem_Free(refs);
    }
    if (frame == NULL) {
        return NULL;
    }
    return _PyEval_EvalFrameDefault(tstate, frame, 0);
}

PyObject *
_PyFunction_Vectorcall(PyObject *func, PyObject *const *stack, size_t nargsf, PyObject *kwnames)
{
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyFunctionObject *f = (PyFunctionObject *)func;
    PyObject *locals = (((PyCodeObject *)f->func_code)->co_flags & CO_OPTIMIZED) ? NULL : f->func_globals;
    return _PyEval_Vector(tstate, f, locals, stack, (size_t)nargs, kwnames);
}

/* Run module-level code (or code with free variables, given the cells of
   `closure`, a checked tuple) in globals/locals. */
PyObject *
_PyEval_EvalCodeWithClosure(PyObject *co, PyObject *globals, PyObject *locals, PyObject *closure)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (!PyCode_Check(co)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    if (locals == NULL) {
        locals = globals;
    }
    if (!PyDict_Check(globals)) {
        PyErr_SetString(PyExc_SystemError, "globals must be a dict");
        return NULL;
    }
    if (PyDict_GetItemWithError(globals, _PyEval_BuiltinsName()) == NULL) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        PyObject *builtins = _PyEval_GetBuiltins(tstate);
        /* Module code sees the builtins module, as CPython's __main__ does. */
        PyObject *mod = PyImport_GetModule(_PyEval_BuiltinsModuleName());
        int err = PyDict_SetItem(globals, _PyEval_BuiltinsName(), mod ? mod : builtins);
        Py_XDECREF(mod);
        if (err < 0) {
            return NULL;
        }
    }
    PyObject *func = PyFunction_New(co, globals);
    if (func == NULL) {
        return NULL;
    }
    if (closure != NULL && PyFunction_SetClosure(func, closure) < 0) {
        Py_DECREF(func);
        return NULL;
    }
    PyObject *res = _PyEval_Vector(tstate, (PyFunctionObject *)func, locals, NULL, 0, NULL);
    Py_DECREF(func);
    return res;
}

PyObject *
PyEval_EvalCode(PyObject *co, PyObject *globals, PyObject *locals)
{
    return _PyEval_EvalCodeWithClosure(co, globals, locals, NULL);
}

int
_PyEval_IsInlinablePyFunction(PyObject *callable)
{
    return PyFunction_Check(callable) &&
           ((PyFunctionObject *)callable)->vectorcall == _PyFunction_Vectorcall;
}
