/* Tier 2: traces of micro-ops (uops), the executors that run them, and the
   recorder that makes them.  Doc/tier2.md tells the whole story; in short:

   - A hot JUMP_BACKWARD starts the trace recorder (Python/trace_recorder.c):
     the interpreter switches to its second dispatch table, which records
     each instruction, as its uops, on the way to running it.  Recording
     ends when the loop closes, at an instruction tier 2 cannot run, or at
     the length limit.
   - The optimizer (Python/optimizer_analysis.c) tidies the recorded uops;
     Python/optimizer.c turns them into an executor, which replaces the
     JUMP_BACKWARD by ENTER_EXECUTOR.
   - The uop interpreter (the tier-2 part of Python/ceval.c) runs
     executors.  A guard that fails leaves through a side exit to tier 1;
     an exit taken often grows a trace of its own, linked to the exit. */
#ifndef Py_INTERNAL_OPTIMIZER_H
#define Py_INTERNAL_OPTIMIZER_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_frame.h"

/* One uop of a trace.  `target` is the offset (in code units) of the
   instruction the uop came from, in the code of the frame that runs it:
   where an exit or an error goes back to tier 1. */
typedef struct {
    uint16_t opcode;
    uint16_t oparg;
    uint32_t target;
    uint32_t exit_index;    /* into the executor's exits, for guards */
    uint32_t unused;
    uint64_t operand0;
    uint64_t operand1;
} _PyUOpInstruction;

struct _PyExecutorObject;

/* A side exit: where a failed guard continues in tier 1, how often that
   happened, and the executor grown from it once it got hot. */
typedef struct {
    uint32_t target;
    int32_t temperature;                  /* negative while backing off */
    struct _PyExecutorObject *executor;   /* strong, or NULL */
} _PyExitData;

typedef struct _PyExecutorObject {
    PyObject_VAR_HEAD                     /* ob_size: uops in trace */
    PyCodeObject *code;                   /* borrowed: where the trace starts */
    int index;                            /* in code->co_executors, or -1 */
    int jump_offset;                      /* of the ENTER_EXECUTOR it stands in, or -1 */
    uint8_t valid;
    uint8_t jump_oparg;                   /* the JUMP_BACKWARD's own oparg byte */
    uint8_t side_depth;                   /* 0 for a loop's trace, parent's + 1 for side traces */
    uint32_t exit_count;
    _PyExitData *exits;
    struct _PyExecutorObject *all_prev;   /* every live executor, for invalidation */
    struct _PyExecutorObject *all_next;
    _PyUOpInstruction trace[1];
} _PyExecutorObject;

/* The executors installed in a code object; ENTER_EXECUTOR's oparg (its
   low byte) indexes `executors`. */
typedef struct _PyExecutorArray {
    int size;
    int capacity;
    _PyExecutorObject *executors[1];
} _PyExecutorArray;

#define TIER2_MAX_EXECUTORS_PER_CODE 256
#define TIER2_MAX_TRACE_LENGTH 800
/* Side traces of side traces... stop growing here. */
#define TIER2_MAX_SIDE_DEPTH 12

PyAPI_DATA(PyTypeObject) _PyUOpExecutor_Type;

/* -X jit / PYTHON_JIT on a build with tier 2: the interpreter records and
   runs traces.  Only read on slow paths and at back edges. */
PyAPI_DATA(int) _Py_Tier2_Enabled;

/* Hotness: a back edge starts recording after this many executions, a
   side exit grows a trace after this many failures.  PYTHON_JIT_STRESS=1
   (or -X jit_stress) sets both to their minimum. */
PyAPI_DATA(uint16_t) _Py_Tier2_BackedgeThreshold;
PyAPI_DATA(uint16_t) _Py_Tier2_ExitThreshold;

/* At start-up, before any code object is made. */
void _PyTier2_Init(int stress);
/* PYTHON_TIER2_DEBUG=1: executors and abandoned recordings on stderr. */
extern int _Py_Tier2_Debug;

/* Counters for tests: _testinternalcapi.tier2_stats(). */
typedef struct {
    Py_ssize_t traces_started;
    Py_ssize_t traces_recorded;
    Py_ssize_t traces_aborted;
    Py_ssize_t aborted_by_reason[8];
    Py_ssize_t executors_created;
    Py_ssize_t executors_invalidated;
    Py_ssize_t executors_entered;
    Py_ssize_t side_exits_taken;
    Py_ssize_t uops_executed;
} _PyTier2Stats;
PyAPI_DATA(_PyTier2Stats) _Py_Tier2_Stats;

/* Why a recording was abandoned (the keys of tier2_stats()["aborted"]). */
enum _PyTraceAbortReason {
    TRACE_ABORT_EXCEPTION,      /* an exception was raised while recording */
    TRACE_ABORT_FRAME,          /* control left the frames being recorded */
    TRACE_ABORT_UNSUPPORTED,    /* an instruction tier 2 cannot run, too early */
    TRACE_ABORT_TOO_LONG,
    TRACE_ABORT_NO_MEMORY,
    TRACE_ABORT_INSTRUMENTED,   /* monitoring or tracing came on */
    TRACE_ABORT_TOO_SHORT,      /* nothing worth an executor */
    TRACE_ABORT_REASONS
};
extern const char *const _PyTrace_AbortReasonNames[TRACE_ABORT_REASONS];

/* ---- the recorder (Python/trace_recorder.c) ---- */

/* Start recording at a back edge: `jump` is the JUMP_BACKWARD, `start` the
   loop top it jumps to.  Returns 1 when recording started (the caller
   switches to the recording dispatch table). */
int _PyTrace_StartAtBackEdge(PyThreadState *tstate, _PyInterpreterFrame *frame,
                             _Py_CODEUNIT *jump, _Py_CODEUNIT *start);
/* Start recording a side trace from a hot exit of `parent`. */
int _PyTrace_StartAtExit(PyThreadState *tstate, _PyInterpreterFrame *frame,
                         _PyExecutorObject *parent, _PyExitData *exit);
/* Called by the recording dispatch before each instruction runs.  Returns
   1 to go on recording, 0 when recording is over. */
int _PyTrace_RecordInstruction(PyThreadState *tstate, _PyInterpreterFrame *frame,
                               _Py_CODEUNIT *next_instr, int opcode, int oparg);
void _PyTrace_Abort(PyThreadState *tstate, enum _PyTraceAbortReason reason);
void _PyTrace_FreeRecorder(PyThreadState *tstate);

/* ---- executors (Python/optimizer.c) ---- */

/* Make an executor from a finished trace.  NULL with no exception set when
   the trace is not worth it; NULL with MemoryError on failure. */
_PyExecutorObject *_PyExecutor_FromTrace(PyCodeObject *code, const _PyUOpInstruction *trace,
                                         int length);
/* Put `executor` in place of the JUMP_BACKWARD at `jump` (takes a new
   reference).  -1 when the code has no room left. */
int _PyExecutor_Install(PyCodeObject *code, _Py_CODEUNIT *jump, _PyExecutorObject *executor);
/* Every executor stops being valid (monitoring switched on, -X jit off):
   installed ones are taken out of their code. */
PyAPI_FUNC(void) _PyExecutor_InvalidateAll(void);
/* The code object is going away. */
void _PyCode_ClearExecutors(PyCodeObject *code);
/* The instruction ENTER_EXECUTOR stands for (for co_code and tools). */
int _PyCode_ExecutorJumpOparg(PyCodeObject *code, int index);
PyAPI_FUNC(_PyExecutorObject *) _PyCode_GetExecutor(PyCodeObject *code, int offset);

/* ---- the optimizer (Python/optimizer_analysis.c) ---- */

/* Rewrite the trace in place; returns its new length. */
int _PyOptimizer_Optimize(_PyUOpInstruction *trace, int length);

#endif /* !Py_INTERNAL_OPTIMIZER_H */
