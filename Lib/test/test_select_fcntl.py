# select (select, poll, epoll), fcntl and _posixsubprocess, on pipes and
# socket pairs: readiness, timeouts, errors.
import errno, fcntl, os, select, signal, socket, subprocess, sys, time

r, w = os.pipe()
print("select empty:", select.select([r], [], [], 0))
os.write(w, b"x")
print("select ready:", select.select([r], [w], [], 0) == ([r], [w], []))
start = time.monotonic(); os.read(r, 1)
print("select timeout:", select.select([r], [], [], 0.05), time.monotonic() - start >= 0.04)
class Wrapped:
    def __init__(self, fd): self.fd = fd
    def fileno(self): return self.fd
print("fileno objects:", len(select.select([], [Wrapped(w)], [], 0)[1]))
for bad in ([-1], ["x"], [Wrapped("no")]):
    try:
        select.select(bad, [], [], 0)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    select.select([], [], [], -1)
except ValueError as e:
    print("ValueError", e)

p = select.poll()
p.register(r, select.POLLIN)
p.register(w)
print("poll:", sorted(fd == w for fd, ev in p.poll(0)))
os.write(w, b"y")
print("poll in:", sorted((fd == r, bool(ev & select.POLLIN)) for fd, ev in p.poll(10)))
p.modify(w, select.POLLIN)
p.unregister(w)
try:
    p.unregister(w)
except KeyError:
    print("KeyError on double unregister")
try:
    p.modify(12345, select.POLLIN)
except OSError as e:
    print("OSError", e.errno == errno.ENOENT)

a, b = socket.socketpair()
with select.epoll() as ep:
    ep.register(a.fileno(), select.EPOLLIN)
    print("epoll idle:", ep.poll(0))
    b.send(b"ping")
    print("epoll ready:", ep.poll(1) == [(a.fileno(), select.EPOLLIN)])
    ep.modify(a.fileno(), select.EPOLLOUT)
    ep.unregister(a.fileno())
    print("closed inside:", ep.closed)
print("closed after:", ep.closed)
try:
    ep.poll(0)
except ValueError as e:
    print("ValueError", e)

flags = fcntl.fcntl(r, fcntl.F_GETFL)
fcntl.fcntl(r, fcntl.F_SETFL, flags | os.O_NONBLOCK)
print("nonblocking:", bool(fcntl.fcntl(r, fcntl.F_GETFL) & os.O_NONBLOCK))
print("left in the pipe:", os.read(r, 10))
try:
    os.read(r, 10)
except BlockingIOError:
    print("BlockingIOError on empty non-blocking pipe")
print("cloexec:", fcntl.fcntl(w, fcntl.F_GETFD) & fcntl.FD_CLOEXEC)
path = "/tmp/lazypy_fcntl_%d" % os.getpid()
with open(path, "w+") as f:
    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    fcntl.flock(f, fcntl.LOCK_UN)
    fcntl.lockf(f, fcntl.LOCK_SH, 0, 0, 0)
    fcntl.lockf(f, fcntl.LOCK_UN)
    print("locks taken and released")
os.remove(path)
try:
    fcntl.fcntl(9999, fcntl.F_GETFD)
except OSError as e:
    print("OSError", e.errno == errno.EBADF)
try:
    fcntl.fcntl("x", fcntl.F_GETFD)
except TypeError as e:
    print("TypeError", e)
try:
    fcntl.lockf(w, 12344)
except ValueError as e:
    print("ValueError", e)

r2 = subprocess.run([sys.executable, "-c", "import sys; print(sys.stdin.read().upper())"],
                    input="piped", capture_output=True, text=True)
print("subprocess:", r2.returncode, r2.stdout.strip())
r3 = subprocess.run([sys.executable, "-c", "import sys; sys.stderr.write('e'); sys.exit(3)"],
                    stderr=subprocess.STDOUT, stdout=subprocess.PIPE)
print("exit and merged stderr:", r3.returncode, r3.stdout)
try:
    subprocess.run(["/no/such/program"])
except FileNotFoundError as e:
    print("FileNotFoundError", e.errno == errno.ENOENT, e.filename)
try:
    subprocess.run([sys.executable, "-c", "pass"], cwd="/no/such/dir")
except FileNotFoundError as e:
    print("FileNotFoundError cwd", e.filename)
r4 = subprocess.run(["env"], env={"ONLY": "this"}, capture_output=True, text=True)
print("env:", r4.stdout.strip())
out = subprocess.check_output("echo $((6*7))", shell=True, text=True)
print("shell:", out.strip())
