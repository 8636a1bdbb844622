// Bodies are copied verbatim: strings, characters and comments that look
// like code or DSL macros are left alone; layout is kept, re-indented.

#error this line is outside the definitions, so it is never read

// BEGIN BYTECODES //

        inst(STRINGS, (--)) {
            const char *s = "}{ ERROR_IF(x) \" ";
            char c = '}';
            /* DEOPT_IF(x) in a comment is left alone */
            // ERROR_IF(y) too
            #if 0
            #error a directive may say don't
            #endif
            Use(s, c);
        }

        inst(ONE_LINE, (x --)) { PyStackRef_CLOSE(x); }

        inst(CODE_AFTER_BRACE, (x -- y)) { y = x;
            Check(y);
        }

        inst(NESTED, (x -- y)) {
            if (Ready(x)) {
                if (Failed(x)) {
                    DECREF_INPUTS(); ERROR_IF(true);
                }
            }
#ifdef Py_DEBUG
            Check(x);
#endif
            y = x;
        }

        inst(CASTS_AND_POINTERS, (x -- y)) {
            PyObject *o = (PyObject *)(PyStackRef_AsPyObjectBorrow(x));
            y = PyStackRef_FromPyObjectNew((PyObject *)o);
        }

        inst(CALL_THROUGH_TABLE, (x -- y)) {
            y = handlers[oparg](x);
        }

// END BYTECODES //
