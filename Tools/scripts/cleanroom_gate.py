#!/usr/bin/env python3
"""The clean-room gate that CI runs (issue 5).

Runs the shared checker (../shared/cleanroom/check.py) over every tracked
file against Tools/cleanroom-baseline.txt, the list of functions and
strings that were flagged when the gate went in and still wait for their
rewrite.  Fails when:

- anything is flagged that the baseline does not list (new copied code);
- the baseline lists something no longer flagged (a rewrite landed: drop
  its line, so the baseline only ever shrinks);
- the baseline holds a line its first committed version did not (the
  baseline never grows, not even by moving flagged code to a new file).

Usage: cleanroom_gate.py [--checker PATH]
"""

import argparse
import json
import os
import subprocess
import sys

BASELINE = "Tools/cleanroom-baseline.txt"


def baseline_key(item, kind):
    if kind == "function":
        return f"{item['path']} {item['name']}"
    return f"{item['path']} \"{item['text'][:60]}\""


def read_lines(text):
    return {line.strip() for line in text.splitlines() if line.strip()}


def first_committed_baseline():
    """The baseline as first committed, or None outside a git checkout."""
    try:
        revs = subprocess.run(
            ["git", "log", "--diff-filter=A", "--format=%H", "--", BASELINE],
            capture_output=True, text=True, check=True).stdout.split()
        if not revs:
            return None
        shown = subprocess.run(["git", "show", f"{revs[-1]}:{BASELINE}"],
                               capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return read_lines(shown.stdout)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checker", default=os.path.join(
        top, "..", "shared", "cleanroom", "check.py"))
    args = parser.parse_args()
    os.chdir(top)
    if not os.path.exists(args.checker):
        print(f"cleanroom: checker not found at {args.checker}")
        return 2

    run = subprocess.run(
        [sys.executable, args.checker, "--all", "--json",
         "--baseline", BASELINE], capture_output=True, text=True)
    if run.returncode == 2:
        sys.stderr.write(run.stderr)
        return 2
    report = json.loads(run.stdout)
    with open(BASELINE, encoding="utf-8") as f:
        baseline = read_lines(f.read())

    flagged = {baseline_key(fn, "function") for fn in report["functions"]}
    flagged |= {baseline_key(s, "string") for s in report["strings"]}
    new = sorted(flagged - baseline)
    stale = sorted(baseline - flagged)
    original = first_committed_baseline()
    grown = sorted(baseline - original) if original is not None else []

    for line in new:
        print(f"cleanroom: flagged, not in the baseline: {line}")
    for line in stale:
        print(f"cleanroom: no longer flagged, drop it from {BASELINE}: {line}")
    for line in grown:
        print(f"cleanroom: the baseline may only shrink; new line: {line}")
    print(f"{report['summary']}; baseline {len(baseline)} lines, "
          f"{len(stale)} stale, {len(grown)} grown")
    return 1 if new or stale or grown else 0


if __name__ == "__main__":
    sys.exit(main())
