# Golden test for _csv through the csv module: reading, writing, dialects,
# the registry, field_size_limit and the error messages.
import csv
import io

E = "\\"


def rd(lines, **kw):
    try:
        return list(csv.reader(lines, **kw))
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)


def wr(rows, **kw):
    s = io.StringIO()
    try:
        w = csv.writer(s, **kw)
        for r in rows:
            w.writerow(r)
    except Exception as e:
        return "%s: %s (so far %r)" % (type(e).__name__, e, s.getvalue())
    return s.getvalue()


print("names", csv.__version__, csv.QUOTE_MINIMAL, csv.QUOTE_ALL,
      csv.QUOTE_NONNUMERIC, csv.QUOTE_NONE, csv.QUOTE_STRINGS,
      csv.QUOTE_NOTNULL, issubclass(csv.Error, Exception))

# --- reading ---
print(rd(["a,b,c\r\n", "1,2,3\n", "x,y\r", "\n", "", "last"]))
print(rd(['"a,b","c""d",e\n']))
print(rd(['"multi\n', 'line",x\n', 'y\n']))
print(rd(['"no', 'newline"']))
print(rd(['a;b;"c;d"'], delimiter=";"))
print(rd(["'a''b',c"], quotechar="'"))
print(rd(['a, b,  "c", d'], skipinitialspace=True))
print(rd(['a, b,  "c", d']))
print(rd(['a' + E + ',b,c' + E + E], escapechar=E))
print(rd(['"a' + E + '"b",c'], escapechar=E, doublequote=False))
print(rd(['a' + E, 'b'], escapechar=E))
print(rd(['"a"b,c']))
print(rd(['"a"b,c'], strict=True))
print(rd(['"abc'], strict=True))
print(rd(['"abc']))
print(rd(['a"b"c,"d"'], quoting=csv.QUOTE_NONE))
print(rd(['1,"2",3.5,,x'], quoting=csv.QUOTE_NONNUMERIC))
print(rd(['1,2,"",,"x"'], quoting=csv.QUOTE_STRINGS))
print(rd(['1,2,"",,"x"'], quoting=csv.QUOTE_NOTNULL))
print(rd(["a\rb"]))
print(rd(["a\nb"]))
print(rd([b"a,b"]))
print(rd(["a\tb\tc"], dialect="excel-tab"))
print(rd(['"a"   ,b']))
print(rd(["\u00e9,\u4e2d,\U0001f600"]))

r = csv.reader(['a\n', '"b\n', 'c"\n', 'd\n'])
for row in r:
    print("line_num", r.line_num, row)
print(type(r.dialect).__name__, r.dialect.delimiter, r.dialect.quoting)

# --- field size limit ---
old = csv.field_size_limit()
print("limit", old, csv.field_size_limit(5), csv.field_size_limit())
print(rd(["12345,1"]))
print(rd(["123456,1"]))
print(rd(['"abcdef"']))
print(csv.field_size_limit(old))
try:
    csv.field_size_limit("x")
except TypeError as e:
    print("TypeError", e)

# --- writing ---
row = [1, 1.5, " a", "", None, 'x"y', "a,b", True, "c" + E + "d", "n\nl"]
for q in range(6):
    print("quoting", q, repr(wr([row], quoting=q, escapechar=E)))
print(repr(wr([row[:-1]], quoting=csv.QUOTE_NONE)))
print(repr(wr([['x"y']], doublequote=False)))
print(repr(wr([['x"y']], doublequote=False, escapechar=E)))
print(repr(wr([[""], [None], [], ["", ""]])))
print(repr(wr([[""]], quoting=csv.QUOTE_NONE)))
print(repr(wr([["a", "b"]], lineterminator="\n", delimiter="|")))
print(repr(wr([["a!b", "c"]], lineterminator="!")))
print(repr(wr([["q'q", "z"]], quotechar="'")))
print(repr(wr([[1, 2]], quotechar=None)))
print(repr(wr([["a,b"]], quotechar=None)))
print(repr(wr([5])))
print(repr(wr([iter(["g", "h"])])))
s = io.StringIO()
w = csv.writer(s)
print("writerow returns", w.writerow(["ab", "c"]))
print("writerows returns", w.writerows([[1], [2, 3]]), repr(s.getvalue()))
print(w.dialect.lineterminator == "\r\n")

# --- round trip ---
data = [["a", 'b"c', "d,e", "f\ng", "", " h "], ["1", "2"]]
s = io.StringIO()
csv.writer(s).writerows(data)
print(list(csv.reader(io.StringIO(s.getvalue()))) == data)

# --- dialects ---
class Semi(csv.Dialect):
    delimiter = ";"
    quotechar = "'"
    doublequote = True
    skipinitialspace = False
    lineterminator = "\n"
    quoting = csv.QUOTE_MINIMAL

print(repr(wr([["a;b", "c'd"]], dialect=Semi)))
print(rd(["'a;b';c"], dialect=Semi))
print(repr(wr([["a;b", "c"]], dialect=Semi, delimiter=",")))

csv.register_dialect("pipes", delimiter="|", quoting=csv.QUOTE_ALL)
print(sorted(csv.list_dialects()))
d = csv.get_dialect("pipes")
print(d.delimiter, d.quotechar, d.escapechar, d.doublequote,
      d.skipinitialspace, d.strict, d.quoting, repr(d.lineterminator))
print(repr(wr([["a", 1]], dialect="pipes")))
print(rd(['"a"|"b"'], dialect="pipes"))
csv.register_dialect("semi", Semi)
print(csv.get_dialect("semi").delimiter)
csv.unregister_dialect("pipes")
csv.unregister_dialect("semi")
print(sorted(csv.list_dialects()))
for call in (lambda: csv.get_dialect("pipes"),
             lambda: csv.unregister_dialect("pipes"),
             lambda: csv.reader([], "nosuch"),
             lambda: csv.register_dialect(1)):
    try:
        call()
    except Exception as e:
        print(type(e).__name__, e)
try:
    d.delimiter = ";"
except AttributeError:
    print("read-only attribute")

cases = [dict(delimiter="ab"), dict(delimiter=None), dict(delimiter=1),
         dict(quotechar="ab"), dict(quotechar=None), dict(quoting=9),
         dict(quoting="x"), dict(lineterminator=None),
         dict(lineterminator=5), dict(escapechar="ab"),
         dict(delimiter="\n"), dict(delimiter='"'), dict(escapechar='"'),
         dict(quotechar=None, quoting=csv.QUOTE_NONE),
         dict(quotechar=None, quoting=csv.QUOTE_ALL),
         dict(delimiter="\t", escapechar="\t"), dict(quotechar="\r"),
         dict(bogus=1), dict(strict=None), dict(escapechar=None)]
for kw in cases:
    try:
        d = csv.reader([], **kw).dialect
        print(kw, "ok", repr(d.quotechar), d.quoting, d.strict)
    except Exception as e:
        print(kw, type(e).__name__, e)
print(csv.Dialect.__name__, csv.excel().delimiter)

# --- DictReader / DictWriter / Sniffer ---
src = "name,age\r\nann,3\r\nbob,\r\ncy,5,extra\r\n"
for rec in csv.DictReader(io.StringIO(src)):
    print(rec)
s = io.StringIO()
dw = csv.DictWriter(s, ["x", "y"], lineterminator="\n")
dw.writeheader()
dw.writerows([{"x": 1, "y": "a,b"}, {"x": None}])
print(repr(s.getvalue()))
try:
    dw.writerow({"z": 1})
except ValueError as e:
    print("ValueError", e)
sample = "a;b;c\n1;2;3\n4;5;6\n"
sd = csv.Sniffer().sniff(sample)
print("sniffed", repr(sd.delimiter), csv.Sniffer().has_header(sample))
print(rd(io.StringIO(sample), dialect=sd))

# --- more edges ---
def t(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)

t(lambda: csv.writer(1))
t(lambda: csv.reader(5))
t(lambda: list(csv.reader(["a;b"], dialect=csv.excel, delimiter=";")))
t(lambda: list(csv.reader(["a;b"], csv.excel, delimiter=";")))
t(lambda: list(csv.reader(['"a\r\nb",c\r\n', 'd'])))
t(lambda: list(csv.reader(['a\0b,c'])))
t(lambda: list(csv.reader([' "a,b" ,c'], skipinitialspace=True)))
t(lambda: list(csv.reader(['a,b\n', 'c'], lineterminator='!')))
class Sub(csv._Dialect):
    pass
t(lambda: Sub(delimiter=";").delimiter)
t(lambda: type(Sub()).__name__)
t(lambda: csv._Dialect(csv.excel, quoting=csv.QUOTE_ALL).quoting)
t(lambda: csv._Dialect("excel-tab").delimiter)
base = csv._Dialect()
t(lambda: csv._Dialect(base) is base)
t(lambda: csv.writer(io.StringIO()).writerows(5))
class BadStr:
    def __str__(self):
        raise RuntimeError("nope")
t(lambda: csv.writer(io.StringIO()).writerow([BadStr()]))
t(lambda: wr([['a"b', "c,d"]], quoting=csv.QUOTE_NONE, quotechar=None,
             escapechar=E))
t(lambda: wr([['a"b', "c" + E + "d"]], quoting=csv.QUOTE_NONE, escapechar=E))
r = csv.reader(["a"])
next(r)
t(lambda: next(r))
t(lambda: r.line_num)
t(lambda: csv.field_size_limit(1, 2))
t(lambda: csv.get_dialect(5))
t(lambda: list(csv.reader(['a,"b"c"d",e'])))
t(lambda: list(csv.reader(['"a""'])))
t(lambda: list(csv.reader(['"a"""'])))
t(lambda: list(csv.reader(['a,'])))
t(lambda: list(csv.reader([','])))
t(lambda: list(csv.reader(['\r\n', 'a\r\n'])))
t(lambda: csv._Dialect(delimiter=";", skipinitialspace=1).skipinitialspace)
def failing_rows():
    yield "ok"
    raise TypeError("from the generator")
t(lambda: wr([failing_rows()]))
