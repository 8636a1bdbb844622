# CALL_BOUND_METHOD_EXACT_ARGS: calling a bound method object held in a
# variable, hot, then with everything its guards check changed.
import sys

REPEAT = 40


class A:
    def m(self, x):
        return ("A.m", x)

    def two(self, x, y):
        return ("A.two", x, y)

    def defaults(self, x, y=5):
        return ("A.defaults", x, y)

    def where(self):
        return sys._getframe().f_back.f_code.co_name


def call_all(fn, *args):
    for _ in range(REPEAT):
        result = fn(*args)
    return result


def call1(fn, x):
    return fn(x)


a = A()
print(call_all(call1, a.m, 1))
print([call1(f, "xy") for f in (a.m, A().m, len, str, lambda v: ("lambda", v), a.defaults)])
print(call_all(a.two, 1, 2), call_all(a.defaults, 3), call_all(a.where))
try:
    call1(a.two, 1)
except TypeError as e:
    print("TypeError:", e)

bm = a.m
for _ in range(REPEAT):
    call1(bm, 0)
A.m.__code__ = (lambda self, x: ("replaced", x)).__code__
print("new code:", call1(bm, 7), call1(a.m, 8))


def boom(self, x):
    raise ValueError(x)


bad = boom.__get__(a)
try:
    call_all(bad, "inside")
except ValueError as e:
    print("ValueError from the method:", e)


class B:
    __slots__ = ()

    def m(self, x):
        return ("B.m", x)


print(call_all(call1, B().m, 9), call1(classmethod(lambda cls, x: (cls.__name__, x)).__get__(None, A), 4))
import types  # noqa: E402
print(call1(types.MethodType(lambda s, x: (s, x), "self-obj"), 10))
