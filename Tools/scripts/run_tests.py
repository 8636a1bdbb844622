#!/usr/bin/env python3
"""Run the test suite: golden programs in Lib/test and the generator tests.

A golden test is Lib/test/NAME.py with its expected standard output in
NAME.exp.  Optional companions:
  NAME.err   expected standard error (exact; compared after removing the
             "[N refs]" line that debug builds print and the Lib/test/
             directory from file paths)
  NAME.code  expected exit status (default: 0, or 1 when NAME.err exists)
  NAME.args  extra command-line arguments for the script, one line

Every test runs once per execution mode (the plain interpreter, with
specialization off, and on a build with tier 2 with -X jit and with -X jit
plus -X jit_stress, hot thresholds at their minimum); each run counts as one
test.  In debug
builds (--with-pydebug) each run also reports the total reference count at
exit, and a run that ends with more references than an empty program is
flagged as a leak.

The last line printed is "N passed, N failed"; the exit status is nonzero
when anything failed.
"""

import argparse
import concurrent.futures
import difflib
import os
import re
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEST_DIR = os.path.join(REPO, "Lib", "test")
REFS_LINE = re.compile(r"^\[(\d+) refs\]\n?", re.MULTILINE)
TIMEOUT = 120


def run_python(python, args, cwd=TEST_DIR, env_extra=None):
    env = dict(os.environ)
    # A defined environment: no inherited switches, bytecode caching on.
    for name in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED",
                 "PYTHONWARNINGS", "PYTHONIOENCODING", "PYTHONSTARTUP"):
        env.pop(name, None)
    env["PYTHONHASHSEED"] = "0"
    if env_extra:
        env.update(env_extra)
    try:
        proc = subprocess.run([python] + args, cwd=cwd, capture_output=True,
                              timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return None
    return proc


def split_refs(stderr):
    """Remove the "[N refs]" line; return (stderr, refs or None)."""
    m = REFS_LINE.search(stderr)
    if not m:
        return stderr, None
    return stderr[:m.start()] + stderr[m.end():], int(m.group(1))


def is_debug_build(python):
    proc = run_python(python, ["-X", "showrefcount", "-c", "pass"])
    if proc is None:
        return None
    _, refs = split_refs(proc.stderr.decode("utf-8", "replace"))
    return refs


def has_tier2(python):
    """Builds without tier 2 refuse -X jit (exit status 2)."""
    proc = run_python(python, ["-X", "jit", "-c", "pass"])
    return proc is not None and proc.returncode == 0


def read_optional(path):
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return f.read()
    return None


def diff(expected, actual, label):
    lines = difflib.unified_diff(expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                                 f"expected {label}", f"actual {label}")
    return "".join(lines)


def check_golden(python, name, mode_args, baseline_refs):
    """Run one golden test; return None on success or a failure report."""
    base = os.path.join(TEST_DIR, name)
    expected_out = read_optional(base + ".exp")
    expected_err = read_optional(base + ".err")
    code_text = read_optional(base + ".code")
    expected_code = int(code_text) if code_text else (1 if expected_err is not None else 0)
    extra = (read_optional(base + ".args") or "").split()
    args = list(mode_args)
    if baseline_refs is not None:
        args += ["-X", "showrefcount"]
    proc = run_python(python, args + [name + ".py"] + extra)
    if proc is None:
        return f"timed out after {TIMEOUT}s"
    out = proc.stdout.decode("utf-8", "replace")
    err, refs = split_refs(proc.stderr.decode("utf-8", "replace"))
    # Tracebacks name the script by absolute path; .err files use the
    # path relative to Lib/test so they hold on any checkout.
    err = err.replace(TEST_DIR + os.sep, "")
    problems = []
    if proc.returncode != expected_code:
        problems.append(f"exit status {proc.returncode}, expected {expected_code}")
    if out != expected_out:
        problems.append(diff(expected_out, out, "stdout"))
    if expected_err is not None and err != expected_err:
        problems.append(diff(expected_err, err, "stderr"))
    elif expected_err is None and err:
        problems.append("unexpected stderr:\n" + err)
    if baseline_refs is not None and refs is not None and refs > baseline_refs:
        problems.append(f"leak: {refs - baseline_refs} references left at exit "
                        f"({refs} vs {baseline_refs} for an empty program)")
    return "\n".join(problems) if problems else None


def run_generator_tests():
    """The cases generator's golden tests; returns (passed, failed)."""
    script = os.path.join(REPO, "Tools", "cases_generator", "tests", "test_generator.py")
    proc = subprocess.run([sys.executable, script], capture_output=True, text=True)
    m = re.search(r"^(\d+) passed, (\d+) failed", proc.stdout, re.MULTILINE)
    if not m:
        print(proc.stdout + proc.stderr)
        return 0, 1
    passed, failed = int(m.group(1)), int(m.group(2))
    if failed or proc.returncode:
        print(proc.stdout + proc.stderr)
        failed = max(failed, 1)
    return passed, failed


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", default=os.path.join(REPO, "python"))
    parser.add_argument("--no-generator-tests", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                        help="runs at a time (default: the number of CPUs)")
    parser.add_argument("tests", nargs="*", help="test names (default: all)")
    opts = parser.parse_args()
    python = os.path.abspath(opts.python)

    names = opts.tests or sorted(f[:-4] for f in os.listdir(TEST_DIR)
                                 if f.endswith(".exp") and os.path.exists(os.path.join(TEST_DIR, f[:-4] + ".py")))
    modes = [("interp", []), ("nospec", ["-X", "specialization=0"])]
    if has_tier2(python):
        modes.append(("jit", ["-X", "jit"]))
        modes.append(("jit-stress", ["-X", "jit", "-X", "jit_stress"]))
    baseline_refs = is_debug_build(python)

    passed = failed = 0
    start = time.monotonic()
    runs = [(name, mode_name, mode_args) for name in names for mode_name, mode_args in modes]
    # One process per run; on N cores, N at a time (each run is a whole
    # interpreter, so threads here only wait).
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        results = pool.map(lambda run: check_golden(python, run[0], run[2], baseline_refs), runs)
        for (name, mode_name, _), problem in zip(runs, results):
            label = f"{name} [{mode_name}]"
            if problem is None:
                passed += 1
                if opts.verbose:
                    print(f"ok    {label}")
            else:
                failed += 1
                print(f"FAIL  {label}\n{problem}")
    if not opts.no_generator_tests and not opts.tests:
        p, f = run_generator_tests()
        passed += p
        failed += f
    print(f"golden programs and generator tests took {time.monotonic() - start:.1f}s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
