"""The command line every bm_*.py program shares.

    python bm_NAME.py            run at the default size
    python bm_NAME.py --quick    run at the small size (a smoke test)
    python bm_NAME.py 1234       run at size 1234
    python bm_NAME.py --time ... also print "bench-time: SECONDS" last

A program calls ``main(workload, default=..., quick=..., expect={...})``.
``workload(size)`` does the work and returns a checksum (a number, string
or tuple of them).  The checksum is printed on one line; when the size has
an entry in ``expect`` (values recorded with python3.11) a different
checksum is reported on stderr and the exit status is 1, so an interpreter
that computes a wrong answer fails loudly instead of just being fast.
``--time`` measures the workload alone, without interpreter start-up;
run_bench.py reads that line.
"""

import sys
import time


def _checksum_text(value):
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(_checksum_text(v) for v in value) + ")"
    return str(value)


def main(workload, default, quick, expect=None):
    size = default
    want_time = False
    for arg in sys.argv[1:]:
        if arg == "--time":
            want_time = True
        elif arg == "--quick":
            size = quick
        else:
            size = int(arg)
    started = time.perf_counter()
    result = workload(size)
    elapsed = time.perf_counter() - started
    text = _checksum_text(result)
    print(f"size {size}: {text}")
    if expect and size in expect and expect[size] != text:
        sys.stderr.write(f"checksum mismatch at size {size}: got {text}, "
                         f"expected {expect[size]}\n")
        sys.exit(1)
    if want_time:
        print(f"bench-time: {elapsed:.6f}")


class Lcg:
    """A small deterministic pseudo-random source.

    The benchmarks avoid the random module so that their inputs do not
    depend on its algorithm (or on it being imported at all).
    """

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def next(self):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return self.state

    def below(self, n):
        return (self.next() >> 8) % n

    def unit(self):
        return self.next() / 2147483648.0
