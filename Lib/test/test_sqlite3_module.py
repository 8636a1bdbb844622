# Golden test of the sqlite3 package over the _sqlite3 extension module:
# CRUD, transactions in the three autocommit modes, row factories, user
# functions, aggregates, window functions, collations, callbacks,
# adapters and converters, blobs, iterdump, backup, threads and the error
# paths (exception type and message).

import sqlite3
import threading
import warnings
import datetime


def show_error(label, fn, *args, **kwargs):
    try:
        result = fn(*args, **kwargs)
    except Exception as e:
        print(label, "->", type(e).__name__, e)
    else:
        print(label, "-> no error:", result)


def section(title):
    print("==", title)


section("module constants")
print(sqlite3.apilevel, sqlite3.paramstyle, sqlite3.threadsafety)
print(isinstance(sqlite3.sqlite_version, str), len(sqlite3.sqlite_version_info))
print(sqlite3.PARSE_DECLTYPES, sqlite3.PARSE_COLNAMES, sqlite3.LEGACY_TRANSACTION_CONTROL)
print(sqlite3.SQLITE_OK, sqlite3.SQLITE_DENY, sqlite3.SQLITE_IGNORE)
print(sqlite3.SQLITE_INSERT, sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ,
      sqlite3.SQLITE_CREATE_TABLE, sqlite3.SQLITE_PRAGMA)
print(sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_LIMIT_LENGTH,
      sqlite3.SQLITE_DBCONFIG_ENABLE_FKEY)
print(sqlite3.complete_statement("select 1;"), sqlite3.complete_statement("select 1"))

section("exception hierarchy")
for name in ["Warning", "Error", "InterfaceError", "DatabaseError",
             "DataError", "OperationalError", "IntegrityError",
             "InternalError", "ProgrammingError", "NotSupportedError"]:
    cls = getattr(sqlite3, name)
    print(name, cls.__module__, [b.__name__ for b in cls.__mro__[1:]])
con = sqlite3.connect(":memory:")
print(con.Error is sqlite3.Error, con.IntegrityError is sqlite3.IntegrityError)
print(type(con).__name__, type(con.cursor()).__name__)

section("CRUD")
cur = con.cursor()
print(cur.rowcount, cur.lastrowid, cur.description, cur.arraysize)
cur.execute("create table t(id integer primary key, name text, score real, data blob)")
print(cur.description, cur.rowcount)
cur.execute("insert into t(name, score, data) values (?, ?, ?)", ("ann", 1.5, b"\x00\x01"))
print(cur.rowcount, cur.lastrowid)
cur.executemany("insert into t(name, score) values (?, ?)",
                [("bob", 2), ("cy", None), ("dee", 4.25)])
print(cur.rowcount, cur.lastrowid)
cur.execute("insert into t(name, score) values (:n, :s)", {"n": "eve", "s": 5})
print(cur.lastrowid)
cur.execute("select * from t order by id")
print([d[0] for d in cur.description], len(cur.description[0]), cur.description[0][1:])
print(cur.fetchone())
print(cur.fetchmany(2))
print(cur.fetchall())
print(cur.fetchone(), cur.fetchall())
cur.execute("update t set score = score * 2 where score is not null")
print("updated", cur.rowcount)
cur.execute("delete from t where name in (?, ?)", ("bob", "zed"))
print("deleted", cur.rowcount)
for row in con.execute("select id, name, score from t order by id"):
    print(row)
cur.arraysize = 2
print(cur.execute("select name from t order by name").fetchmany())
print(con.execute("select 1, 'x', 2.5, null, x'ff00', 9223372036854775807").fetchone())
print(con.execute("select ?, ?, ?, ?, ?", (True, -7, 1e300, bytearray(b"ab"),
                                            memoryview(b"cd"))).fetchone())
print(con.execute("select typeof(?), typeof(?)", (1, "1")).fetchone())
print(con.total_changes)
print(con.execute("select count(*) from t").fetchone()[0])

section("text_factory")
con.text_factory = bytes
print(con.execute("select 'héllo'").fetchone())
con.text_factory = lambda b: b.decode().upper()
print(con.execute("select 'héllo'").fetchone())
con.text_factory = str
print(con.execute("select 'héllo'").fetchone())
print(con.execute("select cast(x'ff' as text)").fetchone() if False else "skip")
show_error("bad utf8", lambda: con.execute("select cast(x'ff61' as text) as col").fetchone())

section("binding errors")
show_error("too few", con.execute, "select ?, ?", (1,))
show_error("too many", con.execute, "select ?", (1, 2))
show_error("no params", con.execute, "select ?")
show_error("unsupported", con.execute, "select ?", (object(),))
show_error("unsupported 2", con.execute, "select ?, ?", (1, [1]))
show_error("named unsupported", con.execute, "select :a", {"a": object()})
show_error("missing name", con.execute, "select :a, :b", {"a": 1})
show_error("nameless with dict", con.execute, "select ?", {"a": 1})
show_error("bad params type", con.execute, "select ?", 1)
show_error("overflow", con.execute, "select ?", (2**63,))
show_error("two statements", con.execute, "select 1; select 2")
show_error("not str", con.execute, 42)
show_error("syntax", con.execute, "selec 1")
show_error("no table", con.execute, "select * from nowhere")
show_error("null char", con.execute, "select 1\0")
show_error("executemany select", con.executemany, "select ?", [(1,)])
show_error("executemany bad seq", con.executemany, "insert into t(name) values (?)", [1])
print(con.execute("").fetchall(), con.execute("-- nothing").description)

section("integrity")
con.execute("create table u(k text unique not null)")
con.execute("insert into u values ('a')")
try:
    con.execute("insert into u values ('a')")
except sqlite3.IntegrityError as e:
    print(type(e).__name__, e, e.sqlite_errorcode, e.sqlite_errorname)
try:
    con.execute("insert into u values (null)")
except sqlite3.IntegrityError as e:
    print(type(e).__name__, e, e.sqlite_errorcode, e.sqlite_errorname)
try:
    con.execute("selec")
except sqlite3.OperationalError as e:
    print(type(e).__name__, e, e.sqlite_errorcode, e.sqlite_errorname)
con.commit()

section("legacy transactions")
con2 = sqlite3.connect(":memory:")
print(con2.isolation_level == "", con2.autocommit, con2.in_transaction)
con2.execute("create table a(x)")
print(con2.in_transaction)
con2.execute("insert into a values (1)")
print(con2.in_transaction)
con2.rollback()
print(con2.in_transaction, con2.execute("select count(*) from a").fetchone())
con2.execute("insert into a values (2)")
con2.commit()
print(con2.in_transaction, con2.execute("select x from a").fetchall())
con2.isolation_level = None
print(con2.isolation_level)
con2.execute("insert into a values (3)")
print(con2.in_transaction)
con2.isolation_level = "IMMEDIATE"
con2.execute("insert into a values (4)")
print(con2.isolation_level, con2.in_transaction)
con2.commit()
show_error("bad isolation", setattr, con2, "isolation_level", "BOGUS")
show_error("bad isolation type", setattr, con2, "isolation_level", 3)
with con2:
    con2.execute("insert into a values (5)")
print(con2.in_transaction)
try:
    with con2:
        con2.execute("insert into a values (6)")
        raise KeyError("boom")
except KeyError as e:
    print("KeyError", e)
print(con2.execute("select x from a order by x").fetchall())
con2.execute("insert into a values (7)")
con2.executescript("insert into a values (8); insert into a values (9);")
print(con2.in_transaction, con2.execute("select count(*) from a").fetchone())
con2.close()

section("autocommit modes")
ac = sqlite3.connect(":memory:", autocommit=True)
print(ac.autocommit, ac.in_transaction)
ac.execute("create table b(x)")
ac.execute("insert into b values (1)")
print(ac.in_transaction)
ac.execute("begin")
ac.execute("insert into b values (2)")
print(ac.in_transaction)
ac.rollback()  # no-op in autocommit mode
print(ac.in_transaction)
ac.execute("rollback")
print(ac.execute("select x from b").fetchall())
ac.autocommit = False
print(ac.autocommit, ac.in_transaction)
ac.execute("insert into b values (3)")
ac.rollback()
print(ac.in_transaction, ac.execute("select x from b").fetchall())
ac.execute("insert into b values (4)")
ac.commit()
print(ac.in_transaction, ac.execute("select x from b").fetchall())
ac.execute("insert into b values (5)")
ac.autocommit = True
print(ac.in_transaction, ac.execute("select x from b").fetchall())
show_error("bad autocommit", setattr, ac, "autocommit", 5)
show_error("bad autocommit arg", sqlite3.connect, ":memory:", autocommit="yes")
ac.close()
nc = sqlite3.connect(":memory:", autocommit=False)
print(nc.autocommit, nc.in_transaction, nc.isolation_level == "")
nc.execute("create table c(x)")
with nc:
    nc.execute("insert into c values (1)")
print(nc.in_transaction, nc.execute("select * from c").fetchall())
nc.close()

section("closed objects")
cl = sqlite3.connect(":memory:")
ccur = cl.cursor()
cl.close()
cl.close()
show_error("closed execute", cl.execute, "select 1")
show_error("closed cursor on closed con", ccur.execute, "select 1")
show_error("closed commit", cl.commit)
show_error("closed total_changes", getattr, cl, "total_changes")
cl = sqlite3.connect(":memory:")
ccur = cl.cursor()
ccur.close()
show_error("closed cursor", ccur.execute, "select 1")
show_error("closed cursor fetch", ccur.fetchone)
cl.close()

section("row factories")
rc = sqlite3.connect(":memory:")
rc.row_factory = sqlite3.Row
r = rc.execute("select 1 as a, 'two' as B, 3.0 as c").fetchone()
print(type(r).__name__, r[0], r["a"], r["b"], r[-1], r[1:], len(r), list(r), r.keys())
show_error("row bad key", lambda: r["zz"])
show_error("row bad index", lambda: r[5])
show_error("row bad type", lambda: r[1.5])
r2 = rc.execute("select 1 as a, 'two' as B, 3.0 as c").fetchone()
print(r == r2, hash(r) == hash(r2), r != r2, tuple(r))
rc.row_factory = lambda cursor, row: {d[0]: v for d, v in zip(cursor.description, row)}
print(rc.execute("select 1 as x, 2 as y").fetchone())
cur = rc.cursor()
cur.row_factory = lambda cursor, row: row[0] * 10
print(cur.execute("select 4").fetchall())
rc.row_factory = None
print(rc.execute("select 1 as a").fetchone())
show_error("Row(1, 2)", sqlite3.Row, 1, 2)

section("user functions")
uf = sqlite3.connect(":memory:")
uf.create_function("twice", 1, lambda x: x * 2)
uf.create_function("nargs", -1, lambda *a: len(a), deterministic=True)
uf.create_function("kind", 1, lambda x: type(x).__name__)
uf.create_function("nada", 0, lambda: None)
uf.create_function("boom", 0, lambda: 1 / 0)
uf.create_function("badret", 0, lambda: object())
uf.create_function("big", 0, lambda: 2**70)
print(uf.execute("select twice(21), twice('ab'), nargs(), nargs(1, 2, 3)").fetchone())
print(uf.execute("select kind(1), kind(1.5), kind('s'), kind(x'00'), kind(null)").fetchone())
print(uf.execute("select nada()").fetchone())
show_error("raising function", uf.execute, "select boom()")
show_error("bad return", uf.execute, "select badret()")
show_error("overflow return", uf.execute, "select big()")
show_error("wrong arg count", uf.execute, "select twice(1, 2)")
show_error("narg range", uf.create_function, "f", 200, lambda: 1)
uf.create_function("twice", 1, None)
show_error("removed function", uf.execute, "select twice(1)")


class Summer:
    def __init__(self):
        self.total = 0

    def step(self, value):
        self.total += value

    def finalize(self):
        return self.total


class BadStep(Summer):
    def step(self, value):
        raise ValueError("no")


class BadFinal(Summer):
    def finalize(self):
        raise ValueError("no")


class WindowSum(Summer):
    def value(self):
        return self.total

    def inverse(self, value):
        self.total -= value


uf.create_aggregate("mysum", 1, Summer)
uf.create_aggregate("badstep", 1, BadStep)
uf.create_aggregate("badfinal", 1, BadFinal)
uf.execute("create table n(v)")
uf.executemany("insert into n values (?)", [(i,) for i in range(1, 6)])
print(uf.execute("select mysum(v) from n").fetchone())
print(uf.execute("select mysum(v) from n where v > 100").fetchone())
show_error("agg step", uf.execute, "select badstep(v) from n")
show_error("agg final", uf.execute, "select badfinal(v) from n")
uf.create_window_function("winsum", 1, WindowSum)
print(uf.execute("select v, winsum(v) over (order by v rows between 1 preceding and 1 following) from n").fetchall())


class Reversed:
    pass


uf.create_collation("rev", lambda a, b: (a < b) - (a > b))
uf.execute("create table w(s)")
uf.executemany("insert into w values (?)", [("b",), ("a",), ("c",)])
print(uf.execute("select s from w order by s collate rev").fetchall())
show_error("collation not callable", uf.create_collation, "x", 1)
uf.create_collation("rev", None)
show_error("removed collation", uf.execute, "select s from w order by s collate rev")

section("authorizer, progress, trace")
seen = []


def authorizer(action, arg1, arg2, dbname, source):
    if action == sqlite3.SQLITE_READ and arg2 == "secret":
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_READ and arg2 == "hidden":
        return sqlite3.SQLITE_IGNORE
    return sqlite3.SQLITE_OK


au = sqlite3.connect(":memory:")
au.execute("create table p(open, secret, hidden)")
au.execute("insert into p values (1, 2, 3)")
au.set_authorizer(authorizer)
print(au.execute("select open, hidden from p").fetchall())
show_error("denied", au.execute, "select secret from p")
au.set_authorizer(None)
print(au.execute("select secret from p").fetchall())
au.set_authorizer(lambda *a: "not an int")
show_error("bad authorizer", au.execute, "select 1")
au.set_authorizer(None)
calls = []
au.set_progress_handler(lambda: calls.append(1) or 0, 1)
au.execute("select count(*) from p").fetchall()
print(len(calls) > 0)
au.set_progress_handler(lambda: 1, 1)
show_error("progress abort", au.execute, "select count(*) from p")
au.set_progress_handler(None, 1)
traced = []
au.set_trace_callback(traced.append)
au.execute("select ? + 1", (41,)).fetchall()
au.execute("insert into p values ('a', 'b', 'c')")
au.set_trace_callback(None)
au.execute("select 2")
print(traced)

section("adapters and converters")


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return f"Point({self.x}, {self.y})"


class Conforming:
    def __conform__(self, protocol):
        if protocol is sqlite3.PrepareProtocol:
            return "conformed"


sqlite3.register_adapter(Point, lambda p: f"{p.x};{p.y}")
sqlite3.register_converter("point", lambda b: Point(*map(float, b.split(b";"))))
print(sqlite3.adapt(Point(1, 2)), sqlite3.adapt(Conforming()))
show_error("adapt int", sqlite3.adapt, 5)
show_error("adapt fail", sqlite3.adapt, object())
print(sqlite3.adapt(object(), sqlite3.PrepareProtocol, "alt"))
dc = sqlite3.connect(":memory:", detect_types=sqlite3.PARSE_DECLTYPES | sqlite3.PARSE_COLNAMES)
dc.execute("create table pts(p point, q integer)")
dc.execute("insert into pts values (?, ?)", (Point(3, 4), 7))
dc.execute("insert into pts values (?, ?)", (None, 8))
print(dc.execute("select p, q from pts").fetchall())
print(dc.execute("select p as \"p [point]\" from pts limit 1").fetchall())
sqlite3.register_converter("Twice", lambda b: int(b) * 2)
cur = dc.execute("select q as \"q [twice]\" from pts where q = 7")
print(cur.description[0][0], cur.fetchall())
print(dc.execute("select ?", (Conforming(),)).fetchone())
show_error("converter raises", lambda: dc.execute("select 'x' as \"x [twice]\"").fetchall())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    dc.execute("create table dates(d date, ts timestamp)")
    dc.execute("insert into dates values (?, ?)",
               (datetime.date(2024, 2, 29), datetime.datetime(2024, 3, 1, 12, 30, 5, 123)))
    print(dc.execute("select d, ts from dates").fetchone())
for w in caught:
    print(w.category.__name__, w.message)
print(("point".upper()) in sqlite3.converters, (Point, sqlite3.PrepareProtocol) in sqlite3.adapters)
print(sqlite3.PrepareProtocol.__name__)
print(type(sqlite3.PrepareProtocol()).__name__)
# The registries are module-wide: leave them as found, so that running
# this program again in one process (make test-refleak) holds no old Point.
del sqlite3.adapters[(Point, sqlite3.PrepareProtocol)]
del sqlite3.converters["POINT"], sqlite3.converters["TWICE"]

section("blobs")
bc = sqlite3.connect(":memory:")
bc.execute("create table blobs(b blob)")
bc.execute("insert into blobs values (zeroblob(10))")
with bc.blobopen("blobs", "b", 1) as blob:
    print(len(blob), blob.tell())
    blob.write(b"hello")
    print(blob.tell())
    blob.seek(0)
    print(blob.read(3), blob.tell(), blob.read())
    blob.seek(-3, 2)
    print(blob.tell())
    blob.seek(1, 1)
    print(blob.tell())
    print(blob[0], blob[-1], blob[1:4], blob[::2])
    blob[0] = ord("H")
    blob[5:10] = b"world"
    blob.seek(0)
    print(blob.read())
    show_error("blob too long", blob.write, b"x" * 20)
    show_error("blob seek", blob.seek, 100)
    show_error("blob origin", blob.seek, 0, 9)
    show_error("blob index", blob.__getitem__, 10)
    show_error("blob byte", blob.__setitem__, 0, 256)
    show_error("blob slice size", blob.__setitem__, slice(0, 2), b"abc")
    show_error("blob del", blob.__delitem__, 0)
    show_error("blob key type", blob.__getitem__, "a")
print(bc.execute("select b from blobs").fetchone())
show_error("blob closed", blob.read)
show_error("blob no table", bc.blobopen, "nope", "b", 1)
ro = bc.blobopen("blobs", "b", 1, readonly=True)
show_error("blob readonly", ro.write, b"x")
ro.close()

section("iterdump")
dd = sqlite3.connect(":memory:")
dd.executescript("""
    create table people(id integer primary key, name text, note text);
    insert into people(name, note) values ('Ann', 'it''s'), ('Bob', null);
    create index people_name on people(name);
    create view v as select name from people;
""")
for line in dd.iterdump():
    print(line)

section("backup")
dst = sqlite3.connect(":memory:")
progress = []
dd.backup(dst, pages=1, progress=lambda status, remaining, total: progress.append((status, remaining, total)))
print(dst.execute("select name from people order by id").fetchall(), len(progress) > 0)
show_error("backup self", dd.backup, dd)
show_error("backup not con", dd.backup, 1)
show_error("backup bad progress", dd.backup, dst, progress=1)

section("serialize")
data = dd.serialize()
print(type(data).__name__, len(data) > 0)
restored = sqlite3.connect(":memory:")
restored.deserialize(data)
print(restored.execute("select count(*) from people").fetchone())

section("limits and config")
print(dd.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) > 0)
old = dd.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 2)
print(dd.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER))
show_error("limit exceeded", dd.execute, "select ?, ?, ?", (1, 2, 3))
show_error("limit category", dd.getlimit, 1000)
print(dd.setconfig(sqlite3.SQLITE_DBCONFIG_ENABLE_FKEY, True),
      dd.getconfig(sqlite3.SQLITE_DBCONFIG_ENABLE_FKEY))
print(dd.setconfig(sqlite3.SQLITE_DBCONFIG_ENABLE_FKEY, False))
show_error("bad config", dd.getconfig, 12345)
dd.interrupt()

section("threads")
th = sqlite3.connect(":memory:")
errors = []


def use_connection():
    try:
        th.execute("select 1")
    except sqlite3.ProgrammingError as e:
        errors.append(str(e))


t = threading.Thread(target=use_connection)
t.start()
t.join()
print(len(errors), errors[0].startswith(
    "SQLite objects created in a thread can only be used in that same thread."))
shared = sqlite3.connect(":memory:", check_same_thread=False)
shared.execute("create table tt(x)")
results = []


def writer(n):
    for i in range(5):
        shared.execute("insert into tt values (?)", (n * 10 + i,))
    results.append(n)


threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(results), shared.execute("select count(*), sum(x) from tt").fetchone())

section("connection misc")
show_error("connect bad timeout", sqlite3.connect, ":memory:", timeout="x")
show_error("connect bad path", sqlite3.connect, "/nonexistent/dir/db.sqlite")
show_error("cursor factory", con.cursor, factory=lambda c: 1)


class MyCursor(sqlite3.Cursor):
    pass


class MyConnection(sqlite3.Connection):
    pass


mc = sqlite3.connect(":memory:", factory=MyConnection)
print(type(mc).__name__, type(mc.cursor(MyCursor)).__name__)
print(mc.execute("select 1").connection is mc)
show_error("enable_load_extension type", mc.enable_load_extension, "x") if False else None
uc = sqlite3.connect("file::memory:?mode=memory", uri=True)
print(uc.execute("select 5").fetchone())
uc.close()
print("done")
