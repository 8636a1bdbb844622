/* _ctypes: the module object, the common metatype (_CType_Type: TypeInfo
   storage, from_address & co, `type * n`), the _CData instance basics
   (memory ownership, keep-alive dicts, the buffer interface), byref()
   results (CArgObject) and the utility functions: sizeof, alignment,
   byref, addressof, resize, errno access, dlopen/dlsym, and the C helpers
   behind ctypes.cast, string_at and memoryview_at. */

#include "ctypes.h"
#include "pycore_object.h"      /* _PyStaticType_InitBuiltin */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

/* The dynamic loader's last error (dlerror()) as an exception of `type`,
   or `fallback` when it has none to tell; returns NULL. */
PyObject *
_PyCtypes_SetDlError(PyObject *type, const char *fallback)
{
    const char *msg = dlerror();
    PyErr_SetString(type, msg != NULL ? msg : fallback);
    return NULL;
}
#include <time.h>
#include <wchar.h>

PyObject *_PyCtypes_ArgumentError;

/* ---- TypeInfo records -------------------------------------------------------- */

static int
is_meta(PyTypeObject *tp);

TypeInfo *
_PyCtypes_Info(PyObject *type)
{
    if (!PyType_Check(type) || !is_meta(Py_TYPE(type))) {
        return NULL;
    }
    if (!PyType_HasFeature((PyTypeObject *)type, Py_TPFLAGS_HEAPTYPE)) {
        return NULL;            /* the static bases: Structure, Array, ... */
    }
    return ((CTypeObject *)type)->info;
}

TypeInfo *
_PyCtypes_InfoOfObject(PyObject *obj)
{
    return _PyCtypes_Info((PyObject *)Py_TYPE(obj));
}

int
_PyCtypes_IsCType(PyObject *type)
{
    return _PyCtypes_Info(type) != NULL;
}

TypeInfo *
_PyCtypes_RequireInfo(PyObject *obj)
{
    TypeInfo *info = PyType_Check(obj) ? _PyCtypes_Info(obj) : NULL;
    if (info == NULL && !PyType_Check(obj)) {
        info = _PyCtypes_InfoOfObject(obj);
    }
    if (info == NULL) {
        PyErr_SetString(PyExc_TypeError, "this type has no size");
    }
    return info;
}

TypeInfo *
_PyCtypes_NewInfo(PyObject *type, int kind)
{
    TypeInfo *info = PyMem_Calloc(1, sizeof(TypeInfo));
    if (info == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    info->kind = kind;
    info->align = 1;
    info->ffi.type = FFI_TYPE_STRUCT;
    CTypeObject *ct = (CTypeObject *)type;
    if (ct->info != NULL) {
        _PyCtypes_InfoFree(ct->info);
    }
    ct->info = info;
    return info;
}

void
_PyCtypes_InfoFree(TypeInfo *info)
{
    if (info == NULL) {
        return;
    }
    Py_XDECREF(info->proto);
    Py_XDECREF(info->fields);
    Py_XDECREF(info->argtypes);
    Py_XDECREF(info->converters);
    Py_XDECREF(info->restype);
    Py_XDECREF(info->errcheck);
    PyMem_Free(info->ffi_elements);
    PyMem_Free(info->format);
    PyMem_Free(info->shape);
    PyMem_Free(info->strides);
    PyMem_Free(info);
}

int
_PyCtypes_SetFormat(TypeInfo *info, const char *fmt)
{
    char *copy = PyMem_Malloc(strlen(fmt) + 1);
    if (copy == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    strcpy(copy, fmt);
    PyMem_Free(info->format);
    info->format = copy;
    return 0;
}

/* Attribute of a ctypes class found through its MRO, or NULL without an
   exception. */
PyObject *
_PyCtypes_TypeGet(PyObject *type, const char *name)
{
    PyObject *v = PyObject_GetAttrString(type, name);
    if (v == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
    }
    return v;
}

/* ---- _CType_Type: the common metatype ------------------------------------------ */

static PyTypeObject CType_Type;

static int
is_meta(PyTypeObject *tp)
{
    return PyType_IsSubtype(tp, &CType_Type);
}

static void
ctype_dealloc(PyObject *self)
{
    CTypeObject *ct = (CTypeObject *)self;
    TypeInfo *info = ct->info;
    ct->info = NULL;
    _PyCtypes_InfoFree(info);
    PyType_Type.tp_dealloc(self);
}

/* The GC must see what a TypeInfo holds: item types and fields can
   refer back to the type (a pointer type and its target's
   __pointer_type__, a recursive structure). */
static int
ctype_traverse(PyObject *self, visitproc visit, void *arg)
{
    TypeInfo *info = ((CTypeObject *)self)->info;
    if (info != NULL) {
        Py_VISIT(info->proto);
        Py_VISIT(info->fields);
        Py_VISIT(info->argtypes);
        Py_VISIT(info->converters);
        Py_VISIT(info->restype);
        Py_VISIT(info->errcheck);
    }
    return PyType_Type.tp_traverse(self, visit, arg);
}

static int
ctype_clear(PyObject *self)
{
    TypeInfo *info = ((CTypeObject *)self)->info;
    if (info != NULL) {
        Py_CLEAR(info->fields);
        Py_CLEAR(info->argtypes);
        Py_CLEAR(info->converters);
        Py_CLEAR(info->restype);
        Py_CLEAR(info->errcheck);
    }
    return PyType_Type.tp_clear(self);
}

static PyObject *
ctype_from_address(PyObject *type, PyObject *arg)
{
    if (_PyCtypes_RequireInfo(type) == NULL) {
        return NULL;
    }
    if (!PyLong_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "integer expected");
        return NULL;
    }
    void *addr = PyLong_AsVoidPtr(arg);
    if (addr == NULL && PyErr_Occurred()) {
        return NULL;
    }
    return _PyCtypes_NewView((PyTypeObject *)type, NULL, 0, addr);
}

static PyObject *
buffer_offset_args(PyObject *args, PyObject **src, Py_ssize_t *offset, const char *name)
{
    *offset = 0;
    if (!PyArg_ParseTuple(args, name, src, offset)) {
        return NULL;
    }
    if (*offset < 0) {
        PyErr_SetString(PyExc_ValueError, "offset cannot be negative");
        return NULL;
    }
    return Py_None;
}

static PyObject *
ctype_from_buffer(PyObject *type, PyObject *args)
{
    TypeInfo *info = _PyCtypes_RequireInfo(type);
    PyObject *src;
    Py_ssize_t offset;
    if (info == NULL || buffer_offset_args(args, &src, &offset, "O|n:from_buffer") == NULL) {
        return NULL;
    }
    /* A memoryview keeps the exporter's buffer pinned (a bytearray cannot
       resize under us) for as long as the instance lives.  Its view is
       the full read-only one, judged here: writability first, then
       contiguity (a strided view is described, not refused). */
    PyObject *pin = PyMemoryView_FromObject(src);
    if (pin == NULL) {
        return NULL;
    }
    Py_buffer *view = PyMemoryView_GET_BUFFER(pin);
    const char *refusal = NULL;
    if (view->readonly) {
        refusal = "underlying buffer is not writable";
    }
    else if (!PyBuffer_IsContiguous(view, 'C')) {
        refusal = "underlying buffer is not C contiguous";
    }
    if (refusal != NULL) {
        Py_DECREF(pin);
        PyErr_SetString(PyExc_TypeError, refusal);
        return NULL;
    }
    if (info->size > view->len - offset) {
        PyErr_Format(PyExc_ValueError,
                     "Buffer size too small (%zd instead of at least %zd bytes)",
                     view->len, info->size + offset);
        Py_DECREF(pin);
        return NULL;
    }
    char *ptr = (char *)view->buf + offset;
    PyObject *res = _PyCtypes_NewView((PyTypeObject *)type, NULL, 0, ptr);
    if (res == NULL || _PyCtypes_KeepRef(CDATA(res), -1, pin) < 0) {
        if (res == NULL) {
            Py_DECREF(pin);
        }
        Py_CLEAR(res);
    }
    return res;
}

static PyObject *
ctype_from_buffer_copy(PyObject *type, PyObject *args)
{
    TypeInfo *info = _PyCtypes_RequireInfo(type);
    PyObject *src;
    Py_ssize_t offset;
    if (info == NULL ||
        buffer_offset_args(args, &src, &offset, "O|n:from_buffer_copy") == NULL) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(src, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (info->size > view.len - offset) {
        PyErr_Format(PyExc_ValueError,
                     "Buffer size too small (%zd instead of at least %zd bytes)",
                     view.len, info->size + offset);
        PyBuffer_Release(&view);
        return NULL;
    }
    PyObject *res = _PyCtypes_NewOwned((PyTypeObject *)type);
    if (res != NULL) {
        memcpy(CDATA(res)->ptr, (char *)view.buf + offset, info->size);
    }
    PyBuffer_Release(&view);
    return res;
}

static PyObject *
ctype_in_dll(PyObject *type, PyObject *args)
{
    PyObject *dll;
    const char *name;
    if (!PyArg_ParseTuple(args, "Os:in_dll", &dll, &name)) {
        return NULL;
    }
    PyObject *h = PyObject_GetAttrString(dll, "_handle");
    if (h == NULL) {
        return NULL;
    }
    void *handle = PyLong_AsVoidPtr(h);
    Py_DECREF(h);
    if (handle == NULL && PyErr_Occurred()) {
        return NULL;
    }
    dlerror();
    void *addr = dlsym(handle, name);
    if (addr == NULL) {
        return _PyCtypes_SetDlError(PyExc_ValueError, "symbol not found");
    }
    return _PyCtypes_NewView((PyTypeObject *)type, NULL, 0, addr);
}

/* `ctype * n` and `n * ctype`: the array type of n items.  A sequence
   repeat, so the interpreter turns the count into an index (and a
   non-integer count is the usual "can't multiply sequence" error). */
static PyObject *
ctype_repeat(PyObject *type, Py_ssize_t n)
{
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "Array length must be >= 0, not %zd", n);
        return NULL;
    }
    return _PyCtypes_ArrayType(type, n);
}

static PySequenceMethods ctype_as_sequence = {
    .sq_repeat = ctype_repeat,
};

static PyMethodDef ctype_methods[] = {
    {"from_address", ctype_from_address, METH_O, "C.from_address(integer) -> C instance"},
    {"from_buffer", ctype_from_buffer, METH_VARARGS, "C.from_buffer(object, offset=0)"},
    {"from_buffer_copy", ctype_from_buffer_copy, METH_VARARGS,
     "C.from_buffer_copy(object, offset=0)"},
    {"in_dll", ctype_in_dll, METH_VARARGS, "C.in_dll(dll, name) -> C instance"},
    {NULL, NULL, 0, NULL},
};

static PyObject *
ctype_get_pointer_type(PyObject *self, void *Py_UNUSED(c))
{
    PyObject *dict = ((PyTypeObject *)self)->tp_dict;
    PyObject *v = dict ? PyDict_GetItemString(dict, "__pointer_type__") : NULL;
    if (v == NULL) {
        PyErr_Format(PyExc_AttributeError, "'%s' has no attribute '__pointer_type__'",
                     ((PyTypeObject *)self)->tp_name);
        return NULL;
    }
    return Py_NewRef(v);
}

static int
ctype_set_pointer_type(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    PyObject *dict = ((PyTypeObject *)self)->tp_dict;
    int rc;
    if (value == NULL) {
        rc = PyDict_DelItemString(dict, "__pointer_type__");
    }
    else {
        rc = PyDict_SetItemString(dict, "__pointer_type__", value);
    }
    PyType_Modified((PyTypeObject *)self);
    return rc;
}

static PyGetSetDef ctype_getset[] = {
    {"__pointer_type__", ctype_get_pointer_type, ctype_set_pointer_type, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.CType_Type",
    .tp_basicsize = sizeof(CTypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_TYPE_SUBCLASS,
    .tp_dealloc = ctype_dealloc,
    .tp_traverse = ctype_traverse,
    .tp_clear = ctype_clear,
    .tp_as_sequence = &ctype_as_sequence,
    .tp_methods = ctype_methods,
    .tp_getset = ctype_getset,
    .tp_doc = "metatype for C types",
};

int
_PyCtypes_MetaInit(PyTypeObject *meta)
{
    meta->tp_base = &CType_Type;
    meta->tp_traverse = ctype_traverse;
    meta->tp_clear = ctype_clear;
    return _PyStaticType_InitBuiltin(meta);
}

/* ---- _CData instances --------------------------------------------------------- */

int
_PyCtypes_RetryAsParameter(PyObject *type, PyObject *value,
                           PyObject *(*convert)(PyObject *, PyObject *), PyObject **result)
{
    PyObject *as;
    if (PyObject_GetOptionalAttrString(value, "_as_parameter_", &as) < 0) {
        return -1;
    }
    if (as == NULL) {
        return 0;
    }
    *result = NULL;
    if (Py_EnterRecursiveCall(" while processing _as_parameter_") == 0) {
        *result = convert(type, as);
        Py_LeaveRecursiveCall();
    }
    Py_DECREF(as);
    return 1;
}

int
_PyCtypes_IsCData(PyObject *obj)
{
    return PyObject_TypeCheck(obj, &PyCData_Type);
}

static CDataObject *
cdata_alloc(PyTypeObject *type, TypeInfo **pinfo)
{
    TypeInfo *info = _PyCtypes_Info((PyObject *)type);
    if (info == NULL || info->abstract) {
        PyErr_SetString(PyExc_TypeError, "abstract class");
        return NULL;
    }
    CDataObject *self = (CDataObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    info->final = 1;
    self->size = info->size;
    *pinfo = info;
    return self;
}

PyObject *
_PyCtypes_NewOwned(PyTypeObject *type)
{
    TypeInfo *info;
    CDataObject *self = cdata_alloc(type, &info);
    if (self == NULL) {
        return NULL;
    }
    if (info->size <= CT_INLINE_SIZE) {
        self->ptr = self->inline_buf.b;
    }
    else {
        self->ptr = PyMem_Calloc(1, (size_t)info->size);
        if (self->ptr == NULL) {
            Py_DECREF(self);
            return PyErr_NoMemory();
        }
        self->owns = 1;
    }
    return (PyObject *)self;
}

PyObject *
_PyCtypes_NewView(PyTypeObject *type, PyObject *base, Py_ssize_t index, char *ptr)
{
    TypeInfo *info;
    CDataObject *self = cdata_alloc(type, &info);
    if (self == NULL) {
        return NULL;
    }
    self->ptr = ptr;
    self->index = index;
    if (base != NULL) {
        self->base = (CDataObject *)Py_NewRef(base);
    }
    return (PyObject *)self;
}

/* The object owning the memory self views: keep-alives go there. */
static CDataObject *
cdata_root(CDataObject *self)
{
    while (self->base != NULL) {
        self = self->base;
    }
    return self;
}

/* The root's keep-alive container, made on first use: a dict for
   aggregates, arrays and pointers (one entry per slot), nothing for simple
   instances (which keep at most one object, held directly).  Returns the
   root, or NULL with an exception. */
static CDataObject *
keep_container(CDataObject *self)
{
    CDataObject *root = cdata_root(self);
    if (root->keep == NULL) {
        TypeInfo *info = _PyCtypes_InfoOfObject((PyObject *)root);
        if (info != NULL && info->kind != CT_SIMPLE) {
            root->keep = PyDict_New();
            if (root->keep == NULL) {
                return NULL;
            }
        }
    }
    return root;
}

/* The slot's key in the root's dict: the index, then the index of each
   view on the way up, as hex joined by ':' (what CPython shows). */
static PyObject *
keep_key(CDataObject *self, Py_ssize_t index)
{
    PyObject *key = PyUnicode_FromFormat("%x", (int)index);
    for (CDataObject *t = self; key != NULL && t->base != NULL; t = t->base) {
        Py_SETREF(key, PyUnicode_FromFormat("%U:%x", key, (int)t->index));
    }
    return key;
}

int
_PyCtypes_KeepRef(CDataObject *self, Py_ssize_t index, PyObject *obj)
{
    if (obj == Py_None) {
        Py_DECREF(obj);
        return 0;
    }
    CDataObject *root = keep_container(self);
    if (root == NULL) {
        Py_DECREF(obj);
        return -1;
    }
    if (root->keep == NULL || !PyDict_CheckExact(root->keep)) {
        Py_XSETREF(root->keep, obj);
        return 0;
    }
    PyObject *key = keep_key(self, index);
    if (key == NULL) {
        Py_DECREF(obj);
        return -1;
    }
    int rc = PyDict_SetItem(root->keep, key, obj);
    Py_DECREF(key);
    Py_DECREF(obj);
    return rc;
}

int
_PyCtypes_IsFundamental(PyObject *type)
{
    return PyType_Check(type) && ((PyTypeObject *)type)->tp_base == &Simple_Type;
}

PyObject *
_PyCtypes_GetValue(PyObject *type, PyObject *base, Py_ssize_t index, char *ptr,
                   Py_ssize_t size)
{
    TypeInfo *info = _PyCtypes_Info(type);
    if (info == NULL) {
        PyErr_SetString(PyExc_TypeError, "not a ctypes type");
        return NULL;
    }
    if (info->kind == CT_SIMPLE && _PyCtypes_IsFundamental(type)) {
        return info->fmt->get(ptr, size);
    }
    return _PyCtypes_NewView((PyTypeObject *)type, base, index, ptr);
}

/* The store's refusal: a ctypes instance of another type is
   "incompatible", anything else was simply not what the slot expects. */
static int
incompatible(PyObject *value, PyObject *type)
{
    const char *want = ((PyTypeObject *)type)->tp_name;
    if (_PyCtypes_IsCData(value)) {
        PyErr_Format(PyExc_TypeError, "incompatible types, %s instance instead of %s instance",
                     Py_TYPE(value)->tp_name, want);
    }
    else {
        PyErr_Format(PyExc_TypeError, "expected %s instance, got %s", want,
                     Py_TYPE(value)->tp_name);
    }
    return -1;
}

static int
copy_instance(CDataObject *owner, Py_ssize_t index, char *ptr, PyObject *value,
              Py_ssize_t size)
{
    CDataObject *src = CDATA(value);
    memmove(ptr, src->ptr, (size_t)size);
    if (owner == NULL) {
        return 0;
    }
    /* What the source keeps, the copy needs too (pointer targets ...):
       its container goes into the owner's slot. */
    CDataObject *sroot = keep_container(src);
    if (sroot == NULL) {
        return -1;
    }
    if (sroot->keep == NULL) {
        return 0;
    }
    return _PyCtypes_KeepRef(owner, index, Py_NewRef(sroot->keep));
}

/* An error while building a member from a tuple reads
   RuntimeError("(Member type) Error: message"). */
static void
wrap_init_error(PyObject *type)
{
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *msg = PyObject_Str(exc);
    if (msg != NULL) {
        PyErr_Format(PyExc_RuntimeError, "(%s) %s: %U", ((PyTypeObject *)type)->tp_name,
                     Py_TYPE(exc)->tp_name, msg);
        Py_DECREF(msg);
    }
    Py_DECREF(exc);
}

/* Arrays of c_char and c_wchar members take bytes and str: 0 when stored,
   -1 on error, 1 when value is something else. */
static int
set_text_array(TypeInfo *info, char *ptr, Py_ssize_t size, PyObject *value)
{
    TypeInfo *item = _PyCtypes_Info(info->proto);
    if (item == NULL || item->kind != CT_SIMPLE || !_PyCtypes_IsFundamental(info->proto)) {
        return 1;
    }
    if (item->fmt->code == 'c') {
        if (!PyBytes_Check(value)) {
            if (PyTuple_Check(value)) {
                return 1;
            }
            PyErr_Format(PyExc_TypeError, "expected bytes, %s found", Py_TYPE(value)->tp_name);
            return -1;
        }
        /* Like strncpy: the bytes up to their first NUL, then one NUL if
           it fits. */
        Py_ssize_t n = (Py_ssize_t)strlen(PyBytes_AS_STRING(value));
        if (n > size) {
            PyErr_Format(PyExc_ValueError, "bytes too long (%zd, maximum length %zd)", n, size);
            return -1;
        }
        memcpy(ptr, PyBytes_AS_STRING(value), (size_t)(n < size ? n + 1 : n));
        return 0;
    }
    if (item->fmt->code == 'u') {
        if (!PyUnicode_Check(value)) {
            if (PyTuple_Check(value)) {
                return 1;
            }
            PyErr_Format(PyExc_TypeError, "unicode string expected instead of %s instance",
                         Py_TYPE(value)->tp_name);
            return -1;
        }
        Py_ssize_t max = size / (Py_ssize_t)sizeof(wchar_t);
        Py_ssize_t n = PyUnicode_AsWideChar(value, NULL, 0) - 1;
        if (n < 0) {
            return -1;
        }
        if (n > max) {
            PyErr_Format(PyExc_ValueError, "string too long (%zd, maximum length %zd)", n, max);
            return -1;
        }
        memset(ptr, 0, (size_t)size);
        return PyUnicode_AsWideChar(value, (wchar_t *)ptr, max) < 0 ? -1 : 0;
    }
    return 1;
}

int
_PyCtypes_SetValue(CDataObject *owner, PyObject *type, Py_ssize_t index, char *ptr,
                   Py_ssize_t size, PyObject *value)
{
    TypeInfo *info = _PyCtypes_Info(type);
    if (info == NULL) {
        PyErr_SetString(PyExc_TypeError, "not a ctypes type");
        return -1;
    }
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "can't delete attribute");
        return -1;
    }
    if (PyObject_TypeCheck(value, (PyTypeObject *)type)) {
        if (info->kind == CT_POINTER || info->kind == CT_FUNCPTR) {
            *(void **)ptr = *(void **)CDATA(value)->ptr;
            return owner ? _PyCtypes_KeepRef(owner, index, Py_NewRef(value)) : 0;
        }
        return copy_instance(owner, index, ptr, value, size);
    }
    switch (info->kind) {
    case CT_SIMPLE: {
        PyObject *keep = info->fmt->set(ptr, value, size);
        if (keep == NULL) {
            return -1;
        }
        if (owner == NULL) {
            Py_DECREF(keep);
            return 0;
        }
        return _PyCtypes_KeepRef(owner, index, keep);
    }
    case CT_STRUCT:
    case CT_UNION:
    case CT_ARRAY:
        if (info->kind == CT_ARRAY) {
            int rc = set_text_array(info, ptr, size, value);
            if (rc <= 0) {
                return rc;
            }
        }
        if (PyTuple_Check(value)) {
            PyObject *tmp = PyObject_CallObject(type, value);
            if (tmp == NULL) {
                wrap_init_error(type);
                return -1;
            }
            int rc = copy_instance(owner, index, ptr, tmp, size);
            if (rc == 0 && owner != NULL) {
                rc = _PyCtypes_KeepRef(owner, index, tmp);
            }
            else {
                Py_DECREF(tmp);
            }
            return rc;
        }
        return incompatible(value, type);
    case CT_POINTER:
        if (value == Py_None) {
            *(void **)ptr = NULL;
            return 0;
        }
        if (PyObject_TypeCheck(value, &PyCArray_Type)) {
            TypeInfo *ai = _PyCtypes_InfoOfObject(value);
            if (ai != NULL && ai->proto == info->proto) {
                *(void **)ptr = CDATA(value)->ptr;
                return owner ? _PyCtypes_KeepRef(owner, index, Py_NewRef(value)) : 0;
            }
        }
        return incompatible(value, type);
    case CT_FUNCPTR:
        if (value == Py_None) {
            *(void **)ptr = NULL;
            return 0;
        }
        return incompatible(value, type);
    }
    PyErr_SetString(PyExc_SystemError, "unknown ctypes kind");
    return -1;
}

int
_PyCtypes_ResizeBuffer(CDataObject *self, Py_ssize_t size)
{
    if (size <= self->size) {
        self->size = size;      /* the memory stays; only the view shrinks */
        return 0;
    }
    char *mem;
    if (self->owns) {
        mem = PyMem_Realloc(self->ptr, (size_t)size);
        if (mem == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memset(mem + self->size, 0, (size_t)(size - self->size));
    }
    else {
        mem = PyMem_Calloc(1, (size_t)size);
        if (mem == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(mem, self->ptr, (size_t)self->size);
    }
    self->ptr = mem;
    self->owns = 1;
    self->size = size;
    return 0;
}

static void
cdata_dealloc(PyObject *op)
{
    CDataObject *self = CDATA(op);
    PyObject_GC_UnTrack(op);
    if (self->weakrefs != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    if (PyObject_TypeCheck(op, &PyCFuncPtr_Type)) {
        _PyCtypes_FreeCallback((CFuncPtrObject *)op);
    }
    if (self->owns) {
        PyMem_Free(self->ptr);
    }
    Py_CLEAR(self->base);
    Py_CLEAR(self->keep);
    Py_TYPE(op)->tp_free(op);
}

static int
cdata_traverse(PyObject *op, visitproc visit, void *arg)
{
    CDataObject *self = CDATA(op);
    Py_VISIT(self->base);
    Py_VISIT(self->keep);
    if (PyObject_TypeCheck(op, &PyCFuncPtr_Type)) {
        CFuncPtrObject *f = (CFuncPtrObject *)op;
        Py_VISIT(f->callable);
        Py_VISIT(f->argtypes);
        Py_VISIT(f->restype);
        Py_VISIT(f->errcheck);
    }
    return 0;
}

static int
cdata_clear(PyObject *op)
{
    CDataObject *self = CDATA(op);
    Py_CLEAR(self->keep);
    if (PyObject_TypeCheck(op, &PyCFuncPtr_Type)) {
        CFuncPtrObject *f = (CFuncPtrObject *)op;
        /* The closure stays (C code may hold its address); the objects go. */
        Py_CLEAR(f->callable);
        Py_CLEAR(f->argtypes);
        Py_CLEAR(f->converters);
        Py_CLEAR(f->restype);
        Py_CLEAR(f->errcheck);
    }
    return 0;
}

static PyObject *
cdata_get_objects(PyObject *self, void *Py_UNUSED(c))
{
    PyObject *keep = CDATA(self)->keep;
    return Py_NewRef(keep ? keep : Py_None);
}

static PyObject *
cdata_get_b_base(PyObject *self, void *Py_UNUSED(c))
{
    PyObject *b = (PyObject *)CDATA(self)->base;
    return Py_NewRef(b ? b : Py_None);
}

static PyObject *
cdata_get_needsfree(PyObject *self, void *Py_UNUSED(c))
{
    CDataObject *d = CDATA(self);
    return PyLong_FromLong(d->base == NULL && (d->owns || d->ptr == d->inline_buf.b));
}

static PyGetSetDef cdata_getset[] = {
    {"_objects", cdata_get_objects, NULL, "objects this memory keeps alive (internal, read-only)",
     NULL},
    {"_b_base_", cdata_get_b_base, NULL, "the base object", NULL},
    {"_b_needsfree_", cdata_get_needsfree, NULL, "whether the object owns the memory", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

int
_PyCtypes_ExportBuffer(PyObject *op, Py_buffer *view, int flags)
{
    CDataObject *self = CDATA(op);
    TypeInfo *info = _PyCtypes_InfoOfObject(op);
    if (PyBuffer_FillInfo(view, op, self->ptr, self->size, 0, flags) < 0) {
        return -1;
    }
    if (info != NULL && (flags & PyBUF_FORMAT) && info->format != NULL) {
        view->format = info->format;
        if (info->kind != CT_ARRAY) {
            view->itemsize = self->size;
        }
    }
    if (info != NULL && info->kind == CT_ARRAY && info->ndim > 0) {
        view->ndim = info->ndim;
        view->shape = (flags & PyBUF_ND) ? info->shape : NULL;
        view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? info->strides : NULL;
        view->itemsize = info->base_itemsize;
    }
    else {
        /* A scalar: one item of the whole size, no dimensions.  With
           PyBUF_ND the shape pointer is non-NULL (an empty array: ndim is
           0) so a consumer does not mistake the view for a 1-D one of
           len / itemsize items. */
        view->ndim = 0;
        view->shape = (flags & PyBUF_ND) ? &self->size : NULL;
        view->strides = NULL;
    }
    return 0;
}

static PyBufferProcs cdata_as_buffer = {
    .bf_getbuffer = _PyCtypes_ExportBuffer,
};

/* Whether instances of a type hold addresses (which pickling cannot
   carry to another process). */
static int
info_holds_address(TypeInfo *info)
{
    switch (info->kind) {
    case CT_SIMPLE:
        return strchr("zZPO", info->fmt->code) != NULL;
    case CT_POINTER:
    case CT_FUNCPTR:
        return 1;
    case CT_ARRAY: {
        TypeInfo *item = _PyCtypes_Info(info->proto);
        return item != NULL && info_holds_address(item);
    }
    default:
        for (Py_ssize_t i = 0; info->fields && i < PyTuple_GET_SIZE(info->fields); i++) {
            CFieldObject *f = (CFieldObject *)PyTuple_GET_ITEM(info->fields, i);
            TypeInfo *fi = _PyCtypes_Info(f->type);
            if (fi != NULL && info_holds_address(fi)) {
                return 1;
            }
        }
        return 0;
    }
}

static PyObject *unpickle_func;     /* _ctypes._unpickle */

/* Pickled as _unpickle(type, (instance dict, memory bytes)). */
static PyObject *
cdata_reduce(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    TypeInfo *info = _PyCtypes_InfoOfObject(self);
    if (info == NULL || info_holds_address(info)) {
        PyErr_SetString(PyExc_ValueError,
                        "ctypes objects containing pointers cannot be pickled");
        return NULL;
    }
    PyObject *dict = PyObject_GetAttrString(self, "__dict__");
    if (dict == NULL) {
        PyErr_Clear();
        dict = PyDict_New();
        if (dict == NULL) {
            return NULL;
        }
    }
    return Py_BuildValue("O(O(Ny#))", unpickle_func, (PyObject *)Py_TYPE(self), dict,
                         CDATA(self)->ptr, CDATA(self)->size);
}

static PyObject *
cdata_setstate(PyObject *self, PyObject *args)
{
    PyObject *dict;
    const char *data;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "O!y#:__setstate__", &PyDict_Type, &dict, &data, &len)) {
        return NULL;
    }
    Py_ssize_t n = len < CDATA(self)->size ? len : CDATA(self)->size;
    memmove(CDATA(self)->ptr, data, (size_t)n);
    PyObject *mydict = PyObject_GetAttrString(self, "__dict__");
    if (mydict == NULL) {
        return NULL;
    }
    if (!PyDict_Check(mydict)) {
        PyErr_Format(PyExc_TypeError, "%.200s.__dict__ must be a dictionary, not %.200s",
                     Py_TYPE(self)->tp_name, Py_TYPE(mydict)->tp_name);
        Py_DECREF(mydict);
        return NULL;
    }
    int rc = PyDict_Update(mydict, dict);
    Py_DECREF(mydict);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* What an 'out' parameter of this type gives back: the instance itself
   (simple types answer their value instead, see simple.c). */
static PyObject *
cdata_from_outparam(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return Py_NewRef(self);
}

static PyMethodDef cdata_methods[] = {
    {"__ctypes_from_outparam__", cdata_from_outparam, METH_NOARGS, NULL},
    {"__reduce__", cdata_reduce, METH_NOARGS, NULL},
    {"__setstate__", cdata_setstate, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ctypes instances are mutable views on memory: no hash (a subclass may
   define __hash__). */
static Py_hash_t
cdata_hash(PyObject *self)
{
    PyErr_SetString(PyExc_TypeError, "unhashable type");
    return -1;
}

PyTypeObject PyCData_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes._CData",
    .tp_basicsize = sizeof(CDataObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_dealloc = cdata_dealloc,
    .tp_traverse = cdata_traverse,
    .tp_clear = cdata_clear,
    .tp_getset = cdata_getset,
    .tp_methods = cdata_methods,
    .tp_hash = cdata_hash,
    .tp_as_buffer = &cdata_as_buffer,
    .tp_weaklistoffset = offsetof(CDataObject, weakrefs),
    .tp_doc = "XXX to be provided",
};

/* ---- CArgObject: byref() results ---------------------------------------------------- */

PyCArgObject *
_PyCtypes_NewArg(char tag, ffi_type *ffi, PyObject *obj)
{
    PyCArgObject *a = PyObject_New(PyCArgObject, &PyCArg_Type);
    if (a == NULL) {
        return NULL;
    }
    a->tag = tag;
    a->ffi = ffi;
    memset(&a->value, 0, sizeof(a->value));
    a->obj = Py_XNewRef(obj);
    a->offset = 0;
    return a;
}

static void
carg_dealloc(PyObject *op)
{
    Py_XDECREF(((PyCArgObject *)op)->obj);
    PyObject_Free(op);
}

static PyObject *
carg_repr(PyObject *op)
{
    PyCArgObject *a = (PyCArgObject *)op;
    const ArgValue *v = &a->value;
    char t = a->tag;
    switch (t) {
    case 'b': return PyUnicode_FromFormat("<cparam '%c' (%d)>", t, (int)v->b);
    case 'B': return PyUnicode_FromFormat("<cparam '%c' (%d)>", t, (int)(unsigned char)v->c);
    case 'h': return PyUnicode_FromFormat("<cparam '%c' (%d)>", t, (int)v->h);
    case 'H': return PyUnicode_FromFormat("<cparam '%c' (%d)>", t, (int)(unsigned short)v->h);
    case 'i': return PyUnicode_FromFormat("<cparam '%c' (%d)>", t, v->i);
    case 'I': return PyUnicode_FromFormat("<cparam '%c' (%u)>", t, (unsigned int)v->i);
    case 'l': return PyUnicode_FromFormat("<cparam '%c' (%ld)>", t, v->l);
    case 'L': return PyUnicode_FromFormat("<cparam '%c' (%lu)>", t, (unsigned long)v->l);
    case 'q': return PyUnicode_FromFormat("<cparam '%c' (%lld)>", t, v->q);
    case 'Q':
        return PyUnicode_FromFormat("<cparam '%c' (%llu)>", t, (unsigned long long)v->q);
    case 'd':
    case 'f': {
        PyObject *f = PyFloat_FromDouble(t == 'd' ? v->d : v->f);
        PyObject *r = f ? PyUnicode_FromFormat("<cparam '%c' (%R)>", t, f) : NULL;
        Py_XDECREF(f);
        return r;
    }
    case 'c': {
        unsigned char ch = (unsigned char)v->c;
        if (ch >= 0x20 && ch < 0x7f && ch != '\\' && ch != '\'') {
            return PyUnicode_FromFormat("<cparam '%c' ('%c')>", t, ch);
        }
        return PyUnicode_FromFormat("<cparam '%c' ('\\x%02x')>", t, (unsigned int)ch);
    }
    case 'P': case 'z': case 'Z':
        return PyUnicode_FromFormat("<cparam '%c' (%p)>", t, v->p);
    default:
        return PyUnicode_FromFormat("<cparam '%c' at %p>", t, op);
    }
}

static PyObject *
carg_get_obj(PyObject *op, void *Py_UNUSED(c))
{
    PyObject *o = ((PyCArgObject *)op)->obj;
    return Py_NewRef(o ? o : Py_None);
}

static PyGetSetDef carg_getset[] = {
    {"_obj", carg_get_obj, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PyCArg_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.CArgObject",
    .tp_basicsize = sizeof(PyCArgObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = carg_dealloc,
    .tp_repr = carg_repr,
    .tp_getset = carg_getset,
};

/* ---- Module functions ------------------------------------------------------------ */

static PyObject *
ct_sizeof(PyObject *m, PyObject *obj)
{
    if (_PyCtypes_IsCData(obj)) {
        return PyLong_FromSsize_t(CDATA(obj)->size);
    }
    TypeInfo *info = PyType_Check(obj) ? _PyCtypes_Info(obj) : NULL;
    if (info == NULL) {
        PyErr_SetString(PyExc_TypeError, "this type has no size");
        return NULL;
    }
    return PyLong_FromSsize_t(info->size);
}

static PyObject *
ct_alignment(PyObject *m, PyObject *obj)
{
    TypeInfo *info = PyType_Check(obj) ? _PyCtypes_Info(obj) : _PyCtypes_InfoOfObject(obj);
    if (info == NULL) {
        PyErr_SetString(PyExc_TypeError, "no alignment info");
        return NULL;
    }
    return PyLong_FromSsize_t(info->align);
}

static PyObject *
ct_byref(PyObject *m, PyObject *args)
{
    PyObject *obj;
    Py_ssize_t offset = 0;
    if (!PyArg_ParseTuple(args, "O|n:byref", &obj, &offset)) {
        return NULL;
    }
    if (!_PyCtypes_IsCData(obj)) {
        PyErr_Format(PyExc_TypeError, "byref() argument must be a ctypes instance, not '%s'",
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyCArgObject *a = _PyCtypes_NewArg('P', &ffi_type_pointer, obj);
    if (a != NULL) {
        a->value.p = CDATA(obj)->ptr + offset;
        a->offset = offset;
    }
    return (PyObject *)a;
}

static PyObject *
ct_addressof(PyObject *m, PyObject *obj)
{
    int ok = _PyCtypes_IsCData(obj);
    if (ok && PySys_Audit("ctypes.addressof", "O", obj) == 0) {
        return PyLong_FromVoidPtr(CDATA(obj)->ptr);
    }
    if (!ok) {
        PyErr_SetString(PyExc_TypeError, "invalid type");
    }
    return NULL;
}

static PyObject *
ct_resize(PyObject *m, PyObject *args)
{
    PyObject *obj;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "On:resize", &obj, &size)) {
        return NULL;
    }
    if (!_PyCtypes_IsCData(obj)) {
        PyErr_SetString(PyExc_TypeError, "expected ctypes instance");
        return NULL;
    }
    TypeInfo *info = _PyCtypes_InfoOfObject(obj);
    if (info != NULL && size < info->size) {
        PyErr_Format(PyExc_ValueError, "minimum size is %zd", info->size);
        return NULL;
    }
    CDataObject *self = CDATA(obj);
    if (self->base != NULL || (!self->owns && self->ptr != self->inline_buf.b)) {
        PyErr_SetString(PyExc_ValueError, "Memory cannot be resized because this object "
                        "doesn't own it");
        return NULL;
    }
    if (_PyCtypes_ResizeBuffer(self, size) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static _Thread_local int saved_errno;

int *
_PyCtypes_ErrnoSlot(void)
{
    return &saved_errno;
}

static PyObject *
ct_get_errno(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    if (PySys_Audit("ctypes.get_errno", NULL) < 0) {
        return NULL;
    }
    return PyLong_FromLong(saved_errno);
}

static PyObject *
ct_set_errno(PyObject *m, PyObject *arg)
{
    int value = PyLong_AsInt(arg);
    if (value == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (PySys_Audit("ctypes.set_errno", "i", value) < 0) {
        return NULL;
    }
    int old = saved_errno;
    saved_errno = value;
    return PyLong_FromLong(old);
}

static PyObject *
ct_dlopen(PyObject *m, PyObject *args)
{
    PyObject *name = Py_None;
    int mode = RTLD_NOW | RTLD_LOCAL;
    if (!PyArg_ParseTuple(args, "|Oi:dlopen", &name, &mode)) {
        return NULL;
    }
    PyObject *bytes = NULL;
    const char *path = NULL;
    if (name != Py_None) {
        if (!PyUnicode_FSConverter(name, &bytes)) {
            return NULL;
        }
        path = PyBytes_AS_STRING(bytes);
    }
    if (PySys_Audit("ctypes.dlopen", "O", name) < 0) {
        Py_XDECREF(bytes);
        return NULL;
    }
    void *handle = dlopen(path, mode | RTLD_NOW);
    Py_XDECREF(bytes);
    if (handle == NULL) {
        return _PyCtypes_SetDlError(PyExc_OSError, "dlopen() error");
    }
    return PyLong_FromVoidPtr(handle);
}

static PyObject *
ct_dlclose(PyObject *m, PyObject *arg)
{
    void *handle = PyLong_AsVoidPtr(arg);
    if (handle == NULL && PyErr_Occurred()) {
        return NULL;
    }
    if (dlclose(handle) != 0) {
        return _PyCtypes_SetDlError(PyExc_OSError, "dlclose() error");
    }
    Py_RETURN_NONE;
}

static PyObject *
ct_dlsym(PyObject *m, PyObject *args)
{
    PyObject *h;
    const char *name;
    if (!PyArg_ParseTuple(args, "Os:dlsym", &h, &name)) {
        return NULL;
    }
    void *handle = PyLong_AsVoidPtr(h);
    if (handle == NULL && PyErr_Occurred()) {
        return NULL;
    }
    dlerror();
    void *addr = dlsym(handle, name);
    if (addr == NULL) {
        return _PyCtypes_SetDlError(PyExc_OSError, "symbol not found");
    }
    return PyLong_FromVoidPtr(addr);
}

static PyObject *
ct_buffer_info(PyObject *m, PyObject *type)
{
    TypeInfo *info = PyType_Check(type) ? _PyCtypes_Info(type) : _PyCtypes_InfoOfObject(type);
    if (info == NULL) {
        PyErr_SetString(PyExc_TypeError, "not a ctypes type or object");
        return NULL;
    }
    PyObject *shape = PyTuple_New(info->ndim);
    if (shape == NULL) {
        return NULL;
    }
    for (int i = 0; i < info->ndim; i++) {
        PyTuple_SET_ITEM(shape, i, PyLong_FromSsize_t(info->shape[i]));
    }
    PyObject *fmt = info->format ? PyUnicode_FromString(info->format) : Py_NewRef(Py_None);
    if (fmt == NULL) {
        Py_DECREF(shape);
        return NULL;
    }
    return Py_BuildValue("NiN", fmt, info->ndim, shape);
}

/* ---- The C helpers behind cast(), string_at() and memoryview_at() ----------------------
   ctypes/__init__.py calls them through function pointers with the
   PYTHONAPI flag, so they may raise: the caller checks for an exception. */

/* cast()'s result points into src's memory (or where src points), so it
   must keep src, and whatever src keeps, alive.  Both end up holding the
   same container: src's root gets a dict (when it had nothing) with src
   itself under the key id(src), and the result holds that very dict, so a
   store through either one is seen by both.  A root holding a single
   object (a c_char_p's bytes) shares that object instead. */
static int
cast_share_keep(CDataObject *res, PyObject *src)
{
    CDataObject *root = cdata_root(CDATA(src));
    if (root->keep == NULL) {
        root->keep = PyDict_New();
        if (root->keep == NULL) {
            return -1;
        }
    }
    if (PyDict_CheckExact(root->keep)) {
        PyObject *key = PyLong_FromVoidPtr(src);
        if (key == NULL) {
            return -1;
        }
        int rc = PyDict_SetItem(root->keep, key, src);
        Py_DECREF(key);
        if (rc < 0) {
            return -1;
        }
    }
    Py_XSETREF(res->keep, Py_NewRef(root->keep));
    return 0;
}

static PyObject *
helper_cast(void *ptr, PyObject *src, PyObject *ctype)
{
    TypeInfo *info = _PyCtypes_Info(ctype);
    if (info == NULL || !(info->kind == CT_POINTER || info->kind == CT_FUNCPTR ||
                          (info->kind == CT_SIMPLE && strchr("sPzZ", info->fmt->code)))) {
        PyErr_Format(PyExc_TypeError, "cast() argument 2 must be a pointer type, not %s",
                     PyType_Check(ctype) ? ((PyTypeObject *)ctype)->tp_name
                                         : Py_TYPE(ctype)->tp_name);
        return NULL;
    }
    PyObject *res = _PyCtypes_NewOwned((PyTypeObject *)ctype);
    if (res == NULL) {
        return NULL;
    }
    *(void **)CDATA(res)->ptr = ptr;
    if (_PyCtypes_IsCData(src) && cast_share_keep(CDATA(res), src) < 0) {
        Py_DECREF(res);
        return NULL;
    }
    return res;
}

static PyObject *
helper_string_at(const char *ptr, int size)
{
    Py_ssize_t len = size;
    if (PySys_Audit("ctypes.string_at", "ni", (Py_ssize_t)ptr, size) == 0) {
        if (len == -1) {
            len = (Py_ssize_t)strlen(ptr);    /* -1: up to the NUL */
        }
        return PyBytes_FromStringAndSize(ptr, len);
    }
    return NULL;
}

static PyObject *
helper_wstring_at(const wchar_t *ptr, int size)
{
    if (PySys_Audit("ctypes.wstring_at", "ni", (Py_ssize_t)ptr, size) < 0) {
        return NULL;
    }
    Py_ssize_t n = size == -1 ? (Py_ssize_t)wcslen(ptr) : size;
    return PyUnicode_FromWideChar(ptr, n);
}

static PyObject *
helper_memoryview_at(void *ptr, Py_ssize_t size, int readonly)
{
    int mode = readonly ? PyBUF_READ : PyBUF_WRITE;
    if (size >= 0) {
        if (PySys_Audit("ctypes.memoryview_at", "nni", (Py_ssize_t)ptr, size, readonly) < 0) {
            return NULL;
        }
        return PyMemoryView_FromMemory(ptr, size, mode);
    }
    PyErr_Format(PyExc_ValueError, "negative size: %zd", size);
    return NULL;
}

static PyObject *
ct_unpickle(PyObject *m, PyObject *args)
{
    PyObject *type, *state;
    if (!PyArg_ParseTuple(args, "OO!:_unpickle", &type, &PyTuple_Type, &state)) {
        return NULL;
    }
    PyObject *obj = PyObject_CallMethod(type, "__new__", "O", type);
    if (obj == NULL) {
        return NULL;
    }
    PyObject *meth = PyObject_GetAttrString(obj, "__setstate__");
    PyObject *r = meth ? PyObject_Call(meth, state, NULL) : NULL;
    Py_XDECREF(meth);
    if (r == NULL) {
        Py_DECREF(obj);
        return NULL;
    }
    Py_DECREF(r);
    return obj;
}

/* PyObj_FromPtr(address): the object whose id() is `address`.  Nothing
   can be checked, as in CPython; for tests and debugging only. */
static PyObject *
ct_obj_from_ptr(PyObject *m, PyObject *arg)
{
    void *addr = PyLong_AsVoidPtr(arg);
    if (addr != NULL) {
        PyObject *found = (PyObject *)addr;
        return PySys_Audit("ctypes.PyObj_FromPtr", "(O)", found) < 0 ? NULL
                                                                      : Py_NewRef(found);
    }
    if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "PyObj_FromPtr: NULL pointer");
    }
    return NULL;
}

static PyObject *
ct_incref(PyObject *m, PyObject *obj)
{
    Py_INCREF(obj);             /* a leak on purpose: the caller asked */
    return Py_NewRef(obj);
}

static PyObject *
ct_decref(PyObject *m, PyObject *obj)
{
    Py_DECREF(obj);             /* undoes an earlier Py_INCREF() */
    return Py_NewRef(obj);
}

/* call_function(address, args): call a C function by address with the
   default conversions, as a ctypes function pointer without argtypes. */
static PyObject *
ct_call_function(PyObject *m, PyObject *args)
{
    PyObject *addr_o, *callargs;
    if (!PyArg_ParseTuple(args, "OO!:call_function", &addr_o, &PyTuple_Type, &callargs)) {
        return NULL;
    }
    void *addr = PyLong_AsVoidPtr(addr_o);
    if (addr == NULL && PyErr_Occurred()) {
        return NULL;
    }
    if (PySys_Audit("ctypes.call_function", "OO", addr_o, callargs) < 0) {
        return NULL;
    }
    return _PyCtypes_CallFunction(addr, callargs, NULL, NULL, NULL, 0, 0);
}

static PyMethodDef ct_functions[] = {
    {"PyObj_FromPtr", ct_obj_from_ptr, METH_O, NULL},
    {"Py_INCREF", ct_incref, METH_O, NULL},
    {"Py_DECREF", ct_decref, METH_O, NULL},
    {"call_function", ct_call_function, METH_VARARGS, NULL},
    {"call_cdeclfunction", ct_call_function, METH_VARARGS, NULL},
    {"sizeof", ct_sizeof, METH_O, "sizeof(C type) -> integer\nsizeof(C instance) -> integer"},
    {"alignment", ct_alignment, METH_O, "alignment(C type) -> integer"},
    {"byref", ct_byref, METH_VARARGS, "byref(C instance[, offset=0]) -> byref-object"},
    {"addressof", ct_addressof, METH_O, "addressof(C instance) -> integer"},
    {"resize", ct_resize, METH_VARARGS, "resize(C instance, size)"},
    {"get_errno", ct_get_errno, METH_NOARGS, NULL},
    {"set_errno", ct_set_errno, METH_O, NULL},
    {"dlopen", ct_dlopen, METH_VARARGS, "dlopen(name, flag={RTLD_GLOBAL|RTLD_LOCAL})"},
    {"dlclose", ct_dlclose, METH_O, "dlclose a library"},
    {"dlsym", ct_dlsym, METH_VARARGS, "find symbol in shared library"},
    {"buffer_info", ct_buffer_info, METH_O, "Return buffer interface information"},
    {NULL, NULL, 0, NULL},
};

void _PyCtypes_ClearArrayCache(void);

static PyObject *state_owner;   /* the module whose globals these are */

static void
ct_module_free(void *m)
{
    if (m != state_owner) {
        return;
    }
    Py_CLEAR(unpickle_func);
    Py_CLEAR(_PyCtypes_ArgumentError);
    _PyCtypes_ClearArrayCache();
    state_owner = NULL;
}

static struct PyModuleDef ct_module_def = {
    PyModuleDef_HEAD_INIT,
    .m_free = ct_module_free,
    .m_name = "_ctypes",
    .m_doc = "C data types, foreign function calls and shared libraries.",
    .m_size = -1,
    .m_methods = ct_functions,
};

/* Our static types live as long as the process: immortal, so that the
   references their bases and MROs hold do not count as left at exit. */
static int
add_type(PyObject *m, const char *name, PyTypeObject *tp)
{
    _Py_SetImmortal((PyObject *)tp);
    return PyModule_AddObjectRef(m, name, (PyObject *)tp);
}

static int
add_ptr(PyObject *m, const char *name, void *p)
{
    return PyModule_Add(m, name, PyLong_FromVoidPtr(p));
}

/* The base classes are static types whose type is one of our metatypes. */
static int
ready_base(PyTypeObject *tp, PyTypeObject *meta)
{
    Py_SET_TYPE(tp, meta);
    if (tp != &PyCData_Type && tp->tp_base == NULL) {
        tp->tp_base = &PyCData_Type;
    }
    /* Spelled out: the GC must see what every instance holds. */
    tp->tp_dealloc = cdata_dealloc;
    tp->tp_traverse = cdata_traverse;
    tp->tp_clear = cdata_clear;
    return _PyStaticType_InitBuiltin(tp);
}

extern PyMethodDef *_PyCtypes_AggregateFromParamDef;

static int
init_module(PyObject *m)
{
    PyCArrayType_Type.tp_methods = _PyCtypes_AggregateFromParamDef;
    CType_Type.tp_base = &PyType_Type;
    if (_PyStaticType_InitBuiltin(&CType_Type) < 0 ||
        _PyStaticType_InitBuiltin(&PyCArg_Type) < 0 ||
        _PyStaticType_InitBuiltin(&PyCField_Type) < 0) {
        return -1;
    }
    PyTypeObject *metas[] = {&PyCSimpleType_Type, &PyCStructType_Type, &UnionType_Type,
                             &PyCArrayType_Type, &PyCPointerType_Type, &PyCFuncPtrType_Type};
    for (size_t i = 0; i < sizeof(metas) / sizeof(metas[0]); i++) {
        if (_PyCtypes_MetaInit(metas[i]) < 0) {
            return -1;
        }
    }
    if (_PyStaticType_InitBuiltin(&PyCData_Type) < 0 ||
        ready_base(&Simple_Type, &PyCSimpleType_Type) < 0 ||
        ready_base(&Struct_Type, &PyCStructType_Type) < 0 ||
        ready_base(&Union_Type, &UnionType_Type) < 0 ||
        ready_base(&PyCArray_Type, &PyCArrayType_Type) < 0 ||
        ready_base(&PyCPointer_Type, &PyCPointerType_Type) < 0 ||
        ready_base(&PyCFuncPtr_Type, &PyCFuncPtrType_Type) < 0) {
        return -1;
    }
    if (_PyCtypes_ArgumentError == NULL) {
        _PyCtypes_ArgumentError = PyErr_NewException("ctypes.ArgumentError", NULL, NULL);
        if (_PyCtypes_ArgumentError == NULL) {
            return -1;
        }
    }
    if (state_owner == NULL) {
        state_owner = m;
    }
    _Py_SetImmortal((PyObject *)&PyCArg_Type);
    if (add_type(m, "_CData", &PyCData_Type) < 0 ||
        add_type(m, "_SimpleCData", &Simple_Type) < 0 ||
        add_type(m, "Structure", &Struct_Type) < 0 ||
        add_type(m, "Union", &Union_Type) < 0 ||
        add_type(m, "Array", &PyCArray_Type) < 0 ||
        add_type(m, "_Pointer", &PyCPointer_Type) < 0 ||
        add_type(m, "CFuncPtr", &PyCFuncPtr_Type) < 0 ||
        add_type(m, "CField", &PyCField_Type) < 0 ||
        add_type(m, "CType_Type", &CType_Type) < 0 ||
        add_type(m, "PyCSimpleType", &PyCSimpleType_Type) < 0 ||
        add_type(m, "PyCStructType", &PyCStructType_Type) < 0 ||
        add_type(m, "UnionType", &UnionType_Type) < 0 ||
        add_type(m, "PyCArrayType", &PyCArrayType_Type) < 0 ||
        add_type(m, "PyCPointerType", &PyCPointerType_Type) < 0 ||
        add_type(m, "PyCFuncPtrType", &PyCFuncPtrType_Type) < 0 ||
        PyModule_AddObjectRef(m, "ArgumentError", _PyCtypes_ArgumentError) < 0) {
        return -1;
    }
    if (PyModule_AddStringConstant(m, "__version__", "1.1.0") < 0 ||
        PyModule_AddIntConstant(m, "RTLD_LOCAL", RTLD_LOCAL) < 0 ||
        PyModule_AddIntConstant(m, "RTLD_GLOBAL", RTLD_GLOBAL) < 0 ||
        PyModule_AddIntConstant(m, "FUNCFLAG_CDECL", CT_FLAG_CDECL) < 0 ||
        PyModule_AddIntConstant(m, "FUNCFLAG_USE_ERRNO", CT_FLAG_USE_ERRNO) < 0 ||
        PyModule_AddIntConstant(m, "FUNCFLAG_USE_LASTERROR", CT_FLAG_USE_LASTERROR) < 0 ||
        PyModule_AddIntConstant(m, "FUNCFLAG_PYTHONAPI", CT_FLAG_PYTHONAPI) < 0 ||
        PyModule_AddIntConstant(m, "SIZEOF_TIME_T", (long)sizeof(time_t)) < 0 ||
        PyModule_AddIntConstant(m, "CTYPES_MAX_ARGCOUNT", CT_MAX_ARGS) < 0) {
        return -1;
    }
    /* Not the module's attribute: that one holds the module, and a C
       global holding the module would keep it (and m_free) from ever
       running. */
    static PyMethodDef unpickle_def = {"_unpickle", ct_unpickle, METH_VARARGS, NULL};
    PyObject *modname = PyUnicode_FromString("_ctypes");
    if (modname == NULL) {
        return -1;
    }
    Py_XSETREF(unpickle_func, PyCFunction_NewEx(&unpickle_def, NULL, modname));
    Py_DECREF(modname);
    if (unpickle_func == NULL || PyModule_AddObjectRef(m, "_unpickle", unpickle_func) < 0) {
        return -1;
    }
    if (add_ptr(m, "_memmove_addr", (void *)memmove) < 0 ||
        add_ptr(m, "_memset_addr", (void *)memset) < 0 ||
        add_ptr(m, "_string_at_addr", (void *)helper_string_at) < 0 ||
        add_ptr(m, "_wstring_at_addr", (void *)helper_wstring_at) < 0 ||
        add_ptr(m, "_cast_addr", (void *)helper_cast) < 0 ||
        add_ptr(m, "_memoryview_at_addr", (void *)helper_memoryview_at) < 0) {
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC
PyInit__ctypes(void)
{
    PyObject *m = PyModule_Create(&ct_module_def);
    if (m != NULL && init_module(m) < 0) {
        Py_CLEAR(m);
    }
    return m;
}
