# Deeply nested containers and exception chains: repr, str, comparison,
# hashing, pickling, json and deallocation end in RecursionError (or just
# work), never in a C stack overflow.
import collections
import copy
import functools
import json
import pickle

N = 50000


def check(label, thunk, either=False):
    # either: a deep enough C stack may finish the job; both outcomes pass
    try:
        thunk()
        print(label, 'no crash' if either else 'ok')
    except RecursionError:
        print(label, 'no crash' if either else 'RecursionError')
    except RecursionError:
        print(label, 'RecursionError')
    except Exception as e:
        print(label, type(e).__name__)


def nest(make):
    x = make(None)
    for _ in range(N):
        x = make(x)
    return x


lst = nest(lambda x: [x])
check('repr list', lambda: repr(lst))
check('str list', lambda: str(lst))
check('compare lists', lambda: lst == nest(lambda x: [x]))
check('pickle list', lambda: pickle.dumps(lst))
check('json list', lambda: json.dumps(lst))
check('deepcopy list', lambda: copy.deepcopy(lst))
del lst

dct = nest(lambda x: {1: x})
check('repr dict', lambda: repr(dct))
check('compare dicts', lambda: dct == nest(lambda x: {1: x}))
del dct

tup = nest(lambda x: (x,))
check('hash tuple', lambda: hash(tup), either=True)
check('repr tuple', lambda: repr(tup))
check('order tuples', lambda: tup < nest(lambda x: (x,)))
del tup

fs = nest(lambda x: frozenset([x]))
check('hash frozenset', lambda: hash(fs))
check('repr frozenset', lambda: repr(fs))
del fs

od = nest(lambda x: collections.OrderedDict(a=x))
check('repr OrderedDict', lambda: repr(od))
del od

dq = nest(lambda x: collections.deque([x]))
check('repr deque', lambda: repr(dq))
del dq

cls = nest(lambda x: (x if x is not None else int,))
check('isinstance nested tuple', lambda: isinstance(1, cls))
check('issubclass nested tuple', lambda: issubclass(int, cls))
del cls

exc = nest(lambda x: ValueError(x))
check('str exception', lambda: str(exc))
check('repr exception', lambda: repr(exc))
del exc

e = None
for i in range(N):
    x = ValueError(i)
    x.__cause__ = e
    e = x
check('long __cause__ chain', lambda: str(e))
del e, x

p = nest(lambda x: functools.partial(x if x is not None else int))
check('repr partial', lambda: repr(p))
check('call partial', lambda: p())
del p
print('done')
