"""Integer arithmetic in a tight loop with locals."""


def work(n):
    total = 0
    for i in range(n):
        total += (i * 3) % 7 - (i >> 2) & 15
    return total


print(work(5000000))
