#!/usr/bin/env python3
"""Time ./python against python3.11 on the benchmark programs here.

Runs are interleaved (ours, theirs, ours, ...) so machine noise hits both
alike; each program runs REPEAT times per interpreter and the best time
counts.  Prints one line per benchmark with the ratio (theirs / ours:
above 1.0 means we are faster) and the geometric mean.  Timings never
decide pass or fail: this is for notes and for deciding what to work on.
"""

import argparse
import glob
import math
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def time_run(cmd, path):
    start = time.perf_counter()
    proc = subprocess.run(cmd + [path], capture_output=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        return None, proc.stderr.decode("utf-8", "replace")[-500:]
    return elapsed, proc.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--python", default=os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))
    parser.add_argument("--baseline", default=shutil.which("python3.11") or sys.executable)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jit", action="store_true", help="also time ./python -X jit")
    parser.add_argument("names", nargs="*")
    opts = parser.parse_args()
    # Resolve launchers such as pyenv shims to the real executable, so
    # their start-up cost is not timed.
    real = subprocess.run([opts.baseline, "-c", "import sys; print(sys.executable)"],
                          capture_output=True, text=True)
    if real.returncode == 0 and real.stdout.strip():
        opts.baseline = real.stdout.strip()

    ours = {"interp": [opts.python]}
    if opts.jit:
        ours["jit"] = [opts.python, "-X", "jit"]
    paths = sorted(glob.glob(os.path.join(HERE, "bm_*.py")))
    if opts.names:
        paths = [p for p in paths if os.path.basename(p)[3:-3] in opts.names]
    ratios = {k: [] for k in ours}
    print(f"{'benchmark':<16} {'baseline':>9} " + " ".join(f"{k:>9} {'ratio':>6}" for k in ours))
    for path in paths:
        name = os.path.basename(path)[3:-3]
        best = {k: math.inf for k in ours}
        base = math.inf
        failed = None
        for _ in range(opts.repeat):
            t, out = time_run([opts.baseline], path)
            if t is None:
                failed = f"baseline failed: {out}"
                break
            base = min(base, t)
            for k, cmd in ours.items():
                t2, out2 = time_run(cmd, path)
                if t2 is None:
                    failed = f"{k} failed: {out2}"
                    break
                if out2 != out:
                    failed = f"{k}: output differs from the baseline"
                    break
                best[k] = min(best[k], t2)
            if failed:
                break
        if failed:
            print(f"{name:<16} {failed.strip()}")
            continue
        cells = []
        for k in ours:
            ratio = base / best[k]
            ratios[k].append(ratio)
            cells.append(f"{best[k]:>8.3f}s {ratio:>6.2f}")
        print(f"{name:<16} {base:>8.3f}s " + " ".join(cells))
    for k, rs in ratios.items():
        if rs:
            geo = math.exp(sum(math.log(r) for r in rs) / len(rs))
            print(f"geometric mean ({k}): {geo:.2f}x the speed of {os.path.basename(opts.baseline)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
