/* Declarations shared by the files of the `_socket` module:
   socketmodule.c (the module, constants, small functions),
   socket_object.c (the socket type), socket_addr.c (Python address
   objects <-> struct sockaddr) and socket_resolve.c (name lookups). */

#ifndef Py_SOCKETMODULE_H
#define Py_SOCKETMODULE_H

#include "Python.h"
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

/* Room for any address family we speak. */
typedef union {
    struct sockaddr sa;
    struct sockaddr_in in4;
    struct sockaddr_in6 in6;
    struct sockaddr_un un;
    struct sockaddr_storage storage;
} sock_addr_t;

typedef struct {
    PyObject_HEAD
    int fd;         /* -1 once closed or detached */
    int family;
    int type;
    int proto;
    double timeout; /* seconds; -1.0 blocks forever, 0.0 never blocks */
} PySocketObject;

extern PyTypeObject _PySocket_Type;
extern PyObject *_PySocket_herror;
extern PyObject *_PySocket_gaierror;

/* Seconds from None or a number: -1.0 for None, -2.0 with an error set. */
double _PySocket_ReadTimeout(PyObject *obj);

/* The timeout new sockets get (-1.0: None). */
double _PySocket_DefaultTimeout(void);

/* socket_object.c: one system call on the socket, made with the lock
   released; -1 with errno set on failure. */
typedef Py_ssize_t (*_PySocket_Op)(PySocketObject *s, void *data);
Py_ssize_t _PySocket_RunOp(PySocketObject *s, short events, _PySocket_Op op, void *data);

/* socket_msg.c */
PyObject *_PySocket_SendMsg(PyObject *self, PyObject *args);
PyObject *_PySocket_RecvMsg(PyObject *self, PyObject *args);
extern PyMethodDef _PySocket_CmsgMethods[];

/* socket_addr.c */
int _PySocket_ParseAddress(PySocketObject *s, PyObject *obj, const char *caller,
                           sock_addr_t *addr, socklen_t *len);
PyObject *_PySocket_MakeAddress(const struct sockaddr *sa, socklen_t len);
PyObject *_PySocket_IPString(const struct sockaddr *sa);
int _PySocket_ResolveHost(PyObject *host, int family, sock_addr_t *addr);

/* socket_resolve.c */
PyObject *_PySocket_SetGaiError(int code);
extern PyMethodDef _PySocket_ResolveMethods[];

#endif /* !Py_SOCKETMODULE_H */
