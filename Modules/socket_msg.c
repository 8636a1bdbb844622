/* sendmsg() and recvmsg() for `_socket.socket`: scatter/gather data
   with ancillary data (SCM_RIGHTS fd passing for multiprocessing), and
   the CMSG_LEN/CMSG_SPACE helpers for sizing the ancillary buffer. */

#include "socketmodule.h"
#include <errno.h>
#include <poll.h>
#include <string.h>

/* The data buffers of a sendmsg() call, pinned until the call ends. */
typedef struct {
    Py_buffer *views;
    struct iovec *iov;
    Py_ssize_t count;
} pinned_buffers;

static void
pinned_release(pinned_buffers *p)
{
    for (Py_ssize_t i = 0; i < p->count; i++) {
        PyBuffer_Release(&p->views[i]);
    }
    PyMem_Free(p->views);
    PyMem_Free(p->iov);
}

static int
pin_buffers(PyObject *iterable, pinned_buffers *p)
{
    memset(p, 0, sizeof(*p));
    PyObject *items = PySequence_Tuple(iterable);
    if (items == NULL) {
        PyErr_SetString(PyExc_TypeError, "sendmsg() argument 1 must be an iterable");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    p->views = PyMem_Calloc((size_t)n + 1, sizeof(Py_buffer));
    p->iov = PyMem_Calloc((size_t)n + 1, sizeof(struct iovec));
    int rc = 0;
    if (p->views == NULL || p->iov == NULL) {
        PyErr_NoMemory();
        rc = -1;
    }
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(items, i), &p->views[i], PyBUF_SIMPLE) < 0) {
            rc = -1;
            break;
        }
        p->count++;
        p->iov[i].iov_base = p->views[i].buf;
        p->iov[i].iov_len = (size_t)p->views[i].len;
    }
    Py_DECREF(items);
    return rc;
}

/* The ancillary items (level, type, data) packed as a control buffer
   (PyMem; caller frees), or NULL with *size 0 when there are none. */
static int
pack_ancillary(PyObject *ancdata, void **control, size_t *size)
{
    *control = NULL;
    *size = 0;
    PyObject *items = PySequence_Tuple(ancdata);
    if (items == NULL) {
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    Py_buffer *views = PyMem_Calloc((size_t)n + 1, sizeof(Py_buffer));
    int *levels = PyMem_Calloc((size_t)n + 1, 2 * sizeof(int));
    Py_ssize_t got = 0;
    int rc = views == NULL || levels == NULL ? (PyErr_NoMemory(), -1) : 0;
    for (; rc == 0 && got < n; got++) {
        PyObject *item = PyTuple_GET_ITEM(items, got), *data;
        if (!PyArg_ParseTuple(item, "iiO:[sendmsg() ancillary data items]", &levels[2 * got],
                              &levels[2 * got + 1], &data) ||
            PyObject_GetBuffer(data, &views[got], PyBUF_SIMPLE) < 0) {
            rc = -1;
            break;
        }
        *size += CMSG_SPACE((size_t)views[got].len);
    }
    if (rc == 0 && *size > 0) {
        *control = PyMem_Calloc(1, *size);
        if (*control == NULL) {
            PyErr_NoMemory();
            rc = -1;
        }
    }
    if (rc == 0 && *control != NULL) {
        struct msghdr probe = {.msg_control = *control, .msg_controllen = *size};
        struct cmsghdr *c = CMSG_FIRSTHDR(&probe);
        for (Py_ssize_t i = 0; i < n && c != NULL; i++, c = CMSG_NXTHDR(&probe, c)) {
            c->cmsg_level = levels[2 * i];
            c->cmsg_type = levels[2 * i + 1];
            c->cmsg_len = CMSG_LEN((size_t)views[i].len);
            memcpy(CMSG_DATA(c), views[i].buf, (size_t)views[i].len);
        }
    }
    for (Py_ssize_t i = 0; i < got; i++) {
        PyBuffer_Release(&views[i]);
    }
    PyMem_Free(views);
    PyMem_Free(levels);
    Py_DECREF(items);
    return rc;
}

typedef struct {
    struct msghdr msg;
    int flags;
} msg_req;

static Py_ssize_t
op_sendmsg(PySocketObject *s, void *data)
{
    msg_req *r = data;
    return sendmsg(s->fd, &r->msg, r->flags);
}

static Py_ssize_t
op_recvmsg(PySocketObject *s, void *data)
{
    msg_req *r = data;
    return recvmsg(s->fd, &r->msg, r->flags);
}

PyObject *
_PySocket_SendMsg(PyObject *self, PyObject *args)
{
    PyObject *buffers, *ancdata = NULL, *address = Py_None;
    msg_req r;
    memset(&r, 0, sizeof(r));
    if (!PyArg_ParseTuple(args, "O|OiO:sendmsg", &buffers, &ancdata, &r.flags, &address)) {
        return NULL;
    }
    sock_addr_t to;
    socklen_t to_len = 0;
    if (address != Py_None &&
        _PySocket_ParseAddress((PySocketObject *)self, address, "sendmsg", &to, &to_len) < 0) {
        return NULL;
    }
    pinned_buffers pinned;
    void *control = NULL;
    size_t control_len = 0;
    Py_ssize_t n = -1;
    if (pin_buffers(buffers, &pinned) == 0 &&
        (ancdata == NULL || pack_ancillary(ancdata, &control, &control_len) == 0)) {
        r.msg.msg_name = to_len ? &to : NULL;
        r.msg.msg_namelen = to_len;
        r.msg.msg_iov = pinned.iov;
        r.msg.msg_iovlen = (size_t)pinned.count;
        r.msg.msg_control = control;
        r.msg.msg_controllen = control_len;
        n = _PySocket_RunOp((PySocketObject *)self, POLLOUT, op_sendmsg, &r);
    }
    pinned_release(&pinned);
    PyMem_Free(control);
    return n < 0 ? NULL : PyLong_FromSsize_t(n);
}

/* The received control messages as [(level, type, data)], each item's
   data clipped to what the kernel actually delivered. */
static PyObject *
unpack_ancillary(struct msghdr *msg)
{
    PyObject *list = PyList_New(0);
    if (list == NULL || msg->msg_controllen == 0) {
        return list;
    }
    const char *end = (const char *)msg->msg_control + msg->msg_controllen;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c != NULL; c = CMSG_NXTHDR(msg, c)) {
        const char *start = (const char *)CMSG_DATA(c);
        size_t len = c->cmsg_len > CMSG_LEN(0) ? c->cmsg_len - CMSG_LEN(0) : 0;
        if (start > end) {
            break;
        }
        if (len > (size_t)(end - start)) {
            len = (size_t)(end - start);
        }
        PyObject *item = Py_BuildValue("(iiy#)", c->cmsg_level, c->cmsg_type, start,
                                       (Py_ssize_t)len);
        if (item == NULL || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

PyObject *
_PySocket_RecvMsg(PyObject *self, PyObject *args)
{
    Py_ssize_t bufsize, ancbufsize = 0;
    msg_req r;
    memset(&r, 0, sizeof(r));
    if (!PyArg_ParseTuple(args, "n|ni:recvmsg", &bufsize, &ancbufsize, &r.flags)) {
        return NULL;
    }
    if (bufsize < 0 || ancbufsize < 0) {
        PyErr_SetString(PyExc_ValueError, bufsize < 0 ? "negative buffer size in recvmsg()"
                                                      : "negative ancillary buffer size in recvmsg()");
        return NULL;
    }
    PyObject *data = PyBytes_FromStringAndSize(NULL, bufsize);
    void *control = ancbufsize ? PyMem_Calloc(1, (size_t)ancbufsize) : NULL;
    if (data == NULL || (ancbufsize && control == NULL)) {
        Py_XDECREF(data);
        return PyErr_NoMemory();
    }
    sock_addr_t from;
    memset(&from, 0, sizeof(from));
    struct iovec iov = {.iov_base = PyBytes_AS_STRING(data), .iov_len = (size_t)bufsize};
    r.msg.msg_name = &from;
    r.msg.msg_namelen = sizeof(from);
    r.msg.msg_iov = &iov;
    r.msg.msg_iovlen = 1;
    r.msg.msg_control = control;
    r.msg.msg_controllen = (size_t)ancbufsize;
    PyObject *result = NULL;
    Py_ssize_t n = _PySocket_RunOp((PySocketObject *)self, POLLIN, op_recvmsg, &r);
    if (n >= 0 && _PyBytes_Resize(&data, n) == 0) {
        PyObject *anc = unpack_ancillary(&r.msg);
        PyObject *addr = anc == NULL ? NULL : _PySocket_MakeAddress(&from.sa, r.msg.msg_namelen);
        if (addr != NULL) {
            result = Py_BuildValue("(ONiN)", data, anc, r.msg.msg_flags, addr);
        }
        else {
            Py_XDECREF(anc);
        }
    }
    Py_XDECREF(data);
    PyMem_Free(control);
    return result;
}

static int
cmsg_length_arg(PyObject *arg, size_t *len)
{
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (n < 0 || (size_t)n > 0x7fffffff) {
        PyErr_SetString(PyExc_OverflowError, "CMSG length out of range");
        return -1;
    }
    *len = (size_t)n;
    return 0;
}

static PyObject *
sock_CMSG_LEN(PyObject *module, PyObject *arg)
{
    size_t len;
    return cmsg_length_arg(arg, &len) < 0 ? NULL : PyLong_FromSize_t(CMSG_LEN(len));
}

static PyObject *
sock_CMSG_SPACE(PyObject *module, PyObject *arg)
{
    size_t len;
    return cmsg_length_arg(arg, &len) < 0 ? NULL : PyLong_FromSize_t(CMSG_SPACE(len));
}

PyMethodDef _PySocket_CmsgMethods[] = {
    {"CMSG_LEN", sock_CMSG_LEN, METH_O, "The cmsg_len of an item with this much data."},
    {"CMSG_SPACE", sock_CMSG_SPACE, METH_O, "The buffer room an item with this much data takes."},
    {NULL, NULL, 0, NULL},
};
