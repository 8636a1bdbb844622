/* The instruction set, in the bytecode DSL.

   This file is the single source of truth for every instruction: its
   stack effect, inline cache entries, micro-op decomposition and body.
   Tools/cases_generator reads it and writes the interpreter cases
   (Python/generated_cases.c.h), the opcode numbers and metadata, and
   Lib/_opcode_metadata.py.  The DSL is described in
   Tools/cases_generator/README.md.  This file is not compiled itself.

   Conventions inside bodies (see Python/ceval_macros.h):
   - Inputs have been read into locals; stack_pointer still points just
     above them while the body runs.  Outputs are stored and stack_pointer
     adjusted by generated code after the body.
   - ERROR_IF(cond): the body has already consumed (closed or stolen) its
     inputs; they are dropped from the stack and the error path runs.
     ERROR_NO_POP(): the inputs are still owned by the stack.
   - Instructions that switch frames (calls, returns) set stack_pointer
     themselves; see _PUSH_FRAME and RETURN_VALUE.

   Notes:
   - Jump opargs are in code units, relative to the instruction after the
     jump's inline caches.
   - FOR_ITER jumps to the END_FOR after the loop but skips it: END_FOR is
     only a target for tools; the pair left by GET_ITER is popped by the
     POP_ITER that follows. */

#include "Python.h"
#include "pycore_ceval.h"
#include "pycore_code.h"
#include "pycore_dict.h"
#include "pycore_frame.h"
#include "pycore_genobject.h"
#include "pycore_instruments.h"
#include "pycore_long.h"
#include "pycore_opcode_utils.h"
#include "pycore_template.h"
#include "pycore_unicodeobject.h"
#include "ceval_macros.h"

// BEGIN BYTECODES //

        /* ---- Frame entry, no-ops ------------------------------------- */

        inst(NOP, (--)) {
        }

        inst(NOT_TAKEN, (--)) {
        }

        inst(CACHE, (--)) {
            assert(0 && "Executing a cache.");
            Py_FatalError("Executing a cache.");
        }

        inst(RESERVED, (--)) {
            assert(0 && "Executing RESERVED instruction.");
            Py_FatalError("Executing RESERVED instruction.");
        }

        /* Start of a function body (and resumption points of generators).
           Polls the eval breaker so long-running code notices signals. */
        /* Polls the eval breaker so long-running code notices signals,
           pending calls and collection requests. */
        op(_CHECK_PERIODIC, (--)) {
            CHECK_EVAL_BREAKER();
        }

        op(_RESUME_CHECK_OPARG, (--)) {
            assert((oparg & RESUME_OPARG_LOCATION_MASK) <= RESUME_AFTER_AWAIT);
        }

        /* sys.monitoring: a code object instrumented for an older set of
           events (or never looked at since events changed) is brought up
           to date, and the instruction runs again in its new form. */
        /* Version 0 means "no tool ever asked": one global load, and
           nothing about the frame is read. */
        untraced op(_MAYBE_INSTRUMENT, (--)) {
            uint32_t version = _Py_instrumentation_version;
            if (version != 0 && _PyFrame_GetCode(frame)->_co_instrumentation_version != version) {
                int err = _PyMonitoring_InstrumentCode(tstate, _PyFrame_GetCode(frame));
                ERROR_IF(err < 0);
                next_instr = this_instr;
                DISPATCH();
            }
        }

        /* Start of a function body and resumption points of generators. */
        macro(RESUME) = _RESUME_CHECK_OPARG + _MAYBE_INSTRUMENT + _CHECK_PERIODIC;

        inst(EXTENDED_ARG, (--)) {
            assert(oparg);
            opcode = next_instr->op.code;
            oparg = oparg << 8 | next_instr->op.arg;
            PRE_DISPATCH_GOTO();
            DISPATCH_GOTO();
        }

        /* ---- Locals ---------------------------------------------------- */

        inst(LOAD_FAST_CHECK, (-- value)) {
            _PyStackRef value_s = GETLOCAL(oparg);
            if (PyStackRef_IsNull(value_s)) {
                _PyEval_FormatExcCheckArg(tstate, PyExc_UnboundLocalError,
                    "cannot access local variable '%s' where it is not associated with a value",
                    PyTuple_GetItem(_PyFrame_GetCode(frame)->co_localsplusnames, oparg));
                ERROR_IF(1);
            }
            value = PyStackRef_DUP(value_s);
        }

        inst(LOAD_FAST, (-- value)) {
            assert(!PyStackRef_IsNull(GETLOCAL(oparg)));
            value = PyStackRef_DUP(GETLOCAL(oparg));
        }

        /* The compiler proved the local outlives this stack slot, so the
           value can be pushed without touching its reference count. */
        inst(LOAD_FAST_BORROW, (-- value)) {
            assert(!PyStackRef_IsNull(GETLOCAL(oparg)));
            value = PyStackRef_FromPyObjectBorrow(PyStackRef_AsPyObjectBorrow(GETLOCAL(oparg)));
        }

        inst(LOAD_FAST_AND_CLEAR, (-- value)) {
            value = GETLOCAL(oparg);
            GETLOCAL(oparg) = PyStackRef_NULL;
        }

        inst(LOAD_FAST_LOAD_FAST, ( -- value1, value2)) {
            uint32_t oparg1 = oparg >> 4;
            uint32_t oparg2 = oparg & 15;
            value1 = PyStackRef_DUP(GETLOCAL(oparg1));
            value2 = PyStackRef_DUP(GETLOCAL(oparg2));
        }

        inst(LOAD_FAST_BORROW_LOAD_FAST_BORROW, ( -- value1, value2)) {
            uint32_t oparg1 = oparg >> 4;
            uint32_t oparg2 = oparg & 15;
            value1 = PyStackRef_FromPyObjectBorrow(PyStackRef_AsPyObjectBorrow(GETLOCAL(oparg1)));
            value2 = PyStackRef_FromPyObjectBorrow(PyStackRef_AsPyObjectBorrow(GETLOCAL(oparg2)));
        }

        /* A borrowed value must become owned before a local keeps it. */
        inst(STORE_FAST, (value --)) {
            _PyStackRef tmp = GETLOCAL(oparg);
            GETLOCAL(oparg) = PyStackRef_MakeHeapSafe(value);
            PyStackRef_XCLOSE(tmp);
        }

        inst(STORE_FAST_LOAD_FAST, (value1 -- value2)) {
            uint32_t oparg1 = oparg >> 4;
            uint32_t oparg2 = oparg & 15;
            _PyStackRef tmp = GETLOCAL(oparg1);
            GETLOCAL(oparg1) = PyStackRef_MakeHeapSafe(value1);
            PyStackRef_XCLOSE(tmp);
            value2 = PyStackRef_DUP(GETLOCAL(oparg2));
        }

        inst(STORE_FAST_STORE_FAST, (value2, value1 --)) {
            uint32_t oparg1 = oparg >> 4;
            uint32_t oparg2 = oparg & 15;
            _PyStackRef tmp = GETLOCAL(oparg1);
            GETLOCAL(oparg1) = PyStackRef_MakeHeapSafe(value1);
            PyStackRef_XCLOSE(tmp);
            tmp = GETLOCAL(oparg2);
            GETLOCAL(oparg2) = PyStackRef_MakeHeapSafe(value2);
            PyStackRef_XCLOSE(tmp);
        }

        inst(DELETE_FAST, (--)) {
            _PyStackRef v = GETLOCAL(oparg);
            if (PyStackRef_IsNull(v)) {
                _PyEval_FormatExcCheckArg(tstate, PyExc_UnboundLocalError,
                    "cannot access local variable '%s' where it is not associated with a value",
                    PyTuple_GetItem(_PyFrame_GetCode(frame)->co_localsplusnames, oparg));
                ERROR_IF(1);
            }
            GETLOCAL(oparg) = PyStackRef_NULL;
            PyStackRef_CLOSE(v);
        }

        /* ---- Constants ------------------------------------------------- */

        inst(LOAD_CONST, (-- value)) {
            PyObject *obj = GETITEM(FRAME_CO_CONSTS, oparg);
            value = PyStackRef_FromPyObjectNew(obj);
        }

        inst(LOAD_SMALL_INT, (-- value)) {
            assert(oparg < 256);
            value = PyStackRef_FromPyObjectImmortal(_PyLong_FromSmallInt((int)oparg));
        }

        inst(LOAD_COMMON_CONSTANT, (-- value)) {
            assert(oparg < NUM_COMMON_CONSTANTS);
            value = PyStackRef_FromPyObjectNew(_PyEval_CommonConstant(oparg));
        }

        /* ---- Stack manipulation ---------------------------------------- */

        inst(POP_TOP, (value --)) {
            PyStackRef_XCLOSE(value);
        }

        inst(PUSH_NULL, (-- res)) {
            res = PyStackRef_NULL;
        }

        inst(COPY, (bottom, unused[oparg-1] -- bottom, unused[oparg-1], top)) {
            assert(oparg > 0);
            top = PyStackRef_DUP(bottom);
        }

        inst(SWAP, (bottom, unused[oparg-2], top -- top_out, unused[oparg-2], bottom_out)) {
            assert(oparg >= 2);
            top_out = top;
            bottom_out = bottom;
        }

        /* Only reached by tools: FOR_ITER skips it on exhaustion. */
        inst(END_FOR, (value -- )) {
            PyStackRef_CLOSE(value);
        }

        inst(POP_ITER, (iter, index_or_null -- )) {
            (void)index_or_null;
            PyStackRef_CLOSE(iter);
        }

        /* ---- Unary operators ------------------------------------------- */

        inst(UNARY_NEGATIVE, (value -- res)) {
            PyObject *res_o = PyNumber_Negative(PyStackRef_AsPyObjectBorrow(value));
            PyStackRef_CLOSE(value);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        /* The operand is always a bool: the compiler emits TO_BOOL first. */
        inst(UNARY_NOT, (value -- res)) {
            assert(PyBool_Check(PyStackRef_AsPyObjectBorrow(value)));
            res = PyStackRef_IsFalse(value) ? PyStackRef_True : PyStackRef_False;
        }

        inst(UNARY_INVERT, (value -- res)) {
            PyObject *res_o = PyNumber_Invert(PyStackRef_AsPyObjectBorrow(value));
            PyStackRef_CLOSE(value);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        family(TO_BOOL, INLINE_CACHE_ENTRIES_TO_BOOL) = {
            TO_BOOL_BOOL,
            TO_BOOL_INT,
            TO_BOOL_LIST,
            TO_BOOL_NONE,
            TO_BOOL_STR,
        };

        specializing op(_SPECIALIZE_TO_BOOL, (counter/1, value -- value)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_ToBool(value, next_instr);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        op(_TO_BOOL, (value -- res)) {
            PyObject *value_o = PyStackRef_AsPyObjectBorrow(value);
            if (PyBool_Check(value_o)) {
                res = value;
            }
            else {
                int err = PyObject_IsTrue(value_o);
                PyStackRef_CLOSE(value);
                ERROR_IF(err < 0);
                res = err ? PyStackRef_True : PyStackRef_False;
            }
        }

        macro(TO_BOOL) = _SPECIALIZE_TO_BOOL + unused/2 + _TO_BOOL;

        inst(TO_BOOL_BOOL, (unused/1, unused/2, value -- value)) {
            DEOPT_IF(!PyBool_Check(PyStackRef_AsPyObjectBorrow(value)));
        }

        inst(TO_BOOL_INT, (unused/1, unused/2, value -- res)) {
            PyObject *value_o = PyStackRef_AsPyObjectBorrow(value);
            DEOPT_IF(!PyLong_CheckExact(value_o));
            res = _PyLong_IsZero((PyLongObject *)value_o) ? PyStackRef_False : PyStackRef_True;
            PyStackRef_CLOSE_INERT(value);
        }

        inst(TO_BOOL_LIST, (unused/1, unused/2, value -- res)) {
            PyObject *value_o = PyStackRef_AsPyObjectBorrow(value);
            DEOPT_IF(!PyList_CheckExact(value_o));
            res = PyList_GET_SIZE(value_o) ? PyStackRef_True : PyStackRef_False;
            PyStackRef_CLOSE(value);
        }

        inst(TO_BOOL_NONE, (unused/1, unused/2, value -- res)) {
            DEOPT_IF(!PyStackRef_IsNone(value));
            res = PyStackRef_False;
        }

        inst(TO_BOOL_STR, (unused/1, unused/2, value -- res)) {
            PyObject *value_o = PyStackRef_AsPyObjectBorrow(value);
            DEOPT_IF(!PyUnicode_CheckExact(value_o));
            res = PyUnicode_GET_LENGTH(value_o) ? PyStackRef_True : PyStackRef_False;
            PyStackRef_CLOSE_INERT(value);
        }

        /* ---- Binary operators and subscripts ---------------------------- */

        family(BINARY_OP, INLINE_CACHE_ENTRIES_BINARY_OP) = {
            BINARY_OP_ADD_FLOAT,
            BINARY_OP_ADD_INT,
            BINARY_OP_ADD_UNICODE,
            BINARY_OP_INPLACE_ADD_UNICODE,
            BINARY_OP_MULTIPLY_FLOAT,
            BINARY_OP_MULTIPLY_INT,
            BINARY_OP_SUBSCR_LIST_INT,
            BINARY_OP_SUBSCR_TUPLE_INT,
            BINARY_OP_SUBSCR_STR_INT,
            BINARY_OP_SUBSCR_DICT,
            BINARY_OP_SUBTRACT_FLOAT,
            BINARY_OP_SUBTRACT_INT,
        };

        /* Counts down to the next attempt at specializing this site from
           the types it sees (Python/specialize.c). */
        specializing op(_SPECIALIZE_BINARY_OP, (counter/1, lhs, rhs -- lhs, rhs)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_BinaryOp(lhs, rhs, next_instr, oparg, frame->localsplus);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        op(_BINARY_OP, (lhs, rhs -- res)) {
            assert(oparg <= NB_OPARG_LAST);
            PyObject *lhs_o = PyStackRef_AsPyObjectBorrow(lhs);
            PyObject *rhs_o = PyStackRef_AsPyObjectBorrow(rhs);
            PyObject *res_o = _PyEval_BinaryOps[oparg](lhs_o, rhs_o);
            PyStackRef_CLOSE(lhs);
            PyStackRef_CLOSE(rhs);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        /* Cache: counter, then 4 units for the specialised forms. */
        macro(BINARY_OP) = _SPECIALIZE_BINARY_OP + unused/4 + _BINARY_OP;

        op(_GUARD_BOTH_INT, (left, right -- left, right)) {
            DEOPT_IF(!PyLong_CheckExact(PyStackRef_AsPyObjectBorrow(left)));
            DEOPT_IF(!PyLong_CheckExact(PyStackRef_AsPyObjectBorrow(right)));
        }

        op(_GUARD_BOTH_FLOAT, (left, right -- left, right)) {
            DEOPT_IF(!PyFloat_CheckExact(PyStackRef_AsPyObjectBorrow(left)));
            DEOPT_IF(!PyFloat_CheckExact(PyStackRef_AsPyObjectBorrow(right)));
        }

        op(_GUARD_BOTH_UNICODE, (left, right -- left, right)) {
            DEOPT_IF(!PyUnicode_CheckExact(PyStackRef_AsPyObjectBorrow(left)));
            DEOPT_IF(!PyUnicode_CheckExact(PyStackRef_AsPyObjectBorrow(right)));
        }

        pure op(_BINARY_OP_ADD_INT, (left, right -- res)) {
            PyLongObject *l = (PyLongObject *)PyStackRef_AsPyObjectBorrow(left);
            PyLongObject *r = (PyLongObject *)PyStackRef_AsPyObjectBorrow(right);
            PyObject *res_o = _PyLong_BothAreCompact(l, r)
                ? _PyLong_FromCompactResult((int64_t)_PyLong_CompactValue(l) + _PyLong_CompactValue(r))
                : _PyLong_Add(l, r);
            PyStackRef_CLOSE_INERT(left);
            PyStackRef_CLOSE_INERT(right);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        pure op(_BINARY_OP_SUBTRACT_INT, (left, right -- res)) {
            PyLongObject *l = (PyLongObject *)PyStackRef_AsPyObjectBorrow(left);
            PyLongObject *r = (PyLongObject *)PyStackRef_AsPyObjectBorrow(right);
            PyObject *res_o = _PyLong_BothAreCompact(l, r)
                ? _PyLong_FromCompactResult((int64_t)_PyLong_CompactValue(l) - _PyLong_CompactValue(r))
                : _PyLong_Subtract(l, r);
            PyStackRef_CLOSE_INERT(left);
            PyStackRef_CLOSE_INERT(right);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        pure op(_BINARY_OP_MULTIPLY_INT, (left, right -- res)) {
            PyLongObject *l = (PyLongObject *)PyStackRef_AsPyObjectBorrow(left);
            PyLongObject *r = (PyLongObject *)PyStackRef_AsPyObjectBorrow(right);
            PyObject *res_o = _PyLong_BothAreCompact(l, r)
                ? _PyLong_FromCompactResult((int64_t)_PyLong_CompactValue(l) * _PyLong_CompactValue(r))
                : _PyLong_Multiply(l, r);
            PyStackRef_CLOSE_INERT(left);
            PyStackRef_CLOSE_INERT(right);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        pure op(_BINARY_OP_ADD_FLOAT, (left, right -- res)) {
            double d = PyFloat_AS_DOUBLE(PyStackRef_AsPyObjectBorrow(left)) +
                       PyFloat_AS_DOUBLE(PyStackRef_AsPyObjectBorrow(right));
            PyObject *res_o = _PyFloat_ResultFromOperands(left, right, d);
            INPUTS_DEAD();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        pure op(_BINARY_OP_SUBTRACT_FLOAT, (left, right -- res)) {
            double d = PyFloat_AS_DOUBLE(PyStackRef_AsPyObjectBorrow(left)) -
                       PyFloat_AS_DOUBLE(PyStackRef_AsPyObjectBorrow(right));
            PyObject *res_o = _PyFloat_ResultFromOperands(left, right, d);
            INPUTS_DEAD();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        pure op(_BINARY_OP_MULTIPLY_FLOAT, (left, right -- res)) {
            double d = PyFloat_AS_DOUBLE(PyStackRef_AsPyObjectBorrow(left)) *
                       PyFloat_AS_DOUBLE(PyStackRef_AsPyObjectBorrow(right));
            PyObject *res_o = _PyFloat_ResultFromOperands(left, right, d);
            INPUTS_DEAD();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        pure op(_BINARY_OP_ADD_UNICODE, (left, right -- res)) {
            PyObject *res_o = PyUnicode_Concat(PyStackRef_AsPyObjectBorrow(left),
                                               PyStackRef_AsPyObjectBorrow(right));
            PyStackRef_CLOSE_INERT(left);
            PyStackRef_CLOSE_INERT(right);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        /* s += t where s is the local that the STORE_FAST after this
           instruction writes.  The local gives its reference to the
           concatenation (and is empty until that STORE_FAST, the next
           instruction, refills it), so when it was the only one the
           string is extended in place: a loop of `+=` takes amortised
           linear time instead of copying the whole string each time. */
        op(_BINARY_OP_INPLACE_ADD_UNICODE, (left, right -- res)) {
            DEOPT_IF(next_instr->op.code != STORE_FAST);
            _PyStackRef *target = &GETLOCAL(next_instr->op.arg);
            DEOPT_IF(!PyStackRef_Is(*target, left));
            PyStackRef_CLOSE(left);
            PyObject *grown = PyStackRef_AsPyObjectSteal(*target);
            *target = PyStackRef_NULL;
            PyUnicode_Append(&grown, PyStackRef_AsPyObjectBorrow(right));
            PyStackRef_CLOSE(right);
            ERROR_IF(grown == NULL);
            res = PyStackRef_FromPyObjectSteal(grown);
        }

        macro(BINARY_OP_INPLACE_ADD_UNICODE) = _GUARD_BOTH_UNICODE + unused/5 + _BINARY_OP_INPLACE_ADD_UNICODE;
        macro(BINARY_OP_ADD_INT) = _GUARD_BOTH_INT + unused/5 + _BINARY_OP_ADD_INT;
        macro(BINARY_OP_SUBTRACT_INT) = _GUARD_BOTH_INT + unused/5 + _BINARY_OP_SUBTRACT_INT;
        macro(BINARY_OP_MULTIPLY_INT) = _GUARD_BOTH_INT + unused/5 + _BINARY_OP_MULTIPLY_INT;
        macro(BINARY_OP_ADD_FLOAT) = _GUARD_BOTH_FLOAT + unused/5 + _BINARY_OP_ADD_FLOAT;
        macro(BINARY_OP_SUBTRACT_FLOAT) = _GUARD_BOTH_FLOAT + unused/5 + _BINARY_OP_SUBTRACT_FLOAT;
        macro(BINARY_OP_MULTIPLY_FLOAT) = _GUARD_BOTH_FLOAT + unused/5 + _BINARY_OP_MULTIPLY_FLOAT;
        macro(BINARY_OP_ADD_UNICODE) = _GUARD_BOTH_UNICODE + unused/5 + _BINARY_OP_ADD_UNICODE;

        /* list[i] and tuple[i] with an in-range non-negative compact int. */
        inst(BINARY_OP_SUBSCR_LIST_INT, (unused/5, list_st, sub_st -- res)) {
            PyObject *list = PyStackRef_AsPyObjectBorrow(list_st);
            PyObject *sub = PyStackRef_AsPyObjectBorrow(sub_st);
            DEOPT_IF(!PyList_CheckExact(list));
            DEOPT_IF(!PyLong_CheckExact(sub) || !_PyLong_IsCompact((PyLongObject *)sub));
            Py_ssize_t index = _PyLong_CompactValue((PyLongObject *)sub);
            DEOPT_IF(index < 0 || index >= PyList_GET_SIZE(list));
            res = PyStackRef_FromPyObjectNew(PyList_GET_ITEM(list, index));
            PyStackRef_CLOSE_INERT(sub_st);
            PyStackRef_CLOSE(list_st);
        }

        inst(BINARY_OP_SUBSCR_TUPLE_INT, (unused/5, tuple_st, sub_st -- res)) {
            PyObject *tuple = PyStackRef_AsPyObjectBorrow(tuple_st);
            PyObject *sub = PyStackRef_AsPyObjectBorrow(sub_st);
            DEOPT_IF(!PyTuple_CheckExact(tuple));
            DEOPT_IF(!PyLong_CheckExact(sub) || !_PyLong_IsCompact((PyLongObject *)sub));
            Py_ssize_t index = _PyLong_CompactValue((PyLongObject *)sub);
            DEOPT_IF(index < 0 || index >= PyTuple_GET_SIZE(tuple));
            res = PyStackRef_FromPyObjectNew(PyTuple_GET_ITEM(tuple, index));
            PyStackRef_CLOSE_INERT(sub_st);
            PyStackRef_CLOSE(tuple_st);
        }

        /* s[i]: one character (the cached string for Latin-1 ones). */
        inst(BINARY_OP_SUBSCR_STR_INT, (unused/5, str_st, sub_st -- res)) {
            PyObject *str = PyStackRef_AsPyObjectBorrow(str_st);
            PyObject *sub = PyStackRef_AsPyObjectBorrow(sub_st);
            DEOPT_IF(!PyUnicode_CheckExact(str));
            DEOPT_IF(!PyLong_CheckExact(sub) || !_PyLong_IsCompact((PyLongObject *)sub));
            Py_ssize_t index = _PyLong_CompactValue((PyLongObject *)sub);
            DEOPT_IF(index < 0 || index >= PyUnicode_GET_LENGTH(str));
            PyObject *res_o = PyUnicode_FromOrdinal((int)PyUnicode_READ_CHAR(str, index));
            DECREF_INPUTS();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        /* d[k] on an exact dict: the lookup itself, KeyError when absent. */
        inst(BINARY_OP_SUBSCR_DICT, (unused/5, dict_st, sub_st -- res)) {
            PyObject *dict = PyStackRef_AsPyObjectBorrow(dict_st);
            DEOPT_IF(!PyDict_CheckExact(dict));
            PyObject *sub = PyStackRef_AsPyObjectBorrow(sub_st);
            PyObject *res_o;
            int found = PyDict_GetItemRef(dict, sub, &res_o);
            if (found == 0) {
                _PyErr_SetKeyError(sub);
            }
            DECREF_INPUTS();
            ERROR_IF(found <= 0);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        inst(BINARY_SLICE, (container, start, stop -- res)) {
            PyObject *slice = _PyBuildSlice_ConsumeRefs(PyStackRef_AsPyObjectSteal(start),
                                                        PyStackRef_AsPyObjectSteal(stop));
            PyObject *res_o = NULL;
            if (slice != NULL) {
                res_o = PyObject_GetItem(PyStackRef_AsPyObjectBorrow(container), slice);
                Py_DECREF(slice);
            }
            PyStackRef_CLOSE(container);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        inst(STORE_SLICE, (v, container, start, stop -- )) {
            PyObject *slice = _PyBuildSlice_ConsumeRefs(PyStackRef_AsPyObjectSteal(start),
                                                        PyStackRef_AsPyObjectSteal(stop));
            int err = -1;
            if (slice != NULL) {
                err = PyObject_SetItem(PyStackRef_AsPyObjectBorrow(container), slice,
                                       PyStackRef_AsPyObjectBorrow(v));
                Py_DECREF(slice);
            }
            PyStackRef_CLOSE(v);
            PyStackRef_CLOSE(container);
            ERROR_IF(err);
        }

        /* container[sub] = v */
        family(STORE_SUBSCR, INLINE_CACHE_ENTRIES_STORE_SUBSCR) = {
            STORE_SUBSCR_DICT,
            STORE_SUBSCR_LIST_INT,
        };

        specializing op(_SPECIALIZE_STORE_SUBSCR, (counter/1, container, sub -- container, sub)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_StoreSubscr(container, sub, next_instr);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        /* container[sub] = v */
        op(_STORE_SUBSCR, (v, container, sub -- )) {
            int err = PyObject_SetItem(PyStackRef_AsPyObjectBorrow(container),
                                       PyStackRef_AsPyObjectBorrow(sub),
                                       PyStackRef_AsPyObjectBorrow(v));
            DECREF_INPUTS();
            ERROR_IF(err);
        }

        macro(STORE_SUBSCR) = _SPECIALIZE_STORE_SUBSCR + _STORE_SUBSCR;

        inst(STORE_SUBSCR_LIST_INT, (unused/1, value, list_st, sub_st -- )) {
            PyObject *list = PyStackRef_AsPyObjectBorrow(list_st);
            PyObject *sub = PyStackRef_AsPyObjectBorrow(sub_st);
            DEOPT_IF(!PyList_CheckExact(list));
            DEOPT_IF(!PyLong_CheckExact(sub) || !_PyLong_IsCompact((PyLongObject *)sub));
            Py_ssize_t index = _PyLong_CompactValue((PyLongObject *)sub);
            DEOPT_IF(index < 0 || index >= PyList_GET_SIZE(list));
            PyObject *old = PyList_GET_ITEM(list, index);
            PyList_SET_ITEM(list, index, PyStackRef_AsPyObjectSteal(value));
            PyStackRef_CLOSE(sub_st);
            PyStackRef_CLOSE(list_st);
            Py_DECREF(old);
        }

        inst(STORE_SUBSCR_DICT, (unused/1, value, dict_st, sub -- )) {
            PyObject *dict = PyStackRef_AsPyObjectBorrow(dict_st);
            DEOPT_IF(!PyDict_CheckExact(dict));
            int err = _PyDict_SetItem_Take2((PyDictObject *)dict, PyStackRef_AsPyObjectSteal(sub),
                                            PyStackRef_AsPyObjectSteal(value));
            PyStackRef_CLOSE(dict_st);
            ERROR_IF(err);
        }

        inst(DELETE_SUBSCR, (container, sub --)) {
            int err = PyObject_DelItem(PyStackRef_AsPyObjectBorrow(container),
                                       PyStackRef_AsPyObjectBorrow(sub));
            DECREF_INPUTS();
            ERROR_IF(err);
        }

        /* ---- Comparisons ---------------------------------------------- */

        family(COMPARE_OP, INLINE_CACHE_ENTRIES_COMPARE_OP) = {
            COMPARE_OP_FLOAT,
            COMPARE_OP_INT,
            COMPARE_OP_STR,
        };

        specializing op(_SPECIALIZE_COMPARE_OP, (counter/1, left, right -- left, right)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_CompareOp(left, right, next_instr, oparg);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        op(_COMPARE_OP, (left, right -- res)) {
            PyObject *left_o = PyStackRef_AsPyObjectBorrow(left);
            PyObject *right_o = PyStackRef_AsPyObjectBorrow(right);
            assert((oparg >> 5) <= Py_GE);
            PyObject *res_o = PyObject_RichCompare(left_o, right_o, oparg >> 5);
            PyStackRef_CLOSE(left);
            PyStackRef_CLOSE(right);
            ERROR_IF(res_o == NULL);
            if (oparg & COMPARE_OP_TO_BOOL) {
                int res_bool = PyObject_IsTrue(res_o);
                Py_DECREF(res_o);
                ERROR_IF(res_bool < 0);
                res = res_bool ? PyStackRef_True : PyStackRef_False;
            }
            else {
                res = PyStackRef_FromPyObjectSteal(res_o);
            }
        }

        macro(COMPARE_OP) = _SPECIALIZE_COMPARE_OP + _COMPARE_OP;

        /* The specialised forms test the outcome (less, greater, equal,
           unordered) against the mask the compiler put in oparg's low bits. */
        inst(COMPARE_OP_INT, (unused/1, left, right -- res)) {
            PyObject *left_o = PyStackRef_AsPyObjectBorrow(left);
            PyObject *right_o = PyStackRef_AsPyObjectBorrow(right);
            DEOPT_IF(!PyLong_CheckExact(left_o) || !_PyLong_IsCompact((PyLongObject *)left_o));
            DEOPT_IF(!PyLong_CheckExact(right_o) || !_PyLong_IsCompact((PyLongObject *)right_o));
            Py_ssize_t ileft = _PyLong_CompactValue((PyLongObject *)left_o);
            Py_ssize_t iright = _PyLong_CompactValue((PyLongObject *)right_o);
            int outcome = ileft < iright ? COMPARISON_LESS_THAN
                          : ileft > iright ? COMPARISON_GREATER_THAN : COMPARISON_EQUALS;
            PyStackRef_CLOSE_INERT(left);
            PyStackRef_CLOSE_INERT(right);
            res = (outcome & oparg) ? PyStackRef_True : PyStackRef_False;
        }

        inst(COMPARE_OP_FLOAT, (unused/1, left, right -- res)) {
            PyObject *left_o = PyStackRef_AsPyObjectBorrow(left);
            PyObject *right_o = PyStackRef_AsPyObjectBorrow(right);
            DEOPT_IF(!PyFloat_CheckExact(left_o));
            DEOPT_IF(!PyFloat_CheckExact(right_o));
            double dleft = PyFloat_AS_DOUBLE(left_o);
            double dright = PyFloat_AS_DOUBLE(right_o);
            int outcome = dleft < dright ? COMPARISON_LESS_THAN
                          : dleft > dright ? COMPARISON_GREATER_THAN
                          : dleft == dright ? COMPARISON_EQUALS : COMPARISON_UNORDERED;
            PyStackRef_CLOSE_INERT(left);
            PyStackRef_CLOSE_INERT(right);
            res = (outcome & oparg) ? PyStackRef_True : PyStackRef_False;
        }

        /* Only == and != (the specializer checks). */
        inst(COMPARE_OP_STR, (unused/1, left, right -- res)) {
            PyObject *left_o = PyStackRef_AsPyObjectBorrow(left);
            PyObject *right_o = PyStackRef_AsPyObjectBorrow(right);
            DEOPT_IF(!PyUnicode_CheckExact(left_o));
            DEOPT_IF(!PyUnicode_CheckExact(right_o));
            int outcome = _PyUnicode_Equal(left_o, right_o) ? COMPARISON_EQUALS : COMPARISON_NOT_EQUALS;
            PyStackRef_CLOSE_INERT(left);
            PyStackRef_CLOSE_INERT(right);
            res = (outcome & oparg) ? PyStackRef_True : PyStackRef_False;
        }

        inst(IS_OP, (left, right -- b)) {
            int res = PyStackRef_Is(left, right) ^ oparg;
            DECREF_INPUTS();
            b = res ? PyStackRef_True : PyStackRef_False;
        }

        family(CONTAINS_OP, INLINE_CACHE_ENTRIES_CONTAINS_OP) = {
            CONTAINS_OP_SET,
            CONTAINS_OP_DICT,
        };

        specializing op(_SPECIALIZE_CONTAINS_OP, (counter/1, left, right -- left, right)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_ContainsOp(right, next_instr);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        op(_CONTAINS_OP, (left, right -- b)) {
            int res = PySequence_Contains(PyStackRef_AsPyObjectBorrow(right),
                                          PyStackRef_AsPyObjectBorrow(left));
            DECREF_INPUTS();
            ERROR_IF(res < 0);
            b = (res ^ oparg) ? PyStackRef_True : PyStackRef_False;
        }

        macro(CONTAINS_OP) = _SPECIALIZE_CONTAINS_OP + _CONTAINS_OP;

        /* x in a set or frozenset (exactly): the hash lookup, no slot call. */
        inst(CONTAINS_OP_SET, (unused/1, left, right -- b)) {
            PyObject *set = PyStackRef_AsPyObjectBorrow(right);
            DEOPT_IF(!PySet_CheckExact(set) && !PyFrozenSet_CheckExact(set));
            int res = _PySet_Contains((PySetObject *)set, PyStackRef_AsPyObjectBorrow(left));
            DECREF_INPUTS();
            ERROR_IF(res < 0);
            b = (res ^ oparg) ? PyStackRef_True : PyStackRef_False;
        }

        /* key in a dict (exactly). */
        inst(CONTAINS_OP_DICT, (unused/1, left, right -- b)) {
            PyObject *dict = PyStackRef_AsPyObjectBorrow(right);
            DEOPT_IF(!PyDict_CheckExact(dict));
            int res = PyDict_Contains(dict, PyStackRef_AsPyObjectBorrow(left));
            DECREF_INPUTS();
            ERROR_IF(res < 0);
            b = (res ^ oparg) ? PyStackRef_True : PyStackRef_False;
        }

        /* ---- Jumps ------------------------------------------------------ */

        inst(JUMP_FORWARD, (--)) {
            JUMPBY(oparg);
        }

        /* Used where polling would be wrong (e.g. inside `yield from`). */
        inst(JUMP_BACKWARD_NO_INTERRUPT, (--)) {
            JUMPBY(-oparg);
        }

        /* With tier 2 on, a back edge counts its executions; when the loop
           is hot, the recorder starts at the loop top (where the jump has
           just put next_instr) and the interpreter switches to the
           recording dispatch table. */
        untraced op(_MAYBE_RECORD_LOOP, (backedge/1 --)) {
#ifdef _Py_TIER2
            if (_Py_Tier2_Enabled) {
                if (ADAPTIVE_COUNTER_TRIGGERS(backedge)) {
                    this_instr[1].cache = adaptive_counter_bits(_Py_Tier2_BackedgeThreshold, 0);
                    if (_PyTrace_StartAtBackEdge(tstate, frame, this_instr, next_instr)) {
                        START_RECORDING();
                    }
                }
                else {
                    ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
                }
            }
#else
            (void)backedge;
#endif
        }

        /* Loops poll the eval breaker once per iteration. */
        macro(JUMP_BACKWARD) = _CHECK_PERIODIC + JUMP_BACKWARD_NO_INTERRUPT + _MAYBE_RECORD_LOOP;

        /* A back edge whose loop has an executor: the oparg's low byte
           indexes the code's executors.  An executor no longer valid gives
           the instruction back to the JUMP_BACKWARD it replaced. */
        tier1 inst(ENTER_EXECUTOR, (--)) {
#ifdef _Py_TIER2
            _PyExecutorObject *executor = _PyCode_GetExecutor(_PyFrame_GetCode(frame),
                                                              (int)(this_instr - _PyCode_CODE(_PyFrame_GetCode(frame))));
            if (executor != NULL && executor->valid) {
                /* The poll the JUMP_BACKWARD made. */
                CHECK_EVAL_BREAKER();
                GOTO_TIER_TWO(executor);
            }
            opcode = JUMP_BACKWARD;
            oparg = (oparg & ~255) | (executor != NULL ? executor->jump_oparg : 0);
            next_instr = this_instr;
            DISPATCH_GOTO();
#else
            Py_FatalError("ENTER_EXECUTOR in a build without tier 2");
#endif
        }

        inst(POP_JUMP_IF_FALSE, (unused/1, cond -- )) {
            assert(PyBool_Check(PyStackRef_AsPyObjectBorrow(cond)));
            if (PyStackRef_IsFalse(cond)) {
                JUMPBY(oparg);
            }
        }

        inst(POP_JUMP_IF_TRUE, (unused/1, cond -- )) {
            assert(PyBool_Check(PyStackRef_AsPyObjectBorrow(cond)));
            if (PyStackRef_IsTrue(cond)) {
                JUMPBY(oparg);
            }
        }

        inst(POP_JUMP_IF_NONE, (unused/1, value -- )) {
            if (PyStackRef_IsNone(value)) {
                JUMPBY(oparg);
            }
            else {
                PyStackRef_CLOSE(value);
            }
        }

        inst(POP_JUMP_IF_NOT_NONE, (unused/1, value -- )) {
            if (!PyStackRef_IsNone(value)) {
                PyStackRef_CLOSE(value);
                JUMPBY(oparg);
            }
        }

        /* Tier 2 records which way each branch went and guards that it
           goes that way again.  A guard that fails leaves the condition on
           the stack and exits to the branch instruction itself, which tier
           1 then runs (the values tested are immortal or still owned by the
           stack, so running it again is harmless). */
        tier2 op(_GUARD_IS_TRUE_POP, (flag -- )) {
            EXIT_IF(!PyStackRef_IsTrue(flag));
            DEAD(flag);
        }

        tier2 op(_GUARD_IS_FALSE_POP, (flag -- )) {
            EXIT_IF(!PyStackRef_IsFalse(flag));
            DEAD(flag);
        }

        tier2 op(_GUARD_IS_NONE_POP, (value -- )) {
            EXIT_IF(!PyStackRef_IsNone(value));
            DEAD(value);
        }

        tier2 op(_GUARD_IS_NOT_NONE_POP, (value -- )) {
            EXIT_IF(PyStackRef_IsNone(value));
            PyStackRef_CLOSE(value);
        }

        /* ---- Iteration ------------------------------------------------- */

        family(GET_ITER, INLINE_CACHE_ENTRIES_GET_ITER) = {
            GET_ITER_SELF,
            GET_ITER_VIRTUAL,
        };

        specializing op(_SPECIALIZE_GET_ITER, (counter/1, iterable -- iterable)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_GetIter(iterable, next_instr);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        /* Leaves (iterable, index 0) for types that iterate virtually
           (_tp_iteritem), else (iterator, NULL).  oparg 1 is the form used
           by `yield from`, where generators and coroutines pass through. */
        op(_GET_ITER, (iterable -- iter, index_or_null)) {
            PyObject *iterable_o = PyStackRef_AsPyObjectBorrow(iterable);
            if (Py_TYPE(iterable_o)->_tp_iteritem != NULL) {
                iter = PyStackRef_MakeHeapSafe(iterable);
                index_or_null = PyStackRef_TagInt(0);
            }
            else {
                PyObject *iter_o = _PyEval_GetIter(tstate, iterable_o, oparg);
                PyStackRef_CLOSE(iterable);
                ERROR_IF(iter_o == NULL);
                iter = PyStackRef_FromPyObjectSteal(iter_o);
                index_or_null = PyStackRef_NULL;
            }
        }

        macro(GET_ITER) = _SPECIALIZE_GET_ITER + _GET_ITER;

        /* A list, tuple, str, range, bytes...: no iterator object, the
           loop keeps an index beside the iterable (FOR_ITER_VIRTUAL). */
        inst(GET_ITER_VIRTUAL, (unused/1, iterable -- iter, index_or_null)) {
            DEOPT_IF(Py_TYPE(PyStackRef_AsPyObjectBorrow(iterable))->_tp_iteritem == NULL);
            iter = PyStackRef_MakeHeapSafe(iterable);
            index_or_null = PyStackRef_TagInt(0);
        }

        /* An object that is its own iterator (generators, files, iterators
           of every kind): iter() would hand it back, so it stays. */
        inst(GET_ITER_SELF, (unused/1, iterable -- iter, index_or_null)) {
            PyObject *iterable_o = PyStackRef_AsPyObjectBorrow(iterable);
            DEOPT_IF(Py_TYPE(iterable_o)->tp_iter != PyObject_SelfIter || !PyIter_Check(iterable_o));
            iter = iterable;
            index_or_null = PyStackRef_NULL;
        }

        family(FOR_ITER, INLINE_CACHE_ENTRIES_FOR_ITER) = {
            FOR_ITER_LIST,
            FOR_ITER_TUPLE,
            FOR_ITER_VIRTUAL,
            FOR_ITER_GEN,
        };

        specializing op(_SPECIALIZE_FOR_ITER, (counter/1, iter, index_or_null -- iter, index_or_null)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_ForIter(iter, index_or_null, next_instr, oparg);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        macro(FOR_ITER) = _SPECIALIZE_FOR_ITER + _FOR_ITER;

        /* Lists and tuples iterate by index without a call; other virtual
           iterables call their _tp_iteritem slot directly.  Each form is a
           check, a loop exit and a step: tier 1 leaves the loop by jumping,
           a trace (which recorded the loop going on) by a guard. */
        op(_ITER_CHECK_LIST, (iter, index_or_null -- iter, index_or_null)) {
            DEOPT_IF(!PyList_CheckExact(PyStackRef_AsPyObjectBorrow(iter)));
            DEOPT_IF(!PyStackRef_IsTaggedInt(index_or_null));
        }

        branch op(_ITER_JUMP_LIST, (iter, index_or_null -- iter, index_or_null)) {
            PyObject *list = PyStackRef_AsPyObjectBorrow(iter);
            if (PyStackRef_UntagInt(index_or_null) >= PyList_GET_SIZE(list)) {
                JUMPBY(oparg + 1);
                DISPATCH();
            }
        }

        tier2 op(_GUARD_NOT_EXHAUSTED_LIST, (iter, index_or_null -- iter, index_or_null)) {
            PyObject *list = PyStackRef_AsPyObjectBorrow(iter);
            EXIT_IF(PyStackRef_UntagInt(index_or_null) >= PyList_GET_SIZE(list));
        }

        op(_ITER_NEXT_LIST, (iter, index_or_null -- iter, index_out, next)) {
            Py_ssize_t index = PyStackRef_UntagInt(index_or_null);
            next = PyStackRef_FromPyObjectNew(PyList_GET_ITEM(PyStackRef_AsPyObjectBorrow(iter), index));
            index_out = PyStackRef_TagInt(index + 1);
        }

        macro(FOR_ITER_LIST) = unused/1 + _ITER_CHECK_LIST + _ITER_JUMP_LIST + _ITER_NEXT_LIST;

        op(_ITER_CHECK_TUPLE, (iter, index_or_null -- iter, index_or_null)) {
            DEOPT_IF(!PyTuple_CheckExact(PyStackRef_AsPyObjectBorrow(iter)));
            DEOPT_IF(!PyStackRef_IsTaggedInt(index_or_null));
        }

        branch op(_ITER_JUMP_TUPLE, (iter, index_or_null -- iter, index_or_null)) {
            PyObject *tuple = PyStackRef_AsPyObjectBorrow(iter);
            if (PyStackRef_UntagInt(index_or_null) >= PyTuple_GET_SIZE(tuple)) {
                JUMPBY(oparg + 1);
                DISPATCH();
            }
        }

        tier2 op(_GUARD_NOT_EXHAUSTED_TUPLE, (iter, index_or_null -- iter, index_or_null)) {
            PyObject *tuple = PyStackRef_AsPyObjectBorrow(iter);
            EXIT_IF(PyStackRef_UntagInt(index_or_null) >= PyTuple_GET_SIZE(tuple));
        }

        op(_ITER_NEXT_TUPLE, (iter, index_or_null -- iter, index_out, next)) {
            Py_ssize_t index = PyStackRef_UntagInt(index_or_null);
            next = PyStackRef_FromPyObjectNew(PyTuple_GET_ITEM(PyStackRef_AsPyObjectBorrow(iter), index));
            index_out = PyStackRef_TagInt(index + 1);
        }

        macro(FOR_ITER_TUPLE) = unused/1 + _ITER_CHECK_TUPLE + _ITER_JUMP_TUPLE + _ITER_NEXT_TUPLE;

        /* In a trace, FOR_ITER_VIRTUAL and FOR_ITER: an exhausted iterable
           exits to the instruction, whose tier-1 form asks again (an
           exhausted iterator stays exhausted) and leaves the loop. */
        tier2 op(_FOR_ITER_VIRTUAL_TIER_TWO, (iter, index_or_null -- iter, index_out, next)) {
            EXIT_IF(!PyStackRef_IsTaggedInt(index_or_null));
            PyObject *iter_o = PyStackRef_AsPyObjectBorrow(iter);
            PyObject *next_o;
            Py_ssize_t next_index;
            int status = Py_TYPE(iter_o)->_tp_iteritem(iter_o, PyStackRef_UntagInt(index_or_null),
                                                       &next_o, &next_index);
            if (status < 0) {
                ERROR_NO_POP();
            }
            EXIT_IF(status == 0);
            next = PyStackRef_FromPyObjectSteal(next_o);
            index_out = PyStackRef_TagInt(next_index);
        }

        tier2 op(_FOR_ITER_TIER_TWO, (iter, index_or_null -- iter, index_out, next)) {
            EXIT_IF(PyStackRef_IsTaggedInt(index_or_null));
            PyObject *next_o;
            int status = _PyEval_IterNext(tstate, PyStackRef_AsPyObjectBorrow(iter), &next_o);
            if (status < 0) {
                ERROR_NO_POP();
            }
            EXIT_IF(status == 0);
            index_out = index_or_null;
            next = PyStackRef_FromPyObjectSteal(next_o);
        }

        inst(FOR_ITER_VIRTUAL, (unused/1, iter, index_or_null -- iter, index_out, next)) {
            DEOPT_IF(!PyStackRef_IsTaggedInt(index_or_null));
            PyObject *iter_o = PyStackRef_AsPyObjectBorrow(iter);
            PyObject *next_o;
            Py_ssize_t next_index;
            int status = Py_TYPE(iter_o)->_tp_iteritem(iter_o, PyStackRef_UntagInt(index_or_null),
                                                       &next_o, &next_index);
            if (status < 0) {
                ERROR_NO_POP();
            }
            if (status == 0) {
                JUMPBY(oparg + 1);
                DISPATCH();
            }
            next = PyStackRef_FromPyObjectSteal(next_o);
            index_out = PyStackRef_TagInt(next_index);
        }

        /* A plain generator: its frame runs in this C loop instead of a
           nested one.  A yield comes back just past this instruction with
           the value as `next`; a return lands on END_FOR, which drops the
           return value, and the loop ends on POP_ITER. */
        op(_CHECK_GEN_NOT_RUNNING, (iter, index_or_null -- iter, index_or_null)) {
            PyGenObject *gen = (PyGenObject *)PyStackRef_AsPyObjectBorrow(iter);
            DEOPT_IF(!PyGen_CheckExact(gen));
            DEOPT_IF(gen->gi_frame_state >= FRAME_EXECUTING);
        }

        /* The generator's frame runs in this loop: its yield comes back to
           the instruction after this one, its return to the loop's exit. */
        op(_FOR_ITER_GEN_FRAME, (iter, index_or_null -- iter, index_out, next)) {
            PyGenObject *gen = (PyGenObject *)PyStackRef_AsPyObjectBorrow(iter);
            _PyInterpreterFrame *gen_frame = _PyGen_EnterFrameInline(tstate, gen, PyStackRef_None);
            _PyFrame_SetStackPointer(frame, stack_pointer);
            frame->return_offset = (uint16_t)(INSTRUCTION_SIZE() + oparg);
            index_out = index_or_null;
            next = PyStackRef_NULL;
            ENTER_FRAME(gen_frame);
        }

        macro(FOR_ITER_GEN) = unused/1 + _CHECK_GEN_NOT_RUNNING + _FOR_ITER_GEN_FRAME;

        op(_FOR_ITER, (iter, index_or_null -- iter, index_out, next)) {
            PyObject *iter_o = PyStackRef_AsPyObjectBorrow(iter);
            PyObject *next_o;
            int status;
            if (PyStackRef_IsTaggedInt(index_or_null)) {
                Py_ssize_t next_index;
                status = Py_TYPE(iter_o)->_tp_iteritem(
                    iter_o, PyStackRef_UntagInt(index_or_null), &next_o, &next_index);
                if (status > 0) {
                    index_or_null = PyStackRef_TagInt(next_index);
                }
            }
            else {
                status = _PyEval_IterNext(tstate, iter_o, &next_o);
            }
            if (status < 0) {
                ERROR_NO_POP();
            }
            if (status == 0) {
                /* Exhausted: skip END_FOR and land on POP_ITER with the
                   pair still on the stack. */
                JUMPBY(oparg + 1);
                DISPATCH();
            }
            index_out = index_or_null;
            next = PyStackRef_FromPyObjectSteal(next_o);
        }

        /* ---- Functions and calls --------------------------------------- */

        inst(MAKE_FUNCTION, (codeobj_st -- func)) {
            PyObject *codeobj = PyStackRef_AsPyObjectBorrow(codeobj_st);
            PyObject *func_obj = PyFunction_New(codeobj, GLOBALS());
            PyStackRef_CLOSE(codeobj_st);
            ERROR_IF(func_obj == NULL);
            func = PyStackRef_FromPyObjectSteal(func_obj);
        }

        inst(SET_FUNCTION_ATTRIBUTE, (attr_st, func_in -- func_out)) {
            PyObject *func = PyStackRef_AsPyObjectBorrow(func_in);
            PyObject *attr = PyStackRef_AsPyObjectSteal(attr_st);
            _PyEval_SetFunctionAttribute((PyFunctionObject *)func, oparg, attr);
            func_out = func_in;
        }

        /* A bound method called with no self: call its function with the
           method's self in the self_or_null slot, avoiding a second call
           layer. */
        op(_MAYBE_EXPAND_METHOD, (callable, self_or_null, unused[oparg] -- callable, self_or_null, unused[oparg])) {
            _PyEval_ExpandBoundMethod(&callable, &self_or_null);
        }

        op(_MAYBE_EXPAND_METHOD_KW, (callable, self_or_null, unused[oparg], unused -- callable, self_or_null, unused[oparg], unused)) {
            _PyEval_ExpandBoundMethod(&callable, &self_or_null);
        }

        /* callable(self_or_null?, *args).  Python functions get a new
           frame in this same C loop; everything else is a vectorcall. */
        op(_DO_CALL, (callable, self_or_null, args[oparg] -- res)) {
            int total_args = oparg;
            _PyStackRef *arguments = args;
            if (!PyStackRef_IsNull(self_or_null)) {
                arguments--;
                total_args++;
            }
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            if (_PyEval_IsInlinablePyFunction(callable_o)) {
                _PyFrame_SetStackPointer(frame, stack_pointer - 2 - oparg);
                _PyInterpreterFrame *new_frame = _PyEvalFramePushAndInit(
                    tstate, callable, NULL, arguments, total_args, NULL, frame);
                stack_pointer = _PyFrame_GetStackPointer(frame);
                if (new_frame == NULL) {
                    goto error;
                }
                frame->return_offset = (uint16_t)(next_instr - this_instr);
                DISPATCH_INLINED(new_frame);
            }
            PyObject *res_o = _PyEval_VectorcallAndClose(tstate, callable, arguments, total_args, NULL);
            INPUTS_DEAD();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        /* A call through vectorcall, with the self (when there is one)
           passed first.  CALL_NON_PY_GENERAL's body, and the generic CALL
           in a trace (a Python function then runs in a nested C-level
           call, which the trace does not follow). */
        op(_CALL_VECTORCALL, (callable, self_or_null, args[oparg] -- res)) {
            int with_self = !PyStackRef_IsNull(self_or_null);
            PyObject *res_o = _PyEval_VectorcallAndClose(tstate, callable, args - with_self,
                                                         oparg + with_self, NULL);
            INPUTS_DEAD();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        family(CALL, INLINE_CACHE_ENTRIES_CALL) = {
            CALL_LEN,
            CALL_LIST_APPEND,
            CALL_PY_EXACT_ARGS,
            CALL_BOUND_METHOD_EXACT_ARGS,
            CALL_ALLOC_AND_ENTER_INIT,
            CALL_BUILTIN_O,
            CALL_BUILTIN_FAST,
            CALL_BUILTIN_FAST_WITH_KEYWORDS,
            CALL_METHOD_DESCRIPTOR_NOARGS,
            CALL_METHOD_DESCRIPTOR_O,
            CALL_METHOD_DESCRIPTOR_FAST,
            CALL_TYPE_1,
            CALL_STR_1,
            CALL_TUPLE_1,
            CALL_ISINSTANCE,
            CALL_PY_GENERAL,
            CALL_BOUND_METHOD_GENERAL,
            CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS,
            CALL_BUILTIN_CLASS,
            CALL_NON_PY_GENERAL,
        };

        specializing op(_SPECIALIZE_CALL, (counter/1, callable, self_or_null, unused[oparg] -- callable, self_or_null, unused[oparg])) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_Call(callable, self_or_null, next_instr, oparg);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        macro(CALL) = _SPECIALIZE_CALL + unused/2 + _MAYBE_EXPAND_METHOD + _DO_CALL;

        op(_CHECK_FUNCTION_VERSION, (func_version/2, callable, self_or_null, unused[oparg] -- callable, self_or_null, unused[oparg])) {
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            DEOPT_IF(!PyFunction_Check(callable_o));
            DEOPT_IF(((PyFunctionObject *)callable_o)->func_version != func_version);
        }

        op(_CHECK_FUNCTION_EXACT_ARGS, (callable, self_or_null, unused[oparg] -- callable, self_or_null, unused[oparg])) {
            PyFunctionObject *func = (PyFunctionObject *)PyStackRef_AsPyObjectBorrow(callable);
            PyCodeObject *code = (PyCodeObject *)func->func_code;
            DEOPT_IF(code->co_argcount != oparg + !PyStackRef_IsNull(self_or_null));
        }

        /* The arguments become the new frame's first locals as they are:
           no binding work is left for a function known to take exactly
           these positional arguments. */
        op(_PUSH_FRAME_EXACT_ARGS, (callable, self_or_null, args[oparg] -- res)) {
            int has_self = !PyStackRef_IsNull(self_or_null);
            _PyStackRef *first = args - has_self;
            int argcount = oparg + has_self;
            PyCodeObject *code = (PyCodeObject *)((PyFunctionObject *)PyStackRef_AsPyObjectBorrow(callable))->func_code;
            _PyInterpreterFrame *new_frame = _PyEval_PushFrameFast(tstate, (size_t)code->co_framesize);
            if (new_frame == NULL) {
                ERROR_NO_POP();
            }
            _PyFrame_Initialize(tstate, new_frame, PyStackRef_MakeHeapSafe(callable), NULL, code, argcount, frame);
            for (int i = 0; i < argcount; i++) {
                new_frame->localsplus[i] = PyStackRef_MakeHeapSafe(first[i]);
            }
            _PyFrame_SetStackPointer(frame, stack_pointer - 2 - oparg);
            frame->return_offset = INSTRUCTION_SIZE();
            res = PyStackRef_NULL;
            ENTER_FRAME(new_frame);
        }

        macro(CALL_PY_EXACT_ARGS) = unused/1 + _CHECK_FUNCTION_VERSION + _CHECK_FUNCTION_EXACT_ARGS + _PUSH_FRAME_EXACT_ARGS;

        op(_CHECK_CALL_BOUND_METHOD_EXACT_ARGS, (callable, null, unused[oparg] -- callable, null, unused[oparg])) {
            DEOPT_IF(!PyStackRef_IsNull(null));
            DEOPT_IF(Py_TYPE(PyStackRef_AsPyObjectBorrow(callable)) != &PyMethod_Type);
        }

        /* The method's function and self take the method's place.  A guard
           failing after this sends the generic CALL a (function, self)
           pair, which it calls the same way. */
        op(_INIT_CALL_BOUND_METHOD_EXACT_ARGS, (callable, self_or_null, unused[oparg] -- callable, self_or_null, unused[oparg])) {
            _PyEval_ExpandBoundMethod(&callable, &self_or_null);
        }

        /* m(args) for a bound method object whose function takes exactly
           self and these arguments: the function's frame is pushed here. */
        macro(CALL_BOUND_METHOD_EXACT_ARGS) = unused/1 + _CHECK_CALL_BOUND_METHOD_EXACT_ARGS +
                                              _INIT_CALL_BOUND_METHOD_EXACT_ARGS + _CHECK_FUNCTION_VERSION +
                                              _CHECK_FUNCTION_EXACT_ARGS + _PUSH_FRAME_EXACT_ARGS;

        /* Any other signature (defaults, keyword-only parameters, *args,
           **kwargs, cells): the frame is pushed here and the arguments are
           bound the general way, as the generic CALL does for a Python
           function, but without finding out again what is called.  Tier 1
           only: a trace ends before it, as before a generic CALL that
           enters a Python function. */
        tier1 op(_PUSH_FRAME_GENERAL, (callable, self_or_null, args[oparg] -- res)) {
            int has_self = !PyStackRef_IsNull(self_or_null);
            _PyFrame_SetStackPointer(frame, stack_pointer - 2 - oparg);
            _PyInterpreterFrame *new_frame = _PyEvalFramePushAndInit(
                tstate, callable, NULL, args - has_self, (size_t)(oparg + has_self), NULL, frame);
            stack_pointer = _PyFrame_GetStackPointer(frame);
            if (new_frame == NULL) {
                goto error;  /* the push released the callable and arguments */
            }
            frame->return_offset = INSTRUCTION_SIZE();
            res = PyStackRef_NULL;
            ENTER_FRAME(new_frame);
        }

        macro(CALL_PY_GENERAL) = unused/1 + _CHECK_FUNCTION_VERSION + _PUSH_FRAME_GENERAL;

        /* A bound method object whose function is the one specialised for. */
        op(_CHECK_METHOD_VERSION, (func_version/2, callable, null, unused[oparg] -- callable, null, unused[oparg])) {
            DEOPT_IF(!PyStackRef_IsNull(null));
            DEOPT_IF(!_PyEval_IsMethodOfVersion(PyStackRef_AsPyObjectBorrow(callable), func_version));
        }

        macro(CALL_BOUND_METHOD_GENERAL) = unused/1 + _CHECK_METHOD_VERSION +
                                           _INIT_CALL_BOUND_METHOD_EXACT_ARGS + _PUSH_FRAME_GENERAL;

        /* len(x) with the real builtin len. */
        inst(CALL_LEN, (unused/1, unused/2, callable, null, args[oparg] -- res)) {
            DEOPT_IF(oparg != 1);
            DEOPT_IF(!PyStackRef_IsNull(null));
            DEOPT_IF(PyStackRef_AsPyObjectBorrow(callable) != _PyEval_SpecializedCallables.len);
            Py_ssize_t len_i = PyObject_Length(PyStackRef_AsPyObjectBorrow(args[0]));
            PyObject *res_o = len_i < 0 ? NULL : PyLong_FromSsize_t(len_i);
            PyStackRef_CLOSE(args[0]);
            PyStackRef_CLOSE(callable);
            DEAD(null);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        /* some_list.append(x) through the method form of LOAD_ATTR. */
        inst(CALL_LIST_APPEND, (unused/1, unused/2, callable, self, args[oparg] -- res)) {
            DEOPT_IF(oparg != 1);
            DEOPT_IF(PyStackRef_AsPyObjectBorrow(callable) != _PyEval_SpecializedCallables.list_append);
            DEOPT_IF(PyStackRef_IsNull(self));
            PyObject *list = PyStackRef_AsPyObjectBorrow(self);
            DEOPT_IF(!PyList_CheckExact(list));
            int err = _PyList_AppendTakeRef((PyListObject *)list, PyStackRef_AsPyObjectSteal(args[0]));
            PyStackRef_CLOSE(self);
            PyStackRef_CLOSE(callable);
            ERROR_IF(err < 0);
            res = PyStackRef_None;
        }

        /* cls(args) for a class made by object.__new__ and set up by a
           Python __init__ that takes exactly these arguments (the class
           and that __init__ are as when specialised).  The new object is
           allocated here and __init__ runs in this loop, on top of a shim
           frame whose code (EXIT_INIT_CHECK; RETURN_VALUE) checks that
           __init__ returned None and then returns the object as the
           call's result.  The shim is never traceable, so tracebacks and
           f_back skip it. */
        inst(CALL_ALLOC_AND_ENTER_INIT, (unused/1, type_version/2, callable, null, args[oparg] -- res)) {
            DEOPT_IF(!PyStackRef_IsNull(null));
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            DEOPT_IF(Py_TYPE(callable_o) != &PyType_Type);
            PyTypeObject *cls = (PyTypeObject *)callable_o;
            DEOPT_IF(cls->tp_version_tag != type_version);
            DEOPT_IF(cls->tp_flags & Py_TPFLAGS_IS_ABSTRACT);
            PyFunctionObject *init = _PyType_SpecializedInit(cls);
            DEOPT_IF(init == NULL);
            PyCodeObject *init_code = (PyCodeObject *)init->func_code;
            DEOPT_IF(init_code->co_argcount != oparg + 1);
            /* Our own reference first: allocating may collect, and a
               finalizer could replace cls.__init__. */
            Py_INCREF(init);
            PyObject *self_o = PyType_GenericAlloc(cls, 0);
            _PyInterpreterFrame *init_frame = self_o == NULL ? NULL : _PyEval_PushInitFrames(
                tstate, frame, _PyEval_SpecializedCallables.init_shim, init, self_o);
            if (init_frame == NULL) {
                Py_XDECREF(self_o);
                Py_DECREF(init);
                ERROR_NO_POP();
            }
            for (int i = 0; i < oparg; i++) {
                init_frame->localsplus[i + 1] = PyStackRef_MakeHeapSafe(args[i]);
            }
            _PyFrame_SetStackPointer(frame, stack_pointer - 2 - oparg);
            frame->return_offset = (uint16_t)(next_instr - this_instr);
            /* The instance keeps its class alive. */
            PyStackRef_CLOSE(callable);
            frame = tstate->current_frame = init_frame->previous;
            res = PyStackRef_NULL;
            DISPATCH_INLINED(init_frame);
        }

        /* builtin(args) for a C function of the calling convention the
           form names (no keywords), called directly with its self. */
        op(_CALL_BUILTIN_DIRECT, (callable, self_or_null, args[oparg] -- res)) {
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            PyObject *res_o = _PyEval_CallMethodDefDirect(tstate, callable_o, ((PyCFunctionObject *)callable_o)->m_ml,
                                                          PyCFunction_GET_SELF(callable_o), args, oparg);
            for (int i = 0; i < oparg; i++) {
                PyStackRef_CLOSE(args[i]);
            }
            PyStackRef_CLOSE(callable);
            /* The guards made sure self_or_null is NULL. */
            (void)self_or_null;
            DEAD(self_or_null);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        op(_GUARD_BUILTIN_O, (callable, self_or_null, unused[oparg] -- callable, self_or_null, unused[oparg])) {
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            DEOPT_IF(!PyStackRef_IsNull(self_or_null) || oparg != 1);
            DEOPT_IF(!PyCFunction_CheckExact(callable_o) || PyCFunction_GET_FLAGS(callable_o) != METH_O);
        }

        op(_GUARD_BUILTIN_FAST, (callable, self_or_null, unused[oparg] -- callable, self_or_null, unused[oparg])) {
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            DEOPT_IF(!PyStackRef_IsNull(self_or_null) || oparg > _PY_DIRECT_CALL_MAX_ARGS);
            DEOPT_IF(!PyCFunction_CheckExact(callable_o) || PyCFunction_GET_FLAGS(callable_o) != METH_FASTCALL);
        }

        op(_GUARD_BUILTIN_FAST_WITH_KEYWORDS, (callable, self_or_null, unused[oparg] -- callable, self_or_null, unused[oparg])) {
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            DEOPT_IF(!PyStackRef_IsNull(self_or_null) || oparg > _PY_DIRECT_CALL_MAX_ARGS);
            DEOPT_IF(!PyCFunction_CheckExact(callable_o) ||
                     PyCFunction_GET_FLAGS(callable_o) != (METH_FASTCALL | METH_KEYWORDS));
        }

        macro(CALL_BUILTIN_O) = unused/1 + unused/2 + _GUARD_BUILTIN_O + _CALL_BUILTIN_DIRECT;
        macro(CALL_BUILTIN_FAST) = unused/1 + unused/2 + _GUARD_BUILTIN_FAST + _CALL_BUILTIN_DIRECT;
        macro(CALL_BUILTIN_FAST_WITH_KEYWORDS) = unused/1 + unused/2 + _GUARD_BUILTIN_FAST_WITH_KEYWORDS + _CALL_BUILTIN_DIRECT;

        /* obj.method(args) for a method descriptor (from the method form
           of LOAD_ATTR) of the calling convention the form names, whose
           self is of the descriptor's class: its C function called
           directly. */
        op(_CALL_METHOD_DESCRIPTOR_DIRECT, (flags/1, callable, self, args[oparg] -- res)) {
            PyMethodDescrObject *descr = (PyMethodDescrObject *)PyStackRef_AsPyObjectBorrow(callable);
            DEOPT_IF(PyStackRef_IsNull(self));
            DEOPT_IF(!Py_IS_TYPE((PyObject *)descr, &PyMethodDescr_Type));
            DEOPT_IF(descr->d_method->ml_flags != flags);
            DEOPT_IF(flags == METH_NOARGS && oparg != 0);
            DEOPT_IF(flags == METH_O && oparg != 1);
            DEOPT_IF(oparg > _PY_DIRECT_CALL_MAX_ARGS);
            PyObject *self_o = PyStackRef_AsPyObjectBorrow(self);
            DEOPT_IF(!PyObject_TypeCheck(self_o, descr->d_common.d_type));
            PyObject *res_o = _PyEval_CallMethodDefDirect(tstate, (PyObject *)descr, descr->d_method, self_o, args, oparg);
            for (int i = 0; i < oparg; i++) {
                PyStackRef_CLOSE(args[i]);
            }
            PyStackRef_CLOSE(self);
            PyStackRef_CLOSE(callable);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        macro(CALL_METHOD_DESCRIPTOR_NOARGS) = unused/1 + _CALL_METHOD_DESCRIPTOR_DIRECT + unused/1;
        macro(CALL_METHOD_DESCRIPTOR_O) = unused/1 + _CALL_METHOD_DESCRIPTOR_DIRECT + unused/1;
        macro(CALL_METHOD_DESCRIPTOR_FAST) = unused/1 + _CALL_METHOD_DESCRIPTOR_DIRECT + unused/1;
        macro(CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS) = unused/1 + _CALL_METHOD_DESCRIPTOR_DIRECT + unused/1;

        /* cls(args) for a class that makes its instances through its own
           tp_vectorcall (int, list, dict, range, ...): that function is
           called straight away. */
        op(_GUARD_BUILTIN_CLASS, (callable, self_or_null, unused[oparg] -- callable, self_or_null, unused[oparg])) {
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            DEOPT_IF(!PyStackRef_IsNull(self_or_null) || !PyType_Check(callable_o));
            DEOPT_IF(((PyTypeObject *)callable_o)->tp_vectorcall == NULL);
        }

        op(_CALL_BUILTIN_CLASS, (callable, self_or_null, args[oparg] -- res)) {
            PyTypeObject *cls = (PyTypeObject *)PyStackRef_AsPyObjectBorrow(callable);
            PyObject *res_o = _PyEval_CallVectorcallFunction(tstate, cls->tp_vectorcall, (PyObject *)cls,
                                                             args, oparg);
            for (int i = 0; i < oparg; i++) {
                PyStackRef_CLOSE(args[i]);
            }
            PyStackRef_CLOSE(callable);
            (void)self_or_null;  /* NULL: the guard checked */
            DEAD(self_or_null);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        macro(CALL_BUILTIN_CLASS) = unused/1 + unused/2 + _GUARD_BUILTIN_CLASS + _CALL_BUILTIN_CLASS;

        /* Anything callable that is neither a Python function nor a bound
           method (those have their own forms): a vectorcall, with no
           attempt to specialise again. */
        op(_CHECK_IS_NOT_PY_CALLABLE, (callable, unused, unused[oparg] -- callable, unused, unused[oparg])) {
            DEOPT_IF(_PyEval_IsPythonCallable(PyStackRef_AsPyObjectBorrow(callable)));
        }

        macro(CALL_NON_PY_GENERAL) = unused/1 + unused/2 + _CHECK_IS_NOT_PY_CALLABLE + _CALL_VECTORCALL;

        /* type(x) with type itself: x's type. */
        inst(CALL_TYPE_1, (unused/1, unused/2, callable, null, args[oparg] -- res)) {
            DEOPT_IF(oparg != 1 || !PyStackRef_IsNull(null));
            DEOPT_IF(PyStackRef_AsPyObjectBorrow(callable) != (PyObject *)&PyType_Type);
            PyObject *arg_o = PyStackRef_AsPyObjectBorrow(args[0]);
            res = PyStackRef_FromPyObjectNew((PyObject *)Py_TYPE(arg_o));
            PyStackRef_CLOSE(args[0]);
            PyStackRef_CLOSE(callable);
        }

        /* str(x) with str itself. */
        inst(CALL_STR_1, (unused/1, unused/2, callable, null, args[oparg] -- res)) {
            DEOPT_IF(oparg != 1 || !PyStackRef_IsNull(null));
            DEOPT_IF(PyStackRef_AsPyObjectBorrow(callable) != (PyObject *)&PyUnicode_Type);
            PyObject *res_o = PyObject_Str(PyStackRef_AsPyObjectBorrow(args[0]));
            PyStackRef_CLOSE(args[0]);
            PyStackRef_CLOSE(callable);
            DEAD(null);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        /* tuple(x) with tuple itself. */
        inst(CALL_TUPLE_1, (unused/1, unused/2, callable, null, args[oparg] -- res)) {
            DEOPT_IF(oparg != 1 || !PyStackRef_IsNull(null));
            DEOPT_IF(PyStackRef_AsPyObjectBorrow(callable) != (PyObject *)&PyTuple_Type);
            PyObject *res_o = PySequence_Tuple(PyStackRef_AsPyObjectBorrow(args[0]));
            PyStackRef_CLOSE(args[0]);
            PyStackRef_CLOSE(callable);
            DEAD(null);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        /* isinstance(x, cls) with the real builtin isinstance. */
        inst(CALL_ISINSTANCE, (unused/1, unused/2, callable, null, args[oparg] -- res)) {
            DEOPT_IF(oparg != 2 || !PyStackRef_IsNull(null));
            DEOPT_IF(PyStackRef_AsPyObjectBorrow(callable) != _PyEval_SpecializedCallables.isinstance);
            int is = PyObject_IsInstance(PyStackRef_AsPyObjectBorrow(args[0]), PyStackRef_AsPyObjectBorrow(args[1]));
            PyStackRef_CLOSE(args[0]);
            PyStackRef_CLOSE(args[1]);
            PyStackRef_CLOSE(callable);
            DEAD(null);
            ERROR_IF(is < 0);
            res = is ? PyStackRef_True : PyStackRef_False;
        }

        /* Like CALL; the last len(kwnames) arguments are passed by name. */
        op(_DO_CALL_KW, (callable, self_or_null, args[oparg], kwnames -- res)) {
            int total_args = oparg;
            _PyStackRef *arguments = args;
            if (!PyStackRef_IsNull(self_or_null)) {
                arguments--;
                total_args++;
            }
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            PyObject *kwnames_o = PyStackRef_AsPyObjectBorrow(kwnames);
            int positional_args = total_args - (int)PyTuple_GET_SIZE(kwnames_o);
            if (_PyEval_IsInlinablePyFunction(callable_o)) {
                _PyFrame_SetStackPointer(frame, stack_pointer - 3 - oparg);
                _PyInterpreterFrame *new_frame = _PyEvalFramePushAndInit(
                    tstate, callable, NULL, arguments, positional_args, kwnames_o, frame);
                PyStackRef_CLOSE(kwnames);
                stack_pointer = _PyFrame_GetStackPointer(frame);
                if (new_frame == NULL) {
                    goto error;
                }
                frame->return_offset = (uint16_t)(next_instr - this_instr);
                DISPATCH_INLINED(new_frame);
            }
            PyObject *res_o = _PyEval_VectorcallAndClose(tstate, callable, arguments, positional_args,
                                                         kwnames_o);
            PyStackRef_CLOSE(kwnames);
            INPUTS_DEAD();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        family(CALL_KW, INLINE_CACHE_ENTRIES_CALL_KW) = {
            CALL_KW_PY,
            CALL_KW_BOUND_METHOD,
            CALL_KW_NON_PY,
        };

        specializing op(_SPECIALIZE_CALL_KW, (counter/1, callable, self_or_null, unused[oparg], unused -- callable, self_or_null, unused[oparg], unused)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_CallKw(callable, self_or_null, next_instr, oparg);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        macro(CALL_KW) = _SPECIALIZE_CALL_KW + unused/2 + _MAYBE_EXPAND_METHOD_KW + _DO_CALL_KW;

        /* The CALL_KW forms: the guards of CALL's, one stack entry deeper
           (the names of the keyword arguments are on top). */
        op(_CHECK_FUNCTION_VERSION_KW, (func_version/2, callable, unused, unused[oparg], unused -- callable, unused, unused[oparg], unused)) {
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            DEOPT_IF(!PyFunction_Check(callable_o));
            DEOPT_IF(((PyFunctionObject *)callable_o)->func_version != func_version);
        }

        op(_CHECK_METHOD_VERSION_KW, (func_version/2, callable, null, unused[oparg], unused -- callable, null, unused[oparg], unused)) {
            DEOPT_IF(!PyStackRef_IsNull(null));
            DEOPT_IF(!_PyEval_IsMethodOfVersion(PyStackRef_AsPyObjectBorrow(callable), func_version));
        }

        op(_CHECK_IS_NOT_PY_CALLABLE_KW, (callable, unused, unused[oparg], unused -- callable, unused, unused[oparg], unused)) {
            DEOPT_IF(_PyEval_IsPythonCallable(PyStackRef_AsPyObjectBorrow(callable)));
        }

        /* _PUSH_FRAME_GENERAL with the last len(kwnames) arguments passed
           by name. */
        tier1 op(_PUSH_FRAME_KW, (callable, self_or_null, args[oparg], kwnames -- res)) {
            int has_self = !PyStackRef_IsNull(self_or_null);
            PyObject *kwnames_o = PyStackRef_AsPyObjectBorrow(kwnames);
            size_t positional = (size_t)(oparg + has_self - PyTuple_GET_SIZE(kwnames_o));
            _PyFrame_SetStackPointer(frame, stack_pointer - 3 - oparg);
            _PyInterpreterFrame *new_frame = _PyEvalFramePushAndInit(
                tstate, callable, NULL, args - has_self, positional, kwnames_o, frame);
            PyStackRef_CLOSE(kwnames);
            stack_pointer = _PyFrame_GetStackPointer(frame);
            if (new_frame == NULL) {
                goto error;
            }
            frame->return_offset = INSTRUCTION_SIZE();
            res = PyStackRef_NULL;
            ENTER_FRAME(new_frame);
        }

        op(_CALL_KW_VECTORCALL, (callable, self_or_null, args[oparg], kwnames -- res)) {
            int has_self = !PyStackRef_IsNull(self_or_null);
            PyObject *kwnames_o = PyStackRef_AsPyObjectBorrow(kwnames);
            int positional = oparg + has_self - (int)PyTuple_GET_SIZE(kwnames_o);
            PyObject *res_o = _PyEval_VectorcallAndClose(tstate, callable, args - has_self, positional, kwnames_o);
            PyStackRef_CLOSE(kwnames);
            INPUTS_DEAD();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        macro(CALL_KW_PY) = unused/1 + _CHECK_FUNCTION_VERSION_KW + _PUSH_FRAME_KW;
        macro(CALL_KW_BOUND_METHOD) = unused/1 + _CHECK_METHOD_VERSION_KW + _MAYBE_EXPAND_METHOD_KW + _PUSH_FRAME_KW;
        macro(CALL_KW_NON_PY) = unused/1 + unused/2 + _CHECK_IS_NOT_PY_CALLABLE_KW + _CALL_KW_VECTORCALL;

        /* func(*callargs, **kwargs); kwargs may be NULL. */
        inst(CALL_FUNCTION_EX, (func, self_or_null, callargs, kwargs -- result)) {
            PyObject *result_o = _PyEval_CallFunctionEx(
                tstate, PyStackRef_AsPyObjectBorrow(func),
                PyStackRef_IsNull(self_or_null) ? NULL : PyStackRef_AsPyObjectBorrow(self_or_null),
                PyStackRef_AsPyObjectBorrow(callargs),
                PyStackRef_IsNull(kwargs) ? NULL : PyStackRef_AsPyObjectBorrow(kwargs));
            PyStackRef_CLOSE(func);
            PyStackRef_XCLOSE(self_or_null);
            PyStackRef_CLOSE(callargs);
            PyStackRef_XCLOSE(kwargs);
            ERROR_IF(result_o == NULL);
            result = PyStackRef_FromPyObjectSteal(result_o);
        }

        inst(CALL_INTRINSIC_1, (value -- res)) {
            assert(oparg <= MAX_INTRINSIC_1);
            PyObject *res_o = _PyEval_CallIntrinsic1(tstate, oparg, PyStackRef_AsPyObjectBorrow(value));
            PyStackRef_CLOSE(value);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        inst(CALL_INTRINSIC_2, (value2_st, value1_st -- res)) {
            assert(oparg <= MAX_INTRINSIC_2);
            PyObject *res_o = _PyEval_CallIntrinsic2(tstate, oparg,
                                                     PyStackRef_AsPyObjectBorrow(value2_st),
                                                     PyStackRef_AsPyObjectBorrow(value1_st));
            DECREF_INPUTS();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        /* Pops the frame and pushes the value in the caller.  The caller's
           saved stack pointer is below its call's inputs, so the result goes
           to its top: we point stack_pointer one above it and let the
           generated store (stack_pointer[-1] = res) write it there. */
        inst(RETURN_VALUE, (retval -- res)) {
            _PyStackRef temp = PyStackRef_MakeHeapSafe(retval);
            /* The value moves to the caller: the dying frame must not
               release it with the rest of its stack. */
            _PyFrame_SetStackPointer(frame, stack_pointer - 1);
            assert(frame->owner != FRAME_OWNED_BY_INTERPRETER);
            _Py_LeaveRecursiveCallPy(tstate);
            _PyInterpreterFrame *dying = frame;
            frame = tstate->current_frame = dying->previous;
            _PyEval_PopFrameFast(tstate, dying);
            stack_pointer = _PyFrame_GetStackPointer(frame) + 1;
            LOAD_IP(frame->return_offset);
            res = temp;
        }

        /* The instruction of the entry frame: returns from this C call of
           the interpreter. */
        inst(INTERPRETER_EXIT, (retval --)) {
            assert(frame->owner == FRAME_OWNED_BY_INTERPRETER);
            tstate->current_frame = frame->previous;
            _Py_LeaveRecursiveCallTstate(tstate);
            return PyStackRef_AsPyObjectSteal(retval);
        }

        /* ---- Globals, names, cells -------------------------------------- */

        family(LOAD_GLOBAL, INLINE_CACHE_ENTRIES_LOAD_GLOBAL) = {
            LOAD_GLOBAL_MODULE,
            LOAD_GLOBAL_BUILTIN,
        };

        specializing op(_SPECIALIZE_LOAD_GLOBAL, (counter/1 -- )) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_LoadGlobal(GLOBALS(), BUILTINS(), next_instr, FRAME_CO_NAMES, oparg >> 1);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        /* Cache: counter, the keys versions of globals and of builtins
           (Include/internal/pycore_dict.h: a keys version stays while no
           key is added or removed, whatever the values do), entry index.
           The guards come first, so the index is last. */
        macro(LOAD_GLOBAL) = _SPECIALIZE_LOAD_GLOBAL + unused/1 + unused/1 + unused/1 + _LOAD_GLOBAL;

        op(_GUARD_GLOBALS_VERSION, (version/1 --)) {
            PyObject *globals = GLOBALS();
            DEOPT_IF(!PyDict_CheckExact(globals));
            DEOPT_IF(((PyDictObject *)globals)->ma_keys->dk_version != version);
        }

        op(_GUARD_BUILTINS_VERSION, (version/1 --)) {
            PyObject *builtins = BUILTINS();
            DEOPT_IF(!PyDict_CheckExact(builtins));
            DEOPT_IF(((PyDictObject *)builtins)->ma_keys->dk_version != version);
        }

        /* The value now at entry `index` of a dict whose keys a guard has
           just checked; NULL there means the value was deleted by a
           PyDict API that leaves the entry's key (none does today). */
        op(_LOAD_GLOBAL_FROM_GLOBALS, (index/1 -- res, null[oparg & 1])) {
            PyObject *value = DK_ENTRIES(((PyDictObject *)GLOBALS())->ma_keys)[index].me_value;
            DEOPT_IF(value == NULL);
            res = PyStackRef_FromPyObjectNew(value);
            if (oparg & 1) {
                null[0] = PyStackRef_NULL;
            }
        }

        op(_LOAD_GLOBAL_FROM_BUILTINS, (index/1 -- res, null[oparg & 1])) {
            PyObject *value = DK_ENTRIES(((PyDictObject *)BUILTINS())->ma_keys)[index].me_value;
            DEOPT_IF(value == NULL);
            res = PyStackRef_FromPyObjectNew(value);
            if (oparg & 1) {
                null[0] = PyStackRef_NULL;
            }
        }

        /* A name found in the module's dict. */
        macro(LOAD_GLOBAL_MODULE) = unused/1 + _GUARD_GLOBALS_VERSION + unused/1 + _LOAD_GLOBAL_FROM_GLOBALS;
        /* A name absent from the module's dict (its keys are as they were)
           and found in builtins. */
        macro(LOAD_GLOBAL_BUILTIN) = unused/1 + _GUARD_GLOBALS_VERSION + _GUARD_BUILTINS_VERSION +
                                     _LOAD_GLOBAL_FROM_BUILTINS;

        op(_LOAD_GLOBAL, ( -- res, null[oparg & 1])) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg >> 1);
            PyObject *res_o = _PyEval_LoadGlobal(tstate, GLOBALS(), BUILTINS(), name);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
            if (oparg & 1) {
                null[0] = PyStackRef_NULL;
            }
        }

        inst(STORE_GLOBAL, (v --)) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            int err = PyDict_SetItem(GLOBALS(), name, PyStackRef_AsPyObjectBorrow(v));
            PyStackRef_CLOSE(v);
            ERROR_IF(err);
        }

        inst(DELETE_GLOBAL, (--)) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            int err = PyDict_Pop(GLOBALS(), name, NULL);
            if (err == 0) {
                _PyEval_FormatExcCheckArg(tstate, PyExc_NameError, "name '%.200s' is not defined", name);
            }
            ERROR_IF(err <= 0);
        }

        inst(LOAD_NAME, (-- v)) {
            int status = _PyEval_LoadName(tstate, LOCALS(), GLOBALS(), BUILTINS(),
                                          GETITEM(FRAME_CO_NAMES, oparg), &v);
            ERROR_IF(status < 0);
        }

        inst(STORE_NAME, (v -- )) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            PyObject *ns = LOCALS();
            int err;
            if (ns == NULL) {
                _PyErr_Format(tstate, PyExc_SystemError, "no locals found when storing %R", name);
                err = -1;
            }
            else if (PyDict_CheckExact(ns)) {
                err = PyDict_SetItem(ns, name, PyStackRef_AsPyObjectBorrow(v));
            }
            else {
                err = PyObject_SetItem(ns, name, PyStackRef_AsPyObjectBorrow(v));
            }
            PyStackRef_CLOSE(v);
            ERROR_IF(err);
        }

        inst(DELETE_NAME, (--)) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            PyObject *ns = LOCALS();
            if (ns == NULL) {
                _PyErr_Format(tstate, PyExc_SystemError, "no locals when deleting %R", name);
                ERROR_IF(1);
            }
            int err = PyObject_DelItem(ns, name);
            if (err != 0) {
                _PyEval_FormatExcCheckArg(tstate, PyExc_NameError, "name '%.200s' is not defined", name);
                ERROR_IF(1);
            }
        }

        /* Class bodies: the class namespace first, then globals/builtins. */
        inst(LOAD_FROM_DICT_OR_GLOBALS, (mod_or_class_dict -- v)) {
            int status = _PyEval_LoadFromDictOrGlobals(
                tstate, PyStackRef_AsPyObjectBorrow(mod_or_class_dict), GLOBALS(), BUILTINS(),
                GETITEM(FRAME_CO_NAMES, oparg), &v);
            PyStackRef_CLOSE(mod_or_class_dict);
            ERROR_IF(status < 0);
        }

        inst(MAKE_CELL, (--)) {
            PyObject *initial = PyStackRef_IsNull(GETLOCAL(oparg))
                                    ? NULL : PyStackRef_AsPyObjectBorrow(GETLOCAL(oparg));
            PyObject *cell = PyCell_New(initial);
            if (cell == NULL) {
                ERROR_NO_POP();
            }
            _PyStackRef tmp = GETLOCAL(oparg);
            GETLOCAL(oparg) = PyStackRef_FromPyObjectSteal(cell);
            PyStackRef_XCLOSE(tmp);
        }

        inst(COPY_FREE_VARS, (--)) {
            PyCodeObject *co = _PyFrame_GetCode(frame);
            PyFunctionObject *func = _PyFrame_GetFunction(frame);
            PyObject *closure = func->func_closure;
            assert(oparg == co->co_nfreevars);
            int offset = co->co_nlocalsplus - oparg;
            for (int i = 0; i < oparg; ++i) {
                frame->localsplus[offset + i] = PyStackRef_FromPyObjectNew(PyTuple_GET_ITEM(closure, i));
            }
        }

        inst(LOAD_DEREF, ( -- value)) {
            PyObject *cell = PyStackRef_AsPyObjectBorrow(GETLOCAL(oparg));
            PyObject *value_o = PyCell_GET(cell);
            if (value_o == NULL) {
                _PyEval_FormatExcUnbound(tstate, _PyFrame_GetCode(frame), oparg);
                ERROR_IF(1);
            }
            value = PyStackRef_FromPyObjectNew(value_o);
        }

        inst(LOAD_FROM_DICT_OR_DEREF, (class_dict_st -- value)) {
            PyObject *value_o = _PyEval_LoadFromDictOrDeref(
                tstate, PyStackRef_AsPyObjectBorrow(class_dict_st), _PyFrame_GetCode(frame),
                PyStackRef_AsPyObjectBorrow(GETLOCAL(oparg)), oparg);
            PyStackRef_CLOSE(class_dict_st);
            ERROR_IF(value_o == NULL);
            value = PyStackRef_FromPyObjectSteal(value_o);
        }

        inst(STORE_DEREF, (v --)) {
            PyObject *cell = PyStackRef_AsPyObjectBorrow(GETLOCAL(oparg));
            PyObject *old = PyCell_GET(cell);
            PyCell_SET(cell, PyStackRef_AsPyObjectSteal(v));
            Py_XDECREF(old);
        }

        inst(DELETE_DEREF, (--)) {
            PyObject *cell = PyStackRef_AsPyObjectBorrow(GETLOCAL(oparg));
            PyObject *old = PyCell_GET(cell);
            if (old == NULL) {
                _PyEval_FormatExcUnbound(tstate, _PyFrame_GetCode(frame), oparg);
                ERROR_IF(1);
            }
            PyCell_SET(cell, NULL);
            Py_DECREF(old);
        }

        inst(LOAD_LOCALS, ( -- locals)) {
            PyObject *l = LOCALS();
            if (l == NULL) {
                _PyErr_SetString(tstate, PyExc_SystemError, "no locals found");
                ERROR_IF(1);
            }
            locals = PyStackRef_FromPyObjectNew(l);
        }

        inst(LOAD_BUILD_CLASS, ( -- bc)) {
            PyObject *bc_o = _PyEval_LoadBuildClass(tstate, BUILTINS());
            ERROR_IF(bc_o == NULL);
            bc = PyStackRef_FromPyObjectSteal(bc_o);
        }

        inst(SETUP_ANNOTATIONS, (--)) {
            int err = _PyEval_SetupAnnotations(tstate, LOCALS());
            ERROR_IF(err);
        }

        /* ---- Attributes -------------------------------------------------- */

        family(LOAD_ATTR, INLINE_CACHE_ENTRIES_LOAD_ATTR) = {
            LOAD_ATTR_WITH_HINT,
            LOAD_ATTR_METHOD_WITH_DICT,
            LOAD_ATTR_SLOT,
            LOAD_ATTR_METHOD_NO_DICT,
            LOAD_ATTR_MODULE,
            LOAD_ATTR_CLASS,
        };

        specializing op(_SPECIALIZE_LOAD_ATTR, (counter/1, owner -- owner)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                PyObject *name = GETITEM(FRAME_CO_NAMES, oparg >> 1);
                next_instr = this_instr;
                _Py_Specialize_LoadAttr(owner, next_instr, name, oparg);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        /* With oparg & 1 (a method load for a call) this leaves
           (function, self) when the attribute is a plain method, avoiding a
           bound-method object, else (attribute, NULL). */
        op(_LOAD_ATTR, (owner -- attr, self_or_null[oparg & 1])) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg >> 1);
            PyObject *owner_o = PyStackRef_AsPyObjectBorrow(owner);
            if (oparg & 1) {
                PyObject *attr_o = NULL;
                int is_meth = _PyObject_GetMethod(owner_o, name, &attr_o);
                if (is_meth) {
                    assert(attr_o != NULL);
                    attr = PyStackRef_FromPyObjectSteal(attr_o);
                    self_or_null[0] = PyStackRef_MakeHeapSafe(owner);
                }
                else {
                    PyStackRef_CLOSE(owner);
                    ERROR_IF(attr_o == NULL);
                    attr = PyStackRef_FromPyObjectSteal(attr_o);
                    self_or_null[0] = PyStackRef_NULL;
                }
            }
            else {
                PyObject *attr_o = PyObject_GetAttr(owner_o, name);
                PyStackRef_CLOSE(owner);
                ERROR_IF(attr_o == NULL);
                attr = PyStackRef_FromPyObjectSteal(attr_o);
            }
        }

        macro(LOAD_ATTR) = _SPECIALIZE_LOAD_ATTR + unused/8 + _LOAD_ATTR;

        /* The type (and so every class attribute and descriptor) is as it
           was when specialised: tp_version_tag changes with any change to
           the type or its bases. */
        op(_GUARD_TYPE_VERSION, (type_version/2, owner -- owner)) {
            DEOPT_IF(Py_TYPE(PyStackRef_AsPyObjectBorrow(owner))->tp_version_tag != type_version);
        }

        op(_GUARD_TYPE_VERSION_OF_OWNER, (type_version/2, unused, owner -- unused, owner)) {
            DEOPT_IF(Py_TYPE(PyStackRef_AsPyObjectBorrow(owner))->tp_version_tag != type_version);
        }

        /* obj.name from the instance dict (no class attribute of that name
           exists), at the entry where it was found when specialised. */
        op(_LOAD_ATTR_WITH_HINT, (hint/1, owner -- attr, unused[oparg & 1])) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg >> 1);
            PyDictKeyEntry *entry = _PyDict_EntryAtHint(_PyObject_InlineDictAt(PyStackRef_AsPyObjectBorrow(owner)), name, hint);
            DEOPT_IF(entry == NULL);
            attr = PyStackRef_FromPyObjectNew(entry->me_value);
            PyStackRef_CLOSE(owner);
        }

        macro(LOAD_ATTR_WITH_HINT) = unused/1 + _GUARD_TYPE_VERSION + _LOAD_ATTR_WITH_HINT + unused/5;

        /* obj.method(...): the function found on the type, unless the
           instance dict shadows it. */
        op(_LOAD_ATTR_METHOD_WITH_DICT, (descr/4, owner -- attr, self_or_null[oparg & 1])) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg >> 1);
            DEOPT_IF(_PyObject_InstanceDictHas(PyStackRef_AsPyObjectBorrow(owner), name));
            attr = PyStackRef_FromPyObjectNew((PyObject *)(uintptr_t)descr);
            self_or_null[0] = owner;
        }

        macro(LOAD_ATTR_METHOD_WITH_DICT) = unused/1 + _GUARD_TYPE_VERSION + unused/2 + _LOAD_ATTR_METHOD_WITH_DICT;

        /* obj.name read from a __slots__ member at a fixed offset in the
           object.  An empty slot takes the generic path, which raises the
           AttributeError. */
        op(_LOAD_ATTR_SLOT, (index/1, owner -- attr, unused[oparg & 1])) {
            PyObject *value = *(PyObject **)((char *)PyStackRef_AsPyObjectBorrow(owner) + index);
            DEOPT_IF(value == NULL);
            attr = PyStackRef_FromPyObjectNew(value);
            PyStackRef_CLOSE(owner);
        }

        macro(LOAD_ATTR_SLOT) = unused/1 + _GUARD_TYPE_VERSION + _LOAD_ATTR_SLOT + unused/5;

        /* obj.method(...) on an instance without a dict: the type's
           function or method descriptor, with obj as self. */
        op(_LOAD_ATTR_METHOD_NO_DICT, (descr/4, owner -- attr, self_or_null[oparg & 1])) {
            attr = PyStackRef_FromPyObjectNew((PyObject *)(uintptr_t)descr);
            self_or_null[0] = owner;
        }

        macro(LOAD_ATTR_METHOD_NO_DICT) = unused/1 + _GUARD_TYPE_VERSION + unused/2 + _LOAD_ATTR_METHOD_NO_DICT;

        /* module.name from the module's dict, at the entry where it was
           found when specialised (the module type has no attribute of that
           name, and it is immutable). */
        op(_LOAD_ATTR_MODULE, (hint/1, owner -- attr, null[oparg & 1])) {
            PyObject *owner_o = PyStackRef_AsPyObjectBorrow(owner);
            DEOPT_IF(!PyModule_CheckExact(owner_o));
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg >> 1);
            PyDictKeyEntry *entry = _PyDict_EntryAtHint(((PyModuleObject *)owner_o)->md_dict, name, hint);
            DEOPT_IF(entry == NULL);
            attr = PyStackRef_FromPyObjectNew(entry->me_value);
            if (oparg & 1) {
                null[0] = PyStackRef_NULL;
            }
            PyStackRef_CLOSE(owner);
        }

        macro(LOAD_ATTR_MODULE) = unused/1 + unused/2 + _LOAD_ATTR_MODULE + unused/5;

        /* The class itself (not its type) is as it was when specialised. */
        op(_GUARD_CLASS_VERSION, (type_version/2, owner -- owner)) {
            PyObject *owner_o = PyStackRef_AsPyObjectBorrow(owner);
            DEOPT_IF(!PyType_Check(owner_o));
            DEOPT_IF(((PyTypeObject *)owner_o)->tp_version_tag != type_version);
        }

        /* cls.name where the class (or a base) holds a plain value or a
           function (which a class gives back as it is), and its metaclass,
           `type` itself, has no attribute of that name. */
        op(_LOAD_ATTR_CLASS, (descr/4, owner -- attr, null[oparg & 1])) {
            attr = PyStackRef_FromPyObjectNew((PyObject *)(uintptr_t)descr);
            if (oparg & 1) {
                null[0] = PyStackRef_NULL;
            }
            PyStackRef_CLOSE(owner);
        }

        macro(LOAD_ATTR_CLASS) = unused/1 + _GUARD_CLASS_VERSION + unused/2 + _LOAD_ATTR_CLASS;

        family(STORE_ATTR, INLINE_CACHE_ENTRIES_STORE_ATTR) = {
            STORE_ATTR_INSTANCE_VALUE,
            STORE_ATTR_WITH_HINT,
            STORE_ATTR_SLOT,
        };

        specializing op(_SPECIALIZE_STORE_ATTR, (counter/1, owner -- owner)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
                next_instr = this_instr;
                _Py_Specialize_StoreAttr(owner, next_instr, name);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        op(_STORE_ATTR, (v, owner --)) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            int err = PyObject_SetAttr(PyStackRef_AsPyObjectBorrow(owner), name,
                                       PyStackRef_AsPyObjectBorrow(v));
            DECREF_INPUTS();
            ERROR_IF(err);
        }

        macro(STORE_ATTR) = _SPECIALIZE_STORE_ATTR + unused/3 + _STORE_ATTR;

        /* obj.name = v straight into the instance dict: the type (version
           guarded) has no attribute of that name to intercept the store. */
        op(_STORE_ATTR_INSTANCE_VALUE, (v, owner --)) {
            PyObject **dictptr = _PyObject_GetDictPtr(PyStackRef_AsPyObjectBorrow(owner));
            DEOPT_IF(dictptr == NULL || *dictptr == NULL);
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            int err = PyDict_SetItem(*dictptr, name, PyStackRef_AsPyObjectBorrow(v));
            DECREF_INPUTS();
            ERROR_IF(err);
        }

        macro(STORE_ATTR_INSTANCE_VALUE) = unused/1 + _GUARD_TYPE_VERSION_OF_OWNER + unused/1 + _STORE_ATTR_INSTANCE_VALUE;

        /* obj.name = v replacing the value of an instance dict entry found
           where it was when specialised (the type, version guarded, has no
           attribute of that name to intercept the store). */
        op(_STORE_ATTR_WITH_HINT, (hint/1, v, owner --)) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            PyObject *dict = _PyObject_InlineDictAt(PyStackRef_AsPyObjectBorrow(owner));
            PyDictKeyEntry *entry = _PyDict_EntryAtHint(dict, name, hint);
            DEOPT_IF(entry == NULL);
            _PyDict_NotifyEvent(PyDict_EVENT_MODIFIED, (PyDictObject *)dict, name,
                                PyStackRef_AsPyObjectBorrow(v));
            PyObject *old_value = entry->me_value;
            entry->me_value = PyStackRef_AsPyObjectSteal(v);
            _PyDict_BumpVersion((PyDictObject *)dict);
            PyStackRef_CLOSE(owner);
            Py_DECREF(old_value);
        }

        macro(STORE_ATTR_WITH_HINT) = unused/1 + _GUARD_TYPE_VERSION_OF_OWNER + _STORE_ATTR_WITH_HINT;

        /* obj.name = v into a writable __slots__ member at a fixed offset. */
        op(_STORE_ATTR_SLOT, (index/1, v, owner --)) {
            PyObject **slot = (PyObject **)((char *)PyStackRef_AsPyObjectBorrow(owner) + index);
            PyObject *old_value = *slot;
            *slot = PyStackRef_AsPyObjectSteal(v);
            PyStackRef_CLOSE(owner);
            Py_XDECREF(old_value);
        }

        macro(STORE_ATTR_SLOT) = unused/1 + _GUARD_TYPE_VERSION_OF_OWNER + _STORE_ATTR_SLOT;

        inst(DELETE_ATTR, (owner --)) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            int err = PyObject_DelAttr(PyStackRef_AsPyObjectBorrow(owner), name);
            PyStackRef_CLOSE(owner);
            ERROR_IF(err);
        }

        /* super().name and super().name(...) */
        family(LOAD_SUPER_ATTR, INLINE_CACHE_ENTRIES_LOAD_SUPER_ATTR) = {
            LOAD_SUPER_ATTR_ATTR,
            LOAD_SUPER_ATTR_METHOD,
        };

        specializing op(_SPECIALIZE_LOAD_SUPER_ATTR, (counter/1, global_super_st, class_st, unused -- global_super_st, class_st, unused)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_LoadSuperAttr(global_super_st, class_st, next_instr, oparg);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        macro(LOAD_SUPER_ATTR) = _SPECIALIZE_LOAD_SUPER_ATTR + _LOAD_SUPER_ATTR;

        /* super().name (or super(C, obj).name) where `super` is the builtin
           and the class a type: the lookup along the MRO, without making a
           super object.  The zero-argument form has the __class__ cell and
           the first argument on the stack too, which is what super() would
           find. */
        inst(LOAD_SUPER_ATTR_ATTR, (unused/1, global_super_st, class_st, self_st -- attr, null[oparg & 1])) {
            PyObject *class_o = PyStackRef_AsPyObjectBorrow(class_st);
            DEOPT_IF(PyStackRef_AsPyObjectBorrow(global_super_st) != (PyObject *)&PySuper_Type);
            DEOPT_IF(!PyType_Check(class_o) || (oparg & 1));
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg >> 2);
            PyObject *attr_o = _PySuper_Lookup((PyTypeObject *)class_o, PyStackRef_AsPyObjectBorrow(self_st),
                                               name, NULL);
            DECREF_INPUTS();
            ERROR_IF(attr_o == NULL);
            attr = PyStackRef_FromPyObjectSteal(attr_o);
        }

        /* super().name(...): a plain function found along the MRO is left
           unbound with self beside it for the call, as LOAD_ATTR's method
           form does; anything else is bound and followed by NULL. */
        inst(LOAD_SUPER_ATTR_METHOD, (unused/1, global_super_st, class_st, self_st -- attr, self_or_null[oparg & 1])) {
            PyObject *class_o = PyStackRef_AsPyObjectBorrow(class_st);
            DEOPT_IF(PyStackRef_AsPyObjectBorrow(global_super_st) != (PyObject *)&PySuper_Type);
            DEOPT_IF(!PyType_Check(class_o) || !(oparg & 1));
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg >> 2);
            int unbound = 0;
            PyObject *attr_o = _PySuper_Lookup((PyTypeObject *)class_o, PyStackRef_AsPyObjectBorrow(self_st),
                                               name, &unbound);
            PyStackRef_CLOSE(global_super_st);
            PyStackRef_CLOSE(class_st);
            if (attr_o == NULL || !unbound) {
                PyStackRef_CLOSE(self_st);
                ERROR_IF(attr_o == NULL);
                self_or_null[0] = PyStackRef_NULL;
            }
            else {
                self_or_null[0] = PyStackRef_MakeHeapSafe(self_st);
                DEAD(self_st);
            }
            attr = PyStackRef_FromPyObjectSteal(attr_o);
        }

        op(_LOAD_SUPER_ATTR, (global_super_st, class_st, self_st -- attr, null[oparg & 1])) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg >> 2);
            PyObject *attr_o = _PyEval_LoadSuperAttr(
                tstate, PyStackRef_AsPyObjectBorrow(global_super_st),
                PyStackRef_AsPyObjectBorrow(class_st), PyStackRef_AsPyObjectBorrow(self_st),
                name, oparg);
            DECREF_INPUTS();
            ERROR_IF(attr_o == NULL);
            attr = PyStackRef_FromPyObjectSteal(attr_o);
            if (oparg & 1) {
                null[0] = PyStackRef_NULL;
            }
        }

        /* Looks up a special method (__enter__, __exit__, ...) on the type,
           leaving (method, self) for a call. */
        inst(LOAD_SPECIAL, (owner -- attr, self_or_null)) {
            assert(oparg <= SPECIAL_MAX);
            PyObject *owner_o = PyStackRef_AsPyObjectSteal(owner);
            PyObject *self_or_null_o;
            PyObject *attr_o = _PyEval_LoadSpecial(tstate, owner_o, oparg, &self_or_null_o);
            Py_DECREF(owner_o);
            ERROR_IF(attr_o == NULL);
            attr = PyStackRef_FromPyObjectSteal(attr_o);
            self_or_null = self_or_null_o == NULL ? PyStackRef_NULL
                                                  : PyStackRef_FromPyObjectSteal(self_or_null_o);
        }

        /* ---- Building values ------------------------------------------- */

        inst(BUILD_TUPLE, (values[oparg] -- tup)) {
            PyObject *tup_o = _PyEval_TupleFromStackRefsSteal(values, oparg);
            INPUTS_DEAD();
            ERROR_IF(tup_o == NULL);
            tup = PyStackRef_FromPyObjectSteal(tup_o);
        }

        inst(BUILD_LIST, (values[oparg] -- list)) {
            PyObject *list_o = _PyEval_ListFromStackRefsSteal(values, oparg);
            INPUTS_DEAD();
            ERROR_IF(list_o == NULL);
            list = PyStackRef_FromPyObjectSteal(list_o);
        }

        inst(BUILD_SET, (values[oparg] -- set)) {
            PyObject *set_o = _PyEval_SetFromStackRefsSteal(values, oparg);
            INPUTS_DEAD();
            ERROR_IF(set_o == NULL);
            set = PyStackRef_FromPyObjectSteal(set_o);
        }

        inst(BUILD_MAP, (values[oparg*2] -- map)) {
            PyObject *map_o = _PyEval_DictFromStackRefsSteal(values, oparg);
            INPUTS_DEAD();
            ERROR_IF(map_o == NULL);
            map = PyStackRef_FromPyObjectSteal(map_o);
        }

        inst(BUILD_STRING, (pieces[oparg] -- str)) {
            PyObject *str_o = _PyEval_StringFromStackRefsSteal(pieces, oparg);
            INPUTS_DEAD();
            ERROR_IF(str_o == NULL);
            str = PyStackRef_FromPyObjectSteal(str_o);
        }

        inst(BUILD_SLICE, (args[oparg] -- slice)) {
            assert(oparg == 2 || oparg == 3);
            PyObject *start_o = PyStackRef_AsPyObjectBorrow(args[0]);
            PyObject *stop_o = PyStackRef_AsPyObjectBorrow(args[1]);
            PyObject *step_o = oparg == 3 ? PyStackRef_AsPyObjectBorrow(args[2]) : NULL;
            PyObject *slice_o = PySlice_New(start_o, stop_o, step_o);
            DECREF_INPUTS();
            ERROR_IF(slice_o == NULL);
            slice = PyStackRef_FromPyObjectSteal(slice_o);
        }

        inst(LIST_APPEND, (list, unused[oparg-1], v -- list, unused[oparg-1])) {
            int err = _PyList_AppendTakeRef((PyListObject *)PyStackRef_AsPyObjectBorrow(list),
                                            PyStackRef_AsPyObjectSteal(v));
            ERROR_IF(err < 0);
        }

        inst(LIST_EXTEND, (list_st, unused[oparg-1], iterable_st -- list_st, unused[oparg-1])) {
            int err = _PyEval_ListExtend(tstate, PyStackRef_AsPyObjectBorrow(list_st),
                                         PyStackRef_AsPyObjectBorrow(iterable_st));
            PyStackRef_CLOSE(iterable_st);
            ERROR_IF(err < 0);
        }

        inst(SET_ADD, (set, unused[oparg-1], v -- set, unused[oparg-1])) {
            int err = PySet_Add(PyStackRef_AsPyObjectBorrow(set), PyStackRef_AsPyObjectBorrow(v));
            PyStackRef_CLOSE(v);
            ERROR_IF(err);
        }

        inst(SET_UPDATE, (set, unused[oparg-1], iterable -- set, unused[oparg-1])) {
            int err = _PySet_Update(PyStackRef_AsPyObjectBorrow(set), PyStackRef_AsPyObjectBorrow(iterable));
            PyStackRef_CLOSE(iterable);
            ERROR_IF(err < 0);
        }

        inst(MAP_ADD, (dict_st, unused[oparg - 1], key, value -- dict_st, unused[oparg - 1])) {
            int err = _PyDict_SetItem_Take2((PyDictObject *)PyStackRef_AsPyObjectBorrow(dict_st),
                                            PyStackRef_AsPyObjectSteal(key),
                                            PyStackRef_AsPyObjectSteal(value));
            ERROR_IF(err != 0);
        }

        inst(DICT_UPDATE, (dict, unused[oparg - 1], update -- dict, unused[oparg - 1])) {
            int err = _PyEval_DictUpdate(tstate, PyStackRef_AsPyObjectBorrow(dict),
                                         PyStackRef_AsPyObjectBorrow(update));
            PyStackRef_CLOSE(update);
            ERROR_IF(err < 0);
        }

        /* f(**a, **b): like DICT_UPDATE, but duplicate keys are an error
           naming the callee found `oparg + 2` slots down. */
        inst(DICT_MERGE, (callable, unused, unused, dict, unused[oparg - 1], update -- callable, unused, unused, dict, unused[oparg - 1])) {
            int err = _PyEval_DictMerge(tstate, PyStackRef_AsPyObjectBorrow(callable),
                                        PyStackRef_AsPyObjectBorrow(dict),
                                        PyStackRef_AsPyObjectBorrow(update));
            PyStackRef_CLOSE(update);
            ERROR_IF(err < 0);
        }

        family(UNPACK_SEQUENCE, INLINE_CACHE_ENTRIES_UNPACK_SEQUENCE) = {
            UNPACK_SEQUENCE_LIST,
            UNPACK_SEQUENCE_TUPLE,
            UNPACK_SEQUENCE_TWO_TUPLE,
        };

        specializing op(_SPECIALIZE_UNPACK_SEQUENCE, (counter/1, seq -- seq)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_UnpackSequence(seq, next_instr, oparg);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        op(_UNPACK_SEQUENCE, (seq -- output[oparg])) {
            _PyStackRef *top = output + oparg;
            int res = _PyEval_UnpackIterableStackRef(tstate, PyStackRef_AsPyObjectBorrow(seq),
                                                     oparg, -1, top);
            PyStackRef_CLOSE(seq);
            ERROR_IF(res == 0);
        }

        macro(UNPACK_SEQUENCE) = _SPECIALIZE_UNPACK_SEQUENCE + _UNPACK_SEQUENCE;

        /* The first item ends up on top. */
        /* a, b = pair: the commonest unpacking, without the loop. */
        inst(UNPACK_SEQUENCE_TWO_TUPLE, (unused/1, seq -- values[oparg])) {
            PyObject *seq_o = PyStackRef_AsPyObjectBorrow(seq);
            DEOPT_IF(oparg != 2 || !PyTuple_CheckExact(seq_o) || PyTuple_GET_SIZE(seq_o) != 2);
            /* The first item ends on top. */
            values[1] = PyStackRef_FromPyObjectNew(PyTuple_GET_ITEM(seq_o, 0));
            values[0] = PyStackRef_FromPyObjectNew(PyTuple_GET_ITEM(seq_o, 1));
            PyStackRef_CLOSE(seq);
        }

        inst(UNPACK_SEQUENCE_TUPLE, (unused/1, seq -- values[oparg])) {
            PyObject *seq_o = PyStackRef_AsPyObjectBorrow(seq);
            DEOPT_IF(!PyTuple_CheckExact(seq_o));
            DEOPT_IF(PyTuple_GET_SIZE(seq_o) != oparg);
            for (int i = 0; i < oparg; i++) {
                values[oparg - 1 - i] = PyStackRef_FromPyObjectNew(PyTuple_GET_ITEM(seq_o, i));
            }
            PyStackRef_CLOSE(seq);
        }

        inst(UNPACK_SEQUENCE_LIST, (unused/1, seq -- values[oparg])) {
            PyObject *seq_o = PyStackRef_AsPyObjectBorrow(seq);
            DEOPT_IF(!PyList_CheckExact(seq_o));
            DEOPT_IF(PyList_GET_SIZE(seq_o) != oparg);
            for (int i = 0; i < oparg; i++) {
                values[oparg - 1 - i] = PyStackRef_FromPyObjectNew(PyList_GET_ITEM(seq_o, i));
            }
            PyStackRef_CLOSE(seq);
        }

        inst(UNPACK_EX, (seq -- left[oparg & 0xFF], unused, right[oparg >> 8])) {
            _PyStackRef *top = right + (oparg >> 8);
            int res = _PyEval_UnpackIterableStackRef(tstate, PyStackRef_AsPyObjectBorrow(seq),
                                                     oparg & 0xFF, oparg >> 8, top);
            PyStackRef_CLOSE(seq);
            ERROR_IF(res == 0);
        }

        /* ---- f-strings -------------------------------------------------- */

        inst(CONVERT_VALUE, (value -- result)) {
            PyObject *result_o = _PyEval_ConvertValue(PyStackRef_AsPyObjectBorrow(value), oparg);
            PyStackRef_CLOSE(value);
            ERROR_IF(result_o == NULL);
            result = PyStackRef_FromPyObjectSteal(result_o);
        }

        inst(FORMAT_SIMPLE, (value -- res)) {
            PyObject *value_o = PyStackRef_AsPyObjectBorrow(value);
            if (!PyUnicode_CheckExact(value_o)) {
                PyObject *res_o = PyObject_Format(value_o, NULL);
                PyStackRef_CLOSE(value);
                ERROR_IF(res_o == NULL);
                res = PyStackRef_FromPyObjectSteal(res_o);
            }
            else {
                res = value;
            }
        }

        inst(FORMAT_WITH_SPEC, (value, fmt_spec -- res)) {
            PyObject *res_o = PyObject_Format(PyStackRef_AsPyObjectBorrow(value),
                                              PyStackRef_AsPyObjectBorrow(fmt_spec));
            DECREF_INPUTS();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        /* ---- t-strings (PEP 750) ---------------------------------------- */

        /* value, expression text, [spec] -- Interpolation.  oparg bit 0:
           a formatted spec string is on the stack; oparg >> 2: the
           conversion as an FVC_* code. */
        inst(BUILD_INTERPOLATION, (value, text, spec[oparg & 1] -- interp)) {
            PyObject *spec_o = (oparg & 1) ? PyStackRef_AsPyObjectBorrow(spec[0]) : NULL;
            PyObject *interp_o = _PyInterpolation_Build(PyStackRef_AsPyObjectBorrow(value),
                                                        PyStackRef_AsPyObjectBorrow(text),
                                                        oparg >> 2, spec_o);
            DECREF_INPUTS();
            ERROR_IF(interp_o == NULL);
            interp = PyStackRef_FromPyObjectSteal(interp_o);
        }

        /* strings tuple, interpolations tuple -- Template */
        inst(BUILD_TEMPLATE, (strings, interps -- tmpl)) {
            PyObject *tmpl_o = _PyTemplate_Build(PyStackRef_AsPyObjectBorrow(strings),
                                                 PyStackRef_AsPyObjectBorrow(interps));
            DECREF_INPUTS();
            ERROR_IF(tmpl_o == NULL);
            tmpl = PyStackRef_FromPyObjectSteal(tmpl_o);
        }

        /* ---- Imports ------------------------------------------------------ */

        inst(IMPORT_NAME, (level, fromlist -- res)) {
            int status = _PyEval_ImportName(tstate, GLOBALS(), LOCALS(), GETITEM(FRAME_CO_NAMES, oparg),
                                            PyStackRef_AsPyObjectBorrow(fromlist),
                                            PyStackRef_AsPyObjectBorrow(level), &res);
            DECREF_INPUTS();
            ERROR_IF(status < 0);
        }

        inst(IMPORT_FROM, (from -- from, res)) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            PyObject *res_o = _PyEval_ImportFrom(tstate, PyStackRef_AsPyObjectBorrow(from), name);
            if (res_o == NULL) {
                ERROR_NO_POP();
            }
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        /* ---- Exceptions -------------------------------------------------- */

        /* raise / raise exc / raise exc from cause */
        inst(RAISE_VARARGS, (args[oparg] -- )) {
            PyObject *cause = NULL, *exc = NULL;
            switch (oparg) {
            case 2:
                cause = PyStackRef_AsPyObjectSteal(args[1]);
                _Py_FALLTHROUGH;
            case 1:
                exc = PyStackRef_AsPyObjectSteal(args[0]);
                _Py_FALLTHROUGH;
            case 0:
                break;
            default:
                Py_UNREACHABLE();
            }
            stack_pointer -= oparg;
            if (_PyEval_DoRaise(tstate, exc, cause)) {
                /* A bare `raise` re-raises with its traceback as it is. */
                if (_PyMonitoring_CodeWants(_PyFrame_GetCode(frame), PY_MONITORING_EVENT_RERAISE)) {
                    _PyMonitoring_FireException(tstate, frame, this_instr, PY_MONITORING_EVENT_RERAISE);
                }
                goto exception_unwind;
            }
            goto error;
        }

        /* Re-raise the exception on top; with oparg, values[0] holds the
           offset of the instruction that raised it originally. */
        inst(RERAISE, (values[oparg], exc_st -- values[oparg])) {
            PyObject *exc = PyStackRef_AsPyObjectSteal(exc_st);
            assert(oparg >= 0 && oparg <= 2);
            if (oparg) {
                PyObject *lasti = PyStackRef_AsPyObjectBorrow(values[0]);
                assert(PyLong_Check(lasti));
                frame->instr_ptr = _PyCode_CODE(_PyFrame_GetCode(frame)) + PyLong_AsLong(lasti);
            }
            assert(exc && PyExceptionInstance_Check(exc));
            _PyErr_SetRaisedException(tstate, exc);
            stack_pointer -= 1;
            if (_PyMonitoring_CodeWants(_PyFrame_GetCode(frame), PY_MONITORING_EVENT_RERAISE)) {
                _PyMonitoring_FireException(tstate, frame, this_instr, PY_MONITORING_EVENT_RERAISE);
            }
            goto exception_unwind;
        }

        /* Entering an except block: remember the previously handled
           exception (to restore it on exit) and make this one current. */
        inst(PUSH_EXC_INFO, (exc -- prev_exc, new_exc)) {
            _PyErr_StackItem *exc_info = tstate->exc_info;
            if (exc_info->exc_value != NULL) {
                prev_exc = PyStackRef_FromPyObjectSteal(exc_info->exc_value);
            }
            else {
                prev_exc = PyStackRef_None;
            }
            assert(PyExceptionInstance_Check(PyStackRef_AsPyObjectBorrow(exc)));
            exc_info->exc_value = PyStackRef_AsPyObjectNew(exc);
            new_exc = exc;
        }

        inst(POP_EXCEPT, (exc_value --)) {
            _PyErr_StackItem *exc_info = tstate->exc_info;
            PyObject *restored = PyStackRef_IsNone(exc_value) ? NULL : PyStackRef_AsPyObjectSteal(exc_value);
            Py_XSETREF(exc_info->exc_value, restored);
        }

        inst(CHECK_EXC_MATCH, (left, right -- left, b)) {
            PyObject *left_o = PyStackRef_AsPyObjectBorrow(left);
            PyObject *right_o = PyStackRef_AsPyObjectBorrow(right);
            assert(PyExceptionInstance_Check(left_o));
            int valid = _PyEval_CheckExceptTypeValid(tstate, right_o) == 0;
            int res = valid && PyErr_GivenExceptionMatches(left_o, right_o);
            PyStackRef_CLOSE(right);
            ERROR_IF(!valid);
            b = res ? PyStackRef_True : PyStackRef_False;
        }

        inst(CHECK_EG_MATCH, (exc_value_st, match_type_st -- rest, match)) {
            PyObject *match_o = NULL;
            PyObject *rest_o = NULL;
            int res = _PyEval_ExceptionGroupMatch(tstate, PyStackRef_AsPyObjectBorrow(exc_value_st),
                                                  PyStackRef_AsPyObjectBorrow(match_type_st),
                                                  &match_o, &rest_o);
            DECREF_INPUTS();
            ERROR_IF(res < 0);
            assert((match_o == NULL) == (rest_o == NULL));
            ERROR_IF(match_o == NULL);
            if (!Py_IsNone(match_o)) {
                PyErr_SetHandledException(match_o);
            }
            rest = PyStackRef_FromPyObjectSteal(rest_o);
            match = PyStackRef_FromPyObjectSteal(match_o);
        }

        /* Calls __exit__(type, value, tb) of a with-statement whose body
           raised `val`; the lasti and unused slots sit between. */
        inst(WITH_EXCEPT_START, (exit_func, exit_self, lasti, unused, val -- exit_func, exit_self, lasti, unused, val, res)) {
            (void)lasti;
            PyObject *res_o = _PyEval_CallExitWithException(
                tstate, PyStackRef_AsPyObjectBorrow(exit_func),
                PyStackRef_IsNull(exit_self) ? NULL : PyStackRef_AsPyObjectBorrow(exit_self),
                PyStackRef_AsPyObjectBorrow(val));
            if (res_o == NULL) {
                ERROR_NO_POP();
            }
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        inst(GET_LEN, (obj -- obj, len)) {
            Py_ssize_t len_i = PyObject_Length(PyStackRef_AsPyObjectBorrow(obj));
            if (len_i < 0) {
                ERROR_NO_POP();
            }
            PyObject *len_o = PyLong_FromSsize_t(len_i);
            if (len_o == NULL) {
                ERROR_NO_POP();
            }
            len = PyStackRef_FromPyObjectSteal(len_o);
        }

        /* The first instruction of CALL_ALLOC_AND_ENTER_INIT's shim frame:
           __init__ has just returned into it, above the new object. */
        inst(EXIT_INIT_CHECK, (should_be_none -- )) {
            if (!PyStackRef_IsNone(should_be_none)) {
                PyErr_Format(PyExc_TypeError, "__init__() should return None, not '%.200s'",
                             Py_TYPE(PyStackRef_AsPyObjectBorrow(should_be_none))->tp_name);
                ERROR_NO_POP();
            }
        }

        /* ---- Pattern matching ---------------------------------------------- */

        inst(MATCH_CLASS, (subject, type, names -- attrs)) {
            PyObject *attrs_o = _PyEval_MatchClass(tstate, PyStackRef_AsPyObjectBorrow(subject),
                                                   PyStackRef_AsPyObjectBorrow(type), oparg,
                                                   PyStackRef_AsPyObjectBorrow(names));
            DECREF_INPUTS();
            if (attrs_o == NULL) {
                ERROR_IF(_PyErr_Occurred(tstate));
                attrs = PyStackRef_None;
            }
            else {
                attrs = PyStackRef_FromPyObjectSteal(attrs_o);
            }
        }

        inst(MATCH_MAPPING, (subject -- subject, res)) {
            int match = Py_TYPE(PyStackRef_AsPyObjectBorrow(subject))->tp_flags & Py_TPFLAGS_MAPPING;
            res = match ? PyStackRef_True : PyStackRef_False;
        }

        inst(MATCH_SEQUENCE, (subject -- subject, res)) {
            int match = Py_TYPE(PyStackRef_AsPyObjectBorrow(subject))->tp_flags & Py_TPFLAGS_SEQUENCE;
            res = match ? PyStackRef_True : PyStackRef_False;
        }

        inst(MATCH_KEYS, (subject, keys -- subject, keys, values_or_none)) {
            PyObject *values_or_none_o = _PyEval_MatchKeys(tstate, PyStackRef_AsPyObjectBorrow(subject),
                                                           PyStackRef_AsPyObjectBorrow(keys));
            if (values_or_none_o == NULL) {
                ERROR_NO_POP();
            }
            values_or_none = PyStackRef_FromPyObjectSteal(values_or_none_o);
        }

        /* ---- Generators and coroutines ---------------------------------- */

        /* First instruction of a generator function: move this frame into
           a new generator and return the generator to the caller. */
        inst(RETURN_GENERATOR, (-- res)) {
            frame->instr_ptr++;
            _PyFrame_SetStackPointer(frame, stack_pointer);
            PyObject *gen = _PyEval_MoveFrameToGenerator(tstate, frame);
            ERROR_IF(gen == NULL);
            _Py_LeaveRecursiveCallPy(tstate);
            _PyInterpreterFrame *prev = frame->previous;
            _PyThreadState_PopFrame(tstate, frame);
            frame = tstate->current_frame = prev;
            LOAD_IP(frame->return_offset);
            stack_pointer = _PyFrame_GetStackPointer(frame);
            res = PyStackRef_FromPyObjectSteal(gen);
        }

        /* Suspend the generator and hand `retval` to whoever resumed it.
           oparg is 1 inside `yield from`/`await`. */
        inst(YIELD_VALUE, (retval -- value)) {
            _PyStackRef temp = PyStackRef_MakeHeapSafe(retval);
            PyGenObject *gen = _PyGen_GetGeneratorFromFrame(frame);
            gen->gi_frame_state = oparg ? FRAME_SUSPENDED_YIELD_FROM : FRAME_SUSPENDED;
            frame->instr_ptr++;
            _PyFrame_SetStackPointer(frame, stack_pointer - 1);
            _PyGen_LeaveExcState(tstate, gen);
            _Py_LeaveRecursiveCallPy(tstate);
            _PyInterpreterFrame *gen_frame = frame;
            frame = tstate->current_frame = frame->previous;
            gen_frame->previous = NULL;
            /* Whoever resumed us (FOR_ITER_GEN, SEND_GEN, or the entry
               frame's trampoline) continues just past its instruction and
               caches; return_offset is for RETURN_VALUE. */
            LOAD_IP(1 + INLINE_CACHE_ENTRIES_SEND);
            stack_pointer = _PyFrame_GetStackPointer(frame) + 1;
            value = temp;
        }

        /* Advance the iterator of a `yield from`/`await` with v.  Yields go
           on to YIELD_VALUE; when the iterator returns, jump by oparg to
           END_SEND with the return value. */
        family(SEND, INLINE_CACHE_ENTRIES_SEND) = {
            SEND_GEN,
            SEND_VIRTUAL,
        };

        specializing op(_SPECIALIZE_SEND, (counter/1, receiver, index_or_null, unused -- receiver, index_or_null, unused)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_Send(receiver, index_or_null, next_instr, oparg);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].cache);
        }

        macro(SEND) = _SPECIALIZE_SEND + _SEND;

        /* `yield from`/`await` on a plain generator or coroutine: as
           FOR_ITER_GEN, the delegate's frame runs in this loop.  Its yields
           come back to the YIELD_VALUE after this instruction, its return
           to END_SEND. */
        inst(SEND_GEN, (unused/1, receiver, index_or_null, v -- receiver, index_out, retval)) {
            PyGenObject *gen = (PyGenObject *)PyStackRef_AsPyObjectBorrow(receiver);
            DEOPT_IF(!PyGen_CheckExact(gen) && !PyCoro_CheckExact(gen));
            DEOPT_IF(gen->gi_frame_state >= FRAME_EXECUTING);
            /* The generic path raises the TypeError for this. */
            DEOPT_IF(gen->gi_frame_state == FRAME_CREATED && !PyStackRef_IsNone(v));
            _PyInterpreterFrame *gen_frame = _PyGen_EnterFrameInline(tstate, gen, PyStackRef_MakeHeapSafe(v));
            _PyFrame_SetStackPointer(frame, stack_pointer - 1);
            frame->return_offset = (uint16_t)(next_instr - this_instr + oparg);
            index_out = index_or_null;
            retval = PyStackRef_NULL;
            DISPATCH_INLINED(gen_frame);
        }

        /* `yield from some_list` (GET_ITER_VIRTUAL's pair): the next item
           comes from _tp_iteritem, as in FOR_ITER_VIRTUAL.  Only None can
           be sent to a sequence; the generic SEND raises for the rest. */
        inst(SEND_VIRTUAL, (unused/1, receiver, index_or_null, v -- receiver, index_out, retval)) {
            DEOPT_IF(!PyStackRef_IsTaggedInt(index_or_null) || !PyStackRef_IsNone(v));
            DEAD(v);  /* None */
            PyObject *receiver_o = PyStackRef_AsPyObjectBorrow(receiver);
            PyObject *item;
            Py_ssize_t next_index;
            int status = Py_TYPE(receiver_o)->_tp_iteritem(receiver_o, PyStackRef_UntagInt(index_or_null),
                                                           &item, &next_index);
            ERROR_IF(status < 0);
            if (status == 0) {
                /* Exhausted: END_SEND gets None, the delegation's result. */
                index_out = index_or_null;
                retval = PyStackRef_None;
                JUMPBY(oparg);
            }
            else {
                index_out = PyStackRef_TagInt(next_index);
                retval = PyStackRef_FromPyObjectSteal(item);
            }
        }

        op(_SEND, (receiver, index_or_null, v -- receiver, index_out, retval)) {
            PyObject *receiver_o = PyStackRef_AsPyObjectBorrow(receiver);
            PyObject *retval_o;
            if (PyStackRef_IsTaggedInt(index_or_null)) {
                /* `yield from some_list`: a virtual iterator, which has no
                   send() to take a value other than None. */
                if (!Py_IsNone(PyStackRef_AsPyObjectBorrow(v))) {
                    _PyEval_RefuseSendToSequence(tstate, receiver_o);
                    PyStackRef_CLOSE(v);
                    ERROR_IF(true);
                }
                Py_ssize_t next_index;
                int status = Py_TYPE(receiver_o)->_tp_iteritem(
                    receiver_o, PyStackRef_UntagInt(index_or_null), &retval_o, &next_index);
                PyStackRef_CLOSE(v);
                ERROR_IF(status < 0);
                if (status > 0) {
                    index_or_null = PyStackRef_TagInt(next_index);
                }
                else {
                    retval_o = Py_NewRef(Py_None);
                    JUMPBY(oparg);
                }
            }
            else {
                PySendResult r = _PyEval_SendTo(tstate, receiver_o, PyStackRef_AsPyObjectBorrow(v),
                                                &retval_o);
                PyStackRef_CLOSE(v);
                ERROR_IF(r == PYGEN_ERROR);
                if (r == PYGEN_RETURN) {
                    JUMPBY(oparg);
                }
            }
            index_out = index_or_null;
            retval = PyStackRef_FromPyObjectSteal(retval_o);
        }

        inst(END_SEND, (receiver, index_or_null, value -- val)) {
            (void)index_or_null;
            val = value;
            PyStackRef_CLOSE(receiver);
        }

        /* Handler around a `yield from` loop: a StopIteration thrown in
           ends the delegation with its value; anything else propagates. */
        inst(CLEANUP_THROW, (sub_iter, null_or_index, last_sent_val, exc_value_st -- none, null_out, value)) {
            PyObject *exc_value = PyStackRef_AsPyObjectBorrow(exc_value_st);
            if (!PyErr_GivenExceptionMatches(exc_value, PyExc_StopIteration)) {
                _PyErr_SetRaisedException(tstate, Py_NewRef(exc_value));
                goto exception_unwind;
            }
            PyObject *value_o = ((PyStopIterationObject *)exc_value)->value;
            value = PyStackRef_FromPyObjectNew(value_o ? value_o : Py_None);
            (void)null_or_index;
            PyStackRef_CLOSE(sub_iter);
            PyStackRef_CLOSE(last_sent_val);
            PyStackRef_CLOSE(exc_value_st);
            none = PyStackRef_None;
            null_out = PyStackRef_NULL;
        }

        inst(GET_AWAITABLE, (iterable -- iter)) {
            PyObject *iter_o = _PyEval_GetAwaitable(tstate, PyStackRef_AsPyObjectBorrow(iterable), oparg);
            PyStackRef_CLOSE(iterable);
            ERROR_IF(iter_o == NULL);
            iter = PyStackRef_FromPyObjectSteal(iter_o);
        }

        inst(GET_AITER, (obj -- iter)) {
            PyObject *iter_o = _PyEval_GetAIter(tstate, PyStackRef_AsPyObjectBorrow(obj));
            PyStackRef_CLOSE(obj);
            ERROR_IF(iter_o == NULL);
            iter = PyStackRef_FromPyObjectSteal(iter_o);
        }

        /* `async for`: the awaitable of the next step, driven by the SEND
           loop that follows. */
        inst(GET_ANEXT, (aiter -- aiter, awaitable)) {
            PyObject *awaitable_o = _PyEval_GetANext(tstate, PyStackRef_AsPyObjectBorrow(aiter));
            if (awaitable_o == NULL) {
                ERROR_NO_POP();
            }
            awaitable = PyStackRef_FromPyObjectSteal(awaitable_o);
        }

        /* Handler of the __anext__ await: StopAsyncIteration ends the
           loop (popping the async iterator), anything else propagates. */
        inst(END_ASYNC_FOR, (aiter_st, exc_st -- )) {
            PyObject *exc = PyStackRef_AsPyObjectBorrow(exc_st);
            if (!PyErr_GivenExceptionMatches(exc, PyExc_StopAsyncIteration)) {
                _PyErr_SetRaisedException(tstate, Py_NewRef(exc));
                if (_PyMonitoring_CodeWants(_PyFrame_GetCode(frame), PY_MONITORING_EVENT_RERAISE)) {
                    _PyMonitoring_FireException(tstate, frame, this_instr, PY_MONITORING_EVENT_RERAISE);
                }
                goto exception_unwind;
            }
            PyStackRef_CLOSE(aiter_st);
            PyStackRef_CLOSE(exc_st);
        }

        /* ---- Pseudo-instructions (compiler only) --------------------------
           The SETUP_* effects apply on the path into the handler (the jump
           target), where the exception (and for SETUP_CLEANUP, the lasti)
           is pushed; falling through they change nothing. */

        /* ---- Instrumented forms (sys.monitoring) ------------------------
           Python/instrumentation.c writes these over the generic opcodes of
           a code object while some tool wants their events; each reports
           its event and then behaves as the generic form. */

        tier1 op(_MONITOR_RESUME, (--)) {
            int err = _PyMonitoring_FireResume(tstate, frame, this_instr, oparg);
            ERROR_IF(err < 0);
        }

        macro(INSTRUMENTED_RESUME) = _RESUME_CHECK_OPARG + _MAYBE_INSTRUMENT + _MONITOR_RESUME + _CHECK_PERIODIC;

        tier1 op(_MONITOR_RETURN, (retval -- retval)) {
            int err = _PyMonitoring_FireValue(tstate, frame, this_instr, PY_MONITORING_EVENT_PY_RETURN,
                                              PyStackRef_AsPyObjectBorrow(retval));
            if (err < 0) {
                ERROR_NO_POP();
            }
        }

        macro(INSTRUMENTED_RETURN_VALUE) = _MONITOR_RETURN + RETURN_VALUE;

        tier1 op(_MONITOR_YIELD, (retval -- retval)) {
            int err = _PyMonitoring_FireValue(tstate, frame, this_instr, PY_MONITORING_EVENT_PY_YIELD,
                                              PyStackRef_AsPyObjectBorrow(retval));
            if (err < 0) {
                ERROR_NO_POP();
            }
        }

        macro(INSTRUMENTED_YIELD_VALUE) = _MONITOR_YIELD + YIELD_VALUE;

        /* CALL reports the callable and its first argument (self for a
           method), or MISSING when there is none. */
        tier1 op(_MONITOR_CALL, (callable, self_or_null, args[oparg] -- callable, self_or_null, args[oparg])) {
            PyObject *arg0 = !PyStackRef_IsNull(self_or_null) ? PyStackRef_AsPyObjectBorrow(self_or_null)
                             : oparg > 0 ? PyStackRef_AsPyObjectBorrow(args[0]) : NULL;
            int err = _PyMonitoring_FireCall(tstate, frame, this_instr, PY_MONITORING_EVENT_CALL,
                                             PyStackRef_AsPyObjectBorrow(callable), arg0);
            if (err < 0) {
                ERROR_NO_POP();
            }
        }

        tier1 op(_MONITOR_CALL_KW, (callable, self_or_null, args[oparg], kwnames -- callable, self_or_null, args[oparg], kwnames)) {
            PyObject *arg0 = !PyStackRef_IsNull(self_or_null) ? PyStackRef_AsPyObjectBorrow(self_or_null)
                             : oparg > 0 ? PyStackRef_AsPyObjectBorrow(args[0]) : NULL;
            int err = _PyMonitoring_FireCall(tstate, frame, this_instr, PY_MONITORING_EVENT_CALL,
                                             PyStackRef_AsPyObjectBorrow(callable), arg0);
            if (err < 0) {
                ERROR_NO_POP();
            }
        }

        /* Like _DO_CALL; a callable that runs no Python frame of ours is
           followed by C_RETURN or C_RAISE. */
        tier1 op(_DO_CALL_MONITORED, (callable, self_or_null, args[oparg] -- res)) {
            int total_args = oparg;
            _PyStackRef *arguments = args;
            if (!PyStackRef_IsNull(self_or_null)) {
                arguments--;
                total_args++;
            }
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            if (_PyEval_IsInlinablePyFunction(callable_o)) {
                _PyFrame_SetStackPointer(frame, stack_pointer - 2 - oparg);
                _PyInterpreterFrame *new_frame = _PyEvalFramePushAndInit(
                    tstate, callable, NULL, arguments, total_args, NULL, frame);
                stack_pointer = _PyFrame_GetStackPointer(frame);
                if (new_frame == NULL) {
                    goto error;
                }
                frame->return_offset = (uint16_t)(next_instr - this_instr);
                DISPATCH_INLINED(new_frame);
            }
            PyObject *func = Py_NewRef(callable_o);
            PyObject *arg0 = total_args > 0 ? Py_NewRef(PyStackRef_AsPyObjectBorrow(arguments[0])) : NULL;
            PyObject *res_o = _PyEval_VectorcallAndClose(tstate, callable, arguments, total_args, NULL);
            INPUTS_DEAD();
            res_o = _PyEval_MonitorCallResult(tstate, frame, this_instr, func, arg0, res_o);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        macro(INSTRUMENTED_CALL) = unused/3 + _MAYBE_EXPAND_METHOD + _MONITOR_CALL + _DO_CALL_MONITORED;

        tier1 op(_DO_CALL_KW_MONITORED, (callable, self_or_null, args[oparg], kwnames -- res)) {
            int total_args = oparg;
            _PyStackRef *arguments = args;
            if (!PyStackRef_IsNull(self_or_null)) {
                arguments--;
                total_args++;
            }
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            PyObject *kwnames_o = PyStackRef_AsPyObjectBorrow(kwnames);
            int positional_args = total_args - (int)PyTuple_GET_SIZE(kwnames_o);
            if (_PyEval_IsInlinablePyFunction(callable_o)) {
                _PyFrame_SetStackPointer(frame, stack_pointer - 3 - oparg);
                _PyInterpreterFrame *new_frame = _PyEvalFramePushAndInit(
                    tstate, callable, NULL, arguments, positional_args, kwnames_o, frame);
                PyStackRef_CLOSE(kwnames);
                stack_pointer = _PyFrame_GetStackPointer(frame);
                if (new_frame == NULL) {
                    goto error;
                }
                frame->return_offset = (uint16_t)(next_instr - this_instr);
                DISPATCH_INLINED(new_frame);
            }
            PyObject *func = Py_NewRef(callable_o);
            PyObject *arg0 = total_args > 0 ? Py_NewRef(PyStackRef_AsPyObjectBorrow(arguments[0])) : NULL;
            PyObject *res_o = _PyEval_VectorcallAndClose(tstate, callable, arguments, positional_args,
                                                         kwnames_o);
            PyStackRef_CLOSE(kwnames);
            INPUTS_DEAD();
            res_o = _PyEval_MonitorCallResult(tstate, frame, this_instr, func, arg0, res_o);
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        macro(INSTRUMENTED_CALL_KW) = unused/1 + unused/2 + _MAYBE_EXPAND_METHOD_KW + _MONITOR_CALL_KW + _DO_CALL_KW_MONITORED;

        tier1 inst(INSTRUMENTED_CALL_FUNCTION_EX, (func, self_or_null, callargs, kwargs -- result)) {
            PyObject *func_o = PyStackRef_AsPyObjectBorrow(func);
            PyObject *args_o = PyStackRef_AsPyObjectBorrow(callargs);
            PyObject *arg0 = !PyStackRef_IsNull(self_or_null) ? PyStackRef_AsPyObjectBorrow(self_or_null)
                             : (PyTuple_Check(args_o) && PyTuple_GET_SIZE(args_o) > 0) ? PyTuple_GET_ITEM(args_o, 0)
                             : NULL;
            int err = _PyMonitoring_FireCall(tstate, frame, this_instr, PY_MONITORING_EVENT_CALL, func_o, arg0);
            if (err < 0) {
                ERROR_NO_POP();
            }
            PyObject *held_func = Py_NewRef(func_o);
            PyObject *held_arg0 = Py_XNewRef(arg0);
            PyObject *result_o = _PyEval_CallFunctionEx(
                tstate, func_o,
                PyStackRef_IsNull(self_or_null) ? NULL : PyStackRef_AsPyObjectBorrow(self_or_null),
                args_o,
                PyStackRef_IsNull(kwargs) ? NULL : PyStackRef_AsPyObjectBorrow(kwargs));
            if (!PyFunction_Check(held_func)) {
                result_o = _PyEval_MonitorCallResult(tstate, frame, this_instr, held_func, held_arg0, result_o);
            }
            else {
                Py_DECREF(held_func);
                Py_XDECREF(held_arg0);
            }
            PyStackRef_CLOSE(func);
            PyStackRef_XCLOSE(self_or_null);
            PyStackRef_CLOSE(callargs);
            PyStackRef_XCLOSE(kwargs);
            ERROR_IF(result_o == NULL);
            result = PyStackRef_FromPyObjectSteal(result_o);
        }

        tier1 inst(INSTRUMENTED_JUMP_FORWARD, (--)) {
            int err = _PyMonitoring_FireJump(tstate, frame, this_instr, PY_MONITORING_EVENT_JUMP,
                                             next_instr + oparg);
            ERROR_IF(err < 0);
            JUMPBY(oparg);
        }

        tier1 op(_MONITOR_JUMP_BACKWARD, (--)) {
            int err = _PyMonitoring_FireJump(tstate, frame, this_instr, PY_MONITORING_EVENT_JUMP,
                                             next_instr - oparg);
            ERROR_IF(err < 0);
        }

        macro(INSTRUMENTED_JUMP_BACKWARD) = unused/1 + _CHECK_PERIODIC + _MONITOR_JUMP_BACKWARD + JUMP_BACKWARD_NO_INTERRUPT;

        /* Branches report BRANCH_RIGHT when taken and BRANCH_LEFT when not,
           with the instruction execution goes on at. */
        tier1 inst(INSTRUMENTED_POP_JUMP_IF_FALSE, (unused/1, cond -- )) {
            int taken = PyStackRef_IsFalse(cond);
            int err = _PyEval_MonitorBranch(tstate, frame, this_instr, next_instr, oparg, taken);
            ERROR_IF(err < 0);
            if (taken) {
                JUMPBY(oparg);
            }
        }

        tier1 inst(INSTRUMENTED_POP_JUMP_IF_TRUE, (unused/1, cond -- )) {
            int taken = PyStackRef_IsTrue(cond);
            int err = _PyEval_MonitorBranch(tstate, frame, this_instr, next_instr, oparg, taken);
            ERROR_IF(err < 0);
            if (taken) {
                JUMPBY(oparg);
            }
        }

        tier1 inst(INSTRUMENTED_POP_JUMP_IF_NONE, (unused/1, value -- )) {
            int taken = PyStackRef_IsNone(value);
            PyStackRef_CLOSE(value);
            int err = _PyEval_MonitorBranch(tstate, frame, this_instr, next_instr, oparg, taken);
            ERROR_IF(err < 0);
            if (taken) {
                JUMPBY(oparg);
            }
        }

        tier1 inst(INSTRUMENTED_POP_JUMP_IF_NOT_NONE, (unused/1, value -- )) {
            int taken = !PyStackRef_IsNone(value);
            PyStackRef_CLOSE(value);
            int err = _PyEval_MonitorBranch(tstate, frame, this_instr, next_instr, oparg, taken);
            ERROR_IF(err < 0);
            if (taken) {
                JUMPBY(oparg);
            }
        }

        /* LINE and INSTRUCTION events come before the instruction they
           belong to, whose opcode the monitoring data keeps.  The frame's
           instruction pointer still names the previous instruction (no_save_ip),
           which tells a new line from a continued one.  A line tracer that
           set f_lineno moved the frame: execution goes on there. */
        tier1 no_save_ip inst(INSTRUMENTED_LINE, (--)) {
            _Py_CODEUNIT *prev = frame->instr_ptr;
            frame->instr_ptr = this_instr;
            int original = _PyMonitoring_BeforeInstruction(tstate, frame, this_instr, prev);
            stack_pointer = _PyFrame_GetStackPointer(frame);
            ERROR_IF(original < 0);
            if (frame->instr_ptr != this_instr) {
                next_instr = frame->instr_ptr;
                DISPATCH();
            }
            next_instr = this_instr;
            opcode = original;
            PRE_DISPATCH_GOTO();
            DISPATCH_GOTO();
        }

        tier1 no_save_ip inst(INSTRUMENTED_INSTRUCTION, (--)) {
            _Py_CODEUNIT *prev = frame->instr_ptr;
            frame->instr_ptr = this_instr;
            int original = _PyMonitoring_BeforeInstruction(tstate, frame, this_instr, prev);
            ERROR_IF(original < 0);
            next_instr = this_instr;
            opcode = original;
            PRE_DISPATCH_GOTO();
            DISPATCH_GOTO();
        }


        pseudo(LOAD_CLOSURE, (-- unused), (HAS_ARG, HAS_LOCAL)) = {
            LOAD_FAST,
        };

        pseudo(STORE_FAST_MAYBE_NULL, (unused --), (HAS_ARG, HAS_LOCAL)) = {
            STORE_FAST,
        };

        pseudo(JUMP, (--), (HAS_ARG, HAS_JUMP)) = {
            JUMP_FORWARD,
            JUMP_BACKWARD,
        };

        pseudo(JUMP_NO_INTERRUPT, (--), (HAS_ARG, HAS_JUMP)) = {
            JUMP_FORWARD,
            JUMP_BACKWARD_NO_INTERRUPT,
        };

        pseudo(JUMP_IF_FALSE, (cond -- cond), (HAS_ARG, HAS_JUMP)) = {
            COPY,
            TO_BOOL,
            POP_JUMP_IF_FALSE,
        };

        pseudo(JUMP_IF_TRUE, (cond -- cond), (HAS_ARG, HAS_JUMP)) = {
            COPY,
            TO_BOOL,
            POP_JUMP_IF_TRUE,
        };

        pseudo(SETUP_FINALLY, (-- unused), (HAS_ARG)) = {
            NOP,
        };

        pseudo(SETUP_CLEANUP, (-- unused, unused), (HAS_ARG)) = {
            NOP,
        };

        pseudo(SETUP_WITH, (-- unused), (HAS_ARG)) = {
            NOP,
        };

        pseudo(POP_BLOCK, (--)) = {
            NOP,
        };

        pseudo(ANNOTATIONS_PLACEHOLDER, (--)) = {
            NOP,
        };

        /* ---- Tier 2: the structure of traces ---------------------------- */

        /* Where the instruction's own uops may look at the frame (escape,
           raise, push a frame): the frame's instruction pointer made
           true. */
        tier2 op(_SET_IP, (instr_ptr/4 --)) {
            frame->instr_ptr = (_Py_CODEUNIT *)instr_ptr;
        }

        /* After anything that could have run arbitrary code: the executor
           may have been invalidated meanwhile (monitoring switched on). */
        tier2 op(_CHECK_VALIDITY, (--)) {
            DEOPT_IF(!current_executor->valid);
        }

        /* The end of a trace that is not a loop: back to tier 1 at the
           uop's target. */
        tier2 op(_EXIT_TRACE, (--)) {
            EXIT_IF(true);
        }

        /* The end of a loop's trace: round again, polling the eval breaker
           as the JUMP_BACKWARD did. */
        tier2 op(_JUMP_TO_TOP, (--)) {
            CHECK_EVAL_BREAKER();
            JUMP_TO_TRACE_START();
        }

        /* The optimizer's rewrites (Python/optimizer_bytecodes.c). */

        /* A global or builtin whose dict tier 2 watches: any change to
           that dict invalidates the executor before the value could be
           stale, so the value itself is the operand. */
        tier2 op(_LOAD_CONST_INLINE, (ptr/4 -- value, null[oparg & 1])) {
            value = PyStackRef_FromPyObjectNew((PyObject *)ptr);
            if (oparg & 1) {
                null[0] = PyStackRef_NULL;
            }
        }

        /* The frame's globals (builtins) are the watched dict the trace's
           promoted loads came from: the same code can run with others. */
        tier2 op(_CHECK_GLOBALS_IS, (dict/4 --)) {
            DEOPT_IF(GLOBALS() != (PyObject *)dict);
        }

        tier2 op(_CHECK_BUILTINS_IS, (dict/4 --)) {
            DEOPT_IF(BUILTINS() != (PyObject *)dict);
        }

        /* A trace that follows a generator's frame recorded it resuming at
           one place of one function's code: another generator, or this one
           suspended elsewhere, goes through tier 1. */
        tier2 op(_CHECK_GEN_RESUME, (func_version/2, resume/2, iter, index_or_null -- iter, index_or_null)) {
            PyGenObject *gen = (PyGenObject *)PyStackRef_AsPyObjectBorrow(iter);
            _PyInterpreterFrame *gen_frame = &gen->gi_iframe;
            PyObject *func = PyStackRef_AsPyObjectBorrow(gen_frame->f_funcobj);
            DEOPT_IF(func == NULL || !PyFunction_Check(func));
            DEOPT_IF(((PyFunctionObject *)func)->func_version != func_version);
            DEOPT_IF(gen_frame->instr_ptr != _PyCode_CODE(_PyFrame_GetCode(gen_frame)) + resume);
        }

// END BYTECODES //
