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
    return PyBool_FromLong(_PyObject_IS_GC(obj) && _PyGC_IsFinalized(obj));
}

/* ---- Looking at the tracked objects ------------------------------------------ */

static int
append_object(PyObject *op, void *list)
{
    if (op == list) {
        return 0; /* the list being filled is not part of the answer */
    }
    return PyList_Append((PyObject *)list, op);
}

static PyObject *
gc_get_objects(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"generation", NULL};
    PyObject *gen_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:get_objects", kwlist, &gen_obj)) {
        return NULL;
    }
    int generation = -1;
    if (gen_obj != Py_None) {
        generation = PyLong_AsInt(gen_obj);
        if (generation == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (generation >= 3) {
            return PyErr_Format(PyExc_ValueError, "generation parameter must be less than the "
                                                  "number of available generations (%i)", 3);
        }
        /* A negative generation means all of them, as in CPython. */
    }
    PyObject *result = PyList_New(0);
    if (result == NULL) {
        return NULL;
    }
    /* Our middle generation is always empty. */
    if (generation != 1 && _PyGC_VisitObjects(generation, append_object, result) < 0) {
        Py_CLEAR(result);
    }
    return result;
}

typedef struct {
    PyObject *targets; /* tuple of the objects asked about */
    PyObject *result;
    int found;
} referrer_search;

static int
visit_is_target(PyObject *op, void *arg)
{
    referrer_search *search = arg;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(search->targets); i++) {
        if (PyTuple_GET_ITEM(search->targets, i) == op) {
            search->found = 1;
        }
    }
    return 0;
}

static int
collect_if_referrer(PyObject *op, void *arg)
{
    referrer_search *search = arg;
    traverseproc traverse = Py_TYPE(op)->tp_traverse;
    if (op == search->result || op == search->targets || traverse == NULL) {
        return 0;
    }
    search->found = 0;
    traverse(op, visit_is_target, search);
    return search->found ? PyList_Append(search->result, op) : 0;
}

static PyObject *
gc_get_referrers(PyObject *module, PyObject *args)
{
    if (PySys_Audit("gc.get_referrers", "(O)", args) < 0) {
        return NULL;
    }
    referrer_search search = {args, PyList_New(0), 0};
    if (search.result == NULL) {
        return NULL;
    }
    if (_PyGC_VisitObjects(-1, collect_if_referrer, &search) < 0) {
        Py_CLEAR(search.result);
    }
    return search.result;
}

static int
append_referent(PyObject *op, void *list)
{
    return PyList_Append((PyObject *)list, op);
}

/* What one object's tp_traverse reports, added to `into`.  Objects the
   collector does not know hold no references it could report. */
static int
add_referents_of(PyObject *obj, PyObject *into)
{
    if (!_PyObject_IS_GC(obj) || Py_TYPE(obj)->tp_traverse == NULL) {
        return 0;
    }
    return Py_TYPE(obj)->tp_traverse(obj, append_referent, into);
}

static PyObject *
gc_get_referents(PyObject *module, PyObject *objs)
{
    if (PySys_Audit("gc.get_referents", "(O)", objs) < 0) {
        return NULL;
    }
    PyObject *found = PyList_New(0);
    Py_ssize_t n = found ? PyTuple_GET_SIZE(objs) : 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (add_referents_of(PyTuple_GET_ITEM(objs, k), found) < 0) {
            Py_CLEAR(found);
            break;
        }
    }
    return found;
}

/* ---- Debugging and freezing ---------------------------------------------------- */

static PyObject *
gc_set_debug(PyObject *module, PyObject *arg)
{
    int flags = PyLong_AsInt(arg);
    if (flags == -1 && PyErr_Occurred()) {
        return NULL;
    }
    state()->debug = flags;
    Py_RETURN_NONE;
}

static PyObject *
gc_get_debug(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(state()->debug);
}

static PyObject *
gc_freeze(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    _PyGC_Freeze();
    Py_RETURN_NONE;
}

static PyObject *
gc_unfreeze(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    _PyGC_Unfreeze();
    Py_RETURN_NONE;
}

static PyObject *
gc_get_freeze_count(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSsize_t(_PyGC_FreezeCount());
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
    {"get_objects", _PyCFunction_CAST(gc_get_objects), METH_VARARGS | METH_KEYWORDS,
     "The objects the collector tracks (all, or one generation's)."},
    {"get_referrers", gc_get_referrers, METH_VARARGS,
     "The tracked objects that refer to any of the arguments."},
    {"get_referents", gc_get_referents, METH_VARARGS,
     "The objects the arguments refer to (as their tp_traverse reports them)."},
    {"set_debug", gc_set_debug, METH_O, "Set the DEBUG_* flags."},
    {"get_debug", gc_get_debug, METH_NOARGS, "The DEBUG_* flags in effect."},
    {"freeze", gc_freeze, METH_NOARGS,
     "Move every tracked object to a permanent generation that is never collected."},
    {"unfreeze", gc_unfreeze, METH_NOARGS, "Give the frozen objects back to the collector."},
    {"get_freeze_count", gc_get_freeze_count, METH_NOARGS, "How many objects are frozen."},
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
    PyObject *garbage = _PyGC_GarbageList(), *callbacks = _PyGC_CallbackList();
    if (garbage == NULL || callbacks == NULL || PyModule_AddObjectRef(m, "garbage", garbage) < 0 ||
        PyModule_AddObjectRef(m, "callbacks", callbacks) < 0 ||
        PyModule_AddIntConstant(m, "DEBUG_STATS", _PyGC_DEBUG_STATS) < 0 ||
        PyModule_AddIntConstant(m, "DEBUG_COLLECTABLE", _PyGC_DEBUG_COLLECTABLE) < 0 ||
        PyModule_AddIntConstant(m, "DEBUG_UNCOLLECTABLE", _PyGC_DEBUG_UNCOLLECTABLE) < 0 ||
        PyModule_AddIntConstant(m, "DEBUG_SAVEALL", _PyGC_DEBUG_SAVEALL) < 0 ||
        PyModule_AddIntConstant(m, "DEBUG_LEAK", _PyGC_DEBUG_COLLECTABLE |
                                                     _PyGC_DEBUG_UNCOLLECTABLE |
                                                     _PyGC_DEBUG_SAVEALL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
