/* The cycle collector's per-object header and state.

   A PyGC_Head sits immediately before every object whose type has
   Py_TPFLAGS_HAVE_GC.  Tracked objects are linked into a doubly linked
   list (generation 0) so the collector can find every container. */
#ifndef Py_INTERNAL_GC_H
#define Py_INTERNAL_GC_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

typedef struct {
    uintptr_t _gc_next; /* next in list; 0 when untracked */
    uintptr_t _gc_prev; /* previous in list; low bits are collector flags */
} PyGC_Head;

#define _Py_AS_GC(o) ((PyGC_Head *)(o) - 1)
#define _Py_FROM_GC(g) ((PyObject *)(((PyGC_Head *)(g)) + 1))

/* Bits in _gc_prev while not collecting: bit 1 = tp_finalize already ran. */
#define _PyGC_PREV_MASK_FINALIZED ((uintptr_t)2)
#define _PyGC_PREV_MASK_FLAGS ((uintptr_t)3)

static inline int
_PyGC_IsFinalized(PyObject *op)
{
    return (_Py_AS_GC(op)->_gc_prev & _PyGC_PREV_MASK_FINALIZED) != 0;
}

static inline void
_PyGC_SetFinalized(PyObject *op)
{
    _Py_AS_GC(op)->_gc_prev |= _PyGC_PREV_MASK_FINALIZED;
}

static inline int
_PyObject_GC_IS_TRACKED(PyObject *op)
{
    return _Py_AS_GC(op)->_gc_next != 0;
}

struct _gc_runtime_state {
    PyGC_Head young;        /* tracked since the last collection */
    PyGC_Head old;          /* survived at least one collection */
    Py_ssize_t count;       /* allocations since the last collection */
    Py_ssize_t threshold;   /* count that triggers a young collection */
    Py_ssize_t old_size;    /* objects in `old` after the last full collection */
    Py_ssize_t old_pending; /* moved to `old` since then */
    int enabled;
    int collecting;
    Py_ssize_t collections;     /* young collections */
    Py_ssize_t full_collections;
    Py_ssize_t collected;
};

PyAPI_FUNC(void) _PyGC_InitState(struct _gc_runtime_state *gcstate);
/* Deallocate a container through the trashcan: past a nesting limit the
   dealloc is deferred until the outermost one finishes, so freeing a
   million nested lists does not overflow the C stack. */
PyAPI_FUNC(void) _PyGC_DeallocWithTrashcan(PyObject *op, destructor dealloc);
/* A full collection now, keeping any exception that is set. */
PyAPI_FUNC(Py_ssize_t) _PyGC_CollectNoFail(PyThreadState *tstate);
/* A collection of the young objects only (gc.collect(0)). */
PyAPI_FUNC(Py_ssize_t) _PyGC_CollectYoung(PyThreadState *tstate);
/* Collect if allocations since the last collection passed the threshold:
   the young objects, and everything when the old ones grew by a quarter. */
PyAPI_FUNC(void) _PyGC_CollectIfNeeded(PyThreadState *tstate);

#endif /* !Py_INTERNAL_GC_H */
