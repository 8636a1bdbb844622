/* The control-flow graph used by the compiler between code generation
   and assembly (Python/flowgraph.c). */
#ifndef Py_INTERNAL_FLOWGRAPH_H
#define Py_INTERNAL_FLOWGRAPH_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_instruction_sequence.h"

struct _PyCompile_CodeUnitMetadata;   /* pycore_compile.h */

typedef struct _PyCfgBuilder cfg_builder;
extern cfg_builder *_PyCfg_FromInstructionSequence(_PyInstructionSequence *seq);
extern void _PyCfgBuilder_Free(cfg_builder *g);
extern int _PyCfg_OptimizeCodeUnit(cfg_builder *g, PyObject *consts, PyObject *const_cache,
                                   int nlocals, int nparams, int firstlineno);
extern int _PyCfg_OptimizedCfgToInstructionSequence(cfg_builder *g,
                                                    struct _PyCompile_CodeUnitMetadata *umd,
                                                    int code_flags, int *stackdepth,
                                                    int *nlocalsplus,
                                                    _PyInstructionSequence *seq);

#endif /* !Py_INTERNAL_FLOWGRAPH_H */
