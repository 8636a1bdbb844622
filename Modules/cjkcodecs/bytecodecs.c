/* The stateless CJK codecs (Shift_JIS, EUC, GBK, GB18030, Big5, UHC, Johab
   and their relatives): one table each, read by the same two steps.

   A first byte's `need` entry says how long the sequence it starts is; the
   table maps the whole sequence.  Two codecs add a rule the tables do not
   hold: GB18030's four-byte sequences (a second byte 0x30..0x39) are linear
   ranges, and EUC-KR accepts KS X 1001's eight-byte "make-up" spelling of a
   Hangul syllable (0xA4D4 then three jamo). */

#include "cjkcodecs.h"
#include "cjk_tables_decl.h"

/* ---- GB18030's four-byte ranges --------------------------------------------- */

static int
is_gb_digit(unsigned char b)
{
    return b >= 0x30 && b <= 0x39;
}

static int
is_gb_high(unsigned char b)
{
    return b >= 0x81 && b <= 0xFE;
}

static Py_ssize_t
four_byte_decode(const cjk_table *t, const unsigned char *in, Py_ssize_t n,
                 cjk_chars *out, Py_ssize_t *bad)
{
    if (n < 4) {
        return CJK_MORE;
    }
    if (!is_gb_high(in[2]) || !is_gb_digit(in[3])) {
        *bad = 1;
        return CJK_BAD;
    }
    uint32_t linear = (((uint32_t)(in[0] - 0x81) * 10 + (in[1] - 0x30)) * 126
                       + (in[2] - 0x81)) * 10 + (in[3] - 0x30);
    for (int i = 0; i < t->nruns; i++) {
        const cjk_run *run = &t->runs[i];
        uint32_t span = run->last - run->first;
        if (linear >= run->linear && linear - run->linear <= span) {
            if (_PyCJK_PutChar(out, run->first + (linear - run->linear)) < 0) {
                return CJK_NOMEM;
            }
            return 4;
        }
    }
    *bad = 1;
    return CJK_BAD;
}

static int
four_byte_encode(const cjk_table *t, Py_UCS4 cp, cjk_bytes *out)
{
    for (int i = 0; i < t->nruns; i++) {
        const cjk_run *run = &t->runs[i];
        if (cp >= run->first && cp <= run->last) {
            uint32_t linear = run->linear + (cp - run->first);
            unsigned char seq[4];
            seq[3] = (unsigned char)(0x30 + linear % 10);
            linear /= 10;
            seq[2] = (unsigned char)(0x81 + linear % 126);
            linear /= 126;
            seq[1] = (unsigned char)(0x30 + linear % 10);
            seq[0] = (unsigned char)(0x81 + linear / 10);
            return _PyCJK_PutBytes(out, seq, 4) < 0 ? -1 : 1;
        }
    }
    return 0;
}

/* ---- EUC-KR's make-up sequences ------------------------------------------------ */

/* The compatibility jamo (U+3131..U+3163) that start and end a syllable, in
   the order of the modern Hangul syllable block. */
static const uint16_t initial_jamo[19] = {
    0x3131, 0x3132, 0x3134, 0x3137, 0x3138, 0x3139, 0x3141, 0x3142, 0x3143, 0x3145,
    0x3146, 0x3147, 0x3148, 0x3149, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E,
};
static const uint16_t final_jamo[27] = {
    0x3131, 0x3132, 0x3133, 0x3134, 0x3135, 0x3136, 0x3137, 0x3139, 0x313A, 0x313B,
    0x313C, 0x313D, 0x313E, 0x313F, 0x3140, 0x3141, 0x3142, 0x3144, 0x3145, 0x3146,
    0x3147, 0x3148, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E,
};
#define MAKEUP_FILLER 0xD4

static int
jamo_index(const uint16_t *list, int count, uint32_t cp)
{
    for (int i = 0; i < count; i++) {
        if (list[i] == cp) {
            return i;
        }
    }
    return -1;
}

/* in[0..1] is 0xA4 0xD4; a syllable needs three more 0xA4 pairs. */
static Py_ssize_t
makeup_decode(const cjk_table *t, const unsigned char *in, Py_ssize_t n,
              cjk_chars *out, Py_ssize_t *bad)
{
    if (n < 8) {
        return CJK_MORE;
    }
    if (in[2] != 0xA4 || in[4] != 0xA4 || in[6] != 0xA4) {
        *bad = 1;
        return CJK_BAD;
    }
    uint32_t lead = _PyCJK_TableDecode(t, 0xA4, 1, in[3]);
    uint32_t vowel = _PyCJK_TableDecode(t, 0xA4, 1, in[5]);
    int l = jamo_index(initial_jamo, 19, lead);
    int v = (vowel >= 0x314F && vowel <= 0x3163) ? (int)(vowel - 0x314F) : -1;
    int f = 0;
    if (in[7] != MAKEUP_FILLER) {
        f = jamo_index(final_jamo, 27, _PyCJK_TableDecode(t, 0xA4, 1, in[7])) + 1;
    }
    if (l < 0 || v < 0 || f < 1 - (in[7] == MAKEUP_FILLER)) {
        *bad = 1;
        return CJK_BAD;
    }
    if (_PyCJK_PutChar(out, 0xAC00 + ((Py_UCS4)l * 21 + (Py_UCS4)v) * 28 + (Py_UCS4)f) < 0) {
        return CJK_NOMEM;
    }
    return 8;
}

/* A syllable KS X 1001 lacks, spelled as a make-up sequence; returns 1 if
   written, 0 if `cp` is no syllable or a jamo is missing, -1 on error. */
static int
makeup_encode(const cjk_table *t, Py_UCS4 cp, cjk_bytes *out)
{
    if (cp < 0xAC00 || cp > 0xD7A3) {
        return 0;
    }
    uint32_t index = cp - 0xAC00;
    uint32_t jamo[3] = {initial_jamo[index / (21 * 28)], 0x314F + (index / 28) % 21, 0};
    unsigned char seq[8] = {0xA4, MAKEUP_FILLER, 0xA4, 0, 0xA4, 0, 0xA4, MAKEUP_FILLER};
    if (index % 28) {
        jamo[2] = final_jamo[index % 28 - 1];
    }
    for (int k = 0; k < 3; k++) {
        if (jamo[k] == 0) {
            continue;
        }
        uint32_t code = _PyCJK_TableEncode(t, jamo[k]);
        if ((code >> 24) != 2 || ((code >> 8) & 0xFF) != 0xA4) {
            return 0;
        }
        seq[3 + 2 * k] = (unsigned char)code;
    }
    return _PyCJK_PutBytes(out, seq, 8) < 0 ? -1 : 1;
}

/* ---- The two steps ------------------------------------------------------------- */

static Py_ssize_t
table_encode(const cjk_codec *codec, cjk_state *st, const Py_UCS4 *in, Py_ssize_t n,
             int final, cjk_bytes *out, Py_ssize_t *bad)
{
    (void)st;
    const cjk_table *t = codec->table;
    Py_UCS4 cp = in[0];
    if (t->ncombos && _PyCJK_IsComboHead(t, cp)) {
        if (n < 2 && !final) {
            return CJK_MORE;
        }
        uint32_t code = n >= 2 ? _PyCJK_ComboEncode(t, cp, in[1]) : 0;
        if (code) {
            return _PyCJK_PutPacked(out, code) < 0 ? CJK_NOMEM : 2;
        }
    }
    uint32_t code = _PyCJK_TableEncode(t, cp);
    if (code) {
        return _PyCJK_PutPacked(out, code) < 0 ? CJK_NOMEM : 1;
    }
    if (codec->table == &_PyCJK_Table_euc_kr) {
        int r = makeup_encode(t, cp, out);
        if (r != 0) {
            return r < 0 ? CJK_NOMEM : 1;
        }
    }
    if (t->nruns) {
        int r = four_byte_encode(t, cp, out);
        if (r != 0) {
            return r < 0 ? CJK_NOMEM : 1;
        }
    }
    *bad = 1;
    return CJK_BAD;
}

static Py_ssize_t
table_decode(const cjk_codec *codec, cjk_state *st, const unsigned char *in, Py_ssize_t n,
             cjk_chars *out, Py_ssize_t *bad)
{
    (void)st;
    const cjk_table *t = codec->table;
    unsigned char b = in[0];
    int need = t->need[b];
    if (need == 1) {
        return _PyCJK_PutChar(out, t->single[b]) < 0 ? CJK_NOMEM : 1;
    }
    if (need == 0) {
        *bad = 1;
        return CJK_BAD;
    }
    if (n < need) {
        return CJK_MORE;
    }
    if (t->nruns && is_gb_digit(in[1])) {
        return four_byte_decode(t, in, n, out, bad);
    }
    if (codec->table == &_PyCJK_Table_euc_kr && b == 0xA4 && in[1] == MAKEUP_FILLER) {
        return makeup_decode(t, in, n, out, bad);
    }
    uint32_t prefix = need == 2 ? b : ((uint32_t)b << 8 | in[1]);
    uint32_t value = _PyCJK_TableDecode(t, prefix, need - 1, in[need - 1]);
    if (value == CJK_NONE || value == CJK_BAD_PAIR) {
        *bad = value == CJK_BAD_PAIR ? 2 : 1;
        return CJK_BAD;
    }
    return _PyCJK_PutDecoded(t, value, out) < 0 ? CJK_NOMEM : need;
}

#define BYTE_CODEC(NAME) \
    {#NAME, &_PyCJK_Table_##NAME, NULL, table_encode, NULL, table_decode, NULL}

const cjk_codec _PyCJK_ByteCodecs[] = {
    BYTE_CODEC(shift_jis),
    BYTE_CODEC(cp932),
    BYTE_CODEC(euc_jp),
    BYTE_CODEC(shift_jis_2004),
    BYTE_CODEC(euc_jis_2004),
    BYTE_CODEC(shift_jisx0213),
    BYTE_CODEC(euc_jisx0213),
    BYTE_CODEC(gb2312),
    BYTE_CODEC(gbk),
    BYTE_CODEC(gb18030),
    BYTE_CODEC(big5),
    BYTE_CODEC(cp950),
    BYTE_CODEC(big5hkscs),
    BYTE_CODEC(euc_kr),
    BYTE_CODEC(cp949),
    BYTE_CODEC(johab),
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
