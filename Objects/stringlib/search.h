/* Substring search over arrays of one code-unit width, instantiated once
   per width: define STRINGLIB_CHAR (the unit type) and STRINGLIB(name)
   (a name prefix) before including this file; it undefines both.

   Forward search uses Horspool's bad-character skip, keyed by the low byte
   of each unit (a conservative shift, so wide kinds stay correct).  Counts
   never overlap, as str.count and bytes.count require. */

#ifndef STRINGLIB_CHAR
#  error "define STRINGLIB_CHAR and STRINGLIB before including search.h"
#endif

#ifndef STRINGLIB_SEARCH_COMMON
#define STRINGLIB_SEARCH_COMMON
#define STRINGLIB_UNUSED __attribute__((unused))
#endif

static STRINGLIB_UNUSED Py_ssize_t
STRINGLIB(find_char)(const STRINGLIB_CHAR *s, Py_ssize_t n, STRINGLIB_CHAR ch)
{
    if (sizeof(STRINGLIB_CHAR) == 1) {
        const void *p = memchr(s, (int)ch, (size_t)n);
        return p == NULL ? -1 : (const STRINGLIB_CHAR *)p - s;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (s[i] == ch) {
            return i;
        }
    }
    return -1;
}

static STRINGLIB_UNUSED Py_ssize_t
STRINGLIB(rfind_char)(const STRINGLIB_CHAR *s, Py_ssize_t n, STRINGLIB_CHAR ch)
{
    if (sizeof(STRINGLIB_CHAR) == 1) {
        const void *p = memrchr(s, (int)ch, (size_t)n);
        return p == NULL ? -1 : (const STRINGLIB_CHAR *)p - s;
    }
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        if (s[i] == ch) {
            return i;
        }
    }
    return -1;
}

/* First index >= 0 of p (length m >= 1) in s (length n), or -1. */
static STRINGLIB_UNUSED Py_ssize_t
STRINGLIB(find)(const STRINGLIB_CHAR *s, Py_ssize_t n, const STRINGLIB_CHAR *p, Py_ssize_t m)
{
    if (m > n) {
        return -1;
    }
    if (m == 1) {
        return STRINGLIB(find_char)(s, n, p[0]);
    }
    if (n < 64 || m < 3) {
        STRINGLIB_CHAR first = p[0];
        for (Py_ssize_t i = 0; i <= n - m; i++) {
            if (s[i] == first && memcmp(s + i + 1, p + 1, (m - 1) * sizeof(STRINGLIB_CHAR)) == 0) {
                return i;
            }
        }
        return -1;
    }
    Py_ssize_t shift[256];
    for (int c = 0; c < 256; c++) {
        shift[c] = m;
    }
    for (Py_ssize_t i = 0; i < m - 1; i++) {
        shift[p[i] & 0xff] = m - 1 - i;
    }
    STRINGLIB_CHAR last = p[m - 1];
    Py_ssize_t i = 0;
    while (i <= n - m) {
        STRINGLIB_CHAR c = s[i + m - 1];
        if (c == last && memcmp(s + i, p, (m - 1) * sizeof(STRINGLIB_CHAR)) == 0) {
            return i;
        }
        i += shift[c & 0xff];
    }
    return -1;
}

/* Last index of p (m >= 1) in s, or -1. */
static STRINGLIB_UNUSED Py_ssize_t
STRINGLIB(rfind)(const STRINGLIB_CHAR *s, Py_ssize_t n, const STRINGLIB_CHAR *p, Py_ssize_t m)
{
    if (m > n) {
        return -1;
    }
    if (m == 1) {
        return STRINGLIB(rfind_char)(s, n, p[0]);
    }
    if (n < 64 || m < 3) {
        STRINGLIB_CHAR first = p[0];
        for (Py_ssize_t i = n - m; i >= 0; i--) {
            if (s[i] == first && memcmp(s + i + 1, p + 1, (m - 1) * sizeof(STRINGLIB_CHAR)) == 0) {
                return i;
            }
        }
        return -1;
    }
    /* Mirror image of find: the skip is keyed on the unit at the window's
       start, measured from the needle's first occurrence of it. */
    Py_ssize_t shift[256];
    for (int c = 0; c < 256; c++) {
        shift[c] = m;
    }
    for (Py_ssize_t i = m - 1; i > 0; i--) {
        shift[p[i] & 0xff] = i;
    }
    STRINGLIB_CHAR first = p[0];
    Py_ssize_t i = n - m;
    while (i >= 0) {
        STRINGLIB_CHAR c = s[i];
        if (c == first && memcmp(s + i + 1, p + 1, (m - 1) * sizeof(STRINGLIB_CHAR)) == 0) {
            return i;
        }
        i -= shift[c & 0xff];
    }
    return -1;
}

/* Non-overlapping occurrences of p (m >= 1), at most maxcount. */
static STRINGLIB_UNUSED Py_ssize_t
STRINGLIB(count)(const STRINGLIB_CHAR *s, Py_ssize_t n, const STRINGLIB_CHAR *p, Py_ssize_t m,
                 Py_ssize_t maxcount)
{
    Py_ssize_t count = 0;
    if (m == 1) {
        STRINGLIB_CHAR ch = p[0];
        for (Py_ssize_t i = 0; i < n && count < maxcount; i++) {
            count += (s[i] == ch);
        }
        return count;
    }
    Py_ssize_t pos = 0;
    while (count < maxcount) {
        Py_ssize_t j = STRINGLIB(find)(s + pos, n - pos, p, m);
        if (j < 0) {
            break;
        }
        count++;
        pos += j + m;
    }
    return count;
}

#undef STRINGLIB_CHAR
#undef STRINGLIB
