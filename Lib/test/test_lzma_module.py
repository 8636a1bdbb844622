# _lzma and the lzma module over it: formats, checks, presets, filter
# chains as dicts, properties helpers, decompressor state, errors.
import io
import lzma
import _lzma
import os
import tempfile


def attempt(label, fn):
    try:
        result = fn()
    except Exception as e:
        print(label, "->", type(e).__module__, type(e).__name__, e)
    else:
        print(label, "=", repr(result)[:120])


PAYLOAD = b"interop payload " * 20
HOST_XZ = (b'\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4F\x02\x00!\x01\x16\x00\x00\x00t/\xe5\xa3\xe0\x01?'
           b'\x00\x19]\x004\x9b\x8a\xee\xe6PN157\x1ayz]S\xd0^\\\r\xf6\x9f\xb3^\x00\x00\x00\x00'
           b'\x00\x00N\x9a\xccy\n\xbd4.\x00\x015\xc0\x02\x00\x00\x00\x93b\xfe\xd4\xb1\xc4g\xfb'
           b'\x02\x00\x00\x00\x00\x04YZ')
HOST_ALONE = (b']\x00\x00\x80\x00\xff\xff\xff\xff\xff\xff\xff\xff\x004\x9b\x8a\xee\xe6PN157'
              b'\x1ayz]S\xd0^\\\r\xf6\x9f\xd9%+\xff\xff\xee=\x00\x00')
HOST_RAW = (b'\xe0\x01?\x00\x1c]\x004\x9b}o \x8e\x02\x9d\x82T\x00\xc5\xa2kC\x92`F\xbbt`+[\x01'
            b'\x0b\xbe\x00\x00\x00')
RAW_CHAIN = [{"id": lzma.FILTER_DELTA, "dist": 2}, {"id": lzma.FILTER_LZMA2, "preset": 1}]

print("-- constants")
for name in sorted(n for n in dir(_lzma) if n.isupper()):
    print(name, getattr(_lzma, name))
print(lzma.LZMAError.__module__, issubclass(lzma.LZMAError, Exception))

print("-- interop")
print(lzma.decompress(HOST_XZ) == PAYLOAD, lzma.decompress(HOST_ALONE) == PAYLOAD)
print(lzma.decompress(HOST_RAW, lzma.FORMAT_RAW, filters=RAW_CHAIN) == PAYLOAD)
print(lzma.compress(PAYLOAD) == HOST_XZ)
print(lzma.compress(PAYLOAD, format=lzma.FORMAT_ALONE) == HOST_ALONE)
print(lzma.compress(PAYLOAD, format=lzma.FORMAT_RAW, filters=RAW_CHAIN) == HOST_RAW)

print("-- formats and checks")
data = bytes(range(256)) * 100 + b"end"
for fmt in (lzma.FORMAT_XZ, lzma.FORMAT_ALONE):
    c = lzma.compress(data, format=fmt)
    print(fmt, lzma.decompress(c) == data, lzma.decompress(c, fmt) == data)
for check in (lzma.CHECK_NONE, lzma.CHECK_CRC32, lzma.CHECK_CRC64, lzma.CHECK_SHA256):
    c = lzma.compress(data, check=check)
    d = lzma.LZMADecompressor()
    print("check", check, d.check, d.decompress(c) == data, d.check, d.eof)
for fmt in (lzma.FORMAT_AUTO, lzma.FORMAT_XZ, lzma.FORMAT_ALONE):
    print("initial check", fmt, lzma.LZMADecompressor(fmt).check)
print(lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=RAW_CHAIN).check)
print(lzma.is_check_supported(lzma.CHECK_SHA256), lzma.is_check_supported(lzma.CHECK_NONE),
      lzma.is_check_supported(15), lzma.is_check_supported(-1))
for preset in (0, 1, 9, 3 | lzma.PRESET_EXTREME):
    print("preset", preset, lzma.decompress(lzma.compress(data, preset=preset)) == data)

print("-- filter chains")
chains = [
    [{"id": lzma.FILTER_LZMA2, "preset": 2, "dict_size": 1 << 16, "lc": 2, "lp": 1, "pb": 1,
      "mode": lzma.MODE_FAST, "nice_len": 64, "mf": lzma.MF_HC4, "depth": 0}],
    [{"id": lzma.FILTER_X86, "start_offset": 16}, {"id": lzma.FILTER_LZMA2}],
    [{"id": lzma.FILTER_DELTA}, {"id": lzma.FILTER_LZMA2, "mf": lzma.MF_BT2}],
    [{"id": lzma.FILTER_ARM}, {"id": lzma.FILTER_ARMTHUMB}, {"id": lzma.FILTER_SPARC},
     {"id": lzma.FILTER_LZMA2}],
    [{"id": lzma.FILTER_POWERPC}, {"id": lzma.FILTER_IA64}, {"id": lzma.FILTER_LZMA2}],
]
for chain in chains:
    xz = lzma.compress(data, filters=chain)
    raw = lzma.compress(data, format=lzma.FORMAT_RAW, filters=chain)
    print(lzma.decompress(xz) == data, lzma.decompress(raw, lzma.FORMAT_RAW, filters=chain) == data)
alone = lzma.compress(data, format=lzma.FORMAT_ALONE, filters=[{"id": lzma.FILTER_LZMA1, "preset": 1}])
print(lzma.decompress(alone) == data)

print("-- properties")
for spec in ({"id": lzma.FILTER_LZMA2}, {"id": lzma.FILTER_LZMA1},
             {"id": lzma.FILTER_LZMA1, "dict_size": 1 << 20, "lc": 4, "pb": 1},
             {"id": lzma.FILTER_DELTA, "dist": 4}, {"id": lzma.FILTER_X86},
             {"id": lzma.FILTER_X86, "start_offset": 32}):
    props = _lzma._encode_filter_properties(spec)
    print(props, _lzma._decode_filter_properties(spec["id"], props))
print(_lzma._decode_filter_properties(lzma.FILTER_LZMA1, b']\x00\x00\x80\x00'))
print(_lzma._decode_filter_properties(lzma.FILTER_X86, b'\x10\x00\x00\x00'))
attempt("decode unknown id", lambda: _lzma._decode_filter_properties(99, b""))
attempt("decode short", lambda: _lzma._decode_filter_properties(lzma.FILTER_LZMA1, b""))
attempt("decode bad lzma2", lambda: _lzma._decode_filter_properties(lzma.FILTER_LZMA2, b"\x99"))
attempt("encode unknown id", lambda: _lzma._encode_filter_properties({"id": 99}))
attempt("encode bad lc", lambda: _lzma._encode_filter_properties({"id": lzma.FILTER_LZMA1, "lc": 5, "lp": 4}))

print("-- compressor object")
c = lzma.LZMACompressor()
out = c.compress(data[:5000]) + c.compress(bytearray(data[5000:])) + c.flush()
print(lzma.decompress(out) == data)
attempt("compress after flush", lambda: c.compress(b"x"))
attempt("flush twice", lambda: c.flush())
attempt("format 9", lambda: lzma.LZMACompressor(format=9))
attempt("format auto", lambda: lzma.LZMACompressor(format=lzma.FORMAT_AUTO))
attempt("raw no filters", lambda: lzma.LZMACompressor(format=lzma.FORMAT_RAW))
attempt("check with alone", lambda: lzma.LZMACompressor(format=lzma.FORMAT_ALONE, check=lzma.CHECK_CRC32))
attempt("preset and filters", lambda: lzma.LZMACompressor(preset=1, filters=[]))
attempt("preset 99", lambda: lzma.LZMACompressor(preset=99))
attempt("alone preset 99", lambda: lzma.LZMACompressor(format=lzma.FORMAT_ALONE, preset=99))
attempt("check 99", lambda: lzma.LZMACompressor(check=99))
attempt("no id", lambda: lzma.LZMACompressor(filters=[{}]))
attempt("bad id", lambda: lzma.LZMACompressor(filters=[{"id": 99}]))
attempt("str id", lambda: lzma.LZMACompressor(filters=[{"id": "x"}]))
attempt("negative id", lambda: lzma.LZMACompressor(filters=[{"id": -1}]))
attempt("lzma unknown key", lambda: lzma.LZMACompressor(filters=[{"id": lzma.FILTER_LZMA2, "foo": 1}]))
attempt("lzma bad value", lambda: lzma.LZMACompressor(filters=[{"id": lzma.FILTER_LZMA2, "dict_size": "x"}]))
attempt("delta unknown key", lambda: lzma.LZMACompressor(filters=[{"id": lzma.FILTER_DELTA, "foo": 1}]))
attempt("bcj unknown key", lambda: lzma.LZMACompressor(filters=[{"id": lzma.FILTER_X86, "foo": 1}]))
attempt("spec not dict", lambda: lzma.LZMACompressor(filters=[1]))
attempt("chain of 5", lambda: lzma.LZMACompressor(filters=[{"id": lzma.FILTER_LZMA2}] * 5))
attempt("bad filter preset", lambda: lzma.LZMACompressor(filters=[{"id": lzma.FILTER_LZMA2, "preset": 77}]))
attempt("alone with lzma2", lambda: lzma.LZMACompressor(format=lzma.FORMAT_ALONE, filters=[{"id": lzma.FILTER_LZMA2}]))
attempt("chain not sequence", lambda: lzma.LZMACompressor(filters=5))
attempt("delta last", lambda: lzma.LZMACompressor(filters=[{"id": lzma.FILTER_DELTA}]))
attempt("compress str", lambda: lzma.LZMACompressor().compress("x"))

print("-- decompressor object")
comp = lzma.compress(data)
d = lzma.LZMADecompressor()
print(d.eof, d.needs_input, d.unused_data, d.check)
out = b"".join(d.decompress(comp[i:i + 300]) for i in range(0, len(comp), 300))
print(out == data, d.eof, d.needs_input, d.unused_data, d.check)
attempt("after eof", lambda: d.decompress(b"x"))
d = lzma.LZMADecompressor()
print(d.decompress(comp + b"tail") == data, d.unused_data)
d = lzma.LZMADecompressor()
pieces = [d.decompress(comp, 1000)]
print(len(pieces[0]), d.needs_input, d.eof)
while not d.eof:
    pieces.append(d.decompress(b"", 10000))
print(b"".join(pieces) == data, [len(p) for p in pieces])
d = lzma.LZMADecompressor()
print(d.decompress(comp, 0), d.needs_input)
d = lzma.LZMADecompressor(memlimit=1 << 30)
print(d.decompress(comp) == data)
attempt("memlimit tiny", lambda: lzma.LZMADecompressor(memlimit=10).decompress(comp))
attempt("memlimit raw", lambda: lzma.LZMADecompressor(format=lzma.FORMAT_RAW, memlimit=5, filters=[]))
attempt("raw no filters", lambda: lzma.LZMADecompressor(format=lzma.FORMAT_RAW))
attempt("filters with xz", lambda: lzma.LZMADecompressor(format=lzma.FORMAT_XZ, filters=[]))
attempt("format 9", lambda: lzma.LZMADecompressor(format=9))
attempt("negative memlimit", lambda: lzma.LZMADecompressor(memlimit=-1))
attempt("auto garbage", lambda: lzma.LZMADecompressor().decompress(b"garbage garbage"))
attempt("xz garbage", lambda: lzma.LZMADecompressor(lzma.FORMAT_XZ).decompress(b"garbage garbage"))
attempt("alone as xz", lambda: lzma.LZMADecompressor(lzma.FORMAT_XZ).decompress(HOST_ALONE))
attempt("corrupt", lambda: lzma.decompress(comp[:30] + b"\x00" * 30 + comp[60:]))
attempt("bad check", lambda: lzma.decompress(comp[:-20] + bytes([comp[-20] ^ 0xFF]) + comp[-19:]))
attempt("truncated", lambda: lzma.decompress(comp[:-3]))
attempt("zeros", lambda: lzma.LZMADecompressor().decompress(b"\x00" * 20))

print("-- lzma module files")
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "x.xz")
    with lzma.open(path, "wb") as f:
        f.write(data)
    with lzma.open(path) as f:
        print(f.read(10) == data[:10], f.read() == data[10:])
    with lzma.open(path, "wt", encoding="utf-8", format=lzma.FORMAT_ALONE) as f:
        f.write("alpha\nbeta\n")
    with lzma.open(path, "rt", encoding="utf-8") as f:
        print(f.read().split())
    with lzma.LZMAFile(path, "w", check=lzma.CHECK_SHA256, preset=1) as f:
        f.write(b"sha")
    with lzma.LZMAFile(path) as f:
        print(f.read())
buf = io.BytesIO()
with lzma.LZMAFile(buf, "w", format=lzma.FORMAT_RAW, filters=RAW_CHAIN) as f:
    f.write(PAYLOAD)
print(buf.getvalue() == HOST_RAW)
with lzma.LZMAFile(io.BytesIO(b"not xz at all, no")) as f:
    attempt("read junk", lambda: f.read())
