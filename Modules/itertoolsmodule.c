/* The itertools module: lazy iterator building blocks.

   Most of the simple iterators (count, cycle, repeat, accumulate, batched,
   chain, compress, dropwhile, takewhile, filterfalse, starmap, islice,
   pairwise, zip_longest, groupby and its _grouper) share one object layout,
   `lazyit`, whose generic slots each type gives its own meaning; that keeps
   a single dealloc/traverse pair for all of them.  tee and the four
   combinatoric iterators have layouts of their own. */

#include "Python.h"
#include "pycore_object.h"
#include <stdint.h>

/* cls[item] gives a types.GenericAlias, once the runtime has one. */
#ifdef Py_GENERICALIASOBJECT_H
#define CLASS_GETITEM_ENTRY \
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "Subscripting gives a GenericAlias."},
#else
#define CLASS_GETITEM_ENTRY
#endif

/* ---- The shared layout ----------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *src; /* the underlying iterator; NULL once it is finished */
    PyObject *fn;  /* the user's function, when the type takes one */
    PyObject *a;   /* per-type state, see each type */
    PyObject *b;
    PyObject *c;
    Py_ssize_t i; /* per-type counters */
    Py_ssize_t j;
    Py_ssize_t k;
    Py_ssize_t m;
    int flag;
    PyObject *token; /* groupby: its current grouper; borrowed, compared by address only */
} lazyit;

#define LZ(op) ((lazyit *)(op))

static void
lazyit_dealloc(PyObject *self)
{
    lazyit *lz = LZ(self);
    PyObject_GC_UnTrack(self);
    Py_XDECREF(lz->src);
    Py_XDECREF(lz->fn);
    Py_XDECREF(lz->a);
    Py_XDECREF(lz->b);
    Py_XDECREF(lz->c);
    Py_TYPE(self)->tp_free(self);
}

static int
lazyit_traverse(PyObject *self, visitproc visit, void *arg)
{
    lazyit *lz = LZ(self);
    Py_VISIT(lz->src);
    Py_VISIT(lz->fn);
    Py_VISIT(lz->a);
    Py_VISIT(lz->b);
    Py_VISIT(lz->c);
    return 0;
}

static lazyit *
lazyit_alloc(PyTypeObject *type)
{
    return (lazyit *)type->tp_alloc(type, 0);
}

/* A new object of the shared layout reading from iter(iterable). */
static lazyit *
lazyit_over(PyTypeObject *type, PyObject *iterable)
{
    PyObject *source = PyObject_GetIter(iterable);
    if (source == NULL) {
        return NULL;
    }
    lazyit *lz = lazyit_alloc(type);
    if (lz != NULL) {
        lz->src = source;
    }
    else {
        Py_DECREF(source);
    }
    return lz;
}

/* Fetch the next item from lz->src; drop the source at its end so the
   iterator it came from is released early.  1 item, 0 end, -1 error. */
static int
pull(lazyit *lz, PyObject **item)
{
    if (lz->src == NULL) {
        *item = NULL;
        return 0;
    }
    int r = PyIter_NextItem(lz->src, item);
    if (r == 0) {
        Py_CLEAR(lz->src);
    }
    return r;
}

static int
no_kwargs(const char *name, PyObject *kwds)
{
    if (kwds != NULL && PyDict_GET_SIZE(kwds) > 0) {
        PyErr_Format(PyExc_TypeError, "%s() takes no keyword arguments", name);
        return 0;
    }
    return 1;
}

/* Calls a type's tp_new of the shared layout with an iterator over `iterable`
   and a function.  Used by the "function, iterable" types. */
static PyObject *
new_fn_iter(PyTypeObject *type, PyObject *args, PyObject *kwds, const char *name)
{
    PyObject *func, *iterable;
    if ((type->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0 && !no_kwargs(name, kwds)) {
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, name, 2, 2, &func, &iterable)) {
        return NULL;
    }
    lazyit *lz = lazyit_over(type, iterable);
    if (lz == NULL) {
        return NULL;
    }
    lz->fn = Py_NewRef(func);
    return (PyObject *)lz;
}

#define LAZY_TYPE_COMMON                                                                 \
    .tp_basicsize = sizeof(lazyit), .tp_dealloc = lazyit_dealloc,                        \
    .tp_getattro = PyObject_GenericGetAttr, .tp_traverse = lazyit_traverse,              \
    .tp_iter = PyObject_SelfIter,                        \
    .tp_alloc = PyType_GenericAlloc, .tp_free = PyObject_GC_Del

/* ---- count(start=0, step=1) -------------------------------------------------------
   Fast mode (flag 1): the value is the machine integer `i`, stepping by `j`,
   while it fits; `a` then only remembers nothing.  Slow mode (flag 0): `a` is
   the next value as an object.  `b` is the step object in both modes. */

static int
is_number_like(PyObject *o)
{
    return PyNumber_Check(o) || PyIndex_Check(o);
}

static PyObject *
count_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"start", "step", NULL};
    PyObject *start = NULL, *step = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:count", kwlist, &start, &step)) {
        return NULL;
    }
    if ((start != NULL && !is_number_like(start)) || (step != NULL && !is_number_like(step))) {
        PyErr_SetString(PyExc_TypeError, "a number is required");
        return NULL;
    }
    lazyit *lz = lazyit_alloc(type);
    if (lz == NULL) {
        return NULL;
    }
    lz->a = start != NULL ? Py_NewRef(start) : PyLong_FromLong(0);
    lz->b = step != NULL ? Py_NewRef(step) : PyLong_FromLong(1);
    if (lz->a == NULL || lz->b == NULL) {
        Py_DECREF(lz);
        return NULL;
    }
    if (PyLong_CheckExact(lz->a) && PyLong_CheckExact(lz->b)) {
        int overflow_a, overflow_b;
        long long s = PyLong_AsLongLongAndOverflow(lz->a, &overflow_a);
        long long d = PyLong_AsLongLongAndOverflow(lz->b, &overflow_b);
        if (!overflow_a && !overflow_b && s > PY_SSIZE_T_MIN && s < PY_SSIZE_T_MAX &&
            d > -(1 << 30) && d < (1 << 30)) {
            lz->i = (Py_ssize_t)s;
            lz->j = (Py_ssize_t)d;
            lz->flag = 1;
            Py_CLEAR(lz->a);
        }
    }
    return (PyObject *)lz;
}

/* Leave fast mode: materialize the current value as an object. */
static int
count_go_slow(lazyit *lz)
{
    lz->a = PyLong_FromSsize_t(lz->i);
    if (lz->a == NULL) {
        return -1;
    }
    lz->flag = 0;
    return 0;
}

static PyObject *
count_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    if (lz->flag) {
        Py_ssize_t v = lz->i;
        if ((lz->j > 0 && v <= PY_SSIZE_T_MAX - lz->j) || (lz->j <= 0 && v >= PY_SSIZE_T_MIN - lz->j)) {
            lz->i = v + lz->j;
            return PyLong_FromSsize_t(v);
        }
        if (count_go_slow(lz) < 0) {
            return NULL;
        }
    }
    PyObject *next = PyNumber_Add(lz->a, lz->b);
    if (next == NULL) {
        return NULL;
    }
    PyObject *cur = lz->a;
    lz->a = next;
    return cur;
}

static int
step_is_one(PyObject *step)
{
    if (!PyLong_CheckExact(step)) {
        return 0;
    }
    int overflow;
    return PyLong_AsLongAndOverflow(step, &overflow) == 1 && !overflow;
}

static PyObject *
count_repr(PyObject *self)
{
    lazyit *lz = LZ(self);
    const char *name = _PyType_Name(Py_TYPE(self));
    PyObject *cur = lz->flag ? PyLong_FromSsize_t(lz->i) : Py_NewRef(lz->a);
    if (cur == NULL) {
        return NULL;
    }
    PyObject *r;
    if (step_is_one(lz->b)) {
        r = PyUnicode_FromFormat("%s(%R)", name, cur);
    }
    else {
        r = PyUnicode_FromFormat("%s(%R, %R)", name, cur, lz->b);
    }
    Py_DECREF(cur);
    return r;
}

static PyTypeObject count_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.count",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "count(start=0, step=1)\n--\n\n"
              "Yield start, start+step, start+2*step, ... without end.",
    .tp_iternext = count_next,
    .tp_repr = count_repr,
    .tp_new = count_new,
};

/* ---- cycle(iterable) ----------------------------------------------------------------
   a: list of the items seen on the first pass; flag: 1 once replaying it;
   i: replay position. */

static PyObject *
cycle_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *iterable;
    if (!no_kwargs("cycle", kwds) || !PyArg_UnpackTuple(args, "cycle", 1, 1, &iterable)) {
        return NULL;
    }
    lazyit *lz = lazyit_over(type, iterable);
    if (lz == NULL) {
        return NULL;
    }
    lz->a = PyList_New(0);
    if (lz->a == NULL) {
        Py_DECREF(lz);
        return NULL;
    }
    return (PyObject *)lz;
}

static PyObject *
cycle_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    if (!lz->flag) {
        PyObject *item;
        int r = pull(lz, &item);
        if (r < 0) {
            return NULL;
        }
        if (r > 0) {
            if (PyList_Append(lz->a, item) < 0) {
                Py_DECREF(item);
                return NULL;
            }
            return item;
        }
        lz->flag = 1;
        lz->i = 0;
    }
    Py_ssize_t n = PyList_GET_SIZE(lz->a);
    if (n == 0) {
        return NULL;
    }
    if (lz->i >= n) {
        lz->i = 0;
    }
    return Py_NewRef(PyList_GET_ITEM(lz->a, lz->i++));
}

static PyTypeObject cycle_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.cycle",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "cycle(iterable, /)\n--\n\n"
              "Yield the iterable's items, then replay them over and over.",
    .tp_iternext = cycle_next,
    .tp_new = cycle_new,
};

/* ---- repeat(object, times=None) -------------------------------------------------------
   a: the object; i: how many are left, or -1 for no end. */

static PyObject *
repeat_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"object", "times", NULL};
    PyObject *obj;
    Py_ssize_t times = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|n:repeat", kwlist, &obj, &times)) {
        return NULL;
    }
    /* times=None is not accepted: only an omitted count means "forever". */
    if (PyTuple_GET_SIZE(args) + (kwds ? PyDict_GET_SIZE(kwds) : 0) >= 2 && times < 0) {
        times = 0;
    }
    lazyit *lz = lazyit_alloc(type);
    if (lz == NULL) {
        return NULL;
    }
    lz->a = Py_NewRef(obj);
    lz->i = times;
    return (PyObject *)lz;
}

static PyObject *
repeat_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    if (lz->i == 0) {
        return NULL;
    }
    if (lz->i > 0) {
        lz->i--;
    }
    return Py_NewRef(lz->a);
}

static PyObject *
repeat_repr(PyObject *self)
{
    lazyit *lz = LZ(self);
    const char *name = _PyType_Name(Py_TYPE(self));
    if (lz->i < 0) {
        return PyUnicode_FromFormat("%s(%R)", name, lz->a);
    }
    return PyUnicode_FromFormat("%s(%R, %zd)", name, lz->a, lz->i);
}

static PyObject *
repeat_length_hint(PyObject *self, PyObject *unused)
{
    if (LZ(self)->i < 0) {
        PyErr_SetString(PyExc_TypeError, "len() of unsized object");
        return NULL;
    }
    return PyLong_FromSsize_t(LZ(self)->i);
}

static PyMethodDef repeat_methods[] = {
    {"__length_hint__", repeat_length_hint, METH_NOARGS, "How many items remain."},
    {NULL, NULL},
};

static PyTypeObject repeat_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.repeat",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "repeat(object[, times])\n--\n\n"
              "Yield object again and again: times times, or forever when times is omitted.",
    .tp_iternext = repeat_next,
    .tp_repr = repeat_repr,
    .tp_methods = repeat_methods,
    .tp_new = repeat_new,
};

/* ---- accumulate(iterable, func=None, *, initial=None) -----------------------------------
   a: running total (NULL before the first item); b: initial, until yielded. */

static PyObject *
accumulate_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"iterable", "func", "initial", NULL};
    PyObject *iterable, *func = Py_None, *initial = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O$O:accumulate", kwlist, &iterable, &func,
                                     &initial)) {
        return NULL;
    }
    lazyit *lz = lazyit_over(type, iterable);
    if (lz == NULL) {
        return NULL;
    }
    lz->fn = func == Py_None ? NULL : Py_NewRef(func);
    lz->b = initial == Py_None ? NULL : Py_NewRef(initial);
    return (PyObject *)lz;
}

static PyObject *
accumulate_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    if (lz->b != NULL) {
        lz->a = lz->b;
        lz->b = NULL;
        return Py_NewRef(lz->a);
    }
    PyObject *item;
    if (pull(lz, &item) <= 0) {
        return NULL;
    }
    if (lz->a == NULL) {
        lz->a = Py_NewRef(item);
        return item;
    }
    PyObject *prev = Py_NewRef(lz->a); /* held across user code */
    PyObject *total = lz->fn ? PyObject_CallFunctionObjArgs(lz->fn, prev, item, NULL)
                             : PyNumber_Add(prev, item);
    Py_DECREF(prev);
    Py_DECREF(item);
    if (total == NULL) {
        return NULL;
    }
    Py_SETREF(lz->a, Py_NewRef(total));
    return total;
}

static PyTypeObject accumulate_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.accumulate",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "accumulate(iterable, func=None, *, initial=None)\n--\n\n"
              "Yield running totals (or running results of func) over the iterable.",
    .tp_iternext = accumulate_next,
    .tp_new = accumulate_new,
};

/* ---- batched(iterable, n, *, strict=False) ----------------------------------------------
   i: batch size; flag: strict. */

static PyObject *
batched_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"iterable", "n", "strict", NULL};
    PyObject *iterable;
    Py_ssize_t n;
    int strict = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "On|$p:batched", kwlist, &iterable, &n, &strict)) {
        return NULL;
    }
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "n must be at least one");
        return NULL;
    }
    lazyit *lz = lazyit_over(type, iterable);
    if (lz == NULL) {
        return NULL;
    }
    lz->i = n;
    lz->flag = strict;
    return (PyObject *)lz;
}

static PyObject *
batched_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    if (lz->src == NULL) {
        return NULL;
    }
    /* Grow the batch as items arrive, so a huge n costs nothing up front. */
    Py_ssize_t cap = lz->i < 16 ? lz->i : 16;
    PyObject *batch = PyTuple_New(cap);
    if (batch == NULL) {
        return NULL;
    }
    Py_ssize_t got = 0;
    while (got < lz->i) {
        PyObject *item;
        int r = pull(lz, &item);
        if (r < 0) {
            Py_SET_SIZE(batch, got);
            Py_DECREF(batch);
            return NULL;
        }
        if (r == 0) {
            break;
        }
        if (got == cap) {
            cap = cap * 2 < lz->i ? cap * 2 : lz->i;
            if (_PyTuple_Resize(&batch, cap) < 0) {
                Py_DECREF(item);
                return NULL;
            }
        }
        PyTuple_SET_ITEM(batch, got++, item);
    }
    if (got == 0) {
        Py_DECREF(batch);
        return NULL;
    }
    if (got < lz->i) {
        Py_CLEAR(lz->src);
        if (lz->flag) {
            Py_DECREF(batch);
            PyErr_SetString(PyExc_ValueError, "batched(): incomplete batch");
            return NULL;
        }
    }
    if (got < cap && _PyTuple_Resize(&batch, got) < 0) {
        return NULL;
    }
    return batch;
}

static PyTypeObject batched_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.batched",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "batched(iterable, n, *, strict=False)\n--\n\n"
              "Yield tuples of n items from the iterable; the last may be shorter unless strict.",
    .tp_iternext = batched_next,
    .tp_new = batched_new,
};

/* ---- chain(*iterables), chain.from_iterable(iterable) ------------------------------------
   src: iterator over the iterables; a: iterator of the current one. */

static PyObject *
chain_make(PyTypeObject *type, PyObject *source)
{
    lazyit *lz = lazyit_alloc(type);
    if (lz == NULL) {
        Py_DECREF(source);
        return NULL;
    }
    lz->src = source;
    return (PyObject *)lz;
}

static PyObject *
chain_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if ((type->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0 && !no_kwargs("chain", kwds)) {
        return NULL;
    }
    PyObject *source = PyObject_GetIter(args);
    return source ? chain_make(type, source) : NULL;
}

static PyObject *
chain_from_iterable(PyObject *cls, PyObject *iterable)
{
    PyObject *source = PyObject_GetIter(iterable);
    return source ? chain_make((PyTypeObject *)cls, source) : NULL;
}

static PyObject *
chain_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    for (;;) {
        if (lz->a != NULL) {
            /* Chains of chains recurse here; bound it like any C recursion. */
            if (Py_EnterRecursiveCall(" in chain")) {
                return NULL;
            }
            PyObject *item;
            int r = PyIter_NextItem(lz->a, &item);
            Py_LeaveRecursiveCall();
            if (r != 0) {
                return item;
            }
            Py_CLEAR(lz->a);
        }
        PyObject *iterable;
        if (pull(lz, &iterable) <= 0) {
            return NULL;
        }
        lz->a = PyObject_GetIter(iterable);
        Py_DECREF(iterable);
        if (lz->a == NULL) {
            return NULL;
        }
    }
}

static PyMethodDef chain_methods[] = {
    {"from_iterable", chain_from_iterable, METH_O | METH_CLASS,
     "Chain the iterables that one iterable yields, taken lazily."},
    CLASS_GETITEM_ENTRY
    {NULL, NULL},
};

static PyTypeObject chain_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.chain",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "chain(*iterables)\n--\n\n"
              "Yield the items of each iterable in turn.",
    .tp_iternext = chain_next,
    .tp_methods = chain_methods,
    .tp_new = chain_new,
};

/* ---- compress(data, selectors) --------------------------------------------------------
   src: data; a: selectors iterator. */

static PyObject *
compress_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"data", "selectors", NULL};
    PyObject *data, *selectors;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO:compress", kwlist, &data, &selectors)) {
        return NULL;
    }
    PyObject *dit = PyObject_GetIter(data);
    if (dit == NULL) {
        return NULL;
    }
    PyObject *sit = PyObject_GetIter(selectors);
    if (sit == NULL) {
        Py_DECREF(dit);
        return NULL;
    }
    lazyit *lz = lazyit_alloc(type);
    if (lz == NULL) {
        Py_DECREF(dit);
        Py_DECREF(sit);
        return NULL;
    }
    lz->src = dit;
    lz->a = sit;
    return (PyObject *)lz;
}

static PyObject *
compress_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    for (;;) {
        PyObject *item, *sel;
        if (pull(lz, &item) <= 0) {
            return NULL;
        }
        int r = lz->a ? PyIter_NextItem(lz->a, &sel) : 0;
        if (r <= 0) {
            Py_DECREF(item);
            if (r == 0) {
                Py_CLEAR(lz->src);
                Py_CLEAR(lz->a);
            }
            return NULL;
        }
        int keep = PyObject_IsTrue(sel);
        Py_DECREF(sel);
        if (keep != 0) {
            if (keep < 0) {
                Py_CLEAR(item);
            }
            return item;
        }
        Py_DECREF(item);
    }
}

static PyTypeObject compress_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.compress",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "compress(data, selectors)\n--\n\n"
              "Yield the items of data whose matching selector is true.",
    .tp_iternext = compress_next,
    .tp_new = compress_new,
};

/* ---- dropwhile, takewhile, filterfalse, starmap ---------------------------------------
   fn: the predicate; flag: dropwhile done dropping / takewhile stopped. */

/* Truth of fn(item) (or of item when fn is None): 1, 0, or -1. */
static int
test_item(PyObject *fn, PyObject *item)
{
    if (fn == NULL || fn == Py_None) {
        return PyObject_IsTrue(item);
    }
    PyObject *res = PyObject_CallOneArg(fn, item);
    if (res == NULL) {
        return -1;
    }
    int t = PyObject_IsTrue(res);
    Py_DECREF(res);
    return t;
}

static PyObject *
dropwhile_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return new_fn_iter(type, args, kwds, "dropwhile");
}

static PyObject *
dropwhile_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    for (;;) {
        PyObject *item;
        if (pull(lz, &item) <= 0) {
            return NULL;
        }
        if (lz->flag) {
            return item;
        }
        int t = test_item(lz->fn, item);
        if (t == 0) {
            lz->flag = 1;
            return item;
        }
        Py_DECREF(item);
        if (t < 0) {
            return NULL;
        }
    }
}

static PyTypeObject dropwhile_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.dropwhile",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "dropwhile(predicate, iterable, /)\n--\n\n"
              "Skip items while the predicate holds, then yield all the rest.",
    .tp_iternext = dropwhile_next,
    .tp_new = dropwhile_new,
};

static PyObject *
takewhile_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return new_fn_iter(type, args, kwds, "takewhile");
}

static PyObject *
takewhile_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    PyObject *item;
    if (lz->flag || pull(lz, &item) <= 0) {
        return NULL;
    }
    int t = test_item(lz->fn, item);
    if (t > 0) {
        return item;
    }
    Py_DECREF(item);
    if (t == 0) {
        lz->flag = 1;
    }
    return NULL;
}

static PyTypeObject takewhile_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.takewhile",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "takewhile(predicate, iterable, /)\n--\n\n"
              "Yield items while the predicate holds; stop at the first that fails.",
    .tp_iternext = takewhile_next,
    .tp_new = takewhile_new,
};

static PyObject *
filterfalse_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return new_fn_iter(type, args, kwds, "filterfalse");
}

static PyObject *
filterfalse_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    for (;;) {
        PyObject *item;
        if (pull(lz, &item) <= 0) {
            return NULL;
        }
        int t = test_item(lz->fn, item);
        if (t == 0) {
            return item;
        }
        Py_DECREF(item);
        if (t < 0) {
            return NULL;
        }
    }
}

static PyTypeObject filterfalse_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.filterfalse",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "filterfalse(function, iterable, /)\n--\n\n"
              "Yield the items for which function(item) is false (item itself if function is None).",
    .tp_iternext = filterfalse_next,
    .tp_new = filterfalse_new,
};

static PyObject *
starmap_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return new_fn_iter(type, args, kwds, "starmap");
}

static PyObject *
starmap_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    PyObject *item;
    if (pull(lz, &item) <= 0) {
        return NULL;
    }
    PyObject *argtuple = PySequence_Tuple(item);
    Py_DECREF(item);
    if (argtuple == NULL) {
        return NULL;
    }
    PyObject *res = PyObject_Call(lz->fn, argtuple, NULL);
    Py_DECREF(argtuple);
    return res;
}

static PyTypeObject starmap_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.starmap",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "starmap(function, iterable, /)\n--\n\n"
              "Yield function(*args) for each args tuple from the iterable.",
    .tp_iternext = starmap_next,
    .tp_new = starmap_new,
};

/* ---- islice(iterable, stop) / islice(iterable, start, stop[, step]) -----------------------
   i: index of the next item to yield; j: stop (-1: none); k: step;
   m: how many items have been taken from the source. */

static int
slice_index(PyObject *o, Py_ssize_t *out, const char *msg)
{
    if (o == Py_None) {
        return 1;
    }
    Py_ssize_t v = -1;
    if (PyIndex_Check(o)) {
        v = PyNumber_AsSsize_t(o, PyExc_OverflowError);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            v = -1;
        }
    }
    if (v < 0) {
        PyErr_SetString(PyExc_ValueError, msg);
        return 0;
    }
    *out = v;
    return 1;
}

static PyObject *
islice_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *iterable, *a1, *a2 = NULL, *a3 = NULL;
    if ((type->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0 && !no_kwargs("islice", kwds)) {
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "islice", 2, 4, &iterable, &a1, &a2, &a3)) {
        return NULL;
    }
    Py_ssize_t start = 0, stop = -1, step = 1;
    PyObject *stopobj = a2 == NULL ? a1 : a2;
    if (!slice_index(stopobj, &stop,
                     "Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.")) {
        return NULL;
    }
    if (a2 != NULL) {
        const char *msg = "Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.";
        if (!slice_index(a1, &start, msg)) {
            return NULL;
        }
        if (a3 != NULL && a3 != Py_None) {
            step = -1;
            if (!slice_index(a3, &step, "Step for islice() must be a positive integer or None.")) {
                return NULL;
            }
            if (step == 0) {
                PyErr_SetString(PyExc_ValueError, "Step for islice() must be a positive integer or None.");
                return NULL;
            }
        }
    }
    lazyit *lz = lazyit_over(type, iterable);
    if (lz == NULL) {
        return NULL;
    }
    lz->i = start;
    lz->j = stop;
    lz->k = step;
    return (PyObject *)lz;
}

static PyObject *
islice_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    PyObject *item;
    Py_ssize_t limit = lz->j;
    while (lz->m < lz->i) {
        if (limit >= 0 && lz->m >= limit) {
            break;
        }
        if (pull(lz, &item) <= 0) {
            return NULL;
        }
        Py_DECREF(item);
        lz->m++;
    }
    if (limit >= 0 && lz->m >= limit) {
        Py_CLEAR(lz->src);
        return NULL;
    }
    if (pull(lz, &item) <= 0) {
        return NULL;
    }
    lz->m++;
    Py_ssize_t want = lz->i + lz->k;
    if (want < lz->i || (limit >= 0 && want > limit)) {
        want = limit >= 0 ? limit : PY_SSIZE_T_MAX;
    }
    lz->i = want;
    return item;
}

static PyTypeObject islice_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.islice",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "islice(iterable, stop)\nislice(iterable, start, stop[, step])\n--\n\n"
              "Yield the items of the iterable that a slice [start:stop:step] would select.",
    .tp_iternext = islice_next,
    .tp_new = islice_new,
};

/* ---- pairwise(iterable) ------------------------------------------------------------------
   a: the previous item. */

static PyObject *
pairwise_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *iterable;
    if ((type->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0 && !no_kwargs("pairwise", kwds)) {
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "pairwise", 1, 1, &iterable)) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(iterable);
    return it ? chain_make(type, it) : NULL;
}

static PyObject *
pairwise_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    PyObject *item;
    if (lz->a == NULL) {
        if (pull(lz, &item) <= 0) {
            return NULL;
        }
        lz->a = item;
    }
    int r = pull(lz, &item);
    if (r <= 0) {
        Py_CLEAR(lz->a);
        return NULL;
    }
    /* The source may have re-entered us and replaced a; take it now. */
    PyObject *prev = lz->a;
    if (prev == NULL) {
        Py_DECREF(item);
        return NULL;
    }
    PyObject *pair = PyTuple_Pack(2, prev, item);
    lz->a = item;
    Py_DECREF(prev);
    return pair;
}

static PyTypeObject pairwise_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.pairwise",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "pairwise(iterable, /)\n--\n\n"
              "Yield each pair of neighbouring items: (s0, s1), (s1, s2), ...",
    .tp_iternext = pairwise_next,
    .tp_new = pairwise_new,
};

/* ---- zip_longest(*iterables, fillvalue=None) ----------------------------------------------
   a: tuple of iterators (None in place of a finished one); b: fillvalue;
   i: how many are still running. */

static PyObject *
zip_longest_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *fill = Py_None;
    if (kwds != NULL && PyDict_GET_SIZE(kwds) > 0) {
        PyObject *v = PyDict_GetItemString(kwds, "fillvalue");
        if (v == NULL || PyDict_GET_SIZE(kwds) > 1) {
            PyErr_SetString(PyExc_TypeError, "zip_longest() got an unexpected keyword argument");
            return NULL;
        }
        fill = v;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *iters = PyTuple_New(n);
    if (iters == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PyObject_GetIter(PyTuple_GET_ITEM(args, i));
        if (it == NULL) {
            Py_DECREF(iters);
            return NULL;
        }
        PyTuple_SET_ITEM(iters, i, it);
    }
    lazyit *lz = lazyit_alloc(type);
    if (lz == NULL) {
        Py_DECREF(iters);
        return NULL;
    }
    lz->a = iters;
    lz->b = Py_NewRef(fill);
    lz->i = n;
    return (PyObject *)lz;
}

static PyObject *
zip_longest_next(PyObject *self)
{
    lazyit *lz = LZ(self);
    Py_ssize_t n = PyTuple_GET_SIZE(lz->a);
    if (n == 0 || lz->i == 0) {
        return NULL;
    }
    PyObject *result = PyTuple_New(n);
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PyTuple_GET_ITEM(lz->a, i);
        PyObject *item = NULL;
        if (it != Py_None) {
            /* Held: a re-entrant call may retire this iterator meanwhile. */
            Py_INCREF(it);
            int r = PyIter_NextItem(it, &item);
            if (r == 0 && PyTuple_GET_ITEM(lz->a, i) == it) {
                PyTuple_SET_ITEM(lz->a, i, Py_None);
                Py_DECREF(it);
                lz->i--;
            }
            Py_DECREF(it);
            if (r < 0 || (r == 0 && lz->i <= 0)) {
                goto error;
            }
        }
        PyTuple_SET_ITEM(result, i, item ? item : Py_NewRef(lz->b));
    }
    return result;
error:
    Py_DECREF(result);
    return NULL;
}

static PyTypeObject zip_longest_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.zip_longest",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "zip_longest(*iterables, fillvalue=None)\n--\n\n"
              "Like zip, but runs to the longest iterable, padding the others with fillvalue.",
    .tp_iternext = zip_longest_next,
    .tp_new = zip_longest_new,
};

/* ---- groupby(iterable, key=None) and _grouper ----------------------------------------------
   groupby: fn: key function; a: key of the group being handed out; b: key
   of the look-ahead item; c: the look-ahead item (NULL once a grouper took
   it); token: the current grouper, remembered by identity only, so an
   older grouper can tell it has been superseded.
   _grouper: src: its groupby; a: its key. */

static PyTypeObject grouper_type;

static PyObject *
groupby_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"iterable", "key", NULL};
    PyObject *iterable, *key = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:groupby", kwlist, &iterable, &key)) {
        return NULL;
    }
    lazyit *lz = lazyit_over(type, iterable);
    if (lz == NULL) {
        return NULL;
    }
    lz->fn = key == Py_None ? NULL : Py_NewRef(key);
    return (PyObject *)lz;
}

/* a == b, holding both: __eq__ may re-enter the groupby and replace them. */
static int
keys_equal(PyObject *a, PyObject *b)
{
    Py_INCREF(a);
    Py_INCREF(b);
    int r = PyObject_RichCompareBool(a, b, Py_EQ);
    Py_DECREF(a);
    Py_DECREF(b);
    return r;
}

/* Read the next item and its key into the look-ahead slots. 1/0/-1. */
static int
groupby_advance(lazyit *gb)
{
    PyObject *item;
    int r = pull(gb, &item);
    if (r <= 0) {
        return r;
    }
    PyObject *key = gb->fn ? PyObject_CallOneArg(gb->fn, item) : Py_NewRef(item);
    if (key == NULL) {
        Py_DECREF(item);
        return -1;
    }
    Py_XSETREF(gb->b, key);
    Py_XSETREF(gb->c, item);
    return 1;
}

static PyObject *
groupby_next(PyObject *self)
{
    lazyit *gb = LZ(self);
    for (;;) {
        if (gb->c == NULL && groupby_advance(gb) <= 0) {
            return NULL;
        }
        if (gb->a == NULL) {
            break;
        }
        int same = keys_equal(gb->a, gb->b);
        if (same < 0) {
            return NULL;
        }
        if (!same) {
            break;
        }
        Py_CLEAR(gb->c); /* still the old group: skip it */
    }
    Py_XSETREF(gb->a, Py_NewRef(gb->b));
    lazyit *grouper = lazyit_alloc(&grouper_type);
    if (grouper == NULL) {
        return NULL;
    }
    grouper->src = Py_NewRef(self);
    grouper->a = Py_NewRef(gb->a);
    gb->token = (PyObject *)grouper;
    PyObject *res = PyTuple_Pack(2, gb->a, (PyObject *)grouper);
    Py_DECREF(grouper);
    return res;
}

static PyTypeObject groupby_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.groupby",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "groupby(iterable, key=None)\n--\n\n"
              "Yield (key, group) pairs for runs of consecutive items with equal keys.",
    .tp_iternext = groupby_next,
    .tp_new = groupby_new,
};

static PyObject *
grouper_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *parent, *key;
    if (!no_kwargs("_grouper", kwds) || !PyArg_UnpackTuple(args, "_grouper", 2, 2, &parent, &key)) {
        return NULL;
    }
    if (!PyObject_TypeCheck(parent, &groupby_type)) {
        PyErr_Format(PyExc_TypeError, "_grouper() argument 1 must be itertools.groupby, not %.200s",
                     Py_TYPE(parent)->tp_name);
        return NULL;
    }
    lazyit *g = lazyit_alloc(type);
    if (g == NULL) {
        return NULL;
    }
    g->src = Py_NewRef(parent);
    g->a = Py_NewRef(key);
    return (PyObject *)g;
}

static PyObject *
grouper_next(PyObject *self)
{
    lazyit *g = LZ(self);
    lazyit *gb = LZ(g->src);
    if (gb->token != self) {
        return NULL;
    }
    if (gb->c == NULL && groupby_advance(gb) <= 0) {
        return NULL;
    }
    int same = keys_equal(g->a, gb->b);
    if (same <= 0 || gb->c == NULL) {
        return NULL;
    }
    PyObject *item = gb->c;
    gb->c = NULL;
    return item;
}

static PyTypeObject grouper_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools._grouper",
    LAZY_TYPE_COMMON,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "One group of a groupby: the run of items sharing a key.",
    .tp_iternext = grouper_next,
    .tp_new = grouper_new,
};

/* ---- tee -------------------------------------------------------------------------------
   The items read from the shared source go into a singly linked list of
   fixed-size blocks (_tee_dataobject).  Each _tee holds its block and its
   position in it; a block lives while some tee still has to read it, so
   the slowest tee decides how much is buffered.  Copying a tee is cheap:
   same block, same position. */

#define TEE_BLOCK 56

typedef struct teeblock {
    PyObject_HEAD
    PyObject *source;      /* the shared iterator */
    struct teeblock *next; /* the following block, once someone needs it */
    int filled;            /* how many of values[] hold items */
    int busy;              /* set while pulling from source: reentry guard */
    PyObject *values[TEE_BLOCK];
} teeblock;

typedef struct {
    PyObject_HEAD
    teeblock *block;
    int pos;
    PyObject *weakrefs;
} teeobject;

static PyTypeObject teeblock_type;
static PyTypeObject tee_type;

static teeblock *
teeblock_make(PyObject *source)
{
    teeblock *b = PyObject_GC_New(teeblock, &teeblock_type);
    if (b == NULL) {
        return NULL;
    }
    b->source = Py_NewRef(source);
    b->next = NULL;
    b->filled = 0;
    b->busy = 0;
    PyObject_GC_Track((PyObject *)b);
    return b;
}

static int
teeblock_clear(PyObject *self)
{
    teeblock *b = (teeblock *)self;
    int n = b->filled;
    b->filled = 0;
    for (int i = 0; i < n; i++) {
        Py_CLEAR(b->values[i]);
    }
    Py_CLEAR(b->source);
    Py_CLEAR(b->next);
    return 0;
}

static void
teeblock_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    teeblock_clear(self);
    PyObject_GC_Del(self);
}

static int
teeblock_traverse(PyObject *self, visitproc visit, void *arg)
{
    teeblock *b = (teeblock *)self;
    Py_VISIT(b->source);
    for (int i = 0; i < b->filled; i++) {
        Py_VISIT(b->values[i]);
    }
    Py_VISIT(b->next);
    return 0;
}

/* Item `pos` of block b, reading from the source when nobody has yet. */
static PyObject *
teeblock_get(teeblock *b, int pos)
{
    if (pos < b->filled) {
        return Py_NewRef(b->values[pos]);
    }
    if (b->busy) {
        PyErr_SetString(PyExc_RuntimeError, "cannot re-enter the tee iterator");
        return NULL;
    }
    b->busy = 1;
    PyObject *item;
    int r = PyIter_NextItem(b->source, &item);
    b->busy = 0;
    if (r <= 0) {
        return NULL;
    }
    b->values[b->filled++] = item;
    return Py_NewRef(item);
}

static PyTypeObject teeblock_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools._tee_dataobject",
    .tp_basicsize = sizeof(teeblock),
    .tp_dealloc = teeblock_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "A block of the items that a set of tee iterators share.",
    .tp_traverse = teeblock_traverse,
    .tp_clear = teeblock_clear,
    .tp_free = PyObject_GC_Del,
};

static PyObject *
tee_at(teeblock *b, int pos)
{
    teeobject *t = PyObject_GC_New(teeobject, &tee_type);
    if (t == NULL) {
        return NULL;
    }
    t->block = (teeblock *)Py_NewRef(b);
    t->pos = pos;
    t->weakrefs = NULL;
    PyObject_GC_Track((PyObject *)t);
    return (PyObject *)t;
}

/* A tee over `iterable`: a copy when it already is one. */
static PyObject *
tee_from(PyObject *iterable)
{
    PyObject *it = PyObject_GetIter(iterable);
    if (it == NULL) {
        return NULL;
    }
    if (Py_IS_TYPE(it, &tee_type)) {
        teeobject *src = (teeobject *)it;
        PyObject *copy = tee_at(src->block, src->pos);
        Py_DECREF(it);
        return copy;
    }
    teeblock *b = teeblock_make(it);
    Py_DECREF(it);
    if (b == NULL) {
        return NULL;
    }
    PyObject *t = tee_at(b, 0);
    Py_DECREF(b);
    return t;
}

static PyObject *
tee_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *iterable;
    if (!no_kwargs("_tee", kwds) || !PyArg_UnpackTuple(args, "_tee", 1, 1, &iterable)) {
        return NULL;
    }
    return tee_from(iterable);
}

static PyObject *
tee_next(PyObject *self)
{
    teeobject *t = (teeobject *)self;
    if (t->pos == TEE_BLOCK) {
        teeblock *b = t->block;
        if (b->next == NULL) {
            b->next = teeblock_make(b->source);
            if (b->next == NULL) {
                return NULL;
            }
        }
        t->block = (teeblock *)Py_NewRef(b->next);
        t->pos = 0;
        Py_DECREF(b);
    }
    PyObject *item = teeblock_get(t->block, t->pos);
    if (item != NULL) {
        t->pos++;
    }
    return item;
}

static PyObject *
tee_copy(PyObject *self, PyObject *unused)
{
    teeobject *t = (teeobject *)self;
    return tee_at(t->block, t->pos);
}

static int
tee_clear(PyObject *self)
{
    Py_CLEAR(((teeobject *)self)->block);
    return 0;
}

static void
tee_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    if (((teeobject *)self)->weakrefs != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    tee_clear(self);
    PyObject_GC_Del(self);
}

static int
tee_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((teeobject *)self)->block);
    return 0;
}

static PyMethodDef tee_methods[] = {
    {"__copy__", tee_copy, METH_NOARGS, "An independent tee at the same position."},
    {NULL, NULL},
};

static PyTypeObject tee_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools._tee",
    .tp_basicsize = sizeof(teeobject),
    .tp_dealloc = tee_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "_tee(iterable, /)\n--\n\nAn iterator sharing a buffered source with its copies.",
    .tp_traverse = tee_traverse,
    .tp_clear = tee_clear,
    .tp_weaklistoffset = offsetof(teeobject, weakrefs),
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = tee_next,
    .tp_methods = tee_methods,
    .tp_new = tee_new,
    .tp_free = PyObject_GC_Del,
};

static PyObject *
itertools_tee(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("tee", nargs, 1, 2)) {
        return NULL;
    }
    Py_ssize_t n = 2;
    if (nargs == 2) {
        n = PyNumber_AsSsize_t(args[1], PyExc_OverflowError);
        if (n == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "n must be >= 0");
        return NULL;
    }
    PyObject *result = PyTuple_New(n);
    if (result == NULL || n == 0) {
        return result;
    }
    PyObject *it = PyObject_GetIter(args[0]);
    if (it == NULL) {
        goto error;
    }
    /* An iterator that knows how to copy itself is used as is. */
    PyObject *copier = NULL;
    if (PyObject_GetOptionalAttrString(it, "__copy__", &copier) < 0) {
        Py_DECREF(it);
        goto error;
    }
    PyObject *first = it;
    if (copier == NULL) {
        first = tee_from(it);
        Py_DECREF(it);
        if (first == NULL) {
            goto error;
        }
        copier = PyObject_GetAttrString(first, "__copy__");
        if (copier == NULL) {
            Py_DECREF(first);
            goto error;
        }
    }
    PyTuple_SET_ITEM(result, 0, first);
    for (Py_ssize_t i = 1; i < n; i++) {
        PyObject *copy = PyObject_CallNoArgs(copier);
        if (copy == NULL) {
            Py_DECREF(copier);
            goto error;
        }
        PyTuple_SET_ITEM(result, i, copy);
    }
    Py_DECREF(copier);
    return result;
error:
    Py_DECREF(result);
    return NULL;
}

/* ---- The combinatoric iterators ---------------------------------------------------------
   All four walk an array of indices into pools and build each result tuple
   from them.  For product, `pools` is a tuple of tuples (one per position,
   repeats included) and idx[i] indexes pools[i]; for the others `pools` is
   the one pool and idx[] holds the r chosen positions in it. */

typedef struct {
    PyObject_HEAD
    PyObject *pools;
    Py_ssize_t *idx;
    char *used;   /* permutations: which pool positions idx[] holds */
    Py_ssize_t r; /* length of each result */
    int state;    /* 0 before the first result, 1 running, 2 finished */
} comboobject;

static void
combo_dealloc(PyObject *self)
{
    comboobject *co = (comboobject *)self;
    PyObject_GC_UnTrack(self);
    Py_XDECREF(co->pools);
    PyMem_Free(co->idx);
    PyMem_Free(co->used);
    Py_TYPE(self)->tp_free(self);
}

static int
combo_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((comboobject *)self)->pools);
    return 0;
}

/* A new combinatoric object over `pools` (stolen) with r indices. */
static PyObject *
combo_make(PyTypeObject *type, PyObject *pools, Py_ssize_t r, int with_used, Py_ssize_t n)
{
    comboobject *co = (comboobject *)type->tp_alloc(type, 0);
    if (co == NULL) {
        Py_DECREF(pools);
        return NULL;
    }
    co->pools = pools;
    co->r = r;
    co->idx = PyMem_Calloc(r ? r : 1, sizeof(Py_ssize_t));
    if (with_used) {
        co->used = PyMem_Calloc(n ? n : 1, 1);
    }
    if (co->idx == NULL || (with_used && co->used == NULL)) {
        Py_DECREF(co);
        return PyErr_NoMemory();
    }
    return (PyObject *)co;
}

/* The result tuple for the current indices. */
static PyObject *
combo_result(comboobject *co, int per_position_pools)
{
    PyObject *res = PyTuple_New(co->r);
    if (res == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < co->r; i++) {
        PyObject *pool = per_position_pools ? PyTuple_GET_ITEM(co->pools, i) : co->pools;
        PyTuple_SET_ITEM(res, i, Py_NewRef(PyTuple_GET_ITEM(pool, co->idx[i])));
    }
    return res;
}

/* r from its argument; dflt (>= 0) when it may be omitted, else -1. */
static Py_ssize_t
parse_r(PyObject *obj, Py_ssize_t dflt)
{
    if (obj == NULL || obj == Py_None) {
        return dflt;
    }
    if (dflt >= 0 && !PyLong_Check(obj)) {
        /* permutations' optional r wants a real int */
        PyErr_SetString(PyExc_TypeError, "Expected int as r");
        return -2;
    }
    Py_ssize_t r = PyNumber_AsSsize_t(obj, PyExc_OverflowError);
    if (r == -1 && PyErr_Occurred()) {
        return -2;
    }
    if (r < 0) {
        PyErr_SetString(PyExc_ValueError, "r must be non-negative");
        return -2;
    }
    return r;
}

#define COMBO_TYPE_COMMON                                                                \
    .tp_basicsize = sizeof(comboobject), .tp_dealloc = combo_dealloc,                    \
    .tp_getattro = PyObject_GenericGetAttr,                                              \
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,           \
    .tp_traverse = combo_traverse, .tp_iter = PyObject_SelfIter,                         \
    .tp_alloc = PyType_GenericAlloc, .tp_free = PyObject_GC_Del

/* product(*iterables, repeat=1) */

static PyObject *
product_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    Py_ssize_t repeat = 1;
    if (kwds != NULL && PyDict_GET_SIZE(kwds) > 0) {
        PyObject *v = PyDict_GetItemString(kwds, "repeat");
        if (v == NULL || PyDict_GET_SIZE(kwds) > 1) {
            PyErr_SetString(PyExc_TypeError, "product() got an unexpected keyword argument");
            return NULL;
        }
        repeat = PyNumber_AsSsize_t(v, PyExc_OverflowError);
        if (repeat == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (repeat < 0) {
            PyErr_SetString(PyExc_ValueError, "repeat argument cannot be negative");
            return NULL;
        }
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (repeat && nargs > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(void *) / repeat) {
        PyErr_SetString(PyExc_OverflowError, "repeat argument too large");
        return NULL;
    }
    PyObject *pools = PyTuple_New(nargs * repeat);
    if (pools == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *pool = PySequence_Tuple(PyTuple_GET_ITEM(args, i));
        if (pool == NULL) {
            Py_DECREF(pools);
            return NULL;
        }
        for (Py_ssize_t rep = 0; rep < repeat; rep++) {
            PyTuple_SET_ITEM(pools, rep * nargs + i, Py_NewRef(pool));
        }
        Py_DECREF(pool);
    }
    return combo_make(type, pools, nargs * repeat, 0, 0);
}

static PyObject *
product_next(PyObject *self)
{
    comboobject *co = (comboobject *)self;
    if (co->state == 2) {
        return NULL;
    }
    if (co->state == 0) {
        for (Py_ssize_t i = 0; i < co->r; i++) {
            if (PyTuple_GET_SIZE(PyTuple_GET_ITEM(co->pools, i)) == 0) {
                co->state = 2;
                return NULL;
            }
        }
        co->state = 1;
        return combo_result(co, 1);
    }
    /* Odometer: bump the last wheel, carrying leftwards. */
    Py_ssize_t i = co->r - 1;
    for (; i >= 0; i--) {
        if (++co->idx[i] < PyTuple_GET_SIZE(PyTuple_GET_ITEM(co->pools, i))) {
            break;
        }
        co->idx[i] = 0;
    }
    if (i < 0) {
        co->state = 2;
        return NULL;
    }
    return combo_result(co, 1);
}

static PyTypeObject product_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.product",
    COMBO_TYPE_COMMON,
    .tp_doc = "product(*iterables, repeat=1)\n--\n\n"
              "Cartesian product of the iterables, as tuples in odometer order.",
    .tp_iternext = product_next,
    .tp_new = product_new,
};

static PyTypeObject cwr_type;

/* Whether results longer than the pool exist (only with replacement). */
static int
r_required_le_n_ok(PyTypeObject *type)
{
    return PyType_IsSubtype(type, &cwr_type);
}

/* The one-pool kinds: parse (iterable, r) and build the object. */
static PyObject *
single_pool_new(PyTypeObject *type, PyObject *args, PyObject *kwds, const char *fmt, int r_required,
                int with_used)
{
    static char *kwlist[] = {"iterable", "r", NULL};
    PyObject *iterable, *robj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, &iterable, &robj)) {
        return NULL;
    }
    if (r_required && robj != NULL && robj == Py_None) {
        PyErr_Format(PyExc_TypeError, "'NoneType' object cannot be interpreted as an integer");
        return NULL;
    }
    PyObject *pool = PySequence_Tuple(iterable);
    if (pool == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(pool);
    Py_ssize_t r = parse_r(robj, r_required ? -1 : n);
    if (r == -2) {
        Py_DECREF(pool);
        return NULL;
    }
    if (!r_required_le_n_ok(type) && r > n) {
        /* Nothing to produce: do not allocate r indices for it. */
        comboobject *co = (comboobject *)combo_make(type, pool, 0, with_used, n);
        if (co != NULL) {
            co->r = r;
            co->state = 2;
        }
        return (PyObject *)co;
    }
    return combo_make(type, pool, r, with_used, n);
}

/* combinations(iterable, r): strictly increasing indices. */

static PyObject *
combinations_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return single_pool_new(type, args, kwds, "OO:combinations", 1, 0);
}

static PyObject *
combinations_next(PyObject *self)
{
    comboobject *co = (comboobject *)self;
    Py_ssize_t n = PyTuple_GET_SIZE(co->pools), r = co->r;
    if (co->state == 2) {
        return NULL;
    }
    if (co->state == 0) {
        if (r > n) {
            co->state = 2;
            return NULL;
        }
        for (Py_ssize_t i = 0; i < r; i++) {
            co->idx[i] = i;
        }
        co->state = 1;
        return combo_result(co, 0);
    }
    /* The rightmost index not yet at its ceiling moves up; the rest follow it. */
    Py_ssize_t i = r - 1;
    while (i >= 0 && co->idx[i] == n - r + i) {
        i--;
    }
    if (i < 0) {
        co->state = 2;
        return NULL;
    }
    co->idx[i]++;
    for (Py_ssize_t j = i + 1; j < r; j++) {
        co->idx[j] = co->idx[j - 1] + 1;
    }
    return combo_result(co, 0);
}

static PyTypeObject combinations_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.combinations",
    COMBO_TYPE_COMMON,
    .tp_doc = "combinations(iterable, r)\n--\n\n"
              "The r-length subsequences of the iterable's items, in order.",
    .tp_iternext = combinations_next,
    .tp_new = combinations_new,
};

/* combinations_with_replacement(iterable, r): non-decreasing indices. */

static PyObject *
cwr_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return single_pool_new(type, args, kwds, "OO:combinations_with_replacement", 1, 0);
}

static PyObject *
cwr_next(PyObject *self)
{
    comboobject *co = (comboobject *)self;
    Py_ssize_t n = PyTuple_GET_SIZE(co->pools), r = co->r;
    if (co->state == 2) {
        return NULL;
    }
    if (co->state == 0) {
        if (n == 0 && r > 0) {
            co->state = 2;
            return NULL;
        }
        co->state = 1;
        return combo_result(co, 0);
    }
    Py_ssize_t i = r - 1;
    while (i >= 0 && co->idx[i] == n - 1) {
        i--;
    }
    if (i < 0) {
        co->state = 2;
        return NULL;
    }
    Py_ssize_t v = co->idx[i] + 1;
    for (Py_ssize_t j = i; j < r; j++) {
        co->idx[j] = v;
    }
    return combo_result(co, 0);
}

static PyTypeObject cwr_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.combinations_with_replacement",
    COMBO_TYPE_COMMON,
    .tp_doc = "combinations_with_replacement(iterable, r)\n--\n\n"
              "The r-length sequences of the iterable's items in order, items may repeat.",
    .tp_iternext = cwr_next,
    .tp_new = cwr_new,
};

/* permutations(iterable, r=None): distinct indices, lexicographic order.
   used[p] says whether pool position p is among idx[]. */

static PyObject *
permutations_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return single_pool_new(type, args, kwds, "O|O:permutations", 0, 1);
}

/* Fill idx[from..r-1] with the smallest unused positions, ascending. */
static void
perm_fill_from(comboobject *co, Py_ssize_t from, Py_ssize_t n)
{
    Py_ssize_t p = 0;
    for (Py_ssize_t j = from; j < co->r; j++) {
        while (co->used[p]) {
            p++;
        }
        co->idx[j] = p;
        co->used[p] = 1;
    }
    (void)n;
}

static PyObject *
permutations_next(PyObject *self)
{
    comboobject *co = (comboobject *)self;
    Py_ssize_t n = PyTuple_GET_SIZE(co->pools), r = co->r;
    if (co->state == 2) {
        return NULL;
    }
    if (co->state == 0) {
        if (r > n) {
            co->state = 2;
            return NULL;
        }
        perm_fill_from(co, 0, n);
        co->state = 1;
        return combo_result(co, 0);
    }
    /* From the right, find a slot that can take a larger unused position. */
    for (Py_ssize_t i = r - 1; i >= 0; i--) {
        co->used[co->idx[i]] = 0;
        Py_ssize_t p = co->idx[i] + 1;
        while (p < n && co->used[p]) {
            p++;
        }
        if (p < n) {
            co->idx[i] = p;
            co->used[p] = 1;
            perm_fill_from(co, i + 1, n);
            return combo_result(co, 0);
        }
    }
    co->state = 2;
    return NULL;
}

static PyTypeObject permutations_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "itertools.permutations",
    COMBO_TYPE_COMMON,
    .tp_doc = "permutations(iterable, r=None)\n--\n\n"
              "The r-length orderings of the iterable's items (all of them when r is None).",
    .tp_iternext = permutations_next,
    .tp_new = permutations_new,
};

/* ---- The module ------------------------------------------------------------------------- */

static PyMethodDef itertools_functions[] = {
    {"tee", (PyCFunction)(void (*)(void))itertools_tee, METH_FASTCALL,
     "tee(iterable, n=2, /)\n--\n\nSplit one iterator into n independent ones."},
    {NULL, NULL},
};

static struct PyModuleDef itertools_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "itertools",
    .m_doc = "Building blocks for fast, memory-lean iteration.",
    .m_size = 0,
    .m_methods = itertools_functions,
};

static PyTypeObject *itertools_types[] = {
    &accumulate_type, &batched_type, &chain_type, &combinations_type, &cwr_type,
    &compress_type, &count_type, &cycle_type, &dropwhile_type, &filterfalse_type,
    &groupby_type, &grouper_type, &islice_type, &pairwise_type, &permutations_type,
    &product_type, &repeat_type, &starmap_type, &takewhile_type, &tee_type,
    &teeblock_type, &zip_longest_type, NULL,
};

PyMODINIT_FUNC
PyInit_itertools(void)
{
    PyObject *m = PyModule_Create(&itertools_module);
    if (m == NULL) {
        return NULL;
    }
    for (PyTypeObject **tp = itertools_types; *tp != NULL; tp++) {
        if (_PyStaticType_InitBuiltin(*tp) < 0 || PyModule_AddType(m, *tp) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
