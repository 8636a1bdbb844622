/* Internal layout and API of dict objects.

   A dict's table (PyDictKeysObject) holds two arrays in one allocation:
     - a sparse hash index of 2**dk_log2_size slots, each 1, 2, 4 or 8
       bytes wide (the narrowest that can number every entry), holding
       DKIX_EMPTY, DKIX_DUMMY (a deleted slot: probing continues past it)
       or the position of an entry;
     - a dense array of entries in insertion order.  Deleting an entry
       clears its key and value but keeps its place until the next resize,
       so iteration order is insertion order.
   Probing is open addressing with perturbation: the hash's high bits are
   fed in gradually so that every slot is eventually visited.  The table
   is resized when the entries array is full, which keeps the index at
   most 2/3 occupied.

   Versions: every change to a dict (insert, replace, delete, clear,
   resize) stores a fresh value from a global counter in the upper bits of
   `_ma_watcher_tag`; _PyDict_GetVersion reads it.  Two reads giving the
   same version mean the dict was not modified in between, so the
   specialising interpreter can cache lookups in globals and builtins.
   The low DICT_VERSION_SHIFT bits are reserved for watcher flags.

   Keys versions: a table's dk_version names the set of keys it holds and
   where each one sits, not their values.  It is 0 until a specialising
   instruction asks for one (_PyDictKeys_GetVersionForCurrentState), and
   goes back to 0 whenever a key is added or removed; a resize makes a new
   table.  So LOAD_GLOBAL can cache "the value is entry i" (or "the name is
   not here") and read the current value, and assigning to an existing
   global costs no respecialisation; versions are only spent when a site
   specialises. */
#ifndef Py_INTERNAL_DICT_H
#define Py_INTERNAL_DICT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#define DKIX_EMPTY (-1)
#define DKIX_DUMMY (-2)
#define DKIX_ERROR (-3)

typedef struct {
    Py_hash_t me_hash;
    PyObject *me_key;   /* NULL for a deleted entry */
    PyObject *me_value; /* NULL for a deleted entry */
} PyDictKeyEntry;

struct _dictkeysobject {
    uint8_t dk_log2_size;        /* log2 of the number of index slots */
    uint8_t dk_log2_index_bytes; /* log2 of the index array's byte size */
    uint32_t dk_version;         /* 0, or the keys version (see below) */
    Py_ssize_t dk_usable;        /* entries that can still be appended */
    Py_ssize_t dk_nentries;      /* entries used, deleted ones included */
    char dk_indices[];           /* the index, then the entries */
};

#define DK_LOG_SIZE(dk) ((dk)->dk_log2_size)
#define DK_SIZE(dk) ((Py_ssize_t)1 << DK_LOG_SIZE(dk))
#define DK_MASK(dk) ((size_t)DK_SIZE(dk) - 1)

static inline PyDictKeyEntry *
DK_ENTRIES(PyDictKeysObject *dk)
{
    return (PyDictKeyEntry *)(dk->dk_indices + ((size_t)1 << dk->dk_log2_index_bytes));
}

#define DICT_VERSION_SHIFT 12
#define DICT_VERSION_INCREMENT ((uint64_t)1 << DICT_VERSION_SHIFT)
#define DICT_WATCHER_MASK (DICT_VERSION_INCREMENT - 1)

/* Bits 0-7 of the low part say which watchers watch the dict (watcher 0
   is tier 2's, Python/optimizer.c); PyDict_AddWatcher hands out the rest. */
#define DICT_MAX_WATCHERS 8
#define DICT_WATCHED_BITS ((uint64_t)((1 << DICT_MAX_WATCHERS) - 1))
#define DICT_TIER2_WATCHER 0

void _PyDict_SendEvent(int watchers, PyDict_WatchEvent event, PyDictObject *mp,
                       PyObject *key, PyObject *value);

/* Tell the dict's watchers, if it has any, of a change about to happen. */
static inline void
_PyDict_NotifyEvent(PyDict_WatchEvent event, PyDictObject *mp, PyObject *key, PyObject *value)
{
    int watchers = (int)(mp->_ma_watcher_tag & DICT_WATCHED_BITS);
    if (watchers != 0) {
        _PyDict_SendEvent(watchers, event, mp, key, value);
    }
}

/* Bits 8-11 count the changes tier 2's watcher saw (up to 15): a dict
   that keeps changing is not worth promoting values from. */
#define DICT_TIER2_CHANGES_SHIFT 8
#define DICT_TIER2_CHANGES_MASK ((uint64_t)15 << DICT_TIER2_CHANGES_SHIFT)

static inline int
_PyDict_Tier2Changes(PyDictObject *mp)
{
    return (int)((mp->_ma_watcher_tag & DICT_TIER2_CHANGES_MASK) >> DICT_TIER2_CHANGES_SHIFT);
}

static inline void
_PyDict_NoteTier2Change(PyDictObject *mp)
{
    if (_PyDict_Tier2Changes(mp) < 15) {
        mp->_ma_watcher_tag += (uint64_t)1 << DICT_TIER2_CHANGES_SHIFT;
    }
}

/* Tier 2 registers its callback in the reserved slot. */
int _PyDict_SetTier2Watcher(PyDict_WatchCallback callback);

static inline uint64_t
_PyDict_GetVersion(PyDictObject *mp)
{
    return mp->_ma_watcher_tag >> DICT_VERSION_SHIFT;
}

/* The entry at position `hint` of an exact dict's entries array if it
   holds `key` (compared by identity: attribute names are interned), else
   NULL.  The *_WITH_HINT instructions remember where a name was found
   and check it here: a few loads, no hashing.  A deleted entry has a NULL
   key, so it never matches. */
static inline PyDictKeyEntry *
_PyDict_EntryAtHint(PyObject *dict, PyObject *key, uint16_t hint)
{
    if (dict == NULL || !PyDict_CheckExact(dict)) {
        return NULL;
    }
    PyDictKeysObject *keys = ((PyDictObject *)dict)->ma_keys;
    if ((Py_ssize_t)hint >= keys->dk_nentries) {
        return NULL;
    }
    PyDictKeyEntry *entry = &DK_ENTRIES(keys)[hint];
    return entry->me_key == key ? entry : NULL;
}

/* The instance dict of an object whose type keeps it at a positive
   tp_dictoffset (checked when specialising), or NULL if not made yet. */
static inline PyObject *
_PyObject_InlineDictAt(PyObject *obj)
{
    return *(PyObject **)((char *)obj + Py_TYPE(obj)->tp_dictoffset);
}

/* The keys version of `keys` as they are now, handing out a fresh one if
   they have none; 0 when none can be given (the shared empty table, or
   every version spent). */
PyAPI_FUNC(uint32_t) _PyDictKeys_GetVersionForCurrentState(PyDictKeysObject *keys);

/* Give a dict a fresh version (done by every mutation in dictobject.c). */
PyAPI_FUNC(void) _PyDict_BumpVersion(PyDictObject *mp);

/* LOAD_GLOBAL: look `key` up in globals, then builtins (both exact dicts).
   Returns a new reference; NULL with no exception set when the name is in
   neither; NULL with an exception on a real error (unhashable key, a
   failing __eq__). */
PyAPI_FUNC(PyObject *) _PyDict_LoadGlobal(PyDictObject *globals, PyDictObject *builtins,
                                          PyObject *key);

/* Position of `key` in the entries array (>= 0), DKIX_EMPTY if absent,
   DKIX_ERROR with an exception set.  Together with _PyDict_GetVersion
   this lets a cache remember where a key lives. */
PyAPI_FUNC(Py_ssize_t) _PyDict_LookupIndex(PyDictObject *mp, PyObject *key);

/* Known-hash variants.  GetItemRef: 1 and a new reference if found, 0 if
   not, -1 on error.  Pop: like PyDict_Pop.  DelItem: KeyError if absent. */
PyAPI_FUNC(int) _PyDict_GetItemRef_KnownHash(PyDictObject *op, PyObject *key, Py_hash_t hash,
                                             PyObject **result);
PyAPI_FUNC(int) _PyDict_Contains_KnownHash(PyObject *op, PyObject *key, Py_hash_t hash);
PyAPI_FUNC(int) _PyDict_DelItem_KnownHash(PyObject *mp, PyObject *key, Py_hash_t hash);
PyAPI_FUNC(int) _PyDict_Pop_KnownHash(PyDictObject *mp, PyObject *key, Py_hash_t hash,
                                      PyObject **result);

/* PyDict_Next that also reports each key's stored hash (may be NULL). */
PyAPI_FUNC(int) _PyDict_Next(PyObject *op, Py_ssize_t *ppos, PyObject **pkey,
                             PyObject **pvalue, Py_hash_t *phash);

/* PyDict_Merge with a choice for keys already present: override 0 keeps
   the old value, 1 replaces it, 2 raises KeyError(key) (used for
   f(**a, **b) so the caller can report a duplicate keyword). */
PyAPI_FUNC(int) _PyDict_MergeEx(PyObject *a, PyObject *b, int override);

/* 1 if every key is a str (keyword-argument dicts), else 0. */
PyAPI_FUNC(int) _PyDict_HasOnlyStringKeys(PyObject *dict);

PyAPI_FUNC(Py_ssize_t) _PyDict_SizeOf(PyDictObject *mp);

/* The views and their set operations (also used by the set type for
   `set op dict_keys`). */
typedef struct {
    PyObject_HEAD
    PyDictObject *dv_dict;
} _PyDictViewObject;

PyAPI_FUNC(PyObject *) _PyDictView_New(PyObject *dict, PyTypeObject *type);
#define PyDictKeys_Check(op) PyObject_TypeCheck((op), &PyDictKeys_Type)
#define PyDictValues_Check(op) PyObject_TypeCheck((op), &PyDictValues_Type)
#define PyDictItems_Check(op) PyObject_TypeCheck((op), &PyDictItems_Type)
#define PyDictViewSet_Check(op) (PyDictKeys_Check(op) || PyDictItems_Check(op))

#endif /* !Py_INTERNAL_DICT_H */
