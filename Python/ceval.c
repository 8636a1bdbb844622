/* The tier-1 evaluation loop.

   _PyEval_EvalFrameDefault runs interpreter frames.  Instruction bodies are
   generated from Python/bytecodes.c into generated_cases.c.h; this file
   holds the loop around them: entry, dispatch, and the error paths that
   unwind the value stack to an exception handler or out of the frame.

   Python-to-Python calls do not recurse in C: CALL pushes a frame on the
   thread's data stack and jumps to start_frame; RETURN_VALUE pops it and
   continues in the caller.  Each C-level entry pushes an "entry frame"
   whose only instruction is INTERPRETER_EXIT, so returning into it ends
   this C call.  See Doc/frames.md. */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_dict.h"
#include "pycore_floatobject.h"
#include "pycore_frame.h"
#include "pycore_genobject.h"
#include "pycore_instruments.h"
#include "pycore_jit.h"
#include "pycore_long.h"
#include "pycore_object.h"
#include "pycore_opcode_utils.h"
#include "pycore_optimizer.h"
#include "pycore_pystate.h"
#include "pycore_setobject.h"
#include "pycore_template.h"
#include "pycore_traceback.h"
#include "pycore_typeobject.h"

#define NEED_OPCODE_METADATA
#include "pycore_opcode_metadata.h"
#undef NEED_OPCODE_METADATA
#include "opcode_ids.h"
#ifdef _Py_TIER2
#include "pycore_uop_ids.h"
#include "pycore_uop_metadata.h"
#endif

#include "ceval_macros.h"

/* The entry frame's code.  A frame run from C returns to it at
   return_offset 0; a generator's frame yields to it where YIELD_VALUE
   resumes any caller, just past a SEND and its caches. */
static _Py_CODEUNIT interpreter_trampoline[] = {
    [0] = {.op = {INTERPRETER_EXIT, 0}},
    [1 + INLINE_CACHE_ENTRIES_SEND] = {.op = {INTERPRETER_EXIT, 0}},
};
/* FOR_ITER_GEN relies on YIELD_VALUE's landing being right for it too. */
static_assert(INLINE_CACHE_ENTRIES_FOR_ITER == INLINE_CACHE_ENTRIES_SEND,
              "YIELD_VALUE resumes FOR_ITER_GEN and SEND_GEN at the same offset");

/* The exception table (co_exceptiontable) lists, in order of the code they
   cover, entries of four numbers: first covered instruction, how many are
   covered, the handler's instruction, and the handler's stack depth times
   two plus a flag asking for the raising offset to be pushed.  Numbers are
   written in 6-bit groups, most significant first; 0x40 in a byte means
   another group follows (0x80 marks the byte that starts an entry, which
   the reader does not need).  The innermost handler's entries come first
   and do not overlap, so the first entry covering an instruction is its
   handler. */
typedef struct {
    const uint8_t *next;
    const uint8_t *end;
} table_reader;

static int
read_table_number(table_reader *r)
{
    int number = 0;
    for (;;) {
        uint8_t byte = *r->next++;
        number = (number << 6) | (byte & 0x3f);
        if (!(byte & 0x40) || r->next >= r->end) {
            return number;
        }
    }
}

static int
get_exception_handler(PyCodeObject *code, int index, int *level, int *handler, int *lasti)
{
    table_reader r = {
        (const uint8_t *)PyBytes_AS_STRING(code->co_exceptiontable),
        (const uint8_t *)PyBytes_AS_STRING(code->co_exceptiontable) + PyBytes_GET_SIZE(code->co_exceptiontable),
    };
    while (r.next < r.end) {
        int first = read_table_number(&r);
        int covered = read_table_number(&r);
        if (index < first) {
            return 0;  /* past it: entries are in code order */
        }
        int target = read_table_number(&r);
        int depth_and_flag = read_table_number(&r);
        if (index - first < covered) {
            *handler = target;
            *level = depth_and_flag >> 1;
            *lasti = depth_and_flag & 1;
            return 1;
        }
    }
    return 0;
}

int
_Py_CheckRecursiveCall(PyThreadState *tstate, const char *where)
{
    char here;
    if (tstate->recursion_headroom) {
        if (tstate->c_recursion_remaining < -50 || (uintptr_t)&here < tstate->c_stack_hard_limit) {
            Py_FatalError("Cannot recover from stack overflow.");
        }
        return 0;
    }
    if (tstate->c_recursion_remaining <= 0 || _Py_StackIsLow(tstate)) {
        tstate->recursion_headroom++;
        _PyErr_Format(tstate, PyExc_RecursionError, "maximum recursion depth exceeded%s", where);
        tstate->recursion_headroom--;
        ++tstate->c_recursion_remaining;
        return -1;
    }
    return 0;
}

int
_Py_CheckRecursiveCallPy(PyThreadState *tstate)
{
    if (tstate->recursion_headroom) {
        if (tstate->py_recursion_remaining < -50) {
            Py_FatalError("Cannot recover from Python stack overflow.");
        }
        return 0;
    }
    if (tstate->py_recursion_remaining <= 0) {
        tstate->recursion_headroom++;
        _PyErr_SetString(tstate, PyExc_RecursionError, "maximum recursion depth exceeded");
        tstate->recursion_headroom--;
        return -1;
    }
    return 0;
}

int
Py_EnterRecursiveCall(const char *where)
{
    return _Py_EnterRecursiveCallTstate(_PyThreadState_GET(), where);
}

void
Py_LeaveRecursiveCall(void)
{
    _Py_LeaveRecursiveCallTstate(_PyThreadState_GET());
}

int
Py_GetRecursionLimit(void)
{
    return _PyInterpreterState_GET()->recursion_limit;
}

void
Py_SetRecursionLimit(int new_limit)
{
    PyThreadState *tstate = _PyThreadState_GET();
    int depth = tstate->py_recursion_limit - tstate->py_recursion_remaining;
    tstate->interp->recursion_limit = new_limit;
    tstate->py_recursion_limit = new_limit;
    tstate->py_recursion_remaining = new_limit - depth;
}

/* Record the failing instruction of `frame` in the traceback. */
static void
add_traceback_entry(_PyInterpreterFrame *frame)
{
    if (_PyFrame_IsIncomplete(frame)) {
        return;
    }
    PyFrameObject *f = _PyFrame_GetFrameObject(frame);
    if (f != NULL) {
        PyTraceBack_Here(f);
    }
}

PyObject *
_PyEval_EvalFrameDefault(PyThreadState *tstate, _PyInterpreterFrame *frame, int throwflag)
{
#include "opcode_targets.h"
    _Py_CODEUNIT *next_instr;
    _PyStackRef *stack_pointer;
    int opcode;
    int oparg;
    _PyInterpreterFrame entry_frame;
#ifdef _Py_TIER2
    void **dispatch_table = opcode_targets;
    _PyExecutorObject *current_executor = NULL;  /* strong while tier 2 runs */
    const _PyUOpInstruction *next_uop = NULL;
#endif

    if (_Py_EnterRecursiveCallTstate(tstate, "")) {
        _PyEval_FrameClearAndPop(tstate, frame);
        return NULL;
    }
    entry_frame.f_executable = PyStackRef_None;
    entry_frame.f_funcobj = PyStackRef_NULL;
    entry_frame.f_globals = NULL;
    entry_frame.f_builtins = NULL;
    entry_frame.f_locals = NULL;
    entry_frame.frame_obj = NULL;
    entry_frame.instr_ptr = interpreter_trampoline;
    entry_frame.stackpointer = entry_frame.localsplus;
    entry_frame.return_offset = 0;
    entry_frame.owner = FRAME_OWNED_BY_INTERPRETER;
    entry_frame.visited = 0;
    entry_frame.previous = tstate->current_frame;
    frame->previous = &entry_frame;
    tstate->current_frame = frame;

    if (throwflag) {
        if (_Py_EnterRecursivePy(tstate)) {
            goto exit_unwind;
        }
        if (_PyMonitoring_CodeWants(_PyFrame_GetCode(frame), PY_MONITORING_EVENT_PY_THROW)) {
            _PyMonitoring_FireException(tstate, frame, frame->instr_ptr, PY_MONITORING_EVENT_PY_THROW);
        }
        goto throw_into_generator;
    }

start_frame:
    if (_Py_EnterRecursivePy(tstate)) {
        goto exit_unwind;
    }
    next_instr = frame->instr_ptr;
    stack_pointer = _PyFrame_GetStackPointer(frame);
    DISPATCH();

#include "generated_cases.c.h"

_unknown_opcode:
    _PyErr_Format(tstate, PyExc_SystemError, "%U:%d: unknown opcode %d",
                  _PyFrame_GetCode(frame)->co_filename,
                  PyUnstable_InterpreterFrame_GetLine(frame), opcode);
    goto error;

#include "generated_labels.c.h"

#ifdef _Py_TIER2
record_instruction:
    /* The tracing table sends every instruction here first. */
    if (!_PyTrace_RecordInstruction(tstate, frame, next_instr, opcode, oparg)) {
        dispatch_table = opcode_targets;
    }
    goto *opcode_targets[opcode];
#endif

error:
    assert(_PyErr_Occurred(tstate));
#ifdef _Py_TIER2
    if (dispatch_table != opcode_targets) {
        _PyTrace_Abort(tstate, TRACE_ABORT_EXCEPTION);
        dispatch_table = opcode_targets;
    }
#endif
    add_traceback_entry(frame);
    if (_PyMonitoring_CodeWants(_PyFrame_GetCode(frame), PY_MONITORING_EVENT_RAISE)) {
        _PyMonitoring_FireException(tstate, frame, frame->instr_ptr, PY_MONITORING_EVENT_RAISE);
    }

exception_unwind:
    {
        /* Pop the value stack down to the handler's depth and jump to it,
           or leave the frame when no handler covers this instruction. */
        PyCodeObject *code = _PyFrame_GetCode(frame);
        /* Look up the instruction we are leaving (next_instr - 1 is its
           last code unit), not frame->instr_ptr: RERAISE points that back
           at the original raise so the frame reports its line. */
        int offset = (int)(next_instr - 1 - _PyCode_CODE(code));
        int level, handler, lasti;
        _PyStackRef *stackbase = _PyFrame_Stackbase(frame);
        if (!get_exception_handler(code, offset, &level, &handler, &lasti)) {
            if (_PyMonitoring_CodeWants(code, PY_MONITORING_EVENT_PY_UNWIND)) {
                _PyFrame_SetStackPointer(frame, stack_pointer);
                /* RERAISE points instr_ptr at the original raise (for the
                   traceback); the frame is left from the RERAISE itself. */
                _Py_CODEUNIT *left = next_instr[-1].op.code == RERAISE ? next_instr - 1 : frame->instr_ptr;
                _PyMonitoring_FireException(tstate, frame, left, PY_MONITORING_EVENT_PY_UNWIND);
            }
            while (stack_pointer > stackbase) {
                PyStackRef_XCLOSE(*--stack_pointer);
            }
            _PyFrame_SetStackPointer(frame, stack_pointer);
            goto exit_unwind;
        }
        _PyStackRef *new_top = stackbase + level;
        /* Code whose handler depth is above the stack at the raise cannot
           be unwound into (the validator rejects what it can prove); the
           frame is left instead of running the handler on missing values. */
        if (stack_pointer < new_top) {
            while (stack_pointer > stackbase) {
                PyStackRef_XCLOSE(*--stack_pointer);
            }
            _PyFrame_SetStackPointer(frame, stack_pointer);
            _PyErr_SetString(tstate, PyExc_SystemError,
                             "exception handler's stack depth is above the stack");
            goto exit_unwind;
        }
        while (stack_pointer > new_top) {
            PyStackRef_XCLOSE(*--stack_pointer);
        }
        if (lasti) {
            PyObject *lasti_o = PyLong_FromLong(_PyInterpreterFrame_LASTI(frame));
            if (lasti_o == NULL) {
                goto exception_unwind;
            }
            *stack_pointer++ = PyStackRef_FromPyObjectSteal(lasti_o);
        }
        if (_PyMonitoring_CodeWants(code, PY_MONITORING_EVENT_EXCEPTION_HANDLED)) {
            _PyFrame_SetStackPointer(frame, stack_pointer);
            _PyMonitoring_FireException(tstate, frame, _PyCode_CODE(code) + handler,
                                        PY_MONITORING_EVENT_EXCEPTION_HANDLED);
        }
        PyObject *exc = _PyErr_GetRaisedException(tstate);
        *stack_pointer++ = PyStackRef_FromPyObjectSteal(exc);
        next_instr = _PyCode_CODE(code) + handler;
        DISPATCH();
    }

exit_unwind:
    {
        assert(_PyErr_Occurred(tstate));
        _Py_LeaveRecursiveCallPy(tstate);
        _PyInterpreterFrame *dying = frame;
        frame = tstate->current_frame = dying->previous;
        _PyEval_FrameClearAndPop(tstate, dying);
        if (frame->owner == FRAME_OWNED_BY_INTERPRETER) {
            /* Reached this call's entry frame: return the error to C. */
            tstate->current_frame = frame->previous;
            _Py_LeaveRecursiveCallTstate(tstate);
            return NULL;
        }
    }

    /* The caller of a frame that raised: the error is at its call
       instruction (instr_ptr), which exception_unwind finds at
       next_instr - 1. */
    next_instr = frame->instr_ptr + 1;
    stack_pointer = _PyFrame_GetStackPointer(frame);
    goto error;

throw_into_generator:
    /* A generator is thrown into where it suspended: instr_ptr is just
       past its YIELD_VALUE, and the handler looked up must be the one
       covering that YIELD_VALUE (inside `yield from`, CLEANUP_THROW's). */
    next_instr = frame->instr_ptr;
    stack_pointer = _PyFrame_GetStackPointer(frame);
    goto error;

#ifdef _Py_TIER2
    /* ---- Tier 2: the uop interpreter ----

       Runs current_executor's trace in this same C frame, on the same
       frame, stack_pointer and tstate as tier 1, so that leaving is only a
       jump back into the tier-1 dispatch.  Frames pushed by the trace are
       real frames; frame->instr_ptr is made true by _SET_IP where a uop may
       look at it, and exits and errors find their instruction in the uop's
       target. */
#include "ceval_tier2_macros.h"
#define CURRENT_OPARG() (next_uop[-1].oparg)
#define CURRENT_OPERAND0() (next_uop[-1].operand0)
#define CURRENT_OPERAND1() (next_uop[-1].operand1)
#define JUMP_TO_JUMP_TARGET() goto tier2_exit
#define JUMP_TO_ERROR() goto tier2_error
#define JUMP_TO_TRACE_START() (next_uop = current_executor->trace)
#define TIER2_ENTER_FRAME(NEW_FRAME)                      \
    do {                                                  \
        (NEW_FRAME)->previous = frame;                    \
        frame = tstate->current_frame = (NEW_FRAME);      \
        if (_Py_EnterRecursivePy(tstate)) {               \
            goto tier2_exit_unwind;                       \
        }                                                 \
        stack_pointer = _PyFrame_GetStackPointer(frame);  \
        goto tier2_dispatch;                              \
    } while (0)

enter_tier_two:
    _Py_Tier2_Stats.executors_entered++;
#ifdef _Py_JIT
    if (current_executor->jit_code != NULL) {
        /* The machine code runs the trace (and the side traces it jumps
           into, which then become current_executor) and hands back the
           uop it left by; from there on leaving is the uop interpreter's. */
        uintptr_t left = _PyJIT_Run(&current_executor, frame, stack_pointer, tstate);
        frame = tstate->current_frame;
        next_uop = (const _PyUOpInstruction *)(left & ~(uintptr_t)_Py_JIT_LEFT_MASK) + 1;
        switch (left & _Py_JIT_LEFT_MASK) {
            case _Py_JIT_LEFT_BY_EXIT:
                stack_pointer = _PyFrame_GetStackPointer(frame);
                goto tier2_exit;
            case _Py_JIT_LEFT_BY_ERROR:
                stack_pointer = _PyFrame_GetStackPointer(frame);
                goto tier2_error;
            default:
                goto tier2_exit_unwind;
        }
    }
#endif
    next_uop = current_executor->trace;
tier2_dispatch:
    for (;;) {
        uint16_t uopcode = next_uop->opcode;
        next_uop++;
        _Py_Tier2_Stats.uops_executed++;
#ifdef Py_STATS
        _Py_UopStats[uopcode].executed++;
#endif
        switch (uopcode) {
#include "executor_cases.c.h"
            default:
                Py_FatalError("tier 2: unknown uop");
        }
    }

tier2_exit:
    {
        /* A guard failed (or the trace ended): tier 1 goes on at the
           uop's instruction, or the exit's own trace takes over. */
        const _PyUOpInstruction *guard = next_uop - 1;
        _PyExitData *exit = &current_executor->exits[guard->exit_index];
        _Py_Tier2_Stats.side_exits_taken++;
        next_instr = _PyCode_CODE(_PyFrame_GetCode(frame)) + guard->target;
        _PyExecutorObject *side = exit->executor;
        /* Chained traces can loop among themselves: they go through tier 1
           (which polls at the back edge) when the eval breaker is set. */
        if (side != NULL && side->valid && current_executor->valid &&
            _Py_eval_breaker_bits(tstate) == 0) {
            Py_SETREF(current_executor, (_PyExecutorObject *)Py_NewRef(side));
            goto enter_tier_two;
        }
        if (side == NULL && current_executor->valid &&
            ++exit->temperature >= (int32_t)_Py_Tier2_ExitThreshold) {
            exit->temperature = 0;
            if (_PyTrace_StartAtExit(tstate, frame, current_executor, exit)) {
                START_RECORDING();
            }
        }
        Py_CLEAR(current_executor);
        DISPATCH();
    }

tier2_error:
    {
        const _PyUOpInstruction *failing = next_uop - 1;
        frame->instr_ptr = _PyCode_CODE(_PyFrame_GetCode(frame)) + failing->target;
        next_instr = frame->instr_ptr + 1;
        Py_CLEAR(current_executor);
        goto error;
    }

tier2_exit_unwind:
    /* A frame pushed by the trace found the recursion limit. */
    Py_CLEAR(current_executor);
    goto exit_unwind;
#endif
}
