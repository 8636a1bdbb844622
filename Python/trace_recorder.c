/* The trace recorder: dual dispatch's second half.

   While a trace is recorded, every tier-1 dispatch goes through the label
   record_instruction in Python/ceval.c, which calls
   _PyTrace_RecordInstruction before running the instruction as usual.  An
   instruction is translated to uops one step late, when the recorder sees
   where it went: a branch's direction, whether a loop went round or ended,
   which frame a call entered.  The uops come from the generated macro
   expansions (the same definitions tier 1 runs); control flow is turned
   into guards that leave the trace when it goes another way.

   Recording follows Python calls that push a frame (CALL_PY_EXACT_ARGS and
   friends) and their returns.  It ends when the loop closes, at an
   instruction tier 2 cannot run, or at the length limit; it is abandoned
   when an exception is raised or control leaves the recorded frames. */

#include "Python.h"

#ifdef _Py_TIER2

#include "pycore_code.h"
#include "pycore_frame.h"
#include "pycore_genobject.h"
#include "pycore_instruments.h"
#include "pycore_optimizer.h"
#include "pycore_pystate.h"
#include "pycore_uop_ids.h"
#include "pycore_uop_metadata.h"
#include "pycore_opcode_metadata.h"
#include "opcode_ids.h"

/* Frames pushed by the recorded trace, beyond the one it starts in. */
#define MAX_TRACE_DEPTH 8
/* Room kept free for the widest instruction and the trace's end. */
#define TRACE_SLACK 12
/* A trace shorter than this (in instructions) is not worth an executor. */
#define MIN_TRACE_INSTRUCTIONS 2

typedef struct _PyTraceRecorder {
    int active;
    PyCodeObject *code;                /* strong: where the trace starts */
    _Py_CODEUNIT *start;
    _Py_CODEUNIT *jump;                /* back edge to install at; NULL for a side trace */
    _PyExecutorObject *parent;         /* strong: a side trace's executor */
    _PyExecutorObject *ends_in;        /* strong: the executor the trace leaves to */
    _PyExitData *exit;                 /* ... and its exit */
    uint32_t instrumentation_version;
    /* frames[0] is where the trace starts; frames[depth] is where the
       next instruction must run. */
    _PyInterpreterFrame *frames[MAX_TRACE_DEPTH + 1];
    /* Their code (borrowed: each frame holds it while it lives).  A frame
       just popped may already be gone, its code is still known here. */
    PyCodeObject *codes[MAX_TRACE_DEPTH + 1];
    /* Whether that frame is a generator's, entered by FOR_ITER_GEN: it
       leaves by yielding. */
    uint8_t is_generator[MAX_TRACE_DEPTH + 1];
    int depth;
    /* What the optimizer reads after the frames may be gone (strong):
       the first frame's namespaces, and each function the trace
       entered, which its _PUSH_FRAME_EXACT_ARGS names in operand1. */
    PyObject *globals;
    PyObject *builtins;
    PyObject *entered[TIER2_MAX_TRACE_LENGTH / 8];
    int entered_count;
    /* The instruction seen last, waiting to learn where it went. */
    int has_pending;
    _Py_CODEUNIT *pending;
    int pending_opcode;
    int pending_oparg;
    _Py_CODEUNIT *pending_prefix;      /* its first EXTENDED_ARG, or itself */
    int escaped;                       /* the last instruction could run any code */
    int instructions;
    int length;
    _PyUOpInstruction trace[TIER2_MAX_TRACE_LENGTH];
} _PyTraceRecorder;

/* What translating one instruction concluded. */
enum step { STEP_CONTINUE, STEP_FINISHED, STEP_ABORT };

static _PyTraceRecorder *
get_recorder(PyThreadState *tstate)
{
    if (tstate->trace_recorder == NULL) {
        tstate->trace_recorder = PyMem_RawCalloc(1, sizeof(_PyTraceRecorder));
    }
    return tstate->trace_recorder;
}

static int
can_record(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    if (_Py_monitoring_any_active || _PyFrame_GetCode(frame)->_co_monitoring != NULL ||
        _PyFrame_IsLazy(frame) || frame->owner != FRAME_OWNED_BY_THREAD) {
        return 0;
    }
    _PyTraceRecorder *rec = tstate->trace_recorder;
    return rec == NULL || !rec->active;
}

static void
begin(_PyTraceRecorder *rec, _PyInterpreterFrame *frame, _Py_CODEUNIT *start)
{
    rec->active = 1;
    rec->code = (PyCodeObject *)Py_NewRef(_PyFrame_GetCode(frame));
    rec->start = start;
    rec->instrumentation_version = _Py_instrumentation_version;
    rec->frames[0] = frame;
    rec->codes[0] = _PyFrame_GetCode(frame);
    rec->is_generator[0] = 0;
    rec->depth = 0;
    rec->globals = Py_XNewRef(frame->f_globals);
    rec->builtins = Py_XNewRef(frame->f_builtins);
    rec->entered_count = 0;
    rec->has_pending = 0;
    rec->escaped = 0;
    rec->instructions = 0;
    rec->length = 0;
    _Py_Tier2_Stats.traces_started++;
}

int
_PyTrace_StartAtBackEdge(PyThreadState *tstate, _PyInterpreterFrame *frame,
                         _Py_CODEUNIT *jump, _Py_CODEUNIT *start)
{
    if (!can_record(tstate, frame)) {
        return 0;
    }
    _PyTraceRecorder *rec = get_recorder(tstate);
    if (rec == NULL) {
        return 0;
    }
    begin(rec, frame, start);
    rec->jump = jump;
    rec->parent = NULL;
    rec->ends_in = NULL;
    rec->exit = NULL;
    return 1;
}

int
_PyTrace_StartAtExit(PyThreadState *tstate, _PyInterpreterFrame *frame,
                     _PyExecutorObject *parent, _PyExitData *exit)
{
    if (!can_record(tstate, frame)) {
        return 0;
    }
    /* A side trace that fails at its very first instruction would only
       grow the same trace again (the instruction deopted while it was
       recorded); and chains of side traces stay short. */
    if (parent->side_depth >= TIER2_MAX_SIDE_DEPTH ||
        (parent->side_depth > 0 && exit->target == parent->trace[0].target &&
         _PyFrame_GetCode(frame) == parent->code)) {
        exit->temperature = INT32_MIN / 2;
        return 0;
    }
    _PyTraceRecorder *rec = get_recorder(tstate);
    if (rec == NULL) {
        return 0;
    }
    begin(rec, frame, _PyCode_CODE(_PyFrame_GetCode(frame)) + exit->target);
    if (_Py_Tier2_Debug) {
        fprintf(stderr, "tier 2: side trace from exit %d of %p at offset %u (%s)\n",
                (int)(exit - parent->exits), (void *)parent, exit->target,
                _PyOpcode_OpName[rec->start->op.code]);
    }
    rec->jump = NULL;
    rec->ends_in = NULL;
    rec->parent = (_PyExecutorObject *)Py_NewRef(parent);
    rec->exit = exit;
    return 1;
}

static void
end_recording(_PyTraceRecorder *rec)
{
    rec->active = 0;
    Py_CLEAR(rec->code);
    Py_CLEAR(rec->parent);
    rec->exit = NULL;
    rec->jump = NULL;
    Py_CLEAR(rec->ends_in);
    Py_CLEAR(rec->globals);
    Py_CLEAR(rec->builtins);
    for (int i = 0; i < rec->entered_count; i++) {
        Py_DECREF(rec->entered[i]);
    }
    rec->entered_count = 0;
}

/* A back edge or exit that could not be recorded waits longer before
   trying again. */
static void
back_off(_PyTraceRecorder *rec)
{
    if (rec->jump != NULL && rec->jump->op.code == JUMP_BACKWARD) {
        unsigned int wait = (unsigned int)_Py_Tier2_BackedgeThreshold * 16;
        rec->jump[1].cache = adaptive_counter_bits(wait > 4095 ? 4095 : wait, 0);
    }
    if (rec->exit != NULL && rec->parent != NULL && rec->parent->valid) {
        rec->exit->temperature = -16 * (int32_t)_Py_Tier2_ExitThreshold;
    }
}

void
_PyTrace_Abort(PyThreadState *tstate, enum _PyTraceAbortReason reason)
{
    _PyTraceRecorder *rec = tstate->trace_recorder;
    if (rec == NULL || !rec->active) {
        return;
    }
    _Py_Tier2_Stats.traces_aborted++;
    _Py_Tier2_Stats.aborted_by_reason[reason]++;
    if (_Py_Tier2_Debug) {
        fprintf(stderr, "tier 2: recording in %s abandoned (%s) at %s after %d instructions%s\n",
                PyUnicode_AsUTF8(rec->code->co_qualname), _PyTrace_AbortReasonNames[reason],
                rec->has_pending ? _PyOpcode_OpName[rec->pending_opcode] : "the start",
                rec->instructions, rec->parent ? " (side trace)" : "");
    }
    back_off(rec);
    end_recording(rec);
}

void
_PyTrace_FreeRecorder(PyThreadState *tstate)
{
    _PyTraceRecorder *rec = tstate->trace_recorder;
    if (rec != NULL) {
        end_recording(rec);
        PyMem_RawFree(rec);
        tstate->trace_recorder = NULL;
    }
}

/* ---- emitting uops ---- */

static _PyInterpreterFrame *
current_frame(_PyTraceRecorder *rec)
{
    return rec->frames[rec->depth];
}

static uint32_t
offset_in_code(PyCodeObject *code, _Py_CODEUNIT *instr)
{
    return (uint32_t)(instr - _PyCode_CODE(code));
}

static PyCodeObject *
current_code(_PyTraceRecorder *rec)
{
    return rec->codes[rec->depth];
}

static void
emit(_PyTraceRecorder *rec, int uop, int oparg, uint32_t target, uint64_t operand0)
{
    assert(rec->length < TIER2_MAX_TRACE_LENGTH);
    _PyUOpInstruction *out = &rec->trace[rec->length++];
    out->opcode = (uint16_t)uop;
    out->oparg = (uint16_t)oparg;
    out->target = target;
    out->exit_index = 0;
    out->hints = 0;
    out->operand0 = operand0;
    out->operand1 = 0;
}

/* The trace stops here: back to tier 1 at `instr` (which the trace does
   not run). */
static void
emit_exit_at(_PyTraceRecorder *rec, _Py_CODEUNIT *instr)
{
    emit(rec, _EXIT_TRACE, 0, offset_in_code(current_code(rec), instr), 0);
}

static uint64_t
read_operand(_Py_CODEUNIT *instr, int size, int offset)
{
    uint16_t *cache = &instr[1 + offset].cache;
    switch (size) {
        case OPARG_CACHE_1: return read_u16(cache);
        case OPARG_CACHE_2: return read_u32(cache);
        case OPARG_CACHE_4: return read_u64(cache);
        default: return 0;
    }
}

/* Whether any uop of the expansion may run arbitrary code, which could
   look at the frame's instruction pointer.  (A uop that only raises needs
   no _SET_IP: the error path takes the instruction from its target.) */
static int
needs_frame_state(const struct opcode_macro_expansion *expansion)
{
    for (int i = 0; i < expansion->nuops; i++) {
        if (_PyUop_Flags[expansion->uops[i].uop] & HAS_ESCAPES_FLAG) {
            return 1;
        }
    }
    return 0;
}

/* An ordinary instruction: its uops as the generated expansion lists
   them, with their cache operands.  The uop standing for the instruction
   in a trace may differ (control flow): `replace` maps one uop to another,
   or to -1 for "leave out". */
static void
emit_expansion(_PyTraceRecorder *rec, int opcode, int oparg, uint32_t target,
               int (*replace)(int uop, void *arg), void *arg)
{
    const struct opcode_macro_expansion *expansion = &_PyOpcode_macro_expansion[opcode];
    for (int i = 0; i < expansion->nuops; i++) {
        int uop = expansion->uops[i].uop;
        if (replace != NULL) {
            uop = replace(uop, arg);
            if (uop < 0) {
                continue;
            }
        }
        uint64_t operand = read_operand(rec->pending, expansion->uops[i].size,
                                        expansion->uops[i].offset);
        emit(rec, uop, oparg, target, operand);
        if (_PyUop_Flags[uop] & HAS_ESCAPES_FLAG) {
            rec->escaped = 1;
        }
    }
}

/* The loop went on: an iteration's "jump out when done" becomes a guard. */
static int
loop_goes_on(int uop, void *Py_UNUSED(arg))
{
    switch (uop) {
        case _ITER_JUMP_LIST: return _GUARD_NOT_EXHAUSTED_LIST;
        case _ITER_JUMP_TUPLE: return _GUARD_NOT_EXHAUSTED_TUPLE;
        default: return uop;
    }
}

/* The guard a recorded branch turns into: `taken` says whether the jump
   happened. */
static int
branch_guard(int opcode, int taken)
{
    switch (opcode) {
        case POP_JUMP_IF_FALSE: return taken ? _GUARD_IS_FALSE_POP : _GUARD_IS_TRUE_POP;
        case POP_JUMP_IF_TRUE: return taken ? _GUARD_IS_TRUE_POP : _GUARD_IS_FALSE_POP;
        case POP_JUMP_IF_NONE: return taken ? _GUARD_IS_NONE_POP : _GUARD_IS_NOT_NONE_POP;
        case POP_JUMP_IF_NOT_NONE: return taken ? _GUARD_IS_NOT_NONE_POP : _GUARD_IS_NONE_POP;
        default: return -1;
    }
}

static int
pushes_frame(int opcode)
{
    return opcode == CALL_PY_EXACT_ARGS || opcode == CALL_BOUND_METHOD_EXACT_ARGS;
}

/* Whether the frame a recorded call entered is the function its guards
   name.  A specialised call that deopted while recording ran the generic
   call instead, possibly into another function: following it would put
   that function's uops behind guards for a different one. */
static int
entered_guarded_function(_Py_CODEUNIT *call, int opcode, _PyInterpreterFrame *callee)
{
    const struct opcode_macro_expansion *expansion = &_PyOpcode_macro_expansion[opcode];
    PyObject *func = PyStackRef_AsPyObjectBorrow(callee->f_funcobj);
    if (func == NULL || !PyFunction_Check(func)) {
        return 0;
    }
    for (int i = 0; i < expansion->nuops; i++) {
        if (expansion->uops[i].uop == _CHECK_FUNCTION_VERSION) {
            uint64_t version = read_operand(call, expansion->uops[i].size, expansion->uops[i].offset);
            return ((PyFunctionObject *)func)->func_version == (uint32_t)version;
        }
    }
    return 0;
}

/* The trace goes on in `frame`, pushed by the instruction just recorded. */
static void
enter_recorded_frame(_PyTraceRecorder *rec, _PyInterpreterFrame *frame, int is_generator)
{
    rec->depth++;
    rec->frames[rec->depth] = frame;
    rec->codes[rec->depth] = _PyFrame_GetCode(frame);
    rec->is_generator[rec->depth] = (uint8_t)is_generator;
}

/* FOR_ITER_GEN went into the generator's frame (`frame`): its uops, with
   a guard that the generator resumes where this one did, and the
   recording goes on in that frame. */
static enum step
follow_into_generator(_PyTraceRecorder *rec, _PyInterpreterFrame *frame,
                      _PyInterpreterFrame *here, _Py_CODEUNIT *landed, int oparg, uint32_t target)
{
    if (frame == here) {
        /* It deopted: the generic FOR_ITER ran the generator from C. */
        emit(rec, _EXIT_TRACE, 0, target, 0);
        return STEP_FINISHED;
    }
    PyObject *func = PyStackRef_AsPyObjectBorrow(frame->f_funcobj);
    if (frame->previous != here || frame->owner != FRAME_OWNED_BY_GENERATOR ||
        func == NULL || !PyFunction_Check(func) || ((PyFunctionObject *)func)->func_version == 0 ||
        rec->entered_count == (int)Py_ARRAY_LENGTH(rec->entered)) {
        return STEP_ABORT;
    }
    if (rec->depth == MAX_TRACE_DEPTH) {
        emit(rec, _EXIT_TRACE, 0, target, 0);
        return STEP_FINISHED;
    }
    PyCodeObject *code = _PyFrame_GetCode(frame);
    PyObject *gen = (PyObject *)_PyGen_GetGeneratorFromFrame(frame);
    emit(rec, _CHECK_GEN_NOT_RUNNING, oparg, target, 0);
    emit(rec, _CHECK_GEN_RESUME, oparg, target, ((PyFunctionObject *)func)->func_version);
    rec->trace[rec->length - 1].operand1 = offset_in_code(code, landed);
    emit(rec, _FOR_ITER_GEN_FRAME, oparg, target, 0);
    /* For the optimizer: which generator's frame this is (kept alive
       until the executor is made). */
    rec->trace[rec->length - 1].operand1 = (uint64_t)(uintptr_t)gen;
    rec->entered[rec->entered_count++] = Py_NewRef(gen);
    rec->escaped = 1;
    enter_recorded_frame(rec, frame, 1);
    return STEP_CONTINUE;
}

/* Translate the pending instruction, now that the interpreter is about to
   run `landed` in `frame`. */
static enum step
translate_pending(_PyTraceRecorder *rec, _PyInterpreterFrame *frame, _Py_CODEUNIT *landed)
{
    _Py_CODEUNIT *instr = rec->pending;
    int opcode = rec->pending_opcode;
    int oparg = rec->pending_oparg;
    _PyInterpreterFrame *here = current_frame(rec);  /* may be gone: compare only */
    /* Exits and errors go back to the start of the instruction, prefix
       included. */
    uint32_t target = offset_in_code(current_code(rec), rec->pending_prefix);
    int base = _PyOpcode_Deopt[opcode] ? _PyOpcode_Deopt[opcode] : opcode;
    _Py_CODEUNIT *fallthrough = instr + 1 + _PyOpcode_Caches[base];

    if (opcode == EXTENDED_ARG) {
        return STEP_CONTINUE;  /* part of the next instruction */
    }
    if (rec->length + TRACE_SLACK >= TIER2_MAX_TRACE_LENGTH) {
        if (rec->instructions < MIN_TRACE_INSTRUCTIONS) {
            return STEP_ABORT;
        }
        emit(rec, _EXIT_TRACE, 0, target, 0);
        return STEP_FINISHED;
    }
    /* The frame's state is made true where this instruction may look. */
    if (rec->escaped) {
        emit(rec, _CHECK_VALIDITY, 0, target, 0);
        rec->escaped = 0;
    }
    const struct opcode_macro_expansion *expansion = &_PyOpcode_macro_expansion[opcode];
    if (needs_frame_state(expansion) || pushes_frame(opcode) || opcode == CALL) {
        emit(rec, _SET_IP, 0, target, (uint64_t)(uintptr_t)instr);
    }
    rec->instructions++;

    switch (opcode) {
    case NOP:
    case NOT_TAKEN:
    case JUMP_FORWARD:
    case JUMP_BACKWARD_NO_INTERRUPT:
        return STEP_CONTINUE;

    case JUMP_BACKWARD:
        /* A signal handler run by the poll sees this frame's line. */
        emit(rec, _SET_IP, 0, target, (uint64_t)(uintptr_t)instr);
        emit(rec, _CHECK_PERIODIC, 0, target, 0);
        rec->escaped = 1;
        if (frame == rec->frames[0] && rec->depth == 0 && landed == rec->start) {
            emit(rec, _JUMP_TO_TOP, 0, target, 0);
            return STEP_FINISHED;
        }
        if (rec->is_generator[rec->depth]) {
            /* A generator's own loop, on its way to the next yield. */
            return STEP_CONTINUE;
        }
        /* Another loop: it gets (or has) a trace of its own. */
        rec->length -= 2;
        emit(rec, _EXIT_TRACE, 0, target, 0);
        return STEP_FINISHED;

    case POP_JUMP_IF_FALSE:
    case POP_JUMP_IF_TRUE:
    case POP_JUMP_IF_NONE:
    case POP_JUMP_IF_NOT_NONE: {
        int uop = branch_guard(opcode, landed != fallthrough);
        emit(rec, uop, 0, target, 0);
        if (uop == _GUARD_IS_NOT_NONE_POP) {
            rec->escaped = 1;  /* it drops a reference */
        }
        return STEP_CONTINUE;
    }

    case FOR_ITER_LIST:
    case FOR_ITER_TUPLE:
        if (landed != fallthrough) {
            emit(rec, _EXIT_TRACE, 0, target, 0);  /* the loop ended */
            return STEP_FINISHED;
        }
        emit_expansion(rec, opcode, oparg, target, loop_goes_on, NULL);
        return STEP_CONTINUE;

    case FOR_ITER_VIRTUAL:
    case FOR_ITER:
        if (landed != fallthrough) {
            emit(rec, _EXIT_TRACE, 0, target, 0);
            return STEP_FINISHED;
        }
        emit(rec, opcode == FOR_ITER ? _FOR_ITER_TIER_TWO : _FOR_ITER_VIRTUAL_TIER_TWO,
             oparg, target, 0);
        rec->escaped = 1;
        return STEP_CONTINUE;

    case CALL:
        /* Generic: followed only when it did not enter a Python frame. */
        if (frame != here) {
            emit(rec, _EXIT_TRACE, 0, target, 0);
            return STEP_FINISHED;
        }
        emit(rec, _MAYBE_EXPAND_METHOD, oparg, target, 0);
        emit(rec, _CALL_VECTORCALL, oparg, target, 0);
        rec->escaped = 1;
        return STEP_CONTINUE;

    case FOR_ITER_GEN:
        return follow_into_generator(rec, frame, here, landed, oparg, target);

    case YIELD_VALUE:
        if (!rec->is_generator[rec->depth]) {
            /* A yield from the frame the trace started in (or one it did
               not enter through FOR_ITER_GEN) leaves the trace. */
            emit(rec, _EXIT_TRACE, 0, target, 0);
            return STEP_FINISHED;
        }
        emit_expansion(rec, opcode, oparg, target, NULL, NULL);
        rec->depth--;
        return frame == current_frame(rec) ? STEP_CONTINUE : STEP_ABORT;

    case RETURN_VALUE:
        if (rec->is_generator[rec->depth]) {
            /* The generator is done: the loop ends in tier 1. */
            emit(rec, _EXIT_TRACE, 0, target, 0);
            return STEP_FINISHED;
        }
        if (rec->depth == 0) {
            /* Leaving the frame the trace started in. */
            emit(rec, _EXIT_TRACE, 0, target, 0);
            return STEP_FINISHED;
        }
        emit_expansion(rec, opcode, oparg, target, NULL, NULL);
        rec->depth--;
        if (frame != current_frame(rec)) {
            return STEP_ABORT;
        }
        return STEP_CONTINUE;

    default:
        break;
    }

    if (expansion->nuops == 0) {
        /* Tier 2 cannot run it: the trace ends before it. */
        rec->instructions--;
        if (rec->instructions < MIN_TRACE_INSTRUCTIONS) {
            return STEP_ABORT;
        }
        emit(rec, _EXIT_TRACE, 0, target, 0);
        return STEP_FINISHED;
    }
    if (pushes_frame(opcode)) {
        if (rec->depth == MAX_TRACE_DEPTH) {
            emit(rec, _EXIT_TRACE, 0, target, 0);
            return STEP_FINISHED;
        }
        if (frame->previous != here || !entered_guarded_function(instr, opcode, frame) ||
            rec->entered_count == (int)Py_ARRAY_LENGTH(rec->entered)) {
            return STEP_ABORT;  /* deoptimised into something else */
        }
        emit_expansion(rec, opcode, oparg, target, NULL, NULL);
        PyObject *func = PyStackRef_AsPyObjectBorrow(frame->f_funcobj);
        rec->entered[rec->entered_count++] = Py_NewRef(func);
        assert(rec->trace[rec->length - 1].opcode == _PUSH_FRAME_EXACT_ARGS);
        rec->trace[rec->length - 1].operand1 = (uint64_t)(uintptr_t)func;
        enter_recorded_frame(rec, frame, 0);
        return STEP_CONTINUE;
    }
    emit_expansion(rec, opcode, oparg, target, NULL, NULL);
    return STEP_CONTINUE;
}

/* Recording succeeded: make the executor and put it where it belongs. */
static void
finish(_PyTraceRecorder *rec)
{
    _PyTraceStart start = {rec->code, rec->globals, rec->builtins};
    _PyExecutorDeps deps = {0};
    int length = _PyOptimizer_Optimize(rec->trace, rec->length, &start, &deps);
    _PyExecutorObject *executor = _PyExecutor_FromTrace(rec->code, rec->trace, length, &deps);
    if (executor == NULL) {
        /* Out of memory (tier 1 goes on without it), or too short. */
        enum _PyTraceAbortReason why = PyErr_Occurred() ? TRACE_ABORT_NO_MEMORY : TRACE_ABORT_TOO_SHORT;
        PyErr_Clear();
        _Py_Tier2_Stats.traces_aborted++;
        _Py_Tier2_Stats.aborted_by_reason[why]++;
        back_off(rec);
        end_recording(rec);
        return;
    }
    _Py_Tier2_Stats.traces_recorded++;
    if (rec->ends_in != NULL && executor->exit_count > 0) {
        /* The final _EXIT_TRACE's exit leads into the next executor. */
        executor->exits[executor->exit_count - 1].executor = rec->ends_in;
        rec->ends_in = NULL;
    }
    if (rec->jump != NULL) {
        if (rec->jump->op.code != JUMP_BACKWARD ||
            _PyExecutor_Install(rec->code, rec->jump, executor) < 0) {
            back_off(rec);
        }
    }
    else if (rec->parent != NULL && rec->parent->valid && rec->exit->executor == NULL) {
        executor->side_depth = (uint8_t)(rec->parent->side_depth + 1);
        rec->exit->executor = (_PyExecutorObject *)Py_NewRef(executor);
        rec->exit->temperature = 0;
    }
    Py_DECREF(executor);
    end_recording(rec);
}

static int
same_frames_still(_PyTraceRecorder *rec, _PyInterpreterFrame *frame)
{
    return frame == current_frame(rec);
}

int
_PyTrace_RecordInstruction(PyThreadState *tstate, _PyInterpreterFrame *frame,
                           _Py_CODEUNIT *next_instr, int opcode, int oparg)
{
    _PyTraceRecorder *rec = tstate->trace_recorder;
    if (rec == NULL || !rec->active) {
        return 0;
    }
    if (_Py_instrumentation_version != rec->instrumentation_version) {
        _PyTrace_Abort(tstate, TRACE_ABORT_INSTRUMENTED);
        return 0;
    }
    if (rec->has_pending) {
        if (frame == current_frame(rec) && next_instr == rec->pending) {
            /* The same instruction again, in its specialised form. */
            rec->pending_opcode = opcode;
            rec->pending_oparg = oparg;
            return 1;
        }
        int was_prefix = rec->pending_opcode == EXTENDED_ARG;
        _Py_CODEUNIT *prefix = rec->pending_prefix;
        enum step step = translate_pending(rec, frame, next_instr);
        if (step == STEP_ABORT) {
            _PyTrace_Abort(tstate, TRACE_ABORT_UNSUPPORTED);
            return 0;
        }
        if (step == STEP_FINISHED) {
            finish(rec);
            return 0;
        }
        if (!same_frames_still(rec, frame)) {
            _PyTrace_Abort(tstate, TRACE_ABORT_FRAME);
            return 0;
        }
        if (frame == rec->frames[0] && rec->depth == 0 && next_instr == rec->start) {
            /* Back at the start by a way other than a back edge. */
            emit(rec, _JUMP_TO_TOP, 0, offset_in_code(current_code(rec), next_instr), 0);
            finish(rec);
            return 0;
        }
        rec->pending_prefix = was_prefix ? prefix : next_instr;
    }
    else {
        if (frame != rec->frames[0] || next_instr != rec->start) {
            _PyTrace_Abort(tstate, TRACE_ABORT_FRAME);
            return 0;
        }
        rec->pending_prefix = next_instr;
    }
    if (opcode == ENTER_EXECUTOR) {
        /* Another trace starts here: this one ends and goes straight on
           into it. */
        _PyExecutorObject *next = _PyCode_GetExecutor(current_code(rec),
                                                      (int)offset_in_code(current_code(rec), next_instr));
        if (rec->instructions < MIN_TRACE_INSTRUCTIONS || next == NULL) {
            _PyTrace_Abort(tstate, TRACE_ABORT_UNSUPPORTED);
            return 0;
        }
        rec->ends_in = (_PyExecutorObject *)Py_NewRef(next);
        emit_exit_at(rec, rec->pending_prefix);
        finish(rec);
        return 0;
    }
    rec->has_pending = 1;
    rec->pending = next_instr;
    rec->pending_opcode = opcode;
    rec->pending_oparg = oparg;
    return 1;
}

#endif /* _Py_TIER2 */
