/* Name resolution for the `_socket` module: getaddrinfo, getnameinfo,
   the gethostby* family, services and protocols.  The lookups run with
   the interpreter lock released; they may block on the resolver. */

#include "socketmodule.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <string.h>
#include <unistd.h>

PyObject *
_PySocket_SetGaiError(int code)
{
    if (code == EAI_SYSTEM) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    PyObject *value = Py_BuildValue("(is)", code, gai_strerror(code));
    if (value != NULL) {
        PyErr_SetObject(_PySocket_gaierror, value);
        Py_DECREF(value);
    }
    return NULL;
}

static PyObject *
set_herror(int code)
{
    PyObject *value = Py_BuildValue("(is)", code, hstrerror(code));
    if (value != NULL) {
        PyErr_SetObject(_PySocket_herror, value);
        Py_DECREF(value);
    }
    return NULL;
}

/* Text for a getaddrinfo() host or port argument (None gives NULL);
   *keep holds the bytes the text lives in. */
static int
lookup_text(PyObject *obj, int is_port, PyObject **keep, const char **text)
{
    *keep = NULL;
    *text = NULL;
    if (obj == Py_None) {
        return 0;
    }
    if (is_port && PyLong_Check(obj)) {
        PyObject *s = PyObject_Str(obj);
        *keep = s == NULL ? NULL : PyUnicode_AsASCIIString(s);
        Py_XDECREF(s);
    }
    else if (PyUnicode_Check(obj)) {
        *keep = is_port ? PyUnicode_AsUTF8String(obj) : PyUnicode_AsASCIIString(obj);
        if (*keep == NULL && !is_port && PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            PyErr_Clear();
            *keep = PyUnicode_AsEncodedString(obj, "idna", NULL);
        }
    }
    else if (PyBytes_Check(obj)) {
        *keep = Py_NewRef(obj);
    }
    else {
        PyErr_SetString(is_port ? PyExc_OSError : PyExc_TypeError,
                        is_port ? "Int or String expected"
                                : "getaddrinfo() argument 1 must be string or None");
        return -1;
    }
    if (*keep == NULL) {
        return -1;
    }
    *text = PyBytes_AS_STRING(*keep);
    return 0;
}

static PyObject *
addrinfo_list(struct addrinfo *res)
{
    PyObject *list = PyList_New(0);
    for (struct addrinfo *ai = res; list != NULL && ai != NULL; ai = ai->ai_next) {
        PyObject *addr = _PySocket_MakeAddress(ai->ai_addr, ai->ai_addrlen);
        PyObject *item = addr == NULL ? NULL
            : Py_BuildValue("(iiisN)", ai->ai_family, ai->ai_socktype, ai->ai_protocol,
                            ai->ai_canonname ? ai->ai_canonname : "", addr);
        if (item == NULL || PyList_Append(list, item) < 0) {
            Py_CLEAR(list);
        }
        Py_XDECREF(item);
    }
    return list;
}

static PyObject *
sock_getaddrinfo(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"host", "port", "family", "type", "proto", "flags", NULL};
    PyObject *host, *port;
    struct addrinfo hints;
    memset(&hints, 0, sizeof(hints));
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|iiii:getaddrinfo", (char **)kwlist, &host,
                                     &port, &hints.ai_family, &hints.ai_socktype,
                                     &hints.ai_protocol, &hints.ai_flags)) {
        return NULL;
    }
    PyObject *host_keep, *port_keep;
    const char *host_text, *port_text;
    if (lookup_text(host, 0, &host_keep, &host_text) < 0) {
        return NULL;
    }
    if (lookup_text(port, 1, &port_keep, &port_text) < 0) {
        Py_XDECREF(host_keep);
        return NULL;
    }
    struct addrinfo *res = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = getaddrinfo(host_text, port_text, &hints, &res);
    Py_END_ALLOW_THREADS
    Py_XDECREF(host_keep);
    Py_XDECREF(port_keep);
    if (rc != 0) {
        return _PySocket_SetGaiError(rc);
    }
    PyObject *list = addrinfo_list(res);
    freeaddrinfo(res);
    return list;
}

static PyObject *
sock_getnameinfo(PyObject *module, PyObject *args)
{
    PyObject *sa_obj;
    int flags;
    if (!PyArg_ParseTuple(args, "Oi:getnameinfo", &sa_obj, &flags)) {
        return NULL;
    }
    if (!PyTuple_Check(sa_obj) || PyTuple_GET_SIZE(sa_obj) < 2 || PyTuple_GET_SIZE(sa_obj) > 4) {
        PyErr_SetString(PyExc_TypeError, "getnameinfo() argument 1 must be a tuple");
        return NULL;
    }
    sock_addr_t addr;
    int family = _PySocket_ResolveHost(PyTuple_GET_ITEM(sa_obj, 0), AF_UNSPEC, &addr);
    if (family < 0) {
        return NULL;
    }
    PySocketObject probe = {.family = family};
    socklen_t len;
    if (family == AF_INET && PyTuple_GET_SIZE(sa_obj) != 2) {
        PyErr_SetString(PyExc_OSError, "IPv4 sockaddr must be 2 tuple");
        return NULL;
    }
    if (_PySocket_ParseAddress(&probe, sa_obj, "getnameinfo", &addr, &len) < 0) {
        return NULL;
    }
    char host[NI_MAXHOST], serv[NI_MAXSERV];
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = getnameinfo(&addr.sa, len, host, sizeof(host), serv, sizeof(serv), flags);
    Py_END_ALLOW_THREADS
    if (rc != 0) {
        return _PySocket_SetGaiError(rc);
    }
    return Py_BuildValue("(ss)", host, serv);
}

static PyObject *
sock_gethostname(PyObject *module, PyObject *unused)
{
    char name[1025];
    if (gethostname(name, sizeof(name) - 1) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    name[sizeof(name) - 1] = '\0';
    return PyUnicode_DecodeFSDefault(name);
}

static PyObject *
sock_gethostbyname(PyObject *module, PyObject *arg)
{
    sock_addr_t addr;
    if (_PySocket_ResolveHost(arg, AF_INET, &addr) < 0) {
        return NULL;
    }
    return _PySocket_IPString(&addr.sa);
}

/* (name, aliases, addresses) from a struct hostent. */
static PyObject *
hostent_tuple(const struct hostent *h)
{
    PyObject *aliases = PyList_New(0), *addrs = PyList_New(0);
    int ok = aliases != NULL && addrs != NULL;
    for (char **p = h->h_aliases; ok && p != NULL && *p != NULL; p++) {
        PyObject *s = PyUnicode_FromString(*p);
        ok = s != NULL && PyList_Append(aliases, s) == 0;
        Py_XDECREF(s);
    }
    for (char **p = h->h_addr_list; ok && *p != NULL; p++) {
        char text[INET6_ADDRSTRLEN];
        ok = inet_ntop(h->h_addrtype, *p, text, sizeof(text)) != NULL;
        PyObject *s = ok ? PyUnicode_FromString(text) : NULL;
        ok = s != NULL && PyList_Append(addrs, s) == 0;
        Py_XDECREF(s);
    }
    if (!ok) {
        Py_XDECREF(aliases);
        Py_XDECREF(addrs);
        return NULL;
    }
    return Py_BuildValue("(sNN)", h->h_name, aliases, addrs);
}

/* Lookup through the reentrant resolver, growing its scratch buffer as asked. */
static PyObject *
hostent_lookup(const void *key, socklen_t keylen, int family)
{
    size_t size = 2048;
    for (;;) {
        char *scratch = PyMem_Malloc(size);
        if (scratch == NULL) {
            return PyErr_NoMemory();
        }
        struct hostent entry, *found = NULL;
        int herr = 0, rc;
        Py_BEGIN_ALLOW_THREADS
        if (keylen == 0) {
            rc = gethostbyname2_r(key, family, &entry, scratch, size, &found, &herr);
        }
        else {
            rc = gethostbyaddr_r(key, keylen, family, &entry, scratch, size, &found, &herr);
        }
        Py_END_ALLOW_THREADS
        if (rc == ERANGE && size < (1u << 20)) {
            PyMem_Free(scratch);
            size *= 4;
            continue;
        }
        PyObject *result = found != NULL ? hostent_tuple(found) : set_herror(herr ? herr : HOST_NOT_FOUND);
        PyMem_Free(scratch);
        return result;
    }
}

static PyObject *
sock_gethostbyname_ex(PyObject *module, PyObject *arg)
{
    sock_addr_t addr;
    if (_PySocket_ResolveHost(arg, AF_INET, &addr) < 0) {
        return NULL;
    }
    /* Numeric and named hosts alike: look the address back up when the
       name is numeric, as the resolver then answers with the text itself. */
    PyObject *b = PyUnicode_Check(arg) ? PyUnicode_AsUTF8String(arg) : PyBytes_FromObject(arg);
    if (b == NULL) {
        return NULL;
    }
    PyObject *result = hostent_lookup(PyBytes_AS_STRING(b), 0, AF_INET);
    Py_DECREF(b);
    return result;
}

static PyObject *
sock_gethostbyaddr(PyObject *module, PyObject *arg)
{
    sock_addr_t addr;
    int family = _PySocket_ResolveHost(arg, AF_UNSPEC, &addr);
    if (family < 0) {
        return NULL;
    }
    if (family == AF_INET) {
        return hostent_lookup(&addr.in4.sin_addr, sizeof(addr.in4.sin_addr), AF_INET);
    }
    return hostent_lookup(&addr.in6.sin6_addr, sizeof(addr.in6.sin6_addr), AF_INET6);
}

/* A services-database entry by name (port < 0) or by port, looked up
   with the reentrant calls; the port or the name. */
static PyObject *
service_entry(const char *name, int port, const char *proto)
{
    struct servent entry, *found = NULL;
    char scratch[2048];
    Py_BEGIN_ALLOW_THREADS
    if (port < 0) {
        getservbyname_r(name, proto, &entry, scratch, sizeof(scratch), &found);
    }
    else {
        getservbyport_r(htons((uint16_t)port), proto, &entry, scratch, sizeof(scratch), &found);
    }
    Py_END_ALLOW_THREADS
    if (found == NULL) {
        PyErr_SetString(PyExc_OSError, port < 0 ? "service/proto not found" : "port/proto not found");
        return NULL;
    }
    if (port < 0) {
        return PyLong_FromLong(ntohs((uint16_t)found->s_port));
    }
    return PyUnicode_FromString(found->s_name);
}

static PyObject *
sock_getservbyname(PyObject *module, PyObject *args)
{
    const char *service, *protocol = NULL;
    return PyArg_ParseTuple(args, "s|s:getservbyname", &service, &protocol)
        ? service_entry(service, -1, protocol) : NULL;
}

static PyObject *
sock_getservbyport(PyObject *module, PyObject *args)
{
    int number;
    const char *protocol = NULL;
    if (!PyArg_ParseTuple(args, "i|s:getservbyport", &number, &protocol)) {
        return NULL;
    }
    if (number >= 0 && number <= 0xffff) {
        return service_entry(NULL, number, protocol);
    }
    PyErr_SetString(PyExc_OverflowError, "getservbyport: port must be 0-65535.");
    return NULL;
}

static PyObject *
sock_getprotobyname(PyObject *module, PyObject *args)
{
    const char *protocol;
    struct protoent entry, *found = NULL;
    char scratch[1024];
    if (PyArg_ParseTuple(args, "s:getprotobyname", &protocol)) {
        getprotobyname_r(protocol, &entry, scratch, sizeof(scratch), &found);
        if (found != NULL) {
            return PyLong_FromLong(found->p_proto);
        }
        PyErr_SetString(PyExc_OSError, "protocol not found");
    }
    return NULL;
}

PyMethodDef _PySocket_ResolveMethods[] = {
    {"getaddrinfo", _PyCFunction_CAST(sock_getaddrinfo), METH_VARARGS | METH_KEYWORDS,
     "getaddrinfo(host, port, family=0, type=0, proto=0, flags=0): a list of\n"
     "(family, type, proto, canonname, sockaddr) tuples."},
    {"getnameinfo", sock_getnameinfo, METH_VARARGS, "getnameinfo(sockaddr, flags): (host, port)."},
    {"gethostname", sock_gethostname, METH_NOARGS, "This machine's host name."},
    {"gethostbyname", sock_gethostbyname, METH_O, "The IPv4 address of a host, as text."},
    {"gethostbyname_ex", sock_gethostbyname_ex, METH_O,
     "(name, aliases, addresses) of an IPv4 host."},
    {"gethostbyaddr", sock_gethostbyaddr, METH_O, "(name, aliases, addresses) of an address."},
    {"getservbyname", sock_getservbyname, METH_VARARGS, "The port of a named service."},
    {"getservbyport", sock_getservbyport, METH_VARARGS, "The name of the service on a port."},
    {"getprotobyname", sock_getprotobyname, METH_VARARGS, "The number of a named protocol."},
    {NULL, NULL, 0, NULL},
};
