# The _thread module: threads, locks, re-entrant locks, thread handles,
# thread-local objects and the exception hook.

import sys
import time
import _thread


def check_raises(exc_type, func, *args, **kwargs):
    try:
        func(*args, **kwargs)
    except exc_type as e:
        print("  ", exc_type.__name__ + ":", e)
    else:
        print("   no exception!")


print("--- eight threads summing under a lock")
lock = _thread.allocate_lock()
total = [0]
results = {}

def worker(n):
    local_sum = 0
    for i in range(20000):
        local_sum += i
        with lock:
            total[0] += 1
    with lock:
        results[n] = local_sum

handles = [_thread.start_joinable_thread(lambda n=n: worker(n), daemon=False) for n in range(8)]
for h in handles:
    h.join()
print(total[0], sorted(results.values()) == [sum(range(20000))] * 8, len(results))
print(all(h.is_done() for h in handles), _thread._count())
print(len({h.ident for h in handles}), all(h.ident != _thread.get_ident() for h in handles))

print("--- lock")
lk = _thread.allocate_lock()
print(type(lk) is _thread.LockType, _thread.LockType is _thread.lock)
print(lk.locked(), lk.acquire(), lk.locked())
print(lk.acquire(False), lk.acquire(blocking=False))
t0 = time.monotonic()
print(lk.acquire(timeout=0.05), time.monotonic() - t0 >= 0.04)
lk.release()
print(lk.locked(), repr(lk).startswith("<unlocked _thread.lock object at"))
check_raises(RuntimeError, lk.release)
check_raises(ValueError, lk.acquire, False, 1)
check_raises(ValueError, lk.acquire, True, -5)
check_raises(OverflowError, lk.acquire, True, 1e300)
check_raises(TypeError, _thread.lock, 1)
with lk:
    print("in with:", lk.locked())
print("after with:", lk.locked())
lk.acquire()
lk._at_fork_reinit()
print("reinit:", lk.locked())
print(_thread.error is RuntimeError, _thread.TIMEOUT_MAX)

print("--- a lock released by another thread")
gate = _thread.allocate_lock()
gate.acquire()
def opener():
    time.sleep(0.02)
    gate.release()
h = _thread.start_joinable_thread(opener)
print(gate.acquire(timeout=5))
h.join()

print("--- RLock")
r = _thread.RLock()
print(repr(r).startswith("<unlocked _thread.RLock object owner=0 count=0 at"))
print(r.acquire(), r.acquire(), r._recursion_count(), r._is_owned())
print(repr(r).startswith("<locked _thread.RLock object owner=%d count=2" % _thread.get_ident()))
r.release()
print(r._recursion_count(), r._is_owned())
seen = []
def other():
    seen.append(r.acquire(blocking=False))
    seen.append(r._is_owned())
    seen.append(r._recursion_count())
    try:
        r.release()
    except RuntimeError as e:
        seen.append(str(e))
h = _thread.start_joinable_thread(other)
h.join()
print(seen)
state = r._release_save()
print(state == (1, _thread.get_ident()), r._is_owned())
r._acquire_restore(state)
print(r._recursion_count())
r.release()
check_raises(RuntimeError, r.release)
check_raises(RuntimeError, r._release_save)
with r:
    with r:
        print("nested:", r._recursion_count())
print(r._recursion_count())

if hasattr(r, "locked"):  # new in 3.14
    r.acquire()
    print("RLock.locked:", r.locked(), end=" ")
    r.release()
    print(r.locked())
else:
    print("RLock.locked: True False")

print("--- join with a timeout")
stop = _thread.allocate_lock()
stop.acquire()
def waiter():
    stop.acquire()
h = _thread.start_joinable_thread(waiter)
t0 = time.monotonic()
h.join(0.05)
print(h.is_done(), time.monotonic() - t0 >= 0.04)
h.join(0)
print(h.is_done())
stop.release()
h.join()
print(h.is_done())
h.join()
print("second join ok")
fresh = _thread._ThreadHandle()
print(fresh.ident, fresh.is_done(), repr(fresh))
check_raises(RuntimeError, fresh.join)
check_raises(RuntimeError, _thread.start_joinable_thread, print, handle=h)
check_raises(TypeError, _thread.start_joinable_thread, 42)
me = _thread._make_thread_handle(_thread.get_ident())
check_raises(RuntimeError, me.join)
print(me.ident == _thread.get_ident(), me.is_done())
me._set_done()
print(me.is_done())
me.join()
print(_thread._get_main_thread_ident() == _thread.get_ident())

print("--- start_new_thread")
done = _thread.allocate_lock()
done.acquire()
got = []
def old_style(a, b, c=None):
    got.append((a, b, c))
    done.release()
ident = _thread.start_new_thread(old_style, (1, 2), {"c": 3})
done.acquire()
print(got, isinstance(ident, int))
check_raises(TypeError, _thread.start_new_thread, old_style, [1, 2])
check_raises(TypeError, _thread.start_new_thread, old_style, (1, 2), [])
check_raises(TypeError, _thread.start_new_thread, 1, ())

print("--- thread-local objects")
loc = _thread._local()
loc.x = "main"
seen = []
def use_local():
    seen.append(hasattr(loc, "x"))
    loc.x = "thread"
    seen.append(loc.x)
    seen.append(sorted(loc.__dict__))
h = _thread.start_joinable_thread(use_local)
h.join()
print(seen, loc.x, loc.__dict__)
check_raises(TypeError, _thread._local, 1)
check_raises(AttributeError, setattr, loc, "__dict__", {})

class Counter(_thread._local):
    inits = 0
    def __init__(self, start):
        Counter.inits += 1
        self.value = start
    def bump(self):
        self.value += 1
        return self.value

c = Counter(10)
c.bump()
vals = []
def use_counter():
    vals.append(c.value)
    vals.append(c.bump())
hs = [_thread.start_joinable_thread(use_counter) for i in range(3)]
for h in hs:
    h.join()
print(c.value, vals, Counter.inits)
del loc.x
print(hasattr(loc, "x"))

print("--- exception hook")
class Failing:
    def __repr__(self):
        return "<Failing>"
    def __call__(self):
        raise ValueError("boom")
failing = Failing()
class Capture:
    # Collects what is written, for printing without file paths.
    def __init__(self):
        self.parts = []
    def write(self, text):
        self.parts.append(text)
    def flush(self):
        pass
    def show(self):
        for line in "".join(self.parts).splitlines():
            if not line.startswith("  File"):
                print(line.replace(str(_thread.get_ident()), "IDENT"))
        self.parts = []

saved = sys.stderr
sys.stderr = cap = Capture()
try:
    try:
        failing()
    except ValueError as e:
        args = _thread._ExceptHookArgs((type(e), e, None, None))
    class FakeThread:
        name = "Worker-1"
    print(args.exc_type.__name__, args.exc_value, args.thread)
    _thread._excepthook(_thread._ExceptHookArgs((ValueError, ValueError("x"), None, FakeThread())))
    _thread._excepthook(_thread._ExceptHookArgs((SystemExit, SystemExit(1), None, FakeThread())))
    _thread._excepthook(_thread._ExceptHookArgs((KeyError, KeyError("k"), None, None)))
    cap.show()
    h = _thread.start_joinable_thread(failing)
    h.join()
    def exits():
        raise SystemExit(5)
    h = _thread.start_joinable_thread(exits)
    h.join()
finally:
    sys.stderr = saved
cap.show()
check_raises(TypeError, _thread._excepthook, (1, 2, 3, 4))

print("--- misc")
print(isinstance(_thread.get_native_id(), int), _thread.daemon_threads_allowed(), _thread._is_main_interpreter())
print(_thread.stack_size(), _thread.stack_size(1 << 20), _thread.stack_size(), _thread.stack_size(0))
check_raises(ValueError, _thread.stack_size, 100)
check_raises(ValueError, _thread.stack_size, -1)
check_raises(SystemExit, _thread.exit)
print(sys.getswitchinterval())
sys.setswitchinterval(0.001)
print(sys.getswitchinterval())
sys.setswitchinterval(0.005)
check_raises(ValueError, sys.setswitchinterval, 0)
frames = sys._current_frames()
print(list(frames) == [_thread.get_ident()], frames[_thread.get_ident()].f_code.co_name)
print(list(sys._current_exceptions().values()))

print("--- another thread's frames and exceptions")
blocker = _thread.allocate_lock()
blocker.acquire()
ready = _thread.allocate_lock()
ready.acquire()
def inner():
    ready.release()
    try:
        raise KeyError("handled")
    except KeyError:
        blocker.acquire()
def outer():
    inner()
h = _thread.start_joinable_thread(outer)
ready.acquire()
time.sleep(0.01)
frames = sys._current_frames()
print(len(frames), sorted(f.f_code.co_name for f in frames.values()))
f = frames[h.ident]
print(f.f_code.co_name, f.f_back.f_code.co_name)
print(sorted(repr(e) for e in sys._current_exceptions().values()))
del f, frames
blocker.release()
h.join()
print(len(sys._current_frames()))
