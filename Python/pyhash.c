/* Hash functions shared by the built-in types.

   Numbers hash arithmetically: a rational value x hashes to x modulo the
   Mersenne prime P = 2**61 - 1 (with the sign carried over), so equal
   numbers hash equally whatever their type.  Byte strings use SipHash-1-3
   (Aumasson and Bernstein) under a 128-bit key that start-up draws from
   the OS, so str and bytes hashes (and set and dict order) change from
   run to run; PYTHONHASHSEED=N derives the key from N instead, and N = 0
   makes it all zero (see _Py_HashSecret_Init).  -1 is never a hash value
   (it signals an error), -2 stands in for it. */

#include "Python.h"
#include "pycore_initconfig.h"
#include "pycore_pyhash.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <unistd.h>
#ifdef __linux__
#  include <sys/random.h>
#endif

/* All zero until start-up sets it: the key of PYTHONHASHSEED=0. */
_Py_HashSecret_t _Py_HashSecret;

/* ---- The key ------------------------------------------------------------------ */

/* Fill buf with len bytes from the kernel without blocking on an
   unseeded pool (start-up must not hang early in boot): getrandom() where
   there is one, /dev/urandom otherwise.  0 on success. */
static int
os_random_bytes(unsigned char *buf, size_t len)
{
    size_t got = 0;
#ifdef __linux__
    while (got < len) {
        ssize_t n = getrandom(buf + got, len - got, GRND_NONBLOCK);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        got += (size_t)n;
    }
#endif
    if (got == len) {
        return 0;
    }
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    while (got < len) {
        ssize_t n = read(fd, buf + got, len - got);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) {
                continue;
            }
            break;
        }
        got += (size_t)n;
    }
    close(fd);
    return got == len ? 0 : -1;
}

/* The key bytes of a numeric PYTHONHASHSEED: each byte is bits 16..23 of
   the next state of the 32-bit linear congruential generator
   state * 214013 + 2531011 (the C library rand() of Microsoft's runtime),
   started at the seed.  This gives the same hashes as CPython for the
   same seed, which tests and users comparing the two rely on. */
static void
seeded_bytes(unsigned char *buf, size_t len, uint32_t seed)
{
    uint32_t state = seed;
    for (size_t k = 0; k < len; k++) {
        state = state * 214013u + 2531011u;
        buf[k] = (unsigned char)((state >> 16) & 0xff);
    }
}

int
_Py_HashSecret_Init(void)
{
    unsigned char key[16] = {0};
    if (!_Py_Config.use_hash_seed) {
        if (os_random_bytes(key, sizeof(key)) < 0) {
            return -1;
        }
    }
    else if (_Py_Config.hash_seed != 0) {
        seeded_bytes(key, sizeof(key), (uint32_t)_Py_Config.hash_seed);
    }
    /* The bytes are the two words in memory order, as the key of the
       same seed is on CPython (little-endian hosts). */
    memcpy(&_Py_HashSecret.k0, key, 8);
    memcpy(&_Py_HashSecret.k1, key + 8, 8);
    return 0;
}

int
_Py_HashRandomizationEnabled(void)
{
    return !_Py_Config.use_hash_seed || _Py_Config.hash_seed != 0;
}

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
