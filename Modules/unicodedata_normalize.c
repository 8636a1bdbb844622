/* Decomposition and the four normal forms (Unicode Standard Annex #15),
   for the unicodedata module and for the parser's NFKC of identifiers
   (PEP 3131).

   normalize() works in three passes over a buffer of code points: full
   decomposition (recursive, Hangul by formula), the canonical ordering of
   each run of non-starters (a stable insertion sort by combining class),
   then, for NFC and NFKC, canonical composition against the table of
   primary composites (composition exclusions already left out by the
   generator).  Strings whose every character is a starter that passes the
   form's quick check are returned unchanged without that work. */

#include "Python.h"
#include "pycore_unicodedata.h"
#include "unicodedata.h"

typedef struct {
    Py_UCS4 first;
    Py_UCS4 second;
    Py_UCS4 composite;
} ucd_pair;

#include "ucd_decomp.h"

/* ---- Table access ------------------------------------------------------------ */

/* The decomposition entry of ch: header (tag << 8 | length), then the
   mapping; NULL when ch has none. */
static const uint32_t *
decomposition_of(Py_UCS4 ch, int legacy)
{
    if (ch >= 0x110000 || (legacy && (_PyUnicodeData_GetRecord(ch, 0)->flags & UCD_NEWER_THAN_3_2))) {
        return NULL;
    }
    unsigned int block = ucd_decomp_index1[ch >> UCD_DECOMP_SHIFT];
    unsigned int slot = (block << UCD_DECOMP_SHIFT) + (ch & ((1u << UCD_DECOMP_SHIFT) - 1));
    uint32_t offset = ucd_decomp_index2[slot];
    return offset ? &ucd_decomp_data[offset] : NULL;
}

static int
combining_class(Py_UCS4 ch, int legacy)
{
    return _PyUnicodeData_GetRecord(ch, legacy)->combining;
}

PyObject *
_PyUnicodeData_DecompositionString(Py_UCS4 ch, int legacy)
{
    const uint32_t *entry = decomposition_of(ch, legacy);
    if (entry == NULL) {
        return PyUnicode_FromString("");
    }
    /* The longest mapping has 18 code points; the tag is at most 10 chars. */
    char buf[256];
    size_t pos = 0;
    const char *tag = ucd_decomp_tags[entry[0] >> 8];
    unsigned int count = entry[0] & 0xFF;
    pos += (size_t)snprintf(buf, sizeof(buf), "%s", tag);
    for (unsigned int i = 0; i < count && pos < sizeof(buf); i++) {
        pos += (size_t)snprintf(buf + pos, sizeof(buf) - pos, "%s%04X",
                                pos ? " " : "", (unsigned int)entry[1 + i]);
    }
    if (pos >= sizeof(buf)) {
        PyErr_SetString(PyExc_SystemError, "decomposition mapping too long");
        return NULL;
    }
    return PyUnicode_FromStringAndSize(buf, (Py_ssize_t)pos);
}

/* ---- A growable buffer of code points ------------------------------------------ */

typedef struct {
    Py_UCS4 *items;
    Py_ssize_t len;
    Py_ssize_t cap;
} cp_buffer;

static int
buffer_push(cp_buffer *b, Py_UCS4 ch)
{
    if (b->len == b->cap) {
        Py_ssize_t cap = b->cap < 16 ? 16 : b->cap * 2;
        Py_UCS4 *items = PyMem_Realloc(b->items, (size_t)cap * sizeof(Py_UCS4));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->items = items;
        b->cap = cap;
    }
    b->items[b->len++] = ch;
    return 0;
}

/* ---- Decomposition ---------------------------------------------------------------- */

static int
is_hangul_syllable(Py_UCS4 ch)
{
    return ch >= UCD_HANGUL_S_BASE && ch < UCD_HANGUL_S_BASE + UCD_HANGUL_S_COUNT;
}

static int
push_hangul_jamo(cp_buffer *b, Py_UCS4 syllable)
{
    unsigned int s = syllable - UCD_HANGUL_S_BASE;
    unsigned int t = s % UCD_HANGUL_T_COUNT;
    if (buffer_push(b, UCD_HANGUL_L_BASE + s / UCD_HANGUL_N_COUNT) < 0
        || buffer_push(b, UCD_HANGUL_V_BASE + (s % UCD_HANGUL_N_COUNT) / UCD_HANGUL_T_COUNT) < 0) {
        return -1;
    }
    return t == 0 ? 0 : buffer_push(b, UCD_HANGUL_T_BASE + t);
}

/* Appends the full decomposition of ch; mappings nest only a few levels
   deep, so recursion is bounded. */
static int
push_decomposed(cp_buffer *b, Py_UCS4 ch, int compat, int legacy)
{
    if (is_hangul_syllable(ch)) {
        return push_hangul_jamo(b, ch);
    }
    const uint32_t *entry = decomposition_of(ch, legacy);
    if (entry == NULL || (!compat && (entry[0] >> 8) != 0)) {
        return buffer_push(b, ch);
    }
    unsigned int count = entry[0] & 0xFF;
    for (unsigned int i = 0; i < count; i++) {
        if (push_decomposed(b, entry[1 + i], compat, legacy) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Sorts each run of non-starters by combining class, keeping equal
   classes in their order. */
static void
canonical_order(cp_buffer *b, int legacy)
{
    for (Py_ssize_t i = 1; i < b->len; i++) {
        Py_UCS4 ch = b->items[i];
        int ccc = combining_class(ch, legacy);
        Py_ssize_t j = i;
        while (ccc != 0 && j > 0 && combining_class(b->items[j - 1], legacy) > ccc) {
            b->items[j] = b->items[j - 1];
            j--;
        }
        b->items[j] = ch;
    }
}

/* ---- Composition -------------------------------------------------------------------- */

static int
compose_hangul(Py_UCS4 first, Py_UCS4 second, Py_UCS4 *out)
{
    if (first >= UCD_HANGUL_L_BASE && first < UCD_HANGUL_L_BASE + UCD_HANGUL_L_COUNT
        && second >= UCD_HANGUL_V_BASE && second < UCD_HANGUL_V_BASE + UCD_HANGUL_V_COUNT) {
        *out = UCD_HANGUL_S_BASE
               + ((first - UCD_HANGUL_L_BASE) * UCD_HANGUL_V_COUNT + (second - UCD_HANGUL_V_BASE))
                     * UCD_HANGUL_T_COUNT;
        return 1;
    }
    if (is_hangul_syllable(first) && (first - UCD_HANGUL_S_BASE) % UCD_HANGUL_T_COUNT == 0
        && second > UCD_HANGUL_T_BASE && second < UCD_HANGUL_T_BASE + UCD_HANGUL_T_COUNT) {
        *out = first + (second - UCD_HANGUL_T_BASE);
        return 1;
    }
    return 0;
}

/* The primary composite of (first, second), if any. */
static int
compose_pair(Py_UCS4 first, Py_UCS4 second, int legacy, Py_UCS4 *out)
{
    if (compose_hangul(first, second, out)) {
        return 1;
    }
    size_t lo = 0, hi = Py_ARRAY_LENGTH(ucd_compositions);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const ucd_pair *p = &ucd_compositions[mid];
        if (p->first < first || (p->first == first && p->second < second)) {
            lo = mid + 1;
        }
        else if (p->first == first && p->second == second) {
            if (legacy && (_PyUnicodeData_GetRecord(p->composite, 0)->flags & UCD_NEWER_THAN_3_2)) {
                return 0;
            }
            *out = p->composite;
            return 1;
        }
        else {
            hi = mid;
        }
    }
    return 0;
}

/* Canonical composition in place.  A character may join the last starter
   unless something between them is a starter or has a combining class at
   least as high as its own; after canonical ordering only the character
   just before it needs checking. */
static void
compose(cp_buffer *b, int legacy)
{
    Py_ssize_t out = 0;
    Py_ssize_t starter = -1;
    int last_ccc = 0;
    for (Py_ssize_t i = 0; i < b->len; i++) {
        Py_UCS4 ch = b->items[i];
        int ccc = combining_class(ch, legacy);
        if (starter >= 0 && (out - 1 == starter || last_ccc < ccc)) {
            Py_UCS4 composite;
            if (compose_pair(b->items[starter], ch, legacy, &composite)) {
                b->items[starter] = composite;
                continue;
            }
        }
        if (ccc == 0) {
            starter = out;
        }
        last_ccc = ccc;
        b->items[out++] = ch;
    }
    b->len = out;
}

/* ---- Normal forms --------------------------------------------------------------------- */

static uint16_t
quick_check_flag(int form)
{
    switch (form) {
    case 0: return UCD_NFD_QC_NO;
    case UCD_FORM_COMPAT: return UCD_NFKD_QC_NO;
    case UCD_FORM_COMPOSE: return UCD_NFC_QC_NOT_YES;
    default: return UCD_NFKC_QC_NOT_YES;
    }
}

/* Whether str is certainly in the form already: only starters, none of
   which the form could change. */
static int
passes_quick_check(PyObject *str, int form, int legacy)
{
    if (PyUnicode_IS_ASCII(str)) {
        return 1;
    }
    uint16_t flag = quick_check_flag(form);
    int kind = PyUnicode_KIND(str);
    const void *data = PyUnicode_DATA(str);
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    for (Py_ssize_t i = 0; i < len; i++) {
        const ucd_record *rec = _PyUnicodeData_GetRecord(PyUnicode_READ(kind, data, i), legacy);
        if (rec->combining != 0 || (rec->flags & flag)) {
            return 0;
        }
    }
    return 1;
}

static PyObject *
normalize_fully(PyObject *str, int form, int legacy)
{
    cp_buffer b = {NULL, 0, 0};
    int kind = PyUnicode_KIND(str);
    const void *data = PyUnicode_DATA(str);
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    PyObject *res = NULL;
    for (Py_ssize_t i = 0; i < len; i++) {
        if (push_decomposed(&b, PyUnicode_READ(kind, data, i), form & UCD_FORM_COMPAT, legacy) < 0) {
            goto done;
        }
    }
    canonical_order(&b, legacy);
    if (form & UCD_FORM_COMPOSE) {
        compose(&b, legacy);
    }
    res = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, b.items, b.len);
done:
    PyMem_Free(b.items);
    return res;
}

PyObject *
_PyUnicodeData_Normalize(PyObject *str, int form, int legacy)
{
    if (passes_quick_check(str, form, legacy)) {
        return Py_NewRef(str);
    }
    return normalize_fully(str, form, legacy);
}

int
_PyUnicodeData_IsNormalized(PyObject *str, int form, int legacy)
{
    if (passes_quick_check(str, form, legacy)) {
        return 1;
    }
    PyObject *normal = normalize_fully(str, form, legacy);
    if (normal == NULL) {
        return -1;
    }
    int same = PyUnicode_Compare(str, normal) == 0;
    Py_DECREF(normal);
    return same;
}

PyObject *
_PyUnicode_NormalizeNFKC(PyObject *str)
{
    return _PyUnicodeData_Normalize(str, UCD_FORM_COMPAT | UCD_FORM_COMPOSE, 0);
}
