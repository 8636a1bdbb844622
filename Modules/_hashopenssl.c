/* _hashlib: message digests, HMAC and key derivation over OpenSSL 3's
   EVP interface.  hashlib and hmac prefer it to the built-in hashes;
   only blake2 comes from the _blake2 module instead.

   Built only when configure found libcrypto (HAVE_OPENSSL), as a shared
   object (build/lib-dynload) so that libcrypto is loaded only by programs
   that import hashlib. */

#include "Python.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"

#ifdef HAVE_OPENSSL

/* The HMAC_CTX calls are deprecated in OpenSSL 3 but still supported; they
   accept an empty key, which the EVP_MAC route does not. */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <ctype.h>

static PyObject *UnsupportedError;   /* _hashlib.UnsupportedDigestmodError */

/* ---- Names ---------------------------------------------------------------- */

/* hashlib's spelling of a digest and OpenSSL's. */
static const struct {
    const char *py;
    const char *ossl;
} digest_names[] = {
    {"md5", "MD5"},
    {"sha1", "SHA1"},
    {"sha224", "SHA2-224"},
    {"sha256", "SHA2-256"},
    {"sha384", "SHA2-384"},
    {"sha512", "SHA2-512"},
    {"sha512_224", "SHA2-512/224"},
    {"sha512_256", "SHA2-512/256"},
    {"sha3_224", "SHA3-224"},
    {"sha3_256", "SHA3-256"},
    {"sha3_384", "SHA3-384"},
    {"sha3_512", "SHA3-512"},
    {"shake_128", "SHAKE-128"},
    {"shake_256", "SHAKE-256"},
    {"blake2b", "BLAKE2B-512"},
    {"blake2s", "BLAKE2S-256"},
    {NULL, NULL},
};

/* The hashlib name of a digest: from the table, else OpenSSL's own name
   in lower case. */
static PyObject *
python_name(const EVP_MD *md)
{
    for (int i = 0; digest_names[i].py != NULL; i++) {
        if (EVP_MD_is_a(md, digest_names[i].ossl)) {
            return PyUnicode_FromString(digest_names[i].py);
        }
    }
    const char *own = EVP_MD_get0_name(md);
    char buf[64];
    size_t n = strlen(own);
    if (n >= sizeof(buf)) {
        n = sizeof(buf) - 1;
    }
    for (size_t i = 0; i < n; i++) {
        buf[i] = (char)tolower((unsigned char)own[i]);
    }
    return PyUnicode_FromStringAndSize(buf, (Py_ssize_t)n);
}

/* Fetch the digest called `name` (hashlib's or OpenSSL's spelling); raises
   UnsupportedDigestmodError when OpenSSL has none.  The caller frees it. */
static EVP_MD *
fetch_digest(const char *name)
{
    const char *ossl = name;
    for (int i = 0; digest_names[i].py != NULL; i++) {
        if (strcmp(digest_names[i].py, name) == 0) {
            ossl = digest_names[i].ossl;
            break;
        }
    }
    EVP_MD *md = EVP_MD_fetch(NULL, ossl, NULL);
    ERR_clear_error();
    if (md == NULL) {
        PyErr_Format(UnsupportedError, "unsupported hash type %s", name);
    }
    return md;
}

static EVP_MD *
fetch_digest_obj(PyObject *name)
{
    Py_ssize_t len = 0;
    const char *text = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, &len) : NULL;
    if (text != NULL && strlen(text) == (size_t)len) {
        return fetch_digest(text);
    }
    if (text != NULL) {
        PyErr_SetString(UnsupportedError, "hash name contains a NUL character");
    }
    else if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "hash name must be str, not %.100s", Py_TYPE(name)->tp_name);
    }
    return NULL;
}

/* A ValueError carrying OpenSSL's most recent error, or `fallback`. */
static void
raise_openssl(const char *fallback)
{
    unsigned long code = ERR_peek_last_error();
    const char *reason = code ? ERR_reason_error_string(code) : NULL;
    ERR_clear_error();
    PyErr_SetString(PyExc_ValueError, reason != NULL ? reason : fallback);
}

/* ---- Data arguments --------------------------------------------------------- */

/* A read-only view of hashable data: a str is refused as the hashes'
   messages say, anything else must support the buffer protocol. */
static int
data_view(PyObject *obj, Py_buffer *view)
{
    if (PyUnicode_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "Strings must be encoded before hashing");
        return -1;
    }
    if (!PyObject_CheckBuffer(obj)) {
        PyErr_SetString(PyExc_TypeError, "object supporting the buffer API required");
        return -1;
    }
    return PyObject_GetBuffer(obj, view, PyBUF_SIMPLE);
}

static PyObject *
hex_of(const unsigned char *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    PyObject *s = PyUnicode_New((Py_ssize_t)n * 2, 127);
    if (s == NULL) {
        return NULL;
    }
    Py_UCS1 *out = PyUnicode_1BYTE_DATA(s);
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = (Py_UCS1)digits[p[i] >> 4];
        out[2 * i + 1] = (Py_UCS1)digits[p[i] & 15];
    }
    return s;
}

/* ---- HASH and HASHXOF ----------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    EVP_MD_CTX *ctx;
    PyObject *name; /* hashlib's name, e.g. 'sha256' */
} HashObject;

static PyTypeObject Hash_Type;
static PyTypeObject HashXof_Type;

static int
feed(HashObject *h, PyObject *data)
{
    Py_buffer view;
    if (data_view(data, &view) < 0) {
        return -1;
    }
    int ok = EVP_DigestUpdate(h->ctx, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (!ok) {
        raise_openssl("digest update failed");
        return -1;
    }
    return 0;
}

static HashObject *
hash_alloc(const EVP_MD *md, PyObject *name)
{
    int xof = (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) != 0;
    PyTypeObject *type = xof ? &HashXof_Type : &Hash_Type;
    HashObject *h = PyObject_New(HashObject, type);
    if (h == NULL) {
        return NULL;
    }
    h->name = Py_NewRef(name);
    h->ctx = EVP_MD_CTX_new();
    if (h->ctx == NULL) {
        Py_DECREF(h);
        PyErr_NoMemory();
        return NULL;
    }
    return h;
}

static PyObject *
hash_start(EVP_MD *md, PyObject *data)
{
    PyObject *name = python_name(md);
    HashObject *h = name == NULL ? NULL : hash_alloc(md, name);
    Py_XDECREF(name);
    if (h != NULL && !EVP_DigestInit_ex(h->ctx, md, NULL)) {
        raise_openssl("digest initialisation failed");
        Py_CLEAR(h);
    }
    EVP_MD_free(md);
    if (h != NULL && data != NULL && feed(h, data) < 0) {
        Py_CLEAR(h);
    }
    return (PyObject *)h;
}

static void
hash_dealloc(PyObject *self)
{
    HashObject *h = (HashObject *)self;
    if (h->ctx != NULL) {
        EVP_MD_CTX_free(h->ctx);
    }
    Py_XDECREF(h->name);
    PyObject_Free(self);
}

static PyObject *
hash_copy(PyObject *self, PyObject *unused)
{
    HashObject *h = (HashObject *)self;
    HashObject *c = hash_alloc(EVP_MD_CTX_get0_md(h->ctx), h->name);
    if (c != NULL && !EVP_MD_CTX_copy_ex(c->ctx, h->ctx)) {
        raise_openssl("digest copy failed");
        Py_CLEAR(c);
    }
    return (PyObject *)c;
}

static PyObject *
hash_update(PyObject *self, PyObject *data)
{
    if (feed((HashObject *)self, data) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* Finish a copy of the context, so the object can go on being updated.
   `len` is the output length for an XOF, ignored otherwise. */
static int
finish_into(HashObject *h, unsigned char *out, size_t len)
{
    EVP_MD_CTX *tmp = EVP_MD_CTX_new();
    if (tmp == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int ok = EVP_MD_CTX_copy_ex(tmp, h->ctx);
    if (ok) {
        if (Py_IS_TYPE(h, &HashXof_Type)) {
            ok = len == 0 || EVP_DigestFinalXOF(tmp, out, len);
        }
        else {
            ok = EVP_DigestFinal_ex(tmp, out, NULL);
        }
    }
    EVP_MD_CTX_free(tmp);
    if (!ok) {
        raise_openssl("digest finalisation failed");
        return -1;
    }
    return 0;
}

static PyObject *
hash_digest(PyObject *self, PyObject *unused)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    HashObject *h = (HashObject *)self;
    if (finish_into(h, out, 0) < 0) {
        return NULL;
    }
    return PyBytes_FromStringAndSize((char *)out, EVP_MD_CTX_get_size(h->ctx));
}

static PyObject *
hash_hexdigest(PyObject *self, PyObject *unused)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    HashObject *h = (HashObject *)self;
    if (finish_into(h, out, 0) < 0) {
        return NULL;
    }
    return hex_of(out, (size_t)EVP_MD_CTX_get_size(h->ctx));
}

/* The `length` argument of an XOF's digest() and hexdigest(). */
static Py_ssize_t
xof_length(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"length", NULL};
    PyObject *a[1];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, fname, kwlist, 1, 1, 0, a)) {
        return -1;
    }
    Py_ssize_t n = PyNumber_AsSsize_t(a[0], PyExc_OverflowError);
    if (n == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "length must be non-negative");
        return -1;
    }
    return n;
}

/* An XOF's output of n bytes in a fresh buffer (freed by the caller). */
static unsigned char *
xof_output(PyObject *self, Py_ssize_t n)
{
    unsigned char *out = PyMem_Malloc(n > 0 ? (size_t)n : 1);
    if (out == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    if (finish_into((HashObject *)self, out, (size_t)n) < 0) {
        PyMem_Free(out);
        return NULL;
    }
    return out;
}

static PyObject *
xof_digest(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t n = xof_length("digest", args, nargs, kwnames);
    unsigned char *out = n < 0 ? NULL : xof_output(self, n);
    if (out == NULL) {
        return NULL;
    }
    PyObject *res = PyBytes_FromStringAndSize((char *)out, n);
    PyMem_Free(out);
    return res;
}

static PyObject *
xof_hexdigest(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t n = xof_length("hexdigest", args, nargs, kwnames);
    unsigned char *out = n < 0 ? NULL : xof_output(self, n);
    if (out == NULL) {
        return NULL;
    }
    PyObject *res = hex_of(out, (size_t)n);
    PyMem_Free(out);
    return res;
}

static PyObject *
hash_get_name(PyObject *self, void *closure)
{
    return Py_NewRef(((HashObject *)self)->name);
}

static PyObject *
hash_get_digest_size(PyObject *self, void *closure)
{
    HashObject *h = (HashObject *)self;
    if (Py_IS_TYPE(h, &HashXof_Type)) {
        return PyLong_FromLong(0);
    }
    return PyLong_FromLong(EVP_MD_CTX_get_size(h->ctx));
}

static PyObject *
hash_get_block_size(PyObject *self, void *closure)
{
    return PyLong_FromLong(EVP_MD_CTX_get_block_size(((HashObject *)self)->ctx));
}

static PyObject *
hash_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<%U %s object @ %p>", ((HashObject *)self)->name,
                                Py_TYPE(self)->tp_name, self);
}

static PyMethodDef hash_methods[] = {
    {"update", hash_update, METH_O, "update($self, obj, /)\n--\n\nAdd bytes to the hashed data."},
    {"digest", hash_digest, METH_NOARGS, "digest($self, /)\n--\n\nThe digest of the data so far."},
    {"hexdigest", hash_hexdigest, METH_NOARGS,
     "hexdigest($self, /)\n--\n\nThe digest as a string of hex digits."},
    {"copy", hash_copy, METH_NOARGS, "copy($self, /)\n--\n\nAn independent clone of this hash."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef xof_methods[] = {
    {"digest", _PyCFunction_CAST(xof_digest), METH_FASTCALL | METH_KEYWORDS,
     "digest($self, /, length)\n--\n\nThe first `length` bytes of output."},
    {"hexdigest", _PyCFunction_CAST(xof_hexdigest), METH_FASTCALL | METH_KEYWORDS,
     "hexdigest($self, /, length)\n--\n\nThe first `length` bytes of output, in hex."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef hash_getset[] = {
    {"name", hash_get_name, NULL, "The algorithm's hashlib name.", NULL},
    {"digest_size", hash_get_digest_size, NULL, "Bytes in a digest.", NULL},
    {"block_size", hash_get_block_size, NULL, "Bytes in the algorithm's block.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject Hash_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_hashlib.HASH",
    .tp_basicsize = sizeof(HashObject),
    .tp_dealloc = hash_dealloc,
    .tp_repr = hash_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A message digest computed by OpenSSL.",
    .tp_methods = hash_methods,
    .tp_getset = hash_getset,
};

static PyTypeObject HashXof_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_hashlib.HASHXOF",
    .tp_basicsize = sizeof(HashObject),
    .tp_dealloc = hash_dealloc,
    .tp_repr = hash_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An extendable-output function (SHAKE) computed by OpenSSL.",
    .tp_methods = xof_methods,
    .tp_base = &Hash_Type,
};

/* ---- Constructors ------------------------------------------------------------ */

/* The initial data of a constructor: `data`, or the older `string`. */
static int
pick_data(PyObject *data, PyObject *string, PyObject **out)
{
    if (data != NULL && string != NULL) {
        PyErr_SetString(PyExc_TypeError, "'data' and 'string' cannot both be given");
        return -1;
    }
    *out = data != NULL ? data : string;
    return 0;
}

static PyObject *
hashlib_new(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"name", "data", "usedforsecurity", "string", NULL};
    PyObject *a[4], *data;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "new", kwlist, 1, 2, 0, a) ||
        pick_data(a[1], a[3], &data) < 0) {
        return NULL;
    }
    EVP_MD *md = fetch_digest_obj(a[0]);
    return md == NULL ? NULL : hash_start(md, data);
}

/* What every openssl_NAME() constructor does. */
static PyObject *
construct(const char *name, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"data", "usedforsecurity", "string", NULL};
    PyObject *a[3], *data;
    char fname[32];
    snprintf(fname, sizeof(fname), "openssl_%s", name);
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, fname, kwlist, 0, 1, 0, a) ||
        pick_data(a[0], a[2], &data) < 0) {
        return NULL;
    }
    EVP_MD *md = fetch_digest(name);
    return md == NULL ? NULL : hash_start(md, data);
}

#define CONSTRUCTOR(NAME)                                                                  \
    static PyObject *openssl_##NAME(PyObject *m, PyObject *const *args, Py_ssize_t nargs, \
                                    PyObject *kwnames)                                     \
    {                                                                                      \
        return construct(#NAME, args, nargs, kwnames);                                     \
    }

CONSTRUCTOR(md5)
CONSTRUCTOR(sha1)
CONSTRUCTOR(sha224)
CONSTRUCTOR(sha256)
CONSTRUCTOR(sha384)
CONSTRUCTOR(sha512)
CONSTRUCTOR(sha3_224)
CONSTRUCTOR(sha3_256)
CONSTRUCTOR(sha3_384)
CONSTRUCTOR(sha3_512)
CONSTRUCTOR(shake_128)
CONSTRUCTOR(shake_256)

/* ---- HMAC -------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    HMAC_CTX *ctx;
    PyObject *name; /* e.g. 'hmac-sha256' */
} HmacObject;

static PyTypeObject Hmac_Type;
static struct PyModuleDef hashlibmodule;

/* The hash name of one of this module's openssl_NAME functions, else NULL. */
static const char *
constructor_name(PyObject *func)
{
    if (!PyCFunction_Check(func)) {
        return NULL;
    }
    PyObject *owner = PyCFunction_GET_SELF(func);
    if (owner == NULL || !PyModule_Check(owner) || PyModule_GetDef(owner) != &hashlibmodule) {
        return NULL;
    }
    const char *fname = ((PyCFunctionObject *)func)->m_ml->ml_name;
    return strncmp(fname, "openssl_", 8) == 0 ? fname + 8 : NULL;
}

/* The digest an hmac digestmod names: a str, or one of our constructors. */
static EVP_MD *
digestmod_digest(PyObject *digestmod)
{
    if (digestmod == NULL || digestmod == Py_None) {
        PyErr_SetString(PyExc_TypeError, "Missing required parameter 'digestmod'.");
        return NULL;
    }
    if (PyUnicode_Check(digestmod)) {
        return fetch_digest_obj(digestmod);
    }
    const char *name = constructor_name(digestmod);
    if (name == NULL) {
        PyErr_Format(UnsupportedError, "unsupported digestmod %R", digestmod);
        return NULL;
    }
    return fetch_digest(name);
}

static HmacObject *
hmac_alloc(PyObject *name)
{
    HmacObject *h = PyObject_New(HmacObject, &Hmac_Type);
    if (h == NULL) {
        return NULL;
    }
    h->name = Py_NewRef(name);
    h->ctx = HMAC_CTX_new();
    if (h->ctx == NULL) {
        Py_DECREF(h);
        PyErr_NoMemory();
        return NULL;
    }
    return h;
}

static int
hmac_feed(HmacObject *h, PyObject *msg)
{
    Py_buffer view;
    if (data_view(msg, &view) < 0) {
        return -1;
    }
    int ok = HMAC_Update(h->ctx, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (!ok) {
        raise_openssl("HMAC update failed");
        return -1;
    }
    return 0;
}

/* A keyed HMAC object; msg may be NULL or None. */
static HmacObject *
hmac_start(PyObject *key, PyObject *msg, EVP_MD *md)
{
    Py_buffer kv;
    if (data_view(key, &kv) < 0) {
        return NULL;
    }
    if (kv.len > INT_MAX) {
        PyBuffer_Release(&kv);
        PyErr_SetString(PyExc_OverflowError, "key is too long.");
        return NULL;
    }
    HmacObject *h = NULL;
    PyObject *base = python_name(md);
    PyObject *name = base == NULL ? NULL : PyUnicode_FromFormat("hmac-%U", base);
    Py_XDECREF(base);
    if (name != NULL) {
        h = hmac_alloc(name);
        Py_DECREF(name);
    }
    /* OpenSSL wants a non-NULL key even when it is empty. */
    const void *kp = kv.len > 0 ? kv.buf : (const void *)"";
    if (h != NULL && !HMAC_Init_ex(h->ctx, kp, (int)kv.len, md, NULL)) {
        raise_openssl("unsupported hash type");
        Py_CLEAR(h);
    }
    PyBuffer_Release(&kv);
    if (h != NULL && msg != NULL && msg != Py_None && hmac_feed(h, msg) < 0) {
        Py_CLEAR(h);
    }
    return h;
}

static PyObject *
hashlib_hmac_new(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"key", "msg", "digestmod", NULL};
    PyObject *a[3];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "hmac_new", kwlist, 1, 3, 0, a)) {
        return NULL;
    }
    EVP_MD *md = digestmod_digest(a[2]);
    if (md == NULL) {
        return NULL;
    }
    HmacObject *h = hmac_start(a[0], a[1], md);
    EVP_MD_free(md);
    return (PyObject *)h;
}

static int
hmac_finish(HmacObject *h, unsigned char *out, unsigned int *len)
{
    HMAC_CTX *tmp = HMAC_CTX_new();
    if (tmp == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int ok = HMAC_CTX_copy(tmp, h->ctx) && HMAC_Final(tmp, out, len);
    HMAC_CTX_free(tmp);
    if (!ok) {
        raise_openssl("HMAC finalisation failed");
        return -1;
    }
    return 0;
}

static PyObject *
hashlib_hmac_digest(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"key", "msg", "digest", NULL};
    PyObject *a[3];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "hmac_digest", kwlist, 3, 3, 0, a)) {
        return NULL;
    }
    EVP_MD *md = digestmod_digest(a[2]);
    if (md == NULL) {
        return NULL;
    }
    HmacObject *h = hmac_start(a[0], a[1], md);
    EVP_MD_free(md);
    if (h == NULL) {
        return NULL;
    }
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    PyObject *res = NULL;
    if (hmac_finish(h, out, &len) == 0) {
        res = PyBytes_FromStringAndSize((char *)out, len);
    }
    Py_DECREF(h);
    return res;
}

static void
hmac_dealloc(PyObject *self)
{
    HmacObject *h = (HmacObject *)self;
    if (h->ctx != NULL) {
        HMAC_CTX_free(h->ctx);
    }
    Py_XDECREF(h->name);
    PyObject_Free(self);
}

static PyObject *
hmac_update(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"msg", NULL};
    PyObject *a[1];
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "update", kwlist, 1, 1, 0, a) ||
        hmac_feed((HmacObject *)self, a[0]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
hmac_copy(PyObject *self, PyObject *unused)
{
    HmacObject *h = (HmacObject *)self;
    HmacObject *c = hmac_alloc(h->name);
    if (c != NULL && !HMAC_CTX_copy(c->ctx, h->ctx)) {
        raise_openssl("HMAC copy failed");
        Py_CLEAR(c);
    }
    return (PyObject *)c;
}

static PyObject *
hmac_digest(PyObject *self, PyObject *unused)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (hmac_finish((HmacObject *)self, out, &len) < 0) {
        return NULL;
    }
    return PyBytes_FromStringAndSize((char *)out, len);
}

static PyObject *
hmac_hexdigest(PyObject *self, PyObject *unused)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (hmac_finish((HmacObject *)self, out, &len) < 0) {
        return NULL;
    }
    return hex_of(out, len);
}

static PyObject *
hmac_get_name(PyObject *self, void *closure)
{
    return Py_NewRef(((HmacObject *)self)->name);
}

static PyObject *
hmac_get_digest_size(PyObject *self, void *closure)
{
    return PyLong_FromSize_t(HMAC_size(((HmacObject *)self)->ctx));
}

static PyObject *
hmac_get_block_size(PyObject *self, void *closure)
{
    const EVP_MD *md = HMAC_CTX_get_md(((HmacObject *)self)->ctx);
    return PyLong_FromLong(md != NULL ? EVP_MD_get_block_size(md) : 0);
}

static PyObject *
hmac_repr(PyObject *self)
{
    HmacObject *h = (HmacObject *)self;
    return PyUnicode_FromFormat("<%U HMAC object @ %p>", h->name, self);
}

static PyMethodDef hmac_methods[] = {
    {"update", _PyCFunction_CAST(hmac_update), METH_FASTCALL | METH_KEYWORDS,
     "update($self, /, msg)\n--\n\nAdd bytes to the authenticated message."},
    {"digest", hmac_digest, METH_NOARGS, "digest($self, /)\n--\n\nThe MAC of the message so far."},
    {"hexdigest", hmac_hexdigest, METH_NOARGS,
     "hexdigest($self, /)\n--\n\nThe MAC as a string of hex digits."},
    {"copy", hmac_copy, METH_NOARGS, "copy($self, /)\n--\n\nAn independent clone."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef hmac_getset[] = {
    {"name", hmac_get_name, NULL, "'hmac-' and the digest's name.", NULL},
    {"digest_size", hmac_get_digest_size, NULL, "Bytes in the MAC.", NULL},
    {"block_size", hmac_get_block_size, NULL, "Bytes in the digest's block.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject Hmac_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_hashlib.HMAC",
    .tp_basicsize = sizeof(HmacObject),
    .tp_dealloc = hmac_dealloc,
    .tp_repr = hmac_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A keyed-hash message authentication code computed by OpenSSL.",
    .tp_methods = hmac_methods,
    .tp_getset = hmac_getset,
};

/* ---- Key derivation ---------------------------------------------------------- */

/* A positive C int from `obj`; `what` names it in the messages. */
static int
positive_int(PyObject *obj, const char *small, const char *big, int *out)
{
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow > 0 || v > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, big);
        return -1;
    }
    if (overflow < 0 || v < 1) {
        PyErr_SetString(PyExc_ValueError, small);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static PyObject *
derive_pbkdf2(EVP_MD *md, Py_buffer *pw, Py_buffer *salt, int iterations, PyObject *dklen_obj)
{
    int dklen = EVP_MD_get_size(md);
    if (dklen_obj != NULL && dklen_obj != Py_None &&
        positive_int(dklen_obj, "key length must be greater than 0.", "key length is too great.",
                     &dklen) < 0) {
        return NULL;
    }
    if (pw->len > INT_MAX || salt->len > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "password or salt is too long.");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, dklen);
    if (out == NULL) {
        return NULL;
    }
    if (!PKCS5_PBKDF2_HMAC(pw->buf, (int)pw->len, salt->buf, (int)salt->len, iterations, md, dklen,
                           (unsigned char *)PyBytes_AS_STRING(out))) {
        Py_DECREF(out);
        raise_openssl("key derivation failed");
        return NULL;
    }
    return out;
}

static PyObject *
hashlib_pbkdf2_hmac(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"hash_name", "password", "salt", "iterations", "dklen",
                                         NULL};
    PyObject *a[5];
    int iterations;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "pbkdf2_hmac", kwlist, 4, 5, 0, a) ||
        positive_int(a[3], "iteration value must be greater than 0.",
                     "iteration value is too great.", &iterations) < 0) {
        return NULL;
    }
    Py_buffer pw, salt;
    if (data_view(a[1], &pw) < 0) {
        return NULL;
    }
    if (data_view(a[2], &salt) < 0) {
        PyBuffer_Release(&pw);
        return NULL;
    }
    PyObject *res = NULL;
    EVP_MD *md = fetch_digest_obj(a[0]);
    if (md != NULL) {
        res = derive_pbkdf2(md, &pw, &salt, iterations, a[4]);
        EVP_MD_free(md);
    }
    PyBuffer_Release(&pw);
    PyBuffer_Release(&salt);
    return res;
}

/* scrypt's numeric parameters, checked as far as Python can see them. */
typedef struct {
    uint64_t n, r, p, maxmem;
    int dklen;
} scrypt_params;

static int
scrypt_numbers(PyObject *const *a, scrypt_params *sp)
{
    unsigned long long v[3];
    for (int i = 0; i < 3; i++) {
        v[i] = PyLong_AsUnsignedLongLong(a[i]);
        if (v[i] == (unsigned long long)-1 && PyErr_Occurred()) {
            return -1;
        }
    }
    sp->n = v[0];
    sp->r = v[1];
    sp->p = v[2];
    if (sp->n < 2 || (sp->n & (sp->n - 1)) != 0) {
        PyErr_SetString(PyExc_ValueError, "n must be a power of 2.");
        return -1;
    }
    long maxmem = a[3] == NULL ? 0 : PyLong_AsLong(a[3]);
    if (maxmem == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (maxmem < 0 || maxmem > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "maxmem must be positive and smaller than %d", INT_MAX);
        return -1;
    }
    sp->maxmem = (uint64_t)maxmem;
    sp->dklen = 64;
    if (a[4] != NULL && positive_int(a[4], "dklen must be greater than 0.", "dklen is too great.",
                                     &sp->dklen) < 0) {
        return -1;
    }
    return 0;
}

static PyObject *
derive_scrypt(Py_buffer *pw, Py_buffer *salt, scrypt_params *sp)
{
    PyObject *out = PyBytes_FromStringAndSize(NULL, sp->dklen);
    if (out == NULL) {
        return NULL;
    }
    if (!EVP_PBE_scrypt(pw->buf, (size_t)pw->len, salt->buf, (size_t)salt->len, sp->n, sp->r,
                        sp->p, sp->maxmem, (unsigned char *)PyBytes_AS_STRING(out),
                        (size_t)sp->dklen)) {
        ERR_clear_error();
        Py_DECREF(out);
        PyErr_SetString(PyExc_ValueError, "Invalid parameter combination for n, r, p, maxmem.");
        return NULL;
    }
    return out;
}

static PyObject *
hashlib_scrypt(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"password", "salt", "n", "r", "p", "maxmem", "dklen",
                                         NULL};
    PyObject *a[7];
    scrypt_params sp;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "scrypt", kwlist, 1, 1, 4, a) ||
        scrypt_numbers(a + 2, &sp) < 0) {
        return NULL;
    }
    Py_buffer pw, salt;
    if (data_view(a[0], &pw) < 0) {
        return NULL;
    }
    if (data_view(a[1], &salt) < 0) {
        PyBuffer_Release(&pw);
        return NULL;
    }
    PyObject *res = derive_scrypt(&pw, &salt, &sp);
    PyBuffer_Release(&pw);
    PyBuffer_Release(&salt);
    return res;
}

/* ---- Module ---------------------------------------------------------------------- */

static PyObject *
hashlib_get_fips_mode(PyObject *m, PyObject *unused)
{
    return PyLong_FromLong(EVP_default_properties_is_fips_enabled(NULL));
}

static void
collect_name(EVP_MD *md, void *arg)
{
    PyObject *set = arg;
    PyObject *name = python_name(md);
    if (name == NULL || PySet_Add(set, name) < 0) {
        PyErr_Clear();
    }
    Py_XDECREF(name);
}

/* The digests OpenSSL's providers offer, in hashlib's names. */
static PyObject *
md_meth_names(void)
{
    PyObject *set = PySet_New(NULL);
    if (set == NULL) {
        return NULL;
    }
    EVP_MD_do_all_provided(NULL, collect_name, set);
    PyObject *frozen = PyFrozenSet_New(set);
    Py_DECREF(set);
    return frozen;
}

#define CONSTRUCTOR_ENTRY(NAME)                                                 \
    {"openssl_" #NAME, _PyCFunction_CAST(openssl_##NAME), METH_FASTCALL | METH_KEYWORDS, \
     "openssl_" #NAME "($module, /, data=b'', *, usedforsecurity=True, string=None)\n--\n\n" \
     "A new " #NAME " hash object, fed the optional data."}

static PyMethodDef hashlib_methods[] = {
    {"new", _PyCFunction_CAST(hashlib_new), METH_FASTCALL | METH_KEYWORDS,
     "new($module, /, name, data=b'', *, usedforsecurity=True, string=None)\n--\n\n"
     "A hash object for the named algorithm, fed the optional data."},
    CONSTRUCTOR_ENTRY(md5),
    CONSTRUCTOR_ENTRY(sha1),
    CONSTRUCTOR_ENTRY(sha224),
    CONSTRUCTOR_ENTRY(sha256),
    CONSTRUCTOR_ENTRY(sha384),
    CONSTRUCTOR_ENTRY(sha512),
    CONSTRUCTOR_ENTRY(sha3_224),
    CONSTRUCTOR_ENTRY(sha3_256),
    CONSTRUCTOR_ENTRY(sha3_384),
    CONSTRUCTOR_ENTRY(sha3_512),
    CONSTRUCTOR_ENTRY(shake_128),
    CONSTRUCTOR_ENTRY(shake_256),
    {"hmac_new", _PyCFunction_CAST(hashlib_hmac_new), METH_FASTCALL | METH_KEYWORDS,
     "hmac_new($module, /, key, msg=b'', digestmod=None)\n--\n\nA new HMAC object."},
    {"hmac_digest", _PyCFunction_CAST(hashlib_hmac_digest), METH_FASTCALL | METH_KEYWORDS,
     "hmac_digest($module, /, key, msg, digest)\n--\n\nThe HMAC of msg under key, at once."},
    {"pbkdf2_hmac", _PyCFunction_CAST(hashlib_pbkdf2_hmac), METH_FASTCALL | METH_KEYWORDS,
     "pbkdf2_hmac($module, /, hash_name, password, salt, iterations, dklen=None)\n--\n\n"
     "A key derived from a password with PKCS #5 PBKDF2 over HMAC."},
    {"scrypt", _PyCFunction_CAST(hashlib_scrypt), METH_FASTCALL | METH_KEYWORDS,
     "scrypt($module, /, password, *, salt, n, r, p, maxmem=0, dklen=64)\n--\n\n"
     "A key derived from a password with scrypt (RFC 7914)."},
    {"get_fips_mode", hashlib_get_fips_mode, METH_NOARGS,
     "get_fips_mode($module, /)\n--\n\n1 when OpenSSL runs in FIPS mode, else 0."},
    {NULL, NULL, 0, NULL},
};

/* The module that made the globals above (borrowed): they go with it at
   exit, so nothing is left behind. */
static PyObject *owner_module;

static void
hashlib_module_free(void *m)
{
    if (m == owner_module) {
        Py_CLEAR(UnsupportedError);
        owner_module = NULL;
    }
}

static struct PyModuleDef hashlibmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_hashlib",
    .m_doc = "OpenSSL's message digests, HMAC and key derivation, for hashlib and hmac.",
    .m_size = -1,
    .m_methods = hashlib_methods,
    .m_free = hashlib_module_free,
};

static int
ready_static_type(PyTypeObject *type)
{
    if (type->tp_dict != NULL) {
        return 0;
    }
    if (_PyStaticType_InitBuiltin(type) < 0) {
        return -1;
    }
    Py_ssize_t pos = 0;
    PyObject *name, *attr;
    while (PyDict_Next(type->tp_dict, &pos, &name, &attr)) {
        _Py_SetImmortal(name);
        _Py_SetImmortal(attr);
    }
    return 0;
}

/* _constructors: each openssl_NAME function of module m mapped to NAME. */
static PyObject *
build_constructors(PyObject *m)
{
    PyObject *dict = PyDict_New();
    for (PyMethodDef *def = hashlib_methods; dict != NULL && def->ml_name != NULL; def++) {
        if (strncmp(def->ml_name, "openssl_", 8) != 0) {
            continue;
        }
        PyObject *func = PyObject_GetAttrString(m, def->ml_name);
        PyObject *name = PyUnicode_FromString(def->ml_name + 8);
        if (func == NULL || name == NULL || PyDict_SetItem(dict, func, name) < 0) {
            Py_CLEAR(dict);
        }
        Py_XDECREF(func);
        Py_XDECREF(name);
    }
    return dict;
}

static int
add_contents(PyObject *m)
{
    if (UnsupportedError == NULL) {
        UnsupportedError = PyErr_NewException("_hashlib.UnsupportedDigestmodError",
                                              PyExc_ValueError, NULL);
        if (UnsupportedError == NULL) {
            return -1;
        }
    }
    PyObject *dict = build_constructors(m);
    if (dict == NULL) {
        return -1;
    }
    PyObject *op = PyImport_ImportModule("_operator");
    PyObject *cmp = op == NULL ? NULL : PyObject_GetAttrString(op, "_compare_digest");
    Py_XDECREF(op);
    int rc = cmp == NULL ? -1 : PyModule_AddObjectRef(m, "compare_digest", cmp);
    Py_XDECREF(cmp);
    PyObject *proxy = rc < 0 ? NULL : PyDictProxy_New(dict);
    Py_DECREF(dict);
    if (proxy == NULL ||
        PyModule_Add(m, "_constructors", proxy) < 0 ||
        PyModule_Add(m, "openssl_md_meth_names", md_meth_names()) < 0 ||
        PyModule_AddObjectRef(m, "UnsupportedDigestmodError", UnsupportedError) < 0 ||
        PyModule_AddObjectRef(m, "HASH", (PyObject *)&Hash_Type) < 0 ||
        PyModule_AddObjectRef(m, "HASHXOF", (PyObject *)&HashXof_Type) < 0 ||
        PyModule_AddObjectRef(m, "HMAC", (PyObject *)&Hmac_Type) < 0) {
        return -1;
    }
    return PyModule_AddStringConstant(m, "_OPENSSL_VERSION", OpenSSL_version(OPENSSL_VERSION));
}

PyObject *
PyInit__hashlib(void)
{
    if (ready_static_type(&Hash_Type) < 0 || ready_static_type(&HashXof_Type) < 0 ||
        ready_static_type(&Hmac_Type) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&hashlibmodule);
    if (m != NULL && add_contents(m) < 0) {
        Py_CLEAR(m);
    }
    if (m != NULL) {
        owner_module = m;
    }
    return m;
}

#endif /* HAVE_OPENSSL */
