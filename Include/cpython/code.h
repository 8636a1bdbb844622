/* Code objects: compiled bytecode plus everything needed to run and
   introspect it.  See Doc/frames.md for how frames use them. */
#ifndef Py_CPYTHON_CODE_H
#define Py_CPYTHON_CODE_H

/* One 16-bit code unit: an instruction (opcode, oparg) or an inline cache
   entry.  Instructions are followed by their cache entries. */
typedef union {
    uint16_t cache;
    struct {
        uint8_t code;
        uint8_t arg;
    } op;
} _Py_CODEUNIT;

typedef struct PyCodeObject PyCodeObject;

struct PyCodeObject {
    PyObject_VAR_HEAD          /* ob_size: number of code units */
    PyObject *co_consts;       /* tuple */
    PyObject *co_names;        /* tuple of str: global and attribute names */
    PyObject *co_exceptiontable; /* bytes, see Doc/exception-table.md */
    int co_flags;              /* CO_... */
    int co_argcount;
    int co_posonlyargcount;
    int co_kwonlyargcount;
    int co_stacksize;
    int co_firstlineno;
    int co_nlocalsplus;        /* locals + cells + free variables */
    int co_framesize;          /* frame size in words: localsplus + stack + header */
    int co_nlocals;
    int co_ncellvars;
    int co_nfreevars;
    uint32_t co_version;
    PyObject *co_localsplusnames; /* tuple of str */
    PyObject *co_localspluskinds; /* bytes, CO_FAST_... per slot */
    PyObject *co_filename;
    PyObject *co_name;
    PyObject *co_qualname;
    PyObject *co_linetable;    /* bytes, the 3.11+ location table format */
    PyObject *co_weakreflist;
    PyObject *_co_cached_code; /* co_code as bytes (deoptimised), or NULL */
    void *co_extra;
    /* Index of the first traceable instruction (after the prologue that
       makes cells and copies free variables). */
    int _co_firsttraceable;
    /* sys.monitoring: the instrumentation version this code was last
       (un)instrumented for, and its monitoring data (NULL until a tool
       looks at it).  See Include/internal/pycore_instruments.h. */
    uint32_t _co_instrumentation_version;
    struct _PyCoMonitoringData *_co_monitoring;
    struct _PyExecutorArray *co_executors; /* tier 2: executors installed here, or NULL */
    char co_code_adaptive[1]; /* ob_size code units, specialised in place */
};

/* co_flags */
#define CO_OPTIMIZED 0x0001
#define CO_NEWLOCALS 0x0002
#define CO_VARARGS 0x0004
#define CO_VARKEYWORDS 0x0008
#define CO_NESTED 0x0010
#define CO_GENERATOR 0x0020
#define CO_NOFREE 0x0040
#define CO_COROUTINE 0x0080
#define CO_ITERABLE_COROUTINE 0x0100
#define CO_ASYNC_GENERATOR 0x0200
#define CO_HAS_DOCSTRING 0x4000000
#define CO_METHOD 0x8000000
/* future flags */
#define CO_FUTURE_DIVISION 0x20000
#define CO_FUTURE_ABSOLUTE_IMPORT 0x40000
#define CO_FUTURE_WITH_STATEMENT 0x80000
#define CO_FUTURE_PRINT_FUNCTION 0x100000
#define CO_FUTURE_UNICODE_LITERALS 0x200000
#define CO_FUTURE_BARRY_AS_BDFL 0x400000
#define CO_FUTURE_GENERATOR_STOP 0x800000
#define CO_FUTURE_ANNOTATIONS 0x1000000

#define CO_MAXBLOCKS 21

PyAPI_DATA(PyTypeObject) PyCode_Type;
#define PyCode_Check(op) Py_IS_TYPE((op), &PyCode_Type)
#define _PyCode_CODE(co) ((_Py_CODEUNIT *)(co)->co_code_adaptive)
#define _PyCode_NBYTES(co) (Py_SIZE(co) * (Py_ssize_t)sizeof(_Py_CODEUNIT))

static inline Py_ssize_t
PyCode_GetNumFree(PyCodeObject *op)
{
    return op->co_nfreevars;
}

/* Line for the instruction at byte offset addrq (-1 if none). */
PyAPI_FUNC(int) PyCode_Addr2Line(PyCodeObject *, int addrq);
PyAPI_FUNC(int) PyCode_Addr2Location(PyCodeObject *, int addrq, int *start_line,
                                     int *start_column, int *end_line, int *end_column);
PyAPI_FUNC(PyObject *) PyCode_GetCode(PyCodeObject *);
PyAPI_FUNC(PyObject *) PyCode_GetVarnames(PyCodeObject *);
PyAPI_FUNC(PyObject *) PyCode_GetCellvars(PyCodeObject *);
PyAPI_FUNC(PyObject *) PyCode_GetFreevars(PyCodeObject *);
PyAPI_FUNC(PyCodeObject *) PyCode_NewEmpty(const char *filename, const char *funcname, int firstlineno);

#endif /* !Py_CPYTHON_CODE_H */
