/* slice objects, and the helpers that turn a slice plus a sequence length
   into concrete start/stop/step values.

   Also home of _PyEval_SliceIndex, the interpreter's conversion of slice
   bounds.  (Ellipsis lives in Objects/object.c.) */
#include "Python.h"
#include "pycore_object.h"
#include "pycore_slice.h"
#include "pycore_tuple.h"

/* ---- Index conversion ---------------------------------------------------- */

/* Out-of-range values are clamped rather than rejected: a slice bound past
   the end of any possible sequence means the same as the end. */
static int
index_to_ssize(PyObject *v, Py_ssize_t *pi, const char *errmsg)
{
    if (!PyIndex_Check(v)) {
        PyErr_SetString(PyExc_TypeError, errmsg);
        return 0;
    }
    Py_ssize_t x = PyNumber_AsSsize_t(v, NULL);
    if (x == -1 && PyErr_Occurred()) {
        return 0;
    }
    *pi = x;
    return 1;
}

int
_PyEval_SliceIndex(PyObject *v, Py_ssize_t *pi)
{
    if (Py_IsNone(v)) {
        return 1;
    }
    return index_to_ssize(v, pi,
                          "slice indices must be integers or None "
                          "or have an __index__ method");
}

int
_PyEval_SliceIndexNotNone(PyObject *v, Py_ssize_t *pi)
{
    return index_to_ssize(v, pi,
                          "slice indices must be integers or "
                          "have an __index__ method");
}

/* ---- Construction -------------------------------------------------------- */

/* Takes ownership of all three. */
static PyObject *
slice_new_steal(PyObject *start, PyObject *stop, PyObject *step)
{
    PySliceObject *obj = PyObject_GC_New(PySliceObject, &PySlice_Type);
    if (obj == NULL) {
        Py_DECREF(start);
        Py_DECREF(stop);
        Py_DECREF(step);
        return NULL;
    }
    obj->start = start;
    obj->stop = stop;
    obj->step = step;
    PyObject_GC_Track(obj);
    return (PyObject *)obj;
}

PyObject *
PySlice_New(PyObject *start, PyObject *stop, PyObject *step)
{
    start = start ? start : Py_None;
    stop = stop ? stop : Py_None;
    step = step ? step : Py_None;
    return slice_new_steal(Py_NewRef(start), Py_NewRef(stop), Py_NewRef(step));
}

PyObject *
_PyBuildSlice_ConsumeRefs(PyObject *start, PyObject *stop)
{
    assert(start != NULL && stop != NULL);
    return slice_new_steal(start, stop, Py_None);
}

PyObject *
_PySlice_FromIndices(Py_ssize_t istart, Py_ssize_t istop)
{
    PyObject *start = PyLong_FromSsize_t(istart);
    if (start == NULL) {
        return NULL;
    }
    PyObject *stop = PyLong_FromSsize_t(istop);
    if (stop == NULL) {
        Py_DECREF(start);
        return NULL;
    }
    return slice_new_steal(start, stop, Py_None);
}

static PyObject *
slice_tp_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *start = NULL, *stop = NULL, *step = NULL;
    if (kw != NULL && PyDict_GET_SIZE(kw) != 0) {
        PyErr_SetString(PyExc_TypeError, "slice() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "slice", 1, 3, &start, &stop, &step)) {
        return NULL;
    }
    /* slice(x) means slice(None, x, None) */
    if (stop == NULL) {
        stop = start;
        start = NULL;
    }
    return PySlice_New(start, stop, step);
}

/* ---- Resolving against a length ------------------------------------------ */

int
PySlice_Unpack(PyObject *_r, Py_ssize_t *start, Py_ssize_t *stop, Py_ssize_t *step)
{
    PySliceObject *r = (PySliceObject *)_r;

    if (Py_IsNone(r->step)) {
        *step = 1;
    }
    else {
        if (!_PyEval_SliceIndex(r->step, step)) {
            return -1;
        }
        if (*step == 0) {
            PyErr_SetString(PyExc_ValueError, "slice step cannot be zero");
            return -1;
        }
        /* Keep -step representable, so that reversing never overflows. */
        if (*step < -PY_SSIZE_T_MAX) {
            *step = -PY_SSIZE_T_MAX;
        }
    }

    if (Py_IsNone(r->start)) {
        *start = *step < 0 ? PY_SSIZE_T_MAX : 0;
    }
    else if (!_PyEval_SliceIndex(r->start, start)) {
        return -1;
    }

    if (Py_IsNone(r->stop)) {
        *stop = *step < 0 ? PY_SSIZE_T_MIN : PY_SSIZE_T_MAX;
    }
    else if (!_PyEval_SliceIndex(r->stop, stop)) {
        return -1;
    }
    return 0;
}

static Py_ssize_t
clamp_bound(Py_ssize_t i, Py_ssize_t length, Py_ssize_t step)
{
    if (i < 0) {
        i += length;
        if (i < 0) {
            i = step < 0 ? -1 : 0;
        }
    }
    else if (i >= length) {
        i = step < 0 ? length - 1 : length;
    }
    return i;
}

Py_ssize_t
PySlice_AdjustIndices(Py_ssize_t length, Py_ssize_t *start, Py_ssize_t *stop,
                      Py_ssize_t step)
{
    assert(step != 0 && step >= -PY_SSIZE_T_MAX);
    *start = clamp_bound(*start, length, step);
    *stop = clamp_bound(*stop, length, step);
    if (step < 0) {
        if (*stop < *start) {
            return (*start - *stop - 1) / (-step) + 1;
        }
    }
    else if (*start < *stop) {
        return (*stop - *start - 1) / step + 1;
    }
    return 0;
}

int
PySlice_GetIndicesEx(PyObject *r, Py_ssize_t length, Py_ssize_t *start,
                     Py_ssize_t *stop, Py_ssize_t *step, Py_ssize_t *slicelength)
{
    if (PySlice_Unpack(r, start, stop, step) < 0) {
        return -1;
    }
    *slicelength = PySlice_AdjustIndices(length, start, stop, *step);
    return 0;
}

/* ---- Arbitrary-precision resolution (slice.indices) ---------------------- */

static PyObject *
bound_as_index(PyObject *v)
{
    if (!PyIndex_Check(v)) {
        PyErr_SetString(PyExc_TypeError,
                        "slice indices must be integers or None "
                        "or have an __index__ method");
        return NULL;
    }
    return PyNumber_Index(v);
}

/* Clamp one bound into [lower, upper], counting negatives from the end.
   Steals `value`; returns a new reference or NULL. */
static PyObject *
clamp_long_bound(PyObject *value, PyObject *length, PyObject *lower, PyObject *upper)
{
    int cmp;
    if (_PyLong_Sign(value) < 0) {
        Py_SETREF(value, PyNumber_Add(value, length));
        if (value == NULL) {
            return NULL;
        }
        cmp = PyObject_RichCompareBool(value, lower, Py_LT);
        if (cmp < 0) {
            goto error;
        }
        if (cmp) {
            Py_SETREF(value, Py_NewRef(lower));
        }
        return value;
    }
    cmp = PyObject_RichCompareBool(value, upper, Py_GT);
    if (cmp < 0) {
        goto error;
    }
    if (cmp) {
        Py_SETREF(value, Py_NewRef(upper));
    }
    return value;

error:
    Py_DECREF(value);
    return NULL;
}

int
_PySlice_GetLongIndices(PySliceObject *self, PyObject *length, PyObject **start_ptr,
                        PyObject **stop_ptr, PyObject **step_ptr)
{
    PyObject *start = NULL, *stop = NULL, *step = NULL;
    PyObject *lower = NULL, *upper = NULL;
    int step_is_negative;

    if (Py_IsNone(self->step)) {
        step = PyLong_FromLong(1);
    }
    else {
        step = bound_as_index(self->step);
    }
    if (step == NULL) {
        goto error;
    }
    step_is_negative = _PyLong_Sign(step) < 0;
    if (_PyLong_Sign(step) == 0) {
        PyErr_SetString(PyExc_ValueError, "slice step cannot be zero");
        goto error;
    }

    if (step_is_negative) {
        lower = PyLong_FromLong(-1);
        if (lower == NULL) {
            goto error;
        }
        upper = PyNumber_Add(length, lower);
    }
    else {
        lower = PyLong_FromLong(0);
        upper = Py_NewRef(length);
    }
    if (lower == NULL || upper == NULL) {
        goto error;
    }

    if (Py_IsNone(self->start)) {
        start = Py_NewRef(step_is_negative ? upper : lower);
    }
    else {
        start = bound_as_index(self->start);
        if (start != NULL) {
            start = clamp_long_bound(start, length, lower, upper);
        }
        if (start == NULL) {
            goto error;
        }
    }

    if (Py_IsNone(self->stop)) {
        stop = Py_NewRef(step_is_negative ? lower : upper);
    }
    else {
        stop = bound_as_index(self->stop);
        if (stop != NULL) {
            stop = clamp_long_bound(stop, length, lower, upper);
        }
        if (stop == NULL) {
            goto error;
        }
    }

    Py_DECREF(lower);
    Py_DECREF(upper);
    *start_ptr = start;
    *stop_ptr = stop;
    *step_ptr = step;
    return 0;

error:
    Py_XDECREF(start);
    Py_XDECREF(stop);
    Py_XDECREF(step);
    Py_XDECREF(lower);
    Py_XDECREF(upper);
    return -1;
}

static PyObject *
slice_indices(PyObject *op, PyObject *len)
{
    PyObject *start, *stop, *step, *length;

    length = PyNumber_Index(len);
    if (length == NULL) {
        return NULL;
    }
    if (_PyLong_Sign(length) < 0) {
        PyErr_SetString(PyExc_ValueError, "length should not be negative");
        Py_DECREF(length);
        return NULL;
    }
    int err = _PySlice_GetLongIndices((PySliceObject *)op, length, &start, &stop, &step);
    Py_DECREF(length);
    if (err < 0) {
        return NULL;
    }
    PyObject *res = PyTuple_New(3);
    if (res == NULL) {
        Py_DECREF(start);
        Py_DECREF(stop);
        Py_DECREF(step);
        return NULL;
    }
    PyTuple_SET_ITEM(res, 0, start);
    PyTuple_SET_ITEM(res, 1, stop);
    PyTuple_SET_ITEM(res, 2, step);
    return res;
}

/* ---- The type ------------------------------------------------------------ */

static void
slice_dealloc(PyObject *op)
{
    PySliceObject *r = (PySliceObject *)op;
    PyObject_GC_UnTrack(op);
    Py_DECREF(r->step);
    Py_DECREF(r->start);
    Py_DECREF(r->stop);
    PyObject_GC_Del(op);
}

static int
slice_traverse(PyObject *op, visitproc visit, void *arg)
{
    PySliceObject *v = (PySliceObject *)op;
    Py_VISIT(v->start);
    Py_VISIT(v->stop);
    Py_VISIT(v->step);
    return 0;
}

static PyObject *
slice_repr(PyObject *op)
{
    PySliceObject *r = (PySliceObject *)op;
    return PyUnicode_FromFormat("slice(%R, %R, %R)", r->start, r->stop, r->step);
}

static PyObject *
slice_as_tuple(PySliceObject *s)
{
    return PyTuple_Pack(3, s->start, s->stop, s->step);
}

static PyObject *
slice_richcompare(PyObject *v, PyObject *w, int op)
{
    if (!PySlice_Check(v) || !PySlice_Check(w)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (v == w) {
        /* Equal to itself even if a bound compares unequal to itself
           (nan), as with tuples. */
        switch (op) {
        case Py_EQ:
        case Py_LE:
        case Py_GE:
            Py_RETURN_TRUE;
        case Py_NE:
        case Py_LT:
        case Py_GT:
            Py_RETURN_FALSE;
        default:
            Py_UNREACHABLE();
        }
    }
    PyObject *t1 = slice_as_tuple((PySliceObject *)v);
    if (t1 == NULL) {
        return NULL;
    }
    PyObject *t2 = slice_as_tuple((PySliceObject *)w);
    if (t2 == NULL) {
        Py_DECREF(t1);
        return NULL;
    }
    PyObject *res = PyObject_RichCompare(t1, t2, op);
    Py_DECREF(t1);
    Py_DECREF(t2);
    return res;
}

/* Like the tuple hash of (start, stop, step) but without the final length
   mix-in; that is how CPython defines it and hash values must agree. */
static Py_hash_t
slice_hash(PyObject *op)
{
    PySliceObject *v = (PySliceObject *)op;
    PyObject *parts[3] = {v->start, v->stop, v->step};
    Py_uhash_t acc = _PyHASH_XXPRIME_5;
    for (int i = 0; i < 3; i++) {
        Py_hash_t lane = PyObject_Hash(parts[i]);
        if (lane == -1) {
            return -1;
        }
        acc = _PyTuple_HashLane(acc, (Py_uhash_t)lane);
    }
    if (acc == (Py_uhash_t)-1) {
        return 1546275796;
    }
    return (Py_hash_t)acc;
}

static PyObject *
slice_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    PySliceObject *r = (PySliceObject *)op;
    return Py_BuildValue("O(OOO)", (PyObject *)Py_TYPE(op), r->start, r->stop, r->step);
}

static PyMethodDef slice_methods[] = {
    {"indices", slice_indices, METH_O,
     "S.indices(len) -> (start, stop, stride)\n\n"
     "Assuming a sequence of length len, calculate the start and stop\n"
     "indices, and the stride length of the extended slice described by\n"
     "S. Out of bounds indices are clipped in a manner consistent with the\n"
     "handling of normal slices."},
    {"__reduce__", slice_reduce, METH_NOARGS, "Return state information for pickling."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef slice_members[] = {
    {"start", _Py_T_OBJECT, offsetof(PySliceObject, start), Py_READONLY, NULL},
    {"stop", _Py_T_OBJECT, offsetof(PySliceObject, stop), Py_READONLY, NULL},
    {"step", _Py_T_OBJECT, offsetof(PySliceObject, step), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject PySlice_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "slice",
    .tp_basicsize = sizeof(PySliceObject),
    .tp_dealloc = slice_dealloc,
    .tp_repr = slice_repr,
    .tp_hash = slice_hash,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "slice(stop)\nslice(start, stop[, step])\n\n"
              "Create a slice object.  This is used for extended slicing "
              "(e.g. a[0:10:2]).",
    .tp_traverse = slice_traverse,
    .tp_richcompare = slice_richcompare,
    .tp_methods = slice_methods,
    .tp_members = slice_members,
    .tp_new = slice_tp_new,
};
