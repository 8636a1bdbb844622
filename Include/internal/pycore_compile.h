/* The bytecode compiler: AST -> symbol table -> instruction sequence ->
   control-flow graph -> code object.  See Doc/compiler.md. */
#ifndef Py_INTERNAL_COMPILE_H
#define Py_INTERNAL_COMPILE_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_ast.h"

/* Compile a module, expression or interactive statement.  Returns a new
   code object, or NULL with an exception set (SyntaxError for programs
   the compiler rejects).  `optimize` is the -O level (-1: the
   interpreter's setting, treated as 0). */
PyAPI_FUNC(PyCodeObject *) _PyAST_Compile(mod_ty mod, PyObject *filename,
                                          PyCompilerFlags *flags, int optimize,
                                          PyArena *arena);

/* Stack effect of one instruction (real or pseudo); `jump` selects the
   branch effect for jumps (-1: the larger of the two).  Returns
   INT_MAX for an unknown opcode. */
extern int _PyCompile_StackEffect(int opcode, int oparg, int jump);

/* ---- Shared between codegen.c, compile.c, flowgraph.c, assemble.c ----
   Only visible to the compiler's own files, which define
   _PY_COMPILER_INTERNALS first (the symbol-table macros such as LOCAL and
   FREE are too generic to leak into the rest of the interpreter). */
#ifdef _PY_COMPILER_INTERNALS

#include "pycore_instruction_sequence.h"
#include "pycore_symtable.h"
#include "pycore_future.h"

/* What the assembler needs to know about one code unit. */
typedef struct _PyCompile_CodeUnitMetadata {
    PyObject *u_name;
    PyObject *u_qualname;
    PyObject *u_consts;     /* dict: constant key -> index */
    PyObject *u_names;      /* dict: name -> index */
    PyObject *u_varnames;   /* dict: local name -> index */
    PyObject *u_cellvars;   /* dict: cell name -> index */
    PyObject *u_freevars;   /* dict: free name -> index (after cells) */
    PyObject *u_fasthidden; /* dict: name -> True while an inlined
                               comprehension uses it as a fast local */
    Py_ssize_t u_argcount;
    Py_ssize_t u_posonlyargcount;
    Py_ssize_t u_kwonlyargcount;
    int u_firstlineno;
} _PyCompile_CodeUnitMetadata;

enum {
    COMPILE_SCOPE_MODULE,
    COMPILE_SCOPE_CLASS,
    COMPILE_SCOPE_FUNCTION,
    COMPILE_SCOPE_ASYNC_FUNCTION,
    COMPILE_SCOPE_LAMBDA,
    COMPILE_SCOPE_COMPREHENSION,
    COMPILE_SCOPE_ANNOTATIONS,
    COMPILE_SCOPE_TYPEPARAMS,
};

/* Kinds of statically nested blocks, for break/continue/return. */
enum _PyCompile_FBlockType {
    FB_WHILE_LOOP, FB_FOR_LOOP, FB_ASYNC_FOR_LOOP, FB_TRY_EXCEPT, FB_FINALLY_TRY,
    FB_FINALLY_END, FB_WITH, FB_ASYNC_WITH, FB_HANDLER_CLEANUP, FB_POP_VALUE,
    FB_EXCEPTION_HANDLER, FB_EXCEPTION_GROUP_HANDLER, FB_ASYNC_COMPREHENSION_GENERATOR,
    FB_STOP_ITERATION,
};

typedef struct {
    enum _PyCompile_FBlockType fb_type;
    int fb_block;           /* label */
    int fb_exit;            /* label */
    _Py_SourceLocation fb_loc;
    void *fb_datum;         /* finally body, handler name, with stmt... */
} _PyCompile_FBlockInfo;

#define _PY_MAX_FBLOCKS 21   /* CO_MAXBLOCKS */

struct compiler_unit {
    PySTEntryObject *u_ste;
    int u_scope_type;
    PyObject *u_private;          /* class name for mangling, or NULL */
    PyObject *u_static_attributes; /* set, class units only */
    PyObject *u_deferred_annotations; /* list of AnnAssign capsules */
    PyObject *u_conditional_annotation_indices; /* list of ints */
    int u_next_conditional_annotation_index;
    _PyInstructionSequence u_instr_sequence;
    int u_nfblocks;
    int u_in_inlined_comp;
    _PyCompile_FBlockInfo u_fblock[_PY_MAX_FBLOCKS];
    _PyCompile_CodeUnitMetadata u_metadata;
    int u_has_docstring;
    struct compiler_unit *u_parent;
};

typedef struct _PyCompiler {
    PyObject *c_filename;
    struct symtable *c_st;
    PyFutureFeatures c_future;
    PyCompilerFlags c_flags;
    int c_optimize;
    int c_interactive;
    PyObject *c_const_cache;   /* dict: key -> constant, shared by all units */
    struct compiler_unit *u;   /* current unit; parents via u_parent */
    int c_nestlevel;
    int c_depth;               /* recursion guard for codegen */
    PyArena *c_arena;
} compiler;

/* compile.c */
extern int _PyCompile_EnterScope(compiler *c, PyObject *name, int scope_type, void *key,
                                 int lineno, PyObject *private_name,
                                 _PyCompile_CodeUnitMetadata *umd);
extern void _PyCompile_ExitScope(compiler *c);
extern Py_ssize_t _PyCompile_AddConst(compiler *c, PyObject *o);
extern Py_ssize_t _PyCompile_DictAddObj(PyObject *dict, PyObject *o);
extern PyCodeObject *_PyCompile_OptimizeAndAssemble(compiler *c, int add_none);
extern PyObject *_PyCompile_ConstKey(PyObject *o);
extern int _PyCompile_ComputeFlags(compiler *c);
/* codegen.c */
extern int _PyCodegen_Module(compiler *c, mod_ty mod);
extern int _PyCodegen_AddReturnAtEnd(compiler *c, int add_none);

#include "pycore_flowgraph.h"

/* assemble.c */
extern PyCodeObject *_PyAssemble_MakeCodeObject(_PyCompile_CodeUnitMetadata *umd,
                                                PyObject *const_cache, PyObject *consts,
                                                int maxdepth, _PyInstructionSequence *instrs,
                                                int nlocalsplus, int code_flags,
                                                PyObject *filename);

#endif /* _PY_COMPILER_INTERNALS */

#endif /* !Py_INTERNAL_COMPILE_H */
