/* set and frozenset: open-addressing hash tables of keys.

   Each slot holds a key and its hash.  An empty slot has key NULL; a slot
   whose key was removed holds the `dummy` marker (hash -1) so probe
   chains stay intact.  Probing looks at a few neighbouring slots first
   (cheap on the cache) and then jumps using the higher bits of the hash.
   Small sets live in the embedded smalltable.

   The probing, resizing and merging policies decide iteration order,
   which programs can observe (print({...})); they follow CPython's so
   that output matches. */
#include "Python.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_dict.h"
#include "pycore_setobject.h"

#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5

/* A removed key's placeholder.  Never visible to Python code. */
static PyObject _dummy_struct = {_Py_IMMORTAL_INITIAL_REFCNT, &PyBaseObject_Type};
#define dummy (&_dummy_struct)

#define DISCARD_NOTFOUND 0
#define DISCARD_FOUND 1

static inline Py_hash_t
hash_of(PyObject *key)
{
    if (PyUnicode_CheckExact(key)) {
        Py_hash_t h = _PyUnicode_CAST(key)->hash;
        if (h != -1) {
            return h;
        }
    }
    return PyObject_Hash(key);
}

static inline int
is_active(setentry *entry)
{
    return entry->key != NULL && entry->key != dummy;
}

/* ---- Lookup ------------------------------------------------------------------- */

/* The slot holding `key`, or the empty slot that ends its probe chain
   (key NULL).  NULL on comparison error.  A comparison may mutate the set;
   then the search restarts. */
static setentry *
set_lookkey(PySetObject *so, PyObject *key, Py_hash_t hash)
{
    int key_is_str = PyUnicode_CheckExact(key);
restart:;
    size_t mask = (size_t)so->mask;
    size_t i = (size_t)hash & mask;
    size_t perturb = (size_t)hash;
    for (;;) {
        setentry *entry = &so->table[i];
        int probes = (i + LINEAR_PROBES <= mask) ? LINEAR_PROBES : 0;
        do {
            if (entry->hash == 0 && entry->key == NULL) {
                return entry;
            }
            if (entry->hash == hash) {
                PyObject *startkey = entry->key;
                if (startkey == key) {
                    return entry;
                }
                if (key_is_str && PyUnicode_CheckExact(startkey)) {
                    if (_PyUnicode_Equal(startkey, key)) {
                        return entry;
                    }
                }
                else {
                    setentry *table = so->table;
                    Py_INCREF(startkey);
                    int cmp = PyObject_RichCompareBool(startkey, key, Py_EQ);
                    Py_DECREF(startkey);
                    if (cmp < 0) {
                        return NULL;
                    }
                    if (table != so->table || entry->key != startkey) {
                        goto restart;
                    }
                    if (cmp > 0) {
                        return entry;
                    }
                    mask = (size_t)so->mask;
                }
            }
            entry++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

/* Place a key known to be absent into a table without dummies. */
static void
set_insert_clean(setentry *table, size_t mask, PyObject *key, Py_hash_t hash)
{
    size_t perturb = (size_t)hash;
    size_t i = (size_t)hash & mask;
    for (;;) {
        setentry *entry = &table[i];
        if (entry->key == NULL) {
            goto found;
        }
        if (i + LINEAR_PROBES <= mask) {
            for (int j = 0; j < LINEAR_PROBES; j++) {
                entry++;
                if (entry->key == NULL) {
                    goto found;
                }
            }
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
        continue;
    found:
        entry->key = key;
        entry->hash = hash;
        return;
    }
}

/* ---- Resizing --------------------------------------------------------------------- */

/* Rebuild the table with the smallest power-of-two size above minused,
   dropping dummies. */
static int
set_table_resize(PySetObject *so, Py_ssize_t minused)
{
    setentry small_copy[PySet_MINSIZE];
    size_t newsize = PySet_MINSIZE;
    while (newsize <= (size_t)minused) {
        newsize <<= 1;
        if (newsize > (size_t)PY_SSIZE_T_MAX / sizeof(setentry)) {
            PyErr_NoMemory();
            return -1;
        }
    }

    setentry *oldtable = so->table;
    int oldtable_malloced = oldtable != so->smalltable;
    size_t oldmask = (size_t)so->mask;
    setentry *newtable;

    if (newsize == PySet_MINSIZE) {
        newtable = so->smalltable;
        if (newtable == oldtable) {
            if (so->fill == so->used) {
                return 0; /* nothing to clean up */
            }
            /* rebuilding the smalltable in place: work from a copy */
            memcpy(small_copy, oldtable, sizeof(small_copy));
            oldtable = small_copy;
        }
    }
    else {
        newtable = PyMem_New(setentry, newsize);
        if (newtable == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    memset(newtable, 0, sizeof(setentry) * newsize);
    so->mask = (Py_ssize_t)newsize - 1;
    so->table = newtable;

    /* Re-insert in old slot order (this order is observable). */
    for (size_t i = 0; i <= oldmask; i++) {
        setentry *entry = &oldtable[i];
        if (is_active(entry)) {
            set_insert_clean(newtable, newsize - 1, entry->key, entry->hash);
        }
    }
    so->fill = so->used;

    if (oldtable_malloced) {
        PyMem_Free(oldtable);
    }
    return 0;
}

/* Growth after an insertion fills 3/5 of the table: quadruple the live
   size, or double it for big sets to bound memory. */
static int
set_grow(PySetObject *so)
{
    return set_table_resize(so, so->used > 50000 ? so->used * 2 : so->used * 4);
}

/* ---- Insertion and removal ------------------------------------------------------------- */

/* Add key (borrowed) with a known hash. */
static int
set_add_entry(PySetObject *so, PyObject *key, Py_hash_t hash)
{
    int key_is_str = PyUnicode_CheckExact(key);
    Py_INCREF(key);
restart:;
    size_t mask = (size_t)so->mask;
    size_t i = (size_t)hash & mask;
    size_t perturb = (size_t)hash;
    setentry *entry;
    for (;;) {
        entry = &so->table[i];
        int probes = (i + LINEAR_PROBES <= mask) ? LINEAR_PROBES : 0;
        do {
            if (entry->hash == 0 && entry->key == NULL) {
                goto found_unused;
            }
            if (entry->hash == hash) {
                PyObject *startkey = entry->key;
                if (startkey == key) {
                    goto found_active;
                }
                if (key_is_str && PyUnicode_CheckExact(startkey)) {
                    if (_PyUnicode_Equal(startkey, key)) {
                        goto found_active;
                    }
                }
                else {
                    setentry *table = so->table;
                    Py_INCREF(startkey);
                    int cmp = PyObject_RichCompareBool(startkey, key, Py_EQ);
                    Py_DECREF(startkey);
                    if (cmp > 0) {
                        goto found_active;
                    }
                    if (cmp < 0) {
                        Py_DECREF(key);
                        return -1;
                    }
                    if (table != so->table || entry->key != startkey) {
                        goto restart;
                    }
                    mask = (size_t)so->mask;
                }
            }
            entry++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }

found_unused:
    so->fill++;
    so->used++;
    entry->key = key;
    entry->hash = hash;
    if ((size_t)so->fill * 5 < mask * 3) {
        return 0;
    }
    return set_grow(so);

found_active:
    Py_DECREF(key);
    return 0;
}

static int
set_add_key(PySetObject *so, PyObject *key)
{
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        return -1;
    }
    return set_add_entry(so, key, hash);
}

static int
set_contains_entry(PySetObject *so, PyObject *key, Py_hash_t hash)
{
    setentry *entry = set_lookkey(so, key, hash);
    if (entry == NULL) {
        return -1;
    }
    return entry->key != NULL;
}

static int
set_contains_key(PySetObject *so, PyObject *key)
{
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        return -1;
    }
    return set_contains_entry(so, key, hash);
}

static int
set_discard_entry(PySetObject *so, PyObject *key, Py_hash_t hash)
{
    setentry *entry = set_lookkey(so, key, hash);
    if (entry == NULL) {
        return -1;
    }
    if (entry->key == NULL) {
        return DISCARD_NOTFOUND;
    }
    PyObject *old_key = entry->key;
    entry->key = dummy;
    entry->hash = -1;
    so->used--;
    Py_DECREF(old_key);
    return DISCARD_FOUND;
}

static int
set_discard_key(PySetObject *so, PyObject *key)
{
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        return -1;
    }
    return set_discard_entry(so, key, hash);
}

static void
set_empty_to_minsize(PySetObject *so)
{
    memset(so->smalltable, 0, sizeof(so->smalltable));
    so->fill = 0;
    so->used = 0;
    so->mask = PySet_MINSIZE - 1;
    so->table = so->smalltable;
    so->hash = -1;
}

/* Empty the set; keys are released only after it is consistent. */
static int
set_clear_internal(PySetObject *so)
{
    setentry small_copy[PySet_MINSIZE];
    setentry *table = so->table;
    int table_malloced = table != so->smalltable;
    Py_ssize_t fill = so->fill;
    size_t n = (size_t)so->mask + 1;

    if (!table_malloced) {
        if (fill == 0) {
            return 0;
        }
        memcpy(small_copy, table, sizeof(small_copy));
        table = small_copy;
    }
    set_empty_to_minsize(so);
    for (size_t i = 0; i < n && fill > 0; i++) {
        if (table[i].key != NULL) {
            fill--;
            if (table[i].key != dummy) {
                Py_DECREF(table[i].key);
            }
        }
    }
    if (table_malloced) {
        PyMem_Free(table);
    }
    return 0;
}

/* Next active entry at or after *pos_ptr; 0 when done. */
static int
set_next(PySetObject *so, Py_ssize_t *pos_ptr, setentry **entry_ptr)
{
    Py_ssize_t i = *pos_ptr;
    Py_ssize_t mask = so->mask;
    setentry *entry = &so->table[i];
    while (i <= mask && !is_active(entry)) {
        i++;
        entry++;
    }
    *pos_ptr = i + 1;
    if (i > mask) {
        return 0;
    }
    *entry_ptr = entry;
    return 1;
}

/* ---- Bulk operations ------------------------------------------------------------------------ */

static int
set_merge(PySetObject *so, PyObject *otherset)
{
    PySetObject *other = (PySetObject *)otherset;
    if (other == so || other->used == 0) {
        return 0;
    }
    /* Make room for everything at once; the factor 2 leaves headroom. */
    if ((so->fill + other->used) * 5 >= so->mask * 3) {
        if (set_table_resize(so, (so->used + other->used) * 2) != 0) {
            return -1;
        }
    }
    setentry *so_entry = so->table;
    setentry *other_entry = other->table;

    if (so->fill == 0 && so->mask == other->mask && other->fill == other->used) {
        /* same geometry, nothing to clean: copy slot for slot */
        for (Py_ssize_t i = 0; i <= other->mask; i++, so_entry++, other_entry++) {
            if (other_entry->key != NULL) {
                so_entry->key = Py_NewRef(other_entry->key);
                so_entry->hash = other_entry->hash;
            }
        }
        so->fill = other->fill;
        so->used = other->used;
        return 0;
    }
    if (so->fill == 0) {
        /* no duplicates possible: skip the equality checks */
        so->fill = other->used;
        so->used = other->used;
        for (Py_ssize_t i = 0; i <= other->mask; i++, other_entry++) {
            if (is_active(other_entry)) {
                set_insert_clean(so->table, (size_t)so->mask, Py_NewRef(other_entry->key),
                                 other_entry->hash);
            }
        }
        return 0;
    }
    for (Py_ssize_t i = 0; i <= other->mask; i++) {
        other_entry = &other->table[i];
        if (is_active(other_entry) &&
            set_add_entry(so, other_entry->key, other_entry->hash) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
set_update_internal(PySetObject *so, PyObject *other)
{
    if (PyAnySet_Check(other)) {
        return set_merge(so, other);
    }
    if (PyDict_CheckExact(other)) {
        Py_ssize_t dictsize = PyDict_GET_SIZE(other);
        if ((so->fill + dictsize) * 5 >= so->mask * 3) {
            if (set_table_resize(so, (so->used + dictsize) * 2) != 0) {
                return -1;
            }
        }
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        Py_hash_t hash;
        while (_PyDict_Next(other, &pos, &key, &value, &hash)) {
            if (set_add_entry(so, key, hash) < 0) {
                return -1;
            }
        }
        return 0;
    }
    PyObject *it = PyObject_GetIter(other);
    if (it == NULL) {
        return -1;
    }
    PyObject *key;
    while ((key = PyIter_Next(it)) != NULL) {
        if (set_add_key(so, key) < 0) {
            Py_DECREF(it);
            Py_DECREF(key);
            return -1;
        }
        Py_DECREF(key);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        return -1;
    }
    return 0;
}

/* ---- Construction ---------------------------------------------------------------------------- */

static PyObject *
make_new_set(PyTypeObject *type, PyObject *iterable)
{
    PySetObject *so = (PySetObject *)type->tp_alloc(type, 0);
    if (so == NULL) {
        return NULL;
    }
    so->fill = 0;
    so->used = 0;
    so->mask = PySet_MINSIZE - 1;
    so->table = so->smalltable;
    so->hash = -1;
    so->finger = 0;
    so->weakreflist = NULL;
    if (iterable != NULL && set_update_internal(so, iterable) < 0) {
        Py_DECREF(so);
        return NULL;
    }
    return (PyObject *)so;
}

/* Results of set operations on subclasses are plain sets/frozensets. */
static PyObject *
make_new_set_basetype(PyTypeObject *type, PyObject *iterable)
{
    if (type != &PySet_Type && type != &PyFrozenSet_Type) {
        if (PyType_IsSubtype(type, &PySet_Type)) {
            type = &PySet_Type;
        }
        else {
            type = &PyFrozenSet_Type;
        }
    }
    return make_new_set(type, iterable);
}

static PyObject *
set_copy(PyObject *so, PyObject *Py_UNUSED(ignored))
{
    return make_new_set_basetype(Py_TYPE(so), so);
}

static PyObject *
frozenset_copy(PyObject *so, PyObject *Py_UNUSED(ignored))
{
    if (PyFrozenSet_CheckExact(so)) {
        return Py_NewRef(so);
    }
    return set_copy(so, NULL);
}

PyObject *
PySet_New(PyObject *iterable)
{
    return make_new_set(&PySet_Type, iterable);
}

PyObject *
PyFrozenSet_New(PyObject *iterable)
{
    return make_new_set(&PyFrozenSet_Type, iterable);
}

static PyObject *
set_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if ((type == &PySet_Type || type->tp_init == PySet_Type.tp_init) && kwds != NULL &&
        PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "set() takes no keyword arguments");
        return NULL;
    }
    return make_new_set(type, NULL);
}

static int
set_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    PySetObject *self = (PySetObject *)op;
    if (kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "set() takes no keyword arguments");
        return -1;
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "set expected at most 1 argument, got %zd", nargs);
        return -1;
    }
    if (self->fill) {
        set_clear_internal(self);
    }
    self->hash = -1;
    if (nargs == 0) {
        return 0;
    }
    return set_update_internal(self, PyTuple_GET_ITEM(args, 0));
}

static PyObject *
set_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        PyErr_SetString(PyExc_TypeError, "set() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "set expected at most 1 argument, got %zd", nargs);
        return NULL;
    }
    return make_new_set((PyTypeObject *)type, nargs ? args[0] : NULL);
}

static PyObject *
frozenset_from_iterable(PyTypeObject *type, PyObject *iterable)
{
    if (type == &PyFrozenSet_Type && iterable != NULL && PyFrozenSet_CheckExact(iterable)) {
        return Py_NewRef(iterable);
    }
    return make_new_set(type, iterable);
}

static PyObject *
frozenset_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if ((type == &PyFrozenSet_Type || type->tp_init == PyFrozenSet_Type.tp_init) &&
        kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "frozenset() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "frozenset expected at most 1 argument, got %zd", nargs);
        return NULL;
    }
    return frozenset_from_iterable(type, nargs ? PyTuple_GET_ITEM(args, 0) : NULL);
}

static PyObject *
frozenset_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        PyErr_SetString(PyExc_TypeError, "frozenset() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "frozenset expected at most 1 argument, got %zd", nargs);
        return NULL;
    }
    return frozenset_from_iterable((PyTypeObject *)type, nargs ? args[0] : NULL);
}

/* ---- Deallocation, GC ---------------------------------------------------------------------- */

static void
set_dealloc(PyObject *op)
{
    PySetObject *so = (PySetObject *)op;
    PyObject_GC_UnTrack(op);
    if (so->weakreflist != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    Py_ssize_t used = so->used;
    for (setentry *entry = so->table; used > 0; entry++) {
        if (is_active(entry)) {
            used--;
            Py_DECREF(entry->key);
        }
    }
    if (so->table != so->smalltable) {
        PyMem_Free(so->table);
    }
    Py_TYPE(op)->tp_free(op);
}

static int
set_traverse(PyObject *op, visitproc visit, void *arg)
{
    PySetObject *so = (PySetObject *)op;
    Py_ssize_t pos = 0;
    setentry *entry;
    while (set_next(so, &pos, &entry)) {
        Py_VISIT(entry->key);
    }
    return 0;
}

static int
set_tp_clear(PyObject *op)
{
    return set_clear_internal((PySetObject *)op);
}

/* ---- repr, hash --------------------------------------------------------------------------------- */

static PyObject *
set_repr(PyObject *op)
{
    PySetObject *so = (PySetObject *)op;
    const char *name = _PyType_Name(Py_TYPE(so));
    if (so->used == 0) {
        return PyUnicode_FromFormat("%s()", name);
    }
    int status = Py_ReprEnter(op);
    if (status != 0) {
        return status > 0 ? PyUnicode_FromFormat("%s(...)", name) : NULL;
    }
    PyObject *result = NULL;
    PyObject *keys = PySequence_List(op);
    if (keys == NULL) {
        goto done;
    }
    PyObject *listrepr = PyObject_Repr(keys);
    Py_DECREF(keys);
    if (listrepr == NULL) {
        goto done;
    }
    /* "[a, b]" -> "a, b" */
    PyObject *inner = PyUnicode_Substring(listrepr, 1, PyUnicode_GET_LENGTH(listrepr) - 1);
    Py_DECREF(listrepr);
    if (inner == NULL) {
        goto done;
    }
    if (!PySet_CheckExact(so)) {
        result = PyUnicode_FromFormat("%s({%U})", name, inner);
    }
    else {
        result = PyUnicode_FromFormat("{%U}", inner);
    }
    Py_DECREF(inner);
done:
    Py_ReprLeave(op);
    return result;
}

/* Spread a key hash's bits before xor-ing, so that sets of nearby small
   ints don't cancel each other out. */
static Py_uhash_t
shuffle_bits(Py_uhash_t h)
{
    return ((h ^ 89869747UL) ^ (h << 16)) * 3644798167UL;
}

/* Order-independent combination of the key hashes, as CPython defines it
   (values must match). */
static Py_hash_t
frozenset_hash(PyObject *self)
{
    PySetObject *so = (PySetObject *)self;
    if (so->hash != -1) {
        return so->hash;
    }
    Py_uhash_t hash = 0;
    for (Py_ssize_t i = 0; i <= so->mask; i++) {
        if (is_active(&so->table[i])) {
            hash ^= shuffle_bits((Py_uhash_t)so->table[i].hash);
        }
    }
    hash ^= ((Py_uhash_t)so->used + 1) * 1927868237UL;
    hash ^= (hash >> 11) ^ (hash >> 25);
    hash = hash * 69069U + 907133923UL;
    if (hash == (Py_uhash_t)-1) {
        hash = 590923713UL;
    }
    so->hash = (Py_hash_t)hash;
    return (Py_hash_t)hash;
}

/* ---- Size, membership ------------------------------------------------------------------------- */

static Py_ssize_t
set_len(PyObject *so)
{
    return ((PySetObject *)so)->used;
}

/* `set in set`: a set key is looked up as the equivalent frozenset. */
static int
set_contains_with_set_key(PySetObject *so, PyObject *key)
{
    int rv = set_contains_key(so, key);
    if (rv < 0 && PySet_Check(key) && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyObject *tmpkey = make_new_set(&PyFrozenSet_Type, key);
        if (tmpkey == NULL) {
            return -1;
        }
        rv = set_contains_key(so, tmpkey);
        Py_DECREF(tmpkey);
    }
    return rv;
}

static int
set_contains(PyObject *so, PyObject *key)
{
    return set_contains_with_set_key((PySetObject *)so, key);
}

int
_PySet_Contains(PySetObject *so, PyObject *key)
{
    return set_contains_with_set_key(so, key);
}

static PyObject *
set_direct_contains(PyObject *so, PyObject *key)
{
    int result = set_contains(so, key);
    if (result < 0) {
        return NULL;
    }
    return PyBool_FromLong(result);
}

/* ---- Set algebra ---------------------------------------------------------------------------------- */

static PyObject *
set_intersection(PySetObject *so, PyObject *other)
{
    if ((PyObject *)so == other) {
        return set_copy((PyObject *)so, NULL);
    }
    PySetObject *result = (PySetObject *)make_new_set_basetype(Py_TYPE(so), NULL);
    if (result == NULL) {
        return NULL;
    }
    if (PyAnySet_Check(other)) {
        /* walk the smaller set, probe the larger */
        if (PySet_GET_SIZE(other) > PySet_GET_SIZE(so)) {
            PyObject *tmp = (PyObject *)so;
            so = (PySetObject *)other;
            other = tmp;
        }
        Py_ssize_t pos = 0;
        setentry *entry;
        while (set_next((PySetObject *)other, &pos, &entry)) {
            PyObject *key = Py_NewRef(entry->key);
            Py_hash_t hash = entry->hash;
            int rv = set_contains_entry(so, key, hash);
            if (rv > 0) {
                rv = set_add_entry(result, key, hash);
            }
            Py_DECREF(key);
            if (rv < 0) {
                goto error;
            }
        }
        return (PyObject *)result;
    }
    PyObject *it = PyObject_GetIter(other);
    if (it == NULL) {
        goto error;
    }
    PyObject *key;
    while ((key = PyIter_Next(it)) != NULL) {
        Py_hash_t hash = hash_of(key);
        int rv = hash == -1 ? -1 : set_contains_entry(so, key, hash);
        if (rv > 0) {
            rv = set_add_entry(result, key, hash);
        }
        Py_DECREF(key);
        if (rv < 0) {
            Py_DECREF(it);
            goto error;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        goto error;
    }
    return (PyObject *)result;

error:
    Py_DECREF(result);
    return NULL;
}

/* Exchange the contents of two sets (for the in-place operations that
   compute a new table and adopt it). */
static void
set_swap_bodies(PySetObject *a, PySetObject *b)
{
    setentry tab[PySet_MINSIZE];
    Py_ssize_t t;

    t = a->fill; a->fill = b->fill; b->fill = t;
    t = a->used; a->used = b->used; b->used = t;
    t = a->mask; a->mask = b->mask; b->mask = t;

    setentry *u = a->table;
    if (a->table == a->smalltable) {
        u = b->smalltable;
    }
    a->table = b->table;
    if (b->table == b->smalltable) {
        a->table = a->smalltable;
    }
    b->table = u;

    if (a->table == a->smalltable || b->table == b->smalltable) {
        memcpy(tab, a->smalltable, sizeof(tab));
        memcpy(a->smalltable, b->smalltable, sizeof(tab));
        memcpy(b->smalltable, tab, sizeof(tab));
    }
    if (PyType_IsSubtype(Py_TYPE(a), &PyFrozenSet_Type) &&
        PyType_IsSubtype(Py_TYPE(b), &PyFrozenSet_Type)) {
        Py_hash_t h = a->hash;
        a->hash = b->hash;
        b->hash = h;
    }
    else {
        a->hash = -1;
        b->hash = -1;
    }
}

int
_PySet_IntersectionUpdate(PyObject *so, PyObject *other)
{
    PyObject *tmp = set_intersection((PySetObject *)so, other);
    if (tmp == NULL) {
        return -1;
    }
    set_swap_bodies((PySetObject *)so, (PySetObject *)tmp);
    Py_DECREF(tmp);
    return 0;
}

int
_PySet_DifferenceUpdate(PyObject *op, PyObject *other)
{
    PySetObject *so = (PySetObject *)op;
    if (op == other) {
        return set_clear_internal(so);
    }
    if (PyAnySet_Check(other)) {
        Py_ssize_t pos = 0;
        setentry *entry;
        while (set_next((PySetObject *)other, &pos, &entry)) {
            PyObject *key = Py_NewRef(entry->key);
            int rv = set_discard_entry(so, key, entry->hash);
            Py_DECREF(key);
            if (rv < 0) {
                return -1;
            }
        }
    }
    else {
        PyObject *it = PyObject_GetIter(other);
        if (it == NULL) {
            return -1;
        }
        PyObject *key;
        while ((key = PyIter_Next(it)) != NULL) {
            int rv = set_discard_key(so, key);
            Py_DECREF(key);
            if (rv < 0) {
                Py_DECREF(it);
                return -1;
            }
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) {
            return -1;
        }
    }
    /* Too many dummies slow down probing: clean up past a quarter. */
    if ((size_t)(so->fill - so->used) <= (size_t)so->mask / 4) {
        return 0;
    }
    return set_grow(so);
}

static PyObject *
set_copy_and_difference(PySetObject *so, PyObject *other)
{
    PyObject *result = set_copy((PyObject *)so, NULL);
    if (result == NULL) {
        return NULL;
    }
    if (_PySet_DifferenceUpdate(result, other) == 0) {
        return result;
    }
    Py_DECREF(result);
    return NULL;
}

static PyObject *
set_difference(PySetObject *so, PyObject *other)
{
    Py_ssize_t other_size;
    if (PyAnySet_Check(other)) {
        other_size = PySet_GET_SIZE(other);
    }
    else if (PyDict_CheckExact(other)) {
        other_size = PyDict_GET_SIZE(other);
    }
    else {
        return set_copy_and_difference(so, other);
    }
    /* Much bigger than other: copying and removing is cheaper. */
    if ((PySet_GET_SIZE(so) >> 2) > other_size) {
        return set_copy_and_difference(so, other);
    }
    PySetObject *result = (PySetObject *)make_new_set_basetype(Py_TYPE(so), NULL);
    if (result == NULL) {
        return NULL;
    }
    Py_ssize_t pos = 0;
    setentry *entry;
    while (set_next(so, &pos, &entry)) {
        PyObject *key = Py_NewRef(entry->key);
        Py_hash_t hash = entry->hash;
        int rv;
        if (PyDict_CheckExact(other)) {
            rv = _PyDict_Contains_KnownHash(other, key, hash);
        }
        else {
            rv = set_contains_entry((PySetObject *)other, key, hash);
        }
        if (rv == 0) {
            rv = set_add_entry(result, key, hash);
        }
        Py_DECREF(key);
        if (rv < 0) {
            Py_DECREF(result);
            return NULL;
        }
    }
    return (PyObject *)result;
}

int
_PySet_SymmetricDifferenceUpdate(PyObject *op, PyObject *other)
{
    PySetObject *so = (PySetObject *)op;
    if (op == other) {
        return set_clear_internal(so);
    }
    PySetObject *otherset;
    if (PyAnySet_Check(other)) {
        otherset = (PySetObject *)Py_NewRef(other);
    }
    else {
        otherset = (PySetObject *)make_new_set_basetype(Py_TYPE(so), other);
        if (otherset == NULL) {
            return -1;
        }
    }
    Py_ssize_t pos = 0;
    setentry *entry;
    while (set_next(otherset, &pos, &entry)) {
        PyObject *key = Py_NewRef(entry->key);
        Py_hash_t hash = entry->hash;
        int rv = set_discard_entry(so, key, hash);
        if (rv == DISCARD_NOTFOUND) {
            rv = set_add_entry(so, key, hash);
        }
        Py_DECREF(key);
        if (rv < 0) {
            Py_DECREF(otherset);
            return -1;
        }
    }
    Py_DECREF(otherset);
    return 0;
}

static PyObject *
set_symmetric_difference(PySetObject *so, PyObject *other)
{
    PyObject *result = make_new_set_basetype(Py_TYPE(so), other);
    if (result == NULL) {
        return NULL;
    }
    if (_PySet_SymmetricDifferenceUpdate(result, (PyObject *)so) < 0) {
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

/* 1 if every key of so is in other (a set), 0 if not, -1 on error. */
static int
set_issubset_internal(PySetObject *so, PySetObject *other)
{
    if (PySet_GET_SIZE(so) > PySet_GET_SIZE(other)) {
        return 0;
    }
    Py_ssize_t pos = 0;
    setentry *entry;
    while (set_next(so, &pos, &entry)) {
        PyObject *key = Py_NewRef(entry->key);
        int rv = set_contains_entry(other, key, entry->hash);
        Py_DECREF(key);
        if (rv <= 0) {
            return rv;
        }
    }
    return 1;
}

static PyObject *
set_issubset(PyObject *so, PyObject *other)
{
    int rv;
    if (!PyAnySet_Check(other)) {
        PyObject *tmp = make_new_set(&PySet_Type, other);
        if (tmp == NULL) {
            return NULL;
        }
        rv = set_issubset_internal((PySetObject *)so, (PySetObject *)tmp);
        Py_DECREF(tmp);
    }
    else {
        rv = set_issubset_internal((PySetObject *)so, (PySetObject *)other);
    }
    if (rv < 0) {
        return NULL;
    }
    return PyBool_FromLong(rv);
}

static PyObject *
set_issuperset(PyObject *so, PyObject *other)
{
    if (PyAnySet_Check(other)) {
        int rv = set_issubset_internal((PySetObject *)other, (PySetObject *)so);
        if (rv < 0) {
            return NULL;
        }
        return PyBool_FromLong(rv);
    }
    PyObject *it = PyObject_GetIter(other);
    if (it == NULL) {
        return NULL;
    }
    PyObject *key;
    while ((key = PyIter_Next(it)) != NULL) {
        int rv = set_contains_key((PySetObject *)so, key);
        Py_DECREF(key);
        if (rv <= 0) {
            Py_DECREF(it);
            if (rv < 0) {
                return NULL;
            }
            Py_RETURN_FALSE;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_TRUE;
}

static PyObject *
set_isdisjoint(PyObject *op, PyObject *other)
{
    PySetObject *so = (PySetObject *)op;
    if (op == other) {
        return PyBool_FromLong(PySet_GET_SIZE(so) == 0);
    }
    if (PyAnySet_Check(other)) {
        PySetObject *small = so, *big = (PySetObject *)other;
        if (PySet_GET_SIZE(small) > PySet_GET_SIZE(big)) {
            small = big;
            big = so;
        }
        Py_ssize_t pos = 0;
        setentry *entry;
        while (set_next(small, &pos, &entry)) {
            PyObject *key = Py_NewRef(entry->key);
            int rv = set_contains_entry(big, key, entry->hash);
            Py_DECREF(key);
            if (rv != 0) {
                if (rv < 0) {
                    return NULL;
                }
                Py_RETURN_FALSE;
            }
        }
        Py_RETURN_TRUE;
    }
    PyObject *it = PyObject_GetIter(other);
    if (it == NULL) {
        return NULL;
    }
    PyObject *key;
    while ((key = PyIter_Next(it)) != NULL) {
        int rv = set_contains_key(so, key);
        Py_DECREF(key);
        if (rv != 0) {
            Py_DECREF(it);
            if (rv < 0) {
                return NULL;
            }
            Py_RETURN_FALSE;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_TRUE;
}

/* ---- Methods taking any number of iterables ---------------------------------------------------- */

static PyObject *
set_union(PyObject *so, PyObject *args)
{
    PyObject *result = set_copy(so, NULL);
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        PyObject *other = PyTuple_GET_ITEM(args, i);
        if (so == other) {
            continue;
        }
        if (set_update_internal((PySetObject *)result, other) < 0) {
            Py_DECREF(result);
            return NULL;
        }
    }
    return result;
}

static PyObject *
set_update(PyObject *so, PyObject *args)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        if (set_update_internal((PySetObject *)so, PyTuple_GET_ITEM(args, i)) < 0) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static PyObject *
set_intersection_multi(PyObject *so, PyObject *args)
{
    if (PyTuple_GET_SIZE(args) == 0) {
        return set_copy(so, NULL);
    }
    PyObject *result = Py_NewRef(so);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        PyObject *newresult = set_intersection((PySetObject *)result, PyTuple_GET_ITEM(args, i));
        Py_DECREF(result);
        if (newresult == NULL) {
            return NULL;
        }
        result = newresult;
    }
    return result;
}

static PyObject *
set_intersection_update_multi(PyObject *so, PyObject *args)
{
    PyObject *tmp = set_intersection_multi(so, args);
    if (tmp == NULL) {
        return NULL;
    }
    set_swap_bodies((PySetObject *)so, (PySetObject *)tmp);
    Py_DECREF(tmp);
    Py_RETURN_NONE;
}

static PyObject *
set_difference_multi(PyObject *so, PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n == 0) {
        return set_copy(so, NULL);
    }
    PyObject *result = set_difference((PySetObject *)so, PyTuple_GET_ITEM(args, 0));
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        if (_PySet_DifferenceUpdate(result, PyTuple_GET_ITEM(args, i)) < 0) {
            Py_DECREF(result);
            return NULL;
        }
    }
    return result;
}

static PyObject *
set_difference_update(PyObject *so, PyObject *args)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        if (_PySet_DifferenceUpdate(so, PyTuple_GET_ITEM(args, i)) < 0) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static PyObject *
set_symmetric_difference_meth(PyObject *so, PyObject *other)
{
    return set_symmetric_difference((PySetObject *)so, other);
}

static PyObject *
set_symmetric_difference_update(PyObject *so, PyObject *other)
{
    if (_PySet_SymmetricDifferenceUpdate(so, other) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- Single-key methods ----------------------------------------------------------------------------- */

static PyObject *
set_add(PyObject *so, PyObject *key)
{
    if (set_add_key((PySetObject *)so, key) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* discard/remove with the frozenset fallback for set keys */
static int
set_discard_with_set_key(PySetObject *so, PyObject *key)
{
    int rv = set_discard_key(so, key);
    if (rv < 0 && PySet_Check(key) && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyObject *tmpkey = make_new_set(&PyFrozenSet_Type, key);
        if (tmpkey == NULL) {
            return -1;
        }
        rv = set_discard_key(so, tmpkey);
        Py_DECREF(tmpkey);
    }
    return rv;
}

static PyObject *
set_remove(PyObject *so, PyObject *key)
{
    int rv = set_discard_with_set_key((PySetObject *)so, key);
    if (rv < 0) {
        return NULL;
    }
    if (rv == DISCARD_NOTFOUND) {
        _PyErr_SetKeyError(key);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
set_discard(PyObject *so, PyObject *key)
{
    if (set_discard_with_set_key((PySetObject *)so, key) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* Remove an arbitrary key.  The finger remembers where the last pop
   stopped, so repeated pops don't rescan the same empty prefix. */
static PyObject *
set_pop(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    PySetObject *so = (PySetObject *)op;
    if (so->used == 0) {
        PyErr_SetString(PyExc_KeyError, "pop from an empty set");
        return NULL;
    }
    setentry *entry = so->table + (so->finger & so->mask);
    setentry *limit = so->table + so->mask;
    while (!is_active(entry)) {
        entry++;
        if (entry > limit) {
            entry = so->table;
        }
    }
    PyObject *key = entry->key;
    entry->key = dummy;
    entry->hash = -1;
    so->used--;
    so->finger = entry - so->table + 1;
    return key;
}

static PyObject *
set_clear(PyObject *so, PyObject *Py_UNUSED(ignored))
{
    set_clear_internal((PySetObject *)so);
    Py_RETURN_NONE;
}

static PyObject *
set_sizeof(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    PySetObject *so = (PySetObject *)op;
    size_t res = (size_t)Py_TYPE(so)->tp_basicsize;
    if (so->table != so->smalltable) {
        res += ((size_t)so->mask + 1) * sizeof(setentry);
    }
    return PyLong_FromSize_t(res);
}

static PyObject *
set_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    PyObject *keys = PySequence_List(op);
    if (keys == NULL) {
        return NULL;
    }
    PyObject *dict;
    if (PyObject_GetOptionalAttrString(op, "__dict__", &dict) < 0) {
        Py_DECREF(keys);
        return NULL;
    }
    PyObject *result = Py_BuildValue("O(N)O", Py_TYPE(op), keys, dict ? dict : Py_None);
    Py_XDECREF(dict);
    return result;
}

/* ---- Operators ----------------------------------------------------------------------------------- */

static PyObject *
set_or(PyObject *so, PyObject *other)
{
    if (!PyAnySet_Check(so) || !PyAnySet_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *result = set_copy(so, NULL);
    if (result == NULL) {
        return NULL;
    }
    if (so == other) {
        return result;
    }
    if (set_update_internal((PySetObject *)result, other) < 0) {
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

static PyObject *
set_and(PyObject *so, PyObject *other)
{
    if (!PyAnySet_Check(so) || !PyAnySet_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return set_intersection((PySetObject *)so, other);
}

static PyObject *
set_sub(PyObject *so, PyObject *other)
{
    if (!PyAnySet_Check(so) || !PyAnySet_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return set_difference((PySetObject *)so, other);
}

static PyObject *
set_xor(PyObject *so, PyObject *other)
{
    if (!PyAnySet_Check(so) || !PyAnySet_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return set_symmetric_difference((PySetObject *)so, other);
}

/* The in-place operators |= &= -= ^= differ only in the update they run;
   like CPython they return NotImplemented unless both sides are sets, so
   that s |= [1] is a TypeError even though s.update([1]) is fine. */
static PyObject *
set_inplace_op(PyObject *so, PyObject *other,
               int (*update)(PyObject *, PyObject *))
{
    if (!PyAnySet_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (update(so, other) < 0) {
        return NULL;
    }
    return Py_NewRef(so);
}

/* set_update_internal with the PyObject * signature set_inplace_op wants. */
static int
set_update_object(PyObject *so, PyObject *other)
{
    return set_update_internal((PySetObject *)so, other);
}

static PyObject *
set_ior(PyObject *so, PyObject *other)
{
    return set_inplace_op(so, other, set_update_object);
}

static PyObject *
set_iand(PyObject *so, PyObject *other)
{
    return set_inplace_op(so, other, _PySet_IntersectionUpdate);
}

static PyObject *
set_isub(PyObject *so, PyObject *other)
{
    return set_inplace_op(so, other, _PySet_DifferenceUpdate);
}

static PyObject *
set_ixor(PyObject *so, PyObject *other)
{
    return set_inplace_op(so, other, _PySet_SymmetricDifferenceUpdate);
}

static PyObject *
set_richcompare(PyObject *self, PyObject *w, int op)
{
    PySetObject *v = (PySetObject *)self;
    if (!PyAnySet_Check(w)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *r1;
    int r2;
    switch (op) {
    case Py_EQ:
        if (PySet_GET_SIZE(v) != PySet_GET_SIZE(w)) {
            Py_RETURN_FALSE;
        }
        if (v->hash != -1 && ((PySetObject *)w)->hash != -1 &&
            v->hash != ((PySetObject *)w)->hash) {
            Py_RETURN_FALSE;
        }
        return set_issubset(self, w);
    case Py_NE:
        r1 = set_richcompare(self, w, Py_EQ);
        if (r1 == NULL) {
            return NULL;
        }
        r2 = PyObject_IsTrue(r1);
        Py_DECREF(r1);
        if (r2 < 0) {
            return NULL;
        }
        return PyBool_FromLong(!r2);
    case Py_LE:
        return set_issubset(self, w);
    case Py_GE:
        return set_issuperset(self, w);
    case Py_LT:
        if (PySet_GET_SIZE(v) >= PySet_GET_SIZE(w)) {
            Py_RETURN_FALSE;
        }
        return set_issubset(self, w);
    case Py_GT:
        if (PySet_GET_SIZE(v) <= PySet_GET_SIZE(w)) {
            Py_RETURN_FALSE;
        }
        return set_issuperset(self, w);
    }
    Py_RETURN_NOTIMPLEMENTED;
}

/* ---- Iterator --------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PySetObject *si_set; /* NULL once exhausted */
    Py_ssize_t si_used;
    Py_ssize_t si_pos;
    Py_ssize_t len;
} setiterobject;

static void
setiter_dealloc(PyObject *op)
{
    setiterobject *si = (setiterobject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(si->si_set);
    PyObject_GC_Del(op);
}

static int
setiter_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((setiterobject *)op)->si_set);
    return 0;
}

static PyObject *
setiter_len(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    setiterobject *si = (setiterobject *)op;
    Py_ssize_t len = 0;
    if (si->si_set != NULL && si->si_used == si->si_set->used) {
        len = si->len;
    }
    return PyLong_FromSsize_t(len);
}

static PyMethodDef setiter_methods[] = {
    {"__length_hint__", setiter_len, METH_NOARGS,
     "Private method returning an estimate of len(list(it))."},
    {NULL, NULL, 0, NULL},
};

static PyObject *
setiter_iternext(PyObject *op)
{
    setiterobject *si = (setiterobject *)op;
    PySetObject *so = si->si_set;
    if (so == NULL) {
        return NULL;
    }
    if (si->si_used != so->used) {
        PyErr_SetString(PyExc_RuntimeError, "Set changed size during iteration");
        si->si_used = -1; /* keep failing */
        return NULL;
    }
    Py_ssize_t i = si->si_pos;
    setentry *entry = so->table;
    Py_ssize_t mask = so->mask;
    while (i <= mask && !is_active(&entry[i])) {
        i++;
    }
    if (i > mask) {
        si->si_set = NULL;
        Py_DECREF(so);
        return NULL;
    }
    si->si_pos = i + 1;
    si->len--;
    return Py_NewRef(entry[i].key);
}

PyTypeObject PySetIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "set_iterator",
    .tp_basicsize = sizeof(setiterobject),
    .tp_dealloc = setiter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = setiter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = setiter_iternext,
    .tp_methods = setiter_methods,
};

static PyObject *
set_iter(PyObject *op)
{
    PySetObject *so = (PySetObject *)op;
    setiterobject *si = PyObject_GC_New(setiterobject, &PySetIter_Type);
    if (si == NULL) {
        return NULL;
    }
    si->si_set = (PySetObject *)Py_NewRef(so);
    si->si_used = so->used;
    si->si_pos = 0;
    si->len = so->used;
    PyObject_GC_Track(si);
    return (PyObject *)si;
}

/* ---- C API ------------------------------------------------------------------------------------------ */

Py_ssize_t
PySet_Size(PyObject *anyset)
{
    if (!PyAnySet_Check(anyset)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return PySet_GET_SIZE(anyset);
}

int
PySet_Clear(PyObject *set)
{
    if (!PySet_Check(set)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return set_clear_internal((PySetObject *)set);
}

int
PySet_Contains(PyObject *anyset, PyObject *key)
{
    if (!PyAnySet_Check(anyset)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return set_contains_key((PySetObject *)anyset, key);
}

int
PySet_Discard(PyObject *set, PyObject *key)
{
    if (!PySet_Check(set)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return set_discard_key((PySetObject *)set, key);
}

/* A frozenset may be filled while its creator holds the only reference. */
int
PySet_Add(PyObject *anyset, PyObject *key)
{
    if (!PySet_Check(anyset) && (!PyFrozenSet_Check(anyset) || Py_REFCNT(anyset) != 1)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return set_add_key((PySetObject *)anyset, key);
}

int
_PySet_AddKnownHash(PyObject *set, PyObject *key, Py_hash_t hash)
{
    return set_add_entry((PySetObject *)set, key, hash);
}

PyObject *
PySet_Pop(PyObject *set)
{
    if (!PySet_Check(set)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return set_pop(set, NULL);
}

int
_PySet_Update(PyObject *set, PyObject *iterable)
{
    if (!PySet_Check(set)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return set_update_internal((PySetObject *)set, iterable);
}

int
_PySet_NextEntry(PyObject *set, Py_ssize_t *pos, PyObject **key, Py_hash_t *hash)
{
    if (!PyAnySet_Check(set)) {
        PyErr_BadInternalCall();
        return -1;
    }
    setentry *entry;
    if (set_next((PySetObject *)set, pos, &entry) == 0) {
        return 0;
    }
    *key = entry->key;
    *hash = entry->hash;
    return 1;
}

/* ---- The types ------------------------------------------------------------------------------------- */

static PyMethodDef set_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {"add", set_add, METH_O, "Add an element to a set.\n\nThis has no effect if the element is already present."},
    {"clear", set_clear, METH_NOARGS, "Remove all elements from this set."},
    {"__contains__", set_direct_contains, METH_O | METH_COEXIST, "x.__contains__(y) <==> y in x."},
    {"copy", set_copy, METH_NOARGS, "Return a shallow copy of a set."},
    {"discard", set_discard, METH_O,
     "Remove an element from a set if it is a member.\n\nUnlike set.remove(), the discard() method does not raise\nan exception when an element is missing from the set."},
    {"difference", set_difference_multi, METH_VARARGS,
     "Return a new set with elements in the set that are not in the others."},
    {"difference_update", set_difference_update, METH_VARARGS,
     "Update the set, removing elements found in others."},
    {"intersection", set_intersection_multi, METH_VARARGS,
     "Return a new set with elements common to the set and all others."},
    {"intersection_update", set_intersection_update_multi, METH_VARARGS,
     "Update the set, keeping only elements found in it and all others."},
    {"isdisjoint", set_isdisjoint, METH_O, "Return True if two sets have a null intersection."},
    {"issubset", set_issubset, METH_O, "Report whether another set contains this set."},
    {"issuperset", set_issuperset, METH_O, "Report whether this set contains another set."},
    {"pop", set_pop, METH_NOARGS,
     "Remove and return an arbitrary set element.\n\nRaises KeyError if the set is empty."},
    {"__reduce__", set_reduce, METH_NOARGS, "Return state information for pickling."},
    {"remove", set_remove, METH_O,
     "Remove an element from a set; it must be a member.\n\nIf the element is not a member, raise a KeyError."},
    {"__sizeof__", set_sizeof, METH_NOARGS, "S.__sizeof__() -> size of S in memory, in bytes."},
    {"symmetric_difference", set_symmetric_difference_meth, METH_O,
     "Return a new set with elements in either the set or other but not both."},
    {"symmetric_difference_update", set_symmetric_difference_update, METH_O,
     "Update the set, keeping only elements found in either set, but not in both."},
    {"union", set_union, METH_VARARGS,
     "Return a new set with elements from the set and all others."},
    {"update", set_update, METH_VARARGS, "Update the set, adding elements from all others."},
    {NULL, NULL, 0, NULL},
};

static PyNumberMethods set_as_number = {
    .nb_subtract = set_sub,
    .nb_and = set_and,
    .nb_xor = set_xor,
    .nb_or = set_or,
    .nb_inplace_subtract = set_isub,
    .nb_inplace_and = set_iand,
    .nb_inplace_xor = set_ixor,
    .nb_inplace_or = set_ior,
};

static PySequenceMethods set_as_sequence = {
    .sq_length = set_len,
    .sq_contains = set_contains,
};

PyTypeObject PySet_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "set",
    .tp_basicsize = sizeof(PySetObject),
    .tp_dealloc = set_dealloc,
    .tp_repr = set_repr,
    .tp_as_number = &set_as_number,
    .tp_as_sequence = &set_as_sequence,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Build an unordered collection of unique elements.",
    .tp_traverse = set_traverse,
    .tp_clear = set_tp_clear,
    .tp_richcompare = set_richcompare,
    .tp_weaklistoffset = offsetof(PySetObject, weakreflist),
    .tp_iter = set_iter,
    .tp_methods = set_methods,
    .tp_init = set_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = set_new,
    .tp_free = PyObject_GC_Del,
    .tp_vectorcall = set_vectorcall,
};

static PyMethodDef frozenset_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {"__contains__", set_direct_contains, METH_O | METH_COEXIST, "x.__contains__(y) <==> y in x."},
    {"copy", frozenset_copy, METH_NOARGS, "Return a shallow copy of a set."},
    {"difference", set_difference_multi, METH_VARARGS,
     "Return a new set with elements in the set that are not in the others."},
    {"intersection", set_intersection_multi, METH_VARARGS,
     "Return a new set with elements common to the set and all others."},
    {"isdisjoint", set_isdisjoint, METH_O, "Return True if two sets have a null intersection."},
    {"issubset", set_issubset, METH_O, "Report whether another set contains this set."},
    {"issuperset", set_issuperset, METH_O, "Report whether this set contains another set."},
    {"__reduce__", set_reduce, METH_NOARGS, "Return state information for pickling."},
    {"__sizeof__", set_sizeof, METH_NOARGS, "S.__sizeof__() -> size of S in memory, in bytes."},
    {"symmetric_difference", set_symmetric_difference_meth, METH_O,
     "Return a new set with elements in either the set or other but not both."},
    {"union", set_union, METH_VARARGS,
     "Return a new set with elements from the set and all others."},
    {NULL, NULL, 0, NULL},
};

static PyNumberMethods frozenset_as_number = {
    .nb_subtract = set_sub,
    .nb_and = set_and,
    .nb_xor = set_xor,
    .nb_or = set_or,
};

PyTypeObject PyFrozenSet_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "frozenset",
    .tp_basicsize = sizeof(PySetObject),
    .tp_dealloc = set_dealloc,
    .tp_repr = set_repr,
    .tp_as_number = &frozenset_as_number,
    .tp_as_sequence = &set_as_sequence,
    .tp_hash = frozenset_hash,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Build an immutable unordered collection of unique elements.",
    .tp_traverse = set_traverse,
    .tp_clear = set_tp_clear,
    .tp_richcompare = set_richcompare,
    .tp_weaklistoffset = offsetof(PySetObject, weakreflist),
    .tp_iter = set_iter,
    .tp_methods = frozenset_methods,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = frozenset_new,
    .tp_free = PyObject_GC_Del,
    .tp_vectorcall = frozenset_vectorcall,
};
