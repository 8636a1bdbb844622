/* The bytes type: immutable byte strings stored inline after the header
   (always followed by a NUL so C code can use the data as a string).
   The empty bytes and the 256 one-byte values are immortal singletons.
   Shared method bodies live in bytes_methods.c. */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_bytesobject.h"
#include "pycore_unicodeobject.h"

#define BYTES_HEADER_SIZE offsetof(PyBytesObject, ob_sval)

/* ---- Singletons ------------------------------------------------------------------ */

/* ob_sval[1] plus the struct's tail padding holds the byte and its NUL. */
struct bytes_static {
    PyBytesObject ob;
    char pad[8];
};

static struct bytes_static empty_bytes = {
    .ob = {
        .ob_base = {{_Py_IMMORTAL_INITIAL_REFCNT, &PyBytes_Type}, 0},
        .ob_shash = -1,
        .ob_sval = {0},
    },
};

static struct bytes_static single_bytes[256];

PyObject *
_PyBytes_GetEmpty(void)
{
    return (PyObject *)&empty_bytes;
}

PyObject *
_PyBytes_FromByte(unsigned char c)
{
    struct bytes_static *b = &single_bytes[c];
    if (b->ob.ob_base.ob_base.ob_type == NULL) {
        b->ob.ob_base.ob_base.ob_refcnt = _Py_IMMORTAL_INITIAL_REFCNT;
        b->ob.ob_base.ob_size = 1;
        b->ob.ob_shash = -1;
        char *sval = PyBytes_AS_STRING(&b->ob);
        sval[0] = (char)c;
        sval[1] = '\0';
        b->ob.ob_base.ob_base.ob_type = &PyBytes_Type;
    }
    return (PyObject *)b;
}

static int
is_static(PyObject *op)
{
    return op == (PyObject *)&empty_bytes ||
           ((char *)op >= (char *)single_bytes && (char *)op < (char *)(single_bytes + 256));
}

/* ---- Allocation --------------------------------------------------------------------- */

/* A fresh bytes object of `size` bytes (contents unset except the NUL). */
static PyObject *
bytes_alloc(Py_ssize_t size)
{
    if (size < 0) {
        PyErr_SetString(PyExc_SystemError, "Negative size passed to PyBytes_FromStringAndSize");
        return NULL;
    }
    if ((size_t)size > (size_t)PY_SSIZE_T_MAX - BYTES_HEADER_SIZE - 1) {
        PyErr_SetString(PyExc_OverflowError, "byte string is too large");
        return NULL;
    }
    PyBytesObject *op = PyObject_Malloc(BYTES_HEADER_SIZE + (size_t)size + 1);
    if (op == NULL) {
        return PyErr_NoMemory();
    }
    _PyObject_InitVar((PyVarObject *)op, &PyBytes_Type, size);
    op->ob_shash = -1;
    PyBytes_AS_STRING(op)[size] = '\0';
    return (PyObject *)op;
}

PyObject *
PyBytes_FromStringAndSize(const char *str, Py_ssize_t size)
{
    if (size == 0) {
        return _PyBytes_GetEmpty();
    }
    if (size == 1 && str != NULL) {
        return _PyBytes_FromByte((unsigned char)str[0]);
    }
    PyObject *op = bytes_alloc(size);
    if (op != NULL && str != NULL) {
        memcpy(PyBytes_AS_STRING(op), str, (size_t)size);
    }
    return op;
}

PyObject *
PyBytes_FromString(const char *str)
{
    size_t size = strlen(str);
    if (size > (size_t)PY_SSIZE_T_MAX - BYTES_HEADER_SIZE - 1) {
        PyErr_SetString(PyExc_OverflowError, "byte string is too long");
        return NULL;
    }
    return PyBytes_FromStringAndSize(str, (Py_ssize_t)size);
}

static void
bytes_dealloc(PyObject *op)
{
    if (is_static(op)) {
        return;
    }
    Py_TYPE(op)->tp_free(op);
}

int
_PyBytes_Resize(PyObject **pv, Py_ssize_t newsize)
{
    PyObject *v = *pv;
    if (v == NULL || !PyBytes_Check(v) || newsize < 0) {
        *pv = NULL;
        Py_XDECREF(v);
        PyErr_BadInternalCall();
        return -1;
    }
    Py_ssize_t oldsize = PyBytes_GET_SIZE(v);
    if (oldsize == newsize) {
        return 0;
    }
    if (oldsize == 0 || newsize == 0 || is_static(v) || !PyBytes_CheckExact(v)) {
        PyObject *n = PyBytes_FromStringAndSize(NULL, newsize);
        if (n == NULL) {
            *pv = NULL;
            Py_DECREF(v);
            return -1;
        }
        if (newsize > 0) {
            memcpy(PyBytes_AS_STRING(n), PyBytes_AS_STRING(v),
                   (size_t)Py_MIN(oldsize, newsize));
        }
        *pv = n;
        Py_DECREF(v);
        return 0;
    }
    if (Py_REFCNT(v) != 1) {
        *pv = NULL;
        Py_DECREF(v);
        PyErr_BadInternalCall();
        return -1;
    }
    if ((size_t)newsize > (size_t)PY_SSIZE_T_MAX - BYTES_HEADER_SIZE - 1) {
        *pv = NULL;
        Py_DECREF(v);
        PyErr_NoMemory();
        return -1;
    }
    PyObject *n = PyObject_Realloc(v, BYTES_HEADER_SIZE + (size_t)newsize + 1);
    if (n == NULL) {
        *pv = NULL;
        Py_DECREF(v);
        PyErr_NoMemory();
        return -1;
    }
    Py_SET_SIZE(n, newsize);
    ((PyBytesObject *)n)->ob_shash = -1;
    PyBytes_AS_STRING(n)[newsize] = '\0';
    *pv = n;
    return 0;
}

/* ---- Accessors ------------------------------------------------------------------------ */

Py_ssize_t
PyBytes_Size(PyObject *op)
{
    if (!PyBytes_Check(op)) {
        PyErr_Format(PyExc_TypeError, "expected bytes, %.200s found", Py_TYPE(op)->tp_name);
        return -1;
    }
    return Py_SIZE(op);
}

char *
PyBytes_AsString(PyObject *op)
{
    if (!PyBytes_Check(op)) {
        PyErr_Format(PyExc_TypeError, "expected bytes, %.200s found", Py_TYPE(op)->tp_name);
        return NULL;
    }
    return PyBytes_AS_STRING(op);
}

int
PyBytes_AsStringAndSize(PyObject *obj, char **s, Py_ssize_t *len)
{
    if (s == NULL) {
        PyErr_BadInternalCall();
        return -1;
    }
    if (!PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "expected bytes, %.200s found", Py_TYPE(obj)->tp_name);
        return -1;
    }
    *s = PyBytes_AS_STRING(obj);
    if (len != NULL) {
        *len = PyBytes_GET_SIZE(obj);
    }
    else if (strlen(*s) != (size_t)PyBytes_GET_SIZE(obj)) {
        PyErr_SetString(PyExc_ValueError, "embedded null byte");
        return -1;
    }
    return 0;
}

/* ---- Concatenation and repetition ------------------------------------------------------- */

/* Join two byte buffers into a new bytes object. */
static PyObject *
join_two_buffers(const Py_buffer *left, const Py_buffer *right)
{
    if (left->len > PY_SSIZE_T_MAX - right->len) {
        return PyErr_NoMemory();
    }
    PyObject *joined = PyBytes_FromStringAndSize(NULL, left->len + right->len);
    if (joined != NULL) {
        char *dest = PyBytes_AS_STRING(joined);
        memcpy(dest, left->buf, (size_t)left->len);
        memcpy(dest + left->len, right->buf, (size_t)right->len);
    }
    return joined;
}

static PyObject *
bytes_concat(PyObject *a, PyObject *b)
{
    /* Either side may be any bytes-like object; the error names both. */
    Py_buffer views[2];
    PyObject *operands[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        if (PyObject_GetBuffer(operands[k], &views[k], PyBUF_SIMPLE) != 0) {
            if (k == 1) {
                PyBuffer_Release(&views[0]);
            }
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "can't concat %.100s to %.100s", Py_TYPE(b)->tp_name,
                         Py_TYPE(a)->tp_name);
            return NULL;
        }
    }
    /* Adding nothing to an exact bytes object gives that object back. */
    PyObject *result;
    if (views[1].len == 0 && PyBytes_CheckExact(a)) {
        result = Py_NewRef(a);
    }
    else if (views[0].len == 0 && PyBytes_CheckExact(b)) {
        result = Py_NewRef(b);
    }
    else {
        result = join_two_buffers(&views[0], &views[1]);
    }
    PyBuffer_Release(&views[0]);
    PyBuffer_Release(&views[1]);
    return result;
}

void
PyBytes_Concat(PyObject **pv, PyObject *w)
{
    if (*pv == NULL) {
        return;
    }
    if (w == NULL) {
        Py_CLEAR(*pv);
        return;
    }
    PyObject *v = *pv;
    if (Py_REFCNT(v) == 1 && PyBytes_CheckExact(v) && !is_static(v) && PyBytes_Check(w)) {
        Py_ssize_t oldsize = PyBytes_GET_SIZE(v), wsize = PyBytes_GET_SIZE(w);
        if (oldsize > PY_SSIZE_T_MAX - wsize) {
            PyErr_NoMemory();
            Py_CLEAR(*pv);
            return;
        }
        /* w may be v itself: copy it out before resizing. */
        if (w == v) {
            Py_SETREF(*pv, bytes_concat(v, w));
            return;
        }
        if (_PyBytes_Resize(pv, oldsize + wsize) < 0) {
            return;
        }
        memcpy(PyBytes_AS_STRING(*pv) + oldsize, PyBytes_AS_STRING(w), (size_t)wsize);
        return;
    }
    Py_SETREF(*pv, bytes_concat(v, w));
}

void
PyBytes_ConcatAndDel(PyObject **pv, PyObject *w)
{
    PyBytes_Concat(pv, w);
    Py_XDECREF(w);
}

PyObject *
_PyBytes_Repeat_Object(PyObject *self, Py_ssize_t n)
{
    Py_ssize_t size = PyBytes_GET_SIZE(self);
    if (n < 0) {
        n = 0;
    }
    if (n == 1 && PyBytes_CheckExact(self)) {
        return Py_NewRef(self);
    }
    if (n > 0 && size > PY_SSIZE_T_MAX / n) {
        PyErr_SetString(PyExc_OverflowError, "repeated bytes are too long");
        return NULL;
    }
    Py_ssize_t total = size * n;
    if (total == 0) {
        return _PyBytes_GetEmpty();
    }
    PyObject *res = PyBytes_FromStringAndSize(NULL, total);
    if (res == NULL) {
        return NULL;
    }
    char *p = PyBytes_AS_STRING(res);
    if (size == 1) {
        memset(p, PyBytes_AS_STRING(self)[0], (size_t)total);
        return res;
    }
    memcpy(p, PyBytes_AS_STRING(self), (size_t)size);
    Py_ssize_t done = size;
    while (done < total) {
        Py_ssize_t chunk = done < total - done ? done : total - done;
        memcpy(p + done, p, (size_t)chunk);
        done += chunk;
    }
    return res;
}

static PyObject *
bytes_repeat(PyObject *self, Py_ssize_t n)
{
    return _PyBytes_Repeat_Object(self, n);
}

/* ---- Construction from objects ------------------------------------------------------------ */

static PyObject *
bytes_from_buffer(PyObject *x)
{
    /* Strided views (memoryview slices) are gathered in C order. */
    Py_buffer view;
    if (PyObject_GetBuffer(x, &view, PyBUF_FULL_RO) < 0) {
        return NULL;
    }
    PyObject *res = PyBytes_FromStringAndSize(NULL, view.len);
    if (res != NULL && PyBuffer_ToContiguous(PyBytes_AS_STRING(res), &view, view.len, 'C') < 0) {
        Py_CLEAR(res);
    }
    PyBuffer_Release(&view);
    return res;
}

static PyObject *
bytes_from_list_or_tuple(PyObject *x)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(x);
    PyObject *res = PyBytes_FromStringAndSize(NULL, n);
    if (res == NULL) {
        return NULL;
    }
    char *p = PyBytes_AS_STRING(res);
    /* The list may change size while its items convert. */
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(x) && i < n; i++) {
        int v;
        PyObject *item = PySequence_Fast_GET_ITEM(x, i);
        Py_INCREF(item);
        int r = _Py_bytes_byte_value(item, &v);
        Py_DECREF(item);
        if (r < 0) {
            if (PyErr_ExceptionMatches(PyExc_ValueError)) {
                PyErr_SetString(PyExc_ValueError, "bytes must be in range(0, 256)");
            }
            Py_DECREF(res);
            return NULL;
        }
        p[i] = (char)v;
    }
    if (PySequence_Fast_GET_SIZE(x) < n && _PyBytes_Resize(&res, PySequence_Fast_GET_SIZE(x)) < 0) {
        return NULL;
    }
    return res;
}

PyObject *
PyBytes_FromObject(PyObject *x)
{
    if (x == NULL) {
        PyErr_BadInternalCall();
        return NULL;
    }
    if (PyBytes_CheckExact(x)) {
        return Py_NewRef(x);
    }
    PyBufferProcs *bp = Py_TYPE(x)->tp_as_buffer;
    if (bp != NULL && bp->bf_getbuffer != NULL) {
        return bytes_from_buffer(x);
    }
    if (PyList_CheckExact(x) || PyTuple_CheckExact(x)) {
        return bytes_from_list_or_tuple(x);
    }
    if (!PyUnicode_Check(x)) {
        PyObject *it = PyObject_GetIter(x);
        if (it != NULL) {
            char *buf;
            Py_ssize_t len;
            int r = _Py_bytes_from_iterable(it, &buf, &len);
            Py_DECREF(it);
            if (r < 0) {
                if (PyErr_ExceptionMatches(PyExc_ValueError)) {
                    PyErr_SetString(PyExc_ValueError, "bytes must be in range(0, 256)");
                }
                return NULL;
            }
            PyObject *res = PyBytes_FromStringAndSize(buf, len);
            PyMem_Free(buf);
            return res;
        }
        if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
            return NULL;
        }
        PyErr_Clear();
    }
    PyErr_Format(PyExc_TypeError, "cannot convert '%.200s' object to bytes",
                 Py_TYPE(x)->tp_name);
    return NULL;
}

static PyObject *
call_dunder_bytes(PyObject *x, int *found)
{
    static PyObject *name = NULL;
    PyTypeObject *tp = Py_TYPE(x);
    /* Common built-in types have no __bytes__: skip the lookup. */
    if (tp == &PyUnicode_Type || tp == &PyLong_Type || tp == &PyFloat_Type ||
        tp == &PyBool_Type || tp == &PyList_Type || tp == &PyTuple_Type ||
        tp == &PyDict_Type || x == Py_None) {
        *found = 0;
        return NULL;
    }
    if (name == NULL) {
        name = PyUnicode_InternFromString("__bytes__");
        if (name == NULL) {
            return NULL;
        }
    }
    PyObject *meth = _PyObject_LookupSpecial(x, name);
    if (meth == NULL) {
        *found = 0;
        return NULL;
    }
    *found = 1;
    PyObject *res = PyObject_CallNoArgs(meth);
    Py_DECREF(meth);
    if (res != NULL && !PyBytes_Check(res)) {
        PyErr_Format(PyExc_TypeError, "__bytes__ returned non-bytes (type %.200s)",
                     Py_TYPE(res)->tp_name);
        Py_CLEAR(res);
    }
    return res;
}

static PyObject *
bytes_new_exact(PyObject *x, const char *encoding, const char *errors)
{
    if (x == NULL) {
        if (encoding != NULL || errors != NULL) {
            PyErr_SetString(PyExc_TypeError, encoding != NULL
                                                 ? "encoding without a string argument"
                                                 : "errors without a string argument");
            return NULL;
        }
        return _PyBytes_GetEmpty();
    }
    if (encoding != NULL || errors != NULL) {
        if (!PyUnicode_Check(x)) {
            PyErr_SetString(PyExc_TypeError, encoding != NULL
                                                 ? "encoding without a string argument"
                                                 : "errors without a string argument");
            return NULL;
        }
        return PyUnicode_AsEncodedString(x, encoding ? encoding : "utf-8", errors);
    }
    if (PyUnicode_Check(x)) {
        PyErr_SetString(PyExc_TypeError, "string argument without an encoding");
        return NULL;
    }
    /* Exact built-in types cannot have a __bytes__ of their own. */
    if (PyBytes_CheckExact(x)) {
        return Py_NewRef(x);
    }
    if (PyList_CheckExact(x) || PyTuple_CheckExact(x)) {
        return bytes_from_list_or_tuple(x);
    }
    if (PyByteArray_CheckExact(x)) {
        return bytes_from_buffer(x);
    }
    int found;
    if (PyLong_CheckExact(x)) {
        goto as_count;
    }
    PyObject *res = call_dunder_bytes(x, &found);
    if (found || PyErr_Occurred()) {
        return res;
    }
as_count:
    if (PyIndex_Check(x)) {
        Py_ssize_t size = PyNumber_AsSsize_t(x, PyExc_OverflowError);
        if (size == -1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
                return NULL;
            }
            PyErr_Clear();
        }
        else if (size < 0) {
            PyErr_SetString(PyExc_ValueError, "negative count");
            return NULL;
        }
        else {
            res = PyBytes_FromStringAndSize(NULL, size);
            if (res != NULL && size > 0) {
                memset(PyBytes_AS_STRING(res), 0, (size_t)size);
            }
            return res;
        }
    }
    return PyBytes_FromObject(x);
}

static PyObject *
bytes_subtype_new(PyTypeObject *type, PyObject *tmp)
{
    Py_ssize_t n = PyBytes_GET_SIZE(tmp);
    PyObject *self = type->tp_alloc(type, n);
    if (self == NULL) {
        return NULL;
    }
    ((PyBytesObject *)self)->ob_shash = -1;
    memcpy(PyBytes_AS_STRING(self), PyBytes_AS_STRING(tmp), (size_t)n + 1);
    return self;
}

static PyObject *
bytes_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"source", "encoding", "errors", NULL};
    PyObject *x = NULL;
    const char *encoding = NULL, *errors = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|Oss:bytes", kwlist, &x, &encoding, &errors)) {
        return NULL;
    }
    PyObject *res = bytes_new_exact(x, encoding, errors);
    if (res == NULL || type == &PyBytes_Type) {
        return res;
    }
    PyObject *self = bytes_subtype_new(type, res);
    Py_DECREF(res);
    return self;
}

static PyObject *
bytes_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames == NULL && nargs <= 1 && type == (PyObject *)&PyBytes_Type) {
        return bytes_new_exact(nargs ? args[0] : NULL, NULL, NULL);
    }
    PyObject *argtuple = _PyTuple_FromArray(args, nargs);
    if (argtuple == NULL) {
        return NULL;
    }
    PyObject *kwargs = NULL;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        kwargs = _PyStack_AsDict(args + nargs, kwnames);
        if (kwargs == NULL) {
            Py_DECREF(argtuple);
            return NULL;
        }
    }
    PyObject *res = bytes_new((PyTypeObject *)type, argtuple, kwargs);
    Py_DECREF(argtuple);
    Py_XDECREF(kwargs);
    return res;
}

/* ---- repr, hash, compare ------------------------------------------------------------------ */

PyObject *
PyBytes_Repr(PyObject *op, int smartquotes)
{
    return _Py_bytes_repr(PyBytes_AS_STRING(op), PyBytes_GET_SIZE(op), smartquotes, "", "");
}

static PyObject *
bytes_repr(PyObject *op)
{
    return PyBytes_Repr(op, 1);
}

static Py_hash_t
bytes_hash(PyObject *op)
{
    PyBytesObject *b = (PyBytesObject *)op;
    if (b->ob_shash == -1) {
        b->ob_shash = _Py_HashBytes(b->ob_sval, Py_SIZE(op));
    }
    return b->ob_shash;
}

static PyObject *
bytes_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyBytes_Check(a) || !PyBytes_Check(b)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (a == b && (op == Py_EQ || op == Py_NE || op == Py_LE || op == Py_GE)) {
        return PyBool_FromLong(op != Py_NE);
    }
    return _Py_bytes_richcompare(PyBytes_AS_STRING(a), Py_SIZE(a), PyBytes_AS_STRING(b),
                                 Py_SIZE(b), op);
}

/* ---- Sequence and mapping --------------------------------------------------------------------- */

static Py_ssize_t
bytes_length(PyObject *self)
{
    return Py_SIZE(self);
}

static PyObject *
bytes_item(PyObject *self, Py_ssize_t i)
{
    if (i < 0 || i >= Py_SIZE(self)) {
        PyErr_SetString(PyExc_IndexError, "index out of range");
        return NULL;
    }
    return PyLong_FromLong((unsigned char)PyBytes_AS_STRING(self)[i]);
}

static int
bytes_contains(PyObject *self, PyObject *arg)
{
    return _Py_bytes_contains(PyBytes_AS_STRING(self), Py_SIZE(self), arg);
}

static PyObject *
bytes_subscript(PyObject *self, PyObject *item)
{
    if (PyIndex_Check(item)) {
        Py_ssize_t i = PyNumber_AsSsize_t(item, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (i < 0) {
            i += Py_SIZE(self);
        }
        return bytes_item(self, i);
    }
    if (PySlice_Check(item)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(item, &start, &stop, &step) < 0) {
            return NULL;
        }
        Py_ssize_t n = PySlice_AdjustIndices(Py_SIZE(self), &start, &stop, step);
        const char *src = PyBytes_AS_STRING(self);
        if (n <= 0) {
            return _PyBytes_GetEmpty();
        }
        if (step == 1) {
            if (start == 0 && n == Py_SIZE(self) && PyBytes_CheckExact(self)) {
                return Py_NewRef(self);
            }
            return PyBytes_FromStringAndSize(src + start, n);
        }
        PyObject *res = PyBytes_FromStringAndSize(NULL, n);
        if (res == NULL) {
            return NULL;
        }
        char *dst = PyBytes_AS_STRING(res);
        for (Py_ssize_t i = 0, cur = start; i < n; i++, cur += step) {
            dst[i] = src[cur];
        }
        return res;
    }
    PyErr_Format(PyExc_TypeError, "byte indices must be integers or slices, not %.200s",
                 Py_TYPE(item)->tp_name);
    return NULL;
}

static int
bytes_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    return PyBuffer_FillInfo(view, self, PyBytes_AS_STRING(self), Py_SIZE(self), 1, flags);
}

static PyObject *
bytes_mod(PyObject *a, PyObject *b)
{
    if (!PyBytes_Check(a)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return _PyBytes_FormatEx(PyBytes_AS_STRING(a), Py_SIZE(a), b, 0);
}

static PyNumberMethods bytes_as_number = {
    .nb_remainder = bytes_mod,
};

static PySequenceMethods bytes_as_sequence = {
    .sq_length = bytes_length,
    .sq_concat = bytes_concat,
    .sq_repeat = bytes_repeat,
    .sq_item = bytes_item,
    .sq_contains = bytes_contains,
};

static PyMappingMethods bytes_as_mapping = {
    .mp_length = bytes_length,
    .mp_subscript = bytes_subscript,
};

static PyBufferProcs bytes_as_buffer = {
    .bf_getbuffer = bytes_getbuffer,
};

/* ---- Methods ---------------------------------------------------------------------------------- */

#define SELF_DATA PyBytes_AS_STRING(self), Py_SIZE(self)
#define MAKE PyBytes_FromStringAndSize
#define STRINGLIB_STR PyBytes_AS_STRING

/* Methods that only delegate to bytes_methods.c, and the _tp_iteritem slot,
   are instantiated from one template shared with bytearray. */
#define STRINGLIB(name) bytes_##name
#include "stringlib/bytes_delegates.h"

#define TRANSFORM(NAME)                                                           \
    static PyObject *                                                             \
    bytes_##NAME(PyObject *self, PyObject *Py_UNUSED(ignored))                    \
    {                                                                             \
        PyObject *res = PyBytes_FromStringAndSize(NULL, Py_SIZE(self));           \
        if (res != NULL && Py_SIZE(self) > 0) {                                   \
            _Py_bytes_##NAME(PyBytes_AS_STRING(res), SELF_DATA);                  \
        }                                                                         \
        return res;                                                               \
    }
TRANSFORM(lower)
TRANSFORM(upper)
TRANSFORM(title)
TRANSFORM(capitalize)
TRANSFORM(swapcase)

static PyObject *
bytes_replace(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (!_PyArg_NoKwnames("bytes.replace", kwnames)) {
        return NULL;
    }
    return _Py_bytes_replace(MAKE, self, SELF_DATA, args, nargs, kwnames);
}

PyObject *
_PyBytes_Join(PyObject *sep, PyObject *iterable)
{
    return _Py_bytes_join(MAKE, PyBytes_AS_STRING(sep), Py_SIZE(sep), iterable);
}

static PyObject *
bytes_fromhex(PyObject *type, PyObject *string)
{
    PyObject *res = _Py_bytes_fromhex(MAKE, string);
    if (res != NULL && type != (PyObject *)&PyBytes_Type) {
        Py_SETREF(res, PyObject_CallOneArg(type, res));
    }
    return res;
}

static PyObject *
bytes_getnewargs(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *copy = PyBytes_FromStringAndSize(SELF_DATA);
    if (copy == NULL) {
        return NULL;
    }
    PyObject *res = PyTuple_Pack(1, copy);
    Py_DECREF(copy);
    return res;
}

static PyObject *
bytes_bytes(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (PyBytes_CheckExact(self)) {
        return Py_NewRef(self);
    }
    return PyBytes_FromStringAndSize(SELF_DATA);
}

static PyObject *
bytes_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSize_t(Py_TYPE(self)->tp_basicsize + (size_t)Py_SIZE(self));
}

#define FASTCALL(f) _PyCFunction_CAST(f), METH_FASTCALL
#define FASTCALL_KW(f) _PyCFunction_CAST(f), METH_FASTCALL | METH_KEYWORDS

static PyMethodDef bytes_methods[] = {
    {"__getnewargs__", bytes_getnewargs, METH_NOARGS, NULL},
    {"__bytes__", bytes_bytes, METH_NOARGS, "Convert this value to exact type bytes."},
    {"__sizeof__", bytes_sizeof, METH_NOARGS, "Return the size of the bytes in memory, in bytes."},
    {"capitalize", bytes_capitalize, METH_NOARGS, "B.capitalize() -> copy of B"},
    {"center", FASTCALL(bytes_center), "Return a centered string of length width."},
    {"count", FASTCALL(bytes_count),
     "Return the number of non-overlapping occurrences of subsection 'sub' in bytes B[start:end]."},
    {"decode", FASTCALL_KW(bytes_decode), "Decode the bytes using the codec registered for encoding."},
    {"endswith", FASTCALL(bytes_endswith), "Return True if the bytes ends with the specified suffix."},
    {"expandtabs", FASTCALL_KW(bytes_expandtabs),
     "Return a copy where all tab characters are expanded using spaces."},
    {"find", FASTCALL(bytes_find), "Return the lowest index in B where subsection 'sub' is found."},
    {"fromhex", bytes_fromhex, METH_O | METH_CLASS,
     "Create a bytes object from a string of hexadecimal numbers."},
    {"hex", FASTCALL_KW(bytes_hex), "Create a string of hexadecimal numbers from a bytes object."},
    {"index", FASTCALL(bytes_index), "Return the lowest index in B where subsection 'sub' is found."},
    {"isalnum", bytes_isalnum, METH_NOARGS, "B.isalnum() -> bool"},
    {"isalpha", bytes_isalpha, METH_NOARGS, "B.isalpha() -> bool"},
    {"isascii", bytes_isascii, METH_NOARGS, "B.isascii() -> bool"},
    {"isdigit", bytes_isdigit, METH_NOARGS, "B.isdigit() -> bool"},
    {"islower", bytes_islower, METH_NOARGS, "B.islower() -> bool"},
    {"isspace", bytes_isspace, METH_NOARGS, "B.isspace() -> bool"},
    {"istitle", bytes_istitle, METH_NOARGS, "B.istitle() -> bool"},
    {"isupper", bytes_isupper, METH_NOARGS, "B.isupper() -> bool"},
    {"join", bytes_join, METH_O, "Concatenate any number of bytes objects."},
    {"ljust", FASTCALL(bytes_ljust), "Return a left-justified string of length width."},
    {"lower", bytes_lower, METH_NOARGS, "B.lower() -> copy of B"},
    {"lstrip", FASTCALL(bytes_lstrip), "Strip leading bytes contained in the argument."},
    {"maketrans", FASTCALL(bytes_maketrans) | METH_STATIC,
     "Return a translation table usable for the bytes or bytearray translate method."},
    {"partition", bytes_partition, METH_O, "Partition the bytes into three parts using the given separator."},
    {"replace", FASTCALL_KW(bytes_replace),
     "Return a copy with all occurrences of substring old replaced by new."},
    {"removeprefix", bytes_removeprefix, METH_O, "Return a bytes object with the given prefix string removed if present."},
    {"removesuffix", bytes_removesuffix, METH_O, "Return a bytes object with the given suffix string removed if present."},
    {"rfind", FASTCALL(bytes_rfind), "Return the highest index in B where subsection 'sub' is found."},
    {"rindex", FASTCALL(bytes_rindex), "Return the highest index in B where subsection 'sub' is found."},
    {"rjust", FASTCALL(bytes_rjust), "Return a right-justified string of length width."},
    {"rpartition", bytes_rpartition, METH_O, "Partition the bytes into three parts using the given separator."},
    {"rsplit", FASTCALL_KW(bytes_rsplit), "Return a list of the sections in the bytes, using sep as the delimiter."},
    {"rstrip", FASTCALL(bytes_rstrip), "Strip trailing bytes contained in the argument."},
    {"split", FASTCALL_KW(bytes_split), "Return a list of the sections in the bytes, using sep as the delimiter."},
    {"splitlines", FASTCALL_KW(bytes_splitlines), "Return a list of the lines in the bytes, breaking at line boundaries."},
    {"startswith", FASTCALL(bytes_startswith), "Return True if the bytes starts with the specified prefix."},
    {"strip", FASTCALL(bytes_strip), "Strip leading and trailing bytes contained in the argument."},
    {"swapcase", bytes_swapcase, METH_NOARGS, "B.swapcase() -> copy of B"},
    {"title", bytes_title, METH_NOARGS, "B.title() -> copy of B"},
    {"translate", FASTCALL_KW(bytes_translate), "Return a copy with each character mapped by the given translation table."},
    {"upper", bytes_upper, METH_NOARGS, "B.upper() -> copy of B"},
    {"zfill", bytes_zfill, METH_O, "Pad a numeric string with zeros on the left, to fill a field of the given width."},
    {NULL, NULL, 0, NULL},
};

/* ---- Iterator -------------------------------------------------------------------------------- */

/* Shared with bytearray: only the names differ. */
#define STRINGLIB(name) bytes_##name
#define STRINGLIB_ITER_TYPE PyBytesIter_Type
#define STRINGLIB_ITER_NAME "bytes_iterator"
#include "stringlib/bytes_iterator.h"

/* ---- The type ----------------------------------------------------------------------------------- */

static const char bytes_doc[] =
    "bytes(iterable_of_ints) -> bytes\n"
    "bytes(string, encoding[, errors]) -> bytes\n"
    "bytes(bytes_or_buffer) -> immutable copy of bytes_or_buffer\n"
    "bytes(int) -> bytes object of size given by the parameter initialized with null bytes\n"
    "bytes() -> empty bytes object\n"
    "\n"
    "Construct an immutable array of bytes from:\n"
    "  - an iterable yielding integers in range(256)\n"
    "  - a text string encoded using the specified encoding\n"
    "  - any object implementing the buffer API.\n"
    "  - an integer";

PyTypeObject PyBytes_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "bytes",
    .tp_basicsize = BYTES_HEADER_SIZE + 1,
    .tp_itemsize = 1,
    .tp_dealloc = bytes_dealloc,
    .tp_repr = bytes_repr,
    .tp_as_number = &bytes_as_number,
    .tp_as_sequence = &bytes_as_sequence,
    .tp_as_mapping = &bytes_as_mapping,
    .tp_hash = bytes_hash,
    .tp_str = bytes_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_as_buffer = &bytes_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_BYTES_SUBCLASS,
    .tp_doc = bytes_doc,
    .tp_richcompare = bytes_richcompare,
    .tp_iter = bytes_iter,
    .tp_methods = bytes_methods,
    .tp_base = &PyBaseObject_Type,
    .tp_new = bytes_new,
    .tp_free = PyObject_Free,
    .tp_vectorcall = bytes_vectorcall,
    ._tp_iteritem = bytes_iteritem,
};

int
_PyBytes_InitTypes(PyInterpreterState *interp)
{
    for (int c = 0; c < 256; c++) {
        (void)_PyBytes_FromByte((unsigned char)c);
    }
    if (PyType_Ready(&PyBytes_Type) < 0 || PyType_Ready(&PyBytesIter_Type) < 0 ||
        PyType_Ready(&PyByteArray_Type) < 0 || PyType_Ready(&PyByteArrayIter_Type) < 0) {
        return -1;
    }
    return 0;
}

/* ---- PyBytes_FromFormat -------------------------------------------------------------------------- */

PyObject *
PyBytes_FromFormatV(const char *format, va_list vargs)
{
    va_list va;
    va_copy(va, vargs);
    PyObject *res = NULL;
    char *buf = NULL;
    Py_ssize_t len = 0, cap = 0;
    for (const char *f = format; *f;) {
        char piece[64];
        const char *src = piece;
        Py_ssize_t n;
        if (*f != '%') {
            const char *p = strchr(f, '%');
            n = p ? p - f : (Py_ssize_t)strlen(f);
            src = f;
            f += n;
        }
        else if (f[1] == '%') {
            piece[0] = '%';
            n = 1;
            f += 2;
        }
        else {
            /* Copy the conversion (flags, width, precision, size) into a
               C format and let snprintf do it with the right type. */
            char spec[32];
            const char *start = f++;
            while (*f && strchr("-0123456789.", *f) != NULL) {
                f++;
            }
            int lmod = 0;
            if (f[0] == 'l' && f[1] == 'l') {
                lmod = 'q';
                f += 2;
            }
            else if (*f == 'l' || *f == 'z') {
                lmod = *f++;
            }
            int k = (int)(f - start);
            if (k > 24 || *f == '\0') {
                PyErr_Format(PyExc_ValueError, "invalid format string: %s", start);
                goto done;
            }
            memcpy(spec, start, (size_t)k);
            char conv = *f++;
            int m = k;
            if (lmod == 'q') {
                m = (int)(k - 2);
            }
            else if (lmod) {
                m = k - 1;
            }
            spec[m] = '\0';
            char cfmt[40];
            switch (conv) {
            case 'c': {
                int c = va_arg(va, int);
                if (c < 0 || c > 255) {
                    PyErr_SetString(PyExc_OverflowError, "PyBytes_FromFormatV(): %c format expects an integer in [0; 255]");
                    goto done;
                }
                piece[0] = (char)c;
                n = 1;
                break;
            }
            case 'd': case 'i': case 'u': case 'x': {
                char c2 = conv == 'i' ? 'd' : conv;
                if (lmod == 'l') {
                    snprintf(cfmt, sizeof(cfmt), "%sl%c", spec, c2);
                    n = c2 == 'd' ? snprintf(piece, sizeof(piece), cfmt, va_arg(va, long))
                                  : snprintf(piece, sizeof(piece), cfmt, va_arg(va, unsigned long));
                }
                else if (lmod == 'q') {
                    snprintf(cfmt, sizeof(cfmt), "%sll%c", spec, c2);
                    n = c2 == 'd' ? snprintf(piece, sizeof(piece), cfmt, va_arg(va, long long))
                                  : snprintf(piece, sizeof(piece), cfmt, va_arg(va, unsigned long long));
                }
                else if (lmod == 'z') {
                    snprintf(cfmt, sizeof(cfmt), "%sz%c", spec, c2);
                    n = c2 == 'd' ? snprintf(piece, sizeof(piece), cfmt, va_arg(va, Py_ssize_t))
                                  : snprintf(piece, sizeof(piece), cfmt, va_arg(va, size_t));
                }
                else {
                    snprintf(cfmt, sizeof(cfmt), "%s%c", spec, c2);
                    n = c2 == 'd' ? snprintf(piece, sizeof(piece), cfmt, va_arg(va, int))
                                  : snprintf(piece, sizeof(piece), cfmt, va_arg(va, unsigned int));
                }
                if (n >= (Py_ssize_t)sizeof(piece)) {
                    n = sizeof(piece) - 1;
                }
                break;
            }
            case 'p': {
                void *p = va_arg(va, void *);
                n = snprintf(piece, sizeof(piece), "%p", p);
                if (piece[1] != 'x') {
                    n = snprintf(piece, sizeof(piece), "0x%lx", (unsigned long)(uintptr_t)p);
                }
                break;
            }
            case 's': {
                const char *s = va_arg(va, const char *);
                const char *dot = strchr(spec, '.');
                n = (Py_ssize_t)strlen(s);
                if (dot != NULL) {
                    Py_ssize_t prec = atol(dot + 1);
                    n = prec < n ? prec : n;
                }
                src = s;
                break;
            }
            default:
                PyErr_Format(PyExc_ValueError, "invalid format string: %s", start);
                goto done;
            }
        }
        if (n > cap - len) {
            Py_ssize_t newcap = (cap + n) * 2 + 32;
            char *nb = PyMem_Realloc(buf, (size_t)newcap);
            if (nb == NULL) {
                PyErr_NoMemory();
                goto done;
            }
            buf = nb;
            cap = newcap;
        }
        memcpy(buf + len, src, (size_t)n);
        len += n;
    }
    res = PyBytes_FromStringAndSize(buf, len);
done:
    va_end(va);
    PyMem_Free(buf);
    return res;
}

PyObject *
PyBytes_FromFormat(const char *format, ...)
{
    va_list vargs;
    va_start(vargs, format);
    PyObject *res = PyBytes_FromFormatV(format, vargs);
    va_end(vargs);
    return res;
}

/* ---- bytes % args ---------------------------------------------------------------------------------- */

typedef struct {
    const char *fmt;
    Py_ssize_t len, pos;
    PyObject *args;
    Py_ssize_t arglen, argidx;
    PyObject *dict;
    PyObject *owned_arg; /* current %(key) value */
    char *out;
    Py_ssize_t outlen, outcap;
} bctx;

/* Room for n more bytes: grows geometrically, but one huge request
   (a width near PY_SSIZE_T_MAX) asks for its own size only, so it fails
   with MemoryError rather than being filled a byte at a time. */
static int
breserve(bctx *c, Py_ssize_t n)
{
    if (n <= c->outcap - c->outlen) {
        return 0;
    }
    if (n > PY_SSIZE_T_MAX - 32 - c->outlen) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t cap = c->outlen + n + 32;
    if (c->outcap <= PY_SSIZE_T_MAX / 4 && c->outcap * 2 > cap) {
        cap = c->outcap * 2;
    }
    char *p = PyMem_Realloc(c->out, (size_t)cap);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    c->out = p;
    c->outcap = cap;
    return 0;
}

static int
bput(bctx *c, const char *s, Py_ssize_t n)
{
    if (n == 0) {
        return 0;
    }
    if (breserve(c, n) < 0) {
        return -1;
    }
    memcpy(c->out + c->outlen, s, (size_t)n);
    c->outlen += n;
    return 0;
}

static int
bfill(bctx *c, char ch, Py_ssize_t n)
{
    if (n <= 0) {
        return 0;
    }
    if (breserve(c, n) < 0) {
        return -1;
    }
    memset(c->out + c->outlen, ch, (size_t)n);
    c->outlen += n;
    return 0;
}

static PyObject *
bnext_arg(bctx *c)
{
    if (c->arglen >= 0 ? c->argidx < c->arglen : c->argidx < 0) {
        if (c->arglen < 0) {
            c->argidx = 0;
            return c->args;
        }
        return PyTuple_GET_ITEM(c->args, c->argidx++);
    }
    PyErr_SetString(PyExc_TypeError, "not enough arguments for format string");
    return NULL;
}

/* The bytes for %s/%b: a bytes-like object or one with __bytes__. */
static PyObject *
format_as_bytes(PyObject *v)
{
    if (PyBytes_Check(v)) {
        return Py_NewRef(v);
    }
    PyBufferProcs *bp = Py_TYPE(v)->tp_as_buffer;
    if (bp != NULL && bp->bf_getbuffer != NULL) {
        return bytes_from_buffer(v);
    }
    int found;
    PyObject *res = call_dunder_bytes(v, &found);
    if (found || PyErr_Occurred()) {
        return res;
    }
    PyErr_Format(PyExc_TypeError,
                 "%%b requires a bytes-like object, or an object that implements __bytes__, "
                 "not '%.100s'",
                 Py_TYPE(v)->tp_name);
    return NULL;
}

static int
bput_padded(bctx *c, const char *s, Py_ssize_t n, Py_ssize_t width, Py_ssize_t prec, int left)
{
    if (prec >= 0 && prec < n) {
        n = prec;
    }
    Py_ssize_t pad = width > n ? width - n : 0;
    if ((!left && bfill(c, ' ', pad) < 0) || bput(c, s, n) < 0 ||
        (left && bfill(c, ' ', pad) < 0)) {
        return -1;
    }
    return 0;
}

/* Numbers go through str's %-formatting with an equivalent spec. */
static int
format_number(bctx *c, PyObject *v, const char *flags, Py_ssize_t width, Py_ssize_t prec,
              char conv)
{
    char spec[80];
    int n = snprintf(spec, sizeof(spec), "%%%s", flags);
    if (width >= 0) {
        n += snprintf(spec + n, sizeof(spec) - n, "%zd", width);
    }
    if (prec >= 0) {
        n += snprintf(spec + n, sizeof(spec) - n, ".%zd", prec);
    }
    snprintf(spec + n, sizeof(spec) - n, "%c", conv);
    PyObject *fmt = PyUnicode_FromString(spec);
    if (fmt == NULL) {
        return -1;
    }
    PyObject *tup = PyTuple_Pack(1, v);
    PyObject *text = tup ? PyUnicode_Format(fmt, tup) : NULL;
    Py_DECREF(fmt);
    Py_XDECREF(tup);
    if (text == NULL) {
        return -1;
    }
    Py_ssize_t size;
    const char *s = PyUnicode_AsUTF8AndSize(text, &size);
    int r = s ? bput(c, s, size) : -1;
    Py_DECREF(text);
    return r;
}

static int
bformat_one(bctx *c)
{
    Py_ssize_t width = -1, prec = -1;
    char flags[8] = {0};
    int nflags = 0, left = 0;
    if (c->pos < c->len && c->fmt[c->pos] == '(') {
        if (c->dict == NULL) {
            PyErr_SetString(PyExc_TypeError, "format requires a mapping");
            return -1;
        }
        Py_ssize_t start = ++c->pos, depth = 1;
        while (c->pos < c->len) {
            if (c->fmt[c->pos] == ')' && --depth == 0) {
                break;
            }
            if (c->fmt[c->pos] == '(') {
                depth++;
            }
            c->pos++;
        }
        if (c->pos >= c->len) {
            PyErr_SetString(PyExc_ValueError, "incomplete format key");
            return -1;
        }
        PyObject *key = PyBytes_FromStringAndSize(c->fmt + start, c->pos - start);
        c->pos++;
        if (key == NULL) {
            return -1;
        }
        PyObject *value = PyObject_GetItem(c->dict, key);
        Py_DECREF(key);
        if (value == NULL) {
            return -1;
        }
        Py_XSETREF(c->owned_arg, value);
        c->args = value;
        c->arglen = -1;
        c->argidx = -2;
    }
    while (c->pos < c->len && strchr("-+ #0", c->fmt[c->pos]) != NULL && c->fmt[c->pos]) {
        char f = c->fmt[c->pos++];
        left |= f == '-';
        if (nflags < 5 && strchr(flags, f) == NULL) {
            flags[nflags++] = f;
        }
        flags[nflags] = '\0';
    }
    flags[nflags] = '\0';
    for (int which = 0; which < 2; which++) {
        Py_ssize_t *target = which == 0 ? &width : &prec;
        if (which == 1) {
            if (c->pos >= c->len || c->fmt[c->pos] != '.') {
                break;
            }
            c->pos++;
            prec = 0;
        }
        if (c->pos < c->len && c->fmt[c->pos] == '*') {
            c->pos++;
            PyObject *v = bnext_arg(c);
            if (v == NULL) {
                return -1;
            }
            Py_ssize_t n;
            if (_PyFormat_StarArg(v, &n, which == 0) < 0) {
                return -1;
            }
            if (n < 0 && which == 0) {
                left = 1;
                if (nflags < 5) {
                    flags[nflags++] = '-';
                    flags[nflags] = '\0';
                }
                n = -n;
            }
            *target = n < 0 ? 0 : n;
            continue;
        }
        while (c->pos < c->len && c->fmt[c->pos] >= '0' && c->fmt[c->pos] <= '9') {
            if (_PyFormat_AddDigit(target, c->fmt[c->pos] - '0', which == 0) < 0) {
                if (which != 0) {
                    /* bytes words it differently */
                    PyErr_SetString(PyExc_ValueError, "prec too big");
                }
                return -1;
            }
            c->pos++;
        }
    }
    while (c->pos < c->len && strchr("hlL", c->fmt[c->pos]) != NULL && c->fmt[c->pos]) {
        c->pos++;
    }
    if (c->pos >= c->len) {
        PyErr_SetString(PyExc_ValueError, "incomplete format");
        return -1;
    }
    char conv = c->fmt[c->pos];
    Py_ssize_t conv_pos = c->pos++;
    PyObject *v = bnext_arg(c);
    if (v == NULL) {
        return -1;
    }
    switch (conv) {
    case 's':
    case 'b': {
        PyObject *b = format_as_bytes(v);
        if (b == NULL) {
            return -1;
        }
        int r = bput_padded(c, PyBytes_AS_STRING(b), Py_SIZE(b), width, prec, left);
        Py_DECREF(b);
        return r;
    }
    case 'r':
    case 'a': {
        PyObject *text = PyObject_ASCII(v);
        if (text == NULL) {
            return -1;
        }
        Py_ssize_t size;
        const char *s = PyUnicode_AsUTF8AndSize(text, &size);
        int r = s ? bput_padded(c, s, size, width, prec, left) : -1;
        Py_DECREF(text);
        return r;
    }
    case 'c': {
        char ch;
        if (PyLong_Check(v)) {
            int overflow;
            long x = PyLong_AsLongAndOverflow(v, &overflow);
            if (x == -1 && PyErr_Occurred()) {
                return -1;
            }
            if (overflow || x < 0 || x > 255) {
                PyErr_SetString(PyExc_OverflowError, "%c arg not in range(256)");
                return -1;
            }
            ch = (char)x;
        }
        else if (PyBytes_Check(v) && Py_SIZE(v) == 1) {
            ch = PyBytes_AS_STRING(v)[0];
        }
        else if (PyByteArray_Check(v) && Py_SIZE(v) == 1) {
            ch = PyByteArray_AS_STRING(v)[0];
        }
        else {
            PyErr_SetString(PyExc_TypeError,
                            "%c requires an integer in range(256) or a single byte");
            return -1;
        }
        return bput_padded(c, &ch, 1, width, -1, left);
    }
    case 'i':
        /* bytes formatting reports %i as %d, as CPython does */
        return format_number(c, v, flags, width, prec, 'd');
    case 'd': case 'u': case 'x': case 'X': case 'o':
        return format_number(c, v, flags, width, prec, conv);
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
        if (!PyFloat_Check(v)) {
            double x = PyFloat_AsDouble(v);
            if (x == -1.0 && PyErr_Occurred()) {
                PyErr_Format(PyExc_TypeError, "float argument required, not %.200s",
                             Py_TYPE(v)->tp_name);
                return -1;
            }
        }
        return format_number(c, v, flags, width, prec, conv);
    default:
        if (conv >= 32 && conv < 127) {
            PyErr_Format(PyExc_ValueError,
                         "unsupported format character '%c' (0x%x) at index %zd", conv,
                         (unsigned int)(unsigned char)conv, conv_pos);
        }
        else {
            PyErr_Format(PyExc_ValueError, "unsupported format character '\\x%x' at index %zd",
                         (unsigned int)(unsigned char)conv, conv_pos);
        }
        return -1;
    }
}

PyObject *
_PyBytes_FormatEx(const char *format, Py_ssize_t format_len, PyObject *args, int use_bytearray)
{
    bctx c = {format, format_len, 0, args, -1, -2, NULL, NULL, NULL, 0, 0};
    if (PyTuple_Check(args)) {
        c.arglen = PyTuple_GET_SIZE(args);
        c.argidx = 0;
    }
    if (PyMapping_Check(args) && !PyTuple_Check(args) && !PyBytes_Check(args) &&
        !PyByteArray_Check(args) && !PyUnicode_Check(args)) {
        c.dict = args;
    }
    PyObject *res = NULL;
    while (c.pos < c.len) {
        const char *pct = memchr(format + c.pos, '%', (size_t)(c.len - c.pos));
        Py_ssize_t stop = pct ? pct - format : c.len;
        if (bput(&c, format + c.pos, stop - c.pos) < 0) {
            goto done;
        }
        c.pos = stop;
        if (c.pos >= c.len) {
            break;
        }
        c.pos++;
        if (c.pos < c.len && format[c.pos] == '%') {
            c.pos++;
            if (bput(&c, "%", 1) < 0) {
                goto done;
            }
            continue;
        }
        if (bformat_one(&c) < 0) {
            goto done;
        }
    }
    if (c.argidx < c.arglen && c.dict == NULL) {
        PyErr_SetString(PyExc_TypeError, "not all arguments converted during bytes formatting");
        goto done;
    }
    res = use_bytearray ? PyByteArray_FromStringAndSize(c.out, c.outlen)
                        : PyBytes_FromStringAndSize(c.out, c.outlen);
done:
    Py_XDECREF(c.owned_arg);
    PyMem_Free(c.out);
    return res;
}

/* ---- Escape decoding for bytes literals --------------------------------------------------------------- */

static int
hexdigit_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = (char)(c | 0x20);
    return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

PyObject *
_PyBytes_DecodeEscape(const char *s, Py_ssize_t len, const char *errors,
                      const char **first_invalid_escape)
{
    char *buf = PyMem_Malloc((size_t)len + 1);
    if (buf == NULL) {
        return PyErr_NoMemory();
    }
    char *p = buf;
    const char *end = s + len;
    if (first_invalid_escape) {
        *first_invalid_escape = NULL;
    }
    while (s < end) {
        if (*s != '\\') {
            *p++ = *s++;
            continue;
        }
        const char *start = s++;
        if (s >= end) {
            PyErr_SetString(PyExc_ValueError, "Trailing \\ in string");
            goto error;
        }
        char c = *s++;
        switch (c) {
        case '\n': break;
        case '\\': *p++ = '\\'; break;
        case '\'': *p++ = '\''; break;
        case '"': *p++ = '"'; break;
        case 'b': *p++ = '\b'; break;
        case 'f': *p++ = '\f'; break;
        case 't': *p++ = '\t'; break;
        case 'n': *p++ = '\n'; break;
        case 'r': *p++ = '\r'; break;
        case 'v': *p++ = '\v'; break;
        case 'a': *p++ = '\a'; break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
            int v = c - '0';
            if (s < end && *s >= '0' && *s <= '7') {
                v = v * 8 + (*s++ - '0');
                if (s < end && *s >= '0' && *s <= '7') {
                    v = v * 8 + (*s++ - '0');
                }
            }
            if (v > 0377 && first_invalid_escape && *first_invalid_escape == NULL) {
                *first_invalid_escape = start;
            }
            *p++ = (char)v;
            break;
        }
        case 'x': {
            int hi = s < end ? hexdigit_value(s[0]) : -1;
            int lo = s + 1 < end ? hexdigit_value(s[1]) : -1;
            if (hi >= 0 && lo >= 0) {
                *p++ = (char)(hi * 16 + lo);
                s += 2;
                break;
            }
            if (errors == NULL || strcmp(errors, "strict") == 0) {
                PyErr_Format(PyExc_ValueError, "invalid \\x escape at position %zd",
                             (Py_ssize_t)(start - (end - len)));
                goto error;
            }
            if (strcmp(errors, "replace") == 0) {
                *p++ = '?';
            }
            else if (strcmp(errors, "ignore") != 0) {
                PyErr_Format(PyExc_ValueError,
                             "decoding error; unknown error handling code: %.400s", errors);
                goto error;
            }
            if (s < end && hi >= 0) {
                s++;
            }
            break;
        }
        default:
            if (first_invalid_escape && *first_invalid_escape == NULL) {
                *first_invalid_escape = start;
            }
            *p++ = '\\';
            s--;
            break;
        }
    }
    PyObject *res = PyBytes_FromStringAndSize(buf, p - buf);
    PyMem_Free(buf);
    return res;
error:
    PyMem_Free(buf);
    return NULL;
}

PyObject *
PyBytes_DecodeEscape(const char *s, Py_ssize_t len, const char *errors, Py_ssize_t unicode,
                     const char *recode_encoding)
{
    const char *first_invalid = NULL;
    PyObject *res = _PyBytes_DecodeEscape(s, len, errors, &first_invalid);
    if (res != NULL && first_invalid != NULL) {
        unsigned char c = (unsigned char)first_invalid[1];
        int r = (c >= '4' && c <= '7')
                    ? PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                                       "invalid octal escape sequence '\\%.3s'", first_invalid + 1)
                    : PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                                       "invalid escape sequence '\\%c'", c);
        if (r < 0) {
            Py_DECREF(res);
            return NULL;
        }
    }
    return res;
}
