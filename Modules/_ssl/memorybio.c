/* _ssl.MemoryBIO (a byte queue OpenSSL reads from or writes to, for
   SSLObject) and _ssl.SSLSession (a resumable session). */

#include "ssl.h"

/* ---- MemoryBIO ------------------------------------------------------------- */

/* A memory BIO that reads as "retry later" while empty, until
   write_eof() makes an empty queue mean end of file. */
static BIO *
fresh_mem_bio(void)
{
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio != NULL) {
        BIO_set_mem_eof_return(bio, -1);
    }
    return bio;
}

static PyObject *
bio_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    int has_kwargs = kwargs != NULL && PyDict_GET_SIZE(kwargs) > 0;
    if (has_kwargs || PyTuple_GET_SIZE(args) > 0) {
        PyErr_SetString(PyExc_TypeError, "MemoryBIO() takes no arguments");
        return NULL;
    }
    PySSLMemoryBIO *self = (PySSLMemoryBIO *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->eof_written = 0;
    self->bio = fresh_mem_bio();
    if (self->bio == NULL) {
        Py_DECREF(self);
        return PySSL_QUEUE_ERROR("failed to allocate BIO");
    }
    return (PyObject *)self;
}

static void
bio_dealloc(PyObject *op)
{
    PySSLMemoryBIO *self = (PySSLMemoryBIO *)op;
    if (self->bio != NULL) {
        BIO_free(self->bio);
    }
    Py_TYPE(op)->tp_free(op);
}

static PyObject *
bio_get_pending(PyObject *op, void *closure)
{
    return PyLong_FromSize_t(BIO_ctrl_pending(((PySSLMemoryBIO *)op)->bio));
}

static PyObject *
bio_get_eof(PyObject *op, void *closure)
{
    PySSLMemoryBIO *self = (PySSLMemoryBIO *)op;
    return PyBool_FromLong(self->eof_written && BIO_ctrl_pending(self->bio) == 0);
}

static PyObject *
bio_read(PyObject *op, PyObject *args)
{
    PySSLMemoryBIO *self = (PySSLMemoryBIO *)op;
    int size = -1;
    if (!PyArg_ParseTuple(args, "|i:read", &size)) {
        return NULL;
    }
    size_t avail = BIO_ctrl_pending(self->bio);
    int n = (size < 0 || (size_t)size > avail) ? (int)avail : size;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (out == NULL || n == 0) {
        return out;
    }
    int got = BIO_read(self->bio, PyBytes_AS_STRING(out), n);
    if (got < 0) {
        Py_DECREF(out);
        return PySSL_QUEUE_ERROR("BIO_read failed");
    }
    if (got != n) {
        _PyBytes_Resize(&out, got);
    }
    return out;
}

static PyObject *
bio_write(PyObject *op, PyObject *arg)
{
    PySSLMemoryBIO *self = (PySSLMemoryBIO *)op;
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *out = NULL;
    if (view.len > INT_MAX) {
        PyErr_Format(PyExc_OverflowError, "string longer than %d bytes", INT_MAX);
    }
    else if (self->eof_written) {
        PyErr_SetString(_PySSL_Error, "cannot write() after write_eof()");
    }
    else {
        int n = BIO_write(self->bio, view.buf, (int)view.len);
        if (n < 0 && view.len > 0) {
            PySSL_QUEUE_ERROR("BIO_write failed");
        }
        else {
            out = PyLong_FromLong(n < 0 ? 0 : n);
        }
    }
    PyBuffer_Release(&view);
    return out;
}

static PyObject *
bio_write_eof(PyObject *op, PyObject *unused)
{
    PySSLMemoryBIO *self = (PySSLMemoryBIO *)op;
    self->eof_written = 1;
    /* From now on an empty queue reads as end of file. */
    BIO_clear_retry_flags(self->bio);
    BIO_set_mem_eof_return(self->bio, 0);
    Py_RETURN_NONE;
}

static PyMethodDef bio_methods[] = {
    {"read", bio_read, METH_VARARGS, "Take up to size bytes (all when size < 0)."},
    {"write", bio_write, METH_O, "Append bytes; returns how many."},
    {"write_eof", bio_write_eof, METH_NOARGS, "Mark the end of the data: no more writes."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef bio_getset[] = {
    {"pending", bio_get_pending, NULL, "Bytes waiting to be read.", NULL},
    {"eof", bio_get_eof, NULL, "Whether write_eof() was called and all was read.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PySSLMemoryBIO_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_ssl.MemoryBIO",
    .tp_basicsize = sizeof(PySSLMemoryBIO),
    .tp_dealloc = bio_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A buffer of bytes that OpenSSL reads or writes, for SSLObject.",
    .tp_methods = bio_methods,
    .tp_getset = bio_getset,
    .tp_new = bio_new,
};

/* ---- SSLSession ---------------------------------------------------------------- */

PyObject *
_PySSL_SessionNew(SSL_SESSION *session, PySSLContext *ctx)
{
    PySSLSession *s = PyObject_New(PySSLSession, &_PySSLSession_Type);
    if (s == NULL) {
        SSL_SESSION_free(session);
        return NULL;
    }
    s->session = session;
    s->ctx = (PySSLContext *)Py_NewRef((PyObject *)ctx);
    return (PyObject *)s;
}

static void
session_dealloc(PyObject *op)
{
    PySSLSession *s = (PySSLSession *)op;
    SSL_SESSION_free(s->session);
    Py_XDECREF(s->ctx);
    PyObject_Free(op);
}

static PyObject *
session_get_id(PyObject *op, void *closure)
{
    unsigned int len;
    const unsigned char *id = SSL_SESSION_get_id(((PySSLSession *)op)->session, &len);
    return PyBytes_FromStringAndSize((const char *)id, len);
}

static PyObject *
session_get_time(PyObject *op, void *closure)
{
    return PyLong_FromLongLong((long long)SSL_SESSION_get_time(((PySSLSession *)op)->session));
}

static PyObject *
session_get_timeout(PyObject *op, void *closure)
{
    return PyLong_FromLongLong((long long)SSL_SESSION_get_timeout(((PySSLSession *)op)->session));
}

static PyObject *
session_get_lifetime(PyObject *op, void *closure)
{
    return PyLong_FromUnsignedLong(
        SSL_SESSION_get_ticket_lifetime_hint(((PySSLSession *)op)->session));
}

static PyObject *
session_get_has_ticket(PyObject *op, void *closure)
{
    return PyBool_FromLong(SSL_SESSION_has_ticket(((PySSLSession *)op)->session));
}

static PyObject *
session_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, &_PySSLSession_Type) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    unsigned int la, lb;
    const unsigned char *ia = SSL_SESSION_get_id(((PySSLSession *)a)->session, &la);
    const unsigned char *ib = SSL_SESSION_get_id(((PySSLSession *)b)->session, &lb);
    int same = a == b || (la == lb && memcmp(ia, ib, la) == 0);
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static PyGetSetDef session_getset[] = {
    {"id", session_get_id, NULL, "Session id.", NULL},
    {"time", session_get_time, NULL, "Creation time (seconds since the epoch).", NULL},
    {"timeout", session_get_timeout, NULL, "Lifetime in seconds.", NULL},
    {"ticket_lifetime_hint", session_get_lifetime, NULL, "Ticket lifetime hint.", NULL},
    {"has_ticket", session_get_has_ticket, NULL, "Whether a session ticket came with it.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PySSLSession_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_ssl.SSLSession",
    .tp_basicsize = sizeof(PySSLSession),
    .tp_dealloc = session_dealloc,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_richcompare = session_richcompare,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A TLS session that a later connection may resume.",
    .tp_getset = session_getset,
};
