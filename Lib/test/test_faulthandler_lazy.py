# faulthandler and lazy (JIT-owned) frames, with the toy lazy JIT in
# _testinternalcapi: a dump prints a lazy frame from what the interpreter
# frame holds, without calling the reifier (Doc/faulthandler.md).  The
# toy JIT leaves instr_ptr at the frame's start until reification, so the
# dumped line is the stale one (the def line), not the true one.
import faulthandler
import re
import tempfile
import _testinternalcapi as t


def target(a, b):
    c = a + b
    return c * 2


values = (10, 32, 42)
index = 0
for start, end, line in target.__code__.co_lines():
    if line == target.__code__.co_firstlineno + 2:
        index = start // 2
        break


dump_file = tempfile.TemporaryFile("w+")


def callback():
    before = t.frame_counters()
    faulthandler.dump_traceback(dump_file, all_threads=False)
    after = t.frame_counters()
    return (t.caller_is_lazy(), after[0] - before[0], after[1] - before[1])


still_lazy, made, reified = t.lazy_call(target, callback, values, index)
dump_file.seek(0)
for line in dump_file.read().splitlines():
    print(re.sub(r'"[^"]*/', '"', line))
dump_file.close()
print("caller still lazy:", still_lazy)
print("frame objects made by the dump:", made, "reifications:", reified)
