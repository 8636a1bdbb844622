// BEGIN BYTECODES //

        inst(HALF_CLOSED, (x -- )) {
            if (Cond()) {
                PyStackRef_CLOSE(x);
            }
            ERROR_IF(Failed());
        }

// END BYTECODES //
