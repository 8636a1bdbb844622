/* str: immutable Unicode text, stored compactly (1, 2 or 4 bytes per code
   point, the narrowest that fits) with a cached UTF-8 form.  The layout is
   in Include/cpython/unicodeobject.h. */
#ifndef Py_UNICODEOBJECT_H
#define Py_UNICODEOBJECT_H

#include <stdarg.h>

typedef uint32_t Py_UCS4;
typedef uint16_t Py_UCS2;
typedef uint8_t Py_UCS1;

PyAPI_DATA(PyTypeObject) PyUnicode_Type;
PyAPI_DATA(PyTypeObject) PyUnicodeIter_Type;

#define PyUnicode_Check(op) PyType_FastSubclass(Py_TYPE(op), Py_TPFLAGS_UNICODE_SUBCLASS)
#define PyUnicode_CheckExact(op) Py_IS_TYPE((op), &PyUnicode_Type)

PyAPI_FUNC(PyObject *) PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar);
PyAPI_FUNC(PyObject *) PyUnicode_FromStringAndSize(const char *u, Py_ssize_t size);
PyAPI_FUNC(PyObject *) PyUnicode_FromString(const char *u);
PyAPI_FUNC(PyObject *) PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size);
PyAPI_FUNC(PyObject *) PyUnicode_FromOrdinal(int ordinal);
PyAPI_FUNC(PyObject *) PyUnicode_FromFormat(const char *format, ...);
PyAPI_FUNC(PyObject *) PyUnicode_FromFormatV(const char *format, va_list vargs);
PyAPI_FUNC(PyObject *) PyUnicode_FromObject(PyObject *obj);
PyAPI_FUNC(PyObject *) PyUnicode_FromEncodedObject(PyObject *obj, const char *encoding, const char *errors);
PyAPI_FUNC(PyObject *) PyUnicode_Substring(PyObject *str, Py_ssize_t start, Py_ssize_t end);
PyAPI_FUNC(Py_ssize_t) PyUnicode_GetLength(PyObject *unicode);
PyAPI_FUNC(Py_UCS4) PyUnicode_ReadChar(PyObject *unicode, Py_ssize_t index);
PyAPI_FUNC(int) PyUnicode_WriteChar(PyObject *unicode, Py_ssize_t index, Py_UCS4 character);
PyAPI_FUNC(const char *) PyUnicode_AsUTF8(PyObject *unicode);
PyAPI_FUNC(const char *) PyUnicode_AsUTF8AndSize(PyObject *unicode, Py_ssize_t *size);
PyAPI_FUNC(PyObject *) PyUnicode_AsUTF8String(PyObject *unicode);
PyAPI_FUNC(PyObject *) PyUnicode_AsEncodedString(PyObject *unicode, const char *encoding, const char *errors);
PyAPI_FUNC(PyObject *) PyUnicode_AsASCIIString(PyObject *unicode);
PyAPI_FUNC(PyObject *) PyUnicode_AsLatin1String(PyObject *unicode);
PyAPI_FUNC(PyObject *) PyUnicode_Decode(const char *s, Py_ssize_t size, const char *encoding, const char *errors);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeUTF8(const char *s, Py_ssize_t size, const char *errors);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeUTF8Stateful(const char *s, Py_ssize_t size, const char *errors, Py_ssize_t *consumed);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeLatin1(const char *s, Py_ssize_t size, const char *errors);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeASCII(const char *s, Py_ssize_t size, const char *errors);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeUTF16(const char *s, Py_ssize_t size, const char *errors, int *byteorder);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeUTF32(const char *s, Py_ssize_t size, const char *errors, int *byteorder);
PyAPI_FUNC(PyObject *) PyUnicode_AsUTF16String(PyObject *unicode);
PyAPI_FUNC(PyObject *) PyUnicode_AsUTF32String(PyObject *unicode);
PyAPI_FUNC(PyObject *) PyUnicode_AsDecodedObject(PyObject *unicode, const char *encoding, const char *errors);
PyAPI_FUNC(PyObject *) PyUnicode_FromWideChar(const wchar_t *w, Py_ssize_t size);
PyAPI_FUNC(Py_ssize_t) PyUnicode_AsWideChar(PyObject *unicode, wchar_t *w, Py_ssize_t size);
PyAPI_FUNC(wchar_t *) PyUnicode_AsWideCharString(PyObject *unicode, Py_ssize_t *size);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeLocale(const char *str, const char *errors);
PyAPI_FUNC(PyObject *) PyUnicode_EncodeLocale(PyObject *unicode, const char *errors);
PyAPI_FUNC(int) PyUnicode_FSConverter(PyObject *obj, void *result);
PyAPI_FUNC(int) PyUnicode_FSDecoder(PyObject *obj, void *result);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeFSDefault(const char *s);
PyAPI_FUNC(PyObject *) PyUnicode_DecodeFSDefaultAndSize(const char *s, Py_ssize_t size);
PyAPI_FUNC(PyObject *) PyUnicode_EncodeFSDefault(PyObject *unicode);
PyAPI_FUNC(PyObject *) PyUnicode_Concat(PyObject *left, PyObject *right);
PyAPI_FUNC(void) PyUnicode_Append(PyObject **pleft, PyObject *right);
PyAPI_FUNC(void) PyUnicode_AppendAndDel(PyObject **pleft, PyObject *right);
PyAPI_FUNC(PyObject *) PyUnicode_Translate(PyObject *str, PyObject *table, const char *errors);
PyAPI_FUNC(PyObject *) PyUnicode_Split(PyObject *s, PyObject *sep, Py_ssize_t maxsplit);
PyAPI_FUNC(PyObject *) PyUnicode_RSplit(PyObject *s, PyObject *sep, Py_ssize_t maxsplit);
PyAPI_FUNC(PyObject *) PyUnicode_Splitlines(PyObject *s, int keepends);
PyAPI_FUNC(PyObject *) PyUnicode_Partition(PyObject *s, PyObject *sep);
PyAPI_FUNC(PyObject *) PyUnicode_Join(PyObject *separator, PyObject *seq);
PyAPI_FUNC(PyObject *) _PyUnicode_JoinArray(PyObject *separator, PyObject *const *items, Py_ssize_t seqlen);
PyAPI_FUNC(Py_ssize_t) PyUnicode_Find(PyObject *str, PyObject *substr, Py_ssize_t start, Py_ssize_t end, int direction);
PyAPI_FUNC(Py_ssize_t) PyUnicode_FindChar(PyObject *str, Py_UCS4 ch, Py_ssize_t start, Py_ssize_t end, int direction);
PyAPI_FUNC(Py_ssize_t) PyUnicode_Count(PyObject *str, PyObject *substr, Py_ssize_t start, Py_ssize_t end);
PyAPI_FUNC(Py_ssize_t) PyUnicode_Tailmatch(PyObject *str, PyObject *substr, Py_ssize_t start, Py_ssize_t end, int direction);
PyAPI_FUNC(PyObject *) PyUnicode_Replace(PyObject *str, PyObject *substr, PyObject *replstr, Py_ssize_t maxcount);
PyAPI_FUNC(int) PyUnicode_Compare(PyObject *left, PyObject *right);
PyAPI_FUNC(int) PyUnicode_CompareWithASCIIString(PyObject *left, const char *right);
PyAPI_FUNC(int) PyUnicode_EqualToUTF8(PyObject *, const char *);
PyAPI_FUNC(int) PyUnicode_EqualToUTF8AndSize(PyObject *, const char *, Py_ssize_t);
PyAPI_FUNC(int) PyUnicode_Equal(PyObject *a, PyObject *b);
PyAPI_FUNC(PyObject *) PyUnicode_RichCompare(PyObject *left, PyObject *right, int op);
PyAPI_FUNC(PyObject *) PyUnicode_Format(PyObject *format, PyObject *args);
PyAPI_FUNC(int) PyUnicode_Contains(PyObject *container, PyObject *element);
PyAPI_FUNC(int) PyUnicode_IsIdentifier(PyObject *s);
PyAPI_FUNC(void) PyUnicode_InternInPlace(PyObject **);
PyAPI_FUNC(PyObject *) PyUnicode_InternFromString(const char *u);
PyAPI_FUNC(Py_UCS4 *) PyUnicode_AsUCS4Copy(PyObject *unicode);
PyAPI_FUNC(PyObject *) PyUnicode_BuildEncodingMap(PyObject *string);

#include "cpython/unicodeobject.h"

#endif /* !Py_UNICODEOBJECT_H */
