# BufferedRandom over a file against a BytesIO model: random interleaved
# reads, writes, seeks, read1 and tells with small buffers must agree.
import _io
class R:
    def __init__(s, seed): s.x = seed
    def __call__(s, n):
        s.x = (s.x * 1103515245 + 12345) & 0x7fffffff
        return s.x % n
p = '/tmp/lazypy_io_buffered_' + open('/proc/self/stat').read().split()[0]
bad = 0
ops = 0
for seed in range(300):
    r = R(seed)
    open(p, 'wb').close()
    f = open(p, 'r+b', buffering=2 + r(16))
    m = _io.BytesIO()
    log = []
    for step in range(40):
        op = r(9)
        if op < 3:
            data = bytes([65 + r(26)]) * r(20)
            a, b = f.write(data), m.write(data)
        elif op == 3:
            n = r(20); a, b = f.read(n), m.read(n)
        elif op == 4:
            a, b = f.readline(), m.readline()
        elif op == 5:
            pos = r(40); a, b = f.seek(pos), m.seek(pos)
        elif op == 6:
            a, b = f.tell(), m.tell()
        elif op == 7:
            a = f.read1(5); b = m.read(len(a)) if a else m.read(0)
            if not a and m.tell() < len(m.getvalue()): b = 'mismatch'
        else:
            off = r(5) - 2
            if f.tell() + off < 0: off = 0
            a, b = f.seek(off, 1), m.seek(off, 1)
        log.append((op, a, b))
        ops += 1
        if a != b:
            bad += 1
            print('seed', seed, 'step', step, log[-3:])
            break
    f.close()
    if open(p, 'rb').read() != m.getvalue():
        print('content differs', seed)
        bad += 1
print('ops', ops, 'bad', bad)
try:
    import posix
    posix.unlink(p)
except ImportError:
    pass
