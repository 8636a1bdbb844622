/* _ssl._SSLSocket: one TLS connection (an OpenSSL SSL), over a socket's
   file descriptor or over two MemoryBIOs.  ssl.SSLSocket and ssl.SSLObject
   keep one as their _sslobj.

   Every operation goes through run_op(): OpenSSL is called with the GIL
   released; when it wants to read or write first, a socket with a timeout
   is polled (still without the GIL) until the deadline, while a
   non-blocking socket or a BIO pair raises SSLWantReadError /
   SSLWantWriteError for the caller to retry.  A blocking socket's fd is
   blocking, so OpenSSL itself waits. */

#include "ssl.h"
#include <errno.h>
#include <poll.h>
#include <time.h>

#define SOCK(op) ((PySSLSocket *)(op))

/* ---- Creation -------------------------------------------------------------- */

static int
set_hostname(PySSLSocket *self, PyObject *hostname)
{
    if (!PyUnicode_Check(hostname)) {
        PyErr_Format(PyExc_TypeError, "server_hostname must be str, not %.100s",
                     Py_TYPE(hostname)->tp_name);
        return -1;
    }
    Py_ssize_t len;
    const char *name = PyUnicode_AsUTF8AndSize(hostname, &len);
    if (name == NULL) {
        return -1;
    }
    if (len == 0 || name[0] == '.') {
        PyErr_SetString(PyExc_ValueError,
                        "server_hostname cannot be an empty string or start with a leading dot.");
        return -1;
    }
    if ((Py_ssize_t)strlen(name) != len) {
        PyErr_SetString(PyExc_TypeError, "server_hostname must not contain null characters");
        return -1;
    }
    ASN1_OCTET_STRING *ip = a2i_IPADDRESS(name);
    ERR_clear_error();
    /* SNI carries names only, never addresses. */
    if (ip == NULL && !SSL_set_tlsext_host_name(self->ssl, name)) {
        PySSL_QUEUE_ERROR("cannot set the server name");
        return -1;
    }
    if (self->ctx->check_hostname) {
        X509_VERIFY_PARAM *param = SSL_get0_param(self->ssl);
        int ok = ip ? X509_VERIFY_PARAM_set1_ip(param, ASN1_STRING_get0_data(ip),
                                                ASN1_STRING_length(ip))
                    : X509_VERIFY_PARAM_set1_host(param, name, len);
        X509_VERIFY_PARAM_set_hostflags(param, self->ctx->host_flags);
        if (!ok) {
            ASN1_OCTET_STRING_free(ip);
            PySSL_QUEUE_ERROR("cannot set the host to verify");
            return -1;
        }
    }
    ASN1_OCTET_STRING_free(ip);
    self->server_hostname = Py_NewRef(hostname);
    return 0;
}

static int
attach_socket(PySSLSocket *self, PyObject *sock)
{
    PyObject *fileno = PyObject_CallMethod(sock, "fileno", NULL);
    if (fileno == NULL) {
        return -1;
    }
    int fd = PyLong_AsInt(fileno);
    Py_DECREF(fileno);
    if (fd == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (!SSL_set_fd(self->ssl, fd)) {
        PySSL_QUEUE_ERROR("cannot attach the socket");
        return -1;
    }
    self->sock = PyWeakref_NewRef(sock, NULL);
    return self->sock == NULL ? -1 : 0;
}

static void
apply_pha(PySSLSocket *self)
{
    if (!self->ctx->post_handshake_auth) {
        return;
    }
    if (!self->server_side) {
        SSL_set_post_handshake_auth(self->ssl, 1);
        return;
    }
    int mode = SSL_get_verify_mode(self->ssl);
    if (mode & SSL_VERIFY_PEER) {
        SSL_set_verify(self->ssl, mode | SSL_VERIFY_POST_HANDSHAKE, NULL);
    }
}

PyObject *
_PySSL_NewConnection(PySSLContext *ctx, PyObject *sock, int server_side, PyObject *hostname,
                     PyObject *owner, PyObject *session, PySSLMemoryBIO *inbio,
                     PySSLMemoryBIO *outbio)
{
    if (server_side && ctx->protocol == PY_SSL_VERSION_TLS_CLIENT) {
        return _PySSL_RaiseSimple(_PySSL_Error, 0, "Cannot create a server socket with a "
                                                    "PROTOCOL_TLS_CLIENT context", __LINE__);
    }
    if (!server_side && ctx->protocol == PY_SSL_VERSION_TLS_SERVER) {
        return _PySSL_RaiseSimple(_PySSL_Error, 0, "Cannot create a client socket with a "
                                                    "PROTOCOL_TLS_SERVER context", __LINE__);
    }
    PySSLSocket *self = PyObject_New(PySSLSocket, &_PySSLSocket_Type);
    if (self == NULL) {
        return NULL;
    }
    self->ssl = NULL;
    self->ctx = (PySSLContext *)Py_NewRef((PyObject *)ctx);
    self->sock = self->owner = self->server_hostname = self->callback_exc = NULL;
    self->inbio = self->outbio = NULL;
    self->server_side = server_side;
    self->handshake_done = 0;
    self->saved = NULL;
    self->ssl = SSL_new(ctx->ctx);
    if (self->ssl == NULL) {
        Py_DECREF(self);
        return PySSL_QUEUE_ERROR("cannot create the connection");
    }
    SSL_set_app_data(self->ssl, self);
    if (inbio != NULL) {
        BIO_up_ref(inbio->bio);
        BIO_up_ref(outbio->bio);
        SSL_set_bio(self->ssl, inbio->bio, outbio->bio);
        self->inbio = (PySSLMemoryBIO *)Py_NewRef((PyObject *)inbio);
        self->outbio = (PySSLMemoryBIO *)Py_NewRef((PyObject *)outbio);
    }
    else if (attach_socket(self, sock) < 0) {
        goto error;
    }
    if (hostname != Py_None && set_hostname(self, hostname) < 0) {
        goto error;
    }
    apply_pha(self);
    if (server_side) {
        SSL_set_accept_state(self->ssl);
    }
    else {
        SSL_set_connect_state(self->ssl);
    }
    if (owner != Py_None && (self->owner = PyWeakref_NewRef(owner, NULL)) == NULL) {
        goto error;
    }
    if (session != Py_None && _PySSL_SetSession(self, session) < 0) {
        goto error;
    }
    return (PyObject *)self;
error:
    Py_DECREF(self);
    return NULL;
}

static void
sslsocket_dealloc(PyObject *op)
{
    PySSLSocket *self = SOCK(op);
    if (self->ssl != NULL) {
        /* Closing without close_notify would make OpenSSL drop the session
           from the cache; a session that completed its handshake stays
           resumable. */
        if (SSL_is_init_finished(self->ssl)) {
            SSL_set_shutdown(self->ssl, SSL_get_shutdown(self->ssl) | SSL_SENT_SHUTDOWN);
        }
        SSL_free(self->ssl);
    }
    Py_XDECREF(self->ctx);
    Py_XDECREF(self->sock);
    Py_XDECREF(self->owner);
    Py_XDECREF(self->server_hostname);
    Py_XDECREF(self->inbio);
    Py_XDECREF(self->outbio);
    Py_XDECREF(self->callback_exc);
    PyObject_Free(op);
}

/* ---- Running an operation -------------------------------------------------------- */

typedef struct {
    int (*call)(SSL *ssl, void *arg); /* OpenSSL's return value */
    void *arg;
    const char *name;                 /* for the timeout message */
    int ret, err, sys_errno;          /* of the last call */
} ssl_op;

/* The socket behind a socket-mode connection (new reference) and its
   timeout in seconds (-1.0: blocking); NULL with an exception. */
static PyObject *
live_socket(PySSLSocket *self, double *timeout)
{
    PyObject *sock = NULL;
    if (PyWeakref_GetRef(self->sock, &sock) < 0) {
        return NULL;
    }
    if (sock == NULL || sock == Py_None) {
        Py_XDECREF(sock);
        PyErr_SetString(_PySSL_Error, "Underlying socket connection gone");
        return NULL;
    }
    PyObject *fileno = PyObject_CallMethod(sock, "fileno", NULL);
    long fd = fileno ? PyLong_AsLong(fileno) : -1;
    Py_XDECREF(fileno);
    if (fd == -1) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(_PySSL_Error, "Underlying socket has been closed.");
        }
        Py_DECREF(sock);
        return NULL;
    }
    PyObject *t = PyObject_CallMethod(sock, "gettimeout", NULL);
    if (t == NULL) {
        Py_DECREF(sock);
        return NULL;
    }
    *timeout = t == Py_None ? -1.0 : PyFloat_AsDouble(t);
    Py_DECREF(t);
    if (*timeout == -1.0 && PyErr_Occurred()) {
        Py_DECREF(sock);
        return NULL;
    }
    return sock;
}

static double
monotonic_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Wait without the GIL until fd is ready for `events` or the deadline
   passes: 1 ready, 0 timed out, -1 with an exception. */
static int
wait_fd(int fd, short events, double deadline)
{
    for (;;) {
        int ms = -1;
        if (deadline > 0) {
            double left = deadline - monotonic_now();
            if (left <= 0) {
                return 0;
            }
            ms = (int)(left * 1000.0) + 1;
        }
        struct pollfd p = {.fd = fd, .events = events};
        int rc, e;
        Py_BEGIN_ALLOW_THREADS
        rc = poll(&p, 1, ms);
        e = errno;
        Py_END_ALLOW_THREADS
        if (rc > 0) {
            return 1;
        }
        if (rc == 0) {
            return 0;
        }
        if (e != EINTR) {
            errno = e;
            PyErr_SetFromErrno(PyExc_OSError);
            return -1;
        }
        if (PyErr_CheckSignals() < 0) {
            return -1;
        }
    }
}

/* 0 when the operation succeeded (op->ret > 0), 1 when it failed in a way
   the caller judges (op->err says how), -1 with an exception set. */
static int
run_op(PySSLSocket *self, ssl_op *op)
{
    double timeout = 0.0, deadline = 0.0;
    PyObject *sock = NULL;
    if (self->sock != NULL) {
        sock = live_socket(self, &timeout);
        if (sock == NULL) {
            return -1;
        }
        if (timeout > 0) {
            deadline = monotonic_now() + timeout;
        }
    }
    int rc;
    for (;;) {
        ERR_clear_error();
        self->saved = PyEval_SaveThread();
        errno = 0;
        op->ret = op->call(self->ssl, op->arg);
        op->err = op->ret > 0 ? SSL_ERROR_NONE : SSL_get_error(self->ssl, op->ret);
        op->sys_errno = errno;
        PyEval_RestoreThread(self->saved);
        self->saved = NULL;
        if (self->callback_exc != NULL) {
            PyErr_SetRaisedException(self->callback_exc);
            self->callback_exc = NULL;
            rc = -1;
            break;
        }
        if (op->err == SSL_ERROR_NONE) {
            rc = 0;
            break;
        }
        int want = op->err == SSL_ERROR_WANT_READ    ? POLLIN
                   : op->err == SSL_ERROR_WANT_WRITE ? POLLOUT
                                                     : 0;
        if (want && sock != NULL && timeout != 0.0) {
            int ready = wait_fd(SSL_get_fd(self->ssl), (short)want, deadline);
            if (ready < 0) {
                rc = -1;
                break;
            }
            if (ready == 0) {
                PyErr_Format(PyExc_TimeoutError, "_ssl.c:%d: The %s operation timed out", __LINE__,
                             op->name);
                rc = -1;
                break;
            }
            continue;
        }
        if (op->err == SSL_ERROR_SYSCALL && op->sys_errno == EINTR) {
            if (PyErr_CheckSignals() < 0) {
                rc = -1;
                break;
            }
            continue;
        }
        rc = 1;
        break;
    }
    Py_XDECREF(sock);
    return rc;
}

static PyObject *
op_error(PySSLSocket *self, ssl_op *op, int line)
{
    return _PySSL_RaiseForConnection(self, op->ret, op->err, op->sys_errno, line);
}

/* ---- Handshake, read, write, shutdown ------------------------------------------------ */

static int
call_handshake(SSL *ssl, void *arg)
{
    return SSL_do_handshake(ssl);
}

static PyObject *
sslsocket_do_handshake(PyObject *op_self, PyObject *unused)
{
    PySSLSocket *self = SOCK(op_self);
    ssl_op op = {call_handshake, NULL, "handshake", 0, 0, 0};
    int rc = run_op(self, &op);
    if (rc < 0) {
        return NULL;
    }
    if (rc > 0) {
        return op_error(self, &op, __LINE__);
    }
    self->handshake_done = 1;
    Py_RETURN_NONE;
}

typedef struct {
    void *buf;
    size_t len, done;
} io_request;

static int
call_read(SSL *ssl, void *arg)
{
    io_request *r = arg;
    return SSL_read_ex(ssl, r->buf, r->len, &r->done);
}

static int
call_write(SSL *ssl, void *arg)
{
    io_request *r = arg;
    return SSL_write_ex(ssl, r->buf, r->len, &r->done);
}

/* Read into buf; the count, 0 at a clean close, or -1 with an exception. */
static Py_ssize_t
read_into(PySSLSocket *self, void *buf, Py_ssize_t len)
{
    if (len == 0) {
        return 0;
    }
    io_request req = {buf, (size_t)len, 0};
    ssl_op op = {call_read, &req, "read", 0, 0, 0};
    int rc = run_op(self, &op);
    if (rc < 0) {
        return -1;
    }
    if (rc == 0) {
        return (Py_ssize_t)req.done;
    }
    if (op.err == SSL_ERROR_ZERO_RETURN && (SSL_get_shutdown(self->ssl) & SSL_RECEIVED_SHUTDOWN)) {
        return 0;
    }
    op_error(self, &op, __LINE__);
    return -1;
}

static PyObject *
sslsocket_read(PyObject *op_self, PyObject *args)
{
    PySSLSocket *self = SOCK(op_self);
    Py_ssize_t len = 1024;
    PyObject *buffer = NULL;
    if (!PyArg_ParseTuple(args, "n|O:read", &len, &buffer)) {
        return NULL;
    }
    if (buffer != NULL && buffer != Py_None) {
        Py_buffer view;
        if (PyObject_GetBuffer(buffer, &view, PyBUF_WRITABLE) < 0) {
            return NULL;
        }
        if (len <= 0 || len > view.len) {
            len = view.len;
        }
        Py_ssize_t n = read_into(self, view.buf, len);
        PyBuffer_Release(&view);
        return n < 0 ? NULL : PyLong_FromSsize_t(n);
    }
    if (len < 0) {
        PyErr_SetString(PyExc_ValueError, "size should not be negative");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, len);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t n = read_into(self, PyBytes_AS_STRING(out), len);
    if (n < 0) {
        Py_DECREF(out);
        return NULL;
    }
    if (n != len) {
        _PyBytes_Resize(&out, n);
    }
    return out;
}

static PyObject *
sslsocket_write(PyObject *op_self, PyObject *arg)
{
    PySSLSocket *self = SOCK(op_self);
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (view.len > INT_MAX) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_OverflowError, "string longer than %d bytes", INT_MAX);
        return NULL;
    }
    io_request req = {view.buf, (size_t)view.len, 0};
    ssl_op op = {call_write, &req, "write", 0, 0, 0};
    int rc = view.len == 0 ? 0 : run_op(self, &op);
    PyBuffer_Release(&view);
    if (rc < 0) {
        return NULL;
    }
    if (rc > 0) {
        return op_error(self, &op, __LINE__);
    }
    return PyLong_FromSize_t(req.done);
}

static int
call_shutdown(SSL *ssl, void *arg)
{
    int r = SSL_shutdown(ssl);
    /* 0: our close_notify went out, the peer's has not come yet.  Report
       it as success to run_op; the caller decides whether to wait. */
    *(int *)arg = r;
    return r == 0 ? 1 : r;
}

static PyObject *
sslsocket_shutdown(PyObject *op_self, PyObject *unused)
{
    PySSLSocket *self = SOCK(op_self);
    int first = 0;
    ssl_op op = {call_shutdown, &first, "shutdown", 0, 0, 0};
    int rc = run_op(self, &op);
    if (rc == 0 && first == 0) {
        /* Wait for the peer's close_notify. */
        rc = run_op(self, &op);
    }
    if (rc < 0) {
        return NULL;
    }
    if (rc > 0) {
        return op_error(self, &op, __LINE__);
    }
    if (self->sock == NULL) {
        Py_RETURN_NONE;
    }
    PyObject *sock = NULL;
    if (PyWeakref_GetRef(self->sock, &sock) < 0) {
        return NULL;
    }
    return sock ? sock : Py_NewRef(Py_None);
}

/* ---- Queries ------------------------------------------------------------------------ */

static PyObject *
sslsocket_getpeercert(PyObject *op_self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"binary_form", NULL};
    PySSLSocket *self = SOCK(op_self);
    int binary = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:getpeercert", kwlist, &binary)) {
        return NULL;
    }
    if (!SSL_is_init_finished(self->ssl)) {
        PyErr_SetString(PyExc_ValueError, "handshake not done yet");
        return NULL;
    }
    X509 *peer = SSL_get1_peer_certificate(self->ssl);
    if (peer == NULL) {
        Py_RETURN_NONE;
    }
    PyObject *out;
    if (binary) {
        out = _PySSL_CertToDER(peer);
    }
    else if (!(SSL_get_verify_mode(self->ssl) & SSL_VERIFY_PEER)) {
        out = PyDict_New();
    }
    else {
        out = _PySSL_DecodeCert(peer);
    }
    X509_free(peer);
    return out;
}

static PyObject *
cert_list(STACK_OF(X509) *chain, X509 *first)
{
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    if (first != NULL) {
        PyObject *c = _PySSL_CertificateNew(first);
        if (c == NULL || PyList_Append(out, c) < 0) {
            Py_XDECREF(c);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(c);
    }
    for (int i = 0; chain != NULL && i < sk_X509_num(chain); i++) {
        PyObject *c = _PySSL_CertificateNew(sk_X509_value(chain, i));
        if (c == NULL || PyList_Append(out, c) < 0) {
            Py_XDECREF(c);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(c);
    }
    return out;
}

static PyObject *
sslsocket_get_verified_chain(PyObject *op_self, PyObject *unused)
{
    STACK_OF(X509) *chain = SSL_get0_verified_chain(SOCK(op_self)->ssl);
    if (chain == NULL) {
        Py_RETURN_NONE;
    }
    return cert_list(chain, NULL);
}

static PyObject *
sslsocket_get_unverified_chain(PyObject *op_self, PyObject *unused)
{
    PySSLSocket *self = SOCK(op_self);
    STACK_OF(X509) *chain = SSL_get_peer_cert_chain(self->ssl);
    if (chain == NULL) {
        Py_RETURN_NONE;
    }
    /* A server's view of the chain leaves out the client's own certificate. */
    X509 *peer = self->server_side ? SSL_get0_peer_certificate(self->ssl) : NULL;
    return cert_list(chain, peer);
}

static PyObject *
cipher_tuple(const SSL_CIPHER *c)
{
    return Py_BuildValue("(zzi)", SSL_CIPHER_get_name(c), SSL_CIPHER_get_version(c),
                         SSL_CIPHER_get_bits(c, NULL));
}

static PyObject *
sslsocket_cipher(PyObject *op_self, PyObject *unused)
{
    const SSL_CIPHER *c = SSL_get_current_cipher(SOCK(op_self)->ssl);
    if (c == NULL) {
        Py_RETURN_NONE;
    }
    return cipher_tuple(c);
}

/* Server side, after the handshake: the client's offer that we accept too.
   A client, or a connection not yet established, has None. */
static PyObject *
sslsocket_shared_ciphers(PyObject *op_self, PyObject *unused)
{
    PySSLSocket *self = SOCK(op_self);
    STACK_OF(SSL_CIPHER) *offered = NULL;
    if (self->server_side && SSL_is_init_finished(self->ssl)) {
        offered = SSL_get_client_ciphers(self->ssl);
    }
    if (offered == NULL) {
        Py_RETURN_NONE;
    }
    STACK_OF(SSL_CIPHER) *ours = SSL_get_ciphers(self->ssl);
    PyObject *out = PyList_New(0);
    for (int i = 0; out != NULL && i < sk_SSL_CIPHER_num(offered); i++) {
        const SSL_CIPHER *c = sk_SSL_CIPHER_value(offered, i);
        if (ours != NULL && sk_SSL_CIPHER_find(ours, c) < 0) {
            continue;
        }
        PyObject *t = cipher_tuple(c);
        if (t == NULL || PyList_Append(out, t) < 0) {
            Py_CLEAR(out);
        }
        Py_XDECREF(t);
    }
    return out;
}

static PyObject *
sslsocket_version(PyObject *op_self, PyObject *unused)
{
    PySSLSocket *self = SOCK(op_self);
    if (!SSL_is_init_finished(self->ssl)) {
        Py_RETURN_NONE;
    }
    const char *v = SSL_get_version(self->ssl);
    if (v == NULL || strcmp(v, "unknown") == 0) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(v);
}

static PyObject *
sslsocket_compression(PyObject *op_self, PyObject *unused)
{
    /* OpenSSL 3 builds do not compress (OP_NO_COMPRESSION is the default). */
    Py_RETURN_NONE;
}

static PyObject *
sslsocket_selected_alpn_protocol(PyObject *op_self, PyObject *unused)
{
    const unsigned char *p;
    unsigned int len;
    SSL_get0_alpn_selected(SOCK(op_self)->ssl, &p, &len);
    if (p == NULL || len == 0) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromStringAndSize((const char *)p, len);
}

static PyObject *
sslsocket_pending(PyObject *op_self, PyObject *unused)
{
    return PyLong_FromLong(SSL_pending(SOCK(op_self)->ssl));
}

static PyObject *
sslsocket_get_channel_binding(PyObject *op_self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"cb_type", NULL};
    PySSLSocket *self = SOCK(op_self);
    const char *cb_type = "tls-unique";
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|s:get_channel_binding", kwlist, &cb_type)) {
        return NULL;
    }
    if (strcmp(cb_type, "tls-unique") != 0) {
        PyErr_Format(PyExc_ValueError, "'%s' channel binding type not implemented", cb_type);
        return NULL;
    }
    if (!SSL_is_init_finished(self->ssl)) {
        Py_RETURN_NONE;
    }
    /* tls-unique is the first Finished message: the client's after a full
       handshake, the server's after a resumption. */
    int own = (self->server_side != 0) == (SSL_session_reused(self->ssl) != 0);
    unsigned char buf[EVP_MAX_MD_SIZE];
    size_t n = own ? SSL_get_finished(self->ssl, buf, sizeof buf)
                   : SSL_get_peer_finished(self->ssl, buf, sizeof buf);
    if (n == 0) {
        Py_RETURN_NONE;
    }
    return PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)n);
}

static PyObject *
sslsocket_verify_client_post_handshake(PyObject *op_self, PyObject *unused)
{
    if (SSL_verify_client_post_handshake(SOCK(op_self)->ssl) != 1) {
        return PySSL_QUEUE_ERROR("post-handshake authentication failed");
    }
    Py_RETURN_NONE;
}

/* ---- Attributes ----------------------------------------------------------------------- */

static PyObject *
get_context(PyObject *op_self, void *c)
{
    return Py_NewRef((PyObject *)SOCK(op_self)->ctx);
}

static int
set_context(PyObject *op_self, PyObject *value, void *c)
{
    PySSLSocket *self = SOCK(op_self);
    if (value == NULL || !PyObject_TypeCheck(value, &_PySSLContext_Type)) {
        PyErr_SetString(PyExc_TypeError, "The value must be a SSLContext");
        return -1;
    }
    PySSLContext *ctx = (PySSLContext *)value;
    SSL_set_SSL_CTX(self->ssl, ctx->ctx);
    Py_SETREF(self->ctx, (PySSLContext *)Py_NewRef(value));
    return 0;
}

static PyObject *
get_server_side(PyObject *op_self, void *c)
{
    return PyBool_FromLong(SOCK(op_self)->server_side);
}

static PyObject *
get_server_hostname(PyObject *op_self, void *c)
{
    PyObject *h = SOCK(op_self)->server_hostname;
    return Py_NewRef(h ? h : Py_None);
}

static PyObject *
get_owner(PyObject *op_self, void *c)
{
    PyObject *owner = NULL;
    if (SOCK(op_self)->owner != NULL && PyWeakref_GetRef(SOCK(op_self)->owner, &owner) < 0) {
        return NULL;
    }
    return owner ? owner : Py_NewRef(Py_None);
}

static int
set_owner(PyObject *op_self, PyObject *value, void *c)
{
    PySSLSocket *self = SOCK(op_self);
    PyObject *ref = NULL;
    if (value != NULL && value != Py_None && (ref = PyWeakref_NewRef(value, NULL)) == NULL) {
        return -1;
    }
    Py_XSETREF(self->owner, ref);
    return 0;
}

static PyObject *
get_session(PyObject *op_self, void *c)
{
    SSL_SESSION *s = SSL_get1_session(SOCK(op_self)->ssl);
    if (s == NULL) {
        Py_RETURN_NONE;
    }
    return _PySSL_SessionNew(s, SOCK(op_self)->ctx);
}

int
_PySSL_SetSession(PySSLSocket *self, PyObject *value)
{
    if (value == NULL || !PyObject_TypeCheck(value, &_PySSLSession_Type)) {
        PyErr_SetString(PyExc_TypeError, "Value is not a SSLSession.");
        return -1;
    }
    PySSLSession *session = (PySSLSession *)value;
    if (session->ctx->ctx != self->ctx->ctx) {
        PyErr_SetString(PyExc_ValueError, "Session refers to a different SSLContext.");
        return -1;
    }
    if (self->server_side) {
        PyErr_SetString(PyExc_ValueError, "Cannot set session for server-side SSLSocket.");
        return -1;
    }
    if (SSL_is_init_finished(self->ssl)) {
        PyErr_SetString(PyExc_ValueError, "Cannot set session after handshake.");
        return -1;
    }
    if (!SSL_set_session(self->ssl, session->session)) {
        PySSL_QUEUE_ERROR("cannot set the session");
        return -1;
    }
    return 0;
}

static int
set_session(PyObject *op_self, PyObject *value, void *c)
{
    return _PySSL_SetSession(SOCK(op_self), value);
}

static PyObject *
get_session_reused(PyObject *op_self, void *c)
{
    return PyBool_FromLong(SSL_session_reused(SOCK(op_self)->ssl));
}

#define KWFUNC(f) ((PyCFunction)(void (*)(void))(f))

static PyMethodDef sslsocket_methods[] = {
    {"do_handshake", sslsocket_do_handshake, METH_NOARGS, "Run the TLS handshake."},
    {"read", sslsocket_read, METH_VARARGS, "read(len=1024[, buffer]): decrypted bytes."},
    {"write", sslsocket_write, METH_O, "Encrypt and send bytes; returns the count."},
    {"shutdown", sslsocket_shutdown, METH_NOARGS,
     "Exchange close_notify alerts; returns the socket (None for BIOs)."},
    {"getpeercert", KWFUNC(sslsocket_getpeercert), METH_VARARGS | METH_KEYWORDS,
     "The peer's certificate as a dict, or DER bytes with binary_form=True."},
    {"get_verified_chain", sslsocket_get_verified_chain, METH_NOARGS,
     "The verified chain as Certificate objects."},
    {"get_unverified_chain", sslsocket_get_unverified_chain, METH_NOARGS,
     "The chain the peer sent as Certificate objects."},
    {"cipher", sslsocket_cipher, METH_NOARGS, "(name, protocol, secret bits) of the cipher."},
    {"shared_ciphers", sslsocket_shared_ciphers, METH_NOARGS,
     "Ciphers both sides could use."},
    {"version", sslsocket_version, METH_NOARGS, "The negotiated protocol version."},
    {"compression", sslsocket_compression, METH_NOARGS, "The compression method (None)."},
    {"selected_alpn_protocol", sslsocket_selected_alpn_protocol, METH_NOARGS,
     "The protocol ALPN chose."},
    {"pending", sslsocket_pending, METH_NOARGS, "Decrypted bytes ready to read."},
    {"get_channel_binding", KWFUNC(sslsocket_get_channel_binding), METH_VARARGS | METH_KEYWORDS,
     "Channel binding data (tls-unique)."},
    {"verify_client_post_handshake", sslsocket_verify_client_post_handshake, METH_NOARGS,
     "Ask a TLS 1.3 client for its certificate now."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef sslsocket_getset[] = {
    {"context", get_context, set_context, "The _SSLContext in use.", NULL},
    {"server_side", get_server_side, NULL, "Whether this is the server end.", NULL},
    {"server_hostname", get_server_hostname, NULL, "The host name asked for.", NULL},
    {"owner", get_owner, set_owner, "The SSLSocket or SSLObject this serves.", NULL},
    {"session", get_session, set_session, "The TLS session.", NULL},
    {"session_reused", get_session_reused, NULL, "Whether the session was resumed.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PySSLSocket_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_ssl._SSLSocket",
    .tp_basicsize = sizeof(PySSLSocket),
    .tp_dealloc = sslsocket_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One TLS connection (an OpenSSL SSL object).",
    .tp_methods = sslsocket_methods,
    .tp_getset = sslsocket_getset,
};
