// DECREF_INPUTS closes the named inputs, top first; analysis-only
// macros (DEAD, INPUTS_DEAD, SYNC_SP) vanish.

// BEGIN BYTECODES //

        inst(POP_THREE, (a, unused, b, rest[oparg] --)) {
            DECREF_INPUTS();
        }

        inst(CONSUME, (value -- )) {
            Consume(value);
            DEAD(value);
            SYNC_SP();
        }

        inst(STEAL_ALL, (x, y -- z)) {
            z = Combine(x, y); INPUTS_DEAD();
        }

        inst(NOTHING_TO_CLOSE, (unused --)) {
            DECREF_INPUTS();
        }

// END BYTECODES //
