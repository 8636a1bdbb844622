/* The methods of str (except formatting, in unicode_format.c, and encode,
   in Python/codecs.c): searching, splitting, joining, stripping, case
   mapping, padding, translation and the character-class predicates; also
   the public C functions behind them (PyUnicode_Find, PyUnicode_Split,
   PyUnicode_Join, ...) and str's method table.

   Searching works on raw arrays: the needle is widened to the haystack's
   kind (a needle wider than the haystack cannot occur in it, because both
   strings are canonical). */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_unicodeobject.h"

#define STRINGLIB_CHAR Py_UCS1
#define STRINGLIB(name) ucs1_##name
#include "stringlib/search.h"
#define STRINGLIB_CHAR Py_UCS2
#define STRINGLIB(name) ucs2_##name
#include "stringlib/search.h"
#define STRINGLIB_CHAR Py_UCS4
#define STRINGLIB(name) ucs4_##name
#include "stringlib/search.h"

/* ---- Search primitives over any kind -------------------------------------------- */

static Py_ssize_t
any_find(int kind, const void *s, Py_ssize_t n, const void *p, Py_ssize_t m, int direction)
{
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        return direction > 0 ? ucs1_find(s, n, p, m) : ucs1_rfind(s, n, p, m);
    case PyUnicode_2BYTE_KIND:
        return direction > 0 ? ucs2_find(s, n, p, m) : ucs2_rfind(s, n, p, m);
    default:
        return direction > 0 ? ucs4_find(s, n, p, m) : ucs4_rfind(s, n, p, m);
    }
}

static Py_ssize_t
any_count(int kind, const void *s, Py_ssize_t n, const void *p, Py_ssize_t m, Py_ssize_t max)
{
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        return ucs1_count(s, n, p, m, max);
    case PyUnicode_2BYTE_KIND:
        return ucs2_count(s, n, p, m, max);
    default:
        return ucs4_count(s, n, p, m, max);
    }
}

/* A needle viewed at the haystack's kind. */
typedef struct {
    const void *data;
    void *owned;
    Py_ssize_t len;
} needle_t;

/* 1: ready; 0: cannot occur (needle wider than the haystack); -1: error. */
static int
needle_init(needle_t *nd, PyObject *sub, int kind)
{
    nd->owned = NULL;
    nd->len = PyUnicode_GET_LENGTH(sub);
    if ((int)PyUnicode_KIND(sub) > kind) {
        return 0;
    }
    if ((int)PyUnicode_KIND(sub) == kind) {
        nd->data = PyUnicode_DATA(sub);
        return 1;
    }
    nd->owned = _PyUnicode_AsKind(sub, kind);
    if (nd->owned == NULL) {
        return -1;
    }
    nd->data = nd->owned;
    return 1;
}

static void
needle_fini(needle_t *nd)
{
    PyMem_Free(nd->owned);
}

#define AT(u, i) ((const char *)PyUnicode_DATA(u) + (i) * (Py_ssize_t)PyUnicode_KIND(u))

static void
adjust_indices(Py_ssize_t *start, Py_ssize_t *end, Py_ssize_t len)
{
    if (*end > len) {
        *end = len;
    }
    else if (*end < 0) {
        *end += len;
        if (*end < 0) {
            *end = 0;
        }
    }
    if (*start < 0) {
        *start += len;
        if (*start < 0) {
            *start = 0;
        }
    }
}

/* Index of sub in str[start:end] (relative to str), -1 if absent, -2 on
   error. */
Py_ssize_t
_PyUnicode_FindSub(PyObject *str, PyObject *sub, Py_ssize_t start, Py_ssize_t end,
                   int direction)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str), sublen = PyUnicode_GET_LENGTH(sub);
    adjust_indices(&start, &end, len);
    if (end - start < sublen) {
        return -1;
    }
    if (sublen == 0) {
        return direction > 0 ? start : end;
    }
    needle_t nd;
    int kind = PyUnicode_KIND(str);
    int r = needle_init(&nd, sub, kind);
    if (r <= 0) {
        return r == 0 ? -1 : -2;
    }
    Py_ssize_t i = any_find(kind, AT(str, start), end - start, nd.data, sublen, direction);
    needle_fini(&nd);
    return i < 0 ? -1 : i + start;
}

Py_ssize_t
_PyUnicode_CountSub(PyObject *str, PyObject *sub, Py_ssize_t start, Py_ssize_t end,
                    Py_ssize_t maxcount)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str), sublen = PyUnicode_GET_LENGTH(sub);
    adjust_indices(&start, &end, len);
    if (end - start < sublen) {
        return 0;
    }
    if (sublen == 0) {
        Py_ssize_t n = end - start + 1;
        return n < maxcount ? n : maxcount;
    }
    needle_t nd;
    int kind = PyUnicode_KIND(str);
    int r = needle_init(&nd, sub, kind);
    if (r <= 0) {
        return r == 0 ? 0 : -1;
    }
    Py_ssize_t n = any_count(kind, AT(str, start), end - start, nd.data, sublen, maxcount);
    needle_fini(&nd);
    return n;
}

static int
check_str_arg(PyObject *obj, const char *fname, int argnum)
{
    if (PyUnicode_Check(obj)) {
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s() argument %d must be str, not %.50s", fname, argnum,
                 Py_TYPE(obj)->tp_name);
    return -1;
}

int
_PyUnicode_ParseStartEnd(PyObject *const *args, Py_ssize_t nargs, const char *fname,
                         PyObject **sub, Py_ssize_t *start, Py_ssize_t *end)
{
    if (!_PyArg_CheckPositional(fname, nargs, 1, 3)) {
        return -1;
    }
    *sub = args[0];
    *start = 0;
    *end = PY_SSIZE_T_MAX;
    if (nargs > 1 && !_PyEval_SliceIndex(args[1], start)) {
        return -1;
    }
    if (nargs > 2 && !_PyEval_SliceIndex(args[2], end)) {
        return -1;
    }
    return 0;
}

/* ---- Public search functions ---------------------------------------------------------- */

Py_ssize_t
PyUnicode_Find(PyObject *str, PyObject *substr, Py_ssize_t start, Py_ssize_t end,
               int direction)
{
    if (!PyUnicode_Check(str) || !PyUnicode_Check(substr)) {
        PyErr_BadArgument();
        return -2;
    }
    return _PyUnicode_FindSub(str, substr, start, end, direction);
}

Py_ssize_t
PyUnicode_FindChar(PyObject *str, Py_UCS4 ch, Py_ssize_t start, Py_ssize_t end, int direction)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    if (start < 0 || end < 0) {
        PyErr_SetString(PyExc_IndexError, "string index out of range");
        return -2;
    }
    if (end > len) {
        end = len;
    }
    if (start >= end || ch > PyUnicode_MAX_CHAR_VALUE(str)) {
        return -1;
    }
    int kind = PyUnicode_KIND(str);
    const void *s = AT(str, start);
    Py_ssize_t n = end - start, i;
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        i = direction > 0 ? ucs1_find_char(s, n, (Py_UCS1)ch) : ucs1_rfind_char(s, n, (Py_UCS1)ch);
        break;
    case PyUnicode_2BYTE_KIND:
        i = direction > 0 ? ucs2_find_char(s, n, (Py_UCS2)ch) : ucs2_rfind_char(s, n, (Py_UCS2)ch);
        break;
    default:
        i = direction > 0 ? ucs4_find_char(s, n, ch) : ucs4_rfind_char(s, n, ch);
        break;
    }
    return i < 0 ? -1 : i + start;
}

Py_ssize_t
PyUnicode_Count(PyObject *str, PyObject *substr, Py_ssize_t start, Py_ssize_t end)
{
    if (!PyUnicode_Check(str) || !PyUnicode_Check(substr)) {
        PyErr_BadArgument();
        return -1;
    }
    return _PyUnicode_CountSub(str, substr, start, end, PY_SSIZE_T_MAX);
}

/* 1 if str[start:end] starts (direction < 0) or ends (> 0) with substr. */
static int
tailmatch(PyObject *self, PyObject *substring, Py_ssize_t start, Py_ssize_t end, int direction)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self), sublen = PyUnicode_GET_LENGTH(substring);
    adjust_indices(&start, &end, len);
    end -= sublen;
    if (end < start) {
        return 0;
    }
    if (sublen == 0) {
        return 1;
    }
    Py_ssize_t offset = direction > 0 ? end : start;
    int kind = PyUnicode_KIND(self), skind = PyUnicode_KIND(substring);
    if (skind > kind) {
        return 0;
    }
    if (kind == skind) {
        return memcmp(AT(self, offset), PyUnicode_DATA(substring), (size_t)sublen * kind) == 0;
    }
    const void *d = PyUnicode_DATA(self), *sd = PyUnicode_DATA(substring);
    for (Py_ssize_t i = 0; i < sublen; i++) {
        if (PyUnicode_READ(kind, d, offset + i) != PyUnicode_READ(skind, sd, i)) {
            return 0;
        }
    }
    return 1;
}

Py_ssize_t
PyUnicode_Tailmatch(PyObject *str, PyObject *substr, Py_ssize_t start, Py_ssize_t end,
                    int direction)
{
    if (!PyUnicode_Check(str) || !PyUnicode_Check(substr)) {
        PyErr_BadArgument();
        return -1;
    }
    return tailmatch(str, substr, start, end, direction);
}

int
PyUnicode_Contains(PyObject *container, PyObject *element)
{
    if (!PyUnicode_Check(element)) {
        PyErr_Format(PyExc_TypeError, "'in <string>' requires string as left operand, not %.100s",
                     Py_TYPE(element)->tp_name);
        return -1;
    }
    if (!PyUnicode_Check(container)) {
        PyErr_Format(PyExc_TypeError, "must be str, not %.100s", Py_TYPE(container)->tp_name);
        return -1;
    }
    Py_ssize_t i = _PyUnicode_FindSub(container, element, 0, PY_SSIZE_T_MAX, 1);
    if (i == -2) {
        return -1;
    }
    return i >= 0;
}

/* ---- Small helpers ------------------------------------------------------------------------ */

static PyObject *
result_unchanged(PyObject *self)
{
    if (PyUnicode_CheckExact(self)) {
        return Py_NewRef(self);
    }
    return _PyUnicode_Copy(self);
}

static PyObject *
substring(PyObject *self, Py_ssize_t start, Py_ssize_t end)
{
    if (start == 0 && end == PyUnicode_GET_LENGTH(self)) {
        return result_unchanged(self);
    }
    return PyUnicode_Substring(self, start, end);
}

/* ---- find / index / count / startswith ------------------------------------------------ */

static PyObject *
find_common(PyObject *self, PyObject *const *args, Py_ssize_t nargs, const char *fname,
            int direction, int raise)
{
    PyObject *sub;
    Py_ssize_t start, end;
    if (_PyUnicode_ParseStartEnd(args, nargs, fname, &sub, &start, &end) < 0) {
        return NULL;
    }
    if (check_str_arg(sub, fname, 1) < 0) {
        return NULL;
    }
    Py_ssize_t i = _PyUnicode_FindSub(self, sub, start, end, direction);
    if (i == -2) {
        return NULL;
    }
    if (i == -1 && raise) {
        PyErr_SetString(PyExc_ValueError, "substring not found");
        return NULL;
    }
    return PyLong_FromSsize_t(i);
}

static PyObject *
unicode_find(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return find_common(self, args, nargs, "find", 1, 0);
}

static PyObject *
unicode_rfind(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return find_common(self, args, nargs, "rfind", -1, 0);
}

static PyObject *
unicode_index(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return find_common(self, args, nargs, "index", 1, 1);
}

static PyObject *
unicode_rindex(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return find_common(self, args, nargs, "rindex", -1, 1);
}

static PyObject *
unicode_count(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *sub;
    Py_ssize_t start, end;
    if (_PyUnicode_ParseStartEnd(args, nargs, "count", &sub, &start, &end) < 0) {
        return NULL;
    }
    if (check_str_arg(sub, "count", 1) < 0) {
        return NULL;
    }
    Py_ssize_t n = _PyUnicode_CountSub(self, sub, start, end, PY_SSIZE_T_MAX);
    if (n < 0) {
        return NULL;
    }
    return PyLong_FromSsize_t(n);
}

static PyObject *
tailmatch_common(PyObject *self, PyObject *const *args, Py_ssize_t nargs, const char *fname,
                 int direction)
{
    PyObject *sub;
    Py_ssize_t start, end;
    if (_PyUnicode_ParseStartEnd(args, nargs, fname, &sub, &start, &end) < 0) {
        return NULL;
    }
    if (PyTuple_Check(sub)) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(sub); i++) {
            PyObject *item = PyTuple_GET_ITEM(sub, i);
            if (!PyUnicode_Check(item)) {
                PyErr_Format(PyExc_TypeError, "tuple for %s must only contain str, not %.100s",
                             fname, Py_TYPE(item)->tp_name);
                return NULL;
            }
            if (tailmatch(self, item, start, end, direction)) {
                Py_RETURN_TRUE;
            }
        }
        Py_RETURN_FALSE;
    }
    if (!PyUnicode_Check(sub)) {
        PyErr_Format(PyExc_TypeError, "%s first arg must be str or a tuple of str, not %.100s",
                     fname, Py_TYPE(sub)->tp_name);
        return NULL;
    }
    return PyBool_FromLong(tailmatch(self, sub, start, end, direction));
}

static PyObject *
unicode_startswith(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return tailmatch_common(self, args, nargs, "startswith", -1);
}

static PyObject *
unicode_endswith(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return tailmatch_common(self, args, nargs, "endswith", 1);
}

/* ---- split family --------------------------------------------------------------------------- */

static int
append_sub(PyObject *list, PyObject *self, Py_ssize_t start, Py_ssize_t end)
{
    PyObject *s = substring(self, start, end);
    if (s == NULL) {
        return -1;
    }
    int r = PyList_Append(list, s);
    Py_DECREF(s);
    return r;
}

static PyObject *
split_whitespace(PyObject *self, Py_ssize_t maxcount)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self), i = 0;
    int kind = PyUnicode_KIND(self);
    const void *d = PyUnicode_DATA(self);
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    while (maxcount-- > 0) {
        while (i < len && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, i))) {
            i++;
        }
        if (i == len) {
            break;
        }
        Py_ssize_t j = i;
        while (i < len && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, i))) {
            i++;
        }
        if (append_sub(list, self, j, i) < 0) {
            goto error;
        }
    }
    if (i < len) {
        while (i < len && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, i))) {
            i++;
        }
        if (i != len && append_sub(list, self, i, len) < 0) {
            goto error;
        }
    }
    return list;
error:
    Py_DECREF(list);
    return NULL;
}

static PyObject *
rsplit_whitespace(PyObject *self, Py_ssize_t maxcount)
{
    Py_ssize_t i = PyUnicode_GET_LENGTH(self) - 1;
    int kind = PyUnicode_KIND(self);
    const void *d = PyUnicode_DATA(self);
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    while (maxcount-- > 0) {
        while (i >= 0 && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, i))) {
            i--;
        }
        if (i < 0) {
            break;
        }
        Py_ssize_t j = i;
        while (i >= 0 && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, i))) {
            i--;
        }
        if (append_sub(list, self, i + 1, j + 1) < 0) {
            goto error;
        }
    }
    if (i >= 0) {
        while (i >= 0 && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, i))) {
            i--;
        }
        if (i >= 0 && append_sub(list, self, 0, i + 1) < 0) {
            goto error;
        }
    }
    if (PyList_Reverse(list) < 0) {
        goto error;
    }
    return list;
error:
    Py_DECREF(list);
    return NULL;
}

static PyObject *
split_sep(PyObject *self, PyObject *sep, Py_ssize_t maxcount, int right)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self), seplen = PyUnicode_GET_LENGTH(sep);
    if (seplen == 0) {
        PyErr_SetString(PyExc_ValueError, "empty separator");
        return NULL;
    }
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    int kind = PyUnicode_KIND(self);
    needle_t nd;
    int r = needle_init(&nd, sep, kind);
    if (r < 0) {
        goto error;
    }
    if (r == 0) {
        maxcount = 0;
    }
    if (!right) {
        Py_ssize_t pos = 0;
        while (maxcount-- > 0) {
            Py_ssize_t j = any_find(kind, AT(self, pos), len - pos, nd.data, seplen, 1);
            if (j < 0) {
                break;
            }
            if (append_sub(list, self, pos, pos + j) < 0) {
                goto error_nd;
            }
            pos += j + seplen;
        }
        if (append_sub(list, self, pos, len) < 0) {
            goto error_nd;
        }
    }
    else {
        Py_ssize_t end = len;
        while (maxcount-- > 0) {
            Py_ssize_t j = any_find(kind, PyUnicode_DATA(self), end, nd.data, seplen, -1);
            if (j < 0) {
                break;
            }
            if (append_sub(list, self, j + seplen, end) < 0) {
                goto error_nd;
            }
            end = j;
        }
        if (append_sub(list, self, 0, end) < 0 || PyList_Reverse(list) < 0) {
            goto error_nd;
        }
    }
    if (r > 0) {
        needle_fini(&nd);
    }
    return list;
error_nd:
    if (r > 0) {
        needle_fini(&nd);
    }
error:
    Py_DECREF(list);
    return NULL;
}

static PyObject *
split_impl(PyObject *self, PyObject *sep, Py_ssize_t maxsplit, int right)
{
    if (maxsplit < 0) {
        maxsplit = PY_SSIZE_T_MAX;
    }
    if (sep == NULL || sep == Py_None) {
        return right ? rsplit_whitespace(self, maxsplit) : split_whitespace(self, maxsplit);
    }
    if (!PyUnicode_Check(sep)) {
        PyErr_Format(PyExc_TypeError, "must be str or None, not %.100s", Py_TYPE(sep)->tp_name);
        return NULL;
    }
    return split_sep(self, sep, maxsplit, right);
}

PyObject *
PyUnicode_Split(PyObject *s, PyObject *sep, Py_ssize_t maxsplit)
{
    if (!PyUnicode_Check(s)) {
        PyErr_BadArgument();
        return NULL;
    }
    return split_impl(s, sep, maxsplit, 0);
}

PyObject *
PyUnicode_RSplit(PyObject *s, PyObject *sep, Py_ssize_t maxsplit)
{
    if (!PyUnicode_Check(s)) {
        PyErr_BadArgument();
        return NULL;
    }
    return split_impl(s, sep, maxsplit, 1);
}

static PyObject *
split_method(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
             const char *fname, int right)
{
    static const char *const kwlist[] = {"sep", "maxsplit", NULL};
    PyObject *out[2] = {NULL, NULL};
    Py_ssize_t maxsplit = -1;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, fname, kwlist, 0, 2, 0, out)) {
        return NULL;
    }
    if (out[1] != NULL) {
        maxsplit = PyNumber_AsSsize_t(out[1], PyExc_OverflowError);
        if (maxsplit == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    return split_impl(self, out[0], maxsplit, right);
}

static PyObject *
unicode_split(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return split_method(self, args, nargs, kwnames, "split", 0);
}

static PyObject *
unicode_rsplit(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return split_method(self, args, nargs, kwnames, "rsplit", 1);
}

PyObject *
PyUnicode_Splitlines(PyObject *self, int keepends)
{
    if (!PyUnicode_Check(self)) {
        PyErr_BadArgument();
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(self), i = 0;
    int kind = PyUnicode_KIND(self);
    const void *d = PyUnicode_DATA(self);
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    while (i < len) {
        Py_ssize_t j = i;
        while (i < len && !Py_UNICODE_ISLINEBREAK(PyUnicode_READ(kind, d, i))) {
            i++;
        }
        Py_ssize_t eol = i;
        if (i < len) {
            if (PyUnicode_READ(kind, d, i) == '\r' && i + 1 < len &&
                PyUnicode_READ(kind, d, i + 1) == '\n') {
                i += 2;
            }
            else {
                i++;
            }
            if (keepends) {
                eol = i;
            }
        }
        if (append_sub(list, self, j, eol) < 0) {
            Py_DECREF(list);
            return NULL;
        }
    }
    return list;
}

static PyObject *
unicode_splitlines(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"keepends", NULL};
    PyObject *out[1] = {NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "splitlines", kwlist, 0, 1, 0, out)) {
        return NULL;
    }
    int keepends = 0;
    if (out[0] != NULL) {
        keepends = PyObject_IsTrue(out[0]);
        if (keepends < 0) {
            return NULL;
        }
    }
    return PyUnicode_Splitlines(self, keepends);
}

/* ---- partition ------------------------------------------------------------------------------- */

static PyObject *
partition_impl(PyObject *self, PyObject *sep, int right)
{
    if (!PyUnicode_Check(sep)) {
        PyErr_Format(PyExc_TypeError, "must be str, not %.100s", Py_TYPE(sep)->tp_name);
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(self), seplen = PyUnicode_GET_LENGTH(sep);
    if (seplen == 0) {
        PyErr_SetString(PyExc_ValueError, "empty separator");
        return NULL;
    }
    Py_ssize_t i = _PyUnicode_FindSub(self, sep, 0, len, right ? -1 : 1);
    if (i == -2) {
        return NULL;
    }
    PyObject *empty = _PyUnicode_GetEmpty();
    PyObject *whole = result_unchanged(self);
    if (whole == NULL) {
        return NULL;
    }
    PyObject *res;
    if (i < 0) {
        res = right ? PyTuple_Pack(3, empty, empty, whole) : PyTuple_Pack(3, whole, empty, empty);
        Py_DECREF(whole);
        return res;
    }
    Py_DECREF(whole);
    PyObject *before = PyUnicode_Substring(self, 0, i);
    PyObject *after = PyUnicode_Substring(self, i + seplen, len);
    PyObject *mid = PyUnicode_FromObject(sep);
    res = (before && after && mid) ? PyTuple_Pack(3, before, mid, after) : NULL;
    Py_XDECREF(before);
    Py_XDECREF(after);
    Py_XDECREF(mid);
    return res;
}

PyObject *
PyUnicode_Partition(PyObject *s, PyObject *sep)
{
    return partition_impl(s, sep, 0);
}

static PyObject *
unicode_partition(PyObject *self, PyObject *sep)
{
    return partition_impl(self, sep, 0);
}

static PyObject *
unicode_rpartition(PyObject *self, PyObject *sep)
{
    return partition_impl(self, sep, 1);
}

/* ---- join ---------------------------------------------------------------------------------- */

PyObject *
_PyUnicode_JoinArray(PyObject *separator, PyObject *const *items, Py_ssize_t seqlen)
{
    PyObject *sep = separator;
    if (sep == NULL) {
        sep = _PyUnicode_FromLatin1Char(' ');
    }
    else if (!PyUnicode_Check(sep)) {
        PyErr_Format(PyExc_TypeError, "separator: expected str instance, %.80s found",
                     Py_TYPE(sep)->tp_name);
        return NULL;
    }
    if (seqlen == 0) {
        return _PyUnicode_GetEmpty();
    }
    if (seqlen == 1 && PyUnicode_CheckExact(items[0])) {
        return Py_NewRef(items[0]);
    }
    Py_ssize_t seplen = PyUnicode_GET_LENGTH(sep), total = 0;
    Py_UCS4 maxchar = seqlen > 1 && seplen > 0 ? PyUnicode_MAX_CHAR_VALUE(sep) : 0;
    for (Py_ssize_t i = 0; i < seqlen; i++) {
        PyObject *item = items[i];
        if (!PyUnicode_Check(item)) {
            PyErr_Format(PyExc_TypeError, "sequence item %zd: expected str instance, %.80s found",
                         i, Py_TYPE(item)->tp_name);
            return NULL;
        }
        Py_ssize_t add = PyUnicode_GET_LENGTH(item) + (i > 0 ? seplen : 0);
        if (total > PY_SSIZE_T_MAX - add) {
            PyErr_SetString(PyExc_OverflowError, "join() result is too long for a Python string");
            return NULL;
        }
        total += add;
        Py_UCS4 m = PyUnicode_MAX_CHAR_VALUE(item);
        maxchar = m > maxchar ? m : maxchar;
    }
    if (total == 0) {
        return _PyUnicode_GetEmpty();
    }
    PyObject *res = PyUnicode_New(total, maxchar);
    if (res == NULL) {
        return NULL;
    }
    Py_ssize_t pos = 0;
    for (Py_ssize_t i = 0; i < seqlen; i++) {
        if (i > 0 && seplen > 0) {
            _PyUnicode_FastCopyCharacters(res, pos, sep, 0, seplen);
            pos += seplen;
        }
        Py_ssize_t n = PyUnicode_GET_LENGTH(items[i]);
        _PyUnicode_FastCopyCharacters(res, pos, items[i], 0, n);
        pos += n;
    }
    if (total == 1) {
        return _PyUnicode_Canonical(res);
    }
    return res;
}

PyObject *
PyUnicode_Join(PyObject *separator, PyObject *seq)
{
    PyObject *fseq = PySequence_Fast(seq, "can only join an iterable");
    if (fseq == NULL) {
        return NULL;
    }
    PyObject *res = _PyUnicode_JoinArray(separator, PySequence_Fast_ITEMS(fseq),
                                         PySequence_Fast_GET_SIZE(fseq));
    Py_DECREF(fseq);
    return res;
}

static PyObject *
unicode_join(PyObject *self, PyObject *iterable)
{
    return PyUnicode_Join(self, iterable);
}

/* ---- strip ----------------------------------------------------------------------------------- */

#define LEFTSTRIP 0
#define RIGHTSTRIP 1
#define BOTHSTRIP 2

static int
in_charset(PyObject *chars, Py_UCS4 c)
{
    return PyUnicode_FindChar(chars, c, 0, PyUnicode_GET_LENGTH(chars), 1) >= 0;
}

static PyObject *
strip_impl(PyObject *self, PyObject *chars, int how)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self), i = 0, j = len;
    int kind = PyUnicode_KIND(self);
    const void *d = PyUnicode_DATA(self);
    if (chars == NULL) {
        if (how != RIGHTSTRIP) {
            while (i < len && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, i))) {
                i++;
            }
        }
        if (how != LEFTSTRIP) {
            while (j > i && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, j - 1))) {
                j--;
            }
        }
    }
    else {
        if (how != RIGHTSTRIP) {
            while (i < len && in_charset(chars, PyUnicode_READ(kind, d, i))) {
                i++;
            }
        }
        if (how != LEFTSTRIP) {
            while (j > i && in_charset(chars, PyUnicode_READ(kind, d, j - 1))) {
                j--;
            }
        }
    }
    return substring(self, i, j);
}

static PyObject *
strip_method(PyObject *self, PyObject *const *args, Py_ssize_t nargs, const char *fname,
             int how)
{
    if (!_PyArg_CheckPositional(fname, nargs, 0, 1)) {
        return NULL;
    }
    PyObject *chars = nargs > 0 ? args[0] : NULL;
    if (chars == Py_None) {
        chars = NULL;
    }
    if (chars != NULL && !PyUnicode_Check(chars)) {
        PyErr_Format(PyExc_TypeError, "%s arg must be None or str", fname);
        return NULL;
    }
    return strip_impl(self, chars, how);
}

static PyObject *
unicode_strip(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return strip_method(self, args, nargs, "strip", BOTHSTRIP);
}

static PyObject *
unicode_lstrip(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return strip_method(self, args, nargs, "lstrip", LEFTSTRIP);
}

static PyObject *
unicode_rstrip(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return strip_method(self, args, nargs, "rstrip", RIGHTSTRIP);
}

/* ---- replace --------------------------------------------------------------------------------- */

static PyObject *
replace_impl(PyObject *self, PyObject *old, PyObject *new, Py_ssize_t maxcount)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self), oldlen = PyUnicode_GET_LENGTH(old);
    if (maxcount < 0) {
        maxcount = PY_SSIZE_T_MAX;
    }
    if (maxcount == 0 || oldlen > len) {
        return result_unchanged(self);
    }
    _PyUnicodeWriter w;
    _PyUnicodeWriter_Init(&w);
    w.overallocate = 1;
    if (oldlen == 0) {
        /* Insert `new` before every character and at the end. */
        Py_ssize_t i = 0;
        for (; i < len && maxcount > 0; i++, maxcount--) {
            if (_PyUnicodeWriter_WriteStr(&w, new) < 0 ||
                _PyUnicodeWriter_WriteChar(&w, PyUnicode_READ_CHAR(self, i)) < 0) {
                goto error;
            }
        }
        if (maxcount > 0 && _PyUnicodeWriter_WriteStr(&w, new) < 0) {
            goto error;
        }
        if (_PyUnicodeWriter_WriteSubstring(&w, self, i, len) < 0) {
            goto error;
        }
        return _PyUnicodeWriter_Finish(&w);
    }
    int kind = PyUnicode_KIND(self);
    needle_t nd;
    int r = needle_init(&nd, old, kind);
    if (r <= 0) {
        return r < 0 ? NULL : result_unchanged(self);
    }
    Py_ssize_t pos = 0, found = 0;
    while (maxcount-- > 0) {
        Py_ssize_t j = any_find(kind, AT(self, pos), len - pos, nd.data, oldlen, 1);
        if (j < 0) {
            break;
        }
        if (found == 0) {
            w.min_length = len;
        }
        found++;
        if (_PyUnicodeWriter_WriteSubstring(&w, self, pos, pos + j) < 0 ||
            _PyUnicodeWriter_WriteStr(&w, new) < 0) {
            needle_fini(&nd);
            goto error;
        }
        pos += j + oldlen;
    }
    needle_fini(&nd);
    if (found == 0) {
        _PyUnicodeWriter_Dealloc(&w);
        return result_unchanged(self);
    }
    if (_PyUnicodeWriter_WriteSubstring(&w, self, pos, len) < 0) {
        goto error;
    }
    return _PyUnicodeWriter_Finish(&w);
error:
    _PyUnicodeWriter_Dealloc(&w);
    return NULL;
}

PyObject *
PyUnicode_Replace(PyObject *str, PyObject *substr, PyObject *replstr, Py_ssize_t maxcount)
{
    if (!PyUnicode_Check(str) || !PyUnicode_Check(substr) || !PyUnicode_Check(replstr)) {
        PyErr_BadArgument();
        return NULL;
    }
    return replace_impl(str, substr, replstr, maxcount);
}

static PyObject *
unicode_replace(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "", "count", NULL};
    PyObject *out[3] = {NULL, NULL, NULL};
    Py_ssize_t count = -1;
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "replace", kwlist, 2, 3, 0, out)) {
        return NULL;
    }
    if (check_str_arg(out[0], "replace", 1) < 0 || check_str_arg(out[1], "replace", 2) < 0) {
        return NULL;
    }
    if (out[2] != NULL) {
        count = PyNumber_AsSsize_t(out[2], PyExc_OverflowError);
        if (count == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    return replace_impl(self, out[0], out[1], count);
}

static PyObject *
affix_impl(PyObject *self, PyObject *affix, int suffix)
{
    if (!PyUnicode_Check(affix)) {
        PyErr_Format(PyExc_TypeError, "%s() argument must be str, not %.50s",
                     suffix ? "removesuffix" : "removeprefix", Py_TYPE(affix)->tp_name);
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(self), n = PyUnicode_GET_LENGTH(affix);
    if (n > 0 && tailmatch(self, affix, 0, PY_SSIZE_T_MAX, suffix ? 1 : -1)) {
        return suffix ? PyUnicode_Substring(self, 0, len - n) : PyUnicode_Substring(self, n, len);
    }
    return result_unchanged(self);
}

static PyObject *
unicode_removeprefix(PyObject *self, PyObject *prefix)
{
    return affix_impl(self, prefix, 0);
}

static PyObject *
unicode_removesuffix(PyObject *self, PyObject *suffix)
{
    return affix_impl(self, suffix, 1);
}

/* ---- Case mapping ---------------------------------------------------------------------------- */

/* Capital sigma (U+03A3) lowers to final sigma (U+03C2) at the end of a
   word: preceded by a cased letter and not followed by one (case-ignorable
   characters skipped on both sides). */
static int
final_sigma(int kind, const void *d, Py_ssize_t len, Py_ssize_t i)
{
    Py_ssize_t j = i - 1;
    while (j >= 0 && _PyUnicode_IsCaseIgnorable(PyUnicode_READ(kind, d, j))) {
        j--;
    }
    if (j < 0 || !_PyUnicode_IsCased(PyUnicode_READ(kind, d, j))) {
        return 0;
    }
    j = i + 1;
    while (j < len && _PyUnicode_IsCaseIgnorable(PyUnicode_READ(kind, d, j))) {
        j++;
    }
    return j == len || !_PyUnicode_IsCased(PyUnicode_READ(kind, d, j));
}

static int
lower_at(int kind, const void *d, Py_ssize_t len, Py_ssize_t i, Py_UCS4 *out)
{
    Py_UCS4 c = PyUnicode_READ(kind, d, i);
    if (c == 0x3A3) {
        out[0] = final_sigma(kind, d, len, i) ? 0x3C2 : 0x3C3;
        return 1;
    }
    return _PyUnicode_ToLowerFull(c, out);
}

enum case_op { CASE_LOWER, CASE_UPPER, CASE_FOLD, CASE_SWAP, CASE_TITLE, CASE_CAPITALIZE };

static PyObject *
ascii_case(PyObject *self, enum case_op op)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self);
    PyObject *res = PyUnicode_New(len, 127);
    if (res == NULL) {
        return NULL;
    }
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(self);
    Py_UCS1 *o = PyUnicode_1BYTE_DATA(res);
    int prev_cased = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS1 c = s[i];
        int lower = c >= 'a' && c <= 'z', upper = c >= 'A' && c <= 'Z';
        int to_upper;
        switch (op) {
        case CASE_LOWER:
        case CASE_FOLD: to_upper = 0; break;
        case CASE_UPPER: to_upper = 1; break;
        case CASE_SWAP: to_upper = lower; break;
        case CASE_TITLE: to_upper = !prev_cased; break;
        default: to_upper = i == 0; break;
        }
        if (to_upper && lower) {
            c -= 32;
        }
        else if (!to_upper && upper) {
            c += 32;
        }
        prev_cased = lower || upper;
        o[i] = c;
    }
    return res;
}

static PyObject *
case_map(PyObject *self, enum case_op op)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self);
    if (len == 0) {
        return result_unchanged(self);
    }
    if (PyUnicode_IS_ASCII(self)) {
        return ascii_case(self, op);
    }
    if (len > PY_SSIZE_T_MAX / 3 / 4) {
        return PyErr_NoMemory();
    }
    Py_UCS4 *buf = PyMem_Malloc((size_t)len * 3 * sizeof(Py_UCS4));
    if (buf == NULL) {
        return PyErr_NoMemory();
    }
    int kind = PyUnicode_KIND(self);
    const void *d = PyUnicode_DATA(self);
    Py_ssize_t n = 0;
    int prev_cased = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, d, i);
        Py_UCS4 *out = buf + n;
        switch (op) {
        case CASE_LOWER:
            n += lower_at(kind, d, len, i, out);
            break;
        case CASE_UPPER:
            n += _PyUnicode_ToUpperFull(c, out);
            break;
        case CASE_FOLD:
            n += _PyUnicode_ToFoldedFull(c, out);
            break;
        case CASE_SWAP:
            if (_PyUnicode_IsUppercase(c)) {
                n += lower_at(kind, d, len, i, out);
            }
            else if (_PyUnicode_IsLowercase(c)) {
                n += _PyUnicode_ToUpperFull(c, out);
            }
            else {
                out[0] = c;
                n++;
            }
            break;
        case CASE_TITLE:
            n += prev_cased ? lower_at(kind, d, len, i, out) : _PyUnicode_ToTitleFull(c, out);
            prev_cased = _PyUnicode_IsCased(c);
            break;
        case CASE_CAPITALIZE:
            n += i == 0 ? _PyUnicode_ToTitleFull(c, out) : lower_at(kind, d, len, i, out);
            break;
        }
    }
    PyObject *res = _PyUnicode_FromKindAndDataCanonical(PyUnicode_4BYTE_KIND, buf, n);
    PyMem_Free(buf);
    return res;
}

/* Every case method is case_map() with a fixed mode. */
#define CASE_METHOD(NAME, MODE)                                         \
    static PyObject *                                                   \
    unicode_##NAME(PyObject *self, PyObject *Py_UNUSED(ignored))        \
    {                                                                   \
        return case_map(self, MODE);                                    \
    }
CASE_METHOD(lower, CASE_LOWER)
CASE_METHOD(upper, CASE_UPPER)
CASE_METHOD(casefold, CASE_FOLD)
CASE_METHOD(swapcase, CASE_SWAP)
CASE_METHOD(title, CASE_TITLE)
CASE_METHOD(capitalize, CASE_CAPITALIZE)
#undef CASE_METHOD

/* ---- Predicates -------------------------------------------------------------------------------- */

#define DEFINE_ALL_PREDICATE(NAME, TEST)                                        \
    static PyObject *                                                           \
    unicode_##NAME(PyObject *self, PyObject *Py_UNUSED(ignored))                \
    {                                                                           \
        Py_ssize_t len = PyUnicode_GET_LENGTH(self);                            \
        int kind = PyUnicode_KIND(self);                                        \
        const void *d = PyUnicode_DATA(self);                                   \
        if (len == 0) {                                                         \
            Py_RETURN_FALSE;                                                    \
        }                                                                       \
        for (Py_ssize_t i = 0; i < len; i++) {                                  \
            Py_UCS4 ch = PyUnicode_READ(kind, d, i);                            \
            if (!(TEST)) {                                                      \
                Py_RETURN_FALSE;                                                \
            }                                                                   \
        }                                                                       \
        Py_RETURN_TRUE;                                                         \
    }

DEFINE_ALL_PREDICATE(isspace, _PyUnicode_IsWhitespace(ch))
DEFINE_ALL_PREDICATE(isalpha, _PyUnicode_IsAlpha(ch))
DEFINE_ALL_PREDICATE(isdecimal, _PyUnicode_IsDecimalDigit(ch))
DEFINE_ALL_PREDICATE(isdigit, _PyUnicode_IsDigit(ch))
DEFINE_ALL_PREDICATE(isnumeric, _PyUnicode_IsNumeric(ch))
DEFINE_ALL_PREDICATE(isalnum, _PyUnicode_IsAlpha(ch) || _PyUnicode_IsDecimalDigit(ch) ||
                                  _PyUnicode_IsDigit(ch) || _PyUnicode_IsNumeric(ch))

static PyObject *
unicode_isascii(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(PyUnicode_IS_ASCII(self));
}

static PyObject *
unicode_isprintable(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self);
    int kind = PyUnicode_KIND(self);
    const void *d = PyUnicode_DATA(self);
    for (Py_ssize_t i = 0; i < len; i++) {
        if (!_PyUnicode_IsPrintable(PyUnicode_READ(kind, d, i))) {
            Py_RETURN_FALSE;
        }
    }
    Py_RETURN_TRUE;
}

static PyObject *
unicode_islower(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self);
    int kind = PyUnicode_KIND(self), cased = 0;
    const void *d = PyUnicode_DATA(self);
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, d, i);
        if (_PyUnicode_IsUppercase(ch) || _PyUnicode_IsTitlecase(ch)) {
            Py_RETURN_FALSE;
        }
        cased |= _PyUnicode_IsLowercase(ch);
    }
    return PyBool_FromLong(cased);
}

static PyObject *
unicode_isupper(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self);
    int kind = PyUnicode_KIND(self), cased = 0;
    const void *d = PyUnicode_DATA(self);
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, d, i);
        if (_PyUnicode_IsLowercase(ch) || _PyUnicode_IsTitlecase(ch)) {
            Py_RETURN_FALSE;
        }
        cased |= _PyUnicode_IsUppercase(ch);
    }
    return PyBool_FromLong(cased);
}

static PyObject *
unicode_istitle(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self);
    int kind = PyUnicode_KIND(self), cased = 0, prev_cased = 0;
    const void *d = PyUnicode_DATA(self);
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, d, i);
        if (_PyUnicode_IsUppercase(ch) || _PyUnicode_IsTitlecase(ch)) {
            if (prev_cased) {
                Py_RETURN_FALSE;
            }
            prev_cased = cased = 1;
        }
        else if (_PyUnicode_IsLowercase(ch)) {
            if (!prev_cased) {
                Py_RETURN_FALSE;
            }
            prev_cased = cased = 1;
        }
        else {
            prev_cased = 0;
        }
    }
    return PyBool_FromLong(cased);
}

static PyObject *
unicode_isidentifier(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(PyUnicode_IsIdentifier(self));
}

/* ---- Padding ------------------------------------------------------------------------------------- */

static int
parse_width_fill(PyObject *const *args, Py_ssize_t nargs, const char *fname, Py_ssize_t *width,
                 Py_UCS4 *fill)
{
    if (!_PyArg_CheckPositional(fname, nargs, 1, 2)) {
        return -1;
    }
    *width = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
    if (*width == -1 && PyErr_Occurred()) {
        return -1;
    }
    *fill = ' ';
    if (nargs > 1) {
        PyObject *f = args[1];
        if (!PyUnicode_Check(f)) {
            PyErr_Format(PyExc_TypeError,
                         "The fill character must be a unicode character, not %.100s",
                         Py_TYPE(f)->tp_name);
            return -1;
        }
        if (PyUnicode_GET_LENGTH(f) != 1) {
            PyErr_SetString(PyExc_TypeError,
                            "The fill character must be exactly one character long");
            return -1;
        }
        *fill = PyUnicode_READ_CHAR(f, 0);
    }
    return 0;
}

static PyObject *
pad(PyObject *self, Py_ssize_t left, Py_ssize_t right, Py_UCS4 fill)
{
    if (left < 0) {
        left = 0;
    }
    if (right < 0) {
        right = 0;
    }
    if (left == 0 && right == 0) {
        return result_unchanged(self);
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(self);
    if (left > PY_SSIZE_T_MAX - len || right > PY_SSIZE_T_MAX - (left + len)) {
        PyErr_SetString(PyExc_OverflowError, "padded string is too long");
        return NULL;
    }
    Py_UCS4 maxchar = PyUnicode_MAX_CHAR_VALUE(self);
    PyObject *res = PyUnicode_New(left + len + right, fill > maxchar ? fill : maxchar);
    if (res == NULL) {
        return NULL;
    }
    int kind = PyUnicode_KIND(res);
    void *d = PyUnicode_DATA(res);
    for (Py_ssize_t i = 0; i < left; i++) {
        PyUnicode_WRITE(kind, d, i, fill);
    }
    _PyUnicode_FastCopyCharacters(res, left, self, 0, len);
    for (Py_ssize_t i = 0; i < right; i++) {
        PyUnicode_WRITE(kind, d, left + len + i, fill);
    }
    return res;
}

static PyObject *
unicode_center(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t width;
    Py_UCS4 fill;
    if (parse_width_fill(args, nargs, "center", &width, &fill) < 0) {
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(self);
    if (width <= len) {
        return result_unchanged(self);
    }
    Py_ssize_t marg = width - len;
    Py_ssize_t left = marg / 2 + (marg & width & 1);
    return pad(self, left, marg - left, fill);
}

static PyObject *
unicode_ljust(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t width;
    Py_UCS4 fill;
    if (parse_width_fill(args, nargs, "ljust", &width, &fill) < 0) {
        return NULL;
    }
    return pad(self, 0, width - PyUnicode_GET_LENGTH(self), fill);
}

static PyObject *
unicode_rjust(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t width;
    Py_UCS4 fill;
    if (parse_width_fill(args, nargs, "rjust", &width, &fill) < 0) {
        return NULL;
    }
    return pad(self, width - PyUnicode_GET_LENGTH(self), 0, fill);
}

static PyObject *
unicode_zfill(PyObject *self, PyObject *arg)
{
    Py_ssize_t width = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (width == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(self);
    if (width <= len) {
        return result_unchanged(self);
    }
    Py_ssize_t fill = width - len;
    PyObject *res = pad(self, fill, 0, '0');
    if (res == NULL) {
        return NULL;
    }
    int kind = PyUnicode_KIND(res);
    void *d = PyUnicode_DATA(res);
    Py_UCS4 c = PyUnicode_READ(kind, d, fill);
    if (c == '+' || c == '-') {
        PyUnicode_WRITE(kind, d, 0, c);
        PyUnicode_WRITE(kind, d, fill, '0');
    }
    return res;
}

static PyObject *
unicode_expandtabs(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"tabsize", NULL};
    PyObject *out[1] = {NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "expandtabs", kwlist, 0, 1, 0, out)) {
        return NULL;
    }
    int tabsize = 8;
    if (out[0] != NULL) {
        tabsize = PyLong_AsInt(out[0]);
        if (tabsize == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(self), total = 0, col = 0;
    int kind = PyUnicode_KIND(self), found = 0;
    const void *d = PyUnicode_DATA(self);
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, d, i);
        Py_ssize_t add = 1;
        if (c == '\t') {
            found = 1;
            add = tabsize > 0 ? tabsize - (col % tabsize) : 0;
            col += add;
        }
        else {
            col = (c == '\n' || c == '\r') ? 0 : col + 1;
        }
        if (total > PY_SSIZE_T_MAX - add) {
            PyErr_SetString(PyExc_OverflowError, "new string is too long");
            return NULL;
        }
        total += add;
    }
    if (!found) {
        return result_unchanged(self);
    }
    PyObject *res = PyUnicode_New(total, PyUnicode_MAX_CHAR_VALUE(self));
    if (res == NULL) {
        return NULL;
    }
    void *o = PyUnicode_DATA(res);
    Py_ssize_t j = 0;
    col = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, d, i);
        if (c == '\t') {
            Py_ssize_t add = tabsize > 0 ? tabsize - (col % tabsize) : 0;
            for (Py_ssize_t k = 0; k < add; k++) {
                PyUnicode_WRITE(kind, o, j++, ' ');
            }
            col += add;
        }
        else {
            PyUnicode_WRITE(kind, o, j++, c);
            col = (c == '\n' || c == '\r') ? 0 : col + 1;
        }
    }
    if (total == 0 || (total == 1 && PyUnicode_READ(kind, o, 0) < 256)) {
        return _PyUnicode_Canonical(res);
    }
    return res;
}

/* ---- translate / maketrans --------------------------------------------------------------------- */

/* Look up ch in the table: 1 and *out (new ref, may be None) when found,
   0 when the table has no entry (LookupError), -1 on error. */
static int
translate_lookup(PyObject *table, Py_UCS4 ch, PyObject **out)
{
    PyObject *key = PyLong_FromLong((long)ch);
    if (key == NULL) {
        return -1;
    }
    PyObject *v = PyObject_GetItem(table, key);
    Py_DECREF(key);
    if (v == NULL) {
        if (PyErr_ExceptionMatches(PyExc_LookupError)) {
            PyErr_Clear();
            return 0;
        }
        return -1;
    }
    *out = v;
    return 1;
}

static int
translate_write(_PyUnicodeWriter *w, PyObject *v)
{
    if (v == Py_None) {
        return 0;
    }
    if (PyLong_Check(v)) {
        long value = PyLong_AsLong(v);
        if (value == -1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_SetString(PyExc_ValueError, "character mapping must be in range(0x110000)");
            }
            return -1;
        }
        if (value < 0 || value > 0x10ffff) {
            PyErr_SetString(PyExc_ValueError, "character mapping must be in range(0x110000)");
            return -1;
        }
        return _PyUnicodeWriter_WriteChar(w, (Py_UCS4)value);
    }
    if (PyUnicode_Check(v)) {
        return _PyUnicodeWriter_WriteStr(w, v);
    }
    PyErr_SetString(PyExc_TypeError, "character mapping must return integer, None or str");
    return -1;
}

PyObject *
PyUnicode_Translate(PyObject *self, PyObject *table, const char *errors)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(self);
    int kind = PyUnicode_KIND(self);
    const void *d = PyUnicode_DATA(self);
    /* Results for Latin-1 characters are remembered: text repeats them. */
    PyObject *cache[256] = {NULL};
    _PyUnicodeWriter w;
    _PyUnicodeWriter_Init(&w);
    w.min_length = len;
    w.overallocate = 1;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, d, i);
        PyObject *v = NULL;
        int r;
        if (c < 256 && cache[c] != NULL) {
            v = Py_NewRef(cache[c]);
            r = 1;
        }
        else {
            r = translate_lookup(table, c, &v);
            if (r < 0) {
                goto error;
            }
            if (r == 0) {
                v = PyLong_FromLong((long)c);
                if (v == NULL) {
                    goto error;
                }
            }
            if (c < 256) {
                cache[c] = Py_NewRef(v);
            }
        }
        r = translate_write(&w, v);
        Py_DECREF(v);
        if (r < 0) {
            goto error;
        }
    }
    for (int c = 0; c < 256; c++) {
        Py_XDECREF(cache[c]);
    }
    return _PyUnicodeWriter_Finish(&w);
error:
    for (int c = 0; c < 256; c++) {
        Py_XDECREF(cache[c]);
    }
    _PyUnicodeWriter_Dealloc(&w);
    return NULL;
}

static PyObject *
unicode_translate(PyObject *self, PyObject *table)
{
    return PyUnicode_Translate(self, table, NULL);
}

static int
maketrans_from_dict(PyObject *x, PyObject *result)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(x, &pos, &key, &value)) {
        if (PyUnicode_Check(key)) {
            if (PyUnicode_GET_LENGTH(key) != 1) {
                PyErr_SetString(PyExc_ValueError,
                                "string keys in translate table must be of length 1");
                return -1;
            }
            PyObject *k = PyLong_FromLong((long)PyUnicode_READ_CHAR(key, 0));
            if (k == NULL) {
                return -1;
            }
            int r = PyDict_SetItem(result, k, value);
            Py_DECREF(k);
            if (r < 0) {
                return -1;
            }
        }
        else if (PyLong_Check(key)) {
            if (PyDict_SetItem(result, key, value) < 0) {
                return -1;
            }
        }
        else {
            PyErr_SetString(PyExc_TypeError,
                            "keys in translate table must be strings or integers");
            return -1;
        }
    }
    return 0;
}

static int
maketrans_set(PyObject *result, Py_UCS4 ch, PyObject *value)
{
    PyObject *k = PyLong_FromLong((long)ch);
    if (k == NULL) {
        return -1;
    }
    int r = PyDict_SetItem(result, k, value);
    Py_DECREF(k);
    return r;
}

static int
maketrans_from_strings(PyObject *const *args, Py_ssize_t nargs, PyObject *result)
{
    PyObject *x = args[0], *y = args[1];
    if (!PyUnicode_Check(x)) {
        PyErr_SetString(PyExc_TypeError,
                        "first maketrans argument must be a string if there is a second argument");
        return -1;
    }
    if (check_str_arg(y, "maketrans", 2) < 0) {
        return -1;
    }
    if (nargs > 2 && check_str_arg(args[2], "maketrans", 3) < 0) {
        return -1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(x);
    if (n != PyUnicode_GET_LENGTH(y)) {
        PyErr_SetString(PyExc_ValueError,
                        "the first two maketrans arguments must have equal length");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong((long)PyUnicode_READ_CHAR(y, i));
        if (v == NULL) {
            return -1;
        }
        int r = maketrans_set(result, PyUnicode_READ_CHAR(x, i), v);
        Py_DECREF(v);
        if (r < 0) {
            return -1;
        }
    }
    if (nargs > 2) {
        PyObject *z = args[2];
        for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(z); i++) {
            if (maketrans_set(result, PyUnicode_READ_CHAR(z, i), Py_None) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

static PyObject *
unicode_maketrans(PyObject *Py_UNUSED(null), PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("maketrans", nargs, 1, 3)) {
        return NULL;
    }
    PyObject *result = PyDict_New();
    if (result == NULL) {
        return NULL;
    }
    int r;
    if (nargs == 1) {
        if (!PyDict_CheckExact(args[0])) {
            PyErr_SetString(PyExc_TypeError,
                            "if you give only one argument to maketrans it must be a dict");
            r = -1;
        }
        else {
            r = maketrans_from_dict(args[0], result);
        }
    }
    else {
        r = maketrans_from_strings(args, nargs, result);
    }
    if (r < 0) {
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

/* ---- PyUnicode_BuildEncodingMap ----------------------------------------------------------------- */

/* For charmap encoders: {ord(decoding_table[i]): i}. */
PyObject *
PyUnicode_BuildEncodingMap(PyObject *string)
{
    if (!PyUnicode_Check(string) || PyUnicode_GET_LENGTH(string) != 256) {
        PyErr_BadArgument();
        return NULL;
    }
    PyObject *result = PyDict_New();
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < 256; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(string, i);
        if (c == 0xFFFE) {
            continue;
        }
        PyObject *v = PyLong_FromSsize_t(i);
        if (v == NULL || maketrans_set(result, c, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(v);
    }
    return result;
}

/* ---- The method table ----------------------------------------------------------------------------- */

#define FASTCALL(f) _PyCFunction_CAST(f), METH_FASTCALL
#define FASTCALL_KW(f) _PyCFunction_CAST(f), METH_FASTCALL | METH_KEYWORDS

PyMethodDef _PyUnicode_MethodTable[] = {
    {"encode", FASTCALL_KW(_PyUnicode_EncodeMethod),
     "Encode the string using the codec registered for encoding."},
    {"replace", FASTCALL_KW(unicode_replace),
     "Return a copy with all occurrences of substring old replaced by new."},
    {"split", FASTCALL_KW(unicode_split),
     "Return a list of the substrings in the string, using sep as the separator string."},
    {"rsplit", FASTCALL_KW(unicode_rsplit),
     "Return a list of the substrings in the string, using sep as the separator string."},
    {"join", unicode_join, METH_O, "Concatenate any number of strings."},
    {"capitalize", unicode_capitalize, METH_NOARGS, "Return a capitalized version of the string."},
    {"casefold", unicode_casefold, METH_NOARGS,
     "Return a version of the string suitable for caseless comparisons."},
    {"title", unicode_title, METH_NOARGS, "Return a version of the string where each word is titlecased."},
    {"center", FASTCALL(unicode_center), "Return a centered string of length width."},
    {"count", FASTCALL(unicode_count),
     "Return the number of non-overlapping occurrences of substring sub in string S[start:end]."},
    {"expandtabs", FASTCALL_KW(unicode_expandtabs),
     "Return a copy where all tab characters are expanded using spaces."},
    {"find", FASTCALL(unicode_find),
     "Return the lowest index in S where substring sub is found, such that sub is contained "
     "within S[start:end]."},
    {"partition", unicode_partition, METH_O,
     "Partition the string into three parts using the given separator."},
    {"index", FASTCALL(unicode_index),
     "Return the lowest index in S where substring sub is found, such that sub is contained "
     "within S[start:end]."},
    {"ljust", FASTCALL(unicode_ljust), "Return a left-justified string of length width."},
    {"lower", unicode_lower, METH_NOARGS, "Return a copy of the string converted to lowercase."},
    {"lstrip", FASTCALL(unicode_lstrip),
     "Return a copy of the string with leading whitespace removed."},
    {"rfind", FASTCALL(unicode_rfind),
     "Return the highest index in S where substring sub is found, such that sub is contained "
     "within S[start:end]."},
    {"rindex", FASTCALL(unicode_rindex),
     "Return the highest index in S where substring sub is found, such that sub is contained "
     "within S[start:end]."},
    {"rjust", FASTCALL(unicode_rjust), "Return a right-justified string of length width."},
    {"rstrip", FASTCALL(unicode_rstrip),
     "Return a copy of the string with trailing whitespace removed."},
    {"rpartition", unicode_rpartition, METH_O,
     "Partition the string into three parts using the given separator."},
    {"splitlines", FASTCALL_KW(unicode_splitlines),
     "Return a list of the lines in the string, breaking at line boundaries."},
    {"strip", FASTCALL(unicode_strip),
     "Return a copy of the string with leading and trailing whitespace removed."},
    {"swapcase", unicode_swapcase, METH_NOARGS,
     "Convert uppercase characters to lowercase and lowercase characters to uppercase."},
    {"translate", unicode_translate, METH_O,
     "Replace each character in the string using the given translation table."},
    {"upper", unicode_upper, METH_NOARGS, "Return a copy of the string converted to uppercase."},
    {"startswith", FASTCALL(unicode_startswith),
     "Return True if the string starts with the specified prefix, False otherwise."},
    {"endswith", FASTCALL(unicode_endswith),
     "Return True if the string ends with the specified suffix, False otherwise."},
    {"removeprefix", unicode_removeprefix, METH_O,
     "Return a str with the given prefix string removed if present."},
    {"removesuffix", unicode_removesuffix, METH_O,
     "Return a str with the given suffix string removed if present."},
    {"isascii", unicode_isascii, METH_NOARGS,
     "Return True if all characters in the string are ASCII, False otherwise."},
    {"islower", unicode_islower, METH_NOARGS,
     "Return True if the string is a lowercase string, False otherwise."},
    {"isupper", unicode_isupper, METH_NOARGS,
     "Return True if the string is an uppercase string, False otherwise."},
    {"istitle", unicode_istitle, METH_NOARGS,
     "Return True if the string is a title-cased string, False otherwise."},
    {"isspace", unicode_isspace, METH_NOARGS,
     "Return True if the string is a whitespace string, False otherwise."},
    {"isdecimal", unicode_isdecimal, METH_NOARGS,
     "Return True if the string is a decimal string, False otherwise."},
    {"isdigit", unicode_isdigit, METH_NOARGS,
     "Return True if the string is a digit string, False otherwise."},
    {"isnumeric", unicode_isnumeric, METH_NOARGS,
     "Return True if the string is a numeric string, False otherwise."},
    {"isalpha", unicode_isalpha, METH_NOARGS,
     "Return True if the string is an alphabetic string, False otherwise."},
    {"isalnum", unicode_isalnum, METH_NOARGS,
     "Return True if the string is an alpha-numeric string, False otherwise."},
    {"isidentifier", unicode_isidentifier, METH_NOARGS,
     "Return True if the string is a valid Python identifier, False otherwise."},
    {"isprintable", unicode_isprintable, METH_NOARGS,
     "Return True if all characters in the string are printable, False otherwise."},
    {"zfill", unicode_zfill, METH_O,
     "Pad a numeric string with zeros on the left, to fill a field of the given width."},
    {"format", _PyCFunction_CAST(_PyUnicode_FormatMethod), METH_VARARGS | METH_KEYWORDS,
     "Return a formatted version of the string, using substitutions from args and kwargs."},
    {"format_map", _PyUnicode_FormatMapMethod, METH_O,
     "Return a formatted version of the string, using substitutions from mapping."},
    {"__format__", _PyUnicode_DunderFormat, METH_O,
     "Return a formatted version of the string as described by format_spec."},
    {"maketrans", FASTCALL(unicode_maketrans) | METH_STATIC,
     "Return a translation table usable for str.translate()."},
    {"__sizeof__", _PyUnicode_SizeOf, METH_NOARGS,
     "Return the size of the string in memory, in bytes."},
    {"__getnewargs__", _PyUnicode_GetNewArgs, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};
