# _bz2 and the bz2 module over it: compressor/decompressor objects,
# max_length and needs_input, error types and messages, bz2.open.
import bz2
import io
import os
import tempfile
from _bz2 import BZ2Compressor, BZ2Decompressor


def attempt(label, fn):
    try:
        result = fn()
    except Exception as e:
        print(label, "->", type(e).__name__, e)
    else:
        print(label, "=", repr(result)[:120])


PAYLOAD = b"interop payload " * 20
HOST_BZ2 = (b'BZh91AY&SY\xa5\xee.\xa5\x00\x00E\x91\x80@\x00&%\xd4  \x00P\x81\xa0h\x05*\x80a9&'
            b'\t\x82pN\xc9\xa2xM\x93\x04\xc96L\x13\xc2h\x9b&I\xf8\xbb\x92)\xc2\x84\x85/qu(')

print("-- interop")
print(bz2.decompress(HOST_BZ2) == PAYLOAD)
print(bz2.compress(PAYLOAD) == HOST_BZ2)
print(bz2.decompress(HOST_BZ2 + HOST_BZ2) == PAYLOAD * 2)

print("-- compressor")
data = bytes(range(256)) * 200 + b"end"
for level in (1, 5, 9):
    c = BZ2Compressor(level)
    out = c.compress(data[:1000]) + c.compress(data[1000:]) + c.flush()
    print(level, out[:4], bz2.decompress(out) == data)
c = BZ2Compressor()
print(c.compress(b""), c.compress(bytearray(b"abc")), c.compress(memoryview(b"def")))
out = c.flush()
print(bz2.decompress(out))
attempt("compress after flush", lambda: c.compress(b"x"))
attempt("flush twice", lambda: c.flush())
attempt("level 0", lambda: BZ2Compressor(0))
attempt("level 10", lambda: BZ2Compressor(10))
attempt("keyword", lambda: BZ2Compressor(compresslevel=5))
attempt("str level", lambda: BZ2Compressor("9"))
attempt("two args", lambda: BZ2Compressor(1, 2))
attempt("compress str", lambda: BZ2Compressor().compress("text"))
print(bz2.decompress(bz2.compress(b"", 1)), len(bz2.compress(b"")))

print("-- decompressor")
comp = bz2.compress(data)
d = BZ2Decompressor()
print(d.eof, d.needs_input, d.unused_data)
out = b"".join(d.decompress(comp[i:i + 500]) for i in range(0, len(comp), 500))
print(out == data, d.eof, d.needs_input, d.unused_data)
attempt("after eof", lambda: d.decompress(b"x"))
d = BZ2Decompressor()
print(d.decompress(comp + b"trailing") == data, d.unused_data, d.eof)
d = BZ2Decompressor()
pieces = [d.decompress(comp, 1000)]
print(len(pieces[0]), d.needs_input, d.eof)
while not d.eof:
    pieces.append(d.decompress(b"", 20000))
print(b"".join(pieces) == data, [len(p) for p in pieces])
d = BZ2Decompressor()
print(d.decompress(comp, 0), d.needs_input)
print(len(d.decompress(comp[:0], max_length=-1)) == len(data), d.eof)
d = BZ2Decompressor()
part = d.decompress(comp[:len(comp) // 2])
print(len(part) >= 0, d.needs_input, d.eof)
print(part + d.decompress(comp[len(comp) // 2:]) == data, d.eof)
attempt("garbage", lambda: BZ2Decompressor().decompress(b"garbagegarbage"))
attempt("bad magic", lambda: BZ2Decompressor().decompress(b"BZh0" + b"\x00" * 20))
attempt("corrupt", lambda: bz2.decompress(comp[:20] + b"\x00" * 40 + comp[60:]))
attempt("args", lambda: BZ2Decompressor(1))
attempt("str data", lambda: BZ2Decompressor().decompress("x"))
attempt("no data", lambda: BZ2Decompressor().decompress())

print("-- bz2 module")
attempt("truncated", lambda: bz2.decompress(comp[:-10]))
attempt("empty", lambda: bz2.decompress(b""))
attempt("not bz2", lambda: bz2.decompress(b"not bzip2 data at all"))
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "x.bz2")
    with bz2.open(path, "wb") as f:
        f.write(data)
    with bz2.open(path, "rb") as f:
        print(f.read(100) == data[:100], f.read() == data[100:])
    with bz2.open(path, "wt", encoding="utf-8") as f:
        f.write("line one\nline two\n")
    with bz2.open(path, "rt", encoding="utf-8") as f:
        print(f.readlines())
    with bz2.BZ2File(path, "ab") as f:
        f.write(b"appended")
    with open(path, "rb") as raw:
        print(bz2.decompress(raw.read()))
    with bz2.BZ2File(path) as f:
        f.seek(5)
        print(f.read(3), f.tell())
buf = io.BytesIO()
with bz2.BZ2File(buf, "w", compresslevel=3) as f:
    f.write(b"in memory")
print(bz2.decompress(buf.getvalue()))
with bz2.BZ2File(io.BytesIO(b"junk, not bzip2")) as f:
    attempt("read junk", lambda: f.read())
with bz2.BZ2File(io.BytesIO(comp[:-10])) as f:
    attempt("read truncated", lambda: f.read())

print("-- size arguments")
attempt("max_length huge", lambda: BZ2Decompressor().decompress(b"", 2**70))
attempt("max_length float", lambda: BZ2Decompressor().decompress(b"", 1.0))
attempt("max_length str", lambda: BZ2Decompressor().decompress(b"", "1"))
print(BZ2Decompressor().decompress(memoryview(bytearray()), max_length=-5))
