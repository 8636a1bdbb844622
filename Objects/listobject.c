/* list: a growable array of references, its iterators, and list.sort.

   The items live in a separately allocated array (ob_item) with room for
   `allocated` references, of which the first ob_size are in use.  The sort
   is a natural merge sort described in Objects/listsort.md. */
#include "Python.h"
#include "pycore_object.h"
#include "pycore_list.h"
#include "pycore_long.h"
#include "pycore_tuple.h"
#include "pycore_slice.h"

/* ---- Storage ------------------------------------------------------------- */

/* Make room for newsize items.  Appending one item at a time must be
   amortised O(1), so growth over-allocates by about 1/8 of the size plus a
   little: enough to keep the number of reallocations logarithmic, small
   enough not to waste much memory on big lists.  Shrinking below half the
   allocation gives memory back; otherwise the spare room is kept so that
   alternating pops and appends do not reallocate. */
static int
list_resize(PyListObject *self, Py_ssize_t newsize)
{
    Py_ssize_t allocated = self->allocated;

    if (allocated >= newsize && newsize >= (allocated >> 1)) {
        Py_SET_SIZE(self, newsize);
        return 0;
    }
    if (newsize == 0) {
        PyMem_Free(self->ob_item);
        self->ob_item = NULL;
        Py_SET_SIZE(self, 0);
        self->allocated = 0;
        return 0;
    }

    /* Rounded to a multiple of 4 slots, which suits the allocator. */
    size_t headroom = ((size_t)newsize >> 3) + 6;
    size_t new_allocated = ((size_t)newsize + headroom) & ~(size_t)3;
    if ((size_t)(newsize - Py_SIZE(self)) > headroom) {
        /* One big jump (extend, slice assignment): its size is probably
           final, so don't add slack on top of it. */
        new_allocated = ((size_t)newsize + 3) & ~(size_t)3;
    }

    PyObject **items = NULL;
    if (new_allocated <= (size_t)PY_SSIZE_T_MAX / sizeof(PyObject *)) {
        items = (PyObject **)PyMem_Realloc(self->ob_item, new_allocated * sizeof(PyObject *));
    }
    if (items == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->ob_item = items;
    Py_SET_SIZE(self, newsize);
    self->allocated = (Py_ssize_t)new_allocated;
    return 0;
}

/* Exact-capacity allocation for lists whose final size is known. */
static PyListObject *
list_new_prealloc(Py_ssize_t size)
{
    PyListObject *op = (PyListObject *)PyList_New(0);
    if (op == NULL || size == 0) {
        return op;
    }
    op->ob_item = PyMem_New(PyObject *, size);
    if (op->ob_item == NULL) {
        Py_DECREF(op);
        PyErr_NoMemory();
        return NULL;
    }
    op->allocated = size;
    return op;
}

PyObject *
PyList_New(Py_ssize_t size)
{
    if (size < 0) {
        PyErr_BadInternalCall();
        return NULL;
    }
    PyListObject *op = PyObject_GC_New(PyListObject, &PyList_Type);
    if (op == NULL) {
        return NULL;
    }
    if (size == 0) {
        op->ob_item = NULL;
    }
    else {
        if ((size_t)size > PY_SSIZE_T_MAX / sizeof(PyObject *)) {
            op->ob_item = NULL;
        }
        else {
            op->ob_item = (PyObject **)PyMem_Calloc((size_t)size, sizeof(PyObject *));
        }
        if (op->ob_item == NULL) {
            Py_SET_SIZE(op, 0);
            op->allocated = 0;
            Py_DECREF(op);
            return PyErr_NoMemory();
        }
    }
    Py_SET_SIZE(op, size);
    op->allocated = size;
    PyObject_GC_Track(op);
    return (PyObject *)op;
}

PyObject *
_PyList_FromArraySteal(PyObject *const *src, Py_ssize_t n)
{
    PyListObject *list = list_new_prealloc(n);
    if (list == NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_DECREF(src[i]);
        }
        return NULL;
    }
    if (n > 0) {
        memcpy(list->ob_item, src, (size_t)n * sizeof(PyObject *));
    }
    Py_SET_SIZE(list, n);
    return (PyObject *)list;
}

static PyObject *
list_from_array(PyObject *const *src, Py_ssize_t n)
{
    PyListObject *list = list_new_prealloc(n);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        list->ob_item[i] = Py_NewRef(src[i]);
    }
    Py_SET_SIZE(list, n);
    return (PyObject *)list;
}

/* Drop every item.  The list is emptied before any destructor runs, since
   a destructor may look at (or refill) the list. */
static void
list_clear_items(PyListObject *a)
{
    PyObject **items = a->ob_item;
    Py_ssize_t n = Py_SIZE(a);
    if (items == NULL) {
        return;
    }
    a->ob_item = NULL;
    Py_SET_SIZE(a, 0);
    a->allocated = 0;
    while (--n >= 0) {
        Py_XDECREF(items[n]);
    }
    PyMem_Free(items);
}

/* ---- Public accessors ---------------------------------------------------- */

static int
valid_index(Py_ssize_t i, Py_ssize_t limit)
{
    /* one unsigned comparison covers both 0 <= i and i < limit */
    return (size_t)i < (size_t)limit;
}

Py_ssize_t
PyList_Size(PyObject *op)
{
    if (!PyList_Check(op)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return Py_SIZE(op);
}

/* The C-API entry points below take any object; a non-list is the
   caller's bug (SystemError), reported here. */
static inline int
is_list_arg(PyObject *op)
{
    if (op != NULL && PyList_Check(op)) {
        return 1;
    }
    PyErr_BadInternalCall();
    return 0;
}

static const char index_range_msg[] = "list index out of range";
static const char assign_range_msg[] = "list assignment index out of range";

/* Address of item i, or NULL with IndexError(msg) when i is out of range. */
static inline PyObject **
item_address(PyListObject *list, Py_ssize_t i, const char *msg)
{
    if (!valid_index(i, Py_SIZE(list))) {
        PyErr_SetString(PyExc_IndexError, msg);
        return NULL;
    }
    return list->ob_item + i;
}

PyObject *
PyList_GetItem(PyObject *op, Py_ssize_t i)
{
    PyObject **at = is_list_arg(op) ? item_address((PyListObject *)op, i, index_range_msg) : NULL;
    return at == NULL ? NULL : *at; /* borrowed */
}

PyObject *
PyList_GetItemRef(PyObject *op, Py_ssize_t i)
{
    /* unlike PyList_GetItem, a wrong type is a TypeError here */
    if (!PyList_Check(op)) {
        PyErr_SetString(PyExc_TypeError, "expected a list");
        return NULL;
    }
    PyObject **at = item_address((PyListObject *)op, i, index_range_msg);
    return at == NULL ? NULL : Py_NewRef(*at);
}

/* Steals newitem, even on failure. */
int
PyList_SetItem(PyObject *op, Py_ssize_t i, PyObject *newitem)
{
    PyObject **at = is_list_arg(op) ? item_address((PyListObject *)op, i, assign_range_msg) : NULL;
    if (at == NULL) {
        Py_XDECREF(newitem);
        return -1;
    }
    PyObject *old = *at;
    *at = newitem;
    Py_XDECREF(old); /* after the store: its destructor may look at the list */
    return 0;
}

static int
ins1(PyListObject *self, Py_ssize_t where, PyObject *v)
{
    Py_ssize_t n = Py_SIZE(self);
    if (list_resize(self, n + 1) < 0) {
        return -1;
    }
    if (where < 0) {
        where += n;
        if (where < 0) {
            where = 0;
        }
    }
    if (where > n) {
        where = n;
    }
    PyObject **items = self->ob_item;
    memmove(&items[where + 1], &items[where], (size_t)(n - where) * sizeof(PyObject *));
    items[where] = Py_NewRef(v);
    return 0;
}

int
PyList_Insert(PyObject *op, Py_ssize_t where, PyObject *newitem)
{
    if (!PyList_Check(op) || newitem == NULL) {
        PyErr_BadInternalCall();
        return -1;
    }
    return ins1((PyListObject *)op, where, newitem);
}

int
_PyList_AppendTakeRefListResize(PyListObject *self, PyObject *newitem)
{
    /* no spare slot left: grow (which also counts the new item) */
    if (list_resize(self, Py_SIZE(self) + 1) == 0) {
        self->ob_item[Py_SIZE(self) - 1] = newitem;
        return 0;
    }
    Py_DECREF(newitem);
    return -1;
}

int
_PyList_AppendTakeRef(PyListObject *self, PyObject *newitem)
{
    return _PyList_AppendTakeRefInline(self, newitem);
}

int
PyList_Append(PyObject *op, PyObject *newitem)
{
    if (PyList_Check(op) && newitem != NULL) {
        return _PyList_AppendTakeRef((PyListObject *)op, Py_NewRef(newitem));
    }
    PyErr_BadInternalCall();
    return -1;
}

int
PyList_Clear(PyObject *op)
{
    if (!PyList_Check(op)) {
        PyErr_BadInternalCall();
        return -1;
    }
    list_clear_items((PyListObject *)op);
    return 0;
}

/* ---- Deallocation and GC ------------------------------------------------- */

static void
list_dealloc(PyObject *op)
{
    PyListObject *self = (PyListObject *)op;
    PyObject_GC_UnTrack(op);
    if (self->ob_item != NULL) {
        Py_ssize_t i = Py_SIZE(self);
        while (--i >= 0) {
            Py_XDECREF(self->ob_item[i]);
        }
        PyMem_Free(self->ob_item);
    }
    Py_TYPE(op)->tp_free(op);
}

static int
list_traverse(PyObject *op, visitproc visit, void *arg)
{
    PyListObject *o = (PyListObject *)op;
    for (Py_ssize_t i = Py_SIZE(o); --i >= 0;) {
        Py_VISIT(o->ob_item[i]);
    }
    return 0;
}

static int
list_tp_clear(PyObject *op)
{
    list_clear_items((PyListObject *)op);
    return 0;
}

/* ---- repr ----------------------------------------------------------------- */

static PyObject *
list_repr(PyObject *op)
{
    PyListObject *v = (PyListObject *)op;
    if (Py_SIZE(v) == 0) {
        return PyUnicode_FromString("[]");
    }
    int rc = Py_ReprEnter(op);
    if (rc != 0) {
        return rc > 0 ? PyUnicode_FromString("[...]") : NULL;
    }

    _PyUnicodeWriter writer;
    _PyUnicodeWriter_Init(&writer);
    writer.overallocate = 1;
    writer.min_length = 1 + 1 + (2 + 1) * (Py_SIZE(v) - 1) + 1;

    if (_PyUnicodeWriter_WriteChar(&writer, '[') < 0) {
        goto error;
    }
    /* The list may change while item reprs run: re-read the size. */
    for (Py_ssize_t i = 0; i < Py_SIZE(v); i++) {
        if (i > 0 && _PyUnicodeWriter_WriteASCIIString(&writer, ", ", 2) < 0) {
            goto error;
        }
        PyObject *item = Py_NewRef(v->ob_item[i]);
        PyObject *s = PyObject_Repr(item);
        Py_DECREF(item);
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
    if (_PyUnicodeWriter_WriteChar(&writer, ']') < 0) {
        goto error;
    }
    Py_ReprLeave(op);
    return _PyUnicodeWriter_Finish(&writer);

error:
    _PyUnicodeWriter_Dealloc(&writer);
    Py_ReprLeave(op);
    return NULL;
}

/* ---- Sequence protocol ----------------------------------------------------- */

static Py_ssize_t
list_length(PyObject *a)
{
    return Py_SIZE(a);
}

/* First index in [from, to) whose item == value, -1 when there is none,
   -2 when a comparison raised.  __eq__ may shrink the list, so the length
   is read again at every step and the item is held while compared. */
static Py_ssize_t
find_equal(PyListObject *self, PyObject *value, Py_ssize_t from, Py_ssize_t to)
{
    for (Py_ssize_t i = from; i < to && i < Py_SIZE(self); i++) {
        PyObject *candidate = Py_NewRef(self->ob_item[i]);
        int eq = PyObject_RichCompareBool(candidate, value, Py_EQ);
        Py_DECREF(candidate);
        if (eq != 0) {
            return eq > 0 ? i : -2;
        }
    }
    return -1;
}

static int
list_contains(PyObject *op, PyObject *el)
{
    Py_ssize_t at = find_equal((PyListObject *)op, el, 0, PY_SSIZE_T_MAX);
    return at == -2 ? -1 : at >= 0;
}

static PyObject *
list_item(PyObject *op, Py_ssize_t i)
{
    PyObject **at = item_address((PyListObject *)op, i, index_range_msg);
    return at ? Py_NewRef(*at) : NULL;
}

static PyObject *
list_slice(PyListObject *a, Py_ssize_t ilow, Py_ssize_t ihigh)
{
    Py_ssize_t len = ihigh - ilow;
    if (len <= 0) {
        return PyList_New(0);
    }
    return list_from_array(a->ob_item + ilow, len);
}

/* Clamp the bounds of a[ilow:ihigh] to 0 <= ilow <= ihigh <= size, the
   way the C-level slice entry points treat out-of-range indices. */
static inline void
list_clamp_bounds(Py_ssize_t size, Py_ssize_t *ilow, Py_ssize_t *ihigh)
{
    if (*ilow < 0) {
        *ilow = 0;
    }
    else if (*ilow > size) {
        *ilow = size;
    }
    if (*ihigh < *ilow) {
        *ihigh = *ilow;
    }
    else if (*ihigh > size) {
        *ihigh = size;
    }
}

PyObject *
PyList_GetSlice(PyObject *a, Py_ssize_t ilow, Py_ssize_t ihigh)
{
    if (!PyList_Check(a)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    list_clamp_bounds(Py_SIZE(a), &ilow, &ihigh);
    return list_slice((PyListObject *)a, ilow, ihigh);
}

PyObject *
_PyList_Copy(PyObject *list)
{
    return list_slice((PyListObject *)list, 0, Py_SIZE(list));
}

static PyObject *
list_concat(PyObject *aa, PyObject *bb)
{
    if (!PyList_Check(bb)) {
        PyErr_Format(PyExc_TypeError,
                     "can only concatenate list (not \"%.200s\") to list",
                     Py_TYPE(bb)->tp_name);
        return NULL;
    }
    PyListObject *a = (PyListObject *)aa, *b = (PyListObject *)bb;
    Py_ssize_t size = Py_SIZE(a) + Py_SIZE(b); /* both fit in memory: no overflow */
    PyListObject *np = list_new_prealloc(size);
    if (np == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < Py_SIZE(a); i++) {
        np->ob_item[i] = Py_NewRef(a->ob_item[i]);
    }
    for (Py_ssize_t i = 0; i < Py_SIZE(b); i++) {
        np->ob_item[Py_SIZE(a) + i] = Py_NewRef(b->ob_item[i]);
    }
    Py_SET_SIZE(np, size);
    return (PyObject *)np;
}

/* len * n as the size of a repetition; MemoryError when that overflows.
   (n > 0 and len > 0.) */
static int
repeated_size(Py_ssize_t len, Py_ssize_t n, Py_ssize_t *total)
{
    if (len > PY_SSIZE_T_MAX / n) {
        PyErr_NoMemory();
        return -1;
    }
    *total = len * n;
    return 0;
}

/* items[0:period] are in place; fill items[period:total] with further
   references to them, repeating the block. */
static void
fill_by_repeating(PyObject **items, Py_ssize_t period, Py_ssize_t total)
{
    for (PyObject **to = items + period, **end = items + total; to < end; to++) {
        *to = Py_NewRef(to[-period]);
    }
}

static PyObject *
list_repeat(PyObject *op, Py_ssize_t n)
{
    Py_ssize_t len = Py_SIZE(op), total;
    if (n <= 0 || len == 0) {
        return PyList_New(0);
    }
    if (repeated_size(len, n, &total) < 0) {
        return NULL;
    }
    PyListObject *result = list_new_prealloc(total);
    if (result != NULL) {
        PyObject **src = ((PyListObject *)op)->ob_item;
        for (Py_ssize_t k = 0; k < len; k++) {
            result->ob_item[k] = Py_NewRef(src[k]);
        }
        fill_by_repeating(result->ob_item, len, total);
        Py_SET_SIZE(result, total);
    }
    return (PyObject *)result;
}

/* a[ilow:ihigh] = v, where v is NULL (delete), a list, or any iterable.
   Old items are released only after the list is consistent again, since
   their destructors may run arbitrary code. */
static int
list_ass_slice_impl(PyListObject *a, Py_ssize_t ilow, Py_ssize_t ihigh, PyObject *v,
                    const char *not_iterable_msg)
{
    PyObject *v_as_SF = NULL;
    PyObject **vitem = NULL;
    Py_ssize_t n = 0;
    PyObject *recycle_on_stack[8];
    PyObject **recycle = recycle_on_stack;
    int result = -1;

    if (v != NULL) {
        if (a == (PyListObject *)v) {
            /* a[i:j] = a: copy first, the source is about to change */
            v_as_SF = list_slice(a, 0, Py_SIZE(a));
        }
        else {
            v_as_SF = PySequence_Fast(v, not_iterable_msg);
        }
        if (v_as_SF == NULL) {
            return -1;
        }
        n = PySequence_Fast_GET_SIZE(v_as_SF);
        vitem = PySequence_Fast_ITEMS(v_as_SF);
    }

    list_clamp_bounds(Py_SIZE(a), &ilow, &ihigh);

    Py_ssize_t norig = ihigh - ilow;
    Py_ssize_t d = n - norig;
    if (Py_SIZE(a) + d == 0) {
        Py_XDECREF(v_as_SF);
        list_clear_items(a);
        return 0;
    }

    size_t s = (size_t)norig * sizeof(PyObject *);
    if (s > sizeof(recycle_on_stack)) {
        recycle = (PyObject **)PyMem_Malloc(s);
        if (recycle == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    PyObject **item = a->ob_item;
    if (norig > 0) {
        memcpy(recycle, &item[ilow], s);
    }

    if (d < 0) {
        /* shrink: move the tail left, then give memory back */
        Py_ssize_t tail = Py_SIZE(a) - ihigh;
        memmove(&item[ihigh + d], &item[ihigh], (size_t)tail * sizeof(PyObject *));
        if (list_resize(a, Py_SIZE(a) + d) < 0) {
            /* shrinking cannot really fail, but restore if it does */
            memmove(&item[ihigh], &item[ihigh + d], (size_t)tail * sizeof(PyObject *));
            memcpy(&item[ilow], recycle, s);
            goto done;
        }
        item = a->ob_item;
    }
    else if (d > 0) {
        Py_ssize_t k = Py_SIZE(a);
        if (list_resize(a, k + d) < 0) {
            goto done;
        }
        item = a->ob_item;
        memmove(&item[ihigh + d], &item[ihigh], (size_t)(k - ihigh) * sizeof(PyObject *));
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        item[ilow + k] = Py_NewRef(vitem[k]);
    }
    for (Py_ssize_t k = norig - 1; k >= 0; --k) {
        Py_XDECREF(recycle[k]);
    }
    result = 0;

done:
    if (recycle != recycle_on_stack) {
        PyMem_Free(recycle);
    }
    Py_XDECREF(v_as_SF);
    return result;
}

static int
list_ass_slice(PyListObject *a, Py_ssize_t ilow, Py_ssize_t ihigh, PyObject *v)
{
    return list_ass_slice_impl(a, ilow, ihigh, v, "can only assign an iterable");
}

int
PyList_SetSlice(PyObject *a, Py_ssize_t ilow, Py_ssize_t ihigh, PyObject *v)
{
    if (!PyList_Check(a)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return list_ass_slice((PyListObject *)a, ilow, ihigh, v);
}

/* a[i] = v, or del a[i] when v is NULL */
static int
list_ass_item(PyObject *aa, Py_ssize_t i, PyObject *v)
{
    PyListObject *a = (PyListObject *)aa;
    PyObject **at = item_address(a, i, assign_range_msg);
    if (at == NULL) {
        return -1;
    }
    if (v == NULL) {
        return list_ass_slice(a, i, i + 1, NULL);
    }
    PyObject *old = *at;
    *at = Py_NewRef(v);
    Py_DECREF(old);
    return 0;
}

/* ---- extend ----------------------------------------------------------------- */

/* Extend by the items of a list or tuple (possibly self itself). */
static int
list_extend_fast(PyListObject *self, PyObject *iterable)
{
    Py_ssize_t extra = PySequence_Fast_GET_SIZE(iterable);
    Py_ssize_t old_len = Py_SIZE(self);
    if (extra == 0) {
        return 0;
    }
    if (extra > PY_SSIZE_T_MAX - old_len) {
        PyErr_NoMemory();
        return -1;
    }
    if (list_resize(self, old_len + extra) < 0) {
        return -1;
    }
    /* Looked up only now: for self.extend(self) the resize may have moved
       the very array we copy from (and extra == old_len was read before). */
    PyObject **from = PySequence_Fast_ITEMS(iterable);
    PyObject **to = self->ob_item + old_len;
    for (Py_ssize_t k = extra; k > 0; k--) {
        *to++ = Py_NewRef(*from++);
    }
    return 0;
}

/* Before consuming an iterator: make room (capacity, not size) for the
   number of items its iterable announces, so that appending doesn't
   reallocate step by step.  An absurd hint is ignored. */
static int
reserve_for_hint(PyListObject *self, PyObject *iterable)
{
    Py_ssize_t hint = PyObject_LengthHint(iterable, 8);
    if (hint < 0) {
        return -1;
    }
    Py_ssize_t len = Py_SIZE(self);
    if (hint == 0 || hint > PY_SSIZE_T_MAX - len || len + hint <= self->allocated) {
        return 0;
    }
    if (list_resize(self, len + hint) < 0) {
        return -1;
    }
    Py_SET_SIZE(self, len); /* room only: the items are not there yet */
    return 0;
}

/* Append everything an iterator yields; -1 on error (items appended so
   far stay).  A StopIteration set by tp_iternext is a normal end. */
static int
append_all_from(PyListObject *self, PyObject *iterator)
{
    iternextfunc next_item = Py_TYPE(iterator)->tp_iternext;
    PyObject *item;
    while ((item = next_item(iterator)) != NULL) {
        if (_PyList_AppendTakeRefInline(self, item) < 0) {
            return -1;
        }
    }
    if (PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_StopIteration)) {
            return -1;
        }
        PyErr_Clear();
    }
    return 0;
}

static int
list_extend_iter(PyListObject *self, PyObject *iterable)
{
    PyObject *iterator = PyObject_GetIter(iterable);
    if (iterator == NULL) {
        return -1;
    }
    int status = reserve_for_hint(self, iterable);
    if (status == 0) {
        status = append_all_from(self, iterator);
    }
    /* give back capacity the hint over-promised (list_resize decides
       whether the difference is worth a realloc) */
    if (status == 0 && Py_SIZE(self) < self->allocated) {
        status = list_resize(self, Py_SIZE(self));
    }
    Py_DECREF(iterator);
    return status;
}

static int
list_extend(PyListObject *self, PyObject *iterable)
{
    if (PyList_CheckExact(iterable) || PyTuple_CheckExact(iterable) ||
        (PyObject *)self == iterable) {
        return list_extend_fast(self, iterable);
    }
    return list_extend_iter(self, iterable);
}

int
PyList_Extend(PyObject *list, PyObject *iterable)
{
    if (!PyList_Check(list)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return list_extend((PyListObject *)list, iterable);
}

PyObject *
_PyList_Extend(PyListObject *self, PyObject *iterable)
{
    if (list_extend(self, iterable) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
list_inplace_concat(PyObject *self, PyObject *other)
{
    if (list_extend((PyListObject *)self, other) < 0) {
        return NULL;
    }
    return Py_NewRef(self);
}

static PyObject *
list_inplace_repeat(PyObject *op, Py_ssize_t n)
{
    PyListObject *self = (PyListObject *)op;
    Py_ssize_t len = Py_SIZE(self), total;
    if (n < 1) {
        list_clear_items(self);
    }
    else if (n > 1 && len > 0) {
        if (repeated_size(len, n, &total) < 0 || list_resize(self, total) < 0) {
            return NULL;
        }
        fill_by_repeating(self->ob_item, len, total);
    }
    return Py_NewRef(op);
}

/* ---- Mapping protocol (indexes and slices) -------------------------------- */

/* An integer subscript as a position: negative ones count from the end.
   Values beyond Py_ssize_t are an IndexError too. */
static int
subscript_position(PyListObject *self, PyObject *index, Py_ssize_t *pos)
{
    Py_ssize_t value = PyNumber_AsSsize_t(index, PyExc_IndexError);
    if (value < 0) {
        if (value == -1 && PyErr_Occurred()) {
            return -1;
        }
        value += Py_SIZE(self); /* from the end */
    }
    *pos = value;
    return 0;
}

static void
bad_subscript_type(PyObject *index)
{
    PyErr_Format(PyExc_TypeError, "list indices must be integers or slices, not %.200s",
                 Py_TYPE(index)->tp_name);
}

static PyObject *
list_subscript(PyObject *op, PyObject *item)
{
    PyListObject *self = (PyListObject *)op;
    if (PyIndex_Check(item)) {
        Py_ssize_t i;
        if (subscript_position(self, item, &i) < 0) {
            return NULL;
        }
        return list_item(op, i);
    }
    if (PySlice_Check(item)) {
        Py_ssize_t start, stop, step;
        Py_ssize_t slicelength = _PySlice_Resolve(item, (PyObject *)self, &start, &stop, &step);
        if (slicelength < 0) {
            return NULL;
        }
        if (step == 1) {
            return list_slice(self, start, stop);
        }
        PyListObject *result = list_new_prealloc(slicelength);
        if (result == NULL) {
            return NULL;
        }
        PyObject **src = self->ob_item;
        Py_ssize_t cur = start;
        for (Py_ssize_t i = 0; i < slicelength; i++, cur += step) {
            result->ob_item[i] = Py_NewRef(src[cur]);
        }
        Py_SET_SIZE(result, slicelength);
        return (PyObject *)result;
    }
    bad_subscript_type(item);
    return NULL;
}

/* del a[start:stop:step] for a step other than 1 */
static int
list_del_extended(PyListObject *self, Py_ssize_t start, Py_ssize_t step,
                  Py_ssize_t slicelength)
{
    if (slicelength <= 0) {
        return 0;
    }
    if (step < 0) {
        /* same items, visited left to right */
        start = start + step * (slicelength - 1);
        step = -step;
    }
    PyObject **garbage = PyMem_New(PyObject *, slicelength);
    if (garbage == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject **items = self->ob_item;
    Py_ssize_t size = Py_SIZE(self);
    Py_ssize_t dst = start, g = 0;
    for (Py_ssize_t src = start; src < size; src++) {
        if (g < slicelength && src == start + g * step) {
            garbage[g++] = items[src];
        }
        else {
            items[dst++] = items[src];
        }
    }
    Py_SET_SIZE(self, size - slicelength);
    int res = list_resize(self, Py_SIZE(self));
    for (Py_ssize_t i = 0; i < slicelength; i++) {
        Py_DECREF(garbage[i]);
    }
    PyMem_Free(garbage);
    return res;
}

static int
list_assign_extended(PyListObject *self, Py_ssize_t start, Py_ssize_t step,
                     Py_ssize_t slicelength, PyObject *value)
{
    PyObject *seq;
    if ((PyObject *)self == value) {
        seq = list_slice(self, 0, Py_SIZE(self));
    }
    else {
        seq = PySequence_Fast(value, "must assign iterable to extended slice");
    }
    if (seq == NULL) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != slicelength) {
        PyErr_Format(PyExc_ValueError,
                     "attempt to assign sequence of size %zd to extended slice of size %zd",
                     PySequence_Fast_GET_SIZE(seq), slicelength);
        Py_DECREF(seq);
        return -1;
    }
    if (slicelength == 0) {
        Py_DECREF(seq);
        return 0;
    }
    PyObject **garbage = PyMem_New(PyObject *, slicelength);
    if (garbage == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    PyObject **src = PySequence_Fast_ITEMS(seq);
    Py_ssize_t cur = start;
    for (Py_ssize_t i = 0; i < slicelength; i++, cur += step) {
        garbage[i] = self->ob_item[cur];
        self->ob_item[cur] = Py_NewRef(src[i]);
    }
    for (Py_ssize_t i = 0; i < slicelength; i++) {
        Py_DECREF(garbage[i]);
    }
    PyMem_Free(garbage);
    Py_DECREF(seq);
    return 0;
}

/* a[slice] = value, or del a[slice] when value is NULL */
static int
assign_to_slice(PyListObject *self, PyObject *slice, PyObject *value)
{
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(slice, &start, &stop, &step) < 0) {
        return -1;
    }
    Py_ssize_t count = PySlice_AdjustIndices(Py_SIZE(self), &start, &stop, step);
    if (step != 1) {
        return value == NULL ? list_del_extended(self, start, step, count)
                             : list_assign_extended(self, start, step, count, value);
    }
    /* Contiguous.  An empty range like a[5:2] still designates position
       5, where an assignment inserts. */
    return list_ass_slice_impl(self, start, stop > start ? stop : start, value,
                               "must assign iterable to extended slice");
}

static int
list_ass_subscript(PyObject *op, PyObject *item, PyObject *value)
{
    if (PySlice_Check(item)) {
        return assign_to_slice((PyListObject *)op, item, value);
    }
    if (!PyIndex_Check(item)) {
        bad_subscript_type(item);
        return -1;
    }
    Py_ssize_t i;
    if (subscript_position((PyListObject *)op, item, &i) < 0) {
        return -1;
    }
    return list_ass_item(op, i, value);
}

/* ---- Comparison --------------------------------------------------------------- */

/* The first position where v and w hold items that are not ==, or the
   length of the shorter list when it is a prefix of the other (the
   caller tells the two apart by comparing with the lengths); -1 when a
   comparison raised.  __eq__ may resize either list: the bounds are read
   at every step. */
static Py_ssize_t
first_unequal(PyListObject *v, PyListObject *w)
{
    Py_ssize_t i = 0;
    for (;;) {
        /* While items are identical no user code runs, so the bounds and
           arrays read here stay valid: skip such runs in a tight loop. */
        Py_ssize_t common = Py_MIN(Py_SIZE(v), Py_SIZE(w));
        PyObject **vitems = v->ob_item, **witems = w->ob_item;
        while (i < common && vitems[i] == witems[i]) {
            i++;
        }
        if (i >= common) {
            return i;
        }
        PyObject *left = Py_NewRef(vitems[i]);
        PyObject *right = Py_NewRef(witems[i]);
        int eq = PyObject_RichCompareBool(left, right, Py_EQ);
        Py_DECREF(left);
        Py_DECREF(right);
        if (eq <= 0) {
            return eq == 0 ? i : -1;
        }
        i++; /* equal but not identical: go on, re-reading the bounds */
    }
}

/* Lexicographic: the first differing items decide, else the lengths. */
static PyObject *
list_richcompare(PyObject *v, PyObject *w, int op)
{
    if (!PyList_Check(v) || !PyList_Check(w)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    const int equality_test = op == Py_EQ || op == Py_NE;
    if (equality_test && Py_SIZE(v) != Py_SIZE(w)) {
        /* different lengths: unequal without looking at any item */
        return PyBool_FromLong(op == Py_NE);
    }
    PyListObject *vl = (PyListObject *)v, *wl = (PyListObject *)w;
    Py_ssize_t at = first_unequal(vl, wl);
    if (at < 0) {
        return NULL;
    }
    if (at >= Py_SIZE(vl) || at >= Py_SIZE(wl)) {
        Py_RETURN_RICHCOMPARE(Py_SIZE(vl), Py_SIZE(wl), op);
    }
    if (equality_test) {
        return PyBool_FromLong(op == Py_NE);
    }
    /* ordering: ask the two differing items themselves */
    PyObject *left = Py_NewRef(vl->ob_item[at]);
    PyObject *right = Py_NewRef(wl->ob_item[at]);
    PyObject *verdict = PyObject_RichCompare(left, right, op);
    Py_DECREF(right);
    Py_DECREF(left);
    return verdict;
}

/* ---- Methods ------------------------------------------------------------------- */

/* An index argument of insert/pop: any __index__ object; values that
   don't fit a Py_ssize_t are an OverflowError (not clamped). */
static int
index_arg(PyObject *arg, Py_ssize_t *result)
{
    PyObject *iobj = PyNumber_Index(arg);
    if (iobj == NULL) {
        return -1;
    }
    *result = PyLong_AsSsize_t(iobj);
    Py_DECREF(iobj);
    if (*result == -1 && PyErr_Occurred()) {
        return -1;
    }
    return 0;
}

static PyObject *
list_append(PyObject *self, PyObject *object)
{
    if (_PyList_AppendTakeRef((PyListObject *)self, Py_NewRef(object)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
list_extend_meth(PyObject *self, PyObject *iterable)
{
    return _PyList_Extend((PyListObject *)self, iterable);
}

static PyObject *
list_insert(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "insert expected 2 arguments, got %zd", nargs);
        return NULL;
    }
    Py_ssize_t index;
    if (index_arg(args[0], &index) < 0) {
        return NULL;
    }
    if (ins1((PyListObject *)self, index, args[1]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
list_clear_meth(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    list_clear_items((PyListObject *)self);
    Py_RETURN_NONE;
}

static PyObject *
list_copy(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return _PyList_Copy(self);
}

static PyObject *
list_pop(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    PyListObject *self = (PyListObject *)op;
    Py_ssize_t index = -1;
    if (!_PyArg_CheckPositional("pop", nargs, 0, 1)) {
        return NULL;
    }
    if (nargs == 1 && index_arg(args[0], &index) < 0) {
        return NULL;
    }
    Py_ssize_t size = Py_SIZE(self);
    if (size == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from empty list");
        return NULL;
    }
    if (index < 0) {
        index += size;
    }
    if (!valid_index(index, size)) {
        PyErr_SetString(PyExc_IndexError, "pop index out of range");
        return NULL;
    }
    PyObject **items = self->ob_item;
    PyObject *v = items[index];
    if (index == size - 1) {
        /* the common case: no shifting, maybe shrink */
        if (list_resize(self, size - 1) < 0) {
            return NULL;
        }
        return v;
    }
    memmove(&items[index], &items[index + 1], (size_t)(size - index - 1) * sizeof(PyObject *));
    if (list_resize(self, size - 1) < 0) {
        /* undo */
        memmove(&items[index + 1], &items[index], (size_t)(size - index - 1) * sizeof(PyObject *));
        items[index] = v;
        return NULL;
    }
    return v;
}

static PyObject *
list_remove(PyObject *op, PyObject *value)
{
    PyListObject *self = (PyListObject *)op;
    Py_ssize_t at = find_equal(self, value, 0, PY_SSIZE_T_MAX);
    if (at == -1) {
        PyErr_SetString(PyExc_ValueError, "list.remove(x): x not in list");
    }
    if (at < 0 || list_ass_slice(self, at, at + 1, NULL) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* A start/stop argument of index(): counted from the end when negative,
   never below 0 (the upper end is bounded by the scan itself). */
static Py_ssize_t
clamp_search_bound(Py_ssize_t bound, Py_ssize_t len)
{
    if (bound >= 0) {
        return bound;
    }
    bound += len;
    return bound < 0 ? 0 : bound;
}

static PyObject *
list_index(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    PyListObject *self = (PyListObject *)op;
    if (!_PyArg_CheckPositional("index", nargs, 1, 3)) {
        return NULL;
    }
    Py_ssize_t bounds[2] = {0, PY_SSIZE_T_MAX}; /* start, stop */
    for (Py_ssize_t k = 1; k < nargs; k++) {
        if (!_PyEval_SliceIndexNotNone(args[k], &bounds[k - 1])) {
            return NULL;
        }
    }
    Py_ssize_t len = Py_SIZE(self);
    Py_ssize_t at = find_equal(self, args[0], clamp_search_bound(bounds[0], len),
                               clamp_search_bound(bounds[1], len));
    if (at >= 0) {
        return PyLong_FromSsize_t(at);
    }
    if (at == -1) {
        PyErr_SetString(PyExc_ValueError, "list.index(x): x not in list");
    }
    return NULL;
}

static PyObject *
list_count(PyObject *op, PyObject *value)
{
    PyListObject *self = (PyListObject *)op;
    Py_ssize_t occurrences = 0;
    Py_ssize_t at = find_equal(self, value, 0, PY_SSIZE_T_MAX);
    while (at >= 0) {
        occurrences++;
        at = find_equal(self, value, at + 1, PY_SSIZE_T_MAX);
    }
    return at == -2 ? NULL : PyLong_FromSsize_t(occurrences);
}

static void
reverse_slice(PyObject **lo, PyObject **hi)
{
    --hi;
    while (lo < hi) {
        PyObject *t = *lo;
        *lo = *hi;
        *hi = t;
        ++lo;
        --hi;
    }
}

int
PyList_Reverse(PyObject *v)
{
    if (!is_list_arg(v)) {
        return -1;
    }
    PyObject **items = _PyList_ITEMS(v);
    Py_ssize_t n = Py_SIZE(v);
    if (n >= 2) { /* an empty list may have no array at all */
        reverse_slice(items, items + n);
    }
    return 0;
}

static PyObject *
list_reverse(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyList_Reverse(self);
    Py_RETURN_NONE;
}

static PyObject *
list_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    size_t res = (size_t)Py_TYPE(self)->tp_basicsize;
    res += (size_t)((PyListObject *)self)->allocated * sizeof(PyObject *);
    return PyLong_FromSize_t(res);
}

PyObject *
PyList_AsTuple(PyObject *v)
{
    if (v == NULL || !PyList_Check(v)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return _PyTuple_FromArray(((PyListObject *)v)->ob_item, Py_SIZE(v));
}

/* ---- Sorting ----------------------------------------------------------------------
   See Objects/listsort.md.  Keys are sorted in `keys`; when a key function
   is used the list items ride along in the parallel `values` array. */

#define MIN_MERGE 64
#define MAX_RUNS 85 /* enough for 2**64 items given the run-length invariants */

typedef struct sortstate sortstate;
typedef int (*lt_func)(PyObject *, PyObject *, sortstate *);

typedef struct {
    Py_ssize_t base;
    Py_ssize_t len;
} sortrun;

struct sortstate {
    PyObject **keys;
    PyObject **values; /* NULL when the keys are the items */
    lt_func lt;
    richcmpfunc key_richcompare; /* for the same-type fast path */
    PyObject **tmp;    /* merge scratch space: keys, then values */
    Py_ssize_t tmp_len;
    int nruns;
    sortrun runs[MAX_RUNS];
};

/* The comparison functions return 1 if a < b, 0 if not, -1 on error. */

static int
lt_generic(PyObject *a, PyObject *b, sortstate *ms)
{
    return PyObject_RichCompareBool(a, b, Py_LT);
}

/* All keys have the same type: call its comparison slot directly. */
static int
lt_same_type(PyObject *a, PyObject *b, sortstate *ms)
{
    PyObject *res = ms->key_richcompare(a, b, Py_LT);
    if (res == Py_NotImplemented) {
        Py_DECREF(res);
        return PyObject_RichCompareBool(a, b, Py_LT);
    }
    if (res == NULL) {
        return -1;
    }
    int ok;
    if (PyBool_Check(res)) {
        ok = (res == Py_True);
    }
    else {
        ok = PyObject_IsTrue(res);
    }
    Py_DECREF(res);
    return ok;
}

/* All keys are exact compact ints (one digit). */
static int
lt_compact_int(PyObject *a, PyObject *b, sortstate *ms)
{
    return _PyLong_CompactValue((PyLongObject *)a) < _PyLong_CompactValue((PyLongObject *)b);
}

static int
lt_float(PyObject *a, PyObject *b, sortstate *ms)
{
    return PyFloat_AS_DOUBLE(a) < PyFloat_AS_DOUBLE(b);
}

/* Exact strs: code point order. */
static int
lt_str(PyObject *a, PyObject *b, sortstate *ms)
{
    Py_ssize_t la = PyUnicode_GET_LENGTH(a), lb = PyUnicode_GET_LENGTH(b);
    Py_ssize_t n = la < lb ? la : lb;
    int ka = PyUnicode_KIND(a), kb = PyUnicode_KIND(b);
    const void *da = PyUnicode_DATA(a), *db = PyUnicode_DATA(b);
    if (ka == PyUnicode_1BYTE_KIND && kb == PyUnicode_1BYTE_KIND) {
        int c = memcmp(da, db, (size_t)n);
        if (c != 0) {
            return c < 0;
        }
        return la < lb;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ca = PyUnicode_READ(ka, da, i), cb = PyUnicode_READ(kb, db, i);
        if (ca != cb) {
            return ca < cb;
        }
    }
    return la < lb;
}

/* Pick the cheapest correct comparison for these keys. */
static void
choose_compare(sortstate *ms, Py_ssize_t n)
{
    ms->lt = lt_generic;
    if (n < 2) {
        return;
    }
    PyTypeObject *type = Py_TYPE(ms->keys[0]);
    for (Py_ssize_t i = 1; i < n; i++) {
        if (Py_TYPE(ms->keys[i]) != type) {
            return;
        }
    }
    if (type == &PyLong_Type) {
        int all_compact = 1;
        for (Py_ssize_t i = 0; i < n && all_compact; i++) {
            all_compact = _PyLong_IsCompact((PyLongObject *)ms->keys[i]);
        }
        if (all_compact) {
            ms->lt = lt_compact_int;
            return;
        }
    }
    else if (type == &PyFloat_Type) {
        ms->lt = lt_float;
        return;
    }
    else if (type == &PyUnicode_Type) {
        ms->lt = lt_str;
        return;
    }
    if (type->tp_richcompare != NULL) {
        ms->key_richcompare = type->tp_richcompare;
        ms->lt = lt_same_type;
    }
}

static int
ensure_tmp(sortstate *ms, Py_ssize_t need)
{
    if (need <= ms->tmp_len) {
        return 0;
    }
    size_t per = ms->values ? 2 : 1;
    PyMem_Free(ms->tmp);
    ms->tmp = NULL;
    ms->tmp_len = 0;
    if ((size_t)need > PY_SSIZE_T_MAX / (sizeof(PyObject *) * per)) {
        PyErr_NoMemory();
        return -1;
    }
    ms->tmp = (PyObject **)PyMem_Malloc((size_t)need * per * sizeof(PyObject *));
    if (ms->tmp == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    ms->tmp_len = need;
    return 0;
}

/* Copy n elements (keys and, if present, values) from index src to dst of
   the main arrays, allowing overlap. */
static void
move_main(sortstate *ms, Py_ssize_t dst, Py_ssize_t src, Py_ssize_t n)
{
    memmove(ms->keys + dst, ms->keys + src, (size_t)n * sizeof(PyObject *));
    if (ms->values) {
        memmove(ms->values + dst, ms->values + src, (size_t)n * sizeof(PyObject *));
    }
}

static void
reverse_range(sortstate *ms, Py_ssize_t lo, Py_ssize_t hi)
{
    reverse_slice(ms->keys + lo, ms->keys + hi);
    if (ms->values) {
        reverse_slice(ms->values + lo, ms->values + hi);
    }
}

/* Sort [lo, hi) given that [lo, start) is already sorted, by binary
   insertion: few comparisons, and the data moves are cheap memmoves. */
static int
binary_insertion(sortstate *ms, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t start)
{
    PyObject **keys = ms->keys, **values = ms->values;
    for (; start < hi; start++) {
        PyObject *pivot = keys[start];
        PyObject *pivot_val = values ? values[start] : NULL;
        Py_ssize_t l = lo, r = start;
        /* rightmost position keeps equal keys in their original order */
        while (l < r) {
            Py_ssize_t m = l + ((r - l) >> 1);
            int k = ms->lt(pivot, keys[m], ms);
            if (k < 0) {
                return -1;
            }
            if (k) {
                r = m;
            }
            else {
                l = m + 1;
            }
        }
        move_main(ms, l + 1, l, start - l);
        keys[l] = pivot;
        if (values) {
            values[l] = pivot_val;
        }
    }
    return 0;
}

/* Length of the run starting at lo (at most hi - lo).  Strictly descending
   runs are reversed in place; requiring strictness keeps the sort stable. */
static Py_ssize_t
count_run(sortstate *ms, Py_ssize_t lo, Py_ssize_t hi)
{
    PyObject **keys = ms->keys;
    Py_ssize_t k = lo + 1;
    if (k == hi) {
        return 1;
    }
    int descending = ms->lt(keys[k], keys[lo], ms);
    if (descending < 0) {
        return -1;
    }
    for (k++; k < hi; k++) {
        int c = ms->lt(keys[k], keys[k - 1], ms);
        if (c < 0) {
            return -1;
        }
        if (c != descending) {
            break;
        }
    }
    if (descending) {
        reverse_range(ms, lo, k);
    }
    return k - lo;
}

/* Number of keys in [base, base+n) that are <= key (if right) or < key
   (if !right); the keys are sorted. */
static Py_ssize_t
search_run(sortstate *ms, PyObject *key, Py_ssize_t base, Py_ssize_t n, int right)
{
    Py_ssize_t l = 0, r = n;
    while (l < r) {
        Py_ssize_t m = l + ((r - l) >> 1);
        int k = right ? ms->lt(key, ms->keys[base + m], ms)
                      : ms->lt(ms->keys[base + m], key, ms);
        if (k < 0) {
            return -1;
        }
        if (right ? k : !k) {
            r = m;
        }
        else {
            l = m + 1;
        }
    }
    return l;
}

/* Merge runs A=[a, a+na) and B=[a+na, a+na+nb) with na <= nb: A goes to
   scratch space and the merge fills the array from the left.  On error the
   unmerged rest of A is copied back, so no item is ever lost. */
static int
merge_lo(sortstate *ms, Py_ssize_t a, Py_ssize_t na, Py_ssize_t nb)
{
    if (ensure_tmp(ms, na) < 0) {
        return -1;
    }
    PyObject **keys = ms->keys, **values = ms->values;
    PyObject **tk = ms->tmp, **tv = ms->tmp + ms->tmp_len;
    memcpy(tk, keys + a, (size_t)na * sizeof(PyObject *));
    if (values) {
        memcpy(tv, values + a, (size_t)na * sizeof(PyObject *));
    }
    Py_ssize_t dest = a, pa = 0, pb = a + na, end_b = a + na + nb;
    int result = 0;
    while (pa < na && pb < end_b) {
        int k = ms->lt(keys[pb], tk[pa], ms);
        if (k < 0) {
            result = -1;
            break;
        }
        if (k) {
            keys[dest] = keys[pb];
            if (values) {
                values[dest] = values[pb];
            }
            pb++;
        }
        else {
            keys[dest] = tk[pa];
            if (values) {
                values[dest] = tv[pa];
            }
            pa++;
        }
        dest++;
    }
    /* what is left of B is already in place; the rest of A fills the gap */
    memcpy(keys + dest, tk + pa, (size_t)(na - pa) * sizeof(PyObject *));
    if (values) {
        memcpy(values + dest, tv + pa, (size_t)(na - pa) * sizeof(PyObject *));
    }
    return result;
}

/* Mirror image of merge_lo for na > nb: B goes to scratch space and the
   merge fills the array from the right. */
static int
merge_hi(sortstate *ms, Py_ssize_t a, Py_ssize_t na, Py_ssize_t nb)
{
    if (ensure_tmp(ms, nb) < 0) {
        return -1;
    }
    PyObject **keys = ms->keys, **values = ms->values;
    PyObject **tk = ms->tmp, **tv = ms->tmp + ms->tmp_len;
    Py_ssize_t b = a + na;
    memcpy(tk, keys + b, (size_t)nb * sizeof(PyObject *));
    if (values) {
        memcpy(tv, values + b, (size_t)nb * sizeof(PyObject *));
    }
    /* pa, pb, dest are one past the element they designate */
    Py_ssize_t dest = b + nb, pa = b, pb = nb;
    int result = 0;
    while (pa > a && pb > 0) {
        int k = ms->lt(tk[pb - 1], keys[pa - 1], ms);
        if (k < 0) {
            result = -1;
            break;
        }
        dest--;
        if (k) {
            pa--;
            keys[dest] = keys[pa];
            if (values) {
                values[dest] = values[pa];
            }
        }
        else {
            pb--;
            keys[dest] = tk[pb];
            if (values) {
                values[dest] = tv[pb];
            }
        }
    }
    memcpy(keys + dest - pb, tk, (size_t)pb * sizeof(PyObject *));
    if (values) {
        memcpy(values + dest - pb, tv, (size_t)pb * sizeof(PyObject *));
    }
    return result;
}

/* Merge runs i and i+1 of the stack. */
static int
merge_at(sortstate *ms, int i)
{
    Py_ssize_t a = ms->runs[i].base, na = ms->runs[i].len;
    Py_ssize_t b = ms->runs[i + 1].base, nb = ms->runs[i + 1].len;
    assert(a + na == b);

    ms->runs[i].len = na + nb;
    if (i == ms->nruns - 3) {
        ms->runs[i + 1] = ms->runs[i + 2];
    }
    ms->nruns--;

    /* Items of A not greater than B's first are already in place, as are
       items of B not less than A's last: only the middle needs merging. */
    Py_ssize_t k = search_run(ms, ms->keys[b], a, na, 1);
    if (k < 0) {
        return -1;
    }
    a += k;
    na -= k;
    if (na == 0) {
        return 0;
    }
    nb = search_run(ms, ms->keys[a + na - 1], b, nb, 0);
    if (nb <= 0) {
        return nb;
    }
    return na <= nb ? merge_lo(ms, a, na, nb) : merge_hi(ms, a, na, nb);
}

/* Keep pending run lengths growing at least like Fibonacci numbers from
   the top of the stack down, so that merges stay balanced and the stack
   stays shallow. */
static int
merge_collapse(sortstate *ms)
{
    sortrun *r = ms->runs;
    while (ms->nruns > 1) {
        int n = ms->nruns - 2;
        if ((n > 0 && r[n - 1].len <= r[n].len + r[n + 1].len) ||
            (n > 1 && r[n - 2].len <= r[n - 1].len + r[n].len)) {
            if (r[n - 1].len < r[n + 1].len) {
                n--;
            }
        }
        else if (r[n].len > r[n + 1].len) {
            break;
        }
        if (merge_at(ms, n) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
merge_force_collapse(sortstate *ms)
{
    sortrun *r = ms->runs;
    while (ms->nruns > 1) {
        int n = ms->nruns - 2;
        if (n > 0 && r[n - 1].len < r[n + 1].len) {
            n--;
        }
        if (merge_at(ms, n) < 0) {
            return -1;
        }
    }
    return 0;
}

/* A run length between MIN_MERGE/2 and MIN_MERGE such that n / minrun is
   a power of two or a little less: that keeps the final merges balanced. */
static Py_ssize_t
compute_minrun(Py_ssize_t n)
{
    Py_ssize_t extra = 0;
    while (n >= MIN_MERGE) {
        extra |= n & 1;
        n >>= 1;
    }
    return n + extra;
}

/* Sort keys[0:n) (and values alongside) stably.  0 or -1. */
static int
timsort(sortstate *ms, Py_ssize_t n)
{
    Py_ssize_t minrun = compute_minrun(n);
    Py_ssize_t lo = 0;
    while (lo < n) {
        Py_ssize_t run = count_run(ms, lo, n);
        if (run < 0) {
            return -1;
        }
        if (run < minrun) {
            Py_ssize_t force = n - lo < minrun ? n - lo : minrun;
            if (binary_insertion(ms, lo, lo + force, lo + run) < 0) {
                return -1;
            }
            run = force;
        }
        assert(ms->nruns < MAX_RUNS);
        ms->runs[ms->nruns].base = lo;
        ms->runs[ms->nruns].len = run;
        ms->nruns++;
        if (merge_collapse(ms) < 0) {
            return -1;
        }
        lo += run;
    }
    return merge_force_collapse(ms);
}

static int
list_sort_impl(PyListObject *self, PyObject *keyfunc, int reverse)
{
    int result = -1;
    PyObject **final_ob_item;
    Py_ssize_t i;
    sortstate ms;
    memset(&ms, 0, sizeof(ms));

    if (Py_IsNone(keyfunc)) {
        keyfunc = NULL;
    }

    /* Empty the list while sorting: code run by comparisons or the key
       function sees an empty list, and any change to it is detected. */
    Py_ssize_t saved_size = Py_SIZE(self);
    PyObject **saved_items = self->ob_item;
    Py_ssize_t saved_allocated = self->allocated;
    Py_SET_SIZE(self, 0);
    self->ob_item = NULL;
    self->allocated = -1;

    PyObject **keys = NULL;
    if (keyfunc == NULL) {
        ms.keys = saved_items;
        ms.values = NULL;
    }
    else {
        keys = saved_size ? PyMem_New(PyObject *, saved_size) : NULL;
        if (saved_size && keys == NULL) {
            PyErr_NoMemory();
            goto restore;
        }
        for (i = 0; i < saved_size; i++) {
            keys[i] = PyObject_CallOneArg(keyfunc, saved_items[i]);
            if (keys[i] == NULL) {
                for (i = i - 1; i >= 0; i--) {
                    Py_DECREF(keys[i]);
                }
                PyMem_Free(keys);
                keys = NULL;
                goto restore;
            }
        }
        ms.keys = keys;
        ms.values = saved_items;
    }

    /* Reversing before and after keeps equal keys in original order. */
    if (reverse && saved_size > 1) {
        reverse_range(&ms, 0, saved_size);
    }
    choose_compare(&ms, saved_size);
    if (saved_size > 1 && timsort(&ms, saved_size) < 0) {
        goto finish;
    }
    result = 0;

finish:
    if (reverse && saved_size > 1) {
        reverse_range(&ms, 0, saved_size);
    }
    if (keys != NULL) {
        for (i = 0; i < saved_size; i++) {
            Py_DECREF(keys[i]);
        }
        PyMem_Free(keys);
    }
    PyMem_Free(ms.tmp);

restore:
    if (self->allocated != -1 && result == 0) {
        PyErr_SetString(PyExc_ValueError, "list modified during sort");
        result = -1;
    }
    final_ob_item = self->ob_item;
    i = Py_SIZE(self);
    Py_SET_SIZE(self, saved_size);
    self->ob_item = saved_items;
    self->allocated = saved_allocated;
    if (final_ob_item != NULL) {
        /* whatever was put into the list during the sort is dropped */
        while (--i >= 0) {
            Py_XDECREF(final_ob_item[i]);
        }
        PyMem_Free(final_ob_item);
    }
    return result;
}

static PyObject *
list_sort(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"key", "reverse", NULL};
    PyObject *out[2] = {NULL, NULL};
    if (nargs > 0) {
        PyErr_SetString(PyExc_TypeError, "sort() takes no positional arguments");
        return NULL;
    }
    if (kwnames != NULL &&
        !_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "sort", kwlist, 0, 0, 0, out)) {
        return NULL;
    }
    int reverse = 0;
    if (out[1] != NULL) {
        reverse = PyObject_IsTrue(out[1]);
        if (reverse < 0) {
            return NULL;
        }
    }
    if (list_sort_impl((PyListObject *)self, out[0] ? out[0] : Py_None, reverse) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

int
PyList_Sort(PyObject *v)
{
    if (v == NULL || !PyList_Check(v)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return list_sort_impl((PyListObject *)v, Py_None, 0);
}

/* ---- Construction from Python ------------------------------------------------ */

static int
list_init_with(PyListObject *self, PyObject *iterable)
{
    /* list.__init__ may be called again on an existing list */
    if (self->ob_item != NULL) {
        list_clear_items(self);
    }
    if (iterable != NULL) {
        return list_extend(self, iterable);
    }
    return 0;
}

static int
list_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    if (kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "list() takes no keyword arguments");
        return -1;
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "list expected at most 1 argument, got %zd", nargs);
        return -1;
    }
    return list_init_with((PyListObject *)self, nargs ? PyTuple_GET_ITEM(args, 0) : NULL);
}

static PyObject *
list_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        PyErr_SetString(PyExc_TypeError, "list() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "list expected at most 1 argument, got %zd", nargs);
        return NULL;
    }
    PyObject *list = PyType_GenericAlloc((PyTypeObject *)type, 0);
    if (list == NULL) {
        return NULL;
    }
    if (nargs && list_init_with((PyListObject *)list, args[0]) < 0) {
        Py_DECREF(list);
        return NULL;
    }
    return list;
}

/* ---- Iterators -------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Py_ssize_t it_index;
    PyListObject *it_seq; /* NULL once exhausted */
} listiterobject;

int
_PyList_IterItem(PyObject *op, Py_ssize_t index, PyObject **item, Py_ssize_t *next_index)
{
    PyListObject *list = (PyListObject *)op;
    if (index < Py_SIZE(list)) {
        *item = Py_NewRef(list->ob_item[index]);
        *next_index = index + 1;
        return 1;
    }
    *item = NULL;
    return 0;
}

/* list_iterator and list_reverseiterator share one layout; this makes
   either, starting at `first` (an index into seq). */
static PyObject *
new_list_iterator(PyTypeObject *type, PyObject *seq, Py_ssize_t first)
{
    listiterobject *iterator = PyObject_GC_New(listiterobject, type);
    if (iterator != NULL) {
        iterator->it_seq = (PyListObject *)Py_NewRef(seq);
        iterator->it_index = first;
        PyObject_GC_Track(iterator);
    }
    return (PyObject *)iterator;
}

static PyObject *
list_iter(PyObject *seq)
{
    return new_list_iterator(&PyListIter_Type, seq, 0);
}

static void
listiter_dealloc(PyObject *op)
{
    listiterobject *it = (listiterobject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(it->it_seq);
    PyObject_GC_Del(op);
}

static int
listiter_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((listiterobject *)op)->it_seq);
    return 0;
}

static PyObject *
listiter_next(PyObject *op)
{
    listiterobject *it = (listiterobject *)op;
    PyListObject *seq = it->it_seq;
    if (seq == NULL) {
        return NULL; /* stays exhausted even if the list grows again */
    }
    PyObject *item;
    if (_PyList_IterItem((PyObject *)seq, it->it_index, &item, &it->it_index)) {
        return item;
    }
    it->it_seq = NULL;
    Py_DECREF(seq);
    return NULL;
}

static PyObject *
listiter_len(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    listiterobject *it = (listiterobject *)op;
    Py_ssize_t len = 0;
    if (it->it_seq) {
        len = Py_SIZE(it->it_seq) - it->it_index;
        if (len < 0) {
            len = 0;
        }
    }
    return PyLong_FromSsize_t(len);
}

static PyObject *
listiter_setstate(PyObject *op, PyObject *state)
{
    listiterobject *it = (listiterobject *)op;
    if (_PySeqIter_SetStateIndex((PyObject *)it->it_seq, &it->it_index,
                                 state) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef listiter_methods[] = {
    {"__length_hint__", listiter_len, METH_NOARGS, "How many more items the iterator will yield."},
    {"__setstate__", listiter_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyListIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "list_iterator",
    .tp_basicsize = sizeof(listiterobject),
    .tp_dealloc = listiter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = listiter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = listiter_next,
    .tp_methods = listiter_methods,
};

typedef struct {
    PyObject_HEAD
    Py_ssize_t it_index;
    PyListObject *it_seq;
} listreviterobject;

static PyObject *
list_reversed(PyObject *seq, PyObject *Py_UNUSED(ignored))
{
    return new_list_iterator(&PyListRevIter_Type, seq, Py_SIZE(seq) - 1);
}

static void
listreviter_dealloc(PyObject *op)
{
    listreviterobject *it = (listreviterobject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(it->it_seq);
    PyObject_GC_Del(op);
}

static int
listreviter_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((listreviterobject *)op)->it_seq);
    return 0;
}

static PyObject *
listreviter_next(PyObject *op)
{
    listreviterobject *it = (listreviterobject *)op;
    PyListObject *seq = it->it_seq;
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t index = it->it_index;
    if (index >= 0 && index < Py_SIZE(seq)) {
        it->it_index--;
        return Py_NewRef(seq->ob_item[index]);
    }
    it->it_index = -1;
    it->it_seq = NULL;
    Py_DECREF(seq);
    return NULL;
}

static PyObject *
listreviter_len(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    listreviterobject *it = (listreviterobject *)op;
    /* it_index is the next position to yield; the list may have shrunk
       below it, in which case nothing more comes */
    Py_ssize_t remaining = 0;
    if (it->it_seq != NULL && it->it_index < Py_SIZE(it->it_seq)) {
        remaining = it->it_index + 1;
    }
    return PyLong_FromSsize_t(remaining);
}

static PyMethodDef listreviter_methods[] = {
    {"__length_hint__", listreviter_len, METH_NOARGS,
     "How many more items the iterator will yield."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyListRevIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "list_reverseiterator",
    .tp_basicsize = sizeof(listreviterobject),
    .tp_dealloc = listreviter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = listreviter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = listreviter_next,
    .tp_methods = listreviter_methods,
};

/* ---- The type ------------------------------------------------------------------------ */

static PyMethodDef list_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {"__reversed__", list_reversed, METH_NOARGS,
     "An iterator over the items from last to first."},
    {"__sizeof__", list_sizeof, METH_NOARGS, "Bytes of memory the list uses, its item array included."},
    {"clear", list_clear_meth, METH_NOARGS, "Remove all items from list."},
    {"copy", list_copy, METH_NOARGS, "Return a shallow copy of the list."},
    {"append", list_append, METH_O, "Append object to the end of the list."},
    {"insert", _PyCFunction_CAST(list_insert), METH_FASTCALL,
     "Insert object before index."},
    {"extend", list_extend_meth, METH_O, "Append each item of the iterable, in order."},
    {"pop", _PyCFunction_CAST(list_pop), METH_FASTCALL,
     "Take out the item at the index (the last one by default) and return it.\n\n"
     "IndexError when the list is empty or the index out of range."},
    {"remove", list_remove, METH_O,
     "Take out the first item equal to the value; ValueError when there is none."},
    {"index", _PyCFunction_CAST(list_index), METH_FASTCALL,
     "Position of the first item equal to the value (searching list[start:stop]);\n"
     "ValueError when there is none."},
    {"count", list_count, METH_O, "Return number of occurrences of value."},
    {"reverse", list_reverse, METH_NOARGS, "Reverse *IN PLACE*."},
    {"sort", _PyCFunction_CAST(list_sort), METH_FASTCALL | METH_KEYWORDS,
     "Put the items in ascending order, in place; returns None.\n\n"
     "Equal items keep their relative order (the sort is stable).  With key=f, items\n"
     "are ordered by f(item), f being called once per item.  reverse=True gives\n"
     "descending order (still stable)."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods list_as_sequence = {
    .sq_length = list_length,
    .sq_concat = list_concat,
    .sq_repeat = list_repeat,
    .sq_item = list_item,
    .sq_ass_item = list_ass_item,
    .sq_contains = list_contains,
    .sq_inplace_concat = list_inplace_concat,
    .sq_inplace_repeat = list_inplace_repeat,
};

static PyMappingMethods list_as_mapping = {
    .mp_length = list_length,
    .mp_subscript = list_subscript,
    .mp_ass_subscript = list_ass_subscript,
};

PyTypeObject PyList_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "list",
    .tp_basicsize = sizeof(PyListObject),
    .tp_dealloc = list_dealloc,
    .tp_repr = list_repr,
    .tp_as_sequence = &list_as_sequence,
    .tp_as_mapping = &list_as_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE |
                Py_TPFLAGS_LIST_SUBCLASS | Py_TPFLAGS_SEQUENCE,
    .tp_doc = "A mutable sequence.  list() makes an empty one; list(iterable) one holding\n"
              "the items of the iterable, in order.",
    .tp_traverse = list_traverse,
    .tp_clear = list_tp_clear,
    .tp_richcompare = list_richcompare,
    .tp_iter = list_iter,
    .tp_methods = list_methods,
    .tp_init = list_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = PyType_GenericNew,
    .tp_free = PyObject_GC_Del,
    .tp_vectorcall = list_vectorcall,
    ._tp_iteritem = _PyList_IterItem,
};
