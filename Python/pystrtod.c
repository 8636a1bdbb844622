/* Conversions between doubles and text, independent of the C locale.

   Parsing: Python's float syntax is a strict subset of what C's strtod
   accepts (no hex floats, no "nan(...)", no leading whitespace), so the
   text is validated here first and only then handed to strtod_l with the
   "C" locale, which rounds correctly.

   Formatting: 'e', 'f' and 'g' start from snprintf's correctly rounded
   digits.  'r' (repr) needs the shortest digit string that reads back as
   the same double: try increasing precisions with snprintf and check each
   candidate with strtod.  For normal doubles, 15 significant digits are
   spaced wider than one ulp, so if the 15-digit rounding reads back, it
   is the only short candidate and the answer (less trailing zeros);
   otherwise only 16 or 17 digits can work.  Digits are then laid out the
   way Python prints floats. */

#include "Python.h"
#include "pycore_floatobject.h"

#include <float.h>
#include <locale.h>

/* ---- The "C" locale ------------------------------------------------------- */

static locale_t
c_locale(void)
{
    static locale_t loc = (locale_t)0;
    if (loc == (locale_t)0) {
        loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    }
    return loc;
}

static double
c_strtod(const char *s, char **end)
{
    locale_t loc = c_locale();
    if (loc != (locale_t)0) {
        return strtod_l(s, end, loc);
    }
    return strtod(s, end);
}

double
_PyOS_ascii_strtod(const char *s, char **end)
{
    return c_strtod(s, end);
}

/* snprintf("%.*<conv>", prec, x) in the C locale */
static int
c_format(char *buf, size_t size, const char *fmt, int prec, double x)
{
    locale_t loc = c_locale();
    locale_t old = (locale_t)0;
    if (loc != (locale_t)0) {
        old = uselocale(loc);
    }
    int n = snprintf(buf, size, fmt, prec, x);
    if (loc != (locale_t)0) {
        uselocale(old);
    }
    return n;
}

/* ---- Parsing ----------------------------------------------------------------- */

static int
lower_prefix(const char *s, Py_ssize_t len, const char *word)
{
    Py_ssize_t n = (Py_ssize_t)strlen(word);
    if (len < n) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if ((s[i] | 0x20) != word[i]) {
            return 0;
        }
    }
    return 1;
}

static inline int
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Length of the longest prefix of s[0:len] that is a float in Python's
   syntax (0 if none), with its value in *out.  No underscores, no
   whitespace.  Overflow gives an infinity (check with *overflowed). */
static Py_ssize_t
scan_float(const char *s, Py_ssize_t len, double *out, int *overflowed)
{
    Py_ssize_t i = 0;
    int negative = 0;
    *overflowed = 0;
    if (i < len && (s[i] == '+' || s[i] == '-')) {
        negative = s[i] == '-';
        i++;
    }
    if (lower_prefix(s + i, len - i, "inf")) {
        Py_ssize_t n = lower_prefix(s + i, len - i, "infinity") ? 8 : 3;
        *out = negative ? -HUGE_VAL : HUGE_VAL;
        return i + n;
    }
    if (lower_prefix(s + i, len - i, "nan")) {
        *out = negative ? -(double)NAN : (double)NAN;
        return i + 3;
    }
    Py_ssize_t start = i, mant_digits = 0;
    while (i < len && is_digit(s[i])) {
        i++;
        mant_digits++;
    }
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && is_digit(s[i])) {
            i++;
            mant_digits++;
        }
    }
    if (mant_digits == 0) {
        return 0;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        Py_ssize_t j = i + 1;
        if (j < len && (s[j] == '+' || s[j] == '-')) {
            j++;
        }
        if (j < len && is_digit(s[j])) {
            while (j < len && is_digit(s[j])) {
                j++;
            }
            i = j;
        }
    }
    /* strtod needs a terminated copy of exactly the accepted text */
    char small[64];
    Py_ssize_t n = i - start;
    char *buf = n < (Py_ssize_t)sizeof(small) ? small : PyMem_Malloc((size_t)n + 1);
    if (buf == NULL) {
        return -1;
    }
    memcpy(buf, s + start, (size_t)n);
    buf[n] = '\0';
    errno = 0;
    double x = c_strtod(buf, NULL);
    if (errno == ERANGE && isinf(x)) {
        *overflowed = 1;
    }
    if (buf != small) {
        PyMem_Free(buf);
    }
    *out = negative ? -x : x;
    return i;
}

Py_ssize_t
_PyOS_ScanFloat(const char *s, Py_ssize_t len, double *out)
{
    int overflowed;
    Py_ssize_t n = scan_float(s, len, out, &overflowed);
    if (n < 0) {
        PyErr_NoMemory();
    }
    return n;
}

Py_ssize_t
_PyOS_StripUnderscores(const char *s, Py_ssize_t len, char *out)
{
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        if (s[i] == '_') {
            if (i == 0 || i + 1 == len || !is_digit(s[i - 1]) || !is_digit(s[i + 1])) {
                return -1;
            }
            continue;
        }
        out[n++] = s[i];
    }
    out[n] = '\0';
    return n;
}

int
_PyOS_ParseFloatLiteral(const char *s, Py_ssize_t len, double *out)
{
    const char *text = s;
    char small[64];
    char *buf = NULL;
    if (memchr(s, '_', (size_t)len) != NULL) {
        buf = len < (Py_ssize_t)sizeof(small) ? small : PyMem_Malloc((size_t)len + 1);
        if (buf == NULL) {
            PyErr_NoMemory();
            return -2;
        }
        len = _PyOS_StripUnderscores(s, len, buf);
        text = buf;
    }
    int rc = -1;
    if (len > 0) {
        int overflowed;
        Py_ssize_t n = scan_float(text, len, out, &overflowed);
        if (n < 0) {
            PyErr_NoMemory();
            rc = -2;
        }
        else if (n == len) {
            rc = 0;
        }
    }
    if (buf != NULL && buf != small) {
        PyMem_Free(buf);
    }
    return rc;
}

double
PyOS_string_to_double(const char *s, char **endptr, PyObject *overflow_exception)
{
    Py_ssize_t len = (Py_ssize_t)strlen(s);
    double x;
    int overflowed;
    Py_ssize_t n = scan_float(s, len, &x, &overflowed);
    if (n < 0) {
        PyErr_NoMemory();
        return -1.0;
    }
    if (n == 0 || (endptr == NULL && n != len)) {
        if (endptr != NULL) {
            *endptr = (char *)s;
        }
        PyErr_Format(PyExc_ValueError, "could not convert string to float: '%.200s'", s);
        return -1.0;
    }
    if (endptr != NULL) {
        *endptr = (char *)s + n;
    }
    if (overflowed && overflow_exception != NULL) {
        PyErr_Format(overflow_exception, "value too large to convert to float: '%.200s'", s);
        return -1.0;
    }
    return x;
}

/* ---- Digit generation --------------------------------------------------------- */

/* Significant digits of x > 0 (finite): "%.*e" with ndig digits, split
   into the digit string (no dot) and the decimal exponent: x ~ 0.DIGITS *
   10**decpt.  Returns decpt. */
static int
sig_digits(double x, int ndig, char *digits)
{
    char buf[64];
    c_format(buf, sizeof(buf), "%.*e", ndig - 1, x);
    char *p = buf, *d = digits;
    while (*p != 'e') {
        if (is_digit(*p)) {
            *d++ = *p;
        }
        p++;
    }
    *d = '\0';
    return atoi(p + 1) + 1;
}

static double
digits_value(const char *digits, int decpt)
{
    char buf[64];
    snprintf(buf, sizeof(buf), "0.%se%d", digits, decpt);
    return c_strtod(buf, NULL);
}

/* Add one unit in the last place of a digit string (carry may lengthen
   it by one digit: then *decpt grows). */
static void
digits_increment(char *digits, int *decpt)
{
    int n = (int)strlen(digits);
    int i = n - 1;
    while (i >= 0 && digits[i] == '9') {
        digits[i] = '0';
        i--;
    }
    if (i >= 0) {
        digits[i]++;
        return;
    }
    memmove(digits + 1, digits, (size_t)n + 1);
    digits[0] = '1';
    digits[n] = '\0';
    (*decpt)++;
}

/* Try ndig digits: 1 and the candidate in digits and decpt if it reads back
   as x, else 0. */
static int
try_digits(double x, int ndig, int power_of_two, char *digits, int *decpt)
{
    *decpt = sig_digits(x, ndig, digits);
    double back = digits_value(digits, *decpt);
    if (back == x) {
        return 1;
    }
    if (power_of_two && back < x) {
        /* the interval below a power of two is half as wide: the next
           decimal up may fit where the nearest (below) does not */
        char alt[32];
        int altdecpt = *decpt;
        strcpy(alt, digits);
        digits_increment(alt, &altdecpt);
        alt[ndig] = '\0';
        if (digits_value(alt, altdecpt) == x) {
            strcpy(digits, alt);
            *decpt = altdecpt;
            return 1;
        }
    }
    return 0;
}

static void
strip_trailing_zeros(char *digits)
{
    size_t n = strlen(digits);
    while (n > 1 && digits[n - 1] == '0') {
        digits[--n] = '\0';
    }
}

/* Round the 17-digit string d17 to ndig digits (ndig < 17) into out;
   returns the new decpt, or INT_MIN when the dropped digits are exactly
   a half (rounding the rounded digits again could then be wrong). */
static int
round_digit_string(const char *d17, int decpt, int ndig, char *out)
{
    memcpy(out, d17, (size_t)ndig);
    out[ndig] = '\0';
    char first = d17[ndig];
    if (first < '5') {
        return decpt;
    }
    if (first == '5') {
        const char *p = d17 + ndig + 1;
        while (*p == '0') {
            p++;
        }
        if (*p == '\0') {
            return INT_MIN;
        }
    }
    digits_increment(out, &decpt);
    out[ndig] = '\0';
    return decpt;
}

/* Like try_digits, but derive the candidate from the 17 correctly
   rounded digits instead of formatting again. */
static int
try_rounded(double x, const char *d17, int decpt17, int ndig, int power_of_two,
            char *digits, int *decpt)
{
    *decpt = round_digit_string(d17, decpt17, ndig, digits);
    if (*decpt == INT_MIN) {
        return try_digits(x, ndig, power_of_two, digits, decpt);
    }
    double back = digits_value(digits, *decpt);
    if (back == x) {
        return 1;
    }
    if (power_of_two && back < x) {
        char alt[32];
        int altdecpt = *decpt;
        strcpy(alt, digits);
        digits_increment(alt, &altdecpt);
        alt[ndig] = '\0';
        if (digits_value(alt, altdecpt) == x) {
            strcpy(digits, alt);
            *decpt = altdecpt;
            return 1;
        }
    }
    return 0;
}

/* Integers below 2**53 read back exactly from their own digits, and no
   shorter decimal lies within half an ulp (<= 1/2) of them. */
static int
integer_digits(double x, char *digits)
{
    uint64_t v = (uint64_t)x;
    char tmp[24];
    int n = 0;
    while (v) {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    }
    for (int i = 0; i < n; i++) {
        digits[i] = tmp[n - 1 - i];
    }
    digits[n] = '\0';
    strip_trailing_zeros(digits);
    return n;
}

/* Shortest round-tripping digits of x > 0 (finite); returns decpt. */
static int
shortest_digits(double x, char *digits)
{
    int decpt, e;
    double m = frexp(x, &e);
    int power_of_two = (m == 0.5);
    if (x < 9007199254740992.0 && x >= 1.0 && x == floor(x)) {
        return integer_digits(x, digits);
    }
    if (x >= DBL_MIN) {
        char d17[32];
        int decpt17 = sig_digits(x, 17, d17);
        if (try_rounded(x, d17, decpt17, 15, power_of_two, digits, &decpt)) {
            strip_trailing_zeros(digits);
            return decpt;
        }
        if (try_rounded(x, d17, decpt17, 16, power_of_two, digits, &decpt)) {
            return decpt;
        }
        strcpy(digits, d17);
        return decpt17;
    }
    for (int ndig = 1; ndig < 17; ndig++) {
        if (try_digits(x, ndig, 0, digits, &decpt)) {
            strip_trailing_zeros(digits);
            return decpt;
        }
    }
    return sig_digits(x, 17, digits);
}

/* ---- Layout --------------------------------------------------------------------- */

typedef struct {
    char *buf;
    size_t len, cap;
} strbuf;

static int
sb_reserve(strbuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap) {
        return 0;
    }
    /* geometric growth on the current capacity, not on the need: a single
       huge request (a precision near INT_MAX) then costs its own size */
    size_t need = sb->len + extra + 1;
    size_t cap = sb->cap * 2 > need ? sb->cap * 2 : need;
    char *p = PyMem_Realloc(sb->buf, cap);
    if (p == NULL) {
        return -1;
    }
    sb->buf = p;
    sb->cap = cap;
    return 0;
}

static int
sb_put(strbuf *sb, const char *s, size_t n)
{
    if (sb_reserve(sb, n) < 0) {
        return -1;
    }
    memcpy(sb->buf + sb->len, s, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
    return 0;
}

static int
sb_repeat(strbuf *sb, char c, size_t n)
{
    if (sb_reserve(sb, n) < 0) {
        return -1;
    }
    memset(sb->buf + sb->len, c, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
    return 0;
}

/* Lay out digits (value 0.DIGITS * 10**decpt) in fixed or exponential
   notation.  min_digits pads with zeros to that many significant digits
   (the alternate form of 'g'); `alt` always shows the point; add_dot_0
   gives integral fixed-point results a ".0". */
static int
layout_digits(strbuf *sb, const char *digits, int decpt, int use_exp, int min_digits,
              int alt, int add_dot_0, char echar)
{
    int n = (int)strlen(digits);
    int total = Py_MAX(n, min_digits);
    int rc = 0;
    if (use_exp) {
        rc |= sb_put(sb, digits, 1);
        if (total > 1 || alt) {
            rc |= sb_put(sb, ".", 1);
        }
        rc |= sb_put(sb, digits + 1, (size_t)(n - 1));
        rc |= sb_repeat(sb, '0', (size_t)(total - n));
        char ebuf[16];
        int e = decpt - 1;
        int k = snprintf(ebuf, sizeof(ebuf), "%c%c%02d", echar, e < 0 ? '-' : '+', e < 0 ? -e : e);
        rc |= sb_put(sb, ebuf, (size_t)k);
        return rc;
    }
    if (decpt <= 0) {
        rc |= sb_put(sb, "0.", 2);
        rc |= sb_repeat(sb, '0', (size_t)-decpt);
        rc |= sb_put(sb, digits, (size_t)n);
        rc |= sb_repeat(sb, '0', (size_t)(total - n));
        return rc;
    }
    if (decpt >= total) {
        rc |= sb_put(sb, digits, (size_t)n);
        rc |= sb_repeat(sb, '0', (size_t)(decpt - n));
        if (alt || add_dot_0) {
            rc |= sb_put(sb, ".", 1);
        }
        if (add_dot_0) {
            rc |= sb_put(sb, "0", 1);
        }
        return rc;
    }
    /* the point falls inside the digits */
    if (decpt <= n) {
        rc |= sb_put(sb, digits, (size_t)decpt);
        rc |= sb_put(sb, ".", 1);
        rc |= sb_put(sb, digits + decpt, (size_t)(n - decpt));
        rc |= sb_repeat(sb, '0', (size_t)(total - n));
    }
    else {
        rc |= sb_put(sb, digits, (size_t)n);
        rc |= sb_repeat(sb, '0', (size_t)(decpt - n));
        rc |= sb_put(sb, ".", 1);
        rc |= sb_repeat(sb, '0', (size_t)(total - decpt));
    }
    return rc;
}

/* 'r': shortest repr */
static int
format_repr(strbuf *sb, double x, int flags)
{
    char digits[32];
    int decpt;
    if (x == 0.0) {
        strcpy(digits, "0");
        decpt = 1;
    }
    else {
        decpt = shortest_digits(x, digits);
    }
    int use_exp = decpt <= -4 || decpt > 16;
    return layout_digits(sb, digits, decpt, use_exp, 0, (flags & Py_DTSF_ALT) != 0,
                         (flags & Py_DTSF_ADD_DOT_0) != 0, 'e');
}

/* A double's exact decimal expansion ends within EXACT_DIGITS digits of
   the point (2**-1074 has 1074 fractional digits; no double has more
   significant digits), so digits asked for beyond that are exact zeros:
   snprintf writes at most EXACT_DIGITS of them and the rest are added
   here.  That also keeps snprintf's int result from overflowing for
   precisions near INT_MAX. */
#define EXACT_DIGITS 1100

/* 'g': precision significant digits; trailing zeros go unless alt.
   With add_dot_0 (the "no type" format), exponents start one earlier. */
static int
format_general(strbuf *sb, double x, int precision, int flags, char echar)
{
    char digits[64];
    char *big = NULL;
    int p = precision == 0 ? 1 : precision;
    int decpt;
    int alt = (flags & Py_DTSF_ALT) != 0, add_dot_0 = (flags & Py_DTSF_ADD_DOT_0) != 0;
    /* digits past EXACT_DIGITS are zeros: layout_digits pads them */
    int pd = p > EXACT_DIGITS ? EXACT_DIGITS : p;
    if (p > 17) {
        /* beyond 17 digits the extra digits are exact zeros or the exact
           binary expansion: snprintf gives them directly */
        big = PyMem_Malloc((size_t)pd + 16);
        if (big == NULL) {
            return -1;
        }
    }
    char *d = big ? big : digits;
    if (x == 0.0) {
        strcpy(d, "0");
        decpt = 1;
    }
    else if (big) {
        /* up to p digits of "%.*e" */
        size_t cap = (size_t)pd + 32;
        char *tmp = PyMem_Malloc(cap);
        if (tmp == NULL) {
            PyMem_Free(big);
            return -1;
        }
        c_format(tmp, cap, "%.*e", pd - 1, x);
        char *q = tmp, *o = d;
        while (*q != 'e') {
            if (is_digit(*q)) {
                *o++ = *q;
            }
            q++;
        }
        *o = '\0';
        decpt = atoi(q + 1) + 1;
        PyMem_Free(tmp);
    }
    else {
        decpt = sig_digits(x, p, d);
    }
    int use_exp = decpt <= -4 || decpt > p - add_dot_0;
    if (!alt) {
        strip_trailing_zeros(d);
    }
    int rc = layout_digits(sb, d, decpt, use_exp, alt ? p : 0, alt, add_dot_0, echar);
    PyMem_Free(big);
    return rc;
}

/* 'e' and 'f' from snprintf, capped at EXACT_DIGITS (see above). */

static int
format_c(strbuf *sb, double x, char code, int precision, int flags)
{
    char fmt[8];
    snprintf(fmt, sizeof(fmt), "%%%s.*%c", (flags & Py_DTSF_ALT) ? "#" : "", code);
    int printed = precision > EXACT_DIGITS ? EXACT_DIGITS : precision;
    size_t zeros = (size_t)precision - (size_t)printed;
    char small[128];
    int n = c_format(small, sizeof(small), fmt, printed, x);
    int rc;
    if (n < 0) {
        return -1;
    }
    if (n < (int)sizeof(small)) {
        rc = sb_put(sb, small, (size_t)n);
    }
    else if ((rc = sb_reserve(sb, (size_t)n)) == 0) {
        c_format(sb->buf + sb->len, (size_t)n + 1, fmt, printed, x);
        sb->len += (size_t)n;
    }
    if (rc == 0 && zeros > 0) {
        /* the zeros go before an exponent, if any */
        char *e = code == 'e' ? strchr(sb->buf, 'e') : NULL;
        size_t at = e ? (size_t)(e - sb->buf) : sb->len;
        size_t tail = sb->len - at;
        if ((rc = sb_reserve(sb, zeros)) == 0) {
            memmove(sb->buf + at + zeros, sb->buf + at, tail + 1);
            memset(sb->buf + at, '0', zeros);
            sb->len += zeros;
        }
    }
    if (rc == 0 && (flags & Py_DTSF_ADD_DOT_0) && strspn(sb->buf, "0123456789") == sb->len) {
        rc = sb_put(sb, ".0", 2);
    }
    return rc;
}

/* Did the text round to zero?  (for Py_DTSF_NO_NEG_0) */
static int
text_is_zero(const char *s)
{
    for (; *s && *s != 'e' && *s != 'E'; s++) {
        if (*s >= '1' && *s <= '9') {
            return 0;
        }
    }
    return 1;
}

char *
PyOS_double_to_string(double val, char format_code, int precision, int flags, int *type)
{
    strbuf sb = {NULL, 0, 0};
    int upper = format_code == 'E' || format_code == 'F' || format_code == 'G';
    char code = (char)(upper ? format_code + ('a' - 'A') : format_code);
    if (code != 'e' && code != 'f' && code != 'g' && code != 'r') {
        PyErr_BadInternalCall();
        return NULL;
    }
    if (code == 'r' && precision != 0) {
        PyErr_BadInternalCall();
        return NULL;
    }
    int negative = signbit(val) != 0;
    double x = fabs(val);
    int t = isnan(val) ? Py_DTST_NAN : isinf(val) ? Py_DTST_INFINITE : Py_DTST_FINITE;
    if (sb_reserve(&sb, 32) < 0) {
        goto nomem;
    }
    sb.buf[0] = '\0';
    /* the sign is decided after formatting: z may drop a negative zero */
    int rc;
    if (t == Py_DTST_NAN) {
        negative = 0;
        rc = sb_put(&sb, upper ? "NAN" : "nan", 3);
    }
    else if (t == Py_DTST_INFINITE) {
        rc = sb_put(&sb, upper ? "INF" : "inf", 3);
    }
    else if (code == 'r') {
        rc = format_repr(&sb, x, flags);
    }
    else if (code == 'g') {
        rc = format_general(&sb, x, precision, flags, upper ? 'E' : 'e');
    }
    else {
        rc = format_c(&sb, x, code, precision, flags);
        if (upper) {
            for (size_t i = 0; i < sb.len; i++) {
                if (sb.buf[i] == 'e') {
                    sb.buf[i] = 'E';
                }
            }
        }
    }
    if (rc < 0) {
        goto nomem;
    }
    if (negative && (flags & Py_DTSF_NO_NEG_0) && t == Py_DTST_FINITE && text_is_zero(sb.buf)) {
        negative = 0;
    }
    if (negative || (flags & Py_DTSF_SIGN)) {
        if (sb_reserve(&sb, 1) < 0) {
            goto nomem;
        }
        memmove(sb.buf + 1, sb.buf, sb.len + 1);
        sb.buf[0] = negative ? '-' : '+';
        sb.len++;
    }
    if (type != NULL) {
        *type = t;
    }
    return sb.buf;
nomem:
    PyMem_Free(sb.buf);
    PyErr_NoMemory();
    return NULL;
}
