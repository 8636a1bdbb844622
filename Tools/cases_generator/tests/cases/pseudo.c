// Pseudo instructions exist only for the compiler.

// BEGIN BYTECODES //

        inst(NOP, (--)) {
        }

        inst(JUMP_FORWARD, (--)) {
            JUMPBY(oparg);
        }

        inst(JUMP_BACKWARD, (--)) {
            CHECK_EVAL_BREAKER();
            JUMPBY(-oparg);
        }

        inst(STORE_FAST, (value --)) {
            SETLOCAL(oparg, value);
        }

        pseudo(JUMP, (--), (HAS_ARG, HAS_JUMP)) = {
            JUMP_FORWARD,
            JUMP_BACKWARD,
        };

        pseudo(POP_BLOCK, (--), ()) = {
            NOP,
        };

        pseudo(STORE_FAST_MAYBE_NULL, (unused --), (HAS_ARG, HAS_LOCAL)) = {
            STORE_FAST,
        };

// END BYTECODES //
