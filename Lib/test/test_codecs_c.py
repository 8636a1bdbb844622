# _codecs: the registry, error handlers and the per-codec functions.
import _codecs
import codecs

def show(f, *args):
    try:
        r = f(*args)
    except Exception as e:
        print(type(e).__name__, e)
    else:
        print(repr(r))

# lookup through encodings.search_function, normalisation, cache
info = codecs.lookup('UTF-8')
print(info.name, type(info).__name__, codecs.lookup('utf_8') is codecs.lookup('utf-8'))
print(codecs.lookup('latin1').name, codecs.lookup('CP1252').name)
show(codecs.lookup, 'no-such-codec')
show(codecs.lookup, 1)

# str.encode / bytes.decode through charmap codecs
print('x\u20ac\u2019'.encode('cp1252'), b'\x80\x92ab'.decode('cp1252'))
print('\u0416'.encode('koi8_r'), b'\xf6'.decode('koi8-r'), 'abc'.encode('cp037'))
show(b'\x81'.decode, 'cp1252')
show('\u1234'.encode, 'cp1252')
print(b'\x81a'.decode('cp1252', 'replace'), b'\x81a'.decode('cp1252', 'ignore'))
print(b'\x81a'.decode('cp1252', 'backslashreplace'), '\u1234a'.encode('cp1252', 'xmlcharrefreplace'))
show('x'.encode, 'rot13')
print(codecs.encode('abc', 'rot13'), codecs.decode('nop', 'rot13'))
show(codecs.encode, 'x', 'nope')

# search functions
def search(name):
    if name == 'mycodec':
        return codecs.CodecInfo(lambda s, e='strict': (s.upper().encode(), len(s)),
                                lambda b, e='strict': (bytes(b).decode().lower(), len(b)),
                                name='mycodec')
    if name == 'bad_codec':
        return 42
    return None
codecs.register(search)
print('abc'.encode('mycodec'), b'ABC'.decode('mycodec'), codecs.lookup('MyCodec').name)
show(codecs.lookup, 'bad_codec')
codecs.unregister(search)
show(codecs.lookup, 'mycodec')
show(codecs.register, 1)

# error handlers
for name in ('strict', 'ignore', 'replace', 'xmlcharrefreplace', 'backslashreplace',
             'surrogateescape', 'surrogatepass'):
    print(name, codecs.lookup_error(name).__name__)
show(codecs.lookup_error, 'nope')
ee = UnicodeEncodeError('ascii', 'a\xe9\u20acb', 1, 3, 'bad')
de = UnicodeDecodeError('ascii', b'a\xff\xfeb', 1, 3, 'bad')
te = UnicodeTranslateError('a\xe9b', 1, 2, 'bad')
for h in ('ignore', 'replace', 'backslashreplace', 'xmlcharrefreplace'):
    f = codecs.lookup_error(h)
    for e in (ee, de, te):
        show(f, e)
show(codecs.strict_errors, ee)
show(codecs.strict_errors, 1)
show(codecs.ignore_errors, ValueError())
se = codecs.lookup_error('surrogateescape')
show(se, UnicodeDecodeError('utf-8', b'a\xff\xfeb', 1, 3, 'bad'))
show(se, UnicodeEncodeError('utf-8', 'a\udcff\udc80b', 1, 3, 'bad'))
show(se, UnicodeEncodeError('utf-8', 'abc', 1, 2, 'bad'))
sp = codecs.lookup_error('surrogatepass')
show(sp, UnicodeEncodeError('utf-8', 'a\ud800b', 1, 2, 'bad'))
show(sp, UnicodeDecodeError('utf-8', b'a\xed\xa0\x80b', 1, 2, 'bad'))
show(sp, UnicodeEncodeError('utf-16-le', 'a\ud800b', 1, 2, 'bad'))

def myhandler(exc):
    if isinstance(exc, UnicodeEncodeError):
        return ('<%d:%d>' % (exc.start, exc.end), exc.end)
    return ('[%s]' % exc.object[exc.start:exc.end].hex(), exc.end)
codecs.register_error('test.mine', myhandler)
print('a\xe9\u20acb'.encode('ascii', 'test.mine'), 'a\u20acb'.encode('latin-1', 'test.mine'))
print('a\udc00b'.encode('utf-8', 'test.mine'), 'a\u1234'.encode('cp1252', 'test.mine'))
print(b'a\xffb'.decode('utf-8', 'test.mine'), b'a\x81b'.decode('cp1252', 'test.mine'))
print(b'a\xffb'.decode('ascii', 'test.mine'))
codecs.register_error('test.bytes', lambda e: (b'??', e.end))
print('a\xe9b'.encode('ascii', 'test.bytes'))
codecs.register_error('test.skip', lambda e: ('', -1))
print('a\xe9bc'.encode('ascii', 'test.skip'))
codecs.register_error('test.bad', lambda e: 1)
show('a\xe9'.encode, 'ascii', 'test.bad')
codecs.register_error('test.oob', lambda e: ('', 100))
show('a\xe9'.encode, 'ascii', 'test.oob')
codecs.register_error('test.nonascii', lambda e: ('\xe9', e.end))
show('a\u20ac'.encode, 'ascii', 'test.nonascii')
show(codecs.register_error, 'x', 1)
show('a\xe9'.encode, 'ascii', 'no.such.handler')
show(b'\xff'.decode, 'ascii', 'xmlcharrefreplace')

# per-codec functions
print(_codecs.utf_8_encode('a\xe9\u20ac'), _codecs.utf_8_decode(b'a\xc3\xa9\xe2\x82'))
print(_codecs.utf_8_decode(b'a\xc3\xa9\xe2\x82', 'strict', False))
show(_codecs.utf_8_decode, b'a\xc3\xa9\xe2\x82', 'strict', True)
print(_codecs.utf_8_decode(b'a\xc3\xa9\xe2\x82', 'replace', True))
print(_codecs.utf_8_encode('a\udcff', 'surrogateescape'), _codecs.utf_8_encode('\ud800', 'surrogatepass'))
show(_codecs.utf_8_encode, b'x')
show(_codecs.utf_8_decode, 'x')
print(_codecs.utf_16_le_encode('a\U0001f600'), _codecs.utf_16_be_encode('ab'))
print(_codecs.utf_16_encode('a', None, -1), _codecs.utf_16_encode('a', None, 1))
print(_codecs.utf_16_le_decode(b'a\x00b'), _codecs.utf_16_be_decode(b'\x00a\x00b'))
print(_codecs.utf_16_ex_decode(b'\xff\xfea\x00', 'strict', 0, True))
print(_codecs.utf_16_ex_decode(b'\xfe\xff\x00a', 'strict', 0, True))
print(_codecs.utf_16_ex_decode(b'a\x00', 'strict', 1, True))
print(_codecs.utf_16_decode(b'\xff\xfea\x00b', 'strict', False))
show(_codecs.utf_16_le_decode, b'a\x00b', 'strict', True)
print(_codecs.utf_32_le_encode('a'), _codecs.utf_32_be_encode('a'), _codecs.utf_32_encode('a', None, 1))
print(_codecs.utf_32_ex_decode(b'\xff\xfe\x00\x00a\x00\x00\x00', 'strict', 0, True))
print(_codecs.utf_32_ex_decode(b'\x00\x00\xfe\xff\x00\x00\x00a', 'strict', 0, True))
print(_codecs.utf_32_le_decode(b'a\x00\x00\x00b\x00', 'strict', False))
show(_codecs.utf_32_be_decode, b'\x00\x11\x00\x00', 'strict', True)
print(_codecs.latin_1_encode('a\xff'), _codecs.latin_1_decode(b'a\xff'), _codecs.latin_1_decode(bytearray(b'xy')))
show(_codecs.latin_1_encode, 'a\u0100')
print(_codecs.ascii_encode('abc'), _codecs.ascii_decode(b'abc'), _codecs.ascii_decode(b'a\xff', 'replace'))
show(_codecs.ascii_decode, b'a\xff')
print(_codecs.ascii_decode(memoryview(b'mv')) if hasattr(__builtins__, 'memoryview') else ('mv', 2))
print(_codecs.unicode_escape_encode('a\n\xe9\u20ac\\'), _codecs.unicode_escape_decode(b'a\\n\\xe9\\u20ac'))
print(_codecs.unicode_escape_decode(b'ab\\u20', 'strict', False), _codecs.unicode_escape_decode(b'ab\\', 'strict', False))
print(_codecs.unicode_escape_decode('\\t'))
show(_codecs.unicode_escape_decode, b'\\x4')
print(_codecs.raw_unicode_escape_encode('a\xe9\u20ac'), _codecs.raw_unicode_escape_decode(b'a\\u20ac\\n'))
print(_codecs.raw_unicode_escape_decode(b'a\\u20', 'strict', False))
print(_codecs.escape_encode(b'a\'"\x00\t\n\\\xff'), _codecs.escape_decode(b'a\\n\\x41\\101\\\\'))
print(_codecs.escape_decode('\\t'))
show(_codecs.escape_decode, b'\\x4')
show(_codecs.escape_decode, b'abc\\')
show(_codecs.escape_encode, 'x')
print(_codecs.readbuffer_encode(b'ab'), _codecs.readbuffer_encode('\xe9'), _codecs.readbuffer_encode(bytearray(b'c')))

# charmap
table = 'abc\ufffe' + ''.join(chr(i) for i in range(4, 256))
emap = _codecs.charmap_build(table)
print(_codecs.charmap_encode('abc', 'strict', emap), _codecs.charmap_decode(b'\x00\x01\x02', 'strict', table))
show(_codecs.charmap_decode, b'\x03', 'strict', table)
print(_codecs.charmap_decode(b'\x03\x00', 'replace', table), _codecs.charmap_decode(b'\x01', 'strict', {1: 'xy'}))
print(_codecs.charmap_decode(b'\x01\x02', 'ignore', {1: 0x20ac}), _codecs.charmap_decode(b'\xe9'))
show(_codecs.charmap_decode, b'\x01', 'strict', {1: 2.5})
show(_codecs.charmap_decode, b'\x01', 'strict', {1: 0x110000})
print(_codecs.charmap_encode('ab', 'strict', {97: b'AA', 98: 66}), _codecs.charmap_encode('\xe9'))
show(_codecs.charmap_encode, 'abz', 'strict', {97: 1, 98: 2})
print(_codecs.charmap_encode('azzb', 'replace', {97: 1, 98: 2, 63: 63}))
show(_codecs.charmap_encode, 'az', 'replace', {97: 1})
show(_codecs.charmap_encode, 'a', 'strict', {97: 300})
show(_codecs.charmap_encode, 'a', 'strict', {97: 'x'})

# the incremental/stream machinery of codecs.py on top
dec = codecs.getincrementaldecoder('utf-8')()
print(dec.decode(b'a\xe2\x82'), dec.decode(b'\xac'), dec.decode(b'', True))
enc = codecs.getincrementalencoder('utf-16')()
print(enc.encode('a'), enc.encode('b'))
d16 = codecs.getincrementaldecoder('utf-16')()
print(d16.decode(b'\xff'), d16.decode(b'\xfea'), d16.decode(b'\x00b\x00'))
print(codecs.encode('\u20ac', 'utf-32-be'), codecs.decode(b'\xe2\x82\xac'))
print('\u20ac'.encode('utf_8_sig'), b'\xef\xbb\xbfx'.decode('utf-8-sig'))
print('abc'.encode('idna') if False else b'abc', 'caf\xe9'.encode('mac_roman'), 'x'.encode('unicode_internal' if False else 'iso8859_15'))

# UTF-7
s='!"#$%&*;<=>@[]^_`{|}~\\+ aZ09\'(),-./:?\t\r\n'
print(s.encode('utf-7'))
print('\xe9'.encode('utf-7'), 'a\u20acb'.encode('utf-7'), '\u20ac-'.encode('utf-7'), '\u20ac.'.encode('utf-7'), '\U0001f600'.encode('utf-7'), '+'.encode('utf-7'), '\xe9\xe9\xe9'.encode('utf-7'))
print(codecs.utf_7_decode(b'a+IKw-b'), codecs.utf_7_decode(b'a+IKw'), codecs.utf_7_decode(b'a+IKw', 'strict', True), codecs.utf_7_decode(b'+-'), codecs.utf_7_decode(b'+2D3eAA-'))
for bad in [b'+\xff', b'\xff', b'+IK-', b'+2D0-', b'+AAA', b'a+IKx-', b'+AGEA', b'+2D3', b'+IK.x', b'+AGF']:
    try: print(codecs.utf_7_decode(bad, 'strict', True))
    except Exception as e: print(e)
for b, f in [(b'+', True), (b'+', False), (b'a+', False), (b'+AGE', True), (b'+AGE', False), (b'~\\', True), (b'+2D3', False), (b'+2D3eAA', False), (b'+AGE.x', True)]:
    print(b, f, codecs.utf_7_decode(b, 'strict', f))
for b in [b'+IK-x', b'\xffa', b'+\xffa', b'+AGEA-z', b'+AGEA', b'x+2D3']:
    print(codecs.utf_7_decode(b, 'replace', True), codecs.utf_7_decode(b, 'ignore', True))
print('\ud800x'.encode('utf-7'), codecs.utf_7_encode('ab', None), 'x\U0001f600y\u20ac'.encode('utf-7').decode('utf-7'))
dec = codecs.getincrementaldecoder('utf-7')()
print([dec.decode(bytes([c])) for c in b'a+IKw-b+AOk-'], dec.decode(b'', True))
print(b'hi+ACE-'.decode('utf7'), 'Hi Mom -\u263a-!'.encode('utf-7'))
print(codecs.utf_7_decode(b'+IK.x', 'replace', True), codecs.utf_7_decode(b'+AGF.x', 'replace', True), codecs.utf_7_decode(b'+AGE.x', 'replace', True))
