# Calendar time: struct_time, gmtime/localtime/mktime, strftime/strptime,
# asctime/ctime, the time zone attributes and the clock functions.
import time, os
os.environ['TZ'] = 'Europe/Paris'; time.tzset()
print(time.timezone, time.altzone, time.daylight, time.tzname)
t = time.gmtime(1700000000.7)
print(t, t.tm_zone, t.tm_gmtoff)
l = time.localtime(1700000000)
print(l, l.tm_zone, l.tm_gmtoff, time.mktime(l))
print(time.strftime('%Y-%m-%d %H:%M:%S %a %b %j %Z %z', l))
print(time.asctime(t), time.ctime(0))
print(time.strptime('2024-02-29 10:11:12', '%Y-%m-%d %H:%M:%S'))
print(time.strftime('%Y', (2024, 1, 1, 0, 0, 0, 0, 1, 0)))
for bad in [(2024, 13, 1, 0, 0, 0, 0, 1, 0), (2024, 1, 1, 25, 0, 0, 0, 1, 0)]:
    try: time.strftime('%Y', bad)
    except ValueError as e: print('ValueError', e)
try: time.gmtime(float('nan'))
except ValueError as e: print('ValueError', e)
try: time.strftime('%Y', (1,2))
except TypeError as e: print('TypeError', e)
info = time.get_clock_info('monotonic'); print(info.implementation, info.monotonic, info.adjustable)
print(type(time.clock_gettime(time.CLOCK_MONOTONIC)).__name__, time.clock_getres(time.CLOCK_REALTIME) > 0)
print(len(time.struct_time((1,2,3,4,5,6,7,8,9))), time.struct_time((1,2,3,4,5,6,7,8,9)).tm_zone)
