/* Character names: name() and lookup() of the unicodedata module, and
   _PyUnicode_LookupCharName for \N{...} in literals and the
   unicode_escape codec.

   Storage (built by Tools/unicode/gen_unicodedata.py; Doc/unicode.md has
   the details): the named code points are numbered in code point order
   ("ordinals"); ucd_name_runs maps code points to ordinals and back.  A
   name is a phrase of tokens, each an index into a lexicon of words that
   keep their trailing space or hyphen; token 0 stands for the character's
   own code point in hex.  Phrases are stored back to back with their byte
   lengths, plus the offset of every UCD_NAME_GROUP-th phrase.  Reverse
   lookup goes through an open-addressing hash of the upper-cased names.
   Hangul syllables and CJK unified ideographs are named by formula. */

#include "Python.h"
#include "pycore_unicodeobject.h"
#include "unicodedata.h"

typedef struct {
    Py_UCS4 first;
    uint16_t ordinal;
    uint16_t count;
} ucd_name_run;

typedef struct {
    const char *name;
    Py_UCS4 code;
} ucd_alias;

typedef struct {
    const char *name;
    uint16_t offset;
    uint16_t length;
} ucd_sequence;

#include "ucd_names.h"

#define HANGUL_PREFIX "HANGUL SYLLABLE "
#define CJK_PREFIX "CJK UNIFIED IDEOGRAPH-"

static int
ascii_upper(int c)
{
    return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

/* The same FNV-1a hash the generator used. */
static uint32_t
name_hash(const char *name, Py_ssize_t len)
{
    uint32_t h = 0x811C9DC5u;
    for (Py_ssize_t i = 0; i < len; i++) {
        h = (h ^ (uint32_t)ascii_upper((unsigned char)name[i])) * 0x01000193u;
    }
    return h;
}

static int
same_name_ignoring_case(const char *a, Py_ssize_t alen, const char *b, size_t blen)
{
    if ((size_t)alen != blen) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < alen; i++) {
        if (ascii_upper((unsigned char)a[i]) != ascii_upper((unsigned char)b[i])) {
            return 0;
        }
    }
    return 1;
}

/* ---- Code points and ordinals ---------------------------------------------- */

static int
ordinal_of(Py_UCS4 ch)
{
    size_t lo = 0, hi = Py_ARRAY_LENGTH(ucd_name_runs);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const ucd_name_run *run = &ucd_name_runs[mid];
        if (ch < run->first) {
            hi = mid;
        }
        else if (ch >= run->first + run->count) {
            lo = mid + 1;
        }
        else {
            return run->ordinal + (int)(ch - run->first);
        }
    }
    return -1;
}

static Py_UCS4
code_of(int ordinal)
{
    size_t lo = 0, hi = Py_ARRAY_LENGTH(ucd_name_runs);
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ucd_name_runs[mid].ordinal <= ordinal) {
            lo = mid;
        }
        else {
            hi = mid;
        }
    }
    return ucd_name_runs[lo].first + (Py_UCS4)(ordinal - ucd_name_runs[lo].ordinal);
}

/* ---- Decoding a stored name --------------------------------------------------- */

static size_t
append(char *buf, size_t pos, size_t size, const char *text, size_t len)
{
    if (pos + len < size) {
        memcpy(buf + pos, text, len);
    }
    return pos + len;
}

/* Writes the stored name of `ordinal` (code point ch) into buf. */
static size_t
decode_phrase(int ordinal, Py_UCS4 ch, char *buf, size_t size)
{
    int group = ordinal / UCD_NAME_GROUP;
    uint32_t at = ucd_phrase_groups[group];
    for (int i = group * UCD_NAME_GROUP; i < ordinal; i++) {
        at += ucd_phrase_lengths[i];
    }
    uint32_t end = at + ucd_phrase_lengths[ordinal];
    size_t pos = 0;
    while (at < end) {
        unsigned int token = ucd_phrases[at++];
        if (token >= UCD_ONE_BYTE_TOKENS) {
            token = UCD_ONE_BYTE_TOKENS + ((token - UCD_ONE_BYTE_TOKENS) << 8) + ucd_phrases[at++];
        }
        if (token == UCD_OWN_HEX_TOKEN) {
            char hex[16];
            int n = snprintf(hex, sizeof(hex), "%04X", (unsigned int)ch);
            pos = append(buf, pos, size, hex, (size_t)n);
            continue;
        }
        uint32_t from = ucd_lexicon_offsets[token];
        pos = append(buf, pos, size, ucd_lexicon + from, ucd_lexicon_offsets[token + 1] - from);
    }
    if (pos >= size) {
        return 0;
    }
    buf[pos] = '\0';
    return pos;
}

static int
is_cjk_ideograph(Py_UCS4 ch)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(ucd_cjk_ranges); i++) {
        if (ch >= ucd_cjk_ranges[i][0] && ch <= ucd_cjk_ranges[i][1]) {
            return 1;
        }
    }
    return 0;
}

static size_t
hangul_name(Py_UCS4 ch, char *buf, size_t size)
{
    unsigned int s = ch - UCD_HANGUL_S_BASE;
    int n = snprintf(buf, size, "%s%s%s%s", HANGUL_PREFIX,
                     ucd_jamo_l[s / UCD_HANGUL_N_COUNT],
                     ucd_jamo_v[(s % UCD_HANGUL_N_COUNT) / UCD_HANGUL_T_COUNT],
                     ucd_jamo_t[s % UCD_HANGUL_T_COUNT]);
    return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

Py_ssize_t
_PyUnicodeData_GetName(Py_UCS4 ch, int legacy, char *buf, size_t size)
{
    const ucd_record *rec = _PyUnicodeData_GetRecord(ch, legacy);
    if (rec->category == 0) {
        return 0;  /* unassigned (Cn), or so in the legacy view */
    }
    if (ch >= UCD_HANGUL_S_BASE && ch < UCD_HANGUL_S_BASE + UCD_HANGUL_S_COUNT) {
        return (Py_ssize_t)hangul_name(ch, buf, size);
    }
    if (is_cjk_ideograph(ch)) {
        int n = snprintf(buf, size, "%s%04X", CJK_PREFIX, (unsigned int)ch);
        return n > 0 && (size_t)n < size ? n : 0;
    }
    int ordinal = ordinal_of(ch);
    if (ordinal < 0) {
        return 0;
    }
    return (Py_ssize_t)decode_phrase(ordinal, ch, buf, size);
}

/* ---- Finding a name ------------------------------------------------------------ */

/* Consumes the longest of `names` that starts `*text`; -1 when none does
   (the empty name, where there is one, always matches). */
static int
take_jamo(const char *const *names, int count, const char **text, const char *end)
{
    int best = -1;
    size_t best_len = 0;
    for (int i = 0; i < count; i++) {
        size_t len = strlen(names[i]);
        if (len <= (size_t)(end - *text) && strncmp(*text, names[i], len) == 0
            && (best < 0 || len > best_len)) {
            best = i;
            best_len = len;
        }
    }
    if (best >= 0) {
        *text += best_len;
    }
    return best;
}

/* "HANGUL SYLLABLE GAG" and the like; matched case-sensitively, as
   CPython does. */
static int
find_hangul(const char *name, Py_ssize_t len, Py_UCS4 *ch)
{
    size_t plen = strlen(HANGUL_PREFIX);
    if ((size_t)len <= plen || strncmp(name, HANGUL_PREFIX, plen) != 0) {
        return 0;
    }
    const char *p = name + plen, *end = name + len;
    int l = take_jamo(ucd_jamo_l, UCD_HANGUL_L_COUNT, &p, end);
    int v = take_jamo(ucd_jamo_v, UCD_HANGUL_V_COUNT, &p, end);
    int t = take_jamo(ucd_jamo_t, UCD_HANGUL_T_COUNT, &p, end);
    if (l < 0 || v < 0 || t < 0 || p != end) {
        return 0;
    }
    *ch = UCD_HANGUL_S_BASE + (Py_UCS4)((l * UCD_HANGUL_V_COUNT + v) * UCD_HANGUL_T_COUNT + t);
    return 1;
}

/* "CJK UNIFIED IDEOGRAPH-4E00": four or five upper-case hex digits. */
static int
find_cjk(const char *name, Py_ssize_t len, Py_UCS4 *ch)
{
    size_t plen = strlen(CJK_PREFIX);
    size_t digits = (size_t)len - plen;
    if ((size_t)len <= plen || strncmp(name, CJK_PREFIX, plen) != 0
        || (digits != 4 && digits != 5)) {
        return 0;
    }
    Py_UCS4 value = 0;
    for (size_t i = plen; i < (size_t)len; i++) {
        char c = name[i];
        if (c >= '0' && c <= '9') {
            value = value * 16 + (Py_UCS4)(c - '0');
        }
        else if (c >= 'A' && c <= 'F') {
            value = value * 16 + (Py_UCS4)(c - 'A' + 10);
        }
        else {
            return 0;
        }
    }
    if (!is_cjk_ideograph(value)) {
        return 0;
    }
    *ch = value;
    return 1;
}

static int
find_stored(const char *name, Py_ssize_t len, Py_UCS4 *ch)
{
    char buf[_PyUnicodeData_LONGEST_NAME + 1];
    uint32_t mask = (1u << UCD_NAME_HASH_BITS) - 1;
    uint32_t slot = name_hash(name, len) & mask;
    if (len > UCD_LONGEST_NAME) {
        return 0;
    }
    while (ucd_name_hash[slot] != 0) {
        int ordinal = ucd_name_hash[slot] - 1;
        Py_UCS4 code = code_of(ordinal);
        size_t n = decode_phrase(ordinal, code, buf, sizeof(buf));
        if (same_name_ignoring_case(name, len, buf, n)) {
            *ch = code;
            return 1;
        }
        slot = (slot + 1) & mask;
    }
    return 0;
}

static int
find_alias(const char *name, Py_ssize_t len, Py_UCS4 *ch)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(ucd_aliases); i++) {
        if (same_name_ignoring_case(name, len, ucd_aliases[i].name,
                                    strlen(ucd_aliases[i].name))) {
            *ch = ucd_aliases[i].code;
            return 1;
        }
    }
    return 0;
}

/* A single character by name or (outside the legacy view) by alias. */
static int
find_code_point(const char *name, Py_ssize_t len, int legacy, Py_UCS4 *ch)
{
    if (find_hangul(name, len, ch) || find_cjk(name, len, ch) || find_stored(name, len, ch)) {
        return !(legacy && (_PyUnicodeData_GetRecord(*ch, 0)->flags & UCD_NEWER_THAN_3_2));
    }
    return !legacy && find_alias(name, len, ch);
}

static PyObject *
find_sequence(const char *name, Py_ssize_t len)
{
    for (size_t i = 0; i < Py_ARRAY_LENGTH(ucd_sequences); i++) {
        const ucd_sequence *seq = &ucd_sequences[i];
        if (same_name_ignoring_case(name, len, seq->name, strlen(seq->name))) {
            return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND,
                                             ucd_sequence_data + seq->offset, seq->length);
        }
    }
    return NULL;
}

PyObject *
_PyUnicodeData_FindName(const char *name, Py_ssize_t len, int legacy, int sequences)
{
    Py_UCS4 ch;
    if (find_code_point(name, len, legacy, &ch)) {
        return PyUnicode_FromOrdinal((int)ch);
    }
    if (sequences && !legacy) {
        return find_sequence(name, len);
    }
    return NULL;
}

int
_PyUnicode_LookupCharName(const char *name, Py_ssize_t len, Py_UCS4 *ch)
{
    return find_code_point(name, len, 0, ch);
}
