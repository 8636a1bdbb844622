# `yield from` with delegates that are not generators: a value sent to a
# plain iterator needs its send(), a tuple is sent as one value, and a
# delegate whose close cannot be looked up does not stop the close.
import sys


def into_range():
    try:
        yield from range(3)
    finally:
        print('finally of into_range')


g = into_range()
print(next(g))
try:
    g.send(42)
except AttributeError as e:
    print('AttributeError:', e)


class Echo:
    def __iter__(self):
        return self

    def __next__(self):
        return 'first'

    def send(self, value):
        return ('echo', value)


def outer():
    yield from Echo()


g = outer()
print(next(g))
print(g.send((1, 2, 3, 4)))
print(g.send(None))


class Broken:
    def __iter__(self):
        return self

    def __next__(self):
        return 1

    def __getattr__(self, name):
        1 / 0


def over_broken():
    yield from Broken()


seen = []
sys.unraisablehook = lambda u: seen.append(u.exc_type.__name__)
g = over_broken()
print(next(g))
g.close()
print('closed', seen, g.gi_frame)
