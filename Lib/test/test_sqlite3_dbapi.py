# Golden test of DB-API details of sqlite3: lastrowid and rowcount after each
# kind of statement, numbered and mapping placeholders, text factories,
# fetchmany sizes and the connection as a context manager on errors.

import sqlite3
c = sqlite3.connect(":memory:")
cur = c.cursor()
cur.execute("create table t(a integer primary key, b)")
cur.execute("insert into t(b) values (1)")
print(cur.lastrowid, cur.rowcount)
cur.executemany("insert into t(b) values (?)", [(2,), (3,)])
print(cur.lastrowid, cur.rowcount)
cur.execute("select * from t")
print(cur.lastrowid, cur.rowcount, cur.description)
cur.executescript("insert into t(b) values (9);")
print(cur.lastrowid, cur.rowcount, cur.description)
print(c.execute("select * from t where a > ?", (100,)).description)
c.text_factory = bytearray
print(c.execute("select 'x'").fetchone())
c.text_factory = str
cur = c.execute("replace into t(a, b) values (1, 'r')")
print(cur.rowcount, cur.lastrowid)
print(c.execute("select count(*) from t").fetchone(), c.total_changes)
cur = c.execute("delete from t")
print(cur.rowcount)
print(c.execute("pragma user_version").fetchall(), c.in_transaction)
c.commit()
class D(dict):
    def __missing__(self, k): return k.upper()
print(c.execute("select :x, :y", D(x=1)).fetchone())
print(c.execute("select ?1, ?2, ?1", (5, 6)).fetchone())
print(c.execute("select :a || :a", {"a": "z"}).fetchone())
print(sqlite3.complete_statement("create trigger x after insert on t begin select 1;"))
cu = c.cursor(); cu.arraysize = 3
print(cu.execute("values (1),(2),(3),(4)").fetchmany(), cu.fetchmany(10), cu.fetchmany())
try:
    c.execute("insert into t values (1, 2), (1, 3)")
except sqlite3.IntegrityError as e:
    print(e.sqlite_errorname, c.in_transaction)
c.rollback()
with c:
    c.execute("insert into t values (50, 1)")
try:
    with c:
        c.execute("insert into t values (50, 1)")
except sqlite3.IntegrityError as e:
    print("ctx", e)
print(c.execute("select * from t").fetchall())
