// A few plain instructions: no caches, no arrays, no families.

// BEGIN BYTECODES //

        inst(NOP, (--)) {
        }

        inst(LOAD_FAST, (-- value)) {
            value = PyStackRef_DUP(GETLOCAL(oparg));
        }

        inst(POP_TOP, (value --)) {
            PyStackRef_CLOSE(value);
        }

        // Same name, same place: no store unless the body changes it.
        inst(CHECK_TOP, (value -- value)) {
            assert(!PyStackRef_IsNull(value));
        }

        inst(SWAP_TOP_TWO, (a, b -- b, a)) {
        }

        inst(TOUCH_TOP, (value -- value)) {
            value = PyStackRef_DUP(value);
        }

// END BYTECODES //
