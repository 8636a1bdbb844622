# Golden test of sqlite3's less travelled paths: uninitialised subclasses,
# deprecation warnings, aggregate method errors, statement reuse across
# cursors and the statement cache, dump filters, thread checks on every
# object kind, and closed-connection errors on blobs and cursors.

import collections.abc
import sqlite3
import threading
import warnings


def show_error(label, fn, *args, **kwargs):
    try:
        result = fn(*args, **kwargs)
    except Exception as e:
        print(label, "->", type(e).__name__, e)
    else:
        print(label, "-> no error:", result)


print("== uninitialised subclasses")


class LazyConnection(sqlite3.Connection):
    def __init__(self, *args, **kwargs):
        pass


class LazyCursor(sqlite3.Cursor):
    def __init__(self, con):
        pass


lazy = LazyConnection(":memory:")
show_error("lazy execute", lazy.execute, "select 1")
show_error("lazy cursor", lazy.cursor)
con = sqlite3.connect(":memory:")
lc = LazyCursor(con)
show_error("lazy cursor execute", lc.execute, "select 1")
show_error("lazy cursor fetch", lc.fetchone)
show_error("Cursor(1)", sqlite3.Cursor, 1)

print("== warnings")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    sqlite3.connect(":memory:", 2.0).close()
    sqlite3.Connection(":memory:", 2.0).close()
    kc = sqlite3.connect(":memory:")
    kc.create_function("f", 1, func=len)
    kc.create_function("f", 1, len, deterministic=True)
    kc.create_aggregate("g", 1, aggregate_class=int)
    kc.set_authorizer(authorizer_callback=None)
    kc.set_trace_callback(trace_callback=None)
    kc.set_progress_handler(None, n=1)
    kc.set_progress_handler(progress_handler=None, n=1)
    kc.close()
for w in caught:
    print(w.category.__name__, w.message)

print("== aggregate method errors")


class NoValue:
    def step(self, x):
        pass

    def finalize(self):
        return 1


class BadInit:
    def __init__(self):
        raise ValueError("init")

    def step(self, x):
        pass

    def finalize(self):
        return 1


class BadValue(NoValue):
    def value(self):
        raise ValueError("value")

    def inverse(self, x):
        pass


class BadInverse(NoValue):
    def value(self):
        return 0

    def inverse(self, x):
        raise ValueError("inverse")


con.execute("create table n(v)")
con.executemany("insert into n values (?)", [(1,), (2,), (3,)])
con.create_window_function("nv", 1, NoValue)
con.create_window_function("bv", 1, BadValue)
con.create_window_function("binv", 1, BadInverse)
con.create_aggregate("bi", 1, BadInit)
con.create_aggregate("ns", 1, int)
window = " over (order by v rows between 1 preceding and current row) from n"
show_error("no value", lambda: con.execute("select nv(v)" + window).fetchall())
show_error("bad value", lambda: con.execute("select bv(v)" + window).fetchall())
show_error("bad inverse", lambda: con.execute("select binv(v)" + window).fetchall())
show_error("bad init", lambda: con.execute("select bi(v) from n").fetchall())
show_error("no step", lambda: con.execute("select ns(v) from n").fetchall())
show_error("window narg", con.create_window_function, "w", 200, NoValue)
show_error("aggregate narg", con.create_aggregate, "w", 200, NoValue)
con.create_window_function("nv", 1, None)
show_error("removed window", lambda: con.execute("select nv(v)" + window).fetchall())
show_error("collation name type", con.create_collation, 1, None)
con.create_function("echo", 1, lambda x: x)
show_error("bad text arg", lambda: con.execute("select echo(cast(x'ff' as text))").fetchall())
con.create_function("ovf", 0, lambda: (_ for _ in ()).throw(OverflowError("x")))
show_error("overflow raised", lambda: con.execute("select ovf()").fetchall())
con.create_function("blobby", 0, lambda: bytearray(b"xy"))
con.create_function("floaty", 0, lambda: 2.5)
print(con.execute("select blobby(), floaty(), typeof(blobby())").fetchone())

print("== statements shared by cursors")
con.execute("create table s(x)")
con.executemany("insert into s values (?)", [(i,) for i in range(5)])
sql = "select x from s order by x"
c1 = con.execute(sql)
c2 = con.execute(sql)
print(c1.fetchone(), c2.fetchone(), c1.fetchone(), c2.fetchall(), c1.fetchall())
small = sqlite3.connect(":memory:", cached_statements=1)
for i in range(3):
    for q in ("select 1", "select 2"):
        small.execute(q).fetchall()
print(small.execute("select 3").fetchone())
nocache = sqlite3.connect(":memory:", cached_statements=0)
print(nocache.execute("select 4").fetchone(), nocache.execute("select 4").fetchone())
cur = con.cursor()
for row in cur.execute("select x from s where x < 2"):
    print("iter", row)
print(cur.fetchone(), list(cur))
print(isinstance(con.execute("select 1").fetchone(), tuple))
con.row_factory = sqlite3.Row
r = con.execute("select 1 as a").fetchone()
print(isinstance(r, collections.abc.Sequence), r.keys(), dict(zip(r.keys(), r)))
con.row_factory = None

print("== RETURNING and rowcount")
print(con.execute("insert into s values (10) returning x * 2").fetchall())
cur = con.execute("update s set x = x + 1 where x >= 3")
print(cur.rowcount, cur.description)
cur = con.executemany("update s set x = x where x = ?", [(1,), (2,), (99,)])
print(cur.rowcount)
print(con.execute("select 1").rowcount)
show_error("executemany not iterable", con.executemany, "insert into s values (?)", 5)
show_error("executemany bad arg", con.executemany, 5, [])
show_error("executescript bad arg", con.executescript, 5)
show_error("executescript null", con.executescript, "select 1;\0")
show_error("executescript error", con.executescript, "select 1; selec 2;")
show_error("bad surrogate", con.execute, "select ?", ("\ud800",))
show_error("complete_statement type", sqlite3.complete_statement, 5)

print("== blob slices against a bytearray model")
bc = sqlite3.connect(":memory:")
bc.execute("create table t(b)")
bc.execute("insert into t values (?)", (bytes(range(10)),))
with bc.blobopen("t", "b", 1) as blob:
    mismatches = 0
    for start in (None, -12, -3, 0, 2, 9, 12):
        for stop in (None, -12, -2, 0, 5, 12):
            for step in (None, 1, 2, 3):
                s = slice(start, stop, step)
                if not range(*s.indices(10)):
                    continue  # CPython 3.13 mishandles empty stepped slices
                model = bytearray(range(10))
                mismatches += blob[s] != bytes(model[s])
                data = bytes(200 + i for i in range(len(range(*s.indices(10)))))
                blob[s] = data
                model[s] = data
                mismatches += blob[:] != bytes(model)
                blob[:] = bytes(range(10))
    print("mismatches", mismatches)
    show_error("step zero", blob.__getitem__, slice(None, None, 0))
    show_error("byte type", blob.__setitem__, 0, "x")
    show_error("slice type", blob.__setitem__, slice(0, 2), "xy")
    blob.seek(4)
    print(blob[-1], len(blob), blob.tell(), blob.read(2), blob.tell())

print("== iterdump filter")
dump = sqlite3.connect(":memory:")
dump.executescript("create table a(x); create table b(y); insert into a values (1);"
                   " insert into b values ('q');")
for line in dump.iterdump(filter="b"):
    print(line)

print("== threads")
th = sqlite3.connect(":memory:")
th.execute("create table t(b blob)")
th.execute("insert into t values (zeroblob(4))")
blob = th.blobopen("t", "b", 1)
cur = th.cursor()
results = []


def probe():
    for label, fn in [("execute", lambda: th.execute("select 1")),
                      ("commit", th.commit),
                      ("close", th.close),
                      ("cursor fetch", cur.fetchone),
                      ("blob read", blob.read),
                      ("isolation_level", lambda: th.isolation_level)]:
        try:
            fn()
        except sqlite3.ProgrammingError as e:
            results.append((label, str(e).split(".")[0]))
    try:
        th.interrupt()
        results.append(("interrupt", "allowed"))
    except sqlite3.Error as e:
        results.append(("interrupt", type(e).__name__))


t = threading.Thread(target=probe)
t.start()
t.join()
for item in results:
    print(*item)
blob.close()

print("== closed connection")
th.close()
show_error("blob after close", blob.read)
show_error("cursor after close", cur.fetchone)
show_error("getlimit after close", th.getlimit, 0)
show_error("serialize after close", th.serialize)
show_error("in_transaction after close", lambda: th.in_transaction)
show_error("isolation after close", lambda: th.isolation_level)
show_error("with after close", th.__enter__)
print(th.row_factory, th.text_factory)
print("done")
