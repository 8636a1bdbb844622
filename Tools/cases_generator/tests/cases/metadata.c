// Flags derived from bodies and annotations.

// BEGIN BYTECODES //

        inst(LOAD_CONST, (-- value)) {
            value = PyStackRef_FromPyObjectNew(GETITEM(FRAME_CO_CONSTS, oparg));
        }

        inst(LOAD_GLOBAL_NAME, (-- value)) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            value = Lookup(name);
            ERROR_IF(PyStackRef_IsNull(value));
        }

        inst(LOAD_DEREF, (-- value)) {
            PyCellObject *cell = (PyCellObject *)PyStackRef_AsPyObjectBorrow(GETLOCAL(oparg));
            PyObject *value_o = PyCell_GetRef(cell);
            if (value_o == NULL) {
                ERROR_NO_POP();
            }
            value = PyStackRef_FromPyObjectSteal(value_o);
        }

        pure inst(LOAD_FAST, (-- value)) {
            value = PyStackRef_DUP(GETLOCAL(oparg));
        }

        inst(JUMP_BACKWARD, (--)) {
            CHECK_EVAL_BREAKER();
            JUMPBY(-oparg);
        }

        no_save_ip inst(CHEAP, (unused/1, x -- y)) {
            #ifdef Py_DEBUG
            Escape(x);
            #endif
            y = x;
            assert(Py_TYPE(PyStackRef_AsPyObjectBorrow(y)) != NULL);
        }

        op(_GUARD, (unused/1, x -- x)) {
            EXIT_IF(!Ok(x));
        }

        op(_WORK, (x -- y)) {
            y = x;
        }

        macro(GUARDED) = _GUARD + _WORK;

        family(CHEAP, 1) = { GUARDED };

        op(_TWO_OPERANDS, (a/1, b/2, x -- x)) {
            Use(x, a, b);
        }

        macro(TWO_OPERANDS) = _TWO_OPERANDS;

        replicate(2) op(_REPLICATED, (-- x)) {
            x = GETLOCAL(oparg);
        }

        macro(REPLICATED) = _REPLICATED;

// END BYTECODES //
