/* Loading C extension modules from shared objects.

   importlib's ExtensionFileLoader finds a file ending in one of
   _PyImport_ExtensionSuffixes() and calls _imp.create_dynamic(spec) and
   then _imp.exec_dynamic(module).  Creating opens the file with dlopen()
   (flags from sys.setdlopenflags) and calls its PyInit_<name> function:

   - single-phase init returns the finished module; we record it by
     (name, path) so importing it again after it left sys.modules gives
     the same module back instead of running an init function that is not
     written to run twice;
   - multi-phase init (PEP 489) returns a PyModuleDef, which we turn into
     a module for the spec; its Py_mod_exec slots run in exec_dynamic.

   Shared objects are never closed: functions and types they defined can
   outlive any module object.  The executable exports its symbols
   (--export-dynamic) so the extensions link against the running
   interpreter. */

#include "Python.h"
#include "pycore_import.h"
#include "pycore_pystate.h"

#include <dlfcn.h>

#ifndef PY_SOABI
#  error "PY_SOABI (e.g. cpython-314-x86_64-linux-gnu) comes from configure"
#endif

/* No ".abi3.so": CPython's stable ABI is a promise about its own object
   layouts, which we do not make. */
PyObject *
_PyImport_ExtensionSuffixes(void)
{
    return Py_BuildValue("[ss]", "." PY_SOABI ".so", ".so");
}

/* Single-phase modules already made, keyed by (name, path). */
static PyObject *single_phase_modules;

static PyObject *
remembered_module(PyObject *key)
{
    if (single_phase_modules == NULL) {
        return NULL;
    }
    PyObject *mod = NULL;
    if (PyDict_GetItemRef(single_phase_modules, key, &mod) < 0) {
        PyErr_Clear();
    }
    return mod;
}

static int
remember_module(PyObject *key, PyObject *mod)
{
    if (single_phase_modules == NULL) {
        single_phase_modules = PyDict_New();
        if (single_phase_modules == NULL) {
            return -1;
        }
    }
    return PyDict_SetItem(single_phase_modules, key, mod);
}

static void
import_error(PyObject *name, PyObject *path, const char *fmt, ...)
{
    va_list va;
    va_start(va, fmt);
    PyObject *msg = PyUnicode_FromFormatV(fmt, va);
    va_end(va);
    if (msg != NULL) {
        PyErr_SetImportError(msg, name, path);
        Py_DECREF(msg);
    }
}

/* The init function's symbol: PyInit_ and the last dotted part of the
   name.  Non-ASCII names would need PEP 489's punycode form
   (PyInitU_...), which we do not support: refused clearly. */
static int
init_symbol(PyObject *name, PyObject *path, char *out, size_t size)
{
    Py_ssize_t len;
    const char *full = PyUnicode_AsUTF8AndSize(name, &len);
    if (full == NULL) {
        return -1;
    }
    const char *dot = strrchr(full, '.');
    const char *last = dot ? dot + 1 : full;
    for (const char *c = last; *c; c++) {
        if ((unsigned char)*c >= 0x80) {
            import_error(name, path, "extension modules with non-ASCII names are not supported: %U",
                         name);
            return -1;
        }
    }
    if ((size_t)snprintf(out, size, "PyInit_%s", last) >= size) {
        import_error(name, path, "extension module name too long: %U", name);
        return -1;
    }
    return 0;
}

typedef PyObject *(*module_init_fn)(void);

static module_init_fn
open_init_function(PyObject *name, PyObject *path)
{
    char symbol[256];
    if (init_symbol(name, path, symbol, sizeof(symbol)) < 0) {
        return NULL;
    }
    PyObject *path_bytes = PyUnicode_EncodeFSDefault(path);
    if (path_bytes == NULL) {
        return NULL;
    }
    void *handle = dlopen(PyBytes_AS_STRING(path_bytes), _PySys_GetDlopenFlags());
    Py_DECREF(path_bytes);
    if (handle == NULL) {
        const char *why = dlerror();
        import_error(name, path, "%s", why ? why : "dlopen() failed");
        return NULL;
    }
    module_init_fn init = (module_init_fn)dlsym(handle, symbol);
    if (init == NULL) {
        import_error(name, path, "dynamic module does not define module export function (%s)",
                     symbol);
        return NULL;
    }
    return init;
}

/* Run the init function: a module or a PyModuleDef, never NULL without
   an exception, never an exception with a result. */
static PyObject *
run_init_function(module_init_fn init, PyObject *name)
{
    PyObject *result = init();
    if (result == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_SystemError, "initialization of %U failed without raising an exception",
                         name);
        }
        return NULL;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(result);
        PyErr_Format(PyExc_SystemError, "initialization of %U raised unreported exception", name);
        return NULL;
    }
    return result;
}

static PyObject *
finish_single_phase(PyObject *mod, PyObject *key, PyObject *name, PyObject *path)
{
    if (!PyModule_Check(mod)) {
        PyErr_Format(PyExc_SystemError, "initialization of %U did not return a module", name);
        Py_DECREF(mod);
        return NULL;
    }
    if (PyModule_AddObjectRef(mod, "__file__", path) < 0 || remember_module(key, mod) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}

PyObject *
_PyImport_CreateDynamic(PyObject *spec)
{
    PyObject *name = PyObject_GetAttrString(spec, "name");
    PyObject *path = name ? PyObject_GetAttrString(spec, "origin") : NULL;
    PyObject *key = path ? PyTuple_Pack(2, name, path) : NULL;
    PyObject *mod = NULL;
    if (key == NULL) {
        goto done;
    }
    if (!PyUnicode_Check(name) || !PyUnicode_Check(path)) {
        PyErr_SetString(PyExc_TypeError, "create_dynamic: spec.name and spec.origin must be str");
        goto done;
    }
    mod = remembered_module(key);
    if (mod != NULL) {
        goto done;
    }
    module_init_fn init = open_init_function(name, path);
    if (init == NULL) {
        goto done;
    }
    mod = run_init_function(init, name);
    if (mod == NULL) {
        goto done;
    }
    if (PyObject_TypeCheck(mod, &PyModuleDef_Type)) {
        Py_SETREF(mod, PyModule_FromDefAndSpec((PyModuleDef *)mod, spec));
    }
    else {
        mod = finish_single_phase(mod, key, name, path);
    }
done:
    Py_XDECREF(key);
    Py_XDECREF(path);
    Py_XDECREF(name);
    return mod;
}

void
_PyImport_ClearExtensions(void)
{
    Py_CLEAR(single_phase_modules);
}

int
_PyImport_ExecExtension(PyObject *mod)
{
    if (!PyModule_Check(mod)) {
        return 0;
    }
    PyModuleDef *def = PyModule_GetDef(mod);
    if (def == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (def->m_slots == NULL) {
        return 0; /* single-phase: its init function did everything */
    }
    return PyModule_ExecDef(mod, def);
}
