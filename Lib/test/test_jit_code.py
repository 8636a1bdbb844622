# The JIT, white box: hot loops run in machine code, which is never
# writable and executable at once; frames, tracebacks and f_locals seen
# from inside JIT code are true.  The checks need a build with the JIT
# (--enable-experimental-jit); run without -X jit, they run in a child
# with -X jit.  Elsewhere the expected lines stand in (CI builds the JIT).
import tier2_checks

CHECKS = r'''
import sys, _testinternalcapi as t

def executor_code(func):
    found = t.get_executors(func)
    assert found, f"no executor for {func.__name__}"
    return t.executor_jit_code(found[0])

def mappings():
    """(start, end, permissions) of every mapping of this process."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            span, perms = line.split()[:2]
            start, end = (int(x, 16) for x in span.split("-"))
            yield start, end, perms

def writable_and_executable():
    return [m for m in mappings() if "w" in m[2] and "x" in m[2]]

# Each check is a function: a store to a global would invalidate the
# executors that promoted this module's globals.

# 1. A hot loop runs in JIT code, and is_active() says so only there.
def hot(n):
    active = 0
    for i in range(n):
        active += sys._jit.is_active()
    return active
def check_hot_loop():
    before = writable_and_executable()
    runs = t.jit_stats()["runs"]
    active = hot(2000)
    assert active > 1000, active
    assert not sys._jit.is_active()
    assert t.jit_stats()["runs"] > runs
    code = executor_code(hot)
    assert code is not None, "hot loop stayed in the uop interpreter"
    print("hot loop active:", active > 1000, "outside:", sys._jit.is_active())
    # 2. W^X: the executor's code is mapped read+execute, and compiling
    #    made no mapping writable and executable at once.
    address, size = code
    span = [m for m in mappings() if m[0] <= address < m[1]]
    assert span and span[0][2].startswith("r-x"), span
    assert address + size <= span[0][1]
    assert writable_and_executable() == before, writable_and_executable()
    print("code mapping:", span[0][2][:3], "w+x mappings:", len(before))
check_hot_loop()

# 3. A callee looking at the JIT loop's frame sees its true locals and line.
seen = []
def look():
    caller = sys._getframe(1)
    seen.append((caller.f_locals["i"], caller.f_locals["total"], caller.f_lineno))
def watched(n):
    total = 0
    for i in range(n):
        total += i
        if i == 1500:
            look()
    return total
def check_frame_seen():
    watched(2000)
    assert executor_code(watched) is not None
    (i, total, line), = seen
    print("frame seen:", i, total, line - watched.__code__.co_firstlineno)
check_frame_seen()

# 4. A write through f_locals is seen when the loop goes on.
def reset():
    sys._getframe(1).f_locals["total"] = -1000000
def written(n):
    total = 0
    for i in range(n):
        total += 1
        if i == 1500:
            reset()
    return total
print("after f_locals write:", written(2000))

# 5. An exception raised inside JIT code has the right traceback.
def divide(values):
    acc = 0.0
    for v in values:
        acc += 1.0 / v
    return acc
def check_traceback():
    divide([1.0] * 2000)
    assert executor_code(divide) is not None
    try:
        divide([1.0] * 1000 + [0.0])
    except ZeroDivisionError as exc:
        tb = exc.__traceback__.tb_next
        print("traceback:", tb.tb_frame.f_code.co_name, tb.tb_lineno - divide.__code__.co_firstlineno)
check_traceback()

# 6. A callee the trace entered raises: its frame and the loop's are in
#    the traceback, the loop's at its call line.
def inner(x):
    return 10 // x
def outer(values):
    s = 0
    for v in values:
        s += inner(v)
    return s
def check_callee_traceback():
    outer([1] * 2000)
    assert executor_code(outer) is not None
    try:
        outer([1] * 700 + [0])
    except ZeroDivisionError as exc:
        frames = []
        tb = exc.__traceback__.tb_next
        while tb is not None:
            frames.append((tb.tb_frame.f_code.co_name, tb.tb_lineno - tb.tb_frame.f_code.co_firstlineno))
            tb = tb.tb_next
        print("callee traceback:", frames)
check_callee_traceback()

# 7. Recursion through frames the trace pushes ends in RecursionError.
def deep(n):
    return n if n == 0 else deep(n - 1)
def recurse(count, depth):
    errors = 0
    for _ in range(count):
        try:
            deep(depth)
        except RecursionError:
            errors += 1
    return errors
def check_recursion():
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        print("recursion errors:", recurse(300, 50), recurse(50, 400))
    finally:
        sys.setrecursionlimit(limit)
check_recursion()

# 8. Generators and a side exit taken over and over, in machine code.
def gen(n):
    for i in range(n):
        yield i
def mixed(n):
    out = 0
    for x in gen(n):
        out += x if x % 3 else -x
    return out
def check_generator():
    print("generator loop:", mixed(5000), mixed(5000) == sum(x if x % 3 else -x for x in range(5000)))
    assert executor_code(mixed) is not None
check_generator()

# 9. A JIT loop nobody inspects makes no frame objects and no reifications,
#    calls included.
def add_one(x):
    return x + 1
def quiet(n):
    s = 0
    for i in range(n):
        s = add_one(s)
    return s
def check_quiet():
    quiet(2000)
    assert executor_code(quiet) is not None
    before = t.frame_counters()
    quiet(20000)
    after = t.frame_counters()
    print("quiet loop frame objects, reifications:", after[0] - before[0], after[1] - before[1])
check_quiet()

# 10. A guard that fails every other iteration, once its side trace has
#     code, jumps into it from machine code: the loop enters JIT code once
#     and leaves it once, at its end.
def branchy(n):
    s = 0
    for i in range(n):
        if i % 2:
            s += 1
        else:
            s -= 2
    return s
def check_side_trace_jumps():
    branchy(5000)
    runs = t.jit_stats()["runs"]
    exits = t.tier2_stats()["side_exits_taken"]
    result = branchy(10000)
    print("branchy:", result, "entries:", t.jit_stats()["runs"] - runs,
          "exits through the eval loop:", t.tier2_stats()["side_exits_taken"] - exits)
check_side_trace_jumps()
'''

EXPECTED = """\
hot loop active: True outside: False
code mapping: r-x w+x mappings: 0
frame seen: 1500 1125750 5
after f_locals write: -999501
traceback: divide 3
callee traceback: [('outer', 3), ('inner', 1)]
recursion errors: 0 50
generator loop: 4165834 True
quiet loop frame objects, reifications: 0 0
branchy: -5000 entries: 1 exits through the eval loop: 1
"""

tier2_checks.run_jit(CHECKS, EXPECTED)
