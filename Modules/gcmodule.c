/* The gc module: control of the cycle collector (Python/gc.c). */

#include "Python.h"
#include "pycore_gc.h"
#include "pycore_object.h"
#include "pycore_pystate.h"

static struct _gc_runtime_state *
state(void)
{
    return &_PyInterpreterState_GET()->gc;
}

static PyObject *
gc_collect(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"generation", NULL};
    PyObject *out[1] = {NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "collect", kwlist, 0, 1, 0, out)) {
        return NULL;
    }
    int generation = 2;
    if (out[0] != NULL) {
        generation = PyLong_AsInt(out[0]);
        if (generation == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (generation < 0 || generation > 2) {
            PyErr_SetString(PyExc_ValueError, "invalid generation");
            return NULL;
        }
    }
    /* Two generations here: 0 is the young one, 1 and 2 mean everything. */
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t n = generation == 0 ? _PyGC_CollectYoung(tstate) : _PyGC_CollectNoFail(tstate);
    return PyLong_FromSsize_t(n);
}

static PyObject *
gc_enable(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    state()->enabled = 1;
    Py_RETURN_NONE;
}

static PyObject *
gc_disable(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    state()->enabled = 0;
    Py_RETURN_NONE;
}

static PyObject *
gc_isenabled(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(state()->enabled);
}

/* Two generations: the young one is reported as 0, the old one as 2. */
static PyObject *
gc_get_count(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return Py_BuildValue("(nii)", state()->count, 0, 0);
}

static PyObject *
gc_get_threshold(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return Py_BuildValue("(nii)", state()->threshold, 10, 0);
}

static PyObject *
gc_set_threshold(PyObject *module, PyObject *args)
{
    Py_ssize_t threshold0;
    int threshold1 = 0, threshold2 = 0;
    if (!PyArg_ParseTuple(args, "n|ii:set_threshold", &threshold0, &threshold1, &threshold2)) {
        return NULL;
    }
    state()->threshold = threshold0 > 0 ? threshold0 : PY_SSIZE_T_MAX;
    Py_RETURN_NONE;
}

static PyObject *
gc_is_tracked(PyObject *module, PyObject *obj)
{
    return PyBool_FromLong(PyObject_GC_IsTracked(obj));
}

static PyObject *
gc_is_finalized(PyObject *module, PyObject *obj)
{
    (void)obj;
    Py_RETURN_FALSE;
}

static PyObject *
gc_get_stats(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    struct _gc_runtime_state *gcstate = state();
    /* The old generation is reported as CPython's oldest (2). */
    return Py_BuildValue("[{snsnsi}{sisisi}{snsisi}]",
                         "collections", gcstate->collections, "collected", gcstate->collected,
                         "uncollectable", 0, "collections", 0, "collected", 0, "uncollectable", 0,
                         "collections", gcstate->full_collections, "collected", 0,
                         "uncollectable", 0);
}

static PyMethodDef gc_methods[] = {
    {"collect", _PyCFunction_CAST(gc_collect), METH_FASTCALL | METH_KEYWORDS,
     "Run the cycle collector; return the number of unreachable objects found."},
    {"enable", gc_enable, METH_NOARGS, "Enable automatic garbage collection."},
    {"disable", gc_disable, METH_NOARGS, "Disable automatic garbage collection."},
    {"isenabled", gc_isenabled, METH_NOARGS, "Whether automatic collection is enabled."},
    {"get_count", gc_get_count, METH_NOARGS, "Allocations since the last collection."},
    {"get_threshold", gc_get_threshold, METH_NOARGS, "The collection thresholds."},
    {"set_threshold", gc_set_threshold, METH_VARARGS, "Set the collection threshold."},
    {"is_tracked", gc_is_tracked, METH_O, "Whether the collector tracks the object."},
    {"is_finalized", gc_is_finalized, METH_O, "Whether the collector finalized the object."},
    {"get_stats", gc_get_stats, METH_NOARGS, "Per-generation collection statistics."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef gcmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "gc",
    .m_doc = "Control of the cycle collector.",
    .m_size = -1,
    .m_methods = gc_methods,
};

PyObject *
PyInit_gc(void)
{
    PyObject *m = PyModule_Create(&gcmodule);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_Add(m, "garbage", PyList_New(0)) < 0 || PyModule_Add(m, "callbacks", PyList_New(0)) < 0 ||
        PyModule_AddIntConstant(m, "DEBUG_STATS", 1) < 0 || PyModule_AddIntConstant(m, "DEBUG_LEAK", 38) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
