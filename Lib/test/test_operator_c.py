# _operator used directly: the operator functions, the getters, methodcaller, _compare_digest.
import _operator as op
names = sorted(n for n in dir(op) if not n.startswith('__') and n not in ('is_none', 'is_not_none'))
print(names)
# 3.14 additions (the .exp comes from 3.13, which lacks them)
is_none = getattr(op, 'is_none', lambda a: a is None)
is_not_none = getattr(op, 'is_not_none', lambda a: a is not None)
print(is_none(None), is_none(0), is_not_none(0), is_not_none(None))
print(op.add(1, 2), op.sub(5, 3), op.mul('a', 3), op.truediv(7, 2), op.floordiv(7, 2), op.mod(7, 3), op.pow(2, 10), op.matmul.__name__)
print(op.lshift(1, 4), op.rshift(16, 2), op.and_(6, 3), op.or_(6, 3), op.xor(6, 3), op.neg(5), op.pos(-5), op.abs(-3), op.inv(5), op.invert(0), op.index(7))
print(op.lt(1, 2), op.le(2, 2), op.eq(1, 1.0), op.ne(1, 2), op.gt(1, 2), op.ge(3, 2), op.not_([]), op.truth([1]), op.is_(None, None), op.is_not(1, None), is_none(None), is_not_none(0))
l = [1]; print(op.iadd(l, [2]) is l, l, op.iconcat(l, (3,)), op.imul([1], 2), op.ipow(2, 3), op.ior({1}, {2}))
print(op.concat([1], [2]), op.concat('a', 'b'))
for bad in [lambda: op.concat(1, 2), lambda: op.iconcat(1, 2), lambda: op.concat([1], (2,)), lambda: op.add(1), lambda: op.index(1.5),
            lambda: op.indexOf([1, 2], 3), lambda: op.getitem([], 0), lambda: op.length_hint([], 'a'), lambda: op.itemgetter(),
            lambda: op.attrgetter(1), lambda: op.methodcaller(1), lambda: op.methodcaller(), lambda: op._compare_digest(1, 2),
            lambda: op._compare_digest('é', 'é'), lambda: op._compare_digest('a', b'a'), lambda: op.itemgetter(1)(), lambda: op.itemgetter(1)([1], x=1),
            lambda: op.attrgetter('x')(1), lambda: op.methodcaller('nope')(1), lambda: op.pos('a'), lambda: op.lt(1, 'a')]:
    try: print(bad())
    except Exception as e: print(type(e).__name__, e)
print(op.contains([1, 2], 2), op.countOf([1, 2, 1, 1], 1), op.indexOf('abc', 'c'))
d = {}; op.setitem(d, 'k', 1); print(d, op.getitem(d, 'k')); op.delitem(d, 'k'); print(d)
print(op.length_hint([1, 2]), op.length_hint(iter(range(5))), op.length_hint(5, 7), op.length_hint(x for x in ()))
class H:
    def __length_hint__(self): return NotImplemented
print(op.length_hint(H(), 3))
print(op.call(max, 1, 5, 2), op.call(sorted, [3, 1], reverse=True))
print(op._compare_digest(b'abc', b'abc'), op._compare_digest(b'abc', b'abd'), op._compare_digest('ab', 'ab'), op._compare_digest(b'a', bytearray(b'a')), op._compare_digest(b'a', b'ab'))
g = op.itemgetter(1); print(g, g([5, 6]), g.__reduce__())
g = op.itemgetter(0, -1, 1); print(g, g('abc'), g.__reduce__())
g = op.itemgetter(slice(1, None)); print(g([1, 2, 3]), g)
class A: pass
a = A(); a.b = A(); a.b.c = 42; a.x = 1
g = op.attrgetter('b.c'); print(g, g(a), g.__reduce__())
g = op.attrgetter('x', 'b.c'); print(g, g(a))
try: op.attrgetter('b.nope')(a)
except AttributeError as e: print('AttributeError', e)
m = op.methodcaller('split', ','); print(m, m('a,b'), m.__reduce__())
m = op.methodcaller('split', sep=',', maxsplit=1); print(m, m('a,b,c'))
m = op.methodcaller('upper'); print(m, m('x'), m.__reduce__())
print(type(op.itemgetter(1)).__name__, op.itemgetter.__module__)
print(sorted([(1, 'b'), (0, 'a')], key=op.itemgetter(1)), list(map(op.attrgetter('real'), [1, 2j])))
