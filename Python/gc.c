/* The cycle collector.

   Reference counting frees everything except garbage cycles.  Every
   container object (Py_TPFLAGS_HAVE_GC) is preceded by a PyGC_Head that
   links it into the list of tracked objects.  A collection:

   1. copies each tracked object's reference count into a scratch array;
   2. subtracts the references tracked objects hold to each other (found
      with tp_traverse), leaving only references from outside the set;
   3. marks everything reachable from objects that still have outside
      references; the rest is garbage kept alive only by cycles;
   4. runs finalizers (tp_finalize) on the garbage once, and if any ran,
      leaves the garbage for the next collection (they may have resurrected
      something);
   5. otherwise breaks the cycles with tp_clear, which frees them.

   Two generations.  Newly tracked objects go on the young list; a young
   collection scans only that list (references from old objects count as
   outside references, so they keep young objects alive) and moves the
   survivors to the old list.  Once the old list has grown by a quarter
   since the last full collection (and by at least ten young collections'
   worth of allocations), the next collection scans everything,
   which keeps the total work linear in allocations while most collections
   touch only recent objects.  Collections are requested by allocation
   counts and run at the next eval-breaker check, never inside an
   allocation, so no object is ever half-built when the collector looks at
   it. */

#include "Python.h"
#include "pycore_floatobject.h"  /* _PyFloat_ClearFreeList */
#include "pycore_gc.h"
#include "pycore_long.h"         /* _PyLong_ClearFreeList */
#include "pycore_object.h"
#include "pycore_ceval.h"
#include "pycore_pystate.h"
#include "pycore_stress.h"

#define GC_COLLECTING_FLAG ((uintptr_t)1) /* in _gc_prev while collecting */
#define GC_FINALIZED_FLAG _PyGC_PREV_MASK_FINALIZED /* in _gc_prev: tp_finalize ran */
#define GC_FLAG_MASK _PyGC_PREV_MASK_FLAGS
#define GC_DEFAULT_THRESHOLD 2000

static inline struct _gc_runtime_state *
gc_state(void)
{
    return &_PyInterpreterState_GET()->gc;
}

static void
list_init(PyGC_Head *list)
{
    list->_gc_next = (uintptr_t)list;
    list->_gc_prev = (uintptr_t)list;
}

void
_PyGC_InitState(struct _gc_runtime_state *gcstate)
{
    list_init(&gcstate->young);
    list_init(&gcstate->old);
    list_init(&gcstate->permanent);
    gcstate->threshold = GC_DEFAULT_THRESHOLD;
    gcstate->enabled = 1;
}

static inline PyGC_Head *
gc_prev(PyGC_Head *g)
{
    return (PyGC_Head *)(g->_gc_prev & ~GC_FLAG_MASK);
}

static inline void
gc_set_prev(PyGC_Head *g, PyGC_Head *prev)
{
    g->_gc_prev = (uintptr_t)prev | (g->_gc_prev & GC_FLAG_MASK);
}

/* ---- Allocation and tracking ---------------------------------------------------- */

/* The stress build collects after every allocation (pycore_stress.h); the
   threshold gc.get_threshold() reports stays the ordinary one. */
static inline int
collection_due(struct _gc_runtime_state *gcstate)
{
    return gcstate->enabled && !gcstate->collecting
           && (_Py_STRESS || gcstate->count > gcstate->threshold);
}

static PyObject *
gc_alloc(size_t basicsize)
{
    if (basicsize > (size_t)PY_SSIZE_T_MAX - sizeof(PyGC_Head)) {
        return PyErr_NoMemory();
    }
    PyGC_Head *g = PyObject_Malloc(sizeof(PyGC_Head) + basicsize);
    if (g == NULL) {
        return PyErr_NoMemory();
    }
    g->_gc_next = 0;
    g->_gc_prev = 0;
    PyThreadState *tstate = _PyThreadState_GET();
    struct _gc_runtime_state *gcstate = &tstate->interp->gc;
    gcstate->count++;
    if (collection_due(gcstate)) {
        _Py_set_eval_breaker_bit(tstate, _PY_GC_SCHEDULED_BIT);
    }
    return _Py_FROM_GC(g);
}

PyObject *
_PyObject_GC_New(PyTypeObject *tp)
{
    PyObject *op = gc_alloc((size_t)tp->tp_basicsize);
    if (op != NULL) {
        _PyObject_Init(op, tp);
    }
    return op;
}

PyVarObject *
_PyObject_GC_NewVar(PyTypeObject *tp, Py_ssize_t nitems)
{
    if (nitems < 0) {
        PyErr_BadInternalCall();
        return NULL;
    }
    if (tp->tp_itemsize != 0 && (size_t)nitems > ((size_t)PY_SSIZE_T_MAX - (size_t)tp->tp_basicsize) /
                                                      (size_t)tp->tp_itemsize) {
        PyErr_NoMemory();
        return NULL;
    }
    PyVarObject *op = (PyVarObject *)gc_alloc(_PyObject_VAR_SIZE(tp, nitems));
    if (op != NULL) {
        _PyObject_InitVar(op, tp, nitems);
    }
    return op;
}

PyVarObject *
_PyObject_GC_Resize(PyVarObject *op, Py_ssize_t nitems)
{
    assert(!_PyObject_GC_IS_TRACKED((PyObject *)op));
    size_t size = _PyObject_VAR_SIZE(Py_TYPE(op), nitems);
    if (size > (size_t)PY_SSIZE_T_MAX - sizeof(PyGC_Head)) {
        PyErr_NoMemory();
        return NULL;
    }
    PyGC_Head *g = PyObject_Realloc(_Py_AS_GC(op), sizeof(PyGC_Head) + size);
    if (g == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    op = (PyVarObject *)_Py_FROM_GC(g);
    Py_SET_SIZE(op, nitems);
    return op;
}

void
PyObject_GC_Track(void *op_raw)
{
    PyObject *op = (PyObject *)op_raw;
    PyGC_Head *g = _Py_AS_GC(op);
    if (g->_gc_next != 0) {
        Py_FatalError("object already tracked by the garbage collector");
    }
    PyGC_Head *head = &gc_state()->young;
    PyGC_Head *last = gc_prev(head);
    g->_gc_next = (uintptr_t)head;
    gc_set_prev(g, last);
    last->_gc_next = (uintptr_t)g;
    gc_set_prev(head, g);
}

void
PyObject_GC_UnTrack(void *op_raw)
{
    PyGC_Head *g = _Py_AS_GC((PyObject *)op_raw);
    if (g->_gc_next == 0) {
        return;
    }
    PyGC_Head *prev = gc_prev(g);
    PyGC_Head *next = (PyGC_Head *)g->_gc_next;
    prev->_gc_next = (uintptr_t)next;
    gc_set_prev(next, prev);
    g->_gc_next = 0;
    g->_gc_prev &= GC_FINALIZED_FLAG;
}

void
PyObject_GC_Del(void *op)
{
    PyGC_Head *g = _Py_AS_GC((PyObject *)op);
    if (g->_gc_next != 0) {
        PyObject_GC_UnTrack(op);
    }
    struct _gc_runtime_state *gcstate = gc_state();
    if (gcstate->count > 0) {
        gcstate->count--;
    }
    PyObject_Free(g);
}

int
PyObject_GC_IsTracked(PyObject *op)
{
    return _PyObject_IS_GC(op) && _PyObject_GC_IS_TRACKED(op);
}

int
PyObject_IS_GC(PyObject *obj)
{
    return _PyObject_IS_GC(obj);
}

/* ---- Collection --------------------------------------------------------------------- */

typedef struct {
    PyObject **objs;
    Py_ssize_t *refs;     /* outside references; -1 once marked reachable */
    Py_ssize_t n;
    Py_ssize_t *worklist;
    Py_ssize_t nwork;
} gc_scan;

/* While collecting, _gc_prev holds the object's index in the scan. */
static inline Py_ssize_t
scan_index(PyObject *op)
{
    if (!_PyObject_IS_GC(op)) {
        return -1;
    }
    PyGC_Head *g = _Py_AS_GC(op);
    if (g->_gc_next == 0 || !(g->_gc_prev & GC_COLLECTING_FLAG)) {
        return -1;
    }
    return (Py_ssize_t)(g->_gc_prev >> 2);
}

static int
visit_decref(PyObject *op, void *arg)
{
    gc_scan *scan = arg;
    Py_ssize_t i = scan_index(op);
    if (i >= 0) {
        scan->refs[i]--;
        /* Below zero, some tp_traverse reported a reference its object
           does not own, and the collector would free a live object. */
        assert(scan->refs[i] >= 0);
    }
    return 0;
}

static int
visit_reachable(PyObject *op, void *arg)
{
    gc_scan *scan = arg;
    Py_ssize_t i = scan_index(op);
    if (i >= 0 && scan->refs[i] >= 0) {
        scan->refs[i] = -1;
        scan->worklist[scan->nwork++] = i;
    }
    return 0;
}

static void
restore_links(gc_scan *scan, const char *finalized, PyGC_Head *head)
{
    PyGC_Head *prev = head;
    for (Py_ssize_t i = 0; i < scan->n; i++) {
        PyGC_Head *g = _Py_AS_GC(scan->objs[i]);
        g->_gc_prev = (uintptr_t)prev | (finalized[i] ? GC_FINALIZED_FLAG : 0);
        prev->_gc_next = (uintptr_t)g;
        prev = g;
    }
    prev->_gc_next = (uintptr_t)head;
    gc_set_prev(head, prev);
}

/* One collection over the objects of `head`; the rest count as outside.
   Returns the number of objects freed; *ran_finalizer tells whether
   finalizers ran instead (the garbage then waits for the next pass, as a
   finalizer may have resurrected some of it). */
static void save_garbage(struct _gc_runtime_state *gcstate, PyObject **objs, Py_ssize_t n);
static void report_collectable(struct _gc_runtime_state *gcstate, PyObject **objs, Py_ssize_t n);

static Py_ssize_t
collect(struct _gc_runtime_state *gcstate, PyGC_Head *head, int *ran_finalizer_out)
{
    *ran_finalizer_out = 0;
    Py_ssize_t n = 0;
    for (PyGC_Head *g = (PyGC_Head *)head->_gc_next; g != head; g = (PyGC_Head *)g->_gc_next) {
        n++;
    }
    if (n == 0) {
        return 0;
    }
    gc_scan scan = {0};
    scan.objs = PyMem_RawMalloc((size_t)n * sizeof(PyObject *));
    scan.refs = PyMem_RawMalloc((size_t)n * sizeof(Py_ssize_t));
    scan.worklist = PyMem_RawMalloc((size_t)n * sizeof(Py_ssize_t));
    char *finalized = PyMem_RawCalloc((size_t)n, 1);
    if (!scan.objs || !scan.refs || !scan.worklist || !finalized) {
        PyMem_RawFree(scan.objs);
        PyMem_RawFree(scan.refs);
        PyMem_RawFree(scan.worklist);
        PyMem_RawFree(finalized);
        return 0;
    }
    scan.n = n;

    /* 1. Number the objects and copy their reference counts. */
    Py_ssize_t i = 0;
    for (PyGC_Head *g = (PyGC_Head *)head->_gc_next; g != head; g = (PyGC_Head *)g->_gc_next, i++) {
        PyObject *op = _Py_FROM_GC(g);
        scan.objs[i] = op;
        finalized[i] = (g->_gc_prev & GC_FINALIZED_FLAG) != 0;
        scan.refs[i] = _Py_IsImmortal(op) ? PY_SSIZE_T_MAX / 2 : Py_REFCNT(op);
    }
    for (i = 0; i < n; i++) {
        _Py_AS_GC(scan.objs[i])->_gc_prev = ((uintptr_t)i << 2) | GC_COLLECTING_FLAG;
    }

    /* 2. Subtract internal references. */
    for (i = 0; i < n; i++) {
        traverseproc traverse = Py_TYPE(scan.objs[i])->tp_traverse;
        if (traverse != NULL) {
            traverse(scan.objs[i], visit_decref, &scan);
        }
    }

    /* 3. Mark what is reachable from outside. */
    for (i = 0; i < n; i++) {
        if (scan.refs[i] > 0) {
            scan.refs[i] = -1;
            scan.worklist[scan.nwork++] = i;
        }
    }
    while (scan.nwork > 0) {
        PyObject *op = scan.objs[scan.worklist[--scan.nwork]];
        traverseproc traverse = Py_TYPE(op)->tp_traverse;
        if (traverse != NULL) {
            traverse(op, visit_reachable, &scan);
        }
    }

    restore_links(&scan, finalized, head);

    /* Garbage: refs[i] >= 0.  Hold a reference to each so that clearing
       one cannot free another while we still look at it. */
    Py_ssize_t ngarbage = 0;
    int ran_finalizer = 0;
    for (i = 0; i < n; i++) {
        if (scan.refs[i] >= 0) {
            scan.objs[ngarbage] = scan.objs[i];
            finalized[ngarbage] = finalized[i];
            ngarbage++;
        }
    }
    for (i = 0; i < ngarbage; i++) {
        Py_INCREF(scan.objs[i]);
    }
    /* 4. Finalizers, once per object. */
    for (i = 0; i < ngarbage; i++) {
        PyObject *op = scan.objs[i];
        if (Py_TYPE(op)->tp_finalize != NULL && !finalized[i] && !_PyGC_IsFinalized(op)) {
            PyObject_CallFinalizer(op);
            if (PyErr_Occurred()) {
                PyErr_WriteUnraisable(op);
            }
            ran_finalizer = 1;
        }
    }
    if (!ran_finalizer) {
        report_collectable(gcstate, scan.objs, ngarbage);
    }
    /* With DEBUG_SAVEALL the garbage goes to gc.garbage, not away. */
    if (!ran_finalizer && (gcstate->debug & _PyGC_DEBUG_SAVEALL)) {
        save_garbage(gcstate, scan.objs, ngarbage);
    }
    /* 5. Break the cycles (unless finalizers may have resurrected some). */
    else if (!ran_finalizer) {
        for (i = 0; i < ngarbage; i++) {
            PyObject *op = scan.objs[i];
            inquiry clear = Py_TYPE(op)->tp_clear;
            if (clear != NULL && PyObject_GC_IsTracked(op)) {
                clear(op);
                if (PyErr_Occurred()) {
                    PyErr_WriteUnraisable(op);
                }
            }
        }
    }
    for (i = 0; i < ngarbage; i++) {
        Py_DECREF(scan.objs[i]);
    }
    PyMem_RawFree(scan.objs);
    PyMem_RawFree(scan.refs);
    PyMem_RawFree(scan.worklist);
    PyMem_RawFree(finalized);
    *ran_finalizer_out = ran_finalizer;
    return ran_finalizer ? 0 : ngarbage;
}

static Py_ssize_t
list_length(PyGC_Head *list)
{
    Py_ssize_t n = 0;
    for (PyGC_Head *g = (PyGC_Head *)list->_gc_next; g != list; g = (PyGC_Head *)g->_gc_next) {
        n++;
    }
    return n;
}

/* Move every object of `from` to the end of `to`. */
static void
list_splice(PyGC_Head *to, PyGC_Head *from)
{
    PyGC_Head *first = (PyGC_Head *)from->_gc_next;
    if (first == from) {
        return;
    }
    PyGC_Head *last = gc_prev(from);
    PyGC_Head *to_last = gc_prev(to);
    to_last->_gc_next = (uintptr_t)first;
    gc_set_prev(first, to_last);
    last->_gc_next = (uintptr_t)to;
    gc_set_prev(to, last);
    list_init(from);
}

/* ---- What the gc module sees: debug output, gc.garbage, gc.callbacks ---------- */

static PyObject *
lazy_list(PyObject **slot)
{
    if (*slot == NULL) {
        *slot = PyList_New(0);
    }
    return *slot;
}

PyObject *
_PyGC_GarbageList(void)
{
    return lazy_list(&gc_state()->garbage);
}

PyObject *
_PyGC_CallbackList(void)
{
    return lazy_list(&gc_state()->callbacks);
}

static void
save_garbage(struct _gc_runtime_state *gcstate, PyObject **objs, Py_ssize_t n)
{
    PyObject *garbage = lazy_list(&gcstate->garbage);
    for (Py_ssize_t i = 0; i < n && garbage != NULL; i++) {
        if (PyList_Append(garbage, objs[i]) < 0) {
            PyErr_WriteUnraisable(NULL);
            return;
        }
    }
}

static void
report_collectable(struct _gc_runtime_state *gcstate, PyObject **objs, Py_ssize_t n)
{
    if (!(gcstate->debug & _PyGC_DEBUG_COLLECTABLE)) {
        return;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PySys_FormatStderr("gc: collectable <%s %p>\n", Py_TYPE(objs[i])->tp_name, (void *)objs[i]);
    }
}

/* Call each of gc.callbacks with (phase, info).  A callback that raises
   is reported as unraisable and the others still run. */
static void
run_callbacks(struct _gc_runtime_state *gcstate, const char *phase, int generation,
              Py_ssize_t collected)
{
    if (gcstate->callbacks == NULL || PyList_GET_SIZE(gcstate->callbacks) == 0) {
        return;
    }
    PyObject *info = Py_BuildValue("{sisnsi}", "generation", generation, "collected", collected,
                                   "uncollectable", 0);
    PyObject *callbacks = info ? PyList_GetSlice(gcstate->callbacks, 0, PY_SSIZE_T_MAX) : NULL;
    if (callbacks == NULL) {
        Py_XDECREF(info);
        PyErr_WriteUnraisable(NULL);
        return;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(callbacks); i++) {
        PyObject *cb = PyList_GET_ITEM(callbacks, i);
        PyObject *r = PyObject_CallFunction(cb, "sO", phase, info);
        if (r == NULL) {
            PyErr_WriteUnraisable(cb);
        }
        Py_XDECREF(r);
    }
    Py_DECREF(callbacks);
    Py_DECREF(info);
}

static void
print_stats_before(int generation)
{
    struct _gc_runtime_state *gcstate = gc_state();
    PySys_FormatStderr("gc: collecting generation %d...\n", generation);
    PySys_FormatStderr("gc: objects in each generation: %zd 0 %zd\n", list_length(&gcstate->young),
                       list_length(&gcstate->old));
    PySys_FormatStderr("gc: objects in permanent generation: %zd\n",
                       list_length(&gcstate->permanent));
}

/* Collect `list`, once more if finalizers ran (to free what they left). */
static Py_ssize_t
collect_list(PyThreadState *tstate, PyGC_Head *list, int generation)
{
    struct _gc_runtime_state *gcstate = &tstate->interp->gc;
    gcstate->collecting = 1;
    PyObject *exc = _PyErr_GetRaisedException(tstate);
    run_callbacks(gcstate, "start", generation, 0);
    if (gcstate->debug & _PyGC_DEBUG_STATS) {
        print_stats_before(generation);
    }
    int ran_finalizer;
    Py_ssize_t n = collect(gcstate, list, &ran_finalizer);
    if (ran_finalizer) {
        n += collect(gcstate, list, &ran_finalizer);
    }
    if (gcstate->debug & _PyGC_DEBUG_STATS) {
        PySys_FormatStderr("gc: done, %zd unreachable, 0 uncollectable.\n", n);
    }
    run_callbacks(gcstate, "stop", generation, n);
    _PyErr_SetRaisedException(tstate, exc);
    gcstate->count = 0;
    gcstate->collected += n;
    gcstate->collecting = 0;
    return n;
}

Py_ssize_t
_PyGC_CollectNoFail(PyThreadState *tstate)
{
    struct _gc_runtime_state *gcstate = &tstate->interp->gc;
    if (gcstate->collecting) {
        return 0;
    }
    list_splice(&gcstate->old, &gcstate->young);
    Py_ssize_t n = collect_list(tstate, &gcstate->old, 2);
    /* Finalizers may have tracked new objects meanwhile. */
    list_splice(&gcstate->old, &gcstate->young);
    gcstate->old_size = list_length(&gcstate->old);
    gcstate->old_pending = 0;
    gcstate->full_collections++;
    /* As documented for gc.collect(): a full collection also empties the
       freelists, so that what is left allocated is what is alive (refleak
       runs count blocks right after one). */
    _PyLong_ClearFreeList();
    _PyFloat_ClearFreeList();
    return n;
}

Py_ssize_t
_PyGC_CollectYoung(PyThreadState *tstate)
{
    struct _gc_runtime_state *gcstate = &tstate->interp->gc;
    if (gcstate->collecting) {
        return 0;
    }
    Py_ssize_t n = collect_list(tstate, &gcstate->young, 0);
    gcstate->old_pending += list_length(&gcstate->young);
    list_splice(&gcstate->old, &gcstate->young);
    gcstate->collections++;
    return n;
}

/* ---- Walking, freezing ----------------------------------------------------------- */

static int
visit_list(PyGC_Head *list, int (*visit)(PyObject *, void *), void *arg)
{
    for (PyGC_Head *g = (PyGC_Head *)list->_gc_next; g != list; g = (PyGC_Head *)g->_gc_next) {
        int r = visit(_Py_FROM_GC(g), arg);
        if (r != 0) {
            return r;
        }
    }
    return 0;
}

int
_PyGC_VisitObjects(int generation, int (*visit)(PyObject *, void *), void *arg)
{
    struct _gc_runtime_state *gcstate = gc_state();
    int r = 0;
    if (generation == 0 || generation < 0) {
        r = visit_list(&gcstate->young, visit, arg);
    }
    if (r == 0 && (generation == 2 || generation < 0)) {
        r = visit_list(&gcstate->old, visit, arg);
    }
    if (r == 0 && generation < 0) {
        r = visit_list(&gcstate->permanent, visit, arg);
    }
    return r;
}

void
_PyGC_Freeze(void)
{
    struct _gc_runtime_state *gcstate = gc_state();
    list_splice(&gcstate->permanent, &gcstate->old);
    list_splice(&gcstate->permanent, &gcstate->young);
    gcstate->old_size = 0;
    gcstate->old_pending = 0;
}

void
_PyGC_Unfreeze(void)
{
    struct _gc_runtime_state *gcstate = gc_state();
    list_splice(&gcstate->old, &gcstate->permanent);
    gcstate->old_size = list_length(&gcstate->old);
}

Py_ssize_t
_PyGC_FreezeCount(void)
{
    return list_length(&gc_state()->permanent);
}

void
_PyGC_Fini(void)
{
    struct _gc_runtime_state *gcstate = gc_state();
    Py_CLEAR(gcstate->garbage);
    Py_CLEAR(gcstate->callbacks);
}

Py_ssize_t
PyGC_Collect(void)
{
    return _PyGC_CollectNoFail(_PyThreadState_GET());
}

/* Called from the eval breaker. */
void
_PyGC_CollectIfNeeded(PyThreadState *tstate)
{
    struct _gc_runtime_state *gcstate = &tstate->interp->gc;
    if (!collection_due(gcstate)) {
        return;
    }
    /* As CPython's middle generation would: no full collection before
       ten young ones' worth of survivors, however small the old list. */
    Py_ssize_t full_after = Py_MAX(gcstate->old_size / 4, 10 * gcstate->threshold);
    if (gcstate->old_pending > full_after) {
        _PyGC_CollectNoFail(tstate);
    }
    else {
        _PyGC_CollectYoung(tstate);
    }
}

/* ---- The trashcan ------------------------------------------------------------------- */

#define TRASHCAN_DEPTH_LIMIT 500

static void
run_deferred_deallocs(PyThreadState *tstate)
{
    while (tstate->delete_later != NULL) {
        PyObject *op = tstate->delete_later;
        PyGC_Head *g = _Py_AS_GC(op);
        tstate->delete_later = (PyObject *)(g->_gc_prev & ~GC_FLAG_MASK);
        g->_gc_prev &= GC_FINALIZED_FLAG;
        tstate->dealloc_depth++;
        Py_TYPE(op)->tp_dealloc(op);
        tstate->dealloc_depth--;
    }
}

void
_PyGC_DeallocWithTrashcan(PyObject *op, destructor dealloc)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate == NULL) {
        dealloc(op);
        return;
    }
    if (tstate->dealloc_depth >= TRASHCAN_DEPTH_LIMIT) {
        /* Untracked objects leave _gc_prev free to chain the list. */
        PyObject_GC_UnTrack(op);
        PyGC_Head *g = _Py_AS_GC(op);
        g->_gc_prev = (uintptr_t)tstate->delete_later | (g->_gc_prev & GC_FINALIZED_FLAG);
        tstate->delete_later = op;
        return;
    }
    tstate->dealloc_depth++;
    dealloc(op);
    tstate->dealloc_depth--;
    if (tstate->dealloc_depth == 0) {
        run_deferred_deallocs(tstate);
    }
}
