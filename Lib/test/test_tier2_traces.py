# Tier 2, white box: which uops small loops are recorded as, side exits
# when a type changes mid-loop, invalidation, and frames seen from inside
# traced code.  The checks need a build with tier 2
# (--enable-experimental-jit=interpreter); run without -X jit, this script
# runs its checks in a child with -X jit.  On a build without tier 2 it
# prints the same lines with nothing to check (CI builds tier 2 too).
import tier2_checks

CHECKS = r'''
import sys, dis, _testinternalcapi as t

def uops(func):
    found = t.get_executor_uops(func)
    assert found, f"no executor for {func.__name__}"
    return found[0]

# 1. A for-range sum: iteration, int add, loop closure.
def range_sum(n):
    total = 0
    for i in range(n):
        total += i
    return total
assert range_sum(1000) == 499500
u = uops(range_sum)
for name in ("_FOR_ITER_VIRTUAL_TIER_TWO", "_GUARD_BOTH_INT", "_BINARY_OP_ADD_INT", "_JUMP_TO_TOP"):
    assert name in u, (name, u)
print("range sum:", range_sum(1000))

# 2. A call to a small Python function is followed into its frame.
def double(x):
    return x + x
def call_loop(n):
    s = 0
    for i in range(n):
        s += double(i)
    return s
assert call_loop(1000) == 999000
u = uops(call_loop)
assert "_PUSH_FRAME_EXACT_ARGS" in u and "_RETURN_VALUE" in u, u
print("call loop:", call_loop(1000))

# 3. A method call in a loop over a list.
class Acc:
    def __init__(self):
        self.n = 0
    def add(self, v):
        self.n += v
def method_loop(items):
    a = Acc()
    for v in items:
        a.add(v)
    return a.n
assert method_loop(list(range(1000))) == 499500
u = uops(method_loop)
assert "_ITER_CHECK_LIST" in u and "_GUARD_NOT_EXHAUSTED_LIST" in u, u
assert "_PUSH_FRAME_EXACT_ARGS" in u, u
print("method loop:", method_loop(list(range(1000))))

# 4. A branch becomes a guard; the other way is a side exit, and a hot
#    side exit grows a side trace.
def branchy(n):
    odd = 0
    for i in range(n):
        if i % 2:
            odd += 1
        else:
            odd -= 0
    return odd
assert branchy(2000) == 1000
e = t.get_executors(branchy)[0]
names = [u[0] for u in e.uops]
assert "_GUARD_IS_TRUE_POP" in names or "_GUARD_IS_FALSE_POP" in names, names
assert e.side_traces, "the other branch grew no side trace"
print("branchy:", branchy(2000))

# 5. A type change mid-loop: the guard fails into tier 1, results stay right.
def add_all(items):
    s = 0
    for x in items:
        s = s + x
    return s
ints = list(range(500))
assert add_all(ints) == 124750
before = t.tier2_stats()["side_exits_taken"]
mixed = ints[:250] + [0.5] + ints[250:]
assert add_all(mixed) == 124750.5
assert t.tier2_stats()["side_exits_taken"] > before
print("type change:", add_all(mixed))

# 6. Frames seen from a callee inside a traced loop: exact locals and line.
seen = []
def look():
    f = sys._getframe(1)
    seen.append((f.f_locals["i"], f.f_locals["acc"], f.f_lineno))
def introspected(n):
    acc = 0
    for i in range(n):
        acc += i
        if i == n - 1:
            look()
    return acc
introspected(300)
i, acc, line = seen[-1]
assert (i, acc) == (299, 44850), seen[-1]
assert line == introspected.__code__.co_firstlineno + 5, line
print("frame seen:", i, acc, line - introspected.__code__.co_firstlineno)

# 7. An exception raised inside traced code has the right traceback line.
def raiser(n):
    d = {}
    for i in range(n):
        d[i] = i
        if i == n - 1:
            return d[n]
try:
    raiser(500)
except KeyError as exc:
    tb = exc.__traceback__
    while tb.tb_next:
        tb = tb.tb_next
    print("traceback line:", tb.tb_lineno - raiser.__code__.co_firstlineno)

# 8. co_code shows the original JUMP_BACKWARD; the live code ENTER_EXECUTOR.
ops = [i.opname for i in dis.get_instructions(range_sum)]
assert "ENTER_EXECUTOR" not in ops and "JUMP_BACKWARD" in ops
live = t.current_opcodes(range_sum)
assert "ENTER_EXECUTOR" in live, live
print("co_code: JUMP_BACKWARD")

# 9. A loop nobody inspects makes no frame objects.
created, _ = t.frame_counters()
call_loop(2000)
assert t.frame_counters()[0] == created, "frame objects made by a hot loop"
print("frame objects: 0")

# 10. Monitoring switched on invalidates every executor.
inv = t.tier2_stats()["executors_invalidated"]
sys.settrace(lambda *a: None)
sys.settrace(None)
assert t.tier2_stats()["executors_invalidated"] > inv
assert t.get_executors(range_sum) == []
assert "ENTER_EXECUTOR" not in t.current_opcodes(range_sum)
assert range_sum(1000) == 499500
print("invalidated: yes")

# 11. A generator consumed by for still gives the right answer.
def gen(n):
    for i in range(n):
        yield i * 2
def consume(n):
    s = 0
    for v in gen(n):
        s += v
    return s
assert consume(1000) == 999000
# Recorded once FOR_ITER is specialised (a stress run records at once):
# the generator's frame is followed from FOR_ITER_GEN to its yield.
t.invalidate_executors()
assert consume(1000) == 999000
u = uops(consume)
for name in ("_CHECK_GEN_RESUME", "_FOR_ITER_GEN_FRAME", "_YIELD_VALUE", "_JUMP_TO_TOP"):
    assert name in u, (name, u)
# A generator that yields from two places resumes at either.
def two_yields(n):
    for i in range(n):
        yield i
        yield 2 * i
def consume_two(n):
    s = 0
    for v in two_yields(n):
        s += v
    return s
assert consume_two(1001) == 3 * 500500
print("generator:", consume(1000), consume_two(1001))

# 12. A generic call (no specialization applies) stays in the trace, and an
#     exception raised through it is caught in tier 1 with the right result.
import functools
add_one = functools.partial(lambda a, b: a + b, 1)
def generic_calls(n):
    s = 0
    for i in range(n):
        try:
            s += add_one(i) if i % 100 else add_one(None)
        except TypeError:
            s -= 1
    return s
assert generic_calls(2000) == 1981960
assert "_CALL_VECTORCALL" in uops(generic_calls), uops(generic_calls)
print("generic calls:", generic_calls(2000))
'''

EXPECTED = """\
range sum: 499500
call loop: 999000
method loop: 499500
branchy: 1000
type change: 124750.5
frame seen: 299 44850 5
traceback line: 5
co_code: JUMP_BACKWARD
frame objects: 0
invalidated: yes
generator: 999000 1501500
generic calls: 1981960
"""

tier2_checks.run(CHECKS, EXPECTED)
