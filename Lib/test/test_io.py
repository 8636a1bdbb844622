# The _io module: files (raw, buffered, text), BytesIO, StringIO, newline
# handling, positions, errors.  Uses only _io and open() so it runs before
# the rest of the stdlib (io.py needs abc, which needs _weakref).
import _io

PID = open('/proc/self/stat').read().split()[0]
TMP = '/tmp/lazypy_test_io_' + PID


def path(tag):
    return TMP + '_' + tag


def remove(p):
    try:
        import posix
    except ImportError:
        return
    try:
        posix.unlink(p)
    except OSError:
        pass


def show(f, *args):
    try:
        print(repr(f(*args)))
    except Exception as e:
        print(type(e).__name__, e)


def err(f, *args, **kw):
    try:
        f(*args, **kw)
    except Exception as e:
        print(type(e).__name__ + ':', e)
    else:
        print('no error')


print('== hierarchy')
print(_io.FileIO.__mro__)
print(_io.BufferedRandom.__mro__)
print(_io.TextIOWrapper.__mro__)
print(_io.StringIO.__mro__, _io.BytesIO.__mro__)
print(_io.UnsupportedOperation.__mro__)
print(_io.BlockingIOError is BlockingIOError, _io.DEFAULT_BUFFER_SIZE)
print(open is _io.open)

print('== text write/read')
p = path('text')
with open(p, 'w') as f:
    print(repr(f).replace(p, 'P'), f.mode, f.encoding, f.errors, f.line_buffering, f.writable(), f.readable())
    print(f.write('héllo\nwörld\n'), f.write(''), f.write('last'))
    print(f.tell())
print(f.closed)
with open(p) as f:
    print(repr(f.read()))
    print(repr(f.read()), f.tell())
with open(p, encoding='utf-8') as f:
    print(repr(f.readline()), f.tell())
    print(repr(f.readline()), f.tell())
    print(repr(f.readline()), repr(f.readline()))
with open(p) as f:
    print(f.readlines())
with open(p) as f:
    print([line for line in f])
with open(p) as f:
    print(repr(f.read(3)), repr(f.read(4)), f.tell())
    pos = f.tell()
    rest = f.read()
    f.seek(pos)
    print(f.read() == rest, f.seek(0), repr(f.read(2)))
    print(f.seek(0, 2), repr(f.read()))
    err(f.seek, 1, 1)
    err(f.seek, 1, 2)
    err(f.seek, -1)
    err(f.seek, 0, 5)
    err(f.write, 'x')
with open(p) as f:
    for line in f:
        err(f.tell)
        break
with open(p, 'a') as f:
    f.write('\nappended')
with open(p) as f:
    print(repr(f.read()))
with open(p, 'r+') as f:
    f.write('X')
    f.seek(0)
    print(repr(f.readline()))
with open(p, 'w', encoding='latin-1') as f:
    f.write('caf\xe9 \xff')
with open(p, 'rb') as f:
    print(f.read())
with open(p, encoding='latin-1') as f:
    print(repr(f.read()))
with open(p, 'w', encoding='ascii', errors='replace') as f:
    f.write('a\xe9b')
with open(p, 'rb') as f:
    print(f.read())
with open(p, 'w', encoding='ascii') as f:
    err(f.write, '\xe9')
with open(p, 'wb') as f:
    f.write(b'ok \xff\xfe end')
with open(p) as f:
    err(f.read)
with open(p, errors='replace') as f:
    print(repr(f.read()))
with open(p, errors='surrogateescape') as f:
    print(repr(f.read()))

print('== utf-8 positions across multibyte characters')
with open(p, 'w', encoding='utf-8') as f:
    f.write('aé€😀b\n' * 3)
with open(p, encoding='utf-8') as f:
    f._CHUNK_SIZE = 5
    marks = []
    while True:
        pos = f.tell()
        c = f.read(1)
        if not c:
            break
        marks.append((pos, c))
    print(len(marks))
    ok = True
    for pos, c in marks:
        f.seek(pos)
        if f.read(1) != c:
            ok = False
    print('all seeks ok:', ok)
with open(p, encoding='utf-8') as f:
    f._CHUNK_SIZE = 3
    line = f.readline()
    pos = f.tell()
    print(repr(line), repr(f.readline()))
    f.seek(pos)
    print(repr(f.readline()))

print('== newline modes')
with open(p, 'wb') as f:
    f.write(b'a\nb\r\nc\rd')
for nl in (None, '', '\n', '\r', '\r\n'):
    with open(p, newline=nl) as f:
        print(repr(nl), [line for line in f], f.newlines)
    with open(p, newline=nl) as f:
        print(repr(nl), repr(f.read()))
for nl in (None, '', '\n', '\r', '\r\n'):
    with open(p, 'w', newline=nl) as f:
        f.write('x\ny\r\n')
    with open(p, 'rb') as f:
        print(repr(nl), f.read())
with open(p, 'wb') as f:
    f.write(b'one\r\ntwo\r\nthree')
with open(p) as f:
    f._CHUNK_SIZE = 4
    lines = []
    while True:
        pos = f.tell()
        line = f.readline()
        if not line:
            break
        lines.append((pos, line))
    print(lines)
    f.seek(lines[1][0])
    print(repr(f.read()))
err(open, p, 'w', newline='x')
err(open, p, 'w', newline=3)

print('== binary, buffered')
p2 = path('bin')
with open(p2, 'wb') as f:
    print(repr(f).replace(p2, 'P'), f.mode, f.raw.mode, f.name == p2)
    print(f.write(b'0123456789'), f.write(bytearray(b'abc')), f.tell())
    f.seek(2)
    f.write(b'XY')
    print(f.tell())
with open(p2, 'rb') as f:
    print(f.peek(3)[:3], f.read1(4), f.read(2), f.tell())
    print(f.read(), f.read(), f.tell())
    print(f.seek(-3, 2), f.read(), f.seek(1), f.seek(2, 1), f.read(2))
    b = bytearray(5)
    f.seek(0)
    print(f.readinto(b), b)
    print(f.readinto1(b), b)
    err(f.write, b'x')
    err(f.seek, 0, 7)
    err(f.truncate)
with open(p2, 'rb') as f:
    print(f.readlines())
with open(p2, 'r+b') as f:
    print(f.read(3))
    f.write(b'__')
    print(f.tell())
    f.seek(0)
    print(f.read())
    print(f.truncate(4), f.tell())
    f.seek(0)
    print(f.read(), type(f).__name__)
with open(p2, 'ab') as f:
    print(f.tell(), f.write(b'+end'), f.mode)
with open(p2, 'rb') as f:
    print(f.read())
with open(p2, 'w+b') as f:
    f.write(b'line1\nline2\nline3')
    f.seek(0)
    print([line for line in f])
    f.seek(0)
    print(f.readline(), f.readline(3), f.readline(), f.readline(), f.readline())
big = bytes(range(256)) * 1000
with open(p2, 'wb', buffering=100) as f:
    f.write(big[:50])
    f.write(big[50:])
with open(p2, 'rb', buffering=100) as f:
    got = f.read(10) + f.read(1000) + f.read()
    print(got == big, len(got))
with open(p2, 'rb', buffering=0) as f:
    print(type(f).__name__, f.mode, len(f.read(10)), len(f.readall()), f.read(5))
    print(repr(f).replace(p2, 'P'))
    b = bytearray(4)
    f.seek(3)
    print(f.readinto(b), b, f.tell())
f = _io.FileIO(p2, 'w')
print(f.write(b'raw'), f.closefd, f.mode, f.readable(), f.writable(), f.seekable(), f.isatty())
err(f.read)
f.close()
f.close()
print(repr(f), f.closed)
err(f.write, b'x')
err(f.fileno)
for mode in ('w+', 'a+', 'a', 'r+', 'x'):
    remove(p2 + 'm')
    if mode == 'r+':
        open(p2 + 'm', 'w').close()
    if mode == 'x':
        remove(p2 + 'm')
        try:
            import posix
        except ImportError:
            open(p2 + 'm', 'w').close()
            print('xb')
            continue
    with _io.FileIO(p2 + 'm', mode) as f:
        print(f.mode)
remove(p2 + 'm')

print('== opener, closefd, fds')
holder = _io.FileIO(p, 'r')
flags_seen = []
def opener(name, flags):
    flags_seen.append((name == p, flags & 3))
    return holder.fileno()
with open(p, 'rb', opener=opener) as f:
    print(f.read(3), flags_seen)
err(holder.close)
raw = _io.FileIO(p, 'r')
with open(raw.fileno(), 'rb', closefd=False) as f:
    print(f.read(3), f.name == raw.fileno())
print(raw.closed, raw.read(2))
raw.close()
err(open, p, closefd=False)
err(_io.FileIO, -3)
err(_io.FileIO, 3.5)
err(open, p, opener=lambda name, flags: -5)

print('== errors')
err(open, '/nonexistent_dir_lazypy/zz')
try:
    open('/nonexistent_dir_lazypy/zz')
except FileNotFoundError as e:
    print(e.errno, e.filename, e.strerror, isinstance(e, OSError))
try:
    open('/tmp')
except IsADirectoryError as e:
    print('IsADirectoryError', e.errno, e.filename)
for mode in ('rz', 'rw', 'rr', 'b', 'rU', 'tb', '+', 'wx', ''):
    err(open, p, mode)
for mode in ('rz', 'rw', 'rr', 'rt'):
    err(_io.FileIO, p, mode)
err(open, p, 'rb', encoding='utf-8')
err(open, p, 'rb', errors='strict')
err(open, p, 'rb', newline='')
err(open, p, 'r', buffering=0)
err(open, p, 3)
err(open, 3.5)
err(open, p, encoding=4)
try:
    open(p, encoding='no-such-codec')
except LookupError as e:
    print('LookupError', 'no-such-codec' in str(e))
err(_io.TextIOWrapper, _io.BytesIO(), errors=3)
err(_io.TextIOWrapper, _io.BytesIO(), encoding=3)
err(_io.BufferedReader, _io.BytesIO(), 0)
err(_io.BufferedReader, _io.FileIO(p, 'w'))
err(_io.BufferedWriter, _io.FileIO(p, 'r'))
err(_io.open_code, b'x')
print(_io.text_encoding(None), _io.text_encoding('latin-1'))

print('== closed files')
f = open(p, 'rb')
f.close()
for name in ('read', 'readline', 'peek', 'tell', 'read1', 'fileno', 'flush'):
    err(getattr(f, name))
err(f.seek, 0)
err(f.readinto, bytearray(2))
print(repr(f).replace(p, 'P'), f.closed)
f = open(p, 'wb')
f.close()
err(f.write, b'x')
err(f.flush)
f = open(p)
f.close()
for name in ('read', 'readline', 'tell', 'flush', 'readlines', '__enter__', '__iter__'):
    err(getattr(f, name))
err(f.write, 'x')
print(repr(f).replace(p, 'P'), f.closed)
f.close()

print('== base classes')
err(_io._RawIOBase().readinto, bytearray(1))
err(_io._RawIOBase().write, b'')
err(_io._RawIOBase().read, 1)
err(_io._BufferedIOBase().read, 1)
err(_io._BufferedIOBase().write, b'')
err(_io._BufferedIOBase().detach)
err(_io._IOBase().seek, 0)
err(_io._IOBase().tell)
err(_io._IOBase().fileno)
err(_io._IOBase().truncate)
err(_io._TextIOBase().read)
err(_io._TextIOBase().readline)
print(_io._TextIOBase().encoding, _io._IOBase().readable(), _io._IOBase().closed)
b = _io._IOBase()
b.close()
print(b.closed)
err(b.flush)
err(b.__enter__)

class Chunks(_io._RawIOBase):
    def __init__(self, data):
        self.data = data
    def readable(self):
        return True
    def readinto(self, b):
        n = min(len(b), 3, len(self.data))
        b[:n] = self.data[:n]
        self.data = self.data[n:]
        return n

r = Chunks(b'abcdefghij\nklm\nno')
print(r.read(2), r.read(), r.read())
r = Chunks(b'abcdefghij\nklm\nno')
print(r.readline(), r.readlines())
br = _io.BufferedReader(Chunks(b'one\ntwo\nthree'), 4)
print(br.read(5), br.readline(), br.peek(1)[:1], br.read())
t = _io.TextIOWrapper(_io.BufferedReader(Chunks('héllo\nwörld'.encode())), encoding='utf-8')
print(t.readlines())

class Sink(_io._RawIOBase):
    def __init__(self):
        self.got = []
    def writable(self):
        return True
    def write(self, b):
        self.got.append(bytes(b))
        return len(b)

s = Sink()
bw = _io.BufferedWriter(s, 4)
bw.write(b'ab')
bw.write(b'cd')
print(s.got)
bw.write(b'efghij')
print(s.got)
bw.flush()
print(s.got, bw.closed)
bw.close()
print(bw.closed, s.closed)

print('== BytesIO')
b = _io.BytesIO(b'hello\nworld\n')
print(b.read(3), b.tell(), b.readline(), b.readlines(), b.read())
print(b.getvalue(), b.seek(0), b.read1(2), b.seek(2, 1), b.read(), b.seek(-2, 2), b.read())
b = _io.BytesIO()
print(b.write(b'abc'), b.write(bytearray(b'de')), b.getvalue(), b.tell())
b.seek(8)
b.write(b'Z')
print(b.getvalue())
print(b.truncate(4), b.getvalue(), b.tell())
b.seek(1)
print(b.truncate(), b.getvalue())
ba = bytearray(3)
b.seek(0)
print(b.readinto(ba), ba)
b.writelines([b'x', b'y'])
print(b.getvalue(), list(_io.BytesIO(b'a\nb\nc')))
print(b.readable(), b.writable(), b.seekable(), b.isatty(), b.closed)
err(b.seek, -1)
err(b.seek, 0, 5)
err(b.truncate, -1)
err(b.write, 'x')
err(b.read, 'x')
err(b.seek, 1.5)
st = b.__getstate__()
print(st[:2])
b.close()
b.close()
print(b.closed)
err(b.read)
err(b.getvalue)
err(b.write, b'')
err(b.tell)
with _io.BytesIO(b'ctx') as b:
    print(b.read())
print(b.closed)

print('== StringIO')
s = _io.StringIO('hello\nworld\n')
print(repr(s.read(3)), s.tell(), repr(s.readline()), s.readlines(), repr(s.read()))
print(s.seek(0), repr(s.read()), s.seek(0, 2), s.seek(0, 1), repr(s.getvalue()))
s = _io.StringIO()
print(s.write('héllo'), s.write('€😀'), repr(s.getvalue()), s.tell())
s.seek(10)
s.write('!')
print(repr(s.getvalue()))
print(s.truncate(3), repr(s.getvalue()), s.tell())
s.seek(0)
print(list(s), s.line_buffering, s.encoding, s.errors, s.newlines)
for nl in (None, '', '\n', '\r', '\r\n'):
    s = _io.StringIO('a\nb\r\nc\rd', newline=nl)
    print(repr(nl), repr(s.getvalue()), list(s), s.newlines)
    s = _io.StringIO(newline=nl)
    s.write('x\ny\r\nz\r')
    print(repr(nl), repr(s.getvalue()))
err(_io.StringIO, b'x')
err(_io.StringIO, '', newline='x')
err(_io.StringIO, '', newline=4)
s = _io.StringIO('abc')
err(s.seek, 1, 1)
err(s.seek, -1)
err(s.seek, 0, 5)
err(s.write, b'x')
err(s.truncate, -1)
print(s.readable(), s.writable(), s.seekable(), s.closed)
s.close()
print(s.closed)
err(s.read)
err(s.getvalue)
err(s.write, 'x')
with _io.StringIO('ctx') as s:
    print(s.read())
print(s.closed)

print('== TextIOWrapper over BytesIO')
raw = _io.BytesIO()
t = _io.TextIOWrapper(raw, encoding='utf-8', newline='\r\n')
print(repr(t), t.encoding, t.errors, t.newlines, t.buffer is raw, t.name if hasattr(t, 'name') else 'no name')
t.write('a\nb\n')
t.flush()
print(raw.getvalue())
t = _io.TextIOWrapper(_io.BytesIO(b'x\r\ny\rz\n'), encoding='latin-1')
print(t.readlines(), t.newlines)
t = _io.TextIOWrapper(_io.BytesIO(), encoding='utf-8', line_buffering=True)
print(t.line_buffering, t.write_through)
t.write('abc')
t.reconfigure(line_buffering=False, write_through=True)
print(t.line_buffering, t.write_through)
t.reconfigure(encoding='latin-1')
t.write('\xe9')
t.flush()
print(t.encoding, t.buffer.getvalue())
t = _io.TextIOWrapper(_io.BytesIO(b'abc\ndef'), encoding='utf-8')
print(repr(t.readline()))
err(t.reconfigure, encoding='latin-1')
err(t.reconfigure, newline='x')
b = t.detach()
print(b.read(), repr(t).startswith('<_io.TextIOWrapper'))
err(t.read)
err(lambda: t.buffer)
t = _io.TextIOWrapper(_io.BytesIO(b'a\nb\nc\n'), encoding='ascii')
t._CHUNK_SIZE = 2
print(t._CHUNK_SIZE, repr(t.read(1)), t.tell(), repr(t.readline()), t.tell(), repr(t.read()))
err(setattr, t, '_CHUNK_SIZE', 0)
nd = _io.IncrementalNewlineDecoder(None, True)
print(repr(nd.decode('a\r')), repr(nd.decode('\nb\r')), nd.getstate(), repr(nd.decode('', final=True)), nd.newlines)
nd.reset()
print(nd.newlines, nd.getstate())
nd = _io.IncrementalNewlineDecoder(None, False)
print(repr(nd.decode('a\r\nb\rc\n')), nd.newlines)
err(nd.decode, b'x')

print('== misc')
print(repr(open(p, 'w', encoding='latin-1')).replace(p, 'P'))
f = open(p, 'rb')
print(f.readable(), f.writable(), f.seekable(), f.isatty(), f.closed, f.raw.closefd)
f.close()
with open(p, 'w') as f:
    print(f.fileno() > 2, f.isatty())
import sys
print(type(sys.stdout).__name__, type(sys.stdout.buffer).__name__ in ('BufferedWriter', 'FileIO'),
      sys.stdout.name, sys.stderr.name, sys.stdin.name, sys.stdout.mode, sys.stderr.errors,
      sys.__stdout__ is sys.stdout, sys.stderr.line_buffering or sys.stderr.write_through)
print(sys.stdout.fileno(), sys.stderr.fileno(), sys.stdin.fileno())
print('unflushed', end='')
sys.stdout.flush()
print()
print('== more')
p = path('more')
with open(p, 'w') as f: f.write('abc\ndefgh\nij\n' * 3)
def t(fn):
    try:
        print(repr(fn()).replace(p, 'P'))
    except Exception as e:
        print(type(e).__name__, str(e).replace(p, 'P'))
f = open(p, 'rb')
t(lambda: f.read1()[:5]); t(lambda: f.readlines(5)); t(lambda: f.readline(2)); f.close()
f = open(p)
t(lambda: f.readline(2)); t(lambda: f.readline(0)); t(lambda: f.readlines(5)); t(lambda: f.read(0)); f.close()
raw = _io.FileIO(p); f = _io.FileIO(raw.fileno(), closefd=False); t(lambda: repr(f)); f.close(); raw.close()
t(lambda: _io.StringIO().tell())
t(lambda: _io.TextIOWrapper(_io.BytesIO(b'abc')).read())
t(lambda: _io.TextIOWrapper(_io.BytesIO(b'abc'), encoding='utf-8', newline='').newlines)
t(lambda: _io.BufferedRWPair(_io.BytesIO(b'rd'), _io.BytesIO()).read())
t(lambda: _io.BufferedRWPair(_io.BytesIO(b'rd'), _io.BytesIO()).write(b'zz'))
t(lambda: _io.BufferedRWPair(_io.BytesIO(b'rd'), _io.BytesIO()).closed)
t(lambda: _io.BufferedRWPair(_io.BytesIO(b'rd\nx'), _io.BytesIO()).readline())
t(lambda: _io.BufferedReader(_io.BytesIO(b'abc')).raw.getvalue())
t(lambda: _io.BufferedReader(_io.BytesIO(b'abc')).read(-2))
t(lambda: _io.open(p, 'r', buffering=5).buffer.raw.mode)
t(lambda: _io.open(p, 'x').name)
t(lambda: _io.FileIO(p).name == p)
b = _io.BufferedReader(_io.BytesIO(b'abc\ndef'))
t(lambda: list(b))
t(lambda: _io.TextIOWrapper(_io.BytesIO(b'\xef\xbb\xbfabc'), encoding='utf-8').read())
t(lambda: _io.TextIOWrapper(_io.BytesIO(b'abc'), encoding='UTF8').encoding)
t(lambda: _io.TextIOWrapper(_io.BytesIO(b'a\xe9'), encoding='ascii', errors='strict').read())
t(lambda: _io.TextIOWrapper(_io.BytesIO(b'a\xe9'), encoding='ascii', errors='ignore').read())
tw = _io.TextIOWrapper(_io.BytesIO(), encoding='utf-8')
t(lambda: tw.write('\udc80'))
t(lambda: _io.StringIO('abc').read(-5))
s = _io.StringIO(); s.write('abc'); s.seek(1); s.write('Z'); t(lambda: s.getvalue()); t(lambda: s.read())
t(lambda: _io.BytesIO(bytearray(b'ba')).getvalue())
t(lambda: _io.BytesIO(memoryview(b'mv') if 'memoryview' in dir(__builtins__) else b'mv').getvalue())
t(lambda: _io.BytesIO('str'))
print('== path-like and arguments')
class PL:
    def __fspath__(self): return p
with open(p, 'w') as f: f.write('pathlike')
t(lambda: open(PL()).read())
t(lambda: open(p.encode()).name == p.encode())
t(lambda: open('/tmp/lazypy\0x'))
t(lambda: open(PL(), 'rb').name)
t(lambda: open(p, 'rb').read(-1))
t(lambda: open(p, 'rb', buffering=0).read(None))
t(lambda: open(p).read(None))
t(lambda: open(p).read(2.5))
t(lambda: open(p, 'rb').read('x'))
t(lambda: _io.StringIO().write(5))
t(lambda: open(p, 'w').writelines(['a', 'b']))
t(lambda: open(p).read())
t(lambda: _io.BytesIO(b'abc').read1())
t(lambda: _io.BufferedReader(_io.BytesIO(b'abc')).read1())
t(lambda: _io.TextIOWrapper(_io.BytesIO(b'abc'), encoding='utf-8').name)
t(lambda: _io.TextIOWrapper(_io.BytesIO(b'abc'), encoding='utf-8').fileno())
t(lambda: _io.BytesIO().fileno())
t(lambda: _io.StringIO().fileno())
t(lambda: _io.StringIO().detach())
remove(p)
remove(p2)
remove(path('more'))
print('done')
