/* One BLAKE2 variant (RFC 7693), instantiated twice by blake2module.c:
   B2_NAME(x) names the functions, B2_WORD is the word type, B2_ROUNDS,
   B2_R1..B2_R4 the G rotations and B2_IV the initial chaining value.
   Words are little-endian throughout; the block is 16 words. */

#define B2_WBYTES ((int)sizeof(B2_WORD))
#define B2_BLOCK (16 * B2_WBYTES)
#define B2_BITS (8 * B2_WBYTES)

typedef struct {
    B2_WORD h[8];
    B2_WORD count[2];   /* bytes compressed so far, low word first */
    unsigned char pending[B2_BLOCK];
    int npending;       /* bytes held back in `pending` (at most a block) */
    int outlen;
    int last_node;
} B2_NAME(state);

static inline B2_WORD
B2_NAME(rotr)(B2_WORD w, int n)
{
    return (B2_WORD)((w >> n) | (w << (B2_BITS - n)));
}

static B2_WORD
B2_NAME(load)(const unsigned char *p)
{
    B2_WORD w = 0;
    for (int i = B2_WBYTES - 1; i >= 0; i--) {
        w = (B2_WORD)((w << 8) | p[i]);
    }
    return w;
}

/* The mixing function G on four words of the working vector. */
static inline void
B2_NAME(mix)(B2_WORD *v, int a, int b, int c, int d, B2_WORD x, B2_WORD y)
{
    v[a] += v[b] + x;
    v[d] = B2_NAME(rotr)(v[d] ^ v[a], B2_R1);
    v[c] += v[d];
    v[b] = B2_NAME(rotr)(v[b] ^ v[c], B2_R2);
    v[a] += v[b] + y;
    v[d] = B2_NAME(rotr)(v[d] ^ v[a], B2_R3);
    v[c] += v[d];
    v[b] = B2_NAME(rotr)(v[b] ^ v[c], B2_R4);
}

/* Compress one block into the chaining value; `final` marks the last. */
static void
B2_NAME(compress)(B2_NAME(state) *s, const unsigned char *block, int final)
{
    B2_WORD m[16], v[16];
    for (int i = 0; i < 16; i++) {
        m[i] = B2_NAME(load)(block + i * B2_WBYTES);
    }
    for (int i = 0; i < 8; i++) {
        v[i] = s->h[i];
        v[i + 8] = B2_IV[i];
    }
    v[12] ^= s->count[0];
    v[13] ^= s->count[1];
    if (final) {
        v[14] = (B2_WORD)~v[14];
        if (s->last_node) {
            v[15] = (B2_WORD)~v[15];
        }
    }
    for (int r = 0; r < B2_ROUNDS; r++) {
        const unsigned char *p = blake2_sigma[r % 10];
        /* Columns, then diagonals. */
        for (int col = 0; col < 4; col++) {
            B2_NAME(mix)(v, col, col + 4, col + 8, col + 12, m[p[2 * col]], m[p[2 * col + 1]]);
        }
        for (int k = 0; k < 4; k++) {
            int a = k, b = 4 + (k + 1) % 4, c = 8 + (k + 2) % 4, d = 12 + (k + 3) % 4;
            B2_NAME(mix)(v, a, b, c, d, m[p[8 + 2 * k]], m[p[9 + 2 * k]]);
        }
    }
    for (int i = 0; i < 8; i++) {
        s->h[i] ^= v[i] ^ v[i + 8];
    }
}

static void
B2_NAME(count_add)(B2_NAME(state) *s, int n)
{
    B2_WORD before = s->count[0];
    s->count[0] += (B2_WORD)n;
    if (s->count[0] < before) {
        s->count[1]++;
    }
}

/* Hash more input.  The last block is always held back, since it must be
   compressed with the final flag. */
static void
B2_NAME(absorb)(B2_NAME(state) *s, const unsigned char *in, size_t len)
{
    while (len > 0) {
        if (s->npending == B2_BLOCK) {
            B2_NAME(count_add)(s, B2_BLOCK);
            B2_NAME(compress)(s, s->pending, 0);
            s->npending = 0;
        }
        if (s->npending == 0) {
            while (len > B2_BLOCK) {
                B2_NAME(count_add)(s, B2_BLOCK);
                B2_NAME(compress)(s, in, 0);
                in += B2_BLOCK;
                len -= B2_BLOCK;
            }
        }
        size_t room = (size_t)(B2_BLOCK - s->npending);
        size_t take = len < room ? len : room;
        memcpy(s->pending + s->npending, in, take);
        s->npending += (int)take;
        in += take;
        len -= take;
    }
}

/* Start from the parameter block (B2_BLOCK / 2 bytes), then absorb the
   key padded to a whole block, if there is one. */
static void
B2_NAME(start)(B2_NAME(state) *s, const unsigned char *params, const unsigned char *key,
               int keylen, int outlen, int last_node)
{
    memset(s, 0, sizeof(*s));
    for (int i = 0; i < 8; i++) {
        s->h[i] = B2_IV[i] ^ B2_NAME(load)(params + i * B2_WBYTES);
    }
    s->outlen = outlen;
    s->last_node = last_node;
    if (keylen > 0) {
        unsigned char block[B2_BLOCK];
        memset(block, 0, sizeof(block));
        memcpy(block, key, (size_t)keylen);
        B2_NAME(absorb)(s, block, B2_BLOCK);
    }
}

/* The digest, from a copy of the state so hashing can go on. */
static void
B2_NAME(finish)(const B2_NAME(state) *s, unsigned char *out)
{
    B2_NAME(state) t = *s;
    B2_NAME(count_add)(&t, t.npending);
    memset(t.pending + t.npending, 0, (size_t)(B2_BLOCK - t.npending));
    B2_NAME(compress)(&t, t.pending, 1);
    for (int i = 0; i < t.outlen; i++) {
        out[i] = (unsigned char)(t.h[i / B2_WBYTES] >> (8 * (i % B2_WBYTES)));
    }
}

#undef B2_WBYTES
#undef B2_BLOCK
#undef B2_BITS
