/* The _collections module: the C parts of the collections package.

   deque is a growable ring buffer: `ring` holds `cap` slots (a power of
   two, or 0 before the first item), the items occupy `len` consecutive
   slots starting at `head`, wrapping around.  That gives O(1) work at both
   ends and O(1) indexing; inserting or deleting in the middle shifts the
   items on one side.  Every change of shape bumps `state`, which iterators
   and the comparison loops check to detect mutation under their feet.

   Also here: defaultdict (a dict subclass with __missing__), the
   _tuplegetter descriptor behind namedtuple fields, and _count_elements
   (the loop of Counter.update). */

#include "Python.h"
#include "pycore_object.h"
#include "structmember.h"

/* cls[item] gives a types.GenericAlias, once the runtime has one. */
#ifdef Py_GENERICALIASOBJECT_H
#define CLASS_GETITEM_ENTRY \
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "Subscripting gives a GenericAlias."},
#else
#define CLASS_GETITEM_ENTRY
#endif

/* ---- deque ---------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject **ring;
    Py_ssize_t cap;
    Py_ssize_t head;
    Py_ssize_t len;
    Py_ssize_t maxlen; /* -1: unbounded */
    size_t state;
    PyObject *weakrefs;
} dequeobject;

static PyTypeObject deque_type;
static PyTypeObject dequeiter_type;
static PyTypeObject dequerev_type;

#define DQ(op) ((dequeobject *)(op))
#define IsDeque(op) PyObject_TypeCheck((op), &deque_type)

/* The slot of item i (0 <= i < len, or == len for the slot after the end). */
static inline PyObject **
dq_slot(dequeobject *d, Py_ssize_t i)
{
    return &d->ring[(d->head + i) & (d->cap - 1)];
}

/* Make room for one more item. */
static int
dq_reserve(dequeobject *d)
{
    if (d->len < d->cap) {
        return 0;
    }
    Py_ssize_t ncap = d->cap ? d->cap * 2 : 8;
    if (ncap > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(PyObject *)) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject **nring = PyMem_Malloc(ncap * sizeof(PyObject *));
    if (nring == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < d->len; i++) {
        nring[i] = *dq_slot(d, i);
    }
    PyMem_Free(d->ring);
    d->ring = nring;
    d->cap = ncap;
    d->head = 0;
    return 0;
}

/* Remove and return (as the caller's reference) the first or last item. */
static PyObject *
dq_take_front(dequeobject *d)
{
    PyObject *item = *dq_slot(d, 0);
    d->head = (d->head + 1) & (d->cap - 1);
    d->len--;
    d->state++;
    return item;
}

static PyObject *
dq_take_back(dequeobject *d)
{
    PyObject *item = *dq_slot(d, d->len - 1);
    d->len--;
    d->state++;
    return item;
}

/* Add an item (stolen) at one end; a full bounded deque drops one from the
   other end.  The dropped item is released last, once the deque is whole. */
static int
dq_push(dequeobject *d, PyObject *item, int at_front)
{
    if (d->maxlen == 0) {
        Py_DECREF(item);
        return 0;
    }
    PyObject *dropped = NULL;
    if (d->len == d->maxlen) {
        dropped = at_front ? dq_take_back(d) : dq_take_front(d);
    }
    if (dq_reserve(d) < 0) {
        Py_DECREF(item);
        Py_XDECREF(dropped);
        return -1;
    }
    if (at_front) {
        d->head = (d->head - 1) & (d->cap - 1);
        d->ring[d->head] = item;
    }
    else {
        *dq_slot(d, d->len) = item;
    }
    d->len++;
    d->state++;
    Py_XDECREF(dropped);
    return 0;
}

/* Empty the deque; the items are released after it is consistent. */
static void
dq_clear_all(dequeobject *d)
{
    PyObject **ring = d->ring;
    Py_ssize_t cap = d->cap, head = d->head, n = d->len;
    d->ring = NULL;
    d->cap = d->head = d->len = 0;
    d->state++;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_DECREF(ring[(head + i) & (cap - 1)]);
    }
    PyMem_Free(ring);
}

static int
deque_tp_clear(PyObject *self)
{
    dq_clear_all(DQ(self));
    return 0;
}

static PyObject *
deque_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    dequeobject *d = (dequeobject *)type->tp_alloc(type, 0);
    if (d == NULL) {
        return NULL;
    }
    d->maxlen = -1;
    return (PyObject *)d;
}

static void
deque_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    if (DQ(self)->weakrefs != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    dq_clear_all(DQ(self));
    Py_TYPE(self)->tp_free(self);
}

static int
deque_traverse(PyObject *self, visitproc visit, void *arg)
{
    dequeobject *d = DQ(self);
    for (Py_ssize_t i = 0; i < d->len; i++) {
        Py_VISIT(*dq_slot(d, i));
    }
    return 0;
}

static PyObject *
deque_append(PyObject *self, PyObject *item)
{
    if (dq_push(DQ(self), Py_NewRef(item), 0) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
deque_appendleft(PyObject *self, PyObject *item)
{
    if (dq_push(DQ(self), Py_NewRef(item), 1) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
deque_pop(PyObject *self, PyObject *unused)
{
    if (DQ(self)->len == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from an empty deque");
        return NULL;
    }
    return dq_take_back(DQ(self));
}

static PyObject *
deque_popleft(PyObject *self, PyObject *unused)
{
    if (DQ(self)->len == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from an empty deque");
        return NULL;
    }
    return dq_take_front(DQ(self));
}

/* Push every item of the iterable at one end.  Extending a deque by
   itself takes a snapshot first. */
static int
dq_extend(dequeobject *d, PyObject *iterable, int at_front)
{
    if (iterable == (PyObject *)d) {
        PyObject *snapshot = PySequence_List(iterable);
        if (snapshot == NULL) {
            return -1;
        }
        int r = dq_extend(d, snapshot, at_front);
        Py_DECREF(snapshot);
        return r;
    }
    PyObject *it = PyObject_GetIter(iterable);
    if (it == NULL) {
        return -1;
    }
    PyObject *item;
    int r;
    while ((r = PyIter_NextItem(it, &item)) > 0) {
        if (dq_push(d, item, at_front) < 0) {
            r = -1;
            break;
        }
    }
    Py_DECREF(it);
    return r;
}

static PyObject *
deque_extend(PyObject *self, PyObject *iterable)
{
    if (dq_extend(DQ(self), iterable, 0) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
deque_extendleft(PyObject *self, PyObject *iterable)
{
    if (dq_extend(DQ(self), iterable, 1) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
deque_clear_method(PyObject *self, PyObject *unused)
{
    dq_clear_all(DQ(self));
    Py_RETURN_NONE;
}

/* Rotate right by k steps (left for negative k). */
static void
dq_rotate(dequeobject *d, Py_ssize_t k)
{
    Py_ssize_t n = d->len;
    if (n <= 1) {
        return;
    }
    k %= n;
    if (k < 0) {
        k += n;
    }
    if (k == 0) {
        return;
    }
    d->state++;
    if (n == d->cap) {
        /* A full ring rotates by moving its start. */
        d->head = (d->head - k) & (d->cap - 1);
        return;
    }
    if (k <= n / 2) {
        for (Py_ssize_t s = 0; s < k; s++) {
            PyObject *last = *dq_slot(d, n - 1);
            d->head = (d->head - 1) & (d->cap - 1);
            d->ring[d->head] = last;
        }
    }
    else {
        for (Py_ssize_t s = 0; s < n - k; s++) {
            PyObject *first = d->ring[d->head];
            d->head = (d->head + 1) & (d->cap - 1);
            *dq_slot(d, n - 1) = first;
        }
    }
}

static PyObject *
deque_rotate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("rotate", nargs, 0, 1)) {
        return NULL;
    }
    Py_ssize_t k = 1;
    if (nargs == 1) {
        k = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
        if (k == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    dq_rotate(DQ(self), k);
    Py_RETURN_NONE;
}

static PyObject *
deque_reverse(PyObject *self, PyObject *unused)
{
    dequeobject *d = DQ(self);
    for (Py_ssize_t i = 0, j = d->len - 1; i < j; i++, j--) {
        PyObject **a = dq_slot(d, i), **b = dq_slot(d, j);
        PyObject *t = *a;
        *a = *b;
        *b = t;
    }
    d->state++;
    Py_RETURN_NONE;
}

/* Index of the first item in [start, stop) equal to x, -1 when absent, -2
   on error (including the deque changing during a comparison). */
static Py_ssize_t
dq_find(dequeobject *d, PyObject *x, Py_ssize_t start, Py_ssize_t stop)
{
    size_t state = d->state;
    for (Py_ssize_t i = start; i < stop && i < d->len; i++) {
        PyObject *item = Py_NewRef(*dq_slot(d, i));
        int eq = PyObject_RichCompareBool(item, x, Py_EQ);
        Py_DECREF(item);
        if (eq < 0) {
            return -2;
        }
        if (d->state != state) {
            PyErr_SetString(PyExc_RuntimeError, "deque mutated during iteration");
            return -2;
        }
        if (eq) {
            return i;
        }
    }
    return -1;
}

static PyObject *
deque_count(PyObject *self, PyObject *x)
{
    dequeobject *d = DQ(self);
    Py_ssize_t found = 0, at = 0;
    for (;;) {
        Py_ssize_t i = dq_find(d, x, at, d->len);
        if (i == -2) {
            return NULL;
        }
        if (i == -1) {
            return PyLong_FromSsize_t(found);
        }
        found++;
        at = i + 1;
    }
}

static int
deque_contains(PyObject *self, PyObject *x)
{
    Py_ssize_t i = dq_find(DQ(self), x, 0, DQ(self)->len);
    return i == -2 ? -1 : i >= 0;
}

/* Clamp a user's start/stop the way list.index does. */
static Py_ssize_t
clamp_bound(Py_ssize_t v, Py_ssize_t n)
{
    if (v < 0) {
        v += n;
        if (v < 0) {
            v = 0;
        }
    }
    return v > n ? n : v;
}

static PyObject *
deque_index(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    dequeobject *d = DQ(self);
    if (!_PyArg_CheckPositional("index", nargs, 1, 3)) {
        return NULL;
    }
    Py_ssize_t bounds[2] = {0, PY_SSIZE_T_MAX};
    for (Py_ssize_t a = 1; a < nargs; a++) {
        if (!PyIndex_Check(args[a]) && args[a] != Py_None) {
            PyErr_SetString(PyExc_TypeError,
                            "slice indices must be integers or have an __index__ method");
            return NULL;
        }
        bounds[a - 1] = PyNumber_AsSsize_t(args[a], NULL);
        if (bounds[a - 1] == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_ssize_t start = clamp_bound(bounds[0], d->len), stop = clamp_bound(bounds[1], d->len);
    Py_ssize_t i = dq_find(d, args[0], start, stop);
    if (i == -2) {
        return NULL;
    }
    if (i == -1) {
        PyErr_Format(PyExc_ValueError, "%R is not in deque", args[0]);
        return NULL;
    }
    return PyLong_FromSsize_t(i);
}

/* Delete item i, shifting the shorter side over the hole. */
static PyObject *
dq_take_at(dequeobject *d, Py_ssize_t i)
{
    PyObject *item = *dq_slot(d, i);
    if (i < d->len / 2) {
        for (Py_ssize_t j = i; j > 0; j--) {
            *dq_slot(d, j) = *dq_slot(d, j - 1);
        }
        d->head = (d->head + 1) & (d->cap - 1);
    }
    else {
        for (Py_ssize_t j = i; j < d->len - 1; j++) {
            *dq_slot(d, j) = *dq_slot(d, j + 1);
        }
    }
    d->len--;
    d->state++;
    return item;
}

static PyObject *
deque_remove(PyObject *self, PyObject *x)
{
    dequeobject *d = DQ(self);
    size_t state = d->state;
    Py_ssize_t i = dq_find(d, x, 0, d->len);
    if (i == -2) {
        if (d->state != state && PyErr_ExceptionMatches(PyExc_RuntimeError)) {
            PyErr_SetString(PyExc_IndexError, "deque mutated during iteration");
        }
        return NULL;
    }
    if (i == -1) {
        PyErr_Format(PyExc_ValueError, "%R is not in deque", x);
        return NULL;
    }
    Py_DECREF(dq_take_at(d, i));
    Py_RETURN_NONE;
}

static PyObject *
deque_insert(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    dequeobject *d = DQ(self);
    if (!_PyArg_CheckPositional("insert", nargs, 2, 2)) {
        return NULL;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
    if (i == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (d->maxlen >= 0 && d->len >= d->maxlen) {
        PyErr_SetString(PyExc_IndexError, "deque already at its maximum size");
        return NULL;
    }
    i = clamp_bound(i, d->len);
    if (dq_reserve(d) < 0) {
        return NULL;
    }
    for (Py_ssize_t j = d->len; j > i; j--) {
        *dq_slot(d, j) = *dq_slot(d, j - 1);
    }
    *dq_slot(d, i) = Py_NewRef(args[1]);
    d->len++;
    d->state++;
    Py_RETURN_NONE;
}

static Py_ssize_t
deque_length(PyObject *self)
{
    return DQ(self)->len;
}

/* Normalize index i, or set IndexError and return -1. */
static Py_ssize_t
dq_index(dequeobject *d, Py_ssize_t i)
{
    if (i < 0) {
        i += d->len;
    }
    if (i < 0 || i >= d->len) {
        PyErr_SetString(PyExc_IndexError, "deque index out of range");
        return -1;
    }
    return i;
}

static PyObject *
deque_item(PyObject *self, Py_ssize_t i)
{
    dequeobject *d = DQ(self);
    if ((i = dq_index(d, i)) < 0) {
        return NULL;
    }
    return Py_NewRef(*dq_slot(d, i));
}

static int
deque_ass_item(PyObject *self, Py_ssize_t i, PyObject *value)
{
    dequeobject *d = DQ(self);
    if ((i = dq_index(d, i)) < 0) {
        return -1;
    }
    if (value == NULL) {
        Py_DECREF(dq_take_at(d, i));
        return 0;
    }
    Py_SETREF(*dq_slot(d, i), Py_NewRef(value));
    return 0;
}

static PyObject *
deque_copy(PyObject *self, PyObject *unused)
{
    dequeobject *d = DQ(self);
    if (Py_IS_TYPE(self, &deque_type)) {
        dequeobject *c = (dequeobject *)deque_new(&deque_type, NULL, NULL);
        if (c == NULL) {
            return NULL;
        }
        c->maxlen = d->maxlen;
        for (Py_ssize_t i = 0; i < d->len; i++) {
            if (dq_push(c, Py_NewRef(*dq_slot(d, i)), 0) < 0) {
                Py_DECREF(c);
                return NULL;
            }
        }
        return (PyObject *)c;
    }
    /* A subclass makes the copy through its own constructor, which may
       return anything: callers (repeat, concat) need a deque. */
    PyObject *copy = d->maxlen < 0
        ? PyObject_CallOneArg((PyObject *)Py_TYPE(self), self)
        : PyObject_CallFunction((PyObject *)Py_TYPE(self), "On", self, d->maxlen);
    if (copy != NULL && !IsDeque(copy)) {
        PyErr_Format(PyExc_TypeError, "%.200s() must return a deque, not %.200s",
                     Py_TYPE(self)->tp_name, Py_TYPE(copy)->tp_name);
        Py_CLEAR(copy);
    }
    return copy;
}

static PyObject *
deque_concat(PyObject *self, PyObject *other)
{
    if (!IsDeque(other)) {
        PyErr_Format(PyExc_TypeError, "can only concatenate deque (not \"%.200s\") to deque",
                     Py_TYPE(other)->tp_name);
        return NULL;
    }
    PyObject *res = deque_copy(self, NULL);
    if (res != NULL && dq_extend(DQ(res), other, 0) < 0) {
        Py_CLEAR(res);
    }
    return res;
}

static PyObject *
deque_inplace_concat(PyObject *self, PyObject *other)
{
    if (dq_extend(DQ(self), other, 0) < 0) {
        return NULL;
    }
    return Py_NewRef(self);
}

static PyObject *
deque_inplace_repeat(PyObject *self, Py_ssize_t n)
{
    dequeobject *d = DQ(self);
    Py_ssize_t len = d->len;
    if (n <= 0 || len == 0) {
        dq_clear_all(d);
        return Py_NewRef(self);
    }
    if (d->maxlen < 0 && len > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(PyObject *) / n) {
        return PyErr_NoMemory(); /* no ring could ever hold the result */
    }
    Py_ssize_t extra = n - 1;
    if (d->maxlen >= 0 && extra > d->maxlen / len + 1) {
        /* Only the last maxlen items survive; fewer copies suffice. */
        extra = d->maxlen / len + 1;
    }
    for (Py_ssize_t rep = 0; rep < extra; rep++) {
        for (Py_ssize_t i = 0; i < len; i++) {
            Py_ssize_t at = d->len - len; /* the block being copied slides as items drop */
            if (at < 0) {
                return Py_NewRef(self); /* a dropped item's __del__ emptied us */
            }
            if (dq_push(d, Py_NewRef(*dq_slot(d, at)), 0) < 0) {
                return NULL;
            }
        }
    }
    return Py_NewRef(self);
}

static PyObject *
deque_repeat(PyObject *self, Py_ssize_t n)
{
    PyObject *res = deque_copy(self, NULL);
    if (res == NULL) {
        return NULL;
    }
    PyObject *r = deque_inplace_repeat(res, n);
    Py_DECREF(res);
    return r;
}

static PyObject *
deque_repr(PyObject *self)
{
    const char *name = _PyType_Name(Py_TYPE(self));
    int busy = Py_ReprEnter(self);
    if (busy != 0) {
        return busy > 0 ? PyUnicode_FromString("[...]") : NULL;
    }
    PyObject *items = PySequence_List(self);
    PyObject *res = NULL;
    if (items != NULL) {
        if (DQ(self)->maxlen >= 0) {
            res = PyUnicode_FromFormat("%s(%R, maxlen=%zd)", name, items, DQ(self)->maxlen);
        }
        else {
            res = PyUnicode_FromFormat("%s(%R)", name, items);
        }
        Py_DECREF(items);
    }
    Py_ReprLeave(self);
    return res;
}

/* Compare like lists: the first unequal pair decides, else the lengths. */
static PyObject *
deque_richcompare(PyObject *v, PyObject *w, int op)
{
    if (!IsDeque(v) || !IsDeque(w)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    dequeobject *a = DQ(v), *b = DQ(w);
    if ((op == Py_EQ || op == Py_NE) && a->len != b->len) {
        return PyBool_FromLong(op == Py_NE);
    }
    size_t sa = a->state, sb = b->state;
    Py_ssize_t i = 0;
    for (; i < a->len && i < b->len; i++) {
        PyObject *x = Py_NewRef(*dq_slot(a, i)), *y = Py_NewRef(*dq_slot(b, i));
        int eq = PyObject_RichCompareBool(x, y, Py_EQ);
        if (eq == 0) {
            PyObject *res = PyObject_RichCompare(x, y, op);
            Py_DECREF(x);
            Py_DECREF(y);
            return res;
        }
        Py_DECREF(x);
        Py_DECREF(y);
        if (eq < 0) {
            return NULL;
        }
        if (a->state != sa || b->state != sb) {
            PyErr_SetString(PyExc_RuntimeError, "deque mutated during iteration");
            return NULL;
        }
    }
    Py_ssize_t la = a->len, lb = b->len;
    Py_RETURN_RICHCOMPARE(la, lb, op);
}

static int
deque_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"iterable", "maxlen", NULL};
    PyObject *iterable = NULL, *maxobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:deque", kwlist, &iterable, &maxobj)) {
        return -1;
    }
    Py_ssize_t maxlen = -1;
    if (maxobj != Py_None) {
        maxlen = PyNumber_AsSsize_t(maxobj, PyExc_OverflowError);
        if (maxlen == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (maxlen < 0) {
            PyErr_SetString(PyExc_ValueError, "maxlen must be non-negative");
            return -1;
        }
    }
    dequeobject *d = DQ(self);
    d->maxlen = maxlen;
    if (d->len > 0) {
        dq_clear_all(d);
    }
    if (iterable != NULL) {
        return dq_extend(d, iterable, 0);
    }
    return 0;
}

static PyObject *
deque_get_maxlen(PyObject *self, void *closure)
{
    if (DQ(self)->maxlen < 0) {
        Py_RETURN_NONE;
    }
    return PyLong_FromSsize_t(DQ(self)->maxlen);
}

static PyObject *
deque_sizeof(PyObject *self, PyObject *unused)
{
    size_t size = Py_TYPE(self)->tp_basicsize + DQ(self)->cap * sizeof(PyObject *);
    return PyLong_FromSize_t(size);
}

static PyObject *make_deque_iter(PyTypeObject *kind, dequeobject *d);

static PyObject *
deque_iter(PyObject *self)
{
    return make_deque_iter(&dequeiter_type, DQ(self));
}

static PyObject *
deque_reversed(PyObject *self, PyObject *unused)
{
    return make_deque_iter(&dequerev_type, DQ(self));
}

/* (type, args, state, iterator): state is the instance __dict__, if any. */
static PyObject *
deque_reduce(PyObject *self, PyObject *unused)
{
    PyObject *state;
    if (PyObject_GetOptionalAttrString(self, "__dict__", &state) < 0) {
        return NULL;
    }
    if (state == NULL) {
        state = Py_NewRef(Py_None);
    }
    PyObject *ctor_args = DQ(self)->maxlen < 0 ? PyTuple_New(0)
                                               : Py_BuildValue("(()n)", DQ(self)->maxlen);
    PyObject *it = ctor_args ? PyObject_GetIter(self) : NULL;
    PyObject *res = NULL;
    if (it != NULL) {
        res = PyTuple_Pack(4, (PyObject *)Py_TYPE(self), ctor_args, state, it);
    }
    Py_XDECREF(it);
    Py_XDECREF(ctor_args);
    Py_DECREF(state);
    return res;
}

static PyMethodDef deque_methods[] = {
    {"append", deque_append, METH_O, "Add an item at the right end."},
    {"appendleft", deque_appendleft, METH_O, "Add an item at the left end."},
    {"clear", deque_clear_method, METH_NOARGS, "Remove every item."},
    {"copy", deque_copy, METH_NOARGS, "A shallow copy."},
    {"__copy__", deque_copy, METH_NOARGS, "A shallow copy."},
    {"count", deque_count, METH_O, "How many items equal the value."},
    {"extend", deque_extend, METH_O, "Append the iterable's items at the right."},
    {"extendleft", deque_extendleft, METH_O, "Append the iterable's items at the left, one by one."},
    {"index", (PyCFunction)(void (*)(void))deque_index, METH_FASTCALL,
     "index(value, [start, [stop]])\n--\n\nPosition of the first item equal to value."},
    {"insert", (PyCFunction)(void (*)(void))deque_insert, METH_FASTCALL,
     "insert(index, value, /)\n--\n\nPut value before position index."},
    {"pop", deque_pop, METH_NOARGS, "Remove and return the rightmost item."},
    {"popleft", deque_popleft, METH_NOARGS, "Remove and return the leftmost item."},
    {"remove", deque_remove, METH_O, "Remove the first item equal to the value."},
    {"reverse", deque_reverse, METH_NOARGS, "Reverse the items in place."},
    {"rotate", (PyCFunction)(void (*)(void))deque_rotate, METH_FASTCALL,
     "rotate(n=1, /)\n--\n\nShift the items n steps right (left if n is negative)."},
    {"__reversed__", deque_reversed, METH_NOARGS, "An iterator from right to left."},
    {"__reduce__", deque_reduce, METH_NOARGS, "Pickle support."},
    {"__sizeof__", deque_sizeof, METH_NOARGS, "Memory used, in bytes."},
    CLASS_GETITEM_ENTRY
    {NULL, NULL},
};

static PyGetSetDef deque_getset[] = {
    {"maxlen", deque_get_maxlen, NULL, "The bound on the length, or None.", NULL},
    {NULL},
};

static PySequenceMethods deque_as_sequence = {
    .sq_length = deque_length,
    .sq_concat = deque_concat,
    .sq_repeat = deque_repeat,
    .sq_item = deque_item,
    .sq_ass_item = deque_ass_item,
    .sq_contains = deque_contains,
    .sq_inplace_concat = deque_inplace_concat,
    .sq_inplace_repeat = deque_inplace_repeat,
};

static PyTypeObject deque_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "collections.deque",
    .tp_basicsize = sizeof(dequeobject),
    .tp_dealloc = deque_dealloc,
    .tp_repr = deque_repr,
    .tp_as_sequence = &deque_as_sequence,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_SEQUENCE,
    .tp_doc = "deque([iterable[, maxlen]])\n--\n\n"
              "A double-ended queue: fast appends and pops at both ends, optionally bounded.",
    .tp_traverse = deque_traverse,
    .tp_clear = deque_tp_clear,
    .tp_richcompare = deque_richcompare,
    .tp_weaklistoffset = offsetof(dequeobject, weakrefs),
    .tp_iter = deque_iter,
    .tp_methods = deque_methods,
    .tp_getset = deque_getset,
    .tp_init = deque_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = deque_new,
    .tp_free = PyObject_GC_Del,
};

/* ---- deque iterators -------------------------------------------------------------------
   `pos` counts the items already produced; the reverse kind reads from the
   right.  A change of the deque's state ends the iteration with an error. */

typedef struct {
    PyObject_HEAD
    dequeobject *deque;
    Py_ssize_t pos;
    Py_ssize_t left; /* items still to produce */
    size_t state;
} dequeiterobject;

static PyObject *
make_deque_iter(PyTypeObject *kind, dequeobject *d)
{
    dequeiterobject *it = PyObject_GC_New(dequeiterobject, kind);
    if (it == NULL) {
        return NULL;
    }
    it->deque = (dequeobject *)Py_NewRef(d);
    it->pos = 0;
    it->left = d->len;
    it->state = d->state;
    PyObject_GC_Track((PyObject *)it);
    return (PyObject *)it;
}

static PyObject *
dequeiter_step(PyObject *self, int reverse)
{
    dequeiterobject *it = (dequeiterobject *)self;
    dequeobject *d = it->deque;
    if (d->state != it->state) {
        it->left = 0;
        PyErr_SetString(PyExc_RuntimeError, "deque mutated during iteration");
        return NULL;
    }
    if (it->left <= 0) {
        return NULL;
    }
    Py_ssize_t i = reverse ? d->len - 1 - it->pos : it->pos;
    it->pos++;
    it->left--;
    return Py_NewRef(*dq_slot(d, i));
}

static PyObject *
dequeiter_next(PyObject *self)
{
    return dequeiter_step(self, 0);
}

static PyObject *
dequerev_next(PyObject *self)
{
    return dequeiter_step(self, 1);
}

/* _deque_iterator(deque, index=0): an iterator already `index` items in. */
static PyObject *
dequeiter_new_common(PyTypeObject *kind, PyObject *args, PyObject *kwds)
{
    PyObject *d;
    Py_ssize_t skip = 0;
    if (!_PyArg_NoKeywords(kind->tp_name, kwds) || !PyArg_ParseTuple(args, "O!|n", &deque_type, &d, &skip)) {
        return NULL;
    }
    dequeiterobject *it = (dequeiterobject *)make_deque_iter(kind, DQ(d));
    if (it == NULL) {
        return NULL;
    }
    if (skip > it->left) {
        skip = it->left;
    }
    if (skip > 0) {
        it->pos = skip;
        it->left -= skip;
    }
    return (PyObject *)it;
}

static PyObject *
dequeiter_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return dequeiter_new_common(&dequeiter_type, args, kwds);
}

static PyObject *
dequerev_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return dequeiter_new_common(&dequerev_type, args, kwds);
}

static void
dequeiter_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_XDECREF(((dequeiterobject *)self)->deque);
    PyObject_GC_Del(self);
}

static int
dequeiter_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((dequeiterobject *)self)->deque);
    return 0;
}

static PyObject *
dequeiter_length_hint(PyObject *self, PyObject *unused)
{
    dequeiterobject *it = (dequeiterobject *)self;
    return PyLong_FromSsize_t(it->deque->state == it->state ? it->left : 0);
}

static PyObject *
dequeiter_reduce(PyObject *self, PyObject *unused)
{
    dequeiterobject *it = (dequeiterobject *)self;
    return Py_BuildValue("O(On)", (PyObject *)Py_TYPE(self), (PyObject *)it->deque,
                         it->deque->len - it->left);
}

static PyMethodDef dequeiter_methods[] = {
    {"__length_hint__", dequeiter_length_hint, METH_NOARGS, "How many items remain."},
    {"__reduce__", dequeiter_reduce, METH_NOARGS, "Pickle support."},
    {NULL, NULL},
};

static PyTypeObject dequeiter_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "collections._deque_iterator",
    .tp_basicsize = sizeof(dequeiterobject),
    .tp_dealloc = dequeiter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Iterator over a deque, left to right.",
    .tp_traverse = dequeiter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = dequeiter_next,
    .tp_methods = dequeiter_methods,
    .tp_new = dequeiter_new,
    .tp_free = PyObject_GC_Del,
};

static PyTypeObject dequerev_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "collections._deque_reverse_iterator",
    .tp_basicsize = sizeof(dequeiterobject),
    .tp_dealloc = dequeiter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Iterator over a deque, right to left.",
    .tp_traverse = dequeiter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = dequerev_next,
    .tp_methods = dequeiter_methods,
    .tp_new = dequerev_new,
    .tp_free = PyObject_GC_Del,
};

/* ---- defaultdict ----------------------------------------------------------------------- */

typedef struct {
    PyDictObject dict;
    PyObject *default_factory;
} defdictobject;

static PyTypeObject defdict_type;

#define DD(op) ((defdictobject *)(op))

static PyObject *
defdict_missing(PyObject *self, PyObject *key)
{
    PyObject *factory = DD(self)->default_factory;
    if (factory == NULL || factory == Py_None) {
        PyObject *boxed = PyTuple_Pack(1, key);
        if (boxed != NULL) {
            PyErr_SetObject(PyExc_KeyError, boxed);
            Py_DECREF(boxed);
        }
        return NULL;
    }
    PyObject *value = PyObject_CallNoArgs(factory);
    if (value == NULL) {
        return NULL;
    }
    if (PyObject_SetItem(self, key, value) < 0) {
        Py_DECREF(value);
        return NULL;
    }
    return value;
}

/* type(self)(factory, self): the copy keeps the subclass. */
static PyObject *
defdict_copy(PyObject *self, PyObject *unused)
{
    PyObject *factory = DD(self)->default_factory ? DD(self)->default_factory : Py_None;
    return PyObject_CallFunctionObjArgs((PyObject *)Py_TYPE(self), factory, self, NULL);
}

static PyObject *
defdict_reduce(PyObject *self, PyObject *unused)
{
    PyObject *factory = DD(self)->default_factory;
    PyObject *ctor_args = factory && factory != Py_None ? PyTuple_Pack(1, factory) : PyTuple_New(0);
    if (ctor_args == NULL) {
        return NULL;
    }
    PyObject *items = PyObject_CallMethod(self, "items", NULL);
    PyObject *it = items ? PyObject_GetIter(items) : NULL;
    Py_XDECREF(items);
    PyObject *res = NULL;
    if (it != NULL) {
        res = PyTuple_Pack(5, (PyObject *)Py_TYPE(self), ctor_args, Py_None, Py_None, it);
        Py_DECREF(it);
    }
    Py_DECREF(ctor_args);
    return res;
}

static PyObject *
defdict_repr(PyObject *self)
{
    PyObject *body = PyDict_Type.tp_repr(self);
    if (body == NULL) {
        return NULL;
    }
    PyObject *factory = DD(self)->default_factory;
    PyObject *frepr;
    if (factory == NULL || factory == Py_None) {
        frepr = PyUnicode_FromString("None");
    }
    else {
        /* A factory whose repr shows this dict again must not loop. */
        int busy = Py_ReprEnter(factory);
        if (busy != 0) {
            frepr = busy > 0 ? PyUnicode_FromString("...") : NULL;
        }
        else {
            frepr = PyObject_Repr(factory);
            Py_ReprLeave(factory);
        }
    }
    PyObject *res = NULL;
    if (frepr != NULL) {
        res = PyUnicode_FromFormat("%s(%U, %U)", _PyType_Name(Py_TYPE(self)), frepr, body);
        Py_DECREF(frepr);
    }
    Py_DECREF(body);
    return res;
}

/* d | other and other | d: a new defaultdict of d's type and factory
   holding left's items updated by right's. */
static PyObject *
defdict_or(PyObject *left, PyObject *right)
{
    PyObject *dd = PyObject_TypeCheck(left, &defdict_type) ? left : right;
    PyObject *other = dd == left ? right : left;
    if (!PyDict_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *factory = DD(dd)->default_factory ? DD(dd)->default_factory : Py_None;
    PyObject *res = PyObject_CallFunctionObjArgs((PyObject *)Py_TYPE(dd), factory, left, NULL);
    if (res != NULL && PyDict_Update(res, right) < 0) {
        Py_CLEAR(res);
    }
    return res;
}

static int
defdict_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *factory = Py_None;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n > 0) {
        factory = PyTuple_GET_ITEM(args, 0);
        if (factory != Py_None && !PyCallable_Check(factory)) {
            PyErr_SetString(PyExc_TypeError, "first argument must be callable or None");
            return -1;
        }
    }
    Py_XSETREF(DD(self)->default_factory, Py_NewRef(factory));
    PyObject *rest = PyTuple_GetSlice(args, n > 0 ? 1 : 0, n);
    if (rest == NULL) {
        return -1;
    }
    int r = PyDict_Type.tp_init(self, rest, kwds);
    Py_DECREF(rest);
    return r;
}

static int
defdict_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(DD(self)->default_factory);
    return PyDict_Type.tp_traverse(self, visit, arg);
}

static int
defdict_tp_clear(PyObject *self)
{
    Py_CLEAR(DD(self)->default_factory);
    return PyDict_Type.tp_clear(self);
}

static void
defdict_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(DD(self)->default_factory);
    PyDict_Type.tp_dealloc(self);
}

static PyMethodDef defdict_methods[] = {
    {"__missing__", defdict_missing, METH_O,
     "__missing__(key)\n--\n\nStore and return default_factory() for a missing key, "
     "or raise KeyError when there is no factory."},
    {"copy", defdict_copy, METH_NOARGS, "A shallow copy, same factory."},
    {"__copy__", defdict_copy, METH_NOARGS, "A shallow copy, same factory."},
    {"__reduce__", defdict_reduce, METH_NOARGS, "Pickle support."},
    CLASS_GETITEM_ENTRY
    {NULL, NULL},
};

static PyMemberDef defdict_members[] = {
    {"default_factory", T_OBJECT, offsetof(defdictobject, default_factory), 0,
     "Called without arguments to supply the value of a missing key."},
    {NULL},
};

static PyNumberMethods defdict_as_number = {
    .nb_or = defdict_or,
};

static PyTypeObject defdict_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "collections.defaultdict",
    .tp_basicsize = sizeof(defdictobject),
    .tp_dealloc = defdict_dealloc,
    .tp_repr = defdict_repr,
    .tp_as_number = &defdict_as_number,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "defaultdict(default_factory=None, /, [...])\n--\n\n"
              "A dict that fills in missing keys with default_factory().",
    .tp_traverse = defdict_traverse,
    .tp_clear = defdict_tp_clear,
    .tp_methods = defdict_methods,
    .tp_members = defdict_members,
    .tp_init = defdict_init,
    .tp_free = PyObject_GC_Del,
};

/* ---- _tuplegetter(index, doc) ------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Py_ssize_t index;
    PyObject *doc;
} tuplegetterobject;

static PyObject *
tuplegetter_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    Py_ssize_t index;
    PyObject *doc;
    if (!_PyArg_NoKeywords("_tuplegetter", kwds) || !PyArg_ParseTuple(args, "nO:_tuplegetter", &index, &doc)) {
        return NULL;
    }
    tuplegetterobject *tg = (tuplegetterobject *)type->tp_alloc(type, 0);
    if (tg == NULL) {
        return NULL;
    }
    tg->index = index;
    tg->doc = Py_NewRef(doc);
    return (PyObject *)tg;
}

static PyObject *
tuplegetter_get(PyObject *self, PyObject *obj, PyObject *type)
{
    tuplegetterobject *tg = (tuplegetterobject *)self;
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    if (!PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "descriptor for index '%zd' for tuple subclasses doesn't apply to '%s' object",
                     tg->index, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    if (tg->index < 0 || tg->index >= PyTuple_GET_SIZE(obj)) {
        PyErr_SetString(PyExc_IndexError, "tuple index out of range");
        return NULL;
    }
    return Py_NewRef(PyTuple_GET_ITEM(obj, tg->index));
}

static int
tuplegetter_set(PyObject *self, PyObject *obj, PyObject *value)
{
    PyErr_SetString(PyExc_AttributeError, value ? "can't set attribute" : "can't delete attribute");
    return -1;
}

static void
tuplegetter_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_XDECREF(((tuplegetterobject *)self)->doc);
    Py_TYPE(self)->tp_free(self);
}

static int
tuplegetter_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((tuplegetterobject *)self)->doc);
    return 0;
}

static PyObject *
tuplegetter_reduce(PyObject *self, PyObject *unused)
{
    tuplegetterobject *tg = (tuplegetterobject *)self;
    return Py_BuildValue("O(nO)", (PyObject *)Py_TYPE(self), tg->index, tg->doc);
}

static PyMethodDef tuplegetter_methods[] = {
    {"__reduce__", tuplegetter_reduce, METH_NOARGS, "Pickle support."},
    {NULL, NULL},
};

static PyMemberDef tuplegetter_members[] = {
    {"__doc__", T_OBJECT, offsetof(tuplegetterobject, doc), 0, NULL},
    {NULL},
};

static PyTypeObject tuplegetter_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "collections._tuplegetter",
    .tp_basicsize = sizeof(tuplegetterobject),
    .tp_dealloc = tuplegetter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_traverse = tuplegetter_traverse,
    .tp_methods = tuplegetter_methods,
    .tp_members = tuplegetter_members,
    .tp_descr_get = tuplegetter_get,
    .tp_descr_set = tuplegetter_set,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = tuplegetter_new,
    .tp_free = PyObject_GC_Del,
};

/* ---- _count_elements(mapping, iterable) -------------------------------------------------- */

/* mapping[x] = mapping.get(x, 0) + 1 for each x. */
static int
count_one(PyObject *mapping, PyObject *x, PyObject *one)
{
    PyObject *old = NULL;
    int found;
    if (PyDict_CheckExact(mapping)) {
        found = PyDict_GetItemRef(mapping, x, &old);
    }
    else {
        old = PyObject_CallMethod(mapping, "get", "O", x);
        found = old == NULL ? -1 : old != Py_None;
        if (found == 0) {
            Py_CLEAR(old);
        }
    }
    if (found < 0) {
        return -1;
    }
    PyObject *updated = found ? PyNumber_Add(old, one) : Py_NewRef(one);
    Py_XDECREF(old);
    if (updated == NULL) {
        return -1;
    }
    int r = PyObject_SetItem(mapping, x, updated);
    Py_DECREF(updated);
    return r;
}

static PyObject *
collections_count_elements(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("_count_elements", nargs, 2, 2)) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(args[1]);
    if (it == NULL) {
        return NULL;
    }
    PyObject *one = PyLong_FromLong(1);
    PyObject *x;
    int r = one ? 1 : -1;
    while (r > 0 && (r = PyIter_NextItem(it, &x)) > 0) {
        if (count_one(args[0], x, one) < 0) {
            r = -1;
        }
        Py_DECREF(x);
    }
    Py_XDECREF(one);
    Py_DECREF(it);
    if (r < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- The module ------------------------------------------------------------------------- */

static PyMethodDef collections_functions[] = {
    {"_count_elements", (PyCFunction)(void (*)(void))collections_count_elements, METH_FASTCALL,
     "_count_elements(mapping, iterable, /)\n--\n\nAdd one to mapping[x] for each x of the iterable."},
    {NULL, NULL},
};

static struct PyModuleDef collections_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_collections",
    .m_doc = "High performance container types for the collections package.",
    .m_size = 0,
    .m_methods = collections_functions,
};

PyMODINIT_FUNC
PyInit__collections(void)
{
    PyTypeObject *types[] = {&deque_type, &dequeiter_type, &dequerev_type, &defdict_type,
                             &tuplegetter_type, NULL};
    defdict_type.tp_base = &PyDict_Type;
    PyObject *m = PyModule_Create(&collections_module);
    if (m == NULL) {
        return NULL;
    }
    for (PyTypeObject **tp = types; *tp != NULL; tp++) {
        if (_PyStaticType_InitBuiltin(*tp) < 0 || PyModule_AddType(m, *tp) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
