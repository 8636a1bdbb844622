/* The _functools module: the C side of functools.

   reduce; cmp_to_key and its key objects; partial with 3.14's Placeholder
   (positions left open for the call to fill); and _lru_cache_wrapper, the
   callable that lru_cache() and cache() return.  functools.py wraps these
   (update_wrapper, cache_parameters) and keeps pure-Python versions for
   when this module is missing. */

#include "Python.h"
#include "pycore_object.h"
#include "structmember.h"

/* cls[item] gives a types.GenericAlias, once the runtime has one. */
#ifdef Py_GENERICALIASOBJECT_H
#define CLASS_GETITEM_ENTRY \
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "Subscripting gives a GenericAlias."},
#else
#define CLASS_GETITEM_ENTRY
#endif

/* ---- reduce(function, iterable, /[, initial]) -------------------------------------------- */

static PyObject *
functools_reduce(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "", "initial", NULL};
    PyObject *argv[3];
    if (nargs < 2 && !_PyArg_CheckPositional("reduce", nargs, 2, 3)) {
        return NULL;
    }
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "reduce", kwlist, 2, 3, 0, argv)) {
        return NULL;
    }
    PyObject *func = argv[0];
    PyObject *it = PyObject_GetIter(argv[1]);
    if (it == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_SetString(PyExc_TypeError, "reduce() arg 2 must support iteration");
        }
        return NULL;
    }
    PyObject *acc = argv[2] ? Py_NewRef(argv[2]) : NULL;
    PyObject *item;
    int r;
    while ((r = PyIter_NextItem(it, &item)) > 0) {
        if (acc == NULL) {
            acc = item;
            continue;
        }
        PyObject *pair[2] = {acc, item};
        PyObject *next = PyObject_Vectorcall(func, pair, 2, NULL);
        Py_DECREF(item);
        Py_SETREF(acc, next);
        if (acc == NULL) {
            r = -1;
            break;
        }
    }
    Py_DECREF(it);
    if (r < 0) {
        Py_XDECREF(acc);
        return NULL;
    }
    if (acc == NULL) {
        PyErr_SetString(PyExc_TypeError, "reduce() of empty iterable with no initial value");
    }
    return acc;
}

/* ---- cmp_to_key ------------------------------------------------------------------------
   One type serves twice: cmp_to_key(cmp) returns a key object with no
   `obj`; calling any key object with a value makes one holding it.  Key
   objects order themselves by cmp(a.obj, b.obj) against zero. */

typedef struct {
    PyObject_HEAD
    PyObject *cmp;
    PyObject *obj;
    vectorcallfunc vectorcall;
} keyobject;

static PyObject *key_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames);

static PyTypeObject key_type;

static PyObject *
key_make(PyObject *cmp, PyObject *obj)
{
    keyobject *k = PyObject_GC_New(keyobject, &key_type);
    if (k == NULL) {
        return NULL;
    }
    k->cmp = Py_NewRef(cmp);
    k->obj = obj ? Py_NewRef(obj) : NULL;
    k->vectorcall = key_vectorcall;
    PyObject_GC_Track((PyObject *)k);
    return (PyObject *)k;
}

static void
key_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_XDECREF(((keyobject *)self)->cmp);
    Py_XDECREF(((keyobject *)self)->obj);
    PyObject_GC_Del(self);
}

static int
key_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((keyobject *)self)->cmp);
    Py_VISIT(((keyobject *)self)->obj);
    return 0;
}

static int
key_tp_clear(PyObject *self)
{
    Py_CLEAR(((keyobject *)self)->cmp);
    Py_CLEAR(((keyobject *)self)->obj);
    return 0;
}

/* K(obj): a key holding obj, ordered by this key's cmp. */
static PyObject *
key_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    static const char *const names[] = {"obj", NULL};
    PyObject *value;
    if (!_PyArg_ParseStackAndKeywords(args, PyVectorcall_NARGS(nargsf), kwnames, "K", names, 1, 1, 0,
                                      &value)) {
        return NULL;
    }
    return key_make(((keyobject *)self)->cmp, value);
}

static PyObject *
key_call(PyObject *self, PyObject *args, PyObject *kwds)
{
    return PyVectorcall_Call(self, args, kwds);
}

static PyObject *
key_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!Py_IS_TYPE(b, &key_type)) {
        PyErr_SetString(PyExc_TypeError, "other argument must be K instance");
        return NULL;
    }
    keyobject *ka = (keyobject *)a, *kb = (keyobject *)b;
    if (ka->obj == NULL || kb->obj == NULL) {
        PyErr_SetString(PyExc_AttributeError, "object");
        return NULL;
    }
    PyObject *pair[2] = {ka->obj, kb->obj};
    PyObject *res = PyObject_Vectorcall(ka->cmp, pair, 2, NULL);
    if (res == NULL) {
        return NULL;
    }
    PyObject *zero = PyLong_FromLong(0);
    PyObject *answer = zero ? PyObject_RichCompare(res, zero, op) : NULL;
    Py_XDECREF(zero);
    Py_DECREF(res);
    return answer;
}

static PyMemberDef key_members[] = {
    {"obj", T_OBJECT, offsetof(keyobject, obj), 0, "The value this key stands for."},
    {NULL},
};

static PyTypeObject key_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "functools.KeyWrapper",
    .tp_basicsize = sizeof(keyobject),
    .tp_dealloc = key_dealloc,
    .tp_vectorcall_offset = offsetof(keyobject, vectorcall),
    .tp_hash = PyObject_HashNotImplemented,
    .tp_call = key_call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "A sort key that orders values with an old-style cmp function.",
    .tp_traverse = key_traverse,
    .tp_clear = key_tp_clear,
    .tp_richcompare = key_richcompare,
    .tp_members = key_members,
    .tp_free = PyObject_GC_Del,
};

static PyObject *
functools_cmp_to_key(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"mycmp", NULL};
    PyObject *cmp;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "cmp_to_key", names, 1, 1, 0, &cmp)) {
        return NULL;
    }
    return key_make(cmp, NULL);
}

/* ---- Placeholder ------------------------------------------------------------------------ */

static PyTypeObject placeholder_type;
static PyObject placeholder_singleton = {_Py_IMMORTAL_INITIAL_REFCNT, &placeholder_type};
#define Placeholder (&placeholder_singleton)

static PyObject *
placeholder_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) || (kwds && PyDict_GET_SIZE(kwds))) {
        PyErr_SetString(PyExc_TypeError, "_PlaceholderType takes no arguments");
        return NULL;
    }
    return Placeholder;
}

static PyObject *
placeholder_repr(PyObject *self)
{
    return PyUnicode_FromString("Placeholder");
}

static PyObject *
placeholder_reduce(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString("Placeholder");
}

static PyMethodDef placeholder_methods[] = {
    {"__reduce__", placeholder_reduce, METH_NOARGS, "Pickled by name."},
    {NULL, NULL},
};

static PyTypeObject placeholder_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "functools._PlaceholderType",
    .tp_basicsize = sizeof(PyObject),
    .tp_repr = placeholder_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The type of Placeholder, which marks an argument of a partial left for the call.",
    .tp_methods = placeholder_methods,
    .tp_new = placeholder_new,
};

/* ---- partial ----------------------------------------------------------------------------
   `args` may hold Placeholder in some positions (never the last); the
   first `holes` positional arguments of a call fill them in order and the
   rest go after `args`. */

typedef struct {
    PyObject_HEAD
    PyObject *fn;
    PyObject *args; /* tuple */
    PyObject *kw;   /* dict */
    Py_ssize_t holes;
    PyObject *dict;
    PyObject *weakrefs;
    vectorcallfunc vectorcall;
} partialobject;

static PyTypeObject partial_type;
static PyObject *partial_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                    PyObject *kwnames);

#define PT(op) ((partialobject *)(op))

static Py_ssize_t
count_holes(PyObject *args)
{
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        n += PyTuple_GET_ITEM(args, i) == Placeholder;
    }
    return n;
}

static int
check_placeholders(PyObject *args, PyObject *kw)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n > 0 && PyTuple_GET_ITEM(args, n - 1) == Placeholder) {
        PyErr_SetString(PyExc_TypeError, "trailing Placeholders are not allowed");
        return -1;
    }
    if (kw != NULL) {
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(kw, &pos, &k, &v)) {
            if (v == Placeholder) {
                PyErr_SetString(PyExc_TypeError, "Placeholder cannot be passed as a keyword argument");
                return -1;
            }
        }
    }
    return 0;
}

/* The stored arguments of `inner` with `extra` filling its holes first;
   extra arguments past the holes are appended. */
static PyObject *
fill_holes(PyObject *stored, Py_ssize_t holes, PyObject *const *extra, Py_ssize_t nextra)
{
    Py_ssize_t n = PyTuple_GET_SIZE(stored);
    Py_ssize_t used = nextra < holes ? nextra : holes;
    PyObject *res = PyTuple_New(n + nextra - used);
    if (res == NULL) {
        return NULL;
    }
    Py_ssize_t e = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyTuple_GET_ITEM(stored, i);
        if (v == Placeholder && e < used) {
            v = extra[e++];
        }
        PyTuple_SET_ITEM(res, i, Py_NewRef(v));
    }
    for (Py_ssize_t j = used; j < nextra; j++) {
        PyTuple_SET_ITEM(res, n + j - used, Py_NewRef(extra[j]));
    }
    return res;
}

static PyObject *
partial_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "type 'partial' takes at least one argument");
        return NULL;
    }
    PyObject *fn = PyTuple_GET_ITEM(args, 0);
    if (!PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "the first argument must be callable");
        return NULL;
    }
    PyObject *own = PyTuple_GetSlice(args, 1, nargs);
    if (own == NULL) {
        return NULL;
    }
    if (check_placeholders(own, kwds) < 0) {
        Py_DECREF(own);
        return NULL;
    }
    PyObject *kw = NULL, *pargs = NULL;
    /* partial(partial(f, ...), ...) becomes one partial of f, when the inner
       one is a plain partial without instance attributes. */
    if (PyObject_TypeCheck(fn, &partial_type) && Py_TYPE(fn)->tp_call == partial_type.tp_call &&
        PT(fn)->dict == NULL) {
        partialobject *inner = PT(fn);
        pargs = fill_holes(inner->args, inner->holes, _PyTuple_ITEMS(own), PyTuple_GET_SIZE(own));
        kw = PyDict_Copy(inner->kw);
        fn = inner->fn;
    }
    else {
        pargs = Py_NewRef(own);
        kw = PyDict_New();
    }
    Py_DECREF(own);
    if (pargs == NULL || kw == NULL || (kwds != NULL && PyDict_Update(kw, kwds) < 0)) {
        goto error;
    }
    partialobject *p = (partialobject *)type->tp_alloc(type, 0);
    if (p == NULL) {
        goto error;
    }
    p->fn = Py_NewRef(fn);
    p->args = pargs;
    p->kw = kw;
    p->holes = count_holes(pargs);
    p->vectorcall = partial_vectorcall;
    return (PyObject *)p;
error:
    Py_XDECREF(pargs);
    Py_XDECREF(kw);
    return NULL;
}

static int
partial_tp_clear(PyObject *self)
{
    partialobject *p = PT(self);
    Py_CLEAR(p->fn);
    Py_CLEAR(p->args);
    Py_CLEAR(p->kw);
    Py_CLEAR(p->dict);
    return 0;
}

static void
partial_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    if (PT(self)->weakrefs != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    partial_tp_clear(self);
    Py_TYPE(self)->tp_free(self);
}

static int
partial_traverse(PyObject *self, visitproc visit, void *arg)
{
    partialobject *p = PT(self);
    Py_VISIT(p->fn);
    Py_VISIT(p->args);
    Py_VISIT(p->kw);
    Py_VISIT(p->dict);
    return 0;
}

/* The call: stored arguments with the holes filled, the call's remaining
   positionals, then keywords (the call's override the stored ones). */
static PyObject *
partial_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    partialobject *p = PT(self);
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs < p->holes) {
        PyErr_Format(PyExc_TypeError,
                     "missing positional arguments in 'partial' call; expected at least %zd, got %zd",
                     p->holes, nargs);
        return NULL;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (PyDict_GET_SIZE(p->kw) == 0) {
        /* Positionals spliced on the C stack; keywords pass straight through. */
        Py_ssize_t nstored = PyTuple_GET_SIZE(p->args);
        Py_ssize_t total = nstored + nargs - p->holes;
        PyObject *small[8];
        PyObject **stack = small;
        if (total + nkw > 8) {
            stack = PyMem_Malloc((total + nkw) * sizeof(PyObject *));
            if (stack == NULL) {
                return PyErr_NoMemory();
            }
        }
        Py_ssize_t e = 0;
        for (Py_ssize_t i = 0; i < nstored; i++) {
            PyObject *v = PyTuple_GET_ITEM(p->args, i);
            stack[i] = v == Placeholder ? args[e++] : v;
        }
        for (Py_ssize_t j = e; j < nargs + nkw; j++) {
            stack[nstored + j - e] = args[j];
        }
        /* The stack borrows from args and fn: keep them alive through the
           call even if it replaces them with __setstate__. */
        PyObject *keep_args = Py_NewRef(p->args), *keep_fn = Py_NewRef(p->fn);
        PyObject *res = PyObject_Vectorcall(keep_fn, stack, total, kwnames);
        Py_DECREF(keep_args);
        Py_DECREF(keep_fn);
        if (stack != small) {
            PyMem_Free(stack);
        }
        return res;
    }
    PyObject *pos = fill_holes(p->args, p->holes, args, nargs);
    if (pos == NULL) {
        return NULL;
    }
    PyObject *kw = PyDict_Copy(p->kw);
    for (Py_ssize_t i = 0; kw != NULL && i < nkw; i++) {
        if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
            Py_CLEAR(kw);
        }
    }
    PyObject *fn = Py_NewRef(p->fn);
    PyObject *res = kw ? PyObject_Call(fn, pos, kw) : NULL;
    Py_DECREF(fn);
    Py_XDECREF(kw);
    Py_DECREF(pos);
    return res;
}

/* Bound like a function: a partial stored on a class becomes a method. */
static PyObject *
partial_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    return PyMethod_New(self, obj);
}

/* "module.qualname(func, args..., key=value...)" */
static PyObject *
partial_repr(PyObject *self)
{
    partialobject *p = PT(self);
    int busy = Py_ReprEnter(self);
    if (busy != 0) {
        return busy > 0 ? PyUnicode_FromString("...") : NULL;
    }
    PyObject *res = NULL, *mod = NULL, *qual = NULL, *parts = PyList_New(0);
    if (parts == NULL) {
        goto done;
    }
    PyObject *r = PyObject_Repr(p->fn);
    if (r == NULL || PyList_Append(parts, r) < 0) {
        Py_XDECREF(r);
        goto done;
    }
    Py_DECREF(r);
    /* Hold the pieces: a repr may run code that changes the partial. */
    PyObject *args = Py_NewRef(p->args), *kw = Py_NewRef(p->kw);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        r = PyObject_Repr(PyTuple_GET_ITEM(args, i));
        if (r == NULL || PyList_Append(parts, r) < 0) {
            Py_XDECREF(r);
            Py_DECREF(args);
            Py_DECREF(kw);
            goto done;
        }
        Py_DECREF(r);
    }
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(kw, &pos, &k, &v)) {
        r = PyUnicode_FromFormat("%S=%R", k, v);
        if (r == NULL || PyList_Append(parts, r) < 0) {
            Py_XDECREF(r);
            Py_DECREF(args);
            Py_DECREF(kw);
            goto done;
        }
        Py_DECREF(r);
    }
    Py_DECREF(args);
    Py_DECREF(kw);
    mod = PyObject_GetAttrString((PyObject *)Py_TYPE(self), "__module__");
    qual = mod ? PyType_GetQualName(Py_TYPE(self)) : NULL;
    if (qual != NULL) {
        PyObject *sep = PyUnicode_FromString(", ");
        PyObject *joined = sep ? PyUnicode_Join(sep, parts) : NULL;
        Py_XDECREF(sep);
        if (joined != NULL) {
            res = PyUnicode_FromFormat("%S.%S(%U)", mod, qual, joined);
            Py_DECREF(joined);
        }
    }
done:
    Py_XDECREF(mod);
    Py_XDECREF(qual);
    Py_XDECREF(parts);
    Py_ReprLeave(self);
    return res;
}

static PyObject *
partial_reduce(PyObject *self, PyObject *unused)
{
    partialobject *p = PT(self);
    PyObject *kw = PyDict_GET_SIZE(p->kw) ? p->kw : Py_None;
    PyObject *ns = p->dict && PyDict_GET_SIZE(p->dict) ? p->dict : Py_None;
    return Py_BuildValue("O(O)(OOOO)", (PyObject *)Py_TYPE(self), p->fn, p->fn, p->args, kw, ns);
}

static PyObject *
partial_setstate(PyObject *self, PyObject *state)
{
    partialobject *p = PT(self);
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 4) {
        PyErr_SetString(PyExc_TypeError, "invalid partial state");
        return NULL;
    }
    PyObject *fn = PyTuple_GET_ITEM(state, 0), *args = PyTuple_GET_ITEM(state, 1);
    PyObject *kw = PyTuple_GET_ITEM(state, 2), *ns = PyTuple_GET_ITEM(state, 3);
    if (!PyCallable_Check(fn) || !PyTuple_Check(args) || (kw != Py_None && !PyDict_Check(kw)) ||
        (ns != Py_None && !PyDict_Check(ns))) {
        PyErr_SetString(PyExc_TypeError, "invalid partial state");
        return NULL;
    }
    if (check_placeholders(args, NULL) < 0) {
        return NULL;
    }
    PyObject *targs = PyTuple_GetSlice(args, 0, PyTuple_GET_SIZE(args)); /* exact tuple */
    PyObject *dkw = kw == Py_None ? PyDict_New() : PyDict_Copy(kw);
    if (targs == NULL || dkw == NULL) {
        Py_XDECREF(targs);
        Py_XDECREF(dkw);
        return NULL;
    }
    Py_SETREF(p->fn, Py_NewRef(fn));
    Py_SETREF(p->args, targs);
    Py_SETREF(p->kw, dkw);
    Py_XSETREF(p->dict, ns == Py_None ? NULL : Py_NewRef(ns));
    p->holes = count_holes(targs);
    Py_RETURN_NONE;
}

static PyMethodDef partial_methods[] = {
    {"__reduce__", partial_reduce, METH_NOARGS, "Pickle support."},
    {"__setstate__", partial_setstate, METH_O, "Restore a pickled state."},
    CLASS_GETITEM_ENTRY
    {NULL, NULL},
};

static PyMemberDef partial_members[] = {
    {"func", T_OBJECT, offsetof(partialobject, fn), READONLY, "The function the partial calls."},
    {"args", T_OBJECT, offsetof(partialobject, args), READONLY, "The stored positional arguments."},
    {"keywords", T_OBJECT, offsetof(partialobject, kw), READONLY, "The stored keyword arguments."},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(partialobject, weakrefs), READONLY},
    {"__dictoffset__", T_PYSSIZET, offsetof(partialobject, dict), READONLY},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(partialobject, vectorcall), READONLY},
    {NULL},
};

static PyGetSetDef partial_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL},
};

static PyTypeObject partial_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "functools.partial",
    .tp_basicsize = sizeof(partialobject),
    .tp_dealloc = partial_dealloc,
    .tp_vectorcall_offset = offsetof(partialobject, vectorcall),
    .tp_repr = partial_repr,
    .tp_call = PyVectorcall_Call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE |
                Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "partial(func, /, *args, **keywords)\n--\n\n"
              "A callable that calls func with these arguments first; Placeholder leaves a "
              "position for the call to fill.",
    .tp_traverse = partial_traverse,
    .tp_clear = partial_tp_clear,
    .tp_weaklistoffset = offsetof(partialobject, weakrefs),
    .tp_methods = partial_methods,
    .tp_members = partial_members,
    .tp_getset = partial_getset,
    .tp_descr_get = partial_descr_get,
    .tp_dictoffset = offsetof(partialobject, dict),
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = partial_new,
    .tp_free = PyObject_GC_Del,
};

/* ---- _lru_cache_wrapper(user_function, maxsize, typed, cache_info_type) --------------------
   Three modes: maxsize 0 caches nothing (it only counts); maxsize None
   maps keys straight to results; a bounded cache maps keys to entries
   kept on a circular list in use order, oldest right after the anchor.
   Entries are not GC-tracked: the wrapper visits their contents. */

typedef struct lrulink {
    struct lrulink *older;
    struct lrulink *newer;
} lrulink;

typedef struct {
    PyObject_HEAD
    lrulink link; /* first, so a link pointer is the entry's address plus a header */
    PyObject *key;
    PyObject *result;
} lruentry;

typedef struct {
    PyObject_HEAD
    PyObject *fn;
    PyObject *cache;    /* dict */
    PyObject *infotype; /* the _CacheInfo namedtuple */
    PyObject *dict;
    PyObject *weakrefs;
    Py_ssize_t maxsize; /* -1: unbounded */
    int typed;
    Py_ssize_t hits;
    Py_ssize_t misses;
    lrulink anchor; /* anchor.newer: oldest entry; anchor.older: newest */
} lruobject;

static PyTypeObject lruentry_type;
static PyTypeObject lru_type;
static PyObject *kwd_mark; /* separates positional from keyword parts of a key */

#define ENTRY_OF(l) ((lruentry *)((char *)(l) - offsetof(lruentry, link)))

static void
lruentry_dealloc(PyObject *self)
{
    Py_XDECREF(((lruentry *)self)->key);
    Py_XDECREF(((lruentry *)self)->result);
    PyObject_Free(self);
}

static PyTypeObject lruentry_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "functools._lru_list_elem",
    .tp_basicsize = sizeof(lruentry),
    .tp_dealloc = lruentry_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
};

static void
link_remove(lrulink *l)
{
    l->older->newer = l->newer;
    l->newer->older = l->older;
}

static void
link_append_newest(lruobject *lru, lrulink *l)
{
    l->newer = &lru->anchor;
    l->older = lru->anchor.older;
    lru->anchor.older->newer = l;
    lru->anchor.older = l;
}

/* functools._make_key: args, then the mark and the keyword pairs, then
   (typed) the argument types; a lone int or str stands for itself. */
static PyObject *
make_key(lruobject *lru, PyObject *args, PyObject *kwds)
{
    Py_ssize_t na = PyTuple_GET_SIZE(args);
    Py_ssize_t nk = kwds ? PyDict_GET_SIZE(kwds) : 0;
    if (nk == 0 && !lru->typed) {
        if (na == 1) {
            PyObject *only = PyTuple_GET_ITEM(args, 0);
            if (PyLong_CheckExact(only) || PyUnicode_CheckExact(only)) {
                return Py_NewRef(only);
            }
        }
        return Py_NewRef(args);
    }
    Py_ssize_t size = na + (nk ? 1 + 2 * nk : 0) + (lru->typed ? na + nk : 0);
    PyObject *key = PyTuple_New(size);
    if (key == NULL) {
        return NULL;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < na; i++) {
        PyTuple_SET_ITEM(key, at++, Py_NewRef(PyTuple_GET_ITEM(args, i)));
    }
    if (nk) {
        PyTuple_SET_ITEM(key, at++, Py_NewRef(kwd_mark));
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(kwds, &pos, &k, &v)) {
            PyTuple_SET_ITEM(key, at++, Py_NewRef(k));
            PyTuple_SET_ITEM(key, at++, Py_NewRef(v));
        }
    }
    if (lru->typed) {
        for (Py_ssize_t i = 0; i < na; i++) {
            PyTuple_SET_ITEM(key, at++, Py_NewRef((PyObject *)Py_TYPE(PyTuple_GET_ITEM(args, i))));
        }
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (nk && PyDict_Next(kwds, &pos, &k, &v)) {
            PyTuple_SET_ITEM(key, at++, Py_NewRef((PyObject *)Py_TYPE(v)));
        }
    }
    return key;
}

/* Dict operations on the cache hold it: a key's __eq__ may call
   cache_clear(), which drops the dict. */
static int
cache_lookup(lruobject *lru, PyObject *key, PyObject **found)
{
    PyObject *cache = Py_NewRef(lru->cache);
    int r = PyDict_GetItemRef(cache, key, found);
    Py_DECREF(cache);
    return r;
}

static int
cache_store(lruobject *lru, PyObject *key, PyObject *value)
{
    PyObject *cache = Py_NewRef(lru->cache);
    int r = PyDict_SetItem(cache, key, value);
    Py_DECREF(cache);
    return r;
}

static PyObject *
lru_call_unbounded(lruobject *lru, PyObject *key, PyObject *args, PyObject *kwds)
{
    PyObject *res;
    int found = cache_lookup(lru, key, &res);
    if (found != 0) {
        lru->hits += found > 0;
        return res;
    }
    lru->misses++;
    res = PyObject_Call(lru->fn, args, kwds);
    if (res != NULL && cache_store(lru, key, res) < 0) {
        Py_CLEAR(res);
    }
    return res;
}

/* Drop the oldest entry to make room. */
static int
lru_evict_oldest(lruobject *lru)
{
    lrulink *oldest = lru->anchor.newer;
    if (oldest == &lru->anchor) {
        return 0;
    }
    lruentry *e = ENTRY_OF(oldest);
    link_remove(oldest);
    oldest->older = oldest->newer = oldest; /* detached */
    /* The key's __eq__ may clear the cache under us: hold dict and key. */
    PyObject *cache = Py_NewRef(lru->cache), *key = Py_NewRef(e->key);
    PyObject *popped = NULL;
    int r = PyDict_Pop(cache, key, &popped);
    Py_XDECREF(popped);
    Py_DECREF(key);
    Py_DECREF(cache);
    return r < 0 ? -1 : 0;
}

static PyObject *
lru_call_bounded(lruobject *lru, PyObject *key, PyObject *args, PyObject *kwds)
{
    PyObject *found;
    int r = cache_lookup(lru, key, &found);
    if (r < 0) {
        return NULL;
    }
    if (r > 0) {
        lruentry *e = (lruentry *)found;
        if (e->link.newer != &e->link) {
            link_remove(&e->link);
            link_append_newest(lru, &e->link);
        }
        lru->hits++;
        PyObject *res = Py_NewRef(e->result);
        Py_DECREF(found);
        return res;
    }
    lru->misses++;
    PyObject *res = PyObject_Call(lru->fn, args, kwds);
    if (res == NULL) {
        return NULL;
    }
    /* The call may have filled this key itself (recursion): keep that one. */
    PyObject *already = NULL;
    r = cache_lookup(lru, key, &already);
    Py_XDECREF(already);
    if (r != 0) {
        return r < 0 ? (Py_DECREF(res), NULL) : res;
    }
    while (PyDict_GET_SIZE(lru->cache) >= lru->maxsize && lru->anchor.newer != &lru->anchor) {
        if (lru_evict_oldest(lru) < 0) {
            Py_DECREF(res);
            return NULL;
        }
    }
    lruentry *e = PyObject_New(lruentry, &lruentry_type);
    if (e == NULL) {
        Py_DECREF(res);
        return NULL;
    }
    e->key = Py_NewRef(key);
    e->result = Py_NewRef(res);
    e->link.older = e->link.newer = &e->link;
    PyObject *cache = Py_NewRef(lru->cache);
    if (PyDict_SetItem(cache, key, (PyObject *)e) < 0) {
        Py_DECREF(cache);
        Py_DECREF(e);
        Py_DECREF(res);
        return NULL;
    }
    /* A key's __eq__ may have cleared the cache meanwhile; then the entry
       belongs to the discarded dict and must stay off the list. */
    if (cache == lru->cache) {
        link_append_newest(lru, &e->link);
    }
    Py_DECREF(cache);
    Py_DECREF(e);
    return res;
}

static PyObject *
lru_call(PyObject *self, PyObject *args, PyObject *kwds)
{
    lruobject *lru = (lruobject *)self;
    if (lru->maxsize == 0) {
        lru->misses++;
        return PyObject_Call(lru->fn, args, kwds);
    }
    PyObject *key = make_key(lru, args, kwds);
    if (key == NULL) {
        return NULL;
    }
    if (PyObject_Hash(key) == -1 && PyErr_Occurred()) {
        Py_DECREF(key);
        return NULL;
    }
    PyObject *res = lru->maxsize < 0 ? lru_call_unbounded(lru, key, args, kwds)
                                     : lru_call_bounded(lru, key, args, kwds);
    Py_DECREF(key);
    return res;
}

/* Empty the cache; the old dict is released once the wrapper is consistent. */
static void
lru_forget(lruobject *lru)
{
    lrulink *l = lru->anchor.newer;
    while (l != &lru->anchor) {
        lrulink *next = l->newer;
        l->older = l->newer = l;
        l = next;
    }
    lru->anchor.older = lru->anchor.newer = &lru->anchor;
    PyObject *old = lru->cache;
    lru->cache = PyDict_New();
    if (lru->cache == NULL) {
        /* Keep a valid (if full) cache rather than none. */
        lru->cache = old;
        PyDict_Clear(old);
        PyErr_Clear();
        return;
    }
    Py_XDECREF(old);
}

static PyObject *
lru_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"user_function", "maxsize", "typed", "cache_info_type", NULL};
    PyObject *fn, *maxobj, *typedobj, *infotype;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO:_lru_cache_wrapper", kwlist, &fn, &maxobj,
                                     &typedobj, &infotype)) {
        return NULL;
    }
    if (!PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "the first argument must be callable");
        return NULL;
    }
    Py_ssize_t maxsize = -1;
    if (maxobj != Py_None) {
        if (!PyLong_Check(maxobj)) {
            PyErr_SetString(PyExc_TypeError, "maxsize should be integer or None");
            return NULL;
        }
        maxsize = PyNumber_AsSsize_t(maxobj, PyExc_OverflowError);
        if (maxsize == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (maxsize < 0) {
            maxsize = 0;
        }
    }
    int typed = PyObject_IsTrue(typedobj);
    if (typed < 0) {
        return NULL;
    }
    lruobject *lru = (lruobject *)type->tp_alloc(type, 0);
    if (lru == NULL) {
        return NULL;
    }
    lru->anchor.older = lru->anchor.newer = &lru->anchor;
    lru->cache = PyDict_New();
    if (lru->cache == NULL) {
        Py_DECREF(lru);
        return NULL;
    }
    lru->fn = Py_NewRef(fn);
    lru->infotype = Py_NewRef(infotype);
    lru->maxsize = maxsize;
    lru->typed = typed;
    return (PyObject *)lru;
}

static int
lru_tp_clear(PyObject *self)
{
    lruobject *lru = (lruobject *)self;
    lru_forget(lru);
    Py_CLEAR(lru->cache);
    Py_CLEAR(lru->fn);
    Py_CLEAR(lru->infotype);
    Py_CLEAR(lru->dict);
    return 0;
}

static void
lru_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    if (((lruobject *)self)->weakrefs != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    lru_tp_clear(self);
    Py_TYPE(self)->tp_free(self);
}

static int
lru_traverse(PyObject *self, visitproc visit, void *arg)
{
    lruobject *lru = (lruobject *)self;
    for (lrulink *l = lru->anchor.newer; l != NULL && l != &lru->anchor; l = l->newer) {
        Py_VISIT(ENTRY_OF(l)->key);
        Py_VISIT(ENTRY_OF(l)->result);
    }
    Py_VISIT(lru->cache);
    Py_VISIT(lru->fn);
    Py_VISIT(lru->infotype);
    Py_VISIT(lru->dict);
    return 0;
}

static PyObject *
lru_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    return PyMethod_New(self, obj);
}

static PyObject *
lru_cache_info(PyObject *self, PyObject *unused)
{
    lruobject *lru = (lruobject *)self;
    PyObject *maxobj = lru->maxsize < 0 ? Py_NewRef(Py_None) : PyLong_FromSsize_t(lru->maxsize);
    if (maxobj == NULL) {
        return NULL;
    }
    Py_ssize_t size = lru->maxsize == 0 ? 0 : PyDict_GET_SIZE(lru->cache);
    PyObject *res = PyObject_CallFunction(lru->infotype, "nnOn", lru->hits, lru->misses, maxobj, size);
    Py_DECREF(maxobj);
    return res;
}

static PyObject *
lru_cache_clear(PyObject *self, PyObject *unused)
{
    lruobject *lru = (lruobject *)self;
    lru->hits = lru->misses = 0;
    lru_forget(lru);
    Py_RETURN_NONE;
}

/* Pickled by reference: its qualified name. */
static PyObject *
lru_reduce(PyObject *self, PyObject *unused)
{
    return PyObject_GetAttrString(self, "__qualname__");
}

static PyObject *
lru_copy(PyObject *self, PyObject *unused)
{
    return Py_NewRef(self);
}

static PyObject *
lru_deepcopy(PyObject *self, PyObject *memo)
{
    return Py_NewRef(self);
}

static PyMethodDef lru_methods[] = {
    {"cache_info", lru_cache_info, METH_NOARGS, "Hits, misses, maxsize and current size."},
    {"cache_clear", lru_cache_clear, METH_NOARGS, "Empty the cache and reset the statistics."},
    {"__reduce__", lru_reduce, METH_NOARGS, "Pickled by name."},
    {"__copy__", lru_copy, METH_NOARGS, "The wrapper itself: it is not copied."},
    {"__deepcopy__", lru_deepcopy, METH_O, "The wrapper itself: it is not copied."},
    {NULL, NULL},
};

static PyMemberDef lru_members[] = {
    {"__dictoffset__", T_PYSSIZET, offsetof(lruobject, dict), READONLY},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(lruobject, weakrefs), READONLY},
    {NULL},
};

static PyGetSetDef lru_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL},
};

static PyTypeObject lru_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "functools._lru_cache_wrapper",
    .tp_basicsize = sizeof(lruobject),
    .tp_dealloc = lru_dealloc,
    .tp_call = lru_call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE |
                Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "_lru_cache_wrapper(user_function, maxsize, typed, cache_info_type)\n--\n\n"
              "Wrap user_function with a cache of its results, least recently used dropped first.",
    .tp_traverse = lru_traverse,
    .tp_clear = lru_tp_clear,
    .tp_weaklistoffset = offsetof(lruobject, weakrefs),
    .tp_methods = lru_methods,
    .tp_members = lru_members,
    .tp_getset = lru_getset,
    .tp_descr_get = lru_descr_get,
    .tp_dictoffset = offsetof(lruobject, dict),
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = lru_new,
    .tp_free = PyObject_GC_Del,
};

/* ---- The module ------------------------------------------------------------------------- */

static PyMethodDef functools_functions[] = {
    {"reduce", (PyCFunction)(void (*)(void))functools_reduce, METH_FASTCALL | METH_KEYWORDS,
     "reduce(function, iterable, /[, initial])\n--\n\n"
     "Fold the iterable into one value: function(function(initial, x0), x1)..."},
    {"cmp_to_key", (PyCFunction)(void (*)(void))functools_cmp_to_key, METH_FASTCALL | METH_KEYWORDS,
     "cmp_to_key(mycmp)\n--\n\nTurn a cmp(a, b) function into a key= function."},
    {NULL, NULL},
};

static struct PyModuleDef functools_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_functools",
    .m_doc = "C implementations of parts of functools.",
    .m_size = 0,
    .m_methods = functools_functions,
};

PyMODINIT_FUNC
PyInit__functools(void)
{
    PyTypeObject *types[] = {&partial_type, &placeholder_type, &lru_type, &key_type, NULL};
    PyObject *m = PyModule_Create(&functools_module);
    if (m == NULL) {
        return NULL;
    }
    if (_PyStaticType_InitBuiltin(&lruentry_type) < 0) {
        goto error;
    }
    for (PyTypeObject **tp = types; *tp != NULL; tp++) {
        if (_PyStaticType_InitBuiltin(*tp) < 0 || (*tp != &key_type && PyModule_AddType(m, *tp) < 0)) {
            goto error;
        }
    }
    if (kwd_mark == NULL) {
        kwd_mark = PyObject_CallNoArgs((PyObject *)&PyBaseObject_Type);
        if (kwd_mark == NULL) {
            goto error;
        }
        _Py_SetImmortal(kwd_mark); /* shared by every cache, never freed */
    }
    if (PyModule_AddObjectRef(m, "Placeholder", Placeholder) < 0) {
        goto error;
    }
    return m;
error:
    Py_DECREF(m);
    return NULL;
}
