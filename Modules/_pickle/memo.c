/* The memo tables of the pickler and the unpickler (see pickle.h). */

#include "pickle.h"

/* ---- Pickler side: identity -> index ----------------------------------------

   Linear probing over a power-of-two table, never more than half full.
   Entries are only ever added (clear_memo empties the whole table), so no
   tombstones are needed. */

#define MEMO_MIN_SIZE 64

static inline size_t
memo_hash(PyObject *key)
{
    size_t h = (size_t)(uintptr_t)key;
    /* Objects are at least 16-byte aligned: the low bits carry nothing. */
    h = (h >> 4) ^ (h >> 13);
    return h * (size_t)0x9E3779B97F4A7C15ULL;
}

int
_PyPickleMemo_Init(_PyPickleMemo *m)
{
    m->slots = PyMem_Calloc(MEMO_MIN_SIZE, sizeof(_PyPickleMemoSlot));
    if (m->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    m->mask = MEMO_MIN_SIZE - 1;
    m->used = 0;
    return 0;
}

void
_PyPickleMemo_Clear(_PyPickleMemo *m)
{
    if (m->slots == NULL) {
        return;
    }
    for (size_t i = 0; i <= m->mask; i++) {
        PyObject *k = m->slots[i].key;
        if (k != NULL) {
            m->slots[i].key = NULL;
            Py_DECREF(k);
        }
    }
    m->used = 0;
}

void
_PyPickleMemo_Free(_PyPickleMemo *m)
{
    _PyPickleMemo_Clear(m);
    PyMem_Free(m->slots);
    m->slots = NULL;
    m->mask = 0;
}

Py_ssize_t
_PyPickleMemo_Lookup(const _PyPickleMemo *m, PyObject *key)
{
    if (m->slots == NULL || m->used == 0) {
        return -1;
    }
    size_t i = memo_hash(key) & m->mask;
    for (;;) {
        PyObject *k = m->slots[i].key;
        if (k == key) {
            return m->slots[i].index;
        }
        if (k == NULL) {
            return -1;
        }
        i = (i + 1) & m->mask;
    }
}

static void
memo_place(_PyPickleMemoSlot *slots, size_t mask, PyObject *key,
           Py_ssize_t index)
{
    size_t i = memo_hash(key) & mask;
    while (slots[i].key != NULL) {
        i = (i + 1) & mask;
    }
    slots[i].key = key;
    slots[i].index = index;
}

static int
memo_grow(_PyPickleMemo *m)
{
    size_t old_size = m->mask + 1;
    size_t new_size = old_size * 2;
    _PyPickleMemoSlot *fresh = PyMem_Calloc(new_size, sizeof(*fresh));
    if (fresh == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < old_size; i++) {
        if (m->slots[i].key != NULL) {
            memo_place(fresh, new_size - 1, m->slots[i].key,
                       m->slots[i].index);
        }
    }
    PyMem_Free(m->slots);
    m->slots = fresh;
    m->mask = new_size - 1;
    return 0;
}

int
_PyPickleMemo_Insert(_PyPickleMemo *m, PyObject *key, Py_ssize_t index)
{
    if (m->slots == NULL && _PyPickleMemo_Init(m) < 0) {
        return -1;
    }
    if ((size_t)(m->used + 1) * 2 > m->mask + 1 && memo_grow(m) < 0) {
        return -1;
    }
    memo_place(m->slots, m->mask, Py_NewRef(key), index);
    m->used++;
    return 0;
}

PyObject *
_PyPickleMemo_AsDict(const _PyPickleMemo *m)
{
    PyObject *d = PyDict_New();
    if (d == NULL || m->slots == NULL) {
        return d;
    }
    for (size_t i = 0; i <= m->mask; i++) {
        PyObject *k = m->slots[i].key;
        if (k == NULL) {
            continue;
        }
        PyObject *id = PyLong_FromVoidPtr(k);
        PyObject *pair = Py_BuildValue("(nO)", m->slots[i].index, k);
        if (id == NULL || pair == NULL || PyDict_SetItem(d, id, pair) < 0) {
            Py_XDECREF(id);
            Py_XDECREF(pair);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(id);
        Py_DECREF(pair);
    }
    return d;
}

int
_PyPickleMemo_FromDict(_PyPickleMemo *m, PyObject *dict)
{
    if (!PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError,
                     "'memo' attribute must be a PicklerMemoProxy object "
                     "or dict, not %.200s", Py_TYPE(dict)->tp_name);
        return -1;
    }
    /* Validate everything before touching the table. */
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 2) {
            PyErr_SetString(PyExc_TypeError,
                            "'memo' values must be 2-item tuples");
            return -1;
        }
        if (!PyLong_Check(PyTuple_GET_ITEM(value, 0))) {
            PyErr_SetString(PyExc_TypeError,
                            "memo key must be integers");
            return -1;
        }
    }
    _PyPickleMemo_Clear(m);
    pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        Py_ssize_t idx = PyLong_AsSsize_t(PyTuple_GET_ITEM(value, 0));
        if (idx == -1 && PyErr_Occurred()) {
            return -1;
        }
        PyObject *obj = PyTuple_GET_ITEM(value, 1);
        if (_PyPickleMemo_Lookup(m, obj) < 0
            && _PyPickleMemo_Insert(m, obj, idx) < 0) {
            return -1;
        }
    }
    return 0;
}

int
_PyPickleMemo_Traverse(_PyPickleMemo *m, visitproc visit, void *arg)
{
    if (m->slots == NULL) {
        return 0;
    }
    for (size_t i = 0; i <= m->mask; i++) {
        Py_VISIT(m->slots[i].key);
    }
    return 0;
}

/* ---- Unpickler side: index -> object ---------------------------------------- */

/* Indices below this bound (or below twice the current array) go into the
   array; the rest into the sparse dict. */
#define UMEMO_DENSE_SLACK 4096

PyObject *
_PyUnpickleMemo_Get(_PyUnpickleMemo *m, size_t index)
{
    if (index < (size_t)m->size) {
        return m->items[index];
    }
    if (m->sparse != NULL) {
        PyObject *key = PyLong_FromSize_t(index);
        if (key == NULL) {
            PyErr_Clear();
            return NULL;
        }
        PyObject *v = PyDict_GetItemWithError(m->sparse, key);
        Py_DECREF(key);
        if (v == NULL) {
            PyErr_Clear();
        }
        return v;
    }
    return NULL;
}

int
_PyUnpickleMemo_Put(_PyUnpickleMemo *m, size_t index, PyObject *value)
{
    if (index >= (size_t)m->size
        && index < (size_t)m->size * 2 + UMEMO_DENSE_SLACK) {
        size_t new_size = (size_t)m->size * 2 + UMEMO_DENSE_SLACK;
        if (new_size > PY_SSIZE_T_MAX / sizeof(PyObject *)) {
            PyErr_NoMemory();
            return -1;
        }
        PyObject **items = PyMem_Realloc(m->items,
                                         new_size * sizeof(PyObject *));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memset(items + m->size, 0,
               (new_size - (size_t)m->size) * sizeof(PyObject *));
        m->items = items;
        m->size = (Py_ssize_t)new_size;
    }
    if (index < (size_t)m->size) {
        if (m->items[index] == NULL) {
            m->count++;
        }
        Py_XSETREF(m->items[index], Py_NewRef(value));
        return 0;
    }
    if (m->sparse == NULL && (m->sparse = PyDict_New()) == NULL) {
        return -1;
    }
    PyObject *key = PyLong_FromSize_t(index);
    if (key == NULL) {
        return -1;
    }
    int present = PyDict_Contains(m->sparse, key);
    int rc = present < 0 ? -1 : PyDict_SetItem(m->sparse, key, value);
    Py_DECREF(key);
    if (rc == 0 && !present) {
        m->count++;
    }
    return rc;
}

void
_PyUnpickleMemo_Clear(_PyUnpickleMemo *m)
{
    PyObject **items = m->items;
    Py_ssize_t size = m->size;
    m->items = NULL;
    m->size = 0;
    m->count = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_XDECREF(items[i]);
    }
    PyMem_Free(items);
    Py_CLEAR(m->sparse);
}

PyObject *
_PyUnpickleMemo_AsDict(_PyUnpickleMemo *m)
{
    PyObject *d = m->sparse ? PyDict_Copy(m->sparse) : PyDict_New();
    if (d == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < m->size; i++) {
        if (m->items[i] == NULL) {
            continue;
        }
        PyObject *key = PyLong_FromSsize_t(i);
        if (key == NULL || PyDict_SetItem(d, key, m->items[i]) < 0) {
            Py_XDECREF(key);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(key);
    }
    return d;
}

/* One entry of a memo dict given to the unpickler: a non-negative int
   key.  -1 with an exception otherwise. */
static Py_ssize_t
umemo_key(PyObject *key)
{
    Py_ssize_t idx = PyLong_Check(key) ? PyLong_AsSsize_t(key) : -2;
    if (idx >= 0 || PyErr_Occurred()) {
        return PyErr_Occurred() ? -1 : idx;
    }
    PyErr_SetString(idx == -2 ? PyExc_TypeError : PyExc_ValueError,
                    "unpickler memo keys must be non-negative ints");
    return -1;
}

int
_PyUnpickleMemo_FromDict(_PyUnpickleMemo *m, PyObject *dict)
{
    if (!PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError,
                     "'memo' attribute must be an UnpicklerMemoProxy object "
                     "or dict, not %.200s", Py_TYPE(dict)->tp_name);
        return -1;
    }
    /* Build aside and swap in, so a bad entry leaves the memo as it was. */
    _PyUnpickleMemo built = {NULL, 0, 0, NULL};
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        Py_ssize_t idx = umemo_key(key);
        if (idx < 0 || _PyUnpickleMemo_Put(&built, (size_t)idx, value) < 0) {
            _PyUnpickleMemo_Clear(&built);
            return -1;
        }
    }
    _PyUnpickleMemo_Clear(m);
    *m = built;
    return 0;
}

int
_PyUnpickleMemo_Traverse(_PyUnpickleMemo *m, visitproc visit, void *arg)
{
    for (Py_ssize_t i = 0; i < m->size; i++) {
        Py_VISIT(m->items[i]);
    }
    Py_VISIT(m->sparse);
    return 0;
}

/* ---- The proxies --------------------------------------------------------------

   One small object type per side; it holds its owner and forwards to the
   owner's table, so a proxy fetched before clear_memo() sees the cleared
   memo, as in CPython. */

typedef struct {
    PyObject_HEAD
    PyObject *owner;
} MemoProxy;

PyObject *
_PyPickle_NewMemoProxy(PyTypeObject *type, PyObject *owner)
{
    MemoProxy *p = PyObject_GC_New(MemoProxy, type);
    if (p == NULL) {
        return NULL;
    }
    p->owner = Py_NewRef(owner);
    PyObject_GC_Track(p);
    return (PyObject *)p;
}

PyObject *
_PyPickle_MemoProxyOwner(PyTypeObject *type, PyObject *obj)
{
    return Py_IS_TYPE(obj, type) ? ((MemoProxy *)obj)->owner : NULL;
}

static void
proxy_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(((MemoProxy *)self)->owner);
    PyObject_GC_Del(self);
}

static int
proxy_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((MemoProxy *)self)->owner);
    return 0;
}

static int
proxy_clear_refs(PyObject *self)
{
    Py_CLEAR(((MemoProxy *)self)->owner);
    return 0;
}

static PyObject *
pproxy_copy(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return _PyPickleMemo_AsDict(
        _PyPickle_PicklerMemo(((MemoProxy *)self)->owner));
}

static PyObject *
pproxy_clear(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    _PyPickleMemo_Clear(_PyPickle_PicklerMemo(((MemoProxy *)self)->owner));
    Py_RETURN_NONE;
}

static PyObject *
uproxy_copy(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return _PyUnpickleMemo_AsDict(
        _PyPickle_UnpicklerMemo(((MemoProxy *)self)->owner));
}

static PyObject *
uproxy_clear(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    _PyUnpickleMemo_Clear(_PyPickle_UnpicklerMemo(((MemoProxy *)self)->owner));
    Py_RETURN_NONE;
}

/* A proxy pickles as the dict of its contents: (dict, (contents,)). */
static PyObject *
proxy_reduce_with(PyObject *contents)
{
    if (contents == NULL) {
        return NULL;
    }
    PyObject *r = Py_BuildValue("(O(N))", (PyObject *)&PyDict_Type, contents);
    return r;
}

static PyObject *
pproxy_reduce(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return proxy_reduce_with(pproxy_copy(self, NULL));
}

static PyObject *
uproxy_reduce(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return proxy_reduce_with(uproxy_copy(self, NULL));
}

static PyMethodDef pproxy_methods[] = {
    {"copy", pproxy_copy, METH_NOARGS, "Copy the memo to a new object."},
    {"clear", pproxy_clear, METH_NOARGS, "Remove all items from memo."},
    {"__reduce__", pproxy_reduce, METH_NOARGS, "Implement pickle support."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef uproxy_methods[] = {
    {"copy", uproxy_copy, METH_NOARGS, "Copy the memo to a new object."},
    {"clear", uproxy_clear, METH_NOARGS, "Remove all items from memo."},
    {"__reduce__", uproxy_reduce, METH_NOARGS, "Implement pickle support."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject _PyPickle_PicklerMemoProxyType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_pickle.PicklerMemoProxy",
    .tp_basicsize = sizeof(MemoProxy),
    .tp_dealloc = proxy_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = proxy_traverse,
    .tp_clear = proxy_clear_refs,
    .tp_methods = pproxy_methods,
};

PyTypeObject _PyPickle_UnpicklerMemoProxyType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_pickle.UnpicklerMemoProxy",
    .tp_basicsize = sizeof(MemoProxy),
    .tp_dealloc = proxy_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = proxy_traverse,
    .tp_clear = proxy_clear_refs,
    .tp_methods = uproxy_methods,
};
