/* A flat, growable sequence of instructions with symbolic jump labels.

   The code generator appends instructions (real and pseudo) here; jump
   instructions carry a label id in their oparg until the labels are
   resolved.  The control-flow graph is built from this sequence and, after
   optimisation, flattened back into one for the assembler. */
#ifndef Py_INTERNAL_INSTRUCTION_SEQUENCE_H
#define Py_INTERNAL_INSTRUCTION_SEQUENCE_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

typedef struct {
    int lineno;
    int end_lineno;
    int col_offset;
    int end_col_offset;
} _Py_SourceLocation;

#define _Py_NO_LOCATION ((_Py_SourceLocation){-1, -1, -1, -1})
#define _Py_LOCATION_IS_NONE(L) ((L).lineno < 0)

/* Exception handler that covers one instruction (filled in by the CFG
   pass that resolves SETUP_xxx/POP_BLOCK). */
typedef struct {
    int h_label;          /* target instruction index, or -1 */
    int h_startdepth;     /* stack depth to unwind to */
    int h_preserve_lasti; /* push the faulting offset below the exception */
} _PyExceptHandlerInfo;

typedef struct {
    int i_opcode;
    int i_oparg;
    _Py_SourceLocation i_loc;
    _PyExceptHandlerInfo i_except_handler_info;
    int i_target;   /* index of the jump target (after label resolution) */
    int i_offset;   /* offset in code units (assembler) */
} _PyInstruction;

typedef struct _PyInstructionSequence {
    _PyInstruction *s_instrs;
    int s_allocated;
    int s_used;
    int s_next_free_label;
    int *s_labelmap;        /* label id -> instruction index (-1: unused) */
    int s_labelmap_size;
    /* Code for the deferred annotations of a module or class body, built
       after the body and spliced in at ANNOTATIONS_PLACEHOLDER. */
    struct _PyInstructionSequence *s_annotations_code;
} _PyInstructionSequence;

#define _PY_NO_LABEL (-1)

extern void _PyInstructionSequence_Init(_PyInstructionSequence *seq);
extern void _PyInstructionSequence_Fini(_PyInstructionSequence *seq);
extern int _PyInstructionSequence_NewLabel(_PyInstructionSequence *seq);
extern int _PyInstructionSequence_UseLabel(_PyInstructionSequence *seq, int label);
extern int _PyInstructionSequence_Addop(_PyInstructionSequence *seq, int opcode,
                                        int oparg, _Py_SourceLocation loc);
extern int _PyInstructionSequence_InsertInstruction(_PyInstructionSequence *seq, int pos,
                                                    int opcode, int oparg,
                                                    _Py_SourceLocation loc);
/* Replace label ids in jump opargs by instruction indices. */
extern int _PyInstructionSequence_ApplyLabelMap(_PyInstructionSequence *seq);
/* Insert all of `inj` (labels included) before position `pos`. */
extern int _PyInstructionSequence_InjectSequence(_PyInstructionSequence *seq, int pos,
                                                 _PyInstructionSequence *inj);
/* Whether an opcode takes a jump target (real or pseudo). */
extern int _PyInstructionSequence_HasTarget(int opcode);

#endif /* !Py_INTERNAL_INSTRUCTION_SEQUENCE_H */
