/* The copy-and-patch JIT: machine code for tier-2 executors.

   At build time Tools/jit/build_stencils.py has clang-19 compile every
   uop's body (from Python/executor_cases.c.h, through Tools/jit/template.h)
   into a "stencil": machine code with holes where the uop's oparg and
   operands, the address of the next uop's code and runtime symbols go.
   Python/jit.c copies one stencil per uop of a trace into fresh memory,
   fills the holes and makes the memory executable (never writable and
   executable at once).  Doc/jit.md tells the whole story.

   The code of an executor is a chain of stencils, each a function in the
   preserve_none convention taking (frame, stack_pointer, tstate) and
   ending in a tail jump to the next.  The chain returns to the tier-1 loop
   only when it leaves: the value returned is the address of the uop that
   left, tagged in its low bits with why. */
#ifndef Py_INTERNAL_JIT_H
#define Py_INTERNAL_JIT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#ifdef _Py_JIT

#include "pycore_optimizer.h"

/* Why JIT code returned (the low bits of its result).  The rest is the
   _PyUOpInstruction that left, whose target says where tier 1 goes on. */
#define _Py_JIT_LEFT_BY_EXIT 0      /* a guard failed or the trace ended */
#define _Py_JIT_LEFT_BY_ERROR 1     /* the uop raised; the frame's stack pointer is saved */
#define _Py_JIT_LEFT_BY_UNWIND 2    /* a frame the trace pushed hit the recursion limit */
#define _Py_JIT_LEFT_MASK 3

/* Make machine code for `executor` (sets executor->jit_code).  0 when it
   has some, or when this trace stays in the uop interpreter; -1 with an
   exception set when memory ran out. */
int _PyJIT_Compile(_PyExecutorObject *executor);
/* Give the executor's code back (from its dealloc). */
void _PyJIT_Free(_PyExecutorObject *executor);
/* Run *running's code on `frame`; returns the tagged uop it left by.  The
   code may go on into side traces' code: *running (a strong reference)
   is then the executor that left. */
uintptr_t _PyJIT_Run(_PyExecutorObject **running, _PyInterpreterFrame *frame,
                     _PyStackRef *stack_pointer, PyThreadState *tstate);
/* Whether machine code can be made here (the first compile maps the
   shared code; a system that refuses executable memory makes this 0). */
int _PyJIT_IsAvailable(void);
/* Whether `frame` (the caller of a builtin) is running in JIT code. */
int _PyJIT_FrameIsActive(PyThreadState *tstate, _PyInterpreterFrame *frame);

/* -X perf / PYTHONPERFSUPPORT=1: each executor's code gets a line in
   /tmp/perf-PID.map naming its function, for `perf report`. */
extern int _Py_JIT_PerfMap;

/* Counters for tests (_testinternalcapi.jit_stats()). */
typedef struct {
    Py_ssize_t executors_compiled;
    Py_ssize_t executors_refused;     /* stayed in the uop interpreter */
    Py_ssize_t code_bytes;            /* mapped for executors now */
    Py_ssize_t runs;                  /* entries into JIT code */
} _PyJITStats;
PyAPI_DATA(_PyJITStats) _Py_JIT_Stats;

#endif /* _Py_JIT */
#endif /* !Py_INTERNAL_JIT_H */
