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
#include "pycore_uop_ids.h"

/* One uop of a trace.  `target` is the offset (in code units) of the
   instruction the uop came from, in the code of the frame that runs it:
   where an exit or an error goes back to tier 1. */
typedef struct {
    uint16_t opcode;
    uint16_t oparg;
    uint32_t target;
    uint32_t exit_index;    /* into the executor's exits, for guards */
    uint32_t hints;         /* UOP_HINT_* bits the optimizer proved */
    uint64_t operand0;
    uint64_t operand1;
} _PyUOpInstruction;

/* This instance of an escaping uop runs no code of anyone's (the
   optimizer knows what it drops): no _SET_IP or validity check for it. */
#define UOP_HINT_QUIET 1

struct _PyExecutorObject;

/* A side exit: where a failed guard continues in tier 1, how often that
   happened, and the executor grown from it once it got hot. */
typedef struct {
    uint32_t target;
    int32_t temperature;                  /* negative while backing off */
    struct _PyExecutorObject *executor;   /* strong, or NULL */
} _PyExitData;

/* The dicts an executor takes values from (Python/optimizer_bytecodes.c:
   promoted globals): a change to one invalidates it. */
#define TIER2_MAX_WATCHED_DICTS 4
typedef struct {
    int count;
    PyObject *dicts[TIER2_MAX_WATCHED_DICTS];   /* borrowed: compared, never read */
} _PyExecutorDeps;

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
    _PyExecutorDeps deps;
    struct _PyExecutorObject *all_prev;   /* every live executor, for invalidation */
    struct _PyExecutorObject *all_next;
    void *jit_code;                       /* machine code (Python/jit.c), or NULL */
    size_t jit_size;
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

#ifdef Py_STATS
/* A stats build (configure --enable-pystats) also counts, per uop, how
   often it ran and how often it left the trace through its exit; -X
   pystats (or PYTHONSTATS=1) prints every figure at exit. */
typedef struct {
    uint64_t executed;
    uint64_t exits;
} _PyUopStats;
PyAPI_DATA(_PyUopStats) _Py_UopStats[MAX_UOP_ID + 1];
#endif
extern int _Py_Stats_Requested;
/* The figures on `out` (at exit, when -X pystats asked for them). */
void _PyTier2_PrintStats(FILE *out);

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
                                         int length, const _PyExecutorDeps *deps);
/* Put `executor` in place of the JUMP_BACKWARD at `jump` (takes a new
   reference).  -1 when the code has no room left. */
int _PyExecutor_Install(PyCodeObject *code, _Py_CODEUNIT *jump, _PyExecutorObject *executor);
/* The executors that take values from `dict` stop being valid. */
void _PyExecutor_InvalidateDependents(PyObject *dict);
/* Every executor stops being valid (monitoring switched on, -X jit off):
   installed ones are taken out of their code. */
PyAPI_FUNC(void) _PyExecutor_InvalidateAll(void);
/* The code object is going away. */
void _PyCode_ClearExecutors(PyCodeObject *code);
/* The instruction ENTER_EXECUTOR stands for (for co_code and tools). */
int _PyCode_ExecutorJumpOparg(PyCodeObject *code, int index);
PyAPI_FUNC(_PyExecutorObject *) _PyCode_GetExecutor(PyCodeObject *code, int offset);

/* ---- the optimizer (Python/optimizer_analysis.c) ---- */

/* What the optimizer is told of the frame a trace starts in. */
typedef struct {
    PyCodeObject *code;
    PyObject *globals;          /* that frame's (borrowed) */
    PyObject *builtins;
} _PyTraceStart;

/* Rewrite the trace in place; returns its new length.  The dicts whose
   values the trace now takes for constants are added to `deps` (and
   watched): a change to one of them invalidates the executor. */
int _PyOptimizer_Optimize(_PyUOpInstruction *trace, int length,
                          const _PyTraceStart *start, _PyExecutorDeps *deps);

/* Tier 2's dict watcher: a watched dict changed or is going away. */
int _PyOptimizer_DictChanged(PyDict_WatchEvent event, PyObject *dict,
                             PyObject *key, PyObject *new_value);

/* ---- abstract values (Python/optimizer_symbols.c) ----

   The optimizer runs the trace on abstract values: what is known, at
   optimization time, of the object a stack slot or local will hold when
   the trace runs.  Slots holding the same object share one value, so a
   guard passed by a value read from a local teaches the local too. */

typedef enum {
    AV_UNKNOWN,         /* any object, or NULL */
    AV_NULL,            /* the NULL stack reference */
    AV_OBJECT,          /* an object; `type` may say which type */
    AV_CONSTANT,        /* exactly `constant` */
} _PyAbstractKind;

typedef struct _PyAbstractValue {
    uint8_t kind;
    PyTypeObject *type;         /* its exact type, when known */
    PyObject *constant;         /* AV_CONSTANT: borrowed */
    /* A type version guard it passed; true only until the next uop that
       may run arbitrary code (which could change the type or the
       object's class), i.e. while the context's epoch is unchanged. */
    uint32_t type_version;
    uint32_t version_epoch;
} _PyAbstractValue;

#define AV_MAX_VALUES 1024
#define AV_MAX_SLOTS 4096
#define AV_MAX_FRAMES 12

typedef struct {
    PyCodeObject *code;
    PyObject *globals;          /* borrowed; NULL when not known */
    PyObject *builtins;
    uint8_t globals_watched;    /* its promoted loads may be constants */
    uint8_t builtins_watched;
    uint8_t globals_checked;    /* a _CHECK_*_IS already guards the dict */
    uint8_t builtins_checked;
    _PyAbstractValue **locals;
    _PyAbstractValue **stack_base;
    _PyAbstractValue **stack_limit;
    _PyAbstractValue **caller_sp;   /* the caller's stack pointer while this frame runs */
} _PyAbstractFrame;

typedef struct {
    uint32_t epoch;             /* counts uops that may run arbitrary code */
    int escaped;                /* one did since the last _CHECK_VALIDITY */
    int lost;                   /* the model cannot follow: stop rewriting */
    int quiet;                  /* the uop's case proved it runs no other code */
    int frame_changed;          /* the uop pushed or popped a frame ... */
    _PyAbstractValue **new_sp;  /* ... and the stack pointer to go on with */
    int depth;
    _PyAbstractFrame frames[AV_MAX_FRAMES];
    _PyExecutorDeps *deps;
    int value_count;
    int slot_count;
    _PyAbstractValue overflow;  /* handed out when `values` is full: never refined */
    _PyAbstractValue values[AV_MAX_VALUES];
    _PyAbstractValue *slots[AV_MAX_SLOTS];
} _PyAbstractContext;

_PyAbstractValue *av_unknown(_PyAbstractContext *ctx);
_PyAbstractValue *av_null(_PyAbstractContext *ctx);
_PyAbstractValue *av_object(_PyAbstractContext *ctx);
_PyAbstractValue *av_of_type(_PyAbstractContext *ctx, PyTypeObject *type);
_PyAbstractValue *av_constant(_PyAbstractContext *ctx, PyObject *value);
/* Its exact type, or NULL. */
PyTypeObject *av_type(const _PyAbstractValue *value);
int av_is_null(const _PyAbstractValue *value);
int av_is_not_null(const _PyAbstractValue *value);
PyObject *av_constant_of(const _PyAbstractValue *value);
/* NULL, or an object whose freeing runs no code (exact int, float, str,
   bool, None): dropping a reference to it cannot escape. */
int av_is_inert(const _PyAbstractValue *value);
/* Whether dropping a stack reference to it runs no code: it is inert, or
   a local of a frame of the trace still holds it (a local overwritten
   through frame.f_locals invalidates every executor). */
int av_drop_is_quiet(const _PyAbstractContext *ctx, const _PyAbstractValue *value);
/* What a passed guard teaches. */
void av_learn_type(_PyAbstractContext *ctx, _PyAbstractValue *value, PyTypeObject *type);
void av_learn_not_null(_PyAbstractContext *ctx, _PyAbstractValue *value);
int av_has_type_version(_PyAbstractContext *ctx, const _PyAbstractValue *value, uint32_t version);
void av_learn_type_version(_PyAbstractContext *ctx, _PyAbstractValue *value, uint32_t version);

#endif /* !Py_INTERNAL_OPTIMIZER_H */
