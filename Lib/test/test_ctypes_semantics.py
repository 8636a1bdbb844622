# ctypes semantics beyond the basics: buffers and memoryviews of ctypes
# objects, from_buffer/from_address, cast and the keep-alive dicts,
# abstract bases, bitfields, unions, arrays of structures, callbacks of
# several signatures, byref/pointer, use_errno, ArgumentError messages, and
# the _ctypes_test helpers.  Addresses and ids are never printed.
#
# The .exp is python3.13's output with the 3.14 changes edited in: the
# bitfield layout of ctypes._layout (gcc-sysv: 'd' moves to the next
# ushort instead of being lost), CField's new repr, and the field name in
# "number of bits invalid for bit field 'a'".
import ctypes
import errno
import sys
import _ctypes
import _ctypes_test
from ctypes import *

def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)

def keys(objs):
    """A keep-alive dict with id() keys shown as 'id' (they vary by run)."""
    if not isinstance(objs, dict):
        return objs
    return sorted(('id' if isinstance(k, int) else k) for k in objs)

dll = CDLL(_ctypes_test.__file__)

# --- memoryviews of ctypes objects: a scalar is 0-dim, an array n-dim
for t in (c_char, c_int, c_double, c_char * 3, c_int * 2 * 3):
    v = memoryview(t())
    print("mv", t.__name__, v.format, v.shape, v.ndim, v.itemsize, v.nbytes, v.readonly)
class Pt(Structure):
    _fields_ = [("x", c_int), ("y", c_int)]
v = memoryview(Pt(1, 2))
print("mv struct", v.format, v.shape, v.ndim, v.itemsize, v.tobytes())
v = memoryview((Pt * 2)())
print("mv struct array", v.format, v.shape, v.ndim, v.itemsize)
show("len 0-dim", lambda: len(memoryview(c_int())))

# --- from_buffer, from_buffer_copy, from_address
show("from_buffer bytes", lambda: (c_char * 4).from_buffer(b"abcd"))
show("from_buffer ro strided", lambda: (c_char * 8).from_buffer(memoryview(b"a" * 16)[::2]))
show("from_buffer rw strided", lambda: (c_char * 8).from_buffer(memoryview(bytearray(16))[::2]))
show("from_buffer small", lambda: (c_int * 4).from_buffer(bytearray(8)))
show("from_buffer negative", lambda: c_int.from_buffer(bytearray(8), -1))
show("from_buffer offset", lambda: c_int.from_buffer(bytearray(4), 2))
show("from_buffer int", lambda: c_int.from_buffer(5))
ba = bytearray(b"\x01\x00\x00\x00\x02\x00\x00\x00")
arr = (c_int * 2).from_buffer(ba)
print("from_buffer", list(arr))
arr[1] = 7
print("shared", ba[4], arr._objects is not None)
show("resize while viewed", lambda: ba.extend(b"x"))
second = c_int.from_buffer(ba, 4)
print("offset view", second.value)
cp = (c_int * 2).from_buffer_copy(ba)
ba[0] = 9
print("copy independent", list(cp), ba[0])
show("copy small", lambda: (c_int * 4).from_buffer_copy(b"1234"))
show("copy strided", lambda: (c_char * 4).from_buffer_copy(memoryview(b"abcdefgh")[::2]))
src = c_int(1234)
alias = c_int.from_address(addressof(src))
alias.value = 99
print("from_address", src.value, alias._b_needsfree_)
show("from_address str", lambda: c_int.from_address("x"))

# --- cast keeps its source alive and shares its keep-alive dict
a = (c_char_p * 3)()
print("array objects", a._objects)
a[0] = b"zero"
p = cast(a, POINTER(c_char_p))
print("shared dict", p._objects is a._objects, keys(a._objects))
p[2] = b"two"
print("after p[2]", keys(a._objects), a[2])
ip = cast((c_int * 2)(5, 6), POINTER(c_int))
print("kept source", ip[0], ip[1], keys(ip._objects))
print("cast int", cast(16, c_void_p).value, cast(16, c_void_p)._objects)
vp = c_void_p(5)
print("cast simple", keys(cast(vp, POINTER(c_int))._objects), keys(vp._objects))
sp = c_char_p(b"abc")
print("cast char_p", cast(sp, POINTER(c_char))._objects)
show("cast to int", lambda: cast(a, c_int))
show("from_address float", lambda: c_int.from_address(1.5))
show("PyObj_FromPtr str", lambda: _ctypes.PyObj_FromPtr("x"))
x = c_char_p()
px = POINTER(c_char_p)(x)
px[0] = b"s"
print("pointer item keys", keys(px._objects))

# --- abstract bases
class Base(Structure):
    _abstract_ = True
class Concrete(Base):
    _fields_ = [("a", c_int)]
class Inherits(Base):
    pass
show("abstract", lambda: Base())
show("abstract from_buffer", lambda: Base.from_buffer(bytearray(8)))
show("concrete", lambda: Concrete(3).a)
show("inherits", lambda: type(Inherits()).__name__)
class UBase(Union):
    _abstract_ = 1
show("abstract union", lambda: UBase())
for t in (Structure, Union, Array, ctypes._SimpleCData, ctypes._CFuncPtr):
    show("base " + t.__name__, lambda: t())

# --- _fields_ assigned before the type exists
def early_fields():
    class Broken(Structure):
        def __init_subclass__(cls, **kw):
            cls._fields_ = []
    class Sub(Broken):
        pass
show("init_subclass fields", early_fields)
class Once(Structure):
    _fields_ = [("a", c_int)]
show("fields twice", lambda: setattr(Once, "_fields_", []))

# --- bitfields
class Bits(Structure):
    _fields_ = [("a", c_uint, 3), ("b", c_uint, 5), ("c", c_int, 4), ("d", c_ushort, 9)]
b = Bits(5, 17, -3, 300)
print("bits", b.a, b.b, b.c, b.d, sizeof(Bits))
b.a = 9                              # truncated to 3 bits
b.c = 7
print("bits wrap", b.a, b.c, bytes(b).hex())
print("bit field repr", Bits.a, Bits.c)
for f in [("a", c_int, 0), ("a", c_int, 33), ("a", c_char_p, 1), ("a", c_double, 2),
          ("a", Pt, 1), ("a", c_int, -1)]:
    show("bad bitfield " + repr(f[1:]),
         lambda f=f: type("B", (Structure,), {"_fields_": [f]}))
class Dummy(c_int):
    pass
show("subclass bitfield", lambda: sizeof(type("B", (Structure,), {"_fields_": [("a", Dummy, 1)]})))
class BigBits(BigEndianStructure):
    _fields_ = [("hi", c_ushort, 4), ("lo", c_ushort, 12)]
bb = BigBits(0xA, 0x123)
print("big endian bits", bytes(bb).hex(), bb.hi, hex(bb.lo))

# --- unions
class U(Union):
    _fields_ = [("i", c_uint), ("b", c_ubyte * 4), ("f", c_float)]
u = U()
u.i = 0x01020304
print("union", sizeof(U), list(u.b) if sys.byteorder == "little" else list(reversed(u.b)))
u.f = 1.0
print("union float bits", hex(u.i))
class Tagged(Structure):
    _anonymous_ = ("u",)
    _fields_ = [("tag", c_int), ("u", U)]
t = Tagged(1)
t.i = 5
print("anonymous", t.tag, t.i, t.u.i, Tagged.i.offset)

# --- arrays of structures
Pts = Pt * 3
ps = Pts(Pt(1, 2), Pt(3, 4))
print("struct array", [(q.x, q.y) for q in ps], sizeof(Pts))
ps[2] = Pt(5, 6)
ps[0].x = 10                         # a view into the array
print("struct array set", [(q.x, q.y) for q in ps])
show("struct array bad", lambda: ps.__setitem__(1, 5))
show("struct array index", lambda: ps[3])
show("too many", lambda: Pts(Pt(), Pt(), Pt(), Pt()))
print("slice", [(q.x, q.y) for q in ps[1:]], len(ps[::2]))
class Poly(Structure):
    _fields_ = [("n", c_int), ("pts", Pt * 2)]
poly = Poly(2, (Pt * 2)(Pt(7, 8), Pt(9, 10)))
print("nested", poly.n, poly.pts[1].y, sizeof(Poly))
grid = ((c_int * 3) * 2)((1, 2, 3), (4, 5, 6))
print("2d", [list(r) for r in grid], grid[1][2])

# --- callbacks of several signatures
CB_ii = CFUNCTYPE(c_int, c_int)
print("callback i(i)", dll._testfunc_callback_i_if(-10, CB_ii(lambda v: v)))
CB_qq = CFUNCTYPE(c_longlong, c_longlong)
dll._testfunc_callback_q_qf.restype = c_longlong
print("callback q(q)", dll._testfunc_callback_q_qf(c_longlong(10 ** 10), CB_qq(lambda v: v)))
CB_dd = CFUNCTYPE(c_double, c_double)
dll.integrate.restype = c_double
dll.integrate.argtypes = (c_double, c_double, CB_dd, c_long)
print("integrate", round(dll.integrate(0.0, 1.0, CB_dd(lambda v: v * v), 100), 4))
CB_v = CFUNCTYPE(None, c_int, c_char_p, c_double)
got = []
cb = CB_v(lambda i, s, d: got.append((i, s, d)))
cb(1, b"x", 2.5)
print("void callback", got)
def raising(v):
    raise ValueError("from callback")
# An exception in a callback cannot propagate through C: it is reported
# through sys.unraisablehook and the C caller sees an undefined result.
sys.unraisablehook = lambda u: print("unraisable", type(u.exc_value).__name__, u.exc_value)
dll._testfunc_callback_i_if(3, CB_ii(raising))
CB_p = CFUNCTYPE(c_int, POINTER(c_int))
def bump(p):
    p[0] += 1
    return p[0]
print("pointer callback", dll._testfunc_callback_with_pointer(CB_p(bump)))
print("callback repr", type(CB_ii(abs)).__name__, CB_ii._restype_ is c_int, CB_ii._argtypes_)
show("callback not callable", lambda: type(CB_ii(5)).__name__)
CB_ii(lambda v: "s")(1)
sys.unraisablehook = sys.__unraisablehook__

# --- byref and pointer
n = c_int(5)
r = byref(n)
print("byref", type(r).__name__, r._obj is n)
show("byref offset", lambda: byref(n, 2)._obj is n)
show("byref int", lambda: byref(5))
pn = pointer(n)
pn.contents.value = 6
print("pointer", n.value, pn[0], pn._objects == {'1': n})
pn[0] = 8
print("pointer store", n.value, bool(pn), bool(POINTER(c_int)()))
show("null deref", lambda: POINTER(c_int)()[0])
show("null contents", lambda: POINTER(c_int)().contents)
pp = pointer(pn)
print("pointer to pointer", pp.contents.contents.value, pp[0][0])
show("pointer to int", lambda: pointer(5))
dll._testfunc_p_p.restype = POINTER(c_int)
dll._testfunc_p_p.argtypes = (POINTER(c_int),)
print("byref arg", dll._testfunc_p_p(byref(n))[0], dll._testfunc_p_p(pn)[0],
      dll._testfunc_p_p(n)[0])
show("wrong pointer arg", lambda: dll._testfunc_p_p(byref(c_double())))
show("wrong pointer arg 2", lambda: dll._testfunc_p_p(pointer(c_short())))

# --- use_errno
lib = CDLL(None, use_errno=True)
lib.close.argtypes = (c_int,)
set_errno(0)
print("close", lib.close(-1), get_errno() == errno.EBADF)
old = set_errno(123)
print("set_errno", old == errno.EBADF, get_errno())
plain = CDLL(None)
set_errno(0)
plain.close(-1)
print("no use_errno", get_errno())

# --- ArgumentError messages
dll._testfunc_i_bhilfd.argtypes = (c_byte, c_short, c_int, c_long, c_float, c_double)
dll._testfunc_i_bhilfd.restype = c_int
print("bhilfd", dll._testfunc_i_bhilfd(1, 2, 3, 4, 5.0, 6.0))
show("arg 3 wrong", lambda: dll._testfunc_i_bhilfd(1, 2, "x", 4, 5.0, 6.0))
show("arg 5 wrong", lambda: dll._testfunc_i_bhilfd(1, 2, 3, 4, "f", 6.0))
show("too few", lambda: dll._testfunc_i_bhilfd(1, 2))
show("too many", lambda: dll._testfunc_i_bhilfd(1, 2, 3, 4, 5, 6, 7))
show("char_p arg", lambda: CFUNCTYPE(c_int, c_char_p)(lambda s: 0)("str"))
try:
    dll._testfunc_i_bhilfd(1, 2, 3, 4, 5.0, None)
except ctypes.ArgumentError as e:
    print("ArgumentError", e.args, isinstance(e, Exception))

# --- VARIANT_BOOL and wintypes
from ctypes import wintypes
vb = wintypes.VARIANT_BOOL()
print("variant bool", vb.value, sizeof(vb))
vb.value = True
print("variant true", bytes(vb).hex(), vb.value, vb)
vb.value = "nonempty"
print("variant truthy", vb.value, memoryview(vb).format)
print("wintypes", sizeof(wintypes.DWORD), sizeof(wintypes.RECT), wintypes.POINT(1, 2).y)

# --- _ctypes_test helpers
class RECT(Structure):
    _fields_ = [("left", c_long), ("top", c_long), ("right", c_long), ("bottom", c_long)]
class POINT(Structure):
    _fields_ = [("x", c_long), ("y", c_long)]
corners = [c_long.in_dll(dll, n).value for n in ("left", "top", "right", "bottom")]
rect = RECT(*corners)
pt = POINT(15, 25)
dll.PointInRect.argtypes = [POINTER(RECT), POINT]
print("point in rect", dll.PointInRect(byref(rect), pt), dll.PointInRect(byref(rect), POINT(0, 0)))
dll.ReturnRect.argtypes = [c_int, RECT, POINTER(RECT), POINT, RECT, POINTER(RECT), POINT, RECT]
dll.ReturnRect.restype = RECT
for i in range(5):
    ret = dll.ReturnRect(i, rect, pointer(rect), pt, rect, byref(rect), pt, rect)
    print("return rect", i, (ret.left, ret.top, ret.right, ret.bottom) == tuple(corners))
trace = []
class Arg(Structure):
    _fields_ = [("a", c_void_p)]
    def __del__(self):
        trace.append(4)
    @classmethod
    def from_param(cls, value):
        trace.append(2)
        return cls()
append = PyDLL(_ctypes_test.__file__)._testfunc_pylist_append
append.restype = c_int
append.argtypes = [py_object, py_object, Arg]
trace.append(1)
append(trace, 3, "dummy")
trace.append(5)
print("argument lifetime", trace)

# --- prototypes: the constructor forms, paramflags, errcheck with outputs
V3 = CFUNCTYPE(None, c_int, c_int, POINTER(c_int))
for label, args in (("callable+extra", (abs, 1)), ("str", ("x",)), ("int+extra", (1, 2, 3)),
                    ("spec+2", (("x", dll), None, 3)), ("short spec", (("_testfunc_v",),)),
                    ("bad handle", (("_testfunc_v", 5),)), ("list", ([],)), ("float", (1.5,))):
    show("proto " + label, lambda: type(V3(*args)).__name__)
print("proto null", bool(V3()), bool(V3(0)))
f = V3(("_testfunc_v", dll), ((1, "a"), (1, "b", 5), (2, "out")))
show("paramflags out", lambda: f(21))
show("paramflags kw", lambda: f(a=4, b=1))
show("paramflags default", lambda: f(1))
show("paramflags missing", lambda: f())
show("paramflags twice", lambda: f(1, a=1))
show("paramflags extra", lambda: f(1, 2, 3))
show("paramflags unknown kw", lambda: f(1, c=3))
show("paramflags out given", lambda: f(1, 2, out=3))
for flag in range(9):
    show("paramflag %d" % flag,
         lambda: type(V3(("_testfunc_v", dll), ((1, "a"), (1, "b"), (flag, "c")))).__name__)
show("paramflags short", lambda: V3(("_testfunc_v", dll), ((1, "a"),)))
show("paramflags not tuples", lambda: V3(("_testfunc_v", dll), (5, (1, "b"), (2, "c"))))
show("out not pointer", lambda: CFUNCTYPE(None, c_int)(("_testfunc_v", dll), ((2, "x"),)))
g = V3(("_testfunc_v", dll), ((1, "a"), (1, "b"), (3, "out", pointer(c_int(0)))))
r = g(1, 2)
print("inout default", type(r).__name__, r[0])
h = V3(("_testfunc_v", dll), ((1, "a"), (1, "b"), (3, "out")))
print("inout byref", type(h(1, 2, byref(c_int(0)))).__name__, repr(h(3, 4, c_int(0))))
def passthrough(res, func, args):
    print("errcheck sees", res, func is f, [type(a).__name__ for a in args])
    return args
f.errcheck = passthrough
print("errcheck args", f(1, 2))
f.errcheck = lambda res, func, args: "replaced"
print("errcheck other", f(1, 2))
print("from_outparam", c_int(3).__ctypes_from_outparam__(),
      type(pointer(c_int()).__ctypes_from_outparam__()).__name__,
      type((c_int * 2)().__ctypes_from_outparam__()).__name__)

# --- type * n makes array types
for label, fn in (("int*3", lambda: c_int * 3), ("3*int", lambda: 3 * c_int),
                  ("int*True", lambda: c_int * True), ("int*2.5", lambda: c_int * 2.5),
                  ("2.5*int", lambda: 2.5 * c_int), ("array*str", lambda: (c_int * 2) * "x"),
                  ("str*array", lambda: "x" * (c_int * 2)), ("struct*2", lambda: Pt * 2),
                  ("pointer*2", lambda: POINTER(c_int) * 2), ("func*2", lambda: V3 * 2),
                  ("int*-1", lambda: c_int * -1), ("int*2**62", lambda: c_int * 2 ** 62)):
    show("repeat " + label, lambda: (fn().__name__, sizeof(fn())))
show("dlclose str", lambda: _ctypes.dlclose("x"))

# --- class definitions that are refused
for label, make in (
        ("pointer _type_ 5", lambda: type("P", (ctypes._Pointer,), {"_type_": 5})),
        ("pointer _type_ int", lambda: type("P", (ctypes._Pointer,), {"_type_": int})),
        ("funcptr _flags_ str", lambda: type("F", (ctypes._CFuncPtr,),
                                             {"_flags_": "x", "_argtypes_": (), "_restype_": c_int})),
        ("funcptr no _flags_", lambda: type("F", (ctypes._CFuncPtr,),
                                            {"_argtypes_": (), "_restype_": c_int})),
        ("funcptr _restype_ 5", lambda: type("F", (ctypes._CFuncPtr,),
                                             {"_flags_": 1, "_argtypes_": (), "_restype_": 5})),
        ("funcptr _argtypes_ item", lambda: type("F", (ctypes._CFuncPtr,),
                                                 {"_flags_": 1, "_argtypes_": (5,), "_restype_": c_int}))):
    show(label, lambda: make().__name__)
show("restype 5", lambda: setattr(CDLL(None).abs, "restype", 5))
show("del field", lambda: delattr(Pt(), "x"))
show("del value", lambda: delattr(c_int(), "value"))

# --- callbacks entered from threads: C threads made by pthread_create, and
# Python threads whose C calls call back
import threading
libc_threads = CDLL(None)
entered = []
START = CFUNCTYPE(c_void_p, c_void_p)
def thread_start(arg):
    entered.append((arg, threading.current_thread() is not threading.main_thread()))
    return arg
start_cb = START(thread_start)
tids = []
for i in range(3):
    tid = c_ulong()
    print("pthread_create", libc_threads.pthread_create(byref(tid), None, start_cb, c_void_p(i + 1)))
    tids.append(tid)
for tid in tids:
    libc_threads.pthread_join(tid, None)
print("C threads", sorted(entered))
sorted_ok = []
def sorter():
    CMP = CFUNCTYPE(c_int, POINTER(c_int), POINTER(c_int))
    arr = (c_int * 40)(*range(40, 0, -1))
    libc_threads.qsort(arr, 40, sizeof(c_int), CMP(lambda a, b: a[0] - b[0]))
    sorted_ok.append(list(arr) == list(range(1, 41)))
workers = [threading.Thread(target=sorter) for _ in range(3)]
for w in workers:
    w.start()
for w in workers:
    w.join()
print("Python threads", sorted_ok)

# --- ctypes instances are unhashable unless their class says otherwise
class Hashable(c_int):
    def __hash__(self):
        return 7
for obj in (c_int(1), Pt(), (c_int * 2)(), pointer(c_int()), c_char_p(b"x"),
            CFUNCTYPE(None)(lambda: None), Hashable(1)):
    show("hash " + type(obj).__name__, lambda: hash(obj))

# --- a pointer's contents is a view based on the pointer
target = c_int(1)
ptr = pointer(target)
view = ptr.contents
print("contents", view is target, view._b_base_ is ptr, view._objects, view._b_needsfree_)
view.value = 3
print("contents store", target.value)
def temporary_contents():
    return pointer(c_int(5)).contents
held = temporary_contents()
junk = [bytes(64) for _ in range(2000)]
print("contents outlives pointer", held.value, type(held._b_base_).__name__)

# --- what from_param hands a call: None and arrays/pointers pass as they
# are, other values are wrapped (a CArgObject) or refused
samples = [None, 5, b"x", bytearray(b"x"), c_char_p(b"x"), c_void_p(3), (c_char * 3)(),
           (c_wchar * 3)(), (c_int * 3)(), pointer(c_int()), pointer(c_char()), byref(c_int()),
           byref(c_char()), c_int(1), 1.5]
for T in (c_char_p, c_wchar_p, c_void_p, POINTER(c_char), POINTER(c_int)):
    for v in samples:
        show("%s.from_param(%s)" % (T.__name__, type(v).__name__),
             lambda: type(T.from_param(v)).__name__)
libc_fp = CDLL(None)
libc_fp.strlen.argtypes = [c_char_p]
print("strlen of array", libc_fp.strlen((c_char * 4)(b"a", b"b")), "of pointer",
      libc_fp.strlen(cast(create_string_buffer(b"xyz"), POINTER(c_char))))
libc_fp.memset.argtypes = [c_void_p, c_int, c_size_t]
buf = (c_ubyte * 4)()
libc_fp.memset(buf, 7, 4)
print("memset array", list(buf), type(byref(c_int())))

# --- `Cls * n` is cached per (item type, length) without keeping either
# alive: a structure class made and dropped in a loop goes away with its
# array types.  (CPython 3.13 keeps the item type alive for good; the .exp
# has our behaviour, both None.)
import gc
import weakref
class Tmp(Structure):
    _fields_ = [("x", c_int)]
A = Tmp * 2
print("array cache", (Tmp * 2) is A, A.__name__, A._type_ is Tmp)
refs = weakref.ref(Tmp), weakref.ref(A)
del Tmp, A
gc.collect()
print("array cache after del", [r() for r in refs])
print("array cache refilled", (c_int * 7) is (c_int * 7))
