# TextIOWrapper over an incremental decoder written in Python: the general
# codec path (tell/seek replay with decoder state, errors).  Until the codecs
# module loads here, a stand-in "codecs" offering utf-16-le is installed.
import sys, _io

class Info:
    _is_text_encoding = True
    def __init__(self, dec, enc):
        self.incrementaldecoder = dec
        self.incrementalencoder = enc

class U16Decoder:
    """UTF-16-LE without surrogate pairs, keeping an odd byte."""
    def __init__(self, errors='strict'):
        self.pending = b''
    def decode(self, data, final=False):
        data = self.pending + bytes(data)
        n = len(data) - len(data) % 2
        self.pending = data[n:]
        if final and self.pending:
            raise UnicodeDecodeError('utf-16-le', data, n, len(data), 'truncated data')
        return ''.join(chr(data[i] | data[i + 1] << 8) for i in range(0, n, 2))
    def getstate(self):
        return (self.pending, 0)
    def setstate(self, st):
        self.pending = st[0]
    def reset(self):
        self.pending = b''

class U16Encoder:
    def __init__(self, errors='strict'):
        pass
    def encode(self, s, final=False):
        return b''.join(bytes([ord(c) & 255, ord(c) >> 8]) for c in s)
    def reset(self):
        pass
    def setstate(self, st):
        pass

class FakeCodecs:
    def lookup(self, name):
        if name.replace('-', '_').lower() == 'utf_16_le':
            return Info(U16Decoder, U16Encoder)
        raise LookupError('unknown encoding: ' + name)

real = None
try:
    import codecs
    real = codecs
except Exception:
    sys.modules['codecs'] = FakeCodecs()

p = '/tmp/lazypy_io_codecs_' + open('/proc/self/stat').read().split()[0]
with open(p, 'w', encoding='utf-16-le') as f:
    f.write('héllo\nwörld\r\nend')
print(open(p, 'rb').read())
with open(p, encoding='utf-16-le') as f:
    f._CHUNK_SIZE = 3
    marks = []
    while True:
        pos = f.tell()
        c = f.read(1)
        if not c:
            break
        marks.append((pos, c))
    print(''.join(c for _, c in marks) == 'héllo\nwörld\nend', len(marks))
    print(all(f.seek(pos) == pos and f.read(1) == c for pos, c in marks))
    f.seek(0)
    print(f.readlines(), f.newlines)
with open(p, 'rb') as f:
    data = f.read()
with open(p, 'wb') as f:
    f.write(data[:-1])
with open(p, encoding='utf-16-le') as f:
    try:
        f.read()
    except UnicodeDecodeError as e:
        print('UnicodeDecodeError', e.reason)
try:
    open(p, encoding='nope')
except LookupError as e:
    print('LookupError')
try:
    import posix
    posix.unlink(p)
except ImportError:
    pass
