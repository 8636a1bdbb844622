/* The tier-2 optimizer: passes over a recorded trace before it becomes an
   executor.  See Doc/tier2.md.

   The main pass is an abstract interpretation: the trace is run once on
   abstract values (Python/optimizer_symbols.c) in place of objects, with
   a stack and locals per frame, entering and leaving the frames the trace
   pushes and pops.  Each uop's case is generated from its definition
   (Python/optimizer_cases.c.h, from Python/optimizer_bytecodes.c and
   Python/bytecodes.c); what a guard proved lets later guards go, and
   globals read from dicts tier 2 watches become constants. */

#include "Python.h"

#ifdef _Py_TIER2

#include "pycore_code.h"
#include "pycore_dict.h"
#include "pycore_genobject.h"
#include "pycore_optimizer.h"
#include "pycore_uop_ids.h"
#include "pycore_uop_metadata.h"

/* ---- rewriting uops ---- */

static void
eliminate(_PyUOpInstruction *uop)
{
    uop->opcode = _NOP;
}

static void
rewrite(_PyUOpInstruction *uop, int opcode, uint64_t operand0)
{
    uop->opcode = (uint16_t)opcode;
    uop->operand0 = operand0;
}

/* ---- frames ---- */

#define FRAME (&ctx->frames[ctx->depth])
#define LOCAL(i) (FRAME->locals[(i)])

static _PyAbstractValue **
take_slots(_PyAbstractContext *ctx, int count)
{
    if (ctx->slot_count + count > AV_MAX_SLOTS) {
        ctx->lost = 1;
        return NULL;
    }
    _PyAbstractValue **slots = &ctx->slots[ctx->slot_count];
    ctx->slot_count += count;
    return slots;
}

/* Locals (all unknown) and room for the frame's stack; the stack
   pointer to start with is returned. */
static _PyAbstractValue **
lay_out_frame(_PyAbstractContext *ctx, _PyAbstractFrame *frame, PyCodeObject *code,
              int stack_below)
{
    int stack = code->co_stacksize + 1;
    _PyAbstractValue **slots = take_slots(ctx, code->co_nlocalsplus + stack_below + stack);
    if (slots == NULL) {
        return NULL;
    }
    frame->code = code;
    frame->globals_watched = frame->builtins_watched = 0;
    frame->globals_checked = frame->builtins_checked = 0;
    frame->locals = slots;
    frame->stack_base = slots + code->co_nlocalsplus;
    frame->stack_limit = frame->stack_base + stack_below + stack;
    frame->caller_sp = NULL;
    for (_PyAbstractValue **p = slots; p < frame->stack_limit; p++) {
        *p = av_unknown(ctx);
    }
    return frame->stack_base + stack_below;
}

/* A trace can start with values on the stack (a loop's iterator): the
   first frame's stack pointer starts high enough for any uop to find
   the items it pops. */
static _PyAbstractValue **
start_first_frame(_PyAbstractContext *ctx, const _PyTraceStart *start)
{
    _PyAbstractFrame *frame = &ctx->frames[0];
    _PyAbstractValue **sp = lay_out_frame(ctx, frame, start->code, start->code->co_stacksize);
    frame->globals = start->globals;
    frame->builtins = start->builtins;
    return sp;
}

/* The frame just laid out above the current one becomes current; the
   stack pointer goes on from `sp`. */
static void
enter_frame(_PyAbstractContext *ctx, PyObject *globals, PyObject *builtins,
            _PyAbstractValue **sp, _PyAbstractValue **caller_sp)
{
    _PyAbstractFrame *frame = &ctx->frames[ctx->depth + 1];
    frame->globals = globals;
    frame->builtins = builtins;
    frame->caller_sp = caller_sp;
    ctx->depth++;
    ctx->frame_changed = 1;
    ctx->new_sp = sp;
}

/* The recorder left the function entered in the uop's operand1 (alive
   until the trace is made into an executor). */
static void
enter_callee(_PyAbstractContext *ctx, _PyUOpInstruction *uop, _PyAbstractValue *self_or_null,
             _PyAbstractValue **args, int oparg, _PyAbstractValue **caller_sp)
{
    PyObject *func = (PyObject *)(uintptr_t)uop->operand1;
    if (func == NULL || !PyFunction_Check(func) || ctx->depth + 1 == AV_MAX_FRAMES) {
        ctx->lost = 1;
        return;
    }
    PyCodeObject *code = (PyCodeObject *)((PyFunctionObject *)func)->func_code;
    int has_self = code->co_argcount - oparg;
    if ((has_self != 0 && has_self != 1) || code->co_nlocalsplus < oparg + has_self) {
        ctx->lost = 1;
        return;
    }
    _PyAbstractFrame *callee = &ctx->frames[ctx->depth + 1];
    _PyAbstractValue **sp = lay_out_frame(ctx, callee, code, 0);
    if (sp == NULL) {
        return;
    }
    if (has_self) {
        callee->locals[0] = self_or_null;
    }
    for (int i = 0; i < oparg; i++) {
        callee->locals[has_self + i] = args[i];
    }
    enter_frame(ctx, ((PyFunctionObject *)func)->func_globals,
                ((PyFunctionObject *)func)->func_builtins, sp, caller_sp);
}

/* A generator's frame, entered by FOR_ITER_GEN: it resumes with values
   of its own on its stack, so its stack starts high as the first frame's
   does.  operand1 is the generator (alive until the executor is made). */
static void
enter_generator(_PyAbstractContext *ctx, _PyUOpInstruction *uop, _PyAbstractValue **caller_sp)
{
    PyGenObject *gen = (PyGenObject *)(uintptr_t)uop->operand1;
    PyCodeObject *code = gen == NULL ? NULL : _PyGen_GetCode(gen);
    if (code == NULL || ctx->depth + 1 == AV_MAX_FRAMES) {
        ctx->lost = 1;
        return;
    }
    _PyAbstractFrame *frame = &ctx->frames[ctx->depth + 1];
    _PyAbstractValue **sp = lay_out_frame(ctx, frame, code, code->co_stacksize);
    if (sp == NULL) {
        return;
    }
    enter_frame(ctx, gen->gi_iframe.f_globals, gen->gi_iframe.f_builtins, sp, caller_sp);
}

static void
return_to_caller(_PyAbstractContext *ctx, _PyAbstractValue *retval)
{
    if (ctx->depth == 0) {
        ctx->lost = 1;  /* the recorder ends traces before this */
        return;
    }
    _PyAbstractValue **sp = FRAME->caller_sp;
    ctx->depth--;
    *sp++ = retval;
    ctx->frame_changed = 1;
    ctx->new_sp = sp;
}

/* ---- guards ---- */

static void
guard_both_of_type(_PyAbstractContext *ctx, _PyUOpInstruction *uop,
                   _PyAbstractValue *left, _PyAbstractValue *right, PyTypeObject *type)
{
    if (av_type(left) == type && av_type(right) == type) {
        eliminate(uop);
    }
    av_learn_type(ctx, left, type);
    av_learn_type(ctx, right, type);
}

static void
guard_type_version(_PyAbstractContext *ctx, _PyUOpInstruction *uop,
                   _PyAbstractValue *owner, uint32_t version)
{
    if (av_has_type_version(ctx, owner, version)) {
        eliminate(uop);
    }
    av_learn_type_version(ctx, owner, version);
}

/* ---- quiet drops ---- */

/* UNPACK_SEQUENCE's specialised forms: the items are objects, and the
   sequence dropped may run no code. */
static void
unpack_items(_PyAbstractContext *ctx, _PyAbstractValue *seq, _PyAbstractValue **values, int count)
{
    ctx->quiet = av_drop_is_quiet(ctx, seq);
    for (int i = 0; i < count; i++) {
        values[i] = av_object(ctx);
    }
}

/* ---- globals ---- */

/* A dict changed this often while watched is left alone. */
#define MAX_CHANGES_TO_PROMOTE 4

static int
depend_on(_PyAbstractContext *ctx, PyObject *dict)
{
    _PyExecutorDeps *deps = ctx->deps;
    for (int i = 0; i < deps->count; i++) {
        if (deps->dicts[i] == dict) {
            return 1;
        }
    }
    if (deps->count == TIER2_MAX_WATCHED_DICTS ||
        _PyDict_Tier2Changes((PyDictObject *)dict) >= MAX_CHANGES_TO_PROMOTE ||
        PyDict_Watch(DICT_TIER2_WATCHER, dict) < 0) {
        PyErr_Clear();
        return 0;
    }
    deps->dicts[deps->count++] = dict;
    return 1;
}

/* A keys-version guard on a frame's globals or builtins.  Once the dict
   is watched, its keys cannot change without invalidating the executor:
   the guard goes, except that the first frame (whose code may run with
   other globals) checks once which dict it has. */
static void
watch_namespace(_PyAbstractContext *ctx, _PyUOpInstruction *uop, PyObject *dict,
                uint32_t version, int first_frame, int identity_check,
                uint8_t *watched, uint8_t *checked)
{
    if (dict == NULL || !PyDict_CheckExact(dict) ||
        ((PyDictObject *)dict)->ma_keys->dk_version != version) {
        return;  /* it would fail today: keep it */
    }
    if (!*watched) {
        if (!depend_on(ctx, dict)) {
            return;
        }
        *watched = 1;
    }
    if (first_frame && !*checked) {
        rewrite(uop, identity_check, (uint64_t)(uintptr_t)dict);
        *checked = 1;
    }
    else {
        eliminate(uop);
    }
}

static _PyAbstractValue *
load_watched_global(_PyAbstractContext *ctx, _PyUOpInstruction *uop, PyObject *dict,
                    uint16_t index)
{
    if (dict == NULL) {
        return av_object(ctx);
    }
    PyDictKeysObject *keys = ((PyDictObject *)dict)->ma_keys;
    PyObject *value = index < keys->dk_nentries ? DK_ENTRIES(keys)[index].me_value : NULL;
    if (value == NULL) {
        return av_object(ctx);
    }
    rewrite(uop, _LOAD_CONST_INLINE, (uint64_t)(uintptr_t)value);
    return av_constant(ctx, value);
}

/* ---- the abstract interpreter ---- */

static void
run_abstract(_PyAbstractContext *ctx, _PyUOpInstruction *trace, int length,
             const _PyTraceStart *start)
{
    _PyAbstractValue **stack_pointer = start_first_frame(ctx, start);
    if (stack_pointer == NULL) {
        return;
    }
    /* Entering the trace may follow code that ran anything. */
    ctx->escaped = 1;
    for (int pc = 0; pc < length && !ctx->lost; pc++) {
        _PyUOpInstruction *this_instr = &trace[pc];
        int oparg = this_instr->oparg;
        (void)oparg;
        switch (this_instr->opcode) {
#include "optimizer_cases.c.h"
        default:
            ctx->lost = 1;  /* a uop without a case: nothing after it is known */
            break;
        }
        if (ctx->quiet) {
            this_instr->hints |= UOP_HINT_QUIET;
            ctx->quiet = 0;
        }
        else if (_PyUop_Flags[this_instr->opcode] & HAS_ESCAPES_FLAG) {
            ctx->epoch++;
            ctx->escaped = 1;
        }
        if (ctx->frame_changed) {
            stack_pointer = ctx->new_sp;
            ctx->frame_changed = 0;
        }
        if (stack_pointer < FRAME->stack_base || stack_pointer > FRAME->stack_limit) {
            ctx->lost = 1;
        }
    }
}

/* ---- clean-up passes ---- */

/* A _SET_IP whose instruction pointer nothing reads before the next
   _SET_IP (no uop in between escapes or switches frames) is dead.  Errors
   and exits do not read it: they take the instruction from their uop's
   target. */
static int
reads_instr_ptr(const _PyUOpInstruction *uop)
{
    return ((_PyUop_Flags[uop->opcode] & HAS_ESCAPES_FLAG) != 0 &&
            (uop->hints & UOP_HINT_QUIET) == 0) ||
           uop->opcode == _PUSH_FRAME_EXACT_ARGS || uop->opcode == _RETURN_VALUE ||
           uop->opcode == _FOR_ITER_GEN_FRAME || uop->opcode == _YIELD_VALUE;
}

static void
remove_dead_set_ip(_PyUOpInstruction *trace, int length)
{
    int last_set_ip = -1;
    for (int i = 0; i < length; i++) {
        if (trace[i].opcode == _SET_IP) {
            if (last_set_ip >= 0) {
                trace[last_set_ip].opcode = _NOP;
            }
            last_set_ip = i;
        }
        else if (reads_instr_ptr(&trace[i])) {
            last_set_ip = -1;
        }
    }
}

/* Drop the _NOPs left by the passes. */
static int
compact(_PyUOpInstruction *trace, int length)
{
    int out = 0;
    for (int i = 0; i < length; i++) {
        if (trace[i].opcode != _NOP) {
            trace[out++] = trace[i];
        }
    }
    return out;
}

int
_PyOptimizer_Optimize(_PyUOpInstruction *trace, int length, const _PyTraceStart *start,
                      _PyExecutorDeps *deps)
{
    _PyAbstractContext *ctx = PyMem_RawCalloc(1, sizeof(_PyAbstractContext));
    if (ctx != NULL) {
        ctx->deps = deps;
        run_abstract(ctx, trace, length, start);
        PyMem_RawFree(ctx);
    }
    remove_dead_set_ip(trace, length);
    return compact(trace, length);
}

#endif /* _Py_TIER2 */
