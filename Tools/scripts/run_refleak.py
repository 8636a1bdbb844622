#!/usr/bin/env python3
"""Refleak runs of the golden programs (`make test-refleak`, Doc/refleak.md).

Each golden program Lib/test/NAME.py runs --runs times inside one
interpreter process (a driver execs the program's compiled code in a fresh
__main__ namespace each time, standard output discarded), with the
allocator counting live blocks (PYTHONCOUNTBLOCKS=1, so
sys.getallocatedblocks() is real) and, in debug builds, the total
reference count.  After each run the driver empties the usual caches and
collects garbage, then samples both counts.  The first --warmup runs fill
caches and import what the program needs; a program leaks when every one
of the later runs ends with more blocks (or references) than the run
before it, as CPython's -R judges.  Programs that expect a nonzero exit,
standard error or arguments, and those that fail when run a second time in
one process, are listed apart ("not repeatable") and do not fail the run.

The last line is "N passed, N failed"; exit status 1 when a program leaks.
"""

import argparse
import json
import os
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEST_DIR = os.path.join(REPO, "Lib", "test")
TIMEOUT = 300

# Programs whose growth per run is what the program asks for, not a leak:
# reported, not failed.
GROWS_BY_DESIGN = {
    "test_posix": "os.register_at_fork keeps every callback it is given (no way to unregister)",
}

# Runs inside the interpreter under test: argv = [path, runs].
DRIVER = r'''
import array, builtins, gc, io, json, sys, types
path, runs = sys.argv[1], int(sys.argv[2])
with open(path, 'rb') as f:
    code = compile(f.read(), path, 'exec')
total_refs = getattr(sys, 'gettotalrefcount', None)

def settle():
    for name in ('re', 'linecache', 'functools', 'typing', 'abc', 'struct'):
        mod = sys.modules.get(name)
        if mod is None:
            continue
        for attr in ('purge', 'clearcache', '_clearcache', '_cleanups'):
            fn = getattr(mod, attr, None)
            if callable(fn):
                try:
                    fn()
                except Exception:
                    pass
    clear = getattr(sys, '_clear_type_cache', None)
    if clear:
        clear()
    for _ in range(3):
        gc.collect()

# Counts go into preallocated machine-int arrays, so keeping them adds no
# block or reference from one run to the next.
blocks = array.array('q', bytes(8 * runs))
refs = array.array('q', bytes(8 * runs))
done = 0
error = None
real_stdout, real_argv, real_main = sys.stdout, list(sys.argv), sys.modules['__main__']
for i in range(runs):
    # A real __main__ module (pickle finds classes through it) and a real
    # text stream (programs use sys.stdout.buffer), both dropped after.
    module = types.ModuleType('__main__')
    module.__file__ = path
    module.__builtins__ = builtins
    ns = module.__dict__
    sys.modules['__main__'] = module
    sys.argv = [path]
    sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding='utf-8', errors='replace')
    try:
        exec(code, ns)
    except SystemExit as e:
        if e.code not in (None, 0):
            error = 'run %d: SystemExit(%r)' % (i + 1, e.code)
    except BaseException as e:
        error = 'run %d: %s: %s' % (i + 1, type(e).__name__, str(e)[:200])
    finally:
        sys.stdout, sys.argv = real_stdout, real_argv
        sys.modules['__main__'] = real_main
    ns.clear()
    del ns, module
    settle()
    blocks[i] = sys.getallocatedblocks()
    refs[i] = total_refs() if total_refs else -1
    done = i + 1
    if error:
        break
samples = [[blocks[i], refs[i] if refs[i] >= 0 else None] for i in range(done)]
print(json.dumps({'samples': samples, 'error': error}))
'''


def leaking(values, warmup):
    """Every delta after warm-up is positive (CPython -R's rule)."""
    tail = values[warmup:]
    if len(tail) < 2:
        return False
    deltas = [b - a for a, b in zip(tail, tail[1:])]
    return all(d >= 1 for d in deltas), deltas


def run_program(python, name, runs):
    env = dict(os.environ)
    for var in ("PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONINSPECT"):
        env.pop(var, None)
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONCOUNTBLOCKS"] = "1"
    try:
        proc = subprocess.run([python, "-c", DRIVER, name + ".py", str(runs)], cwd=TEST_DIR,
                              capture_output=True, timeout=TIMEOUT, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after %ds" % TIMEOUT}
    lines = proc.stdout.decode("utf-8", "replace").strip().splitlines()
    try:
        return json.loads(lines[-1])
    except (IndexError, ValueError):
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        return {"error": "exit status %d: %s" % (proc.returncode, err[-1] if err else "")}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", default=os.path.join(REPO, "python"))
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--programs", default="", help="names (default: every golden program)")
    opts = ap.parse_args()
    python = os.path.abspath(opts.python)
    if opts.runs < opts.warmup + 2:
        sys.exit("--runs must be at least --warmup + 2")
    names = opts.programs.split() or sorted(
        f[:-4] for f in os.listdir(TEST_DIR)
        if f.endswith(".exp") and os.path.exists(os.path.join(TEST_DIR, f[:-4] + ".py")))
    passed = failed = 0
    skipped = []
    start = time.monotonic()
    for name in names:
        base = os.path.join(TEST_DIR, name)
        if any(os.path.exists(base + ext) for ext in (".err", ".code", ".args")):
            skipped.append((name, "expects an exit status, stderr or arguments"))
            continue
        result = run_program(python, name, opts.runs)
        samples = result.get("samples") or []
        if result.get("error") and len(samples) < opts.runs:
            skipped.append((name, result["error"]))
            continue
        problems = []
        blocks = [s[0] for s in samples]
        leak, deltas = leaking(blocks, opts.warmup - 1)
        if leak:
            problems.append("blocks %s" % deltas)
        if samples and samples[0][1] is not None:
            leak, rdeltas = leaking([s[1] for s in samples], opts.warmup - 1)
            if leak:
                problems.append("references %s" % rdeltas)
        if problems and name in GROWS_BY_DESIGN:
            passed += 1
            print("grows by design  %s: %s (%s)" % (name, "; ".join(problems),
                                                   GROWS_BY_DESIGN[name]), flush=True)
        elif problems:
            failed += 1
            print("LEAK  %s: %s" % (name, "; ".join(problems)), flush=True)
        else:
            passed += 1
    for name, why in skipped:
        print("not repeatable  %s: %s" % (name, why))
    print("refleak: %d programs x %d runs in %.1fs, %d not repeatable" %
          (passed + failed, opts.runs, time.monotonic() - start, len(skipped)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
