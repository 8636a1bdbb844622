/* Internal hashing helpers (Python/pyhash.c). */
#ifndef Py_INTERNAL_PYHASH_H
#define Py_INTERNAL_PYHASH_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* The 128-bit key of the byte-string hash.  Fixed for now (hashes are
   reproducible from run to run); hash randomisation will set it at
   start-up, before any str or bytes is hashed. */
typedef struct {
    uint64_t k0;
    uint64_t k1;
} _Py_HashSecret_t;
PyAPI_DATA(_Py_HashSecret_t) _Py_HashSecret;

/* SipHash-1-3 of a buffer with the given key, the raw 64-bit result. */
PyAPI_FUNC(uint64_t) _Py_SipHash13(uint64_t k0, uint64_t k1, const void *src, Py_ssize_t len);

#endif /* !Py_INTERNAL_PYHASH_H */
