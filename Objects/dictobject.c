/* dict: the compact, insertion-ordered hash table, its views and
   iterators.  The table layout is described in pycore_dict.h. */
#include "Python.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_dict.h"
#include "pycore_pyerrors.h"
#include "pycore_setobject.h"
#include "pycore_tuple.h"

#define PERTURB_SHIFT 5
#define PyDict_LOG_MINSIZE 3
#define PyDict_MINSIZE (1 << PyDict_LOG_MINSIZE)

/* Entries available in a table of `size` index slots: 2/3 keeps probe
   sequences short while wasting little space. */
#define USABLE_FRACTION(size) (((size) << 1) / 3)

/* ---- The shared empty table ------------------------------------------------

   Every empty dict points at this read-only table (dk_usable == 0, so the
   first insertion resizes), making PyDict_New allocation-free apart from
   the object itself. */

static struct {
    uint8_t dk_log2_size;
    uint8_t dk_log2_index_bytes;
    uint32_t dk_version;
    Py_ssize_t dk_usable;
    Py_ssize_t dk_nentries;
    int8_t dk_indices[PyDict_MINSIZE];
} empty_keys_struct = {
    PyDict_LOG_MINSIZE, PyDict_LOG_MINSIZE, 0, 0, 0,
    {DKIX_EMPTY, DKIX_EMPTY, DKIX_EMPTY, DKIX_EMPTY,
     DKIX_EMPTY, DKIX_EMPTY, DKIX_EMPTY, DKIX_EMPTY},
};

#define Py_EMPTY_KEYS ((PyDictKeysObject *)&empty_keys_struct)

/* ---- Versions ------------------------------------------------------------ */

static uint64_t dict_global_version = 0;

void
_PyDict_BumpVersion(PyDictObject *mp)
{
    dict_global_version += DICT_VERSION_INCREMENT;
    mp->_ma_watcher_tag = (mp->_ma_watcher_tag & DICT_WATCHER_MASK) | dict_global_version;
}

#define BUMP_VERSION(mp) _PyDict_BumpVersion(mp)

/* ---- Watchers ------------------------------------------------------------ */

static PyDict_WatchCallback dict_watchers[DICT_MAX_WATCHERS];

/* Where the callback of a watcher in use is kept; NULL (ValueError) for an
   id out of range or free. */
static PyDict_WatchCallback *
watcher_in_use(int watcher_id)
{
    if (watcher_id >= 0 && watcher_id < DICT_MAX_WATCHERS) {
        PyDict_WatchCallback *slot = &dict_watchers[watcher_id];
        if (*slot != NULL) {
            return slot;
        }
        PyErr_Format(PyExc_ValueError, "No dict watcher set for ID %d", watcher_id);
        return NULL;
    }
    PyErr_Format(PyExc_ValueError, "Invalid dict watcher ID %d", watcher_id);
    return NULL;
}

int
PyDict_AddWatcher(PyDict_WatchCallback callback)
{
    for (int id = DICT_TIER2_WATCHER + 1; id < DICT_MAX_WATCHERS; id++) {
        if (dict_watchers[id] == NULL) {
            dict_watchers[id] = callback;
            return id;
        }
    }
    PyErr_SetString(PyExc_RuntimeError, "no more dict watcher IDs available");
    return -1;
}

int
_PyDict_SetTier2Watcher(PyDict_WatchCallback callback)
{
    dict_watchers[DICT_TIER2_WATCHER] = callback;
    return DICT_TIER2_WATCHER;
}

int
PyDict_ClearWatcher(int watcher_id)
{
    PyDict_WatchCallback *slot = watcher_in_use(watcher_id);
    if (slot == NULL) {
        return -1;
    }
    *slot = NULL;
    return 0;
}

static PyDictObject *
watchable_dict(int watcher_id, PyObject *dict)
{
    if (!PyDict_Check(dict)) {
        PyErr_SetString(PyExc_ValueError, "Cannot watch non-dictionary");
        return NULL;
    }
    return watcher_in_use(watcher_id) == NULL ? NULL : (PyDictObject *)dict;
}

int
PyDict_Watch(int watcher_id, PyObject *dict)
{
    PyDictObject *mp = watchable_dict(watcher_id, dict);
    if (mp == NULL) {
        return -1;
    }
    mp->_ma_watcher_tag |= (uint64_t)1 << watcher_id;
    return 0;
}

int
PyDict_Unwatch(int watcher_id, PyObject *dict)
{
    PyDictObject *mp = watchable_dict(watcher_id, dict);
    if (mp == NULL) {
        return -1;
    }
    mp->_ma_watcher_tag &= ~((uint64_t)1 << watcher_id);
    return 0;
}

/* Callbacks run with any pending exception put aside; one that fails is
   reported and the change goes ahead. */
void
_PyDict_SendEvent(int watchers, PyDict_WatchEvent event, PyDictObject *mp,
                  PyObject *key, PyObject *value)
{
    PyObject *pending = PyErr_GetRaisedException();
    for (int id = 0; id < DICT_MAX_WATCHERS; id++) {
        PyDict_WatchCallback callback = dict_watchers[id];
        if ((watchers & (1 << id)) == 0 || callback == NULL) {
            continue;
        }
        if (callback(event, (PyObject *)mp, key, value) < 0) {
            _PyErr_WriteUnraisableMsg("in a dict watcher callback", NULL);
        }
    }
    PyErr_SetRaisedException(pending);
}

static uint32_t next_keys_version = 1;

uint32_t
_PyDictKeys_GetVersionForCurrentState(PyDictKeysObject *keys)
{
    if (keys == Py_EMPTY_KEYS) {
        return 0;  /* read-only, and shared by every empty dict */
    }
    if (keys->dk_version == 0 && next_keys_version != 0) {
        keys->dk_version = next_keys_version++;
    }
    return keys->dk_version;
}

/* ---- Index array access ---------------------------------------------------- */

static inline Py_ssize_t
dk_get_index(PyDictKeysObject *keys, size_t i)
{
    int log2size = DK_LOG_SIZE(keys);
    if (log2size < 8) {
        return ((const int8_t *)keys->dk_indices)[i];
    }
    if (log2size < 16) {
        return ((const int16_t *)keys->dk_indices)[i];
    }
    if (log2size < 32) {
        return ((const int32_t *)keys->dk_indices)[i];
    }
    return ((const int64_t *)keys->dk_indices)[i];
}

static inline void
dk_set_index(PyDictKeysObject *keys, size_t i, Py_ssize_t ix)
{
    int log2size = DK_LOG_SIZE(keys);
    if (log2size < 8) {
        ((int8_t *)keys->dk_indices)[i] = (int8_t)ix;
    }
    else if (log2size < 16) {
        ((int16_t *)keys->dk_indices)[i] = (int16_t)ix;
    }
    else if (log2size < 32) {
        ((int32_t *)keys->dk_indices)[i] = (int32_t)ix;
    }
    else {
        ((int64_t *)keys->dk_indices)[i] = (int64_t)ix;
    }
}

/* Smallest log2 table size whose usable entries cover `minsize`. */
static uint8_t
estimate_log2_keysize(Py_ssize_t minsize)
{
    uint8_t log2 = PyDict_LOG_MINSIZE;
    while (log2 < 62 && USABLE_FRACTION((Py_ssize_t)1 << log2) < minsize) {
        log2++;
    }
    return log2;
}

static PyDictKeysObject *
new_keys_object(uint8_t log2_size)
{
    uint8_t log2_bytes;
    if (log2_size < 8) {
        log2_bytes = log2_size;
    }
    else if (log2_size < 16) {
        log2_bytes = log2_size + 1;
    }
    else if (log2_size < 32) {
        log2_bytes = log2_size + 2;
    }
    else {
        log2_bytes = log2_size + 3;
    }
    if (log2_bytes >= 8 * sizeof(size_t) - 8) {
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t usable = USABLE_FRACTION((Py_ssize_t)1 << log2_size);
    size_t index_bytes = (size_t)1 << log2_bytes;
    size_t entry_bytes = (size_t)usable * sizeof(PyDictKeyEntry);
    if ((size_t)usable > PY_SSIZE_T_MAX / sizeof(PyDictKeyEntry) ||
        index_bytes > PY_SSIZE_T_MAX - entry_bytes - sizeof(PyDictKeysObject)) {
        PyErr_NoMemory();
        return NULL;
    }
    PyDictKeysObject *dk = PyMem_Malloc(sizeof(PyDictKeysObject) + index_bytes + entry_bytes);
    if (dk == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    dk->dk_log2_size = log2_size;
    dk->dk_log2_index_bytes = log2_bytes;
    dk->dk_version = 0;
    dk->dk_usable = usable;
    dk->dk_nentries = 0;
    memset(dk->dk_indices, 0xff, index_bytes); /* all DKIX_EMPTY */
    memset(DK_ENTRIES(dk), 0, entry_bytes);
    return dk;
}

static void
free_keys_object(PyDictKeysObject *keys)
{
    if (keys != Py_EMPTY_KEYS) {
        PyMem_Free(keys);
    }
}

/* Gives up a table that owns its entries: the references they hold go
   first, then the memory. */
static void
release_keys_object(PyDictKeysObject *keys)
{
    PyDictKeyEntry *end = DK_ENTRIES(keys) + keys->dk_nentries;
    for (PyDictKeyEntry *ep = DK_ENTRIES(keys); ep != end; ep++) {
        Py_XDECREF(ep->me_value);
        Py_XDECREF(ep->me_key);
    }
    free_keys_object(keys);
}

static size_t
keys_nbytes(PyDictKeysObject *keys)
{
    if (keys == Py_EMPTY_KEYS) {
        return 0;
    }
    return sizeof(PyDictKeysObject) + ((size_t)1 << keys->dk_log2_index_bytes) +
           (size_t)USABLE_FRACTION(DK_SIZE(keys)) * sizeof(PyDictKeyEntry);
}

/* Index slot for a new entry: the first empty or dummy slot on the probe
   path (the key is known to be absent). */
static size_t
find_empty_slot(PyDictKeysObject *keys, Py_hash_t hash)
{
    size_t mask = DK_MASK(keys);
    size_t i = (size_t)hash & mask;
    size_t perturb = (size_t)hash;
    while (dk_get_index(keys, i) >= 0) {
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + perturb + 1) & mask;
    }
    return i;
}

/* Index slot that holds entry number ix. */
static size_t
lookup_slot_of(PyDictKeysObject *keys, Py_hash_t hash, Py_ssize_t ix)
{
    size_t mask = DK_MASK(keys);
    size_t i = (size_t)hash & mask;
    size_t perturb = (size_t)hash;
    while (dk_get_index(keys, i) != ix) {
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + perturb + 1) & mask;
    }
    return i;
}

/* ---- Lookup -------------------------------------------------------------------

   Returns the entry position of `key`, DKIX_EMPTY or DKIX_ERROR.  A
   user-defined __eq__ may mutate the dict; if the table changed under a
   comparison, the search starts over. */

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

static Py_ssize_t
dict_lookup(PyDictObject *mp, PyObject *key, Py_hash_t hash)
{
    int key_is_str = PyUnicode_CheckExact(key);
restart:;
    PyDictKeysObject *dk = mp->ma_keys;
    PyDictKeyEntry *entries = DK_ENTRIES(dk);
    size_t mask = DK_MASK(dk);
    size_t perturb = (size_t)hash;
    size_t i = (size_t)hash & mask;
    for (;;) {
        Py_ssize_t ix = dk_get_index(dk, i);
        if (ix == DKIX_EMPTY) {
            return DKIX_EMPTY;
        }
        if (ix >= 0) {
            PyDictKeyEntry *ep = &entries[ix];
            PyObject *startkey = ep->me_key;
            if (startkey == key) {
                return ix;
            }
            if (ep->me_hash == hash) {
                if (key_is_str && PyUnicode_CheckExact(startkey)) {
                    /* str equality has no side effects */
                    if (_PyUnicode_Equal(startkey, key)) {
                        return ix;
                    }
                }
                else {
                    Py_INCREF(startkey);
                    int cmp = PyObject_RichCompareBool(startkey, key, Py_EQ);
                    Py_DECREF(startkey);
                    if (cmp < 0) {
                        return DKIX_ERROR;
                    }
                    if (dk != mp->ma_keys || ep->me_key != startkey) {
                        goto restart;
                    }
                    if (cmp > 0) {
                        return ix;
                    }
                }
            }
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + perturb + 1) & mask;
    }
}

/* ---- Resizing --------------------------------------------------------------- */

/* Rebuild the table with 2**log2_newsize slots, dropping deleted entries
   (which also compacts the entries array). */
static int
dictresize(PyDictObject *mp, uint8_t log2_newsize)
{
    PyDictKeysObject *oldkeys = mp->ma_keys;
    PyDictKeysObject *newkeys = new_keys_object(log2_newsize);
    if (newkeys == NULL) {
        return -1;
    }
    Py_ssize_t numentries = mp->ma_used;
    PyDictKeyEntry *oldentries = DK_ENTRIES(oldkeys);
    PyDictKeyEntry *newentries = DK_ENTRIES(newkeys);
    if (oldkeys->dk_nentries == numentries) {
        memcpy(newentries, oldentries, (size_t)numentries * sizeof(PyDictKeyEntry));
    }
    else {
        PyDictKeyEntry *ep = oldentries;
        for (Py_ssize_t i = 0; i < numentries; i++) {
            while (ep->me_key == NULL) {
                ep++;
            }
            newentries[i] = *ep++;
        }
    }
    for (Py_ssize_t ix = 0; ix < numentries; ix++) {
        dk_set_index(newkeys, find_empty_slot(newkeys, newentries[ix].me_hash), ix);
    }
    newkeys->dk_usable -= numentries;
    newkeys->dk_nentries = numentries;
    mp->ma_keys = newkeys;
    free_keys_object(oldkeys);
    return 0;
}

/* The table is full: grow to hold three times the live items, which
   leaves room to keep inserting and discards accumulated deletions. */
static int
insertion_resize(PyDictObject *mp)
{
    Py_ssize_t used = mp->ma_used;
    if (used > PY_SSIZE_T_MAX / 3) {
        PyErr_NoMemory();
        return -1;
    }
    return dictresize(mp, estimate_log2_keysize(used * 2));
}

/* ---- Creation ------------------------------------------------------------------- */

/* Steals `keys` with whatever it holds, also when it fails. */
static PyObject *
new_dict(PyDictKeysObject *keys, Py_ssize_t used)
{
    PyDictObject *mp = PyObject_GC_New(PyDictObject, &PyDict_Type);
    if (mp == NULL) {
        release_keys_object(keys);
        return NULL;
    }
    mp->ma_keys = keys;
    mp->ma_values = NULL;
    mp->ma_used = used;
    mp->_ma_watcher_tag = 0;
    BUMP_VERSION(mp);
    PyObject_GC_Track(mp);
    return (PyObject *)mp;
}

PyObject *
PyDict_New(void)
{
    return new_dict(Py_EMPTY_KEYS, 0);
}

PyObject *
_PyDict_NewPresized(Py_ssize_t minused)
{
    if (minused <= USABLE_FRACTION(PyDict_MINSIZE)) {
        return PyDict_New();
    }
    /* Cap the up-front size: a wrong (huge) hint must not allocate a
       huge table. */
    if (minused > (Py_ssize_t)1 << 30) {
        minused = (Py_ssize_t)1 << 30;
    }
    PyDictKeysObject *keys = new_keys_object(estimate_log2_keysize(minused));
    if (keys == NULL) {
        return NULL;
    }
    return new_dict(keys, 0);
}

/* ---- Insertion --------------------------------------------------------------------- */

/* Append a key known to be absent.  Takes both references. */
static int
insert_new_entry(PyDictObject *mp, PyObject *key, Py_hash_t hash, PyObject *value)
{
    _PyDict_NotifyEvent(PyDict_EVENT_ADDED, mp, key, value);
    if (mp->ma_keys->dk_usable <= 0 && insertion_resize(mp) < 0) {
        Py_DECREF(key);
        Py_DECREF(value);
        return -1;
    }
    PyDictKeysObject *dk = mp->ma_keys;
    size_t slot = find_empty_slot(dk, hash);
    Py_ssize_t ix = dk->dk_nentries;
    PyDictKeyEntry *ep = &DK_ENTRIES(dk)[ix];
    dk_set_index(dk, slot, ix);
    ep->me_key = key;
    ep->me_hash = hash;
    ep->me_value = value;
    dk->dk_usable--;
    dk->dk_nentries++;
    dk->dk_version = 0;
    mp->ma_used++;
    BUMP_VERSION(mp);
    return 0;
}

/* mp[key] = value, taking both references. */
static int
insertdict(PyDictObject *mp, PyObject *key, Py_hash_t hash, PyObject *value)
{
    Py_ssize_t ix = dict_lookup(mp, key, hash);
    if (ix == DKIX_ERROR) {
        Py_DECREF(key);
        Py_DECREF(value);
        return -1;
    }
    if (ix == DKIX_EMPTY) {
        return insert_new_entry(mp, key, hash, value);
    }
    /* Replace the value, keeping the original key object. */
    _PyDict_NotifyEvent(PyDict_EVENT_MODIFIED, mp, key, value);
    PyDictKeyEntry *ep = &DK_ENTRIES(mp->ma_keys)[ix];
    PyObject *old_value = ep->me_value;
    ep->me_value = value;
    BUMP_VERSION(mp);
    Py_DECREF(old_value); /* may run arbitrary code: do it last */
    Py_DECREF(key);
    return 0;
}

int
_PyDict_SetItem_Take2(PyDictObject *mp, PyObject *key, PyObject *value)
{
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        Py_DECREF(key);
        Py_DECREF(value);
        return -1;
    }
    return insertdict(mp, key, hash, value);
}

int
PyDict_SetItem(PyObject *op, PyObject *key, PyObject *value)
{
    if (!PyDict_Check(op)) {
        PyErr_BadInternalCall();
        return -1;
    }
    assert(key && value);
    return _PyDict_SetItem_Take2((PyDictObject *)op, Py_NewRef(key), Py_NewRef(value));
}

int
_PyDict_SetItem_KnownHash(PyObject *op, PyObject *key, PyObject *value, Py_hash_t hash)
{
    if (!PyDict_Check(op)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return insertdict((PyDictObject *)op, Py_NewRef(key), hash, Py_NewRef(value));
}

PyObject *
_PyDict_FromItems(PyObject *const *keys, Py_ssize_t keys_offset, PyObject *const *values,
                  Py_ssize_t values_offset, Py_ssize_t length)
{
    PyObject *dict = _PyDict_NewPresized(length);
    if (dict == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < length; i++) {
        PyObject *key = *keys, *value = *values;
        if (PyDict_SetItem(dict, key, value) < 0) {
            Py_DECREF(dict);
            return NULL;
        }
        keys += keys_offset;
        values += values_offset;
    }
    return dict;
}

/* ---- Retrieval --------------------------------------------------------------------- */

int
_PyDict_GetItemRef_KnownHash(PyDictObject *op, PyObject *key, Py_hash_t hash, PyObject **result)
{
    Py_ssize_t ix = dict_lookup(op, key, hash);
    if (ix == DKIX_ERROR) {
        *result = NULL;
        return -1;
    }
    if (ix == DKIX_EMPTY) {
        *result = NULL;
        return 0;
    }
    *result = Py_NewRef(DK_ENTRIES(op->ma_keys)[ix].me_value);
    return 1;
}

int
PyDict_GetItemRef(PyObject *op, PyObject *key, PyObject **result)
{
    if (!PyDict_Check(op)) {
        PyErr_BadInternalCall();
        *result = NULL;
        return -1;
    }
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        *result = NULL;
        return -1;
    }
    return _PyDict_GetItemRef_KnownHash((PyDictObject *)op, key, hash, result);
}

/* Borrowed-reference lookup; NULL with or without an exception. */
static PyObject *
getitem_borrowed(PyDictObject *mp, PyObject *key, Py_hash_t hash)
{
    Py_ssize_t ix = dict_lookup(mp, key, hash);
    if (ix < 0) {
        return NULL;
    }
    return DK_ENTRIES(mp->ma_keys)[ix].me_value;
}

PyObject *
_PyDict_GetItem_KnownHash(PyObject *op, PyObject *key, Py_hash_t hash)
{
    if (!PyDict_Check(op)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return getitem_borrowed((PyDictObject *)op, key, hash);
}

PyObject *
PyDict_GetItemWithError(PyObject *op, PyObject *key)
{
    if (!PyDict_Check(op)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        return NULL;
    }
    return getitem_borrowed((PyDictObject *)op, key, hash);
}

/* The legacy API hides every error, and must not disturb an exception
   that is already set. */
PyObject *
PyDict_GetItem(PyObject *op, PyObject *key)
{
    if (!PyDict_Check(op)) {
        return NULL;
    }
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *res = NULL;
    Py_hash_t hash = hash_of(key);
    if (hash != -1) {
        res = getitem_borrowed((PyDictObject *)op, key, hash);
    }
    PyErr_Clear();
    PyErr_SetRaisedException(exc);
    return res;
}

PyObject *
PyDict_GetItemString(PyObject *v, const char *key)
{
    PyObject *kv = PyUnicode_FromString(key);
    if (kv == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *rv = PyDict_GetItem(v, kv);
    Py_DECREF(kv);
    return rv;
}

int
PyDict_GetItemStringRef(PyObject *v, const char *key, PyObject **result)
{
    PyObject *kv = PyUnicode_FromString(key);
    if (kv == NULL) {
        *result = NULL;
        return -1;
    }
    int res = PyDict_GetItemRef(v, kv, result);
    Py_DECREF(kv);
    return res;
}

int
_PyDict_Contains_KnownHash(PyObject *op, PyObject *key, Py_hash_t hash)
{
    Py_ssize_t ix = dict_lookup((PyDictObject *)op, key, hash);
    if (ix == DKIX_ERROR) {
        return -1;
    }
    return ix != DKIX_EMPTY;
}

int
PyDict_Contains(PyObject *op, PyObject *key)
{
    if (!PyDict_Check(op)) {
        PyErr_BadInternalCall();
        return -1;
    }
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        return -1;
    }
    return _PyDict_Contains_KnownHash(op, key, hash);
}

int
PyDict_ContainsString(PyObject *op, const char *key)
{
    PyObject *kv = PyUnicode_FromString(key);
    if (kv == NULL) {
        return -1;
    }
    int res = PyDict_Contains(op, kv);
    Py_DECREF(kv);
    return res;
}

Py_ssize_t
_PyDict_LookupIndex(PyDictObject *mp, PyObject *key)
{
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        return DKIX_ERROR;
    }
    return dict_lookup(mp, key, hash);
}

PyObject *
_PyDict_LoadGlobal(PyDictObject *globals, PyDictObject *builtins, PyObject *key)
{
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        return NULL;
    }
    PyObject *value;
    int found = _PyDict_GetItemRef_KnownHash(globals, key, hash, &value);
    if (found != 0) {
        return value; /* found, or error */
    }
    _PyDict_GetItemRef_KnownHash(builtins, key, hash, &value);
    return value;
}

/* ---- Deletion ------------------------------------------------------------------------ */

/* Remove entry ix and return its value (a new reference the caller owns);
   the key's reference is dropped here, after the table is consistent. */
static PyObject *
delitem_at(PyDictObject *mp, Py_ssize_t ix, Py_hash_t hash)
{
    _PyDict_NotifyEvent(PyDict_EVENT_DELETED, mp, DK_ENTRIES(mp->ma_keys)[ix].me_key, NULL);
    PyDictKeysObject *dk = mp->ma_keys;
    PyDictKeyEntry *ep = &DK_ENTRIES(dk)[ix];
    dk_set_index(dk, lookup_slot_of(dk, hash, ix), DKIX_DUMMY);
    PyObject *old_key = ep->me_key;
    PyObject *old_value = ep->me_value;
    ep->me_key = NULL;
    ep->me_value = NULL;
    dk->dk_version = 0;
    mp->ma_used--;
    BUMP_VERSION(mp);
    Py_DECREF(old_key);
    return old_value;
}

int
_PyDict_Pop_KnownHash(PyDictObject *mp, PyObject *key, Py_hash_t hash, PyObject **result)
{
    if (mp->ma_used == 0) {
        if (result) {
            *result = NULL;
        }
        return 0;
    }
    Py_ssize_t ix = dict_lookup(mp, key, hash);
    if (ix < 0) {
        if (result) {
            *result = NULL;
        }
        return ix == DKIX_ERROR ? -1 : 0;
    }
    PyObject *old_value = delitem_at(mp, ix, hash);
    if (result) {
        *result = old_value;
    }
    else {
        Py_DECREF(old_value);
    }
    return 1;
}

int
PyDict_Pop(PyObject *op, PyObject *key, PyObject **result)
{
    if (!PyDict_Check(op)) {
        if (result) {
            *result = NULL;
        }
        PyErr_BadInternalCall();
        return -1;
    }
    PyDictObject *mp = (PyDictObject *)op;
    if (mp->ma_used == 0) {
        if (result) {
            *result = NULL;
        }
        return 0;
    }
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        if (result) {
            *result = NULL;
        }
        return -1;
    }
    return _PyDict_Pop_KnownHash(mp, key, hash, result);
}

int
_PyDict_DelItem_KnownHash(PyObject *op, PyObject *key, Py_hash_t hash)
{
    int res = _PyDict_Pop_KnownHash((PyDictObject *)op, key, hash, NULL);
    if (res == 0) {
        _PyErr_SetKeyError(key);
        return -1;
    }
    return res < 0 ? -1 : 0;
}

int
PyDict_DelItem(PyObject *op, PyObject *key)
{
    if (!PyDict_Check(op)) {
        PyErr_BadInternalCall();
        return -1;
    }
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        return -1;
    }
    return _PyDict_DelItem_KnownHash(op, key, hash);
}

int
PyDict_SetItemString(PyObject *v, const char *key, PyObject *item)
{
    PyObject *kv = PyUnicode_InternFromString(key);
    if (kv == NULL) {
        return -1;
    }
    int err = PyDict_SetItem(v, kv, item);
    Py_DECREF(kv);
    return err;
}

int
PyDict_DelItemString(PyObject *v, const char *key)
{
    PyObject *kv = PyUnicode_FromString(key);
    if (kv == NULL) {
        return -1;
    }
    int err = PyDict_DelItem(v, kv);
    Py_DECREF(kv);
    return err;
}

/* Empty the dict.  The old table's references are dropped only after the
   dict already looks empty, since destructors may touch it. */
void
PyDict_Clear(PyObject *op)
{
    if (!PyDict_Check(op)) {
        return;
    }
    PyDictObject *mp = (PyDictObject *)op;
    PyDictKeysObject *oldkeys = mp->ma_keys;
    if (oldkeys == Py_EMPTY_KEYS) {
        return;
    }
    _PyDict_NotifyEvent(PyDict_EVENT_CLEARED, mp, NULL, NULL);
    oldkeys = mp->ma_keys;  /* a watcher may have changed it */
    if (oldkeys == Py_EMPTY_KEYS) {
        return;
    }
    mp->ma_keys = Py_EMPTY_KEYS;
    mp->ma_used = 0;
    BUMP_VERSION(mp);
    PyDictKeyEntry *entries = DK_ENTRIES(oldkeys);
    for (Py_ssize_t i = 0; i < oldkeys->dk_nentries; i++) {
        Py_XDECREF(entries[i].me_key);
        Py_XDECREF(entries[i].me_value);
    }
    free_keys_object(oldkeys);
}

/* ---- setdefault ------------------------------------------------------------------------ */

int
PyDict_SetDefaultRef(PyObject *d, PyObject *key, PyObject *default_value, PyObject **result)
{
    if (!PyDict_Check(d)) {
        PyErr_BadInternalCall();
        if (result) {
            *result = NULL;
        }
        return -1;
    }
    PyDictObject *mp = (PyDictObject *)d;
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        if (result) {
            *result = NULL;
        }
        return -1;
    }
    Py_ssize_t ix = dict_lookup(mp, key, hash);
    if (ix == DKIX_ERROR) {
        if (result) {
            *result = NULL;
        }
        return -1;
    }
    if (ix >= 0) {
        if (result) {
            *result = Py_NewRef(DK_ENTRIES(mp->ma_keys)[ix].me_value);
        }
        return 1;
    }
    if (insert_new_entry(mp, Py_NewRef(key), hash, Py_NewRef(default_value)) < 0) {
        if (result) {
            *result = NULL;
        }
        return -1;
    }
    if (result) {
        *result = Py_NewRef(default_value);
    }
    return 0;
}

PyObject *
PyDict_SetDefault(PyObject *d, PyObject *key, PyObject *defaultobj)
{
    PyObject *result;
    if (PyDict_SetDefaultRef(d, key, defaultobj, &result) < 0) {
        return NULL;
    }
    /* borrowed: the dict keeps it alive */
    Py_DECREF(result);
    return result;
}

/* ---- Iteration helpers ------------------------------------------------------------------- */

int
_PyDict_Next(PyObject *op, Py_ssize_t *ppos, PyObject **pkey, PyObject **pvalue,
             Py_hash_t *phash)
{
    if (!PyDict_Check(op)) {
        return 0;
    }
    PyDictObject *mp = (PyDictObject *)op;
    Py_ssize_t i = *ppos;
    PyDictKeysObject *dk = mp->ma_keys;
    Py_ssize_t n = dk->dk_nentries;
    PyDictKeyEntry *entries = DK_ENTRIES(dk);
    if (i < 0) {
        return 0;
    }
    while (i < n && entries[i].me_key == NULL) {
        i++;
    }
    if (i >= n) {
        return 0;
    }
    *ppos = i + 1;
    if (pkey) {
        *pkey = entries[i].me_key;
    }
    if (pvalue) {
        *pvalue = entries[i].me_value;
    }
    if (phash) {
        *phash = entries[i].me_hash;
    }
    return 1;
}

int
PyDict_Next(PyObject *op, Py_ssize_t *ppos, PyObject **pkey, PyObject **pvalue)
{
    return _PyDict_Next(op, ppos, pkey, pvalue, NULL);
}

Py_ssize_t
PyDict_Size(PyObject *mp)
{
    if (mp == NULL || !PyDict_Check(mp)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return ((PyDictObject *)mp)->ma_used;
}

/* keys (what=0), values (1) or (key, value) pairs (2) as a new list. */
static PyObject *
dict_to_list(PyDictObject *mp, int what)
{
    for (;;) {
        Py_ssize_t n = mp->ma_used;
        PyObject *v = PyList_New(n);
        if (v == NULL) {
            return NULL;
        }
        /* PyList_New may have run a GC that changed the dict: retry */
        if (n != mp->ma_used) {
            Py_DECREF(v);
            continue;
        }
        Py_ssize_t pos = 0, j = 0;
        PyObject *key, *value;
        while (_PyDict_Next((PyObject *)mp, &pos, &key, &value, NULL)) {
            PyObject *item;
            if (what == 0) {
                item = Py_NewRef(key);
            }
            else if (what == 1) {
                item = Py_NewRef(value);
            }
            else {
                item = PyTuple_Pack(2, key, value);
                if (item == NULL) {
                    Py_DECREF(v);
                    return NULL;
                }
            }
            PyList_SET_ITEM(v, j++, item);
        }
        return v;
    }
}

PyObject *
PyDict_Keys(PyObject *mp)
{
    if (mp == NULL || !PyDict_Check(mp)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return dict_to_list((PyDictObject *)mp, 0);
}

PyObject *
PyDict_Values(PyObject *mp)
{
    if (mp == NULL || !PyDict_Check(mp)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return dict_to_list((PyDictObject *)mp, 1);
}

PyObject *
PyDict_Items(PyObject *mp)
{
    if (mp == NULL || !PyDict_Check(mp)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return dict_to_list((PyDictObject *)mp, 2);
}

int
_PyDict_HasOnlyStringKeys(PyObject *dict)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        if (!PyUnicode_Check(key)) {
            return 0;
        }
    }
    return 1;
}

Py_ssize_t
_PyDict_SizeOf(PyDictObject *mp)
{
    return (Py_ssize_t)(Py_TYPE(mp)->tp_basicsize + keys_nbytes(mp->ma_keys));
}

/* ---- Copy and merge ------------------------------------------------------------------------ */

static PyObject *dict_iter(PyObject *dict);

/* A dict whose iteration is the plain table walk (no __iter__ override),
   so it can be merged straight from its entries. */
static int
is_plain_dict(PyObject *b)
{
    return PyDict_Check(b) && Py_TYPE(b)->tp_iter == dict_iter;
}

static int
merge_from_dict(PyDictObject *mp, PyDictObject *other, int override)
{
    if (other == mp || other->ma_used == 0) {
        return 0;
    }
    if (mp->ma_used == 0 && mp->ma_keys->dk_usable < other->ma_used) {
        /* presize: one resize instead of several */
        if (dictresize(mp, estimate_log2_keysize(other->ma_used)) < 0) {
            return -1;
        }
    }
    Py_ssize_t orig_size = other->ma_used;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    Py_hash_t hash;
    while (_PyDict_Next((PyObject *)other, &pos, &key, &value, &hash)) {
        Py_INCREF(key);
        Py_INCREF(value);
        int err = 0;
        if (override == 1) {
            err = insertdict(mp, key, hash, value);
        }
        else {
            int contains = _PyDict_Contains_KnownHash((PyObject *)mp, key, hash);
            if (contains < 0) {
                err = -1;
            }
            else if (contains == 0) {
                err = insert_new_entry(mp, key, hash, value);
                key = value = NULL;
            }
            else if (override == 2) {
                _PyErr_SetKeyError(key);
                err = -1;
            }
            Py_XDECREF(key);
            Py_XDECREF(value);
        }
        if (err < 0) {
            return -1;
        }
        if (orig_size != other->ma_used) {
            PyErr_SetString(PyExc_RuntimeError, "dict mutated during update");
            return -1;
        }
    }
    return 0;
}

static int
merge_from_mapping(PyObject *a, PyObject *b, int override)
{
    PyObject *keys = PyMapping_Keys(b);
    if (keys == NULL) {
        return -1;
    }
    PyObject *iter = PyObject_GetIter(keys);
    Py_DECREF(keys);
    if (iter == NULL) {
        return -1;
    }
    PyObject *key;
    int status = 0;
    while ((key = PyIter_Next(iter)) != NULL) {
        if (override != 1) {
            int contains = PyDict_Contains(a, key);
            if (contains != 0) {
                if (contains > 0 && override == 2) {
                    _PyErr_SetKeyError(key);
                    contains = -1;
                }
                Py_DECREF(key);
                if (contains < 0) {
                    status = -1;
                    break;
                }
                continue;
            }
        }
        PyObject *value = PyObject_GetItem(b, key);
        if (value == NULL) {
            Py_DECREF(key);
            status = -1;
            break;
        }
        status = PyDict_SetItem(a, key, value);
        Py_DECREF(key);
        Py_DECREF(value);
        if (status < 0) {
            break;
        }
    }
    Py_DECREF(iter);
    if (status == 0 && PyErr_Occurred()) {
        status = -1;
    }
    return status;
}

int
_PyDict_MergeEx(PyObject *a, PyObject *b, int override)
{
    if (a == NULL || !PyDict_Check(a) || b == NULL) {
        PyErr_BadInternalCall();
        return -1;
    }
    if (is_plain_dict(b)) {
        return merge_from_dict((PyDictObject *)a, (PyDictObject *)b, override);
    }
    return merge_from_mapping(a, b, override);
}

int
PyDict_Merge(PyObject *a, PyObject *b, int override)
{
    return _PyDict_MergeEx(a, b, override ? 1 : 0);
}

int
PyDict_Update(PyObject *a, PyObject *b)
{
    return _PyDict_MergeEx(a, b, 1);
}

int
PyDict_MergeFromSeq2(PyObject *d, PyObject *seq2, int override)
{
    PyObject *it = PyObject_GetIter(seq2);
    if (it == NULL) {
        return -1;
    }
    Py_ssize_t i;
    PyObject *item, *fast = NULL;
    for (i = 0;; i++) {
        item = PyIter_Next(it);
        if (item == NULL) {
            if (PyErr_Occurred()) {
                goto fail;
            }
            break;
        }
        fast = PySequence_Fast(item, "");
        if (fast == NULL) {
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Format(PyExc_TypeError,
                             "cannot convert dictionary update "
                             "sequence element #%zd to a sequence",
                             i);
            }
            goto fail;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
        if (n != 2) {
            PyErr_Format(PyExc_ValueError,
                         "dictionary update sequence element #%zd "
                         "has length %zd; 2 is required",
                         i, n);
            goto fail;
        }
        PyObject *key = Py_NewRef(PySequence_Fast_GET_ITEM(fast, 0));
        PyObject *value = Py_NewRef(PySequence_Fast_GET_ITEM(fast, 1));
        int err = 0;
        if (override) {
            err = PyDict_SetItem(d, key, value);
        }
        else {
            err = PyDict_SetDefaultRef(d, key, value, NULL) < 0 ? -1 : 0;
        }
        Py_DECREF(key);
        Py_DECREF(value);
        if (err < 0) {
            goto fail;
        }
        Py_CLEAR(fast);
        Py_DECREF(item);
    }
    Py_DECREF(it);
    return 0;

fail:
    Py_XDECREF(item);
    Py_XDECREF(fast);
    Py_DECREF(it);
    return -1;
}

static PyObject *
copy_keys_object(PyDictKeysObject *keys)
{
    size_t size = keys_nbytes(keys);
    PyDictKeysObject *copy = PyMem_Malloc(size);
    if (copy == NULL) {
        return PyErr_NoMemory();
    }
    memcpy(copy, keys, size);
    copy->dk_version = 0;  /* a version names one table */
    PyDictKeyEntry *entries = DK_ENTRIES(copy);
    for (Py_ssize_t i = 0; i < copy->dk_nentries; i++) {
        Py_XINCREF(entries[i].me_key);
        Py_XINCREF(entries[i].me_value);
    }
    return new_dict(copy, 0);
}

PyObject *
PyDict_Copy(PyObject *o)
{
    if (o == NULL || !PyDict_Check(o)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    PyDictObject *mp = (PyDictObject *)o;
    if (mp->ma_used == 0) {
        return PyDict_New();
    }
    /* A table without holes (or only a few) is cloned wholesale. */
    if (mp->ma_keys->dk_nentries - mp->ma_used < 4 + mp->ma_used / 8 &&
        is_plain_dict(o)) {
        PyObject *copy = copy_keys_object(mp->ma_keys);
        if (copy != NULL) {
            ((PyDictObject *)copy)->ma_used = mp->ma_used;
        }
        return copy;
    }
    PyObject *copy = _PyDict_NewPresized(mp->ma_used);
    if (copy == NULL) {
        return NULL;
    }
    if (PyDict_Merge(copy, o, 1) < 0) {
        Py_DECREF(copy);
        return NULL;
    }
    return copy;
}

/* dict.update / dict(...) argument: a mapping (anything with .keys) or
   an iterable of pairs. */
static int
dict_update_arg(PyObject *self, PyObject *arg)
{
    if (PyDict_CheckExact(arg)) {
        return PyDict_Merge(self, arg, 1);
    }
    static PyObject *keys_name = NULL;
    if (keys_name == NULL) {
        keys_name = PyUnicode_InternFromString("keys");
        if (keys_name == NULL) {
            return -1;
        }
    }
    PyObject *func;
    if (PyObject_GetOptionalAttr(arg, keys_name, &func) < 0) {
        return -1;
    }
    if (func != NULL) {
        Py_DECREF(func);
        return PyDict_Merge(self, arg, 1);
    }
    return PyDict_MergeFromSeq2(self, arg, 1);
}

static int
dict_update_common(PyObject *self, PyObject *args, PyObject *kwds, const char *methname)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "%s expected at most 1 argument, got %zd", methname,
                     nargs);
        return -1;
    }
    if (nargs == 1 && dict_update_arg(self, PyTuple_GET_ITEM(args, 0)) < 0) {
        return -1;
    }
    if (kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        return PyDict_Merge(self, kwds, 1);
    }
    return 0;
}

/* ---- The dict type's slots ---------------------------------------------------------------- */

static void
dict_dealloc(PyObject *op)
{
    PyDictObject *mp = (PyDictObject *)op;
    if (mp->_ma_watcher_tag & DICT_WATCHED_BITS) {
        /* Watchers may look at the dict: it lives while they do. */
        Py_SET_REFCNT(op, 1);
        _PyDict_NotifyEvent(PyDict_EVENT_DEALLOCATED, mp, NULL, NULL);
        Py_SET_REFCNT(op, Py_REFCNT(op) - 1);
        if (Py_REFCNT(op) > 0) {
            return;  /* a watcher kept it */
        }
    }
    PyObject_GC_UnTrack(op);
    if (mp->ma_keys != NULL) {
        release_keys_object(mp->ma_keys);
    }
    Py_TYPE(op)->tp_free(op);
}

static int
dict_traverse(PyObject *op, visitproc visit, void *arg)
{
    PyDictObject *mp = (PyDictObject *)op;
    PyDictKeysObject *keys = mp->ma_keys;
    if (keys == NULL) {
        return 0;
    }
    PyDictKeyEntry *entries = DK_ENTRIES(keys);
    for (Py_ssize_t i = 0; i < keys->dk_nentries; i++) {
        Py_VISIT(entries[i].me_key);
        Py_VISIT(entries[i].me_value);
    }
    return 0;
}

static int
dict_tp_clear(PyObject *op)
{
    PyDict_Clear(op);
    return 0;
}

static PyObject *
dict_repr(PyObject *op)
{
    PyDictObject *mp = (PyDictObject *)op;
    if (mp->ma_used == 0) {
        return PyUnicode_FromString("{}");
    }
    int rc = Py_ReprEnter(op);
    if (rc != 0) {
        return rc > 0 ? PyUnicode_FromString("{...}") : NULL;
    }
    _PyUnicodeWriter writer;
    _PyUnicodeWriter_Init(&writer);
    writer.overallocate = 1;
    writer.min_length = 1 + 4 + (2 + 4) * (mp->ma_used - 1) + 1;
    if (_PyUnicodeWriter_WriteChar(&writer, '{') < 0) {
        goto error;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    int first = 1;
    /* reprs may mutate the dict: hold references while they run */
    while (PyDict_Next(op, &pos, &key, &value)) {
        Py_INCREF(key);
        Py_INCREF(value);
        if (!first && _PyUnicodeWriter_WriteASCIIString(&writer, ", ", 2) < 0) {
            goto error_item;
        }
        first = 0;
        PyObject *s = PyObject_Repr(key);
        if (s == NULL) {
            goto error_item;
        }
        int err = _PyUnicodeWriter_WriteStr(&writer, s);
        Py_DECREF(s);
        if (err < 0 || _PyUnicodeWriter_WriteASCIIString(&writer, ": ", 2) < 0) {
            goto error_item;
        }
        s = PyObject_Repr(value);
        if (s == NULL) {
            goto error_item;
        }
        err = _PyUnicodeWriter_WriteStr(&writer, s);
        Py_DECREF(s);
        if (err < 0) {
            goto error_item;
        }
        Py_DECREF(key);
        Py_DECREF(value);
    }
    writer.overallocate = 0;
    if (_PyUnicodeWriter_WriteChar(&writer, '}') < 0) {
        goto error;
    }
    Py_ReprLeave(op);
    return _PyUnicodeWriter_Finish(&writer);

error_item:
    Py_DECREF(key);
    Py_DECREF(value);
error:
    Py_ReprLeave(op);
    _PyUnicodeWriter_Dealloc(&writer);
    return NULL;
}

static Py_ssize_t
dict_length(PyObject *op)
{
    return ((PyDictObject *)op)->ma_used;
}

static PyObject *
dict_subscript(PyObject *op, PyObject *key)
{
    PyDictObject *mp = (PyDictObject *)op;
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        return NULL;
    }
    PyObject *value;
    int found = _PyDict_GetItemRef_KnownHash(mp, key, hash, &value);
    if (found != 0) {
        return value;
    }
    if (!PyDict_CheckExact(op)) {
        /* subclasses may supply a default through __missing__ */
        static PyObject *missing_name = NULL;
        if (missing_name == NULL) {
            missing_name = PyUnicode_InternFromString("__missing__");
            if (missing_name == NULL) {
                return NULL;
            }
        }
        PyObject *missing = _PyObject_LookupSpecial(op, missing_name);
        if (missing != NULL) {
            PyObject *res = PyObject_CallOneArg(missing, key);
            Py_DECREF(missing);
            return res;
        }
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    _PyErr_SetKeyError(key);
    return NULL;
}

static int
dict_ass_sub(PyObject *mp, PyObject *v, PyObject *w)
{
    if (w == NULL) {
        return PyDict_DelItem(mp, v);
    }
    return PyDict_SetItem(mp, v, w);
}

static int
dict_contains(PyObject *op, PyObject *key)
{
    Py_hash_t hash = hash_of(key);
    if (hash == -1) {
        return -1;
    }
    return _PyDict_Contains_KnownHash(op, key, hash);
}

/* 1 if equal, 0 if not, -1 on error.  Comparisons may mutate either dict,
   so entries are re-read and referenced around each comparison. */
static int
dict_equal(PyDictObject *a, PyDictObject *b)
{
    if (a->ma_used != b->ma_used) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < a->ma_keys->dk_nentries; i++) {
        PyDictKeyEntry *ep = &DK_ENTRIES(a->ma_keys)[i];
        PyObject *key = ep->me_key;
        if (key == NULL) {
            continue;
        }
        PyObject *aval = Py_NewRef(ep->me_value);
        Py_INCREF(key);
        PyObject *bval;
        int found = _PyDict_GetItemRef_KnownHash(b, key, ep->me_hash, &bval);
        Py_DECREF(key);
        if (found <= 0) {
            Py_DECREF(aval);
            return found;
        }
        int cmp = PyObject_RichCompareBool(aval, bval, Py_EQ);
        Py_DECREF(aval);
        Py_DECREF(bval);
        if (cmp <= 0) {
            return cmp;
        }
    }
    return 1;
}

static PyObject *
dict_richcompare(PyObject *v, PyObject *w, int op)
{
    if (!PyDict_Check(v) || !PyDict_Check(w) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int cmp = dict_equal((PyDictObject *)v, (PyDictObject *)w);
    if (cmp < 0) {
        return NULL;
    }
    return PyBool_FromLong(op == Py_EQ ? cmp : !cmp);
}

static PyObject *
dict_or(PyObject *self, PyObject *other)
{
    if (!PyDict_Check(self) || !PyDict_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *new = PyDict_Copy(self);
    if (new == NULL) {
        return NULL;
    }
    if (dict_update_arg(new, other) < 0) {
        Py_DECREF(new);
        return NULL;
    }
    return new;
}

static PyObject *
dict_ior(PyObject *self, PyObject *other)
{
    if (dict_update_arg(self, other) < 0) {
        return NULL;
    }
    return Py_NewRef(self);
}

/* ---- Methods ------------------------------------------------------------------------------- */

static PyObject *
dict_get(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("get", nargs, 1, 2)) {
        return NULL;
    }
    PyObject *value;
    int found = PyDict_GetItemRef(self, args[0], &value);
    if (found != 0) {
        return value;
    }
    return Py_NewRef(nargs > 1 ? args[1] : Py_None);
}

static PyObject *
dict_setdefault(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("setdefault", nargs, 1, 2)) {
        return NULL;
    }
    PyObject *result;
    if (PyDict_SetDefaultRef(self, args[0], nargs > 1 ? args[1] : Py_None, &result) < 0) {
        return NULL;
    }
    return result;
}

static PyObject *
dict_pop(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("pop", nargs, 1, 2)) {
        return NULL;
    }
    PyObject *result;
    int found = PyDict_Pop(self, args[0], &result);
    if (found != 0) {
        return found < 0 ? NULL : result;
    }
    if (nargs > 1) {
        return Py_NewRef(args[1]);
    }
    _PyErr_SetKeyError(args[0]);
    return NULL;
}

static PyObject *
dict_popitem(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    PyDictObject *mp = (PyDictObject *)op;
    if (mp->ma_used == 0) {
        PyErr_SetString(PyExc_KeyError, "popitem(): dictionary is empty");
        return NULL;
    }
    PyDictKeysObject *dk = mp->ma_keys;
    PyDictKeyEntry *entries = DK_ENTRIES(dk);
    Py_ssize_t i = dk->dk_nentries - 1;
    while (i >= 0 && entries[i].me_key == NULL) {
        i--;
    }
    assert(i >= 0);
    PyObject *key = Py_NewRef(entries[i].me_key);
    Py_hash_t hash = entries[i].me_hash;
    PyObject *value = delitem_at(mp, i, hash);
    /* the tail entry is gone for good: reuse its slot */
    dk->dk_nentries = i;
    return _PyTuple_FromPairSteal(key, value);
}

static PyObject *
dict_clear_meth(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyDict_Clear(self);
    Py_RETURN_NONE;
}

static PyObject *
dict_copy_meth(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyDict_Copy(self);
}

static PyObject *
dict_update(PyObject *self, PyObject *args, PyObject *kwds)
{
    if (dict_update_common(self, args, kwds, "update") < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
dict_fromkeys(PyObject *cls, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("fromkeys", nargs, 1, 2)) {
        return NULL;
    }
    PyObject *iterable = args[0];
    PyObject *value = nargs > 1 ? args[1] : Py_None;
    PyObject *d = PyObject_CallNoArgs(cls);
    if (d == NULL) {
        return NULL;
    }
    int exact = PyDict_CheckExact(d);
    PyObject *it = PyObject_GetIter(iterable);
    if (it == NULL) {
        Py_DECREF(d);
        return NULL;
    }
    PyObject *key;
    while ((key = PyIter_Next(it)) != NULL) {
        int status = exact ? PyDict_SetItem(d, key, value) : PyObject_SetItem(d, key, value);
        Py_DECREF(key);
        if (status < 0) {
            goto fail;
        }
    }
    if (PyErr_Occurred()) {
        goto fail;
    }
    Py_DECREF(it);
    return d;

fail:
    Py_DECREF(it);
    Py_DECREF(d);
    return NULL;
}

static PyObject *
dict_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSsize_t(_PyDict_SizeOf((PyDictObject *)self));
}

static PyObject *
dict_contains_meth(PyObject *self, PyObject *key)
{
    int res = dict_contains(self, key);
    if (res < 0) {
        return NULL;
    }
    return PyBool_FromLong(res);
}

static PyObject *dictkeys_new(PyObject *dict, PyObject *Py_UNUSED(ignored));
static PyObject *dictvalues_new(PyObject *dict, PyObject *Py_UNUSED(ignored));
static PyObject *dictitems_new(PyObject *dict, PyObject *Py_UNUSED(ignored));
static PyObject *dict_reversed(PyObject *dict, PyObject *Py_UNUSED(ignored));

static PyMethodDef dict_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {"__contains__", dict_contains_meth, METH_O | METH_COEXIST,
     "key in d: whether d has that key."},
    {"__getitem__", dict_subscript, METH_O | METH_COEXIST, "Return self[key]."},
    {"__sizeof__", dict_sizeof, METH_NOARGS, "Bytes of memory the dict occupies, its table included."},
    {"get", _PyCFunction_CAST(dict_get), METH_FASTCALL,
     "d.get(key, default=None): d[key] when d has the key, otherwise default."},
    {"setdefault", _PyCFunction_CAST(dict_setdefault), METH_FASTCALL,
     "d.setdefault(key, default=None): d[key]; when d lacks the key, it is\n"
     "first added with default as its value."},
    {"pop", _PyCFunction_CAST(dict_pop), METH_FASTCALL,
     "d.pop(key[, default]): take key out of d and give back its value.\n\n"
     "A missing key gives default, or KeyError when no default was passed."},
    {"popitem", dict_popitem, METH_NOARGS,
     "d.popitem(): take out the most recently inserted (key, value) pair and\n"
     "give it back; KeyError when d is empty."},
    {"keys", dictkeys_new, METH_NOARGS,
     "Return a set-like object providing a view on the dict's keys."},
    {"items", dictitems_new, METH_NOARGS,
     "Return a set-like object providing a view on the dict's items."},
    {"values", dictvalues_new, METH_NOARGS,
     "Return an object providing a view on the dict's values."},
    {"update", _PyCFunction_CAST(dict_update), METH_VARARGS | METH_KEYWORDS,
     "d.update([other], **kwargs): store every pair of other, then of kwargs.\n\n"
     "other is a mapping (anything with keys(): d[k] = other[k] for each key)\n"
     "or an iterable of (key, value) pairs."},
    {"fromkeys", _PyCFunction_CAST(dict_fromkeys), METH_FASTCALL | METH_CLASS,
     "dict.fromkeys(iterable, value=None): a new dict mapping each item of\n"
     "iterable to value."},
    {"clear", dict_clear_meth, METH_NOARGS, "Remove all items from the dict."},
    {"copy", dict_copy_meth, METH_NOARGS, "Return a shallow copy of the dict."},
    {"__reversed__", dict_reversed, METH_NOARGS,
     "reversed(d): the keys, last inserted first."},
    {NULL, NULL, 0, NULL},
};

/* ---- Construction from Python ------------------------------------------------------------- */

static PyObject *
dict_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (type == &PyDict_Type) {
        return PyDict_New();
    }
    PyObject *self = type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    PyDictObject *d = (PyDictObject *)self;
    d->ma_used = 0;
    d->ma_keys = Py_EMPTY_KEYS;
    d->ma_values = NULL;
    d->_ma_watcher_tag = 0;
    BUMP_VERSION(d);
    return self;
}

static int
dict_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    return dict_update_common(self, args, kwds, "dict");
}

static PyObject *
dict_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "dict expected at most 1 argument, got %zd", nargs);
        return NULL;
    }
    PyObject *self = dict_new((PyTypeObject *)type, NULL, NULL);
    if (self == NULL) {
        return NULL;
    }
    if (nargs == 1 && dict_update_arg(self, args[0]) < 0) {
        goto error;
    }
    if (kwnames != NULL) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
            if (PyDict_SetItem(self, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
                goto error;
            }
        }
    }
    return self;

error:
    Py_DECREF(self);
    return NULL;
}

/* ---- Iterators ------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyDictObject *di_dict; /* NULL once exhausted */
    Py_ssize_t di_used;    /* ma_used when created: size changes are errors */
    Py_ssize_t di_pos;     /* next entry to look at */
    Py_ssize_t len;        /* items still expected */
} dictiterobject;

static PyObject *
dictiter_new(PyDictObject *dict, PyTypeObject *itertype)
{
    dictiterobject *di = PyObject_GC_New(dictiterobject, itertype);
    if (di == NULL) {
        return NULL;
    }
    di->di_dict = (PyDictObject *)Py_NewRef(dict);
    di->di_used = dict->ma_used;
    di->len = dict->ma_used;
    if (itertype == &PyDictRevIterKey_Type || itertype == &PyDictRevIterItem_Type ||
        itertype == &PyDictRevIterValue_Type) {
        di->di_pos = dict->ma_keys->dk_nentries - 1;
    }
    else {
        di->di_pos = 0;
    }
    PyObject_GC_Track(di);
    return (PyObject *)di;
}

static PyObject *
dict_iter(PyObject *dict)
{
    return dictiter_new((PyDictObject *)dict, &PyDictIterKey_Type);
}

static void
dictiter_dealloc(PyObject *op)
{
    dictiterobject *di = (dictiterobject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(di->di_dict);
    PyObject_GC_Del(op);
}

static int
dictiter_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((dictiterobject *)op)->di_dict);
    return 0;
}

static PyObject *
dictiter_len(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    dictiterobject *di = (dictiterobject *)op;
    Py_ssize_t len = 0;
    if (di->di_dict != NULL && di->di_used == di->di_dict->ma_used) {
        len = di->len;
    }
    return PyLong_FromSsize_t(len);
}

static PyMethodDef dictiter_methods[] = {
    {"__length_hint__", dictiter_len, METH_NOARGS,
     "How many items are left (an estimate, for preallocation)."},
    {NULL, NULL, 0, NULL},
};

/* Advance to the next live entry (forward or backward); returns it or
   NULL when done or on error. */
static PyDictKeyEntry *
dictiter_step(dictiterobject *di, int reverse)
{
    PyDictObject *d = di->di_dict;
    if (d == NULL) {
        return NULL;
    }
    if (di->di_used != d->ma_used) {
        PyErr_SetString(PyExc_RuntimeError, "dictionary changed size during iteration");
        di->di_used = -1; /* keep failing */
        return NULL;
    }
    PyDictKeysObject *dk = d->ma_keys;
    PyDictKeyEntry *entries = DK_ENTRIES(dk);
    Py_ssize_t i = di->di_pos;
    if (reverse) {
        if (i >= dk->dk_nentries) {
            i = dk->dk_nentries - 1;
        }
        while (i >= 0 && entries[i].me_key == NULL) {
            i--;
        }
        if (i < 0) {
            goto done;
        }
        di->di_pos = i - 1;
    }
    else {
        while (i < dk->dk_nentries && entries[i].me_key == NULL) {
            i++;
        }
        if (i >= dk->dk_nentries) {
            goto done;
        }
        di->di_pos = i + 1;
    }
    /* Same size but more items than expected: keys were swapped. */
    if (di->len == 0) {
        PyErr_SetString(PyExc_RuntimeError, "dictionary keys changed during iteration");
        goto done;
    }
    di->len--;
    return &entries[i];

done:
    di->di_dict = NULL;
    Py_DECREF(d);
    return NULL;
}

static PyObject *
dictiter_iternextkey(PyObject *op)
{
    PyDictKeyEntry *ep = dictiter_step((dictiterobject *)op, 0);
    return ep ? Py_NewRef(ep->me_key) : NULL;
}

static PyObject *
dictiter_iternextvalue(PyObject *op)
{
    PyDictKeyEntry *ep = dictiter_step((dictiterobject *)op, 0);
    return ep ? Py_NewRef(ep->me_value) : NULL;
}

static PyObject *
dictiter_iternextitem(PyObject *op)
{
    PyDictKeyEntry *ep = dictiter_step((dictiterobject *)op, 0);
    return ep ? PyTuple_Pack(2, ep->me_key, ep->me_value) : NULL;
}

static PyObject *
dictreviter_iternextkey(PyObject *op)
{
    PyDictKeyEntry *ep = dictiter_step((dictiterobject *)op, 1);
    return ep ? Py_NewRef(ep->me_key) : NULL;
}

static PyObject *
dictreviter_iternextvalue(PyObject *op)
{
    PyDictKeyEntry *ep = dictiter_step((dictiterobject *)op, 1);
    return ep ? Py_NewRef(ep->me_value) : NULL;
}

static PyObject *
dictreviter_iternextitem(PyObject *op)
{
    PyDictKeyEntry *ep = dictiter_step((dictiterobject *)op, 1);
    return ep ? PyTuple_Pack(2, ep->me_key, ep->me_value) : NULL;
}

#define DICTITER_TYPE(cname, pyname, nextfunc)                  \
    PyTypeObject cname = {                                      \
        PyVarObject_HEAD_INIT(&PyType_Type, 0)                  \
        .tp_name = pyname,                                      \
        .tp_basicsize = sizeof(dictiterobject),                 \
        .tp_dealloc = dictiter_dealloc,                         \
        .tp_getattro = PyObject_GenericGetAttr,                 \
        .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,    \
        .tp_traverse = dictiter_traverse,                       \
        .tp_iter = PyObject_SelfIter,                           \
        .tp_iternext = nextfunc,                                \
        .tp_methods = dictiter_methods,                         \
    }

DICTITER_TYPE(PyDictIterKey_Type, "dict_keyiterator", dictiter_iternextkey);
DICTITER_TYPE(PyDictIterValue_Type, "dict_valueiterator", dictiter_iternextvalue);
DICTITER_TYPE(PyDictIterItem_Type, "dict_itemiterator", dictiter_iternextitem);
DICTITER_TYPE(PyDictRevIterKey_Type, "dict_reversekeyiterator", dictreviter_iternextkey);
DICTITER_TYPE(PyDictRevIterValue_Type, "dict_reversevalueiterator", dictreviter_iternextvalue);
DICTITER_TYPE(PyDictRevIterItem_Type, "dict_reverseitemiterator", dictreviter_iternextitem);

static PyObject *
dict_reversed(PyObject *dict, PyObject *Py_UNUSED(ignored))
{
    return dictiter_new((PyDictObject *)dict, &PyDictRevIterKey_Type);
}

/* ---- The dict type ------------------------------------------------------------------------------ */

static PyNumberMethods dict_as_number = {
    .nb_or = dict_or,
    .nb_inplace_or = dict_ior,
};

static PySequenceMethods dict_as_sequence = {
    .sq_contains = dict_contains,
};

static PyMappingMethods dict_as_mapping = {
    .mp_length = dict_length,
    .mp_subscript = dict_subscript,
    .mp_ass_subscript = dict_ass_sub,
};

PyTypeObject PyDict_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "dict",
    .tp_basicsize = sizeof(PyDictObject),
    .tp_dealloc = dict_dealloc,
    .tp_repr = dict_repr,
    .tp_as_number = &dict_as_number,
    .tp_as_sequence = &dict_as_sequence,
    .tp_as_mapping = &dict_as_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE |
                Py_TPFLAGS_DICT_SUBCLASS | Py_TPFLAGS_MAPPING,
    .tp_doc = "dict(): an empty mapping of keys to values.\n"
              "dict(mapping): a copy of mapping's pairs.\n"
              "dict(iterable): the (key, value) pairs the iterable yields, later\n"
              "    ones replacing earlier ones with an equal key.\n"
              "dict(**kwargs): the keyword arguments as name: value pairs,\n"
              "    e.g. dict(one=1, two=2); they may follow the other forms.",
    .tp_traverse = dict_traverse,
    .tp_clear = dict_tp_clear,
    .tp_richcompare = dict_richcompare,
    .tp_iter = dict_iter,
    .tp_methods = dict_methods,
    .tp_init = dict_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = dict_new,
    .tp_free = PyObject_GC_Del,
    .tp_vectorcall = dict_vectorcall,
};

/* ---- Views ----------------------------------------------------------------------------------------- */

PyObject *
_PyDictView_New(PyObject *dict, PyTypeObject *type)
{
    if (dict == NULL || !PyDict_Check(dict)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    _PyDictViewObject *dv = PyObject_GC_New(_PyDictViewObject, type);
    if (dv == NULL) {
        return NULL;
    }
    dv->dv_dict = (PyDictObject *)Py_NewRef(dict);
    PyObject_GC_Track(dv);
    return (PyObject *)dv;
}

static PyObject *
dictkeys_new(PyObject *dict, PyObject *Py_UNUSED(ignored))
{
    return _PyDictView_New(dict, &PyDictKeys_Type);
}

static PyObject *
dictvalues_new(PyObject *dict, PyObject *Py_UNUSED(ignored))
{
    return _PyDictView_New(dict, &PyDictValues_Type);
}

static PyObject *
dictitems_new(PyObject *dict, PyObject *Py_UNUSED(ignored))
{
    return _PyDictView_New(dict, &PyDictItems_Type);
}

static void
dictview_dealloc(PyObject *op)
{
    _PyDictViewObject *dv = (_PyDictViewObject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(dv->dv_dict);
    PyObject_GC_Del(op);
}

static int
dictview_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((_PyDictViewObject *)op)->dv_dict);
    return 0;
}

static Py_ssize_t
dictview_len(PyObject *op)
{
    _PyDictViewObject *dv = (_PyDictViewObject *)op;
    return dv->dv_dict ? dv->dv_dict->ma_used : 0;
}

static PyObject *
dictview_repr(PyObject *op)
{
    int rc = Py_ReprEnter(op);
    if (rc != 0) {
        return rc > 0 ? PyUnicode_FromString("...") : NULL;
    }
    PyObject *result = NULL;
    PyObject *seq = PySequence_List(op);
    if (seq != NULL) {
        result = PyUnicode_FromFormat("%s(%R)", Py_TYPE(op)->tp_name, seq);
        Py_DECREF(seq);
    }
    Py_ReprLeave(op);
    return result;
}

static PyObject *
dictview_mapping(PyObject *op, void *Py_UNUSED(closure))
{
    return PyDictProxy_New((PyObject *)((_PyDictViewObject *)op)->dv_dict);
}

static PyGetSetDef dictview_getset[] = {
    {"mapping", dictview_mapping, NULL,
     "dictionary that this view refers to", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* every item of `self` is in `other` */
static int
all_contained_in(PyObject *self, PyObject *other)
{
    PyObject *iter = PyObject_GetIter(self);
    if (iter == NULL) {
        return -1;
    }
    int ok = 1;
    for (;;) {
        PyObject *next = PyIter_Next(iter);
        if (next == NULL) {
            if (PyErr_Occurred()) {
                ok = -1;
            }
            break;
        }
        ok = PySequence_Contains(other, next);
        Py_DECREF(next);
        if (ok <= 0) {
            break;
        }
    }
    Py_DECREF(iter);
    return ok;
}

/* Set-like comparison of keys/items views with sets and other views. */
static PyObject *
dictview_richcompare(PyObject *self, PyObject *other, int op)
{
    if (!PyAnySet_Check(other) && !PyDictViewSet_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    Py_ssize_t len_self = PyObject_Size(self);
    if (len_self < 0) {
        return NULL;
    }
    Py_ssize_t len_other = PyObject_Size(other);
    if (len_other < 0) {
        return NULL;
    }
    int ok = 0;
    switch (op) {
    case Py_NE:
    case Py_EQ:
        if (len_self == len_other) {
            ok = all_contained_in(self, other);
        }
        if (op == Py_NE && ok >= 0) {
            ok = !ok;
        }
        break;
    case Py_LT:
        if (len_self < len_other) {
            ok = all_contained_in(self, other);
        }
        break;
    case Py_LE:
        if (len_self <= len_other) {
            ok = all_contained_in(self, other);
        }
        break;
    case Py_GT:
        if (len_self > len_other) {
            ok = all_contained_in(other, self);
        }
        break;
    case Py_GE:
        if (len_self >= len_other) {
            ok = all_contained_in(other, self);
        }
        break;
    }
    if (ok < 0) {
        return NULL;
    }
    return PyBool_FromLong(ok);
}

/* A set built from a view (or, for reflected operations, from the other
   operand), to apply a set operation to. */
static PyObject *
view_to_set(PyObject *obj)
{
    if (PyDictKeys_Check(obj)) {
        /* iterating the dict itself gives the keys */
        return PySet_New((PyObject *)((_PyDictViewObject *)obj)->dv_dict);
    }
    return PySet_New(obj);
}

static PyObject *
dictview_setop(PyObject *self, PyObject *other, int (*update)(PyObject *, PyObject *))
{
    PyObject *result = view_to_set(self);
    if (result == NULL) {
        return NULL;
    }
    if (update(result, other) < 0) {
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

static PyObject *
dictview_sub(PyObject *self, PyObject *other)
{
    return dictview_setop(self, other, _PySet_DifferenceUpdate);
}

static PyObject *
dictview_and(PyObject *self, PyObject *other)
{
    /* commutative: build from the view side */
    if (!PyDictViewSet_Check(self)) {
        PyObject *tmp = self;
        self = other;
        other = tmp;
    }
    return dictview_setop(self, other, _PySet_IntersectionUpdate);
}

static PyObject *
dictview_or(PyObject *self, PyObject *other)
{
    return dictview_setop(self, other, _PySet_Update);
}

static PyObject *
dictview_xor(PyObject *self, PyObject *other)
{
    return dictview_setop(self, other, _PySet_SymmetricDifferenceUpdate);
}

static PyObject *
dictview_isdisjoint(PyObject *self, PyObject *other)
{
    if (self == other) {
        return PyBool_FromLong(dictview_len(self) == 0);
    }
    /* iterate the smaller side when sizes are cheaply known */
    if (PyAnySet_Check(other) || PyDictViewSet_Check(other)) {
        Py_ssize_t len_self = dictview_len(self);
        Py_ssize_t len_other = PyObject_Size(other);
        if (len_other == -1) {
            return NULL;
        }
        if (len_other > len_self) {
            PyObject *tmp = other;
            other = self;
            self = tmp;
        }
    }
    PyObject *it = PyObject_GetIter(other);
    if (it == NULL) {
        return NULL;
    }
    PyObject *item;
    while ((item = PyIter_Next(it)) != NULL) {
        int contains = PySequence_Contains(self, item);
        Py_DECREF(item);
        if (contains != 0) {
            Py_DECREF(it);
            if (contains < 0) {
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

static PyNumberMethods dictviews_as_number = {
    .nb_subtract = dictview_sub,
    .nb_and = dictview_and,
    .nb_xor = dictview_xor,
    .nb_or = dictview_or,
};

/* keys */

/* Iterator of the given kind over a view's dict: shared by the views'
   __iter__ and __reversed__, which differ only in the iterator type.  A
   view whose dict has been cleared out gives None. */
static PyObject *
dictview_iter_of(PyObject *op, PyTypeObject *itertype)
{
    _PyDictViewObject *dv = (_PyDictViewObject *)op;
    if (dv->dv_dict == NULL) {
        Py_RETURN_NONE;
    }
    return dictiter_new(dv->dv_dict, itertype);
}

static PyObject *
dictkeys_iter(PyObject *op)
{
    return dictview_iter_of(op, &PyDictIterKey_Type);
}

static int
dictkeys_contains(PyObject *op, PyObject *obj)
{
    _PyDictViewObject *dv = (_PyDictViewObject *)op;
    if (dv->dv_dict == NULL) {
        return 0;
    }
    return PyDict_Contains((PyObject *)dv->dv_dict, obj);
}

static PyObject *
dictkeys_reversed(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return dictview_iter_of(op, &PyDictRevIterKey_Type);
}

static PySequenceMethods dictkeys_as_sequence = {
    .sq_length = dictview_len,
    .sq_contains = dictkeys_contains,
};

static PyMethodDef dictkeys_methods[] = {
    {"isdisjoint", dictview_isdisjoint, METH_O,
     "Whether the view and the iterable have no element in common."},
    {"__reversed__", dictkeys_reversed, METH_NOARGS,
     "reversed(view): the keys, last inserted first."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyDictKeys_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "dict_keys",
    .tp_basicsize = sizeof(_PyDictViewObject),
    .tp_dealloc = dictview_dealloc,
    .tp_repr = dictview_repr,
    .tp_as_number = &dictviews_as_number,
    .tp_as_sequence = &dictkeys_as_sequence,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = dictview_traverse,
    .tp_richcompare = dictview_richcompare,
    .tp_iter = dictkeys_iter,
    .tp_methods = dictkeys_methods,
    .tp_getset = dictview_getset,
};

/* items */

static PyObject *
dictitems_iter(PyObject *op)
{
    return dictview_iter_of(op, &PyDictIterItem_Type);
}

static int
dictitems_contains(PyObject *op, PyObject *obj)
{
    _PyDictViewObject *dv = (_PyDictViewObject *)op;
    if (dv->dv_dict == NULL) {
        return 0;
    }
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2) {
        return 0;
    }
    PyObject *key = PyTuple_GET_ITEM(obj, 0);
    PyObject *value = PyTuple_GET_ITEM(obj, 1);
    PyObject *found;
    int res = PyDict_GetItemRef((PyObject *)dv->dv_dict, key, &found);
    if (res <= 0) {
        return res;
    }
    int result = PyObject_RichCompareBool(found, value, Py_EQ);
    Py_DECREF(found);
    return result;
}

static PyObject *
dictitems_reversed(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return dictview_iter_of(op, &PyDictRevIterItem_Type);
}

static PySequenceMethods dictitems_as_sequence = {
    .sq_length = dictview_len,
    .sq_contains = dictitems_contains,
};

static PyMethodDef dictitems_methods[] = {
    {"isdisjoint", dictview_isdisjoint, METH_O,
     "Whether the view and the iterable have no element in common."},
    {"__reversed__", dictitems_reversed, METH_NOARGS,
     "reversed(view): the items, last inserted first."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyDictItems_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "dict_items",
    .tp_basicsize = sizeof(_PyDictViewObject),
    .tp_dealloc = dictview_dealloc,
    .tp_repr = dictview_repr,
    .tp_as_number = &dictviews_as_number,
    .tp_as_sequence = &dictitems_as_sequence,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = dictview_traverse,
    .tp_richcompare = dictview_richcompare,
    .tp_iter = dictitems_iter,
    .tp_methods = dictitems_methods,
    .tp_getset = dictview_getset,
};

/* values */

static PyObject *
dictvalues_iter(PyObject *op)
{
    return dictview_iter_of(op, &PyDictIterValue_Type);
}

static PyObject *
dictvalues_reversed(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return dictview_iter_of(op, &PyDictRevIterValue_Type);
}

static PySequenceMethods dictvalues_as_sequence = {
    .sq_length = dictview_len,
};

static PyMethodDef dictvalues_methods[] = {
    {"__reversed__", dictvalues_reversed, METH_NOARGS,
     "reversed(view): the values, last inserted first."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyDictValues_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "dict_values",
    .tp_basicsize = sizeof(_PyDictViewObject),
    .tp_dealloc = dictview_dealloc,
    .tp_repr = dictview_repr,
    .tp_as_sequence = &dictvalues_as_sequence,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = dictview_traverse,
    .tp_iter = dictvalues_iter,
    .tp_methods = dictvalues_methods,
    .tp_getset = dictview_getset,
};
