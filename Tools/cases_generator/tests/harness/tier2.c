/* Compile check for the tier-2 output of cases/compile_check.c: a toy
   executor providing what executor_cases.c.h expects.  Built by
   test_generator.py; never run. */
#define Py_BUILD_CORE 1
#include "stubs.h"
#include "opcode_ids.h"
#include "pycore_opcode_metadata.h"
#include "pycore_uop_ids.h"
#include "pycore_uop_metadata.h"

#define CURRENT_OPARG() (next_uop[-1].oparg)
#define CURRENT_OPERAND0() (next_uop[-1].operand0)
#define CURRENT_OPERAND1() (next_uop[-1].operand1)
#define JUMP_TO_JUMP_TARGET() goto jump_to_jump_target
#define JUMP_TO_ERROR() goto jump_to_error_target

int
execute(PyThreadState *tstate, _PyInterpreterFrame *frame,
        _PyExecutorObject *current_executor, _PyUOpInstruction *next_uop)
{
    _PyStackRef *stack_pointer = frame->stackpointer;
    int oparg;
    uint16_t uopcode;
    for (;;) {
        uopcode = next_uop->opcode;
        next_uop++;
        switch (uopcode) {
#include "executor_cases.c.h"
            default:
                return -1;
        }
    }
jump_to_jump_target:
    return 1;
jump_to_error_target:
    return 2;
error:
    return 3;
}
