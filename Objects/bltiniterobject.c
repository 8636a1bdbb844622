/* The lazy iterators of the builtins module: map, filter and zip. */

#include "Python.h"
#include "pycore_abstract.h"
#include "pycore_object.h"

/* ---- map(func, *iterables) ---------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *iters; /* tuple of iterators */
    PyObject *func;
    int strict;
} mapobject;

/* Tuple of iterators over args[first:], or NULL. */
static PyObject *
iterators_of(PyObject *args, Py_ssize_t first)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args) - first;
    PyObject *iters = PyTuple_New(n);
    if (iters == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PyObject_GetIter(PyTuple_GET_ITEM(args, i + first));
        if (it == NULL) {
            Py_DECREF(iters);
            return NULL;
        }
        PyTuple_SET_ITEM(iters, i, it);
    }
    return iters;
}

static int
parse_strict(PyObject *kwds, const char *name, int *strict)
{
    *strict = 0;
    if (kwds == NULL || PyDict_GET_SIZE(kwds) == 0) {
        return 0;
    }
    PyObject *v = PyDict_GetItemString(kwds, "strict");
    if (v == NULL || PyDict_GET_SIZE(kwds) != 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes no keyword arguments other than 'strict'", name);
        return -1;
    }
    *strict = PyObject_IsTrue(v);
    return *strict < 0 ? -1 : 0;
}

static PyObject *
map_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    int strict;
    if (parse_strict(kwds, "map", &strict) < 0) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(args) < 2) {
        PyErr_SetString(PyExc_TypeError, "map() must have at least two arguments.");
        return NULL;
    }
    PyObject *iters = iterators_of(args, 1);
    if (iters == NULL) {
        return NULL;
    }
    mapobject *lz = (mapobject *)type->tp_alloc(type, 0);
    if (lz == NULL) {
        Py_DECREF(iters);
        return NULL;
    }
    lz->iters = iters;
    lz->func = Py_NewRef(PyTuple_GET_ITEM(args, 0));
    lz->strict = strict;
    return (PyObject *)lz;
}

static void
map_dealloc(PyObject *self)
{
    mapobject *lz = (mapobject *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(lz->iters);
    Py_XDECREF(lz->func);
    Py_TYPE(self)->tp_free(self);
}

static int
map_traverse(PyObject *self, visitproc visit, void *arg)
{
    mapobject *lz = (mapobject *)self;
    Py_VISIT(lz->iters);
    Py_VISIT(lz->func);
    return 0;
}

/* Next item of each iterator into out[]; 1 ok, 0 one is exhausted, -1
   error.  With strict, unequal lengths are a ValueError. */
static int
next_of_each(PyObject *iters, PyObject **out, int strict, const char *name)
{
    Py_ssize_t n = PyTuple_GET_SIZE(iters);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PyTuple_GET_ITEM(iters, i);
        PyObject *item = _PyIter_NextGuarded(it);
        if (item == NULL) {
            for (Py_ssize_t j = 0; j < i; j++) {
                Py_DECREF(out[j]);
            }
            if (PyErr_Occurred()) {
                if (!PyErr_ExceptionMatches(PyExc_StopIteration)) {
                    return -1;
                }
                PyErr_Clear();
            }
            if (strict && n > 1) {
                if (i > 0) {
                    PyErr_Format(PyExc_ValueError, "%s() argument %zd is shorter than argument%s%zd",
                                 name, i + 1, i == 1 ? " " : "s 1-", i);
                    return -1;
                }
                for (Py_ssize_t k = 1; k < n; k++) {
                    PyObject *other = PyTuple_GET_ITEM(iters, k);
                    PyObject *extra = _PyIter_NextGuarded(other);
                    if (extra != NULL) {
                        Py_DECREF(extra);
                        PyErr_Format(PyExc_ValueError, "%s() argument %zd is longer than argument%s%zd",
                                     name, k + 1, k == 1 ? " " : "s 1-", k);
                        return -1;
                    }
                    if (PyErr_Occurred()) {
                        if (!PyErr_ExceptionMatches(PyExc_StopIteration)) {
                            return -1;
                        }
                        PyErr_Clear();
                    }
                }
            }
            return 0;
        }
        out[i] = item;
    }
    return 1;
}

static PyObject *
map_next(PyObject *self)
{
    mapobject *lz = (mapobject *)self;
    Py_ssize_t n = PyTuple_GET_SIZE(lz->iters);
    PyObject *small[8];
    PyObject **items = n <= 8 ? small : PyMem_Malloc((size_t)n * sizeof(PyObject *));
    if (items == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    if (next_of_each(lz->iters, items, lz->strict, "map") > 0) {
        result = PyObject_Vectorcall(lz->func, items, (size_t)n, NULL);
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_DECREF(items[i]);
        }
    }
    if (items != small) {
        PyMem_Free(items);
    }
    return result;
}

PyTypeObject PyMap_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "map",
    .tp_basicsize = sizeof(mapobject),
    .tp_dealloc = map_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "map(function, iterable, /, *iterables, strict=False)\n--\n\n"
              "Make an iterator that computes the function using arguments from each of the iterables.",
    .tp_traverse = map_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = map_next,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = map_new,
    .tp_free = PyObject_GC_Del,
};

/* ---- filter(function or None, iterable) ------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    PyObject *func;
    PyObject *it;
} filterobject;

static PyObject *
filter_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "filter() takes no keyword arguments");
        return NULL;
    }
    PyObject *func, *seq;
    if (!PyArg_UnpackTuple(args, "filter", 2, 2, &func, &seq)) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(seq);
    if (it == NULL) {
        return NULL;
    }
    filterobject *lz = (filterobject *)type->tp_alloc(type, 0);
    if (lz == NULL) {
        Py_DECREF(it);
        return NULL;
    }
    lz->func = Py_NewRef(func);
    lz->it = it;
    return (PyObject *)lz;
}

static void
filter_dealloc(PyObject *self)
{
    filterobject *lz = (filterobject *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(lz->func);
    Py_XDECREF(lz->it);
    Py_TYPE(self)->tp_free(self);
}

static int
filter_traverse(PyObject *self, visitproc visit, void *arg)
{
    filterobject *lz = (filterobject *)self;
    Py_VISIT(lz->it);
    Py_VISIT(lz->func);
    return 0;
}

/* 1 if the filter lets `item` through, 0 if not, -1 on error.  None and
   bool as the function both mean the item's own truth. */
static int
filter_keeps(filterobject *lz, PyObject *item)
{
    if (lz->func == Py_None || lz->func == (PyObject *)&PyBool_Type) {
        return PyObject_IsTrue(item);
    }
    PyObject *verdict = PyObject_CallOneArg(lz->func, item);
    if (verdict == NULL) {
        return -1;
    }
    int keep = PyObject_IsTrue(verdict);
    Py_DECREF(verdict);
    return keep;
}

static PyObject *
filter_next(PyObject *self)
{
    filterobject *lz = (filterobject *)self;
    PyObject *item;
    while ((item = _PyIter_NextGuarded(lz->it)) != NULL) {
        int keep = filter_keeps(lz, item);
        if (keep > 0) {
            return item;
        }
        Py_DECREF(item);
        if (keep < 0) {
            return NULL;
        }
    }
    return NULL;
}

PyTypeObject PyFilter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "filter",
    .tp_basicsize = sizeof(filterobject),
    .tp_dealloc = filter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "filter(function, iterable, /)\n--\n\n"
              "Return an iterator yielding those items of iterable for which function(item) is true.",
    .tp_traverse = filter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = filter_next,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = filter_new,
    .tp_free = PyObject_GC_Del,
};

/* ---- zip(*iterables, strict=False) ------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *iters;
    int strict;
} zipobject;

static PyObject *
zip_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    int strict;
    if (parse_strict(kwds, "zip", &strict) < 0) {
        return NULL;
    }
    PyObject *iters = iterators_of(args, 0);
    if (iters == NULL) {
        return NULL;
    }
    zipobject *lz = (zipobject *)type->tp_alloc(type, 0);
    if (lz == NULL) {
        Py_DECREF(iters);
        return NULL;
    }
    lz->iters = iters;
    lz->strict = strict;
    return (PyObject *)lz;
}

static void
zip_dealloc(PyObject *self)
{
    zipobject *lz = (zipobject *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(lz->iters);
    Py_TYPE(self)->tp_free(self);
}

static int
zip_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((zipobject *)self)->iters);
    return 0;
}

static PyObject *
zip_next(PyObject *self)
{
    zipobject *lz = (zipobject *)self;
    Py_ssize_t n = PyTuple_GET_SIZE(lz->iters);
    if (n == 0) {
        return NULL;
    }
    PyObject *result = PyTuple_New(n);
    if (result == NULL) {
        return NULL;
    }
    if (next_of_each(lz->iters, &PyTuple_GET_ITEM(result, 0), lz->strict, "zip") <= 0) {
        /* Items were released by next_of_each; don't decref them twice. */
        for (Py_ssize_t i = 0; i < n; i++) {
            PyTuple_SET_ITEM(result, i, NULL);
        }
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

PyTypeObject PyZip_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "zip",
    .tp_basicsize = sizeof(zipobject),
    .tp_dealloc = zip_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "zip(*iterables, strict=False)\n--\n\n"
              "The zip object yields n-length tuples, where n is the number of iterables passed.",
    .tp_traverse = zip_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = zip_next,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = zip_new,
    .tp_free = PyObject_GC_Del,
};
