// ERROR_IF drops exactly the inputs the body no longer owns: dead ones on
// top are popped, a dead one below a live one has its slot cleared, and
// live ones stay for the error handler.  ERROR_IF(true) always leaves.

// BEGIN BYTECODES //

        inst(APPEND_TO, (container, unused[oparg-1], item -- container, unused[oparg-1])) {
            int err = Append(container, PyStackRef_AsPyObjectSteal(item));
            ERROR_IF(err < 0);
        }

        inst(CLOSE_BOTH_INERT, (left, right -- res)) {
            PyObject *r = Join(left, right);
            PyStackRef_CLOSE_INERT(left);
            PyStackRef_CLOSE_INERT(right);
            ERROR_IF(r == NULL);
            res = PyStackRef_FromPyObjectSteal(r);
        }

        inst(CONSUME_BOTTOM, (first, second -- res)) {
            PyStackRef_CLOSE(first);
            ERROR_IF(Broken(second));
            res = second;
        }

        inst(BOTH_ARMS, (a, b -- c)) {
            if (Fast(a)) {
                PyStackRef_CLOSE(b);
            }
            else {
                /* Slow() consumes it. */
                Slow(b);
                DEAD(b);
            }
            ERROR_IF(Failed(a));
            c = a;
        }

        inst(REFUSE, (receiver, v -- receiver, out)) {
            if (Bad(v)) {
                PyStackRef_CLOSE(v);
                ERROR_IF(true);
            }
            out = Take(v);
            DEAD(v);
            ERROR_IF(PyStackRef_IsNull(out));
        }

        inst(STILL_OWNED, (x -- y)) {
            y = Try(x);
            ERROR_IF(PyStackRef_IsNull(y));
            PyStackRef_CLOSE(x);
        }

// END BYTECODES //
