/* dict: a compact, insertion-ordered hash table.  The layout and the
   internal API (split keys, versions, watchers) are in
   Include/internal/pycore_dict.h. */
#ifndef Py_DICTOBJECT_H
#define Py_DICTOBJECT_H

typedef struct _dictkeysobject PyDictKeysObject;
typedef struct _dictvalues PyDictValues;

typedef struct {
    PyObject_HEAD
    Py_ssize_t ma_used;      /* number of items */
    uint64_t _ma_watcher_tag; /* version tag and watcher bits */
    PyDictKeysObject *ma_keys;
    PyDictValues *ma_values; /* NULL for combined tables */
} PyDictObject;

PyAPI_DATA(PyTypeObject) PyDict_Type;
PyAPI_DATA(PyTypeObject) PyDictKeys_Type;
PyAPI_DATA(PyTypeObject) PyDictValues_Type;
PyAPI_DATA(PyTypeObject) PyDictItems_Type;
PyAPI_DATA(PyTypeObject) PyDictIterKey_Type;
PyAPI_DATA(PyTypeObject) PyDictIterValue_Type;
PyAPI_DATA(PyTypeObject) PyDictIterItem_Type;
PyAPI_DATA(PyTypeObject) PyDictRevIterKey_Type;
PyAPI_DATA(PyTypeObject) PyDictRevIterValue_Type;
PyAPI_DATA(PyTypeObject) PyDictRevIterItem_Type;

#define PyDict_Check(op) PyType_FastSubclass(Py_TYPE(op), Py_TPFLAGS_DICT_SUBCLASS)
#define PyDict_CheckExact(op) Py_IS_TYPE((op), &PyDict_Type)
#define PyDict_GET_SIZE(op) (((PyDictObject *)(op))->ma_used)

PyAPI_FUNC(PyObject *) PyDict_New(void);
PyAPI_FUNC(PyObject *) PyDict_GetItem(PyObject *mp, PyObject *key); /* borrowed, swallows errors */
PyAPI_FUNC(PyObject *) PyDict_GetItemWithError(PyObject *mp, PyObject *key); /* borrowed */
PyAPI_FUNC(PyObject *) PyDict_GetItemString(PyObject *dp, const char *key);
/* 1 and a new reference in *result if found, 0 and NULL if not, -1 on error */
PyAPI_FUNC(int) PyDict_GetItemRef(PyObject *mp, PyObject *key, PyObject **result);
PyAPI_FUNC(int) PyDict_GetItemStringRef(PyObject *mp, const char *key, PyObject **result);
PyAPI_FUNC(int) PyDict_SetItem(PyObject *mp, PyObject *key, PyObject *item);
PyAPI_FUNC(int) PyDict_SetItemString(PyObject *dp, const char *key, PyObject *item);
PyAPI_FUNC(int) PyDict_DelItem(PyObject *mp, PyObject *key);
PyAPI_FUNC(int) PyDict_DelItemString(PyObject *dp, const char *key);
PyAPI_FUNC(int) PyDict_Pop(PyObject *dict, PyObject *key, PyObject **result);
PyAPI_FUNC(int) PyDict_SetDefaultRef(PyObject *d, PyObject *key, PyObject *default_value, PyObject **result);
PyAPI_FUNC(PyObject *) PyDict_SetDefault(PyObject *mp, PyObject *key, PyObject *defaultobj);
PyAPI_FUNC(void) PyDict_Clear(PyObject *mp);
/* Iterate: `Py_ssize_t pos = 0; while (PyDict_Next(d, &pos, &k, &v)) ...`
   (borrowed references). */
PyAPI_FUNC(int) PyDict_Next(PyObject *mp, Py_ssize_t *pos, PyObject **key, PyObject **value);
PyAPI_FUNC(PyObject *) PyDict_Keys(PyObject *mp);
PyAPI_FUNC(PyObject *) PyDict_Values(PyObject *mp);
PyAPI_FUNC(PyObject *) PyDict_Items(PyObject *mp);
PyAPI_FUNC(Py_ssize_t) PyDict_Size(PyObject *mp);
PyAPI_FUNC(PyObject *) PyDict_Copy(PyObject *mp);
PyAPI_FUNC(int) PyDict_Contains(PyObject *mp, PyObject *key);

/* Dict watchers: a callback told of each change to the dicts it watches,
   just before the change is made (and of a watched dict's destruction). */
typedef enum {
    PyDict_EVENT_ADDED,
    PyDict_EVENT_MODIFIED,
    PyDict_EVENT_DELETED,
    PyDict_EVENT_CLONED,
    PyDict_EVENT_CLEARED,
    PyDict_EVENT_DEALLOCATED,
} PyDict_WatchEvent;

/* `new_value` is NULL for DELETED, CLEARED and DEALLOCATED, `key` for
   CLEARED and DEALLOCATED.  An error returned is reported as unraisable. */
typedef int (*PyDict_WatchCallback)(PyDict_WatchEvent event, PyObject *dict,
                                    PyObject *key, PyObject *new_value);

PyAPI_FUNC(int) PyDict_AddWatcher(PyDict_WatchCallback callback);
PyAPI_FUNC(int) PyDict_ClearWatcher(int watcher_id);
PyAPI_FUNC(int) PyDict_Watch(int watcher_id, PyObject *dict);
PyAPI_FUNC(int) PyDict_Unwatch(int watcher_id, PyObject *dict);
PyAPI_FUNC(int) PyDict_ContainsString(PyObject *mp, const char *key);
PyAPI_FUNC(int) PyDict_Update(PyObject *mp, PyObject *other);
PyAPI_FUNC(int) PyDict_Merge(PyObject *mp, PyObject *other, int override);
PyAPI_FUNC(int) PyDict_MergeFromSeq2(PyObject *d, PyObject *seq2, int override);
PyAPI_FUNC(PyObject *) _PyDict_GetItem_KnownHash(PyObject *mp, PyObject *key, Py_hash_t hash);
PyAPI_FUNC(int) _PyDict_SetItem_KnownHash(PyObject *mp, PyObject *key, PyObject *item, Py_hash_t hash);
/* Takes ownership of key and value (used by BUILD_MAP / MAP_ADD / STORE_NAME). */
PyAPI_FUNC(int) _PyDict_SetItem_Take2(PyDictObject *op, PyObject *key, PyObject *value);
PyAPI_FUNC(PyObject *) _PyDict_FromItems(PyObject *const *keys, Py_ssize_t keys_offset,
                                         PyObject *const *values, Py_ssize_t values_offset,
                                         Py_ssize_t length);
PyAPI_FUNC(PyObject *) _PyDict_NewPresized(Py_ssize_t minused);

#endif /* !Py_DICTOBJECT_H */
