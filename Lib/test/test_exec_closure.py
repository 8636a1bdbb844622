# exec()/eval() of code objects with free variables: eval refuses, exec takes
# closure= (a tuple of one cell per free variable), and the argument errors.
def f(x): return lambda: x+1
c = f(3).__code__
for fn in (eval, exec):
    try: fn(c)
    except TypeError as e: print(fn.__name__, e)
try: exec(c, {}, closure=(1,2))
except TypeError as e: print(e)
try: exec(c, {}, closure=None)
except TypeError as e: print(e)
try: exec(c, {}, closure=(1,))
except TypeError as e: print(e)
import types
print(exec(c, {}, closure=(types.CellType(5),)))
def g():
    y = 10
    def h():
        global out
        out = y * 2
    return h
exec(g().__code__, globals(), closure=(types.CellType(21),))
print(out)
try: exec(compile('1','s','exec'), {}, closure=(types.CellType(5),))
except TypeError as e: print(e)
try: exec('1', {}, closure=(types.CellType(5),))
except TypeError as e: print(e)
