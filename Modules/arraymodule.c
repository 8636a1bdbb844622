/* array: compact homogeneous sequences of C numbers or characters.

   An array keeps its items packed in one malloc'd block described by a
   static kind record (typecode, item size, signedness/float/char).  Values
   cross the Python boundary through box_item/unbox_item, which are the only
   places that know the per-kind conversions.  The block can be exported
   through the buffer protocol; while any export is alive the block must not
   move, so every resizing operation goes through resize_items(), which
   refuses with BufferError. */

#include "Python.h"
#include "pycore_object.h"   /* _PyStaticType_InitBuiltin */
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <wchar.h>

/* 'u' shares the UCS-4 code paths of 'w'; a 2-byte wchar_t would need its
   own (UTF-16) conversions, which this build does not have. */
_Static_assert(sizeof(wchar_t) == 4, "array 'u' assumes a 4-byte wchar_t");

enum { K_SIGNED, K_UNSIGNED, K_FLOAT, K_CHAR };

typedef struct {
    char code;
    int family;
    Py_ssize_t size;
    const char *bufformat;
} kindinfo;

static const kindinfo kinds[] = {
    {'b', K_SIGNED, sizeof(signed char), "b"},
    {'B', K_UNSIGNED, sizeof(unsigned char), "B"},
    {'u', K_CHAR, sizeof(wchar_t), "w"},
    {'w', K_CHAR, 4, "w"},
    {'h', K_SIGNED, sizeof(short), "h"},
    {'H', K_UNSIGNED, sizeof(unsigned short), "H"},
    {'i', K_SIGNED, sizeof(int), "i"},
    {'I', K_UNSIGNED, sizeof(unsigned int), "I"},
    {'l', K_SIGNED, sizeof(long), "l"},
    {'L', K_UNSIGNED, sizeof(unsigned long), "L"},
    {'q', K_SIGNED, sizeof(long long), "q"},
    {'Q', K_UNSIGNED, sizeof(unsigned long long), "Q"},
    {'f', K_FLOAT, sizeof(float), "f"},
    {'d', K_FLOAT, sizeof(double), "d"},
};
#define NKINDS ((int)(sizeof(kinds) / sizeof(kinds[0])))

typedef struct {
    PyObject_HEAD
    char *items;
    Py_ssize_t count;
    Py_ssize_t capacity;
    const kindinfo *kind;
    Py_ssize_t exports;
    PyObject *weakrefs;
} ArrayObject;

typedef struct {
    PyObject_HEAD
    ArrayObject *seq;
    Py_ssize_t pos;
} ArrayIterObject;

static PyTypeObject Array_Type;
static PyTypeObject ArrayIter_Type;

#define IS_ARRAY(op) PyObject_TypeCheck((op), &Array_Type)
#define SLOT(a, i) ((a)->items + (i) * (a)->kind->size)

static const kindinfo *
find_kind(int code)
{
    for (int k = 0; k < NKINDS; k++) {
        if (kinds[k].code == code) {
            return &kinds[k];
        }
    }
    return NULL;
}

/* ---- value conversion ------------------------------------------------ */

/* One range step of the integer checks: the bound names follow the C type
   each typecode is historically parsed through. */
typedef struct {
    long lo, hi;
    const char *what;
} rangestep;

static int
check_steps(const rangestep *steps, int n, long v)
{
    for (int s = 0; s < n; s++) {
        if (v < steps[s].lo || v > steps[s].hi) {
            PyErr_Format(PyExc_OverflowError, "%s is %s", steps[s].what,
                         v < steps[s].lo ? "less than minimum"
                                         : "greater than maximum");
            return -1;
        }
    }
    return 0;
}

static int
small_signed_steps(int code, long v)
{
    static const rangestep b[] = {{SHRT_MIN, SHRT_MAX, "signed short integer"},
                                  {SCHAR_MIN, SCHAR_MAX, "signed char"}};
    static const rangestep B[] = {{0, UCHAR_MAX, "unsigned byte integer"}};
    static const rangestep h[] = {{SHRT_MIN, SHRT_MAX, "signed short integer"}};
    static const rangestep H[] = {{INT_MIN, INT_MAX, "signed integer"},
                                  {0, USHRT_MAX, "unsigned short"}};
    static const rangestep i[] = {{INT_MIN, INT_MAX, "signed integer"}};
    switch (code) {
    case 'b': return check_steps(b, 2, v);
    case 'B': return check_steps(B, 1, v);
    case 'h': return check_steps(h, 1, v);
    case 'H': return check_steps(H, 2, v);
    case 'i': return check_steps(i, 1, v);
    default: return 0;
    }
}

/* Integers travel as 64-bit patterns; `neg` tells a caller nothing, the
   range checks already happened here. */
static int
int_value(const kindinfo *k, PyObject *obj, unsigned long long *bits)
{
    PyObject *num = PyNumber_Index(obj);
    if (num == NULL) {
        return -1;
    }
    int ovf = 0;
    long v = PyLong_AsLongAndOverflow(num, &ovf);
    if (v == -1 && PyErr_Occurred()) {
        Py_DECREF(num);
        return -1;
    }
    int rc = 0;
    int quad = (k->code == 'q' || k->code == 'Q');
    if (k->family == K_SIGNED) {
        if (ovf) {
            PyErr_SetString(PyExc_OverflowError,
                            quad ? "int too big to convert"
                                 : "Python int too large to convert to C long");
            rc = -1;
        }
        else {
            rc = small_signed_steps(k->code, v);
            *bits = (unsigned long long)(long long)v;
        }
    }
    else if (k->code != 'B' && k->code != 'H' && (ovf < 0 || (!ovf && v < 0))) {
        PyErr_SetString(PyExc_OverflowError,
                        quad ? "can't convert negative int to unsigned"
                             : "can't convert negative value to unsigned int");
        rc = -1;
    }
    else if (ovf > 0) {
        if (k->code == 'B' || k->code == 'H') {
            PyErr_SetString(PyExc_OverflowError,
                            "Python int too large to convert to C long");
            rc = -1;
        }
        else {
            *bits = PyLong_AsUnsignedLongLong(num);
            if (*bits == (unsigned long long)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                PyErr_SetString(PyExc_OverflowError,
                                quad ? "int too big to convert"
                                     : "Python int too large to convert to C unsigned long");
                rc = -1;
            }
            else if (k->code == 'I' && *bits > UINT_MAX) {
                PyErr_SetString(PyExc_OverflowError,
                                "unsigned int is greater than maximum");
                rc = -1;
            }
        }
    }
    else if (ovf < 0) {
        PyErr_SetString(PyExc_OverflowError,
                        "Python int too large to convert to C long");
        rc = -1;
    }
    else {
        rc = small_signed_steps(k->code, v);
        if (rc == 0 && k->code == 'I' && (unsigned long)v > UINT_MAX) {
            PyErr_SetString(PyExc_OverflowError,
                            "unsigned int is greater than maximum");
            rc = -1;
        }
        *bits = (unsigned long long)v;
    }
    Py_DECREF(num);
    return rc;
}

static void
store_int_bits(char *dst, Py_ssize_t size, unsigned long long bits)
{
    switch (size) {
    case 1: { unsigned char x = (unsigned char)bits; memcpy(dst, &x, 1); break; }
    case 2: { unsigned short x = (unsigned short)bits; memcpy(dst, &x, 2); break; }
    case 4: { unsigned int x = (unsigned int)bits; memcpy(dst, &x, 4); break; }
    default: memcpy(dst, &bits, 8); break;
    }
}

/* Convert obj for kind k and write it at dst; -1 with an exception. */
static int
unbox_item(const kindinfo *k, PyObject *obj, char *dst)
{
    if (k->family == K_CHAR) {
        if (!PyUnicode_Check(obj) || PyUnicode_GET_LENGTH(obj) != 1) {
            PyErr_SetString(PyExc_TypeError,
                            "array item must be unicode character");
            return -1;
        }
        unsigned int ch = (unsigned int)PyUnicode_READ_CHAR(obj, 0);
        memcpy(dst, &ch, 4);
        return 0;
    }
    if (k->family == K_FLOAT) {
        double x = PyFloat_AsDouble(obj);
        if (x == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        if (k->size == sizeof(float)) {
            float f = (float)x;
            memcpy(dst, &f, sizeof f);
        }
        else {
            memcpy(dst, &x, sizeof x);
        }
        return 0;
    }
    unsigned long long bits = 0;
    if (int_value(k, obj, &bits) < 0) {
        return -1;
    }
    store_int_bits(dst, k->size, bits);
    return 0;
}

static PyObject *
box_int(const kindinfo *k, const char *src)
{
    int sgn = (k->family == K_SIGNED);
    switch (k->size) {
    case 1: {
        unsigned char u; memcpy(&u, src, 1);
        return PyLong_FromLong(sgn ? (long)(signed char)u : (long)u);
    }
    case 2: {
        unsigned short u; memcpy(&u, src, 2);
        return PyLong_FromLong(sgn ? (long)(short)u : (long)u);
    }
    case 4: {
        unsigned int u; memcpy(&u, src, 4);
        return sgn ? PyLong_FromLong((int)u) : PyLong_FromUnsignedLongLong(u);
    }
    default: {
        unsigned long long u; memcpy(&u, src, 8);
        return sgn ? PyLong_FromLongLong((long long)u)
                   : PyLong_FromUnsignedLongLong(u);
    }
    }
}

static PyObject *
box_item(const kindinfo *k, const char *src)
{
    if (k->family == K_CHAR) {
        unsigned int ch;
        memcpy(&ch, src, 4);
        if (ch > 0x10FFFF) {
            PyErr_Format(PyExc_ValueError,
                         "character U+%x is not in range [U+0000; U+10ffff]", ch);
            return NULL;
        }
        Py_UCS4 c4 = ch;
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, &c4, 1);
    }
    if (k->family == K_FLOAT) {
        if (k->size == sizeof(float)) {
            float f;
            memcpy(&f, src, sizeof f);
            return PyFloat_FromDouble(f);
        }
        double d;
        memcpy(&d, src, sizeof d);
        return PyFloat_FromDouble(d);
    }
    return box_int(k, src);
}

/* ---- storage --------------------------------------------------------- */

static int
refuse_if_exported(ArrayObject *a)
{
    if (a->exports > 0) {
        PyErr_SetString(PyExc_BufferError,
                        "cannot resize an array that is exporting buffers");
        return -1;
    }
    return 0;
}

/* Set the number of items to n, growing geometrically when appending. */
static int
resize_items(ArrayObject *a, Py_ssize_t n)
{
    if (n == a->count) {
        return 0;
    }
    if (refuse_if_exported(a) < 0) {
        return -1;
    }
    if (n <= a->capacity && n >= a->capacity / 2) {
        a->count = n;
        return 0;
    }
    Py_ssize_t want = n == 0 ? 0 : n + (n >> 4) + (n < 8 ? 3 : 7);
    if (want > PY_SSIZE_T_MAX / a->kind->size) {
        PyErr_NoMemory();
        return -1;
    }
    char *p = want == 0 ? NULL : PyMem_Realloc(a->items, want * a->kind->size);
    if (want != 0 && p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (want == 0) {
        PyMem_Free(a->items);
    }
    a->items = p;
    a->capacity = want;
    a->count = n;
    return 0;
}

static ArrayObject *
alloc_array(PyTypeObject *type, const kindinfo *k, Py_ssize_t n)
{
    ArrayObject *a = (ArrayObject *)type->tp_alloc(type, 0);
    if (a == NULL) {
        return NULL;
    }
    a->kind = k;
    if (n > 0) {
        if (n > PY_SSIZE_T_MAX / k->size) {
            Py_DECREF(a);
            PyErr_NoMemory();
            return NULL;
        }
        a->items = PyMem_Calloc(n, k->size);
        if (a->items == NULL) {
            Py_DECREF(a);
            PyErr_NoMemory();
            return NULL;
        }
        a->capacity = a->count = n;
    }
    return a;
}

static int
append_obj(ArrayObject *a, PyObject *v)
{
    char tmp[8];
    if (unbox_item(a->kind, v, tmp) < 0) {
        return -1;
    }
    if (resize_items(a, a->count + 1) < 0) {
        return -1;
    }
    memcpy(SLOT(a, a->count - 1), tmp, a->kind->size);
    return 0;
}

static int
append_raw(ArrayObject *a, const char *src, Py_ssize_t nbytes)
{
    Py_ssize_t sz = a->kind->size;
    if (nbytes % sz != 0) {
        PyErr_SetString(PyExc_ValueError,
                        "bytes length not a multiple of item size");
        return -1;
    }
    Py_ssize_t old = a->count;
    if (nbytes == 0) {
        return 0;
    }
    if (resize_items(a, old + nbytes / sz) < 0) {
        return -1;
    }
    memmove(SLOT(a, old), src, nbytes);
    return 0;
}

static int
append_from_iterable(ArrayObject *a, PyObject *iterable)
{
    PyObject *it = PyObject_GetIter(iterable);
    if (it == NULL) {
        return -1;
    }
    PyObject *v;
    while ((v = PyIter_Next(it)) != NULL) {
        int rc = append_obj(a, v);
        Py_DECREF(v);
        if (rc < 0) {
            Py_DECREF(it);
            return -1;
        }
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static int
append_unicode(ArrayObject *a, PyObject *s)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    Py_ssize_t old = a->count;
    if (resize_items(a, old + n) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned int ch = (unsigned int)PyUnicode_READ_CHAR(s, i);
        memcpy(SLOT(a, old + i), &ch, 4);
    }
    return 0;
}

/* ---- construction ---------------------------------------------------- */

static int
warn_if_u(const kindinfo *k)
{
    if (k->code == 'u') {
        return PyErr_WarnEx(PyExc_DeprecationWarning,
                            "The 'u' type code is deprecated and will be "
                            "removed in Python 3.16", 1);
    }
    return 0;
}

static int
fill_initial(ArrayObject *a, PyObject *init)
{
    const kindinfo *k = a->kind;
    if (PyUnicode_Check(init)) {
        if (k->family != K_CHAR) {
            PyErr_Format(PyExc_TypeError,
                         "cannot use a str to initialize an array with "
                         "typecode '%c'", k->code);
            return -1;
        }
        return append_unicode(a, init);
    }
    if (IS_ARRAY(init)) {
        ArrayObject *src = (ArrayObject *)init;
        if (src->kind->family == K_CHAR && k->family != K_CHAR) {
            PyErr_Format(PyExc_TypeError,
                         "cannot use a unicode array to initialize an array "
                         "with typecode '%c'", k->code);
            return -1;
        }
        if (src->kind == k) {
            return append_raw(a, src->items, src->count * k->size);
        }
        return append_from_iterable(a, init);
    }
    if (PyBytes_Check(init) || PyByteArray_Check(init)) {
        Py_buffer view;
        if (PyObject_GetBuffer(init, &view, PyBUF_SIMPLE) < 0) {
            return -1;
        }
        int rc = append_raw(a, view.buf, view.len);
        PyBuffer_Release(&view);
        return rc;
    }
    return append_from_iterable(a, init);
}

static PyObject *
array_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if ((type == &Array_Type || type->tp_init == Array_Type.tp_init) &&
        kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError,
                        "array.array() takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs < 1 || nargs > 2) {
        PyErr_Format(PyExc_TypeError, "array() takes %s (%zd given)",
                     nargs < 1 ? "at least 1 argument" : "at most 2 arguments",
                     nargs);
        return NULL;
    }
    PyObject *tc = PyTuple_GET_ITEM(args, 0);
    if (!PyUnicode_Check(tc) || PyUnicode_GET_LENGTH(tc) != 1) {
        PyErr_Format(PyExc_TypeError,
                     "array() argument 1 must be a unicode character, not %s",
                     Py_TYPE(tc)->tp_name);
        return NULL;
    }
    const kindinfo *k = find_kind((int)PyUnicode_READ_CHAR(tc, 0));
    if (k == NULL) {
        PyErr_SetString(PyExc_ValueError,
                        "bad typecode (must be b, B, u, w, h, H, i, I, l, L, "
                        "q, Q, f or d)");
        return NULL;
    }
    if (warn_if_u(k) < 0) {
        return NULL;
    }
    ArrayObject *a = alloc_array(type, k, 0);
    if (a == NULL) {
        return NULL;
    }
    if (nargs == 2 && fill_initial(a, PyTuple_GET_ITEM(args, 1)) < 0) {
        Py_DECREF(a);
        return NULL;
    }
    return (PyObject *)a;
}

static void
array_dealloc(PyObject *op)
{
    ArrayObject *a = (ArrayObject *)op;
    if (a->weakrefs != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    PyMem_Free(a->items);
    Py_TYPE(op)->tp_free(op);
}

static ArrayObject *
copy_range(ArrayObject *a, Py_ssize_t lo, Py_ssize_t hi)
{
    ArrayObject *r = alloc_array(&Array_Type, a->kind, hi - lo);
    if (r != NULL && hi > lo) {
        memcpy(r->items, SLOT(a, lo), (hi - lo) * a->kind->size);
    }
    return r;
}

/* ---- sequence protocol ----------------------------------------------- */

static Py_ssize_t
array_len(PyObject *op)
{
    return ((ArrayObject *)op)->count;
}

static PyObject *
array_item(PyObject *op, Py_ssize_t i)
{
    ArrayObject *a = (ArrayObject *)op;
    if (i < 0 || i >= a->count) {
        PyErr_SetString(PyExc_IndexError, "array index out of range");
        return NULL;
    }
    return box_item(a->kind, SLOT(a, i));
}

/* Remove items [lo, hi). */
static int
delete_range(ArrayObject *a, Py_ssize_t lo, Py_ssize_t hi)
{
    if (hi <= lo) {
        return 0;
    }
    if (refuse_if_exported(a) < 0) {
        return -1;
    }
    Py_ssize_t sz = a->kind->size;
    memmove(SLOT(a, lo), SLOT(a, hi), (a->count - hi) * sz);
    return resize_items(a, a->count - (hi - lo));
}

static int
array_ass_item(PyObject *op, Py_ssize_t i, PyObject *v)
{
    ArrayObject *a = (ArrayObject *)op;
    if (i < 0 || i >= a->count) {
        PyErr_SetString(PyExc_IndexError,
                        "array assignment index out of range");
        return -1;
    }
    if (v == NULL) {
        return delete_range(a, i, i + 1);
    }
    return unbox_item(a->kind, v, SLOT(a, i));
}

static int
array_contains(PyObject *op, PyObject *v)
{
    ArrayObject *a = (ArrayObject *)op;
    for (Py_ssize_t i = 0; i < a->count; i++) {
        PyObject *x = box_item(a->kind, SLOT(a, i));
        if (x == NULL) {
            return -1;
        }
        int eq = PyObject_RichCompareBool(x, v, Py_EQ);
        Py_DECREF(x);
        if (eq != 0) {
            return eq;
        }
    }
    return 0;
}

static PyObject *
array_concat(PyObject *op, PyObject *other)
{
    ArrayObject *a = (ArrayObject *)op;
    if (!IS_ARRAY(other)) {
        PyErr_Format(PyExc_TypeError,
                     "can only append array (not \"%.200s\") to array",
                     Py_TYPE(other)->tp_name);
        return NULL;
    }
    ArrayObject *b = (ArrayObject *)other;
    if (b->kind != a->kind) {
        PyErr_BadArgument();
        return NULL;
    }
    if (a->count > PY_SSIZE_T_MAX - b->count) {
        return PyErr_NoMemory();
    }
    ArrayObject *r = alloc_array(&Array_Type, a->kind, a->count + b->count);
    if (r == NULL) {
        return NULL;
    }
    Py_ssize_t sz = a->kind->size;
    if (a->count) {
        memcpy(r->items, a->items, a->count * sz);
    }
    if (b->count) {
        memcpy(r->items + a->count * sz, b->items, b->count * sz);
    }
    return (PyObject *)r;
}

static void
tile_bytes(char *dst, const char *src, Py_ssize_t chunk, Py_ssize_t times)
{
    if (chunk == 0 || times == 0) {
        return;
    }
    memcpy(dst, src, chunk);
    Py_ssize_t done = chunk, total = chunk * times;
    while (done < total) {
        Py_ssize_t step = done < total - done ? done : total - done;
        memcpy(dst + done, dst, step);
        done += step;
    }
}

static PyObject *
array_repeat(PyObject *op, Py_ssize_t n)
{
    ArrayObject *a = (ArrayObject *)op;
    if (n < 0) {
        n = 0;
    }
    if (a->count && n > PY_SSIZE_T_MAX / a->kind->size / a->count) {
        return PyErr_NoMemory();
    }
    ArrayObject *r = alloc_array(&Array_Type, a->kind, a->count * n);
    if (r != NULL) {
        tile_bytes(r->items, a->items, a->count * a->kind->size, n);
    }
    return (PyObject *)r;
}

static int
extend_with(ArrayObject *a, PyObject *other)
{
    if (IS_ARRAY(other)) {
        ArrayObject *b = (ArrayObject *)other;
        if (b->kind != a->kind) {
            PyErr_SetString(PyExc_TypeError,
                            "can only extend with array of same kind");
            return -1;
        }
        /* b may be a itself: append_raw memmoves after resizing, so copy
           the source first when they alias. */
        if (b == a) {
            PyObject *copy = PyBytes_FromStringAndSize(a->items,
                                                       a->count * a->kind->size);
            if (copy == NULL) {
                return -1;
            }
            int rc = append_raw(a, PyBytes_AS_STRING(copy),
                                PyBytes_GET_SIZE(copy));
            Py_DECREF(copy);
            return rc;
        }
        return append_raw(a, b->items, b->count * a->kind->size);
    }
    return append_from_iterable(a, other);
}

static PyObject *
array_inplace_concat(PyObject *op, PyObject *other)
{
    if (!IS_ARRAY(other)) {
        PyErr_Format(PyExc_TypeError,
                     "can only extend array with array (not \"%.200s\")",
                     Py_TYPE(other)->tp_name);
        return NULL;
    }
    if (extend_with((ArrayObject *)op, other) < 0) {
        return NULL;
    }
    return Py_NewRef(op);
}

static PyObject *
array_inplace_repeat(PyObject *op, Py_ssize_t n)
{
    ArrayObject *a = (ArrayObject *)op;
    Py_ssize_t chunk = a->count * a->kind->size;
    if (n <= 0 || a->count == 0) {
        if (delete_range(a, 0, a->count) < 0) {
            return NULL;
        }
        return Py_NewRef(op);
    }
    if (n > PY_SSIZE_T_MAX / chunk) {
        return PyErr_NoMemory();
    }
    if (resize_items(a, a->count * n) < 0) {
        return NULL;
    }
    tile_bytes(a->items, a->items, chunk, n);
    return Py_NewRef(op);
}

/* ---- subscripts ------------------------------------------------------ */

static PyObject *
array_subscript(PyObject *op, PyObject *key)
{
    ArrayObject *a = (ArrayObject *)op;
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (i < 0) {
            i += a->count;
        }
        return array_item(op, i);
    }
    if (!PySlice_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "array indices must be integers");
        return NULL;
    }
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) {
        return NULL;
    }
    Py_ssize_t n = PySlice_AdjustIndices(a->count, &start, &stop, step);
    if (step == 1) {
        return (PyObject *)copy_range(a, start, start + n);
    }
    ArrayObject *r = alloc_array(&Array_Type, a->kind, n);
    if (r == NULL) {
        return NULL;
    }
    Py_ssize_t sz = a->kind->size;
    for (Py_ssize_t j = 0, src = start; j < n; j++, src += step) {
        memcpy(SLOT(r, j), SLOT(a, src), sz);
    }
    return (PyObject *)r;
}

/* Delete an extended slice by compacting the survivors in place. */
static int
delete_extended(ArrayObject *a, Py_ssize_t start, Py_ssize_t step,
                Py_ssize_t n)
{
    if (n == 0) {
        return 0;
    }
    if (refuse_if_exported(a) < 0) {
        return -1;
    }
    if (step < 0) {
        start += (n - 1) * step;
        step = -step;
    }
    Py_ssize_t sz = a->kind->size, out = start;
    for (Py_ssize_t i = start; i < a->count; i++) {
        if (i >= start && (i - start) % step == 0 && (i - start) / step < n) {
            continue;
        }
        memmove(SLOT(a, out), SLOT(a, i), sz);
        out++;
    }
    return resize_items(a, out);
}

/* Replace a contiguous slice [lo, hi) by nbytes from src. */
static int
replace_range(ArrayObject *a, Py_ssize_t lo, Py_ssize_t hi, const char *src,
              Py_ssize_t nnew)
{
    Py_ssize_t sz = a->kind->size, nold = hi - lo, tail = a->count - hi;
    if (nnew != nold && refuse_if_exported(a) < 0) {
        return -1;
    }
    if (nnew < nold) {
        memmove(SLOT(a, lo + nnew), SLOT(a, hi), tail * sz);
        if (resize_items(a, a->count - (nold - nnew)) < 0) {
            return -1;
        }
    }
    else if (nnew > nold) {
        if (resize_items(a, a->count + (nnew - nold)) < 0) {
            return -1;
        }
        memmove(SLOT(a, lo + nnew), SLOT(a, hi), tail * sz);
    }
    if (nnew) {
        memcpy(SLOT(a, lo), src, nnew * sz);
    }
    return 0;
}

static int
assign_slice(ArrayObject *a, PyObject *key, PyObject *value)
{
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) {
        return -1;
    }
    Py_ssize_t n = PySlice_AdjustIndices(a->count, &start, &stop, step);
    if (value == NULL) {
        if (step == 1) {
            return delete_range(a, start, start + n);
        }
        return delete_extended(a, start, step, n);
    }
    if (!IS_ARRAY(value)) {
        PyErr_Format(PyExc_TypeError,
                     "can only assign array (not \"%.200s\") to array slice",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    ArrayObject *v = (ArrayObject *)value;
    if (v->kind != a->kind) {
        PyErr_BadArgument();
        return -1;
    }
    /* Snapshot the source: it may be a itself. */
    PyObject *snap = PyBytes_FromStringAndSize(v->items, v->count * v->kind->size);
    if (snap == NULL) {
        return -1;
    }
    const char *src = PyBytes_AS_STRING(snap);
    Py_ssize_t nv = v->count;
    int rc = 0;
    if (step == 1) {
        if (stop < start) {
            stop = start;
        }
        rc = replace_range(a, start, stop, src, nv);
    }
    else if (nv != n) {
        PyErr_Format(PyExc_ValueError,
                     "attempt to assign array of size %zd to extended slice "
                     "of size %zd", nv, n);
        rc = -1;
    }
    else {
        for (Py_ssize_t j = 0; j < n; j++) {
            memcpy(SLOT(a, start + j * step), src + j * a->kind->size,
                   a->kind->size);
        }
    }
    Py_DECREF(snap);
    return rc;
}

static int
array_ass_subscript(PyObject *op, PyObject *key, PyObject *value)
{
    ArrayObject *a = (ArrayObject *)op;
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (i < 0) {
            i += a->count;
        }
        return array_ass_item(op, i, value);
    }
    if (!PySlice_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "array indices must be integers");
        return -1;
    }
    return assign_slice(a, key, value);
}

/* ---- comparison, repr, iteration ------------------------------------- */

static PyObject *
array_richcompare(PyObject *x, PyObject *y, int op)
{
    if (!IS_ARRAY(x) || !IS_ARRAY(y)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    ArrayObject *a = (ArrayObject *)x, *b = (ArrayObject *)y;
    if (a->count != b->count && (op == Py_EQ || op == Py_NE)) {
        return PyBool_FromLong(op == Py_NE);
    }
    Py_ssize_t i = 0;
    for (; i < a->count && i < b->count; i++) {
        PyObject *u = box_item(a->kind, SLOT(a, i));
        PyObject *w = u ? box_item(b->kind, SLOT(b, i)) : NULL;
        if (w == NULL) {
            Py_XDECREF(u);
            return NULL;
        }
        int same = PyObject_RichCompareBool(u, w, Py_EQ);
        if (same != 1) {
            PyObject *res = same < 0 ? NULL : PyObject_RichCompare(u, w, op);
            Py_DECREF(u);
            Py_DECREF(w);
            return res;
        }
        Py_DECREF(u);
        Py_DECREF(w);
    }
    Py_ssize_t la = a->count, lb = b->count;
    int r;
    switch (op) {
    case Py_LT: r = la < lb; break;
    case Py_LE: r = la <= lb; break;
    case Py_EQ: r = la == lb; break;
    case Py_NE: r = la != lb; break;
    case Py_GT: r = la > lb; break;
    default: r = la >= lb; break;
    }
    return PyBool_FromLong(r);
}

static PyObject *array_tolist(PyObject *op, PyObject *unused);
static PyObject *array_tounicode(PyObject *op, PyObject *unused);

static PyObject *
array_repr(PyObject *op)
{
    ArrayObject *a = (ArrayObject *)op;
    const char *name = _PyType_Name(Py_TYPE(op));
    if (a->count == 0) {
        return PyUnicode_FromFormat("%s('%c')", name, a->kind->code);
    }
    PyObject *body = a->kind->family == K_CHAR ? array_tounicode(op, NULL)
                                               : array_tolist(op, NULL);
    if (body == NULL) {
        return NULL;
    }
    PyObject *r = PyUnicode_FromFormat("%s('%c', %R)", name, a->kind->code,
                                       body);
    Py_DECREF(body);
    return r;
}

static PyObject *
array_iter(PyObject *op)
{
    ArrayIterObject *it = PyObject_New(ArrayIterObject, &ArrayIter_Type);
    if (it == NULL) {
        return NULL;
    }
    it->seq = (ArrayObject *)Py_NewRef(op);
    it->pos = 0;
    return (PyObject *)it;
}

static void
arrayiter_dealloc(PyObject *op)
{
    ArrayIterObject *it = (ArrayIterObject *)op;
    Py_XDECREF(it->seq);
    PyObject_Free(op);
}

static PyObject *
arrayiter_next(PyObject *op)
{
    ArrayIterObject *it = (ArrayIterObject *)op;
    if (it->seq == NULL) {
        return NULL;
    }
    if (it->pos < it->seq->count) {
        return box_item(it->seq->kind, SLOT(it->seq, it->pos++));
    }
    Py_CLEAR(it->seq);
    return NULL;
}

/* ---- buffer protocol ------------------------------------------------- */

static int
array_getbuffer(PyObject *op, Py_buffer *view, int flags)
{
    ArrayObject *a = (ArrayObject *)op;
    static char empty = 0;
    if (view == NULL) {
        PyErr_SetString(PyExc_BufferError, "array: view==NULL argument");
        return -1;
    }
    view->buf = a->items ? a->items : &empty;
    view->obj = Py_NewRef(op);
    view->len = a->count * a->kind->size;
    view->readonly = 0;
    view->itemsize = a->kind->size;
    view->ndim = 1;
    view->format = (flags & PyBUF_FORMAT) ? (char *)a->kind->bufformat : NULL;
    view->shape = (flags & PyBUF_ND) ? &a->count : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? &view->itemsize
                                                            : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    a->exports++;
    return 0;
}

static void
array_releasebuffer(PyObject *op, Py_buffer *view)
{
    (void)view;
    ((ArrayObject *)op)->exports--;
}

/* ---- methods --------------------------------------------------------- */

static PyObject *
array_append(PyObject *op, PyObject *v)
{
    if (append_obj((ArrayObject *)op, v) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
array_extend(PyObject *op, PyObject *v)
{
    if (extend_with((ArrayObject *)op, v) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
array_buffer_info(PyObject *op, PyObject *unused)
{
    ArrayObject *a = (ArrayObject *)op;
    return Py_BuildValue("(Nn)", PyLong_FromVoidPtr(a->items), a->count);
}

static void
swap_bytes(char *p, Py_ssize_t size)
{
    for (Py_ssize_t lo = 0, hi = size - 1; lo < hi; lo++, hi--) {
        char t = p[lo];
        p[lo] = p[hi];
        p[hi] = t;
    }
}

static PyObject *
array_byteswap(PyObject *op, PyObject *unused)
{
    ArrayObject *a = (ArrayObject *)op;
    for (Py_ssize_t i = 0; i < a->count; i++) {
        swap_bytes(SLOT(a, i), a->kind->size);
    }
    Py_RETURN_NONE;
}

/* Index of the first item equal to v in [lo, hi), -1 if none, -2 on error. */
static Py_ssize_t
find_value(ArrayObject *a, PyObject *v, Py_ssize_t lo, Py_ssize_t hi)
{
    for (Py_ssize_t i = lo; i < hi && i < a->count; i++) {
        PyObject *x = box_item(a->kind, SLOT(a, i));
        if (x == NULL) {
            return -2;
        }
        int eq = PyObject_RichCompareBool(x, v, Py_EQ);
        Py_DECREF(x);
        if (eq < 0) {
            return -2;
        }
        if (eq) {
            return i;
        }
    }
    return -1;
}

static PyObject *
array_count(PyObject *op, PyObject *v)
{
    ArrayObject *a = (ArrayObject *)op;
    Py_ssize_t total = 0, pos = 0;
    while ((pos = find_value(a, v, pos, a->count)) >= 0) {
        total++;
        pos++;
    }
    return pos == -2 ? NULL : PyLong_FromSsize_t(total);
}

static Py_ssize_t
clamp_bound(Py_ssize_t i, Py_ssize_t n)
{
    if (i < 0) {
        i += n;
        if (i < 0) {
            i = 0;
        }
    }
    return i;
}

static PyObject *
array_index(PyObject *op, PyObject *args)
{
    ArrayObject *a = (ArrayObject *)op;
    PyObject *v;
    Py_ssize_t lo = 0, hi = PY_SSIZE_T_MAX;
    if (!PyArg_ParseTuple(args, "O|nn:index", &v, &lo, &hi)) {
        return NULL;
    }
    Py_ssize_t at = find_value(a, v, clamp_bound(lo, a->count),
                               clamp_bound(hi, a->count));
    if (at == -1) {
        PyErr_SetString(PyExc_ValueError, "array.index(x): x not in array");
    }
    return at < 0 ? NULL : PyLong_FromSsize_t(at);
}

static PyObject *
array_remove(PyObject *op, PyObject *v)
{
    ArrayObject *a = (ArrayObject *)op;
    Py_ssize_t at = find_value(a, v, 0, a->count);
    if (at == -1) {
        PyErr_SetString(PyExc_ValueError, "array.remove(x): x not in array");
    }
    if (at < 0 || delete_range(a, at, at + 1) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
array_insert(PyObject *op, PyObject *args)
{
    ArrayObject *a = (ArrayObject *)op;
    Py_ssize_t i;
    PyObject *v;
    char tmp[8];
    if (!PyArg_ParseTuple(args, "nO:insert", &i, &v)) {
        return NULL;
    }
    if (unbox_item(a->kind, v, tmp) < 0) {
        return NULL;
    }
    i = clamp_bound(i, a->count);
    if (i > a->count) {
        i = a->count;
    }
    if (replace_range(a, i, i, tmp, 1) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
array_pop(PyObject *op, PyObject *args)
{
    ArrayObject *a = (ArrayObject *)op;
    Py_ssize_t i = -1;
    if (!PyArg_ParseTuple(args, "|n:pop", &i)) {
        return NULL;
    }
    if (a->count == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from empty array");
        return NULL;
    }
    if (i < 0) {
        i += a->count;
    }
    if (i < 0 || i >= a->count) {
        PyErr_SetString(PyExc_IndexError, "pop index out of range");
        return NULL;
    }
    PyObject *v = box_item(a->kind, SLOT(a, i));
    if (v != NULL && delete_range(a, i, i + 1) < 0) {
        Py_CLEAR(v);
    }
    return v;
}

static PyObject *
array_reverse(PyObject *op, PyObject *unused)
{
    ArrayObject *a = (ArrayObject *)op;
    Py_ssize_t sz = a->kind->size;
    char tmp[8];
    for (Py_ssize_t lo = 0, hi = a->count - 1; lo < hi; lo++, hi--) {
        memcpy(tmp, SLOT(a, lo), sz);
        memcpy(SLOT(a, lo), SLOT(a, hi), sz);
        memcpy(SLOT(a, hi), tmp, sz);
    }
    Py_RETURN_NONE;
}

static PyObject *
array_tobytes(PyObject *op, PyObject *unused)
{
    ArrayObject *a = (ArrayObject *)op;
    return PyBytes_FromStringAndSize(a->items, a->count * a->kind->size);
}

static PyObject *
array_frombytes(PyObject *op, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    int rc = append_raw((ArrayObject *)op, view.buf, view.len);
    PyBuffer_Release(&view);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
array_tolist(PyObject *op, PyObject *unused)
{
    ArrayObject *a = (ArrayObject *)op;
    PyObject *list = PyList_New(a->count);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < a->count; i++) {
        PyObject *x = box_item(a->kind, SLOT(a, i));
        if (x == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

static PyObject *
array_fromlist(PyObject *op, PyObject *list)
{
    ArrayObject *a = (ArrayObject *)op;
    if (!PyList_Check(list)) {
        PyErr_SetString(PyExc_TypeError, "arg must be list");
        return NULL;
    }
    /* All or nothing: roll back to the old length on a bad item. */
    Py_ssize_t old = a->count;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        if (append_obj(a, PyList_GET_ITEM(list, i)) < 0) {
            PyObject *exc = PyErr_GetRaisedException();
            (void)resize_items(a, old);
            PyErr_SetRaisedException(exc);
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static int
require_char_kind(ArrayObject *a, const char *method)
{
    if (a->kind->family != K_CHAR) {
        PyErr_Format(PyExc_ValueError,
                     "%s() may only be called on unicode type arrays "
                     "('u' or 'w')", method);
        return -1;
    }
    return 0;
}

static PyObject *
array_tounicode(PyObject *op, PyObject *unused)
{
    ArrayObject *a = (ArrayObject *)op;
    if (require_char_kind(a, "tounicode") < 0) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < a->count; i++) {
        unsigned int ch;
        memcpy(&ch, SLOT(a, i), 4);
        if (ch > 0x10FFFF) {
            PyErr_Format(PyExc_ValueError,
                         "character U+%x is not in range [U+0000; U+10ffff]",
                         ch);
            return NULL;
        }
    }
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, a->items, a->count);
}

static PyObject *
array_fromunicode(PyObject *op, PyObject *s)
{
    ArrayObject *a = (ArrayObject *)op;
    if (!PyUnicode_Check(s)) {
        PyErr_Format(PyExc_TypeError,
                     "fromunicode() argument must be str, not %.200s",
                     Py_TYPE(s)->tp_name);
        return NULL;
    }
    if (require_char_kind(a, "fromunicode") < 0 || append_unicode(a, s) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
array_fromfile(PyObject *op, PyObject *args)
{
    ArrayObject *a = (ArrayObject *)op;
    PyObject *f;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "On:fromfile", &f, &n)) {
        return NULL;
    }
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "negative count");
        return NULL;
    }
    if (n > PY_SSIZE_T_MAX / a->kind->size) {
        return PyErr_NoMemory();
    }
    Py_ssize_t want = n * a->kind->size;
    PyObject *data = PyObject_CallMethod(f, "read", "n", want);
    if (data == NULL) {
        return NULL;
    }
    if (!PyBytes_Check(data)) {
        Py_DECREF(data);
        PyErr_SetString(PyExc_TypeError, "read() didn't return bytes");
        return NULL;
    }
    Py_ssize_t got = PyBytes_GET_SIZE(data);
    Py_ssize_t whole = got - got % a->kind->size;
    int rc = append_raw(a, PyBytes_AS_STRING(data), whole);
    Py_DECREF(data);
    if (rc < 0) {
        return NULL;
    }
    if (got != want) {
        PyErr_SetString(PyExc_EOFError, "read() didn't return enough bytes");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
array_tofile(PyObject *op, PyObject *f)
{
    ArrayObject *a = (ArrayObject *)op;
    /* Write in bounded pieces so a huge array never needs a second full copy. */
    const Py_ssize_t piece = 64 * 1024;
    Py_ssize_t total = a->count * a->kind->size;
    for (Py_ssize_t off = 0; off < total; off += piece) {
        Py_ssize_t len = total - off < piece ? total - off : piece;
        PyObject *chunk = PyBytes_FromStringAndSize(a->items + off, len);
        if (chunk == NULL) {
            return NULL;
        }
        PyObject *r = PyObject_CallMethod(f, "write", "O", chunk);
        Py_DECREF(chunk);
        if (r == NULL) {
            return NULL;
        }
        Py_DECREF(r);
    }
    Py_RETURN_NONE;
}

static PyObject *
array_copy(PyObject *op, PyObject *unused)
{
    ArrayObject *a = (ArrayObject *)op;
    return (PyObject *)copy_range(a, 0, a->count);
}

/* Machine-format codes used by pickles (shared with CPython's format). */
enum {
    MF_U8 = 0, MF_S8 = 1, MF_U16 = 2, MF_S16 = 4, MF_U32 = 6, MF_S32 = 8,
    MF_U64 = 10, MF_S64 = 12, MF_F32 = 14, MF_F64 = 16, MF_UTF16 = 18,
    MF_UTF32 = 20, MF_MAX = 21
};

static int
host_is_big_endian(void)
{
    const unsigned short probe = 1;
    return *(const unsigned char *)&probe == 0;
}

static int
machine_format(const kindinfo *k)
{
    int base;
    if (k->family == K_CHAR) {
        base = MF_UTF32;
    }
    else if (k->family == K_FLOAT) {
        base = k->size == 4 ? MF_F32 : MF_F64;
    }
    else if (k->size == 1) {
        return k->family == K_SIGNED ? MF_S8 : MF_U8;
    }
    else {
        int row = k->size == 2 ? MF_U16 : k->size == 4 ? MF_U32 : MF_U64;
        base = row + (k->family == K_SIGNED ? 2 : 0);
    }
    return base + host_is_big_endian();
}

static PyObject *
array_reduce_ex(PyObject *op, PyObject *protocol_obj)
{
    ArrayObject *a = (ArrayObject *)op;
    long protocol = PyLong_AsLong(protocol_obj);
    if (protocol == -1 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *state = NULL;
    if (PyObject_GetOptionalAttrString(op, "__dict__", &state) < 0) {
        return NULL;
    }
    if (state == NULL) {
        state = Py_NewRef(Py_None);
    }
    PyObject *res = NULL;
    if (protocol < 3) {
        PyObject *list = array_tolist(op, NULL);
        if (list != NULL) {
            res = Py_BuildValue("O(CN)N", Py_TYPE(op), a->kind->code, list,
                                state);
            return res;
        }
        Py_DECREF(state);
        return NULL;
    }
    PyObject *mod = PyImport_ImportModule("array");
    PyObject *rebuild = mod ? PyObject_GetAttrString(mod, "_array_reconstructor")
                            : NULL;
    Py_XDECREF(mod);
    PyObject *raw = rebuild ? array_tobytes(op, NULL) : NULL;
    if (raw != NULL) {
        res = Py_BuildValue("N(OCiN)N", rebuild, Py_TYPE(op), a->kind->code,
                            machine_format(a->kind), raw, state);
        return res;
    }
    Py_XDECREF(rebuild);
    Py_DECREF(state);
    return NULL;
}

static PyObject *
array_deepcopy(PyObject *op, PyObject *memo)
{
    return array_copy(op, NULL);
}

static PyObject *
array_sizeof(PyObject *op, PyObject *unused)
{
    ArrayObject *a = (ArrayObject *)op;
    return PyLong_FromSsize_t(Py_TYPE(op)->tp_basicsize +
                              a->capacity * a->kind->size);
}

static PyMethodDef array_methods[] = {
    {"append", array_append, METH_O, "Append one item at the end."},
    {"buffer_info", array_buffer_info, METH_NOARGS,
     "Return (address, length in items) of the storage."},
    {"byteswap", array_byteswap, METH_NOARGS,
     "Reverse the byte order of every item in place."},
    {"count", array_count, METH_O, "Number of items equal to x."},
    {"extend", array_extend, METH_O,
     "Add the items of an iterable (or a same-typed array)."},
    {"frombytes", array_frombytes, METH_O,
     "Append items decoded from a bytes-like object in machine format."},
    {"fromfile", array_fromfile, METH_VARARGS,
     "Read n items from a binary file object and append them."},
    {"fromlist", array_fromlist, METH_O, "Append the items of a list."},
    {"fromunicode", array_fromunicode, METH_O,
     "Append the characters of a str (unicode arrays only)."},
    {"index", array_index, METH_VARARGS,
     "Position of the first x within [start, stop)."},
    {"insert", array_insert, METH_VARARGS, "Insert x before position i."},
    {"pop", array_pop, METH_VARARGS, "Remove and return item i (default last)."},
    {"remove", array_remove, METH_O, "Remove the first item equal to x."},
    {"reverse", array_reverse, METH_NOARGS, "Reverse the items in place."},
    {"tobytes", array_tobytes, METH_NOARGS, "The raw machine bytes."},
    {"tofile", array_tofile, METH_O, "Write the raw bytes to a file object."},
    {"tolist", array_tolist, METH_NOARGS, "The items as a list."},
    {"tounicode", array_tounicode, METH_NOARGS,
     "The characters as a str (unicode arrays only)."},
    {"__copy__", array_copy, METH_NOARGS, "Shallow copy."},
    {"__deepcopy__", array_deepcopy, METH_O, "Copy (items are plain values)."},
    {"__reduce_ex__", array_reduce_ex, METH_O, "Pickle support."},
    {"__sizeof__", array_sizeof, METH_NOARGS, "Memory used, in bytes."},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS,
     "Parametrize the class for type hints."},
    {NULL, NULL, 0, NULL}
};

static PyObject *
array_get_typecode(PyObject *op, void *closure)
{
    return PyUnicode_FromOrdinal(((ArrayObject *)op)->kind->code);
}

static PyObject *
array_get_itemsize(PyObject *op, void *closure)
{
    return PyLong_FromSsize_t(((ArrayObject *)op)->kind->size);
}

static PyGetSetDef array_getset[] = {
    {"typecode", array_get_typecode, NULL, "The typecode character.", NULL},
    {"itemsize", array_get_itemsize, NULL, "Bytes per item.", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

static PySequenceMethods array_as_sequence = {
    .sq_length = array_len,
    .sq_concat = array_concat,
    .sq_repeat = array_repeat,
    .sq_item = array_item,
    .sq_ass_item = array_ass_item,
    .sq_contains = array_contains,
    .sq_inplace_concat = array_inplace_concat,
    .sq_inplace_repeat = array_inplace_repeat,
};

static PyMappingMethods array_as_mapping = {
    .mp_length = array_len,
    .mp_subscript = array_subscript,
    .mp_ass_subscript = array_ass_subscript,
};

static PyBufferProcs array_as_buffer = {
    .bf_getbuffer = array_getbuffer,
    .bf_releasebuffer = array_releasebuffer,
};

static PyTypeObject Array_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "array.array",
    .tp_basicsize = sizeof(ArrayObject),
    .tp_dealloc = array_dealloc,
    .tp_repr = array_repr,
    .tp_as_sequence = &array_as_sequence,
    .tp_as_mapping = &array_as_mapping,
    .tp_as_buffer = &array_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_SEQUENCE,
    .tp_doc = "array(typecode[, initializer]) -> packed array of C values",
    .tp_richcompare = array_richcompare,
    .tp_iter = array_iter,
    .tp_weaklistoffset = offsetof(ArrayObject, weakrefs),
    .tp_methods = array_methods,
    .tp_getset = array_getset,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = array_new,
    .tp_free = PyObject_Free,
};

/* Pickle an iterator as iter(array) plus the position reached. */
static PyObject *
arrayiter_reduce(PyObject *op, PyObject *unused)
{
    ArrayIterObject *it = (ArrayIterObject *)op;
    PyObject *builtins = PyEval_GetBuiltins();
    PyObject *iter_fn = builtins ? PyDict_GetItemString(builtins, "iter") : NULL;
    if (iter_fn == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "builtins.iter is missing");
        return NULL;
    }
    if (it->seq == NULL) {
        return Py_BuildValue("O(())", iter_fn);
    }
    return Py_BuildValue("O(O)n", iter_fn, it->seq, it->pos);
}

static PyObject *
arrayiter_setstate(PyObject *op, PyObject *state)
{
    ArrayIterObject *it = (ArrayIterObject *)op;
    Py_ssize_t pos = PyLong_AsSsize_t(state);
    if (pos == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (it->seq != NULL) {
        it->pos = pos < 0 ? 0 : pos > it->seq->count ? it->seq->count : pos;
    }
    Py_RETURN_NONE;
}

static PyMethodDef arrayiter_methods[] = {
    {"__reduce__", arrayiter_reduce, METH_NOARGS, "Pickle support."},
    {"__setstate__", arrayiter_setstate, METH_O, "Restore the position."},
    {NULL, NULL, 0, NULL}
};

static PyTypeObject ArrayIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "array.arrayiterator",
    .tp_basicsize = sizeof(ArrayIterObject),
    .tp_dealloc = arrayiter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = arrayiter_next,
    .tp_methods = arrayiter_methods,
};

/* ---- _array_reconstructor -------------------------------------------- */

/* Size, family and byte order of a machine-format code. */
static int
describe_mformat(int mf, Py_ssize_t *size, int *family, int *big)
{
    static const struct { Py_ssize_t size; int family; } rows[] = {
        {1, K_UNSIGNED}, {1, K_SIGNED}, {2, K_UNSIGNED}, {2, K_UNSIGNED},
        {2, K_SIGNED}, {2, K_SIGNED}, {4, K_UNSIGNED}, {4, K_UNSIGNED},
        {4, K_SIGNED}, {4, K_SIGNED}, {8, K_UNSIGNED}, {8, K_UNSIGNED},
        {8, K_SIGNED}, {8, K_SIGNED}, {4, K_FLOAT}, {4, K_FLOAT},
        {8, K_FLOAT}, {8, K_FLOAT}, {2, K_CHAR}, {2, K_CHAR},
        {4, K_CHAR}, {4, K_CHAR},
    };
    if (mf < 0 || mf > MF_MAX) {
        PyErr_SetString(PyExc_ValueError,
                        "third argument must be a valid machine format code.");
        return -1;
    }
    *size = rows[mf].size;
    *family = rows[mf].family;
    *big = mf >= 2 ? (mf & 1) : 0;
    return 0;
}

/* Decode one item of a foreign machine format into a Python object. */
static PyObject *
decode_foreign(const unsigned char *p, Py_ssize_t size, int family, int big)
{
    unsigned char buf[8];
    for (Py_ssize_t i = 0; i < size; i++) {
        buf[i] = big ? p[size - 1 - i] : p[i];
    }
    if (family == K_FLOAT) {
        return PyFloat_FromDouble(size == 4 ? PyFloat_Unpack4((char *)buf, 1)
                                            : PyFloat_Unpack8((char *)buf, 1));
    }
    unsigned long long u = 0;
    for (Py_ssize_t i = size - 1; i >= 0; i--) {
        u = (u << 8) | buf[i];
    }
    if (family == K_SIGNED && size < 8 && (u >> (size * 8 - 1)) & 1) {
        u |= ~0ULL << (size * 8);
    }
    if (family == K_CHAR) {
        return PyUnicode_FromOrdinal((int)u);
    }
    return family == K_SIGNED ? PyLong_FromLongLong((long long)u)
                              : PyLong_FromUnsignedLongLong(u);
}

static PyObject *
array_reconstructor(PyObject *module, PyObject *args)
{
    PyTypeObject *type;
    int code, mf;
    PyObject *raw;
    if (!PyArg_ParseTuple(args, "OCiO!:_array_reconstructor", &type, &code,
                          &mf, &PyBytes_Type, &raw)) {
        return NULL;
    }
    if (!PyType_Check(type) || !PyType_IsSubtype(type, &Array_Type)) {
        PyErr_Format(PyExc_TypeError, "%.200s is not a subtype of array.array",
                     PyType_Check(type) ? type->tp_name : "first argument");
        return NULL;
    }
    const kindinfo *k = find_kind(code);
    Py_ssize_t size;
    int family, big;
    if (k == NULL) {
        PyErr_SetString(PyExc_ValueError,
                        "second argument must be a valid type code");
        return NULL;
    }
    if (describe_mformat(mf, &size, &family, &big) < 0) {
        return NULL;
    }
    if (PyBytes_GET_SIZE(raw) % size != 0) {
        PyErr_SetString(PyExc_ValueError,
                        "string length not a multiple of item size");
        return NULL;
    }
    if (mf == MF_UTF16 || mf == MF_UTF16 + 1) {
        PyErr_SetString(PyExc_ValueError, "UTF-16 array pickles are not supported");
        return NULL;
    }
    ArrayObject *a = alloc_array(type, k, 0);
    if (a == NULL) {
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(raw);
    for (Py_ssize_t off = 0; off < PyBytes_GET_SIZE(raw); off += size) {
        PyObject *v = decode_foreign(p + off, size, family, big);
        if (v == NULL || append_obj(a, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(a);
            return NULL;
        }
        Py_DECREF(v);
    }
    return (PyObject *)a;
}

static PyMethodDef module_methods[] = {
    {"_array_reconstructor", array_reconstructor, METH_VARARGS,
     "Rebuild an array from a pickled machine-format byte string."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef arraymodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "array",
    .m_doc = "Compact arrays of basic C values.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC
PyInit_array(void)
{
    /* Registered as builtin static types so finalization releases them. */
    if (_PyStaticType_InitBuiltin(&Array_Type) < 0 ||
        _PyStaticType_InitBuiltin(&ArrayIter_Type) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&arraymodule);
    if (m == NULL) {
        return NULL;
    }
    char codes[NKINDS + 1];
    for (int k = 0; k < NKINDS; k++) {
        codes[k] = kinds[k].code;
    }
    codes[NKINDS] = '\0';
    if (PyModule_AddObjectRef(m, "array", (PyObject *)&Array_Type) < 0 ||
        PyModule_AddObjectRef(m, "ArrayType", (PyObject *)&Array_Type) < 0 ||
        PyModule_AddStringConstant(m, "typecodes", codes) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
