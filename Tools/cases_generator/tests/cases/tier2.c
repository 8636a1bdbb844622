// Tier-2 cases: operands, replicas, and uops that cannot run there.

// BEGIN BYTECODES //

        replicate(2) inst(LOAD_SMALL, (-- value)) {
            value = PyStackRef_TagInt(oparg);
        }

        // Replicas for opargs 1 and 2 only.
        replicate(1:3) op(_LOAD_RANGE, (-- v)) {
            v = PyStackRef_DUP(GETLOCAL(oparg));
        }

        op(_CHECK_VERSION, (version/2, owner -- owner)) {
            DEOPT_IF(Version(owner) != version);
        }

        op(_LOAD_AT, (unused/1, index/1, ptr/4, owner -- attr)) {
            attr = Load(owner, index, ptr);
            DECREF_INPUTS();
        }

        macro(LOAD_AT) = _CHECK_VERSION + _LOAD_AT;

        inst(LOAD_ANY, (unused/8, owner -- attr)) {
            attr = LoadAny(owner);
            DECREF_INPUTS();
            ERROR_IF(PyStackRef_IsNull(attr));
        }

        family(LOAD_ANY, 8) = { LOAD_AT };

        tier1 inst(TIER_ONE_ONLY, (--)) {
        }

        tier1 op(_TIER_ONE_OP, (--)) {
        }

        op(_USES_NEXT_INSTR, (--)) {
            next_instr += 1;
        }

        inst(GOES_TO, (x --)) {
            if (Fails(x)) {
                goto somewhere;
            }
        }

        inst(FAILS, (x -- y)) {
            y = Try(x);
            ERROR_IF(PyStackRef_IsNull(y));
        }

        tier2 op(_EXIT_TRACE, (exit_p/4 --)) {
            EXIT_IF(Done(exit_p));
        }

        tier2 op(_GUARD_OPARG, (--)) {
            EXIT_IF(oparg > 3);
        }

// END BYTECODES //
