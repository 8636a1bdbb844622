# Allocation failure injection (_testinternalcapi.set_nomemory): every
# allocation a snippet makes is made to fail in turn, once alone (the
# error path has memory) and once with every later allocation failing too
# (the error path has none).  Each run must either give the snippet's
# normal result or raise MemoryError: never a crash, a wrong result or
# another exception.
import _testinternalcapi as capi

SNIPPETS = {
    "list": "r = [i * 2 for i in range(50)]; r.append(3); r.extend(r); r.sort(); r = r[1:]",
    "dict": "d = {str(i): i for i in range(40)}; d['x'] = 1; del d['1']; r = sorted(d.items())",
    "str": "s = ''.join(str(i) for i in range(30)); r = '-'.join(s.upper().split('1')) + f'{s!r:>50}'",
    "set": "s = set(range(40)); s |= {100, 200}; r = sorted(s ^ set(range(10, 60)))",
    "class": "class C:\n  def __init__(self, x): self.x = x\n  def m(self): return self.x + 1\n"
             "r = [C(i).m() for i in range(20)]",
    "exception": "try:\n  raise ValueError('bad %d' % 3)\nexcept ValueError as e:\n  r = str(e)",
    "generator": "def g():\n  yield from range(10)\nr = list(g()) + [x for x in g() if x % 2]",
    "float": "r = [i / 3 for i in range(30)]; r = sum(r) ** 0.5; r = repr(r) + format(r, '.3e')",
    "bigint": "r = 3 ** 200 // 7 ** 40; r = str(r) + hex(r)",
    "closure": "def f(a):\n  def h(b): return a + b\n  return h\nr = [f(i)(i) for i in range(20)]",
    "tuple": "r = tuple(range(30)); a, *b, c = r; r = (a, c, len(b), hash(r))",
    "bytes": "b = bytes(range(100)); r = b.hex() + repr(bytearray(b)[::3])",
    "keywords": "def f(a, b=2, *args, c, **kw): return a + b + c + len(kw)\n"
                "r = [f(i, c=3, d=4) for i in range(20)]",
    "compile": "r = compile('x = [1, 2]\\nfor i in x: print(i)', 'f', 'exec').co_names",
}
LIMIT = 400  # allocations tried per snippet and mode


def run_failing(code, start, stop):
    namespace = {}
    capi.set_nomemory(start, stop)
    try:
        exec(code, namespace)
    except MemoryError:
        return "MemoryError", None
    except BaseException as exc:
        return f"{type(exc).__name__}: {exc}", None
    finally:
        capi.remove_mem_hooks()
    return "ok", namespace.get("r")


for name, source in SNIPPETS.items():
    code = compile(source, name, "exec")
    expected = {}
    exec(code, expected)
    bad = []
    completed = {"once": False, "from then on": False}
    for mode in completed:
        for start in range(LIMIT):
            outcome, result = run_failing(code, start, start + 1 if mode == "once" else 0)
            if outcome == "ok" and result != expected["r"]:
                bad.append(f"{mode} {start}: wrong result {result!r}")
            elif outcome not in ("ok", "MemoryError"):
                bad.append(f"{mode} {start}: {outcome}")
            if outcome == "ok" and mode == "from then on":
                completed[mode] = True  # past its last allocation
                break
        else:
            completed[mode] = True
    print(name, "ok" if not bad and all(completed.values()) else bad[:3])

# The reserve: a MemoryError needs no memory, however many are raised and
# kept (past the reserve the last-resort instance is shared).  In a
# function, so that `as exc` stores to a local rather than growing a dict.
def raise_many(count):
    kept = [None] * count
    indices = iter(range(count))  # made before: the loop itself allocates nothing
    capi.set_nomemory(0)
    for i in indices:
        try:
            [] + [i]
        except MemoryError as exc:
            kept[i] = exc
    capi.remove_mem_hooks()
    return sum(type(e) is MemoryError for e in kept)


print(raise_many(40), "MemoryErrors raised with no memory")
try:
    capi.set_nomemory(-1)
except ValueError as exc:
    print("ValueError:", exc)
