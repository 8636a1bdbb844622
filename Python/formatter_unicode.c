/* The standard format-spec mini-language: what format(value, spec) does
   for int, float, complex and str.

       [[fill]align][sign]["z"]["#"]["0"][width][grouping]
           ["." [precision][grouping]][type]

   A spec is parsed into a FormatSpec, the value is rendered as pieces
   (sign, prefix such as "0x", integer digits, the rest), grouping
   separators are inserted, and the whole is padded to the width.  The
   result is built as UCS4 code points (the fill character may be any
   code point) and turned into a str of the narrowest kind at the end. */

#include "Python.h"
#include "pycore_format.h"
#include "pycore_long.h"

#include <locale.h>

/* ---- A growable UCS4 buffer --------------------------------------------- */

typedef struct {
    Py_UCS4 *buf;
    Py_ssize_t len, cap;
    Py_UCS4 maxchar;
    Py_UCS4 small[64];
} ubuf;

static void
ub_init(ubuf *u)
{
    u->buf = u->small;
    u->len = 0;
    u->cap = Py_ARRAY_LENGTH(u->small);
    u->maxchar = 127;
}

static void
ub_free(ubuf *u)
{
    if (u->buf != u->small) {
        PyMem_Free(u->buf);
    }
}

static int
ub_reserve(ubuf *u, Py_ssize_t extra)
{
    if (extra <= u->cap - u->len) {
        return 0;
    }
    if (extra > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(Py_UCS4) / 2 - u->len) {
        PyErr_NoMemory();
        return -1;
    }
    /* grow on the capacity, not on the need: one huge request (a width or
       precision near INT_MAX) then costs only its own size */
    Py_ssize_t cap = u->len + extra;
    if (u->cap <= PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(Py_UCS4) / 4 && u->cap * 2 > cap) {
        cap = u->cap * 2;
    }
    Py_UCS4 *p = PyMem_Malloc((size_t)cap * sizeof(Py_UCS4));
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(p, u->buf, (size_t)u->len * sizeof(Py_UCS4));
    if (u->buf != u->small) {
        PyMem_Free(u->buf);
    }
    u->buf = p;
    u->cap = cap;
    return 0;
}

static int
ub_putc(ubuf *u, Py_UCS4 ch)
{
    if (ub_reserve(u, 1) < 0) {
        return -1;
    }
    u->buf[u->len++] = ch;
    if (ch > u->maxchar) {
        u->maxchar = ch;
    }
    return 0;
}

static int
ub_repeat(ubuf *u, Py_UCS4 ch, Py_ssize_t n)
{
    if (n <= 0) {
        return 0;
    }
    if (ub_reserve(u, n) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        u->buf[u->len++] = ch;
    }
    if (ch > u->maxchar) {
        u->maxchar = ch;
    }
    return 0;
}

static int
ub_ascii(ubuf *u, const char *s, Py_ssize_t n)
{
    if (ub_reserve(u, n) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        u->buf[u->len++] = (unsigned char)s[i];
    }
    return 0;
}

static int
ub_ucs4(ubuf *u, const Py_UCS4 *s, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (ub_putc(u, s[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Append all of src to dst and empty src.  A heap buffer moves instead of
   being copied when dst is empty: huge results are not held twice. */
static int
ub_append_take(ubuf *dst, ubuf *src)
{
    if (dst->len == 0 && src->buf != src->small) {
        ub_free(dst);
        dst->buf = src->buf;
        dst->len = src->len;
        dst->cap = src->cap;
        if (src->maxchar > dst->maxchar) {
            dst->maxchar = src->maxchar;
        }
        ub_init(src);
        return 0;
    }
    if (ub_reserve(dst, src->len) < 0) {
        return -1;
    }
    memcpy(dst->buf + dst->len, src->buf, (size_t)src->len * sizeof(Py_UCS4));
    dst->len += src->len;
    if (src->maxchar > dst->maxchar) {
        dst->maxchar = src->maxchar;
    }
    ub_free(src);
    ub_init(src);
    return 0;
}

static PyObject *
ub_finish(ubuf *u)
{
    PyObject *r = PyUnicode_New(u->len, u->maxchar);
    if (r != NULL) {
        int kind = PyUnicode_KIND(r);
        void *data = PyUnicode_DATA(r);
        for (Py_ssize_t i = 0; i < u->len; i++) {
            PyUnicode_WRITE(kind, data, i, u->buf[i]);
        }
    }
    ub_free(u);
    return r;
}

/* ---- Parsing the spec --------------------------------------------------- */

typedef struct {
    Py_UCS4 fill;
    Py_UCS4 align;        /* '<', '>', '=', '^' */
    int fill_given;
    int align_given;
    Py_UCS4 sign;         /* '+', '-', ' ', or 0 */
    int no_neg_0;         /* 'z' */
    int alternate;        /* '#' */
    Py_ssize_t width;     /* -1 if absent */
    char thousands;       /* ',', '_', or 0 */
    Py_ssize_t precision; /* -1 if absent */
    char frac_thousands;  /* ',', '_', or 0: grouping after the point */
    Py_UCS4 type;
} FormatSpec;

static int
is_align(Py_UCS4 c)
{
    return c == '<' || c == '>' || c == '=' || c == '^';
}

/* Digits at *pos as a Py_ssize_t; -1 if there are none, -2 on overflow
   (error set). */
static Py_ssize_t
read_number(PyObject *spec, Py_ssize_t *pos, Py_ssize_t end)
{
    Py_ssize_t value = -1;
    while (*pos < end) {
        Py_UCS4 c = PyUnicode_READ_CHAR(spec, *pos);
        if (c < '0' || c > '9') {
            break;
        }
        int d = (int)(c - '0');
        if (value < 0) {
            value = 0;
        }
        if (value > (PY_SSIZE_T_MAX - d) / 10) {
            PyErr_SetString(PyExc_ValueError, "Too many decimal digits in format string");
            return -2;
        }
        value = value * 10 + d;
        (*pos)++;
    }
    return value;
}

static void
separator_type_error(char sep, Py_UCS4 type)
{
    if (type > 32 && type < 128) {
        PyErr_Format(PyExc_ValueError, "Cannot specify '%c' with '%c'.", sep, (int)type);
    }
    else {
        PyErr_Format(PyExc_ValueError, "Cannot specify '%c' with '\\x%x'.", sep, (unsigned)type);
    }
}

static int
both_separators_error(void)
{
    PyErr_SetString(PyExc_ValueError, "Cannot specify both ',' and '_'.");
    return -1;
}

/* ',' and/or '_' at *pos into *sep; -1 on "both". */
static int
read_grouping(PyObject *spec, Py_ssize_t *pos, Py_ssize_t end, char *sep)
{
    if (*pos < end && PyUnicode_READ_CHAR(spec, *pos) == ',') {
        *sep = ',';
        (*pos)++;
    }
    if (*pos < end && PyUnicode_READ_CHAR(spec, *pos) == '_') {
        if (*sep != 0) {
            return both_separators_error();
        }
        *sep = '_';
        (*pos)++;
    }
    if (*pos < end && PyUnicode_READ_CHAR(spec, *pos) == ',' && *sep == '_') {
        return both_separators_error();
    }
    return 0;
}

static int
check_separator_type(char sep, Py_UCS4 type)
{
    if (sep == 0) {
        return 0;
    }
    switch (type) {
    case 'd': case 'e': case 'f': case 'g': case 'E': case 'G': case '%': case 'F': case '\0':
        return 0;
    case 'b': case 'o': case 'x': case 'X':
        if (sep == '_') {
            return 0;
        }
        break;
    }
    separator_type_error(sep, type);
    return -1;
}

static int
parse_spec(PyObject *obj, PyObject *spec, Py_ssize_t start, Py_ssize_t end,
           Py_UCS4 default_type, Py_UCS4 default_align, FormatSpec *f)
{
    Py_ssize_t pos = start;
    memset(f, 0, sizeof(*f));
    f->fill = ' ';
    f->align = default_align;
    f->width = f->precision = -1;
    f->type = default_type;

    if (end - pos >= 2 && is_align(PyUnicode_READ_CHAR(spec, pos + 1))) {
        f->fill = PyUnicode_READ_CHAR(spec, pos);
        f->align = PyUnicode_READ_CHAR(spec, pos + 1);
        f->fill_given = f->align_given = 1;
        pos += 2;
    }
    else if (end - pos >= 1 && is_align(PyUnicode_READ_CHAR(spec, pos))) {
        f->align = PyUnicode_READ_CHAR(spec, pos);
        f->align_given = 1;
        pos++;
    }
    if (pos < end) {
        Py_UCS4 c = PyUnicode_READ_CHAR(spec, pos);
        if (c == '+' || c == '-' || c == ' ') {
            f->sign = c;
            pos++;
        }
    }
    if (pos < end && PyUnicode_READ_CHAR(spec, pos) == 'z') {
        f->no_neg_0 = 1;
        pos++;
    }
    if (pos < end && PyUnicode_READ_CHAR(spec, pos) == '#') {
        f->alternate = 1;
        pos++;
    }
    /* "0" before the width: zero fill, sign-aware for numbers */
    if (!f->fill_given && pos < end && PyUnicode_READ_CHAR(spec, pos) == '0') {
        f->fill = '0';
        f->fill_given = 1;
        if (!f->align_given && default_align == '>') {
            f->align = '=';
        }
        pos++;
    }
    f->width = read_number(spec, &pos, end);
    if (f->width == -2) {
        return -1;
    }
    if (read_grouping(spec, &pos, end, &f->thousands) < 0) {
        return -1;
    }
    if (pos < end && PyUnicode_READ_CHAR(spec, pos) == '.') {
        pos++;
        f->precision = read_number(spec, &pos, end);
        if (f->precision == -2) {
            return -1;
        }
        if (read_grouping(spec, &pos, end, &f->frac_thousands) < 0) {
            return -1;
        }
        if (f->precision < 0 && f->frac_thousands == 0) {
            PyErr_SetString(PyExc_ValueError, "Format specifier missing precision");
            return -1;
        }
    }
    if (end - pos > 1) {
        PyObject *sub = PyUnicode_Substring(spec, start, end);
        if (sub != NULL) {
            PyErr_Format(PyExc_ValueError,
                         "Invalid format specifier '%U' for object of type '%.200s'",
                         sub, Py_TYPE(obj)->tp_name);
            Py_DECREF(sub);
        }
        return -1;
    }
    if (end - pos == 1) {
        f->type = PyUnicode_READ_CHAR(spec, pos);
    }
    if (check_separator_type(f->thousands, f->type) < 0) {
        return -1;
    }
    if (f->frac_thousands != 0 && f->type == 'n') {
        separator_type_error(f->frac_thousands, f->type);
        return -1;
    }
    return 0;
}

static void
unknown_type_error(Py_UCS4 type, PyObject *obj)
{
    if (type > 32 && type < 128) {
        PyErr_Format(PyExc_ValueError, "Unknown format code '%c' for object of type '%.200s'",
                     (int)type, Py_TYPE(obj)->tp_name);
    }
    else {
        PyErr_Format(PyExc_ValueError, "Unknown format code '\\x%x' for object of type '%.200s'",
                     (unsigned)type, Py_TYPE(obj)->tp_name);
    }
}

/* ---- Padding ------------------------------------------------------------ */

/* Append fill before or after content of length n: returns the count to
   put on the left, *right the count for the right. */
static Py_ssize_t
padding(const FormatSpec *f, Py_ssize_t n, Py_ssize_t *right)
{
    Py_ssize_t total = f->width > n ? f->width - n : 0;
    Py_ssize_t left;
    switch (f->align) {
    case '<':
        left = 0;
        break;
    case '^':
        left = total / 2;
        break;
    default:
        left = total;
        break;
    }
    *right = total - left;
    return left;
}

/* ---- Grouping ----------------------------------------------------------- */

typedef struct {
    Py_UCS4 sep[8];          /* the separator (a locale's may be several chars) */
    Py_ssize_t seplen;       /* 0: no grouping */
    const char *groups;      /* group sizes from the right; the last repeats;
                                CHAR_MAX stops grouping */
    Py_UCS4 point[8];        /* decimal point */
    Py_ssize_t pointlen;
} Grouping;

static const char groups_of_3[] = {3, 0};
static const char groups_of_4[] = {4, 0};

static void
grouping_none(Grouping *g)
{
    g->seplen = 0;
    g->groups = "";
    g->point[0] = '.';
    g->pointlen = 1;
}

static void
grouping_simple(Grouping *g, char sep, int size)
{
    grouping_none(g);
    if (sep) {
        g->sep[0] = (unsigned char)sep;
        g->seplen = 1;
        g->groups = size == 4 ? groups_of_4 : groups_of_3;
    }
}

/* a locale string (UTF-8 or Latin-1) into code points */
static Py_ssize_t
locale_chars(const char *s, Py_UCS4 *out, Py_ssize_t cap)
{
    PyObject *u = PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "strict");
    Py_ssize_t n = 0;
    if (u == NULL) {
        PyErr_Clear();
        for (; s[n] && n < cap; n++) {
            out[n] = (unsigned char)s[n];
        }
        return n;
    }
    for (; n < PyUnicode_GET_LENGTH(u) && n < cap; n++) {
        out[n] = PyUnicode_READ_CHAR(u, n);
    }
    Py_DECREF(u);
    return n;
}

static void
grouping_locale(Grouping *g)
{
    struct lconv *lc = localeconv();
    grouping_none(g);
    g->pointlen = locale_chars(lc->decimal_point, g->point, 8);
    if (g->pointlen == 0) {
        g->point[0] = '.';
        g->pointlen = 1;
    }
    g->seplen = locale_chars(lc->thousands_sep, g->sep, 8);
    g->groups = lc->grouping;
    if (g->groups == NULL || g->groups[0] == 0 || g->groups[0] == CHAR_MAX) {
        g->seplen = 0;
    }
}

/* Append digits[0:n] with separators; zeros are added in front (grouped
   too) until the result has at least min_width characters. */
static int
put_grouped(ubuf *u, const char *digits, Py_ssize_t n, const Grouping *g, Py_ssize_t min_width,
            int upper)
{
    if (g->seplen == 0) {
        if (ub_repeat(u, '0', min_width - n) < 0 || ub_ascii(u, digits, n) < 0) {
            return -1;
        }
        if (upper) {
            for (Py_ssize_t i = u->len - n; i < u->len; i++) {
                if (u->buf[i] >= 'a' && u->buf[i] <= 'z') {
                    u->buf[i] -= 'a' - 'A';
                }
            }
        }
        return 0;
    }
    /* build right to left into a scratch buffer, then reverse */
    ubuf tmp;
    ub_init(&tmp);
    const char *gp = g->groups;
    int size = (unsigned char)*gp;
    int in_group = 0, grouping = 1;
    Py_ssize_t i = n - 1;
    while (i >= 0 || tmp.len < min_width) {
        if (grouping && in_group == size) {
            for (Py_ssize_t k = g->seplen - 1; k >= 0; k--) {
                if (ub_putc(&tmp, g->sep[k]) < 0) {
                    goto error;
                }
            }
            in_group = 0;
            if (gp[1] != 0) {
                gp++;
                if ((unsigned char)*gp == CHAR_MAX) {
                    grouping = 0;
                }
                else {
                    size = (unsigned char)*gp;
                }
            }
        }
        char c = i >= 0 ? digits[i] : '0';
        if (upper && c >= 'a' && c <= 'z') {
            c = (char)(c - ('a' - 'A'));
        }
        if (ub_putc(&tmp, (unsigned char)c) < 0) {
            goto error;
        }
        i--;
        in_group++;
    }
    if (ub_reserve(u, tmp.len) < 0) {
        goto error;
    }
    for (Py_ssize_t k = tmp.len - 1; k >= 0; k--) {
        if (ub_putc(u, tmp.buf[k]) < 0) {
            goto error;
        }
    }
    ub_free(&tmp);
    return 0;
error:
    ub_free(&tmp);
    return -1;
}

/* ---- Rendering a number ------------------------------------------------- */

typedef struct {
    Py_UCS4 sign;            /* 0, '-', '+' or ' ' */
    const char *prefix;      /* "0x" and friends */
    Py_ssize_t nprefix;
    const char *digits;      /* integer part */
    Py_ssize_t ndigits;
    const char *rest;        /* ".fraction", exponent, '%', "inf" ... */
    Py_ssize_t nrest;
    int upper;               /* upper-case the digits (X) */
} NumberParts;

/* Characters of the fractional part and the rest, with the decimal point
   replaced and fractional digits grouped. */
static int
put_rest(ubuf *u, const NumberParts *p, const Grouping *g, char frac_sep)
{
    Py_ssize_t i = 0;
    if (i < p->nrest && p->rest[i] == '.') {
        if (ub_ucs4(u, g->point, g->pointlen) < 0) {
            return -1;
        }
        i++;
        int count = 0;
        while (i < p->nrest && p->rest[i] >= '0' && p->rest[i] <= '9') {
            if (frac_sep && count > 0 && count % 3 == 0) {
                if (ub_putc(u, (unsigned char)frac_sep) < 0) {
                    return -1;
                }
            }
            if (ub_putc(u, (unsigned char)p->rest[i]) < 0) {
                return -1;
            }
            i++;
            count++;
        }
    }
    return ub_ascii(u, p->rest + i, p->nrest - i);
}

static Py_ssize_t
rest_length(const NumberParts *p, const Grouping *g, char frac_sep)
{
    Py_ssize_t n = p->nrest;
    if (n > 0 && p->rest[0] == '.') {
        Py_ssize_t digits = 0;
        while (1 + digits < p->nrest && p->rest[1 + digits] >= '0' && p->rest[1 + digits] <= '9') {
            digits++;
        }
        n += g->pointlen - 1;
        if (frac_sep && digits > 0) {
            n += (digits - 1) / 3;
        }
    }
    return n;
}

static int
render_number(ubuf *u, const NumberParts *p, const FormatSpec *f, const Grouping *g)
{
    Py_ssize_t nsign = p->sign ? 1 : 0;
    Py_ssize_t nrest = rest_length(p, g, f->frac_thousands);
    /* zero fill with '=' goes inside the digits, grouped */
    Py_ssize_t min_digits = 0;
    int zero_fill = f->fill == '0' && f->align == '=' && p->ndigits > 0;
    if (zero_fill && f->width > 0) {
        min_digits = f->width - nsign - p->nprefix - nrest;
    }
    ubuf body;
    ub_init(&body);
    /* reserve the whole body at once: a huge one (a precision near
       INT_MAX) must not be regrown and copied as it fills */
    Py_ssize_t ngrouped = Py_MAX(p->ndigits, min_digits);
    if (g->seplen > 0) {
        ngrouped += (ngrouped / 3 + 1) * g->seplen;
    }
    if (ngrouped > PY_SSIZE_T_MAX / 8 - nrest ||
        ub_reserve(&body, nsign + p->nprefix + ngrouped + nrest) < 0) {
        PyErr_NoMemory();
        goto error;
    }
    if ((p->sign && ub_putc(&body, p->sign) < 0) ||
        ub_ascii(&body, p->prefix, p->nprefix) < 0) {
        goto error;
    }
    Py_ssize_t digits_at = body.len;
    if (put_grouped(&body, p->digits, p->ndigits, g, min_digits, p->upper) < 0 ||
        put_rest(&body, p, g, f->frac_thousands) < 0) {
        goto error;
    }
    Py_ssize_t right, left = padding(f, body.len, &right);
    if (f->align == '=') {
        /* fill between the sign/prefix and the digits */
        if (ub_ucs4(u, body.buf, digits_at) < 0 ||
            ub_repeat(u, f->fill, left + right) < 0 ||
            ub_ucs4(u, body.buf + digits_at, body.len - digits_at) < 0) {
            goto error;
        }
    }
    else if (ub_repeat(u, f->fill, left) < 0 ||
             ub_append_take(u, &body) < 0 ||
             ub_repeat(u, f->fill, right) < 0) {
        goto error;
    }
    ub_free(&body);
    return 0;
error:
    ub_free(&body);
    return -1;
}

static Py_UCS4
sign_char(int negative, Py_UCS4 spec_sign)
{
    if (negative) {
        return '-';
    }
    if (spec_sign == '+' || spec_sign == ' ') {
        return spec_sign;
    }
    return 0;
}

/* ---- str ---------------------------------------------------------------- */

static int
format_str_spec(ubuf *u, PyObject *obj, const FormatSpec *f)
{
    if (f->type != 's') {
        unknown_type_error(f->type, obj);
        return -1;
    }
    if (f->sign == ' ') {
        PyErr_SetString(PyExc_ValueError, "Space not allowed in string format specifier");
        return -1;
    }
    if (f->sign) {
        PyErr_SetString(PyExc_ValueError, "Sign not allowed in string format specifier");
        return -1;
    }
    if (f->no_neg_0) {
        PyErr_SetString(PyExc_ValueError,
                        "Negative zero coercion (z) not allowed in string format specifier");
        return -1;
    }
    if (f->alternate) {
        PyErr_SetString(PyExc_ValueError,
                        "Alternate form (#) not allowed in string format specifier");
        return -1;
    }
    if (f->align == '=') {
        PyErr_SetString(PyExc_ValueError,
                        "'=' alignment not allowed in string format specifier");
        return -1;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(obj);
    if (f->precision >= 0 && f->precision < len) {
        len = f->precision;
    }
    Py_ssize_t right, left = padding(f, len, &right);
    if (ub_repeat(u, f->fill, left) < 0 || ub_reserve(u, len) < 0) {
        return -1;
    }
    int kind = PyUnicode_KIND(obj);
    const void *data = PyUnicode_DATA(obj);
    for (Py_ssize_t i = 0; i < len; i++) {
        if (ub_putc(u, PyUnicode_READ(kind, data, i)) < 0) {
            return -1;
        }
    }
    return ub_repeat(u, f->fill, right);
}

/* ---- int ---------------------------------------------------------------- */

static int format_float_spec(ubuf *u, PyObject *obj, double x, const FormatSpec *f);

static int
format_char(ubuf *u, PyObject *obj, const FormatSpec *f)
{
    if (f->sign) {
        PyErr_SetString(PyExc_ValueError, "Sign not allowed with integer format specifier 'c'");
        return -1;
    }
    if (f->alternate) {
        PyErr_SetString(PyExc_ValueError,
                        "Alternate form (#) not allowed with integer format specifier 'c'");
        return -1;
    }
    long x = PyLong_AsLong(obj);
    if (x == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (x < 0 || x > 0x10ffff) {
        PyErr_SetString(PyExc_OverflowError, "%c arg not in range(0x110000)");
        return -1;
    }
    Py_ssize_t right, left = padding(f, 1, &right);
    if (ub_repeat(u, f->fill, left) < 0 || ub_putc(u, (Py_UCS4)x) < 0) {
        return -1;
    }
    return ub_repeat(u, f->fill, right);
}

static int
format_int_spec(ubuf *u, PyObject *obj, const FormatSpec *f)
{
    int base;
    const char *prefix = "";
    switch (f->type) {
    case 'd': case 'n': base = 10; break;
    case 'b': base = 2; prefix = "0b"; break;
    case 'o': base = 8; prefix = "0o"; break;
    case 'x': base = 16; prefix = "0x"; break;
    case 'X': base = 16; prefix = "0X"; break;
    case 'c': base = 0; break;
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%': {
        double x = PyLong_AsDouble(obj);
        if (x == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        return format_float_spec(u, obj, x, f);
    }
    default:
        unknown_type_error(f->type, obj);
        return -1;
    }
    if (f->precision >= 0) {
        PyErr_SetString(PyExc_ValueError, "Precision not allowed in integer format specifier");
        return -1;
    }
    if (f->frac_thousands) {
        separator_type_error(f->frac_thousands, f->type);
        return -1;
    }
    if (f->no_neg_0) {
        PyErr_SetString(PyExc_ValueError,
                        "Negative zero coercion (z) not allowed in integer format specifier");
        return -1;
    }
    if (f->type == 'c') {
        return format_char(u, obj, f);
    }
    Py_ssize_t ndigits;
    char *digits = _PyLong_ToDigitBuffer(obj, base, &ndigits);
    if (digits == NULL) {
        return -1;
    }
    NumberParts p = {0};
    p.sign = sign_char(_PyLong_IsNegative((PyLongObject *)obj), f->sign);
    p.prefix = prefix;
    p.nprefix = f->alternate ? (Py_ssize_t)strlen(prefix) : 0;
    p.digits = digits;
    p.ndigits = ndigits;
    p.rest = "";
    p.upper = f->type == 'X';
    Grouping g;
    if (f->type == 'n') {
        grouping_locale(&g);
    }
    else {
        grouping_simple(&g, f->thousands, base == 10 ? 3 : 4);
    }
    int rc = render_number(u, &p, f, &g);
    PyMem_Free(digits);
    return rc;
}

/* ---- float -------------------------------------------------------------- */

/* Split a formatted double (without its sign) into integer digits and the
   rest. */
static void
split_number(const char *s, NumberParts *p)
{
    Py_ssize_t n = 0;
    while (s[n] >= '0' && s[n] <= '9') {
        n++;
    }
    p->digits = s;
    p->ndigits = n;
    p->rest = s + n;
    p->nrest = (Py_ssize_t)strlen(s + n);
}

static int
format_float_spec(ubuf *u, PyObject *obj, double x, const FormatSpec *f)
{
    Py_UCS4 type = f->type;
    Py_ssize_t precision = f->precision;
    int flags = 0;
    char code;
    int percent = 0;
    switch (type) {
    case '\0':
        /* like repr() without a precision, else 'g' with a ".0" */
        flags |= Py_DTSF_ADD_DOT_0;
        code = precision < 0 ? 'r' : 'g';
        break;
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
        code = (char)type;
        break;
    case 'n':
        code = 'g';
        break;
    case '%':
        code = 'f';
        percent = 1;
        x *= 100;
        break;
    default:
        unknown_type_error(type, obj);
        return -1;
    }
    if (precision < 0 && code != 'r') {
        precision = 6;
    }
    if (precision > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "precision too big");
        return -1;
    }
    if (f->alternate) {
        flags |= Py_DTSF_ALT;
    }
    if (f->no_neg_0) {
        flags |= Py_DTSF_NO_NEG_0;
    }
    char *s = PyOS_double_to_string(x, code, code == 'r' ? 0 : (int)precision, flags, NULL);
    if (s == NULL) {
        return -1;
    }
    int negative = s[0] == '-';
    NumberParts p = {0};
    p.sign = sign_char(negative, f->sign);
    p.prefix = "";
    split_number(s + negative, &p);
    int rc;
    Grouping g;
    if (type == 'n') {
        grouping_locale(&g);
    }
    else {
        grouping_simple(&g, f->thousands, 3);
    }
    if (percent) {
        /* the '%' joins the rest */
        size_t len = strlen(s);
        char *t = PyMem_Malloc(len + 2);
        if (t == NULL) {
            PyMem_Free(s);
            PyErr_NoMemory();
            return -1;
        }
        memcpy(t, s, len);
        t[len] = '%';
        t[len + 1] = '\0';
        PyMem_Free(s);
        s = t;
        split_number(s + negative, &p);
    }
    rc = render_number(u, &p, f, &g);
    PyMem_Free(s);
    return rc;
}

/* ---- complex ------------------------------------------------------------ */

/* One part of a complex, rendered (sign and all) into u without
   padding. */
static int
complex_part(ubuf *u, double x, char code, int precision, int flags, Py_UCS4 sign,
             const FormatSpec *f, const Grouping *g)
{
    char *s = PyOS_double_to_string(x, code, precision, flags, NULL);
    if (s == NULL) {
        return -1;
    }
    int negative = s[0] == '-';
    NumberParts p = {0};
    p.sign = sign_char(negative, sign);
    p.prefix = "";
    split_number(s + negative, &p);
    FormatSpec plain = *f;
    plain.width = -1;
    plain.fill = ' ';
    plain.align = '>';
    int rc = render_number(u, &p, &plain, g);
    PyMem_Free(s);
    return rc;
}

static int
format_complex_spec(ubuf *u, PyObject *obj, const FormatSpec *f)
{
    Py_complex c = ((PyComplexObject *)obj)->cval;
    Py_ssize_t precision = f->precision;
    int flags = 0, add_parens = 0, skip_re = 0;
    char code;
    switch (f->type) {
    case '\0':
        add_parens = 1;
        skip_re = c.real == 0.0 && !signbit(c.real);
        code = precision < 0 ? 'r' : 'g';
        break;
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
        code = (char)f->type;
        break;
    case 'n':
        code = 'g';
        break;
    default:
        unknown_type_error(f->type, obj);
        return -1;
    }
    if (f->fill == '0') {
        PyErr_SetString(PyExc_ValueError,
                        "Zero padding is not allowed in complex format specifier");
        return -1;
    }
    if (f->align == '=') {
        PyErr_SetString(PyExc_ValueError,
                        "'=' alignment flag is not allowed in complex format specifier");
        return -1;
    }
    if (precision < 0 && code != 'r') {
        precision = 6;
    }
    if (precision > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "precision too big");
        return -1;
    }
    if (f->alternate) {
        flags |= Py_DTSF_ALT;
    }
    if (f->no_neg_0) {
        flags |= Py_DTSF_NO_NEG_0;
    }
    int prec = code == 'r' ? 0 : (int)precision;
    Grouping g;
    if (f->type == 'n') {
        grouping_locale(&g);
    }
    else {
        grouping_simple(&g, f->thousands, 3);
    }
    ubuf body;
    ub_init(&body);
    if (add_parens && !skip_re && ub_putc(&body, '(') < 0) {
        goto error;
    }
    if (!skip_re && complex_part(&body, c.real, code, prec, flags, f->sign, f, &g) < 0) {
        goto error;
    }
    /* the imaginary part always carries its sign after a real part */
    if (complex_part(&body, c.imag, code, prec, flags, skip_re ? f->sign : '+', f, &g) < 0 ||
        ub_putc(&body, 'j') < 0) {
        goto error;
    }
    if (add_parens && !skip_re && ub_putc(&body, ')') < 0) {
        goto error;
    }
    Py_ssize_t right, left = padding(f, body.len, &right);
    if (ub_repeat(u, f->fill, left) < 0 || ub_append_take(u, &body) < 0 ||
        ub_repeat(u, f->fill, right) < 0) {
        goto error;
    }
    ub_free(&body);
    return 0;
error:
    ub_free(&body);
    return -1;
}

/* ---- Entry points ------------------------------------------------------- */

typedef int (*spec_formatter)(ubuf *u, PyObject *obj, const FormatSpec *f);

static int
format_float_entry(ubuf *u, PyObject *obj, const FormatSpec *f)
{
    return format_float_spec(u, obj, PyFloat_AS_DOUBLE(obj), f);
}

static PyObject *
format_with(PyObject *obj, PyObject *spec, Py_ssize_t start, Py_ssize_t end,
            Py_UCS4 default_type, Py_UCS4 default_align, spec_formatter fn)
{
    if (start >= end) {
        /* an empty spec means str() */
        if (PyUnicode_CheckExact(obj)) {
            return Py_NewRef(obj);
        }
        return PyObject_Str(obj);
    }
    FormatSpec f;
    if (parse_spec(obj, spec, start, end, default_type, default_align, &f) < 0) {
        return NULL;
    }
    ubuf u;
    ub_init(&u);
    if (fn(&u, obj, &f) < 0) {
        ub_free(&u);
        return NULL;
    }
    return ub_finish(&u);
}

PyObject *
_PyUnicode_FormatAdvanced(PyObject *obj, PyObject *format_spec, Py_ssize_t start, Py_ssize_t end)
{
    return format_with(obj, format_spec, start, end, 's', '<', format_str_spec);
}

PyObject *
_PyLong_FormatAdvanced(PyObject *obj, PyObject *format_spec, Py_ssize_t start, Py_ssize_t end)
{
    return format_with(obj, format_spec, start, end, 'd', '>', format_int_spec);
}

PyObject *
_PyFloat_FormatAdvanced(PyObject *obj, PyObject *format_spec, Py_ssize_t start, Py_ssize_t end)
{
    return format_with(obj, format_spec, start, end, '\0', '>', format_float_entry);
}

PyObject *
_PyComplex_FormatAdvanced(PyObject *obj, PyObject *format_spec, Py_ssize_t start, Py_ssize_t end)
{
    return format_with(obj, format_spec, start, end, '\0', '>', format_complex_spec);
}

static int
write_result(_PyUnicodeWriter *writer, PyObject *result)
{
    if (result == NULL) {
        return -1;
    }
    int rc = _PyUnicodeWriter_WriteStr(writer, result);
    Py_DECREF(result);
    return rc;
}

int
_PyUnicode_FormatAdvancedWriter(_PyUnicodeWriter *writer, PyObject *obj, PyObject *format_spec,
                                Py_ssize_t start, Py_ssize_t end)
{
    return write_result(writer, _PyUnicode_FormatAdvanced(obj, format_spec, start, end));
}

int
_PyLong_FormatAdvancedWriter(_PyUnicodeWriter *writer, PyObject *obj, PyObject *format_spec,
                             Py_ssize_t start, Py_ssize_t end)
{
    return write_result(writer, _PyLong_FormatAdvanced(obj, format_spec, start, end));
}

int
_PyFloat_FormatAdvancedWriter(_PyUnicodeWriter *writer, PyObject *obj, PyObject *format_spec,
                              Py_ssize_t start, Py_ssize_t end)
{
    return write_result(writer, _PyFloat_FormatAdvanced(obj, format_spec, start, end));
}

int
_PyComplex_FormatAdvancedWriter(_PyUnicodeWriter *writer, PyObject *obj, PyObject *format_spec,
                                Py_ssize_t start, Py_ssize_t end)
{
    return write_result(writer, _PyComplex_FormatAdvanced(obj, format_spec, start, end));
}
