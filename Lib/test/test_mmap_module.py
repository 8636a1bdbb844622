# mmap: anonymous and file-backed maps, the access modes, the file-like
# cursor methods, indexing and slicing, the buffer protocol (and how
# exported buffers block close/resize), searching, resize/move/flush/
# madvise, and the error cases with CPython's messages.
import mmap
import os
import tempfile


def attempt(label, f, *args):
    try:
        res = f(*args)
    except Exception as e:
        print(label, type(e).__name__, e)
    else:
        print(label, "ok", repr(res))


def store(m, key, value):
    m[key] = value


print(mmap.error is OSError, mmap.mmap.__module__, mmap.mmap.__name__)
print(mmap.ACCESS_DEFAULT, mmap.ACCESS_READ, mmap.ACCESS_WRITE, mmap.ACCESS_COPY)
print(mmap.PAGESIZE == mmap.ALLOCATIONGRANULARITY == os.sysconf("SC_PAGESIZE"))
print(sorted(n for n in dir(mmap.mmap) if not n.startswith("_")))
names = sorted(n for n in dir(mmap) if n.startswith(("MAP_", "PROT_", "MADV_")))
print(", ".join("%s=%d" % (n, getattr(mmap, n)) for n in names))

# Anonymous memory.
m = mmap.mmap(-1, 16)
print(repr(m), len(m), m.closed, m.seekable())
print(m[0], m[:4], list(m)[:2], m.tell())
print(m.write(b"hello, "), m.write(bytearray(b"world")), m.write(memoryview(b"!\n")), m.tell())
m.write_byte(ord("?"))
print(m.tell(), m[:], m[-1], m[-3])
print(m.seek(0), m.readline(), m.read(1), m.read_byte(), m.tell())
print(m.seek(-2, 1), m.seek(-4, 2), m.read(), m.read(), m.read(None))
m.seek(0)
print(m.read(-1) == m[:], m.tell())
print(m[::2], m[::-1][:4], m[2:100], m[5:2], m[True])
m[0] = ord("H")
m[7:12] = b"WORLD"
m[12:14] = bytearray(b"!!")
m[::8] = b"hw"
print(bytes(m))
m.seek(0)
print(m.find(b"o"), m.find(b"o", 5), m.find(b"o", 0, 4), m.rfind(b"!"), m.rfind(b"!", 0, -3))
print(m.find(b"WORLD"), m.find(b"zz"), m.find(b""), m.rfind(b""), m.find(b"", 5, 2), m.find(b"o", -11))
m.seek(10)
print(m.find(b"o"), m.find(b"l"), m.rfind(b"l"))
m.move(0, 7, 5)
print(m[:7])
print(m.flush(), m.flush(0, len(m)), m.madvise(mmap.MADV_NORMAL), m.madvise(mmap.MADV_RANDOM, 0, 100))
print(b"W" in m, 87 in m, [x for x in m][:3])
mv = memoryview(m)
print(mv.readonly, mv.format, mv.itemsize, mv.nbytes, mv.ndim, mv.shape, bytes(mv[:5]))
mv[0] = ord("Z")
print(m[0])
attempt("close exported", m.close)
attempt("resize exported", m.resize, 32)
mv.release()
print(m.resize(32), len(m), m[16:20])
attempt("size anonymous", m.size)
m.close()
print(m.closed, repr(m), m.close())

# Every operation on a closed map.
for name, f in [("len", lambda: len(m)), ("index", lambda: m[0]), ("slice", lambda: m[0:2]),
                ("store", lambda: store(m, 0, 1)), ("read", m.read), ("readline", m.readline),
                ("read_byte", m.read_byte), ("write", lambda: m.write(b"x")),
                ("write_byte", lambda: m.write_byte(1)), ("seek", lambda: m.seek(0)),
                ("tell", m.tell), ("size", m.size), ("find", lambda: m.find(b"a")),
                ("rfind", lambda: m.rfind(b"a")), ("flush", m.flush), ("move", lambda: m.move(0, 0, 1)),
                ("resize", lambda: m.resize(4)), ("madvise", lambda: m.madvise(mmap.MADV_NORMAL)),
                ("memoryview", lambda: memoryview(m)), ("list", lambda: list(m)),
                ("enter", m.__enter__), ("seekable", m.seekable)]:
    attempt("closed " + name, f)

# Errors on an open map.
m = mmap.mmap(-1, 10)
attempt("index 10", lambda: m[10])
attempt("index -11", lambda: m[-11])
attempt("index str", lambda: m["a"])
attempt("index float", lambda: m[1.5])
attempt("store 256", store, m, 0, 256)
attempt("store -1", store, m, 0, -1)
attempt("store bytes", store, m, 0, b"a")
attempt("store str", store, m, 0, "a")
attempt("store index 10", store, m, 10, 1)
attempt("store key str", store, m, "a", 1)
attempt("store slice size", store, m, slice(0, 2), b"abc")
attempt("store slice str", store, m, slice(0, 2), "ab")
attempt("store slice int", store, m, slice(0, 2), 5)
attempt("delete", m.__delitem__, 0)
attempt("seek past end", m.seek, 11)
attempt("seek negative", m.seek, -1)
attempt("seek whence", m.seek, 0, 3)
attempt("seek end", m.seek, 0, 2)
attempt("read_byte at end", m.read_byte)
attempt("write_byte at end", m.write_byte, 1)
attempt("write at end", m.write, b"a")
m.seek(0)
attempt("write too long", m.write, b"x" * 11)
attempt("write str", m.write, "abc")
attempt("write_byte 256", m.write_byte, 256)
attempt("write_byte str", m.write_byte, "a")
attempt("read str", m.read, "a")
attempt("move range", m.move, 0, 5, 6)
attempt("move negative", m.move, -1, 0, 1)
attempt("flush range", m.flush, 0, 11)
attempt("flush negative", m.flush, -1)
attempt("flush offset", m.flush, 1)
attempt("madvise start", m.madvise, mmap.MADV_NORMAL, 11)
attempt("madvise start -1", m.madvise, mmap.MADV_NORMAL, -1)
attempt("madvise length", m.madvise, mmap.MADV_NORMAL, 0, -1)
attempt("madvise option", m.madvise, 9999)
attempt("find str", m.find, "a")
attempt("find start str", m.find, b"a", "x")
attempt("resize negative", m.resize, -1)
attempt("resize zero", m.resize, 0)
print(len(m))

# Constructor errors.
attempt("length negative", mmap.mmap, -1, -1)
attempt("offset negative", lambda: mmap.mmap(-1, 10, offset=-1))
attempt("access invalid", lambda: mmap.mmap(-1, 10, access=7))
attempt("access and flags", lambda: mmap.mmap(-1, 10, flags=mmap.MAP_PRIVATE, access=mmap.ACCESS_READ))
attempt("anonymous empty", mmap.mmap, -1, 0)
attempt("unaligned offset", lambda: mmap.mmap(-1, 10, offset=1))
attempt("bad fd", mmap.mmap, 999, 10)
attempt("fd str", mmap.mmap, "a", 10)
attempt("unknown keyword", lambda: mmap.mmap(-1, 10, foo=1))
attempt("no args", mmap.mmap)
attempt("no length", mmap.mmap, -1)
attempt("too many", mmap.mmap, -1, 10, 1, 2, 3, 4, 5)
attempt("length huge", mmap.mmap, -1, 2**70)

# Access modes.
r = mmap.mmap(-1, 4, access=mmap.ACCESS_READ)
print(repr(r))
attempt("readonly write", r.write, b"a")
attempt("readonly store", store, r, 0, 1)
attempt("readonly slice", store, r, slice(0, 1), b"a")
attempt("readonly resize", r.resize, 8)
attempt("readonly move", r.move, 0, 1, 1)
attempt("readonly write_byte", r.write_byte, 1)
attempt("readonly flush", r.flush)
print(memoryview(r).readonly)
print(repr(mmap.mmap(-1, 4, prot=mmap.PROT_READ)))
c = mmap.mmap(-1, 4, access=mmap.ACCESS_COPY)
print(repr(c))
attempt("copy resize", c.resize, 8)
print(repr(mmap.mmap(-1, 4, access=mmap.ACCESS_WRITE)))
print(repr(mmap.mmap(-1, 4, flags=mmap.MAP_PRIVATE)))

with mmap.mmap(-1, 5) as q:
    q.write(b"hello")
    print("inside:", q.closed, bytes(q), q.tell())
print("after:", q.closed)


class Sub(mmap.mmap):
    pass


s = Sub(-1, 3)
print(type(s).__name__, repr(s), isinstance(s, mmap.mmap))
import weakref
print(weakref.ref(s)() is s)

# File-backed maps.
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "data")
    with open(path, "wb") as f:
        f.write(b"0123456789" * 1000)
    with open(path, "r+b") as f:
        whole = mmap.mmap(f.fileno(), 0)
        print(len(whole), whole.size(), whole[:5], repr(whole))
        attempt("length past file", mmap.mmap, f.fileno(), 20000)
        attempt("offset past file", lambda: mmap.mmap(f.fileno(), 0, offset=mmap.PAGESIZE * 3))
        attempt("offset unaligned", lambda: mmap.mmap(f.fileno(), 0, offset=100))
        part = mmap.mmap(f.fileno(), 100, offset=mmap.PAGESIZE)
        print(repr(part) == "<mmap.mmap closed=False, access=ACCESS_DEFAULT, length=100, pos=0, offset=%d>" % mmap.PAGESIZE)
        print(part[:4] == whole[mmap.PAGESIZE:mmap.PAGESIZE + 4], part.size())
        tail = mmap.mmap(f.fileno(), 0, offset=mmap.PAGESIZE)
        print(len(tail) == 10000 - mmap.PAGESIZE)
        tail.close()
        whole[0:3] = b"abc"
        whole.flush()
        with open(path, "rb") as g:
            print("written through:", g.read(4))
        copy = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
        copy[0:3] = b"ZZZ"
        print("copy:", copy[:4], copy.flush())
        with open(path, "rb") as g:
            print("file kept:", g.read(4))
        ro = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        print("read-only view:", ro[:4])
        print(whole.resize(20000), len(whole), whole.size(), os.path.getsize(path), whole[19999])
        whole[19999] = 65
        print(whole.resize(5000), len(whole), whole.size(), os.path.getsize(path))
        print(part.resize(200), len(part), os.path.getsize(path) == mmap.PAGESIZE + 200)
        untracked = mmap.mmap(f.fileno(), 10, trackfd=False)
        attempt("untracked size", untracked.size)
        attempt("untracked resize", untracked.resize, 20)
        for x in (whole, part, copy, ro, untracked):
            x.close()
    fd = os.open(path, os.O_RDWR)
    own = mmap.mmap(fd, 4)
    os.close(fd)
    print("map outlives its fd:", own[:], own.size() == os.path.getsize(path))
    own.close()
    open(os.path.join(d, "empty"), "wb").close()
    with open(os.path.join(d, "empty"), "r+b") as e:
        attempt("empty file", mmap.mmap, e.fileno(), 0)
        attempt("empty file length", mmap.mmap, e.fileno(), 10)
    with open(path, "rb") as ro_file:
        attempt("write map of read-only fd", mmap.mmap, ro_file.fileno(), 0)
        attempt("ACCESS_WRITE of read-only fd", lambda: mmap.mmap(ro_file.fileno(), 0, access=mmap.ACCESS_WRITE))
        with mmap.mmap(ro_file.fileno(), 0, access=mmap.ACCESS_READ) as view:
            print("ACCESS_READ of read-only fd:", view[:2], view.find(b"9"), view.rfind(b"0"))
    attempt("file object", lambda: mmap.mmap(open(path, "rb"), 10))
