// Labels are shared blocks of code, emitted into their own file.

// BEGIN BYTECODES //

        inst(NOP, (--)) {
        }

        label(pop_1_error) {
            stack_pointer -= 1;
            goto error;
        }

        spilled label(error) {
            /* Check there really is an exception. */
            assert(_PyErr_Occurred(tstate));
            goto exception_unwind;
        }

// END BYTECODES //
