/* Frame objects (PyFrame_Type) and the f_locals proxy (PEP 667).

   The interpreter runs _PyInterpreterFrames on the thread's data stack; a
   PyFrameObject is made only when someone asks for one (tracebacks,
   sys._getframe, tracers).  While the interpreter frame is alive the
   object just points at it (f_frame).  When the frame is popped and the
   object is still referenced, _PyFrame_ClearExceptCode copies the frame
   into the object (_f_frame_data) and the object owns it from then on
   (owner FRAME_OWNED_BY_FRAME_OBJECT; its frame_obj points back at the
   object without holding a reference).

   f_locals of a function frame is a FrameLocalsProxy: a mapping that
   reads and writes the frame's fast locals (cells dereferenced) and keeps
   other keys in f_extra_locals.  Module and class frames answer with their
   namespace dict. */

#include "Python.h"
#include "pycore_identifiers.h"
#include "pycore_instruments.h"
#include "pycore_code.h"
#include "pycore_ceval.h"
#include "pycore_frame.h"
#include "pycore_function.h"
#include "pycore_genobject.h"
#include "pycore_object.h"
#include "pycore_optimizer.h"
#include "pycore_pystate.h"
#include "pycore_unicodeobject.h"

/* ---- Stack references ------------------------------------------------------ */

static inline int
ref_is_owned(_PyStackRef ref)
{
    return ref.bits != 0 && (ref.bits & Py_TAG_BITS) == 0;
}

static inline int
ref_is_object(_PyStackRef ref)
{
    return ref.bits != 0 && !PyStackRef_IsTaggedInt(ref);
}

static inline int
frame_owns_data(PyFrameObject *f)
{
    return f->f_frame == (_PyInterpreterFrame *)f->_f_frame_data &&
           f->f_frame->owner == FRAME_OWNED_BY_FRAME_OBJECT;
}

/* ---- Interpreter-frame helpers ----------------------------------------------- */

void
_PyFrame_ClearLocals(_PyInterpreterFrame *frame)
{
    _PyStackRef *locals = frame->localsplus;
    _PyStackRef *sp = frame->stackpointer;
    frame->stackpointer = locals;
    while (sp > locals) {
        sp--;
        _PyStackRef old = *sp;
        *sp = PyStackRef_NULL;
        PyStackRef_XCLOSE(old);
    }
    Py_CLEAR(frame->f_locals);
}

int
_PyFrame_Traverse(_PyInterpreterFrame *frame, visitproc visit, void *arg)
{
    /* A copied frame's frame_obj is a back pointer, not a reference. */
    if (frame->owner != FRAME_OWNED_BY_FRAME_OBJECT) {
        Py_VISIT(frame->frame_obj);
    }
    Py_VISIT(frame->f_locals);
    if (ref_is_owned(frame->f_funcobj)) {
        Py_VISIT(PyStackRef_AsPyObjectBorrow(frame->f_funcobj));
    }
    if (ref_is_owned(frame->f_executable)) {
        Py_VISIT(PyStackRef_AsPyObjectBorrow(frame->f_executable));
    }
    for (_PyStackRef *p = frame->localsplus; p < frame->stackpointer; p++) {
        if (ref_is_owned(*p)) {
            Py_VISIT(PyStackRef_AsPyObjectBorrow(*p));
        }
    }
    return 0;
}

PyFrameObject *
_PyFrame_New_NoTrack(PyCodeObject *code)
{
    Py_ssize_t slots = (Py_ssize_t)code->co_nlocalsplus + code->co_stacksize + FRAME_SPECIALS_SIZE;
    PyFrameObject *f = PyObject_GC_NewVar(PyFrameObject, &PyFrame_Type, slots);
    if (f == NULL) {
        return NULL;
    }
    f->f_back = NULL;
    f->f_trace = NULL;
    f->f_lineno = 0;
    f->f_trace_lines = 1;
    f->f_trace_opcodes = 0;
    f->f_extra_locals = NULL;
    f->f_locals_cache = NULL;
    f->f_overwritten_fast_locals = NULL;
    f->f_frame = (_PyInterpreterFrame *)f->_f_frame_data;
    /* Not a valid frame until someone fills it in. */
    f->f_frame->owner = FRAME_OWNED_BY_THREAD;
    return f;
}

PyFrameObject *
_PyFrame_MakeAndSetFrameObject(_PyInterpreterFrame *frame)
{
    PyFrameObject *f = _PyFrame_New_NoTrack(_PyFrame_GetCode(frame));
    if (f == NULL) {
        return NULL;
    }
    if (frame->frame_obj != NULL) {
        /* Allocation ran code (a GC callback) that made one meanwhile. */
        Py_DECREF(f);
        return frame->frame_obj;
    }
    f->f_frame = frame;
    frame->frame_obj = f;
    return f;
}

/* The interpreter frame is going away but its frame object lives on: copy
   the frame into the object.  Its references move with it, except
   f_executable, which the caller still releases (hence the new one). */
static void
take_ownership(PyFrameObject *f, _PyInterpreterFrame *frame)
{
    _PyInterpreterFrame *copy = (_PyInterpreterFrame *)f->_f_frame_data;
    size_t size = (size_t)((char *)frame->stackpointer - (char *)frame);
    memcpy(copy, frame, size);
    copy->stackpointer = (_PyStackRef *)((char *)copy + size);
    copy->f_executable = PyStackRef_FromPyObjectNew(PyStackRef_AsPyObjectBorrow(frame->f_executable));
    /* Borrowed references were only safe while the frame ran. */
    copy->f_funcobj = PyStackRef_MakeHeapSafe(copy->f_funcobj);
    for (_PyStackRef *p = copy->localsplus; p < copy->stackpointer; p++) {
        *p = PyStackRef_MakeHeapSafe(*p);
    }
    copy->owner = FRAME_OWNED_BY_FRAME_OBJECT;
    copy->frame_obj = f;
    f->f_frame = copy;
    if (_PyFrame_IsIncomplete(copy)) {
        /* A frame that died in its prologue: make it look as if the first
           RESUME ran, so it reads like any other finished frame. */
        PyCodeObject *code = _PyFrame_GetCode(copy);
        copy->instr_ptr = _PyCode_CODE(code) + code->_co_firsttraceable + 1;
    }
    _PyInterpreterFrame *prev = _PyFrame_GetFirstComplete(frame->previous);
    copy->previous = NULL;
    if (prev != NULL && f->f_back == NULL) {
        /* Keep whatever exception is being propagated intact. */
        PyObject *exc = PyErr_GetRaisedException();
        PyFrameObject *back = _PyFrame_GetFrameObject(prev);
        if (back == NULL) {
            PyErr_Clear();
        }
        else {
            f->f_back = (PyFrameObject *)Py_NewRef(back);
        }
        PyErr_SetRaisedException(exc);
    }
    if (!_PyObject_GC_IS_TRACKED((PyObject *)f)) {
        PyObject_GC_Track(f);
    }
}

void
_PyFrame_ClearExceptCode(_PyInterpreterFrame *frame)
{
    if (frame->frame_obj != NULL) {
        PyFrameObject *f = frame->frame_obj;
        frame->frame_obj = NULL;
        if (Py_REFCNT(f) > 1) {
            take_ownership(f, frame);
            Py_DECREF(f);
            return;
        }
        Py_DECREF(f);
    }
    _PyFrame_ClearLocals(frame);
    PyStackRef_CLEAR(frame->f_funcobj);
}

/* ---- Reading and writing fast locals ----------------------------------------- */

/* Lazy (JIT) frames must be written back before anyone looks inside. */
static int
frame_ready(PyFrameObject *f)
{
    if (!frame_owns_data(f) && _PyFrame_IsLazy(f->f_frame)) {
        return _PyFrame_EnsureComplete(f->f_frame);
    }
    return 0;
}

static inline PyCodeObject *
frame_code(PyFrameObject *f)
{
    return _PyFrame_GetCode(f->f_frame);
}

/* Number of localsplus slots that hold valid data. */
static int
live_slots(_PyInterpreterFrame *frame, PyCodeObject *co)
{
    Py_ssize_t n = frame->stackpointer - frame->localsplus;
    return n < co->co_nlocalsplus ? (int)(n < 0 ? 0 : n) : co->co_nlocalsplus;
}

/* Borrowed value of local i, cells dereferenced; NULL when unbound. */
static PyObject *
frame_get_var(_PyInterpreterFrame *frame, PyCodeObject *co, int i)
{
    _PyLocals_Kind kind = _PyLocals_GetKind(co->co_localspluskinds, i);
    int incomplete = _PyFrame_IsIncomplete(frame);
    PyObject *value = NULL;
    if (i < live_slots(frame, co) && ref_is_object(frame->localsplus[i])) {
        value = PyStackRef_AsPyObjectBorrow(frame->localsplus[i]);
    }
    if (kind & CO_FAST_FREE) {
        if (value == NULL && incomplete && !PyStackRef_IsNull(frame->f_funcobj)) {
            /* COPY_FREE_VARS has not run yet: read the closure directly. */
            PyObject *func = PyStackRef_AsPyObjectBorrow(frame->f_funcobj);
            PyObject *closure = PyFunction_Check(func) ? PyFunction_GET_CLOSURE(func) : NULL;
            int j = i - (co->co_nlocalsplus - co->co_nfreevars);
            if (closure != NULL && j >= 0 && j < PyTuple_GET_SIZE(closure)) {
                value = PyTuple_GET_ITEM(closure, j);
            }
        }
        if (value != NULL && PyCell_Check(value)) {
            value = PyCell_GET(value);
        }
    }
    else if ((kind & CO_FAST_CELL) && value != NULL && !incomplete && PyCell_Check(value)) {
        value = PyCell_GET(value);
    }
    return value;
}

/* Index of the fast local called `key`, -1 if none. */
static int
frame_find_local(PyCodeObject *co, PyObject *key)
{
    if (!PyUnicode_Check(key)) {
        return -1;
    }
    PyObject *names = co->co_localsplusnames;
    for (int i = 0; i < co->co_nlocalsplus; i++) {
        if (PyTuple_GET_ITEM(names, i) == key) {
            return i;
        }
    }
    for (int i = 0; i < co->co_nlocalsplus; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (PyUnicode_Check(name) && PyUnicode_Equal(name, key) == 1) {
            return i;
        }
    }
    return -1;
}

/* Store into local i.  While the frame runs, the interpreter may hold
   borrowed references to the old value (LOAD_FAST_BORROW), so the old
   value is kept alive in f_overwritten_fast_locals until the frame object
   dies instead of being released now. */
static int
frame_set_var(PyFrameObject *f, int i, PyObject *value)
{
    _PyInterpreterFrame *frame = f->f_frame;
    PyCodeObject *co = frame_code(f);
    _PyLocals_Kind kind = _PyLocals_GetKind(co->co_localspluskinds, i);
    if (i >= live_slots(frame, co)) {
        return 0; /* the frame was cleared: nothing to write to */
    }
    _PyStackRef *slot = &frame->localsplus[i];
    PyObject *old = ref_is_object(*slot) ? PyStackRef_AsPyObjectBorrow(*slot) : NULL;
    if ((kind & (CO_FAST_CELL | CO_FAST_FREE)) && old != NULL && PyCell_Check(old) &&
        !_PyFrame_IsIncomplete(frame)) {
        return PyCell_Set(old, value);
    }
    _PyStackRef old_ref = *slot;
    *slot = PyStackRef_FromPyObjectNew(value);
#ifdef _Py_TIER2
    /* Traces running this frame (or able to) took the local for what
       their guards proved it was: they must not go on believing it.  A
       rare, slow path: every executor goes. */
    _PyExecutor_InvalidateAll();
#endif
    if (!ref_is_owned(old_ref)) {
        return 0;
    }
    if (!frame_owns_data(f)) {
        if (f->f_overwritten_fast_locals == NULL) {
            f->f_overwritten_fast_locals = PyList_New(0);
            if (f->f_overwritten_fast_locals == NULL) {
                *slot = old_ref;
                Py_DECREF(value);
                return -1;
            }
        }
        int r = PyList_Append(f->f_overwritten_fast_locals, old);
        PyStackRef_CLOSE(old_ref);
        return r;
    }
    PyStackRef_CLOSE(old_ref);
    return 0;
}

static int
frame_is_optimized(PyFrameObject *f)
{
    return (frame_code(f)->co_flags & CO_OPTIMIZED) != 0;
}

/* Where keys that are not fast locals live: f_extra_locals for function
   frames, the namespace dict for the others.  Borrowed; NULL if none and
   `create` is false. */
static PyObject *
frame_extras(PyFrameObject *f, int create)
{
    if (!frame_is_optimized(f)) {
        if (f->f_frame->f_locals == NULL && create) {
            f->f_frame->f_locals = PyDict_New();
        }
        return f->f_frame->f_locals;
    }
    if (f->f_extra_locals == NULL && create) {
        f->f_extra_locals = PyDict_New();
    }
    return f->f_extra_locals;
}

/* ---- FrameLocalsProxy ---------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyFrameObject *frame;
} PyFrameLocalsProxyObject;

#define PROXY_FRAME(op) (((PyFrameLocalsProxyObject *)(op))->frame)
#define PyFrameLocalsProxy_Check(op) Py_IS_TYPE((op), &PyFrameLocalsProxy_Type)

static PyObject *
proxy_new_for(PyFrameObject *f)
{
    PyFrameLocalsProxyObject *p = PyObject_GC_New(PyFrameLocalsProxyObject,
                                                  &PyFrameLocalsProxy_Type);
    if (p == NULL) {
        return NULL;
    }
    p->frame = (PyFrameObject *)Py_NewRef(f);
    PyObject_GC_Track(p);
    return (PyObject *)p;
}

/* A dict copy: bound fast locals in slot order, then the extras. */
static PyObject *
proxy_snapshot(PyObject *self)
{
    PyFrameObject *f = PROXY_FRAME(self);
    if (frame_ready(f) < 0) {
        return NULL;
    }
    PyCodeObject *co = frame_code(f);
    PyObject *dict = PyDict_New();
    if (dict == NULL) {
        return NULL;
    }
    for (int i = 0; i < co->co_nlocalsplus; i++) {
        PyObject *value = frame_get_var(f->f_frame, co, i);
        if (value != NULL &&
            PyDict_SetItem(dict, PyTuple_GET_ITEM(co->co_localsplusnames, i), value) < 0) {
            goto error;
        }
    }
    PyObject *extras = frame_extras(f, 0);
    if (extras != NULL && PyDict_Update(dict, extras) < 0) {
        goto error;
    }
    return dict;
error:
    Py_DECREF(dict);
    return NULL;
}

static PyObject *
proxy_missing(PyObject *key)
{
    PyErr_Format(PyExc_KeyError, "local variable '%R' is not defined", key);
    return NULL;
}

static PyObject *
proxy_getitem(PyObject *self, PyObject *key)
{
    PyFrameObject *f = PROXY_FRAME(self);
    if (frame_ready(f) < 0) {
        return NULL;
    }
    PyCodeObject *co = frame_code(f);
    int i = frame_find_local(co, key);
    if (i >= 0) {
        PyObject *value = frame_get_var(f->f_frame, co, i);
        if (value != NULL) {
            return Py_NewRef(value);
        }
    }
    PyObject *extras = frame_extras(f, 0);
    if (extras != NULL) {
        PyObject *value;
        int r = PyDict_GetItemRef(extras, key, &value);
        if (r != 0) {
            return r < 0 ? NULL : value;
        }
    }
    return proxy_missing(key);
}

static int
proxy_setitem(PyObject *self, PyObject *key, PyObject *value)
{
    PyFrameObject *f = PROXY_FRAME(self);
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "cannot remove variables from FrameLocalsProxy");
        return -1;
    }
    if (frame_ready(f) < 0) {
        return -1;
    }
    int i = frame_find_local(frame_code(f), key);
    if (i >= 0) {
        return frame_set_var(f, i, value);
    }
    PyObject *extras = frame_extras(f, 1);
    if (extras == NULL) {
        return -1;
    }
    return PyDict_SetItem(extras, key, value);
}

static int
proxy_contains(PyObject *self, PyObject *key)
{
    PyFrameObject *f = PROXY_FRAME(self);
    if (frame_ready(f) < 0) {
        return -1;
    }
    PyCodeObject *co = frame_code(f);
    int i = frame_find_local(co, key);
    if (i >= 0 && frame_get_var(f->f_frame, co, i) != NULL) {
        return 1;
    }
    PyObject *extras = frame_extras(f, 0);
    return extras != NULL ? PyDict_Contains(extras, key) : 0;
}

static Py_ssize_t
proxy_length(PyObject *self)
{
    PyObject *d = proxy_snapshot(self);
    if (d == NULL) {
        return -1;
    }
    Py_ssize_t n = PyDict_GET_SIZE(d);
    Py_DECREF(d);
    return n;
}

/* Apply `method` of the snapshot dict (keys, values, items, iter). */
static PyObject *
proxy_via_snapshot(PyObject *self, PyObject *(*fn)(PyObject *))
{
    PyObject *d = proxy_snapshot(self);
    if (d == NULL) {
        return NULL;
    }
    PyObject *res = fn(d);
    Py_DECREF(d);
    return res;
}

static PyObject *
proxy_iter(PyObject *self)
{
    PyObject *keys = proxy_via_snapshot(self, PyDict_Keys);
    if (keys == NULL) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(keys);
    Py_DECREF(keys);
    return it;
}

static PyObject *
proxy_keys(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return proxy_via_snapshot(self, PyDict_Keys);
}

static PyObject *
proxy_values(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return proxy_via_snapshot(self, PyDict_Values);
}

static PyObject *
proxy_items(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return proxy_via_snapshot(self, PyDict_Items);
}

static PyObject *
proxy_copy(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return proxy_snapshot(self);
}

static PyObject *
proxy_reversed(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *keys = proxy_via_snapshot(self, PyDict_Keys);
    if (keys == NULL) {
        return NULL;
    }
    if (PyList_Reverse(keys) < 0) {
        Py_DECREF(keys);
        return NULL;
    }
    PyObject *it = PyObject_GetIter(keys);
    Py_DECREF(keys);
    return it;
}

static PyObject *
proxy_get(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("get", nargs, 1, 2)) {
        return NULL;
    }
    PyObject *dflt = nargs > 1 ? args[1] : Py_None;
    int r = proxy_contains(self, args[0]);
    if (r < 0) {
        return NULL;
    }
    return r ? proxy_getitem(self, args[0]) : Py_NewRef(dflt);
}

static PyObject *
proxy_setdefault(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("setdefault", nargs, 1, 2)) {
        return NULL;
    }
    PyObject *dflt = nargs > 1 ? args[1] : Py_None;
    int r = proxy_contains(self, args[0]);
    if (r < 0) {
        return NULL;
    }
    if (r) {
        return proxy_getitem(self, args[0]);
    }
    if (proxy_setitem(self, args[0], dflt) < 0) {
        return NULL;
    }
    return Py_NewRef(dflt);
}

/* Any mapping or iterable of pairs, as dict.update accepts. */
static PyObject *
as_dict(PyObject *other)
{
    PyObject *d = PyDict_New();
    if (d == NULL) {
        return NULL;
    }
    int r;
    if (PyDict_Check(other) || PyFrameLocalsProxy_Check(other)) {
        r = PyDict_Merge(d, other, 1);
    }
    else {
        r = PyObject_HasAttrWithError(other, _Py_ID(keys));
        if (r > 0) {
            r = PyDict_Merge(d, other, 1);
        }
        else if (r == 0) {
            r = PyDict_MergeFromSeq2(d, other, 1);
        }
    }
    if (r < 0) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

static int
proxy_merge(PyObject *self, PyObject *other)
{
    PyObject *d = as_dict(other);
    if (d == NULL) {
        return -1;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(d, &pos, &key, &value)) {
        if (proxy_setitem(self, key, value) < 0) {
            Py_DECREF(d);
            return -1;
        }
    }
    Py_DECREF(d);
    return 0;
}

static PyObject *
proxy_update(PyObject *self, PyObject *other)
{
    if (proxy_merge(self, other) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
proxy_or(PyObject *a, PyObject *b)
{
    PyObject *left, *right;
    if (PyFrameLocalsProxy_Check(a) && (PyDict_Check(b) || PyFrameLocalsProxy_Check(b))) {
        left = a;
        right = b;
    }
    else if (PyFrameLocalsProxy_Check(b) && PyDict_Check(a)) {
        left = a;
        right = b;
    }
    else {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *result = as_dict(left);
    if (result != NULL && PyDict_Merge(result, right, 1) < 0) {
        Py_CLEAR(result);
    }
    return result;
}

static PyObject *
proxy_inplace_or(PyObject *self, PyObject *other)
{
    if (!PyFrameLocalsProxy_Check(self) ||
        !(PyDict_Check(other) || PyFrameLocalsProxy_Check(other))) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (proxy_merge(self, other) < 0) {
        return NULL;
    }
    return Py_NewRef(self);
}

static PyObject *
proxy_richcompare(PyObject *self, PyObject *other, int op)
{
    if (!PyDict_Check(other) && !PyFrameLocalsProxy_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (op != Py_EQ && op != Py_NE) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *a = proxy_snapshot(self);
    if (a == NULL) {
        return NULL;
    }
    PyObject *b = PyFrameLocalsProxy_Check(other) ? proxy_snapshot(other) : Py_NewRef(other);
    if (b == NULL) {
        Py_DECREF(a);
        return NULL;
    }
    PyObject *res = PyObject_RichCompare(a, b, op);
    Py_DECREF(a);
    Py_DECREF(b);
    return res;
}

static PyObject *
proxy_repr(PyObject *self)
{
    int r = Py_ReprEnter(self);
    if (r != 0) {
        return r > 0 ? PyUnicode_FromString("{...}") : NULL;
    }
    PyObject *d = proxy_snapshot(self);
    PyObject *res = d == NULL ? NULL : PyObject_Repr(d);
    Py_XDECREF(d);
    Py_ReprLeave(self);
    return res;
}

static PyObject *
proxy_tp_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *frame;
    if (!_PyArg_NoKeywords("FrameLocalsProxy", kwargs) ||
        !PyArg_UnpackTuple(args, "FrameLocalsProxy", 1, 1, &frame)) {
        return NULL;
    }
    if (!PyFrame_Check(frame)) {
        PyErr_Format(PyExc_TypeError, "expect frame, not %.200s", Py_TYPE(frame)->tp_name);
        return NULL;
    }
    return proxy_new_for((PyFrameObject *)frame);
}

static void
proxy_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(PROXY_FRAME(self));
    PyObject_GC_Del(self);
}

static int
proxy_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(PROXY_FRAME(self));
    return 0;
}

static PyMethodDef proxy_methods[] = {
    {"__reversed__", proxy_reversed, METH_NOARGS, NULL},
    {"copy", proxy_copy, METH_NOARGS, NULL},
    {"keys", proxy_keys, METH_NOARGS, NULL},
    {"values", proxy_values, METH_NOARGS, NULL},
    {"items", proxy_items, METH_NOARGS, NULL},
    {"get", _PyCFunction_CAST(proxy_get), METH_FASTCALL, NULL},
    {"setdefault", _PyCFunction_CAST(proxy_setdefault), METH_FASTCALL, NULL},
    {"update", proxy_update, METH_O, NULL},
    {NULL},
};

static PyNumberMethods proxy_as_number = {
    .nb_or = proxy_or,
    .nb_inplace_or = proxy_inplace_or,
};

static PySequenceMethods proxy_as_sequence = {
    .sq_contains = proxy_contains,
};

static PyMappingMethods proxy_as_mapping = {
    .mp_length = proxy_length,
    .mp_subscript = proxy_getitem,
    .mp_ass_subscript = proxy_setitem,
};

PyTypeObject PyFrameLocalsProxy_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "FrameLocalsProxy",
    .tp_basicsize = sizeof(PyFrameLocalsProxyObject),
    .tp_dealloc = proxy_dealloc,
    .tp_repr = proxy_repr,
    .tp_as_number = &proxy_as_number,
    .tp_as_sequence = &proxy_as_sequence,
    .tp_as_mapping = &proxy_as_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_MAPPING,
    .tp_doc = "FrameLocalsProxy(frame)\n--\n\n"
              "A write-through mapping view of a function frame's local variables.",
    .tp_traverse = proxy_traverse,
    .tp_richcompare = proxy_richcompare,
    .tp_iter = proxy_iter,
    .tp_methods = proxy_methods,
    .tp_new = proxy_tp_new,
};

/* ---- Frame object attributes --------------------------------------------------- */

int
PyFrame_GetLineNumber(PyFrameObject *f)
{
    if (f->f_lineno > 0 && f->f_trace != NULL) {
        return f->f_lineno; /* set by the tracer for the line being traced */
    }
    return PyUnstable_InterpreterFrame_GetLine(f->f_frame);
}

int
PyFrame_GetLasti(PyFrameObject *f)
{
    if (frame_ready(f) < 0) {
        PyErr_Clear();
        return -1;
    }
    int lasti = _PyInterpreterFrame_LASTI(f->f_frame);
    if (lasti < 0) {
        return -1;
    }
    return lasti * (int)sizeof(_Py_CODEUNIT);
}

PyCodeObject *
PyFrame_GetCode(PyFrameObject *f)
{
    return (PyCodeObject *)Py_NewRef(frame_code(f));
}

PyFrameObject *
PyFrame_GetBack(PyFrameObject *f)
{
    PyFrameObject *back = f->f_back;
    if (back == NULL && !frame_owns_data(f)) {
        _PyInterpreterFrame *prev = _PyFrame_GetFirstComplete(f->f_frame->previous);
        if (prev != NULL) {
            back = _PyFrame_GetFrameObject(prev);
            if (back == NULL) {
                PyErr_Clear();
            }
        }
    }
    return (PyFrameObject *)Py_XNewRef(back);
}

PyObject *
PyFrame_GetGlobals(PyFrameObject *f)
{
    return Py_NewRef(f->f_frame->f_globals);
}

PyObject *
PyFrame_GetBuiltins(PyFrameObject *f)
{
    return Py_NewRef(f->f_frame->f_builtins);
}

/* Module and class frames: their namespace.  Function frames (and frames
   whose inlined comprehension is running): a FrameLocalsProxy. */
PyObject *
PyFrame_GetLocals(PyFrameObject *f)
{
    if (frame_ready(f) < 0) {
        return NULL;
    }
    PyCodeObject *co = frame_code(f);
    if (!(co->co_flags & CO_OPTIMIZED)) {
        int hidden_bound = 0;
        for (int i = 0; i < co->co_nlocalsplus; i++) {
            if ((_PyLocals_GetKind(co->co_localspluskinds, i) & CO_FAST_HIDDEN) &&
                frame_get_var(f->f_frame, co, i) != NULL) {
                hidden_bound = 1;
                break;
            }
        }
        if (!hidden_bound) {
            if (f->f_frame->f_locals == NULL) {
                f->f_frame->f_locals = PyDict_New();
                if (f->f_frame->f_locals == NULL) {
                    return NULL;
                }
            }
            return Py_NewRef(f->f_frame->f_locals);
        }
    }
    return proxy_new_for(f);
}

static PyObject *
frame_getlocals(PyObject *self, void *closure)
{
    return PyFrame_GetLocals((PyFrameObject *)self);
}

static PyObject *
frame_getlineno(PyObject *self, void *closure)
{
    int lineno = PyFrame_GetLineNumber((PyFrameObject *)self);
    if (lineno < 0) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(lineno);
}

/* Jumping: only a trace function, from a 'line' (or 'opcode') event of
   this very frame, may move it; Objects/frame_jump.c checks the target. */
static int
frame_setlineno(PyObject *self, PyObject *value, void *closure)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete attribute");
        return -1;
    }
    PyFrameObject *f = (PyFrameObject *)self;
    int what = _PyLegacyTracing_CurrentEvent(f);
    if (what < 0) {
        PyErr_SetString(PyExc_ValueError, "f_lineno can only be set in a trace function");
        return -1;
    }
    if (!PyLong_CheckExact(value)) {
        PyErr_SetString(PyExc_ValueError, "lineno must be an integer");
        return -1;
    }
    if (what == _PY_LEGACY_CALL) {
        PyErr_SetString(PyExc_ValueError, "can't jump from the 'call' trace event of a new frame");
        return -1;
    }
    if (what != _PY_LEGACY_LINE && what != _PY_LEGACY_OPCODE) {
        PyErr_SetString(PyExc_ValueError, "can only jump from a 'line' trace event");
        return -1;
    }
    int overflow;
    long line = PyLong_AsLongAndOverflow(value, &overflow);
    if (overflow || line > INT_MAX || line < INT_MIN) {
        PyErr_SetString(PyExc_ValueError, "lineno out of range");
        return -1;
    }
    return _PyFrame_JumpToLine(f, (int)line);
}

static PyObject *
frame_getlasti(PyObject *self, void *closure)
{
    return PyLong_FromLong(PyFrame_GetLasti((PyFrameObject *)self));
}

static PyObject *
frame_getglobals(PyObject *self, void *closure)
{
    return PyFrame_GetGlobals((PyFrameObject *)self);
}

static PyObject *
frame_getbuiltins(PyObject *self, void *closure)
{
    return PyFrame_GetBuiltins((PyFrameObject *)self);
}

static PyObject *
frame_getcode(PyObject *self, void *closure)
{
    return (PyObject *)PyFrame_GetCode((PyFrameObject *)self);
}

static PyObject *
frame_getback(PyObject *self, void *closure)
{
    PyObject *back = (PyObject *)PyFrame_GetBack((PyFrameObject *)self);
    return back != NULL ? back : Py_NewRef(Py_None);
}

static PyObject *
frame_gettrace(PyObject *self, void *closure)
{
    PyObject *trace = ((PyFrameObject *)self)->f_trace;
    return Py_NewRef(trace != NULL ? trace : Py_None);
}

static int
frame_settrace(PyObject *self, PyObject *value, void *closure)
{
    if (value == Py_None) {
        value = NULL;
    }
    Py_XSETREF(((PyFrameObject *)self)->f_trace, Py_XNewRef(value));
    return 0;
}

static PyObject *
frame_gettraceopcodes(PyObject *self, void *closure)
{
    return PyBool_FromLong(((PyFrameObject *)self)->f_trace_opcodes);
}

/* Opcode events need INSTRUCTION monitoring of the frame's code. */
static int
frame_settraceopcodes(PyObject *self, PyObject *value, void *closure)
{
    if (value == NULL || !PyBool_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "attribute value type must be bool");
        return -1;
    }
    PyFrameObject *f = (PyFrameObject *)self;
    int enable = Py_IsTrue(value);
    if (enable != f->f_trace_opcodes && _PyEval_SetOpcodeTrace(f, enable) < 0) {
        return -1;
    }
    f->f_trace_opcodes = (char)enable;
    return 0;
}

static PyObject *
frame_getgenerator(PyObject *self, void *closure)
{
    _PyInterpreterFrame *frame = ((PyFrameObject *)self)->f_frame;
    if (frame->owner == FRAME_OWNED_BY_GENERATOR) {
        return Py_NewRef(_PyGen_GetGeneratorFromFrame(frame));
    }
    Py_RETURN_NONE;
}

static PyGetSetDef frame_getsetlist[] = {
    {"f_back", frame_getback, NULL, NULL, NULL},
    {"f_locals", frame_getlocals, NULL, NULL, NULL},
    {"f_lineno", frame_getlineno, frame_setlineno, NULL, NULL},
    {"f_trace", frame_gettrace, frame_settrace, NULL, NULL},
    {"f_trace_opcodes", frame_gettraceopcodes, frame_settraceopcodes, NULL, NULL},
    {"f_lasti", frame_getlasti, NULL, NULL, NULL},
    {"f_globals", frame_getglobals, NULL, NULL, NULL},
    {"f_builtins", frame_getbuiltins, NULL, NULL, NULL},
    {"f_code", frame_getcode, NULL, NULL, NULL},
    {"f_generator", frame_getgenerator, NULL, NULL, NULL},
    {NULL},
};

static PyMemberDef frame_memberlist[] = {
    {"f_trace_lines", Py_T_BOOL, offsetof(PyFrameObject, f_trace_lines), 0, NULL},
    {NULL},
};

/* ---- Lifetime ---------------------------------------------------------------------- */

static void
clear_owned_frame(_PyInterpreterFrame *frame)
{
    _PyFrame_ClearLocals(frame);
    PyStackRef_CLEAR(frame->f_funcobj);
    PyStackRef_CLEAR(frame->f_executable);
}

static void
frame_dealloc(PyObject *self)
{
    PyFrameObject *f = (PyFrameObject *)self;
    if (_PyObject_GC_IS_TRACKED(self)) {
        PyObject_GC_UnTrack(self);
    }
    if (frame_owns_data(f)) {
        clear_owned_frame(f->f_frame);
    }
    Py_CLEAR(f->f_back);
    Py_CLEAR(f->f_trace);
    Py_CLEAR(f->f_extra_locals);
    Py_CLEAR(f->f_locals_cache);
    Py_CLEAR(f->f_overwritten_fast_locals);
    PyObject_GC_Del(self);
}

static int
frame_traverse(PyObject *self, visitproc visit, void *arg)
{
    PyFrameObject *f = (PyFrameObject *)self;
    Py_VISIT(f->f_back);
    Py_VISIT(f->f_trace);
    Py_VISIT(f->f_extra_locals);
    Py_VISIT(f->f_locals_cache);
    Py_VISIT(f->f_overwritten_fast_locals);
    if (!frame_owns_data(f)) {
        return 0; /* the live frame belongs to its thread or generator */
    }
    return _PyFrame_Traverse(f->f_frame, visit, arg);
}

/* Drops what can form cycles: the trace function, locals and value stack.
   The code and function stay, so the frame still describes itself. */
static int
frame_tp_clear(PyObject *self)
{
    PyFrameObject *f = (PyFrameObject *)self;
    Py_CLEAR(f->f_trace);
    Py_CLEAR(f->f_extra_locals);
    Py_CLEAR(f->f_locals_cache);
    Py_CLEAR(f->f_overwritten_fast_locals);
    if (frame_owns_data(f)) {
        _PyFrame_ClearLocals(f->f_frame);
    }
    return 0;
}

static PyObject *
frame_clear(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyFrameObject *f = (PyFrameObject *)self;
    _PyInterpreterFrame *frame = f->f_frame;
    if (frame_owns_data(f)) {
        (void)frame_tp_clear(self);
        Py_RETURN_NONE;
    }
    if (frame->owner == FRAME_OWNED_BY_GENERATOR) {
        PyGenObject *gen = _PyGen_GetGeneratorFromFrame(frame);
        if (gen->gi_frame_state == FRAME_EXECUTING) {
            goto running;
        }
        if (FRAME_STATE_SUSPENDED(gen->gi_frame_state)) {
            PyErr_SetString(PyExc_RuntimeError, "cannot clear a suspended frame");
            return NULL;
        }
        _PyGen_Finalize((PyObject *)gen);
        Py_RETURN_NONE;
    }
running:
    PyErr_SetString(PyExc_RuntimeError, "cannot clear an executing frame");
    return NULL;
}

static PyObject *
frame_sizeof(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSize_t(_PyObject_VAR_SIZE(Py_TYPE(self), Py_SIZE(self)));
}

static PyObject *
frame_repr(PyObject *self)
{
    PyFrameObject *f = (PyFrameObject *)self;
    PyCodeObject *code = frame_code(f);
    int lineno = PyFrame_GetLineNumber(f);
    return PyUnicode_FromFormat("<frame at %p, file %R, line %d, code %S>", f, code->co_filename,
                                lineno, code->co_name);
}

static PyMethodDef frame_methods[] = {
    {"clear", frame_clear, METH_NOARGS,
     "clear($self, /)\n--\n\nClear the frame's locals (not allowed while it runs)."},
    {"__sizeof__", frame_sizeof, METH_NOARGS, NULL},
    {NULL},
};

PyTypeObject PyFrame_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "frame",
    .tp_basicsize = offsetof(PyFrameObject, _f_frame_data),
    .tp_itemsize = sizeof(_PyStackRef),
    .tp_dealloc = frame_dealloc,
    .tp_repr = frame_repr,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = frame_traverse,
    .tp_clear = frame_tp_clear,
    .tp_methods = frame_methods,
    .tp_members = frame_memberlist,
    .tp_getset = frame_getsetlist,
};

/* A frame object that owns a fresh frame for `code` (C code making
   traceback entries, tools).  The frame has not started: no locals are
   bound and its instruction pointer is at the start of the code. */
PyFrameObject *
PyFrame_New(PyThreadState *tstate, PyCodeObject *code, PyObject *globals, PyObject *locals)
{
    PyObject *builtins = _PyEval_BuiltinsFromGlobals(tstate, globals);
    if (builtins == NULL) {
        return NULL;
    }
    PyFunctionObject *func = _PyFunction_FromCode(code, globals, builtins, NULL);
    if (func == NULL) {
        return NULL;
    }
    PyFrameObject *f = _PyFrame_New_NoTrack(code);
    if (f == NULL) {
        Py_DECREF(func);
        return NULL;
    }
    _PyInterpreterFrame *frame = (_PyInterpreterFrame *)f->_f_frame_data;
    _PyFrame_Initialize(tstate, frame, PyStackRef_FromPyObjectSteal((PyObject *)func),
                        Py_XNewRef(locals), code, 0, NULL);
    frame->owner = FRAME_OWNED_BY_FRAME_OBJECT;
    frame->frame_obj = f;
    f->f_frame = frame;
    PyObject_GC_Track(f);
    return f;
}
