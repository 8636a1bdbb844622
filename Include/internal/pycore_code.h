/* Internal code-object API: construction (for the compiler), location and
   exception tables, and inline-cache helpers. */
#ifndef Py_INTERNAL_CODE_H
#define Py_INTERNAL_CODE_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_stackref.h"
#include "pycore_stress.h"

/* co_localspluskinds: one byte per slot of localsplus. */
#define CO_FAST_HIDDEN 0x10 /* inlined comprehension variable */
#define CO_FAST_LOCAL 0x20
#define CO_FAST_CELL 0x40
#define CO_FAST_FREE 0x80
#define CO_FAST_ARG_POS 0x02
#define CO_FAST_ARG_KW 0x04
#define CO_FAST_ARG_VAR 0x08
#define CO_FAST_ARG (CO_FAST_ARG_POS | CO_FAST_ARG_KW | CO_FAST_ARG_VAR)
typedef unsigned char _PyLocals_Kind;

static inline _PyLocals_Kind
_PyLocals_GetKind(PyObject *kinds, int i)
{
    return (_PyLocals_Kind)PyBytes_AS_STRING(kinds)[i];
}

/* Location table entry codes (the 3.11+ format; Doc/locations.md). */
typedef enum _PyCodeLocationInfoKind {
    PY_CODE_LOCATION_INFO_SHORT0 = 0,   /* 0-9: short form, same line */
    PY_CODE_LOCATION_INFO_ONE_LINE0 = 10,
    PY_CODE_LOCATION_INFO_ONE_LINE1 = 11,
    PY_CODE_LOCATION_INFO_ONE_LINE2 = 12,
    PY_CODE_LOCATION_INFO_NO_COLUMNS = 13,
    PY_CODE_LOCATION_INFO_LONG = 14,
    PY_CODE_LOCATION_INFO_NONE = 15,
} _PyCodeLocationInfoKind;

/* Everything the compiler hands to _PyCode_New.  All object fields are
   borrowed; _PyCode_New takes its own references. */
struct _PyCodeConstructor {
    PyObject *filename;
    PyObject *name;
    PyObject *qualname;
    int flags;
    PyObject *code;          /* bytes of _Py_CODEUNITs, caches zeroed */
    int firstlineno;
    PyObject *linetable;     /* bytes */
    PyObject *consts;        /* tuple */
    PyObject *names;         /* tuple */
    PyObject *localsplusnames; /* tuple */
    PyObject *localspluskinds; /* bytes */
    int argcount;
    int posonlyargcount;
    int kwonlyargcount;
    int stacksize;
    PyObject *exceptiontable; /* bytes */
};

/* Everything a code object from outside (the constructor, replace(),
   marshal) must satisfy before it can run; _PyCode_New itself checks only
   the field types and counts, so trusted makers (the compiler) skip the
   bytecode passes. */
PyAPI_FUNC(int) _PyCode_Validate(struct _PyCodeConstructor *);
/* Python/codevalidate.c: opcodes, caches, table indices, jump targets,
   the exception table, a proof of the stack depth and of the locals
   unchecked loads read (nargs: the locals bound at entry); ValueError
   naming the first problem. */
PyAPI_FUNC(int) _PyCode_ValidateBytecode(PyObject *code, PyObject *consts, PyObject *names,
                                         PyObject *localspluskinds, int nargs,
                                         PyObject *exceptiontable, int stacksize);
PyAPI_FUNC(PyCodeObject *) _PyCode_New(struct _PyCodeConstructor *);

/* Walking the location table: address ranges [ar_start, ar_end) in bytes
   with their line (-1 for none). */
typedef struct {
    int ar_start;
    int ar_end;
    int ar_line;
    int computed_line;
    const uint8_t *lo_next;
    const uint8_t *limit;
} PyCodeAddressRange;

PyAPI_FUNC(int) _PyCode_InitAddressRange(PyCodeObject *co, PyCodeAddressRange *bounds);
PyAPI_FUNC(int) _PyLineTable_NextAddressRange(PyCodeAddressRange *range);
PyAPI_FUNC(int) _PyLineTable_PreviousAddressRange(PyCodeAddressRange *range);
PyAPI_FUNC(void) _PyLineTable_InitAddressRange(const char *linetable, Py_ssize_t length,
                                               int firstlineno, PyCodeAddressRange *range);
PyAPI_FUNC(int) _PyCode_CheckLineNumber(int lasti, PyCodeAddressRange *bounds);

/* co_code as bytes with specialisations undone (for co_code, dis). */
PyAPI_FUNC(PyObject *) _PyCode_GetCode(PyCodeObject *co);
/* Undo specialisations in place: every instruction back to its family
   head with caches reset (used before marshalling). */
PyAPI_FUNC(void) _PyCode_Quicken(_Py_CODEUNIT *instructions, Py_ssize_t size, int enable_counters);

/* Variable-length integers used by the exception and location tables:
   6 bits per byte, bit 6 (0x40) set on every byte but the last. */
static inline int
_PyCode_ReadVarint(const uint8_t **p)
{
    const uint8_t *ptr = *p;
    unsigned int read = *ptr++;
    unsigned int val = read & 63;
    unsigned int shift = 0;
    while (read & 64) {
        read = *ptr++;
        shift += 6;
        val |= (read & 63) << shift;
    }
    *p = ptr;
    return (int)val;
}

/* ---- Inline caches ------------------------------------------------------- */

static inline uint16_t
read_u16(uint16_t *p)
{
    return *p;
}

static inline uint32_t
read_u32(uint16_t *p)
{
    uint32_t val;
    memcpy(&val, p, sizeof(val));
    return val;
}

static inline uint64_t
read_u64(uint16_t *p)
{
    uint64_t val;
    memcpy(&val, p, sizeof(val));
    return val;
}

static inline PyObject *
read_obj(uint16_t *p)
{
    return (PyObject *)(uintptr_t)read_u64(p);
}

static inline void
write_u16(uint16_t *p, uint16_t val)
{
    *p = val;
}

static inline void
write_u32(uint16_t *p, uint32_t val)
{
    memcpy(p, &val, sizeof(val));
}

static inline void
write_u64(uint16_t *p, uint64_t val)
{
    memcpy(p, &val, sizeof(val));
}

static inline void
write_obj(uint16_t *p, PyObject *val)
{
    write_u64(p, (uint64_t)(uintptr_t)val);
}

/* ---- Adaptive counters (Python/specialize.c) --------------------------------

   The first cache entry of a specializable instruction counts down to its
   next specialization attempt: value in the upper 12 bits, a backoff
   exponent in the lower 4.  A failed attempt waits 2**backoff executions
   before trying again (up to 2**12), so unspecializable sites stop paying
   for the attempt.  The all-ones value means "never" (specialization
   switched off with -X specialization=0).  The stress build
   (pycore_stress.h) tries at the first execution and again one execution
   after a deopt or a failure: never at once, since a site that deopts or
   fails runs its generic form through the same counter, and must get
   through it. */
#define ADAPTIVE_BACKOFF_BITS 4
#define ADAPTIVE_MAX_BACKOFF (_Py_STRESS ? 1 : 12)
#define ADAPTIVE_INITIAL_BACKOFF (_Py_STRESS ? 0 : 1)
#define ADAPTIVE_WARMUP_VALUE (_Py_STRESS ? 0 : 1)     /* first attempt after 2 executions */
#define ADAPTIVE_COOLDOWN_VALUE (_Py_STRESS ? 1 : 52)  /* after a success, wait before re-checking */
#define ADAPTIVE_COUNTER_NEVER 0xFFFF

static inline uint16_t
adaptive_counter_bits(unsigned int value, unsigned int backoff)
{
    return (uint16_t)((value << ADAPTIVE_BACKOFF_BITS) | backoff);
}

static inline int
ADAPTIVE_COUNTER_TRIGGERS(uint16_t counter)
{
    return counter < (1 << ADAPTIVE_BACKOFF_BITS);
}

static inline uint16_t
adaptive_counter_advance(uint16_t counter)
{
    if (counter == ADAPTIVE_COUNTER_NEVER) {
        return counter;
    }
    return (uint16_t)(counter - (1 << ADAPTIVE_BACKOFF_BITS));
}

/* After a failed attempt: wait twice as long as last time. */
static inline uint16_t
adaptive_counter_backoff(uint16_t counter)
{
    int backoff = counter & ((1 << ADAPTIVE_BACKOFF_BITS) - 1);
    if (backoff < ADAPTIVE_MAX_BACKOFF) {
        backoff++;
    }
    return adaptive_counter_bits((1u << backoff) - 1, backoff);
}

static inline uint16_t
adaptive_counter_cooldown(void)
{
    return adaptive_counter_bits(ADAPTIVE_COOLDOWN_VALUE, 0);
}

/* Nonzero unless -X specialization=0. */
PyAPI_DATA(int) _Py_Specialization_Enabled;
PyAPI_FUNC(void) _Py_Specialize_BinaryOp(_PyStackRef lhs, _PyStackRef rhs, _Py_CODEUNIT *instr, int oparg,
                                         _PyStackRef *locals);
PyAPI_FUNC(void) _Py_Specialize_CompareOp(_PyStackRef lhs, _PyStackRef rhs, _Py_CODEUNIT *instr, int oparg);
PyAPI_FUNC(void) _Py_Specialize_ToBool(_PyStackRef value, _Py_CODEUNIT *instr);
PyAPI_FUNC(void) _Py_Specialize_Call(_PyStackRef callable, _PyStackRef self_or_null, _Py_CODEUNIT *instr,
                                     int oparg);
PyAPI_FUNC(void) _Py_Specialize_CallKw(_PyStackRef callable, _PyStackRef self_or_null, _Py_CODEUNIT *instr,
                                        int oparg);
PyAPI_FUNC(void) _Py_Specialize_LoadAttr(_PyStackRef owner, _Py_CODEUNIT *instr, PyObject *name, int oparg);
PyAPI_FUNC(int) _PyObject_InstanceDictHas(PyObject *obj, PyObject *name);
PyAPI_FUNC(void) _Py_Specialize_StoreSubscr(_PyStackRef container, _PyStackRef sub, _Py_CODEUNIT *instr);
PyAPI_FUNC(void) _Py_Specialize_LoadSuperAttr(_PyStackRef global_super, _PyStackRef cls, _Py_CODEUNIT *instr,
                                             int oparg);
PyAPI_FUNC(void) _Py_Specialize_ContainsOp(_PyStackRef container, _Py_CODEUNIT *instr);
PyAPI_FUNC(void) _Py_Specialize_UnpackSequence(_PyStackRef seq, _Py_CODEUNIT *instr, int oparg);
/* `names` is the code's co_names, `index` the name's position in it. */
PyAPI_FUNC(void) _Py_Specialize_LoadGlobal(PyObject *globals, PyObject *builtins, _Py_CODEUNIT *instr,
                                           PyObject *names, int index);
PyAPI_FUNC(void) _Py_Specialize_StoreAttr(_PyStackRef owner, _Py_CODEUNIT *instr, PyObject *name);
/* Builtins that CALL specialises by identity (Python/specialize.c). */
struct _PyEval_SpecializedCallables {
    PyObject *len;
    PyObject *list_append;
    PyObject *isinstance;
    /* The code of the frame CALL_ALLOC_AND_ENTER_INIT slips under an
       __init__ frame: EXIT_INIT_CHECK, then RETURN_VALUE of the new object.
       None of it is traceable, so stack walkers never show that frame. */
    PyCodeObject *init_shim;
};
PyAPI_DATA(struct _PyEval_SpecializedCallables) _PyEval_SpecializedCallables;
PyAPI_FUNC(int) _Py_InitSpecializedCallables(PyInterpreterState *interp);
PyAPI_FUNC(void) _Py_FiniSpecializedCallables(void);
/* The specialised CALL forms of C functions (CALL_BUILTIN_*,
   CALL_METHOD_DESCRIPTOR_*): call def's function with self and `nargs`
   stack-ref arguments (borrowed, at most _PY_DIRECT_CALL_MAX_ARGS for the
   fastcall conventions) as its vectorcall would, without keywords.  The
   instructions have checked the convention matches nargs. */
#define _PY_DIRECT_CALL_MAX_ARGS 8
PyAPI_FUNC(PyObject *) _PyEval_CallMethodDefDirect(PyThreadState *tstate, PyObject *callable,
                                                   PyMethodDef *def, PyObject *self,
                                                   _PyStackRef *args, int nargs);
PyAPI_FUNC(void) _Py_Specialize_ForIter(_PyStackRef iter, _PyStackRef index_or_null, _Py_CODEUNIT *instr,
                                        int oparg);
PyAPI_FUNC(void) _Py_Specialize_Send(_PyStackRef receiver, _PyStackRef index_or_null, _Py_CODEUNIT *instr,
                                     int oparg);
PyAPI_FUNC(void) _Py_Specialize_GetIter(_PyStackRef iterable, _Py_CODEUNIT *instr);

#endif /* !Py_INTERNAL_CODE_H */
