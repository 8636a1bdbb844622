/* The str object's layout and inline accessors.

   Every str is "compact": one allocation holding the header and then the
   code points, 1, 2 or 4 bytes each (kind), the narrowest kind that fits
   the largest code point, plus a terminating zero code unit.  ASCII strings
   also serve as their own UTF-8; others cache UTF-8 in `utf8` on demand. */
#ifndef Py_CPYTHON_UNICODEOBJECT_H
#define Py_CPYTHON_UNICODEOBJECT_H

enum PyUnicode_Kind {
    PyUnicode_1BYTE_KIND = 1,
    PyUnicode_2BYTE_KIND = 2,
    PyUnicode_4BYTE_KIND = 4,
};

#define SSTATE_NOT_INTERNED 0
#define SSTATE_INTERNED_MORTAL 1
#define SSTATE_INTERNED_IMMORTAL 2
#define SSTATE_INTERNED_IMMORTAL_STATIC 3

typedef struct {
    PyObject_HEAD
    Py_ssize_t length; /* number of code points */
    Py_hash_t hash;    /* -1 until computed */
    struct {
        unsigned int interned : 2;
        unsigned int kind : 3;
        unsigned int ascii : 1;
        unsigned int statically_allocated : 1;
        /* An instance of a str subclass with __slots__: its code points
           follow the slots, at the end of the type's tp_basicsize. */
        unsigned int data_after_slots : 1;
    } state;
    char *utf8;             /* NULL until asked for; == data for ASCII */
    Py_ssize_t utf8_length; /* in bytes, not counting the zero */
    /* the code points follow the header, aligned to 4 bytes */
} PyUnicodeObject;

#define _PyUnicode_CAST(op) ((PyUnicodeObject *)(op))
#define PyUnicode_DATA_OFFSET _Py_SIZE_ROUND_UP(sizeof(PyUnicodeObject), 4)

static inline Py_ssize_t
PyUnicode_GET_LENGTH(PyObject *op)
{
    return _PyUnicode_CAST(op)->length;
}
#define PyUnicode_GET_LENGTH(op) PyUnicode_GET_LENGTH(_PyObject_CAST(op))

static inline unsigned int
PyUnicode_KIND(PyObject *op)
{
    return _PyUnicode_CAST(op)->state.kind;
}
#define PyUnicode_KIND(op) PyUnicode_KIND(_PyObject_CAST(op))

static inline int
PyUnicode_IS_ASCII(PyObject *op)
{
    return _PyUnicode_CAST(op)->state.ascii;
}
#define PyUnicode_IS_ASCII(op) PyUnicode_IS_ASCII(_PyObject_CAST(op))
#define PyUnicode_IS_COMPACT_ASCII(op) PyUnicode_IS_ASCII(op)
#define PyUnicode_CHECK_INTERNED(op) (_PyUnicode_CAST(op)->state.interned)

static inline void *
PyUnicode_DATA(PyObject *op)
{
    if (_PyUnicode_CAST(op)->state.data_after_slots) {
        return (char *)op + _Py_SIZE_ROUND_UP(Py_TYPE(op)->tp_basicsize, 4);
    }
    return (char *)op + PyUnicode_DATA_OFFSET;
}
#define PyUnicode_DATA(op) PyUnicode_DATA(_PyObject_CAST(op))
#define PyUnicode_1BYTE_DATA(op) ((Py_UCS1 *)PyUnicode_DATA(op))
#define PyUnicode_2BYTE_DATA(op) ((Py_UCS2 *)PyUnicode_DATA(op))
#define PyUnicode_4BYTE_DATA(op) ((Py_UCS4 *)PyUnicode_DATA(op))

static inline void
PyUnicode_WRITE(int kind, void *data, Py_ssize_t index, Py_UCS4 value)
{
    if (kind == PyUnicode_1BYTE_KIND) {
        ((Py_UCS1 *)data)[index] = (Py_UCS1)value;
    }
    else if (kind == PyUnicode_2BYTE_KIND) {
        ((Py_UCS2 *)data)[index] = (Py_UCS2)value;
    }
    else {
        ((Py_UCS4 *)data)[index] = value;
    }
}
#define PyUnicode_WRITE(kind, data, index, value) \
    PyUnicode_WRITE((int)(kind), (void *)(data), (index), (Py_UCS4)(value))

static inline Py_UCS4
PyUnicode_READ(int kind, const void *data, Py_ssize_t index)
{
    if (kind == PyUnicode_1BYTE_KIND) {
        return ((const Py_UCS1 *)data)[index];
    }
    if (kind == PyUnicode_2BYTE_KIND) {
        return ((const Py_UCS2 *)data)[index];
    }
    return ((const Py_UCS4 *)data)[index];
}
#define PyUnicode_READ(kind, data, index) \
    PyUnicode_READ((int)(kind), (const void *)(data), (index))

static inline Py_UCS4
PyUnicode_READ_CHAR(PyObject *unicode, Py_ssize_t index)
{
    return PyUnicode_READ(PyUnicode_KIND(unicode), PyUnicode_DATA(unicode), index);
}
#define PyUnicode_READ_CHAR(unicode, index) PyUnicode_READ_CHAR(_PyObject_CAST(unicode), (index))

static inline Py_UCS4
PyUnicode_MAX_CHAR_VALUE(PyObject *op)
{
    if (PyUnicode_IS_ASCII(op)) {
        return 0x7f;
    }
    switch (PyUnicode_KIND(op)) {
    case PyUnicode_1BYTE_KIND: return 0xff;
    case PyUnicode_2BYTE_KIND: return 0xffff;
    default: return 0x10ffff;
    }
}
#define PyUnicode_MAX_CHAR_VALUE(op) PyUnicode_MAX_CHAR_VALUE(_PyObject_CAST(op))

/* Builds a str piece by piece with amortised growth (used by repr, format,
   join and friends). */
typedef struct {
    PyObject *buffer;
    void *data;
    int kind;
    Py_UCS4 maxchar;
    Py_ssize_t size;
    Py_ssize_t pos;
    Py_ssize_t min_length;
    Py_UCS4 min_char;
    unsigned char overallocate;
    unsigned char readonly;
} _PyUnicodeWriter;

PyAPI_FUNC(void) _PyUnicodeWriter_Init(_PyUnicodeWriter *writer);
PyAPI_FUNC(int) _PyUnicodeWriter_WriteChar(_PyUnicodeWriter *writer, Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicodeWriter_WriteStr(_PyUnicodeWriter *writer, PyObject *str);
PyAPI_FUNC(int) _PyUnicodeWriter_WriteSubstring(_PyUnicodeWriter *writer, PyObject *str,
                                                Py_ssize_t start, Py_ssize_t end);
PyAPI_FUNC(int) _PyUnicodeWriter_WriteASCIIString(_PyUnicodeWriter *writer, const char *str, Py_ssize_t len);
PyAPI_FUNC(int) _PyUnicodeWriter_WriteLatin1String(_PyUnicodeWriter *writer, const char *str, Py_ssize_t len);
PyAPI_FUNC(PyObject *) _PyUnicodeWriter_Finish(_PyUnicodeWriter *writer);
PyAPI_FUNC(void) _PyUnicodeWriter_Dealloc(_PyUnicodeWriter *writer);
/* Make room for `length` more characters up to `maxchar` (after which the
   caller may PyUnicode_WRITE into writer->data at writer->pos), or widen
   the buffer to `kind`. */
PyAPI_FUNC(int) _PyUnicodeWriter_Prepare(_PyUnicodeWriter *writer, Py_ssize_t length,
                                         Py_UCS4 maxchar);
PyAPI_FUNC(int) _PyUnicodeWriter_PrepareKind(_PyUnicodeWriter *writer, int kind);

/* The public writer API of 3.14 (an opaque, heap-allocated writer). */
typedef struct PyUnicodeWriter PyUnicodeWriter;
PyAPI_FUNC(PyUnicodeWriter *) PyUnicodeWriter_Create(Py_ssize_t length);
PyAPI_FUNC(PyObject *) PyUnicodeWriter_Finish(PyUnicodeWriter *writer);
PyAPI_FUNC(void) PyUnicodeWriter_Discard(PyUnicodeWriter *writer);
PyAPI_FUNC(int) PyUnicodeWriter_WriteChar(PyUnicodeWriter *writer, Py_UCS4 ch);
PyAPI_FUNC(int) PyUnicodeWriter_WriteUTF8(PyUnicodeWriter *writer, const char *str,
                                          Py_ssize_t size);
PyAPI_FUNC(int) PyUnicodeWriter_WriteASCII(PyUnicodeWriter *writer, const char *str,
                                           Py_ssize_t size);
PyAPI_FUNC(int) PyUnicodeWriter_WriteUCS4(PyUnicodeWriter *writer, const Py_UCS4 *str,
                                          Py_ssize_t size);
PyAPI_FUNC(int) PyUnicodeWriter_WriteStr(PyUnicodeWriter *writer, PyObject *obj);
PyAPI_FUNC(int) PyUnicodeWriter_WriteRepr(PyUnicodeWriter *writer, PyObject *obj);
PyAPI_FUNC(int) PyUnicodeWriter_WriteSubstring(PyUnicodeWriter *writer, PyObject *str,
                                               Py_ssize_t start, Py_ssize_t end);
PyAPI_FUNC(int) PyUnicodeWriter_Format(PyUnicodeWriter *writer, const char *format, ...);

PyAPI_FUNC(int) _PyUnicode_Equal(PyObject *a, PyObject *b);
PyAPI_FUNC(int) _PyUnicode_EqualToASCIIString(PyObject *left, const char *right);
PyAPI_FUNC(PyObject *) _PyUnicode_Copy(PyObject *unicode);
PyAPI_FUNC(int) _PyUnicode_IsWhitespace(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsLinebreak(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsAlpha(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsDecimalDigit(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsDigit(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsNumeric(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsPrintable(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsLowercase(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsUppercase(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsXidStart(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_IsXidContinue(Py_UCS4 ch);
PyAPI_FUNC(int) _PyUnicode_ToDecimalDigit(Py_UCS4 ch);
PyAPI_FUNC(Py_UCS4) _PyUnicode_ToLowercase(Py_UCS4 ch);
PyAPI_FUNC(Py_UCS4) _PyUnicode_ToUppercase(Py_UCS4 ch);
#define Py_UNICODE_ISSPACE(ch) _PyUnicode_IsWhitespace(ch)
#define Py_UNICODE_ISALPHA(ch) _PyUnicode_IsAlpha(ch)
#define Py_UNICODE_ISDIGIT(ch) _PyUnicode_IsDigit(ch)
#define Py_UNICODE_ISDECIMAL(ch) _PyUnicode_IsDecimalDigit(ch)
#define Py_UNICODE_ISPRINTABLE(ch) _PyUnicode_IsPrintable(ch)
#define Py_UNICODE_TOLOWER(ch) _PyUnicode_ToLowercase(ch)
#define Py_UNICODE_TOUPPER(ch) _PyUnicode_ToUppercase(ch)
#define Py_UNICODE_TODECIMAL(ch) _PyUnicode_ToDecimalDigit(ch)
#define Py_UNICODE_ISLINEBREAK(ch) _PyUnicode_IsLinebreak(ch)
#define Py_UNICODE_IS_SURROGATE(ch) (0xD800 <= (ch) && (ch) <= 0xDFFF)

#endif /* !Py_CPYTHON_UNICODEOBJECT_H */
