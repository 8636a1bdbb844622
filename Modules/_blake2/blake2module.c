/* _blake2: the BLAKE2b and BLAKE2s hashes (RFC 7693) with keys, salt,
   personalisation and tree parameters, as hashlib.blake2b/blake2s.
   hashlib takes these from here rather than from OpenSSL, whose BLAKE2
   has no parameters. */

#include "Python.h"
#include "pycore_modsupport.h"
#include "pycore_long.h"
#include "pycore_object.h"

#include <stdint.h>
#include <string.h>

/* Message word order for each round (RFC 7693, section 2.7). */
static const unsigned char blake2_sigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

/* The initial values are SHA-512's and SHA-256's. */
static const uint64_t iv_b[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};
static const uint32_t iv_s[8] = {
    0x6a09e667UL, 0xbb67ae85UL, 0x3c6ef372UL, 0xa54ff53aUL,
    0x510e527fUL, 0x9b05688cUL, 0x1f83d9abUL, 0x5be0cd19UL,
};

#define B2_NAME(x) b2b_##x
#define B2_WORD uint64_t
#define B2_ROUNDS 12
#define B2_R1 32
#define B2_R2 24
#define B2_R3 16
#define B2_R4 63
#define B2_IV iv_b
#include "blake2_core.h"
#undef B2_NAME
#undef B2_WORD
#undef B2_ROUNDS
#undef B2_R1
#undef B2_R2
#undef B2_R3
#undef B2_R4
#undef B2_IV

#define B2_NAME(x) b2s_##x
#define B2_WORD uint32_t
#define B2_ROUNDS 10
#define B2_R1 16
#define B2_R2 12
#define B2_R3 8
#define B2_R4 7
#define B2_IV iv_s
#include "blake2_core.h"

/* ---- The two variants as seen from Python ---------------------------------- */

typedef struct {
    const char *name;
    int max_digest;   /* also the key limit and the parameter block size / 2 */
    int salt_size;
    int person_size;
    int block_size;
    int offset_bytes; /* width of node_offset in the parameter block */
} variant;

static const variant variant_b = {"blake2b", 64, 16, 16, 128, 8};
static const variant variant_s = {"blake2s", 32, 8, 8, 64, 6};

typedef struct {
    PyObject_HEAD
    const variant *v;
    union {
        b2b_state b;
        b2s_state s;
    } st;
} Blake2Object;

static PyTypeObject Blake2b_Type;
static PyTypeObject Blake2s_Type;

static void
absorb(Blake2Object *o, const unsigned char *p, size_t n)
{
    if (o->v == &variant_b) {
        b2b_absorb(&o->st.b, p, n);
    }
    else {
        b2s_absorb(&o->st.s, p, n);
    }
}

static int
feed(Blake2Object *o, PyObject *data)
{
    const char *refusal = NULL;
    if (PyUnicode_Check(data)) {
        refusal = "Strings must be encoded before hashing";
    }
    else if (!PyObject_CheckBuffer(data)) {
        refusal = "object supporting the buffer API required";
    }
    Py_buffer view;
    if (refusal != NULL) {
        PyErr_SetString(PyExc_TypeError, refusal);
        return -1;
    }
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    absorb(o, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    return 0;
}

/* ---- Parameters --------------------------------------------------------------- */

/* Everything the constructor's keywords set, before it is encoded. */
typedef struct {
    long digest_size, fanout, depth, node_depth, inner_size;
    unsigned long long leaf_size, node_offset;
    int last_node;
    Py_buffer key, salt, person;
} params;

/* An int keyword in [lo, hi]; a missing one keeps its default. */
static int
small_int(PyObject *obj, const char *what, long lo, long hi, long *out)
{
    if (obj == NULL) {
        return 0;
    }
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be between %ld and %ld", what, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* A non-negative int keyword of at most `bits` bits. */
static int
wide_int(PyObject *obj, const char *what, int bits, unsigned long long *out)
{
    if (obj == NULL) {
        return 0;
    }
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be int, not %.100s", what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    int neg = PyObject_RichCompareBool(obj, _PyLong_GetZero(), Py_LT);
    if (neg != 0) {
        if (neg > 0) {
            PyErr_Format(PyExc_ValueError, "%s must not be negative", what);
        }
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if ((v == (unsigned long long)-1 && PyErr_Occurred()) ||
        (bits < 64 && v >> bits != 0)) {
        PyErr_Clear();
        PyErr_Format(PyExc_OverflowError, "%s is too large", what);
        return -1;
    }
    *out = v;
    return 0;
}

/* A bytes-like keyword of at most `max` bytes; missing means empty. */
static int
bytes_param(PyObject *obj, const char *what, int max, Py_buffer *view)
{
    view->obj = NULL;
    view->len = 0;
    if (obj == NULL) {
        return 0;
    }
    if (PyUnicode_Check(obj) || !PyObject_CheckBuffer(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be a bytes-like object, not %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) {
        view->obj = NULL;
        return -1;
    }
    if (view->len > max) {
        PyErr_Format(PyExc_ValueError, "maximum %s length is %d bytes", what, max);
        return -1;
    }
    return 0;
}

static void
release_params(params *p)
{
    Py_buffer *views[3] = {&p->key, &p->salt, &p->person};
    for (int i = 0; i < 3; i++) {
        if (views[i]->obj != NULL) {
            PyBuffer_Release(views[i]);
        }
    }
}

/* a[] holds the keywords after `data`, in kwlist order. */
static int
read_params(const variant *v, PyObject *const *a, params *p)
{
    memset(p, 0, sizeof(*p));
    p->digest_size = v->max_digest;
    p->fanout = 1;
    p->depth = 1;
    if (bytes_param(a[1], "key", v->max_digest, &p->key) < 0 ||
        bytes_param(a[2], "salt", v->salt_size, &p->salt) < 0 ||
        bytes_param(a[3], "person", v->person_size, &p->person) < 0) {
        return -1;
    }
    if (a[0] != NULL && small_int(a[0], "digest_size", 1, v->max_digest, &p->digest_size) < 0) {
        PyErr_Format(PyExc_ValueError, "digest_size must be between 1 and %d bytes",
                     v->max_digest);
        return -1;
    }
    if (small_int(a[4], "fanout", 0, 255, &p->fanout) < 0 ||
        small_int(a[5], "depth", 1, 255, &p->depth) < 0 ||
        wide_int(a[6], "leaf_size", 32, &p->leaf_size) < 0 ||
        wide_int(a[7], "node_offset", 8 * v->offset_bytes, &p->node_offset) < 0 ||
        small_int(a[8], "node_depth", 0, 255, &p->node_depth) < 0 ||
        small_int(a[9], "inner_size", 0, v->max_digest, &p->inner_size) < 0) {
        return -1;
    }
    if (a[10] != NULL && (p->last_node = PyObject_IsTrue(a[10])) < 0) {
        return -1;
    }
    return 0;
}

static void
put_le(unsigned char *out, unsigned long long value, int nbytes)
{
    for (int i = 0; i < nbytes; i++) {
        out[i] = (unsigned char)(value >> (8 * i));
    }
}

/* The parameter block (section 2.5 of the BLAKE2 paper), max_digest bytes:
   lengths and tree shape first, salt and personalisation in the upper half. */
static void
encode_params(const variant *v, const params *p, unsigned char *block)
{
    memset(block, 0, (size_t)v->max_digest);
    block[0] = (unsigned char)p->digest_size;
    block[1] = (unsigned char)p->key.len;
    block[2] = (unsigned char)p->fanout;
    block[3] = (unsigned char)p->depth;
    put_le(block + 4, p->leaf_size, 4);
    put_le(block + 8, p->node_offset, v->offset_bytes);
    block[8 + v->offset_bytes] = (unsigned char)p->node_depth;
    block[9 + v->offset_bytes] = (unsigned char)p->inner_size;
    unsigned char *salt = block + v->max_digest / 2;
    if (p->salt.len > 0) {
        memcpy(salt, p->salt.buf, (size_t)p->salt.len);
    }
    if (p->person.len > 0) {
        memcpy(salt + v->salt_size, p->person.buf, (size_t)p->person.len);
    }
}

static void
start_state(Blake2Object *o, const params *p)
{
    unsigned char block[64];
    encode_params(o->v, p, block);
    const unsigned char *key = p->key.len > 0 ? p->key.buf : NULL;
    if (o->v == &variant_b) {
        b2b_start(&o->st.b, block, key, (int)p->key.len, (int)p->digest_size, p->last_node);
    }
    else {
        b2s_start(&o->st.s, block, key, (int)p->key.len, (int)p->digest_size, p->last_node);
    }
}

/* ---- The type ------------------------------------------------------------------- */

static PyObject *
blake2_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {
        "data", "digest_size", "key", "salt", "person", "fanout", "depth",
        "leaf_size", "node_offset", "node_depth", "inner_size", "last_node",
        "usedforsecurity", "string", NULL,
    };
    const variant *v = PyType_IsSubtype(type, &Blake2b_Type) ? &variant_b : &variant_s;
    PyObject *a[14];
    if (!_PyArg_ParseTupleAndKeywordsStack(args, kwargs, v->name, kwlist, 0, 1, 0, a)) {
        return NULL;
    }
    if (a[0] != NULL && a[13] != NULL) {
        PyErr_SetString(PyExc_TypeError, "'data' and 'string' cannot both be given");
        return NULL;
    }
    PyObject *data = a[0] != NULL ? a[0] : a[13];
    params p;
    if (read_params(v, a + 1, &p) < 0) {
        release_params(&p);
        return NULL;
    }
    Blake2Object *o = (Blake2Object *)type->tp_alloc(type, 0);
    if (o != NULL) {
        o->v = v;
        start_state(o, &p);
    }
    release_params(&p);
    if (o != NULL && data != NULL && feed(o, data) < 0) {
        Py_CLEAR(o);
    }
    return (PyObject *)o;
}

static int
output_size(Blake2Object *o)
{
    return o->v == &variant_b ? o->st.b.outlen : o->st.s.outlen;
}

static void
finish(Blake2Object *o, unsigned char *out)
{
    if (o->v == &variant_b) {
        b2b_finish(&o->st.b, out);
    }
    else {
        b2s_finish(&o->st.s, out);
    }
}

static PyObject *
blake2_update(PyObject *self, PyObject *data)
{
    if (feed((Blake2Object *)self, data) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
blake2_digest(PyObject *self, PyObject *unused)
{
    unsigned char out[64];
    Blake2Object *o = (Blake2Object *)self;
    finish(o, out);
    return PyBytes_FromStringAndSize((char *)out, output_size(o));
}

static PyObject *
blake2_hexdigest(PyObject *self, PyObject *unused)
{
    static const char digits[] = "0123456789abcdef";
    unsigned char out[64];
    char text[128];
    Blake2Object *o = (Blake2Object *)self;
    finish(o, out);
    int n = output_size(o);
    for (int i = 0; i < n; i++) {
        text[2 * i] = digits[out[i] >> 4];
        text[2 * i + 1] = digits[out[i] & 15];
    }
    return PyUnicode_FromStringAndSize(text, 2 * n);
}

static PyObject *
blake2_copy(PyObject *self, PyObject *unused)
{
    Blake2Object *o = (Blake2Object *)self;
    Blake2Object *c = (Blake2Object *)Py_TYPE(self)->tp_alloc(Py_TYPE(self), 0);
    if (c != NULL) {
        c->v = o->v;
        c->st = o->st;
    }
    return (PyObject *)c;
}

static PyObject *
blake2_get_name(PyObject *self, void *closure)
{
    return PyUnicode_FromString(((Blake2Object *)self)->v->name);
}

static PyObject *
blake2_get_digest_size(PyObject *self, void *closure)
{
    return PyLong_FromLong(output_size((Blake2Object *)self));
}

static PyObject *
blake2_get_block_size(PyObject *self, void *closure)
{
    return PyLong_FromLong(((Blake2Object *)self)->v->block_size);
}

static PyMethodDef blake2_methods[] = {
    {"update", blake2_update, METH_O, "update($self, data, /)\n--\n\nAdd bytes to the hashed data."},
    {"digest", blake2_digest, METH_NOARGS, "digest($self, /)\n--\n\nThe digest of the data so far."},
    {"hexdigest", blake2_hexdigest, METH_NOARGS,
     "hexdigest($self, /)\n--\n\nThe digest as a string of hex digits."},
    {"copy", blake2_copy, METH_NOARGS, "copy($self, /)\n--\n\nAn independent clone of this hash."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef blake2_getset[] = {
    {"name", blake2_get_name, NULL, "'blake2b' or 'blake2s'.", NULL},
    {"digest_size", blake2_get_digest_size, NULL, "Bytes in a digest.", NULL},
    {"block_size", blake2_get_block_size, NULL, "Bytes in the algorithm's block.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define BLAKE2_TYPE(NAME, DOC)                                          \
    {                                                                   \
        PyVarObject_HEAD_INIT(&PyType_Type, 0)                          \
        .tp_name = "_blake2." NAME,                                     \
        .tp_basicsize = sizeof(Blake2Object),                           \
        .tp_getattro = PyObject_GenericGetAttr,                         \
        .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,           \
        .tp_doc = DOC,                                                  \
        .tp_methods = blake2_methods,                                   \
        .tp_getset = blake2_getset,                                     \
        .tp_alloc = PyType_GenericAlloc,                                \
        .tp_new = blake2_new,                                           \
        .tp_free = PyObject_Free,                                       \
    }

static PyTypeObject Blake2b_Type = BLAKE2_TYPE(
    "blake2b", "blake2b(data=b'', *, digest_size=64, key=b'', salt=b'', person=b'', fanout=1, "
               "depth=1, leaf_size=0, node_offset=0, node_depth=0, inner_size=0, "
               "last_node=False, usedforsecurity=True)\n--\n\n"
               "A BLAKE2b hash object (64-bit words, digests up to 64 bytes).");
static PyTypeObject Blake2s_Type = BLAKE2_TYPE(
    "blake2s", "blake2s(data=b'', *, digest_size=32, key=b'', salt=b'', person=b'', fanout=1, "
               "depth=1, leaf_size=0, node_offset=0, node_depth=0, inner_size=0, "
               "last_node=False, usedforsecurity=True)\n--\n\n"
               "A BLAKE2s hash object (32-bit words, digests up to 32 bytes).");

/* ---- Module ----------------------------------------------------------------------- */

static struct PyModuleDef blake2module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_blake2",
    .m_doc = "The BLAKE2b and BLAKE2s hash functions (RFC 7693).",
    .m_size = -1,
};

/* Ready a type for the life of the process and give it its size
   constants. */
static int
ready_type(PyTypeObject *type, const variant *v)
{
    if (type->tp_dict != NULL) {
        return 0;
    }
    if (_PyStaticType_InitBuiltin(type) < 0) {
        return -1;
    }
    const struct {
        const char *name;
        int value;
    } consts[] = {
        {"SALT_SIZE", v->salt_size},
        {"PERSON_SIZE", v->person_size},
        {"MAX_KEY_SIZE", v->max_digest},
        {"MAX_DIGEST_SIZE", v->max_digest},
    };
    for (int i = 0; i < 4; i++) {
        PyObject *n = PyLong_FromLong(consts[i].value);
        if (n == NULL || PyDict_SetItemString(type->tp_dict, consts[i].name, n) < 0) {
            Py_XDECREF(n);
            return -1;
        }
        Py_DECREF(n);
    }
    Py_ssize_t pos = 0;
    PyObject *name, *attr;
    while (PyDict_Next(type->tp_dict, &pos, &name, &attr)) {
        _Py_SetImmortal(name);
        _Py_SetImmortal(attr);
    }
    return 0;
}

static int
add_constants(PyObject *m)
{
    const struct {
        const char *name;
        int value;
    } consts[] = {
        {"BLAKE2B_SALT_SIZE", 16}, {"BLAKE2B_PERSON_SIZE", 16},
        {"BLAKE2B_MAX_KEY_SIZE", 64}, {"BLAKE2B_MAX_DIGEST_SIZE", 64},
        {"BLAKE2S_SALT_SIZE", 8}, {"BLAKE2S_PERSON_SIZE", 8},
        {"BLAKE2S_MAX_KEY_SIZE", 32}, {"BLAKE2S_MAX_DIGEST_SIZE", 32},
    };
    for (size_t i = 0; i < sizeof(consts) / sizeof(consts[0]); i++) {
        if (PyModule_AddIntConstant(m, consts[i].name, consts[i].value) < 0) {
            return -1;
        }
    }
    return 0;
}

PyObject *
PyInit__blake2(void)
{
    if (ready_type(&Blake2b_Type, &variant_b) < 0 || ready_type(&Blake2s_Type, &variant_s) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&blake2module);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "blake2b", (PyObject *)&Blake2b_Type) < 0 ||
        PyModule_AddObjectRef(m, "blake2s", (PyObject *)&Blake2s_Type) < 0 ||
        add_constants(m) < 0) {
        Py_CLEAR(m);
    }
    return m;
}
