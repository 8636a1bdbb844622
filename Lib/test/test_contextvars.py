# _contextvars: ContextVar, Token, Context, copy_context.
import _contextvars as cv

def clean(s):
    s = str(s)
    out = []
    while ' at 0x' in s:
        head, _, tail = s.partition(' at 0x')
        i = 0
        while i < len(tail) and tail[i] in '0123456789abcdef':
            i += 1
        out.append(head + ' at ADDR')
        s = tail[i:]
    return ''.join(out) + s

def show(f, *args, **kw):
    try:
        r = f(*args, **kw)
    except Exception as e:
        print(type(e).__name__, clean(e))
    else:
        print(clean(repr(r)))

print(sorted(n for n in dir(cv) if not n.startswith('_')))
v = cv.ContextVar('v')
d = cv.ContextVar('d', default=10)
print(clean(repr(v)), clean(repr(d)), v.name, d.name)
show(v.get)
print(v.get(1), d.get(), d.get(2))
show(cv.ContextVar, 1)
show(cv.ContextVar)
show(cv.ContextVar, 'x', 1)
show(setattr, v, 'name', 'other')
try:
    class Sub(cv.ContextVar):
        pass
except TypeError as e:
    print('TypeError', e)
print(hash(v) == hash(v), v == v, v != d, cv.ContextVar('v') == v)

t = v.set(1)
print(v.get(), t.var is v, t.old_value is cv.Token.MISSING, clean(repr(t)), cv.Token.MISSING)
t2 = v.set(2)
print(v.get(), t2.old_value)
v.reset(t2)
print(v.get())
show(v.reset, t2)
print(clean(repr(t2)))
show(d.reset, t)
show(v.reset, 'nope')
v.reset(t)
show(v.get)
print(v.get('fallback'))
show(cv.Token)

# Context: run, copy, mapping protocol
ctx = cv.copy_context()
print(type(ctx).__name__, len(ctx), v in ctx, list(ctx))
def work(x, *, y=0):
    v.set(x + y)
    d.set('in')
    return v.get(), d.get()
print(ctx.run(work, 1, y=2))
show(v.get)
print(len(ctx), ctx[v], ctx[d], ctx.get(v), ctx.get(cv.ContextVar('z')), ctx.get(cv.ContextVar('z'), 'dflt'))
print(v in ctx, sorted(k.name for k in ctx), sorted(k.name for k in ctx.keys()))
print(sorted(map(str, ctx.values())), sorted((k.name, val) for k, val in ctx.items()))
show(ctx.__getitem__, cv.ContextVar('missing'))
show(ctx.__getitem__, 'notavar')
show(ctx.__contains__, 1)
show(ctx.get, 1)
show(hash, ctx)
show(ctx.run)
show(cv.Context, 1)

c2 = ctx.copy()
print(c2 == ctx, c2 is ctx, c2[v], len(c2))
c2.run(v.set, 100)
print(c2[v], ctx[v], c2 == ctx, c2 != ctx)
print(cv.Context() == cv.Context(), len(cv.Context()), cv.Context() == ctx, ctx == 1)

# nested run and re-entry
def nested():
    show(ctx.run, lambda: None)
    return 'ok'
print(ctx.run(nested))
def inner():
    return v.get()
outer = cv.Context()
def outer_fn():
    v.set('outer')
    return cv.copy_context().run(inner), v.get()
print(outer.run(outer_fn), outer[v])
show(v.get)
def fails():
    v.set('partial')
    raise KeyError('boom')
c3 = cv.Context()
show(c3.run, fails)
print(c3[v])
show(v.get)

# tokens from another context
tok = ctx.run(v.set, 'x')
show(v.reset, tok)
ctx.run(v.reset, tok)
print(ctx[v])

# many variables: the trie grows and shrinks
vs = [cv.ContextVar('x%d' % i) for i in range(300)]
def fill():
    toks = [var.set(i) for i, var in enumerate(vs)]
    c = cv.copy_context()
    total = sum(var.get() for var in vs)
    for tk in reversed(toks[::2]):
        tk.var.reset(tk)
    return total, len(c), len(cv.copy_context()), sum(var.get(0) for var in vs)
big = cv.Context()
print(big.run(fill), len(big))
print(all(big[var] == i for i, var in enumerate(vs) if i % 2), all(var not in big for var in vs[::2]))
same = cv.Context()
same.run(lambda: [var.set(i) for i, var in enumerate(vs) if i % 2])
print(same == big, len(same))

# a context kept alive through a cycle is collected
import gc
class Holder:
    pass
h = Holder()
cc = cv.Context()
cc.run(v.set, h)
h.ctx = cc
del h, cc
print(gc.collect() >= 0)

# tokens as context managers (3.14)
with v.set('scoped') as tk:
    print(v.get(), tk.var is v)
show(v.get)

