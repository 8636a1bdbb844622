/* The posix module's extended attribute calls (getxattr, setxattr,
   listxattr, removexattr), which shutil.copystat uses to copy them.

   Each takes a path or an fd, and follow_symlinks to pick the l*xattr()
   form that acts on a link itself. */

#include "posixmodule.h"

#include <sys/xattr.h>

typedef PyObject *(*fastcall_fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);
#define FASTCALL(f) (PyCFunction)(void (*)(void))(fastcall_fn)(f), METH_FASTCALL | METH_KEYWORDS

/* The file an attribute call acts on. */
typedef struct {
    _PyPosixPath path;
    int follow;
} xattr_target;

static int
target_init(xattr_target *t, const char *func, PyObject *obj, PyObject *follow, int flags)
{
    t->path = (_PyPosixPath){.func = func, .arg = "path"};
    t->follow = 1;
    if (_PyPosix_PathConvert(&t->path, obj, _PyPosix_PATH_FD | flags) < 0) {
        return -1;
    }
    t->follow = _PyPosix_Flag(follow, 1);
    if (t->follow < 0) {
        return -1;
    }
    if (t->path.fd >= 0 && !t->follow) {
        PyErr_Format(PyExc_ValueError, "%s: cannot use fd and follow_symlinks together", func);
        return -1;
    }
    return 0;
}

/* An attribute name: str, bytes or PathLike, like a path. */
static int
attribute_init(_PyPosixPath *attr, const char *func, PyObject *obj)
{
    *attr = (_PyPosixPath){.func = func, .arg = "attribute"};
    return _PyPosix_PathConvert(attr, obj, 0);
}

static ssize_t
get_value(xattr_target *t, const char *name, char *buf, size_t size)
{
    if (t->path.fd >= 0) {
        return fgetxattr(t->path.fd, name, buf, size);
    }
    return t->follow ? getxattr(t->path.name, name, buf, size) : lgetxattr(t->path.name, name, buf, size);
}

static ssize_t
list_names(xattr_target *t, char *buf, size_t size)
{
    if (t->path.fd >= 0) {
        return flistxattr(t->path.fd, buf, size);
    }
    return t->follow ? listxattr(t->path.name, buf, size) : llistxattr(t->path.name, buf, size);
}

/* Ask for the size, then fetch; if the value grew in between (ERANGE),
   ask again.  Returns a bytes object, or NULL with OSError set. */
static PyObject *
fetch_sized(xattr_target *t, const char *name)
{
    for (;;) {
        ssize_t size = name ? get_value(t, name, NULL, 0) : list_names(t, NULL, 0);
        if (size < 0) {
            return _PyPosix_PathError(&t->path);
        }
        PyObject *buf = PyBytes_FromStringAndSize(NULL, size);
        if (buf == NULL) {
            return NULL;
        }
        char *p = PyBytes_AS_STRING(buf);
        ssize_t got = name ? get_value(t, name, p, (size_t)size) : list_names(t, p, (size_t)size);
        if (got >= 0) {
            if (got != size && _PyBytes_Resize(&buf, got) < 0) {
                return NULL;
            }
            return buf;
        }
        Py_DECREF(buf);
        if (errno != ERANGE) {
            return _PyPosix_PathError(&t->path);
        }
    }
}

static PyObject *
posix_getxattr(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "attribute", "follow_symlinks", NULL};
    PyObject *a[3], *res = NULL;
    xattr_target t;
    _PyPosixPath attr = {0};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "getxattr", kwlist, 2, 2, 0, a)) {
        return NULL;
    }
    if (target_init(&t, "getxattr", a[0], a[2], 0) == 0 && attribute_init(&attr, "getxattr", a[1]) == 0) {
        res = fetch_sized(&t, attr.name);
    }
    _PyPosix_PathClear(&t.path);
    _PyPosix_PathClear(&attr);
    return res;
}

/* The kernel's list is NUL-separated names; give them as str. */
static PyObject *
split_names(PyObject *raw)
{
    PyObject *list = PyList_New(0);
    const char *p = PyBytes_AS_STRING(raw), *end = p + PyBytes_GET_SIZE(raw);
    while (list != NULL && p < end) {
        size_t len = strnlen(p, (size_t)(end - p));
        PyObject *name = PyUnicode_DecodeFSDefaultAndSize(p, (Py_ssize_t)len);
        if (name == NULL || PyList_Append(list, name) < 0) {
            Py_CLEAR(list);
        }
        Py_XDECREF(name);
        p += len + 1;
    }
    return list;
}

static PyObject *
posix_listxattr(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "follow_symlinks", NULL};
    PyObject *a[2], *res = NULL;
    xattr_target t;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "listxattr", kwlist, 0, 1, 0, a)) {
        return NULL;
    }
    if (target_init(&t, "listxattr", a[0], a[1], _PyPosix_PATH_NONE) == 0) {
        PyObject *raw = fetch_sized(&t, NULL);
        if (raw != NULL) {
            res = split_names(raw);
            Py_DECREF(raw);
        }
    }
    _PyPosix_PathClear(&t.path);
    return res;
}

static int
set_value(xattr_target *t, const char *name, Py_buffer *value, int flags)
{
    if (t->path.fd >= 0) {
        return fsetxattr(t->path.fd, name, value->buf, (size_t)value->len, flags);
    }
    if (t->follow) {
        return setxattr(t->path.name, name, value->buf, (size_t)value->len, flags);
    }
    return lsetxattr(t->path.name, name, value->buf, (size_t)value->len, flags);
}

static PyObject *
posix_setxattr(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "attribute", "value", "flags", "follow_symlinks", NULL};
    PyObject *a[5], *res = NULL;
    xattr_target t;
    _PyPosixPath attr = {0};
    Py_buffer value = {0};
    int flags = 0;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "setxattr", kwlist, 3, 4, 0, a)) {
        return NULL;
    }
    if (target_init(&t, "setxattr", a[0], a[4], 0) < 0 || attribute_init(&attr, "setxattr", a[1]) < 0 ||
        (a[3] != NULL && _PyPosix_Int(a[3], &flags) < 0) ||
        PyObject_GetBuffer(a[2], &value, PyBUF_SIMPLE) < 0) {
        goto done;
    }
    res = set_value(&t, attr.name, &value, flags) < 0 ? _PyPosix_PathError(&t.path) : Py_NewRef(Py_None);
    PyBuffer_Release(&value);
done:
    _PyPosix_PathClear(&t.path);
    _PyPosix_PathClear(&attr);
    return res;
}

static PyObject *
posix_removexattr(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", "attribute", "follow_symlinks", NULL};
    PyObject *a[3], *res = NULL;
    xattr_target t;
    _PyPosixPath attr = {0};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "removexattr", kwlist, 2, 2, 0, a)) {
        return NULL;
    }
    if (target_init(&t, "removexattr", a[0], a[2], 0) == 0 && attribute_init(&attr, "removexattr", a[1]) == 0) {
        int rc;
        if (t.path.fd >= 0) {
            rc = fremovexattr(t.path.fd, attr.name);
        }
        else {
            rc = t.follow ? removexattr(t.path.name, attr.name) : lremovexattr(t.path.name, attr.name);
        }
        res = rc < 0 ? _PyPosix_PathError(&t.path) : Py_NewRef(Py_None);
    }
    _PyPosix_PathClear(&t.path);
    _PyPosix_PathClear(&attr);
    return res;
}

static PyMethodDef xattr_methods[] = {
    {"getxattr", FASTCALL(posix_getxattr), "The value of an extended attribute, as bytes."},
    {"setxattr", FASTCALL(posix_setxattr), "Set an extended attribute (flags: XATTR_CREATE, XATTR_REPLACE)."},
    {"listxattr", FASTCALL(posix_listxattr), "The names of a file's extended attributes."},
    {"removexattr", FASTCALL(posix_removexattr), "Remove an extended attribute."},
    {NULL, NULL, 0, NULL},
};

int
_PyPosix_InitXattr(PyObject *module)
{
    if (PyModule_AddFunctions(module, xattr_methods) < 0 ||
        PyModule_AddIntConstant(module, "XATTR_CREATE", XATTR_CREATE) < 0 ||
        PyModule_AddIntConstant(module, "XATTR_REPLACE", XATTR_REPLACE) < 0 ||
        PyModule_AddIntConstant(module, "XATTR_SIZE_MAX", 65536) < 0) {
        return -1;
    }
    return 0;
}
