/* _lsprof: the deterministic profiler behind cProfile.

   A Profiler claims sys.monitoring's PROFILER_ID while enabled and listens
   to Python starts, resumes, returns, yields and unwinds, and to CALL /
   C_RETURN / C_RAISE for functions written in C.  Each profiled function
   (a code object, or a C function keyed by its PyMethodDef) gets a record;
   a stack of running calls charges elapsed time to them:

     inlinetime  time spent in the function itself, not in its callees
     totaltime   time from entry to exit, counted only for the outermost
                 of recursive activations
     callcount   every call; reccallcount the calls made while the same
                 function was already running

   With subcalls on, the same numbers are kept per (caller, callee) pair.
   getstats() hands them out as profiler_entry / profiler_subentry. */

#include "Python.h"
#include "pycore_instruments.h"
#include "pycore_object.h"
#include <time.h>

/* ---- Records ---------------------------------------------------------------- */

typedef struct {
    long long callcount;
    long long reccallcount;
    long long totaltime;     /* timer units */
    long long inlinetime;
    long active;             /* activations now on the stack */
} call_totals;

typedef struct {
    Py_ssize_t callee;       /* index of the called function's record */
    call_totals totals;
} subcall;

typedef struct {
    PyObject *label;         /* code object, or a str naming a C function */
    call_totals totals;
    subcall *subcalls;
    Py_ssize_t nsubcalls;
    Py_ssize_t subcalls_cap;
} func_record;

/* One running call. */
typedef struct {
    Py_ssize_t func;         /* record index */
    Py_ssize_t caller;       /* record index of the caller, -1 at the top */
    long long started;
    long long in_callees;    /* time its callees used so far */
    int is_c;
} running_call;

typedef struct {
    PyObject_HEAD
    PyObject *timer;         /* NULL: the built-in monotonic clock */
    double timeunit;
    int subcalls;
    int builtins;
    int enabled;
    PyObject *index;         /* key -> record index (PyLong) */
    func_record *records;
    Py_ssize_t nrecords, records_cap;
    running_call *stack;
    Py_ssize_t depth, stack_cap;
} ProfilerObject;

static PyTypeObject Profiler_Type;
static PyTypeObject EntryType;
static PyTypeObject SubEntryType;

/* ---- Time --------------------------------------------------------------------- */

static long long
now(ProfilerObject *p)
{
    if (p->timer == NULL) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    }
    PyObject *t = PyObject_CallNoArgs(p->timer);
    if (t == NULL) {
        PyErr_WriteUnraisable(p->timer);
        return 0;
    }
    long long value;
    if (PyFloat_Check(t)) {
        /* seconds: keep nanoseconds */
        value = (long long)(PyFloat_AS_DOUBLE(t) * 1e9);
    }
    else {
        value = PyLong_AsLongLong(t);
        if (value == -1 && PyErr_Occurred()) {
            PyErr_WriteUnraisable(p->timer);
            value = 0;
        }
    }
    Py_DECREF(t);
    return value;
}

/* Timer units to seconds. */
static double
seconds(ProfilerObject *p, long long units)
{
    if (p->timer == NULL) {
        return (double)units * 1e-9;
    }
    if (p->timeunit > 0.0) {
        return (double)units * p->timeunit;
    }
    return (double)units * 1e-9;   /* float timers were stored in ns */
}

/* ---- Records ---------------------------------------------------------------- */

static Py_ssize_t
record_for(ProfilerObject *p, PyObject *key, PyObject *label)
{
    PyObject *found = PyDict_GetItemWithError(p->index, key);
    if (found != NULL) {
        return PyLong_AsSsize_t(found);
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    if (p->nrecords == p->records_cap) {
        Py_ssize_t cap = p->records_cap ? p->records_cap * 2 : 32;
        func_record *grown = PyMem_Realloc(p->records, (size_t)cap * sizeof(func_record));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        p->records = grown;
        p->records_cap = cap;
    }
    PyObject *idx = PyLong_FromSsize_t(p->nrecords);
    if (idx == NULL || PyDict_SetItem(p->index, key, idx) < 0) {
        Py_XDECREF(idx);
        return -1;
    }
    Py_DECREF(idx);
    func_record *r = &p->records[p->nrecords];
    memset(r, 0, sizeof(*r));
    r->label = Py_NewRef(label);
    return p->nrecords++;
}

static subcall *
subcall_for(func_record *caller, Py_ssize_t callee)
{
    for (Py_ssize_t i = 0; i < caller->nsubcalls; i++) {
        if (caller->subcalls[i].callee == callee) {
            return &caller->subcalls[i];
        }
    }
    if (caller->nsubcalls == caller->subcalls_cap) {
        Py_ssize_t cap = caller->subcalls_cap ? caller->subcalls_cap * 2 : 4;
        subcall *grown = PyMem_Realloc(caller->subcalls, (size_t)cap * sizeof(subcall));
        if (grown == NULL) {
            return NULL;
        }
        caller->subcalls = grown;
        caller->subcalls_cap = cap;
    }
    subcall *s = &caller->subcalls[caller->nsubcalls++];
    memset(s, 0, sizeof(*s));
    s->callee = callee;
    return s;
}

static void
clear_records(ProfilerObject *p)
{
    for (Py_ssize_t i = 0; i < p->nrecords; i++) {
        Py_CLEAR(p->records[i].label);
        PyMem_Free(p->records[i].subcalls);
    }
    PyMem_Free(p->records);
    p->records = NULL;
    p->nrecords = p->records_cap = 0;
    p->depth = 0;
    if (p->index != NULL) {
        PyDict_Clear(p->index);
    }
}

/* ---- The call stack ------------------------------------------------------------ */

static void
enter(ProfilerObject *p, Py_ssize_t func, int is_c)
{
    if (p->depth == p->stack_cap) {
        Py_ssize_t cap = p->stack_cap ? p->stack_cap * 2 : 64;
        running_call *grown = PyMem_Realloc(p->stack, (size_t)cap * sizeof(running_call));
        if (grown == NULL) {
            return;   /* out of memory: the call goes unprofiled */
        }
        p->stack = grown;
        p->stack_cap = cap;
    }
    running_call *c = &p->stack[p->depth++];
    c->func = func;
    c->caller = p->depth > 1 ? p->stack[p->depth - 2].func : -1;
    c->is_c = is_c;
    c->in_callees = 0;
    func_record *r = &p->records[func];
    r->totals.callcount++;
    if (r->totals.active++ > 0) {
        r->totals.reccallcount++;
    }
    if (p->subcalls && c->caller >= 0) {
        subcall *s = subcall_for(&p->records[c->caller], func);
        if (s != NULL) {
            s->totals.callcount++;
            if (s->totals.active++ > 0) {
                s->totals.reccallcount++;
            }
        }
    }
    c->started = now(p);
}

static void
leave(ProfilerObject *p)
{
    long long end = now(p);
    running_call *c = &p->stack[--p->depth];
    long long total = end - c->started;
    long long inline_time = total - c->in_callees;
    func_record *r = &p->records[c->func];
    r->totals.inlinetime += inline_time;
    if (--r->totals.active == 0) {
        r->totals.totaltime += total;
    }
    if (p->subcalls && c->caller >= 0) {
        subcall *s = subcall_for(&p->records[c->caller], c->func);
        if (s != NULL) {
            s->totals.inlinetime += inline_time;
            if (--s->totals.active == 0) {
                s->totals.totaltime += total;
            }
        }
    }
    if (p->depth > 0) {
        p->stack[p->depth - 1].in_callees += total;
    }
}

/* ---- C function labels ----------------------------------------------------------- */

/* A C function's record key and label: builtins by their method table
   entry, method descriptors by the descriptor. */
static PyObject *
c_label(PyObject *callable, PyObject **key)
{
    if (PyCFunction_Check(callable)) {
        PyCFunctionObject *fn = (PyCFunctionObject *)callable;
        PyObject *self = fn->m_self;
        *key = PyLong_FromVoidPtr(fn->m_ml);
        if (*key == NULL) {
            return NULL;
        }
        if (self == NULL || PyModule_Check(self)) {
            PyObject *mod = fn->m_module;
            if (mod != NULL && PyUnicode_Check(mod)) {
                return PyUnicode_FromFormat("<built-in method %U.%s>", mod, fn->m_ml->ml_name);
            }
            if (self != NULL) {
                const char *modname = PyModule_GetName(self);
                if (modname != NULL) {
                    return PyUnicode_FromFormat("<built-in method %s.%s>", modname, fn->m_ml->ml_name);
                }
                PyErr_Clear();
            }
            return PyUnicode_FromFormat("<built-in method %s>", fn->m_ml->ml_name);
        }
        return PyUnicode_FromFormat("<built-in method %s of %s object>", fn->m_ml->ml_name,
                                    Py_TYPE(self)->tp_name);
    }
    *key = Py_NewRef(callable);
    return PyObject_Repr(callable);
}

static int
is_c_function(PyObject *callable)
{
    return PyCFunction_Check(callable) || Py_IS_TYPE(callable, &PyMethodDescr_Type);
}

/* ---- Monitoring callbacks ---------------------------------------------------------- */

static PyObject *
on_py_start(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    ProfilerObject *p = (ProfilerObject *)self;
    Py_ssize_t func = record_for(p, args[0], args[0]);
    if (func < 0) {
        return NULL;
    }
    enter(p, func, 0);
    Py_RETURN_NONE;
}

static PyObject *
on_py_return(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    ProfilerObject *p = (ProfilerObject *)self;
    /* C calls left open by a Python exception inside them are closed too. */
    while (p->depth > 0 && p->stack[p->depth - 1].is_c) {
        leave(p);
    }
    if (p->depth > 0) {
        leave(p);
    }
    Py_RETURN_NONE;
}

static PyObject *
on_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    ProfilerObject *p = (ProfilerObject *)self;
    PyObject *callable = args[2];
    if (!p->builtins || !is_c_function(callable)) {
        Py_RETURN_NONE;
    }
    PyObject *key;
    PyObject *label = c_label(callable, &key);
    if (label == NULL) {
        return NULL;
    }
    Py_ssize_t func = record_for(p, key, label);
    Py_DECREF(key);
    Py_DECREF(label);
    if (func < 0) {
        return NULL;
    }
    enter(p, func, 1);
    Py_RETURN_NONE;
}

static PyObject *
on_c_return(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    ProfilerObject *p = (ProfilerObject *)self;
    if (p->builtins && is_c_function(args[2]) && p->depth > 0 && p->stack[p->depth - 1].is_c) {
        leave(p);
    }
    Py_RETURN_NONE;
}

static PyMethodDef callback_defs[] = {
    {"_pystart_callback", _PyCFunction_CAST(on_py_start), METH_FASTCALL, NULL},
    {"_pyreturn_callback", _PyCFunction_CAST(on_py_return), METH_FASTCALL, NULL},
    {"_ccall_callback", _PyCFunction_CAST(on_call), METH_FASTCALL, NULL},
    {"_creturn_callback", _PyCFunction_CAST(on_c_return), METH_FASTCALL, NULL},
};

static const struct {
    int event;
    int def;
} callback_events[] = {
    {PY_MONITORING_EVENT_PY_START, 0},
    {PY_MONITORING_EVENT_PY_RESUME, 0},
    {PY_MONITORING_EVENT_PY_THROW, 0},
    {PY_MONITORING_EVENT_PY_RETURN, 1},
    {PY_MONITORING_EVENT_PY_YIELD, 1},
    {PY_MONITORING_EVENT_PY_UNWIND, 1},
    {PY_MONITORING_EVENT_CALL, 2},
    {PY_MONITORING_EVENT_C_RETURN, 3},
    {PY_MONITORING_EVENT_C_RAISE, 3},
};

/* ---- Profiler methods ---------------------------------------------------------------- */

static int
read_flag(PyObject *value, int *flag)
{
    if (value == NULL) {
        return 0;
    }
    int truth = PyObject_IsTrue(value);
    if (truth < 0) {
        return -1;
    }
    *flag = truth;
    return 0;
}

static PyObject *
profiler_enable(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"subcalls", "builtins", NULL};
    ProfilerObject *p = (ProfilerObject *)self;
    PyObject *subcalls = NULL, *builtins = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:enable", kwlist, &subcalls, &builtins) ||
        read_flag(subcalls, &p->subcalls) < 0 || read_flag(builtins, &p->builtins) < 0) {
        return NULL;
    }
    if (p->enabled) {
        Py_RETURN_NONE;
    }
    PyObject *name = PyUnicode_FromString("cProfile");
    if (name == NULL) {
        return NULL;
    }
    int err = _PyMonitoring_UseTool(PY_MONITORING_PROFILER_ID, name);
    Py_DECREF(name);
    if (err < 0) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "Another profiling tool is already active");
        return NULL;
    }
    uint32_t events = 0;
    for (size_t i = 0; i < Py_ARRAY_LENGTH(callback_events); i++) {
        PyObject *fn = PyCFunction_NewEx(&callback_defs[callback_events[i].def], self, NULL);
        if (fn == NULL) {
            _PyMonitoring_FreeTool(PY_MONITORING_PROFILER_ID);
            return NULL;
        }
        _PyMonitoring_RegisterCallback(PY_MONITORING_PROFILER_ID, callback_events[i].event, fn);
        Py_DECREF(fn);
        if (callback_events[i].event < PY_MONITORING_EVENT_C_RETURN) {
            events |= 1u << callback_events[i].event;
        }
    }
    if (_PyMonitoring_SetGlobalEvents(PY_MONITORING_PROFILER_ID, events) < 0) {
        _PyMonitoring_FreeTool(PY_MONITORING_PROFILER_ID);
        return NULL;
    }
    p->enabled = 1;
    Py_RETURN_NONE;
}

static void
stop(ProfilerObject *p)
{
    if (!p->enabled) {
        return;
    }
    p->enabled = 0;
    _PyMonitoring_FreeTool(PY_MONITORING_PROFILER_ID);
    /* Calls still open (disable() itself, and its callers) end now. */
    while (p->depth > 0) {
        leave(p);
    }
}

static PyObject *
profiler_disable(PyObject *self, PyObject *unused)
{
    stop((ProfilerObject *)self);
    Py_RETURN_NONE;
}

static PyObject *
profiler_clear(PyObject *self, PyObject *unused)
{
    ProfilerObject *p = (ProfilerObject *)self;
    clear_records(p);
    Py_RETURN_NONE;
}

static PyObject *
make_stat(ProfilerObject *p, PyTypeObject *type, PyObject *label, call_totals *t, PyObject *calls)
{
    PyObject *v = PyStructSequence_New(type);
    if (v == NULL) {
        Py_XDECREF(calls);
        return NULL;
    }
    PyStructSequence_SetItem(v, 0, Py_NewRef(label));
    PyStructSequence_SetItem(v, 1, PyLong_FromLongLong(t->callcount));
    PyStructSequence_SetItem(v, 2, PyLong_FromLongLong(t->reccallcount));
    PyStructSequence_SetItem(v, 3, PyFloat_FromDouble(seconds(p, t->totaltime)));
    PyStructSequence_SetItem(v, 4, PyFloat_FromDouble(seconds(p, t->inlinetime)));
    if (calls != NULL) {
        PyStructSequence_SetItem(v, 5, calls);
    }
    for (Py_ssize_t i = 0; i < (calls != NULL ? 6 : 5); i++) {
        if (PyStructSequence_GetItem(v, i) == NULL) {
            Py_DECREF(v);
            return NULL;
        }
    }
    return v;
}

static PyObject *
subcall_list(ProfilerObject *p, func_record *r)
{
    if (r->nsubcalls == 0) {
        return Py_NewRef(Py_None);
    }
    PyObject *list = PyList_New(0);
    for (Py_ssize_t i = 0; list != NULL && i < r->nsubcalls; i++) {
        subcall *s = &r->subcalls[i];
        PyObject *item = make_stat(p, &SubEntryType, p->records[s->callee].label, &s->totals, NULL);
        if (item == NULL || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(item);
    }
    return list;
}

static PyObject *
profiler_getstats(PyObject *self, PyObject *unused)
{
    ProfilerObject *p = (ProfilerObject *)self;
    PyObject *result = PyList_New(0);
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < p->nrecords; i++) {
        func_record *r = &p->records[i];
        PyObject *calls = subcall_list(p, r);
        if (calls == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyObject *entry = make_stat(p, &EntryType, r->label, &r->totals, calls);
        if (entry == NULL || PyList_Append(result, entry) < 0) {
            Py_XDECREF(entry);
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(entry);
    }
    return result;
}

static PyMethodDef profiler_methods[] = {
    {"enable", _PyCFunction_CAST(profiler_enable), METH_VARARGS | METH_KEYWORDS,
     "enable(subcalls=True, builtins=True)\n--\n\n"
     "Start collecting: per (caller, callee) figures with subcalls, C functions with builtins."},
    {"disable", profiler_disable, METH_NOARGS, "disable()\n--\n\nStop collecting; the figures stay."},
    {"clear", profiler_clear, METH_NOARGS, "clear()\n--\n\nForget everything collected."},
    {"getstats", profiler_getstats, METH_NOARGS,
     "getstats()\n--\n\nA list of profiler_entry, one per function seen, with their subcalls."},
    {NULL, NULL, 0, NULL},
};

static int
profiler_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"timer", "timeunit", "subcalls", "builtins", NULL};
    ProfilerObject *p = (ProfilerObject *)self;
    PyObject *timer = NULL, *subcalls = NULL, *builtins = NULL;
    double timeunit = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OdOO:Profiler", kwlist,
                                     &timer, &timeunit, &subcalls, &builtins)) {
        return -1;
    }
    p->subcalls = 1;
    p->builtins = 1;
    if (read_flag(subcalls, &p->subcalls) < 0 || read_flag(builtins, &p->builtins) < 0) {
        return -1;
    }
    if (timer != NULL && !Py_IsNone(timer) && !PyCallable_Check(timer)) {
        PyErr_SetString(PyExc_TypeError, "timer must be callable");
        return -1;
    }
    Py_XSETREF(p->timer, (timer != NULL && !Py_IsNone(timer)) ? Py_NewRef(timer) : NULL);
    p->timeunit = timeunit;
    if (p->index == NULL) {
        p->index = PyDict_New();
        if (p->index == NULL) {
            return -1;
        }
    }
    return 0;
}

static int
profiler_traverse(PyObject *self, visitproc visit, void *arg)
{
    ProfilerObject *p = (ProfilerObject *)self;
    Py_VISIT(p->timer);
    Py_VISIT(p->index);
    for (Py_ssize_t i = 0; i < p->nrecords; i++) {
        Py_VISIT(p->records[i].label);
    }
    return 0;
}

static int
profiler_clear_refs(PyObject *self)
{
    ProfilerObject *p = (ProfilerObject *)self;
    stop(p);
    clear_records(p);
    Py_CLEAR(p->timer);
    Py_CLEAR(p->index);
    return 0;
}

static void
profiler_dealloc(PyObject *self)
{
    ProfilerObject *p = (ProfilerObject *)self;
    PyObject_GC_UnTrack(self);
    profiler_clear_refs(self);
    PyMem_Free(p->stack);
    Py_TYPE(self)->tp_free(self);
}

static PyTypeObject Profiler_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_lsprof.Profiler",
    .tp_basicsize = sizeof(ProfilerObject),
    .tp_dealloc = profiler_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Profiler(timer=None, timeunit=None, subcalls=True, builtins=True)\n\n"
              "Deterministic profiler: counts calls and measures the time spent in every\n"
              "function while enabled.  timer() returns the current time (an int in units\n"
              "of timeunit seconds, or a float in seconds); the default is a monotonic clock.",
    .tp_traverse = profiler_traverse,
    .tp_clear = profiler_clear_refs,
    .tp_methods = profiler_methods,
    .tp_init = profiler_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = PyType_GenericNew,
    .tp_free = PyObject_GC_Del,
};

/* ---- Result records ------------------------------------------------------------------ */

static PyStructSequence_Field entry_fields[] = {
    {"code", "the code object, or a string naming the C function"},
    {"callcount", "number of calls"},
    {"reccallcount", "number of calls made while already running"},
    {"totaltime", "seconds from entry to exit (outermost activations)"},
    {"inlinetime", "seconds spent in the function's own code"},
    {"calls", "list of profiler_subentry for its callees, or None"},
    {NULL, NULL},
};

static PyStructSequence_Field subentry_fields[] = {
    {"code", "the callee: code object or string naming a C function"},
    {"callcount", "calls made from this caller"},
    {"reccallcount", "those made while the callee was already running"},
    {"totaltime", "seconds in the callee, callees included"},
    {"inlinetime", "seconds in the callee's own code"},
    {NULL, NULL},
};

static PyStructSequence_Desc entry_desc = {
    "_lsprof.profiler_entry", "One profiled function: its counts and times.", entry_fields, 6,
};

static PyStructSequence_Desc subentry_desc = {
    "_lsprof.profiler_subentry", "One callee of a profiled function, as called from it.",
    subentry_fields, 5,
};

static struct PyModuleDef lsprof_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_lsprof",
    .m_doc = "Fast profiler (the engine of cProfile).",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__lsprof(void)
{
    static int types_ready;
    if (!types_ready) {
        if (PyStructSequence_InitType2(&EntryType, &entry_desc) < 0 ||
            _PyStaticType_InitBuiltin(&EntryType) < 0 ||
            PyStructSequence_InitType2(&SubEntryType, &subentry_desc) < 0 ||
            _PyStaticType_InitBuiltin(&SubEntryType) < 0 ||
            _PyStaticType_InitBuiltin(&Profiler_Type) < 0) {
            return NULL;
        }
        types_ready = 1;
    }
    PyObject *mod = PyModule_Create(&lsprof_module);
    if (mod == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(mod, "Profiler", (PyObject *)&Profiler_Type) < 0 ||
        PyModule_AddObjectRef(mod, "profiler_entry", (PyObject *)&EntryType) < 0 ||
        PyModule_AddObjectRef(mod, "profiler_subentry", (PyObject *)&SubEntryType) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
