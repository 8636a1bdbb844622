# _hashlib (OpenSSL) and _blake2 through hashlib, hmac, secrets and random.
import hashlib, hmac, secrets, random, _hashlib, _blake2, io, uuid

random.seed('x')
print("random", random.random())
random.seed(b'abc', version=2)
print("random bytes seed", random.randrange(10**9))

big = bytes(range(256)) * 4096   # 1 MiB

def show(name, h):
    if name.startswith('shake'):
        return h.hexdigest(20)
    return h.hexdigest()

for name in sorted(hashlib.algorithms_guaranteed):
    ctor = getattr(hashlib, name)
    h = ctor()
    print(name, h.name, h.digest_size, h.block_size, show(name, h))
    print(" abc", show(name, ctor(b'abc')), show(name, hashlib.new(name, b'abc')))
    print(" 1M", show(name, ctor(big)))
    inc = ctor()
    for i in range(0, len(big), 70001):
        inc.update(memoryview(big)[i:i + 70001])
    print(" incremental same", show(name, inc) == show(name, ctor(big)))
    c = inc.copy()
    c.update(b'more')
    print(" copy independent", show(name, c) != show(name, inc), show(name, inc) == show(name, ctor(big)))
    print(" digest bytes", (h.digest(16) if name.startswith('shake') else h.digest()).hex()[:16])

print("shake lengths", hashlib.shake_128(b'').hexdigest(0), hashlib.shake_256(b'x').hexdigest(100)[-8:])
print("upper-case name", hashlib.new('SHA256', b'abc').hexdigest()[:16])
print("bytearray", hashlib.md5(bytearray(b'abc')).hexdigest())

# BLAKE2: RFC 7693 appendix A vectors and the keyword parameters.
print("rfc blake2b abc", hashlib.blake2b(b'abc').hexdigest())
print("rfc blake2s abc", hashlib.blake2s(b'abc').hexdigest())
for ctor in (hashlib.blake2b, hashlib.blake2s):
    print(ctor.__name__, ctor.SALT_SIZE, ctor.PERSON_SIZE, ctor.MAX_KEY_SIZE, ctor.MAX_DIGEST_SIZE)
    n = ctor.MAX_DIGEST_SIZE
    print(" keyed", ctor(b'msg', key=b'k' * ctor.MAX_KEY_SIZE).hexdigest()[:32])
    print(" salt person", ctor(b'msg', salt=b's' * ctor.SALT_SIZE, person=b'me').hexdigest()[:32])
    print(" digest_size", ctor(b'msg', digest_size=20).hexdigest(), ctor(digest_size=20).digest_size)
    print(" tree", ctor(b'x', fanout=2, depth=2, leaf_size=4096, node_offset=3, node_depth=1,
                       inner_size=n, last_node=True).hexdigest()[:32])
    print(" 1M", ctor(big).hexdigest()[:32], ctor(big, key=b'key').hexdigest()[:32])
    for size in (0, 1, 63, 64, 65, 127, 128, 129, 256):
        data = big[:size]
        one = ctor(data, key=b'K').hexdigest()
        inc = ctor(key=b'K')
        for b in data:
            inc.update(bytes([b]))
        if inc.hexdigest() != one:
            print(" incremental mismatch at", size)
    print(" len", size, ctor(big[:size]).hexdigest()[:16])
    c = ctor(b'a')
    d = c.copy()
    d.update(b'b')
    print(" copy", c.hexdigest() == ctor(b'a').hexdigest(), d.hexdigest() == ctor(b'ab').hexdigest())
    print(" name", c.name, c.block_size, c.digest_size)
    for bad in (dict(key=b'k' * (ctor.MAX_KEY_SIZE + 1)), dict(digest_size=0),
                dict(salt=b's' * (ctor.SALT_SIZE + 1)), dict(person=b'p' * (ctor.PERSON_SIZE + 1)),
                dict(fanout=256), dict(depth=0), dict(node_depth=256)):
        try:
            ctor(**bad)
        except ValueError as e:
            print(" ValueError", e)

# RFC 7693 appendix E self-test, as a check on keyed and sized hashing.
def selftest(ctor, md_lens, in_lens):
    def seq(n, seed):
        a = (0xDEAD4BAD * seed) & 0xffffffff
        b = 1
        out = bytearray()
        for _ in range(n):
            t = (a + b) & 0xffffffff
            a, b = b, t
            out.append((t >> 24) & 0xff)
        return bytes(out)
    total = ctor(digest_size=32)
    for outlen in md_lens:
        for inlen in in_lens:
            data = seq(inlen, inlen)
            total.update(ctor(data, digest_size=outlen).digest())
            key = seq(outlen, outlen)
            total.update(ctor(data, digest_size=outlen, key=key).digest())
    return total.hexdigest()
print("rfc selftest b", selftest(hashlib.blake2b, (20, 32, 48, 64), (0, 3, 128, 129, 255, 1024)))
print("rfc selftest s", selftest(hashlib.blake2s, (16, 20, 28, 32), (0, 3, 64, 65, 255, 1024)))

# HMAC and key derivation.
for dm in ('md5', 'sha256', hashlib.sha256):
    m = hmac.new(b'key', b'The quick brown fox jumps over the lazy dog', dm)
    print("hmac", m.name, m.digest_size, m.block_size, m.hexdigest())
    c = m.copy()
    c.update(b'!')
    print(" copy", c.hexdigest() != m.hexdigest())
print("hmac.digest", hmac.digest(b'', b'', 'md5').hex(), hmac.digest(b'k' * 100, b'm', 'sha256').hex())
print("hmac blake2 fallback", hmac.new(b'k', b'm', hashlib.blake2s).hexdigest()[:16])
print("compare_digest", hmac.compare_digest(b'abc', b'abc'), hmac.compare_digest('abc', 'abd'))
print("pbkdf2", hashlib.pbkdf2_hmac('sha1', b'password', b'salt', 1).hex())
print("pbkdf2", hashlib.pbkdf2_hmac('sha256', b'password', b'salt', 4096, 32).hex())
print("scrypt", hashlib.scrypt(b'password', salt=b'NaCl', n=1024, r=8, p=16, dklen=64).hex()[:32])
print("secrets", len(secrets.token_hex(16)), len(secrets.token_bytes(8)))
print("fips", _hashlib.get_fips_mode())
print("names", {'md5', 'sha256', 'sha3_256', 'shake_128'} <= _hashlib.openssl_md_meth_names)
print("constructors", _hashlib._constructors[_hashlib.openssl_sha256])

# Errors.
def err(f):
    try:
        f()
    except Exception as e:
        print(" ", type(e).__name__, e)
err(lambda: hashlib.md5('abc'))
err(lambda: hashlib.sha256().update('abc'))
err(lambda: hashlib.blake2b('abc'))
err(lambda: hashlib.sha1(1))
err(lambda: hashlib.new('nosuchhash'))
err(lambda: hashlib.pbkdf2_hmac('sha1', b'p', b's', 0))
err(lambda: hashlib.pbkdf2_hmac('sha1', b'p', b's', 1, 0))
err(lambda: hmac.new('key', b'', 'md5'))
err(lambda: hmac.new(b'key', b''))
print("unsupported is ValueError", issubclass(_hashlib.UnsupportedDigestmodError, ValueError))

# Callers elsewhere in the stdlib, and digests only OpenSSL has.
print(hashlib.file_digest(io.BytesIO(b'abc'), 'sha256').hexdigest()[:16])
print(hmac.new(b'k', b'm', 'blake2b').hexdigest()[:16], hmac.new(b'k', b'm', 'sha3_256').hexdigest()[:16])
print(hashlib.new('sha512_256', b'').hexdigest()[:16], hashlib.new('ripemd160', b'').hexdigest()[:16])
print(uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org'), uuid.uuid3(uuid.NAMESPACE_DNS, 'python.org'))
h = hashlib.sha256(); h.update(b'a'*3000); print(h.hexdigest()[:16])
print(hashlib.blake2b(b'x', digest_size=32).name, type(hashlib.sha1()).__name__, type(hashlib.shake_128()).__name__)
try: _hashlib.new('nosuch')
except ValueError as e: print(type(e).__name__)
try: hashlib.scrypt(b'p', salt=b's', n=3, r=1, p=1)
except ValueError as e: print(e)
print(hashlib.new('md5', usedforsecurity=False).hexdigest())
