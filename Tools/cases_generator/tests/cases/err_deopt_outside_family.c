// BEGIN BYTECODES //

        inst(NOP, (--)) {
        }

        inst(LONELY, (x -- x)) {
            Touch(x);
            DEOPT_IF(Bad(x));
        }

// END BYTECODES //
