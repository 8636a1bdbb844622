/* _pickle: the C accelerator pickle.py picks up when it imports (see
   pickle.h for the file layout and Doc/pickle.md for the design). */

#include "pickle.h"
#include "pycore_object.h"      /* _PyStaticType_InitBuiltin */

static PyObject *
pickle_dump(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"obj", "file", "protocol", "fix_imports",
                             "buffer_callback", NULL};
    PyObject *obj, *file, *protocol = Py_None, *callback = Py_None;
    int fix_imports = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|O$pO:dump", kwlist, &obj,
                                     &file, &protocol, &fix_imports,
                                     &callback)) {
        return NULL;
    }
    return _PyPickle_Dumps(obj, file, protocol, fix_imports, callback);
}

static PyObject *
pickle_dumps(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"obj", "protocol", "fix_imports",
                             "buffer_callback", NULL};
    PyObject *obj, *protocol = Py_None, *callback = Py_None;
    int fix_imports = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O$pO:dumps", kwlist, &obj,
                                     &protocol, &fix_imports, &callback)) {
        return NULL;
    }
    return _PyPickle_Dumps(obj, NULL, protocol, fix_imports, callback);
}

static PyObject *
pickle_load(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"file", "fix_imports", "encoding", "errors",
                             "buffers", NULL};
    PyObject *file, *buffers = NULL;
    int fix_imports = 1;
    const char *encoding = "ASCII", *errors = "strict";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$pssO:load", kwlist, &file,
                                     &fix_imports, &encoding, &errors,
                                     &buffers)) {
        return NULL;
    }
    return _PyPickle_Loads(NULL, file, fix_imports, encoding, errors, buffers);
}

static PyObject *
pickle_loads(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"data", "fix_imports", "encoding", "errors",
                             "buffers", NULL};
    PyObject *data, *buffers = NULL;
    int fix_imports = 1;
    const char *encoding = "ASCII", *errors = "strict";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$pssO:loads", kwlist,
                                     &data, &fix_imports, &encoding, &errors,
                                     &buffers)) {
        return NULL;
    }
    return _PyPickle_Loads(data, NULL, fix_imports, encoding, errors, buffers);
}

static PyMethodDef pickle_functions[] = {
    {"dump", (PyCFunction)(void (*)(void))pickle_dump,
     METH_VARARGS | METH_KEYWORDS,
     "dump($module, obj, file, protocol=None, *, fix_imports=True, "
     "buffer_callback=None)\n--\n\n"
     "Write the pickle of obj to the binary file object file."},
    {"dumps", (PyCFunction)(void (*)(void))pickle_dumps,
     METH_VARARGS | METH_KEYWORDS,
     "dumps($module, obj, protocol=None, *, fix_imports=True, "
     "buffer_callback=None)\n--\n\n"
     "Return the pickle of obj as a bytes object."},
    {"load", (PyCFunction)(void (*)(void))pickle_load,
     METH_VARARGS | METH_KEYWORDS,
     "load($module, file, *, fix_imports=True, encoding='ASCII', "
     "errors='strict', buffers=())\n--\n\n"
     "Read one pickle from the binary file object file and return the "
     "object it describes."},
    {"loads", (PyCFunction)(void (*)(void))pickle_loads,
     METH_VARARGS | METH_KEYWORDS,
     "loads($module, data, /, *, fix_imports=True, encoding='ASCII', "
     "errors='strict', buffers=())\n--\n\n"
     "Return the object described by the pickle in the bytes-like data."},
    {NULL, NULL, 0, NULL},
};

/* The module object the state belongs to; freeing it releases the state
   (so a finalized interpreter holds nothing), a later import refills it. */
static void *state_owner;

static void
pickle_module_free(void *m)
{
    if (m == state_owner) {
        _PyPickle_ClearState();
        state_owner = NULL;
    }
}

static struct PyModuleDef pickle_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_pickle",
    .m_doc = "Pickler, Unpickler and the dump/load functions in C; pickle.py "
              "imports them in place of its pure-Python classes.",
    .m_size = -1,
    .m_methods = pickle_functions,
    .m_free = pickle_module_free,
};

static int
make_exceptions(_PyPickleState *st)
{
    if (st->PickleError != NULL) {
        return 0;
    }
    /* name, doc, slot; the first is the base of the other two */
    static const struct {
        const char *name;
        const char *doc;
        size_t offset;
    } table[] = {
        {"_pickle.PickleError", "Base of the errors pickle raises.",
         offsetof(_PyPickleState, PickleError)},
        {"_pickle.PicklingError", "Raised when an object cannot be turned "
         "into a pickle.", offsetof(_PyPickleState, PicklingError)},
        {"_pickle.UnpicklingError", "Raised when a pickle stream is corrupt "
         "or cannot be loaded.", offsetof(_PyPickleState, UnpicklingError)},
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        PyObject **slot = (PyObject **)((char *)st + table[i].offset);
        *slot = PyErr_NewExceptionWithDoc(table[i].name, table[i].doc,
                                          i ? st->PickleError : NULL, NULL);
        if (*slot == NULL) {
            for (size_t j = 0; j < i; j++) {
                Py_CLEAR(*(PyObject **)((char *)st + table[j].offset));
            }
            return -1;
        }
    }
    return 0;
}

PyObject *
PyInit__pickle(void)
{
    static int types_ready = 0;
    if (!types_ready) {
        if (_PyStaticType_InitBuiltin(&_PyPickle_PicklerType) < 0
            || _PyStaticType_InitBuiltin(&_PyPickle_UnpicklerType) < 0
            || _PyStaticType_InitBuiltin(&_PyPickle_PickleBufferType) < 0
            || _PyStaticType_InitBuiltin(&_PyPickle_PicklerMemoProxyType) < 0
            || _PyStaticType_InitBuiltin(
                   &_PyPickle_UnpicklerMemoProxyType) < 0) {
            return NULL;
        }
        types_ready = 1;
    }
    if (make_exceptions(&_PyPickle_State) < 0
        || _PyPickle_InitState() < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&pickle_module);
    if (m == NULL) {
        return NULL;
    }
    _PyPickleState *st = &_PyPickle_State;
    if (PyModule_AddObjectRef(m, "PickleError", st->PickleError) < 0
        || PyModule_AddObjectRef(m, "PicklingError", st->PicklingError) < 0
        || PyModule_AddObjectRef(m, "UnpicklingError",
                                 st->UnpicklingError) < 0
        || PyModule_AddObjectRef(m, "Pickler",
                                 (PyObject *)&_PyPickle_PicklerType) < 0
        || PyModule_AddObjectRef(m, "Unpickler",
                                 (PyObject *)&_PyPickle_UnpicklerType) < 0
        || PyModule_AddObjectRef(m, "PickleBuffer",
                                 (PyObject *)&_PyPickle_PickleBufferType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    state_owner = m;
    return m;
}
