# sqlite3: a converter may not re-enter its cursor; con(sql) compiles a
# Statement; cursors take weak references.
import sqlite3
import weakref

con = sqlite3.connect(":memory:", detect_types=sqlite3.PARSE_COLNAMES)
cur = con.cursor()
cur.execute("create table t(x)")
cur.executemany("insert into t values (?)", [("a",), ("b",)])

def attempt(name, conv):
    sqlite3.converters["HOOK"] = conv
    try:
        cur.execute('select x as "x [HOOK]", x from t')
        print(name, cur.fetchall())
    except sqlite3.ProgrammingError as e:
        print(name, "ProgrammingError:", e)
    finally:
        del sqlite3.converters["HOOK"]

attempt("plain", lambda b: b.upper())
attempt("close", lambda b: cur.close())
attempt("fetchone", lambda b: cur.fetchone())
attempt("execute", lambda b: cur.execute("select 1"))
attempt("init", lambda b: cur.__init__(con))
# the cursor is usable again afterwards
print(cur.execute("select count(*) from t").fetchone())

# con(sql): a Statement, checked like execute()'s SQL
st = con("select 1")
print(type(st).__name__)
for bad in [42, "select 1; select 2", "\0"]:
    try:
        con(bad)
    except Exception as e:
        print(type(e).__name__, e)
try:
    con("select 1", x=1)
except TypeError as e:
    print("TypeError", e)

r = weakref.ref(cur)
print(r() is cur)
cur.close()
del cur
print(r())
con.close()
try:
    con("select 1")
except sqlite3.ProgrammingError as e:
    print("ProgrammingError", e)
