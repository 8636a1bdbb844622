/* The tier-2 optimizer: passes over a recorded trace before it becomes an
   executor.  See Doc/tier2.md. */

#include "Python.h"

#ifdef _Py_TIER2

#include "pycore_optimizer.h"
#include "pycore_uop_ids.h"
#include "pycore_uop_metadata.h"

/* A _SET_IP whose instruction pointer nothing reads before the next
   _SET_IP (no uop in between escapes or switches frames) is dead.  Errors
   and exits do not read it: they take the instruction from their uop's
   target. */
static int
reads_instr_ptr(const _PyUOpInstruction *uop)
{
    return (_PyUop_Flags[uop->opcode] & HAS_ESCAPES_FLAG) != 0 ||
           uop->opcode == _PUSH_FRAME_EXACT_ARGS || uop->opcode == _RETURN_VALUE;
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
_PyOptimizer_Optimize(_PyUOpInstruction *trace, int length)
{
    remove_dead_set_ip(trace, length);
    return compact(trace, length);
}

#endif /* _Py_TIER2 */
