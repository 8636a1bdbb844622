/* _PyUnicodeWriter: builds a str piece by piece.

   The buffer is a private str object whose length field holds the
   capacity; it starts as narrow as the first write allows and is widened
   (re-encoded) when a wider character arrives, so most text never leaves
   the 1-byte kind.  Finish trims it and makes it canonical.  A writer
   whose only content is one whole str keeps a reference to that str
   (readonly) instead of copying it.

   Also the public PyUnicodeWriter API (3.14), a heap-allocated wrapper. */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_unicodeobject.h"

static Py_UCS4
kind_maxchar(Py_UCS4 maxchar)
{
    if (maxchar < 128) {
        return 127;
    }
    if (maxchar < 256) {
        return 255;
    }
    if (maxchar < 0x10000) {
        return 0xffff;
    }
    return 0x10ffff;
}

static void
update_view(_PyUnicodeWriter *writer)
{
    writer->data = PyUnicode_DATA(writer->buffer);
    writer->kind = PyUnicode_KIND(writer->buffer);
    writer->maxchar = PyUnicode_MAX_CHAR_VALUE(writer->buffer);
    writer->size = PyUnicode_GET_LENGTH(writer->buffer);
}

void
_PyUnicodeWriter_Init(_PyUnicodeWriter *writer)
{
    memset(writer, 0, sizeof(*writer));
    writer->min_char = 127;
}

/* A fresh private buffer of the given capacity (>= 1) and maxchar class. */
static PyObject *
new_buffer(Py_ssize_t capacity, Py_UCS4 maxchar)
{
    if (capacity < 1) {
        capacity = 1;
    }
    return PyUnicode_New(capacity, kind_maxchar(maxchar));
}

/* Make room for `length` more characters up to `maxchar`. */
int
_PyUnicodeWriter_Prepare(_PyUnicodeWriter *writer, Py_ssize_t length, Py_UCS4 maxchar)
{
    if (length > PY_SSIZE_T_MAX - writer->pos) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t need = writer->pos + length;
    if (writer->buffer != NULL && !writer->readonly && need <= writer->size &&
        maxchar <= writer->maxchar) {
        return 0;
    }
    Py_UCS4 newmax = kind_maxchar(maxchar > writer->min_char ? maxchar : writer->min_char);
    if (writer->buffer != NULL && writer->maxchar > newmax) {
        newmax = writer->maxchar;
    }
    Py_ssize_t newsize = need;
    if (writer->buffer != NULL && !writer->readonly && need <= writer->size) {
        newsize = writer->size;
    }
    else if (writer->overallocate && newsize <= PY_SSIZE_T_MAX - newsize / 4) {
        newsize += newsize / 4;
    }
    if (newsize < writer->min_length) {
        newsize = writer->min_length;
    }

    if (writer->buffer == NULL) {
        writer->buffer = new_buffer(newsize, newmax);
        if (writer->buffer == NULL) {
            return -1;
        }
        update_view(writer);
        return 0;
    }
    if (writer->readonly || newmax != writer->maxchar) {
        /* Re-encode into a new buffer (copying the shared str too). */
        PyObject *buf = new_buffer(newsize, newmax);
        if (buf == NULL) {
            return -1;
        }
        _PyUnicode_FastCopyCharacters(buf, 0, writer->buffer, 0, writer->pos);
        Py_SETREF(writer->buffer, buf);
        writer->readonly = 0;
        update_view(writer);
        return 0;
    }
    int kind = writer->kind;
    if (newsize > (PY_SSIZE_T_MAX - (Py_ssize_t)PyUnicode_DATA_OFFSET) / kind - 1) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject *buf = PyObject_Realloc(writer->buffer,
                                     PyUnicode_DATA_OFFSET + (size_t)(newsize + 1) * kind);
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    PyUnicodeObject *u = _PyUnicode_CAST(buf);
    u->length = newsize;
    if (u->state.ascii) {
        u->utf8 = (char *)PyUnicode_DATA(buf);
        u->utf8_length = newsize;
    }
    PyUnicode_WRITE(kind, PyUnicode_DATA(buf), newsize, 0);
    writer->buffer = buf;
    update_view(writer);
    return 0;
}

int
_PyUnicodeWriter_PrepareKind(_PyUnicodeWriter *writer, int kind)
{
    Py_UCS4 maxchar = kind == PyUnicode_1BYTE_KIND   ? 255
                      : kind == PyUnicode_2BYTE_KIND ? 0xffff
                                                     : 0x10ffff;
    return _PyUnicodeWriter_Prepare(writer, 0, maxchar);
}

int
_PyUnicodeWriter_WriteChar(_PyUnicodeWriter *writer, Py_UCS4 ch)
{
    if (ch > 0x10ffff) {
        PyErr_SetString(PyExc_ValueError, "character must be in range(0x110000)");
        return -1;
    }
    if (_PyUnicodeWriter_Prepare(writer, 1, ch) < 0) {
        return -1;
    }
    PyUnicode_WRITE(writer->kind, writer->data, writer->pos, ch);
    writer->pos++;
    return 0;
}

int
_PyUnicodeWriter_WriteSubstring(_PyUnicodeWriter *writer, PyObject *str, Py_ssize_t start,
                                Py_ssize_t end)
{
    if (end <= start) {
        return 0;
    }
    Py_UCS4 maxchar = (start == 0 && end == PyUnicode_GET_LENGTH(str))
                          ? PyUnicode_MAX_CHAR_VALUE(str)
                          : _PyUnicode_FindMaxChar(str, start, end);
    if (_PyUnicodeWriter_Prepare(writer, end - start, maxchar) < 0) {
        return -1;
    }
    _PyUnicode_FastCopyCharacters(writer->buffer, writer->pos, str, start, end - start);
    writer->pos += end - start;
    return 0;
}

int
_PyUnicodeWriter_WriteStr(_PyUnicodeWriter *writer, PyObject *str)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    if (len == 0) {
        return 0;
    }
    if (writer->buffer == NULL && !writer->overallocate && PyUnicode_CheckExact(str) &&
        len >= writer->min_length) {
        writer->buffer = Py_NewRef(str);
        writer->readonly = 1;
        update_view(writer);
        writer->size = 0; /* forces a copy before any further write */
        writer->pos = len;
        return 0;
    }
    return _PyUnicodeWriter_WriteSubstring(writer, str, 0, len);
}

int
_PyUnicodeWriter_WriteASCIIString(_PyUnicodeWriter *writer, const char *str, Py_ssize_t len)
{
    if (len < 0) {
        len = (Py_ssize_t)strlen(str);
    }
    if (len == 0) {
        return 0;
    }
    if (_PyUnicodeWriter_Prepare(writer, len, 127) < 0) {
        return -1;
    }
    if (writer->kind == PyUnicode_1BYTE_KIND) {
        memcpy((char *)writer->data + writer->pos, str, (size_t)len);
    }
    else {
        for (Py_ssize_t i = 0; i < len; i++) {
            PyUnicode_WRITE(writer->kind, writer->data, writer->pos + i, (Py_UCS1)str[i]);
        }
    }
    writer->pos += len;
    return 0;
}

int
_PyUnicodeWriter_WriteLatin1String(_PyUnicodeWriter *writer, const char *str, Py_ssize_t len)
{
    Py_UCS4 maxchar = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS1 c = (Py_UCS1)str[i];
        maxchar = c > maxchar ? c : maxchar;
    }
    if (len == 0) {
        return 0;
    }
    if (_PyUnicodeWriter_Prepare(writer, len, maxchar) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyUnicode_WRITE(writer->kind, writer->data, writer->pos + i, (Py_UCS1)str[i]);
    }
    writer->pos += len;
    return 0;
}

PyObject *
_PyUnicodeWriter_Finish(_PyUnicodeWriter *writer)
{
    PyObject *buf = writer->buffer;
    writer->buffer = NULL;
    if (buf == NULL || writer->pos == 0) {
        Py_XDECREF(buf);
        return _PyUnicode_GetEmpty();
    }
    if (writer->readonly) {
        return buf;
    }
    Py_ssize_t len = writer->pos;
    int kind = PyUnicode_KIND(buf);
    if (len != PyUnicode_GET_LENGTH(buf)) {
        PyObject *shrunk = PyObject_Realloc(buf, PyUnicode_DATA_OFFSET + (size_t)(len + 1) * kind);
        if (shrunk != NULL) {
            buf = shrunk;
        }
        PyUnicodeObject *u = _PyUnicode_CAST(buf);
        u->length = len;
        if (u->state.ascii) {
            u->utf8 = (char *)PyUnicode_DATA(buf);
            u->utf8_length = len;
        }
        PyUnicode_WRITE(kind, PyUnicode_DATA(buf), len, 0);
    }
    return _PyUnicode_Canonical(buf);
}

void
_PyUnicodeWriter_Dealloc(_PyUnicodeWriter *writer)
{
    Py_CLEAR(writer->buffer);
}

/* ---- PyUnicodeWriter: the public, opaque form ------------------------- */

PyUnicodeWriter *
PyUnicodeWriter_Create(Py_ssize_t length)
{
    if (length < 0) {
        PyErr_SetString(PyExc_ValueError, "length must be positive");
        return NULL;
    }
    _PyUnicodeWriter *w = PyMem_Malloc(sizeof(*w));
    if (w == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    _PyUnicodeWriter_Init(w);
    w->overallocate = 1;
    if (length > 0 && _PyUnicodeWriter_Prepare(w, length, 127) < 0) {
        PyMem_Free(w);
        return NULL;
    }
    return (PyUnicodeWriter *)w;
}

void
PyUnicodeWriter_Discard(PyUnicodeWriter *writer)
{
    if (writer == NULL) {
        return;
    }
    _PyUnicodeWriter_Dealloc((_PyUnicodeWriter *)writer);
    PyMem_Free(writer);
}

PyObject *
PyUnicodeWriter_Finish(PyUnicodeWriter *writer)
{
    PyObject *res = _PyUnicodeWriter_Finish((_PyUnicodeWriter *)writer);
    PyMem_Free(writer);
    return res;
}

int
PyUnicodeWriter_WriteChar(PyUnicodeWriter *writer, Py_UCS4 ch)
{
    return _PyUnicodeWriter_WriteChar((_PyUnicodeWriter *)writer, ch);
}

int
PyUnicodeWriter_WriteUTF8(PyUnicodeWriter *writer, const char *str, Py_ssize_t size)
{
    if (size < 0) {
        size = (Py_ssize_t)strlen(str);
    }
    PyObject *s = PyUnicode_DecodeUTF8(str, size, NULL);
    if (s == NULL) {
        return -1;
    }
    int res = _PyUnicodeWriter_WriteStr((_PyUnicodeWriter *)writer, s);
    Py_DECREF(s);
    return res;
}

int
PyUnicodeWriter_WriteASCII(PyUnicodeWriter *writer, const char *str, Py_ssize_t size)
{
    return _PyUnicodeWriter_WriteASCIIString((_PyUnicodeWriter *)writer, str, size);
}

int
PyUnicodeWriter_WriteUCS4(PyUnicodeWriter *writer, const Py_UCS4 *str, Py_ssize_t size)
{
    PyObject *s = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, str, size);
    if (s == NULL) {
        return -1;
    }
    int res = _PyUnicodeWriter_WriteStr((_PyUnicodeWriter *)writer, s);
    Py_DECREF(s);
    return res;
}

static int
write_object(PyUnicodeWriter *writer, PyObject *s)
{
    if (s == NULL) {
        return -1;
    }
    int res = _PyUnicodeWriter_WriteStr((_PyUnicodeWriter *)writer, s);
    Py_DECREF(s);
    return res;
}

int
PyUnicodeWriter_WriteStr(PyUnicodeWriter *writer, PyObject *obj)
{
    if (PyUnicode_CheckExact(obj)) {
        return _PyUnicodeWriter_WriteStr((_PyUnicodeWriter *)writer, obj);
    }
    return write_object(writer, PyObject_Str(obj));
}

int
PyUnicodeWriter_WriteRepr(PyUnicodeWriter *writer, PyObject *obj)
{
    return write_object(writer, PyObject_Repr(obj));
}

int
PyUnicodeWriter_WriteSubstring(PyUnicodeWriter *writer, PyObject *str, Py_ssize_t start,
                               Py_ssize_t end)
{
    if (start < 0 || start > end || end > PyUnicode_GET_LENGTH(str)) {
        PyErr_SetString(PyExc_ValueError, "invalid start argument");
        return -1;
    }
    return _PyUnicodeWriter_WriteSubstring((_PyUnicodeWriter *)writer, str, start, end);
}

int
PyUnicodeWriter_Format(PyUnicodeWriter *writer, const char *format, ...)
{
    va_list vargs;
    va_start(vargs, format);
    PyObject *s = PyUnicode_FromFormatV(format, vargs);
    va_end(vargs);
    return write_object(writer, s);
}
