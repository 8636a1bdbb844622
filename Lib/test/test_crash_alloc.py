# Sizes no machine can hold: repeats, padding, constructors and joins ask
# for more than RAM and swap together, and must raise MemoryError or
# OverflowError (not be granted lazily and then killed by the kernel).
import array
import io
import struct

HUGE = 2**40
cases = [
    ("'x' * HUGE", lambda: 'x' * HUGE),
    ("'xy' * 2**61", lambda: 'xy' * 2**61),
    ("b'x' * HUGE", lambda: b'x' * HUGE),
    ("bytearray(b'x') * HUGE", lambda: bytearray(b'x') * HUGE),
    ("[0] * 2**37", lambda: [0] * 2**37),
    ("[0] * 2**62", lambda: [0] * 2**62),
    ("(0,) * 2**62", lambda: (0,) * 2**62),
    ("array * 2**62", lambda: array.array('b', [1]) * 2**62),
    ("bytes(HUGE)", lambda: bytes(HUGE)),
    ("bytearray(HUGE)", lambda: bytearray(HUGE)),
    ("'x'.center(HUGE)", lambda: 'x'.center(HUGE)),
    ("'x'.ljust(HUGE)", lambda: 'x'.ljust(HUGE)),
    ("'x'.zfill(HUGE)", lambda: 'x'.zfill(HUGE)),
    ("b'x'.rjust(HUGE)", lambda: b'x'.rjust(HUGE)),
    ("expandtabs", lambda: 'a\tb'.expandtabs(2**62)),
    ("replace", lambda: 'abc'.replace('', 'x' * 2**20 * 2**20)),
    ("'{:{}}'.format", lambda: '{:{}}'.format('a', HUGE)),
    ("'{:{}}'.format 2**64", lambda: '{:{}}'.format('a', 2**64)),
    ("'%*s'", lambda: '%*s' % (HUGE, 'a')),
    ("b'%*s'", lambda: b'%*s' % (HUGE, b'a')),
    ("to_bytes", lambda: (0).to_bytes(2**62, 'big')),
    ("lshift", lambda: 1 << 2**62),
    ("struct.pack", lambda: struct.pack('%dx' % 2**62)),
    ("BytesIO.truncate", lambda: io.BytesIO().truncate(2**62) and None),
    ("range len", lambda: len(range(2**100))),
    ("range item", lambda: range(2**100)[2**99]),
]
for label, thunk in cases:
    try:
        r = thunk()
        print(label, 'ok', r if r is None or isinstance(r, int) else len(r))
    except (MemoryError, OverflowError, ValueError) as e:
        print(label, type(e).__name__, e)
