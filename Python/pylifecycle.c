/* Starting and stopping the runtime. */

#include "Python.h"
#include "pycore_codecs.h"
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_exceptions.h"
#include "pycore_gc.h"
#include "pycore_genobject.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_pythonrun.h"
#include "pycore_sysmodule.h"
#include "pycore_typeobject.h"
#include "pycore_unicodeobject.h"

static int runtime_initialized = 0;

/* Iterators of code objects (Objects/codeobject.c). */
extern PyTypeObject _PyLineIterator_Type;
extern PyTypeObject _PyPositionsIterator_Type;

/* Every static type the core defines, readied at start-up (exceptions are
   readied by _PyExc_InitTypes).  Order matters only for object and type,
   which everything else inherits from. */
static PyTypeObject *const static_types[] = {
    &PyBaseObject_Type,
    &PyType_Type,
    &PyLong_Type,
    &PyBool_Type,
    &PyFloat_Type,
    &PyComplex_Type,
    &PyUnicode_Type,
    &PyUnicodeIter_Type,
    &_PyUnicodeASCIIIter_Type,
    &PyBytes_Type,
    &PyBytesIter_Type,
    &PyByteArray_Type,
    &PyByteArrayIter_Type,
    &PyMemoryView_Type,
    &PyTuple_Type,
    &PyTupleIter_Type,
    &PyList_Type,
    &PyListIter_Type,
    &PyListRevIter_Type,
    &PyDict_Type,
    &PyDictKeys_Type,
    &PyDictValues_Type,
    &PyDictItems_Type,
    &PyDictIterKey_Type,
    &PyDictIterValue_Type,
    &PyDictIterItem_Type,
    &PyDictRevIterKey_Type,
    &PyDictRevIterValue_Type,
    &PyDictRevIterItem_Type,
    &PySet_Type,
    &PyFrozenSet_Type,
    &PySetIter_Type,
    &PyRange_Type,
    &PyRangeIter_Type,
    &PyLongRangeIter_Type,
    &PySlice_Type,
    &PySeqIter_Type,
    &PyCallIter_Type,
    &PyEnum_Type,
    &PyReversed_Type,
    &PyMap_Type,
    &PyFilter_Type,
    &PyZip_Type,
    &PyCFunction_Type,
    &PyCMethod_Type,
    &_PyWeakref_RefType,
    &_PyWeakref_ProxyType,
    &_PyWeakref_CallableProxyType,
    &PyMethodDescr_Type,
    &PyClassMethodDescr_Type,
    &PyMemberDescr_Type,
    &PyGetSetDescr_Type,
    &PyWrapperDescr_Type,
    &_PyMethodWrapper_Type,
    &PyDictProxy_Type,
    &PyProperty_Type,
    &PySuper_Type,
    &PyFunction_Type,
    &PyClassMethod_Type,
    &PyStaticMethod_Type,
    &PyMethod_Type,
    &PyCode_Type,
    &PyCell_Type,
    &PyModule_Type,
    &PyModuleDef_Type,
    &PyFrame_Type,
    &PyFrameLocalsProxy_Type,
    &PyGen_Type,
    &PyCoro_Type,
    &PyAsyncGen_Type,
    &_PyCoroWrapper_Type,
    &_PyLineIterator_Type,
    &_PyPositionsIterator_Type,
    &PyTraceBack_Type,
    &PyStdPrinter_Type,
    &_PyNamespace_Type,
    &PyUnstable_JITExecutable_Type,
    &_PyNone_Type,
    &_PyNotImplemented_Type,
    &PyEllipsis_Type,
};

static int
init_types(PyInterpreterState *interp)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(static_types); i++) {
        if (_PyStaticType_InitBuiltin(static_types[i]) < 0) {
            return -1;
        }
    }
    return _PyExc_InitTypes(interp);
}

static void
fatal_if_error(int failed, const char *what)
{
    if (failed) {
        if (PyErr_Occurred()) {
            PyErr_Print();
        }
        Py_FatalError(what);
    }
}

/* sys.path: the script's directory (or '' for -c), our Lib/, then the
   standard library. */
static int
init_sys_path(const char *script)
{
    PyObject *path = PySys_GetObject("path");
    PyObject *first;
    if (script != NULL) {
        /* The script's directory, absolute, symlinks resolved, as CPython. */
        const char *slash = strrchr(script, '/');
        char resolved[4096];
        char dir[4096];
        if (slash == NULL) {
            strcpy(dir, ".");
        }
        else {
            snprintf(dir, sizeof(dir), "%.*s", (int)(slash - script), script);
            if (dir[0] == '\0') {
                strcpy(dir, "/");
            }
        }
        first = PyUnicode_DecodeFSDefault(realpath(dir, resolved) ? resolved : dir);
    }
    else {
        first = PyUnicode_FromString("");
    }
    if (first == NULL || PyList_Append(path, first) < 0) {
        Py_XDECREF(first);
        return -1;
    }
    Py_DECREF(first);
#ifdef PY_LIBDIR
    const char *dirs[] = {PY_LIBDIR, PY_STDLIBDIR};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(dirs); i++) {
        PyObject *d = PyUnicode_DecodeFSDefault(dirs[i]);
        if (d == NULL || PyList_Append(path, d) < 0) {
            Py_XDECREF(d);
            return -1;
        }
        Py_DECREF(d);
    }
#endif
    return 0;
}

static PyThreadState *
init_core(void)
{
    PyInterpreterState *interp = _PyInterpreterState_New();
    if (interp == NULL) {
        Py_FatalError("can't allocate the interpreter state");
    }
    PyThreadState *tstate = _PyThreadState_New(interp);
    if (tstate == NULL) {
        Py_FatalError("can't allocate the thread state");
    }
    _PyThreadState_Bind(tstate);
    fatal_if_error(init_types(interp) < 0, "can't initialize types");
    fatal_if_error(_PyImport_Init(interp) < 0, "can't initialize sys.modules");
    PyObject *bimod = _PyBuiltin_Init(interp);
    fatal_if_error(bimod == NULL, "can't initialize builtins module");
    PyObject *sysmod = _PySys_Create(tstate);
    fatal_if_error(sysmod == NULL, "can't initialize sys module");
    fatal_if_error(PyDict_SetItemString(interp->modules, "builtins", bimod) < 0 ||
                       PyDict_SetItemString(interp->modules, "sys", sysmod) < 0,
                   "can't register core modules");
    fatal_if_error(_Py_InitSpecializedCallables(interp) < 0, "can't initialize the specializer");
    Py_DECREF(bimod);
    Py_DECREF(sysmod);
    PyObject *main = PyImport_AddModuleRef("__main__");
    fatal_if_error(main == NULL, "can't create __main__ module");
    fatal_if_error(PyDict_SetItemString(PyModule_GetDict(main), "__builtins__", bimod) < 0,
                   "can't set __main__.__builtins__");
    Py_DECREF(main);
    runtime_initialized = 1;
    return tstate;
}

void
Py_InitializeEx(int install_sigs)
{
    (void)install_sigs;
    if (runtime_initialized) {
        return;
    }
    init_core();
    fatal_if_error(init_sys_path(NULL) < 0, "can't initialize sys.path");
}

void
Py_Initialize(void)
{
    Py_InitializeEx(1);
}

int
_Py_InitializeMain(int argc, char **argv, int script_index)
{
    init_core();
    const char *script = script_index >= 0 ? argv[script_index] : NULL;
    if (init_sys_path(script) < 0 || _PySys_SetExecutable(argv[0]) < 0) {
        return -1;
    }
    return 0;
}

int
Py_IsInitialized(void)
{
    return runtime_initialized;
}

/* ---- Exit ------------------------------------------------------------------------------ */

#define NEXITFUNCS 32
static void (*exitfuncs[NEXITFUNCS])(void);
static int nexitfuncs = 0;

int
Py_AtExit(void (*func)(void))
{
    if (nexitfuncs >= NEXITFUNCS) {
        return -1;
    }
    exitfuncs[nexitfuncs++] = func;
    return 0;
}

int _Py_ShowRefcount = 0;

/* Clear module namespaces so that cycles through globals are broken and
   the collector can free what programs left behind. */
static void
clear_modules(PyInterpreterState *interp)
{
    PyObject *modules = interp->modules;
    if (modules == NULL) {
        return;
    }
    PyObject *values = PyDict_Values(modules);
    if (values == NULL) {
        PyErr_Clear();
        return;
    }
    for (Py_ssize_t i = PyList_GET_SIZE(values) - 1; i >= 0; i--) {
        PyObject *mod = PyList_GET_ITEM(values, i);
        if (PyModule_Check(mod)) {
            PyObject *d = PyModule_GetDict(mod);
            if (d != NULL && d != interp->sysdict && d != interp->builtins) {
                PyDict_Clear(d);
            }
        }
    }
    Py_DECREF(values);
    PyDict_Clear(modules);
}

int
Py_FinalizeEx(void)
{
    if (!runtime_initialized) {
        return 0;
    }
    PyThreadState *tstate = _PyThreadState_GET();
    PyInterpreterState *interp = tstate->interp;
    _PySys_FlushStdFiles();
    int status = PyErr_Occurred() ? -1 : 0;
    interp->finalizing = 1;
    PyErr_Clear();
    clear_modules(interp);
    _PyCodec_Fini();
    Py_CLEAR(tstate->context);
    _PyGC_CollectNoFail(tstate);
    _PySys_FlushStdFiles();
    if (interp->sysdict) {
        PyDict_Clear(interp->sysdict);
    }
    if (interp->builtins) {
        PyDict_Clear(interp->builtins);
    }
    Py_CLEAR(interp->sysdict);
    Py_CLEAR(interp->builtins);
    Py_CLEAR(interp->modules);
    Py_CLEAR(interp->dict);
    _PyGC_CollectNoFail(tstate);
    /* The method cache holds references to attribute names. */
    PyType_ClearCache();
    _Py_FiniSpecializedCallables();
    Py_CLEAR(tstate->dict);
    Py_CLEAR(tstate->exc_state.exc_value);
#ifdef Py_REF_DEBUG
    if (_Py_ShowRefcount) {
        fprintf(stderr, "[%zd refs]\n", _Py_GetRefTotal());
    }
#endif
    while (nexitfuncs > 0) {
        (*exitfuncs[--nexitfuncs])();
    }
    runtime_initialized = 0;
    fflush(stdout);
    fflush(stderr);
    return status;
}

void
Py_Finalize(void)
{
    Py_FinalizeEx();
}

void _Py_NO_RETURN
Py_Exit(int sts)
{
    if (Py_FinalizeEx() < 0) {
        sts = 120;
    }
    exit(sts);
}

void _Py_NO_RETURN
_Py_FatalErrorFunc(const char *func, const char *message)
{
    fflush(stdout);
    if (func != NULL) {
        fprintf(stderr, "Fatal Python error: %s: %s\n", func, message);
    }
    else {
        fprintf(stderr, "Fatal Python error: %s\n", message);
    }
    fflush(stderr);
    abort();
}

#undef Py_FatalError
void _Py_NO_RETURN
Py_FatalError(const char *message)
{
    _Py_FatalErrorFunc(NULL, message);
}
