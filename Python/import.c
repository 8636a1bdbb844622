/* The import system.

   The machinery is the standard library's importlib._bootstrap and
   _bootstrap_external, driven from C as CPython does: start-up loads both
   from the stdlib (their code cached in __pycache__, see bootstrap_code),
   installs them as _frozen_importlib / _frozen_importlib_external, and
   from then on every import that misses sys.modules goes through
   importlib's _find_and_load.  This file keeps what must be C:

   - sys.modules access and the PyImport_* C API;
   - the fast path of `import x` (a module already in sys.modules);
   - built-in modules from the inittab (Modules/config.c);
   - the `_imp` module, importlib's window onto the above;
   - bootstrapping, and the fallback when the stdlib cannot be found:
     then only built-in modules import, and start-up says how to fetch
     the stdlib.  Doc/imports.md has the whole picture. */

#include "Python.h"
#include "pycore_code.h"
#include "pycore_import.h"
#include "pycore_initconfig.h"
#include "pycore_opcode_metadata.h"
#include "pycore_pyhash.h"
#include "pycore_pystate.h"
#include "pycore_pythonrun.h"
#include "marshal.h"
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Magic number of our .pyc files: CPython's scheme (two little-endian
   bytes, then \r\n), with values of our own; the cache tag keeps the
   files apart from CPython's anyway.  _Py_BYTECODE_STAMP changes with
   the instruction set (generated from Python/bytecodes.c). */
#define PYC_MAGIC_BASE 20000
#define PYC_MAGIC_NUMBER (PYC_MAGIC_BASE + (_Py_BYTECODE_STAMP % 10000))
#define PYC_MAGIC_TOKEN ((long)PYC_MAGIC_NUMBER | ((long)'\r' << 16) | ((long)'\n' << 24))

int
_PyImport_Init(PyInterpreterState *interp)
{
    interp->modules = PyDict_New();
    return interp->modules == NULL ? -1 : 0;
}

PyObject *
PyImport_GetModuleDict(void)
{
    return _PyInterpreterState_GET()->modules;
}

PyObject *
PyImport_GetModule(PyObject *name)
{
    PyObject *modules = PyImport_GetModuleDict();
    if (modules == NULL) {
        /* Late in finalization sys.modules is gone. */
        PyErr_SetString(PyExc_RuntimeError, "unable to get sys.modules");
        return NULL;
    }
    PyObject *m;
    if (PyDict_GetItemRef(modules, name, &m) < 0) {
        return NULL;
    }
    return m;
}

PyObject *
PyImport_AddModuleObject(PyObject *name)
{
    PyObject *m = PyImport_GetModule(name);
    if (m != NULL || PyErr_Occurred()) {
        Py_XDECREF(m); /* the module stays alive in sys.modules */
        return m;
    }
    m = PyModule_NewObject(name);
    if (m == NULL) {
        return NULL;
    }
    if (PyDict_SetItem(PyImport_GetModuleDict(), name, m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_DECREF(m);
    return m;
}

PyObject *
PyImport_AddModuleRef(const char *name)
{
    PyObject *n = PyUnicode_FromString(name);
    if (n == NULL) {
        return NULL;
    }
    PyObject *m = PyImport_AddModuleObject(n);
    Py_DECREF(n);
    return Py_XNewRef(m);
}

/* ---- Built-in modules ---------------------------------------------------------------- */

/* Modules added by embedders before start-up (PyImport_AppendInittab),
   searched after the static table. */
static struct _inittab *extra_inittab = NULL;
static size_t extra_inittab_len = 0;

int
PyImport_AppendInittab(const char *name, PyObject *(*initfunc)(void))
{
    if (Py_IsInitialized()) {
        /* The table is read while importing: changing it later would race. */
        Py_FatalError("PyImport_AppendInittab() may not be called after Py_Initialize()");
    }
    struct _inittab *grown = realloc(extra_inittab, (extra_inittab_len + 1) * sizeof(*grown));
    if (grown == NULL) {
        return -1;
    }
    extra_inittab = grown;
    extra_inittab[extra_inittab_len].name = name;
    extra_inittab[extra_inittab_len].initfunc = initfunc;
    extra_inittab_len++;
    return 0;
}

/* The init function of a built-in module, or NULL (no error set). */
static PyObject *(*find_inittab(const char *name))(void)
{
    for (struct _inittab *p = _PyImport_Inittab; p->name != NULL; p++) {
        if (strcmp(p->name, name) == 0) {
            return p->initfunc;
        }
    }
    for (size_t i = 0; i < extra_inittab_len; i++) {
        if (strcmp(extra_inittab[i].name, name) == 0) {
            return extra_inittab[i].initfunc;
        }
    }
    return NULL;
}

/* sys and builtins are made by start-up itself, never from the table. */
static int
is_core_module(const char *name)
{
    return strcmp(name, "sys") == 0 || strcmp(name, "builtins") == 0;
}

/* A simple stand-in for importlib's ModuleSpec, used only by the
   stdlib-less fallback: multi-phase init wants an object with .name. */
static PyObject *
bare_spec(PyObject *name)
{
    PyObject *ns = _PyNamespace_New(NULL);
    if (ns != NULL && PyObject_SetAttrString(ns, "name", name) < 0) {
        Py_CLEAR(ns);
    }
    return ns;
}

/* Run a built-in module's init function: single-phase init returns the
   module, multi-phase init a definition to create (here) and execute
   (later, by exec_builtin_module). */
static PyObject *
create_builtin_module(PyObject *name, PyObject *spec)
{
    const char *cname = PyUnicode_AsUTF8(name);
    if (cname == NULL) {
        return NULL;
    }
    if (is_core_module(cname)) {
        PyObject *existing = PyImport_GetModule(name);
        if (existing != NULL || PyErr_Occurred()) {
            return existing;
        }
    }
    PyObject *(*initfunc)(void) = find_inittab(cname);
    if (initfunc == NULL) {
        return Py_NewRef(Py_None);
    }
    PyObject *mod = initfunc();
    if (mod == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_SystemError, "initialization of %s failed without raising an exception",
                         cname);
        }
        return NULL;
    }
    if (!PyObject_TypeCheck(mod, &PyModuleDef_Type)) {
        return mod;
    }
    return PyModule_FromDefAndSpec((PyModuleDef *)mod, spec);
}

/* Built-in and shared-object modules run their exec slots the same way. */
static int
exec_builtin_module(PyObject *mod)
{
    return _PyImport_ExecExtension(mod);
}

/* Import a built-in module without importlib (start-up, and the
   stdlib-less fallback).  New reference, or Py_None when `name` is not
   built in. */
static PyObject *
import_builtin_directly(PyObject *name)
{
    PyObject *spec = bare_spec(name);
    if (spec == NULL) {
        return NULL;
    }
    PyObject *mod = create_builtin_module(name, spec);
    Py_DECREF(spec);
    if (mod == NULL || mod == Py_None) {
        return mod;
    }
    if (PyDict_SetItem(PyImport_GetModuleDict(), name, mod) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    if (exec_builtin_module(mod) < 0) {
        PyObject *exc = PyErr_GetRaisedException();
        if (PyDict_DelItem(PyImport_GetModuleDict(), name) < 0) {
            PyErr_Clear();
        }
        PyErr_SetRaisedException(exc);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}

static int
append_str(PyObject *list, const char *s)
{
    PyObject *item = PyUnicode_FromString(s);
    int err = item == NULL ? -1 : PyList_Append(list, item);
    Py_XDECREF(item);
    return err;
}

/* sys.builtin_module_names: sys, builtins and every table entry, sorted. */
PyObject *
_PyImport_BuiltinModuleNames(void)
{
    PyObject *names = PyList_New(0);
    if (names == NULL) {
        return NULL;
    }
    int err = append_str(names, "sys") | append_str(names, "builtins");
    for (struct _inittab *p = _PyImport_Inittab; p->name != NULL && err == 0; p++) {
        err = append_str(names, p->name);
    }
    for (size_t i = 0; i < extra_inittab_len && err == 0; i++) {
        err = append_str(names, extra_inittab[i].name);
    }
    PyObject *tuple = NULL;
    if (err == 0 && PyList_Sort(names) == 0) {
        tuple = PyList_AsTuple(names);
    }
    Py_DECREF(names);
    return tuple;
}

/* ---- The import lock ------------------------------------------------------------------ */

/* importlib takes this re-entrant lock around its module-lock table and
   while forking.  One thread runs Python code at a time, so holding is a
   count and an owner; a second thread that finds it held waits with the
   interpreter lock released (see import_lock_acquire). */
static struct {
    unsigned long owner;
    long depth;
} import_lock;

static unsigned long
current_thread_id(void)
{
    return (unsigned long)pthread_self();
}

static void
import_lock_acquire(void)
{
    unsigned long me = current_thread_id();
    if (import_lock.depth > 0 && import_lock.owner == me) {
        import_lock.depth++;
        return;
    }
    while (import_lock.depth > 0) {
        sched_yield(); /* another thread holds it: only possible with threads */
    }
    import_lock.owner = me;
    import_lock.depth = 1;
}

static int
import_lock_release(void)
{
    if (import_lock.depth == 0 || import_lock.owner != current_thread_id()) {
        return -1;
    }
    import_lock.depth--;
    return 0;
}

/* In the child of fork() only the forking thread survives: it owns the
   lock now if anyone did. */
void
_PyImport_ReInitLock(void)
{
    if (import_lock.depth > 0) {
        import_lock.owner = current_thread_id();
    }
}

/* ---- The _imp module ------------------------------------------------------------------ */

static PyObject *
imp_lock_held(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(import_lock.depth > 0);
}

static PyObject *
imp_acquire_lock(PyObject *module, PyObject *unused)
{
    import_lock_acquire();
    Py_RETURN_NONE;
}

static PyObject *
imp_release_lock(PyObject *module, PyObject *unused)
{
    if (import_lock_release() < 0) {
        PyErr_SetString(PyExc_RuntimeError, "not holding the import lock");
        return NULL;
    }
    Py_RETURN_NONE;
}

static const char *
name_arg(PyObject *name)
{
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "module name must be str, not %.100s", Py_TYPE(name)->tp_name);
        return NULL;
    }
    return PyUnicode_AsUTF8(name);
}

/* 1 for a table module, -1 for sys and builtins (they cannot be made
   again), 0 otherwise. */
static PyObject *
imp_is_builtin(PyObject *module, PyObject *name)
{
    const char *cname = name_arg(name);
    if (cname == NULL) {
        return NULL;
    }
    if (is_core_module(cname)) {
        return PyLong_FromLong(-1);
    }
    return PyLong_FromLong(find_inittab(cname) != NULL);
}

static PyObject *
imp_create_builtin(PyObject *module, PyObject *spec)
{
    PyObject *name = PyObject_GetAttrString(spec, "name");
    if (name == NULL) {
        return NULL;
    }
    if (name_arg(name) == NULL) {
        Py_DECREF(name);
        return NULL;
    }
    PyObject *mod = create_builtin_module(name, spec);
    if (mod == Py_None) {
        Py_SETREF(mod, NULL);
        PyErr_Format(PyExc_ImportError, "no built-in module named %U", name);
    }
    Py_DECREF(name);
    return mod;
}

static PyObject *
imp_exec_builtin(PyObject *module, PyObject *mod)
{
    return exec_builtin_module(mod) < 0 ? NULL : PyLong_FromLong(0);
}

/* We have no frozen modules: importlib's FrozenImporter finds nothing. */
static PyObject *
imp_is_frozen(PyObject *module, PyObject *name)
{
    if (name_arg(name) == NULL) {
        return NULL;
    }
    Py_RETURN_FALSE;
}

static PyObject *
no_frozen_module(PyObject *name)
{
    PyErr_Format(PyExc_ImportError, "No such frozen object named %R", name);
    return NULL;
}

static PyObject *
imp_is_frozen_package(PyObject *module, PyObject *name)
{
    return no_frozen_module(name);
}

static PyObject *
imp_init_frozen(PyObject *module, PyObject *name)
{
    return no_frozen_module(name);
}

static PyObject *
imp_get_frozen_object(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "get_frozen_object() takes 1 or 2 arguments");
        return NULL;
    }
    return no_frozen_module(args[0]);
}

static PyObject *
imp_find_frozen(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"", "withdata", NULL};
    PyObject *name;
    int withdata = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "U|$p:find_frozen", (char **)kwlist, &name,
                                     &withdata)) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
imp_frozen_module_names(PyObject *module, PyObject *unused)
{
    return PyTuple_New(0);
}

static PyObject *
imp_override_frozen_modules_for_tests(PyObject *module, PyObject *override)
{
    Py_RETURN_NONE;
}

static int multi_interp_extensions_check = -1;

static PyObject *
imp_override_multi_interp_extensions_check(PyObject *module, PyObject *arg)
{
    int value = PyLong_AsInt(arg);
    if (value == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int old = multi_interp_extensions_check;
    multi_interp_extensions_check = value;
    return PyLong_FromLong(old);
}

static PyObject *
imp_extension_suffixes(PyObject *module, PyObject *unused)
{
    return _PyImport_ExtensionSuffixes();
}

static PyObject *
imp_create_dynamic(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    /* The second argument (an open file) is accepted and unused, as in
       CPython on POSIX. */
    if (!_PyArg_CheckPositional("create_dynamic", nargs, 1, 2)) {
        return NULL;
    }
    return _PyImport_CreateDynamic(args[0]);
}

static PyObject *
imp_exec_dynamic(PyObject *module, PyObject *mod)
{
    return _PyImport_ExecExtension(mod) < 0 ? NULL : PyLong_FromLong(0);
}

/* The 8-byte source hash of hash-based .pyc files (PEP 552), keyed by
   the magic number so that a bytecode change invalidates them too. */
static PyObject *
imp_source_hash(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"key", "source", NULL};
    long key;
    Py_buffer source;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ly*:source_hash", (char **)kwlist, &key,
                                     &source)) {
        return NULL;
    }
    uint64_t k0 = (uint64_t)key;
    uint64_t hash = _Py_SipHash13(k0, ~k0, source.buf, source.len);
    PyBuffer_Release(&source);
    unsigned char out[8];
    for (int i = 0; i < 8; i++) {
        out[i] = (unsigned char)(hash >> (8 * i));
    }
    return PyBytes_FromStringAndSize((const char *)out, 8);
}

static int
set_code_filename(PyCodeObject *co, PyObject *oldname, PyObject *newname)
{
    int same = PyUnicode_Compare(co->co_filename, oldname) == 0;
    if (!same) {
        return PyErr_Occurred() ? -1 : 0;
    }
    Py_SETREF(co->co_filename, Py_NewRef(newname));
    PyObject *consts = co->co_consts;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(consts); i++) {
        PyObject *c = PyTuple_GET_ITEM(consts, i);
        if (PyCode_Check(c) && set_code_filename((PyCodeObject *)c, oldname, newname) < 0) {
            return -1;
        }
    }
    return 0;
}

/* A loader found code compiled under another path: make it (and its
   nested code) name the file it was loaded from. */
static PyObject *
imp_fix_co_filename(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyCode_Check(args[0]) || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "_fix_co_filename(code, path) takes a code object and a str");
        return NULL;
    }
    PyCodeObject *co = (PyCodeObject *)args[0];
    PyObject *oldname = Py_NewRef(co->co_filename);
    int err = set_code_filename(co, oldname, args[1]);
    Py_DECREF(oldname);
    if (err < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef imp_methods[] = {
    {"lock_held", imp_lock_held, METH_NOARGS, "Whether the import lock is held."},
    {"acquire_lock", imp_acquire_lock, METH_NOARGS, "Take the re-entrant import lock."},
    {"release_lock", imp_release_lock, METH_NOARGS, "Give back the import lock."},
    {"is_builtin", imp_is_builtin, METH_O,
     "1 if the module is built in, -1 if it is built in and cannot be re-created, else 0."},
    {"create_builtin", imp_create_builtin, METH_O, "Create the built-in module a spec names."},
    {"exec_builtin", imp_exec_builtin, METH_O, "Run a built-in module's initialization."},
    {"is_frozen", imp_is_frozen, METH_O, "Whether a frozen module has this name (never here)."},
    {"is_frozen_package", imp_is_frozen_package, METH_O, "Whether a frozen module is a package."},
    {"init_frozen", imp_init_frozen, METH_O, "Initialize a frozen module."},
    {"get_frozen_object", _PyCFunction_CAST(imp_get_frozen_object), METH_FASTCALL,
     "The code object of a frozen module."},
    {"find_frozen", _PyCFunction_CAST(imp_find_frozen), METH_VARARGS | METH_KEYWORDS,
     "Information on a frozen module, or None."},
    {"_frozen_module_names", imp_frozen_module_names, METH_NOARGS, "Names of the frozen modules."},
    {"_override_frozen_modules_for_tests", imp_override_frozen_modules_for_tests, METH_O,
     "For tests: no effect without frozen modules."},
    {"_override_multi_interp_extensions_check", imp_override_multi_interp_extensions_check, METH_O,
     "For tests: set the subinterpreter check, returning the old setting."},
    {"create_dynamic", _PyCFunction_CAST(imp_create_dynamic), METH_FASTCALL,
     "Load the C extension module a spec names from its shared object."},
    {"exec_dynamic", imp_exec_dynamic, METH_O, "Run a C extension module's initialization."},
    {"extension_suffixes", imp_extension_suffixes, METH_NOARGS,
     "File suffixes of loadable C extension modules."},
    {"source_hash", _PyCFunction_CAST(imp_source_hash), METH_VARARGS | METH_KEYWORDS,
     "The hash that hash-based .pyc files store for their source."},
    {"_fix_co_filename", _PyCFunction_CAST(imp_fix_co_filename), METH_FASTCALL,
     "Point a code object and its nested code at another file name."},
    {NULL, NULL, 0, NULL},
};

static int
imp_exec(PyObject *module)
{
    if (PyModule_AddStringConstant(module, "check_hash_based_pycs", "default") < 0) {
        return -1;
    }
    return PyModule_AddObject(module, "pyc_magic_number_token", PyLong_FromLong(PYC_MAGIC_TOKEN));
}

static PyModuleDef_Slot imp_slots[] = {
    {Py_mod_exec, imp_exec},
    {0, NULL},
};

static PyModuleDef imp_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_imp",
    .m_doc = "The C half of the import machinery, for importlib.",
    .m_methods = imp_methods,
    .m_slots = imp_slots,
};

PyObject *
PyInit__imp(void)
{
    return PyModuleDef_Init(&imp_module);
}

/* ---- Bootstrapping importlib --------------------------------------------------------------- */

static PyObject *
read_file_bytes(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
        return NULL;
    }
    PyObject *data = NULL;
    if (fseek(fp, 0, SEEK_END) == 0) {
        long size = ftell(fp);
        rewind(fp);
        data = size < 0 ? NULL : PyBytes_FromStringAndSize(NULL, size);
        if (data != NULL && fread(PyBytes_AS_STRING(data), 1, (size_t)size, fp) != (size_t)size) {
            Py_CLEAR(data);
            PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
        }
    }
    fclose(fp);
    return data;
}

/* ---- The bootstrap's own bytecode cache --------------------------------------------

   importlib caches every module it loads in __pycache__; its own two
   files are loaded before it exists, so C does the same for them, in the
   same format (so either side may read the other's file):

       magic (4) | flags = 0 (4) | source mtime (4) | source size (4) | marshal data

   A file whose header does not match the source is ignored and written
   again; writing goes through a temporary file renamed into place, so a
   reader never sees half a file.  Failing to write is not an error. */

#define PYC_HEADER_SIZE 16

static void
put_le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

static void
pyc_header(unsigned char *header, const struct stat *source)
{
    put_le32(header, (uint32_t)PYC_MAGIC_TOKEN);
    put_le32(header + 4, 0);
    put_le32(header + 8, (uint32_t)source->st_mtime);
    put_le32(header + 12, (uint32_t)source->st_size);
}

/* "dir/name.py" -> "dir/__pycache__/name.<tag>.pyc" */
static void
cache_path(char *out, size_t size, const char *source_path)
{
    const char *slash = strrchr(source_path, '/');
    int dirlen = slash ? (int)(slash - source_path) : 0;
    const char *base = slash ? slash + 1 : source_path;
    int stemlen = (int)strlen(base) - 3; /* without ".py" */
    snprintf(out, size, "%.*s%s__pycache__/%.*s.%s.pyc", dirlen, source_path, slash ? "/" : "",
             stemlen, base, _PY_CACHE_TAG);
}

/* The cached code when its header matches the source; NULL (no error)
   otherwise. */
static PyObject *
read_cached_code(const char *pyc, const unsigned char *expected_header)
{
    PyObject *data = read_file_bytes(pyc);
    if (data == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *code = NULL;
    const char *bytes = PyBytes_AS_STRING(data);
    Py_ssize_t len = PyBytes_GET_SIZE(data);
    if (len > PYC_HEADER_SIZE && memcmp(bytes, expected_header, PYC_HEADER_SIZE) == 0) {
        code = PyMarshal_ReadObjectFromString(bytes + PYC_HEADER_SIZE, len - PYC_HEADER_SIZE);
        if (code != NULL && !PyCode_Check(code)) {
            Py_CLEAR(code);
        }
        if (code == NULL) {
            PyErr_Clear(); /* a corrupt cache is rewritten, not fatal */
        }
    }
    Py_DECREF(data);
    return code;
}

static void
write_cached_code(const char *pyc, const unsigned char *header, PyObject *code)
{
    PyObject *data = PyMarshal_WriteObjectToString(code, Py_MARSHAL_VERSION);
    if (data == NULL) {
        PyErr_Clear();
        return;
    }
    char dir[4096], tmp[4200];
    snprintf(dir, sizeof(dir), "%s", pyc);
    char *slash = strrchr(dir, '/');
    if (slash != NULL) {
        *slash = '\0';
        (void)mkdir(dir, 0777);
    }
    snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", pyc, (long)getpid());
    FILE *fp = fopen(tmp, "wb");
    if (fp != NULL) {
        int ok = fwrite(header, 1, PYC_HEADER_SIZE, fp) == PYC_HEADER_SIZE &&
                 fwrite(PyBytes_AS_STRING(data), 1, (size_t)PyBytes_GET_SIZE(data), fp) ==
                     (size_t)PyBytes_GET_SIZE(data);
        ok = fclose(fp) == 0 && ok;
        if (!ok || rename(tmp, pyc) != 0) {
            (void)unlink(tmp);
        }
    }
    Py_DECREF(data);
}

static PyObject *
compile_source_file(const char *path)
{
    PyObject *source = read_file_bytes(path);
    if (source == NULL) {
        return NULL;
    }
    PyObject *filename = PyUnicode_DecodeFSDefault(path);
    PyObject *code = NULL;
    if (filename != NULL) {
        code = Py_CompileStringObject(PyBytes_AS_STRING(source), filename, Py_file_input, NULL, -1);
    }
    Py_XDECREF(filename);
    Py_DECREF(source);
    return code;
}

/* The code of one of importlib's bootstrap files, from its cache when
   that is current. */
static PyObject *
bootstrap_code(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
        return NULL;
    }
    unsigned char header[PYC_HEADER_SIZE];
    pyc_header(header, &st);
    char pyc[4096];
    cache_path(pyc, sizeof(pyc), path);
    PyObject *code = read_cached_code(pyc, header);
    if (code != NULL) {
        return code;
    }
    code = compile_source_file(path);
    if (code != NULL && _Py_Config.write_bytecode) {
        write_cached_code(pyc, header, code);
    }
    return code;
}

/* Run a bootstrap file as module `name`, registered in sys.modules
   first as any module is while it runs. */
static PyObject *
exec_bootstrap_module(const char *name, const char *path)
{
    PyObject *code = bootstrap_code(path);
    if (code == NULL) {
        return NULL;
    }
    PyObject *mod = PyImport_AddModuleRef(name);
    if (mod == NULL) {
        Py_DECREF(code);
        return NULL;
    }
    PyObject *globals = PyModule_GetDict(mod);
    PyObject *builtins = PyEval_GetBuiltins();
    PyObject *res = NULL;
    if (PyDict_SetItemString(globals, "__builtins__", builtins) == 0) {
        res = PyEval_EvalCode(code, globals, globals);
    }
    Py_DECREF(code);
    if (res == NULL) {
        Py_DECREF(mod);
        return NULL;
    }
    Py_DECREF(res);
    return mod;
}

static int
stdlib_has_importlib(const char *stdlib_dir)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof(path), "%s/importlib/_bootstrap.py", stdlib_dir);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int
call_bootstrap(PyObject *mod, const char *method, PyObject *arg1, PyObject *arg2)
{
    PyObject *res = PyObject_CallMethod(mod, method, arg1 ? (arg2 ? "OO" : "O") : NULL, arg1, arg2);
    Py_XDECREF(res);
    return res == NULL ? -1 : 0;
}

/* Make importlib the import system.  Returns 1 when installed, 0 when
   the stdlib is not there (only built-in modules will import), -1 on
   error. */
int
_PyImport_InitExternal(PyInterpreterState *interp, const char *stdlib_dir)
{
    if (stdlib_dir == NULL || !stdlib_has_importlib(stdlib_dir)) {
        return 0;
    }
    PyObject *imp_name = PyUnicode_FromString("_imp");
    PyObject *imp = imp_name ? import_builtin_directly(imp_name) : NULL;
    Py_XDECREF(imp_name);
    if (imp == NULL) {
        return -1;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/importlib/_bootstrap.py", stdlib_dir);
    PyObject *bootstrap = exec_bootstrap_module("_frozen_importlib", path);
    PyObject *sysmod = PyImport_AddModuleRef("sys");
    int err = bootstrap == NULL || sysmod == NULL ||
              call_bootstrap(bootstrap, "_install", sysmod, imp) < 0;
    Py_XDECREF(sysmod);
    Py_DECREF(imp);
    if (err) {
        Py_XDECREF(bootstrap);
        return -1;
    }
    snprintf(path, sizeof(path), "%s/importlib/_bootstrap_external.py", stdlib_dir);
    PyObject *external = exec_bootstrap_module("_frozen_importlib_external", path);
    err = external == NULL || call_bootstrap(bootstrap, "_install_external_importers", NULL, NULL) < 0;
    Py_XDECREF(external);
    if (err) {
        Py_DECREF(bootstrap);
        return -1;
    }
    interp->importlib = bootstrap;
    return 1;
}

/* ---- Importing ------------------------------------------------------------------------------ */

/* The package a relative import in `globals` starts from, as importlib's
   _calc___package__ finds it: __package__, else __spec__.parent, else
   from __name__ (and __path__). */
static PyObject *
calc_package(PyObject *globals)
{
    PyObject *package = PyDict_GetItemString(globals, "__package__");
    if (package != NULL && package != Py_None) {
        if (!PyUnicode_Check(package)) {
            PyErr_SetString(PyExc_TypeError, "package must be a string");
            return NULL;
        }
        return Py_NewRef(package);
    }
    PyObject *spec = PyDict_GetItemString(globals, "__spec__");
    if (spec != NULL && spec != Py_None) {
        return PyObject_GetAttrString(spec, "parent");
    }
    PyObject *modname = PyDict_GetItemString(globals, "__name__");
    if (modname == NULL) {
        PyErr_SetString(PyExc_KeyError, "'__name__' not in globals");
        return NULL;
    }
    if (!PyUnicode_Check(modname)) {
        PyErr_SetString(PyExc_TypeError, "__name__ must be a string");
        return NULL;
    }
    if (PyDict_GetItemString(globals, "__path__") != NULL) {
        return Py_NewRef(modname);
    }
    Py_ssize_t dot = PyUnicode_FindChar(modname, '.', 0, PyUnicode_GET_LENGTH(modname), -1);
    return dot < 0 ? PyUnicode_New(0, 0) : PyUnicode_Substring(modname, 0, dot);
}

/* The absolute name of a relative import of `name` at `level` dots. */
static PyObject *
resolve_name(PyObject *name, PyObject *globals, int level)
{
    if (globals == NULL || !PyDict_Check(globals)) {
        PyErr_SetString(PyExc_KeyError, "'__name__' not in globals");
        return NULL;
    }
    PyObject *base = calc_package(globals);
    if (base == NULL) {
        return NULL;
    }
    if (PyUnicode_GET_LENGTH(base) == 0) {
        Py_DECREF(base);
        PyErr_SetString(PyExc_ImportError, "attempted relative import with no known parent package");
        return NULL;
    }
    /* Each dot past the first climbs one package up. */
    for (int up = 1; up < level; up++) {
        Py_ssize_t dot = PyUnicode_FindChar(base, '.', 0, PyUnicode_GET_LENGTH(base), -1);
        if (dot < 0) {
            Py_DECREF(base);
            PyErr_SetString(PyExc_ImportError, "attempted relative import beyond top-level package");
            return NULL;
        }
        Py_SETREF(base, PyUnicode_Substring(base, 0, dot));
        if (base == NULL) {
            return NULL;
        }
    }
    if (PyUnicode_GET_LENGTH(name) == 0) {
        return base;
    }
    PyObject *abs_name = PyUnicode_FromFormat("%U.%U", base, name);
    Py_DECREF(base);
    return abs_name;
}

static PyObject *
import_func(PyInterpreterState *interp)
{
    PyObject *func = PyDict_GetItemString(interp->builtins, "__import__");
    if (func == NULL) {
        PyErr_SetString(PyExc_ImportError, "__import__ not found");
    }
    return func;
}

static PyObject *
module_not_found(PyObject *name)
{
    PyObject *msg = PyUnicode_FromFormat("No module named '%U'", name);
    if (msg == NULL) {
        return NULL;
    }
    PyObject *exc = PyObject_CallOneArg(PyExc_ModuleNotFoundError, msg);
    Py_DECREF(msg);
    if (exc != NULL && PyObject_SetAttrString(exc, "name", name) == 0) {
        PyErr_SetObject(PyExc_ModuleNotFoundError, exc);
    }
    Py_XDECREF(exc);
    return NULL;
}

/* ---- Tracebacks through importlib ----------------------------------------------

   An error raised by the module being imported should not show the
   importlib frames it passed through: as CPython, every importlib frame
   is dropped from an ImportError's traceback, and for other errors each
   run of importlib frames up to the `_call_with_frames_removed` that
   called into user code. */

static int
is_importlib_frame(PyTracebackObject *tb)
{
    PyCodeObject *code = PyFrame_GetCode(tb->tb_frame);
    int found = 0;
    if (PyUnicode_Check(code->co_filename)) {
        const char *file = PyUnicode_AsUTF8(code->co_filename);
        const char *base = file ? strrchr(file, '/') : NULL;
        base = base ? base + 1 : file;
        found = base != NULL && strstr(file, "importlib/") != NULL &&
                (strcmp(base, "_bootstrap.py") == 0 || strcmp(base, "_bootstrap_external.py") == 0);
    }
    Py_DECREF(code);
    PyErr_Clear();
    return found;
}

static int
is_frames_removed_call(PyTracebackObject *tb)
{
    PyCodeObject *code = PyFrame_GetCode(tb->tb_frame);
    int found = PyUnicode_CompareWithASCIIString(code->co_name, "_call_with_frames_removed") == 0;
    Py_DECREF(code);
    return found;
}

/* Which entries of `entries[0:n]` survive: with `drop_all` no importlib
   entry, else in each run of importlib entries only those after its last
   `_call_with_frames_removed`. */
static void
choose_kept_frames(PyTracebackObject **entries, char *keep, Py_ssize_t n, int drop_all)
{
    Py_ssize_t i = 0;
    while (i < n) {
        if (!is_importlib_frame(entries[i])) {
            keep[i++] = 1;
            continue;
        }
        Py_ssize_t end = i, last_call = -1;
        while (end < n && is_importlib_frame(entries[end])) {
            if (is_frames_removed_call(entries[end])) {
                last_call = end;
            }
            end++;
        }
        for (Py_ssize_t k = i; k < end; k++) {
            keep[k] = !drop_all && k > last_call;
        }
        i = end;
    }
}

static void
trim_importlib_frames(PyObject *exc)
{
    PyObject *head = PyException_GetTraceback(exc);
    if (head == NULL) {
        return;
    }
    Py_ssize_t n = 0;
    for (PyTracebackObject *tb = (PyTracebackObject *)head; tb != NULL; tb = tb->tb_next) {
        n++;
    }
    PyTracebackObject **entries = PyMem_Malloc((size_t)n * sizeof(*entries));
    char *keep = PyMem_Malloc((size_t)n);
    if (entries == NULL || keep == NULL) {
        PyMem_Free(entries);
        PyMem_Free(keep);
        Py_DECREF(head);
        return; /* an untrimmed traceback is still right */
    }
    Py_ssize_t i = 0;
    for (PyTracebackObject *tb = (PyTracebackObject *)head; tb != NULL; tb = tb->tb_next) {
        entries[i++] = (PyTracebackObject *)Py_NewRef(tb); /* alive while relinking */
    }
    choose_kept_frames(entries, keep, n, PyErr_GivenExceptionMatches(exc, PyExc_ImportError));
    PyTracebackObject *first = NULL, *last = NULL;
    for (i = 0; i < n; i++) {
        if (!keep[i]) {
            continue;
        }
        if (last == NULL) {
            first = entries[i];
        }
        else {
            Py_XSETREF(last->tb_next, (PyTracebackObject *)Py_NewRef(entries[i]));
        }
        last = entries[i];
    }
    if (last != NULL) {
        Py_CLEAR(last->tb_next);
    }
    PyException_SetTraceback(exc, first ? (PyObject *)first : Py_None);
    for (i = 0; i < n; i++) {
        Py_DECREF(entries[i]);
    }
    PyMem_Free(entries);
    PyMem_Free(keep);
    Py_DECREF(head);
}

/* ---- -X importtime -------------------------------------------------------------------------

   Each import that runs importlib prints its own time and the time of
   everything it imported, indented by nesting depth, as CPython does. */

static int importtime_depth;
static double importtime_children; /* time of the finished imports nested in the current one */

static double
now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static PyObject *
timed_find_and_load(PyInterpreterState *interp, PyObject *abs_name, PyObject *func)
{
    static int header_done = 0;
    if (!header_done) {
        fprintf(stderr, "import time: self [us] | cumulative | imported package\n");
        header_done = 1;
    }
    double outer_children = importtime_children;
    importtime_children = 0;
    importtime_depth++;
    double start = now_us();
    PyObject *mod = PyObject_CallMethod(interp->importlib, "_find_and_load", "OO", abs_name, func);
    double total = now_us() - start;
    importtime_depth--;
    fprintf(stderr, "import time: %9.0f | %10.0f | %*s%s\n", total - importtime_children, total,
            importtime_depth * 2, "", PyUnicode_AsUTF8(abs_name));
    importtime_children = outer_children + total;
    return mod;
}

/* Import a module that is not in sys.modules. */
static PyObject *
find_and_load(PyInterpreterState *interp, PyObject *abs_name)
{
    if (interp->importlib == NULL) {
        /* No stdlib: built-in modules only. */
        PyObject *mod = import_builtin_directly(abs_name);
        if (mod == Py_None) {
            Py_DECREF(mod);
            return module_not_found(abs_name);
        }
        return mod;
    }
    PyObject *func = import_func(interp);
    if (func == NULL) {
        return NULL;
    }
    PyObject *mod = _Py_Config.import_time
                        ? timed_find_and_load(interp, abs_name, func)
                        : PyObject_CallMethod(interp->importlib, "_find_and_load", "OO", abs_name, func);
    if (mod == NULL) {
        PyObject *exc = PyErr_GetRaisedException();
        trim_importlib_frames(exc);
        PyErr_SetRaisedException(exc);
    }
    return mod;
}

/* A module another thread is still executing: wait for it (importlib's
   module lock) so that we never see it half made. */
static int
wait_if_initializing(PyInterpreterState *interp, PyObject *mod, PyObject *name)
{
    if (interp->importlib == NULL) {
        return 0;
    }
    PyObject *spec;
    if (PyObject_GetOptionalAttrString(mod, "__spec__", &spec) < 0) {
        return -1;
    }
    if (spec == NULL) {
        return 0;
    }
    PyObject *initializing;
    int busy = PyObject_GetOptionalAttrString(spec, "_initializing", &initializing);
    Py_DECREF(spec);
    if (busy > 0) {
        busy = PyObject_IsTrue(initializing);
        Py_DECREF(initializing);
    }
    if (busy <= 0) {
        return busy;
    }
    PyObject *res = PyObject_CallMethod(interp->importlib, "_lock_unlock_module", "O", name);
    Py_XDECREF(res);
    return res == NULL ? -1 : 0;
}

static PyObject *
import_absolute(PyInterpreterState *interp, PyObject *abs_name)
{
    PyObject *mod = PyImport_GetModule(abs_name);
    if (mod == NULL && PyErr_Occurred()) {
        return NULL;
    }
    if (mod != NULL && mod != Py_None) {
        if (wait_if_initializing(interp, mod, abs_name) < 0) {
            Py_DECREF(mod);
            return NULL;
        }
        return mod;
    }
    Py_XDECREF(mod);
    return find_and_load(interp, abs_name);
}

/* `import a.b.c` binds a: the top-level package of what was imported
   (for a relative import, the package `name`'s first part lives in). */
static PyObject *
top_level_package(PyInterpreterState *interp, PyObject *name, PyObject *abs_name,
                  PyObject *mod, int level)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(name);
    Py_ssize_t dot = PyUnicode_FindChar(name, '.', 0, len, 1);
    if (dot < 0 && level == 0) {
        return Py_NewRef(mod);
    }
    if (level == 0) {
        PyObject *front = PyUnicode_Substring(name, 0, dot);
        PyObject *top = front ? import_absolute(interp, front) : NULL;
        Py_XDECREF(front);
        return top;
    }
    if (len == 0 || dot < 0) {
        return Py_NewRef(mod);
    }
    Py_ssize_t cut = len - dot;
    PyObject *top_name = PyUnicode_Substring(abs_name, 0, PyUnicode_GET_LENGTH(abs_name) - cut);
    if (top_name == NULL) {
        return NULL;
    }
    PyObject *top = PyImport_GetModule(top_name);
    if (top == NULL && !PyErr_Occurred()) {
        PyErr_Format(PyExc_KeyError, "%R not in sys.modules as expected", top_name);
    }
    Py_DECREF(top_name);
    return top;
}

/* `from pkg import a, b`: importlib imports the submodules named. */
static PyObject *
handle_fromlist(PyInterpreterState *interp, PyObject *mod, PyObject *fromlist)
{
    if (interp->importlib == NULL) {
        return Py_NewRef(mod); /* built-in modules are never packages */
    }
    PyObject *path;
    int is_package = PyObject_GetOptionalAttrString(mod, "__path__", &path);
    if (is_package <= 0) {
        return is_package < 0 ? NULL : Py_NewRef(mod);
    }
    Py_DECREF(path);
    PyObject *func = import_func(interp);
    if (func == NULL) {
        return NULL;
    }
    return PyObject_CallMethod(interp->importlib, "_handle_fromlist", "OOO", mod, fromlist, func);
}

PyObject *
PyImport_ImportModuleLevelObject(PyObject *name, PyObject *globals, PyObject *locals,
                                 PyObject *fromlist, int level)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "module name must be a string");
        return NULL;
    }
    if (level < 0) {
        PyErr_SetString(PyExc_ValueError, "level must be >= 0");
        return NULL;
    }
    PyObject *abs_name;
    if (level > 0) {
        abs_name = resolve_name(name, globals, level);
    }
    else if (PyUnicode_GET_LENGTH(name) == 0) {
        PyErr_SetString(PyExc_ValueError, "Empty module name");
        return NULL;
    }
    else {
        abs_name = Py_NewRef(name);
    }
    if (abs_name == NULL) {
        return NULL;
    }
    PyObject *mod = import_absolute(interp, abs_name);
    PyObject *result = NULL;
    if (mod != NULL) {
        int has_from = fromlist != NULL && fromlist != Py_None ? PyObject_IsTrue(fromlist) : 0;
        if (has_from > 0) {
            result = handle_fromlist(interp, mod, fromlist);
        }
        else if (has_from == 0) {
            result = top_level_package(interp, name, abs_name, mod, level);
        }
        Py_DECREF(mod);
    }
    Py_DECREF(abs_name);
    return result;
}

PyObject *
PyImport_ImportModuleLevel(const char *name, PyObject *globals, PyObject *locals,
                           PyObject *fromlist, int level)
{
    PyObject *n = PyUnicode_FromString(name);
    if (n == NULL) {
        return NULL;
    }
    PyObject *m = PyImport_ImportModuleLevelObject(n, globals, locals, fromlist, level);
    Py_DECREF(n);
    return m;
}

/* Import through builtins.__import__, so that a replaced __import__ is
   honoured, and return the named module itself (not its top package). */
PyObject *
PyImport_Import(PyObject *name)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    PyObject *func = import_func(interp);
    if (func == NULL) {
        return NULL;
    }
    PyObject *fromlist = Py_BuildValue("[s]", "__doc__");
    if (fromlist == NULL) {
        return NULL;
    }
    PyObject *globals = PyDict_New();
    PyObject *res = NULL;
    if (globals != NULL) {
        res = PyObject_CallFunction(func, "OOOOi", name, globals, globals, fromlist, 0);
    }
    Py_XDECREF(globals);
    Py_DECREF(fromlist);
    if (res == NULL) {
        return NULL;
    }
    Py_DECREF(res);
    PyObject *mod = PyImport_GetModule(name);
    if (mod == NULL && !PyErr_Occurred()) {
        module_not_found(name);
    }
    return mod;
}

PyObject *
PyImport_ImportModule(const char *name)
{
    PyObject *n = PyUnicode_FromString(name);
    if (n == NULL) {
        return NULL;
    }
    PyObject *m = PyImport_Import(n);
    Py_DECREF(n);
    return m;
}

/* Import `modname` and return its attribute `attrname`. */
PyObject *
_PyImport_GetModuleAttrString(const char *modname, const char *attrname)
{
    PyObject *mod = PyImport_ImportModule(modname);
    if (mod == NULL) {
        return NULL;
    }
    PyObject *attr = PyObject_GetAttrString(mod, attrname);
    Py_DECREF(mod);
    return attr;
}

/* sys.modules[name], or NULL without an exception when it is absent. */
PyObject *
_PyImport_GetModuleIfLoaded(const char *name)
{
    PyObject *modules = PyImport_GetModuleDict();
    if (modules == NULL) {
        return NULL;
    }
    PyObject *mod = PyDict_GetItemString(modules, name);
    return Py_XNewRef(mod);
}
