#ifndef Py_INTERNAL_STRESS_H
#define Py_INTERNAL_STRESS_H

/* The stress build: ./configure --with-stress defines Py_STRESS (Doc/stress.md).

   It keeps the runtime's rarely taken paths busy so that their bugs show
   up in ordinary test runs:
   - every allocation of a GC-tracked object schedules a collection;
   - the int and float freelists and the type attribute cache hold nothing;
   - specialization is attempted at an instruction's first execution and
     again right after a deopt; tier 2's thresholds are at their minimum;
   - PYTHONSTRESSALLOC=N[:M] makes allocations N to M (counted from the
     start of the main program) fail, for the MemoryError paths.

   Code tests _Py_STRESS with an ordinary `if` rather than #ifdef, so both
   builds compile every path. */

#ifdef Py_STRESS
#  define _Py_STRESS 1
#else
#  define _Py_STRESS 0
#endif

/* Failure injection, in every build (Python/obmalloc.c).  Once armed,
   allocations are numbered from 1; number k fails when start < k and
   (stop == 0 or k <= stop).  _testinternalcapi.set_nomemory() arms it. */
PyAPI_FUNC(void) _PyMem_SetNoMemory(Py_ssize_t start, Py_ssize_t stop);
PyAPI_FUNC(void) _PyMem_ClearNoMemory(void);

#endif /* Py_INTERNAL_STRESS_H */
