# The standard library runs: the modules real programs start with, used
# for real (issue 6's list), with output that CPython gives as well.
import unittest, json, re, collections, functools, itertools, dataclasses
import enum, typing, argparse, subprocess, pathlib, textwrap, datetime
import fractions, heapq, bisect, random, string, struct, copy, pickle, io
import os, tempfile, shutil, glob, logging, traceback, inspect, contextlib
import abc, weakref, threading, base64, dis, ast, tokenize, asyncio, sys
import hashlib, socket, http.server, urllib.request, concurrent.futures

print(json.dumps({"b": [1, 2.5, None], "a": "x"}, sort_keys=True))
print(re.sub(r"(\w+)@(\w+)", r"\2 at \1", "me@home, you@work"))
print(collections.Counter("mississippi").most_common(2))

@dataclasses.dataclass(order=True, frozen=True)
class Point:
    x: int
    y: int = 0

print(Point(1, 2), Point(1) < Point(1, 2), dataclasses.asdict(Point(3)))

class Color(enum.Enum):
    RED = 1
    GREEN = 2

print(Color.GREEN, list(Color), Color(1).name)
T = typing.TypeVar("T")
def first(xs: list[T]) -> T:
    return xs[0]
print(typing.get_type_hints(first), first([7]))
parser = argparse.ArgumentParser(prog="demo")
parser.add_argument("--n", type=int, default=3)
parser.add_argument("words", nargs="*")
print(parser.parse_args(["--n", "5", "a", "b"]))
print(textwrap.fill("the quick brown fox jumps over the lazy dog " * 2, 30))
print(datetime.date(2024, 2, 28) + datetime.timedelta(days=2),
      datetime.datetime(2024, 1, 1, 12, 30).isoformat())
print(fractions.Fraction(3, 4) + fractions.Fraction(1, 6))
h = [5, 1, 4, 2]; heapq.heapify(h); print([heapq.heappop(h) for _ in range(4)])
print(bisect.bisect([1, 3, 5, 7], 4))
random.seed(12345); print(random.random(), random.randint(1, 100), random.choice("abc"))
print(string.Template("$who likes $what").substitute(who="tim", what="kung pao"))
print(struct.pack("<hiq", 1, 2, 3).hex(), struct.unpack(">I", b"\x00\x00\x01\x00"))
data = {"k": [1, (2, 3)], "s": {4}}
print(pickle.loads(pickle.dumps(data)) == data, copy.deepcopy(data) == data)
buf = io.StringIO(); print("to a buffer", file=buf); print(repr(buf.getvalue()))
with tempfile.TemporaryDirectory() as d:
    p = pathlib.Path(d) / "sub" / "f.txt"
    p.parent.mkdir()
    p.write_text("line1\nline2\n")
    print(p.read_text().splitlines(), [q.name for q in pathlib.Path(d).rglob("*.txt")])
    shutil.copy(p, pathlib.Path(d) / "g.txt")
    print(sorted(os.path.basename(x) for x in glob.glob(os.path.join(d, "*"))))
logging.basicConfig(stream=sys.stdout, format="%(levelname)s:%(name)s:%(message)s")
logging.getLogger("demo").warning("careful %d", 3)
try:
    {}["missing"]
except KeyError:
    print(traceback.format_exc().splitlines()[-1])
print(inspect.signature(first), inspect.getsource(first).splitlines()[0])
@contextlib.contextmanager
def tag(name):
    print("<%s>" % name); yield; print("</%s>" % name)
with tag("b"):
    print("bold")
class Base(abc.ABC):
    @abc.abstractmethod
    def f(self): ...
try:
    Base()
except TypeError as e:
    print(e)
class Obj: pass
o = Obj(); r = weakref.ref(o); print(r() is o); del o; print(r())
results = []
lock = threading.Lock()
def work(n):
    with lock:
        results.append(n * n)
threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(sorted(results))
with concurrent.futures.ThreadPoolExecutor(8) as ex:
    print(sum(ex.map(lambda n: n * n, range(1000))))
print(base64.b64encode(b"lazypy").decode(), base64.b64decode("bGF6eXB5"))
print(ast.dump(ast.parse("x = 1 + 2").body[0].value))
toks = [t.string for t in tokenize.generate_tokens(io.StringIO("a = (b + 1)\n").readline)]
print(toks)
async def count_up(n):
    await asyncio.sleep(0)
    return n + 1
async def main():
    return await asyncio.gather(*(count_up(i) for i in range(3)))
print(asyncio.run(main()))
print(hashlib.sha256(b"abc").hexdigest()[:16], hashlib.md5(b"").hexdigest())
r = subprocess.run([sys.executable, "-c", "print(6 * 7)"], capture_output=True, text=True)
print(r.returncode, r.stdout.strip())
print(any(i.opname == "BINARY_OP" for i in dis.get_instructions(lambda a, b: a + b)))
class Suite(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(sum([1, 2]), 3)
run = unittest.TextTestRunner(stream=io.StringIO()).run(
    unittest.defaultTestLoader.loadTestsFromTestCase(Suite))
print(run.testsRun, run.wasSuccessful())
b = io.BytesIO(b"hello")
m = b.getbuffer()
m[0] = ord("J")
try:
    b.write(b"x")
except BufferError as e:
    print(b.getvalue(), len(m), "BufferError:", e)
m.release()
b.write(b"!")
print(b.getvalue())
