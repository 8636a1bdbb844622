/* Formatting text: PyUnicode_FromFormat (C printf-style), `str % args`
   (PyUnicode_Format), str.format / str.format_map and str.__format__.

   Numbers are formatted by asking the number types: integers through
   PyNumber_ToBase (digits in base 8, 10 or 16), floats through
   PyOS_double_to_string; the padding, signs and prefixes of %-formatting
   are applied here. */

#include "Python.h"
#include "pycore_object.h"
#include "pycore_unicodeobject.h"
#include "pycore_format.h"

/* ---- Shared padding helpers ---------------------------------------------------------- */

static int
write_fill(_PyUnicodeWriter *w, Py_UCS4 fill, Py_ssize_t n)
{
    if (n <= 0) {
        return 0;
    }
    if (_PyUnicodeWriter_Prepare(w, n, fill) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyUnicode_WRITE(w->kind, w->data, w->pos + i, fill);
    }
    w->pos += n;
    return 0;
}

/* str[:precision] padded to width with spaces (left-justified if `left`). */
static int
write_padded_str(_PyUnicodeWriter *w, PyObject *str, Py_ssize_t width, Py_ssize_t precision,
                 int left)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    if (precision >= 0 && precision < len) {
        len = precision;
    }
    Py_ssize_t pad = width > len ? width - len : 0;
    if (!left && write_fill(w, ' ', pad) < 0) {
        return -1;
    }
    if (len == PyUnicode_GET_LENGTH(str)) {
        if (_PyUnicodeWriter_WriteStr(w, str) < 0) {
            return -1;
        }
    }
    else if (_PyUnicodeWriter_WriteSubstring(w, str, 0, len) < 0) {
        return -1;
    }
    if (left && write_fill(w, ' ', pad) < 0) {
        return -1;
    }
    return 0;
}

/* A number laid out as sign, prefix, zeros, digits within `width`. */
typedef struct {
    char sign;          /* 0, '-', '+' or ' ' */
    const char *prefix; /* "", "0x", "0X", "0o" */
    const char *digits; /* ASCII */
    Py_ssize_t ndigits;
    Py_ssize_t min_digits; /* zero-extend digits to this many */
} number_parts;

static int
write_number(_PyUnicodeWriter *w, const number_parts *p, Py_ssize_t width, int left,
             int zero_pad)
{
    Py_ssize_t nzeros = p->min_digits > p->ndigits ? p->min_digits - p->ndigits : 0;
    Py_ssize_t plen = (Py_ssize_t)strlen(p->prefix);
    Py_ssize_t total = (p->sign ? 1 : 0) + plen + nzeros + p->ndigits;
    Py_ssize_t pad = width > total ? width - total : 0;
    if (!left && !zero_pad && write_fill(w, ' ', pad) < 0) {
        return -1;
    }
    if (p->sign && _PyUnicodeWriter_WriteChar(w, (Py_UCS4)p->sign) < 0) {
        return -1;
    }
    if (_PyUnicodeWriter_WriteASCIIString(w, p->prefix, plen) < 0) {
        return -1;
    }
    if (!left && zero_pad && write_fill(w, '0', pad) < 0) {
        return -1;
    }
    if (write_fill(w, '0', nzeros) < 0 ||
        _PyUnicodeWriter_WriteASCIIString(w, p->digits, p->ndigits) < 0) {
        return -1;
    }
    if (left && write_fill(w, ' ', pad) < 0) {
        return -1;
    }
    return 0;
}

/* ---- PyUnicode_FromFormat ------------------------------------------------------------------ */

#define F_LEFT 1
#define F_ZERO 2
#define F_ALT 4

typedef struct {
    int flags;
    Py_ssize_t width;     /* -1: none */
    Py_ssize_t precision; /* -1: none */
    int size;             /* 0, 'l', 'q' (long long), 'z', 't', 'j', 'h' */
} fmt_spec;

static int
write_c_integer(_PyUnicodeWriter *w, const fmt_spec *sp, char conv, va_list *va)
{
    char buf[64];
    int neg = 0;
    unsigned long long u;
    int is_signed = conv == 'd' || conv == 'i';
    if (is_signed) {
        long long v;
        switch (sp->size) {
        case 'l': v = va_arg(*va, long); break;
        case 'q': v = va_arg(*va, long long); break;
        case 'z': v = va_arg(*va, Py_ssize_t); break;
        case 't': v = va_arg(*va, ptrdiff_t); break;
        case 'j': v = va_arg(*va, intmax_t); break;
        case 'h': v = (short)va_arg(*va, int); break;
        default: v = va_arg(*va, int); break;
        }
        neg = v < 0;
        u = neg ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    }
    else {
        switch (sp->size) {
        case 'l': u = va_arg(*va, unsigned long); break;
        case 'q': u = va_arg(*va, unsigned long long); break;
        case 'z': u = va_arg(*va, size_t); break;
        case 't': u = (unsigned long long)va_arg(*va, ptrdiff_t); break;
        case 'j': u = va_arg(*va, uintmax_t); break;
        case 'h': u = (unsigned short)va_arg(*va, unsigned int); break;
        default: u = va_arg(*va, unsigned int); break;
        }
    }
    const char *fmt = conv == 'x' ? "%llx" : conv == 'X' ? "%llX" : conv == 'o' ? "%llo" : "%llu";
    int n = snprintf(buf, sizeof(buf), fmt, u);
    number_parts p = {neg ? '-' : 0, "", buf, n, sp->precision};
    return write_number(w, &p, sp->width, sp->flags & F_LEFT,
                        (sp->flags & F_ZERO) && sp->precision < 0);
}

/* "module.qualname" of a type (just the name for builtins). */
static PyObject *
type_full_name(PyTypeObject *type, int colon)
{
    if (!(type->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
        const char *name = type->tp_name;
        const char *dot = strrchr(name, '.');
        if (dot != NULL && colon) {
            return PyUnicode_FromFormat("%.*s:%s", (int)(dot - name), name, dot + 1);
        }
        return PyUnicode_FromString(name);
    }
    PyObject *qualname = PyType_GetQualName(type);
    if (qualname == NULL) {
        return NULL;
    }
    PyObject *module = NULL;
    if (type->tp_dict != NULL) {
        module = PyDict_GetItemString(type->tp_dict, "__module__");
    }
    if (module == NULL || !PyUnicode_Check(module) ||
        _PyUnicode_EqualToASCIIString(module, "builtins") ||
        _PyUnicode_EqualToASCIIString(module, "__main__")) {
        return qualname;
    }
    PyObject *res = PyUnicode_FromFormat(colon ? "%U:%U" : "%U.%U", module, qualname);
    Py_DECREF(qualname);
    return res;
}

static int
write_utf8_arg(_PyUnicodeWriter *w, const char *s, const fmt_spec *sp)
{
    Py_ssize_t n = (Py_ssize_t)strlen(s);
    if (sp->precision >= 0 && sp->precision < n) {
        n = sp->precision;
    }
    PyObject *str = PyUnicode_DecodeUTF8Stateful(s, n, "replace", NULL);
    if (str == NULL) {
        return -1;
    }
    fmt_spec nsp = *sp;
    nsp.precision = -1;
    int r = write_padded_str(w, str, nsp.width, -1, sp->flags & F_LEFT);
    Py_DECREF(str);
    return r;
}

static int
write_obj_arg(_PyUnicodeWriter *w, PyObject *str, const fmt_spec *sp)
{
    if (str == NULL) {
        return -1;
    }
    int r = write_padded_str(w, str, sp->width, sp->precision, sp->flags & F_LEFT);
    Py_DECREF(str);
    return r;
}

static const char *
parse_c_spec(const char *f, fmt_spec *sp, va_list *va)
{
    sp->flags = 0;
    sp->width = -1;
    sp->precision = -1;
    sp->size = 0;
    for (;; f++) {
        if (*f == '-') {
            sp->flags |= F_LEFT;
        }
        else if (*f == '0') {
            sp->flags |= F_ZERO;
        }
        else if (*f == '#') {
            sp->flags |= F_ALT;
        }
        else {
            break;
        }
    }
    if (*f == '*') {
        int v = va_arg(*va, int);
        if (v < 0) {
            sp->flags |= F_LEFT;
            v = -v;
        }
        sp->width = v;
        f++;
    }
    else if (*f >= '0' && *f <= '9') {
        sp->width = 0;
        while (*f >= '0' && *f <= '9') {
            sp->width = sp->width * 10 + (*f++ - '0');
        }
    }
    if (*f == '.') {
        f++;
        if (*f == '*') {
            int v = va_arg(*va, int);
            sp->precision = v < 0 ? -1 : v;
            f++;
        }
        else {
            sp->precision = 0;
            while (*f >= '0' && *f <= '9') {
                sp->precision = sp->precision * 10 + (*f++ - '0');
            }
        }
    }
    if (f[0] == 'l' && f[1] == 'l') {
        sp->size = 'q';
        f += 2;
    }
    else if (*f == 'l' || *f == 'z' || *f == 't' || *f == 'j' || *f == 'h') {
        sp->size = *f++;
    }
    return f;
}

static int
format_c_conversion(_PyUnicodeWriter *w, char conv, const fmt_spec *sp, va_list *va)
{
    switch (conv) {
    case 'c': {
        int ch = va_arg(*va, int);
        if (ch < 0 || ch > 0x10ffff) {
            PyErr_SetString(PyExc_OverflowError, "character argument not in range(0x110000)");
            return -1;
        }
        return _PyUnicodeWriter_WriteChar(w, (Py_UCS4)ch);
    }
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
        return write_c_integer(w, sp, conv, va);
    case 'p': {
        char buf[64];
        void *p = va_arg(*va, void *);
        int n = snprintf(buf, sizeof(buf), "%p", p);
        if (buf[1] != 'x' && buf[1] != 'X') {
            n = snprintf(buf, sizeof(buf), "0x%lx", (unsigned long)(uintptr_t)p);
        }
        return _PyUnicodeWriter_WriteASCIIString(w, buf, n);
    }
    case 's':
        return write_utf8_arg(w, va_arg(*va, const char *), sp);
    case 'U': {
        PyObject *obj = va_arg(*va, PyObject *);
        return write_obj_arg(w, Py_NewRef(obj), sp);
    }
    case 'V': {
        PyObject *obj = va_arg(*va, PyObject *);
        const char *s = va_arg(*va, const char *);
        if (obj != NULL) {
            return write_obj_arg(w, Py_NewRef(obj), sp);
        }
        return write_utf8_arg(w, s, sp);
    }
    case 'S':
        return write_obj_arg(w, PyObject_Str(va_arg(*va, PyObject *)), sp);
    case 'R':
        return write_obj_arg(w, PyObject_Repr(va_arg(*va, PyObject *)), sp);
    case 'A':
        return write_obj_arg(w, PyObject_ASCII(va_arg(*va, PyObject *)), sp);
    case 'T': {
        PyObject *obj = va_arg(*va, PyObject *);
        return write_obj_arg(w, type_full_name(Py_TYPE(obj), sp->flags & F_ALT), sp);
    }
    case 'N': {
        PyObject *type = va_arg(*va, PyObject *);
        if (!PyType_Check(type)) {
            PyErr_SetString(PyExc_TypeError, "%N argument must be a type");
            return -1;
        }
        return write_obj_arg(w, type_full_name((PyTypeObject *)type, sp->flags & F_ALT), sp);
    }
    default:
        return -2;
    }
}

PyObject *
PyUnicode_FromFormatV(const char *format, va_list vargs)
{
    _PyUnicodeWriter w;
    _PyUnicodeWriter_Init(&w);
    w.min_length = (Py_ssize_t)strlen(format) + 16;
    w.overallocate = 1;
    va_list va;
    va_copy(va, vargs);
    const char *f = format;
    while (*f) {
        if (*f != '%') {
            const char *p = f;
            while (*p && *p != '%') {
                if ((unsigned char)*p >= 128) {
                    PyErr_Format(PyExc_ValueError,
                                 "PyUnicode_FromFormatV() expects an ASCII-encoded format "
                                 "string, got a non-ASCII byte: 0x%02x",
                                 (unsigned int)(unsigned char)*p);
                    goto error;
                }
                p++;
            }
            if (_PyUnicodeWriter_WriteASCIIString(&w, f, p - f) < 0) {
                goto error;
            }
            f = p;
            continue;
        }
        const char *start = f++;
        if (*f == '%') {
            if (_PyUnicodeWriter_WriteChar(&w, '%') < 0) {
                goto error;
            }
            f++;
            continue;
        }
        fmt_spec sp;
        f = parse_c_spec(f, &sp, &va);
        int r = *f ? format_c_conversion(&w, *f, &sp, &va) : -2;
        if (r == -2) {
            PyErr_Format(PyExc_SystemError, "invalid format string: %s", start);
            goto error;
        }
        if (r < 0) {
            goto error;
        }
        f++;
    }
    va_end(va);
    return _PyUnicodeWriter_Finish(&w);
error:
    va_end(va);
    _PyUnicodeWriter_Dealloc(&w);
    return NULL;
}

PyObject *
PyUnicode_FromFormat(const char *format, ...)
{
    va_list vargs;
    va_start(vargs, format);
    PyObject *res = PyUnicode_FromFormatV(format, vargs);
    va_end(vargs);
    return res;
}

/* ---- str % args ------------------------------------------------------------------------------ */

#define P_LEFT 1
#define P_SIGN 2
#define P_SPACE 4
#define P_ALT 8
#define P_ZERO 16

typedef struct {
    PyObject *fmt;
    int kind;
    const void *data;
    Py_ssize_t len, pos;
    PyObject *args;
    Py_ssize_t arglen, argidx; /* arglen -1: one non-tuple argument */
    PyObject *dict;
    _PyUnicodeWriter w;
} pctx;

static PyObject *
next_arg(pctx *c)
{
    Py_ssize_t n = c->arglen;
    if (n >= 0 ? c->argidx < n : c->argidx < 0) {
        if (n < 0) {
            c->argidx = 0;
            return c->args;
        }
        return PyTuple_GET_ITEM(c->args, c->argidx++);
    }
    PyErr_SetString(PyExc_TypeError, "not enough arguments for format string");
    return NULL;
}

static Py_UCS4
pc_char(pctx *c)
{
    return PyUnicode_READ(c->kind, c->data, c->pos);
}

/* %(key): switches the argument source to dict[key]. */
static int
parse_mapping_key(pctx *c)
{
    if (c->dict == NULL) {
        PyErr_SetString(PyExc_TypeError, "format requires a mapping");
        return -1;
    }
    Py_ssize_t start = ++c->pos, depth = 1;
    while (c->pos < c->len) {
        Py_UCS4 ch = pc_char(c);
        if (ch == ')' && --depth == 0) {
            break;
        }
        if (ch == '(') {
            depth++;
        }
        c->pos++;
    }
    if (c->pos >= c->len) {
        PyErr_SetString(PyExc_ValueError, "incomplete format key");
        return -1;
    }
    PyObject *key = PyUnicode_Substring(c->fmt, start, c->pos);
    c->pos++;
    if (key == NULL) {
        return -1;
    }
    PyObject *value = PyObject_GetItem(c->dict, key);
    Py_DECREF(key);
    if (value == NULL) {
        return -1;
    }
    /* The looked-up value is the single argument for this conversion; the
       context owns it until the next key replaces it. */
    if (c->arglen == -1 && c->args != NULL && c->args != c->dict) {
        Py_DECREF(c->args);
    }
    c->args = value;
    c->arglen = -1;
    c->argidx = -2;
    return 0;
}

/* Width or precision: digits or '*'. */
static int
parse_number_or_star(pctx *c, Py_ssize_t *out, int *flags, int is_width)
{
    if (c->pos < c->len && pc_char(c) == '*') {
        c->pos++;
        PyObject *v = next_arg(c);
        if (v == NULL) {
            return -1;
        }
        Py_ssize_t n;
        if (_PyFormat_StarArg(v, &n, is_width) < 0) {
            return -1;
        }
        if (n < 0) {
            if (is_width) {
                *flags |= P_LEFT;
                n = -n;
            }
            else {
                n = 0;
            }
        }
        *out = n;
        return 0;
    }
    Py_ssize_t n = -1;
    while (c->pos < c->len) {
        Py_UCS4 ch = pc_char(c);
        if (ch < '0' || ch > '9') {
            break;
        }
        if (_PyFormat_AddDigit(&n, (int)(ch - '0'), is_width) < 0) {
            return -1;
        }
        c->pos++;
    }
    if (n >= 0 || !is_width) {
        *out = n < 0 ? 0 : n;
    }
    return 0;
}

static int
format_obj_str(pctx *c, PyObject *v, Py_UCS4 conv, int flags, Py_ssize_t width,
               Py_ssize_t prec)
{
    PyObject *s;
    if (conv == 's') {
        s = PyUnicode_CheckExact(v) ? Py_NewRef(v) : PyObject_Str(v);
    }
    else if (conv == 'r') {
        s = PyObject_Repr(v);
    }
    else {
        s = PyObject_ASCII(v);
    }
    if (s == NULL) {
        return -1;
    }
    int r = write_padded_str(&c->w, s, width, prec, flags & P_LEFT);
    Py_DECREF(s);
    return r;
}

static int
format_char(pctx *c, PyObject *v, int flags, Py_ssize_t width)
{
    Py_UCS4 ch;
    if (PyUnicode_Check(v)) {
        if (PyUnicode_GET_LENGTH(v) != 1) {
            PyErr_SetString(PyExc_TypeError, "%c requires int or char");
            return -1;
        }
        ch = PyUnicode_READ_CHAR(v, 0);
    }
    else if (PyLong_Check(v)) {
        int overflow;
        long x = PyLong_AsLongAndOverflow(v, &overflow);
        if (x == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (overflow || x < 0 || x > 0x10ffff) {
            PyErr_SetString(PyExc_OverflowError, "%c arg not in range(0x110000)");
            return -1;
        }
        ch = (Py_UCS4)x;
    }
    else {
        PyErr_SetString(PyExc_TypeError, "%c requires int or char");
        return -1;
    }
    Py_ssize_t pad = width > 1 ? width - 1 : 0;
    if (!(flags & P_LEFT) && write_fill(&c->w, ' ', pad) < 0) {
        return -1;
    }
    if (_PyUnicodeWriter_WriteChar(&c->w, ch) < 0) {
        return -1;
    }
    if ((flags & P_LEFT) && write_fill(&c->w, ' ', pad) < 0) {
        return -1;
    }
    return 0;
}

/* The int to format for %d/%x/...: None with TypeError for wrong types. */
static PyObject *
integer_operand(PyObject *v, Py_UCS4 conv)
{
    if (PyLong_Check(v)) {
        return Py_NewRef(v);
    }
    PyObject *iobj = NULL;
    if (PyNumber_Check(v)) {
        iobj = (conv == 'd' || conv == 'i' || conv == 'u') ? PyNumber_Long(v) : PyNumber_Index(v);
        if (iobj != NULL || !PyErr_ExceptionMatches(PyExc_TypeError)) {
            return iobj;
        }
        PyErr_Clear();
    }
    PyErr_Format(PyExc_TypeError, "%%%c format: %s is required, not %.200s", (int)conv,
                 (conv == 'd' || conv == 'i' || conv == 'u') ? "a real number" : "an integer",
                 Py_TYPE(v)->tp_name);
    return NULL;
}

static int
format_integer(pctx *c, PyObject *v, Py_UCS4 conv, int flags, Py_ssize_t width,
               Py_ssize_t prec)
{
    /* as CPython: the digits, a sign and a prefix must stay within a C int */
    if (prec > INT_MAX - 3) {
        PyErr_SetString(PyExc_OverflowError, "precision too large");
        return -1;
    }
    PyObject *iobj = integer_operand(v, conv);
    if (iobj == NULL) {
        return -1;
    }
    int base = (conv == 'x' || conv == 'X') ? 16 : conv == 'o' ? 8 : 10;
    PyObject *text = PyNumber_ToBase(iobj, base);
    Py_DECREF(iobj);
    if (text == NULL) {
        return -1;
    }
    const char *s = PyUnicode_AsUTF8(text);
    if (s == NULL) {
        Py_DECREF(text);
        return -1;
    }
    number_parts p = {0, "", NULL, 0, prec};
    if (*s == '-') {
        p.sign = '-';
        s++;
    }
    else if (flags & P_SIGN) {
        p.sign = '+';
    }
    else if (flags & P_SPACE) {
        p.sign = ' ';
    }
    if (base != 10 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o' || s[1] == 'X')) {
        s += 2;
    }
    char *upper = NULL;
    if (conv == 'X') {
        upper = PyMem_Malloc(strlen(s) + 1);
        if (upper == NULL) {
            Py_DECREF(text);
            PyErr_NoMemory();
            return -1;
        }
        for (size_t i = 0; i <= strlen(s); i++) {
            upper[i] = (char)((s[i] >= 'a' && s[i] <= 'f') ? s[i] - 32 : s[i]);
        }
        s = upper;
    }
    if (flags & P_ALT) {
        p.prefix = base == 16 ? (conv == 'X' ? "0X" : "0x") : base == 8 ? "0o" : "";
    }
    p.digits = s;
    p.ndigits = (Py_ssize_t)strlen(s);
    int r = write_number(&c->w, &p, width, flags & P_LEFT, flags & P_ZERO);
    PyMem_Free(upper);
    Py_DECREF(text);
    return r;
}

static int
format_float(pctx *c, PyObject *v, Py_UCS4 conv, int flags, Py_ssize_t width, Py_ssize_t prec)
{
    double x = PyFloat_AsDouble(v);
    if (x == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    char code = (char)(conv | 0x20);
    int dflags = (flags & P_ALT) ? Py_DTSF_ALT : 0;
    char *buf = PyOS_double_to_string(x, code, prec < 0 ? 6 : (int)prec, dflags, NULL);
    if (buf == NULL) {
        return -1;
    }
    if (conv != (Py_UCS4)code) {
        for (char *q = buf; *q; q++) {
            if (*q >= 'a' && *q <= 'z') {
                *q -= 32;
            }
        }
    }
    number_parts p = {0, "", buf, 0, -1};
    if (*buf == '-') {
        p.sign = '-';
        p.digits++;
    }
    else if (flags & P_SIGN) {
        p.sign = '+';
    }
    else if (flags & P_SPACE) {
        p.sign = ' ';
    }
    p.ndigits = (Py_ssize_t)strlen(p.digits);
    int r = write_number(&c->w, &p, width, flags & P_LEFT, flags & P_ZERO);
    PyMem_Free(buf);
    return r;
}

/* One conversion, c->pos just after the '%'. */
static int
format_one(pctx *c)
{
    int flags = 0;
    Py_ssize_t width = -1, prec = -1;
    if (c->pos < c->len && pc_char(c) == '(') {
        if (parse_mapping_key(c) < 0) {
            return -1;
        }
    }
    for (; c->pos < c->len; c->pos++) {
        Py_UCS4 ch = pc_char(c);
        int f = ch == '-' ? P_LEFT : ch == '+' ? P_SIGN : ch == ' ' ? P_SPACE
              : ch == '#' ? P_ALT : ch == '0' ? P_ZERO : 0;
        if (f == 0) {
            break;
        }
        flags |= f;
    }
    if (parse_number_or_star(c, &width, &flags, 1) < 0) {
        return -1;
    }
    if (c->pos < c->len && pc_char(c) == '.') {
        c->pos++;
        if (parse_number_or_star(c, &prec, &flags, 0) < 0) {
            return -1;
        }
    }
    while (c->pos < c->len) {
        Py_UCS4 ch = pc_char(c);
        if (ch != 'h' && ch != 'l' && ch != 'L') {
            break;
        }
        c->pos++;
    }
    if (c->pos >= c->len) {
        PyErr_SetString(PyExc_ValueError, "incomplete format");
        return -1;
    }
    Py_UCS4 conv = pc_char(c);
    Py_ssize_t conv_pos = c->pos++;
    PyObject *v = next_arg(c);
    if (v == NULL) {
        return -1;
    }
    if (flags & P_LEFT) {
        flags &= ~P_ZERO;
    }
    switch (conv) {
    case 's': case 'r': case 'a':
        return format_obj_str(c, v, conv, flags, width, prec);
    case 'c':
        return format_char(c, v, flags, width);
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
        return format_integer(c, v, conv, flags, width, prec);
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
        return format_float(c, v, conv, flags, width, prec);
    default:
        if (conv >= 32 && conv < 127) {
            PyErr_Format(PyExc_ValueError,
                         "unsupported format character '%c' (0x%x) at index %zd", (int)conv,
                         (unsigned int)conv, conv_pos);
        }
        else {
            PyErr_Format(PyExc_ValueError,
                         "unsupported format character %R (0x%x) at index %zd",
                         PyUnicode_FromOrdinal((int)conv), (unsigned int)conv, conv_pos);
        }
        return -1;
    }
}

PyObject *
PyUnicode_Format(PyObject *format, PyObject *args)
{
    if (format == NULL || args == NULL) {
        PyErr_BadInternalCall();
        return NULL;
    }
    if (!PyUnicode_Check(format)) {
        PyErr_Format(PyExc_TypeError, "must be str, not %.100s", Py_TYPE(format)->tp_name);
        return NULL;
    }
    pctx c;
    c.fmt = format;
    c.kind = PyUnicode_KIND(format);
    c.data = PyUnicode_DATA(format);
    c.len = PyUnicode_GET_LENGTH(format);
    c.pos = 0;
    c.args = args;
    if (PyTuple_Check(args)) {
        c.arglen = PyTuple_GET_SIZE(args);
        c.argidx = 0;
    }
    else {
        c.arglen = -1;
        c.argidx = -2;
    }
    c.dict = NULL;
    if (PyMapping_Check(args) && !PyTuple_Check(args) && !PyUnicode_Check(args)) {
        c.dict = args;
    }
    PyObject *orig_args = args;
    _PyUnicodeWriter_Init(&c.w);
    c.w.min_length = c.len + 100;
    c.w.overallocate = 1;

    while (c.pos < c.len) {
        Py_ssize_t start = c.pos;
        while (c.pos < c.len && pc_char(&c) != '%') {
            c.pos++;
        }
        if (_PyUnicodeWriter_WriteSubstring(&c.w, format, start, c.pos) < 0) {
            goto error;
        }
        if (c.pos >= c.len) {
            break;
        }
        c.pos++;
        if (c.pos < c.len && pc_char(&c) == '%') {
            c.pos++;
            if (_PyUnicodeWriter_WriteChar(&c.w, '%') < 0) {
                goto error;
            }
            continue;
        }
        if (format_one(&c) < 0) {
            goto error;
        }
    }
    if (c.argidx < c.arglen && c.dict == NULL) {
        PyErr_SetString(PyExc_TypeError, "not all arguments converted during string formatting");
        goto error;
    }
    if (c.args != orig_args) {
        Py_DECREF(c.args);
    }
    return _PyUnicodeWriter_Finish(&c.w);
error:
    if (c.args != orig_args) {
        Py_DECREF(c.args);
    }
    _PyUnicodeWriter_Dealloc(&c.w);
    return NULL;
}

/* ---- str.__format__ ---------------------------------------------------------------------------- */

PyObject *
_PyUnicode_DunderFormat(PyObject *self, PyObject *spec)
{
    if (!PyUnicode_Check(spec)) {
        PyErr_Format(PyExc_TypeError, "__format__() argument must be str, not %.100s",
                     Py_TYPE(spec)->tp_name);
        return NULL;
    }
    if (PyUnicode_GET_LENGTH(spec) == 0) {
        return PyObject_Str(self);
    }
    return _PyUnicode_FormatAdvanced(self, spec, 0, PyUnicode_GET_LENGTH(spec));
}

/* ---- str.format and str.format_map ---------------------------------------------------------- */

typedef struct {
    PyObject *args;    /* tuple or NULL */
    PyObject *kwargs;  /* mapping or NULL */
    int is_map;        /* format_map: kwargs is any mapping, no positionals */
    int numbering;     /* 0 unknown, 1 automatic, 2 manual */
    Py_ssize_t next_auto;
} fctx;

static int render(fctx *f, _PyUnicodeWriter *w, PyObject *s, Py_ssize_t start, Py_ssize_t end,
                  int depth);

/* A non-negative integer if the whole range is decimal digits, else -1. */
static Py_ssize_t
digits_value(PyObject *s, Py_ssize_t start, Py_ssize_t end)
{
    if (start >= end) {
        return -1;
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t i = start; i < end; i++) {
        int d = _PyUnicode_ToDecimalDigit(PyUnicode_READ_CHAR(s, i));
        if (d < 0) {
            return -1;
        }
        if (n > (PY_SSIZE_T_MAX - d) / 10) {
            PyErr_SetString(PyExc_ValueError, "Too many decimal digits in format string");
            return -2;
        }
        n = n * 10 + d;
    }
    return n;
}

static PyObject *
lookup_first(fctx *f, PyObject *s, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t index;
    if (start == end) {
        if (f->numbering == 2) {
            PyErr_SetString(PyExc_ValueError,
                            "cannot switch from manual field specification to automatic field "
                            "numbering");
            return NULL;
        }
        f->numbering = 1;
        index = f->next_auto++;
    }
    else {
        index = digits_value(s, start, end);
        if (index == -2) {
            return NULL;
        }
        if (index >= 0) {
            if (f->numbering == 1) {
                PyErr_SetString(PyExc_ValueError,
                                "cannot switch from automatic field numbering to manual field "
                                "specification");
                return NULL;
            }
            f->numbering = 2;
        }
    }
    if (index < 0) {
        PyObject *key = PyUnicode_Substring(s, start, end);
        if (key == NULL) {
            return NULL;
        }
        PyObject *v = NULL;
        if (f->kwargs == NULL) {
            PyErr_SetObject(PyExc_KeyError, key);
        }
        else {
            v = PyObject_GetItem(f->kwargs, key);
        }
        Py_DECREF(key);
        return v;
    }
    if (f->is_map) {
        PyErr_SetString(PyExc_ValueError, "Format string contains positional fields");
        return NULL;
    }
    if (f->args == NULL || index >= PyTuple_GET_SIZE(f->args)) {
        PyErr_Format(PyExc_IndexError,
                     "Replacement index %zd out of range for positional args tuple", index);
        return NULL;
    }
    return Py_NewRef(PyTuple_GET_ITEM(f->args, index));
}

/* The object named by field_name: first part, then .attr and [key]. */
static PyObject *
get_field_object(fctx *f, PyObject *s, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t i = start;
    while (i < end) {
        Py_UCS4 c = PyUnicode_READ_CHAR(s, i);
        if (c == '.' || c == '[') {
            break;
        }
        i++;
    }
    PyObject *obj = lookup_first(f, s, start, i);
    while (obj != NULL && i < end) {
        Py_UCS4 c = PyUnicode_READ_CHAR(s, i++);
        Py_ssize_t kstart = i;
        PyObject *next;
        if (c == '.') {
            while (i < end && PyUnicode_READ_CHAR(s, i) != '.' && PyUnicode_READ_CHAR(s, i) != '[') {
                i++;
            }
            if (i == kstart) {
                PyErr_SetString(PyExc_ValueError, "Empty attribute in format string");
                Py_DECREF(obj);
                return NULL;
            }
            PyObject *name = PyUnicode_Substring(s, kstart, i);
            next = name ? PyObject_GetAttr(obj, name) : NULL;
            Py_XDECREF(name);
        }
        else if (c == '[') {
            while (i < end && PyUnicode_READ_CHAR(s, i) != ']') {
                i++;
            }
            if (i >= end) {
                PyErr_SetString(PyExc_ValueError, "Missing ']' in format string");
                Py_DECREF(obj);
                return NULL;
            }
            if (i == kstart) {
                PyErr_SetString(PyExc_ValueError, "Empty attribute in format string");
                Py_DECREF(obj);
                return NULL;
            }
            Py_ssize_t idx = digits_value(s, kstart, i);
            PyObject *key = idx == -2  ? NULL
                            : idx >= 0 ? PyLong_FromSsize_t(idx)
                                       : PyUnicode_Substring(s, kstart, i);
            next = key ? PyObject_GetItem(obj, key) : NULL;
            Py_XDECREF(key);
            i++;
            if (next != NULL && i < end && PyUnicode_READ_CHAR(s, i) != '.' &&
                PyUnicode_READ_CHAR(s, i) != '[') {
                PyErr_SetString(PyExc_ValueError,
                                "Only '.' or '[' may follow ']' in format field specifier");
                Py_DECREF(next);
                next = NULL;
            }
        }
        else {
            PyErr_SetString(PyExc_ValueError,
                            "Only '.' or '[' may follow ']' in format field specifier");
            next = NULL;
        }
        Py_DECREF(obj);
        obj = next;
    }
    return obj;
}

static PyObject *
apply_conversion(PyObject *obj, Py_UCS4 conv)
{
    switch (conv) {
    case 'r': return PyObject_Repr(obj);
    case 's': return PyObject_Str(obj);
    case 'a': return PyObject_ASCII(obj);
    default:
        if (conv >= 32 && conv < 127) {
            PyErr_Format(PyExc_ValueError, "Unknown conversion specifier %c", (int)conv);
        }
        else {
            PyErr_Format(PyExc_ValueError, "Unknown conversion specifier \\x%x",
                         (unsigned int)conv);
        }
        return NULL;
    }
}

/* Parse one replacement field starting just after its '{'; on success
   *pos is just after its closing '}'. */
static int
render_field(fctx *f, _PyUnicodeWriter *w, PyObject *s, Py_ssize_t *pos, Py_ssize_t end,
             int depth)
{
    Py_ssize_t i = *pos, name_start = i;
    int in_bracket = 0;
    while (i < end) {
        Py_UCS4 c = PyUnicode_READ_CHAR(s, i);
        if (in_bracket) {
            in_bracket = c != ']';
        }
        else if (c == '[') {
            in_bracket = 1;
        }
        else if (c == ':' || c == '!' || c == '}') {
            break;
        }
        else if (c == '{') {
            PyErr_SetString(PyExc_ValueError, "unexpected '{' in field name");
            return -1;
        }
        i++;
    }
    if (i >= end) {
        PyErr_SetString(PyExc_ValueError, "expected '}' before end of string");
        return -1;
    }
    Py_ssize_t name_end = i;
    Py_UCS4 conv = 0;
    if (PyUnicode_READ_CHAR(s, i) == '!') {
        if (i + 1 >= end) {
            PyErr_SetString(PyExc_ValueError, "end of string while looking for conversion specifier");
            return -1;
        }
        conv = PyUnicode_READ_CHAR(s, i + 1);
        i += 2;
        if (i >= end) {
            PyErr_SetString(PyExc_ValueError, "unmatched '{' in format spec");
            return -1;
        }
        Py_UCS4 c = PyUnicode_READ_CHAR(s, i);
        if (c != ':' && c != '}') {
            PyErr_SetString(PyExc_ValueError, "expected ':' after conversion specifier");
            return -1;
        }
    }
    Py_ssize_t spec_start = i, spec_end = i, nested = 0;
    if (PyUnicode_READ_CHAR(s, i) == ':') {
        Py_ssize_t level = 1;
        spec_start = ++i;
        while (i < end) {
            Py_UCS4 c = PyUnicode_READ_CHAR(s, i);
            if (c == '{') {
                level++;
                nested = 1;
            }
            else if (c == '}' && --level == 0) {
                break;
            }
            i++;
        }
        if (i >= end) {
            PyErr_SetString(PyExc_ValueError, "unmatched '{' in format spec");
            return -1;
        }
        spec_end = i;
    }
    *pos = i + 1;

    PyObject *obj = get_field_object(f, s, name_start, name_end);
    if (obj == NULL) {
        return -1;
    }
    if (conv) {
        Py_SETREF(obj, apply_conversion(obj, conv));
        if (obj == NULL) {
            return -1;
        }
    }
    PyObject *spec;
    if (nested) {
        _PyUnicodeWriter sw;
        _PyUnicodeWriter_Init(&sw);
        if (render(f, &sw, s, spec_start, spec_end, depth - 1) < 0) {
            _PyUnicodeWriter_Dealloc(&sw);
            Py_DECREF(obj);
            return -1;
        }
        spec = _PyUnicodeWriter_Finish(&sw);
    }
    else {
        spec = PyUnicode_Substring(s, spec_start, spec_end);
    }
    if (spec == NULL) {
        Py_DECREF(obj);
        return -1;
    }
    int r;
    if (PyUnicode_CheckExact(obj) && PyUnicode_GET_LENGTH(spec) == 0) {
        r = _PyUnicodeWriter_WriteStr(w, obj);
    }
    else if (PyUnicode_CheckExact(obj)) {
        r = _PyUnicode_FormatAdvancedWriter(w, obj, spec, 0, PyUnicode_GET_LENGTH(spec));
    }
    else {
        PyObject *text = PyObject_Format(obj, spec);
        r = text == NULL ? -1 : _PyUnicodeWriter_WriteStr(w, text);
        Py_XDECREF(text);
    }
    Py_DECREF(spec);
    Py_DECREF(obj);
    return r;
}

static int
render(fctx *f, _PyUnicodeWriter *w, PyObject *s, Py_ssize_t start, Py_ssize_t end, int depth)
{
    if (depth <= 0) {
        PyErr_SetString(PyExc_ValueError, "Max string recursion exceeded");
        return -1;
    }
    Py_ssize_t i = start;
    while (i < end) {
        Py_ssize_t lit = i;
        Py_UCS4 c = 0;
        while (i < end) {
            c = PyUnicode_READ_CHAR(s, i);
            if (c == '{' || c == '}') {
                break;
            }
            i++;
        }
        if (_PyUnicodeWriter_WriteSubstring(w, s, lit, i) < 0) {
            return -1;
        }
        if (i >= end) {
            break;
        }
        Py_UCS4 next = i + 1 < end ? PyUnicode_READ_CHAR(s, i + 1) : 0;
        if (c == '}') {
            if (next != '}') {
                PyErr_SetString(PyExc_ValueError, "Single '}' encountered in format string");
                return -1;
            }
            if (_PyUnicodeWriter_WriteChar(w, '}') < 0) {
                return -1;
            }
            i += 2;
            continue;
        }
        if (i + 1 >= end) {
            PyErr_SetString(PyExc_ValueError, "Single '{' encountered in format string");
            return -1;
        }
        if (next == '{') {
            if (_PyUnicodeWriter_WriteChar(w, '{') < 0) {
                return -1;
            }
            i += 2;
            continue;
        }
        i++;
        if (render_field(f, w, s, &i, end, depth) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyObject *
do_format(PyObject *self, fctx *f)
{
    _PyUnicodeWriter w;
    _PyUnicodeWriter_Init(&w);
    w.min_length = PyUnicode_GET_LENGTH(self) + 100;
    w.overallocate = 1;
    if (render(f, &w, self, 0, PyUnicode_GET_LENGTH(self), 2) < 0) {
        _PyUnicodeWriter_Dealloc(&w);
        return NULL;
    }
    return _PyUnicodeWriter_Finish(&w);
}

PyObject *
_PyUnicode_FormatMethod(PyObject *self, PyObject *args, PyObject *kwargs)
{
    fctx f = {args, kwargs, 0, 0, 0};
    return do_format(self, &f);
}

PyObject *
_PyUnicode_FormatMapMethod(PyObject *self, PyObject *mapping)
{
    fctx f = {NULL, mapping, 1, 0, 0};
    return do_format(self, &f);
}
