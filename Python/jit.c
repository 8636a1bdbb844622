/* The copy-and-patch JIT: an executor's machine code, made from the
   stencils Tools/jit/build_stencils.py built (see pycore_jit.h and
   Doc/jit.md).

   Compiling a trace is: lay the uops' stencils end to end, copy them into
   memory mapped read+write, fill every hole, then make the memory
   read+execute.  No page is ever writable and executable at once.  The
   code the stencils share (helpers clang did not inline, constants, and
   the C entry) is mapped once per process the same way. */

#include "Python.h"

#ifdef _Py_JIT

#include <sys/mman.h>
#include <unistd.h>

/* The headers the stencils' template includes: jit_symbols[] takes the
   address of every runtime symbol the stencils use. */
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_dict.h"
#include "pycore_floatobject.h"
#include "pycore_frame.h"
#include "pycore_genobject.h"
#include "pycore_instruments.h"
#include "pycore_jit.h"
#include "pycore_long.h"
#include "pycore_object.h"
#include "pycore_opcode_utils.h"
#include "pycore_optimizer.h"
#include "pycore_pystate.h"
#include "pycore_setobject.h"
#include "pycore_template.h"
#include "pycore_traceback.h"
#include "pycore_typeobject.h"
#include "pycore_uop_ids.h"
#include "pycore_uop_metadata.h"

/* How a hole is written, and what goes in it. */
enum { JIT_HOLE_ABS64, JIT_HOLE_PCREL32 };
enum {
    JIT_VALUE_OPARG,
    JIT_VALUE_OPERAND0,
    JIT_VALUE_OPERAND1,
    JIT_VALUE_UOP,          /* the _PyUOpInstruction the stencil is for */
    JIT_VALUE_EXECUTOR,
    JIT_VALUE_CONTINUE,     /* the next uop's code */
    JIT_VALUE_TOP,          /* the first uop's code */
    JIT_VALUE_CODE,         /* this stencil's own code */
    JIT_VALUE_SHARED,       /* the shared code */
    JIT_VALUE_SYMBOL,       /* jit_symbols[symbol] */
};

typedef struct {
    uint32_t offset;
    uint8_t kind;
    uint8_t value;
    uint16_t symbol;
    int64_t addend;
} jit_hole;

typedef struct {
    const unsigned char *code;      /* NULL: the uop has no stencil */
    size_t size;
    const jit_hole *holes;
    size_t hole_count;
} jit_stencil;

#include "jit_stencils-x86_64-unknown-linux-gnu.h"

_PyJITStats _Py_JIT_Stats;
int _Py_JIT_PerfMap = 0;

/* What the holes of one stencil are filled with. */
typedef struct {
    const _PyUOpInstruction *uop;
    const _PyExecutorObject *executor;
    uintptr_t code;
    uintptr_t next;
    uintptr_t top;
} jit_patch_values;

static unsigned char *shared_code = NULL;
static int shared_state = 0;        /* 0 not tried, 1 mapped, -1 refused */

static size_t
page_rounded(size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (size + page - 1) / page * page;
}

static uintptr_t
hole_value(const jit_hole *hole, const jit_patch_values *values)
{
    uintptr_t base = 0;
    switch (hole->value) {
        case JIT_VALUE_OPARG: base = values->uop->oparg; break;
        case JIT_VALUE_OPERAND0: base = (uintptr_t)values->uop->operand0; break;
        case JIT_VALUE_OPERAND1: base = (uintptr_t)values->uop->operand1; break;
        case JIT_VALUE_UOP: base = (uintptr_t)values->uop; break;
        case JIT_VALUE_EXECUTOR: base = (uintptr_t)values->executor; break;
        case JIT_VALUE_CONTINUE: base = values->next; break;
        case JIT_VALUE_TOP: base = values->top; break;
        case JIT_VALUE_CODE: base = values->code; break;
        case JIT_VALUE_SHARED: base = (uintptr_t)shared_code; break;
        case JIT_VALUE_SYMBOL: base = (uintptr_t)jit_symbols[hole->symbol]; break;
    }
    return base + (uintptr_t)hole->addend;
}

/* Fill the holes of code copied to `at`.  0 when one cannot be filled (a
   32-bit displacement that does not reach). */
static int
patch_holes(unsigned char *at, const jit_hole *holes, size_t count,
            const jit_patch_values *values)
{
    for (size_t i = 0; i < count; i++) {
        const jit_hole *hole = &holes[i];
        unsigned char *where = at + hole->offset;
        uintptr_t value = hole_value(hole, values);
        if (hole->kind == JIT_HOLE_ABS64) {
            uint64_t word = value;
            memcpy(where, &word, sizeof(word));
        }
        else {
            intptr_t displacement = (intptr_t)(value - (uintptr_t)where);
            if (displacement != (int32_t)displacement) {
                return 0;
            }
            int32_t word = (int32_t)displacement;
            memcpy(where, &word, sizeof(word));
        }
    }
    return 1;
}

static unsigned char *
map_writable(size_t size)
{
    void *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return memory == MAP_FAILED ? NULL : memory;
}

/* Writable no more, executable from now on. */
static int
make_executable(unsigned char *memory, size_t size)
{
    if (mprotect(memory, size, PROT_READ | PROT_EXEC) != 0) {
        return 0;
    }
    __builtin___clear_cache((char *)memory, (char *)memory + size);
    return 1;
}

static int
map_shared_code(void)
{
    if (shared_state != 0) {
        return shared_state > 0;
    }
    shared_state = -1;
    size_t size = page_rounded(JIT_SHARED_SIZE);
    unsigned char *memory = map_writable(size);
    if (memory == NULL) {
        return 0;
    }
    memcpy(memory, jit_shared_code, JIT_SHARED_SIZE);
    shared_code = memory;
    jit_patch_values none = {0};
    if (!patch_holes(memory, jit_shared_holes, JIT_SHARED_HOLE_COUNT, &none) ||
        !make_executable(memory, size)) {
        munmap(memory, size);
        shared_code = NULL;
        return 0;
    }
    shared_state = 1;
    return 1;
}

int
_PyJIT_IsAvailable(void)
{
    return map_shared_code();
}

/* Whether every uop has a stencil and the trace cannot run off its end
   (its last uop leaves or loops). */
static int
trace_is_compilable(const _PyExecutorObject *executor)
{
    Py_ssize_t length = Py_SIZE(executor);
    for (Py_ssize_t i = 0; i < length; i++) {
        if (jit_stencils[executor->trace[i].opcode].code == NULL) {
            return 0;
        }
    }
    uint16_t last = executor->trace[length - 1].opcode;
    return last == _EXIT_TRACE || last == _JUMP_TO_TOP;
}

/* perf's format for code it has no symbols for: "START SIZE NAME" in
   hex, one line per piece of code, in /tmp/perf-PID.map. */
static void
write_perf_map_line(const _PyExecutorObject *executor, size_t used)
{
    static FILE *map = NULL;
    if (map == NULL) {
        char path[64];
        snprintf(path, sizeof(path), "/tmp/perf-%ld.map", (long)getpid());
        map = fopen(path, "a");
        if (map == NULL) {
            _Py_JIT_PerfMap = 0;
            return;
        }
    }
    PyCodeObject *code = executor->code;
    const char *name = PyUnicode_AsUTF8(code->co_qualname);
    const char *file = PyUnicode_AsUTF8(code->co_filename);
    if (name == NULL || file == NULL) {
        PyErr_Clear();
        name = file = "?";
    }
    fprintf(map, "%lx %zx py::jit:%s:%s:%d\n", (unsigned long)(uintptr_t)executor->jit_code,
            used, name, file, code->co_firstlineno);
    fflush(map);
}

static int
refuse(void)
{
    _Py_JIT_Stats.executors_refused++;
    return 0;
}

int
_PyJIT_Compile(_PyExecutorObject *executor)
{
    if (!map_shared_code() || !trace_is_compilable(executor)) {
        return refuse();
    }
    Py_ssize_t length = Py_SIZE(executor);
    size_t *offsets = PyMem_Malloc(sizeof(size_t) * (size_t)(length + 1));
    if (offsets == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    offsets[0] = 0;
    for (Py_ssize_t i = 0; i < length; i++) {
        offsets[i + 1] = offsets[i] + jit_stencils[executor->trace[i].opcode].size;
    }
    /* One int3 after the last uop: code that ran off the end would trap. */
    size_t used = offsets[length] + 1;
    size_t size = page_rounded(used);
    unsigned char *memory = map_writable(size);
    if (memory == NULL) {
        PyMem_Free(offsets);
        PyErr_NoMemory();
        return -1;
    }
    memset(memory + offsets[length], 0xCC, size - offsets[length]);
    int patched = 1;
    for (Py_ssize_t i = 0; i < length && patched; i++) {
        const jit_stencil *stencil = &jit_stencils[executor->trace[i].opcode];
        jit_patch_values values = {
            .uop = &executor->trace[i],
            .executor = executor,
            .code = (uintptr_t)(memory + offsets[i]),
            .next = (uintptr_t)(memory + offsets[i + 1]),
            .top = (uintptr_t)memory,
        };
        memcpy(memory + offsets[i], stencil->code, stencil->size);
        patched = patch_holes(memory + offsets[i], stencil->holes, stencil->hole_count, &values);
    }
    PyMem_Free(offsets);
    if (!patched || !make_executable(memory, size)) {
        munmap(memory, size);
        return refuse();
    }
    executor->jit_code = memory;
    executor->jit_size = size;
    if (_Py_JIT_PerfMap) {
        write_perf_map_line(executor, used);
    }
    _Py_JIT_Stats.executors_compiled++;
    _Py_JIT_Stats.code_bytes += (Py_ssize_t)size;
    return 0;
}

void
_PyJIT_Free(_PyExecutorObject *executor)
{
    if (executor->jit_code != NULL) {
        munmap(executor->jit_code, executor->jit_size);
        _Py_JIT_Stats.code_bytes -= (Py_ssize_t)executor->jit_size;
        executor->jit_code = NULL;
        executor->jit_size = 0;
    }
}

typedef uintptr_t (*jit_enter_fn)(void *code, _PyInterpreterFrame *frame,
                                  _PyStackRef *stack_pointer, PyThreadState *tstate);

uintptr_t
_PyJIT_Run(_PyExecutorObject **running, _PyInterpreterFrame *frame,
           _PyStackRef *stack_pointer, PyThreadState *tstate)
{
    _PyExecutorObject *executor = *running;
    jit_enter_fn enter = (jit_enter_fn)(void *)(shared_code + JIT_SHARED_ENTER_OFFSET);
    _PyInterpreterFrame *outer = tstate->jit_entry_frame;
    _PyExecutorObject *outer_executor = tstate->jit_executor;
    tstate->jit_entry_frame = frame;
    tstate->jit_executor = executor;
    _Py_JIT_Stats.runs++;
    uintptr_t left = enter(executor->jit_code, frame, stack_pointer, tstate);
    /* The reference the caller held moved along with the side traces. */
    *running = tstate->jit_executor;
    tstate->jit_entry_frame = outer;
    tstate->jit_executor = outer_executor;
    return left;
}

/* Frames the trace pushed run in JIT code too: walk back to the frame the
   run started in, stopping at the entry frame of a C-level call (a frame
   called from C runs in a loop of its own). */
int
_PyJIT_FrameIsActive(PyThreadState *tstate, _PyInterpreterFrame *frame)
{
    _PyInterpreterFrame *entry = tstate->jit_entry_frame;
    for (_PyInterpreterFrame *f = frame; f != NULL && entry != NULL; f = f->previous) {
        if (f == entry) {
            return 1;
        }
        if (f->owner == FRAME_OWNED_BY_INTERPRETER) {
            return 0;
        }
    }
    return 0;
}

#endif /* _Py_JIT */
