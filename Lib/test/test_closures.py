# Closures: shared cells, nonlocal, counters.
def make_counter():
    count = 0
    def increment():
        nonlocal count
        count += 1
        return count
    return increment

c1 = make_counter()
c2 = make_counter()
print(c1(), c1(), c1(), c2())


def make_adders():
    adders = []
    for i in range(3):
        def add(x, i=i):
            return x + i
        adders.append(add)
    return adders

print([f(10) for f in make_adders()])


def outer():
    x = "outer"
    def middle():
        def inner():
            return x
        return inner
    return middle()()

print(outer())


def accumulator(start):
    total = [start]
    def add(n):
        total[0] += n
        return total[0]
    return add

acc = accumulator(100)
acc(5)
print(acc(10))

square = lambda v: v * v
print(list(map(square, range(5))))
