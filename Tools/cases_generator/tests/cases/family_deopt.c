// DEOPT_IF and EXIT_IF in specializations jump back to the family head.

// BEGIN BYTECODES //

        family(BINARY_OP, INLINE_CACHE_ENTRIES_BINARY_OP) = {
            BINARY_OP_ADD_INT,
            BINARY_OP_ADD_FLOAT,
        };

        specializing op(_SPECIALIZE_BINARY_OP, (counter/1, lhs, rhs -- lhs, rhs)) {
            if (ADAPTIVE_COUNTER_TRIGGERS(counter)) {
                next_instr = this_instr;
                Specialize(lhs, rhs, next_instr, oparg);
                DISPATCH_SAME_OPARG();
            }
        }

        op(_BINARY_OP, (lhs, rhs -- res)) {
            PyObject *res_o = BinaryOp(oparg, lhs, rhs);
            DECREF_INPUTS();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        macro(BINARY_OP) = _SPECIALIZE_BINARY_OP + unused/1 + _BINARY_OP;

        op(_GUARD_BOTH_INT, (left, right -- left, right)) {
            EXIT_IF(!PyLong_CheckExact(PyStackRef_AsPyObjectBorrow(left)));
            EXIT_IF(!PyLong_CheckExact(PyStackRef_AsPyObjectBorrow(right)));
        }

        pure op(_BINARY_OP_ADD_INT, (left, right -- res)) {
            PyObject *res_o = AddInts(left, right);
            INPUTS_DEAD();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        macro(BINARY_OP_ADD_INT) = _GUARD_BOTH_INT + unused/2 + _BINARY_OP_ADD_INT;

        inst(BINARY_OP_ADD_FLOAT, (unused/2, left, right -- res)) {
            DEOPT_IF(!PyFloat_CheckExact(PyStackRef_AsPyObjectBorrow(left)));
            DEOPT_IF(!PyFloat_CheckExact(PyStackRef_AsPyObjectBorrow(right)));
            res = AddFloats(left, right);
            DEAD(left);
            DEAD(right);
        }

// END BYTECODES //
