/* The control-flow graph: basic blocks built from an instruction
   sequence, the optimisation passes that run on them, and the conversion
   back to a flat sequence (with exception-handler information and stack
   depths) for the assembler.

   Pass order (see _PyCfg_OptimizeCodeUnit): exception handlers are
   labelled first, so every instruction knows its handler block; then
   unreachable code goes, line numbers are propagated to instructions that
   have none, constants are folded, jumps threaded, redundant NOPs and
   jumps removed, loads of possibly-unbound locals get checks, superinstr-
   uctions are formed and handler-only ("cold") blocks move to the end. */

#define _PY_COMPILER_INTERNALS
#include "Python.h"
#include "pycore_code.h"
#include "pycore_compile.h"
#include "pycore_opcode_utils.h"
#include "opcode_ids.h"
#include "pycore_opcode_metadata.h"

#include <stdbool.h>

typedef _Py_SourceLocation location;
#define NO_LOCATION _Py_NO_LOCATION

typedef struct _PyCfgBasicblock basicblock;

typedef struct {
    int i_opcode;
    int i_oparg;
    location i_loc;
    basicblock *i_target;   /* jump or handler target */
    basicblock *i_except;   /* handler covering this instruction */
} cfg_instr;

struct _PyCfgBasicblock {
    basicblock *b_list;     /* every block, for freeing */
    basicblock *b_next;     /* layout order */
    cfg_instr *b_instr;
    int b_iused;
    int b_ialloc;
    int b_label;            /* instruction index it started at, or -1 */
    int b_predecessors;
    int b_startdepth;
    int b_offset;           /* index in the output sequence */
    basicblock **b_exceptstack; /* handler stack on entry (labelling pass) */
    int b_exceptdepth;
    unsigned b_visited : 1;
    unsigned b_except_handler : 1;
    unsigned b_preserve_lasti : 1;
    unsigned b_cold : 1;
    unsigned b_warm : 1;
};

struct _PyCfgBuilder {
    basicblock *g_entryblock;
    basicblock *g_block_list;
    basicblock *g_curblock;
};

#define MAX_COPY_SIZE 4
#define STACK_USE_GUIDELINE 30
#define MAX_INT_SIZE 128
#define MAX_COLLECTION_SIZE 256
#define MAX_STR_SIZE 4096
#define MAX_TOTAL_ITEMS 1024

/* ---- Opcode classes ----------------------------------------------------- */

static int
is_block_push(int op)
{
    return op == SETUP_FINALLY || op == SETUP_CLEANUP || op == SETUP_WITH;
}

static int
has_target(int op)
{
    return _PyInstructionSequence_HasTarget(op);
}

static int
is_cond_jump(int op)
{
    return op == POP_JUMP_IF_FALSE || op == POP_JUMP_IF_TRUE ||
           op == POP_JUMP_IF_NONE || op == POP_JUMP_IF_NOT_NONE;
}

static int
is_uncond_jump(int op)
{
    return op == JUMP || op == JUMP_NO_INTERRUPT || op == JUMP_FORWARD ||
           op == JUMP_BACKWARD || op == JUMP_BACKWARD_NO_INTERRUPT;
}

static int
is_scope_exit(int op)
{
    return op == RETURN_VALUE || op == RAISE_VARARGS || op == RERAISE;
}

static int
is_terminator(int op)
{
    return is_uncond_jump(op) || is_scope_exit(op);
}

static int
is_jump(cfg_instr *i)
{
    return has_target(i->i_opcode);
}

static cfg_instr *
last_instr(basicblock *b)
{
    return b->b_iused ? &b->b_instr[b->b_iused - 1] : NULL;
}

static int
has_fallthrough(basicblock *b)
{
    cfg_instr *last = last_instr(b);
    return last == NULL || !is_terminator(last->i_opcode);
}

static int
stack_effect(int opcode, int oparg, int jump)
{
    if (opcode == NOP || opcode == NOT_TAKEN) {
        return 0;
    }
    int popped = _PyOpcode_num_popped(opcode, oparg);
    int pushed = _PyOpcode_num_pushed(opcode, oparg);
    if (popped < 0 || pushed < 0) {
        return INT_MAX;
    }
    if (is_block_push(opcode) && !jump) {
        return 0;
    }
    return pushed - popped;
}

int
_PyCompile_StackEffect(int opcode, int oparg, int jump)
{
    if (jump < 0) {
        int a = stack_effect(opcode, oparg, 0), b = stack_effect(opcode, oparg, 1);
        if (a == INT_MAX || b == INT_MAX) {
            return INT_MAX;
        }
        return a > b ? a : b;
    }
    return stack_effect(opcode, oparg, jump);
}

/* ---- Blocks ------------------------------------------------------------- */

static basicblock *
new_block(cfg_builder *g)
{
    basicblock *b = PyMem_Calloc(1, sizeof(basicblock));
    if (b == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    b->b_list = g->g_block_list;
    g->g_block_list = b;
    b->b_label = -1;
    b->b_startdepth = INT_MIN;
    return b;
}

void
_PyCfgBuilder_Free(cfg_builder *g)
{
    if (g == NULL) {
        return;
    }
    basicblock *b = g->g_block_list;
    while (b != NULL) {
        basicblock *next = b->b_list;
        PyMem_Free(b->b_instr);
        PyMem_Free(b->b_exceptstack);
        PyMem_Free(b);
        b = next;
    }
    PyMem_Free(g);
}

static int
block_next_instr(basicblock *b)
{
    if (b->b_iused == b->b_ialloc) {
        int n = b->b_ialloc ? b->b_ialloc * 2 : 16;
        cfg_instr *p = PyMem_Realloc(b->b_instr, (size_t)n * sizeof(cfg_instr));
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->b_instr = p;
        b->b_ialloc = n;
    }
    return b->b_iused++;
}

static int
block_addop(basicblock *b, int opcode, int oparg, location loc)
{
    int off = block_next_instr(b);
    if (off < 0) {
        return -1;
    }
    cfg_instr *i = &b->b_instr[off];
    i->i_opcode = opcode;
    i->i_oparg = oparg;
    i->i_loc = loc;
    i->i_target = NULL;
    i->i_except = NULL;
    return 0;
}

static int
block_insert(basicblock *b, int pos, cfg_instr *ins)
{
    if (block_next_instr(b) < 0) {
        return -1;
    }
    memmove(&b->b_instr[pos + 1], &b->b_instr[pos],
            (size_t)(b->b_iused - 1 - pos) * sizeof(cfg_instr));
    b->b_instr[pos] = *ins;
    return 0;
}

static basicblock *
next_nonempty(basicblock *b)
{
    while (b && b->b_iused == 0) {
        b = b->b_next;
    }
    return b;
}

static void
set_nop(cfg_instr *i)
{
    i->i_opcode = NOP;
    i->i_oparg = 0;
    i->i_target = NULL;
}

/* ---- Building ----------------------------------------------------------- */

cfg_builder *
_PyCfg_FromInstructionSequence(_PyInstructionSequence *seq)
{
    if (_PyInstructionSequence_ApplyLabelMap(seq) < 0) {
        return NULL;
    }
    cfg_builder *g = PyMem_Calloc(1, sizeof(cfg_builder));
    if (g == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    int n = seq->s_used;
    char *is_target = PyMem_Calloc((size_t)n + 1, 1);
    basicblock **block_at = PyMem_Calloc((size_t)n + 1, sizeof(basicblock *));
    if (is_target == NULL || block_at == NULL) {
        PyErr_NoMemory();
        goto error;
    }
    for (int i = 0; i < n; i++) {
        _PyInstruction *ins = &seq->s_instrs[i];
        if (has_target(ins->i_opcode)) {
            if (ins->i_oparg < 0 || ins->i_oparg > n) {
                PyErr_SetString(PyExc_SystemError, "jump target out of range");
                goto error;
            }
            is_target[ins->i_oparg] = 1;
        }
    }
    basicblock *cur = new_block(g);
    if (cur == NULL) {
        goto error;
    }
    g->g_entryblock = cur;
    cur->b_label = 0;
    block_at[0] = cur;
    int start_new = 0;
    for (int i = 0; i < n; i++) {
        _PyInstruction *ins = &seq->s_instrs[i];
        if ((is_target[i] || start_new) && (cur->b_iused > 0 || cur->b_label != i)) {
            basicblock *b = new_block(g);
            if (b == NULL) {
                goto error;
            }
            cur->b_next = b;
            cur = b;
            cur->b_label = i;
        }
        if (is_target[i]) {
            block_at[i] = cur;
        }
        start_new = 0;
        int op = ins->i_opcode;
        if (op == JUMP_IF_FALSE || op == JUMP_IF_TRUE) {
            /* COPY 1; TO_BOOL; POP_JUMP_IF_xxx; (next block) NOT_TAKEN */
            if (block_addop(cur, COPY, 1, ins->i_loc) < 0 ||
                block_addop(cur, TO_BOOL, 0, ins->i_loc) < 0 ||
                block_addop(cur, op == JUMP_IF_FALSE ? POP_JUMP_IF_FALSE : POP_JUMP_IF_TRUE,
                            ins->i_oparg, ins->i_loc) < 0) {
                goto error;
            }
            basicblock *b = new_block(g);
            if (b == NULL) {
                goto error;
            }
            cur->b_next = b;
            cur = b;
            if (block_addop(cur, NOT_TAKEN, 0, ins->i_loc) < 0) {
                goto error;
            }
            continue;
        }
        if (block_addop(cur, op, ins->i_oparg, ins->i_loc) < 0) {
            goto error;
        }
        if (has_target(op) || is_terminator(op)) {
            start_new = 1;
        }
    }
    if (is_target[n]) {
        basicblock *b = new_block(g);
        if (b == NULL) {
            goto error;
        }
        cur->b_next = b;
        block_at[n] = b;
    }
    /* jump opargs are instruction indices: point them at blocks */
    for (basicblock *b = g->g_entryblock; b != NULL; b = b->b_next) {
        for (int i = 0; i < b->b_iused; i++) {
            cfg_instr *ins = &b->b_instr[i];
            if (has_target(ins->i_opcode)) {
                ins->i_target = block_at[ins->i_oparg];
                ins->i_oparg = 0;
                if (ins->i_target == NULL) {
                    PyErr_SetString(PyExc_SystemError, "jump to a non-block");
                    goto error;
                }
            }
        }
    }
    PyMem_Free(is_target);
    PyMem_Free(block_at);
    return g;
error:
    PyMem_Free(is_target);
    PyMem_Free(block_at);
    _PyCfgBuilder_Free(g);
    return NULL;
}

/* ---- Exception handlers ------------------------------------------------- */

static void
mark_except_handlers(basicblock *entry)
{
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        for (int i = 0; i < b->b_iused; i++) {
            cfg_instr *ins = &b->b_instr[i];
            if (is_block_push(ins->i_opcode)) {
                ins->i_target->b_except_handler = 1;
                if (ins->i_opcode != SETUP_FINALLY) {
                    ins->i_target->b_preserve_lasti = 1;
                }
            }
        }
    }
}

static int
set_block_except_stack(basicblock *b, basicblock **stack, int depth)
{
    basicblock **copy = NULL;
    if (depth > 0) {
        copy = PyMem_Malloc((size_t)depth * sizeof(basicblock *));
        if (copy == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(copy, stack, (size_t)depth * sizeof(basicblock *));
    }
    PyMem_Free(b->b_exceptstack);
    b->b_exceptstack = copy;
    b->b_exceptdepth = depth;
    return 0;
}

/* Walk the graph with the stack of active handlers (pushed by SETUP_*,
   popped by POP_BLOCK) and record each instruction's handler. */
static int
label_exception_targets(basicblock *entry)
{
    int nblocks = 0;
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        nblocks++;
        b->b_visited = 0;
    }
    basicblock **todo = PyMem_Malloc((size_t)(nblocks + 1) * sizeof(basicblock *));
    basicblock **stack = PyMem_Malloc((size_t)(_PY_MAX_FBLOCKS * 4 + 8) * sizeof(basicblock *));
    if (todo == NULL || stack == NULL) {
        PyMem_Free(todo);
        PyMem_Free(stack);
        PyErr_NoMemory();
        return -1;
    }
    int ntodo = 0;
    const int maxdepth = _PY_MAX_FBLOCKS * 4 + 8;
    if (set_block_except_stack(entry, stack, 0) < 0) {
        goto error;
    }
    entry->b_visited = 1;
    todo[ntodo++] = entry;
    while (ntodo) {
        basicblock *b = todo[--ntodo];
        int depth = b->b_exceptdepth;
        if (depth) {
            memcpy(stack, b->b_exceptstack, (size_t)depth * sizeof(basicblock *));
        }
        int last_yield_depth = -1;
        for (int i = 0; i < b->b_iused; i++) {
            cfg_instr *ins = &b->b_instr[i];
            basicblock *handler = depth ? stack[depth - 1] : NULL;
            if (is_block_push(ins->i_opcode)) {
                basicblock *t = ins->i_target;
                if (!t->b_visited) {
                    if (set_block_except_stack(t, stack, depth) < 0) {
                        goto error;
                    }
                    t->b_visited = 1;
                    todo[ntodo++] = t;
                }
                if (depth >= maxdepth) {
                    PyErr_SetString(PyExc_SystemError, "exception handlers nested too deeply");
                    goto error;
                }
                stack[depth++] = t;
                ins->i_except = handler;
            }
            else if (ins->i_opcode == POP_BLOCK) {
                if (depth > 0) {
                    depth--;
                }
                set_nop(ins);
                ins->i_except = depth ? stack[depth - 1] : NULL;
            }
            else {
                if (is_jump(ins) && !ins->i_target->b_visited) {
                    if (set_block_except_stack(ins->i_target, stack, depth) < 0) {
                        goto error;
                    }
                    ins->i_target->b_visited = 1;
                    todo[ntodo++] = ins->i_target;
                }
                if (ins->i_opcode == YIELD_VALUE) {
                    last_yield_depth = depth;
                }
                else if (ins->i_opcode == RESUME && ins->i_oparg != RESUME_AT_FUNC_START) {
                    if (last_yield_depth == 1) {
                        ins->i_oparg |= RESUME_OPARG_DEPTH1_MASK;
                    }
                    last_yield_depth = -1;
                }
                ins->i_except = handler;
            }
        }
        if (has_fallthrough(b) && b->b_next && !b->b_next->b_visited) {
            if (set_block_except_stack(b->b_next, stack, depth) < 0) {
                goto error;
            }
            b->b_next->b_visited = 1;
            todo[ntodo++] = b->b_next;
        }
    }
    PyMem_Free(todo);
    PyMem_Free(stack);
    return 0;
error:
    PyMem_Free(todo);
    PyMem_Free(stack);
    return -1;
}

/* ---- Reachability ------------------------------------------------------- */

static int
mark_reachable(basicblock *entry)
{
    int nblocks = 0;
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        b->b_predecessors = 0;
        b->b_visited = 0;
        nblocks++;
    }
    basicblock **stack = PyMem_Malloc((size_t)(nblocks + 1) * sizeof(basicblock *));
    if (stack == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int sp = 0;
    entry->b_predecessors = 1;
    entry->b_visited = 1;
    stack[sp++] = entry;
    while (sp) {
        basicblock *b = stack[--sp];
        if (has_fallthrough(b) && b->b_next) {
            if (!b->b_next->b_visited) {
                b->b_next->b_visited = 1;
                stack[sp++] = b->b_next;
            }
            b->b_next->b_predecessors++;
        }
        for (int i = 0; i < b->b_iused; i++) {
            cfg_instr *ins = &b->b_instr[i];
            basicblock *targets[2] = {is_jump(ins) ? ins->i_target : NULL, ins->i_except};
            for (int k = 0; k < 2; k++) {
                basicblock *t = targets[k];
                if (t == NULL) {
                    continue;
                }
                if (!t->b_visited) {
                    t->b_visited = 1;
                    stack[sp++] = t;
                }
                if (k == 0) {
                    t->b_predecessors++;
                }
            }
        }
    }
    PyMem_Free(stack);
    return 0;
}

static int
remove_unreachable(basicblock *entry)
{
    if (mark_reachable(entry) < 0) {
        return -1;
    }
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        if (!b->b_visited) {
            b->b_iused = 0;
        }
    }
    return 0;
}

/* ---- Line numbers ------------------------------------------------------- */

static int
block_has_no_lineno(basicblock *b)
{
    for (int i = 0; i < b->b_iused; i++) {
        if (b->b_instr[i].i_loc.lineno >= 0) {
            return 0;
        }
    }
    return 1;
}

static int
block_exits_scope(basicblock *b)
{
    cfg_instr *last = last_instr(b);
    return last && is_scope_exit(last->i_opcode);
}

static int
block_jumps_back_with_check(basicblock *b)
{
    cfg_instr *last = last_instr(b);
    return last && last->i_opcode == JUMP;
}

static int
is_exit_without_lineno(basicblock *b)
{
    if (b == NULL || b->b_iused == 0) {
        return 0;
    }
    return (block_exits_scope(b) || block_jumps_back_with_check(b)) && block_has_no_lineno(b);
}

static basicblock *
copy_block(cfg_builder *g, basicblock *b)
{
    basicblock *c = new_block(g);
    if (c == NULL) {
        return NULL;
    }
    for (int i = 0; i < b->b_iused; i++) {
        int off = block_next_instr(c);
        if (off < 0) {
            return NULL;
        }
        c->b_instr[off] = b->b_instr[i];
    }
    c->b_except_handler = b->b_except_handler;
    c->b_preserve_lasti = b->b_preserve_lasti;
    return c;
}

/* Every instruction that leaves the frame must have a line number (the
   frame's f_lineno is computed from it): exits without one that are
   shared are duplicated so each copy can inherit its predecessor's. */
static int
duplicate_exits_without_lineno(cfg_builder *g)
{
    for (basicblock *b = g->g_entryblock; b != NULL; b = b->b_next) {
        cfg_instr *last = last_instr(b);
        if (last == NULL || !is_jump(last) || is_block_push(last->i_opcode)) {
            continue;
        }
        basicblock *target = next_nonempty(last->i_target);
        if (is_exit_without_lineno(target) && target->b_predecessors > 1) {
            basicblock *copy = copy_block(g, target);
            if (copy == NULL) {
                return -1;
            }
            copy->b_instr[0].i_loc = last->i_loc;
            last->i_target = copy;
            target->b_predecessors--;
            copy->b_predecessors = 1;
            copy->b_next = target->b_next;
            target->b_next = copy;
        }
    }
    for (basicblock *b = g->g_entryblock; b != NULL; b = b->b_next) {
        if (has_fallthrough(b) && b->b_next && b->b_iused > 0 &&
            is_exit_without_lineno(b->b_next)) {
            b->b_next->b_instr[0].i_loc = last_instr(b)->i_loc;
        }
    }
    return 0;
}

static void
propagate_line_numbers(basicblock *entry)
{
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        cfg_instr *last = last_instr(b);
        if (last == NULL) {
            continue;
        }
        location prev = NO_LOCATION;
        for (int i = 0; i < b->b_iused; i++) {
            if (b->b_instr[i].i_loc.lineno < 0) {
                b->b_instr[i].i_loc = prev;
            }
            else {
                prev = b->b_instr[i].i_loc;
            }
        }
        if (has_fallthrough(b) && b->b_next && b->b_next->b_predecessors == 1 &&
            b->b_next->b_iused > 0 && b->b_next->b_instr[0].i_loc.lineno < 0) {
            b->b_next->b_instr[0].i_loc = prev;
        }
        if (is_jump(last) && !is_block_push(last->i_opcode)) {
            basicblock *t = last->i_target;
            if (t->b_predecessors == 1 && t->b_iused > 0 && t->b_instr[0].i_loc.lineno < 0) {
                t->b_instr[0].i_loc = prev;
            }
        }
    }
}

static int
resolve_line_numbers(cfg_builder *g, int firstlineno)
{
    if (mark_reachable(g->g_entryblock) < 0) {
        return -1;
    }
    if (duplicate_exits_without_lineno(g) < 0) {
        return -1;
    }
    propagate_line_numbers(g->g_entryblock);
    (void)firstlineno;
    return 0;
}

/* ---- Small exit blocks -------------------------------------------------- */

static int
append_instructions(basicblock *to, basicblock *from)
{
    for (int i = 0; i < from->b_iused; i++) {
        int off = block_next_instr(to);
        if (off < 0) {
            return -1;
        }
        to->b_instr[off] = from->b_instr[i];
    }
    return 0;
}

/* A jump to a tiny block that leaves the frame (or to a block with no line
   number that does not fall through) is replaced by a copy of it. */
static int
inline_small_or_no_lineno_blocks(basicblock *entry)
{
    int changes;
    do {
        changes = 0;
        for (basicblock *b = entry; b != NULL; b = b->b_next) {
            cfg_instr *last = last_instr(b);
            if (last == NULL || !is_uncond_jump(last->i_opcode)) {
                continue;
            }
            basicblock *target = last->i_target;
            if (target == b) {
                continue;
            }
            int small_exit = block_exits_scope(target) && target->b_iused <= MAX_COPY_SIZE;
            int no_lineno = target->b_iused > 0 && block_has_no_lineno(target) &&
                            !has_fallthrough(target) && target->b_iused <= MAX_COPY_SIZE;
            if (small_exit || no_lineno) {
                int removed = last->i_opcode;
                set_nop(last);
                if (append_instructions(b, target) < 0) {
                    return -1;
                }
                if (no_lineno) {
                    cfg_instr *nl = last_instr(b);
                    if (is_uncond_jump(nl->i_opcode) && removed == JUMP) {
                        nl->i_opcode = JUMP;   /* keep the eval-breaker check */
                    }
                }
                target->b_predecessors--;
                changes = 1;
            }
        }
    } while (changes);
    return 0;
}

/* ---- Constants ---------------------------------------------------------- */

typedef struct {
    PyObject *consts;       /* list */
    PyObject *index;        /* dict: const key -> index in consts */
    PyObject *const_cache;  /* dict: const key -> canonical object */
} const_table;

static int
get_const_value(const_table *ct, cfg_instr *ins, PyObject **value)
{
    if (ins->i_opcode == LOAD_CONST) {
        if (ins->i_oparg < 0 || ins->i_oparg >= PyList_GET_SIZE(ct->consts)) {
            PyErr_SetString(PyExc_SystemError, "bad LOAD_CONST oparg");
            return -1;
        }
        *value = Py_NewRef(PyList_GET_ITEM(ct->consts, ins->i_oparg));
        return 1;
    }
    if (ins->i_opcode == LOAD_SMALL_INT) {
        *value = PyLong_FromLong(ins->i_oparg);
        return *value ? 1 : -1;
    }
    *value = NULL;
    return 0;
}

static int
is_const_load(cfg_instr *ins)
{
    return ins->i_opcode == LOAD_CONST || ins->i_opcode == LOAD_SMALL_INT;
}

/* Index of `o` in the consts list, appending it if needed.  Steals o. */
static Py_ssize_t
add_const(const_table *ct, PyObject *o)
{
    PyObject *key = _PyCompile_ConstKey(o);
    if (key == NULL) {
        Py_DECREF(o);
        return -1;
    }
    PyObject *canon = PyDict_GetItemWithError(ct->const_cache, key);
    if (canon == NULL) {
        if (PyErr_Occurred() || PyDict_SetItem(ct->const_cache, key, o) < 0) {
            Py_DECREF(key);
            Py_DECREF(o);
            return -1;
        }
        canon = o;
    }
    PyObject *idx = PyDict_GetItemWithError(ct->index, key);
    Py_ssize_t r;
    if (idx != NULL) {
        r = PyLong_AsSsize_t(idx);
    }
    else if (PyErr_Occurred()) {
        r = -1;
    }
    else {
        r = PyList_GET_SIZE(ct->consts);
        PyObject *v = PyLong_FromSsize_t(r);
        if (v == NULL || PyList_Append(ct->consts, canon) < 0 ||
            PyDict_SetItem(ct->index, key, v) < 0) {
            r = -1;
        }
        Py_XDECREF(v);
    }
    Py_DECREF(key);
    Py_DECREF(o);
    return r;
}

static int
build_const_index(const_table *ct)
{
    ct->index = PyDict_New();
    if (ct->index == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(ct->consts); i++) {
        PyObject *key = _PyCompile_ConstKey(PyList_GET_ITEM(ct->consts, i));
        if (key == NULL) {
            return -1;
        }
        PyObject *v = PyLong_FromSsize_t(i);
        int r = v == NULL ? -1 : PyDict_SetDefault(ct->index, key, v) == NULL ? -1 : 0;
        Py_XDECREF(v);
        Py_DECREF(key);
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}

/* Replace `ins` with a load of `value` (stolen). */
static int
instr_make_load_const(const_table *ct, cfg_instr *ins, PyObject *value)
{
    if (PyLong_CheckExact(value)) {
        int overflow;
        long v = PyLong_AsLongAndOverflow(value, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
        }
        else if (!overflow && v >= 0 && v <= 255) {
            Py_DECREF(value);
            ins->i_opcode = LOAD_SMALL_INT;
            ins->i_oparg = (int)v;
            ins->i_target = NULL;
            return 0;
        }
    }
    Py_ssize_t idx = add_const(ct, value);
    if (idx < 0) {
        return -1;
    }
    ins->i_opcode = LOAD_CONST;
    ins->i_oparg = (int)idx;
    ins->i_target = NULL;
    return 0;
}

/* Find the `n` constant loads that feed instruction `pos` (NOPs between
   them are skipped).  Returns 1 and fills `idx` when all are constants. */
static int
get_const_loads(basicblock *b, int pos, int n, int *idx)
{
    int found = 0;
    for (int i = pos - 1; i >= 0 && found < n; i--) {
        cfg_instr *ins = &b->b_instr[i];
        if (ins->i_opcode == NOP) {
            continue;
        }
        if (!is_const_load(ins)) {
            return 0;
        }
        idx[n - 1 - found] = i;
        found++;
    }
    return found == n;
}

static int
fold_tuple_of_constants(const_table *ct, basicblock *b, int pos)
{
    cfg_instr *ins = &b->b_instr[pos];
    int n = ins->i_oparg;
    if (n > STACK_USE_GUIDELINE) {
        return 0;
    }
    int idx[STACK_USE_GUIDELINE + 1];
    if (!get_const_loads(b, pos, n, idx)) {
        return 0;
    }
    PyObject *tup = PyTuple_New(n);
    if (tup == NULL) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *v;
        if (get_const_value(ct, &b->b_instr[idx[i]], &v) < 0) {
            Py_DECREF(tup);
            return -1;
        }
        PyTuple_SET_ITEM(tup, i, v);
    }
    for (int i = 0; i < n; i++) {
        set_nop(&b->b_instr[idx[i]]);
    }
    return instr_make_load_const(ct, ins, tup) < 0 ? -1 : 1;
}

/* BUILD_LIST/BUILD_SET of 3+ constants: build empty and extend with a
   constant tuple/frozenset (or just load that when only iterated or
   tested for membership). */
static int
fold_list_or_set_of_constants(const_table *ct, basicblock *b, int pos)
{
    cfg_instr *ins = &b->b_instr[pos];
    int n = ins->i_oparg;
    int is_list = ins->i_opcode == BUILD_LIST;
    int nextop = pos + 1 < b->b_iused ? b->b_instr[pos + 1].i_opcode : 0;
    int contains_or_iter = nextop == GET_ITER || nextop == CONTAINS_OP;
    if (n > STACK_USE_GUIDELINE || (n < 3 && !contains_or_iter) || n == 0) {
        return 0;
    }
    int idx[STACK_USE_GUIDELINE + 1];
    if (!get_const_loads(b, pos, n, idx)) {
        return 0;
    }
    PyObject *tup = PyTuple_New(n);
    if (tup == NULL) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *v;
        if (get_const_value(ct, &b->b_instr[idx[i]], &v) < 0) {
            Py_DECREF(tup);
            return -1;
        }
        PyTuple_SET_ITEM(tup, i, v);
    }
    PyObject *value = tup;
    if (!is_list) {
        value = PyFrozenSet_New(tup);
        Py_DECREF(tup);
        if (value == NULL) {
            /* unhashable element: leave the code alone */
            PyErr_Clear();
            return 0;
        }
    }
    for (int i = 0; i < n; i++) {
        set_nop(&b->b_instr[idx[i]]);
    }
    if (contains_or_iter) {
        return instr_make_load_const(ct, ins, value) < 0 ? -1 : 1;
    }
    /* BUILD_xxx 0; LOAD_CONST value; xxx_EXTEND 1, reusing two NOPs */
    cfg_instr *first = &b->b_instr[idx[0]];
    cfg_instr *second = &b->b_instr[idx[1]];
    first->i_opcode = ins->i_opcode;
    first->i_oparg = 0;
    if (instr_make_load_const(ct, second, value) < 0) {
        return -1;
    }
    ins->i_opcode = is_list ? LIST_EXTEND : SET_UPDATE;
    ins->i_oparg = 1;
    return 1;
}

static size_t
num_bits(PyObject *v)
{
    int64_t n = _PyLong_NumBits(v);
    if (n < 0) {
        PyErr_Clear();
        return (size_t)MAX_INT_SIZE * 4;
    }
    return (size_t)n;
}

/* Limits that keep folded constants small (and folding cheap). */
static int
const_folding_check_size(PyObject *v)
{
    if (PyLong_CheckExact(v)) {
        return num_bits(v) <= MAX_INT_SIZE;
    }
    if (PyUnicode_CheckExact(v)) {
        return PyUnicode_GET_LENGTH(v) <= MAX_STR_SIZE;
    }
    if (PyBytes_CheckExact(v)) {
        return PyBytes_GET_SIZE(v) <= MAX_STR_SIZE;
    }
    if (PyTuple_CheckExact(v)) {
        return PyTuple_GET_SIZE(v) <= MAX_COLLECTION_SIZE;
    }
    return 1;
}

static int
is_foldable_const(PyObject *v)
{
    if (v == Py_None || v == Py_Ellipsis || PyBool_Check(v) || PyLong_CheckExact(v) ||
        PyFloat_CheckExact(v) || PyComplex_CheckExact(v) || PyUnicode_CheckExact(v) ||
        PyBytes_CheckExact(v)) {
        return 1;
    }
    if (PyTuple_CheckExact(v)) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(v); i++) {
            if (!is_foldable_const(PyTuple_GET_ITEM(v, i))) {
                return 0;
            }
        }
        return 1;
    }
    return 0;
}

/* Guess the size of a result before computing it, so that `"x" * 10**9`
   or `2 ** 10**9` are never evaluated at compile time. */
static int
binop_result_too_big(int oparg, PyObject *l, PyObject *r)
{
    if (oparg == NB_MULTIPLY) {
        PyObject *seq = NULL, *count = NULL;
        if ((PyUnicode_CheckExact(l) || PyBytes_CheckExact(l) || PyTuple_CheckExact(l)) &&
            PyLong_CheckExact(r)) {
            seq = l;
            count = r;
        }
        else if ((PyUnicode_CheckExact(r) || PyBytes_CheckExact(r) || PyTuple_CheckExact(r)) &&
                 PyLong_CheckExact(l)) {
            seq = r;
            count = l;
        }
        if (seq != NULL) {
            int overflow;
            long n = PyLong_AsLongAndOverflow(count, &overflow);
            if (overflow || n < 0) {
                return overflow != 0;
            }
            Py_ssize_t len = PyObject_Length(seq);
            if (len < 0) {
                PyErr_Clear();
                return 1;
            }
            Py_ssize_t limit = PyTuple_CheckExact(seq) ? MAX_COLLECTION_SIZE : MAX_STR_SIZE;
            return len && n > limit / len;
        }
        if (PyLong_CheckExact(l) && PyLong_CheckExact(r)) {
            return num_bits(l) + num_bits(r) > MAX_INT_SIZE;
        }
    }
    if (oparg == NB_POWER && PyLong_CheckExact(l) && PyLong_CheckExact(r)) {
        int overflow;
        long e = PyLong_AsLongAndOverflow(r, &overflow);
        if (overflow || e > MAX_INT_SIZE) {
            return num_bits(l) > 1 || overflow;
        }
        return e > 0 && num_bits(l) * (size_t)e > MAX_INT_SIZE;
    }
    if (oparg == NB_LSHIFT && PyLong_CheckExact(l) && PyLong_CheckExact(r)) {
        int overflow;
        long s = PyLong_AsLongAndOverflow(r, &overflow);
        if (overflow || s > MAX_INT_SIZE) {
            return overflow || num_bits(l) > 0;
        }
        return s > 0 && num_bits(l) + (size_t)s > MAX_INT_SIZE;
    }
    if ((oparg == NB_ADD) &&
        ((PyUnicode_CheckExact(l) && PyUnicode_CheckExact(r)) ||
         (PyBytes_CheckExact(l) && PyBytes_CheckExact(r)) ||
         (PyTuple_CheckExact(l) && PyTuple_CheckExact(r)))) {
        Py_ssize_t a = PyObject_Length(l), b = PyObject_Length(r);
        Py_ssize_t limit = PyTuple_CheckExact(l) ? MAX_COLLECTION_SIZE : MAX_STR_SIZE;
        return a + b > limit;
    }
    return 0;
}

static PyObject *
eval_binop(int oparg, PyObject *l, PyObject *r)
{
    switch (oparg) {
    case NB_ADD: return PyNumber_Add(l, r);
    case NB_SUBTRACT: return PyNumber_Subtract(l, r);
    case NB_MULTIPLY: return PyNumber_Multiply(l, r);
    case NB_TRUE_DIVIDE: return PyNumber_TrueDivide(l, r);
    case NB_FLOOR_DIVIDE: return PyNumber_FloorDivide(l, r);
    case NB_REMAINDER:
        /* `"%s" % x` formatting is left to run time */
        if (PyUnicode_Check(l) || PyBytes_Check(l)) {
            return NULL;
        }
        return PyNumber_Remainder(l, r);
    case NB_POWER: return PyNumber_Power(l, r, Py_None);
    case NB_LSHIFT: return PyNumber_Lshift(l, r);
    case NB_RSHIFT: return PyNumber_Rshift(l, r);
    case NB_OR: return PyNumber_Or(l, r);
    case NB_XOR: return PyNumber_Xor(l, r);
    case NB_AND: return PyNumber_And(l, r);
    case NB_SUBSCR:
        if (!(PyUnicode_CheckExact(l) || PyBytes_CheckExact(l) || PyTuple_CheckExact(l)) ||
            !PyLong_CheckExact(r)) {
            return NULL;
        }
        return PyObject_GetItem(l, r);
    default:
        return NULL;
    }
}

static int
fold_binop(const_table *ct, basicblock *b, int pos)
{
    cfg_instr *ins = &b->b_instr[pos];
    int idx[2];
    if (!get_const_loads(b, pos, 2, idx)) {
        return 0;
    }
    PyObject *l, *r;
    if (get_const_value(ct, &b->b_instr[idx[0]], &l) < 0) {
        return -1;
    }
    if (get_const_value(ct, &b->b_instr[idx[1]], &r) < 0) {
        Py_DECREF(l);
        return -1;
    }
    PyObject *res = NULL;
    if (is_foldable_const(l) && is_foldable_const(r) &&
        !binop_result_too_big(ins->i_oparg, l, r)) {
        res = eval_binop(ins->i_oparg, l, r);
        if (res == NULL) {
            PyErr_Clear();   /* errors happen at run time */
        }
        else if (!const_folding_check_size(res)) {
            Py_CLEAR(res);
        }
    }
    PyErr_Clear();
    Py_DECREF(l);
    Py_DECREF(r);
    if (res == NULL) {
        return 0;
    }
    set_nop(&b->b_instr[idx[0]]);
    set_nop(&b->b_instr[idx[1]]);
    return instr_make_load_const(ct, ins, res) < 0 ? -1 : 1;
}

static int
fold_unaryop(const_table *ct, basicblock *b, int pos)
{
    cfg_instr *ins = &b->b_instr[pos];
    int idx[1];
    if (!get_const_loads(b, pos, 1, idx)) {
        return 0;
    }
    PyObject *v;
    if (get_const_value(ct, &b->b_instr[idx[0]], &v) < 0) {
        return -1;
    }
    PyObject *res = NULL;
    if (is_foldable_const(v)) {
        switch (ins->i_opcode) {
        case UNARY_NEGATIVE:
            res = PyNumber_Negative(v);
            break;
        case UNARY_INVERT:
            /* ~bool is deprecated: leave it to run time */
            if (!PyBool_Check(v)) {
                res = PyNumber_Invert(v);
            }
            break;
        case CALL_INTRINSIC_1:
            if (ins->i_oparg == INTRINSIC_UNARY_POSITIVE) {
                res = PyNumber_Positive(v);
            }
            break;
        }
        if (res == NULL) {
            PyErr_Clear();
        }
    }
    Py_DECREF(v);
    if (res == NULL) {
        return 0;
    }
    set_nop(&b->b_instr[idx[0]]);
    return instr_make_load_const(ct, ins, res) < 0 ? -1 : 1;
}

/* ---- Peephole optimisation of one block --------------------------------- */

static int
produces_bool(int op)
{
    return op == TO_BOOL || op == UNARY_NOT || op == IS_OP || op == CONTAINS_OP ||
           op == MATCH_MAPPING || op == MATCH_SEQUENCE || op == CHECK_EXC_MATCH;
}

static int
invert_cond(int op)
{
    switch (op) {
    case POP_JUMP_IF_FALSE: return POP_JUMP_IF_TRUE;
    case POP_JUMP_IF_TRUE: return POP_JUMP_IF_FALSE;
    case POP_JUMP_IF_NONE: return POP_JUMP_IF_NOT_NONE;
    case POP_JUMP_IF_NOT_NONE: return POP_JUMP_IF_NONE;
    }
    return op;
}

/* The next non-NOP instruction after `pos` in the block, or NULL. */
static cfg_instr *
next_instr_in_block(basicblock *b, int pos, int *at)
{
    for (int i = pos + 1; i < b->b_iused; i++) {
        if (b->b_instr[i].i_opcode != NOP) {
            if (at) {
                *at = i;
            }
            return &b->b_instr[i];
        }
    }
    return NULL;
}

static int
fold_const_condition(const_table *ct, basicblock *b, int pos)
{
    cfg_instr *ins = &b->b_instr[pos];
    int at;
    cfg_instr *next = next_instr_in_block(b, pos, &at);
    if (next == NULL) {
        return 0;
    }
    PyObject *v;
    int r = get_const_value(ct, ins, &v);
    if (r <= 0) {
        return r;
    }
    int changed = 0;
    if (next->i_opcode == TO_BOOL) {
        int t = PyObject_IsTrue(v);
        if (t >= 0) {
            Py_DECREF(v);
            set_nop(ins);
            if (instr_make_load_const(ct, next, Py_NewRef(t ? Py_True : Py_False)) < 0) {
                return -1;
            }
            return 1;
        }
        PyErr_Clear();
    }
    else if (next->i_opcode == POP_JUMP_IF_FALSE || next->i_opcode == POP_JUMP_IF_TRUE) {
        int t = PyObject_IsTrue(v);
        if (t < 0) {
            PyErr_Clear();
        }
        else {
            int jump = (next->i_opcode == POP_JUMP_IF_TRUE) == t;
            set_nop(ins);
            if (jump) {
                next->i_opcode = JUMP;
            }
            else {
                set_nop(next);
            }
            changed = 1;
        }
    }
    else if (next->i_opcode == POP_JUMP_IF_NONE || next->i_opcode == POP_JUMP_IF_NOT_NONE) {
        int jump = (next->i_opcode == POP_JUMP_IF_NONE) == (v == Py_None);
        set_nop(ins);
        if (jump) {
            next->i_opcode = JUMP;
        }
        else {
            set_nop(next);
        }
        changed = 1;
    }
    Py_DECREF(v);
    return changed;
}

static int
optimize_basic_block(const_table *ct, basicblock *b)
{
    for (int i = 0; i < b->b_iused; i++) {
        cfg_instr *ins = &b->b_instr[i];
        int opcode = ins->i_opcode;
        int at = -1;
        cfg_instr *next = next_instr_in_block(b, i, &at);
        int nextop = next ? next->i_opcode : 0;
        int r = 0;
        switch (opcode) {
        case LOAD_CONST:
        case LOAD_SMALL_INT:
            if (opcode == LOAD_CONST) {
                PyObject *v = PyList_GET_ITEM(ct->consts, ins->i_oparg);
                if (PyLong_CheckExact(v)) {
                    if (instr_make_load_const(ct, ins, Py_NewRef(v)) < 0) {
                        return -1;
                    }
                }
            }
            r = fold_const_condition(ct, b, i);
            if (r == 0 && nextop == IS_OP && is_const_load(ins)) {
                /* LOAD_CONST None; IS_OP; [TO_BOOL]; POP_JUMP_IF_xxx */
                PyObject *v;
                if (get_const_value(ct, ins, &v) < 0) {
                    return -1;
                }
                int is_none = v == Py_None;
                Py_DECREF(v);
                int at2, at3;
                cfg_instr *j = next_instr_in_block(b, at, &at2);
                if (is_none && j && j->i_opcode == TO_BOOL) {
                    j = next_instr_in_block(b, at2, &at3);
                }
                if (is_none && j && (j->i_opcode == POP_JUMP_IF_FALSE ||
                                     j->i_opcode == POP_JUMP_IF_TRUE)) {
                    int invert = next->i_oparg;   /* `is not` */
                    int jump_if_true = j->i_opcode == POP_JUMP_IF_TRUE;
                    set_nop(ins);
                    for (int k = i + 1; &b->b_instr[k] != j; k++) {
                        if (b->b_instr[k].i_opcode != NOP) {
                            set_nop(&b->b_instr[k]);
                        }
                    }
                    j->i_opcode = (jump_if_true ^ invert) ? POP_JUMP_IF_NONE
                                                          : POP_JUMP_IF_NOT_NONE;
                    r = 1;
                }
            }
            break;
        case TO_BOOL:
            if (i > 0) {
                int p = i - 1;
                while (p >= 0 && b->b_instr[p].i_opcode == NOP) {
                    p--;
                }
                if (p >= 0) {
                    cfg_instr *prev = &b->b_instr[p];
                    if (produces_bool(prev->i_opcode) ||
                        (prev->i_opcode == COMPARE_OP && (prev->i_oparg & COMPARE_OP_TO_BOOL))) {
                        set_nop(ins);
                    }
                    else if (prev->i_opcode == COMPARE_OP) {
                        prev->i_oparg |= COMPARE_OP_TO_BOOL;
                        set_nop(ins);
                    }
                }
            }
            break;
        case UNARY_NOT:
            if (nextop == TO_BOOL) {
                set_nop(next);
                i--;   /* revisit with the new successor */
                continue;
            }
            if (nextop == UNARY_NOT) {
                set_nop(ins);
                set_nop(next);
                break;
            }
            if (nextop == POP_JUMP_IF_FALSE || nextop == POP_JUMP_IF_TRUE) {
                set_nop(ins);
                next->i_opcode = invert_cond(nextop);
            }
            break;
        case BUILD_TUPLE:
            if (nextop == UNPACK_SEQUENCE && next->i_oparg == ins->i_oparg) {
                int n = ins->i_oparg;
                if (n == 1) {
                    set_nop(ins);
                    set_nop(next);
                    break;
                }
                if (n == 2 || n == 3) {
                    set_nop(ins);
                    next->i_opcode = SWAP;
                    next->i_oparg = n;
                    break;
                }
            }
            r = fold_tuple_of_constants(ct, b, i);
            break;
        case BUILD_LIST:
        case BUILD_SET:
            r = fold_list_or_set_of_constants(ct, b, i);
            break;
        case BINARY_OP:
            r = fold_binop(ct, b, i);
            break;
        case UNARY_NEGATIVE:
        case UNARY_INVERT:
        case CALL_INTRINSIC_1:
            r = fold_unaryop(ct, b, i);
            break;
        case SWAP:
            if (ins->i_oparg == 1) {
                set_nop(ins);
            }
            break;
        case COPY:
            if (ins->i_oparg == 1 && nextop == POP_TOP) {
                set_nop(ins);
                set_nop(next);
            }
            break;
        case LOAD_GLOBAL:
            if (nextop == PUSH_NULL && (ins->i_oparg & 1) == 0) {
                ins->i_oparg |= 1;
                set_nop(next);
            }
            break;
        default:
            break;
        }
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}

/* SWAP n feeding n stores can be dropped by exchanging the first and the
   n-th store (`a, b = b, a` needs no SWAP).  Only done when the stores
   are on one line and name distinct locals, so nothing observable
   changes. */
static void
apply_static_swaps(basicblock *b)
{
    for (int i = 0; i < b->b_iused; i++) {
        cfg_instr *swap = &b->b_instr[i];
        if (swap->i_opcode != SWAP || swap->i_oparg < 2 || swap->i_oparg > 16) {
            continue;
        }
        int n = swap->i_oparg;
        int idx[16];
        int found = 0;
        int line = -1;
        int ok = 1;
        for (int j = i + 1; j < b->b_iused && found < n; j++) {
            cfg_instr *ins = &b->b_instr[j];
            if (ins->i_opcode == NOP) {
                continue;
            }
            if (ins->i_opcode != STORE_FAST && ins->i_opcode != POP_TOP &&
                ins->i_opcode != STORE_FAST_MAYBE_NULL) {
                ok = 0;
                break;
            }
            if (line < 0) {
                line = ins->i_loc.lineno;
            }
            else if (ins->i_loc.lineno != line) {
                ok = 0;
                break;
            }
            idx[found++] = j;
        }
        if (!ok || found < n) {
            continue;
        }
        for (int a = 0; a < n && ok; a++) {
            cfg_instr *x = &b->b_instr[idx[a]];
            for (int c = a + 1; c < n; c++) {
                cfg_instr *y = &b->b_instr[idx[c]];
                if (x->i_opcode != POP_TOP && y->i_opcode != POP_TOP &&
                    x->i_oparg == y->i_oparg) {
                    ok = 0;
                    break;
                }
            }
        }
        if (!ok) {
            continue;
        }
        cfg_instr tmp = b->b_instr[idx[0]];
        b->b_instr[idx[0]] = b->b_instr[idx[n - 1]];
        b->b_instr[idx[n - 1]] = tmp;
        location loc = swap->i_loc;
        set_nop(swap);
        swap->i_loc = loc;
    }
}

/* ---- Jumps -------------------------------------------------------------- */

static int
thread_jumps(basicblock *entry)
{
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        cfg_instr *last = last_instr(b);
        if (last == NULL || !is_jump(last) || is_block_push(last->i_opcode) ||
            last->i_opcode == FOR_ITER || last->i_opcode == SEND) {
            continue;
        }
        /* follow chains of unconditional jumps (with a bound, for loops) */
        for (int n = 0; n < 100; n++) {
            basicblock *t = next_nonempty(last->i_target);
            if (t == NULL) {
                break;
            }
            last->i_target = t;
            cfg_instr *first = &t->b_instr[0];
            if (!is_uncond_jump(first->i_opcode) || first->i_target == t) {
                break;
            }
            /* keep eval-breaker checks: a JUMP stays a JUMP */
            if (first->i_opcode == JUMP && last->i_opcode == JUMP_NO_INTERRUPT) {
                last->i_opcode = JUMP;
            }
            if (first->i_loc.lineno >= 0 && last->i_loc.lineno >= 0 &&
                first->i_loc.lineno != last->i_loc.lineno) {
                break;   /* the hop carries a line event */
            }
            last->i_target = first->i_target;
        }
    }
    return 0;
}

/* Remove NOPs that do not carry a line number of their own. */
static void
remove_redundant_nops_in_block(basicblock *bb)
{
    int dest = 0;
    int prev_lineno = -1;
    for (int src = 0; src < bb->b_iused; src++) {
        cfg_instr *ins = &bb->b_instr[src];
        int lineno = ins->i_loc.lineno;
        if (ins->i_opcode == NOP) {
            if (lineno < 0 || prev_lineno == lineno) {
                continue;
            }
            if (src < bb->b_iused - 1) {
                int next_lineno = bb->b_instr[src + 1].i_loc.lineno;
                if (next_lineno == lineno) {
                    continue;
                }
                if (next_lineno < 0) {
                    bb->b_instr[src + 1].i_loc = ins->i_loc;
                    continue;
                }
            }
            else {
                basicblock *next = next_nonempty(bb->b_next);
                if (next) {
                    location next_loc = NO_LOCATION;
                    for (int k = 0; k < next->b_iused; k++) {
                        cfg_instr *ni = &next->b_instr[k];
                        if (ni->i_opcode == NOP && ni->i_loc.lineno < 0) {
                            continue;
                        }
                        next_loc = ni->i_loc;
                        break;
                    }
                    if (lineno == next_loc.lineno) {
                        continue;
                    }
                }
            }
        }
        if (dest != src) {
            bb->b_instr[dest] = *ins;
        }
        dest++;
        prev_lineno = lineno;
    }
    bb->b_iused = dest;
}

static void
remove_redundant_nops(basicblock *entry)
{
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        remove_redundant_nops_in_block(b);
    }
}

/* Pairs that cancel out: a value pushed and immediately popped. */
static void
remove_redundant_pairs(basicblock *entry)
{
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        for (int i = 0; i + 1 < b->b_iused; i++) {
            cfg_instr *a = &b->b_instr[i];
            int at;
            cfg_instr *p = next_instr_in_block(b, i, &at);
            if (p == NULL || p->i_opcode != POP_TOP) {
                continue;
            }
            int op = a->i_opcode;
            if (op == LOAD_CONST || op == LOAD_SMALL_INT || op == LOAD_FAST ||
                op == COPY) {
                if (op == COPY && a->i_oparg != 1) {
                    continue;
                }
                if (a->i_loc.lineno >= 0 && p->i_loc.lineno >= 0 &&
                    a->i_loc.lineno != p->i_loc.lineno) {
                    continue;
                }
                location loc = a->i_loc;
                set_nop(a);
                set_nop(p);
                a->i_loc = loc;
            }
        }
    }
}

static int
remove_redundant_jumps(basicblock *entry)
{
    int changes = 0;
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        cfg_instr *last = last_instr(b);
        if (last == NULL || !is_jump(last) || is_block_push(last->i_opcode)) {
            continue;
        }
        if (last->i_opcode == FOR_ITER || last->i_opcode == SEND) {
            continue;
        }
        basicblock *next = next_nonempty(b->b_next);
        basicblock *target = next_nonempty(last->i_target);
        if (target == next && target != NULL) {
            if (is_uncond_jump(last->i_opcode)) {
                location loc = last->i_loc;
                set_nop(last);
                last->i_loc = loc;
                changes++;
            }
        }
    }
    return changes;
}

/* NOT_TAKEN only makes sense on the fall-through path of a conditional
   jump; optimisations can leave it elsewhere. */
static void
remove_stray_not_taken(basicblock *entry)
{
    basicblock *prev = NULL;
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        for (int i = 0; i < b->b_iused; i++) {
            cfg_instr *ins = &b->b_instr[i];
            if (ins->i_opcode != NOT_TAKEN) {
                continue;
            }
            cfg_instr *before = NULL;
            for (int k = i - 1; k >= 0; k--) {
                if (b->b_instr[k].i_opcode != NOP) {
                    before = &b->b_instr[k];
                    break;
                }
            }
            if (before == NULL && i == 0 && prev != NULL && prev->b_next == b) {
                before = last_instr(prev);
            }
            if (before == NULL || !is_cond_jump(before->i_opcode)) {
                location loc = ins->i_loc;
                set_nop(ins);
                ins->i_loc = loc;
            }
        }
        if (b->b_iused) {
            prev = b;
        }
        else if (prev) {
            /* an empty block passes the previous one through */
        }
    }
}

/* ---- Unused constants --------------------------------------------------- */

static int
remove_unused_consts(basicblock *entry, PyObject *consts)
{
    Py_ssize_t n = PyList_GET_SIZE(consts);
    if (n == 0) {
        return 0;
    }
    Py_ssize_t *map = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    if (map == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        map[i] = -1;
    }
    map[0] = 0;   /* may be the docstring */
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        for (int i = 0; i < b->b_iused; i++) {
            if (b->b_instr[i].i_opcode == LOAD_CONST) {
                map[b->b_instr[i].i_oparg] = 1;
            }
        }
    }
    Py_ssize_t next = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (map[i] != -1) {
            map[i] = next;
            if (next != i) {
                PyObject *o = Py_NewRef(PyList_GET_ITEM(consts, i));
                if (PyList_SetItem(consts, next, o) < 0) {
                    PyMem_Free(map);
                    return -1;
                }
            }
            next++;
        }
    }
    if (next < n && PyList_SetSlice(consts, next, n, NULL) < 0) {
        PyMem_Free(map);
        return -1;
    }
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        for (int i = 0; i < b->b_iused; i++) {
            if (b->b_instr[i].i_opcode == LOAD_CONST) {
                b->b_instr[i].i_oparg = (int)map[b->b_instr[i].i_oparg];
            }
        }
    }
    PyMem_Free(map);
    return 0;
}

/* ---- Possibly-unbound locals -------------------------------------------- */

typedef struct {
    uint64_t *masks;     /* per block (by b_offset), unsafe locals on entry */
    basicblock **stack;
    char *onstack;
    int sp;
} unbound_state;

static void
unbound_push(unbound_state *s, basicblock *b, uint64_t mask)
{
    uint64_t both = s->masks[b->b_offset] | mask;
    if (both != s->masks[b->b_offset] || !b->b_visited) {
        s->masks[b->b_offset] = both;
        b->b_visited = 1;
        if (!s->onstack[b->b_offset]) {
            s->onstack[b->b_offset] = 1;
            s->stack[s->sp++] = b;
        }
    }
}

static void
scan_block_for_locals(unbound_state *s, basicblock *b)
{
    uint64_t unsafe = s->masks[b->b_offset];
    for (int i = 0; i < b->b_iused; i++) {
        cfg_instr *ins = &b->b_instr[i];
        if (ins->i_except != NULL) {
            unbound_push(s, ins->i_except, unsafe);
        }
        if (ins->i_oparg >= 64) {
            continue;
        }
        uint64_t bit = (uint64_t)1 << ins->i_oparg;
        switch (ins->i_opcode) {
        case DELETE_FAST:
        case LOAD_FAST_AND_CLEAR:
        case STORE_FAST_MAYBE_NULL:
            unsafe |= bit;
            break;
        case STORE_FAST:
        case LOAD_FAST_CHECK:
            unsafe &= ~bit;
            break;
        case LOAD_FAST:
            if (unsafe & bit) {
                ins->i_opcode = LOAD_FAST_CHECK;
            }
            unsafe &= ~bit;
            break;
        }
    }
    if (b->b_next && has_fallthrough(b)) {
        unbound_push(s, b->b_next, unsafe);
    }
    cfg_instr *last = last_instr(b);
    if (last && is_jump(last)) {
        unbound_push(s, last->i_target, unsafe);
    }
}

/* Locals past the 64 tracked by bit masks: check unless stored earlier in
   the same block. */
static int
scan_many_locals(basicblock *entry, int nlocals)
{
    int *states = PyMem_Calloc((size_t)nlocals, sizeof(int));
    if (states == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int blocknum = 0;
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        blocknum++;
        for (int i = 0; i < b->b_iused; i++) {
            cfg_instr *ins = &b->b_instr[i];
            int arg = ins->i_oparg;
            if (arg < 64 || arg >= nlocals) {
                continue;
            }
            switch (ins->i_opcode) {
            case DELETE_FAST:
            case LOAD_FAST_AND_CLEAR:
            case STORE_FAST_MAYBE_NULL:
                states[arg] = blocknum - 1;
                break;
            case STORE_FAST:
                states[arg] = blocknum;
                break;
            case LOAD_FAST:
                if (states[arg] != blocknum) {
                    ins->i_opcode = LOAD_FAST_CHECK;
                }
                states[arg] = blocknum;
                break;
            }
        }
    }
    PyMem_Free(states);
    return 0;
}

static int
add_checks_for_loads_of_uninitialized_variables(basicblock *entry, int nlocals, int nparams)
{
    if (nlocals == 0) {
        return 0;
    }
    if (nlocals > 64 && scan_many_locals(entry, nlocals) < 0) {
        return -1;
    }
    int nblocks = 0;
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        b->b_offset = nblocks++;
        b->b_visited = 0;
    }
    unbound_state s;
    s.masks = PyMem_Calloc((size_t)nblocks, sizeof(uint64_t));
    s.stack = PyMem_Malloc((size_t)nblocks * sizeof(basicblock *));
    s.onstack = PyMem_Calloc((size_t)nblocks, 1);
    s.sp = 0;
    if (s.masks == NULL || s.stack == NULL || s.onstack == NULL) {
        PyMem_Free(s.masks);
        PyMem_Free(s.stack);
        PyMem_Free(s.onstack);
        PyErr_NoMemory();
        return -1;
    }
    uint64_t start = 0;
    for (int i = nparams; i < nlocals && i < 64; i++) {
        start |= (uint64_t)1 << i;
    }
    unbound_push(&s, entry, start);
    while (s.sp) {
        basicblock *b = s.stack[--s.sp];
        s.onstack[b->b_offset] = 0;
        scan_block_for_locals(&s, b);
    }
    PyMem_Free(s.masks);
    PyMem_Free(s.stack);
    PyMem_Free(s.onstack);
    return 0;
}

/* ---- Superinstructions -------------------------------------------------- */

static void
make_super_instruction(cfg_instr *a, cfg_instr *b, int super_op)
{
    int line1 = a->i_loc.lineno, line2 = b->i_loc.lineno;
    if (line1 >= 0 && line2 >= 0 && line1 != line2) {
        return;
    }
    if (a->i_oparg >= 16 || b->i_oparg >= 16) {
        return;
    }
    a->i_opcode = super_op;
    a->i_oparg = (a->i_oparg << 4) | b->i_oparg;
    location loc = b->i_loc;
    set_nop(b);
    b->i_loc = loc;
}

static void
insert_superinstructions(basicblock *entry)
{
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        for (int i = 0; i + 1 < b->b_iused; i++) {
            cfg_instr *ins = &b->b_instr[i];
            cfg_instr *next = &b->b_instr[i + 1];
            if (ins->i_opcode == LOAD_FAST && next->i_opcode == LOAD_FAST) {
                make_super_instruction(ins, next, LOAD_FAST_LOAD_FAST);
            }
            else if (ins->i_opcode == STORE_FAST && next->i_opcode == LOAD_FAST) {
                make_super_instruction(ins, next, STORE_FAST_LOAD_FAST);
            }
            else if (ins->i_opcode == STORE_FAST && next->i_opcode == STORE_FAST) {
                make_super_instruction(ins, next, STORE_FAST_STORE_FAST);
            }
        }
    }
    remove_redundant_nops(entry);
}

/* ---- Cold blocks -------------------------------------------------------- */

static int
mark_warm_and_cold(basicblock *entry)
{
    int nblocks = 0;
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        b->b_warm = b->b_cold = 0;
        b->b_visited = 0;
        nblocks++;
    }
    basicblock **stack = PyMem_Malloc((size_t)(nblocks + 1) * sizeof(basicblock *));
    if (stack == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int sp = 0;
    entry->b_visited = 1;
    stack[sp++] = entry;
    while (sp) {
        basicblock *b = stack[--sp];
        b->b_warm = 1;
        basicblock *succ[2] = {NULL, NULL};
        if (has_fallthrough(b)) {
            succ[0] = b->b_next;
        }
        cfg_instr *last = last_instr(b);
        if (last && is_jump(last) && !is_block_push(last->i_opcode)) {
            succ[1] = last->i_target;
        }
        for (int k = 0; k < 2; k++) {
            if (succ[k] && !succ[k]->b_visited) {
                succ[k]->b_visited = 1;
                stack[sp++] = succ[k];
            }
        }
    }
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        if (b->b_except_handler && !b->b_warm && !b->b_cold) {
            b->b_cold = 1;
            stack[sp++] = b;
            while (sp) {
                basicblock *c = stack[--sp];
                basicblock *succ[2] = {NULL, NULL};
                if (has_fallthrough(c)) {
                    succ[0] = c->b_next;
                }
                cfg_instr *last = last_instr(c);
                if (last && is_jump(last) && !is_block_push(last->i_opcode)) {
                    succ[1] = last->i_target;
                }
                for (int k = 0; k < 2; k++) {
                    if (succ[k] && !succ[k]->b_warm && !succ[k]->b_cold) {
                        succ[k]->b_cold = 1;
                        stack[sp++] = succ[k];
                    }
                }
            }
        }
    }
    PyMem_Free(stack);
    return 0;
}

static int
push_cold_blocks_to_end(cfg_builder *g)
{
    basicblock *entry = g->g_entryblock;
    if (entry->b_next == NULL) {
        return 0;
    }
    if (mark_warm_and_cold(entry) < 0) {
        return -1;
    }
    /* a cold block falling into a warm one needs an explicit jump */
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        if (b->b_cold && has_fallthrough(b) && b->b_next && b->b_next->b_warm) {
            basicblock *j = new_block(g);
            if (j == NULL || block_addop(j, JUMP_NO_INTERRUPT, 0, NO_LOCATION) < 0) {
                return -1;
            }
            j->b_instr[0].i_target = b->b_next;
            j->b_cold = 1;
            j->b_next = b->b_next;
            j->b_predecessors = 1;
            b->b_next = j;
        }
    }
    basicblock *cold = NULL, *cold_tail = NULL;
    basicblock *b = entry;
    while (b->b_next) {
        while (b->b_next && !b->b_next->b_cold) {
            b = b->b_next;
        }
        if (b->b_next == NULL) {
            break;
        }
        basicblock *end = b->b_next;
        while (end->b_next && end->b_next->b_cold) {
            end = end->b_next;
        }
        if (cold == NULL) {
            cold = b->b_next;
        }
        else {
            cold_tail->b_next = b->b_next;
        }
        cold_tail = end;
        b->b_next = end->b_next;
        end->b_next = NULL;
    }
    b->b_next = cold;
    if (cold != NULL) {
        remove_redundant_jumps(entry);
        remove_redundant_nops(entry);
    }
    return 0;
}

/* ---- The optimisation pipeline ------------------------------------------ */

int
_PyCfg_OptimizeCodeUnit(cfg_builder *g, PyObject *consts, PyObject *const_cache,
                        int nlocals, int nparams, int firstlineno)
{
    basicblock *entry = g->g_entryblock;
    const_table ct = {consts, NULL, const_cache};
    int r = -1;
    mark_except_handlers(entry);
    if (label_exception_targets(entry) < 0) {
        goto done;
    }
    if (mark_reachable(entry) < 0 || inline_small_or_no_lineno_blocks(entry) < 0 ||
        remove_unreachable(entry) < 0 || resolve_line_numbers(g, firstlineno) < 0) {
        goto done;
    }
    if (build_const_index(&ct) < 0) {
        goto done;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (basicblock *b = entry; b != NULL; b = b->b_next) {
            if (optimize_basic_block(&ct, b) < 0) {
                goto done;
            }
        }
    }
    remove_redundant_pairs(entry);
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        apply_static_swaps(b);
    }
    if (thread_jumps(entry) < 0 || remove_unreachable(entry) < 0) {
        goto done;
    }
    for (int n = 0; n < 10; n++) {
        remove_redundant_nops(entry);
        if (remove_redundant_jumps(entry) == 0) {
            break;
        }
    }
    if (mark_reachable(entry) < 0 || inline_small_or_no_lineno_blocks(entry) < 0 ||
        remove_unreachable(entry) < 0) {
        goto done;
    }
    remove_stray_not_taken(entry);
    remove_redundant_nops(entry);
    if (remove_unused_consts(entry, consts) < 0) {
        goto done;
    }
    if (add_checks_for_loads_of_uninitialized_variables(entry, nlocals, nparams) < 0) {
        goto done;
    }
    insert_superinstructions(entry);
    if (push_cold_blocks_to_end(g) < 0 || resolve_line_numbers(g, firstlineno) < 0) {
        goto done;
    }
    r = 0;
done:
    Py_XDECREF(ct.index);
    return r;
}

/* ---- Stack depth -------------------------------------------------------- */

static int
push_depth(basicblock ***sp, basicblock *b, int depth)
{
    if (b->b_startdepth == INT_MIN) {
        b->b_startdepth = depth;
        *(*sp)++ = b;
    }
    else if (b->b_startdepth < depth) {
        /* inconsistent depths mean a compiler bug; keep the maximum so the
           frame is big enough */
        b->b_startdepth = depth;
        *(*sp)++ = b;
    }
    return 0;
}

static int
calculate_stackdepth(cfg_builder *g)
{
    basicblock *entry = g->g_entryblock;
    int nblocks = 0;
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        b->b_startdepth = INT_MIN;
        nblocks++;
    }
    /* a block may be pushed again when its depth grows; bound the work */
    size_t cap = (size_t)nblocks * 4 + 16;
    basicblock **stack = PyMem_Malloc(cap * sizeof(basicblock *));
    if (stack == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    basicblock **sp = stack;
    int maxdepth = 0;
    push_depth(&sp, entry, 0);
    while (sp != stack) {
        basicblock *b = *--sp;
        int depth = b->b_startdepth;
        int falls = 1;
        for (int i = 0; i < b->b_iused; i++) {
            cfg_instr *ins = &b->b_instr[i];
            int effect = stack_effect(ins->i_opcode, ins->i_oparg, 0);
            if (effect == INT_MAX) {
                PyErr_Format(PyExc_SystemError, "invalid stack effect for opcode=%d, arg=%i",
                             ins->i_opcode, ins->i_oparg);
                goto error;
            }
            int new_depth = depth + effect;
            if (new_depth < 0) {
                PyErr_Format(PyExc_SystemError, "stack underflow at opcode=%d", ins->i_opcode);
                goto error;
            }
            if (new_depth > maxdepth) {
                maxdepth = new_depth;
            }
            if (is_jump(ins)) {
                int target_depth = depth + stack_effect(ins->i_opcode, ins->i_oparg, 1);
                if (target_depth > maxdepth) {
                    maxdepth = target_depth;
                }
                if ((size_t)(sp - stack) + 2 >= cap) {
                    size_t used = (size_t)(sp - stack);
                    cap *= 2;
                    basicblock **n = PyMem_Realloc(stack, cap * sizeof(basicblock *));
                    if (n == NULL) {
                        PyErr_NoMemory();
                        goto error;
                    }
                    stack = n;
                    sp = stack + used;
                }
                push_depth(&sp, ins->i_target, target_depth);
            }
            depth = new_depth;
            if (is_terminator(ins->i_opcode)) {
                falls = 0;
                break;
            }
        }
        if (falls && b->b_next) {
            if ((size_t)(sp - stack) + 2 >= cap) {
                size_t used = (size_t)(sp - stack);
                cap *= 2;
                basicblock **n = PyMem_Realloc(stack, cap * sizeof(basicblock *));
                if (n == NULL) {
                    PyErr_NoMemory();
                    goto error;
                }
                stack = n;
                sp = stack + used;
            }
            push_depth(&sp, b->b_next, depth);
        }
    }
    PyMem_Free(stack);
    return maxdepth;
error:
    PyMem_Free(stack);
    return -1;
}

/* ---- Locals, cells and free variables ----------------------------------- */

static int
is_deref_op(int op)
{
    return op == LOAD_DEREF || op == STORE_DEREF || op == DELETE_DEREF ||
           op == LOAD_FROM_DICT_OR_DEREF || op == MAKE_CELL || op == LOAD_CLOSURE;
}

static int
dict_index(PyObject *dict, PyObject *key)
{
    PyObject *v = PyDict_GetItemWithError(dict, key);
    if (v == NULL) {
        return PyErr_Occurred() ? -2 : -1;
    }
    return (int)PyLong_AsLong(v);
}

/* Map cell/free indices (cells first) to slots in localsplus: cells that
   are also locals (arguments) share the local's slot. */
static int *
compute_cell_offsets(_PyCompile_CodeUnitMetadata *umd, int *nlocalsplus)
{
    int nlocals = (int)PyDict_GET_SIZE(umd->u_varnames);
    int ncells = (int)PyDict_GET_SIZE(umd->u_cellvars);
    int nfree = (int)PyDict_GET_SIZE(umd->u_freevars);
    int *offsets = PyMem_Malloc((size_t)(ncells + nfree + 1) * sizeof(int));
    if (offsets == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    PyObject **names = PyMem_Calloc((size_t)ncells + 1, sizeof(PyObject *));
    if (names == NULL) {
        PyMem_Free(offsets);
        PyErr_NoMemory();
        return NULL;
    }
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(umd->u_cellvars, &pos, &k, &v)) {
        names[PyLong_AsLong(v)] = k;
    }
    int next = nlocals;
    for (int i = 0; i < ncells; i++) {
        int li = dict_index(umd->u_varnames, names[i]);
        if (li == -2) {
            PyMem_Free(names);
            PyMem_Free(offsets);
            return NULL;
        }
        offsets[i] = li >= 0 ? li : next++;
    }
    for (int i = 0; i < nfree; i++) {
        offsets[ncells + i] = next++;
    }
    *nlocalsplus = next;
    PyMem_Free(names);
    return offsets;
}

static int
insert_prefix_instructions(_PyCompile_CodeUnitMetadata *umd, basicblock *entry,
                           int *offsets, int code_flags)
{
    int ncells = (int)PyDict_GET_SIZE(umd->u_cellvars);
    int nfree = (int)PyDict_GET_SIZE(umd->u_freevars);
    int pos = 0;
    cfg_instr ins;
    memset(&ins, 0, sizeof(ins));
    ins.i_loc = NO_LOCATION;
    if (nfree) {
        ins.i_opcode = COPY_FREE_VARS;
        ins.i_oparg = nfree;
        if (block_insert(entry, pos++, &ins) < 0) {
            return -1;
        }
    }
    for (int i = 0; i < ncells; i++) {
        ins.i_opcode = MAKE_CELL;
        ins.i_oparg = offsets[i];
        if (block_insert(entry, pos++, &ins) < 0) {
            return -1;
        }
    }
    if (code_flags & (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR)) {
        location loc = {umd->u_firstlineno, umd->u_firstlineno, -1, -1};
        ins.i_loc = loc;
        ins.i_opcode = RETURN_GENERATOR;
        ins.i_oparg = 0;
        if (block_insert(entry, pos++, &ins) < 0) {
            return -1;
        }
        ins.i_opcode = POP_TOP;
        if (block_insert(entry, pos++, &ins) < 0) {
            return -1;
        }
    }
    return 0;
}

static void
fix_cell_offsets(basicblock *entry, int *offsets)
{
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        for (int i = 0; i < b->b_iused; i++) {
            cfg_instr *ins = &b->b_instr[i];
            if (is_deref_op(ins->i_opcode)) {
                ins->i_oparg = offsets[ins->i_oparg];
            }
        }
    }
}

static void
convert_pseudo_ops(basicblock *entry)
{
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        for (int i = 0; i < b->b_iused; i++) {
            cfg_instr *ins = &b->b_instr[i];
            if (is_block_push(ins->i_opcode) || ins->i_opcode == POP_BLOCK ||
                ins->i_opcode == ANNOTATIONS_PLACEHOLDER) {
                location loc = ins->i_loc;
                set_nop(ins);
                ins->i_loc = loc;
            }
            else if (ins->i_opcode == LOAD_CLOSURE) {
                ins->i_opcode = LOAD_FAST;
            }
            else if (ins->i_opcode == STORE_FAST_MAYBE_NULL) {
                ins->i_opcode = STORE_FAST;
            }
        }
    }
    remove_redundant_nops(entry);
}

/* ---- Borrowed loads ----------------------------------------------------- */

/* LOAD_FAST may push a borrowed reference when the local outlives the
   stack slot.  Each block's stack is simulated; a load is not borrowed if
   its local is overwritten or deleted while the value is on the stack, if
   the value is stored into a local, or if it is still on the stack at the
   end of the block. */
#define REF_NOT_LOCAL (-1)
#define LF_KILLED 1
#define LF_STORED 2
#define LF_UNCONSUMED 4

typedef struct {
    int instr;   /* producing instruction in the block, or -1 */
    int local;   /* local it came from, or REF_NOT_LOCAL */
} ref;

typedef struct {
    ref *refs;
    int size;
    int cap;
} ref_stack;

static int
ref_push(ref_stack *s, int instr, int local)
{
    if (s->size == s->cap) {
        int cap = s->cap ? s->cap * 2 : 32;
        ref *n = PyMem_Realloc(s->refs, (size_t)cap * sizeof(ref));
        if (n == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        s->refs = n;
        s->cap = cap;
    }
    s->refs[s->size].instr = instr;
    s->refs[s->size].local = local;
    s->size++;
    return 0;
}

static ref
ref_pop(ref_stack *s)
{
    if (s->size == 0) {
        return (ref){-1, REF_NOT_LOCAL};
    }
    return s->refs[--s->size];
}

static void
kill_local(int *flags, ref_stack *s, int local)
{
    for (int i = 0; i < s->size; i++) {
        if (s->refs[i].local == local && s->refs[i].instr >= 0) {
            flags[s->refs[i].instr] |= LF_KILLED;
        }
    }
}

static void
store_local(int *flags, ref_stack *s, int local, ref r)
{
    kill_local(flags, s, local);
    if (r.instr >= 0 && r.local != REF_NOT_LOCAL) {
        flags[r.instr] |= LF_STORED;
    }
}

static int
optimize_load_fast_block(basicblock *b, ref_stack *s, int **flagsp, int *flagscap)
{
    if (b->b_iused > *flagscap) {
        int *n = PyMem_Realloc(*flagsp, (size_t)b->b_iused * sizeof(int));
        if (n == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        *flagsp = n;
        *flagscap = b->b_iused;
    }
    int *flags = *flagsp;
    memset(flags, 0, (size_t)b->b_iused * sizeof(int));
    s->size = 0;
    int start = b->b_startdepth == INT_MIN ? 0 : b->b_startdepth;
    for (int i = 0; i < start; i++) {
        if (ref_push(s, -1, REF_NOT_LOCAL) < 0) {
            return -1;
        }
    }
#define PUSH(I, L) do { if (ref_push(s, (I), (L)) < 0) { return -1; } } while (0)
    for (int i = 0; i < b->b_iused; i++) {
        cfg_instr *ins = &b->b_instr[i];
        int op = ins->i_opcode, oparg = ins->i_oparg;
        switch (op) {
        case NOP:
        case NOT_TAKEN:
            break;
        case DELETE_FAST:
            kill_local(flags, s, oparg);
            break;
        case LOAD_FAST:
            PUSH(i, oparg);
            break;
        case LOAD_FAST_AND_CLEAR:
            kill_local(flags, s, oparg);
            PUSH(i, REF_NOT_LOCAL);
            break;
        case LOAD_FAST_LOAD_FAST:
            PUSH(i, oparg >> 4);
            PUSH(i, oparg & 15);
            break;
        case STORE_FAST:
            store_local(flags, s, oparg, ref_pop(s));
            break;
        case STORE_FAST_LOAD_FAST:
            store_local(flags, s, oparg >> 4, ref_pop(s));
            PUSH(i, oparg & 15);
            break;
        case STORE_FAST_STORE_FAST: {
            ref r = ref_pop(s);
            store_local(flags, s, oparg >> 4, r);
            r = ref_pop(s);
            store_local(flags, s, oparg & 15, r);
            break;
        }
        case COPY: {
            if (oparg > s->size) {
                PUSH(-1, REF_NOT_LOCAL);
                break;
            }
            ref r = s->refs[s->size - oparg];
            PUSH(r.instr, r.local);
            break;
        }
        case SWAP: {
            if (oparg <= s->size) {
                ref tmp = s->refs[s->size - 1];
                s->refs[s->size - 1] = s->refs[s->size - oparg];
                s->refs[s->size - oparg] = tmp;
            }
            break;
        }
        /* inputs left in place, new values pushed on top */
        case FORMAT_SIMPLE:
        case GET_ANEXT:
        case GET_LEN:
        case IMPORT_FROM:
        case MATCH_KEYS:
        case MATCH_MAPPING:
        case MATCH_SEQUENCE:
        case WITH_EXCEPT_START: {
            int net = _PyOpcode_num_pushed(op, oparg) - _PyOpcode_num_popped(op, oparg);
            for (int k = 0; k < net; k++) {
                PUSH(i, REF_NOT_LOCAL);
            }
            break;
        }
        /* some inputs consumed, the rest left in place */
        case DICT_MERGE:
        case DICT_UPDATE:
        case LIST_APPEND:
        case LIST_EXTEND:
        case MAP_ADD:
        case RERAISE:
        case SET_ADD:
        case SET_UPDATE: {
            int net = _PyOpcode_num_popped(op, oparg) - _PyOpcode_num_pushed(op, oparg);
            for (int k = 0; k < net; k++) {
                ref_pop(s);
            }
            break;
        }
        case END_SEND:
        case SET_FUNCTION_ATTRIBUTE: {
            ref tos = ref_pop(s);
            ref_pop(s);
            if (op == END_SEND) {
                ref_pop(s);
            }
            PUSH(tos.instr, tos.local);
            break;
        }
        case CHECK_EXC_MATCH:
        case CHECK_EG_MATCH: {
            ref_pop(s);
            if (op == CHECK_EG_MATCH) {
                ref_pop(s);
                PUSH(i, REF_NOT_LOCAL);
            }
            PUSH(i, REF_NOT_LOCAL);
            break;
        }
        case GET_ITER:
        case FOR_ITER: {
            /* the iterable may come back as the iterator itself */
            int popped = _PyOpcode_num_popped(op, oparg);
            int pushed = _PyOpcode_num_pushed(op, oparg);
            for (int k = 0; k < popped; k++) {
                ref r = ref_pop(s);
                if (r.instr >= 0) {
                    flags[r.instr] |= LF_UNCONSUMED;
                }
            }
            for (int k = 0; k < pushed; k++) {
                PUSH(i, REF_NOT_LOCAL);
            }
            break;
        }
        case LOAD_ATTR:
        case LOAD_SUPER_ATTR: {
            ref self = ref_pop(s);
            if (op == LOAD_SUPER_ATTR) {
                ref_pop(s);
                ref_pop(s);
            }
            PUSH(i, REF_NOT_LOCAL);
            if (oparg & 1) {
                PUSH(self.instr, self.local);
            }
            break;
        }
        case LOAD_SPECIAL:
        case PUSH_EXC_INFO: {
            ref tos = ref_pop(s);
            PUSH(i, REF_NOT_LOCAL);
            PUSH(tos.instr, tos.local);
            break;
        }
        case SEND: {
            ref_pop(s);
            PUSH(i, REF_NOT_LOCAL);
            break;
        }
        default: {
            int popped = _PyOpcode_num_popped(op, oparg);
            int pushed = _PyOpcode_num_pushed(op, oparg);
            if (popped < 0 || pushed < 0) {
                /* unknown: give up on this block */
                for (int k = 0; k < b->b_iused; k++) {
                    flags[k] |= LF_UNCONSUMED;
                }
                goto apply;
            }
            if (is_block_push(op)) {
                break;
            }
            for (int k = 0; k < popped; k++) {
                ref_pop(s);
            }
            for (int k = 0; k < pushed; k++) {
                PUSH(i, REF_NOT_LOCAL);
            }
            break;
        }
        }
    }
#undef PUSH
    for (int k = 0; k < s->size; k++) {
        if (s->refs[k].instr >= 0) {
            flags[s->refs[k].instr] |= LF_UNCONSUMED;
        }
    }
apply:
    for (int i = 0; i < b->b_iused; i++) {
        if (flags[i] & (LF_KILLED | LF_STORED | LF_UNCONSUMED)) {
            continue;
        }
        cfg_instr *ins = &b->b_instr[i];
        if (ins->i_opcode == LOAD_FAST) {
            ins->i_opcode = LOAD_FAST_BORROW;
        }
        else if (ins->i_opcode == LOAD_FAST_LOAD_FAST) {
            ins->i_opcode = LOAD_FAST_BORROW_LOAD_FAST_BORROW;
        }
    }
    return 0;
}

static int
optimize_load_fast(basicblock *entry)
{
    ref_stack s = {NULL, 0, 0};
    int *flags = NULL, cap = 0;
    int r = 0;
    for (basicblock *b = entry; b != NULL && r == 0; b = b->b_next) {
        if (b->b_iused == 0 || b->b_startdepth == INT_MIN) {
            continue;   /* unreachable */
        }
        r = optimize_load_fast_block(b, &s, &flags, &cap);
    }
    PyMem_Free(s.refs);
    PyMem_Free(flags);
    return r;
}

/* ---- Final layout ------------------------------------------------------- */

/* Conditional jumps must go forward: a backward one is inverted to skip
   over a new unconditional backward jump. */
static int
normalize_jumps(cfg_builder *g)
{
    basicblock *entry = g->g_entryblock;
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        b->b_visited = 0;
    }
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        b->b_visited = 1;
        cfg_instr *last = last_instr(b);
        if (last == NULL || !is_cond_jump(last->i_opcode)) {
            continue;
        }
        basicblock *target = last->i_target;
        if (!target->b_visited) {
            continue;   /* forward */
        }
        basicblock *j = new_block(g);
        if (j == NULL) {
            return -1;
        }
        if (block_addop(j, NOT_TAKEN, 0, last->i_loc) < 0 ||
            block_addop(j, JUMP, 0, last->i_loc) < 0) {
            return -1;
        }
        j->b_instr[1].i_target = target;
        j->b_instr[0].i_except = last->i_except;
        j->b_instr[1].i_except = last->i_except;
        j->b_startdepth = target->b_startdepth;
        j->b_cold = b->b_cold;
        last->i_opcode = invert_cond(last->i_opcode);
        last->i_target = b->b_next;
        /* the old fall-through path is now the jump target */
        basicblock *old_next = next_nonempty(b->b_next);
        if (old_next && old_next->b_instr[0].i_opcode == NOT_TAKEN) {
            set_nop(&old_next->b_instr[0]);
            old_next->b_instr[0].i_loc = NO_LOCATION;
        }
        j->b_next = b->b_next;
        b->b_next = j;
        j->b_visited = 1;
        b = j;
    }
    return 0;
}

int
_PyCfg_OptimizedCfgToInstructionSequence(cfg_builder *g, _PyCompile_CodeUnitMetadata *umd,
                                         int code_flags, int *stackdepth, int *nlocalsplus,
                                         _PyInstructionSequence *seq)
{
    basicblock *entry = g->g_entryblock;
    if (normalize_jumps(g) < 0) {
        return -1;
    }
    int depth = calculate_stackdepth(g);
    if (depth < 0) {
        return -1;
    }
    *stackdepth = depth;
    int *offsets = compute_cell_offsets(umd, nlocalsplus);
    if (offsets == NULL) {
        return -1;
    }
    fix_cell_offsets(entry, offsets);
    if (insert_prefix_instructions(umd, entry, offsets, code_flags) < 0) {
        PyMem_Free(offsets);
        return -1;
    }
    PyMem_Free(offsets);
    convert_pseudo_ops(entry);
    if (optimize_load_fast(entry) < 0) {
        return -1;
    }
    /* number the blocks by their first instruction's index */
    int n = 0;
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        b->b_offset = n;
        n += b->b_iused;
    }
    for (basicblock *b = entry; b != NULL; b = b->b_next) {
        for (int i = 0; i < b->b_iused; i++) {
            cfg_instr *ins = &b->b_instr[i];
            if (_PyInstructionSequence_Addop(seq, ins->i_opcode, ins->i_oparg, ins->i_loc) < 0) {
                return -1;
            }
            _PyInstruction *out = &seq->s_instrs[seq->s_used - 1];
            if (is_jump(ins)) {
                basicblock *t = next_nonempty(ins->i_target);
                out->i_target = t ? t->b_offset : n;
                out->i_oparg = out->i_target;
            }
            if (ins->i_except != NULL) {
                basicblock *h = next_nonempty(ins->i_except);
                if (h == NULL) {
                    PyErr_SetString(PyExc_SystemError, "empty exception handler");
                    return -1;
                }
                out->i_except_handler_info.h_label = h->b_offset;
                int sd = ins->i_except->b_startdepth;
                if (sd == INT_MIN) {
                    sd = h->b_startdepth;
                }
                out->i_except_handler_info.h_startdepth =
                    sd - 1 - ins->i_except->b_preserve_lasti;
                out->i_except_handler_info.h_preserve_lasti = ins->i_except->b_preserve_lasti;
            }
            else {
                out->i_except_handler_info.h_label = -1;
            }
        }
    }
    return 0;
}
