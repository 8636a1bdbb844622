// BEGIN BYTECODES //

        inst(OK, (--)) {
        }

        inst(MISSING_PAREN, (x -- y) {
            y = x;
        }

// END BYTECODES //
