/* Starting and stopping the runtime. */

#include "Python.h"
#include "pycore_identifiers.h"
#include "pycore_optimizer.h"
#include "pycore_instruments.h"
#include "pycore_codecs.h"
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_exceptions.h"
#include "pycore_faulthandler.h"
#include "pycore_gc.h"
#include "pycore_import.h"
#include "pycore_initconfig.h"
#include "pycore_pyhash.h"
#include "pycore_genobject.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_pythonrun.h"
#include "pycore_typing.h"
#include "pycore_sysmodule.h"
#include "pycore_traceback.h"
#include "pycore_template.h"
#include "pycore_typeobject.h"
#include "pycore_unicodeobject.h"
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

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
    &_PyAsyncGenASend_Type,
    &_PyAsyncGenAThrow_Type,
    &_PyAsyncGenWrappedValue_Type,
    &_PyAnextAwaitable_Type,
    &_PyCoroWrapper_Type,
    &_PyLineIterator_Type,
    &_PyPositionsIterator_Type,
    &PyTraceBack_Type,
    &PyStdPrinter_Type,
    &_PyNamespace_Type,
    &Py_GenericAliasType,
    &_PyGenericAliasIter_Type,
    &_PyUnion_Type,
    &PyUnstable_JITExecutable_Type,
#ifdef _Py_TIER2
    &_PyUOpExecutor_Type,
#endif
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
    if (_PyTyping_InitTypes() < 0 || _PyTemplate_InitTypes() < 0 || _PyIdentifiers_Init() < 0) {
        return -1;
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

/* sys.prefix and friends: the build tree, which is where we run from
   (no `make install` yet); sys._stdlib_dir: the fetched stdlib. */
static int
init_sys_prefixes(void)
{
    PyObject *prefix = PyUnicode_DecodeFSDefault(PY_PREFIX);
    PyObject *stdlib = PyUnicode_DecodeFSDefault(PY_STDLIBDIR);
    int err = prefix == NULL || stdlib == NULL;
    const char *names[] = {"prefix", "exec_prefix", "base_prefix", "base_exec_prefix"};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(names) && !err; i++) {
        err = PySys_SetObject(names[i], prefix) < 0;
    }
    err = err || PySys_SetObject("_stdlib_dir", stdlib) < 0;
    Py_XDECREF(prefix);
    Py_XDECREF(stdlib);
    return err ? -1 : 0;
}

/* A virtual environment (PEP 405): when a pyvenv.cfg sits next to
   sys.executable or one directory up, that directory is sys.prefix and
   sys.exec_prefix; the base_* prefixes stay ours.  site then reads the
   file for include-system-site-packages. */
static int
init_venv_prefixes(void)
{
    PyObject *exe = PySys_GetObject("executable");
    const char *path = exe != NULL && PyUnicode_Check(exe) ? PyUnicode_AsUTF8(exe) : NULL;
    if (path == NULL) {
        PyErr_Clear();
        return 0;
    }
    char dir[4096];
    if (strlen(path) >= sizeof(dir)) {
        return 0;
    }
    strcpy(dir, path);
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(dir, '/');
        if (slash == NULL) {
            return 0;
        }
        *slash = '\0';
        char cfg[4096 + 16];
        snprintf(cfg, sizeof(cfg), "%s/pyvenv.cfg", dir[0] ? dir : "");
        if (access(cfg, R_OK) == 0) {
            PyObject *venv = PyUnicode_DecodeFSDefault(dir[0] ? dir : "/");
            int err = venv == NULL || PySys_SetObject("prefix", venv) < 0 ||
                      PySys_SetObject("exec_prefix", venv) < 0;
            Py_XDECREF(venv);
            return err ? -1 : 0;
        }
    }
    return 0;
}

/* The import system: importlib from the stdlib, or built-in modules only
   (with one line saying how to fetch the stdlib). */
static int
init_importlib(PyInterpreterState *interp)
{
    int found = _PyImport_InitExternal(interp, PY_STDLIBDIR);
    if (found == 0) {
        fprintf(stderr, "python: the standard library is missing from %s; "
                        "fetch it with 'make stdlib' (only built-in modules import)\n",
                PY_STDLIBDIR);
    }
    return found < 0 ? -1 : 0;
}

static int
append_path(PyObject *path, const char *dir, Py_ssize_t len)
{
    PyObject *d = PyUnicode_DecodeFSDefaultAndSize(dir, len);
    int err = d == NULL || PyList_Append(path, d) < 0;
    Py_XDECREF(d);
    return err ? -1 : 0;
}

/* sys.path[0]: the script's directory, absolute with symlinks resolved;
   the current directory for -m; '' for -c and stdin.  As CPython, it goes
   in after site has run, so site's making every entry absolute leaves ''
   alone. */
static int
insert_path0(const char *script, int run_module)
{
    if (_Py_Config.safe_path) {
        return 0;
    }
    char dir[4096], resolved[4096];
    const char *chosen = "";
    if (run_module) {
        chosen = getcwd(resolved, sizeof(resolved)) ? resolved : "";
    }
    else if (script != NULL) {
        const char *slash = strrchr(script, '/');
        if (slash == NULL) {
            strcpy(dir, ".");
        }
        else if (slash == script) {
            strcpy(dir, "/");
        }
        else {
            snprintf(dir, sizeof(dir), "%.*s", (int)(slash - script), script);
        }
        chosen = realpath(dir, resolved) ? resolved : dir;
    }
    PyObject *entry = PyUnicode_DecodeFSDefault(chosen);
    if (entry == NULL) {
        return -1;
    }
    int err = PyList_Insert(PySys_GetObject("path"), 0, entry);
    Py_DECREF(entry);
    return err;
}

/* sys.path before site: PYTHONPATH's entries, our Lib/, the standard
   library, then the C extension modules built as shared objects. */
static int
init_sys_path(void)
{
    PyObject *path = PySys_GetObject("path");
    for (const char *p = _Py_Config.pythonpath; p != NULL && *p != '\0';) {
        const char *colon = strchr(p, ':');
        Py_ssize_t len = colon ? colon - p : (Py_ssize_t)strlen(p);
        if (len > 0 && append_path(path, p, len) < 0) {
            return -1;
        }
        p = colon ? colon + 1 : NULL;
    }
    if (append_path(path, PY_LIBDIR, (Py_ssize_t)strlen(PY_LIBDIR)) < 0) {
        return -1;
    }
    if (append_path(path, PY_STDLIBDIR, (Py_ssize_t)strlen(PY_STDLIBDIR)) < 0) {
        return -1;
    }
    return append_path(path, PY_DYNLOADDIR, (Py_ssize_t)strlen(PY_DYNLOADDIR));
}

/* `import site` (unless -S): site-packages, .pth files, and the
   builtins exit, quit, help, copyright, credits, license. */
static int
init_site(PyInterpreterState *interp)
{
    if (!_Py_Config.site_import || interp->importlib == NULL) {
        return 0;
    }
    PyObject *site = PyImport_ImportModule("site");
    if (site == NULL) {
        fprintf(stderr, "Error in site.py\n");
        PyErr_Print();
        return 0; /* as CPython: a broken site does not stop start-up */
    }
    Py_DECREF(site);
    return 0;
}

static int
set_str_attr(PyObject *obj, const char *name, const char *value)
{
    PyObject *v = PyUnicode_FromString(value);
    int err = v == NULL ? -1 : PyObject_SetAttrString(obj, name, v);
    Py_XDECREF(v);
    return err;
}

/* One standard stream: TextIOWrapper over a buffered stream over a
   FileIO that does not own the descriptor.  Returns None for a closed
   descriptor (as CPython does when started with fd 0, 1 or 2 closed). */
static PyObject *
make_std_stream(PyObject *io, int fd, const char *encoding, const char *errors, int unbuffered)
{
    struct stat st;
    if (fstat(fd, &st) < 0 && errno == EBADF) {
        Py_RETURN_NONE;
    }
    static const char *const names[] = {"<stdin>", "<stdout>", "<stderr>"};
    int reading = fd == 0;
    PyObject *raw = PyObject_CallMethod(io, "FileIO", "isi", fd, reading ? "rb" : "wb", 0);
    if (raw == NULL) {
        return NULL;
    }
    PyObject *buf = NULL, *text = NULL;
    if (set_str_attr(raw, "name", names[fd]) < 0) {
        goto done;
    }
    int write_through = unbuffered && !reading;
    buf = write_through ? Py_NewRef(raw)
                        : PyObject_CallMethod(io, reading ? "BufferedReader" : "BufferedWriter", "O", raw);
    if (buf == NULL) {
        goto done;
    }
    int line_buffering = !write_through && (fd == 2 || isatty(fd));
    text = PyObject_CallMethod(io, "TextIOWrapper", "Osssii", buf, encoding,
                               fd == 2 ? "backslashreplace" : errors, "\n", line_buffering, write_through);
    if (text != NULL && set_str_attr(text, "mode", reading ? "r" : "w") < 0) {
        Py_CLEAR(text);
    }
done:
    Py_XDECREF(buf);
    Py_DECREF(raw);
    return text;
}

/* sys.stdin/stdout/stderr and their sys.__std*__ copies as io streams,
   honouring PYTHONIOENCODING ("encoding[:errors]") and -u /
   PYTHONUNBUFFERED; builtins.open becomes io.open. */
static int
init_stdio(PyInterpreterState *interp)
{
    PyObject *io = PyImport_ImportModule("_io");
    if (io == NULL) {
        return -1;
    }
    char encoding[64] = "utf-8", errors[64] = "surrogateescape";
    const char *env = _Py_Config.use_environment ? getenv("PYTHONIOENCODING") : NULL;
    if (env != NULL && *env) {
        const char *colon = strchr(env, ':');
        size_t n = colon ? (size_t)(colon - env) : strlen(env);
        if (n > 0 && n < sizeof(encoding)) {
            snprintf(encoding, sizeof(encoding), "%.*s", (int)n, env);
        }
        if (colon != NULL && colon[1] && strlen(colon + 1) < sizeof(errors)) {
            snprintf(errors, sizeof(errors), "%s", colon + 1);
        }
    }
    int unbuffered = !_Py_Config.buffered_stdio; /* -u, PYTHONUNBUFFERED */
    static const char *const attrs[][2] = {{"stdin", "__stdin__"}, {"stdout", "__stdout__"},
                                           {"stderr", "__stderr__"}};
    int err = 0;
    for (int fd = 0; fd < 3 && !err; fd++) {
        PyObject *stream = make_std_stream(io, fd, encoding, errors, unbuffered);
        err = stream == NULL || PySys_SetObject(attrs[fd][0], stream) < 0 ||
              PySys_SetObject(attrs[fd][1], stream) < 0;
        Py_XDECREF(stream);
    }
    PyObject *open = err ? NULL : PyObject_GetAttrString(io, "open");
    err = err || open == NULL || PyDict_SetItemString(interp->builtins, "open", open) < 0;
    Py_XDECREF(open);
    Py_DECREF(io);
    return err ? -1 : 0;
}

static PyThreadState *
init_core(int install_signals)
{
    /* Before the first object: a str made earlier could cache a hash
       under another key. */
    fatal_if_error(_Py_HashSecret_Init() < 0, "can't get random bytes for the hash key");
    PyInterpreterState *interp = _PyInterpreterState_New();
    if (interp == NULL) {
        Py_FatalError("can't allocate the interpreter state");
    }
    PyThreadState *tstate = _PyThreadState_New(interp);
    if (tstate == NULL) {
        Py_FatalError("can't allocate the thread state");
    }
    _PyThreadState_Bind(tstate);
    _PyEval_InitGIL(tstate);
    fatal_if_error(init_types(interp) < 0, "can't initialize types");
    fatal_if_error(_PyImport_Init(interp) < 0, "can't initialize sys.modules");
    PyObject *bimod = _PyBuiltin_Init(interp);
    fatal_if_error(bimod == NULL, "can't initialize builtins module");
    PyObject *sysmod = _PySys_Create(tstate);
    fatal_if_error(sysmod == NULL, "can't initialize sys module");
    fatal_if_error(PyDict_SetItemString(interp->modules, "builtins", bimod) < 0 ||
                       PyDict_SetItemString(interp->modules, "sys", sysmod) < 0,
                   "can't register core modules");
    fatal_if_error(_PySys_AddThreadFunctions(PyModule_GetDict(sysmod)) < 0,
                   "can't add the thread functions to sys");
    fatal_if_error(_PySignal_Init(install_signals) < 0, "can't initialize signals");
    fatal_if_error(_PyThread_InitTypes() < 0, "can't initialize the thread types");
    fatal_if_error(_Py_InitSpecializedCallables(interp) < 0, "can't initialize the specializer");
    Py_DECREF(bimod);
    Py_DECREF(sysmod);
    PyObject *main = PyImport_AddModuleRef("__main__");
    fatal_if_error(main == NULL, "can't create __main__ module");
    fatal_if_error(PyDict_SetItemString(PyModule_GetDict(main), "__builtins__", bimod) < 0,
                   "can't set __main__.__builtins__");
    Py_DECREF(main);
    fatal_if_error(init_stdio(interp) < 0, "can't initialize sys standard streams");
    runtime_initialized = 1;
    return tstate;
}

void
Py_InitializeEx(int install_sigs)
{
    if (runtime_initialized) {
        return;
    }
    PyThreadState *tstate = init_core(install_sigs);
    fatal_if_error(_PySys_UpdateConfig() < 0 || init_sys_path() < 0 || init_sys_prefixes() < 0,
                   "can't initialize sys.path");
    fatal_if_error(init_importlib(tstate->interp) < 0 || init_site(tstate->interp) < 0,
                   "can't initialize the import system");
}

void
Py_Initialize(void)
{
    Py_InitializeEx(1);
}

int
_Py_InitializeMain(int argc, char **argv, int script_index, int run_module)
{
    PyThreadState *tstate = init_core(1);
    const char *script = script_index >= 0 ? argv[script_index] : NULL;
    if (_PySys_UpdateConfig() < 0 || init_sys_path() < 0 || init_sys_prefixes() < 0 ||
        _PySys_SetExecutable(argv[0]) < 0 || init_venv_prefixes() < 0 ||
        init_importlib(tstate->interp) < 0) {
        return -1;
    }
    if (_Py_Config.faulthandler && _PyFaulthandler_StartUp() < 0) {
        return -1;
    }
    if (init_site(tstate->interp) < 0) {
        return -1;
    }
    return insert_path0(script, run_module);
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

/* Join the non-daemon threads through threading._shutdown(), if the
   program imported threading. */
static void
wait_for_thread_shutdown(PyInterpreterState *interp)
{
    PyObject *threading = interp->modules == NULL ? NULL : PyDict_GetItemString(interp->modules, "threading");
    if (threading == NULL) {
        PyErr_Clear();
        return;
    }
    Py_INCREF(threading);
    PyObject *res = PyObject_CallMethod(threading, "_shutdown", NULL);
    if (res == NULL) {
        PyErr_WriteUnraisable(threading);
    }
    Py_XDECREF(res);
    Py_DECREF(threading);
}

/* Set a module's globals to None: first the _private ones, then the
   rest but __builtins__.  None rather than removal, because destructors
   and weakref callbacks that run during teardown still look their
   globals up (logging's _removeHandlerRef checks for None); private
   first, so that public objects die while their helpers still exist. */
static void
zap_module_globals(PyObject *dict)
{
    for (int pass = 0; pass < 2; pass++) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(dict, &pos, &key, &value)) {
            if (value == Py_None || !PyUnicode_Check(key)) {
                continue;
            }
            int is_private = PyUnicode_READ_CHAR(key, 0) == '_' &&
                             (PyUnicode_GET_LENGTH(key) < 2 || PyUnicode_READ_CHAR(key, 1) != '_');
            if ((pass == 0 && !is_private) ||
                PyUnicode_CompareWithASCIIString(key, "__builtins__") == 0) {
                continue;
            }
            /* Replacing a value never resizes the dict: iteration holds. */
            if (PyDict_SetItem(dict, key, Py_None) < 0) {
                PyErr_Clear();
            }
        }
    }
}

/* Empty the module namespaces, newest module first, so that cycles
   through globals are broken and the collector can free what programs
   left behind. */
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
                zap_module_globals(d);
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
    PyErr_Clear();
    wait_for_thread_shutdown(interp);
    _PyAtExit_Call();
#ifdef _Py_TIER2
    /* No more Python code runs hot: the executors go before the objects
       they point into. */
    _Py_Tier2_Enabled = 0;
    if (_Py_Stats_Requested) {
        _PyTier2_PrintStats(stderr);
    }
    _PyExecutor_InvalidateAll();
#endif
    _PyFaulthandler_Fini();
    /* Daemon threads park if they wake up from here on. */
    _PyEval_StartFinalizing(tstate);
    interp->finalizing = 1;
    _PySignal_Fini();
    _PyThread_Fini();
    _PyMonitoring_Fini();
    _PySys_FlushStdFiles();
    PyErr_Clear();
    /* Garbage the program left (asyncio tasks in cycles, say) is freed
       while the module globals its finalizers use are still intact. */
    _PyGC_CollectNoFail(tstate);
    clear_modules(interp);
    _PyImport_ClearExtensions();
    _PyCodec_Fini();
    Py_CLEAR(tstate->context);
    _PyGC_Fini(); /* no gc.callbacks calls into a half-finalized world */
    _PyTraceBack_Fini();
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
    _PyThread_ClearLocals(tstate);
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
