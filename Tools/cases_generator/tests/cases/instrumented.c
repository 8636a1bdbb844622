// An instrumented family: INSTRUMENTED_* instructions are numbered from
// MIN_INSTRUMENTED_OPCODE (INSTRUMENTED_LINE has its fixed number), and a
// no_save_ip instruction leaves frame->instr_ptr alone so its body can read
// the previous instruction's pointer.

// BEGIN BYTECODES //
inst(NOP, (--)) {
}

inst(CALL, (unused/1, callable -- res)) {
    res = callable;
}

tier1 op(_MONITOR, (callable -- callable)) {
    int err = fire(callable);
    ERROR_IF(err < 0);
}

macro(INSTRUMENTED_CALL) = unused/1 + _MONITOR + CALL;

tier1 no_save_ip inst(INSTRUMENTED_LINE, (--)) {
    _Py_CODEUNIT *prev = frame->instr_ptr;
    frame->instr_ptr = this_instr;
    int original = before(prev);
    ERROR_IF(original < 0);
    opcode = original;
    DISPATCH_GOTO();
}
// END BYTECODES //
