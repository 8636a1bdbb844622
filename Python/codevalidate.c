/* Bytecode validation: a code object built from user-supplied parts
   (types.CodeType(...), code.replace(), marshal.loads()) is checked before
   it can run, so malformed bytecode is a ValueError naming the problem
   instead of a crash in the eval loop.

   Every fact about an instruction comes from the generated opcode
   metadata (valid_entry, the HAS_*_FLAG bits, the cache sizes and the
   deopt table): nothing here is a hand-kept opcode list except the few
   instructions whose oparg packs an index with other bits.

   Checked, in one linear pass over co_code:
     - the code is not empty and is a whole number of code units;
     - each opcode is a real, unspecialized instruction (no CACHE, no
       specialized or instrumented form, no unknown byte);
     - its inline cache entries fit in the code;
     - constant, name, local and cell/free indices are in range;
     - jump targets land inside the code;
     - the code cannot run off its end (the last instruction is a return,
       a raise or an unconditional jump).
   Not checked (yet): exception-table consistency and stack depth. */

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

int
_PyCode_ValidateBytecode(PyObject *code, PyObject *consts, PyObject *names,
                         Py_ssize_t nlocalsplus)
{
    const uint8_t *bytes = (const uint8_t *)PyBytes_AS_STRING(code);
    Py_ssize_t n = PyBytes_GET_SIZE(code) / 2;
    Py_ssize_t nconsts = PyTuple_GET_SIZE(consts), nnames = PyTuple_GET_SIZE(names);
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "invalid bytecode: co_code is empty");
        return -1;
    }
    int ext = 0, last_op = -1;
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
        if (op == EXTENDED_ARG) {
            ext = oparg;
            last_op = op;
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
        if (flags & HAS_JUMP_FLAG) {
            Py_ssize_t target = is_backward_jump(op) ? next - oparg : next + oparg;
            if (target < 0 || target > n) {
                return bad_code(i, "jump target outside the code", op, oparg);
            }
        }
        last_op = op;
        i = next;
    }
    if (!ends_flow(last_op)) {
        return bad_code(n - 1, "execution can run off the end of the code", last_op, 0);
    }
    return 0;
}
