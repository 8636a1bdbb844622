# A chain of iterators wrapping iterators, 10**5 deep, then next(): every
# wrapper's tp_iternext goes through the C stack check, so this is a
# RecursionError.  CPython 3.13 overflows the C stack here (segfault), so
# the .exp was written by hand: it is the "better than CPython" behaviour.
# Deleting such chains (and deep containers) must not crash either.
import itertools

N = 100000


def chain(wrap):
    it = iter([1, 2, 3])
    for _ in range(N):
        it = wrap(it)
    return it


WRAPPERS = [
    ('map', lambda it: map(abs, it)),
    ('map2', lambda it: map(max, it, it)),
    ('filter', lambda it: filter(None, it)),
    ('enumerate', lambda it: enumerate(it)),
    ('zip', lambda it: zip(it)),
    ('zip strict', lambda it: zip(it, strict=True)),
    ('islice', lambda it: itertools.islice(it, 5)),
    ('chain', lambda it: itertools.chain(it)),
    ('takewhile', lambda it: itertools.takewhile(bool, it)),
    ('dropwhile', lambda it: itertools.dropwhile(bool, it)),
    ('starmap', lambda it: itertools.starmap(abs, map(lambda x: (x,), it))),
    ('accumulate', lambda it: itertools.accumulate(it)),
    ('compress', lambda it: itertools.compress(it, itertools.repeat(1))),
    ('filterfalse', lambda it: itertools.filterfalse(None, it)),
    ('zip_longest', lambda it: itertools.zip_longest(it)),
    ('pairwise', lambda it: itertools.pairwise(it)),
    ('batched', lambda it: itertools.batched(it, 1)),
    ('cycle', lambda it: itertools.cycle(it)),
    ('groupby', lambda it: itertools.groupby(it)),
    ('callable_iterator', lambda it: iter(it.__next__, None)),
    ('genexp', lambda it: (x for x in it)),
]

for name, wrap in WRAPPERS:
    it = chain(wrap)
    try:
        next(it)
        print(name, 'ok')
    except RecursionError:
        print(name, 'RecursionError')
    try:
        list(it)
        print(name, 'list ok')
    except RecursionError:
        print(name, 'list RecursionError')
    del it

# the same chains are still usable at a modest depth
it = iter(range(10))
for _ in range(100):
    it = map(lambda t: t[1], enumerate(filter(None, it)))
print('shallow', next(it, 'exhausted'))

# deallocating deep structures
for name, make in [('list', lambda x: [x]), ('dict', lambda x: {1: x}),
                   ('tuple', lambda x: (x,)), ('pair', lambda x: [x, x]),
                   ('map', lambda x: map(abs, x if x is not None else []))]:
    x = None
    for _ in range(N):
        x = make(x)
    del x
    print('dealloc', name, 'ok')
