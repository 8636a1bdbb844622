/* Allocating and initialising objects, and the cycle collector's API.

   Objects of types with Py_TPFLAGS_HAVE_GC are preceded in memory by a
   PyGC_Head (see Include/internal/pycore_gc.h); PyObject_GC_New and
   PyObject_GC_Del account for it, so such types must use them. */
#ifndef Py_OBJIMPL_H
#define Py_OBJIMPL_H

#include "pymem.h"

PyAPI_FUNC(void *) PyObject_Malloc(size_t size);
PyAPI_FUNC(void *) PyObject_Calloc(size_t nelem, size_t elsize);
PyAPI_FUNC(void *) PyObject_Realloc(void *ptr, size_t new_size);
PyAPI_FUNC(void) PyObject_Free(void *ptr);

PyAPI_FUNC(PyObject *) PyObject_Init(PyObject *, PyTypeObject *);
PyAPI_FUNC(PyVarObject *) PyObject_InitVar(PyVarObject *, PyTypeObject *, Py_ssize_t);
PyAPI_FUNC(PyObject *) _PyObject_New(PyTypeObject *);
PyAPI_FUNC(PyVarObject *) _PyObject_NewVar(PyTypeObject *, Py_ssize_t);

#define PyObject_New(type, typeobj) ((type *)_PyObject_New(typeobj))
#define PyObject_NewVar(type, typeobj, n) ((type *)_PyObject_NewVar((typeobj), (n)))
#define PyObject_Del PyObject_Free

/* Size of a variable object with n items, rounded up to pointer alignment. */
static inline size_t
_PyObject_VAR_SIZE(PyTypeObject *type, Py_ssize_t nitems)
{
    size_t size = (size_t)type->tp_basicsize + (size_t)nitems * (size_t)type->tp_itemsize;
    return _Py_SIZE_ROUND_UP(size, sizeof(void *));
}

/* ---- Cycle collector ------------------------------------------------------ */

PyAPI_FUNC(PyObject *) _PyObject_GC_New(PyTypeObject *);
PyAPI_FUNC(PyVarObject *) _PyObject_GC_NewVar(PyTypeObject *, Py_ssize_t);
PyAPI_FUNC(PyVarObject *) _PyObject_GC_Resize(PyVarObject *, Py_ssize_t);
PyAPI_FUNC(void) PyObject_GC_Track(void *);
PyAPI_FUNC(void) PyObject_GC_UnTrack(void *);
PyAPI_FUNC(void) PyObject_GC_Del(void *);
PyAPI_FUNC(int) PyObject_GC_IsTracked(PyObject *);
PyAPI_FUNC(Py_ssize_t) PyGC_Collect(void);
PyAPI_FUNC(int) PyObject_IS_GC(PyObject *obj);

#define PyObject_GC_New(type, typeobj) ((type *)_PyObject_GC_New(typeobj))
#define PyObject_GC_NewVar(type, typeobj, n) ((type *)_PyObject_GC_NewVar((typeobj), (n)))
#define PyObject_GC_Resize(type, op, n) ((type *)_PyObject_GC_Resize(_PyVarObject_CAST(op), (n)))

#define Py_VISIT(op)                                             \
    do {                                                         \
        if (op) {                                                \
            int _vret = visit(_PyObject_CAST(op), arg);          \
            if (_vret) {                                         \
                return _vret;                                    \
            }                                                    \
        }                                                        \
    } while (0)

#endif /* !Py_OBJIMPL_H */
