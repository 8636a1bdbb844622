# _ssl over OpenSSL through CPython's ssl.py: a TLS client and server over
# loopback sockets in two threads, MemoryBIO handshakes, verification
# failures and configuration errors.  Certificates: Lib/test/ssl_data/.
# The .exp is python3.13 output except "session on server side": 3.14's ssl.py
# refuses a session for a server itself, before _ssl sees it.
import os
import re
import socket
import ssl
import threading

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ssl_data")
CA = os.path.join(DATA, "ca.pem")
CERT = os.path.join(DATA, "server.pem")
KEY = os.path.join(DATA, "server.key")
KEYCERT = os.path.join(DATA, "keycert.pem")
ENC_KEY = os.path.join(DATA, "server_enc.key")
SELF_CERT = os.path.join(DATA, "selfsigned.pem")
SELF_KEY = os.path.join(DATA, "selfsigned.key")


def read_text(path):
    with open(path) as f:
        return f.read()


def clean(text):
    # The source position OpenSSL errors carry differs between builds.
    return re.sub(r" \(_ssl\.c:\d+\)|_ssl\.c:\d+: ", "", str(text))


def show(label, fn):
    try:
        r = fn()
    except Exception as e:
        extra = ""
        if isinstance(e, ssl.SSLError):
            extra = " library=%s reason=%s" % (getattr(e, "library", "-"), getattr(e, "reason", "-"))
        if isinstance(e, ssl.SSLCertVerificationError):
            extra += " verify_code=%s verify_message=%r" % (e.verify_code, e.verify_message)
        print(label, "->", type(e).__name__, clean(e) + extra)
    else:
        print(label, "->", clean(repr(r)))


def server_context(cert=CERT, key=KEY):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    return ctx


def client_context():
    ctx = ssl.create_default_context(cafile=CA)
    return ctx


def run_pair(sctx, cctx, hostname="localhost", client_fn=None, server_fn=None):
    """Serve one connection in a thread; returns (client result, server result)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    result = {}

    def serve():
        conn, _ = listener.accept()
        conn.settimeout(10)
        try:
            with sctx.wrap_socket(conn, server_side=True) as s:
                result["server"] = server_fn(s) if server_fn else None
        except Exception as e:
            result["server"] = "%s: %s" % (type(e).__name__, clean(e))
            conn.close()

    t = threading.Thread(target=serve)
    t.start()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
            with cctx.wrap_socket(raw, server_hostname=hostname) as s:
                out = client_fn(s) if client_fn else None
    except Exception as e:
        out = e
    t.join()
    listener.close()
    return out, result.get("server")


# ---- module surface -----------------------------------------------------------
print("version", ssl.OPENSSL_VERSION.startswith("OpenSSL 3"), len(ssl.OPENSSL_VERSION_INFO))
print("has", ssl.HAS_SNI, ssl.HAS_ALPN, ssl.HAS_TLSv1_3, ssl.HAS_NPN)
print("errors", ssl.SSLCertVerificationError.__mro__[1:3], ssl.CertificateError is ssl.SSLCertVerificationError)
print("str", str(ssl.SSLError()), str(ssl.SSLError(1, "x")), str(ssl.SSLError(1)))
print("txt2obj", ssl._txt2obj("1.3.6.1.5.5.7.3.1"))
print("purpose", ssl.Purpose.SERVER_AUTH, ssl.Purpose.CLIENT_AUTH.oid)
print("nid2obj", ssl._nid2obj(129)[1])
print("rand", len(ssl.RAND_bytes(16)), ssl.RAND_status())
paths = ssl.get_default_verify_paths()
print("paths", paths.openssl_cafile_env, paths.openssl_capath_env)
print("decode", ssl._ssl._test_decode_cert(CERT))
pem = read_text(CERT)
der = ssl.PEM_cert_to_DER_cert(pem)
print("der roundtrip", ssl.DER_cert_to_PEM_cert(der) == pem)

# ---- contexts -----------------------------------------------------------------
ctx = ssl.create_default_context()
print("default", ctx.protocol, ctx.verify_mode, ctx.check_hostname,
      ctx.minimum_version, ctx.maximum_version)
print("default flags", bool(ctx.verify_flags & ssl.VERIFY_X509_STRICT),
      bool(ctx.verify_flags & ssl.VERIFY_X509_PARTIAL_CHAIN))
print("default options", bool(ctx.options & ssl.OP_NO_COMPRESSION), bool(ctx.options & ssl.OP_NO_SSLv3))
print("loaded defaults", ctx.cert_store_stats()["x509_ca"] >= 0)
s_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
print("server", s_ctx.verify_mode, s_ctx.check_hostname, s_ctx.num_tickets)
ctx.set_default_verify_paths()
c2 = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
c2.check_hostname = False
c2.verify_mode = ssl.CERT_NONE
print("relaxed", c2.verify_mode, c2.check_hostname)
c2.check_hostname = True
print("check_hostname forces", c2.verify_mode)
show("verify_mode NONE with check_hostname", lambda: setattr(c2, "verify_mode", ssl.CERT_NONE))
show("verify_mode 7", lambda: setattr(c2, "verify_mode", 7))
c2.minimum_version = ssl.TLSVersion.TLSv1_3
print("minimum", c2.minimum_version)
show("minimum 5", lambda: setattr(c2, "minimum_version", 5))
c2.options |= ssl.OP_NO_TICKET
print("options", bool(c2.options & ssl.OP_NO_TICKET))
c2.load_verify_locations(CA)
print("stats", c2.cert_store_stats())
print("ca certs", [dict(x["subject"][2]) for x in [c["subject"] and c for c in c2.get_ca_certs()]][0:0],
      len(c2.get_ca_certs()), c2.get_ca_certs()[0]["subject"])
c2.load_verify_locations(cadata=read_text(CA))
c2.load_verify_locations(cadata=ssl.PEM_cert_to_DER_cert(read_text(CA)))
print("stats again", c2.cert_store_stats())
ciphers = c2.get_ciphers()
print("ciphers", len(ciphers) > 0, sorted(ciphers[0]))
c2.set_ciphers("ECDHE+AESGCM")
show("set_ciphers nonsense", lambda: c2.set_ciphers("nonsense"))
show("set_ecdh_curve bad", lambda: c2.set_ecdh_curve("nonsense"))
c2.set_ecdh_curve("prime256v1")
show("sni on client", lambda: setattr(c2, "sni_callback", print))
show("sni not callable", lambda: setattr(s_ctx, "sni_callback", 3))
show("num_tickets client", lambda: setattr(c2, "num_tickets", 3))
show("protocol 99", lambda: ssl._ssl._SSLContext(99))
show("alpn too long", lambda: c2.set_alpn_protocols(["x" * 300]))

# ---- certificate and key loading errors ----------------------------------------
show("cert missing", lambda: s_ctx.load_cert_chain(os.path.join(DATA, "nope.pem")))
show("cert is not a chain", lambda: s_ctx.load_cert_chain(CA))
show("key mismatch", lambda: s_ctx.load_cert_chain(CERT, SELF_KEY))
show("bad password", lambda: s_ctx.load_cert_chain(CERT, ENC_KEY, password="bad"))
show("password", lambda: s_ctx.load_cert_chain(CERT, ENC_KEY, password="secret"))
show("password bytes", lambda: s_ctx.load_cert_chain(CERT, ENC_KEY, password=b"secret"))
show("password callback", lambda: s_ctx.load_cert_chain(CERT, ENC_KEY, password=lambda: "secret"))
show("password type", lambda: s_ctx.load_cert_chain(CERT, ENC_KEY, password=3))
show("password callback type", lambda: s_ctx.load_cert_chain(CERT, ENC_KEY, password=lambda: 3))
show("password callback raises", lambda: s_ctx.load_cert_chain(CERT, ENC_KEY, password=lambda: 1 / 0))
show("password too long", lambda: s_ctx.load_cert_chain(CERT, ENC_KEY, password="x" * 2000))
show("keycert", lambda: s_ctx.load_cert_chain(KEYCERT))
show("cafile missing", lambda: s_ctx.load_verify_locations(os.path.join(DATA, "nope.pem")))
show("cafile not certs", lambda: s_ctx.load_verify_locations(KEY))
show("verify all omitted", lambda: s_ctx.load_verify_locations())
show("cadata junk", lambda: s_ctx.load_verify_locations(cadata="junk"))
show("cadata junk bytes", lambda: s_ctx.load_verify_locations(cadata=b"junk"))
show("cadata type", lambda: s_ctx.load_verify_locations(cadata=3))
show("cafile type", lambda: s_ctx.load_verify_locations(cafile=3))
try:
    s_ctx.load_dh_params(os.path.join(DATA, "nope"))
except FileNotFoundError as e:
    print("dh missing ->", type(e).__name__, e.errno, e.strerror, os.path.basename(e.filename))
show("decode missing", lambda: ssl._ssl._test_decode_cert(os.path.join(DATA, "nope.pem")))
show("decode not pem", lambda: ssl._ssl._test_decode_cert(KEY))

# ---- a client and a server over loopback, in two threads -------------------------
def client_talk(s):
    s.sendall(b"hello over tls")
    reply = s.recv(100)
    cert = s.getpeercert()
    return (reply, s.version(), s.cipher()[1], s.cipher()[2] >= 128,
            cert["subject"], cert["subjectAltName"], len(s.getpeercert(True)) > 100,
            s.server_hostname, s.server_side, s.selected_alpn_protocol(),
            len(s.get_channel_binding()) > 0, s.pending(), s.compression(),
            len(s.get_verified_chain()), len(s.get_unverified_chain()))


def server_talk(s):
    data = s.recv(100)
    s.sendall(data.upper())
    return (s.version(), s.getpeercert(), s.server_side, s.shared_ciphers() is not None)


client, server = run_pair(server_context(), client_context(), client_fn=client_talk,
                          server_fn=server_talk)
print("loopback client", client)
print("loopback server", server)

# TLS 1.2 as well.
cctx = client_context()
cctx.maximum_version = ssl.TLSVersion.TLSv1_2
client, server = run_pair(server_context(), cctx, client_fn=lambda s: (s.version(), s.recv(5)),
                          server_fn=lambda s: s.sendall(b"12345"))
print("tls1.2", client, server)

# ALPN and SNI.
seen = []


def sni(sslobj, name, context):
    seen.append((type(sslobj).__name__, name, context is sctx))


sctx = server_context()
sctx.set_alpn_protocols(["h2", "http/1.1"])
sctx.sni_callback = sni
cctx = client_context()
cctx.set_alpn_protocols(["spdy", "http/1.1"])
client, server = run_pair(sctx, cctx, client_fn=lambda s: s.selected_alpn_protocol(),
                          server_fn=lambda s: s.selected_alpn_protocol())
print("alpn", client, server, "sni", seen)

# An SNI callback that refuses the name with an alert.
sctx = server_context()
sctx.sni_callback = lambda s, name, c: ssl.ALERT_DESCRIPTION_UNRECOGNIZED_NAME
client, server = run_pair(sctx, client_context())
print("sni alert", type(client).__name__, clean(client), "|", server)

# Client certificates.
sctx = server_context()
sctx.verify_mode = ssl.CERT_REQUIRED
sctx.load_verify_locations(CA)
cctx = client_context()
cctx.load_cert_chain(CERT, KEY)
client, server = run_pair(sctx, cctx, client_fn=lambda s: s.recv(2),
                          server_fn=lambda s: (s.getpeercert()["subject"], s.sendall(b"ok")))
print("client cert", clean(client), server)

# ---- verification failures --------------------------------------------------------
client, server = run_pair(server_context(SELF_CERT, SELF_KEY), client_context())
print("self-signed", type(client).__name__, clean(client))
print("  code", client.verify_code, client.verify_message, client.reason, client.library)
print("  server saw", server)

client, server = run_pair(server_context(), client_context(), hostname="wrong.example")
print("hostname", type(client).__name__, clean(client))
print("  code", client.verify_code, client.verify_message)

client, server = run_pair(server_context(), client_context(), hostname="127.0.0.1",
                          client_fn=lambda s: s.getpeercert()["subject"][-1])
print("ip in san", client)

client, server = run_pair(server_context(), client_context(), hostname="127.0.0.2")
print("ip mismatch", type(client).__name__, client.verify_message)

cctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
client, server = run_pair(server_context(), cctx)
print("no CA loaded", type(client).__name__, client.verify_message)

cctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
cctx.check_hostname = False
cctx.verify_mode = ssl.CERT_NONE
client, server = run_pair(server_context(SELF_CERT, SELF_KEY), cctx,
                          client_fn=lambda s: (s.getpeercert(), len(s.getpeercert(binary_form=True)) > 0))
print("unverified", client)

with socket.socket() as unconnected:
    show("check_hostname needs a name", lambda: client_context().wrap_socket(unconnected))

# ---- MemoryBIO ----------------------------------------------------------------------
def pump(a_out, b_in):
    data = a_out.read()
    if data:
        b_in.write(data)
    return len(data)


def bio_handshake(cctx, sctx, hostname="localhost"):
    c_in, c_out, s_in, s_out = (ssl.MemoryBIO() for _ in range(4))
    client = cctx.wrap_bio(c_in, c_out, server_hostname=hostname)
    server = sctx.wrap_bio(s_in, s_out, server_side=True)
    done = {client: False, server: False}
    for _ in range(20):
        for obj in (client, server):
            if not done[obj]:
                try:
                    obj.do_handshake()
                    done[obj] = True
                except ssl.SSLWantReadError:
                    pass
        moved = pump(c_out, s_in) + pump(s_out, c_in)
        if all(done.values()) and not moved:
            break
    return client, server, (c_in, c_out, s_in, s_out)


client, server, (c_in, c_out, s_in, s_out) = bio_handshake(client_context(), server_context())
print("bio", client.version(), server.version(), client.getpeercert()["subject"][-1],
      type(client).__name__, client.server_hostname, server.server_side)
client.write(b"through memory")
pump(c_out, s_in)
print("bio data", server.read(100))
show("bio read with nothing", lambda: server.read(100))
server.write(b"back")
pump(s_out, c_in)
print("bio back", client.read(), client.pending())
show("bio unwrap want read", client.unwrap)
pump(c_out, s_in)
show("bio server unwrap", server.unwrap)
pump(s_out, c_in)
show("bio client unwrap", client.unwrap)

b = ssl.MemoryBIO()
print("membio", b.write(b"abc"), b.pending, b.read(2), b.read(), b.eof)
b.write_eof()
print("membio eof", b.eof, b.pending)
show("write after eof", lambda: b.write(b"x"))
show("membio str", lambda: ssl.MemoryBIO().write("x"))

try:
    bio_handshake(client_context(), server_context(SELF_CERT, SELF_KEY))
except ssl.SSLCertVerificationError as e:
    print("bio verify", clean(e), e.verify_code)

c_in, c_out = ssl.MemoryBIO(), ssl.MemoryBIO()
obj = client_context().wrap_bio(c_in, c_out, server_hostname="localhost")
show("not done getpeercert", obj.getpeercert)
print("not done", obj.cipher(), obj.version(), obj.shared_ciphers(), obj.selected_alpn_protocol())
show("first step", obj.do_handshake)
print("hello sent", c_out.pending > 0)
c_in.write_eof()
c_out.read()
show("eof during handshake", obj.do_handshake)
show("channel binding type", lambda: obj.get_channel_binding("x"))
show("SSLObject()", lambda: ssl.SSLObject())
lax = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
lax.check_hostname = False
show("bio empty hostname", lambda: lax.wrap_bio(ssl.MemoryBIO(), ssl.MemoryBIO(), server_hostname=""))
show("bio leading dot", lambda: lax.wrap_bio(ssl.MemoryBIO(), ssl.MemoryBIO(), server_hostname=".x"))
show("server side on client ctx", lambda: lax.wrap_bio(ssl.MemoryBIO(), ssl.MemoryBIO(), server_side=True))

# ---- blocking sockets: both ends wait inside OpenSSL with the GIL released ------
def blocking_pair():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    sctx = server_context()
    got = []

    def serve():
        conn, _ = listener.accept()
        with sctx.wrap_socket(conn, server_side=True) as s:
            f = s.makefile("rwb")
            line = f.readline()
            f.write(line[::-1].strip() + b"\n")
            f.flush()
            f.close()
            got.append(line)
            plain = s.unwrap()
            got.append(plain.recv(20))
            plain.sendall(b"plain reply")
            plain.close()

    t = threading.Thread(target=serve)
    t.start()
    raw = socket.create_connection(("127.0.0.1", port))
    print("blocking timeout", raw.gettimeout())
    s = client_context().wrap_socket(raw, server_hostname="localhost")
    s.sendall(b"line one\n")
    print("readline", s.makefile("rb").readline())
    plain = s.unwrap()
    print("unwrapped", type(plain).__name__, type(s._sslobj).__name__)
    plain.sendall(b"cleartext")
    print("plain", plain.recv(20))
    plain.close()
    s.close()
    t.join()
    listener.close()
    print("server got", got)


blocking_pair()

# A non-blocking client socket: the handshake asks to be called again.
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(1)
raw = socket.create_connection(listener.getsockname())
conn, _ = listener.accept()
raw.setblocking(False)
s = client_context().wrap_socket(raw, server_hostname="localhost", do_handshake_on_connect=False)
show("non-blocking handshake", s.do_handshake)
s.close()
conn.close()
listener.close()

# A timeout while the server never answers.
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(1)
raw = socket.create_connection(listener.getsockname(), timeout=0.2)
conn, _ = listener.accept()
show("handshake timeout", lambda: client_context().wrap_socket(raw, server_hostname="localhost"))
raw.close()
conn.close()
listener.close()

# The peer closes the TCP connection in the middle of the handshake.
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(1)
raw = socket.create_connection(listener.getsockname(), timeout=5)
conn, _ = listener.accept()
conn.close()
show("peer closed", lambda: client_context().wrap_socket(raw, server_hostname="localhost"))
raw.close()
listener.close()

# select() waits with the GIL released while a server thread does its part.
import select
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(1)
sctx = server_context()
served = []


def serve_one():
    conn, _ = listener.accept()
    with sctx.wrap_socket(conn, server_side=True) as s:
        served.append(s.recv(10))


t = threading.Thread(target=serve_one)
t.start()
raw = socket.create_connection(listener.getsockname())
raw.setblocking(False)
s = client_context().wrap_socket(raw, server_hostname="localhost", do_handshake_on_connect=False)
calls = 0
while True:
    calls += 1
    try:
        s.do_handshake()
        break
    except ssl.SSLWantReadError:
        select.select([s], [], [], 10)
    except ssl.SSLWantWriteError:
        select.select([], [s], [], 10)
print("select handshake", calls >= 1, s.version())
s.setblocking(True)
s.sendall(b"via select")
t.join()
s.close()
listener.close()
print("served", served)

# Context garbage: an SNI callback bound to its own context is a cycle.
import gc
import weakref


class CycleContext(ssl.SSLContext):
    def callback(self, *args):
        pass


c = CycleContext(ssl.PROTOCOL_TLS_SERVER)
c.sni_callback = c.callback
ref = weakref.ref(c)
del c
gc.collect()
print("cycle collected", ref() is None)

import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.options |= ssl.OP_NO_TLSv1_1
    ctx.options |= ssl.OP_NO_TICKET
print("option warnings", [str(w.message) for w in caught])

# The message callback (a debugging hook) sees the handshake messages.
msgs = []
cctx = client_context()
cctx._msg_callback = lambda conn, direction, version, ctype, mtype, data: msgs.append(
    (type(conn).__name__, direction, ctype, mtype))
client, server, _ = bio_handshake(cctx, server_context())
print("msg callback", msgs[:3], len(msgs) > 5, client.shared_ciphers(), len(server.shared_ciphers()) > 0)
show("msg callback not callable", lambda: setattr(cctx, "_msg_callback", 3))
cctx._msg_callback = None
print("msg callback cleared", cctx._msg_callback)

# TLS 1.2 session resumption: the second connection reuses the first's session.
sctx = server_context()
cctx = client_context()
cctx.maximum_version = ssl.TLSVersion.TLSv1_2
first, _ = run_pair(sctx, cctx, client_fn=lambda s: (s.session, s.session_reused))
session = first[0]
print("session", type(session).__name__, first[1], len(session.id) > 0, session.has_ticket,
      session.timeout > 0, session == session)


def reuse(s):
    return s.session_reused, s.session.id == session.id


listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(1)


def serve_reuse():
    conn, _ = listener.accept()
    with sctx.wrap_socket(conn, server_side=True) as s:
        s.recv(1)


t = threading.Thread(target=serve_reuse)
t.start()
with socket.create_connection(listener.getsockname(), timeout=10) as raw:
    with cctx.wrap_socket(raw, server_hostname="localhost", session=session) as s:
        print("resumed", reuse(s))
        s.sendall(b"x")
t.join()
listener.close()
print("server stats", sctx.session_stats()["hits"], sctx.session_stats()["accept"])
show("session on server side", lambda: sctx.wrap_bio(ssl.MemoryBIO(), ssl.MemoryBIO(), server_side=True, session=session))
show("session wrong type", lambda: cctx.wrap_bio(ssl.MemoryBIO(), ssl.MemoryBIO(), server_hostname="localhost", session=3))
show("session other context", lambda: client_context().wrap_bio(ssl.MemoryBIO(), ssl.MemoryBIO(), server_hostname="localhost", session=session))

print("done")
