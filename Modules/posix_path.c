/* C fast paths for posixpath: _path_splitroot_ex and _path_normpath, which
   posixpath.py uses as splitroot() and normpath() when they exist.  They
   only rewrite strings and never touch the file system.

   str and bytes share one implementation: the characters are copied into a
   Py_UCS4 array (a byte is a value below 256), rewritten there, and turned
   back into the caller's type. */

#include "posixmodule.h"

/* A path's characters, and the type to give results back in. */
typedef struct {
    Py_UCS4 *chars;
    Py_ssize_t len;
    int is_bytes;
} path_text;

/* fspath() with the path-argument error message; fills `text`. */
static int
text_from_arg(const char *func, PyObject *arg, path_text *text)
{
    if (!PyUnicode_Check(arg) && !PyBytes_Check(arg)) {
        PyObject *hook = PyObject_GetAttrString((PyObject *)Py_TYPE(arg), "__fspath__");
        if (hook == NULL) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: path should be string, bytes or os.PathLike, not %.200s",
                         func, Py_TYPE(arg)->tp_name);
            return -1;
        }
        Py_DECREF(hook);
    }
    PyObject *path = PyOS_FSPath(arg);
    if (path == NULL) {
        return -1;
    }
    text->is_bytes = PyBytes_Check(path);
    if (text->is_bytes) {
        text->len = PyBytes_GET_SIZE(path);
        text->chars = PyMem_New(Py_UCS4, text->len + 1);
        const unsigned char *src = (const unsigned char *)PyBytes_AS_STRING(path);
        for (Py_ssize_t i = 0; text->chars != NULL && i < text->len; i++) {
            text->chars[i] = src[i];
        }
        if (text->chars == NULL) {
            PyErr_NoMemory();
        }
    }
    else {
        text->len = PyUnicode_GET_LENGTH(path);
        text->chars = PyUnicode_AsUCS4Copy(path);
    }
    Py_DECREF(path);
    return text->chars == NULL ? -1 : 0;
}

static PyObject *
text_result(const path_text *text, const Py_UCS4 *chars, Py_ssize_t len)
{
    if (!text->is_bytes) {
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, chars, len);
    }
    PyObject *res = PyBytes_FromStringAndSize(NULL, len);
    if (res != NULL) {
        for (Py_ssize_t i = 0; i < len; i++) {
            PyBytes_AS_STRING(res)[i] = (char)chars[i];
        }
    }
    return res;
}

/* How many leading slashes make the root: none, one, or exactly two
   (POSIX leaves "//" implementation-defined, so it is kept; three or more
   mean "/"). */
static Py_ssize_t
root_length(const Py_UCS4 *p, Py_ssize_t len)
{
    if (len == 0 || p[0] != '/') {
        return 0;
    }
    if (len >= 2 && p[1] == '/' && !(len >= 3 && p[2] == '/')) {
        return 2;
    }
    return 1;
}

static PyObject *
posix__path_splitroot_ex(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"p", NULL};
    PyObject *a[1];
    path_text text;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "_path_splitroot_ex", kwlist, 1, 1, 0, a) ||
        text_from_arg("_path_splitroot_ex", a[0], &text) < 0) {
        return NULL;
    }
    Py_ssize_t root = root_length(text.chars, text.len);
    PyObject *drive = text_result(&text, text.chars, 0);
    PyObject *rootobj = text_result(&text, text.chars, root);
    PyObject *tail = text_result(&text, text.chars + root, text.len - root);
    PyMem_Free(text.chars);
    if (drive == NULL || rootobj == NULL || tail == NULL) {
        Py_XDECREF(drive);
        Py_XDECREF(rootobj);
        Py_XDECREF(tail);
        return NULL;
    }
    PyObject *items[3] = {drive, rootobj, tail};
    return _PyTuple_FromArraySteal(items, 3);
}

static int
is_dotdot(const Py_UCS4 *p, Py_ssize_t len)
{
    return len == 2 && p[0] == '.' && p[1] == '.';
}

/* Rewrite in[root..len) component by component into out (after the root
   already copied there); returns the new length.  `starts[k]` is where
   the k-th kept component (with its leading '/') begins in out, so ".."
   can drop the last one. */
static Py_ssize_t
collapse(const Py_UCS4 *in, Py_ssize_t len, Py_ssize_t root, Py_UCS4 *out, Py_ssize_t *starts,
         char *kept_dotdot)
{
    Py_ssize_t n = root, kept = 0;
    for (Py_ssize_t i = root; i <= len;) {
        Py_ssize_t j = i;
        while (j < len && in[j] != '/') {
            j++;
        }
        const Py_UCS4 *comp = in + i;
        Py_ssize_t clen = j - i;
        i = j + 1;
        if (clen == 0 || (clen == 1 && comp[0] == '.')) {
            continue;
        }
        int up = is_dotdot(comp, clen);
        if (up && kept > 0 && !kept_dotdot[kept - 1]) {
            n = starts[--kept];
            continue;
        }
        if (up && root > 0) {
            continue;  /* ".." at the root stays at the root */
        }
        starts[kept] = n;
        kept_dotdot[kept++] = (char)up;
        if (n > root) {
            out[n++] = '/';
        }
        memcpy(out + n, comp, (size_t)clen * sizeof(Py_UCS4));
        n += clen;
    }
    return n;
}

static PyObject *
posix__path_normpath(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"path", NULL};
    PyObject *a[1];
    path_text text;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "_path_normpath", kwlist, 1, 1, 0, a) ||
        text_from_arg("_path_normpath", a[0], &text) < 0) {
        return NULL;
    }
    Py_UCS4 *out = PyMem_New(Py_UCS4, text.len + 1);
    Py_ssize_t *starts = PyMem_New(Py_ssize_t, text.len / 2 + 1);
    char *kept_dotdot = PyMem_Malloc((size_t)text.len / 2 + 1);
    PyObject *res = NULL;
    if (out == NULL || starts == NULL || kept_dotdot == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t root = root_length(text.chars, text.len);
    memcpy(out, text.chars, (size_t)root * sizeof(Py_UCS4));
    Py_ssize_t n = collapse(text.chars, text.len, root, out, starts, kept_dotdot);
    if (n == 0) {
        out[n++] = '.';
    }
    res = text_result(&text, out, n);
done:
    PyMem_Free(text.chars);
    PyMem_Free(out);
    PyMem_Free(starts);
    PyMem_Free(kept_dotdot);
    return res;
}

static PyMethodDef path_methods[] = {
    {"_path_splitroot_ex", (PyCFunction)(void (*)(void))posix__path_splitroot_ex,
     METH_FASTCALL | METH_KEYWORDS, "posixpath.splitroot(): (drive, root, tail)."},
    {"_path_normpath", (PyCFunction)(void (*)(void))posix__path_normpath, METH_FASTCALL | METH_KEYWORDS,
     "posixpath.normpath(): collapse '.', '..' and repeated slashes."},
    {NULL, NULL, 0, NULL},
};

int
_PyPosix_InitPath(PyObject *module)
{
    return PyModule_AddFunctions(module, path_methods);
}
