/* _struct: packing Python values into C struct layouts and back, the engine
   of the struct module.

   A format compiles once into a PyStructObject: a list of runs, each one
   format code repeated some number of times at a known byte offset.  The
   first character picks the mode: '@' (the default) uses the platform's
   sizes, alignment and byte order; '=', '<', '>' and '!' use the standard
   sizes with no alignment, in native, little, big and network (big) order.
   pack() and friends keep the last formats they compiled in a small cache. */

#include "Python.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"
#include <ctype.h>
#include <stdalign.h>
#include <stdbool.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_LITTLE 0
#else
#define HOST_LITTLE 1
#endif

/* Cached compiled formats; when full the cache simply starts over. */
#define CACHE_LIMIT 100

static PyObject *StructError;
static PyObject *format_cache;

/* ---- Format codes -------------------------------------------------------- */

typedef enum {
    K_PAD,    /* x: zero bytes, no value */
    K_CHAR,   /* c: bytes of length 1 */
    K_BOOL,   /* ? */
    K_SIGNED, /* b h i l q n */
    K_UNSIGNED, /* B H I L Q N */
    K_POINTER,  /* P: an address, any int from -2**63 to 2**64-1 */
    K_HALF,     /* e */
    K_FLOAT,    /* f */
    K_DOUBLE,   /* d */
    K_BYTES,    /* s: fixed-length bytes */
    K_PASCAL,   /* p: length byte, then bytes */
} kind_t;

typedef struct {
    char code;
    kind_t kind;
    unsigned char width; /* bytes of one item */
    unsigned char align; /* used in native mode only */
} codeinfo;

#define NATIVE(c, k, type) {c, k, sizeof(type), alignof(type)}

static const codeinfo native_codes[] = {
    NATIVE('x', K_PAD, char),
    NATIVE('c', K_CHAR, char),
    NATIVE('b', K_SIGNED, signed char),
    NATIVE('B', K_UNSIGNED, unsigned char),
    NATIVE('?', K_BOOL, bool),
    NATIVE('h', K_SIGNED, short),
    NATIVE('H', K_UNSIGNED, unsigned short),
    NATIVE('i', K_SIGNED, int),
    NATIVE('I', K_UNSIGNED, unsigned int),
    NATIVE('l', K_SIGNED, long),
    NATIVE('L', K_UNSIGNED, unsigned long),
    NATIVE('q', K_SIGNED, long long),
    NATIVE('Q', K_UNSIGNED, unsigned long long),
    NATIVE('n', K_SIGNED, Py_ssize_t),
    NATIVE('N', K_UNSIGNED, size_t),
    NATIVE('P', K_POINTER, void *),
    NATIVE('e', K_HALF, uint16_t),
    NATIVE('f', K_FLOAT, float),
    NATIVE('d', K_DOUBLE, double),
    NATIVE('s', K_BYTES, char),
    NATIVE('p', K_PASCAL, char),
    {0, K_PAD, 0, 0},
};

static const codeinfo standard_codes[] = {
    {'x', K_PAD, 1, 1},      {'c', K_CHAR, 1, 1},     {'b', K_SIGNED, 1, 1},
    {'B', K_UNSIGNED, 1, 1}, {'?', K_BOOL, 1, 1},     {'h', K_SIGNED, 2, 1},
    {'H', K_UNSIGNED, 2, 1}, {'i', K_SIGNED, 4, 1},   {'I', K_UNSIGNED, 4, 1},
    {'l', K_SIGNED, 4, 1},   {'L', K_UNSIGNED, 4, 1}, {'q', K_SIGNED, 8, 1},
    {'Q', K_UNSIGNED, 8, 1}, {'e', K_HALF, 2, 1},     {'f', K_FLOAT, 4, 1},
    {'d', K_DOUBLE, 8, 1},   {'s', K_BYTES, 1, 1},    {'p', K_PASCAL, 1, 1},
    {0, K_PAD, 0, 0},
};

static const codeinfo *
find_code(const codeinfo *table, char c)
{
    for (; table->code != 0; table++) {
        if (table->code == c) {
            return table;
        }
    }
    return NULL;
}

/* ---- Compiled formats ---------------------------------------------------- */

/* `repeat` items of one code from `offset` on; for s and p one item of
   `width` bytes. */
typedef struct {
    const codeinfo *info;
    Py_ssize_t offset;
    Py_ssize_t width;
    Py_ssize_t repeat;
} run;

typedef struct {
    PyObject_HEAD
    PyObject *s_format; /* str */
    Py_ssize_t s_size;  /* bytes packed */
    Py_ssize_t s_len;   /* values packed */
    run *s_runs;
    Py_ssize_t s_nruns;
    int s_little;
    int s_native;
    PyObject *s_weakreflist;
} PyStructObject;

static PyTypeObject PyStructType;

/* struct.error, or ValueError once the module is gone at exit. */
static PyObject *
error_class(void)
{
    return StructError != NULL ? StructError : PyExc_ValueError;
}

static int
struct_fail(const char *msg)
{
    PyErr_SetString(error_class(), msg);
    return -1;
}

static int
too_long(void)
{
    return struct_fail("total struct size too long");
}

/* *total += n, refusing sizes beyond Py_ssize_t. */
static int
add_size(Py_ssize_t *total, Py_ssize_t n)
{
    if (n > PY_SSIZE_T_MAX - *total) {
        return too_long();
    }
    *total += n;
    return 0;
}

typedef struct {
    run *runs;
    Py_ssize_t nruns;
    Py_ssize_t cap;
    Py_ssize_t size;
    Py_ssize_t nvalues;
} layout;

static int
push_run(layout *lay, const codeinfo *info, Py_ssize_t width, Py_ssize_t repeat)
{
    if (lay->nruns == lay->cap) {
        Py_ssize_t cap = lay->cap ? lay->cap * 2 : 8;
        run *runs = PyMem_Realloc(lay->runs, (size_t)cap * sizeof(run));
        if (runs == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        lay->runs = runs;
        lay->cap = cap;
    }
    lay->runs[lay->nruns++] = (run){info, lay->size, width, repeat};
    lay->nvalues += repeat;
    return 0;
}

/* A repeat count: decimal digits, too large counts rejected. */
static int
scan_count(const char **pp, const char *end, Py_ssize_t *count)
{
    Py_ssize_t n = 0;
    const char *p = *pp;
    while (p < end && *p >= '0' && *p <= '9') {
        int d = *p++ - '0';
        if (n > (PY_SSIZE_T_MAX - d) / 10) {
            return too_long();
        }
        n = n * 10 + d;
    }
    *pp = p;
    *count = n;
    return 0;
}

/* Place `count` items of one code at the current end of the layout. */
static int
place(layout *lay, const codeinfo *info, Py_ssize_t count, int native)
{
    if (native && info->align > 1) {
        Py_ssize_t misalign = lay->size % info->align;
        if (misalign && add_size(&lay->size, info->align - misalign) < 0) {
            return -1;
        }
    }
    if (info->kind == K_PAD) {
        return add_size(&lay->size, count);
    }
    if (info->kind == K_BYTES || info->kind == K_PASCAL) {
        if (push_run(lay, info, count, 1) < 0) {
            return -1;
        }
        return add_size(&lay->size, count);
    }
    if (count == 0) {
        return 0;
    }
    if (count > PY_SSIZE_T_MAX / info->width) {
        return too_long();
    }
    if (push_run(lay, info, info->width, count) < 0) {
        return -1;
    }
    return add_size(&lay->size, count * info->width);
}

static int
is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int
compile_format(const char *fmt, Py_ssize_t len, layout *lay, int *little, int *native)
{
    if ((Py_ssize_t)strlen(fmt) != len) {
        return struct_fail("embedded null character");
    }
    const char *p = fmt, *end = fmt + len;
    *native = 1;
    *little = HOST_LITTLE;
    if (p < end && strchr("@=<>!", *p) != NULL) {
        *native = *p == '@';
        *little = *p == '<' ? 1 : (*p == '>' || *p == '!') ? 0 : HOST_LITTLE;
        p++;
    }
    const codeinfo *table = *native ? native_codes : standard_codes;
    while (p < end) {
        if (is_blank(*p)) {
            p++;
            continue;
        }
        Py_ssize_t count = 1;
        if (*p >= '0' && *p <= '9') {
            if (scan_count(&p, end, &count) < 0) {
                return -1;
            }
            if (p == end) {
                return struct_fail("repeat count given without format specifier");
            }
        }
        const codeinfo *info = find_code(table, *p++);
        if (info == NULL) {
            return struct_fail("bad char in struct format");
        }
        if (place(lay, info, count, *native) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Compile `format` (str or bytes) into self. */
static int
struct_setup(PyStructObject *self, PyObject *format)
{
    PyObject *ascii;
    if (PyUnicode_Check(format)) {
        ascii = PyUnicode_AsASCIIString(format);
        if (ascii == NULL) {
            return -1;
        }
    }
    else if (PyBytes_Check(format)) {
        ascii = Py_NewRef(format);
    }
    else {
        PyErr_Format(PyExc_TypeError,
                     "Struct() argument 1 must be a str or bytes object, not %.200s",
                     Py_TYPE(format)->tp_name);
        return -1;
    }
    layout lay = {0};
    int little, native;
    PyObject *text = NULL;
    if (compile_format(PyBytes_AS_STRING(ascii), PyBytes_GET_SIZE(ascii), &lay, &little,
                       &native) == 0) {
        text = PyUnicode_DecodeASCII(PyBytes_AS_STRING(ascii), PyBytes_GET_SIZE(ascii), NULL);
    }
    Py_DECREF(ascii);
    if (text == NULL) {
        PyMem_Free(lay.runs);
        return -1;
    }
    PyMem_Free(self->s_runs);
    Py_XSETREF(self->s_format, text);
    self->s_runs = lay.runs;
    self->s_nruns = lay.nruns;
    self->s_size = lay.size;
    self->s_len = lay.nvalues;
    self->s_little = little;
    self->s_native = native;
    return 0;
}

/* ---- Packing one value --------------------------------------------------- */

static void
store_uint(unsigned char *p, uint64_t v, int width, int little)
{
    for (int i = 0; i < width; i++) {
        int at = little ? i : width - 1 - i;
        p[at] = (unsigned char)(v >> (8 * i));
    }
}

static uint64_t
load_uint(const unsigned char *p, int width, int little)
{
    uint64_t v = 0;
    for (int i = 0; i < width; i++) {
        int at = little ? i : width - 1 - i;
        v |= (uint64_t)p[at] << (8 * i);
    }
    return v;
}

/* v as an int (through __index__), or struct.error. */
static PyObject *
as_integer(PyObject *v)
{
    if (PyLong_Check(v)) {
        return Py_NewRef(v);
    }
    if (Py_TYPE(v)->tp_as_number != NULL && Py_TYPE(v)->tp_as_number->nb_index != NULL) {
        return PyNumber_Index(v);
    }
    struct_fail("required argument is not an integer");
    return NULL;
}

static int
range_error(const run *r)
{
    int bits = 8 * (int)r->width;
    if (r->info->kind == K_UNSIGNED) {
        unsigned long long hi = bits == 64 ? ULLONG_MAX : (1ULL << bits) - 1;
        PyErr_Format(error_class(), "'%c' format requires 0 <= number <= %llu", r->info->code, hi);
    }
    else {
        long long hi = (long long)((1ULL << (bits - 1)) - 1);
        PyErr_Format(error_class(), "'%c' format requires %lld <= number <= %lld", r->info->code,
                     -hi - 1, hi);
    }
    return -1;
}

/* The integer's bits for a field of r's width, after its range check. */
static int
integer_bits(const run *r, PyObject *v, uint64_t *out)
{
    PyObject *n = as_integer(v);
    if (n == NULL) {
        return -1;
    }
    int negative = _PyLong_Sign(n) < 0;
    int overflow = 0;
    int bits = 8 * (int)r->width;
    if (negative) {
        long long x = PyLong_AsLongLongAndOverflow(n, &overflow);
        *out = (uint64_t)x;
        if (r->info->kind == K_SIGNED && !overflow && bits < 64) {
            overflow = x < -(1LL << (bits - 1));
        }
        overflow |= r->info->kind == K_UNSIGNED;
    }
    else {
        unsigned long long x = PyLong_AsUnsignedLongLong(n);
        if (x == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            overflow = 1;
        }
        *out = x;
        int limit = r->info->kind == K_SIGNED ? bits - 1 : bits;
        overflow |= limit < 64 && x >> limit != 0;
    }
    Py_DECREF(n);
    if (!overflow) {
        return 0;
    }
    if (r->info->kind == K_POINTER) {
        return struct_fail("int too large to convert");
    }
    return range_error(r);
}

static int
float_arg(PyObject *v, double *out)
{
    *out = PyFloat_AsDouble(v);
    if (*out == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return struct_fail("required argument is not a float");
    }
    return 0;
}

/* bytes or bytearray contents for s and p. */
static int
bytes_arg(const run *r, PyObject *v, const char **data, Py_ssize_t *len)
{
    if (PyBytes_Check(v)) {
        *data = PyBytes_AS_STRING(v);
        *len = PyBytes_GET_SIZE(v);
        return 0;
    }
    if (PyByteArray_Check(v)) {
        *data = PyByteArray_AS_STRING(v);
        *len = PyByteArray_GET_SIZE(v);
        return 0;
    }
    PyErr_Format(error_class(), "argument for '%c' must be a bytes object", r->info->code);
    return -1;
}

static int
pack_floating(const PyStructObject *s, const run *r, PyObject *v, unsigned char *p)
{
    double x;
    if (float_arg(v, &x) < 0) {
        return -1;
    }
    switch (r->info->kind) {
    case K_HALF:
        return PyFloat_Pack2(x, (char *)p, s->s_little);
    case K_FLOAT:
        if (s->s_native) {
            /* A C-level conversion, as a C compiler would do it. */
            float f = (float)x;
            memcpy(p, &f, sizeof(f));
            return 0;
        }
        return PyFloat_Pack4(x, (char *)p, s->s_little);
    default:
        if (s->s_native) {
            memcpy(p, &x, sizeof(x));
            return 0;
        }
        return PyFloat_Pack8(x, (char *)p, s->s_little);
    }
}

static int
pack_one(const PyStructObject *s, const run *r, PyObject *v, unsigned char *p)
{
    uint64_t bits;
    const char *data;
    Py_ssize_t len;
    switch (r->info->kind) {
    case K_SIGNED:
    case K_UNSIGNED:
    case K_POINTER:
        if (integer_bits(r, v, &bits) < 0) {
            return -1;
        }
        store_uint(p, bits, (int)r->width, s->s_little);
        return 0;
    case K_BOOL: {
        int t = PyObject_IsTrue(v);
        if (t < 0) {
            return -1;
        }
        p[0] = (unsigned char)t;
        return 0;
    }
    case K_CHAR:
        if (!PyBytes_Check(v) || PyBytes_GET_SIZE(v) != 1) {
            return struct_fail("char format requires a bytes object of length 1");
        }
        p[0] = (unsigned char)PyBytes_AS_STRING(v)[0];
        return 0;
    case K_BYTES:
        if (bytes_arg(r, v, &data, &len) < 0) {
            return -1;
        }
        memcpy(p, data, (size_t)Py_MIN(len, r->width));
        return 0;
    case K_PASCAL:
        if (bytes_arg(r, v, &data, &len) < 0) {
            return -1;
        }
        if (r->width > 0) {
            /* The length byte says how much of the room is used. */
            Py_ssize_t used = Py_MIN(Py_MIN(len, r->width - 1), 255);
            p[0] = (unsigned char)used;
            memcpy(p + 1, data, (size_t)used);
        }
        return 0;
    default:
        return pack_floating(s, r, v, p);
    }
}

/* Pack values[0:s_len] into buf (s_size bytes, already zeroed). */
static int
pack_all(const PyStructObject *s, PyObject *const *values, unsigned char *buf)
{
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < s->s_nruns; i++) {
        const run *r = &s->s_runs[i];
        for (Py_ssize_t j = 0; j < r->repeat; j++) {
            if (pack_one(s, r, values[k++], buf + r->offset + j * r->width) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* ---- Unpacking one value ------------------------------------------------- */

static PyObject *
unpack_floating(const PyStructObject *s, const run *r, const unsigned char *p)
{
    double x;
    if (r->info->kind == K_HALF) {
        x = PyFloat_Unpack2((const char *)p, s->s_little);
    }
    else if (r->info->kind == K_FLOAT) {
        float f;
        memcpy(&f, p, sizeof(f));
        x = s->s_native ? (double)f : PyFloat_Unpack4((const char *)p, s->s_little);
    }
    else if (s->s_native) {
        memcpy(&x, p, sizeof(x));
    }
    else {
        x = PyFloat_Unpack8((const char *)p, s->s_little);
    }
    if (x == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    return PyFloat_FromDouble(x);
}

static PyObject *
unpack_one(const PyStructObject *s, const run *r, const unsigned char *p)
{
    int width = (int)r->width;
    switch (r->info->kind) {
    case K_SIGNED: {
        uint64_t u = load_uint(p, width, s->s_little);
        if (width < 8 && (u >> (8 * width - 1)) != 0) {
            u |= ~(uint64_t)0 << (8 * width); /* sign extension */
        }
        return PyLong_FromLongLong((long long)u);
    }
    case K_UNSIGNED:
    case K_POINTER:
        return PyLong_FromUnsignedLongLong(load_uint(p, width, s->s_little));
    case K_BOOL:
        return PyBool_FromLong(p[0] != 0);
    case K_CHAR:
        return PyBytes_FromStringAndSize((const char *)p, 1);
    case K_BYTES:
        return PyBytes_FromStringAndSize((const char *)p, r->width);
    case K_PASCAL: {
        Py_ssize_t used = r->width > 0 ? Py_MIN((Py_ssize_t)p[0], r->width - 1) : 0;
        return PyBytes_FromStringAndSize((const char *)p + 1, used);
    }
    default:
        return unpack_floating(s, r, p);
    }
}

/* A tuple of the s_len values in buf (at least s_size bytes). */
static PyObject *
unpack_all(const PyStructObject *s, const unsigned char *buf)
{
    PyObject *result = PyTuple_New(s->s_len);
    if (result == NULL) {
        return NULL;
    }
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < s->s_nruns; i++) {
        const run *r = &s->s_runs[i];
        for (Py_ssize_t j = 0; j < r->repeat; j++) {
            PyObject *v = unpack_one(s, r, buf + r->offset + j * r->width);
            if (v == NULL) {
                Py_DECREF(result);
                return NULL;
            }
            PyTuple_SET_ITEM(result, k++, v);
        }
    }
    return result;
}

/* ---- Operations shared by Struct methods and module functions ----------- */

static int
check_count(const PyStructObject *s, const char *what, Py_ssize_t given)
{
    if (given != s->s_len) {
        PyErr_Format(error_class(), "%s expected %zd items for packing (got %zd)", what, s->s_len,
                     given);
        return -1;
    }
    return 0;
}

static PyObject *
do_pack(PyStructObject *s, PyObject *const *args, Py_ssize_t nargs)
{
    if (check_count(s, "pack", nargs) < 0) {
        return NULL;
    }
    PyObject *result = PyBytes_FromStringAndSize(NULL, s->s_size);
    if (result == NULL) {
        return NULL;
    }
    unsigned char *buf = (unsigned char *)PyBytes_AS_STRING(result);
    memset(buf, 0, (size_t)s->s_size);
    if (pack_all(s, args, buf) < 0) {
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

static PyObject *
do_unpack(PyStructObject *s, PyObject *buffer)
{
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    if (view.len != s->s_size) {
        PyErr_Format(error_class(), "unpack requires a buffer of %zd bytes", s->s_size);
    }
    else {
        result = unpack_all(s, view.buf);
    }
    PyBuffer_Release(&view);
    return result;
}

/* Where s_size bytes at `offset` (negative: from the end) fit in a buffer
   of buflen bytes, or -1 with the error for `verb` ("pack" / "unpack"). */
static Py_ssize_t
fit_offset(PyStructObject *s, Py_ssize_t offset, Py_ssize_t buflen, int packing)
{
    Py_ssize_t start = offset;
    if (offset < 0) {
        if (offset + buflen < 0) {
            PyErr_Format(error_class(), "offset %zd out of range for %zd-byte buffer", offset,
                         buflen);
            return -1;
        }
        start = offset + buflen;
        if (buflen - start < s->s_size) {
            PyErr_Format(error_class(),
                         packing ? "no space to pack %zd bytes at offset %zd"
                                 : "not enough data to unpack %zd bytes at offset %zd",
                         s->s_size, offset);
            return -1;
        }
        return start;
    }
    if (offset > buflen || buflen - offset < s->s_size) {
        PyErr_Format(error_class(),
                     packing ? "pack_into requires a buffer of at least %zu bytes for packing "
                               "%zd bytes at offset %zd (actual buffer size is %zd)"
                             : "unpack_from requires a buffer of at least %zu bytes for "
                               "unpacking %zd bytes at offset %zd (actual buffer size is %zd)",
                     (size_t)s->s_size + (size_t)offset, s->s_size, offset, buflen);
        return -1;
    }
    return start;
}

static PyObject *
do_unpack_from(PyStructObject *s, PyObject *buffer, PyObject *offset_obj)
{
    Py_ssize_t offset = 0;
    if (offset_obj != NULL) {
        PyObject *index = PyNumber_Index(offset_obj);
        if (index == NULL) {
            return NULL;
        }
        offset = PyLong_AsSsize_t(index);
        Py_DECREF(index);
        if (offset == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t start = fit_offset(s, offset, view.len, 0);
    if (start >= 0) {
        result = unpack_all(s, (const unsigned char *)view.buf + start);
    }
    PyBuffer_Release(&view);
    return result;
}

/* args: buffer, offset, values... */
static PyObject *
do_pack_into(PyStructObject *s, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1) {
        struct_fail("pack_into expected buffer argument");
        return NULL;
    }
    if (nargs < 2) {
        struct_fail("pack_into expected offset argument");
        return NULL;
    }
    if (check_count(s, "pack_into", nargs - 2) < 0) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_WRITABLE) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "argument must be read-write bytes-like object, not %.100s",
                     Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    Py_ssize_t offset = PyNumber_AsSsize_t(args[1], PyExc_IndexError);
    Py_ssize_t start = -1;
    if (!(offset == -1 && PyErr_Occurred())) {
        start = fit_offset(s, offset, view.len, 1);
    }
    int rc = -1;
    if (start >= 0) {
        /* Pack into a scratch copy, so an error leaves the buffer as it was. */
        unsigned char *tmp = PyMem_Calloc((size_t)(s->s_size ? s->s_size : 1), 1);
        if (tmp == NULL) {
            PyErr_NoMemory();
        }
        else if ((rc = pack_all(s, args + 2, tmp)) == 0) {
            memcpy((unsigned char *)view.buf + start, tmp, (size_t)s->s_size);
        }
        PyMem_Free(tmp);
    }
    PyBuffer_Release(&view);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- unpack_iterator ----------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyStructObject *ui_struct;
    Py_buffer ui_view;
    Py_ssize_t ui_pos;
} unpackiterobject;

static PyTypeObject UnpackIterType;

static PyObject *
do_iter_unpack(PyStructObject *s, PyObject *buffer)
{
    if (s->s_size == 0) {
        struct_fail("cannot iteratively unpack with a struct of length 0");
        return NULL;
    }
    unpackiterobject *it = PyObject_GC_New(unpackiterobject, &UnpackIterType);
    if (it == NULL) {
        return NULL;
    }
    it->ui_struct = NULL;
    it->ui_pos = 0;
    if (PyObject_GetBuffer(buffer, &it->ui_view, PyBUF_SIMPLE) < 0) {
        it->ui_view.obj = NULL;
        Py_DECREF(it);
        return NULL;
    }
    it->ui_struct = (PyStructObject *)Py_NewRef(s);
    if (it->ui_view.len % s->s_size != 0) {
        PyErr_Format(error_class(), "iterative unpacking requires a buffer of a multiple of %zd bytes",
                     s->s_size);
        Py_DECREF(it);
        return NULL;
    }
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

static void
unpackiter_dealloc(PyObject *op)
{
    unpackiterobject *it = (unpackiterobject *)op;
    PyObject_GC_UnTrack(op);
    if (it->ui_view.obj != NULL) {
        PyBuffer_Release(&it->ui_view);
    }
    Py_XDECREF(it->ui_struct);
    PyObject_GC_Del(op);
}

static int
unpackiter_traverse(PyObject *op, visitproc visit, void *arg)
{
    unpackiterobject *it = (unpackiterobject *)op;
    Py_VISIT(it->ui_struct);
    Py_VISIT(it->ui_view.obj);
    return 0;
}

static PyObject *
unpackiter_next(PyObject *op)
{
    unpackiterobject *it = (unpackiterobject *)op;
    if (it->ui_view.obj == NULL || it->ui_pos >= it->ui_view.len) {
        return NULL;
    }
    PyObject *v = unpack_all(it->ui_struct, (const unsigned char *)it->ui_view.buf + it->ui_pos);
    it->ui_pos += it->ui_struct->s_size;
    if (it->ui_pos >= it->ui_view.len) {
        /* Exhausted: let go of the buffer early. */
        PyBuffer_Release(&it->ui_view);
        it->ui_view.obj = NULL;
    }
    return v;
}

static PyObject *
unpackiter_length_hint(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    unpackiterobject *it = (unpackiterobject *)op;
    Py_ssize_t left = 0;
    if (it->ui_view.obj != NULL) {
        left = (it->ui_view.len - it->ui_pos) / it->ui_struct->s_size;
    }
    return PyLong_FromSsize_t(left);
}

static PyMethodDef unpackiter_methods[] = {
    {"__length_hint__", unpackiter_length_hint, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject UnpackIterType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_struct.unpack_iterator",
    .tp_basicsize = sizeof(unpackiterobject),
    .tp_dealloc = unpackiter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = unpackiter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = unpackiter_next,
    .tp_methods = unpackiter_methods,
};

/* ---- The Struct type ----------------------------------------------------- */

/* The one argument of Struct(format) and Struct.__init__(format). */
static PyObject *
format_argument(PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"format", NULL};
    PyObject *format = NULL;
    return PyArg_ParseTupleAndKeywords(args, kwargs, "O:Struct", names, &format) ? format : NULL;
}

static PyObject *
struct_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *format = format_argument(args, kwargs);
    PyObject *self = format == NULL ? NULL : type->tp_alloc(type, 0);
    if (self != NULL && struct_setup((PyStructObject *)self, format) < 0) {
        Py_CLEAR(self);
    }
    return self;
}

/* Struct.__init__(format) compiles the format again unless new() already
   compiled this one. */
static int
struct_init(PyObject *op, PyObject *args, PyObject *kwargs)
{
    PyStructObject *self = (PyStructObject *)op;
    PyObject *format = format_argument(args, kwargs);
    if (format == NULL) {
        return -1;
    }
    int same = self->s_format != NULL && PyUnicode_Check(format) &&
               PyUnicode_Compare(format, self->s_format) == 0;
    return same ? 0 : struct_setup(self, format);
}

static void
struct_dealloc(PyObject *op)
{
    PyStructObject *self = (PyStructObject *)op;
    if (self->s_weakreflist != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    PyMem_Free(self->s_runs);
    Py_XDECREF(self->s_format);
    Py_TYPE(op)->tp_free(op);
}

static PyObject *
struct_repr(PyObject *op)
{
    return PyUnicode_FromFormat("Struct(%R)", ((PyStructObject *)op)->s_format);
}

static PyObject *
struct_pack(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    return do_pack((PyStructObject *)op, args, nargs);
}

static PyObject *
struct_pack_into(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    return do_pack_into((PyStructObject *)op, args, nargs);
}

static PyObject *
struct_unpack(PyObject *op, PyObject *buffer)
{
    return do_unpack((PyStructObject *)op, buffer);
}

static PyObject *
struct_unpack_from(PyObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"buffer", "offset", NULL};
    PyObject *a[2];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "unpack_from", kwlist, 1, 2, 0, a)) {
        return NULL;
    }
    return do_unpack_from((PyStructObject *)op, a[0], a[1]);
}

static PyObject *
struct_iter_unpack(PyObject *op, PyObject *buffer)
{
    return do_iter_unpack((PyStructObject *)op, buffer);
}

static PyObject *
struct_sizeof(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    PyStructObject *self = (PyStructObject *)op;
    return PyLong_FromSsize_t((Py_ssize_t)(Py_TYPE(op)->tp_basicsize +
                                           self->s_nruns * (Py_ssize_t)sizeof(run)));
}

static PyObject *
struct_get_format(PyObject *op, void *Py_UNUSED(closure))
{
    return Py_NewRef(((PyStructObject *)op)->s_format);
}

static PyObject *
struct_get_size(PyObject *op, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(((PyStructObject *)op)->s_size);
}

static PyMethodDef struct_methods[] = {
    {"pack", _PyCFunction_CAST(struct_pack), METH_FASTCALL,
     "pack($self, /, *values)\n--\n\nThe values packed into a new bytes object."},
    {"pack_into", _PyCFunction_CAST(struct_pack_into), METH_FASTCALL,
     "pack_into($self, buffer, offset, /, *values)\n--\n\n"
     "Pack the values into a writable buffer at offset."},
    {"unpack", struct_unpack, METH_O,
     "unpack($self, buffer, /)\n--\n\nThe values in a buffer of exactly size bytes."},
    {"unpack_from", _PyCFunction_CAST(struct_unpack_from), METH_FASTCALL | METH_KEYWORDS,
     "unpack_from($self, /, buffer, offset=0)\n--\n\n"
     "The values at offset in a buffer that may be longer."},
    {"iter_unpack", struct_iter_unpack, METH_O,
     "iter_unpack($self, buffer, /)\n--\n\nAn iterator over consecutive records of a buffer."},
    {"__sizeof__", struct_sizeof, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef struct_getset[] = {
    {"format", struct_get_format, NULL, "The format string, as a str.", NULL},
    {"size", struct_get_size, NULL, "Bytes of packed data.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject PyStructType = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_struct.Struct",
    .tp_basicsize = sizeof(PyStructObject),
    .tp_dealloc = struct_dealloc,
    .tp_repr = struct_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Struct(format)\n--\n\nA compiled struct format, with pack and unpack methods.",
    .tp_weaklistoffset = offsetof(PyStructObject, s_weakreflist),
    .tp_methods = struct_methods,
    .tp_getset = struct_getset,
    .tp_init = struct_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = struct_new,
    .tp_free = PyObject_Free,
};

/* ---- Module functions ---------------------------------------------------- */

/* The compiled Struct for a format, from the cache when it is there. */
static PyStructObject *
cached_struct(PyObject *format)
{
    if (!PyUnicode_Check(format) && !PyBytes_Check(format)) {
        PyErr_Format(PyExc_TypeError,
                     "Struct() argument 1 must be a str or bytes object, not %.200s",
                     Py_TYPE(format)->tp_name);
        return NULL;
    }
    /* (Without the cache, once the module is gone at exit, just compile.) */
    PyObject *s = format_cache ? PyDict_GetItemWithError(format_cache, format) : NULL;
    if (s != NULL) {
        return (PyStructObject *)Py_NewRef(s);
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    s = PyObject_CallOneArg((PyObject *)&PyStructType, format);
    if (s == NULL || format_cache == NULL) {
        return (PyStructObject *)s;
    }
    if (PyDict_GET_SIZE(format_cache) >= CACHE_LIMIT) {
        PyDict_Clear(format_cache);
    }
    if (PyDict_SetItem(format_cache, format, s) < 0) {
        Py_DECREF(s);
        return NULL;
    }
    return (PyStructObject *)s;
}

static PyObject *
mod_calcsize(PyObject *m, PyObject *format)
{
    PyStructObject *s = cached_struct(format);
    if (s == NULL) {
        return NULL;
    }
    PyObject *result = PyLong_FromSsize_t(s->s_size);
    Py_DECREF(s);
    return result;
}

static PyObject *
mod_pack(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs == 0) {
        PyErr_SetString(PyExc_TypeError, "missing format argument");
        return NULL;
    }
    PyStructObject *s = cached_struct(args[0]);
    if (s == NULL) {
        return NULL;
    }
    PyObject *result = do_pack(s, args + 1, nargs - 1);
    Py_DECREF(s);
    return result;
}

static PyObject *
mod_pack_into(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs == 0) {
        PyErr_SetString(PyExc_TypeError, "missing format argument");
        return NULL;
    }
    PyStructObject *s = cached_struct(args[0]);
    if (s == NULL) {
        return NULL;
    }
    PyObject *result = do_pack_into(s, args + 1, nargs - 1);
    Py_DECREF(s);
    return result;
}

static PyObject *
mod_unpack(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("unpack", nargs, 2, 2)) {
        return NULL;
    }
    PyStructObject *s = cached_struct(args[0]);
    if (s == NULL) {
        return NULL;
    }
    PyObject *result = do_unpack(s, args[1]);
    Py_DECREF(s);
    return result;
}

static PyObject *
mod_unpack_from(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "buffer", "offset", NULL};
    PyObject *a[3];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "unpack_from", kwlist, 1, 3, 0, a)) {
        return NULL;
    }
    if (a[1] == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "unpack_from() missing required argument 'buffer' (pos 2)");
        return NULL;
    }
    PyStructObject *s = cached_struct(a[0]);
    if (s == NULL) {
        return NULL;
    }
    PyObject *result = do_unpack_from(s, a[1], a[2]);
    Py_DECREF(s);
    return result;
}

static PyObject *
mod_iter_unpack(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("iter_unpack", nargs, 2, 2)) {
        return NULL;
    }
    PyStructObject *s = cached_struct(args[0]);
    if (s == NULL) {
        return NULL;
    }
    PyObject *result = do_iter_unpack(s, args[1]);
    Py_DECREF(s);
    return result;
}

static PyObject *
mod_clearcache(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    if (format_cache != NULL) {
        PyDict_Clear(format_cache);
    }
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"calcsize", mod_calcsize, METH_O,
     "calcsize($module, format, /)\n--\n\nBytes that the format packs into."},
    {"pack", _PyCFunction_CAST(mod_pack), METH_FASTCALL,
     "pack(format, /, *values)\n--\n\nThe values packed by the format into bytes."},
    {"pack_into", _PyCFunction_CAST(mod_pack_into), METH_FASTCALL,
     "pack_into(format, buffer, offset, /, *values)\n--\n\n"
     "Pack the values into a writable buffer at offset."},
    {"unpack", _PyCFunction_CAST(mod_unpack), METH_FASTCALL,
     "unpack($module, format, buffer, /)\n--\n\n"
     "The values in a buffer whose size matches the format."},
    {"unpack_from", _PyCFunction_CAST(mod_unpack_from), METH_FASTCALL | METH_KEYWORDS,
     "unpack_from($module, format, /, buffer, offset=0)\n--\n\n"
     "The values at offset in a buffer that may be longer."},
    {"iter_unpack", _PyCFunction_CAST(mod_iter_unpack), METH_FASTCALL,
     "iter_unpack($module, format, buffer, /)\n--\n\n"
     "An iterator over consecutive records of a buffer."},
    {"_clearcache", mod_clearcache, METH_NOARGS, "Forget the compiled formats."},
    {NULL, NULL, 0, NULL},
};

/* The module that owns the error class and the cache (borrowed): the
   last one made, should _struct be imported again. */
static PyObject *owner_module;

/* When the owning module goes (at exit), so do the cache and the error
   class, so they are not left behind. */
static void
struct_module_free(void *m)
{
    if (m == owner_module) {
        Py_CLEAR(format_cache);
        Py_CLEAR(StructError);
        owner_module = NULL;
    }
}

static struct PyModuleDef structmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_struct",
    .m_doc = "Pack Python values into bytes laid out like C structs, and unpack them.\n\n"
             "A format starts with an optional byte order and size mode:\n"
             "  @ native order, sizes and alignment (the default)\n"
             "  = native order, standard sizes;  < little-endian;  > and ! big-endian\n"
             "then codes, each optionally preceded by a repeat count:\n"
             "  x pad byte, c bytes of length 1, b/B signed/unsigned char, ? bool,\n"
             "  h/H short, i/I int, l/L long, q/Q long long, n/N ssize_t/size_t\n"
             "  (native only), e half float, f float, d double, s bytes, p Pascal\n"
             "  string, P pointer (native only).\n"
             "Whitespace between codes is ignored.",
    .m_size = -1,
    .m_methods = module_methods,
    .m_free = struct_module_free,
};

PyObject *
PyInit__struct(void)
{
    if (_PyStaticType_InitBuiltin(&PyStructType) < 0 || _PyStaticType_InitBuiltin(&UnpackIterType) < 0) {
        return NULL;
    }
    if (format_cache == NULL && (format_cache = PyDict_New()) == NULL) {
        return NULL;
    }
    if (StructError == NULL &&
        (StructError = PyErr_NewException("struct.error", NULL, NULL)) == NULL) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&structmodule);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "error", StructError) < 0 ||
        PyModule_AddObjectRef(m, "Struct", (PyObject *)&PyStructType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    owner_module = m;
    return m;
}
