// A realistic mix of definitions; test_generator.py also compiles its output.
#include "Python.h"

#define unused 0   /* stuff outside the region is ignored */

// BEGIN BYTECODES //

        inst(NOP, (--)) {
        }

        inst(CACHE, (--)) {
            assert(0 && "Executing a cache.");
            Py_FatalError("Executing a cache.");
        }

        inst(RESERVED, (--)) {
            assert(0 && "Executing RESERVED instruction.");
            Py_FatalError("Executing RESERVED instruction.");
        }

        family(RESUME, 0) = {
            RESUME_CHECK,
        };

        tier1 inst(RESUME, (--)) {
            if (tstate->tracing == 0) {
                this_instr->op.code = RESUME_CHECK;
            }
            CHECK_EVAL_BREAKER();
        }

        inst(RESUME_CHECK, (--)) {
            DEOPT_IF(_Py_emscripten_signal_clock == 0);
        }

        replicate(8) pure inst(LOAD_FAST, (-- value)) {
            assert(!PyStackRef_IsNull(GETLOCAL(oparg)));
            value = PyStackRef_DUP(GETLOCAL(oparg));
        }

        inst(LOAD_CONST, (-- value)) {
            PyObject *obj = GETITEM(FRAME_CO_CONSTS, oparg);
            value = PyStackRef_FromPyObjectNew(obj);
        }

        inst(STORE_FAST, (value --)) {
            _PyStackRef tmp = GETLOCAL(oparg);
            SETLOCAL(oparg, value);
            DEAD(value);
            PyStackRef_XCLOSE(tmp);
        }

        pure inst(POP_TOP, (value --)) {
            PyStackRef_CLOSE(value);
        }

        inst(PUSH_NULL, (-- res)) {
            res = PyStackRef_NULL;
        }

        inst(LOAD_NAME, (-- v)) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            PyObject *v_o = _PyEval_LoadName(tstate, frame, name);
            ERROR_IF(v_o == NULL);
            v = PyStackRef_FromPyObjectSteal(v_o);
        }

        inst(LOAD_DEREF, ( -- value)) {
            PyCellObject *cell = (PyCellObject *)PyStackRef_AsPyObjectBorrow(GETLOCAL(oparg));
            PyObject *value_o = PyCell_GetRef(cell);
            if (value_o == NULL) {
                ERROR_NO_POP();
            }
            value = PyStackRef_FromPyObjectSteal(value_o);
        }

        family(BINARY_OP, INLINE_CACHE_ENTRIES_BINARY_OP) = {
            BINARY_OP_ADD_INT,
            BINARY_OP_ADD_FLOAT,
        };

        specializing op(_SPECIALIZE_BINARY_OP, (counter/1, lhs, rhs -- lhs, rhs)) {
            #if ENABLE_SPECIALIZATION
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                _Py_Specialize_BinaryOp(lhs, rhs, next_instr, oparg, LOCALS_ARRAY);
                DISPATCH_SAME_OPARG();
            }
            ADVANCE_ADAPTIVE_COUNTER(this_instr[1].counter);
            #endif  /* ENABLE_SPECIALIZATION */
            assert(NB_ADD <= oparg);
        }

        op(_BINARY_OP, (lhs, rhs -- res)) {
            PyObject *lhs_o = PyStackRef_AsPyObjectBorrow(lhs);
            PyObject *rhs_o = PyStackRef_AsPyObjectBorrow(rhs);

            assert(_PyEval_BinaryOps[oparg]);
            PyObject *res_o = _PyEval_BinaryOps[oparg](lhs_o, rhs_o);
            DECREF_INPUTS();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        macro(BINARY_OP) = _SPECIALIZE_BINARY_OP + unused/4 + _BINARY_OP;

        op(_GUARD_BOTH_INT, (left, right -- left, right)) {
            PyObject *left_o = PyStackRef_AsPyObjectBorrow(left);
            PyObject *right_o = PyStackRef_AsPyObjectBorrow(right);
            EXIT_IF(!PyLong_CheckExact(left_o));
            EXIT_IF(!PyLong_CheckExact(right_o));
        }

        pure op(_BINARY_OP_ADD_INT, (left, right -- res)) {
            PyObject *left_o = PyStackRef_AsPyObjectBorrow(left);
            PyObject *right_o = PyStackRef_AsPyObjectBorrow(right);
            STAT_INC(BINARY_OP, hit);
            PyObject *res_o = _PyLong_Add((PyLongObject *)left_o, (PyLongObject *)right_o);
            PyStackRef_CLOSE_SPECIALIZED(right, _PyLong_ExactDealloc);
            PyStackRef_CLOSE_SPECIALIZED(left, _PyLong_ExactDealloc);
            INPUTS_DEAD();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        macro(BINARY_OP_ADD_INT) =
            _GUARD_BOTH_INT + unused/5 + _BINARY_OP_ADD_INT;

        op(_GUARD_BOTH_FLOAT, (left, right -- left, right)) {
            DEOPT_IF(!PyFloat_CheckExact(PyStackRef_AsPyObjectBorrow(left)));
            DEOPT_IF(!PyFloat_CheckExact(PyStackRef_AsPyObjectBorrow(right)));
        }

        op(_BINARY_OP_ADD_FLOAT, (left, right -- res)) {
            double d = PyFloat_AS_DOUBLE(PyStackRef_AsPyObjectBorrow(left)) +
                       PyFloat_AS_DOUBLE(PyStackRef_AsPyObjectBorrow(right));
            PyObject *res_o = PyFloat_FromDouble(d);
            DECREF_INPUTS();
            ERROR_IF(res_o == NULL, error);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        macro(BINARY_OP_ADD_FLOAT) =
            unused/5 + _GUARD_BOTH_FLOAT + _BINARY_OP_ADD_FLOAT;

        inst(CALL, (unused/1, unused/2, callable, self_or_null, args[oparg] -- res)) {
            PyObject *callable_o = PyStackRef_AsPyObjectBorrow(callable);
            int total_args = oparg;
            _PyStackRef *arguments = args;
            if (!PyStackRef_IsNull(self_or_null)) {
                arguments--;
                total_args++;
            }
            PyObject *res_o = PyObject_Vectorcall_StackRefs(callable_o, arguments, total_args);
            DECREF_INPUTS();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        inst(BUILD_TUPLE, (values[oparg] -- tup)) {
            PyObject *tup_o = _PyTuple_FromStackRefStealOnSuccess(values, oparg);
            if (tup_o == NULL) {
                DECREF_INPUTS();
                ERROR_IF(true);
            }
            INPUTS_DEAD();
            tup = PyStackRef_FromPyObjectSteal(tup_o);
        }

        inst(UNPACK_SEQUENCE, (unused/1, seq -- values[oparg])) {
            _PyStackRef *top = values + oparg;
            int res = _PyEval_UnpackIterableStackRef(tstate, seq, oparg, -1, top);
            PyStackRef_CLOSE(seq);
            ERROR_IF(res == 0);
        }

        inst(UNPACK_EX, (seq -- left[oparg & 0xFF], unused, right[oparg >> 8])) {
            _PyStackRef *top = right + (oparg >> 8);
            int res = _PyEval_UnpackIterableStackRef(tstate, seq, oparg & 0xFF, oparg >> 8, top);
            PyStackRef_CLOSE(seq);
            ERROR_IF(res == 0);
        }

        inst(COPY, (bottom, unused[oparg-1] -- bottom, unused[oparg-1], top)) {
            assert(oparg > 0);
            top = PyStackRef_DUP(bottom);
        }

        inst(SWAP, (bottom, unused[oparg-2], top --
                    bottom, unused[oparg-2], top)) {
            _PyStackRef temp = bottom;
            bottom = top;
            top = temp;
        }

        inst(JUMP_FORWARD, (--)) {
            JUMPBY(oparg);
        }

        inst(JUMP_BACKWARD, (--)) {
            CHECK_EVAL_BREAKER();
            JUMPBY(-oparg);
        }

        inst(RETURN_VALUE, (retval -- res)) {
            _PyStackRef temp = retval;
            DEAD(retval);
            SYNC_SP();
            _PyFrame_SetStackPointer(frame, stack_pointer);
            res = temp;
            goto exit_unwind;
        }

        tier2 op(_CHECK_VALIDITY, (--)) {
            DEOPT_IF(!current_executor->vm_data.valid);
        }

        tier2 op(_LOAD_CONST_INLINE, (ptr/4 -- value)) {
            value = PyStackRef_FromPyObjectNew((PyObject *)ptr);
        }

        pseudo(JUMP, (--), (HAS_ARG, HAS_JUMP)) = {
            JUMP_FORWARD,
            JUMP_BACKWARD,
        };

        pseudo(POP_BLOCK, (--), ()) = {
            NOP,
        };

        label(pop_1_error) {
            stack_pointer -= 1;
            goto error;
        }

        label(error) {
            /* Double-check exception status. */
            assert(_PyErr_Occurred(tstate));
            goto exception_unwind;
        }

// END BYTECODES //

stuff after the end is ignored too {{{
