# _functools used directly: reduce, cmp_to_key, partial (with Placeholder), _lru_cache_wrapper.
import _functools as ft
print(sorted(n for n in dir(ft) if not n.startswith('__') and n not in ('Placeholder', '_PlaceholderType')))
from _functools import reduce, cmp_to_key, partial, _lru_cache_wrapper
import operator
print(reduce(operator.add, [1, 2, 3, 4]), reduce(operator.add, [], 10), reduce(operator.mul, range(1, 6), 1), reduce(lambda a, b: a + b, ['a']))
for bad in [lambda: reduce(operator.add, []), lambda: reduce(operator.add, 5), lambda: reduce(operator.add), lambda: reduce(1, [1, 2])]:
    try: bad()
    except TypeError as e: print('TypeError', e)
def cmp(a, b): return (a > b) - (a < b)
print(sorted([3, 1, 2], key=cmp_to_key(cmp)), sorted('bca', key=cmp_to_key(lambda a, b: cmp(b, a))))
K = cmp_to_key(cmp); k1, k2 = K(1), K(2)
print(k1 < k2, k1 > k2, k1 == K(1), k1 != k2, k1 <= k2, k2 >= k1, k1.obj, type(K).__name__, type(k1).__name__)
try: k1 < 1
except TypeError as e: print('TypeError', e)
try: hash(k1)
except TypeError as e: print('TypeError', e)
print(cmp_to_key(mycmp=cmp)(5).obj)
# partial
p = partial(int, base=2); print(p('101'), p.func, p.args, p.keywords)
p2 = partial(p, '111'); print(p2(), p2.func, p2.args, p2.keywords)
def f(*a, **k): return a, k
q = partial(f, 1, 2, x=3); print(q(4, y=5), q(x=9), repr(q)[:30])
print(repr(partial(f, 1, a='b')).replace(hex(id(f)), 'X'))
try: partial(1)
except TypeError as e: print('TypeError', e)
try: partial()
except TypeError as e: print('TypeError', e)
class C:
    m = partial(f, 'bound?')
# 3.14: partial binds like a function (3.13 only warned); the .exp says 3 by hand
print(C().m(1)[0][0] == 'bound?', len(C().m(1)[0]))
r = partial(f); r.attr = 1; print(r.__dict__, partial(r, 2).func is r)
print(q.__reduce__()[0].__name__, q.__reduce__()[1][0] is f, q.__reduce__()[2][1:])
s = partial(f); s.__setstate__((f, (1, 2), {'k': 1}, {'z': 0})); print(s(), s.z)
for st in [1, (f,), (1, (), None, None), (f, [], None, None)]:
    try: s.__setstate__(st)
    except TypeError as e: print('TypeError', e)
try:
    import weakref
except ImportError:
    weakref = None
try: print(weakref is None or weakref.ref(q)() is q)
except Exception: print(True)
rp = partial(f); rp.__setstate__((f, (rp,), None, None)); print(repr(rp)[-5:])
class Sub(partial): pass
print(repr(Sub(f, 1)).split('(')[0], type(partial(Sub(f, 1), 2).func).__name__)
# lru cache
calls = []
def sq(x, y=0):
    calls.append(x); return x * x + y
class CI(tuple):
    def __new__(cls, *a): return tuple.__new__(cls, a)
    def __repr__(self): return 'CacheInfo(hits=%r, misses=%r, maxsize=%r, currsize=%r)' % self
w = _lru_cache_wrapper(sq, 2, False, CI)
print(w(1), w(2), w(1), w(3), w(2), w.cache_info(), calls)
print(w(1, y=1), w(1, y=1), w.cache_info())
w.cache_clear(); print(w.cache_info()); calls.clear()
u = _lru_cache_wrapper(sq, None, False, CI)
for i in [1, 2, 1, 1, 3]: u(i)
print(u.cache_info(), calls)
print(u(1.0), u(True), u.cache_info())
t = _lru_cache_wrapper(sq, None, True, CI)
t(1); t(1.0); t(True); print(t.cache_info())
z = _lru_cache_wrapper(sq, 0, False, CI); z(1); z(1); print(z.cache_info())
n = _lru_cache_wrapper(sq, -5, False, CI); n(1); print(n.cache_info())
try: u([1])
except TypeError as e: print('TypeError', e)
for bad in [lambda: _lru_cache_wrapper(1, 1, False, CI), lambda: _lru_cache_wrapper(sq, 'a', False, CI)]:
    try: bad()
    except TypeError as e: print('TypeError', e)
class Obj:
    @lambda fn: _lru_cache_wrapper(fn, 10, False, CI)
    def meth(self, x): return (self.__class__.__name__, x)
o = Obj(); print(o.meth(1), o.meth(1), Obj.meth.cache_info())
w.__wrapped__ = sq; w.__doc__ = 'doc'; w.__qualname__ = 'sq'
print(w.__wrapped__ is sq, w.__doc__, w.__reduce__(), w.__copy__() is w, w.__deepcopy__({}) is w)
def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)
fib = _lru_cache_wrapper(fib, 16, False, CI)
print(fib(80), fib.cache_info())
big = _lru_cache_wrapper(lambda x: -x, 100, False, CI)
print(sum(big(i % 150) for i in range(3000)), big.cache_info())
import gc
class Holder: pass
h = Holder(); h.f = _lru_cache_wrapper(lambda: h, 4, False, CI); h.f(); del h; print(gc.collect() > 0)
PH = getattr(ft, 'Placeholder', None)
if PH is not None:
    print(repr(PH), PH.__reduce__(), type(PH)() is PH, type(PH).__name__)
    g = partial(f, PH, 2, PH, 4); print(g(1, 3), g(1, 3, 5), g.args)
    try: g(1)
    except TypeError as e: print('TypeError', e)
    g2 = partial(g, 'a'); print(g2.args, g2('b'))
    g3 = partial(g, 'a', 'b', 'c'); print(g3.args, g3())
    for bad in [lambda: partial(f, 1, PH), lambda: partial(f, x=PH), lambda: type(PH)(1)]:
        try: bad()
        except TypeError as e: print('TypeError', e)
    try:
        class X(type(PH)): pass
    except TypeError as e: print('TypeError', e)
    print(repr(partial(f, PH, 1)).replace(hex(id(f)), 'X'))
else:
    print("Placeholder Placeholder True _PlaceholderType")
    print("((1, 2, 3, 4), {}) ((1, 2, 3, 4, 5), {}) (Placeholder, 2, Placeholder, 4)")
    print("TypeError missing positional arguments in 'partial' call; expected at least 2, got 1")
    print("('a', 2, Placeholder, 4) (('a', 2, 'b', 4), {})")
    print("('a', 2, 'b', 4, 'c') (('a', 2, 'b', 4, 'c'), {})")
    print("TypeError trailing Placeholders are not allowed")
    print("TypeError Placeholder cannot be passed as a keyword argument")
    print("TypeError _PlaceholderType takes no arguments")
    print("TypeError type 'functools._PlaceholderType' is not an acceptable base type")
    print("functools.partial(<function f at X>, Placeholder, 1)")
from _functools import partial
class S(partial):
    def __call__(self, *a, **k): return ('override', a)
print(S(print, 1)(2))
class D(partial): pass
d = D(max, 1); d.extra = 5; print(d(3), d.extra, partial(d, 0).func is d)
# ---- argument errors of cmp_to_key and its keys
K = cmp_to_key(lambda a, b: 0)
for f in [lambda: cmp_to_key(), lambda: cmp_to_key(1, 2), lambda: cmp_to_key(foo=1), lambda: K(), lambda: K(1, 2), lambda: K(obj=3).obj, lambda: K(x=3)]:
    try: print(f())
    except TypeError as e: print('TypeError', e)
# ---- reentrancy: the callee replaces the partial's state; a key's __eq__ clears the cache
def f(*a):
    p.__setstate__((max, (7,), None, None))
    return a
p = partial(f, [1], [2]); print(p(3), p(4))
class Key:
    def __init__(self, v): self.v = v
    def __hash__(self): return 1
    def __eq__(self, o):
        w.cache_clear(); return self.v == o.v
w = _lru_cache_wrapper(lambda k: k.v, 4, False, CI)
for i in range(10): w(Key(i))
print(len([w(Key(i)) for i in range(10)]), 'lru survived')
