"""Recursive calls: frame push and pop, small-int arithmetic, a global
lookup per call.  The size is n in fib(n).
"""

from benchlib import main


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def workload(size):
    return fib(size)


if __name__ == "__main__":
    main(workload, default=33, quick=20,
         expect={33: '3524578',
                 20: '6765'})
