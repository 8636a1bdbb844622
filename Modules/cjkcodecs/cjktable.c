/* Look-ups in the generated tables (layout: cjkcodecs.h and
   Tools/scripts/gen_cjk_tables.py) and the growable output buffers the
   codec steps write to. */

#include "cjkcodecs.h"

/* ---- Output buffers ---------------------------------------------------------- */

static int
grow(void **buf, Py_ssize_t *cap, Py_ssize_t want, size_t unit)
{
    Py_ssize_t cap2 = *cap < 64 ? 64 : *cap;
    while (cap2 < want) {
        if (cap2 > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)unit) {
            PyErr_NoMemory();
            return -1;
        }
        cap2 *= 2;
    }
    void *p = PyMem_Realloc(*buf, (size_t)cap2 * unit);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *buf = p;
    *cap = cap2;
    return 0;
}

int
_PyCJK_PutBytes(cjk_bytes *out, const unsigned char *data, Py_ssize_t n)
{
    if (out->len + n > out->cap &&
        grow((void **)&out->buf, &out->cap, out->len + n, 1) < 0) {
        return -1;
    }
    memcpy(out->buf + out->len, data, (size_t)n);
    out->len += n;
    return 0;
}

/* A table value: the byte count in the top byte, the bytes below it
   (first byte most significant). */
int
_PyCJK_PutPacked(cjk_bytes *out, uint32_t packed)
{
    int n = (int)(packed >> 24);
    unsigned char tmp[3];
    for (int i = 0; i < n; i++) {
        tmp[i] = (unsigned char)(packed >> (8 * (n - 1 - i)));
    }
    return _PyCJK_PutBytes(out, tmp, n);
}

int
_PyCJK_PutChar(cjk_chars *out, Py_UCS4 ch)
{
    if (out->len + 1 > out->cap &&
        grow((void **)&out->buf, &out->cap, out->len + 1, sizeof(Py_UCS4)) < 0) {
        return -1;
    }
    out->buf[out->len++] = ch;
    return 0;
}

/* ---- Encoding ------------------------------------------------------------------- */

uint32_t
_PyCJK_TableEncode(const cjk_table *t, Py_UCS4 cp)
{
    uint32_t index = cp / CJK_BLOCK, at = cp % CJK_BLOCK;
    if (index >= t->nblocks) {
        return 0;
    }
    const cjk_enc_block *block = &t->blocks[index];
    if (at < block->lo || at > block->hi) {
        return 0;
    }
    uint32_t slot = block->offset + (at - block->lo);
    if (!t->enc_narrow) {
        return _PyCJK_Pool32[slot];
    }
    /* A narrow value is the code itself: one byte up to 0xFF, else two. */
    uint32_t code = _PyCJK_Pool16[slot];
    if (code == CJK_NARROW_NONE) {
        return 0;
    }
    return ((code > 0xFF ? 2u : 1u) << 24) | code;
}

/* The combos are sorted by (first, second). */
static int
combo_lower_bound(const cjk_table *t, Py_UCS4 first)
{
    int lo = 0, hi = t->ncombos;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->combos[mid].first < first) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    return lo;
}

int
_PyCJK_IsComboHead(const cjk_table *t, Py_UCS4 cp)
{
    int at = combo_lower_bound(t, cp);
    return at < t->ncombos && t->combos[at].first == cp;
}

uint32_t
_PyCJK_ComboEncode(const cjk_table *t, Py_UCS4 first, Py_UCS4 second)
{
    for (int at = combo_lower_bound(t, first);
         at < t->ncombos && t->combos[at].first == first; at++) {
        if (t->combos[at].second == second) {
            return t->combos[at].code;
        }
    }
    return 0;
}

/* ---- Decoding ------------------------------------------------------------------- */

uint32_t
_PyCJK_TableDecode(const cjk_table *t, uint32_t prefix, int prefix_len, unsigned char last)
{
    uint32_t key = prefix | ((uint32_t)prefix_len << 16);
    int lo = 0, hi = t->nrows;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        const cjk_dec_row *row = &t->rows[mid];
        if (row->key == key) {
            if (last < row->lo || last > row->hi) {
                return CJK_NONE;
            }
            uint32_t slot = row->offset + (last - row->lo);
            if (!t->dec_narrow) {
                return _PyCJK_Pool32[slot];
            }
            uint32_t cp = _PyCJK_Pool16[slot];
            if (cp >= CJK_NARROW_BAD_PAIR) {
                return cp == CJK_NARROW_NONE ? CJK_NONE : CJK_BAD_PAIR;
            }
            return cp;
        }
        if (row->key < key) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    return CJK_NONE;
}

/* Append what a decoding table value stands for: one code point, or the
   pair it indexes. */
int
_PyCJK_PutDecoded(const cjk_table *t, uint32_t value, cjk_chars *out)
{
    if (value & CJK_MULTI) {
        const uint32_t *pair = &t->multi[2 * (value & ~CJK_MULTI)];
        if (_PyCJK_PutChar(out, pair[0]) < 0) {
            return -1;
        }
        return _PyCJK_PutChar(out, pair[1]);
    }
    return _PyCJK_PutChar(out, value);
}
