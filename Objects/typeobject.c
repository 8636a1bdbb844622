/* Type objects: `type` itself, readying static types, the method
   resolution order and attribute lookup on types (with its cache).

   The rest of the story lives next door: Objects/typecreate.c makes
   classes at run time (type.__new__) and manages their instances,
   Objects/typeslots.c maps dunder methods to C slots and back,
   Objects/baseobject.c holds `object` and `super`.  Doc/object-model.md
   gives the overview. */
#include "Python.h"
#include "pycore_abstract.h"
#include "pycore_call.h"
#include "pycore_descrobject.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_stress.h"
#include "pycore_typeobject.h"
#include "pycore_typing.h"
#include "pycore_unicodeobject.h"
#include "pycore_identifiers.h"


/* ---- Version tags and the method cache -------------------------------------

   Every lookup of an attribute on a type walks the MRO's dicts.  The
   cache remembers (version tag, name) -> value.  A version tag names one
   state of a type and its bases: PyType_Modified drops the tags of the
   type and of all its subclasses, so a stale entry can never match again.
   Tags are assigned on demand and never reused. */

#define MCACHE_SIZE_EXP 12
#define MCACHE_SIZE (1 << MCACHE_SIZE_EXP)

typedef struct {
    unsigned int version;
    PyObject *name;  /* strong: keeps the address from being reused */
    PyObject *value; /* borrowed: the type's dict owns it while the tag is valid */
} type_cache_entry;

static type_cache_entry type_cache[MCACHE_SIZE];
static unsigned int next_version_tag = 1;

static inline unsigned int
mcache_index(unsigned int version, Py_hash_t name_hash)
{
    return (version ^ (unsigned int)name_hash) & (MCACHE_SIZE - 1);
}

unsigned int
PyType_ClearCache(void)
{
    for (int i = 0; i < MCACHE_SIZE; i++) {
        type_cache[i].version = 0;
        Py_CLEAR(type_cache[i].name);
        type_cache[i].value = NULL;
    }
    return next_version_tag - 1;
}

int
_PyType_AssignVersionTag(PyTypeObject *type)
{
    if (PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)) {
        return 1;
    }
    if (!PyType_HasFeature(type, Py_TPFLAGS_READY) || next_version_tag == 0) {
        return 0;
    }
    /* The bases need tags too: PyType_Modified only descends from types
       whose tag is valid. */
    PyObject *bases = type->tp_bases;
    if (bases != NULL) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
            if (!_PyType_AssignVersionTag((PyTypeObject *)PyTuple_GET_ITEM(bases, i))) {
                return 0;
            }
        }
    }
    type->tp_version_tag = next_version_tag++;
    type->tp_flags |= Py_TPFLAGS_VALID_VERSION_TAG;
    return 1;
}

/* ---- Subclass registry ------------------------------------------------------

   tp_subclasses points to a growable array of borrowed pointers to the
   direct subclasses.  A heap subclass removes itself when it dies, so no
   weak references are needed. */

typedef struct {
    Py_ssize_t len;
    Py_ssize_t cap;
    PyTypeObject *items[1];
} subclass_array;

static int
add_subclass(PyTypeObject *base, PyTypeObject *type)
{
    subclass_array *arr = (subclass_array *)base->tp_subclasses;
    if (arr == NULL || arr->len == arr->cap) {
        Py_ssize_t cap = arr == NULL ? 4 : arr->cap * 2;
        size_t size = sizeof(subclass_array) + (size_t)(cap - 1) * sizeof(PyTypeObject *);
        subclass_array *grown = PyMem_Realloc(arr, size);
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        if (arr == NULL) {
            grown->len = 0;
        }
        grown->cap = cap;
        arr = grown;
        base->tp_subclasses = arr;
    }
    arr->items[arr->len++] = type;
    return 0;
}

static void
remove_subclass(PyTypeObject *base, PyTypeObject *type)
{
    subclass_array *arr = (subclass_array *)base->tp_subclasses;
    if (arr == NULL) {
        return;
    }
    for (Py_ssize_t i = 0; i < arr->len; i++) {
        if (arr->items[i] == type) {
            memmove(&arr->items[i], &arr->items[i + 1],
                    (size_t)(arr->len - i - 1) * sizeof(PyTypeObject *));
            arr->len--;
            return;
        }
    }
}

static int
add_to_bases_subclasses(PyTypeObject *type, PyObject *bases)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
        PyObject *b = PyTuple_GET_ITEM(bases, i);
        if (PyType_Check(b) && add_subclass((PyTypeObject *)b, type) < 0) {
            return -1;
        }
    }
    return 0;
}

static void
remove_from_bases_subclasses(PyTypeObject *type, PyObject *bases)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
        PyObject *b = PyTuple_GET_ITEM(bases, i);
        if (PyType_Check(b)) {
            remove_subclass((PyTypeObject *)b, type);
        }
    }
}

PyObject *
_PyType_GetSubclasses(PyTypeObject *type)
{
    subclass_array *arr = (subclass_array *)type->tp_subclasses;
    PyObject *list = PyList_New(0);
    if (list == NULL || arr == NULL) {
        return list;
    }
    for (Py_ssize_t i = 0; i < arr->len; i++) {
        if (PyList_Append(list, (PyObject *)arr->items[i]) < 0) {
            Py_DECREF(list);
            return NULL;
        }
    }
    return list;
}

/* PyType_Modified: the type's dict (or a base's) changed.  Drop the
   version tags of the type and every subclass. */
void
PyType_Modified(PyTypeObject *type)
{
    if (!PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)) {
        return;
    }
    subclass_array *arr = (subclass_array *)type->tp_subclasses;
    if (arr != NULL) {
        for (Py_ssize_t i = 0; i < arr->len; i++) {
            PyType_Modified(arr->items[i]);
        }
    }
    type->tp_flags &= ~Py_TPFLAGS_VALID_VERSION_TAG;
    type->tp_version_tag = 0;
}

/* ---- Looking names up along the MRO ------------------------------------------ */

PyObject *
_PyType_LookupNoCache(PyTypeObject *type, PyObject *name, int *error)
{
    *error = 0;
    Py_hash_t hash = PyObject_Hash(name);
    if (hash == -1) {
        *error = -1;
        return NULL;
    }
    PyObject *mro = type->tp_mro;
    if (mro == NULL) {
        /* Being readied or cleared; a type that was simply never readied
           gets readied here, as upstream does. */
        if (PyType_HasFeature(type, Py_TPFLAGS_READYING) ||
            PyType_HasFeature(type, Py_TPFLAGS_READY)) {
            return NULL;
        }
        if (PyType_Ready(type) < 0) {
            *error = -1;
            return NULL;
        }
        mro = type->tp_mro;
        if (mro == NULL) {
            return NULL;
        }
    }
    PyObject *pending = PyErr_Occurred();
    PyObject *res = NULL;
    Py_INCREF(mro);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); i++) {
        PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
        PyObject *dict = base->tp_dict;
        if (dict == NULL) {
            continue;
        }
        res = _PyDict_GetItem_KnownHash(dict, name, hash);
        if (res != NULL) {
            break;
        }
        if (pending == NULL && PyErr_Occurred()) {
            *error = -1;
            break;
        }
    }
    Py_DECREF(mro);
    return res;
}

static inline Py_hash_t
str_hash(PyObject *name)
{
    Py_hash_t h = _PyUnicode_CAST(name)->hash;
    return h != -1 ? h : PyObject_Hash(name);
}

PyObject *
_PyType_Lookup(PyTypeObject *type, PyObject *name)
{
    /* The stress build keeps the cache empty (pycore_stress.h), though a
       lookup still hands out the version tag specialization relies on. */
    int cacheable = PyUnicode_CheckExact(name);
    unsigned int idx = 0;
    if (cacheable && !_Py_STRESS && PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)) {
        idx = mcache_index(type->tp_version_tag, str_hash(name));
        type_cache_entry *entry = &type_cache[idx];
        if (entry->version == type->tp_version_tag && entry->name == name) {
            return entry->value;
        }
    }
    int error;
    PyObject *res = _PyType_LookupNoCache(type, name, &error);
    if (error) {
        /* Lookups report "not found" rather than errors, as upstream;
           callers that need the error use _PyType_LookupNoCache. */
        PyErr_Clear();
        return NULL;
    }
    if (cacheable && _PyType_AssignVersionTag(type) && !_Py_STRESS) {
        idx = mcache_index(type->tp_version_tag, str_hash(name));
        type_cache_entry *entry = &type_cache[idx];
        entry->version = type->tp_version_tag;
        entry->value = res;
        Py_XSETREF(entry->name, Py_NewRef(name));
    }
    return res;
}

PyObject *
_PyType_LookupRef(PyTypeObject *type, PyObject *name)
{
    return Py_XNewRef(_PyType_Lookup(type, name));
}

/* ---- Subtype relation --------------------------------------------------------------- */

int
PyType_IsSubtype(PyTypeObject *a, PyTypeObject *b)
{
    if (a == b) {
        return 1;
    }
    PyObject *mro = a->tp_mro;
    if (mro != NULL) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); i++) {
            if (PyTuple_GET_ITEM(mro, i) == (PyObject *)b) {
                return 1;
            }
        }
        return 0;
    }
    /* Not readied yet: the tp_base chain is all there is. */
    do {
        if (a == b) {
            return 1;
        }
        a = a->tp_base;
    } while (a != NULL);
    return b == &PyBaseObject_Type;
}

/* ---- Names ------------------------------------------------------------------------ */

const char *
_PyType_Name(PyTypeObject *type)
{
    const char *s = strrchr(type->tp_name, '.');
    return s == NULL ? type->tp_name : s + 1;
}

static PyObject *
type_name(PyTypeObject *type, void *context)
{
    if (PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
        return Py_NewRef(((PyHeapTypeObject *)type)->ht_name);
    }
    return PyUnicode_FromString(_PyType_Name(type));
}

static PyObject *
type_qualname(PyTypeObject *type, void *context)
{
    if (PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
        return Py_NewRef(((PyHeapTypeObject *)type)->ht_qualname);
    }
    return PyUnicode_FromString(_PyType_Name(type));
}

PyObject *
PyType_GetName(PyTypeObject *type)
{
    return type_name(type, NULL);
}

PyObject *
PyType_GetQualName(PyTypeObject *type)
{
    return type_qualname(type, NULL);
}

unsigned long
PyType_GetFlags(PyTypeObject *type)
{
    return type->tp_flags;
}

PyObject *
_PyType_GetDict(PyTypeObject *type)
{
    return type->tp_dict;
}

PyObject *
PyType_GetDict(PyTypeObject *type)
{
    return Py_XNewRef(type->tp_dict);
}

PyObject *
_PyType_GetModuleName(PyTypeObject *type)
{
    if (PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
        PyObject *mod;
        if (PyDict_GetItemRef(type->tp_dict, _Py_ID(__module__), &mod) == 0) {
            PyErr_Format(PyExc_AttributeError, "__module__");
        }
        return mod;
    }
    const char *s = strrchr(type->tp_name, '.');
    if (s != NULL) {
        PyObject *mod = PyUnicode_FromStringAndSize(type->tp_name, s - type->tp_name);
        if (mod != NULL) {
            PyUnicode_InternInPlace(&mod);
        }
        return mod;
    }
    return Py_NewRef(_Py_ID(builtins));
}

PyObject *
PyType_GetModuleName(PyTypeObject *type)
{
    return _PyType_GetModuleName(type);
}

PyObject *
_PyType_GetFullyQualifiedName(PyTypeObject *type, char sep)
{
    PyObject *qualname = type_qualname(type, NULL);
    if (qualname == NULL) {
        return NULL;
    }
    PyObject *module = _PyType_GetModuleName(type);
    if (module == NULL) {
        PyErr_Clear();
        return qualname;
    }
    PyObject *res;
    if (PyUnicode_Check(module) && !_PyUnicode_EqualToASCIIString(module, "builtins") &&
        !_PyUnicode_EqualToASCIIString(module, "__main__")) {
        res = PyUnicode_FromFormat("%U%c%U", module, sep, qualname);
    }
    else {
        res = Py_NewRef(qualname);
    }
    Py_DECREF(module);
    Py_DECREF(qualname);
    return res;
}

/* ---- Method resolution order (C3) --------------------------------------------

   The MRO of a class is the class followed by a merge of its bases' MROs
   and the list of bases: repeatedly take the first head that appears in
   no list's tail.  If no head qualifies, the hierarchy has no consistent
   order. */

static int
tail_contains(PyObject *list, Py_ssize_t whence, PyObject *o)
{
    for (Py_ssize_t j = whence + 1; j < PyTuple_GET_SIZE(list); j++) {
        if (PyTuple_GET_ITEM(list, j) == o) {
            return 1;
        }
    }
    return 0;
}

static void
set_mro_error(PyObject **to_merge, Py_ssize_t n, Py_ssize_t *remain)
{
    PyObject *names = PyList_New(0);
    if (names == NULL) {
        return;
    }
    PyObject *seen = PyList_New(0);
    if (seen == NULL) {
        Py_DECREF(names);
        return;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (remain[i] >= PyTuple_GET_SIZE(to_merge[i])) {
            continue;
        }
        PyObject *head = PyTuple_GET_ITEM(to_merge[i], remain[i]);
        int dup = 0;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(seen); k++) {
            dup |= PyList_GET_ITEM(seen, k) == head;
        }
        if (dup) {
            continue;
        }
        PyObject *name = type_name((PyTypeObject *)head, NULL);
        if (name == NULL || PyList_Append(seen, head) < 0 || PyList_Append(names, name) < 0) {
            Py_XDECREF(name);
            goto done;
        }
        Py_DECREF(name);
    }
    PyObject *sep = PyUnicode_FromString(", ");
    if (sep != NULL) {
        PyObject *joined = PyUnicode_Join(sep, names);
        Py_DECREF(sep);
        if (joined != NULL) {
            PyErr_Format(PyExc_TypeError,
                         "Cannot create a consistent method resolution order (MRO) for bases %U",
                         joined);
            Py_DECREF(joined);
        }
    }
done:
    Py_DECREF(names);
    Py_DECREF(seen);
}

static int
pmerge(PyObject *acc, PyObject **to_merge, Py_ssize_t n)
{
    Py_ssize_t *remain = PyMem_New(Py_ssize_t, n);
    if (remain == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        remain[i] = 0;
    }
    int res = 0;
    Py_ssize_t empty_cnt;
again:
    empty_cnt = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *cur = to_merge[i];
        if (remain[i] >= PyTuple_GET_SIZE(cur)) {
            empty_cnt++;
            continue;
        }
        PyObject *candidate = PyTuple_GET_ITEM(cur, remain[i]);
        int in_tail = 0;
        for (Py_ssize_t j = 0; j < n && !in_tail; j++) {
            in_tail = tail_contains(to_merge[j], remain[j], candidate);
        }
        if (in_tail) {
            continue;
        }
        if (PyList_Append(acc, candidate) < 0) {
            res = -1;
            goto out;
        }
        for (Py_ssize_t j = 0; j < n; j++) {
            if (remain[j] < PyTuple_GET_SIZE(to_merge[j]) &&
                PyTuple_GET_ITEM(to_merge[j], remain[j]) == candidate) {
                remain[j]++;
            }
        }
        goto again;
    }
    if (empty_cnt != n) {
        set_mro_error(to_merge, n, remain);
        res = -1;
    }
out:
    PyMem_Free(remain);
    return res;
}

static int
check_duplicates(PyObject *tuple)
{
    Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyTuple_GET_ITEM(tuple, i);
        for (Py_ssize_t j = i + 1; j < n; j++) {
            if (PyTuple_GET_ITEM(tuple, j) == o) {
                PyObject *name = type_name((PyTypeObject *)o, NULL);
                if (name != NULL) {
                    PyErr_Format(PyExc_TypeError, "duplicate base class %U", name);
                    Py_DECREF(name);
                }
                return -1;
            }
        }
    }
    return 0;
}

static PyObject *
mro_implementation(PyTypeObject *type)
{
    PyObject *bases = type->tp_bases;
    Py_ssize_t n = PyTuple_GET_SIZE(bases);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(bases, i);
        if (base->tp_mro == NULL) {
            PyErr_Format(PyExc_TypeError, "Cannot extend an incomplete type '%.100s'",
                         base->tp_name);
            return NULL;
        }
    }
    if (n == 1) {
        /* Single inheritance: the base's MRO with the type in front. */
        PyObject *base_mro = ((PyTypeObject *)PyTuple_GET_ITEM(bases, 0))->tp_mro;
        Py_ssize_t k = PyTuple_GET_SIZE(base_mro);
        PyObject *result = PyTuple_New(k + 1);
        if (result == NULL) {
            return NULL;
        }
        PyTuple_SET_ITEM(result, 0, Py_NewRef(type));
        for (Py_ssize_t i = 0; i < k; i++) {
            PyTuple_SET_ITEM(result, i + 1, Py_NewRef(PyTuple_GET_ITEM(base_mro, i)));
        }
        return result;
    }
    if (check_duplicates(bases) < 0) {
        return NULL;
    }
    PyObject **to_merge = PyMem_New(PyObject *, n + 1);
    if (to_merge == NULL) {
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        to_merge[i] = ((PyTypeObject *)PyTuple_GET_ITEM(bases, i))->tp_mro;
    }
    to_merge[n] = bases;
    PyObject *result = PyList_New(1);
    if (result == NULL) {
        PyMem_Free(to_merge);
        return NULL;
    }
    PyList_SET_ITEM(result, 0, Py_NewRef(type));
    if (pmerge(result, to_merge, n + 1) < 0) {
        Py_CLEAR(result);
    }
    PyMem_Free(to_merge);
    if (result == NULL) {
        return NULL;
    }
    PyObject *tuple = PyList_AsTuple(result);
    Py_DECREF(result);
    return tuple;
}

static PyTypeObject *solid_base(PyTypeObject *type);

/* A custom mro() must return classes whose layouts fit the type. */
static int
mro_check(PyTypeObject *type, PyObject *mro)
{
    PyTypeObject *solid = solid_base(type);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); i++) {
        PyObject *obj = PyTuple_GET_ITEM(mro, i);
        if (!PyType_Check(obj)) {
            PyErr_Format(PyExc_TypeError, "mro() returned a non-class ('%.500s')",
                         Py_TYPE(obj)->tp_name);
            return -1;
        }
        if (!PyType_IsSubtype(solid, solid_base((PyTypeObject *)obj))) {
            PyErr_Format(PyExc_TypeError, "mro() returned base with unsuitable layout ('%.500s')",
                         ((PyTypeObject *)obj)->tp_name);
            return -1;
        }
    }
    return 0;
}

static PyObject *
mro_invoke(PyTypeObject *type)
{
    PyTypeObject *meta = Py_TYPE(type);
    if (meta == &PyType_Type) {
        return mro_implementation(type);
    }
    PyObject *mro_meth = _PyType_Lookup(meta, _Py_ID(mro));
    PyObject *type_mro = _PyType_Lookup(&PyType_Type, _Py_ID(mro));
    if (mro_meth == NULL || mro_meth == type_mro) {
        return mro_implementation(type);
    }
    PyObject *res = PyObject_CallMethodNoArgs((PyObject *)type, _Py_ID(mro));
    if (res == NULL) {
        return NULL;
    }
    PyObject *tuple = PySequence_Tuple(res);
    Py_DECREF(res);
    if (tuple == NULL) {
        return NULL;
    }
    if (mro_check(type, tuple) < 0) {
        Py_DECREF(tuple);
        return NULL;
    }
    return tuple;
}

static int
mro_internal(PyTypeObject *type)
{
    PyObject *mro = mro_invoke(type);
    if (mro == NULL) {
        return -1;
    }
    Py_XSETREF(type->tp_mro, mro);
    PyType_Modified(type);
    return 0;
}

static PyObject *
type_mro_method(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *seq = mro_implementation((PyTypeObject *)self);
    if (seq == NULL) {
        return NULL;
    }
    PyObject *list = PySequence_List(seq);
    Py_DECREF(seq);
    return list;
}

/* ---- Allocation ----------------------------------------------------------------------- */

/* ---- Pre-headers ---------------------------------------------------------------

   A subclass of a variable-size type (int, str, tuple, bytes) cannot put
   __dict__ or __weakref__ after the items: their count is not always
   recorded where a generic routine could read it.  Such instances get two
   pointer slots in front of their GC header instead, at fixed negative
   offsets from the object. */

#define PREHEADER_SIZE _PyType_PREHEADER_SIZE

static int
has_preheader(PyTypeObject *type)
{
    return _PyType_HasPreHeader(type);
}

static PyObject *
alloc_with_preheader(PyTypeObject *type, size_t size)
{
    if (size > (size_t)PY_SSIZE_T_MAX - PREHEADER_SIZE - sizeof(PyGC_Head)) {
        return PyErr_NoMemory();
    }
    char *mem = PyObject_Malloc(PREHEADER_SIZE + sizeof(PyGC_Head) + size);
    if (mem == NULL) {
        return PyErr_NoMemory();
    }
    memset(mem, 0, PREHEADER_SIZE + sizeof(PyGC_Head));
    PyObject *obj = _Py_FROM_GC(mem + PREHEADER_SIZE);
    _PyObject_Init(obj, type);
    return obj;
}

void
_PyType_FreeWithPreHeader(void *op)
{
    PyObject *obj = (PyObject *)op;
    if (_PyObject_GC_IS_TRACKED(obj)) {
        PyObject_GC_UnTrack(obj);
    }
    PyObject_Free((char *)_Py_AS_GC(obj) - PREHEADER_SIZE);
}

PyObject *
PyType_GenericAlloc(PyTypeObject *type, Py_ssize_t nitems)
{
    /* One spare item: some variable-size types store a sentinel. */
    if (nitems < 0 || (type->tp_itemsize != 0 &&
                       (size_t)nitems >= (PY_SSIZE_T_MAX - (size_t)type->tp_basicsize) /
                                             (size_t)type->tp_itemsize)) {
        return PyErr_NoMemory();
    }
    size_t size = _PyObject_VAR_SIZE(type, nitems + 1);
    PyObject *obj;
    if (has_preheader(type)) {
        obj = alloc_with_preheader(type, size);
    }
    else if (PyType_IS_GC(type)) {
        if (type->tp_itemsize != 0) {
            obj = (PyObject *)_PyObject_GC_NewVar(type, nitems + 1);
        }
        else {
            obj = _PyObject_GC_New(type);
        }
    }
    else {
        obj = (PyObject *)PyObject_Malloc(size);
        if (obj != NULL) {
            _PyObject_Init(obj, type);
        }
    }
    if (obj == NULL) {
        return PyErr_NoMemory();
    }
    memset((char *)obj + sizeof(PyObject), 0, size - sizeof(PyObject));
    if (type->tp_itemsize != 0) {
        Py_SET_SIZE((PyVarObject *)obj, nitems);
    }
    if (PyType_IS_GC(type)) {
        PyObject_GC_Track(obj);
    }
    return obj;
}

PyObject *
PyType_GenericNew(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return type->tp_alloc(type, 0);
}

/* ---- Layout --------------------------------------------------------------------------

   Instances of a heap type extend the layout of its "solid base" (the
   nearest base that added C fields) with __slots__ members, then the
   __dict__ pointer, then the __weakref__ list pointer. */

static int
extra_ivars(PyTypeObject *type, PyTypeObject *base)
{
    Py_ssize_t t_size = type->tp_basicsize;
    Py_ssize_t b_size = base->tp_basicsize;
    if (type->tp_itemsize || base->tp_itemsize) {
        return t_size != b_size || type->tp_itemsize != base->tp_itemsize;
    }
    if (PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
        if (type->tp_weaklistoffset && base->tp_weaklistoffset == 0 &&
            type->tp_weaklistoffset + (Py_ssize_t)sizeof(PyObject *) == t_size) {
            t_size -= sizeof(PyObject *);
        }
        if (type->tp_dictoffset && base->tp_dictoffset == 0 &&
            type->tp_dictoffset + (Py_ssize_t)sizeof(PyObject *) == t_size) {
            t_size -= sizeof(PyObject *);
        }
    }
    return t_size != b_size;
}

static PyTypeObject *
solid_base(PyTypeObject *type)
{
    PyTypeObject *base = type->tp_base ? solid_base(type->tp_base) : &PyBaseObject_Type;
    return extra_ivars(type, base) ? type : base;
}

/* The base whose layout the new class must extend; TypeError when two
   bases need incompatible layouts. */
PyTypeObject *
_PyType_BestBase(PyObject *bases)
{
    PyTypeObject *base = NULL, *winner = NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
        PyObject *b = PyTuple_GET_ITEM(bases, i);
        if (!PyType_Check(b)) {
            PyErr_SetString(PyExc_TypeError, "bases must be types");
            return NULL;
        }
        PyTypeObject *bt = (PyTypeObject *)b;
        if (!PyType_HasFeature(bt, Py_TPFLAGS_READY) && PyType_Ready(bt) < 0) {
            return NULL;
        }
        if (!PyType_HasFeature(bt, Py_TPFLAGS_BASETYPE)) {
            PyErr_Format(PyExc_TypeError, "type '%.100s' is not an acceptable base type",
                         bt->tp_name);
            return NULL;
        }
        PyTypeObject *candidate = solid_base(bt);
        if (winner == NULL) {
            winner = candidate;
            base = bt;
        }
        else if (PyType_IsSubtype(winner, candidate)) {
            /* keep */
        }
        else if (PyType_IsSubtype(candidate, winner)) {
            winner = candidate;
            base = bt;
        }
        else {
            PyErr_SetString(PyExc_TypeError, "multiple bases have instance lay-out conflict");
            return NULL;
        }
    }
    return base;
}

PyTypeObject *
_PyType_CalculateMetaclass(PyTypeObject *metatype, PyObject *bases)
{
    PyTypeObject *winner = metatype;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
        PyTypeObject *tmp = Py_TYPE(PyTuple_GET_ITEM(bases, i));
        if (PyType_IsSubtype(winner, tmp)) {
            continue;
        }
        if (PyType_IsSubtype(tmp, winner)) {
            winner = tmp;
            continue;
        }
        PyErr_SetString(PyExc_TypeError,
                        "metaclass conflict: the metaclass of a derived class must be a "
                        "(non-strict) subclass of the metaclasses of all its bases");
        return NULL;
    }
    return winner;
}

/* ---- __new__ as a builtin -------------------------------------------------------

   `T.__new__(S, ...)` is a builtin function whose self is T.  It checks
   that S is a subtype of T for which T's tp_new is safe to call (the
   nearest static base of S must use the same tp_new). */

static PyObject *
tp_new_wrapper(PyObject *self, PyObject *args, PyObject *kwds)
{
    if (!PyType_Check(self)) {
        PyErr_SetString(PyExc_SystemError, "__new__() called with non-type 'self'");
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)self;
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 1) {
        PyErr_Format(PyExc_TypeError, "%s.__new__(): not enough arguments", type->tp_name);
        return NULL;
    }
    PyObject *arg0 = PyTuple_GET_ITEM(args, 0);
    if (!PyType_Check(arg0)) {
        PyErr_Format(PyExc_TypeError, "%s.__new__(X): X is not a type object (%s)",
                     type->tp_name, Py_TYPE(arg0)->tp_name);
        return NULL;
    }
    PyTypeObject *subtype = (PyTypeObject *)arg0;
    if (!PyType_IsSubtype(subtype, type)) {
        PyErr_Format(PyExc_TypeError, "%s.__new__(%s): %s is not a subtype of %s", type->tp_name,
                     subtype->tp_name, subtype->tp_name, type->tp_name);
        return NULL;
    }
    PyTypeObject *staticbase = subtype;
    while (staticbase != NULL && PyType_HasFeature(staticbase, Py_TPFLAGS_HEAPTYPE)) {
        staticbase = staticbase->tp_base;
    }
    if (staticbase != NULL && staticbase->tp_new != type->tp_new) {
        PyErr_Format(PyExc_TypeError, "%s.__new__(%s) is not safe, use %s.__new__()",
                     type->tp_name, subtype->tp_name, staticbase->tp_name);
        return NULL;
    }
    PyObject *rest = PyTuple_GetSlice(args, 1, PyTuple_GET_SIZE(args));
    if (rest == NULL) {
        return NULL;
    }
    PyObject *res = type->tp_new(subtype, rest, kwds);
    Py_DECREF(rest);
    return res;
}

static PyMethodDef tp_new_methoddef = {
    "__new__", _PyCFunction_CAST(tp_new_wrapper), METH_VARARGS | METH_KEYWORDS,
    "Create and return a new object.  See help(type) for accurate signature.",
};

PyObject *
_PyType_NewWrapperCall(PyObject *self, PyObject *args, PyObject *kwds)
{
    return tp_new_wrapper(self, args, kwds);
}

int
_PyType_IsNewWrapper(PyObject *descr)
{
    return PyCFunction_Check(descr) &&
           ((PyCFunctionObject *)descr)->m_ml->ml_meth == _PyCFunction_CAST(tp_new_wrapper);
}

static int
add_tp_new_wrapper(PyTypeObject *type)
{
    int rc = PyDict_Contains(type->tp_dict, _Py_ID(__new__));
    if (rc != 0) {
        return rc < 0 ? -1 : 0;
    }
    PyObject *func = PyCFunction_NewEx(&tp_new_methoddef, (PyObject *)type, NULL);
    if (func == NULL) {
        return -1;
    }
    rc = PyDict_SetItem(type->tp_dict, _Py_ID(__new__), func);
    Py_DECREF(func);
    return rc;
}

/* ---- PyType_Ready ------------------------------------------------------------------- */

static int
add_methods(PyTypeObject *type, PyMethodDef *meth)
{
    PyObject *dict = type->tp_dict;
    for (; meth->ml_name != NULL; meth++) {
        PyObject *name = PyUnicode_InternFromString(meth->ml_name);
        if (name == NULL) {
            return -1;
        }
        int rc = 0;
        if (!(meth->ml_flags & METH_COEXIST)) {
            rc = PyDict_Contains(dict, name);
        }
        if (rc == 0) {
            PyObject *descr;
            if (meth->ml_flags & METH_CLASS) {
                if (meth->ml_flags & METH_STATIC) {
                    PyErr_SetString(PyExc_ValueError,
                                    "method cannot be both class and static");
                    Py_DECREF(name);
                    return -1;
                }
                descr = PyDescr_NewClassMethod(type, meth);
            }
            else if (meth->ml_flags & METH_STATIC) {
                PyObject *cfunc = PyCFunction_NewEx(meth, (PyObject *)type, NULL);
                descr = cfunc == NULL ? NULL : PyStaticMethod_New(cfunc);
                Py_XDECREF(cfunc);
            }
            else {
                descr = PyDescr_NewMethod(type, meth);
            }
            rc = descr == NULL ? -1 : PyDict_SetItem(dict, name, descr);
            Py_XDECREF(descr);
        }
        Py_DECREF(name);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

static int
add_descr_unless_present(PyTypeObject *type, const char *cname, PyObject *descr)
{
    if (descr == NULL) {
        return -1;
    }
    PyObject *name = PyDescr_NAME(descr);
    int rc = PyDict_Contains(type->tp_dict, name);
    if (rc == 0) {
        rc = PyDict_SetItem(type->tp_dict, name, descr);
    }
    Py_DECREF(descr);
    return rc < 0 ? -1 : 0;
}

static int
add_members(PyTypeObject *type, PyMemberDef *memb)
{
    for (; memb->name != NULL; memb++) {
        if (add_descr_unless_present(type, memb->name, PyDescr_NewMember(type, memb)) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
add_getset(PyTypeObject *type, PyGetSetDef *gsp)
{
    for (; gsp->name != NULL; gsp++) {
        if (add_descr_unless_present(type, gsp->name, PyDescr_NewGetSet(type, gsp)) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
type_ready_set_new(PyTypeObject *type, PyTypeObject *base)
{
    /* A static type that defines no tp_new directly below object cannot be
       instantiated from Python ("cannot create 'X' instances"). */
    if (type->tp_new == NULL && base == &PyBaseObject_Type &&
        !PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
        type->tp_flags |= Py_TPFLAGS_DISALLOW_INSTANTIATION;
    }
    if (PyType_HasFeature(type, Py_TPFLAGS_DISALLOW_INSTANTIATION)) {
        type->tp_new = NULL;
        return 0;
    }
    if (type->tp_new != NULL) {
        return add_tp_new_wrapper(type);
    }
    if (base != NULL) {
        type->tp_new = base->tp_new;
    }
    return 0;
}

static int
type_ready_fill_dict(PyTypeObject *type)
{
    if (_PyType_AddOperators(type) < 0) {
        return -1;
    }
    if (type->tp_methods != NULL && add_methods(type, type->tp_methods) < 0) {
        return -1;
    }
    if (type->tp_members != NULL && add_members(type, type->tp_members) < 0) {
        return -1;
    }
    if (type->tp_getset != NULL && add_getset(type, type->tp_getset) < 0) {
        return -1;
    }
    int rc = PyDict_Contains(type->tp_dict, _Py_ID(__doc__));
    if (rc != 0) {
        return rc < 0 ? -1 : 0;
    }
    PyObject *doc;
    if (type->tp_doc != NULL) {
        doc = PyUnicode_FromString(type->tp_doc);
        if (doc == NULL) {
            return -1;
        }
    }
    else {
        doc = Py_NewRef(Py_None);
    }
    rc = PyDict_SetItem(type->tp_dict, _Py_ID(__doc__), doc);
    Py_DECREF(doc);
    return rc;
}

/* Fields that describe the layout come from the direct base only. */
static void
inherit_special(PyTypeObject *type, PyTypeObject *base)
{
    if (!PyType_HasFeature(type, Py_TPFLAGS_HAVE_GC) && PyType_HasFeature(base, Py_TPFLAGS_HAVE_GC) &&
        type->tp_traverse == NULL && type->tp_clear == NULL) {
        type->tp_flags |= Py_TPFLAGS_HAVE_GC;
        type->tp_traverse = base->tp_traverse;
        type->tp_clear = base->tp_clear;
    }
    if (type->tp_basicsize == 0) {
        type->tp_basicsize = base->tp_basicsize;
    }
    if (type->tp_itemsize == 0) {
        type->tp_itemsize = base->tp_itemsize;
    }
    if (type->tp_weaklistoffset == 0) {
        type->tp_weaklistoffset = base->tp_weaklistoffset;
    }
    if (type->tp_dictoffset == 0) {
        type->tp_dictoffset = base->tp_dictoffset;
    }
    const unsigned long fast_subclass_flags =
        Py_TPFLAGS_LONG_SUBCLASS | Py_TPFLAGS_LIST_SUBCLASS | Py_TPFLAGS_TUPLE_SUBCLASS |
        Py_TPFLAGS_BYTES_SUBCLASS | Py_TPFLAGS_UNICODE_SUBCLASS | Py_TPFLAGS_DICT_SUBCLASS |
        Py_TPFLAGS_BASE_EXC_SUBCLASS | Py_TPFLAGS_TYPE_SUBCLASS;
    type->tp_flags |= base->tp_flags & fast_subclass_flags;
    type->tp_flags |= base->tp_flags & (Py_TPFLAGS_MANAGED_DICT | Py_TPFLAGS_MANAGED_WEAKREF);
    if (!(type->tp_flags & (Py_TPFLAGS_SEQUENCE | Py_TPFLAGS_MAPPING))) {
        type->tp_flags |= base->tp_flags & (Py_TPFLAGS_SEQUENCE | Py_TPFLAGS_MAPPING);
    }
}

/* The roots of the fast subclass checks carry their own flag, whether or
   not their definition remembered to set it. */
static void
set_root_subclass_flag(PyTypeObject *type)
{
    if (type == &PyLong_Type) {
        type->tp_flags |= Py_TPFLAGS_LONG_SUBCLASS;
    }
    else if (type == &PyList_Type) {
        type->tp_flags |= Py_TPFLAGS_LIST_SUBCLASS;
    }
    else if (type == &PyTuple_Type) {
        type->tp_flags |= Py_TPFLAGS_TUPLE_SUBCLASS;
    }
    else if (type == &PyBytes_Type) {
        type->tp_flags |= Py_TPFLAGS_BYTES_SUBCLASS;
    }
    else if (type == &PyUnicode_Type) {
        type->tp_flags |= Py_TPFLAGS_UNICODE_SUBCLASS;
    }
    else if (type == &PyDict_Type) {
        type->tp_flags |= Py_TPFLAGS_DICT_SUBCLASS;
    }
    else if (type == &PyType_Type) {
        type->tp_flags |= Py_TPFLAGS_TYPE_SUBCLASS;
    }
    else if (PyExc_BaseException != NULL && (PyObject *)type == PyExc_BaseException) {
        type->tp_flags |= Py_TPFLAGS_BASE_EXC_SUBCLASS;
    }
}

static int
overrides_hash(PyTypeObject *type)
{
    PyObject *dict = type->tp_dict;
    int r = PyDict_Contains(dict, _Py_ID(__eq__));
    if (r == 0) {
        r = PyDict_Contains(dict, _Py_ID(__hash__));
    }
    return r;
}

/* A slot is copied from `base` only if base defines it itself (not by
   inheritance from its own base): the MRO walk then finds the right
   provider under multiple inheritance. */
#define SLOTDEFINED(SLOT) \
    (base->SLOT != 0 && (basebase == NULL || base->SLOT != basebase->SLOT))
#define COPYSLOT(SLOT)                                  \
    do {                                                \
        if (!type->SLOT && SLOTDEFINED(SLOT)) {         \
            type->SLOT = base->SLOT;                    \
        }                                               \
    } while (0)
#define COPYSUB(STRUCT, SLOT)                                               \
    do {                                                                    \
        if (!type->STRUCT->SLOT && base->STRUCT->SLOT &&                    \
            (basebase == NULL || basebase->STRUCT == NULL ||                \
             base->STRUCT->SLOT != basebase->STRUCT->SLOT)) {               \
            type->STRUCT->SLOT = base->STRUCT->SLOT;                        \
        }                                                                   \
    } while (0)

static void
inherit_number_slots(PyTypeObject *type, PyTypeObject *base, PyTypeObject *basebase)
{
#define COPYNUM(SLOT) COPYSUB(tp_as_number, SLOT)
    COPYNUM(nb_add);
    COPYNUM(nb_subtract);
    COPYNUM(nb_multiply);
    COPYNUM(nb_remainder);
    COPYNUM(nb_divmod);
    COPYNUM(nb_power);
    COPYNUM(nb_negative);
    COPYNUM(nb_positive);
    COPYNUM(nb_absolute);
    COPYNUM(nb_bool);
    COPYNUM(nb_invert);
    COPYNUM(nb_lshift);
    COPYNUM(nb_rshift);
    COPYNUM(nb_and);
    COPYNUM(nb_xor);
    COPYNUM(nb_or);
    COPYNUM(nb_int);
    COPYNUM(nb_float);
    COPYNUM(nb_inplace_add);
    COPYNUM(nb_inplace_subtract);
    COPYNUM(nb_inplace_multiply);
    COPYNUM(nb_inplace_remainder);
    COPYNUM(nb_inplace_power);
    COPYNUM(nb_inplace_lshift);
    COPYNUM(nb_inplace_rshift);
    COPYNUM(nb_inplace_and);
    COPYNUM(nb_inplace_xor);
    COPYNUM(nb_inplace_or);
    COPYNUM(nb_true_divide);
    COPYNUM(nb_floor_divide);
    COPYNUM(nb_inplace_true_divide);
    COPYNUM(nb_inplace_floor_divide);
    COPYNUM(nb_index);
    COPYNUM(nb_matrix_multiply);
    COPYNUM(nb_inplace_matrix_multiply);
#undef COPYNUM
}

static void
inherit_struct_slots(PyTypeObject *type, PyTypeObject *base, PyTypeObject *basebase)
{
    if (type->tp_as_async != NULL && base->tp_as_async != NULL) {
        COPYSUB(tp_as_async, am_await);
        COPYSUB(tp_as_async, am_aiter);
        COPYSUB(tp_as_async, am_anext);
        COPYSUB(tp_as_async, am_send);
    }
    if (type->tp_as_number != NULL && base->tp_as_number != NULL) {
        inherit_number_slots(type, base, basebase);
    }
    if (type->tp_as_sequence != NULL && base->tp_as_sequence != NULL) {
        COPYSUB(tp_as_sequence, sq_length);
        COPYSUB(tp_as_sequence, sq_concat);
        COPYSUB(tp_as_sequence, sq_repeat);
        COPYSUB(tp_as_sequence, sq_item);
        COPYSUB(tp_as_sequence, sq_ass_item);
        COPYSUB(tp_as_sequence, sq_contains);
        COPYSUB(tp_as_sequence, sq_inplace_concat);
        COPYSUB(tp_as_sequence, sq_inplace_repeat);
    }
    if (type->tp_as_mapping != NULL && base->tp_as_mapping != NULL) {
        COPYSUB(tp_as_mapping, mp_length);
        COPYSUB(tp_as_mapping, mp_subscript);
        COPYSUB(tp_as_mapping, mp_ass_subscript);
    }
    if (type->tp_as_buffer != NULL && base->tp_as_buffer != NULL) {
        COPYSUB(tp_as_buffer, bf_getbuffer);
        COPYSUB(tp_as_buffer, bf_releasebuffer);
    }
}

static int
inherit_slots(PyTypeObject *type, PyTypeObject *base)
{
    PyTypeObject *basebase = base->tp_base;
    inherit_struct_slots(type, base, basebase);

    COPYSLOT(tp_dealloc);
    if (type->tp_getattr == NULL && type->tp_getattro == NULL) {
        type->tp_getattr = base->tp_getattr;
        type->tp_getattro = base->tp_getattro;
    }
    if (type->tp_setattr == NULL && type->tp_setattro == NULL) {
        type->tp_setattr = base->tp_setattr;
        type->tp_setattro = base->tp_setattro;
    }
    COPYSLOT(tp_repr);
    /* Calls: instances keep vectorcall only where nobody can override
       __call__ later (immutable types without their own tp_call). */
    if (!type->tp_call && PyType_HasFeature(base, Py_TPFLAGS_HAVE_VECTORCALL) &&
        PyType_HasFeature(type, Py_TPFLAGS_IMMUTABLETYPE)) {
        type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
    }
    COPYSLOT(tp_vectorcall_offset);
    COPYSLOT(tp_call);
    COPYSLOT(tp_str);
    if (type->tp_richcompare == NULL && type->tp_hash == NULL) {
        int r = overrides_hash(type);
        if (r < 0) {
            return -1;
        }
        if (!r) {
            type->tp_richcompare = base->tp_richcompare;
            type->tp_hash = base->tp_hash;
        }
    }
    if (!type->tp_iter && SLOTDEFINED(tp_iter)) {
        type->tp_iter = base->tp_iter;
        if (type->_tp_iteritem == NULL) {
            type->_tp_iteritem = base->_tp_iteritem;
        }
    }
    COPYSLOT(tp_iternext);
    if (!type->tp_descr_get && SLOTDEFINED(tp_descr_get) &&
        PyType_HasFeature(base, Py_TPFLAGS_METHOD_DESCRIPTOR) &&
        PyType_HasFeature(type, Py_TPFLAGS_IMMUTABLETYPE)) {
        type->tp_flags |= Py_TPFLAGS_METHOD_DESCRIPTOR;
    }
    COPYSLOT(tp_descr_get);
    COPYSLOT(tp_descr_set);
    COPYSLOT(tp_dictoffset);
    COPYSLOT(tp_init);
    COPYSLOT(tp_alloc);
    COPYSLOT(tp_is_gc);
    COPYSLOT(tp_finalize);
    COPYSLOT(tp_del);
    if (PyType_IS_GC(type) == PyType_IS_GC(base)) {
        COPYSLOT(tp_free);
    }
    else if (PyType_IS_GC(type) && type->tp_free == NULL && base->tp_free == PyObject_Free) {
        /* A GC type below a non-GC one frees with the GC allocator. */
        type->tp_free = PyObject_GC_Del;
    }
    return 0;
}

#undef COPYSUB
#undef COPYSLOT
#undef SLOTDEFINED

static void
inherit_as_structs(PyTypeObject *type, PyTypeObject *base)
{
    if (type->tp_as_async == NULL) {
        type->tp_as_async = base->tp_as_async;
    }
    if (type->tp_as_number == NULL) {
        type->tp_as_number = base->tp_as_number;
    }
    if (type->tp_as_sequence == NULL) {
        type->tp_as_sequence = base->tp_as_sequence;
    }
    if (type->tp_as_mapping == NULL) {
        type->tp_as_mapping = base->tp_as_mapping;
    }
    if (type->tp_as_buffer == NULL) {
        type->tp_as_buffer = base->tp_as_buffer;
    }
}

static int
type_ready_inherit(PyTypeObject *type)
{
    PyTypeObject *base = type->tp_base;
    if (base != NULL) {
        inherit_special(type, base);
    }
    PyObject *mro = type->tp_mro;
    for (Py_ssize_t i = 1; i < PyTuple_GET_SIZE(mro); i++) {
        PyObject *b = PyTuple_GET_ITEM(mro, i);
        if (PyType_Check(b) && inherit_slots(type, (PyTypeObject *)b) < 0) {
            return -1;
        }
    }
    if (base != NULL) {
        inherit_as_structs(type, base);
    }
    if (type->tp_free == NULL) {
        type->tp_free = PyType_IS_GC(type) ? PyObject_GC_Del : PyObject_Free;
    }
    return 0;
}

/* No __hash__ after inheritance means "unhashable": say so in the dict
   too, so that hash(instance) raises and subclasses see __hash__ = None. */
static int
type_ready_set_hash(PyTypeObject *type)
{
    if (type->tp_hash != NULL) {
        return 0;
    }
    int rc = PyDict_Contains(type->tp_dict, _Py_ID(__hash__));
    if (rc < 0) {
        return -1;
    }
    if (rc == 0 && PyDict_SetItem(type->tp_dict, _Py_ID(__hash__), Py_None) < 0) {
        return -1;
    }
    type->tp_hash = PyObject_HashNotImplemented;
    return 0;
}

static int
type_ready_bases(PyTypeObject *type)
{
    PyTypeObject *base = type->tp_base;
    if (base == NULL && type != &PyBaseObject_Type) {
        base = &PyBaseObject_Type;
        if (PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
            type->tp_base = (PyTypeObject *)Py_NewRef(base);
        }
        else {
            type->tp_base = base;
        }
    }
    if (base != NULL && !PyType_HasFeature(base, Py_TPFLAGS_READY) && PyType_Ready(base) < 0) {
        return -1;
    }
    if (Py_TYPE(type) == NULL && base != NULL) {
        Py_SET_TYPE(type, Py_TYPE(base));
    }
    if (type->tp_bases == NULL) {
        type->tp_bases = base == NULL ? PyTuple_New(0) : PyTuple_Pack(1, base);
        if (type->tp_bases == NULL) {
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(type->tp_bases); i++) {
        PyObject *b = PyTuple_GET_ITEM(type->tp_bases, i);
        if (PyType_Check(b) && !PyType_HasFeature((PyTypeObject *)b, Py_TPFLAGS_READY) &&
            PyType_Ready((PyTypeObject *)b) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
type_ready(PyTypeObject *type)
{
    set_root_subclass_flag(type);
    if (type_ready_bases(type) < 0) {
        return -1;
    }
    if (type->tp_dict == NULL) {
        type->tp_dict = PyDict_New();
        if (type->tp_dict == NULL) {
            return -1;
        }
    }
    if (mro_internal(type) < 0) {
        return -1;
    }
    if (type_ready_set_new(type, type->tp_base) < 0) {
        return -1;
    }
    if (type_ready_fill_dict(type) < 0) {
        return -1;
    }
    if (type_ready_inherit(type) < 0) {
        return -1;
    }
    if (type_ready_set_hash(type) < 0) {
        return -1;
    }
    return add_to_bases_subclasses(type, type->tp_bases);
}

int
PyType_Ready(PyTypeObject *type)
{
    if (PyType_HasFeature(type, Py_TPFLAGS_READY)) {
        return 0;
    }
    if (PyType_HasFeature(type, Py_TPFLAGS_READYING)) {
        return 0;
    }
    type->tp_flags |= Py_TPFLAGS_READYING;
    if (!PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
        type->tp_flags |= Py_TPFLAGS_IMMUTABLETYPE;
    }
    if (type_ready(type) < 0) {
        type->tp_flags &= ~Py_TPFLAGS_READYING;
        return -1;
    }
    type->tp_flags = (type->tp_flags & ~Py_TPFLAGS_READYING) | Py_TPFLAGS_READY;
    return 0;
}

int
_PyStaticType_InitBuiltin(PyTypeObject *type)
{
    if (!PyType_HasFeature(type, Py_TPFLAGS_READY) && PyType_Ready(type) < 0) {
        return -1;
    }
    if (type->tp_dict == NULL || _Py_IsImmortal(type->tp_dict)) {
        return 0; /* done before */
    }
    /* A static type lives as long as the process, and so does what it
       owns: its containers and what its dict holds become immortal, so
       that nothing of it counts as left over at exit (the pydebug leak
       check).  C modules ready their static types through here too. */
    Py_ssize_t pos = 0;
    PyObject *name, *attr;
    while (PyDict_Next(type->tp_dict, &pos, &name, &attr)) {
        _Py_SetImmortal(name);
        _Py_SetImmortal(attr);
    }
    _Py_SetImmortal(type->tp_dict);
    _Py_SetImmortal(type->tp_bases);
    _Py_SetImmortal(type->tp_mro);
    return 0;
}

/* ---- type: attribute access --------------------------------------------------------

   Attributes of a class: a data descriptor on the metaclass wins, then
   the class's own MRO (descriptors there are bound with obj=None), then
   anything else on the metaclass. */

PyObject *
_Py_type_getattro_impl(PyTypeObject *type, PyObject *name, int suppress)
{
    PyTypeObject *metatype = Py_TYPE(type);
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "attribute name must be string, not '%.200s'",
                     Py_TYPE(name)->tp_name);
        return NULL;
    }
    if (type->tp_dict == NULL && PyType_Ready(type) < 0) {
        return NULL;
    }
    PyObject *meta_attribute = _PyType_LookupRef(metatype, name);
    descrgetfunc meta_get = NULL;
    PyObject *res;
    if (meta_attribute != NULL) {
        meta_get = Py_TYPE(meta_attribute)->tp_descr_get;
        if (meta_get != NULL && PyDescr_IsData(meta_attribute)) {
            res = meta_get(meta_attribute, (PyObject *)type, (PyObject *)metatype);
            Py_DECREF(meta_attribute);
            return res;
        }
    }
    PyObject *attribute = _PyType_LookupRef(type, name);
    if (attribute != NULL) {
        Py_XDECREF(meta_attribute);
        descrgetfunc local_get = Py_TYPE(attribute)->tp_descr_get;
        if (local_get != NULL) {
            res = local_get(attribute, NULL, (PyObject *)type);
            Py_DECREF(attribute);
            return res;
        }
        return attribute;
    }
    if (meta_get != NULL) {
        res = meta_get(meta_attribute, (PyObject *)type, (PyObject *)metatype);
        Py_DECREF(meta_attribute);
        return res;
    }
    if (meta_attribute != NULL) {
        return meta_attribute;
    }
    if (!suppress) {
        PyErr_Format(PyExc_AttributeError, "type object '%.100s' has no attribute '%U'",
                     type->tp_name, name);
    }
    return NULL;
}

PyObject *
_Py_type_getattro(PyObject *type, PyObject *name)
{
    return _Py_type_getattro_impl((PyTypeObject *)type, name, 0);
}

static int
type_setattro(PyObject *self, PyObject *name, PyObject *value)
{
    PyTypeObject *type = (PyTypeObject *)self;
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "attribute name must be string, not '%.200s'",
                     Py_TYPE(name)->tp_name);
        return -1;
    }
    if (PyType_HasFeature(type, Py_TPFLAGS_IMMUTABLETYPE)) {
        PyErr_Format(PyExc_TypeError, "cannot set %R attribute of immutable type '%s'", name,
                     type->tp_name);
        return -1;
    }
    Py_INCREF(name);
    if (PyUnicode_CheckExact(name)) {
        PyUnicode_InternInPlace(&name);
    }
    int res = _PyObject_GenericSetAttrWithDict(self, name, value, NULL);
    if (res == 0) {
        PyType_Modified(type);
        if (_PyType_IsSlotName(name)) {
            res = _PyType_UpdateSlot(type, name);
        }
    }
    Py_DECREF(name);
    return res;
}

/* ---- type: getsets ------------------------------------------------------------------ */

static int
check_set_special_type_attr(PyTypeObject *type, PyObject *value, const char *name)
{
    if (PyType_HasFeature(type, Py_TPFLAGS_IMMUTABLETYPE)) {
        PyErr_Format(PyExc_TypeError, "cannot set '%s' attribute of immutable type '%s'", name,
                     type->tp_name);
        return 0;
    }
    if (value == NULL) {
        PyErr_Format(PyExc_TypeError, "cannot delete '%s' attribute of immutable type '%s'",
                     name, type->tp_name);
        return 0;
    }
    return 1;
}

static int
type_set_name(PyTypeObject *type, PyObject *value, void *context)
{
    if (!check_set_special_type_attr(type, value, "__name__")) {
        return -1;
    }
    if (!PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "can only assign string to %s.__name__, not '%s'",
                     type->tp_name, Py_TYPE(value)->tp_name);
        return -1;
    }
    Py_ssize_t size;
    const char *tp_name = PyUnicode_AsUTF8AndSize(value, &size);
    if (tp_name == NULL) {
        return -1;
    }
    if (strlen(tp_name) != (size_t)size) {
        PyErr_SetString(PyExc_ValueError, "type name must not contain null characters");
        return -1;
    }
    PyHeapTypeObject *et = (PyHeapTypeObject *)type;
    char *copy = PyMem_Malloc((size_t)size + 1);
    if (copy == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(copy, tp_name, (size_t)size + 1);
    PyMem_Free(et->_ht_tpname);
    et->_ht_tpname = copy;
    type->tp_name = copy;
    Py_SETREF(et->ht_name, Py_NewRef(value));
    return 0;
}

static int
type_set_qualname(PyTypeObject *type, PyObject *value, void *context)
{
    if (!check_set_special_type_attr(type, value, "__qualname__")) {
        return -1;
    }
    if (!PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "can only assign string to %s.__qualname__, not '%s'",
                     type->tp_name, Py_TYPE(value)->tp_name);
        return -1;
    }
    Py_SETREF(((PyHeapTypeObject *)type)->ht_qualname, Py_NewRef(value));
    return 0;
}

static PyObject *
type_module(PyTypeObject *type, void *context)
{
    return _PyType_GetModuleName(type);
}

static int
type_set_module(PyTypeObject *type, PyObject *value, void *context)
{
    if (!check_set_special_type_attr(type, value, "__module__")) {
        return -1;
    }
    PyType_Modified(type);
    return PyDict_SetItem(type->tp_dict, _Py_ID(__module__), value);
}

static PyObject *
type_get_bases(PyTypeObject *type, void *context)
{
    return Py_NewRef(type->tp_bases);
}

static PyObject *
type_get_mro(PyTypeObject *type, void *context)
{
    return Py_NewRef(type->tp_mro == NULL ? Py_None : type->tp_mro);
}

static int
compatible_for_assignment(PyTypeObject *oldto, PyTypeObject *newto, const char *attr)
{
    if (newto->tp_free != oldto->tp_free) {
        PyErr_Format(PyExc_TypeError, "%s assignment: '%s' deallocator differs from '%s'", attr,
                     newto->tp_name, oldto->tp_name);
        return 0;
    }
    PyTypeObject *newbase = solid_base(newto), *oldbase = solid_base(oldto);
    if (newbase != oldbase &&
        (newbase->tp_base != oldbase->tp_base || extra_ivars(newbase, oldbase) ||
         extra_ivars(oldbase, newbase))) {
        goto differs;
    }
    if (newto->tp_basicsize != oldto->tp_basicsize || newto->tp_itemsize != oldto->tp_itemsize ||
        newto->tp_dictoffset != oldto->tp_dictoffset ||
        newto->tp_weaklistoffset != oldto->tp_weaklistoffset ||
        PyType_IS_GC(newto) != PyType_IS_GC(oldto)) {
        goto differs;
    }
    return 1;
differs:
    PyErr_Format(PyExc_TypeError, "%s assignment: '%s' object layout differs from '%s'", attr,
                 newto->tp_name, oldto->tp_name);
    return 0;
}

int
_PyObject_SetClass(PyObject *self, PyObject *value)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "can't delete __class__ attribute");
        return -1;
    }
    if (!PyType_Check(value)) {
        PyErr_Format(PyExc_TypeError, "__class__ must be set to a class, not '%s' object",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    PyTypeObject *newto = (PyTypeObject *)value, *oldto = Py_TYPE(self);
    int both_mutable = !PyType_HasFeature(newto, Py_TPFLAGS_IMMUTABLETYPE) &&
                       !PyType_HasFeature(oldto, Py_TPFLAGS_IMMUTABLETYPE);
    int both_modules = PyType_IsSubtype(newto, &PyModule_Type) &&
                       PyType_IsSubtype(oldto, &PyModule_Type);
    if (!both_mutable && !both_modules) {
        PyErr_SetString(PyExc_TypeError,
                        "__class__ assignment only supported for mutable types or ModuleType "
                        "subclasses");
        return -1;
    }
    if (!compatible_for_assignment(oldto, newto, "__class__")) {
        return -1;
    }
    if (PyType_HasFeature(newto, Py_TPFLAGS_HEAPTYPE)) {
        Py_INCREF(newto);
    }
    Py_SET_TYPE(self, newto);
    if (PyType_HasFeature(oldto, Py_TPFLAGS_HEAPTYPE)) {
        Py_DECREF(oldto);
    }
    return 0;
}

static int update_subclass_mros(PyTypeObject *type);

static int
check_new_bases(PyTypeObject *type, PyObject *value)
{
    if (!check_set_special_type_attr(type, value, "__bases__")) {
        return -1;
    }
    if (!PyTuple_Check(value)) {
        PyErr_Format(PyExc_TypeError, "can only assign tuple to %s.__bases__, not %s",
                     type->tp_name, Py_TYPE(value)->tp_name);
        return -1;
    }
    if (PyTuple_GET_SIZE(value) == 0) {
        PyErr_Format(PyExc_TypeError, "can only assign non-empty tuple to %s.__bases__, not ()",
                     type->tp_name);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(value); i++) {
        PyObject *ob = PyTuple_GET_ITEM(value, i);
        if (!PyType_Check(ob)) {
            PyErr_Format(PyExc_TypeError, "%s.__bases__ must be tuple of classes, not '%s'",
                         type->tp_name, Py_TYPE(ob)->tp_name);
            return -1;
        }
        if (PyType_IsSubtype((PyTypeObject *)ob, type)) {
            PyErr_SetString(PyExc_TypeError, "a __bases__ item causes an inheritance cycle");
            return -1;
        }
    }
    return 0;
}

static int
type_set_bases(PyTypeObject *type, PyObject *value, void *context)
{
    if (check_new_bases(type, value) < 0) {
        return -1;
    }
    PyTypeObject *new_base = _PyType_BestBase(value);
    if (new_base == NULL || !compatible_for_assignment(type->tp_base, new_base, "__bases__")) {
        return -1;
    }
    PyObject *old_bases = type->tp_bases;
    PyTypeObject *old_base = type->tp_base;
    type->tp_bases = Py_NewRef(value);
    type->tp_base = (PyTypeObject *)Py_NewRef(new_base);
    if (mro_internal(type) < 0 || update_subclass_mros(type) < 0) {
        Py_SETREF(type->tp_bases, old_bases);
        Py_SETREF(type->tp_base, old_base);
        mro_internal(type);
        return -1;
    }
    remove_from_bases_subclasses(type, old_bases);
    if (add_to_bases_subclasses(type, value) < 0) {
        Py_DECREF(old_bases);
        Py_DECREF(old_base);
        return -1;
    }
    Py_DECREF(old_bases);
    Py_DECREF(old_base);
    _PyType_FixupSlotDispatchers(type);
    return 0;
}

static int
update_subclass_mros(PyTypeObject *type)
{
    subclass_array *arr = (subclass_array *)type->tp_subclasses;
    if (arr == NULL) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < arr->len; i++) {
        PyTypeObject *sub = arr->items[i];
        if (mro_internal(sub) < 0 || update_subclass_mros(sub) < 0) {
            return -1;
        }
        _PyType_FixupSlotDispatchers(sub);
    }
    return 0;
}

static PyObject *
type_dict(PyTypeObject *type, void *context)
{
    if (type->tp_dict == NULL) {
        Py_RETURN_NONE;
    }
    return PyDictProxy_New(type->tp_dict);
}

/* Static types keep a signature line in front of their doc, separated by
   "\n--\n\n"; __doc__ shows what follows it. */
static const char *
skip_signature(const char *doc)
{
    const char *end = strstr(doc, "\n--\n\n");
    if (end == NULL) {
        return doc;
    }
    const char *paren = strchr(doc, '(');
    if (paren == NULL || paren > end) {
        return doc;
    }
    return end + 5;
}

static PyObject *
type_get_doc(PyTypeObject *type, void *context)
{
    if (!PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE) && type->tp_doc != NULL) {
        return PyUnicode_FromString(skip_signature(type->tp_doc));
    }
    PyObject *result;
    if (PyDict_GetItemRef(type->tp_dict, _Py_ID(__doc__), &result) <= 0) {
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
    }
    descrgetfunc get = Py_TYPE(result)->tp_descr_get;
    if (get != NULL) {
        Py_SETREF(result, get(result, NULL, (PyObject *)type));
    }
    return result;
}

static int
type_set_doc(PyTypeObject *type, PyObject *value, void *context)
{
    if (!check_set_special_type_attr(type, value, "__doc__")) {
        return -1;
    }
    PyType_Modified(type);
    return PyDict_SetItem(type->tp_dict, _Py_ID(__doc__), value);
}

static PyObject *
type_get_text_signature(PyTypeObject *type, void *context)
{
    if (PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE) || type->tp_doc == NULL) {
        Py_RETURN_NONE;
    }
    const char *doc = type->tp_doc;
    const char *start = strchr(doc, '(');
    const char *end = strstr(doc, "\n--\n\n");
    if (start == NULL || end == NULL || start > end) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromStringAndSize(start, end - start);
}

static PyObject *
type_abstractmethods(PyTypeObject *type, void *context)
{
    PyObject *mod = NULL;
    /* `type` itself has an __abstractmethods__ descriptor; its instances
       get the attribute only when it was set. */
    if (type != &PyType_Type && PyDict_GetItemRef(type->tp_dict, _Py_ID(__abstractmethods__), &mod) < 0) {
        return NULL;
    }
    if (mod == NULL) {
        PyErr_SetObject(PyExc_AttributeError, _Py_ID(__abstractmethods__));
    }
    return mod;
}

static int
type_set_abstractmethods(PyTypeObject *type, PyObject *value, void *context)
{
    int abstract, res;
    if (value != NULL) {
        abstract = PyObject_IsTrue(value);
        if (abstract < 0) {
            return -1;
        }
        res = PyDict_SetItem(type->tp_dict, _Py_ID(__abstractmethods__), value);
    }
    else {
        abstract = 0;
        res = PyDict_DelItem(type->tp_dict, _Py_ID(__abstractmethods__));
        if (res < 0 && PyErr_ExceptionMatches(PyExc_KeyError)) {
            PyErr_SetObject(PyExc_AttributeError, _Py_ID(__abstractmethods__));
            return -1;
        }
    }
    if (res == 0) {
        PyType_Modified(type);
        if (abstract) {
            type->tp_flags |= Py_TPFLAGS_IS_ABSTRACT;
        }
        else {
            type->tp_flags &= ~Py_TPFLAGS_IS_ABSTRACT;
        }
    }
    return res;
}

/* PEP 649: the compiler stores an __annotate__ function in the class
   namespace; __annotations__ calls it once (format 1, VALUE) and caches
   the result in __annotations_cache__. */
static PyObject *
type_get_annotate(PyTypeObject *type, void *context)
{
    if (!PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
        PyErr_Format(PyExc_AttributeError, "type object '%s' has no attribute '__annotate__'",
                     type->tp_name);
        return NULL;
    }
    PyObject *annotate;
    int rc = PyDict_GetItemRef(type->tp_dict, _Py_ID(__annotate_func__), &annotate);
    if (rc == 0) {
        rc = PyDict_GetItemRef(type->tp_dict, _Py_ID(__annotate__), &annotate);
    }
    if (rc < 0) {
        return NULL;
    }
    if (rc == 0) {
        Py_RETURN_NONE;
    }
    descrgetfunc get = Py_TYPE(annotate)->tp_descr_get;
    if (get != NULL) {
        Py_SETREF(annotate, get(annotate, NULL, (PyObject *)type));
    }
    return annotate;
}

static int
type_set_annotate(PyTypeObject *type, PyObject *value, void *context)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "cannot delete __annotate__ attribute");
        return -1;
    }
    if (!check_set_special_type_attr(type, value, "__annotate__")) {
        return -1;
    }
    if (value != Py_None && !PyCallable_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__annotate__ must be callable or None");
        return -1;
    }
    PyType_Modified(type);
    if (PyDict_SetItem(type->tp_dict, _Py_ID(__annotate_func__), value) < 0) {
        return -1;
    }
    if (value != Py_None) {
        int rc = PyDict_Pop(type->tp_dict, _Py_ID(__annotations_cache__), NULL);
        return rc < 0 ? -1 : 0;
    }
    return 0;
}

static PyObject *
call_annotate(PyTypeObject *type)
{
    PyObject *annotate = type_get_annotate(type, NULL);
    if (annotate == NULL) {
        return NULL;
    }
    if (annotate == Py_None) {
        Py_DECREF(annotate);
        return PyDict_New();
    }
    PyObject *one = PyLong_FromLong(1);
    PyObject *res = one == NULL ? NULL : PyObject_CallOneArg(annotate, one);
    Py_XDECREF(one);
    Py_DECREF(annotate);
    if (res != NULL && !PyDict_Check(res)) {
        PyErr_Format(PyExc_TypeError, "__annotate__ returned non-dict of type '%.100s'",
                     Py_TYPE(res)->tp_name);
        Py_CLEAR(res);
    }
    return res;
}

static PyObject *
type_get_annotations(PyTypeObject *type, void *context)
{
    if (!PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
        PyErr_Format(PyExc_AttributeError, "type object '%s' has no attribute '__annotations__'",
                     type->tp_name);
        return NULL;
    }
    PyObject *annotations;
    int rc = PyDict_GetItemRef(type->tp_dict, _Py_ID(__annotations__), &annotations);
    if (rc == 0) {
        rc = PyDict_GetItemRef(type->tp_dict, _Py_ID(__annotations_cache__), &annotations);
    }
    if (rc < 0) {
        return NULL;
    }
    if (rc > 0) {
        descrgetfunc get = Py_TYPE(annotations)->tp_descr_get;
        if (get != NULL) {
            Py_SETREF(annotations, get(annotations, NULL, (PyObject *)type));
        }
        return annotations;
    }
    annotations = call_annotate(type);
    if (annotations == NULL) {
        return NULL;
    }
    if (PyDict_SetItem(type->tp_dict, _Py_ID(__annotations_cache__), annotations) < 0) {
        Py_DECREF(annotations);
        return NULL;
    }
    PyType_Modified(type);
    return annotations;
}

static int
type_set_annotations(PyTypeObject *type, PyObject *value, void *context)
{
    if (PyType_HasFeature(type, Py_TPFLAGS_IMMUTABLETYPE)) {
        PyErr_Format(PyExc_TypeError, "cannot set '__annotations__' attribute of immutable type '%s'",
                     type->tp_name);
        return -1;
    }
    int rc;
    if (value != NULL) {
        rc = PyDict_SetItem(type->tp_dict, _Py_ID(__annotations__), value);
    }
    else {
        rc = PyDict_Pop(type->tp_dict, _Py_ID(__annotations__), NULL);
        int rc2 = PyDict_Pop(type->tp_dict, _Py_ID(__annotations_cache__), NULL);
        if (rc == 0 && rc2 == 0) {
            PyErr_SetString(PyExc_AttributeError, "__annotations__");
            return -1;
        }
        rc = (rc < 0 || rc2 < 0) ? -1 : 0;
    }
    if (rc == 0 && value != NULL) {
        rc = PyDict_Pop(type->tp_dict, _Py_ID(__annotate_func__), NULL) < 0 ? -1 : 0;
        if (rc == 0) {
            rc = PyDict_SetItem(type->tp_dict, _Py_ID(__annotate_func__), Py_None);
        }
    }
    PyType_Modified(type);
    return rc;
}

static PyObject *
type_get_type_params(PyTypeObject *type, void *context)
{
    if (type == &PyType_Type) {
        return PyTuple_New(0);
    }
    PyObject *params;
    if (PyDict_GetItemRef(type->tp_dict, _Py_ID(__type_params__), &params) == 0) {
        return PyTuple_New(0);
    }
    return params;
}

static int
type_set_type_params(PyTypeObject *type, PyObject *value, void *context)
{
    if (!check_set_special_type_attr(type, value, "__type_params__")) {
        return -1;
    }
    if (!PyTuple_Check(value)) {
        PyErr_Format(PyExc_TypeError, "__type_params__ must be set to a tuple, not %s",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    PyType_Modified(type);
    return PyDict_SetItem(type->tp_dict, _Py_ID(__type_params__), value);
}

static PyGetSetDef type_getsets[] = {
    {"__name__", (getter)type_name, (setter)type_set_name, NULL, NULL},
    {"__qualname__", (getter)type_qualname, (setter)type_set_qualname, NULL, NULL},
    {"__bases__", (getter)type_get_bases, (setter)type_set_bases, NULL, NULL},
    {"__mro__", (getter)type_get_mro, NULL, NULL, NULL},
    {"__module__", (getter)type_module, (setter)type_set_module, NULL, NULL},
    {"__abstractmethods__", (getter)type_abstractmethods, (setter)type_set_abstractmethods, NULL,
     NULL},
    {"__dict__", (getter)type_dict, NULL, NULL, NULL},
    {"__doc__", (getter)type_get_doc, (setter)type_set_doc, NULL, NULL},
    {"__text_signature__", (getter)type_get_text_signature, NULL, NULL, NULL},
    {"__annotations__", (getter)type_get_annotations, (setter)type_set_annotations, NULL, NULL},
    {"__annotate__", (getter)type_get_annotate, (setter)type_set_annotate, NULL, NULL},
    {"__type_params__", (getter)type_get_type_params, (setter)type_set_type_params, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef type_members[] = {
    {"__basicsize__", Py_T_PYSSIZET, offsetof(PyTypeObject, tp_basicsize), Py_READONLY, NULL},
    {"__itemsize__", Py_T_PYSSIZET, offsetof(PyTypeObject, tp_itemsize), Py_READONLY, NULL},
    {"__flags__", Py_T_ULONG, offsetof(PyTypeObject, tp_flags), Py_READONLY, NULL},
    {"__weakrefoffset__", Py_T_PYSSIZET, offsetof(PyTypeObject, tp_weaklistoffset), Py_READONLY,
     NULL},
    {"__base__", _Py_T_OBJECT, offsetof(PyTypeObject, tp_base), Py_READONLY, NULL},
    {"__dictoffset__", Py_T_PYSSIZET, offsetof(PyTypeObject, tp_dictoffset), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

/* ---- type: methods ---------------------------------------------------------------------- */

static PyObject *
type_subclasses(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return _PyType_GetSubclasses((PyTypeObject *)self);
}

static PyObject *
type_prepare(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return PyDict_New();
}

static PyObject *
type_instancecheck(PyObject *self, PyObject *inst)
{
    int r = _PyObject_RealIsInstance(inst, self);
    if (r < 0) {
        return NULL;
    }
    return PyBool_FromLong(r);
}

static PyObject *
type_subclasscheck(PyObject *self, PyObject *sub)
{
    int r = _PyObject_RealIsSubclass(sub, self);
    if (r < 0) {
        return NULL;
    }
    return PyBool_FromLong(r);
}

/* Merge the __dict__ of aclass and of its bases, recursively, into dict:
   what dir() shows for a class. */
static int
merge_class_dict(PyObject *dict, PyObject *aclass)
{
    PyObject *classdict, *bases;
    if (PyObject_GetOptionalAttr(aclass, _Py_ID(__dict__), &classdict) < 0) {
        return -1;
    }
    if (classdict != NULL) {
        int status = PyDict_Update(dict, classdict);
        Py_DECREF(classdict);
        if (status < 0) {
            return -1;
        }
    }
    if (PyObject_GetOptionalAttr(aclass, _Py_ID(__bases__), &bases) < 0) {
        return -1;
    }
    if (bases == NULL) {
        return 0;
    }
    Py_ssize_t n = PySequence_Size(bases);
    if (n < 0) {
        Py_DECREF(bases);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *base = PySequence_GetItem(bases, i);
        if (base == NULL) {
            Py_DECREF(bases);
            return -1;
        }
        int status = merge_class_dict(dict, base);
        Py_DECREF(base);
        if (status < 0) {
            Py_DECREF(bases);
            return -1;
        }
    }
    Py_DECREF(bases);
    return 0;
}

int
_PyType_MergeClassDict(PyObject *dict, PyObject *aclass)
{
    return merge_class_dict(dict, aclass);
}

static PyObject *
type_dir(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *dict = PyDict_New();
    if (dict == NULL) {
        return NULL;
    }
    PyObject *res = NULL;
    if (merge_class_dict(dict, self) == 0) {
        res = PyDict_Keys(dict);
    }
    Py_DECREF(dict);
    return res;
}

static PyObject *
type_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyTypeObject *type = (PyTypeObject *)self;
    size_t size;
    if (PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) {
        size = sizeof(PyHeapTypeObject) + (size_t)Py_SIZE(type) * sizeof(PyMemberDef);
    }
    else {
        size = sizeof(PyTypeObject);
    }
    return PyLong_FromSize_t(size);
}

static PyMethodDef type_methods[] = {
    {"mro", type_mro_method, METH_NOARGS, "Return a type's method resolution order."},
    {"__subclasses__", type_subclasses, METH_NOARGS,
     "Return a list of immediate subclasses."},
    {"__prepare__", _PyCFunction_CAST(type_prepare), METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "Create the namespace for the class statement"},
    {"__instancecheck__", type_instancecheck, METH_O,
     "Check if an object is an instance."},
    {"__subclasscheck__", type_subclasscheck, METH_O, "Check if a class is a subclass."},
    {"__dir__", type_dir, METH_NOARGS, "Specialized __dir__ implementation for types."},
    {"__sizeof__", type_sizeof, METH_NOARGS, "Return memory consumption of the type object."},
    {NULL, NULL, 0, NULL},
};

/* ---- type: repr, call, lifetime ---------------------------------------------------- */

static PyObject *
type_repr(PyObject *self)
{
    PyTypeObject *type = (PyTypeObject *)self;
    if (type->tp_name == NULL) {
        return PyUnicode_FromFormat("<class at %p>", (void *)type);
    }
    PyObject *mod = type_module(type, NULL);
    if (mod == NULL) {
        PyErr_Clear();
    }
    else if (!PyUnicode_Check(mod)) {
        Py_CLEAR(mod);
    }
    PyObject *name = type_qualname(type, NULL);
    if (name == NULL) {
        Py_XDECREF(mod);
        return NULL;
    }
    PyObject *res;
    if (mod != NULL && !_PyUnicode_EqualToASCIIString(mod, "builtins")) {
        res = PyUnicode_FromFormat("<class '%U.%U'>", mod, name);
    }
    else {
        res = PyUnicode_FromFormat("<class '%s'>", type->tp_name);
    }
    Py_XDECREF(mod);
    Py_DECREF(name);
    return res;
}

static PyObject *
type_call(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyTypeObject *type = (PyTypeObject *)self;
    PyThreadState *tstate = _PyThreadState_GET();

    /* type(x) is the type of x. */
    if (type == &PyType_Type) {
        Py_ssize_t nargs = PyTuple_GET_SIZE(args);
        if (nargs == 1 && (kwds == NULL || !PyDict_GET_SIZE(kwds))) {
            return Py_NewRef(Py_TYPE(PyTuple_GET_ITEM(args, 0)));
        }
        if (nargs != 3) {
            PyErr_SetString(PyExc_TypeError, "type() takes 1 or 3 arguments");
            return NULL;
        }
    }
    if (type->tp_new == NULL) {
        PyErr_Format(PyExc_TypeError, "cannot create '%s' instances", type->tp_name);
        return NULL;
    }
    PyObject *obj = type->tp_new(type, args, kwds);
    obj = _Py_CheckFunctionResult(tstate, self, obj, NULL);
    if (obj == NULL) {
        return NULL;
    }
    /* __new__ may return something else entirely; only initialise our own
       instances. */
    if (!PyObject_TypeCheck(obj, type)) {
        return obj;
    }
    type = Py_TYPE(obj);
    if (type->tp_init != NULL) {
        int res = type->tp_init(obj, args, kwds);
        if (res < 0) {
            Py_DECREF(obj);
            return NULL;
        }
    }
    return obj;
}

static PyObject *
type_vectorcall(PyObject *metatype, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs == 1 && metatype == (PyObject *)&PyType_Type &&
        (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0)) {
        return Py_NewRef(Py_TYPE(args[0]));
    }
    return _PyObject_MakeTpCall(metatype, args, nargs, kwnames);
}

static void
type_dealloc(PyObject *self)
{
    PyTypeObject *type = (PyTypeObject *)self;
    PyHeapTypeObject *et = (PyHeapTypeObject *)type;
    assert(PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE));
    PyObject_GC_UnTrack(self);
    if (type->tp_bases != NULL) {
        remove_from_bases_subclasses(type, type->tp_bases);
    }
    if (type->tp_weaklist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    Py_XDECREF(type->tp_base);
    Py_XDECREF(type->tp_dict);
    Py_XDECREF(type->tp_bases);
    Py_XDECREF(type->tp_mro);
    Py_XDECREF(type->tp_cache);
    PyMem_Free(type->tp_subclasses);
    PyMem_Free((char *)type->tp_doc);
    Py_XDECREF(et->ht_name);
    Py_XDECREF(et->ht_qualname);
    Py_XDECREF(et->ht_slots);
    Py_XDECREF(et->ht_module);
    PyMem_Free(et->_ht_tpname);
    Py_TYPE(type)->tp_free(self);
}

/* The references a heap type owns, by offset, so that traversal is one
   loop (static types own nothing the collector may free). */
static const size_t heap_type_references[] = {
    offsetof(PyTypeObject, tp_dict),
    offsetof(PyTypeObject, tp_cache),
    offsetof(PyTypeObject, tp_mro),
    offsetof(PyTypeObject, tp_bases),
    offsetof(PyTypeObject, tp_base),
    offsetof(PyHeapTypeObject, ht_module),
};

/* Not Py_TYPE(type): a class of a heap metaclass is traversed by the
   metaclass's subtype_traverse, which visits the metaclass once and then
   calls us; visiting it here too would count that reference twice, and
   the collector would clear a live metaclass. */
static int
type_traverse(PyObject *self, visitproc visit, void *arg)
{
    if (!PyType_HasFeature((PyTypeObject *)self, Py_TPFLAGS_HEAPTYPE)) {
        return 0;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(heap_type_references); i++) {
        PyObject *ref = *(PyObject **)((char *)self + heap_type_references[i]);
        if (ref != NULL) {
            int err = visit(ref, arg);
            if (err) {
                return err;
            }
        }
    }
    return 0;
}

static int
type_clear(PyObject *self)
{
    PyTypeObject *type = (PyTypeObject *)self;
    PyType_Modified(type);
    if (type->tp_dict != NULL) {
        PyDict_Clear(type->tp_dict);
    }
    Py_CLEAR(((PyHeapTypeObject *)type)->ht_module);
    Py_CLEAR(type->tp_mro);
    return 0;
}

static int
type_is_gc(PyObject *type)
{
    return PyType_HasFeature((PyTypeObject *)type, Py_TPFLAGS_HEAPTYPE);
}

/* type.__init__ only checks the call shape; type.__new__ did the work. */
static int
type_init(PyObject *cls, PyObject *args, PyObject *kwds)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    const char *complaint = NULL;
    if (n != 1 && n != 3) {
        complaint = "type.__init__() takes 1 or 3 arguments";
    }
    else if (n == 1 && kwds != NULL && PyDict_GET_SIZE(kwds) > 0) {
        complaint = "type.__init__() takes no keyword arguments";
    }
    if (complaint != NULL) {
        PyErr_SetString(PyExc_TypeError, complaint);
        return -1;
    }
    return 0;
}

/* `int | str` makes a union (typing.Union, Objects/unionobject.c). */
static PyObject *
type_or(PyObject *self, PyObject *other)
{
    return _Py_union_type_or(self, other);
}

static PyNumberMethods type_as_number = {
    .nb_or = type_or,
};

PyTypeObject PyType_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "type",
    .tp_basicsize = sizeof(PyHeapTypeObject),
    .tp_itemsize = sizeof(PyMemberDef),
    .tp_dealloc = type_dealloc,
    .tp_vectorcall_offset = offsetof(PyTypeObject, tp_vectorcall),
    .tp_repr = type_repr,
    .tp_as_number = &type_as_number,
    .tp_call = type_call,
    .tp_getattro = _Py_type_getattro,
    .tp_setattro = type_setattro,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE |
                Py_TPFLAGS_TYPE_SUBCLASS | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "type(object) -> the object's type\n"
              "type(name, bases, dict, **kwds) -> a new type",
    .tp_traverse = type_traverse,
    .tp_clear = type_clear,
    .tp_weaklistoffset = offsetof(PyTypeObject, tp_weaklist),
    .tp_methods = type_methods,
    .tp_members = type_members,
    .tp_getset = type_getsets,
    .tp_base = &PyBaseObject_Type,
    .tp_dictoffset = offsetof(PyTypeObject, tp_dict),
    .tp_init = type_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = _PyType_New,
    .tp_free = PyObject_GC_Del,
    .tp_is_gc = type_is_gc,
    .tp_vectorcall = type_vectorcall,
};
