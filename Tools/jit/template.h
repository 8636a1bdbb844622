/* What every stencil is compiled with.  Tools/jit/build_stencils.py writes
   one C file that includes this and then, for each uop, a function whose
   body is the uop's case from Python/executor_cases.c.h:

       JIT_STENCIL(_LOAD_FAST) {
           switch (_LOAD_FAST) {
           case _LOAD_FAST: { ...the generated body... }
           }
           JIT_CONTINUE();
       }

   `break` in a body leaves the switch and falls into the tail jump to the
   next uop's code.  The macros below give the body's names (frame,
   stack_pointer, tstate, oparg, current_executor, the exits) their JIT
   meaning; the uop interpreter in Python/ceval.c gives them another. */

#include <stdbool.h>

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_dict.h"
#include "pycore_floatobject.h"
#include "pycore_frame.h"
#include "pycore_genobject.h"
#include "pycore_instruments.h"
#include "pycore_long.h"
#include "pycore_object.h"
#include "pycore_opcode_utils.h"
#include "pycore_optimizer.h"
#include "pycore_pystate.h"
#include "pycore_setobject.h"
#include "pycore_template.h"
#include "pycore_traceback.h"
#include "pycore_typeobject.h"
#include "pycore_uop_ids.h"
#include "opcode_ids.h"
#include "pycore_jit.h"

#include "ceval_macros.h"

/* Stencils hand the three registers on in the calling convention that
   saves nothing across the tail jumps (clang 19). */
#define _Py_JIT_CC __attribute__((preserve_none))

/* The holes.  Each is an undefined symbol whose "address" Python/jit.c
   fills in with the value; the empty asm hides from the compiler that an
   address is never 0, so a zero oparg stays a zero. */
extern char _JIT_OPARG[];
extern char _JIT_OPERAND0[];
extern char _JIT_OPERAND1[];
extern char _JIT_UOP[];         /* this uop's _PyUOpInstruction */
extern char _JIT_EXECUTOR[];

static inline __attribute__((always_inline)) uintptr_t
jit_hole(const void *symbol)
{
    uintptr_t value = (uintptr_t)symbol;
    __asm__("" : "+r"(value));
    return value;
}

#define JIT_STENCIL_ARGS _PyInterpreterFrame *frame, _PyStackRef *stack_pointer, PyThreadState *tstate

/* The next uop's code, and the trace's first uop's (for _JUMP_TO_TOP). */
extern uintptr_t _Py_JIT_CC _JIT_CONTINUE(JIT_STENCIL_ARGS);
extern uintptr_t _Py_JIT_CC _JIT_TOP(JIT_STENCIL_ARGS);

typedef uintptr_t (_Py_JIT_CC *jit_code_fn)(JIT_STENCIL_ARGS);

#define JIT_STENCIL(UOP) uintptr_t _Py_JIT_CC jit_stencil##UOP(JIT_STENCIL_ARGS)

#define JIT_CONTINUE() \
    __attribute__((musttail)) return _JIT_CONTINUE(frame, stack_pointer, tstate)

/* Leaving JIT code: the uop that left, tagged with why. */
#define JIT_LEAVE(WHY)                                                    \
    do {                                                                  \
        _PyFrame_SetStackPointer(frame, stack_pointer);                   \
        return jit_hole(_JIT_UOP) | (WHY);                                \
    } while (0)

#include "ceval_tier2_macros.h"

#define CURRENT_OPARG() ((uint16_t)jit_hole(_JIT_OPARG))
#define CURRENT_OPERAND0() ((uint64_t)jit_hole(_JIT_OPERAND0))
#define CURRENT_OPERAND1() ((uint64_t)jit_hole(_JIT_OPERAND1))
#define current_executor ((_PyExecutorObject *)jit_hole(_JIT_EXECUTOR))
/* A guard failed: when the exit has grown a side trace with code, jump
   straight into it (the uop interpreter would only come back to
   enter_tier_two).  The running executor's reference, which the eval
   loop owns through tstate->jit_executor, moves to the side trace; the
   old one must outlive the jump (its code is running), hence the
   refcount test. */
static inline __attribute__((always_inline)) _PyExecutorObject *
jit_side_trace(PyThreadState *tstate, _PyExecutorObject *executor, const _PyUOpInstruction *uop)
{
    _PyExecutorObject *side = executor->exits[uop->exit_index].executor;
    if (side == NULL || side->jit_code == NULL || !side->valid || !executor->valid ||
        _Py_eval_breaker_bits(tstate) != 0 || Py_REFCNT(executor) < 2) {
        return NULL;
    }
    Py_INCREF(side);
    tstate->jit_executor = side;
    _Py_DECREF_NO_DEALLOC((PyObject *)executor);
    return side;
}

#define JUMP_TO_JUMP_TARGET()                                                  \
    do {                                                                       \
        _PyExecutorObject *side_ = jit_side_trace(tstate, current_executor,    \
            (const _PyUOpInstruction *)jit_hole(_JIT_UOP));                    \
        if (side_ != NULL) {                                                   \
            __attribute__((musttail)) return                                   \
                ((jit_code_fn)side_->jit_code)(frame, stack_pointer, tstate);  \
        }                                                                      \
        JIT_LEAVE(_Py_JIT_LEFT_BY_EXIT);                                       \
    } while (0)
#define JUMP_TO_ERROR() JIT_LEAVE(_Py_JIT_LEFT_BY_ERROR)
#define JUMP_TO_TRACE_START() \
    __attribute__((musttail)) return _JIT_TOP(frame, stack_pointer, tstate)

/* The callee's frame is current from here on; its own stack pointer was
   set when it was initialized, so leaving by UNWIND saves nothing. */
#define TIER2_ENTER_FRAME(NEW_FRAME)                      \
    do {                                                  \
        (NEW_FRAME)->previous = frame;                    \
        frame = tstate->current_frame = (NEW_FRAME);      \
        if (_Py_EnterRecursivePy(tstate)) {               \
            return jit_hole(_JIT_UOP) | _Py_JIT_LEFT_BY_UNWIND; \
        }                                                 \
        stack_pointer = _PyFrame_GetStackPointer(frame);  \
        JIT_CONTINUE();                                   \
    } while (0)

/* The shared entry: called by Python/jit.c with the C convention, it
   enters an executor's code (which uses preserve_none) and hands back
   what the code returned. */
uintptr_t
jit_shared_enter(void *code, JIT_STENCIL_ARGS)
{
    return ((jit_code_fn)code)(frame, stack_pointer, tstate);
}
