// INSTRUCTION_SIZE() must be one number in tier 2: a uop in instructions
// of different sizes cannot use it.

// BEGIN BYTECODES //

        op(_RET, (--)) {
            frame->return_offset = INSTRUCTION_SIZE();
        }

        macro(SHORT) = _RET;
        macro(LONG) = unused/2 + _RET;

// END BYTECODES //
