// BEGIN BYTECODES //

        family(A, 0) = { A_FAST };

        inst(A, (--)) {
        }

        inst(A_FAST, (--)) {
            DEOPT_IF(x, y);
        }

// END BYTECODES //
