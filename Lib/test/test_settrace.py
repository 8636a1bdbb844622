import sys
def tracer(frame, event, arg):
    if event == "exception":
        arg = (arg[0].__name__, str(arg[1]))
    elif event == "return" and arg is not None and not isinstance(arg, (int, str, list)):
        arg = type(arg).__name__
    print(f"{frame.f_code.co_name}:{frame.f_lineno - frame.f_code.co_firstlineno} {event} {arg!r}")
    return tracer

def loops(n):
    total = 0
    for i in range(n):
        if i % 2:
            total += i
    while n > 0:
        n -= 1
    return total

def gen(n):
    for i in range(n):
        x = yield i
    return "end"

def raiser():
    raise ValueError("boom")

def catches():
    try:
        raiser()
    except ValueError as e:
        msg = str(e)
    finally:
        msg2 = 1
    return msg

def klass():
    class C:
        a = 1
        def m(self):
            return self.a
    return C().m()

def comp():
    return [x * 2 for x in range(3)]

def uncaught():
    raiser()

def main():
    loops(4)
    for v in gen(2):
        pass
    catches()
    klass()
    comp()
    try:
        uncaught()
    except ValueError:
        pass

sys.settrace(tracer)
main()
sys.settrace(None)
print(sys.gettrace())


# A local trace function returning None keeps the frame's f_trace.
def once(frame, event, arg):
    print("once", event, frame.f_lineno - frame.f_code.co_firstlineno)
    return None

def global_only(frame, event, arg):
    if frame.f_code is loops.__code__:
        print("global", event)
        return once
    return None

sys.settrace(global_only)
loops(2)
sys.settrace(None)


# f_trace_lines = False: no 'line' events, other events still come.
def no_lines(frame, event, arg):
    if frame.f_code is loops.__code__:
        frame.f_trace_lines = False
        print("nolines", event)
        return no_lines
    return None

sys.settrace(no_lines)
loops(2)
sys.settrace(None)


# f_trace_opcodes: 'opcode' events (their number depends on the bytecode).
opcodes = []
def with_opcodes(frame, event, arg):
    if frame.f_code is loops.__code__:
        frame.f_trace_opcodes = True
        if event == "opcode":
            opcodes.append(frame.f_lasti)
        return with_opcodes
    return None

sys.settrace(with_opcodes)
loops(2)
sys.settrace(None)
print("opcode events seen:", len(opcodes) > 10)


# An exception in the trace function uninstalls it and propagates.
def broken(frame, event, arg):
    if event == "line":
        raise RuntimeError("tracer broke")
    return broken

sys.settrace(broken)
try:
    loops(1)
except RuntimeError as e:
    print("error:", e, sys.gettrace())


# The trace function itself is not traced; sys.call_tracing traces inside.
import threading
print(threading.gettrace())


# ---- Jumps: setting f_lineno from a line trace function ----
import warnings
warnings.showwarning = lambda message, category, *rest: print(f"warning: {category.__name__}: {message}")

def jump_target():
    x = 1
    for i in range(2):
        y = i
    try:
        z = 1
    except Exception:
        w = 2
    return x

results = []
def make(jump_to, when_line, event_kind="line"):
    def tracer(frame, event, arg):
        if frame.f_code is not jump_target.__code__:
            return tracer
        rel = frame.f_lineno - frame.f_code.co_firstlineno
        if event == event_kind and rel == when_line:
            try:
                frame.f_lineno = frame.f_code.co_firstlineno + jump_to if isinstance(jump_to, int) else jump_to
                results.append(f"{when_line}->{jump_to}: ok")
            except Exception as e:
                results.append(f"{when_line}->{jump_to}: {type(e).__name__}: {e}")
        return tracer
    return tracer

for jump_to, when, kind in [(3, 1, "line"), (8, 1, "line"), (4, 1, "line"), (-5, 1, "line"), (100, 1, "line"),
                            ("x", 1, "line"), (3, 8, "line"), (1, 0, "call"), (1, 8, "return"),
                            (5, 1, "line"), (7, 5, "line")]:
    sys.settrace(make(jump_to, when, kind))
    try:
        print(jump_target())
    except Exception as e:
        print("raised", type(e).__name__, e)
    sys.settrace(None)
print("\n".join(results))
try:
    sys._getframe().f_lineno = 3
except ValueError as e:
    print(e)

def loop_target():
    out = []
    for i in range(3):
        out.append(i)
        if i == 1:
            out.append("mid")
    out.append("after")
    try:
        raise KeyError
    except KeyError:
        out.append("handler")
    out.append("end")
    return out

def make(jump_to, when_line, count=1):
    state = {"n": 0}
    def tracer(frame, event, arg):
        if frame.f_code is not loop_target.__code__:
            return tracer
        rel = frame.f_lineno - frame.f_code.co_firstlineno
        if event == "line" and rel == when_line and state["n"] < count:
            state["n"] += 1
            try:
                frame.f_lineno = frame.f_code.co_firstlineno + jump_to
                print(f"  {when_line}->{jump_to}: ok")
            except ValueError as e:
                print(f"  {when_line}->{jump_to}: {e}")
        return tracer
    return tracer

for jump_to, when in [(6, 3), (1, 6), (7, 4), (3, 6), (12, 11), (7, 11), (10, 12), (11, 9), (4, 2), (13, 1)]:
    sys.settrace(make(jump_to, when))
    try:
        r = loop_target()
    except Exception as e:
        r = f"raised {type(e).__name__}"
    sys.settrace(None)
    print(jump_to, when, r)
