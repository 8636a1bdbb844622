# The tier-2 optimizer, white box: guards that what came before proved
# are gone, globals and builtins read from watched dicts become constants,
# and changing such a dict invalidates the executors that used it.  Needs
# a build with tier 2; run without -X jit, the checks run in a child with
# -X jit.  On a build without tier 2 it prints the expected lines.
import tier2_checks

CHECKS = r'''
import types, _testinternalcapi as t

def trace_of(func, *args):
    """The uops of func's loop, recorded once its instructions are
    specialised (a stress run records on the first iteration)."""
    func(*args)
    t.invalidate_executors()
    func(*args)
    found = t.get_executor_uops(func)
    assert found, f"no executor for {func.__name__}"
    return found[0]

# 1. An int result needs no int guard: of three int operations, only the
#    two whose operand comes from outside the trace keep one.
def scaled_sum(n):
    total = 0
    for i in range(n):
        total += i * 2 * 3
    return total

# 2. A global becomes a constant: no dict guard or lookup, one check of
#    which globals the frame has.  (The checks run inside functions:
#    storing a module global would itself invalidate the executors.)
SCALE = 3
def use_global(n):
    s = 0
    for i in range(n):
        s += SCALE
    return s
def check_promoted():
    u = trace_of(use_global, 500)
    assert "_LOAD_CONST_INLINE" in u and "_LOAD_GLOBAL_FROM_GLOBALS" not in u, u
    assert "_GUARD_GLOBALS_VERSION" not in u and u.count("_CHECK_GLOBALS_IS") == 1, u
    print("promoted:", use_global(500))

# 3. Assigning the global invalidates the executor; the new value is used.
def check_assignment():
    global SCALE
    before = t.tier2_stats()["executors_invalidated"]
    executor = t.get_executors(use_global)[0]
    SCALE = 4
    assert not executor.valid
    assert t.tier2_stats()["executors_invalidated"] > before
    assert use_global(500) == 2000
    print("after assignment:", use_global(500))

# 4. A builtin too; a global of the same name shadowing it later
#    invalidates the executor.
def use_builtin(items):
    s = 0
    for x in items:
        s += len(x)
    return s
def check_builtin():
    data = ["ab", "c", "def"] * 100
    u = trace_of(use_builtin, data)
    assert "_LOAD_GLOBAL_FROM_BUILTINS" not in u and "_CHECK_BUILTINS_IS" in u, u
    executor = t.get_executors(use_builtin)[0]
    globals()["len"] = lambda x: 10
    assert not executor.valid
    assert use_builtin(data) == 3000
    del globals()["len"]
    assert use_builtin(data) == 600
    print("builtin shadowed:", use_builtin(data))

# 5. The same code run with other globals checks which dict it has.
def check_other_globals():
    other = types.FunctionType(use_global.__code__, {"SCALE": 100, "range": range})
    assert other(500) == 50000 and use_global(500) == 2000
    print("other globals:", other(500), use_global(500))

# 6. A callee's globals are promoted too, and changing them invalidates.
LIMIT = 7
def clamp(v):
    return v if v < LIMIT else LIMIT
def clamp_all(n):
    s = 0
    for i in range(n):
        s += clamp(i)
    return s
def check_callee():
    global LIMIT
    u = trace_of(clamp_all, 500)
    assert "_PUSH_FRAME_EXACT_ARGS" in u and "_LOAD_GLOBAL_FROM_GLOBALS" not in u, u
    assert clamp_all(500) == 21 + 7 * 493
    LIMIT = 2
    assert clamp_all(500) == 1 + 2 * 498
    print("callee global:", clamp_all(500))

# 7. A comparison's bool needs no TO_BOOL guard; results are unchanged.
def count_small(items):
    n = 0
    for x in items:
        if x < 10:
            n += 1
    return n

# 8. A dict that keeps changing stops being promoted from.
def churn(n):
    global COUNTER
    for i in range(n):
        COUNTER += SCALE


# 9. Attribute loads from a local drop nothing that could run code: the
#    second load needs no second type guard.
class Point:
    def __init__(self):
        self.a = 1
        self.b = 2
def attr_sum(p, n):
    s = 0
    for i in range(n):
        s += p.a + p.b
    return s

def main():
    global COUNTER
    u = trace_of(scaled_sum, 500)
    assert u.count("_BINARY_OP_MULTIPLY_INT") == 2 and "_BINARY_OP_ADD_INT" in u, u
    assert u.count("_GUARD_BOTH_INT") == 2, u
    print("guards:", u.count("_GUARD_BOTH_INT"), scaled_sum(500))
    check_promoted()
    check_assignment()
    check_builtin()
    check_other_globals()
    check_callee()
    u = trace_of(count_small, list(range(100)))
    assert "_TO_BOOL_BOOL" not in u, u
    print("compare:", count_small(list(range(100))))
    for rounds in range(8):
        COUNTER = 0
        churn(300)
        assert COUNTER == 1200
    u = t.get_executor_uops(churn)
    assert u and "_LOAD_GLOBAL_FROM_GLOBALS" in u[0] and "_LOAD_CONST_INLINE" not in u[0], u
    print("churn:", COUNTER)
    u = trace_of(attr_sum, Point(), 500)
    assert u.count("_GUARD_TYPE_VERSION") == 1, u
    print("attribute guards:", u.count("_GUARD_TYPE_VERSION"), attr_sum(Point(), 500))
main()
'''

EXPECTED = """\
guards: 2 748500
promoted: 1500
after assignment: 2000
builtin shadowed: 600
other globals: 50000 2000
callee global: 997
compare: 10
churn: 1200
attribute guards: 1 1500
"""

tier2_checks.run(CHECKS, EXPECTED)
