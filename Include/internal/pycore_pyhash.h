/* Internal hashing helpers (Python/pyhash.c). */
#ifndef Py_INTERNAL_PYHASH_H
#define Py_INTERNAL_PYHASH_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* The 128-bit key of the byte-string hash, set by _Py_HashSecret_Init
   at start-up before any str or bytes is hashed. */
typedef struct {
    uint64_t k0;
    uint64_t k1;
} _Py_HashSecret_t;
PyAPI_DATA(_Py_HashSecret_t) _Py_HashSecret;

/* Set the key from _Py_Config: random from the OS, or derived from
   PYTHONHASHSEED (all zero for 0).  -1 when the OS gives no randomness. */
PyAPI_FUNC(int) _Py_HashSecret_Init(void);
/* sys.flags.hash_randomization: 0 only for PYTHONHASHSEED=0. */
PyAPI_FUNC(int) _Py_HashRandomizationEnabled(void);

/* SipHash-1-3 of a buffer with the given key, the raw 64-bit result. */
PyAPI_FUNC(uint64_t) _Py_SipHash13(uint64_t k0, uint64_t k1, const void *src, Py_ssize_t len);

#endif /* !Py_INTERNAL_PYHASH_H */
