/* Hash functions shared by the built-in types.

   Numbers hash arithmetically: a rational value x hashes to x modulo the
   Mersenne prime P = 2**61 - 1 (with the sign carried over), so equal
   numbers hash equally whatever their type.  Byte strings use SipHash-1-3
   (Aumasson and Bernstein) under a 128-bit key; the key is fixed for now,
   so hashes are the same from run to run.  -1 is never a hash value (it
   signals an error), -2 stands in for it. */

#include "Python.h"
#include "pycore_pyhash.h"

#include <float.h>

_Py_HashSecret_t _Py_HashSecret = {
    0x8f1bbcdc5a827999ULL,
    0x6ed9eba1ca62c1d6ULL,
};

/* ---- Numbers ------------------------------------------------------------------ */

Py_hash_t
_Py_HashDouble(PyObject *inst, double v)
{
    if (!isfinite(v)) {
        if (isinf(v)) {
            return v > 0 ? PyHASH_INF : -PyHASH_INF;
        }
        return inst != NULL ? _Py_HashPointer(inst) : 0;
    }
    int e;
    double m = frexp(v, &e);
    int negative = m < 0;
    if (negative) {
        m = -m;
    }
    /* v = m * 2**e with 0.5 <= m < 1.  Feed m's bits in 28 at a time,
       each step multiplying the running value by 2**28 mod P (a 61-bit
       rotation), then fold in 2**e the same way. */
    Py_uhash_t x = 0;
    while (m != 0.0) {
        x = ((x << 28) & PyHASH_MODULUS) | (x >> (PyHASH_BITS - 28));
        m *= 268435456.0;  /* 2**28 */
        e -= 28;
        Py_uhash_t bits = (Py_uhash_t)m;
        m -= (double)bits;
        x += bits;
        if (x >= PyHASH_MODULUS) {
            x -= PyHASH_MODULUS;
        }
    }
    /* 2**61 == 1 mod P, so only e mod 61 matters */
    int shift = e >= 0 ? e % PyHASH_BITS : PyHASH_BITS - 1 - ((-1 - e) % PyHASH_BITS);
    x = ((x << shift) & PyHASH_MODULUS) | (x >> (PyHASH_BITS - shift));
    Py_hash_t h = negative ? -(Py_hash_t)x : (Py_hash_t)x;
    return h == -1 ? -2 : h;
}

/* ---- Pointers ----------------------------------------------------------------- */

Py_hash_t
Py_HashPointer(const void *p)
{
    /* Objects are 16-byte aligned: rotate the always-zero low bits away
       so that they do not cluster hash table slots. */
    size_t y = (size_t)p;
    y = (y >> 4) | (y << (8 * sizeof(size_t) - 4));
    Py_hash_t h = (Py_hash_t)y;
    return h == -1 ? -2 : h;
}

Py_hash_t
_Py_HashPointer(const void *p)
{
    return Py_HashPointer(p);
}

/* ---- SipHash-1-3 -------------------------------------------------------------- */

#define ROTL64(x, b) (((x) << (b)) | ((x) >> (64 - (b))))

#define SIP_ROUND(v0, v1, v2, v3) \
    do {                          \
        v0 += v1;                 \
        v1 = ROTL64(v1, 13);      \
        v1 ^= v0;                 \
        v0 = ROTL64(v0, 32);      \
        v2 += v3;                 \
        v3 = ROTL64(v3, 16);      \
        v3 ^= v2;                 \
        v0 += v3;                 \
        v3 = ROTL64(v3, 21);      \
        v3 ^= v0;                 \
        v2 += v1;                 \
        v1 = ROTL64(v1, 17);      \
        v1 ^= v2;                 \
        v2 = ROTL64(v2, 32);      \
    } while (0)

static inline uint64_t
load_le64(const unsigned char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    return x;
}

uint64_t
_Py_SipHash13(uint64_t k0, uint64_t k1, const void *src, Py_ssize_t len)
{
    const unsigned char *in = src;
    /* "somepseudorandomlygeneratedbytes", the algorithm's constants */
    uint64_t v0 = k0 ^ 0x736f6d6570736575ULL;
    uint64_t v1 = k1 ^ 0x646f72616e646f6dULL;
    uint64_t v2 = k0 ^ 0x6c7967656e657261ULL;
    uint64_t v3 = k1 ^ 0x7465646279746573ULL;

    Py_ssize_t blocks = len / 8;
    for (Py_ssize_t i = 0; i < blocks; i++, in += 8) {
        uint64_t m = load_le64(in);
        v3 ^= m;
        SIP_ROUND(v0, v1, v2, v3);
        v0 ^= m;
    }
    /* the final block: leftover bytes, with the length in the top byte */
    uint64_t last = (uint64_t)len << 56;
    for (int i = (int)(len & 7) - 1; i >= 0; i--) {
        last |= (uint64_t)in[i] << (8 * i);
    }
    v3 ^= last;
    SIP_ROUND(v0, v1, v2, v3);
    v0 ^= last;

    v2 ^= 0xff;
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    return v0 ^ v1 ^ v2 ^ v3;
}

Py_hash_t
Py_HashBuffer(const void *ptr, Py_ssize_t len)
{
    if (len == 0) {
        return 0;
    }
    uint64_t x = _Py_SipHash13(_Py_HashSecret.k0, _Py_HashSecret.k1, ptr, len);
    Py_hash_t h = (Py_hash_t)x;
    return h == -1 ? -2 : h;
}

Py_hash_t
_Py_HashBytes(const void *ptr, Py_ssize_t len)
{
    return Py_HashBuffer(ptr, len);
}
