# Golden test for the _socket module: loopback TCP/UDP, socketpair,
# AF_UNIX, timeouts, non-blocking mode, name resolution, conversions,
# errors, sendmsg/recvmsg, signals during a wait, selectors and
# socketserver, and http.server fetched with http.client.
import errno
import os
import socket
import tempfile
import threading


def show(label, value):
    print(label, value)


def raises(label, func, *args):
    try:
        func(*args)
    except Exception as e:
        print(label, type(e).__name__)
    else:
        print(label, "no exception")


# ---- TCP echo through a thread server ----
def tcp_echo():
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    srv.settimeout(5)
    port = srv.getsockname()[1]

    def serve():
        conn, addr = srv.accept()
        with conn:
            conn.settimeout(5)
            while True:
                data = conn.recv(1024)
                if not data:
                    break
                conn.sendall(data.upper())

    t = threading.Thread(target=serve)
    t.start()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
        show("peer port matches", c.getpeername() == ("127.0.0.1", port))
        c.sendall(b"hello world")
        got = b""
        while len(got) < 11:
            got += c.recv(1024)
        show("echo", got)
        buf = bytearray(8)
        c.send(b"abc")
        n = c.recv_into(buf)
        show("recv_into", (n, bytes(buf[:n])))
        c.shutdown(socket.SHUT_WR)
        show("eof", c.recv(10))
    t.join()
    srv.close()
    show("family", repr(srv.family))
    show("type", repr(srv.type))


tcp_echo()


# ---- UDP ----
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
a.bind(("127.0.0.1", 0))
b.settimeout(5)
a.settimeout(5)
b.sendto(b"ping", a.getsockname())
data, addr = a.recvfrom(100)
show("udp", (data, addr[1] == b.getsockname()[1]))
a.sendto(b"pong", 0, addr)
buf = bytearray(10)
n, frm = b.recvfrom_into(buf)
show("udp into", (n, bytes(buf[:n]), frm == a.getsockname()))
a.close()
b.close()

# ---- socketpair ----
x, y = socket.socketpair()
show("pair family", x.family == socket.AF_UNIX)
x.sendall(b"through the pair")
show("pair", y.recv(100))
show("inheritable", (x.get_inheritable(), y.get_inheritable()))
y.close()
show("after close", x.recv(10))
x.close()

# ---- AF_UNIX stream ----
with tempfile.TemporaryDirectory(dir="/tmp") as d:
    path = os.path.join(d, "sock")
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    show("unix name", srv.getsockname() == path)
    cli = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    cli.connect(path)
    conn, _ = srv.accept()
    cli.sendall(b"unix data")
    show("unix", conn.recv(100))
    show("unix peer", conn.getpeername() == "" and cli.getpeername() == path)
    for s in (conn, cli, srv):
        s.close()

ab = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
ab.bind(b"\0lazypy-test-%d" % os.getpid())
show("abstract", ab.getsockname() == b"\0lazypy-test-%d" % os.getpid())
ab.close()

# ---- timeouts and blocking ----
x, y = socket.socketpair()
x.settimeout(0.2)
show("timeout", x.gettimeout())
show("blocking", x.getblocking())
try:
    x.recv(10)
except TimeoutError as e:
    show("recv timed out", (type(e).__name__, str(e), e is not None))
show("socket.timeout is TimeoutError", socket.timeout is TimeoutError)
try:
    x.sendall(b"x" * 20_000_000)
except TimeoutError as e:
    show("sendall timed out", str(e))
while True:
    try:
        y.setblocking(False)
        if not y.recv(1 << 20):
            break
    except BlockingIOError:
        break
y.setblocking(True)
x.setblocking(False)
show("nonblocking", (x.gettimeout(), x.getblocking()))
try:
    x.recv(10)
except BlockingIOError as e:
    show("BlockingIOError", e.errno in (errno.EAGAIN, errno.EWOULDBLOCK))
x.setblocking(True)
show("blocking again", (x.gettimeout(), x.getblocking()))
raises("negative timeout", x.settimeout, -1)
raises("str timeout", x.settimeout, "1")
show("default timeout", socket.getdefaulttimeout())
socket.setdefaulttimeout(3)
z = socket.socket()
show("new socket timeout", z.gettimeout())
z.close()
socket.setdefaulttimeout(None)
x.close()
y.close()

# ---- options ----
s = socket.socket()
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
show("nodelay", s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0)
show("so_type", s.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE))
show("linger bytes", len(s.getsockopt(socket.SOL_SOCKET, socket.SO_LINGER, 8)))
s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, bytes(8))
fd = s.detach()
show("detached", s.fileno())
t = socket.socket(fileno=fd)
show("from fd", (t.family == socket.AF_INET, t.type == socket.SOCK_STREAM, t.proto))
d = socket.fromfd(t.fileno(), socket.AF_INET, socket.SOCK_STREAM)
show("fromfd", d.fileno() != t.fileno())
d.close()
t.close()

# ---- name resolution (numeric and localhost only) ----
info = socket.getaddrinfo("127.0.0.1", 80, type=socket.SOCK_STREAM)
show("getaddrinfo", info[0])
show("getaddrinfo len", len(info[0]))
show("gai6", socket.getaddrinfo("::1", "http", socket.AF_INET6, socket.SOCK_STREAM)[0][4][:2])
show("gai none port", socket.getaddrinfo("127.0.0.1", None, socket.AF_INET, socket.SOCK_DGRAM)[0][4])
show("localhost", "127.0.0.1" in [a[4][0] for a in socket.getaddrinfo("localhost", 0, socket.AF_INET)])
show("gethostbyname", socket.gethostbyname("127.0.0.1"))
show("gethostbyname localhost", socket.gethostbyname("localhost"))
show("gethostbyname_ex", socket.gethostbyname_ex("127.0.0.1"))
show("getnameinfo", socket.getnameinfo(("127.0.0.1", 80), socket.NI_NUMERICHOST | socket.NI_NUMERICSERV))
show("gethostname", isinstance(socket.gethostname(), str))
show("getservbyname", socket.getservbyname("http", "tcp"))
show("getservbyport", socket.getservbyport(80, "tcp"))
show("getprotobyname", socket.getprotobyname("tcp"))
try:
    socket.getaddrinfo("no.such.host.invalid", 80, flags=socket.AI_NUMERICHOST)
except socket.gaierror as e:
    show("gaierror", (e.errno == socket.EAI_NONAME, isinstance(e, OSError)))

raises("gai bad host", socket.getaddrinfo, 1.5, 80)
raises("gai bad port", socket.getaddrinfo, "127.0.0.1", 1.5)
show("if_nameindex", "lo" in [name for index, name in socket.if_nameindex()])

# ---- conversions ----
show("htons", (socket.htons(1), socket.ntohs(socket.htons(0x1234)) == 0x1234))
show("htonl", socket.ntohl(socket.htonl(0x12345678)) == 0x12345678)
raises("htons range", socket.htons, 70000)
raises("htons negative", socket.htons, -1)
show("inet_aton", socket.inet_aton("10.1.2.3"))
show("inet_ntoa", socket.inet_ntoa(b"\x7f\x00\x00\x01"))
for fam, text in ((socket.AF_INET, "192.168.0.1"), (socket.AF_INET6, "::1"),
                  (socket.AF_INET6, "2001:db8::ff00:42:8329")):
    packed = socket.inet_pton(fam, text)
    show("pton/ntop", (len(packed), socket.inet_ntop(fam, packed)))
raises("inet_pton bad", socket.inet_pton, socket.AF_INET, "1.2.3")
raises("inet_ntop bad len", socket.inet_ntop, socket.AF_INET, b"abc")
raises("inet_aton bad", socket.inet_aton, "x.y")
show("if_nametoindex lo", socket.if_indextoname(socket.if_nametoindex("lo")))
show("constants", (socket.AF_INET, socket.SOCK_DGRAM, socket.SOL_SOCKET, socket.SO_REUSEADDR,
                   socket.IPPROTO_TCP, socket.SHUT_RDWR, socket.MSG_PEEK, socket.AI_PASSIVE))
show("enum", (socket.AddressFamily.AF_INET6.name, socket.SocketKind(2).name))
show("has_ipv6", socket.has_ipv6)

# ---- errors ----
probe = socket.socket()
probe.bind(("127.0.0.1", 0))
closed_port = probe.getsockname()[1]
probe.close()
c = socket.socket()
c.settimeout(5)
raises("refused", c.connect, ("127.0.0.1", closed_port))
c.close()
c = socket.socket()
show("connect_ex", c.connect_ex(("127.0.0.1", closed_port)) == errno.ECONNREFUSED)
c.close()
try:
    c.send(b"x")
except OSError as e:
    show("closed socket", (type(e).__name__, e.errno == errno.EBADF))
c = socket.socket()
raises("bad address type", c.bind, "127.0.0.1")
raises("bad tuple", c.bind, ("127.0.0.1",))
raises("bad port", c.bind, ("127.0.0.1", 70000))
raises("bad port type", c.bind, ("127.0.0.1", "80"))
raises("bad host type", c.bind, (1, 80))
c.close()
raises("bad fileno", socket.socket, -1, -1, -1, -5)
s6 = socket.socket(socket.AF_INET6)
s6.bind(("::1", 0))
show("ipv6 name", s6.getsockname()[0])
s6.close()


# ---- sendmsg/recvmsg, SCM_RIGHTS fd passing ----
import struct

x, y = socket.socketpair()
print("sendmsg", x.sendmsg([b"ab", bytearray(b"cd"), memoryview(b"ef")]))
print("recvmsg", y.recvmsg(100))
r, w = os.pipe()
x.sendmsg([b"fds"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("2i", r, w))])
msg, anc, flags, addr = y.recvmsg(100, socket.CMSG_SPACE(2 * 4))
level, kind, raw = anc[0]
fds = list(struct.unpack("2i", raw))
print("recv fds", msg, len(anc), level == socket.SOL_SOCKET, kind == socket.SCM_RIGHTS, len(raw), flags, addr)
os.write(fds[1], b"via passed fd")
print("passed fd works", os.read(r, 100))
for fd in fds + [r, w]:
    os.close(fd)
print("CMSG", socket.CMSG_LEN(0), socket.CMSG_LEN(8), socket.CMSG_SPACE(4), socket.CMSG_SPACE(8))
x.close(); y.close()
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); a.bind(("127.0.0.1", 0)); a.settimeout(5)
b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print("sendmsg to", b.sendmsg([b"dgram", b"!"], [], 0, a.getsockname()))
data, anc, fl, addr = a.recvmsg(100)
print("recvmsg udp", data, anc, fl, addr[0])
try:
    a.sendmsg([b"x"], [(1, 2)])
except TypeError as e:
    print("bad anc", type(e).__name__)
try:
    a.recvmsg(-1)
except ValueError as e:
    print("neg", e)
a.close(); b.close()


# ---- http.server fetched through http.client ----
# (urllib.request needs hashlib -> logging -> tokenize, not here yet.)
def http_fetch():
    import http.client
    import http.server
    import functools

    with tempfile.TemporaryDirectory(dir="/tmp") as root:
        with open(os.path.join(root, "hello.txt"), "w") as f:
            f.write("served by lazypy\n")

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

            # A fixed date: keeps the test off time.gmtime.
            def date_time_string(self, timestamp=None):
                return "Thu, 01 Jan 2026 00:00:00 GMT"

        handler = functools.partial(Quiet, directory=root)
        httpd = http.server.HTTPServer(("127.0.0.1", 0), handler)
        port = httpd.server_address[1]
        t = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05})
        t.start()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/hello.txt")
            resp = conn.getresponse()
            show("http status", resp.status)
            show("http type", resp.getheader("Content-Type"))
            show("http body", resp.read())
            conn.request("GET", "/missing")
            resp = conn.getresponse()
            show("http missing", resp.status)
            resp.read()
            conn.close()
        finally:
            httpd.shutdown()
            httpd.server_close()
            t.join()


http_fetch()


# ---- signals (PEP 475), selectors, socketserver, dealloc ----
import signal, selectors, socketserver
# PEP 475: a signal whose handler returns does not interrupt recv.
hits = []
signal.signal(signal.SIGALRM, lambda *a: hits.append(1))
x, y = socket.socketpair()
def later():
    import time
    time.sleep(0.5)
    y.send(b"late")
t = threading.Thread(target=later); t.start()
signal.setitimer(signal.ITIMER_REAL, 0.1)
print("recv after signal", x.recv(10), len(hits))
t.join()
# A handler that raises interrupts it.
def boom(*a):
    raise KeyboardInterrupt
signal.signal(signal.SIGALRM, boom)
signal.setitimer(signal.ITIMER_REAL, 0.1)
try:
    x.recv(10)
except KeyboardInterrupt:
    print("interrupted")
# timeout keeps running across a signal
signal.signal(signal.SIGALRM, lambda *a: None)
x.settimeout(0.3)
signal.setitimer(signal.ITIMER_REAL, 0.1)
try:
    x.recv(10)
except TimeoutError as e:
    print("timeout", e)
x.close(); y.close()

# selectors + socketserver
sel = selectors.DefaultSelector()
a, b = socket.socketpair()
a.setblocking(False)
sel.register(a, selectors.EVENT_READ, "a")
b.send(b"x")
print("selector", [(k.data, ev) for k, ev in sel.select(1)])
sel.close(); a.close(); b.close()

class Echo(socketserver.StreamRequestHandler):
    def handle(self):
        self.wfile.write(self.rfile.readline().upper())
class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    allow_reuse_address = True
    daemon_threads = True
with Server(("127.0.0.1", 0), Echo) as srv:
    th = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}); th.start()
    with socket.create_connection(srv.server_address, timeout=5) as c:
        c.sendall(b"line one\n")
        f = c.makefile("rb")
        print("socketserver", f.readline())
        f.close()
    srv.shutdown(); th.join()

class UEcho(socketserver.BaseRequestHandler):
    def handle(self):
        data, sock = self.request
        sock.sendto(data[::-1], self.client_address)
with socketserver.UDPServer(("127.0.0.1", 0), UEcho) as srv:
    th = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}); th.start()
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.settimeout(5)
    u.sendto(b"abc", srv.server_address)
    print("udpserver", u.recvfrom(10)[0])
    u.close()
    srv.shutdown(); th.join()
import gc, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", ResourceWarning)
    s = socket.socket(); fd = s.fileno(); del s; gc.collect()
print("warned:", [w.category.__name__ for w in caught],
      all(str(w.message).startswith("unclosed <socket.socket") for w in caught))
import os
try:
    os.fstat(fd); print("leaked")
except OSError:
    print("closed on dealloc")
