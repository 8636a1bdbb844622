/* The atexit module: callables run when the interpreter finalizes, the
   last registered first.  Each entry is a (func, args, kwargs) tuple in
   one list; Py_FinalizeEx calls _PyAtExit_Call after the non-daemon
   threads have been joined. */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_pystate.h"
#include "pycore_traceback.h"

static PyObject *callbacks = NULL; /* list of (func, args, kwargs or None) */

static int
ensure_list(void)
{
    if (callbacks == NULL) {
        callbacks = PyList_New(0);
    }
    return callbacks == NULL ? -1 : 0;
}

/* Print the pending exception the way CPython reports a failed exit
   callback, naming the callable. */
static void
report_failure(PyObject *func)
{
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *file = PySys_GetObject("stderr");
    if (file == NULL || Py_IsNone(file)) {
        Py_XDECREF(exc);
        return;
    }
    Py_INCREF(file);
    PyObject *line = PyUnicode_FromFormat("Exception ignored in atexit callback %R:\n", func);
    if (line == NULL) {
        PyErr_Clear();
        PyFile_WriteString("Exception ignored in atexit callback <repr failed>:\n", file);
    }
    else {
        PyFile_WriteObject(line, file, Py_PRINT_RAW);
        Py_DECREF(line);
    }
    PyObject *tb = PyException_GetTraceback(exc);
    _PyErr_Display(file, (PyObject *)Py_TYPE(exc), exc, tb);
    Py_XDECREF(tb);
    Py_DECREF(file);
    Py_DECREF(exc);
    PyErr_Clear();
}

static void
call_entry(PyObject *entry)
{
    PyObject *func = PyTuple_GET_ITEM(entry, 0);
    PyObject *args = PyTuple_GET_ITEM(entry, 1);
    PyObject *kwargs = PyTuple_GET_ITEM(entry, 2);
    PyObject *res = PyObject_Call(func, args, Py_IsNone(kwargs) ? NULL : kwargs);
    if (res == NULL) {
        report_failure(func);
    }
    Py_XDECREF(res);
}

/* Run every callback, newest first, then forget them all. */
static void
run_all(void)
{
    if (callbacks == NULL) {
        return;
    }
    PyObject *snapshot = PyList_GetSlice(callbacks, 0, PyList_GET_SIZE(callbacks));
    if (snapshot == NULL) {
        PyErr_Clear();
        return;
    }
    for (Py_ssize_t i = PyList_GET_SIZE(snapshot) - 1; i >= 0; i--) {
        call_entry(PyList_GET_ITEM(snapshot, i));
    }
    Py_DECREF(snapshot);
    PyList_SetSlice(callbacks, 0, PyList_GET_SIZE(callbacks), NULL);
}

void
_PyAtExit_Call(void)
{
    PyObject *exc = PyErr_GetRaisedException();
    run_all();
    Py_CLEAR(callbacks);
    PyErr_SetRaisedException(exc);
}

static PyObject *
atexit_register(PyObject *module, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) == 0) {
        PyErr_SetString(PyExc_TypeError, "register() takes at least 1 argument (0 given)");
        return NULL;
    }
    PyObject *func = PyTuple_GET_ITEM(args, 0);
    if (!PyCallable_Check(func)) {
        PyErr_SetString(PyExc_TypeError, "the first argument must be callable");
        return NULL;
    }
    if (ensure_list() < 0) {
        return NULL;
    }
    PyObject *rest = PyTuple_GetSlice(args, 1, PyTuple_GET_SIZE(args));
    if (rest == NULL) {
        return NULL;
    }
    PyObject *kw = kwargs != NULL && PyDict_GET_SIZE(kwargs) > 0 ? PyDict_Copy(kwargs) : Py_NewRef(Py_None);
    PyObject *entry = kw == NULL ? NULL : PyTuple_Pack(3, func, rest, kw);
    Py_DECREF(rest);
    Py_XDECREF(kw);
    if (entry == NULL || PyList_Append(callbacks, entry) < 0) {
        Py_XDECREF(entry);
        return NULL;
    }
    Py_DECREF(entry);
    return Py_NewRef(func);
}

static PyObject *
atexit_unregister(PyObject *module, PyObject *func)
{
    if (callbacks == NULL) {
        Py_RETURN_NONE;
    }
    /* Backwards, so deleting does not shift what is still to be seen. */
    for (Py_ssize_t i = PyList_GET_SIZE(callbacks) - 1; i >= 0; i--) {
        if (i >= PyList_GET_SIZE(callbacks)) {
            continue;
        }
        PyObject *entry = Py_NewRef(PyList_GET_ITEM(callbacks, i));
        int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(entry, 0), func, Py_EQ);
        Py_DECREF(entry);
        if (same < 0) {
            return NULL;
        }
        if (same && i < PyList_GET_SIZE(callbacks) && PyList_SetSlice(callbacks, i, i + 1, NULL) < 0) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static PyObject *
atexit_run_exitfuncs(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    run_all();
    Py_RETURN_NONE;
}

static PyObject *
atexit_clear(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    if (callbacks != NULL && PyList_SetSlice(callbacks, 0, PyList_GET_SIZE(callbacks), NULL) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
atexit_ncallbacks(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSsize_t(callbacks == NULL ? 0 : PyList_GET_SIZE(callbacks));
}

static PyMethodDef atexit_methods[] = {
    {"register", _PyCFunction_CAST(atexit_register), METH_VARARGS | METH_KEYWORDS,
     "Run func(*args, **kwargs) at exit; return func."},
    {"unregister", atexit_unregister, METH_O, "Forget every registration of func."},
    {"_run_exitfuncs", atexit_run_exitfuncs, METH_NOARGS, "Run the exit callbacks now and forget them."},
    {"_clear", atexit_clear, METH_NOARGS, "Forget every exit callback."},
    {"_ncallbacks", atexit_ncallbacks, METH_NOARGS, "How many exit callbacks are registered."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef atexitmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "atexit",
    .m_doc = "Register functions to be called at interpreter exit.",
    .m_size = -1,
    .m_methods = atexit_methods,
};

PyObject *
PyInit_atexit(void)
{
    return PyModule_Create(&atexitmodule);
}
