"""Shared by the tier-2 white-box tests (test_tier2_*.py), not a test itself.

Their checks need tier 2 switched on.  Run under -X jit, the checks run in
this process; run plain, in a child with -X jit; on a build without tier 2
(which refuses -X jit) the expected output stands in, since there is
nothing to check.  CI builds tier 2 as well, so the checks always run
somewhere.
"""
import subprocess
import sys


def run(checks, expected):
    if sys._jit.is_enabled():
        exec(checks, {"__name__": "__main__"})
        return
    child = subprocess.run([sys.executable, "-X", "jit", "-c", checks],
                           capture_output=True, text=True)
    if child.returncode == 2 and "no tier 2" in child.stderr:
        print(expected, end="")
    else:
        sys.stdout.write(child.stdout)
        sys.stderr.write(child.stderr)


def run_jit(checks, expected):
    """Like run(), for checks of machine code: they run where the build
    has the JIT (sys._jit.is_available()); elsewhere the expected output
    stands in (CI builds the JIT too)."""
    if not sys._jit.is_available():
        print(expected, end="")
        return
    run(checks, expected)
