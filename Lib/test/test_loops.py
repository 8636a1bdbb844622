# Nested loops with break/continue, and the else clauses of loops.
total = 0
for i in range(10):
    if i % 2:
        continue
    for j in range(10):
        if j > i:
            break
        total += i * j
print(total)

n = 0
while True:
    n += 1
    if n == 7:
        break
print(n)

for x in [1, 2, 3]:
    pass
else:
    print("for-else ran")

for x in [1, 2, 3]:
    if x == 2:
        break
else:
    print("not printed")

k = 5
while k > 0:
    k -= 2
else:
    print("while-else", k)

primes = []
for candidate in range(2, 60):
    for p in primes:
        if candidate % p == 0:
            break
    else:
        primes.append(candidate)
print(primes)

# Loops over different iterables
for ch in "abc":
    print(ch, end=" ")
print()
for item in (1, "two", 3.0):
    print(repr(item), end=" ")
print()
for key in {"a": 1, "b": 2}:
    print(key, end=" ")
print()
count = 0
for a in range(3):
    for b in range(3):
        for c in range(3):
            if a == b == c:
                continue
            count += 1
print(count)


def find(items, target):
    for index, value in enumerate(items):
        if value == target:
            return index
    return -1

print(find([5, 6, 7], 7), find([5, 6, 7], 9))
