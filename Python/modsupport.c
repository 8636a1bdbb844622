/* Building Python values from C: Py_BuildValue and friends.

   The format mirrors PyArg_ParseTuple's: "i" an int, "s" a C string,
   "O" an object (new reference taken), "N" an object (reference stolen),
   "(...)" a tuple, "[...]" a list, "{...}" a dict of key/value pairs.
   Several top-level units make a tuple, one makes just that value, none
   makes None.

   On error the remaining arguments are still walked so that every "N"
   object is released, as callers rely on "N" always stealing. */
#include "Python.h"
#include "pycore_modsupport.h"

static PyObject *do_mkvalue(const char **p_format, va_list *p_va);

/* Number of units before `endchar` at this nesting level, or -1. */
static Py_ssize_t
countformat(const char *format, char endchar)
{
    Py_ssize_t count = 0;
    int level = 0;
    while (level > 0 || *format != endchar) {
        switch (*format) {
        case '\0':
            PyErr_SetString(PyExc_SystemError, "unmatched paren in format");
            return -1;
        case '(':
        case '[':
        case '{':
            if (level == 0) {
                count++;
            }
            level++;
            break;
        case ')':
        case ']':
        case '}':
            level--;
            break;
        case '#':
        case '&':
        case ',':
        case ':':
        case ' ':
        case '\t':
            break;
        default:
            if (level == 0) {
                count++;
            }
        }
        format++;
    }
    return count;
}

/* Walk n units without building them, releasing "N" arguments. */
static void
do_ignore(const char **p_format, va_list *p_va, char endchar, Py_ssize_t n)
{
    PyObject *v = PyTuple_New(n);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *exc = PyErr_GetRaisedException();
        PyObject *w = do_mkvalue(p_format, p_va);
        PyErr_SetRaisedException(exc);
        if (w != NULL) {
            if (v != NULL) {
                PyTuple_SET_ITEM(v, i, w);
            }
            else {
                Py_DECREF(w);
            }
        }
    }
    Py_XDECREF(v);
    if (**p_format != endchar) {
        PyErr_SetString(PyExc_SystemError, "Unmatched paren in format");
        return;
    }
    if (endchar) {
        ++*p_format;
    }
}

/* Tuples and lists are built the same way; only the container and its
   item setter differ. */
static PyObject *
do_mkseq(const char **p_format, va_list *p_va, char endchar, Py_ssize_t n, int as_list)
{
    if (n < 0) {
        return NULL;
    }
    PyObject *v = as_list ? PyList_New(n) : PyTuple_New(n);
    if (v == NULL) {
        do_ignore(p_format, p_va, endchar, n);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *w = do_mkvalue(p_format, p_va);
        if (w == NULL) {
            do_ignore(p_format, p_va, endchar, n - i - 1);
            Py_DECREF(v);
            return NULL;
        }
        if (as_list) {
            PyList_SET_ITEM(v, i, w);
        }
        else {
            PyTuple_SET_ITEM(v, i, w);
        }
    }
    if (**p_format != endchar) {
        Py_DECREF(v);
        PyErr_SetString(PyExc_SystemError, "Unmatched paren in format");
        return NULL;
    }
    if (endchar) {
        ++*p_format;
    }
    return v;
}

static PyObject *
do_mktuple(const char **p_format, va_list *p_va, char endchar, Py_ssize_t n)
{
    return do_mkseq(p_format, p_va, endchar, n, 0);
}

static PyObject *
do_mklist(const char **p_format, va_list *p_va, char endchar, Py_ssize_t n)
{
    return do_mkseq(p_format, p_va, endchar, n, 1);
}

static PyObject *
do_mkdict(const char **p_format, va_list *p_va, char endchar, Py_ssize_t n)
{
    if (n < 0) {
        return NULL;
    }
    if (n % 2) {
        PyErr_SetString(PyExc_SystemError, "Bad dict format");
        do_ignore(p_format, p_va, endchar, n);
        return NULL;
    }
    PyObject *d = PyDict_New();
    if (d == NULL) {
        do_ignore(p_format, p_va, endchar, n);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i += 2) {
        PyObject *k = do_mkvalue(p_format, p_va);
        if (k == NULL) {
            do_ignore(p_format, p_va, endchar, n - i - 1);
            Py_DECREF(d);
            return NULL;
        }
        PyObject *v = do_mkvalue(p_format, p_va);
        if (v == NULL || PyDict_SetItem(d, k, v) < 0) {
            do_ignore(p_format, p_va, endchar, n - i - 2);
            Py_DECREF(k);
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(v);
    }
    if (**p_format != endchar) {
        Py_DECREF(d);
        PyErr_SetString(PyExc_SystemError, "Unmatched paren in format");
        return NULL;
    }
    if (endchar) {
        ++*p_format;
    }
    return d;
}

/* "s", "s#", "z", "U", "y": a C string with an optional length. */
static PyObject *
mk_string(int c, const char **p_format, va_list *p_va)
{
    const char *str = va_arg(*p_va, const char *);
    Py_ssize_t n = -1;
    if (**p_format == '#') {
        ++*p_format;
        n = va_arg(*p_va, Py_ssize_t);
    }
    if (str == NULL) {
        Py_RETURN_NONE;
    }
    if (n < 0) {
        size_t m = strlen(str);
        if (m > PY_SSIZE_T_MAX) {
            PyErr_SetString(PyExc_OverflowError, "string too long for Python string");
            return NULL;
        }
        n = (Py_ssize_t)m;
    }
    if (c == 'y') {
        return PyBytes_FromStringAndSize(str, n);
    }
    return PyUnicode_FromStringAndSize(str, n);
}

static PyObject *
mk_object(int c, const char **p_format, va_list *p_va)
{
    if (**p_format == '&') {
        typedef PyObject *(*converter)(void *);
        converter func = va_arg(*p_va, converter);
        void *arg = va_arg(*p_va, void *);
        ++*p_format;
        return func(arg);
    }
    PyObject *v = va_arg(*p_va, PyObject *);
    if (v == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_SystemError, "NULL object passed to Py_BuildValue");
        }
        return NULL;
    }
    if (c != 'N') {
        Py_INCREF(v);
    }
    return v;
}

static PyObject *
mk_number(int c, va_list *p_va)
{
    switch (c) {
    case 'b':
    case 'B':
    case 'h':
    case 'i':
        return PyLong_FromLong((long)va_arg(*p_va, int));
    case 'H':
        return PyLong_FromLong((long)va_arg(*p_va, unsigned int));
    case 'I':
        return PyLong_FromUnsignedLong((unsigned long)va_arg(*p_va, unsigned int));
    case 'n':
        return PyLong_FromSsize_t(va_arg(*p_va, Py_ssize_t));
    case 'l':
        return PyLong_FromLong(va_arg(*p_va, long));
    case 'k':
        return PyLong_FromUnsignedLong(va_arg(*p_va, unsigned long));
    case 'L':
        return PyLong_FromLongLong(va_arg(*p_va, long long));
    case 'K':
        return PyLong_FromUnsignedLongLong(va_arg(*p_va, unsigned long long));
    case 'f':
    case 'd':
        return PyFloat_FromDouble(va_arg(*p_va, double));
    case 'D':
        return PyComplex_FromCComplex(*(va_arg(*p_va, Py_complex *)));
    case 'c': {
        char p[1];
        p[0] = (char)va_arg(*p_va, int);
        return PyBytes_FromStringAndSize(p, 1);
    }
    case 'C':
        return PyUnicode_FromOrdinal(va_arg(*p_va, int));
    default:
        PyErr_SetString(PyExc_SystemError, "bad format char passed to Py_BuildValue");
        return NULL;
    }
}

static PyObject *
do_mkvalue(const char **p_format, va_list *p_va)
{
    for (;;) {
        int c = (unsigned char)*(*p_format)++;
        switch (c) {
        case '(':
            return do_mktuple(p_format, p_va, ')', countformat(*p_format, ')'));
        case '[':
            return do_mklist(p_format, p_va, ']', countformat(*p_format, ']'));
        case '{':
            return do_mkdict(p_format, p_va, '}', countformat(*p_format, '}'));
        case 's':
        case 'z':
        case 'U':
        case 'y':
            return mk_string(c, p_format, p_va);
        case 'N':
        case 'S':
        case 'O':
            return mk_object(c, p_format, p_va);
        case ':':
        case ',':
        case ' ':
        case '\t':
            break;
        default:
            return mk_number(c, p_va);
        }
    }
}

static PyObject *
va_build_value(const char *format, va_list va)
{
    const char *f = format;
    Py_ssize_t n = countformat(f, '\0');
    if (n < 0) {
        return NULL;
    }
    if (n == 0) {
        Py_RETURN_NONE;
    }
    va_list lva;
    va_copy(lva, va);
    PyObject *retval;
    if (n == 1) {
        retval = do_mkvalue(&f, &lva);
    }
    else {
        retval = do_mktuple(&f, &lva, '\0', n);
    }
    va_end(lva);
    return retval;
}

PyObject *
Py_BuildValue(const char *format, ...)
{
    va_list va;
    va_start(va, format);
    PyObject *retval = va_build_value(format, va);
    va_end(va);
    return retval;
}

PyObject *
Py_VaBuildValue(const char *format, va_list va)
{
    return va_build_value(format, va);
}

PyObject **
_Py_VaBuildStack(PyObject **small_stack, Py_ssize_t small_stack_len, const char *format,
                 va_list va, Py_ssize_t *p_nargs)
{
    Py_ssize_t n = countformat(format, '\0');
    if (n < 0) {
        *p_nargs = 0;
        return NULL;
    }
    PyObject **stack = small_stack;
    if (n > small_stack_len) {
        stack = PyMem_New(PyObject *, n);
        if (stack == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    va_list lva;
    va_copy(lva, va);
    const char *f = format;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *w = do_mkvalue(&f, &lva);
        if (w == NULL) {
            do_ignore(&f, &lva, '\0', n - i - 1);
            for (Py_ssize_t j = 0; j < i; j++) {
                Py_DECREF(stack[j]);
            }
            if (stack != small_stack) {
                PyMem_Free(stack);
            }
            va_end(lva);
            return NULL;
        }
        stack[i] = w;
    }
    va_end(lva);
    if (*f != '\0') {
        for (Py_ssize_t j = 0; j < n; j++) {
            Py_DECREF(stack[j]);
        }
        if (stack != small_stack) {
            PyMem_Free(stack);
        }
        PyErr_SetString(PyExc_SystemError, "Unmatched paren in format");
        return NULL;
    }
    *p_nargs = n;
    return stack;
}
