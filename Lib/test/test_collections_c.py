# _collections used directly: deque, its iterators, defaultdict, _count_elements, _tuplegetter.
from _collections import deque, defaultdict, _count_elements, _tuplegetter, _deque_iterator, _deque_reverse_iterator
d = deque([1, 2, 3]); print(d, len(d), d[0], d[-1], d.maxlen)
d.append(4); d.appendleft(0); print(d, d.pop(), d.popleft(), d)
d.extend('ab'); d.extendleft('xy'); print(d)
d.rotate(); print(d); d.rotate(-2); print(d); d.rotate(100); print(d)
d.reverse(); print(d, d.count(1), d.index(2), 2 in d, 99 in d)
d.insert(1, 'ins'); d.insert(-1, 'neg'); d.insert(100, 'end'); d.insert(-100, 'start'); print(d)
d.remove('ins'); del d[0]; d[0] = 'zero'; print(d)
try: d.remove('nope')
except ValueError as e: print('ValueError', e)
try: d.index('nope')
except ValueError as e: print('ValueError', e)
for bad in (lambda: deque().pop(), lambda: deque().popleft(), lambda: deque()[0], lambda: deque([1])[5], lambda: deque([1])[1:2]):
    try: bad()
    except (IndexError, TypeError) as e: print(type(e).__name__, e)
b = deque(range(10), maxlen=3); print(b, b.maxlen); b.append(10); b.appendleft(-1); print(b)
try: b.insert(0, 1)
except IndexError as e: print('IndexError', e)
try: deque(maxlen=-1)
except ValueError as e: print('ValueError', e)
z = deque('abc', 0); z.append(1); print(z, list(z))
print(deque([1, 2]) + deque([3]), deque([1, 2]) * 3, 2 * deque([1]), deque('ab', 3) * 3)
try: deque([1]) + [2]
except TypeError as e: print('TypeError', e)
x = deque([1]); x += [2, 3]; x *= 2; print(x)
x *= 0; print(x)
print(deque([1, 2]) == deque([1, 2]), deque([1, 2]) < deque([1, 3]), deque([1]) < deque([1, 2]), deque([1]) == [1], deque() >= deque())
try: deque([1]) < [2]
except TypeError as e: print('TypeError', e)
d = deque(range(5)); print(list(reversed(d)), d.copy(), d.__copy__() is d, d.index(3, 1), d.index(3, -3, 5))
it = iter(d); next(it); d.append(9)
try: next(it)
except RuntimeError as e: print('RuntimeError', e)
it = iter(d); print(it.__length_hint__(), type(it).__name__, type(reversed(d)).__name__)
r = deque(); r.append(r); print(r)
r2 = deque([1]); r2.append([r2]); print(r2)
print(repr(deque([1, 2], maxlen=5)))
class S(deque): pass
s = S([1, 2], 4); s.x = 1
print(repr(s), s.copy(), type(s.copy()).__name__, s.copy().maxlen)
print(deque([1, 2]).__reduce__()[:3], deque([1], 3).__reduce__()[:3], s.__reduce__()[:3])
print(list(deque([1, 2]).__reduce__()[3]))
print(list(_deque_iterator(deque('abcd'), 2)), list(_deque_reverse_iterator(deque('abcd'), 1)))
try: hash(deque())
except TypeError as e: print('TypeError', e)
d = deque(range(100)); 
for i in range(50): d.popleft(); d.append(i)
print(sum(d), d[0], d[-1], d[49], d[50])
d.rotate(33); print(d[0], d[-1]); del d[10]; del d[80]; print(len(d), d[10], d[79])
d.clear(); print(d, len(d))
e = deque(); e.extend(e); print(e); e = deque([1]); e.extend(e); print(e); e.extendleft(e); print(e)
import gc
g = deque(); g.append(g); del g; print(gc.collect() >= 1)
print(deque([1,2,3]).__sizeof__() > 0)
class Bad:
    def __eq__(self, other):
        dd.clear(); return False
dd = deque([Bad(), 1, 2])
try: dd.count(1)
except RuntimeError as e: print('RuntimeError', e)
dd = deque([Bad(), 1, 2])
try: dd.remove(1)
except IndexError as e: print('IndexError', e)
# defaultdict
dfd = defaultdict(list); dfd['a'].append(1); dfd['b']; print(dfd, dfd.default_factory, dfd['a'])
n = defaultdict(); print(n, n.default_factory)
try: n['x']
except KeyError as e: print('KeyError', e)
try: defaultdict(1)
except TypeError as e: print('TypeError', e)
c = defaultdict(int, {'a': 1}, b=2); print(c, c.copy(), type(c.copy()).__name__, c.__copy__())
print(c.__reduce__()[:4], list(c.__reduce__()[4]))
print(defaultdict(int, a=1) | {'b': 2}, {'b': 2} | defaultdict(int, a=1), type({'b': 2} | defaultdict(int)).__name__)
u = defaultdict(int); u |= {'z': 5}; print(u)
print((defaultdict(int) | 1) if False else 'skip')
try: defaultdict(int) | 1
except TypeError as e: print('TypeError', e)
class DD(defaultdict):
    pass
q = DD(list); q[1].append(2); print(q, type(q.copy()).__name__)
rr = defaultdict(); rr.default_factory = rr.__getitem__
print(repr(rr)[:30])
print(defaultdict.__missing__(defaultdict(int), 'k'))
print(isinstance(defaultdict(), dict))
cnt = {}; _count_elements(cnt, 'abracadabra'); print(sorted(cnt.items()))
class M(dict): pass
cm = M(); _count_elements(cm, [1, 1, 2]); print(cm)
try: _count_elements({}, 5)
except TypeError as e: print('TypeError', e)
class P(tuple):
    x = _tuplegetter(0, 'first')
    y = _tuplegetter(1, 'second')
p = P((1, 2)); print(p.x, p.y, P.x.__doc__, type(P.__dict__['x']).__name__)
try: p.x = 5
except AttributeError as e: print('AttributeError', e)
print(P.__dict__['x'].__reduce__())
try: P.__dict__['x'].__get__([1], list)
except TypeError as e: print('TypeError', e)
try: _tuplegetter(5, None).__get__((1,), tuple)
except IndexError as e: print('IndexError', e)
# ---- more shapes of the ring
from _collections import deque
class MyDeque(deque):
    def __init__(self, *a, **k): super().__init__(*a, **k)
m = MyDeque([1, 2], maxlen=3); print(m, m.copy(), m + m)
dq = deque(range(10)); dq.rotate(3); print(dq); dq.rotate(-13); print(dq)
dq = deque(range(8)); 
for i in range(8): dq.append(dq.popleft())
dq.rotate(3); print(dq, dq[0], dq[7])
dq2 = deque(range(5), maxlen=5); dq2.rotate(2); print(dq2); dq2.extend([7,8]); print(dq2)
dq3 = deque('abc'); dq3.insert(1, 'X'); dq3.insert(0, 'Y'); dq3.insert(len(dq3), 'Z'); print(dq3)
del dq3[-1]; del dq3[1]; print(dq3, dq3.index('c'))
print(deque([1,2,3]) * 0, deque() * 5, deque([1]) * -1)
print(deque([1, [2]]) == deque([1, [2]]), deque([1,2]) != deque([1,2,3]), deque([2]) > deque([1, 5]))
e = deque(maxlen=2); e.extendleft('abc'); print(e)
# ---- huge repeat counts fail fast instead of eating memory (3.13 runs the
# bounded one for ever: these two .exp lines are written by hand)
try: deque([1]) * (2 ** 62)
except MemoryError: print('MemoryError')
print(deque('ab', maxlen=3) * (2 ** 62))
# ---- an item dropped by a bounded repeat empties the deque from __del__ (.exp line by hand)
class Dropper:
    def __del__(self): victim.clear()
victim = deque(maxlen=2); victim.append(Dropper()); victim.append(1); victim *= 5
print('repeat survived', len(victim) <= 2)
victim.clear()
