"""Integer arithmetic in a tight loop over locals.  The size is the
number of iterations.
"""

from benchlib import main


def workload(size):
    total = 0
    for i in range(size):
        total += (i * 3) % 7 - (i >> 2) & 15
    return total


if __name__ == "__main__":
    main(workload, default=5000000, quick=100000,
         expect={5000000: '37500001',
                 100000: '750001'})
