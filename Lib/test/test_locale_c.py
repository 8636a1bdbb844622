# _locale: setlocale, localeconv, nl_langinfo, strcoll, strxfrm, constants.
import _locale as L

names = ['CHAR_MAX', 'LC_ALL', 'LC_COLLATE', 'LC_CTYPE', 'LC_MESSAGES', 'LC_MONETARY',
         'LC_NUMERIC', 'LC_TIME', 'CODESET', 'D_T_FMT', 'D_FMT', 'T_FMT', 'T_FMT_AMPM',
         'RADIXCHAR', 'THOUSEP', 'YESEXPR', 'NOEXPR', 'CRNCYSTR', 'ERA', 'ERA_D_T_FMT',
         'ERA_D_FMT', 'ERA_T_FMT', 'ALT_DIGITS', 'AM_STR', 'PM_STR', 'DAY_1', 'DAY_7',
         'ABDAY_1', 'MON_1', 'MON_12', 'ABMON_1', 'ABMON_12']
print([n for n in names if not isinstance(getattr(L, n, None), int)])
for f in ('setlocale', 'localeconv', 'nl_langinfo', 'getencoding', 'strcoll', 'strxfrm'):
    print(f, callable(getattr(L, f)))
print(L.Error.__name__, L.Error.__module__, issubclass(L.Error, Exception))

print(L.setlocale(L.LC_ALL, 'C'))
print(L.setlocale(L.LC_ALL), L.setlocale(L.LC_NUMERIC), L.setlocale(L.LC_CTYPE, None))
conv = L.localeconv()
print(sorted(conv.items()))
print(L.nl_langinfo(L.CODESET), L.getencoding())
for k in ('D_T_FMT', 'D_FMT', 'T_FMT', 'T_FMT_AMPM', 'RADIXCHAR', 'THOUSEP', 'YESEXPR',
          'NOEXPR', 'CRNCYSTR', 'AM_STR', 'PM_STR', 'DAY_1', 'DAY_7', 'ABDAY_1', 'MON_1',
          'MON_12', 'ABMON_1', 'ABMON_12'):
    print(k, repr(L.nl_langinfo(getattr(L, k))))
try:
    L.nl_langinfo(12345678)
except ValueError as e:
    print('ValueError', e)
try:
    L.setlocale(L.LC_ALL, 'xx_NOWHERE.bogus')
except L.Error as e:
    print('Error', e)
print(L.setlocale(L.LC_ALL))
try:
    L.setlocale('x')
except TypeError:
    print('TypeError')

print(L.strcoll('a', 'b') < 0, L.strcoll('b', 'a') > 0, L.strcoll('abc', 'abc'))
print(L.strxfrm('abc'), L.strxfrm(''), L.strxfrm('b') > L.strxfrm('a'))
for bad in ((1, 'a'), ('a', None)):
    try:
        L.strcoll(*bad)
    except TypeError:
        print('TypeError')
try:
    L.strxfrm('a\0b')
except ValueError as e:
    print('ValueError', e)
try:
    L.strxfrm(b'x')
except TypeError:
    print('TypeError')

print(L.setlocale(L.LC_ALL, 'C.UTF-8'))
print(L.setlocale(L.LC_CTYPE), L.nl_langinfo(L.CODESET), L.getencoding())
print(L.strcoll('\xe9', 'f') != 0, L.strxfrm('\u20ac') != '')
print(L.localeconv()['decimal_point'], L.localeconv()['grouping'])
print(L.setlocale(L.LC_NUMERIC, 'C'), L.setlocale(L.LC_ALL) in ('LC_CTYPE=C.UTF-8;LC_NUMERIC=C;LC_TIME=C.UTF-8;LC_COLLATE=C.UTF-8;LC_MONETARY=C.UTF-8;LC_MESSAGES=C.UTF-8;LC_PAPER=C.UTF-8;LC_NAME=C.UTF-8;LC_ADDRESS=C.UTF-8;LC_TELEPHONE=C.UTF-8;LC_MEASUREMENT=C.UTF-8;LC_IDENTIFICATION=C.UTF-8',))
print(L.setlocale(L.LC_ALL, 'POSIX'), L.setlocale(L.LC_ALL, 'C'))
