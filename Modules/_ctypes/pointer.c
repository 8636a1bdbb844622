/* _ctypes: pointers.  PyCPointerType reads the optional `_type_` (a pointer
   type without one is incomplete until set_type()), records itself as the
   target's `__pointer_type__` (what ctypes.POINTER looks up), and _Pointer
   instances give `contents` and indexing through the address they hold. */

#include "ctypes.h"
#include <string.h>

PyObject *_PyCtypes_SliceItems(PyObject *self, PyObject *itemtype, char *base,
                               Py_ssize_t start, Py_ssize_t step, Py_ssize_t n);

static int
pointer_set_proto(PyObject *type, TypeInfo *info, PyObject *proto)
{
    if (!PyType_Check(proto)) {
        PyErr_SetString(PyExc_TypeError, "_type_ must be a type");
        return -1;
    }
    TypeInfo *pi = _PyCtypes_Info(proto);
    if (pi == NULL) {
        PyErr_SetString(PyExc_TypeError, "_type_ must have storage info");
        return -1;
    }
    Py_XSETREF(info->proto, Py_NewRef(proto));
    /* "&" and the target's format; an array target shows its shape,
       as in "&(2)<h". */
    PyObject *f = PyUnicode_FromString("&");
    if (f != NULL && pi->kind == CT_ARRAY && pi->ndim > 0) {
        PyUnicode_AppendAndDel(&f, PyUnicode_FromString("("));
        for (int i = 0; i < pi->ndim && f != NULL; i++) {
            PyUnicode_AppendAndDel(&f, PyUnicode_FromFormat(i ? ",%zd" : "%zd", pi->shape[i]));
        }
        if (f != NULL) {
            PyUnicode_AppendAndDel(&f, PyUnicode_FromString(")"));
        }
    }
    if (f != NULL) {
        PyUnicode_AppendAndDel(&f, PyUnicode_FromString(pi->format ? pi->format : "B"));
    }
    const char *fs = f ? PyUnicode_AsUTF8(f) : NULL;
    char *fmt = fs ? PyMem_Malloc(strlen(fs) + 1) : NULL;
    if (fmt == NULL) {
        Py_XDECREF(f);
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    strcpy(fmt, fs);
    Py_DECREF(f);
    PyMem_Free(info->format);
    info->format = fmt;
    /* ctypes.POINTER(proto) finds this type there from now on. */
    PyObject *dict = ((PyTypeObject *)proto)->tp_dict;
    if (PyDict_GetItemString(dict, "__pointer_type__") == NULL) {
        if (PyDict_SetItemString(dict, "__pointer_type__", type) < 0) {
            return -1;
        }
        PyType_Modified((PyTypeObject *)proto);
    }
    return 0;
}

static PyObject *
pointer_meta_new(PyTypeObject *meta, PyObject *args, PyObject *kwds)
{
    PyObject *type = PyType_Type.tp_new(meta, args, kwds);
    if (type == NULL) {
        return NULL;
    }
    TypeInfo *info = _PyCtypes_NewInfo(type, CT_POINTER);
    if (info == NULL) {
        goto error;
    }
    info->size = sizeof(void *);
    info->align = _PyCtypes_FindFormat('P')->align;
    info->ffi = ffi_type_pointer;
    info->length = 1;
    if (_PyCtypes_SetFormat(info, "&B") < 0) {
        goto error;
    }
    /* Only the class's own _type_ counts: a subclass of a complete pointer
       type without one is incomplete. */
    PyObject *proto = PyDict_GetItemString(((PyTypeObject *)type)->tp_dict, "_type_");
    if (proto != NULL) {
        Py_INCREF(proto);
        int rc = pointer_set_proto(type, info, proto);
        Py_DECREF(proto);
        if (rc < 0) {
            goto error;
        }
    }
    return type;
error:
    Py_DECREF(type);
    return NULL;
}

static PyObject *
pointer_meta_set_type(PyObject *type, PyObject *proto)
{
    TypeInfo *info = _PyCtypes_Info(type);
    if (info == NULL) {
        PyErr_SetString(PyExc_TypeError, "abstract class");
        return NULL;
    }
    if (pointer_set_proto(type, info, proto) < 0) {
        return NULL;
    }
    if (PyType_Type.tp_setattro(type, PyUnicode_FromString("_type_"), proto) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
pointer_meta_from_param(PyObject *type, PyObject *value)
{
    TypeInfo *info = _PyCtypes_Info(type);
    if (value == Py_None) {
        return Py_NewRef(value);
    }
    if (PyObject_TypeCheck(value, (PyTypeObject *)type)) {
        return Py_NewRef(value);
    }
    if (info != NULL && info->proto != NULL) {
        /* An instance of the target type is passed by reference. */
        if (PyObject_TypeCheck(value, (PyTypeObject *)info->proto)) {
            PyCArgObject *a = _PyCtypes_NewArg('P', &ffi_type_pointer, value);
            if (a != NULL) {
                a->value.p = CDATA(value)->ptr;
            }
            return (PyObject *)a;
        }
        TypeInfo *vi = _PyCtypes_IsCData(value) ? _PyCtypes_InfoOfObject(value) : NULL;
        if (vi != NULL && (vi->kind == CT_ARRAY || vi->kind == CT_POINTER) &&
            vi->proto != NULL && PyType_Check(vi->proto) &&
            PyType_IsSubtype((PyTypeObject *)vi->proto, (PyTypeObject *)info->proto)) {
            return Py_NewRef(value);
        }
        if (PyObject_TypeCheck(value, &PyCArg_Type)) {
            PyObject *o = ((PyCArgObject *)value)->obj;
            if (o != NULL && PyObject_TypeCheck(o, (PyTypeObject *)info->proto)) {
                return Py_NewRef(value);
            }
        }
    }
    PyObject *converted;
    int retried = _PyCtypes_RetryAsParameter(type, value, pointer_meta_from_param, &converted);
    if (retried != 0) {
        return retried < 0 ? NULL : converted;
    }
    /* A byref() of the wrong type is named by what it points to. */
    PyObject *pointee = PyObject_TypeCheck(value, &PyCArg_Type) ? ((PyCArgObject *)value)->obj
                                                                : NULL;
    if (pointee != NULL) {
        PyErr_Format(PyExc_TypeError, "expected %s instance instead of pointer to %s",
                     ((PyTypeObject *)type)->tp_name, Py_TYPE(pointee)->tp_name);
    }
    else {
        PyErr_Format(PyExc_TypeError, "expected %s instance instead of %s",
                     ((PyTypeObject *)type)->tp_name, Py_TYPE(value)->tp_name);
    }
    return NULL;
}

static PyMethodDef pointer_meta_methods[] = {
    {"from_param", pointer_meta_from_param, METH_O, "Turn an argument into what a call passes for this type."},
    {"set_type", pointer_meta_set_type, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyCPointerType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.PyCPointerType",
    .tp_basicsize = sizeof(CTypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_TYPE_SUBCLASS,
    .tp_new = pointer_meta_new,
    .tp_methods = pointer_meta_methods,
    .tp_doc = "metatype for the Pointer Objects",
};

/* ---- _Pointer instances ----------------------------------------------------------- */

static TypeInfo *
target_info(PyObject *self, PyObject **proto)
{
    TypeInfo *info = _PyCtypes_InfoOfObject(self);
    if (info == NULL || info->proto == NULL) {
        PyErr_SetString(PyExc_TypeError, "Cannot create instance: has no _type_");
        return NULL;
    }
    *proto = info->proto;
    return _PyCtypes_Info(info->proto);
}

static PyObject *
pointer_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    TypeInfo *info = _PyCtypes_Info((PyObject *)type);
    if (info != NULL && info->proto == NULL) {
        PyErr_SetString(PyExc_TypeError, "Cannot create instance: has no _type_");
        return NULL;
    }
    return _PyCtypes_NewOwned(type);
}

static int
pointer_set_contents(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    PyObject *proto;
    if (target_info(self, &proto) == NULL) {
        return -1;
    }
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "Pointer does not support item deletion");
        return -1;
    }
    if (!PyObject_TypeCheck(value, (PyTypeObject *)proto)) {
        PyErr_Format(PyExc_TypeError, "expected %s instead of %s",
                     ((PyTypeObject *)proto)->tp_name, Py_TYPE(value)->tp_name);
        return -1;
    }
    *(void **)CDATA(self)->ptr = CDATA(value)->ptr;
    return _PyCtypes_KeepRef(CDATA(self), 1, Py_NewRef(value));
}

static PyObject *
pointer_get_contents(PyObject *self, void *Py_UNUSED(c))
{
    PyObject *proto;
    if (target_info(self, &proto) == NULL) {
        return NULL;
    }
    char *addr = *(char **)CDATA(self)->ptr;
    if (addr == NULL) {
        PyErr_SetString(PyExc_ValueError, "NULL pointer access");
        return NULL;
    }
    /* A view whose base is the pointer: the pointer keeps its target
       alive, so the view keeps the pointer (_b_base_ shows it). */
    return _PyCtypes_NewView((PyTypeObject *)proto, self, 0, addr);
}

/* POINTER(T)() is a NULL pointer; POINTER(T)(obj) points at obj. */
static int
pointer_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    switch (PyTuple_GET_SIZE(args)) {
    case 0:
        return 0;
    case 1:
        return pointer_set_contents(self, PyTuple_GET_ITEM(args, 0), NULL);
    default:
        PyErr_Format(PyExc_TypeError, "%s() takes at most 1 argument (%zd given)",
                     Py_TYPE(self)->tp_name, PyTuple_GET_SIZE(args));
        return -1;
    }
}

static PyObject *
pointer_item(PyObject *self, Py_ssize_t i)
{
    PyObject *proto;
    TypeInfo *ti = target_info(self, &proto);
    if (ti == NULL) {
        return NULL;
    }
    char *addr = *(char **)CDATA(self)->ptr;
    if (addr == NULL) {
        PyErr_SetString(PyExc_ValueError, "NULL pointer access");
        return NULL;
    }
    return _PyCtypes_GetValue(proto, self, i, addr + i * ti->size, ti->size);
}

static int
pointer_ass_item(PyObject *self, Py_ssize_t i, PyObject *value)
{
    PyObject *proto;
    TypeInfo *ti = target_info(self, &proto);
    if (ti == NULL) {
        return -1;
    }
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "Pointer does not support item deletion");
        return -1;
    }
    char *addr = *(char **)CDATA(self)->ptr;
    if (addr == NULL) {
        PyErr_SetString(PyExc_ValueError, "NULL pointer access");
        return -1;
    }
    /* Item i keeps its object under key i, as an array does (so a cast
       array and its pointer agree on the keys); the target itself sits
       under 1, which p[1] therefore replaces. */
    return _PyCtypes_SetValue(CDATA(self), proto, i, addr + i * ti->size, ti->size, value);
}

static PyObject *
pointer_subscript(PyObject *self, PyObject *key)
{
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        return pointer_item(self, i);
    }
    if (!PySlice_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "Pointer indices must be integer");
        return NULL;
    }
    PySliceObject *s = (PySliceObject *)key;
    if (s->stop == Py_None) {
        PyErr_SetString(PyExc_ValueError, "slice stop is required");
        return NULL;
    }
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) {
        return NULL;
    }
    if (s->start == Py_None) {
        start = step < 0 ? -1 : 0;
        if (step < 0) {
            PyErr_SetString(PyExc_ValueError, "slice start is required for step < 0");
            return NULL;
        }
    }
    Py_ssize_t n = 0;
    if (step > 0 && stop > start) {
        n = (stop - start - 1) / step + 1;
    }
    else if (step < 0 && start > stop) {
        n = (start - stop - 1) / (-step) + 1;
    }
    PyObject *proto;
    if (target_info(self, &proto) == NULL) {
        return NULL;
    }
    char *addr = *(char **)CDATA(self)->ptr;
    if (addr == NULL && n > 0) {
        PyErr_SetString(PyExc_ValueError, "NULL pointer access");
        return NULL;
    }
    return _PyCtypes_SliceItems(self, proto, addr, start, step, n);
}

static int
pointer_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) {
        return -1;
    }
    return pointer_ass_item(self, i, value);
}

static int
pointer_bool(PyObject *self)
{
    return *(void **)CDATA(self)->ptr != NULL;
}

static PyGetSetDef pointer_getset[] = {
    {"contents", pointer_get_contents, pointer_set_contents, "the target object (read-write)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods pointer_as_sequence = {
    .sq_item = pointer_item,
    .sq_ass_item = pointer_ass_item,
};

static PyMappingMethods pointer_as_mapping = {
    .mp_subscript = pointer_subscript,
    .mp_ass_subscript = pointer_ass_subscript,
};

static PyNumberMethods pointer_as_number = {
    .nb_bool = pointer_bool,
};

PyTypeObject PyCPointer_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes._Pointer",
    .tp_basicsize = sizeof(CDataObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = pointer_new,
    .tp_init = pointer_init,
    .tp_as_sequence = &pointer_as_sequence,
    .tp_as_mapping = &pointer_as_mapping,
    .tp_as_number = &pointer_as_number,
    .tp_getset = pointer_getset,
    .tp_doc = "XXX to be provided",
};
