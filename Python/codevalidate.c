/* Bytecode validation: a code object built from user-supplied parts
   (types.CodeType(...), code.replace(), marshal.loads()) is checked before
   it can run, so malformed bytecode is a ValueError naming the problem
   instead of a crash in the eval loop.

   Every fact about an instruction comes from the generated opcode
   metadata (valid_entry, the HAS_*_FLAG bits, the cache sizes and the
   deopt table): nothing here is a hand-kept opcode list except the few
   instructions whose oparg packs an index with other bits.

   Only code from outside is checked: the compiler's output goes straight
   to _PyCode_New (debug builds validate it too, so the compiler and the
   validator cannot drift apart).

   Checked, in linear passes over co_code:
     - the code is not empty and is a whole number of code units;
     - each opcode is a real, unspecialized instruction (no CACHE, no
       specialized or instrumented form, no unknown byte);
     - its inline cache entries fit in the code;
     - constant, name, local and cell/free indices are in range;
     - jump targets land inside the code, on the start of an instruction
       (not on a cache entry, nor between an EXTENDED_ARG and its opcode);
     - the code cannot run off its end (the last instruction is a return,
       a raise or an unconditional jump).
   Then the exception table is decoded and checked (see read_handlers),
   and worklist passes walk every path from the first instruction and
   every handler, proving the stack depth (see prove_stack_depth) and that
   unchecked local loads and cell instructions find what they expect (see
   prove_locals). */

#include "Python.h"
#include "pycore_code.h"
#include "pycore_opcode_metadata.h"
#include "opcode_ids.h"

#include <string.h>

static int
bad_code(Py_ssize_t offset, const char *what, int op, int oparg)
{
    const char *name = op >= 0 && _PyOpcode_OpName[op] ? _PyOpcode_OpName[op] : "?";
    PyErr_Format(PyExc_ValueError, "invalid bytecode at offset %zd (%s %d): %s", offset * 2,
                 name, oparg, what);
    return -1;
}

/* The index an oparg encodes for the table its flag names: most opcodes
   use the oparg as is, a few pack flag bits below it. */
static int
table_index(int op, int oparg)
{
    switch (op) {
    case LOAD_GLOBAL:
    case LOAD_ATTR:
        return oparg >> 1;
    case LOAD_SUPER_ATTR:
        return oparg >> 2;
    default:
        return oparg;
    }
}

/* Does control never fall through to the next instruction? */
static int
ends_flow(int op)
{
    switch (op) {
    case RETURN_VALUE:
    case RERAISE:
    case RAISE_VARARGS:
    case JUMP_BACKWARD:
    case JUMP_BACKWARD_NO_INTERRUPT:
    case JUMP_FORWARD:
        return 1;
    default:
        return 0;
    }
}

static int
is_backward_jump(int op)
{
    const char *name = _PyOpcode_OpName[op];
    return name != NULL && strstr(name, "BACKWARD") != NULL;
}

/* What the linear pass learns about each code unit, for the later passes:
   UNIT_START where dispatch may begin (the first unit of an instruction,
   counting an EXTENDED_ARG prefix as its first unit), UNIT_INNER for the
   rest (a prefixed opcode, cache entries). */
enum { UNIT_INNER = 0, UNIT_START = 1 };

/* One decoded instruction: the opcode with its full oparg, and the index of
   the unit after it (past its prefixes and caches). */
typedef struct {
    int op;
    int oparg;
    Py_ssize_t next;
} decoded;

static decoded
decode_at(const uint8_t *bytes, Py_ssize_t i)
{
    decoded d = {0, 0, i};
    int ext = 0;
    for (;;) {
        d.op = bytes[2 * d.next];
        d.oparg = (ext << 8) | bytes[2 * d.next + 1];
        d.next += 1 + _PyOpcode_Caches[d.op];
        if (d.op != EXTENDED_ARG) {
            return d;
        }
        ext = d.oparg;
    }
}

static Py_ssize_t
jump_target(decoded d)
{
    return is_backward_jump(d.op) ? d.next - d.oparg : d.next + d.oparg;
}

/* Pass 1: each instruction on its own. */
static int
check_instructions(const uint8_t *bytes, Py_ssize_t n, Py_ssize_t nconsts, Py_ssize_t nnames,
                   Py_ssize_t nlocalsplus, uint8_t *units)
{
    int ext = 0, last_op = -1;
    Py_ssize_t last_at = 0;
    for (Py_ssize_t i = 0; i < n;) {
        int op = bytes[2 * i];
        int oparg = (ext << 8) | bytes[2 * i + 1];
        if (op == CACHE || op == ENTER_EXECUTOR || !_PyOpcode_opcode_metadata[op].valid_entry ||
            (_PyOpcode_Deopt[op] != 0 && _PyOpcode_Deopt[op] != op)) {
            return bad_code(i, "unknown or specialized opcode", op, oparg);
        }
        Py_ssize_t next = i + 1 + _PyOpcode_Caches[op];
        if (next > n) {
            return bad_code(i, "inline cache runs past the end of the code", op, oparg);
        }
        if (last_op != EXTENDED_ARG) {
            units[i] = UNIT_START;
        }
        last_op = op;
        last_at = i;
        if (op == EXTENDED_ARG) {
            /* the eval loop builds opargs in an int: the prefixes may
               carry at most 23 bits */
            if (oparg > 0x7fffff) {
                return bad_code(i, "EXTENDED_ARG prefixes make the oparg too large", op, oparg);
            }
            ext = oparg;
            i = next;
            continue;
        }
        ext = 0;
        int flags = _PyOpcode_opcode_metadata[op].flags;
        if ((flags & HAS_CONST_FLAG) && oparg >= nconsts) {
            return bad_code(i, "constant index out of range", op, oparg);
        }
        if ((flags & HAS_NAME_FLAG) && table_index(op, oparg) >= nnames) {
            return bad_code(i, "name index out of range", op, oparg);
        }
        if ((flags & (HAS_LOCAL_FLAG | HAS_FREE_FLAG)) || op == LOAD_FROM_DICT_OR_DEREF) {
            /* the superinstructions pack two 4-bit local indices */
            int pair = op == LOAD_FAST_LOAD_FAST || op == STORE_FAST_STORE_FAST ||
                       op == STORE_FAST_LOAD_FAST || op == LOAD_FAST_BORROW_LOAD_FAST_BORROW;
            int hi = pair ? oparg >> 4 : oparg, lo = pair ? oparg & 15 : 0;
            if (hi >= nlocalsplus || lo >= nlocalsplus) {
                return bad_code(i, "local variable index out of range", op, oparg);
            }
        }
        i = next;
    }
    if (last_op == EXTENDED_ARG || !ends_flow(last_op)) {
        return bad_code(last_at, "execution can run off the end of the code", last_op, 0);
    }
    /* Jump targets need the whole map of instruction starts. */
    for (Py_ssize_t i = 0; i < n;) {
        decoded d = decode_at(bytes, i);
        if (_PyOpcode_opcode_metadata[d.op].flags & HAS_JUMP_FLAG) {
            Py_ssize_t target = jump_target(d);
            if (target < 0 || target >= n) {
                return bad_code(i, "jump target outside the code", d.op, d.oparg);
            }
            if (units[target] != UNIT_START) {
                return bad_code(i, "jump target is not the start of an instruction", d.op,
                                d.oparg);
            }
        }
        i = d.next;
    }
    return 0;
}

/* ---- The exception table ------------------------------------------------

   co_exceptiontable is a run of entries of four numbers (first covered
   unit, number of units covered, handler unit, handler depth * 2 + push
   lasti), each number big-endian in 6-bit groups with 0x40 meaning "more
   groups follow"; the first byte of an entry has 0x80 set and no other byte
   does.  The eval loop finds an instruction's handler by scanning for the
   first entry that covers the instruction's last unit and stops at the
   first entry that starts past it, so entries must be in code order and
   must not overlap. */

typedef struct {
    Py_ssize_t first, end, target;
    int level, lasti;
} handler_entry;

static int
bad_table(Py_ssize_t entry, const char *what)
{
    PyErr_Format(PyExc_ValueError, "invalid exception table entry %zd: %s", entry, what);
    return -1;
}

/* One number of entry `entry`; `starts` says it is the entry's first. */
static int
read_number(const uint8_t **p, const uint8_t *end, int starts, Py_ssize_t entry,
            Py_ssize_t *out)
{
    Py_ssize_t value = 0;
    for (int groups = 0;; groups++) {
        if (*p >= end) {
            return bad_table(entry, "truncated");
        }
        uint8_t byte = *(*p)++;
        if (((byte & 0x80) != 0) != (starts && groups == 0)) {
            return bad_table(entry, "entry start marker misplaced");
        }
        if (groups == 5) {
            return bad_table(entry, "number too large");
        }
        value = (value << 6) | (byte & 0x3f);
        if (!(byte & 0x40)) {
            *out = value;
            return 0;
        }
    }
}

/* Decode and check every entry; *out gets a PyMem array (NULL if none). */
static int
read_handlers(PyObject *table, Py_ssize_t n, const uint8_t *units, int stacksize,
              handler_entry **out, Py_ssize_t *count)
{
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(table);
    const uint8_t *end = p + PyBytes_GET_SIZE(table);
    /* every entry takes at least four bytes */
    Py_ssize_t cap = PyBytes_GET_SIZE(table) / 4;
    handler_entry *entries = NULL;
    *out = NULL;
    *count = 0;
    if (cap == 0) {
        return p == end ? 0 : bad_table(0, "truncated");
    }
    entries = PyMem_New(handler_entry, cap);
    if (entries == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t k = 0, covered_to = 0;
    while (p < end) {
        Py_ssize_t first, size, target, depth_lasti;
        if (k == cap) {
            bad_table(k, "truncated");
            goto fail;
        }
        if (read_number(&p, end, 1, k, &first) < 0 || read_number(&p, end, 0, k, &size) < 0 ||
            read_number(&p, end, 0, k, &target) < 0 ||
            read_number(&p, end, 0, k, &depth_lasti) < 0) {
            goto fail;
        }
        if (first < covered_to) {
            bad_table(k, "overlaps or precedes the entry before it");
            goto fail;
        }
        if (first + size > n) {
            bad_table(k, "covered range runs past the end of the code");
            goto fail;
        }
        if (target >= n || units[target] != UNIT_START) {
            bad_table(k, "handler is not the start of an instruction");
            goto fail;
        }
        handler_entry *e = &entries[k++];
        e->first = first;
        e->end = first + size;
        e->target = target;
        e->level = (int)(depth_lasti >> 1);
        e->lasti = (int)(depth_lasti & 1);
        /* the handler starts with the saved lasti (if asked) and the
           exception on top of the level */
        if ((Py_ssize_t)e->level + e->lasti + 1 > stacksize) {
            bad_table(k - 1, "handler depth exceeds co_stacksize");
            goto fail;
        }
        covered_to = e->end;
    }
    *out = entries;
    *count = k;
    return 0;
fail:
    PyMem_Free(entries);
    return -1;
}

/* ---- Stack depth ----------------------------------------------------------

   An abstract run over the instructions: starting from depth 0 at the first
   instruction, each instruction's effect (from the generated num_popped /
   num_pushed tables) gives the depth after it, which flows to the next
   instruction and to its jump target; an instruction covered by a handler
   also flows to the handler, at the handler's level plus what unwinding
   pushes.  Every instruction reached must be reached at one depth only,
   never pop below zero, never grow past co_stacksize, and never sit below
   its handler's level at any point where it can raise (unwinding
   cannot pop upwards).  Each instruction is
   visited once, so the pass is linear. */

typedef struct {
    int *depth;        /* per unit: -1 until reached */
    Py_ssize_t *todo;  /* units reached but not yet visited */
    Py_ssize_t ntodo;
} depth_walk;

static int
reach(depth_walk *w, Py_ssize_t from, Py_ssize_t unit, int depth)
{
    if (w->depth[unit] < 0) {
        w->depth[unit] = depth;
        w->todo[w->ntodo++] = unit;
        return 0;
    }
    if (w->depth[unit] != depth) {
        PyErr_Format(PyExc_ValueError,
                     "invalid bytecode at offset %zd: stack depth %d here but %d on the path "
                     "from offset %zd",
                     unit * 2, w->depth[unit], depth, from * 2);
        return -1;
    }
    return 0;
}

static int
prove_stack_depth(const uint8_t *bytes, Py_ssize_t n, int stacksize,
                  const handler_entry *entries, const Py_ssize_t *handler_of)
{
    depth_walk w = {PyMem_New(int, n), PyMem_New(Py_ssize_t, n), 0};
    int result = -1;
    if (w.depth == NULL || w.todo == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        w.depth[i] = -1;
    }
    if (reach(&w, 0, 0, 0) < 0) {
        goto done;
    }
    while (w.ntodo > 0) {
        Py_ssize_t i = w.todo[--w.ntodo];
        int depth = w.depth[i];
        decoded d = decode_at(bytes, i);
        int popped = _PyOpcode_num_popped(d.op, d.oparg);
        int pushed = _PyOpcode_num_pushed(d.op, d.oparg);
        if (popped < 0 || pushed < 0) {
            bad_code(i, "no stack effect known", d.op, d.oparg);
            goto done;
        }
        if (popped > depth) {
            bad_code(i, "stack underflow", d.op, d.oparg);
            goto done;
        }
        int after = depth - popped + pushed;
        if (after > stacksize) {
            bad_code(i, "stack depth exceeds co_stacksize", d.op, d.oparg);
            goto done;
        }
        Py_ssize_t h = handler_of[d.next - 1];
        if (h >= 0) {
            /* An event callback can raise before the instruction, RERAISE
               after popping; an instruction that fails drops the inputs it
               consumes first, unless its failures are all of the kind that
               keeps them.  The metadata counts items an instruction only
               peeks at as popped and pushed again, so as many inputs as
               outputs are taken to be kept (the eval loop also refuses to
               unwind to a level above the stack). */
            int lowest = d.op == RERAISE ? after : depth;
            int flags = _PyOpcode_opcode_metadata[d.op].flags;
            if ((flags & HAS_ERROR_FLAG) && !(flags & HAS_ERROR_NO_POP_FLAG)) {
                lowest = depth - popped + (pushed < popped ? pushed : popped);
            }
            if (lowest < entries[h].level) {
                bad_code(i, "stack is below its exception handler's depth", d.op, d.oparg);
                goto done;
            }
            if (reach(&w, i, entries[h].target, entries[h].level + entries[h].lasti + 1) < 0) {
                goto done;
            }
        }
        if ((_PyOpcode_opcode_metadata[d.op].flags & HAS_JUMP_FLAG) &&
            reach(&w, i, jump_target(d), after) < 0) {
            goto done;
        }
        if (!ends_flow(d.op)) {
            if (d.next >= n) {
                bad_code(i, "execution can run off the end of the code", d.op, d.oparg);
                goto done;
            }
            if (reach(&w, i, d.next, after) < 0) {
                goto done;
            }
        }
    }
    result = 0;
done:
    PyMem_Free(w.depth);
    PyMem_Free(w.todo);
    return result;
}

/* ---- Locals ---------------------------------------------------------------

   The fast-local loads that skip the unbound check (LOAD_FAST and its
   borrowed and paired forms) and the cell instructions (LOAD_DEREF & co.)
   trust the compiler; code from outside earns that trust here.  A forward
   dataflow pass tracks two sets per instruction, the locals that are bound
   on every path to it and those that hold a cell on every path (sets meet
   by intersection, so the pass runs until nothing shrinks).  At entry the
   arguments are bound and nothing is a cell; stores bind and forget the
   cell, deletes and LOAD_FAST_AND_CLEAR unbind, MAKE_CELL and
   COPY_FREE_VARS make cells.  An unchecked load needs its local bound, a
   cell instruction its local a cell. */

typedef uint64_t word;
#define WORD_BITS 64

typedef struct {
    Py_ssize_t words;   /* per set */
    word *sets;         /* per unit: bound set then cell set; NULL: unreached */
    uint8_t *reached;
    Py_ssize_t *todo;
    uint8_t *queued;
    Py_ssize_t ntodo;
} locals_walk;

static inline int
has_bit(const word *set, int i)
{
    return (set[i / WORD_BITS] >> (i % WORD_BITS)) & 1;
}

static inline void
put_bit(word *set, int i, int on)
{
    word m = (word)1 << (i % WORD_BITS);
    set[i / WORD_BITS] = on ? (set[i / WORD_BITS] | m) : (set[i / WORD_BITS] & ~m);
}

/* Meet `state` into unit's; queue the unit when its sets shrank. */
static void
meet(locals_walk *w, Py_ssize_t unit, const word *state)
{
    word *mine = w->sets + unit * 2 * w->words;
    int changed = 0;
    if (!w->reached[unit]) {
        memcpy(mine, state, (size_t)(2 * w->words) * sizeof(word));
        w->reached[unit] = 1;
        changed = 1;
    }
    else {
        for (Py_ssize_t k = 0; k < 2 * w->words; k++) {
            word both = mine[k] & state[k];
            changed |= both != mine[k];
            mine[k] = both;
        }
    }
    if (changed && !w->queued[unit]) {
        w->queued[unit] = 1;
        w->todo[w->ntodo++] = unit;
    }
}

/* The locals an instruction reads unchecked (up to two), -1 for none. */
static void
unchecked_reads(decoded d, int *a, int *b)
{
    *a = *b = -1;
    switch (d.op) {
    case LOAD_FAST:
    case LOAD_FAST_BORROW:
        *a = d.oparg;
        break;
    case LOAD_FAST_LOAD_FAST:
    case LOAD_FAST_BORROW_LOAD_FAST_BORROW:
        *a = d.oparg >> 4;
        *b = d.oparg & 15;
        break;
    default:
        break;
    }
}

static int
needs_cell(int op)
{
    return op == LOAD_DEREF || op == STORE_DEREF || op == DELETE_DEREF ||
           op == LOAD_FROM_DICT_OR_DEREF;
}

/* Apply d to (bound, cell); -1 with ValueError if d may misread a local. */
static int
step_locals(Py_ssize_t at, decoded d, word *bound, word *cell, int nlocalsplus, int nfree)
{
    int a, b;
    unchecked_reads(d, &a, &b);
    if ((a >= 0 && !has_bit(bound, a)) || (b >= 0 && !has_bit(bound, b))) {
        return bad_code(at, "local variable may be unbound (use LOAD_FAST_CHECK)", d.op, d.oparg);
    }
    if (needs_cell(d.op) && !has_bit(cell, d.oparg)) {
        return bad_code(at, "variable is not a cell here", d.op, d.oparg);
    }
    switch (d.op) {
    case STORE_FAST:
    case LOAD_FAST_CHECK:
        put_bit(bound, d.oparg, 1);
        put_bit(cell, d.oparg, d.op == LOAD_FAST_CHECK && has_bit(cell, d.oparg));
        break;
    case STORE_FAST_STORE_FAST:
        put_bit(bound, d.oparg & 15, 1);
        put_bit(cell, d.oparg & 15, 0);
        /* fall through */
    case STORE_FAST_LOAD_FAST:
        put_bit(bound, d.oparg >> 4, 1);
        put_bit(cell, d.oparg >> 4, 0);
        if (d.op == STORE_FAST_LOAD_FAST && !has_bit(bound, d.oparg & 15)) {
            return bad_code(at, "local variable may be unbound (use LOAD_FAST_CHECK)", d.op,
                            d.oparg);
        }
        break;
    case DELETE_FAST:
    case LOAD_FAST_AND_CLEAR:
        put_bit(bound, d.oparg, 0);
        put_bit(cell, d.oparg, 0);
        break;
    case MAKE_CELL:
        put_bit(bound, d.oparg, 1);
        put_bit(cell, d.oparg, 1);
        break;
    case COPY_FREE_VARS:
        if (d.oparg != nfree) {
            return bad_code(at, "COPY_FREE_VARS count is not the number of free variables",
                            d.op, d.oparg);
        }
        for (int k = nlocalsplus - nfree; k < nlocalsplus; k++) {
            put_bit(bound, k, 1);
            put_bit(cell, k, 1);
        }
        break;
    default:
        break;
    }
    return 0;
}

static int
prove_locals(const uint8_t *bytes, Py_ssize_t n, int nlocalsplus, int nargs, int nfree,
             const handler_entry *entries, const Py_ssize_t *handler_of)
{
    /* Nothing to prove without a load that trusts the compiler. */
    int any = 0;
    for (Py_ssize_t i = 0; i < n && !any;) {
        decoded d = decode_at(bytes, i);
        int a, b;
        unchecked_reads(d, &a, &b);
        any = a >= 0 || needs_cell(d.op) || d.op == STORE_FAST_LOAD_FAST;
        i = d.next;
    }
    if (!any) {
        return 0;
    }
    locals_walk w = {(nlocalsplus + WORD_BITS - 1) / WORD_BITS};
    if (w.words > 0 && n > ((Py_ssize_t)1 << 26) / (2 * w.words)) {
        PyErr_SetString(PyExc_ValueError, "code too large to validate its locals");
        return -1;
    }
    Py_ssize_t per = 2 * w.words;
    w.sets = PyMem_Calloc((size_t)(n * per + per * 2), sizeof(word));
    w.reached = PyMem_Calloc((size_t)n, 1);
    w.queued = PyMem_Calloc((size_t)n, 1);
    w.todo = PyMem_New(Py_ssize_t, n);
    int result = -1;
    if (w.sets == NULL || w.reached == NULL || w.queued == NULL || w.todo == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    word *state = w.sets + n * per, *before = state + per;
    memset(state, 0, (size_t)per * sizeof(word));
    for (int k = 0; k < nargs && k < nlocalsplus; k++) {
        put_bit(state, k, 1);
    }
    meet(&w, 0, state);
    while (w.ntodo > 0) {
        Py_ssize_t i = w.todo[--w.ntodo];
        w.queued[i] = 0;
        decoded d = decode_at(bytes, i);
        memcpy(state, w.sets + i * per, (size_t)per * sizeof(word));
        memcpy(before, state, (size_t)per * sizeof(word));
        if (step_locals(i, d, state, state + w.words, nlocalsplus, nfree) < 0) {
            goto done;
        }
        Py_ssize_t h = handler_of[d.next - 1];
        if (h >= 0) {
            /* the handler may start from before or after the instruction */
            for (Py_ssize_t k = 0; k < per; k++) {
                before[k] &= state[k];
            }
            meet(&w, entries[h].target, before);
        }
        if (_PyOpcode_opcode_metadata[d.op].flags & HAS_JUMP_FLAG) {
            meet(&w, jump_target(d), state);
        }
        if (!ends_flow(d.op) && d.next < n) {
            meet(&w, d.next, state);
        }
    }
    result = 0;
done:
    PyMem_Free(w.sets);
    PyMem_Free(w.reached);
    PyMem_Free(w.queued);
    PyMem_Free(w.todo);
    return result;
}

int
_PyCode_ValidateBytecode(PyObject *code, PyObject *consts, PyObject *names,
                         PyObject *localspluskinds, int nargs, PyObject *exceptiontable,
                         int stacksize)
{
    const uint8_t *bytes = (const uint8_t *)PyBytes_AS_STRING(code);
    Py_ssize_t n = PyBytes_GET_SIZE(code) / 2;
    Py_ssize_t nlocalsplus = PyBytes_GET_SIZE(localspluskinds);
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "invalid bytecode: co_code is empty");
        return -1;
    }
    int nfree = 0;
    for (Py_ssize_t k = 0; k < nlocalsplus; k++) {
        nfree += (PyBytes_AS_STRING(localspluskinds)[k] & CO_FAST_FREE) != 0;
    }
    uint8_t *units = PyMem_Calloc((size_t)n, 1);
    Py_ssize_t *handler_of = PyMem_New(Py_ssize_t, n);
    handler_entry *entries = NULL;
    Py_ssize_t nentries = 0;
    int result = -1;
    if (units == NULL || handler_of == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (check_instructions(bytes, n, PyTuple_GET_SIZE(consts), PyTuple_GET_SIZE(names),
                           nlocalsplus, units) < 0 ||
        read_handlers(exceptiontable, n, units, stacksize, &entries, &nentries) < 0) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        handler_of[i] = -1;
    }
    for (Py_ssize_t k = 0; k < nentries; k++) {
        for (Py_ssize_t u = entries[k].first; u < entries[k].end; u++) {
            handler_of[u] = k;
        }
    }
    if (prove_stack_depth(bytes, n, stacksize, entries, handler_of) < 0 ||
        prove_locals(bytes, n, (int)nlocalsplus, nargs, nfree, entries, handler_of) < 0) {
        goto done;
    }
    result = 0;
done:
    PyMem_Free(units);
    PyMem_Free(handler_of);
    PyMem_Free(entries);
    return result;
}
