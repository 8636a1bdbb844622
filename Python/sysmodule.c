/* The sys module. */

#include "Python.h"
#include "pycore_import.h"
#include "pycore_initconfig.h"
#include "pycore_long.h"
#include "pycore_ceval.h"
#include "pycore_frame.h"
#include "pycore_long.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_sysmodule.h"
#include "pycore_traceback.h"

#define PY_VERSION_STRING "3.14.0"

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

int
PySys_Audit(const char *event, const char *argFormat, ...)
{
    (void)event;
    (void)argFormat;
    return 0;
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

static PyMethodDef sys_methods[] = {
    {"exit", _PyCFunction_CAST(sys_exit), METH_FASTCALL, NULL},
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
    {NULL, NULL, 0, NULL},
};

/* ---- sys._jit ---------------------------------------------------------------------
   What the JIT is doing.  It is not built yet: nothing is available. */

static PyObject *
jit_is_available(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_FALSE;
}

static PyObject *
jit_is_enabled(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_FALSE;
}

static PyObject *
jit_is_active(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    Py_RETURN_FALSE;
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
    {NULL, NULL},
};
static PyStructSequence_Desc flags_desc = {
    "sys.flags", "Flags provided through command line arguments or environment vars.", flags_fields, 18,
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

/* sys.flags, in the field order above, from the configuration. */
static PyObject *
make_flags(void)
{
    if (FlagsType.tp_name == NULL && PyStructSequence_InitType2(&FlagsType, &flags_desc) < 0) {
        return NULL;
    }
    const _PyRuntimeConfig *c = &_Py_Config;
    int values[] = {
        c->parser_debug, c->inspect, c->interactive, c->optimization_level,
        !c->write_bytecode, !c->user_site_directory, !c->site_import,
        !c->use_environment, c->verbose, c->bytes_warning, c->quiet,
        0 /* hash_randomization: see Doc/startup.md */, c->isolated, c->dev_mode,
        1 /* utf8_mode */, c->warn_default_encoding, c->safe_path, c->int_max_str_digits,
    };
    PyObject *v = PyStructSequence_New(&FlagsType);
    if (v == NULL) {
        return NULL;
    }
    for (int i = 0; i < (int)Py_ARRAY_LENGTH(values); i++) {
        /* dev_mode is a bool, as in CPython; the others are ints. */
        PyObject *item = i == 13 ? PyBool_FromLong(values[i]) : PyLong_FromLong(values[i]);
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
                                "version", version_info, "hexversion", 0x030e00f0,
                                "_multiarch", "x86_64-linux-gnu", "supports_isolated_interpreters",
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
    err |= set_value(d, "version", PyUnicode_FromString(PY_VERSION_STRING " (lazypy, a CPython-compatible runtime)"));
    PyObject *version_info = make_version_info();
    err |= set_value(d, "implementation", version_info ? make_implementation(version_info) : NULL);
    err |= set_value(d, "version_info", version_info);
    err |= set_value(d, "flags", make_flags());
    err |= set_value(d, "hexversion", PyLong_FromLong(0x030e00f0));
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
    err |= set_value(d, "argv", make_argv(0, NULL));
    err |= set_value(d, "orig_argv", PyList_New(0));
    err |= set_value(d, "warnoptions", PyList_New(0));
    err |= set_value(d, "_xoptions", PyDict_New());
    err |= set_value(d, "_jit", PyModule_Create(&jitmodule));
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

int
_PySys_SetExecutable(const char *argv0)
{
    char resolved[4096];
    const char *path = argv0;
    if (realpath("/proc/self/exe", resolved) != NULL) {
        path = resolved;
    }
    PyObject *v = PyUnicode_DecodeFSDefault(path ? path : "");
    if (v == NULL) {
        return -1;
    }
    int err = PySys_SetObject("executable", v);
    err |= PySys_SetObject("_base_executable", v);
    Py_DECREF(v);
    return err;
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
