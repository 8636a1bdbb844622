# CALL of C functions: CALL_BUILTIN_O/FAST/FAST_WITH_KEYWORDS,
# CALL_METHOD_DESCRIPTOR_NOARGS/O/FAST, CALL_TYPE_1, CALL_STR_1,
# CALL_TUPLE_1, CALL_ISINSTANCE.  Each runs hot, then sees other
# callables, wrong argument counts and bad arguments.
import builtins
import math

N = 50


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


def call1(f, a):
    return f(a)


def call2(f, a, b):
    return f(a, b)


def call3(f, a, b, c):
    return f(a, b, c)


for i in range(N):
    call1(abs, -i)
    call2(divmod, i, 3)
    call2(math.pow, 2, i % 5)
    call3(max, i, 1, 2)
print("builtins", call1(abs, -5), call2(divmod, 17, 5), call2(math.pow, 2, 3), call3(max, 1, 9, 2))
show("O wrong type", lambda: call1(abs, "x"))
show("O other callable", lambda: call1(len, [1, 2]))
show("O python callable", lambda: call1(lambda v: v * 3, 4))
show("fast wrong count", lambda: call1(divmod, 1))
show("fast error", lambda: call2(math.pow, "a", 1))
show("fast kw builtin", lambda: call2(sorted, [3, 1], None))
show("fast kw builtin 2", lambda: call1(sorted, [3, 1, 2]))
show("bound builtin", lambda: call1([].append, 1))
for i in range(N):
    call1(sorted, [i, 1])
show("fast kw hot", lambda: call1(sorted, (3, 1, 2)))
show("fast kw other", lambda: call1(print, "printed"))


def upper(s):
    return s.upper()


def find(s, sub):
    return s.find(sub)


def count3(s, sub, start):
    return s.count(sub, start)


def pop(lst):
    return lst.pop()


for i in range(N):
    upper("abc")
    find("hello", "l")
    count3("banana", "a", 2)
    pop([1, 2, i])
print("descriptors", upper("abc"), find("hello", "l"), count3("banana", "a", 2), pop([1, 2, 3]))


class MyStr(str):
    def upper(self):
        return "MyStr.upper"


class SubStr(str):
    pass


print("descriptor subclass", upper(SubStr("sub")), upper(MyStr("x")))
show("descriptor other type", lambda: upper(b"bytes"))
show("descriptor error", lambda: find("x", 3))
show("descriptor pop empty", lambda: pop([]))
show("descriptor dict pop", lambda: pop({}))


class HasUpper:
    def upper(self):
        return "HasUpper.upper"


print("descriptor python", upper(HasUpper()))
show("unbound call", lambda: str.upper("abc"))
show("unbound wrong self", lambda: str.upper(1))


def typ(x):
    return type(x)


def s1(x):
    return str(x)


def t1(x):
    return tuple(x)


def isinst(x, c):
    return isinstance(x, c)


for i in range(N):
    typ(i)
    s1(i)
    t1([i])
    isinst(i, int)
print("type", typ(1), typ("s"), typ(None))
print("str", s1(12), s1(None), s1([1]))
print("tuple", t1([1, 2]), t1("ab"), t1(range(3)))
print("isinstance", isinst(1, int), isinst(1, str), isinst(True, (str, int)))


class BadStr:
    def __str__(self):
        raise RuntimeError("no str")


class StrReturnsInt:
    def __str__(self):
        return 5


show("str raises", lambda: s1(BadStr()))
show("str returns int", lambda: s1(StrReturnsInt()))
show("tuple of int", lambda: t1(5))
show("isinstance bad", lambda: isinst(1, 2))


class Meta(type):
    def __instancecheck__(cls, obj):
        return obj == "magic"


class Magic(metaclass=Meta):
    pass


print("instancecheck", isinst("magic", Magic), isinst("plain", Magic))

# The names rebound to other callables.
real_type, real_str, real_tuple, real_isinstance = type, str, tuple, isinstance
builtins.isinstance = lambda a, b: "fake isinstance"
print("rebound isinstance", isinst(1, int))
builtins.isinstance = real_isinstance
print("restored isinstance", isinst(1, int))
print("other at type site", call1(list, "ab"), call1(int, "7"))


def type3(a, b, c):
    return type(a, b, c)


print("type 3 args", type3("Made", (), {}).__name__)
show("type 2 args", lambda: call2(type, 1, 2))
show("str 2 args", lambda: call2(str, b"ab", "ascii"))
show("tuple 0 args", lambda: tuple())


def deep(n):
    return abs(deep(n - 1)) if n else 0


show("recursion through builtin", lambda: deep(100))
