/* The methods bytes and bytearray share: they work on the receiver's raw
   data and build results through a constructor of the receiver's type
   (_PyBytes_Maker), so one implementation serves both.  Also the
   "bytes-like object" argument helpers. */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_bytesobject.h"
#include "pycore_codecs.h"

#define STRINGLIB_CHAR Py_UCS1
#define STRINGLIB(name) bytes_##name
#include "stringlib/search.h"

/* ---- Buffers ---------------------------------------------------------------------- */

static int
has_buffer(PyObject *obj)
{
    PyBufferProcs *bp = Py_TYPE(obj)->tp_as_buffer;
    return bp != NULL && bp->bf_getbuffer != NULL;
}

/* A "sub" argument of find/count/index/in: a byte value or bytes-like,
   seen as the bytes p[0:n] (the caller releases it with sub_release). */
typedef struct {
    Py_buffer view;
    int has_view;
    char byte;
    const char *p;
    Py_ssize_t n;
} subarg;

static int
byte_in_range(PyObject *obj, int *value)
{
    int overflow;
    long v = PyLong_AsLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow || v < 0 || v > 255) {
        PyErr_SetString(PyExc_ValueError, "byte must be in range(0, 256)");
        return -1;
    }
    *value = (int)v;
    return 0;
}

int
_Py_bytes_byte_value(PyObject *obj, int *value)
{
    PyObject *index = PyNumber_Index(obj);
    if (index == NULL) {
        return -1;
    }
    int r = byte_in_range(index, value);
    Py_DECREF(index);
    return r;
}

static int
sub_init(subarg *a, PyObject *arg, const char *bad_type_msg)
{
    a->has_view = 0;
    if (PyIndex_Check(arg)) {
        PyObject *index = PyNumber_Index(arg);
        int v;
        if (index == NULL) {
            return -1;
        }
        int r = byte_in_range(index, &v);
        Py_DECREF(index);
        if (r < 0) {
            return -1;
        }
        a->byte = (char)v;
        a->p = &a->byte;
        a->n = 1;
        return 0;
    }
    if (!has_buffer(arg)) {
        if (bad_type_msg != NULL) {
            PyErr_Format(PyExc_TypeError, bad_type_msg, Py_TYPE(arg)->tp_name);
        }
        else {
            PyErr_Format(PyExc_TypeError,
                         "argument should be integer or bytes-like object, not '%.200s'",
                         Py_TYPE(arg)->tp_name);
        }
        return -1;
    }
    if (PyObject_GetBuffer(arg, &a->view, PyBUF_SIMPLE) < 0) {
        return -1;
    }
    a->has_view = 1;
    a->p = a->view.buf;
    a->n = a->view.len;
    return 0;
}

static void
sub_release(subarg *a)
{
    if (a->has_view) {
        PyBuffer_Release(&a->view);
        a->has_view = 0;
    }
}

/* A bytes-like argument (no integers). */
static int
bytes_arg(PyObject *arg, Py_buffer *view)
{
    return PyObject_GetBuffer(arg, view, PyBUF_SIMPLE);
}

static PyObject *
unchanged(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len)
{
    if (self != NULL && PyBytes_CheckExact(self)) {
        return Py_NewRef(self);
    }
    return make(s, len);
}

/* ---- Character classes (ASCII only, as bytes methods are) -------------------------- */

#define ISSPACE(c) ((c) == ' ' || ((c) >= '\t' && (c) <= '\r'))
#define ISLOWER(c) ((c) >= 'a' && (c) <= 'z')
#define ISUPPER(c) ((c) >= 'A' && (c) <= 'Z')
#define ISALPHA(c) (ISLOWER(c) || ISUPPER(c))
#define ISDIGIT(c) ((c) >= '0' && (c) <= '9')
#define ISALNUM(c) (ISALPHA(c) || ISDIGIT(c))

#define DEFINE_ALL(NAME, TEST)                                       \
    PyObject *                                                       \
    _Py_bytes_##NAME(const char *str, Py_ssize_t len)                \
    {                                                                \
        const unsigned char *s = (const unsigned char *)str;         \
        if (len == 0) {                                              \
            Py_RETURN_FALSE;                                         \
        }                                                            \
        for (Py_ssize_t i = 0; i < len; i++) {                       \
            unsigned char c = s[i];                                  \
            if (!(TEST)) {                                           \
                Py_RETURN_FALSE;                                     \
            }                                                        \
        }                                                            \
        Py_RETURN_TRUE;                                              \
    }

DEFINE_ALL(isspace, ISSPACE(c))
DEFINE_ALL(isalpha, ISALPHA(c))
DEFINE_ALL(isalnum, ISALNUM(c))
DEFINE_ALL(isdigit, ISDIGIT(c))

PyObject *
_Py_bytes_isascii(const char *str, Py_ssize_t len)
{
    for (Py_ssize_t i = 0; i < len; i++) {
        if ((unsigned char)str[i] >= 128) {
            Py_RETURN_FALSE;
        }
    }
    Py_RETURN_TRUE;
}

PyObject *
_Py_bytes_islower(const char *str, Py_ssize_t len)
{
    int cased = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)str[i];
        if (ISUPPER(c)) {
            Py_RETURN_FALSE;
        }
        cased |= ISLOWER(c);
    }
    return PyBool_FromLong(cased);
}

PyObject *
_Py_bytes_isupper(const char *str, Py_ssize_t len)
{
    int cased = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)str[i];
        if (ISLOWER(c)) {
            Py_RETURN_FALSE;
        }
        cased |= ISUPPER(c);
    }
    return PyBool_FromLong(cased);
}

PyObject *
_Py_bytes_istitle(const char *str, Py_ssize_t len)
{
    int cased = 0, prev = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)str[i];
        if (ISUPPER(c)) {
            if (prev) {
                Py_RETURN_FALSE;
            }
            prev = cased = 1;
        }
        else if (ISLOWER(c)) {
            if (!prev) {
                Py_RETURN_FALSE;
            }
            prev = cased = 1;
        }
        else {
            prev = 0;
        }
    }
    return PyBool_FromLong(cased);
}

void
_Py_bytes_lower(char *result, const char *s, Py_ssize_t len)
{
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        result[i] = (char)(ISUPPER(c) ? c + 32 : c);
    }
}

void
_Py_bytes_upper(char *result, const char *s, Py_ssize_t len)
{
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        result[i] = (char)(ISLOWER(c) ? c - 32 : c);
    }
}

void
_Py_bytes_title(char *result, const char *s, Py_ssize_t len)
{
    int prev = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (ISLOWER(c) && !prev) {
            c -= 32;
        }
        else if (ISUPPER(c) && prev) {
            c += 32;
        }
        prev = ISALPHA(c);
        result[i] = (char)c;
    }
}

void
_Py_bytes_capitalize(char *result, const char *s, Py_ssize_t len)
{
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i == 0 && ISLOWER(c)) {
            c -= 32;
        }
        else if (i > 0 && ISUPPER(c)) {
            c += 32;
        }
        result[i] = (char)c;
    }
}

void
_Py_bytes_swapcase(char *result, const char *s, Py_ssize_t len)
{
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        result[i] = (char)(ISLOWER(c) ? c - 32 : ISUPPER(c) ? c + 32 : c);
    }
}

/* ---- Searching ------------------------------------------------------------------------- */

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

static int
parse_sub_args(PyObject *const *args, Py_ssize_t nargs, const char *fname, subarg *sub,
               Py_ssize_t *start, Py_ssize_t *end)
{
    if (!_PyArg_CheckPositional(fname, nargs, 1, 3)) {
        return -1;
    }
    *start = 0;
    *end = PY_SSIZE_T_MAX;
    if (nargs > 1 && !_PyEval_SliceIndex(args[1], start)) {
        return -1;
    }
    if (nargs > 2 && !_PyEval_SliceIndex(args[2], end)) {
        return -1;
    }
    return sub_init(sub, args[0], NULL);
}

static Py_ssize_t
find_in(const char *s, Py_ssize_t len, const char *p, Py_ssize_t n, Py_ssize_t start,
        Py_ssize_t end, int dir)
{
    adjust_indices(&start, &end, len);
    if (end - start < n) {
        return -1;
    }
    if (n == 0) {
        return dir > 0 ? start : end;
    }
    const Py_UCS1 *base = (const Py_UCS1 *)s + start;
    Py_ssize_t i = dir > 0 ? bytes_find(base, end - start, (const Py_UCS1 *)p, n)
                           : bytes_rfind(base, end - start, (const Py_UCS1 *)p, n);
    return i < 0 ? -1 : i + start;
}

PyObject *
_Py_bytes_find(const char *s, Py_ssize_t len, PyObject *const *args, Py_ssize_t nargs,
               const char *fname, int dir, int raise)
{
    subarg sub;
    Py_ssize_t start, end;
    if (parse_sub_args(args, nargs, fname, &sub, &start, &end) < 0) {
        return NULL;
    }
    Py_ssize_t i = find_in(s, len, sub.p, sub.n, start, end, dir);
    sub_release(&sub);
    if (i < 0 && raise) {
        PyErr_SetString(PyExc_ValueError, "subsection not found");
        return NULL;
    }
    return PyLong_FromSsize_t(i);
}

PyObject *
_Py_bytes_count(const char *s, Py_ssize_t len, PyObject *const *args, Py_ssize_t nargs)
{
    subarg sub;
    Py_ssize_t start, end, n;
    if (parse_sub_args(args, nargs, "count", &sub, &start, &end) < 0) {
        return NULL;
    }
    adjust_indices(&start, &end, len);
    if (end - start < sub.n) {
        n = 0;
    }
    else if (sub.n == 0) {
        n = end - start + 1;
    }
    else {
        n = bytes_count((const Py_UCS1 *)s + start, end - start, (const Py_UCS1 *)sub.p, sub.n,
                        PY_SSIZE_T_MAX);
    }
    sub_release(&sub);
    return PyLong_FromSsize_t(n);
}

static int
tailmatch(const char *s, Py_ssize_t len, PyObject *substr, Py_ssize_t start, Py_ssize_t end,
          int dir)
{
    Py_buffer view;
    if (bytes_arg(substr, &view) < 0) {
        return -1;
    }
    Py_ssize_t n = view.len;
    int res = 0;
    adjust_indices(&start, &end, len);
    if (end - start >= n) {
        Py_ssize_t off = dir > 0 ? end - n : start;
        res = n == 0 || memcmp(s + off, view.buf, (size_t)n) == 0;
    }
    PyBuffer_Release(&view);
    return res;
}

PyObject *
_Py_bytes_tailmatch(const char *s, Py_ssize_t len, PyObject *const *args, Py_ssize_t nargs,
                    const char *fname, int dir)
{
    if (!_PyArg_CheckPositional(fname, nargs, 1, 3)) {
        return NULL;
    }
    Py_ssize_t start = 0, end = PY_SSIZE_T_MAX;
    if (nargs > 1 && !_PyEval_SliceIndex(args[1], &start)) {
        return NULL;
    }
    if (nargs > 2 && !_PyEval_SliceIndex(args[2], &end)) {
        return NULL;
    }
    PyObject *sub = args[0];
    if (PyTuple_Check(sub)) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(sub); i++) {
            int r = tailmatch(s, len, PyTuple_GET_ITEM(sub, i), start, end, dir);
            if (r != 0) {
                return r < 0 ? NULL : Py_NewRef(Py_True);
            }
        }
        Py_RETURN_FALSE;
    }
    if (!has_buffer(sub)) {
        PyErr_Format(PyExc_TypeError,
                     "%s first arg must be bytes or a tuple of bytes, not %.100s", fname,
                     Py_TYPE(sub)->tp_name);
        return NULL;
    }
    int r = tailmatch(s, len, sub, start, end, dir);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

int
_Py_bytes_contains(const char *s, Py_ssize_t len, PyObject *arg)
{
    subarg sub;
    if (sub_init(&sub, arg, "a bytes-like object is required, not '%.100s'") < 0) {
        return -1;
    }
    Py_ssize_t i = find_in(s, len, sub.p, sub.n, 0, PY_SSIZE_T_MAX, 1);
    sub_release(&sub);
    return i >= 0;
}

/* ---- split, strip, partition ------------------------------------------------------------ */

static int
append_piece(PyObject *list, _PyBytes_Maker make, const char *s, Py_ssize_t n)
{
    PyObject *piece = make(s, n);
    if (piece == NULL) {
        return -1;
    }
    int r = PyList_Append(list, piece);
    Py_DECREF(piece);
    return r;
}

static PyObject *
split_whitespace(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len,
                 Py_ssize_t maxcount, int right)
{
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    if (!right) {
        Py_ssize_t i = 0;
        while (maxcount-- > 0) {
            while (i < len && ISSPACE((unsigned char)s[i])) {
                i++;
            }
            if (i == len) {
                break;
            }
            Py_ssize_t j = i;
            while (i < len && !ISSPACE((unsigned char)s[i])) {
                i++;
            }
            if (j == 0 && i == len && self != NULL && PyBytes_CheckExact(self)) {
                if (PyList_Append(list, self) < 0) {
                    goto error;
                }
                return list;
            }
            if (append_piece(list, make, s + j, i - j) < 0) {
                goto error;
            }
        }
        while (i < len && ISSPACE((unsigned char)s[i])) {
            i++;
        }
        if (i < len && append_piece(list, make, s + i, len - i) < 0) {
            goto error;
        }
        return list;
    }
    Py_ssize_t i = len - 1;
    while (maxcount-- > 0) {
        while (i >= 0 && ISSPACE((unsigned char)s[i])) {
            i--;
        }
        if (i < 0) {
            break;
        }
        Py_ssize_t j = i;
        while (i >= 0 && !ISSPACE((unsigned char)s[i])) {
            i--;
        }
        if (append_piece(list, make, s + i + 1, j - i) < 0) {
            goto error;
        }
    }
    while (i >= 0 && ISSPACE((unsigned char)s[i])) {
        i--;
    }
    if (i >= 0 && append_piece(list, make, s, i + 1) < 0) {
        goto error;
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
split_sep(_PyBytes_Maker make, const char *s, Py_ssize_t len, const char *sep,
          Py_ssize_t seplen, Py_ssize_t maxcount, int right)
{
    if (seplen == 0) {
        PyErr_SetString(PyExc_ValueError, "empty separator");
        return NULL;
    }
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    const Py_UCS1 *u = (const Py_UCS1 *)s, *p = (const Py_UCS1 *)sep;
    if (!right) {
        Py_ssize_t pos = 0;
        while (maxcount-- > 0) {
            Py_ssize_t j = bytes_find(u + pos, len - pos, p, seplen);
            if (j < 0) {
                break;
            }
            if (append_piece(list, make, s + pos, j) < 0) {
                goto error;
            }
            pos += j + seplen;
        }
        if (append_piece(list, make, s + pos, len - pos) < 0) {
            goto error;
        }
        return list;
    }
    Py_ssize_t end = len;
    while (maxcount-- > 0) {
        Py_ssize_t j = bytes_rfind(u, end, p, seplen);
        if (j < 0) {
            break;
        }
        if (append_piece(list, make, s + j + seplen, end - j - seplen) < 0) {
            goto error;
        }
        end = j;
    }
    if (append_piece(list, make, s, end) < 0 || PyList_Reverse(list) < 0) {
        goto error;
    }
    return list;
error:
    Py_DECREF(list);
    return NULL;
}

PyObject *
_Py_bytes_split(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len,
                PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int right)
{
    static const char *const kwlist[] = {"sep", "maxsplit", NULL};
    PyObject *out[2] = {NULL, NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, right ? "rsplit" : "split", kwlist,
                                      0, 2, 0, out)) {
        return NULL;
    }
    Py_ssize_t maxsplit = -1;
    if (out[1] != NULL) {
        maxsplit = PyNumber_AsSsize_t(out[1], PyExc_OverflowError);
        if (maxsplit == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    if (maxsplit < 0) {
        maxsplit = PY_SSIZE_T_MAX;
    }
    if (out[0] == NULL || out[0] == Py_None) {
        return split_whitespace(make, self, s, len, maxsplit, right);
    }
    Py_buffer view;
    if (bytes_arg(out[0], &view) < 0) {
        return NULL;
    }
    PyObject *res = split_sep(make, s, len, view.buf, view.len, maxsplit, right);
    PyBuffer_Release(&view);
    return res;
}

PyObject *
_Py_bytes_strip(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len,
                PyObject *const *args, Py_ssize_t nargs, const char *fname, int how)
{
    if (!_PyArg_CheckPositional(fname, nargs, 0, 1)) {
        return NULL;
    }
    Py_ssize_t i = 0, j = len;
    if (nargs == 0 || args[0] == Py_None) {
        if (how != 1) {
            while (i < len && ISSPACE((unsigned char)s[i])) {
                i++;
            }
        }
        if (how != 0) {
            while (j > i && ISSPACE((unsigned char)s[j - 1])) {
                j--;
            }
        }
    }
    else {
        Py_buffer view;
        if (bytes_arg(args[0], &view) < 0) {
            return NULL;
        }
        const char *set = view.buf;
        Py_ssize_t n = view.len;
        if (how != 1) {
            while (i < len && n > 0 && memchr(set, s[i], (size_t)n) != NULL) {
                i++;
            }
        }
        if (how != 0) {
            while (j > i && n > 0 && memchr(set, s[j - 1], (size_t)n) != NULL) {
                j--;
            }
        }
        PyBuffer_Release(&view);
    }
    if (i == 0 && j == len) {
        return unchanged(make, self, s, len);
    }
    return make(s + i, j - i);
}

PyObject *
_Py_bytes_partition(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len,
                    PyObject *sep, int right)
{
    Py_buffer view;
    if (bytes_arg(sep, &view) < 0) {
        return NULL;
    }
    PyObject *res = NULL, *a = NULL, *b = NULL, *c = NULL;
    if (view.len == 0) {
        PyErr_SetString(PyExc_ValueError, "empty separator");
        goto done;
    }
    Py_ssize_t i = find_in(s, len, view.buf, view.len, 0, PY_SSIZE_T_MAX, right ? -1 : 1);
    if (i < 0) {
        PyObject *whole = unchanged(make, self, s, len);
        PyObject *empty = make(NULL, 0);
        if (whole && empty) {
            res = right ? PyTuple_Pack(3, empty, empty, whole) : PyTuple_Pack(3, whole, empty, empty);
        }
        Py_XDECREF(whole);
        Py_XDECREF(empty);
        goto done;
    }
    a = make(s, i);
    b = make(view.buf, view.len);
    c = make(s + i + view.len, len - i - view.len);
    if (a && b && c) {
        res = PyTuple_Pack(3, a, b, c);
    }
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(c);
done:
    PyBuffer_Release(&view);
    return res;
}

/* ---- replace ---------------------------------------------------------------------------------- */

/* Growable char buffer for results of unknown size. */
typedef struct {
    char *p;
    Py_ssize_t len, cap;
} cbuf;

static int
cbuf_put(cbuf *b, const char *s, Py_ssize_t n)
{
    if (n > b->cap - b->len) {
        if (n > PY_SSIZE_T_MAX - b->len) {
            PyErr_NoMemory();
            return -1;
        }
        Py_ssize_t need = b->len + n, cap = b->cap < 64 ? 64 : b->cap;
        while (cap < need) {
            cap = cap > PY_SSIZE_T_MAX / 2 ? need : cap * 2;
        }
        char *p = PyMem_Realloc(b->p, (size_t)cap);
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->p = p;
        b->cap = cap;
    }
    if (n > 0) {
        memcpy(b->p + b->len, s, (size_t)n);
    }
    b->len += n;
    return 0;
}

static PyObject *
cbuf_finish(cbuf *b, _PyBytes_Maker make)
{
    PyObject *res = make(b->p, b->len);
    PyMem_Free(b->p);
    b->p = NULL;
    return res;
}

static PyObject *
replace_impl(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len,
             const char *old, Py_ssize_t oldlen, const char *new, Py_ssize_t newlen,
             Py_ssize_t maxcount)
{
    if (maxcount < 0) {
        maxcount = PY_SSIZE_T_MAX;
    }
    if (maxcount == 0 || oldlen > len || (oldlen == 0 && newlen == 0)) {
        return unchanged(make, self, s, len);
    }
    cbuf b = {NULL, 0, 0};
    Py_ssize_t pos = 0, found = 0;
    if (oldlen == 0) {
        for (; pos < len && maxcount > 0; pos++, maxcount--) {
            if (cbuf_put(&b, new, newlen) < 0 || cbuf_put(&b, s + pos, 1) < 0) {
                goto error;
            }
        }
        if (maxcount > 0 && cbuf_put(&b, new, newlen) < 0) {
            goto error;
        }
        if (cbuf_put(&b, s + pos, len - pos) < 0) {
            goto error;
        }
        return cbuf_finish(&b, make);
    }
    while (maxcount-- > 0) {
        Py_ssize_t j = bytes_find((const Py_UCS1 *)s + pos, len - pos, (const Py_UCS1 *)old, oldlen);
        if (j < 0) {
            break;
        }
        found++;
        if (cbuf_put(&b, s + pos, j) < 0 || cbuf_put(&b, new, newlen) < 0) {
            goto error;
        }
        pos += j + oldlen;
    }
    if (found == 0) {
        PyMem_Free(b.p);
        return unchanged(make, self, s, len);
    }
    if (cbuf_put(&b, s + pos, len - pos) < 0) {
        goto error;
    }
    return cbuf_finish(&b, make);
error:
    PyMem_Free(b.p);
    return NULL;
}

PyObject *
_Py_bytes_replace(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len,
                  PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (!_PyArg_CheckPositional("replace", nargs, 2, 3)) {
        return NULL;
    }
    Py_ssize_t count = -1;
    if (nargs > 2) {
        count = PyNumber_AsSsize_t(args[2], PyExc_OverflowError);
        if (count == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_buffer vold, vnew;
    if (bytes_arg(args[0], &vold) < 0) {
        return NULL;
    }
    if (bytes_arg(args[1], &vnew) < 0) {
        PyBuffer_Release(&vold);
        return NULL;
    }
    PyObject *res = replace_impl(make, self, s, len, vold.buf, vold.len, vnew.buf, vnew.len,
                                 count);
    PyBuffer_Release(&vold);
    PyBuffer_Release(&vnew);
    return res;
}

/* ---- splitlines, expandtabs, padding ------------------------------------------------------------ */

PyObject *
_Py_bytes_splitlines(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len,
                     PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"keepends", NULL};
    PyObject *out[1] = {NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "splitlines", kwlist, 0, 1, 0, out)) {
        return NULL;
    }
    int keepends = 0;
    if (out[0] != NULL && (keepends = PyObject_IsTrue(out[0])) < 0) {
        return NULL;
    }
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    Py_ssize_t i = 0;
    while (i < len) {
        Py_ssize_t j = i;
        while (i < len && s[i] != '\n' && s[i] != '\r') {
            i++;
        }
        Py_ssize_t eol = i;
        if (i < len) {
            i += (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n') ? 2 : 1;
            if (keepends) {
                eol = i;
            }
        }
        int r = (j == 0 && eol == len && self != NULL && PyBytes_CheckExact(self))
                    ? PyList_Append(list, self)
                    : append_piece(list, make, s + j, eol - j);
        if (r < 0) {
            Py_DECREF(list);
            return NULL;
        }
    }
    return list;
}

PyObject *
_Py_bytes_expandtabs(_PyBytes_Maker make, const char *s, Py_ssize_t len, PyObject *const *args,
                     Py_ssize_t nargs, PyObject *kwnames)
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
    cbuf b = {NULL, 0, 0};
    Py_ssize_t col = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '\t') {
            if (tabsize > 0) {
                Py_ssize_t n = tabsize - (col % tabsize);
                for (Py_ssize_t k = 0; k < n; k++) {
                    if (cbuf_put(&b, " ", 1) < 0) {
                        PyMem_Free(b.p);
                        return NULL;
                    }
                }
                col += n;
            }
            continue;
        }
        if (cbuf_put(&b, &c, 1) < 0) {
            PyMem_Free(b.p);
            return NULL;
        }
        col = (c == '\n' || c == '\r') ? 0 : col + 1;
    }
    return cbuf_finish(&b, make);
}

PyObject *
_Py_bytes_pad(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len,
              PyObject *const *args, Py_ssize_t nargs, const char *fname, int how)
{
    if (!_PyArg_CheckPositional(fname, nargs, 1, 2)) {
        return NULL;
    }
    Py_ssize_t width = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
    if (width == -1 && PyErr_Occurred()) {
        return NULL;
    }
    char fill = ' ';
    if (nargs > 1) {
        PyObject *f = args[1];
        if (PyBytes_Check(f) && PyBytes_GET_SIZE(f) == 1) {
            fill = PyBytes_AS_STRING(f)[0];
        }
        else if (PyByteArray_Check(f) && PyByteArray_GET_SIZE(f) == 1) {
            fill = PyByteArray_AS_STRING(f)[0];
        }
        else {
            PyErr_Format(PyExc_TypeError,
                         "%s() argument 2 must be a byte string of length 1, not %.50s", fname,
                         Py_TYPE(f)->tp_name);
            return NULL;
        }
    }
    if (width <= len) {
        return unchanged(make, self, s, len);
    }
    Py_ssize_t marg = width - len, left;
    if (how == 0) {
        left = 0;
    }
    else if (how == 1) {
        left = marg;
    }
    else {
        left = marg / 2 + (marg & width & 1);
    }
    PyObject *res = make(NULL, width);
    if (res == NULL) {
        return NULL;
    }
    char *p = PyBytes_Check(res) ? PyBytes_AS_STRING(res) : PyByteArray_AS_STRING(res);
    memset(p, fill, (size_t)left);
    memcpy(p + left, s, (size_t)len);
    memset(p + left + len, fill, (size_t)(marg - left));
    return res;
}

PyObject *
_Py_bytes_zfill(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len,
                PyObject *arg)
{
    Py_ssize_t width = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (width == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (width <= len) {
        return unchanged(make, self, s, len);
    }
    Py_ssize_t fill = width - len;
    PyObject *res = make(NULL, width);
    if (res == NULL) {
        return NULL;
    }
    char *p = PyBytes_Check(res) ? PyBytes_AS_STRING(res) : PyByteArray_AS_STRING(res);
    memset(p, '0', (size_t)fill);
    memcpy(p + fill, s, (size_t)len);
    if (p[fill] == '+' || p[fill] == '-') {
        p[0] = p[fill];
        p[fill] = '0';
    }
    return res;
}

PyObject *
_Py_bytes_affix(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len,
                PyObject *arg, int suffix)
{
    Py_buffer view;
    if (bytes_arg(arg, &view) < 0) {
        return NULL;
    }
    Py_ssize_t n = view.len;
    int match = n > 0 && n <= len &&
                memcmp(suffix ? s + len - n : s, view.buf, (size_t)n) == 0;
    PyBuffer_Release(&view);
    if (!match) {
        return unchanged(make, self, s, len);
    }
    return suffix ? make(s, len - n) : make(s + n, len - n);
}

/* ---- translate, maketrans --------------------------------------------------------------------- */

PyObject *
_Py_bytes_translate(_PyBytes_Maker make, PyObject *self, const char *s, Py_ssize_t len,
                    PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const kwlist[] = {"", "delete", NULL};
    PyObject *out[2] = {NULL, NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "translate", kwlist, 1, 2, 0, out)) {
        return NULL;
    }
    Py_buffer table = {0}, del = {0};
    int have_table = out[0] != Py_None, have_del = out[1] != NULL;
    if (have_table) {
        if (bytes_arg(out[0], &table) < 0) {
            return NULL;
        }
        if (table.len != 256) {
            PyErr_SetString(PyExc_ValueError, "translation table must be 256 characters long");
            PyBuffer_Release(&table);
            return NULL;
        }
    }
    if (have_del && bytes_arg(out[1], &del) < 0) {
        if (have_table) {
            PyBuffer_Release(&table);
        }
        return NULL;
    }
    char deleted[256] = {0};
    for (Py_ssize_t i = 0; have_del && i < del.len; i++) {
        deleted[((unsigned char *)del.buf)[i]] = 1;
    }
    cbuf b = {NULL, 0, 0};
    int changed = 0;
    PyObject *res = NULL;
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (deleted[c]) {
            changed = 1;
            continue;
        }
        char t = have_table ? ((char *)table.buf)[c] : (char)c;
        changed |= t != (char)c;
        if (cbuf_put(&b, &t, 1) < 0) {
            goto done;
        }
    }
    if (!changed && self != NULL && PyBytes_CheckExact(self)) {
        res = Py_NewRef(self);
    }
    else {
        res = make(b.p, b.len);
    }
done:
    PyMem_Free(b.p);
    if (have_table) {
        PyBuffer_Release(&table);
    }
    if (have_del) {
        PyBuffer_Release(&del);
    }
    return res;
}

PyObject *
_Py_bytes_maketrans(PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("maketrans", nargs, 2, 2)) {
        return NULL;
    }
    Py_buffer frm, to;
    if (bytes_arg(args[0], &frm) < 0) {
        return NULL;
    }
    if (bytes_arg(args[1], &to) < 0) {
        PyBuffer_Release(&frm);
        return NULL;
    }
    PyObject *res = NULL;
    if (frm.len != to.len) {
        PyErr_SetString(PyExc_ValueError, "maketrans arguments must have same length");
        goto done;
    }
    res = PyBytes_FromStringAndSize(NULL, 256);
    if (res == NULL) {
        goto done;
    }
    char *p = PyBytes_AS_STRING(res);
    for (int i = 0; i < 256; i++) {
        p[i] = (char)i;
    }
    for (Py_ssize_t i = 0; i < frm.len; i++) {
        p[((unsigned char *)frm.buf)[i]] = ((char *)to.buf)[i];
    }
done:
    PyBuffer_Release(&frm);
    PyBuffer_Release(&to);
    return res;
}

/* ---- join ----------------------------------------------------------------------------------------- */

PyObject *
_Py_bytes_join(_PyBytes_Maker make, const char *sep, Py_ssize_t seplen, PyObject *iterable)
{
    PyObject *seq = PySequence_Fast(iterable, "can only join an iterable");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    cbuf b = {NULL, 0, 0};
    PyObject *res = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_buffer view;
        if (!has_buffer(items[i])) {
            PyErr_Format(PyExc_TypeError,
                         "sequence item %zd: expected a bytes-like object, %.80s found", i,
                         Py_TYPE(items[i])->tp_name);
            goto done;
        }
        if (PyObject_GetBuffer(items[i], &view, PyBUF_SIMPLE) < 0) {
            goto done;
        }
        int r = (i > 0 ? cbuf_put(&b, sep, seplen) : 0);
        if (r == 0) {
            r = cbuf_put(&b, view.buf, view.len);
        }
        PyBuffer_Release(&view);
        if (r < 0) {
            goto done;
        }
    }
    res = make(b.p, b.len);
done:
    PyMem_Free(b.p);
    Py_DECREF(seq);
    return res;
}

/* ---- hex / fromhex ------------------------------------------------------------------------------- */

PyObject *
_Py_bytes_hex(const char *s, Py_ssize_t len, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames)
{
    static const char *const kwlist[] = {"sep", "bytes_per_sep", NULL};
    static const char hexdigits[] = "0123456789abcdef";
    PyObject *out[2] = {NULL, NULL};
    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "hex", kwlist, 0, 2, 0, out)) {
        return NULL;
    }
    char sep = 0;
    int per = 1;
    if (out[0] != NULL) {
        PyObject *so = out[0];
        Py_ssize_t sl;
        const char *sp;
        if (PyUnicode_Check(so)) {
            sl = PyUnicode_GET_LENGTH(so);
            if (sl == 1 && PyUnicode_READ_CHAR(so, 0) >= 128) {
                PyErr_SetString(PyExc_ValueError, "sep must be ASCII.");
                return NULL;
            }
            sp = sl == 1 ? (const char *)PyUnicode_DATA(so) : NULL;
        }
        else if (PyBytes_Check(so)) {
            sl = PyBytes_GET_SIZE(so);
            sp = PyBytes_AS_STRING(so);
        }
        else {
            PyErr_Format(PyExc_TypeError, "object of type '%.200s' has no len()",
                         Py_TYPE(so)->tp_name);
            return NULL;
        }
        if (sl != 1) {
            PyErr_SetString(PyExc_ValueError, "sep must be length 1.");
            return NULL;
        }
        sep = sp[0];
        if ((unsigned char)sep >= 128) {
            PyErr_SetString(PyExc_ValueError, "sep must be ASCII.");
            return NULL;
        }
    }
    if (out[1] != NULL) {
        per = PyLong_AsInt(out[1]);
        if (per == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_ssize_t abs_per = per < 0 ? -(Py_ssize_t)per : per;
    Py_ssize_t nseps = (sep && abs_per > 0 && len > 0) ? (len - 1) / abs_per : 0;
    if (len > (PY_SSIZE_T_MAX - nseps) / 2) {
        return PyErr_NoMemory();
    }
    PyObject *res = PyUnicode_New(len * 2 + nseps, 127);
    if (res == NULL) {
        return NULL;
    }
    char *o = (char *)PyUnicode_DATA(res);
    for (Py_ssize_t i = 0; i < len; i++) {
        /* Separator positions count from the right for a positive
           bytes_per_sep, from the left for a negative one. */
        if (i > 0 && nseps > 0) {
            Py_ssize_t k = per > 0 ? len - i : i;
            if (k % abs_per == 0) {
                *o++ = sep;
            }
        }
        unsigned char c = (unsigned char)s[i];
        *o++ = hexdigits[c >> 4];
        *o++ = hexdigits[c & 15];
    }
    return res;
}

PyObject *
_Py_bytes_fromhex(_PyBytes_Maker make, PyObject *string)
{
    if (!PyUnicode_Check(string)) {
        PyErr_Format(PyExc_TypeError, "fromhex() argument must be str, not %.50s",
                     Py_TYPE(string)->tp_name);
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(string), i = 0;
    cbuf b = {NULL, 0, 0};
    while (i < len) {
        Py_UCS4 c = PyUnicode_READ_CHAR(string, i);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
            i++;
            continue;
        }
        int hi = c < 128 ? (ISDIGIT(c) ? (int)(c - '0') : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (int)((c | 0x20) - 'a' + 10) : -1) : -1;
        if (hi < 0) {
            goto invalid;
        }
        if (i + 1 >= len) {
            i++;
            goto invalid;
        }
        Py_UCS4 c2 = PyUnicode_READ_CHAR(string, i + 1);
        int lo = c2 < 128 ? (ISDIGIT(c2) ? (int)(c2 - '0') : (c2 | 0x20) >= 'a' && (c2 | 0x20) <= 'f' ? (int)((c2 | 0x20) - 'a' + 10) : -1) : -1;
        if (lo < 0) {
            i++;
            goto invalid;
        }
        char byte = (char)(hi * 16 + lo);
        if (cbuf_put(&b, &byte, 1) < 0) {
            PyMem_Free(b.p);
            return NULL;
        }
        i += 2;
    }
    return cbuf_finish(&b, make);
invalid:
    PyMem_Free(b.p);
    PyErr_Format(PyExc_ValueError, "non-hexadecimal number found in fromhex() arg at position %zd",
                 i);
    return NULL;
}

/* ---- decode, compare, repr ---------------------------------------------------------------------- */

PyObject *
_Py_bytes_decode(const char *s, Py_ssize_t len, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames)
{
    const char *encoding, *errors;
    if (_PyCodec_ParseEncodingArgs(args, nargs, kwnames, "decode", &encoding, &errors) < 0) {
        return NULL;
    }
    return PyUnicode_Decode(s, len, encoding ? encoding : "utf-8", errors);
}

PyObject *
_Py_bytes_richcompare(const char *a, Py_ssize_t alen, const char *b, Py_ssize_t blen, int op)
{
    if ((op == Py_EQ || op == Py_NE) && alen != blen) {
        return PyBool_FromLong(op == Py_NE);
    }
    Py_ssize_t n = alen < blen ? alen : blen;
    int c = n > 0 ? memcmp(a, b, (size_t)n) : 0;
    if (c == 0) {
        c = alen < blen ? -1 : alen > blen ? 1 : 0;
    }
    Py_RETURN_RICHCOMPARE(c, 0, op);
}

PyObject *
_Py_bytes_repr(const char *s, Py_ssize_t len, int smartquotes, const char *prefix,
               const char *suffix)
{
    static const char hexdigits[] = "0123456789abcdef";
    char quote = '\'';
    if (smartquotes && memchr(s, '\'', (size_t)len) != NULL && memchr(s, '"', (size_t)len) == NULL) {
        quote = '"';
    }
    /* bytearray's repr (smartquotes == 2) escapes ' even inside "...",
       as CPython's does. */
    char also = smartquotes == 2 ? '\'' : quote;
    Py_ssize_t plen = (Py_ssize_t)strlen(prefix), slen = (Py_ssize_t)strlen(suffix);
    Py_ssize_t outlen = plen + slen + 3;
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        Py_ssize_t w = (c == quote || c == also || c == '\\' || c == '\t' || c == '\n' || c == '\r') ? 2
                       : (c < 0x20 || c >= 0x7f) ? 4
                                                 : 1;
        if (outlen > PY_SSIZE_T_MAX - w) {
            PyErr_SetString(PyExc_OverflowError, "bytes object is too large to make repr");
            return NULL;
        }
        outlen += w;
    }
    PyObject *res = PyUnicode_New(outlen, 127);
    if (res == NULL) {
        return NULL;
    }
    char *o = (char *)PyUnicode_DATA(res);
    memcpy(o, prefix, (size_t)plen);
    o += plen;
    *o++ = 'b';
    *o++ = quote;
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == quote || c == also || c == '\\') {
            *o++ = '\\';
            *o++ = (char)c;
        }
        else if (c == '\t' || c == '\n' || c == '\r') {
            *o++ = '\\';
            *o++ = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
        }
        else if (c < 0x20 || c >= 0x7f) {
            *o++ = '\\';
            *o++ = 'x';
            *o++ = hexdigits[c >> 4];
            *o++ = hexdigits[c & 15];
        }
        else {
            *o++ = (char)c;
        }
    }
    *o++ = quote;
    memcpy(o, suffix, (size_t)slen);
    return res;
}

/* ---- bytes(iterable) -------------------------------------------------------------------------------- */

int
_Py_bytes_from_iterable(PyObject *x, char **pbuf, Py_ssize_t *plen)
{
    PyObject *it = PyObject_GetIter(x);
    if (it == NULL) {
        return -1;
    }
    cbuf b = {NULL, 0, 0};
    for (;;) {
        PyObject *item = PyIter_Next(it);
        if (item == NULL) {
            if (PyErr_Occurred()) {
                goto error;
            }
            break;
        }
        int v;
        int r = _Py_bytes_byte_value(item, &v);
        Py_DECREF(item);
        if (r < 0) {
            goto error;
        }
        char c = (char)v;
        if (cbuf_put(&b, &c, 1) < 0) {
            goto error;
        }
    }
    Py_DECREF(it);
    *pbuf = b.p;
    *plen = b.len;
    return 0;
error:
    Py_DECREF(it);
    PyMem_Free(b.p);
    return -1;
}
