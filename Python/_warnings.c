/* Warnings from C: PyErr_Warn* and the `_warnings` module.

   The filters, the registries and the formatting live in the stdlib's
   pure-Python warnings machinery (`_py_warnings`, which `warnings`
   re-exports when `_warnings` does not offer its own filters).  Here a
   warning goes to `warnings.warn` / `warn_explicit` as soon as the
   module can be imported.  Before that (early start-up, no stdlib, or
   during finalization) it is printed the way the default filters would
   show it, "file:line: Category: message", and the categories that the
   default filters ignore are dropped. */

#include "Python.h"
#include "pycore_import.h"
#include "pycore_pystate.h"

/* The stdlib's warnings module, or NULL (no error) when it cannot be
   used now.  The guard stops a warning raised while `warnings` itself is
   being imported from importing it again. */
static PyObject *
python_warnings(void)
{
    static int importing = 0;
    PyInterpreterState *interp = _PyInterpreterState_GET();
    PyObject *mod = _PyImport_GetModuleIfLoaded("warnings");
    if (mod != NULL && interp->finalizing) {
        /* Late in shutdown the module's globals are gone: fall back to
           printing the warning ourselves. */
        PyObject *warn = NULL;
        if (PyObject_GetOptionalAttrString(mod, "warn", &warn) <= 0 || !PyCallable_Check(warn)) {
            PyErr_Clear();
            Py_CLEAR(mod);
        }
        Py_XDECREF(warn);
        return mod;
    }
    if (mod != NULL || importing || interp->finalizing || interp->importlib == NULL) {
        return mod;
    }
    importing = 1;
    mod = PyImport_ImportModule("warnings");
    importing = 0;
    if (mod == NULL) {
        PyErr_Clear();
    }
    return mod;
}

static int
ignored_by_default(PyObject *category)
{
    PyObject *quiet[] = {PyExc_DeprecationWarning, PyExc_PendingDeprecationWarning,
                         PyExc_ImportWarning, PyExc_ResourceWarning};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(quiet); i++) {
        if (PyObject_IsSubclass(category, quiet[i]) > 0) {
            return 1;
        }
    }
    return 0;
}

static int
print_warning(PyObject *category, PyObject *message, PyObject *filename, int lineno)
{
    if (ignored_by_default(category)) {
        return 0;
    }
    PyObject *file = PySys_GetObject("stderr");
    if (file == NULL || Py_IsNone(file)) {
        return 0;
    }
    PyObject *line = PyUnicode_FromFormat("%S:%d: %s: %S\n", filename, lineno,
                                          ((PyTypeObject *)category)->tp_name, message);
    if (line == NULL) {
        return -1;
    }
    int err = PyFile_WriteObject(line, file, Py_PRINT_RAW);
    Py_DECREF(line);
    return err;
}

/* Where a warning at `stack_level` points: the file and line of that
   Python frame, or "<sys>" and 0 outside any (as the warnings module). */
static PyObject *
caller_location(Py_ssize_t stack_level, int *lineno)
{
    PyFrameObject *frame = PyEval_GetFrame();
    Py_XINCREF(frame);
    while (frame != NULL && --stack_level > 0) {
        Py_SETREF(frame, PyFrame_GetBack(frame));
    }
    if (frame == NULL) {
        *lineno = 0;
        return PyUnicode_FromString("<sys>");
    }
    PyCodeObject *code = PyFrame_GetCode(frame);
    *lineno = PyFrame_GetLineNumber(frame);
    PyObject *filename = Py_NewRef(code->co_filename);
    Py_DECREF(code);
    Py_DECREF(frame);
    return filename;
}

static int
check_category(PyObject **category)
{
    if (*category == NULL || *category == Py_None) {
        *category = PyExc_UserWarning;
    }
    if (!PyType_Check(*category) || !PyObject_IsSubclass(*category, PyExc_Warning)) {
        PyErr_Format(PyExc_TypeError, "category must be a Warning subclass, not '%s'",
                     Py_TYPE(*category)->tp_name);
        return -1;
    }
    return 0;
}

/* warnings.warn() semantics with a str or Warning message. */
static int
warn_object(PyObject *category, PyObject *message, Py_ssize_t stack_level, PyObject *source)
{
    if (PyObject_IsInstance(message, PyExc_Warning) > 0) {
        category = (PyObject *)Py_TYPE(message);
    }
    if (check_category(&category) < 0) {
        return -1;
    }
    PyObject *warnings = python_warnings();
    if (warnings != NULL) {
        PyObject *res = PyObject_CallMethod(warnings, "warn", "OOnO", message, category,
                                            stack_level, source ? source : Py_None);
        Py_DECREF(warnings);
        Py_XDECREF(res);
        return res == NULL ? -1 : 0;
    }
    int lineno;
    PyObject *filename = caller_location(stack_level, &lineno);
    if (filename == NULL) {
        return -1;
    }
    int err = print_warning(category, message, filename, lineno);
    Py_DECREF(filename);
    return err;
}

int
PyErr_WarnEx(PyObject *category, const char *message, Py_ssize_t stack_level)
{
    PyObject *msg = PyUnicode_FromString(message);
    if (msg == NULL) {
        return -1;
    }
    int err = warn_object(category ? category : PyExc_RuntimeWarning, msg, stack_level, NULL);
    Py_DECREF(msg);
    return err;
}

static int
warn_formatted(PyObject *category, Py_ssize_t stack_level, PyObject *source, const char *format,
               va_list vargs)
{
    PyObject *message = PyUnicode_FromFormatV(format, vargs);
    if (message == NULL) {
        return -1;
    }
    int err = warn_object(category ? category : PyExc_RuntimeWarning, message, stack_level, source);
    Py_DECREF(message);
    return err;
}

int
PyErr_WarnFormat(PyObject *category, Py_ssize_t stack_level, const char *format, ...)
{
    va_list vargs;
    va_start(vargs, format);
    int err = warn_formatted(category, stack_level, NULL, format, vargs);
    va_end(vargs);
    return err;
}

int
_PyErr_WarnFormatWithSource(PyObject *source, PyObject *category, Py_ssize_t stack_level,
                            const char *format, ...)
{
    va_list vargs;
    va_start(vargs, format);
    int err = warn_formatted(category, stack_level, source, format, vargs);
    va_end(vargs);
    return err;
}

int
PyErr_ResourceWarning(PyObject *source, Py_ssize_t stack_level, const char *format, ...)
{
    va_list vargs;
    va_start(vargs, format);
    int err = warn_formatted(PyExc_ResourceWarning, stack_level, source, format, vargs);
    va_end(vargs);
    return err;
}

int
PyErr_WarnExplicitObject(PyObject *category, PyObject *message, PyObject *filename, int lineno,
                         PyObject *module, PyObject *registry)
{
    if (check_category(&category) < 0) {
        return -1;
    }
    PyObject *warnings = python_warnings();
    if (warnings == NULL) {
        return print_warning(category, message, filename, lineno);
    }
    PyObject *res = PyObject_CallMethod(warnings, "warn_explicit", "OOOiOO", message, category,
                                        filename, lineno, module ? module : Py_None,
                                        registry ? registry : Py_None);
    Py_DECREF(warnings);
    Py_XDECREF(res);
    return res == NULL ? -1 : 0;
}

int
PyErr_WarnExplicit(PyObject *category, const char *message, const char *filename, int lineno,
                   const char *module, PyObject *registry)
{
    PyObject *msg = PyUnicode_FromString(message);
    PyObject *file = PyUnicode_DecodeFSDefault(filename);
    PyObject *mod = module ? PyUnicode_FromString(module) : Py_NewRef(Py_None);
    int err = -1;
    if (msg != NULL && file != NULL && mod != NULL) {
        err = PyErr_WarnExplicitObject(category, msg, file, lineno, mod, registry);
    }
    Py_XDECREF(msg);
    Py_XDECREF(file);
    Py_XDECREF(mod);
    return err;
}

/* ---- The _warnings module ---------------------------------------------------------------- */

static PyObject *
warnings_warn(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"message", "category", "stacklevel", "source",
                                         "skip_file_prefixes", NULL};
    PyObject *message, *category = Py_None, *source = Py_None, *skip = NULL;
    Py_ssize_t stack_level = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OnO$O!:warn", (char **)kwlist, &message,
                                     &category, &stack_level, &source, &PyTuple_Type, &skip)) {
        return NULL;
    }
    if (skip != NULL && PyTuple_GET_SIZE(skip) > 0) {
        /* Frame skipping is the Python machinery's business. */
        PyObject *warnings = python_warnings();
        if (warnings == NULL) {
            PyErr_SetString(PyExc_RuntimeError, "skip_file_prefixes needs the warnings module");
            return NULL;
        }
        PyObject *warn = PyObject_GetAttrString(warnings, "warn");
        Py_DECREF(warnings);
        if (warn == NULL) {
            return NULL;
        }
        PyObject *res = PyObject_Call(warn, args, kwargs);
        Py_DECREF(warn);
        return res;
    }
    if (warn_object(category, message, stack_level, source) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
warnings_warn_explicit(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"message", "category", "filename", "lineno", "module",
                                         "registry", "module_globals", "source", NULL};
    PyObject *message, *category, *filename, *mod = Py_None, *registry = Py_None;
    PyObject *module_globals = Py_None, *source = Py_None;
    int lineno;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOUi|OOOO:warn_explicit", (char **)kwlist,
                                     &message, &category, &filename, &lineno, &mod, &registry,
                                     &module_globals, &source)) {
        return NULL;
    }
    PyObject *warnings = python_warnings();
    if (warnings == NULL) {
        if (check_category(&category) < 0 || print_warning(category, message, filename, lineno) < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    PyObject *func = PyObject_GetAttrString(warnings, "warn_explicit");
    Py_DECREF(warnings);
    if (func == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_Call(func, args, kwargs);
    Py_DECREF(func);
    return res;
}

static PyMethodDef warnings_methods[] = {
    {"warn", _PyCFunction_CAST(warnings_warn), METH_VARARGS | METH_KEYWORDS,
     "Issue a warning, or raise it as an exception if the filters say so."},
    {"warn_explicit", _PyCFunction_CAST(warnings_warn_explicit), METH_VARARGS | METH_KEYWORDS,
     "Issue a warning for an explicit file, line and module."},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef warnings_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_warnings",
    .m_doc = "Issuing warnings from C; the filters are the warnings module's.",
    .m_methods = warnings_methods,
};

PyObject *
PyInit__warnings(void)
{
    return PyModuleDef_Init(&warnings_module);
}
