/* HZ (RFC 1843): GB2312 in seven bits.  "~{" switches to GB2312 (each
   character two bytes 0x21..0x7E, GB2312's EUC code minus 0x80 in each
   byte), "~}" back to ASCII, "~~" is a tilde and "~" before a newline is a
   line continuation; the last two only in ASCII mode.  State byte c[0] is 1
   while in GB2312 mode (the value getstate() shows). */

#include "cjkcodecs.h"
#include "cjk_tables_decl.h"

#define HZ_GB(st) ((st)->c[0])

static int
hz_switch(cjk_state *st, int gb, cjk_bytes *out)
{
    if (HZ_GB(st) == gb) {
        return 0;
    }
    HZ_GB(st) = (unsigned char)gb;
    return _PyCJK_PutBytes(out, (const unsigned char *)(gb ? "~{" : "~}"), 2);
}

static Py_ssize_t
hz_encode(const cjk_codec *codec, cjk_state *st, const Py_UCS4 *in, Py_ssize_t n, int final,
          cjk_bytes *out, Py_ssize_t *bad)
{
    (void)n;
    (void)final;
    Py_UCS4 cp = in[0];
    if (cp < 0x80) {
        if (hz_switch(st, 0, out) < 0) {
            return CJK_NOMEM;
        }
        unsigned char b = (unsigned char)cp;
        int r = cp == '~' ? _PyCJK_PutBytes(out, (const unsigned char *)"~~", 2)
                          : _PyCJK_PutBytes(out, &b, 1);
        return r < 0 ? CJK_NOMEM : 1;
    }
    uint32_t code = _PyCJK_TableEncode(codec->table, cp);
    if ((code >> 24) != 2 || (code & 0x8080) != 0x8080) {
        *bad = 1;
        return CJK_BAD;
    }
    unsigned char pair[2] = {(unsigned char)((code >> 8) & 0x7F), (unsigned char)(code & 0x7F)};
    if (hz_switch(st, 1, out) < 0 || _PyCJK_PutBytes(out, pair, 2) < 0) {
        return CJK_NOMEM;
    }
    return 1;
}

static int
hz_encode_reset(const cjk_codec *codec, cjk_state *st, cjk_bytes *out)
{
    (void)codec;
    return hz_switch(st, 0, out);
}

/* A tilde sequence; returns the bytes it takes or a step result. */
static Py_ssize_t
hz_escape(cjk_state *st, const unsigned char *in, Py_ssize_t n, cjk_chars *out, Py_ssize_t *bad)
{
    if (n < 2) {
        return CJK_MORE;
    }
    switch (in[1]) {
    case '{':
    case '}':
        /* Each only switches to the other mode. */
        if (HZ_GB(st) == (in[1] == '}')) {
            HZ_GB(st) = in[1] == '{';
            return 2;
        }
        break;
    case '~':
        if (!HZ_GB(st)) {
            return _PyCJK_PutChar(out, '~') < 0 ? CJK_NOMEM : 2;
        }
        break;
    case '\n':
        if (!HZ_GB(st)) {
            return 2;
        }
        break;
    }
    *bad = 1;
    return CJK_BAD;
}

static Py_ssize_t
hz_decode(const cjk_codec *codec, cjk_state *st, const unsigned char *in, Py_ssize_t n,
          cjk_chars *out, Py_ssize_t *bad)
{
    unsigned char b = in[0];
    if (b == '~') {
        return hz_escape(st, in, n, out, bad);
    }
    if (b >= 0x80) {
        *bad = 1;
        return CJK_BAD;
    }
    if (!HZ_GB(st)) {
        return _PyCJK_PutChar(out, b) < 0 ? CJK_NOMEM : 1;
    }
    if (n < 2) {
        return CJK_MORE;
    }
    uint32_t value = _PyCJK_TableDecode(codec->table, (uint32_t)(b | 0x80), 1,
                                        (unsigned char)(in[1] | 0x80));
    if (value == CJK_NONE || value == CJK_BAD_PAIR || in[1] >= 0x80) {
        *bad = 1;
        return CJK_BAD;
    }
    return _PyCJK_PutDecoded(codec->table, value, out) < 0 ? CJK_NOMEM : 2;
}

const cjk_codec _PyCJK_HzCodec = {
    "hz", &_PyCJK_Table_gb2312, NULL, hz_encode, hz_encode_reset, hz_decode, NULL,
};
