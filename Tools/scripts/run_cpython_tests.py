#!/usr/bin/env python3
"""Run CPython 3.11's own test modules against our ./python as a yardstick.

The driver (run by the host Python, `make cpython-tests`) prepares a copy of
Debian's libpython3.11-testsuite under build/cpython-tests/test, then starts
one ./python process per test module, at most -j of them at a time.  Each
worker process re-runs this same file with --worker MODULE: it imports the
module, runs its tests with unittest and reports one line per finished test
on stdout, which the driver counts.  Because the counts stream, a module that
crashes or times out still shows how far it got and which test was running.

Doc/cpython-tests.md describes the design, the shim policy and the output.
"""

import argparse
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SUITE_PACKAGE = "libpython3.11-testsuite"
SUITE_DIR = "/usr/lib/python3.11/test"
TOOLS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cpython-tests")
MARK = "CPYTEST"          # prefix of the worker's protocol lines
COLUMNS = ("run", "passed", "failed", "errors", "skipped", "xfail")


# ---- Worker side (runs under ./python) ------------------------------------------

def worker_main(module, xfail_file):
    """Import test.MODULE, run its tests, stream one protocol line per test."""
    import importlib
    import unittest

    expected = load_expected_failures(xfail_file, module)
    restrict_test_resources()
    emit("start-module", module)
    try:
        mod = importlib.import_module("test." + module)
    except BaseException as exc:
        emit("import-error", describe_exception(exc))
        raise
    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=2,
                                     resultclass=counting_result_class(expected))
    try:
        if hasattr(mod, "test_main") and not hasattr(mod, "load_tests"):
            # A legacy module whose test_main() sets up module globals (the
            # implementation under test, say) and then calls
            # support.run_unittest: regrtest runs those through test_main,
            # and so do we, with our runner behind run_unittest.
            run_legacy_test_main(mod, runner)
        else:
            runner.run(unittest.defaultTestLoader.loadTestsFromModule(mod))
    except BaseException as exc:
        # unittest lets KeyboardInterrupt and SystemExit out of a test: the
        # rest of the module is lost, so say why.
        emit("abort", describe_exception(exc))
        raise
    emit("end-module", module)


def run_legacy_test_main(mod, runner):
    import unittest
    from test import support

    def run_unittest(*classes):
        loader = unittest.defaultTestLoader
        suite = unittest.TestSuite()
        for cls in classes:
            if isinstance(cls, str):
                cls = sys.modules[cls]
            if isinstance(cls, (unittest.TestSuite, unittest.TestCase)):
                suite.addTest(cls)
            elif isinstance(cls, type):
                suite.addTest(loader.loadTestsFromTestCase(cls))
            else:
                suite.addTest(loader.loadTestsFromModule(cls))
        runner.run(suite)

    saved = support.run_unittest
    support.run_unittest = run_unittest
    try:
        mod.test_main()
    finally:
        support.run_unittest = saved


def emit(kind, text):
    """Write one protocol line for the driver (flushed: a crash may follow)."""
    sys.stdout.write("%s %s %s\n" % (MARK, kind, text.replace("\n", " ")))
    sys.stdout.flush()


def describe_exception(exc):
    return "%s: %s" % (type(exc).__name__, exc)


def restrict_test_resources():
    """Enable no optional resources (network, cpu, ...), as regrtest without -u."""
    try:
        from test import support
    except BaseException as exc:
        emit("import-error", "test.support: " + describe_exception(exc))
        raise
    support.use_resources = []


def load_expected_failures(path, module):
    """Test ids of MODULE listed in the expected-failures file, with reasons."""
    expected = {}
    if not path or not os.path.exists(path):
        return expected
    prefix = "test.%s." % module
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            test_id, _, reason = line.partition(" ")
            if test_id.startswith(prefix):
                expected[test_id] = reason.strip()
    return expected


def counting_result_class(expected):
    """A TextTestResult that reports each test's single outcome to the driver.

    A test's outcome is its worst event (subtest failures included); a failure
    or error of a test listed in the expected-failures file becomes 'xfail'.
    """
    import unittest

    class CountingResult(unittest.TextTestResult):
        def startTest(self, test):
            self._outcome_now = "pass"
            emit("start", test.id())
            super().startTest(test)

        def _note(self, outcome, test):
            rank = ("pass", "skip", "xfail", "fail", "error")
            if rank.index(outcome) > rank.index(self._outcome_now):
                self._outcome_now = outcome
            if outcome in ("fail", "error") and test.id() in expected:
                self._outcome_now = "xfail"

        def addFailure(self, test, err):
            super().addFailure(test, err)
            self._note("fail", test)

        def addError(self, test, err):
            super().addError(test, err)
            self._note_error(test)

        def _note_error(self, test):
            # setUpClass/module fixtures fail outside any test: report them
            # as a test of their own so the count is not lost.
            if not hasattr(self, "_outcome_now") or not isinstance(test, unittest.TestCase):
                emit("error", getattr(test, "description", str(test)))
            else:
                self._note("error", test)

        def addSkip(self, test, reason):
            super().addSkip(test, reason)
            if isinstance(test, unittest.TestCase) and hasattr(self, "_outcome_now"):
                self._note("skip", test)
            else:
                emit("skip", str(test))

        def addExpectedFailure(self, test, err):
            super().addExpectedFailure(test, err)
            self._note("xfail", test)

        def addUnexpectedSuccess(self, test):
            super().addUnexpectedSuccess(test)
            self._note("fail", test)

        def addSubTest(self, test, subtest, err):
            super().addSubTest(test, subtest, err)
            if err is not None:
                is_failure = issubclass(err[0], test.failureException)
                self._note("fail" if is_failure else "error", test)

        def stopTest(self, test):
            super().stopTest(test)
            outcome = getattr(self, "_outcome_now", "pass")
            if outcome == "pass" and test.id() in expected:
                outcome = "xpass"
            emit(outcome, test.id())
            del self._outcome_now

    return CountingResult


# ---- Driver side (runs under the host Python) ------------------------------------

class ModuleResult:
    """What the driver learned about one module from its worker."""

    def __init__(self, module):
        self.module = module
        self.counts = dict.fromkeys(COLUMNS, 0)
        self.status = "OK"
        self.detail = ""
        self.last_started = ""
        self.last_seen = ""
        self.xpassed = []
        self.seconds = 0.0

    def count_line(self, kind, text):
        if kind == "start":
            self.last_started = self.last_seen = text
            return
        if kind == "abort":
            self.detail = "%s after %s" % (text, self.last_seen)
            return
        if kind == "import-error":
            self.status, self.detail = "IMPORT", text
            return
        column = {"pass": "passed", "xpass": "passed", "fail": "failed",
                  "error": "errors", "skip": "skipped", "xfail": "xfail"}.get(kind)
        if column is None:
            return
        if kind == "xpass":
            self.xpassed.append(text)
        self.counts[column] += 1
        self.counts["run"] += 1
        self.last_started = ""


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--python", default="./python", help="the runtime under test")
    p.add_argument("-j", "--jobs", type=int, default=2, help="modules run in parallel")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per module")
    p.add_argument("--modules", default="", help="space-separated subset of modules")
    p.add_argument("--suite", default=SUITE_DIR, help="the 3.11 test package to copy")
    p.add_argument("--out", default="build/cpython-tests", help="work and result directory")
    p.add_argument("--no-shims", action="store_true",
                   help="leave out Tools/cpython-tests/shims (see Doc/cpython-tests.md)")
    p.add_argument("--worker", metavar="MODULE", help=argparse.SUPPRESS)
    p.add_argument("--expected-failures", default=os.path.join(TOOLS_DIR, "expected-failures.txt"))
    return p.parse_args(argv)


def read_list(path):
    with open(path, encoding="utf-8") as f:
        return [ln.split("#", 1)[0].strip() for ln in f if ln.split("#", 1)[0].strip()]


def ensure_suite_installed(suite):
    """Install Debian's test-suite package when its directory is missing."""
    if os.path.exists(os.path.join(suite, "test_grammar.py")):
        return
    if suite != SUITE_DIR:
        sys.exit("run_cpython_tests: %s has no test_grammar.py" % suite)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    install = sudo + ["apt-get", "install", "-y", SUITE_PACKAGE]
    print("run_cpython_tests: installing %s" % SUITE_PACKAGE, flush=True)
    if subprocess.call(install) != 0:
        subprocess.check_call(sudo + ["apt-get", "update"])
        subprocess.check_call(install)


def prepare_tree(suite, out):
    """Copy the 3.11 test package to OUT/test and apply the adaptations.

    A copy (not a symlink) keeps our .pyc files out of /usr/lib and lets
    Tools/cpython-tests/adaptations.txt neutralise the few lines that are
    invalid under 3.14 semantics; it is refreshed when the suite or the
    adaptations change.
    """
    target = os.path.join(out, "test")
    adaptations = os.path.join(TOOLS_DIR, "adaptations.txt")
    stamp = os.path.join(out, ".prepared")
    sources = [suite, adaptations, os.path.abspath(__file__)]
    if os.path.exists(stamp) and all(os.path.getmtime(s) <= os.path.getmtime(stamp) for s in sources):
        return
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(suite, target, ignore=shutil.ignore_patterns("__pycache__"))
    add_ctypes_tests(suite, target)
    add_sqlite3_tests(suite, target)
    add_removed_test_helpers(suite, target)
    for rel, first, last, reason in read_adaptations(adaptations):
        neutralise_lines(os.path.join(out, rel), first, last, reason)
    open(stamp, "w").close()


def add_ctypes_tests(suite, target):
    """Make 3.11's ctypes tests the package test.test_ctypes.

    In 3.11 they live inside the ctypes package (ctypes.test), which our 3.14
    ctypes lacks; 3.12 moved them to test.test_ctypes, where they go here,
    with their `ctypes.test` imports pointed at the new place.
    """
    source = os.path.join(os.path.dirname(suite), "ctypes", "test")
    if not os.path.isdir(source):
        return
    dest = os.path.join(target, "test_ctypes")
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__"))
    for name in os.listdir(dest):
        if not name.endswith(".py"):
            continue
        path = os.path.join(dest, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        fixed = text.replace("ctypes.test", "test.test_ctypes")
        if fixed != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(fixed)


# Where 3.11's sqlite3 tests may be found when Debian's test-suite package
# leaves them out (it does: 3.11.2's libpython3.11-testsuite has no
# test_sqlite3).  A pyenv 3.11 install carries the same series' copy.
SQLITE3_TEST_HOMES = "/root/.pyenv/versions/3.11.*/lib/python3.11/test/test_sqlite3"


def add_sqlite3_tests(suite, target):
    """Give the copy a test.test_sqlite3 package when the suite lacks one.

    3.11 moved the sqlite3 tests from sqlite3.test to test.test_sqlite3, but
    Debian's package drops them; the newest 3.11 copy matching
    SQLITE3_TEST_HOMES is used, unchanged.
    """
    dest = os.path.join(target, "test_sqlite3")
    if os.path.isdir(dest):
        return
    for source in sorted(glob.glob(SQLITE3_TEST_HOMES), reverse=True):
        if os.path.isfile(os.path.join(source, "__init__.py")):
            shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__"))
            return


# Stdlib modules that 3.12+ removed (PEP 594) but 3.11's tests use as
# helpers, not as the thing under test: 3.12 itself moved them into
# test.support for that reason.  The copy does the same with 3.11's own
# files, and points the helpers' users at test.support.NAME.
REMOVED_TEST_HELPERS = ["asyncore", "asynchat"]


def add_removed_test_helpers(suite, target):
    stdlib = os.path.dirname(suite)
    for name in REMOVED_TEST_HELPERS:
        source = os.path.join(stdlib, name + ".py")
        if not os.path.isfile(source):
            continue
        with open(source, encoding="utf-8") as f:
            lines = f.readlines()
        for i, line in enumerate(lines):
            if line.startswith("import ") and line.split()[1] in REMOVED_TEST_HELPERS:
                lines[i] = "from test.support import %s\n" % line.split()[1]
            elif "_deprecated(__name__" in line:
                # removal date long past: warnings._deprecated raises on 3.14
                lines[i] = "pass  # adapted: a test helper now, not a deprecated module\n"
        with open(os.path.join(target, "support", name + ".py"), "w", encoding="utf-8") as f:
            f.writelines(lines)
    for dirpath, _dirs, files in os.walk(target):
        for fname in files:
            if fname.endswith(".py"):
                point_at_test_helpers(os.path.join(dirpath, fname))


def point_at_test_helpers(path):
    """Rewrite `X = warnings_helper.import_deprecated('X')` for the helpers."""
    with open(path, encoding="latin-1") as f:  # some test files are not UTF-8
        text = f.read()
    if "import_deprecated(" not in text:
        return
    fixed = text
    for name in REMOVED_TEST_HELPERS:
        for quote in "'\"":
            old = "%s = warnings_helper.import_deprecated(%s%s%s)" % (name, quote, name, quote)
            fixed = fixed.replace(old, "from test.support import %s" % name)
    if fixed != text:
        with open(path, "w", encoding="latin-1") as f:
            f.write(fixed)


def read_adaptations(path):
    """Rows of (path, first line, last line, reason); LINENO is N or N-M."""
    rows = []
    for line in read_list(path) if os.path.exists(path) else []:
        rel, lines, reason = line.split(None, 2)
        first, _, last = lines.partition("-")
        rows.append((rel, int(first), int(last or first), reason))
    return rows


def neutralise_lines(path, first, last, reason):
    """Replace one statement (lines FIRST..LAST) by `pass`, keeping the
    first line's indentation and the file's line count."""
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    old = lines[first - 1]
    indent = old[:len(old) - len(old.lstrip())]
    lines[first - 1] = "%spass  # adapted for 3.14: %s\n" % (indent, reason)
    for i in range(first, last):
        lines[i] = "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)


def run_module(args, module, out):
    """Run one module in its own ./python process; never raises."""
    result = ModuleResult(module)
    log_path = os.path.join(out, "logs", module + ".log")
    workdir = tempfile.mkdtemp(prefix=module + "-", dir=os.path.join(out, "work"))
    env = dict(os.environ)
    paths = [os.path.abspath(out)]
    if not args.no_shims:
        paths.append(os.path.abspath(os.path.join(TOOLS_DIR, "shims")))
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env.pop("PYTHONHOME", None)
    cmd = [os.path.abspath(args.python), os.path.abspath(__file__),
           "--worker", module, "--expected-failures", os.path.abspath(args.expected_failures)]
    started = time.monotonic()
    with open(log_path, "w", encoding="utf-8", errors="replace") as log:
        proc = subprocess.Popen(cmd, cwd=workdir, env=env, stdout=subprocess.PIPE,
                                stderr=log, stdin=subprocess.DEVNULL,
                                start_new_session=True)
        timed_out = read_protocol(proc, result, log, started + args.timeout)
    result.seconds = time.monotonic() - started
    classify_exit(result, proc.returncode, timed_out)
    shutil.rmtree(workdir, ignore_errors=True)
    return result


def read_protocol(proc, result, log, deadline):
    """Count protocol lines until the worker exits or DEADLINE passes.

    Returns True when the worker had to be killed for running too long.
    """
    import selectors
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    pending = b""
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return True
        if not sel.select(timeout=min(remaining, 1.0)):
            continue
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for raw in lines:
            handle_output_line(raw.decode("utf-8", "replace"), result, log)
    proc.wait()
    return False


def handle_output_line(line, result, log):
    if line.startswith(MARK + " "):
        _, kind, text = (line.split(" ", 2) + [""])[:3]
        result.count_line(kind, text)
    else:
        log.write(line + "\n")   # the tests' own prints


def classify_exit(result, returncode, timed_out):
    if timed_out:
        result.status = "TIMEOUT"
    elif returncode < 0:
        result.status = "CRASH"
        result.detail = signal.Signals(-returncode).name
    elif result.status == "IMPORT":
        return
    elif returncode != 0 or result.counts["run"] == 0:
        result.status = "EXIT%d" % returncode if returncode else "EMPTY"
        if not result.detail and result.last_seen:
            result.detail = "after " + result.last_seen
    elif result.counts["failed"] or result.counts["errors"]:
        result.status = "FAIL"
    if result.status in ("CRASH", "TIMEOUT") and result.last_started:
        result.detail = (result.detail + " in " + result.last_started).strip()


def format_table(results):
    header = ("module",) + COLUMNS + ("status", "seconds")
    rows = [header]
    for r in results:
        status = r.status + (" (%s)" % r.detail if r.detail else "")
        rows.append((r.module,) + tuple(str(r.counts[c]) for c in COLUMNS)
                    + (status, "%.1f" % r.seconds))
    width = max(len(r[0]) for r in rows)
    lines = []
    for row in rows:
        lines.append("%-*s %6s %6s %6s %6s %6s %6s  %s" % ((width,) + row[:-1]))
    return lines, rows


def total_line(results):
    total = {c: sum(r.counts[c] for r in results) for c in COLUMNS}
    crashed = sum(r.status == "CRASH" for r in results)
    timed_out = sum(r.status == "TIMEOUT" for r in results)
    pct = 100.0 * total["passed"] / total["run"] if total["run"] else 0.0
    return ("cpython-tests: %d modules, %d run, %d passed (%.1f%%), %d failed, %d errors, "
            "%d skipped, %d crashed, %d timed out" % (
                len(results), total["run"], total["passed"], pct, total["failed"],
                total["errors"], total["skipped"], crashed, timed_out))


def write_tsv(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write("\t".join(cell.replace("\t", " ") for cell in row) + "\n")


def driver_main(args):
    modules = args.modules.split() or read_list(os.path.join(TOOLS_DIR, "modules.txt"))
    if not os.path.exists(args.python):
        sys.exit("run_cpython_tests: no runtime at %s (build it first)" % args.python)
    from concurrent.futures import ThreadPoolExecutor
    ensure_suite_installed(args.suite)
    os.makedirs(os.path.join(args.out, "logs"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "work"), exist_ok=True)
    prepare_tree(args.suite, args.out)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_module, args, m, args.out) for m in modules]
        results = []
        for fut in futures:
            results.append(fut.result())
            r = results[-1]
            print("%-28s %s %s" % (r.module, r.status, r.detail), flush=True)
    lines, rows = format_table(results)
    print()
    print("\n".join(lines))
    for r in results:
        for test_id in r.xpassed:
            print("note: %s passed; remove it from expected-failures.txt" % test_id)
    summary = total_line(results)
    print(summary)
    write_tsv(os.path.join(args.out, "results.tsv"), rows)
    print("per-module logs: %s/logs/; table: %s/results.tsv" % (args.out, args.out))
    return 0


def main(argv):
    args = parse_args(argv)
    if args.worker:
        return worker_main(args.worker, args.expected_failures)
    return driver_main(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
