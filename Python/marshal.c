/* marshal: the byte format of code objects and their constants (.pyc files),
   and the `marshal` module over it.

   The format is CPython's, so sizes and round trips behave the same.  An
   object is one type byte, then its payload; all integers are little-endian.

       N F T S .        None, False, True, StopIteration, Ellipsis
       i <int32>        int that fits in 32 bits;  I <int64> is read only
       l <int32 n> ...  other ints: |n| 15-bit digits, low first, sign of n
       g <8 bytes>      float (IEEE double);  f <len8> <text> before version 2
       y <16 bytes>     complex;  x <len8> <text> <len8> <text> before version 2
       s <int32> ...    bytes (any buffer object is written as bytes)
       u t <int32> ...  str as UTF-8 (surrogatepass); t = interned
       a A <int32> ...  ASCII str (version 4+); z Z <len8> ... short ones;
                        the capital letters are interned
       ( <int32> ...    tuple;  ) <len8> ... small tuple (version 4+)
       [ <int32> ...    list;   < > <int32> ... set, frozenset
       { k v ... 0      dict, ended by the null marker 0
       : start stop step  slice (version 5)
       c ...            code object (see write_code for the field order)
       r <int32>        a reference to the n-th object flagged below

   From version 3 on, bit 0x80 of a type byte (FLAG_REF) says "remember
   this object": the reader numbers flagged objects in the order their type
   bytes appear, and `r` refers back to them.  The writer flags only objects
   that may be shared (more than one reference), as CPython does.

   Reading never trusts the input: lengths are checked against what the
   input holds, nesting is bounded, and code objects are validated before
   they are built.  A reference to a tuple, frozenset, slice or code object
   still being read is refused (its items do not exist yet). */

#include "Python.h"
#include "marshal.h"
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_long.h"
#include "pycore_modsupport.h"
#include "pycore_opcode_metadata.h"
#include "pycore_pystate.h"
#include "pycore_tuple.h"

#define TYPE_NULL '0'
#define TYPE_NONE 'N'
#define TYPE_FALSE 'F'
#define TYPE_TRUE 'T'
#define TYPE_STOPITER 'S'
#define TYPE_ELLIPSIS '.'
#define TYPE_INT 'i'
#define TYPE_INT64 'I'
#define TYPE_FLOAT 'f'
#define TYPE_BINARY_FLOAT 'g'
#define TYPE_COMPLEX 'x'
#define TYPE_BINARY_COMPLEX 'y'
#define TYPE_LONG 'l'
#define TYPE_STRING 's'
#define TYPE_INTERNED 't'
#define TYPE_REF 'r'
#define TYPE_TUPLE '('
#define TYPE_LIST '['
#define TYPE_DICT '{'
#define TYPE_CODE 'c'
#define TYPE_UNICODE 'u'
#define TYPE_SET '<'
#define TYPE_FROZENSET '>'
#define TYPE_SLICE ':'
#define TYPE_ASCII 'a'
#define TYPE_ASCII_INTERNED 'A'
#define TYPE_SMALL_TUPLE ')'
#define TYPE_SHORT_ASCII 'z'
#define TYPE_SHORT_ASCII_INTERNED 'Z'
#define FLAG_REF 0x80

/* Nesting deeper than this is refused both ways (CPython's limit too). */
#define MAX_DEPTH 2000
/* Ints are written as 15-bit digits whatever the internal digit size. */
#define MDIGIT_BITS 15
#define MDIGIT_MASK 0x7fff
_Static_assert(PyLong_SHIFT == 2 * MDIGIT_BITS, "an int digit must hold two marshal digits");

/* ==== Writing ============================================================== */

/* Objects already written with FLAG_REF, by address.  The table owns a
   reference to each key, so no address can be reused while writing. */
typedef struct {
    PyObject *key;
    Py_ssize_t index;
} refslot;

typedef struct {
    char *buf;
    Py_ssize_t len;
    Py_ssize_t cap;
    int version;
    int allow_code;
    int depth;
    refslot *slots; /* open addressing, mask + 1 entries */
    Py_ssize_t mask;
    Py_ssize_t nrefs;
} Writer;

static void
writer_init(Writer *w, int version, int allow_code)
{
    memset(w, 0, sizeof(*w));
    w->version = version;
    w->allow_code = allow_code;
}

static void
writer_fini(Writer *w)
{
    if (w->slots != NULL) {
        for (Py_ssize_t i = 0; i <= w->mask; i++) {
            Py_XDECREF(w->slots[i].key);
        }
        PyMem_Free(w->slots);
    }
    PyMem_Free(w->buf);
    w->buf = NULL;
    w->slots = NULL;
}

static int
unmarshallable(void)
{
    PyErr_SetString(PyExc_ValueError, "unmarshallable object");
    return -1;
}

/* Room for n more bytes. */
static int
reserve(Writer *w, Py_ssize_t n)
{
    if (w->cap - w->len >= n) {
        return 0;
    }
    if (n > PY_SSIZE_T_MAX / 2 - w->len) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t cap = w->cap < 64 ? 64 : w->cap;
    while (cap - w->len < n) {
        cap *= 2;
    }
    char *buf = PyMem_Realloc(w->buf, (size_t)cap);
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    w->buf = buf;
    w->cap = cap;
    return 0;
}

static int
put_raw(Writer *w, const void *data, Py_ssize_t n)
{
    if (reserve(w, n) < 0) {
        return -1;
    }
    if (n > 0) {
        memcpy(w->buf + w->len, data, (size_t)n);
    }
    w->len += n;
    return 0;
}

static int
put_byte(Writer *w, int byte)
{
    unsigned char b = (unsigned char)byte;
    return put_raw(w, &b, 1);
}

static int
put_u16(Writer *w, unsigned int value)
{
    unsigned char b[2] = {(unsigned char)(value & 0xff), (unsigned char)((value >> 8) & 0xff)};
    return put_raw(w, b, 2);
}

static int
put_i32(Writer *w, int32_t value)
{
    uint32_t u = (uint32_t)value;
    unsigned char b[4];
    for (int i = 0; i < 4; i++) {
        b[i] = (unsigned char)(u >> (8 * i));
    }
    return put_raw(w, b, 4);
}

/* A length or count: it must fit the format's signed 32 bits. */
static int
put_count(Writer *w, Py_ssize_t n)
{
    if (n > INT32_MAX) {
        return unmarshallable();
    }
    return put_i32(w, (int32_t)n);
}

static int
put_double(Writer *w, double x)
{
    char b[8];
    if (PyFloat_Pack8(x, b, 1) < 0) {
        return -1;
    }
    return put_raw(w, b, 8);
}

/* Before version 2 a float is its %.17g text behind a one-byte length. */
static int
put_double_text(Writer *w, double x)
{
    char *text = PyOS_double_to_string(x, 'g', 17, 0, NULL);
    if (text == NULL) {
        return -1;
    }
    size_t n = strlen(text);
    int rc = put_byte(w, (int)n);
    if (rc == 0) {
        rc = put_raw(w, text, (Py_ssize_t)n);
    }
    PyMem_Free(text);
    return rc;
}

/* ---- The reference table ---- */

static Py_ssize_t
slot_of(refslot *slots, Py_ssize_t mask, PyObject *key)
{
    size_t h = ((uintptr_t)key >> 4) * (size_t)0x9E3779B97F4A7C15ULL;
    Py_ssize_t i = (Py_ssize_t)(h & (size_t)mask);
    while (slots[i].key != NULL && slots[i].key != key) {
        i = (i + 1) & mask;
    }
    return i;
}

static int
grow_refs(Writer *w)
{
    Py_ssize_t size = w->slots == NULL ? 64 : (w->mask + 1) * 2;
    refslot *slots = PyMem_Calloc((size_t)size, sizeof(refslot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; w->slots != NULL && i <= w->mask; i++) {
        if (w->slots[i].key != NULL) {
            slots[slot_of(slots, size - 1, w->slots[i].key)] = w->slots[i];
        }
    }
    PyMem_Free(w->slots);
    w->slots = slots;
    w->mask = size - 1;
    return 0;
}

/* Either writes a back-reference to obj (returns 1), or decides whether
   obj is worth remembering: *flag becomes FLAG_REF or 0 (returns 0). */
static int
write_ref_or_flag(Writer *w, PyObject *obj, int *flag)
{
    *flag = 0;
    if (w->version < 3) {
        return 0;
    }
    if (w->slots != NULL) {
        Py_ssize_t i = slot_of(w->slots, w->mask, obj);
        if (w->slots[i].key != NULL) {
            if (put_byte(w, TYPE_REF) < 0 || put_count(w, w->slots[i].index) < 0) {
                return -1;
            }
            return 1;
        }
    }
    /* An object with one reference cannot appear twice. */
    if (Py_REFCNT(obj) == 1 && !_Py_IsImmortal(obj)) {
        return 0;
    }
    if (w->nrefs >= INT32_MAX) {
        return 0;
    }
    if (w->slots == NULL || (w->nrefs + 1) * 2 > w->mask + 1) {
        if (grow_refs(w) < 0) {
            return -1;
        }
    }
    Py_ssize_t i = slot_of(w->slots, w->mask, obj);
    w->slots[i].key = Py_NewRef(obj);
    w->slots[i].index = w->nrefs++;
    *flag = FLAG_REF;
    return 0;
}

/* ---- Objects ---- */

static int write_object(Writer *w, PyObject *obj);

static int
write_int(Writer *w, PyObject *obj, int flag)
{
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (!overflow && v >= INT32_MIN && v <= INT32_MAX) {
        return put_byte(w, TYPE_INT | flag) < 0 ? -1 : put_i32(w, (int32_t)v);
    }
    /* Regroup the magnitude's internal digits into 15-bit ones. */
    PyLongObject *lv = (PyLongObject *)obj;
    int64_t nbits = _PyLong_NumBits(obj);
    Py_ssize_t nout = (Py_ssize_t)((nbits + MDIGIT_BITS - 1) / MDIGIT_BITS);
    if (nout > INT32_MAX) {
        return unmarshallable();
    }
    if (put_byte(w, TYPE_LONG | flag) < 0 ||
        put_i32(w, (int32_t)(_PyLong_IsNegative(lv) ? -nout : nout)) < 0 ||
        reserve(w, 2 * nout) < 0) {
        return -1;
    }
    /* An internal digit holds exactly two 15-bit ones. */
    for (Py_ssize_t j = 0; j < nout; j++) {
        digit d = lv->ob_digit[j / 2] >> (MDIGIT_BITS * (j % 2));
        if (put_u16(w, (unsigned int)(d & MDIGIT_MASK)) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
write_float(Writer *w, PyObject *obj, int flag)
{
    double x = PyFloat_AS_DOUBLE(obj);
    if (w->version > 1) {
        return put_byte(w, TYPE_BINARY_FLOAT | flag) < 0 ? -1 : put_double(w, x);
    }
    return put_byte(w, TYPE_FLOAT | flag) < 0 ? -1 : put_double_text(w, x);
}

static int
write_complex(Writer *w, PyObject *obj, int flag)
{
    Py_complex c = ((PyComplexObject *)obj)->cval;
    if (w->version > 1) {
        if (put_byte(w, TYPE_BINARY_COMPLEX | flag) < 0 || put_double(w, c.real) < 0) {
            return -1;
        }
        return put_double(w, c.imag);
    }
    if (put_byte(w, TYPE_COMPLEX | flag) < 0 || put_double_text(w, c.real) < 0) {
        return -1;
    }
    return put_double_text(w, c.imag);
}

static int
write_str(Writer *w, PyObject *obj, int flag)
{
    /* Before version 3 (no references) interning is not recorded. */
    int interned = w->version >= 3 && PyUnicode_CHECK_INTERNED(obj);
    if (w->version >= 4 && PyUnicode_IS_ASCII(obj)) {
        Py_ssize_t n = PyUnicode_GET_LENGTH(obj);
        const void *data = PyUnicode_DATA(obj);
        if (n < 256) {
            int code = interned ? TYPE_SHORT_ASCII_INTERNED : TYPE_SHORT_ASCII;
            if (put_byte(w, code | flag) < 0 || put_byte(w, (int)n) < 0) {
                return -1;
            }
        }
        else {
            int code = interned ? TYPE_ASCII_INTERNED : TYPE_ASCII;
            if (put_byte(w, code | flag) < 0 || put_count(w, n) < 0) {
                return -1;
            }
        }
        return put_raw(w, data, n);
    }
    PyObject *utf8 = PyUnicode_AsEncodedString(obj, "utf-8", "surrogatepass");
    if (utf8 == NULL) {
        return -1;
    }
    int rc = -1;
    if (put_byte(w, (interned ? TYPE_INTERNED : TYPE_UNICODE) | flag) == 0 &&
        put_count(w, PyBytes_GET_SIZE(utf8)) == 0) {
        rc = put_raw(w, PyBytes_AS_STRING(utf8), PyBytes_GET_SIZE(utf8));
    }
    Py_DECREF(utf8);
    return rc;
}

static int
write_buffer(Writer *w, PyObject *obj, int flag)
{
    Py_buffer view;
    /* The view holds a reference to obj for as long as it is read. */
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    int rc = -1;
    if (put_byte(w, TYPE_STRING | flag) == 0 && put_count(w, view.len) == 0) {
        rc = put_raw(w, view.buf, view.len);
    }
    PyBuffer_Release(&view);
    return rc;
}

static int
write_items(Writer *w, PyObject *const *items, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (write_object(w, items[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
write_tuple(Writer *w, PyObject *obj, int flag)
{
    Py_ssize_t n = PyTuple_GET_SIZE(obj);
    if (w->version >= 4 && n < 256) {
        if (put_byte(w, TYPE_SMALL_TUPLE | flag) < 0 || put_byte(w, (int)n) < 0) {
            return -1;
        }
    }
    else if (put_byte(w, TYPE_TUPLE | flag) < 0 || put_count(w, n) < 0) {
        return -1;
    }
    return write_items(w, _PyTuple_ITEMS(obj), n);
}

static int
write_list(Writer *w, PyObject *obj, int flag)
{
    if (put_byte(w, TYPE_LIST | flag) < 0 || put_count(w, PyList_GET_SIZE(obj)) < 0) {
        return -1;
    }
    /* Items stay borrowed (an extra reference would defeat the refcount
       test of write_ref_or_flag); writing runs no Python code. */
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(obj); i++) {
        if (write_object(w, PyList_GET_ITEM(obj, i)) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
write_dict(Writer *w, PyObject *obj, int flag)
{
    if (put_byte(w, TYPE_DICT | flag) < 0) {
        return -1;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(obj, &pos, &key, &value)) {
        if (write_object(w, key) < 0 || write_object(w, value) < 0) {
            return -1;
        }
    }
    return put_byte(w, TYPE_NULL);
}

/* The standalone encoding of obj, used to order set members. */
static PyObject *
encode_alone(PyObject *obj, int version, int allow_code, int depth)
{
    Writer sub;
    writer_init(&sub, version, allow_code);
    sub.depth = depth;
    PyObject *result = NULL;
    if (write_object(&sub, obj) == 0) {
        result = PyBytes_FromStringAndSize(sub.buf, sub.len);
    }
    writer_fini(&sub);
    return result;
}

static int
compare_encodings(const void *a, const void *b)
{
    PyObject *x = ((PyObject *const *)a)[1];
    PyObject *y = ((PyObject *const *)b)[1];
    Py_ssize_t nx = PyBytes_GET_SIZE(x), ny = PyBytes_GET_SIZE(y);
    int c = memcmp(PyBytes_AS_STRING(x), PyBytes_AS_STRING(y), (size_t)(nx < ny ? nx : ny));
    if (c != 0) {
        return c;
    }
    return nx < ny ? -1 : nx > ny;
}

/* Set members go out sorted by their own encoding, so equal sets always
   marshal to the same bytes (reproducible .pyc files). */
static int
write_set(Writer *w, PyObject *obj, int flag)
{
    int code = PyFrozenSet_CheckExact(obj) ? TYPE_FROZENSET : TYPE_SET;
    Py_ssize_t n = PySet_GET_SIZE(obj);
    if (put_byte(w, code | flag) < 0 || put_count(w, n) < 0) {
        return -1;
    }
    /* pairs[2*i] = member, pairs[2*i+1] = its encoding */
    PyObject **pairs = PyMem_Calloc((size_t)(n > 0 ? n : 1), 2 * sizeof(PyObject *));
    if (pairs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int rc = -1;
    Py_ssize_t pos = 0, count = 0;
    PyObject *key;
    Py_hash_t hash;
    while (count < n && _PySet_NextEntry(obj, &pos, &key, &hash)) {
        pairs[2 * count] = Py_NewRef(key);
        pairs[2 * count + 1] = encode_alone(key, w->version, w->allow_code, w->depth);
        if (pairs[2 * count++ + 1] == NULL) {
            goto done;
        }
    }
    qsort(pairs, (size_t)count, 2 * sizeof(PyObject *), compare_encodings);
    rc = 0;
    for (Py_ssize_t i = 0; i < count && rc == 0; i++) {
        rc = write_object(w, pairs[2 * i]);
    }
done:
    for (Py_ssize_t i = 0; i < 2 * count; i++) {
        Py_XDECREF(pairs[i]);
    }
    PyMem_Free(pairs);
    return rc;
}

static int
write_slice(Writer *w, PyObject *obj, int flag)
{
    if (w->version < 5) {
        return unmarshallable();
    }
    PySliceObject *s = (PySliceObject *)obj;
    if (put_byte(w, TYPE_SLICE | flag) < 0 || write_object(w, s->start) < 0 ||
        write_object(w, s->stop) < 0) {
        return -1;
    }
    return write_object(w, s->step);
}

/* Field order: argcount, posonlyargcount, kwonlyargcount, stacksize, flags
   (int32 each), code, consts, names, localsplusnames, localspluskinds,
   filename, name, qualname, firstlineno (int32), linetable,
   exceptiontable.  Everything else in a code object is derived. */
static int
write_code(Writer *w, PyObject *obj, int flag)
{
    PyCodeObject *co = (PyCodeObject *)obj;
    if (!w->allow_code) {
        PyErr_SetString(PyExc_ValueError, "marshalling code objects is disallowed");
        return -1;
    }
    if (put_byte(w, TYPE_CODE | flag) < 0 || put_i32(w, co->co_argcount) < 0 ||
        put_i32(w, co->co_posonlyargcount) < 0 || put_i32(w, co->co_kwonlyargcount) < 0 ||
        put_i32(w, co->co_stacksize) < 0 || put_i32(w, co->co_flags) < 0) {
        return -1;
    }
    PyObject *code = _PyCode_GetCode(co);
    if (code == NULL) {
        return -1;
    }
    int rc = write_object(w, code);
    Py_DECREF(code);
    if (rc < 0) {
        return -1;
    }
    PyObject *middle[] = {co->co_consts, co->co_names, co->co_localsplusnames,
                          co->co_localspluskinds, co->co_filename, co->co_name, co->co_qualname};
    if (write_items(w, middle, Py_ARRAY_LENGTH(middle)) < 0 ||
        put_i32(w, co->co_firstlineno) < 0 || write_object(w, co->co_linetable) < 0) {
        return -1;
    }
    return write_object(w, co->co_exceptiontable);
}

static int
write_singleton(Writer *w, PyObject *obj)
{
    int code;
    if (obj == Py_None) {
        code = TYPE_NONE;
    }
    else if (obj == Py_False) {
        code = TYPE_FALSE;
    }
    else if (obj == Py_True) {
        code = TYPE_TRUE;
    }
    else if (obj == Py_Ellipsis) {
        code = TYPE_ELLIPSIS;
    }
    else if (obj == PyExc_StopIteration) {
        code = TYPE_STOPITER;
    }
    else {
        return 0;
    }
    return put_byte(w, code) < 0 ? -1 : 1;
}

typedef int (*writefunc)(Writer *, PyObject *, int);

/* The writer for obj's exact type, or NULL when it cannot be marshalled. */
static writefunc
writer_for(PyObject *obj)
{
    PyTypeObject *t = Py_TYPE(obj);
    if (t == &PyLong_Type) {
        return write_int;
    }
    if (t == &PyFloat_Type) {
        return write_float;
    }
    if (t == &PyUnicode_Type) {
        return write_str;
    }
    if (t == &PyTuple_Type) {
        return write_tuple;
    }
    if (t == &PyList_Type) {
        return write_list;
    }
    if (t == &PyDict_Type) {
        return write_dict;
    }
    if (t == &PySet_Type || t == &PyFrozenSet_Type) {
        return write_set;
    }
    if (t == &PyCode_Type) {
        return write_code;
    }
    if (t == &PyComplex_Type) {
        return write_complex;
    }
    if (t == &PySlice_Type) {
        return write_slice;
    }
    if (PyObject_CheckBuffer(obj)) {
        return write_buffer;
    }
    return NULL;
}

static int
write_object(Writer *w, PyObject *obj)
{
    int rc = write_singleton(w, obj);
    if (rc != 0) {
        return rc < 0 ? -1 : 0;
    }
    writefunc fn = writer_for(obj);
    if (fn == NULL) {
        return unmarshallable();
    }
    if (w->depth >= MAX_DEPTH || _Py_StackIsLow(_PyThreadState_GET())) {
        PyErr_SetString(PyExc_ValueError, "object too deeply nested to marshal");
        return -1;
    }
    int flag;
    rc = write_ref_or_flag(w, obj, &flag);
    if (rc != 0) {
        return rc < 0 ? -1 : 0;
    }
    w->depth++;
    rc = fn(w, obj, flag);
    w->depth--;
    return rc;
}

static PyObject *
dumps_impl(PyObject *obj, int version, int allow_code)
{
    Writer w;
    writer_init(&w, version, allow_code);
    PyObject *result = NULL;
    if (write_object(&w, obj) == 0) {
        result = PyBytes_FromStringAndSize(w.buf, w.len);
    }
    writer_fini(&w);
    return result;
}

PyObject *
PyMarshal_WriteObjectToString(PyObject *obj, int version)
{
    return dumps_impl(obj, version, 1);
}

void
PyMarshal_WriteObjectToFile(PyObject *obj, FILE *fp, int version)
{
    PyObject *bytes = dumps_impl(obj, version, 1);
    if (bytes == NULL) {
        return;
    }
    size_t n = (size_t)PyBytes_GET_SIZE(bytes);
    if (fwrite(PyBytes_AS_STRING(bytes), 1, n, fp) != n) {
        PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_DECREF(bytes);
}

void
PyMarshal_WriteLongToFile(long value, FILE *fp, int version)
{
    (void)version;
    uint32_t u = (uint32_t)value;
    unsigned char b[4];
    for (int i = 0; i < 4; i++) {
        b[i] = (unsigned char)(u >> (8 * i));
    }
    if (fwrite(b, 1, 4, fp) != 4) {
        PyErr_SetFromErrno(PyExc_OSError);
    }
}

/* ==== Reading ============================================================== */

/* The input is a memory block, a C FILE or a Python file object.  take()
   hands out the next n bytes; the pointer stays valid until the next
   call. */
typedef struct {
    const unsigned char *pos;
    const unsigned char *end;
    FILE *fp;
    PyObject *file;
    PyObject *chunk; /* the last bytes object file.read() returned */
    char *scratch;   /* what was read from fp */
    Py_ssize_t scratch_cap;
    PyObject **refs; /* NULL while the object is still being built */
    Py_ssize_t nrefs;
    Py_ssize_t refs_cap;
    int depth;
    int allow_code;
} Reader;

static void
reader_init(Reader *r, int allow_code)
{
    memset(r, 0, sizeof(*r));
    r->allow_code = allow_code;
}

static void
reader_fini(Reader *r)
{
    for (Py_ssize_t i = 0; i < r->nrefs; i++) {
        Py_XDECREF(r->refs[i]);
    }
    PyMem_Free(r->refs);
    PyMem_Free(r->scratch);
    Py_CLEAR(r->chunk);
}

static void *
too_short(void)
{
    PyErr_SetString(PyExc_EOFError, "marshal data too short");
    return NULL;
}

static int
bad_data(const char *what)
{
    PyErr_Format(PyExc_ValueError, "bad marshal data (%s)", what);
    return -1;
}

/* n bytes from a C file, read in bounded steps so a lying length costs
   only what the file really holds. */
static const unsigned char *
take_from_fp(Reader *r, Py_ssize_t n)
{
    Py_ssize_t got = 0;
    while (got < n) {
        Py_ssize_t step = n - got < (1 << 20) ? n - got : (1 << 20);
        if (r->scratch_cap < got + step) {
            Py_ssize_t cap = r->scratch_cap < 256 ? 256 : r->scratch_cap;
            while (cap < got + step) {
                cap *= 2;
            }
            char *p = PyMem_Realloc(r->scratch, (size_t)cap);
            if (p == NULL) {
                PyErr_NoMemory();
                return NULL;
            }
            r->scratch = p;
            r->scratch_cap = cap;
        }
        size_t k = fread(r->scratch + got, 1, (size_t)step, r->fp);
        got += (Py_ssize_t)k;
        if ((Py_ssize_t)k < step) {
            return too_short();
        }
    }
    return (const unsigned char *)r->scratch;
}

static const unsigned char *
take_from_file(Reader *r, Py_ssize_t n)
{
    Py_CLEAR(r->chunk);
    PyObject *data = PyObject_CallMethod(r->file, "read", "n", n);
    if (data == NULL) {
        return NULL;
    }
    if (!PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "file.read() returned not bytes but %.100s",
                     Py_TYPE(data)->tp_name);
        Py_DECREF(data);
        return NULL;
    }
    r->chunk = data;
    if (PyBytes_GET_SIZE(data) != n) {
        return too_short();
    }
    return (const unsigned char *)PyBytes_AS_STRING(data);
}

static const unsigned char *
take(Reader *r, Py_ssize_t n)
{
    if (r->fp != NULL) {
        return take_from_fp(r, n);
    }
    if (r->file != NULL) {
        return take_from_file(r, n);
    }
    if (r->end - r->pos < n) {
        return too_short();
    }
    const unsigned char *p = r->pos;
    r->pos += n;
    return p;
}

/* Bytes left when the input is in memory, else -1 (unknown). */
static Py_ssize_t
remaining(Reader *r)
{
    return (r->fp != NULL || r->file != NULL) ? -1 : r->end - r->pos;
}

static int
take_u8(Reader *r, int *out)
{
    const unsigned char *p = take(r, 1);
    if (p == NULL) {
        return -1;
    }
    *out = p[0];
    return 0;
}

static int
take_i32(Reader *r, int32_t *out)
{
    const unsigned char *p = take(r, 4);
    if (p == NULL) {
        return -1;
    }
    *out = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
    return 0;
}

/* A non-negative length or count. */
static int
take_count(Reader *r, const char *what, Py_ssize_t *out)
{
    int32_t n;
    if (take_i32(r, &n) < 0) {
        return -1;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "bad marshal data (%s size out of range)", what);
        return -1;
    }
    *out = n;
    return 0;
}

/* ---- References ---- */

/* A new slot for a flagged object; its value comes later. */
static Py_ssize_t
reserve_ref(Reader *r)
{
    if (r->nrefs == r->refs_cap) {
        Py_ssize_t cap = r->refs_cap < 16 ? 16 : r->refs_cap * 2;
        PyObject **refs = PyMem_Realloc(r->refs, (size_t)cap * sizeof(PyObject *));
        if (refs == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        r->refs = refs;
        r->refs_cap = cap;
    }
    r->refs[r->nrefs] = NULL;
    return r->nrefs++;
}

static void
fill_ref(Reader *r, Py_ssize_t index, PyObject *obj)
{
    if (index >= 0 && obj != NULL) {
        r->refs[index] = Py_NewRef(obj);
    }
}

/* For objects with no parts: remember obj when flagged.  Consumes obj on
   failure. */
static PyObject *
remember(Reader *r, PyObject *obj, int flag)
{
    if (obj == NULL || !flag) {
        return obj;
    }
    Py_ssize_t index = reserve_ref(r);
    if (index < 0) {
        Py_DECREF(obj);
        return NULL;
    }
    fill_ref(r, index, obj);
    return obj;
}

static PyObject *
read_backref(Reader *r)
{
    int32_t n;
    if (take_i32(r, &n) < 0) {
        return NULL;
    }
    if (n < 0 || n >= r->nrefs || r->refs[n] == NULL) {
        bad_data("invalid reference");
        return NULL;
    }
    return Py_NewRef(r->refs[n]);
}

/* ---- Scalars ---- */

static PyObject *
read_int32(Reader *r)
{
    int32_t v;
    return take_i32(r, &v) < 0 ? NULL : PyLong_FromLong(v);
}

static PyObject *
read_int64(Reader *r)
{
    const unsigned char *p = take(r, 8);
    if (p == NULL) {
        return NULL;
    }
    uint64_t u = 0;
    for (int i = 7; i >= 0; i--) {
        u = (u << 8) | p[i];
    }
    return PyLong_FromLongLong((long long)u);
}

/* 15-bit digits regrouped into the int's own 30-bit digits. */
static PyObject *
read_long(Reader *r)
{
    int32_t signed_n;
    if (take_i32(r, &signed_n) < 0) {
        return NULL;
    }
    if (signed_n == INT32_MIN) {
        bad_data("long size out of range");
        return NULL;
    }
    Py_ssize_t n = signed_n < 0 ? -(Py_ssize_t)signed_n : signed_n;
    if (n == 0) {
        return PyLong_FromLong(0);
    }
    const unsigned char *p = take(r, 2 * n);
    if (p == NULL) {
        return NULL;
    }
    Py_ssize_t ndigits = (n + 1) / 2;
    digit *digits = PyMem_Calloc((size_t)ndigits, sizeof(digit));
    if (digits == NULL) {
        return PyErr_NoMemory();
    }
    unsigned int last = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        last = (unsigned int)p[2 * i] | (unsigned int)p[2 * i + 1] << 8;
        if (last > MDIGIT_MASK) {
            PyMem_Free(digits);
            bad_data("digit out of range in long");
            return NULL;
        }
        digits[i / 2] |= (digit)last << (MDIGIT_BITS * (i % 2));
    }
    PyObject *result = NULL;
    if (last == 0) {
        bad_data("unnormalized long data");
    }
    else {
        result = _PyLong_FromDigits(signed_n < 0, ndigits, digits);
    }
    PyMem_Free(digits);
    return result;
}

static int
read_double(Reader *r, double *out)
{
    const unsigned char *p = take(r, 8);
    if (p == NULL) {
        return -1;
    }
    *out = PyFloat_Unpack8((const char *)p, 1);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

/* The text form: a length byte and up to 255 characters. */
static int
read_double_text(Reader *r, double *out)
{
    int n;
    if (take_u8(r, &n) < 0) {
        return -1;
    }
    const unsigned char *p = take(r, n);
    if (p == NULL) {
        return -1;
    }
    char text[256];
    memcpy(text, p, (size_t)n);
    text[n] = '\0';
    *out = PyOS_string_to_double(text, NULL, NULL);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static PyObject *
read_float(Reader *r, int binary)
{
    double x;
    int rc = binary ? read_double(r, &x) : read_double_text(r, &x);
    return rc < 0 ? NULL : PyFloat_FromDouble(x);
}

static PyObject *
read_complex(Reader *r, int binary)
{
    double re, im;
    int rc = binary ? read_double(r, &re) : read_double_text(r, &re);
    if (rc == 0) {
        rc = binary ? read_double(r, &im) : read_double_text(r, &im);
    }
    return rc < 0 ? NULL : PyComplex_FromDoubles(re, im);
}

static PyObject *
read_bytes(Reader *r, int flag)
{
    Py_ssize_t n;
    if (take_count(r, "bytes object", &n) < 0) {
        return NULL;
    }
    const unsigned char *p = take(r, n);
    if (p == NULL) {
        return NULL;
    }
    if (flag) {
        return PyBytes_FromStringAndSize((const char *)p, n);
    }
    /* An unshared one-byte value gets its own object rather than the
       shared one, so marshalling the result again flags the same objects. */
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, n);
    if (bytes != NULL && n > 0) {
        memcpy(PyBytes_AS_STRING(bytes), p, (size_t)n);
    }
    return bytes;
}

/* Every str form: `wide` for one-byte lengths, `ascii` for the Latin-1
   payload of the a/z codes (UTF-8 otherwise). */
static PyObject *
read_str(Reader *r, int short_len, int ascii, int interned)
{
    Py_ssize_t n;
    if (short_len) {
        int b;
        if (take_u8(r, &b) < 0) {
            return NULL;
        }
        n = b;
    }
    else if (take_count(r, "string", &n) < 0) {
        return NULL;
    }
    const unsigned char *p = take(r, n);
    if (p == NULL) {
        return NULL;
    }
    PyObject *s = ascii ? PyUnicode_DecodeLatin1((const char *)p, n, NULL)
                        : PyUnicode_DecodeUTF8((const char *)p, n, "surrogatepass");
    if (s != NULL && interned) {
        PyUnicode_InternInPlace(&s);
    }
    return s;
}

/* ---- Containers ---- */

static int read_item(Reader *r, PyObject **out);
static PyObject *read_object(Reader *r);

/* One member of a container: the null marker is an error there. */
static PyObject *
read_member(Reader *r, const char *container)
{
    PyObject *item;
    if (read_item(r, &item) < 0) {
        return NULL;
    }
    if (item == NULL) {
        PyErr_Format(PyExc_TypeError, "NULL object in marshal data for %s", container);
    }
    return item;
}

/* A count whose members need at least a byte each must fit the input. */
static int
check_members(Reader *r, Py_ssize_t n)
{
    Py_ssize_t left = remaining(r);
    if (left >= 0 && n > left) {
        PyErr_SetString(PyExc_EOFError, "EOF read where object expected");
        return -1;
    }
    return 0;
}

/* Fills slots[0:n] with members; on failure the filled ones stay for the
   owner to release. */
static int
fill_members(Reader *r, PyObject **slots, Py_ssize_t n, const char *container)
{
    for (Py_ssize_t k = 0; k < n; k++) {
        if ((slots[k] = read_member(r, container)) == NULL) {
            return -1;
        }
    }
    return 0;
}

/* In memory the count is bounded by the input: allocate it at once.  The
   tuple's empty slots are NULL, which its dealloc and traverse accept. */
static PyObject *
read_tuple_items(Reader *r, Py_ssize_t n)
{
    PyObject *result = PyTuple_New(n);
    if (result != NULL && fill_members(r, _PyTuple_ITEMS(result), n, "tuple") < 0) {
        Py_CLEAR(result);
    }
    return result;
}

/* From a file the count is unchecked: collect in a list that grows with
   what is really there. */
static PyObject *
read_tuple_growing(Reader *r, Py_ssize_t n)
{
    PyObject *items = PyList_New(0);
    if (items == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = read_member(r, "tuple");
        if (item == NULL || PyList_Append(items, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(items);
            return NULL;
        }
        Py_DECREF(item);
    }
    PyObject *tuple = PyList_AsTuple(items);
    Py_DECREF(items);
    return tuple;
}

static PyObject *
read_tuple(Reader *r, int small, int flag)
{
    Py_ssize_t n;
    if (small) {
        int b;
        if (take_u8(r, &b) < 0) {
            return NULL;
        }
        n = b;
    }
    else if (take_count(r, "tuple", &n) < 0) {
        return NULL;
    }
    Py_ssize_t index = flag ? reserve_ref(r) : -1;
    if ((flag && index < 0) || check_members(r, n) < 0) {
        return NULL;
    }
    PyObject *tuple = remaining(r) >= 0 ? read_tuple_items(r, n) : read_tuple_growing(r, n);
    fill_ref(r, index, tuple);
    return tuple;
}

static PyObject *
read_list(Reader *r, int flag)
{
    Py_ssize_t n;
    if (take_count(r, "list", &n) < 0 || check_members(r, n) < 0) {
        return NULL;
    }
    /* A list is usable while half filled, so it is remembered at once:
       its items may refer back to it. */
    PyObject *list = remember(r, PyList_New(0), flag);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = read_member(r, "list");
        if (item == NULL || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

/* Pairs until a null marker where a key or a value would be. */
static PyObject *
read_dict(Reader *r, int flag)
{
    PyObject *dict = remember(r, PyDict_New(), flag);
    if (dict == NULL) {
        return NULL;
    }
    for (;;) {
        PyObject *key, *value = NULL;
        if (read_item(r, &key) < 0) {
            goto error;
        }
        if (key == NULL) {
            break;
        }
        if (read_item(r, &value) < 0) {
            Py_DECREF(key);
            goto error;
        }
        if (value == NULL) {
            Py_DECREF(key);
            break;
        }
        int rc = PyDict_SetItem(dict, key, value);
        Py_DECREF(key);
        Py_DECREF(value);
        if (rc < 0) {
            goto error;
        }
    }
    return dict;
error:
    Py_DECREF(dict);
    return NULL;
}

static PyObject *
read_set(Reader *r, int frozen, int flag)
{
    Py_ssize_t n;
    if (take_count(r, "set", &n) < 0 || check_members(r, n) < 0) {
        return NULL;
    }
    Py_ssize_t index = -1;
    PyObject *set;
    if (frozen) {
        index = flag ? reserve_ref(r) : -1;
        set = (flag && index < 0) ? NULL : PyFrozenSet_New(NULL);
    }
    else {
        set = remember(r, PySet_New(NULL), flag);
    }
    if (set == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = read_member(r, "set");
        if (item == NULL || PySet_Add(set, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(set);
            return NULL;
        }
        Py_DECREF(item);
    }
    fill_ref(r, index, set);
    return set;
}

static PyObject *
read_slice(Reader *r, int flag)
{
    Py_ssize_t index = flag ? reserve_ref(r) : -1;
    if (flag && index < 0) {
        return NULL;
    }
    PyObject *parts[3] = {NULL, NULL, NULL};
    PyObject *slice = NULL;
    for (int i = 0; i < 3; i++) {
        parts[i] = read_member(r, "slice");
        if (parts[i] == NULL) {
            goto done;
        }
    }
    slice = PySlice_New(parts[0], parts[1], parts[2]);
    fill_ref(r, index, slice);
done:
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(parts[i]);
    }
    return slice;
}

/* ---- Code objects ---- */

/* Every instruction's inline caches must lie inside the code: quickening
   writes into them. */
static int
bytecode_is_sound(PyObject *code)
{
    Py_ssize_t nbytes = PyBytes_GET_SIZE(code);
    if (nbytes % (Py_ssize_t)sizeof(_Py_CODEUNIT) != 0) {
        return 0;
    }
    Py_ssize_t n = nbytes / (Py_ssize_t)sizeof(_Py_CODEUNIT);
    const _Py_CODEUNIT *units = (const _Py_CODEUNIT *)PyBytes_AS_STRING(code);
    Py_ssize_t i = 0;
    while (i < n) {
        int op = _PyOpcode_Deopt[units[i].op.code];
        i += 1 + _PyOpcode_Caches[op];
    }
    return i == n;
}

static int
all_str(PyObject *tuple)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(tuple, i))) {
            return 0;
        }
    }
    return 1;
}

enum { C_CODE, C_CONSTS, C_NAMES, C_LPNAMES, C_LPKINDS, C_FILENAME, C_NAME, C_QUALNAME,
       C_LINETABLE, C_EXCTABLE, C_NOBJECTS };

/* The parts must have the types a code object holds. */
static int
code_parts_ok(PyObject **o, int32_t *ints)
{
    for (int i = 0; i < 5; i++) {
        if (ints[i] < 0) {
            return 0;
        }
    }
    return PyBytes_CheckExact(o[C_CODE]) && bytecode_is_sound(o[C_CODE]) &&
           PyTuple_CheckExact(o[C_CONSTS]) && PyTuple_CheckExact(o[C_NAMES]) &&
           all_str(o[C_NAMES]) && PyTuple_CheckExact(o[C_LPNAMES]) && all_str(o[C_LPNAMES]) &&
           PyBytes_CheckExact(o[C_LPKINDS]) &&
           PyBytes_GET_SIZE(o[C_LPKINDS]) == PyTuple_GET_SIZE(o[C_LPNAMES]) &&
           PyUnicode_CheckExact(o[C_FILENAME]) && PyUnicode_CheckExact(o[C_NAME]) &&
           PyUnicode_CheckExact(o[C_QUALNAME]) && PyBytes_CheckExact(o[C_LINETABLE]) &&
           PyBytes_CheckExact(o[C_EXCTABLE]);
}

static PyObject *
build_code(PyObject **o, int32_t *ints, int32_t firstlineno)
{
    if (!code_parts_ok(o, ints)) {
        bad_data("malformed code object");
        return NULL;
    }
    struct _PyCodeConstructor con = {
        .argcount = ints[0],
        .posonlyargcount = ints[1],
        .kwonlyargcount = ints[2],
        .stacksize = ints[3],
        .flags = ints[4],
        .code = o[C_CODE],
        .consts = o[C_CONSTS],
        .names = o[C_NAMES],
        .localsplusnames = o[C_LPNAMES],
        .localspluskinds = o[C_LPKINDS],
        .filename = o[C_FILENAME],
        .name = o[C_NAME],
        .qualname = o[C_QUALNAME],
        .firstlineno = firstlineno,
        .linetable = o[C_LINETABLE],
        .exceptiontable = o[C_EXCTABLE],
    };
    /* Loaded bytes are not trusted: validated like the constructor's
       arguments, then built by the compiler's constructor, so the code is
       quickened and versioned exactly like freshly compiled code. */
    if (_PyCode_Validate(&con) < 0) {
        return NULL;
    }
    return (PyObject *)_PyCode_New(&con);
}

static PyObject *
read_code(Reader *r, int flag)
{
    if (!r->allow_code) {
        PyErr_SetString(PyExc_ValueError, "unmarshalling code objects is disallowed");
        return NULL;
    }
    Py_ssize_t index = flag ? reserve_ref(r) : -1;
    if (flag && index < 0) {
        return NULL;
    }
    int32_t ints[5], firstlineno;
    PyObject *o[C_NOBJECTS] = {NULL};
    PyObject *code = NULL;
    for (int i = 0; i < 5; i++) {
        if (take_i32(r, &ints[i]) < 0) {
            return NULL;
        }
    }
    for (int i = C_CODE; i <= C_QUALNAME; i++) {
        if ((o[i] = read_member(r, "object")) == NULL) {
            goto done;
        }
    }
    if (take_i32(r, &firstlineno) < 0 || (o[C_LINETABLE] = read_member(r, "object")) == NULL ||
        (o[C_EXCTABLE] = read_member(r, "object")) == NULL) {
        goto done;
    }
    code = build_code(o, ints, firstlineno);
    fill_ref(r, index, code);
done:
    for (int i = 0; i < C_NOBJECTS; i++) {
        Py_XDECREF(o[i]);
    }
    return code;
}

/* ---- Dispatch ---- */

static PyObject *
read_typed(Reader *r, int type, int flag)
{
    switch (type) {
    case TYPE_NONE:
        return Py_NewRef(Py_None);
    case TYPE_FALSE:
        return Py_NewRef(Py_False);
    case TYPE_TRUE:
        return Py_NewRef(Py_True);
    case TYPE_ELLIPSIS:
        return Py_NewRef(Py_Ellipsis);
    case TYPE_STOPITER:
        return Py_NewRef(PyExc_StopIteration);
    case TYPE_INT:
        return remember(r, read_int32(r), flag);
    case TYPE_INT64:
        return remember(r, read_int64(r), flag);
    case TYPE_LONG:
        return remember(r, read_long(r), flag);
    case TYPE_FLOAT:
    case TYPE_BINARY_FLOAT:
        return remember(r, read_float(r, type == TYPE_BINARY_FLOAT), flag);
    case TYPE_COMPLEX:
    case TYPE_BINARY_COMPLEX:
        return remember(r, read_complex(r, type == TYPE_BINARY_COMPLEX), flag);
    case TYPE_STRING:
        return remember(r, read_bytes(r, flag), flag);
    case TYPE_UNICODE:
    case TYPE_INTERNED:
        return remember(r, read_str(r, 0, 0, type == TYPE_INTERNED), flag);
    case TYPE_ASCII:
    case TYPE_ASCII_INTERNED:
        return remember(r, read_str(r, 0, 1, type == TYPE_ASCII_INTERNED), flag);
    case TYPE_SHORT_ASCII:
    case TYPE_SHORT_ASCII_INTERNED:
        return remember(r, read_str(r, 1, 1, type == TYPE_SHORT_ASCII_INTERNED), flag);
    case TYPE_TUPLE:
    case TYPE_SMALL_TUPLE:
        return read_tuple(r, type == TYPE_SMALL_TUPLE, flag);
    case TYPE_LIST:
        return read_list(r, flag);
    case TYPE_DICT:
        return read_dict(r, flag);
    case TYPE_SET:
    case TYPE_FROZENSET:
        return read_set(r, type == TYPE_FROZENSET, flag);
    case TYPE_SLICE:
        return read_slice(r, flag);
    case TYPE_CODE:
        return read_code(r, flag);
    case TYPE_REF:
        return read_backref(r);
    default:
        bad_data("unknown type code");
        return NULL;
    }
}

/* One object into *out, or *out = NULL for the null marker. */
static int
read_item(Reader *r, PyObject **out)
{
    *out = NULL;
    const unsigned char *p = take(r, 1);
    if (p == NULL) {
        if (PyErr_ExceptionMatches(PyExc_EOFError)) {
            PyErr_SetString(PyExc_EOFError, "EOF read where object expected");
        }
        return -1;
    }
    int code = p[0];
    if (code == TYPE_NULL) {
        return 0;
    }
    if (r->depth >= MAX_DEPTH || _Py_StackIsLow(_PyThreadState_GET())) {
        PyErr_SetString(PyExc_ValueError, "recursion limit exceeded");
        return -1;
    }
    r->depth++;
    *out = read_typed(r, code & ~FLAG_REF, code & FLAG_REF);
    r->depth--;
    return *out == NULL ? -1 : 0;
}

static PyObject *
read_object(Reader *r)
{
    return read_member(r, "object");
}

static PyObject *
loads_impl(const char *data, Py_ssize_t len, int allow_code)
{
    Reader r;
    reader_init(&r, allow_code);
    r.pos = (const unsigned char *)data;
    r.end = r.pos + len;
    PyObject *result = read_object(&r);
    reader_fini(&r);
    return result;
}

PyObject *
PyMarshal_ReadObjectFromString(const char *data, Py_ssize_t len)
{
    return loads_impl(data, len, 1);
}

PyObject *
PyMarshal_ReadObjectFromFile(FILE *fp)
{
    Reader r;
    reader_init(&r, 1);
    r.fp = fp;
    PyObject *result = read_object(&r);
    reader_fini(&r);
    return result;
}

PyObject *
PyMarshal_ReadLastObjectFromFile(FILE *fp)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            char *p = PyMem_Realloc(buf, cap);
            if (p == NULL) {
                PyMem_Free(buf);
                return PyErr_NoMemory();
            }
            buf = p;
        }
        size_t k = fread(buf + len, 1, cap - len, fp);
        len += k;
        if (k == 0) {
            break;
        }
    }
    PyObject *result = loads_impl(buf, (Py_ssize_t)len, 1);
    PyMem_Free(buf);
    return result;
}

long
PyMarshal_ReadLongFromFile(FILE *fp)
{
    Reader r;
    reader_init(&r, 1);
    r.fp = fp;
    int32_t v;
    int rc = take_i32(&r, &v);
    reader_fini(&r);
    return rc < 0 ? -1 : (long)v;
}

int
PyMarshal_ReadShortFromFile(FILE *fp)
{
    Reader r;
    reader_init(&r, 1);
    r.fp = fp;
    const unsigned char *p = take(&r, 2);
    int v = p == NULL ? -1 : (int16_t)((unsigned int)p[0] | (unsigned int)p[1] << 8);
    reader_fini(&r);
    return v;
}

/* ==== The marshal module ================================================== */

static int
parse_version(PyObject *arg, int *version)
{
    if (arg == NULL) {
        *version = Py_MARSHAL_VERSION;
        return 0;
    }
    *version = PyLong_AsInt(arg);
    return (*version == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int
parse_allow_code(PyObject *arg, int *allow)
{
    if (arg == NULL) {
        *allow = 1;
        return 0;
    }
    *allow = PyObject_IsTrue(arg);
    return *allow < 0 ? -1 : 0;
}

static PyObject *
marshal_dumps(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "", "allow_code", NULL};
    PyObject *a[3];
    int version, allow;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "dumps", kwlist, 1, 2, 0, a) ||
        parse_version(a[1], &version) < 0 || parse_allow_code(a[2], &allow) < 0) {
        return NULL;
    }
    return dumps_impl(a[0], version, allow);
}

static PyObject *
marshal_dump(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "", "", "allow_code", NULL};
    PyObject *a[4];
    int version, allow;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "dump", kwlist, 2, 3, 0, a) ||
        parse_version(a[2], &version) < 0 || parse_allow_code(a[3], &allow) < 0) {
        return NULL;
    }
    PyObject *bytes = dumps_impl(a[0], version, allow);
    if (bytes == NULL) {
        return NULL;
    }
    /* Whatever write() returns is the result (CPython does the same). */
    PyObject *res = PyObject_CallMethod(a[1], "write", "O", bytes);
    Py_DECREF(bytes);
    return res;
}

static PyObject *
marshal_loads(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "allow_code", NULL};
    PyObject *a[2];
    int allow;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "loads", kwlist, 1, 1, 0, a) ||
        parse_allow_code(a[1], &allow) < 0) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(a[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result = loads_impl(view.buf, view.len, allow);
    PyBuffer_Release(&view);
    return result;
}

static PyObject *
marshal_load(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "allow_code", NULL};
    PyObject *a[2];
    int allow;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "load", kwlist, 1, 1, 0, a) ||
        parse_allow_code(a[1], &allow) < 0) {
        return NULL;
    }
    Reader r;
    reader_init(&r, allow);
    r.file = a[0];
    PyObject *result = read_object(&r);
    reader_fini(&r);
    return result;
}

static PyMethodDef marshal_methods[] = {
    {"dumps", _PyCFunction_CAST(marshal_dumps), METH_FASTCALL | METH_KEYWORDS,
     "dumps(value, version=5, /, *, allow_code=True)\n--\n\n"
     "The bytes that dump() would write for value."},
    {"dump", _PyCFunction_CAST(marshal_dump), METH_FASTCALL | METH_KEYWORDS,
     "dump(value, file, version=5, /, *, allow_code=True)\n--\n\n"
     "Serialise value and write it to the binary file."},
    {"loads", _PyCFunction_CAST(marshal_loads), METH_FASTCALL | METH_KEYWORDS,
     "loads(bytes, /, *, allow_code=True)\n--\n\n"
     "The value serialised at the start of a bytes-like object."},
    {"load", _PyCFunction_CAST(marshal_load), METH_FASTCALL | METH_KEYWORDS,
     "load(file, /, *, allow_code=True)\n--\n\n"
     "Read one serialised value from the binary file, and no more."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef marshalmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "marshal",
    .m_doc = "Serialisation of code objects and simple values, as .pyc files use it.",
    .m_size = -1,
    .m_methods = marshal_methods,
};

PyObject *
PyInit_marshal(void)
{
    PyObject *m = PyModule_Create(&marshalmodule);
    if (m != NULL && PyModule_AddIntConstant(m, "version", Py_MARSHAL_VERSION) < 0) {
        Py_CLEAR(m);
    }
    return m;
}
