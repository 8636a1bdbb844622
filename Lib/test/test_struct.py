# struct: format parsing, sizes and alignment, every format code both ways,
# the Struct type, buffers, and CPython's error messages.
import struct
from struct import pack, unpack, calcsize, Struct, error


def show(f, *args, **kwargs):
    try:
        r = f(*args, **kwargs)
    except Exception as e:
        r = "%s: %s" % (type(e).__name__, e)
    print(r)


# ---- Sizes and alignment ----
for fmt in ["", "b", "B", "c", "?", "h", "H", "i", "I", "l", "L", "q", "Q", "n", "N", "P",
            "e", "f", "d", "x", "s", "p", "5s", "5p", "0s", "3x", "bh", "bi", "bq", "hbq",
            "ci", "dcx", "bd0l", "q2b", " i  h ", "2h3i", "10c"]:
    print(repr(fmt), [calcsize(order + fmt) if (order == "@" or fmt.strip("@ ") == "" or
                                                not set(fmt) & set("nNP")) else "-"
                      for order in "@=<>!"])
for fmt in ["y", "3", "<n", ">P", "!N", "i 3", "\0", "b\0", "2 i", "-1i", "99999999999999999999b"]:
    show(calcsize, fmt)
show(calcsize, b"<ii")
show(calcsize, "@ih")
show(calcsize, "=@ih")
show(calcsize, 5)
show(calcsize, "9223372036854775807s")
show(calcsize, "4611686018427387904h")

# ---- Integers in every order ----
ints = [("b", -128), ("b", 127), ("B", 255), ("h", -32768), ("H", 65535), ("i", -2**31),
        ("I", 2**32 - 1), ("l", -2**31), ("L", 2**32 - 1), ("q", -2**63), ("Q", 2**64 - 1),
        ("b", 0), ("h", 258), ("i", 0x01020304), ("q", 0x0102030405060708)]
for code, v in ints:
    for order in "<>=!":
        d = pack(order + code, v)
        print(order + code, v, d, unpack(order + code, d)[0] == v)
for code, v in [("n", -2**63), ("N", 2**64 - 1), ("P", 2**64 - 1), ("l", -2**63), ("L", 2**64 - 1)]:
    d = pack(code, v)
    print(code, len(d), unpack(code, d)[0] == v)

# Out of range and not integers.
for fmt, v in [("b", 128), ("b", -129), ("B", 256), ("B", -1), ("h", 32768), ("H", -1),
               ("H", 65536), ("i", 2**31), ("I", -1), ("I", 2**32), ("l", 2**63), ("L", -1),
               ("q", 2**63), ("Q", -1), ("Q", 2**64), ("n", 2**63), ("N", -1), ("P", -1),
               ("<b", 128), ("<B", 256), ("<h", -32769), ("<H", 65536), ("<i", 2**31),
               ("<I", 2**32), ("<l", 2**31), ("<L", -1), ("<q", 2**63), ("<Q", 2**64),
               (">q", -2**63 - 1), ("<Q", -1), ("i", 1.5), ("i", "1"), ("Q", None),
               ("<h", 2.0), ("?", object()), ("c", 1), ("c", b"ab"), ("c", "a"),
               ("s", "str"), ("p", 1), ("f", "x"), ("d", None), ("e", 1e6), ("f", 1e300),
               ("<e", 65520.0), ("e", 65519.0), ("P", 1.0), ("<f", 1e300), (">f", -1e39),
               ("<f", 3.4028235e38), ("<f", 3.40282357e38)]:
    show(pack, fmt, v)


class Idx:
    def __index__(self):
        return 7


class Flt:
    def __float__(self):
        return 2.5


print(pack("<iQb", Idx(), Idx(), True), pack("<d", Flt()), pack("<f", 3), pack("<d", Idx()))
show(pack, "<i", Flt())

# ---- Floats ----
for code in "efd":
    for v in [0.0, -0.0, 1.0, -2.5, 0.1, 1e-8, 65504.0, 6e-8, 3.4e38, float("inf"),
              -float("inf")]:
        for order in "<>":
            try:
                d = pack(order + code, v)
            except OverflowError as e:
                print(order + code, v, "OverflowError", e)
                continue
            print(order + code, v, d, unpack(order + code, d)[0])
for code in "efd":
    d = pack("<" + code, float("nan"))
    r = unpack("<" + code, d)[0]
    print(code, r != r)
print(unpack("<e", b"\x01\x00"), unpack("<e", b"\x00\x7c"), unpack(">f", b"\x7f\x7f\xff\xff"))
print(pack("<e", 2.0**-25), pack("<e", 2.0**-24 * 1.5), pack("<e", 1 + 2**-11), pack("<e", 1 + 3 * 2**-11))

# ---- Bools, chars, strings, pads ----
print(pack("????", 0, 1, "", [1]), unpack("????", b"\x00\x01\x02\xff"))
print(pack("c3c", b"a", b"b", b"c", b"d"), unpack("cc", b"xy"))
show(pack, "c", bytearray(b"c"))
print(pack("5s", b"ab"), pack("2s", b"abcdef"), pack("0s", b"zz"), pack("s", b""),
      pack("3s", bytearray(b"xyz")))
print(pack("5p", b"ab"), pack("3p", b"abcdef"), pack("1p", b"x"), pack("0p", b"x"),
      unpack("5p", b"\x09abcd"), unpack("5p", b"\x02abcd"))
long_p = pack("300p", b"q" * 299)
print(len(long_p), long_p[0], unpack("300p", long_p)[0] == b"q" * 255)
print(pack("x2xbx", 7), unpack("xbx", b"\x00\x05\x00"), pack("<3xh", 1))
print(pack("@bhbi", 1, 2, 3, 4), pack("=bhbi", 1, 2, 3, 4), unpack("@bhbi", pack("@bhbi", 1, 2, 3, 4)))
print(pack("@bq", 1, 2), pack("@b0q", 1), pack("@bd", 1, 2.0)[:9])

# ---- Argument counts and buffers ----
show(pack, "hh", 1)
show(pack, "hh", 1, 2, 3)
show(pack, "3s2p", b"a")
show(pack)
show(pack, 1)
show(unpack, "h", b"abc")
show(unpack, "<i", bytearray(b"\x01\x00\x00\x00"))
show(unpack, "h", "ab")
show(unpack, "0s", b"")

# ---- Struct objects ----
s = Struct("<hHi4sd")
print(s.format, s.size, repr(s))
d = s.pack(-1, 2, 3, b"data", 0.5)
print(d, s.unpack(d))
print(Struct(b">I").format, Struct(b">I").unpack(b"\x00\x00\x01\x00"))
show(Struct, 3)
show(Struct, "z")
show(Struct)
show(s.pack, 1)
show(s.unpack, d + b"x")
print(type(s).__name__, type(s).__module__, isinstance(s, struct.Struct))
show(setattr, s, "format", "<h")
show(setattr, s, "size", 3)

# unpack_from and pack_into with offsets.
buf = bytearray(12)
print(struct.pack_into("<hh", buf, 2, 513, -2), buf)
s2 = Struct("<I")
s2.pack_into(buf, 8, 0xAABBCCDD)
print(buf, s2.unpack_from(buf, 8), struct.unpack_from("<h", buf), struct.unpack_from("<h", buf, 2))
print(struct.unpack_from("<h", buffer=buf, offset=4), s2.unpack_from(buffer=bytes(buf), offset=-4))
s2.pack_into(buf, -4, 1)
print(buf)
show(struct.pack_into, "<I", buf, 10, 1)
show(struct.pack_into, "<I", buf, -13, 1)
show(struct.pack_into, "<I", buf, 13, 1)
show(struct.pack_into, "<I", b"immutable!!!", 0, 1)
show(struct.pack_into, "<I", buf)
show(struct.pack_into, "<I", buf, 0)
show(struct.pack_into, "<I", buf, 0, 1, 2)
show(struct.unpack_from, "<I", buf, 10)
show(struct.unpack_from, "<I", buf, -13)
show(struct.unpack_from, "<I", buf, 13)
show(struct.unpack_from, "<I", b"ab")
show(s2.unpack_from, b"abcdef", 3)

# iter_unpack.
it = struct.iter_unpack("<hb", b"\x01\x00\x02\x03\x00\x04")
print(type(it).__name__, it.__length_hint__(), next(it), it.__length_hint__(), list(it),
      it.__length_hint__())
print(list(Struct(">H").iter_unpack(bytearray(b"\x00\x01\x00\x02"))))
show(struct.iter_unpack, "<h", b"abc")
show(struct.iter_unpack, "", b"")
show(struct.iter_unpack, "0s", b"ab")
print(list(struct.iter_unpack("<i", b"")))

# The module cache: formats are reusable, _clearcache is harmless.
for i in range(300):
    calcsize("%dh" % i)
struct._clearcache()
print(calcsize("3h"), pack("<h", 5))

print(issubclass(error, Exception), error.__name__, error.__module__)
try:
    pack("<h", 99999)
except struct.error as e:
    print("struct.error:", e)
print(sorted(n for n in dir(struct) if not n.startswith("__")))

# ---- More argument and error cases ----
b = bytearray(12)
show(struct.unpack_from,'<I',bytes(12),-2)
show(struct.pack_into,'<I',b,-2,1)
show(struct.pack,'P',2**64)
show(struct.pack,'P',-2**63-1)
show(struct.pack,'Q',2**70)
show(struct.pack,'<b',2**70)
show(struct.Struct,'é')
show(struct.Struct,b'\xff')
show(struct.calcsize,'\t i\n')
show(struct.pack,'<i',2**100)
show(struct.unpack,'<i',b'abcd',)
show(struct.unpack_from,'<h',b'abc',offset=1)
show(struct.unpack_from,'<h',b'abc',1,2)
show(struct.unpack_from,'<h')
show(struct.Struct('<h').unpack_from,b'ab',offset=0)
show(struct.pack_into,'<h')
show(struct.pack_into,'<h',b)
s=struct.Struct('<h')
show(s.pack_into,b)
show(s.pack_into)
show(struct.Struct.__init__, s, '<i')
print(s.format, s.size)
show(struct.Struct, format='<h')
show(lambda: struct.Struct('<h') == struct.Struct('<h'))
show(lambda: hash(struct.Struct('<h'))> 0)
show(struct.iter_unpack,'<h',1)
it=struct.iter_unpack('<h',b'ab'); show(lambda: type(it)())
show(struct.unpack,'<h',b'ab',b'cd')
show(struct.pack,'3s',b'abc',b'x')
show(struct.pack,'?',)
show(lambda: struct.Struct('<h').__sizeof__() > 0)
show(struct.pack, '<' + 'h'*3, 1,2,3)
show(struct.pack, '>?', 5)
show(struct.unpack, '@?', b'\x02')
show(struct.pack, 'x', 1)
show(struct.pack, '2x')
show(struct.pack,'e',float('nan'))
show(struct.pack,'<f',float('-nan'))
show(struct.pack,'<d',float('nan'))
show(struct.pack,'<e',-float('nan'))
show(struct.pack,'0p',b'abc')
show(struct.unpack,'0p',b'')
show(struct.pack, 'f', 1e300)
show(struct.pack, 'i', True)
class C(struct.Struct): pass
show(lambda: C('<h').pack(3))
show(struct.pack, b'<h', 3)
show(struct.pack, '<h\0', 3)
show(struct.unpack_from, '<h', b'\x01\x02', offset=2**70)
show(struct.pack_into, '<h', b, 2**70, 1)
show(struct.pack_into, '<h', b, 'x', 1)
show(struct.unpack_from, '<h', b'\x01\x02', 'x')
show(struct.pack, '<q', -2**63 - 1)
show(struct.pack, '<i', -2**31 - 1)
show(struct.pack, '<Q', 2**64)
