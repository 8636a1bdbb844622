# The C accelerators _heapq and _bisect: results, heap layout (ties
# included), errors, and comparisons that raise or mutate the list.
import _heapq
import _bisect
import heapq
import bisect
import random


def report(label, fn, *args, **kwargs):
    try:
        print(label, "->", repr(fn(*args, **kwargs)))
    except Exception as e:
        print(label, "->", type(e).__name__, e)


print("heapq uses C:", heapq.heappush is _heapq.heappush, heapq.heapify is _heapq.heapify)
print("bisect uses C:", bisect.bisect_left is _bisect.bisect_left,
      bisect.insort is _bisect.insort_right)

# ---- min-heap results and layout --------------------------------------------
rng = random.Random(1234)
data = [rng.randrange(50) for _ in range(40)]
h = list(data)
_heapq.heapify(h)
print("heapify:", h)
print("popped:", [_heapq.heappop(h) for _ in range(len(h))] == sorted(data))

h = []
for x in data:
    _heapq.heappush(h, x)
print("pushed:", h)
print("replace:", _heapq.heapreplace(h, 25), h[:8])
print("pushpop small:", _heapq.heappushpop(h, -1), h[:4])
print("pushpop big:", _heapq.heappushpop(h, 99), h[:4])
print("pushpop empty:", _heapq.heappushpop([], 7))


class Tagged:
    """Orders by key only, so ties show where each item went."""

    def __init__(self, key, tag):
        self.key, self.tag = key, tag

    def __lt__(self, other):
        return self.key < other.key

    def __repr__(self):
        return f"{self.key}{self.tag}"


ties = [Tagged(k, t) for k, t in zip([2, 1, 2, 1, 1, 2, 1, 0, 2], "abcdefghi")]
h = list(ties)
_heapq.heapify(h)
print("ties heapify:", h)
print("ties pops:", [_heapq.heappop(h) for _ in range(len(h))])
h = []
for t in ties:
    _heapq.heappush(h, t)
print("ties pushes:", h)

# ---- max-heap (3.14 names; older _heapq only has some private ones) ----------
def max_fn(name):
    return getattr(_heapq, name, None) or getattr(_heapq, "_" + name, None)


def py_max_push(heap, item):
    heap.append(item)
    pos = len(heap) - 1
    while pos > 0:
        parent = (pos - 1) >> 1
        if heap[parent] < heap[pos]:
            heap[parent], heap[pos] = heap[pos], heap[parent]
            pos = parent
        else:
            break


push_max = max_fn("heappush_max") or py_max_push
pop_max = max_fn("heappop_max")
heapify_max = max_fn("heapify_max")
replace_max = max_fn("heapreplace_max")

h = list(data)
heapify_max(h)
print("heapify_max:", h)
print("max popped:", [pop_max(h) for _ in range(len(h))] == sorted(data, reverse=True))
h = []
for x in data:
    push_max(h, x)
print("max pushed ok:", [pop_max(h) for _ in range(len(h))] == sorted(data, reverse=True))
h = [5, 3, 4]
print("replace_max:", replace_max(h, 1), h)
report("pop_max empty", pop_max, [])
report("replace_max empty", replace_max, [], 1)
if hasattr(_heapq, "heappushpop_max"):
    pp = _heapq.heappushpop_max
else:
    def pp(heap, item):
        if heap and item < heap[0]:
            item, heap[0] = heap[0], item
            h2 = list(heap)
            heapify_max(h2)
            heap[:] = h2
        return item
h = [9, 5, 7]
print("pushpop_max:", pp(h, 6), h, pp(h, 10), h, pp([], 3))

# ---- errors -----------------------------------------------------------------
report("push tuple", _heapq.heappush, (), 1)
report("pop tuple", _heapq.heappop, ())
report("heapify tuple", _heapq.heapify, ())
report("replace tuple", _heapq.heapreplace, (), 1)
report("pushpop dict", _heapq.heappushpop, {}, 1)
report("pop empty", _heapq.heappop, [])
report("replace empty", _heapq.heapreplace, [], 1)
report("push one arg", _heapq.heappush, [])
report("push three args", _heapq.heappush, [], 1, 2)
report("push uncomparable", _heapq.heappush, [1], "x")
report("heapify uncomparable", _heapq.heapify, [1, "x", None])


class Boom:
    def __lt__(self, other):
        raise ZeroDivisionError("boom")


h = [Boom(), Boom()]
report("push raising", _heapq.heappush, h, Boom())
print("length after raising push:", len(h))

victim = [1, 2, 3]


class Clearer:
    def __lt__(self, other):
        victim.clear()
        return True


report("push mutating", _heapq.heappush, victim, Clearer())


class Grower:
    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        grown.append(Grower(0))
        return self.v < other.v


grown = [Grower(i) for i in range(6)][::-1]
report("heapify mutating", _heapq.heapify, grown)

shrunk = [Clearer(), Clearer()]
victim = shrunk
report("pushpop mutating", _heapq.heappushpop, shrunk, Clearer())


class Sub(list):
    pass


s = Sub([3, 1, 2])
_heapq.heapify(s)
print("list subclass:", s, _heapq.heappop(s))

# ---- bisect -----------------------------------------------------------------
a = [1, 2, 2, 2, 3, 5, 8]
for x in (0, 2, 4, 9):
    print("bisect", x, _bisect.bisect_left(a, x), _bisect.bisect_right(a, x))
print("lo/hi:", _bisect.bisect_left(a, 2, 2), _bisect.bisect_right(a, 2, 0, 2),
      _bisect.bisect_left(a, 8, hi=3), _bisect.bisect_right(a, 0, lo=3))
print("hi=-1 means the end:", _bisect.bisect_left(a, 100, hi=-1),
      _bisect.bisect_left(a, 100, hi=-2), _bisect.bisect_right(a, 100, hi=None))
recs = [("a", 1), ("b", 3), ("c", 3), ("d", 7)]
print("key:", _bisect.bisect_left(recs, 3, key=lambda r: r[1]),
      _bisect.bisect_right(recs, 3, key=lambda r: r[1]),
      _bisect.bisect_right(recs, 3, key=None) if False else "-")
b = list(a)
_bisect.insort_left(b, 2.0)
_bisect.insort_right(b, 2.5)
_bisect.insort_right(b, 9, lo=2)
print("insort:", b, [type(v).__name__ for v in b[1:5]])
r = list(recs)
_bisect.insort_left(r, ("x", 3), key=lambda r: r[1])
_bisect.insort_right(r, ("y", 3), key=lambda r: r[1])
print("insort key:", r)
t = (1, 3, 5, 7)
print("tuple:", _bisect.bisect_left(t, 5), _bisect.bisect_right(range(0, 100, 10), 35))


class Seq:
    """A sequence that is not a list: __getitem__, __len__ and insert."""

    def __init__(self, items):
        self.items = list(items)
        self.log = []

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        self.log.append(i)
        return self.items[i]

    def insert(self, i, v):
        self.log.append(("insert", i, v))
        self.items.insert(i, v)


s = Seq([10, 20, 30, 40])
_bisect.insort_left(s, 25)
print("custom sequence:", s.items, s.log)
s.log.clear()
_bisect.insort(s, 5) if hasattr(_bisect, "insort") else bisect.insort(s, 5)
print("custom sequence 2:", s.items, s.log)

report("lo negative", _bisect.bisect_left, a, 1, -1)
report("lo negative insort", _bisect.insort_right, [], 1, lo=-3)
report("len of None", _bisect.bisect_right, None, 1)
report("tuple insort", _bisect.insort_left, (), 1)
report("hi past end", _bisect.bisect_left, [1, 2, 3], 5, 0, 10)
report("lo float", _bisect.bisect_right, [1, 2], 1, 1.5)
report("lo None", _bisect.bisect_right, [1, 2], 1, None)
report("too many", _bisect.bisect_left, [1], 1, 0, 1, 2)
report("bad keyword", _bisect.bisect_left, [1], 1, foo=2)
report("missing x", _bisect.bisect_left, [1])
report("uncomparable", _bisect.bisect_left, [1, 2, 3], "x")
report("key raises", _bisect.bisect_left, [1, 2, 3], 1, key=lambda v: 1 / 0)
report("lo beyond hi", _bisect.bisect_right, [1, 2], 1, lo=5)
