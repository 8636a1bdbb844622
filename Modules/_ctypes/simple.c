/* _ctypes: simple types.  The table of format codes (how many bytes, how
   libffi passes them, how to read and write one), the PyCSimpleType
   metatype that turns `_type_ = "i"` into a TypeInfo, and _SimpleCData, the
   base of c_int & co. */

#include "ctypes.h"
#include <string.h>
#include <wchar.h>

#ifdef WORDS_BIGENDIAN
#  define CT_LITTLE_ENDIAN 0
#else
#  define CT_LITTLE_ENDIAN 1
#endif

/* ---- Integers ----------------------------------------------------------------- */

/* The integer value of obj, truncated to 64 bits as C would: ctypes does
   not check ranges. */
static int
int_bits(PyObject *value, unsigned long long *out)
{
    if (PyFloat_Check(value)) {
        PyErr_Format(PyExc_TypeError, "'%s' object cannot be interpreted as an integer",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    PyObject *n = PyNumber_Index(value);
    if (n == NULL) {
        return -1;
    }
    *out = PyLong_AsUnsignedLongLongMask(n);
    Py_DECREF(n);
    return (*out == (unsigned long long)-1 && PyErr_Occurred()) ? -1 : 0;
}

#define INT_CODEC(NAME, CTYPE, FROM, CAST)                                  \
    static PyObject *NAME##_get(void *ptr, Py_ssize_t size)                 \
    {                                                                       \
        CTYPE v;                                                            \
        memcpy(&v, ptr, sizeof(v));                                         \
        return FROM((CAST)v);                                               \
    }                                                                       \
    static PyObject *NAME##_set(void *ptr, PyObject *value, Py_ssize_t size) \
    {                                                                       \
        unsigned long long bits;                                            \
        if (int_bits(value, &bits) < 0) {                                   \
            return NULL;                                                    \
        }                                                                   \
        CTYPE v = (CTYPE)bits;                                              \
        memcpy(ptr, &v, sizeof(v));                                         \
        Py_RETURN_NONE;                                                     \
    }

INT_CODEC(b, signed char, PyLong_FromLong, long)
INT_CODEC(B, unsigned char, PyLong_FromLong, long)
INT_CODEC(h, short, PyLong_FromLong, long)
INT_CODEC(H, unsigned short, PyLong_FromLong, long)
INT_CODEC(i, int, PyLong_FromLong, long)
INT_CODEC(I, unsigned int, PyLong_FromUnsignedLong, unsigned long)
INT_CODEC(l, long, PyLong_FromLong, long)
INT_CODEC(L, unsigned long, PyLong_FromUnsignedLong, unsigned long)
INT_CODEC(q, long long, PyLong_FromLongLong, long long)
INT_CODEC(Q, unsigned long long, PyLong_FromUnsignedLongLong, unsigned long long)

static PyObject *
bool_get(void *ptr, Py_ssize_t size)
{
    return PyBool_FromLong(*(unsigned char *)ptr != 0);
}

static PyObject *
bool_set(void *ptr, PyObject *value, Py_ssize_t size)
{
    int t = PyObject_IsTrue(value);
    if (t < 0) {
        return NULL;
    }
    *(unsigned char *)ptr = (unsigned char)t;
    Py_RETURN_NONE;
}

/* 'v', the OLE VARIANT_BOOL: a short that is all ones for true
   (VARIANT_TRUE) and 0 for false; any nonzero short reads as True. */
static PyObject *
variant_bool_get(void *ptr, Py_ssize_t size)
{
    short raw;
    memcpy(&raw, ptr, sizeof raw);
    return PyBool_FromLong(raw != 0);
}

static PyObject *
variant_bool_set(void *ptr, PyObject *value, Py_ssize_t size)
{
    int truth = PyObject_IsTrue(value);
    if (truth < 0) {
        return NULL;
    }
    short raw = truth ? (short)-1 : 0;
    memcpy(ptr, &raw, sizeof raw);
    Py_RETURN_NONE;
}

/* ---- Floating point -------------------------------------------------------------- */

static int
real_value(PyObject *value, double *out)
{
    *out = PyFloat_AsDouble(value);
    if (*out == -1.0 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "must be real number, not %s",
                         Py_TYPE(value)->tp_name);
        }
        return -1;
    }
    return 0;
}

static PyObject *
f_get(void *ptr, Py_ssize_t size)
{
    float v;
    memcpy(&v, ptr, sizeof(v));
    return PyFloat_FromDouble(v);
}

static PyObject *
f_set(void *ptr, PyObject *value, Py_ssize_t size)
{
    double d;
    if (real_value(value, &d) < 0) {
        return NULL;
    }
    float v = (float)d;
    memcpy(ptr, &v, sizeof(v));
    Py_RETURN_NONE;
}

static PyObject *
d_get(void *ptr, Py_ssize_t size)
{
    double v;
    memcpy(&v, ptr, sizeof(v));
    return PyFloat_FromDouble(v);
}

static PyObject *
d_set(void *ptr, PyObject *value, Py_ssize_t size)
{
    double d;
    if (real_value(value, &d) < 0) {
        return NULL;
    }
    memcpy(ptr, &d, sizeof(d));
    Py_RETURN_NONE;
}

static PyObject *
g_get(void *ptr, Py_ssize_t size)
{
    long double v;
    memcpy(&v, ptr, sizeof(v));
    return PyFloat_FromDouble((double)v);
}

static PyObject *
g_set(void *ptr, PyObject *value, Py_ssize_t size)
{
    double d;
    if (real_value(value, &d) < 0) {
        return NULL;
    }
    long double v = d;
    memcpy(ptr, &v, sizeof(v));
    Py_RETURN_NONE;
}

/* ---- Characters -------------------------------------------------------------- */

static PyObject *
c_get(void *ptr, Py_ssize_t size)
{
    return PyBytes_FromStringAndSize((char *)ptr, 1);
}

static PyObject *
c_set(void *ptr, PyObject *value, Py_ssize_t size)
{
    if (PyBytes_Check(value) && PyBytes_GET_SIZE(value) == 1) {
        *(char *)ptr = PyBytes_AS_STRING(value)[0];
        Py_RETURN_NONE;
    }
    if (PyByteArray_Check(value) && PyByteArray_GET_SIZE(value) == 1) {
        *(char *)ptr = PyByteArray_AS_STRING(value)[0];
        Py_RETURN_NONE;
    }
    if (PyLong_Check(value)) {
        long v = PyLong_AsLong(value);
        if (v < 0 || v >= 256) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "one character bytes, bytearray or integer "
                                "expected");
            }
            return NULL;
        }
        *(char *)ptr = (char)v;
        Py_RETURN_NONE;
    }
    PyErr_SetString(PyExc_TypeError, "one character bytes, bytearray or integer expected");
    return NULL;
}

static PyObject *
u_get(void *ptr, Py_ssize_t size)
{
    return PyUnicode_FromWideChar((wchar_t *)ptr, 1);
}

static PyObject *
u_set(void *ptr, PyObject *value, Py_ssize_t size)
{
    if (!PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "unicode string expected instead of %s instance",
                     Py_TYPE(value)->tp_name);
        return NULL;
    }
    wchar_t buf[2];
    Py_ssize_t n = PyUnicode_AsWideChar(value, buf, 2);
    if (n < 0) {
        return NULL;
    }
    if (n != 1) {
        PyErr_SetString(PyExc_TypeError, "one character unicode string expected");
        return NULL;
    }
    memcpy(ptr, buf, sizeof(wchar_t));
    Py_RETURN_NONE;
}

/* ---- Pointers ----------------------------------------------------------------- */

static PyObject *
P_get(void *ptr, Py_ssize_t size)
{
    void *p;
    memcpy(&p, ptr, sizeof(p));
    if (p == NULL) {
        Py_RETURN_NONE;
    }
    return PyLong_FromVoidPtr(p);
}

static int
address_value(PyObject *value, void **out)
{
    if (value == Py_None) {
        *out = NULL;
        return 0;
    }
    if (!PyLong_Check(value)) {
        return 1;
    }
    *out = (void *)(uintptr_t)PyLong_AsUnsignedLongLongMask(value);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *
P_set(void *ptr, PyObject *value, Py_ssize_t size)
{
    void *p;
    int rc = address_value(value, &p);
    if (rc < 0) {
        return NULL;
    }
    if (rc > 0) {
        PyErr_SetString(PyExc_TypeError, "cannot be converted to pointer");
        return NULL;
    }
    memcpy(ptr, &p, sizeof(p));
    Py_RETURN_NONE;
}

static PyObject *
z_get(void *ptr, Py_ssize_t size)
{
    char *p;
    memcpy(&p, ptr, sizeof(p));
    if (p == NULL) {
        Py_RETURN_NONE;
    }
    return PyBytes_FromString(p);
}

static PyObject *
z_set(void *ptr, PyObject *value, Py_ssize_t size)
{
    void *p;
    if (PyBytes_Check(value)) {
        p = PyBytes_AS_STRING(value);
        memcpy(ptr, &p, sizeof(p));
        return Py_NewRef(value);
    }
    int rc = address_value(value, &p);
    if (rc < 0) {
        return NULL;
    }
    if (rc > 0) {
        PyErr_Format(PyExc_TypeError, "bytes or integer address expected instead of %s "
                     "instance", Py_TYPE(value)->tp_name);
        return NULL;
    }
    memcpy(ptr, &p, sizeof(p));
    Py_RETURN_NONE;
}

static PyObject *
Z_get(void *ptr, Py_ssize_t size)
{
    wchar_t *p;
    memcpy(&p, ptr, sizeof(p));
    if (p == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromWideChar(p, (Py_ssize_t)wcslen(p));
}

/* A bytes object holding `value` as a NUL-terminated wchar_t string: it
   owns the memory a c_wchar_p points to. */
static PyObject *
wide_holder(PyObject *value)
{
    Py_ssize_t n;
    wchar_t *w = PyUnicode_AsWideCharString(value, &n);
    if (w == NULL) {
        return NULL;
    }
    PyObject *holder = PyBytes_FromStringAndSize((char *)w,
                                                 (n + 1) * (Py_ssize_t)sizeof(wchar_t));
    PyMem_Free(w);
    return holder;
}

static PyObject *
Z_set(void *ptr, PyObject *value, Py_ssize_t size)
{
    void *p;
    if (PyUnicode_Check(value)) {
        PyObject *holder = wide_holder(value);
        if (holder == NULL) {
            return NULL;
        }
        p = PyBytes_AS_STRING(holder);
        memcpy(ptr, &p, sizeof(p));
        return holder;
    }
    int rc = address_value(value, &p);
    if (rc < 0) {
        return NULL;
    }
    if (rc > 0) {
        PyErr_Format(PyExc_TypeError, "unicode string or integer address expected instead of "
                     "%s instance", Py_TYPE(value)->tp_name);
        return NULL;
    }
    memcpy(ptr, &p, sizeof(p));
    Py_RETURN_NONE;
}

static PyObject *
O_get(void *ptr, Py_ssize_t size)
{
    PyObject *o;
    memcpy(&o, ptr, sizeof(o));
    if (o == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "PyObject is NULL");
        }
        return NULL;
    }
    return Py_NewRef(o);
}

static PyObject *
O_set(void *ptr, PyObject *value, Py_ssize_t size)
{
    memcpy(ptr, &value, sizeof(value));
    return Py_NewRef(value);
}

/* ---- The table --------------------------------------------------------------- */

#define ALIGN_OF(T) offsetof(struct { char c; T x; }, x)

static FormatCode format_codes[] = {
    {'b', sizeof(signed char), 1, &ffi_type_schar, b_get, b_set, 1, 1},
    {'B', sizeof(unsigned char), 1, &ffi_type_uchar, B_get, B_set, 1, 0},
    {'c', sizeof(char), 1, &ffi_type_schar, c_get, c_set, 0, 0},
    {'h', sizeof(short), ALIGN_OF(short), &ffi_type_sshort, h_get, h_set, 1, 1},
    {'H', sizeof(short), ALIGN_OF(short), &ffi_type_ushort, H_get, H_set, 1, 0},
    {'i', sizeof(int), ALIGN_OF(int), &ffi_type_sint, i_get, i_set, 1, 1},
    {'I', sizeof(int), ALIGN_OF(int), &ffi_type_uint, I_get, I_set, 1, 0},
    {'l', sizeof(long), ALIGN_OF(long), &ffi_type_slong, l_get, l_set, 1, 1},
    {'L', sizeof(long), ALIGN_OF(long), &ffi_type_ulong, L_get, L_set, 1, 0},
    {'q', sizeof(long long), ALIGN_OF(long long), &ffi_type_sint64, q_get, q_set, 1, 1},
    {'Q', sizeof(long long), ALIGN_OF(long long), &ffi_type_uint64, Q_get, Q_set, 1, 0},
    {'?', 1, 1, &ffi_type_uchar, bool_get, bool_set, 1, 0},
    {'v', sizeof(short), ALIGN_OF(short), &ffi_type_sshort, variant_bool_get, variant_bool_set,
     0, 0},
    {'f', sizeof(float), ALIGN_OF(float), &ffi_type_float, f_get, f_set, 0, 0},
    {'d', sizeof(double), ALIGN_OF(double), &ffi_type_double, d_get, d_set, 0, 0},
    {'g', sizeof(long double), ALIGN_OF(long double), &ffi_type_longdouble, g_get, g_set, 0,
     0},
    {'u', sizeof(wchar_t), ALIGN_OF(wchar_t), NULL, u_get, u_set, 0, 0},
    {'P', sizeof(void *), ALIGN_OF(void *), &ffi_type_pointer, P_get, P_set, 0, 0},
    {'z', sizeof(void *), ALIGN_OF(void *), &ffi_type_pointer, z_get, z_set, 0, 0},
    {'Z', sizeof(void *), ALIGN_OF(void *), &ffi_type_pointer, Z_get, Z_set, 0, 0},
    {'O', sizeof(void *), ALIGN_OF(void *), &ffi_type_pointer, O_get, O_set, 0, 0},
    {0, 0, 0, NULL, NULL, NULL, 0, 0},
};

/* ---- The other byte order ---------------------------------------------------------
   Swapped codes reverse the bytes into a native temporary and reuse the
   native codec. */

static void
reverse_copy(char *dst, const char *src, Py_ssize_t n)
{
    for (Py_ssize_t k = 0; k < n; k++) {
        dst[k] = src[n - 1 - k];
    }
}

#define SWAPPED_CODEC(C, T)                                                   \
    static PyObject *C##_swapped_get(void *ptr, Py_ssize_t size)              \
    {                                                                         \
        char tmp[sizeof(T)];                                                  \
        reverse_copy(tmp, ptr, sizeof(T));                                    \
        return C##_get(tmp, size);                                            \
    }                                                                         \
    static PyObject *C##_swapped_set(void *ptr, PyObject *value, Py_ssize_t size) \
    {                                                                         \
        char tmp[sizeof(T)];                                                  \
        PyObject *keep = C##_set(tmp, value, size);                           \
        if (keep != NULL) {                                                   \
            reverse_copy(ptr, tmp, sizeof(T));                                \
        }                                                                     \
        return keep;                                                          \
    }

SWAPPED_CODEC(h, short)
SWAPPED_CODEC(H, unsigned short)
SWAPPED_CODEC(i, int)
SWAPPED_CODEC(I, unsigned int)
SWAPPED_CODEC(l, long)
SWAPPED_CODEC(L, unsigned long)
SWAPPED_CODEC(q, long long)
SWAPPED_CODEC(Q, unsigned long long)
SWAPPED_CODEC(f, float)
SWAPPED_CODEC(d, double)

static FormatCode swapped_codes[] = {
    {'h', sizeof(short), ALIGN_OF(short), &ffi_type_sshort, h_swapped_get, h_swapped_set, 1, 1, 1},
    {'H', sizeof(short), ALIGN_OF(short), &ffi_type_ushort, H_swapped_get, H_swapped_set, 1, 0, 1},
    {'i', sizeof(int), ALIGN_OF(int), &ffi_type_sint, i_swapped_get, i_swapped_set, 1, 1, 1},
    {'I', sizeof(int), ALIGN_OF(int), &ffi_type_uint, I_swapped_get, I_swapped_set, 1, 0, 1},
    {'l', sizeof(long), ALIGN_OF(long), &ffi_type_slong, l_swapped_get, l_swapped_set, 1, 1, 1},
    {'L', sizeof(long), ALIGN_OF(long), &ffi_type_ulong, L_swapped_get, L_swapped_set, 1, 0, 1},
    {'q', sizeof(long long), ALIGN_OF(long long), &ffi_type_sint64, q_swapped_get, q_swapped_set,
     1, 1, 1},
    {'Q', sizeof(long long), ALIGN_OF(long long), &ffi_type_uint64, Q_swapped_get,
     Q_swapped_set, 1, 0, 1},
    {'f', sizeof(float), ALIGN_OF(float), &ffi_type_float, f_swapped_get, f_swapped_set, 0, 0, 1},
    {'d', sizeof(double), ALIGN_OF(double), &ffi_type_double, d_swapped_get, d_swapped_set, 0, 0,
     1},
    {0, 0, 0, NULL, NULL, NULL, 0, 0, 0},
};

const FormatCode *
_PyCtypes_FindSwappedFormat(char code)
{
    for (FormatCode *f = swapped_codes; f->code; f++) {
        if (f->code == code) {
            return f;
        }
    }
    return NULL;
}

#define SIMPLE_CODES "cbBhHiIlLdfuzZqQPXOv?g"

const FormatCode *
_PyCtypes_FindFormat(char code)
{
    for (FormatCode *f = format_codes; f->code; f++) {
        if (f->code == code) {
            if (f->ffi == NULL) {
                /* wchar_t: libffi has no name for it; pick by size. */
                f->ffi = sizeof(wchar_t) == 4 ? &ffi_type_sint32 : &ffi_type_uint16;
            }
            return f;
        }
    }
    return NULL;
}

/* The PEP 3118 code of a simple type (native byte order). */
static const char *
buffer_code(char code)
{
    switch (code) {
    case 'z': case 'Z': case 'P': return "&B";
    case 'u': return sizeof(wchar_t) == 4 ? "<w" : "<u";
    case 'l': return sizeof(long) == 8 ? "<q" : "<l";
    case 'L': return sizeof(long) == 8 ? "<Q" : "<L";
    default: {
        /* "<" and the code itself, one static string per code */
        static char codes[128][3];
        char *slot = codes[(unsigned char)code & 127];
        slot[0] = '<';
        slot[1] = code;
        slot[2] = 0;
        return slot;
    }
    }
}

/* ---- PyCSimpleType ------------------------------------------------------------ */

/* c_int & co get a twin class for the other byte order (what
   BigEndianStructure uses for its fields): __ctype_be__ and __ctype_le__
   name the two. */
static int
add_swapped_twin(PyTypeObject *meta, PyObject *args, PyObject *kwds, PyObject *type,
                 const FormatCode *fmt)
{
    PyObject *twin = PyType_Type.tp_new(meta, args, kwds);
    if (twin == NULL) {
        return -1;
    }
    TypeInfo *info = _PyCtypes_NewInfo(twin, CT_SIMPLE);
    if (info == NULL) {
        Py_DECREF(twin);
        return -1;
    }
    const FormatCode *sw = _PyCtypes_FindSwappedFormat(fmt->code);
    TypeInfo *native = _PyCtypes_Info(type);
    info->proto = Py_NewRef(native->proto);
    info->fmt = sw;
    info->size = sw->size;
    info->align = sw->align;
    info->ffi = *sw->ffi;
    char code[3] = {CT_LITTLE_ENDIAN ? '>' : '<', fmt->code, 0};
    if (fmt->code == 'l' || fmt->code == 'L') {
        code[1] = sizeof(long) == 8 ? (fmt->code == 'l' ? 'q' : 'Q') : fmt->code;
    }
    const char *native_name = CT_LITTLE_ENDIAN ? "__ctype_le__" : "__ctype_be__";
    const char *other_name = CT_LITTLE_ENDIAN ? "__ctype_be__" : "__ctype_le__";
    int rc = _PyCtypes_SetFormat(info, code);
    if (rc == 0) {
        rc = PyObject_SetAttrString(type, native_name, type) < 0 ||
             PyObject_SetAttrString(type, other_name, twin) < 0 ||
             PyObject_SetAttrString(twin, native_name, type) < 0 ||
             PyObject_SetAttrString(twin, other_name, twin) < 0 ? -1 : 0;
    }
    Py_DECREF(twin);
    return rc;
}

static PyObject *
simple_meta_new(PyTypeObject *meta, PyObject *args, PyObject *kwds)
{
    PyObject *type = PyType_Type.tp_new(meta, args, kwds);
    if (type == NULL) {
        return NULL;
    }
    PyObject *proto = _PyCtypes_TypeGet(type, "_type_");
    if (proto == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_AttributeError, "class must define a '_type_' attribute");
        }
        goto error;
    }
    const FormatCode *fmt = NULL;
    if (PyUnicode_Check(proto) && PyUnicode_GetLength(proto) == 1) {
        Py_UCS4 ch = PyUnicode_ReadChar(proto, 0);
        if (ch < 128) {
            fmt = _PyCtypes_FindFormat((char)ch);
        }
    }
    else if (!PyUnicode_Check(proto)) {
        PyErr_SetString(PyExc_TypeError, "class must define a '_type_' string attribute");
        Py_DECREF(proto);
        goto error;
    }
    if (fmt == NULL) {
        if (PyUnicode_Check(proto) && PyUnicode_GetLength(proto) != 1) {
            PyErr_SetString(PyExc_ValueError,
                            "class must define a '_type_' attribute which must be a string "
                            "of length 1");
        }
        else {
            PyErr_Format(PyExc_AttributeError,
                         "class must define a '_type_' attribute which must be\n"
                         "a single character string containing one of '%s'.", SIMPLE_CODES);
        }
        Py_DECREF(proto);
        goto error;
    }
    TypeInfo *info = _PyCtypes_NewInfo(type, CT_SIMPLE);
    if (info == NULL) {
        Py_DECREF(proto);
        goto error;
    }
    info->proto = proto;
    info->fmt = fmt;
    info->size = fmt->size;
    info->align = fmt->align;
    info->ffi = *fmt->ffi;
    if (_PyCtypes_SetFormat(info, buffer_code(fmt->code)) < 0) {
        goto error;
    }
    /* Types of one byte read the same in either byte order. */
    if (fmt->size == 1 && strchr("bBc?", fmt->code)) {
        if (PyObject_SetAttrString(type, "__ctype_le__", type) < 0 ||
            PyObject_SetAttrString(type, "__ctype_be__", type) < 0) {
            goto error;
        }
    }
    else if (_PyCtypes_FindSwappedFormat(fmt->code) != NULL &&
             add_swapped_twin(meta, args, kwds, type, fmt) < 0) {
        goto error;
    }
    return type;

error:
    Py_DECREF(type);
    return NULL;
}

/* c_void_p.from_param: anything that is, or holds, an address. */
PyObject *
_PyCtypes_VoidPFromParam(PyObject *type, PyObject *value)
{
    void *p;
    PyCArgObject *a;
    if (type != NULL && PyObject_TypeCheck(value, (PyTypeObject *)type)) {
        return Py_NewRef(value);
    }
    if (value == Py_None) {
        return Py_NewRef(value);    /* a call passes None as NULL */
    }
    if (PyLong_Check(value)) {
        if (address_value(value, &p) < 0) {
            return NULL;
        }
        a = _PyCtypes_NewArg('P', &ffi_type_pointer, NULL);
        if (a != NULL) {
            a->value.p = p;
        }
        return (PyObject *)a;
    }
    if (PyBytes_Check(value)) {
        a = _PyCtypes_NewArg('z', &ffi_type_pointer, value);
        if (a != NULL) {
            a->value.p = PyBytes_AS_STRING(value);
        }
        return (PyObject *)a;
    }
    if (PyUnicode_Check(value)) {
        PyObject *holder = wide_holder(value);
        if (holder == NULL) {
            return NULL;
        }
        a = _PyCtypes_NewArg('Z', &ffi_type_pointer, holder);
        if (a != NULL) {
            a->value.p = PyBytes_AS_STRING(holder);
        }
        Py_DECREF(holder);
        return (PyObject *)a;
    }
    if (PyObject_TypeCheck(value, &PyCArg_Type) && ((PyCArgObject *)value)->tag == 'P') {
        return Py_NewRef(value);
    }
    if (_PyCtypes_IsCData(value)) {
        TypeInfo *vi = _PyCtypes_InfoOfObject(value);
        if (vi != NULL) {
            /* A call passes an array as its address and a pointer as its
               value: either goes as it is. */
            if (vi->kind == CT_ARRAY || vi->kind == CT_POINTER) {
                return Py_NewRef(value);
            }
            if (vi->kind == CT_FUNCPTR ||
                (vi->kind == CT_SIMPLE && strchr("zZP", vi->fmt->code))) {
                a = _PyCtypes_NewArg('P', &ffi_type_pointer, value);
                if (a != NULL) {
                    a->value.p = *(void **)CDATA(value)->ptr;
                }
                return (PyObject *)a;
            }
        }
    }
    PyObject *converted;
    int retried = _PyCtypes_RetryAsParameter(type, value, _PyCtypes_VoidPFromParam, &converted);
    if (retried != 0) {
        return retried < 0 ? NULL : converted;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    PyErr_Format(PyExc_TypeError, "'%s' object cannot be interpreted as ctypes.c_void_p",
                 Py_TYPE(value)->tp_name);
    return NULL;
}

/* Whether value is an array of, or a pointer to, the given item code. */
static int
is_sequence_of(PyObject *value, char code)
{
    if (!_PyCtypes_IsCData(value)) {
        return 0;
    }
    TypeInfo *vi = _PyCtypes_InfoOfObject(value);
    if (vi == NULL || (vi->kind != CT_ARRAY && vi->kind != CT_POINTER) || vi->proto == NULL) {
        return 0;
    }
    TypeInfo *item = _PyCtypes_Info(vi->proto);
    return item != NULL && item->kind == CT_SIMPLE && item->fmt->code == code;
}

PyObject *
_PyCtypes_SimpleFromParam(PyObject *type, PyObject *value)
{
    TypeInfo *info = _PyCtypes_Info(type);
    if (info == NULL) {
        PyErr_SetString(PyExc_TypeError, "abstract class");
        return NULL;
    }
    if (PyObject_TypeCheck(value, (PyTypeObject *)type)) {
        return Py_NewRef(value);
    }
    char code = info->fmt->code;
    if (code == 'P') {
        return _PyCtypes_VoidPFromParam(type, value);
    }
    if (code == 'z' || code == 'Z') {
        if (PyObject_TypeCheck(value, &PyCArg_Type)) {
            /* byref() of a char (wchar_t), or of an array or pointer of them */
            PyCArgObject *a = (PyCArgObject *)value;
            char item = code == 'z' ? 'c' : 'u';
            TypeInfo *oi = a->obj && _PyCtypes_IsCData(a->obj) ? _PyCtypes_InfoOfObject(a->obj)
                                                              : NULL;
            if (a->tag == code || (oi != NULL && oi->kind == CT_SIMPLE && oi->fmt->code == item) ||
                (a->obj != NULL && is_sequence_of(a->obj, item))) {
                return Py_NewRef(value);
            }
        }
        int ok = value == Py_None ||
                 (code == 'z' ? PyBytes_Check(value) : PyUnicode_Check(value));
        if (value == Py_None || (!ok && is_sequence_of(value, code == 'z' ? 'c' : 'u'))) {
            /* NULL, or an array of (pointer to) the characters: a call
               passes these as they are. */
            return Py_NewRef(value);
        }
        if (!ok) {
            PyObject *converted;
            int retried = _PyCtypes_RetryAsParameter(type, value, _PyCtypes_SimpleFromParam, &converted);
            if (retried != 0) {
                return retried < 0 ? NULL : converted;
            }
            PyErr_Format(PyExc_TypeError, "'%s' object cannot be interpreted as %s",
                         Py_TYPE(value)->tp_name,
                         code == 'z' ? "ctypes.c_char_p" : "ctypes.c_wchar_p");
            return NULL;
        }
    }
    PyCArgObject *a = _PyCtypes_NewArg(code, &info->ffi, NULL);
    if (a == NULL) {
        return NULL;
    }
    PyObject *keep = info->fmt->set(&a->value, value, info->size);
    if (keep == NULL) {
        Py_DECREF(a);
        PyObject *as;
        if (!PyErr_ExceptionMatches(PyExc_TypeError) || _PyCtypes_IsCData(value)) {
            return NULL;
        }
        PyObject *exc = PyErr_GetRaisedException();
        if (PyObject_GetOptionalAttrString(value, "_as_parameter_", &as) <= 0) {
            if (!PyErr_Occurred()) {
                PyErr_SetRaisedException(exc);
            }
            else {
                Py_DECREF(exc);
            }
            return NULL;
        }
        Py_DECREF(exc);
        PyObject *r = NULL;
        if (Py_EnterRecursiveCall(" while processing _as_parameter_") == 0) {
            r = _PyCtypes_SimpleFromParam(type, as);
            Py_LeaveRecursiveCall();
        }
        Py_DECREF(as);
        return r;
    }
    a->obj = keep;
    return (PyObject *)a;
}

static PyObject *
simple_meta_from_param(PyObject *type, PyObject *value)
{
    return _PyCtypes_SimpleFromParam(type, value);
}

static PyMethodDef simple_meta_methods[] = {
    {"from_param", simple_meta_from_param, METH_O, "Turn an argument into what a call passes for this type."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyCSimpleType_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes.PyCSimpleType",
    .tp_basicsize = sizeof(CTypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_TYPE_SUBCLASS,
    .tp_new = simple_meta_new,
    .tp_methods = simple_meta_methods,
    .tp_doc = "metatype for the PyCSimpleType Objects",
};

/* ---- _SimpleCData ---------------------------------------------------------------- */

static PyObject *
simple_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return _PyCtypes_NewOwned(type);
}

static int
simple_set(PyObject *self, PyObject *value)
{
    TypeInfo *info = _PyCtypes_InfoOfObject(self);
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "can't delete attribute");
        return -1;
    }
    PyObject *keep = info->fmt->set(CDATA(self)->ptr, value, info->size);
    if (keep == NULL) {
        return -1;
    }
    return _PyCtypes_KeepRef(CDATA(self), 0, keep);
}

static int
simple_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *value = NULL;
    if (kwds != NULL && PyDict_GET_SIZE(kwds) > 0) {
        PyErr_SetString(PyExc_TypeError, "keyword arguments not supported");
        return -1;
    }
    if (!PyArg_UnpackTuple(args, Py_TYPE(self)->tp_name, 0, 1, &value)) {
        return -1;
    }
    return value ? simple_set(self, value) : 0;
}

static PyObject *
simple_get_value(PyObject *self, void *Py_UNUSED(c))
{
    TypeInfo *info = _PyCtypes_InfoOfObject(self);
    return info->fmt->get(CDATA(self)->ptr, info->size);
}

static int
simple_set_value(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    return simple_set(self, value);
}

static PyGetSetDef simple_getset[] = {
    {"value", simple_get_value, simple_set_value, "current value", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *
simple_repr(PyObject *self)
{
    if (!_PyCtypes_IsFundamental((PyObject *)Py_TYPE(self))) {
        return PyUnicode_FromFormat("<%s object at %p>", Py_TYPE(self)->tp_name, self);
    }
    PyObject *v = simple_get_value(self, NULL);
    if (v == NULL) {
        return NULL;
    }
    PyObject *r = PyUnicode_FromFormat("%s(%R)", Py_TYPE(self)->tp_name, v);
    Py_DECREF(v);
    return r;
}

static int
simple_bool(PyObject *self)
{
    Py_ssize_t n = CDATA(self)->size;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (CDATA(self)->ptr[i]) {
            return 1;
        }
    }
    return 0;
}

static PyNumberMethods simple_as_number = {
    .nb_bool = simple_bool,
};

static PyObject *
simple_from_outparam(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (_PyCtypes_IsFundamental((PyObject *)Py_TYPE(self))) {
        return simple_get_value(self, NULL);
    }
    return Py_NewRef(self);
}

static PyMethodDef simple_methods[] = {
    {"__ctypes_from_outparam__", simple_from_outparam, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject Simple_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_ctypes._SimpleCData",
    .tp_basicsize = sizeof(CDataObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = simple_new,
    .tp_init = simple_init,
    .tp_repr = simple_repr,
    .tp_as_number = &simple_as_number,
    .tp_getset = simple_getset,
    .tp_methods = simple_methods,
    .tp_doc = "XXX to be provided",
};
