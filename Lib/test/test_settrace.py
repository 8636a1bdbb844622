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
