/* The `select` module: select(), poll objects and epoll objects, what
   the stdlib's selectors, subprocess and asyncio wait on.

   Waits are retried after a signal (PEP 475) with the time that is
   left, once the signal's Python handler has run without raising. */

#include "Python.h"
#include "pycore_object.h"
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

/* ---- Shared helpers -------------------------------------------------------------------- */

static double
monotonic_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A timeout in seconds (None: forever, as -1).  `scale` turns seconds
   into the unit the caller's object speaks (poll speaks milliseconds). */
static int
read_timeout(PyObject *obj, double scale, double *seconds)
{
    if (obj == Py_None) {
        *seconds = -1.0;
        return 0;
    }
    double value = PyFloat_AsDouble(obj);
    if (value == -1.0 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_SetString(PyExc_TypeError, "timeout must be an integer or None");
        }
        return -1;
    }
    if (isnan(value)) {
        PyErr_SetString(PyExc_ValueError, "Invalid value NaN (not a number)");
        return -1;
    }
    *seconds = value / scale;
    return 0;
}

/* After EINTR: run signal handlers, then the time left (-1 forever),
   or -2 with an exception set. */
static double
time_left_after_signal(double deadline)
{
    if (PyErr_CheckSignals() < 0) {
        return -2.0;
    }
    if (deadline < 0) {
        return -1.0;
    }
    double left = deadline - monotonic_now();
    return left < 0 ? 0.0 : left;
}

static int
seconds_to_ms(double seconds)
{
    if (seconds < 0) {
        return -1;
    }
    double ms = ceil(seconds * 1000.0);
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

/* ---- select() -------------------------------------------------------------------------- */

/* The fds of one select() list, and the objects they came from. */
typedef struct {
    PyObject *objects; /* list */
    int *fds;
    Py_ssize_t n;
} fd_list;

static void
fd_list_clear(fd_list *l)
{
    Py_CLEAR(l->objects);
    PyMem_Free(l->fds);
    l->fds = NULL;
}

static int
fd_list_read(fd_list *l, PyObject *iterable, fd_set *set, int *max_fd)
{
    l->objects = PySequence_List(iterable);
    l->fds = NULL;
    if (l->objects == NULL) {
        PyErr_SetString(PyExc_TypeError, "arguments 1-3 must be sequences");
        return -1;
    }
    l->n = PyList_GET_SIZE(l->objects);
    l->fds = PyMem_Malloc(((size_t)l->n + 1) * sizeof(int));
    if (l->fds == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < l->n; i++) {
        int fd = PyObject_AsFileDescriptor(PyList_GET_ITEM(l->objects, i));
        if (fd < 0) {
            return -1;
        }
        if (fd >= FD_SETSIZE) {
            PyErr_SetString(PyExc_ValueError, "filedescriptor out of range in select()");
            return -1;
        }
        l->fds[i] = fd;
        FD_SET(fd, set);
        if (fd > *max_fd) {
            *max_fd = fd;
        }
    }
    return 0;
}

/* The objects whose fd is ready, in the order given. */
static PyObject *
fd_list_ready(const fd_list *l, const fd_set *set)
{
    PyObject *ready = PyList_New(0);
    for (Py_ssize_t i = 0; ready != NULL && i < l->n; i++) {
        if (FD_ISSET(l->fds[i], set) && PyList_Append(ready, PyList_GET_ITEM(l->objects, i)) < 0) {
            Py_CLEAR(ready);
        }
    }
    return ready;
}

static PyObject *
select_select(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 3 || nargs > 4) {
        PyErr_Format(PyExc_TypeError, "select expected 3 or 4 arguments, got %zd", nargs);
        return NULL;
    }
    double timeout = -1.0;
    if (nargs == 4 && read_timeout(args[3], 1.0, &timeout) < 0) {
        return NULL;
    }
    if (timeout < 0 && nargs == 4 && args[3] != Py_None) {
        PyErr_SetString(PyExc_ValueError, "timeout must be non-negative");
        return NULL;
    }
    fd_list lists[3] = {{0}};
    fd_set sets[3];
    int max_fd = -1;
    PyObject *result = NULL;
    for (int i = 0; i < 3; i++) {
        FD_ZERO(&sets[i]);
    }
    for (int i = 0; i < 3; i++) {
        if (fd_list_read(&lists[i], args[i], &sets[i], &max_fd) < 0) {
            goto done;
        }
    }
    double deadline = timeout < 0 ? -1.0 : monotonic_now() + timeout;
    fd_set ready[3];
    for (;;) {
        memcpy(ready, sets, sizeof(sets));
        struct timeval tv, *tvp = NULL;
        if (timeout >= 0) {
            tv.tv_sec = (time_t)timeout;
            tv.tv_usec = (suseconds_t)((timeout - (double)tv.tv_sec) * 1e6);
            tvp = &tv;
        }
        int n, err;
        /* Other threads run while this one waits (a server thread, say). */
        Py_BEGIN_ALLOW_THREADS
        n = select(max_fd + 1, &ready[0], &ready[1], &ready[2], tvp);
        err = errno;
        Py_END_ALLOW_THREADS
        if (n >= 0) {
            break;
        }
        errno = err;
        if (err != EINTR) {
            PyErr_SetFromErrno(PyExc_OSError);
            goto done;
        }
        timeout = time_left_after_signal(deadline);
        if (timeout == -2.0) {
            goto done;
        }
    }
    PyObject *r = fd_list_ready(&lists[0], &ready[0]);
    PyObject *w = fd_list_ready(&lists[1], &ready[1]);
    PyObject *x = fd_list_ready(&lists[2], &ready[2]);
    if (r != NULL && w != NULL && x != NULL) {
        result = PyTuple_Pack(3, r, w, x);
    }
    Py_XDECREF(r);
    Py_XDECREF(w);
    Py_XDECREF(x);
done:
    for (int i = 0; i < 3; i++) {
        fd_list_clear(&lists[i]);
    }
    return result;
}

/* ---- poll objects ---------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *registered; /* dict: fd -> event mask */
    int polling;          /* poll() in progress: the dict may not change */
} PollObject;

static PyTypeObject Poll_Type;

static int
event_mask_arg(PyObject *obj, unsigned short *mask)
{
    long value = PyLong_AsLong(obj);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (value < 0 || value > 0xffff) {
        PyErr_SetString(PyExc_OverflowError, "event mask out of range");
        return -1;
    }
    *mask = (unsigned short)value;
    return 0;
}

static PyObject *
poll_set(PollObject *self, PyObject *const *args, Py_ssize_t nargs, int must_exist)
{
    const char *name = must_exist ? "modify" : "register";
    if (nargs < 1 + must_exist || nargs > 2) {
        PyErr_Format(PyExc_TypeError, "%s() takes %s arguments", name, must_exist ? "2" : "1 or 2");
        return NULL;
    }
    int fd = PyObject_AsFileDescriptor(args[0]);
    unsigned short mask = POLLIN | POLLPRI | POLLOUT;
    if (fd < 0 || (nargs == 2 && event_mask_arg(args[1], &mask) < 0)) {
        return NULL;
    }
    PyObject *key = PyLong_FromLong(fd);
    if (key == NULL) {
        return NULL;
    }
    int present = PyDict_Contains(self->registered, key);
    if (present == 0 && must_exist) {
        errno = ENOENT;
        PyErr_SetFromErrno(PyExc_OSError);
        present = -1;
    }
    PyObject *value = present < 0 ? NULL : PyLong_FromLong(mask);
    int err = value == NULL || PyDict_SetItem(self->registered, key, value) < 0;
    Py_XDECREF(value);
    Py_DECREF(key);
    if (err) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
poll_register(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return poll_set((PollObject *)self, args, nargs, 0);
}

static PyObject *
poll_modify(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return poll_set((PollObject *)self, args, nargs, 1);
}

static PyObject *
poll_unregister(PyObject *op, PyObject *arg)
{
    PollObject *self = (PollObject *)op;
    int fd = PyObject_AsFileDescriptor(arg);
    if (fd < 0) {
        return NULL;
    }
    PyObject *key = PyLong_FromLong(fd);
    if (key == NULL) {
        return NULL;
    }
    int removed = PyDict_Pop(self->registered, key, NULL);
    Py_DECREF(key);
    if (removed == 0) {
        PyErr_SetObject(PyExc_KeyError, arg);
    }
    if (removed <= 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The registered fds as a pollfd array (PyMem; caller frees). */
static struct pollfd *
poll_fds(PollObject *self, Py_ssize_t *count)
{
    *count = PyDict_GET_SIZE(self->registered);
    struct pollfd *fds = PyMem_Malloc(((size_t)*count + 1) * sizeof(*fds));
    if (fds == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t pos = 0, i = 0;
    PyObject *key, *value;
    while (PyDict_Next(self->registered, &pos, &key, &value)) {
        fds[i].fd = (int)PyLong_AsLong(key);
        fds[i].events = (short)PyLong_AsLong(value);
        fds[i].revents = 0;
        i++;
    }
    return fds;
}

static PyObject *
poll_poll(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    PollObject *self = (PollObject *)op;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "poll() takes at most 1 argument");
        return NULL;
    }
    double timeout = -1.0; /* in seconds; the argument is milliseconds */
    if (nargs == 1 && read_timeout(args[0], 1000.0, &timeout) < 0) {
        return NULL;
    }
    if (self->polling) {
        PyErr_SetString(PyExc_RuntimeError, "concurrent poll() invocation");
        return NULL;
    }
    Py_ssize_t count;
    struct pollfd *fds = poll_fds(self, &count);
    if (fds == NULL) {
        return NULL;
    }
    self->polling = 1;
    double deadline = timeout < 0 ? -1.0 : monotonic_now() + timeout;
    int n;
    for (;;) {
        int err;
        Py_BEGIN_ALLOW_THREADS
        n = poll(fds, (nfds_t)count, seconds_to_ms(timeout));
        err = errno;
        Py_END_ALLOW_THREADS
        errno = err;
        if (n >= 0 || err != EINTR) {
            break;
        }
        timeout = time_left_after_signal(deadline);
        if (timeout == -2.0) {
            break;
        }
    }
    self->polling = 0;
    PyObject *result = NULL;
    if (n < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetFromErrno(PyExc_OSError);
        }
    }
    else {
        result = PyList_New(0);
        for (Py_ssize_t i = 0; result != NULL && i < count; i++) {
            if (fds[i].revents == 0) {
                continue;
            }
            PyObject *pair = Py_BuildValue("(ii)", fds[i].fd, fds[i].revents & 0xffff);
            if (pair == NULL || PyList_Append(result, pair) < 0) {
                Py_CLEAR(result);
            }
            Py_XDECREF(pair);
        }
    }
    PyMem_Free(fds);
    return result;
}

static void
poll_dealloc(PyObject *op)
{
    Py_XDECREF(((PollObject *)op)->registered);
    PyObject_Free(op);
}

static PyMethodDef poll_methods[] = {
    {"register", _PyCFunction_CAST(poll_register), METH_FASTCALL,
     "Watch a file descriptor for the events in the mask."},
    {"modify", _PyCFunction_CAST(poll_modify), METH_FASTCALL,
     "Change the event mask of a watched file descriptor."},
    {"unregister", poll_unregister, METH_O, "Stop watching a file descriptor."},
    {"poll", _PyCFunction_CAST(poll_poll), METH_FASTCALL,
     "Wait up to timeout milliseconds; a list of (fd, events) pairs."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject Poll_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "select.poll",
    .tp_basicsize = sizeof(PollObject),
    .tp_dealloc = poll_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_methods = poll_methods,
};

static PyObject *
select_poll(PyObject *module, PyObject *unused)
{
    PollObject *self = PyObject_New(PollObject, &Poll_Type);
    if (self == NULL) {
        return NULL;
    }
    self->polling = 0;
    self->registered = PyDict_New();
    if (self->registered == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* ---- epoll objects --------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int epfd; /* -1 once closed */
} EpollObject;

static PyTypeObject Epoll_Type;

static PyObject *
epoll_from_fd(PyTypeObject *type, int epfd)
{
    EpollObject *self = (EpollObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        close(epfd);
        return NULL;
    }
    self->epfd = epfd;
    return (PyObject *)self;
}

static PyObject *
epoll_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"sizehint", "flags", NULL};
    int sizehint = -1, flags = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|ii:epoll", (char **)kwlist, &sizehint, &flags)) {
        return NULL;
    }
    if (sizehint == 0 || sizehint < -1) {
        PyErr_SetString(PyExc_ValueError, "negative sizehint");
        return NULL;
    }
    int epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return epoll_from_fd(type, epfd);
}

static int
epoll_check_open(EpollObject *self)
{
    if (self->epfd < 0) {
        PyErr_SetString(PyExc_ValueError, "I/O operation on closed epoll object");
        return -1;
    }
    return 0;
}

static PyObject *
epoll_control(EpollObject *self, int op, PyObject *fd_obj, PyObject *mask_obj)
{
    if (epoll_check_open(self) < 0) {
        return NULL;
    }
    int fd = PyObject_AsFileDescriptor(fd_obj);
    if (fd < 0) {
        return NULL;
    }
    struct epoll_event ev = {.events = EPOLLIN | EPOLLPRI | EPOLLOUT};
    if (mask_obj != NULL) {
        unsigned long mask = PyLong_AsUnsignedLongMask(mask_obj);
        if (mask == (unsigned long)-1 && PyErr_Occurred()) {
            return NULL;
        }
        ev.events = (uint32_t)mask;
    }
    ev.data.fd = fd;
    if (epoll_ctl(self->epfd, op, fd, op == EPOLL_CTL_DEL ? NULL : &ev) < 0) {
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

static PyObject *
epoll_register(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"fd", "eventmask", NULL};
    PyObject *fd, *mask = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:register", (char **)kwlist, &fd, &mask)) {
        return NULL;
    }
    return epoll_control((EpollObject *)self, EPOLL_CTL_ADD, fd, mask);
}

static PyObject *
epoll_modify(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"fd", "eventmask", NULL};
    PyObject *fd, *mask;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:modify", (char **)kwlist, &fd, &mask)) {
        return NULL;
    }
    return epoll_control((EpollObject *)self, EPOLL_CTL_MOD, fd, mask);
}

static PyObject *
epoll_unregister(PyObject *self, PyObject *fd)
{
    return epoll_control((EpollObject *)self, EPOLL_CTL_DEL, fd, NULL);
}

static PyObject *
epoll_poll(PyObject *op, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"timeout", "maxevents", NULL};
    EpollObject *self = (EpollObject *)op;
    PyObject *timeout_obj = Py_None;
    int maxevents = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|Oi:poll", (char **)kwlist, &timeout_obj,
                                     &maxevents)) {
        return NULL;
    }
    double timeout;
    if (epoll_check_open(self) < 0 || read_timeout(timeout_obj, 1.0, &timeout) < 0) {
        return NULL;
    }
    if (maxevents == -1) {
        maxevents = FD_SETSIZE - 1;
    }
    else if (maxevents < 1) {
        PyErr_Format(PyExc_ValueError, "maxevents must be greater than 0, got %d", maxevents);
        return NULL;
    }
    struct epoll_event *events = PyMem_Malloc((size_t)maxevents * sizeof(*events));
    if (events == NULL) {
        return PyErr_NoMemory();
    }
    double deadline = timeout < 0 ? -1.0 : monotonic_now() + timeout;
    int n;
    for (;;) {
        int err;
        Py_BEGIN_ALLOW_THREADS
        n = epoll_wait(self->epfd, events, maxevents, seconds_to_ms(timeout));
        err = errno;
        Py_END_ALLOW_THREADS
        errno = err;
        if (n >= 0 || err != EINTR) {
            break;
        }
        timeout = time_left_after_signal(deadline);
        if (timeout == -2.0) {
            break;
        }
    }
    PyObject *result = NULL;
    if (n < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetFromErrno(PyExc_OSError);
        }
    }
    else {
        result = PyList_New(n);
        for (int i = 0; result != NULL && i < n; i++) {
            PyObject *pair = Py_BuildValue("(iI)", events[i].data.fd, events[i].events);
            if (pair == NULL) {
                Py_CLEAR(result);
                break;
            }
            PyList_SET_ITEM(result, i, pair);
        }
    }
    PyMem_Free(events);
    return result;
}

static PyObject *
epoll_close(PyObject *op, PyObject *unused)
{
    EpollObject *self = (EpollObject *)op;
    if (self->epfd >= 0) {
        int fd = self->epfd;
        self->epfd = -1;
        if (close(fd) < 0) {
            return PyErr_SetFromErrno(PyExc_OSError);
        }
    }
    Py_RETURN_NONE;
}

static PyObject *
epoll_fileno(PyObject *op, PyObject *unused)
{
    EpollObject *self = (EpollObject *)op;
    if (epoll_check_open(self) < 0) {
        return NULL;
    }
    return PyLong_FromLong(self->epfd);
}

static PyObject *
epoll_fromfd(PyObject *cls, PyObject *arg)
{
    int fd = PyLong_AsInt(arg);
    if (fd == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return epoll_from_fd((PyTypeObject *)cls, fd);
}

static PyObject *
epoll_enter(PyObject *op, PyObject *unused)
{
    if (epoll_check_open((EpollObject *)op) < 0) {
        return NULL;
    }
    return Py_NewRef(op);
}

static PyObject *
epoll_exit(PyObject *op, PyObject *args)
{
    return epoll_close(op, NULL);
}

static PyObject *
epoll_get_closed(PyObject *op, void *closure)
{
    return PyBool_FromLong(((EpollObject *)op)->epfd < 0);
}

static void
epoll_dealloc(PyObject *op)
{
    EpollObject *self = (EpollObject *)op;
    if (self->epfd >= 0) {
        close(self->epfd);
    }
    Py_TYPE(op)->tp_free(op);
}

static PyMethodDef epoll_methods[] = {
    {"register", _PyCFunction_CAST(epoll_register), METH_VARARGS | METH_KEYWORDS,
     "Watch a file descriptor for the events in the mask."},
    {"modify", _PyCFunction_CAST(epoll_modify), METH_VARARGS | METH_KEYWORDS,
     "Change the event mask of a watched file descriptor."},
    {"unregister", epoll_unregister, METH_O, "Stop watching a file descriptor."},
    {"poll", _PyCFunction_CAST(epoll_poll), METH_VARARGS | METH_KEYWORDS,
     "Wait up to timeout seconds; a list of (fd, events) pairs."},
    {"close", epoll_close, METH_NOARGS, "Close the epoll file descriptor."},
    {"fileno", epoll_fileno, METH_NOARGS, "The epoll file descriptor."},
    {"fromfd", epoll_fromfd, METH_O | METH_CLASS, "An epoll object over an existing descriptor."},
    {"__enter__", epoll_enter, METH_NOARGS, NULL},
    {"__exit__", epoll_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef epoll_getset[] = {
    {"closed", epoll_get_closed, NULL, "True once the object is closed.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject Epoll_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "select.epoll",
    .tp_basicsize = sizeof(EpollObject),
    .tp_dealloc = epoll_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "epoll(sizehint=-1, flags=0): an edge- and level-triggered event queue.",
    .tp_methods = epoll_methods,
    .tp_getset = epoll_getset,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = epoll_new,
    .tp_free = PyObject_Free,
};

/* ---- The module ------------------------------------------------------------------------ */

static PyMethodDef select_methods[] = {
    {"select", _PyCFunction_CAST(select_select), METH_FASTCALL,
     "select(rlist, wlist, xlist[, timeout]): the objects of each list that are ready."},
    {"poll", select_poll, METH_NOARGS, "A new poll object."},
    {NULL, NULL, 0, NULL},
};

static int
select_exec(PyObject *m)
{
    static const struct {
        const char *name;
        long value;
    } constants[] = {
        {"POLLIN", POLLIN}, {"POLLPRI", POLLPRI}, {"POLLOUT", POLLOUT}, {"POLLERR", POLLERR},
        {"POLLHUP", POLLHUP}, {"POLLNVAL", POLLNVAL}, {"POLLRDNORM", POLLRDNORM},
        {"POLLRDBAND", POLLRDBAND}, {"POLLWRNORM", POLLWRNORM}, {"POLLWRBAND", POLLWRBAND},
        {"POLLMSG", POLLMSG}, {"POLLRDHUP", POLLRDHUP},
        {"EPOLLIN", EPOLLIN}, {"EPOLLOUT", EPOLLOUT}, {"EPOLLPRI", EPOLLPRI},
        {"EPOLLERR", EPOLLERR}, {"EPOLLHUP", EPOLLHUP}, {"EPOLLET", EPOLLET},
        {"EPOLLONESHOT", EPOLLONESHOT}, {"EPOLLEXCLUSIVE", EPOLLEXCLUSIVE},
        {"EPOLLRDHUP", EPOLLRDHUP}, {"EPOLLRDNORM", EPOLLRDNORM}, {"EPOLLRDBAND", EPOLLRDBAND},
        {"EPOLLWRNORM", EPOLLWRNORM}, {"EPOLLWRBAND", EPOLLWRBAND}, {"EPOLLMSG", EPOLLMSG},
        {"EPOLL_CLOEXEC", EPOLL_CLOEXEC}, {"PIPE_BUF", PIPE_BUF},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(constants); i++) {
        if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0) {
            return -1;
        }
    }
    if (_PyStaticType_InitBuiltin(&Poll_Type) < 0 || _PyStaticType_InitBuiltin(&Epoll_Type) < 0) {
        return -1;
    }
    if (PyModule_AddObjectRef(m, "error", PyExc_OSError) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(m, "epoll", (PyObject *)&Epoll_Type);
}

static PyModuleDef_Slot select_slots[] = {
    {Py_mod_exec, select_exec},
    {0, NULL},
};

static PyModuleDef select_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "select",
    .m_doc = "Waiting for file descriptors to become ready: select, poll, epoll.",
    .m_methods = select_methods,
    .m_slots = select_slots,
};

PyObject *
PyInit_select(void)
{
    return PyModuleDef_Init(&select_module);
}
