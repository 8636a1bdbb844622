/* range: an immutable arithmetic progression, and its iterators.

   A range keeps start, stop, step and its length as Python ints, so any
   size works.  When every value involved fits in a C long (the usual
   case) the object also caches C copies and iterates without int
   arithmetic; see pycore_range.h. */
#include "Python.h"
#include "pycore_object.h"
#include "pycore_long.h"
#include "pycore_range.h"
#include "pycore_tuple.h"
#include "pycore_slice.h"

typedef _PyRangeObject rangeobject;


/* ---- Length and construction --------------------------------------------- */

/* Number of items: for step > 0 and lo < hi it is (hi - lo - 1) // step + 1,
   and symmetrically for step < 0; zero otherwise. */
static PyObject *
compute_range_length(PyObject *start, PyObject *stop, PyObject *step)
{
    int overflow = 0;
    long lstart = PyLong_AsLongAndOverflow(start, &overflow);
    long lstop = overflow ? 0 : PyLong_AsLongAndOverflow(stop, &overflow);
    long lstep = overflow ? 0 : PyLong_AsLongAndOverflow(step, &overflow);
    if (!overflow && !PyErr_Occurred()) {
        unsigned long ulen = 0;
        if (lstep > 0 && lstart < lstop) {
            ulen = ((unsigned long)lstop - (unsigned long)lstart - 1) / (unsigned long)lstep + 1;
        }
        else if (lstep < 0 && lstart > lstop) {
            ulen = ((unsigned long)lstart - (unsigned long)lstop - 1) /
                       (0UL - (unsigned long)lstep) + 1;
        }
        return PyLong_FromUnsignedLong(ulen);
    }
    if (PyErr_Occurred()) {
        return NULL;
    }

    PyObject *lo, *hi, *diff = NULL, *tmp = NULL, *result = NULL, *one = NULL;
    int cmp = PyObject_RichCompareBool(step, _PyLong_GetZero(), Py_GT);
    if (cmp < 0) {
        return NULL;
    }
    if (cmp) {
        lo = start;
        hi = stop;
        step = Py_NewRef(step);
    }
    else {
        lo = stop;
        hi = start;
        step = PyNumber_Negative(step);
        if (step == NULL) {
            return NULL;
        }
    }
    cmp = PyObject_RichCompareBool(lo, hi, Py_GE);
    if (cmp < 0) {
        goto done;
    }
    if (cmp) {
        result = PyLong_FromLong(0);
        goto done;
    }
    one = PyLong_FromLong(1);
    if (one == NULL || (diff = PyNumber_Subtract(hi, lo)) == NULL ||
        (tmp = PyNumber_Subtract(diff, one)) == NULL) {
        goto done;
    }
    Py_SETREF(diff, PyNumber_FloorDivide(tmp, step));
    if (diff == NULL) {
        goto done;
    }
    result = PyNumber_Add(diff, one);

done:
    Py_DECREF(step);
    Py_XDECREF(one);
    Py_XDECREF(diff);
    Py_XDECREF(tmp);
    return result;
}

/* Fill the C copies if start + len*step (and everything in between) fits
   in a long. */
static void
range_compute_small(rangeobject *r)
{
    int overflow = 0;
    r->small = 0;
    long start = PyLong_AsLongAndOverflow(r->start, &overflow);
    if (overflow) {
        return;
    }
    long step = PyLong_AsLongAndOverflow(r->step, &overflow);
    if (overflow) {
        return;
    }
    long len = PyLong_AsLongAndOverflow(r->length, &overflow);
    if (overflow) {
        return;
    }
    long span;
    if (__builtin_mul_overflow(len, step, &span)) {
        return;
    }
    long end;
    if (__builtin_add_overflow(start, span, &end)) {
        return;
    }
    r->c_start = start;
    r->c_step = step;
    r->c_len = len;
    r->small = 1;
}

/* Steals all three. */
static rangeobject *
make_range_object(PyTypeObject *type, PyObject *start, PyObject *stop, PyObject *step)
{
    PyObject *length = compute_range_length(start, stop, step);
    if (length == NULL) {
        goto error;
    }
    rangeobject *obj = PyObject_New(rangeobject, type);
    if (obj == NULL) {
        Py_DECREF(length);
        goto error;
    }
    obj->start = start;
    obj->stop = stop;
    obj->step = step;
    obj->length = length;
    range_compute_small(obj);
    return obj;

error:
    Py_DECREF(start);
    Py_DECREF(stop);
    Py_DECREF(step);
    return NULL;
}

static PyObject *
validate_step(PyObject *step)
{
    if (step == NULL) {
        return PyLong_FromLong(1);
    }
    step = PyNumber_Index(step);
    if (step != NULL && _PyLong_Sign(step) == 0) {
        PyErr_SetString(PyExc_ValueError, "range() arg 3 must not be zero");
        Py_CLEAR(step);
    }
    return step;
}

static PyObject *
range_from_array(PyTypeObject *type, PyObject *const *args, Py_ssize_t num_args)
{
    PyObject *start = NULL, *stop = NULL, *step = NULL;
    switch (num_args) {
    case 3:
        step = args[2];
        _Py_FALLTHROUGH;
    case 2:
        start = PyNumber_Index(args[0]);
        if (start == NULL) {
            return NULL;
        }
        stop = PyNumber_Index(args[1]);
        if (stop == NULL) {
            Py_DECREF(start);
            return NULL;
        }
        step = validate_step(step);
        if (step == NULL) {
            Py_DECREF(start);
            Py_DECREF(stop);
            return NULL;
        }
        break;
    case 1:
        stop = PyNumber_Index(args[0]);
        if (stop == NULL) {
            return NULL;
        }
        start = PyLong_FromLong(0);
        step = PyLong_FromLong(1);
        if (start == NULL || step == NULL) {
            Py_XDECREF(start);
            Py_XDECREF(step);
            Py_DECREF(stop);
            return NULL;
        }
        break;
    case 0:
        PyErr_SetString(PyExc_TypeError, "range expected at least 1 argument, got 0");
        return NULL;
    default:
        PyErr_Format(PyExc_TypeError, "range expected at most 3 arguments, got %zd", num_args);
        return NULL;
    }
    return (PyObject *)make_range_object(type, start, stop, step);
}

static PyObject *
range_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    if (kw != NULL && PyDict_GET_SIZE(kw) != 0) {
        PyErr_SetString(PyExc_TypeError, "range() takes no keyword arguments");
        return NULL;
    }
    return range_from_array(type, _PyTuple_ITEMS(args), PyTuple_GET_SIZE(args));
}

static PyObject *
range_vectorcall(PyObject *rangetype, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        PyErr_SetString(PyExc_TypeError, "range() takes no keyword arguments");
        return NULL;
    }
    return range_from_array((PyTypeObject *)rangetype, args, PyVectorcall_NARGS(nargsf));
}

static void
range_dealloc(PyObject *op)
{
    rangeobject *r = (rangeobject *)op;
    Py_DECREF(r->start);
    Py_DECREF(r->stop);
    Py_DECREF(r->step);
    Py_DECREF(r->length);
    PyObject_Free(op);
}

/* ---- Items ------------------------------------------------------------------ */

/* start + i * step for an int i already known to be in range. */
static PyObject *
compute_item(rangeobject *r, PyObject *i)
{
    if (r->small) {
        int overflow;
        long li = PyLong_AsLongAndOverflow(i, &overflow), span, item;
        if (!overflow && !__builtin_mul_overflow(li, r->c_step, &span) &&
            !__builtin_add_overflow(r->c_start, span, &item)) {
            return PyLong_FromLong(item);
        }
    }
    PyObject *incr = PyNumber_Multiply(i, r->step);
    if (incr == NULL) {
        return NULL;
    }
    PyObject *res = PyNumber_Add(r->start, incr);
    Py_DECREF(incr);
    return res;
}

/* Item for an index that may be negative; IndexError when out of range. */
static PyObject *
compute_range_item(rangeobject *r, PyObject *arg)
{
    PyObject *i;
    int cmp;
    if (_PyLong_Sign(arg) < 0) {
        i = PyNumber_Add(r->length, arg);
        if (i == NULL) {
            return NULL;
        }
        cmp = _PyLong_Sign(i) < 0;
    }
    else {
        i = Py_NewRef(arg);
        cmp = PyObject_RichCompareBool(r->length, i, Py_LE);
        if (cmp < 0) {
            Py_DECREF(i);
            return NULL;
        }
    }
    if (cmp) {
        Py_DECREF(i);
        PyErr_SetString(PyExc_IndexError, "range object index out of range");
        return NULL;
    }
    PyObject *res = compute_item(r, i);
    Py_DECREF(i);
    return res;
}

static PyObject *
range_item(PyObject *op, Py_ssize_t i)
{
    rangeobject *r = (rangeobject *)op;
    if (r->small) {
        if (i < 0 || i >= r->c_len) {
            PyErr_SetString(PyExc_IndexError, "range object index out of range");
            return NULL;
        }
        return PyLong_FromLong(r->c_start + (long)i * r->c_step);
    }
    PyObject *arg = PyLong_FromSsize_t(i);
    if (arg == NULL) {
        return NULL;
    }
    PyObject *res = compute_range_item(r, arg);
    Py_DECREF(arg);
    return res;
}

Py_ssize_t
_PyRange_Length(PyObject *op)
{
    return PyLong_AsSsize_t(((rangeobject *)op)->length);
}

static Py_ssize_t
range_length(PyObject *op)
{
    return _PyRange_Length(op);
}

static int
range_bool(PyObject *op)
{
    return _PyLong_Sign(((rangeobject *)op)->length) != 0;
}

/* r[slice]: another range, computed with ints so any size works. */
static PyObject *
compute_slice(rangeobject *r, PyObject *slice)
{
    PyObject *start = NULL, *stop = NULL, *step = NULL;
    PyObject *substart = NULL, *substop = NULL, *substep = NULL;

    if (_PySlice_GetLongIndices((PySliceObject *)slice, r->length, &start, &stop, &step) < 0) {
        return NULL;
    }
    substep = PyNumber_Multiply(r->step, step);
    if (substep == NULL) {
        goto error;
    }
    Py_CLEAR(step);
    substart = compute_item(r, start);
    if (substart == NULL) {
        goto error;
    }
    Py_CLEAR(start);
    substop = compute_item(r, stop);
    if (substop == NULL) {
        goto error;
    }
    Py_CLEAR(stop);
    return (PyObject *)make_range_object(Py_TYPE(r), substart, substop, substep);

error:
    Py_XDECREF(start);
    Py_XDECREF(stop);
    Py_XDECREF(step);
    Py_XDECREF(substart);
    Py_XDECREF(substop);
    Py_XDECREF(substep);
    return NULL;
}

static PyObject *
range_subscript(PyObject *op, PyObject *item)
{
    rangeobject *self = (rangeobject *)op;
    if (PyLong_CheckExact(item) && self->small) {
        int overflow;
        long i = PyLong_AsLongAndOverflow(item, &overflow);
        if (!overflow) {
            if (i < 0) {
                i += self->c_len;
            }
            if (i < 0 || i >= self->c_len) {
                PyErr_SetString(PyExc_IndexError, "range object index out of range");
                return NULL;
            }
            return PyLong_FromLong(self->c_start + i * self->c_step);
        }
    }
    if (PyIndex_Check(item)) {
        PyObject *i = PyNumber_Index(item);
        if (i == NULL) {
            return NULL;
        }
        PyObject *res = compute_range_item(self, i);
        Py_DECREF(i);
        return res;
    }
    if (PySlice_Check(item)) {
        return compute_slice(self, item);
    }
    PyErr_Format(PyExc_TypeError, "range indices must be integers or slices, not %.200s",
                 Py_TYPE(item)->tp_name);
    return NULL;
}

/* ---- Membership, index, count ------------------------------------------------ */

/* Exact ints (and bools) are tested arithmetically; anything else falls
   back to comparing against every item, like any sequence. */
static int
range_contains_long(rangeobject *r, PyObject *ob)
{
    PyObject *zero = _PyLong_GetZero();
    int cmp1, cmp2, cmp3;
    PyObject *tmp1 = NULL, *tmp2 = NULL;
    int result = -1;

    /* within the bounds? */
    cmp1 = PyObject_RichCompareBool(r->step, zero, Py_GT);
    if (cmp1 == -1) {
        goto end;
    }
    if (cmp1) {
        cmp2 = PyObject_RichCompareBool(r->start, ob, Py_LE);
        cmp3 = PyObject_RichCompareBool(ob, r->stop, Py_LT);
    }
    else {
        cmp2 = PyObject_RichCompareBool(ob, r->start, Py_LE);
        cmp3 = PyObject_RichCompareBool(r->stop, ob, Py_LT);
    }
    if (cmp2 == -1 || cmp3 == -1) {
        goto end;
    }
    if (!cmp2 || !cmp3) {
        result = 0;
        goto end;
    }
    /* on the grid? */
    tmp1 = PyNumber_Subtract(ob, r->start);
    if (tmp1 == NULL) {
        goto end;
    }
    tmp2 = PyNumber_Remainder(tmp1, r->step);
    if (tmp2 == NULL) {
        goto end;
    }
    result = _PyLong_Sign(tmp2) == 0;

end:
    Py_XDECREF(tmp1);
    Py_XDECREF(tmp2);
    return result;
}

static int
range_contains(PyObject *op, PyObject *ob)
{
    rangeobject *r = (rangeobject *)op;
    if (PyLong_CheckExact(ob) || PyBool_Check(ob)) {
        if (r->small) {
            int overflow;
            long v = PyLong_AsLongAndOverflow(ob, &overflow);
            if (overflow) {
                return 0;
            }
            if (r->c_len == 0) {
                return 0;
            }
            long first = r->c_start, step = r->c_step;
            long last = first + (r->c_len - 1) * step;
            if (step > 0 ? (v < first || v > last) : (v > first || v < last)) {
                return 0;
            }
            /* the difference fits: v lies between first and last */
            unsigned long diff = step > 0 ? (unsigned long)v - (unsigned long)first
                                          : (unsigned long)first - (unsigned long)v;
            unsigned long ustep = step > 0 ? (unsigned long)step : 0UL - (unsigned long)step;
            return diff % ustep == 0;
        }
        return range_contains_long(r, ob);
    }
    /* generic: scan */
    PyObject *it = PyObject_GetIter(op);
    if (it == NULL) {
        return -1;
    }
    int result = 0;
    PyObject *item;
    while ((item = PyIter_Next(it)) != NULL) {
        result = PyObject_RichCompareBool(item, ob, Py_EQ);
        Py_DECREF(item);
        if (result != 0) {
            break;
        }
    }
    Py_DECREF(it);
    if (result == 0 && PyErr_Occurred()) {
        return -1;
    }
    return result;
}

static PyObject *
range_count(PyObject *op, PyObject *ob)
{
    if (PyLong_CheckExact(ob) || PyBool_Check(ob)) {
        int result = range_contains(op, ob);
        if (result == -1) {
            return NULL;
        }
        return PyLong_FromLong(result);
    }
    Py_ssize_t count = PySequence_Count(op, ob);
    if (count == -1) {
        return NULL;
    }
    return PyLong_FromSsize_t(count);
}

static PyObject *
range_index(PyObject *op, PyObject *ob)
{
    rangeobject *r = (rangeobject *)op;
    if (!PyLong_CheckExact(ob) && !PyBool_Check(ob)) {
        Py_ssize_t index = PySequence_Index(op, ob);
        if (index < 0) {
            return NULL;
        }
        return PyLong_FromSsize_t(index);
    }
    int contains = range_contains(op, ob);
    if (contains == -1) {
        return NULL;
    }
    if (!contains) {
        PyErr_SetString(PyExc_ValueError, "range.index(x): x not in range");
        return NULL;
    }
    /* (ob - start) // step */
    PyObject *diff = PyNumber_Subtract(ob, r->start);
    if (diff == NULL) {
        return NULL;
    }
    PyObject *idx = PyNumber_FloorDivide(diff, r->step);
    Py_DECREF(diff);
    return idx;
}

/* ---- Comparison, hash, repr ----------------------------------------------------- */

/* Ranges compare as the sequences they produce: equal lengths, and for
   more than one item equal starts and steps (for one item, equal starts). */
static int
range_equals(rangeobject *r0, rangeobject *r1)
{
    if (r0 == r1) {
        return 1;
    }
    int cmp = PyObject_RichCompareBool(r0->length, r1->length, Py_EQ);
    if (cmp != 1) {
        return cmp;
    }
    if (_PyLong_Sign(r0->length) == 0) {
        return 1;
    }
    cmp = PyObject_RichCompareBool(r0->start, r1->start, Py_EQ);
    if (cmp != 1) {
        return cmp;
    }
    PyObject *one = PyLong_FromLong(1);
    if (one == NULL) {
        return -1;
    }
    cmp = PyObject_RichCompareBool(r0->length, one, Py_EQ);
    Py_DECREF(one);
    if (cmp != 0) {
        return cmp;
    }
    return PyObject_RichCompareBool(r0->step, r1->step, Py_EQ);
}

static PyObject *
range_richcompare(PyObject *self, PyObject *other, int op)
{
    if (!PyRange_Check(other) || !PyRange_Check(self)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    switch (op) {
    case Py_NE:
    case Py_EQ: {
        int result = range_equals((rangeobject *)self, (rangeobject *)other);
        if (result == -1) {
            return NULL;
        }
        if (op == Py_NE) {
            result = !result;
        }
        return PyBool_FromLong(result);
    }
    default:
        Py_RETURN_NOTIMPLEMENTED;
    }
}

/* hash((len, start, step)) with the parts that don't affect the produced
   sequence replaced by None, matching ==. */
static Py_hash_t
range_hash(PyObject *op)
{
    rangeobject *r = (rangeobject *)op;
    PyObject *t = PyTuple_New(3);
    if (t == NULL) {
        return -1;
    }
    PyTuple_SET_ITEM(t, 0, Py_NewRef(r->length));
    int is_empty = _PyLong_Sign(r->length) == 0;
    if (is_empty) {
        PyTuple_SET_ITEM(t, 1, Py_None);
        PyTuple_SET_ITEM(t, 2, Py_None);
    }
    else {
        PyTuple_SET_ITEM(t, 1, Py_NewRef(r->start));
        PyObject *one = PyLong_FromLong(1);
        if (one == NULL) {
            Py_DECREF(t);
            return -1;
        }
        int cmp = PyObject_RichCompareBool(r->length, one, Py_EQ);
        Py_DECREF(one);
        if (cmp == -1) {
            Py_DECREF(t);
            return -1;
        }
        PyTuple_SET_ITEM(t, 2, cmp ? Py_None : Py_NewRef(r->step));
    }
    Py_hash_t result = PyObject_Hash(t);
    Py_DECREF(t);
    return result;
}

static PyObject *
range_repr(PyObject *op)
{
    rangeobject *r = (rangeobject *)op;
    int cmp = PyObject_RichCompareBool(r->step, _PyLong_GetOne(), Py_EQ);
    if (cmp == -1) {
        return NULL;
    }
    if (cmp) {
        return PyUnicode_FromFormat("range(%R, %R)", r->start, r->stop);
    }
    return PyUnicode_FromFormat("range(%R, %R, %R)", r->start, r->stop, r->step);
}

static PyObject *
range_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    rangeobject *r = (rangeobject *)op;
    return Py_BuildValue("(O(OOO))", Py_TYPE(op), r->start, r->stop, r->step);
}

/* ---- Getters --------------------------------------------------------------------- */

static PyMemberDef range_members[] = {
    {"start", Py_T_OBJECT_EX, offsetof(rangeobject, start), Py_READONLY, NULL},
    {"stop", Py_T_OBJECT_EX, offsetof(rangeobject, stop), Py_READONLY, NULL},
    {"step", Py_T_OBJECT_EX, offsetof(rangeobject, step), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

/* ---- Iteration ---------------------------------------------------------------------- */

static int
range_iteritem(PyObject *op, Py_ssize_t index, PyObject **item, Py_ssize_t *next_index)
{
    rangeobject *r = (rangeobject *)op;
    if (r->small) {
        if (index >= r->c_len) {
            *item = NULL;
            return 0;
        }
        *item = PyLong_FromLong(r->c_start + (long)index * r->c_step);
    }
    else {
        PyObject *i = PyLong_FromSsize_t(index);
        if (i == NULL) {
            return -1;
        }
        int cmp = PyObject_RichCompareBool(i, r->length, Py_LT);
        if (cmp <= 0) {
            Py_DECREF(i);
            *item = NULL;
            return cmp;
        }
        *item = compute_item(r, i);
        Py_DECREF(i);
    }
    if (*item == NULL) {
        return -1;
    }
    *next_index = index + 1;
    return 1;
}

static void
rangeiter_dealloc(PyObject *op)
{
    PyObject_Free(op);
}

static PyObject *
rangeiter_next(PyObject *op)
{
    _PyRangeIterObject *r = (_PyRangeIterObject *)op;
    if (r->len > 0) {
        long result = r->start;
        r->start = result + r->step;
        r->len--;
        return PyLong_FromLong(result);
    }
    return NULL;
}

static PyObject *
rangeiter_len(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(((_PyRangeIterObject *)op)->len);
}

static PyObject *
rangeiter_setstate(PyObject *op, PyObject *state)
{
    _PyRangeIterObject *r = (_PyRangeIterObject *)op;
    long index = PyLong_AsLong(state);
    if (index == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (index < 0) {
        index = 0;
    }
    if (index > r->len) {
        index = r->len;
    }
    r->start += index * r->step;
    r->len -= index;
    Py_RETURN_NONE;
}

static PyMethodDef rangeiter_methods[] = {
    {"__length_hint__", rangeiter_len, METH_NOARGS,
     "Private method returning an estimate of len(list(it))."},
    {"__setstate__", rangeiter_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyRangeIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "range_iterator",
    .tp_basicsize = sizeof(_PyRangeIterObject),
    .tp_dealloc = rangeiter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = rangeiter_next,
    .tp_methods = rangeiter_methods,
};

static PyObject *
fast_range_iter(long start, long step, long len)
{
    _PyRangeIterObject *it = PyObject_New(_PyRangeIterObject, &PyRangeIter_Type);
    if (it == NULL) {
        return NULL;
    }
    it->start = start;
    it->step = step;
    it->len = len;
    return (PyObject *)it;
}

/* The iterator for ranges that don't fit in longs: all int arithmetic. */
typedef struct {
    PyObject_HEAD
    PyObject *start; /* next value */
    PyObject *step;
    PyObject *len;   /* remaining */
} longrangeiterobject;

static void
longrangeiter_dealloc(PyObject *op)
{
    longrangeiterobject *r = (longrangeiterobject *)op;
    Py_XDECREF(r->start);
    Py_XDECREF(r->step);
    Py_XDECREF(r->len);
    PyObject_Free(op);
}

static PyObject *
longrangeiter_next(PyObject *op)
{
    longrangeiterobject *r = (longrangeiterobject *)op;
    if (PyObject_RichCompareBool(r->len, _PyLong_GetZero(), Py_GT) != 1) {
        return NULL;
    }
    PyObject *new_start = PyNumber_Add(r->start, r->step);
    if (new_start == NULL) {
        return NULL;
    }
    PyObject *new_len = PyNumber_Subtract(r->len, _PyLong_GetOne());
    if (new_len == NULL) {
        Py_DECREF(new_start);
        return NULL;
    }
    PyObject *result = r->start;
    r->start = new_start;
    Py_SETREF(r->len, new_len);
    return result;
}

static PyObject *
longrangeiter_len(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return Py_NewRef(((longrangeiterobject *)op)->len);
}

static PyMethodDef longrangeiter_methods[] = {
    {"__length_hint__", longrangeiter_len, METH_NOARGS,
     "Private method returning an estimate of len(list(it))."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyLongRangeIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "longrange_iterator",
    .tp_basicsize = sizeof(longrangeiterobject),
    .tp_dealloc = longrangeiter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = longrangeiter_next,
    .tp_methods = longrangeiter_methods,
};

static PyObject *
long_range_iter(PyObject *start, PyObject *step, PyObject *len)
{
    longrangeiterobject *it = PyObject_New(longrangeiterobject, &PyLongRangeIter_Type);
    if (it == NULL) {
        return NULL;
    }
    it->start = Py_NewRef(start);
    it->step = Py_NewRef(step);
    it->len = Py_NewRef(len);
    return (PyObject *)it;
}

static PyObject *
range_iter(PyObject *op)
{
    rangeobject *r = (rangeobject *)op;
    if (r->small) {
        return fast_range_iter(r->c_start, r->c_step, r->c_len);
    }
    return long_range_iter(r->start, r->step, r->length);
}

static PyObject *
range_reverse(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    rangeobject *r = (rangeobject *)op;
    if (r->small) {
        /* last = start + (len-1)*step fits, and so does -step unless
           step == LONG_MIN (then len <= 1 and the step is never used
           for a second item) */
        long last = r->c_len > 0 ? r->c_start + (r->c_len - 1) * r->c_step : r->c_start;
        if (r->c_step != LONG_MIN) {
            return fast_range_iter(last, -r->c_step, r->c_len);
        }
    }
    PyObject *last = NULL, *rstep = NULL, *res = NULL;
    PyObject *lenm1 = PyNumber_Subtract(r->length, _PyLong_GetOne());
    if (lenm1 == NULL) {
        return NULL;
    }
    PyObject *span = PyNumber_Multiply(lenm1, r->step);
    Py_DECREF(lenm1);
    if (span == NULL) {
        return NULL;
    }
    last = PyNumber_Add(r->start, span);
    Py_DECREF(span);
    if (last == NULL) {
        return NULL;
    }
    rstep = PyNumber_Negative(r->step);
    if (rstep != NULL) {
        res = long_range_iter(last, rstep, r->length);
    }
    Py_DECREF(last);
    Py_XDECREF(rstep);
    return res;
}

/* ---- The type ------------------------------------------------------------------------- */

static PyMethodDef range_methods[] = {
    {"__reversed__", range_reverse, METH_NOARGS,
     "Return a reverse iterator."},
    {"__reduce__", range_reduce, METH_NOARGS, NULL},
    {"count", range_count, METH_O, "rangeobject.count(value) -> integer -- return number of occurrences of value"},
    {"index", range_index, METH_O,
     "rangeobject.index(value) -> integer -- return index of value.\n"
     "Raise ValueError if the value is not present."},
    {NULL, NULL, 0, NULL},
};

static PyNumberMethods range_as_number = {
    .nb_bool = range_bool,
};

static PySequenceMethods range_as_sequence = {
    .sq_length = range_length,
    .sq_item = range_item,
    .sq_contains = range_contains,
};

static PyMappingMethods range_as_mapping = {
    .mp_length = range_length,
    .mp_subscript = range_subscript,
};

PyTypeObject PyRange_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "range",
    .tp_basicsize = sizeof(rangeobject),
    .tp_dealloc = range_dealloc,
    .tp_repr = range_repr,
    .tp_as_number = &range_as_number,
    .tp_as_sequence = &range_as_sequence,
    .tp_as_mapping = &range_as_mapping,
    .tp_hash = range_hash,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_SEQUENCE,
    .tp_doc = "range(stop) -> range object\n"
              "range(start, stop[, step]) -> range object\n\n"
              "Return an object that produces a sequence of integers from start (inclusive)\n"
              "to stop (exclusive) by step.  range(i, j) produces i, i+1, i+2, ..., j-1.\n"
              "start defaults to 0, and stop is omitted!  range(4) produces 0, 1, 2, 3.\n"
              "These are exactly the valid indices for a list of 4 elements.\n"
              "When step is given, it specifies the increment (or decrement).",
    .tp_richcompare = range_richcompare,
    .tp_iter = range_iter,
    .tp_methods = range_methods,
    .tp_members = range_members,
    .tp_new = range_new,
    .tp_vectorcall = range_vectorcall,
    ._tp_iteritem = range_iteritem,
};
