/* Code generation: walks the AST of one scope at a time and appends
   instructions (real and pseudo) with source locations and symbolic jump
   labels to the current unit's instruction sequence.  Nested scopes
   (functions, classes, lambdas, generator expressions, annotation and
   type-parameter scopes) are compiled to code objects first and loaded as
   constants.

   Conventions: every helper returns 0 on success and -1 with an exception
   set on failure; the RETURN_IF_ERROR-style macros below propagate. */

#define _PY_COMPILER_INTERNALS
#include "Python.h"
#include "pycore_ast.h"
#include "pycore_code.h"
#include "pycore_compile.h"
#include "pycore_opcode_utils.h"
#include "pycore_pyerrors.h"
#include "opcode_ids.h"
#include "pycore_opcode_metadata.h"

#include <math.h>

#define STACK_USE_GUIDELINE 30
/* LOAD_ATTR in its method form, only inside addop_name */
#define LOAD_METHOD_PSEUDO 1000
/* __annotate__ raises NotImplementedError above this format */
#define ANNOTATE_FORMAT_VALUE_WITH_FAKE_GLOBALS 2

typedef _Py_SourceLocation location;
#define NO_LOCATION _Py_NO_LOCATION
#define LOC(x) ((location){(x)->lineno, (x)->end_lineno, (x)->col_offset, (x)->end_col_offset})
#define LOCATION(l, el, c, ec) ((location){(l), (el), (c), (ec)})

#define SEQ(c) (&(c)->u->u_instr_sequence)
#define STE(c) ((c)->u->u_ste)
#define METADATA(c) (&(c)->u->u_metadata)

#define RETURN_IF_ERROR(X) do { if ((X) < 0) { return -1; } } while (0)
#define RETURN_IF_ERROR_IN_SCOPE(c, X) do { \
        if ((X) < 0) { _PyCompile_ExitScope(c); return -1; } \
    } while (0)

#define NEW_LABEL(c, name) int name = _PyInstructionSequence_NewLabel(SEQ(c))
#define USE_LABEL(c, lbl) RETURN_IF_ERROR(_PyInstructionSequence_UseLabel(SEQ(c), (lbl)))

#define ADDOP(c, loc, op) RETURN_IF_ERROR(addop_noarg((c), (loc), (op)))
#define ADDOP_I(c, loc, op, arg) RETURN_IF_ERROR(addop_i((c), (loc), (op), (arg)))
#define ADDOP_JUMP(c, loc, op, lbl) RETURN_IF_ERROR(addop_j((c), (loc), (op), (lbl)))
#define ADDOP_LOAD_CONST(c, loc, o) RETURN_IF_ERROR(addop_load_const((c), (loc), (o)))
#define ADDOP_LOAD_CONST_NEW(c, loc, o) RETURN_IF_ERROR(addop_load_const_new((c), (loc), (o)))
#define ADDOP_NAME(c, loc, op, o, type) \
    RETURN_IF_ERROR(addop_name((c), (loc), (op), (o), METADATA(c)->u_##type, 0))
#define ADDOP_N(c, loc, op, o, type) \
    RETURN_IF_ERROR(addop_name_steal((c), (loc), (op), (o), METADATA(c)->u_##type))
#define ADDOP_INPLACE(c, loc, binop) ADDOP_I(c, loc, BINARY_OP, inplace_binop(binop))
#define ADDOP_BINARY(c, loc, binop) ADDOP_I(c, loc, BINARY_OP, binop_oparg(binop))
#define ADDOP_COMPARE(c, loc, cmp) RETURN_IF_ERROR(addop_compare((c), (loc), (cmp)))

#define VISIT(c, kind, v) RETURN_IF_ERROR(codegen_visit_##kind((c), (v)))
#define VISIT_IN_SCOPE(c, kind, v) RETURN_IF_ERROR_IN_SCOPE(c, codegen_visit_##kind((c), (v)))
#define VISIT_SEQ(c, kind, seq) do { \
        Py_ssize_t n_ = asdl_seq_LEN(seq); \
        for (Py_ssize_t i_ = 0; i_ < n_; i_++) { \
            RETURN_IF_ERROR(codegen_visit_##kind((c), asdl_seq_GET((seq), i_))); \
        } \
    } while (0)

static int codegen_visit_stmt(compiler *c, stmt_ty s);
static int codegen_visit_expr(compiler *c, expr_ty e);
static int codegen_visit_keyword(compiler *c, keyword_ty k);
static int codegen_jump_if(compiler *c, location loc, expr_ty e, int next, int cond);
static int codegen_call_helper(compiler *c, location loc, int n, asdl_expr_seq *args,
                               asdl_keyword_seq *keywords);
static int codegen_nameop(compiler *c, location loc, PyObject *name, expr_context_ty ctx);
static int codegen_body(compiler *c, location loc, asdl_stmt_seq *stmts, int is_module);
static int codegen_comprehension(compiler *c, expr_ty e, int type, PyObject *name,
                                 asdl_comprehension_seq *generators, expr_ty elt,
                                 expr_ty val);
static int codegen_add_yield_from(compiler *c, location loc, int await);
static int codegen_pattern(compiler *c, pattern_ty p, void *pc);
static int codegen_deferred_annotations(compiler *c, location loc);
static PyObject *annotation_string(expr_ty e);

/* ---- Errors ------------------------------------------------------------ */
/* Raises a SyntaxError at loc with msg (a new reference, or NULL when
   building it failed); always returns -1. */
static int
raise_syntax_error_at(compiler *c, const location *at, PyObject *msg)
{
    if (msg != NULL) {
        _PyErr_RaiseSyntaxError(msg, c->c_filename, at->lineno, at->col_offset,
                                at->end_lineno, at->end_col_offset);
        Py_DECREF(msg);
    }
    return -1;
}

static int
codegen_error(compiler *c, location loc, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    PyObject *text = PyUnicode_FromFormatV(format, ap);
    va_end(ap);
    return raise_syntax_error_at(c, &loc, text);
}

/* Issues a SyntaxWarning; when the warning filters turn it into an
   error, the same text is raised as a SyntaxError at loc instead. */
static int
codegen_warn(compiler *c, location loc, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    PyObject *text = PyUnicode_FromFormatV(format, ap);
    va_end(ap);
    if (text == NULL) {
        return -1;
    }
    /* PyErr_WarnExplicitObject would attach the file and line; until it
       exists, warn from the current context */
    const char *utf8 = PyUnicode_AsUTF8(text);
    if (utf8 != NULL && PyErr_WarnEx(PyExc_SyntaxWarning, utf8, 1) == 0) {
        Py_DECREF(text);
        return 0;
    }
    if (!PyErr_ExceptionMatches(PyExc_SyntaxWarning)) {
        Py_DECREF(text);
        return -1;
    }
    PyErr_Clear();
    raise_syntax_error_at(c, &loc, text);
    return -1;
}

static int
enter_recursion(compiler *c)
{
    if (++c->c_depth > _Py_COMPILE_MAX_DEPTH) {
        PyErr_SetString(PyExc_RecursionError,
                        "maximum recursion depth exceeded during compilation");
        return -1;
    }
    return 0;
}

/* ---- Emitting instructions --------------------------------------------- */

static int
addop_noarg(compiler *c, location loc, int op)
{
    return _PyInstructionSequence_Addop(SEQ(c), op, 0, loc);
}

static int
addop_i(compiler *c, location loc, int op, Py_ssize_t oparg)
{
    if (oparg < 0 || oparg > INT_MAX) {
        PyErr_SetString(PyExc_SystemError, "oparg out of range");
        return -1;
    }
    return _PyInstructionSequence_Addop(SEQ(c), op, (int)oparg, loc);
}

static int
is_conditional_jump(int op)
{
    return op == POP_JUMP_IF_FALSE || op == POP_JUMP_IF_TRUE ||
           op == POP_JUMP_IF_NONE || op == POP_JUMP_IF_NOT_NONE;
}

/* A conditional jump is followed by NOT_TAKEN on the fall-through path
   so that branch monitoring can tell the two apart. */
static int
addop_j(compiler *c, location loc, int op, int label)
{
    RETURN_IF_ERROR(_PyInstructionSequence_Addop(SEQ(c), op, label, loc));
    if (is_conditional_jump(op)) {
        return _PyInstructionSequence_Addop(SEQ(c), NOT_TAKEN, 0, loc);
    }
    return 0;
}

static int
small_int_value(PyObject *o, long *val)
{
    if (!PyLong_CheckExact(o)) {
        return 0;
    }
    int overflow;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (overflow || v < 0 || v > 255) {
        return 0;
    }
    *val = v;
    return 1;
}

static int
addop_load_const(compiler *c, location loc, PyObject *o)
{
    long v;
    if (small_int_value(o, &v)) {
        return addop_i(c, loc, LOAD_SMALL_INT, v);
    }
    Py_ssize_t arg = _PyCompile_AddConst(c, o);
    if (arg < 0) {
        return -1;
    }
    return addop_i(c, loc, LOAD_CONST, arg);
}

static int
addop_load_const_new(compiler *c, location loc, PyObject *o)
{
    if (o == NULL) {
        return -1;
    }
    int r = addop_load_const(c, loc, o);
    Py_DECREF(o);
    return r;
}

/* A fixed run of instructions without jumps: {opcode, oparg} pairs (the
   oparg is ignored by opcodes that take none), all at one location. */
typedef struct {
    int op;
    int arg;
} op_step;

static int
emit_steps(compiler *c, location loc, const op_step *steps, int count)
{
    for (int k = 0; k < count; k++) {
        if (_PyInstructionSequence_Addop(SEQ(c), steps[k].op, steps[k].arg, loc) < 0) {
            return -1;
        }
    }
    return 0;
}

#define EMIT_STEPS(c, loc, ...) do { \
        const op_step run_[] = {__VA_ARGS__}; \
        RETURN_IF_ERROR(emit_steps((c), (loc), run_, (int)(sizeof(run_) / sizeof(run_[0])))); \
    } while (0)

static int
emit_none(compiler *c, location loc)
{
    return addop_load_const(c, loc, Py_None);
}

/* Duplicates the top `count` stack items, keeping their order. */
static int
emit_dup_top(compiler *c, location loc, int count)
{
    for (int k = 0; k < count; k++) {
        RETURN_IF_ERROR(addop_i(c, loc, COPY, count));
    }
    return 0;
}

/* Moves the top of the stack down to position `depth` (1 is the top),
   keeping the order of the items it passes. */
static int
emit_bury_top(compiler *c, location loc, int depth)
{
    for (int k = depth; k >= 2; k--) {
        RETURN_IF_ERROR(addop_i(c, loc, SWAP, k));
    }
    return 0;
}

static int
addop_name(compiler *c, location loc, int op, PyObject *o, PyObject *dict, int mangle)
{
    PyObject *mangled = mangle ? _Py_MaybeMangle(c->u->u_private, STE(c), o) : Py_NewRef(o);
    if (mangled == NULL) {
        return -1;
    }
    Py_ssize_t arg = _PyCompile_DictAddObj(dict, mangled);
    Py_DECREF(mangled);
    if (arg < 0) {
        return -1;
    }
    if (op == LOAD_ATTR) {
        arg <<= 1;
    }
    if (op == LOAD_METHOD_PSEUDO) {
        op = LOAD_ATTR;
        arg = (arg << 1) | 1;
    }
    return addop_i(c, loc, op, arg);
}

static int
addop_name_steal(compiler *c, location loc, int op, PyObject *o, PyObject *dict)
{
    if (o == NULL) {
        return -1;
    }
    int r = addop_name(c, loc, op, o, dict, 0);
    Py_DECREF(o);
    return r;
}

static PyObject *
intern_str(const char *s)
{
    return PyUnicode_InternFromString(s);
}

static int
inplace_binop(operator_ty op)
{
    switch (op) {
    case Add: return NB_INPLACE_ADD;
    case Sub: return NB_INPLACE_SUBTRACT;
    case Mult: return NB_INPLACE_MULTIPLY;
    case MatMult: return NB_INPLACE_MATRIX_MULTIPLY;
    case Div: return NB_INPLACE_TRUE_DIVIDE;
    case Mod: return NB_INPLACE_REMAINDER;
    case Pow: return NB_INPLACE_POWER;
    case LShift: return NB_INPLACE_LSHIFT;
    case RShift: return NB_INPLACE_RSHIFT;
    case BitOr: return NB_INPLACE_OR;
    case BitXor: return NB_INPLACE_XOR;
    case BitAnd: return NB_INPLACE_AND;
    case FloorDiv: return NB_INPLACE_FLOOR_DIVIDE;
    }
    return NB_INPLACE_ADD;
}

static int
binop_oparg(operator_ty op)
{
    switch (op) {
    case Add: return NB_ADD;
    case Sub: return NB_SUBTRACT;
    case Mult: return NB_MULTIPLY;
    case MatMult: return NB_MATRIX_MULTIPLY;
    case Div: return NB_TRUE_DIVIDE;
    case Mod: return NB_REMAINDER;
    case Pow: return NB_POWER;
    case LShift: return NB_LSHIFT;
    case RShift: return NB_RSHIFT;
    case BitOr: return NB_OR;
    case BitXor: return NB_XOR;
    case BitAnd: return NB_AND;
    case FloorDiv: return NB_FLOOR_DIVIDE;
    }
    return NB_ADD;
}

static int
addop_compare(compiler *c, location loc, cmpop_ty op)
{
    int cmp;
    switch (op) {
    case Is: return addop_i(c, loc, IS_OP, 0);
    case IsNot: return addop_i(c, loc, IS_OP, 1);
    case In: return addop_i(c, loc, CONTAINS_OP, 0);
    case NotIn: return addop_i(c, loc, CONTAINS_OP, 1);
    case Eq: cmp = Py_EQ; break;
    case NotEq: cmp = Py_NE; break;
    case Lt: cmp = Py_LT; break;
    case LtE: cmp = Py_LE; break;
    case Gt: cmp = Py_GT; break;
    case GtE: cmp = Py_GE; break;
    default: cmp = Py_EQ; break;
    }
    static const int masks[6] = {
        [Py_LT] = COMPARISON_LESS_THAN,
        [Py_LE] = COMPARISON_LESS_THAN | COMPARISON_EQUALS,
        [Py_EQ] = COMPARISON_EQUALS,
        [Py_NE] = COMPARISON_NOT_EQUALS,
        [Py_GT] = COMPARISON_GREATER_THAN,
        [Py_GE] = COMPARISON_GREATER_THAN | COMPARISON_EQUALS,
    };
    return addop_i(c, loc, COMPARE_OP, (cmp << 5) | masks[cmp]);
}

/* ---- Frame blocks ------------------------------------------------------ */

static int
push_fblock(compiler *c, location loc, enum _PyCompile_FBlockType t, int block_label,
            int exit_label, void *datum)
{
    if (c->u->u_nfblocks >= _PY_MAX_FBLOCKS) {
        return codegen_error(c, loc, "too many statically nested blocks");
    }
    _PyCompile_FBlockInfo *f = &c->u->u_fblock[c->u->u_nfblocks++];
    f->fb_type = t;
    f->fb_block = block_label;
    f->fb_exit = exit_label;
    f->fb_loc = loc;
    f->fb_datum = datum;
    return 0;
}

static void
pop_fblock(compiler *c)
{
    c->u->u_nfblocks--;
}

static int
call_exit_with_nones(compiler *c, location loc)
{
    /* __exit__(None, None, None) */
    for (int k = 0; k < 3; k++) {
        RETURN_IF_ERROR(emit_none(c, loc));
    }
    return addop_i(c, loc, CALL, 3);
}

static int
pop_except_and_reraise(compiler *c, location loc)
{
    /* stack: prev_exc, lasti, exc */
    ADDOP_I(c, loc, COPY, 3);
    ADDOP(c, loc, POP_EXCEPT);
    ADDOP_I(c, loc, RERAISE, 1);
    return 0;
}

/* Undo the stack effects of one block for an early exit (break, continue,
   return).  With preserve_tos the value on top (a return value) is kept. */
static int
unwind_fblock(compiler *c, location *ploc, _PyCompile_FBlockInfo *info, int preserve_tos)
{
    switch (info->fb_type) {
    case FB_WHILE_LOOP:
    case FB_EXCEPTION_HANDLER:
    case FB_EXCEPTION_GROUP_HANDLER:
    case FB_ASYNC_COMPREHENSION_GENERATOR:
    case FB_STOP_ITERATION:
        return 0;
    case FB_FOR_LOOP:
        /* the iterator and its index */
        if (preserve_tos) {
            ADDOP_I(c, *ploc, SWAP, 3);
            ADDOP_I(c, *ploc, SWAP, 2);
        }
        ADDOP(c, *ploc, POP_ITER);
        return 0;
    case FB_ASYNC_FOR_LOOP:
        if (preserve_tos) {
            ADDOP_I(c, *ploc, SWAP, 2);
        }
        ADDOP(c, *ploc, POP_TOP);
        return 0;
    case FB_TRY_EXCEPT:
        ADDOP(c, *ploc, POP_BLOCK);
        return 0;
    case FB_FINALLY_TRY:
        ADDOP(c, *ploc, POP_BLOCK);
        if (preserve_tos) {
            RETURN_IF_ERROR(push_fblock(c, *ploc, FB_POP_VALUE, -1, -1, NULL));
        }
        /* the finally body runs here, at its own locations */
        *ploc = NO_LOCATION;
        {
            int r = 0;
            asdl_stmt_seq *body = info->fb_datum;
            for (Py_ssize_t i = 0; i < asdl_seq_LEN(body) && r == 0; i++) {
                r = codegen_visit_stmt(c, asdl_seq_GET(body, i));
            }
            RETURN_IF_ERROR(r);
        }
        if (preserve_tos) {
            pop_fblock(c);
        }
        *ploc = NO_LOCATION;
        return 0;
    case FB_FINALLY_END:
        if (preserve_tos) {
            ADDOP_I(c, *ploc, SWAP, 2);
        }
        ADDOP(c, *ploc, POP_TOP);   /* exc_value */
        if (preserve_tos) {
            ADDOP_I(c, *ploc, SWAP, 2);
        }
        ADDOP(c, *ploc, POP_BLOCK);
        ADDOP(c, *ploc, POP_EXCEPT);
        return 0;
    case FB_WITH:
    case FB_ASYNC_WITH:
        *ploc = info->fb_loc;
        ADDOP(c, *ploc, POP_BLOCK);
        if (preserve_tos) {
            /* value below __exit__ and its self */
            ADDOP_I(c, *ploc, SWAP, 3);
            ADDOP_I(c, *ploc, SWAP, 2);
        }
        RETURN_IF_ERROR(call_exit_with_nones(c, *ploc));
        if (info->fb_type == FB_ASYNC_WITH) {
            ADDOP_I(c, *ploc, GET_AWAITABLE, 2);
            ADDOP(c, *ploc, PUSH_NULL);
            ADDOP_LOAD_CONST(c, *ploc, Py_None);
            RETURN_IF_ERROR(codegen_add_yield_from(c, *ploc, 1));
        }
        ADDOP(c, *ploc, POP_TOP);
        *ploc = NO_LOCATION;
        return 0;
    case FB_HANDLER_CLEANUP:
        if (info->fb_datum) {
            ADDOP(c, *ploc, POP_BLOCK);
        }
        if (preserve_tos) {
            ADDOP_I(c, *ploc, SWAP, 2);
        }
        ADDOP(c, *ploc, POP_BLOCK);
        ADDOP(c, *ploc, POP_EXCEPT);
        if (info->fb_datum) {
            ADDOP_LOAD_CONST(c, *ploc, Py_None);
            RETURN_IF_ERROR(codegen_nameop(c, *ploc, info->fb_datum, Store));
            RETURN_IF_ERROR(codegen_nameop(c, *ploc, info->fb_datum, Del));
        }
        return 0;
    case FB_POP_VALUE:
        if (preserve_tos) {
            ADDOP_I(c, *ploc, SWAP, 2);
        }
        ADDOP(c, *ploc, POP_TOP);
        return 0;
    }
    PyErr_SetString(PyExc_SystemError, "unknown frame block");
    return -1;
}

/* Unwind every block up to (not including) the innermost loop, which is
   returned in *loop (when loop is not NULL). */
static int
unwind_fblock_stack(compiler *c, location *ploc, int preserve_tos,
                    _PyCompile_FBlockInfo **loop)
{
    int n = c->u->u_nfblocks;
    if (n == 0) {
        return 0;
    }
    _PyCompile_FBlockInfo *top = &c->u->u_fblock[n - 1];
    if (top->fb_type == FB_EXCEPTION_GROUP_HANDLER) {
        return codegen_error(c, *ploc,
            "'break', 'continue' and 'return' cannot appear in an except* block");
    }
    if (loop != NULL && (top->fb_type == FB_WHILE_LOOP || top->fb_type == FB_FOR_LOOP ||
                         top->fb_type == FB_ASYNC_FOR_LOOP)) {
        *loop = top;
        return 0;
    }
    _PyCompile_FBlockInfo copy = *top;
    c->u->u_nfblocks--;
    RETURN_IF_ERROR(unwind_fblock(c, ploc, &copy, preserve_tos));
    int r = unwind_fblock_stack(c, ploc, preserve_tos, loop);
    c->u->u_fblock[c->u->u_nfblocks++] = copy;
    return r;
}

/* ---- Names ------------------------------------------------------------- */

enum { OP_FAST, OP_GLOBAL, OP_DEREF, OP_NAME };

static int
load_classdict_freevar(compiler *c, location loc)
{
    PyObject *n = intern_str("__classdict__");
    if (n == NULL) {
        return -1;
    }
    Py_ssize_t idx = _PyCompile_DictAddObj(METADATA(c)->u_freevars, n);
    Py_DECREF(n);
    if (idx < 0) {
        return -1;
    }
    return addop_i(c, loc, LOAD_DEREF, idx);
}

static int
is_fast_hidden(compiler *c, PyObject *name)
{
    PyObject *v = PyDict_GetItemWithError(METADATA(c)->u_fasthidden, name);
    return v == Py_True;
}

static int
codegen_nameop(compiler *c, location loc, PyObject *name, expr_context_ty ctx)
{
    if (ctx == Load && PyUnicode_CompareWithASCIIString(name, "__debug__") == 0) {
        /* a compile-time constant: false under -O */
        return addop_load_const(c, loc, c->c_optimize ? Py_False : Py_True);
    }
    PyObject *mangled = _Py_MaybeMangle(c->u->u_private, STE(c), name);
    if (mangled == NULL) {
        return -1;
    }
    int scope = _PyST_GetScope(STE(c), mangled);
    if (PyErr_Occurred()) {
        Py_DECREF(mangled);
        return -1;
    }
    PyObject *dict = METADATA(c)->u_names;
    int optype = OP_NAME;
    int function_like = _PyST_IsFunctionLike(STE(c));
    switch (scope) {
    case FREE:
        dict = METADATA(c)->u_freevars;
        optype = OP_DEREF;
        break;
    case CELL:
        dict = METADATA(c)->u_cellvars;
        optype = OP_DEREF;
        break;
    case LOCAL:
        if (function_like || is_fast_hidden(c, mangled)) {
            optype = OP_FAST;
        }
        break;
    case GLOBAL_IMPLICIT:
        if (function_like) {
            optype = OP_GLOBAL;
        }
        break;
    case GLOBAL_EXPLICIT:
        optype = OP_GLOBAL;
        break;
    default:
        break;
    }
    if (optype == OP_NAME && c->u->u_in_inlined_comp && scope == GLOBAL_IMPLICIT) {
        /* a comprehension inlined into a class body cannot see the class
           namespace */
        optype = OP_GLOBAL;
    }
    int op = 0;
    switch (optype) {
    case OP_DEREF:
        switch (ctx) {
        case Load:
            if (STE(c)->ste_type == ClassBlock && !c->u->u_in_inlined_comp) {
                op = LOAD_FROM_DICT_OR_DEREF;
                if (addop_noarg(c, loc, LOAD_LOCALS) < 0) {
                    goto error;
                }
            }
            else if (STE(c)->ste_can_see_class_scope &&
                     PyUnicode_CompareWithASCIIString(mangled, "__classdict__") != 0) {
                op = LOAD_FROM_DICT_OR_DEREF;
                if (load_classdict_freevar(c, loc) < 0) {
                    goto error;
                }
            }
            else {
                op = LOAD_DEREF;
            }
            break;
        case Store: op = STORE_DEREF; break;
        case Del: op = DELETE_DEREF; break;
        }
        break;
    case OP_FAST:
        switch (ctx) {
        case Load: op = LOAD_FAST; break;
        case Store: op = STORE_FAST; break;
        case Del: op = DELETE_FAST; break;
        }
        {
            Py_ssize_t arg = _PyCompile_DictAddObj(METADATA(c)->u_varnames, mangled);
            Py_DECREF(mangled);
            if (arg < 0) {
                return -1;
            }
            return addop_i(c, loc, op, arg);
        }
    case OP_GLOBAL:
        switch (ctx) {
        case Load:
            if (STE(c)->ste_can_see_class_scope && scope == GLOBAL_IMPLICIT) {
                op = LOAD_FROM_DICT_OR_GLOBALS;
                if (load_classdict_freevar(c, loc) < 0) {
                    goto error;
                }
            }
            else {
                op = LOAD_GLOBAL;
            }
            break;
        case Store: op = STORE_GLOBAL; break;
        case Del: op = DELETE_GLOBAL; break;
        }
        break;
    case OP_NAME:
        switch (ctx) {
        case Load:
            op = (STE(c)->ste_type == ClassBlock && c->u->u_in_inlined_comp)
                 ? LOAD_GLOBAL : LOAD_NAME;
            break;
        case Store: op = STORE_NAME; break;
        case Del: op = DELETE_NAME; break;
        }
        break;
    }
    Py_ssize_t arg = _PyCompile_DictAddObj(dict, mangled);
    Py_DECREF(mangled);
    if (arg < 0) {
        return -1;
    }
    if (op == LOAD_GLOBAL) {
        arg <<= 1;
    }
    return addop_i(c, loc, op, arg);
error:
    Py_DECREF(mangled);
    return -1;
}

static int
codegen_nameop_str(compiler *c, location loc, const char *name, expr_context_ty ctx)
{
    PyObject *n = intern_str(name);
    if (n == NULL) {
        return -1;
    }
    int r = codegen_nameop(c, loc, n, ctx);
    Py_DECREF(n);
    return r;
}

/* Index of a cell or free variable for LOAD_CLOSURE/MAKE_CELL and DEREF
   ops (cells first, then free variables). */
static int
get_ref_type(compiler *c, PyObject *name)
{
    if (STE(c)->ste_type == ClassBlock &&
        (PyUnicode_CompareWithASCIIString(name, "__class__") == 0 ||
         PyUnicode_CompareWithASCIIString(name, "__classdict__") == 0 ||
         PyUnicode_CompareWithASCIIString(name, "__conditional_annotations__") == 0)) {
        return CELL;
    }
    int scope = _PyST_GetScope(STE(c), name);
    if (scope == 0 && !PyErr_Occurred()) {
        PyErr_Format(PyExc_SystemError, "_PyST_GetScope(name=%R) failed: unknown scope", name);
        return -1;
    }
    return scope;
}

static Py_ssize_t
closure_index(compiler *c, PyObject *name)
{
    int reftype = get_ref_type(c, name);
    if (reftype < 0) {
        return -1;
    }
    PyObject *v = NULL;
    if (reftype == CELL) {
        v = PyDict_GetItemWithError(METADATA(c)->u_cellvars, name);
    }
    if (v == NULL && !PyErr_Occurred()) {
        v = PyDict_GetItemWithError(METADATA(c)->u_freevars, name);
    }
    if (v == NULL && !PyErr_Occurred()) {
        v = PyDict_GetItemWithError(METADATA(c)->u_cellvars, name);
    }
    if (v == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_SystemError, "compiler: lookup of closure variable %R failed",
                         name);
        }
        return -1;
    }
    return PyLong_AsSsize_t(v);
}

/* Push the closure tuple of `co` (if any) and the function object. */
/* SET_FUNCTION_ATTRIBUTE runs once per attribute present, in this order. */
static const int function_attribute_order[] = {
    MAKE_FUNCTION_CLOSURE, MAKE_FUNCTION_ANNOTATIONS, MAKE_FUNCTION_ANNOTATE,
    MAKE_FUNCTION_KWDEFAULTS, MAKE_FUNCTION_DEFAULTS,
};

/* Pushes a tuple of the cells that the free variables of `co` refer to. */
static int
push_closure_cells(compiler *c, location loc, PyCodeObject *co)
{
    int nfree = co->co_nfreevars;
    int first_free = co->co_nlocalsplus - nfree;
    for (int k = first_free; k < co->co_nlocalsplus; k++) {
        Py_ssize_t cell = closure_index(c, PyTuple_GET_ITEM(co->co_localsplusnames, k));
        if (cell < 0) {
            return -1;
        }
        RETURN_IF_ERROR(addop_i(c, loc, LOAD_CLOSURE, cell));
    }
    return addop_i(c, loc, BUILD_TUPLE, nfree);
}

static int
make_closure(compiler *c, location loc, PyCodeObject *co, Py_ssize_t flags)
{
    if (co->co_nfreevars > 0) {
        RETURN_IF_ERROR(push_closure_cells(c, loc, co));
        flags |= MAKE_FUNCTION_CLOSURE;
    }
    RETURN_IF_ERROR(addop_load_const(c, loc, (PyObject *)co));
    RETURN_IF_ERROR(addop_noarg(c, loc, MAKE_FUNCTION));
    size_t nattrs = sizeof(function_attribute_order) / sizeof(function_attribute_order[0]);
    for (size_t k = 0; k < nattrs; k++) {
        int attr = function_attribute_order[k];
        if (flags & attr) {
            RETURN_IF_ERROR(addop_i(c, loc, SET_FUNCTION_ATTRIBUTE, attr));
        }
    }
    return 0;
}

/* ---- Docstrings and bodies --------------------------------------------- */

static PyObject *
get_docstring(asdl_stmt_seq *body)
{
    /* a plain str constant as the first statement (borrowed) */
    stmt_ty first = asdl_seq_LEN(body) > 0 ? asdl_seq_GET(body, 0) : NULL;
    if (first == NULL || first->kind != Expr_kind) {
        return NULL;
    }
    expr_ty value = first->v.Expr.value;
    if (value->kind == Constant_kind) {
        PyObject *text = value->v.Constant.value;
        return PyUnicode_CheckExact(text) ? text : NULL;
    }
    return NULL;
}

static int
is_space_char(Py_UCS4 ch)
{
    return ch == ' ' || ch == '\t' || ch == '\f' || ch == '\v';
}

/* Docstrings are stored with the first line's leading whitespace removed
   and the common indentation of the later lines removed (lines made only
   of whitespace become empty). */
static PyObject *
clean_doc(PyObject *doc)
{
    PyObject *expanded = PyObject_CallMethod(doc, "expandtabs", NULL);
    if (expanded == NULL) {
        return NULL;
    }
    PyObject *lines = PyUnicode_Splitlines(expanded, 1);
    Py_DECREF(expanded);
    if (lines == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(lines);
    Py_ssize_t margin = PY_SSIZE_T_MAX;
    for (Py_ssize_t i = 1; i < n; i++) {
        PyObject *line = PyList_GET_ITEM(lines, i);
        Py_ssize_t len = PyUnicode_GET_LENGTH(line), j = 0;
        while (j < len && is_space_char(PyUnicode_READ_CHAR(line, j))) {
            j++;
        }
        if (j < len) {
            Py_UCS4 ch = PyUnicode_READ_CHAR(line, j);
            if (ch != '\n' && ch != '\r' && j < margin) {
                margin = j;
            }
        }
    }
    PyObject *parts = PyList_New(n);
    if (parts == NULL) {
        Py_DECREF(lines);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *line = PyList_GET_ITEM(lines, i);
        Py_ssize_t len = PyUnicode_GET_LENGTH(line), j = 0;
        while (j < len && is_space_char(PyUnicode_READ_CHAR(line, j))) {
            j++;
        }
        Py_ssize_t start;
        if (i == 0 || j == len || PyUnicode_READ_CHAR(line, j) == '\n' ||
            PyUnicode_READ_CHAR(line, j) == '\r') {
            start = j;   /* first line, or a whitespace-only line */
        }
        else {
            start = margin < j ? margin : j;
        }
        PyObject *part = PyUnicode_Substring(line, start, len);
        if (part == NULL) {
            Py_DECREF(parts);
            Py_DECREF(lines);
            return NULL;
        }
        PyList_SET_ITEM(parts, i, part);
    }
    Py_DECREF(lines);
    PyObject *empty = PyUnicode_FromString("");
    if (empty == NULL) {
        Py_DECREF(parts);
        return NULL;
    }
    PyObject *res = PyUnicode_Join(empty, parts);
    Py_DECREF(empty);
    Py_DECREF(parts);
    return res;
}

int
_PyCodegen_AddReturnAtEnd(compiler *c, int add_none)
{
    /* every path that falls off the end returns (None unless add_none is
       false, for expression code whose value is already on the stack) */
    if (add_none) {
        ADDOP_LOAD_CONST(c, NO_LOCATION, Py_None);
    }
    ADDOP(c, NO_LOCATION, RETURN_VALUE);
    return 0;
}

/* Generators and coroutines turn a StopIteration escaping the body into
   RuntimeError: the whole body is covered by a handler doing that. */
static int
wrap_in_stopiteration_handler(compiler *c)
{
    NEW_LABEL(c, to_runtime_error);
    /* the handler covers everything from the start of the body */
    RETURN_IF_ERROR(_PyInstructionSequence_InsertInstruction(
        SEQ(c), 0, SETUP_CLEANUP, to_runtime_error, NO_LOCATION));
    RETURN_IF_ERROR(_PyCodegen_AddReturnAtEnd(c, 1));
    USE_LABEL(c, to_runtime_error);
    EMIT_STEPS(c, NO_LOCATION,
               {CALL_INTRINSIC_1, INTRINSIC_STOPITERATION_ERROR}, {RERAISE, 1});
    return 0;
}

/* Whether a body (including nested blocks, but not nested scopes) has an
   annotated assignment. */
static int
find_ann(asdl_stmt_seq *stmts)
{
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(stmts); i++) {
        stmt_ty st = asdl_seq_GET(stmts, i);
        switch (st->kind) {
        case AnnAssign_kind:
            return 1;
        case For_kind:
        case AsyncFor_kind:
            if (find_ann(st->v.For.body) || find_ann(st->v.For.orelse)) {
                return 1;
            }
            break;
        case While_kind:
            if (find_ann(st->v.While.body) || find_ann(st->v.While.orelse)) {
                return 1;
            }
            break;
        case If_kind:
            if (find_ann(st->v.If.body) || find_ann(st->v.If.orelse)) {
                return 1;
            }
            break;
        case With_kind:
        case AsyncWith_kind:
            if (find_ann(st->v.With.body)) {
                return 1;
            }
            break;
        case Match_kind:
            for (Py_ssize_t j = 0; j < asdl_seq_LEN(st->v.Match.cases); j++) {
                if (find_ann(asdl_seq_GET(st->v.Match.cases, j)->body)) {
                    return 1;
                }
            }
            break;
        case Try_kind:
        case TryStar_kind:
            if (find_ann(st->v.Try.body) || find_ann(st->v.Try.orelse) ||
                find_ann(st->v.Try.finalbody)) {
                return 1;
            }
            for (Py_ssize_t j = 0; j < asdl_seq_LEN(st->v.Try.handlers); j++) {
                if (find_ann(asdl_seq_GET(st->v.Try.handlers, j)->v.ExceptHandler.body)) {
                    return 1;
                }
            }
            break;
        default:
            break;
        }
    }
    return 0;
}

static int
conditional_annotations_op(compiler *c, location loc, int store)
{
    PyObject *n = intern_str("__conditional_annotations__");
    if (n == NULL) {
        return -1;
    }
    int r;
    if (STE(c)->ste_type == ClassBlock) {
        Py_ssize_t idx = closure_index(c, n);
        r = idx < 0 ? -1 : addop_i(c, loc, store ? STORE_DEREF : LOAD_DEREF, idx);
    }
    else {
        r = addop_name(c, loc, store ? STORE_NAME : LOAD_NAME, n, METADATA(c)->u_names, 0);
    }
    Py_DECREF(n);
    return r;
}

static int
store_conditional_annotations(compiler *c, location loc)
{
    return conditional_annotations_op(c, loc, 1);
}

static int
codegen_body(compiler *c, location loc, asdl_stmt_seq *stmts, int is_module)
{
    PySTEntryObject *ste = STE(c);
    int future_annotations = c->c_future.ff_features & CO_FUTURE_ANNOTATIONS;
    if (future_annotations && find_ann(stmts)) {
        /* with stringified annotations, __annotations__ exists when used */
        ADDOP(c, loc, SETUP_ANNOTATIONS);
    }
    if (asdl_seq_LEN(stmts) == 0) {
        return 0;
    }
    Py_ssize_t first = 0;
    if (!c->c_interactive) {
        PyObject *doc = get_docstring(stmts);
        if (doc != NULL && c->c_optimize < 2) {
            first = 1;
            PyObject *cleaned = clean_doc(doc);
            if (cleaned == NULL) {
                return -1;
            }
            stmt_ty st = asdl_seq_GET(stmts, 0);
            int r = addop_load_const(c, LOC(st->v.Expr.value), cleaned);
            Py_DECREF(cleaned);
            RETURN_IF_ERROR(r);
            RETURN_IF_ERROR(codegen_nameop_str(c, NO_LOCATION, "__doc__", Store));
        }
        else if (doc != NULL) {
            first = 1;
        }
    }
    int placeholder = SEQ(c)->s_used;
    if (ste->ste_annotation_block != NULL && !future_annotations) {
        ADDOP(c, loc, ANNOTATIONS_PLACEHOLDER);
    }
    if (ste->ste_has_conditional_annotations && !future_annotations) {
        ADDOP_I(c, loc, BUILD_SET, 0);
        RETURN_IF_ERROR(store_conditional_annotations(c, loc));
    }
    for (Py_ssize_t i = first; i < asdl_seq_LEN(stmts); i++) {
        VISIT(c, stmt, asdl_seq_GET(stmts, i));
    }
    if (ste->ste_annotation_block != NULL && !future_annotations &&
        c->u->u_deferred_annotations != NULL) {
        /* build the __annotate__ function in a side sequence and splice
           it in where the placeholder was */
        _PyInstructionSequence saved = *SEQ(c);
        _PyInstructionSequence_Init(SEQ(c));
        SEQ(c)->s_next_free_label = 0;
        int r = codegen_deferred_annotations(c, loc);
        _PyInstructionSequence side = *SEQ(c);
        *SEQ(c) = saved;
        if (r < 0) {
            _PyInstructionSequence_Fini(&side);
            return -1;
        }
        SEQ(c)->s_instrs[placeholder].i_opcode = NOP;
        r = _PyInstructionSequence_InjectSequence(SEQ(c), placeholder + 1, &side);
        _PyInstructionSequence_Fini(&side);
        RETURN_IF_ERROR(r);
    }
    (void)is_module;
    return 0;
}

int
_PyCodegen_Module(compiler *c, mod_ty mod)
{
    PyObject *name = intern_str("<module>");
    if (name == NULL) {
        return -1;
    }
    int r = _PyCompile_EnterScope(c, name, COMPILE_SCOPE_MODULE, mod, 1, NULL, NULL);
    Py_DECREF(name);
    RETURN_IF_ERROR(r);
    location loc = LOCATION(1, 1, 0, 0);
    switch (mod->kind) {
    case Module_kind:
        return codegen_body(c, loc, mod->v.Module.body, 1);
    case Interactive_kind:
        c->c_interactive = 1;
        for (Py_ssize_t i = 0; i < asdl_seq_LEN(mod->v.Interactive.body); i++) {
            VISIT(c, stmt, asdl_seq_GET(mod->v.Interactive.body, i));
        }
        return 0;
    case Expression_kind:
        VISIT(c, expr, mod->v.Expression.body);
        return 0;
    default:
        PyErr_Format(PyExc_SystemError, "module kind %d should not be possible", mod->kind);
        return -1;
    }
}

/* ---- Functions, lambdas, classes --------------------------------------- */

static int
codegen_decorators(compiler *c, asdl_expr_seq *decos)
{
    VISIT_SEQ(c, expr, decos);
    return 0;
}

/* Each decorator was pushed as a callable; the decorated object sits in
   the self_or_null slot of `CALL 0`, which passes it as the argument. */
static int
codegen_apply_decorators(compiler *c, asdl_expr_seq *decos)
{
    for (Py_ssize_t i = asdl_seq_LEN(decos) - 1; i >= 0; i--) {
        location loc = LOC(asdl_seq_GET(decos, i));
        ADDOP_I(c, loc, CALL, 0);
    }
    return 0;
}

static int
codegen_kwonly_defaults(compiler *c, location loc, asdl_arg_seq *kwonlyargs,
                        asdl_expr_seq *kw_defaults)
{
    int n = 0;
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(kwonlyargs); i++) {
        arg_ty arg = asdl_seq_GET(kwonlyargs, i);
        expr_ty dflt = asdl_seq_GET(kw_defaults, i);
        if (dflt) {
            PyObject *mangled = _Py_MaybeMangle(c->u->u_private, STE(c), arg->arg);
            if (mangled == NULL) {
                return -1;
            }
            ADDOP_LOAD_CONST_NEW(c, loc, mangled);
            VISIT(c, expr, dflt);
            n++;
        }
    }
    if (n) {
        ADDOP_I(c, loc, BUILD_MAP, n);
        return 1;
    }
    return 0;
}

/* Push the defaults tuple and the kw-only defaults dict; return the
   MAKE_FUNCTION_* flags for what was pushed. */
static int
codegen_default_arguments(compiler *c, location loc, arguments_ty args)
{
    int flags = 0;
    if (asdl_seq_LEN(args->defaults)) {
        VISIT_SEQ(c, expr, args->defaults);
        ADDOP_I(c, loc, BUILD_TUPLE, asdl_seq_LEN(args->defaults));
        flags |= MAKE_FUNCTION_DEFAULTS;
    }
    if (args->kwonlyargs) {
        int r = codegen_kwonly_defaults(c, loc, args->kwonlyargs, args->kw_defaults);
        RETURN_IF_ERROR(r);
        if (r > 0) {
            flags |= MAKE_FUNCTION_KWDEFAULTS;
        }
    }
    return flags;
}

/* Open an __annotate__-style scope: one positional-only `format`
   parameter, and NotImplementedError for formats it cannot produce. */
static int
setup_annotations_scope(compiler *c, location loc, void *key, PyObject *name)
{
    _PyCompile_CodeUnitMetadata umd = {.u_posonlyargcount = 1};
    RETURN_IF_ERROR(_PyCompile_EnterScope(c, name, COMPILE_SCOPE_ANNOTATIONS, key,
                                          loc.lineno, NULL, &umd));
    NEW_LABEL(c, body);
    RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, loc, LOAD_FAST, 0));
    RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, loc, LOAD_SMALL_INT,
                                        ANNOTATE_FORMAT_VALUE_WITH_FAKE_GLOBALS));
    RETURN_IF_ERROR_IN_SCOPE(c, addop_compare(c, loc, Gt));
    RETURN_IF_ERROR_IN_SCOPE(c, addop_j(c, loc, POP_JUMP_IF_FALSE, body));
    RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, loc, LOAD_COMMON_CONSTANT,
                                        CONSTANT_NOTIMPLEMENTEDERROR));
    RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, loc, RAISE_VARARGS, 1));
    RETURN_IF_ERROR_IN_SCOPE(c, _PyInstructionSequence_UseLabel(SEQ(c), body));
    return 0;
}

static int
leave_annotations_scope(compiler *c, location loc, Py_ssize_t n)
{
    RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, loc, BUILD_MAP, n));
    RETURN_IF_ERROR_IN_SCOPE(c, addop_noarg(c, loc, RETURN_VALUE));
    PyCodeObject *co = _PyCompile_OptimizeAndAssemble(c, 0);
    _PyCompile_ExitScope(c);
    if (co == NULL) {
        return -1;
    }
    int r = make_closure(c, loc, co, 0);
    Py_DECREF(co);
    return r;
}

static int
codegen_argannotation(compiler *c, PyObject *id, expr_ty annotation, Py_ssize_t *n)
{
    if (annotation == NULL) {
        return 0;
    }
    PyObject *mangled = _Py_MaybeMangle(c->u->u_private, STE(c), id);
    if (mangled == NULL) {
        return -1;
    }
    ADDOP_LOAD_CONST_NEW(c, LOC(annotation), mangled);
    if (c->c_future.ff_features & CO_FUTURE_ANNOTATIONS) {
        ADDOP_LOAD_CONST_NEW(c, LOC(annotation), annotation_string(annotation));
    }
    else if (annotation->kind == Starred_kind) {
        /* *args: *Ts */
        VISIT(c, expr, annotation->v.Starred.value);
        ADDOP_I(c, LOC(annotation), UNPACK_SEQUENCE, 1);
    }
    else {
        VISIT(c, expr, annotation);
    }
    (*n)++;
    return 0;
}

static int
codegen_argannotations(compiler *c, asdl_arg_seq *args, Py_ssize_t *n)
{
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(args); i++) {
        arg_ty a = asdl_seq_GET(args, i);
        RETURN_IF_ERROR(codegen_argannotation(c, a->arg, a->annotation, n));
    }
    return 0;
}

static int
codegen_annotations_in_scope(compiler *c, arguments_ty args, expr_ty returns, Py_ssize_t *n)
{
    RETURN_IF_ERROR(codegen_argannotations(c, args->args, n));
    RETURN_IF_ERROR(codegen_argannotations(c, args->posonlyargs, n));
    if (args->vararg) {
        RETURN_IF_ERROR(codegen_argannotation(c, args->vararg->arg,
                                              args->vararg->annotation, n));
    }
    RETURN_IF_ERROR(codegen_argannotations(c, args->kwonlyargs, n));
    if (args->kwarg) {
        RETURN_IF_ERROR(codegen_argannotation(c, args->kwarg->arg,
                                              args->kwarg->annotation, n));
    }
    if (returns) {
        PyObject *r = intern_str("return");
        if (r == NULL) {
            return -1;
        }
        int res = codegen_argannotation(c, r, returns, n);
        Py_DECREF(r);
        RETURN_IF_ERROR(res);
    }
    return 0;
}

/* ---- Stringified annotations ------------------------------------------- */

/* With `from __future__ import annotations` each annotation is stored as
   the source text the AST unparses to (the same spelling ast.unparse()
   gives), not evaluated. */
enum {
    PR_TUPLE, PR_TEST, PR_OR, PR_AND, PR_NOT, PR_CMP, PR_EXPR, PR_BOR = PR_EXPR,
    PR_BXOR, PR_BAND, PR_SHIFT, PR_ARITH, PR_TERM, PR_FACTOR, PR_POWER, PR_AWAIT,
    PR_ATOM
};

typedef struct {
    PyObject *parts;   /* list of str */
    int depth;
} unparser;

static int unparse_expr(unparser *u, expr_ty e, int level);

static int
up_str(unparser *u, const char *s)
{
    PyObject *o = PyUnicode_FromString(s);
    if (o == NULL) {
        return -1;
    }
    int r = PyList_Append(u->parts, o);
    Py_DECREF(o);
    return r;
}

static int
up_obj(unparser *u, PyObject *o)
{
    return PyList_Append(u->parts, o);
}

static int
up_repr(unparser *u, PyObject *o)
{
    PyObject *r = PyObject_Repr(o);
    if (r == NULL) {
        return -1;
    }
    int res = PyList_Append(u->parts, r);
    Py_DECREF(r);
    return res;
}

#define UP(call) do { if ((call) < 0) { return -1; } } while (0)

static int
unparse_constant(unparser *u, PyObject *v)
{
    if (v == Py_Ellipsis) {
        return up_str(u, "...");
    }
    if (PyFloat_CheckExact(v) && isinf(PyFloat_AS_DOUBLE(v))) {
        /* repr(inf) is not valid source */
        return up_str(u, PyFloat_AS_DOUBLE(v) > 0 ? "1e309" : "-1e309");
    }
    if (PyComplex_CheckExact(v)) {
        Py_complex z = PyComplex_AsCComplex(v);
        if (isinf(z.real) || isinf(z.imag)) {
            return up_str(u, "(1e309j)");
        }
    }
    if (PyTuple_CheckExact(v)) {
        Py_ssize_t n = PyTuple_GET_SIZE(v);
        UP(up_str(u, "("));
        for (Py_ssize_t i = 0; i < n; i++) {
            if (i) {
                UP(up_str(u, ", "));
            }
            UP(unparse_constant(u, PyTuple_GET_ITEM(v, i)));
        }
        return up_str(u, n == 1 ? ",)" : ")");
    }
    return up_repr(u, v);
}

static int
unparse_seq(unparser *u, asdl_expr_seq *seq, int level)
{
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(seq); i++) {
        if (i) {
            UP(up_str(u, ", "));
        }
        UP(unparse_expr(u, asdl_seq_GET(seq, i), level));
    }
    return 0;
}

static int
unparse_arg(unparser *u, arg_ty a)
{
    return up_obj(u, a->arg);
}

static int
unparse_arguments(unparser *u, arguments_ty args)
{
    int first = 1;
    Py_ssize_t npos = asdl_seq_LEN(args->posonlyargs), nargs = asdl_seq_LEN(args->args);
    Py_ssize_t ndef = asdl_seq_LEN(args->defaults);
    Py_ssize_t total = npos + nargs;
    for (Py_ssize_t i = 0; i < total; i++) {
        if (!first) {
            UP(up_str(u, ", "));
        }
        first = 0;
        arg_ty a = i < npos ? asdl_seq_GET(args->posonlyargs, i)
                            : asdl_seq_GET(args->args, i - npos);
        UP(unparse_arg(u, a));
        Py_ssize_t di = i - (total - ndef);
        if (di >= 0) {
            UP(up_str(u, "="));
            UP(unparse_expr(u, asdl_seq_GET(args->defaults, di), PR_TEST));
        }
        if (npos && i == npos - 1) {
            UP(up_str(u, ", /"));
        }
    }
    if (args->vararg || asdl_seq_LEN(args->kwonlyargs)) {
        if (!first) {
            UP(up_str(u, ", "));
        }
        first = 0;
        UP(up_str(u, "*"));
        if (args->vararg) {
            UP(unparse_arg(u, args->vararg));
        }
    }
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(args->kwonlyargs); i++) {
        UP(up_str(u, ", "));
        UP(unparse_arg(u, asdl_seq_GET(args->kwonlyargs, i)));
        expr_ty d = asdl_seq_GET(args->kw_defaults, i);
        if (d) {
            UP(up_str(u, "="));
            UP(unparse_expr(u, d, PR_TEST));
        }
    }
    if (args->kwarg) {
        if (!first) {
            UP(up_str(u, ", "));
        }
        UP(up_str(u, "**"));
        UP(unparse_arg(u, args->kwarg));
    }
    return 0;
}

static int
unparse_comprehensions(unparser *u, asdl_comprehension_seq *gens)
{
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(gens); i++) {
        comprehension_ty g = asdl_seq_GET(gens, i);
        UP(up_str(u, g->is_async ? " async for " : " for "));
        UP(unparse_expr(u, g->target, PR_TUPLE));
        UP(up_str(u, " in "));
        UP(unparse_expr(u, g->iter, PR_TEST + 1));
        for (Py_ssize_t j = 0; j < asdl_seq_LEN(g->ifs); j++) {
            UP(up_str(u, " if "));
            UP(unparse_expr(u, asdl_seq_GET(g->ifs, j), PR_TEST + 1));
        }
    }
    return 0;
}

static int
unparse_slice(unparser *u, expr_ty e)
{
    if (e->kind == Slice_kind) {
        if (e->v.Slice.lower) {
            UP(unparse_expr(u, e->v.Slice.lower, PR_TEST));
        }
        UP(up_str(u, ":"));
        if (e->v.Slice.upper) {
            UP(unparse_expr(u, e->v.Slice.upper, PR_TEST));
        }
        if (e->v.Slice.step) {
            UP(up_str(u, ":"));
            UP(unparse_expr(u, e->v.Slice.step, PR_TEST));
        }
        return 0;
    }
    if (e->kind == Tuple_kind && asdl_seq_LEN(e->v.Tuple.elts) > 0) {
        Py_ssize_t n = asdl_seq_LEN(e->v.Tuple.elts);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (i) {
                UP(up_str(u, ", "));
            }
            UP(unparse_slice(u, asdl_seq_GET(e->v.Tuple.elts, i)));
        }
        return n == 1 ? up_str(u, ",") : 0;
    }
    return unparse_expr(u, e, PR_TUPLE);
}

/* The text inside an f-string's quotes (without them); braces in
   literal parts are doubled. */
static int
unparse_fstring_body(unparser *u, asdl_expr_seq *values, int is_format_spec);

/* One replacement field "{value!c:spec}" of an f-string or t-string. */
static int
unparse_formatted(unparser *u, expr_ty e)
{
    int is_t = e->kind == Interpolation_kind;
    expr_ty value = is_t ? e->v.Interpolation.value : e->v.FormattedValue.value;
    int conv = is_t ? e->v.Interpolation.conversion : e->v.FormattedValue.conversion;
    expr_ty spec = is_t ? e->v.Interpolation.format_spec : e->v.FormattedValue.format_spec;
    unparser inner = {PyList_New(0), u->depth};
    if (inner.parts == NULL) {
        return -1;
    }
    if (unparse_expr(&inner, value, PR_TEST + 1) < 0) {
        Py_DECREF(inner.parts);
        return -1;
    }
    PyObject *empty = PyUnicode_FromString("");
    PyObject *text = empty ? PyUnicode_Join(empty, inner.parts) : NULL;
    Py_XDECREF(empty);
    Py_DECREF(inner.parts);
    if (text == NULL) {
        return -1;
    }
    int r = up_str(u, (PyUnicode_GET_LENGTH(text) && PyUnicode_READ_CHAR(text, 0) == '{')
                      ? "{ " : "{");
    if (r == 0) {
        r = up_obj(u, text);
    }
    Py_DECREF(text);
    UP(r);
    if (conv == 's' || conv == 'r' || conv == 'a') {
        char buf[3] = {'!', (char)conv, 0};
        UP(up_str(u, buf));
    }
    if (spec) {
        UP(up_str(u, ":"));
        if (spec->kind == JoinedStr_kind) {
            UP(unparse_fstring_body(u, spec->v.JoinedStr.values, 1));
        }
    }
    return up_str(u, "}");
}

static int
unparse_fstring_body(unparser *u, asdl_expr_seq *values, int is_format_spec)
{
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(values); i++) {
        expr_ty v = asdl_seq_GET(values, i);
        if (v->kind == Constant_kind && PyUnicode_Check(v->v.Constant.value)) {
            PyObject *s = v->v.Constant.value;
            PyObject *lb = PyUnicode_FromString("{"), *lb2 = PyUnicode_FromString("{{");
            PyObject *rb = PyUnicode_FromString("}"), *rb2 = PyUnicode_FromString("}}");
            PyObject *a = (lb && lb2) ? PyUnicode_Replace(s, lb, lb2, -1) : NULL;
            PyObject *b = (a && rb && rb2) ? PyUnicode_Replace(a, rb, rb2, -1) : NULL;
            Py_XDECREF(lb);
            Py_XDECREF(lb2);
            Py_XDECREF(rb);
            Py_XDECREF(rb2);
            Py_XDECREF(a);
            if (b == NULL) {
                return -1;
            }
            int r = up_obj(u, b);
            Py_DECREF(b);
            UP(r);
        }
        else if (v->kind == FormattedValue_kind || v->kind == Interpolation_kind) {
            UP(unparse_formatted(u, v));
        }
    }
    (void)is_format_spec;
    return 0;
}

/* f"..." or t"...": the body is rendered, then quoted with repr(). */
static int
unparse_joined_str(unparser *u, expr_ty e)
{
    int is_t = e->kind == TemplateStr_kind;
    unparser inner = {PyList_New(0), u->depth};
    if (inner.parts == NULL) {
        return -1;
    }
    if (unparse_fstring_body(&inner, is_t ? e->v.TemplateStr.values : e->v.JoinedStr.values,
                             0) < 0) {
        Py_DECREF(inner.parts);
        return -1;
    }
    PyObject *empty = PyUnicode_FromString("");
    PyObject *text = empty ? PyUnicode_Join(empty, inner.parts) : NULL;
    Py_XDECREF(empty);
    Py_DECREF(inner.parts);
    if (text == NULL) {
        return -1;
    }
    int r = up_str(u, is_t ? "t" : "f");
    if (r == 0) {
        r = up_repr(u, text);
    }
    Py_DECREF(text);
    return r;
}

static const char *
binop_text(operator_ty op, int *pr, int *rassoc)
{
    *rassoc = 0;
    switch (op) {
    case Add: *pr = PR_ARITH; return " + ";
    case Sub: *pr = PR_ARITH; return " - ";
    case Mult: *pr = PR_TERM; return " * ";
    case MatMult: *pr = PR_TERM; return " @ ";
    case Div: *pr = PR_TERM; return " / ";
    case Mod: *pr = PR_TERM; return " % ";
    case FloorDiv: *pr = PR_TERM; return " // ";
    case LShift: *pr = PR_SHIFT; return " << ";
    case RShift: *pr = PR_SHIFT; return " >> ";
    case BitOr: *pr = PR_BOR; return " | ";
    case BitXor: *pr = PR_BXOR; return " ^ ";
    case BitAnd: *pr = PR_BAND; return " & ";
    case Pow: *pr = PR_POWER; *rassoc = 1; return " ** ";
    }
    *pr = PR_ARITH;
    return " ? ";
}

static const char *
cmpop_text(cmpop_ty op)
{
    switch (op) {
    case Eq: return " == ";
    case NotEq: return " != ";
    case Lt: return " < ";
    case LtE: return " <= ";
    case Gt: return " > ";
    case GtE: return " >= ";
    case Is: return " is ";
    case IsNot: return " is not ";
    case In: return " in ";
    case NotIn: return " not in ";
    }
    return " ? ";
}

static int
unparse_expr(unparser *u, expr_ty e, int level)
{
    if (++u->depth > _Py_COMPILE_MAX_DEPTH) {
        PyErr_SetString(PyExc_RecursionError,
                        "maximum recursion depth exceeded during compilation");
        return -1;
    }
    int r = 0;
#define OPEN(pr) do { if (level > (pr)) { UP(up_str(u, "(")); } } while (0)
#define CLOSE(pr) do { if (level > (pr)) { UP(up_str(u, ")")); } } while (0)
    switch (e->kind) {
    case BoolOp_kind: {
        int pr = e->v.BoolOp.op == And ? PR_AND : PR_OR;
        OPEN(pr);
        for (Py_ssize_t i = 0; i < asdl_seq_LEN(e->v.BoolOp.values); i++) {
            if (i) {
                UP(up_str(u, pr == PR_AND ? " and " : " or "));
            }
            UP(unparse_expr(u, asdl_seq_GET(e->v.BoolOp.values, i), pr + 1));
        }
        CLOSE(pr);
        break;
    }
    case BinOp_kind: {
        int pr, rassoc;
        const char *op = binop_text(e->v.BinOp.op, &pr, &rassoc);
        OPEN(pr);
        UP(unparse_expr(u, e->v.BinOp.left, pr + rassoc));
        UP(up_str(u, op));
        UP(unparse_expr(u, e->v.BinOp.right, pr + !rassoc));
        CLOSE(pr);
        break;
    }
    case UnaryOp_kind: {
        int pr = e->v.UnaryOp.op == Not ? PR_NOT : PR_FACTOR;
        const char *op = e->v.UnaryOp.op == Not ? "not " : e->v.UnaryOp.op == Invert ? "~"
                       : e->v.UnaryOp.op == UAdd ? "+" : "-";
        OPEN(pr);
        UP(up_str(u, op));
        UP(unparse_expr(u, e->v.UnaryOp.operand, pr));
        CLOSE(pr);
        break;
    }
    case Lambda_kind:
        OPEN(PR_TEST);
        if (asdl_seq_LEN(e->v.Lambda.args->args) || asdl_seq_LEN(e->v.Lambda.args->posonlyargs) ||
            e->v.Lambda.args->vararg || asdl_seq_LEN(e->v.Lambda.args->kwonlyargs) ||
            e->v.Lambda.args->kwarg) {
            UP(up_str(u, "lambda "));
            UP(unparse_arguments(u, e->v.Lambda.args));
        }
        else {
            UP(up_str(u, "lambda"));
        }
        UP(up_str(u, ": "));
        UP(unparse_expr(u, e->v.Lambda.body, PR_TEST));
        CLOSE(PR_TEST);
        break;
    case IfExp_kind:
        OPEN(PR_TEST);
        UP(unparse_expr(u, e->v.IfExp.body, PR_TEST + 1));
        UP(up_str(u, " if "));
        UP(unparse_expr(u, e->v.IfExp.test, PR_TEST + 1));
        UP(up_str(u, " else "));
        UP(unparse_expr(u, e->v.IfExp.orelse, PR_TEST));
        CLOSE(PR_TEST);
        break;
    case Dict_kind:
        UP(up_str(u, "{"));
        for (Py_ssize_t i = 0; i < asdl_seq_LEN(e->v.Dict.values); i++) {
            if (i) {
                UP(up_str(u, ", "));
            }
            expr_ty k = asdl_seq_GET(e->v.Dict.keys, i);
            if (k) {
                UP(unparse_expr(u, k, PR_TEST));
                UP(up_str(u, ": "));
                UP(unparse_expr(u, asdl_seq_GET(e->v.Dict.values, i), PR_TEST));
            }
            else {
                UP(up_str(u, "**"));
                UP(unparse_expr(u, asdl_seq_GET(e->v.Dict.values, i), PR_EXPR));
            }
        }
        UP(up_str(u, "}"));
        break;
    case Set_kind:
        if (asdl_seq_LEN(e->v.Set.elts) == 0) {
            UP(up_str(u, "{*()}"));
            break;
        }
        UP(up_str(u, "{"));
        UP(unparse_seq(u, e->v.Set.elts, PR_TEST));
        UP(up_str(u, "}"));
        break;
    case ListComp_kind:
    case SetComp_kind:
    case GeneratorExp_kind: {
        const char *open = e->kind == ListComp_kind ? "[" : e->kind == SetComp_kind ? "{" : "(";
        const char *close = e->kind == ListComp_kind ? "]" : e->kind == SetComp_kind ? "}" : ")";
        UP(up_str(u, open));
        UP(unparse_expr(u, e->v.ListComp.elt, PR_TEST));
        UP(unparse_comprehensions(u, e->v.ListComp.generators));
        UP(up_str(u, close));
        break;
    }
    case DictComp_kind:
        UP(up_str(u, "{"));
        UP(unparse_expr(u, e->v.DictComp.key, PR_TEST));
        UP(up_str(u, ": "));
        UP(unparse_expr(u, e->v.DictComp.value, PR_TEST));
        UP(unparse_comprehensions(u, e->v.DictComp.generators));
        UP(up_str(u, "}"));
        break;
    case Await_kind:
        OPEN(PR_AWAIT);
        UP(up_str(u, "await "));
        UP(unparse_expr(u, e->v.Await.value, PR_ATOM));
        CLOSE(PR_AWAIT);
        break;
    case Yield_kind:
        UP(up_str(u, e->v.Yield.value ? "(yield " : "(yield"));
        if (e->v.Yield.value) {
            UP(unparse_expr(u, e->v.Yield.value, PR_TEST));
        }
        UP(up_str(u, ")"));
        break;
    case YieldFrom_kind:
        UP(up_str(u, "(yield from "));
        UP(unparse_expr(u, e->v.YieldFrom.value, PR_TEST));
        UP(up_str(u, ")"));
        break;
    case Compare_kind:
        OPEN(PR_CMP);
        UP(unparse_expr(u, e->v.Compare.left, PR_CMP + 1));
        for (Py_ssize_t i = 0; i < asdl_seq_LEN(e->v.Compare.ops); i++) {
            UP(up_str(u, cmpop_text((cmpop_ty)asdl_seq_GET(e->v.Compare.ops, i))));
            UP(unparse_expr(u, asdl_seq_GET(e->v.Compare.comparators, i), PR_CMP + 1));
        }
        CLOSE(PR_CMP);
        break;
    case Call_kind: {
        UP(unparse_expr(u, e->v.Call.func, PR_ATOM));
        Py_ssize_t nargs = asdl_seq_LEN(e->v.Call.args);
        if (nargs == 1 && asdl_seq_LEN(e->v.Call.keywords) == 0 &&
            asdl_seq_GET(e->v.Call.args, 0)->kind == GeneratorExp_kind) {
            UP(unparse_expr(u, asdl_seq_GET(e->v.Call.args, 0), PR_TEST));
            break;
        }
        UP(up_str(u, "("));
        int first = 1;
        for (Py_ssize_t i = 0; i < nargs; i++) {
            if (!first) {
                UP(up_str(u, ", "));
            }
            first = 0;
            UP(unparse_expr(u, asdl_seq_GET(e->v.Call.args, i), PR_TEST));
        }
        for (Py_ssize_t i = 0; i < asdl_seq_LEN(e->v.Call.keywords); i++) {
            keyword_ty kw = asdl_seq_GET(e->v.Call.keywords, i);
            if (!first) {
                UP(up_str(u, ", "));
            }
            first = 0;
            if (kw->arg) {
                UP(up_obj(u, kw->arg));
                UP(up_str(u, "="));
            }
            else {
                UP(up_str(u, "**"));
            }
            UP(unparse_expr(u, kw->value, PR_TEST));
        }
        UP(up_str(u, ")"));
        break;
    }
    case FormattedValue_kind:
    case JoinedStr_kind:
        if (e->kind == JoinedStr_kind) {
            UP(unparse_joined_str(u, e));
        }
        else {
            UP(unparse_formatted(u, e));
        }
        break;
    case Interpolation_kind:
        UP(unparse_formatted(u, e));
        break;
    case TemplateStr_kind:
        UP(unparse_joined_str(u, e));
        break;
    case Constant_kind:
        if (e->v.Constant.kind && PyUnicode_Check(e->v.Constant.kind)) {
            UP(up_obj(u, e->v.Constant.kind));
        }
        UP(unparse_constant(u, e->v.Constant.value));
        break;
    case Attribute_kind: {
        expr_ty v = e->v.Attribute.value;
        UP(unparse_expr(u, v, PR_ATOM));
        /* `1 .real`: a dot right after an int would make a float */
        if (v->kind == Constant_kind && PyLong_CheckExact(v->v.Constant.value)) {
            UP(up_str(u, " ."));
        }
        else {
            UP(up_str(u, "."));
        }
        UP(up_obj(u, e->v.Attribute.attr));
        break;
    }
    case Subscript_kind:
        UP(unparse_expr(u, e->v.Subscript.value, PR_ATOM));
        UP(up_str(u, "["));
        UP(unparse_slice(u, e->v.Subscript.slice));
        UP(up_str(u, "]"));
        break;
    case Starred_kind:
        UP(up_str(u, "*"));
        UP(unparse_expr(u, e->v.Starred.value, PR_EXPR));
        break;
    case Name_kind:
        UP(up_obj(u, e->v.Name.id));
        break;
    case List_kind:
        UP(up_str(u, "["));
        UP(unparse_seq(u, e->v.List.elts, PR_TEST));
        UP(up_str(u, "]"));
        break;
    case Tuple_kind: {
        Py_ssize_t n = asdl_seq_LEN(e->v.Tuple.elts);
        if (n == 0) {
            UP(up_str(u, "()"));
            break;
        }
        OPEN(PR_TUPLE);
        UP(unparse_seq(u, e->v.Tuple.elts, PR_TEST));
        if (n == 1) {
            UP(up_str(u, ","));
        }
        CLOSE(PR_TUPLE);
        break;
    }
    case NamedExpr_kind:
        OPEN(PR_TUPLE);
        UP(unparse_expr(u, e->v.NamedExpr.target, PR_ATOM));
        UP(up_str(u, " := "));
        UP(unparse_expr(u, e->v.NamedExpr.value, PR_ATOM));
        CLOSE(PR_TUPLE);
        break;
    case Slice_kind:
        UP(unparse_slice(u, e));
        break;
    }
#undef OPEN
#undef CLOSE
    u->depth--;
    return r;
}

/* New reference to the source text of an annotation. */
static PyObject *
annotation_string(expr_ty e)
{
    unparser u = {PyList_New(0), 0};
    if (u.parts == NULL) {
        return NULL;
    }
    if (unparse_expr(&u, e, PR_TEST) < 0) {
        Py_DECREF(u.parts);
        return NULL;
    }
    PyObject *empty = PyUnicode_FromString("");
    PyObject *text = empty ? PyUnicode_Join(empty, u.parts) : NULL;
    Py_XDECREF(empty);
    Py_DECREF(u.parts);
    return text;
}

#undef UP

/* PEP 649: build the function's __annotate__ (MAKE_FUNCTION_ANNOTATE), or
   with `from __future__ import annotations` a tuple of name/string pairs
   (MAKE_FUNCTION_ANNOTATIONS).  Returns the flag, 0 for none, -1 on
   error. */
static int
codegen_annotations(compiler *c, location loc, arguments_ty args, expr_ty returns)
{
    if (!_PySymtable_FunctionHasAnnotations(args, returns)) {
        return 0;
    }
    if (c->c_future.ff_features & CO_FUTURE_ANNOTATIONS) {
        Py_ssize_t n = 0;
        RETURN_IF_ERROR(codegen_annotations_in_scope(c, args, returns, &n));
        ADDOP_I(c, loc, BUILD_TUPLE, n * 2);
        return MAKE_FUNCTION_ANNOTATIONS;
    }
    PyObject *name = intern_str("__annotate__");
    if (name == NULL) {
        return -1;
    }
    int r = setup_annotations_scope(c, loc, (void *)args, name);
    Py_DECREF(name);
    RETURN_IF_ERROR(r);
    Py_ssize_t n = 0;
    if (codegen_annotations_in_scope(c, args, returns, &n) < 0) {
        _PyCompile_ExitScope(c);
        return -1;
    }
    RETURN_IF_ERROR(leave_annotations_scope(c, loc, n));
    return MAKE_FUNCTION_ANNOTATE;
}

static int
codegen_deferred_annotations(compiler *c, location loc)
{
    PyObject *anns = Py_NewRef(c->u->u_deferred_annotations);
    PyObject *conds = Py_XNewRef(c->u->u_conditional_annotation_indices);
    int is_class = STE(c)->ste_type == ClassBlock;
    void *key = (void *)((uintptr_t)PyLong_AsVoidPtr(STE(c)->ste_id) + 1);
    PyObject *name = intern_str("__annotate__");
    int r = -1;
    if (name == NULL || setup_annotations_scope(c, loc, key, name) < 0) {
        goto done;
    }
    if (addop_i(c, loc, BUILD_MAP, 0) < 0) {
        _PyCompile_ExitScope(c);
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(anns); i++) {
        stmt_ty st = PyLong_AsVoidPtr(PyList_GET_ITEM(anns, i));
        location sloc = LOC(st);
        long idx = conds ? PyLong_AsLong(PyList_GET_ITEM(conds, i)) : -1;
        int not_set = _PyInstructionSequence_NewLabel(SEQ(c));
        int ok = 0;
        PyObject *mangled = _Py_MaybeMangle(c->u->u_private, STE(c),
                                            st->v.AnnAssign.target->v.Name.id);
        if (mangled == NULL) {
            _PyCompile_ExitScope(c);
            goto done;
        }
        if (idx != -1) {
            PyObject *ca = intern_str("__conditional_annotations__");
            ok = ca != NULL && addop_load_const(c, sloc, PyList_GET_ITEM(conds, i)) == 0;
            if (ok) {
                if (is_class) {
                    Py_ssize_t fi = _PyCompile_DictAddObj(METADATA(c)->u_freevars, ca);
                    ok = fi >= 0 && addop_i(c, sloc, LOAD_DEREF, fi) == 0;
                }
                else {
                    ok = addop_name(c, sloc, LOAD_GLOBAL, ca, METADATA(c)->u_names, 0) == 0;
                }
            }
            Py_XDECREF(ca);
            ok = ok && addop_i(c, sloc, CONTAINS_OP, 0) == 0 &&
                 addop_j(c, sloc, POP_JUMP_IF_FALSE, not_set) == 0;
        }
        else {
            ok = 1;
        }
        ok = ok && codegen_visit_expr(c, st->v.AnnAssign.annotation) == 0 &&
             addop_i(c, sloc, COPY, 2) == 0 && addop_load_const(c, sloc, mangled) == 0 &&
             addop_noarg(c, sloc, STORE_SUBSCR) == 0 &&
             _PyInstructionSequence_UseLabel(SEQ(c), not_set) == 0;
        Py_DECREF(mangled);
        if (!ok) {
            _PyCompile_ExitScope(c);
            goto done;
        }
    }
    if (addop_noarg(c, loc, RETURN_VALUE) < 0) {
        _PyCompile_ExitScope(c);
        goto done;
    }
    PyCodeObject *co = _PyCompile_OptimizeAndAssemble(c, 0);
    _PyCompile_ExitScope(c);
    if (co == NULL) {
        goto done;
    }
    r = make_closure(c, loc, co, 0);
    Py_DECREF(co);
    if (r == 0) {
        r = codegen_nameop_str(c, loc, is_class ? "__annotate_func__" : "__annotate__", Store);
    }
done:
    Py_XDECREF(name);
    Py_DECREF(anns);
    Py_XDECREF(conds);
    return r;
}

/* ---- PEP 695 type parameters ------------------------------------------ */

static int
codegen_type_param_bound_or_default(compiler *c, expr_ty e, PyObject *name, void *key,
                                    int allow_starred)
{
    PyObject *defaults = PyTuple_Pack(1, PyLong_FromLong(1));
    if (defaults == NULL) {
        return -1;
    }
    Py_DECREF(PyTuple_GET_ITEM(defaults, 0));   /* the tuple holds it */
    ADDOP_LOAD_CONST_NEW(c, LOC(e), defaults);
    RETURN_IF_ERROR(setup_annotations_scope(c, LOC(e), key, name));
    if (allow_starred && e->kind == Starred_kind) {
        VISIT_IN_SCOPE(c, expr, e->v.Starred.value);
        RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, LOC(e), UNPACK_SEQUENCE, 1));
    }
    else {
        VISIT_IN_SCOPE(c, expr, e);
    }
    RETURN_IF_ERROR_IN_SCOPE(c, addop_noarg(c, LOC(e), RETURN_VALUE));
    PyCodeObject *co = _PyCompile_OptimizeAndAssemble(c, 0);
    _PyCompile_ExitScope(c);
    if (co == NULL) {
        return -1;
    }
    int r = make_closure(c, LOC(e), co, MAKE_FUNCTION_DEFAULTS);
    Py_DECREF(co);
    return r;
}

static int
codegen_type_params(compiler *c, asdl_type_param_seq *tps)
{
    Py_ssize_t n = asdl_seq_LEN(tps);
    int seen_default = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        type_param_ty tp = asdl_seq_GET(tps, i);
        location loc = LOC(tp);
        PyObject *name;
        expr_ty dflt;
        switch (tp->kind) {
        case TypeVar_kind:
            name = tp->v.TypeVar.name;
            dflt = tp->v.TypeVar.default_value;
            ADDOP_LOAD_CONST(c, loc, name);
            if (tp->v.TypeVar.bound) {
                expr_ty bound = tp->v.TypeVar.bound;
                RETURN_IF_ERROR(codegen_type_param_bound_or_default(c, bound, name,
                                                                    (void *)tp, 0));
                ADDOP_I(c, loc, CALL_INTRINSIC_2,
                        bound->kind == Tuple_kind ? INTRINSIC_TYPEVAR_WITH_CONSTRAINTS
                                                  : INTRINSIC_TYPEVAR_WITH_BOUND);
            }
            else {
                ADDOP_I(c, loc, CALL_INTRINSIC_1, INTRINSIC_TYPEVAR);
            }
            break;
        case TypeVarTuple_kind:
            name = tp->v.TypeVarTuple.name;
            dflt = tp->v.TypeVarTuple.default_value;
            ADDOP_LOAD_CONST(c, loc, name);
            ADDOP_I(c, loc, CALL_INTRINSIC_1, INTRINSIC_TYPEVARTUPLE);
            break;
        default:
            name = tp->v.ParamSpec.name;
            dflt = tp->v.ParamSpec.default_value;
            ADDOP_LOAD_CONST(c, loc, name);
            ADDOP_I(c, loc, CALL_INTRINSIC_1, INTRINSIC_PARAMSPEC);
            break;
        }
        if (dflt) {
            seen_default = 1;
            RETURN_IF_ERROR(codegen_type_param_bound_or_default(
                c, dflt, name, (void *)((uintptr_t)tp + 1), tp->kind == TypeVarTuple_kind));
            ADDOP_I(c, loc, CALL_INTRINSIC_2, INTRINSIC_SET_TYPEPARAM_DEFAULT);
        }
        else if (seen_default) {
            return codegen_error(c, loc, "non-default type parameter '%U' "
                                 "follows default type parameter", name);
        }
        ADDOP_I(c, loc, COPY, 1);
        RETURN_IF_ERROR(codegen_nameop(c, loc, name, Store));
    }
    ADDOP_I(c, LOC(asdl_seq_GET(tps, 0)), BUILD_TUPLE, n);
    return 0;
}

static int
codegen_function_body(compiler *c, stmt_ty s, int is_async, Py_ssize_t funcflags,
                      int firstlineno)
{
    arguments_ty args = s->v.FunctionDef.args;
    asdl_stmt_seq *body = s->v.FunctionDef.body;
    PyObject *name = s->v.FunctionDef.name;
    _PyCompile_CodeUnitMetadata umd = {
        .u_argcount = asdl_seq_LEN(args->args),
        .u_posonlyargcount = asdl_seq_LEN(args->posonlyargs),
        .u_kwonlyargcount = asdl_seq_LEN(args->kwonlyargs),
    };
    RETURN_IF_ERROR(_PyCompile_EnterScope(c, name, is_async ? COMPILE_SCOPE_ASYNC_FUNCTION
                                                            : COMPILE_SCOPE_FUNCTION,
                                          (void *)s, firstlineno, NULL, &umd));
    Py_ssize_t first = 0;
    PyObject *doc = get_docstring(body);
    if (doc != NULL) {
        first = 1;
        if (c->c_optimize < 2) {
            PyObject *cleaned = clean_doc(doc);
            if (cleaned == NULL) {
                _PyCompile_ExitScope(c);
                return -1;
            }
            Py_ssize_t idx = _PyCompile_AddConst(c, cleaned);
            Py_DECREF(cleaned);
            if (idx < 0) {
                _PyCompile_ExitScope(c);
                return -1;
            }
            c->u->u_has_docstring = 1;
        }
    }
    for (Py_ssize_t i = first; i < asdl_seq_LEN(body); i++) {
        VISIT_IN_SCOPE(c, stmt, asdl_seq_GET(body, i));
    }
    if (STE(c)->ste_coroutine || STE(c)->ste_generator) {
        RETURN_IF_ERROR_IN_SCOPE(c, wrap_in_stopiteration_handler(c));
    }
    PyCodeObject *co = _PyCompile_OptimizeAndAssemble(c, 1);
    _PyCompile_ExitScope(c);
    if (co == NULL) {
        return -1;
    }
    int r = make_closure(c, LOC(s), co, funcflags);
    Py_DECREF(co);
    return r;
}

static int
codegen_function(compiler *c, stmt_ty s, int is_async)
{
    arguments_ty args = s->v.FunctionDef.args;
    expr_ty returns = s->v.FunctionDef.returns;
    asdl_expr_seq *decos = s->v.FunctionDef.decorator_list;
    asdl_type_param_seq *tps = s->v.FunctionDef.type_params;
    PyObject *name = s->v.FunctionDef.name;
    RETURN_IF_ERROR(codegen_decorators(c, decos));
    int firstlineno = s->lineno;
    if (asdl_seq_LEN(decos)) {
        firstlineno = asdl_seq_GET(decos, 0)->lineno;
    }
    location loc = LOC(s);
    int is_generic = asdl_seq_LEN(tps) > 0;
    int funcflags = codegen_default_arguments(c, loc, args);
    RETURN_IF_ERROR(funcflags);
    int ntp_args = 0;
    if (is_generic) {
        if (funcflags & MAKE_FUNCTION_DEFAULTS) {
            ntp_args++;
        }
        if (funcflags & MAKE_FUNCTION_KWDEFAULTS) {
            ntp_args++;
        }
        if (ntp_args == 2) {
            ADDOP_I(c, loc, SWAP, 2);
        }
        PyObject *tpname = PyUnicode_FromFormat("<generic parameters of %U>", name);
        if (tpname == NULL) {
            return -1;
        }
        _PyCompile_CodeUnitMetadata umd = {.u_argcount = ntp_args};
        int r = _PyCompile_EnterScope(c, tpname, COMPILE_SCOPE_TYPEPARAMS, (void *)tps,
                                      firstlineno, NULL, &umd);
        Py_DECREF(tpname);
        RETURN_IF_ERROR(r);
        RETURN_IF_ERROR_IN_SCOPE(c, codegen_type_params(c, tps));
        for (int i = 0; i < ntp_args; i++) {
            RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, loc, LOAD_FAST, i));
        }
    }
    int annflag = codegen_annotations(c, loc, args, returns);
    if (annflag < 0) {
        if (is_generic) {
            _PyCompile_ExitScope(c);
        }
        return -1;
    }
    funcflags |= annflag;
    if (codegen_function_body(c, s, is_async, funcflags, firstlineno) < 0) {
        if (is_generic) {
            _PyCompile_ExitScope(c);
        }
        return -1;
    }
    if (is_generic) {
        RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, loc, SWAP, 2));
        RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, loc, CALL_INTRINSIC_2,
                                            INTRINSIC_SET_FUNCTION_TYPE_PARAMS));
        RETURN_IF_ERROR_IN_SCOPE(c, addop_noarg(c, loc, RETURN_VALUE));
        PyCodeObject *co = _PyCompile_OptimizeAndAssemble(c, 0);
        _PyCompile_ExitScope(c);
        if (co == NULL) {
            return -1;
        }
        int r = make_closure(c, loc, co, 0);
        Py_DECREF(co);
        RETURN_IF_ERROR(r);
        if (ntp_args > 0) {
            ADDOP_I(c, loc, SWAP, ntp_args + 1);
            ADDOP_I(c, loc, CALL, ntp_args - 1);
        }
        else {
            ADDOP(c, loc, PUSH_NULL);
            ADDOP_I(c, loc, CALL, 0);
        }
    }
    RETURN_IF_ERROR(codegen_apply_decorators(c, decos));
    return codegen_nameop(c, loc, name, Store);
}

static int
codegen_set_type_params_in_class(compiler *c, location loc)
{
    RETURN_IF_ERROR(codegen_nameop_str(c, loc, ".type_params", Load));
    RETURN_IF_ERROR(codegen_nameop_str(c, loc, "__type_params__", Store));
    return 0;
}

static int
codegen_class_body(compiler *c, stmt_ty s, int firstlineno)
{
    RETURN_IF_ERROR(_PyCompile_EnterScope(c, s->v.ClassDef.name, COMPILE_SCOPE_CLASS,
                                          (void *)s, firstlineno, s->v.ClassDef.name, NULL));
    location loc = LOCATION(firstlineno, firstlineno, 0, 0);
    RETURN_IF_ERROR_IN_SCOPE(c, codegen_nameop_str(c, loc, "__name__", Load));
    RETURN_IF_ERROR_IN_SCOPE(c, codegen_nameop_str(c, loc, "__module__", Store));
    RETURN_IF_ERROR_IN_SCOPE(c, addop_load_const(c, loc, METADATA(c)->u_qualname));
    RETURN_IF_ERROR_IN_SCOPE(c, codegen_nameop_str(c, loc, "__qualname__", Store));
    PyObject *fl = PyLong_FromLong(firstlineno);
    if (fl == NULL) {
        _PyCompile_ExitScope(c);
        return -1;
    }
    RETURN_IF_ERROR_IN_SCOPE(c, addop_load_const_new(c, loc, fl));
    RETURN_IF_ERROR_IN_SCOPE(c, codegen_nameop_str(c, loc, "__firstlineno__", Store));
    if (asdl_seq_LEN(s->v.ClassDef.type_params) > 0) {
        RETURN_IF_ERROR_IN_SCOPE(c, codegen_set_type_params_in_class(c, loc));
    }
    if (STE(c)->ste_needs_classdict) {
        RETURN_IF_ERROR_IN_SCOPE(c, addop_noarg(c, loc, LOAD_LOCALS));
        PyObject *n = intern_str("__classdict__");
        Py_ssize_t idx = n ? closure_index(c, n) : -1;
        Py_XDECREF(n);
        if (idx < 0) {
            _PyCompile_ExitScope(c);
            return -1;
        }
        RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, loc, STORE_DEREF, idx));
    }
    RETURN_IF_ERROR_IN_SCOPE(c, codegen_body(c, loc, s->v.ClassDef.body, 0));
    /* __static_attributes__: names assigned as self.X in methods */
    {
        PyObject *list = PySequence_List(c->u->u_static_attributes);
        if (list == NULL || PyList_Sort(list) < 0) {
            Py_XDECREF(list);
            _PyCompile_ExitScope(c);
            return -1;
        }
        PyObject *tup = PyList_AsTuple(list);
        Py_DECREF(list);
        RETURN_IF_ERROR_IN_SCOPE(c, addop_load_const_new(c, NO_LOCATION, tup));
        RETURN_IF_ERROR_IN_SCOPE(c, codegen_nameop_str(c, NO_LOCATION,
                                                       "__static_attributes__", Store));
    }
    if (STE(c)->ste_needs_classdict) {
        PyObject *n = intern_str("__classdict__");
        Py_ssize_t idx = n ? closure_index(c, n) : -1;
        Py_XDECREF(n);
        if (idx < 0) {
            _PyCompile_ExitScope(c);
            return -1;
        }
        RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, NO_LOCATION, LOAD_CLOSURE, idx));
        RETURN_IF_ERROR_IN_SCOPE(c, codegen_nameop_str(c, NO_LOCATION,
                                                       "__classdictcell__", Store));
    }
    if (STE(c)->ste_needs_class_closure) {
        PyObject *n = intern_str("__class__");
        Py_ssize_t idx = n ? closure_index(c, n) : -1;
        Py_XDECREF(n);
        if (idx < 0) {
            _PyCompile_ExitScope(c);
            return -1;
        }
        RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, NO_LOCATION, LOAD_CLOSURE, idx));
        RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, NO_LOCATION, COPY, 1));
        RETURN_IF_ERROR_IN_SCOPE(c, codegen_nameop_str(c, NO_LOCATION, "__classcell__", Store));
    }
    else {
        RETURN_IF_ERROR_IN_SCOPE(c, addop_load_const(c, NO_LOCATION, Py_None));
    }
    RETURN_IF_ERROR_IN_SCOPE(c, addop_noarg(c, NO_LOCATION, RETURN_VALUE));
    PyCodeObject *co = _PyCompile_OptimizeAndAssemble(c, 0);
    _PyCompile_ExitScope(c);
    if (co == NULL) {
        return -1;
    }
    location sloc = LOC(s);
    ADDOP(c, sloc, LOAD_BUILD_CLASS);
    ADDOP(c, sloc, PUSH_NULL);
    int r = make_closure(c, sloc, co, 0);
    Py_DECREF(co);
    RETURN_IF_ERROR(r);
    ADDOP_LOAD_CONST(c, sloc, s->v.ClassDef.name);
    return 0;
}

static int
codegen_class(compiler *c, stmt_ty s)
{
    asdl_expr_seq *decos = s->v.ClassDef.decorator_list;
    RETURN_IF_ERROR(codegen_decorators(c, decos));
    int firstlineno = s->lineno;
    if (asdl_seq_LEN(decos)) {
        firstlineno = asdl_seq_GET(decos, 0)->lineno;
    }
    location loc = LOC(s);
    asdl_type_param_seq *tps = s->v.ClassDef.type_params;
    int is_generic = asdl_seq_LEN(tps) > 0;
    if (is_generic) {
        PyObject *tpname = PyUnicode_FromFormat("<generic parameters of %U>",
                                                s->v.ClassDef.name);
        if (tpname == NULL) {
            return -1;
        }
        int r = _PyCompile_EnterScope(c, tpname, COMPILE_SCOPE_TYPEPARAMS, (void *)tps,
                                      firstlineno, s->v.ClassDef.name, NULL);
        Py_DECREF(tpname);
        RETURN_IF_ERROR(r);
        RETURN_IF_ERROR_IN_SCOPE(c, codegen_type_params(c, tps));
        RETURN_IF_ERROR_IN_SCOPE(c, codegen_nameop_str(c, loc, ".type_params", Store));
    }
    if (codegen_class_body(c, s, firstlineno) < 0) {
        if (is_generic) {
            _PyCompile_ExitScope(c);
        }
        return -1;
    }
    if (is_generic) {
        RETURN_IF_ERROR_IN_SCOPE(c, codegen_nameop_str(c, loc, ".type_params", Load));
        RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, loc, CALL_INTRINSIC_1,
                                            INTRINSIC_SUBSCRIPT_GENERIC));
        RETURN_IF_ERROR_IN_SCOPE(c, codegen_nameop_str(c, loc, ".generic_base", Store));
        Py_ssize_t nbases = asdl_seq_LEN(s->v.ClassDef.bases);
        asdl_expr_seq *bases = _Py_asdl_expr_seq_new(nbases + 1, c->c_arena);
        if (bases == NULL) {
            _PyCompile_ExitScope(c);
            return -1;
        }
        for (Py_ssize_t i = 0; i < nbases; i++) {
            asdl_seq_SET(bases, i, asdl_seq_GET(s->v.ClassDef.bases, i));
        }
        PyObject *gb = intern_str(".generic_base");
        expr_ty name_node = gb ? _PyAST_Name(gb, Load, loc.lineno, loc.col_offset,
                                             loc.end_lineno, loc.end_col_offset, c->c_arena)
                               : NULL;
        if (name_node == NULL || _PyArena_AddPyObject(c->c_arena, gb) < 0) {
            Py_XDECREF(gb);
            _PyCompile_ExitScope(c);
            return -1;
        }
        asdl_seq_SET(bases, nbases, name_node);
        RETURN_IF_ERROR_IN_SCOPE(c, codegen_call_helper(c, loc, 2, bases,
                                                        s->v.ClassDef.keywords));
        RETURN_IF_ERROR_IN_SCOPE(c, addop_noarg(c, loc, RETURN_VALUE));
        PyCodeObject *co = _PyCompile_OptimizeAndAssemble(c, 0);
        _PyCompile_ExitScope(c);
        if (co == NULL) {
            return -1;
        }
        int r = make_closure(c, loc, co, 0);
        Py_DECREF(co);
        RETURN_IF_ERROR(r);
        ADDOP(c, loc, PUSH_NULL);
        ADDOP_I(c, loc, CALL, 0);
    }
    else {
        RETURN_IF_ERROR(codegen_call_helper(c, loc, 2, s->v.ClassDef.bases,
                                            s->v.ClassDef.keywords));
    }
    RETURN_IF_ERROR(codegen_apply_decorators(c, decos));
    return codegen_nameop(c, loc, s->v.ClassDef.name, Store);
}

static int
codegen_typealias_body(compiler *c, stmt_ty s)
{
    PyObject *name = s->v.TypeAlias.name->v.Name.id;
    PyObject *defaults = PyTuple_Pack(1, PyLong_FromLong(1));
    if (defaults == NULL) {
        return -1;
    }
    Py_DECREF(PyTuple_GET_ITEM(defaults, 0));
    ADDOP_LOAD_CONST_NEW(c, LOC(s), defaults);
    RETURN_IF_ERROR(setup_annotations_scope(c, LOC(s), (void *)s, name));
    VISIT_IN_SCOPE(c, expr, s->v.TypeAlias.value);
    RETURN_IF_ERROR_IN_SCOPE(c, addop_noarg(c, LOC(s), RETURN_VALUE));
    PyCodeObject *co = _PyCompile_OptimizeAndAssemble(c, 0);
    _PyCompile_ExitScope(c);
    if (co == NULL) {
        return -1;
    }
    int r = make_closure(c, LOC(s), co, MAKE_FUNCTION_DEFAULTS);
    Py_DECREF(co);
    RETURN_IF_ERROR(r);
    ADDOP_I(c, LOC(s), BUILD_TUPLE, 3);
    ADDOP_I(c, LOC(s), CALL_INTRINSIC_1, INTRINSIC_TYPEALIAS);
    return 0;
}

static int
codegen_typealias(compiler *c, stmt_ty s)
{
    location loc = LOC(s);
    asdl_type_param_seq *tps = s->v.TypeAlias.type_params;
    int is_generic = asdl_seq_LEN(tps) > 0;
    PyObject *name = s->v.TypeAlias.name->v.Name.id;
    if (is_generic) {
        PyObject *tpname = PyUnicode_FromFormat("<generic parameters of %U>", name);
        if (tpname == NULL) {
            return -1;
        }
        int r = _PyCompile_EnterScope(c, tpname, COMPILE_SCOPE_TYPEPARAMS, (void *)tps,
                                      loc.lineno, NULL, NULL);
        Py_DECREF(tpname);
        RETURN_IF_ERROR(r);
        RETURN_IF_ERROR_IN_SCOPE(c, addop_load_const(c, loc, name));
        RETURN_IF_ERROR_IN_SCOPE(c, codegen_type_params(c, tps));
    }
    else {
        ADDOP_LOAD_CONST(c, loc, name);
        ADDOP_LOAD_CONST(c, loc, Py_None);
    }
    if (codegen_typealias_body(c, s) < 0) {
        if (is_generic) {
            _PyCompile_ExitScope(c);
        }
        return -1;
    }
    if (is_generic) {
        RETURN_IF_ERROR_IN_SCOPE(c, addop_noarg(c, loc, RETURN_VALUE));
        PyCodeObject *co = _PyCompile_OptimizeAndAssemble(c, 0);
        _PyCompile_ExitScope(c);
        if (co == NULL) {
            return -1;
        }
        int r = make_closure(c, loc, co, 0);
        Py_DECREF(co);
        RETURN_IF_ERROR(r);
        ADDOP(c, loc, PUSH_NULL);
        ADDOP_I(c, loc, CALL, 0);
    }
    return codegen_nameop(c, loc, name, Store);
}

static int
codegen_lambda(compiler *c, expr_ty e)
{
    arguments_ty args = e->v.Lambda.args;
    location loc = LOC(e);
    int funcflags = codegen_default_arguments(c, loc, args);
    RETURN_IF_ERROR(funcflags);
    _PyCompile_CodeUnitMetadata umd = {
        .u_argcount = asdl_seq_LEN(args->args),
        .u_posonlyargcount = asdl_seq_LEN(args->posonlyargs),
        .u_kwonlyargcount = asdl_seq_LEN(args->kwonlyargs),
    };
    PyObject *name = intern_str("<lambda>");
    if (name == NULL) {
        return -1;
    }
    int r = _PyCompile_EnterScope(c, name, COMPILE_SCOPE_LAMBDA, (void *)e, e->lineno,
                                  NULL, &umd);
    Py_DECREF(name);
    RETURN_IF_ERROR(r);
    VISIT_IN_SCOPE(c, expr, e->v.Lambda.body);
    PyCodeObject *co;
    if (STE(c)->ste_generator) {
        /* A generator lambda returns its body's value too (StopIteration.value). */
        RETURN_IF_ERROR_IN_SCOPE(c, addop_noarg(c, LOC(e->v.Lambda.body), RETURN_VALUE));
        RETURN_IF_ERROR_IN_SCOPE(c, wrap_in_stopiteration_handler(c));
        co = _PyCompile_OptimizeAndAssemble(c, 0);
    }
    else {
        RETURN_IF_ERROR_IN_SCOPE(c, addop_noarg(c, LOC(e->v.Lambda.body), RETURN_VALUE));
        co = _PyCompile_OptimizeAndAssemble(c, 0);
    }
    _PyCompile_ExitScope(c);
    if (co == NULL) {
        return -1;
    }
    r = make_closure(c, loc, co, funcflags);
    Py_DECREF(co);
    return r;
}

/* ---- Simple statements ------------------------------------------------- */

/* PEP 765: leaving a finally block with return/break/continue swallows
   the exception in flight; warn about it. */
static int
warn_if_exiting_finally(compiler *c, location loc, const char *what, int to_loop)
{
    for (int i = c->u->u_nfblocks - 1; i >= 0; i--) {
        enum _PyCompile_FBlockType t = c->u->u_fblock[i].fb_type;
        if (to_loop && (t == FB_WHILE_LOOP || t == FB_FOR_LOOP || t == FB_ASYNC_FOR_LOOP)) {
            return 0;
        }
        if (t == FB_FINALLY_END) {
            return codegen_warn(c, loc, "'%s' in a 'finally' block", what);
        }
    }
    return 0;
}

static int
codegen_return(compiler *c, stmt_ty s)
{
    location loc = LOC(s);
    expr_ty value = s->v.Return.value;
    int preserve_tos = value != NULL && value->kind != Constant_kind;
    if (!_PyST_IsFunctionLike(STE(c))) {
        return codegen_error(c, loc, "'return' outside function");
    }
    if (value != NULL && STE(c)->ste_coroutine && STE(c)->ste_generator) {
        return codegen_error(c, loc, "'return' with value in async generator");
    }
    RETURN_IF_ERROR(warn_if_exiting_finally(c, loc, "return", 0));
    if (preserve_tos) {
        VISIT(c, expr, value);
    }
    else if (value != NULL) {
        loc = LOC(value);
        ADDOP(c, loc, NOP);
    }
    if (value == NULL || value->lineno != s->lineno) {
        loc = LOC(s);
        ADDOP(c, loc, NOP);
    }
    RETURN_IF_ERROR(unwind_fblock_stack(c, &loc, preserve_tos, NULL));
    if (value == NULL) {
        ADDOP_LOAD_CONST(c, loc, Py_None);
    }
    else if (!preserve_tos) {
        ADDOP_LOAD_CONST(c, loc, value->v.Constant.value);
    }
    ADDOP(c, loc, RETURN_VALUE);
    return 0;
}

static int
codegen_break(compiler *c, location loc)
{
    _PyCompile_FBlockInfo *loop = NULL;
    location origin = loc;
    RETURN_IF_ERROR(warn_if_exiting_finally(c, loc, "break", 1));
    ADDOP(c, loc, NOP);
    RETURN_IF_ERROR(unwind_fblock_stack(c, &loc, 0, &loop));
    if (loop == NULL) {
        return codegen_error(c, origin, "'break' outside loop");
    }
    RETURN_IF_ERROR(unwind_fblock(c, &loc, loop, 0));
    ADDOP_JUMP(c, loc, JUMP, loop->fb_exit);
    return 0;
}

static int
codegen_continue(compiler *c, location loc)
{
    _PyCompile_FBlockInfo *loop = NULL;
    location origin = loc;
    RETURN_IF_ERROR(warn_if_exiting_finally(c, loc, "continue", 1));
    ADDOP(c, loc, NOP);
    RETURN_IF_ERROR(unwind_fblock_stack(c, &loc, 0, &loop));
    if (loop == NULL) {
        return codegen_error(c, origin, "'continue' not properly in loop");
    }
    ADDOP_JUMP(c, loc, JUMP, loop->fb_block);
    return 0;
}

static int
codegen_stmt_expr(compiler *c, location loc, expr_ty value)
{
    /* the interactive prompt echoes top-level expression statements */
    int echo = c->c_interactive && c->c_nestlevel <= 1;
    if (!echo && value->kind == Constant_kind) {
        /* nothing to evaluate; the NOP keeps the line for tracing */
        return addop_noarg(c, loc, NOP);
    }
    VISIT(c, expr, value);
    if (echo) {
        ADDOP_I(c, loc, CALL_INTRINSIC_1, INTRINSIC_PRINT);
    }
    return addop_noarg(c, NO_LOCATION, POP_TOP);
}

static int
codegen_assert(compiler *c, stmt_ty s)
{
    if (c->c_optimize) {
        return 0;   /* -O drops asserts */
    }
    expr_ty test = s->v.Assert.test;
    location at = LOC(s);
    /* assert (cond, "message") tests a non-empty tuple: always true */
    if (test->kind == Tuple_kind && asdl_seq_LEN(test->v.Tuple.elts) > 0) {
        RETURN_IF_ERROR(codegen_warn(c, LOC(test),
                                     "assertion is always true, perhaps remove parentheses?"));
    }
    NEW_LABEL(c, passed);
    RETURN_IF_ERROR(codegen_jump_if(c, at, test, passed, 1));
    /* AssertionError, or AssertionError(message) */
    ADDOP_I(c, at, LOAD_COMMON_CONSTANT, CONSTANT_ASSERTIONERROR);
    expr_ty message = s->v.Assert.msg;
    if (message != NULL) {
        VISIT(c, expr, message);
        ADDOP_I(c, at, CALL, 0);
    }
    ADDOP_I(c, LOC(test), RAISE_VARARGS, 1);
    USE_LABEL(c, passed);
    return 0;
}

static int
codegen_raise(compiler *c, stmt_ty s)
{
    /* raise / raise exc / raise exc from cause */
    expr_ty operands[2] = {s->v.Raise.exc, s->v.Raise.cause};
    int argc = 0;
    while (argc < 2 && operands[argc] != NULL) {
        VISIT(c, expr, operands[argc]);
        argc++;
    }
    return addop_i(c, LOC(s), RAISE_VARARGS, argc);
}

/* After IMPORT_NAME of a.b.c: IMPORT_FROM each later component in turn,
   the submodule replacing its parent on the stack. */
static int
import_submodule_chain(compiler *c, location loc, PyObject *components)
{
    Py_ssize_t count = PyList_GET_SIZE(components);
    for (Py_ssize_t k = 1; k < count; k++) {
        if (k > 1) {
            EMIT_STEPS(c, loc, {SWAP, 2}, {POP_TOP, 0});
        }
        ADDOP_NAME(c, loc, IMPORT_FROM, PyList_GET_ITEM(components, k), names);
    }
    return 0;
}

/* import a.b.c as d binds d to the innermost module a.b.c. */
static int
codegen_import_as(compiler *c, location loc, PyObject *name, PyObject *asname)
{
    Py_ssize_t dot = PyUnicode_FindChar(name, '.', 0, PyUnicode_GET_LENGTH(name), 1);
    if (dot == -2) {
        return -1;
    }
    if (dot == -1) {
        return codegen_nameop(c, loc, asname, Store);
    }
    PyObject *separator = PyUnicode_FromOrdinal('.');
    if (separator == NULL) {
        return -1;
    }
    PyObject *components = PyUnicode_Split(name, separator, -1);
    Py_DECREF(separator);
    if (components == NULL) {
        return -1;
    }
    int r = import_submodule_chain(c, loc, components);
    Py_DECREF(components);
    RETURN_IF_ERROR(r);
    RETURN_IF_ERROR(codegen_nameop(c, loc, asname, Store));
    return addop_noarg(c, loc, POP_TOP);
}

static int
codegen_import(compiler *c, stmt_ty s)
{
    location loc = LOC(s);
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(s->v.Import.names); i++) {
        alias_ty a = asdl_seq_GET(s->v.Import.names, i);
        ADDOP_I(c, loc, LOAD_SMALL_INT, 0);
        ADDOP_LOAD_CONST(c, loc, Py_None);
        ADDOP_NAME(c, loc, IMPORT_NAME, a->name, names);
        if (a->asname) {
            RETURN_IF_ERROR(codegen_import_as(c, loc, a->name, a->asname));
        }
        else {
            PyObject *tmp = a->name;
            Py_ssize_t dot = PyUnicode_FindChar(a->name, '.', 0,
                                                PyUnicode_GET_LENGTH(a->name), 1);
            if (dot == -2) {
                return -1;
            }
            if (dot != -1) {
                tmp = PyUnicode_Substring(a->name, 0, dot);
                if (tmp == NULL) {
                    return -1;
                }
                int r = codegen_nameop(c, loc, tmp, Store);
                Py_DECREF(tmp);
                RETURN_IF_ERROR(r);
            }
            else {
                RETURN_IF_ERROR(codegen_nameop(c, loc, tmp, Store));
            }
        }
    }
    return 0;
}

static int
codegen_from_import(compiler *c, stmt_ty s)
{
    location loc = LOC(s);
    asdl_alias_seq *names = s->v.ImportFrom.names;
    Py_ssize_t n = asdl_seq_LEN(names);
    ADDOP_I(c, loc, LOAD_SMALL_INT, s->v.ImportFrom.level);
    PyObject *fromlist = PyTuple_New(n);
    if (fromlist == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        alias_ty a = asdl_seq_GET(names, i);
        PyTuple_SET_ITEM(fromlist, i, Py_NewRef(a->name));
    }
    PyObject *module = s->v.ImportFrom.module;
    if (module != NULL && s->lineno > c->c_future.ff_lineno &&
        PyUnicode_CompareWithASCIIString(module, "__future__") == 0) {
        Py_DECREF(fromlist);
        return codegen_error(c, loc,
                             "from __future__ imports must occur at the beginning of the file");
    }
    ADDOP_LOAD_CONST_NEW(c, loc, fromlist);
    if (module) {
        ADDOP_NAME(c, loc, IMPORT_NAME, module, names);
    }
    else {
        PyObject *empty = PyUnicode_FromString("");
        ADDOP_N(c, loc, IMPORT_NAME, empty, names);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        alias_ty a = asdl_seq_GET(names, i);
        if (i == 0 && PyUnicode_READ_CHAR(a->name, 0) == '*') {
            ADDOP_I(c, loc, CALL_INTRINSIC_1, INTRINSIC_IMPORT_STAR);
            ADDOP(c, NO_LOCATION, POP_TOP);
            return 0;
        }
        ADDOP_NAME(c, loc, IMPORT_FROM, a->name, names);
        RETURN_IF_ERROR(codegen_nameop(c, loc, a->asname ? a->asname : a->name, Store));
    }
    ADDOP(c, loc, POP_TOP);
    return 0;
}

static int
is_two_element_slice(expr_ty s)
{
    return s->kind == Slice_kind && s->v.Slice.step == NULL;
}

/* Push the bounds of a slice; returns the number pushed. */
static int
codegen_slice_parts(compiler *c, expr_ty s)
{
    /* lower and upper always (None when absent), step only when given */
    expr_ty parts[3] = {s->v.Slice.lower, s->v.Slice.upper, s->v.Slice.step};
    int count = parts[2] != NULL ? 3 : 2;
    for (int k = 0; k < count; k++) {
        if (parts[k] != NULL) {
            VISIT(c, expr, parts[k]);
        }
        else {
            RETURN_IF_ERROR(emit_none(c, LOC(s)));
        }
    }
    return count;
}

static location
attr_location(expr_ty e)
{
    location loc = LOC(e);
    /* for an attribute on a later line than its object, point at the
       attribute name itself */
    if (e->lineno != e->end_lineno) {
        Py_ssize_t len = PyUnicode_GET_LENGTH(e->v.Attribute.attr);
        loc.lineno = e->end_lineno;
        if (e->end_col_offset >= len) {
            loc.col_offset = e->end_col_offset - (int)len;
        }
    }
    return loc;
}

/* target op= value: the target's current value is loaded with whatever
   its store needs (object, or container and key or bounds) kept below it,
   the operation runs in place, and the result is buried under those
   operands for the store. */
static int
codegen_augassign(compiler *c, stmt_ty s)
{
    expr_ty target = s->v.AugAssign.target;
    location tloc = LOC(target);
    int bounds = target->kind == Subscript_kind &&
                 is_two_element_slice(target->v.Subscript.slice);

    if (target->kind == Name_kind) {
        RETURN_IF_ERROR(codegen_nameop(c, tloc, target->v.Name.id, Load));
    }
    else if (target->kind == Attribute_kind) {
        VISIT(c, expr, target->v.Attribute.value);
        ADDOP_I(c, tloc, COPY, 1);
        ADDOP_NAME(c, attr_location(target), LOAD_ATTR, target->v.Attribute.attr, names);
    }
    else if (target->kind == Subscript_kind) {
        VISIT(c, expr, target->v.Subscript.value);
        if (bounds) {
            RETURN_IF_ERROR(codegen_slice_parts(c, target->v.Subscript.slice));
            RETURN_IF_ERROR(emit_dup_top(c, tloc, 3));
            ADDOP(c, tloc, BINARY_SLICE);
        }
        else {
            VISIT(c, expr, target->v.Subscript.slice);
            RETURN_IF_ERROR(emit_dup_top(c, tloc, 2));
            ADDOP_I(c, tloc, BINARY_OP, NB_SUBSCR);
        }
    }
    else {
        PyErr_Format(PyExc_SystemError, "invalid node type (%d) for augmented assignment",
                     target->kind);
        return -1;
    }

    VISIT(c, expr, s->v.AugAssign.value);
    ADDOP_INPLACE(c, LOC(s), s->v.AugAssign.op);

    if (target->kind == Name_kind) {
        return codegen_nameop(c, tloc, target->v.Name.id, Store);
    }
    if (target->kind == Attribute_kind) {
        location aloc = attr_location(target);
        ADDOP_I(c, aloc, SWAP, 2);
        ADDOP_NAME(c, aloc, STORE_ATTR, target->v.Attribute.attr, names);
        return 0;
    }
    RETURN_IF_ERROR(emit_bury_top(c, tloc, bounds ? 4 : 3));
    return addop_noarg(c, tloc, bounds ? STORE_SLICE : STORE_SUBSCR);
}

static int
codegen_annassign(compiler *c, stmt_ty s)
{
    location loc = LOC(s);
    expr_ty targ = s->v.AnnAssign.target;
    int future_annotations = c->c_future.ff_features & CO_FUTURE_ANNOTATIONS;
    if (s->v.AnnAssign.value) {
        VISIT(c, expr, s->v.AnnAssign.value);
        VISIT(c, expr, targ);
    }
    switch (targ->kind) {
    case Name_kind:
        if (future_annotations && s->v.AnnAssign.simple &&
            (c->u->u_scope_type == COMPILE_SCOPE_MODULE ||
             c->u->u_scope_type == COMPILE_SCOPE_CLASS)) {
            ADDOP_LOAD_CONST_NEW(c, loc, annotation_string(s->v.AnnAssign.annotation));
            RETURN_IF_ERROR(codegen_nameop_str(c, loc, "__annotations__", Load));
            PyObject *mangled = _Py_MaybeMangle(c->u->u_private, STE(c), targ->v.Name.id);
            ADDOP_LOAD_CONST_NEW(c, loc, mangled);
            ADDOP(c, loc, STORE_SUBSCR);
            break;
        }
        if (s->v.AnnAssign.simple &&
            (c->u->u_scope_type == COMPILE_SCOPE_MODULE ||
             c->u->u_scope_type == COMPILE_SCOPE_CLASS) && !future_annotations) {
            if (c->u->u_deferred_annotations == NULL) {
                c->u->u_deferred_annotations = PyList_New(0);
                c->u->u_conditional_annotation_indices = PyList_New(0);
                if (c->u->u_deferred_annotations == NULL ||
                    c->u->u_conditional_annotation_indices == NULL) {
                    return -1;
                }
            }
            PyObject *ptr = PyLong_FromVoidPtr((void *)s);
            if (ptr == NULL) {
                return -1;
            }
            int r = PyList_Append(c->u->u_deferred_annotations, ptr);
            Py_DECREF(ptr);
            RETURN_IF_ERROR(r);
            long idx = -1;
            if (STE(c)->ste_has_conditional_annotations) {
                idx = c->u->u_next_conditional_annotation_index++;
                PyObject *index = PyLong_FromLong(idx);
                RETURN_IF_ERROR(conditional_annotations_op(c, loc, 0));
                ADDOP_LOAD_CONST_NEW(c, loc, index);
                ADDOP_I(c, loc, SET_ADD, 1);
                ADDOP(c, loc, POP_TOP);
            }
            PyObject *pidx = PyLong_FromLong(idx);
            if (pidx == NULL) {
                return -1;
            }
            r = PyList_Append(c->u->u_conditional_annotation_indices, pidx);
            Py_DECREF(pidx);
            RETURN_IF_ERROR(r);
        }
        break;
    case Attribute_kind:
        if (!s->v.AnnAssign.value) {
            VISIT(c, expr, targ->v.Attribute.value);
            ADDOP(c, loc, POP_TOP);
        }
        break;
    case Subscript_kind:
        if (!s->v.AnnAssign.value) {
            VISIT(c, expr, targ->v.Subscript.value);
            ADDOP(c, loc, POP_TOP);
            expr_ty sl = targ->v.Subscript.slice;
            if (sl->kind == Slice_kind) {
                if (sl->v.Slice.lower) {
                    VISIT(c, expr, sl->v.Slice.lower);
                    ADDOP(c, loc, POP_TOP);
                }
                if (sl->v.Slice.upper) {
                    VISIT(c, expr, sl->v.Slice.upper);
                    ADDOP(c, loc, POP_TOP);
                }
                if (sl->v.Slice.step) {
                    VISIT(c, expr, sl->v.Slice.step);
                    ADDOP(c, loc, POP_TOP);
                }
            }
            else {
                VISIT(c, expr, sl);
                ADDOP(c, loc, POP_TOP);
            }
        }
        break;
    default:
        PyErr_Format(PyExc_SystemError, "invalid node type (%d) for annotated assignment",
                     targ->kind);
        return -1;
    }
    return 0;
}

/* ---- Compound statements ----------------------------------------------- */
static int
codegen_if(compiler *c, stmt_ty s)
{
    asdl_stmt_seq *orelse = s->v.If.orelse;
    int has_else = asdl_seq_LEN(orelse) > 0;
    NEW_LABEL(c, after);
    /* a false test skips the body: to the else branch, or past everything */
    int when_false = after;
    if (has_else) {
        when_false = _PyInstructionSequence_NewLabel(SEQ(c));
    }
    RETURN_IF_ERROR(codegen_jump_if(c, LOC(s), s->v.If.test, when_false, 0));
    VISIT_SEQ(c, stmt, s->v.If.body);
    if (has_else) {
        ADDOP_JUMP(c, NO_LOCATION, JUMP, after);
        USE_LABEL(c, when_false);
        VISIT_SEQ(c, stmt, orelse);
    }
    USE_LABEL(c, after);
    return 0;
}

/* Shared by both for loops: bind the item, run the body, go back for the
   next item. */
static int
loop_bind_and_run(compiler *c, expr_ty target, asdl_stmt_seq *body, int next_item)
{
    VISIT(c, expr, target);
    VISIT_SEQ(c, stmt, body);
    return addop_j(c, NO_LOCATION, JUMP, next_item);
}

/* The else clause of a loop, then the label break jumps to. */
static int
loop_else_and_exit(compiler *c, asdl_stmt_seq *orelse, int exit_label)
{
    VISIT_SEQ(c, stmt, orelse);
    USE_LABEL(c, exit_label);
    return 0;
}

/* Pushes NULL and None under an awaitable on the stack and awaits it. */
static int
emit_await_top(compiler *c, location loc)
{
    ADDOP(c, loc, PUSH_NULL);
    RETURN_IF_ERROR(emit_none(c, loc));
    return codegen_add_yield_from(c, loc, 1);
}

static int
codegen_for(compiler *c, stmt_ty s)
{
    expr_ty iterable = s->v.For.iter;
    location iter_loc = LOC(iterable);
    NEW_LABEL(c, next_item);
    NEW_LABEL(c, body);
    NEW_LABEL(c, exhausted);
    NEW_LABEL(c, loop_exit);
    RETURN_IF_ERROR(push_fblock(c, LOC(s), FB_FOR_LOOP, next_item, loop_exit, NULL));
    VISIT(c, expr, iterable);
    ADDOP_I(c, iter_loc, GET_ITER, 0);
    USE_LABEL(c, next_item);
    ADDOP_JUMP(c, iter_loc, FOR_ITER, exhausted);
    /* keeps the target's line for multi-line for statements */
    ADDOP(c, LOC(s->v.For.target), NOP);
    USE_LABEL(c, body);
    RETURN_IF_ERROR(loop_bind_and_run(c, s->v.For.target, s->v.For.body, next_item));
    USE_LABEL(c, exhausted);
    EMIT_STEPS(c, NO_LOCATION, {END_FOR, 0}, {POP_ITER, 0});
    pop_fblock(c);
    return loop_else_and_exit(c, s->v.For.orelse, loop_exit);
}

static int
is_async_allowed(compiler *c)
{
    if (c->u->u_scope_type == COMPILE_SCOPE_ASYNC_FUNCTION) {
        return 1;
    }
    if ((c->c_flags.cf_flags & PyCF_ALLOW_TOP_LEVEL_AWAIT) &&
        c->u->u_ste->ste_type == ModuleBlock) {
        return 1;
    }
    if (c->u->u_scope_type == COMPILE_SCOPE_COMPREHENSION && STE(c)->ste_coroutine) {
        return 1;
    }
    return 0;
}

static int
codegen_async_for(compiler *c, stmt_ty s)
{
    location loc = LOC(s);
    if (!is_async_allowed(c)) {
        return codegen_error(c, loc, "asynchronous for outside async function");
    }
    expr_ty iterable = s->v.AsyncFor.iter;
    NEW_LABEL(c, next_item);
    NEW_LABEL(c, on_stop);
    NEW_LABEL(c, loop_exit);
    VISIT(c, expr, iterable);
    ADDOP(c, LOC(iterable), GET_AITER);
    USE_LABEL(c, next_item);
    RETURN_IF_ERROR(push_fblock(c, loc, FB_ASYNC_FOR_LOOP, next_item, loop_exit, NULL));
    /* StopAsyncIteration from __anext__ lands on END_ASYNC_FOR */
    ADDOP_JUMP(c, loc, SETUP_FINALLY, on_stop);
    ADDOP(c, loc, GET_ANEXT);
    RETURN_IF_ERROR(emit_await_top(c, loc));
    ADDOP(c, loc, POP_BLOCK);
    RETURN_IF_ERROR(loop_bind_and_run(c, s->v.AsyncFor.target, s->v.AsyncFor.body,
                                      next_item));
    pop_fblock(c);
    USE_LABEL(c, on_stop);
    ADDOP(c, LOC(iterable), END_ASYNC_FOR);
    return loop_else_and_exit(c, s->v.AsyncFor.orelse, loop_exit);
}

static int
codegen_while(compiler *c, stmt_ty s)
{
    NEW_LABEL(c, loop);
    NEW_LABEL(c, body);
    NEW_LABEL(c, end);
    NEW_LABEL(c, anchor);
    USE_LABEL(c, loop);
    RETURN_IF_ERROR(push_fblock(c, LOC(s), FB_WHILE_LOOP, loop, end, NULL));
    RETURN_IF_ERROR(codegen_jump_if(c, LOC(s), s->v.While.test, anchor, 0));
    USE_LABEL(c, body);
    VISIT_SEQ(c, stmt, s->v.While.body);
    /* the test is repeated at the bottom so the loop needs one jump */
    RETURN_IF_ERROR(codegen_jump_if(c, LOC(s), s->v.While.test, body, 1));
    pop_fblock(c);
    USE_LABEL(c, anchor);
    VISIT_SEQ(c, stmt, s->v.While.orelse);
    USE_LABEL(c, end);
    return 0;
}

/* After WITH_EXCEPT_START: re-raise unless __exit__ returned true. */
static int
codegen_with_except_finish(compiler *c, int cleanup)
{
    NEW_LABEL(c, suppressed);
    NEW_LABEL(c, done);
    ADDOP(c, NO_LOCATION, TO_BOOL);
    ADDOP_JUMP(c, NO_LOCATION, POP_JUMP_IF_TRUE, suppressed);
    ADDOP_I(c, NO_LOCATION, RERAISE, 2);
    USE_LABEL(c, suppressed);
    /* drop the exception, leave the handler, then drop lasti,
       self_or_null and __exit__ */
    EMIT_STEPS(c, NO_LOCATION, {POP_TOP, 0}, {POP_BLOCK, 0}, {POP_EXCEPT, 0},
               {POP_TOP, 0}, {POP_TOP, 0}, {POP_TOP, 0});
    ADDOP_JUMP(c, NO_LOCATION, JUMP_NO_INTERRUPT, done);
    USE_LABEL(c, cleanup);
    RETURN_IF_ERROR(pop_except_and_reraise(c, NO_LOCATION));
    USE_LABEL(c, done);
    return 0;
}

static int
codegen_with(compiler *c, stmt_ty s, int pos, int is_async)
{
    withitem_ty item = asdl_seq_GET(s->v.With.items, pos);
    location loc = LOC(s);
    if (is_async && !is_async_allowed(c)) {
        return codegen_error(c, loc, "asynchronous with outside async function");
    }
    NEW_LABEL(c, block);
    NEW_LABEL(c, final);
    NEW_LABEL(c, exit);
    NEW_LABEL(c, cleanup);
    VISIT(c, expr, item->context_expr);
    loc = LOC(item->context_expr);
    ADDOP_I(c, loc, COPY, 1);
    ADDOP_I(c, loc, LOAD_SPECIAL, is_async ? SPECIAL___AEXIT__ : SPECIAL___EXIT__);
    ADDOP_I(c, loc, SWAP, 2);
    ADDOP_I(c, loc, SWAP, 3);
    ADDOP_I(c, loc, LOAD_SPECIAL, is_async ? SPECIAL___AENTER__ : SPECIAL___ENTER__);
    ADDOP_I(c, loc, CALL, 0);
    if (is_async) {
        ADDOP_I(c, loc, GET_AWAITABLE, 1);
        RETURN_IF_ERROR(emit_await_top(c, loc));
    }
    ADDOP_JUMP(c, loc, SETUP_WITH, final);
    USE_LABEL(c, block);
    RETURN_IF_ERROR(push_fblock(c, loc, is_async ? FB_ASYNC_WITH : FB_WITH, block, final, s));
    if (item->optional_vars) {
        VISIT(c, expr, item->optional_vars);
    }
    else {
        ADDOP(c, loc, POP_TOP);
    }
    pos++;
    if (pos == asdl_seq_LEN(s->v.With.items)) {
        VISIT_SEQ(c, stmt, s->v.With.body);
    }
    else {
        RETURN_IF_ERROR(codegen_with(c, s, pos, is_async));
    }
    ADDOP(c, NO_LOCATION, POP_BLOCK);
    pop_fblock(c);
    loc = LOC(s);
    RETURN_IF_ERROR(call_exit_with_nones(c, loc));
    if (is_async) {
        ADDOP_I(c, loc, GET_AWAITABLE, 2);
        RETURN_IF_ERROR(emit_await_top(c, loc));
    }
    ADDOP(c, loc, POP_TOP);
    ADDOP_JUMP(c, loc, JUMP, exit);
    USE_LABEL(c, final);
    ADDOP_JUMP(c, loc, SETUP_CLEANUP, cleanup);
    ADDOP(c, loc, PUSH_EXC_INFO);
    ADDOP(c, loc, WITH_EXCEPT_START);
    if (is_async) {
        ADDOP_I(c, loc, GET_AWAITABLE, 2);
        RETURN_IF_ERROR(emit_await_top(c, loc));
    }
    RETURN_IF_ERROR(codegen_with_except_finish(c, cleanup));
    USE_LABEL(c, exit);
    return 0;
}

/* The body of a try statement, with `handler` taking what it raises. */
static int
emit_protected_body(compiler *c, location loc, asdl_stmt_seq *body, int handler)
{
    NEW_LABEL(c, body_start);
    ADDOP_JUMP(c, loc, SETUP_FINALLY, handler);
    USE_LABEL(c, body_start);
    RETURN_IF_ERROR(push_fblock(c, loc, FB_TRY_EXCEPT, body_start, -1, NULL));
    VISIT_SEQ(c, stmt, body);
    pop_fblock(c);
    return addop_noarg(c, NO_LOCATION, POP_BLOCK);
}

/* Where the handlers start: the raised exception is pushed (above the
   previous one) and anything raised from here on goes to `cleanup`. */
static int
enter_handlers(compiler *c, location loc, int dispatch, int cleanup, int block_kind)
{
    USE_LABEL(c, dispatch);
    ADDOP_JUMP(c, NO_LOCATION, SETUP_CLEANUP, cleanup);
    ADDOP(c, NO_LOCATION, PUSH_EXC_INFO);
    return push_fblock(c, loc, block_kind, -1, -1, NULL);
}

/* The statements of an except clause, in a cleanup block that `name`
   (if any) is unbound by when left early. */
static int
run_handler_body(compiler *c, location hloc, asdl_stmt_seq *body, int body_start,
                 PyObject *name)
{
    USE_LABEL(c, body_start);
    RETURN_IF_ERROR(push_fblock(c, hloc, FB_HANDLER_CLEANUP, body_start, -1, name));
    VISIT_SEQ(c, stmt, body);
    pop_fblock(c);
    return addop_noarg(c, NO_LOCATION, POP_BLOCK);
}

/* `except ... as name` deletes name at the end: name = None; del name. */
static int
emit_unbind(compiler *c, PyObject *name)
{
    RETURN_IF_ERROR(emit_none(c, NO_LOCATION));
    RETURN_IF_ERROR(codegen_nameop(c, NO_LOCATION, name, Store));
    return codegen_nameop(c, NO_LOCATION, name, Del);
}

/* One except clause; the exception is on top of the stack.  When it does
   not match, control falls through to the next clause. */
static int
codegen_except_clause(compiler *c, excepthandler_ty h, int end)
{
    location hloc = LOC(h);
    expr_ty type = h->v.ExceptHandler.type;
    PyObject *name = h->v.ExceptHandler.name;
    asdl_stmt_seq *body = h->v.ExceptHandler.body;
    NEW_LABEL(c, no_match);
    if (type != NULL) {
        VISIT(c, expr, type);
        ADDOP(c, hloc, CHECK_EXC_MATCH);
        ADDOP_JUMP(c, hloc, POP_JUMP_IF_FALSE, no_match);
    }
    if (name == NULL) {
        NEW_LABEL(c, body_start);
        ADDOP(c, hloc, POP_TOP);        /* the exception is not bound */
        RETURN_IF_ERROR(run_handler_body(c, hloc, body, body_start, NULL));
        ADDOP(c, NO_LOCATION, POP_EXCEPT);
        ADDOP_JUMP(c, NO_LOCATION, JUMP, end);
    }
    else {
        NEW_LABEL(c, unbind_and_reraise);
        NEW_LABEL(c, body_start);
        RETURN_IF_ERROR(codegen_nameop(c, hloc, name, Store));
        /* the body runs in a try/finally that unbinds the name */
        ADDOP_JUMP(c, hloc, SETUP_CLEANUP, unbind_and_reraise);
        RETURN_IF_ERROR(run_handler_body(c, hloc, body, body_start, name));
        EMIT_STEPS(c, NO_LOCATION, {POP_BLOCK, 0}, {POP_EXCEPT, 0});
        RETURN_IF_ERROR(emit_unbind(c, name));
        ADDOP_JUMP(c, NO_LOCATION, JUMP, end);
        USE_LABEL(c, unbind_and_reraise);
        RETURN_IF_ERROR(emit_unbind(c, name));
        ADDOP_I(c, NO_LOCATION, RERAISE, 1);
    }
    USE_LABEL(c, no_match);
    return 0;
}

static int
codegen_try_except(compiler *c, stmt_ty s)
{
    location loc = LOC(s);
    asdl_excepthandler_seq *handlers = s->v.Try.handlers;
    Py_ssize_t nhandlers = asdl_seq_LEN(handlers);
    NEW_LABEL(c, dispatch);
    NEW_LABEL(c, end);
    NEW_LABEL(c, cleanup);
    RETURN_IF_ERROR(emit_protected_body(c, loc, s->v.Try.body, dispatch));
    VISIT_SEQ(c, stmt, s->v.Try.orelse);
    ADDOP_JUMP(c, NO_LOCATION, JUMP, end);
    RETURN_IF_ERROR(enter_handlers(c, loc, dispatch, cleanup, FB_EXCEPTION_HANDLER));
    for (Py_ssize_t k = 0; k < nhandlers; k++) {
        excepthandler_ty h = asdl_seq_GET(handlers, k);
        if (h->v.ExceptHandler.type == NULL && k + 1 < nhandlers) {
            return codegen_error(c, LOC(h), "default 'except:' must be last");
        }
        RETURN_IF_ERROR(codegen_except_clause(c, h, end));
    }
    pop_fblock(c);
    ADDOP_I(c, NO_LOCATION, RERAISE, 0);    /* no clause matched */
    USE_LABEL(c, cleanup);
    RETURN_IF_ERROR(pop_except_and_reraise(c, NO_LOCATION));
    USE_LABEL(c, end);
    return 0;
}

/* One except* clause.  Below the group being matched lie a list that
   collects what the handlers raise and the original group.  The clause
   splits off the matching part (CHECK_EG_MATCH), runs the body on it and
   passes the rest on; after the last clause the rest joins the list and
   control goes to `reraise_star`. */
static int
codegen_except_star_clause(compiler *c, excepthandler_ty h, int first, int last,
                           int reraise_star)
{
    location hloc = LOC(h);
    expr_ty type = h->v.ExceptHandler.type;
    PyObject *name = h->v.ExceptHandler.name;
    NEW_LABEL(c, handled);
    NEW_LABEL(c, pass_on);
    NEW_LABEL(c, no_match);
    if (first) {
        EMIT_STEPS(c, hloc, {BUILD_LIST, 0}, {COPY, 2});
    }
    if (type != NULL) {
        VISIT(c, expr, type);
        EMIT_STEPS(c, hloc, {CHECK_EG_MATCH, 0}, {COPY, 1});
        ADDOP_JUMP(c, hloc, POP_JUMP_IF_NONE, no_match);
    }
    NEW_LABEL(c, body_raised);
    NEW_LABEL(c, body_start);
    if (name != NULL) {
        RETURN_IF_ERROR(codegen_nameop(c, hloc, name, Store));
    }
    else {
        ADDOP(c, hloc, POP_TOP);        /* the matched part is not bound */
    }
    ADDOP_JUMP(c, hloc, SETUP_CLEANUP, body_raised);
    RETURN_IF_ERROR(run_handler_body(c, hloc, h->v.ExceptHandler.body, body_start, name));
    if (name != NULL) {
        RETURN_IF_ERROR(emit_unbind(c, name));
    }
    ADDOP_JUMP(c, NO_LOCATION, JUMP, handled);
    USE_LABEL(c, body_raised);
    if (name != NULL) {
        RETURN_IF_ERROR(emit_unbind(c, name));
    }
    /* keep what the body raised for the final group; drop lasti */
    EMIT_STEPS(c, NO_LOCATION, {LIST_APPEND, 3}, {POP_TOP, 0});
    ADDOP_JUMP(c, NO_LOCATION, JUMP_NO_INTERRUPT, pass_on);
    USE_LABEL(c, handled);
    ADDOP(c, NO_LOCATION, NOP);
    ADDOP_JUMP(c, NO_LOCATION, JUMP_NO_INTERRUPT, pass_on);
    USE_LABEL(c, no_match);
    ADDOP(c, hloc, POP_TOP);            /* the None from CHECK_EG_MATCH */
    USE_LABEL(c, pass_on);
    if (last) {
        ADDOP_I(c, NO_LOCATION, LIST_APPEND, 1);
        ADDOP_JUMP(c, NO_LOCATION, JUMP, reraise_star);
    }
    return 0;
}

/* After the except* clauses: what they raised and the unhandled rest
   make the group to re-raise; when nothing is left the statement ends. */
static int
emit_reraise_star_tail(compiler *c, int reraise_star, int end)
{
    NEW_LABEL(c, reraise);
    USE_LABEL(c, reraise_star);
    EMIT_STEPS(c, NO_LOCATION, {CALL_INTRINSIC_2, INTRINSIC_PREP_RERAISE_STAR}, {COPY, 1});
    ADDOP_JUMP(c, NO_LOCATION, POP_JUMP_IF_NOT_NONE, reraise);
    EMIT_STEPS(c, NO_LOCATION, {POP_TOP, 0}, {POP_BLOCK, 0}, {POP_EXCEPT, 0});
    ADDOP_JUMP(c, NO_LOCATION, JUMP, end);
    USE_LABEL(c, reraise);
    EMIT_STEPS(c, NO_LOCATION, {POP_BLOCK, 0}, {SWAP, 2}, {POP_EXCEPT, 0}, {RERAISE, 0});
    return 0;
}

static int
codegen_try_star_except(compiler *c, stmt_ty s)
{
    location loc = LOC(s);
    asdl_excepthandler_seq *handlers = s->v.TryStar.handlers;
    Py_ssize_t nhandlers = asdl_seq_LEN(handlers);
    NEW_LABEL(c, dispatch);
    NEW_LABEL(c, orelse);
    NEW_LABEL(c, end);
    NEW_LABEL(c, cleanup);
    NEW_LABEL(c, reraise_star);
    RETURN_IF_ERROR(emit_protected_body(c, loc, s->v.TryStar.body, dispatch));
    ADDOP_JUMP(c, NO_LOCATION, JUMP, orelse);
    RETURN_IF_ERROR(enter_handlers(c, loc, dispatch, cleanup, FB_EXCEPTION_GROUP_HANDLER));
    for (Py_ssize_t k = 0; k < nhandlers; k++) {
        RETURN_IF_ERROR(codegen_except_star_clause(c, asdl_seq_GET(handlers, k), k == 0,
                                                   k + 1 == nhandlers, reraise_star));
    }
    pop_fblock(c);
    RETURN_IF_ERROR(emit_reraise_star_tail(c, reraise_star, end));
    USE_LABEL(c, cleanup);
    RETURN_IF_ERROR(pop_except_and_reraise(c, NO_LOCATION));
    USE_LABEL(c, orelse);
    VISIT_SEQ(c, stmt, s->v.TryStar.orelse);
    USE_LABEL(c, end);
    return 0;
}

static int
codegen_try_finally(compiler *c, stmt_ty s, int star)
{
    location loc = LOC(s);
    NEW_LABEL(c, body);
    NEW_LABEL(c, end);
    NEW_LABEL(c, exit);
    NEW_LABEL(c, cleanup);
    asdl_stmt_seq *finalbody = s->v.Try.finalbody;
    ADDOP_JUMP(c, loc, SETUP_FINALLY, end);
    USE_LABEL(c, body);
    RETURN_IF_ERROR(push_fblock(c, loc, FB_FINALLY_TRY, body, end, finalbody));
    if (asdl_seq_LEN(s->v.Try.handlers)) {
        RETURN_IF_ERROR(star ? codegen_try_star_except(c, s) : codegen_try_except(c, s));
    }
    else {
        VISIT_SEQ(c, stmt, s->v.Try.body);
    }
    ADDOP(c, NO_LOCATION, POP_BLOCK);
    pop_fblock(c);
    VISIT_SEQ(c, stmt, finalbody);
    ADDOP_JUMP(c, NO_LOCATION, JUMP, exit);
    /* the finally block on the exceptional path */
    USE_LABEL(c, end);
    loc = NO_LOCATION;
    ADDOP_JUMP(c, loc, SETUP_CLEANUP, cleanup);
    ADDOP(c, loc, PUSH_EXC_INFO);
    RETURN_IF_ERROR(push_fblock(c, loc, FB_FINALLY_END, end, -1, NULL));
    VISIT_SEQ(c, stmt, finalbody);
    pop_fblock(c);
    ADDOP_I(c, loc, RERAISE, 0);
    USE_LABEL(c, cleanup);
    RETURN_IF_ERROR(pop_except_and_reraise(c, loc));
    USE_LABEL(c, exit);
    return 0;
}

static int
codegen_try(compiler *c, stmt_ty s, int star)
{
    if (asdl_seq_LEN(s->v.Try.finalbody)) {
        return codegen_try_finally(c, s, star);
    }
    return star ? codegen_try_star_except(c, s) : codegen_try_except(c, s);
}

static int codegen_match(compiler *c, stmt_ty s);

static int
codegen_visit_stmt(compiler *c, stmt_ty s)
{
    RETURN_IF_ERROR(enter_recursion(c));
    int r = 0;
    switch (s->kind) {
    case FunctionDef_kind:
        r = codegen_function(c, s, 0);
        break;
    case AsyncFunctionDef_kind:
        r = codegen_function(c, s, 1);
        break;
    case ClassDef_kind:
        r = codegen_class(c, s);
        break;
    case TypeAlias_kind:
        r = codegen_typealias(c, s);
        break;
    case Return_kind:
        r = codegen_return(c, s);
        break;
    case Delete_kind:
        for (Py_ssize_t i = 0; i < asdl_seq_LEN(s->v.Delete.targets) && r == 0; i++) {
            r = codegen_visit_expr(c, asdl_seq_GET(s->v.Delete.targets, i));
        }
        break;
    case Assign_kind: {
        Py_ssize_t n = asdl_seq_LEN(s->v.Assign.targets);
        r = codegen_visit_expr(c, s->v.Assign.value);
        for (Py_ssize_t i = 0; i < n && r == 0; i++) {
            if (i < n - 1) {
                r = addop_i(c, LOC(s), COPY, 1);
            }
            if (r == 0) {
                r = codegen_visit_expr(c, asdl_seq_GET(s->v.Assign.targets, i));
            }
        }
        break;
    }
    case AugAssign_kind:
        r = codegen_augassign(c, s);
        break;
    case AnnAssign_kind:
        r = codegen_annassign(c, s);
        break;
    case For_kind:
        r = codegen_for(c, s);
        break;
    case AsyncFor_kind:
        r = codegen_async_for(c, s);
        break;
    case While_kind:
        r = codegen_while(c, s);
        break;
    case If_kind:
        r = codegen_if(c, s);
        break;
    case With_kind:
        r = codegen_with(c, s, 0, 0);
        break;
    case AsyncWith_kind:
        r = codegen_with(c, s, 0, 1);
        break;
    case Match_kind:
        r = codegen_match(c, s);
        break;
    case Raise_kind:
        r = codegen_raise(c, s);
        break;
    case Try_kind:
        r = codegen_try(c, s, 0);
        break;
    case TryStar_kind:
        r = codegen_try(c, s, 1);
        break;
    case Assert_kind:
        r = codegen_assert(c, s);
        break;
    case Import_kind:
        r = codegen_import(c, s);
        break;
    case ImportFrom_kind:
        r = codegen_from_import(c, s);
        break;
    case Global_kind:
    case Nonlocal_kind:
        break;
    case Expr_kind:
        r = codegen_stmt_expr(c, LOC(s), s->v.Expr.value);
        break;
    case Pass_kind:
        r = addop_noarg(c, LOC(s), NOP);
        break;
    case Break_kind:
        r = codegen_break(c, LOC(s));
        break;
    case Continue_kind:
        r = codegen_continue(c, LOC(s));
        break;
    }
    c->c_depth--;
    return r;
}

/* ---- Expressions: conditions ------------------------------------------- */

static int
check_is_literal(compiler *c, expr_ty left, expr_ty right, cmpop_ty op, location loc)
{
    expr_ty lit = NULL;
    if (left->kind == Constant_kind) {
        lit = left;
    }
    else if (right->kind == Constant_kind) {
        lit = right;
    }
    if (lit == NULL) {
        return 0;
    }
    PyObject *v = lit->v.Constant.value;
    if (v == Py_None || v == Py_Ellipsis || PyBool_Check(v)) {
        return 0;
    }
    const char *msg = op == Is ? "\"is\" with '%.200s' literal. Did you mean \"==\"?"
                               : "\"is not\" with '%.200s' literal. Did you mean \"!=\"?";
    return codegen_warn(c, loc, msg, Py_TYPE(v)->tp_name);
}

static int
check_compare(compiler *c, expr_ty e)
{
    expr_ty left = e->v.Compare.left;
    Py_ssize_t n = asdl_seq_LEN(e->v.Compare.ops);
    for (Py_ssize_t i = 0; i < n; i++) {
        cmpop_ty op = (cmpop_ty)asdl_seq_GET(e->v.Compare.ops, i);
        expr_ty right = asdl_seq_GET(e->v.Compare.comparators, i);
        if (op == Is || op == IsNot) {
            RETURN_IF_ERROR(check_is_literal(c, left, right, op, LOC(e)));
        }
        left = right;
    }
    return 0;
}

/* TO_BOOL, then jump to `target` when the value's truth equals cond. */
static int
emit_branch(compiler *c, location loc, int cond, int target)
{
    RETURN_IF_ERROR(addop_noarg(c, loc, TO_BOOL));
    return addop_j(c, loc, cond ? POP_JUMP_IF_TRUE : POP_JUMP_IF_FALSE, target);
}

/* Chained comparison a < b < c ...: every link but the last keeps its
   right operand below the result for the next link, and a false link
   leaves for `bail` with that operand still on the stack.  As a
   condition (as_branch) a link is tested with TO_BOOL and
   POP_JUMP_IF_FALSE, as a value with JUMP_IF_FALSE and POP_TOP.  The
   last link's result stays on the stack. */
static int
emit_compare_chain(compiler *c, location loc, expr_ty e, int bail, int as_branch)
{
    asdl_expr_seq *operands = e->v.Compare.comparators;
    asdl_int_seq *ops = e->v.Compare.ops;
    Py_ssize_t last = asdl_seq_LEN(ops) - 1;
    VISIT(c, expr, e->v.Compare.left);
    for (Py_ssize_t k = 0; ; k++) {
        VISIT(c, expr, asdl_seq_GET(operands, k));
        if (k == last) {
            return addop_compare(c, loc, (cmpop_ty)asdl_seq_GET(ops, k));
        }
        EMIT_STEPS(c, loc, {SWAP, 2}, {COPY, 2});
        RETURN_IF_ERROR(addop_compare(c, loc, (cmpop_ty)asdl_seq_GET(ops, k)));
        if (as_branch) {
            ADDOP(c, loc, TO_BOOL);
            ADDOP_JUMP(c, loc, POP_JUMP_IF_FALSE, bail);
        }
        else {
            ADDOP_JUMP(c, loc, JUMP_IF_FALSE, bail);
            ADDOP(c, loc, POP_TOP);
        }
    }
}

/* `a and b ...` / `a or b ...` as a condition: every operand but the last
   short-circuits the way the operator does (straight to `target` when
   that agrees with cond, else just past the whole test); the last one
   decides. */
static int
jump_if_boolop(compiler *c, location loc, expr_ty e, int target, int cond)
{
    asdl_expr_seq *values = e->v.BoolOp.values;
    Py_ssize_t last = asdl_seq_LEN(values) - 1;
    int is_or = e->v.BoolOp.op == Or;
    int short_circuit = target;
    if (is_or != (cond != 0)) {
        short_circuit = _PyInstructionSequence_NewLabel(SEQ(c));
    }
    for (Py_ssize_t k = 0; k < last; k++) {
        RETURN_IF_ERROR(codegen_jump_if(c, loc, asdl_seq_GET(values, k), short_circuit,
                                        is_or));
    }
    RETURN_IF_ERROR(codegen_jump_if(c, loc, asdl_seq_GET(values, last), target, cond));
    if (short_circuit != target) {
        USE_LABEL(c, short_circuit);
    }
    return 0;
}

/* `body if test else orelse` as a condition: test picks which branch is
   tested. */
static int
jump_if_ifexp(compiler *c, location loc, expr_ty e, int target, int cond)
{
    NEW_LABEL(c, join);
    NEW_LABEL(c, test_orelse);
    RETURN_IF_ERROR(codegen_jump_if(c, loc, e->v.IfExp.test, test_orelse, 0));
    RETURN_IF_ERROR(codegen_jump_if(c, loc, e->v.IfExp.body, target, cond));
    ADDOP_JUMP(c, NO_LOCATION, JUMP, join);
    USE_LABEL(c, test_orelse);
    RETURN_IF_ERROR(codegen_jump_if(c, loc, e->v.IfExp.orelse, target, cond));
    USE_LABEL(c, join);
    return 0;
}

/* A chained comparison as a condition: a false link makes the whole
   test false. */
static int
jump_if_compare_chain(compiler *c, expr_ty e, int target, int cond)
{
    location loc = LOC(e);
    RETURN_IF_ERROR(check_compare(c, e));
    NEW_LABEL(c, failed_link);
    RETURN_IF_ERROR(emit_compare_chain(c, loc, e, failed_link, 1));
    RETURN_IF_ERROR(emit_branch(c, loc, cond, target));
    NEW_LABEL(c, done);
    ADDOP_JUMP(c, NO_LOCATION, JUMP, done);
    USE_LABEL(c, failed_link);
    ADDOP(c, loc, POP_TOP);     /* the operand kept for the next link */
    if (!cond) {
        ADDOP_JUMP(c, NO_LOCATION, JUMP, target);
    }
    USE_LABEL(c, done);
    return 0;
}

/* Jumps to `next` when the truth of e equals cond, else falls through;
   not, and/or, conditional expressions and chained comparisons become
   control flow instead of values. */
static int
codegen_jump_if(compiler *c, location loc, expr_ty e, int target, int when_true)
{
    if (e->kind == UnaryOp_kind && e->v.UnaryOp.op == Not) {
        /* `not x` jumps on the opposite truth of x */
        return codegen_jump_if(c, loc, e->v.UnaryOp.operand, target, !when_true);
    }
    if (e->kind == BoolOp_kind) {
        return jump_if_boolop(c, loc, e, target, when_true);
    }
    if (e->kind == IfExp_kind) {
        return jump_if_ifexp(c, loc, e, target, when_true);
    }
    int chained = e->kind == Compare_kind && asdl_seq_LEN(e->v.Compare.ops) > 1;
    if (chained) {
        return jump_if_compare_chain(c, e, target, when_true);
    }
    VISIT(c, expr, e);
    return emit_branch(c, LOC(e), when_true, target);
}

static int
codegen_boolop(compiler *c, expr_ty e)
{
    location loc = LOC(e);
    int jumpi = e->v.BoolOp.op == And ? JUMP_IF_FALSE : JUMP_IF_TRUE;
    NEW_LABEL(c, end);
    asdl_expr_seq *s = e->v.BoolOp.values;
    Py_ssize_t n = asdl_seq_LEN(s) - 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        VISIT(c, expr, asdl_seq_GET(s, i));
        ADDOP_JUMP(c, loc, jumpi, end);
        ADDOP(c, loc, POP_TOP);
    }
    VISIT(c, expr, asdl_seq_GET(s, n));
    USE_LABEL(c, end);
    return 0;
}

static int
codegen_compare(compiler *c, expr_ty e)
{
    location loc = LOC(e);
    RETURN_IF_ERROR(check_compare(c, e));
    if (asdl_seq_LEN(e->v.Compare.ops) == 1) {
        return emit_compare_chain(c, loc, e, -1, 0);
    }
    NEW_LABEL(c, failed_link);
    RETURN_IF_ERROR(emit_compare_chain(c, loc, e, failed_link, 0));
    NEW_LABEL(c, done);
    ADDOP_JUMP(c, NO_LOCATION, JUMP, done);
    USE_LABEL(c, failed_link);
    /* drop the operand kept for the next link; the false result stays */
    EMIT_STEPS(c, loc, {SWAP, 2}, {POP_TOP, 0});
    USE_LABEL(c, done);
    return 0;
}

static int
codegen_ifexp(compiler *c, expr_ty e)
{
    /* body if test else orelse */
    NEW_LABEL(c, join);
    NEW_LABEL(c, take_orelse);
    expr_ty test = e->v.IfExp.test;
    RETURN_IF_ERROR(codegen_jump_if(c, LOC(e), test, take_orelse, 0));
    VISIT(c, expr, e->v.IfExp.body);
    RETURN_IF_ERROR(addop_j(c, NO_LOCATION, JUMP, join));
    USE_LABEL(c, take_orelse);
    VISIT(c, expr, e->v.IfExp.orelse);
    USE_LABEL(c, join);
    return 0;
}

/* ---- Expressions: displays and unpacking ------------------------------- */
/* Index of the first starred element of elts at or after `from`, or -1. */
static Py_ssize_t
find_starred(asdl_expr_seq *elts, Py_ssize_t from)
{
    for (Py_ssize_t k = from; k < asdl_seq_LEN(elts); k++) {
        if (asdl_seq_GET(elts, k)->kind == Starred_kind) {
            return k;
        }
    }
    return -1;
}

/* A display (list, tuple, set, or the positional arguments of a call)
   with `pushed` items already on the stack.  Without starred elements
   and within the stack guideline everything is pushed and built at once.
   Otherwise the collection is created early (at once when too long,
   else just before the first starred element, taking what is pushed
   so far) and then grown with `add` per element and `extend` per
   starred iterable; a tuple is built as a list and converted. */
static int
starunpack_helper(compiler *c, location loc, asdl_expr_seq *elts, int pushed,
                  int build, int add, int extend, int tuple)
{
    Py_ssize_t count = asdl_seq_LEN(elts);
    int too_long = count + pushed > STACK_USE_GUIDELINE;
    Py_ssize_t star = find_starred(elts, 0);
    if (star < 0 && !too_long) {
        VISIT_SEQ(c, expr, elts);
        return addop_i(c, loc, tuple ? BUILD_TUPLE : build, count + pushed);
    }
    /* elements before this index are pushed and taken by the build */
    Py_ssize_t grow_from = too_long ? 0 : star;
    if (too_long) {
        ADDOP_I(c, loc, build, pushed);
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        expr_ty item = asdl_seq_GET(elts, k);
        if (!too_long && k == grow_from) {
            ADDOP_I(c, loc, build, k + pushed);
        }
        if (item->kind == Starred_kind) {
            VISIT(c, expr, item->v.Starred.value);
            ADDOP_I(c, loc, extend, 1);
            continue;
        }
        VISIT(c, expr, item);
        if (k >= grow_from) {
            ADDOP_I(c, loc, add, 1);
        }
    }
    if (tuple) {
        ADDOP_I(c, loc, CALL_INTRINSIC_1, INTRINSIC_LIST_TO_TUPLE);
    }
    return 0;
}

/* UNPACK_SEQUENCE for `total` targets, or UNPACK_EX around the starred one
   at `star` (-1: none) with the counts before it (low byte) and after it;
   `another` tells that a second starred target follows, `what` names the
   construct in the errors. */
static int
emit_unpack(compiler *c, location loc, Py_ssize_t total, Py_ssize_t star, int another,
            const char *what)
{
    if (star < 0) {
        return addop_i(c, loc, UNPACK_SEQUENCE, total);
    }
    Py_ssize_t after = total - star - 1;
    if (star >= (1 << 8) || after >= (INT_MAX >> 8)) {
        return codegen_error(c, loc, "too many expressions in star-unpacking %s", what);
    }
    if (another) {
        return codegen_error(c, loc, "multiple starred expressions in %s", what);
    }
    return addop_i(c, loc, UNPACK_EX, star | (after << 8));
}

static int
unpack_helper(compiler *c, location loc, asdl_expr_seq *elts)
{
    Py_ssize_t star = find_starred(elts, 0);
    int another = star >= 0 && find_starred(elts, star + 1) >= 0;
    return emit_unpack(c, loc, asdl_seq_LEN(elts), star, another, "assignment");
}

static int
assignment_helper(compiler *c, location loc, asdl_expr_seq *elts)
{
    /* unpack, then store into each target (a starred one through its
       inner target) */
    RETURN_IF_ERROR(unpack_helper(c, loc, elts));
    Py_ssize_t total = asdl_seq_LEN(elts);
    for (Py_ssize_t k = 0; k < total; k++) {
        expr_ty target = asdl_seq_GET(elts, k);
        if (target->kind == Starred_kind) {
            target = target->v.Starred.value;
        }
        RETURN_IF_ERROR(codegen_visit_expr(c, target));
    }
    return 0;
}

static int
codegen_list_or_tuple(compiler *c, expr_ty e, asdl_expr_seq *elts, expr_context_ty ctx,
                      int is_tuple)
{
    location loc = LOC(e);
    if (ctx == Store) {
        return assignment_helper(c, loc, elts);
    }
    if (ctx == Load) {
        return starunpack_helper(c, loc, elts, 0, BUILD_LIST, LIST_APPEND, LIST_EXTEND,
                                 is_tuple);
    }
    VISIT_SEQ(c, expr, elts);
    return 0;
}

/* Pushes the key and value of pair `index` of a display or keyword list. */
typedef int (*pair_pusher)(compiler *c, void *source, Py_ssize_t index);

/* Builds one dict from pairs [begin, end).  Few pairs are all pushed and
   taken by one BUILD_MAP (at loc); more than the stack guideline allows
   go one at a time into an empty dict (those instructions at grow_loc). */
static int
build_dict_of_pairs(compiler *c, location loc, location grow_loc,
                    Py_ssize_t begin, Py_ssize_t end, pair_pusher push, void *source)
{
    Py_ssize_t pairs = end - begin;
    int one_by_one = pairs * 2 > STACK_USE_GUIDELINE;
    if (one_by_one) {
        ADDOP_I(c, grow_loc, BUILD_MAP, 0);
    }
    for (Py_ssize_t k = begin; k < end; k++) {
        RETURN_IF_ERROR(push(c, source, k));
        if (one_by_one) {
            ADDOP_I(c, grow_loc, MAP_ADD, 1);
        }
    }
    return one_by_one ? 0 : addop_i(c, loc, BUILD_MAP, pairs);
}

static int
push_display_pair(compiler *c, void *source, Py_ssize_t index)
{
    expr_ty display = source;
    VISIT(c, expr, asdl_seq_GET(display->v.Dict.keys, index));
    VISIT(c, expr, asdl_seq_GET(display->v.Dict.values, index));
    return 0;
}

static int
codegen_subdict(compiler *c, expr_ty e, Py_ssize_t begin, Py_ssize_t end)
{
    return build_dict_of_pairs(c, LOC(e), LOC(e), begin, end, push_display_pair, e);
}

/* A finished dict is on the stack: the first becomes the result, later
   ones are merged into it. */
static int
dict_take_piece(compiler *c, location loc, int *have_result, int merge_op)
{
    if (*have_result) {
        ADDOP_I(c, loc, merge_op, 1);
    }
    *have_result = 1;
    return 0;
}

/* {k: v, **m, ...}: runs of keyed entries become dicts of their own
   (a run is cut when it outgrows the stack guideline), each **m is
   merged in with DICT_UPDATE. */
static int
codegen_dict(compiler *c, expr_ty e)
{
    location loc = LOC(e);
    asdl_expr_seq *keys = e->v.Dict.keys;
    Py_ssize_t total = asdl_seq_LEN(e->v.Dict.values);
    int have_result = 0;
    Py_ssize_t run_start = 0;      /* first keyed entry not yet emitted */
    for (Py_ssize_t k = 0; k < total; k++) {
        int spread = asdl_seq_GET(keys, k) == NULL;
        if (!spread && (k - run_start) * 2 <= STACK_USE_GUIDELINE) {
            continue;
        }
        Py_ssize_t run_end = spread ? k : k + 1;
        if (run_end > run_start) {
            RETURN_IF_ERROR(codegen_subdict(c, e, run_start, run_end));
            RETURN_IF_ERROR(dict_take_piece(c, loc, &have_result, DICT_UPDATE));
        }
        run_start = k + 1;
        if (spread) {
            if (!have_result) {
                ADDOP_I(c, loc, BUILD_MAP, 0);
                have_result = 1;
            }
            VISIT(c, expr, asdl_seq_GET(e->v.Dict.values, k));
            ADDOP_I(c, loc, DICT_UPDATE, 1);
        }
    }
    if (total > run_start) {
        RETURN_IF_ERROR(codegen_subdict(c, e, run_start, total));
        RETURN_IF_ERROR(dict_take_piece(c, loc, &have_result, DICT_UPDATE));
    }
    return have_result ? 0 : addop_i(c, loc, BUILD_MAP, 0);
}

/* ---- Expressions: calls ------------------------------------------------ */

static int
validate_keywords(compiler *c, asdl_keyword_seq *keywords)
{
    Py_ssize_t n = asdl_seq_LEN(keywords);
    for (Py_ssize_t i = 0; i < n; i++) {
        keyword_ty key = asdl_seq_GET(keywords, i);
        if (key->arg == NULL) {
            continue;
        }
        for (Py_ssize_t j = i + 1; j < n; j++) {
            keyword_ty other = asdl_seq_GET(keywords, j);
            if (other->arg && PyUnicode_Compare(key->arg, other->arg) == 0) {
                return codegen_error(c, LOC(other), "keyword argument repeated: %U",
                                     key->arg);
            }
        }
    }
    return 0;
}

typedef struct {
    asdl_keyword_seq *keywords;
    location loc;
} keyword_source;

static int
push_keyword_pair(compiler *c, void *source, Py_ssize_t index)
{
    keyword_source *src = source;
    keyword_ty kw = asdl_seq_GET(src->keywords, index);
    RETURN_IF_ERROR(addop_load_const(c, src->loc, kw->arg));
    return codegen_visit_expr(c, kw->value);
}

static int
codegen_subkwargs(compiler *c, location loc, asdl_keyword_seq *keywords,
                  Py_ssize_t begin, Py_ssize_t end)
{
    keyword_source src = {keywords, loc};
    return build_dict_of_pairs(c, loc, NO_LOCATION, begin, end, push_keyword_pair, &src);
}

/* The names of the first `count` keywords as a tuple (new reference). */
static PyObject *
keyword_names(asdl_keyword_seq *keywords, Py_ssize_t count)
{
    PyObject *names = PyTuple_New(count);
    for (Py_ssize_t k = 0; names != NULL && k < count; k++) {
        keyword_ty kw = asdl_seq_GET(keywords, k);
        PyTuple_SET_ITEM(names, k, Py_NewRef(kw->arg));
    }
    return names;
}

static int
codegen_call_simple_kw_helper(compiler *c, location loc, asdl_keyword_seq *keywords,
                              Py_ssize_t nkwelts)
{
    return addop_load_const_new(c, loc, keyword_names(keywords, nkwelts));
}

/* Whether the arguments can go on the stack for CALL / CALL_KW: no *args
   or **kwargs, and few enough for the stack guideline. */
static int
call_args_fit_stack(asdl_expr_seq *args, asdl_keyword_seq *keywords)
{
    Py_ssize_t nkw = asdl_seq_LEN(keywords);
    if (asdl_seq_LEN(args) + 2 * nkw > STACK_USE_GUIDELINE || find_starred(args, 0) >= 0) {
        return 0;
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        if (((keyword_ty)asdl_seq_GET(keywords, k))->arg == NULL) {
            return 0;
        }
    }
    return 1;
}

/* The keyword arguments of CALL_FUNCTION_EX as one dict: runs of
   name=value become dicts, each **mapping is merged in with DICT_MERGE
   (which rejects repeated names). */
static int
push_call_kwargs_dict(compiler *c, location loc, asdl_keyword_seq *keywords)
{
    Py_ssize_t total = asdl_seq_LEN(keywords);
    int have_result = 0;
    Py_ssize_t run_start = 0;
    for (Py_ssize_t k = 0; k < total; k++) {
        keyword_ty kw = asdl_seq_GET(keywords, k);
        if (kw->arg != NULL) {
            continue;
        }
        if (k > run_start) {
            RETURN_IF_ERROR(codegen_subkwargs(c, loc, keywords, run_start, k));
            RETURN_IF_ERROR(dict_take_piece(c, loc, &have_result, DICT_MERGE));
        }
        run_start = k + 1;
        if (!have_result) {
            ADDOP_I(c, loc, BUILD_MAP, 0);
            have_result = 1;
        }
        VISIT(c, expr, kw->value);
        ADDOP_I(c, loc, DICT_MERGE, 1);
    }
    if (total > run_start) {
        RETURN_IF_ERROR(codegen_subkwargs(c, loc, keywords, run_start, total));
        RETURN_IF_ERROR(dict_take_piece(c, loc, &have_result, DICT_MERGE));
    }
    return 0;
}

/* A call whose callable (and `n` leading arguments) are already pushed. */
static int
codegen_call_helper(compiler *c, location loc, int n, asdl_expr_seq *args,
                    asdl_keyword_seq *keywords)
{
    RETURN_IF_ERROR(validate_keywords(c, keywords));
    Py_ssize_t npos = asdl_seq_LEN(args);
    Py_ssize_t nkw = asdl_seq_LEN(keywords);
    if (call_args_fit_stack(args, keywords)) {
        VISIT_SEQ(c, expr, args);
        if (nkw == 0) {
            return addop_i(c, loc, CALL, n + npos);
        }
        VISIT_SEQ(c, keyword, keywords);
        RETURN_IF_ERROR(codegen_call_simple_kw_helper(c, loc, keywords, nkw));
        return addop_i(c, loc, CALL_KW, n + npos + nkw);
    }
    /* CALL_FUNCTION_EX takes a tuple of the positionals and a dict of the
       keywords (NULL without any); f(*x) passes x as it is */
    expr_ty sole = npos == 1 ? asdl_seq_GET(args, 0) : NULL;
    if (n == 0 && sole != NULL && sole->kind == Starred_kind) {
        VISIT(c, expr, sole->v.Starred.value);
    }
    else {
        RETURN_IF_ERROR(starunpack_helper(c, loc, args, n, BUILD_LIST, LIST_APPEND,
                                          LIST_EXTEND, 1));
    }
    if (nkw > 0) {
        RETURN_IF_ERROR(push_call_kwargs_dict(c, loc, keywords));
    }
    else {
        ADDOP(c, loc, PUSH_NULL);
    }
    return addop_noarg(c, loc, CALL_FUNCTION_EX);
}

static int
is_import_originated(compiler *c, expr_ty e)
{
    if (e->kind != Name_kind) {
        return 0;
    }
    long flags = _PyST_GetSymbol(c->c_st->st_top, e->v.Name.id);
    return (flags & DEF_IMPORT) != 0;
}

static int
can_optimize_super_call(compiler *c, expr_ty attr)
{
    expr_ty e = attr->v.Attribute.value;
    if (e->kind != Call_kind || e->v.Call.func->kind != Name_kind ||
        PyUnicode_CompareWithASCIIString(e->v.Call.func->v.Name.id, "super") != 0 ||
        PyUnicode_CompareWithASCIIString(attr->v.Attribute.attr, "__class__") == 0 ||
        asdl_seq_LEN(e->v.Call.keywords) != 0) {
        return 0;
    }
    Py_ssize_t nargs = asdl_seq_LEN(e->v.Call.args);
    PyObject *super_name = e->v.Call.func->v.Name.id;
    if (_PyST_GetScope(STE(c), super_name) != GLOBAL_IMPLICIT) {
        return 0;
    }
    if (_PyST_GetScope(c->c_st->st_top, super_name) != 0) {
        return 0;
    }
    if (nargs == 2) {
        for (Py_ssize_t i = 0; i < nargs; i++) {
            if (asdl_seq_GET(e->v.Call.args, i)->kind == Starred_kind) {
                return 0;
            }
        }
        return 1;
    }
    if (nargs != 0) {
        return 0;
    }
    if (METADATA(c)->u_argcount == 0 && METADATA(c)->u_posonlyargcount == 0) {
        return 0;
    }
    if (!_PyST_IsFunctionLike(STE(c))) {
        return 0;
    }
    PyObject *cls = intern_str("__class__");
    if (cls == NULL) {
        PyErr_Clear();
        return 0;
    }
    int scope = _PyST_GetScope(STE(c), cls);
    Py_DECREF(cls);
    return scope == FREE;
}

static int
load_args_for_super(compiler *c, expr_ty e)
{
    RETURN_IF_ERROR(codegen_nameop(c, LOC(e->v.Call.func), e->v.Call.func->v.Name.id, Load));
    if (asdl_seq_LEN(e->v.Call.args) == 2) {
        VISIT(c, expr, asdl_seq_GET(e->v.Call.args, 0));
        VISIT(c, expr, asdl_seq_GET(e->v.Call.args, 1));
        return 0;
    }
    RETURN_IF_ERROR(codegen_nameop_str(c, LOC(e), "__class__", Load));
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    if (!PyDict_Next(METADATA(c)->u_varnames, &pos, &key, &value)) {
        PyErr_SetString(PyExc_SystemError, "super() optimisation without arguments");
        return -1;
    }
    return codegen_nameop(c, LOC(e), key, Load);
}

static int
load_super_attr(compiler *c, location loc, expr_ty attr, int method)
{
    expr_ty call = attr->v.Attribute.value;
    RETURN_IF_ERROR(load_args_for_super(c, call));
    PyObject *mangled = _Py_MaybeMangle(c->u->u_private, STE(c), attr->v.Attribute.attr);
    if (mangled == NULL) {
        return -1;
    }
    Py_ssize_t idx = _PyCompile_DictAddObj(METADATA(c)->u_names, mangled);
    Py_DECREF(mangled);
    if (idx < 0) {
        return -1;
    }
    int two_arg = asdl_seq_LEN(call->v.Call.args) == 2;
    ADDOP_I(c, loc, LOAD_SUPER_ATTR, (idx << 2) | (two_arg ? 2 : 0) | (method ? 1 : 0));
    return 0;
}

/* a.b(...) loads the method and self with LOAD_ATTR's method form, which
   avoids creating a bound method. */
static int
maybe_optimize_method_call(compiler *c, expr_ty e)
{
    expr_ty meth = e->v.Call.func;
    asdl_expr_seq *args = e->v.Call.args;
    asdl_keyword_seq *kwds = e->v.Call.keywords;
    if (meth->kind != Attribute_kind || meth->v.Attribute.ctx != Load) {
        return 0;
    }
    if (is_import_originated(c, meth->v.Attribute.value)) {
        return 0;
    }
    Py_ssize_t argsl = asdl_seq_LEN(args), kwdsl = asdl_seq_LEN(kwds);
    if (argsl + kwdsl + (kwdsl != 0) >= STACK_USE_GUIDELINE) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < argsl; i++) {
        if (asdl_seq_GET(args, i)->kind == Starred_kind) {
            return 0;
        }
    }
    for (Py_ssize_t i = 0; i < kwdsl; i++) {
        if (asdl_seq_GET(kwds, i)->arg == NULL) {
            return 0;
        }
    }
    location loc = attr_location(meth);
    if (can_optimize_super_call(c, meth)) {
        RETURN_IF_ERROR(load_super_attr(c, loc, meth, 1));
    }
    else {
        VISIT(c, expr, meth->v.Attribute.value);
        RETURN_IF_ERROR(addop_name(c, loc, LOAD_METHOD_PSEUDO, meth->v.Attribute.attr,
                                   METADATA(c)->u_names, 1));
    }
    VISIT_SEQ(c, expr, args);
    if (kwdsl) {
        VISIT_SEQ(c, keyword, kwds);
        RETURN_IF_ERROR(codegen_call_simple_kw_helper(c, LOC(e), kwds, kwdsl));
        ADDOP_I(c, LOC(e), CALL_KW, argsl + kwdsl);
    }
    else {
        ADDOP_I(c, LOC(e), CALL, argsl);
    }
    return 1;
}

static int
check_caller(compiler *c, expr_ty e)
{
    switch (e->kind) {
    case Constant_kind:
    case Tuple_kind:
    case List_kind:
    case ListComp_kind:
    case Dict_kind:
    case DictComp_kind:
    case Set_kind:
    case SetComp_kind:
    case GeneratorExp_kind:
    case JoinedStr_kind:
    case FormattedValue_kind: {
        const char *tp;
        switch (e->kind) {
        case Constant_kind: tp = Py_TYPE(e->v.Constant.value)->tp_name; break;
        case Tuple_kind: tp = "tuple"; break;
        case List_kind: case ListComp_kind: tp = "list"; break;
        case Dict_kind: case DictComp_kind: tp = "dict"; break;
        case Set_kind: case SetComp_kind: tp = "set"; break;
        case GeneratorExp_kind: tp = "generator"; break;
        default: tp = "str"; break;
        }
        return codegen_warn(c, LOC(e), "'%.200s' object is not callable; "
                            "perhaps you missed a comma?", tp);
    }
    default:
        return 0;
    }
}

/* all(genexp), any(genexp) and tuple(genexp) run the generator in place
   when the name really is the builtin (checked at run time); otherwise
   the normal call follows.  The function is on the stack. */
static int
maybe_optimize_function_call(compiler *c, expr_ty e, int end)
{
    expr_ty func = e->v.Call.func;
    asdl_expr_seq *args = e->v.Call.args;
    if (func->kind != Name_kind || asdl_seq_LEN(args) != 1 ||
        asdl_seq_LEN(e->v.Call.keywords) != 0 ||
        asdl_seq_GET(args, 0)->kind != GeneratorExp_kind) {
        return 0;
    }
    int which;
    PyObject *initial = NULL;
    int continue_op = 0;
    if (PyUnicode_CompareWithASCIIString(func->v.Name.id, "all") == 0) {
        which = CONSTANT_BUILTIN_ALL;
        initial = Py_True;
        continue_op = POP_JUMP_IF_TRUE;
    }
    else if (PyUnicode_CompareWithASCIIString(func->v.Name.id, "any") == 0) {
        which = CONSTANT_BUILTIN_ANY;
        initial = Py_False;
        continue_op = POP_JUMP_IF_FALSE;
    }
    else if (PyUnicode_CompareWithASCIIString(func->v.Name.id, "tuple") == 0) {
        which = CONSTANT_BUILTIN_TUPLE;
    }
    else {
        return 0;
    }
    location loc = LOC(func);
    NEW_LABEL(c, skip);
    NEW_LABEL(c, loop);
    NEW_LABEL(c, cleanup);
    ADDOP_I(c, loc, COPY, 1);
    ADDOP_I(c, loc, LOAD_COMMON_CONSTANT, which);
    ADDOP_COMPARE(c, loc, Is);
    ADDOP_JUMP(c, loc, POP_JUMP_IF_FALSE, skip);
    ADDOP(c, loc, POP_TOP);
    if (which == CONSTANT_BUILTIN_TUPLE) {
        ADDOP_I(c, loc, BUILD_LIST, 0);
    }
    VISIT(c, expr, asdl_seq_GET(args, 0));
    ADDOP_I(c, loc, GET_ITER, 0);
    USE_LABEL(c, loop);
    ADDOP_JUMP(c, loc, FOR_ITER, cleanup);
    if (which == CONSTANT_BUILTIN_TUPLE) {
        ADDOP_I(c, loc, LIST_APPEND, 3);
        ADDOP_JUMP(c, loc, JUMP, loop);
    }
    else {
        ADDOP(c, loc, TO_BOOL);
        ADDOP_JUMP(c, loc, continue_op, loop);
        ADDOP(c, NO_LOCATION, POP_ITER);
        ADDOP_LOAD_CONST(c, loc, initial == Py_True ? Py_False : Py_True);
        ADDOP_JUMP(c, loc, JUMP, end);
    }
    USE_LABEL(c, cleanup);
    ADDOP(c, NO_LOCATION, END_FOR);
    ADDOP(c, NO_LOCATION, POP_ITER);
    if (which == CONSTANT_BUILTIN_TUPLE) {
        ADDOP_I(c, loc, CALL_INTRINSIC_1, INTRINSIC_LIST_TO_TUPLE);
    }
    else {
        ADDOP_LOAD_CONST(c, loc, initial);
    }
    ADDOP_JUMP(c, loc, JUMP, end);
    USE_LABEL(c, skip);
    return 0;
}

static int
codegen_call(compiler *c, expr_ty e)
{
    RETURN_IF_ERROR(validate_keywords(c, e->v.Call.keywords));
    int r = maybe_optimize_method_call(c, e);
    RETURN_IF_ERROR(r);
    if (r == 1) {
        return 0;
    }
    RETURN_IF_ERROR(check_caller(c, e->v.Call.func));
    NEW_LABEL(c, end);
    VISIT(c, expr, e->v.Call.func);
    RETURN_IF_ERROR(maybe_optimize_function_call(c, e, end));
    ADDOP(c, LOC(e->v.Call.func), PUSH_NULL);
    RETURN_IF_ERROR(codegen_call_helper(c, LOC(e), 0, e->v.Call.args, e->v.Call.keywords));
    USE_LABEL(c, end);
    return 0;
}

/* ---- Expressions: f-strings -------------------------------------------- */

static int
codegen_joined_str(compiler *c, expr_ty e)
{
    location loc = LOC(e);
    Py_ssize_t n = asdl_seq_LEN(e->v.JoinedStr.values);
    if (n > STACK_USE_GUIDELINE) {
        PyObject *empty = PyUnicode_FromString("");
        ADDOP_LOAD_CONST_NEW(c, loc, empty);
        PyObject *join = intern_str("join");
        if (join == NULL) {
            return -1;
        }
        int r = addop_name(c, loc, LOAD_METHOD_PSEUDO, join, METADATA(c)->u_names, 0);
        Py_DECREF(join);
        RETURN_IF_ERROR(r);
        ADDOP_I(c, loc, BUILD_LIST, 0);
        for (Py_ssize_t i = 0; i < n; i++) {
            VISIT(c, expr, asdl_seq_GET(e->v.JoinedStr.values, i));
            ADDOP_I(c, loc, LIST_APPEND, 1);
        }
        ADDOP_I(c, loc, CALL, 1);
        return 0;
    }
    VISIT_SEQ(c, expr, e->v.JoinedStr.values);
    if (n > 1) {
        ADDOP_I(c, loc, BUILD_STRING, n);
    }
    else if (n == 0) {
        PyObject *empty = PyUnicode_FromString("");
        ADDOP_LOAD_CONST_NEW(c, loc, empty);
    }
    return 0;
}

/* One {value!conv:spec} of an f-string: convert, then format. */
static int
codegen_formatted_value(compiler *c, expr_ty e)
{
    int conversion = e->v.FormattedValue.conversion;
    int how;
    if (conversion == -1) {
        how = FVC_NONE;
    }
    else if (conversion == 'r') {
        how = FVC_REPR;
    }
    else if (conversion == 's') {
        how = FVC_STR;
    }
    else if (conversion == 'a') {
        how = FVC_ASCII;
    }
    else {
        PyErr_Format(PyExc_SystemError, "Unrecognized conversion character %d", conversion);
        return -1;
    }
    location loc = LOC(e);
    expr_ty spec = e->v.FormattedValue.format_spec;
    VISIT(c, expr, e->v.FormattedValue.value);
    if (how != FVC_NONE) {
        RETURN_IF_ERROR(addop_i(c, loc, CONVERT_VALUE, how));
    }
    if (spec == NULL) {
        return addop_noarg(c, loc, FORMAT_SIMPLE);
    }
    VISIT(c, expr, spec);
    return addop_noarg(c, loc, FORMAT_WITH_SPEC);
}

/* ---- Expressions: t-strings -------------------------------------------- */

/* The literal text of a TemplateStr as a constant tuple with one more
   item than there are interpolations ('' fills the gaps); the parser has
   already merged adjacent literals. */
static PyObject *
template_text_parts(asdl_expr_seq *values)
{
    PyObject *parts = PyList_New(0), *res = NULL;
    PyObject *empty = PyUnicode_FromStringAndSize("", 0);
    int after_text = 0;
    if (parts == NULL || empty == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(values); i++) {
        expr_ty v = asdl_seq_GET(values, i);
        if (v->kind != Interpolation_kind
            && !(v->kind == Constant_kind && PyUnicode_Check(v->v.Constant.value))) {
            /* only reachable from a hand-built ast */
            PyErr_SetString(PyExc_TypeError, "TemplateStr values must be str "
                            "Constant or Interpolation nodes");
            goto done;
        }
        if (v->kind == Interpolation_kind) {
            if (!after_text && PyList_Append(parts, empty) < 0) {
                goto done;
            }
            after_text = 0;
        }
        else if (after_text) {
            Py_ssize_t last = PyList_GET_SIZE(parts) - 1;
            PyObject *joined = PyUnicode_Concat(PyList_GET_ITEM(parts, last),
                                                v->v.Constant.value);
            if (joined == NULL || PyList_SetItem(parts, last, joined) < 0) {
                goto done;
            }
        }
        else {
            if (PyList_Append(parts, v->v.Constant.value) < 0) {
                goto done;
            }
            after_text = 1;
        }
    }
    if (!after_text && PyList_Append(parts, empty) < 0) {
        goto done;
    }
    res = PyList_AsTuple(parts);
done:
    Py_XDECREF(parts);
    Py_XDECREF(empty);
    return res;
}

/* t"...": LOAD_CONST (strings), the interpolations gathered in a tuple,
   BUILD_TEMPLATE. */
static int
codegen_template_str(compiler *c, expr_ty e)
{
    location loc = LOC(e);
    asdl_expr_seq *values = e->v.TemplateStr.values;
    PyObject *text = template_text_parts(values);
    Py_ssize_t fields = 0;
    if (text == NULL) {
        return -1;
    }
    fields = PyTuple_GET_SIZE(text) - 1;
    ADDOP_LOAD_CONST_NEW(c, loc, text);
    int big = fields > STACK_USE_GUIDELINE;
    if (big) {
        ADDOP_I(c, loc, BUILD_LIST, 0);
    }
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(values); i++) {
        expr_ty v = asdl_seq_GET(values, i);
        if (v->kind == Interpolation_kind) {
            VISIT(c, expr, v);
            if (big) {
                ADDOP_I(c, loc, LIST_APPEND, 1);
            }
        }
    }
    if (big) {
        ADDOP_I(c, loc, CALL_INTRINSIC_1, INTRINSIC_LIST_TO_TUPLE);
    }
    else {
        ADDOP_I(c, loc, BUILD_TUPLE, fields);
    }
    ADDOP(c, loc, BUILD_TEMPLATE);
    return 0;
}

/* One {field} of a t-string: value, source text, optional formatted spec,
   then BUILD_INTERPOLATION with the conversion in the high oparg bits. */
static int
codegen_interpolation(compiler *c, expr_ty e)
{
    location loc = LOC(e);
    int flags;
    if (e->v.Interpolation.str == NULL || !PyUnicode_Check(e->v.Interpolation.str)) {
        PyErr_SetString(PyExc_TypeError, "Interpolation.str must be a str");
        return -1;
    }
    VISIT(c, expr, e->v.Interpolation.value);
    ADDOP_LOAD_CONST(c, loc, e->v.Interpolation.str);
    switch (e->v.Interpolation.conversion) {
    case -1:
        flags = FVC_NONE << 2;
        break;
    case 's':
        flags = FVC_STR << 2;
        break;
    case 'r':
        flags = FVC_REPR << 2;
        break;
    case 'a':
        flags = FVC_ASCII << 2;
        break;
    default:
        PyErr_Format(PyExc_SystemError, "t-string field with conversion %d",
                     e->v.Interpolation.conversion);
        return -1;
    }
    if (e->v.Interpolation.format_spec != NULL) {
        VISIT(c, expr, e->v.Interpolation.format_spec);
        flags |= 1;
    }
    ADDOP_I(c, loc, BUILD_INTERPOLATION, flags);
    return 0;
}

/* ---- Expressions: generators and coroutines ---------------------------- */
/* yield from / await of the iterator on the stack: SEND values into it
   until it finishes (to `finished`), yielding on what it yields;
   throw() and close() reaching the yield go through CLEANUP_THROW. */
static int
codegen_add_yield_from(compiler *c, location loc, int await)
{
    int resumed_by = await ? RESUME_AFTER_AWAIT : RESUME_AFTER_YIELD_FROM;
    NEW_LABEL(c, resend);
    NEW_LABEL(c, thrown_in);
    NEW_LABEL(c, finished);
    USE_LABEL(c, resend);
    RETURN_IF_ERROR(addop_j(c, loc, SEND, finished));
    RETURN_IF_ERROR(addop_j(c, loc, SETUP_FINALLY, thrown_in));
    RETURN_IF_ERROR(addop_i(c, loc, YIELD_VALUE, 1));
    RETURN_IF_ERROR(addop_noarg(c, NO_LOCATION, POP_BLOCK));
    RETURN_IF_ERROR(addop_i(c, loc, RESUME, resumed_by));
    RETURN_IF_ERROR(addop_j(c, loc, JUMP_NO_INTERRUPT, resend));
    USE_LABEL(c, thrown_in);
    RETURN_IF_ERROR(addop_noarg(c, loc, CLEANUP_THROW));
    USE_LABEL(c, finished);
    return addop_noarg(c, loc, END_SEND);
}

static int
addop_yield(compiler *c, location loc)
{
    /* an async generator wraps what it yields, so the value can be told
       apart from one passed up by an await */
    PySTEntryObject *scope = STE(c);
    if (scope->ste_coroutine && scope->ste_generator) {
        RETURN_IF_ERROR(addop_i(c, loc, CALL_INTRINSIC_1, INTRINSIC_ASYNC_GEN_WRAP));
    }
    EMIT_STEPS(c, loc, {YIELD_VALUE, 0}, {RESUME, RESUME_AFTER_YIELD});
    return 0;
}

static int
codegen_await(compiler *c, expr_ty e)
{
    location loc = LOC(e);
    int top_level = (c->c_flags.cf_flags & PyCF_ALLOW_TOP_LEVEL_AWAIT) &&
                    c->u->u_ste->ste_type == ModuleBlock;
    if (!top_level) {
        if (!_PyST_IsFunctionLike(STE(c))) {
            return codegen_error(c, loc, "'await' outside function");
        }
        if (c->u->u_scope_type != COMPILE_SCOPE_ASYNC_FUNCTION &&
            c->u->u_scope_type != COMPILE_SCOPE_COMPREHENSION) {
            return codegen_error(c, loc, "'await' outside async function");
        }
    }
    VISIT(c, expr, e->v.Await.value);
    ADDOP_I(c, loc, GET_AWAITABLE, 0);
    ADDOP(c, loc, PUSH_NULL);
    ADDOP_LOAD_CONST(c, loc, Py_None);
    return codegen_add_yield_from(c, loc, 1);
}

/* ---- Comprehensions ---------------------------------------------------- */

enum { COMP_GENEXP, COMP_LISTCOMP, COMP_SETCOMP, COMP_DICTCOMP };

static int codegen_comprehension_generator(compiler *c, location loc,
                                           asdl_comprehension_seq *generators,
                                           int gen_index, int depth, expr_ty elt,
                                           expr_ty val, int type, int iter_on_stack);
/* The innermost step of a comprehension: add the element to the result,
   which lies below the iterators of the `depth` enclosing loops (a
   generator expression yields it instead). */
static int
codegen_comprehension_append(compiler *c, location elt_loc, int depth, expr_ty elt,
                             expr_ty val, int type)
{
    VISIT(c, expr, elt);
    if (type == COMP_GENEXP) {
        RETURN_IF_ERROR(addop_yield(c, elt_loc));
        return addop_noarg(c, elt_loc, POP_TOP);
    }
    int below = depth + 1;
    if (type == COMP_DICTCOMP) {
        VISIT(c, expr, val);
        location pair = LOCATION(elt->lineno, val->end_lineno,
                                 elt->col_offset, val->end_col_offset);
        return addop_i(c, pair, MAP_ADD, below);
    }
    if (type == COMP_LISTCOMP) {
        return addop_i(c, elt_loc, LIST_APPEND, below);
    }
    return type == COMP_SETCOMP ? addop_i(c, elt_loc, SET_ADD, below) : 0;
}

static int
codegen_sync_comprehension_generator(compiler *c, location loc,
                                     asdl_comprehension_seq *generators, int gen_index,
                                     int depth, expr_ty elt, expr_ty val, int type,
                                     int iter_on_stack)
{
    NEW_LABEL(c, start);
    NEW_LABEL(c, if_cleanup);
    NEW_LABEL(c, anchor);
    comprehension_ty gen = asdl_seq_GET(generators, gen_index);
    int has_loop = 1;
    if (!iter_on_stack) {
        if (gen_index == 0) {
            /* the outermost iterable arrives as the implicit argument */
            METADATA(c)->u_argcount = 1;
            ADDOP_I(c, LOC(gen->iter), LOAD_FAST, 0);
            ADDOP_I(c, LOC(gen->iter), GET_ITER, 0);
        }
        else {
            /* `for y in [expr]` binds without a loop */
            asdl_expr_seq *elts = NULL;
            if (gen->iter->kind == List_kind) {
                elts = gen->iter->v.List.elts;
            }
            else if (gen->iter->kind == Tuple_kind) {
                elts = gen->iter->v.Tuple.elts;
            }
            if (asdl_seq_LEN(elts) == 1 && asdl_seq_GET(elts, 0)->kind != Starred_kind) {
                VISIT(c, expr, asdl_seq_GET(elts, 0));
                has_loop = 0;
            }
            else {
                VISIT(c, expr, gen->iter);
                ADDOP_I(c, LOC(gen->iter), GET_ITER, 0);
            }
        }
    }
    if (has_loop) {
        depth += 2;
        USE_LABEL(c, start);
        ADDOP_JUMP(c, LOC(gen->iter), FOR_ITER, anchor);
    }
    VISIT(c, expr, gen->target);
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(gen->ifs); i++) {
        expr_ty e = asdl_seq_GET(gen->ifs, i);
        RETURN_IF_ERROR(codegen_jump_if(c, loc, e, if_cleanup, 0));
    }
    location elt_loc = LOC(elt);
    if (++gen_index < asdl_seq_LEN(generators)) {
        RETURN_IF_ERROR(codegen_comprehension_generator(c, loc, generators, gen_index, depth,
                                                        elt, val, type, 0));
    }
    else {
        RETURN_IF_ERROR(codegen_comprehension_append(c, elt_loc, depth, elt, val, type));
    }
    USE_LABEL(c, if_cleanup);
    if (has_loop) {
        ADDOP_JUMP(c, elt_loc, JUMP, start);
        USE_LABEL(c, anchor);
        ADDOP(c, NO_LOCATION, END_FOR);
        ADDOP(c, NO_LOCATION, POP_ITER);
    }
    return 0;
}

static int
codegen_async_comprehension_generator(compiler *c, location loc,
                                      asdl_comprehension_seq *generators, int gen_index,
                                      int depth, expr_ty elt, expr_ty val, int type,
                                      int iter_on_stack)
{
    NEW_LABEL(c, start);
    NEW_LABEL(c, except);
    NEW_LABEL(c, if_cleanup);
    comprehension_ty gen = asdl_seq_GET(generators, gen_index);
    if (!iter_on_stack) {
        if (gen_index == 0) {
            METADATA(c)->u_argcount = 1;
            ADDOP_I(c, loc, LOAD_FAST, 0);
        }
        else {
            VISIT(c, expr, gen->iter);
            ADDOP(c, LOC(gen->iter), GET_AITER);
        }
    }
    USE_LABEL(c, start);
    RETURN_IF_ERROR(push_fblock(c, loc, FB_ASYNC_COMPREHENSION_GENERATOR, start, -1, NULL));
    ADDOP_JUMP(c, loc, SETUP_FINALLY, except);
    ADDOP(c, loc, GET_ANEXT);
    RETURN_IF_ERROR(emit_await_top(c, loc));
    ADDOP(c, loc, POP_BLOCK);
    VISIT(c, expr, gen->target);
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(gen->ifs); i++) {
        expr_ty e = asdl_seq_GET(gen->ifs, i);
        RETURN_IF_ERROR(codegen_jump_if(c, loc, e, if_cleanup, 0));
    }
    depth++;
    if (++gen_index < asdl_seq_LEN(generators)) {
        RETURN_IF_ERROR(codegen_comprehension_generator(c, loc, generators, gen_index, depth,
                                                        elt, val, type, 0));
    }
    else {
        RETURN_IF_ERROR(codegen_comprehension_append(c, LOC(elt), depth, elt, val, type));
    }
    USE_LABEL(c, if_cleanup);
    ADDOP_JUMP(c, NO_LOCATION, JUMP, start);
    pop_fblock(c);
    USE_LABEL(c, except);
    ADDOP(c, loc, END_ASYNC_FOR);
    return 0;
}

typedef int (*comprehension_loop_fn)(compiler *, location, asdl_comprehension_seq *,
                                     int, int, expr_ty, expr_ty, int, int);

static int
codegen_comprehension_generator(compiler *c, location loc,
                                asdl_comprehension_seq *generators, int gen_index,
                                int depth, expr_ty elt, expr_ty val, int type,
                                int iter_on_stack)
{
    /* `for` and `async for` clauses loop differently */
    comprehension_ty clause = asdl_seq_GET(generators, gen_index);
    comprehension_loop_fn loop = clause->is_async
        ? codegen_async_comprehension_generator
        : codegen_sync_comprehension_generator;
    return loop(c, loc, generators, gen_index, depth, elt, val, type, iter_on_stack);
}

typedef struct {
    PyObject *pushed_locals;   /* list of names saved on the stack */
    PyObject *temp_symbols;    /* dict: name -> the outer symbol flags */
    PyObject *fast_hidden;     /* set of names made fast locals here */
    int cleanup;               /* label of the exception cleanup */
    int iter_slots;            /* stack items of the outermost iterator */
} inlined_comprehension_state;

static int
push_inlined_comprehension_state(compiler *c, location loc, PySTEntryObject *entry,
                                 inlined_comprehension_state *state)
{
    int in_class_block = STE(c)->ste_type == ClassBlock && !c->u->u_in_inlined_comp;
    c->u->u_in_inlined_comp++;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(entry->ste_symbols, &pos, &k, &v)) {
        long symbol = PyLong_AsLong(v);
        if (symbol & DEF_PARAM) {
            continue;
        }
        int scope = SYMBOL_TO_SCOPE(symbol);
        long outsymbol = _PyST_GetSymbol(STE(c), k);
        if (outsymbol == 0 && PyErr_Occurred()) {
            return -1;
        }
        int outsc = SYMBOL_TO_SCOPE(outsymbol);
        if ((scope != outsc && scope != FREE && !(scope == CELL && outsc == FREE)) ||
            (in_class_block && scope != FREE)) {
            /* the name means something else inside the comprehension */
            if (state->temp_symbols == NULL) {
                state->temp_symbols = PyDict_New();
                if (state->temp_symbols == NULL) {
                    return -1;
                }
            }
            PyObject *outv = PyLong_FromLong(outsymbol);
            if (outv == NULL) {
                return -1;
            }
            int r = PyDict_SetItem(state->temp_symbols, k, outv);
            Py_DECREF(outv);
            if (r < 0 || PyDict_SetItem(STE(c)->ste_symbols, k, v) < 0) {
                return -1;
            }
        }
        if ((symbol & DEF_LOCAL) && !(symbol & DEF_NONLOCAL)) {
            if (!_PyST_IsFunctionLike(STE(c))) {
                PyObject *orig = PyDict_GetItemWithError(METADATA(c)->u_fasthidden, k);
                if (orig == NULL && PyErr_Occurred()) {
                    return -1;
                }
                if (orig != Py_True) {
                    if (PyDict_SetItem(METADATA(c)->u_fasthidden, k, Py_True) < 0) {
                        return -1;
                    }
                    if (state->fast_hidden == NULL) {
                        state->fast_hidden = PySet_New(NULL);
                        if (state->fast_hidden == NULL) {
                            return -1;
                        }
                    }
                    if (PySet_Add(state->fast_hidden, k) < 0) {
                        return -1;
                    }
                }
            }
            if (state->pushed_locals == NULL) {
                state->pushed_locals = PyList_New(0);
                if (state->pushed_locals == NULL) {
                    return -1;
                }
            }
            Py_ssize_t idx = _PyCompile_DictAddObj(METADATA(c)->u_varnames, k);
            if (idx < 0) {
                return -1;
            }
            ADDOP_I(c, loc, LOAD_FAST_AND_CLEAR, idx);
            if (scope == CELL) {
                Py_ssize_t ci = _PyCompile_DictAddObj(METADATA(c)->u_cellvars, k);
                if (ci < 0) {
                    return -1;
                }
                ADDOP_I(c, loc, MAKE_CELL, ci);
            }
            /* keep the iterator on top of the saved values */
            if (state->iter_slots == 2) {
                ADDOP_I(c, loc, SWAP, 3);
            }
            ADDOP_I(c, loc, SWAP, 2);
            if (PyList_Append(state->pushed_locals, k) < 0) {
                return -1;
            }
        }
    }
    if (state->pushed_locals) {
        /* restores the saved values if the comprehension raises */
        state->cleanup = _PyInstructionSequence_NewLabel(SEQ(c));
        ADDOP_JUMP(c, loc, SETUP_FINALLY, state->cleanup);
    }
    return 0;
}

static int
restore_inlined_locals(compiler *c, location loc, inlined_comprehension_state *state)
{
    Py_ssize_t n = PyList_GET_SIZE(state->pushed_locals);
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        PyObject *k = PyList_GET_ITEM(state->pushed_locals, i);
        Py_ssize_t idx = _PyCompile_DictAddObj(METADATA(c)->u_varnames, k);
        if (idx < 0) {
            return -1;
        }
        ADDOP_I(c, loc, SWAP, 2);
        ADDOP_I(c, loc, STORE_FAST_MAYBE_NULL, idx);
    }
    return 0;
}

static int
pop_inlined_comprehension_state(compiler *c, location loc, inlined_comprehension_state *state)
{
    c->u->u_in_inlined_comp--;
    if (state->pushed_locals) {
        NEW_LABEL(c, end);
        ADDOP(c, NO_LOCATION, POP_BLOCK);
        ADDOP_JUMP(c, NO_LOCATION, JUMP_NO_INTERRUPT, end);
        /* exception: stack is saved..., result, iterator, exc */
        USE_LABEL(c, state->cleanup);
        if (state->iter_slots == 2) {
            ADDOP_I(c, NO_LOCATION, SWAP, 3);
            ADDOP(c, NO_LOCATION, POP_TOP);
            ADDOP(c, NO_LOCATION, POP_TOP);
        }
        else {
            ADDOP_I(c, NO_LOCATION, SWAP, 2);
            ADDOP(c, NO_LOCATION, POP_TOP);
        }
        RETURN_IF_ERROR(restore_inlined_locals(c, loc, state));
        ADDOP_I(c, NO_LOCATION, RERAISE, 0);
        USE_LABEL(c, end);
        /* the normal path restores after the jump so the stores can merge
           with the ones of the enclosing statement */
        RETURN_IF_ERROR(restore_inlined_locals(c, loc, state));
    }
    if (state->temp_symbols) {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(state->temp_symbols, &pos, &k, &v)) {
            if (PyLong_AsLong(v) == 0) {
                if (PyDict_DelItem(STE(c)->ste_symbols, k) < 0) {
                    return -1;
                }
            }
            else if (PyDict_SetItem(STE(c)->ste_symbols, k, v) < 0) {
                return -1;
            }
        }
    }
    if (state->fast_hidden) {
        PyObject *it = PyObject_GetIter(state->fast_hidden), *k;
        if (it == NULL) {
            return -1;
        }
        while ((k = PyIter_Next(it)) != NULL) {
            int r = PyDict_SetItem(METADATA(c)->u_fasthidden, k, Py_False);
            Py_DECREF(k);
            if (r < 0) {
                Py_DECREF(it);
                return -1;
            }
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) {
            return -1;
        }
    }
    return 0;
}

static void
clear_inlined_state(inlined_comprehension_state *state)
{
    Py_CLEAR(state->pushed_locals);
    Py_CLEAR(state->temp_symbols);
    Py_CLEAR(state->fast_hidden);
}

static int
codegen_inlined_comprehension(compiler *c, expr_ty e, int type, PySTEntryObject *entry,
                              asdl_comprehension_seq *generators, expr_ty elt, expr_ty val)
{
    location loc = LOC(e);
    comprehension_ty outermost = asdl_seq_GET(generators, 0);
    VISIT(c, expr, outermost->iter);
    inlined_comprehension_state state = {NULL, NULL, NULL, -1, 2};
    if (outermost->is_async) {
        ADDOP(c, LOC(outermost->iter), GET_AITER);
        state.iter_slots = 1;
    }
    else {
        ADDOP_I(c, LOC(outermost->iter), GET_ITER, 0);
    }
    int r = push_inlined_comprehension_state(c, loc, entry, &state);
    if (r == 0) {
        int op = type == COMP_LISTCOMP ? BUILD_LIST : type == COMP_SETCOMP ? BUILD_SET : BUILD_MAP;
        r = addop_i(c, loc, op, 0);
        if (r == 0 && state.iter_slots == 2) {
            r = addop_i(c, loc, SWAP, 3);
        }
        if (r == 0) {
            r = addop_i(c, loc, SWAP, 2);
        }
    }
    if (r == 0) {
        r = codegen_comprehension_generator(c, loc, generators, 0, 0, elt, val, type, 1);
    }
    if (r == 0) {
        r = pop_inlined_comprehension_state(c, loc, &state);
    }
    clear_inlined_state(&state);
    return r;
}

static int
codegen_comprehension(compiler *c, expr_ty e, int type, PyObject *name,
                      asdl_comprehension_seq *generators, expr_ty elt, expr_ty val)
{
    PySTEntryObject *entry = _PySymtable_Lookup(c->c_st, (void *)e);
    if (entry == NULL) {
        return -1;
    }
    if (entry->ste_comp_inlined) {
        return codegen_inlined_comprehension(c, e, type, entry, generators, elt, val);
    }
    comprehension_ty outermost = asdl_seq_GET(generators, 0);
    int is_async = entry->ste_coroutine;
    location loc = LOC(e);
    _PyCompile_CodeUnitMetadata umd = {.u_argcount = 1};
    RETURN_IF_ERROR(_PyCompile_EnterScope(c, name, COMPILE_SCOPE_COMPREHENSION, (void *)e,
                                          e->lineno, NULL, &umd));
    if (type != COMP_GENEXP) {
        int op = type == COMP_LISTCOMP ? BUILD_LIST : type == COMP_SETCOMP ? BUILD_SET : BUILD_MAP;
        RETURN_IF_ERROR_IN_SCOPE(c, addop_i(c, loc, op, 0));
    }
    RETURN_IF_ERROR_IN_SCOPE(c, codegen_comprehension_generator(c, loc, generators, 0, 0,
                                                                elt, val, type, 0));
    if (type != COMP_GENEXP) {
        RETURN_IF_ERROR_IN_SCOPE(c, addop_noarg(c, loc, RETURN_VALUE));
    }
    if (type == COMP_GENEXP || is_async) {
        RETURN_IF_ERROR_IN_SCOPE(c, wrap_in_stopiteration_handler(c));
    }
    PyCodeObject *co = _PyCompile_OptimizeAndAssemble(c, 1);
    _PyCompile_ExitScope(c);
    if (co == NULL) {
        return -1;
    }
    int r = make_closure(c, loc, co, 0);
    Py_DECREF(co);
    RETURN_IF_ERROR(r);
    VISIT(c, expr, outermost->iter);
    if (outermost->is_async) {
        ADDOP(c, loc, GET_AITER);
    }
    else {
        /* the function iterates its argument itself; validate it (and
           raise early) here and drop the index */
        ADDOP_I(c, loc, GET_ITER, 0);
        ADDOP(c, loc, POP_TOP);
    }
    ADDOP_I(c, loc, CALL, 0);
    if (is_async && type != COMP_GENEXP) {
        ADDOP_I(c, loc, GET_AWAITABLE, 0);
        RETURN_IF_ERROR(emit_await_top(c, loc));
    }
    return 0;
}

/* ---- Expression dispatch ----------------------------------------------- */

static int
codegen_visit_keyword(compiler *c, keyword_ty k)
{
    VISIT(c, expr, k->value);
    return 0;
}

static int
add_static_attribute(compiler *c, expr_ty e)
{
    expr_ty value = e->v.Attribute.value;
    if (value->kind != Name_kind ||
        PyUnicode_CompareWithASCIIString(value->v.Name.id, "self") != 0) {
        return 0;
    }
    for (struct compiler_unit *u = c->u->u_parent; u != NULL; u = u->u_parent) {
        if (u->u_scope_type == COMPILE_SCOPE_CLASS) {
            return PySet_Add(u->u_static_attributes, e->v.Attribute.attr);
        }
    }
    return 0;
}

static int
codegen_subscript(compiler *c, expr_ty e)
{
    location loc = LOC(e);
    expr_context_ty ctx = e->v.Subscript.ctx;
    expr_ty index = e->v.Subscript.slice;
    VISIT(c, expr, e->v.Subscript.value);
    /* obj[a:b] is read and written without building a slice object */
    if (ctx != Del && is_two_element_slice(index)) {
        RETURN_IF_ERROR(codegen_slice_parts(c, index));
        return addop_noarg(c, loc, ctx == Store ? STORE_SLICE : BINARY_SLICE);
    }
    VISIT(c, expr, index);
    if (ctx == Load) {
        return addop_i(c, loc, BINARY_OP, NB_SUBSCR);
    }
    return addop_noarg(c, loc, ctx == Store ? STORE_SUBSCR : DELETE_SUBSCR);
}

static int
codegen_visit_expr(compiler *c, expr_ty e)
{
    RETURN_IF_ERROR(enter_recursion(c));
    location loc = LOC(e);
    int r = 0;
    switch (e->kind) {
    case NamedExpr_kind:
        r = codegen_visit_expr(c, e->v.NamedExpr.value);
        if (r == 0) {
            r = addop_i(c, loc, COPY, 1);
        }
        if (r == 0) {
            r = codegen_visit_expr(c, e->v.NamedExpr.target);
        }
        break;
    case BoolOp_kind:
        r = codegen_boolop(c, e);
        break;
    case BinOp_kind:
        r = codegen_visit_expr(c, e->v.BinOp.left);
        if (r == 0) {
            r = codegen_visit_expr(c, e->v.BinOp.right);
        }
        if (r == 0) {
            r = addop_i(c, loc, BINARY_OP, binop_oparg(e->v.BinOp.op));
        }
        break;
    case UnaryOp_kind:
        r = codegen_visit_expr(c, e->v.UnaryOp.operand);
        if (r == 0) {
            switch (e->v.UnaryOp.op) {
            case UAdd:
                r = addop_i(c, loc, CALL_INTRINSIC_1, INTRINSIC_UNARY_POSITIVE);
                break;
            case USub:
                r = addop_noarg(c, loc, UNARY_NEGATIVE);
                break;
            case Invert:
                r = addop_noarg(c, loc, UNARY_INVERT);
                break;
            case Not:
                r = addop_noarg(c, loc, TO_BOOL);
                if (r == 0) {
                    r = addop_noarg(c, loc, UNARY_NOT);
                }
                break;
            }
        }
        break;
    case Lambda_kind:
        r = codegen_lambda(c, e);
        break;
    case IfExp_kind:
        r = codegen_ifexp(c, e);
        break;
    case Dict_kind:
        r = codegen_dict(c, e);
        break;
    case Set_kind:
        r = starunpack_helper(c, loc, e->v.Set.elts, 0, BUILD_SET, SET_ADD, SET_UPDATE, 0);
        break;
    case GeneratorExp_kind: {
        PyObject *n = intern_str("<genexpr>");
        r = n ? codegen_comprehension(c, e, COMP_GENEXP, n, e->v.GeneratorExp.generators,
                                      e->v.GeneratorExp.elt, NULL) : -1;
        Py_XDECREF(n);
        break;
    }
    case ListComp_kind: {
        PyObject *n = intern_str("<listcomp>");
        r = n ? codegen_comprehension(c, e, COMP_LISTCOMP, n, e->v.ListComp.generators,
                                      e->v.ListComp.elt, NULL) : -1;
        Py_XDECREF(n);
        break;
    }
    case SetComp_kind: {
        PyObject *n = intern_str("<setcomp>");
        r = n ? codegen_comprehension(c, e, COMP_SETCOMP, n, e->v.SetComp.generators,
                                      e->v.SetComp.elt, NULL) : -1;
        Py_XDECREF(n);
        break;
    }
    case DictComp_kind: {
        PyObject *n = intern_str("<dictcomp>");
        r = n ? codegen_comprehension(c, e, COMP_DICTCOMP, n, e->v.DictComp.generators,
                                      e->v.DictComp.key, e->v.DictComp.value) : -1;
        Py_XDECREF(n);
        break;
    }
    case Yield_kind:
        if (!_PyST_IsFunctionLike(STE(c))) {
            r = codegen_error(c, loc, "'yield' outside function");
            break;
        }
        if (e->v.Yield.value) {
            r = codegen_visit_expr(c, e->v.Yield.value);
        }
        else {
            r = addop_load_const(c, loc, Py_None);
        }
        if (r == 0) {
            r = addop_yield(c, loc);
        }
        break;
    case YieldFrom_kind:
        if (!_PyST_IsFunctionLike(STE(c))) {
            r = codegen_error(c, loc, "'yield' outside function");
            break;
        }
        if (c->u->u_scope_type == COMPILE_SCOPE_ASYNC_FUNCTION) {
            r = codegen_error(c, loc, "'yield from' inside async function");
            break;
        }
        r = codegen_visit_expr(c, e->v.YieldFrom.value);
        if (r == 0) {
            r = addop_i(c, loc, GET_ITER, 1);
        }
        if (r == 0) {
            r = addop_load_const(c, loc, Py_None);
        }
        if (r == 0) {
            r = codegen_add_yield_from(c, loc, 0);
        }
        break;
    case Await_kind:
        r = codegen_await(c, e);
        break;
    case Compare_kind:
        r = codegen_compare(c, e);
        break;
    case Call_kind:
        r = codegen_call(c, e);
        break;
    case Constant_kind:
        r = addop_load_const(c, loc, e->v.Constant.value);
        break;
    case JoinedStr_kind:
        r = codegen_joined_str(c, e);
        break;
    case FormattedValue_kind:
        r = codegen_formatted_value(c, e);
        break;
    case TemplateStr_kind:
        r = codegen_template_str(c, e);
        break;
    case Interpolation_kind:
        r = codegen_interpolation(c, e);
        break;
    case Attribute_kind:
        if (e->v.Attribute.ctx == Load && can_optimize_super_call(c, e)) {
            r = load_super_attr(c, attr_location(e), e, 0);
            break;
        }
        if (e->v.Attribute.ctx == Store && add_static_attribute(c, e) < 0) {
            r = -1;
            break;
        }
        r = codegen_visit_expr(c, e->v.Attribute.value);
        if (r == 0) {
            location aloc = attr_location(e);
            int op = e->v.Attribute.ctx == Load ? LOAD_ATTR
                   : e->v.Attribute.ctx == Store ? STORE_ATTR : DELETE_ATTR;
            r = addop_name(c, aloc, op, e->v.Attribute.attr, METADATA(c)->u_names, 1);
        }
        break;
    case Subscript_kind:
        r = codegen_subscript(c, e);
        break;
    case Starred_kind:
        if (e->v.Starred.ctx == Store) {
            r = codegen_error(c, loc, "starred assignment target must be in a list or tuple");
        }
        else {
            r = codegen_error(c, loc, "can't use starred expression here");
        }
        break;
    case Slice_kind: {
        int n = codegen_slice_parts(c, e);
        r = n < 0 ? -1 : addop_i(c, loc, BUILD_SLICE, n);
        break;
    }
    case Name_kind:
        r = codegen_nameop(c, loc, e->v.Name.id, e->v.Name.ctx);
        break;
    case List_kind:
        r = codegen_list_or_tuple(c, e, e->v.List.elts, e->v.List.ctx, 0);
        break;
    case Tuple_kind:
        r = codegen_list_or_tuple(c, e, e->v.Tuple.elts, e->v.Tuple.ctx, 1);
        break;
    }
    c->c_depth--;
    return r;
}

/* ---- Pattern matching -------------------------------------------------- */

/* While matching, the captured values sit on the stack below `on_top`
   items of work in progress, most recent capture lowest; `stores` names
   them in capture order.  fail_pop[i] pops i items and then fails. */
typedef struct {
    PyObject *stores;
    int allow_irrefutable;
    int *fail_pop;
    Py_ssize_t fail_pop_size;
    Py_ssize_t on_top;
} pattern_context;

#define WILDCARD_CHECK(P) ((P)->kind == MatchAs_kind && !(P)->v.MatchAs.name)
#define WILDCARD_STAR_CHECK(P) ((P)->kind == MatchStar_kind && !(P)->v.MatchStar.name)

static int
ensure_fail_pop(compiler *c, pattern_context *pc, Py_ssize_t n)
{
    Py_ssize_t size = n + 1;
    if (size <= pc->fail_pop_size) {
        return 0;
    }
    int *p = PyMem_Realloc(pc->fail_pop, size * sizeof(int));
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    pc->fail_pop = p;
    while (pc->fail_pop_size < size) {
        pc->fail_pop[pc->fail_pop_size++] = _PyInstructionSequence_NewLabel(SEQ(c));
    }
    return 0;
}

static int
jump_to_fail_pop(compiler *c, location loc, pattern_context *pc, int op)
{
    /* on failure, pop the items being matched and the captured values */
    Py_ssize_t depth = PyList_GET_SIZE(pc->stores) + pc->on_top;
    RETURN_IF_ERROR(ensure_fail_pop(c, pc, depth));
    return addop_j(c, loc, op, pc->fail_pop[depth]);
}

static int
emit_and_reset_fail_pop(compiler *c, location loc, pattern_context *pc)
{
    /* fail_pop[k] pops one item and falls through to fail_pop[k - 1],
       so entering at k pops k items */
    Py_ssize_t count = pc->fail_pop_size;
    if (count == 0) {
        return 0;
    }
    for (Py_ssize_t k = count - 1; k > 0; k--) {
        USE_LABEL(c, pc->fail_pop[k]);
        RETURN_IF_ERROR(addop_noarg(c, loc, POP_TOP));
    }
    USE_LABEL(c, pc->fail_pop[0]);
    PyMem_Free(pc->fail_pop);
    pc->fail_pop = NULL;
    pc->fail_pop_size = 0;
    return 0;
}

static int
pattern_rotate(compiler *c, location loc, Py_ssize_t count)
{
    while (1 < count) {
        ADDOP_I(c, loc, SWAP, count--);
    }
    return 0;
}

static int
pattern_store_name(compiler *c, location loc, PyObject *n, pattern_context *pc)
{
    if (n == NULL) {
        ADDOP(c, loc, POP_TOP);
        return 0;
    }
    int dup = PySequence_Contains(pc->stores, n);
    RETURN_IF_ERROR(dup);
    if (dup) {
        return codegen_error(c, loc, "multiple assignments to name %R in pattern", n);
    }
    Py_ssize_t rotations = pc->on_top + PyList_GET_SIZE(pc->stores) + 1;
    RETURN_IF_ERROR(pattern_rotate(c, loc, rotations));
    return PyList_Append(pc->stores, n);
}

static int
pattern_subpattern(compiler *c, pattern_ty p, pattern_context *pc)
{
    int allow = pc->allow_irrefutable;
    pc->allow_irrefutable = 1;
    int r = codegen_pattern(c, p, pc);
    pc->allow_irrefutable = allow;
    return r;
}

static Py_ssize_t
find_star_pattern(asdl_pattern_seq *patterns, Py_ssize_t from)
{
    for (Py_ssize_t k = from; k < asdl_seq_LEN(patterns); k++) {
        if (asdl_seq_GET(patterns, k)->kind == MatchStar_kind) {
            return k;
        }
    }
    return -1;
}

static int
pattern_unpack_helper(compiler *c, location loc, asdl_pattern_seq *elts)
{
    Py_ssize_t star = find_star_pattern(elts, 0);
    int another = star >= 0 && find_star_pattern(elts, star + 1) >= 0;
    return emit_unpack(c, loc, asdl_seq_LEN(elts), star, another, "sequence pattern");
}

static int
pattern_sequence_unpack(compiler *c, location loc, asdl_pattern_seq *patterns,
                        pattern_context *pc)
{
    RETURN_IF_ERROR(pattern_unpack_helper(c, loc, patterns));
    /* the items lie on the stack first on top; while one is matched, the
       ones after it wait below */
    Py_ssize_t base = pc->on_top;
    Py_ssize_t count = asdl_seq_LEN(patterns);
    for (Py_ssize_t k = 0; k < count; k++) {
        pc->on_top = base + (count - 1 - k);
        RETURN_IF_ERROR(pattern_subpattern(c, asdl_seq_GET(patterns, k), pc));
    }
    pc->on_top = base;
    return 0;
}

/* Pushes subject[index] above the subject.  Items after the star are
   found from the end through len(subject), since the subject need not
   support negative indexes. */
static int
push_subject_item(compiler *c, location loc, Py_ssize_t index, Py_ssize_t count,
                  Py_ssize_t star)
{
    ADDOP_I(c, loc, COPY, 1);
    if (index > star) {
        ADDOP(c, loc, GET_LEN);
        ADDOP_LOAD_CONST_NEW(c, loc, PyLong_FromSsize_t(count - index));
        ADDOP_I(c, loc, BINARY_OP, NB_SUBTRACT);
    }
    else {
        ADDOP_LOAD_CONST_NEW(c, loc, PyLong_FromSsize_t(index));
    }
    return addop_i(c, loc, BINARY_OP, NB_SUBSCR);
}

/* Match sub-patterns by index when everything around one wildcard star
   can be fetched without unpacking. */
static int
pattern_sequence_subscr(compiler *c, location loc, asdl_pattern_seq *patterns,
                        Py_ssize_t star, pattern_context *pc)
{
    Py_ssize_t count = asdl_seq_LEN(patterns);
    pc->on_top++;       /* the subject stays while its items are matched */
    for (Py_ssize_t k = 0; k < count; k++) {
        pattern_ty sub = asdl_seq_GET(patterns, k);
        if (k != star && !WILDCARD_CHECK(sub)) {
            RETURN_IF_ERROR(push_subject_item(c, loc, k, count, star));
            RETURN_IF_ERROR(pattern_subpattern(c, sub, pc));
        }
    }
    pc->on_top--;
    return addop_noarg(c, loc, POP_TOP);
}

static int
codegen_pattern_as(compiler *c, pattern_ty p, pattern_context *pc)
{
    location loc = LOC(p);
    PyObject *name = p->v.MatchAs.name;
    pattern_ty inner = p->v.MatchAs.pattern;
    if (inner != NULL) {
        /* `inner as name`: match a copy, then bind the subject */
        pc->on_top++;
        RETURN_IF_ERROR(addop_i(c, loc, COPY, 1));
        RETURN_IF_ERROR(codegen_pattern(c, inner, pc));
        pc->on_top--;
    }
    else if (!pc->allow_irrefutable) {
        /* a bare capture or _ matches anything, so later cases never run */
        if (name == NULL) {
            return codegen_error(c, loc, "wildcard makes remaining patterns unreachable");
        }
        return codegen_error(c, loc, "name capture %R makes remaining patterns unreachable",
                             name);
    }
    return pattern_store_name(c, loc, name, pc);
}

static int
codegen_pattern_sequence(compiler *c, pattern_ty p, pattern_context *pc)
{
    location loc = LOC(p);
    asdl_pattern_seq *patterns = p->v.MatchSequence.patterns;
    Py_ssize_t size = asdl_seq_LEN(patterns);
    Py_ssize_t star = -1;
    int only_wildcard = 1, star_wildcard = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        pattern_ty pattern = asdl_seq_GET(patterns, i);
        if (pattern->kind == MatchStar_kind) {
            if (star >= 0) {
                return codegen_error(c, loc, "multiple starred names in sequence pattern");
            }
            star_wildcard = WILDCARD_STAR_CHECK(pattern);
            only_wildcard &= star_wildcard;
            star = i;
            continue;
        }
        only_wildcard &= WILDCARD_CHECK(pattern);
    }
    pc->on_top++;
    ADDOP(c, loc, MATCH_SEQUENCE);
    RETURN_IF_ERROR(jump_to_fail_pop(c, loc, pc, POP_JUMP_IF_FALSE));
    if (star < 0) {
        ADDOP(c, loc, GET_LEN);
        ADDOP_LOAD_CONST_NEW(c, loc, PyLong_FromSsize_t(size));
        ADDOP_COMPARE(c, loc, Eq);
        ADDOP(c, loc, TO_BOOL);
        RETURN_IF_ERROR(jump_to_fail_pop(c, loc, pc, POP_JUMP_IF_FALSE));
    }
    else if (size - 1 > 0) {
        ADDOP(c, loc, GET_LEN);
        ADDOP_LOAD_CONST_NEW(c, loc, PyLong_FromSsize_t(size - 1));
        ADDOP_COMPARE(c, loc, GtE);
        ADDOP(c, loc, TO_BOOL);
        RETURN_IF_ERROR(jump_to_fail_pop(c, loc, pc, POP_JUMP_IF_FALSE));
    }
    pc->on_top--;
    if (only_wildcard) {
        ADDOP(c, loc, POP_TOP);
    }
    else if (star_wildcard) {
        RETURN_IF_ERROR(pattern_sequence_subscr(c, loc, patterns, star, pc));
    }
    else {
        RETURN_IF_ERROR(pattern_sequence_unpack(c, loc, patterns, pc));
    }
    return 0;
}

/* The value of a literal usable in a pattern: a constant, a negated
   number or a complex literal like 1+2j (the parser leaves these as
   operations).  New reference; NULL without an exception otherwise. */
static PyObject *
pattern_literal_value(expr_ty e)
{
    if (e->kind == Constant_kind) {
        if (PyUnicode_Check(e->v.Constant.value) || PyBytes_Check(e->v.Constant.value) ||
            PyLong_Check(e->v.Constant.value) || PyFloat_Check(e->v.Constant.value) ||
            PyComplex_Check(e->v.Constant.value) || e->v.Constant.value == Py_None ||
            PyBool_Check(e->v.Constant.value)) {
            return Py_NewRef(e->v.Constant.value);
        }
        return NULL;
    }
    if (e->kind == UnaryOp_kind && e->v.UnaryOp.op == USub &&
        e->v.UnaryOp.operand->kind == Constant_kind) {
        PyObject *r = PyNumber_Negative(e->v.UnaryOp.operand->v.Constant.value);
        if (r == NULL) {
            PyErr_Clear();
        }
        return r;
    }
    if (e->kind == BinOp_kind && (e->v.BinOp.op == Add || e->v.BinOp.op == Sub)) {
        PyObject *l = pattern_literal_value(e->v.BinOp.left);
        if (l == NULL) {
            return NULL;
        }
        PyObject *r = pattern_literal_value(e->v.BinOp.right);
        if (r == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        PyObject *res = e->v.BinOp.op == Add ? PyNumber_Add(l, r) : PyNumber_Subtract(l, r);
        Py_DECREF(l);
        Py_DECREF(r);
        if (res == NULL) {
            PyErr_Clear();
        }
        return res;
    }
    return NULL;
}

static int
codegen_pattern_mapping(compiler *c, pattern_ty p, pattern_context *pc)
{
    location loc = LOC(p);
    asdl_expr_seq *keys = p->v.MatchMapping.keys;
    asdl_pattern_seq *patterns = p->v.MatchMapping.patterns;
    Py_ssize_t size = asdl_seq_LEN(keys);
    if (size != asdl_seq_LEN(patterns)) {
        PyErr_SetString(PyExc_SystemError, "keys and patterns differ in length");
        return -1;
    }
    PyObject *star_target = p->v.MatchMapping.rest;
    pc->on_top++;
    ADDOP(c, loc, MATCH_MAPPING);
    RETURN_IF_ERROR(jump_to_fail_pop(c, loc, pc, POP_JUMP_IF_FALSE));
    if (!size && !star_target) {
        pc->on_top--;
        ADDOP(c, loc, POP_TOP);
        return 0;
    }
    if (size) {
        ADDOP(c, loc, GET_LEN);
        ADDOP_LOAD_CONST_NEW(c, loc, PyLong_FromSsize_t(size));
        ADDOP_COMPARE(c, loc, GtE);
        ADDOP(c, loc, TO_BOOL);
        RETURN_IF_ERROR(jump_to_fail_pop(c, loc, pc, POP_JUMP_IF_FALSE));
    }
    PyObject *seen = PySet_New(NULL);
    if (seen == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        expr_ty key = asdl_seq_GET(keys, i);
        if (key == NULL) {
            Py_DECREF(seen);
            return codegen_error(c, LOC(asdl_seq_GET(patterns, i)),
                "can't use NULL keys in MatchMapping (set 'rest' parameter instead)");
        }
        PyObject *kval = pattern_literal_value(key);
        if (kval == NULL && PyErr_Occurred()) {
            Py_DECREF(seen);
            return -1;
        }
        if (kval != NULL) {
            int in_seen = PySet_Contains(seen, kval);
            if (in_seen < 0 || (!in_seen && PySet_Add(seen, kval) < 0)) {
                Py_DECREF(kval);
                Py_DECREF(seen);
                return -1;
            }
            if (in_seen) {
                Py_DECREF(seen);
                int r = codegen_error(c, LOC(p), "mapping pattern checks duplicate key (%R)",
                                      kval);
                Py_DECREF(kval);
                return r;
            }
            Py_DECREF(kval);
        }
        else if (key->kind != Attribute_kind) {
            Py_DECREF(seen);
            return codegen_error(c, LOC(key),
                "mapping pattern keys may only match literals and attribute lookups");
        }
        if (codegen_visit_expr(c, key) < 0) {
            Py_DECREF(seen);
            return -1;
        }
    }
    Py_DECREF(seen);
    ADDOP_I(c, loc, BUILD_TUPLE, size);
    ADDOP(c, loc, MATCH_KEYS);
    /* stack: subject, keys, values (or None) */
    pc->on_top += 2;
    ADDOP_I(c, loc, COPY, 1);
    ADDOP_LOAD_CONST(c, loc, Py_None);
    ADDOP_I(c, loc, IS_OP, 1);
    RETURN_IF_ERROR(jump_to_fail_pop(c, loc, pc, POP_JUMP_IF_FALSE));
    ADDOP_I(c, loc, UNPACK_SEQUENCE, size);
    pc->on_top += size - 1;
    for (Py_ssize_t i = 0; i < size; i++) {
        pc->on_top--;
        RETURN_IF_ERROR(pattern_subpattern(c, asdl_seq_GET(patterns, i), pc));
    }
    pc->on_top -= 2;
    if (star_target) {
        /* rest = dict(subject) minus the matched keys */
        ADDOP_I(c, loc, BUILD_MAP, 0);
        ADDOP_I(c, loc, SWAP, 3);
        ADDOP_I(c, loc, DICT_UPDATE, 2);
        ADDOP_I(c, loc, UNPACK_SEQUENCE, size);
        while (size) {
            ADDOP_I(c, loc, COPY, 1 + size--);
            ADDOP_I(c, loc, SWAP, 2);
            ADDOP(c, loc, DELETE_SUBSCR);
        }
        RETURN_IF_ERROR(pattern_store_name(c, loc, star_target, pc));
    }
    else {
        ADDOP(c, loc, POP_TOP);   /* keys */
        ADDOP(c, loc, POP_TOP);   /* subject */
    }
    return 0;
}

static int
codegen_pattern_class(compiler *c, pattern_ty p, pattern_context *pc)
{
    location loc = LOC(p);
    asdl_pattern_seq *patterns = p->v.MatchClass.patterns;
    asdl_identifier_seq *kwd_attrs = p->v.MatchClass.kwd_attrs;
    asdl_pattern_seq *kwd_patterns = p->v.MatchClass.kwd_patterns;
    Py_ssize_t nargs = asdl_seq_LEN(patterns);
    Py_ssize_t nattrs = asdl_seq_LEN(kwd_attrs);
    if (nattrs != asdl_seq_LEN(kwd_patterns)) {
        PyErr_SetString(PyExc_SystemError, "kwd_attrs and kwd_patterns differ in length");
        return -1;
    }
    for (Py_ssize_t i = 0; i < nattrs; i++) {
        PyObject *attr = asdl_seq_GET(kwd_attrs, i);
        for (Py_ssize_t j = i + 1; j < nattrs; j++) {
            if (PyUnicode_Compare(attr, asdl_seq_GET(kwd_attrs, j)) == 0) {
                return codegen_error(c, LOC(asdl_seq_GET(kwd_patterns, j)),
                                     "attribute name repeated in class pattern: %U", attr);
            }
        }
    }
    VISIT(c, expr, p->v.MatchClass.cls);
    PyObject *names = PyTuple_New(nattrs);
    if (names == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < nattrs; i++) {
        PyTuple_SET_ITEM(names, i, Py_NewRef(asdl_seq_GET(kwd_attrs, i)));
    }
    ADDOP_LOAD_CONST_NEW(c, loc, names);
    ADDOP_I(c, loc, MATCH_CLASS, nargs);
    ADDOP_I(c, loc, COPY, 1);
    ADDOP_LOAD_CONST(c, loc, Py_None);
    ADDOP_I(c, loc, IS_OP, 1);
    pc->on_top++;
    RETURN_IF_ERROR(jump_to_fail_pop(c, loc, pc, POP_JUMP_IF_FALSE));
    ADDOP_I(c, loc, UNPACK_SEQUENCE, nargs + nattrs);
    pc->on_top += nargs + nattrs - 1;
    for (Py_ssize_t i = 0; i < nargs + nattrs; i++) {
        pc->on_top--;
        pattern_ty pattern = i < nargs ? asdl_seq_GET(patterns, i)
                                       : asdl_seq_GET(kwd_patterns, i - nargs);
        if (WILDCARD_CHECK(pattern)) {
            ADDOP(c, loc, POP_TOP);
            continue;
        }
        RETURN_IF_ERROR(pattern_subpattern(c, pattern, pc));
    }
    return 0;
}

static int
codegen_pattern_or(compiler *c, pattern_ty p, pattern_context *pc)
{
    location loc = LOC(p);
    NEW_LABEL(c, end);
    asdl_pattern_seq *alts = p->v.MatchOr.patterns;
    Py_ssize_t size = asdl_seq_LEN(alts);
    pattern_context old_pc = *pc;
    PyObject *control = NULL;
    int r = -1;
    pc->stores = NULL;
    for (Py_ssize_t i = 0; i < size; i++) {
        pattern_ty alt = asdl_seq_GET(alts, i);
        Py_XDECREF(pc->stores);
        pc->stores = PyList_New(0);
        if (pc->stores == NULL) {
            goto error;
        }
        pc->allow_irrefutable = (i == size - 1) && old_pc.allow_irrefutable;
        pc->fail_pop = NULL;
        pc->fail_pop_size = 0;
        pc->on_top = 0;
        if (addop_i(c, LOC(alt), COPY, 1) < 0 || codegen_pattern(c, alt, pc) < 0) {
            goto error;
        }
        Py_ssize_t nstores = PyList_GET_SIZE(pc->stores);
        if (i == 0) {
            control = Py_NewRef(pc->stores);
        }
        else if (nstores != PyList_GET_SIZE(control)) {
            goto diff;
        }
        else if (nstores) {
            /* bring this alternative's captures into the control order */
            Py_ssize_t icontrol = nstores;
            while (icontrol--) {
                PyObject *name = PyList_GET_ITEM(control, icontrol);
                Py_ssize_t istores = PySequence_Index(pc->stores, name);
                if (istores < 0) {
                    PyErr_Clear();
                    goto diff;
                }
                if (icontrol != istores) {
                    Py_ssize_t rotations = istores + 1;
                    PyObject *rotated = PyList_GetSlice(pc->stores, 0, rotations);
                    if (rotated == NULL ||
                        PyList_SetSlice(pc->stores, 0, rotations, NULL) < 0) {
                        Py_XDECREF(rotated);
                        goto error;
                    }
                    while (rotations--) {
                        if (pattern_rotate(c, loc, icontrol + 1) < 0) {
                            Py_DECREF(rotated);
                            goto error;
                        }
                    }
                    int err = PyList_SetSlice(pc->stores, icontrol - istores,
                                              icontrol - istores, rotated);
                    Py_DECREF(rotated);
                    if (err < 0) {
                        goto error;
                    }
                }
            }
        }
        if (addop_j(c, LOC(alt), JUMP, end) < 0 ||
            emit_and_reset_fail_pop(c, LOC(alt), pc) < 0) {
            goto error;
        }
    }
    Py_DECREF(pc->stores);
    *pc = old_pc;
    if (addop_noarg(c, loc, POP_TOP) < 0 || jump_to_fail_pop(c, loc, pc, JUMP) < 0 ||
        _PyInstructionSequence_UseLabel(SEQ(c), end) < 0) {
        goto done;
    }
    Py_ssize_t nstores = PyList_GET_SIZE(control);
    Py_ssize_t nrots = nstores + 1 + pc->on_top + PyList_GET_SIZE(pc->stores);
    for (Py_ssize_t i = 0; i < nstores; i++) {
        if (pattern_rotate(c, loc, nrots) < 0) {
            goto done;
        }
        PyObject *name = PyList_GET_ITEM(control, i);
        int dup = PySequence_Contains(pc->stores, name);
        if (dup < 0) {
            goto done;
        }
        if (dup) {
            codegen_error(c, loc, "multiple assignments to name %R in pattern", name);
            goto done;
        }
        if (PyList_Append(pc->stores, name) < 0) {
            goto done;
        }
    }
    if (addop_noarg(c, loc, POP_TOP) < 0) {
        goto done;
    }
    r = 0;
    goto done;
diff:
    codegen_error(c, LOC(p), "alternative patterns bind different names");
error:
    PyMem_Free(pc->fail_pop);
    Py_XDECREF(pc->stores);
    *pc = old_pc;
done:
    Py_XDECREF(control);
    return r;
}

static int
codegen_pattern(compiler *c, pattern_ty p, void *arg)
{
    pattern_context *pc = arg;
    RETURN_IF_ERROR(enter_recursion(c));
    location loc = LOC(p);
    int r = 0;
    switch (p->kind) {
    case MatchValue_kind:
        r = codegen_visit_expr(c, p->v.MatchValue.value);
        if (r == 0) {
            r = addop_compare(c, loc, Eq);
        }
        if (r == 0) {
            r = addop_noarg(c, loc, TO_BOOL);
        }
        if (r == 0) {
            r = jump_to_fail_pop(c, loc, pc, POP_JUMP_IF_FALSE);
        }
        break;
    case MatchSingleton_kind:
        r = addop_load_const(c, loc, p->v.MatchSingleton.value);
        if (r == 0) {
            r = addop_compare(c, loc, Is);
        }
        if (r == 0) {
            r = jump_to_fail_pop(c, loc, pc, POP_JUMP_IF_FALSE);
        }
        break;
    case MatchSequence_kind:
        r = codegen_pattern_sequence(c, p, pc);
        break;
    case MatchMapping_kind:
        r = codegen_pattern_mapping(c, p, pc);
        break;
    case MatchClass_kind:
        r = codegen_pattern_class(c, p, pc);
        break;
    case MatchStar_kind:
        r = pattern_store_name(c, loc, p->v.MatchStar.name, pc);
        break;
    case MatchAs_kind:
        r = codegen_pattern_as(c, p, pc);
        break;
    case MatchOr_kind:
        r = codegen_pattern_or(c, p, pc);
        break;
    }
    c->c_depth--;
    return r;
}

/* One case of a match statement, the subject on top of the stack.  With
   keep_subject the pattern works on a copy, so that later cases can test
   the subject too.  On a match the captures are bound, the guard is
   tested and the body runs and jumps to `end`; a failure anywhere lands
   on the fail-pop chain emitted last. */
static int
codegen_match_case(compiler *c, match_case_ty mc, pattern_context *pc,
                   int keep_subject, int irrefutable_ok, int end)
{
    location at = LOC(mc->pattern);
    if (keep_subject) {
        ADDOP_I(c, at, COPY, 1);
    }
    Py_XSETREF(pc->stores, PyList_New(0));
    if (pc->stores == NULL) {
        return -1;
    }
    pc->allow_irrefutable = irrefutable_ok;
    pc->fail_pop = NULL;
    pc->fail_pop_size = 0;
    pc->on_top = 0;
    RETURN_IF_ERROR(codegen_pattern(c, mc->pattern, pc));
    /* the captured values lie on the stack in capture order */
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(pc->stores); k++) {
        RETURN_IF_ERROR(codegen_nameop(c, at, PyList_GET_ITEM(pc->stores, k), Store));
    }
    if (mc->guard != NULL) {
        RETURN_IF_ERROR(ensure_fail_pop(c, pc, 0));
        RETURN_IF_ERROR(codegen_jump_if(c, at, mc->guard, pc->fail_pop[0], 0));
    }
    if (keep_subject) {
        ADDOP(c, at, POP_TOP);
    }
    VISIT_SEQ(c, stmt, mc->body);
    ADDOP_JUMP(c, NO_LOCATION, JUMP, end);
    return emit_and_reset_fail_pop(c, at, pc);
}

static int
codegen_match_inner(compiler *c, stmt_ty s, pattern_context *pc)
{
    asdl_match_case_seq *cases = s->v.Match.cases;
    Py_ssize_t ncases = asdl_seq_LEN(cases);
    /* the parser gives every match at least one case */
    match_case_ty final = ncases > 0 ? asdl_seq_GET(cases, ncases - 1) : NULL;
    /* a trailing `case _:` after other cases needs no test at all */
    int wildcard_last = ncases > 1 && WILDCARD_CHECK(final->pattern);
    Py_ssize_t tested = ncases - wildcard_last;
    VISIT(c, expr, s->v.Match.subject);
    NEW_LABEL(c, end);
    for (Py_ssize_t k = 0; k < tested; k++) {
        match_case_ty mc = asdl_seq_GET(cases, k);
        /* an irrefutable pattern is fine in the last case or with a guard */
        int irrefutable_ok = k == ncases - 1 || mc->guard != NULL;
        RETURN_IF_ERROR(codegen_match_case(c, mc, pc, k + 1 < tested, irrefutable_ok, end));
    }
    if (wildcard_last) {
        location at = LOC(final->pattern);
        /* the last tested case consumed the subject; the NOP keeps the line */
        ADDOP(c, at, NOP);
        if (final->guard != NULL) {
            RETURN_IF_ERROR(codegen_jump_if(c, at, final->guard, end, 0));
        }
        VISIT_SEQ(c, stmt, final->body);
    }
    USE_LABEL(c, end);
    return 0;
}

static int
codegen_match(compiler *c, stmt_ty s)
{
    pattern_context pc = {NULL, 0, NULL, 0, 0};
    int r = codegen_match_inner(c, s, &pc);
    /* a failed case leaves its fail-pop chain behind */
    PyMem_Free(pc.fail_pop);
    Py_XDECREF(pc.stores);
    return r;
}
