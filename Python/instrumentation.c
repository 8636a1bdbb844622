/* sys.monitoring (PEP 669): tools, event sets, callbacks, and the rewriting
   of code objects into their INSTRUMENTED_* forms.

   The picture (Doc/tracing.md has more):
   - A tool holds a name, a global event set and per-code local event sets,
     and one callback per event.  The state is process-wide (one
     interpreter).
   - Any change to what is monitored bumps _Py_instrumentation_version.
     RESUME compares it with the code's own version and calls
     _PyMonitoring_InstrumentCode on a mismatch; frames that are already
     running get their code instrumented at once (walk_running_frames).
   - Instrumenting a code object: every instruction is taken back to its
     generic form, adaptive counters are set to "never" (an instrumented
     code does not specialise), and instructions that carry an event get
     their INSTRUMENTED_* opcode.  LINE and INSTRUCTION events are a prefix:
     INSTRUMENTED_LINE / INSTRUMENTED_INSTRUCTION sit in the stream and the
     opcode to run afterwards is kept in `under`.  When nothing is monitored
     any more the generic opcodes come back and the code may specialise
     again. */

#include "Python.h"
#include "pycore_optimizer.h"
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_frame.h"
#include "pycore_instruments.h"
#include "pycore_opcode_metadata.h"
#include "pycore_opcode_utils.h"
#include "pycore_pystate.h"
#include "opcode_ids.h"

uint32_t _Py_instrumentation_version = 0;
int _Py_monitoring_any_active = 0;

#define ALL_TOOLS_MASK 0xFF
#define EVENT_BIT(ev) (1u << (ev))
#define C_EVENTS (EVENT_BIT(PY_MONITORING_EVENT_C_RETURN) | EVENT_BIT(PY_MONITORING_EVENT_C_RAISE))
#define ALL_EVENTS ((1u << _PY_MONITORING_EVENTS) - 1)
#define LOCAL_EVENTS ((1u << _PY_MONITORING_LOCAL_EVENTS) - 1)

static const char *const event_names[_PY_MONITORING_EVENTS] = {
    [PY_MONITORING_EVENT_PY_START] = "PY_START",
    [PY_MONITORING_EVENT_PY_RESUME] = "PY_RESUME",
    [PY_MONITORING_EVENT_PY_RETURN] = "PY_RETURN",
    [PY_MONITORING_EVENT_PY_YIELD] = "PY_YIELD",
    [PY_MONITORING_EVENT_CALL] = "CALL",
    [PY_MONITORING_EVENT_LINE] = "LINE",
    [PY_MONITORING_EVENT_INSTRUCTION] = "INSTRUCTION",
    [PY_MONITORING_EVENT_JUMP] = "JUMP",
    [PY_MONITORING_EVENT_BRANCH_LEFT] = "BRANCH_LEFT",
    [PY_MONITORING_EVENT_BRANCH_RIGHT] = "BRANCH_RIGHT",
    [PY_MONITORING_EVENT_STOP_ITERATION] = "STOP_ITERATION",
    [PY_MONITORING_EVENT_RAISE] = "RAISE",
    [PY_MONITORING_EVENT_EXCEPTION_HANDLED] = "EXCEPTION_HANDLED",
    [PY_MONITORING_EVENT_PY_UNWIND] = "PY_UNWIND",
    [PY_MONITORING_EVENT_PY_THROW] = "PY_THROW",
    [PY_MONITORING_EVENT_RERAISE] = "RERAISE",
    [PY_MONITORING_EVENT_C_RETURN] = "C_RETURN",
    [PY_MONITORING_EVENT_C_RAISE] = "C_RAISE",
    [PY_MONITORING_EVENT_BRANCH] = "BRANCH",
};

/* ---- Tool state ------------------------------------------------------------ */

static struct {
    PyObject *names[PY_MONITORING_TOOL_IDS];       /* NULL: free */
    uint8_t global_tools[_PY_MONITORING_EVENTS];   /* per event: tools (bits) */
    PyObject *callbacks[PY_MONITORING_TOOL_IDS][_PY_MONITORING_EVENTS];
    uint32_t tool_epoch[PY_MONITORING_TOOL_IDS];   /* bumped by clear/free */
    uint32_t restart_epoch;                        /* bumped by restart_events */
    int local_users;                               /* codes with local events */
} tools;

/* Two unique objects, as sys.monitoring.DISABLE and MISSING. */
static PyObject disable_sentinel = {_Py_IMMORTAL_INITIAL_REFCNT, &PyBaseObject_Type};
static PyObject missing_sentinel = {_Py_IMMORTAL_INITIAL_REFCNT, &PyBaseObject_Type};

PyObject *
_PyMonitoring_GetDisable(void)
{
    return &disable_sentinel;
}

PyObject *
_PyMonitoring_GetMissing(void)
{
    return &missing_sentinel;
}

static void
recompute_any_active(void)
{
    int any = tools.local_users > 0;
    for (int ev = 0; ev < _PY_MONITORING_EVENTS && !any; ev++) {
        any = tools.global_tools[ev] != 0;
    }
    _Py_monitoring_any_active = any;
}

/* ---- Which instructions carry which events --------------------------------- */

/* The instrumented opcode of a generic one, or 0 when it has none. */
static int
instrumented_form(int base)
{
    switch (base) {
    case RESUME: return INSTRUMENTED_RESUME;
    case RETURN_VALUE: return INSTRUMENTED_RETURN_VALUE;
    case YIELD_VALUE: return INSTRUMENTED_YIELD_VALUE;
    case CALL: return INSTRUMENTED_CALL;
    case CALL_KW: return INSTRUMENTED_CALL_KW;
    case CALL_FUNCTION_EX: return INSTRUMENTED_CALL_FUNCTION_EX;
    case JUMP_FORWARD: return INSTRUMENTED_JUMP_FORWARD;
    case JUMP_BACKWARD: return INSTRUMENTED_JUMP_BACKWARD;
    case POP_JUMP_IF_FALSE: return INSTRUMENTED_POP_JUMP_IF_FALSE;
    case POP_JUMP_IF_TRUE: return INSTRUMENTED_POP_JUMP_IF_TRUE;
    case POP_JUMP_IF_NONE: return INSTRUMENTED_POP_JUMP_IF_NONE;
    case POP_JUMP_IF_NOT_NONE: return INSTRUMENTED_POP_JUMP_IF_NOT_NONE;
    default: return 0;
    }
}

/* The events an instrumented form reports (a bit set). */
static uint32_t
events_of(int base)
{
    switch (base) {
    case RESUME:
        return EVENT_BIT(PY_MONITORING_EVENT_PY_START) | EVENT_BIT(PY_MONITORING_EVENT_PY_RESUME);
    case RETURN_VALUE:
        return EVENT_BIT(PY_MONITORING_EVENT_PY_RETURN);
    case YIELD_VALUE:
        return EVENT_BIT(PY_MONITORING_EVENT_PY_YIELD);
    case CALL: case CALL_KW: case CALL_FUNCTION_EX:
        return EVENT_BIT(PY_MONITORING_EVENT_CALL);
    case JUMP_FORWARD: case JUMP_BACKWARD:
        return EVENT_BIT(PY_MONITORING_EVENT_JUMP);
    case POP_JUMP_IF_FALSE: case POP_JUMP_IF_TRUE:
    case POP_JUMP_IF_NONE: case POP_JUMP_IF_NOT_NONE:
        return EVENT_BIT(PY_MONITORING_EVENT_BRANCH_LEFT) |
               EVENT_BIT(PY_MONITORING_EVENT_BRANCH_RIGHT) |
               EVENT_BIT(PY_MONITORING_EVENT_BRANCH);
    default:
        return 0;
    }
}

static uint8_t
tools_for(const uint8_t *per_event, uint32_t events)
{
    uint8_t mask = 0;
    for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
        if (events & EVENT_BIT(ev)) {
            mask |= per_event[ev];
        }
    }
    return mask;
}

/* ---- Per-code data ---------------------------------------------------------- */

static _PyCoMonitoringData *
code_data(PyCodeObject *code)
{
    if (code->_co_monitoring == NULL) {
        _PyCoMonitoringData *data = PyMem_Calloc(1, sizeof(*data));
        if (data == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        memcpy(data->tool_epoch, tools.tool_epoch, sizeof(data->tool_epoch));
        data->restart_epoch = tools.restart_epoch;
        code->_co_monitoring = data;
    }
    return code->_co_monitoring;
}

static void
free_arrays(_PyCoMonitoringData *data)
{
    PyMem_Free(data->base);
    PyMem_Free(data->under);
    PyMem_Free(data->line_tools);
    PyMem_Free(data->insn_tools);
    PyMem_Free(data->op_tools);
    PyMem_Free(data->disabled);
    PyMem_Free(data->disabled_line);
    PyMem_Free(data->disabled_insn);
    PyMem_Free(data->lines);
    PyMem_Free(data->line_start);
    data->base = data->under = data->line_tools = data->insn_tools = NULL;
    data->op_tools = data->disabled = data->disabled_line = data->disabled_insn = NULL;
    data->line_start = NULL;
    data->lines = NULL;
    data->ninstr = 0;
}

static int
has_local_events(_PyCoMonitoringData *data)
{
    for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
        if (data->local_tools[ev]) {
            return 1;
        }
    }
    return 0;
}

void
_PyMonitoring_FreeCodeData(PyCodeObject *code)
{
    _PyCoMonitoringData *data = code->_co_monitoring;
    if (data == NULL) {
        return;
    }
    if (has_local_events(data)) {
        tools.local_users--;
    }
    free_arrays(data);
    PyMem_Free(data);
    code->_co_monitoring = NULL;
}

int
_PyMonitoring_BaseOpcode(PyCodeObject *code, Py_ssize_t index)
{
    _PyCoMonitoringData *data = code->_co_monitoring;
    if (data != NULL && data->base != NULL && index < data->ninstr) {
        return data->base[index];
    }
    int op = _PyCode_CODE(code)[index].op.code;
    int base = _PyOpcode_Deopt[op];
    return base != 0 ? base : op;
}

int
_PyMonitoring_LineOf(PyCodeObject *code, int index)
{
    _PyCoMonitoringData *data = code->_co_monitoring;
    if (data != NULL && data->lines != NULL && index >= 0 && index < data->ninstr) {
        return data->lines[index];
    }
    return PyCode_Addr2Line(code, index * (int)sizeof(_Py_CODEUNIT));
}

/* Mark the target of every jump and exception handler: execution can reach
   them from another line, so they need a LINE check even in mid-line. */
static void
mark_jump_targets(PyCodeObject *code, _PyCoMonitoringData *data, uint8_t *is_target)
{
    _Py_CODEUNIT *stream = _PyCode_CODE(code);
    int n = data->ninstr;
    int ext = 0;
    for (int i = 0; i < n; i += 1 + _PyOpcode_Caches[data->base[i]]) {
        int op = data->base[i];
        int arg = ext << 8 | stream[i].op.arg;
        ext = op == EXTENDED_ARG ? arg : 0;
        if (!OPCODE_HAS_JUMP(op)) {
            continue;
        }
        int next = i + 1 + _PyOpcode_Caches[op];
        int target = (op == JUMP_BACKWARD || op == JUMP_BACKWARD_NO_INTERRUPT) ? next - arg : next + arg;
        if (op == FOR_ITER) {
            target++;   /* the exhausted loop skips END_FOR */
        }
        if (target >= 0 && target < n) {
            is_target[target] = 1;
        }
    }
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(code->co_exceptiontable);
    const uint8_t *end = p + PyBytes_GET_SIZE(code->co_exceptiontable);
    while (p < end) {
        (void)_PyMonitoring_ReadExceptionVarint(&p);       /* start */
        (void)_PyMonitoring_ReadExceptionVarint(&p);       /* length */
        int handler = _PyMonitoring_ReadExceptionVarint(&p);
        (void)_PyMonitoring_ReadExceptionVarint(&p);       /* depth and lasti */
        if (handler >= 0 && handler < n) {
            is_target[handler] = 1;
        }
    }
}

/* Lines of every code unit, and where LINE events can fire. */
static int
compute_lines(PyCodeObject *code, _PyCoMonitoringData *data)
{
    int n = data->ninstr;
    for (int i = 0; i < n; i++) {
        data->lines[i] = -1;
    }
    PyCodeAddressRange range;
    _PyCode_InitAddressRange(code, &range);
    while (_PyLineTable_NextAddressRange(&range)) {
        for (int b = range.ar_start / 2; b < range.ar_end / 2 && b < n; b++) {
            data->lines[b] = range.ar_line;
        }
    }
    uint8_t *is_target = PyMem_Calloc((size_t)n + 1, 1);
    if (is_target == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    mark_jump_targets(code, data, is_target);
    int prev_line = -1;
    int after_ext = 0;
    int after_resume = 0;
    for (int i = 0; i < n; i += 1 + _PyOpcode_Caches[data->base[i]]) {
        int op = data->base[i];
        int line = data->lines[i];
        data->line_start[i] = (line >= 0 && op != RESUME && !after_ext &&
                               i >= code->_co_firsttraceable &&
                               (line != prev_line || is_target[i] || after_resume));
        if (!after_ext) {
            prev_line = line;
        }
        after_ext = op == EXTENDED_ARG;
        after_resume = op == RESUME &&
                       (_PyCode_CODE(code)[i].op.arg & RESUME_OPARG_LOCATION_MASK) == RESUME_AT_FUNC_START;
    }
    PyMem_Free(is_target);
    return 0;
}

static int
allocate_arrays(PyCodeObject *code, _PyCoMonitoringData *data)
{
    int n = (int)Py_SIZE(code);
    data->ninstr = n;
    data->base = PyMem_Calloc((size_t)n, 1);
    data->under = PyMem_Calloc((size_t)n, 1);
    data->line_tools = PyMem_Calloc((size_t)n, 1);
    data->insn_tools = PyMem_Calloc((size_t)n, 1);
    data->op_tools = PyMem_Calloc((size_t)n, 1);
    data->disabled = PyMem_Calloc((size_t)n, 1);
    data->disabled_line = PyMem_Calloc((size_t)n, 1);
    data->disabled_insn = PyMem_Calloc((size_t)n, 1);
    data->lines = PyMem_Calloc((size_t)n, sizeof(int));
    data->line_start = PyMem_Calloc((size_t)n, 1);
    if (!data->base || !data->under || !data->line_tools || !data->insn_tools ||
        !data->op_tools || !data->disabled || !data->disabled_line ||
        !data->disabled_insn || !data->lines || !data->line_start) {
        free_arrays(data);
        PyErr_NoMemory();
        return -1;
    }
    /* The stream holds no instrumented opcode yet: its generic forms are
       the base. */
    _Py_CODEUNIT *stream = _PyCode_CODE(code);
    for (int i = 0; i < n; i++) {
        int op = stream[i].op.code;
        int base = _PyOpcode_Deopt[op];
        data->base[i] = (uint8_t)(base != 0 ? base : op);
        int caches = _PyOpcode_Caches[data->base[i]];
        for (int j = 1; j <= caches && i + j < n; j++) {
            data->base[i + j] = CACHE;
        }
        i += caches;
    }
    if (compute_lines(code, data) < 0) {
        free_arrays(data);
        return -1;
    }
    return 0;
}

/* Write instruction i's opcode from its masks. */
static void
apply_instruction(PyCodeObject *code, _PyCoMonitoringData *data, int i)
{
    _Py_CODEUNIT *stream = _PyCode_CODE(code);
    int base = data->base[i];
    int form = instrumented_form(base);
    int op = (form && data->op_tools[i]) ? form : base;
    data->under[i] = (uint8_t)op;
    if (data->line_tools[i]) {
        op = INSTRUMENTED_LINE;
    }
    else if (data->insn_tools[i]) {
        op = INSTRUMENTED_INSTRUCTION;
    }
    stream[i].op.code = (uint8_t)op;
}

static void
remove_instrumentation(PyCodeObject *code, _PyCoMonitoringData *data)
{
    if (data->base == NULL) {
        return;
    }
    _Py_CODEUNIT *stream = _PyCode_CODE(code);
    for (int i = 0; i < data->ninstr; i += 1 + _PyOpcode_Caches[data->base[i]]) {
        stream[i].op.code = data->base[i];
    }
    _PyCode_Quicken(stream, Py_SIZE(code), _Py_Specialization_Enabled);
    free_arrays(data);
}

/* Drop local events of tools cleared since this code last looked. */
static void
expire_local_events(_PyCoMonitoringData *data)
{
    int had_local = has_local_events(data);
    for (int tool = 0; tool < PY_MONITORING_TOOL_IDS; tool++) {
        if (data->tool_epoch[tool] != tools.tool_epoch[tool]) {
            data->tool_epoch[tool] = tools.tool_epoch[tool];
            for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
                data->local_tools[ev] &= (uint8_t)~(1u << tool);
            }
        }
    }
    if (had_local && !has_local_events(data)) {
        tools.local_users--;
    }
    if (data->restart_epoch != tools.restart_epoch && data->base != NULL) {
        data->restart_epoch = tools.restart_epoch;
        memset(data->disabled, 0, (size_t)data->ninstr);
        memset(data->disabled_line, 0, (size_t)data->ninstr);
        memset(data->disabled_insn, 0, (size_t)data->ninstr);
    }
}

static int
instrument_with(PyCodeObject *code, _PyCoMonitoringData *data)
{
    int any = 0;
    for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
        data->active_tools[ev] = tools.global_tools[ev] | data->local_tools[ev];
        any |= data->active_tools[ev] != 0;
    }
    if (!any) {
        remove_instrumentation(code, data);
        return 0;
    }
    if (data->base == NULL && allocate_arrays(code, data) < 0) {
        return -1;
    }
    _Py_CODEUNIT *stream = _PyCode_CODE(code);
    uint8_t line = data->active_tools[PY_MONITORING_EVENT_LINE];
    uint8_t insn = data->active_tools[PY_MONITORING_EVENT_INSTRUCTION];
    int after_ext = 0;
    for (int i = 0; i < data->ninstr; i += 1 + _PyOpcode_Caches[data->base[i]]) {
        int base = data->base[i];
        int caches = _PyOpcode_Caches[base];
        if (caches) {
            stream[i + 1].cache = ADAPTIVE_COUNTER_NEVER;
        }
        data->op_tools[i] = tools_for(data->active_tools, events_of(base)) & ~data->disabled[i];
        data->line_tools[i] = data->line_start[i] ? (line & ~data->disabled_line[i]) : 0;
        data->insn_tools[i] = (after_ext || base == RESUME || i < code->_co_firsttraceable)
                                  ? 0 : (insn & ~data->disabled_insn[i]);
        apply_instruction(code, data, i);
        after_ext = base == EXTENDED_ARG;
    }
    return 0;
}

int
_PyMonitoring_InstrumentCode(PyThreadState *tstate, PyCodeObject *code)
{
    (void)tstate;
    uint32_t version = _Py_instrumentation_version;
    if (!_Py_monitoring_any_active && code->_co_monitoring == NULL) {
        code->_co_instrumentation_version = version;
        return 0;
    }
#ifdef _Py_TIER2
    _PyCode_ClearExecutors(code);  /* the stream must hold only real opcodes */
#endif
    _PyCoMonitoringData *data = code_data(code);
    if (data == NULL) {
        return -1;
    }
    expire_local_events(data);
    if (instrument_with(code, data) < 0) {
        return -1;
    }
    code->_co_instrumentation_version = version;
    return 0;
}

/* Instrument the code of every frame that is running now, so a loop that
   never passes RESUME again still sees the change.  A lazy frame is made
   complete first: its JIT must leave to the interpreter. */
static int
instrument_running_frames(void)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    for (PyThreadState *ts = interp->threads_head; ts != NULL; ts = ts->next) {
        for (_PyInterpreterFrame *f = ts->current_frame; f != NULL; f = f->previous) {
            if (f->owner == FRAME_OWNED_BY_INTERPRETER) {
                continue;
            }
            if (_PyFrame_EnsureComplete(f) < 0) {
                return -1;
            }
            PyCodeObject *code = _PyFrame_GetCode(f);
            if (code->_co_instrumentation_version != _Py_instrumentation_version &&
                _PyMonitoring_InstrumentCode(ts, code) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

static int
monitoring_changed(void)
{
    recompute_any_active();
#ifdef _Py_TIER2
    /* Traces hold no instrumentation: they stop being right now. */
    _PyExecutor_InvalidateAll();
#endif
    /* 0 is reserved for "never instrumented" (RESUME's fast path). */
    if (++_Py_instrumentation_version == 0) {
        _Py_instrumentation_version = 1;
    }
    return instrument_running_frames();
}

/* ---- Calling the tools -------------------------------------------------------- */

static void
disable_at(PyCodeObject *code, int index, int event, int tool)
{
    _PyCoMonitoringData *data = code->_co_monitoring;
    if (data == NULL || data->base == NULL) {
        return;
    }
    uint8_t bit = (uint8_t)(1u << tool);
    if (event == PY_MONITORING_EVENT_LINE) {
        data->disabled_line[index] |= bit;
        data->line_tools[index] &= (uint8_t)~bit;
    }
    else if (event == PY_MONITORING_EVENT_INSTRUCTION) {
        data->disabled_insn[index] |= bit;
        data->insn_tools[index] &= (uint8_t)~bit;
    }
    else {
        data->disabled[index] |= bit;
        data->op_tools[index] &= (uint8_t)~bit;
    }
    apply_instruction(code, data, index);
}

/* Call every tool in `mask` that has a callback for `event` with
   (code, first, *extra).  Returns -1 on error. */
static int
call_tools(PyThreadState *tstate, PyCodeObject *code, int index, int event, uint8_t mask,
           PyObject *first, PyObject *const *extra, int nextra)
{
    PyObject *args[5];
    args[1] = (PyObject *)code;
    args[2] = first;
    for (int k = 0; k < nextra; k++) {
        args[3 + k] = extra[k];
    }
    for (int tool = 0; tool < PY_MONITORING_TOOL_IDS; tool++) {
        if (!(mask & (1u << tool))) {
            continue;
        }
        PyObject *callback = tools.callbacks[tool][event];
        if (callback == NULL) {
            continue;
        }
        Py_INCREF(callback);
        tstate->tracing++;
        PyObject *res = PyObject_Vectorcall(callback, args + 1,
                                            (size_t)(2 + nextra) | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
        tstate->tracing--;
        Py_DECREF(callback);
        if (res == NULL) {
            return -1;
        }
        if (res == &disable_sentinel && event < _PY_MONITORING_LOCAL_EVENTS) {
            disable_at(code, index, event, tool);
        }
        Py_DECREF(res);
    }
    return 0;
}

static inline int
frame_index(_PyInterpreterFrame *frame, _Py_CODEUNIT *instr)
{
    return (int)(instr - _PyCode_CODE(_PyFrame_GetCode(frame)));
}

static int
fire(PyThreadState *tstate, _PyInterpreterFrame *frame, _Py_CODEUNIT *instr, int event,
     PyObject *const *extra, int nextra)
{
    if (tstate->tracing) {
        return 0;
    }
    PyCodeObject *code = _PyFrame_GetCode(frame);
    _PyCoMonitoringData *data = code->_co_monitoring;
    if (data == NULL) {
        return 0;
    }
    int index = frame_index(frame, instr);
    uint8_t mask = data->active_tools[event];
    if (event < _PY_MONITORING_LOCAL_EVENTS && data->op_tools != NULL && index < data->ninstr &&
        event != PY_MONITORING_EVENT_STOP_ITERATION) {
        mask &= data->op_tools[index];
    }
    if (mask == 0) {
        return 0;
    }
    PyObject *offset = PyLong_FromLong(index * (long)sizeof(_Py_CODEUNIT));
    if (offset == NULL) {
        return -1;
    }
    int err = call_tools(tstate, code, index, event, mask, offset, extra, nextra);
    Py_DECREF(offset);
    return err;
}

int
_PyMonitoring_FireResume(PyThreadState *tstate, _PyInterpreterFrame *frame,
                         _Py_CODEUNIT *instr, int oparg)
{
    int event = (oparg & RESUME_OPARG_LOCATION_MASK) == RESUME_AT_FUNC_START
                    ? PY_MONITORING_EVENT_PY_START : PY_MONITORING_EVENT_PY_RESUME;
    return fire(tstate, frame, instr, event, NULL, 0);
}

int
_PyMonitoring_FireValue(PyThreadState *tstate, _PyInterpreterFrame *frame,
                        _Py_CODEUNIT *instr, int event, PyObject *value)
{
    return fire(tstate, frame, instr, event, &value, 1);
}

int
_PyMonitoring_FireCall(PyThreadState *tstate, _PyInterpreterFrame *frame,
                       _Py_CODEUNIT *instr, int event, PyObject *callable, PyObject *arg0)
{
    if (event != PY_MONITORING_EVENT_CALL) {
        /* C_RETURN and C_RAISE follow the CALL event's tools. */
        PyCodeObject *code = _PyFrame_GetCode(frame);
        _PyCoMonitoringData *data = code->_co_monitoring;
        if (tstate->tracing || data == NULL || data->op_tools == NULL) {
            return 0;
        }
        int index = frame_index(frame, instr);
        uint8_t mask = data->op_tools[index] & data->active_tools[PY_MONITORING_EVENT_CALL];
        if (mask == 0) {
            return 0;
        }
        PyObject *offset = PyLong_FromLong(index * (long)sizeof(_Py_CODEUNIT));
        if (offset == NULL) {
            return -1;
        }
        PyObject *extra[2] = {callable, arg0 != NULL ? arg0 : &missing_sentinel};
        int err = call_tools(tstate, code, index, event, mask, offset, extra, 2);
        Py_DECREF(offset);
        return err;
    }
    PyObject *extra[2] = {callable, arg0 != NULL ? arg0 : &missing_sentinel};
    return fire(tstate, frame, instr, event, extra, 2);
}

int
_PyMonitoring_FireJump(PyThreadState *tstate, _PyInterpreterFrame *frame,
                       _Py_CODEUNIT *instr, int event, _Py_CODEUNIT *dest)
{
    PyCodeObject *code = _PyFrame_GetCode(frame);
    if (!_PyMonitoring_CodeWants(code, event)) {
        return 0;
    }
    PyObject *to = PyLong_FromLong(frame_index(frame, dest) * (long)sizeof(_Py_CODEUNIT));
    if (to == NULL) {
        return -1;
    }
    int err = fire(tstate, frame, instr, event, &to, 1);
    Py_DECREF(to);
    return err;
}

static int
fire_line(PyThreadState *tstate, PyCodeObject *code, _PyCoMonitoringData *data,
          int index, _Py_CODEUNIT *prev)
{
    int line = data->lines[index];
    _Py_CODEUNIT *start = _PyCode_CODE(code);
    if (prev >= start && prev < start + data->ninstr) {
        int p = (int)(prev - start);
        /* Still on the same line: no event, unless we come from RESUME
           (entering or re-entering the frame). */
        if (p != index && data->lines[p] == line && data->base[p] != RESUME) {
            return 0;
        }
    }
    PyObject *line_o = PyLong_FromLong(line);
    if (line_o == NULL) {
        return -1;
    }
    int err = call_tools(tstate, code, index, PY_MONITORING_EVENT_LINE,
                         data->line_tools[index], line_o, NULL, 0);
    Py_DECREF(line_o);
    return err;
}

int
_PyMonitoring_BeforeInstruction(PyThreadState *tstate, _PyInterpreterFrame *frame,
                                _Py_CODEUNIT *instr, _Py_CODEUNIT *prev)
{
    PyCodeObject *code = _PyFrame_GetCode(frame);
    _PyCoMonitoringData *data = code->_co_monitoring;
    int index = frame_index(frame, instr);
    assert(data != NULL && data->base != NULL);
    if (!tstate->tracing && data->line_tools[index]) {
        if (fire_line(tstate, code, data, index, prev) < 0) {
            return -1;
        }
        if (frame->instr_ptr != instr) {
            return 0;   /* the tracer moved the frame (f_lineno was set) */
        }
        if (data->base == NULL) {
            /* A callback switched monitoring off: the stream is generic. */
            return _PyCode_CODE(code)[index].op.code;
        }
    }
    if (!tstate->tracing && data->insn_tools[index]) {
        PyObject *offset = PyLong_FromLong(index * (long)sizeof(_Py_CODEUNIT));
        if (offset == NULL) {
            return -1;
        }
        int err = call_tools(tstate, code, index, PY_MONITORING_EVENT_INSTRUCTION,
                             data->insn_tools[index], offset, NULL, 0);
        Py_DECREF(offset);
        if (err < 0) {
            return -1;
        }
        if (data->base == NULL) {
            return _PyCode_CODE(code)[index].op.code;
        }
    }
    return data->under[index];
}

void
_PyMonitoring_FireException(PyThreadState *tstate, _PyInterpreterFrame *frame,
                            _Py_CODEUNIT *instr, int event)
{
    if (tstate->tracing || !_PyMonitoring_CodeWants(_PyFrame_GetCode(frame), event)) {
        return;
    }
    PyObject *exc = PyErr_GetRaisedException();
    if (exc == NULL) {
        return;
    }
    if (fire(tstate, frame, instr, event, &exc, 1) < 0) {
        /* The callback's error replaces the one in flight. */
        Py_DECREF(exc);
        return;
    }
    PyErr_SetRaisedException(exc);
}

/* ---- The C-level API (also used by legacy tracing and _lsprof) ------------ */

int
_PyMonitoring_UseTool(int tool, PyObject *name)
{
    if (tools.names[tool] != NULL) {
        PyErr_Format(PyExc_ValueError, "tool %d is already in use", tool);
        return -1;
    }
    tools.names[tool] = Py_NewRef(name);
    return 0;
}

static int
clear_tool(int tool)
{
    int changed = 0;
    for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
        Py_CLEAR(tools.callbacks[tool][ev]);
        if (tools.global_tools[ev] & (1u << tool)) {
            tools.global_tools[ev] &= (uint8_t)~(1u << tool);
            changed = 1;
        }
    }
    tools.tool_epoch[tool]++;
    (void)changed;
    return monitoring_changed();
}

void
_PyMonitoring_FreeTool(int tool)
{
    if (clear_tool(tool) < 0) {
        PyErr_Clear();
    }
    Py_CLEAR(tools.names[tool]);
}

int
_PyMonitoring_SetGlobalEvents(int tool, uint32_t events)
{
    for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
        if (events & EVENT_BIT(ev)) {
            tools.global_tools[ev] |= (uint8_t)(1u << tool);
        }
        else {
            tools.global_tools[ev] &= (uint8_t)~(1u << tool);
        }
    }
    return monitoring_changed();
}

uint32_t
_PyMonitoring_GetGlobalEvents(int tool)
{
    uint32_t events = 0;
    for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
        if (tools.global_tools[ev] & (1u << tool)) {
            events |= EVENT_BIT(ev);
        }
    }
    return events;
}

int
_PyMonitoring_SetLocalEvents(int tool, PyCodeObject *code, uint32_t events)
{
    _PyCoMonitoringData *data = code_data(code);
    if (data == NULL) {
        return -1;
    }
    expire_local_events(data);
    int had_local = has_local_events(data);
    for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
        if (events & EVENT_BIT(ev)) {
            data->local_tools[ev] |= (uint8_t)(1u << tool);
        }
        else {
            data->local_tools[ev] &= (uint8_t)~(1u << tool);
        }
    }
    tools.local_users += has_local_events(data) - had_local;
    recompute_any_active();
#ifdef _Py_TIER2
    _PyExecutor_InvalidateAll();
#endif
    if (instrument_with(code, data) < 0) {
        return -1;
    }
    code->_co_instrumentation_version = _Py_instrumentation_version;
    return 0;
}

static uint32_t
local_events_of(PyCodeObject *code, int tool)
{
    _PyCoMonitoringData *data = code->_co_monitoring;
    uint32_t events = 0;
    if (data == NULL || data->tool_epoch[tool] != tools.tool_epoch[tool]) {
        return 0;
    }
    for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
        if (data->local_tools[ev] & (1u << tool)) {
            events |= EVENT_BIT(ev);
        }
    }
    return events;
}

int
_PyMonitoring_RegisterCallback(int tool, int event, PyObject *callback)
{
    Py_XSETREF(tools.callbacks[tool][event], Py_XNewRef(callback));
    return 0;
}

/* ---- The sys.monitoring module -------------------------------------------- */

static int
check_tool(PyObject *arg, int *tool)
{
    int t = PyLong_AsInt(arg);
    if (t == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (t < 0 || t >= PY_MONITORING_SYS_PROFILE_ID) {
        PyErr_Format(PyExc_ValueError, "invalid tool %d (must be between 0 and 5)", t);
        return -1;
    }
    *tool = t;
    return 0;
}

static int
check_tool_in_use(PyObject *arg, int *tool)
{
    if (check_tool(arg, tool) < 0) {
        return -1;
    }
    if (tools.names[*tool] == NULL) {
        PyErr_Format(PyExc_ValueError, "tool %d is not in use", *tool);
        return -1;
    }
    return 0;
}

static int
read_event_set(PyObject *arg, uint32_t allowed, const char *what, uint32_t *events)
{
    long value = PyLong_AsLong(arg);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (value < 0 || ((uint32_t)value & ~allowed) || (unsigned long)value > ALL_EVENTS) {
        PyErr_Format(PyExc_ValueError, "invalid %sevent set 0x%lx", what, value);
        return -1;
    }
    uint32_t ev = (uint32_t)value;
    if (ev & C_EVENTS) {
        /* C_RETURN and C_RAISE ride on CALL: only the three together. */
        uint32_t trio = C_EVENTS | EVENT_BIT(PY_MONITORING_EVENT_CALL);
        if ((ev & trio) != trio) {
            PyErr_SetString(PyExc_ValueError, "cannot set C_RETURN or C_RAISE events independently");
            return -1;
        }
        ev &= ~C_EVENTS;
    }
    *events = ev;
    return 0;
}

static PyObject *
mon_use_tool_id(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int tool;
    if (!_PyArg_CheckPositional("use_tool_id", nargs, 2, 2) || check_tool(args[0], &tool) < 0) {
        return NULL;
    }
    if (!PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_ValueError, "tool name must be a str");
        return NULL;
    }
    if (_PyMonitoring_UseTool(tool, args[1]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
mon_clear_tool_id(PyObject *module, PyObject *arg)
{
    int tool;
    if (check_tool(arg, &tool) < 0) {
        return NULL;
    }
    if (tools.names[tool] != NULL && clear_tool(tool) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
mon_free_tool_id(PyObject *module, PyObject *arg)
{
    int tool;
    if (check_tool(arg, &tool) < 0) {
        return NULL;
    }
    if (tools.names[tool] != NULL) {
        if (clear_tool(tool) < 0) {
            return NULL;
        }
        Py_CLEAR(tools.names[tool]);
    }
    Py_RETURN_NONE;
}

static PyObject *
mon_get_tool(PyObject *module, PyObject *arg)
{
    int tool;
    if (check_tool(arg, &tool) < 0) {
        return NULL;
    }
    return Py_NewRef(tools.names[tool] != NULL ? tools.names[tool] : Py_None);
}

static PyObject *
mon_register_callback(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int tool;
    if (!_PyArg_CheckPositional("register_callback", nargs, 3, 3) ||
        check_tool(args[0], &tool) < 0) {
        return NULL;
    }
    long ev = PyLong_AsLong(args[1]);
    if (ev == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (ev <= 0 || (ev & (ev - 1)) != 0) {
        PyErr_SetString(PyExc_ValueError, "The callback can only be set for one event at a time");
        return NULL;
    }
    int event = 0;
    while ((1L << event) != ev) {
        event++;
    }
    if (event >= _PY_MONITORING_EVENTS) {
        PyErr_Format(PyExc_ValueError, "invalid event %ld", ev);
        return NULL;
    }
    PyObject *callback = Py_IsNone(args[2]) ? NULL : args[2];
    PyObject *old = Py_XNewRef(tools.callbacks[tool][event]);
    _PyMonitoring_RegisterCallback(tool, event, callback);
    if (event == PY_MONITORING_EVENT_BRANCH) {
        /* BRANCH is the union of the two directed events. */
        _PyMonitoring_RegisterCallback(tool, PY_MONITORING_EVENT_BRANCH_LEFT, callback);
        _PyMonitoring_RegisterCallback(tool, PY_MONITORING_EVENT_BRANCH_RIGHT, callback);
    }
    return old != NULL ? old : Py_NewRef(Py_None);
}

static uint32_t
expand_branch(uint32_t events)
{
    if (events & EVENT_BIT(PY_MONITORING_EVENT_BRANCH)) {
        events &= ~EVENT_BIT(PY_MONITORING_EVENT_BRANCH);
        events |= EVENT_BIT(PY_MONITORING_EVENT_BRANCH_LEFT) | EVENT_BIT(PY_MONITORING_EVENT_BRANCH_RIGHT);
    }
    return events;
}

static PyObject *
mon_get_events(PyObject *module, PyObject *arg)
{
    int tool;
    if (check_tool(arg, &tool) < 0) {
        return NULL;
    }
    return PyLong_FromUnsignedLong(_PyMonitoring_GetGlobalEvents(tool));
}

static PyObject *
mon_set_events(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int tool;
    uint32_t events;
    if (!_PyArg_CheckPositional("set_events", nargs, 2, 2) || check_tool_in_use(args[0], &tool) < 0 ||
        read_event_set(args[1], ALL_EVENTS, "", &events) < 0) {
        return NULL;
    }
    if (_PyMonitoring_SetGlobalEvents(tool, expand_branch(events)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
mon_get_local_events(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int tool;
    if (!_PyArg_CheckPositional("get_local_events", nargs, 2, 2) || check_tool(args[0], &tool) < 0) {
        return NULL;
    }
    if (!PyCode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "code must be a code object");
        return NULL;
    }
    return PyLong_FromUnsignedLong(local_events_of((PyCodeObject *)args[1], tool));
}

static PyObject *
mon_set_local_events(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int tool;
    uint32_t events;
    if (!_PyArg_CheckPositional("set_local_events", nargs, 3, 3) || check_tool_in_use(args[0], &tool) < 0) {
        return NULL;
    }
    if (!PyCode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "code must be a code object");
        return NULL;
    }
    uint32_t allowed = LOCAL_EVENTS | EVENT_BIT(PY_MONITORING_EVENT_BRANCH);
    if (read_event_set(args[2], allowed, "local ", &events) < 0) {
        return NULL;
    }
    if (_PyMonitoring_SetLocalEvents(tool, (PyCodeObject *)args[1], expand_branch(events)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
mon_restart_events(PyObject *module, PyObject *unused)
{
    tools.restart_epoch++;
    if (monitoring_changed() < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
mon_all_events(PyObject *module, PyObject *unused)
{
    PyObject *result = PyDict_New();
    if (result == NULL) {
        return NULL;
    }
    for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
        uint8_t mask = tools.global_tools[ev];
        if (mask == 0) {
            continue;
        }
        PyObject *m = PyLong_FromLong(mask);
        if (m == NULL || PyDict_SetItemString(result, event_names[ev], m) < 0) {
            Py_XDECREF(m);
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(m);
    }
    return result;
}

static PyMethodDef monitoring_methods[] = {
    {"use_tool_id", _PyCFunction_CAST(mon_use_tool_id), METH_FASTCALL,
     "use_tool_id(tool_id, name, /)\n--\n\nClaim a tool id under a name."},
    {"clear_tool_id", mon_clear_tool_id, METH_O,
     "clear_tool_id(tool_id, /)\n--\n\nDrop every event and callback of a tool, keeping its id."},
    {"free_tool_id", mon_free_tool_id, METH_O,
     "free_tool_id(tool_id, /)\n--\n\nClear a tool and give its id back."},
    {"get_tool", mon_get_tool, METH_O,
     "get_tool(tool_id, /)\n--\n\nThe name of the tool holding an id, or None."},
    {"register_callback", _PyCFunction_CAST(mon_register_callback), METH_FASTCALL,
     "register_callback(tool_id, event, func, /)\n--\n\n"
     "Install func for one event; returns the callback it replaces."},
    {"get_events", mon_get_events, METH_O,
     "get_events(tool_id, /)\n--\n\nThe tool's global event set."},
    {"set_events", _PyCFunction_CAST(mon_set_events), METH_FASTCALL,
     "set_events(tool_id, event_set, /)\n--\n\nReplace the tool's global event set."},
    {"get_local_events", _PyCFunction_CAST(mon_get_local_events), METH_FASTCALL,
     "get_local_events(tool_id, code, /)\n--\n\nThe tool's event set for one code object."},
    {"set_local_events", _PyCFunction_CAST(mon_set_local_events), METH_FASTCALL,
     "set_local_events(tool_id, code, event_set, /)\n--\n\nReplace the tool's events for one code object."},
    {"restart_events", mon_restart_events, METH_NOARGS,
     "restart_events()\n--\n\nRe-enable every event a callback turned off with DISABLE."},
    {"_all_events", mon_all_events, METH_NOARGS,
     "_all_events()\n--\n\nFor tests: event name -> mask of tools that set it globally."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef monitoring_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sys.monitoring",
    .m_doc = "Low-overhead execution events for debuggers, profilers and coverage tools (PEP 669).",
    .m_size = -1,
    .m_methods = monitoring_methods,
};

static PyObject *
make_events_namespace(void)
{
    PyObject *kwds = PyDict_New();
    if (kwds == NULL) {
        return NULL;
    }
    for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
        PyObject *v = PyLong_FromUnsignedLong(EVENT_BIT(ev));
        if (v == NULL || PyDict_SetItemString(kwds, event_names[ev], v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(kwds);
            return NULL;
        }
        Py_DECREF(v);
    }
    PyObject *zero = PyLong_FromLong(0);
    if (zero == NULL || PyDict_SetItemString(kwds, "NO_EVENTS", zero) < 0) {
        Py_XDECREF(zero);
        Py_DECREF(kwds);
        return NULL;
    }
    Py_DECREF(zero);
    PyObject *ns = _PyNamespace_New(kwds);
    Py_DECREF(kwds);
    return ns;
}

PyObject *
_PyMonitoring_MakeModule(void)
{
    PyObject *mod = PyModule_Create(&monitoring_module);
    if (mod == NULL) {
        return NULL;
    }
    if (PyModule_Add(mod, "events", make_events_namespace()) < 0 ||
        PyModule_AddObjectRef(mod, "DISABLE", &disable_sentinel) < 0 ||
        PyModule_AddObjectRef(mod, "MISSING", &missing_sentinel) < 0 ||
        PyModule_AddIntConstant(mod, "DEBUGGER_ID", PY_MONITORING_DEBUGGER_ID) < 0 ||
        PyModule_AddIntConstant(mod, "COVERAGE_ID", PY_MONITORING_COVERAGE_ID) < 0 ||
        PyModule_AddIntConstant(mod, "PROFILER_ID", PY_MONITORING_PROFILER_ID) < 0 ||
        PyModule_AddIntConstant(mod, "OPTIMIZER_ID", PY_MONITORING_OPTIMIZER_ID) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}

void
_PyMonitoring_Fini(void)
{
    _PyLegacyTracing_Fini();
    for (int tool = 0; tool < PY_MONITORING_TOOL_IDS; tool++) {
        if (tools.names[tool] != NULL) {
            _PyMonitoring_FreeTool(tool);
        }
        for (int ev = 0; ev < _PY_MONITORING_EVENTS; ev++) {
            Py_CLEAR(tools.callbacks[tool][ev]);
        }
    }
}
