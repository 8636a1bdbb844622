# The zlib module: one-shot and streaming deflate, _ZlibDecompressor,
# checksums, constants and zlib.error messages.  Compressed literals below
# were made by the host CPython, so interoperability is checked both ways.
import copy
import zlib


def attempt(label, fn):
    try:
        result = fn()
    except Exception as e:
        print(label, "->", type(e).__name__, e)
    else:
        print(label, "=", repr(result)[:120])


PAYLOAD = b"interop payload " * 20
HOST_ZLIB9 = b'x\xda\xcb\xcc+I-\xca/P(H\xac\xcc\xc9OLQ\xc8\x1c\xe5\x93\xc4\x07\x00\x8f\xc3{]'
HOST_RAW = b'\xcb\xcc+I-\xca/P(H\xac\xcc\xc9OLQ\xc8\x1c\xe5\x93\xc4\x07\x00'
HOST_GZIP = (b'\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff\xcb\xcc+I-\xca/P(H\xac\xcc\xc9OLQ'
             b'\xc8\x1c\xe5\x93\xc4\x07\x00*\x07I\xe7@\x01\x00\x00')

print("-- constants")
for name in ("MAX_WBITS", "DEFLATED", "DEF_MEM_LEVEL", "DEF_BUF_SIZE", "Z_NO_COMPRESSION",
             "Z_BEST_SPEED", "Z_BEST_COMPRESSION", "Z_DEFAULT_COMPRESSION", "Z_FILTERED",
             "Z_HUFFMAN_ONLY", "Z_RLE", "Z_FIXED", "Z_DEFAULT_STRATEGY", "Z_NO_FLUSH",
             "Z_PARTIAL_FLUSH", "Z_SYNC_FLUSH", "Z_FULL_FLUSH", "Z_FINISH", "Z_BLOCK",
             "Z_TREES"):
    print(name, getattr(zlib, name))
print(type(zlib.ZLIB_VERSION).__name__, type(zlib.ZLIB_RUNTIME_VERSION).__name__)
print(zlib.ZLIB_VERSION == zlib.ZLIB_RUNTIME_VERSION)
print(zlib.error.__name__, zlib.error.__module__, issubclass(zlib.error, Exception))

print("-- interop with host data")
print(zlib.decompress(HOST_ZLIB9) == PAYLOAD)
print(zlib.decompress(HOST_RAW, -15) == PAYLOAD)
print(zlib.decompress(HOST_GZIP, 31) == PAYLOAD)
print(zlib.decompress(HOST_GZIP, 47) == PAYLOAD, zlib.decompress(HOST_ZLIB9, 47) == PAYLOAD)
print(zlib.compress(PAYLOAD, 9) == HOST_ZLIB9)
print(zlib.compress(PAYLOAD, wbits=-15) == HOST_RAW)
co = zlib.compressobj(9, zlib.DEFLATED, -15)
print(co.compress(PAYLOAD) + co.flush() == HOST_RAW)

print("-- one-shot")
data = bytes(range(256)) * 40 + b"tail"
for level in (0, 1, 6, 9, -1):
    c = zlib.compress(data, level)
    print(level, zlib.decompress(c) == data, len(c) < len(data) or level == 0)
for wbits in (9, 12, 15, -9, -15, 25, 31):
    c = zlib.compress(data, wbits=wbits)
    print("wbits", wbits, zlib.decompress(c, wbits) == data)
print(zlib.decompress(zlib.compress(b"")), zlib.compress(b"")[:2])
print(zlib.decompress(zlib.compress(data), bufsize=1) == data)
print(zlib.decompress(zlib.compress(data), bufsize=0) == data)
print(zlib.decompress(zlib.compress(data) + b"trailing junk") == data)
print(zlib.decompress(bytearray(zlib.compress(b"ba"))), zlib.decompress(memoryview(zlib.compress(b"mv"))))
print(zlib.compress(data=b"x") if False else "kw", zlib.decompress(zlib.compress(b"k", level=1), wbits=15))
import array
print(zlib.decompress(zlib.compress(array.array("B", b"array!"))))

print("-- one-shot errors")
good = zlib.compress(b"hello world" * 10)
attempt("garbage", lambda: zlib.decompress(b"garbage"))
attempt("truncated", lambda: zlib.decompress(good[:-3]))
attempt("empty", lambda: zlib.decompress(b""))
attempt("corrupt body", lambda: zlib.decompress(good[:5] + b"\xff" * 10 + good[15:]))
attempt("bad checksum", lambda: zlib.decompress(good[:-1] + bytes([good[-1] ^ 1])))
attempt("wbits 3", lambda: zlib.decompress(good, 3))
attempt("wbits 100", lambda: zlib.decompress(good, 100))
attempt("raw as zlib", lambda: zlib.decompress(HOST_RAW))
attempt("bufsize -1", lambda: zlib.decompress(good, bufsize=-1))
attempt("level 11", lambda: zlib.compress(b"x", 11))
attempt("wbits 99", lambda: zlib.compress(b"x", wbits=99))
attempt("str", lambda: zlib.compress("text"))
attempt("str decompress", lambda: zlib.decompress("text"))
attempt("no args", lambda: zlib.compress())
attempt("float level", lambda: zlib.compress(b"x", 1.5))

print("-- checksums")
print(zlib.crc32(b""), zlib.crc32(b"hello"), zlib.crc32(b"hello", 1), zlib.crc32(b" world", zlib.crc32(b"hello")))
print(zlib.crc32(b"hello world"))
print(zlib.adler32(b""), zlib.adler32(b"hello"), zlib.adler32(b"hello", 0), zlib.adler32(b"hello world"))
print(zlib.adler32(b" world", zlib.adler32(b"hello")))
print(zlib.crc32(b"x", -1), zlib.crc32(b"x", 2**32 + 5), zlib.adler32(b"x", 2**40))
print(zlib.crc32(memoryview(b"abc")), zlib.crc32(bytearray(b"abc")))
attempt("crc32 str", lambda: zlib.crc32("x"))
attempt("crc32 args", lambda: zlib.crc32(b"x", 1, 2))

print("-- compressobj")
co = zlib.compressobj()
pieces = [co.compress(data[i:i + 1000]) for i in range(0, len(data), 1000)]
pieces.append(co.flush())
stream = b"".join(pieces)
print(zlib.decompress(stream) == data)
co = zlib.compressobj(level=1, method=zlib.DEFLATED, wbits=-12, memLevel=9, strategy=zlib.Z_FILTERED)
print(zlib.decompress(co.compress(data) + co.flush(), -12) == data)
for strategy in (zlib.Z_HUFFMAN_ONLY, zlib.Z_RLE, zlib.Z_FIXED):
    co = zlib.compressobj(strategy=strategy)
    print("strategy", strategy, zlib.decompress(co.compress(data) + co.flush()) == data)
co = zlib.compressobj()
a = co.compress(b"first ")
a += co.flush(zlib.Z_SYNC_FLUSH)
print(a[-4:], zlib.decompressobj().decompress(a))
a += co.compress(b"second ") + co.flush(zlib.Z_FULL_FLUSH)
print(zlib.decompressobj().decompress(a))
print(co.flush(zlib.Z_NO_FLUSH))
a += co.compress(b"third") + co.flush(zlib.Z_PARTIAL_FLUSH) + co.flush(zlib.Z_BLOCK) + co.flush()
print(zlib.decompress(a))

print("-- compressobj copy")
co = zlib.compressobj()
head = co.compress(b"shared prefix ")
c1 = co.copy()
c2 = copy.copy(co)
c3 = copy.deepcopy(co)
t1 = head + c1.compress(b"one") + c1.flush()
t2 = head + c2.compress(b"two") + c2.flush()
t3 = head + c3.compress(b"three") + c3.flush()
t0 = head + co.flush()
print(zlib.decompress(t0), zlib.decompress(t1), zlib.decompress(t2), zlib.decompress(t3))
print(type(co).__name__, type(co).__module__)

print("-- compressobj errors")
attempt("level 11", lambda: zlib.compressobj(11))
attempt("method 3", lambda: zlib.compressobj(method=3))
attempt("memLevel 0", lambda: zlib.compressobj(memLevel=0))
attempt("strategy 9", lambda: zlib.compressobj(strategy=9))
attempt("zdict str", lambda: zlib.compressobj(zdict="abc"))
attempt("unknown kw", lambda: zlib.compressobj(speed=1))
co = zlib.compressobj()
co.compress(b"abc")
co.flush()
attempt("compress after finish", lambda: co.compress(b"x"))
attempt("flush after finish", lambda: co.flush())
attempt("sync flush after finish", lambda: co.flush(zlib.Z_SYNC_FLUSH))
attempt("no-flush after finish", lambda: co.flush(zlib.Z_NO_FLUSH))
attempt("copy after finish", lambda: co.copy())
attempt("compress str", lambda: zlib.compressobj().compress("x"))
attempt("instantiate", lambda: type(co)())

print("-- decompressobj")
comp = zlib.compress(data)
d = zlib.decompressobj()
out = b"".join(d.decompress(comp[i:i + 100]) for i in range(0, len(comp), 100)) + d.flush()
print(out == data, d.eof, d.unused_data, d.unconsumed_tail)
d = zlib.decompressobj()
out = d.decompress(comp, 1000)
print(len(out), len(d.unconsumed_tail) > 0, d.eof)
while d.unconsumed_tail:
    out += d.decompress(d.unconsumed_tail, 1000)
out += d.flush()
print(out == data, d.eof)
d = zlib.decompressobj()
print(d.decompress(comp + b"extra bytes") == data, d.unused_data, d.eof)
print(d.decompress(b"more"), d.unused_data)
attempt("flush at end", lambda: d.flush())
attempt("copy after flush", lambda: d.copy())
attempt("flush twice", lambda: d.flush())
attempt("decompress after flush", lambda: d.decompress(b"x"))
d = zlib.decompressobj()
print(len(d.decompress(comp[:-10])), d.eof)
print(len(d.flush()), d.eof, len(d.unconsumed_tail))
print(len(d.decompress(comp[-10:])), d.eof)
d = zlib.decompressobj(wbits=-15)
print(d.decompress(HOST_RAW) == PAYLOAD, d.eof)
d = zlib.decompressobj(31)
print(d.decompress(HOST_GZIP) == PAYLOAD, d.eof)
d = zlib.decompressobj()
print(d.decompress(comp, 0) == data, d.decompress(b""), d.flush(1))
d = zlib.decompressobj()
print(len(d.decompress(comp, max_length=7)), d.flush(5) == data[7:])

print("-- decompressobj copy")
d = zlib.decompressobj()
first = d.decompress(comp[:len(comp) // 2])
d1 = d.copy()
d2 = copy.deepcopy(d)
rest = comp[len(comp) // 2:]
print(first + d.decompress(rest) == data, first + d1.decompress(rest) == data,
      first + d2.decompress(rest) + d2.flush() == data)

print("-- decompressobj errors")
attempt("garbage", lambda: zlib.decompressobj().decompress(b"garbage"))
attempt("max_length -1", lambda: zlib.decompressobj().decompress(comp, -1))
attempt("flush 0", lambda: zlib.decompressobj().flush(0))
attempt("flush -1", lambda: zlib.decompressobj().flush(-1))
attempt("wbits 99", lambda: zlib.decompressobj(wbits=99))
attempt("zdict str", lambda: zlib.decompressobj(zdict="abc"))
attempt("decompress str", lambda: zlib.decompressobj().decompress("abc"))
bad = zlib.decompressobj()
attempt("corrupt", lambda: bad.decompress(comp[:3] + b"\x00\xff\x00" * 5))

print("-- zdict")
zdict = b"hello world, this is the shared dictionary"
co = zlib.compressobj(zdict=zdict)
cd = co.compress(b"hello world, hello dictionary") + co.flush()
attempt("no zdict one-shot", lambda: zlib.decompress(cd))
attempt("no zdict obj", lambda: zlib.decompressobj().decompress(cd))
print(zlib.decompressobj(zdict=zdict).decompress(cd))
print(zlib.decompressobj(zdict=bytearray(zdict)).decompress(cd))
attempt("wrong zdict", lambda: zlib.decompressobj(zdict=b"other words").decompress(cd))
co = zlib.compressobj(wbits=-15, zdict=zdict)
raw = co.compress(b"hello world, raw") + co.flush()
print(zlib.decompressobj(-15, zdict).decompress(raw))

print("-- _ZlibDecompressor")
z = zlib._ZlibDecompressor()
print(z.eof, z.needs_input, z.unused_data)
out = z.decompress(comp[:50])
print(len(out) > 0, z.eof, z.needs_input)
out += z.decompress(comp[50:] + b"after")
print(out == data, z.eof, z.needs_input, z.unused_data)
attempt("after eof", lambda: z.decompress(b"x"))
z = zlib._ZlibDecompressor()
chunks = [z.decompress(comp, 100)]
print(len(chunks[0]), z.needs_input, z.eof)
while not z.eof:
    chunks.append(z.decompress(b"", 3000))
print(b"".join(chunks) == data, [len(c) for c in chunks][:4], z.needs_input)
z = zlib._ZlibDecompressor(wbits=31)
print(z.decompress(HOST_GZIP, max_length=5), z.decompress(b"") == PAYLOAD[5:], z.eof)
z = zlib._ZlibDecompressor()
print(z.decompress(comp, 0), z.needs_input)
z = zlib._ZlibDecompressor()
part = z.decompress(comp[:-4], len(data))
print(len(part), z.needs_input, z.eof)
z = zlib._ZlibDecompressor()
attempt("garbage", lambda: z.decompress(b"garbage"))
attempt("wbits 99", lambda: zlib._ZlibDecompressor(wbits=99))
attempt("str data", lambda: zlib._ZlibDecompressor().decompress("x"))
print(type(zlib._ZlibDecompressor()).__name__)

print("-- size arguments")
attempt("max_length huge", lambda: zlib.decompressobj().decompress(b"", 2**70))
attempt("bufsize huge", lambda: zlib.decompress(b"", bufsize=2**70))
attempt("zd max_length huge", lambda: zlib._ZlibDecompressor().decompress(b"", 2**70))
attempt("flush float", lambda: zlib.compressobj().flush(1.0))
attempt("crc32 float", lambda: zlib.crc32(b"x", 1.5))
attempt("wbits huge", lambda: zlib.compress(b"", wbits=2**40))
