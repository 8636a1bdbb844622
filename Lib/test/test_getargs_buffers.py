# The getargs buffer units: y* (_imp.source_hash's source) and s* (ssl's
# RAND_add, which takes str or bytes-like), errors included.  Hash values
# are ours (keyed by our magic number), so only their properties print.
import _imp
import array
import ssl

key = 20261202
h = _imp.source_hash(key, b"print(1)\n")
print(type(h).__name__, len(h))
same = [_imp.source_hash(key, src) == h
        for src in (bytearray(b"print(1)\n"), memoryview(b"print(1)\n"), array.array("b", b"print(1)\n"))]
print("bytes-likes agree:", same)
print("differs:", _imp.source_hash(key, b"print(2)\n") != h)
print("by keyword:", _imp.source_hash(key=key, source=b"print(1)\n") == h)
for bad in ("print(1)", None, 5, memoryview(b"abcd")[::2]):
    try:
        _imp.source_hash(key, bad)
    except (TypeError, BufferError) as e:
        print(type(e).__name__, e)

for data in ("some entropy", b"bytes entropy", bytearray(b"ba"), memoryview(b"mv")):
    print(type(data).__name__, ssl.RAND_add(data, 1.0))
for bad in (None, 3, [1]):
    try:
        ssl.RAND_add(bad, 1.0)
    except TypeError as e:
        print("TypeError", e)
try:
    ssl.RAND_add(b"x", "not a float")
except TypeError as e:
    print("second argument:", e)
