/* _ssl._SSLContext: the settings that connections share (an SSL_CTX):
   protocol bounds, options, verification, certificates and keys, ciphers,
   ALPN, the SNI callback.  ssl.SSLContext subclasses it.

   Connections made by _wrap_socket/_wrap_bio copy what OpenSSL copies at
   SSL_new time; the hostname to check and post-handshake authentication
   are applied per connection (sslsocket.c). */

/* PEM_read_bio_DHparams is deprecated in OpenSSL 3 but reports a file
   without parameters as PEM's NO_START_LINE, as load_dh_params should;
   the decoder-based readers report only "unsupported". */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include "ssl.h"
#include <openssl/pem.h>
#include <openssl/dh.h>
#include <errno.h>

#define PY_SSL_DEFAULT_CIPHERS \
    "@SECLEVEL=2:ECDH+AESGCM:ECDH+CHACHA20:ECDH+AES:DHE+AES:!aNULL:!eNULL:!aDSS:!SHA1:!AESCCM"
#define PY_SSL_MAX_PASSWORD 1024

#define CTX(op) ((PySSLContext *)(op))

/* ---- Construction ----------------------------------------------------------- */

static const SSL_METHOD *
method_for(int protocol, int *deprecated)
{
    *deprecated = 1;
    switch (protocol) {
    case PY_SSL_VERSION_TLS:
    case PY_SSL_VERSION_TLS1:
    case PY_SSL_VERSION_TLS1_1:
    case PY_SSL_VERSION_TLS1_2:
        return TLS_method();
    case PY_SSL_VERSION_TLS_CLIENT:
        *deprecated = 0;
        return TLS_client_method();
    case PY_SSL_VERSION_TLS_SERVER:
        *deprecated = 0;
        return TLS_server_method();
    default:
        return NULL;
    }
}

static int
warn_deprecated_protocol(int protocol)
{
    const char *name = protocol == PY_SSL_VERSION_TLS      ? "PROTOCOL_TLS"
                       : protocol == PY_SSL_VERSION_TLS1   ? "PROTOCOL_TLSv1"
                       : protocol == PY_SSL_VERSION_TLS1_1 ? "PROTOCOL_TLSv1_1"
                                                           : "PROTOCOL_TLSv1_2";
    return PyErr_WarnFormat(PyExc_DeprecationWarning, 2, "ssl.%s is deprecated", name);
}

/* The fixed-version protocols pin both bounds. */
static void
pin_version(SSL_CTX *ctx, int protocol)
{
    int v = protocol == PY_SSL_VERSION_TLS1     ? TLS1_VERSION
            : protocol == PY_SSL_VERSION_TLS1_1 ? TLS1_1_VERSION
            : protocol == PY_SSL_VERSION_TLS1_2 ? TLS1_2_VERSION
                                                : 0;
    if (v != 0) {
        SSL_CTX_set_min_proto_version(ctx, v);
        SSL_CTX_set_max_proto_version(ctx, v);
    }
}

static int sni_trampoline(SSL *ssl, int *alert, void *arg);

static PyObject *
context_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"protocol", NULL};
    int protocol, deprecated;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i:_SSLContext", kwlist, &protocol)) {
        return NULL;
    }
    const SSL_METHOD *method = method_for(protocol, &deprecated);
    if (method == NULL) {
        PyErr_Format(PyExc_ValueError, "invalid or unsupported protocol version %i", protocol);
        return NULL;
    }
    if (deprecated && warn_deprecated_protocol(protocol) < 0) {
        return NULL;
    }
    SSL_CTX *ctx = SSL_CTX_new(method);
    if (ctx == NULL) {
        return PySSL_QUEUE_ERROR("failed to allocate SSL context");
    }
    PySSLContext *self = (PySSLContext *)type->tp_alloc(type, 0);
    if (self == NULL) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    self->ctx = ctx;
    self->protocol = protocol;
    self->host_flags = X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS;
    if (protocol == PY_SSL_VERSION_TLS_CLIENT) {
        self->check_hostname = 1;
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
    }
    else {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
    }
    SSL_CTX_set_options(ctx, (SSL_OP_ALL & ~SSL_OP_DONT_INSERT_EMPTY_FRAGMENTS) |
                                 SSL_OP_NO_SSLv3 | SSL_OP_NO_COMPRESSION |
                                 SSL_OP_CIPHER_SERVER_PREFERENCE |
                                 SSL_OP_ENABLE_MIDDLEBOX_COMPAT);
    SSL_CTX_clear_options(ctx, SSL_OP_NO_RENEGOTIATION);
    SSL_CTX_set_mode(ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
    if (!SSL_CTX_set_cipher_list(ctx, PY_SSL_DEFAULT_CIPHERS)) {
        Py_DECREF(self);
        return PySSL_QUEUE_ERROR("no default cipher");
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    pin_version(ctx, protocol);
    X509_VERIFY_PARAM *param = SSL_CTX_get0_param(ctx);
    X509_VERIFY_PARAM_set_flags(param, X509_V_FLAG_TRUSTED_FIRST);
    X509_VERIFY_PARAM_set_hostflags(param, self->host_flags);
    SSL_CTX_set_session_id_context(ctx, (const unsigned char *)"Python", 6);
    SSL_CTX_set_tlsext_servername_callback(ctx, NULL);
    /* Callbacks find the Python object through the SSL_CTX, which may
       outlive it (a connection switched to another context keeps its
       first one): dealloc clears the link. */
    SSL_CTX_set_app_data(ctx, self);
    return (PyObject *)self;
}

static int
context_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(CTX(op)->sni_callback);
    Py_VISIT(CTX(op)->msg_callback);
    Py_VISIT(CTX(op)->keylog_filename);
    return 0;
}

/* The SNI callback is often a bound method of the context itself. */
static int
context_clear(PyObject *op)
{
    PySSLContext *self = CTX(op);
    if (self->sni_callback != NULL) {
        SSL_CTX_set_tlsext_servername_callback(self->ctx, NULL);
        Py_CLEAR(self->sni_callback);
    }
    if (self->msg_callback != NULL) {
        SSL_CTX_set_msg_callback(self->ctx, NULL);
        Py_CLEAR(self->msg_callback);
    }
    return 0;
}

static void
context_dealloc(PyObject *op)
{
    PySSLContext *self = CTX(op);
    PyObject_GC_UnTrack(op);
    SSL_CTX_set_app_data(self->ctx, NULL);
    SSL_CTX_set_tlsext_servername_callback(self->ctx, NULL);
    SSL_CTX_set_alpn_select_cb(self->ctx, NULL, NULL);
    SSL_CTX_set_keylog_callback(self->ctx, NULL);
    SSL_CTX_free(self->ctx);
    PyMem_Free(self->alpn);
    SSL_CTX_set_msg_callback(self->ctx, NULL);
    Py_XDECREF(self->sni_callback);
    Py_XDECREF(self->msg_callback);
    Py_XDECREF(self->keylog_filename);
    if (self->keylog_file != NULL) {
        fclose(self->keylog_file);
    }
    Py_TYPE(op)->tp_free(op);
}

/* ---- Simple attributes -------------------------------------------------------- */

static PyObject *
get_protocol(PyObject *op, void *c)
{
    return PyLong_FromLong(CTX(op)->protocol);
}

static PyObject *
get_options(PyObject *op, void *c)
{
    return PyLong_FromUnsignedLongLong((unsigned long long)SSL_CTX_get_options(CTX(op)->ctx));
}

static int
set_options(PyObject *op, PyObject *value, void *c)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete options");
        return -1;
    }
    unsigned long long want = PyLong_AsUnsignedLongLong(value);
    if (want == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    uint64_t have = SSL_CTX_get_options(CTX(op)->ctx);
    const uint64_t version_bits = SSL_OP_NO_SSLv2 | SSL_OP_NO_SSLv3 | SSL_OP_NO_TLSv1 |
                                  SSL_OP_NO_TLSv1_1 | SSL_OP_NO_TLSv1_2 | SSL_OP_NO_TLSv1_3;
    if (((uint64_t)want & ~have & version_bits) &&
        PyErr_WarnEx(PyExc_DeprecationWarning,
                     "ssl.OP_NO_SSL*/ssl.OP_NO_TLS* options are deprecated", 2) < 0) {
        return -1;
    }
    SSL_CTX_clear_options(CTX(op)->ctx, have & ~(uint64_t)want);
    SSL_CTX_set_options(CTX(op)->ctx, (uint64_t)want & ~have);
    return 0;
}

static int
py_verify_mode(SSL_CTX *ctx)
{
    int m = SSL_CTX_get_verify_mode(ctx);
    if (!(m & SSL_VERIFY_PEER)) {
        return PY_SSL_CERT_NONE;
    }
    return (m & SSL_VERIFY_FAIL_IF_NO_PEER_CERT) ? PY_SSL_CERT_REQUIRED : PY_SSL_CERT_OPTIONAL;
}

static void
apply_verify_mode(PySSLContext *self, int mode)
{
    int flags = mode == PY_SSL_CERT_NONE       ? SSL_VERIFY_NONE
                : mode == PY_SSL_CERT_OPTIONAL ? SSL_VERIFY_PEER
                                               : SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
    SSL_CTX_set_verify(self->ctx, flags, NULL);
}

static PyObject *
get_verify_mode(PyObject *op, void *c)
{
    return PyLong_FromLong(py_verify_mode(CTX(op)->ctx));
}

static int
set_verify_mode(PyObject *op, PyObject *value, void *c)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete verify_mode");
        return -1;
    }
    int mode = PyLong_AsInt(value);
    if (mode == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (mode < PY_SSL_CERT_NONE || mode > PY_SSL_CERT_REQUIRED) {
        PyErr_SetString(PyExc_ValueError, "invalid value for verify_mode");
        return -1;
    }
    if (mode == PY_SSL_CERT_NONE && CTX(op)->check_hostname) {
        PyErr_SetString(PyExc_ValueError,
                        "Cannot set verify_mode to CERT_NONE when check_hostname is enabled.");
        return -1;
    }
    apply_verify_mode(CTX(op), mode);
    return 0;
}

static PyObject *
get_verify_flags(PyObject *op, void *c)
{
    return PyLong_FromUnsignedLong(X509_VERIFY_PARAM_get_flags(SSL_CTX_get0_param(CTX(op)->ctx)));
}

static int
set_verify_flags(PyObject *op, PyObject *value, void *c)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete verify_flags");
        return -1;
    }
    unsigned long want = PyLong_AsUnsignedLong(value);
    if (want == (unsigned long)-1 && PyErr_Occurred()) {
        return -1;
    }
    X509_VERIFY_PARAM *param = SSL_CTX_get0_param(CTX(op)->ctx);
    unsigned long have = X509_VERIFY_PARAM_get_flags(param);
    if (!X509_VERIFY_PARAM_clear_flags(param, have & ~want) ||
        !X509_VERIFY_PARAM_set_flags(param, want & ~have)) {
        PySSL_QUEUE_ERROR("cannot set verify_flags");
        return -1;
    }
    return 0;
}

static PyObject *
get_check_hostname(PyObject *op, void *c)
{
    return PyBool_FromLong(CTX(op)->check_hostname);
}

static int
set_check_hostname(PyObject *op, PyObject *value, void *c)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete check_hostname");
        return -1;
    }
    int on = PyObject_IsTrue(value);
    if (on < 0) {
        return -1;
    }
    if (on && py_verify_mode(CTX(op)->ctx) == PY_SSL_CERT_NONE) {
        apply_verify_mode(CTX(op), PY_SSL_CERT_REQUIRED);
    }
    CTX(op)->check_hostname = on;
    return 0;
}

static PyObject *
get_host_flags(PyObject *op, void *c)
{
    return PyLong_FromUnsignedLong(CTX(op)->host_flags);
}

static int
set_host_flags(PyObject *op, PyObject *value, void *c)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete _host_flags");
        return -1;
    }
    unsigned long flags = PyLong_AsUnsignedLong(value);
    if (flags == (unsigned long)-1 && PyErr_Occurred()) {
        return -1;
    }
    CTX(op)->host_flags = (unsigned int)flags;
    X509_VERIFY_PARAM_set_hostflags(SSL_CTX_get0_param(CTX(op)->ctx), (unsigned int)flags);
    return 0;
}

/* A PROTO_* value for OpenSSL, for a minimum (is_min) or maximum bound. */
static int
proto_for_openssl(int v, int is_min, int *out)
{
    if (v == PY_PROTO_MINIMUM_SUPPORTED) {
        *out = is_min ? 0 : SSL3_VERSION;
        return 0;
    }
    if (v == PY_PROTO_MAXIMUM_SUPPORTED) {
        *out = is_min ? TLS1_3_VERSION : 0;
        return 0;
    }
    if (v >= SSL3_VERSION && v <= TLS1_3_VERSION) {
        *out = v;
        return 0;
    }
    PyErr_Format(PyExc_ValueError, "Unsupported TLS/SSL version 0x%x", (unsigned)v);
    return -1;
}

static int
set_bound(PyObject *op, PyObject *value, int is_min)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete a version bound");
        return -1;
    }
    int v = PyLong_AsInt(value), ossl;
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    int p = CTX(op)->protocol;
    if (p != PY_SSL_VERSION_TLS && p != PY_SSL_VERSION_TLS_CLIENT &&
        p != PY_SSL_VERSION_TLS_SERVER) {
        PyErr_SetString(PyExc_ValueError, "The context's protocol doesn't support "
                                          "modification of highest and lowest version.");
        return -1;
    }
    if (proto_for_openssl(v, is_min, &ossl) < 0) {
        return -1;
    }
    int ok = is_min ? SSL_CTX_set_min_proto_version(CTX(op)->ctx, ossl)
                    : SSL_CTX_set_max_proto_version(CTX(op)->ctx, ossl);
    if (!ok) {
        ERR_clear_error();
        PyErr_Format(PyExc_ValueError, "Unsupported protocol version 0x%x", (unsigned)v);
        return -1;
    }
    return 0;
}

static PyObject *
get_minimum_version(PyObject *op, void *c)
{
    int v = (int)SSL_CTX_get_min_proto_version(CTX(op)->ctx);
    return PyLong_FromLong(v == 0 ? PY_PROTO_MINIMUM_SUPPORTED : v);
}

static int
set_minimum_version(PyObject *op, PyObject *value, void *c)
{
    return set_bound(op, value, 1);
}

static PyObject *
get_maximum_version(PyObject *op, void *c)
{
    int v = (int)SSL_CTX_get_max_proto_version(CTX(op)->ctx);
    return PyLong_FromLong(v == 0 ? PY_PROTO_MAXIMUM_SUPPORTED : v);
}

static int
set_maximum_version(PyObject *op, PyObject *value, void *c)
{
    return set_bound(op, value, 0);
}

static PyObject *
get_num_tickets(PyObject *op, void *c)
{
    return PyLong_FromSize_t(SSL_CTX_get_num_tickets(CTX(op)->ctx));
}

/* A ticket count: a non-negative int; -1 with an exception otherwise. */
static int
ticket_count(PyObject *value, size_t *out)
{
    Py_ssize_t n = PyNumber_AsSsize_t(value, PyExc_OverflowError);
    if (n < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "value must be non-negative");
        }
        return -1;
    }
    *out = (size_t)n;
    return 0;
}

static int
set_num_tickets(PyObject *op, PyObject *value, void *c)
{
    size_t count;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete num_tickets");
        return -1;
    }
    if (ticket_count(value, &count) < 0) {
        return -1;
    }
    /* Only a server sends tickets. */
    int ok = CTX(op)->protocol == PY_SSL_VERSION_TLS_SERVER &&
             SSL_CTX_set_num_tickets(CTX(op)->ctx, count);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, CTX(op)->protocol == PY_SSL_VERSION_TLS_SERVER
                                              ? "failed to set num tickets."
                                              : "SSLContext is not a server context.");
        return -1;
    }
    return 0;
}

static PyObject *
get_security_level(PyObject *op, void *c)
{
    return PyLong_FromLong(SSL_CTX_get_security_level(CTX(op)->ctx));
}

static PyObject *
get_post_handshake_auth(PyObject *op, void *c)
{
    return PyBool_FromLong(CTX(op)->post_handshake_auth);
}

static int
set_post_handshake_auth(PyObject *op, PyObject *value, void *c)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete attribute");
        return -1;
    }
    int on = PyObject_IsTrue(value);
    if (on < 0) {
        return -1;
    }
    CTX(op)->post_handshake_auth = on;
    return 0;
}

/* ---- Callbacks ------------------------------------------------------------------- */

static PyObject *
get_sni_callback(PyObject *op, void *c)
{
    PyObject *cb = CTX(op)->sni_callback;
    return Py_NewRef(cb ? cb : Py_None);
}

static int
set_sni_callback(PyObject *op, PyObject *value, void *c)
{
    PySSLContext *self = CTX(op);
    if (self->protocol == PY_SSL_VERSION_TLS_CLIENT) {
        PyErr_SetString(PyExc_ValueError, "sni_callback cannot be set on TLS_CLIENT context");
        return -1;
    }
    if (value == NULL || value == Py_None) {
        Py_CLEAR(self->sni_callback);
        SSL_CTX_set_tlsext_servername_callback(self->ctx, NULL);
        return 0;
    }
    if (!PyCallable_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "not a callable object");
        return -1;
    }
    Py_XSETREF(self->sni_callback, Py_NewRef(value));
    SSL_CTX_set_tlsext_servername_callback(self->ctx, sni_trampoline);
    SSL_CTX_set_tlsext_servername_arg(self->ctx, self->ctx);
    return 0;
}

/* The servername callback.  OpenSSL runs it inside the handshake, while
   the connection's thread has released the GIL: take it back for the
   Python call.  A failing callback is reported as unraisable and the
   handshake is aborted with an alert. */
static int
sni_trampoline(SSL *ssl, int *alert, void *arg)
{
    PySSLContext *ctx = SSL_CTX_get_app_data((SSL_CTX *)arg);
    PySSLSocket *s = SSL_get_app_data(ssl);
    if (ctx == NULL || s == NULL || s->saved == NULL || ctx->sni_callback == NULL) {
        return SSL_TLSEXT_ERR_OK;
    }
    PyEval_RestoreThread(s->saved);
    /* The callback may drop the last other reference to ctx by switching
       the connection to another context. */
    Py_INCREF(ctx);
    int result = SSL_TLSEXT_ERR_OK;
    PyObject *cb = Py_NewRef(ctx->sni_callback);
    PyObject *target = NULL;
    if (s->owner != NULL) {
        PyWeakref_GetRef(s->owner, &target);
    }
    if (target == NULL) {
        target = Py_NewRef((PyObject *)s);
    }
    const char *name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
    PyObject *name_obj = name ? PyUnicode_DecodeASCII(name, strlen(name), "strict")
                              : Py_NewRef(Py_None);
    PyObject *r = name_obj == NULL ? NULL
                                   : PyObject_CallFunctionObjArgs(cb, target, name_obj,
                                                                  (PyObject *)ctx, NULL);
    Py_XDECREF(name_obj);
    Py_DECREF(target);
    if (r == NULL) {
        PyErr_WriteUnraisable(cb);
        *alert = SSL_AD_HANDSHAKE_FAILURE;
        result = SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    else if (r != Py_None) {
        int code = PyLong_Check(r) ? PyLong_AsInt(r) : -1;
        if (code == -1) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "servername callback must return None or an int");
            }
            PyErr_WriteUnraisable(cb);
            code = SSL_AD_INTERNAL_ERROR;
        }
        *alert = code;
        result = SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    Py_XDECREF(r);
    Py_DECREF(cb);
    Py_DECREF(ctx);
    s->saved = PyEval_SaveThread();
    return result;
}

/* The message type of a TLS protocol message for the callback: the alert
   description of an alert, a pseudo type for ChangeCipherSpec, else the
   first byte (the handshake type, or a record header's content type). */
static int
message_type(int content_type, const unsigned char *p, size_t len)
{
    if (content_type == SSL3_RT_CHANGE_CIPHER_SPEC) {
        return 0x0101;
    }
    if (content_type == SSL3_RT_ALERT) {
        return len >= 2 ? p[1] : -1;
    }
    return len >= 1 ? p[0] : -1;
}

/* SSL_CTX_set_msg_callback's hook: OpenSSL calls it inside an operation,
   without the GIL.  An exception is kept and raised when the operation
   returns (the first one wins). */
static void
msg_trampoline(int write_p, int version, int content_type, const void *buf, size_t len,
               SSL *ssl, void *arg)
{
    PySSLSocket *s = SSL_get_app_data(ssl);
    if (s == NULL || s->saved == NULL) {
        return;
    }
    PyEval_RestoreThread(s->saved);
    PyObject *cb = s->ctx->msg_callback;
    if (cb != NULL) {
        Py_INCREF(cb);
        PyObject *conn = NULL;
        if (s->owner != NULL) {
            PyWeakref_GetRef(s->owner, &conn);
        }
        if (conn == NULL) {
            conn = Py_NewRef((PyObject *)s);
        }
        PyObject *r = PyObject_CallFunction(
            cb, "Osiiiy#", conn, write_p ? "write" : "read", version, content_type,
            message_type(content_type, buf, len), (const char *)buf, (Py_ssize_t)len);
        if (r == NULL) {
            PyObject *exc = PyErr_GetRaisedException();
            if (s->callback_exc == NULL) {
                s->callback_exc = exc;
            }
            else {
                Py_DECREF(exc);
            }
        }
        Py_XDECREF(r);
        Py_DECREF(conn);
        Py_DECREF(cb);
    }
    s->saved = PyEval_SaveThread();
}

static PyObject *
get_msg_callback(PyObject *op, void *c)
{
    PyObject *cb = CTX(op)->msg_callback;
    return Py_NewRef(cb ? cb : Py_None);
}

static int
set_msg_callback(PyObject *op, PyObject *value, void *c)
{
    PySSLContext *self = CTX(op);
    if (value == NULL || value == Py_None) {
        SSL_CTX_set_msg_callback(self->ctx, NULL);
        Py_CLEAR(self->msg_callback);
        return 0;
    }
    if (!PyCallable_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%R is not callable.", value);
        return -1;
    }
    Py_XSETREF(self->msg_callback, Py_NewRef(value));
    SSL_CTX_set_msg_callback(self->ctx, msg_trampoline);
    return 0;
}

static void
keylog_line(const SSL *ssl, const char *line)
{
    PySSLSocket *s = SSL_get_app_data(ssl);
    if (s != NULL && s->ctx->keylog_file != NULL) {
        fprintf(s->ctx->keylog_file, "%s\n", line);
        fflush(s->ctx->keylog_file);
    }
}

static PyObject *
get_keylog_filename(PyObject *op, void *c)
{
    PyObject *f = CTX(op)->keylog_filename;
    return Py_NewRef(f ? f : Py_None);
}

static int
set_keylog_filename(PyObject *op, PyObject *value, void *c)
{
    PySSLContext *self = CTX(op);
    if (self->keylog_file != NULL) {
        fclose(self->keylog_file);
        self->keylog_file = NULL;
    }
    SSL_CTX_set_keylog_callback(self->ctx, NULL);
    if (value == NULL || value == Py_None) {
        Py_CLEAR(self->keylog_filename);
        return 0;
    }
    PyObject *path = _PySSL_FSPath(value, "keylog_filename must be a path or None");
    if (path == NULL) {
        return -1;
    }
    FILE *f = fopen(PyBytes_AS_STRING(path), "a");
    if (f == NULL) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, value);
        Py_DECREF(path);
        return -1;
    }
    Py_DECREF(path);
    if (ftell(f) == 0) {
        fputs("# TLS secrets log file, generated by OpenSSL / Python\n", f);
        fflush(f);
    }
    self->keylog_file = f;
    Py_XSETREF(self->keylog_filename, Py_NewRef(value));
    SSL_CTX_set_keylog_callback(self->ctx, keylog_line);
    return 0;
}

/* ---- Certificates and keys ---------------------------------------------------------- */

/* What the PEM password callback works from. */
typedef struct {
    PyObject *callable; /* or NULL */
    char *data;         /* the password (PyMem), or NULL */
    Py_ssize_t size;
    int failed;         /* a Python exception is set */
} password_source;

/* str, bytes or bytearray -> bytes copy in src; -1 with an exception. */
static int
take_password(password_source *src, PyObject *obj, const char *type_msg)
{
    PyObject *bytes;
    if (PyUnicode_Check(obj)) {
        bytes = PyUnicode_AsUTF8String(obj);
    }
    else if (PyBytes_Check(obj) || PyByteArray_Check(obj)) {
        bytes = PyBytes_FromObject(obj);
    }
    else {
        PyErr_SetString(PyExc_TypeError, type_msg);
        return -1;
    }
    if (bytes == NULL) {
        return -1;
    }
    if (PyBytes_GET_SIZE(bytes) > PY_SSL_MAX_PASSWORD) {
        Py_DECREF(bytes);
        PyErr_Format(PyExc_ValueError, "password cannot be longer than %d bytes",
                     PY_SSL_MAX_PASSWORD);
        return -1;
    }
    PyMem_Free(src->data);
    src->size = PyBytes_GET_SIZE(bytes);
    src->data = PyMem_Malloc(src->size + 1);
    if (src->data == NULL) {
        Py_DECREF(bytes);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(src->data, PyBytes_AS_STRING(bytes), src->size);
    Py_DECREF(bytes);
    return 0;
}

static int
password_callback(char *buf, int size, int rwflag, void *userdata)
{
    password_source *src = userdata;
    if (src->failed) {
        return -1;
    }
    if (src->callable != NULL) {
        PyObject *r = PyObject_CallNoArgs(src->callable);
        if (r == NULL || take_password(src, r, "password callback must return a string") < 0) {
            Py_XDECREF(r);
            src->failed = 1;
            return -1;
        }
        Py_DECREF(r);
    }
    if (src->data == NULL) {
        /* No password was given: fail rather than prompt on the terminal. */
        return -1;
    }
    if (src->size > size) {
        PyErr_Format(PyExc_ValueError, "password cannot be longer than %d bytes", size);
        src->failed = 1;
        return -1;
    }
    memcpy(buf, src->data, src->size);
    return (int)src->size;
}

/* After a failed load: the callback's exception, errno's, or the queue's. */
static PyObject *
load_failure(password_source *src, int saved_errno, const char *what)
{
    if (src != NULL && src->failed) {
        ERR_clear_error();
        return NULL;
    }
    if (saved_errno != 0) {
        ERR_clear_error();
        errno = saved_errno;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PySSL_QUEUE_ERROR(what);
}

static PyObject *
context_load_cert_chain(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"certfile", "keyfile", "password", NULL};
    PySSLContext *self = CTX(op);
    PyObject *certfile, *keyfile = Py_None, *password = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO:load_cert_chain", kwlist, &certfile,
                                     &keyfile, &password)) {
        return NULL;
    }
    password_source src = {NULL, NULL, 0, 0};
    PyObject *cert_path = NULL, *key_path = NULL, *result = NULL;
    cert_path = _PySSL_FSPath(certfile, "certfile should be a valid filesystem path");
    if (cert_path == NULL) {
        return NULL;
    }
    if (keyfile != Py_None &&
        (key_path = _PySSL_FSPath(keyfile, "keyfile should be a valid filesystem path")) == NULL) {
        goto done;
    }
    if (password != Py_None) {
        if (PyCallable_Check(password)) {
            src.callable = password;
        }
        else if (take_password(&src, password, "password should be a string or callable") < 0) {
            goto done;
        }
    }
    SSL_CTX_set_default_passwd_cb(self->ctx, password_callback);
    SSL_CTX_set_default_passwd_cb_userdata(self->ctx, &src);
    ERR_clear_error();
    errno = 0;
    if (SSL_CTX_use_certificate_chain_file(self->ctx, PyBytes_AS_STRING(cert_path)) != 1) {
        load_failure(&src, errno, "cannot load the certificate chain");
        goto restore;
    }
    errno = 0;
    const char *kp = PyBytes_AS_STRING(key_path ? key_path : cert_path);
    if (SSL_CTX_use_PrivateKey_file(self->ctx, kp, SSL_FILETYPE_PEM) != 1) {
        load_failure(&src, errno, "cannot load the private key");
        goto restore;
    }
    if (SSL_CTX_check_private_key(self->ctx) != 1) {
        load_failure(NULL, 0, "the private key does not match the certificate");
        goto restore;
    }
    result = Py_NewRef(Py_None);
restore:
    SSL_CTX_set_default_passwd_cb(self->ctx, NULL);
    SSL_CTX_set_default_passwd_cb_userdata(self->ctx, NULL);
done:
    PyMem_Free(src.data);
    Py_XDECREF(cert_path);
    Py_XDECREF(key_path);
    return result;
}

/* Add one certificate to the context's store; a duplicate is fine. */
static int
store_add(PySSLContext *self, X509 *cert)
{
    if (X509_STORE_add_cert(SSL_CTX_get_cert_store(self->ctx), cert)) {
        return 0;
    }
    unsigned long e = ERR_peek_last_error();
    if (ERR_GET_LIB(e) == ERR_LIB_X509 && ERR_GET_REASON(e) == X509_R_CERT_ALREADY_IN_HASH_TABLE) {
        ERR_clear_error();
        return 0;
    }
    PySSL_QUEUE_ERROR("cannot add the certificate");
    return -1;
}

/* cadata: PEM text (is_pem) or concatenated DER certificates. */
static int
load_cadata(PySSLContext *self, const char *data, Py_ssize_t len, int is_pem)
{
    BIO *bio = BIO_new_mem_buf(data, (int)len);
    if (bio == NULL) {
        PySSL_QUEUE_ERROR("cannot allocate a BIO");
        return -1;
    }
    int loaded = 0, rc = 0;
    ERR_clear_error();
    for (;;) {
        if (!is_pem && BIO_ctrl_pending(bio) == 0 && loaded > 0) {
            break;
        }
        X509 *cert = is_pem ? PEM_read_bio_X509(bio, NULL, NULL, NULL) : d2i_X509_bio(bio, NULL);
        if (cert == NULL) {
            unsigned long e = ERR_peek_last_error();
            int end_of_pem = is_pem && ERR_GET_LIB(e) == ERR_LIB_PEM &&
                             ERR_GET_REASON(e) == PEM_R_NO_START_LINE;
            if (loaded > 0 && end_of_pem) {
                ERR_clear_error();
                break;
            }
            if (loaded == 0) {
                const char *why = ERR_reason_error_string(e);
                char msg[200];
                snprintf(msg, sizeof msg, "%s: cadata does not contain a certificate",
                         why ? why : (is_pem ? "no start line" : "not enough data"));
                ERR_clear_error();
                _PySSL_RaiseSimple(_PySSL_Error, 0, msg, __LINE__);
            }
            else {
                PySSL_QUEUE_ERROR("bad certificate in cadata");
            }
            rc = -1;
            break;
        }
        rc = store_add(self, cert);
        X509_free(cert);
        if (rc < 0) {
            break;
        }
        loaded++;
    }
    BIO_free(bio);
    return rc;
}

static PyObject *
context_load_verify_locations(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"cafile", "capath", "cadata", NULL};
    PySSLContext *self = CTX(op);
    PyObject *cafile = Py_None, *capath = Py_None, *cadata = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOO:load_verify_locations", kwlist,
                                     &cafile, &capath, &cadata)) {
        return NULL;
    }
    if (cafile == Py_None && capath == Py_None && cadata == Py_None) {
        PyErr_SetString(PyExc_TypeError, "cafile, capath and cadata cannot be all omitted");
        return NULL;
    }
    PyObject *file_b = NULL, *path_b = NULL, *result = NULL;
    if (cafile != Py_None &&
        (file_b = _PySSL_FSPath(cafile, "cafile should be a valid filesystem path")) == NULL) {
        return NULL;
    }
    if (capath != Py_None &&
        (path_b = _PySSL_FSPath(capath, "capath should be a valid filesystem path")) == NULL) {
        goto done;
    }
    if (cadata != Py_None) {
        int rc;
        if (PyUnicode_Check(cadata)) {
            PyObject *ascii = PyUnicode_AsASCIIString(cadata);
            if (ascii == NULL) {
                if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
                    PyErr_SetString(PyExc_TypeError, "cadata should be an ASCII string or a "
                                                     "bytes-like object");
                }
                goto done;
            }
            rc = load_cadata(self, PyBytes_AS_STRING(ascii), PyBytes_GET_SIZE(ascii), 1);
            Py_DECREF(ascii);
        }
        else if (PyObject_CheckBuffer(cadata)) {
            Py_buffer view;
            if (PyObject_GetBuffer(cadata, &view, PyBUF_SIMPLE) < 0) {
                goto done;
            }
            rc = load_cadata(self, view.buf, view.len, 0);
            PyBuffer_Release(&view);
        }
        else {
            PyErr_SetString(PyExc_TypeError,
                            "cadata should be an ASCII string or a bytes-like object");
            goto done;
        }
        if (rc < 0) {
            goto done;
        }
    }
    if (file_b != NULL || path_b != NULL) {
        ERR_clear_error();
        errno = 0;
        if (SSL_CTX_load_verify_locations(self->ctx, file_b ? PyBytes_AS_STRING(file_b) : NULL,
                                          path_b ? PyBytes_AS_STRING(path_b) : NULL) != 1) {
            load_failure(NULL, errno, "cannot load the verify locations");
            goto done;
        }
    }
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(file_b);
    Py_XDECREF(path_b);
    return result;
}

static PyObject *
context_load_dh_params(PyObject *op, PyObject *arg)
{
    PyObject *path = _PySSL_FSPath(arg, "path should be a valid filesystem path");
    if (path == NULL) {
        return NULL;
    }
    errno = 0;
    BIO *bio = BIO_new_file(PyBytes_AS_STRING(path), "r");
    Py_DECREF(path);
    if (bio == NULL) {
        int e = errno;
        ERR_clear_error();
        errno = e ? e : ENOENT;
        return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, arg);
    }
    DH *dh = PEM_read_bio_DHparams(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (dh == NULL) {
        return PySSL_QUEUE_ERROR("cannot read DH parameters");
    }
    int ok = SSL_CTX_set_tmp_dh(CTX(op)->ctx, dh);
    DH_free(dh);
    if (!ok) {
        return PySSL_QUEUE_ERROR("cannot use the DH parameters");
    }
    Py_RETURN_NONE;
}

static PyObject *
context_set_default_verify_paths(PyObject *op, PyObject *unused)
{
    if (!SSL_CTX_set_default_verify_paths(CTX(op)->ctx)) {
        return PySSL_QUEUE_ERROR("cannot set the default verify paths");
    }
    Py_RETURN_NONE;
}

static PyObject *
context_get_ca_certs(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"binary_form", NULL};
    int binary = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:get_ca_certs", kwlist, &binary)) {
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    X509_STORE *store = SSL_CTX_get_cert_store(CTX(op)->ctx);
    STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(store);
    for (int i = 0; i < sk_X509_OBJECT_num(objs); i++) {
        X509_OBJECT *obj = sk_X509_OBJECT_value(objs, i);
        if (X509_OBJECT_get_type(obj) != X509_LU_X509) {
            continue;
        }
        X509 *cert = X509_OBJECT_get0_X509(obj);
        if (!X509_check_ca(cert)) {
            continue;
        }
        PyObject *item = binary ? _PySSL_CertToDER(cert) : _PySSL_DecodeCert(cert);
        if (item == NULL || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    return out;
}

static PyObject *
context_cert_store_stats(PyObject *op, PyObject *unused)
{
    X509_STORE *store = SSL_CTX_get_cert_store(CTX(op)->ctx);
    STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(store);
    long x509 = 0, ca = 0, crl = 0;
    for (int i = 0; i < sk_X509_OBJECT_num(objs); i++) {
        X509_OBJECT *obj = sk_X509_OBJECT_value(objs, i);
        if (X509_OBJECT_get_type(obj) == X509_LU_X509) {
            x509++;
            ca += X509_check_ca(X509_OBJECT_get0_X509(obj)) ? 1 : 0;
        }
        else if (X509_OBJECT_get_type(obj) == X509_LU_CRL) {
            crl++;
        }
    }
    return Py_BuildValue("{sl,sl,sl}", "x509", x509, "crl", crl, "x509_ca", ca);
}

/* ---- Ciphers, ALPN, curves --------------------------------------------------------- */

static PyObject *
context_set_ciphers(PyObject *op, PyObject *args)
{
    const char *spec;
    if (!PyArg_ParseTuple(args, "s:set_ciphers", &spec)) {
        return NULL;
    }
    if (!SSL_CTX_set_cipher_list(CTX(op)->ctx, spec)) {
        ERR_clear_error();
        PyErr_SetString(_PySSL_Error, "No cipher can be selected.");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
nid_long_name(int nid)
{
    const char *ln = nid == NID_undef ? NULL : OBJ_nid2ln(nid);
    return ln ? PyUnicode_FromString(ln) : Py_NewRef(Py_None);
}

static PyObject *
cipher_dict(const SSL_CIPHER *c)
{
    char desc[256];
    SSL_CIPHER_description(c, desc, sizeof desc);
    size_t n = strlen(desc);
    while (n > 0 && (desc[n - 1] == '\n' || desc[n - 1] == ' ')) {
        desc[--n] = '\0';
    }
    int alg_bits = 0;
    int strength = SSL_CIPHER_get_bits(c, &alg_bits);
    return Py_BuildValue("{sk,ss,ss,ss,si,si,sO,sN,sN,sN,sN}", "id",
                         (unsigned long)SSL_CIPHER_get_id(c), "name", SSL_CIPHER_get_name(c),
                         "protocol", SSL_CIPHER_get_version(c), "description", desc,
                         "strength_bits", strength, "alg_bits", alg_bits, "aead",
                         SSL_CIPHER_is_aead(c) ? Py_True : Py_False, "symmetric",
                         nid_long_name(SSL_CIPHER_get_cipher_nid(c)), "digest",
                         nid_long_name(SSL_CIPHER_get_digest_nid(c)), "kea",
                         nid_long_name(SSL_CIPHER_get_kx_nid(c)), "auth",
                         nid_long_name(SSL_CIPHER_get_auth_nid(c)));
}

static PyObject *
context_get_ciphers(PyObject *op, PyObject *unused)
{
    SSL *ssl = SSL_new(CTX(op)->ctx);
    if (ssl == NULL) {
        return PySSL_QUEUE_ERROR("cannot list the ciphers");
    }
    STACK_OF(SSL_CIPHER) *ciphers = SSL_get_ciphers(ssl);
    PyObject *out = PyList_New(0);
    for (int i = 0; out != NULL && i < sk_SSL_CIPHER_num(ciphers); i++) {
        PyObject *d = cipher_dict(sk_SSL_CIPHER_value(ciphers, i));
        if (d == NULL || PyList_Append(out, d) < 0) {
            Py_CLEAR(out);
        }
        Py_XDECREF(d);
    }
    SSL_free(ssl);
    return out;
}

/* Server side of ALPN: the first of our protocols the client offers. */
static int
alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
            unsigned int inlen, void *arg)
{
    PySSLContext *ctx = SSL_CTX_get_app_data((SSL_CTX *)arg);
    if (ctx == NULL || ctx->alpn == NULL) {
        return SSL_TLSEXT_ERR_NOACK;
    }
    unsigned char *chosen;
    if (SSL_select_next_proto(&chosen, outlen, ctx->alpn, ctx->alpn_len, in, inlen) !=
        OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_NOACK;
    }
    *out = chosen;
    return SSL_TLSEXT_ERR_OK;
}

static PyObject *
context_set_alpn_protocols(PyObject *op, PyObject *arg)
{
    PySSLContext *self = CTX(op);
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (view.len > UINT_MAX) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_OverflowError, "protocols longer than 4294967295 bytes");
        return NULL;
    }
    unsigned char *copy = PyMem_Malloc(view.len ? view.len : 1);
    if (copy == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    memcpy(copy, view.buf, view.len);
    PyMem_Free(self->alpn);
    self->alpn = copy;
    self->alpn_len = (unsigned int)view.len;
    PyBuffer_Release(&view);
    if (SSL_CTX_set_alpn_protos(self->ctx, self->alpn, self->alpn_len) != 0) {
        return PySSL_QUEUE_ERROR("cannot set the ALPN protocols");
    }
    SSL_CTX_set_alpn_select_cb(self->ctx, alpn_select, self->ctx);
    Py_RETURN_NONE;
}

static PyObject *
context_set_ecdh_curve(PyObject *op, PyObject *arg)
{
    PyObject *name_b;
    if (PyUnicode_Check(arg)) {
        name_b = PyUnicode_AsUTF8String(arg);
    }
    else if (PyBytes_Check(arg)) {
        name_b = Py_NewRef(arg);
    }
    else {
        PyErr_Format(PyExc_TypeError, "curve name must be str or bytes, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    if (name_b == NULL) {
        return NULL;
    }
    int nid = OBJ_sn2nid(PyBytes_AS_STRING(name_b));
    Py_DECREF(name_b);
    if (nid == NID_undef) {
        PyErr_Format(PyExc_ValueError, "unknown elliptic curve name %R", arg);
        return NULL;
    }
    if (!SSL_CTX_set1_groups(CTX(op)->ctx, &nid, 1)) {
        return PySSL_QUEUE_ERROR("cannot use the curve");
    }
    Py_RETURN_NONE;
}

static PyObject *
context_session_stats(PyObject *op, PyObject *unused)
{
    SSL_CTX *c = CTX(op)->ctx;
    return Py_BuildValue("{sl,sl,sl,sl,sl,sl,sl,sl,sl,sl,sl}", "number", SSL_CTX_sess_number(c),
                         "connect", SSL_CTX_sess_connect(c), "connect_good",
                         SSL_CTX_sess_connect_good(c), "connect_renegotiate",
                         SSL_CTX_sess_connect_renegotiate(c), "accept", SSL_CTX_sess_accept(c),
                         "accept_good", SSL_CTX_sess_accept_good(c), "accept_renegotiate",
                         SSL_CTX_sess_accept_renegotiate(c), "hits", SSL_CTX_sess_hits(c),
                         "misses", SSL_CTX_sess_misses(c), "timeouts", SSL_CTX_sess_timeouts(c),
                         "cache_full", SSL_CTX_sess_cache_full(c));
}

static PyObject *
context_psk_unsupported(PyObject *op, PyObject *args, PyObject *kwargs)
{
    PyErr_SetString(PyExc_NotImplementedError, "_ssl: TLS-PSK callbacks are not supported "
                                               "(ssl.HAS_PSK is False)");
    return NULL;
}

/* ---- Wrapping ----------------------------------------------------------------------- */

static PyObject *
context_wrap_socket(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"sock", "server_side", "server_hostname", "owner", "session", NULL};
    PyObject *sock, *hostname = Py_None, *owner = Py_None, *session = Py_None;
    int server_side;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Op|O$OO:_wrap_socket", kwlist, &sock,
                                     &server_side, &hostname, &owner, &session)) {
        return NULL;
    }
    return _PySSL_NewConnection(CTX(op), sock, server_side, hostname, owner, session, NULL,
                                NULL);
}

static PyObject *
context_wrap_bio(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"incoming", "outgoing", "server_side", "server_hostname",
                             "owner",    "session",  NULL};
    PyObject *in, *out, *hostname = Py_None, *owner = Py_None, *session = Py_None;
    int server_side;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!p|O$OO:_wrap_bio", kwlist,
                                     &_PySSLMemoryBIO_Type, &in, &_PySSLMemoryBIO_Type, &out,
                                     &server_side, &hostname, &owner, &session)) {
        return NULL;
    }
    return _PySSL_NewConnection(CTX(op), NULL, server_side, hostname, owner, session,
                                (PySSLMemoryBIO *)in, (PySSLMemoryBIO *)out);
}

#define KW (METH_VARARGS | METH_KEYWORDS)
#define KWFUNC(f) ((PyCFunction)(void (*)(void))(f))

static PyMethodDef context_methods[] = {
    {"_wrap_socket", KWFUNC(context_wrap_socket), KW, "A connection over a socket."},
    {"_wrap_bio", KWFUNC(context_wrap_bio), KW, "A connection over two MemoryBIOs."},
    {"load_cert_chain", KWFUNC(context_load_cert_chain), KW,
     "Load a certificate chain and its private key (PEM)."},
    {"load_verify_locations", KWFUNC(context_load_verify_locations), KW,
     "Trust the CA certificates of a file, a directory or data."},
    {"load_dh_params", context_load_dh_params, METH_O, "Load DH parameters (PEM)."},
    {"set_default_verify_paths", context_set_default_verify_paths, METH_NOARGS,
     "Trust OpenSSL's default CA file and directory."},
    {"get_ca_certs", KWFUNC(context_get_ca_certs), KW, "The loaded CA certificates."},
    {"cert_store_stats", context_cert_store_stats, METH_NOARGS,
     "Counts of the certificates and CRLs loaded."},
    {"set_ciphers", context_set_ciphers, METH_VARARGS, "Choose ciphers (OpenSSL syntax)."},
    {"get_ciphers", context_get_ciphers, METH_NOARGS, "The enabled ciphers as dicts."},
    {"_set_alpn_protocols", context_set_alpn_protocols, METH_O,
     "Set the ALPN list (wire format)."},
    {"set_ecdh_curve", context_set_ecdh_curve, METH_O, "Use one elliptic curve for ECDH."},
    {"session_stats", context_session_stats, METH_NOARGS, "Session cache statistics."},
    {"set_psk_client_callback", KWFUNC(context_psk_unsupported), KW, "Not supported."},
    {"set_psk_server_callback", KWFUNC(context_psk_unsupported), KW, "Not supported."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef context_getset[] = {
    {"protocol", get_protocol, NULL, "The PROTOCOL_* the context was made with.", NULL},
    {"options", get_options, set_options, "OP_* flags.", NULL},
    {"verify_mode", get_verify_mode, set_verify_mode, "CERT_NONE, CERT_OPTIONAL or CERT_REQUIRED.",
     NULL},
    {"verify_flags", get_verify_flags, set_verify_flags, "VERIFY_* flags.", NULL},
    {"check_hostname", get_check_hostname, set_check_hostname,
     "Whether the peer certificate must match server_hostname.", NULL},
    {"_host_flags", get_host_flags, set_host_flags, "HOSTFLAG_* flags.", NULL},
    {"minimum_version", get_minimum_version, set_minimum_version, "Lowest TLS version.", NULL},
    {"maximum_version", get_maximum_version, set_maximum_version, "Highest TLS version.", NULL},
    {"num_tickets", get_num_tickets, set_num_tickets, "TLS 1.3 tickets a server sends.", NULL},
    {"security_level", get_security_level, NULL, "OpenSSL's security level.", NULL},
    {"post_handshake_auth", get_post_handshake_auth, set_post_handshake_auth,
     "TLS 1.3 post-handshake client authentication.", NULL},
    {"sni_callback", get_sni_callback, set_sni_callback,
     "Called as f(sslobject, server_name, context) when a client sends SNI.", NULL},
    {"_msg_callback", get_msg_callback, set_msg_callback,
     "Called for every TLS protocol message (a debugging hook).", NULL},
    {"keylog_filename", get_keylog_filename, set_keylog_filename,
     "File that TLS secrets are appended to.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PySSLContext_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_ssl._SSLContext",
    .tp_basicsize = sizeof(PySSLContext),
    .tp_dealloc = context_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The settings shared by TLS connections (an OpenSSL SSL_CTX).",
    .tp_traverse = context_traverse,
    .tp_clear = context_clear,
    .tp_alloc = PyType_GenericAlloc,
    .tp_free = PyObject_GC_Del,
    .tp_methods = context_methods,
    .tp_getset = context_getset,
    .tp_new = context_new,
};
