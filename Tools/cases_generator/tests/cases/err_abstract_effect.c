// An abstract case must have the uop's own stack effect.
// BEGIN BYTECODES //
inst(POP_PAIR, (a, b --)) {
    PyStackRef_CLOSE(a);
    PyStackRef_CLOSE(b);
}
// END BYTECODES //
