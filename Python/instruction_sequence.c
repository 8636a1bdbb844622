/* Instruction sequences: the flat output of the code generator, with jump
   labels that are resolved to instruction indices before the control-flow
   graph is built. */

#include "Python.h"
#include "opcode_ids.h"
#include "pycore_opcode_metadata.h"
#include "pycore_instruction_sequence.h"

#define INITIAL_INSTR_SIZE 64
#define INITIAL_LABELS_SIZE 16

void
_PyInstructionSequence_Init(_PyInstructionSequence *seq)
{
    memset(seq, 0, sizeof(*seq));
}

void
_PyInstructionSequence_Fini(_PyInstructionSequence *seq)
{
    PyMem_Free(seq->s_instrs);
    PyMem_Free(seq->s_labelmap);
    if (seq->s_annotations_code != NULL) {
        _PyInstructionSequence_Fini(seq->s_annotations_code);
        PyMem_Free(seq->s_annotations_code);
    }
    memset(seq, 0, sizeof(*seq));
}

/* Make room for at least `needed` items of `elsize` bytes in *array. */
static int
grow_array(void **array, int *allocated, int needed, size_t elsize, int initial)
{
    if (needed <= *allocated) {
        return 0;
    }
    int newsize = *allocated ? *allocated : initial;
    while (newsize < needed) {
        if (newsize > INT_MAX / 2) {
            PyErr_NoMemory();
            return -1;
        }
        newsize *= 2;
    }
    if ((size_t)newsize > PY_SSIZE_T_MAX / elsize) {
        PyErr_NoMemory();
        return -1;
    }
    void *p = PyMem_Realloc(*array, (size_t)newsize * elsize);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset((char *)p + (size_t)*allocated * elsize, 0,
           (size_t)(newsize - *allocated) * elsize);
    *array = p;
    *allocated = newsize;
    return 0;
}

int
_PyInstructionSequence_NewLabel(_PyInstructionSequence *seq)
{
    return seq->s_next_free_label++;
}

int
_PyInstructionSequence_UseLabel(_PyInstructionSequence *seq, int label)
{
    int old = seq->s_labelmap_size;
    if (grow_array((void **)&seq->s_labelmap, &seq->s_labelmap_size, label + 1,
                   sizeof(int), INITIAL_LABELS_SIZE) < 0) {
        return -1;
    }
    for (int i = old; i < seq->s_labelmap_size; i++) {
        seq->s_labelmap[i] = -1;
    }
    seq->s_labelmap[label] = seq->s_used;
    return 0;
}

int
_PyInstructionSequence_Addop(_PyInstructionSequence *seq, int opcode, int oparg,
                             _Py_SourceLocation loc)
{
    if (grow_array((void **)&seq->s_instrs, &seq->s_allocated, seq->s_used + 1,
                   sizeof(_PyInstruction), INITIAL_INSTR_SIZE) < 0) {
        return -1;
    }
    _PyInstruction *ins = &seq->s_instrs[seq->s_used++];
    memset(ins, 0, sizeof(*ins));
    ins->i_opcode = opcode;
    ins->i_oparg = oparg;
    ins->i_loc = loc;
    ins->i_target = -1;
    ins->i_except_handler_info.h_label = -1;
    return 0;
}

int
_PyInstructionSequence_InsertInstruction(_PyInstructionSequence *seq, int pos,
                                         int opcode, int oparg, _Py_SourceLocation loc)
{
    if (_PyInstructionSequence_Addop(seq, opcode, oparg, loc) < 0) {
        return -1;
    }
    _PyInstruction tmp = seq->s_instrs[seq->s_used - 1];
    memmove(&seq->s_instrs[pos + 1], &seq->s_instrs[pos],
            (size_t)(seq->s_used - 1 - pos) * sizeof(_PyInstruction));
    seq->s_instrs[pos] = tmp;
    /* Labels at or after pos keep pointing at the instruction they named,
       except that a label naming `pos` itself now names the new one. */
    for (int i = 0; i < seq->s_labelmap_size; i++) {
        if (seq->s_labelmap[i] > pos) {
            seq->s_labelmap[i]++;
        }
    }
    return 0;
}

int
_PyInstructionSequence_HasTarget(int opcode)
{
    switch (opcode) {
    case JUMP:
    case JUMP_NO_INTERRUPT:
    case JUMP_IF_FALSE:
    case JUMP_IF_TRUE:
    case SETUP_FINALLY:
    case SETUP_CLEANUP:
    case SETUP_WITH:
    case JUMP_FORWARD:
    case JUMP_BACKWARD:
    case JUMP_BACKWARD_NO_INTERRUPT:
    case POP_JUMP_IF_FALSE:
    case POP_JUMP_IF_TRUE:
    case POP_JUMP_IF_NONE:
    case POP_JUMP_IF_NOT_NONE:
    case FOR_ITER:
    case SEND:
        return 1;
    default:
        return 0;
    }
}

int
_PyInstructionSequence_ApplyLabelMap(_PyInstructionSequence *seq)
{
    for (int i = 0; i < seq->s_used; i++) {
        _PyInstruction *ins = &seq->s_instrs[i];
        if (_PyInstructionSequence_HasTarget(ins->i_opcode)) {
            int lbl = ins->i_oparg;
            if (lbl < 0 || lbl >= seq->s_labelmap_size || seq->s_labelmap[lbl] < 0) {
                PyErr_SetString(PyExc_SystemError, "jump to an unplaced label");
                return -1;
            }
            ins->i_oparg = seq->s_labelmap[lbl];
            ins->i_target = ins->i_oparg;
        }
    }
    PyMem_Free(seq->s_labelmap);
    seq->s_labelmap = NULL;
    seq->s_labelmap_size = 0;
    return 0;
}

int
_PyInstructionSequence_InjectSequence(_PyInstructionSequence *seq, int pos,
                                      _PyInstructionSequence *inj)
{
    int n = inj->s_used;
    if (grow_array((void **)&seq->s_instrs, &seq->s_allocated, seq->s_used + n,
                   sizeof(_PyInstruction), INITIAL_INSTR_SIZE) < 0) {
        return -1;
    }
    memmove(&seq->s_instrs[pos + n], &seq->s_instrs[pos],
            (size_t)(seq->s_used - pos) * sizeof(_PyInstruction));
    for (int i = 0; i < seq->s_labelmap_size; i++) {
        if (seq->s_labelmap[i] >= pos) {
            seq->s_labelmap[i] += n;
        }
    }
    /* The injected code's labels get fresh ids in the outer sequence. */
    int offset = seq->s_next_free_label;
    for (int i = 0; i < n; i++) {
        _PyInstruction ins = inj->s_instrs[i];
        if (_PyInstructionSequence_HasTarget(ins.i_opcode)) {
            ins.i_oparg += offset;
        }
        seq->s_instrs[pos + i] = ins;
    }
    seq->s_used += n;
    for (int lbl = 0; lbl < inj->s_labelmap_size; lbl++) {
        int target = inj->s_labelmap[lbl];
        if (target >= 0) {
            int saved = seq->s_used;
            seq->s_used = pos + target;
            int res = _PyInstructionSequence_UseLabel(seq, lbl + offset);
            seq->s_used = saved;
            if (res < 0) {
                return -1;
            }
        }
    }
    seq->s_next_free_label = offset + inj->s_next_free_label;
    return 0;
}
