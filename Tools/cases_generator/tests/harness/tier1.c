/* Compile check for the tier-1 output of cases/compile_check.c: a toy
   interpreter loop providing what generated_cases.c.h, opcode_targets.h
   and generated_labels.c.h expect.  Built by test_generator.py with the
   generated files on the include path; never run. */
#define Py_BUILD_CORE 1
#define NEED_OPCODE_METADATA
#include "stubs.h"
#include "opcode_ids.h"
#include "pycore_opcode_metadata.h"
#include "pycore_uop_ids.h"
#include "pycore_uop_metadata.h"

#define TARGET(op) TARGET_##op:
#define DISPATCH() { opcode = next_instr->op.code; oparg = next_instr->op.arg; goto *opcode_targets[opcode]; }
#define DISPATCH_SAME_OPARG() { opcode = next_instr->op.code; goto *opcode_targets[opcode]; }
#define JUMP_TO_PREDICTED(name) goto PREDICTED_##name
#define JUMPBY(x) (next_instr += (x))
#define LABEL(name) name:

int
interpret(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    _PyStackRef *stack_pointer = frame->stackpointer;
    _Py_CODEUNIT *next_instr = frame->instr_ptr;
    int opcode;
    int oparg;
#include "opcode_targets.h"
    DISPATCH();
    {
#include "generated_cases.c.h"
    }
_unknown_opcode:
    return -1;
#include "generated_labels.c.h"
exception_unwind:
    return -2;
exit_unwind:
    return -3;
}
