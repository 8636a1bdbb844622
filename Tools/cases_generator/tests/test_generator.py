"""Golden tests for the cases generator.

    python3 Tools/cases_generator/tests/test_generator.py [--update] [-v] [NAME...]

Each ``cases/NAME.c`` is a small definition file.  Next to it:

* ``NAME.<output file name>.expected`` holds the expected content of that
  output (for instance ``NAME.generated_cases.c.h.expected``); only the
  outputs that have such a file are checked;
* ``NAME.stderr.expected`` instead holds the exact error message the
  generator must report for a malformed input.

Mismatches are shown as unified diffs.  ``--update`` rewrites the
expected files from the current generator output (review the diff
before committing!).  The last line is ``N passed, N failed``; the exit
status is non-zero if anything failed.

A final check compiles the tier-1 and tier-2 output of
``cases/compile_check.c`` with stub definitions (``harness/``), when a C
compiler is available.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent
CASES_DIR = TESTS_DIR / "cases"
HARNESS_DIR = TESTS_DIR / "harness"
GENERATOR_DIR = TESTS_DIR.parent
sys.path.insert(0, str(GENERATOR_DIR))

import generate_all  # noqa: E402
from errors import DSLError  # noqa: E402
from generators_common import analyze_inputs, display_path  # noqa: E402

# Output file name -> generator module.
GENERATORS = {Path(gen.OUTPUT).name: gen for gen in generate_all.GENERATORS}
STDERR = "stderr"
EXPECTED_SUFFIX = ".expected"


class Results:
    def __init__(self, verbose: bool) -> None:
        self.passed = 0
        self.failed = 0
        self.verbose = verbose

    def record(self, name: str, ok: bool, detail: str = "") -> None:
        if ok:
            self.passed += 1
            if self.verbose:
                print(f"PASS {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}")
            if detail:
                print(detail)


def expected_files(case: Path) -> dict[str, Path]:
    """Map what is checked ('stderr' or an output file name) to the file
    holding its expected content."""
    prefix = case.stem + "."
    found = {}
    for path in CASES_DIR.iterdir():
        name = path.name
        if name.startswith(prefix) and name.endswith(EXPECTED_SUFFIX):
            found[name[len(prefix):-len(EXPECTED_SUFFIX)]] = path
    return found


def generate_outputs(case: Path, wanted: list[str]) -> dict[str, str]:
    """Run the generators for ``wanted`` on ``case``; an error becomes the
    'stderr' output."""
    if wanted == [STDERR]:
        wanted = list(GENERATORS)  # the error may come from any of them
    try:
        analysis = analyze_inputs([display_path(case)])
        return {name: GENERATORS[name].generate(analysis)
                for name in wanted if name != STDERR}
    except DSLError as error:
        return {STDERR: f"{error}\n"}


def diff(expected: str, actual: str, path: Path) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(keepends=True), actual.splitlines(keepends=True),
        fromfile=f"{path.name} (expected)", tofile=f"{path.name} (actual)")
    return "".join(lines)


def check_case(case: Path, results: Results, update: bool) -> None:
    expectations = expected_files(case)
    if not expectations:
        results.record(case.stem, False, "  no .expected file for this case")
        return
    unknown = set(expectations) - set(GENERATORS) - {STDERR}
    for name in sorted(unknown):
        results.record(f"{case.stem} [{name}]", False,
                       f"  no generator writes a file named {name}")
    wanted = sorted(set(expectations) - unknown)
    actual = generate_outputs(case, wanted)
    for name in wanted:
        path = expectations[name]
        text = actual.get(name)
        if text is None:
            detail = (actual.get(STDERR, "").rstrip()
                      or "  expected an error, but generation succeeded")
            results.record(f"{case.stem} [{name}]", False, "  " + detail)
            continue
        if update:
            path.write_text(text, encoding="utf-8")
        expected = path.read_text(encoding="utf-8")
        results.record(f"{case.stem} [{name}]", expected == text,
                       diff(expected, text, path))


def check_command_line(results: Results) -> None:
    """generate_all.py writes every output, and leaves unchanged files
    alone on a second run."""
    case = CASES_DIR / "simple_inst.c"
    script = GENERATOR_DIR / "generate_all.py"
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, str(script), "-i", str(case), "-d", tmp,
                   "-v"]
        first = subprocess.run(command, capture_output=True, text=True)
        second = subprocess.run(command, capture_output=True, text=True)
        written = sorted(str(p.relative_to(tmp)) for p in Path(tmp).rglob("*")
                         if p.is_file())
    expected = sorted(gen.OUTPUT for gen in generate_all.GENERATORS)
    ok = (first.returncode == 0 and second.returncode == 0
          and written == [str(Path(p)) for p in expected]
          and first.stdout.count("updated") == len(expected)
          and second.stdout == "")
    results.record("generate_all command line", ok,
                   f"  first: {first.stdout}{first.stderr}\n"
                   f"  second: {second.stdout}{second.stderr}\n"
                   f"  files: {written}")
    bad = CASES_DIR / "err_unknown_op.c"
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run([sys.executable, str(script), "-i", str(bad),
                              "-d", tmp], capture_output=True, text=True)
    ok = run.returncode == 1 and "unknown op '_SECOND'" in run.stderr
    results.record("generate_all reports errors", ok,
                   f"  exit {run.returncode}: {run.stderr}")


def check_compiles(results: Results) -> None:
    """The tier-1 and tier-2 output of compile_check.c compiles."""
    compiler = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        print("SKIP compile check (no C compiler)")
        return
    case = CASES_DIR / "compile_check.c"
    with tempfile.TemporaryDirectory() as tmp:
        generate_all.generate_all([display_path(case)], Path(tmp))
        includes = [f"-I{HARNESS_DIR}"] + [
            f"-I{Path(tmp) / sub}"
            for sub in ("Include", "Include/internal", "Python")]
        for harness in ("tier1.c", "tier2.c"):
            command = [compiler, "-std=gnu11", "-Wall", "-Werror",
                       "-Wno-unused-label", "-fsyntax-only", *includes,
                       str(HARNESS_DIR / harness)]
            run = subprocess.run(command, capture_output=True, text=True)
            results.record(f"compile {harness}", run.returncode == 0,
                           run.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true",
                        help="rewrite the expected files")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list passing tests too")
    parser.add_argument("names", nargs="*", help="only these cases")
    args = parser.parse_args()
    results = Results(args.verbose)
    cases = sorted(CASES_DIR.glob("*.c"))
    if args.names:
        cases = [case for case in cases if case.stem in args.names]
    for case in cases:
        check_case(case, results, args.update)
    if not args.names:
        check_command_line(results)
        check_compiles(results)
    print(f"{results.passed} passed, {results.failed} failed")
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
