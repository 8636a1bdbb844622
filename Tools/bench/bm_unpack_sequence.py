"""Packing and unpacking tuples and lists: multiple assignment, swaps,
loop-target unpacking, nested and starred targets, returns of several
values.  The size is the number of outer iterations.
"""

from benchlib import main


def divmod_pair(a, b):
    return a // b, a % b


def rotate(a, b, c, d):
    return b, c, d, a


def workload(size):
    records = [(k, k * 2, (k % 5, k % 3)) for k in range(32)]
    row = [3, 1, 4, 1, 5, 9, 2, 6]
    a, b, c, d = 1, 2, 3, 4
    acc = 0
    for step in range(size):
        a, b, c, d = rotate(a, b, c, d)
        a, b = b, a
        q, r = divmod_pair(step + 7, 5)
        acc += a - d + q * r
        for key, twice, (five, three) in records:
            acc += key + twice - five * three
        first, *middle, last = row
        acc += first + last + len(middle)
        x0, x1, x2, x3, x4, x5, x6, x7 = row
        row = [x1, x2, x3, x4, x5, x6, x7, x0]
        (p, q), (r, s) = (step & 7, 3), [q, r]
        acc += p * q - r + s
        acc &= 0xFFFFFFF
    return (acc, a, b, c, d, row[0])


if __name__ == "__main__":
    main(workload, default=200000, quick=4000,
         expect={200000: '(264178163, 4, 2, 1, 3, 3)',
                 4000: '(7414202, 3, 2, 4, 1, 3)'})
