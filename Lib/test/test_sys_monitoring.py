# sys.monitoring (PEP 669): tool ids, event sets, callbacks, DISABLE,
# local events, restart_events, and the errors of each entry point.
# Offsets differ between bytecode compilers, so events report lines.
import sys

m = sys.monitoring
E = m.events
TOOL = m.COVERAGE_ID


def line_of(code, offset):
    for start, end, line in code.co_lines():
        if start <= offset < end:
            return None if line is None else line - code.co_firstlineno
    return None


def show(x):
    if hasattr(x, "co_name"):
        return x.co_name
    if x is m.MISSING:
        return "MISSING"
    if type(x).__name__ == "generator":
        return "<generator>"
    if isinstance(x, BaseException):
        return f"{type(x).__name__}({x})"
    if callable(x):
        return getattr(x, "__name__", type(x).__name__)
    return repr(x)


def recorder(name, log):
    def callback(code, *args):
        if code.co_filename != __file__:
            return None
        where = args[0] - code.co_firstlineno if name == "LINE" else line_of(code, args[0])
        rest = [show(a) for a in args[1:]]
        if name in ("JUMP",):
            rest = [str(line_of(code, args[1]))]
        log.append(" ".join([name, code.co_name, str(where)] + rest))
    return callback


EVENTS = ["PY_START", "PY_RESUME", "PY_RETURN", "PY_YIELD", "CALL", "C_RETURN",
          "C_RAISE", "LINE", "RAISE", "RERAISE", "EXCEPTION_HANDLED", "PY_UNWIND",
          "PY_THROW", "STOP_ITERATION"]


def gen(n):
    for i in range(n):
        got = yield i
    return n


def work(x):
    y = x + 1
    for i in range(2):
        y += i
    try:
        1 / 0
    except ZeroDivisionError:
        pass
    try:
        try:
            raise KeyError("k")
        finally:
            y += 1
    except KeyError:
        pass
    items = list(gen(2))
    g = gen(3)
    next(g)
    try:
        g.throw(ValueError("thrown"))
    except ValueError:
        pass
    return len(items) + y


def inner_fail():
    raise RuntimeError("inner")


def outer():
    try:
        inner_fail()
    except RuntimeError:
        return "caught"


def run_all_events():
    log = []
    m.use_tool_id(TOOL, "test")
    for name in EVENTS:
        m.register_callback(TOOL, getattr(E, name), recorder(name, log))
    mask = 0
    for name in EVENTS:
        mask |= getattr(E, name)
    m.set_events(TOOL, mask)
    work(1)
    outer()
    m.set_events(TOOL, 0)
    work(2)  # nothing recorded any more
    m.free_tool_id(TOOL)
    print("\n".join(log))


def test_errors():
    cases = [
        lambda: m.use_tool_id(9, "x"),
        lambda: m.use_tool_id(-1, "x"),
        lambda: m.use_tool_id(6, "x"),
        lambda: m.set_events(3, E.LINE),
        lambda: m.use_tool_id("a", "x"),
        lambda: m.use_tool_id(TOOL, 3),
        lambda: (m.use_tool_id(TOOL, "a"), m.use_tool_id(TOOL, "b")),
        lambda: m.set_events(TOOL, 1 << 30),
        lambda: m.set_events(TOOL, E.C_RETURN),
        lambda: m.set_events(TOOL, E.C_RETURN | E.C_RAISE),
        lambda: m.set_local_events(TOOL, run_all_events.__code__, E.RAISE),
        lambda: m.set_local_events(TOOL, 5, E.LINE),
        lambda: m.get_local_events(TOOL, "x"),
        lambda: m.register_callback(TOOL, E.LINE | E.CALL, None),
        lambda: m.register_callback(TOOL, 0, None),
        lambda: m.get_tool(9),
        lambda: m.get_events(7),
    ]
    for case in cases:
        try:
            print("ok", case())
        except Exception as e:
            # RAISE is 1 << 11 in 3.14 (1 << 10 before).
            msg = str(e)
            if msg.endswith(" " + hex(E.RAISE)):
                msg = msg[:-len(hex(E.RAISE))] + "<RAISE>"
            print(type(e).__name__, msg)
    print(m.get_tool(TOOL), m.get_events(TOOL))
    m.set_events(TOOL, E.CALL | E.C_RETURN | E.C_RAISE)
    print("CALL|C_RETURN|C_RAISE ->", m.get_events(TOOL))
    m.set_events(TOOL, 0)
    m.free_tool_id(TOOL)
    print(m.get_tool(TOOL))
    print(m.free_tool_id(4))


def test_callback_registration():
    m.use_tool_id(3, "reg")
    print(m.register_callback(3, E.LINE, print))
    print(m.register_callback(3, E.LINE, None))
    print(m.register_callback(3, E.LINE, None))
    m.free_tool_id(3)


def branchy(n):
    total = 0
    while n > 0:
        n -= 1
        if n % 2:
            total += n
    return total


def test_jumps_and_branches():
    # Event counts, not offsets: jumps per loop iteration and both branch
    # directions of the `if` (BRANCH in 3.13, BRANCH_LEFT/RIGHT in 3.14).
    counts = {"jump": 0, "branch": 0}
    m.use_tool_id(TOOL, "jumps")

    def on_jump(code, src, dest):
        if code is branchy.__code__ and dest < src:
            counts["jump"] += 1

    def on_branch(code, src, dest):
        if code is branchy.__code__:
            counts["branch"] += 1

    m.register_callback(TOOL, E.JUMP, on_jump)
    m.register_callback(TOOL, E.BRANCH, on_branch)
    m.set_events(TOOL, E.JUMP | E.BRANCH)
    print(branchy(4))
    m.set_events(TOOL, 0)
    m.free_tool_id(TOOL)
    print("backward jumps", counts["jump"] >= 3, "branches", counts["branch"] >= 8)


def looped():
    total = 0
    for i in range(5):
        total += i
    return total


def test_disable_and_restart():
    hits = []

    def on_line(code, line):
        if code is looped.__code__:
            hits.append(line - code.co_firstlineno)
            return m.DISABLE

    m.use_tool_id(TOOL, "disable")
    m.register_callback(TOOL, E.LINE, on_line)
    m.set_events(TOOL, E.LINE)
    looped()
    print("first run", hits)
    hits.clear()
    looped()
    print("disabled", hits)
    m.restart_events()
    looped()
    print("restarted", hits)
    m.set_events(TOOL, 0)
    m.free_tool_id(TOOL)


def other():
    return looped()


def test_local_events():
    seen = []
    m.use_tool_id(TOOL, "local")
    m.register_callback(TOOL, E.PY_START, lambda code, off: seen.append(code.co_name))
    m.set_local_events(TOOL, looped.__code__, E.PY_START)
    print("local", m.get_local_events(TOOL, looped.__code__) == E.PY_START,
          m.get_local_events(TOOL, other.__code__), m.get_events(TOOL))
    other()
    print(seen)
    m.set_local_events(TOOL, looped.__code__, 0)
    other()
    print(seen)
    m.free_tool_id(TOOL)


def test_running_frame_gets_instrumented():
    # A loop already running sees events switched on from inside it.
    lines = []
    m.use_tool_id(TOOL, "running")
    m.register_callback(TOOL, E.LINE, lambda code, line: lines.append(line - code.co_firstlineno)
                        if code is sys._getframe(1).f_code else None)
    for i in range(3):
        if i == 1:
            m.set_events(TOOL, E.LINE)
        lines.append("i=%d" % i)
    m.set_events(TOOL, 0)
    m.free_tool_id(TOOL)
    print(lines)


def test_callback_error():
    m.use_tool_id(TOOL, "error")

    def bad(code, off):
        raise ZeroDivisionError("from callback")

    m.register_callback(TOOL, E.PY_START, bad)
    m.set_events(TOOL, E.PY_START)
    try:
        looped()
    except ZeroDivisionError as e:
        print("callback error propagates:", e)
    m.set_events(TOOL, 0)
    m.free_tool_id(TOOL)
    print(looped())


print(m.DEBUGGER_ID, m.COVERAGE_ID, m.PROFILER_ID, m.OPTIMIZER_ID)
print(E.PY_START, E.PY_RESUME, E.PY_RETURN, E.PY_YIELD, E.CALL, E.LINE, E.INSTRUCTION, E.JUMP, E.NO_EVENTS)
print(repr(m.DISABLE) != repr(m.MISSING))
run_all_events()
test_errors()
test_callback_registration()
test_jumps_and_branches()
test_disable_and_restart()
test_local_events()
test_running_frame_gets_instrumented()
test_callback_error()
