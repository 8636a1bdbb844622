// Array inputs and outputs become pointers into the stack.

// BEGIN BYTECODES //

        inst(CALL, (unused/3, callable, self_or_null, args[oparg] -- res)) {
            PyObject *res_o = Call(callable, self_or_null, args, oparg);
            DECREF_INPUTS();
            ERROR_IF(res_o == NULL);
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

        inst(UNPACK_SEQUENCE, (seq -- values[oparg])) {
            int ok = Unpack(seq, oparg, values);
            PyStackRef_CLOSE(seq);
            ERROR_IF(!ok);
        }

        inst(UNPACK_EX, (seq -- left[oparg & 0xFF], unused, right[oparg >> 8])) {
            int ok = UnpackEx(seq, left, right + (oparg >> 8));
            PyStackRef_CLOSE(seq);
            ERROR_IF(!ok);
        }

        inst(COPY, (bottom, unused[oparg-1] -- bottom, unused[oparg-1], top)) {
            top = PyStackRef_DUP(bottom);
        }

        inst(BUILD_PAIRS, (items[2*oparg] -- list)) {
            list = MakePairs(items, oparg);
            INPUTS_DEAD();
        }

        op(_PUSH_TWO, (-- a, b)) {
            a = PyStackRef_NULL;
            b = PyStackRef_NULL;
        }

        // a and b come from _PUSH_TWO; values from below.
        op(_POP_ARRAY, (values[oparg], a, unused --)) {
            DECREF_INPUTS();
        }

        macro(PUSH_AND_POP) = _PUSH_TWO + _POP_ARRAY;

// END BYTECODES //
