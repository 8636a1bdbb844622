/* _ssl: the module object, its constants and small functions.

   Built as a shared object (build/lib-dynload/_ssl...so) over libssl and
   libcrypto, only when configure found them; see Doc/ssl.md. */

#include "ssl.h"
#include "pycore_object.h"
#include <openssl/rand.h>
#include <openssl/opensslv.h>

/* Cipher string of new contexts: forward-secret AEAD suites first, nothing
   without authentication or encryption, no SHA-1 MACs. */
#define PY_SSL_DEFAULT_CIPHERS \
    "@SECLEVEL=2:ECDH+AESGCM:ECDH+CHACHA20:ECDH+AES:DHE+AES:!aNULL:!eNULL:!aDSS:!SHA1:!AESCCM"

PyObject *
_PySSL_FSPath(PyObject *obj, const char *msg)
{
    PyObject *out = NULL;
    if (!PyUnicode_FSConverter(obj, &out)) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_SetString(PyExc_TypeError, msg);
        }
        return NULL;
    }
    return out;
}

/* ---- Functions ------------------------------------------------------------- */

static PyObject *
ssl_rand_status(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(RAND_status());
}

static PyObject *
ssl_rand_bytes(PyObject *module, PyObject *arg)
{
    int n = PyLong_AsInt(arg);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "num must be positive");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (out == NULL) {
        return NULL;
    }
    if (RAND_bytes((unsigned char *)PyBytes_AS_STRING(out), n) != 1) {
        Py_DECREF(out);
        return PySSL_QUEUE_ERROR("RAND_bytes failed");
    }
    return out;
}

static PyObject *
ssl_rand_add(PyObject *module, PyObject *args)
{
    Py_buffer view;
    double entropy;
    if (!PyArg_ParseTuple(args, "s*d:RAND_add", &view, &entropy)) {
        return NULL;
    }
    const char *p = view.buf;
    Py_ssize_t left = view.len;
    /* RAND_add takes an int length: feed big buffers in pieces. */
    do {
        int chunk = left > INT_MAX ? INT_MAX : (int)left;
        RAND_add(p, chunk, entropy);
        p += chunk;
        left -= chunk;
    } while (left > 0);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *
ssl_get_default_verify_paths(PyObject *module, PyObject *unused)
{
    return Py_BuildValue("(ssss)", X509_get_default_cert_file_env(),
                         X509_get_default_cert_file(), X509_get_default_cert_dir_env(),
                         X509_get_default_cert_dir());
}

static PyMethodDef ssl_functions[] = {
    {"RAND_status", ssl_rand_status, METH_NOARGS, "Whether the generator is seeded."},
    {"RAND_bytes", ssl_rand_bytes, METH_O, "n cryptographically strong random bytes."},
    {"RAND_add", ssl_rand_add, METH_VARARGS, "Mix bytes into the generator's state."},
    {"get_default_verify_paths", ssl_get_default_verify_paths, METH_NOARGS,
     "OpenSSL's default CA file and directory and the variables that override them."},
    {NULL, NULL, 0, NULL},
};

/* ---- Constants -------------------------------------------------------------- */

#define INT_CONST(name, value) {name, (long long)(value)}

static const struct {
    const char *name;
    long long value;
} int_constants[] = {
    INT_CONST("PROTOCOL_SSLv23", PY_SSL_VERSION_TLS),
    INT_CONST("PROTOCOL_TLS", PY_SSL_VERSION_TLS),
    INT_CONST("PROTOCOL_TLS_CLIENT", PY_SSL_VERSION_TLS_CLIENT),
    INT_CONST("PROTOCOL_TLS_SERVER", PY_SSL_VERSION_TLS_SERVER),
    INT_CONST("PROTOCOL_TLSv1", PY_SSL_VERSION_TLS1),
    INT_CONST("PROTOCOL_TLSv1_1", PY_SSL_VERSION_TLS1_1),
    INT_CONST("PROTOCOL_TLSv1_2", PY_SSL_VERSION_TLS1_2),
    INT_CONST("PROTO_MINIMUM_SUPPORTED", PY_PROTO_MINIMUM_SUPPORTED),
    INT_CONST("PROTO_MAXIMUM_SUPPORTED", PY_PROTO_MAXIMUM_SUPPORTED),
    INT_CONST("PROTO_SSLv3", SSL3_VERSION),
    INT_CONST("PROTO_TLSv1", TLS1_VERSION),
    INT_CONST("PROTO_TLSv1_1", TLS1_1_VERSION),
    INT_CONST("PROTO_TLSv1_2", TLS1_2_VERSION),
    INT_CONST("PROTO_TLSv1_3", TLS1_3_VERSION),
    INT_CONST("CERT_NONE", PY_SSL_CERT_NONE),
    INT_CONST("CERT_OPTIONAL", PY_SSL_CERT_OPTIONAL),
    INT_CONST("CERT_REQUIRED", PY_SSL_CERT_REQUIRED),
    INT_CONST("ENCODING_PEM", PY_SSL_ENCODING_PEM),
    INT_CONST("ENCODING_DER", PY_SSL_ENCODING_DER),
    INT_CONST("SSL_ERROR_ZERO_RETURN", SSL_ERROR_ZERO_RETURN),
    INT_CONST("SSL_ERROR_WANT_READ", SSL_ERROR_WANT_READ),
    INT_CONST("SSL_ERROR_WANT_WRITE", SSL_ERROR_WANT_WRITE),
    INT_CONST("SSL_ERROR_WANT_X509_LOOKUP", SSL_ERROR_WANT_X509_LOOKUP),
    INT_CONST("SSL_ERROR_SYSCALL", SSL_ERROR_SYSCALL),
    INT_CONST("SSL_ERROR_SSL", SSL_ERROR_SSL),
    INT_CONST("SSL_ERROR_WANT_CONNECT", SSL_ERROR_WANT_CONNECT),
    INT_CONST("SSL_ERROR_EOF", PY_SSL_ERROR_EOF),
    INT_CONST("SSL_ERROR_INVALID_ERROR_CODE", PY_SSL_ERROR_INVALID_ERROR_CODE),
    INT_CONST("VERIFY_DEFAULT", 0),
    INT_CONST("VERIFY_CRL_CHECK_LEAF", X509_V_FLAG_CRL_CHECK),
    INT_CONST("VERIFY_CRL_CHECK_CHAIN", X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL),
    INT_CONST("VERIFY_X509_STRICT", X509_V_FLAG_X509_STRICT),
    INT_CONST("VERIFY_ALLOW_PROXY_CERTS", X509_V_FLAG_ALLOW_PROXY_CERTS),
    INT_CONST("VERIFY_X509_TRUSTED_FIRST", X509_V_FLAG_TRUSTED_FIRST),
    INT_CONST("VERIFY_X509_PARTIAL_CHAIN", X509_V_FLAG_PARTIAL_CHAIN),
    INT_CONST("OP_ALL", SSL_OP_ALL & ~SSL_OP_DONT_INSERT_EMPTY_FRAGMENTS),
    INT_CONST("OP_NO_SSLv2", 0),
    INT_CONST("OP_NO_SSLv3", SSL_OP_NO_SSLv3),
    INT_CONST("OP_NO_TLSv1", SSL_OP_NO_TLSv1),
    INT_CONST("OP_NO_TLSv1_1", SSL_OP_NO_TLSv1_1),
    INT_CONST("OP_NO_TLSv1_2", SSL_OP_NO_TLSv1_2),
    INT_CONST("OP_NO_TLSv1_3", SSL_OP_NO_TLSv1_3),
    INT_CONST("OP_CIPHER_SERVER_PREFERENCE", SSL_OP_CIPHER_SERVER_PREFERENCE),
    INT_CONST("OP_SINGLE_DH_USE", 0),
    INT_CONST("OP_SINGLE_ECDH_USE", 0),
    INT_CONST("OP_NO_TICKET", SSL_OP_NO_TICKET),
    INT_CONST("OP_NO_COMPRESSION", SSL_OP_NO_COMPRESSION),
    INT_CONST("OP_ENABLE_MIDDLEBOX_COMPAT", SSL_OP_ENABLE_MIDDLEBOX_COMPAT),
    INT_CONST("OP_NO_RENEGOTIATION", SSL_OP_NO_RENEGOTIATION),
    INT_CONST("OP_IGNORE_UNEXPECTED_EOF", SSL_OP_IGNORE_UNEXPECTED_EOF),
    INT_CONST("OP_LEGACY_SERVER_CONNECT", SSL_OP_LEGACY_SERVER_CONNECT),
    INT_CONST("OP_ENABLE_KTLS", SSL_OP_ENABLE_KTLS),
    INT_CONST("HOSTFLAG_ALWAYS_CHECK_SUBJECT", X509_CHECK_FLAG_ALWAYS_CHECK_SUBJECT),
    INT_CONST("HOSTFLAG_NEVER_CHECK_SUBJECT", X509_CHECK_FLAG_NEVER_CHECK_SUBJECT),
    INT_CONST("HOSTFLAG_NO_WILDCARDS", X509_CHECK_FLAG_NO_WILDCARDS),
    INT_CONST("HOSTFLAG_NO_PARTIAL_WILDCARDS", X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS),
    INT_CONST("HOSTFLAG_MULTI_LABEL_WILDCARDS", X509_CHECK_FLAG_MULTI_LABEL_WILDCARDS),
    INT_CONST("HOSTFLAG_SINGLE_LABEL_SUBDOMAINS", X509_CHECK_FLAG_SINGLE_LABEL_SUBDOMAINS),
    INT_CONST("ALERT_DESCRIPTION_CLOSE_NOTIFY", SSL_AD_CLOSE_NOTIFY),
    INT_CONST("ALERT_DESCRIPTION_UNEXPECTED_MESSAGE", SSL_AD_UNEXPECTED_MESSAGE),
    INT_CONST("ALERT_DESCRIPTION_BAD_RECORD_MAC", SSL_AD_BAD_RECORD_MAC),
    INT_CONST("ALERT_DESCRIPTION_RECORD_OVERFLOW", SSL_AD_RECORD_OVERFLOW),
    INT_CONST("ALERT_DESCRIPTION_DECOMPRESSION_FAILURE", SSL_AD_DECOMPRESSION_FAILURE),
    INT_CONST("ALERT_DESCRIPTION_HANDSHAKE_FAILURE", SSL_AD_HANDSHAKE_FAILURE),
    INT_CONST("ALERT_DESCRIPTION_BAD_CERTIFICATE", SSL_AD_BAD_CERTIFICATE),
    INT_CONST("ALERT_DESCRIPTION_UNSUPPORTED_CERTIFICATE", SSL_AD_UNSUPPORTED_CERTIFICATE),
    INT_CONST("ALERT_DESCRIPTION_CERTIFICATE_REVOKED", SSL_AD_CERTIFICATE_REVOKED),
    INT_CONST("ALERT_DESCRIPTION_CERTIFICATE_EXPIRED", SSL_AD_CERTIFICATE_EXPIRED),
    INT_CONST("ALERT_DESCRIPTION_CERTIFICATE_UNKNOWN", SSL_AD_CERTIFICATE_UNKNOWN),
    INT_CONST("ALERT_DESCRIPTION_ILLEGAL_PARAMETER", SSL_AD_ILLEGAL_PARAMETER),
    INT_CONST("ALERT_DESCRIPTION_UNKNOWN_CA", SSL_AD_UNKNOWN_CA),
    INT_CONST("ALERT_DESCRIPTION_ACCESS_DENIED", SSL_AD_ACCESS_DENIED),
    INT_CONST("ALERT_DESCRIPTION_DECODE_ERROR", SSL_AD_DECODE_ERROR),
    INT_CONST("ALERT_DESCRIPTION_DECRYPT_ERROR", SSL_AD_DECRYPT_ERROR),
    INT_CONST("ALERT_DESCRIPTION_PROTOCOL_VERSION", SSL_AD_PROTOCOL_VERSION),
    INT_CONST("ALERT_DESCRIPTION_INSUFFICIENT_SECURITY", SSL_AD_INSUFFICIENT_SECURITY),
    INT_CONST("ALERT_DESCRIPTION_INTERNAL_ERROR", SSL_AD_INTERNAL_ERROR),
    INT_CONST("ALERT_DESCRIPTION_USER_CANCELLED", SSL_AD_USER_CANCELLED),
    INT_CONST("ALERT_DESCRIPTION_NO_RENEGOTIATION", SSL_AD_NO_RENEGOTIATION),
    INT_CONST("ALERT_DESCRIPTION_UNSUPPORTED_EXTENSION", SSL_AD_UNSUPPORTED_EXTENSION),
    INT_CONST("ALERT_DESCRIPTION_CERTIFICATE_UNOBTAINABLE", SSL_AD_CERTIFICATE_UNOBTAINABLE),
    INT_CONST("ALERT_DESCRIPTION_UNRECOGNIZED_NAME", SSL_AD_UNRECOGNIZED_NAME),
    INT_CONST("ALERT_DESCRIPTION_BAD_CERTIFICATE_STATUS_RESPONSE",
              SSL_AD_BAD_CERTIFICATE_STATUS_RESPONSE),
    INT_CONST("ALERT_DESCRIPTION_BAD_CERTIFICATE_HASH_VALUE", SSL_AD_BAD_CERTIFICATE_HASH_VALUE),
    INT_CONST("ALERT_DESCRIPTION_UNKNOWN_PSK_IDENTITY", SSL_AD_UNKNOWN_PSK_IDENTITY),
    {NULL, 0},
};

/* Feature flags: what this build can do.  NPN is gone from OpenSSL 3's
   defaults and SSLv2/SSLv3 are refused; PSK callbacks are not offered. */
static const struct {
    const char *name;
    int value;
} bool_constants[] = {
    {"HAS_SNI", 1},       {"HAS_ECDH", 1},      {"HAS_NPN", 0},       {"HAS_ALPN", 1},
    {"HAS_SSLv2", 0},     {"HAS_SSLv3", 0},     {"HAS_TLSv1", 1},     {"HAS_TLSv1_1", 1},
    {"HAS_TLSv1_2", 1},   {"HAS_TLSv1_3", 1},   {"HAS_PSK", 0},       {"HAS_PHA", 1},
    {"HAS_TLS_UNIQUE", 1}, {"HAS_PSK_TLS13", 0}, {NULL, 0},
};

/* OPENSSL_VERSION_INFO-style tuple of a version number 0xMNN00PP0L. */
static PyObject *
version_info(unsigned long n)
{
    return Py_BuildValue("(kkkkk)", (n >> 28) & 0xF, (n >> 20) & 0xFF, (n >> 12) & 0xFF,
                         (n >> 4) & 0xFF, n & 0xF);
}

static int
add_constants(PyObject *m)
{
    for (int i = 0; int_constants[i].name != NULL; i++) {
        PyObject *v = PyLong_FromLongLong(int_constants[i].value);
        if (PyModule_Add(m, int_constants[i].name, v) < 0) {
            return -1;
        }
    }
    for (int i = 0; bool_constants[i].name != NULL; i++) {
        if (PyModule_AddObjectRef(m, bool_constants[i].name,
                                  bool_constants[i].value ? Py_True : Py_False) < 0) {
            return -1;
        }
    }
    unsigned long num = OpenSSL_version_num();
    if (PyModule_Add(m, "OPENSSL_VERSION_NUMBER", PyLong_FromUnsignedLong(num)) < 0 ||
        PyModule_Add(m, "OPENSSL_VERSION_INFO", version_info(num)) < 0 ||
        PyModule_AddStringConstant(m, "OPENSSL_VERSION", OpenSSL_version(OPENSSL_VERSION)) < 0 ||
        PyModule_Add(m, "_OPENSSL_API_VERSION", version_info(OPENSSL_VERSION_NUMBER)) < 0 ||
        PyModule_AddStringConstant(m, "_DEFAULT_CIPHERS", PY_SSL_DEFAULT_CIPHERS) < 0) {
        return -1;
    }
    return 0;
}

/* ---- Init ------------------------------------------------------------------- */

static int
ready_type(PyTypeObject *type)
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

static PyObject *owner_module; /* the module object that owns the globals */

static void
ssl_module_free(void *m)
{
    if (m == owner_module) {
        _PySSL_FiniErrors();
        owner_module = NULL;
    }
}

static struct PyModuleDef ssl_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_ssl",
    .m_doc = "TLS/SSL over OpenSSL: the C half of the ssl module.",
    .m_size = -1,
    .m_methods = ssl_functions,
    .m_free = ssl_module_free,
};

static int
add_contents(PyObject *m)
{
    if (PyModule_AddFunctions(m, _PySSL_CertMethods) < 0 || _PySSL_InitErrors(m) < 0 ||
        add_constants(m) < 0) {
        return -1;
    }
    static const struct {
        const char *name;
        PyTypeObject *type;
    } types[] = {
        {"_SSLContext", &_PySSLContext_Type},
        {"_SSLSocket", &_PySSLSocket_Type},
        {"MemoryBIO", &_PySSLMemoryBIO_Type},
        {"SSLSession", &_PySSLSession_Type},
        {"Certificate", &_PySSLCertificate_Type},
        {NULL, NULL},
    };
    for (int i = 0; types[i].name != NULL; i++) {
        if (ready_type(types[i].type) < 0 ||
            PyModule_AddObjectRef(m, types[i].name, (PyObject *)types[i].type) < 0) {
            return -1;
        }
    }
    return 0;
}

PyObject *
PyInit__ssl(void)
{
    PyObject *m = PyModule_Create(&ssl_module);
    if (m != NULL && add_contents(m) < 0) {
        Py_CLEAR(m);
    }
    if (m != NULL) {
        owner_module = m;
    }
    return m;
}
