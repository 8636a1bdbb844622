/* Portability layer: integer types, export macros and small helpers that
   every other header relies on.  Keep this free of anything Python-specific. */
#ifndef Py_PYPORT_H
#define Py_PYPORT_H

#include "pyconfig.h"

#if defined(Py_DEBUG) && !defined(Py_REF_DEBUG)
#  define Py_REF_DEBUG
#endif

#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef ssize_t Py_ssize_t;
typedef Py_ssize_t Py_hash_t;
typedef size_t Py_uhash_t;

#define PY_SSIZE_T_MAX ((Py_ssize_t)(((size_t)-1) >> 1))
#define PY_SSIZE_T_MIN (-PY_SSIZE_T_MAX - 1)
#define SIZEOF_PY_HASH_T SIZEOF_SIZE_T

/* Symbol visibility.  Everything is linked statically into ./python for now,
   so these only document intent; a shared libpython would add attributes. */
#define PyAPI_FUNC(RTYPE) RTYPE
#define PyAPI_DATA(RTYPE) extern RTYPE
#define PyMODINIT_FUNC PyObject *

#define Py_LOCAL(type) static type
#define Py_LOCAL_INLINE(type) static inline type
#define Py_ALWAYS_INLINE __attribute__((always_inline))
#define Py_NO_INLINE __attribute__((noinline))
#define _Py_NO_RETURN __attribute__((__noreturn__))
#define Py_NO_RETURN _Py_NO_RETURN
#define _Py_HOT_FUNCTION __attribute__((hot))
#define Py_GCC_ATTRIBUTE(x) __attribute__(x)
#define _Py_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#define Py_DEPRECATED(VERSION) __attribute__((deprecated))
#define _Py_FALLTHROUGH __attribute__((fallthrough))

#define Py_UNUSED(name) _unused_##name __attribute__((unused))
#define Py_UNREACHABLE() __builtin_unreachable()
#define Py_ARRAY_LENGTH(array) (sizeof(array) / sizeof((array)[0]))
#define Py_MIN(x, y) (((x) > (y)) ? (y) : (x))
#define Py_MAX(x, y) (((x) > (y)) ? (x) : (y))
#define Py_ABS(x) ((x) < 0 ? -(x) : (x))
#define Py_STRINGIFY(x) _Py_XSTRINGIFY(x)
#define _Py_XSTRINGIFY(x) #x
#define Py_CHARMASK(c) ((unsigned char)((c) & 0xff))
#define _Py_SIZE_ROUND_UP(n, a) (((size_t)(n) + (size_t)((a) - 1)) & ~(size_t)((a) - 1))
#define _Py_ALIGN_UP(p, a) ((void *)(((uintptr_t)(p) + (uintptr_t)((a) - 1)) & ~(uintptr_t)((a) - 1)))
#define Py_BUILD_ASSERT(cond) _Static_assert((cond), #cond)

#define _Py_LIKELY(x) __builtin_expect(!!(x), 1)
#define _Py_UNLIKELY(x) __builtin_expect(!!(x), 0)

#define Py_SAFE_DOWNCAST(VALUE, WIDE, NARROW) ((NARROW)(VALUE))

/* Used by the evaluation loop and the JIT: a function that may be
   entered with a tail call. */
#define Py_MEMCPY memcpy

#endif /* !Py_PYPORT_H */
