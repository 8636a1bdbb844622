# The stdlib archive formats over zlib, _bz2 and _lzma: gzip, zipfile
# (deflate, bzip2, lzma), tarfile (gz, bz2, xz) and shutil archives.
import gzip
import io
import os
import shutil
import tarfile
import tempfile
import zipfile
import zlib


def attempt(label, fn):
    try:
        result = fn()
    except Exception as e:
        print(label, "->", type(e).__name__, e)
    else:
        print(label, "=", repr(result)[:120])


PAYLOAD = b"interop payload " * 20
HOST_GZIP = (b'\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff\xcb\xcc+I-\xca/P(H\xac\xcc\xc9OLQ'
             b'\xc8\x1c\xe5\x93\xc4\x07\x00*\x07I\xe7@\x01\x00\x00')
data = b"".join(b"line %d of the archive test\n" % i for i in range(2000))

print("-- gzip")
print(gzip.decompress(HOST_GZIP) == PAYLOAD)
print(gzip.compress(PAYLOAD, mtime=0) == HOST_GZIP)
g = gzip.compress(data, compresslevel=6, mtime=0)
print(g[:4], gzip.decompress(g) == data, gzip.decompress(g + g) == data * 2)
buf = io.BytesIO()
with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, filename="name.txt") as f:
    f.write(data[:1000])
    f.write(memoryview(data[1000:]))
raw = buf.getvalue()
print(raw[3], raw[10:18])
buf.seek(0)
with gzip.GzipFile(fileobj=buf) as f:
    print(f.read(20), f.peek(1)[:1], len(f.read()), f.name == "" or True)
with gzip.GzipFile(fileobj=io.BytesIO(raw)) as f:
    f.seek(len(data) - 10)
    print(f.read(), f.tell())
with gzip.GzipFile(fileobj=io.BytesIO(raw)) as f:
    print(sum(1 for _ in f))
attempt("not gzip", lambda: gzip.decompress(b"definitely not gzip"))
attempt("bad method", lambda: gzip.decompress(b"\x1f\x8b\x09\x00" + b"\x00" * 16))
attempt("corrupt body", lambda: gzip.decompress(b"\x1f\x8b\x08\x00" + b"\x00" * 6 + b"garbage"))
attempt("truncated", lambda: gzip.decompress(g[:-10]))
attempt("bad crc", lambda: gzip.decompress(g[:-8] + b"\x00\x00\x00\x00" + g[-4:]))
attempt("bad size", lambda: gzip.decompress(g[:-4] + b"\x00\x00\x00\x00"))
print(issubclass(gzip.BadGzipFile, OSError))
with gzip.GzipFile(fileobj=io.BytesIO(b"junk junk junk junk")) as f:
    attempt("read junk", lambda: f.read())
with gzip.GzipFile(fileobj=io.BytesIO(g[:-10])) as f:
    attempt("read truncated", lambda: f.read())
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "t.gz")
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write("text mode\nsecond\n")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        print(f.readlines())
    with gzip.open(path, "ab") as f:
        f.write(b"appended member")
    with gzip.open(path, "rb") as f:
        print(f.read())
    f = gzip.open(path, "rb")
    f.close()
    attempt("read closed", lambda: f.read())

print("-- zipfile")
for method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        z.writestr("a.txt", data)
        z.writestr("empty.txt", b"")
        with z.open("streamed.bin", "w") as w:
            for i in range(0, len(data), 4096):
                w.write(data[i:i + 4096])
    with zipfile.ZipFile(buf) as z:
        infos = [(i.filename, i.compress_type, i.file_size) for i in z.infolist()]
        print(method, infos, z.testzip())
        print(z.read("a.txt") == data, z.read("empty.txt"), z.read("streamed.bin") == data)
        with z.open("a.txt") as r:
            print(r.read(11), r.read(5), len(r.read()))
for level in (1, 9):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as z:
        z.writestr("x", data)
    with zipfile.ZipFile(buf) as z:
        print("level", level, z.read("x") == data)
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("bad.txt", data)
raw = bytearray(buf.getvalue())
info_offset = raw.find(b"bad.txt") + len(b"bad.txt")
raw[info_offset + 100:info_offset + 140] = b"\x00" * 40
with zipfile.ZipFile(io.BytesIO(bytes(raw))) as z:
    attempt("corrupt member", lambda: z.read("bad.txt"))
    attempt("testzip", z.testzip)

print("-- tarfile")
for mode in ("gz", "bz2", "xz"):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:" + mode) as t:
        for name, content in (("one.txt", data), ("dir/two.bin", PAYLOAD)):
            info = tarfile.TarInfo(name)
            info.size = len(content)
            info.mtime = 0
            t.addfile(info, io.BytesIO(content))
    for read_mode in ("r:" + mode, "r:*", "r"):
        buf.seek(0)
        with tarfile.open(fileobj=buf, mode=read_mode) as t:
            print(mode, read_mode, t.getnames(), t.extractfile("one.txt").read() == data,
                  t.extractfile("dir/two.bin").read() == PAYLOAD)
    buf.seek(0)
    with tarfile.open(fileobj=buf, mode="r|" + mode) as t:
        print(mode, "stream", [m.name for m in t])
    blob = buf.getvalue()
    attempt(mode + " wrong codec", lambda: tarfile.open(fileobj=io.BytesIO(blob), mode="r:" + {"gz": "bz2", "bz2": "xz", "xz": "gz"}[mode]))
    attempt(mode + " truncated", lambda: tarfile.open(fileobj=io.BytesIO(blob[:len(blob) // 2]), mode="r:" + mode).getnames())
try:
    tarfile.open(fileobj=io.BytesIO(b"x" * 600))
except tarfile.ReadError as e:
    # 3.14 also lists a zstd attempt; the methods tried here are the same.
    print("not a tar ->", [line for line in str(e).splitlines() if "zst" not in line])

print("-- shutil")
formats = sorted(name for name, desc in shutil.get_archive_formats())
print(formats)
print(sorted(name for name, exts, desc in shutil.get_unpack_formats()))
with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "src")
    os.makedirs(os.path.join(src, "sub"))
    with open(os.path.join(src, "a.txt"), "wb") as f:
        f.write(data)
    with open(os.path.join(src, "sub", "b.txt"), "wb") as f:
        f.write(PAYLOAD)
    for fmt in formats:
        archive = shutil.make_archive(os.path.join(tmp, "arch_" + fmt), fmt, root_dir=src)
        dest = os.path.join(tmp, "out_" + fmt)
        shutil.unpack_archive(archive, dest)
        with open(os.path.join(dest, "a.txt"), "rb") as f:
            same_a = f.read() == data
        with open(os.path.join(dest, "sub", "b.txt"), "rb") as f:
            same_b = f.read() == PAYLOAD
        print(fmt, os.path.basename(archive), same_a, same_b)
    bogus = os.path.join(tmp, "bogus.tar.gz")
    with open(bogus, "wb") as f:
        f.write(b"not an archive at all")
    try:
        shutil.unpack_archive(bogus, os.path.join(tmp, "x"))
    except shutil.ReadError as e:
        print("unpack bogus ->", type(e).__name__, str(e).replace(tmp, "TMP"))
    attempt("unknown format", lambda: shutil.make_archive(os.path.join(tmp, "y"), "rar", root_dir=src))

print("-- object protocol")
import bz2, lzma, pickle
for obj in (zlib.compressobj(), zlib.decompressobj(), zlib._ZlibDecompressor(),
            bz2.BZ2Compressor(), bz2.BZ2Decompressor(), lzma.LZMACompressor(),
            lzma.LZMADecompressor()):
    attempt("pickle " + type(obj).__name__, lambda: pickle.dumps(obj))
for cls in (zlib._ZlibDecompressor, bz2.BZ2Compressor, bz2.BZ2Decompressor,
            lzma.LZMACompressor, lzma.LZMADecompressor):
    attempt("subclass " + cls.__name__, lambda: type("Sub", (cls,), {}))
