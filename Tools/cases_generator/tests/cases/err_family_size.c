// BEGIN BYTECODES //

        inst(HEAD, (unused/1, x -- y)) {
            y = x;
        }

        inst(HEAD_SPECIAL, (x -- y)) {
            DEOPT_IF(1);
            y = x;
        }

        family(HEAD, 1) = {
            HEAD_SPECIAL,
        };

// END BYTECODES //
