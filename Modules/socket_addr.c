/* Addresses for the `_socket` module: parsing Python address objects
   (AF_INET (host, port), AF_INET6 (host, port, flowinfo, scope_id),
   AF_UNIX paths) into a struct sockaddr, and building them back. */

#include "socketmodule.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stddef.h>
#include <string.h>

/* The host as ASCII/IDNA bytes (a new reference), from str or bytes-like. */
static PyObject *
host_bytes(PyObject *host)
{
    if (PyUnicode_Check(host)) {
        PyObject *b = PyUnicode_AsASCIIString(host);
        if (b == NULL && PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            PyErr_Clear();
            b = PyUnicode_AsEncodedString(host, "idna", NULL);
        }
        return b;
    }
    if (PyBytes_Check(host)) {
        return Py_NewRef(host);
    }
    if (PyByteArray_Check(host)) {
        return PyBytes_FromStringAndSize(PyByteArray_AS_STRING(host), PyByteArray_GET_SIZE(host));
    }
    PyErr_Format(PyExc_TypeError, "str, bytes or bytearray expected, not %.200s",
                 Py_TYPE(host)->tp_name);
    return NULL;
}

/* Look a name up through getaddrinfo; the first answer wins. */
static int
lookup_name(const char *name, int family, sock_addr_t *addr)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = family;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = getaddrinfo(name, NULL, &hints, &res);
    Py_END_ALLOW_THREADS
    if (rc != 0) {
        _PySocket_SetGaiError(rc);
        return -1;
    }
    size_t n = res->ai_addrlen < sizeof(*addr) ? res->ai_addrlen : sizeof(*addr);
    memcpy(addr, res->ai_addr, n);
    int found = res->ai_family;
    freeaddrinfo(res);
    return found;
}

/* Fill in the IP part of `addr` for host (str or bytes) in the given
   family (AF_UNSPEC: whichever the name gives); the family used, or -1. */
int
_PySocket_ResolveHost(PyObject *host, int family, sock_addr_t *addr)
{
    PyObject *b = host_bytes(host);
    if (b == NULL) {
        return -1;
    }
    const char *name = PyBytes_AS_STRING(b);
    if ((size_t)PyBytes_GET_SIZE(b) != strlen(name)) {
        Py_DECREF(b);
        PyErr_SetString(PyExc_ValueError, "host name must not contain null character");
        return -1;
    }
    memset(addr, 0, sizeof(*addr));
    int result = -1;
    if (name[0] == '\0' || strcmp(name, "<broadcast>") == 0) {
        int is_any = name[0] == '\0';
        if (family == AF_INET6 && is_any) {
            addr->in6.sin6_family = AF_INET6;
            addr->in6.sin6_addr = in6addr_any;
            result = AF_INET6;
        }
        else if (family == AF_INET6) {
            PyErr_SetString(PyExc_OSError, "address family mismatched");
        }
        else {
            addr->in4.sin_family = AF_INET;
            addr->in4.sin_addr.s_addr = htonl(is_any ? INADDR_ANY : INADDR_BROADCAST);
            result = AF_INET;
        }
    }
    else if (family != AF_INET6 && inet_pton(AF_INET, name, &addr->in4.sin_addr) == 1) {
        addr->in4.sin_family = AF_INET;
        result = AF_INET;
    }
    else if (family != AF_INET && inet_pton(AF_INET6, name, &addr->in6.sin6_addr) == 1) {
        addr->in6.sin6_family = AF_INET6;
        result = AF_INET6;
    }
    else {
        result = lookup_name(name, family, addr);
    }
    Py_DECREF(b);
    return result;
}

static int
port_arg(PyObject *obj, const char *caller, unsigned short *port)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "'%.200s' object cannot be interpreted as an integer",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    long value = PyLong_AsLong(obj);
    if (value == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
            return -1;
        }
        PyErr_Clear();
        value = -1;
    }
    if (value < 0 || value > 0xffff) {
        PyErr_Format(PyExc_OverflowError, "%s(): port must be 0-65535.", caller);
        return -1;
    }
    *port = (unsigned short)value;
    return 0;
}

static int
parse_inet(PyObject *obj, const char *caller, sock_addr_t *addr, socklen_t *len)
{
    if (!PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s(): AF_INET address must be tuple, not %.200s",
                     caller, Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (PyTuple_GET_SIZE(obj) != 2) {
        PyErr_Format(PyExc_TypeError, "AF_INET address must be a pair (host, port)");
        return -1;
    }
    unsigned short port;
    if (_PySocket_ResolveHost(PyTuple_GET_ITEM(obj, 0), AF_INET, addr) < 0 ||
        port_arg(PyTuple_GET_ITEM(obj, 1), caller, &port) < 0) {
        return -1;
    }
    addr->in4.sin_port = htons(port);
    *len = sizeof(addr->in4);
    return 0;
}

static int
parse_inet6(PyObject *obj, const char *caller, sock_addr_t *addr, socklen_t *len)
{
    if (!PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s(): AF_INET6 address must be tuple, not %.200s",
                     caller, Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(obj);
    if (n < 2 || n > 4) {
        PyErr_SetString(PyExc_TypeError,
                        "AF_INET6 address must be a tuple (host, port[, flowinfo[, scopeid]])");
        return -1;
    }
    unsigned short port;
    unsigned long extra[2] = {0, 0}; /* flowinfo, scope_id */
    if (_PySocket_ResolveHost(PyTuple_GET_ITEM(obj, 0), AF_INET6, addr) < 0 ||
        port_arg(PyTuple_GET_ITEM(obj, 1), caller, &port) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 2; i < n; i++) {
        extra[i - 2] = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(obj, i));
        if (extra[i - 2] == (unsigned long)-1 && PyErr_Occurred()) {
            return -1;
        }
    }
    if (extra[0] > 0xfffff) {
        PyErr_Format(PyExc_OverflowError, "%s(): flowinfo must be 0-1048575.", caller);
        return -1;
    }
    addr->in6.sin6_port = htons(port);
    addr->in6.sin6_flowinfo = htonl((uint32_t)extra[0]);
    addr->in6.sin6_scope_id = (uint32_t)extra[1];
    *len = sizeof(addr->in6);
    return 0;
}

/* A path (str through the filesystem encoding, or bytes-like); a
   leading NUL byte names Linux's abstract namespace. */
static int
parse_unix(PyObject *obj, sock_addr_t *addr, socklen_t *len)
{
    PyObject *path = NULL;
    if (PyUnicode_Check(obj)) {
        if (!PyUnicode_FSConverter(obj, &path)) {
            return -1;
        }
    }
    else {
        Py_buffer view;
        if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) {
            PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.200s'",
                         Py_TYPE(obj)->tp_name);
            return -1;
        }
        path = PyBytes_FromStringAndSize(view.buf, view.len);
        PyBuffer_Release(&view);
        if (path == NULL) {
            return -1;
        }
    }
    Py_ssize_t n = PyBytes_GET_SIZE(path);
    if ((size_t)n >= sizeof(addr->un.sun_path) + (PyBytes_AS_STRING(path)[0] == '\0')) {
        Py_DECREF(path);
        PyErr_SetString(PyExc_OSError, "AF_UNIX path too long");
        return -1;
    }
    memset(&addr->un, 0, sizeof(addr->un));
    addr->un.sun_family = AF_UNIX;
    memcpy(addr->un.sun_path, PyBytes_AS_STRING(path), (size_t)n);
    Py_DECREF(path);
    *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + (size_t)n);
    return 0;
}

int
_PySocket_ParseAddress(PySocketObject *s, PyObject *obj, const char *caller,
                       sock_addr_t *addr, socklen_t *len)
{
    switch (s->family) {
    case AF_INET:
        return parse_inet(obj, caller, addr, len);
    case AF_INET6:
        return parse_inet6(obj, caller, addr, len);
    case AF_UNIX:
        return parse_unix(obj, addr, len);
    default:
        PyErr_Format(PyExc_OSError, "%s(): bad family", caller);
        return -1;
    }
}

/* The numeric text of an AF_INET or AF_INET6 address. */
PyObject *
_PySocket_IPString(const struct sockaddr *sa)
{
    char text[INET6_ADDRSTRLEN];
    const void *raw = sa->sa_family == AF_INET
        ? (const void *)&((const struct sockaddr_in *)sa)->sin_addr
        : (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr;
    if (inet_ntop(sa->sa_family, raw, text, sizeof(text)) == NULL) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyUnicode_FromString(text);
}

static PyObject *
make_unix_address(const struct sockaddr_un *un, socklen_t len)
{
    size_t base = offsetof(struct sockaddr_un, sun_path);
    if (len <= base) {
        return PyUnicode_FromString(""); /* unnamed: a socketpair end */
    }
    size_t n = len - base;
    if (un->sun_path[0] == '\0') {
        return PyBytes_FromStringAndSize(un->sun_path, (Py_ssize_t)n);
    }
    size_t used = strnlen(un->sun_path, n);
    return PyUnicode_DecodeFSDefaultAndSize(un->sun_path, (Py_ssize_t)used);
}

/* The Python form of an address the kernel gave us. */
PyObject *
_PySocket_MakeAddress(const struct sockaddr *sa, socklen_t len)
{
    if (len == 0) {
        Py_RETURN_NONE;
    }
    PyObject *ip;
    switch (sa->sa_family) {
    case AF_INET: {
        const struct sockaddr_in *in4 = (const struct sockaddr_in *)sa;
        ip = _PySocket_IPString(sa);
        return ip == NULL ? NULL : Py_BuildValue("(Ni)", ip, ntohs(in4->sin_port));
    }
    case AF_INET6: {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        ip = _PySocket_IPString(sa);
        return ip == NULL ? NULL
                          : Py_BuildValue("(NikI)", ip, ntohs(in6->sin6_port),
                                          (unsigned long)ntohl(in6->sin6_flowinfo),
                                          (unsigned int)in6->sin6_scope_id);
    }
    case AF_UNIX:
        return make_unix_address((const struct sockaddr_un *)sa, len);
    default:
        return Py_BuildValue("(iy#)", sa->sa_family, sa->sa_data, (Py_ssize_t)sizeof(sa->sa_data));
    }
}
