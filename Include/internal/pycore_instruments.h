/* sys.monitoring (PEP 669): event numbers, per-code instrumentation data
   and the entry points the instrumented instructions call.

   Instrumentation is zero-cost when off: a code object runs its ordinary
   (possibly specialised) instructions until some tool asks for an event.
   Then its instructions are rewritten to INSTRUMENTED_* forms (see
   Python/bytecodes.c and Python/instrumentation.c).  Every change to the
   set of events bumps _Py_instrumentation_version; RESUME compares the
   code's version with it and re-instruments on a mismatch, so functions
   already running pick the change up.  Doc/tracing.md has the picture. */
#ifndef Py_INTERNAL_INSTRUMENTS_H
#define Py_INTERNAL_INSTRUMENTS_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_frame.h"

#define PY_MONITORING_TOOL_IDS 8
#define PY_MONITORING_DEBUGGER_ID 0
#define PY_MONITORING_COVERAGE_ID 1
#define PY_MONITORING_PROFILER_ID 2
#define PY_MONITORING_OPTIMIZER_ID 5
/* Reserved for sys.setprofile and sys.settrace (Python/legacy_tracing.c). */
#define PY_MONITORING_SYS_PROFILE_ID 6
#define PY_MONITORING_SYS_TRACE_ID 7

/* Event numbers: sys.monitoring.events.X == 1 << PY_MONITORING_EVENT_X.
   The first _PY_MONITORING_LOCAL_EVENTS can be set per code object. */
#define PY_MONITORING_EVENT_PY_START 0
#define PY_MONITORING_EVENT_PY_RESUME 1
#define PY_MONITORING_EVENT_PY_RETURN 2
#define PY_MONITORING_EVENT_PY_YIELD 3
#define PY_MONITORING_EVENT_CALL 4
#define PY_MONITORING_EVENT_LINE 5
#define PY_MONITORING_EVENT_INSTRUCTION 6
#define PY_MONITORING_EVENT_JUMP 7
#define PY_MONITORING_EVENT_BRANCH_LEFT 8
#define PY_MONITORING_EVENT_BRANCH_RIGHT 9
#define PY_MONITORING_EVENT_STOP_ITERATION 10
#define _PY_MONITORING_LOCAL_EVENTS 11
#define PY_MONITORING_EVENT_RAISE 11
#define PY_MONITORING_EVENT_EXCEPTION_HANDLED 12
#define PY_MONITORING_EVENT_PY_UNWIND 13
#define PY_MONITORING_EVENT_PY_THROW 14
#define PY_MONITORING_EVENT_RERAISE 15
#define PY_MONITORING_EVENT_C_RETURN 16
#define PY_MONITORING_EVENT_C_RAISE 17
#define PY_MONITORING_EVENT_BRANCH 18
#define _PY_MONITORING_EVENTS 19

/* What one code object carries once a tool has looked at it.  Arrays are
   indexed by code unit and exist only while the code is instrumented. */
typedef struct _PyCoMonitoringData {
    uint8_t local_tools[_PY_MONITORING_EVENTS];  /* set_local_events */
    uint8_t active_tools[_PY_MONITORING_EVENTS]; /* global | local, as applied */
    uint32_t tool_epoch[PY_MONITORING_TOOL_IDS]; /* local events older than the
                                                    tool's last clear are void */
    uint32_t restart_epoch;      /* DISABLE marks older than restart_events are void */
    int ninstr;                  /* code units covered by the arrays */
    uint8_t *base;               /* the generic opcode of each instruction */
    uint8_t *under;              /* what an INSTRUMENTED_LINE/INSTRUCTION runs next */
    uint8_t *line_tools;         /* tools that get LINE here */
    uint8_t *insn_tools;         /* tools that get INSTRUCTION here */
    uint8_t *op_tools;           /* tools that get the instruction's own event */
    uint8_t *disabled;           /* tools that returned DISABLE here (any event) */
    uint8_t *disabled_line;      /* ... for LINE */
    uint8_t *disabled_insn;      /* ... for INSTRUCTION */
    int *lines;                  /* line of each instruction, -1 for none */
    uint8_t *line_start;         /* 1 where a LINE event may fire */
} _PyCoMonitoringData;

/* Bumped on every change of the active event sets. */
PyAPI_DATA(uint32_t) _Py_instrumentation_version;
/* Nonzero while some tool has any event set (globally or locally). */
PyAPI_DATA(int) _Py_monitoring_any_active;

/* Called by RESUME when the code's version is stale. */
PyAPI_FUNC(int) _PyMonitoring_InstrumentCode(PyThreadState *tstate, PyCodeObject *code);
PyAPI_FUNC(void) _PyMonitoring_FreeCodeData(PyCodeObject *code);
/* The generic opcode at code unit `index` (instrumentation undone). */
PyAPI_FUNC(int) _PyMonitoring_BaseOpcode(PyCodeObject *code, Py_ssize_t index);
/* Line of the instruction at code unit `index` (-1 for none). */
PyAPI_FUNC(int) _PyMonitoring_LineOf(PyCodeObject *code, int index);

/* Event firing, called from the instrumented instructions and the
   interpreter's error paths.  They return -1 with an exception set when a
   callback failed; the LINE/INSTRUCTION prefix returns the opcode to run. */
PyAPI_FUNC(int) _PyMonitoring_FireResume(PyThreadState *, _PyInterpreterFrame *,
                                         _Py_CODEUNIT *instr, int oparg);
PyAPI_FUNC(int) _PyMonitoring_FireValue(PyThreadState *, _PyInterpreterFrame *,
                                        _Py_CODEUNIT *instr, int event, PyObject *value);
PyAPI_FUNC(int) _PyMonitoring_FireCall(PyThreadState *, _PyInterpreterFrame *,
                                       _Py_CODEUNIT *instr, int event,
                                       PyObject *callable, PyObject *arg0);
PyAPI_FUNC(int) _PyMonitoring_FireJump(PyThreadState *, _PyInterpreterFrame *,
                                       _Py_CODEUNIT *instr, int event, _Py_CODEUNIT *dest);
PyAPI_FUNC(int) _PyMonitoring_BeforeInstruction(PyThreadState *, _PyInterpreterFrame *,
                                                _Py_CODEUNIT *instr, _Py_CODEUNIT *prev);
/* Exception events (RAISE, RERAISE, EXCEPTION_HANDLED, PY_UNWIND,
   PY_THROW, STOP_ITERATION): the exception is the one in flight.  A
   failing callback replaces it. */
PyAPI_FUNC(void) _PyMonitoring_FireException(PyThreadState *, _PyInterpreterFrame *,
                                             _Py_CODEUNIT *instr, int event);

/* The exception table's varints are big-endian groups of 6 bits (bit 6:
   more follows; bit 7 marks an entry's first byte). */
static inline int
_PyMonitoring_ReadExceptionVarint(const uint8_t **p)
{
    const uint8_t *ptr = *p;
    int val = *ptr & 63;
    while (*ptr++ & 64) {
        val = (val << 6) | (*ptr & 63);
    }
    *p = ptr;
    return val;
}

/* Does `code` currently want `event` (by any tool)? */
static inline int
_PyMonitoring_CodeWants(PyCodeObject *code, int event)
{
    _PyCoMonitoringData *data = code->_co_monitoring;
    return data != NULL && data->active_tools[event] != 0;
}

/* For Python/legacy_tracing.c and Modules/_lsprof.c: the C side of
   sys.monitoring.  Tool ids and events as above. */
PyAPI_FUNC(int) _PyMonitoring_UseTool(int tool, PyObject *name);
PyAPI_FUNC(void) _PyMonitoring_FreeTool(int tool);
PyAPI_FUNC(int) _PyMonitoring_SetGlobalEvents(int tool, uint32_t events);
PyAPI_FUNC(uint32_t) _PyMonitoring_GetGlobalEvents(int tool);
PyAPI_FUNC(int) _PyMonitoring_SetLocalEvents(int tool, PyCodeObject *code, uint32_t events);
PyAPI_FUNC(int) _PyMonitoring_RegisterCallback(int tool, int event, PyObject *callback);
PyAPI_FUNC(PyObject *) _PyMonitoring_GetDisable(void);
PyAPI_FUNC(PyObject *) _PyMonitoring_GetMissing(void);
PyAPI_FUNC(PyObject *) _PyMonitoring_MakeModule(void);

/* Python/legacy_tracing.c */
PyAPI_FUNC(int) _PyEval_SetTrace(PyThreadState *tstate, PyObject *func);
PyAPI_FUNC(int) _PyEval_SetProfile(PyThreadState *tstate, PyObject *func);
PyAPI_FUNC(int) _PyEval_SetOpcodeTrace(PyFrameObject *frame, int enable);
PyAPI_FUNC(int) _PyEval_SetTraceAllThreads(PyObject *func);
PyAPI_FUNC(int) _PyEval_SetProfileAllThreads(PyObject *func);
PyAPI_FUNC(void) _PyLegacyTracing_Fini(void);
/* The legacy event (PyTrace_LINE, ...) whose trace function is running for
   `frame` now, or -1. */
PyAPI_FUNC(int) _PyLegacyTracing_CurrentEvent(PyFrameObject *frame);
/* Objects/frame_jump.c: move a traced frame to another line. */
PyAPI_FUNC(int) _PyFrame_JumpToLine(PyFrameObject *frame, int new_lineno);
#define _PY_LEGACY_CALL 0
#define _PY_LEGACY_LINE 2
#define _PY_LEGACY_OPCODE 7
/* At exit: every tool freed, every callback dropped. */
PyAPI_FUNC(void) _PyMonitoring_Fini(void);

#endif /* !Py_INTERNAL_INSTRUMENTS_H */
