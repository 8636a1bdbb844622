# ctypes over our _ctypes: libc calls, callbacks, structures, arrays,
# pointers, casts, errno, and the error cases.
import ctypes
import ctypes.util
from ctypes import *

def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)

libc = CDLL(ctypes.util.find_library('c'))
libc2 = cdll.LoadLibrary(ctypes.util.find_library('c'))
print("find_library", ctypes.util.find_library('c'))

# --- simple types
print(sizeof(c_int), sizeof(c_char), sizeof(c_double), sizeof(c_void_p), alignment(c_double))
print(c_int(5), c_int(5).value, c_uint(-1).value, c_ubyte(300).value, c_short(70000).value)
print(c_double(1.5), c_float(0.25).value, c_bool(3).value, c_char(b'x'), c_wchar('z'))
print(c_char_p(b'abc').value, c_wchar_p('hey').value, c_void_p().value, c_void_p(12).value)
print(bool(c_int(0)), bool(c_int(3)))
x = c_int(7); x.value = 9; print(x.value)
show("int from str", lambda: c_int("x"))
show("int from float", lambda: c_int(1.5))
show("double from str", lambda: c_double("x"))
show("char from str", lambda: c_char("ab"))
show("wchar from bytes", lambda: c_wchar(b"x"))
show("char_p from str", lambda: c_char_p("s"))

# --- libc calls
print("strlen", libc.strlen(b"hello"))
libc.strlen.argtypes = [c_char_p]
libc.strlen.restype = c_size_t
print("strlen typed", libc.strlen(b"hello world"))
show("strlen bad arg", lambda: libc.strlen(1.5))
show("strlen missing", lambda: libc.strlen())
print(libc.strlen.argtypes, libc.strlen.restype is c_size_t)
show("no such function", lambda: libc.no_such_function_xyz)
print("abs", libc.abs(-42))
libc.labs.restype = c_long
libc.labs.argtypes = (c_long,)
print("labs", libc.labs(-(2**40)))
show("untyped float", lambda: libc.abs(1.5))
libc.atof.restype = c_double
print("atof", libc.atof(b"2.5"))
snp = libc.snprintf
buf = create_string_buffer(64)
n = snp(buf, 64, b"%d-%s-%.2f", 12, b"ab", c_double(3.14159))
print("snprintf", n, buf.value)

# errcheck
def check(result, func, args):
    print("errcheck got", result, func is libc.abs, args)
    return result * 10
libc.abs.errcheck = check
print("abs errcheck", libc.abs(-4))
del libc.abs.errcheck

# --- callbacks: qsort
CMP = CFUNCTYPE(c_int, POINTER(c_int), POINTER(c_int))
def py_cmp(a, b):
    return a[0] - b[0]
arr = (c_int * 6)(5, 1, 4, 2, 3, 0)
libc.qsort(arr, len(arr), sizeof(c_int), CMP(py_cmp))
print("qsort", list(arr))
def rev(a, b):
    return b.contents.value - a.contents.value
libc.qsort(arr, len(arr), sizeof(c_int), CMP(rev))
print("qsort rev", list(arr))
ADD = CFUNCTYPE(c_int, c_int, c_int)
add = ADD(lambda a, b: a + b)
print("callback direct", add(2, 3))

# --- paramflags: named, defaulted and output parameters
FREXP = CFUNCTYPE(c_double, c_double, POINTER(c_int))
frexp = FREXP(("frexp", libc), ((1, "x"), (2, "exp")))
print("paramflags out", frexp(8.0), frexp(x=0.5))
STRTOL = CFUNCTYPE(c_long, c_char_p, c_void_p, c_int)
strtol = STRTOL(("strtol", libc), ((1, "s"), (1, "end", None), (1, "base", 10)))
print("paramflags defaults", strtol(b"42"), strtol(b"ff", base=16), strtol(s=b"17", base=8))
show("paramflags missing", lambda: strtol())
show("paramflags length", lambda: STRTOL(("strtol", libc), ((1, "s"),)))

# --- structures, unions, bitfields, _pack_
class POINT(Structure):
    _fields_ = [("x", c_int), ("y", c_int)]
class RECT(Structure):
    _fields_ = [("a", POINT), ("b", POINT)]
p = POINT(1, 2)
print("point", p.x, p.y, sizeof(POINT), POINT.x.offset, POINT.y.offset)
r = RECT(POINT(1, 2), (3, 4))
print("rect", r.a.x, r.b.y, sizeof(r))
r.a.x = 10
print("nested set", r.a.x)
show("too many", lambda: POINT(1, 2, 3))
q = POINT(y=5)
print("kw", q.x, q.y)
class Mixed(Structure):
    _fields_ = [("c", c_char), ("d", c_double), ("s", c_short)]
print("mixed", sizeof(Mixed), Mixed.d.offset, Mixed.s.offset, alignment(Mixed))
class Packed(Structure):
    _layout_ = 'ms'
    _pack_ = 1
    _fields_ = [("c", c_char), ("d", c_double)]
print("packed", sizeof(Packed), Packed.d.offset)
class U(Union):
    _fields_ = [("i", c_int), ("b", c_ubyte * 4)]
u = U(); u.i = 0x01020304
print("union", sizeof(U), list(u.b))
class BF(Structure):
    _fields_ = [("a", c_int, 3), ("b", c_uint, 5), ("c", c_int, 8)]
bf = BF(); bf.a = 3; bf.b = 31; bf.c = -2
print("bitfields", bf.a, bf.b, bf.c, sizeof(BF))
bf.a = 5
print("bitfield sign", bf.a)
show("bad bitfield", lambda: type("Bad", (Structure,), {"_fields_": [("x", c_double, 3)]}))
class Later(Structure):
    pass
Later._fields_ = [("v", c_int), ("next", POINTER(Later))]
print("later", sizeof(Later))
def refinal():
    Later._fields_ = [("v", c_int)]
show("final", refinal)

# --- arrays
IntArr = c_int * 4
a = IntArr(1, 2, 3)
print("array", len(a), a[0], a[-1], a[1:3], list(a), IntArr is c_int * 4)
a[3] = 9
print("array set", list(a), sizeof(a))
show("array index", lambda: a[4])
show("array init", lambda: IntArr(1, 2, 3, 4, 5))
s = create_string_buffer(b"hello", 10)
print("string buffer", s.value, s.raw, len(s), sizeof(s))
s.value = b"bye"
print(s.value, s[0], s[:3])
w = create_unicode_buffer("wide")
print("unicode buffer", w.value, len(w))
two = (c_int * 2 * 3)()
two[1][0] = 7
print("2d", [list(row) for row in two])

# --- pointers
i = c_int(42)
pi = pointer(i)
print("pointer", pi.contents.value, pi[0], bool(pi))
pi[0] = 43
print("through pointer", i.value)
print(POINTER(c_int) is type(pi), POINTER(c_int) is POINTER(c_int))
np = POINTER(c_int)()
print("null", bool(np))
show("null access", lambda: np[0])
show("null contents", lambda: np.contents)
show("wrong contents", lambda: setattr(pi, 'contents', 5))
pr = pointer(POINT(3, 4))
print("struct pointer", pr.contents.x, pr[0].y)

# --- cast, memmove, memset, string_at, addressof, byref
arr2 = (c_char * 8)()
memmove(arr2, b"abcdef", 6)
print("memmove", arr2.value)
memset(arr2, ord('z'), 3)
print("memset", arr2.value)
print("string_at", string_at(arr2, 4), string_at(c_char_p(b"full")))
cp = cast(arr2, c_char_p)
print("cast", cp.value)
ip = cast(addressof(a), POINTER(c_int))
print("cast addr", ip[0], ip[3])
j = c_int(1)
pj = pointer(j)
print("cast void", cast(pj, c_void_p).value == addressof(j))
print("extra args", libc.strlen(b"ab", 2))
show("cast bad", lambda: cast(1, c_int))
v = c_int(0)
libc.sscanf(b"123", b"%d", byref(v))
print("byref", v.value)
print("from_address", c_int.from_address(addressof(i)).value)
ba = bytearray(8)
fb = c_int.from_buffer(ba); fb.value = 258
print("from_buffer", list(ba[:4]))
print("from_buffer_copy", c_int.from_buffer_copy(b"\x05\x00\x00\x00").value)
show("sizeof bad", lambda: sizeof(5))
show("byref bad", lambda: byref(5))

# --- errno
lib_e = CDLL(ctypes.util.find_library('c'), use_errno=True)
set_errno(0)
lib_e.strtol(b"99999999999999999999999", None, 10)
print("errno", get_errno() == 34)
print("set_errno old", set_errno(5), get_errno())

# --- resize
sb = create_string_buffer(4)
resize(sb, 32)
print("resize", sizeof(sb))
show("resize small", lambda: resize(sb, 1))
# printf writes through C's stdio: flush both sides around it
import sys
sys.stdout.flush()
libc.printf(b"printf %d %s %c\n", 7, b"str", ord("!"))
libc.fflush(None)
print("done")
