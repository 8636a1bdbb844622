/* Internal tuple helpers. */
#ifndef Py_INTERNAL_TUPLE_H
#define Py_INTERNAL_TUPLE_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_gc.h"

/* The empty tuple: a static immortal singleton, so PyTuple_New(0) never
   allocates and `() is ()` holds.  Tuples are GC objects, so it carries an
   (untracked) GC header in front like every other tuple. */
struct _Py_empty_tuple_storage {
    PyGC_Head gc;
    PyTupleObject tuple;
};
PyAPI_DATA(struct _Py_empty_tuple_storage) _Py_EmptyTupleStorage;
#define _PyTuple_EMPTY ((PyObject *)&_Py_EmptyTupleStorage.tuple)

/* The xxHash-style mixing constants that tuple (and slice) hashing use;
   the results must match CPython's so hash() values agree. */
#if SIZEOF_PY_HASH_T > 4
#  define _PyHASH_XXPRIME_1 ((Py_uhash_t)11400714785074694791ULL)
#  define _PyHASH_XXPRIME_2 ((Py_uhash_t)14029467366897019727ULL)
#  define _PyHASH_XXPRIME_5 ((Py_uhash_t)2870177450012600261ULL)
#  define _PyHASH_XXROTATE(x) (((x) << 31) | ((x) >> 33))
#else
#  define _PyHASH_XXPRIME_1 ((Py_uhash_t)2654435761UL)
#  define _PyHASH_XXPRIME_2 ((Py_uhash_t)2246822519UL)
#  define _PyHASH_XXPRIME_5 ((Py_uhash_t)374761393UL)
#  define _PyHASH_XXROTATE(x) (((x) << 13) | ((x) >> 19))
#endif

/* One absorption step of that hash. */
static inline Py_uhash_t
_PyTuple_HashLane(Py_uhash_t acc, Py_uhash_t lane)
{
    acc += lane * _PyHASH_XXPRIME_2;
    acc = _PyHASH_XXROTATE(acc);
    return acc * _PyHASH_XXPRIME_1;
}

/* A tuple of two items, both references stolen (dict items, enumerate). */
PyAPI_FUNC(PyObject *) _PyTuple_FromPairSteal(PyObject *a, PyObject *b);

/* The tuple's iteritem slot, for the interpreter's direct use. */
PyAPI_FUNC(int) _PyTuple_IterItem(PyObject *tuple, Py_ssize_t index, PyObject **item,
                                  Py_ssize_t *next_index);

/* __setstate__ body shared by the tuple and list iterators: clamp the int
   state to [0, len(seq)] and store it in *index unless seq is NULL.
   Returns 0, or -1 with an exception set. */
PyAPI_FUNC(int) _PySeqIter_SetStateIndex(PyObject *seq, Py_ssize_t *index,
                                         PyObject *state);

#endif /* !Py_INTERNAL_TUPLE_H */
