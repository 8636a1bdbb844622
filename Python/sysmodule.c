/* The sys module. */

#include "Python.h"
#include "pycore_jit.h"
#include "pycore_optimizer.h"

#include <unistd.h>
#include "pycore_pythonrun.h"
#include "pycore_instruments.h"
#include "pycore_import.h"
#include "pycore_initconfig.h"
#include "pycore_pyhash.h"
#include "pycore_long.h"
#include "pycore_ceval.h"
#include "pycore_frame.h"
#include "pycore_long.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_sysmodule.h"
#include "pycore_traceback.h"


PyObject *
PySys_GetObject(const char *name)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate == NULL || tstate->interp->sysdict == NULL) {
        return NULL;
    }
    PyObject *exc = _PyErr_GetRaisedException(tstate);
    PyObject *value = PyDict_GetItemString(tstate->interp->sysdict, name);
    _PyErr_SetRaisedException(tstate, exc);
    return value;
}

int
PySys_SetObject(const char *name, PyObject *v)
{
    PyObject *sd = _PyThreadState_GET()->interp->sysdict;
    if (v == NULL) {
        int r = PyDict_DelItemString(sd, name);
        if (r < 0 && PyErr_ExceptionMatches(PyExc_KeyError)) {
            PyErr_Clear();
            return 0;
        }
        return r;
    }
    return PyDict_SetItemString(sd, name, v);
}

static void
sys_write(const char *name, FILE *fallback, const char *format, va_list va)
{
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *file = PySys_GetObject(name);
    PyObject *text = PyUnicode_FromFormatV(format, va);
    if (text == NULL || file == NULL || Py_IsNone(file) || PyFile_WriteObject(text, file, Py_PRINT_RAW) < 0) {
        PyErr_Clear();
        if (text != NULL) {
            fputs(PyUnicode_AsUTF8(text), fallback);
        }
    }
    Py_XDECREF(text);
    PyErr_SetRaisedException(exc);
}

void
PySys_WriteStdout(const char *format, ...)
{
    va_list va;
    va_start(va, format);
    sys_write("stdout", stdout, format, va);
    va_end(va);
}

void
PySys_WriteStderr(const char *format, ...)
{
    va_list va;
    va_start(va, format);
    sys_write("stderr", stderr, format, va);
    va_end(va);
}

void
PySys_FormatStdout(const char *format, ...)
{
    va_list va;
    va_start(va, format);
    sys_write("stdout", stdout, format, va);
    va_end(va);
}

void
PySys_FormatStderr(const char *format, ...)
{
    va_list va;
    va_start(va, format);
    sys_write("stderr", stderr, format, va);
    va_end(va);
}

/* ---- Functions -------------------------------------------------------------------- */

static PyObject *
sys_exit(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("exit", nargs, 0, 1)) {
        return NULL;
    }
    PyErr_SetObject(PyExc_SystemExit, nargs ? args[0] : NULL);
    return NULL;
}

static PyObject *
sys_getrecursionlimit(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(Py_GetRecursionLimit());
}

static PyObject *
sys_setrecursionlimit(PyObject *module, PyObject *arg)
{
    int new_limit = PyLong_AsInt(arg);
    if (new_limit == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (new_limit < 1) {
        PyErr_SetString(PyExc_ValueError, "recursion limit must be greater or equal than 1");
        return NULL;
    }
    PyThreadState *tstate = _PyThreadState_GET();
    int depth = tstate->py_recursion_limit - tstate->py_recursion_remaining;
    if (depth >= new_limit) {
        PyErr_Format(PyExc_RecursionError,
                     "cannot set the recursion limit to %i at the recursion depth %i: the limit is too low",
                     new_limit, depth);
        return NULL;
    }
    Py_SetRecursionLimit(new_limit);
    Py_RETURN_NONE;
}

static PyObject *
sys_getrefcount(PyObject *module, PyObject *arg)
{
    return PyLong_FromSsize_t(Py_REFCNT(arg));
}

#ifdef Py_REF_DEBUG
static PyObject *
sys_gettotalrefcount(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSsize_t(_Py_GetRefTotal());
}
#endif

static PyObject *
sys_getframe(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("_getframe", nargs, 0, 1)) {
        return NULL;
    }
    int depth = 0;
    if (nargs) {
        depth = PyLong_AsInt(args[0]);
        if (depth == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    PyThreadState *tstate = _PyThreadState_GET();
    _PyInterpreterFrame *frame = _PyFrame_GetFirstComplete(tstate->current_frame);
    while (depth > 0 && frame != NULL) {
        frame = _PyFrame_GetFirstComplete(frame->previous);
        depth--;
    }
    if (frame == NULL) {
        PyErr_SetString(PyExc_ValueError, "call stack is not deep enough");
        return NULL;
    }
    return Py_XNewRef((PyObject *)_PyFrame_GetFrameObject(frame));
}

static PyObject *
sys_exception(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    PyObject *exc = PyErr_GetHandledException();
    return exc ? exc : Py_NewRef(Py_None);
}

static PyObject *
sys_exc_info(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    PyObject *exc = PyErr_GetHandledException();
    if (exc == NULL) {
        return Py_BuildValue("(OOO)", Py_None, Py_None, Py_None);
    }
    PyObject *tb = PyException_GetTraceback(exc);
    PyObject *res = Py_BuildValue("(OOO)", Py_TYPE(exc), exc, tb ? tb : Py_None);
    Py_XDECREF(tb);
    Py_DECREF(exc);
    return res;
}

static PyObject *
sys_displayhook(PyObject *module, PyObject *o)
{
    if (Py_IsNone(o)) {
        Py_RETURN_NONE;
    }
    PyObject *builtins = PyImport_GetModule(_PyEval_BuiltinsModuleName());
    if (builtins == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_RuntimeError, "lost builtins module");
        }
        return NULL;
    }
    if (PyObject_SetAttrString(builtins, "_", Py_None) != 0) {
        Py_DECREF(builtins);
        return NULL;
    }
    PyObject *out = PySys_GetObject("stdout");
    if (out == NULL || Py_IsNone(out)) {
        Py_DECREF(builtins);
        PyErr_SetString(PyExc_RuntimeError, "lost sys.stdout");
        return NULL;
    }
    if (PyFile_WriteObject(o, out, 0) != 0 || PyFile_WriteString("\n", out) != 0) {
        Py_DECREF(builtins);
        return NULL;
    }
    int err = PyObject_SetAttrString(builtins, "_", o);
    Py_DECREF(builtins);
    if (err != 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
sys_excepthook(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("excepthook", nargs, 3, 3)) {
        return NULL;
    }
    PyObject *file = PySys_GetObject("stderr");
    _PyErr_Display(file, args[0], args[1], args[2]);
    Py_RETURN_NONE;
}

static PyObject *
sys_intern(PyObject *module, PyObject *s)
{
    if (!PyUnicode_CheckExact(s)) {
        PyErr_Format(PyExc_TypeError, "intern() argument must be str, not %.50s", Py_TYPE(s)->tp_name);
        return NULL;
    }
    Py_INCREF(s);
    PyUnicode_InternInPlace(&s);
    return s;
}

static PyObject *
sys_get_int_max_str_digits(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(_PyLong_GetMaxStrDigits());
}

static PyObject *
sys_set_int_max_str_digits(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"maxdigits", NULL};
    PyObject *out[1];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "set_int_max_str_digits", kwlist, 1, 1, 0, out)) {
        return NULL;
    }
    int maxdigits = PyLong_AsInt(out[0]);
    if (maxdigits == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (_PyLong_SetMaxStrDigits(maxdigits) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
sys_is_finalizing(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(_PyInterpreterState_GET()->finalizing);
}

/* ---- Encodings, sizes, interning ------------------------------------------------------ */

/* The runtime is always in UTF-8 mode (PEP 686): file names, the
   default encoding and the locale encoding of the streams. */
static PyObject *
sys_getfilesystemencoding(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyUnicode_FromString("utf-8");
}

static PyObject *
sys_getfilesystemencodeerrors(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyUnicode_FromString("surrogateescape");
}

static PyObject *
sys_getdefaultencoding(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyUnicode_FromString("utf-8");
}

/* sizeof(obj): its __sizeof__, plus the collector's header for objects
   the collector tracks. */
static PyObject *
sys_getsizeof(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"object", "default", NULL};
    PyObject *obj, *dflt = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:getsizeof", (char **)kwlist, &obj, &dflt)) {
        return NULL;
    }
    PyObject *res = PyObject_CallMethod(obj, "__sizeof__", NULL);
    if (res == NULL) {
        if (dflt != NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            return Py_NewRef(dflt);
        }
        return NULL;
    }
    Py_ssize_t size = PyLong_AsSsize_t(res);
    Py_DECREF(res);
    if (size == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_SetString(PyExc_TypeError, "an integer is required");
        }
        return NULL;
    }
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "__sizeof__() should return >= 0");
        return NULL;
    }
    if (_PyObject_IS_GC(obj)) {
        size += (Py_ssize_t)sizeof(PyGC_Head);
    }
    return PyLong_FromSsize_t(size);
}

static PyObject *
sys_is_interned(PyObject *module, PyObject *s)
{
    if (!PyUnicode_Check(s)) {
        PyErr_Format(PyExc_TypeError, "_is_interned() argument must be str, not %.50s",
                     Py_TYPE(s)->tp_name);
        return NULL;
    }
    return PyBool_FromLong(PyUnicode_CHECK_INTERNED(s) != SSTATE_NOT_INTERNED);
}

static PyObject *
sys_getunicodeinternedsize(PyObject *module, PyObject *args, PyObject *kwargs)
{
    PyObject *interned = _PyInterpreterState_GET()->interned;
    return PyLong_FromSsize_t(interned ? PyDict_GET_SIZE(interned) : 0);
}

static PyObject *
sys_clear_type_cache(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    PyType_ClearCache();
    Py_RETURN_NONE;
}

/* The allocator counts live blocks only when PYTHONCOUNTBLOCKS is set
   (refleak runs); otherwise 0, as CPython reports when it cannot tell. */
static PyObject *
sys_getallocatedblocks(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSsize_t(_PyMem_AllocatedBlocks());
}

/* dataclasses(slots=True) replaces a class by a new one: dropping the
   old class's __dict__ and __weakref__ descriptors (which refer back to
   it) lets it be collected. */
static PyObject *
sys_clear_type_descriptors(PyObject *module, PyObject *arg)
{
    if (!PyType_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "_clear_type_descriptors() argument must be a type, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)arg;
    const char *names[] = {"__dict__", "__weakref__"};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(names); i++) {
        PyObject *key = PyUnicode_FromString(names[i]);
        int err = key == NULL || PyDict_Pop(type->tp_dict, key, NULL) < 0;
        Py_XDECREF(key);
        if (err) {
            return NULL;
        }
    }
    PyType_Modified(type);
    Py_RETURN_NONE;
}

/* -X cpu_count is not supported: -1, "use the real count". */
static PyObject *
sys_get_cpu_count_config(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(-1);
}

static PyObject *
sys_is_gil_enabled(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_TRUE;
}

static PyObject *
sys_call_tracing(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("call_tracing", nargs, 2, 2)) {
        return NULL;
    }
    if (!PyTuple_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "call_tracing() argument 2 must be tuple, not %.50s",
                     Py_TYPE(args[1])->tp_name);
        return NULL;
    }
    return PyObject_Call(args[0], args[1], NULL);
}

static int dlopen_flags = 2; /* RTLD_NOW */

/* The flags extension modules are opened with (Python/importdl.c). */
int
_PySys_GetDlopenFlags(void)
{
    return dlopen_flags;
}

static PyObject *
sys_getdlopenflags(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(dlopen_flags);
}

static PyObject *
sys_setdlopenflags(PyObject *module, PyObject *arg)
{
    int flags = PyLong_AsInt(arg);
    if (flags == -1 && PyErr_Occurred()) {
        return NULL;
    }
    dlopen_flags = flags;
    Py_RETURN_NONE;
}

/* The module of the function running `depth` frames up, read from the
   function itself so that no frame object is made (DESIGN section 7). */
static PyObject *
sys_getframemodulename(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"depth", NULL};
    int depth = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|i:_getframemodulename", (char **)kwlist,
                                     &depth)) {
        return NULL;
    }
    _PyInterpreterFrame *frame = _PyFrame_GetFirstComplete(_PyThreadState_GET()->current_frame);
    for (; frame != NULL && depth > 0; depth--) {
        frame = _PyFrame_GetFirstComplete(frame->previous);
    }
    if (frame == NULL) {
        Py_RETURN_NONE;
    }
    PyObject *func = PyStackRef_AsPyObjectBorrow(frame->f_funcobj);
    if (func == NULL || !PyFunction_Check(func)) {
        Py_RETURN_NONE;
    }
    PyObject *name = ((PyFunctionObject *)func)->func_module;
    return Py_NewRef(name ? name : Py_None);
}

/* ---- Audit hooks (PEP 578) -------------------------------------------------------------

   Hooks from C (PySys_AddAuditHook) run first, then those from Python
   (sys.addaudithook), in the order added; they stay for the life of the
   interpreter.  The Python hooks are a list kept in the interpreter's
   scratch dict, so finalization clears them with everything else. */

typedef struct {
    Py_AuditHookFunction func;
    void *data;
} c_audit_hook;

static c_audit_hook *c_audit_hooks;
static int n_c_audit_hooks;

static PyObject *
python_audit_hooks(int create)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    if (interp->dict == NULL) {
        if (!create) {
            return NULL;
        }
        interp->dict = PyDict_New();
        if (interp->dict == NULL) {
            return NULL;
        }
    }
    PyObject *hooks = PyDict_GetItemString(interp->dict, "audit_hooks");
    if (hooks == NULL && create) {
        hooks = PyList_New(0);
        if (hooks == NULL || PyDict_SetItemString(interp->dict, "audit_hooks", hooks) < 0) {
            Py_XDECREF(hooks);
            return NULL;
        }
        Py_DECREF(hooks);
    }
    return hooks;
}

/* Run every hook for `event` with the tuple `args`; -1 if one raised. */
static int
run_audit_hooks(const char *event, PyObject *args)
{
    for (int i = 0; i < n_c_audit_hooks; i++) {
        if (c_audit_hooks[i].func(event, args, c_audit_hooks[i].data) < 0) {
            return -1;
        }
    }
    PyObject *hooks = python_audit_hooks(0);
    if (hooks == NULL || PyList_GET_SIZE(hooks) == 0) {
        return 0;
    }
    PyObject *name = PyUnicode_FromString(event);
    if (name == NULL) {
        return -1;
    }
    Py_INCREF(hooks);
    int err = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hooks) && !err; i++) {
        PyObject *res = PyObject_CallFunctionObjArgs(PyList_GET_ITEM(hooks, i), name, args, NULL);
        err = res == NULL;
        Py_XDECREF(res);
    }
    Py_DECREF(hooks);
    Py_DECREF(name);
    return err ? -1 : 0;
}

static int
audit_hooks_present(void)
{
    PyObject *hooks = python_audit_hooks(0);
    return n_c_audit_hooks > 0 || (hooks != NULL && PyList_GET_SIZE(hooks) > 0);
}

int
PySys_Audit(const char *event, const char *format, ...)
{
    if (!audit_hooks_present()) {
        return 0;
    }
    PyObject *args;
    if (format == NULL || *format == '\0') {
        args = PyTuple_New(0);
    }
    else {
        va_list va;
        va_start(va, format);
        args = Py_VaBuildValue(format, va);
        va_end(va);
        if (args != NULL && !PyTuple_Check(args)) {
            Py_SETREF(args, PyTuple_Pack(1, args));
        }
    }
    if (args == NULL) {
        return -1;
    }
    int err = run_audit_hooks(event, args);
    Py_DECREF(args);
    return err;
}

int
PySys_AddAuditHook(Py_AuditHookFunction hook, void *user_data)
{
    if (Py_IsInitialized() && PySys_Audit("sys.addaudithook", NULL) < 0) {
        /* A hook may veto new hooks by raising RuntimeError. */
        if (PyErr_ExceptionMatches(PyExc_Exception)) {
            PyErr_Clear();
        }
        return -1;
    }
    c_audit_hook *grown = realloc(c_audit_hooks, (size_t)(n_c_audit_hooks + 1) * sizeof(*grown));
    if (grown == NULL) {
        return -1;
    }
    c_audit_hooks = grown;
    c_audit_hooks[n_c_audit_hooks].func = hook;
    c_audit_hooks[n_c_audit_hooks].data = user_data;
    n_c_audit_hooks++;
    return 0;
}

static PyObject *
sys_addaudithook(PyObject *module, PyObject *hook)
{
    if (PySys_Audit("sys.addaudithook", NULL) < 0) {
        if (PyErr_ExceptionMatches(PyExc_RuntimeError)) {
            PyErr_Clear(); /* a veto: the hook is silently not added */
            Py_RETURN_NONE;
        }
        return NULL;
    }
    PyObject *hooks = python_audit_hooks(1);
    if (hooks == NULL || PyList_Append(hooks, hook) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
sys_audit(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs == 0) {
        PyErr_SetString(PyExc_TypeError, "audit() missing 1 required positional argument: 'event'");
        return NULL;
    }
    if (!PyUnicode_Check(args[0])) {
        PyErr_Format(PyExc_TypeError, "expected str for argument 'event', not %.200s",
                     Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    if (!audit_hooks_present()) {
        Py_RETURN_NONE;
    }
    const char *event = PyUnicode_AsUTF8(args[0]);
    PyObject *rest = event ? _PyTuple_FromArray(args + 1, nargs - 1) : NULL;
    int err = rest == NULL || run_audit_hooks(event, rest) < 0;
    Py_XDECREF(rest);
    if (err) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- breakpoint() and unraisable exceptions ---------------------------------------------- */

/* The default sys.breakpointhook: PYTHONBREAKPOINT names the callable
   ("module.attr", default pdb.set_trace); "0" turns breakpoint() off. */
static PyObject *
sys_breakpointhook(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    const char *env = _Py_Config.use_environment ? getenv("PYTHONBREAKPOINT") : NULL;
    if (env == NULL || *env == '\0') {
        env = "pdb.set_trace";
    }
    else if (strcmp(env, "0") == 0) {
        Py_RETURN_NONE;
    }
    const char *dot = strrchr(env, '.');
    PyObject *modname = dot ? PyUnicode_FromStringAndSize(env, dot - env) : PyUnicode_FromString("builtins");
    PyObject *hook = NULL;
    if (modname != NULL) {
        PyObject *mod = PyImport_Import(modname);
        hook = mod ? PyObject_GetAttrString(mod, dot ? dot + 1 : env) : NULL;
        Py_XDECREF(mod);
        Py_DECREF(modname);
    }
    if (hook == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ImportError) || PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            return PyErr_WarnFormat(PyExc_RuntimeWarning, 0,
                                    "Ignoring unimportable $PYTHONBREAKPOINT: \"%s\"", env) < 0
                       ? NULL : Py_NewRef(Py_None);
        }
        return NULL;
    }
    PyObject *res = PyObject_Vectorcall(hook, args, (size_t)nargs, kwnames);
    Py_DECREF(hook);
    return res;
}

static PyTypeObject UnraisableHookArgsType;
static PyStructSequence_Field unraisable_fields[] = {
    {"exc_type", "the exception's type"},
    {"exc_value", "the exception, or None"},
    {"exc_traceback", "its traceback, or None"},
    {"err_msg", "what was being done, or None"},
    {"object", "the object involved, or None"},
    {NULL, NULL},
};
static PyStructSequence_Desc unraisable_desc = {
    "UnraisableHookArgs", "What sys.unraisablehook is told.", unraisable_fields, 5,
};

/* The default hook: "Exception ignored in: <obj>" (or err_msg), then
   the traceback, on sys.stderr. */
static PyObject *
sys_unraisablehook(PyObject *module, PyObject *args)
{
    if (!PyObject_TypeCheck(args, &UnraisableHookArgsType)) {
        PyErr_SetString(PyExc_TypeError, "sys.unraisablehook argument type must be UnraisableHookArgs");
        return NULL;
    }
    PyObject *file = PySys_GetObject("stderr");
    if (file == NULL || Py_IsNone(file)) {
        Py_RETURN_NONE;
    }
    Py_INCREF(file);
    PyObject *type = PyStructSequence_GetItem(args, 0), *value = PyStructSequence_GetItem(args, 1);
    PyObject *tb = PyStructSequence_GetItem(args, 2), *msg = PyStructSequence_GetItem(args, 3);
    PyObject *obj = PyStructSequence_GetItem(args, 4);
    if (msg != Py_None || obj != Py_None) {
        if (msg != Py_None) {
            PyFile_WriteObject(msg, file, Py_PRINT_RAW);
        }
        else {
            PyFile_WriteString("Exception ignored in", file);
        }
        if (obj != Py_None) {
            PyFile_WriteString(": ", file);
            if (PyFile_WriteObject(obj, file, 0) < 0) {
                PyErr_Clear();
                PyFile_WriteString("<object repr() failed>", file);
            }
        }
        PyFile_WriteString("\n", file);
    }
    if (type != Py_None) {
        _PyErr_Display(file, type, value, tb == Py_None ? NULL : tb);
    }
    Py_DECREF(file);
    PyErr_Clear();
    Py_RETURN_NONE;
}

/* Report an exception that cannot be raised (in a finalizer, a callback
   with no caller...) through sys.unraisablehook; `msg` may be NULL. */
void
_PyErr_WriteUnraisableMsg(const char *msg, PyObject *obj)
{
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL) {
        return;
    }
    if (UnraisableHookArgsType.tp_name == NULL &&
        (PyStructSequence_InitType2(&UnraisableHookArgsType, &unraisable_desc) < 0 ||
         _PyStaticType_InitBuiltin(&UnraisableHookArgsType) < 0)) {
        PyErr_Clear();
        Py_DECREF(exc);
        return;
    }
    PyObject *tb = PyException_GetTraceback(exc);
    PyObject *text = msg ? PyUnicode_FromString(msg) : Py_NewRef(Py_None);
    PyObject *args = PyStructSequence_New(&UnraisableHookArgsType);
    if (args != NULL && text != NULL) {
        PyStructSequence_SetItem(args, 0, Py_NewRef((PyObject *)Py_TYPE(exc)));
        PyStructSequence_SetItem(args, 1, Py_NewRef(exc));
        PyStructSequence_SetItem(args, 2, tb ? Py_NewRef(tb) : Py_NewRef(Py_None));
        PyStructSequence_SetItem(args, 3, Py_NewRef(text));
        PyStructSequence_SetItem(args, 4, Py_NewRef(obj ? obj : Py_None));
        PyObject *hook = PySys_GetObject("unraisablehook");
        PyObject *res = hook && hook != Py_None ? PyObject_CallOneArg(hook, args)
                                                : sys_unraisablehook(NULL, args);
        if (res == NULL) {
            /* The hook failed: report both the hook's error and ours the
               plain way, as CPython does. */
            PyObject *hook_exc = PyErr_GetRaisedException();
            PyObject *plain = sys_unraisablehook(NULL, args);
            Py_XDECREF(plain);
            Py_XDECREF(hook_exc);
        }
        Py_XDECREF(res);
    }
    Py_XDECREF(args);
    Py_XDECREF(text);
    Py_XDECREF(tb);
    Py_DECREF(exc);
    PyErr_Clear();
}

/* ---- Asynchronous generator hooks and coroutine origins -------------------------------- */

static PyTypeObject AsyncGenHooksType;
static PyStructSequence_Field asyncgen_hooks_fields[] = {
    {"firstiter", "called when an async generator is first iterated"},
    {"finalizer", "called when an async generator is about to be collected"},
    {NULL, NULL},
};
static PyStructSequence_Desc asyncgen_hooks_desc = {
    "asyncgen_hooks", "The hooks event loops set for async generators.", asyncgen_hooks_fields, 2,
};

static PyObject *
sys_get_asyncgen_hooks(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    if (AsyncGenHooksType.tp_name == NULL &&
        (PyStructSequence_InitType2(&AsyncGenHooksType, &asyncgen_hooks_desc) < 0 ||
         _PyStaticType_InitBuiltin(&AsyncGenHooksType) < 0)) {
        return NULL;
    }
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *res = PyStructSequence_New(&AsyncGenHooksType);
    if (res != NULL) {
        PyObject *firstiter = tstate->async_gen_firstiter;
        PyObject *finalizer = tstate->async_gen_finalizer;
        PyStructSequence_SetItem(res, 0, Py_NewRef(firstiter ? firstiter : Py_None));
        PyStructSequence_SetItem(res, 1, Py_NewRef(finalizer ? finalizer : Py_None));
    }
    return res;
}

static int
check_hook(PyObject *hook, const char *what)
{
    if (hook != NULL && hook != Py_None && !PyCallable_Check(hook)) {
        PyErr_Format(PyExc_TypeError, "callable %s expected, got %.50s", what, Py_TYPE(hook)->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *
sys_set_asyncgen_hooks(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"firstiter", "finalizer", NULL};
    PyObject *firstiter = NULL, *finalizer = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:set_asyncgen_hooks", (char **)kwlist,
                                     &firstiter, &finalizer)) {
        return NULL;
    }
    if (check_hook(finalizer, "finalizer") < 0 || check_hook(firstiter, "firstiter") < 0) {
        return NULL;
    }
    /* An argument left out keeps its hook; None clears it.  The hooks
       belong to the calling thread: each thread runs its own event loop. */
    PyThreadState *tstate = _PyThreadState_GET();
    if (firstiter != NULL) {
        Py_XSETREF(tstate->async_gen_firstiter, firstiter == Py_None ? NULL : Py_NewRef(firstiter));
    }
    if (finalizer != NULL) {
        Py_XSETREF(tstate->async_gen_finalizer, finalizer == Py_None ? NULL : Py_NewRef(finalizer));
    }
    Py_RETURN_NONE;
}

static PyObject *
sys_get_coroutine_origin_tracking_depth(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(_PyThreadState_GET()->coroutine_origin_tracking_depth);
}

/* New coroutines record this many of their callers in cr_origin
   (Objects/genobject.c); asyncio's debug mode turns it on. */
static PyObject *
sys_set_coroutine_origin_tracking_depth(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"depth", NULL};
    int depth;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i:set_coroutine_origin_tracking_depth",
                                     (char **)kwlist, &depth)) {
        return NULL;
    }
    if (depth < 0) {
        PyErr_SetString(PyExc_ValueError, "depth must be >= 0");
        return NULL;
    }
    _PyThreadState_GET()->coroutine_origin_tracking_depth = depth;
    Py_RETURN_NONE;
}

/* ---- Tracing and profiling (Python/legacy_tracing.c does the work) ------- */

static PyObject *
legacy_arg(PyObject *func)
{
    return Py_IsNone(func) ? NULL : func;
}

static PyObject *
sys_settrace(PyObject *module, PyObject *func)
{
    if (_PyEval_SetTrace(_PyThreadState_GET(), legacy_arg(func)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
sys_gettrace(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    PyObject *func = _PyThreadState_GET()->c_traceobj;
    return Py_NewRef(func != NULL ? func : Py_None);
}

static PyObject *
sys_setprofile(PyObject *module, PyObject *func)
{
    if (_PyEval_SetProfile(_PyThreadState_GET(), legacy_arg(func)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
sys_getprofile(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    PyObject *func = _PyThreadState_GET()->c_profileobj;
    return Py_NewRef(func != NULL ? func : Py_None);
}

static PyObject *
sys_settraceallthreads(PyObject *module, PyObject *func)
{
    if (_PyEval_SetTraceAllThreads(legacy_arg(func)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
sys_setprofileallthreads(PyObject *module, PyObject *func)
{
    if (_PyEval_SetProfileAllThreads(legacy_arg(func)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef sys_methods[] = {
    {"exit", _PyCFunction_CAST(sys_exit), METH_FASTCALL, NULL},
    {"_baserepl", _PySys_BaseRepl, METH_NOARGS, NULL},
    {"getrecursionlimit", sys_getrecursionlimit, METH_NOARGS, NULL},
    {"setrecursionlimit", sys_setrecursionlimit, METH_O, NULL},
    {"getrefcount", sys_getrefcount, METH_O, NULL},
#ifdef Py_REF_DEBUG
    {"gettotalrefcount", sys_gettotalrefcount, METH_NOARGS, NULL},
#endif
    {"_getframe", _PyCFunction_CAST(sys_getframe), METH_FASTCALL, NULL},
    {"exception", sys_exception, METH_NOARGS, NULL},
    {"exc_info", sys_exc_info, METH_NOARGS, NULL},
    {"displayhook", sys_displayhook, METH_O, NULL},
    {"excepthook", _PyCFunction_CAST(sys_excepthook), METH_FASTCALL, NULL},
    {"intern", sys_intern, METH_O, NULL},
    {"get_int_max_str_digits", sys_get_int_max_str_digits, METH_NOARGS, NULL},
    {"set_int_max_str_digits", _PyCFunction_CAST(sys_set_int_max_str_digits), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"is_finalizing", sys_is_finalizing, METH_NOARGS, NULL},
    {"getfilesystemencoding", sys_getfilesystemencoding, METH_NOARGS, NULL},
    {"getfilesystemencodeerrors", sys_getfilesystemencodeerrors, METH_NOARGS, NULL},
    {"getdefaultencoding", sys_getdefaultencoding, METH_NOARGS, NULL},
    {"getsizeof", _PyCFunction_CAST(sys_getsizeof), METH_VARARGS | METH_KEYWORDS, NULL},
    {"_is_interned", sys_is_interned, METH_O, NULL},
    {"getunicodeinternedsize", _PyCFunction_CAST(sys_getunicodeinternedsize),
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"_clear_type_cache", sys_clear_type_cache, METH_NOARGS, NULL},
    {"_clear_internal_caches", sys_clear_type_cache, METH_NOARGS, NULL},
    {"getallocatedblocks", sys_getallocatedblocks, METH_NOARGS, NULL},
    {"_is_gil_enabled", sys_is_gil_enabled, METH_NOARGS, NULL},
    {"_get_cpu_count_config", sys_get_cpu_count_config, METH_NOARGS, NULL},
    {"_clear_type_descriptors", sys_clear_type_descriptors, METH_O, NULL},
    {"call_tracing", _PyCFunction_CAST(sys_call_tracing), METH_FASTCALL, NULL},
    {"settrace", sys_settrace, METH_O, "settrace(function, /)\n--\n\nSet the trace function of this thread."},
    {"gettrace", sys_gettrace, METH_NOARGS, "gettrace()\n--\n\nThe trace function of this thread, or None."},
    {"setprofile", sys_setprofile, METH_O, "setprofile(function, /)\n--\n\nSet the profile function of this thread."},
    {"getprofile", sys_getprofile, METH_NOARGS, "getprofile()\n--\n\nThe profile function of this thread, or None."},
    {"_settraceallthreads", sys_settraceallthreads, METH_O, NULL},
    {"_setprofileallthreads", sys_setprofileallthreads, METH_O, NULL},
    {"getdlopenflags", sys_getdlopenflags, METH_NOARGS, NULL},
    {"setdlopenflags", sys_setdlopenflags, METH_O, NULL},
    {"_getframemodulename", _PyCFunction_CAST(sys_getframemodulename),
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"addaudithook", sys_addaudithook, METH_O, NULL},
    {"audit", _PyCFunction_CAST(sys_audit), METH_FASTCALL, NULL},
    {"breakpointhook", _PyCFunction_CAST(sys_breakpointhook), METH_FASTCALL | METH_KEYWORDS, NULL},
    {"unraisablehook", sys_unraisablehook, METH_O, NULL},
    {"get_asyncgen_hooks", sys_get_asyncgen_hooks, METH_NOARGS, NULL},
    {"set_asyncgen_hooks", _PyCFunction_CAST(sys_set_asyncgen_hooks), METH_VARARGS | METH_KEYWORDS,
     NULL},
    {"get_coroutine_origin_tracking_depth", sys_get_coroutine_origin_tracking_depth, METH_NOARGS,
     NULL},
    {"set_coroutine_origin_tracking_depth",
     _PyCFunction_CAST(sys_set_coroutine_origin_tracking_depth), METH_VARARGS | METH_KEYWORDS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- sys._jit ---------------------------------------------------------------------
   What the JIT is doing, as CPython 3.14 reports it: is_enabled() is tier
   2 switched on (-X jit / PYTHON_JIT, or the build's default);
   is_available() is machine code can be made (a --enable-experimental-jit
   build whose code mapping works); is_active() is the caller running in
   machine code, never true in the uop interpreter. */

static PyObject *
jit_is_available(PyObject *module, PyObject *Py_UNUSED(ignored))
{
#ifdef _Py_JIT
    return PyBool_FromLong(_PyJIT_IsAvailable());
#else
    Py_RETURN_FALSE;
#endif
}

static PyObject *
jit_is_enabled(PyObject *module, PyObject *Py_UNUSED(ignored))
{
#ifdef _Py_TIER2
    return PyBool_FromLong(_Py_Tier2_Enabled);
#else
    Py_RETURN_FALSE;
#endif
}

static PyObject *
jit_is_active(PyObject *module, PyObject *Py_UNUSED(ignored))
{
#ifdef _Py_JIT
    PyThreadState *tstate = _PyThreadState_GET();
    return PyBool_FromLong(_PyJIT_FrameIsActive(tstate, tstate->current_frame));
#else
    Py_RETURN_FALSE;
#endif
}

static PyMethodDef jit_methods[] = {
    {"is_available", jit_is_available, METH_NOARGS, "Whether this build has the JIT compiler."},
    {"is_enabled", jit_is_enabled, METH_NOARGS, "Whether the JIT is switched on (-X jit, PYTHON_JIT)."},
    {"is_active", jit_is_active, METH_NOARGS, "Whether the caller is running in JIT code."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef jitmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sys._jit",
    .m_doc = "Utilities for observing just-in-time compilation.",
    .m_size = -1,
    .m_methods = jit_methods,
};

static struct PyModuleDef sysmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sys",
    .m_doc = "This module provides access to some objects used or maintained by the\n"
             "interpreter and to functions that interact strongly with the interpreter.",
    .m_size = -1,
    .m_methods = sys_methods,
};

/* ---- Values ------------------------------------------------------------------------ */

static int
set_value(PyObject *dict, const char *name, PyObject *value)
{
    if (value == NULL) {
        return -1;
    }
    int err = PyDict_SetItemString(dict, name, value);
    Py_DECREF(value);
    return err;
}

static PyObject *
make_argv(int argc, char **argv)
{
    PyObject *list = PyList_New(argc > 0 ? argc : 1);
    if (list == NULL) {
        return NULL;
    }
    if (argc <= 0) {
        PyList_SET_ITEM(list, 0, PyUnicode_FromString(""));
        return list;
    }
    for (int i = 0; i < argc; i++) {
        PyObject *v = PyUnicode_DecodeFSDefault(argv[i]);
        if (v == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

/* ---- Struct-sequence values ------------------------------------------------------- */

static PyTypeObject VersionInfoType;
static PyStructSequence_Field version_info_fields[] = {
    {"major", "Major release number"},
    {"minor", "Minor release number"},
    {"micro", "Patch release number"},
    {"releaselevel", "'alpha', 'beta', 'candidate', or 'final'"},
    {"serial", "Serial release number"},
    {NULL, NULL},
};
static PyStructSequence_Desc version_info_desc = {
    "sys.version_info", "Version information as a named tuple.", version_info_fields, 5,
};

static PyObject *
make_version_info(void)
{
    if (PyStructSequence_InitType2(&VersionInfoType, &version_info_desc) < 0) {
        return NULL;
    }
    PyObject *v = PyStructSequence_New(&VersionInfoType);
    if (v == NULL) {
        return NULL;
    }
    PyStructSequence_SetItem(v, 0, PyLong_FromLong(3));
    PyStructSequence_SetItem(v, 1, PyLong_FromLong(14));
    PyStructSequence_SetItem(v, 2, PyLong_FromLong(0));
    PyStructSequence_SetItem(v, 3, PyUnicode_FromString("final"));
    PyStructSequence_SetItem(v, 4, PyLong_FromLong(0));
    if (PyErr_Occurred()) {
        Py_DECREF(v);
        return NULL;
    }
    return v;
}

static PyTypeObject FlagsType;
static PyStructSequence_Field flags_fields[] = {
    {"debug", NULL}, {"inspect", NULL}, {"interactive", NULL}, {"optimize", NULL},
    {"dont_write_bytecode", NULL}, {"no_user_site", NULL}, {"no_site", NULL},
    {"ignore_environment", NULL}, {"verbose", NULL}, {"bytes_warning", NULL}, {"quiet", NULL},
    {"hash_randomization", NULL}, {"isolated", NULL}, {"dev_mode", NULL}, {"utf8_mode", NULL},
    {"warn_default_encoding", NULL}, {"safe_path", NULL}, {"int_max_str_digits", NULL},
    {"thread_inherit_context", NULL}, {"context_aware_warnings", NULL},
    {NULL, NULL},
};
static PyStructSequence_Desc flags_desc = {
    "sys.flags", "The options the interpreter was started with.", flags_fields, 20,
};

#include "stdlib_module_names.h"

static PyObject *
make_stdlib_module_names(void)
{
    PyObject *names = PyFrozenSet_New(NULL);
    for (size_t i = 0; names != NULL && i < Py_ARRAY_LENGTH(_Py_StdlibModuleNames); i++) {
        PyObject *name = PyUnicode_FromString(_Py_StdlibModuleNames[i]);
        if (name == NULL || PySet_Add(names, name) < 0) {
            Py_CLEAR(names);
        }
        Py_XDECREF(name);
    }
    return names;
}

/* The legacy global of the -O level (deprecated since 3.12, still read by
   embedders and by CPython's ctypes tests through pythonapi).  It mirrors
   the configuration each time sys.flags is made from it. */
int Py_OptimizeFlag = 0;

/* sys.flags, in the field order above, from the configuration. */
static PyObject *
make_flags(void)
{
    if (FlagsType.tp_name == NULL && PyStructSequence_InitType2(&FlagsType, &flags_desc) < 0) {
        return NULL;
    }
    const _PyRuntimeConfig *c = &_Py_Config;
    Py_OptimizeFlag = c->optimization_level;
    int values[] = {
        c->parser_debug, c->inspect, c->interactive, c->optimization_level,
        !c->write_bytecode, !c->user_site_directory, !c->site_import,
        !c->use_environment, c->verbose, c->bytes_warning, c->quiet,
        _Py_HashRandomizationEnabled(), c->isolated, c->dev_mode,
        1 /* utf8_mode */, c->warn_default_encoding, c->safe_path,
        c->int_max_str_digits >= 0 ? c->int_max_str_digits : _PY_LONG_DEFAULT_MAX_STR_DIGITS,
        c->thread_inherit_context, c->context_aware_warnings,
    };
    PyObject *v = PyStructSequence_New(&FlagsType);
    if (v == NULL) {
        return NULL;
    }
    for (int i = 0; i < (int)Py_ARRAY_LENGTH(values); i++) {
        /* dev_mode and safe_path are bools, as in CPython; the others ints. */
        PyObject *item = i == 13 || i == 16 ? PyBool_FromLong(values[i]) : PyLong_FromLong(values[i]);
        if (item == NULL) {
            Py_DECREF(v);
            return NULL;
        }
        PyStructSequence_SetItem(v, i, item);
    }
    return v;
}

/* Start-up options that sys shows: flags, warnoptions, _xoptions,
   dont_write_bytecode; and the -X int_max_str_digits limit. */
int
_PySys_UpdateConfig(void)
{
    if (_Py_Config.int_max_str_digits >= 0) {
        _Py_int_max_str_digits = _Py_Config.int_max_str_digits;
    }
    PyObject *flags = make_flags();
    PyObject *warnoptions = _PyConfig_WarnOptionsList();
    PyObject *xoptions = _PyConfig_XOptionsDict();
    int err = flags == NULL || warnoptions == NULL || xoptions == NULL ||
              PySys_SetObject("flags", flags) < 0 ||
              PySys_SetObject("warnoptions", warnoptions) < 0 ||
              PySys_SetObject("_xoptions", xoptions) < 0 ||
              PySys_SetObject("dont_write_bytecode", _Py_Config.write_bytecode ? Py_False : Py_True) < 0;
    if (!err && _Py_Config.pycache_prefix != NULL) {
        PyObject *prefix = PyUnicode_DecodeFSDefault(_Py_Config.pycache_prefix);
        err = prefix == NULL || PySys_SetObject("pycache_prefix", prefix) < 0;
        Py_XDECREF(prefix);
    }
    Py_XDECREF(flags);
    Py_XDECREF(warnoptions);
    Py_XDECREF(xoptions);
    return err ? -1 : 0;
}

/* sys.implementation: the name is "cpython", as CPython forks report, so
   tools take their CPython paths; the cache tag is ours so bytecode caches
   never mix with CPython's. */
static PyObject *
make_implementation(PyObject *version_info)
{
    PyObject *d = Py_BuildValue("{sssssOsisssO}", "name", "cpython", "cache_tag", _PY_CACHE_TAG,
                                "version", version_info, "hexversion", PY_VERSION_HEX,
                                "_multiarch", PY_MULTIARCH, "supports_isolated_interpreters",
                                Py_False);
    if (d == NULL) {
        return NULL;
    }
    PyObject *ns = _PyNamespace_New(d);
    Py_DECREF(d);
    return ns;
}

PyObject *
_PySys_Create(PyThreadState *tstate)
{
    PyObject *mod = PyModule_Create(&sysmodule);
    if (mod == NULL) {
        return NULL;
    }
    PyObject *d = PyModule_GetDict(mod);
    tstate->interp->sysdict = Py_NewRef(d);
    int err = 0;
    err |= set_value(d, "version", PyUnicode_FromString(Py_GetVersion()));
    PyObject *version_info = make_version_info();
    err |= set_value(d, "implementation", version_info ? make_implementation(version_info) : NULL);
    err |= set_value(d, "version_info", version_info);
    err |= set_value(d, "flags", make_flags());
    err |= set_value(d, "hexversion", PyLong_FromLong(PY_VERSION_HEX));
    err |= set_value(d, "api_version", PyLong_FromLong(PYTHON_API_VERSION));
    err |= set_value(d, "maxsize", PyLong_FromSsize_t(PY_SSIZE_T_MAX));
    err |= set_value(d, "maxunicode", PyLong_FromLong(0x10FFFF));
    err |= set_value(d, "byteorder", PyUnicode_FromString("little"));
    err |= set_value(d, "platform", PyUnicode_FromString("linux"));
    err |= set_value(d, "abiflags", PyUnicode_FromString(""));
    err |= set_value(d, "copyright", PyUnicode_FromString("Copyright (c) the lazypy authors."));
    err |= set_value(d, "dont_write_bytecode", Py_NewRef(Py_True));
    err |= set_value(d, "modules", Py_NewRef(tstate->interp->modules));
    err |= set_value(d, "path", PyList_New(0));
    err |= set_value(d, "meta_path", PyList_New(0));
    err |= set_value(d, "path_hooks", PyList_New(0));
    err |= set_value(d, "path_importer_cache", PyDict_New());
    err |= set_value(d, "builtin_module_names", _PyImport_BuiltinModuleNames());
    err |= set_value(d, "stdlib_module_names", make_stdlib_module_names());
    err |= set_value(d, "pycache_prefix", Py_NewRef(Py_None));
    err |= set_value(d, "platlibdir", PyUnicode_FromString("lib"));
    err |= set_value(d, "stdout", PyFile_NewStdPrinter(1));
    err |= set_value(d, "stderr", PyFile_NewStdPrinter(2));
    err |= set_value(d, "stdin", Py_NewRef(Py_None));
    err |= set_value(d, "__stdout__", Py_NewRef(PyDict_GetItemString(d, "stdout")));
    err |= set_value(d, "__stderr__", Py_NewRef(PyDict_GetItemString(d, "stderr")));
    err |= set_value(d, "__displayhook__", Py_NewRef(PyDict_GetItemString(d, "displayhook")));
    err |= set_value(d, "__excepthook__", Py_NewRef(PyDict_GetItemString(d, "excepthook")));
    err |= set_value(d, "__breakpointhook__", Py_NewRef(PyDict_GetItemString(d, "breakpointhook")));
    err |= set_value(d, "__unraisablehook__", Py_NewRef(PyDict_GetItemString(d, "unraisablehook")));
    err |= _PySys_AddInfo(d);
    err |= set_value(d, "_git", Py_BuildValue("(sss)", "lazypy", "", ""));
    err |= set_value(d, "_framework", PyUnicode_FromString(""));
    err |= set_value(d, "argv", make_argv(0, NULL));
    err |= set_value(d, "orig_argv", PyList_New(0));
    err |= set_value(d, "warnoptions", PyList_New(0));
    err |= set_value(d, "_xoptions", PyDict_New());
    err |= set_value(d, "_jit", PyModule_Create(&jitmodule));
    err |= set_value(d, "monitoring", _PyMonitoring_MakeModule());
    if (err) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}

int
_PySys_SetArgv(int argc, char **argv)
{
    PyObject *list = make_argv(argc, argv);
    if (list == NULL) {
        return -1;
    }
    int err = PySys_SetObject("argv", list);
    Py_DECREF(list);
    return err;
}

/* Append path component `part` (length n) to the absolute path in buf,
   folding "." and ".." as os.path.normpath does.  0, or -1 if too long. */
static int
append_component(char *buf, size_t size, const char *part, size_t n)
{
    size_t len = strlen(buf);
    if (n == 0 || (n == 1 && part[0] == '.')) {
        return 0;
    }
    if (n == 2 && part[0] == '.' && part[1] == '.') {
        while (len > 1 && buf[len - 1] != '/') {
            len--;
        }
        buf[len > 1 ? len - 1 : 1] = '\0';
        return 0;
    }
    if (len + n + 2 > size) {
        return -1;
    }
    if (buf[len - 1] != '/') {
        buf[len++] = '/';
    }
    memcpy(buf + len, part, n);
    buf[len + n] = '\0';
    return 0;
}

/* `path` made absolute against `base` (a directory) and normalised, but
   not resolved through symlinks.  0, or -1 if it does not fit. */
static int
absolute_lexical_path(const char *base, const char *path, char *out, size_t size)
{
    if (path[0] == '/') {
        strcpy(out, "/");
    }
    else if (strlen(base) < size) {
        strcpy(out, base);
    }
    else {
        return -1;
    }
    for (const char *p = path; *p;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (append_component(out, size, p, n) < 0) {
            return -1;
        }
        p += n + (slash != NULL);
    }
    return 0;
}

/* argv[0] without a '/': the first executable of that name on PATH
   (relative PATH entries taken from `cwd`). */
static int
find_on_path(const char *name, const char *cwd, char *out, size_t size)
{
    const char *path = getenv("PATH");
    for (const char *dir = path; dir != NULL && *dir;) {
        const char *colon = strchr(dir, ':');
        size_t n = colon ? (size_t)(colon - dir) : strlen(dir);
        char candidate[4096];
        if (n > 0 && n + strlen(name) + 2 < sizeof(candidate)) {
            snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)n, dir, name);
            if (access(candidate, X_OK) == 0 && absolute_lexical_path(cwd, candidate, out, size) == 0) {
                return 1;
            }
        }
        dir = colon ? colon + 1 : NULL;
    }
    return 0;
}

/* sys.executable is the program as it was started: argv[0] made absolute
   (or found on PATH), not resolved through symlinks, so that a venv's
   bin/python, a link to us, is how site finds the venv's pyvenv.cfg.
   sys._base_executable is the binary itself (/proc/self/exe). */
int
_PySys_SetExecutable(const char *argv0)
{
    char real[4096], started[4096], cwd[4096];
    const char *base = realpath("/proc/self/exe", real) != NULL ? real : argv0;
    const char *executable = base;
    if (argv0 != NULL && argv0[0] != '\0' && getcwd(cwd, sizeof(cwd)) != NULL) {
        int found = strchr(argv0, '/') != NULL
                        ? absolute_lexical_path(cwd, argv0, started, sizeof(started)) == 0
                        : find_on_path(argv0, cwd, started, sizeof(started));
        if (found) {
            executable = started;
        }
    }
    PyObject *exe = PyUnicode_DecodeFSDefault(executable ? executable : "");
    PyObject *base_exe = PyUnicode_DecodeFSDefault(base ? base : "");
    int err = exe == NULL || base_exe == NULL ||
              PySys_SetObject("executable", exe) < 0 || PySys_SetObject("_base_executable", base_exe) < 0;
    Py_XDECREF(exe);
    Py_XDECREF(base_exe);
    return err ? -1 : 0;
}

/* Flush sys.stdout and sys.stderr (at exit and before printing errors). */
void
_PySys_FlushStdFiles(void)
{
    const char *names[] = {"stdout", "stderr"};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(names); i++) {
        PyObject *f = PySys_GetObject(names[i]);
        if (f != NULL && !Py_IsNone(f)) {
            PyObject *r = PyObject_CallMethod(f, "flush", NULL);
            if (r == NULL) {
                PyErr_Clear();
            }
            Py_XDECREF(r);
        }
    }
}
