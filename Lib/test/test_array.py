# Golden test for the array module: typecodes, conversions, sequence
# behaviour, the buffer protocol, pickling, files and fd passing.
import array
import os
import pickle
import socket
import tempfile
import warnings

warnings.simplefilter("ignore", DeprecationWarning)


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "!!", type(e).__name__, e)


print(array.typecodes == "bBuwhHiIlLqQfd")
for code in "bBhHiIlLqQ":
    for v in (-2**70, -2**63 - 1, -2**31 - 1, -129, -1, 0, 255, 256, 2**16,
              2**32, 2**64, 2**70, "x", 1.5):
        attempt("%s %r" % (code, v), lambda: array.array(code, [v]).tolist())
for code in "bBhHiIlLqQ":
    a = array.array(code)
    print(code, a.itemsize, a.typecode)
for code in "uwfd":
    for v in (1, "ab", 1.5, "x", "\U0001F600"):
        attempt("%s %r" % (code, v), lambda: array.array(code, [v]))

# construction
print(array.array("i", b"\x01\x00\x00\x00\x02\x00\x00\x00"))
print(array.array("h", range(5)), array.array("d", array.array("i", [1, 2])))
print(array.array("w", "héllo"), array.array("u", "ab"), array.array("B"))
attempt("str init", lambda: array.array("i", "ab"))
try:
    array.array("z")
except ValueError as e:
    print("bad code", str(e).startswith("bad typecode (must be b, B, u"))
attempt("bytes len", lambda: array.array("i", b"abc"))
attempt("no args", lambda: array.array())
attempt("not iterable", lambda: array.array("i", 5))

# sequence protocol
a = array.array("i", range(10))
print(len(a), a[0], a[-1], a[2:5], a[::3], a[::-2], a[8:2:-2], 5 in a, 50 in a)
attempt("a[10]", lambda: a[10])
attempt("a['x']", lambda: a["x"])
def setit(i, v):
    a[i] = v
    return a
attempt("a[10]=1", lambda: setit(10, 1))
attempt("a[0]='x'", lambda: setit(0, "x"))
attempt("a[0]=2**40", lambda: setit(0, 2**40))
attempt("a[-1]=99", lambda: setit(-1, 99))
a[1:3] = array.array("i", [7, 7, 7, 7])
print(a)
a[::2] = array.array("i", range(100, 106))
print(a)
attempt("ext size", lambda: setit(slice(None, None, 2), array.array("i", [1])))
attempt("slice list", lambda: setit(slice(0, 1), [1]))
attempt("slice kind", lambda: setit(slice(0, 1), array.array("d", [1])))
del a[::3]
print(a)
del a[2:4]
print(a)
del a[0]
print(a)
a[:] = a
print(a)
b = array.array("i", [1, 2]) + array.array("i", [3])
print(b, b * 3, 2 * b, b * 0, b * -1)
attempt("+list", lambda: b + [1])
attempt("+other kind", lambda: b + array.array("d"))
attempt("*str", lambda: b * "x")
b += array.array("i", [9])
b *= 2
print(b)
attempt("+=list", lambda: b.__iadd__([1]))
print(list(iter(b)), type(iter(b)).__name__)

# comparisons
x, y = array.array("i", [1, 2, 3]), array.array("d", [1.0, 2.0, 3.0])
print(x == y, x != y, x < array.array("i", [1, 3]), x <= x, x > y, x >= y)
print(array.array("i", [1]) < array.array("i", [1, 0]), x == [1, 2, 3])
attempt("x<1", lambda: x < 1)

# methods
a = array.array("i", [3, 1, 4, 1, 5, 9, 2, 6])
a.append(5)
a.extend([3, 5])
a.extend(array.array("i", [8]))
a.extend(a)
print(a, a.count(5), a.index(1), a.index(1, 2), a.index(5, -5), a.index(1, 0, 2))
attempt("index miss", lambda: a.index(1, 4, 5))
attempt("remove miss", lambda: a.remove(42))
attempt("extend kind", lambda: a.extend(array.array("d")))
a.remove(9)
a.insert(0, -1)
a.insert(-2, -2)
a.insert(100, -3)
a.insert(-100, -4)
print(a, a.pop(), a.pop(0), a.pop(-3))
attempt("pop range", lambda: a.pop(100))
attempt("pop empty", lambda: array.array("i").pop())
a.reverse()
print(a)
attempt("fromlist", lambda: a.fromlist(5))
before = len(a)
attempt("fromlist bad", lambda: a.fromlist([1, "x"]))
print(len(a) == before)
a.fromlist([10, 11])
print(a.tolist()[-2:])
h = array.array("H", [1, 0x0102])
h.byteswap()
print(h, h.tobytes())
addr, n = h.buffer_info()
print(type(addr).__name__, n)
w = array.array("w", "ab")
w.fromunicode("cd\U0001F600")
print(w, w.tounicode(), len(w), w[-1])
attempt("tounicode", lambda: a.tounicode())
attempt("fromunicode", lambda: a.fromunicode("x"))
attempt("fromunicode int", lambda: w.fromunicode(3))
print(repr(array.array("d", [0.5, -1e300])), repr(array.array("f", [0.25])))
print(array.array[int], array.ArrayType is array.array)

# bytes round trips for every typecode
for code in "bBuwhHiIlLqQfd":
    if code in "uw":
        src = array.array(code, "hi\u20ac")
    else:
        src = array.array(code, [0, 1, 100, 127])
    raw = src.tobytes()
    back = array.array(code)
    back.frombytes(raw)
    print(code, len(raw) == len(src) * src.itemsize, back == src)
attempt("frombytes len", lambda: array.array("i").frombytes(b"abc"))

# buffer protocol
a = array.array("i", [1, 2, 3])
m = memoryview(a)
print(m.format, m.itemsize, m.nbytes, m.tolist(), m.readonly)
m[0] = 40
print(a)
attempt("append exported", lambda: a.append(4))
attempt("extend exported", lambda: a.extend([4]))
attempt("pop exported", lambda: a.pop())
attempt("del exported", lambda: a.__delitem__(0))
attempt("frombytes exported", lambda: a.frombytes(b"\x00" * 4))
attempt("imul exported", lambda: a.__imul__(2))
a[1] = 20
print(a, m.tolist())
m.release()
a.append(4)
print(a, bytes(memoryview(array.array("B", [65, 66]))))
with memoryview(a) as m2:
    print(m2[1:].tolist())
a.pop()
print(a)

# pickling and copying
import copy
for code, init in (("i", [1, -2]), ("d", [0.5]), ("w", "xy"), ("Q", [2**64 - 1])):
    src = array.array(code, init)
    for proto in range(4):
        back = pickle.loads(pickle.dumps(src, proto))
        print(code, proto, back, back == src, type(back).__name__)
print(copy.copy(x), copy.deepcopy(x), copy.copy(x) is not x, copy.copy(s if False else x))
print(array._array_reconstructor(array.array, "i", 9, b"\x00\x00\x00\x07"))
print(array._array_reconstructor(array.array, "h", 4, b"\xff\xff"))
attempt("recon code", lambda: array._array_reconstructor(array.array, "i", 99, b""))
attempt("recon type", lambda: array._array_reconstructor(int, "i", 8, b""))

class Sub(array.array):
    pass
s = Sub("i", [1, 2])
s.tag = "t"
t = pickle.loads(pickle.dumps(s, 3))
print(type(t).__name__, t, t.tag, s[:1], type(s[:1]).__name__)

# files
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "data.bin")
    with open(path, "wb") as f:
        array.array("i", range(1000)).tofile(f)
    print(os.path.getsize(path))
    got = array.array("i")
    with open(path, "rb") as f:
        got.fromfile(f, 10)
        got.fromfile(f, 5)
        print(got.tolist())
        f.seek(-8, 2)
        attempt("fromfile short", lambda: got.fromfile(f, 3))
    print(len(got), got[-2:])
    attempt("fromfile neg", lambda: got.fromfile(open(path, "rb"), -1))

# fd passing uses array('i')
s1, s2 = socket.socketpair(socket.AF_UNIX)
r, w_ = os.pipe()
socket.send_fds(s1, [b"fds"], [r, w_])
msg, fds, flags, addr = socket.recv_fds(s2, 16, 4)
print(msg, len(fds))
os.write(fds[1], b"ping")
print(os.read(r, 4))
for fd in fds + [r, w_]:
    os.close(fd)
s1.close()
s2.close()

# assorted: hashing, weakrefs, iterators, aliasing, float edges
import weakref, sys
a = array.array('i', [1, 2])
try: hash(a)
except TypeError as e: print(e)
try: weakref.ref(a); print("weak ok")
except TypeError as e: print(e)
print(a.__sizeof__() > 0, sys.getsizeof(a) > 0)
it = iter(a); next(it)
print(list(it), list(it))
print(array.array('i', [1]) == array.array('i', [1]), bytes(a) == a.tobytes(), bytearray(a)[:4])
b = array.array('b', [1,2,3]); b[1:2] = b; print(b); b.extend(b); print(b)
c = array.array('i', [5,6,7]); c *= 0; print(c); c *= 3; print(c)
m = memoryview(array.array('d', [1.0, 2.0])); print(m.cast('B').nbytes, m[1])
print(array.array('f', [1e40]), array.array('f', [float('nan')]))
x = array.array('i', range(5)); x[5:2] = array.array('i', [9]); print(x)
print(array.array('i', [1,2]).__reduce_ex__(3)[1][2], array.array('d').__reduce_ex__(2))
print(isinstance(iter(a), type(iter(a))), type(iter(a)))

# slice get/set/delete against the list model
import random
rnd = random.Random(5)
bad = 0
bounds = [None, -12, -3, -1, 0, 1, 2, 5, 12]
for trial in range(2000):
    n = rnd.randrange(0, 9)
    arr, model = array.array("h", range(n)), list(range(n))
    s = slice(rnd.choice(bounds), rnd.choice(bounds), rnd.choice([None, 1, 2, 3, -1, -2, -4]))
    op = rnd.randrange(3)
    if op == 0:
        bad += arr[s].tolist() != model[s]
        continue
    if op == 1:
        del arr[s]
        del model[s]
    else:
        k = len(model[s]) if s.step not in (None, 1) else rnd.randrange(4)
        arr[s] = array.array("h", range(100, 100 + k))
        model[s] = list(range(100, 100 + k))
    bad += arr.tolist() != model
print("slice mismatches:", bad)

# iterator pickling
it = iter(array.array("i", [1, 2, 3]))
next(it)
print(it.__reduce__()[1:], list(pickle.loads(pickle.dumps(it, 3))))
list(it)
print(it.__reduce__()[1:])
it = iter(array.array("i", [1, 2]))
it.__setstate__(5)
print(list(it))
it = iter(array.array("i", [1, 2]))
it.__setstate__(-3)
print(list(it))
