/* The assembler: turns the final instruction sequence into a code object.

   Jump opargs are resolved to code-unit distances (iterating until the
   EXTENDED_ARG prefixes they need stop changing), the bytecode is emitted
   with zeroed inline cache entries, and the exception table and location
   table are encoded in the 3.11+ formats that `dis` and the interpreter
   read (Doc/compiler.md summarises both). */

#define _PY_COMPILER_INTERNALS
#include "Python.h"
#include "pycore_code.h"
#include "pycore_compile.h"
#include "opcode_ids.h"
#include "pycore_opcode_metadata.h"

typedef _Py_SourceLocation location;

/* ---- A growable byte buffer -------------------------------------------- */

typedef struct {
    unsigned char *data;
    Py_ssize_t len;
    Py_ssize_t cap;
} bytebuf;

static int
buf_put(bytebuf *b, unsigned char c)
{
    if (b->len == b->cap) {
        Py_ssize_t cap = b->cap ? b->cap * 2 : 64;
        unsigned char *n = PyMem_Realloc(b->data, (size_t)cap);
        if (n == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->data = n;
        b->cap = cap;
    }
    b->data[b->len++] = c;
    return 0;
}

static PyObject *
buf_to_bytes(bytebuf *b)
{
    PyObject *r = PyBytes_FromStringAndSize((const char *)b->data, b->len);
    PyMem_Free(b->data);
    b->data = NULL;
    return r;
}

/* ---- Sizes and jumps ---------------------------------------------------- */

static int
ext_args_needed(int oparg)
{
    if (oparg > 0xFFFFFF) {
        return 3;
    }
    if (oparg > 0xFFFF) {
        return 2;
    }
    if (oparg > 0xFF) {
        return 1;
    }
    return 0;
}

static int
caches(int opcode)
{
    return opcode < 256 ? _PyOpcode_Caches[opcode] : 0;
}

static int
instr_size(_PyInstruction *ins)
{
    return ext_args_needed(ins->i_oparg) + 1 + caches(ins->i_opcode);
}

static int
is_jump_op(int op)
{
    return _PyInstructionSequence_HasTarget(op);
}

static int
is_backward(int op)
{
    return op == JUMP_BACKWARD || op == JUMP_BACKWARD_NO_INTERRUPT;
}

/* JUMP and JUMP_NO_INTERRUPT become forward or backward jumps. */
static void
resolve_unconditional_jumps(_PyInstructionSequence *seq)
{
    for (int i = 0; i < seq->s_used; i++) {
        _PyInstruction *ins = &seq->s_instrs[i];
        int forward = ins->i_target > i;
        if (ins->i_opcode == JUMP) {
            ins->i_opcode = forward ? JUMP_FORWARD : JUMP_BACKWARD;
        }
        else if (ins->i_opcode == JUMP_NO_INTERRUPT) {
            ins->i_opcode = forward ? JUMP_FORWARD : JUMP_BACKWARD_NO_INTERRUPT;
        }
    }
}

static int
resolve_jump_offsets(_PyInstructionSequence *seq)
{
    for (int i = 0; i < seq->s_used; i++) {
        if (is_jump_op(seq->s_instrs[i].i_opcode)) {
            seq->s_instrs[i].i_oparg = 0;
        }
    }
    for (int iteration = 0; iteration < 100; iteration++) {
        int offset = 0;
        for (int i = 0; i < seq->s_used; i++) {
            seq->s_instrs[i].i_offset = offset;
            offset += instr_size(&seq->s_instrs[i]);
        }
        int total = offset;
        int changed = 0;
        for (int i = 0; i < seq->s_used; i++) {
            _PyInstruction *ins = &seq->s_instrs[i];
            if (!is_jump_op(ins->i_opcode)) {
                continue;
            }
            int target = ins->i_target < seq->s_used ? seq->s_instrs[ins->i_target].i_offset
                                                     : total;
            int end = ins->i_offset + instr_size(ins);
            int arg = is_backward(ins->i_opcode) ? end - target : target - end;
            if (arg < 0) {
                PyErr_Format(PyExc_SystemError, "jump in the wrong direction (opcode %d)",
                             ins->i_opcode);
                return -1;
            }
            if (arg != ins->i_oparg) {
                if (ext_args_needed(arg) != ext_args_needed(ins->i_oparg)) {
                    changed = 1;
                }
                ins->i_oparg = arg;
            }
        }
        if (!changed) {
            return 0;
        }
    }
    PyErr_SetString(PyExc_SystemError, "jump offsets did not converge");
    return -1;
}

static PyObject *
emit_code(_PyInstructionSequence *seq)
{
    bytebuf b = {NULL, 0, 0};
    for (int i = 0; i < seq->s_used; i++) {
        _PyInstruction *ins = &seq->s_instrs[i];
        if (ins->i_opcode > 255) {
            PyMem_Free(b.data);
            PyErr_Format(PyExc_SystemError, "pseudo-instruction %d reached the assembler",
                         ins->i_opcode);
            return NULL;
        }
        int arg = ins->i_oparg;
        int ext = ext_args_needed(arg);
        int ok = 0;
        for (int k = ext; k > 0 && ok == 0; k--) {
            ok = buf_put(&b, EXTENDED_ARG) | buf_put(&b, (unsigned char)((arg >> (8 * k)) & 0xFF));
        }
        if (ok == 0) {
            ok = buf_put(&b, (unsigned char)ins->i_opcode) |
                 buf_put(&b, (unsigned char)(arg & 0xFF));
        }
        for (int k = 0; k < caches(ins->i_opcode) && ok == 0; k++) {
            ok = buf_put(&b, 0) | buf_put(&b, 0);
        }
        if (ok != 0) {
            PyMem_Free(b.data);
            return NULL;
        }
    }
    return buf_to_bytes(&b);
}

/* ---- Exception table ---------------------------------------------------- */

/* Entries are start, length, target and depth<<1|lasti, in code units;
   each number is written as big-endian 6-bit groups with 0x40 on all but
   the last byte, and 0x80 on the first byte of an entry. */
static int
put_except_varint(bytebuf *b, int value, int first)
{
    int shift = 0;
    while ((value >> (shift + 6)) > 0 && shift < 24) {
        shift += 6;
    }
    int mark = first ? 0x80 : 0;
    for (; shift > 0; shift -= 6) {
        if (buf_put(b, (unsigned char)(((value >> shift) & 0x3F) | 0x40 | mark)) < 0) {
            return -1;
        }
        mark = 0;
    }
    return buf_put(b, (unsigned char)((value & 0x3F) | mark));
}

static int
put_except_entry(bytebuf *b, int start, int end, _PyExceptHandlerInfo *h,
                 _PyInstructionSequence *seq)
{
    int target = seq->s_instrs[h->h_label].i_offset;
    int depth_lasti = (h->h_startdepth << 1) | (h->h_preserve_lasti ? 1 : 0);
    if (put_except_varint(b, start, 1) < 0 || put_except_varint(b, end - start, 0) < 0 ||
        put_except_varint(b, target, 0) < 0 || put_except_varint(b, depth_lasti, 0) < 0) {
        return -1;
    }
    return 0;
}

static int
same_handler(_PyExceptHandlerInfo *a, _PyExceptHandlerInfo *b)
{
    return a->h_label == b->h_label && a->h_startdepth == b->h_startdepth &&
           a->h_preserve_lasti == b->h_preserve_lasti;
}

static PyObject *
emit_exception_table(_PyInstructionSequence *seq)
{
    bytebuf b = {NULL, 0, 0};
    _PyExceptHandlerInfo cur = {-1, 0, 0};
    int start = 0;
    int offset = 0;
    for (int i = 0; i < seq->s_used; i++) {
        _PyInstruction *ins = &seq->s_instrs[i];
        _PyExceptHandlerInfo *h = &ins->i_except_handler_info;
        if (!same_handler(h, &cur)) {
            if (cur.h_label >= 0 && put_except_entry(&b, start, offset, &cur, seq) < 0) {
                PyMem_Free(b.data);
                return NULL;
            }
            cur = *h;
            start = offset;
        }
        offset += instr_size(ins);
    }
    if (cur.h_label >= 0 && put_except_entry(&b, start, offset, &cur, seq) < 0) {
        PyMem_Free(b.data);
        return NULL;
    }
    if (b.len == 0) {
        return PyBytes_FromStringAndSize(NULL, 0);
    }
    return buf_to_bytes(&b);
}

/* ---- Location table ----------------------------------------------------- */

/* Varints here are little-endian 6-bit groups with 0x40 on all but the
   last byte; signed ones keep the sign in the lowest bit. */
static int
put_varint(bytebuf *b, unsigned int v)
{
    while (v >= 64) {
        if (buf_put(b, (unsigned char)(0x40 | (v & 0x3F))) < 0) {
            return -1;
        }
        v >>= 6;
    }
    return buf_put(b, (unsigned char)v);
}

static int
put_signed_varint(bytebuf *b, int v)
{
    unsigned int u = v < 0 ? (((unsigned int)(-(long)v)) << 1) | 1 : ((unsigned int)v) << 1;
    return put_varint(b, u);
}

static int
put_loc_header(bytebuf *b, int code, int length)
{
    return buf_put(b, (unsigned char)(0x80 | (code << 3) | (length - 1)));
}

static int
put_location_entry(bytebuf *b, location loc, int length, int *prev_line)
{
    if (loc.lineno < 0) {
        return put_loc_header(b, PY_CODE_LOCATION_INFO_NONE, length);
    }
    int line_delta = loc.lineno - *prev_line;
    int col = loc.col_offset, end_col = loc.end_col_offset;
    if (col < 0 || end_col < 0) {
        if (loc.end_lineno == loc.lineno || loc.end_lineno < 0) {
            *prev_line = loc.lineno;
            if (put_loc_header(b, PY_CODE_LOCATION_INFO_NO_COLUMNS, length) < 0) {
                return -1;
            }
            return put_signed_varint(b, line_delta);
        }
    }
    else if (loc.end_lineno == loc.lineno) {
        if (line_delta == 0 && col < 80 && end_col - col < 16 && end_col >= col) {
            if (put_loc_header(b, PY_CODE_LOCATION_INFO_SHORT0 + (col >> 3), length) < 0) {
                return -1;
            }
            return buf_put(b, (unsigned char)(((col & 7) << 4) | (end_col - col)));
        }
        if (line_delta >= 0 && line_delta < 3 && col < 128 && end_col < 128) {
            *prev_line = loc.lineno;
            if (put_loc_header(b, PY_CODE_LOCATION_INFO_ONE_LINE0 + line_delta, length) < 0 ||
                buf_put(b, (unsigned char)col) < 0) {
                return -1;
            }
            return buf_put(b, (unsigned char)end_col);
        }
    }
    *prev_line = loc.lineno;
    int end_line = loc.end_lineno < 0 ? loc.lineno : loc.end_lineno;
    if (put_loc_header(b, PY_CODE_LOCATION_INFO_LONG, length) < 0 ||
        put_signed_varint(b, line_delta) < 0 ||
        put_varint(b, (unsigned int)(end_line - loc.lineno)) < 0 ||
        put_varint(b, (unsigned int)(col + 1)) < 0) {
        return -1;
    }
    return put_varint(b, (unsigned int)(end_col + 1));
}

static int
same_location(location a, location b)
{
    return a.lineno == b.lineno && a.end_lineno == b.end_lineno &&
           a.col_offset == b.col_offset && a.end_col_offset == b.end_col_offset;
}

static int
put_location(bytebuf *b, location loc, int size, int *prev_line)
{
    while (size > 8) {
        if (put_location_entry(b, loc, 8, prev_line) < 0) {
            return -1;
        }
        size -= 8;
    }
    if (size > 0) {
        return put_location_entry(b, loc, size, prev_line);
    }
    return 0;
}

static PyObject *
emit_location_table(_PyInstructionSequence *seq, int firstlineno)
{
    bytebuf b = {NULL, 0, 0};
    int prev_line = firstlineno;
    location loc = _Py_NO_LOCATION;
    int size = 0;
    for (int i = 0; i < seq->s_used; i++) {
        _PyInstruction *ins = &seq->s_instrs[i];
        if (!same_location(loc, ins->i_loc)) {
            if (put_location(&b, loc, size, &prev_line) < 0) {
                PyMem_Free(b.data);
                return NULL;
            }
            loc = ins->i_loc;
            size = 0;
        }
        size += instr_size(ins);
    }
    if (put_location(&b, loc, size, &prev_line) < 0) {
        PyMem_Free(b.data);
        return NULL;
    }
    if (b.len == 0) {
        return PyBytes_FromStringAndSize(NULL, 0);
    }
    return buf_to_bytes(&b);
}

/* ---- Names and locals --------------------------------------------------- */

static PyObject *
dict_keys_by_index(PyObject *dict, Py_ssize_t offset)
{
    Py_ssize_t n = PyDict_GET_SIZE(dict);
    PyObject *t = PyTuple_New(n);
    if (t == NULL) {
        return NULL;
    }
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &k, &v)) {
        Py_ssize_t i = PyLong_AsSsize_t(v) - offset;
        if (i < 0 || i >= n) {
            Py_DECREF(t);
            PyErr_SetString(PyExc_SystemError, "bad name index");
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, Py_NewRef(k));
    }
    return t;
}

static int
compute_localsplus(_PyCompile_CodeUnitMetadata *umd, int nlocalsplus, int flags,
                   PyObject **names_out, PyObject **kinds_out)
{
    PyObject *names = PyTuple_New(nlocalsplus);
    PyObject *kinds = PyBytes_FromStringAndSize(NULL, nlocalsplus);
    if (names == NULL || kinds == NULL) {
        Py_XDECREF(names);
        Py_XDECREF(kinds);
        return -1;
    }
    unsigned char *kp = (unsigned char *)PyBytes_AS_STRING(kinds);
    memset(kp, 0, (size_t)nlocalsplus);
    int nlocals = (int)PyDict_GET_SIZE(umd->u_varnames);
    int posonly = (int)umd->u_posonlyargcount;
    int npos = posonly + (int)umd->u_argcount;
    int nkw = (int)umd->u_kwonlyargcount;
    int vararg_index = (flags & CO_VARARGS) ? npos + nkw : -1;
    int kwarg_index = (flags & CO_VARKEYWORDS) ? npos + nkw + (vararg_index >= 0) : -1;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(umd->u_varnames, &pos, &k, &v)) {
        int i = (int)PyLong_AsLong(v);
        unsigned char kind = CO_FAST_LOCAL;
        if (i < posonly) {
            kind |= CO_FAST_ARG_POS;
        }
        else if (i < npos) {
            kind |= CO_FAST_ARG_POS | CO_FAST_ARG_KW;
        }
        else if (i < npos + nkw) {
            kind |= CO_FAST_ARG_KW;
        }
        else if (i == vararg_index) {
            kind |= CO_FAST_ARG_POS | CO_FAST_ARG_VAR;
        }
        else if (i == kwarg_index) {
            kind |= CO_FAST_ARG_KW | CO_FAST_ARG_VAR;
        }
        int r = PyDict_Contains(umd->u_cellvars, k);
        if (r < 0) {
            goto error;
        }
        if (r) {
            kind |= CO_FAST_CELL;
        }
        r = PyDict_Contains(umd->u_fasthidden, k);
        if (r < 0) {
            goto error;
        }
        if (r) {
            kind |= CO_FAST_HIDDEN;
        }
        PyTuple_SET_ITEM(names, i, Py_NewRef(k));
        kp[i] = kind;
    }
    /* cells that are not locals, in cell order, then free variables */
    int next = nlocals;
    int ncells = (int)PyDict_GET_SIZE(umd->u_cellvars);
    PyObject *cells = dict_keys_by_index(umd->u_cellvars, 0);
    PyObject *frees = dict_keys_by_index(umd->u_freevars, ncells);
    if (cells == NULL || frees == NULL) {
        Py_XDECREF(cells);
        Py_XDECREF(frees);
        goto error;
    }
    for (int i = 0; i < ncells; i++) {
        PyObject *name = PyTuple_GET_ITEM(cells, i);
        int r = PyDict_Contains(umd->u_varnames, name);
        if (r < 0) {
            Py_DECREF(cells);
            Py_DECREF(frees);
            goto error;
        }
        if (r) {
            continue;
        }
        PyTuple_SET_ITEM(names, next, Py_NewRef(name));
        kp[next++] = CO_FAST_CELL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(frees); i++) {
        PyTuple_SET_ITEM(names, next, Py_NewRef(PyTuple_GET_ITEM(frees, i)));
        kp[next++] = CO_FAST_FREE;
    }
    Py_DECREF(cells);
    Py_DECREF(frees);
    if (next != nlocalsplus) {
        PyErr_SetString(PyExc_SystemError, "localsplus size mismatch");
        goto error;
    }
    *names_out = names;
    *kinds_out = kinds;
    return 0;
error:
    Py_DECREF(names);
    Py_DECREF(kinds);
    return -1;
}

/* ---- Entry point -------------------------------------------------------- */

PyCodeObject *
_PyAssemble_MakeCodeObject(_PyCompile_CodeUnitMetadata *umd, PyObject *const_cache,
                           PyObject *consts, int maxdepth, _PyInstructionSequence *instrs,
                           int nlocalsplus, int code_flags, PyObject *filename)
{
    PyCodeObject *co = NULL;
    PyObject *code = NULL, *exctable = NULL, *linetable = NULL, *conststup = NULL;
    PyObject *names = NULL, *lpnames = NULL, *lpkinds = NULL;
    (void)const_cache;
    resolve_unconditional_jumps(instrs);
    if (resolve_jump_offsets(instrs) < 0) {
        goto done;
    }
    code = emit_code(instrs);
    exctable = emit_exception_table(instrs);
    linetable = emit_location_table(instrs, umd->u_firstlineno);
    conststup = PyList_AsTuple(consts);
    names = dict_keys_by_index(umd->u_names, 0);
    if (code == NULL || exctable == NULL || linetable == NULL || conststup == NULL ||
        names == NULL) {
        goto done;
    }
    if (compute_localsplus(umd, nlocalsplus, code_flags, &lpnames, &lpkinds) < 0) {
        goto done;
    }
    if (Py_SIZE(code) / 2 > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "code object too large");
        goto done;
    }
    struct _PyCodeConstructor con = {
        .filename = filename,
        .name = umd->u_name,
        .qualname = umd->u_qualname ? umd->u_qualname : umd->u_name,
        .flags = code_flags,
        .code = code,
        .firstlineno = umd->u_firstlineno,
        .linetable = linetable,
        .consts = conststup,
        .names = names,
        .localsplusnames = lpnames,
        .localspluskinds = lpkinds,
        .argcount = (int)(umd->u_argcount + umd->u_posonlyargcount),
        .posonlyargcount = (int)umd->u_posonlyargcount,
        .kwonlyargcount = (int)umd->u_kwonlyargcount,
        .stacksize = maxdepth,
        .exceptiontable = exctable,
    };
#ifdef Py_DEBUG
    /* The compiler's output is trusted (and not re-checked, to keep
       compiling fast); debug builds prove it is what the validator
       accepts, so the two cannot drift apart. */
    if (_PyCode_Validate(&con) < 0) {
        goto done;
    }
#endif
    co = _PyCode_New(&con);
done:
    Py_XDECREF(code);
    Py_XDECREF(exctable);
    Py_XDECREF(linetable);
    Py_XDECREF(conststup);
    Py_XDECREF(names);
    Py_XDECREF(lpnames);
    Py_XDECREF(lpkinds);
    return co;
}
