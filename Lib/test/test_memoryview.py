# memoryview: attributes, indexing, slicing, casts, release, exports.

def show(f, *args, **kw):
    try:
        r = f(*args, **kw)
    except Exception as e:
        print(type(e).__name__, e)
    else:
        print(repr(r))

def attrs(m):
    return (m.format, m.itemsize, m.ndim, m.shape, m.strides, m.readonly, m.nbytes,
            m.c_contiguous, m.f_contiguous, m.contiguous, m.suboffsets)

m = memoryview(b'abcdef')
print(attrs(m), m.obj, len(m), m[0], m[-1], list(m))
print(m.tobytes(), m.tolist(), m.hex(), m.hex(':'), m.hex('-', 2), bytes(m))
s = m[1:5:2]
print(attrs(s), s.tobytes(), s.tolist(), s.obj is m.obj, len(m[10:]), m[::-1].tobytes())
show(m.__getitem__, 6)
show(m.__getitem__, -7)
show(m.__getitem__, 'x')
show(m.__getitem__, (0, 0))
show(m.__getitem__, (slice(0, 1),))
show(m.__setitem__, 0, 1)
show(m.__delitem__, 0)
show(m.__getitem__, ...)
show(memoryview, 1)
show(memoryview, 'abc')
print(memoryview(object=b'x').tobytes())

# writable views
b = bytearray(b'hello world')
w = memoryview(b)
print(attrs(w))
w[0] = ord('H')
w[-1] = 68
w[6:11] = b'WORLD'
print(b)
w[1:3] = w[3:5]
print(b)
show(w.__setitem__, 0, 256)
show(w.__setitem__, 0, -1)
show(w.__setitem__, 0, 'a')
show(w.__setitem__, slice(0, 2), b'abc')
show(w.__setitem__, slice(0, 2), 'ab')
w[::2] = b'xxxxxx'
print(b)
show(w.__setitem__, 20, 1)

# exports block resizing until release
show(b.append, 1)
show(b.extend, b'zz')
w2 = w[2:]
w.release()
show(b.append, 1)
w2.release()
b.append(33)
print(b, repr(w)[:9], repr(w2)[:9])
for f in (len, lambda v: v[0], lambda v: v.tobytes(), lambda v: v.format, lambda v: v.tolist(),
          lambda v: v.cast('B'), lambda v: v.nbytes, hash, lambda v: v.__enter__()):
    show(f, w)
print(repr(w).startswith('<released memory at 0x'), repr(m).startswith('<memory at 0x'))
w.release()
with memoryview(bytearray(b'ctx')) as cm:
    print(cm.tobytes(), repr(cm)[:9])
print(repr(cm)[:9])
ba = bytearray(b'abc')
with memoryview(ba) as cm:
    show(ba.append, 1)
ba.append(100)
print(ba)

# an exported view cannot be released
outer = memoryview(b'xyz')
inner = memoryview(outer)
outer.release()
print(inner.tobytes(), inner.obj)

# readonly and toreadonly
r = memoryview(bytearray(b'ro')).toreadonly()
print(r.readonly, r.tobytes())
show(r.__setitem__, 0, 1)

# casts
raw = bytearray(range(24))
c = memoryview(raw).cast('i')
print(attrs(c), c.tolist())
c[1] = -5
print(c[1], raw[4:8])
c2 = memoryview(raw).cast('B', shape=[2, 3, 4])
print(attrs(c2), c2.tolist())
print(c2[1, 2, 3], c2[0, 0, 0], c2[-1, -1, -1])
show(c2.__getitem__, 0)
show(c2.__getitem__, (0, 0))
show(c2.__getitem__, (0, 0, 9))
show(len, c2)
print(c2[1:].shape, c2[1:].tolist(), c2.tobytes(order='F')[:6], c2.tobytes('A') == bytes(raw))
c2[1, 1, 1] = 200
print(raw[17])
print(memoryview(raw).cast('h', [3, 4]).tolist())
print(c2.cast('B').tolist() == list(raw), c2.cast('I').shape)
print(memoryview(raw).cast('d').tolist()[0] == memoryview(bytes(raw)).cast('d')[0])
print(memoryview(b'\x01\x00\x00\x00').cast('i', []).tolist(), memoryview(b'ab').cast('c').tolist())
z = memoryview(b'\x07\x00\x00\x00').cast('i', ())
print(z.ndim, z.shape, z[()], z.tolist())
show(z.__getitem__, 0)
show(len, z)
show(memoryview(b'abc').cast, 'i')
show(memoryview(b'abcd').cast, 'i', [2])
show(memoryview(b'abcd').cast, 'xx')
show(memoryview(b'abcd').cast, 'i', 'x')
show(memoryview(b'abcdefgh').cast('i').cast, 'h')
show(memoryview(b'abcd')[::2].cast, 'B')
show(memoryview(b'abcd').cast, 'B', [2, 0])
show(memoryview(b'abcdefgh').cast('B', [2, 4]).cast, 'B', [4, 2])
show(memoryview(b'abcd').cast, 1)
for fmt in '?bBhHiIlLqQnNfdec':
    mv = memoryview(bytearray(16)).cast(fmt)
    print(fmt, mv.itemsize, len(mv), mv[0])
f = memoryview(bytearray(8)).cast('f')
f[0] = 1.5
f[1] = 2
print(f.tolist())
show(f.__setitem__, 0, 'x')
bo = memoryview(bytearray(2)).cast('?')
bo[0] = 5
bo[1] = []
print(bo.tolist())
cc = memoryview(bytearray(b'ab')).cast('c')
cc[0] = b'z'
print(cc.tolist())
show(cc.__setitem__, 0, b'zz')
show(cc.__setitem__, 0, 1)
e = memoryview(bytearray(4)).cast('e')
e[0] = 0.5
print(e.tolist())
q = memoryview(bytearray(8)).cast('Q')
q[0] = 2**64 - 1
print(q[0])
show(q.__setitem__, 0, 2**64)
show(q.__setitem__, 0, -1)
h = memoryview(bytearray(4)).cast('h')
h[0] = -32768
show(h.__setitem__, 1, 32768)
print(h.tolist())

# comparisons and hashing
print(memoryview(b'abc') == b'abc', memoryview(b'abc') == bytearray(b'abc'),
      memoryview(b'abc') != b'abd', memoryview(b'abc') == 'abc', memoryview(b'abc') == memoryview(b'abc'))
print(memoryview(b'ab') == b'abc', memoryview(b'\x01\x00\x00\x00').cast('i') == memoryview(b'\x01\x00\x00\x00'))
print(memoryview(b'abcd')[::2] == b'ac', c2 == c2, c2 == memoryview(raw).cast('B', [2, 3, 4]))
show(lambda: memoryview(b'a') < memoryview(b'b'))
rel = memoryview(b'abc')
rel.release()
print(rel == rel, rel == b'abc', memoryview(b'abc') == rel)
print(hash(memoryview(b'abc')) == hash(b'abc'), hash(memoryview(b'abcdef')[::2]) == hash(b'ace'))
show(hash, memoryview(bytearray(b'x')))
show(hash, memoryview(b'abcd').cast('i'))
show(hash, memoryview(bytearray(b'x')).toreadonly())
print({memoryview(b'k'): 1}[memoryview(b'k')])

print(memoryview(b'xyz').__class__.__name__, isinstance(memoryview(b''), memoryview))
print(memoryview(b'').tolist(), memoryview(b'').tobytes(), len(memoryview(b'')))
show(memoryview(b'ab').tobytes, 'X')
print(z[...] is z)

# count, index (3.14 methods)
n = memoryview(b'abcabc')
print(n.count(97), n.index(98), n.index(98, 2), n.count(300))
show(n.index, 122)
show(c2.count, 1)
