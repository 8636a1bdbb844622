/* The ISO 2022 codecs: ISO-2022-JP and its variants, and ISO-2022-KR.

   Text is a stream of bytes in graphic sets "designated" by escape
   sequences: G0 (invoked directly), G1 (ISO-2022-KR: invoked by SO, back
   to G0 by SI) and G2 (ISO-2022-JP-2: one character at a time after the
   single shift ESC N).  Each set's table (94 or 94x94 characters) and each
   codec's choice of set for a code point are generated from the host
   Python (Tools/scripts/gen_cjk_tables.py); what is here is the escape
   machinery.

   State bytes (what getstate() shows): c[0], c[1], c[2] hold the set
   designated to G0, G1, G2 as its final escape byte, plus 0x80 for a
   two-byte set ('B' alone is ASCII); c[4] bit 0 is set while shifted out
   to G1. */

#include "cjkcodecs.h"
#include "cjk_tables_decl.h"

#define ESC 0x1B
#define SO 0x0E
#define SI 0x0F
#define ASCII_CODE 'B'
#define SHIFTED 0x01
#define ASCII_MARK 0x800000u      /* encoding table: a plain ASCII byte */
#define MAX_ESCAPE 16             /* longest designation escape accepted */

typedef struct {
    const char *escape;
    int escape_len;
    unsigned char code;           /* the state byte naming the set */
    int width;                    /* bytes per character */
    int g2;                       /* designated to G2 (ESC .) */
    const cjk_table *table;
} iso_set;

/* Indexed by the set ids the generator uses (ISO_SET_ORDER, from 1). */
static const iso_set iso_sets[] = {
    {NULL, 0, 0, 0, 0, NULL},
    {"\x1b(J", 3, 'J', 1, 0, &_PyCJK_Table_iso_jisx0201_roman},
    {"\x1b(I", 3, 'I', 1, 0, &_PyCJK_Table_iso_jisx0201_kana},
    {"\x1b$@", 3, '@' | 0x80, 2, 0, &_PyCJK_Table_iso_jisx0208_1978},
    {"\x1b$B", 3, 'B' | 0x80, 2, 0, &_PyCJK_Table_iso_jisx0208},
    {"\x1b$(D", 4, 'D' | 0x80, 2, 0, &_PyCJK_Table_iso_jisx0212},
    {"\x1b$(A", 4, 'A' | 0x80, 2, 0, &_PyCJK_Table_iso_gb2312},
    {"\x1b$(C", 4, 'C' | 0x80, 2, 0, &_PyCJK_Table_iso_ksx1001},
    {"\x1b$(O", 4, 'O' | 0x80, 2, 0, &_PyCJK_Table_iso_jisx0213_2000_1},
    {"\x1b$(P", 4, 'P' | 0x80, 2, 0, &_PyCJK_Table_iso_jisx0213_2},
    {"\x1b$(Q", 4, 'Q' | 0x80, 2, 0, &_PyCJK_Table_iso_jisx0213_2004_1},
    {"\x1b.A", 3, 'A', 1, 1, &_PyCJK_Table_iso_iso8859_1},
    {"\x1b.F", 3, 'F', 1, 1, &_PyCJK_Table_iso_iso8859_7},
};
#define NSETS ((int)(sizeof(iso_sets) / sizeof(iso_sets[0])))
#define KSX1001 7
#define SET(id) (1u << (id))

typedef struct {
    uint32_t sets;                /* the sets its decoder accepts */
    int korean;                   /* KS X 1001 through G1 and SO/SI */
    int g1_ksx;                   /* accepts ESC $ ) C */
} iso_config;

static const iso_config jp_config = {SET(1) | SET(3) | SET(4), 0, 0};
static const iso_config jp1_config = {SET(1) | SET(3) | SET(4) | SET(5), 0, 0};
static const iso_config jp2_config = {SET(1) | SET(3) | SET(4) | SET(5) | SET(6) | SET(7) |
                                      SET(11) | SET(12), 0, 1};
static const iso_config jp3_config = {SET(4) | SET(8) | SET(9), 0, 0};
static const iso_config jp2004_config = {SET(4) | SET(9) | SET(10), 0, 0};
static const iso_config jpext_config = {SET(1) | SET(2) | SET(3) | SET(4) | SET(5), 0, 0};
static const iso_config kr_config = {SET(7), 1, 1};

static const iso_config *
config_of(const cjk_codec *codec)
{
    return (const iso_config *)codec->config;
}

static const iso_set *
set_with_code(unsigned char code, int g2)
{
    for (int id = 1; id < NSETS; id++) {
        if (iso_sets[id].code == code && iso_sets[id].g2 == g2) {
            return &iso_sets[id];
        }
    }
    return NULL;
}

static void
iso_init(const cjk_codec *codec, cjk_state *st, int encoding)
{
    (void)codec;
    st->c[0] = ASCII_CODE;
    st->c[1] = ASCII_CODE;
    st->c[2] = encoding ? 0 : ASCII_CODE;
}

/* ---- Encoding ------------------------------------------------------------------ */

static int
put_escape(cjk_bytes *out, const char *escape, int len)
{
    return _PyCJK_PutBytes(out, (const unsigned char *)escape, len);
}

/* Leave G1 (ISO-2022-KR) and make G0 ASCII. */
static int
to_ascii(cjk_state *st, cjk_bytes *out)
{
    if (st->c[4] & SHIFTED) {
        unsigned char si = SI;
        st->c[4] &= (unsigned char)~SHIFTED;
        if (_PyCJK_PutBytes(out, &si, 1) < 0) {
            return -1;
        }
    }
    if (st->c[0] != ASCII_CODE) {
        st->c[0] = ASCII_CODE;
        return put_escape(out, "\x1b(B", 3);
    }
    return 0;
}

static int
put_code(cjk_bytes *out, uint32_t code, int width)
{
    unsigned char pair[2] = {(unsigned char)(code >> 8), (unsigned char)code};
    return width == 2 ? _PyCJK_PutBytes(out, pair, 2) : _PyCJK_PutBytes(out, pair + 1, 1);
}

/* Emit one character of set `id` with the designations and shifts it
   needs. */
static int
put_in_set(const cjk_codec *codec, cjk_state *st, int id, uint32_t code, cjk_bytes *out)
{
    const iso_set *set = &iso_sets[id];
    if (config_of(codec)->korean) {
        if (st->c[1] != set->code) {
            st->c[1] = set->code;
            if (put_escape(out, "\x1b$)C", 4) < 0) {
                return -1;
            }
        }
        if (!(st->c[4] & SHIFTED)) {
            unsigned char so = SO;
            st->c[4] |= SHIFTED;
            if (_PyCJK_PutBytes(out, &so, 1) < 0) {
                return -1;
            }
        }
        return put_code(out, code, 2);
    }
    if (set->g2) {
        if (st->c[2] != set->code) {
            st->c[2] = set->code;
            if (put_escape(out, set->escape, set->escape_len) < 0) {
                return -1;
            }
        }
        if (put_escape(out, "\x1bN", 2) < 0) {
            return -1;
        }
        return put_code(out, code & 0x7F, 1);
    }
    if (st->c[0] != set->code) {
        st->c[0] = set->code;
        if (put_escape(out, set->escape, set->escape_len) < 0) {
            return -1;
        }
    }
    return put_code(out, code, set->width);
}

static Py_ssize_t
iso_encode(const cjk_codec *codec, cjk_state *st, const Py_UCS4 *in, Py_ssize_t n, int final,
           cjk_bytes *out, Py_ssize_t *bad)
{
    const cjk_table *t = codec->table;
    Py_ssize_t used = 1;
    uint32_t value = 0;
    if (t->ncombos && _PyCJK_IsComboHead(t, in[0])) {
        if (n < 2 && !final) {
            return CJK_MORE;
        }
        if (n >= 2 && (value = _PyCJK_ComboEncode(t, in[0], in[1])) != 0) {
            used = 2;
        }
    }
    if (value == 0) {
        value = _PyCJK_TableEncode(t, in[0]);
    }
    if (value == 0) {
        *bad = 1;
        return CJK_BAD;
    }
    if (value & ASCII_MARK) {
        unsigned char b = (unsigned char)value;
        if (to_ascii(st, out) < 0 || _PyCJK_PutBytes(out, &b, 1) < 0) {
            return CJK_NOMEM;
        }
        return used;
    }
    int id = (int)(value >> 16);
    if (id <= 0 || id >= NSETS) {
        *bad = 1;
        return CJK_BAD;
    }
    return put_in_set(codec, st, id, value & 0xFFFF, out) < 0 ? CJK_NOMEM : used;
}

static int
iso_encode_reset(const cjk_codec *codec, cjk_state *st, cjk_bytes *out)
{
    (void)codec;
    return to_ascii(st, out);
}

/* ---- Decoding ------------------------------------------------------------------ */

/* The set of the given kind (one or two bytes a character, G2 or not)
   whose escape ends in `final`, if the codec has it. */
static int
set_for_final(const iso_config *cfg, unsigned char final, int width, int g2)
{
    for (int id = 1; id < NSETS; id++) {
        const iso_set *set = &iso_sets[id];
        if ((cfg->sets & SET(id)) && set->width == width && set->g2 == g2 &&
            (set->code & 0x7F) == final) {
            return id;
        }
    }
    return 0;
}

/* ESC N: one character of the G2 set. */
static Py_ssize_t
decode_single_shift(cjk_state *st, const unsigned char *in, Py_ssize_t n, cjk_chars *out,
                    Py_ssize_t *bad)
{
    if (n < 3) {
        return CJK_MORE;
    }
    const iso_set *set = set_with_code(st->c[2], 1);
    if (set == NULL) {
        return 2;
    }
    uint32_t cp = set->table->need[in[2]] == 1 ? set->table->single[in[2]] : CJK_NONE;
    if (cp == CJK_NONE) {
        *bad = 3;
        return CJK_BAD;
    }
    return _PyCJK_PutChar(out, cp) < 0 ? CJK_NOMEM : 3;
}

/* A designation: ESC, intermediate bytes in[1..len-2], final in[len-1]. */
static Py_ssize_t
decode_designation(const iso_config *cfg, cjk_state *st, const unsigned char *in,
                   Py_ssize_t len, Py_ssize_t *bad)
{
    unsigned char final = in[len - 1];
    int id = 0;
    int slot = 0;
    if (len == 3 && in[1] == '&' && final == '@') {
        return 3;                 /* a revision announcement: nothing to do */
    }
    if (len == 3 && in[1] == '(') {
        if (final == ASCII_CODE) {
            st->c[0] = ASCII_CODE;
            return 3;
        }
        id = set_for_final(cfg, final, 1, 0);
    }
    else if (len == 3 && in[1] == '.') {
        id = set_for_final(cfg, final, 1, 1);
        slot = 2;
    }
    else if (in[1] == '$' && (len == 3 || (len == 4 && in[2] == '('))) {
        id = set_for_final(cfg, final, 2, 0);
    }
    else if (len == 4 && in[1] == '$' && in[2] == ')' && cfg->g1_ksx) {
        id = set_for_final(cfg, final, 2, 0);
        slot = 1;
    }
    if (id == 0) {
        *bad = len;
        return CJK_BAD;
    }
    st->c[slot] = iso_sets[id].code;
    return len;
}

/* Escape sequences end at their first byte in '@'..'Z'. */
static int
ends_escape(unsigned char b)
{
    return b >= '@' && b <= 'Z';
}

/* An escape sequence at in[0]; returns its length, or a step result.
   Designations (ESC '(' / '$' / '.' ...) must name a set the codec has;
   any other escape passes through as characters. */
static Py_ssize_t
decode_escape(const cjk_codec *codec, cjk_state *st, const unsigned char *in, Py_ssize_t n,
              cjk_chars *out, Py_ssize_t *bad)
{
    const iso_config *cfg = config_of(codec);
    int designation = n >= 2 && in[1] != 0 && strchr("($.)&", in[1]) != NULL;
    /* A designation ends within MAX_ESCAPE bytes, or the ESC is bad. */
    Py_ssize_t limit = designation && n >= MAX_ESCAPE ? MAX_ESCAPE : n;
    Py_ssize_t end = 1;
    while (end < limit && !ends_escape(in[end])) {
        end++;
    }
    if (end == limit) {
        if (designation && limit == MAX_ESCAPE) {
            *bad = 1;
            return CJK_BAD;
        }
        if (designation || n == 1) {
            return CJK_MORE;
        }
    }
    else {
        end++;
    }
    if (designation) {
        return decode_designation(cfg, st, in, end, bad);
    }
    if (end == 2 && in[1] == 'N' && (cfg->sets & (SET(11) | SET(12)))) {
        return decode_single_shift(st, in, n, out, bad);
    }
    for (Py_ssize_t k = 0; k < end; k++) {
        if (_PyCJK_PutChar(out, in[k]) < 0) {
            return CJK_NOMEM;
        }
    }
    return end;
}

/* One character of a designated set at in[0]. */
static Py_ssize_t
decode_in_set(const iso_set *set, const unsigned char *in, Py_ssize_t n, cjk_chars *out,
              Py_ssize_t *bad)
{
    const cjk_table *t = set->table;
    if (set->width == 1) {
        if (t->need[in[0]] != 1) {
            *bad = 1;
            return CJK_BAD;
        }
        return _PyCJK_PutChar(out, t->single[in[0]]) < 0 ? CJK_NOMEM : 1;
    }
    if (n < 2) {
        return CJK_MORE;
    }
    uint32_t value = _PyCJK_TableDecode(t, in[0], 1, in[1]);
    if (value == CJK_NONE || value == CJK_BAD_PAIR) {
        *bad = 2;
        return CJK_BAD;
    }
    return _PyCJK_PutDecoded(t, value, out) < 0 ? CJK_NOMEM : 2;
}

static Py_ssize_t
iso_decode(const cjk_codec *codec, cjk_state *st, const unsigned char *in, Py_ssize_t n,
           cjk_chars *out, Py_ssize_t *bad)
{
    const iso_config *cfg = config_of(codec);
    unsigned char b = in[0];
    if (b == ESC) {
        return decode_escape(codec, st, in, n, out, bad);
    }
    if (b >= 0x80) {
        *bad = 1;
        return CJK_BAD;
    }
    if (cfg->korean && (b == SO || b == SI)) {
        if (b == SO && st->c[1] == iso_sets[KSX1001].code) {
            st->c[4] |= SHIFTED;
        }
        else {
            st->c[4] &= (unsigned char)~SHIFTED;
        }
        return 1;
    }
    if (b == '\n') {
        st->c[4] &= (unsigned char)~SHIFTED;
    }
    if (b < 0x20) {
        return _PyCJK_PutChar(out, b) < 0 ? CJK_NOMEM : 1;
    }
    const iso_set *set = NULL;
    if (st->c[4] & SHIFTED) {
        set = &iso_sets[KSX1001];
    }
    else if (st->c[0] != ASCII_CODE) {
        set = set_with_code(st->c[0], 0);
    }
    if (set == NULL) {
        return _PyCJK_PutChar(out, b) < 0 ? CJK_NOMEM : 1;
    }
    return decode_in_set(set, in, n, out, bad);
}

#define ISO_CODEC(NAME, CONFIG) \
    {#NAME, &_PyCJK_Table_##NAME, &CONFIG, iso_encode, iso_encode_reset, iso_decode, iso_init}

const cjk_codec _PyCJK_IsoCodecs[] = {
    ISO_CODEC(iso2022_jp, jp_config),
    ISO_CODEC(iso2022_jp_1, jp1_config),
    ISO_CODEC(iso2022_jp_2, jp2_config),
    ISO_CODEC(iso2022_jp_3, jp3_config),
    ISO_CODEC(iso2022_jp_2004, jp2004_config),
    ISO_CODEC(iso2022_jp_ext, jpext_config),
    ISO_CODEC(iso2022_kr, kr_config),
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
