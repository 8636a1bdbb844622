/* The specializer: rewrites adaptive instructions into forms specialised
   for the types they actually see.

   Each specializable instruction (a family head in Python/bytecodes.c)
   starts with a counter in its first inline cache entry.  When it reaches
   zero the head calls in here; we look at the operands and either write a
   specialised opcode over the instruction (which then guards its
   assumptions and jumps back to the head when they fail) or leave the head
   in place with a longer wait before the next attempt.  See the counter
   helpers in Include/internal/pycore_code.h. */

#include "Python.h"
#include "pycore_code.h"
#include "pycore_dict.h"
#include "pycore_long.h"
#include "pycore_typeobject.h"
#include "pycore_unicodeobject.h"
#include "pycore_ceval.h"
#include "pycore_call.h"
#include "pycore_opcode_utils.h"
#include "pycore_pystate.h"
#include "pycore_genobject.h"
#include "pycore_identifiers.h"
#include "opcode_ids.h"
#include "pycore_opcode_metadata.h"
#include "pycore_optimizer.h"

int _Py_Specialization_Enabled = 1;

/* Reset every instruction with inline caches to its generic form with a
   fresh counter (or "never" when specialization is off). */
void
_PyCode_Quicken(_Py_CODEUNIT *instructions, Py_ssize_t size, int enable_counters)
{
    uint16_t initial = enable_counters ? adaptive_counter_bits(ADAPTIVE_WARMUP_VALUE,
                                                               ADAPTIVE_INITIAL_BACKOFF)
                                       : ADAPTIVE_COUNTER_NEVER;
    for (Py_ssize_t i = 0; i < size; i++) {
        int opcode = _PyOpcode_Deopt[instructions[i].op.code];
        int caches = _PyOpcode_Caches[opcode];
        instructions[i].op.code = (uint8_t)opcode;
        if (caches) {
            instructions[i + 1].cache = initial;
#ifdef _Py_TIER2
            if (opcode == JUMP_BACKWARD) {
                /* Counts the loop's iterations towards a trace. */
                instructions[i + 1].cache = adaptive_counter_bits(_Py_Tier2_BackedgeThreshold, 0);
            }
#endif
            for (int j = 2; j <= caches; j++) {
                instructions[i + j].cache = 0;
            }
            i += caches;
        }
    }
}

/* Commit a decision: the specialised opcode with a cooldown, or the generic
   one backed off. */
static void
specialize(_Py_CODEUNIT *instr, int specialized_opcode)
{
    instr->op.code = (uint8_t)specialized_opcode;
    instr[1].cache = adaptive_counter_cooldown();
}

static void
unspecialize(_Py_CODEUNIT *instr)
{
    instr->op.code = (uint8_t)_PyOpcode_Deopt[instr->op.code];
    instr[1].cache = adaptive_counter_backoff(instr[1].cache);
}

static int
binary_op_form(PyObject *lhs, PyObject *rhs, int oparg)
{
    int both_int = PyLong_CheckExact(lhs) && PyLong_CheckExact(rhs);
    int both_float = PyFloat_CheckExact(lhs) && PyFloat_CheckExact(rhs);
    switch (oparg) {
    case NB_ADD:
    case NB_INPLACE_ADD:
        if (PyUnicode_CheckExact(lhs) && PyUnicode_CheckExact(rhs)) {
            return BINARY_OP_ADD_UNICODE;
        }
        return both_int ? BINARY_OP_ADD_INT : both_float ? BINARY_OP_ADD_FLOAT : 0;
    case NB_SUBTRACT:
    case NB_INPLACE_SUBTRACT:
        return both_int ? BINARY_OP_SUBTRACT_INT : both_float ? BINARY_OP_SUBTRACT_FLOAT : 0;
    case NB_MULTIPLY:
    case NB_INPLACE_MULTIPLY:
        return both_int ? BINARY_OP_MULTIPLY_INT : both_float ? BINARY_OP_MULTIPLY_FLOAT : 0;
    case NB_SUBSCR:
        if (PyLong_CheckExact(rhs) && _PyLong_IsCompact((PyLongObject *)rhs)) {
            if (PyList_CheckExact(lhs)) {
                return BINARY_OP_SUBSCR_LIST_INT;
            }
            if (PyTuple_CheckExact(lhs)) {
                return BINARY_OP_SUBSCR_TUPLE_INT;
            }
            if (PyUnicode_CheckExact(lhs)) {
                return BINARY_OP_SUBSCR_STR_INT;
            }
        }
        return PyDict_CheckExact(lhs) ? BINARY_OP_SUBSCR_DICT : 0;
    default:
        return 0;
    }
}

void
_Py_Specialize_BinaryOp(_PyStackRef lhs, _PyStackRef rhs, _Py_CODEUNIT *instr, int oparg,
                        _PyStackRef *locals)
{
    int form = binary_op_form(PyStackRef_AsPyObjectBorrow(lhs), PyStackRef_AsPyObjectBorrow(rhs), oparg);
    if (form == BINARY_OP_ADD_UNICODE) {
        /* `s += t` / `s = s + t` with s a local the next instruction
           stores back: append in place (BINARY_OP_INPLACE_ADD_UNICODE). */
        _Py_CODEUNIT *store = instr + 1 + INLINE_CACHE_ENTRIES_BINARY_OP;
        if (store->op.code == STORE_FAST && PyStackRef_Is(locals[store->op.arg], lhs)) {
            form = BINARY_OP_INPLACE_ADD_UNICODE;
        }
    }
    if (form) {
        specialize(instr, form);
    }
    else {
        unspecialize(instr);
    }
}

void
_Py_Specialize_CompareOp(_PyStackRef lhs, _PyStackRef rhs, _Py_CODEUNIT *instr, int oparg)
{
    PyObject *left = PyStackRef_AsPyObjectBorrow(lhs);
    PyObject *right = PyStackRef_AsPyObjectBorrow(rhs);
    int op = oparg >> 5;
    if (PyLong_CheckExact(left) && PyLong_CheckExact(right) && _PyLong_IsCompact((PyLongObject *)left) &&
        _PyLong_IsCompact((PyLongObject *)right)) {
        specialize(instr, COMPARE_OP_INT);
    }
    else if (PyFloat_CheckExact(left) && PyFloat_CheckExact(right)) {
        specialize(instr, COMPARE_OP_FLOAT);
    }
    else if (PyUnicode_CheckExact(left) && PyUnicode_CheckExact(right) && (op == Py_EQ || op == Py_NE)) {
        specialize(instr, COMPARE_OP_STR);
    }
    else {
        unspecialize(instr);
    }
}

void
_Py_Specialize_ToBool(_PyStackRef value, _Py_CODEUNIT *instr)
{
    PyObject *v = PyStackRef_AsPyObjectBorrow(value);
    if (PyBool_Check(v)) {
        specialize(instr, TO_BOOL_BOOL);
    }
    else if (PyLong_CheckExact(v)) {
        specialize(instr, TO_BOOL_INT);
    }
    else if (PyList_CheckExact(v)) {
        specialize(instr, TO_BOOL_LIST);
    }
    else if (Py_IsNone(v)) {
        specialize(instr, TO_BOOL_NONE);
    }
    else if (PyUnicode_CheckExact(v)) {
        specialize(instr, TO_BOOL_STR);
    }
    else {
        unspecialize(instr);
    }
}

/* FOR_ITER_GEN and SEND_GEN keep the distance to their END_FOR/END_SEND
   in the 16-bit return_offset: a loop body of more than 64K code units
   stays generic. */
static int
return_offset_fits(int oparg)
{
    return oparg <= UINT16_MAX - 1 - INLINE_CACHE_ENTRIES_SEND;
}

void
_Py_Specialize_ForIter(_PyStackRef iter, _PyStackRef index_or_null, _Py_CODEUNIT *instr, int oparg)
{
    PyObject *it = PyStackRef_AsPyObjectBorrow(iter);
    if (!PyStackRef_IsTaggedInt(index_or_null)) {
        if (PyGen_CheckExact(it) && return_offset_fits(oparg)) {
            specialize(instr, FOR_ITER_GEN);
        }
        else {
            unspecialize(instr);
        }
    }
    else if (PyList_CheckExact(it)) {
        specialize(instr, FOR_ITER_LIST);
    }
    else if (PyTuple_CheckExact(it)) {
        specialize(instr, FOR_ITER_TUPLE);
    }
    else {
        specialize(instr, FOR_ITER_VIRTUAL);
    }
}

/* `yield from`/`await` of a plain generator or coroutine resumes its frame
   in the caller's loop (SEND_GEN). */
void
_Py_Specialize_Send(_PyStackRef receiver, _PyStackRef index_or_null, _Py_CODEUNIT *instr, int oparg)
{
    PyObject *r = PyStackRef_AsPyObjectBorrow(receiver);
    if (PyStackRef_IsTaggedInt(index_or_null)) {
        specialize(instr, SEND_VIRTUAL);
    }
    else if ((PyGen_CheckExact(r) || PyCoro_CheckExact(r)) && return_offset_fits(oparg)) {
        specialize(instr, SEND_GEN);
    }
    else {
        unspecialize(instr);
    }
}

/* GET_ITER: the two shapes that need no iterator made. */
void
_Py_Specialize_GetIter(_PyStackRef iterable, _Py_CODEUNIT *instr)
{
    PyObject *o = PyStackRef_AsPyObjectBorrow(iterable);
    if (Py_TYPE(o)->_tp_iteritem != NULL) {
        specialize(instr, GET_ITER_VIRTUAL);
    }
    else if (Py_TYPE(o)->tp_iter == PyObject_SelfIter && PyIter_Check(o)) {
        specialize(instr, GET_ITER_SELF);
    }
    else {
        unspecialize(instr);
    }
}

/* Whether an instruction may push a frame for `func` itself: it runs
   through the interpreter (nothing replaced its vectorcall) and has a
   version for the guards to check. */
static int
can_push_frame_for(PyFunctionObject *func)
{
    return func->vectorcall == _PyFunction_Vectorcall && func->func_version != 0;
}

/* 1 if a call of func with `argcount` positional arguments binds them
   one to one to its parameters (and func can be inlined and versioned). */
static int
takes_exactly_positional(PyFunctionObject *func, int argcount)
{
    PyCodeObject *code = (PyCodeObject *)func->func_code;
    return can_push_frame_for(func) && !(code->co_flags & (CO_VARARGS | CO_VARKEYWORDS)) &&
           code->co_kwonlyargcount == 0 && code->co_argcount == argcount;
}

/* cls(args) for a class that is not CALL_ALLOC_AND_ENTER_INIT's:
   CALL_BUILTIN_CLASS when the class makes its instances through its own
   vectorcall, else a plain vectorcall. */
static void
specialize_other_class_call(PyTypeObject *cls, _PyStackRef self_or_null, _Py_CODEUNIT *instr)
{
    if (PyStackRef_IsNull(self_or_null) && cls->tp_vectorcall != NULL) {
        specialize(instr, CALL_BUILTIN_CLASS);
    }
    else {
        specialize(instr, CALL_NON_PY_GENERAL);
    }
}

/* cls(args): CALL_ALLOC_AND_ENTER_INIT when making an instance is exactly
   object.__new__ (so plain allocation) followed by a Python __init__ that
   takes the instance and these arguments.  The metaclass must be `type`
   itself (whose __call__ nobody can change), and the class must be a heap
   type, where the __init__ is remembered for the fast path. */
static void
specialize_class_call(PyTypeObject *cls, _PyStackRef self_or_null, _Py_CODEUNIT *instr, int oparg)
{
    if (!PyStackRef_IsNull(self_or_null) || Py_TYPE(cls) != &PyType_Type ||
        !(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || (cls->tp_flags & Py_TPFLAGS_IS_ABSTRACT) ||
        cls->tp_new != PyBaseObject_Type.tp_new || cls->tp_alloc != PyType_GenericAlloc ||
        _PyEval_SpecializedCallables.init_shim == NULL || !_PyType_AssignVersionTag(cls)) {
        specialize_other_class_call(cls, self_or_null, instr);
        return;
    }
    PyObject *init = _PyType_Lookup(cls, _Py_ID(__init__));
    if (init == NULL || !PyFunction_Check(init) ||
        !takes_exactly_positional((PyFunctionObject *)init, oparg + 1)) {
        specialize_other_class_call(cls, self_or_null, instr);
        return;
    }
    PyHeapTypeObject *heap = (PyHeapTypeObject *)cls;
    heap->_spec_init = init;
    heap->_spec_init_version = ((PyFunctionObject *)init)->func_version;
    write_u32(&instr[2].cache, cls->tp_version_tag);
    specialize(instr, CALL_ALLOC_AND_ENTER_INIT);
}

/* The specialised form for calling a C function (0 if none).  Method
   descriptors also need their calling convention remembered: it is
   returned in the bits above the opcode, for the first cache entry after
   the counter. */
static int
c_call_form(PyObject *callable, _PyStackRef self_or_null, int oparg)
{
    int has_self = !PyStackRef_IsNull(self_or_null);
    if (!has_self && oparg == 1) {
        if (callable == (PyObject *)&PyType_Type) {
            return CALL_TYPE_1;
        }
        if (callable == (PyObject *)&PyUnicode_Type) {
            return CALL_STR_1;
        }
        if (callable == (PyObject *)&PyTuple_Type) {
            return CALL_TUPLE_1;
        }
    }
    if (!has_self && oparg == 2 && callable == _PyEval_SpecializedCallables.isinstance) {
        return CALL_ISINSTANCE;
    }
    if (PyCFunction_CheckExact(callable) && !has_self) {
        int flags = PyCFunction_GET_FLAGS(callable);
        if (flags == METH_O && oparg == 1) {
            return CALL_BUILTIN_O;
        }
        if (flags == METH_FASTCALL && oparg <= _PY_DIRECT_CALL_MAX_ARGS) {
            return CALL_BUILTIN_FAST;
        }
        if (flags == (METH_FASTCALL | METH_KEYWORDS) && oparg <= _PY_DIRECT_CALL_MAX_ARGS) {
            return CALL_BUILTIN_FAST_WITH_KEYWORDS;
        }
        return 0;
    }
    if (Py_IS_TYPE(callable, &PyMethodDescr_Type) && has_self) {
        int flags = ((PyMethodDescrObject *)callable)->d_method->ml_flags;
        int form = flags == METH_NOARGS && oparg == 0 ? CALL_METHOD_DESCRIPTOR_NOARGS
                   : flags == METH_O && oparg == 1    ? CALL_METHOD_DESCRIPTOR_O
                   : oparg > _PY_DIRECT_CALL_MAX_ARGS ? 0
                   : flags == METH_FASTCALL ? CALL_METHOD_DESCRIPTOR_FAST
                   : flags == (METH_FASTCALL | METH_KEYWORDS) ? CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS
                                                              : 0;
        return form ? form | (flags << 8) : 0;
    }
    return 0;
}

/* The body of the CALL_BUILTIN_* and CALL_METHOD_DESCRIPTOR_* forms (see
   pycore_code.h): what the function's own vectorcall does once its
   argument count is known to suit its calling convention. */
PyObject *
_PyEval_CallMethodDefDirect(PyThreadState *tstate, PyObject *callable, PyMethodDef *def, PyObject *self,
                            _PyStackRef *args, int nargs)
{
    if (_Py_EnterRecursiveCallTstate(tstate, " while calling a Python object")) {
        return NULL;
    }
    PyObject *res;
    int convention = def->ml_flags & (METH_NOARGS | METH_O | METH_FASTCALL | METH_KEYWORDS);
    if (convention == METH_NOARGS) {
        res = def->ml_meth(self, NULL);
    }
    else if (convention == METH_O) {
        res = def->ml_meth(self, PyStackRef_AsPyObjectBorrow(args[0]));
    }
    else {
        PyObject *argv[_PY_DIRECT_CALL_MAX_ARGS + 1];
        for (int i = 0; i < nargs; i++) {
            argv[i] = PyStackRef_AsPyObjectBorrow(args[i]);
        }
        if (convention & METH_KEYWORDS) {
            res = ((PyCFunctionFastWithKeywords)(void (*)(void))def->ml_meth)(self, argv, nargs, NULL);
        }
        else {
            res = ((PyCFunctionFast)(void (*)(void))def->ml_meth)(self, argv, nargs);
        }
    }
    _Py_LeaveRecursiveCallTstate(tstate);
    return _Py_CheckFunctionResult(tstate, callable, res, NULL);
}

/* CALL: Python functions whose parameters are exactly the positional
   arguments given (no defaults needed; no star-args, double-star-kwargs or keyword-only). */
void
_Py_Specialize_Call(_PyStackRef callable, _PyStackRef self_or_null, _Py_CODEUNIT *instr, int oparg)
{
    PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
    if (oparg == 1 && callable_o == _PyEval_SpecializedCallables.len && PyStackRef_IsNull(self_or_null)) {
        specialize(instr, CALL_LEN);
        return;
    }
    if (oparg == 1 && callable_o == _PyEval_SpecializedCallables.list_append &&
        !PyStackRef_IsNull(self_or_null) && PyList_CheckExact(PyStackRef_AsPyObjectBorrow(self_or_null))) {
        specialize(instr, CALL_LIST_APPEND);
        return;
    }
    int c_form = c_call_form(callable_o, self_or_null, oparg);
    if (c_form) {
        if (c_form >= 0x100) {
            instr[2].cache = (uint16_t)(c_form >> 8);
            c_form &= 0xff;
        }
        specialize(instr, c_form);
        return;
    }
    if (PyType_Check(callable_o)) {
        specialize_class_call((PyTypeObject *)callable_o, self_or_null, instr, oparg);
        return;
    }
    int bound = Py_IS_TYPE(callable_o, &PyMethod_Type) && PyStackRef_IsNull(self_or_null);
    PyObject *func = bound ? PyMethod_GET_FUNCTION(callable_o) : callable_o;
    if (!PyFunction_Check(func)) {
        /* A bound method of something else goes through the generic CALL,
           which unpacks it and calls that. */
        if (bound) {
            unspecialize(instr);
        }
        else {
            specialize(instr, CALL_NON_PY_GENERAL);
        }
        return;
    }
    if (!can_push_frame_for((PyFunctionObject *)func)) {
        unspecialize(instr);
        return;
    }
    int form;
    if (takes_exactly_positional((PyFunctionObject *)func, oparg + (bound || !PyStackRef_IsNull(self_or_null)))) {
        form = bound ? CALL_BOUND_METHOD_EXACT_ARGS : CALL_PY_EXACT_ARGS;
    }
    else {
        form = bound ? CALL_BOUND_METHOD_GENERAL : CALL_PY_GENERAL;
    }
    write_u32(&instr[2].cache, ((PyFunctionObject *)func)->func_version);
    specialize(instr, form);
}

/* CALL_KW: Python functions and bound methods get their frame pushed by
   the instruction (any signature), everything else is a vectorcall. */
void
_Py_Specialize_CallKw(_PyStackRef callable, _PyStackRef self_or_null, _Py_CODEUNIT *instr, int oparg)
{
    assert(_PyOpcode_Caches[CALL_KW] == INLINE_CACHE_ENTRIES_CALL_KW);
    PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
    int bound = Py_IS_TYPE(callable_o, &PyMethod_Type) && PyStackRef_IsNull(self_or_null);
    PyObject *func = bound ? PyMethod_GET_FUNCTION(callable_o) : callable_o;
    if (!PyFunction_Check(func)) {
        if (bound) {
            unspecialize(instr);
        }
        else {
            specialize(instr, CALL_KW_NON_PY);
        }
        return;
    }
    if (!can_push_frame_for((PyFunctionObject *)func)) {
        unspecialize(instr);
        return;
    }
    write_u32(&instr[2].cache, ((PyFunctionObject *)func)->func_version);
    specialize(instr, bound ? CALL_KW_BOUND_METHOD : CALL_KW_PY);
}

/* 1 if obj's instance dict has `name` (or the lookup failed: callers then
   take the generic path, which reports errors properly). */
int
_PyObject_InstanceDictHas(PyObject *obj, PyObject *name)
{
    PyObject **dictptr = _PyObject_GetDictPtr(obj);
    if (dictptr == NULL || *dictptr == NULL) {
        return 0;
    }
    int r = PyDict_Contains(*dictptr, name);
    if (r < 0) {
        PyErr_Clear();
        return 1;
    }
    return r;
}

/* Where `name` sits in `dict`, for the forms that check a remembered
   entry (*_WITH_HINT, LOAD_ATTR_MODULE): its entry's position, or -1 when
   the dict is missing or not exact, the name is absent or its position
   does not fit a cache entry. */
static int
dict_hint(PyObject *dict, PyObject *name)
{
    if (dict == NULL || !PyDict_CheckExact(dict)) {
        return -1;
    }
    Py_ssize_t index = _PyDict_LookupIndex((PyDictObject *)dict, name);
    if (index == DKIX_ERROR) {
        PyErr_Clear();
    }
    if (index < 0 || index > UINT16_MAX) {
        return -1;
    }
    return (int)index;
}

/* dict_hint in obj's instance dict, when its type keeps that dict at a
   fixed positive offset (what the instructions read). */
static int
instance_dict_hint(PyObject *obj, PyObject *name)
{
    if (Py_TYPE(obj)->tp_dictoffset <= 0) {
        return -1;
    }
    return dict_hint(_PyObject_InlineDictAt(obj), name);
}

/* The offset of the object slot behind `descr` when it is a plain
   __slots__-style member of tp (an object field raising AttributeError
   when empty; writable too if `for_store`), else -1. */
static int
slot_member_offset(PyTypeObject *tp, PyObject *descr, int for_store)
{
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        return -1;
    }
    PyMemberDescrObject *member = (PyMemberDescrObject *)descr;
    PyMemberDef *def = member->d_member;
    int unusual = Py_AUDIT_READ | Py_RELATIVE_OFFSET | (for_store ? Py_READONLY : 0);
    if (def->type != Py_T_OBJECT_EX || (def->flags & unusual) || def->offset <= 0 ||
        def->offset > UINT16_MAX || !PyType_IsSubtype(tp, member->d_common.d_type)) {
        return -1;
    }
    return (int)def->offset;
}

/* Functions and method descriptors: what a method call can take unbound,
   passing the instance as the first argument. */
static int
is_plain_method(PyObject *descr)
{
    return descr != NULL && (PyFunction_Check(descr) ||
                             PyType_HasFeature(Py_TYPE(descr), Py_TPFLAGS_METHOD_DESCRIPTOR));
}

/* Instances of classes with the generic attribute protocol: methods (with
   or without an instance dict to check for shadowing), instance dict
   attributes, __slots__ members.  Returns the form (caches written) or 0. */
static int
instance_attr_form(PyObject *obj, _Py_CODEUNIT *instr, PyObject *name, int method)
{
    PyTypeObject *tp = Py_TYPE(obj);
    if (tp->tp_getattro != PyObject_GenericGetAttr || !_PyType_AssignVersionTag(tp)) {
        return 0;
    }
    PyObject *descr = _PyType_Lookup(tp, name);
    if (method) {
        if (!is_plain_method(descr)) {
            return 0;
        }
        write_u32(&instr[2].cache, tp->tp_version_tag);
        write_obj(&instr[6].cache, descr);
        return tp->tp_dictoffset == 0 ? LOAD_ATTR_METHOD_NO_DICT : LOAD_ATTR_METHOD_WITH_DICT;
    }
    int where = descr == NULL ? instance_dict_hint(obj, name) : slot_member_offset(tp, descr, 0);
    if (where < 0) {
        return 0;
    }
    write_u32(&instr[2].cache, tp->tp_version_tag);
    instr[4].cache = (uint16_t)where;
    return descr == NULL ? LOAD_ATTR_WITH_HINT : LOAD_ATTR_SLOT;
}

/* module.name for a name in the module's dict (module objects proper; the
   module type is immutable, so checking now that it has no attribute of
   that name is enough). */
static int
module_attr_form(PyObject *module, _Py_CODEUNIT *instr, PyObject *name)
{
    if (_PyType_Lookup(&PyModule_Type, name) != NULL) {
        return 0;
    }
    int hint = dict_hint(((PyModuleObject *)module)->md_dict, name);
    if (hint < 0) {
        return 0;
    }
    instr[4].cache = (uint16_t)hint;
    return LOAD_ATTR_MODULE;
}

/* cls.name found on the class as a plain value or a function, for classes
   whose metaclass is `type` with no attribute of that name (which would
   come first, or be what a miss falls back to). */
static int
class_attr_form(PyTypeObject *cls, _Py_CODEUNIT *instr, PyObject *name)
{
    if (!Py_IS_TYPE(cls, &PyType_Type) || _PyType_Lookup(&PyType_Type, name) != NULL ||
        !_PyType_AssignVersionTag(cls)) {
        return 0;
    }
    PyObject *descr = _PyType_Lookup(cls, name);
    if (descr == NULL || (!PyFunction_Check(descr) && Py_TYPE(descr)->tp_descr_get != NULL)) {
        return 0;
    }
    write_u32(&instr[2].cache, cls->tp_version_tag);
    write_obj(&instr[6].cache, descr);
    return LOAD_ATTR_CLASS;
}

void
_Py_Specialize_LoadAttr(_PyStackRef owner, _Py_CODEUNIT *instr, PyObject *name, int oparg)
{
    PyObject *obj = PyStackRef_AsPyObjectBorrow(owner);
    int form = 0;
    if (PyUnicode_CheckExact(name)) {
        if (PyModule_CheckExact(obj)) {
            form = module_attr_form(obj, instr, name);
        }
        else if (PyType_Check(obj)) {
            form = class_attr_form((PyTypeObject *)obj, instr, name);
        }
        else {
            form = instance_attr_form(obj, instr, name, oparg & 1);
        }
    }
    if (form) {
        specialize(instr, form);
    }
    else {
        unspecialize(instr);
    }
}

void
_Py_Specialize_StoreSubscr(_PyStackRef container, _PyStackRef sub, _Py_CODEUNIT *instr)
{
    PyObject *c = PyStackRef_AsPyObjectBorrow(container);
    PyObject *k = PyStackRef_AsPyObjectBorrow(sub);
    if (PyList_CheckExact(c) && PyLong_CheckExact(k) && _PyLong_IsCompact((PyLongObject *)k)) {
        specialize(instr, STORE_SUBSCR_LIST_INT);
    }
    else if (PyDict_CheckExact(c)) {
        specialize(instr, STORE_SUBSCR_DICT);
    }
    else {
        unspecialize(instr);
    }
}

/* super().name in a method: the builtin super over a real class. */
void
_Py_Specialize_LoadSuperAttr(_PyStackRef global_super, _PyStackRef cls, _Py_CODEUNIT *instr, int oparg)
{
    if (PyStackRef_AsPyObjectBorrow(global_super) == (PyObject *)&PySuper_Type &&
        PyType_Check(PyStackRef_AsPyObjectBorrow(cls))) {
        specialize(instr, (oparg & 1) ? LOAD_SUPER_ATTR_METHOD : LOAD_SUPER_ATTR_ATTR);
    }
    else {
        unspecialize(instr);
    }
}

/* `x in container` for the containers whose membership test is a direct
   hash lookup. */
void
_Py_Specialize_ContainsOp(_PyStackRef container, _Py_CODEUNIT *instr)
{
    PyObject *c = PyStackRef_AsPyObjectBorrow(container);
    if (PySet_CheckExact(c) || PyFrozenSet_CheckExact(c)) {
        specialize(instr, CONTAINS_OP_SET);
    }
    else if (PyDict_CheckExact(c)) {
        specialize(instr, CONTAINS_OP_DICT);
    }
    else {
        unspecialize(instr);
    }
}

void
_Py_Specialize_UnpackSequence(_PyStackRef seq, _Py_CODEUNIT *instr, int oparg)
{
    PyObject *s = PyStackRef_AsPyObjectBorrow(seq);
    if (PyTuple_CheckExact(s) && PyTuple_GET_SIZE(s) == oparg) {
        specialize(instr, oparg == 2 ? UNPACK_SEQUENCE_TWO_TUPLE : UNPACK_SEQUENCE_TUPLE);
    }
    else if (PyList_CheckExact(s) && PyList_GET_SIZE(s) == oparg) {
        specialize(instr, UNPACK_SEQUENCE_LIST);
    }
    else {
        unspecialize(instr);
    }
}

/* LOAD_GLOBAL of a name in the module's dict (LOAD_GLOBAL_MODULE) or only
   in builtins (LOAD_GLOBAL_BUILTIN): remember the entry and the keys
   versions that keep it valid.  Its cache entries after the counter: */
enum { GLOBALS_VERSION_CACHE = 1, BUILTINS_VERSION_CACHE = 2, GLOBAL_INDEX_CACHE = 3 };

void
_Py_Specialize_LoadGlobal(PyObject *globals, PyObject *builtins, _Py_CODEUNIT *instr, PyObject *names,
                          int index_in_names)
{
    PyObject *name = PyTuple_GET_ITEM(names, index_in_names);
    if (!PyDict_CheckExact(globals) || !PyDict_CheckExact(builtins) || !PyUnicode_CheckExact(name)) {
        unspecialize(instr);
        return;
    }
    PyDictObject *g = (PyDictObject *)globals, *b = (PyDictObject *)builtins;
    Py_ssize_t index = _PyDict_LookupIndex(g, name);
    PyDictObject *home = g;
    int form = LOAD_GLOBAL_MODULE;
    if (index == DKIX_EMPTY) {
        index = _PyDict_LookupIndex(b, name);
        home = b;
        form = LOAD_GLOBAL_BUILTIN;
    }
    if (index == DKIX_ERROR) {
        PyErr_Clear();
    }
    if (index < 0 || index > UINT16_MAX) {
        unspecialize(instr);
        return;
    }
    uint32_t globals_version = _PyDictKeys_GetVersionForCurrentState(g->ma_keys);
    uint32_t builtins_version = form == LOAD_GLOBAL_BUILTIN
        ? _PyDictKeys_GetVersionForCurrentState(b->ma_keys) : 0;
    /* Versions are 16 bits in the cache; they are handed out only here
       (and by other specialising sites), so that is a lot of them. */
    if (globals_version == 0 || globals_version > UINT16_MAX || builtins_version > UINT16_MAX ||
        (form == LOAD_GLOBAL_BUILTIN && builtins_version == 0) ||
        DK_ENTRIES(home->ma_keys)[index].me_value == NULL) {
        unspecialize(instr);
        return;
    }
    instr[1 + GLOBALS_VERSION_CACHE].cache = (uint16_t)globals_version;
    instr[1 + BUILTINS_VERSION_CACHE].cache = (uint16_t)builtins_version;
    instr[1 + GLOBAL_INDEX_CACHE].cache = (uint16_t)index;
    specialize(instr, form);
}

/* STORE_ATTR on instances of classes with the generic attribute protocol:
   writable __slots__ members, and instance dict attributes where the class
   has no attribute of that name. */
void
_Py_Specialize_StoreAttr(_PyStackRef owner, _Py_CODEUNIT *instr, PyObject *name)
{
    PyObject *obj = PyStackRef_AsPyObjectBorrow(owner);
    PyTypeObject *tp = Py_TYPE(obj);
    if (tp->tp_setattro != PyObject_GenericSetAttr || !PyUnicode_CheckExact(name) ||
        !_PyType_AssignVersionTag(tp)) {
        unspecialize(instr);
        return;
    }
    PyObject *descr = _PyType_Lookup(tp, name);
    int offset = slot_member_offset(tp, descr, 1);
    if (offset >= 0) {
        write_u32(&instr[2].cache, tp->tp_version_tag);
        instr[4].cache = (uint16_t)offset;
        specialize(instr, STORE_ATTR_SLOT);
        return;
    }
    if (descr != NULL || tp->tp_dictoffset == 0) {
        unspecialize(instr);
        return;
    }
    write_u32(&instr[2].cache, tp->tp_version_tag);
    /* Replacing a value in place needs the name already there; adding it
       (as __init__ does) goes through the dict's insertion. */
    int hint = instance_dict_hint(obj, name);
    if (hint >= 0) {
        instr[4].cache = (uint16_t)hint;
        specialize(instr, STORE_ATTR_WITH_HINT);
        return;
    }
    specialize(instr, STORE_ATTR_INSTANCE_VALUE);
}

/* Builtins that CALL specialises by identity.  Strong references, taken
   once the builtins exist and dropped at exit, so an identity guard can
   never match a different object reusing a freed address. */
struct _PyEval_SpecializedCallables _PyEval_SpecializedCallables;

/* The code of CALL_ALLOC_AND_ENTER_INIT's shim frame (see
   _PyEval_PushInitFrames): check what __init__ returned, then return the
   new object.  Its first traceable instruction is past its end, so every
   frame running it counts as incomplete and is hidden from tracebacks,
   f_back and sys._getframe. */
static PyCodeObject *
make_init_shim(void)
{
    static const _Py_CODEUNIT body[] = {
        {.op = {EXIT_INIT_CHECK, 0}},
        {.op = {RETURN_VALUE, 0}},
    };
    PyObject *code = PyBytes_FromStringAndSize((const char *)body, sizeof(body));
    PyObject *no_bytes = PyBytes_FromStringAndSize(NULL, 0);
    PyObject *no_names = PyTuple_New(0);
    PyObject *label = PyUnicode_FromString("__init__");
    PyObject *origin = PyUnicode_FromString("<class call>");
    PyCodeObject *shim = NULL;
    if (code != NULL && no_bytes != NULL && no_names != NULL && label != NULL && origin != NULL) {
        struct _PyCodeConstructor parts = {
            .filename = origin,
            .name = label,
            .qualname = label,
            .flags = CO_OPTIMIZED | CO_NEWLOCALS,
            .code = code,
            .linetable = no_bytes,
            .consts = no_names,
            .names = no_names,
            .localsplusnames = no_names,
            .localspluskinds = no_bytes,
            .stacksize = 2,
            .exceptiontable = no_bytes,
        };
        shim = _PyCode_New(&parts);
    }
    if (shim != NULL) {
        shim->_co_firsttraceable = (int)Py_SIZE(shim);
    }
    Py_XDECREF(code);
    Py_XDECREF(no_bytes);
    Py_XDECREF(no_names);
    Py_XDECREF(label);
    Py_XDECREF(origin);
    return shim;
}

int
_Py_InitSpecializedCallables(PyInterpreterState *interp)
{
    PyObject *len = PyDict_GetItemString(interp->builtins, "len");
    PyObject *append = _PyType_Lookup(&PyList_Type, PyUnicode_InternFromString("append"));
    if (len == NULL || append == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_SystemError, "builtins for the specializer are missing");
        }
        return -1;
    }
    PyObject *isinstance = PyDict_GetItemString(interp->builtins, "isinstance");
    if (isinstance == NULL) {
        PyErr_SetString(PyExc_SystemError, "builtins for the specializer are missing");
        return -1;
    }
    PyCodeObject *shim = make_init_shim();
    if (shim == NULL) {
        return -1;
    }
    _PyEval_SpecializedCallables.isinstance = Py_NewRef(isinstance);
    _PyEval_SpecializedCallables.len = Py_NewRef(len);
    _PyEval_SpecializedCallables.list_append = Py_NewRef(append);
    _PyEval_SpecializedCallables.init_shim = shim;
    return 0;
}

void
_Py_FiniSpecializedCallables(void)
{
    Py_CLEAR(_PyEval_SpecializedCallables.len);
    Py_CLEAR(_PyEval_SpecializedCallables.list_append);
    Py_CLEAR(_PyEval_SpecializedCallables.init_shim);
    Py_CLEAR(_PyEval_SpecializedCallables.isinstance);
}
