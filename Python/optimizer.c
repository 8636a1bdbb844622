/* Tier-2 executors: made from recorded traces, installed on back edges,
   invalidated when what they assumed stops being true.  See
   Include/internal/pycore_optimizer.h and Doc/tier2.md. */

#include "Python.h"

#ifdef _Py_TIER2

#include "pycore_code.h"
#include "pycore_dict.h"
#include "pycore_jit.h"
#include "pycore_optimizer.h"
#include "pycore_uop_ids.h"
#include "pycore_opcode_metadata.h"
/* The uop tables are defined here (ceval.c defines the opcode ones). */
#define NEED_OPCODE_METADATA
#include "pycore_uop_metadata.h"
#undef NEED_OPCODE_METADATA
#include "opcode_ids.h"

int _Py_Tier2_Enabled = 0;
uint16_t _Py_Tier2_BackedgeThreshold = 63;
uint16_t _Py_Tier2_ExitThreshold = 31;
_PyTier2Stats _Py_Tier2_Stats;

const char *const _PyTrace_AbortReasonNames[TRACE_ABORT_REASONS] = {
    [TRACE_ABORT_EXCEPTION] = "exception",
    [TRACE_ABORT_FRAME] = "frame",
    [TRACE_ABORT_UNSUPPORTED] = "unsupported",
    [TRACE_ABORT_TOO_LONG] = "too_long",
    [TRACE_ABORT_NO_MEMORY] = "no_memory",
    [TRACE_ABORT_INSTRUMENTED] = "instrumented",
    [TRACE_ABORT_TOO_SHORT] = "too_short",
};

int _Py_Stats_Requested = 0;
#ifdef Py_STATS
_PyUopStats _Py_UopStats[MAX_UOP_ID + 1];
#endif

static void
print_count(FILE *out, const char *what, Py_ssize_t count)
{
    fprintf(out, "  %-24s %12zd\n", what, count);
}

#ifdef Py_STATS
/* The uops that ran, most run first. */
static int
compare_uop_counts(const void *a, const void *b)
{
    uint64_t x = _Py_UopStats[*(const int *)a].executed;
    uint64_t y = _Py_UopStats[*(const int *)b].executed;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void
print_uop_table(FILE *out)
{
    int order[MAX_UOP_ID + 1];
    int count = 0;
    for (int uop = 0; uop <= MAX_UOP_ID; uop++) {
        if (_Py_UopStats[uop].executed != 0) {
            order[count++] = uop;
        }
    }
    qsort(order, (size_t)count, sizeof(int), compare_uop_counts);
    fprintf(out, "  %-32s %14s %12s %7s\n", "uop", "executed", "exits", "exit %");
    for (int i = 0; i < count; i++) {
        const _PyUopStats *stats = &_Py_UopStats[order[i]];
        fprintf(out, "  %-32s %14llu %12llu %6.2f%%\n", _PyOpcode_uop_name[order[i]],
                (unsigned long long)stats->executed, (unsigned long long)stats->exits,
                100.0 * (double)stats->exits / (double)stats->executed);
    }
}
#endif

void
_PyTier2_PrintStats(FILE *out)
{
    const _PyTier2Stats *s = &_Py_Tier2_Stats;
    fprintf(out, "tier 2 statistics:\n");
    print_count(out, "traces started", s->traces_started);
    print_count(out, "traces recorded", s->traces_recorded);
    print_count(out, "traces aborted", s->traces_aborted);
    for (int reason = 0; reason < TRACE_ABORT_REASONS; reason++) {
        char label[48];
        snprintf(label, sizeof(label), "  aborted: %s", _PyTrace_AbortReasonNames[reason]);
        print_count(out, label, s->aborted_by_reason[reason]);
    }
    print_count(out, "executors created", s->executors_created);
    print_count(out, "executors invalidated", s->executors_invalidated);
    print_count(out, "executors entered", s->executors_entered);
    print_count(out, "side exits taken", s->side_exits_taken);
    print_count(out, "uops executed", s->uops_executed);
#ifdef Py_STATS
    print_uop_table(out);
#endif
}

/* PYTHON_TIER2_DEBUG=1: each new executor is written to stderr. */
int _Py_Tier2_Debug = 0;

/* Every live executor, so that invalidation can reach them all. */
static _PyExecutorObject *all_executors = NULL;

void
_PyTier2_Init(int stress_requested)
{
    const char *stress = getenv("PYTHON_JIT_STRESS");
    if (stress_requested || (stress != NULL && stress[0] != '\0' && strcmp(stress, "0") != 0)) {
        _Py_Tier2_BackedgeThreshold = 1;
        _Py_Tier2_ExitThreshold = 1;
    }
    _PyDict_SetTier2Watcher(_PyOptimizer_DictChanged);
    const char *debug = getenv("PYTHON_TIER2_DEBUG");
    _Py_Tier2_Debug = debug != NULL && debug[0] != '\0' && strcmp(debug, "0") != 0;
}

/* ---- the executor type ---- */

static void
link_executor(_PyExecutorObject *executor)
{
    executor->all_prev = NULL;
    executor->all_next = all_executors;
    if (all_executors != NULL) {
        all_executors->all_prev = executor;
    }
    all_executors = executor;
}

static void
unlink_executor(_PyExecutorObject *executor)
{
    if (executor->all_prev != NULL) {
        executor->all_prev->all_next = executor->all_next;
    }
    else if (all_executors == executor) {
        all_executors = executor->all_next;
    }
    if (executor->all_next != NULL) {
        executor->all_next->all_prev = executor->all_prev;
    }
    executor->all_prev = executor->all_next = NULL;
}

/* Drop the side traces grown from the exits. */
static void
release_exits(_PyExecutorObject *executor)
{
    for (uint32_t i = 0; i < executor->exit_count; i++) {
        Py_CLEAR(executor->exits[i].executor);
    }
}

static void
executor_dealloc(PyObject *self)
{
    _PyExecutorObject *executor = (_PyExecutorObject *)self;
    unlink_executor(executor);
    release_exits(executor);
#ifdef _Py_JIT
    _PyJIT_Free(executor);
#endif
    PyMem_Free(executor->exits);
    PyObject_Free(self);
}

/* The trace as a list of (uop name, oparg, target, operand0) tuples. */
static PyObject *
executor_get_uops(PyObject *self, void *Py_UNUSED(closure))
{
    _PyExecutorObject *executor = (_PyExecutorObject *)self;
    PyObject *list = PyList_New(0);
    for (Py_ssize_t i = 0; list != NULL && i < Py_SIZE(executor); i++) {
        const _PyUOpInstruction *uop = &executor->trace[i];
        PyObject *item = Py_BuildValue("(sIIK)", _PyOpcode_uop_name[uop->opcode],
                                       (unsigned int)uop->oparg, (unsigned int)uop->target,
                                       (unsigned long long)uop->operand0);
        if (item == NULL || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(list);
        }
        Py_XDECREF(item);
    }
    return list;
}

static PyObject *
executor_is_valid(PyObject *self, void *Py_UNUSED(closure))
{
    return PyBool_FromLong(((_PyExecutorObject *)self)->valid);
}

static PyObject *
executor_side_traces(PyObject *self, void *Py_UNUSED(closure))
{
    _PyExecutorObject *executor = (_PyExecutorObject *)self;
    PyObject *list = PyList_New(0);
    for (uint32_t i = 0; list != NULL && i < executor->exit_count; i++) {
        PyObject *child = (PyObject *)executor->exits[i].executor;
        if (child != NULL && PyList_Append(list, child) < 0) {
            Py_CLEAR(list);
        }
    }
    return list;
}

static PyGetSetDef executor_getset[] = {
    {"uops", executor_get_uops, NULL, "the trace's uops: (name, oparg, target, operand)", NULL},
    {"valid", executor_is_valid, NULL, "whether the executor may still run", NULL},
    {"side_traces", executor_side_traces, NULL, "executors grown from this one's exits", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject _PyUOpExecutor_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "uop_executor",
    .tp_basicsize = offsetof(_PyExecutorObject, trace),
    .tp_itemsize = sizeof(_PyUOpInstruction),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = executor_dealloc,
    .tp_getset = executor_getset,
};

/* ---- making executors ---- */


static void
dump_trace(_PyExecutorObject *executor)
{
    fprintf(stderr, "tier 2: executor %p for %s, %zd uops\n", (void *)executor,
            PyUnicode_AsUTF8(executor->code->co_qualname), Py_SIZE(executor));
    for (Py_ssize_t i = 0; i < Py_SIZE(executor); i++) {
        const _PyUOpInstruction *uop = &executor->trace[i];
        fprintf(stderr, "  %3zd %-32s oparg=%u target=%u operand=%#llx\n", i,
                _PyOpcode_uop_name[uop->opcode], uop->oparg, uop->target,
                (unsigned long long)uop->operand0);
    }
}

/* Each guard gets an exit of its own: its counter and, later, the trace
   grown from it. */
static int
count_exits(const _PyUOpInstruction *trace, int length)
{
    int exits = 0;
    for (int i = 0; i < length; i++) {
        if (_PyUop_Flags[trace[i].opcode] & (HAS_EXIT_FLAG | HAS_DEOPT_FLAG)) {
            exits++;
        }
    }
    return exits;
}

_PyExecutorObject *
_PyExecutor_FromTrace(PyCodeObject *code, const _PyUOpInstruction *trace, int length,
                      const _PyExecutorDeps *deps)
{
    if (length <= 1) {
        return NULL;
    }
    int exit_count = count_exits(trace, length);
    _PyExitData *exits = exit_count ? PyMem_Calloc((size_t)exit_count, sizeof(_PyExitData)) : NULL;
    if (exit_count && exits == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    _PyExecutorObject *executor = PyObject_NewVar(_PyExecutorObject, &_PyUOpExecutor_Type, length);
    if (executor == NULL) {
        PyMem_Free(exits);
        return NULL;
    }
    executor->code = code;
    executor->index = -1;
    executor->valid = 1;
    executor->jump_oparg = 0;
    executor->jump_offset = -1;
    executor->side_depth = 0;
    executor->exit_count = (uint32_t)exit_count;
    executor->exits = exits;
    executor->deps = *deps;
    executor->jit_code = NULL;
    executor->jit_size = 0;
    memcpy(executor->trace, trace, sizeof(_PyUOpInstruction) * (size_t)length);
    int next_exit = 0;
    for (int i = 0; i < length; i++) {
        _PyUOpInstruction *uop = &executor->trace[i];
        if (_PyUop_Flags[uop->opcode] & (HAS_EXIT_FLAG | HAS_DEOPT_FLAG)) {
            uop->exit_index = (uint32_t)next_exit;
            exits[next_exit].target = uop->target;
            exits[next_exit].temperature = 0;
            exits[next_exit].executor = NULL;
            next_exit++;
        }
    }
    link_executor(executor);
    _Py_Tier2_Stats.executors_created++;
    if (_Py_Tier2_Debug) {
        dump_trace(executor);
    }
#ifdef _Py_JIT
    /* A trace the JIT cannot make code for runs in the uop interpreter. */
    if (_PyJIT_Compile(executor) < 0) {
        Py_DECREF(executor);
        return NULL;
    }
#endif
    return executor;
}

/* ---- executors in code objects ---- */

static _PyExecutorArray *
executor_array(PyCodeObject *code)
{
    _PyExecutorArray *array = code->co_executors;
    if (array != NULL && array->size < array->capacity) {
        return array;
    }
    int capacity = array == NULL ? 4 : array->capacity * 2;
    if (capacity > TIER2_MAX_EXECUTORS_PER_CODE) {
        capacity = TIER2_MAX_EXECUTORS_PER_CODE;
    }
    if (array != NULL && array->size >= capacity) {
        return NULL;
    }
    size_t bytes = offsetof(_PyExecutorArray, executors) + sizeof(_PyExecutorObject *) * (size_t)capacity;
    _PyExecutorArray *grown = PyMem_Realloc(array, bytes);
    if (grown == NULL) {
        return NULL;
    }
    if (array == NULL) {
        grown->size = 0;
    }
    grown->capacity = capacity;
    code->co_executors = grown;
    return grown;
}

int
_PyExecutor_Install(PyCodeObject *code, _Py_CODEUNIT *jump, _PyExecutorObject *executor)
{
    assert(jump->op.code == JUMP_BACKWARD);
    _PyExecutorArray *array = executor_array(code);
    if (array == NULL) {
        return -1;
    }
    /* A slot freed by an invalidated executor is used again. */
    int index = 0;
    while (index < array->size && array->executors[index] != NULL) {
        index++;
    }
    if (index == array->size) {
        array->size++;
    }
    array->executors[index] = (_PyExecutorObject *)Py_NewRef(executor);
    executor->index = index;
    executor->jump_oparg = jump->op.arg;
    executor->jump_offset = (int)(jump - _PyCode_CODE(code));
    jump->op.code = ENTER_EXECUTOR;
    jump->op.arg = (uint8_t)index;
    return 0;
}

/* Put the JUMP_BACKWARD back and let go of the executor. */
static void
uninstall(PyCodeObject *code, int index)
{
    _PyExecutorArray *array = code->co_executors;
    _PyExecutorObject *executor = array->executors[index];
    if (executor == NULL) {
        return;
    }
    _Py_CODEUNIT *jump = _PyCode_CODE(code) + executor->jump_offset;
    assert(jump->op.code == ENTER_EXECUTOR && jump->op.arg == index);
    jump->op.code = JUMP_BACKWARD;
    jump->op.arg = executor->jump_oparg;
    /* Start counting afresh: the loop may be worth a new trace. */
    jump[1].cache = adaptive_counter_bits(_Py_Tier2_BackedgeThreshold, 0);
    array->executors[index] = NULL;
    executor->index = -1;
    Py_DECREF(executor);
}

static void
invalidate(_PyExecutorObject *executor)
{
    if (!executor->valid) {
        return;
    }
    executor->valid = 0;
    _Py_Tier2_Stats.executors_invalidated++;
    release_exits(executor);
}

void
_PyCode_ClearExecutors(PyCodeObject *code)
{
    _PyExecutorArray *array = code->co_executors;
    if (array == NULL) {
        return;
    }
    for (int i = 0; i < array->size; i++) {
        if (array->executors[i] != NULL) {
            invalidate(array->executors[i]);
            uninstall(code, i);
        }
    }
    PyMem_Free(array);
    code->co_executors = NULL;
}

/* Take the executors no longer valid out of the code they are installed
   in.  Side traces are owned by their parents' exits, so releasing exits
   can free executors further down the list: start again after each. */
static void
uninstall_invalid(void)
{
    _PyExecutorObject *e = all_executors;
    while (e != NULL) {
        if (!e->valid && e->index >= 0) {
            release_exits(e);
            uninstall(e->code, e->index);
            e = all_executors;
            continue;
        }
        e = e->all_next;
    }
}

void
_PyExecutor_InvalidateAll(void)
{
    for (_PyExecutorObject *e = all_executors; e != NULL; e = e->all_next) {
        if (e->valid && e->index >= 0) {
            _Py_Tier2_Stats.executors_invalidated++;
        }
        e->valid = 0;
    }
    uninstall_invalid();
}

static int
depends_on(const _PyExecutorObject *executor, PyObject *dict)
{
    for (int i = 0; i < executor->deps.count; i++) {
        if (executor->deps.dicts[i] == dict) {
            return 1;
        }
    }
    return 0;
}

void
_PyExecutor_InvalidateDependents(PyObject *dict)
{
    /* A side trace marked invalid is dropped by its parent's exit the
       next time that exit is taken. */
    for (_PyExecutorObject *e = all_executors; e != NULL; e = e->all_next) {
        if (e->valid && depends_on(e, dict)) {
            e->valid = 0;
            e->deps.count = 0;
            _Py_Tier2_Stats.executors_invalidated++;
        }
    }
    uninstall_invalid();
}

int
_PyOptimizer_DictChanged(PyDict_WatchEvent event, PyObject *dict, PyObject *key,
                         PyObject *new_value)
{
    _PyDict_NoteTier2Change((PyDictObject *)dict);
    /* Nothing will depend on it any more: stop hearing of it. */
    (void)PyDict_Unwatch(DICT_TIER2_WATCHER, dict);
    _PyExecutor_InvalidateDependents(dict);
    return 0;
}

int
_PyCode_ExecutorJumpOparg(PyCodeObject *code, int index)
{
    _PyExecutorArray *array = code->co_executors;
    if (array == NULL || index >= array->size || array->executors[index] == NULL) {
        return 0;
    }
    return array->executors[index]->jump_oparg;
}

_PyExecutorObject *
_PyCode_GetExecutor(PyCodeObject *code, int offset)
{
    if (offset < 0 || offset >= Py_SIZE(code)) {
        return NULL;
    }
    _Py_CODEUNIT *instr = &_PyCode_CODE(code)[offset];
    if (instr->op.code != ENTER_EXECUTOR || code->co_executors == NULL ||
        instr->op.arg >= code->co_executors->size) {
        return NULL;
    }
    return code->co_executors->executors[instr->op.arg];
}

#endif /* _Py_TIER2 */
