/* Glue to the pure-Python half of pickling: copyreg's tables,
   _compat_pickle's Python 2 name mappings and a few helper callables.

   They are fetched once, the first time the module is imported, and held
   for the life of the process.  The dictionaries are the live objects, so
   copyreg.pickle() and copyreg.add_extension() calls made later are seen. */

#include "pickle.h"

_PyPickleState _PyPickle_State;

static int
fetch(PyObject *module, const char *name, PyObject **slot, PyTypeObject *want)
{
    PyObject *v = PyObject_GetAttrString(module, name);
    if (v == NULL) {
        return -1;
    }
    if (want != NULL && !PyObject_TypeCheck(v, want)) {
        PyErr_Format(PyExc_RuntimeError, "%s must be a %s, not %.200s",
                     name, want->tp_name, Py_TYPE(v)->tp_name);
        Py_DECREF(v);
        return -1;
    }
    *slot = v;
    return 0;
}

static int
fetch_from(const char *modname, const char *const *names, PyObject **slots[],
           PyTypeObject *want)
{
    PyObject *m = PyImport_ImportModule(modname);
    if (m == NULL) {
        return -1;
    }
    for (int i = 0; names[i] != NULL; i++) {
        if (fetch(m, names[i], slots[i], want) < 0) {
            Py_DECREF(m);
            return -1;
        }
    }
    Py_DECREF(m);
    return 0;
}

int
_PyPickle_InitState(void)
{
    _PyPickleState *st = &_PyPickle_State;
    if (st->dispatch_table != NULL) {
        return 0;
    }
    static const char *const copyreg_names[] = {
        "dispatch_table", "_extension_registry", "_inverted_registry",
        "_extension_cache", NULL};
    PyObject **copyreg_slots[] = {
        &st->dispatch_table, &st->extension_registry,
        &st->inverted_registry, &st->extension_cache};
    static const char *const compat_names[] = {
        "NAME_MAPPING", "IMPORT_MAPPING", "REVERSE_NAME_MAPPING",
        "REVERSE_IMPORT_MAPPING", NULL};
    PyObject **compat_slots[] = {
        &st->name_2to3, &st->import_2to3, &st->name_3to2, &st->import_3to2};
    static const char *const codecs_names[] = {"encode", "escape_decode",
                                                NULL};
    PyObject **codecs_slots[] = {&st->codecs_encode, &st->escape_decode};
    static const char *const builtins_names[] = {"getattr", NULL};
    PyObject **builtins_slots[] = {&st->builtin_getattr};
    static const char *const functools_names[] = {"partial", NULL};
    PyObject **functools_slots[] = {&st->partial};

    if (fetch_from("copyreg", copyreg_names, copyreg_slots, &PyDict_Type) < 0
        || fetch_from("_compat_pickle", compat_names, compat_slots,
                      &PyDict_Type) < 0
        || fetch_from("codecs", codecs_names, codecs_slots, NULL) < 0
        || fetch_from("builtins", builtins_names, builtins_slots, NULL) < 0
        || fetch_from("functools", functools_names, functools_slots,
                      NULL) < 0) {
        Py_CLEAR(st->dispatch_table);
        return -1;
    }
    /* Interned, so that it is the very object pickle.py's 'latin1'
       constant is: the memo then treats both alike. */
    st->str_latin1 = PyUnicode_InternFromString("latin1");
    if (st->str_latin1 == NULL) {
        Py_CLEAR(st->dispatch_table);
        return -1;
    }
    return 0;
}

PyObject *
_PyPickle_ImportModule(PyObject *module)
{
    PyObject *m = PyImport_ImportModuleLevelObject(module, NULL, NULL, NULL, 0);
    if (m == NULL) {
        return NULL;
    }
    Py_DECREF(m);
    /* The package's import returns the top-level package: what we want is
       the module registered under the full name. */
    PyObject *modules = PySys_GetObject("modules");
    if (modules == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "lost sys.modules");
        return NULL;
    }
    return PyObject_GetItem(modules, module);
}

PyObject *
_PyPickle_GetDotted(PyObject *root, PyObject *parts)
{
    PyObject *cur = Py_NewRef(root);
    Py_ssize_t n = PyList_GET_SIZE(parts);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *next = PyObject_GetAttr(cur, PyList_GET_ITEM(parts, i));
        Py_DECREF(cur);
        if (next == NULL) {
            return NULL;
        }
        cur = next;
    }
    return cur;
}

int
_PyPickle_StoreHook(PyObject **slot, PyObject *value, const char *what)
{
    if (value != NULL && PyCallable_Check(value)) {
        Py_XSETREF(*slot, Py_NewRef(value));
        return 0;
    }
    PyErr_Format(PyExc_TypeError,
                 value == NULL ? "cannot delete the %s hook"
                               : "the %s hook must be callable",
                 what);
    return -1;
}

void
_PyPickle_ClearState(void)
{
    _PyPickleState *st = &_PyPickle_State;
    PyObject **fields[] = {
        &st->PickleError, &st->PicklingError, &st->UnpicklingError,
        &st->dispatch_table, &st->extension_registry, &st->inverted_registry,
        &st->extension_cache, &st->name_2to3, &st->import_2to3,
        &st->name_3to2, &st->import_3to2, &st->codecs_encode,
        &st->builtin_getattr, &st->partial, &st->escape_decode,
        &st->str_latin1};
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        Py_CLEAR(*fields[i]);
    }
}
