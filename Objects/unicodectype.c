/* Character properties for str: classification (isalpha, isdigit, ...),
   simple and full case mappings, printability and identifier characters.

   The tables come from the same Unicode 16.0 data as the unicodedata
   module, through the same generator (build/gen/unicodectype_db.h).
   Latin-1 goes through one flag table; everything else through binary
   searches over sorted ranges.  White space and line breaks beyond
   Latin-1 are short enough to test directly. */

#include "Python.h"
#include "pycore_unicodeobject.h"

#define ALPHA (1 << 0)
#define DECIMAL (1 << 1)
#define DIGIT (1 << 2)
#define NUMERIC (1 << 3)
#define LOWER (1 << 4)
#define UPPER (1 << 5)
#define TITLE (1 << 6)
#define SPACE (1 << 7)
#define LINEBREAK (1 << 8)
#define PRINTABLE (1 << 9)
#define XID_START (1 << 10)
#define XID_CONTINUE (1 << 11)
#define CASED (1 << 12)
#define CASE_IGNORABLE (1 << 13)

struct special_case {
    Py_UCS4 ch;
    Py_UCS4 lower[3];
    Py_UCS4 upper[3];
    Py_UCS4 title[3];
    Py_UCS4 fold[3];
};

/* The tables (latin1_flags, the *_ranges, *_runs and *_deltas, and
   special_cases) are generated at build time from Unicode 16.0 by
   Tools/unicode/gen_unicodedata.py (ctype_tables.py describes their
   shapes); see Doc/unicode.md. */
#include "unicodectype_db.h"

/* ---- Lookups ------------------------------------------------------------ */

static int
in_ranges(const Py_UCS4 (*r)[2], size_t n, Py_UCS4 ch)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ch < r[mid][0]) {
            hi = mid;
        }
        else if (ch > r[mid][1]) {
            lo = mid + 1;
        }
        else {
            return 1;
        }
    }
    return 0;
}

/* Ranges whose members are every `stride`-th code point from the start. */
static int
in_strided(const Py_UCS4 (*r)[3], size_t n, Py_UCS4 ch)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ch < r[mid][0]) {
            hi = mid;
        }
        else if (ch > r[mid][1]) {
            lo = mid + 1;
        }
        else {
            return (ch - r[mid][0]) % r[mid][2] == 0;
        }
    }
    return 0;
}

/* Value of a code point in a run table, or -1. */
static int
run_value(const Py_UCS4 (*r)[3], size_t n, Py_UCS4 ch)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ch < r[mid][0]) {
            hi = mid;
        }
        else if (ch > r[mid][1]) {
            lo = mid + 1;
        }
        else {
            return (int)(r[mid][2] + (ch - r[mid][0]));
        }
    }
    return -1;
}

static Py_UCS4
apply_delta(const int32_t (*r)[4], size_t n, Py_UCS4 ch, int *found)
{
    size_t lo = 0, hi = n;
    *found = 0;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((int32_t)ch < r[mid][0]) {
            hi = mid;
        }
        else if ((int32_t)ch > r[mid][1]) {
            lo = mid + 1;
        }
        else {
            if (((int32_t)ch - r[mid][0]) % r[mid][2] != 0) {
                return ch;
            }
            *found = 1;
            return (Py_UCS4)((int32_t)ch + r[mid][3]);
        }
    }
    return ch;
}

static const struct special_case *
find_special(Py_UCS4 ch)
{
    size_t lo = 0, hi = Py_ARRAY_LENGTH(special_cases);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ch < special_cases[mid].ch) {
            hi = mid;
        }
        else if (ch > special_cases[mid].ch) {
            lo = mid + 1;
        }
        else {
            return &special_cases[mid];
        }
    }
    return NULL;
}

#define IN(table, ch) in_ranges((table), Py_ARRAY_LENGTH(table), (ch))
#define IN_STRIDED(table, ch) in_strided((table), Py_ARRAY_LENGTH(table), (ch))

/* ---- Classification ----------------------------------------------------- */

int
_PyUnicode_IsWhitespace(Py_UCS4 ch)
{
    if (ch < 256) {
        return (latin1_flags[ch] & SPACE) != 0;
    }
    return ch == 0x1680 || (ch >= 0x2000 && ch <= 0x200A) || ch == 0x2028 ||
           ch == 0x2029 || ch == 0x202F || ch == 0x205F || ch == 0x3000;
}

int
_PyUnicode_IsLinebreak(Py_UCS4 ch)
{
    if (ch < 256) {
        return (latin1_flags[ch] & LINEBREAK) != 0;
    }
    return ch == 0x2028 || ch == 0x2029;
}

int
_PyUnicode_IsAlpha(Py_UCS4 ch)
{
    if (ch < 256) {
        return (latin1_flags[ch] & ALPHA) != 0;
    }
    return IN(alpha_ranges, ch);
}

int
_PyUnicode_ToDecimalDigit(Py_UCS4 ch)
{
    if (ch < 256) {
        return (ch >= '0' && ch <= '9') ? (int)(ch - '0') : -1;
    }
    return run_value(decimal_runs, Py_ARRAY_LENGTH(decimal_runs), ch);
}

int
_PyUnicode_IsDecimalDigit(Py_UCS4 ch)
{
    return _PyUnicode_ToDecimalDigit(ch) >= 0;
}

int
_PyUnicode_ToDigit(Py_UCS4 ch)
{
    if (ch < 256) {
        if (ch >= '0' && ch <= '9') {
            return (int)(ch - '0');
        }
        switch (ch) {
        case 0xB2: return 2;
        case 0xB3: return 3;
        case 0xB9: return 1;
        default: return -1;
        }
    }
    return run_value(digit_runs, Py_ARRAY_LENGTH(digit_runs), ch);
}

int
_PyUnicode_IsDigit(Py_UCS4 ch)
{
    return _PyUnicode_ToDigit(ch) >= 0;
}

int
_PyUnicode_IsNumeric(Py_UCS4 ch)
{
    if (ch < 256) {
        return (latin1_flags[ch] & NUMERIC) != 0;
    }
    return IN(numeric_ranges, ch);
}

int
_PyUnicode_IsPrintable(Py_UCS4 ch)
{
    if (ch < 256) {
        return (latin1_flags[ch] & PRINTABLE) != 0;
    }
    return IN(printable_ranges, ch);
}

int
_PyUnicode_IsLowercase(Py_UCS4 ch)
{
    if (ch < 256) {
        return (latin1_flags[ch] & LOWER) != 0;
    }
    return IN_STRIDED(lower_ranges, ch);
}

int
_PyUnicode_IsUppercase(Py_UCS4 ch)
{
    if (ch < 256) {
        return (latin1_flags[ch] & UPPER) != 0;
    }
    return IN_STRIDED(upper_ranges, ch);
}

int
_PyUnicode_IsTitlecase(Py_UCS4 ch)
{
    if (ch < 256) {
        return 0;
    }
    return IN(title_ranges, ch);
}

int
_PyUnicode_IsCased(Py_UCS4 ch)
{
    if (ch < 256) {
        return (latin1_flags[ch] & CASED) != 0;
    }
    return IN_STRIDED(cased_ranges, ch);
}

int
_PyUnicode_IsCaseIgnorable(Py_UCS4 ch)
{
    if (ch < 256) {
        return (latin1_flags[ch] & CASE_IGNORABLE) != 0;
    }
    return IN(ignorable_ranges, ch);
}

int
_PyUnicode_IsXidStart(Py_UCS4 ch)
{
    if (ch < 256) {
        return (latin1_flags[ch] & XID_START) != 0;
    }
    return IN(xid_start_ranges, ch);
}

int
_PyUnicode_IsXidContinue(Py_UCS4 ch)
{
    if (ch < 256) {
        return (latin1_flags[ch] & XID_CONTINUE) != 0;
    }
    return IN(xid_continue_ranges, ch);
}

/* ---- Simple case mappings ------------------------------------------------ */

Py_UCS4
_PyUnicode_ToLowercase(Py_UCS4 ch)
{
    int found;
    if (ch < 128) {
        return (ch >= 'A' && ch <= 'Z') ? ch + 32 : ch;
    }
    return apply_delta(lower_deltas, Py_ARRAY_LENGTH(lower_deltas), ch, &found);
}

Py_UCS4
_PyUnicode_ToUppercase(Py_UCS4 ch)
{
    int found;
    if (ch < 128) {
        return (ch >= 'a' && ch <= 'z') ? ch - 32 : ch;
    }
    return apply_delta(upper_deltas, Py_ARRAY_LENGTH(upper_deltas), ch, &found);
}

Py_UCS4
_PyUnicode_ToTitlecase(Py_UCS4 ch)
{
    int found;
    Py_UCS4 r = apply_delta(title_deltas, Py_ARRAY_LENGTH(title_deltas), ch, &found);
    if (found) {
        return r;
    }
    return _PyUnicode_ToUppercase(ch);
}

/* ---- Full case mappings -------------------------------------------------- */

static int
copy_full(const Py_UCS4 *src, Py_UCS4 *res)
{
    int n = 0;
    while (n < 3 && src[n] != 0) {
        res[n] = src[n];
        n++;
    }
    return n;
}

int
_PyUnicode_ToLowerFull(Py_UCS4 ch, Py_UCS4 *res)
{
    if (ch >= 128) {
        const struct special_case *sc = find_special(ch);
        if (sc != NULL) {
            return copy_full(sc->lower, res);
        }
    }
    res[0] = _PyUnicode_ToLowercase(ch);
    return 1;
}

int
_PyUnicode_ToUpperFull(Py_UCS4 ch, Py_UCS4 *res)
{
    if (ch >= 128) {
        const struct special_case *sc = find_special(ch);
        if (sc != NULL) {
            return copy_full(sc->upper, res);
        }
    }
    res[0] = _PyUnicode_ToUppercase(ch);
    return 1;
}

int
_PyUnicode_ToTitleFull(Py_UCS4 ch, Py_UCS4 *res)
{
    if (ch >= 128) {
        const struct special_case *sc = find_special(ch);
        if (sc != NULL) {
            return copy_full(sc->title, res);
        }
    }
    res[0] = _PyUnicode_ToTitlecase(ch);
    return 1;
}

int
_PyUnicode_ToFoldedFull(Py_UCS4 ch, Py_UCS4 *res)
{
    if (ch >= 128) {
        const struct special_case *sc = find_special(ch);
        if (sc != NULL) {
            return copy_full(sc->fold, res);
        }
    }
    res[0] = _PyUnicode_ToLowercase(ch);
    return 1;
}
