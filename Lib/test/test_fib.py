# Recursive calls: Python-to-Python calls push frames without C recursion.
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

print(fib(20))
print([fib(i) for i in range(15)])


def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)

print(fact(30))
print(fact(100) % 1000000007)
