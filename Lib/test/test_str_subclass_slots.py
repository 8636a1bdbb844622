# A str subclass with __slots__ (configparser's _Line, pip's config): the
# code points live after the slots.
import sys
class Line(str):
    __slots__ = ('clean', 'has_comments')
    def __new__(cls, val, *args, **kw):
        return super().__new__(cls, val)
    def __init__(self, val, prefixes=()):
        self.clean = val.strip()
        self.has_comments = self.clean != val
for text in ("  hello  ", "é ascii? no", "€uro", "😀 wide", "", "x" * 1000):
    l = Line(text)
    print(repr(l)[:30], len(l), l.clean[:10], l.has_comments, l == text, hash(l) == hash(text), l.upper()[:8], l.encode()[:12], l[1:4])
class More(Line):
    __slots__ = ('extra',)
m = More("  abc")
m.extra = [1]
print(m, m.clean, m.extra, m + "!", f"{m:>8}|", str(m) is not m, type(str(m)).__name__)
try:
    Line("x").other = 1
except AttributeError as e:
    print("AttributeError:", e)
class WithDict(str):
    __slots__ = ('a', '__dict__')
w = WithDict("dict too"); w.a = 1; w.b = 2
print(w, w.a, w.b, sys.getsizeof(w) > sys.getsizeof("dict too"))
import configparser
cp = configparser.ConfigParser(); cp.read_string("[s]\nk = v ; c\n"); print(cp["s"]["k"])
import pickle
print(pickle.loads(pickle.dumps(Line("pick"))))
