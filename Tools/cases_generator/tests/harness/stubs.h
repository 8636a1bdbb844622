/* Minimal stand-ins for the interpreter's types, macros and functions so
   that the generated files can be syntax-checked. */
#include <stdint.h>
#include <stdbool.h>
#include <assert.h>
#include <stddef.h>

typedef struct _object { intptr_t ob_refcnt; struct _typeobject *ob_type; } PyObject;
typedef struct _typeobject { PyObject ob_base; } PyTypeObject;
typedef struct { PyObject ob_base; } PyLongObject;
typedef struct { PyObject ob_base; PyObject *ob_ref; } PyCellObject;
typedef struct { uintptr_t bits; } _PyStackRef;
typedef union { uint16_t cache; uint16_t counter; struct { uint8_t code; uint8_t arg; } op; } _Py_CODEUNIT;
typedef struct _frame { _Py_CODEUNIT *instr_ptr; _PyStackRef *stackpointer; PyObject *f_code; _PyStackRef localsplus[1]; } _PyInterpreterFrame;
typedef struct { int tracing; } PyThreadState;
typedef struct { struct { int valid; } vm_data; } _PyExecutorObject;
typedef struct { uint16_t opcode; uint16_t oparg; uint64_t operand0; uint64_t operand1; } _PyUOpInstruction;
typedef PyObject *(*binaryfunc)(PyObject *, PyObject *);

extern const binaryfunc _PyEval_BinaryOps[];
extern int _Py_emscripten_signal_clock;
#define NB_ADD 0
#define ENABLE_SPECIALIZATION 1
#define PyStackRef_NULL ((_PyStackRef){ 0 })
#define FRAME_CO_CONSTS (frame->f_code)
#define FRAME_CO_NAMES (frame->f_code)
#define LOCALS_ARRAY (frame->localsplus)

static inline uint16_t read_u16(const uint16_t *p) { return *p; }
static inline uint32_t read_u32(const uint16_t *p) { return *p; }
static inline uint64_t read_u64(const uint16_t *p) { return *p; }

PyObject *PyStackRef_AsPyObjectBorrow(_PyStackRef);
_PyStackRef PyStackRef_FromPyObjectSteal(PyObject *);
_PyStackRef PyStackRef_FromPyObjectNew(PyObject *);
_PyStackRef PyStackRef_DUP(_PyStackRef);
bool PyStackRef_IsNull(_PyStackRef);
void PyStackRef_CLOSE(_PyStackRef);
void PyStackRef_XCLOSE(_PyStackRef);
void PyStackRef_CLOSE_SPECIALIZED(_PyStackRef, void (*)(PyObject *));
void _PyLong_ExactDealloc(PyObject *);
PyObject *_PyLong_Add(PyLongObject *, PyLongObject *);
PyObject *PyFloat_FromDouble(double);
double PyFloat_AS_DOUBLE(PyObject *);
int PyFloat_CheckExact(PyObject *);
int PyLong_CheckExact(PyObject *);
PyObject *PyTuple_GET_ITEM(PyObject *, int);
PyObject *PyCell_GetRef(PyCellObject *);
PyObject *_PyEval_LoadName(PyThreadState *, _PyInterpreterFrame *, PyObject *);
PyObject *PyObject_Vectorcall_StackRefs(PyObject *, _PyStackRef *, int);
PyObject *_PyTuple_FromStackRefStealOnSuccess(_PyStackRef *, int);
int _PyEval_UnpackIterableStackRef(PyThreadState *, _PyStackRef, int, int, _PyStackRef *);
void _Py_Specialize_BinaryOp(_PyStackRef, _PyStackRef, _Py_CODEUNIT *, int, _PyStackRef *);
void Py_FatalError(const char *);
int _PyErr_Occurred(PyThreadState *);
int _Py_HandlePending(PyThreadState *);

#define GETLOCAL(i) (frame->localsplus[(i)])
#define SETLOCAL(i, v) do { _PyStackRef tmp_ = GETLOCAL(i); GETLOCAL(i) = (v); (void)tmp_; } while (0)
#define GETITEM(v, i) PyTuple_GET_ITEM((v), (i))
#define STAT_INC(op, name) ((void)0)
#define UOP_STAT_INC(op, name) ((void)0)
#define UPDATE_MISS_STATS(op) ((void)0)
#define INSTRUCTION_STATS(op) ((void)0)
#define CHECK_EVAL_BREAKER() do { if (_Py_HandlePending(tstate)) goto error; } while (0)
#define ADAPTIVE_COUNTER_TRIGGERS(c) ((c) == 0)
#define ADVANCE_ADAPTIVE_COUNTER(c) ((c)--)
#define _PyFrame_SetStackPointer(f, sp) ((f)->stackpointer = (sp))
