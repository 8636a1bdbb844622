# itertools: every iterator's main behaviour, edge cases and argument errors.
from itertools import *
import itertools
print(sorted(n for n in dir(itertools) if not n.startswith('__')))
c = count(5); print(c, next(c), c)
print(count(), count(1.5, 0.5), count(0, 1.0), count(3, 2), count(-1, -1))
c = count(2**63 - 2); print([next(c) for _ in range(4)], c)
c = count(10, -3); print([next(c) for _ in range(4)])
print(list(islice(count(0.5, 0.25), 4)))
for bad in ['a', None]:
    try: count(bad)
    except TypeError as e: print('TypeError', e)
print(list(islice(cycle('abc'), 8)), list(cycle([])))
r = repeat('a', 3); print(r, r.__length_hint__(), list(r), r)
print(repeat('a'), list(repeat(1, -5)), list(repeat(1, times=2)))
try: repeat('a').__length_hint__()
except TypeError as e: print('TypeError', e)
try: repeat('a', None)
except TypeError as e: print('TypeError', e)
import operator
print(list(accumulate([1,2,3,4])), list(accumulate([1,2,3], operator.mul)), list(accumulate([], initial=5)), list(accumulate([1,2], initial=10)))
print(list(accumulate('abc')), list(accumulate([3,1,4,1,5], max)))
print(list(batched('abcdefg', 3)), list(batched('', 2)), list(batched(range(4), 2, strict=True)))
try: list(batched('abc', 2, strict=True))
except ValueError as e: print('ValueError', e)
for n in (0, -1):
    try: batched('a', n)
    except ValueError as e: print('ValueError', e)
print(list(batched(range(5), 10**6)))
print(list(chain('ab', [1, 2], ())), list(chain.from_iterable(['ab', 'cd'])), list(chain()))
try: list(chain(1))
except TypeError as e: print('TypeError', e)
print(list(compress('ABCDEF', [1,0,1,0,1,1])), list(compress('AB', [1])))
print(list(dropwhile(lambda x: x < 5, [1,4,6,3,8])), list(takewhile(lambda x: x < 5, [1,4,6,3,8])))
print(list(filterfalse(lambda x: x % 2, range(10))), list(filterfalse(None, [0, 1, '', 'a'])))
print(list(starmap(pow, [(2,5), (3,2)])))
try: list(starmap(pow, [1]))
except TypeError as e: print('TypeError', e)
print([(k, list(g)) for k, g in groupby('AAAABBBCCDAABBB')])
print([k for k, g in groupby('AAAABBBCCD')])
print([(k, list(g)) for k, g in groupby([1,2,3,4,5,6], key=lambda x: x // 3)])
g = groupby('aabb'); k1, g1 = next(g); k2, g2 = next(g); print(list(g1), list(g2))
print(list(islice('ABCDEFG', 2)), list(islice('ABCDEFG', 2, 4)), list(islice('ABCDEFG', 2, None)), list(islice('ABCDEFG', 0, None, 2)))
print(list(islice(count(), 3, 10, 3)), list(islice('abc', None)), list(islice('abc', 0)), list(islice(range(10), 8, 2)))
for args in [(-1,), (1, -1), (0, 1, 0), ('a',), (1, 2, -1), (1.5,)]:
    try: islice('abc', *args)
    except ValueError as e: print('ValueError', e)
print(list(pairwise('ABCDE')), list(pairwise('A')), list(pairwise('')))
print(list(zip_longest('ABCD', 'xy', fillvalue='-')), list(zip_longest()), list(zip_longest('ab', [])))
try: zip_longest('a', foo=1)
except TypeError as e: print('TypeError', e)
a, b = tee(iter([1, 2, 3])); print(type(a).__name__, list(a), list(b))
a, b, c = tee(range(5), 3); print(next(a), list(b), list(a), list(c))
print(tee('abc', 0))
try: tee('abc', -1)
except ValueError as e: print('ValueError', e)
a, b = tee('abcdef'); c = a.__copy__(); next(a); print(list(a), list(c), list(b))

a, = tee(range(3), 1); next(a); print(list(a.__copy__()), list(a))
print(list(product('ab', range(2))), list(product(range(2), repeat=3))[:4], list(product()), list(product('ab', '')))
try: product('a', repeat=-1)
except ValueError as e: print('ValueError', e)
print(list(permutations('ABCD', 2)), list(permutations(range(3))), list(permutations('ab', 3)), list(permutations('', 0)))
print(list(combinations('ABCD', 2)), list(combinations(range(4), 3)), list(combinations('ab', 3)), list(combinations('ab', 0)))
print(list(combinations_with_replacement('ABC', 2)), list(combinations_with_replacement('', 2)), list(combinations_with_replacement('', 0)))
for f in (permutations, combinations, combinations_with_replacement):
    try: f('abc', -1)
    except ValueError as e: print('ValueError', e)
try: combinations('abc')
except TypeError as e: print('TypeError', e)
print(len(list(permutations(range(6)))), len(list(combinations(range(10), 4))), len(list(combinations_with_replacement(range(5), 3))))
# deep chains must not crash
it = iter([1])
for i in range(100000):
    it = chain(it)
try:
    next(it)
except RecursionError:
    pass
print('deep chain survived')
del it
t = iter(range(10))
for i in range(100000):
    t, _ = tee(t)
print(next(t))
a, b = tee(range(100000)); 
for x in a: pass
del a, b
x = tee(range(3))[0]
try:
    import weakref
except ImportError:
    weakref = None
print(weakref is None or weakref.ref(x)() is x)
print(isinstance(x, itertools._tee))
class Sub(count): pass
print(Sub(3), next(Sub(3)))
print(type(groupby('a').__next__()[1]).__name__)

# ---- argument errors and edge cases
tests = [
 lambda: cycle(), lambda: cycle(1), lambda: cycle('a', 'b'), lambda: repeat(), lambda: count(1, 2, 3),
 lambda: dropwhile(len), lambda: takewhile(len, 1), lambda: starmap(len), lambda: islice(),
 lambda: islice('a'), lambda: pairwise(), lambda: pairwise(1), lambda: compress('a'), lambda: accumulate(),
 lambda: batched('a'), lambda: batched('a', 'b'), lambda: groupby(), lambda: product(1),
 lambda: permutations(1), lambda: tee(), lambda: tee(1), lambda: tee('a', 'b'), lambda: zip_longest(1),
 lambda: cycle(x=1), lambda: chain(x=1), lambda: permutations('abc', 'x'), lambda: list(starmap(len, [None])),
 lambda: next(accumulate([1, 'a'])), lambda: list(accumulate([1, 'a'])), lambda: islice('abc', 1, 2, 3, 4),
 lambda: repeat(1, 'a'), lambda: combinations(None, 2), lambda: filterfalse(None, 5),
]
for t in tests:
    try:
        r = t()
        print('ok', type(r).__name__)
    except Exception as e:
        print(type(e).__name__, e)
def reenter():
    yield next(b)
a, b = tee(reenter())
try: next(a)
except RuntimeError as e: print('RuntimeError', e)
x = iter('abcdef'); i = islice(x, 2); print(list(i), next(x))
x = iter(range(10)); i = islice(x, 1, 3); print(list(i), next(x))
print(list(islice(range(10), 5, 3)), list(islice(range(100), 10, 40, 7)))
import sys
c = count(sys.maxsize - 1); print(next(c), next(c), next(c), c)
c = count(-sys.maxsize - 1, -1); print(next(c), next(c), c)
c = count(1, 2**70); next(c); print(c)
# ---- huge arguments
import sys
for f in [lambda: repeat('a', 10 ** 20), lambda: combinations('ab', 10 ** 20), lambda: islice('a', 10 ** 20),
          lambda: batched('a', 10 ** 20), lambda: tee('a', 10 ** 20)]:
    try: print(type(f()).__name__)
    except (OverflowError, ValueError, MemoryError) as e: print(type(e).__name__)
print(list(batched('abc', 10 ** 6)), list(islice('abcdef', 1, sys.maxsize, sys.maxsize)))
print(list(combinations('abc', 10 ** 6)), list(permutations('ab', 10 ** 6)))
c = count(10 ** 30, 10 ** 29); next(c); print(c)
# ---- groupby re-entered from __eq__ and from the key function
class K:
    def __init__(self, v): self.v = v
    def __eq__(self, o):
        try: next(g)
        except (StopIteration, ValueError, RuntimeError): pass
        return False
    def __hash__(self): return 0
g = groupby([K(i) for i in range(6)])
try:
    out = [k.v for k, grp in g]
    print('groups', len(out) > 0)
except Exception as e:
    print(type(e).__name__)
def keyfunc(x):
    if keyfunc.skip > 0:
        keyfunc.skip -= 1
        return x
    keyfunc.skip += 1
    try: next(g2)
    except (StopIteration, ValueError, RuntimeError): pass
    return x
keyfunc.skip = 0
g2 = groupby(range(10), keyfunc)
try:
    print(len(list(g2)) > 0)
except Exception as e:
    print(type(e).__name__)
g3 = groupby('aabbc')
_, first = next(g3); _, second = next(g3)
class E:
    def __eq__(self, o):
        list(first); list(second); return True
g4 = groupby([E(), E(), E()]); k, grp = next(g4); print(len(list(grp)) >= 1)
print('groupby reentrancy survived')
# ---- re-entry into zip_longest and accumulate (3.13 cannot run this part: .exp lines by hand)
def gen():
    yield 1
    try: next(z)
    except (ValueError, StopIteration): pass
z = zip_longest(gen(), 'abc')
try: print(list(z))
except ValueError as e: print('ValueError', e)
class N:
    def __init__(self, v): self.v = v
    def __add__(self, o):
        try: next(acc)
        except (ValueError, StopIteration): pass
        return N(self.v + o.v)
acc = accumulate([N(1), N(2), N(3)])
try: print([n.v for n in acc])
except ValueError as e: print('ValueError', e)
print('zip_longest/accumulate reentrancy survived')
