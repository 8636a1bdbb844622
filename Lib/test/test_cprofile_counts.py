# cProfile over _lsprof: call counts (total/primitive), callers, builtins,
# generators, recursion and exceptions.  Timings are never printed.
import cProfile
import os
import pstats
import subprocess
import sys
import tempfile


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def gen(n):
    for i in range(n):
        yield i


def fails():
    raise KeyError("k")


def work():
    total = 0
    for i in range(3):
        total += fib(5)
    data = sorted([3, 1, 2], key=abs)
    data.append(len(data))
    s = sum(gen(4))
    try:
        int("x")
    except ValueError:
        pass
    try:
        fails()
    except KeyError:
        pass
    return total + s


def name(func):
    filename, line, fname = func
    if filename == "~":
        return fname
    return f"{os.path.basename(filename)}:{fname}"


def report(prof):
    stats = pstats.Stats(prof).stats
    rows = []
    for func, (cc, nc, tt, ct, callers) in stats.items():
        who = sorted(f"{name(c)}x{v[1]}" for c, v in callers.items())
        rows.append(f"{name(func)} ncalls={nc} primitive={cc} callers={who}")
    for row in sorted(rows):
        print(" ", row)
    for func, (cc, nc, tt, ct, callers) in stats.items():
        assert tt >= 0 and ct >= 0


print("-- subcalls and builtins")
p = cProfile.Profile()
p.enable()
work()
p.disable()
report(p)

print("-- builtins=False")
p = cProfile.Profile(builtins=False)
p.enable()
work()
p.disable()
report(p)

print("-- runcall and clear")
p = cProfile.Profile()
print(p.runcall(fib, 4))
report(p)
p.clear()
print(p.getstats())

print("-- one profiler at a time")
a = cProfile.Profile()
b = cProfile.Profile()
a.enable()
try:
    b.enable()
except ValueError as e:
    print("ValueError:", e)
a.disable()
b.enable()
b.disable()
print("entries", type(a.getstats()[0]).__name__, a.getstats()[0]._fields if hasattr(a.getstats()[0], "_fields") else "")

print("-- custom timer")
ticks = [0]
def timer():
    ticks[0] += 1
    return ticks[0]
p = cProfile.Profile(timer, 1.0)
p.enable()
fib(3)
p.disable()
entry = [e for e in p.getstats() if getattr(e.code, "co_name", None) == "fib"][0]
print("fib", entry.callcount, entry.reccallcount, entry.totaltime > 0, entry.inlinetime > 0)

print("-- python -m cProfile -s calls")
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "prog.py")
    with open(path, "w") as f:
        f.write("def f(n):\n    return [abs(i) for i in range(n)]\n"
                "for i in range(4):\n    f(i)\nprint('done')\n")
    out = subprocess.run([sys.executable, "-m", "cProfile", "-s", "calls", path],
                         capture_output=True, text=True).stdout
lines = out.splitlines()
print(lines[0].split(" in ")[0].strip())
rows = []
for line in lines:
    parts = line.split()
    if parts and parts[0][0].isdigit() and len(parts) >= 6:
        rows.append(f"{parts[0]} {' '.join(parts[5:])}")
print("\n".join(sorted(rows)))
