"""Pancake flipping over every permutation (list slicing and reversal,
integer loops).

Permutations are visited in lexicographic order by the next-permutation
step; for each, the prefix named by the first element is reversed until
1 comes first.  The checksum is the largest flip count and a weighted sum
of all flip counts.  The size is the number of pancakes.
"""

from benchlib import main


def next_order(perm):
    """Step perm to its lexicographic successor; False after the last."""
    i = len(perm) - 2
    while i >= 0 and perm[i] >= perm[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = len(perm) - 1
    while perm[j] <= perm[i]:
        j -= 1
    perm[i], perm[j] = perm[j], perm[i]
    perm[i + 1:] = perm[:i:-1]
    return True


def flips_needed(stack):
    flips = 0
    top = stack[0]
    while top != 1:
        stack[:top] = stack[top - 1::-1]
        flips += 1
        top = stack[0]
    return flips


def workload(size):
    perm = list(range(1, size + 1))
    most = 0
    weighted = 0
    index = 0
    while True:
        flips = flips_needed(perm[:])
        if flips > most:
            most = flips
        weighted += flips if index % 2 == 0 else -flips
        index += 1
        if not next_order(perm):
            break
    return (most, weighted, index)


if __name__ == "__main__":
    main(workload, default=9, quick=6,
         expect={9: '(30, -31307, 362880)',
                 6: '(10, -77, 720)'})
