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
   and a worklist pass walks every path from the first instruction and
   every handler, proving the stack depth (see prove_stack_depth). */

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
    for (Py_ssize_t i = 0; i < n;) {
        int op = bytes[2 * i];
        int oparg = (ext << 8) | bytes[2 * i + 1];
        if (op == CACHE || !_PyOpcode_opcode_metadata[op].valid_entry ||
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
        if (op == EXTENDED_ARG) {
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
        if (flags & (HAS_LOCAL_FLAG | HAS_FREE_FLAG)) {
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
        return bad_code(n - 1, "execution can run off the end of the code", last_op, 0);
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
                  const handler_entry *entries, Py_ssize_t nentries)
{
    depth_walk w = {PyMem_New(int, n), PyMem_New(Py_ssize_t, n), 0};
    Py_ssize_t *handler_of = PyMem_New(Py_ssize_t, n);
    int result = -1;
    if (w.depth == NULL || w.todo == NULL || handler_of == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        w.depth[i] = -1;
        handler_of[i] = -1;
    }
    for (Py_ssize_t k = 0; k < nentries; k++) {
        for (Py_ssize_t u = entries[k].first; u < entries[k].end; u++) {
            handler_of[u] = k;
        }
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
    PyMem_Free(handler_of);
    return result;
}

int
_PyCode_ValidateBytecode(PyObject *code, PyObject *consts, PyObject *names,
                         Py_ssize_t nlocalsplus, PyObject *exceptiontable, int stacksize)
{
    const uint8_t *bytes = (const uint8_t *)PyBytes_AS_STRING(code);
    Py_ssize_t n = PyBytes_GET_SIZE(code) / 2;
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "invalid bytecode: co_code is empty");
        return -1;
    }
    uint8_t *units = PyMem_Calloc((size_t)n, 1);
    handler_entry *entries = NULL;
    Py_ssize_t nentries = 0;
    int result = -1;
    if (units == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (check_instructions(bytes, n, PyTuple_GET_SIZE(consts), PyTuple_GET_SIZE(names),
                           nlocalsplus, units) == 0 &&
        read_handlers(exceptiontable, n, units, stacksize, &entries, &nentries) == 0) {
        result = prove_stack_depth(bytes, n, stacksize, entries, nentries);
    }
    PyMem_Free(units);
    PyMem_Free(entries);
    return result;
}
