# GET_ITER_VIRTUAL, GET_ITER_SELF and SEND_VIRTUAL: hot sites take them
# (white box), other iterables still work, and iterating a list, or
# delegating to one with `yield from`, makes no iterator object: with every
# allocation made to fail (_testinternalcapi.set_nomemory) the loops still
# run.
import _testinternalcapi as t

N = 40
on = t.specialization_enabled()


def check(label, fn, expected):
    got = t.current_opcodes(fn)
    print(label, "takes", expected, (expected in got) == on)


def total(xs):
    n = 0
    for x in xs:
        n += x
    return n


def drain(it):
    return [x for x in it]


def delegate(xs):
    yield from xs


def run_delegate(xs):
    return list(delegate(xs))


for i in range(N):
    total([1, 2, i])
    drain(iter((i,)))
    run_delegate((1, i))
check("list", total, "GET_ITER_VIRTUAL")
check("iterator", drain, "GET_ITER_SELF")
check("yield from tuple", delegate, "SEND_VIRTUAL")

# Every other kind of iterable at the same sites.
print(total((1, 2)), total(range(4)), total({5: 0}), total(b"\x01\x02"), total(x for x in [7]))
print(drain([1]), drain("ab"), drain(range(2)), drain({3}), drain(map(abs, [-1])))
print(run_delegate("xy"), run_delegate(iter([1])), run_delegate(x * 2 for x in [4]),
      run_delegate(range(3)), run_delegate(b"ab"))


class OwnIter:
    """Its own iterator, until __iter__ is replaced."""

    def __init__(self):
        self.n = 0

    def __iter__(self):
        return self

    def __next__(self):
        self.n += 1
        if self.n > 3:
            raise StopIteration
        return self.n


print(drain(OwnIter()))
OwnIter.__iter__ = lambda self: iter(["replaced"])
print(drain(OwnIter()))
del OwnIter.__next__
print(drain(OwnIter()))


class NotIter:
    pass


for bad in (NotIter(), 5, None):
    try:
        drain(bad)
    except TypeError as e:
        print("TypeError", e)

# Sending into a `yield from` over a sequence: only None is accepted.
g = delegate([1, 2])
print(next(g), g.send(None))
try:
    g.send("x")
except (AttributeError, TypeError) as e:
    print(type(e).__name__, e)
# A list changed while it is delegated to.
items = [1, 2]
g = delegate(items)
seen = [next(g)]
items.append(3)
seen += list(g)
print(seen)


# No allocation: the loop below runs with every allocation failing.
def sum_no_memory(xs):
    n = 0
    t.set_nomemory(0)
    for x in xs:
        n += x
    t.remove_mem_hooks()
    return n


def consume_no_memory(gen):
    n = 0
    t.set_nomemory(0)
    for x in gen:
        n += x
    t.remove_mem_hooks()
    return n


data = [1, 2, 3, 4]
for _ in range(3):
    print("list loop allocates nothing:", sum_no_memory(data) == 10)
    gen = delegate(data)
    first = next(gen)           # the generator is made and started before
    print("yield from a list allocates nothing:", first + consume_no_memory(gen) == 10)
