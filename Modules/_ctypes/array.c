/* _ctypes: arrays.  PyCArrayType reads `_type_` and `_length_`; `c_int * 5`
   goes through _PyCtypes_ArrayType, which caches one class per (item type,
   length).  Arrays of c_char get `value` and `raw`, arrays of c_wchar get
   `value`, as descriptors put in the class at creation. */

#include "ctypes.h"
#include "pycore_typeobject.h"   /* PyWeakref_NewRef, PyWeakref_GetRef */
#include <string.h>
#include <wchar.h>

extern PyMethodDef *_PyCtypes_AggregateFromParamDef;

/* (id of item type, length) -> weakref to the array type.  The array type
   holds its item type (`_type_`), so while the weakref is alive the id names
   that very item type; neither is kept alive by the cache, so a class made
   in a loop and used as `Cls * n` goes away with its arrays.  A dying
   array type takes its entry with it through the weakref's callback. */
static PyObject *array_cache;

void
_PyCtypes_ClearArrayCache(void)
{
    Py_CLEAR(array_cache);
}

/* The weakref callback; self is the cache key. */
static PyObject *
forget_array_type(PyObject *key, PyObject *wr)
{
    if (array_cache != NULL) {
        PyObject *now = PyDict_GetItemWithError(array_cache, key);
        if (now == wr && PyDict_DelItem(array_cache, key) < 0) {
            return NULL;
        }
        if (now == NULL && PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static PyMethodDef forget_array_type_def = {
    "_forget_array_type", forget_array_type, METH_O, NULL,
};

static PyObject *
cached_array_type(PyObject *key)
{
    PyObject *wr = PyDict_GetItemWithError(array_cache, key);
    PyObject *res = NULL;
    if (wr != NULL && PyWeakref_GetRef(wr, &res) < 0) {
        return NULL;
    }
    return res;
}

static int
remember_array_type(PyObject *key, PyObject *arraytype)
{
    PyObject *callback = PyCFunction_New(&forget_array_type_def, key);
    if (callback == NULL) {
        return -1;
    }
    PyObject *wr = PyWeakref_NewRef(arraytype, callback);
    Py_DECREF(callback);
    if (wr == NULL) {
        return -1;
    }
    int rc = PyDict_SetItem(array_cache, key, wr);
    Py_DECREF(wr);
    return rc;
}

PyObject *
_PyCtypes_ArrayType(PyObject *itemtype, Py_ssize_t length)
{
    if (!PyType_Check(itemtype) || _PyCtypes_Info(itemtype) == NULL) {
        PyErr_SetString(PyExc_TypeError, "Expected a type object");
        return NULL;
    }
    if (array_cache == NULL) {
        array_cache = PyDict_New();
        if (array_cache == NULL) {
            return NULL;
        }
    }
    PyObject *key = Py_BuildValue("(Nn)", PyLong_FromVoidPtr(itemtype), length);
    if (key == NULL) {
        return NULL;
    }
    PyObject *res = cached_array_type(key);
    if (res != NULL || PyErr_Occurred()) {
        Py_DECREF(key);
        return res;
    }
    PyObject *name = PyUnicode_FromFormat("%s_Array_%zd",
                                          ((PyTypeObject *)itemtype)->tp_name, length);
    if (name == NULL) {
        Py_DECREF(key);
        return NULL;
    }
    res = PyObject_CallFunction((PyObject *)&PyCArrayType_Type, "N(O){s:n,s:O}", name,
                                (PyObject *)&PyCArray_Type, "_length_", length, "_type_",
                                itemtype);
    if (res != NULL && remember_array_type(key, res) < 0) {
        Py_CLEAR(res);
    }
    Py_DECREF(key);
    return res;
}

/* ---- char and wchar_t arrays ------------------------------------------------------------ */

static PyObject *
char_array_get_value(PyObject *self, void *Py_UNUSED(c))
{
    CDataObject *d = CDATA(self);
    Py_ssize_t n = 0;
    while (n < d->size && d->ptr[n]) {
        n++;
    }
    return PyBytes_FromStringAndSize(d->ptr, n);
}

static int
char_array_set_value(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    CDataObject *d = CDATA(self);
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "can't delete attribute");
        return -1;
    }
    if (!PyBytes_Check(value)) {
        PyErr_Format(PyExc_TypeError, "bytes expected instead of %s instance",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(value);
    if (n > d->size) {
        PyErr_SetString(PyExc_ValueError, "byte string too long");
        return -1;
    }
    memcpy(d->ptr, PyBytes_AS_STRING(value), (size_t)n);
    if (n < d->size) {
        d->ptr[n] = 0;
    }
    return 0;
}

static PyObject *
char_array_get_raw(PyObject *self, void *Py_UNUSED(c))
{
    return PyBytes_FromStringAndSize(CDATA(self)->ptr, CDATA(self)->size);
}

static int
char_array_set_raw(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    CDataObject *d = CDATA(self);
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete attribute");
        return -1;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(value, &view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    if (view.len > d->size) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "byte string too long");
        return -1;
    }
    memcpy(d->ptr, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    return 0;
}

static PyObject *
wchar_array_get_value(PyObject *self, void *Py_UNUSED(c))
{
    CDataObject *d = CDATA(self);
    wchar_t *w = (wchar_t *)d->ptr;
    Py_ssize_t max = d->size / (Py_ssize_t)sizeof(wchar_t), n = 0;
    while (n < max && w[n]) {
        n++;
    }
    return PyUnicode_FromWideChar(w, n);
}

static int
wchar_array_set_value(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    CDataObject *d = CDATA(self);
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "can't delete attribute");
        return -1;
    }
    if (!PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "unicode string expected instead of %s instance",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    Py_ssize_t max = d->size / (Py_ssize_t)sizeof(wchar_t);
    Py_ssize_t n = PyUnicode_AsWideChar(value, NULL, 0);   /* includes the NUL */
    if (n < 0) {
        return -1;
    }
    if (n - 1 > max) {
        PyErr_SetString(PyExc_ValueError, "string too long");
        return -1;
    }
    if (PyUnicode_AsWideChar(value, (wchar_t *)d->ptr, max) < 0) {
        return -1;
    }
    return 0;
}

static PyGetSetDef char_array_getset[] = {
    {"value", char_array_get_value, char_array_set_value, "string value", NULL},
    {"raw", char_array_get_raw, char_array_set_raw, "value", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyGetSetDef wchar_array_getset[] = {
    {"value", wchar_array_get_value, wchar_array_set_value, "string value", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static int
add_getsets(PyObject *type, PyGetSetDef *defs)
{
    for (PyGetSetDef *g = defs; g->name; g++) {
        PyObject *d = PyDescr_NewGetSet((PyTypeObject *)type, g);
        if (d == NULL) {
            return -1;
        }
        int rc = PyDict_SetItemString(((PyTypeObject *)type)->tp_dict, g->name, d);
        Py_DECREF(d);
        if (rc < 0) {
            return -1;
        }
    }
    PyType_Modified((PyTypeObject *)type);
    return 0;
}

/* ---- PyCArrayType ------------------------------------------------------------------- */

static PyObject *
array_meta_new(PyTypeObject *meta, PyObject *args, PyObject *kwds)
{
    PyObject *type = PyType_Type.tp_new(meta, args, kwds);
    if (type == NULL) {
        return NULL;
    }
    PyObject *len_o = _PyCtypes_TypeGet(type, "_length_");
    if (len_o == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_AttributeError, "class must define a '_length_' attribute");
        }
        goto error;
    }
    if (!PyLong_Check(len_o)) {
        Py_DECREF(len_o);
        PyErr_SetString(PyExc_TypeError, "The '_length_' attribute must be an integer");
        goto error;
    }
    int overflow;
    long long wide = PyLong_AsLongLongAndOverflow(len_o, &overflow);
    Py_DECREF(len_o);
    if (wide == -1 && PyErr_Occurred()) {
        goto error;
    }
    if (overflow > 0 || wide > PY_SSIZE_T_MAX) {
        PyErr_SetString(PyExc_OverflowError, "The '_length_' attribute is too large");
        goto error;
    }
    if (overflow < 0) {
        wide = -1;
    }
    Py_ssize_t length = (Py_ssize_t)wide;
    if (length < 0) {
        PyErr_SetString(PyExc_ValueError, "The '_length_' attribute must not be negative");
        goto error;
    }
    PyObject *item = _PyCtypes_TypeGet(type, "_type_");
    if (item == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_AttributeError, "class must define a '_type_' attribute");
        }
        goto error;
    }
    TypeInfo *ii = _PyCtypes_Info(item);
    if (ii == NULL) {
        Py_DECREF(item);
        PyErr_SetString(PyExc_TypeError, "_type_ must have storage info");
        goto error;
    }
    TypeInfo *info = _PyCtypes_NewInfo(type, CT_ARRAY);
    if (info == NULL) {
        Py_DECREF(item);
        goto error;
    }
    info->proto = item;
    info->length = length;
    if (ii->size && length > PY_SSIZE_T_MAX / ii->size) {
        PyErr_SetString(PyExc_OverflowError, "array too large");
        goto error;
    }
    info->size = ii->size * length;
    info->align = ii->align;
    info->has_pointer = ii->has_pointer || ii->kind == CT_POINTER;
    if (_PyCtypes_SetFormat(info, ii->format ? ii->format : "B") < 0) {
        goto error;
    }
    info->ndim = ii->ndim + 1;
    info->shape = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)info->ndim);
    if (info->shape == NULL) {
        PyErr_NoMemory();
        goto error;
    }
    info->shape[0] = length;
    for (int i = 0; i < ii->ndim; i++) {
        info->shape[i + 1] = ii->shape[i];
    }
    info->base_itemsize = ii->kind == CT_ARRAY ? ii->base_itemsize : ii->size;
    info->strides = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)info->ndim);
    if (info->strides == NULL) {
        PyErr_NoMemory();
        goto error;
    }
    Py_ssize_t stride = info->base_itemsize;
    for (int i = info->ndim - 1; i >= 0; i--) {
        info->strides[i] = stride;
        stride *= info->shape[i];
    }
    /* libffi: a struct of the items (enough of them to classify it). */
    Py_ssize_t n = length < 16 ? length : 16;
    info->ffi_elements = PyMem_Calloc((size_t)n + 2, sizeof(ffi_type *));
    if (info->ffi_elements == NULL) {
        PyErr_NoMemory();
        goto error;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        info->ffi_elements[i] = _PyCtypes_FFIType(item);
    }
    if (n == 0) {
        info->ffi_elements[0] = &ffi_type_uchar;
    }
    info->ffi.type = FFI_TYPE_STRUCT;
    info->ffi.size = (size_t)info->size;
    info->ffi.alignment = (unsigned short)info->align;
    info->ffi.elements = info->ffi_elements;
    if (ii->kind == CT_SIMPLE && ii->fmt->code == 'c' && add_getsets(type, char_array_getset) < 0) {
        goto error;
    }
    if (ii->kind == CT_SIMPLE && ii->fmt->code == 'u' &&
        add_getsets(type, wchar_array_getset) < 0) {
        goto error;
    }
    return type;
error:
    Py_DECREF(type);
    return NULL;
}

PyTypeObject PyCArrayType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.PyCArrayType",
    .tp_basicsize = sizeof(CTypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_TYPE_SUBCLASS,
    .tp_new = array_meta_new,
    .tp_doc = "metatype for the Array Objects",
};

/* ---- Array instances -------------------------------------------------------------- */

static Py_ssize_t
array_length(PyObject *self)
{
    return _PyCtypes_InfoOfObject(self)->length;
}

static PyObject *
array_item(PyObject *self, Py_ssize_t i)
{
    TypeInfo *info = _PyCtypes_InfoOfObject(self);
    if (i < 0 || i >= info->length) {
        PyErr_SetString(PyExc_IndexError, "invalid index");
        return NULL;
    }
    Py_ssize_t isz = _PyCtypes_Info(info->proto)->size;
    return _PyCtypes_GetValue(info->proto, self, i, CDATA(self)->ptr + i * isz, isz);
}

static int
array_ass_item(PyObject *self, Py_ssize_t i, PyObject *value)
{
    TypeInfo *info = _PyCtypes_InfoOfObject(self);
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "Array does not support item deletion");
        return -1;
    }
    if (i < 0 || i >= info->length) {
        PyErr_SetString(PyExc_IndexError, "invalid index");
        return -1;
    }
    Py_ssize_t isz = _PyCtypes_Info(info->proto)->size;
    return _PyCtypes_SetValue(CDATA(self), info->proto, i, CDATA(self)->ptr + i * isz, isz,
                              value);
}

/* Slices of char and wchar_t sequences are bytes and str; others lists.
   Shared with pointer.c. */
PyObject *
_PyCtypes_SliceItems(PyObject *self, PyObject *itemtype, char *base, Py_ssize_t start,
                     Py_ssize_t step, Py_ssize_t n)
{
    TypeInfo *ii = _PyCtypes_Info(itemtype);
    Py_ssize_t isz = ii->size;
    if (ii->kind == CT_SIMPLE && ii->fmt->code == 'c' && _PyCtypes_IsFundamental(itemtype)) {
        PyObject *b = PyBytes_FromStringAndSize(NULL, n);
        if (b == NULL) {
            return NULL;
        }
        for (Py_ssize_t k = 0; k < n; k++) {
            PyBytes_AS_STRING(b)[k] = base[start + k * step];
        }
        return b;
    }
    if (ii->kind == CT_SIMPLE && ii->fmt->code == 'u' && _PyCtypes_IsFundamental(itemtype)) {
        wchar_t *w = PyMem_Malloc(sizeof(wchar_t) * (size_t)(n + 1));
        if (w == NULL) {
            return PyErr_NoMemory();
        }
        for (Py_ssize_t k = 0; k < n; k++) {
            w[k] = ((wchar_t *)base)[start + k * step];
        }
        PyObject *s = PyUnicode_FromWideChar(w, n);
        PyMem_Free(w);
        return s;
    }
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t i = start + k * step;
        PyObject *v = _PyCtypes_GetValue(itemtype, self, i, base + i * isz, isz);
        if (v == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, v);
    }
    return list;
}

static PyObject *
array_subscript(PyObject *self, PyObject *key)
{
    TypeInfo *info = _PyCtypes_InfoOfObject(self);
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (i < 0) {
            i += info->length;
        }
        return array_item(self, i);
    }
    if (!PySlice_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "indices must be integers");
        return NULL;
    }
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) {
        return NULL;
    }
    Py_ssize_t n = PySlice_AdjustIndices(info->length, &start, &stop, step);
    return _PyCtypes_SliceItems(self, info->proto, CDATA(self)->ptr, start, step, n);
}

static int
array_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    TypeInfo *info = _PyCtypes_InfoOfObject(self);
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "Array does not support item deletion");
        return -1;
    }
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (i < 0) {
            i += info->length;
        }
        return array_ass_item(self, i, value);
    }
    if (!PySlice_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "indices must be integer");
        return -1;
    }
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) {
        return -1;
    }
    Py_ssize_t n = PySlice_AdjustIndices(info->length, &start, &stop, step);
    Py_ssize_t got = PySequence_Length(value);
    if (got < 0) {
        return -1;
    }
    if (got != n) {
        PyErr_SetString(PyExc_ValueError, "Can only assign sequence of same size");
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *v = PySequence_GetItem(value, k);
        if (v == NULL) {
            return -1;
        }
        int rc = array_ass_item(self, start + k * step, v);
        Py_DECREF(v);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

static PyObject *
array_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return _PyCtypes_NewOwned(type);
}

static int
array_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n > array_length(self)) {
        PyErr_SetString(PyExc_IndexError, "invalid index");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (array_ass_item(self, i, PyTuple_GET_ITEM(args, i)) < 0) {
            return -1;
        }
    }
    return 0;
}

static PySequenceMethods array_as_sequence = {
    .sq_length = array_length,
    .sq_item = array_item,
    .sq_ass_item = array_ass_item,
};

static PyMappingMethods array_as_mapping = {
    .mp_length = array_length,
    .mp_subscript = array_subscript,
    .mp_ass_subscript = array_ass_subscript,
};

static PyMethodDef array_methods[] = {
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyCArray_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.Array",
    .tp_basicsize = sizeof(CDataObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_SEQUENCE,
    .tp_new = array_new,
    .tp_init = array_init,
    .tp_as_sequence = &array_as_sequence,
    .tp_as_mapping = &array_as_mapping,
    .tp_methods = array_methods,
    .tp_doc = "Abstract base class for arrays.",
};
