/* What the tier-2 uop bodies (executor_cases.c.h) mean wherever they run:
   in the uop interpreter (Python/ceval.c) and in the JIT's stencils
   (Tools/jit/template.h).  Included after ceval_macros.h, whose tier-1
   meanings these replace; each includer defines the rest (the operands,
   JUMP_TO_ERROR, JUMP_TO_JUMP_TARGET, frame entry) for itself. */

/* Tier 2 never reads next_instr: exits find their instruction in the uop. */
#undef LOAD_IP
#define LOAD_IP(OFFSET) ((void)0)

#undef CHECK_EVAL_BREAKER
#define CHECK_EVAL_BREAKER()                                                  \
    do {                                                                      \
        if (_Py_eval_breaker_bits(tstate) != 0 && _Py_HandlePending(tstate) != 0) { \
            JUMP_TO_ERROR();                                                  \
        }                                                                     \
    } while (0)

#undef STAT_INC
#define STAT_INC(opname, name) ((void)0)
#ifdef Py_STATS
#define UOP_STAT_INC(uop, name) UOP_STAT_##name(uop)
#define UOP_STAT_miss(uop) (_Py_UopStats[(uop)].exits++)
#else
#define UOP_STAT_INC(uop, name) ((void)0)
#endif
