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

/* What walking a key's probe sequence ended on. */
#define PROBE_FAILED (-1)  /* an __eq__ raised */
#define PROBE_VACANT 0     /* the never-used slot closing the chain: key absent */
#define PROBE_MATCHED 1    /* a slot whose key equals the probe key */

/* Result of asking a stored key's __eq__ (beyond 1, 0 and -1). */
#define EQ_TABLE_MOVED 2

/* Ask `stored == key` through rich comparison.  User __eq__ code may add
   or remove keys of this very set; when that happened (the table moved or
   the slot no longer holds `stored`), the answer is about a stale slot and
   the caller must walk again.  A caller that only wants to know whether
   the key is present (`answer_only`) can take a "yes" as it is.
   Inlined: comparing ints or tuples in a set lookup is common enough
   that a call here shows. */
static inline Py_ALWAYS_INLINE int
stored_key_equals(PySetObject *so, setentry *slot, PyObject *stored, PyObject *key,
                  const int answer_only)
{
    setentry *table_before = so->table;
    Py_INCREF(stored);
    int eq = PyObject_RichCompareBool(stored, key, Py_EQ);
    Py_DECREF(stored);
    if (eq > 0 && answer_only) {
        return 1;
    }
    if (eq >= 0 && (so->table != table_before || slot->key != stored)) {
        return EQ_TABLE_MOVED;
    }
    return eq;
}

/* Walk the probe sequence of `hash`: runs of LINEAR_PROBES+1 adjacent
   slots (when they fit below the mask), then a pseudo-random jump that
   mixes in more and more of the hash's high bits.  Dummies never compare
   equal (their hash is -1, which no key has), so they are stepped over.
   Stores the slot reached in *slot_out (which, on PROBE_MATCHED with
   answer_only set, may be stale: for set_add_entry, which ignores it).
   The order of slots visited decides iteration order, hence must not
   change. */
static inline Py_ALWAYS_INLINE int
probe_for_key(PySetObject *so, PyObject *key, Py_hash_t hash, setentry **slot_out,
              const int answer_only)
{
    const int exact_str = PyUnicode_CheckExact(key);
walk:;
    /* table and mask are read from the set at each run rather than kept
       in locals: fewer values live across the __eq__ call below */
    size_t run_start = (size_t)hash & (size_t)so->mask;
    size_t perturb = (size_t)hash;
    for (;;) {
        /* the run's neighbours only when they fit below the mask */
        int neighbours = run_start + LINEAR_PROBES <= (size_t)so->mask ? LINEAR_PROBES : 0;
        setentry *slot = &so->table[run_start];
        for (;; slot++) {
            PyObject *stored = slot->key;
            if (stored == NULL) {
                *slot_out = slot;
                return PROBE_VACANT;
            }
            if (slot->hash != hash) {
                goto next_slot;
            }
            int same;
            if (stored == key) {
                same = 1;
            }
            else if (exact_str && PyUnicode_CheckExact(stored)) {
                /* str == str cannot run user code: no rewalk needed */
                same = _PyUnicode_Equal(stored, key);
            }
            else {
                same = stored_key_equals(so, slot, stored, key, answer_only);
                if (same == EQ_TABLE_MOVED) {
                    goto walk;
                }
                if (same < 0) {
                    return PROBE_FAILED;
                }
            }
            if (same) {
                *slot_out = slot;
                return PROBE_MATCHED;
            }
        next_slot:
            if (neighbours-- == 0) {
                break;
            }
        }
        perturb >>= PERTURB_SHIFT;
        run_start = (run_start * 5 + 1 + perturb) & (size_t)so->mask;
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

/* Add key (borrowed) with a known hash.  The set owns a reference from
   the start, so that an __eq__ dropping the caller's last one during the
   probe cannot free the key under us. */
static int
set_add_entry(PySetObject *so, PyObject *key, Py_hash_t hash)
{
    setentry *slot;
    Py_INCREF(key);
    int found = probe_for_key(so, key, hash, &slot, 1);
    if (found != PROBE_VACANT) {
        Py_DECREF(key); /* already present, or error */
        return found == PROBE_FAILED ? -1 : 0;
    }
    slot->key = key;
    slot->hash = hash;
    so->used++;
    so->fill++;
    /* keep at least 2/5 of the slots never used, so probe chains stay short */
    if ((size_t)so->fill * 5 >= (size_t)so->mask * 3) {
        return set_grow(so);
    }
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
    /* Not answer_only: an __eq__ that mutates the set makes the walk
       start over, so `x in s` answers for the set as it is afterwards. */
    setentry *unused_slot;
    int found = probe_for_key(so, key, hash, &unused_slot, 0);
    return found == PROBE_FAILED ? -1 : found == PROBE_MATCHED;
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

/* Turn an active slot into a dummy and hand its key reference to the
   caller.  `fill` is unchanged: the dummy still lengthens probe chains. */
static inline PyObject *
take_key_leaving_dummy(PySetObject *so, setentry *slot)
{
    PyObject *removed = slot->key;
    slot->hash = -1;
    slot->key = dummy;
    so->used--;
    return removed;
}

static int
set_discard_entry(PySetObject *so, PyObject *key, Py_hash_t hash)
{
    setentry *slot;
    switch (probe_for_key(so, key, hash, &slot, 0)) {
    case PROBE_MATCHED:
        /* the set is consistent before the key's destructor can run */
        Py_DECREF(take_key_leaving_dummy(so, slot));
        return DISCARD_FOUND;
    case PROBE_VACANT:
        return DISCARD_NOTFOUND;
    default:
        return -1;
    }
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

/* Point the set at its embedded table, wiped: a valid empty set. */
static void
set_empty_to_minsize(PySetObject *so)
{
    so->table = so->smalltable;
    so->mask = PySet_MINSIZE - 1;
    so->hash = -1;
    so->used = so->fill = 0;
    memset(so->table, 0, PySet_MINSIZE * sizeof(setentry));
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

/* Before adding up to `incoming` keys at once: resize once now rather than
   several times during the loop.  The factor 2 leaves headroom. */
static int
reserve_room(PySetObject *so, Py_ssize_t incoming)
{
    if ((so->fill + incoming) * 5 < so->mask * 3) {
        return 0;
    }
    return set_table_resize(so, (so->used + incoming) * 2);
}

static int
set_merge(PySetObject *so, PyObject *otherset)
{
    PySetObject *other = (PySetObject *)otherset;
    if (other == so || other->used == 0) {
        return 0;
    }
    if (reserve_room(so, other->used) < 0) {
        return -1;
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

/* Feed each item of an iterable to `step` (a per-key operation on `so`
   returning -1 on error).  Stops early when step returns `stop_at`.
   Returns 1 when it stopped early, 0 when the iterable ran out, -1 on
   error (from step, the iterator or its creation).  Pass NEVER_STOP for a
   full pass.  Inlined with constant arguments at each caller. */
#define NEVER_STOP (-2)

static inline int
each_item(PySetObject *so, PyObject *iterable, int (*step)(PySetObject *, PyObject *),
          int stop_at)
{
    PyObject *iterator = PyObject_GetIter(iterable);
    if (iterator == NULL) {
        return -1;
    }
    int outcome = 0;
    for (;;) {
        PyObject *item = PyIter_Next(iterator);
        if (item == NULL) {
            outcome = PyErr_Occurred() ? -1 : 0;
            break;
        }
        int r = step(so, item);
        Py_DECREF(item);
        if (r < 0 || r == stop_at) {
            outcome = r < 0 ? -1 : 1;
            break;
        }
    }
    Py_DECREF(iterator);
    return outcome;
}

/* Same over the keys of a set (no hashing: the stored hash is reused).
   The key is held for the duration of step: step may run __eq__ code
   which could remove it from `source`. */
static inline int
each_entry(PySetObject *so, PySetObject *source,
           int (*step)(PySetObject *, PyObject *, Py_hash_t), int stop_at)
{
    Py_ssize_t pos = 0;
    setentry *entry;
    while (set_next(source, &pos, &entry)) {
        PyObject *key = Py_NewRef(entry->key);
        int r = step(so, key, entry->hash);
        Py_DECREF(key);
        if (r < 0) {
            return -1;
        }
        if (r == stop_at) {
            return 1;
        }
    }
    return 0;
}

/* A dict's keys come with their hashes. */
static int
add_dict_keys(PySetObject *so, PyObject *dict)
{
    if (reserve_room(so, PyDict_GET_SIZE(dict)) < 0) {
        return -1;
    }
    PyObject *key, *ignored_value;
    Py_hash_t key_hash;
    for (Py_ssize_t pos = 0; _PyDict_Next(dict, &pos, &key, &ignored_value, &key_hash);) {
        if (set_add_entry(so, key, key_hash) < 0) {
            return -1;
        }
    }
    return 0;
}

/* so |= keys of other (any iterable), with fast paths for sets and dicts */
static int
set_update_internal(PySetObject *so, PyObject *other)
{
    if (PyAnySet_Check(other)) {
        return set_merge(so, other);
    }
    if (PyDict_CheckExact(other)) {
        return add_dict_keys(so, other);
    }
    return each_item(so, other, set_add_key, NEVER_STOP) < 0 ? -1 : 0;
}

/* ---- Construction ---------------------------------------------------------------------------- */

/* A new, empty instance of `type` (a set or frozenset type) filled from
   `iterable` when not NULL. */
static PyObject *
make_new_set(PyTypeObject *type, PyObject *iterable)
{
    PyObject *self = type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    PySetObject *fresh = (PySetObject *)self;
    set_empty_to_minsize(fresh);
    fresh->weakreflist = NULL;
    fresh->finger = 0;
    if (iterable == NULL || set_update_internal(fresh, iterable) == 0) {
        return self;
    }
    Py_DECREF(self);
    return NULL;
}

/* Operations on an instance of a subclass build a plain set or frozenset,
   whichever the subclass derives from. */
static PyTypeObject *
builtin_base_of(PyTypeObject *type)
{
    if (type == &PySet_Type || type == &PyFrozenSet_Type) {
        return type;
    }
    return PyType_IsSubtype(type, &PySet_Type) ? &PySet_Type : &PyFrozenSet_Type;
}

static PyObject *
make_new_set_basetype(PyTypeObject *type, PyObject *iterable)
{
    return make_new_set(builtin_base_of(type), iterable);
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
    /* `used` active slots exist; stop as soon as all were seen */
    setentry *slot = so->table;
    for (Py_ssize_t unseen = so->used; unseen > 0; slot++) {
        if (is_active(slot)) {
            Py_VISIT(slot->key);
            unseen--;
        }
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

static inline void
swap_ssize(Py_ssize_t *x, Py_ssize_t *y)
{
    Py_ssize_t keep = *x;
    *x = *y;
    *y = keep;
}

/* Exchange the contents of two sets (the in-place operations compute a
   new set and adopt its table).  A heap table just changes owner; an
   embedded smalltable cannot move, so its slots are copied across and
   the receiving set points at its own smalltable. */
static void
set_swap_bodies(PySetObject *a, PySetObject *b)
{
    const int a_embedded = a->table == a->smalltable;
    const int b_embedded = b->table == b->smalltable;
    setentry *a_heap = a->table, *b_heap = b->table;

    if (a_embedded || b_embedded) {
        setentry scratch[PySet_MINSIZE];
        memcpy(scratch, b->smalltable, sizeof(scratch));
        memcpy(b->smalltable, a->smalltable, sizeof(scratch));
        memcpy(a->smalltable, scratch, sizeof(scratch));
    }
    a->table = b_embedded ? a->smalltable : b_heap;
    b->table = a_embedded ? b->smalltable : a_heap;
    swap_ssize(&a->mask, &b->mask);
    swap_ssize(&a->used, &b->used);
    swap_ssize(&a->fill, &b->fill);

    /* A cached hash stays valid only when both are frozensets; a set's
       hash slot must read "not computed". */
    int both_frozen = PyType_IsSubtype(Py_TYPE(a), &PyFrozenSet_Type) &&
                      PyType_IsSubtype(Py_TYPE(b), &PyFrozenSet_Type);
    Py_hash_t a_hash = both_frozen ? b->hash : -1;
    b->hash = both_frozen ? a->hash : -1;
    a->hash = a_hash;
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

/* set_discard_key/set_discard_entry as each_item/each_entry steps */
static int
discard_step(PySetObject *so, PyObject *key)
{
    return set_discard_key(so, key);
}

int
_PySet_DifferenceUpdate(PyObject *op, PyObject *other)
{
    PySetObject *so = (PySetObject *)op;
    if (op == other) {
        return set_clear_internal(so); /* s -= s */
    }
    int walked = PyAnySet_Check(other)
                     ? each_entry(so, (PySetObject *)other, set_discard_entry, NEVER_STOP)
                     : each_item(so, other, discard_step, NEVER_STOP);
    if (walked < 0) {
        return -1;
    }
    /* Removal leaves dummies, which lengthen probe chains for good.  Past a
       quarter of the table, rebuild it. */
    Py_ssize_t dummies = so->fill - so->used;
    if ((size_t)dummies > (size_t)so->mask / 4) {
        return set_grow(so);
    }
    return 0;
}

/* so - other by copying so and removing other's keys: the way for
   arbitrary iterables, and when so is much larger than other. */
static PyObject *
set_copy_and_difference(PySetObject *so, PyObject *other)
{
    PyObject *copy = set_copy((PyObject *)so, NULL);
    if (copy != NULL && _PySet_DifferenceUpdate(copy, other) < 0) {
        Py_CLEAR(copy);
    }
    return copy;
}

/* Key membership in a set or exact dict, with a known hash. */
static int
container_has(PyObject *container, PyObject *key, Py_hash_t hash)
{
    if (PyDict_CheckExact(container)) {
        return _PyDict_Contains_KnownHash(container, key, hash);
    }
    return set_contains_entry((PySetObject *)container, key, hash);
}

static PyObject *
set_difference(PySetObject *so, PyObject *other)
{
    Py_ssize_t other_len;
    if (PyDict_CheckExact(other)) {
        other_len = PyDict_GET_SIZE(other);
    }
    else if (PyAnySet_Check(other)) {
        other_len = PySet_GET_SIZE(other);
    }
    else {
        return set_copy_and_difference(so, other);
    }
    /* Filtering so key by key costs len(so) lookups; copying and removing
       costs a copy plus len(other) lookups, better when other is small. */
    if (PySet_GET_SIZE(so) / 4 > other_len) {
        return set_copy_and_difference(so, other);
    }

    PyObject *result = make_new_set_basetype(Py_TYPE(so), NULL);
    if (result == NULL) {
        return NULL;
    }
    Py_ssize_t pos = 0;
    setentry *entry;
    while (set_next(so, &pos, &entry)) {
        Py_hash_t hash = entry->hash;
        PyObject *key = Py_NewRef(entry->key);
        int status = container_has(other, key, hash);
        if (status == 0) {
            status = set_add_entry((PySetObject *)result, key, hash);
        }
        Py_DECREF(key);
        if (status < 0) {
            Py_DECREF(result);
            return NULL;
        }
    }
    return result;
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
        return 0; /* pigeonholes */
    }
    /* look each key of so up in other; the first one missing ends it */
    int missing = each_entry(other, so, set_contains_entry, 0);
    return missing < 0 ? -1 : !missing;
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
   stopped, so that emptying a set by repeated pops doesn't rescan the
   same run of dummies each time (which would be quadratic). */
static PyObject *
set_pop(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    PySetObject *so = (PySetObject *)op;
    if (so->used == 0) {
        PyErr_SetString(PyExc_KeyError, "pop from an empty set");
        return NULL;
    }
    size_t mask = (size_t)so->mask;
    size_t at = (size_t)so->finger & mask;
    while (!is_active(&so->table[at])) {
        at = (at + 1) & mask; /* wraps; terminates since used > 0 */
    }
    so->finger = (Py_ssize_t)at + 1;
    return take_key_leaving_dummy(so, &so->table[at]);
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
    /* the smalltable is part of the object; a heap table is extra */
    size_t heap_table = 0;
    if (so->table != so->smalltable) {
        heap_table = sizeof(setentry) * (size_t)(so->mask + 1);
    }
    return PyLong_FromSize_t(heap_table + (size_t)Py_TYPE(op)->tp_basicsize);
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

/* An iterator whose set changed size, or which is exhausted, yields
   nothing more. */
static PyObject *
setiter_len(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    setiterobject *si = (setiterobject *)op;
    PySetObject *so = si->si_set;
    int still_valid = so != NULL && so->used == si->si_used;
    return PyLong_FromSsize_t(still_valid ? si->len : 0);
}

static PyMethodDef setiter_methods[] = {
    {"__length_hint__", setiter_len, METH_NOARGS, "How many more keys the iterator will yield."},
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

/* Borrowed key and hash of the next active slot from *pos on; 0 at the
   end (used by marshal, which iterates without creating an iterator). */
int
_PySet_NextEntry(PyObject *set, Py_ssize_t *pos, PyObject **key, Py_hash_t *hash)
{
    if (!PyAnySet_Check(set)) {
        PyErr_BadInternalCall();
        return -1;
    }
    setentry *found;
    int more = set_next((PySetObject *)set, pos, &found);
    if (more) {
        *hash = found->hash;
        *key = found->key;
    }
    return more;
}

/* ---- The types ------------------------------------------------------------------------------------- */

/* Method documentation, shared by set and frozenset where both have the
   method.  (This tree has no PyDoc_STRVAR.) */
static const char doc_add[] = "Insert one element; a no-op when an equal element is already there.";
static const char doc_clear[] = "Remove all elements from this set.";
static const char doc_contains[] = "x.__contains__(y) <==> y in x.";
static const char doc_copy[] = "Return a shallow copy of a set.";
static const char doc_discard[] = "Take out an element if present; a missing element is silently ignored\n"
    "(compare remove(), which raises KeyError).";
static const char doc_difference[] = "Elements of this set absent from every argument, as a new set.";
static const char doc_difference_update[] = "Take out of this set every element found in any argument.";
static const char doc_intersection[] = "Elements present in this set and in each argument, as a new set.";
static const char doc_intersection_update[] = "Keep in this set only the elements present in each argument.";
static const char doc_isdisjoint[] = "True when the two share no element at all.";
static const char doc_issubset[] = "True when every element of this set is in the argument.";
static const char doc_issuperset[] = "True when every element of the argument is in this set.";
static const char doc_pop[] = "Take out some element and return it; KeyError on an empty set.";
static const char doc_reduce[] = "Return state information for pickling.";
static const char doc_remove[] = "Take out an element, which must be present (KeyError when it is not).";
static const char doc_sizeof[] = "Bytes of memory this set occupies, its table included.";
static const char doc_symmetric_difference[] = "Elements in exactly one of this set and the argument, as a new set.";
static const char doc_symmetric_difference_update[] = "Make this set hold the elements in exactly one of it and the argument.";
static const char doc_union[] = "Elements in this set or in any argument, as a new set.";
static const char doc_update[] = "Add to this set every element of each argument.";

static PyMethodDef set_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {"add", set_add, METH_O, doc_add},
    {"clear", set_clear, METH_NOARGS, doc_clear},
    {"__contains__", set_direct_contains, METH_O | METH_COEXIST, doc_contains},
    {"copy", set_copy, METH_NOARGS, doc_copy},
    {"discard", set_discard, METH_O, doc_discard},
    {"difference", set_difference_multi, METH_VARARGS, doc_difference},
    {"difference_update", set_difference_update, METH_VARARGS, doc_difference_update},
    {"intersection", set_intersection_multi, METH_VARARGS, doc_intersection},
    {"intersection_update", set_intersection_update_multi, METH_VARARGS, doc_intersection_update},
    {"isdisjoint", set_isdisjoint, METH_O, doc_isdisjoint},
    {"issubset", set_issubset, METH_O, doc_issubset},
    {"issuperset", set_issuperset, METH_O, doc_issuperset},
    {"pop", set_pop, METH_NOARGS, doc_pop},
    {"__reduce__", set_reduce, METH_NOARGS, doc_reduce},
    {"remove", set_remove, METH_O, doc_remove},
    {"__sizeof__", set_sizeof, METH_NOARGS, doc_sizeof},
    {"symmetric_difference", set_symmetric_difference_meth, METH_O, doc_symmetric_difference},
    {"symmetric_difference_update", set_symmetric_difference_update, METH_O,
     doc_symmetric_difference_update},
    {"union", set_union, METH_VARARGS, doc_union},
    {"update", set_update, METH_VARARGS, doc_update},
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
    {"__contains__", set_direct_contains, METH_O | METH_COEXIST, doc_contains},
    {"copy", frozenset_copy, METH_NOARGS, doc_copy},
    {"difference", set_difference_multi, METH_VARARGS, doc_difference},
    {"intersection", set_intersection_multi, METH_VARARGS, doc_intersection},
    {"isdisjoint", set_isdisjoint, METH_O, doc_isdisjoint},
    {"issubset", set_issubset, METH_O, doc_issubset},
    {"issuperset", set_issuperset, METH_O, doc_issuperset},
    {"__reduce__", set_reduce, METH_NOARGS, doc_reduce},
    {"__sizeof__", set_sizeof, METH_NOARGS, doc_sizeof},
    {"symmetric_difference", set_symmetric_difference_meth, METH_O, doc_symmetric_difference},
    {"union", set_union, METH_VARARGS, doc_union},
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
