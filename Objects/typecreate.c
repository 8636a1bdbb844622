/* Classes made at run time: type.__new__ (what a class statement calls)
   and the life of their instances (subtype_dealloc and friends).

   A class's instances extend the layout of its "solid base" with the
   __slots__ members, then the __dict__ pointer, then the __weakref__
   list; subclasses of variable-size types keep the last two in a
   pre-header instead (see Doc/object-model.md). */
#include "Python.h"
#include "pycore_call.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_typeobject.h"
#include "pycore_unicodeobject.h"
#include "pycore_identifiers.h"

static void subtype_dealloc(PyObject *self);

/* ---- Instances of heap types ----------------------------------------------------- */

#define HEAP_MEMBERS(etype) \
    ((PyMemberDef *)(((char *)(etype)) + Py_TYPE(etype)->tp_basicsize))

static void
clear_slots(PyTypeObject *type, PyObject *self)
{
    Py_ssize_t n = Py_SIZE(type);
    PyMemberDef *mp = HEAP_MEMBERS((PyHeapTypeObject *)type);
    for (Py_ssize_t i = 0; i < n; i++, mp++) {
        if (mp->type == Py_T_OBJECT_EX && !(mp->flags & Py_READONLY)) {
            PyObject **addr = (PyObject **)((char *)self + mp->offset);
            Py_CLEAR(*addr);
        }
    }
}

/* The nearest base whose dealloc is not ours: it frees the object. */
static PyTypeObject *
static_dealloc_base(PyTypeObject *type)
{
    PyTypeObject *base = type;
    while (base->tp_dealloc == subtype_dealloc) {
        base = base->tp_base;
    }
    return base;
}

static int
call_heap_finalizer(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    if (type->tp_finalize == NULL) {
        return 0;
    }
    /* Only a finalizer a heap type brought in (via __del__) is ours to
       call; a static base calls its own from its dealloc. */
    PyTypeObject *base = static_dealloc_base(type);
    if (base->tp_finalize == type->tp_finalize) {
        return 0;
    }
    int was_tracked = PyType_IS_GC(type) && _PyObject_GC_IS_TRACKED(self);
    if (PyType_IS_GC(type) && !was_tracked) {
        PyObject_GC_Track(self);
    }
    int resurrected = PyObject_CallFinalizerFromDealloc(self);
    if (resurrected) {
        return -1;
    }
    if (PyType_IS_GC(type)) {
        PyObject_GC_UnTrack(self);
    }
    return 0;
}

static void
subtype_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyTypeObject *base = static_dealloc_base(type);

    if (PyType_IS_GC(type)) {
        PyObject_GC_UnTrack(self);
    }
    if (call_heap_finalizer(self) < 0) {
        return;
    }
    if (type->tp_weaklistoffset && !base->tp_weaklistoffset) {
        PyObject_ClearWeakRefs(self);
    }
    for (PyTypeObject *t = type; t != base; t = t->tp_base) {
        if (Py_SIZE(t)) {
            clear_slots(t, self);
        }
    }
    if (type->tp_dictoffset && !base->tp_dictoffset) {
        PyObject **dictptr = _PyObject_GetDictPtr(self);
        if (dictptr != NULL) {
            Py_CLEAR(*dictptr);
        }
    }
    /* A GC base expects to untrack the object itself. */
    if (PyType_IS_GC(base)) {
        PyObject_GC_Track(self);
    }
    base->tp_dealloc(self);
    /* Instances own a reference to their heap type; static bases do not
       know that, so it is released here. */
    if (!PyType_HasFeature(base, Py_TPFLAGS_HEAPTYPE)) {
        Py_DECREF(type);
    }
}

static int
subtype_traverse(PyObject *self, visitproc visit, void *arg)
{
    PyTypeObject *type = Py_TYPE(self);
    PyTypeObject *base = type;
    while (base->tp_traverse == subtype_traverse) {
        Py_ssize_t n = Py_SIZE(base);
        PyMemberDef *mp = HEAP_MEMBERS((PyHeapTypeObject *)base);
        for (Py_ssize_t i = 0; i < n; i++, mp++) {
            if (mp->type == Py_T_OBJECT_EX) {
                Py_VISIT(*(PyObject **)((char *)self + mp->offset));
            }
        }
        base = base->tp_base;
    }
    if (type->tp_dictoffset != base->tp_dictoffset) {
        PyObject **dictptr = _PyObject_GetDictPtr(self);
        if (dictptr != NULL) {
            Py_VISIT(*dictptr);
        }
    }
    Py_VISIT(type);
    if (base->tp_traverse != NULL) {
        return base->tp_traverse(self, visit, arg);
    }
    return 0;
}

static int
subtype_clear(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyTypeObject *base = type;
    while (base->tp_clear == subtype_clear) {
        if (Py_SIZE(base)) {
            clear_slots(base, self);
        }
        base = base->tp_base;
    }
    if (type->tp_dictoffset != base->tp_dictoffset) {
        PyObject **dictptr = _PyObject_GetDictPtr(self);
        if (dictptr != NULL) {
            Py_CLEAR(*dictptr);
        }
    }
    if (base->tp_clear != NULL) {
        return base->tp_clear(self);
    }
    return 0;
}

static PyObject *
subtype_dict(PyObject *obj, void *context)
{
    return PyObject_GenericGetDict(obj, context);
}

static int
subtype_setdict(PyObject *obj, PyObject *value, void *context)
{
    return PyObject_GenericSetDict(obj, value, context);
}

static PyObject *
subtype_getweakref(PyObject *obj, void *context)
{
    Py_ssize_t offset = Py_TYPE(obj)->tp_weaklistoffset;
    if (offset == 0) {
        PyErr_SetString(PyExc_AttributeError, "This object has no __weakref__");
        return NULL;
    }
    PyObject *ref = *(PyObject **)((char *)obj + offset);
    return Py_NewRef(ref == NULL ? Py_None : ref);
}

static PyGetSetDef subtype_getsets_full[] = {
    {"__dict__", subtype_dict, subtype_setdict, "dictionary for instance variables", NULL},
    {"__weakref__", subtype_getweakref, NULL, "list of weak references to the object", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyGetSetDef subtype_getsets_dict_only[] = {
    {"__dict__", subtype_dict, subtype_setdict, "dictionary for instance variables", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyGetSetDef subtype_getsets_weakref_only[] = {
    {"__weakref__", subtype_getweakref, NULL, "list of weak references to the object", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- type.__new__: classes made at run time ----------------------------------------- */

typedef struct {
    PyTypeObject *metatype;
    PyObject *args;
    PyObject *kwds;
    PyObject *orig_dict;
    PyObject *name;
    PyObject *bases;
    PyTypeObject *base;
    PyObject *slots;    /* tuple of mangled, sorted slot names, or NULL */
    Py_ssize_t nslots;
    int add_dict;
    int add_weak;
    int may_add_dict;
    int may_add_weak;
} type_new_ctx;

static int
valid_identifier(PyObject *s)
{
    if (!PyUnicode_Check(s)) {
        PyErr_Format(PyExc_TypeError, "__slots__ items must be strings, not '%.200s'",
                     Py_TYPE(s)->tp_name);
        return 0;
    }
    if (!PyUnicode_IsIdentifier(s)) {
        PyErr_SetString(PyExc_TypeError, "__slots__ must be identifiers");
        return 0;
    }
    return 1;
}

/* Private names (__x, not __x__) in __slots__ are mangled like attribute
   names in the class body: _Class__x. */
static PyObject *
mangle_name(PyObject *classname, PyObject *name)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(name);
    if (len < 2 || PyUnicode_READ_CHAR(name, 0) != '_' || PyUnicode_READ_CHAR(name, 1) != '_' ||
        (len >= 4 && PyUnicode_READ_CHAR(name, len - 1) == '_' &&
         PyUnicode_READ_CHAR(name, len - 2) == '_')) {
        return Py_NewRef(name);
    }
    Py_ssize_t start = 0, clen = PyUnicode_GET_LENGTH(classname);
    while (start < clen && PyUnicode_READ_CHAR(classname, start) == '_') {
        start++;
    }
    if (start == clen) {
        return Py_NewRef(name);
    }
    PyObject *stripped = PyUnicode_Substring(classname, start, clen);
    if (stripped == NULL) {
        return NULL;
    }
    PyObject *res = PyUnicode_FromFormat("_%U%U", stripped, name);
    Py_DECREF(stripped);
    return res;
}

static int
type_new_visit_slots(type_new_ctx *ctx, PyObject *slots)
{
    Py_ssize_t n = PyTuple_GET_SIZE(slots);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(slots, i);
        if (!valid_identifier(name)) {
            return -1;
        }
        if (_PyUnicode_EqualToASCIIString(name, "__dict__")) {
            if (!ctx->may_add_dict || ctx->add_dict != 0) {
                PyErr_SetString(PyExc_TypeError, "__dict__ slot disallowed: we already got one");
                return -1;
            }
            ctx->add_dict++;
        }
        if (_PyUnicode_EqualToASCIIString(name, "__weakref__")) {
            if (!ctx->may_add_weak || ctx->add_weak != 0) {
                PyErr_SetString(PyExc_TypeError,
                                "__weakref__ slot disallowed: we already got one");
                return -1;
            }
            ctx->add_weak++;
        }
    }
    return 0;
}

static PyObject *
type_new_copy_slots(type_new_ctx *ctx, PyObject *dict, PyObject *slots)
{
    Py_ssize_t n = PyTuple_GET_SIZE(slots);
    PyObject *newslots = PyList_New(0);
    if (newslots == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *slot = PyTuple_GET_ITEM(slots, i);
        if ((ctx->add_dict && _PyUnicode_EqualToASCIIString(slot, "__dict__")) ||
            (ctx->add_weak && _PyUnicode_EqualToASCIIString(slot, "__weakref__"))) {
            continue;
        }
        PyObject *mangled = mangle_name(ctx->name, slot);
        if (mangled == NULL) {
            goto error;
        }
        PyUnicode_InternInPlace(&mangled);
        int rc = PyList_Append(newslots, mangled);
        if (rc == 0) {
            rc = PyDict_Contains(dict, mangled);
            if (rc > 0 && !_PyUnicode_EqualToASCIIString(mangled, "__qualname__") &&
                !_PyUnicode_EqualToASCIIString(mangled, "__classcell__") &&
                !_PyUnicode_EqualToASCIIString(mangled, "__classdictcell__")) {
                PyErr_Format(PyExc_ValueError, "%R in __slots__ conflicts with class variable",
                             slot);
                rc = -1;
            }
        }
        Py_DECREF(mangled);
        if (rc < 0) {
            goto error;
        }
    }
    if (PyList_Sort(newslots) < 0) {
        goto error;
    }
    PyObject *tuple = PyList_AsTuple(newslots);
    Py_DECREF(newslots);
    return tuple;
error:
    Py_DECREF(newslots);
    return NULL;
}

/* Another base (not the layout base) may already bring __dict__ or
   __weakref__. */
static void
type_new_slots_bases(type_new_ctx *ctx)
{
    Py_ssize_t nbases = PyTuple_GET_SIZE(ctx->bases);
    for (Py_ssize_t i = 0; i < nbases; i++) {
        PyTypeObject *b = (PyTypeObject *)PyTuple_GET_ITEM(ctx->bases, i);
        if (b == ctx->base) {
            continue;
        }
        if (ctx->may_add_dict && ctx->add_dict == 0 && b->tp_dictoffset != 0) {
            ctx->add_dict++;
        }
        if (ctx->may_add_weak && ctx->add_weak == 0 && b->tp_weaklistoffset != 0) {
            ctx->add_weak++;
        }
    }
}

static int
type_new_slots(type_new_ctx *ctx, PyObject *dict)
{
    ctx->add_dict = 0;
    ctx->add_weak = 0;
    ctx->may_add_dict = ctx->base->tp_dictoffset == 0;
    ctx->may_add_weak = ctx->base->tp_weaklistoffset == 0;

    PyObject *slots;
    if (PyDict_GetItemRef(dict, _Py_ID(__slots__), &slots) < 0) {
        return -1;
    }
    if (slots == NULL) {
        ctx->add_dict = ctx->may_add_dict;
        ctx->add_weak = ctx->may_add_weak;
        ctx->nslots = 0;
        return 0;
    }
    if (PyUnicode_Check(slots)) {
        Py_SETREF(slots, PyTuple_Pack(1, slots));
    }
    else {
        Py_SETREF(slots, PySequence_Tuple(slots));
    }
    if (slots == NULL) {
        return -1;
    }
    Py_ssize_t nslots = PyTuple_GET_SIZE(slots);
    /* Variable-size instances have no fixed place for slots, except str's:
       a subclass instance keeps its code points after them. */
    if (nslots > 0 && ctx->base->tp_itemsize != 0 && !PyType_IsSubtype(ctx->base, &PyUnicode_Type)) {
        PyErr_Format(PyExc_TypeError, "nonempty __slots__ not supported for subtype of '%s'",
                     ctx->base->tp_name);
        goto error;
    }
    if (type_new_visit_slots(ctx, slots) < 0) {
        goto error;
    }
    PyObject *newslots = type_new_copy_slots(ctx, dict, slots);
    if (newslots == NULL) {
        goto error;
    }
    Py_DECREF(slots);
    ctx->slots = newslots;
    ctx->nslots = PyTuple_GET_SIZE(newslots);
    type_new_slots_bases(ctx);
    return 0;
error:
    Py_DECREF(slots);
    return -1;
}

static int
type_new_set_names(PyTypeObject *type, PyObject *name)
{
    PyHeapTypeObject *et = (PyHeapTypeObject *)type;
    Py_ssize_t size;
    const char *tp_name = PyUnicode_AsUTF8AndSize(name, &size);
    if (tp_name == NULL) {
        return -1;
    }
    if (strlen(tp_name) != (size_t)size) {
        PyErr_SetString(PyExc_ValueError, "type name must not contain null characters");
        return -1;
    }
    et->_ht_tpname = PyMem_Malloc((size_t)size + 1);
    if (et->_ht_tpname == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(et->_ht_tpname, tp_name, (size_t)size + 1);
    type->tp_name = et->_ht_tpname;
    et->ht_name = Py_NewRef(name);
    return 0;
}

/* __module__ defaults to the __name__ of the globals the class statement
   runs in. */
static int
type_new_set_module(PyObject *dict)
{
    int rc = PyDict_Contains(dict, _Py_ID(__module__));
    if (rc != 0) {
        return rc < 0 ? -1 : 0;
    }
    PyObject *globals = PyEval_GetGlobals();
    if (globals == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *module;
    rc = PyDict_GetItemRef(globals, _Py_ID(__name__), &module);
    if (rc <= 0) {
        return rc;
    }
    rc = PyDict_SetItem(dict, _Py_ID(__module__), module);
    Py_DECREF(module);
    return rc;
}

static int
type_new_set_qualname(PyHeapTypeObject *et, PyObject *dict)
{
    PyObject *qualname;
    if (PyDict_GetItemRef(dict, _Py_ID(__qualname__), &qualname) < 0) {
        return -1;
    }
    if (qualname == NULL) {
        et->ht_qualname = Py_NewRef(et->ht_name);
        return 0;
    }
    if (!PyUnicode_Check(qualname)) {
        PyErr_Format(PyExc_TypeError, "type __qualname__ must be a str, not %s",
                     Py_TYPE(qualname)->tp_name);
        Py_DECREF(qualname);
        return -1;
    }
    et->ht_qualname = qualname;
    return PyDict_DelItem(dict, _Py_ID(__qualname__));
}

static int
type_new_set_doc(PyTypeObject *type, PyObject *dict, PyObject *slots)
{
    PyObject *doc;
    if (PyDict_GetItemRef(dict, _Py_ID(__doc__), &doc) < 0) {
        return -1;
    }
    if (doc == NULL) {
        /* A class without a docstring reads None, unless __doc__ is one
           of its slots: then the slot's descriptor takes the name. */
        int is_slot = slots != NULL ? PySequence_Contains(slots, _Py_ID(__doc__)) : 0;
        if (is_slot != 0) {
            return is_slot < 0 ? -1 : 0;
        }
        return PyDict_SetItem(dict, _Py_ID(__doc__), Py_None);
    }
    if (PyUnicode_Check(doc)) {
        Py_ssize_t size;
        const char *s = PyUnicode_AsUTF8AndSize(doc, &size);
        if (s == NULL) {
            /* A doc that cannot be encoded still works through __doc__. */
            PyErr_Clear();
        }
        else {
            char *copy = PyMem_Malloc((size_t)size + 1);
            if (copy == NULL) {
                Py_DECREF(doc);
                PyErr_NoMemory();
                return -1;
            }
            memcpy(copy, s, (size_t)size + 1);
            type->tp_doc = copy;
        }
    }
    Py_DECREF(doc);
    return 0;
}

/* Plain functions named __new__, __init_subclass__ and __class_getitem__
   are made static / class methods implicitly. */
static int
wrap_implicit_method(PyObject *dict, PyObject *name, PyObject *(*wrap)(PyObject *))
{
    PyObject *func;
    int rc = PyDict_GetItemRef(dict, name, &func);
    if (rc <= 0) {
        return rc;
    }
    if (PyFunction_Check(func)) {
        PyObject *wrapped = wrap(func);
        rc = wrapped == NULL ? -1 : PyDict_SetItem(dict, name, wrapped);
        Py_XDECREF(wrapped);
    }
    Py_DECREF(func);
    return rc;
}

/* The compiler's __classcell__ is the __class__ cell of the methods that
   use zero-argument super(); it must point at the new class. */
static int
type_new_set_classcell(PyTypeObject *type, PyObject *dict, PyObject *cellname, PyObject *value)
{
    PyObject *cell;
    int rc = PyDict_GetItemRef(dict, cellname, &cell);
    if (rc <= 0) {
        return rc;
    }
    if (!PyCell_Check(cell)) {
        PyErr_Format(PyExc_TypeError, "%U must be a nonlocal cell, not %.200R", cellname,
                     Py_TYPE(cell));
        Py_DECREF(cell);
        return -1;
    }
    rc = PyCell_Set(cell, value);
    Py_DECREF(cell);
    if (rc < 0) {
        return -1;
    }
    return PyDict_DelItem(dict, cellname);
}

static int
type_new_set_attrs(type_new_ctx *ctx, PyTypeObject *type)
{
    PyObject *dict = type->tp_dict;
    if (type_new_set_names(type, ctx->name) < 0 || type_new_set_module(dict) < 0 ||
        type_new_set_qualname((PyHeapTypeObject *)type, dict) < 0 ||
        type_new_set_doc(type, dict, ((PyHeapTypeObject *)type)->ht_slots) < 0) {
        return -1;
    }
    if (wrap_implicit_method(dict, _Py_ID(__new__), PyStaticMethod_New) < 0 ||
        wrap_implicit_method(dict, _Py_ID(__init_subclass__), PyClassMethod_New) < 0 ||
        wrap_implicit_method(dict, _Py_ID(__class_getitem__), PyClassMethod_New) < 0) {
        return -1;
    }
    if (type_new_set_classcell(type, dict, _Py_ID(__classcell__), (PyObject *)type) < 0) {
        return -1;
    }
    return type_new_set_classcell(type, dict, _Py_ID(__classdictcell__), dict);
}

static void
type_new_set_layout(type_new_ctx *ctx, PyTypeObject *type)
{
    PyHeapTypeObject *et = (PyHeapTypeObject *)type;
    PyTypeObject *base = ctx->base;
    Py_ssize_t slotoffset = base->tp_basicsize;
    if (et->ht_slots != NULL) {
        PyMemberDef *mp = HEAP_MEMBERS(et);
        for (Py_ssize_t i = 0; i < ctx->nslots; i++, mp++) {
            mp->name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(et->ht_slots, i));
            mp->type = Py_T_OBJECT_EX;
            mp->offset = slotoffset;
            mp->flags = 0;
            mp->doc = NULL;
            slotoffset += sizeof(PyObject *);
        }
        type->tp_members = HEAP_MEMBERS(et);
    }
    int preheader = base->tp_itemsize != 0 || _PyType_HasPreHeader(base);
    if (ctx->add_dict && preheader) {
        type->tp_flags |= Py_TPFLAGS_MANAGED_DICT;
        type->tp_dictoffset = _PyType_MANAGED_DICT_OFFSET;
    }
    else if (ctx->add_dict) {
        type->tp_dictoffset = slotoffset;
        slotoffset += sizeof(PyObject *);
    }
    if (ctx->add_weak && preheader) {
        type->tp_flags |= Py_TPFLAGS_MANAGED_WEAKREF;
        type->tp_weaklistoffset = _PyType_MANAGED_WEAKREF_OFFSET;
    }
    else if (ctx->add_weak) {
        type->tp_weaklistoffset = slotoffset;
        slotoffset += sizeof(PyObject *);
    }
    if (_PyType_HasPreHeader(type) || _PyType_HasPreHeader(base)) {
        type->tp_free = _PyType_FreeWithPreHeader;
    }
    type->tp_basicsize = slotoffset;
    type->tp_itemsize = base->tp_itemsize;
    if (ctx->add_dict && ctx->add_weak) {
        type->tp_getset = subtype_getsets_full;
    }
    else if (ctx->add_dict) {
        type->tp_getset = subtype_getsets_dict_only;
    }
    else if (ctx->add_weak) {
        type->tp_getset = subtype_getsets_weakref_only;
    }
}

static PyTypeObject *
type_new_alloc(type_new_ctx *ctx)
{
    PyTypeObject *type = (PyTypeObject *)ctx->metatype->tp_alloc(ctx->metatype, ctx->nslots);
    if (type == NULL) {
        return NULL;
    }
    PyHeapTypeObject *et = (PyHeapTypeObject *)type;
    PyTypeObject *base = ctx->base;
    /* Classes are always collectable: an instance can always come to refer
       to itself through its class. */
    type->tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HEAPTYPE | Py_TPFLAGS_BASETYPE |
                     Py_TPFLAGS_HAVE_GC;
    type->tp_traverse = subtype_traverse;
    type->tp_clear = subtype_clear;
    type->tp_as_async = &et->as_async;
    type->tp_as_number = &et->as_number;
    type->tp_as_sequence = &et->as_sequence;
    type->tp_as_mapping = &et->as_mapping;
    type->tp_as_buffer = &et->as_buffer;
    type->tp_bases = Py_NewRef(ctx->bases);
    type->tp_base = (PyTypeObject *)Py_NewRef(base);
    type->tp_dealloc = subtype_dealloc;
    type->tp_getattro = NULL;
    type->tp_alloc = PyType_GenericAlloc;
    type->tp_free = PyObject_GC_Del;
    et->ht_slots = ctx->slots;
    ctx->slots = NULL;
    return type;
}

static int
type_new_get_bases(type_new_ctx *ctx, PyObject **type_out)
{
    Py_ssize_t nbases = PyTuple_GET_SIZE(ctx->bases);
    if (nbases == 0) {
        ctx->bases = PyTuple_Pack(1, &PyBaseObject_Type);
        if (ctx->bases == NULL) {
            return -1;
        }
        ctx->base = &PyBaseObject_Type;
        return 0;
    }
    for (Py_ssize_t i = 0; i < nbases; i++) {
        PyObject *b = PyTuple_GET_ITEM(ctx->bases, i);
        if (PyType_Check(b)) {
            continue;
        }
        PyObject *mro_entries;
        int rc = PyObject_GetOptionalAttr(b, _Py_ID(__mro_entries__), &mro_entries);
        if (rc < 0) {
            return -1;
        }
        if (mro_entries != NULL) {
            Py_DECREF(mro_entries);
            PyErr_SetString(PyExc_TypeError,
                            "type() doesn't support MRO entry resolution; use types.new_class()");
            return -1;
        }
    }
    PyTypeObject *winner = _PyType_CalculateMetaclass(ctx->metatype, ctx->bases);
    if (winner == NULL) {
        return -1;
    }
    if (winner != ctx->metatype) {
        if (winner->tp_new != _PyType_New) {
            /* A more derived metaclass with its own __new__ takes over. */
            *type_out = winner->tp_new(winner, ctx->args, ctx->kwds);
            return *type_out == NULL ? -1 : 1;
        }
        ctx->metatype = winner;
    }
    ctx->base = _PyType_BestBase(ctx->bases);
    if (ctx->base == NULL) {
        return -1;
    }
    Py_INCREF(ctx->bases);
    return 0;
}

static int
type_new_set_names_of_attrs(PyTypeObject *type)
{
    PyObject *names_to_set = PyDict_Copy(type->tp_dict);
    if (names_to_set == NULL) {
        return -1;
    }
    Py_ssize_t i = 0;
    PyObject *key, *value;
    while (PyDict_Next(names_to_set, &i, &key, &value)) {
        PyObject *set_name = _PyObject_LookupSpecial(value, _Py_ID(__set_name__));
        if (set_name == NULL) {
            if (PyErr_Occurred()) {
                goto error;
            }
            continue;
        }
        PyObject *res = PyObject_CallFunctionObjArgs(set_name, type, key, NULL);
        Py_DECREF(set_name);
        if (res == NULL) {
            PyObject *exc = PyErr_GetRaisedException();
            PyObject *note = PyUnicode_FromFormat(
                "Error calling __set_name__ on '%.100s' instance %R in '%.100s'",
                Py_TYPE(value)->tp_name, key, type->tp_name);
            if (note != NULL) {
                PyObject *r = PyObject_CallMethod(exc, "add_note", "O", note);
                Py_XDECREF(r);
                Py_DECREF(note);
                PyErr_Clear();
            }
            PyErr_SetRaisedException(exc);
            goto error;
        }
        Py_DECREF(res);
    }
    Py_DECREF(names_to_set);
    return 0;
error:
    Py_DECREF(names_to_set);
    return -1;
}

/* super(type, type).__init_subclass__(**kwds) */
static int
type_new_init_subclass(PyTypeObject *type, PyObject *kwds)
{
    PyObject *func = _PySuper_Lookup(type, (PyObject *)type, _Py_ID(__init_subclass__), NULL);
    if (func == NULL) {
        return -1;
    }
    PyObject *res = PyObject_VectorcallDict(func, NULL, 0, kwds);
    Py_DECREF(func);
    if (res == NULL) {
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

static PyObject *
type_new_impl(type_new_ctx *ctx)
{
    PyObject *dict = PyDict_Copy(ctx->orig_dict);
    if (dict == NULL) {
        return NULL;
    }
    if (type_new_slots(ctx, dict) < 0) {
        Py_DECREF(dict);
        return NULL;
    }
    PyTypeObject *type = type_new_alloc(ctx);
    if (type == NULL) {
        Py_DECREF(dict);
        return NULL;
    }
    type->tp_dict = dict;
    if (type_new_set_attrs(ctx, type) < 0) {
        goto error;
    }
    type_new_set_layout(ctx, type);
    if (PyType_Ready(type) < 0) {
        goto error;
    }
    _PyType_FixupSlotDispatchers(type);
    if (type_new_set_names_of_attrs(type) < 0) {
        goto error;
    }
    if (type_new_init_subclass(type, ctx->kwds) < 0) {
        goto error;
    }
    return (PyObject *)type;
error:
    Py_DECREF(type);
    return NULL;
}

static int
type_new_parse_args(PyObject *args, type_new_ctx *ctx)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "type.__new__() takes exactly 3 arguments (%zd given)",
                     nargs);
        return -1;
    }
    PyObject *name = PyTuple_GET_ITEM(args, 0);
    PyObject *bases = PyTuple_GET_ITEM(args, 1);
    PyObject *dict = PyTuple_GET_ITEM(args, 2);
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "type.__new__() argument 1 must be str, not %s",
                     Py_TYPE(name)->tp_name);
        return -1;
    }
    if (!PyTuple_Check(bases)) {
        PyErr_Format(PyExc_TypeError, "type.__new__() argument 2 must be tuple, not %s",
                     Py_TYPE(bases)->tp_name);
        return -1;
    }
    if (!PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError, "type.__new__() argument 3 must be dict, not %s",
                     Py_TYPE(dict)->tp_name);
        return -1;
    }
    ctx->name = name;
    ctx->bases = bases;
    ctx->orig_dict = dict;
    return 0;
}

PyObject *
_PyType_New(PyTypeObject *metatype, PyObject *args, PyObject *kwds)
{
    type_new_ctx ctx = {
        .metatype = metatype,
        .args = args,
        .kwds = kwds,
    };
    if (type_new_parse_args(args, &ctx) < 0) {
        return NULL;
    }
    PyObject *type = NULL;
    int rc = type_new_get_bases(&ctx, &type);
    if (rc != 0) {
        return rc > 0 ? type : NULL;
    }
    type = type_new_impl(&ctx);
    Py_DECREF(ctx.bases);
    Py_XDECREF(ctx.slots);
    return type;
}

