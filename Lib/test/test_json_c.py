# Golden test of the _json accelerator: decoding, encoding and their error
# messages through json's public API (which uses _json when present), plus
# a differential check against json.encoder's pure-Python path.
import json
import json.decoder
import json.encoder
import json.scanner
from collections import OrderedDict


def show(label, fn, *args, **kwargs):
    try:
        print(label, repr(fn(*args, **kwargs)))
    except json.JSONDecodeError as exc:
        print(label, "JSONDecodeError", repr(exc.msg), exc.pos, exc.lineno,
              exc.colno, str(exc), exc.doc == args[0] if args else None)
    except Exception as exc:
        print(label, type(exc).__name__, exc)


print("== the C versions are in use")
print(type(json.decoder.scanstring).__name__, json.decoder.scanstring.__module__)
print(json.scanner.make_scanner.__module__, json.scanner.make_scanner.__name__)
print(json.encoder.c_make_encoder.__module__, json.encoder.c_make_encoder.__name__)
print(type(json.encoder.encode_basestring_ascii).__name__,
      json.encoder.encode_basestring_ascii.__module__)
print(type(json.encoder.encode_basestring).__name__)
print(type(json.JSONDecoder().scan_once).__name__)

print("== round trips")
docs = [
    None, True, False, 0, -1, 12345678901234567890123, 1.5, -0.0, 1e300,
    2.5e-310, 0.1, "", "plain", "quote\" back\\ slash/", "\x00\x1f\x7f",
    "tab\tnl\nret\rbs\bff\f", "caf\u00e9 \u4e2d\u6587 \U0001f600",
    [], {}, [[]], [{}], {"a": []}, [1, [2, [3, [4]]]],
    {"k": {"nested": {"deep": [1, 2.5, "x", None, True]}}},
    {"z": 1, "a": 2, "m": [3, {"b": 4}]}, (1, 2, 3), [1e16, 1e-7, 123.456],
]
for doc in docs:
    for ascii_only in (True, False):
        text = json.dumps(doc, ensure_ascii=ascii_only)
        print(text.encode("ascii", "backslashreplace").decode(),
              json.loads(text) == (list(doc) if isinstance(doc, tuple) else doc)
              or doc != doc)

print("== decoding")
samples = [
    '"abc"', ' [1, 2 , 3 ] ', '{"a" : 1 , "b":[true,false,null]}', '-0',
    '-0.0', '1E400', '-1e-400', '1.5e+3', '12E-2', '0.000001', 'NaN',
    'Infinity', '-Infinity', '[NaN, Infinity, -Infinity]',
    '"\\u00e9\\u4e2d"', '"\\ud834\\udd1e"', '"\\udd1e\\ud834"', '"\\ud834x"',
    '"\\ud834\\u0041"', '"\\"\\\\\\/\\b\\f\\n\\r\\t"', '{"a":1,"a":2}',
    '\n\t\r [\n1\n]\n', '123456789012345678901234567890', '[[[[]]]]',
    '{"":""}', '"\u00e9\U0001f600"',
]
for doc in samples:
    show(repr(doc), json.loads, doc)

print("== decode errors")
bad = [
    '', ' ', '[', '{', ']', '}', '[1,]', '{"a":1,}', '{"a" 1}', '{1:2}',
    '[1 2]', '{"a":1 "b"}', '{"a"', '{"a":', '{"a":1', '[1', '"abc', '"abc\\',
    '1 2', '-', '-x', '01', '1.', '1e', '1.5e+', 'nul', 'tru', 'fals', 'nan',
    '-inf', '"a\x01b"', '"\t"', '"a\\x"', '"\\u12"', '"\\u12g4"',
    '"\\ud800\\u12"', '[1,\n  x]', '{\n"a":\n\n?}', '[1,,2]', '{"a":1,,}',
    '{,}', '[,]', '[1] [2]', '"x" junk', '\ufeff[]', '[\u00e9]',
]
for doc in bad:
    show(repr(doc), json.loads, doc)
show("bytes-doc", json.loads, b'[1, 2]')
show("non-strict", json.loads, '"a\x01\tb\n"', strict=False)
show("non-strict-list", json.loads, '["a\x00"]', strict=False)

print("== scanstring")
ss = json.decoder.scanstring
show("plain", ss, 'x"abc"', 2)
show("escaped", ss, '"a\\nb"', 1)
show("end-0", ss, 'abc"', 0)
show("neg", ss, '"abc', -1)
show("past", ss, '"abc"', 7)
show("bytes", ss, b'"x"', 1)
show("nonstrict", ss, '"a\x01"', 1, False)
show("strict", ss, '"a\x01"', 1, True)
show("unterminated", ss, '"abc', 1)

print("== scanner")
scan = json.JSONDecoder().scan_once
show("at0", scan, '[1, 2]', 0)
show("mid", scan, 'xx {"a": 1} yy', 3)
show("neg", scan, 'abc', -1)
for doc, idx in [('abc', 5), ('abc', 3), ('abc', 0), ('', 0), (' 1', 0)]:
    try:
        scan(doc, idx)
    except StopIteration as exc:
        print("StopIteration", doc, idx, exc.value)
show("bytes", scan, b'[1]', 0)

print("== hooks")
show("object_hook", json.loads, '{"a": {"b": 1}}',
     object_hook=lambda d: sorted(d.items()))
show("pairs_hook", json.loads, '{"b": 1, "a": 2, "b": 3}',
     object_pairs_hook=lambda p: p)
show("pairs_hook_empty", json.loads, '{}', object_pairs_hook=lambda p: ("P", p))
show("hook_empty", json.loads, '{}', object_hook=lambda d: ("H", d))
show("both_hooks", json.loads, '{"a": 1}', object_hook=lambda d: "hook",
     object_pairs_hook=OrderedDict)
show("parse_float", json.loads, '[1.5, 2, 3e2]', parse_float=lambda s: ("F", s))
show("parse_int", json.loads, '[1.5, 2, -30]', parse_int=lambda s: ("I", s))
show("parse_int_float", json.loads, '[7]', parse_int=float)
show("parse_constant", json.loads, '[NaN, Infinity, -Infinity]',
     parse_constant=lambda s: "C:" + s)
def reject(name):
    raise ValueError("no constants: " + name)
show("parse_constant_raise", json.loads, '[1, NaN]', parse_constant=reject)
show("hook_raise", json.loads, '[{"a": 1}]', object_hook=lambda d: 1 / 0)
doc = json.loads('[{"key": 1}, {"key": 2}]')
print("memo shares keys", doc[0].keys() == doc[1].keys(),
      next(iter(doc[0])) is next(iter(doc[1])))

print("== encoding options")
value = {"b": [1, 2.5, None], "a": {"y": True, "x": "s\u00e9"}, "c": []}
show("default", json.dumps, value)
show("sorted", json.dumps, value, sort_keys=True)
show("indent2", json.dumps, value, indent=2)
show("indent-str", json.dumps, value, indent="\t", sort_keys=True)
show("indent0", json.dumps, value, indent=0)
show("indent-empty", json.dumps, [[], {}, [{}]], indent=3)
show("separators", json.dumps, value, separators=(",", ":"))
show("separators-indent", json.dumps, value, indent=1, separators=(" ,", " : "))
show("no-ascii", json.dumps, value, ensure_ascii=False)
show("tuple", json.dumps, (1, (2, 3)), indent=1)
show("nan", json.dumps, [float("nan"), float("inf"), -float("inf")])
show("nan-strict", json.dumps, [float("nan")], allow_nan=False)
show("inf-strict", json.dumps, {"x": float("inf")}, allow_nan=False)
show("ninf-strict", json.dumps, -float("inf"), allow_nan=False)
show("key-nan-strict", json.dumps, {float("nan"): 1}, allow_nan=False)
show("keys", json.dumps, {1: "i", 2.5: "f", True: "t", False: "f", None: "n",
                          "s": "s", -7: "neg", 1e100: "big"})
show("key-tuple", json.dumps, {(1, 2): 3})
show("key-tuple-nested", json.dumps, [{"ok": {(1, 2): 3}}])
show("skipkeys", json.dumps, {(1, 2): 3, "a": 4, b"b": 5}, skipkeys=True)
show("skipkeys-all", json.dumps, {(1, 2): 3}, skipkeys=True)
show("sort-mixed", json.dumps, {1: 2, "a": 3}, sort_keys=True)
show("sort-ints", json.dumps, {3: 1, 1: 2, 2: 3}, sort_keys=True)
show("unserializable", json.dumps, [1, {"a": [object]}])
show("set", json.dumps, {1, 2})
show("bytes", json.dumps, b"x")
show("default-fn", json.dumps, [1, {2, 1}, 3], default=sorted)
show("default-str", json.dumps, {"when": complex(1, 2)}, default=str)
show("default-indent", json.dumps, {"s": {3}}, default=list, indent=2)
show("surrogate-ascii", json.dumps, "\ud800x\udfff")
print("surrogate-unicode",
      json.dumps("\ud800x").encode("utf-8", "surrogatepass"),
      json.dumps("\ud800x", ensure_ascii=False).encode("utf-8", "surrogatepass"))
show("control-unicode", json.dumps, "\x00\x1f\x7f\u2028", ensure_ascii=False)

print("== circular references")
loop = []
loop.append(loop)
show("list", json.dumps, loop)
d = {}
d["self"] = d
show("dict", json.dumps, d)
class Thing:
    pass
t = Thing()
show("default-loop", json.dumps, t, default=lambda o: [o])
shared = [1]
show("shared-ok", json.dumps, [shared, shared, {"x": shared}])

print("== numbers and subclasses")
class MyInt(int):
    def __repr__(self):
        return "MyInt!"
    __str__ = __repr__
class MyFloat(float):
    def __repr__(self):
        return "MyFloat!"
    __str__ = __repr__
class MyStr(str):
    pass
show("int-sub", json.dumps, [MyInt(5), {MyInt(6): MyInt(7)}])
show("float-sub", json.dumps, [MyFloat(0.5), {MyFloat(1.25): MyFloat(2.0)}])
show("float-sub-nan", json.dumps, MyFloat("nan"), allow_nan=False)
show("str-sub", json.dumps, {MyStr("k"): MyStr("v")})
show("bool", json.dumps, [True, False, {True: False}])
import enum
class Color(enum.IntEnum):
    RED = 1
class Ratio(float, enum.Enum):
    HALF = 0.5
show("intenum", json.dumps, [Color.RED, {Color.RED: Ratio.HALF}])
show("floats", json.dumps, [0.1 + 0.2, 1e22, 1e-5, 5e-324, 1.7976931348623157e308, -2.0])
show("bigint", json.dumps, [2 ** 200, -(2 ** 70)])

print("== dict and list subclasses")
class SortedDict(dict):
    pass
class ItemsDict(dict):
    def items(self):
        return [("only", "this")]
class MyList(list):
    pass
show("dict-sub", json.dumps, SortedDict(b=1, a=2))
show("dict-sub-sorted", json.dumps, SortedDict(b=1, a=2, c=SortedDict(z=0, y=1)),
     sort_keys=True)
show("items-override", json.dumps, ItemsDict(a=1))
show("ordered", json.dumps, OrderedDict([("z", 1), ("a", 2)]))
show("ordered-sorted", json.dumps, OrderedDict([("z", 1), ("a", 2)]),
     sort_keys=True)
show("list-sub", json.dumps, MyList([1, MyList([2])]), indent=1)

print("== encoder object")
E = json.encoder.c_make_encoder
enc = E(None, None, json.encoder.encode_basestring_ascii, None, ":", ",",
        False, False, True)
show("call", enc, [1, {"a": "\u00e9"}], 0)
show("call-str", enc, "x", 0)
show("call-float", enc, 1.5, 0)
indented = E({}, None, json.encoder.encode_basestring, "  ", ": ", ",",
             True, False, True)
show("call-level", indented, [1, {"b": 2, "a": [3]}], 0)
show("bad-markers", E, [], None, json.encoder.encode_basestring, None, ":",
     ",", 0, 0, 1)
show("bad-keysep", E, None, None, json.encoder.encode_basestring, None, 1,
     ",", 0, 0, 1)
show("bad-itemsep", E, None, None, json.encoder.encode_basestring, None,
     ":", 2, 0, 0, 1)
custom = E(None, None, lambda s: "<" + s + ">", None, "=", ";", False, False,
           True)
show("custom-encoder", custom, {"k": ["v", 1]}, 0)
broken = E(None, None, lambda s: 5, None, ":", ",", False, False, True)
show("bad-encoder", broken, ["a"], 0)
print("encode_basestring_ascii",
      json.encoder.encode_basestring_ascii("\"\\\n\x00\x7f\u00e9\U0001f600/"))
print("encode_basestring", ascii(json.encoder.encode_basestring(
    "\"\\\n\x00\x7f\u00e9\U0001f600/")))
show("ebs-bytes", json.encoder.encode_basestring_ascii, b"x")
show("ebs-int", json.encoder.encode_basestring, 1)

print("== C path matches the pure-Python path (including notes)")
def outcome(fn):
    try:
        return ("ok", fn())
    except Exception as exc:
        return (type(exc).__name__, str(exc), getattr(exc, "__notes__", None))
cases = [
    ([1, {"a": [float("nan")]}], dict(allow_nan=False)),
    ([1, {"a": [object()]}], {}),
    ({"x": {(1,): 2}}, {}),
    ([{"k": [1, {2, 3}]}], {}),
    ({"k": complex(1, 1)}, dict(default=lambda o: [o.real, {"im": {o}}])),
    (loop, {}),
    (d, {}),
    ({"deep": [[[{"x": [b"bytes"]}]]]}, dict(indent=2)),
    ({1: [MyInt(3)], 2.5: {None: MyFloat(1.0)}}, dict(sort_keys=True)),
    (value, dict(indent=4, sort_keys=True, separators=(",", ": "))),
]
for obj, opts in cases:
    encoder = json.JSONEncoder(**opts)
    fast = outcome(lambda: encoder.encode(obj))
    slow = outcome(lambda: "".join(encoder.iterencode(obj)))
    print("same" if fast == slow else ("DIFFER", fast, slow), fast[:2])

# 3.14 writes '{}' here where 3.13 wrote '{\n  \n}': only compare paths.
encoder = json.JSONEncoder(skipkeys=True, indent=2)
print("skipkeys+indent agrees with the pure path",
      encoder.encode({(1,): 2}) == "".join(encoder.iterencode({(1,): 2})))

print("== big documents")
big = [{"id": i, "name": "item%d" % i, "tags": ["t%d" % (i % 7)] * 3,
        "score": i * 0.25, "ok": i % 2 == 0, "none": None} for i in range(20000)]
text = json.dumps(big)
print(len(text), json.loads(text) == big)
text = json.dumps(big, indent=2, sort_keys=True, ensure_ascii=False)
print(len(text), json.loads(text) == big)
long_str = "x\u00e9\"\\" * 100000
print(len(json.dumps(long_str)), json.loads(json.dumps(long_str)) == long_str)

print("== deep nesting")
for doc in ["[" * 200000, "[" * 200000 + "]" * 200000, '{"a":' * 200000]:
    try:
        json.loads(doc)
        print("no error")
    except RecursionError as exc:
        print("RecursionError")
nested = []
for _ in range(200000):
    nested = [nested]
try:
    json.dumps(nested)
    print("no error")
except RecursionError:
    print("RecursionError")
nested = {}
for _ in range(200000):
    nested = {"k": nested}
try:
    json.dumps(nested)
    print("no error")
except RecursionError:
    print("RecursionError")
ok_depth = json.loads("[" * 500 + "]" * 500)
print("depth 500 ok", json.dumps(ok_depth).count("["))
