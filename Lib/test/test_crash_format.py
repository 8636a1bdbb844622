# Widths and precisions that overflow C int or size computations in
# format(), str.format, f-strings and %-formatting: each gives the huge
# string (tested here at sizes that stay small), a ValueError,
# OverflowError or MemoryError -- never a crash.
import hashlib


def show(label, thunk):
    try:
        r = thunk()
    except (ValueError, OverflowError, MemoryError, TypeError) as e:
        print(label, '->', type(e).__name__, e)
        return
    if isinstance(r, bytes):
        r = r.decode()
    print(label, '->', len(r), r[:24], r[-24:], hashlib.md5(r.encode()).hexdigest()[:12])


P = 10**6
print('-- long but affordable precisions')
show('f', lambda: format(1.5, '.%df' % P))
show('e', lambda: format(-1e300, '.%de' % P))
show('E', lambda: format(2.5e-10, '.%dE' % P))
show('g', lambda: format(5e-324, '.%dg' % P))
show('#g', lambda: format(5e-324, '#.%dg' % P))
show('#g 1/3', lambda: format(1 / 3, '#.%dg' % P))
show('%', lambda: format(0.1, '.%d%%' % P))
show('no type', lambda: format(0.1, '.%d' % P))
show('#no type', lambda: format(0.1, '#.%d' % P))
show('complex f', lambda: format(1.5 + 2j, '.%df' % P))
show('complex e', lambda: format(-1.5 - 2e-300j, '>30.%de' % P))
show('grouped', lambda: format(12345.5, ',.%df' % P))
show('int as f', lambda: format(10**300, '.%df' % P))
show('tiny f', lambda: format(5e-324, '.%df' % P))
show('str.format', lambda: '{:.{}f}'.format(1.25, P))
show('f-string', lambda: f'{1.25:{P}.{P}f}')
show('%.*f', lambda: '%.*f' % (P, 2.5))
show('%#.*g', lambda: '%#.*g' % (P, 2.5))
show('%.*E', lambda: '%.*E' % (P, 2.5e-10))
show('bytes %.*f', lambda: b'%.*f' % (P, 2.5))
show('width', lambda: format(1.5, '%d.3f' % P))
show('width str', lambda: format('ab', '^%d' % P))
show('width int', lambda: format(-42, '0=%d' % P))
show('%*d', lambda: '%*d' % (P, 7))
show('%.*d', lambda: '%.*d' % (P, 7))
show('%-*s', lambda: '%-*s' % (P, 'x'))

print('-- precisions beyond a C int')
for spec in ['.2147483648f', '.4294967296e', '.9223372036854775807g',
             '.99999999999999999999f', '.2147483648%', '.2147483648']:
    show(spec, lambda: format(1.5, spec))
show('complex', lambda: format(1j, '.4294967296f'))
show('int', lambda: format(10, '.2147483647d'))
show('%.2147483648f', lambda: '%.2147483648f' % 1.0)
show('%.99999999999999999999f', lambda: '%.99999999999999999999f' % 1.0)
show('%.*f 2**31', lambda: '%.*f' % (2**31, 1.0))
show('%.*f -2**31-1', lambda: '%.*f' % (-2**31 - 1, 1.0))
show('%.*s 2**63', lambda: '%.*s' % (2**63, 'a'))
show('%.*d 2**31', lambda: '%.*d' % (2**31, 1))
show('%.2147483647d', lambda: '%.2147483647d' % 1)
show('%.2147483645x', lambda: '%.2147483645x' % 1)
show('%.*o', lambda: '%.*o' % (2**31 - 1, 1))
show('b%.*f', lambda: b'%.*f' % (2**31, 1.0))
show('b%.2147483648f', lambda: b'%.2147483648f' % 1.0)
show('b%.2147483647d', lambda: b'%.2147483647d' % 1)
show('%.3000000000f', lambda: '%.3000000000f' % 1.0)
show('%.9999999999999999999999s', lambda: '%.9999999999999999999999s' % 'a')

print('-- widths beyond memory')
show('float', lambda: format(1.5, '9223372036854775807f'))
show('int', lambda: format(10, '9223372036854775807d'))
show('str', lambda: format('a', '9223372036854775807'))
show('str.format', lambda: '{:9223372036854775807}'.format('a'))
show('too many digits', lambda: format('a', '99999999999999999999'))
show('str precision', lambda: format('abc', '.9223372036854775807'))
show('%*f 2**63', lambda: '%*f' % (2**63, 1.0))
show('%*s 2**63', lambda: '%*s' % (2**63, 'a'))
show('%9223372036854775807s', lambda: '%9223372036854775807s' % 'a')
show('%99999999999999999999s', lambda: '%99999999999999999999s' % 'a')
show('b%9223372036854775807s', lambda: b'%9223372036854775807s' % b'a')
show('b%99999999999999999999s', lambda: b'%99999999999999999999s' % b'a')
