"""Generators: a pipeline of generator functions and expressions, tree
walks through nested ``yield from``, a generator driven by ``send``, and
early exits that close suspended generators.  The size is the number of
pipeline items.
"""

from benchlib import main


def count_from(start, stop):
    n = start
    while n < stop:
        yield n
        n += 1


def keep_odd(source):
    for n in source:
        if n & 1:
            yield n


def with_square(source):
    for n in source:
        yield n, n * n


def chunks(source, width):
    batch = []
    for item in source:
        batch.append(item)
        if len(batch) == width:
            yield batch
            batch = []
    if batch:
        yield batch


class Node:
    def __init__(self, value, left=None, right=None):
        self.value = value
        self.left = left
        self.right = right


def build(depth, value=1):
    if depth == 0:
        return None
    return Node(value, build(depth - 1, value * 2), build(depth - 1, value * 2 + 1))


def in_order(node):
    if node is not None:
        yield from in_order(node.left)
        yield node.value
        yield from in_order(node.right)


def running_mean():
    total = 0
    count = 0
    mean = None
    while True:
        value = yield mean
        total += value
        count += 1
        mean = total // count


def first_over(limit, source):
    for n in source:
        if n > limit:
            return n
    return -1


def workload(size):
    pipeline = 0
    for batch in chunks(with_square(keep_odd(count_from(0, size))), 7):
        pipeline += sum(sq - n for n, sq in batch) % 1000
    tree = build(12)
    walked = 0
    for _ in range(max(1, size // 40000)):
        walked += sum(v % 17 for v in in_order(tree))
    averager = running_mean()
    next(averager)
    mean = 0
    for n in range(size // 4):
        mean = averager.send(n % 101)
    early = 0
    for k in range(size // 100):
        early += first_over(k % 50, (n * 3 for n in count_from(0, 1000)))
    return (pipeline, walked, mean, early)


if __name__ == "__main__":
    main(workload, default=1500000, quick=40000,
         expect={1500000: '(53030000, 1212120, 49, 397800)',
                 40000: '(1416000, 32760, 49, 10608)'})
