# TextIOWrapper positions: random text (multi-byte characters, all line endings),
# every newline mode, tiny chunk sizes, mixed reads; every tell() cookie must
# seek back to the same text.
import _io
class R:
    def __init__(s, seed): s.x = seed
    def __call__(s, n):
        s.x = (s.x * 1103515245 + 12345) & 0x7fffffff
        return s.x % n
pieces = ['a', 'é', '€', '😀', '\n', '\r', '\r\n', 'xyz', ' ']
p = '/tmp/lazypy_io_textpos_' + open('/proc/self/stat').read().split()[0]
out = []
for seed in range(60):
    r = R(seed)
    text = ''.join(pieces[r(len(pieces))] for _ in range(r(60)))
    with open(p, 'w', newline='') as f:
        f.write(text)
    nl = [None, '', '\n', '\r', '\r\n'][r(5)]
    with open(p, encoding='utf-8', newline=nl) as f:
        f._CHUNK_SIZE = 1 + r(7)
        marks = []
        for step in range(12):
            op = r(4)
            pos = f.tell()
            if op == 0:
                got = f.read(r(5))
            elif op == 1:
                got = f.readline()
            elif op == 2:
                got = f.readline(r(4))
            else:
                got = f.read(1)
            marks.append((pos, got))
            out.append((seed, step, op, got))
        for pos, got in marks:
            f.seek(pos)
            if got:
                again = f.read(len(got))
                out.append(('re', seed, again == got or (again, got)))
for o in out:
    print(o)
try:
    import posix
    posix.unlink(p)
except ImportError:
    pass
