# _weakref: ref, proxy, callbacks, counting, hash/eq rules.
import _weakref
import gc

print(sorted(n for n in dir(_weakref) if not n.startswith('__')))
print(_weakref.ref is _weakref.ReferenceType)

class Obj:
    def __init__(self, v=0):
        self.v = v
    def meth(self):
        return self.v * 2
    def __repr__(self):
        return 'Obj(%r)' % self.v

# plain refs are shared, refs with callbacks are not
o = Obj(1)
r1 = _weakref.ref(o)
r2 = _weakref.ref(o)
print(r1 is r2, r1() is o, r1.__callback__)
log = []
def cb(ref):
    log.append(('cb', ref is r3, ref() is None))
r3 = _weakref.ref(o, cb)
print(r3 is r1, r3.__callback__ is cb)
print(_weakref.getweakrefcount(o), len(_weakref.getweakrefs(o)))
print(r1 == r3, r1 != r3, hash(r1) == hash(o))
p = _weakref.proxy(o)
print(type(p).__name__, p.v, p.meth(), _weakref.getweakrefcount(o))
print(_weakref.proxy(o) is p)
del o
gc.collect()
print(log, r1(), r2())
try:
    p.v
except ReferenceError as e:
    print('ReferenceError', e)
print(r1 == r2, r1 == r3, r1 != r3)

# hash: kept after death once computed, else TypeError
o = Obj(2)
class H:
    def __hash__(self):
        return 42
h = H()
rh = _weakref.ref(h)
print(hash(rh))
del h
print(hash(rh))
rd = _weakref.ref(o)
del o
try:
    hash(rd)
except TypeError as e:
    print('TypeError', e)

# unsupported types
for x in (1, 'x', (), None, [1]):
    try:
        _weakref.ref(x)
    except TypeError as e:
        print('TypeError', e)

# proxies forward operators
class Num:
    def __init__(self, v):
        self.v = v
    def __add__(self, o):
        return Num(self.v + (o.v if isinstance(o, Num) else o))
    __radd__ = __add__
    def __iadd__(self, o):
        self.v += o
        return self
    def __neg__(self):
        return -self.v
    def __len__(self):
        return self.v
    def __getitem__(self, i):
        return i * 10
    def __setitem__(self, k, v):
        self.last = (k, v)
    def __contains__(self, x):
        return x == 3
    def __eq__(self, o):
        return self.v == o
    def __lt__(self, o):
        return self.v < o
    def __bool__(self):
        return self.v != 0
    def __index__(self):
        return self.v
    def __bytes__(self):
        return b'num'
    def __reversed__(self):
        return iter([3, 2, 1])
    def __call__(self, *a, **k):
        return ('called', a, k)
    __hash__ = None
    def __str__(self):
        return 'Num(%d)' % self.v
n = Num(3)
pn = _weakref.proxy(n)
print(type(pn).__name__, callable(pn))
print((pn + 1).v, (1 + pn).v, -pn, len(pn), pn[4], 3 in pn, 4 in pn)
pn[1] = 2
print(n.last, pn == 3, pn < 5, bool(pn), [10, 20, 30, 40][pn], str(pn))
print(pn(1, k=2))
q = pn
q += 4
print(type(q).__name__, n.v)
pn.w = 7
print(n.w)
del pn.w
print(hasattr(n, 'w'))
try:
    hash(pn)
except TypeError as e:
    print('TypeError', e)
print(_weakref.ProxyType.__hash__, _weakref.CallableProxyType.__hash__)
l = [1, 2]
class L(list):
    pass
ll = L([1, 2, 3])
pl = _weakref.proxy(ll)
print(list(pl), pl + [4], sum(iter(pl)))
it = iter([5, 6])
class It:
    def __iter__(self):
        return self
    def __next__(self):
        return next(it)
iobj = It()
pit = _weakref.proxy(iobj)
print(next(pit), next(pit))

# callbacks: order, exceptions are unraisable, proxy callbacks
o = Obj(5)
order = []
ra = _weakref.ref(o, lambda r: order.append('a'))
rb = _weakref.ref(o, lambda r: order.append('b'))
pp = _weakref.proxy(o, lambda r: order.append('p'))
del o
print(order)

# subclass of ref
class MyRef(_weakref.ref):
    def __new__(cls, ob, callback=None, extra=None):
        return super().__new__(cls, ob, callback)
    def __init__(self, ob, callback=None, extra=None):
        super().__init__(ob, callback)
        self.extra = extra
o = Obj(6)
m = MyRef(o, None, 'x')
print(m() is o, m.extra, m is _weakref.ref(o), isinstance(m, _weakref.ref))
print(_weakref.getweakrefcount(o))

# _remove_dead_weakref
d = {}
o = Obj(7)
d['a'] = _weakref.ref(o)
d['b'] = _weakref.ref(Obj(8))
_weakref._remove_dead_weakref(d, 'a')
_weakref._remove_dead_weakref(d, 'b')
_weakref._remove_dead_weakref(d, 'missing')
print(sorted(d))
try:
    _weakref._remove_dead_weakref([], 'a')
except TypeError as e:
    print('TypeError')

# bound-method weak references (what WeakMethod does)
o = Obj(9)
fr = _weakref.ref(o.meth.__func__)
orf = _weakref.ref(o.meth.__self__)
print(fr().__get__(orf())(), _weakref.getweakrefcount(1) if False else 0)
print(_weakref.getweakrefcount(3), _weakref.getweakrefs(3))
try:
    r1(1)
except TypeError:
    print('TypeError call args')
