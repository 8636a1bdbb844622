/* The CJK codecs: shared declarations.

   A codec here is a `cjk_codec` descriptor: a name, its tables and four
   callbacks (encode, encode_reset, decode, init).  The callbacks work one
   step at a time on plain arrays; Modules/cjkcodecs/multibytecodec.c wraps
   them into the Python objects (_multibytecodec.MultibyteCodec and the
   incremental and stream classes) and owns all error handling.  The
   mapping tables are generated at build time (Tools/scripts/gen_cjk_tables.py
   -> build/gen/cjk_tables.h).  Doc/cjkcodecs.md describes the design. */

#ifndef Py_CJKCODECS_H
#define Py_CJKCODECS_H

#include "Python.h"
#include <stdint.h>

#define CJK_NONE 0xFFFFFFFFu      /* unmapped, in decoding tables */
#define CJK_BAD_PAIR 0xFFFFFFFEu  /* rejected as a whole two-byte sequence */
#define CJK_MULTI 0x80000000u     /* decodes to a pair: index into multi[] */

/* Step results (a step returns how many units it consumed, or one of
   these). */
#define CJK_BAD (-1)              /* *bad units can't be converted */
#define CJK_MORE (-2)             /* the input stops inside a sequence */
#define CJK_NOMEM (-3)            /* out of memory (exception set) */

typedef struct {
    uint32_t key;                 /* prefix bytes, their count << 16 */
    uint8_t lo, hi;               /* range of the sequence's last byte */
    uint32_t offset;              /* first value in the table's pool */
} cjk_dec_row;

typedef struct {
    uint32_t offset;              /* first value in the table's pool */
    uint8_t lo, hi;               /* the used code points of the block */
} cjk_enc_block;

typedef struct {
    uint32_t first, second;       /* two code points ... */
    uint32_t code;                /* ... encoded as one sequence */
} cjk_combo;

typedef struct {
    uint32_t first, last;         /* code points first..last */
    uint32_t linear;              /* the linear index of `first` */
} cjk_run;

typedef struct {
    const uint8_t *need;          /* [256]: sequence length a byte starts */
    const uint32_t *single;       /* [256]: one-byte characters */
    const cjk_dec_row *rows;
    int nrows;
    int dec_narrow;               /* rows index _PyCJK_Pool16, not 32 */
    const uint32_t *multi;
    const cjk_enc_block *blocks;  /* per CJK_BLOCK code points */
    uint32_t nblocks;
    int enc_narrow;               /* blocks index _PyCJK_Pool16, not 32 */
    const cjk_combo *combos;
    int ncombos;
    const cjk_run *runs;          /* GB18030's four-byte ranges */
    int nruns;
} cjk_table;

/* The value pools the tables share (generated). */
extern const uint16_t _PyCJK_Pool16[];
extern const uint32_t _PyCJK_Pool32[];
#define CJK_NARROW_NONE 0xFFFFu
#define CJK_NARROW_BAD_PAIR 0xFFFEu

#define CJK_BLOCK 128

/* A codec's state, exactly the 8 bytes getstate() exposes. */
typedef struct {
    unsigned char c[8];
} cjk_state;

/* Growable output buffers. */
typedef struct {
    unsigned char *buf;
    Py_ssize_t len, cap;
} cjk_bytes;

typedef struct {
    Py_UCS4 *buf;
    Py_ssize_t len, cap;
} cjk_chars;

typedef struct cjk_codec cjk_codec;

typedef Py_ssize_t (*cjk_encode_step)(const cjk_codec *codec, cjk_state *st,
                                      const Py_UCS4 *in, Py_ssize_t n, int final,
                                      cjk_bytes *out, Py_ssize_t *bad);
typedef int (*cjk_encode_flush)(const cjk_codec *codec, cjk_state *st, cjk_bytes *out);
typedef Py_ssize_t (*cjk_decode_step)(const cjk_codec *codec, cjk_state *st,
                                      const unsigned char *in, Py_ssize_t n,
                                      cjk_chars *out, Py_ssize_t *bad);
typedef void (*cjk_state_init)(const cjk_codec *codec, cjk_state *st, int encoding);

struct cjk_codec {
    const char *name;
    const cjk_table *table;
    const void *config;           /* ISO 2022: its cjk_iso_config */
    cjk_encode_step encode;
    cjk_encode_flush encode_reset;    /* NULL: stateless */
    cjk_decode_step decode;
    cjk_state_init init;              /* NULL: all-zero state */
};

/* Output helpers (cjkbuffers.c). */
int _PyCJK_PutBytes(cjk_bytes *out, const unsigned char *data, Py_ssize_t n);
int _PyCJK_PutPacked(cjk_bytes *out, uint32_t packed);
int _PyCJK_PutChar(cjk_chars *out, Py_UCS4 ch);

/* Table look-ups (cjktable.c). */
uint32_t _PyCJK_TableEncode(const cjk_table *t, Py_UCS4 cp);
uint32_t _PyCJK_TableDecode(const cjk_table *t, uint32_t prefix, int prefix_len,
                            unsigned char last);
int _PyCJK_IsComboHead(const cjk_table *t, Py_UCS4 cp);
uint32_t _PyCJK_ComboEncode(const cjk_table *t, Py_UCS4 first, Py_UCS4 second);
int _PyCJK_PutDecoded(const cjk_table *t, uint32_t value, cjk_chars *out);

/* Codec families. */
extern const cjk_codec _PyCJK_ByteCodecs[];       /* bytecodecs.c */
extern const cjk_codec _PyCJK_IsoCodecs[];        /* iso2022.c */
extern const cjk_codec _PyCJK_HzCodec;            /* hz.c */


/* _multibytecodec's side (multibytecodec.c). */
PyObject *_PyCJK_NewCodecObject(const cjk_codec *codec);

#endif /* Py_CJKCODECS_H */
