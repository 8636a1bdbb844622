/* The str type: allocation in the compact layout, the character caches,
   interning, hashing, comparison, concatenation, indexing and slicing,
   repr, the constructor and the iterator.

   The methods live in unicode_methods.c and unicode_format.c, the string
   builder in unicode_writer.c, the character database in unicodectype.c
   and the encodings in Python/codecs.c.

   Invariant relied on everywhere: a str that anybody else can see is
   canonical, i.e. its kind is the narrowest that holds its largest code
   point and `ascii` is set exactly when every code point is below 128.
   Equal strings therefore have equal kinds and equal bytes, so hashing
   and comparison can work on the raw data. */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_unicodeobject.h"
#include "pycore_codecs.h"

Py_BUILD_ASSERT(sizeof(PyUnicodeObject) == PyUnicode_DATA_OFFSET);

/* ---- Static strings: '' and the 256 one-character Latin-1 strings ------ */

struct unicode_static {
    PyUnicodeObject base;
    Py_UCS1 data[4];
};

static struct unicode_static empty_storage = {
    .base = {
        .ob_base = {_Py_IMMORTAL_INITIAL_REFCNT, &PyUnicode_Type},
        .length = 0,
        .hash = -1,
        .state = {.interned = SSTATE_INTERNED_IMMORTAL_STATIC, .kind = PyUnicode_1BYTE_KIND,
                  .ascii = 1, .statically_allocated = 1},
        .utf8 = (char *)empty_storage.data,
        .utf8_length = 0,
    },
    .data = {0},
};

static struct unicode_static latin1_storage[256];

#define EMPTY_STR ((PyObject *)&empty_storage)

PyObject *
_PyUnicode_GetEmpty(void)
{
    return EMPTY_STR;
}

static PyObject *
get_empty(void)
{
    return EMPTY_STR;
}

PyObject *
_PyUnicode_FromLatin1Char(Py_UCS1 ch)
{
    struct unicode_static *s = &latin1_storage[ch];
    if (s->base.ob_base.ob_type == NULL) {
        s->base.ob_base.ob_refcnt = _Py_IMMORTAL_INITIAL_REFCNT;
        s->base.length = 1;
        s->base.hash = -1;
        s->base.state.interned = SSTATE_INTERNED_IMMORTAL_STATIC;
        s->base.state.kind = PyUnicode_1BYTE_KIND;
        s->base.state.ascii = ch < 128;
        s->base.state.statically_allocated = 1;
        s->data[0] = ch;
        s->data[1] = 0;
        s->base.utf8 = ch < 128 ? (char *)s->data : NULL;
        s->base.utf8_length = ch < 128 ? 1 : 0;
        s->base.ob_base.ob_type = &PyUnicode_Type;
    }
    return (PyObject *)s;
}

/* One code point as a str: the cached object for Latin-1. */
static PyObject *
char_to_str(Py_UCS4 ch)
{
    if (ch < 256) {
        return _PyUnicode_FromLatin1Char((Py_UCS1)ch);
    }
    PyObject *u = PyUnicode_New(1, ch);
    if (u == NULL) {
        return NULL;
    }
    PyUnicode_WRITE(PyUnicode_KIND(u), PyUnicode_DATA(u), 0, ch);
    return u;
}

/* ---- Allocation ---------------------------------------------------------- */

static int
kind_for_maxchar(Py_UCS4 maxchar)
{
    if (maxchar < 256) {
        return PyUnicode_1BYTE_KIND;
    }
    if (maxchar < 0x10000) {
        return PyUnicode_2BYTE_KIND;
    }
    return PyUnicode_4BYTE_KIND;
}

static void
init_header(PyObject *op, Py_ssize_t size, Py_UCS4 maxchar)
{
    PyUnicodeObject *u = _PyUnicode_CAST(op);
    int kind = kind_for_maxchar(maxchar);
    u->length = size;
    u->hash = -1;
    u->state.interned = SSTATE_NOT_INTERNED;
    u->state.kind = (unsigned int)kind;
    u->state.ascii = maxchar < 128;
    u->state.statically_allocated = 0;
    /* A str subclass whose instances grew by __slots__ keeps its code points
       after them (unicode_subtype_new allocates for that). */
    u->state.data_after_slots = Py_TYPE(op)->tp_basicsize != PyUnicode_Type.tp_basicsize;
    if (maxchar < 128) {
        u->utf8 = (char *)PyUnicode_DATA(op);
        u->utf8_length = size;
    }
    else {
        u->utf8 = NULL;
        u->utf8_length = 0;
    }
    PyUnicode_WRITE(kind, PyUnicode_DATA(op), size, 0);
}

PyObject *
PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
{
    if (size == 0) {
        return get_empty();
    }
    if (size < 0) {
        PyErr_SetString(PyExc_SystemError, "Negative size passed to PyUnicode_New");
        return NULL;
    }
    if (maxchar > 0x10ffff) {
        PyErr_SetString(PyExc_SystemError, "invalid maximum character passed to PyUnicode_New");
        return NULL;
    }
    int kind = kind_for_maxchar(maxchar);
    if (size > (PY_SSIZE_T_MAX - (Py_ssize_t)PyUnicode_DATA_OFFSET) / kind - 1) {
        return PyErr_NoMemory();
    }
    size_t nbytes = PyUnicode_DATA_OFFSET + (size_t)(size + 1) * (size_t)kind;
    PyObject *op = (PyObject *)PyObject_Malloc(nbytes);
    if (op == NULL) {
        return PyErr_NoMemory();
    }
    _PyObject_Init(op, &PyUnicode_Type);
    init_header(op, size, maxchar);
    return op;
}

static void
unicode_dealloc(PyObject *op)
{
    PyUnicodeObject *u = _PyUnicode_CAST(op);
    if (u->state.statically_allocated) {
        /* Only reachable through a reference-count bug. */
        return;
    }
    if (u->utf8 != NULL && u->utf8 != (char *)PyUnicode_DATA(op)) {
        PyMem_Free(u->utf8);
    }
    Py_TYPE(op)->tp_free(op);
}

/* Largest code point in [start, end). */
Py_UCS4
_PyUnicode_FindMaxChar(PyObject *u, Py_ssize_t start, Py_ssize_t end)
{
    int kind = PyUnicode_KIND(u);
    const void *data = PyUnicode_DATA(u);
    Py_UCS4 max = 0;
    if (PyUnicode_IS_ASCII(u)) {
        return 0x7f;
    }
    if (start == 0 && end == PyUnicode_GET_LENGTH(u) && kind == PyUnicode_1BYTE_KIND) {
        return 0xff;
    }
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        for (Py_ssize_t i = start; i < end; i++) {
            Py_UCS1 c = ((const Py_UCS1 *)data)[i];
            max = c > max ? c : max;
        }
        break;
    case PyUnicode_2BYTE_KIND:
        for (Py_ssize_t i = start; i < end; i++) {
            Py_UCS2 c = ((const Py_UCS2 *)data)[i];
            max = c > max ? c : max;
        }
        break;
    default:
        for (Py_ssize_t i = start; i < end; i++) {
            Py_UCS4 c = ((const Py_UCS4 *)data)[i];
            max = c > max ? c : max;
        }
        break;
    }
    return max;
}

static Py_UCS4
max_char_in(int kind, const void *data, Py_ssize_t n)
{
    Py_UCS4 max = 0;
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS1 c = ((const Py_UCS1 *)data)[i];
            max = c > max ? c : max;
        }
        break;
    case PyUnicode_2BYTE_KIND:
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS2 c = ((const Py_UCS2 *)data)[i];
            max = c > max ? c : max;
        }
        break;
    default:
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS4 c = ((const Py_UCS4 *)data)[i];
            max = c > max ? c : max;
        }
        break;
    }
    return max;
}

/* Copy n code points between arrays of any two kinds (to must be wide
   enough for the values). */
static void
convert_chars(int to_kind, void *to, int from_kind, const void *from, Py_ssize_t n)
{
    if (to_kind == from_kind) {
        memcpy(to, from, (size_t)n * (size_t)to_kind);
        return;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyUnicode_WRITE(to_kind, to, i, PyUnicode_READ(from_kind, from, i));
    }
}

void
_PyUnicode_FastCopyCharacters(PyObject *to, Py_ssize_t to_start, PyObject *from,
                              Py_ssize_t from_start, Py_ssize_t how_many)
{
    int to_kind = PyUnicode_KIND(to);
    int from_kind = PyUnicode_KIND(from);
    if (how_many <= 0) {
        return;
    }
    convert_chars(to_kind, (char *)PyUnicode_DATA(to) + to_start * to_kind, from_kind,
                  (const char *)PyUnicode_DATA(from) + from_start * from_kind, how_many);
}

PyObject *
_PyUnicode_FromKindAndDataCanonical(int kind, const void *data, Py_ssize_t size)
{
    if (size == 0) {
        return get_empty();
    }
    Py_UCS4 max = max_char_in(kind, data, size);
    if (size == 1 && max < 256) {
        return _PyUnicode_FromLatin1Char((Py_UCS1)max);
    }
    PyObject *u = PyUnicode_New(size, max);
    if (u == NULL) {
        return NULL;
    }
    convert_chars(PyUnicode_KIND(u), PyUnicode_DATA(u), kind, data, size);
    return u;
}

PyObject *
_PyUnicode_Canonical(PyObject *u)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(u);
    int kind = PyUnicode_KIND(u);
    if (n == 0) {
        Py_DECREF(u);
        return get_empty();
    }
    Py_UCS4 max = max_char_in(kind, PyUnicode_DATA(u), n);
    if (n == 1 && max < 256) {
        Py_DECREF(u);
        return _PyUnicode_FromLatin1Char((Py_UCS1)max);
    }
    if (kind_for_maxchar(max) == kind) {
        if (kind == PyUnicode_1BYTE_KIND && (max < 128) != PyUnicode_IS_ASCII(u)) {
            /* Same storage; only the ASCII flag and the UTF-8 view move. */
            PyUnicodeObject *o = _PyUnicode_CAST(u);
            if (o->utf8 != NULL && o->utf8 != (char *)PyUnicode_DATA(u)) {
                PyMem_Free(o->utf8);
            }
            o->state.ascii = max < 128;
            o->utf8 = max < 128 ? (char *)PyUnicode_DATA(u) : NULL;
            o->utf8_length = max < 128 ? n : 0;
        }
        return u;
    }
    PyObject *res = PyUnicode_New(n, max);
    if (res != NULL) {
        convert_chars(PyUnicode_KIND(res), PyUnicode_DATA(res), kind, PyUnicode_DATA(u), n);
    }
    Py_DECREF(u);
    return res;
}

void *
_PyUnicode_AsKind(PyObject *u, int kind)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(u);
    if (n > PY_SSIZE_T_MAX / kind - 1) {
        PyErr_NoMemory();
        return NULL;
    }
    void *buf = PyMem_Malloc((size_t)(n + 1) * (size_t)kind);
    if (buf == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    convert_chars(kind, buf, PyUnicode_KIND(u), PyUnicode_DATA(u), n);
    PyUnicode_WRITE(kind, buf, n, 0);
    return buf;
}

/* ---- Construction ---------------------------------------------------------- */

PyObject *
_PyUnicode_FromUCS1(const Py_UCS1 *s, Py_ssize_t size)
{
    return _PyUnicode_FromKindAndDataCanonical(PyUnicode_1BYTE_KIND, s, size);
}

PyObject *
_PyUnicode_FromUCS2(const Py_UCS2 *s, Py_ssize_t size)
{
    return _PyUnicode_FromKindAndDataCanonical(PyUnicode_2BYTE_KIND, s, size);
}

PyObject *
_PyUnicode_FromUCS4(const Py_UCS4 *s, Py_ssize_t size)
{
    for (Py_ssize_t i = 0; i < size; i++) {
        if (s[i] > 0x10ffff) {
            PyErr_Format(PyExc_ValueError, "character U+%x is not in range [U+0000; U+10ffff]",
                         (unsigned int)s[i]);
            return NULL;
        }
    }
    return _PyUnicode_FromKindAndDataCanonical(PyUnicode_4BYTE_KIND, s, size);
}

PyObject *
_PyUnicode_FromASCII(const char *s, Py_ssize_t size)
{
    if (size == 0) {
        return get_empty();
    }
    if (size == 1) {
        return _PyUnicode_FromLatin1Char((Py_UCS1)s[0]);
    }
    PyObject *u = PyUnicode_New(size, 127);
    if (u == NULL) {
        return NULL;
    }
    memcpy(PyUnicode_DATA(u), s, (size_t)size);
    return u;
}

PyObject *
PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
{
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "size must be positive");
        return NULL;
    }
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        return _PyUnicode_FromUCS1(buffer, size);
    case PyUnicode_2BYTE_KIND:
        return _PyUnicode_FromUCS2(buffer, size);
    case PyUnicode_4BYTE_KIND:
        return _PyUnicode_FromUCS4(buffer, size);
    default:
        PyErr_SetString(PyExc_SystemError, "invalid kind");
        return NULL;
    }
}

PyObject *
PyUnicode_FromStringAndSize(const char *u, Py_ssize_t size)
{
    if (size < 0) {
        PyErr_SetString(PyExc_SystemError,
                        "Negative size passed to PyUnicode_FromStringAndSize");
        return NULL;
    }
    if (u == NULL) {
        if (size > 0) {
            PyErr_SetString(PyExc_SystemError,
                            "NULL string with positive size with NULL passed to "
                            "PyUnicode_FromStringAndSize");
            return NULL;
        }
        return get_empty();
    }
    return PyUnicode_DecodeUTF8Stateful(u, size, NULL, NULL);
}

PyObject *
PyUnicode_FromString(const char *u)
{
    size_t size = strlen(u);
    if (size > (size_t)PY_SSIZE_T_MAX) {
        PyErr_SetString(PyExc_OverflowError, "input too long");
        return NULL;
    }
    return PyUnicode_DecodeUTF8Stateful(u, (Py_ssize_t)size, NULL, NULL);
}

PyObject *
PyUnicode_FromOrdinal(int ordinal)
{
    if (ordinal < 0 || ordinal > 0x10ffff) {
        PyErr_SetString(PyExc_ValueError, "chr() arg not in range(0x110000)");
        return NULL;
    }
    return char_to_str((Py_UCS4)ordinal);
}

PyObject *
_PyUnicode_Copy(PyObject *unicode)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(unicode);
    PyObject *u = PyUnicode_New(n, PyUnicode_MAX_CHAR_VALUE(unicode));
    if (u == NULL) {
        return NULL;
    }
    if (n > 0) {
        memcpy(PyUnicode_DATA(u), PyUnicode_DATA(unicode), (size_t)n * PyUnicode_KIND(u));
    }
    return u;
}

/* An exact str with the value of a str subclass instance. */
static PyObject *
exact_copy(PyObject *unicode)
{
    if (PyUnicode_CheckExact(unicode)) {
        return Py_NewRef(unicode);
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(unicode);
    if (n <= 1) {
        return n == 0 ? get_empty() : char_to_str(PyUnicode_READ_CHAR(unicode, 0));
    }
    return _PyUnicode_Copy(unicode);
}

PyObject *
PyUnicode_FromObject(PyObject *obj)
{
    if (PyUnicode_CheckExact(obj)) {
        return Py_NewRef(obj);
    }
    if (PyUnicode_Check(obj)) {
        return exact_copy(obj);
    }
    PyErr_Format(PyExc_TypeError, "Can't convert '%.100s' object to str implicitly",
                 Py_TYPE(obj)->tp_name);
    return NULL;
}

PyObject *
PyUnicode_Substring(PyObject *str, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    if (start < 0 || end < 0) {
        PyErr_SetString(PyExc_IndexError, "string index out of range");
        return NULL;
    }
    if (end > len) {
        end = len;
    }
    if (start >= end) {
        return get_empty();
    }
    if (start == 0 && end == len && PyUnicode_CheckExact(str)) {
        return Py_NewRef(str);
    }
    int kind = PyUnicode_KIND(str);
    const char *data = (const char *)PyUnicode_DATA(str) + start * kind;
    if (PyUnicode_IS_ASCII(str)) {
        return _PyUnicode_FromASCII(data, end - start);
    }
    return _PyUnicode_FromKindAndDataCanonical(kind, data, end - start);
}

/* ---- Access ------------------------------------------------------------------ */

static int
ensure_unicode(PyObject *obj)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "must be str, not %.100s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

Py_ssize_t
PyUnicode_GetLength(PyObject *unicode)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return -1;
    }
    return PyUnicode_GET_LENGTH(unicode);
}

Py_UCS4
PyUnicode_ReadChar(PyObject *unicode, Py_ssize_t index)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return (Py_UCS4)-1;
    }
    if (index < 0 || index >= PyUnicode_GET_LENGTH(unicode)) {
        PyErr_SetString(PyExc_IndexError, "string index out of range");
        return (Py_UCS4)-1;
    }
    return PyUnicode_READ_CHAR(unicode, index);
}

/* Only for strings nobody else has seen yet, and only with a character the
   string's kind can hold (the caller keeps the result canonical). */
int
PyUnicode_WriteChar(PyObject *unicode, Py_ssize_t index, Py_UCS4 ch)
{
    if (!PyUnicode_Check(unicode) || !PyUnicode_CheckExact(unicode)) {
        PyErr_BadInternalCall();
        return -1;
    }
    if (index < 0 || index >= PyUnicode_GET_LENGTH(unicode)) {
        PyErr_SetString(PyExc_IndexError, "string index out of range");
        return -1;
    }
    if (Py_REFCNT(unicode) != 1 || _PyUnicode_CAST(unicode)->hash != -1 ||
        PyUnicode_CHECK_INTERNED(unicode)) {
        PyErr_SetString(PyExc_SystemError, "Cannot modify a string currently used");
        return -1;
    }
    if (ch > PyUnicode_MAX_CHAR_VALUE(unicode)) {
        PyErr_SetString(PyExc_ValueError, "character out of range");
        return -1;
    }
    PyUnicode_WRITE(PyUnicode_KIND(unicode), PyUnicode_DATA(unicode), index, ch);
    return 0;
}

const char *
PyUnicode_AsUTF8AndSize(PyObject *unicode, Py_ssize_t *psize)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        if (psize) {
            *psize = -1;
        }
        return NULL;
    }
    PyUnicodeObject *u = _PyUnicode_CAST(unicode);
    if (u->utf8 == NULL) {
        PyObject *bytes = _PyUnicode_AsUTF8String(unicode, "strict");
        if (bytes == NULL) {
            if (psize) {
                *psize = -1;
            }
            return NULL;
        }
        Py_ssize_t n = PyBytes_GET_SIZE(bytes);
        char *buf = PyMem_Malloc((size_t)n + 1);
        if (buf == NULL) {
            Py_DECREF(bytes);
            PyErr_NoMemory();
            if (psize) {
                *psize = -1;
            }
            return NULL;
        }
        memcpy(buf, PyBytes_AS_STRING(bytes), (size_t)n + 1);
        Py_DECREF(bytes);
        u->utf8 = buf;
        u->utf8_length = n;
    }
    if (psize) {
        *psize = u->utf8_length;
    }
    return u->utf8;
}

const char *
PyUnicode_AsUTF8(PyObject *unicode)
{
    return PyUnicode_AsUTF8AndSize(unicode, NULL);
}

Py_UCS4 *
PyUnicode_AsUCS4Copy(PyObject *unicode)
{
    if (!PyUnicode_Check(unicode)) {
        PyErr_BadArgument();
        return NULL;
    }
    return (Py_UCS4 *)_PyUnicode_AsKind(unicode, PyUnicode_4BYTE_KIND);
}

/* ---- Hashing and comparison ------------------------------------------------- */

static Py_hash_t
unicode_hash(PyObject *self)
{
    PyUnicodeObject *u = _PyUnicode_CAST(self);
    if (u->hash != -1) {
        return u->hash;
    }
    Py_hash_t h = _Py_HashBytes(PyUnicode_DATA(self),
                                PyUnicode_GET_LENGTH(self) * PyUnicode_KIND(self));
    u->hash = h;
    return h;
}

int
_PyUnicode_Equal(PyObject *a, PyObject *b)
{
    if (a == b) {
        return 1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(a);
    if (n != PyUnicode_GET_LENGTH(b) || PyUnicode_KIND(a) != PyUnicode_KIND(b)) {
        return 0;
    }
    Py_hash_t ha = _PyUnicode_CAST(a)->hash, hb = _PyUnicode_CAST(b)->hash;
    if (ha != -1 && hb != -1 && ha != hb) {
        return 0;
    }
    return memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)n * PyUnicode_KIND(a)) == 0;
}

int
PyUnicode_Equal(PyObject *a, PyObject *b)
{
    if (!PyUnicode_Check(a)) {
        PyErr_Format(PyExc_TypeError, "first argument must be str, not %s",
                     Py_TYPE(a)->tp_name);
        return -1;
    }
    if (!PyUnicode_Check(b)) {
        PyErr_Format(PyExc_TypeError, "second argument must be str, not %s",
                     Py_TYPE(b)->tp_name);
        return -1;
    }
    return _PyUnicode_Equal(a, b);
}

/* <0, 0, >0 like memcmp, by code point. */
static int
compare_strings(PyObject *a, PyObject *b)
{
    Py_ssize_t la = PyUnicode_GET_LENGTH(a), lb = PyUnicode_GET_LENGTH(b);
    Py_ssize_t n = la < lb ? la : lb;
    int ka = PyUnicode_KIND(a), kb = PyUnicode_KIND(b);
    const void *da = PyUnicode_DATA(a), *db = PyUnicode_DATA(b);
    if (ka == PyUnicode_1BYTE_KIND && kb == PyUnicode_1BYTE_KIND) {
        int c = memcmp(da, db, (size_t)n);
        if (c != 0) {
            return c < 0 ? -1 : 1;
        }
    }
    else {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS4 ca = PyUnicode_READ(ka, da, i), cb = PyUnicode_READ(kb, db, i);
            if (ca != cb) {
                return ca < cb ? -1 : 1;
            }
        }
    }
    return la < lb ? -1 : (la > lb ? 1 : 0);
}

int
PyUnicode_Compare(PyObject *left, PyObject *right)
{
    if (PyUnicode_Check(left) && PyUnicode_Check(right)) {
        return compare_strings(left, right);
    }
    PyErr_Format(PyExc_TypeError, "Can't compare %.100s and %.100s", Py_TYPE(left)->tp_name,
                 Py_TYPE(right)->tp_name);
    return -1;
}

int
PyUnicode_CompareWithASCIIString(PyObject *uni, const char *str)
{
    int kind = PyUnicode_KIND(uni);
    const void *data = PyUnicode_DATA(uni);
    Py_ssize_t len = PyUnicode_GET_LENGTH(uni), i;
    for (i = 0; i < len && str[i]; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c != (unsigned char)str[i]) {
            return c < (unsigned char)str[i] ? -1 : 1;
        }
    }
    if (i < len) {
        return 1;
    }
    return str[i] ? -1 : 0;
}

int
_PyUnicode_EqualToASCIIString(PyObject *left, const char *right)
{
    if (!PyUnicode_IS_ASCII(left)) {
        return 0;
    }
    size_t n = strlen(right);
    return (size_t)PyUnicode_GET_LENGTH(left) == n &&
           memcmp(PyUnicode_DATA(left), right, n) == 0;
}

int
PyUnicode_EqualToUTF8AndSize(PyObject *unicode, const char *str, Py_ssize_t size)
{
    if (!PyUnicode_Check(unicode)) {
        return 0;
    }
    if (PyUnicode_IS_ASCII(unicode)) {
        return PyUnicode_GET_LENGTH(unicode) == size &&
               memcmp(PyUnicode_DATA(unicode), str, (size_t)size) == 0;
    }
    PyUnicodeObject *u = _PyUnicode_CAST(unicode);
    if (u->utf8 != NULL) {
        return u->utf8_length == size && memcmp(u->utf8, str, (size_t)size) == 0;
    }
    /* Decode the other side rather than caching UTF-8 for a comparison;
       invalid UTF-8 equals nothing, and nothing equals a string with lone
       surrogates (it has no UTF-8 form). */
    PyObject *other = PyUnicode_DecodeUTF8(str, size, NULL);
    if (other == NULL) {
        PyErr_Clear();
        return 0;
    }
    int eq = _PyUnicode_Equal(unicode, other);
    Py_DECREF(other);
    return eq;
}

int
PyUnicode_EqualToUTF8(PyObject *unicode, const char *str)
{
    return PyUnicode_EqualToUTF8AndSize(unicode, str, (Py_ssize_t)strlen(str));
}

PyObject *
PyUnicode_RichCompare(PyObject *left, PyObject *right, int op)
{
    if (!PyUnicode_Check(left) || !PyUnicode_Check(right)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (op == Py_EQ || op == Py_NE) {
        int eq = _PyUnicode_Equal(left, right);
        return PyBool_FromLong(op == Py_EQ ? eq : !eq);
    }
    int c = left == right ? 0 : compare_strings(left, right);
    Py_RETURN_RICHCOMPARE(c, 0, op);
}

/* ---- Concatenation and repetition ------------------------------------------ */

PyObject *
PyUnicode_Concat(PyObject *left, PyObject *right)
{
    if (ensure_unicode(left) < 0) {
        return NULL;
    }
    if (!PyUnicode_Check(right)) {
        PyErr_Format(PyExc_TypeError, "can only concatenate str (not \"%.200s\") to str",
                     Py_TYPE(right)->tp_name);
        return NULL;
    }
    Py_ssize_t ll = PyUnicode_GET_LENGTH(left), lr = PyUnicode_GET_LENGTH(right);
    if (ll == 0) {
        return PyUnicode_FromObject(right);
    }
    if (lr == 0) {
        return PyUnicode_FromObject(left);
    }
    if (ll > PY_SSIZE_T_MAX - lr) {
        PyErr_SetString(PyExc_OverflowError, "strings are too large to concat");
        return NULL;
    }
    Py_UCS4 ml = PyUnicode_MAX_CHAR_VALUE(left), mr = PyUnicode_MAX_CHAR_VALUE(right);
    PyObject *res = PyUnicode_New(ll + lr, ml > mr ? ml : mr);
    if (res == NULL) {
        return NULL;
    }
    _PyUnicode_FastCopyCharacters(res, 0, left, 0, ll);
    _PyUnicode_FastCopyCharacters(res, ll, right, 0, lr);
    return res;
}

/* Can `left` be grown in place?  Only a private, plain, heap str. */
static int
resizable(PyObject *u)
{
    PyUnicodeObject *o = _PyUnicode_CAST(u);
    return Py_REFCNT(u) == 1 && PyUnicode_CheckExact(u) && !o->state.statically_allocated &&
           !o->state.interned;
}

PyObject *
_PyUnicode_ConcatInPlace(PyObject *left, PyObject *right)
{
    if (!PyUnicode_Check(right)) {
        PyErr_Format(PyExc_TypeError, "can only concatenate str (not \"%.200s\") to str",
                     Py_TYPE(right)->tp_name);
        Py_DECREF(left);
        return NULL;
    }
    Py_ssize_t ll = PyUnicode_GET_LENGTH(left), lr = PyUnicode_GET_LENGTH(right);
    if (lr == 0 && PyUnicode_CheckExact(left)) {
        return left;
    }
    int kind = PyUnicode_KIND(left);
    if (!resizable(left) || ll == 0 || PyUnicode_KIND(right) > kind ||
        (PyUnicode_IS_ASCII(left) && !PyUnicode_IS_ASCII(right)) ||
        ll > PY_SSIZE_T_MAX / 4 - lr - 64) {
        PyObject *res = PyUnicode_Concat(left, right);
        Py_DECREF(left);
        return res;
    }
    PyUnicodeObject *o = _PyUnicode_CAST(left);
    if (!o->state.ascii && o->utf8 != NULL) {
        /* The UTF-8 cache is rebuilt on demand; dropping it keeps the
           object valid whatever happens below. */
        PyMem_Free(o->utf8);
        o->utf8 = NULL;
    }
    size_t nbytes = PyUnicode_DATA_OFFSET + (size_t)(ll + lr + 1) * (size_t)kind;
    PyObject *grown = PyObject_Realloc(left, nbytes);
    if (grown == NULL) {
        Py_DECREF(left);
        return PyErr_NoMemory();
    }
    convert_chars(kind, (char *)PyUnicode_DATA(grown) + ll * kind, PyUnicode_KIND(right),
                  PyUnicode_DATA(right), lr);
    o = _PyUnicode_CAST(grown);
    o->length = ll + lr;
    o->hash = -1;
    PyUnicode_WRITE(kind, PyUnicode_DATA(grown), ll + lr, 0);
    if (o->state.ascii) {
        o->utf8 = (char *)PyUnicode_DATA(grown);
        o->utf8_length = ll + lr;
    }
    return grown;
}

void
PyUnicode_Append(PyObject **pleft, PyObject *right)
{
    PyObject *left = *pleft;
    if (left == NULL) {
        return;
    }
    if (right == NULL || !PyUnicode_Check(left)) {
        if (!PyErr_Occurred()) {
            PyErr_BadInternalCall();
        }
        Py_CLEAR(*pleft);
        return;
    }
    *pleft = _PyUnicode_ConcatInPlace(left, right);
}

void
PyUnicode_AppendAndDel(PyObject **pleft, PyObject *right)
{
    PyUnicode_Append(pleft, right);
    Py_XDECREF(right);
}

PyObject *
_PyUnicode_Repeat(PyObject *str, Py_ssize_t count)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    if (count <= 0 || len == 0) {
        return get_empty();
    }
    if (count == 1) {
        return exact_copy(str);
    }
    if (len > PY_SSIZE_T_MAX / count) {
        PyErr_SetString(PyExc_OverflowError, "repeated string is too long");
        return NULL;
    }
    Py_ssize_t total = len * count;
    PyObject *res = PyUnicode_New(total, PyUnicode_MAX_CHAR_VALUE(str));
    if (res == NULL) {
        return NULL;
    }
    int kind = PyUnicode_KIND(str);
    char *to = PyUnicode_DATA(res);
    size_t chunk = (size_t)len * kind;
    if (len == 1 && kind == PyUnicode_1BYTE_KIND) {
        memset(to, ((Py_UCS1 *)PyUnicode_DATA(str))[0], (size_t)count);
        return res;
    }
    memcpy(to, PyUnicode_DATA(str), chunk);
    size_t done = chunk, want = (size_t)total * kind;
    /* Double the filled prefix each step. */
    while (done < want) {
        size_t n = done < want - done ? done : want - done;
        memcpy(to + done, to, n);
        done += n;
    }
    return res;
}

static PyObject *
unicode_repeat(PyObject *str, Py_ssize_t count)
{
    return _PyUnicode_Repeat(str, count);
}

static PyObject *
unicode_concat_slot(PyObject *left, PyObject *right)
{
    return PyUnicode_Concat(left, right);
}

/* ---- Interning ----------------------------------------------------------------- */

/* A private open-addressing set of the interned strings: no dependency on
   dict, and usable before anything else exists. */
static struct {
    PyObject **table;
    Py_ssize_t mask;   /* capacity - 1, capacity a power of two */
    Py_ssize_t used;
} interned;

static int
interned_grow(void)
{
    Py_ssize_t newcap = interned.table == NULL ? 1024 : (interned.mask + 1) * 2;
    PyObject **table = PyMem_Calloc((size_t)newcap, sizeof(PyObject *));
    if (table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; interned.table != NULL && i <= interned.mask; i++) {
        PyObject *s = interned.table[i];
        if (s == NULL) {
            continue;
        }
        size_t j = (size_t)unicode_hash(s) & (size_t)(newcap - 1);
        while (table[j] != NULL) {
            j = (j + 1) & (size_t)(newcap - 1);
        }
        table[j] = s;
    }
    PyMem_Free(interned.table);
    interned.table = table;
    interned.mask = newcap - 1;
    return 0;
}

/* The interned string equal to s, inserting s if there is none. */
static PyObject *
interned_lookup_or_add(PyObject *s)
{
    if (interned.table == NULL || (interned.used + 1) * 3 >= (interned.mask + 1) * 2) {
        if (interned_grow() < 0) {
            return NULL;
        }
    }
    size_t j = (size_t)unicode_hash(s) & (size_t)interned.mask;
    while (interned.table[j] != NULL) {
        if (_PyUnicode_Equal(interned.table[j], s)) {
            return interned.table[j];
        }
        j = (j + 1) & (size_t)interned.mask;
    }
    interned.table[j] = s;
    interned.used++;
    _Py_SetImmortal(s);
    _PyUnicode_CAST(s)->state.interned = SSTATE_INTERNED_IMMORTAL;
    return s;
}

PyObject *
_PyUnicode_InternTake(PyObject *s)
{
    if (s == NULL || !PyUnicode_CheckExact(s) || PyUnicode_CHECK_INTERNED(s)) {
        return s;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    if (n <= 1) {
        PyObject *t = n == 0 ? get_empty() : char_to_str(PyUnicode_READ_CHAR(s, 0));
        if (n == 0 || PyUnicode_READ_CHAR(s, 0) < 256) {
            Py_DECREF(s);
            return t;
        }
        Py_DECREF(t);
    }
    PyObject *t = interned_lookup_or_add(s);
    if (t == NULL) {
        /* Out of memory: the string stays usable, just not interned. */
        PyErr_Clear();
        return s;
    }
    if (t != s) {
        Py_DECREF(s);
    }
    return t;
}

void
PyUnicode_InternInPlace(PyObject **p)
{
    PyObject *s = *p;
    if (s == NULL || !PyUnicode_CheckExact(s) || PyUnicode_CHECK_INTERNED(s)) {
        return;
    }
    *p = _PyUnicode_InternTake(s);
}

PyObject *
PyUnicode_InternFromString(const char *cp)
{
    PyObject *s = PyUnicode_FromString(cp);
    if (s == NULL) {
        return NULL;
    }
    return _PyUnicode_InternTake(s);
}

PyObject *
_PyUnicode_InternImmortal(const char *cp)
{
    return PyUnicode_InternFromString(cp);
}

Py_ssize_t
_PyUnicode_InternedSize(void)
{
    return interned.used;
}

/* ---- repr ------------------------------------------------------------------------ */

static const char hexdigits[] = "0123456789abcdef";

/* Characters repr() writes as they are (besides the quote and backslash). */
static int
repr_keeps(Py_UCS4 c)
{
    if (c < 128) {
        return c >= 0x20 && c != 0x7f;
    }
    return _PyUnicode_IsPrintable(c);
}

/* Write the escape for c (not kept by repr) into out; returns its length. */
static int
repr_escape(Py_UCS4 c, Py_UCS4 quote, Py_UCS4 *out)
{
    int n = 0;
    if (c == quote || c == '\\') {
        out[0] = '\\';
        out[1] = c;
        return 2;
    }
    out[n++] = '\\';
    switch (c) {
    case '\t': out[n++] = 't'; return n;
    case '\n': out[n++] = 'n'; return n;
    case '\r': out[n++] = 'r'; return n;
    default: break;
    }
    int digits;
    if (c < 0x100) {
        out[n++] = 'x';
        digits = 2;
    }
    else if (c < 0x10000) {
        out[n++] = 'u';
        digits = 4;
    }
    else {
        out[n++] = 'U';
        digits = 8;
    }
    for (int i = digits - 1; i >= 0; i--) {
        out[n++] = (Py_UCS4)hexdigits[(c >> (4 * i)) & 0xf];
    }
    return n;
}

PyObject *
_PyUnicode_Repr(PyObject *unicode)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(unicode);
    int kind = PyUnicode_KIND(unicode);
    const void *data = PyUnicode_DATA(unicode);
    Py_ssize_t squotes = 0, dquotes = 0, outlen = 2;
    Py_UCS4 maxchar = 127;
    Py_UCS4 buf[10];

    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c == '\'') {
            squotes++;
        }
        else if (c == '"') {
            dquotes++;
        }
    }
    Py_UCS4 quote = (squotes && !dquotes) ? '"' : '\'';
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        Py_ssize_t w;
        if (c != quote && c != '\\' && repr_keeps(c)) {
            w = 1;
            maxchar = c > maxchar ? c : maxchar;
        }
        else {
            w = repr_escape(c, quote, buf);
        }
        if (outlen > PY_SSIZE_T_MAX - w) {
            PyErr_SetString(PyExc_OverflowError, "string is too long to generate repr");
            return NULL;
        }
        outlen += w;
    }
    PyObject *res = PyUnicode_New(outlen, maxchar);
    if (res == NULL) {
        return NULL;
    }
    int okind = PyUnicode_KIND(res);
    void *odata = PyUnicode_DATA(res);
    Py_ssize_t o = 0;
    PyUnicode_WRITE(okind, odata, o++, quote);
    if (outlen == len + 2 && okind == kind) {
        memcpy((char *)odata + kind, data, (size_t)len * kind);
        o += len;
    }
    else {
        for (Py_ssize_t i = 0; i < len; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (c != quote && c != '\\' && repr_keeps(c)) {
                PyUnicode_WRITE(okind, odata, o++, c);
                continue;
            }
            int n = repr_escape(c, quote, buf);
            for (int k = 0; k < n; k++) {
                PyUnicode_WRITE(okind, odata, o++, buf[k]);
            }
        }
    }
    PyUnicode_WRITE(okind, odata, o++, quote);
    assert(o == outlen);
    return res;
}

/* ascii(): a repr with the remaining non-ASCII characters escaped. */
PyObject *
_PyUnicode_ToASCIIRepr(PyObject *repr)
{
    if (PyUnicode_IS_ASCII(repr)) {
        return Py_NewRef(repr);
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(repr), outlen = 0;
    int kind = PyUnicode_KIND(repr);
    const void *data = PyUnicode_DATA(repr);
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        outlen += c < 128 ? 1 : c < 0x100 ? 4 : c < 0x10000 ? 6 : 10;
    }
    PyObject *res = PyUnicode_New(outlen, 127);
    if (res == NULL) {
        return NULL;
    }
    Py_UCS1 *out = PyUnicode_1BYTE_DATA(res);
    Py_UCS4 buf[10];
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 128) {
            *out++ = (Py_UCS1)c;
            continue;
        }
        int n = repr_escape(c, 0, buf);
        for (int k = 0; k < n; k++) {
            *out++ = (Py_UCS1)buf[k];
        }
    }
    return res;
}

static PyObject *
unicode_repr(PyObject *self)
{
    return _PyUnicode_Repr(self);
}

/* ---- Sequence and mapping protocol ------------------------------------------------ */

static Py_ssize_t
unicode_length(PyObject *self)
{
    return PyUnicode_GET_LENGTH(self);
}

static PyObject *
unicode_getitem(PyObject *self, Py_ssize_t index)
{
    if (index < 0 || index >= PyUnicode_GET_LENGTH(self)) {
        PyErr_SetString(PyExc_IndexError, "string index out of range");
        return NULL;
    }
    return char_to_str(PyUnicode_READ_CHAR(self, index));
}

static PyObject *
unicode_slice_step(PyObject *self, Py_ssize_t start, Py_ssize_t step, Py_ssize_t n)
{
    int kind = PyUnicode_KIND(self);
    const void *data = PyUnicode_DATA(self);
    Py_UCS4 max = 0;
    for (Py_ssize_t i = 0, cur = start; i < n; i++, cur += step) {
        Py_UCS4 c = PyUnicode_READ(kind, data, cur);
        max = c > max ? c : max;
    }
    if (n == 1 && max < 256) {
        return _PyUnicode_FromLatin1Char((Py_UCS1)max);
    }
    PyObject *res = PyUnicode_New(n, max);
    if (res == NULL) {
        return NULL;
    }
    int okind = PyUnicode_KIND(res);
    void *odata = PyUnicode_DATA(res);
    for (Py_ssize_t i = 0, cur = start; i < n; i++, cur += step) {
        PyUnicode_WRITE(okind, odata, i, PyUnicode_READ(kind, data, cur));
    }
    return res;
}

static PyObject *
unicode_subscript(PyObject *self, PyObject *item)
{
    if (PyIndex_Check(item)) {
        Py_ssize_t i = PyNumber_AsSsize_t(item, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (i < 0) {
            i += PyUnicode_GET_LENGTH(self);
        }
        return unicode_getitem(self, i);
    }
    if (PySlice_Check(item)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(item, &start, &stop, &step) < 0) {
            return NULL;
        }
        Py_ssize_t n = PySlice_AdjustIndices(PyUnicode_GET_LENGTH(self), &start, &stop, step);
        if (n <= 0) {
            return get_empty();
        }
        if (step == 1) {
            return PyUnicode_Substring(self, start, stop);
        }
        return unicode_slice_step(self, start, step, n);
    }
    PyErr_Format(PyExc_TypeError, "string indices must be integers, not '%.200s'",
                 Py_TYPE(item)->tp_name);
    return NULL;
}

static int
unicode_contains_slot(PyObject *self, PyObject *item)
{
    return PyUnicode_Contains(self, item);
}

static PyObject *
unicode_mod(PyObject *a, PyObject *b)
{
    if (!PyUnicode_Check(a)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return PyUnicode_Format(a, b);
}

static PyNumberMethods unicode_as_number = {
    .nb_remainder = unicode_mod,
};

static PySequenceMethods unicode_as_sequence = {
    .sq_length = unicode_length,
    .sq_concat = unicode_concat_slot,
    .sq_repeat = unicode_repeat,
    .sq_item = unicode_getitem,
    .sq_contains = unicode_contains_slot,
};

static PyMappingMethods unicode_as_mapping = {
    .mp_length = unicode_length,
    .mp_subscript = unicode_subscript,
};

static int
unicode_iteritem(PyObject *self, Py_ssize_t index, PyObject **item, Py_ssize_t *next_index)
{
    if (index < 0 || index >= PyUnicode_GET_LENGTH(self)) {
        *item = NULL;
        return 0;
    }
    PyObject *c = char_to_str(PyUnicode_READ_CHAR(self, index));
    if (c == NULL) {
        *item = NULL;
        return -1;
    }
    *item = c;
    *next_index = index + 1;
    return 1;
}

/* ---- Identifiers ----------------------------------------------------------------- */

Py_ssize_t
_PyUnicode_ScanIdentifier(PyObject *self)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self);
    if (len == 0) {
        return 0;
    }
    int kind = PyUnicode_KIND(self);
    const void *data = PyUnicode_DATA(self);
    Py_UCS4 ch = PyUnicode_READ(kind, data, 0);
    if (!_PyUnicode_IsXidStart(ch) && ch != '_') {
        return 0;
    }
    Py_ssize_t i = 1;
    for (; i < len; i++) {
        ch = PyUnicode_READ(kind, data, i);
        if (!_PyUnicode_IsXidContinue(ch)) {
            break;
        }
    }
    return i;
}

int
PyUnicode_IsIdentifier(PyObject *self)
{
    Py_ssize_t n = _PyUnicode_ScanIdentifier(self);
    return n > 0 && n == PyUnicode_GET_LENGTH(self);
}

/* ---- Construction from Python --------------------------------------------------- */

/* Copy an exact str into an instance of a str subclass.  Subclass instances
   keep the compact layout (data right after the header); the type's
   tp_itemsize (4) makes tp_alloc(type, n) leave room for n code points of
   any kind plus the terminator. */
static PyObject *
unicode_subtype_new(PyTypeObject *type, PyObject *unicode)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(unicode);
    /* With __slots__ the code points go after the slots, past the one spare
       code point's room the base size includes: ask for one more. */
    int slotted = type->tp_basicsize != PyUnicode_Type.tp_basicsize;
    PyObject *self = type->tp_alloc(type, n + slotted);
    if (self == NULL) {
        return NULL;
    }
    init_header(self, n, PyUnicode_MAX_CHAR_VALUE(unicode));
    memcpy(PyUnicode_DATA(self), PyUnicode_DATA(unicode), (size_t)n * PyUnicode_KIND(unicode));
    /* Never share the ASCII data pointer trick's buffer with the source. */
    return self;
}

static PyObject *
unicode_new_impl(PyTypeObject *type, PyObject *x, const char *encoding, const char *errors)
{
    PyObject *unicode;
    if (x == NULL) {
        unicode = get_empty();
    }
    else if (encoding == NULL && errors == NULL) {
        unicode = PyObject_Str(x);
    }
    else {
        unicode = PyUnicode_FromEncodedObject(x, encoding, errors);
    }
    if (unicode == NULL || type == &PyUnicode_Type) {
        return unicode;
    }
    PyObject *self = unicode_subtype_new(type, unicode);
    Py_DECREF(unicode);
    return self;
}

static PyObject *
unicode_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"object", "encoding", "errors", NULL};
    PyObject *x = NULL;
    const char *encoding = NULL, *errors = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|Oss:str", kwlist, &x, &encoding, &errors)) {
        return NULL;
    }
    return unicode_new_impl(type, x, encoding, errors);
}

static PyObject *
unicode_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        PyObject *argtuple = _PyTuple_FromArray(args, nargs);
        if (argtuple == NULL) {
            return NULL;
        }
        PyObject *kwargs = _PyStack_AsDict(args + nargs, kwnames);
        if (kwargs == NULL) {
            Py_DECREF(argtuple);
            return NULL;
        }
        PyObject *res = unicode_new((PyTypeObject *)type, argtuple, kwargs);
        Py_DECREF(argtuple);
        Py_DECREF(kwargs);
        return res;
    }
    if (nargs == 0) {
        return unicode_new_impl((PyTypeObject *)type, NULL, NULL, NULL);
    }
    if (nargs == 1) {
        return unicode_new_impl((PyTypeObject *)type, args[0], NULL, NULL);
    }
    if (nargs > 3) {
        PyErr_Format(PyExc_TypeError, "str() takes at most 3 arguments (%zd given)", nargs);
        return NULL;
    }
    const char *enc[2] = {NULL, NULL};
    static const char *const names[2] = {"encoding", "errors"};
    for (Py_ssize_t i = 1; i < nargs; i++) {
        if (!PyUnicode_Check(args[i])) {
            PyErr_Format(PyExc_TypeError, "str() argument '%s' must be str, not %.50s",
                         names[i - 1], Py_TYPE(args[i])->tp_name);
            return NULL;
        }
        Py_ssize_t sz;
        enc[i - 1] = PyUnicode_AsUTF8AndSize(args[i], &sz);
        if (enc[i - 1] == NULL) {
            return NULL;
        }
        if ((size_t)sz != strlen(enc[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "embedded null character");
            return NULL;
        }
    }
    return unicode_new_impl((PyTypeObject *)type, args[0], enc[0], enc[1]);
}

static PyObject *
unicode_str(PyObject *self)
{
    return exact_copy(self);
}

PyObject *
PyUnicode_FromEncodedObject(PyObject *obj, const char *encoding, const char *errors)
{
    if (obj == NULL) {
        PyErr_BadInternalCall();
        return NULL;
    }
    if (PyBytes_Check(obj)) {
        if (PyBytes_GET_SIZE(obj) == 0) {
            return get_empty();
        }
        return PyUnicode_Decode(PyBytes_AS_STRING(obj), PyBytes_GET_SIZE(obj), encoding,
                                errors);
    }
    if (PyUnicode_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "decoding str is not supported");
        return NULL;
    }
    PyBufferProcs *bp = Py_TYPE(obj)->tp_as_buffer;
    if (bp == NULL || bp->bf_getbuffer == NULL) {
        PyErr_Format(PyExc_TypeError,
                     "decoding to str: need a bytes-like object, %.80s found",
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    Py_buffer view;
    if (bp->bf_getbuffer(obj, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *res = view.len == 0
                        ? get_empty()
                        : PyUnicode_Decode(view.buf, view.len, encoding, errors);
    if (bp->bf_releasebuffer != NULL) {
        bp->bf_releasebuffer(obj, &view);
    }
    Py_XDECREF(view.obj);
    return res;
}

/* ---- Small methods that belong with the layout ------------------------------------ */

PyObject *
_PyUnicode_SizeOf(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyUnicodeObject *u = _PyUnicode_CAST(self);
    size_t size = ((char *)PyUnicode_DATA(self) - (char *)self) +
                  (size_t)(PyUnicode_GET_LENGTH(self) + 1) * PyUnicode_KIND(self);
    if (u->utf8 != NULL && u->utf8 != (char *)PyUnicode_DATA(self)) {
        size += (size_t)u->utf8_length + 1;
    }
    return PyLong_FromSize_t(size);
}

PyObject *
_PyUnicode_GetNewArgs(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *copy = _PyUnicode_Copy(self);
    if (copy == NULL) {
        return NULL;
    }
    PyObject *res = PyTuple_Pack(1, copy);
    Py_DECREF(copy);
    return res;
}


/* ---- The iterator ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Py_ssize_t it_index;
    PyObject *it_seq; /* NULL once exhausted */
} unicodeiterobject;

static PyObject *
unicode_iter(PyObject *seq)
{
    PyTypeObject *tp = PyUnicode_IS_ASCII(seq) ? &_PyUnicodeASCIIIter_Type : &PyUnicodeIter_Type;
    unicodeiterobject *it = PyObject_GC_New(unicodeiterobject, tp);
    if (it == NULL) {
        return NULL;
    }
    it->it_index = 0;
    it->it_seq = Py_NewRef(seq);
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

static void
unicodeiter_dealloc(PyObject *op)
{
    unicodeiterobject *it = (unicodeiterobject *)op;
    PyObject_GC_UnTrack(it);
    Py_XDECREF(it->it_seq);
    PyObject_GC_Del(it);
}

static int
unicodeiter_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(((unicodeiterobject *)op)->it_seq);
    return 0;
}

static PyObject *
unicodeiter_next(PyObject *op)
{
    unicodeiterobject *it = (unicodeiterobject *)op;
    PyObject *seq = it->it_seq;
    if (seq == NULL) {
        return NULL;
    }
    if (it->it_index < PyUnicode_GET_LENGTH(seq)) {
        return char_to_str(PyUnicode_READ_CHAR(seq, it->it_index++));
    }
    it->it_seq = NULL;
    Py_DECREF(seq);
    return NULL;
}

static PyObject *
unicodeiter_len(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    unicodeiterobject *it = (unicodeiterobject *)op;
    Py_ssize_t n = 0;
    if (it->it_seq != NULL) {
        n = PyUnicode_GET_LENGTH(it->it_seq) - it->it_index;
    }
    return PyLong_FromSsize_t(n < 0 ? 0 : n);
}

static PyObject *
unicodeiter_setstate(PyObject *op, PyObject *state)
{
    unicodeiterobject *it = (unicodeiterobject *)op;
    Py_ssize_t index = PyLong_AsSsize_t(state);
    if (index == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (it->it_seq != NULL) {
        if (index < 0) {
            index = 0;
        }
        else if (index > PyUnicode_GET_LENGTH(it->it_seq)) {
            index = PyUnicode_GET_LENGTH(it->it_seq);
        }
        it->it_index = index;
    }
    Py_RETURN_NONE;
}

static PyObject *
unicodeiter_reduce(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    unicodeiterobject *it = (unicodeiterobject *)op;
    PyObject *iter = PyDict_GetItemString(PyEval_GetBuiltins(), "iter");
    if (iter == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_RuntimeError, "lost builtins.iter");
        }
        return NULL;
    }
    if (it->it_seq != NULL) {
        return Py_BuildValue("O(O)n", iter, it->it_seq, it->it_index);
    }
    return Py_BuildValue("O(O)", iter, _PyUnicode_GetEmpty());
}

static PyMethodDef unicodeiter_methods[] = {
    {"__reduce__", unicodeiter_reduce, METH_NOARGS, "Return state information for pickling."},
    {"__length_hint__", unicodeiter_len, METH_NOARGS,
     "Private method returning an estimate of len(list(it))."},
    {"__setstate__", unicodeiter_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

#define UNICODEITER_SLOTS                                  \
    .tp_basicsize = sizeof(unicodeiterobject),             \
    .tp_dealloc = unicodeiter_dealloc,                     \
    .tp_getattro = PyObject_GenericGetAttr,                \
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,   \
    .tp_traverse = unicodeiter_traverse,                   \
    .tp_iter = PyObject_SelfIter,                          \
    .tp_iternext = unicodeiter_next,                       \
    .tp_methods = unicodeiter_methods

/* Two names for one implementation, as type(iter(s)) shows. */
PyTypeObject PyUnicodeIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "str_iterator",
    UNICODEITER_SLOTS,
};

PyTypeObject _PyUnicodeASCIIIter_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "str_ascii_iterator",
    UNICODEITER_SLOTS,
};

/* ---- The type ------------------------------------------------------------------------ */

static const char unicode_doc[] =
    "str(object='') -> str\n"
    "str(bytes_or_buffer[, encoding[, errors]]) -> str\n"
    "\n"
    "Create a new string object from the given object. If encoding or\n"
    "errors is specified, then the object must expose a data buffer\n"
    "that will be decoded using the given encoding and error handler.\n"
    "Otherwise, returns the result of object.__str__() (if defined)\n"
    "or repr(object).\n"
    "encoding defaults to 'utf-8'.\n"
    "errors defaults to 'strict'.";

PyTypeObject PyUnicode_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "str",
    .tp_basicsize = PyUnicode_DATA_OFFSET + 4,
    .tp_itemsize = 4,
    .tp_dealloc = unicode_dealloc,
    .tp_repr = unicode_repr,
    .tp_as_number = &unicode_as_number,
    .tp_as_sequence = &unicode_as_sequence,
    .tp_as_mapping = &unicode_as_mapping,
    .tp_hash = unicode_hash,
    .tp_str = unicode_str,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_UNICODE_SUBCLASS,
    .tp_doc = unicode_doc,
    .tp_richcompare = PyUnicode_RichCompare,
    .tp_iter = unicode_iter,
    .tp_methods = _PyUnicode_MethodTable,
    .tp_base = &PyBaseObject_Type,
    .tp_new = unicode_new,
    .tp_free = PyObject_Free,
    .tp_vectorcall = unicode_vectorcall,
    ._tp_iteritem = unicode_iteritem,
};

/* ---- Start-up ------------------------------------------------------------------------- */

int
_PyUnicode_InitStaticStrings(PyInterpreterState *interp)
{
    for (int c = 0; c < 256; c++) {
        (void)_PyUnicode_FromLatin1Char((Py_UCS1)c);
    }
    if (interned.table == NULL && interned_grow() < 0) {
        return -1;
    }
    return 0;
}

int
_PyUnicode_InitTypes(PyInterpreterState *interp)
{
    if (PyType_Ready(&PyUnicode_Type) < 0) {
        return -1;
    }
    if (PyType_Ready(&PyUnicodeIter_Type) < 0) {
        return -1;
    }
    if (PyType_Ready(&_PyUnicodeASCIIIter_Type) < 0) {
        return -1;
    }
    return 0;
}

void
_PyUnicode_Fini(PyInterpreterState *interp)
{
    /* Interned strings are immortal and may still be referenced from
       static data; only the table goes. */
    PyMem_Free(interned.table);
    interned.table = NULL;
    interned.mask = 0;
    interned.used = 0;
}
