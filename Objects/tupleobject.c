/* tuple: an immutable array of references stored inline after the header.

   The empty tuple is one static immortal object.  Hashes are cached in
   ob_hash because tuples are common dict keys. */
#include "Python.h"
#include "pycore_object.h"
#include "pycore_tuple.h"
#include "pycore_slice.h"

struct _Py_empty_tuple_storage _Py_EmptyTupleStorage = {
    {0, 0},
    {{{_Py_IMMORTAL_INITIAL_REFCNT, &PyTuple_Type}, 0}, -1, {NULL}},
};

/* ---- Allocation ------------------------------------------------------------ */

/* An uninitialised, untracked tuple of `size` > 0 items (all NULL). */
static PyTupleObject *
tuple_alloc(Py_ssize_t size)
{
    if (size < 0) {
        PyErr_BadInternalCall();
        return NULL;
    }
    if ((size_t)size > ((size_t)PY_SSIZE_T_MAX - sizeof(PyTupleObject)) / sizeof(PyObject *)) {
        return (PyTupleObject *)PyErr_NoMemory();
    }
    PyTupleObject *op = PyObject_GC_NewVar(PyTupleObject, &PyTuple_Type, size);
    if (op == NULL) {
        return NULL;
    }
    op->ob_hash = -1;
    for (Py_ssize_t i = 0; i < size; i++) {
        op->ob_item[i] = NULL;
    }
    return op;
}

PyObject *
PyTuple_New(Py_ssize_t size)
{
    if (size == 0) {
        return _PyTuple_EMPTY;
    }
    PyTupleObject *op = tuple_alloc(size);
    if (op == NULL) {
        return NULL;
    }
    PyObject_GC_Track(op);
    return (PyObject *)op;
}

PyObject *
_PyTuple_FromArray(PyObject *const *src, Py_ssize_t n)
{
    if (n == 0) {
        return _PyTuple_EMPTY;
    }
    PyTupleObject *op = tuple_alloc(n);
    if (op == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        op->ob_item[i] = Py_NewRef(src[i]);
    }
    PyObject_GC_Track(op);
    return (PyObject *)op;
}

PyObject *
_PyTuple_FromArraySteal(PyObject *const *src, Py_ssize_t n)
{
    if (n == 0) {
        return _PyTuple_EMPTY;
    }
    PyTupleObject *op = tuple_alloc(n);
    if (op == NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_DECREF(src[i]);
        }
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        op->ob_item[i] = src[i];
    }
    PyObject_GC_Track(op);
    return (PyObject *)op;
}

PyObject *
_PyTuple_FromPairSteal(PyObject *a, PyObject *b)
{
    PyObject *items[2] = {a, b};
    return _PyTuple_FromArraySteal(items, 2);
}

PyObject *
PyTuple_Pack(Py_ssize_t n, ...)
{
    if (n == 0) {
        return _PyTuple_EMPTY;
    }
    PyTupleObject *result = tuple_alloc(n);
    if (result == NULL) {
        return NULL;
    }
    va_list vargs;
    va_start(vargs, n);
    for (Py_ssize_t i = 0; i < n; i++) {
        result->ob_item[i] = Py_NewRef(va_arg(vargs, PyObject *));
    }
    va_end(vargs);
    PyObject_GC_Track(result);
    return (PyObject *)result;
}

/* Only for tuples still private to their creator (refcount 1): the caller
   may be filling it in.  Items beyond the new size are released. */
int
_PyTuple_Resize(PyObject **pv, Py_ssize_t newsize)
{
    PyTupleObject *v = (PyTupleObject *)*pv;
    if (v == NULL || !Py_IS_TYPE(v, &PyTuple_Type) ||
        (Py_SIZE(v) != 0 && Py_REFCNT(v) != 1) || newsize < 0) {
        *pv = NULL;
        Py_XDECREF(v);
        PyErr_BadInternalCall();
        return -1;
    }
    Py_ssize_t oldsize = Py_SIZE(v);
    if (oldsize == newsize) {
        return 0;
    }
    if (oldsize == 0) {
        /* the empty tuple is shared: start a fresh one */
        *pv = PyTuple_New(newsize);
        return *pv == NULL ? -1 : 0;
    }
    if (newsize == 0) {
        Py_DECREF(v);
        *pv = _PyTuple_EMPTY;
        return 0;
    }
    if ((size_t)newsize > ((size_t)PY_SSIZE_T_MAX - sizeof(PyTupleObject)) / sizeof(PyObject *)) {
        *pv = NULL;
        Py_DECREF(v);
        PyErr_NoMemory();
        return -1;
    }
    PyObject_GC_UnTrack(v);
    for (Py_ssize_t i = newsize; i < oldsize; i++) {
        Py_CLEAR(v->ob_item[i]);
    }
    PyTupleObject *sv = PyObject_GC_Resize(PyTupleObject, v, newsize);
    if (sv == NULL) {
        *pv = NULL;
        /* the old block is still valid: free it */
        Py_SET_SIZE(v, newsize < oldsize ? newsize : oldsize);
        PyObject_GC_Del(v);
        return -1;
    }
    for (Py_ssize_t i = oldsize; i < newsize; i++) {
        sv->ob_item[i] = NULL;
    }
    sv->ob_hash = -1;
    PyObject_GC_Track(sv);
    *pv = (PyObject *)sv;
    return 0;
}

/* ---- Accessors ------------------------------------------------------------ */

Py_ssize_t
PyTuple_Size(PyObject *op)
{
    if (!PyTuple_Check(op)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return Py_SIZE(op);
}

PyObject *
PyTuple_GetItem(PyObject *op, Py_ssize_t i)
{
    if (!PyTuple_Check(op)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    if (i < 0 || i >= Py_SIZE(op)) {
        PyErr_SetString(PyExc_IndexError, "tuple index out of range");
        return NULL;
    }
    return ((PyTupleObject *)op)->ob_item[i];
}

int
PyTuple_SetItem(PyObject *op, Py_ssize_t i, PyObject *newitem)
{
    if (!PyTuple_Check(op) || Py_REFCNT(op) != 1) {
        Py_XDECREF(newitem);
        PyErr_BadInternalCall();
        return -1;
    }
    if (i < 0 || i >= Py_SIZE(op)) {
        Py_XDECREF(newitem);
        PyErr_SetString(PyExc_IndexError, "tuple assignment index out of range");
        return -1;
    }
    PyObject **p = ((PyTupleObject *)op)->ob_item + i;
    Py_XSETREF(*p, newitem);
    return 0;
}

static PyObject *
tuple_slice(PyTupleObject *a, Py_ssize_t ilow, Py_ssize_t ihigh)
{
    if (ilow < 0) {
        ilow = 0;
    }
    if (ihigh > Py_SIZE(a)) {
        ihigh = Py_SIZE(a);
    }
    if (ihigh < ilow) {
        ihigh = ilow;
    }
    if (ilow == 0 && ihigh == Py_SIZE(a) && PyTuple_CheckExact(a)) {
        return Py_NewRef(a);
    }
    return _PyTuple_FromArray(a->ob_item + ilow, ihigh - ilow);
}

PyObject *
PyTuple_GetSlice(PyObject *op, Py_ssize_t i, Py_ssize_t j)
{
    if (op == NULL || !PyTuple_Check(op)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return tuple_slice((PyTupleObject *)op, i, j);
}

/* ---- Deallocation and GC ------------------------------------------------------ */

static void
tuple_dealloc(PyObject *op)
{
    PyTupleObject *self = (PyTupleObject *)op;
    if (op == _PyTuple_EMPTY) {
        return; /* immortal; only reachable through refcount bugs */
    }
    PyObject_GC_UnTrack(op);
    Py_ssize_t i = Py_SIZE(self);
    while (--i >= 0) {
        Py_XDECREF(self->ob_item[i]);
    }
    Py_TYPE(op)->tp_free(op);
}

static int
tuple_traverse(PyObject *op, visitproc visit, void *arg)
{
    PyTupleObject *o = (PyTupleObject *)op;
    for (Py_ssize_t i = Py_SIZE(o); --i >= 0;) {
        Py_VISIT(o->ob_item[i]);
    }
    return 0;
}

/* ---- repr and hash -------------------------------------------------------------- */

static PyObject *
tuple_repr(PyObject *op)
{
    PyTupleObject *v = (PyTupleObject *)op;
    Py_ssize_t n = Py_SIZE(v);
    if (n == 0) {
        return PyUnicode_FromString("()");
    }
    /* A tuple can only contain itself through a mutable object, but the
       guard is what turns that cycle into "(...)". */
    int rc = Py_ReprEnter(op);
    if (rc != 0) {
        return rc > 0 ? PyUnicode_FromString("(...)") : NULL;
    }

    _PyUnicodeWriter writer;
    _PyUnicodeWriter_Init(&writer);
    writer.overallocate = 1;
    writer.min_length = n > 1 ? 1 + 1 + (2 + 1) * (n - 1) + 1 : 4;
    if (_PyUnicodeWriter_WriteChar(&writer, '(') < 0) {
        goto error;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i > 0 && _PyUnicodeWriter_WriteASCIIString(&writer, ", ", 2) < 0) {
            goto error;
        }
        PyObject *s = PyObject_Repr(v->ob_item[i]);
        if (s == NULL) {
            goto error;
        }
        int err = _PyUnicodeWriter_WriteStr(&writer, s);
        Py_DECREF(s);
        if (err < 0) {
            goto error;
        }
    }
    writer.overallocate = 0;
    if (n == 1) {
        if (_PyUnicodeWriter_WriteASCIIString(&writer, ",)", 2) < 0) {
            goto error;
        }
    }
    else if (_PyUnicodeWriter_WriteChar(&writer, ')') < 0) {
        goto error;
    }
    Py_ReprLeave(op);
    return _PyUnicodeWriter_Finish(&writer);

error:
    _PyUnicodeWriter_Dealloc(&writer);
    Py_ReprLeave(op);
    return NULL;
}

/* xxHash-style combination of the item hashes (the constants and steps
   are fixed by CPython's definition, so values match across runtimes). */
static Py_hash_t
tuple_hash(PyObject *op)
{
    PyTupleObject *v = (PyTupleObject *)op;
    if (v->ob_hash != -1) {
        return v->ob_hash;
    }
    Py_ssize_t len = Py_SIZE(v);
    Py_uhash_t acc = _PyHASH_XXPRIME_5;
    /* Tuples can nest deeper than the C stack. */
    if (Py_EnterRecursiveCall(" while hashing a tuple")) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_hash_t lane = PyObject_Hash(v->ob_item[i]);
        if (lane == -1) {
            Py_LeaveRecursiveCall();
            return -1;
        }
        acc = _PyTuple_HashLane(acc, (Py_uhash_t)lane);
    }
    Py_LeaveRecursiveCall();
    acc += (Py_uhash_t)len ^ (_PyHASH_XXPRIME_5 ^ 3527539UL);
    if (acc == (Py_uhash_t)-1) {
        acc = 1546275796;
    }
    v->ob_hash = (Py_hash_t)acc;
    return (Py_hash_t)acc;
}

/* ---- Sequence protocol ----------------------------------------------------------- */

static Py_ssize_t
tuple_length(PyObject *a)
{
    return Py_SIZE(a);
}

static int
tuple_contains(PyObject *op, PyObject *el)
{
    PyTupleObject *a = (PyTupleObject *)op;
    int cmp = 0;
    for (Py_ssize_t i = 0; cmp == 0 && i < Py_SIZE(a); ++i) {
        cmp = PyObject_RichCompareBool(a->ob_item[i], el, Py_EQ);
    }
    return cmp;
}

static PyObject *
tuple_item(PyObject *op, Py_ssize_t i)
{
    if ((size_t)i >= (size_t)Py_SIZE(op)) {
        PyErr_SetString(PyExc_IndexError, "tuple index out of range");
        return NULL;
    }
    return Py_NewRef(((PyTupleObject *)op)->ob_item[i]);
}

static PyObject *
tuple_concat(PyObject *aa, PyObject *bb)
{
    if (!PyTuple_Check(bb)) {
        PyErr_Format(PyExc_TypeError,
                     "can only concatenate tuple (not \"%.200s\") to tuple",
                     Py_TYPE(bb)->tp_name);
        return NULL;
    }
    PyTupleObject *a = (PyTupleObject *)aa, *b = (PyTupleObject *)bb;
    if (Py_SIZE(b) == 0 && PyTuple_CheckExact(a)) {
        return Py_NewRef(a);
    }
    if (Py_SIZE(a) == 0 && PyTuple_CheckExact(b)) {
        return Py_NewRef(b);
    }
    Py_ssize_t size = Py_SIZE(a) + Py_SIZE(b);
    if (size == 0) {
        return _PyTuple_EMPTY;
    }
    PyTupleObject *np = tuple_alloc(size);
    if (np == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < Py_SIZE(a); i++) {
        np->ob_item[i] = Py_NewRef(a->ob_item[i]);
    }
    for (Py_ssize_t i = 0; i < Py_SIZE(b); i++) {
        np->ob_item[Py_SIZE(a) + i] = Py_NewRef(b->ob_item[i]);
    }
    PyObject_GC_Track(np);
    return (PyObject *)np;
}

static PyObject *
tuple_repeat(PyObject *op, Py_ssize_t n)
{
    PyTupleObject *a = (PyTupleObject *)op;
    Py_ssize_t input_size = Py_SIZE(a);
    if (input_size == 0 || n == 1) {
        if (PyTuple_CheckExact(a)) {
            return Py_NewRef(a);
        }
    }
    if (input_size == 0 || n <= 0) {
        return _PyTuple_EMPTY;
    }
    if (input_size > PY_SSIZE_T_MAX / n) {
        return PyErr_NoMemory();
    }
    Py_ssize_t output_size = input_size * n;
    PyTupleObject *np = tuple_alloc(output_size);
    if (np == NULL) {
        return NULL;
    }
    PyObject **dest = np->ob_item;
    for (Py_ssize_t j = 0; j < n; j++) {
        for (Py_ssize_t i = 0; i < input_size; i++) {
            *dest++ = Py_NewRef(a->ob_item[i]);
        }
    }
    PyObject_GC_Track(np);
    return (PyObject *)np;
}

static PyObject *
tuple_subscript(PyObject *op, PyObject *item)
{
    PyTupleObject *self = (PyTupleObject *)op;
    if (PyIndex_Check(item)) {
        Py_ssize_t i = PyNumber_AsSsize_t(item, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (i < 0) {
            i += Py_SIZE(self);
        }
        return tuple_item(op, i);
    }
    if (PySlice_Check(item)) {
        Py_ssize_t start, stop, step;
        Py_ssize_t slicelength = _PySlice_Resolve(item, (PyObject *)self, &start, &stop, &step);
        if (slicelength < 0) {
            return NULL;
        }
        if (slicelength <= 0) {
            return _PyTuple_EMPTY;
        }
        if (start == 0 && step == 1 && slicelength == Py_SIZE(self) &&
            PyTuple_CheckExact(self)) {
            return Py_NewRef(self);
        }
        PyTupleObject *result = tuple_alloc(slicelength);
        if (result == NULL) {
            return NULL;
        }
        Py_ssize_t cur = start;
        for (Py_ssize_t i = 0; i < slicelength; i++, cur += step) {
            result->ob_item[i] = Py_NewRef(self->ob_item[cur]);
        }
        PyObject_GC_Track(result);
        return (PyObject *)result;
    }
    PyErr_Format(PyExc_TypeError, "tuple indices must be integers or slices, not %.200s",
                 Py_TYPE(item)->tp_name);
    return NULL;
}

/* ---- Comparison -------------------------------------------------------------------- */

static PyObject *
tuple_richcompare(PyObject *v, PyObject *w, int op)
{
    if (!PyTuple_Check(v) || !PyTuple_Check(w)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyTupleObject *vt = (PyTupleObject *)v, *wt = (PyTupleObject *)w;
    Py_ssize_t vlen = Py_SIZE(vt), wlen = Py_SIZE(wt);
    Py_ssize_t i;

    /* Tuples are immutable, so no bounds re-checks are needed; identical
       items count as equal (the usual containment rule). */
    for (i = 0; i < vlen && i < wlen; i++) {
        int k = PyObject_RichCompareBool(vt->ob_item[i], wt->ob_item[i], Py_EQ);
        if (k < 0) {
            return NULL;
        }
        if (!k) {
            break;
        }
    }
    if (i >= vlen || i >= wlen) {
        Py_RETURN_RICHCOMPARE(vlen, wlen, op);
    }
    if (op == Py_EQ) {
        Py_RETURN_FALSE;
    }
    if (op == Py_NE) {
        Py_RETURN_TRUE;
    }
    return PyObject_RichCompare(vt->ob_item[i], wt->ob_item[i], op);
}

/* ---- Methods ------------------------------------------------------------------------ */

static PyObject *
tuple_index(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    PyTupleObject *self = (PyTupleObject *)op;
    Py_ssize_t start = 0, stop = PY_SSIZE_T_MAX;
    if (!_PyArg_CheckPositional("index", nargs, 1, 3)) {
        return NULL;
    }
    if (nargs > 1 && !_PyEval_SliceIndexNotNone(args[1], &start)) {
        return NULL;
    }
    if (nargs > 2 && !_PyEval_SliceIndexNotNone(args[2], &stop)) {
        return NULL;
    }
    if (start < 0) {
        start += Py_SIZE(self);
        if (start < 0) {
            start = 0;
        }
    }
    if (stop < 0) {
        stop += Py_SIZE(self);
    }
    else if (stop > Py_SIZE(self)) {
        stop = Py_SIZE(self);
    }
    for (Py_ssize_t i = start; i < stop; i++) {
        int cmp = PyObject_RichCompareBool(self->ob_item[i], args[0], Py_EQ);
        if (cmp > 0) {
            return PyLong_FromSsize_t(i);
        }
        if (cmp < 0) {
            return NULL;
        }
    }
    PyErr_SetString(PyExc_ValueError, "tuple.index(x): x not in tuple");
    return NULL;
}

static PyObject *
tuple_count(PyObject *op, PyObject *value)
{
    PyTupleObject *self = (PyTupleObject *)op;
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < Py_SIZE(self); i++) {
        int cmp = PyObject_RichCompareBool(self->ob_item[i], value, Py_EQ);
        if (cmp > 0) {
            count++;
        }
        else if (cmp < 0) {
            return NULL;
        }
    }
    return PyLong_FromSsize_t(count);
}

static PyObject *
tuple_getnewargs(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *copy = tuple_slice((PyTupleObject *)self, 0, Py_SIZE(self));
    if (copy == NULL) {
        return NULL;
    }
    PyObject *res = PyTuple_Pack(1, copy);
    Py_DECREF(copy);
    return res;
}

/* ---- Construction from Python ------------------------------------------------------ */

static PyObject *
tuple_from_iterable(PyObject *iterable)
{
    if (iterable == NULL) {
        return _PyTuple_EMPTY;
    }
    if (PyTuple_CheckExact(iterable)) {
        return Py_NewRef(iterable);
    }
    return PySequence_Tuple(iterable);
}

static PyObject *
tuple_subtype_new(PyTypeObject *type, PyObject *iterable)
{
    PyObject *tmp = tuple_from_iterable(iterable);
    if (tmp == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(tmp);
    PyObject *newobj = type->tp_alloc(type, n);
    if (newobj == NULL) {
        Py_DECREF(tmp);
        return NULL;
    }
    ((PyTupleObject *)newobj)->ob_hash = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(newobj, i, Py_NewRef(PyTuple_GET_ITEM(tmp, i)));
    }
    Py_DECREF(tmp);
    return newobj;
}

static PyObject *
tuple_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if ((type == &PyTuple_Type || type->tp_init == PyTuple_Type.tp_init) &&
        kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "tuple() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "tuple expected at most 1 argument, got %zd", nargs);
        return NULL;
    }
    PyObject *iterable = nargs ? PyTuple_GET_ITEM(args, 0) : NULL;
    if (type != &PyTuple_Type) {
        return tuple_subtype_new(type, iterable);
    }
    return tuple_from_iterable(iterable);
}

static PyObject *
tuple_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        PyErr_SetString(PyExc_TypeError, "tuple() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "tuple expected at most 1 argument, got %zd", nargs);
        return NULL;
    }
    if ((PyTypeObject *)type != &PyTuple_Type) {
        return tuple_subtype_new((PyTypeObject *)type, nargs ? args[0] : NULL);
    }
    return tuple_from_iterable(nargs ? args[0] : NULL);
}

/* ---- Iteration ------------------------------------------------------------------------ */

int
_PyTuple_IterItem(PyObject *op, Py_ssize_t index, PyObject **item, Py_ssize_t *next_index)
{
    if (index < Py_SIZE(op)) {
        *item = Py_NewRef(((PyTupleObject *)op)->ob_item[index]);
        *next_index = index + 1;
        return 1;
    }
    *item = NULL;
    return 0;
}

typedef struct {
    PyObject_HEAD
    Py_ssize_t it_index;
    PyTupleObject *it_seq; /* NULL once exhausted */
} tupleiterobject;

static PyObject *
tuple_iter(PyObject *seq)
{
    tupleiterobject *it = PyObject_GC_New(tupleiterobject, &PyTupleIter_Type);
    if (it == NULL) {
        return NULL;
    }
    it->it_index = 0;
    it->it_seq = (PyTupleObject *)Py_NewRef(seq);
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

static void
tupleiter_dealloc(PyObject *op)
{
    tupleiterobject *it = (tupleiterobject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(it->it_seq);
    PyObject_GC_Del(op);
}

static int
tupleiter_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((tupleiterobject *)op)->it_seq);
    return 0;
}

static PyObject *
tupleiter_next(PyObject *op)
{
    tupleiterobject *it = (tupleiterobject *)op;
    PyTupleObject *seq = it->it_seq;
    if (seq == NULL) {
        return NULL;
    }
    if (it->it_index < Py_SIZE(seq)) {
        return Py_NewRef(seq->ob_item[it->it_index++]);
    }
    it->it_seq = NULL;
    Py_DECREF(seq);
    return NULL;
}

static PyObject *
tupleiter_len(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    tupleiterobject *it = (tupleiterobject *)op;
    Py_ssize_t len = 0;
    if (it->it_seq) {
        len = Py_SIZE(it->it_seq) - it->it_index;
    }
    return PyLong_FromSsize_t(len);
}

/* __setstate__ for the list and tuple iterators, which share it: set
   *index from the int state, clamped to [0, len(seq)] so a bad pickle can
   never index past the items.  An exhausted iterator (seq NULL) stays
   exhausted.  Returns -1 with an exception set if state is not an int. */
int
_PySeqIter_SetStateIndex(PyObject *seq, Py_ssize_t *index, PyObject *state)
{
    Py_ssize_t i = PyLong_AsSsize_t(state);
    if (i == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (seq != NULL) {
        if (i < 0) {
            i = 0;
        }
        else if (i > Py_SIZE(seq)) {
            i = Py_SIZE(seq);
        }
        *index = i;
    }
    return 0;
}

static PyObject *
tupleiter_setstate(PyObject *op, PyObject *state)
{
    tupleiterobject *it = (tupleiterobject *)op;
    if (_PySeqIter_SetStateIndex((PyObject *)it->it_seq, &it->it_index,
                                 state) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef tupleiter_methods[] = {
    {"__length_hint__", tupleiter_len, METH_NOARGS,
     "Private method returning an estimate of len(list(it))."},
    {"__setstate__", tupleiter_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyTupleIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "tuple_iterator",
    .tp_basicsize = sizeof(tupleiterobject),
    .tp_dealloc = tupleiter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = tupleiter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = tupleiter_next,
    .tp_methods = tupleiter_methods,
};

/* ---- The type ---------------------------------------------------------------------------- */

static PyMethodDef tuple_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {"__getnewargs__", tuple_getnewargs, METH_NOARGS, NULL},
    {"index", _PyCFunction_CAST(tuple_index), METH_FASTCALL,
     "Return first index of value.\n\nRaises ValueError if the value is not present."},
    {"count", tuple_count, METH_O, "Return number of occurrences of value."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods tuple_as_sequence = {
    .sq_length = tuple_length,
    .sq_concat = tuple_concat,
    .sq_repeat = tuple_repeat,
    .sq_item = tuple_item,
    .sq_contains = tuple_contains,
};

static PyMappingMethods tuple_as_mapping = {
    .mp_length = tuple_length,
    .mp_subscript = tuple_subscript,
};

PyTypeObject PyTuple_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "tuple",
    .tp_basicsize = sizeof(PyTupleObject) - sizeof(PyObject *),
    .tp_itemsize = sizeof(PyObject *),
    .tp_dealloc = tuple_dealloc,
    .tp_repr = tuple_repr,
    .tp_as_sequence = &tuple_as_sequence,
    .tp_as_mapping = &tuple_as_mapping,
    .tp_hash = tuple_hash,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE |
                Py_TPFLAGS_TUPLE_SUBCLASS | Py_TPFLAGS_SEQUENCE,
    .tp_doc = "Built-in immutable sequence.\n\n"
              "If no argument is given, the constructor returns an empty tuple.\n"
              "If iterable is specified the tuple is initialized from iterable's items.\n\n"
              "If the argument is a tuple, the return value is the same object.",
    .tp_traverse = tuple_traverse,
    .tp_richcompare = tuple_richcompare,
    .tp_iter = tuple_iter,
    .tp_methods = tuple_methods,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = tuple_new,
    .tp_free = PyObject_GC_Del,
    .tp_vectorcall = tuple_vectorcall,
    ._tp_iteritem = _PyTuple_IterItem,
};
