#!/usr/bin/env python3
"""Time ./python against a baseline interpreter on the bm_*.py programs.

Every program runs REPEAT times on each interpreter; the runs are
interleaved (round 1: baseline, ours; round 2: ours, baseline; ...) so
that load on the machine falls on both alike.  The time of a run is the
one the program measures around its workload (start-up excluded) unless
--wall is given.  The best (or, with --stat median, the median) time per
interpreter is printed with the ratio ours / baseline: below 1.00 means
./python is faster.  The last line is the geometric mean of the ratios.

A run counts only when it exits with status 0, writes nothing on stderr
and prints the same checksum as the baseline; otherwise the benchmark's
row says what went wrong and it is left out of the mean.  Timings never
decide pass or fail: this is for notes and for choosing what to work on.
See Doc/benchmarks.md.
"""

import argparse
import fnmatch
import glob
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TIME_PREFIX = "bench-time: "


class Failure(Exception):
    pass


def default_baseline():
    if os.path.exists("/usr/bin/python3.11"):
        return "/usr/bin/python3.11"
    return shutil.which("python3.11") or sys.executable


def real_executable(cmd):
    """Resolve launchers such as pyenv shims so their start-up is not timed."""
    probe = subprocess.run([cmd, "-c", "import sys; print(sys.executable)"],
                           capture_output=True, text=True)
    found = probe.stdout.strip()
    if probe.returncode == 0 and found and os.path.exists(found):
        return found
    return cmd


def select(names):
    paths = sorted(glob.glob(os.path.join(HERE, "bm_*.py")))
    if not names:
        return paths
    wanted = [w for n in names for w in n.replace(",", " ").split()]
    chosen = [p for p in paths
              if any(fnmatch.fnmatch(bench_name(p), w) for w in wanted)]
    unknown = [w for w in wanted
               if not any(fnmatch.fnmatch(bench_name(p), w) for p in paths)]
    if unknown:
        raise SystemExit(f"run_bench: no benchmark matches {', '.join(unknown)} "
                         f"(known: {', '.join(bench_name(p) for p in paths)})")
    return chosen


def bench_name(path):
    return os.path.basename(path)[3:-3]


def one_run(cmd, path, opts):
    """Run one program once; return (seconds, checksum text)."""
    argv = cmd + [path, "--time"] + (["--quick"] if opts.quick else [])
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    started = time.perf_counter()
    try:
        proc = subprocess.run(argv, capture_output=True, env=env,
                              timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        raise Failure(f"timed out after {opts.timeout:g}s")
    wall = time.perf_counter() - started
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode != 0:
        last = err.strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        raise Failure(f"exit {proc.returncode}: {last[0][:200]}")
    if err.strip():
        raise Failure(f"wrote on stderr: {err.strip().splitlines()[0][:200]}")
    lines = out.splitlines()
    timed = [ln for ln in lines if ln.startswith(TIME_PREFIX)]
    checksum = "\n".join(ln for ln in lines if not ln.startswith(TIME_PREFIX))
    if len(timed) != 1:
        raise Failure("no bench-time line in the output")
    inner = float(timed[0][len(TIME_PREFIX):])
    if not 0.0 <= inner <= wall * 1.05 + 0.01:
        raise Failure(f"implausible self-measured time {inner} (wall {wall:.3f}s)")
    return (wall if opts.wall else inner), checksum


def summarize(times, stat):
    return min(times) if stat == "min" else statistics.median(times)


def measure(path, columns, opts):
    """Interleaved rounds over all columns; returns {column: seconds}.

    Round r starts at column r (mod the number of columns); round 0
    starts with the baseline, so its checksum is known before any other.
    """
    times = {label: [] for label, _ in columns}
    reference = None
    for round_ in range(opts.repeat):
        shift = round_ % len(columns)
        for label, cmd in columns[shift:] + columns[:shift]:
            try:
                seconds, checksum = one_run(cmd, path, opts)
            except Failure as exc:
                raise Failure(f"{label}: {exc}")
            if reference is None:
                reference = checksum
            elif checksum != reference:
                raise Failure(f"{label}: checksum {checksum!r} differs from the "
                              f"baseline's {reference!r}")
            times[label].append(seconds)
    return {label: summarize(ts, opts.stat) for label, ts in times.items()}


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", default=os.path.join(ROOT, "python"),
                        help="the interpreter under test (default: ./python)")
    parser.add_argument("--baseline", default=default_baseline(),
                        help="the interpreter to compare with "
                             "(default: /usr/bin/python3.11)")
    parser.add_argument("--jit", action="store_true",
                        help="add a column for PYTHON -X jit")
    parser.add_argument("--repeat", type=int, default=None,
                        help="runs per interpreter (default 5, 1 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes: a smoke test of every program")
    parser.add_argument("--stat", choices=("min", "median"), default="min")
    parser.add_argument("--wall", action="store_true",
                        help="time whole processes, start-up included")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds allowed per run (default 300, 60 with --quick)")
    parser.add_argument("--json", metavar="FILE", help="also write the results here")
    parser.add_argument("--list", action="store_true", help="list the benchmarks")
    parser.add_argument("names", nargs="*",
                        help="benchmarks to run: names or globs, comma or space "
                             "separated (default: all)")
    opts = parser.parse_args()
    paths = select(opts.names)
    if opts.list:
        for p in paths:
            print(bench_name(p))
        return 0
    if opts.repeat is None:
        opts.repeat = 1 if opts.quick else 5
    if opts.timeout is None:
        opts.timeout = 60.0 if opts.quick else 300.0
    if shutil.which(opts.baseline) is None and not os.path.exists(opts.baseline):
        raise SystemExit(f"run_bench: baseline {opts.baseline} not found (BASELINE=...)")
    baseline = real_executable(opts.baseline)
    python = os.path.abspath(opts.python)

    columns = [("baseline", [baseline]), ("python", [python])]
    if opts.jit:
        probe = subprocess.run([python, "-X", "jit", "-c", "pass"],
                               capture_output=True, text=True)
        if probe.returncode != 0:
            raise SystemExit(f"run_bench: {python} -X jit does not run: "
                             f"{probe.stderr.strip()[:300]}")
        columns.append(("python -X jit", [python, "-X", "jit"]))
    ours = [label for label, _ in columns[1:]]

    print(f"baseline: {baseline}")
    print(f"python:   {python}" + ("  (also with -X jit)" if opts.jit else ""))
    print(f"{len(paths)} benchmarks, {opts.repeat} interleaved run(s) each, "
          f"{opts.stat} time, {'wall clock' if opts.wall else 'workload only'}"
          f"{', quick sizes' if opts.quick else ''}")
    header = f"{'benchmark':<18} {'baseline':>9}"
    for label in ours:
        header += f" {label:>13} {'ratio':>6}"
    print()
    print(header)
    print("-" * len(header))
    ratios = {label: [] for label in ours}
    results = {}
    failures = 0
    for path in paths:
        name = bench_name(path)
        try:
            best = measure(path, columns, opts)
        except Failure as exc:
            failures += 1
            print(f"{name:<18} FAILED  {exc}", flush=True)
            results[name] = {"error": str(exc)}
            continue
        row = f"{name:<18} {best['baseline']:>8.3f}s"
        for label in ours:
            ratio = best[label] / best["baseline"]
            ratios[label].append(ratio)
            row += f" {best[label]:>12.3f}s {ratio:>6.2f}"
        print(row, flush=True)
        results[name] = best
    print("-" * len(header))
    geo_row = f"{'geometric mean':<18} {'':>9}"
    means = {}
    for label in ours:
        rs = ratios[label]
        if rs:
            means[label] = math.exp(sum(math.log(r) for r in rs) / len(rs))
            geo_row += f" {'':>13} {means[label]:>6.2f}"
        else:
            geo_row += f" {'':>13} {'-':>6}"
    print(geo_row)
    print("ratio = time of ./python / time of the baseline: below 1.00 is faster")
    if failures:
        print(f"{failures} benchmark(s) failed and are not in the mean")
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"baseline": baseline, "python": python,
                       "repeat": opts.repeat, "stat": opts.stat,
                       "quick": opts.quick, "wall": opts.wall,
                       "results": results, "geometric_mean": means}, f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
