/* Symbol tables: one entry per scope (module, class, function, lambda,
   comprehension, annotation and type-parameter scopes), each mapping the
   names it uses to flags and, after analysis, to a scope kind. */
#ifndef Py_INTERNAL_SYMTABLE_H
#define Py_INTERNAL_SYMTABLE_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_ast.h"

struct _PyFutureFeatures;

typedef enum _block_type {
    FunctionBlock,
    ClassBlock,
    ModuleBlock,
    /* PEP 649 __annotate__ functions */
    AnnotationBlock,
    /* PEP 695 scopes */
    TypeAliasBlock,
    TypeParametersBlock,
    TypeVariableBlock,
} _Py_block_ty;

typedef enum _comprehension_type {
    NoComprehension = 0,
    ListComprehension = 1,
    DictComprehension = 2,
    SetComprehension = 3,
    GeneratorExpression = 4,
} _Py_comprehension_ty;

typedef struct {
    int lineno;
    int col_offset;
    int end_lineno;
    int end_col_offset;
} _Py_STLocation;

typedef struct _symtable_entry {
    PyObject *ste_id;          /* int: the key (address of the AST node) */
    PyObject *ste_symbols;     /* dict: name -> int flags */
    PyObject *ste_name;        /* str */
    PyObject *ste_varnames;    /* list of parameter names, in order */
    PyObject *ste_directives;  /* dict: name -> location tuple of global/nonlocal */
    PyObject *ste_mangled_names; /* set of names to mangle, or NULL (all) */
    struct _symtable_entry **ste_children;
    Py_ssize_t ste_nchildren;
    Py_ssize_t ste_children_cap;
    struct _symtable_entry *ste_parent;
    struct _symtable_entry *ste_annotation_block; /* __annotate__ scope */
    _Py_block_ty ste_type;
    _Py_comprehension_ty ste_comprehension;
    int ste_nested;            /* nested inside a function-like scope */
    unsigned ste_generator : 1;
    unsigned ste_coroutine : 1;
    unsigned ste_varargs : 1;
    unsigned ste_varkeywords : 1;
    unsigned ste_returns_value : 1;
    unsigned ste_needs_class_closure : 1;  /* class needs a __class__ cell */
    unsigned ste_needs_classdict : 1;      /* class needs a __classdict__ cell */
    unsigned ste_has_conditional_annotations : 1;
    unsigned ste_in_conditional_block : 1;
    unsigned ste_in_unevaluated_annotation : 1;
    unsigned ste_comp_inlined : 1;
    unsigned ste_comp_iter_target : 1;
    unsigned ste_can_see_class_scope : 1;  /* annotation/type scope in a class */
    unsigned ste_has_docstring : 1;
    unsigned ste_method : 1;               /* function directly in a class */
    unsigned ste_function_async : 1;       /* async def (or async comprehension) */
    int ste_comp_iter_expr;    /* > 0 while visiting a comprehension iterable */
    _Py_STLocation ste_loc;
    struct symtable *ste_table;
} PySTEntryObject;

struct symtable {
    PyObject *st_filename;
    PySTEntryObject *st_cur;
    PySTEntryObject *st_top;
    PyObject *st_blocks;       /* dict: key int -> index into st_entries */
    PySTEntryObject **st_entries;
    Py_ssize_t st_nentries;
    Py_ssize_t st_entries_cap;
    PyObject *st_global;       /* borrowed: st_top->ste_symbols */
    PyObject *st_private;      /* name of the innermost class, or NULL */
    struct _PyFutureFeatures *st_future;
    int st_cur_depth;          /* recursion guard */
    int st_max_depth;
};

/* Flags of a symbol in ste_symbols */
#define DEF_GLOBAL 1
#define DEF_LOCAL 2
#define DEF_PARAM 4
#define DEF_NONLOCAL 8
#define USE 16
#define DEF_FREE_CLASS 32
#define DEF_IMPORT 64
#define DEF_ANNOT 128
#define DEF_COMP_ITER 256
#define DEF_TYPE_PARAM 512
#define DEF_COMP_CELL 1024
#define DEF_BOUND (DEF_LOCAL | DEF_PARAM | DEF_IMPORT)

/* The scope kind lives in bits SCOPE_OFFSET.. of the flags. */
#define SCOPE_OFFSET 12
#define SCOPE_MASK (7 << SCOPE_OFFSET)
#define SYMBOL_TO_SCOPE(S) (((S) >> SCOPE_OFFSET) & 7)

#define LOCAL 1
#define GLOBAL_EXPLICIT 2
#define GLOBAL_IMPLICIT 3
#define FREE 4
#define CELL 5

/* Limit of nesting of expressions and statements during symbol-table
   construction and code generation. */
#define _Py_COMPILE_MAX_DEPTH 2000

extern struct symtable *_PySymtable_Build(mod_ty mod, PyObject *filename,
                                          struct _PyFutureFeatures *future);
extern void _PySymtable_Free(struct symtable *st);
/* Entry for the scope keyed by an AST node (borrowed), or NULL with
   KeyError/SystemError set. */
extern PySTEntryObject *_PySymtable_Lookup(struct symtable *st, void *key);
extern long _PyST_GetSymbol(PySTEntryObject *ste, PyObject *name);
extern int _PyST_GetScope(PySTEntryObject *ste, PyObject *name);
extern int _PyST_IsFunctionLike(PySTEntryObject *ste);
extern int _PySymtable_FunctionHasAnnotations(arguments_ty args, expr_ty returns);

/* Private-name mangling (`__x` inside class C becomes `_C__x`).  New
   reference. */
extern PyObject *_Py_Mangle(PyObject *privateobj, PyObject *ident);
extern PyObject *_Py_MaybeMangle(PyObject *privateobj, PySTEntryObject *ste, PyObject *name);

#endif /* !Py_INTERNAL_SYMTABLE_H */
