/* _abc: the C half of abc.py.  abc.ABCMeta stores one `_abc._abc_data`
   object per class in its `_abc_impl` attribute, and calls the functions
   here for creation, register(), isinstance() and issubclass().

   Each _abc_data keeps three weak sets of classes: the registry of
   virtual subclasses, a cache of classes known to be subclasses, and a
   negative cache of classes known not to be.  A weak set is a plain set
   of weak references whose callback drops the dead reference from the
   set, so registering or caching a class never keeps it alive.

   register() on any ABC bumps one global token; a negative cache made
   under an older token is stale (a new registration anywhere may have
   made the answer positive) and is emptied before its next use. */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_typeobject.h"

/* Incremented by every successful register(). */
static unsigned long long abc_token = 0;

/* ---- Weak sets of classes --------------------------------------------------- */

typedef struct {
    PyObject *refs;       /* set of weakrefs, created on first add */
    PyObject *on_death;   /* the refs' callback: discards the dead ref */
} class_weakset;

/* The weakref callback.  Its self is a weak reference to the set, so the
   set and its members' callbacks form no reference cycle. */
static PyObject *
weakset_forget(PyObject *set_ref, PyObject *dead)
{
    PyObject *set;
    int alive = PyWeakref_GetRef(set_ref, &set);
    if (alive > 0) {
        int r = PySet_Discard(set, dead);
        Py_DECREF(set);
        if (r < 0) {
            return NULL;
        }
    }
    else if (alive < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef weakset_forget_def = {"_forget", weakset_forget, METH_O, NULL};

static int
weakset_ensure(class_weakset *ws)
{
    if (ws->refs != NULL) {
        return 0;
    }
    PyObject *set = PySet_New(NULL);
    if (set == NULL) {
        return -1;
    }
    PyObject *set_ref = PyWeakref_NewRef(set, NULL);
    if (set_ref == NULL) {
        Py_DECREF(set);
        return -1;
    }
    ws->on_death = PyCFunction_New(&weakset_forget_def, set_ref);
    Py_DECREF(set_ref);
    if (ws->on_death == NULL) {
        Py_DECREF(set);
        return -1;
    }
    ws->refs = set;
    return 0;
}

static int
weakset_add(class_weakset *ws, PyObject *cls)
{
    if (weakset_ensure(ws) < 0) {
        return -1;
    }
    PyObject *ref = PyWeakref_NewRef(cls, ws->on_death);
    if (ref == NULL) {
        return -1;
    }
    int r = PySet_Add(ws->refs, ref);
    Py_DECREF(ref);
    return r;
}

/* 1 if cls is in the set, 0 if not, -1 on error. */
static int
weakset_has(class_weakset *ws, PyObject *cls)
{
    if (ws->refs == NULL || PySet_GET_SIZE(ws->refs) == 0) {
        return 0;
    }
    /* A plain weakref hashes and compares like its referent. */
    PyObject *probe = PyWeakref_NewRef(cls, NULL);
    if (probe == NULL) {
        return -1;
    }
    int r = PySet_Contains(ws->refs, probe);
    Py_DECREF(probe);
    return r;
}

static int
weakset_clear(class_weakset *ws)
{
    return ws->refs == NULL ? 0 : PySet_Clear(ws->refs);
}

/* A new set holding the weak references (what _get_dump shows). */
static PyObject *
weakset_snapshot(class_weakset *ws)
{
    return PySet_New(ws->refs);
}

static void
weakset_release(class_weakset *ws)
{
    Py_CLEAR(ws->refs);
    Py_CLEAR(ws->on_death);
}

/* ---- _abc_data -------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    class_weakset registry;
    class_weakset cache;
    class_weakset negative;
    unsigned long long negative_token; /* abc_token when `negative` was valid */
} abc_data;

static void
abc_data_dealloc(PyObject *op)
{
    abc_data *self = (abc_data *)op;
    weakset_release(&self->registry);
    weakset_release(&self->cache);
    weakset_release(&self->negative);
    Py_TYPE(op)->tp_free(op);
}

static PyObject *
abc_data_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    abc_data *self = (abc_data *)type->tp_alloc(type, 0);
    if (self != NULL) {
        self->negative_token = abc_token;
    }
    return (PyObject *)self;
}

static PyTypeObject abc_data_type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_abc._abc_data",
    .tp_basicsize = sizeof(abc_data),
    .tp_dealloc = abc_data_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = abc_data_new,
    .tp_doc = "The registry and subclass caches of one abstract base class.",
};

/* The _abc_data of an ABC (a new reference), or NULL with an error. */
static abc_data *
data_of(PyObject *cls)
{
    PyObject *impl = PyObject_GetAttrString(cls, "_abc_impl");
    if (impl == NULL) {
        return NULL;
    }
    if (!Py_IS_TYPE(impl, &abc_data_type)) {
        Py_DECREF(impl);
        PyErr_SetString(PyExc_TypeError, "_abc_impl is set to a wrong type");
        return NULL;
    }
    return (abc_data *)impl;
}

/* ---- _abc_init: abstract methods and collection flags ----------------------- */

/* 1 if value has a true __isabstractmethod__, 0 if not, -1 on error. */
static int
is_abstract(PyObject *value)
{
    PyObject *flag;
    int found = PyObject_GetOptionalAttrString(value, "__isabstractmethod__", &flag);
    if (found <= 0) {
        return found;
    }
    int r = PyObject_IsTrue(flag);
    Py_DECREF(flag);
    return r;
}

static int
add_abstract_names_of_namespace(PyObject *cls, PyObject *names)
{
    PyObject *ns = PyObject_GetAttrString(cls, "__dict__");
    if (ns == NULL) {
        return -1;
    }
    PyObject *items = PyMapping_Items(ns);
    Py_DECREF(ns);
    if (items == NULL) {
        return -1;
    }
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(items); i++) {
        PyObject *pair = PyList_GET_ITEM(items, i);
        int abstract = is_abstract(PyTuple_GET_ITEM(pair, 1));
        if (abstract < 0 || (abstract && PySet_Add(names, PyTuple_GET_ITEM(pair, 0)) < 0)) {
            rc = -1;
        }
    }
    Py_DECREF(items);
    return rc;
}

/* Names a base declares abstract that cls still leaves abstract. */
static int
add_inherited_abstract_names(PyObject *cls, PyObject *base, PyObject *names)
{
    PyObject *declared;
    int found = PyObject_GetOptionalAttrString(base, "__abstractmethods__", &declared);
    if (found <= 0) {
        return found;
    }
    PyObject *it = PyObject_GetIter(declared);
    Py_DECREF(declared);
    if (it == NULL) {
        return -1;
    }
    PyObject *name;
    int rc = 0;
    while (rc == 0 && (name = PyIter_Next(it)) != NULL) {
        PyObject *value;
        int has = PyObject_GetOptionalAttr(cls, name, &value);
        if (has < 0) {
            rc = -1;
        }
        else if (has > 0) {
            int abstract = is_abstract(value);
            Py_DECREF(value);
            if (abstract < 0 || (abstract && PySet_Add(names, name) < 0)) {
                rc = -1;
            }
        }
        Py_DECREF(name);
    }
    Py_DECREF(it);
    return rc < 0 || PyErr_Occurred() ? -1 : 0;
}

static int
compute_abstract_methods(PyObject *cls)
{
    PyObject *names = PySet_New(NULL);
    if (names == NULL) {
        return -1;
    }
    PyObject *bases = NULL, *frozen = NULL;
    int rc = -1;
    if (add_abstract_names_of_namespace(cls, names) < 0) {
        goto done;
    }
    bases = PyObject_GetAttrString(cls, "__bases__");
    if (bases == NULL) {
        goto done;
    }
    if (!PyTuple_Check(bases)) {
        PyErr_SetString(PyExc_TypeError, "__bases__ is not tuple");
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
        if (add_inherited_abstract_names(cls, PyTuple_GET_ITEM(bases, i), names) < 0) {
            goto done;
        }
    }
    frozen = PyFrozenSet_New(names);
    if (frozen != NULL) {
        rc = PyObject_SetAttrString(cls, "__abstractmethods__", frozen);
    }
done:
    Py_DECREF(names);
    Py_XDECREF(bases);
    Py_XDECREF(frozen);
    return rc;
}

#define COLLECTION_FLAGS (Py_TPFLAGS_SEQUENCE | Py_TPFLAGS_MAPPING)

/* collections.abc marks Sequence and Mapping with __abc_tpflags__ in the
   class body; the flags go into the type (for `match`) and the marker
   leaves the namespace. */
static int
apply_declared_tpflags(PyObject *cls)
{
    if (!PyType_Check(cls)) {
        return 0;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    PyObject *dict = type->tp_dict;
    PyObject *flags = dict == NULL ? NULL : PyDict_GetItemString(dict, "__abc_tpflags__");
    if (flags == NULL) {
        return 0;
    }
    if (!PyLong_Check(flags)) {
        PyErr_SetString(PyExc_TypeError, "__abc_tpflags__ must be an int");
        return -1;
    }
    unsigned long bits = PyLong_AsUnsignedLongMask(flags);
    if (bits == (unsigned long)-1 && PyErr_Occurred()) {
        return -1;
    }
    type->tp_flags |= bits & COLLECTION_FLAGS;
    if (PyDict_DelItemString(dict, "__abc_tpflags__") < 0) {
        return -1;
    }
    PyType_Modified(type);
    return 0;
}

static PyObject *
abc_abc_init(PyObject *module, PyObject *cls)
{
    if (compute_abstract_methods(cls) < 0 || apply_declared_tpflags(cls) < 0) {
        return NULL;
    }
    PyObject *data = abc_data_new(&abc_data_type, NULL, NULL);
    if (data == NULL) {
        return NULL;
    }
    int r = PyObject_SetAttrString(cls, "_abc_impl", data);
    Py_DECREF(data);
    if (r < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- register ---------------------------------------------------------------- */

/* A class registered with a Sequence or Mapping ABC matches like one:
   the flag spreads to it and to its subclasses that have neither flag
   (built-in, immutable types keep theirs). */
static int
spread_collection_flag(PyTypeObject *type, unsigned long flag)
{
    if ((type->tp_flags & Py_TPFLAGS_IMMUTABLETYPE) || (type->tp_flags & COLLECTION_FLAGS)) {
        return 0;
    }
    type->tp_flags |= flag;
    PyObject *subs = _PyType_GetSubclasses(type);
    if (subs == NULL) {
        return -1;
    }
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(subs); i++) {
        rc = spread_collection_flag((PyTypeObject *)PyList_GET_ITEM(subs, i), flag);
    }
    Py_DECREF(subs);
    return rc;
}

static PyObject *
abc_abc_register(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("_abc_register", nargs, 2, 2)) {
        return NULL;
    }
    PyObject *cls = args[0], *sub = args[1];
    if (!PyType_Check(sub)) {
        PyErr_SetString(PyExc_TypeError, "Can only register classes");
        return NULL;
    }
    int known = PyObject_IsSubclass(sub, cls);
    if (known != 0) {
        return known < 0 ? NULL : Py_NewRef(sub);
    }
    /* Checked after "already a subclass", so X.register(X) is a no-op. */
    int cycle = PyObject_IsSubclass(cls, sub);
    if (cycle != 0) {
        if (cycle > 0) {
            PyErr_SetString(PyExc_RuntimeError, "Refusing to create an inheritance cycle");
        }
        return NULL;
    }
    abc_data *data = data_of(cls);
    if (data == NULL) {
        return NULL;
    }
    int r = weakset_add(&data->registry, sub);
    Py_DECREF(data);
    if (r < 0) {
        return NULL;
    }
    abc_token++;
    if (PyType_Check(cls)) {
        unsigned long flag = ((PyTypeObject *)cls)->tp_flags & COLLECTION_FLAGS;
        if (flag && spread_collection_flag((PyTypeObject *)sub, flag) < 0) {
            return NULL;
        }
    }
    return Py_NewRef(sub);
}

/* ---- issubclass / isinstance ------------------------------------------------- */

/* Remember the verdict for sub and return it as a bool. */
static PyObject *
record(class_weakset *ws, PyObject *sub, PyObject *verdict)
{
    if (weakset_add(ws, sub) < 0) {
        return NULL;
    }
    return Py_NewRef(verdict);
}

/* 1 if sub is a subclass of any live class in the snapshot of refs. */
static int
subclass_of_any_ref(PyObject *sub, PyObject *refs)
{
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PyTuple_GET_SIZE(refs); i++) {
        PyObject *target;
        int alive = PyWeakref_GetRef(PyTuple_GET_ITEM(refs, i), &target);
        if (alive <= 0) {
            rc = alive;
            continue;
        }
        rc = PyObject_IsSubclass(sub, target);
        Py_DECREF(target);
    }
    return rc;
}

/* Is sub a subclass of a registered class?  A registered class itself
   answers yes without entering the cache. */
static int
check_registry(abc_data *data, PyObject *sub, int *cacheable)
{
    *cacheable = 0;
    int direct = weakset_has(&data->registry, sub);
    if (direct != 0 || data->registry.refs == NULL) {
        return direct;
    }
    /* Iterate over a copy: the checks run Python code that may register. */
    PyObject *refs = PySequence_Tuple(data->registry.refs);
    if (refs == NULL) {
        return -1;
    }
    int r = subclass_of_any_ref(sub, refs);
    Py_DECREF(refs);
    *cacheable = 1;
    return r;
}

/* 1 if sub is a subclass of one of cls.__subclasses__(). */
static int
check_subclasses(PyObject *cls, PyObject *sub)
{
    PyObject *subs = PyObject_CallMethod(cls, "__subclasses__", NULL);
    if (subs == NULL) {
        return -1;
    }
    PyObject *seq = PySequence_Fast(subs, "__subclasses__() must return a list");
    Py_DECREF(subs);
    if (seq == NULL) {
        return -1;
    }
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE(seq); i++) {
        rc = PyObject_IsSubclass(sub, PySequence_Fast_GET_ITEM(seq, i));
    }
    Py_DECREF(seq);
    return rc;
}

/* The __subclasshook__ verdict: 1/0 decided, 2 for NotImplemented. */
static int
ask_subclasshook(PyObject *cls, PyObject *sub)
{
    PyObject *ok = PyObject_CallMethod(cls, "__subclasshook__", "O", sub);
    if (ok == NULL) {
        return -1;
    }
    int verdict = ok == Py_True ? 1 : ok == Py_False ? 0 : ok == Py_NotImplemented ? 2 : -2;
    Py_DECREF(ok);
    if (verdict == -2) {
        PyErr_SetString(PyExc_AssertionError,
                        "__subclasshook__ must return either False, True, or NotImplemented");
        return -1;
    }
    return verdict;
}

static int
in_mro(PyObject *sub, PyObject *cls)
{
    PyObject *mro = ((PyTypeObject *)sub)->tp_mro;
    if (mro == NULL || !PyTuple_Check(mro)) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); i++) {
        if (PyTuple_GET_ITEM(mro, i) == cls) {
            return 1;
        }
    }
    return 0;
}

/* The uncached part of issubclass(sub, cls). */
static PyObject *
decide_subclass(PyObject *cls, abc_data *data, PyObject *sub)
{
    int hook = ask_subclasshook(cls, sub);
    if (hook < 0) {
        return NULL;
    }
    if (hook != 2) {
        return hook ? record(&data->cache, sub, Py_True) : record(&data->negative, sub, Py_False);
    }
    if (in_mro(sub, cls)) {
        return record(&data->cache, sub, Py_True);
    }
    int cacheable;
    int r = check_registry(data, sub, &cacheable);
    if (r < 0) {
        return NULL;
    }
    if (r > 0) {
        return cacheable ? record(&data->cache, sub, Py_True) : Py_NewRef(Py_True);
    }
    r = check_subclasses(cls, sub);
    if (r < 0) {
        return NULL;
    }
    return r ? record(&data->cache, sub, Py_True) : record(&data->negative, sub, Py_False);
}

/* 1/0 from the caches (consulting the negative one only if fresh), 2 when
   they do not know. */
static int
cached_verdict(abc_data *data, PyObject *sub, int refresh_negative)
{
    int hit = weakset_has(&data->cache, sub);
    if (hit != 0) {
        return hit;
    }
    if (data->negative_token < abc_token) {
        if (!refresh_negative) {
            return 2;
        }
        if (weakset_clear(&data->negative) < 0) {
            return -1;
        }
        data->negative_token = abc_token;
        return 2;
    }
    hit = weakset_has(&data->negative, sub);
    return hit < 0 ? -1 : hit ? 0 : 2;
}

static PyObject *
abc_abc_subclasscheck(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("_abc_subclasscheck", nargs, 2, 2)) {
        return NULL;
    }
    PyObject *cls = args[0], *sub = args[1];
    if (!PyType_Check(sub)) {
        PyErr_SetString(PyExc_TypeError, "issubclass() arg 1 must be a class");
        return NULL;
    }
    abc_data *data = data_of(cls);
    if (data == NULL) {
        return NULL;
    }
    PyObject *result;
    int known = cached_verdict(data, sub, 1);
    if (known < 0) {
        result = NULL;
    }
    else if (known != 2) {
        result = Py_NewRef(known ? Py_True : Py_False);
    }
    else {
        result = decide_subclass(cls, data, sub);
    }
    Py_DECREF(data);
    return result;
}

static PyObject *
call_subclasscheck(PyObject *cls, PyObject *sub)
{
    return PyObject_CallMethod(cls, "__subclasscheck__", "O", sub);
}

/* isinstance() asks about both __class__ and type(): they differ for
   proxies. */
static PyObject *
check_both_classes(PyObject *cls, PyObject *claimed, PyObject *actual)
{
    PyObject *result = call_subclasscheck(cls, claimed);
    if (result == NULL) {
        return NULL;
    }
    int yes = PyObject_IsTrue(result);
    if (yes != 0) {
        if (yes < 0) {
            Py_CLEAR(result);
        }
        return result;
    }
    Py_DECREF(result);
    return call_subclasscheck(cls, actual);
}

static PyObject *
abc_abc_instancecheck(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("_abc_instancecheck", nargs, 2, 2)) {
        return NULL;
    }
    PyObject *cls = args[0], *instance = args[1];
    abc_data *data = data_of(cls);
    if (data == NULL) {
        return NULL;
    }
    PyObject *claimed = PyObject_GetAttrString(instance, "__class__");
    if (claimed == NULL) {
        Py_DECREF(data);
        return NULL;
    }
    PyObject *actual = (PyObject *)Py_TYPE(instance);
    PyObject *result;
    int known = cached_verdict(data, claimed, 0);
    if (known < 0) {
        result = NULL;
    }
    else if (known == 1 || (known == 0 && claimed == actual)) {
        result = Py_NewRef(known ? Py_True : Py_False);
    }
    else if (claimed == actual) {
        result = call_subclasscheck(cls, claimed);
    }
    else {
        result = check_both_classes(cls, claimed, actual);
    }
    Py_DECREF(claimed);
    Py_DECREF(data);
    return result;
}

/* ---- Introspection and resets ------------------------------------------------ */

static PyObject *
abc_get_dump(PyObject *module, PyObject *cls)
{
    abc_data *data = data_of(cls);
    if (data == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    PyObject *reg = weakset_snapshot(&data->registry);
    PyObject *pos = weakset_snapshot(&data->cache);
    PyObject *neg = weakset_snapshot(&data->negative);
    PyObject *token = PyLong_FromUnsignedLongLong(data->negative_token);
    if (reg != NULL && pos != NULL && neg != NULL && token != NULL) {
        result = PyTuple_Pack(4, reg, pos, neg, token);
    }
    Py_XDECREF(reg);
    Py_XDECREF(pos);
    Py_XDECREF(neg);
    Py_XDECREF(token);
    Py_DECREF(data);
    return result;
}

static PyObject *
abc_reset_registry(PyObject *module, PyObject *cls)
{
    abc_data *data = data_of(cls);
    if (data == NULL) {
        return NULL;
    }
    int r = weakset_clear(&data->registry);
    Py_DECREF(data);
    if (r < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
abc_reset_caches(PyObject *module, PyObject *cls)
{
    abc_data *data = data_of(cls);
    if (data == NULL) {
        return NULL;
    }
    int r = weakset_clear(&data->cache);
    if (r == 0) {
        r = weakset_clear(&data->negative);
    }
    Py_DECREF(data);
    if (r < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
abc_get_cache_token(PyObject *module, PyObject *unused)
{
    return PyLong_FromUnsignedLongLong(abc_token);
}

#define FAST(name) (PyCFunction)(void (*)(void))(name)

static PyMethodDef abc_methods[] = {
    {"get_cache_token", abc_get_cache_token, METH_NOARGS,
     "get_cache_token($module, /)\n--\n\n"
     "The current ABC cache token: an opaque value that changes whenever a\n"
     "class is registered with any ABC."},
    {"_abc_init", abc_abc_init, METH_O,
     "_abc_init($module, self, /)\n--\n\n"
     "Set up a new ABC: its __abstractmethods__ and its _abc_impl data."},
    {"_abc_register", FAST(abc_abc_register), METH_FASTCALL,
     "_abc_register($module, self, subclass, /)\n--\n\n"
     "Make subclass a virtual subclass of the ABC and return it."},
    {"_abc_instancecheck", FAST(abc_abc_instancecheck), METH_FASTCALL,
     "_abc_instancecheck($module, self, instance, /)\n--\n\n"
     "isinstance(instance, self) for an ABC."},
    {"_abc_subclasscheck", FAST(abc_abc_subclasscheck), METH_FASTCALL,
     "_abc_subclasscheck($module, self, subclass, /)\n--\n\n"
     "issubclass(subclass, self) for an ABC."},
    {"_get_dump", abc_get_dump, METH_O,
     "_get_dump($module, self, /)\n--\n\n"
     "(registry, cache, negative cache, negative cache token) of an ABC,\n"
     "the sets holding weak references.  For debugging."},
    {"_reset_registry", abc_reset_registry, METH_O,
     "_reset_registry($module, self, /)\n--\n\n"
     "Forget every class registered with the ABC."},
    {"_reset_caches", abc_reset_caches, METH_O,
     "_reset_caches($module, self, /)\n--\n\n"
     "Empty both subclass caches of the ABC."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef abcmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_abc",
    .m_doc = "The machinery behind abc.ABCMeta, in C.",
    .m_size = -1,
    .m_methods = abc_methods,
};

PyObject *
PyInit__abc(void)
{
    if (_PyStaticType_InitBuiltin(&abc_data_type) < 0) {
        return NULL;
    }
    return PyModule_Create(&abcmodule);
}
