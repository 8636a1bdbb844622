// BEGIN BYTECODES //

        op(_FIRST, (--)) {
        }

        macro(BROKEN) = _FIRST +
            _SECOND;

// END BYTECODES //
