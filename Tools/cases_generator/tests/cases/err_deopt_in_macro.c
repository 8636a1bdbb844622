// BEGIN BYTECODES //

        op(_GUARD, (x -- x)) {
            EXIT_IF(Bad(x));
        }

        op(_WORK, (x -- )) {
            Work(x);
        }

        macro(LONELY_MACRO) = _GUARD + _WORK;

// END BYTECODES //
