// BEGIN BYTECODES //

        inst(GENERIC, (x -- x, y)) {
            y = x;
        }

        op(_PUSH, (x -- x, y)) {
            y = x;
        }

        op(_LATE_GUARD, (x, y -- x, y)) {
            DEOPT_IF(Bad(y));
        }

        macro(SPECIAL) = _PUSH + _LATE_GUARD;

        family(GENERIC, 0) = { SPECIAL };

// END BYTECODES //
