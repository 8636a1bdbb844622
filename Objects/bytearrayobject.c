/* The bytearray type: a mutable, growable byte string.  The buffer is a
   separate PyMem block (ob_bytes == ob_start, always NUL-terminated and
   never NULL once the object is initialised); ob_exports counts buffer
   views, during which the size may not change.  Shared method bodies
   live in bytes_methods.c. */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_bytesobject.h"

#define BA(op) ((PyByteArrayObject *)(op))
#define SELF_DATA PyByteArray_AS_STRING(self), Py_SIZE(self)
#define MAKE PyByteArray_FromStringAndSize
#define STRINGLIB_STR PyByteArray_AS_STRING

/* ---- Storage ---------------------------------------------------------------------- */

/* Make sure the object owns a buffer (tp_alloc leaves none). */
static int
ensure_buffer(PyByteArrayObject *b)
{
    if (b->ob_bytes != NULL) {
        return 0;
    }
    b->ob_bytes = PyMem_Malloc(1);
    if (b->ob_bytes == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->ob_bytes[0] = '\0';
    b->ob_start = b->ob_bytes;
    b->ob_alloc = 1;
    Py_SET_SIZE(b, 0);
    return 0;
}

int
PyByteArray_Resize(PyObject *self, Py_ssize_t requested)
{
    PyByteArrayObject *b = BA(self);
    Py_ssize_t size = Py_SIZE(self);
    if (requested < 0) {
        PyErr_Format(PyExc_ValueError, "Can only resize to positive sizes, got %zd", requested);
        return -1;
    }
    if (ensure_buffer(b) < 0) {
        return -1;
    }
    if (requested == size) {
        return 0;
    }
    if (b->ob_exports > 0) {
        PyErr_SetString(PyExc_BufferError, "Existing exports of data: object cannot be re-sized");
        return -1;
    }
    if (requested >= PY_SSIZE_T_MAX - 1) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t alloc = b->ob_alloc;
    if (requested + 1 > alloc || requested + 1 < alloc / 2) {
        /* Over-allocate growth by 1/8 so appends are amortised O(1); an
           exact request (from a fresh or shrinking object) fits tightly. */
        alloc = requested + 1;
        if (requested > size && size > 0 && requested < PY_SSIZE_T_MAX - (requested >> 3) - 8) {
            alloc += (requested >> 3) + 8;
        }
        char *nb = PyMem_Realloc(b->ob_bytes, (size_t)alloc);
        if (nb == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->ob_bytes = b->ob_start = nb;
        b->ob_alloc = alloc;
    }
    Py_SET_SIZE(self, requested);
    b->ob_start[requested] = '\0';
    return 0;
}

static PyObject *
new_bytearray(PyTypeObject *type, const char *s, Py_ssize_t size)
{
    if (size < 0) {
        PyErr_SetString(PyExc_SystemError,
                        "Negative size passed to PyByteArray_FromStringAndSize");
        return NULL;
    }
    PyByteArrayObject *b;
    if (type == &PyByteArray_Type) {
        b = PyObject_New(PyByteArrayObject, &PyByteArray_Type);
    }
    else {
        b = (PyByteArrayObject *)type->tp_alloc(type, 0);
    }
    if (b == NULL) {
        return NULL;
    }
    if (size >= PY_SSIZE_T_MAX - 1) {
        Py_DECREF(b);
        return PyErr_NoMemory();
    }
    b->ob_bytes = PyMem_Malloc((size_t)size + 1);
    if (b->ob_bytes == NULL) {
        b->ob_alloc = 0;
        b->ob_start = NULL;
        Py_SET_SIZE(b, 0);
        b->ob_exports = 0;
        Py_DECREF(b);
        return PyErr_NoMemory();
    }
    if (s != NULL && size > 0) {
        memcpy(b->ob_bytes, s, (size_t)size);
    }
    b->ob_bytes[size] = '\0';
    b->ob_start = b->ob_bytes;
    b->ob_alloc = size + 1;
    b->ob_exports = 0;
    Py_SET_SIZE(b, size);
    return (PyObject *)b;
}

PyObject *
PyByteArray_FromStringAndSize(const char *s, Py_ssize_t size)
{
    return new_bytearray(&PyByteArray_Type, s, size);
}

static void
bytearray_dealloc(PyObject *self)
{
    if (BA(self)->ob_exports > 0) {
        PyErr_SetString(PyExc_SystemError, "deallocated bytearray object has exported buffers");
        PyErr_Print();
    }
    PyMem_Free(BA(self)->ob_bytes);
    Py_TYPE(self)->tp_free(self);
}

char *
PyByteArray_AsString(PyObject *self)
{
    if (!PyByteArray_Check(self)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    return PyByteArray_AS_STRING(self);
}

Py_ssize_t
PyByteArray_Size(PyObject *self)
{
    if (!PyByteArray_Check(self)) {
        PyErr_BadInternalCall();
        return -1;
    }
    return Py_SIZE(self);
}

/* Append n bytes (which may alias the buffer). */
static int
append_bytes(PyObject *self, const char *s, Py_ssize_t n)
{
    Py_ssize_t size = Py_SIZE(self);
    if (n == 0) {
        return 0;
    }
    if (size > PY_SSIZE_T_MAX - n) {
        PyErr_NoMemory();
        return -1;
    }
    char *tmp = NULL;
    if (s >= PyByteArray_AS_STRING(self) && s < PyByteArray_AS_STRING(self) + size) {
        tmp = PyMem_Malloc((size_t)n);
        if (tmp == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(tmp, s, (size_t)n);
        s = tmp;
    }
    int r = PyByteArray_Resize(self, size + n);
    if (r == 0) {
        memcpy(PyByteArray_AS_STRING(self) + size, s, (size_t)n);
    }
    PyMem_Free(tmp);
    return r;
}

/* ---- Construction ----------------------------------------------------------------------- */

static PyObject *
bytearray_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return new_bytearray(type, NULL, 0);
}

static int
fill_from_iterable(PyObject *self, PyObject *x)
{
    char *buf;
    Py_ssize_t len;
    if (_Py_bytes_from_iterable(x, &buf, &len) < 0) {
        return -1;
    }
    int r = append_bytes(self, buf, len);
    PyMem_Free(buf);
    return r;
}

static int
bytearray_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"source", "encoding", "errors", NULL};
    PyObject *x = NULL;
    const char *encoding = NULL, *errors = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|Oss:bytearray", kwlist, &x, &encoding,
                                     &errors)) {
        return -1;
    }
    if (ensure_buffer(BA(self)) < 0 || PyByteArray_Resize(self, 0) < 0) {
        return -1;
    }
    if (x == NULL) {
        if (encoding != NULL || errors != NULL) {
            PyErr_SetString(PyExc_TypeError, encoding != NULL
                                                 ? "encoding without a string argument"
                                                 : "errors without a string argument");
            return -1;
        }
        return 0;
    }
    if (PyUnicode_Check(x)) {
        if (encoding == NULL) {
            PyErr_SetString(PyExc_TypeError, "string argument without an encoding");
            return -1;
        }
        PyObject *encoded = PyUnicode_AsEncodedString(x, encoding, errors);
        if (encoded == NULL) {
            return -1;
        }
        int r = append_bytes(self, PyBytes_AS_STRING(encoded), PyBytes_GET_SIZE(encoded));
        Py_DECREF(encoded);
        return r;
    }
    if (encoding != NULL || errors != NULL) {
        PyErr_SetString(PyExc_TypeError, encoding != NULL ? "encoding without a string argument"
                                                          : "errors without a string argument");
        return -1;
    }
    if (PyIndex_Check(x)) {
        Py_ssize_t count = PyNumber_AsSsize_t(x, PyExc_OverflowError);
        if (count == -1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
                return -1;
            }
            PyErr_Clear();
        }
        else {
            if (count < 0) {
                PyErr_SetString(PyExc_ValueError, "negative count");
                return -1;
            }
            if (PyByteArray_Resize(self, count) < 0) {
                return -1;
            }
            memset(PyByteArray_AS_STRING(self), 0, (size_t)count);
            return 0;
        }
    }
    PyBufferProcs *bp = Py_TYPE(x)->tp_as_buffer;
    if (bp != NULL && bp->bf_getbuffer != NULL) {
        if (PyMemoryView_Check(x) && !PyBuffer_IsContiguous(PyMemoryView_GET_BUFFER(x), 'C')) {
            PyObject *flat = PyBytes_FromObject(x); /* gathers a strided view */
            if (flat == NULL) {
                return -1;
            }
            int r = append_bytes(self, PyBytes_AS_STRING(flat), PyBytes_GET_SIZE(flat));
            Py_DECREF(flat);
            return r;
        }
        Py_buffer view;
        if (PyObject_GetBuffer(x, &view, PyBUF_SIMPLE) < 0) {
            return -1;
        }
        int r = append_bytes(self, view.buf, view.len);
        PyBuffer_Release(&view);
        return r;
    }
    PyObject *it = PyObject_GetIter(x);
    if (it == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "cannot convert '%.200s' object to bytearray",
                         Py_TYPE(x)->tp_name);
        }
        return -1;
    }
    int r = fill_from_iterable(self, it);
    Py_DECREF(it);
    return r;
}

PyObject *
PyByteArray_FromObject(PyObject *input)
{
    PyObject *self = PyByteArray_FromStringAndSize(NULL, 0);
    if (self == NULL) {
        return NULL;
    }
    PyObject *args = PyTuple_Pack(1, input);
    if (args == NULL || bytearray_init(self, args, NULL) < 0) {
        Py_XDECREF(args);
        Py_DECREF(self);
        return NULL;
    }
    Py_DECREF(args);
    return self;
}

PyObject *
PyByteArray_Concat(PyObject *a, PyObject *b)
{
    Py_buffer va, vb;
    if (PyObject_GetBuffer(a, &va, PyBUF_SIMPLE) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "can't concat %.100s to %.100s", Py_TYPE(b)->tp_name,
                     Py_TYPE(a)->tp_name);
        return NULL;
    }
    if (PyObject_GetBuffer(b, &vb, PyBUF_SIMPLE) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "can't concat %.100s to %.100s", Py_TYPE(b)->tp_name,
                     Py_TYPE(a)->tp_name);
        PyBuffer_Release(&va);
        return NULL;
    }
    PyObject *res = NULL;
    if (va.len > PY_SSIZE_T_MAX - vb.len) {
        PyErr_NoMemory();
    }
    else {
        res = PyByteArray_FromStringAndSize(NULL, va.len + vb.len);
        if (res != NULL) {
            memcpy(PyByteArray_AS_STRING(res), va.buf, (size_t)va.len);
            memcpy(PyByteArray_AS_STRING(res) + va.len, vb.buf, (size_t)vb.len);
        }
    }
    PyBuffer_Release(&va);
    PyBuffer_Release(&vb);
    return res;
}

/* ---- repr and comparison --------------------------------------------------------------------- */

static PyObject *
bytearray_repr(PyObject *self)
{
    const char *name = _PyType_Name(Py_TYPE(self));
    size_t n = strlen(name);
    char *prefix = PyMem_Malloc(n + 2);
    if (prefix == NULL) {
        return PyErr_NoMemory();
    }
    memcpy(prefix, name, n);
    prefix[n] = '(';
    prefix[n + 1] = '\0';
    PyObject *res = _Py_bytes_repr(SELF_DATA, 2, prefix, ")");
    PyMem_Free(prefix);
    return res;
}

static PyObject *
bytearray_str(PyObject *self)
{
    return bytearray_repr(self);
}

static PyObject *
bytearray_richcompare(PyObject *a, PyObject *b, int op)
{
    PyBufferProcs *ba = Py_TYPE(a)->tp_as_buffer, *bb = Py_TYPE(b)->tp_as_buffer;
    if (ba == NULL || ba->bf_getbuffer == NULL || bb == NULL || bb->bf_getbuffer == NULL) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    Py_buffer va, vb;
    if (PyObject_GetBuffer(a, &va, PyBUF_SIMPLE) < 0) {
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (PyObject_GetBuffer(b, &vb, PyBUF_SIMPLE) < 0) {
        PyErr_Clear();
        PyBuffer_Release(&va);
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *res = _Py_bytes_richcompare(va.buf, va.len, vb.buf, vb.len, op);
    PyBuffer_Release(&va);
    PyBuffer_Release(&vb);
    return res;
}

/* ---- Sequence protocol -------------------------------------------------------------------------- */

static Py_ssize_t
bytearray_length(PyObject *self)
{
    return Py_SIZE(self);
}

static PyObject *
bytearray_item(PyObject *self, Py_ssize_t i)
{
    if (i < 0 || i >= Py_SIZE(self)) {
        PyErr_SetString(PyExc_IndexError, "bytearray index out of range");
        return NULL;
    }
    return PyLong_FromLong((unsigned char)PyByteArray_AS_STRING(self)[i]);
}

static PyObject *
bytearray_repeat(PyObject *self, Py_ssize_t n)
{
    Py_ssize_t size = Py_SIZE(self);
    if (n < 0) {
        n = 0;
    }
    if (n > 0 && size > PY_SSIZE_T_MAX / n) {
        return PyErr_NoMemory();
    }
    PyObject *res = PyByteArray_FromStringAndSize(NULL, size * n);
    if (res == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        memcpy(PyByteArray_AS_STRING(res) + i * size, PyByteArray_AS_STRING(self), (size_t)size);
    }
    return res;
}

static PyObject *
bytearray_inplace_repeat(PyObject *self, Py_ssize_t n)
{
    Py_ssize_t size = Py_SIZE(self);
    if (n < 0) {
        n = 0;
    }
    if (n > 0 && size > PY_SSIZE_T_MAX / n) {
        return PyErr_NoMemory();
    }
    if (PyByteArray_Resize(self, size * n) < 0) {
        return NULL;
    }
    char *p = PyByteArray_AS_STRING(self);
    for (Py_ssize_t i = 1; i < n; i++) {
        memcpy(p + i * size, p, (size_t)size);
    }
    return Py_NewRef(self);
}

static PyObject *
bytearray_inplace_concat(PyObject *self, PyObject *other)
{
    Py_buffer view;
    if (PyObject_GetBuffer(other, &view, PyBUF_SIMPLE) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "can't concat %.100s to %.100s", Py_TYPE(other)->tp_name,
                     Py_TYPE(self)->tp_name);
        return NULL;
    }
    int r = append_bytes(self, view.buf, view.len);
    PyBuffer_Release(&view);
    return r < 0 ? NULL : Py_NewRef(self);
}

static int
bytearray_contains(PyObject *self, PyObject *arg)
{
    return _Py_bytes_contains(SELF_DATA, arg);
}

/* Replace self[lo:hi] with the n bytes at s (s must not alias self). */
static int
set_range(PyObject *self, Py_ssize_t lo, Py_ssize_t hi, const char *s, Py_ssize_t n)
{
    Py_ssize_t size = Py_SIZE(self);
    if (lo < 0) {
        lo = 0;
    }
    if (hi < lo) {
        hi = lo;
    }
    if (hi > size) {
        hi = size;
    }
    Py_ssize_t growth = n - (hi - lo);
    if (growth != 0 && BA(self)->ob_exports > 0) {
        PyErr_SetString(PyExc_BufferError, "Existing exports of data: object cannot be re-sized");
        return -1;
    }
    if (growth < 0) {
        char *p = PyByteArray_AS_STRING(self);
        memmove(p + lo + n, p + hi, (size_t)(size - hi));
        if (PyByteArray_Resize(self, size + growth) < 0) {
            return -1;
        }
    }
    else if (growth > 0) {
        if (size > PY_SSIZE_T_MAX - growth) {
            PyErr_NoMemory();
            return -1;
        }
        if (PyByteArray_Resize(self, size + growth) < 0) {
            return -1;
        }
        char *p = PyByteArray_AS_STRING(self);
        memmove(p + lo + n, p + hi, (size_t)(size - hi));
    }
    if (n > 0) {
        memcpy(PyByteArray_AS_STRING(self) + lo, s, (size_t)n);
    }
    return 0;
}

/* The bytes of an assigned value, as a new bytes object. */
static PyObject *
assigned_bytes(PyObject *self, PyObject *values)
{
    if (values == self || PyByteArray_Check(values) || PyBytes_Check(values)) {
        return PyBytes_FromStringAndSize(PyByteArray_Check(values) ? PyByteArray_AS_STRING(values)
                                                                   : PyBytes_AS_STRING(values),
                                         Py_SIZE(values));
    }
    PyBufferProcs *bp = Py_TYPE(values)->tp_as_buffer;
    if (bp != NULL && bp->bf_getbuffer != NULL) {
        return PyBytes_FromObject(values);
    }
    if (PyIndex_Check(values) || PyUnicode_Check(values)) {
        PyErr_SetString(PyExc_TypeError,
                        "can assign only bytes, buffers, or iterables of ints in range(0, 256)");
        return NULL;
    }
    PyObject *it = PyObject_GetIter(values);
    if (it == NULL) {
        return NULL;
    }
    char *buf;
    Py_ssize_t len;
    int r = _Py_bytes_from_iterable(it, &buf, &len);
    Py_DECREF(it);
    if (r < 0) {
        return NULL;
    }
    PyObject *res = PyBytes_FromStringAndSize(buf, len);
    PyMem_Free(buf);
    return res;
}

static int
delete_extended(PyObject *self, Py_ssize_t start, Py_ssize_t step, Py_ssize_t n)
{
    if (n <= 0) {
        return 0;
    }
    if (step < 0) {
        start = start + step * (n - 1);
        step = -step;
    }
    char *p = PyByteArray_AS_STRING(self);
    Py_ssize_t size = Py_SIZE(self), w = start;
    for (Py_ssize_t r = start, k = 0; r < size; r++) {
        if (k < n && r == start + k * step) {
            k++;
            continue;
        }
        p[w++] = p[r];
    }
    return PyByteArray_Resize(self, size - n);
}

static int
bytearray_ass_subscript(PyObject *self, PyObject *index, PyObject *values)
{
    /* Sizes are read only after the index is converted: its __index__
       may resize the bytearray. */
    if (PyIndex_Check(index)) {
        Py_ssize_t i = PyNumber_AsSsize_t(index, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return -1;
        }
        Py_ssize_t size = Py_SIZE(self);
        if (i < 0) {
            i += size;
        }
        if (i < 0 || i >= size) {
            PyErr_SetString(PyExc_IndexError, "bytearray index out of range");
            return -1;
        }
        if (values == NULL) {
            return set_range(self, i, i + 1, NULL, 0);
        }
        int v;
        if (_Py_bytes_byte_value(values, &v) < 0) {
            return -1;
        }
        PyByteArray_AS_STRING(self)[i] = (char)v;
        return 0;
    }
    if (!PySlice_Check(index)) {
        PyErr_Format(PyExc_TypeError, "bytearray indices must be integers or slices, not %.200s",
                     Py_TYPE(index)->tp_name);
        return -1;
    }
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(index, &start, &stop, &step) < 0) {
        return -1;
    }
    Py_ssize_t n = PySlice_AdjustIndices(Py_SIZE(self), &start, &stop, step);
    if (values == NULL) {
        if (step == 1) {
            return set_range(self, start, stop, NULL, 0);
        }
        if (BA(self)->ob_exports > 0 && n > 0) {
            PyErr_SetString(PyExc_BufferError,
                            "Existing exports of data: object cannot be re-sized");
            return -1;
        }
        return delete_extended(self, start, step, n);
    }
    PyObject *b = assigned_bytes(self, values);
    if (b == NULL) {
        return -1;
    }
    int r;
    if (step == 1) {
        r = set_range(self, start, stop, PyBytes_AS_STRING(b), Py_SIZE(b));
    }
    else if (Py_SIZE(b) != n) {
        PyErr_Format(PyExc_ValueError,
                     "attempt to assign bytes of size %zd to extended slice of size %zd",
                     Py_SIZE(b), n);
        r = -1;
    }
    else {
        char *p = PyByteArray_AS_STRING(self);
        for (Py_ssize_t i = 0, cur = start; i < n; i++, cur += step) {
            p[cur] = PyBytes_AS_STRING(b)[i];
        }
        r = 0;
    }
    Py_DECREF(b);
    return r;
}

static int
bytearray_ass_item(PyObject *self, Py_ssize_t i, PyObject *value)
{
    PyObject *index = PyLong_FromSsize_t(i);
    if (index == NULL) {
        return -1;
    }
    int r = bytearray_ass_subscript(self, index, value);
    Py_DECREF(index);
    return r;
}

static PyObject *
bytearray_subscript(PyObject *self, PyObject *index)
{
    if (PyIndex_Check(index)) {
        Py_ssize_t i = PyNumber_AsSsize_t(index, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (i < 0) {
            i += Py_SIZE(self);
        }
        return bytearray_item(self, i);
    }
    if (PySlice_Check(index)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(index, &start, &stop, &step) < 0) {
            return NULL;
        }
        Py_ssize_t n = PySlice_AdjustIndices(Py_SIZE(self), &start, &stop, step);
        if (n <= 0) {
            return PyByteArray_FromStringAndSize(NULL, 0);
        }
        if (step == 1) {
            return PyByteArray_FromStringAndSize(PyByteArray_AS_STRING(self) + start, n);
        }
        PyObject *res = PyByteArray_FromStringAndSize(NULL, n);
        if (res == NULL) {
            return NULL;
        }
        const char *src = PyByteArray_AS_STRING(self);
        char *dst = PyByteArray_AS_STRING(res);
        for (Py_ssize_t i = 0, cur = start; i < n; i++, cur += step) {
            dst[i] = src[cur];
        }
        return res;
    }
    PyErr_Format(PyExc_TypeError, "bytearray indices must be integers or slices, not %.200s",
                 Py_TYPE(index)->tp_name);
    return NULL;
}

static int
bytearray_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    if (view == NULL) {
        PyErr_SetString(PyExc_BufferError, "bytearray_getbuffer: view==NULL argument is obsolete");
        return -1;
    }
    if (ensure_buffer(BA(self)) < 0) {
        return -1;
    }
    if (PyBuffer_FillInfo(view, self, PyByteArray_AS_STRING(self), Py_SIZE(self), 0,
                                flags) < 0) {
        return -1;
    }
    BA(self)->ob_exports++;
    return 0;
}

static void
bytearray_releasebuffer(PyObject *self, Py_buffer *view)
{
    BA(self)->ob_exports--;
}

static PyObject *
bytearray_mod(PyObject *a, PyObject *b)
{
    if (!PyByteArray_Check(a)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return _PyBytes_FormatEx(PyByteArray_AS_STRING(a), Py_SIZE(a), b, 1);
}

static PyNumberMethods bytearray_as_number = {
    .nb_remainder = bytearray_mod,
};

static PySequenceMethods bytearray_as_sequence = {
    .sq_length = bytearray_length,
    .sq_concat = PyByteArray_Concat,
    .sq_repeat = bytearray_repeat,
    .sq_item = bytearray_item,
    .sq_ass_item = bytearray_ass_item,
    .sq_contains = bytearray_contains,
    .sq_inplace_concat = bytearray_inplace_concat,
    .sq_inplace_repeat = bytearray_inplace_repeat,
};

static PyMappingMethods bytearray_as_mapping = {
    .mp_length = bytearray_length,
    .mp_subscript = bytearray_subscript,
    .mp_ass_subscript = bytearray_ass_subscript,
};

static PyBufferProcs bytearray_as_buffer = {
    .bf_getbuffer = bytearray_getbuffer,
    .bf_releasebuffer = bytearray_releasebuffer,
};

/* ---- Mutating methods ----------------------------------------------------------------------------- */

static PyObject *
bytearray_append(PyObject *self, PyObject *item)
{
    int v;
    if (_Py_bytes_byte_value(item, &v) < 0) {
        return NULL;
    }
    char c = (char)v;
    if (append_bytes(self, &c, 1) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
bytearray_extend(PyObject *self, PyObject *iterable)
{
    PyBufferProcs *bp = Py_TYPE(iterable)->tp_as_buffer;
    if (bp != NULL && bp->bf_getbuffer != NULL) {
        Py_buffer view;
        if (PyObject_GetBuffer(iterable, &view, PyBUF_SIMPLE) < 0) {
            return NULL;
        }
        int r = append_bytes(self, view.buf, view.len);
        PyBuffer_Release(&view);
        if (r < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    if (PyUnicode_Check(iterable)) {
        PyErr_SetString(PyExc_TypeError, "expected iterable of integers; got: 'str'");
        return NULL;
    }
    PyObject *it = PyObject_GetIter(iterable);
    if (it == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "can't extend bytearray with %.100s",
                         Py_TYPE(iterable)->tp_name);
        }
        return NULL;
    }
    int r = fill_from_iterable(self, it);
    Py_DECREF(it);
    if (r < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
bytearray_insert(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("insert", nargs, 2, 2)) {
        return NULL;
    }
    Py_ssize_t index = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
    if (index == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int v;
    if (_Py_bytes_byte_value(args[1], &v) < 0) {
        return NULL;
    }
    Py_ssize_t size = Py_SIZE(self);
    if (index < 0) {
        index += size;
        if (index < 0) {
            index = 0;
        }
    }
    if (index > size) {
        index = size;
    }
    char c = (char)v;
    if (set_range(self, index, index, &c, 1) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
bytearray_pop(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("pop", nargs, 0, 1)) {
        return NULL;
    }
    Py_ssize_t size = Py_SIZE(self), index = -1;
    if (nargs > 0) {
        index = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
        if (index == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    if (size == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from empty bytearray");
        return NULL;
    }
    if (index < 0) {
        index += size;
    }
    if (index < 0 || index >= size) {
        PyErr_SetString(PyExc_IndexError, "pop index out of range");
        return NULL;
    }
    unsigned char c = (unsigned char)PyByteArray_AS_STRING(self)[index];
    if (set_range(self, index, index + 1, NULL, 0) < 0) {
        return NULL;
    }
    return PyLong_FromLong(c);
}

static PyObject *
bytearray_remove(PyObject *self, PyObject *arg)
{
    int v;
    if (_Py_bytes_byte_value(arg, &v) < 0) {
        return NULL;
    }
    const char *p = memchr(PyByteArray_AS_STRING(self), v, (size_t)Py_SIZE(self));
    if (p == NULL) {
        PyErr_SetString(PyExc_ValueError, "value not found in bytearray");
        return NULL;
    }
    Py_ssize_t i = p - PyByteArray_AS_STRING(self);
    if (set_range(self, i, i + 1, NULL, 0) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
bytearray_clear(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    if (PyByteArray_Resize(self, 0) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
bytearray_copy(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyByteArray_FromStringAndSize(SELF_DATA);
}

static PyObject *
bytearray_reverse(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    char *p = PyByteArray_AS_STRING(self);
    for (Py_ssize_t i = 0, j = Py_SIZE(self) - 1; i < j; i++, j--) {
        char t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    Py_RETURN_NONE;
}

static PyObject *
bytearray_alloc(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSsize_t(BA(self)->ob_alloc);
}

static PyObject *
bytearray_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSize_t((size_t)Py_TYPE(self)->tp_basicsize + (size_t)BA(self)->ob_alloc);
}

/* Pickling: (type(self), args, self.__dict__ or None).  Protocols below 3
   cannot pickle bytes portably, so they get a latin-1 str to re-encode. */
static PyObject *
reduce_impl(PyObject *self, int proto)
{
    PyObject *dict = NULL;
    if (PyObject_GetOptionalAttrString(self, "__dict__", &dict) < 0) {
        return NULL;
    }
    if (dict == NULL) {
        dict = Py_NewRef(Py_None);
    }
    PyObject *args;
    if (proto < 3) {
        PyObject *latin1 = PyUnicode_DecodeLatin1(SELF_DATA, NULL);
        args = latin1 ? Py_BuildValue("(Ns)", latin1, "latin-1") : NULL;
    }
    else {
        PyObject *b = PyBytes_FromStringAndSize(SELF_DATA);
        args = b ? PyTuple_Pack(1, b) : NULL;
        Py_XDECREF(b);
    }
    if (args == NULL) {
        Py_DECREF(dict);
        return NULL;
    }
    PyObject *res = PyTuple_Pack(3, (PyObject *)Py_TYPE(self), args, dict);
    Py_DECREF(args);
    Py_DECREF(dict);
    return res;
}

static PyObject *
bytearray_reduce(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return reduce_impl(self, 2);
}

static PyObject *
bytearray_reduce_ex(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("__reduce_ex__", nargs, 0, 1)) {
        return NULL;
    }
    int proto = 0;
    if (nargs > 0) {
        proto = PyLong_AsInt(args[0]);
        if (proto == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    return reduce_impl(self, proto);
}

/* ---- Shared methods ------------------------------------------------------------------------------ */

/* Methods that only delegate to bytes_methods.c, and the _tp_iteritem slot,
   are instantiated from one template shared with bytes. */
#define STRINGLIB(name) bytearray_##name
#include "stringlib/bytes_delegates.h"

#define TRANSFORM(NAME)                                                           \
    static PyObject *                                                             \
    bytearray_##NAME(PyObject *self, PyObject *Py_UNUSED(ignored))                \
    {                                                                             \
        PyObject *res = PyByteArray_FromStringAndSize(NULL, Py_SIZE(self));       \
        if (res != NULL) {                                                        \
            _Py_bytes_##NAME(PyByteArray_AS_STRING(res), SELF_DATA);              \
        }                                                                         \
        return res;                                                               \
    }
TRANSFORM(lower)
TRANSFORM(upper)
TRANSFORM(title)
TRANSFORM(capitalize)
TRANSFORM(swapcase)

static PyObject *
bytearray_replace(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (!_PyArg_NoKwnames("bytearray.replace", kwnames)) {
        return NULL;
    }
    return _Py_bytes_replace(MAKE, self, SELF_DATA, args, nargs, kwnames);
}

static PyObject *
bytearray_fromhex(PyObject *type, PyObject *string)
{
    PyObject *res = _Py_bytes_fromhex(MAKE, string);
    if (res != NULL && type != (PyObject *)&PyByteArray_Type) {
        Py_SETREF(res, PyObject_CallOneArg(type, res));
    }
    return res;
}

#define FASTCALL(f) _PyCFunction_CAST(f), METH_FASTCALL
#define FASTCALL_KW(f) _PyCFunction_CAST(f), METH_FASTCALL | METH_KEYWORDS

static PyMethodDef bytearray_methods[] = {
    {"__alloc__", bytearray_alloc, METH_NOARGS, "B.__alloc__() -> int"},
    {"__sizeof__", bytearray_sizeof, METH_NOARGS, "Returns the size of the bytearray object in memory, in bytes."},
    {"__reduce__", bytearray_reduce, METH_NOARGS, "Return state information for pickling."},
    {"__reduce_ex__", FASTCALL(bytearray_reduce_ex), "Return state information for pickling."},
    {"append", bytearray_append, METH_O, "Append a single item to the end of the bytearray."},
    {"capitalize", bytearray_capitalize, METH_NOARGS, "B.capitalize() -> copy of B"},
    {"center", FASTCALL(bytearray_center), "Return a centered string of length width."},
    {"clear", bytearray_clear, METH_NOARGS, "Remove all items from the bytearray."},
    {"copy", bytearray_copy, METH_NOARGS, "Return a copy of B."},
    {"count", FASTCALL(bytearray_count), "Return the number of non-overlapping occurrences of subsection 'sub'."},
    {"decode", FASTCALL_KW(bytearray_decode), "Decode the bytearray using the codec registered for encoding."},
    {"endswith", FASTCALL(bytearray_endswith), "Return True if the bytearray ends with the specified suffix."},
    {"expandtabs", FASTCALL_KW(bytearray_expandtabs), "Return a copy where all tab characters are expanded using spaces."},
    {"extend", bytearray_extend, METH_O, "Append all the items from the iterator or sequence to the end of the bytearray."},
    {"find", FASTCALL(bytearray_find), "Return the lowest index in B where subsection 'sub' is found."},
    {"fromhex", bytearray_fromhex, METH_O | METH_CLASS, "Create a bytearray object from a string of hexadecimal numbers."},
    {"hex", FASTCALL_KW(bytearray_hex), "Create a string of hexadecimal numbers from a bytearray object."},
    {"index", FASTCALL(bytearray_index), "Return the lowest index in B where subsection 'sub' is found."},
    {"insert", FASTCALL(bytearray_insert), "Insert a single item into the bytearray before the given index."},
    {"isalnum", bytearray_isalnum, METH_NOARGS, "B.isalnum() -> bool"},
    {"isalpha", bytearray_isalpha, METH_NOARGS, "B.isalpha() -> bool"},
    {"isascii", bytearray_isascii, METH_NOARGS, "B.isascii() -> bool"},
    {"isdigit", bytearray_isdigit, METH_NOARGS, "B.isdigit() -> bool"},
    {"islower", bytearray_islower, METH_NOARGS, "B.islower() -> bool"},
    {"isspace", bytearray_isspace, METH_NOARGS, "B.isspace() -> bool"},
    {"istitle", bytearray_istitle, METH_NOARGS, "B.istitle() -> bool"},
    {"isupper", bytearray_isupper, METH_NOARGS, "B.isupper() -> bool"},
    {"join", bytearray_join, METH_O, "Concatenate any number of bytes/bytearray objects."},
    {"ljust", FASTCALL(bytearray_ljust), "Return a left-justified string of length width."},
    {"lower", bytearray_lower, METH_NOARGS, "B.lower() -> copy of B"},
    {"lstrip", FASTCALL(bytearray_lstrip), "Strip leading bytes contained in the argument."},
    {"maketrans", FASTCALL(bytearray_maketrans) | METH_STATIC, "Return a translation table usable for the bytes or bytearray translate method."},
    {"partition", bytearray_partition, METH_O, "Partition the bytearray into three parts using the given separator."},
    {"pop", FASTCALL(bytearray_pop), "Remove and return a single item from B."},
    {"remove", bytearray_remove, METH_O, "Remove the first occurrence of a value in the bytearray."},
    {"removeprefix", bytearray_removeprefix, METH_O, "Return a bytearray with the given prefix string removed if present."},
    {"removesuffix", bytearray_removesuffix, METH_O, "Return a bytearray with the given suffix string removed if present."},
    {"replace", FASTCALL_KW(bytearray_replace), "Return a copy with all occurrences of substring old replaced by new."},
    {"reverse", bytearray_reverse, METH_NOARGS, "Reverse the order of the values in B in place."},
    {"rfind", FASTCALL(bytearray_rfind), "Return the highest index in B where subsection 'sub' is found."},
    {"rindex", FASTCALL(bytearray_rindex), "Return the highest index in B where subsection 'sub' is found."},
    {"rjust", FASTCALL(bytearray_rjust), "Return a right-justified string of length width."},
    {"rpartition", bytearray_rpartition, METH_O, "Partition the bytearray into three parts using the given separator."},
    {"rsplit", FASTCALL_KW(bytearray_rsplit), "Return a list of the sections in the bytearray, using sep as the delimiter."},
    {"rstrip", FASTCALL(bytearray_rstrip), "Strip trailing bytes contained in the argument."},
    {"split", FASTCALL_KW(bytearray_split), "Return a list of the sections in the bytearray, using sep as the delimiter."},
    {"splitlines", FASTCALL_KW(bytearray_splitlines), "Return a list of the lines in the bytearray, breaking at line boundaries."},
    {"startswith", FASTCALL(bytearray_startswith), "Return True if the bytearray starts with the specified prefix."},
    {"strip", FASTCALL(bytearray_strip), "Strip leading and trailing bytes contained in the argument."},
    {"swapcase", bytearray_swapcase, METH_NOARGS, "B.swapcase() -> copy of B"},
    {"title", bytearray_title, METH_NOARGS, "B.title() -> copy of B"},
    {"translate", FASTCALL_KW(bytearray_translate), "Return a copy with each character mapped by the given translation table."},
    {"upper", bytearray_upper, METH_NOARGS, "B.upper() -> copy of B"},
    {"zfill", bytearray_zfill, METH_O, "Pad a numeric string with zeros on the left, to fill a field of the given width."},
    {NULL, NULL, 0, NULL},
};

/* ---- Iterator ------------------------------------------------------------------------------------ */

/* Shared with bytes: only the names differ. */
#define STRINGLIB(name) bytearray_##name
#define STRINGLIB_ITER_TYPE PyByteArrayIter_Type
#define STRINGLIB_ITER_NAME "bytearray_iterator"
#include "stringlib/bytes_iterator.h"

/* ---- The type ----------------------------------------------------------------------------------- */

static const char bytearray_doc[] =
    "bytearray(iterable_of_ints) -> bytearray\n"
    "bytearray(string, encoding[, errors]) -> bytearray\n"
    "bytearray(bytes_or_buffer) -> mutable copy of bytes_or_buffer\n"
    "bytearray(int) -> bytes array of size given by the parameter initialized with null bytes\n"
    "bytearray() -> empty bytes array\n"
    "\n"
    "Construct a mutable bytearray object from:\n"
    "  - an iterable yielding integers in range(256)\n"
    "  - a text string encoded using the specified encoding\n"
    "  - a bytes or a buffer object\n"
    "  - any object implementing the buffer API.\n"
    "  - an integer";

PyTypeObject PyByteArray_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "bytearray",
    .tp_basicsize = sizeof(PyByteArrayObject),
    .tp_dealloc = bytearray_dealloc,
    .tp_repr = bytearray_repr,
    .tp_as_number = &bytearray_as_number,
    .tp_as_sequence = &bytearray_as_sequence,
    .tp_as_mapping = &bytearray_as_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_str = bytearray_str,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_as_buffer = &bytearray_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = bytearray_doc,
    .tp_richcompare = bytearray_richcompare,
    .tp_iter = bytearray_iter,
    .tp_methods = bytearray_methods,
    .tp_base = &PyBaseObject_Type,
    .tp_init = bytearray_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = bytearray_new,
    .tp_free = PyObject_Free,
    ._tp_iteritem = bytearray_iteritem,
};
