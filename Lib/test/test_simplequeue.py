# _queue.SimpleQueue: FIFO order, blocking and timeouts, errors, threads,
# and a wait interrupted by a signal.
import _queue
import queue
import signal
import threading
import time
import weakref
import gc


def report(label, fn, *args, **kwargs):
    try:
        print(label, "->", repr(fn(*args, **kwargs)))
    except Exception as e:
        print(label, "->", type(e).__name__, repr(e))


Q = _queue.SimpleQueue
print("queue uses C:", queue.SimpleQueue is Q, queue.Empty is _queue.Empty)
print("names:", Q.__module__, Q.__name__, _queue.Empty.__module__, _queue.Empty.__mro__[1].__name__)
print("generic:", Q[int], type(Q[int]).__name__)

q = Q()
print("fresh:", q.empty(), q.qsize())
for i in range(5):
    q.put(i)
q.put_nowait("five")
q.put("six", False)
q.put("seven", block=True, timeout=-5)
print("sizes:", q.empty(), q.qsize())
print("order:", [q.get() for _ in range(3)], q.get_nowait(), q.get(False), q.get(True, 1),
      q.get(block=False), q.get(timeout=0))
print("drained:", q.empty(), q.qsize())

# Many items, wrapping around the buffer while it grows.
q = Q()
out = []
for i in range(1000):
    q.put(i)
    if i % 3 == 0:
        out.append(q.get())
while not q.empty():
    out.append(q.get())
print("long run in order:", out == list(range(1000)))

# ---- errors and empty queues -------------------------------------------------------
report("get_nowait empty", Q().get_nowait)
report("get non-blocking", Q().get, False)
report("get block=[]", Q().get, block=[])
report("get non-blocking ignores timeout", Q().get, False, -1)
report("get timeout 0", Q().get, timeout=0)
report("negative timeout", Q().get, timeout=-1)
report("nan timeout", Q().get, timeout=float("nan"))
report("huge timeout", Q().get, timeout=1e300)
report("str timeout", Q().get, timeout="a")
report("ctor positional", Q, 1)
report("ctor keyword", Q, x=1)
report("put no item", Q().put)
report("put too many", Q().put, 1, 2, 3, 4)
report("get too many", Q().get, 1, 2, 3)
report("put bad keyword", Q().put, 1, zzz=True)
report("put_nowait two", Q().put_nowait, 1, 2)
report("put_nowait keyword", Q().put_nowait, item=3)

t0 = time.monotonic()
report("timed get", Q().get, timeout=0.2)
print("waited long enough:", time.monotonic() - t0 >= 0.19)


# ---- references: items, weakrefs, subclasses, cycles ---------------------------------
class Item:
    pass


q = Q()
it = Item()
r = weakref.ref(it)
q.put(it)
del it
print("queue keeps item alive:", r() is not None)
q.get()
print("released after get:", r() is None)
print("weakref to queue:", weakref.ref(q)() is q)


class MyQueue(Q):
    def put(self, item):
        super().put(("wrapped", item))


mq = MyQueue()
mq.put(1)
print("subclass:", mq.get(), type(mq).__mro__[1].__name__)

q = Q()
q.put(q)
rq = weakref.ref(q)
del q
gc.collect()
print("self-referencing queue collected:", rq() is None)

# ---- threads: producers and consumers --------------------------------------------------
q = Q()
results = []
lock = threading.Lock()
N, PRODUCERS, CONSUMERS = 2000, 3, 3


def produce(base):
    for i in range(N):
        q.put(base + i)


def consume():
    got = []
    while True:
        item = q.get()
        if item is None:
            break
        got.append(item)
    with lock:
        results.append(got)


consumers = [threading.Thread(target=consume) for _ in range(CONSUMERS)]
producers = [threading.Thread(target=produce, args=(k * N,)) for k in range(PRODUCERS)]
for t in consumers + producers:
    t.start()
for t in producers:
    t.join()
for _ in consumers:
    q.put(None)
for t in consumers:
    t.join()
everything = sorted(x for got in results for x in got)
print("threaded: all items once:", everything == list(range(N * PRODUCERS)))
print("per-consumer FIFO per producer:",
      all(all(a < b for a, b in zip(sub, sub[1:]))
          for got in results for sub in [[x for x in got if x // N == k] for k in range(PRODUCERS)]))

# A blocked get wakes for an item put by another thread later.
q = Q()
threading.Timer(0.1, q.put, args=("late",)).start()
t0 = time.monotonic()
print("blocking get:", q.get(timeout=5), 0.05 < time.monotonic() - t0 < 4)

# Timed gets in several threads, one item: one gets it, the others time out.
q = Q()
outcomes = []


def timed_get():
    try:
        outcomes.append(q.get(timeout=0.3))
    except _queue.Empty:
        outcomes.append("empty")


waiters = [threading.Thread(target=timed_get) for _ in range(3)]
for t in waiters:
    t.start()
time.sleep(0.05)
q.put("only")
for t in waiters:
    t.join()
print("one winner:", sorted(outcomes))

# The waiting thread does not hold the interpreter lock.
q = Q()
ticks = []


def ticker():
    for i in range(5):
        ticks.append(i)
        time.sleep(0.01)
    q.put("done")


threading.Thread(target=ticker).start()
print("others run while waiting:", q.get(), ticks)

# ---- a signal interrupts a blocked get ----------------------------------------------------
def on_alarm(signum, frame):
    raise KeyboardInterrupt("alarm")


old = signal.signal(signal.SIGALRM, on_alarm)
signal.alarm(1)
t0 = time.monotonic()
try:
    Q().get()
except KeyboardInterrupt as e:
    print("interrupted:", repr(e), time.monotonic() - t0 < 5)
finally:
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)

handled = []
old = signal.signal(signal.SIGALRM, lambda s, f: handled.append(s))
signal.alarm(1)
report("handler returns, wait goes on until timeout", Q().get, timeout=1.5)
signal.signal(signal.SIGALRM, old)
print("handler ran:", handled == [signal.SIGALRM])
