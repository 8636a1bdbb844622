// Opcode numbering: fixed numbers, instructions without an argument,
// HAVE_ARGUMENT, instructions with one, specializations, pseudo ops.
// RESERVED is not defined here but 17 stays reserved.

// BEGIN BYTECODES //

        inst(CACHE, (--)) {
            Py_UNREACHABLE();
        }

        inst(RESUME, (--)) {
            CHECK_EVAL_BREAKER();
        }

        inst(RESUME_CHECK, (--)) {
            DEOPT_IF(Changed());
        }

        family(RESUME, 0) = { RESUME_CHECK };

        inst(ENTER_EXECUTOR, (--)) {
            RunExecutor(oparg);
        }

        inst(INSTRUMENTED_NOP, (--)) {
            Monitor();
        }

        inst(ZERO_ARG_A, (--)) { }
        inst(ZERO_ARG_B, (x --)) { Drop(x); }
        inst(ZERO_ARG_C, (--)) { }
        inst(ZERO_ARG_D, (--)) { }
        inst(ZERO_ARG_E, (--)) { }
        inst(ZERO_ARG_F, (--)) { }
        inst(ZERO_ARG_G, (--)) { }
        inst(ZERO_ARG_H, (--)) { }
        inst(ZERO_ARG_I, (--)) { }
        inst(ZERO_ARG_J, (--)) { }
        inst(ZERO_ARG_K, (--)) { }
        inst(ZERO_ARG_L, (--)) { }
        inst(ZERO_ARG_M, (--)) { }
        inst(ZERO_ARG_N, (--)) { }
        inst(ZERO_ARG_O, (--)) { }
        inst(ZERO_ARG_P, (--)) { }
        inst(ZERO_ARG_Q, (--)) { }

        // Uses oparg only through its stack effect.
        inst(BUILD, (items[oparg] -- out)) {
            out = Build(items);
        }

        // A jump has an argument.
        inst(JUMP_FORWARD, (--)) {
            JUMPBY(oparg);
        }

        // Only a specialization uses oparg: the head is numbered as
        // having an argument too.
        inst(GENERIC, (x -- x)) {
            Generic(x);
        }

        inst(GENERIC_FAST, (x -- x)) {
            DEOPT_IF(Fast(x, oparg));
        }

        family(GENERIC, 0) = { GENERIC_FAST };

        tier2 op(_TIER_TWO_ONLY, (--)) {
        }

        pseudo(ZPSEUDO, (--), ()) = { ZERO_ARG_A };
        pseudo(APSEUDO, (--), (HAS_ARG)) = { JUMP_FORWARD };

// END BYTECODES //
