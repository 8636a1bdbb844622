/* Hashing: numeric hashes are defined arithmetically (modulo the Mersenne
   prime 2**61 - 1) so that equal numbers of different types hash alike. */
#ifndef Py_PYHASH_H
#define Py_PYHASH_H

#define PyHASH_BITS 61
#define PyHASH_MODULUS (((size_t)1 << PyHASH_BITS) - 1)
#define PyHASH_INF 314159
#define PyHASH_IMAG 1000003UL
#define PyHASH_MULTIPLIER 1000003UL

PyAPI_FUNC(Py_hash_t) _Py_HashDouble(PyObject *, double);
PyAPI_FUNC(Py_hash_t) Py_HashPointer(const void *);
PyAPI_FUNC(Py_hash_t) _Py_HashPointer(const void *);
PyAPI_FUNC(Py_hash_t) Py_HashBuffer(const void *, Py_ssize_t);
PyAPI_FUNC(Py_hash_t) _Py_HashBytes(const void *, Py_ssize_t);

#endif /* !Py_PYHASH_H */
