/* Macros the generated interpreter cases (generated_cases.c.h) are written
   in.  Only Python/ceval.c includes this.  The locals they refer to
   (frame, stack_pointer, next_instr, opcode, oparg, tstate) are those of
   _PyEval_EvalFrameDefault. */

/* Computed gotos: each case is a label, dispatch jumps through
   opcode_targets[].  Every instruction dispatches itself, which gives the
   branch predictor one indirect jump per instruction to learn from. */
#define TARGET(op) TARGET_##op:
#ifdef _Py_TIER2
/* Dual dispatch: dispatch_table is opcode_targets, or while a trace is
   being recorded opcode_tracing_targets (Python/trace_recorder.c). */
#define DISPATCH_GOTO() goto *dispatch_table[opcode]
#define START_RECORDING() (dispatch_table = opcode_tracing_targets)
#define GOTO_TIER_TWO(EXECUTOR)                                              \
    do {                                                                     \
        current_executor = (_PyExecutorObject *)Py_NewRef((PyObject *)(EXECUTOR)); \
        goto enter_tier_two;                                                 \
    } while (0)
#else
#define DISPATCH_GOTO() goto *opcode_targets[opcode]
#endif
#define PRE_DISPATCH_GOTO() ((void)0)

#define DISPATCH()                     \
    {                                  \
        opcode = next_instr->op.code;  \
        oparg = next_instr->op.arg;    \
        PRE_DISPATCH_GOTO();           \
        DISPATCH_GOTO();               \
    }

/* Continue in a frame just pushed by a call (no C recursion). */
#define DISPATCH_INLINED(NEW_FRAME)                   \
    do {                                              \
        (NEW_FRAME)->previous = frame;                \
        frame = tstate->current_frame = (NEW_FRAME);  \
        goto start_frame;                             \
    } while (0)

#define LABEL(name) name:
#define INSTRUCTION_STATS(op) ((void)0)
#define UPDATE_MISS_STATS(op) ((void)0)
#define STAT_INC(opname, name) ((void)0)
#define JUMP_TO_PREDICTED(op) goto PREDICTED_##op

#define JUMPBY(x) (next_instr += (x))
#define LOAD_IP(OFFSET) (next_instr = frame->instr_ptr + (OFFSET))
#define LOAD_SP() (stack_pointer = _PyFrame_GetStackPointer(frame))

#define GETLOCAL(i) (frame->localsplus[(i)])
#define GETITEM(v, i) PyTuple_GET_ITEM((v), (i))
#define FRAME_CO_CONSTS (_PyFrame_GetCode(frame)->co_consts)
#define FRAME_CO_NAMES (_PyFrame_GetCode(frame)->co_names)
#define GLOBALS() (frame->f_globals)
#define BUILTINS() (frame->f_builtins)
#define LOCALS() (frame->f_locals)

/* Signals, pending calls, GC and interpreter-lock drop requests set
   tstate->eval_breaker (other threads too, hence the atomic load); polled
   at RESUME and backward jumps. */
#define CHECK_EVAL_BREAKER()                              \
    do {                                                  \
        if (_Py_eval_breaker_bits(tstate) != 0) {         \
            if (_Py_HandlePending(tstate) != 0) {         \
                goto error;                               \
            }                                             \
        }                                                 \
    } while (0)

/* Specialization (Python/specialize.c). */
#define DISPATCH_SAME_OPARG()                        \
    {                                                \
        opcode = next_instr->op.code;                \
        PRE_DISPATCH_GOTO();                         \
        DISPATCH_GOTO();                             \
    }
#define ADVANCE_ADAPTIVE_COUNTER(COUNTER) ((COUNTER) = adaptive_counter_advance(COUNTER))
