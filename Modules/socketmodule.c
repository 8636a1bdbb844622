/* The `_socket` module: what socket.py builds on.  This file holds the
   module itself: exceptions, constants, the default timeout and the
   small conversion functions.  The socket type is in socket_object.c,
   addresses in socket_addr.c, name lookups in socket_resolve.c. */

#include "socketmodule.h"
#include "pycore_object.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <string.h>
#include <unistd.h>

PyObject *_PySocket_herror;
PyObject *_PySocket_gaierror;

static double default_timeout = -1.0;

double
_PySocket_DefaultTimeout(void)
{
    return default_timeout;
}

static PyObject *
sock_getdefaulttimeout(PyObject *module, PyObject *unused)
{
    if (default_timeout < 0) {
        Py_RETURN_NONE;
    }
    return PyFloat_FromDouble(default_timeout);
}

static PyObject *
sock_setdefaulttimeout(PyObject *module, PyObject *arg)
{
    double timeout = _PySocket_ReadTimeout(arg);
    if (timeout == -2.0) {
        return NULL;
    }
    default_timeout = timeout;
    Py_RETURN_NONE;
}

/* A new _socket.socket over fd (closed on failure). */
static PyObject *
wrap_fd(int fd, int family, int type, int proto)
{
    PyObject *obj = PyObject_CallFunction((PyObject *)&_PySocket_Type, "iiii", family, type,
                                          proto, fd);
    if (obj == NULL) {
        close(fd);
    }
    return obj;
}

static PyObject *
sock_socketpair(PyObject *module, PyObject *args)
{
    int family = AF_UNIX, type = SOCK_STREAM, proto = 0;
    if (!PyArg_ParseTuple(args, "|iii:socketpair", &family, &type, &proto)) {
        return NULL;
    }
    int fds[2];
    if (socketpair(family, type | SOCK_CLOEXEC, proto, fds) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    PyObject *a = wrap_fd(fds[0], family, type, proto);
    if (a == NULL) {
        close(fds[1]);
        return NULL;
    }
    PyObject *b = wrap_fd(fds[1], family, type, proto);
    if (b == NULL) {
        Py_DECREF(a);
        return NULL;
    }
    return Py_BuildValue("(NN)", a, b);
}

static int
fd_arg(PyObject *arg, int *fd)
{
    *fd = PyLong_AsInt(arg);
    return *fd == -1 && PyErr_Occurred() ? -1 : 0;
}

static PyObject *
sock_dup(PyObject *module, PyObject *arg)
{
    int fd;
    if (fd_arg(arg, &fd) < 0) {
        return NULL;
    }
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (copy < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromLong(copy);
}

static PyObject *
sock_close(PyObject *module, PyObject *arg)
{
    int fd;
    if (fd_arg(arg, &fd) < 0) {
        return NULL;
    }
    if (close(fd) < 0 && errno != ECONNRESET) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

/* ---- Byte order ------------------------------------------------------------------------ */

static int
unsigned_arg(PyObject *arg, unsigned long limit, const char *what, unsigned long *value)
{
    if (!PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "expected int, %.200s found", Py_TYPE(arg)->tp_name);
        return -1;
    }
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
            return -1;
        }
        PyErr_Clear();
    }
    else if (v >= 0 && (unsigned long)v <= limit) {
        *value = (unsigned long)v;
        return 0;
    }
    PyErr_Format(PyExc_OverflowError, "%s: Python int too large to convert to C %s",
                 what, limit == 0xffff ? "16-bit unsigned integer" : "unsigned long");
    if (v < 0) {
        PyErr_Format(PyExc_OverflowError, "%s: can't convert negative Python int to C %s",
                     what, limit == 0xffff ? "16-bit unsigned integer" : "unsigned long");
    }
    return -1;
}

static PyObject *
sock_htons(PyObject *module, PyObject *arg)
{
    unsigned long v;
    if (unsigned_arg(arg, 0xffff, "htons", &v) < 0) {
        return NULL;
    }
    return PyLong_FromUnsignedLong(htons((uint16_t)v));
}

static PyObject *
sock_ntohs(PyObject *module, PyObject *arg)
{
    unsigned long v;
    if (unsigned_arg(arg, 0xffff, "ntohs", &v) < 0) {
        return NULL;
    }
    return PyLong_FromUnsignedLong(ntohs((uint16_t)v));
}

static PyObject *
sock_htonl(PyObject *module, PyObject *arg)
{
    unsigned long v;
    if (unsigned_arg(arg, 0xffffffffUL, "htonl", &v) < 0) {
        return NULL;
    }
    return PyLong_FromUnsignedLong(htonl((uint32_t)v));
}

static PyObject *
sock_ntohl(PyObject *module, PyObject *arg)
{
    unsigned long v;
    if (unsigned_arg(arg, 0xffffffffUL, "ntohl", &v) < 0) {
        return NULL;
    }
    return PyLong_FromUnsignedLong(ntohl((uint32_t)v));
}

/* ---- Address text <-> packed ----------------------------------------------------------- */

static PyObject *
sock_inet_aton(PyObject *module, PyObject *args)
{
    const char *text;
    if (!PyArg_ParseTuple(args, "s:inet_aton", &text)) {
        return NULL;
    }
    struct in_addr packed;
    if (inet_aton(text, &packed) == 0) {
        PyErr_SetString(PyExc_OSError, "illegal IP address string passed to inet_aton");
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)&packed, sizeof(packed));
}

static int
packed_arg(PyObject *arg, Py_buffer *view)
{
    if (PyObject_GetBuffer(arg, view, PyBUF_SIMPLE) < 0) {
        PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.200s'",
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *
sock_inet_ntoa(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (packed_arg(arg, &view) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    if (view.len != 4) {
        PyErr_SetString(PyExc_OSError, "packed IP wrong length for inet_ntoa");
    }
    else {
        char text[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, view.buf, text, sizeof(text));
        result = PyUnicode_FromString(text);
    }
    PyBuffer_Release(&view);
    return result;
}

static PyObject *
sock_inet_pton(PyObject *module, PyObject *args)
{
    int family;
    const char *text;
    if (!PyArg_ParseTuple(args, "is:inet_pton", &family, &text)) {
        return NULL;
    }
    unsigned char packed[sizeof(struct in6_addr)];
    int rc = inet_pton(family, text, packed);
    if (rc < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    if (rc == 0) {
        PyErr_SetString(PyExc_OSError, "illegal IP address string passed to inet_pton");
        return NULL;
    }
    Py_ssize_t n = family == AF_INET ? 4 : 16;
    return PyBytes_FromStringAndSize((const char *)packed, n);
}

static PyObject *
sock_inet_ntop(PyObject *module, PyObject *args)
{
    int family;
    PyObject *packed;
    if (!PyArg_ParseTuple(args, "iO:inet_ntop", &family, &packed)) {
        return NULL;
    }
    Py_buffer view;
    if (packed_arg(packed, &view) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t want = family == AF_INET ? 4 : family == AF_INET6 ? 16 : -1;
    if (want < 0) {
        PyErr_Format(PyExc_ValueError, "unknown address family %d", family);
    }
    else if (view.len != want) {
        PyErr_SetString(PyExc_ValueError, "invalid length of packed IP address string");
    }
    else {
        char text[INET6_ADDRSTRLEN];
        if (inet_ntop(family, view.buf, text, sizeof(text)) == NULL) {
            PyErr_SetFromErrno(PyExc_OSError);
        }
        else {
            result = PyUnicode_FromString(text);
        }
    }
    PyBuffer_Release(&view);
    return result;
}

/* ---- Network interfaces ---------------------------------------------------------------- */

static PyObject *
sock_if_nameindex(PyObject *module, PyObject *unused)
{
    struct if_nameindex *all = if_nameindex();
    if (all == NULL) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    PyObject *list = PyList_New(0);
    for (struct if_nameindex *p = all; list != NULL && p->if_index != 0; p++) {
        PyObject *item = Py_BuildValue("(IN)", p->if_index, PyUnicode_DecodeFSDefault(p->if_name));
        if (item == NULL || PyList_Append(list, item) < 0) {
            Py_CLEAR(list);
        }
        Py_XDECREF(item);
    }
    if_freenameindex(all);
    return list;
}

static PyObject *
sock_if_nametoindex(PyObject *module, PyObject *arg)
{
    PyObject *name;
    if (!PyUnicode_FSConverter(arg, &name)) {
        return NULL;
    }
    unsigned int index = if_nametoindex(PyBytes_AS_STRING(name));
    Py_DECREF(name);
    if (index == 0) {
        PyErr_SetString(PyExc_OSError, "no interface with this name");
        return NULL;
    }
    return PyLong_FromUnsignedLong(index);
}

static PyObject *
sock_if_indextoname(PyObject *module, PyObject *arg)
{
    if (!PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "'%.200s' object cannot be interpreted as an integer",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    unsigned long index = PyLong_AsUnsignedLong(arg);
    if (index == (unsigned long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    char name[IF_NAMESIZE + 1];
    if (index > 0xffffffffUL || if_indextoname((unsigned int)index, name) == NULL) {
        errno = ENXIO;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyUnicode_DecodeFSDefault(name);
}

/* ---- The module ------------------------------------------------------------------------ */

static PyMethodDef socket_functions[] = {
    {"socketpair", sock_socketpair, METH_VARARGS,
     "socketpair([family[, type[, proto]]]): two connected sockets."},
    {"dup", sock_dup, METH_O, "Duplicate a socket file descriptor (non-inheritable)."},
    {"close", sock_close, METH_O, "Close a socket file descriptor."},
    {"getdefaulttimeout", sock_getdefaulttimeout, METH_NOARGS, "The timeout new sockets get."},
    {"setdefaulttimeout", sock_setdefaulttimeout, METH_O, "Set the timeout new sockets get."},
    {"htons", sock_htons, METH_O, "16-bit host to network byte order."},
    {"ntohs", sock_ntohs, METH_O, "16-bit network to host byte order."},
    {"htonl", sock_htonl, METH_O, "32-bit host to network byte order."},
    {"ntohl", sock_ntohl, METH_O, "32-bit network to host byte order."},
    {"inet_aton", sock_inet_aton, METH_VARARGS, "Dotted IPv4 text to 4 packed bytes."},
    {"inet_ntoa", sock_inet_ntoa, METH_O, "4 packed bytes to dotted IPv4 text."},
    {"inet_pton", sock_inet_pton, METH_VARARGS, "inet_pton(family, text): packed bytes."},
    {"inet_ntop", sock_inet_ntop, METH_VARARGS, "inet_ntop(family, packed): address text."},
    {"if_nameindex", sock_if_nameindex, METH_NOARGS, "The (index, name) of each interface."},
    {"if_nametoindex", sock_if_nametoindex, METH_O, "The index of a named interface."},
    {"if_indextoname", sock_if_indextoname, METH_O, "The name of an interface index."},
    {NULL, NULL, 0, NULL},
};

#define K(name) {#name, name}

static const struct {
    const char *name;
    long value;
} socket_constants[] = {
    K(AF_UNSPEC), K(AF_INET), K(AF_INET6), K(AF_UNIX), K(AF_PACKET), K(AF_NETLINK),
    K(SOCK_STREAM), K(SOCK_DGRAM), K(SOCK_RAW), K(SOCK_SEQPACKET), K(SOCK_RDM),
    K(SOCK_NONBLOCK), K(SOCK_CLOEXEC),
    K(SOL_SOCKET), K(SOL_IP), K(SOL_TCP), K(SOMAXCONN), K(SCM_RIGHTS),
    K(SCM_CREDENTIALS),
    K(SO_DEBUG), K(SO_ACCEPTCONN), K(SO_REUSEADDR), K(SO_REUSEPORT), K(SO_KEEPALIVE),
    K(SO_DONTROUTE), K(SO_BROADCAST), K(SO_LINGER), K(SO_OOBINLINE), K(SO_SNDBUF),
    K(SO_RCVBUF), K(SO_SNDLOWAT), K(SO_RCVLOWAT), K(SO_SNDTIMEO), K(SO_RCVTIMEO),
    K(SO_ERROR), K(SO_TYPE), K(SO_PASSCRED), K(SO_PEERCRED), K(SO_BINDTODEVICE),
    K(SO_PRIORITY), K(SO_MARK), K(SO_DOMAIN), K(SO_PROTOCOL), K(SO_PEERSEC),
    K(SO_PASSSEC), K(SO_INCOMING_CPU),
    K(MSG_OOB), K(MSG_PEEK), K(MSG_DONTROUTE), K(MSG_DONTWAIT), K(MSG_EOR), K(MSG_TRUNC),
    K(MSG_CTRUNC), K(MSG_WAITALL), K(MSG_NOSIGNAL), K(MSG_CMSG_CLOEXEC), K(MSG_ERRQUEUE),
    K(MSG_CONFIRM), K(MSG_MORE), K(MSG_FASTOPEN),
    K(SHUT_RD), K(SHUT_WR), K(SHUT_RDWR),
    K(IPPROTO_IP), K(IPPROTO_ICMP), K(IPPROTO_IGMP), K(IPPROTO_IPIP), K(IPPROTO_TCP),
    K(IPPROTO_EGP), K(IPPROTO_PUP), K(IPPROTO_UDP), K(IPPROTO_IDP), K(IPPROTO_TP),
    K(IPPROTO_IPV6), K(IPPROTO_RSVP), K(IPPROTO_GRE), K(IPPROTO_ESP), K(IPPROTO_AH),
    K(IPPROTO_ICMPV6), K(IPPROTO_NONE), K(IPPROTO_DSTOPTS), K(IPPROTO_HOPOPTS),
    K(IPPROTO_ROUTING), K(IPPROTO_FRAGMENT), K(IPPROTO_PIM), K(IPPROTO_SCTP),
    K(IPPROTO_UDPLITE), K(IPPROTO_MPTCP), K(IPPROTO_RAW),
    K(IPPORT_RESERVED), K(IPPORT_USERRESERVED),
    K(INADDR_ANY), K(INADDR_BROADCAST), K(INADDR_LOOPBACK), K(INADDR_NONE),
    K(INADDR_UNSPEC_GROUP), K(INADDR_ALLHOSTS_GROUP), K(INADDR_MAX_LOCAL_GROUP),
    K(IP_OPTIONS), K(IP_HDRINCL), K(IP_TOS), K(IP_TTL), K(IP_RECVOPTS), K(IP_RECVRETOPTS),
    K(IP_RETOPTS), K(IP_MULTICAST_IF), K(IP_MULTICAST_TTL), K(IP_MULTICAST_LOOP),
    K(IP_ADD_MEMBERSHIP), K(IP_DROP_MEMBERSHIP), K(IP_DEFAULT_MULTICAST_TTL),
    K(IP_DEFAULT_MULTICAST_LOOP), K(IP_MAX_MEMBERSHIPS), K(IP_TRANSPARENT), K(IP_PKTINFO),
    K(IP_RECVTOS), K(IP_BIND_ADDRESS_NO_PORT),
    K(IPV6_JOIN_GROUP), K(IPV6_LEAVE_GROUP), K(IPV6_MULTICAST_HOPS), K(IPV6_MULTICAST_IF),
    K(IPV6_MULTICAST_LOOP), K(IPV6_UNICAST_HOPS), K(IPV6_V6ONLY), K(IPV6_CHECKSUM),
    K(IPV6_DONTFRAG), K(IPV6_DSTOPTS), K(IPV6_HOPLIMIT), K(IPV6_HOPOPTS), K(IPV6_NEXTHOP),
    K(IPV6_PKTINFO), K(IPV6_RECVDSTOPTS), K(IPV6_RECVHOPLIMIT), K(IPV6_RECVHOPOPTS),
    K(IPV6_RECVPKTINFO), K(IPV6_RECVRTHDR), K(IPV6_RECVTCLASS), K(IPV6_RTHDR),
    K(IPV6_RTHDRDSTOPTS), K(IPV6_RTHDR_TYPE_0), K(IPV6_RECVPATHMTU), K(IPV6_TCLASS),
    K(TCP_NODELAY), K(TCP_MAXSEG), K(TCP_CORK), K(TCP_KEEPIDLE), K(TCP_KEEPINTVL),
    K(TCP_KEEPCNT), K(TCP_SYNCNT), K(TCP_LINGER2), K(TCP_DEFER_ACCEPT),
    K(TCP_WINDOW_CLAMP), K(TCP_INFO), K(TCP_QUICKACK), K(TCP_FASTOPEN), K(TCP_CONGESTION),
    K(TCP_USER_TIMEOUT), K(TCP_NOTSENT_LOWAT),
    K(EAI_ADDRFAMILY), K(EAI_AGAIN), K(EAI_BADFLAGS), K(EAI_FAIL), K(EAI_FAMILY),
    K(EAI_MEMORY), K(EAI_NODATA), K(EAI_NONAME), K(EAI_OVERFLOW), K(EAI_SERVICE),
    K(EAI_SOCKTYPE), K(EAI_SYSTEM),
    K(AI_PASSIVE), K(AI_CANONNAME), K(AI_NUMERICHOST), K(AI_NUMERICSERV), K(AI_V4MAPPED),
    K(AI_ALL), K(AI_ADDRCONFIG),
    K(NI_MAXHOST), K(NI_MAXSERV), K(NI_NOFQDN), K(NI_NUMERICHOST), K(NI_NAMEREQD),
    K(NI_NUMERICSERV), K(NI_DGRAM),
};

/* The module whose exec made the exception classes (borrowed); when it
   is freed at exit the classes go with it. */
static PyObject *exceptions_owner;

static void
socket_free(void *m)
{
    if (m == exceptions_owner) {
        Py_CLEAR(_PySocket_herror);
        Py_CLEAR(_PySocket_gaierror);
        exceptions_owner = NULL;
    }
}

static int
add_exceptions(PyObject *m)
{
    if (_PySocket_herror == NULL) {
        _PySocket_herror = PyErr_NewException("socket.herror", PyExc_OSError, NULL);
    }
    if (_PySocket_gaierror == NULL) {
        _PySocket_gaierror = PyErr_NewException("socket.gaierror", PyExc_OSError, NULL);
    }
    if (_PySocket_herror == NULL || _PySocket_gaierror == NULL) {
        return -1;
    }
    exceptions_owner = m;
    if (PyModule_AddObjectRef(m, "error", PyExc_OSError) < 0 ||
        PyModule_AddObjectRef(m, "timeout", PyExc_TimeoutError) < 0 ||
        PyModule_AddObjectRef(m, "herror", _PySocket_herror) < 0 ||
        PyModule_AddObjectRef(m, "gaierror", _PySocket_gaierror) < 0) {
        return -1;
    }
    return 0;
}

/* The socket type lives as long as the process, like the core's static
   types: readied once, with what its dict holds made immortal so that
   it is not counted as left over at exit. */
static int
ready_socket_type(void)
{
    if (_PySocket_Type.tp_flags & Py_TPFLAGS_READY) {
        return 0;
    }
    if (_PyStaticType_InitBuiltin(&_PySocket_Type) < 0) {
        return -1;
    }
    PyObject *key, *value;
    for (Py_ssize_t pos = 0; PyDict_Next(_PySocket_Type.tp_dict, &pos, &key, &value);) {
        _Py_SetImmortal(key);
        _Py_SetImmortal(value);
    }
    return 0;
}

static int
socket_exec(PyObject *m)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(socket_constants); i++) {
        if (PyModule_AddIntConstant(m, socket_constants[i].name, socket_constants[i].value) < 0) {
            return -1;
        }
    }
    if (PyModule_AddObjectRef(m, "has_ipv6", Py_True) < 0 || add_exceptions(m) < 0) {
        return -1;
    }
    if (PyModule_AddFunctions(m, _PySocket_ResolveMethods) < 0 ||
        PyModule_AddFunctions(m, _PySocket_CmsgMethods) < 0) {
        return -1;
    }
    if (ready_socket_type() < 0 ||
        PyModule_AddObjectRef(m, "socket", (PyObject *)&_PySocket_Type) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(m, "SocketType", (PyObject *)&_PySocket_Type);
}

static PyModuleDef_Slot socket_slots[] = {
    {Py_mod_exec, socket_exec},
    {0, NULL},
};

static PyModuleDef socket_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_socket",
    .m_doc = "Low-level networking: the socket type socket.py builds on.",
    .m_methods = socket_functions,
    .m_slots = socket_slots,
    .m_free = socket_free,
};

PyObject *
PyInit__socket(void)
{
    return PyModuleDef_Init(&socket_module);
}
