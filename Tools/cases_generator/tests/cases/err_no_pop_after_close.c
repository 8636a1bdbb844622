// BEGIN BYTECODES //

        inst(CLOSED_THEN_NO_POP, (x -- )) {
            PyStackRef_CLOSE(x);
            if (Failed()) {
                ERROR_NO_POP();
            }
        }

// END BYTECODES //
