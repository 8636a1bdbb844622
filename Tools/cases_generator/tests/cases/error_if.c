// ERROR_IF pops the current op's inputs; ERROR_NO_POP leaves them.

// BEGIN BYTECODES //

        inst(LOAD_NAME, (-- v)) {
            PyObject *v_o = LoadName(oparg);
            ERROR_IF(v_o == NULL);
            v = PyStackRef_FromPyObjectSteal(v_o);
        }

        inst(STORE_NAME, (v --)) {
            int err = StoreName(oparg, v);
            PyStackRef_CLOSE(v);
            ERROR_IF(err, error);  // the older two-argument spelling
        }

        inst(CHECK_EXC, (left, right -- left, right)) {
            if (!Match(left, right)) {
                ERROR_NO_POP();
            }
        }

        inst(CALL_N, (func, args[oparg] -- res)) {
            PyObject *res_o = CallN(func, args, oparg);
            DECREF_INPUTS();
            ERROR_IF(res_o == NULL ||
                     Failed(res_o));
            res = PyStackRef_FromPyObjectSteal(res_o);
        }

// END BYTECODES //
