/* Code objects (PyCode_Type): a compiled function body.

   The instructions live inline at the end of the object (co_code_adaptive)
   so the interpreter can specialise them in place; co_code hands out a
   de-specialised copy.  Line and column information is in co_linetable,
   in the compact format described in Doc/locations.md; this file holds its
   only reader (PyCode_Addr2Line and friends, co_lines(), co_positions()). */

#include "Python.h"
#include "pycore_optimizer.h"
#include "pycore_code.h"
#include "pycore_frame.h"
#include "pycore_instruments.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"
#include "pycore_opcode_metadata.h"
#include "pycore_pystate.h"
#include "pycore_tuple.h"
#include "pycore_typeobject.h"
#include "opcode_ids.h"

/* ---- Small helpers ------------------------------------------------------- */

static int
count_kinds(PyObject *kinds, int mask)
{
    int n = 0;
    Py_ssize_t size = PyBytes_GET_SIZE(kinds);
    for (Py_ssize_t i = 0; i < size; i++) {
        if (_PyLocals_GetKind(kinds, (int)i) & mask) {
            n++;
        }
    }
    return n;
}

/* The specialisation-free opcode for `op` (itself when the table has no
   entry, e.g. for opcodes the generator knows nothing about). */
static inline int
deopt_opcode(int op)
{
    int base = _PyOpcode_Deopt[op];
    return base != 0 ? base : op;
}

static inline int
cache_entries(int op)
{
    return _PyOpcode_Caches[deopt_opcode(op)];
}

static int
all_strings(PyObject *tuple)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(tuple, i))) {
            return 0;
        }
    }
    return 1;
}

static int
intern_names(PyObject *tuple)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        PyObject **p = &_PyTuple_ITEMS(tuple)[i];
        if (!PyUnicode_Check(*p)) {
            PyErr_SetString(PyExc_SystemError, "non-string found in code slot");
            return -1;
        }
        PyUnicode_InternInPlace(p);
    }
    return 0;
}

/* Constants that look like identifiers are likely to be used as attribute
   or dict keys; interning them makes those lookups pointer compares. */
static int
looks_like_name(PyObject *s)
{
    if (!PyUnicode_CheckExact(s) || !PyUnicode_IS_ASCII(s)) {
        return 0;
    }
    const Py_UCS1 *p = PyUnicode_1BYTE_DATA(s);
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS1 c = p[i];
        if (!(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
              (c >= 'A' && c <= 'Z'))) {
            return 0;
        }
    }
    return 1;
}

static void
intern_constants(PyObject *tuple)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        PyObject **p = &_PyTuple_ITEMS(tuple)[i];
        if (looks_like_name(*p)) {
            PyUnicode_InternInPlace(p);
        }
        else if (PyTuple_CheckExact(*p)) {
            intern_constants(*p);
        }
    }
}

/* ---- Construction ---------------------------------------------------------- */

/* Whether every field has the type a code object is built from (anything
   else is the caller's bug, not bad input). */
static int
fields_have_their_types(struct _PyCodeConstructor *con)
{
    PyObject *strings[] = {con->filename, con->name, con->qualname};
    PyObject *byte_strings[] = {con->code, con->linetable, con->localspluskinds, con->exceptiontable};
    PyObject *tuples[] = {con->consts, con->names, con->localsplusnames};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(strings); i++) {
        if (strings[i] == NULL || !PyUnicode_Check(strings[i])) {
            return 0;
        }
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(byte_strings); i++) {
        if (byte_strings[i] == NULL || !PyBytes_Check(byte_strings[i])) {
            return 0;
        }
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(tuples); i++) {
        if (tuples[i] == NULL || !PyTuple_Check(tuples[i])) {
            return 0;
        }
    }
    /* One kind byte per local, and counts that make sense together. */
    return PyTuple_GET_SIZE(con->localsplusnames) == PyBytes_GET_SIZE(con->localspluskinds) &&
           con->posonlyargcount >= 0 && con->argcount >= con->posonlyargcount &&
           con->kwonlyargcount >= 0 && con->stacksize >= 0 && con->flags >= 0;
}

/* What construction itself needs (the frame size cannot overflow, the
   arguments have locals); the bytecode is the caller's concern. */
static int
check_shape(struct _PyCodeConstructor *con)
{
    if (!fields_have_their_types(con)) {
        PyErr_BadInternalCall();
        return -1;
    }
    Py_ssize_t code_bytes = PyBytes_GET_SIZE(con->code);
    if (code_bytes > INT_MAX || code_bytes % (Py_ssize_t)sizeof(_Py_CODEUNIT) != 0) {
        PyErr_SetString(PyExc_ValueError, "code: co_code is malformed");
        return -1;
    }
    /* Frames are sized in ints; keep the sum well away from overflow. */
    Py_ssize_t nlocalsplus = PyTuple_GET_SIZE(con->localsplusnames);
    if (con->stacksize >= INT_MAX / 4 || nlocalsplus >= INT_MAX / 4) {
        PyErr_SetString(PyExc_OverflowError, "code: co_stacksize is too large");
        return -1;
    }
    /* The arguments are the first locals: there must be room for them. */
    int arguments = con->argcount + con->kwonlyargcount + ((con->flags & CO_VARARGS) != 0) +
                    ((con->flags & CO_VARKEYWORDS) != 0);
    if (count_kinds(con->localspluskinds, CO_FAST_LOCAL) < arguments) {
        PyErr_SetString(PyExc_ValueError, "code: co_varnames is too small");
        return -1;
    }
    return 0;
}

int
_PyCode_Validate(struct _PyCodeConstructor *con)
{
    if (check_shape(con) < 0) {
        return -1;
    }
    int nargs = con->argcount + con->kwonlyargcount + ((con->flags & CO_VARARGS) != 0) +
                ((con->flags & CO_VARKEYWORDS) != 0);
    return _PyCode_ValidateBytecode(con->code, con->consts, con->names, con->localspluskinds,
                                    nargs, con->exceptiontable, con->stacksize);
}

static uint32_t
next_code_version(void)
{
    static uint32_t counter = 1;
    if (counter == 0) {
        return 0;
    }
    return counter++;
}

/* Index of the first RESUME: instructions before it only set up cells and
   free variables, so a frame whose instruction pointer has not reached it
   is not yet visible to tracers and introspection. */
static int
first_traceable(PyCodeObject *co)
{
    _Py_CODEUNIT *code = _PyCode_CODE(co);
    Py_ssize_t n = Py_SIZE(co);
    for (Py_ssize_t i = 0; i < n; i += 1 + cache_entries(code[i].op.code)) {
        if (code[i].op.code == RESUME) {
            return (int)i;
        }
    }
    return 0;
}

static void
init_code(PyCodeObject *co, struct _PyCodeConstructor *con, PyObject *name, PyObject *qualname)
{
    int nlocalsplus = (int)PyTuple_GET_SIZE(con->localsplusnames);
    co->co_consts = Py_NewRef(con->consts);
    co->co_names = Py_NewRef(con->names);
    co->co_exceptiontable = Py_NewRef(con->exceptiontable);
    co->co_flags = con->flags;
    co->co_argcount = con->argcount;
    co->co_posonlyargcount = con->posonlyargcount;
    co->co_kwonlyargcount = con->kwonlyargcount;
    co->co_stacksize = con->stacksize;
    co->co_firstlineno = con->firstlineno;
    co->co_nlocalsplus = nlocalsplus;
    co->co_framesize = nlocalsplus + con->stacksize + FRAME_SPECIALS_SIZE;
    co->co_nlocals = count_kinds(con->localspluskinds, CO_FAST_LOCAL);
    co->co_ncellvars = count_kinds(con->localspluskinds, CO_FAST_CELL);
    co->co_nfreevars = count_kinds(con->localspluskinds, CO_FAST_FREE);
    co->co_version = next_code_version();
    co->co_localsplusnames = Py_NewRef(con->localsplusnames);
    co->co_localspluskinds = Py_NewRef(con->localspluskinds);
    co->co_filename = Py_NewRef(con->filename);
    co->co_name = name;
    co->co_qualname = qualname;
    co->co_linetable = Py_NewRef(con->linetable);
    co->co_weakreflist = NULL;
    co->_co_cached_code = NULL;
    co->co_extra = NULL;
    co->_co_instrumentation_version = 0;
    co->_co_monitoring = NULL;
    co->co_executors = NULL;
    memcpy(co->co_code_adaptive, PyBytes_AS_STRING(con->code), (size_t)PyBytes_GET_SIZE(con->code));
    _PyCode_Quicken(_PyCode_CODE(co), Py_SIZE(co), _Py_Specialization_Enabled);
    co->_co_firsttraceable = first_traceable(co);
}

PyCodeObject *
_PyCode_New(struct _PyCodeConstructor *con)
{
    if (check_shape(con) < 0) {
        return NULL;
    }
    if (intern_names(con->names) < 0 || intern_names(con->localsplusnames) < 0) {
        return NULL;
    }
    intern_constants(con->consts);
    Py_ssize_t size = PyBytes_GET_SIZE(con->code) / (Py_ssize_t)sizeof(_Py_CODEUNIT);
    PyCodeObject *co = PyObject_NewVar(PyCodeObject, &PyCode_Type, size);
    if (co == NULL) {
        return NULL;
    }
    /* The constructor's fields are borrowed: intern owned copies. */
    PyObject *name = Py_NewRef(con->name);
    PyObject *qualname = Py_NewRef(con->qualname);
    PyUnicode_InternInPlace(&name);
    PyUnicode_InternInPlace(&qualname);
    init_code(co, con, name, qualname);
    return co;
}

PyCodeObject *
PyCode_NewEmpty(const char *filename, const char *funcname, int firstlineno)
{
    /* One RESUME, and a location entry giving it the first line. */
    static const _Py_CODEUNIT code[1] = {{.op = {RESUME, 0}}};
    static const char linetable[2] = {(char)(0x80 | (PY_CODE_LOCATION_INFO_NO_COLUMNS << 3)), 0};
    PyCodeObject *result = NULL;
    PyObject *filename_ob = PyUnicode_DecodeFSDefault(filename);
    PyObject *name_ob = PyUnicode_FromString(funcname);
    PyObject *code_ob = PyBytes_FromStringAndSize((const char *)code, sizeof(code));
    PyObject *lines_ob = PyBytes_FromStringAndSize(linetable, sizeof(linetable));
    PyObject *empty_bytes = PyBytes_FromStringAndSize(NULL, 0);
    PyObject *empty_tuple = PyTuple_New(0);
    if (filename_ob == NULL || name_ob == NULL || code_ob == NULL || lines_ob == NULL ||
        empty_bytes == NULL || empty_tuple == NULL) {
        goto done;
    }
    struct _PyCodeConstructor con = {
        .filename = filename_ob,
        .name = name_ob,
        .qualname = name_ob,
        .flags = CO_OPTIMIZED | CO_NEWLOCALS,
        .code = code_ob,
        .firstlineno = firstlineno,
        .linetable = lines_ob,
        .consts = empty_tuple,
        .names = empty_tuple,
        .localsplusnames = empty_tuple,
        .localspluskinds = empty_bytes,
        .exceptiontable = empty_bytes,
    };
    result = _PyCode_New(&con);
done:
    Py_XDECREF(filename_ob);
    Py_XDECREF(name_ob);
    Py_XDECREF(code_ob);
    Py_XDECREF(lines_ob);
    Py_XDECREF(empty_bytes);
    Py_XDECREF(empty_tuple);
    return result;
}

/* The specializer will give adaptive instructions their warm-up counters
   here.  Until it exists, code runs exactly as the compiler emitted it, so
   there is nothing to do. */
/* ---- Location table ------------------------------------------------------------ */

/* A varint as the location table writes it: 6-bit groups, least
   significant first, bit 6 meaning "more follows".  Stops at `limit` so a
   corrupt table cannot make us read past its end. */
static unsigned int
scan_varint(const uint8_t **pp, const uint8_t *limit)
{
    const uint8_t *p = *pp;
    unsigned int val = 0;
    unsigned int shift = 0;
    while (p < limit) {
        uint8_t b = *p++;
        if (shift < 32) {
            val |= (unsigned int)(b & 63) << shift;
        }
        shift += 6;
        if (!(b & 64)) {
            break;
        }
    }
    *pp = p;
    return val;
}

/* Signed varints keep the sign in the lowest bit. */
static int
scan_svarint(const uint8_t **pp, const uint8_t *limit)
{
    unsigned int u = scan_varint(pp, limit);
    int magnitude = (int)(u >> 1);
    return (u & 1) ? -magnitude : magnitude;
}

typedef struct {
    int kind;           /* _PyCodeLocationInfoKind */
    int length;         /* in code units, 1..8 */
    int line_delta;     /* added to the running line (0 for NONE) */
    int end_line_delta; /* end line minus start line */
    int col, end_col;   /* -1 when absent */
} loc_entry;

static inline int
next_byte(const uint8_t **pp, const uint8_t *limit)
{
    if (*pp >= limit) {
        return 0;
    }
    return *(*pp)++;
}

/* Decode the entry at *pp (whose first byte has bit 7 set). */
static void
parse_entry(const uint8_t **pp, const uint8_t *limit, loc_entry *e)
{
    int first = next_byte(pp, limit);
    e->kind = (first >> 3) & 15;
    e->length = (first & 7) + 1;
    e->line_delta = 0;
    e->end_line_delta = 0;
    e->col = -1;
    e->end_col = -1;
    switch (e->kind) {
    case PY_CODE_LOCATION_INFO_NONE:
        break;
    case PY_CODE_LOCATION_INFO_LONG:
        e->line_delta = scan_svarint(pp, limit);
        e->end_line_delta = (int)scan_varint(pp, limit);
        e->col = (int)scan_varint(pp, limit) - 1;
        e->end_col = (int)scan_varint(pp, limit) - 1;
        break;
    case PY_CODE_LOCATION_INFO_NO_COLUMNS:
        e->line_delta = scan_svarint(pp, limit);
        break;
    case PY_CODE_LOCATION_INFO_ONE_LINE0:
    case PY_CODE_LOCATION_INFO_ONE_LINE1:
    case PY_CODE_LOCATION_INFO_ONE_LINE2:
        e->line_delta = e->kind - PY_CODE_LOCATION_INFO_ONE_LINE0;
        e->col = next_byte(pp, limit);
        e->end_col = next_byte(pp, limit);
        break;
    default: {
        /* Short forms: the kind picks a group of 8 start columns, the
           second byte the column within the group and the width. */
        int second = next_byte(pp, limit);
        e->col = e->kind * 8 + ((second >> 4) & 7);
        e->end_col = e->col + (second & 15);
        break;
    }
    }
}

/* Entries start with a byte whose bit 7 is set; no other byte has it. */
static inline int
is_entry_start(uint8_t b)
{
    return (b & 0x80) != 0;
}

void
_PyLineTable_InitAddressRange(const char *linetable, Py_ssize_t length, int firstlineno,
                              PyCodeAddressRange *range)
{
    range->lo_next = (const uint8_t *)linetable;
    range->limit = range->lo_next + length;
    range->ar_start = -1;
    range->ar_end = 0;
    range->computed_line = firstlineno;
    range->ar_line = -1;
}

int
_PyCode_InitAddressRange(PyCodeObject *co, PyCodeAddressRange *bounds)
{
    _PyLineTable_InitAddressRange(PyBytes_AS_STRING(co->co_linetable),
                                  PyBytes_GET_SIZE(co->co_linetable), co->co_firstlineno, bounds);
    return bounds->ar_line;
}

int
_PyLineTable_NextAddressRange(PyCodeAddressRange *range)
{
    /* Skip stray bytes so that lo_next always sits on an entry start. */
    while (range->lo_next < range->limit && !is_entry_start(*range->lo_next)) {
        range->lo_next++;
    }
    if (range->lo_next >= range->limit) {
        return 0;
    }
    loc_entry e;
    parse_entry(&range->lo_next, range->limit, &e);
    range->ar_start = range->ar_end;
    range->ar_end += e.length * (int)sizeof(_Py_CODEUNIT);
    range->computed_line += e.line_delta;
    range->ar_line = e.kind == PY_CODE_LOCATION_INFO_NONE ? -1 : range->computed_line;
    return 1;
}

/* Step back one entry: undo the current entry's line change, then make
   the entry before it current. */
int
_PyLineTable_PreviousAddressRange(PyCodeAddressRange *range)
{
    if (range->ar_start <= 0) {
        return 0;
    }
    /* ar_start > 0 means at least one entry precedes the current one, so
       the backward scans below stay inside the table. */
    const uint8_t *cur = range->lo_next - 1;
    while (!is_entry_start(*cur)) {
        cur--;
    }
    const uint8_t *p = cur;
    loc_entry e;
    parse_entry(&p, range->limit, &e);
    range->computed_line -= e.line_delta;
    range->lo_next = cur;

    const uint8_t *prev = cur - 1;
    while (!is_entry_start(*prev)) {
        prev--;
    }
    p = prev;
    parse_entry(&p, range->limit, &e);
    range->ar_end = range->ar_start;
    range->ar_start -= e.length * (int)sizeof(_Py_CODEUNIT);
    range->ar_line = e.kind == PY_CODE_LOCATION_INFO_NONE ? -1 : range->computed_line;
    return 1;
}

int
_PyCode_CheckLineNumber(int lasti, PyCodeAddressRange *bounds)
{
    while (bounds->ar_end <= lasti) {
        if (!_PyLineTable_NextAddressRange(bounds)) {
            return -1;
        }
    }
    while (bounds->ar_start > lasti) {
        if (!_PyLineTable_PreviousAddressRange(bounds)) {
            return -1;
        }
    }
    return bounds->ar_line;
}

int
PyCode_Addr2Line(PyCodeObject *co, int addrq)
{
    if (addrq < 0) {
        return co->co_firstlineno;
    }
    PyCodeAddressRange bounds;
    _PyCode_InitAddressRange(co, &bounds);
    return _PyCode_CheckLineNumber(addrq, &bounds);
}

int
PyCode_Addr2Location(PyCodeObject *co, int addrq, int *start_line, int *start_column,
                     int *end_line, int *end_column)
{
    *start_line = *end_line = -1;
    *start_column = *end_column = -1;
    if (addrq < 0) {
        *start_line = *end_line = co->co_firstlineno;
        return 1;
    }
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(co->co_linetable);
    const uint8_t *limit = p + PyBytes_GET_SIZE(co->co_linetable);
    int line = co->co_firstlineno;
    int addr = 0;
    while (p < limit) {
        if (!is_entry_start(*p)) {
            p++;
            continue;
        }
        loc_entry e;
        parse_entry(&p, limit, &e);
        line += e.line_delta;
        int next = addr + e.length * (int)sizeof(_Py_CODEUNIT);
        if (addrq < next) {
            if (e.kind != PY_CODE_LOCATION_INFO_NONE) {
                *start_line = line;
                *end_line = line + e.end_line_delta;
                *start_column = e.col;
                *end_column = e.end_col;
            }
            return 1;
        }
        addr = next;
    }
    return 1;
}

/* ---- co_lines() and co_positions() ------------------------------------------ */

typedef struct {
    PyObject_HEAD
    PyCodeObject *li_code;
    PyCodeAddressRange li_range;
} lineiterator;

static void
lineiter_dealloc(PyObject *self)
{
    Py_DECREF(((lineiterator *)self)->li_code);
    PyObject_Free(self);
}

static PyObject *
int_or_none(int value)
{
    if (value < 0) {
        return Py_NewRef(Py_None);
    }
    return PyLong_FromLong(value);
}

/* Consecutive ranges on the same line are reported as one. */
static PyObject *
lineiter_next(PyObject *self)
{
    PyCodeAddressRange *r = &((lineiterator *)self)->li_range;
    if (!_PyLineTable_NextAddressRange(r)) {
        return NULL;
    }
    int start = r->ar_start;
    int line = r->ar_line;
    while (_PyLineTable_NextAddressRange(r)) {
        if (r->ar_line != line) {
            _PyLineTable_PreviousAddressRange(r);
            break;
        }
    }
    return Py_BuildValue("iiN", start, r->ar_end, int_or_none(line));
}

PyTypeObject _PyLineIterator_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "line_iterator",
    .tp_basicsize = sizeof(lineiterator),
    .tp_dealloc = lineiter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = lineiter_next,
};

static PyObject *
code_co_lines(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    lineiterator *li = PyObject_New(lineiterator, &_PyLineIterator_Type);
    if (li == NULL) {
        return NULL;
    }
    li->li_code = (PyCodeObject *)Py_NewRef(self);
    _PyCode_InitAddressRange(li->li_code, &li->li_range);
    return (PyObject *)li;
}

typedef struct {
    PyObject_HEAD
    PyCodeObject *pi_code;
    const uint8_t *pi_next;
    const uint8_t *pi_limit;
    int pi_line;      /* running line */
    int pi_remaining; /* code units left in the current entry */
    int pi_start_line, pi_end_line, pi_col, pi_end_col;
} positionsiterator;

static void
positionsiter_dealloc(PyObject *self)
{
    Py_DECREF(((positionsiterator *)self)->pi_code);
    PyObject_Free(self);
}

static int
positionsiter_advance(positionsiterator *pi)
{
    while (pi->pi_next < pi->pi_limit && !is_entry_start(*pi->pi_next)) {
        pi->pi_next++;
    }
    if (pi->pi_next >= pi->pi_limit) {
        return 0;
    }
    loc_entry e;
    parse_entry(&pi->pi_next, pi->pi_limit, &e);
    pi->pi_line += e.line_delta;
    pi->pi_remaining = e.length;
    if (e.kind == PY_CODE_LOCATION_INFO_NONE) {
        pi->pi_start_line = pi->pi_end_line = -1;
    }
    else {
        pi->pi_start_line = pi->pi_line;
        pi->pi_end_line = pi->pi_line + e.end_line_delta;
    }
    pi->pi_col = e.col;
    pi->pi_end_col = e.end_col;
    return 1;
}

/* One (line, end_line, column, end_column) per code unit, caches included. */
static PyObject *
positionsiter_next(PyObject *self)
{
    positionsiterator *pi = (positionsiterator *)self;
    if (pi->pi_remaining == 0 && !positionsiter_advance(pi)) {
        return NULL;
    }
    pi->pi_remaining--;
    return Py_BuildValue("(NNNN)", int_or_none(pi->pi_start_line), int_or_none(pi->pi_end_line),
                         int_or_none(pi->pi_col), int_or_none(pi->pi_end_col));
}

PyTypeObject _PyPositionsIterator_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "positions_iterator",
    .tp_basicsize = sizeof(positionsiterator),
    .tp_dealloc = positionsiter_dealloc,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = positionsiter_next,
};

static PyObject *
code_co_positions(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyCodeObject *co = (PyCodeObject *)self;
    positionsiterator *pi = PyObject_New(positionsiterator, &_PyPositionsIterator_Type);
    if (pi == NULL) {
        return NULL;
    }
    pi->pi_code = (PyCodeObject *)Py_NewRef(co);
    pi->pi_next = (const uint8_t *)PyBytes_AS_STRING(co->co_linetable);
    pi->pi_limit = pi->pi_next + PyBytes_GET_SIZE(co->co_linetable);
    pi->pi_line = co->co_firstlineno;
    pi->pi_remaining = 0;
    pi->pi_start_line = pi->pi_end_line = pi->pi_col = pi->pi_end_col = -1;
    return (PyObject *)pi;
}

/* ---- co_code and the name tuples ---------------------------------------------- */

PyObject *
_PyCode_GetCode(PyCodeObject *co)
{
    if (co->_co_cached_code != NULL) {
        return Py_NewRef(co->_co_cached_code);
    }
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, _PyCode_NBYTES(co));
    if (bytes == NULL) {
        return NULL;
    }
    _Py_CODEUNIT *out = (_Py_CODEUNIT *)PyBytes_AS_STRING(bytes);
    _Py_CODEUNIT *in = _PyCode_CODE(co);
    Py_ssize_t n = Py_SIZE(co);
    for (Py_ssize_t i = 0; i < n;) {
        int op = co->_co_monitoring != NULL ? _PyMonitoring_BaseOpcode(co, i)
                                            : deopt_opcode(in[i].op.code);
        int arg = in[i].op.arg;
#ifdef _Py_TIER2
        if (op == ENTER_EXECUTOR) {
            /* Tier 2 put an executor on this loop's back edge. */
            arg = _PyCode_ExecutorJumpOparg(co, arg);
            op = JUMP_BACKWARD;
        }
#endif
        out[i].op.code = (uint8_t)op;
        out[i].op.arg = (uint8_t)arg;
        int caches = _PyOpcode_Caches[op];
        for (int j = 1; j <= caches && i + j < n; j++) {
            out[i + j].cache = 0;
        }
        i += 1 + caches;
    }
    /* De-specialising gives the same bytes however the code is specialised
       later, so the copy can be kept. */
    co->_co_cached_code = Py_NewRef(bytes);
    return bytes;
}

PyObject *
PyCode_GetCode(PyCodeObject *co)
{
    return _PyCode_GetCode(co);
}

static PyObject *
names_of_kind(PyCodeObject *co, int mask)
{
    Py_ssize_t n = count_kinds(co->co_localspluskinds, mask);
    PyObject *names = PyTuple_New(n);
    if (names == NULL) {
        return NULL;
    }
    Py_ssize_t j = 0;
    for (int i = 0; i < co->co_nlocalsplus; i++) {
        if (_PyLocals_GetKind(co->co_localspluskinds, i) & mask) {
            PyTuple_SET_ITEM(names, j++, Py_NewRef(PyTuple_GET_ITEM(co->co_localsplusnames, i)));
        }
    }
    return names;
}

PyObject *
PyCode_GetVarnames(PyCodeObject *co)
{
    return names_of_kind(co, CO_FAST_LOCAL);
}

PyObject *
PyCode_GetCellvars(PyCodeObject *co)
{
    return names_of_kind(co, CO_FAST_CELL);
}

PyObject *
PyCode_GetFreevars(PyCodeObject *co)
{
    return names_of_kind(co, CO_FAST_FREE);
}

/* ---- types.CodeType(...) and replace() --------------------------------------- */

/* Lay out localsplus from the three classic name tuples: locals first, then
   cells that are not also locals (a cell argument keeps its local slot and
   gains the cell flag), then free variables. */
static int
build_localsplus(PyObject *varnames, PyObject *cellvars, PyObject *freevars, PyObject **p_names,
                 PyObject **p_kinds)
{
    Py_ssize_t nvar = PyTuple_GET_SIZE(varnames);
    Py_ssize_t ncell = PyTuple_GET_SIZE(cellvars);
    Py_ssize_t nfree = PyTuple_GET_SIZE(freevars);
    Py_ssize_t total = nvar + ncell + nfree;
    PyObject *names = PyTuple_New(total);
    PyObject *kinds = PyBytes_FromStringAndSize(NULL, total);
    if (names == NULL || kinds == NULL) {
        goto error;
    }
    char *k = PyBytes_AS_STRING(kinds);
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < nvar; i++, n++) {
        PyTuple_SET_ITEM(names, n, Py_NewRef(PyTuple_GET_ITEM(varnames, i)));
        k[n] = CO_FAST_LOCAL;
    }
    for (Py_ssize_t i = 0; i < ncell; i++) {
        PyObject *name = PyTuple_GET_ITEM(cellvars, i);
        Py_ssize_t j;
        for (j = 0; j < nvar; j++) {
            int eq = PyUnicode_Compare(PyTuple_GET_ITEM(varnames, j), name);
            if (eq == -1 && PyErr_Occurred()) {
                goto error;
            }
            if (eq == 0) {
                break;
            }
        }
        if (j < nvar) {
            k[j] |= CO_FAST_CELL;
            continue;
        }
        PyTuple_SET_ITEM(names, n, Py_NewRef(name));
        k[n++] = (char)CO_FAST_CELL;
    }
    for (Py_ssize_t i = 0; i < nfree; i++, n++) {
        PyTuple_SET_ITEM(names, n, Py_NewRef(PyTuple_GET_ITEM(freevars, i)));
        k[n] = (char)CO_FAST_FREE;
    }
    if (n < total) {
        if (_PyTuple_Resize(&names, n) < 0 || _PyBytes_Resize(&kinds, n) < 0) {
            goto error;
        }
    }
    *p_names = names;
    *p_kinds = kinds;
    return 0;
error:
    Py_XDECREF(names);
    Py_XDECREF(kinds);
    return -1;
}

/* Shared tail of the constructor and replace(): con's localsplus fields
   are filled from the name tuples when NULL; nlocals must agree. */
static PyObject *
code_from_parts(struct _PyCodeConstructor *con, int nlocals, PyObject *varnames,
                PyObject *cellvars, PyObject *freevars)
{
    PyObject *lp_names = NULL, *lp_kinds = NULL;
    PyCodeObject *co = NULL;
    if (con->localsplusnames == NULL) {
        if (build_localsplus(varnames, cellvars, freevars, &lp_names, &lp_kinds) < 0) {
            return NULL;
        }
        con->localsplusnames = lp_names;
        con->localspluskinds = lp_kinds;
    }
    if (_PyCode_Validate(con) < 0) {
        goto done;
    }
    if (nlocals != count_kinds(con->localspluskinds, CO_FAST_LOCAL)) {
        PyErr_SetString(PyExc_ValueError, "code: co_nlocals != len(co_varnames)");
        goto done;
    }
    co = _PyCode_New(con);
done:
    Py_XDECREF(lp_names);
    Py_XDECREF(lp_kinds);
    return (PyObject *)co;
}

static int
arg_int(PyObject *arg, int *out)
{
    int v = PyLong_AsInt(arg);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = v;
    return 0;
}

static int
arg_names(const char *fname, const char *argdesc, PyObject *arg)
{
    if (!PyTuple_Check(arg)) {
        _PyArg_BadArgument(fname, argdesc, "tuple", arg);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(arg); i++) {
        PyObject *item = PyTuple_GET_ITEM(arg, i);
        if (!PyUnicode_Check(item)) {
            PyErr_Format(PyExc_TypeError, "name tuples must contain only strings, not '%.500s'",
                         Py_TYPE(item)->tp_name);
            return -1;
        }
    }
    return 0;
}

static int
arg_type(const char *fname, const char *argdesc, PyObject *arg, int ok, const char *expected)
{
    if (!ok) {
        _PyArg_BadArgument(fname, argdesc, expected, arg);
        return -1;
    }
    return 0;
}

static PyObject *
code_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (!_PyArg_NoKeywords("code", kwargs)) {
        return NULL;
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (!_PyArg_CheckPositional("code", nargs, 16, 18)) {
        return NULL;
    }
    PyObject *const *a = _PyTuple_ITEMS(args);
    int ints[6];
    for (int i = 0; i < 6; i++) {
        if (arg_int(a[i], &ints[i]) < 0) {
            return NULL;
        }
    }
    int firstlineno;
    if (arg_type("code", "argument 7", a[6], PyBytes_Check(a[6]), "bytes") < 0 ||
        arg_type("code", "argument 8", a[7], PyTuple_Check(a[7]), "tuple") < 0 ||
        arg_names("code", "argument 9", a[8]) < 0 ||
        arg_names("code", "argument 10", a[9]) < 0 ||
        arg_type("code", "argument 11", a[10], PyUnicode_Check(a[10]), "str") < 0 ||
        arg_type("code", "argument 12", a[11], PyUnicode_Check(a[11]), "str") < 0 ||
        arg_type("code", "argument 13", a[12], PyUnicode_Check(a[12]), "str") < 0 ||
        arg_int(a[13], &firstlineno) < 0 ||
        arg_type("code", "argument 15", a[14], PyBytes_Check(a[14]), "bytes") < 0 ||
        arg_type("code", "argument 16", a[15], PyBytes_Check(a[15]), "bytes") < 0) {
        return NULL;
    }
    PyObject *empty = _PyTuple_EMPTY;
    PyObject *freevars = nargs > 16 ? a[16] : empty;
    PyObject *cellvars = nargs > 17 ? a[17] : empty;
    if ((nargs > 16 && arg_names("code", "argument 17", freevars) < 0) ||
        (nargs > 17 && arg_names("code", "argument 18", cellvars) < 0)) {
        return NULL;
    }
    static const char *const negative[] = {
        "code: argcount must not be negative", "code: posonlyargcount must not be negative",
        "code: kwonlyargcount must not be negative", "code: nlocals must not be negative"};
    for (int i = 0; i < 4; i++) {
        if (ints[i] < 0) {
            PyErr_SetString(PyExc_ValueError, negative[i]);
            return NULL;
        }
    }
    struct _PyCodeConstructor con = {
        .argcount = ints[0],
        .posonlyargcount = ints[1],
        .kwonlyargcount = ints[2],
        .stacksize = ints[4],
        .flags = ints[5],
        .code = a[6],
        .consts = a[7],
        .names = a[8],
        .filename = a[10],
        .name = a[11],
        .qualname = a[12],
        .firstlineno = firstlineno,
        .linetable = a[14],
        .exceptiontable = a[15],
    };
    return code_from_parts(&con, ints[3], a[9], cellvars, freevars);
}

enum {
    R_ARGCOUNT, R_POSONLYARGCOUNT, R_KWONLYARGCOUNT, R_NLOCALS, R_STACKSIZE, R_FLAGS,
    R_FIRSTLINENO, R_CODE, R_CONSTS, R_NAMES, R_VARNAMES, R_FREEVARS, R_CELLVARS,
    R_FILENAME, R_NAME, R_QUALNAME, R_LINETABLE, R_EXCEPTIONTABLE, R_COUNT
};

static const char *const replace_kwlist[R_COUNT] = {
    "co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_nlocals", "co_stacksize",
    "co_flags", "co_firstlineno", "co_code", "co_consts", "co_names", "co_varnames",
    "co_freevars", "co_cellvars", "co_filename", "co_name", "co_qualname", "co_linetable",
    "co_exceptiontable",
};

static int
replace_parse(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **out)
{
    if (nargs > 0) {
        PyErr_SetString(PyExc_TypeError, "replace() takes no positional arguments");
        return -1;
    }
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i);
        int k;
        for (k = 0; k < R_COUNT; k++) {
            if (PyUnicode_EqualToUTF8(key, replace_kwlist[k])) {
                break;
            }
        }
        if (k == R_COUNT) {
            PyErr_Format(PyExc_TypeError, "replace() got an unexpected keyword argument '%U'", key);
            return -1;
        }
        out[k] = args[nargs + i];
    }
    return 0;
}

static int
replace_int(PyObject **given, int which, int current, int *out)
{
    if (given[which] == NULL) {
        *out = current;
        return 0;
    }
    if (arg_int(given[which], out) < 0) {
        return -1;
    }
    if (*out < 0) {
        PyErr_Format(PyExc_ValueError, "%s must be a positive integer", replace_kwlist[which]);
        return -1;
    }
    return 0;
}

static int
replace_obj(PyObject **given, int which, PyObject *current, PyObject **out)
{
    static const char *const expected[R_COUNT] = {
        [R_CODE] = "bytes", [R_CONSTS] = "tuple", [R_NAMES] = "tuple", [R_VARNAMES] = "tuple",
        [R_FREEVARS] = "tuple", [R_CELLVARS] = "tuple", [R_FILENAME] = "str", [R_NAME] = "str",
        [R_QUALNAME] = "str", [R_LINETABLE] = "bytes", [R_EXCEPTIONTABLE] = "bytes",
    };
    PyObject *v = given[which];
    if (v == NULL) {
        *out = current;
        return 0;
    }
    int ok;
    if (expected[which][0] == 'b') {
        ok = PyBytes_Check(v);
    }
    else if (expected[which][0] == 't') {
        ok = PyTuple_Check(v);
    }
    else {
        ok = PyUnicode_Check(v);
    }
    if (!ok) {
        char desc[40];
        snprintf(desc, sizeof(desc), "argument '%s'", replace_kwlist[which]);
        _PyArg_BadArgument("replace", desc, expected[which], v);
        return -1;
    }
    *out = v;
    return 0;
}

static PyObject *
code_replace(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyCodeObject *co = (PyCodeObject *)self;
    PyObject *given[R_COUNT] = {NULL};
    if (replace_parse(args, nargs, kwnames, given) < 0) {
        return NULL;
    }
    int argcount, posonly, kwonly, nlocals, stacksize, flags, firstlineno;
    if (replace_int(given, R_ARGCOUNT, co->co_argcount, &argcount) < 0 ||
        replace_int(given, R_POSONLYARGCOUNT, co->co_posonlyargcount, &posonly) < 0 ||
        replace_int(given, R_KWONLYARGCOUNT, co->co_kwonlyargcount, &kwonly) < 0 ||
        replace_int(given, R_NLOCALS, co->co_nlocals, &nlocals) < 0 ||
        replace_int(given, R_STACKSIZE, co->co_stacksize, &stacksize) < 0 ||
        replace_int(given, R_FLAGS, co->co_flags, &flags) < 0 ||
        replace_int(given, R_FIRSTLINENO, co->co_firstlineno, &firstlineno) < 0) {
        return NULL;
    }
    PyObject *code = NULL, *result = NULL;
    PyObject *varnames = NULL, *cellvars = NULL, *freevars = NULL;
    struct _PyCodeConstructor con = {
        .argcount = argcount,
        .posonlyargcount = posonly,
        .kwonlyargcount = kwonly,
        .stacksize = stacksize,
        .flags = flags,
        .firstlineno = firstlineno,
    };
    if (given[R_CODE] == NULL) {
        code = _PyCode_GetCode(co);
        if (code == NULL) {
            return NULL;
        }
    }
    if (replace_obj(given, R_CODE, code, &con.code) < 0 ||
        replace_obj(given, R_CONSTS, co->co_consts, &con.consts) < 0 ||
        replace_obj(given, R_NAMES, co->co_names, &con.names) < 0 ||
        replace_obj(given, R_FILENAME, co->co_filename, &con.filename) < 0 ||
        replace_obj(given, R_NAME, co->co_name, &con.name) < 0 ||
        replace_obj(given, R_QUALNAME, co->co_qualname, &con.qualname) < 0 ||
        replace_obj(given, R_LINETABLE, co->co_linetable, &con.linetable) < 0 ||
        replace_obj(given, R_EXCEPTIONTABLE, co->co_exceptiontable, &con.exceptiontable) < 0 ||
        replace_obj(given, R_VARNAMES, NULL, &varnames) < 0 ||
        replace_obj(given, R_CELLVARS, NULL, &cellvars) < 0 ||
        replace_obj(given, R_FREEVARS, NULL, &freevars) < 0) {
        goto done;
    }
    if (varnames == NULL && cellvars == NULL && freevars == NULL) {
        /* Keep the exact slot layout and kinds (hidden and argument flags). */
        con.localsplusnames = co->co_localsplusnames;
        con.localspluskinds = co->co_localspluskinds;
        result = code_from_parts(&con, nlocals, NULL, NULL, NULL);
        goto done;
    }
    PyObject *owned[3] = {NULL, NULL, NULL};
    if (varnames == NULL) {
        varnames = owned[0] = PyCode_GetVarnames(co);
    }
    if (cellvars == NULL) {
        cellvars = owned[1] = PyCode_GetCellvars(co);
    }
    if (freevars == NULL) {
        freevars = owned[2] = PyCode_GetFreevars(co);
    }
    if (varnames != NULL && cellvars != NULL && freevars != NULL) {
        if (all_strings(varnames) && all_strings(cellvars) && all_strings(freevars)) {
            result = code_from_parts(&con, nlocals, varnames, cellvars, freevars);
        }
        else {
            PyErr_SetString(PyExc_SystemError, "non-string found in code slot");
        }
    }
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(owned[i]);
    }
done:
    Py_XDECREF(code);
    return result;
}

static PyObject *
code_varname_from_oparg(PyObject *self, PyObject *arg)
{
    PyCodeObject *co = (PyCodeObject *)self;
    int oparg = PyLong_AsInt(arg);
    if (oparg == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PySequence_GetItem(co->co_localsplusnames, oparg);
}

/* ---- Equality, hash, repr ------------------------------------------------------ */

static int code_equal(PyCodeObject *a, PyCodeObject *b);

/* Constants compare by type and exact value: 0, 0.0, -0.0 and False are
   all different constants even though some compare equal. */
static int
const_equal(PyObject *a, PyObject *b)
{
    if (a == b) {
        return 1;
    }
    if (Py_TYPE(a) != Py_TYPE(b)) {
        return 0;
    }
    if (PyFloat_CheckExact(a)) {
        double x = PyFloat_AS_DOUBLE(a), y = PyFloat_AS_DOUBLE(b);
        return memcmp(&x, &y, sizeof(double)) == 0;
    }
    if (PyComplex_CheckExact(a)) {
        Py_complex x = ((PyComplexObject *)a)->cval, y = ((PyComplexObject *)b)->cval;
        return memcmp(&x.real, &y.real, sizeof(double)) == 0 &&
               memcmp(&x.imag, &y.imag, sizeof(double)) == 0;
    }
    if (PyTuple_CheckExact(a)) {
        Py_ssize_t n = PyTuple_GET_SIZE(a);
        if (n != PyTuple_GET_SIZE(b)) {
            return 0;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            int r = const_equal(PyTuple_GET_ITEM(a, i), PyTuple_GET_ITEM(b, i));
            if (r <= 0) {
                return r;
            }
        }
        return 1;
    }
    if (PyCode_Check(a)) {
        return code_equal((PyCodeObject *)a, (PyCodeObject *)b);
    }
    return PyObject_RichCompareBool(a, b, Py_EQ);
}

static int
objects_equal(PyObject *a, PyObject *b)
{
    return PyObject_RichCompareBool(a, b, Py_EQ);
}

static int
code_equal(PyCodeObject *a, PyCodeObject *b)
{
    if (a == b) {
        return 1;
    }
    if (a->co_argcount != b->co_argcount || a->co_posonlyargcount != b->co_posonlyargcount ||
        a->co_kwonlyargcount != b->co_kwonlyargcount || a->co_flags != b->co_flags ||
        a->co_firstlineno != b->co_firstlineno || a->co_stacksize != b->co_stacksize ||
        Py_SIZE(a) != Py_SIZE(b)) {
        return 0;
    }
    int r = objects_equal(a->co_name, b->co_name);
    if (r <= 0) {
        return r;
    }
    PyObject *ca = _PyCode_GetCode(a);
    PyObject *cb = ca == NULL ? NULL : _PyCode_GetCode(b);
    if (cb == NULL) {
        Py_XDECREF(ca);
        return -1;
    }
    r = objects_equal(ca, cb);
    Py_DECREF(ca);
    Py_DECREF(cb);
    if (r <= 0) {
        return r;
    }
    PyObject *pairs[][2] = {
        {a->co_names, b->co_names},
        {a->co_localsplusnames, b->co_localsplusnames},
        {a->co_localspluskinds, b->co_localspluskinds},
        {a->co_linetable, b->co_linetable},
        {a->co_exceptiontable, b->co_exceptiontable},
        {a->co_qualname, b->co_qualname},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(pairs); i++) {
        r = objects_equal(pairs[i][0], pairs[i][1]);
        if (r <= 0) {
            return r;
        }
    }
    return const_equal(a->co_consts, b->co_consts);
}

static PyObject *
code_richcompare(PyObject *self, PyObject *other, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyCode_Check(self) || !PyCode_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int eq = code_equal((PyCodeObject *)self, (PyCodeObject *)other);
    if (eq < 0) {
        return NULL;
    }
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

/* Built from fields that code_equal compares exactly, so equal code
   objects hash alike. */
static Py_hash_t
code_hash(PyObject *self)
{
    PyCodeObject *co = (PyCodeObject *)self;
    Py_uhash_t h = (Py_uhash_t)PyObject_Hash(co->co_name);
    if ((Py_hash_t)h == -1) {
        return -1;
    }
    PyObject *code = _PyCode_GetCode(co);
    if (code == NULL) {
        return -1;
    }
    Py_hash_t hc = PyObject_Hash(code);
    Py_DECREF(code);
    if (hc == -1) {
        return -1;
    }
    h = _PyTuple_HashLane(h, (Py_uhash_t)hc);
    h = _PyTuple_HashLane(h, (Py_uhash_t)co->co_argcount);
    h = _PyTuple_HashLane(h, (Py_uhash_t)co->co_kwonlyargcount);
    h = _PyTuple_HashLane(h, (Py_uhash_t)co->co_flags);
    h = _PyTuple_HashLane(h, (Py_uhash_t)co->co_firstlineno);
    h = _PyTuple_HashLane(h, (Py_uhash_t)PyTuple_GET_SIZE(co->co_consts));
    if ((Py_hash_t)h == -1) {
        h = (Py_uhash_t)-2;
    }
    return (Py_hash_t)h;
}

static PyObject *
code_repr(PyObject *self)
{
    PyCodeObject *co = (PyCodeObject *)self;
    int lineno = co->co_firstlineno != 0 ? co->co_firstlineno : -1;
    if (co->co_filename != NULL && PyUnicode_Check(co->co_filename)) {
        return PyUnicode_FromFormat("<code object %U at %p, file \"%U\", line %d>", co->co_name,
                                    co, co->co_filename, lineno);
    }
    return PyUnicode_FromFormat("<code object %U at %p, file ???, line %d>", co->co_name, co,
                                lineno);
}

/* Weak references go first (their callbacks may still look at the code);
   then every object field, the monitoring data and the memory. */
static void
code_dealloc(PyObject *self)
{
    PyCodeObject *co = (PyCodeObject *)self;
    if (co->co_weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
#ifdef _Py_TIER2
    _PyCode_ClearExecutors(co);
#endif
    PyObject *owned[] = {
        co->co_filename, co->co_name, co->co_qualname, co->co_consts,
        co->co_names, co->co_localsplusnames, co->co_localspluskinds,
        co->co_linetable, co->co_exceptiontable, co->_co_cached_code,
    };
    for (size_t k = 0; k < Py_ARRAY_LENGTH(owned); k++) {
        Py_XDECREF(owned[k]);
    }
    _PyMonitoring_FreeCodeData(co);
    PyObject_Free(self);
}

static PyObject *
code_get_code(PyObject *self, void *closure)
{
    return _PyCode_GetCode((PyCodeObject *)self);
}

static PyObject *
code_get_varnames(PyObject *self, void *closure)
{
    return PyCode_GetVarnames((PyCodeObject *)self);
}

static PyObject *
code_get_cellvars(PyObject *self, void *closure)
{
    return PyCode_GetCellvars((PyCodeObject *)self);
}

static PyObject *
code_get_freevars(PyObject *self, void *closure)
{
    return PyCode_GetFreevars((PyCodeObject *)self);
}

static PyObject *
code_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    size_t size = _PyObject_VAR_SIZE(Py_TYPE(self), Py_SIZE(self));
    return PyLong_FromSize_t(size);
}

/* The instructions as the interpreter runs them now, specialised forms and
   caches included: what dis.dis(adaptive=True) shows. */
static PyObject *
code_get_adaptive_code(PyObject *self, void *closure)
{
    PyCodeObject *co = (PyCodeObject *)self;
    return PyBytes_FromStringAndSize((const char *)_PyCode_CODE(co),
                                     _PyCode_NBYTES(co));
}

static PyGetSetDef code_getsetlist[] = {
    {"co_code", code_get_code, NULL, NULL, NULL},
    {"_co_code_adaptive", code_get_adaptive_code, NULL, NULL, NULL},
    {"co_varnames", code_get_varnames, NULL, NULL, NULL},
    {"co_cellvars", code_get_cellvars, NULL, NULL, NULL},
    {"co_freevars", code_get_freevars, NULL, NULL, NULL},
    {NULL},
};

#define COFF(x) offsetof(PyCodeObject, x)
static PyMemberDef code_memberlist[] = {
    {"co_argcount", Py_T_INT, COFF(co_argcount), Py_READONLY, NULL},
    {"co_posonlyargcount", Py_T_INT, COFF(co_posonlyargcount), Py_READONLY, NULL},
    {"co_kwonlyargcount", Py_T_INT, COFF(co_kwonlyargcount), Py_READONLY, NULL},
    {"co_stacksize", Py_T_INT, COFF(co_stacksize), Py_READONLY, NULL},
    {"co_flags", Py_T_INT, COFF(co_flags), Py_READONLY, NULL},
    {"co_nlocals", Py_T_INT, COFF(co_nlocals), Py_READONLY, NULL},
    {"co_consts", _Py_T_OBJECT, COFF(co_consts), Py_READONLY, NULL},
    {"co_names", _Py_T_OBJECT, COFF(co_names), Py_READONLY, NULL},
    {"co_filename", _Py_T_OBJECT, COFF(co_filename), Py_READONLY, NULL},
    {"co_name", _Py_T_OBJECT, COFF(co_name), Py_READONLY, NULL},
    {"co_qualname", _Py_T_OBJECT, COFF(co_qualname), Py_READONLY, NULL},
    {"co_firstlineno", Py_T_INT, COFF(co_firstlineno), Py_READONLY, NULL},
    {"co_linetable", _Py_T_OBJECT, COFF(co_linetable), Py_READONLY, NULL},
    {"co_exceptiontable", _Py_T_OBJECT, COFF(co_exceptiontable), Py_READONLY, NULL},
    {NULL},
};
#undef COFF

static PyMethodDef code_methods[] = {
    {"__sizeof__", code_sizeof, METH_NOARGS, NULL},
    {"co_lines", code_co_lines, METH_NOARGS, NULL},
    {"co_positions", code_co_positions, METH_NOARGS, NULL},
    {"replace", _PyCFunction_CAST(code_replace), METH_FASTCALL | METH_KEYWORDS,
     "replace($self, /, **changes)\n--\n\nReturn a copy of the code object with new values for "
     "the specified fields."},
    {"__replace__", _PyCFunction_CAST(code_replace), METH_FASTCALL | METH_KEYWORDS,
     "__replace__($self, /, **changes)\n--\n\nThe same as replace()."},
    {"_varname_from_oparg", code_varname_from_oparg, METH_O, NULL},
    {NULL},
};

PyTypeObject PyCode_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "code",
    .tp_basicsize = offsetof(PyCodeObject, co_code_adaptive),
    .tp_itemsize = sizeof(_Py_CODEUNIT),
    .tp_dealloc = code_dealloc,
    .tp_repr = code_repr,
    .tp_hash = code_hash,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "code(argcount, posonlyargcount, kwonlyargcount, nlocals, stacksize,\n"
              "     flags, codestring, constants, names, varnames, filename, name,\n"
              "     qualname, firstlineno, linetable, exceptiontable, freevars=(),\n"
              "     cellvars=(), /)\n--\n\n"
              "Create a code object from its parts (normally the compiler's job).",
    .tp_richcompare = code_richcompare,
    .tp_weaklistoffset = offsetof(PyCodeObject, co_weakreflist),
    .tp_methods = code_methods,
    .tp_members = code_memberlist,
    .tp_getset = code_getsetlist,
    .tp_new = code_new,
};
