# _string: formatter_parser and formatter_field_name_split; string.Formatter on top.
import _string

def parse(s):
    try:
        return list(_string.formatter_parser(s))
    except Exception as e:
        return '%s: %s' % (type(e).__name__, e)

for s in ['', 'abc', '{}', '{0}', 'a{0}b', 'x{0!r:>5}y', '{name.attr[key]}', '{{}}', 'a{{b}}c',
          '{0:{1}}', '{0:{1}{2}}x', '{:}', '{!s}', '{0[a:b]}', '{0[!]}', '{a}{b}{c}', 'tail}}',
          '}', '{', 'a{', 'a}b', '{0', '{0!}', '{0!rr}', '{0!', '{!}', '{a{b}', '{0:{', '{0:{}',
          '\u20ac{0}\u20ac', '{0!a}', '{ 0 }', '{0:}}']:
    print(repr(s), parse(s))

it = _string.formatter_parser('ok{0}}bad')
print(next(it))
try:
    next(it)
except ValueError as e:
    print('ValueError', e)
print(list(it))

def split(name):
    try:
        first, rest = _string.formatter_field_name_split(name)
        return first, list(rest)
    except Exception as e:
        return '%s: %s' % (type(e).__name__, e)

for n in ['', '0', '12', 'name', 'a.b', 'a[0]', 'a[x].y[1][z]', '0.real', '.a', '[0]', 'a.',
          'a[', 'a[]', 'a[0]x', 'a..b', 'a[0]]', '\u0663', 'a[ 1 ]', '00', 'x' * 3]:
    print(repr(n), split(n))

for bad in (1, None, b'x'):
    for f in (_string.formatter_parser, _string.formatter_field_name_split):
        try:
            f(bad)
        except TypeError as e:
            print('TypeError')

first, rest = _string.formatter_field_name_split('a.b')
print(type(rest).__name__, iter(rest) is rest)
print(type(_string.formatter_parser('')).__name__)

import string
fmt = string.Formatter()
print(fmt.format('{0}-{1!r}-{x:>4}-{y[1]}-{z.real}', 'a', 'b', x=7, y=[1, 2], z=3))
print(fmt.format('{:{}}|{:^{w}}|', 'a', 3, 'b', w=5))
print(fmt.vformat('{0}{1}', ('p', 'q'), {}))
print(list(fmt.parse('a{0:2}b')))
class Upper(string.Formatter):
    def format_field(self, value, spec):
        return format(value, spec).upper()
print(Upper().format('{0} {1:x}', 'hi', 255))
try:
    fmt.format('{0}{}', 1, 2)
except ValueError as e:
    print('ValueError', e)
try:
    fmt.format('{', 1)
except ValueError as e:
    print('ValueError', e)
import _string
for s in ['{a{b}c{0}', '{0!rx}tail{1}', '{0:{x}tail', 'a{']:
    it = _string.formatter_parser(s)
    try:
        next(it)
    except ValueError as e:
        print(e)
    try:
        print(list(it))
    except ValueError as e:
        print('again', e)
