# The _signal module: Python handlers run by the main thread at its next
# check, default handlers, timers, signal masks, and interrupted waits.

import sys
import time
import _signal
import _thread

S = _signal


def check_raises(exc_type, func, *args, **kwargs):
    try:
        func(*args, **kwargs)
    except exc_type as e:
        print("  ", exc_type.__name__ + ":", e)
    else:
        print("   no exception!")


print("--- defaults")
# SIG_IGN when started from a shell's background job, which ignores SIGINT.
print(S.getsignal(S.SIGINT) in (S.default_int_handler, S.SIG_IGN))
S.signal(S.SIGINT, S.default_int_handler)
print(S.getsignal(S.SIGINT) is S.default_int_handler)
print(S.getsignal(S.SIGUSR1) == S.SIG_DFL, S.SIG_DFL, S.SIG_IGN)
print(S.NSIG, S.SIGINT, S.SIGALRM, S.SIGUSR1, S.ITIMER_REAL, S.ITIMER_VIRTUAL, S.ITIMER_PROF)
print(S.SIG_BLOCK, S.SIG_UNBLOCK, S.SIG_SETMASK)
check_raises(KeyboardInterrupt, S.default_int_handler, S.SIGINT, None)

print("--- a Python handler")
calls = []
def handler(signum, frame):
    calls.append((signum, type(frame).__name__))
old = S.signal(S.SIGUSR1, handler)
print(old == S.SIG_DFL, S.getsignal(S.SIGUSR1) is handler)
S.raise_signal(S.SIGUSR1)
print(calls)
S.pthread_kill(_thread.get_ident(), S.SIGUSR1)
print(len(calls))

print("--- SIG_IGN")
print(S.signal(S.SIGUSR1, S.SIG_IGN) is handler)
S.raise_signal(S.SIGUSR1)
print(len(calls), S.getsignal(S.SIGUSR1))

print("--- raise_signal(SIGINT)")
try:
    S.raise_signal(S.SIGINT)
    print("not interrupted")
except KeyboardInterrupt:
    print("KeyboardInterrupt")

print("--- a handler that raises")
class Alarm(Exception):
    pass
def raiser(signum, frame):
    raise Alarm("signal %d" % signum)
S.signal(S.SIGUSR2, raiser)
check_raises(Alarm, S.raise_signal, S.SIGUSR2)
S.signal(S.SIGUSR2, S.SIG_DFL)

print("--- setitimer interrupts a busy loop")
S.signal(S.SIGALRM, raiser)
print(S.setitimer(S.ITIMER_REAL, 0.05))
d, i = S.getitimer(S.ITIMER_REAL)
print(0 < d <= 0.05, i)
n = 0
try:
    while True:
        n += 1
except Alarm as e:
    print("busy loop interrupted:", e, n > 0)
print(S.getitimer(S.ITIMER_REAL))

print("--- while True: pass gets KeyboardInterrupt")
S.signal(S.SIGALRM, S.default_int_handler)
S.setitimer(S.ITIMER_REAL, 0.02)
try:
    while True:
        pass
except KeyboardInterrupt:
    print("KeyboardInterrupt")

print("--- alarm")
S.signal(S.SIGALRM, raiser)
print(S.alarm(0))
print(S.alarm(1))
t0 = time.monotonic()
try:
    while True:
        pass
except Alarm:
    print("alarm fired", 0.5 < time.monotonic() - t0 < 5)

print("--- a blocked lock acquire and sleep are interrupted")
lk = _thread.allocate_lock()
lk.acquire()
S.setitimer(S.ITIMER_REAL, 0.05)
check_raises(Alarm, lk.acquire)
print(lk.locked())
S.setitimer(S.ITIMER_REAL, 0.05)
check_raises(Alarm, lk.acquire, timeout=10)
S.signal(S.SIGALRM, handler)
calls.clear()
S.setitimer(S.ITIMER_REAL, 0.05)
t0 = time.monotonic()
print(lk.acquire(timeout=0.3), calls, time.monotonic() - t0 >= 0.25)
S.signal(S.SIGALRM, raiser)
S.setitimer(S.ITIMER_REAL, 0.05)
check_raises(Alarm, time.sleep, 10)
lk.release()

print("--- masks, sigpending, sigwait")
calls.clear()
S.signal(S.SIGUSR1, handler)
print(S.SIGUSR1 in S.pthread_sigmask(S.SIG_BLOCK, [S.SIGUSR1]))
S.raise_signal(S.SIGUSR1)
print(calls, S.sigpending() == {S.SIGUSR1})
S.pthread_sigmask(S.SIG_UNBLOCK, [S.SIGUSR1])
print(calls, S.sigpending())
S.pthread_sigmask(S.SIG_BLOCK, {S.SIGUSR2})
S.raise_signal(S.SIGUSR2)
print(S.sigwait([S.SIGUSR2]) == S.SIGUSR2, S.sigpending())
print(S.SIGUSR2 in S.pthread_sigmask(S.SIG_UNBLOCK, [S.SIGUSR2]))
valid = S.valid_signals()
print(S.SIGINT in valid, S.SIGKILL in valid, 0 in valid, len(valid) > 30)

print("--- a signal arriving in another thread runs its handler in the main thread")
where = []
def where_handler(signum, frame):
    where.append(_thread.get_ident() == _thread._get_main_thread_ident())
S.signal(S.SIGUSR1, where_handler)
def from_thread():
    _thread.interrupt_main(S.SIGUSR1)
    try:
        S.signal(S.SIGUSR1, S.SIG_DFL)
    except ValueError as e:
        where.append(str(e))
h = _thread.start_joinable_thread(from_thread)
h.join()
for _ in range(10):
    pass
print(where)
S.signal(S.SIGUSR1, S.SIG_DFL)

print("--- strsignal, siginterrupt, set_wakeup_fd")
print(S.strsignal(S.SIGINT), S.strsignal(S.SIGALRM), S.strsignal(S.SIGUSR1))
S.siginterrupt(S.SIGUSR1, True)
S.siginterrupt(S.SIGUSR1, False)
print(S.set_wakeup_fd(-1))
check_raises(OSError, S.set_wakeup_fd, 9999)

print("--- errors")
check_raises(ValueError, S.signal, 0, handler)
check_raises(ValueError, S.signal, S.NSIG, handler)
check_raises(ValueError, S.getsignal, 1000)
check_raises(TypeError, S.signal, S.SIGUSR1, 42)
check_raises(TypeError, S.signal, S.SIGUSR1, "x")
check_raises(OSError, S.signal, S.SIGKILL, handler)
check_raises(ValueError, S.strsignal, 0)
check_raises(ValueError, S.pthread_sigmask, S.SIG_BLOCK, [0])
check_raises(TypeError, S.pthread_sigmask, S.SIG_BLOCK, 5)
check_raises(S.ItimerError, S.setitimer, S.ITIMER_REAL, -1)
print(issubclass(S.ItimerError, OSError))
check_raises(TypeError, S.alarm, "x")
S.setitimer(S.ITIMER_REAL, 0)
S.signal(S.SIGALRM, S.SIG_DFL)
print("done")
