# str's character classes and case mappings (Objects/unicodectype.c), whose
# tables come from the same Unicode 16.0 data as unicodedata.
#
# Summaries run over every code point that Unicode 15.1 already assigned
# (the ages come from DerivedAge in build/ucd), so CPython 3.13 produces the
# same output; what 16.0 added or changed is checked against values from
# the 16.0 data files at the end.
import json
import os

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "ucd",
                    "DerivedAge.json")
with open(path, encoding="utf-8") as f:
    ages = json.load(f)["DerivedAge"]
added_in_16 = set()
for entry in ages:
    if entry["unicodeVersion"] == "16.0":
        first = int(entry["range"][0], 16)
        last = int(entry["range"][-1], 16)
        added_in_16.update(range(first, last + 1))
# Older characters whose case mapping 16.0 changed (their new partners are
# 16.0 additions).
changed_in_16 = {0x019B, 0x0264}
print("added in 16.0:", len(added_in_16))

PREDICATES = ["isalpha", "isdecimal", "isdigit", "isnumeric", "islower", "isupper",
              "istitle", "isspace", "isprintable", "isidentifier", "isalnum"]
counts = dict.fromkeys(PREDICATES, 0)
continue_count = 0
mapping_sums = {"lower": 0, "upper": 0, "title": 0, "casefold": 0, "swapcase": 0}
changed_by = dict.fromkeys(mapping_sums, 0)
# Planes 4 to 13 are unassigned and 15 to 16 private use: the rest covers
# every assigned character.
SPAN = list(range(0x32400)) + list(range(0xE0000, 0xE0200)) + [0xF0000, 0x10FFFD]
for cp in SPAN:
    if cp in added_in_16 or cp in changed_in_16:
        continue
    ch = chr(cp)
    for name in PREDICATES:
        if getattr(ch, name)():
            counts[name] += 1
    if ("a" + ch).isidentifier():
        continue_count += 1
    for name in mapping_sums:
        mapped = getattr(ch, name)()
        if mapped != ch:
            changed_by[name] += 1
            mapping_sums[name] += sum(map(ord, mapped)) * len(mapped)
for name in PREDICATES:
    print(name, counts[name])
print("identifier continue", continue_count)
for name in mapping_sums:
    print(name, changed_by[name], mapping_sums[name])

# Digit values and the mappings that are longer than one character.
print(int("\u0663\u0664"), int("\uff11\uff10"), float("\u0661.\u0665"), int("\U0001d7ce\U0001d7cf"))
for s in ["\u00df", "\ufb03", "\u0130", "\u0149", "\u01c5", "\u1e9e", "\u0390", "\u1f80", "\u13a0",
          "\uab70", "\u00b5", "\u017f", "\u03c2", "\u2126", "\u0345"]:
    print("%04X" % ord(s), [ascii(getattr(s, m)()) for m in ("lower", "upper", "title", "casefold")])
print(ascii("\u0391\u03a3".lower()), ascii("\u0391\u03a3 x".lower()), ascii("\u03a3".lower()),
      ascii("\u0391\u0345\u03a3".lower()), ascii("\u0391'\u03a3'".lower()))
print("\u01c4\u01c5\u01c6 dz".title(), "hello world".title(), "\u1f88".istitle(), "\u1f80".islower())
print("\u00aa".islower(), "\u02b0".islower(), "\u2160".isupper(), "\u24b6".isupper(), "\u0345".islower())
print("\u1680".isspace(), "\u180e".isspace(), "\u200b".isspace(), "\x1c".isspace(), "\x85".isspace())
print("\u00ad".isprintable(), "\u0378".isprintable(), " ".isprintable(), "\u3000".isprintable())
print("\u2118".isidentifier(), "\u212e".isidentifier(), "\u309b".isidentifier(), "a\u00b7".isidentifier(),
      "\u1885".isidentifier(), "x\u0387".isidentifier())


def expect(label, got, want):
    print(label, "ok" if got == want else "got %r, want %r" % (got, want))


# ---- Unicode 16.0 (values from UnicodeData.txt and DerivedCoreProperties.txt) ----
expect("1C89 lower", "\u1c89".lower(), "\u1c8a")
expect("1C8A upper/title", ("\u1c8a".upper(), "\u1c8a".title()), ("\u1c89", "\u1c89"))
expect("1C89 classes", ("\u1c89".isupper(), "\u1c89".isalpha(), "\u1c89".isidentifier()), (True, True, True))
expect("019B upper", "\u019b".upper(), "\ua7dc")
expect("A7DC lower", "\ua7dc".lower(), "\u019b")
expect("0264 upper", "\u0264".upper(), "\ua7cb")
expect("1E5F1 digit", ("\U0001e5f1".isdecimal(), int("\U0001e5f1\U0001e5f2")), (True, 1))
expect("10D50 lower", "\U00010d50".lower(), "\U00010d70")
expect("0897 continue", ("a\u0897".isidentifier(), "\u0897".isidentifier()), (True, False))
expect("1CC00 printable", "\U0001cc00".isprintable(), True)
expect("added decimals", sum(chr(c).isdecimal() for c in added_in_16), 80)
