/* Setting frame.f_lineno from a line trace function: the debugger's "jump".

   Which jumps are legal is decided from the shape of the value stack.  A
   forward data-flow pass gives, for every instruction, the kinds of the
   items on the stack there (plain object, the two slots of a for-loop
   iterator, an exception being handled, a saved instruction offset, a
   slot that may hold NULL).  A jump may only drop items (they are popped
   and released): the stack at the target must be a prefix of the stack
   now, where a maybe-NULL slot at the target accepts anything and a plain
   object there accepts anything but a maybe-NULL slot (the code after it
   would use a NULL).  Anything else is refused with the message CPython
   gives for the same situation. */

#include "Python.h"
#include "pycore_code.h"
#include "pycore_frame.h"
#include "pycore_instruments.h"
#include "pycore_opcode_metadata.h"
#include "pycore_opcode_utils.h"
#include "pycore_pystate.h"
#include "opcode_ids.h"

/* A stack is a word of 3-bit item kinds, bottom item in the high bits,
   top item in the low bits; 0 is the empty stack. */
typedef uint64_t stack_shape;

enum { KIND_OBJECT = 1, KIND_ITER = 2, KIND_EXCEPT = 3, KIND_LASTI = 4, KIND_MAYBE_NULL = 5 };
#define SHAPE_UNSET ((stack_shape)-1)
#define SHAPE_OVERFLOW ((stack_shape)-2)
#define MAX_TRACKED_DEPTH 20

static stack_shape
push_kind(stack_shape s, int kind)
{
    if (s == SHAPE_OVERFLOW || (s >> (3 * (MAX_TRACKED_DEPTH - 1))) != 0) {
        return SHAPE_OVERFLOW;
    }
    return (s << 3) | (stack_shape)kind;
}

static stack_shape
pop_items(stack_shape s, int n)
{
    if (s == SHAPE_OVERFLOW) {
        return s;
    }
    for (int i = 0; i < n; i++) {
        s >>= 3;
    }
    return s;
}

static int
shape_depth(stack_shape s)
{
    int depth = 0;
    while (s) {
        s >>= 3;
        depth++;
    }
    return depth;
}

static stack_shape
truncate_to(stack_shape s, int depth)
{
    return pop_items(s, shape_depth(s) - depth);
}

/* Two paths meeting: the same items, where a slot that is maybe-NULL on
   either path is maybe-NULL; SHAPE_OVERFLOW when they disagree otherwise. */
static stack_shape
join_shapes(stack_shape a, stack_shape b)
{
    if (a == SHAPE_OVERFLOW || b == SHAPE_OVERFLOW || shape_depth(a) != shape_depth(b)) {
        return SHAPE_OVERFLOW;
    }
    stack_shape joined = 0;
    for (int shift = 3 * (shape_depth(a) - 1); shift >= 0; shift -= 3) {
        int ka = (int)((a >> shift) & 7), kb = (int)((b >> shift) & 7);
        if (ka != kb) {
            int object_or_null = (ka == KIND_OBJECT || ka == KIND_MAYBE_NULL) &&
                                 (kb == KIND_OBJECT || kb == KIND_MAYBE_NULL);
            if (!object_or_null) {
                return SHAPE_OVERFLOW;
            }
            ka = KIND_MAYBE_NULL;
        }
        joined = (joined << 3) | (stack_shape)ka;
    }
    return joined;
}

/* Merge `s` into the shape known at `target`; 1 when it changed. */
static int
flow_into(stack_shape *shapes, int n, int target, stack_shape s)
{
    if (target < 0 || target >= n || shapes[target] == s) {
        return 0;
    }
    stack_shape merged = shapes[target] == SHAPE_UNSET ? s : join_shapes(shapes[target], s);
    if (merged == shapes[target]) {
        return 0;
    }
    shapes[target] = merged;
    return 1;
}

static int
ends_flow(int op)
{
    return op == RETURN_VALUE || op == RAISE_VARARGS || op == RERAISE ||
           op == JUMP_FORWARD || op == JUMP_BACKWARD || op == JUMP_BACKWARD_NO_INTERRUPT ||
           op == INTERPRETER_EXIT;
}

/* One step of the pass at instruction i; returns 1 when anything changed. */
static int
step(PyCodeObject *code, stack_shape *shapes, int n, int i, int op, int arg)
{
    stack_shape s = shapes[i];
    int next = i + 1 + _PyOpcode_Caches[op];
    int changed = 0;
    switch (op) {
    case GET_ITER:
        s = push_kind(push_kind(pop_items(s, 1), KIND_ITER), KIND_ITER);
        break;
    case FOR_ITER:
        changed |= flow_into(shapes, n, next + arg + 1, s);   /* exhausted: skips END_FOR */
        s = push_kind(s, KIND_OBJECT);
        break;
    case PUSH_EXC_INFO:
        s = push_kind(push_kind(pop_items(s, 1), KIND_EXCEPT), KIND_EXCEPT);
        break;
    case POP_JUMP_IF_FALSE: case POP_JUMP_IF_TRUE:
    case POP_JUMP_IF_NONE: case POP_JUMP_IF_NOT_NONE:
        s = pop_items(s, 1);
        changed |= flow_into(shapes, n, next + arg, s);
        break;
    case JUMP_FORWARD:
        changed |= flow_into(shapes, n, next + arg, s);
        break;
    case JUMP_BACKWARD: case JUMP_BACKWARD_NO_INTERRUPT:
        changed |= flow_into(shapes, n, next - arg, s);
        break;
    case CHECK_EXC_MATCH: case CHECK_EG_MATCH:
        /* The exception below stays what it was. */
        s = push_kind(pop_items(s, 1), KIND_OBJECT);
        break;
    case EXTENDED_ARG:
        break;
    case PUSH_NULL:
        s = push_kind(s, KIND_MAYBE_NULL);
        break;
    case LOAD_SPECIAL:
        /* (owner -- attr, self_or_null) */
        s = push_kind(push_kind(pop_items(s, 1), KIND_OBJECT), KIND_MAYBE_NULL);
        break;
    case LOAD_GLOBAL: case LOAD_ATTR: case LOAD_SUPER_ATTR:
        /* With oparg & 1 the value comes with a NULL-or-self slot on top. */
        s = pop_items(s, op == LOAD_GLOBAL ? 0 : op == LOAD_ATTR ? 1 : 3);
        s = push_kind(s, KIND_OBJECT);
        if (arg & 1) {
            s = push_kind(s, KIND_MAYBE_NULL);
        }
        break;
    default: {
        int popped = _PyOpcode_num_popped(op, arg);
        int pushed = _PyOpcode_num_pushed(op, arg);
        if (popped < 0 || pushed < 0) {
            s = SHAPE_OVERFLOW;
            break;
        }
        if (OPCODE_HAS_JUMP(op)) {
            /* SEND and friends: the target sees the same shape. */
            stack_shape t = pop_items(s, popped);
            for (int k = 0; k < pushed; k++) {
                t = push_kind(t, KIND_OBJECT);
            }
            changed |= flow_into(shapes, n, next + arg, t);
        }
        s = pop_items(s, popped);
        for (int k = 0; k < pushed; k++) {
            s = push_kind(s, KIND_OBJECT);
        }
    }
    }
    if (!ends_flow(op)) {
        changed |= flow_into(shapes, n, next, s);
    }
    (void)code;
    return changed;
}

/* Handlers start with the protected range's stack cut to the recorded
   depth, then (maybe) the raising offset and the exception. */
static int
flow_handlers(PyCodeObject *code, stack_shape *shapes, int n)
{
    int changed = 0;
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(code->co_exceptiontable);
    const uint8_t *end = p + PyBytes_GET_SIZE(code->co_exceptiontable);
    while (p < end) {
        int start = _PyMonitoring_ReadExceptionVarint(&p);
        int length = _PyMonitoring_ReadExceptionVarint(&p);
        int handler = _PyMonitoring_ReadExceptionVarint(&p);
        int depth_lasti = _PyMonitoring_ReadExceptionVarint(&p);
        for (int i = start; i < start + length && i < n; i++) {
            stack_shape s = shapes[i];
            if (s == SHAPE_UNSET) {
                continue;
            }
            if (s != SHAPE_OVERFLOW) {
                s = truncate_to(s, depth_lasti >> 1);
                if (depth_lasti & 1) {
                    s = push_kind(s, KIND_LASTI);
                }
                s = push_kind(s, KIND_EXCEPT);
            }
            changed |= flow_into(shapes, n, handler, s);
            break;   /* one reachable instruction in the range decides */
        }
    }
    return changed;
}

static stack_shape *
compute_shapes(PyCodeObject *code)
{
    int n = (int)Py_SIZE(code);
    stack_shape *shapes = PyMem_Malloc(((size_t)n + 1) * sizeof(stack_shape));
    if (shapes == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        shapes[i] = SHAPE_UNSET;
    }
    shapes[0] = 0;
    for (int pass = 0; pass < 64; pass++) {
        int changed = 0;
        int ext = 0;
        for (int i = 0; i < n;) {
            int op = _PyMonitoring_BaseOpcode(code, i);
            int arg = ext << 8 | _PyCode_CODE(code)[i].op.arg;
            ext = op == EXTENDED_ARG ? arg : 0;
            if (shapes[i] != SHAPE_UNSET) {
                changed |= step(code, shapes, n, i, op, arg);
            }
            i += 1 + _PyOpcode_Caches[op];
        }
        changed |= flow_handlers(code, shapes, n);
        if (!changed) {
            break;
        }
    }
    return shapes;
}

/* Whether an item of kind `now` may stand where the target expects
   `wanted`. */
static int
kind_fits(int now, int wanted)
{
    if (wanted == KIND_MAYBE_NULL) {
        return 1;
    }
    return now == wanted;
}

/* Why `target` cannot be reached from `current`, or NULL if it can. */
static const char *
refusal(stack_shape current, stack_shape target)
{
    if (target == SHAPE_UNSET) {
        return "can't jump to a line that is never executed";
    }
    if (current == SHAPE_OVERFLOW || target == SHAPE_OVERFLOW) {
        return "can't jump into the middle of a block";
    }
    int keep = shape_depth(target);
    if (shape_depth(current) >= keep) {
        stack_shape common = truncate_to(current, keep);
        int fits = 1, null_clash = 0;
        for (stack_shape a = common, b = target; b; a >>= 3, b >>= 3) {
            if (!kind_fits((int)(a & 7), (int)(b & 7))) {
                fits = 0;
                null_clash |= (a & 7) == KIND_MAYBE_NULL && (b & 7) == KIND_OBJECT;
            }
        }
        if (fits) {
            return NULL;
        }
        if (null_clash) {
            return "incompatible stacks";
        }
    }
    /* Name the block the target is inside of that we are not. */
    for (stack_shape s = target; s; s >>= 3) {
        if ((s & 7) == KIND_EXCEPT) {
            return "can't jump into an 'except' block as there's no exception";
        }
    }
    for (stack_shape s = target; s; s >>= 3) {
        if ((s & 7) == KIND_ITER) {
            return "can't jump into the body of a for loop";
        }
    }
    return "can't jump into the middle of a block";
}

/* Locals the jump skipped the assignment of would be read unbound. */
static int
bind_unbound_locals(_PyInterpreterFrame *frame, PyCodeObject *code)
{
    int count = 0;
    for (int i = 0; i < code->co_nlocalsplus; i++) {
        _PyLocals_Kind kind = _PyLocals_GetKind(code->co_localspluskinds, i);
        if ((kind & CO_FAST_LOCAL) && !(kind & (CO_FAST_CELL | CO_FAST_FREE)) &&
            PyStackRef_IsNull(frame->localsplus[i])) {
            frame->localsplus[i] = PyStackRef_None;
            count++;
        }
    }
    if (count) {
        return PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "assigning None to %d unbound local%s",
                                count, count == 1 ? "" : "s");
    }
    return 0;
}

int
_PyFrame_JumpToLine(PyFrameObject *f, int new_lineno)
{
    _PyInterpreterFrame *frame = f->f_frame;
    PyCodeObject *code = _PyFrame_GetCode(frame);
    int n = (int)Py_SIZE(code);
    if (new_lineno < code->co_firstlineno) {
        PyErr_Format(PyExc_ValueError, "line %d comes before the current code block", new_lineno);
        return -1;
    }
    /* The first line at or after the request that has code. */
    int best_line = -1;
    for (int i = code->_co_firsttraceable; i < n; i += 1 + _PyOpcode_Caches[_PyMonitoring_BaseOpcode(code, i)]) {
        int line = _PyMonitoring_LineOf(code, i);
        if (line >= new_lineno && (best_line < 0 || line < best_line)) {
            best_line = line;
        }
    }
    if (best_line < 0) {
        PyErr_Format(PyExc_ValueError, "line %d comes after the current code block", new_lineno);
        return -1;
    }
    stack_shape *shapes = compute_shapes(code);
    if (shapes == NULL) {
        return -1;
    }
    int current = (int)(frame->instr_ptr - _PyCode_CODE(code));
    const char *why = NULL;
    int chosen = -1;
    int prev_line = -1;
    for (int i = code->_co_firsttraceable; i < n && chosen < 0;
         i += 1 + _PyOpcode_Caches[_PyMonitoring_BaseOpcode(code, i)]) {
        /* Candidates are where the line starts, not its later parts. */
        int line = _PyMonitoring_LineOf(code, i);
        int starts = line == best_line && prev_line != best_line;
        prev_line = line;
        if (!starts) {
            continue;
        }
        const char *r = refusal(shapes[current], shapes[i]);
        if (r == NULL) {
            chosen = i;
        }
        else if (why == NULL) {
            why = r;
        }
    }
    stack_shape keep = chosen >= 0 ? shapes[chosen] : 0;
    stack_shape now = shapes[current];
    PyMem_Free(shapes);
    if (chosen < 0) {
        PyErr_SetString(PyExc_ValueError, why != NULL ? why : "can't jump into the middle of a block");
        return -1;
    }
    _PyStackRef *sp = frame->stackpointer;
    _PyStackRef *new_top = _PyFrame_Stackbase(frame) + shape_depth(keep);
    PyThreadState *tstate = _PyThreadState_GET();
    while (sp > new_top) {
        _PyStackRef item = *--sp;
        if ((now & 7) == KIND_EXCEPT) {
            /* Leaving an except block: what POP_EXCEPT would restore. */
            PyObject *exc = PyStackRef_AsPyObjectSteal(item);
            if (Py_IsNone(exc)) {
                Py_CLEAR(exc);
            }
            Py_XSETREF(tstate->exc_info->exc_value, exc);
        }
        else {
            PyStackRef_XCLOSE(item);
        }
        now >>= 3;
    }
    frame->stackpointer = sp;
    frame->instr_ptr = _PyCode_CODE(code) + chosen;
    return bind_unbound_locals(frame, code);
}
