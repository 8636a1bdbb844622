/* _ctypes: CField, the descriptor for one member of a Structure or Union.

   ctypes/_layout.py computes where each member lives and builds the CField
   objects (keyword constructor below); struct.c installs them in the class.
   Reading a field gives a Python value for fundamental simple types and a
   view sharing the aggregate's memory otherwise.  Bitfields are read by
   loading the whole storage unit, shifting and masking. */

#include "ctypes.h"
#include "structmember.h"
#include <string.h>
#include <wchar.h>

static PyObject *
cfield_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"name", "type", "byte_size", "byte_offset", "index",
                             "bit_size", "bit_offset", "_internal_use", NULL};
    PyObject *name, *type, *bit_size = Py_None, *bit_offset = Py_None;
    Py_ssize_t byte_size, byte_offset, index;
    int internal = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "$OOnnn|OOp:CField", kwlist, &name, &type,
                                     &byte_size, &byte_offset, &index, &bit_size, &bit_offset,
                                     &internal)) {
        return NULL;
    }
    if (!internal) {
        PyErr_SetString(PyExc_TypeError, "CField is not intended to be used directly; use it "
                        "via Structure or Union types only");
        return NULL;
    }
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "field name must be str, not %s",
                     Py_TYPE(name)->tp_name);
        return NULL;
    }
    TypeInfo *info = PyType_Check(type) ? _PyCtypes_Info(type) : NULL;
    if (info == NULL) {
        PyErr_Format(PyExc_TypeError, "type of field %R must be a C type", name);
        return NULL;
    }
    if (byte_size != info->size) {
        PyErr_Format(PyExc_ValueError, "byte_size of field %R must be %zd", name, info->size);
        return NULL;
    }
    CFieldObject *self = (CFieldObject *)tp->tp_alloc(tp, 0);
    if (self == NULL) {
        return NULL;
    }
    self->name = Py_NewRef(name);
    self->type = Py_NewRef(type);
    self->byte_size = byte_size;
    self->byte_offset = byte_offset;
    self->index = index;
    if (bit_size != Py_None) {
        self->bit_size = PyLong_AsSsize_t(bit_size);
        self->bit_offset = bit_offset == Py_None ? 0 : PyLong_AsSsize_t(bit_offset);
        if (PyErr_Occurred()) {
            Py_DECREF(self);
            return NULL;
        }
        if (info->kind != CT_SIMPLE || !info->fmt->is_int) {
            PyErr_Format(PyExc_TypeError, "bit fields not allowed for type %s",
                         ((PyTypeObject *)type)->tp_name);
            Py_DECREF(self);
            return NULL;
        }
        if (self->bit_size <= 0 || self->bit_size + self->bit_offset > byte_size * 8) {
            PyErr_Format(PyExc_ValueError, "bit field %R does not fit in its type", name);
            Py_DECREF(self);
            return NULL;
        }
    }
    return (PyObject *)self;
}

static void
cfield_dealloc(PyObject *op)
{
    CFieldObject *self = (CFieldObject *)op;
    PyObject_GC_UnTrack(op);
    Py_XDECREF(self->name);
    Py_XDECREF(self->type);
    Py_TYPE(op)->tp_free(op);
}

static int
cfield_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((CFieldObject *)op)->type);
    return 0;
}

/* ---- Bitfields ------------------------------------------------------------------ */

static unsigned long long
load_unit(const char *p, Py_ssize_t size)
{
    switch (size) {
    case 1: return *(const unsigned char *)p;
    case 2: { unsigned short v; memcpy(&v, p, 2); return v; }
    case 4: { unsigned int v; memcpy(&v, p, 4); return v; }
    default: { unsigned long long v; memcpy(&v, p, 8); return v; }
    }
}

static void
store_unit(char *p, Py_ssize_t size, unsigned long long v)
{
    switch (size) {
    case 1: *(unsigned char *)p = (unsigned char)v; break;
    case 2: { unsigned short s = (unsigned short)v; memcpy(p, &s, 2); break; }
    case 4: { unsigned int s = (unsigned int)v; memcpy(p, &s, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static unsigned long long
bit_mask(Py_ssize_t bits)
{
    return bits >= 64 ? ~0ULL : ((1ULL << bits) - 1);
}

/* The storage unit as a native integer (swapped types store it reversed). */
static unsigned long long
read_unit(TypeInfo *info, const char *p, Py_ssize_t size)
{
    if (info->fmt->swapped) {
        char tmp[8];
        for (Py_ssize_t k = 0; k < size; k++) {
            tmp[k] = p[size - 1 - k];
        }
        return load_unit(tmp, size);
    }
    return load_unit(p, size);
}

static void
write_unit(TypeInfo *info, char *p, Py_ssize_t size, unsigned long long v)
{
    if (info->fmt->swapped) {
        char tmp[8];
        store_unit(tmp, size, v);
        for (Py_ssize_t k = 0; k < size; k++) {
            p[k] = tmp[size - 1 - k];
        }
        return;
    }
    store_unit(p, size, v);
}

static PyObject *
bitfield_get(CFieldObject *f, const char *p)
{
    TypeInfo *info = _PyCtypes_Info(f->type);
    unsigned long long v = (read_unit(info, p, f->byte_size) >> f->bit_offset) &
                           bit_mask(f->bit_size);
    if (info->fmt->code == '?') {
        return PyBool_FromLong(v != 0);
    }
    if (info->fmt->is_signed && f->bit_size < 64 && (v >> (f->bit_size - 1)) & 1) {
        return PyLong_FromLongLong((long long)(v | ~bit_mask(f->bit_size)));
    }
    if (info->fmt->is_signed) {
        return PyLong_FromLongLong((long long)v);
    }
    return PyLong_FromUnsignedLongLong(v);
}

static int
bitfield_set(CFieldObject *f, char *p, PyObject *value)
{
    TypeInfo *info = _PyCtypes_Info(f->type);
    char tmp[8] = {0};
    PyObject *keep = info->fmt->set(tmp, value, f->byte_size);
    if (keep == NULL) {
        return -1;
    }
    Py_DECREF(keep);
    unsigned long long mask = bit_mask(f->bit_size) << f->bit_offset;
    unsigned long long v = read_unit(info, tmp, f->byte_size) << f->bit_offset;
    unsigned long long unit = read_unit(info, p, f->byte_size);
    write_unit(info, p, f->byte_size, (unit & ~mask) | (v & mask));
    return 0;
}

/* ---- Descriptor protocol --------------------------------------------------------------- */

static PyObject *
cfield_descr_get(PyObject *op, PyObject *obj, PyObject *type)
{
    CFieldObject *f = (CFieldObject *)op;
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(op);
    }
    if (!_PyCtypes_IsCData(obj)) {
        PyErr_SetString(PyExc_TypeError, "not a ctype instance");
        return NULL;
    }
    char *p = CDATA(obj)->ptr + f->byte_offset;
    if (f->bit_size) {
        return bitfield_get(f, p);
    }
    TypeInfo *info = _PyCtypes_Info(f->type);
    TypeInfo *item = info->kind == CT_ARRAY ? _PyCtypes_Info(info->proto) : NULL;
    if (item != NULL && item->kind == CT_SIMPLE && _PyCtypes_IsFundamental(info->proto)) {
        /* Text members read as bytes or str, up to the first NUL. */
        if (item->fmt->code == 'c') {
            Py_ssize_t n = 0;
            while (n < f->byte_size && p[n]) {
                n++;
            }
            return PyBytes_FromStringAndSize(p, n);
        }
        if (item->fmt->code == 'u') {
            const wchar_t *w = (const wchar_t *)p;
            Py_ssize_t max = f->byte_size / (Py_ssize_t)sizeof(wchar_t), n = 0;
            while (n < max && w[n]) {
                n++;
            }
            return PyUnicode_FromWideChar(w, n);
        }
    }
    return _PyCtypes_GetValue(f->type, obj, f->index, p, f->byte_size);
}

static int
cfield_descr_set(PyObject *op, PyObject *obj, PyObject *value)
{
    CFieldObject *f = (CFieldObject *)op;
    if (!_PyCtypes_IsCData(obj)) {
        PyErr_SetString(PyExc_TypeError, "not a ctype instance");
        return -1;
    }
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "can't delete attribute");
        return -1;
    }
    char *p = CDATA(obj)->ptr + f->byte_offset;
    if (f->bit_size) {
        return bitfield_set(f, p, value);
    }
    return _PyCtypes_SetValue(CDATA(obj), f->type, f->index, p, f->byte_size, value);
}

/* ---- Attributes ------------------------------------------------------------------- */

static PyObject *
cfield_get_bit_size(PyObject *op, void *Py_UNUSED(c))
{
    CFieldObject *f = (CFieldObject *)op;
    return PyLong_FromSsize_t(f->bit_size ? f->bit_size : f->byte_size * 8);
}

static PyObject *
cfield_get_bit_offset(PyObject *op, void *Py_UNUSED(c))
{
    return PyLong_FromSsize_t(((CFieldObject *)op)->bit_offset);
}

static PyObject *
cfield_get_is_bitfield(PyObject *op, void *Py_UNUSED(c))
{
    return PyBool_FromLong(((CFieldObject *)op)->bit_size != 0);
}

static PyObject *
cfield_get_is_anonymous(PyObject *op, void *Py_UNUSED(c))
{
    return PyBool_FromLong(((CFieldObject *)op)->anonymous);
}

/* The 3.13 encoding of `size`: for bitfields, bit count and offset packed. */
static PyObject *
cfield_get_size(PyObject *op, void *Py_UNUSED(c))
{
    CFieldObject *f = (CFieldObject *)op;
    if (f->bit_size) {
        return PyLong_FromSsize_t((f->bit_size << 16) | f->bit_offset);
    }
    return PyLong_FromSsize_t(f->byte_size);
}

static PyGetSetDef cfield_getset[] = {
    {"size", cfield_get_size, NULL, "size in bytes of this field (bit info for bitfields)",
     NULL},
    {"bit_size", cfield_get_bit_size, NULL, "size of this field in bits", NULL},
    {"bit_offset", cfield_get_bit_offset, NULL, "additional offset in bits", NULL},
    {"is_bitfield", cfield_get_is_bitfield, NULL, "true if this is a bitfield", NULL},
    {"is_anonymous", cfield_get_is_anonymous, NULL, "true if this field is anonymous", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef cfield_members[] = {
    {"name", Py_T_OBJECT_EX, offsetof(CFieldObject, name), Py_READONLY, "name of this field"},
    {"type", Py_T_OBJECT_EX, offsetof(CFieldObject, type), Py_READONLY, "type of this field"},
    {"offset", Py_T_PYSSIZET, offsetof(CFieldObject, byte_offset), Py_READONLY,
     "offset in bytes of this field"},
    {"byte_offset", Py_T_PYSSIZET, offsetof(CFieldObject, byte_offset), Py_READONLY,
     "offset in bytes of this field"},
    {"byte_size", Py_T_PYSSIZET, offsetof(CFieldObject, byte_size), Py_READONLY,
     "size of this field in bytes"},
    {NULL, 0, 0, 0, NULL},
};

/* "<_ctypes.CField 'x' type=c_int, ofs=0, size=4>": the field's type
   named fully qualified, then either the byte size or, for a bitfield,
   its width and first bit. */
static PyObject *
cfield_repr(PyObject *op)
{
    CFieldObject *f = (CFieldObject *)op;
    PyObject *where = PyUnicode_FromFormat("<%T %R type=%s, ofs=%zd", op, f->name,
                                           ((PyTypeObject *)f->type)->tp_name, f->byte_offset);
    if (where == NULL) {
        return NULL;
    }
    PyObject *extent = f->bit_size
                           ? PyUnicode_FromFormat("bit_size=%zd, bit_offset=%zd", f->bit_size,
                                                  f->bit_offset)
                           : PyUnicode_FromFormat("size=%zd", f->byte_size);
    PyObject *res = extent == NULL ? NULL : PyUnicode_FromFormat("%U, %U>", where, extent);
    Py_DECREF(where);
    Py_XDECREF(extent);
    return res;
}

PyTypeObject PyCField_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.CField",
    .tp_basicsize = sizeof(CFieldObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = cfield_new,
    .tp_dealloc = cfield_dealloc,
    .tp_traverse = cfield_traverse,
    .tp_repr = cfield_repr,
    .tp_descr_get = cfield_descr_get,
    .tp_descr_set = cfield_descr_set,
    .tp_getset = cfield_getset,
    .tp_members = cfield_members,
    .tp_doc = "Structure/Union member",
};
