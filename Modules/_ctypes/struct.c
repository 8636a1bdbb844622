/* _ctypes: Structure and Union.

   Their metatypes (PyCStructType, UnionType) watch `_fields_`: when a
   class body defines it, or it is assigned once later, the layout is asked
   of ctypes._layout.get_layout (Python code: offsets, padding, bitfields,
   _pack_, _align_, the buffer format) and the CField objects it returns
   become the class's attributes.  `_anonymous_` members then get their own
   fields lifted into the outer class.  A subclass without `_fields_` takes
   its base's layout as it is. */

#include "ctypes.h"
#include <string.h>

static int
is_struct_meta(PyObject *type)
{
    return PyObject_TypeCheck(type, &PyCStructType_Type);
}

/* The libffi description of an aggregate, from its fields: enough for
   libffi to classify it when passed by value. */
static int
build_ffi(TypeInfo *info, int is_struct)
{
    Py_ssize_t n = PyTuple_GET_SIZE(info->fields);
    ffi_type **elems = PyMem_Calloc((size_t)n + 2, sizeof(ffi_type *));
    if (elems == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t k = 0;
    ffi_type *widest = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        CFieldObject *f = (CFieldObject *)PyTuple_GET_ITEM(info->fields, i);
        ffi_type *t = _PyCtypes_FFIType(f->type);
        if (widest == NULL || t->alignment > widest->alignment ||
            (t->alignment == widest->alignment && t->size > widest->size)) {
            widest = t;
        }
        if (is_struct && (f->bit_size == 0 || f->bit_offset == 0)) {
            elems[k++] = t;
        }
    }
    if (!is_struct && widest != NULL) {
        elems[k++] = widest;
    }
    if (k == 0) {
        elems[k++] = &ffi_type_uchar;
    }
    elems[k] = NULL;
    PyMem_Free(info->ffi_elements);
    info->ffi_elements = elems;
    info->ffi.type = FFI_TYPE_STRUCT;
    info->ffi.size = (size_t)info->size;
    info->ffi.alignment = (unsigned short)info->align;
    info->ffi.elements = elems;
    return 0;
}

static PyObject *
concat_fields(PyObject *type, PyObject *own)
{
    PyTypeObject *base = ((PyTypeObject *)type)->tp_base;
    TypeInfo *binfo = _PyCtypes_Info((PyObject *)base);
    if (binfo == NULL || binfo->fields == NULL) {
        return Py_NewRef(own);
    }
    return PySequence_Concat(binfo->fields, own);
}

/* Lift the members of each `_anonymous_` field into the class. */
static int
lift_anonymous(PyObject *type, PyObject *own)
{
    PyObject *anon = _PyCtypes_TypeGet(type, "_anonymous_");
    if (anon == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *seq = PySequence_Fast(anon, "_anonymous_ must be a sequence");
    Py_DECREF(anon);
    if (seq == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *name = PySequence_Fast_GET_ITEM(seq, i);
        CFieldObject *outer = NULL;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(own); j++) {
            CFieldObject *f = (CFieldObject *)PyTuple_GET_ITEM(own, j);
            int eq = PyObject_RichCompareBool(f->name, name, Py_EQ);
            if (eq < 0) {
                goto error;
            }
            if (eq) {
                outer = f;
                break;
            }
        }
        if (outer == NULL) {
            PyErr_Format(PyExc_AttributeError, "'%U' is specified in _anonymous_ but not in "
                         "_fields_", name);
            goto error;
        }
        outer->anonymous = 1;
        TypeInfo *inner = _PyCtypes_Info(outer->type);
        if (inner == NULL || inner->fields == NULL) {
            PyErr_Format(PyExc_TypeError, "anonymous field %R must be a Structure or Union",
                         name);
            goto error;
        }
        /* The inner type's fields, and what it lifted from its own
           anonymous members. */
        PyObject *members = PyList_New(0);
        if (members == NULL) {
            goto error;
        }
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(inner->fields); j++) {
            if (PyList_Append(members, PyTuple_GET_ITEM(inner->fields, j)) < 0) {
                Py_DECREF(members);
                goto error;
            }
        }
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(((PyTypeObject *)outer->type)->tp_dict, &pos, &k, &v)) {
            if (PyObject_TypeCheck(v, &PyCField_Type) && PyList_Append(members, v) < 0) {
                Py_DECREF(members);
                goto error;
            }
        }
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(members); j++) {
            CFieldObject *src = (CFieldObject *)PyList_GET_ITEM(members, j);
            CFieldObject *f = PyObject_GC_New(CFieldObject, &PyCField_Type);
            if (f == NULL) {
                goto error;
            }
            f->name = Py_NewRef(src->name);
            f->type = Py_NewRef(src->type);
            f->byte_size = src->byte_size;
            f->byte_offset = src->byte_offset + outer->byte_offset;
            f->index = outer->index;
            f->bit_size = src->bit_size;
            f->bit_offset = src->bit_offset;
            f->anonymous = 0;
            PyObject_GC_Track((PyObject *)f);
            int rc = PyType_Type.tp_setattro(type, src->name, (PyObject *)f);
            Py_DECREF(f);
            if (rc < 0) {
                Py_DECREF(members);
                goto error;
            }
        }
        Py_DECREF(members);
    }
    Py_DECREF(seq);
    return 0;
error:
    Py_DECREF(seq);
    return -1;
}

/* An aggregate cannot hold itself by value: -1 with AttributeError when a
   field's type is `type`, else 0. */
static int
contains_type(PyObject *fields, PyObject *type)
{
    PyObject *seq = PySequence_Fast(fields, "_fields_ must be a sequence of pairs");
    if (seq == NULL) {
        return -1;
    }
    int found = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) && !found; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (PyTuple_Check(item) && PyTuple_GET_SIZE(item) >= 2 &&
            PyTuple_GET_ITEM(item, 1) == type) {
            found = 1;
        }
    }
    Py_DECREF(seq);
    if (found) {
        PyErr_SetString(PyExc_AttributeError, "Structure or union cannot contain itself");
        return -1;
    }
    return 0;
}

int
_PyCtypes_StructUpdateFields(PyObject *type, PyObject *fields, int is_struct)
{
    TypeInfo *info = _PyCtypes_Info(type);
    if (info == NULL && PyType_HasFeature((PyTypeObject *)type, Py_TPFLAGS_HEAPTYPE)) {
        /* Still inside type.__new__ (an __init_subclass__ assigning
           _fields_): the type's record does not exist yet. */
        PyErr_SetString(PyExc_TypeError, "ctypes state is not initialized");
        return -1;
    }
    if (info != NULL && info->final) {
        PyErr_SetString(PyExc_AttributeError, "_fields_ is final");
        return -1;
    }
    if (!PySequence_Check(fields) || PyUnicode_Check(fields) || PyBytes_Check(fields)) {
        PyErr_SetString(PyExc_TypeError, "_fields_ must be a sequence of pairs");
        return -1;
    }
    if (contains_type(fields, type) != 0) {
        return -1;
    }
    PyObject *layout_mod = PyImport_ImportModule("ctypes._layout");
    if (layout_mod == NULL) {
        return -1;
    }
    PyTypeObject *base = ((PyTypeObject *)type)->tp_base;
    PyObject *base_arg = _PyCtypes_Info((PyObject *)base) ? (PyObject *)base : Py_None;
    PyObject *layout = PyObject_CallMethod(layout_mod, "get_layout", "OOOO", type, fields,
                                           is_struct ? Py_True : Py_False, base_arg);
    Py_DECREF(layout_mod);
    if (layout == NULL) {
        return -1;
    }
    PyObject *own = NULL, *all = NULL, *size = NULL, *align = NULL, *fmt = NULL;
    PyObject *flist = PyObject_GetAttrString(layout, "fields");
    if (flist == NULL) {
        goto error;
    }
    own = PySequence_Tuple(flist);
    Py_DECREF(flist);
    if (own == NULL) {
        goto error;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(own); i++) {
        CFieldObject *f = (CFieldObject *)PyTuple_GET_ITEM(own, i);
        if (!PyObject_TypeCheck((PyObject *)f, &PyCField_Type)) {
            PyErr_SetString(PyExc_TypeError, "layout fields must be CField objects");
            goto error;
        }
        TypeInfo *fi = _PyCtypes_Info(f->type);
        if (fi != NULL) {
            fi->final = 1;      /* a member's layout cannot change any more */
        }
        if (PyType_Type.tp_setattro(type, f->name, (PyObject *)f) < 0) {
            goto error;
        }
    }
    size = PyObject_GetAttrString(layout, "size");
    align = size ? PyObject_GetAttrString(layout, "align") : NULL;
    fmt = align ? PyObject_GetAttrString(layout, "format_spec") : NULL;
    if (fmt == NULL) {
        goto error;
    }
    all = concat_fields(type, own);
    if (all == NULL) {
        goto error;
    }
    info = _PyCtypes_NewInfo(type, is_struct ? CT_STRUCT : CT_UNION);
    if (info == NULL) {
        goto error;
    }
    info->size = PyLong_AsSsize_t(size);
    info->align = PyLong_AsSsize_t(align);
    if (PyErr_Occurred()) {
        goto error;
    }
    info->fields = Py_NewRef(all);
    const char *fmt_s = PyUnicode_Check(fmt) ? PyUnicode_AsUTF8(fmt) : "B";
    if (fmt_s == NULL || _PyCtypes_SetFormat(info, fmt_s) < 0 || build_ffi(info, is_struct) < 0) {
        goto error;
    }
    if (lift_anonymous(type, own) < 0) {
        goto error;
    }
    info->final = 1;
    Py_DECREF(layout);
    Py_DECREF(own);
    Py_DECREF(all);
    Py_DECREF(size);
    Py_DECREF(align);
    Py_DECREF(fmt);
    return 0;
error:
    Py_DECREF(layout);
    Py_XDECREF(own);
    Py_XDECREF(all);
    Py_XDECREF(size);
    Py_XDECREF(align);
    Py_XDECREF(fmt);
    return -1;
}

/* A subclass without _fields_ shares its base's layout. */
static int
inherit_layout(PyObject *type, int is_struct)
{
    TypeInfo *binfo = _PyCtypes_Info((PyObject *)((PyTypeObject *)type)->tp_base);
    TypeInfo *info = _PyCtypes_NewInfo(type, is_struct ? CT_STRUCT : CT_UNION);
    if (info == NULL) {
        return -1;
    }
    if (binfo == NULL) {
        /* An aggregate with no fields yet (may get them later). */
        info->size = 0;
        info->align = 1;
        info->fields = PyTuple_New(0);
        if (info->fields == NULL || _PyCtypes_SetFormat(info, "B") < 0) {
            return -1;
        }
        return build_ffi(info, is_struct);
    }
    binfo->final = 1;
    info->size = binfo->size;
    info->align = binfo->align;
    info->fields = Py_XNewRef(binfo->fields);
    if (_PyCtypes_SetFormat(info, binfo->format ? binfo->format : "B") < 0) {
        return -1;
    }
    return build_ffi(info, is_struct);
}

static PyObject *
aggregate_meta_new(PyTypeObject *meta, PyObject *args, PyObject *kwds, int is_struct)
{
    PyObject *type = PyType_Type.tp_new(meta, args, kwds);
    if (type == NULL) {
        return NULL;
    }
    PyObject *dict = ((PyTypeObject *)type)->tp_dict;
    PyObject *fields = PyDict_GetItemString(dict, "_fields_");
    int rc;
    if (fields != NULL) {
        Py_INCREF(fields);
        rc = inherit_layout(type, is_struct);
        if (rc == 0) {
            ((CTypeObject *)type)->info->final = 0;
            /* Through setattr, so that a metaclass's __setattr__ (as
               BigEndianStructure's) sees the fields first. */
            rc = PyObject_SetAttrString(type, "_fields_", fields);
        }
        Py_DECREF(fields);
    }
    else {
        rc = inherit_layout(type, is_struct);
        if (rc == 0) {
            ((CTypeObject *)type)->info->final = 0;
        }
    }
    if (rc < 0) {
        Py_DECREF(type);
        return NULL;
    }
    /* A class body naming _abstract_ declares a base only meant to be
       subclassed: the class itself makes no instances (its subclasses,
       which do not repeat the name, do). */
    if (PyDict_GetItemString(dict, "_abstract_") != NULL) {
        ((CTypeObject *)type)->info->abstract = 1;
    }
    return type;
}

static PyObject *
struct_meta_new(PyTypeObject *meta, PyObject *args, PyObject *kwds)
{
    return aggregate_meta_new(meta, args, kwds, 1);
}

static PyObject *
union_meta_new(PyTypeObject *meta, PyObject *args, PyObject *kwds)
{
    return aggregate_meta_new(meta, args, kwds, 0);
}

static int
aggregate_meta_setattro(PyObject *type, PyObject *name, PyObject *value)
{
    if (value != NULL && PyUnicode_Check(name) &&
        PyUnicode_CompareWithASCIIString(name, "_fields_") == 0) {
        if (_PyCtypes_StructUpdateFields(type, value, is_struct_meta(type)) < 0) {
            return -1;
        }
    }
    return PyType_Type.tp_setattro(type, name, value);
}

/* from_param for aggregates, arrays and pointers: an instance of the type
   itself, a byref() of one, or something with _as_parameter_. */
static PyObject *
aggregate_from_param(PyObject *type, PyObject *value)
{
    if (PyObject_TypeCheck(value, (PyTypeObject *)type)) {
        return Py_NewRef(value);
    }
    if (PyObject_TypeCheck(value, &PyCArg_Type)) {
        PyObject *o = ((PyCArgObject *)value)->obj;
        if (o != NULL && PyObject_TypeCheck(o, (PyTypeObject *)type)) {
            return Py_NewRef(value);
        }
    }
    PyObject *converted;
    int retried = _PyCtypes_RetryAsParameter(type, value, aggregate_from_param, &converted);
    if (retried != 0) {
        return retried < 0 ? NULL : converted;
    }
    PyErr_Format(PyExc_TypeError, "expected %s instance instead of %s",
                 ((PyTypeObject *)type)->tp_name, Py_TYPE(value)->tp_name);
    return NULL;
}

static PyMethodDef aggregate_meta_methods[] = {
    {"from_param", aggregate_from_param, METH_O, "Turn an argument into what a call passes for this type."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyCStructType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.PyCStructType",
    .tp_basicsize = sizeof(CTypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_TYPE_SUBCLASS,
    .tp_new = struct_meta_new,
    .tp_setattro = aggregate_meta_setattro,
    .tp_methods = aggregate_meta_methods,
    .tp_doc = "metatype for the CData Objects",
};

PyTypeObject UnionType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.UnionType",
    .tp_basicsize = sizeof(CTypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_TYPE_SUBCLASS,
    .tp_new = union_meta_new,
    .tp_setattro = aggregate_meta_setattro,
    .tp_methods = aggregate_meta_methods,
    .tp_doc = "metatype for the CData Objects",
};

/* Shared by the array and pointer metatypes. */
PyMethodDef *_PyCtypes_AggregateFromParamDef = aggregate_meta_methods;

/* ---- Instances --------------------------------------------------------------------- */

static PyObject *
aggregate_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return _PyCtypes_NewOwned(type);
}

int
_PyCtypes_StructInit(PyObject *self, PyObject *args, PyObject *kwds)
{
    TypeInfo *info = _PyCtypes_InfoOfObject(self);
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    Py_ssize_t nfields = info->fields ? PyTuple_GET_SIZE(info->fields) : 0;
    if (nargs > nfields) {
        PyErr_SetString(PyExc_TypeError, "too many initializers");
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        CFieldObject *f = (CFieldObject *)PyTuple_GET_ITEM(info->fields, i);
        if (kwds != NULL) {
            int has = PyDict_Contains(kwds, f->name);
            if (has < 0) {
                return -1;
            }
            if (has) {
                PyErr_Format(PyExc_TypeError, "duplicate values for field %R", f->name);
                return -1;
            }
        }
        if (PyObject_SetAttr(self, f->name, PyTuple_GET_ITEM(args, i)) < 0) {
            return -1;
        }
    }
    if (kwds != NULL) {
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(kwds, &pos, &k, &v)) {
            if (PyObject_SetAttr(self, k, v) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

PyTypeObject Struct_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.Structure",
    .tp_basicsize = sizeof(CDataObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = aggregate_new,
    .tp_init = _PyCtypes_StructInit,
    .tp_doc = "Structure base class",
};

PyTypeObject Union_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.Union",
    .tp_basicsize = sizeof(CDataObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = aggregate_new,
    .tp_init = _PyCtypes_StructInit,
    .tp_doc = "Union base class",
};
