# Positional, keyword and default arguments; *args and **kwargs.
def greet(name, greeting="Hello", punctuation="!"):
    return greeting + ", " + name + punctuation

print(greet("Ann"))
print(greet("Bob", "Hi"))
print(greet("Cy", punctuation="?"))
print(greet(greeting="Yo", name="Di"))

def collect(*args, **kwargs):
    return args, sorted(kwargs.items())

print(collect())
print(collect(1, 2, x=3))
print(collect(*[4, 5], **{"y": 6}))

def kwonly(a, *, b, c=3):
    return a + b + c

print(kwonly(1, b=2), kwonly(1, b=2, c=10))

def posonly(a, b, /, c):
    return (a, b, c)

print(posonly(1, 2, 3), posonly(1, 2, c=3))

def apply(f, *args):
    return f(*args)

print(apply(max, 3, 9, 4), apply(lambda: "no args"))

def counter_default(items=None):
    if items is None:
        items = []
    items.append(len(items))
    return items

print(counter_default(), counter_default())

def errors():
    for call in (lambda: greet(),
                 lambda: greet("a", "b", "c", "d"),
                 lambda: greet("a", unknown=1),
                 lambda: greet("a", name="b"),
                 lambda: kwonly(1),
                 lambda: posonly(1, b=2, c=3)):
        try:
            call()
        except TypeError as e:
            print("TypeError:", e)

errors()

def documented():
    "A docstring."
    return documented.__doc__

print(documented(), documented.__name__, greet.__defaults__)

total = 0
def add_global(n):
    global total
    total += n

for i in range(4):
    add_global(i)
print(total)
