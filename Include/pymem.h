/* Memory allocation.

   PyMem_Raw*: thread-safe, usable without the runtime; PyMem_* and
   PyObject_*: for the runtime's own buffers and objects.  All three route
   to one allocator (mimalloc when configured, the C library otherwise);
   they stay separate names so a debug build can tell them apart. */
#ifndef Py_PYMEM_H
#define Py_PYMEM_H

#include "pyport.h"

PyAPI_FUNC(void *) PyMem_RawMalloc(size_t size);
PyAPI_FUNC(void *) PyMem_RawCalloc(size_t nelem, size_t elsize);
PyAPI_FUNC(void *) PyMem_RawRealloc(void *ptr, size_t new_size);
PyAPI_FUNC(void) PyMem_RawFree(void *ptr);

PyAPI_FUNC(void *) PyMem_Malloc(size_t size);
PyAPI_FUNC(void *) PyMem_Calloc(size_t nelem, size_t elsize);
PyAPI_FUNC(void *) PyMem_Realloc(void *ptr, size_t new_size);
PyAPI_FUNC(void) PyMem_Free(void *ptr);

PyAPI_FUNC(char *) _PyMem_RawStrdup(const char *str);
PyAPI_FUNC(char *) _PyMem_Strdup(const char *str);

/* Overflow-checked array allocation: NULL if n * sizeof(type) overflows. */
#define PyMem_New(type, n)                                                     \
    (((size_t)(n) > PY_SSIZE_T_MAX / sizeof(type)) ? NULL                      \
                                                   : ((type *)PyMem_Malloc((n) * sizeof(type))))
#define PyMem_Resize(p, type, n)                                               \
    ((p) = ((size_t)(n) > PY_SSIZE_T_MAX / sizeof(type))                       \
               ? NULL                                                          \
               : (type *)PyMem_Realloc((p), (n) * sizeof(type)))
#define PyMem_Del PyMem_Free

#endif /* !Py_PYMEM_H */
