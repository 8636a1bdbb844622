# binascii: hex, base64, uuencode, quoted-printable, CRCs, with the error
# cases (binascii.Error, binascii.Incomplete) as CPython reports them.
import binascii


def show(f, *args, **kwargs):
    try:
        r = f(*args, **kwargs)
    except Exception as e:
        r = "%s: %s" % (type(e).__name__, e)
    print(r)


print(issubclass(binascii.Error, ValueError), issubclass(binascii.Incomplete, Exception),
      binascii.Error.__module__, binascii.Incomplete.__name__)

# ---- Hex ----
data = bytes(range(0, 256, 7))
print(binascii.hexlify(data), binascii.b2a_hex(b""), binascii.hexlify(bytearray(b"\x00\xff")))
print(binascii.unhexlify(binascii.hexlify(data)) == data, binascii.a2b_hex("DEADbeef"),
      binascii.unhexlify(bytearray(b"00ff")))
for sep, n in [("-", 1), (b":", 2), (" ", -2), ("_", 3), ("_", -3), (".", 100), ("|", -100)]:
    print(repr(sep), n, binascii.hexlify(b"\x01\x02\x03\x04\x05", sep, n),
          binascii.b2a_hex(b"\x01\x02\x03\x04\x05", sep=sep, bytes_per_sep=n))
print(binascii.hexlify(b"\xab", "-"), binascii.hexlify(b"", "-"), binascii.hexlify(b"\xab\xcd", "-", 0))
show(binascii.hexlify, b"ab", "--")
show(binascii.hexlify, b"ab", "\xe9")
show(binascii.hexlify, b"ab", 1)
show(binascii.hexlify, "ab")
show(binascii.unhexlify, "abc")
show(binascii.unhexlify, "zz")
show(binascii.unhexlify, "\xe9\xe9")
show(binascii.unhexlify, b"0g")
show(binascii.unhexlify, 5)

# ---- Base64 ----
for raw in [b"", b"f", b"fo", b"foo", b"foob", b"fooba", b"foobar", bytes(range(256))]:
    enc = binascii.b2a_base64(raw)
    print(enc[:40], binascii.b2a_base64(raw, newline=False)[-5:], binascii.a2b_base64(enc) == raw)
for text in [b"Zm9v", "Zm9v", b"Zm9vYg==", b"Zm9vYg", b"Zm9vY", b"Zm 9v\nYmFy", b"Zm9v====",
             b"Zm9vYg==extra", b"=Zm9v", b"Zm9vYmFy\n", b"Z", b"Zm", b"Zm9", b"!!!!", b"Zg==Zg==",
             b"Zm9vYg=", b"Zm9vYg=a", b"Zm=9", b"====", b"", b"Zm9vYmE=\n", b"Zm9vYmE=\r\n"]:
    show(binascii.a2b_base64, text)
    show(binascii.a2b_base64, text, strict_mode=True)
show(binascii.a2b_base64, "\xe9")
show(binascii.a2b_base64, 1)
show(binascii.b2a_base64, "text")
show(binascii.a2b_base64, b"Zm9v", strict_mode=1)

# ---- uuencode ----
for raw in [b"", b"a", b"abc", b"hello world", bytes(range(45))]:
    enc = binascii.b2a_uu(raw)
    print(enc, binascii.b2a_uu(raw, backtick=True), binascii.a2b_uu(enc) == raw)
show(binascii.b2a_uu, bytes(46))
show(binascii.a2b_uu, b"")
show(binascii.a2b_uu, b"\n")
show(binascii.a2b_uu, b"#86)C\n")
show(binascii.a2b_uu, b"#86)C")
show(binascii.a2b_uu, b"#86)")
show(binascii.a2b_uu, b"#86)Cxyz\n")
show(binascii.a2b_uu, b"#86)C    \n")
show(binascii.a2b_uu, b"!    ")
show(binascii.a2b_uu, b"$86)C")
show(binascii.a2b_uu, b"#\x7f\x7f\x7f\x7f")
show(binascii.a2b_uu, "#86)C")
show(binascii.a2b_uu, b"````")
show(binascii.a2b_uu, b" ")

# ---- Quoted-printable ----
samples = [b"hello", b"a=b", b"tab\there", b"trailing space ", b"trailing tab\t",
           b"line1\nline2", b"crlf\r\nnext", b"\xe9t\xe9", b"x" * 100, b"_under_score",
           b"dot\n.\nend", b"From here", b" lead", b"\x00\x7f", b"a" * 75 + b"=", b"=" * 30,
           b"end with cr\r", b"mid\rcr", b"no newline at all " * 6, b"\n\n", b"a\tb\nc \nd"]
for s in samples:
    for kw in [{}, {"quotetabs": True}, {"istext": False}, {"header": True}]:
        print(kw, binascii.b2a_qp(s, **kw))
for text in [b"hello=20world", b"soft=\nbreak", b"soft=\r\nbreak", b"=41=42=4a=4A", b"bad=zz",
             b"end=", b"a_b", b"=\n", b"x=4", b"=ZZ=41", "unicode=41", b"trail   \nx",
             b"=3d=3D", b"line\r\nline", b"a==41", b"=\r", b"tail=\r"]:
    print(binascii.a2b_qp(text), binascii.a2b_qp(text, header=True), binascii.a2b_qp(data=text))
print(binascii.b2a_qp(data=b"a b", quotetabs=True, istext=True, header=True))
show(binascii.b2a_qp, "str")

# ---- CRCs ----
for raw in [b"", b"a", b"hello world", bytes(range(256)) * 4]:
    print(binascii.crc32(raw), binascii.crc32(raw, 12345), binascii.crc32(raw, -1),
          binascii.crc32(raw, 2**40), binascii.crc_hqx(raw, 0), binascii.crc_hqx(raw, 0xFFFF),
          binascii.crc_hqx(raw, 2**20 + 5))
c = binascii.crc32(b"hello ")
print(binascii.crc32(b"world", c) == binascii.crc32(b"hello world"))
show(binascii.crc32, "str")
show(binascii.crc32, b"x", "1")
show(binascii.crc_hqx, b"x")
show(binascii.crc_hqx, b"x", -1)
show(binascii.crc32)

# Bytes-like arguments of every kind.
print(binascii.b2a_base64(bytearray(b"xyz")), binascii.crc32(bytearray(b"xyz")),
      binascii.a2b_base64(bytearray(b"eHl6")), binascii.a2b_qp(bytearray(b"=41")))
print(sorted(n for n in dir(binascii) if not n.startswith("_")))

# ---- Many generated inputs, summarised by a checksum of every result ----
seed = 2024


def rand(n):
    global seed
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    return (seed >> 8) % n


alphabet = b"ab =._\t\r\n\x00\xff.=\nZ9+/"
for name in ["qp", "qp-crlf", "base64", "uu", "hex"]:
    acc = 0
    for trial in range(400):
        n = rand(120)
        raw = bytes(alphabet[rand(len(alphabet))] if rand(3) else rand(256) for _ in range(n))
        if name == "qp-crlf":
            raw = b"x\r\n" + raw
        if name.startswith("qp"):
            for flags in [(False, True, False), (True, True, False), (False, False, False),
                          (False, True, True), (True, False, True)]:
                enc = binascii.b2a_qp(raw, *flags)
                acc = binascii.crc32(enc, acc)
                acc = binascii.crc32(binascii.a2b_qp(enc, flags[2]), acc)
                acc = binascii.crc32(binascii.a2b_qp(raw), acc)
        elif name == "base64":
            enc = binascii.b2a_base64(raw, newline=False)
            assert binascii.a2b_base64(enc, strict_mode=True) == raw
            for mode in (False, True):
                try:
                    acc = binascii.crc32(binascii.a2b_base64(raw, strict_mode=mode), acc)
                except binascii.Error as e:
                    acc = binascii.crc32(str(e).encode(), acc)
        elif name == "uu":
            chunk = raw[:45]
            assert binascii.a2b_uu(binascii.b2a_uu(chunk)) == chunk
            try:
                acc = binascii.crc32(binascii.a2b_uu(raw), acc)
            except binascii.Error as e:
                acc = binascii.crc32(str(e).encode(), acc)
        else:
            for k in (1, 2, -3, 7):
                acc = binascii.crc32(binascii.hexlify(raw, "-", k), acc)
            acc = binascii.crc_hqx(binascii.hexlify(raw), acc & 0xFFFF) + acc
    print(name, acc)

# The stdlib modules built on binascii (and struct).
import base64
import quopri
print(base64.b64encode(b"hello"), base64.b64decode("aGVsbG8="), base64.b16encode(b"\xff\x00"),
      base64.b32encode(b"abc"), base64.b32decode(b"MFRGG==="), base64.a85encode(b"abc"),
      base64.b85encode(b"abc"), base64.urlsafe_b64encode(b"\xfb\xff"),
      base64.b64decode(b"+/8=", validate=True), base64.standard_b64encode(b"x" * 60))
try:
    base64.b64decode(b"abc", validate=True)
except binascii.Error as e:
    print("binascii.Error", e)
print(quopri.encodestring(b"caf\xe9 = ok \n"), quopri.decodestring(b"caf=E9=3D=\nok"))
