// Forms for traces: INSTRUCTION_SIZE() is a constant in both tiers,
// ENTER_FRAME() switches frames (a dispatch in tier 1, the trace going on
// in the callee in tier 2), an 'untraced' op is left out of the macro
// expansion and a 'branch' op stays in it for the recorder to replace.

// BEGIN BYTECODES //

        untraced op(_POLL_TOOLS, (--)) {
            CheckTools();
        }

        op(_WORK, (x -- x)) {
            Work(x);
        }

        macro(WORK) = _POLL_TOOLS + _WORK;

        branch op(_LEAVE_IF_DONE, (it -- it)) {
            if (Done(it)) {
                JUMPBY(oparg);
                DISPATCH();
            }
        }

        tier2 op(_GUARD_NOT_DONE, (it -- it)) {
            EXIT_IF(Done(it));
        }

        op(_STEP, (it -- it, item)) {
            item = Step(it);
        }

        macro(STEP) = unused/1 + _LEAVE_IF_DONE + _STEP;

        op(_ENTER, (callable, unused/2 -- res)) {
            Frame *f = Push(callable);
            frame->return_offset = INSTRUCTION_SIZE();
            res = PyStackRef_NULL;
            ENTER_FRAME(f);
        }

        macro(CALL_IT) = unused/1 + _ENTER;

// END BYTECODES //
