/* The `_socket.socket` type: a file descriptor with a family, type,
   protocol and timeout.  socket.py subclasses it.

   A socket with a timeout (> 0) keeps its fd non-blocking and waits
   with poll() for each operation; EINTR is retried (PEP 475) once the
   signal handlers have run, with whatever time is left. */

#include "socketmodule.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SOCK(op) ((PySocketObject *)(op))

static double
now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
set_fd_blocking(int fd, int blocking)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) {
        return -1;
    }
    int wanted = blocking ? (flags & ~O_NONBLOCK) : (flags | O_NONBLOCK);
    return wanted == flags ? 0 : fcntl(fd, F_SETFL, wanted);
}

static int
check_open(PySocketObject *s)
{
    if (s->fd < 0) {
        errno = EBADF;
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    return 0;
}

static PyObject *
raise_timeout(void)
{
    PyErr_SetString(PyExc_TimeoutError, "timed out");
    return NULL;
}

/* Wait until the fd is ready for `events` or the deadline passes.
   1 ready, 0 timed out, -1 error set.  Signals are served in between. */
static int
wait_ready(PySocketObject *s, short events, double deadline)
{
    for (;;) {
        int ms = -1;
        if (deadline >= 0) {
            double left = deadline - now_seconds();
            ms = left <= 0 ? 0 : (int)ceil(left * 1000.0);
        }
        struct pollfd p = {.fd = s->fd, .events = events};
        int n;
        Py_BEGIN_ALLOW_THREADS
        n = poll(&p, 1, ms);
        Py_END_ALLOW_THREADS
        if (n > 0) {
            return 1;
        }
        if (n == 0) {
            return 0;
        }
        if (errno != EINTR) {
            PyErr_SetFromErrno(PyExc_OSError);
            return -1;
        }
        if (PyErr_CheckSignals() < 0) {
            return -1;
        }
    }
}

static double
deadline_from_now(PySocketObject *s)
{
    return s->timeout > 0 ? now_seconds() + s->timeout : -1.0;
}

/* Run `op` until it succeeds or the deadline (for a timeout socket)
   passes; the op's result, or -1 with an exception set. */
static Py_ssize_t
run_until(PySocketObject *s, short events, _PySocket_Op op, void *data, double deadline)
{
    if (check_open(s) < 0) {
        return -1;
    }
    for (;;) {
        Py_ssize_t r;
        Py_BEGIN_ALLOW_THREADS
        r = op(s, data);
        Py_END_ALLOW_THREADS
        if (r >= 0) {
            return r;
        }
        int err = errno;
        if (err == EINTR) {
            if (PyErr_CheckSignals() < 0) {
                return -1;
            }
            continue;
        }
        if (s->timeout > 0 && (err == EAGAIN || err == EWOULDBLOCK)) {
            int ready = wait_ready(s, events, deadline);
            if (ready < 0) {
                return -1;
            }
            if (ready == 0) {
                raise_timeout();
                return -1;
            }
            continue;
        }
        errno = err;
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
}

/* One operation under the socket's timeout. */
Py_ssize_t
_PySocket_RunOp(PySocketObject *s, short events, _PySocket_Op op, void *data)
{
    return run_until(s, events, op, data, deadline_from_now(s));
}

/* ---- Creation -------------------------------------------------------------------------- */

static int
apply_timeout(PySocketObject *s, double timeout)
{
    s->timeout = timeout;
    if (s->fd >= 0 && set_fd_blocking(s->fd, timeout < 0) < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    return 0;
}

static PyObject *
socket_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *self = type->tp_alloc(type, 0);
    if (self != NULL) {
        SOCK(self)->fd = -1;
        SOCK(self)->family = AF_INET;
        SOCK(self)->type = SOCK_STREAM;
        SOCK(self)->timeout = -1.0;
    }
    return self;
}

static int
sockopt_int(int fd, int opt, int *value)
{
    socklen_t len = sizeof(*value);
    return getsockopt(fd, SOL_SOCKET, opt, value, &len);
}

/* Adopt an existing fd; unknown family/type/proto come from the kernel. */
static int
adopt_fd(PySocketObject *s, PyObject *fileno, int *family, int *type, int *proto)
{
    int fd = PyLong_AsInt(fileno);
    if (fd == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "'%.200s' object cannot be interpreted as an integer",
                         Py_TYPE(fileno)->tp_name);
        }
        return -1;
    }
    if (fd < 0) {
        PyErr_SetString(PyExc_ValueError, "negative file descriptor");
        return -1;
    }
    int probe;
    if (sockopt_int(fd, SO_TYPE, &probe) < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    if (*type == -1) {
        *type = probe;
    }
    if (*family == -1 && sockopt_int(fd, SO_DOMAIN, family) < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    if (*proto == -1 && sockopt_int(fd, SO_PROTOCOL, proto) < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    s->fd = fd;
    return 0;
}

static int
socket_init(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"family", "type", "proto", "fileno", NULL};
    PySocketObject *s = SOCK(self);
    int family = -1, type = -1, proto = -1;
    PyObject *fileno = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|iiiO:socket", (char **)kwlist, &family,
                                     &type, &proto, &fileno)) {
        return -1;
    }
    if (fileno != Py_None) {
        if (adopt_fd(s, fileno, &family, &type, &proto) < 0) {
            return -1;
        }
    }
    else {
        family = family == -1 ? AF_INET : family;
        type = type == -1 ? SOCK_STREAM : type;
        proto = proto == -1 ? 0 : proto;
        int fd;
        Py_BEGIN_ALLOW_THREADS
        fd = socket(family, type | SOCK_CLOEXEC, proto);
        Py_END_ALLOW_THREADS
        if (fd < 0) {
            PyErr_SetFromErrno(PyExc_OSError);
            return -1;
        }
        s->fd = fd;
    }
    s->family = family;
    s->type = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
    s->proto = proto;
    double timeout = (type & SOCK_NONBLOCK) ? 0.0 : _PySocket_DefaultTimeout();
    return timeout < 0 && fileno != Py_None ? 0 : apply_timeout(s, timeout);
}

/* tp_finalize: a socket still open when it dies is a leak in the program,
   reported as a ResourceWarning naming the socket (its repr, so a subclass
   such as ssl.SSLSocket names itself), then closed.  The socket is not
   passed as the warning's source: a recorded warning would keep it, and a
   subclass instance cannot be resurrected here, its type's dealloc having
   already cleared it (subtype_dealloc runs before ours). */
static void
socket_finalize(PyObject *self)
{
    PySocketObject *s = SOCK(self);
    if (s->fd < 0) {
        return;
    }
    PyObject *pending = PyErr_GetRaisedException();
    if (PyErr_ResourceWarning(NULL, 1, "unclosed %R", self) < 0) {
        /* An "error" filter turned the warning into an exception: report
           it.  Anything else (a repr that fails while the interpreter
           shuts down and modules lose their globals) is dropped. */
        if (PyErr_ExceptionMatches(PyExc_Warning)) {
            PyErr_WriteUnraisable(self);
        }
        PyErr_Clear();
    }
    if (s->fd >= 0) {
        close(s->fd);
        s->fd = -1;
    }
    PyErr_SetRaisedException(pending);
}

static void
socket_dealloc(PyObject *self)
{
    if (PyObject_CallFinalizerFromDealloc(self) < 0) {
        return; /* the warning machinery kept a reference */
    }
    PySocketObject *s = SOCK(self);
    if (s->fd >= 0) {
        close(s->fd);
        s->fd = -1;
    }
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
socket_repr(PyObject *self)
{
    PySocketObject *s = SOCK(self);
    return PyUnicode_FromFormat("<socket object, fd=%d, family=%d, type=%d, proto=%d>", s->fd,
                                s->family, s->type, s->proto);
}

/* ---- Descriptor management ------------------------------------------------------------- */

static PyObject *
socket_fileno(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(SOCK(self)->fd);
}

static PyObject *
socket_detach(PyObject *self, PyObject *unused)
{
    int fd = SOCK(self)->fd;
    SOCK(self)->fd = -1;
    return PyLong_FromLong(fd);
}

static PyObject *
socket_close(PyObject *self, PyObject *unused)
{
    int fd = SOCK(self)->fd;
    if (fd >= 0) {
        SOCK(self)->fd = -1;
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = close(fd);
        Py_END_ALLOW_THREADS
        /* The peer resetting the connection is no reason to fail close(). */
        if (rc < 0 && errno != ECONNRESET) {
            return PyErr_SetFromErrno(PyExc_OSError);
        }
    }
    Py_RETURN_NONE;
}

/* ---- Timeouts -------------------------------------------------------------------------- */

/* Seconds from None or a number: -1.0 for None, -2.0 on error. */
double
_PySocket_ReadTimeout(PyObject *obj)
{
    if (obj == Py_None) {
        return -1.0;
    }
    if (!PyFloat_Check(obj) && !PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "'%.200s' object cannot be interpreted as an integer or float",
                     Py_TYPE(obj)->tp_name);
        return -2.0;
    }
    double value = PyFloat_AsDouble(obj);
    if (value == -1.0 && PyErr_Occurred()) {
        return -2.0;
    }
    if (isnan(value)) {
        PyErr_SetString(PyExc_ValueError, "Invalid value NaN (not a number)");
        return -2.0;
    }
    if (value < 0) {
        PyErr_SetString(PyExc_ValueError, "Timeout value out of range");
        return -2.0;
    }
    return value;
}

static PyObject *
timeout_object(double timeout)
{
    if (timeout < 0) {
        Py_RETURN_NONE;
    }
    return PyFloat_FromDouble(timeout);
}

static PyObject *
socket_settimeout(PyObject *self, PyObject *arg)
{
    double timeout = _PySocket_ReadTimeout(arg);
    if (timeout == -2.0 || apply_timeout(SOCK(self), timeout) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
socket_gettimeout(PyObject *self, PyObject *unused)
{
    return timeout_object(SOCK(self)->timeout);
}

static PyObject *
socket_get_timeout(PyObject *self, void *closure)
{
    return timeout_object(SOCK(self)->timeout);
}

static PyObject *
socket_setblocking(PyObject *self, PyObject *arg)
{
    int flag = PyObject_IsTrue(arg);
    if (flag < 0 || apply_timeout(SOCK(self), flag ? -1.0 : 0.0) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
socket_getblocking(PyObject *self, PyObject *unused)
{
    if (check_open(SOCK(self)) < 0) {
        return NULL;
    }
    return PyBool_FromLong(SOCK(self)->timeout != 0.0);
}

/* ---- Binding, connecting, accepting ---------------------------------------------------- */

static PyObject *
socket_bind(PyObject *self, PyObject *arg)
{
    PySocketObject *s = SOCK(self);
    sock_addr_t addr;
    socklen_t len;
    if (_PySocket_ParseAddress(s, arg, "bind", &addr, &len) < 0 || check_open(s) < 0) {
        return NULL;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = bind(s->fd, &addr.sa, len);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

static PyObject *
socket_listen(PyObject *self, PyObject *args)
{
    int backlog = SOMAXCONN < 128 ? SOMAXCONN : 128;
    if (!PyArg_ParseTuple(args, "|i:listen", &backlog) || check_open(SOCK(self)) < 0) {
        return NULL;
    }
    if (listen(SOCK(self)->fd, backlog < 0 ? 0 : backlog) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

/* connect(): 0 connected, else the errno it failed with (EINPROGRESS
   for a non-blocking socket); -1 with an exception (timeout, signal). */
static int
do_connect(PySocketObject *s, PyObject *address, const char *caller)
{
    sock_addr_t addr;
    socklen_t len;
    if (_PySocket_ParseAddress(s, address, caller, &addr, &len) < 0 || check_open(s) < 0) {
        return -1;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = connect(s->fd, &addr.sa, len);
    Py_END_ALLOW_THREADS
    if (rc == 0) {
        return 0;
    }
    int err = errno;
    /* Interrupted, or a timeout socket: the connection goes on in the
       background, so wait for it rather than connecting again. */
    int waiting = err == EINTR || (s->timeout > 0 && err == EINPROGRESS);
    if (!waiting) {
        return err;
    }
    if (err == EINTR && PyErr_CheckSignals() < 0) {
        return -1;
    }
    if (s->timeout == 0.0) {
        return EINPROGRESS;
    }
    int ready = wait_ready(s, POLLOUT, deadline_from_now(s));
    if (ready <= 0) {
        if (ready == 0) {
            raise_timeout();
        }
        return -1;
    }
    socklen_t elen = sizeof(err);
    if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0) {
        err = errno;
    }
    return err;
}

static PyObject *
socket_connect(PyObject *self, PyObject *arg)
{
    int err = do_connect(SOCK(self), arg, "connect");
    if (err < 0) {
        return NULL;
    }
    if (err > 0) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

static PyObject *
socket_connect_ex(PyObject *self, PyObject *arg)
{
    int err = do_connect(SOCK(self), arg, "connect_ex");
    return err < 0 ? NULL : PyLong_FromLong(err);
}

typedef struct {
    sock_addr_t addr;
    socklen_t len;
} addr_buf;

static Py_ssize_t
op_accept(PySocketObject *s, void *data)
{
    addr_buf *a = data;
    a->len = sizeof(a->addr);
    return accept4(s->fd, &a->addr.sa, &a->len, SOCK_CLOEXEC);
}

static PyObject *
socket_accept(PyObject *self, PyObject *unused)
{
    addr_buf a;
    Py_ssize_t fd = _PySocket_RunOp(SOCK(self), POLLIN, op_accept, &a);
    if (fd < 0) {
        return NULL;
    }
    PyObject *address = _PySocket_MakeAddress(&a.addr.sa, a.len);
    if (address == NULL) {
        close((int)fd);
        return NULL;
    }
    return Py_BuildValue("(nN)", fd, address);
}

static PyObject *
socket_shutdown(PyObject *self, PyObject *arg)
{
    int how = PyLong_AsInt(arg);
    if ((how == -1 && PyErr_Occurred()) || check_open(SOCK(self)) < 0) {
        return NULL;
    }
    if (shutdown(SOCK(self)->fd, how) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

static PyObject *
name_of(PyObject *self, int peer)
{
    PySocketObject *s = SOCK(self);
    if (check_open(s) < 0) {
        return NULL;
    }
    sock_addr_t addr;
    socklen_t len = sizeof(addr);
    memset(&addr, 0, sizeof(addr));
    int rc = peer ? getpeername(s->fd, &addr.sa, &len) : getsockname(s->fd, &addr.sa, &len);
    if (rc < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return _PySocket_MakeAddress(&addr.sa, len);
}

static PyObject *
socket_getsockname(PyObject *self, PyObject *unused)
{
    return name_of(self, 0);
}

static PyObject *
socket_getpeername(PyObject *self, PyObject *unused)
{
    return name_of(self, 1);
}

/* ---- Socket options -------------------------------------------------------------------- */

static PyObject *
socket_setsockopt(PyObject *self, PyObject *args)
{
    int level, opt;
    PyObject *value;
    unsigned int optlen = 0;
    if (!PyArg_ParseTuple(args, "iiO|I:setsockopt", &level, &opt, &value, &optlen) ||
        check_open(SOCK(self)) < 0) {
        return NULL;
    }
    int rc;
    if (PyTuple_GET_SIZE(args) == 4) {
        if (value != Py_None) {
            PyErr_SetString(PyExc_TypeError, "setsockopt(): with optlen, value must be None");
            return NULL;
        }
        rc = setsockopt(SOCK(self)->fd, level, opt, NULL, optlen);
    }
    else if (PyLong_Check(value)) {
        int flag = PyLong_AsInt(value);
        if (flag == -1 && PyErr_Occurred()) {
            return NULL;
        }
        rc = setsockopt(SOCK(self)->fd, level, opt, &flag, sizeof(flag));
    }
    else {
        Py_buffer view;
        if (PyObject_GetBuffer(value, &view, PyBUF_SIMPLE) < 0) {
            return NULL;
        }
        rc = setsockopt(SOCK(self)->fd, level, opt, view.buf, (socklen_t)view.len);
        PyBuffer_Release(&view);
    }
    if (rc < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

static PyObject *
socket_getsockopt(PyObject *self, PyObject *args)
{
    int level, opt, buflen = 0;
    if (!PyArg_ParseTuple(args, "ii|i:getsockopt", &level, &opt, &buflen) ||
        check_open(SOCK(self)) < 0) {
        return NULL;
    }
    if (buflen == 0) {
        int value = 0;
        socklen_t len = sizeof(value);
        if (getsockopt(SOCK(self)->fd, level, opt, &value, &len) < 0) {
            return PyErr_SetFromErrno(PyExc_OSError);
        }
        return PyLong_FromLong(value);
    }
    if (buflen < 0 || buflen > 1024) {
        PyErr_SetString(PyExc_OSError, "getsockopt buflen out of range");
        return NULL;
    }
    PyObject *buf = PyBytes_FromStringAndSize(NULL, buflen);
    if (buf == NULL) {
        return NULL;
    }
    socklen_t len = (socklen_t)buflen;
    if (getsockopt(SOCK(self)->fd, level, opt, PyBytes_AS_STRING(buf), &len) < 0) {
        Py_DECREF(buf);
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    if (_PyBytes_Resize(&buf, (Py_ssize_t)len) < 0) {
        return NULL;
    }
    return buf;
}

/* ---- Receiving ------------------------------------------------------------------------- */

typedef struct {
    char *buf;
    size_t size;
    int flags;
    addr_buf from; /* filled by recvfrom */
} recv_req;

static Py_ssize_t
op_recv(PySocketObject *s, void *data)
{
    recv_req *r = data;
    return recv(s->fd, r->buf, r->size, r->flags);
}

static Py_ssize_t
op_recvfrom(PySocketObject *s, void *data)
{
    recv_req *r = data;
    r->from.len = sizeof(r->from.addr);
    memset(&r->from.addr, 0, sizeof(r->from.addr));
    return recvfrom(s->fd, r->buf, r->size, r->flags, &r->from.addr.sa, &r->from.len);
}

/* recv()/recvfrom() into a new bytes object; *from is the sender. */
static PyObject *
recv_bytes(PyObject *self, PyObject *args, const char *format, int want_from)
{
    Py_ssize_t size;
    recv_req r = {0};
    if (!PyArg_ParseTuple(args, format, &size, &r.flags)) {
        return NULL;
    }
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "negative buffersize in recv");
        return NULL;
    }
    PyObject *buf = PyBytes_FromStringAndSize(NULL, size);
    if (buf == NULL) {
        return NULL;
    }
    r.buf = PyBytes_AS_STRING(buf);
    r.size = (size_t)size;
    Py_ssize_t n = _PySocket_RunOp(SOCK(self), POLLIN, want_from ? op_recvfrom : op_recv, &r);
    if (n < 0 || _PyBytes_Resize(&buf, n) < 0) {
        Py_XDECREF(buf);
        return NULL;
    }
    if (!want_from) {
        return buf;
    }
    PyObject *addr = _PySocket_MakeAddress(&r.from.addr.sa, r.from.len);
    if (addr == NULL) {
        Py_DECREF(buf);
        return NULL;
    }
    return Py_BuildValue("(NN)", buf, addr);
}

static PyObject *
socket_recv(PyObject *self, PyObject *args)
{
    return recv_bytes(self, args, "n|i:recv", 0);
}

static PyObject *
socket_recvfrom(PyObject *self, PyObject *args)
{
    return recv_bytes(self, args, "n|i:recvfrom", 1);
}

/* recv_into()/recvfrom_into(buffer, nbytes=0, flags=0). */
static PyObject *
recv_into(PyObject *self, PyObject *args, PyObject *kwargs, const char *format, int want_from)
{
    static const char *const kwlist[] = {"buffer", "nbytes", "flags", NULL};
    PyObject *target;
    Py_ssize_t nbytes = 0;
    recv_req r = {0};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, (char **)kwlist, &target, &nbytes,
                                     &r.flags)) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(target, &view, PyBUF_WRITABLE) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    if (nbytes < 0) {
        PyErr_SetString(PyExc_ValueError, "negative buffersize in recv_into");
    }
    else if (nbytes > view.len) {
        PyErr_SetString(PyExc_ValueError, "buffer too small for requested bytes");
    }
    else {
        r.buf = view.buf;
        r.size = (size_t)(nbytes == 0 ? view.len : nbytes);
        Py_ssize_t n = _PySocket_RunOp(SOCK(self), POLLIN, want_from ? op_recvfrom : op_recv, &r);
        if (n >= 0 && !want_from) {
            result = PyLong_FromSsize_t(n);
        }
        else if (n >= 0) {
            PyObject *addr = _PySocket_MakeAddress(&r.from.addr.sa, r.from.len);
            result = addr == NULL ? NULL : Py_BuildValue("(nN)", n, addr);
        }
    }
    PyBuffer_Release(&view);
    return result;
}

static PyObject *
socket_recv_into(PyObject *self, PyObject *args, PyObject *kwargs)
{
    return recv_into(self, args, kwargs, "O|ni:recv_into", 0);
}

static PyObject *
socket_recvfrom_into(PyObject *self, PyObject *args, PyObject *kwargs)
{
    return recv_into(self, args, kwargs, "O|ni:recvfrom_into", 1);
}

/* ---- Sending --------------------------------------------------------------------------- */

typedef struct {
    const char *buf;
    size_t size;
    int flags;
    const sock_addr_t *to; /* sendto only */
    socklen_t to_len;
} send_req;

static Py_ssize_t
op_send(PySocketObject *s, void *data)
{
    send_req *r = data;
    if (r->to != NULL) {
        return sendto(s->fd, r->buf, r->size, r->flags, &r->to->sa, r->to_len);
    }
    return send(s->fd, r->buf, r->size, r->flags);
}

static int
parse_send(PyObject *args, const char *format, Py_buffer *view, send_req *r)
{
    PyObject *data;
    memset(r, 0, sizeof(*r));
    if (!PyArg_ParseTuple(args, format, &data, &r->flags)) {
        return -1;
    }
    if (PyObject_GetBuffer(data, view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    r->buf = view->buf;
    r->size = (size_t)view->len;
    return 0;
}

static PyObject *
socket_send(PyObject *self, PyObject *args)
{
    Py_buffer view;
    send_req r;
    if (parse_send(args, "O|i:send", &view, &r) < 0) {
        return NULL;
    }
    Py_ssize_t n = _PySocket_RunOp(SOCK(self), POLLOUT, op_send, &r);
    PyBuffer_Release(&view);
    return n < 0 ? NULL : PyLong_FromSsize_t(n);
}

static PyObject *
socket_sendall(PyObject *self, PyObject *args)
{
    Py_buffer view;
    send_req r;
    if (parse_send(args, "O|i:sendall", &view, &r) < 0) {
        return NULL;
    }
    /* The timeout covers the whole of the data, not each piece. */
    double deadline = deadline_from_now(SOCK(self));
    Py_ssize_t n = 0;
    while (r.size > 0 && n >= 0) {
        n = run_until(SOCK(self), POLLOUT, op_send, &r, deadline);
        if (n > 0) {
            r.buf += n;
            r.size -= (size_t)n;
        }
        /* A long send: let signal handlers run between the pieces. */
        if (n >= 0 && PyErr_CheckSignals() < 0) {
            n = -1;
        }
    }
    PyBuffer_Release(&view);
    if (n < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
socket_sendto(PyObject *self, PyObject *args)
{
    PyObject *data, *address;
    int flags = 0;
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs == 2) {
        if (!PyArg_ParseTuple(args, "OO:sendto", &data, &address)) {
            return NULL;
        }
    }
    else if (!PyArg_ParseTuple(args, "OiO:sendto", &data, &flags, &address)) {
        return NULL;
    }
    sock_addr_t to;
    send_req r = {.flags = flags, .to = &to};
    if (_PySocket_ParseAddress(SOCK(self), address, "sendto", &to, &r.to_len) < 0) {
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    r.buf = view.buf;
    r.size = (size_t)view.len;
    Py_ssize_t n = _PySocket_RunOp(SOCK(self), POLLOUT, op_send, &r);
    PyBuffer_Release(&view);
    return n < 0 ? NULL : PyLong_FromSsize_t(n);
}

/* ---- The type -------------------------------------------------------------------------- */

static PyMethodDef socket_methods[] = {
    {"_accept", socket_accept, METH_NOARGS, "Accept a connection: (fd, address)."},
    {"bind", socket_bind, METH_O, "Bind the socket to a local address."},
    {"close", socket_close, METH_NOARGS, "Close the socket's file descriptor."},
    {"connect", socket_connect, METH_O, "Connect to a remote address."},
    {"connect_ex", socket_connect_ex, METH_O, "Connect; an errno instead of an exception."},
    {"detach", socket_detach, METH_NOARGS, "Give up the file descriptor without closing it."},
    {"fileno", socket_fileno, METH_NOARGS, "The file descriptor, -1 once closed."},
    {"getblocking", socket_getblocking, METH_NOARGS, "False when non-blocking."},
    {"getpeername", socket_getpeername, METH_NOARGS, "The remote address."},
    {"getsockname", socket_getsockname, METH_NOARGS, "The local address."},
    {"getsockopt", socket_getsockopt, METH_VARARGS,
     "getsockopt(level, option[, buflen]): an int, or bytes when buflen is given."},
    {"gettimeout", socket_gettimeout, METH_NOARGS, "The timeout in seconds, or None."},
    {"listen", socket_listen, METH_VARARGS, "Accept connections, queueing up to backlog."},
    {"recv", socket_recv, METH_VARARGS, "recv(bufsize[, flags]): up to bufsize bytes."},
    {"recv_into", _PyCFunction_CAST(socket_recv_into), METH_VARARGS | METH_KEYWORDS,
     "Receive into a writable buffer; the byte count."},
    {"recvfrom", socket_recvfrom, METH_VARARGS, "recvfrom(bufsize[, flags]): (bytes, address)."},
    {"recvfrom_into", _PyCFunction_CAST(socket_recvfrom_into), METH_VARARGS | METH_KEYWORDS,
     "Receive into a writable buffer; (count, address)."},
    {"send", socket_send, METH_VARARGS, "Send some of the data; the byte count."},
    {"sendall", socket_sendall, METH_VARARGS, "Send all of the data."},
    {"sendmsg", _PyCFunction_CAST(_PySocket_SendMsg), METH_VARARGS,
     "sendmsg(buffers[, ancdata[, flags[, address]]]): bytes sent."},
    {"recvmsg", _PyCFunction_CAST(_PySocket_RecvMsg), METH_VARARGS,
     "recvmsg(bufsize[, ancbufsize[, flags]]): (data, ancdata, msg_flags, address)."},
    {"sendto", socket_sendto, METH_VARARGS, "sendto(data[, flags], address)."},
    {"setblocking", socket_setblocking, METH_O, "Blocking (True) or non-blocking (False)."},
    {"setsockopt", socket_setsockopt, METH_VARARGS,
     "setsockopt(level, option, int | buffer) or (level, option, None, optlen)."},
    {"settimeout", socket_settimeout, METH_O, "Timeout in seconds, 0 or None."},
    {"shutdown", socket_shutdown, METH_O, "Shut down reading, writing or both."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef socket_members[] = {
    {"family", Py_T_INT, offsetof(PySocketObject, family), Py_READONLY, "The address family."},
    {"type", Py_T_INT, offsetof(PySocketObject, type), Py_READONLY, "The socket type."},
    {"proto", Py_T_INT, offsetof(PySocketObject, proto), Py_READONLY, "The protocol."},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef socket_getset[] = {
    {"timeout", socket_get_timeout, NULL, "The timeout in seconds, or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PySocket_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_socket.socket",
    .tp_basicsize = sizeof(PySocketObject),
    .tp_dealloc = socket_dealloc,
    .tp_finalize = socket_finalize,
    .tp_repr = socket_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "socket(family=AF_INET, type=SOCK_STREAM, proto=0, fileno=None)",
    .tp_methods = socket_methods,
    .tp_members = socket_members,
    .tp_getset = socket_getset,
    .tp_init = socket_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = socket_new,
    .tp_free = PyObject_Free,
};
