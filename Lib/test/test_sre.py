# The _sre engine, driven through the stdlib's re compiler.  When the
# full `re` package cannot be imported yet, a small stand-in package
# object exposes re._parser/re._compiler over the same files.
import sys
import _sre

try:
    import re
    compile = re.compile
except Exception:
    for k in [k for k in sys.modules if k == 're' or k.startswith('re.')]:
        del sys.modules[k]
    re = type(sys)('re')
    re.__path__ = [d + '/re' for d in sys.path if isinstance(d, str)]
    re.__package__ = 're'
    sys.modules['re'] = re
    import re._compiler as _c
    import re._parser as _p

    def compile(p, flags=0):
        return _c.compile(p, flags)

    def _compile_template(pattern, repl):
        return _sre.template(pattern, _p.parse_template(repl, pattern))
    re._compile_template = _compile_template

try:
    memoryview
except NameError:
    # BIGCHARSET blocks go through memoryview.cast; same words without it
    def _bytes_to_codes(b):
        return [int.from_bytes(b[i:i + 4], sys.byteorder) for i in range(0, len(b), 4)]
    sys.modules['re._compiler']._bytes_to_codes = _bytes_to_codes

I, L, M, S, U, X, A = 2, 4, 8, 16, 32, 64, 256

print(_sre.MAGIC, _sre.CODESIZE, _sre.MAXREPEAT, _sre.MAXGROUPS, _sre.getcodesize())
print(_sre.ascii_iscased(ord('a')), _sre.ascii_iscased(ord('1')), _sre.unicode_iscased(0x3a3))
print(_sre.ascii_tolower(ord('Q')), _sre.unicode_tolower(0x3a3), _sre.ascii_tolower(0x3a3))


def show(m):
    if m is None:
        return 'None'
    return '%r %r %r %r' % (m, m.groups(), m.lastindex, m.lastgroup)


def run(pat, s, flags=0):
    try:
        p = compile(pat, flags)
    except Exception as e:
        print('compile', repr(pat), type(e).__name__)
        return
    try:
        print(repr(pat)[:40], repr(s)[:40], 'search', show(p.search(s)))
        print('   match', show(p.match(s)), 'full', show(p.fullmatch(s)))
        print('   findall', p.findall(s))
    except Exception as e:
        print('   error', type(e).__name__, e)


table = [
    ('abc', 'xxabcxx'), ('a.c', 'a\nc abc'), ('a.c', 'a\nc'), ('^abc$', 'abc'),
    ('a|b|c', 'zzc'), ('(a|ab)(c|bcd)(d*)', 'abcd'), ('(a+)(b+)?', 'aaac'),
    ('a*', 'baaa'), ('a*?b', 'aaab'), ('(a*?)(a*)', 'aaa'), ('a{2,3}', 'aaaa'),
    ('a{2,3}?', 'aaaa'), ('(ab){2}', 'abababx'), ('(?:ab)*?c', 'ababc'),
    ('(a|b)*c', 'abac'), ('(a|b)*?c', 'abac'), ('((a)|b)+', 'ab'), ('(a)|b', 'b'),
    ('(?:(a)|(b))*', 'ab'), ('(a?)*', 'aa'), ('(a|)*b', 'aab'), ('(?:a*)*b', 'aaab'),
    ('(?:a*)*?b', 'aab'), ('(a*)+', 'b'), ('(a*)*', 'b'), ('(a|b)*?b', 'aab'),
    (r'\d+', 'ab 123 c45'), (r'\D+', '12ab34'), (r'\s+', 'a \t\nb'), (r'\S+', ' ab c'),
    (r'\w+', 'héllo wörld_1'), (r'\W+', 'a, b!'), (r'\bfoo\b', 'a foo b foobar'),
    (r'\Bo\B', 'foo o'), (r'\Afoo', 'foofoo'), (r'foo\Z', 'foofoo'),
    ('^a', 'b\na'), ('a$', 'a\nb'), ('a$', 'ba\n'), ('$', 'ab\n'),
    ('[abc]+', 'xxbcaxx'), ('[^abc]+', 'abxyzc'), ('[a-f0-9]+', 'zz1f3gz'),
    ('[\\w.-]+@[\\w.]+', 'mail me: a.b-c@ex.org!'), ('[\u0100-\u0200]+', 'a\u0150\u0180b'),
    ('[\u03a3\u0430]+', '\u03a3\u0430x'), ('\U0001f600+', 'x\U0001f600\U0001f600'),
    (r'(\w+) \1', 'hello hello world'), (r'(?P<w>\w)(?P=w)', 'abccd'),
    (r'(?P<first>\w+) (?P<last>\w+)', 'Jane Doe'), (r'(a)?(?(1)b|c)', 'ab c'),
    (r'(?=abc)\w+', 'xabcd'), (r'\w+(?=!)', 'hey you!'), (r'(?!a)\w+', 'abc'),
    (r'(?<=a)b', 'cb ab'), (r'(?<!a)b', 'ab cb'), (r'(?<=(a))b', 'ab'),
    (r'(?=(a+))a*b\1', 'baaabac'), (r'(?!(a)b)a', 'ab ac'),
    ('(?>a+)b', 'aaab'), ('(?>a+)a', 'aaaa'), ('a++a', 'aaa'), ('a++b', 'aab'),
    ('a*+', 'aaa'), ('(?:ab)++c', 'ababc'), ('(?:ab)++ab', 'abab'), ('(a|ab)++c', 'abc'),
    ('(?:a|b)?+b', 'ab'), ('a{1,2}+a', 'aaa'), ('(?>(a)|b)*c', 'abc'),
    ('x*', 'axxb'), ('', 'abc'), ('a|', 'ba'), (r'(?:)', ''),
    ('(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)\\11', 'abcdefghijkk'),
    ('(?s).+', 'a\nb'), ('(?m)^\\w', 'ab\ncd'), ('(?x) a b # c', 'ab'),
    ('(?i)hello', 'HeLLo'), ('(?i)[a-z]+', 'AbC1'), ('(?i)\u03c3', '\u03a3\u03c2'),
    ('(?i)[^a]', 'Ab'), ('(?i)(a)\\1', 'aA'), ('(?i)k', '\u212a'), ('(?i)ss', 'SS'),
    ('(?a)\\w+', 'héllo'), ('(?a:\\w+)x', 'ab x\u00e9x'), ('(?i)[\u00e0-\u00ff]+', '\u00c0\u00e9'),
    ('(?i:a)b', 'Ab AB'), ('a(?i:b)c', 'aBc aBC'),
    ('(a+)+$', 'aaaaaaaaaaaaaaaaaaaa!'), ('(x+x+)+y', 'x' * 18),
    ('.*?x', 'abc' * 100 + 'x'), ('(?:a|b)*', 'ab' * 5000),
]
for pat, s in table:
    run(pat, s)

# bytes
for pat, s in [(b'a+', b'baaa'), (rb'\w+', b'ab\xe9c'), (rb'(?i)ab', b'AB'),
               (rb'[\x80-\xff]+', b'a\x80\xffb'), (rb'(\d)(\d)?', b'1 23')]:
    run(pat, s)
p = compile(rb'(a)(b)?')
print(show(p.match(bytearray(b'ab'))), type(p.match(bytearray(b'ab')).group()))

# Match object details
m = compile(r'(?P<a>\w)(?P<b>\w)?(\d)?').match('xy!')
print(m.group(), m.group(0), m.group(1, 2, 'a'), m['b'], m[3], m.groups('-'))
print(sorted(m.groupdict().items()), m.groupdict(0), m.start(), m.end(1), m.span(2), m.span(3))
print(m.regs, m.string, m.pos, m.endpos, m.lastindex, m.lastgroup)
print(m.expand(r'<\2\1\g<a>\g<0>[\3]>'), m.re.pattern, m.__copy__() is m)
for bad in (4, -1, 'zz', 1.5, None):
    try:
        m.group(bad)
    except IndexError as e:
        print('IndexError', e)
m = compile('b').search('abcd', 1, 3)
print(m, m.pos, m.endpos)

# pos / endpos
p = compile(r'\w+')
print(p.match('ab cd', 3), p.search('ab cd', 1, 4), p.match('abc', 5), p.match('abc', 2, 1))
print(p.fullmatch('ab cd', 3, 5), p.fullmatch('abcd', 0, 2), p.fullmatch('abcd', 1))
print(compile('^a').search('ba', 1), compile('a$').search('ab', 0, 1), compile(r'(?<=b)c').search('bc', 1))
print(p.findall('a bb ccc', 2), p.findall('a bb ccc', 0, 5))

# findall / finditer / scanner
print(compile('(a)(b)?').findall('ab a'), compile(r'\b|x').findall('ax b'))
print([m.span() for m in compile(r'x*').finditer('axxb')])
print([m.span() for m in compile(r'\w+').finditer('ab cd ef', 1, 7)])
sc = compile(r'\d').scanner('12a3')
print(sc.match(), sc.match(), sc.match(), sc.match(), sc.search())
sc = compile(r'\d').scanner('12a3')
print(sc.search(), sc.search(), sc.search(), sc.search(), sc.pattern)

# sub / subn / split
p = compile(r'(\w)(\d)?')
print(p.sub(r'[\2\1]', 'a1 b c3'), p.subn('-', 'a1 b c3'), p.sub('-', 'a1 b c3', 2))
print(compile('x*').sub('-', 'abxd'), compile('').sub('-', 'abc'), compile('a').subn('b', 'ccc'))
print(compile(r'\d+').sub(lambda m: str(int(m.group()) * 2), 'a1b22c333'))
print(compile(r'(?P<n>\d)').sub(r'\g<n>\g<n>\n', '12'), compile('a').sub(r'\\', 'aba'))
print(compile(b'a').sub(b'x', b'banana'), compile(b'(a)').sub(rb'<\1>', bytearray(b'ba')))
print(compile(r'\s+').split('a b  c'), compile(r'(\s)+').split('a b  c', 1))
print(compile(r'\b').split('ab cd'), compile('x*').split('axbc'), compile('(a)|b').split('cacbc'))
print(compile(',').split('a,b,,c', maxsplit=2), compile('(x)?,').split('1,2x,3'))
print(compile('a').sub(lambda m: None, 'bab'))

# Pattern object
p = compile(r'(?P<x>a)(b)', I | M)
print(p, p.pattern, p.flags, p.groups, dict(p.groupindex), type(p.groupindex).__name__)
print(compile('a+'), compile(b'a+'), compile('a', S | X), compile(b'a', L), compile('a', A))
print(compile('a') == compile('a'), compile('a') == compile('b'), compile('a') == compile('a', I))
print(hash(compile('xy')) == hash(compile('xy')), p.__copy__() is p, p.__deepcopy__({}) is p)
print(repr(compile('x' * 300))[-20:])

# type errors
for f, a in [(compile('a').match, b'a'), (compile(b'a').match, 'a'), (compile('a').search, 1),
             (compile('a').findall, None), (compile(b'a').sub, ('x', b'a')),
             (compile('a').split, b'a')]:
    try:
        f(*a) if isinstance(a, tuple) else f(a)
    except TypeError as e:
        print('TypeError', e)
try:
    compile('a').sub(lambda m: 1, 'a')
except TypeError as e:
    print('TypeError', type(e).__name__)

# deep and long inputs never blow the C stack
print(len(compile('(?:a|b)*c').match('ab' * 50000 + 'c').group()))
print(len(compile('(a)*').match('a' * 100000).group()), compile('(a)*').match('a' * 10).span(1))
print(compile('(' * 80 + 'a' + ')' * 80).match('a').span(80))
print(compile(r'(?:(\w)\1)+').findall('aabbccd' * 1000)[:3])
print(compile('(?:x|y)*?z').search('xy' * 30000 + 'z').end())

# Unicode categories, case folding, locale and ASCII flavours
for pat, s, fl in [
    (r'\d+', 'x\u0663\u0664y', 0), (r'\d+', 'x\u0663\u0664y', A), (r'\s+', 'a\u2003\u00a0b', 0),
    (r'\s+', 'a\u2003 b', A), (r'\w+', '\u4e2d\u6587!', 0), (r'\w+', '\u00b2\u2167x', 0),
    (r'(?i)\u017f', 'sS', 0), (r'(?i)s+', '\u017fS', 0), (r'(?i)[k]+', 'kK\u212a', 0),
    (r'(?i)[k]+', 'kK\u212a', A), (r'(?i)\U00010400', '\U00010428', 0),
    (r'(?i)[\U00010400-\U00010410]', '\U00010428', 0), (r'(?i)\u0130', 'i\u0130', 0),
    (r'(?i)[^\u03c3]', '\u03a3\u03c2x', 0), (r'(?i)(\u03c3)\1', '\u03a3\u03c3', 0),
    (r'(?i)[a-z\u0100-\u0180]+', 'AZ\u0101\u0100!', 0), (r'(?i)\w+', 'ABC', A),
    (r'\bé\b', ' é ', 0), (r'\bé', ' é ', A), (r'(?m)^$', 'a\n\nb', 0), (r'(?m)a$', 'a\na', 0),
    (r'[\d\s]+', 'a1 2b', 0),
    (r'[\D]+', '12ab', 0), (r'[^\W\d]+', 'a1b_c', 0), (r'[\s\S]+', 'a\nb', 0),
    (r'a{1000}', 'a' * 1001, 0), (r'(?:ab){3,}?', 'ab' * 5, 0), (r'x{0}y', 'xy', 0),
    (r'(?<=\d{3})x', '12x123x', 0), (r'(?<=(?P<d>\d))(?P=d)', '1223', 0),
    (r'(?P<q>[\'"]).*?(?P=q)', 'say "hi" \'x\'', 0), (r'(?:(?P<o>\()|x)\w+(?(o)\))', '(ab) xcd', 0),
    (r'(?<!^)\b', 'ab cd', 0), (r'(?=(\w))', 'ab', 0), (r'(?>.*)x', 'abx', 0),
    (r'(?s)(?>.*?)x', 'abx', 0), (r'\\', 'a\\b', 0), (r'\x41\u0042\U00000043\101', 'ABCA', 0),
]:
    run(pat, s, fl)
for pat, s, fl in [(rb'\w+', b'a\xe9b', L), (rb'(?i)\xc9', b'\xe9\xc9', L), (rb'(?i)[a-z]+', b'ABc', L),
                   (rb'\bx\b', b'x\xe9x x', L), (rb'(?i)(a)\1', b'aA', L), (rb'\s+', b'a\x1c\x85b', 0),
                   (rb'(?i)[\xe0-\xff]', b'\xc0', 0), (rb'.+', b'\x00\xff\n', S)]:
    run(pat, s, fl)

# templates and their errors
m = compile(r'(?P<a>x)(y)?').match('xz')
for t in [r'\1-\2-\g<a>', r'\g<0>\g<0>', '\\n\\t\\\\', r'\0\101', 'plain']:
    print(repr(m.expand(t)))
for t in [r'\3', r'\g<b>', r'\g<', r'\q']:
    try:
        m.expand(t)
    except Exception as e:
        print(type(e).__name__, e)
print(compile(rb'(a)').sub(rb'[\1]', b'cab'), compile('(a)').sub(r'\g<1>\g<1>', 'aXa', count=1))
for args in [('x', b'a'), (b'x', 'a')]:
    try:
        print(compile('a').sub(*args))
    except TypeError as e:
        print('TypeError', e)
try:
    compile('a').sub(lambda m: b'x', 'a')
except TypeError as e:
    print('TypeError', e)
for t in [[], ['a', 'x', 'b'], ['a', -1, 'b'], ['a', 1, 'b']]:
    try:
        _sre.template(compile('(a)'), t)
        print('template ok')
    except TypeError as e:
        print('TypeError', e)

# keyword arguments, names as group keys, pos with finditer
p = compile(r'(?P<k>\w)=(?P<v>\d)')
m = p.search(string='a=1 b=2', pos=1)
print(m, m.pos, m['k'], m.group('v'), m.start('v'), m.span('k'), m.groupdict())
print([(m.pos, m.span()) for m in p.finditer('a=1 b=2', 2)], p.sub(repl='X', string='a=1 b=2', count=1))
print(p.split('a=1,b=2', maxsplit=1), p.subn(lambda m: m['v'] + m['k'], 'a=1,b=2'))
for key in ['zz', 2.0]:
    try:
        m.start(key)
    except IndexError as e:
        print('IndexError', e)

# compile errors come from the Python side
for bad in ['(', 'a**', '[z-a]', '(?P<1>a)', r'\1(a)', '(?<=a+)b', '(?P=nope)', 'x{2,1}']:
    try:
        compile(bad)
    except Exception as e:
        print(repr(bad), type(e).__name__)
for code in [[17, 9, 1], [99], [15, 1000, 1], [24, 3, 1, 1, 16]]:
    try:
        print(_sre.compile('x', 0, code, 1, {}, (None, None)).match('aa'))
    except RuntimeError as e:
        print('RuntimeError', e)
try:
    _sre.compile('x', 0, [2 ** 32], 0, {}, (None,))
except OverflowError as e:
    print('OverflowError', e)

# 3.14: \B matches the empty string (3.13 said None here)
print(compile(r'\B').search(''), compile(r'\b').search(''))
