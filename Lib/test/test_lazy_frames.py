# The reification hook (PyUnstable_JITExecutable), exercised by the toy lazy
# JIT in _testinternalcapi: a frame whose locals and instruction pointer are
# kept elsewhere until someone looks at it.
import sys
import _testinternalcapi as t


def target(a, b):
    c = a + b
    return c * 2


def line_start(func, lineno):
    """Index of the first instruction of `lineno` in func's code."""
    for start, end, line in func.__code__.co_lines():
        if line == lineno:
            return start // 2
    raise ValueError(lineno)


RETURN_LINE = target.__code__.co_firstlineno + 2
index = line_start(target, RETURN_LINE)
values = (10, 32, 42)


# 1. Nobody looks: the frame stays lazy, nothing is reified or made.
def quiet():
    return t.caller_is_lazy()

before = t.frame_counters()
print("still lazy while unobserved:", t.lazy_call(target, quiet, values, index))
after = t.frame_counters()
print("frame objects made:", after[0] - before[0], "reifications:", after[1] - before[1])


# 2. sys._getframe reifies first: the true locals and line are visible.
def look():
    frame = sys._getframe(1)
    return (frame.f_code.co_name, dict(frame.f_locals), frame.f_lineno - target.__code__.co_firstlineno,
            t.caller_is_lazy())

before = t.frame_counters()
print(t.lazy_call(target, look, values, index))
after = t.frame_counters()
print("frame objects made:", after[0] - before[0], "reifications:", after[1] - before[1])


# 3. f_back of the callback's frame is the reified frame too.
def look_back():
    return sys._getframe().f_back.f_locals["b"]

print("f_back sees b =", t.lazy_call(target, look_back, values, index))


# 4. An exception passing through the lazy frame gets a traceback entry
# with the frame's real line.
def fail():
    raise ValueError("from the callback")

try:
    t.lazy_call(target, fail, values, index)
except ValueError as e:
    tb = e.__traceback__
    entries = []
    while tb is not None:
        entries.append((tb.tb_frame.f_code.co_name, tb.tb_lineno - target.__code__.co_firstlineno
                        if tb.tb_frame.f_code is target.__code__ else None))
        tb = tb.tb_next
    print("traceback:", entries)
    print("locals kept after return:", e.__traceback__.tb_next.tb_frame.f_locals["c"])
