# unicodedata: properties, names, normalization, the 3.2 view, \N{...}
# escapes and NFKC identifiers.
#
# The expected output comes from CPython 3.13 (Unicode 15.1) for everything
# that Unicode 16.0 left unchanged.  What 16.0 added or changed is checked
# against values copied from the 16.0 data files (UnicodeData.txt,
# EastAsianWidth.txt, NormalizationTest.txt) and prints "ok" when it matches.
import os
import unicodedata
import unicodedata as ud

print(ud.unidata_version if ud.unidata_version == "16.0.0" else "version mismatch")
print(type(ud.ucd_3_2_0).__name__, ud.ucd_3_2_0.unidata_version, ud.UCD is type(ud.ucd_3_2_0))


def show(label, func):
    try:
        print(label, ascii(func()))
    except Exception as e:
        print(label, type(e).__name__, e)


# ---- Properties of characters Unicode 16.0 left alone ----------------------------
SAMPLES = "aZ0\u00bd\u00c0\u00e9\u0301\u0327\u05d0\u0627\u0663\u00b2\u2155\u2160" \
          "\u3000\u4e00\uac00\uac01\ud7a3\uf900\ufb01\ufe0f\u200d\u00a0\u2028" \
          "(\u2044\U0001f600\U00020000\U0001d400\u0e33\u1e0a\U0010ffff\x00\x85\ue000\u0378" \
          "\U00012432\u3405\U0001f10c\u0f33\u00b5\u212b\u1100\u11a8"
for ch in SAMPLES:
    print("%04X" % ord(ch), ud.category(ch), repr(ud.bidirectional(ch)), ud.combining(ch),
          ud.east_asian_width(ch), ud.mirrored(ch), repr(ud.decomposition(ch)),
          ud.decimal(ch, None), ud.digit(ch, None), ud.numeric(ch, None), ud.name(ch, None))

# Whole-database sums over the Latin, Greek and Cyrillic blocks, unchanged
# in 16.0.
total = 0
for cp in range(0x0000, 0x0530):
    ch = chr(cp)
    total += ud.combining(ch) + ud.mirrored(ch) + len(ud.decomposition(ch))
    total += len(ud.name(ch, "")) + len(ud.category(ch)) + len(ud.bidirectional(ch))
print("latin-greek-cyrillic checksum", total)

# ---- Defaults and errors --------------------------------------------------------
print(ud.decimal("a", "none"), ud.digit("a", -1), ud.numeric("a", 0.5), ud.name("\x00", "nameless"))
show("decimal", lambda: ud.decimal("a"))
show("digit", lambda: ud.digit("\u00bd"))
show("numeric", lambda: ud.numeric("a"))
show("name", lambda: ud.name("\x00"))
show("name unassigned", lambda: ud.name("\u0378"))
show("category str2", lambda: ud.category("ab"))
show("category empty", lambda: ud.category(""))
show("category int", lambda: ud.category(65))
show("bidirectional bytes", lambda: ud.bidirectional(b"a"))
show("combining", lambda: ud.combining(None))
show("east_asian_width", lambda: ud.east_asian_width("xy"))
show("mirrored", lambda: ud.mirrored(1.0))
show("decomposition", lambda: ud.decomposition("ab"))
show("decimal str2", lambda: ud.decimal("12"))
show("digit int", lambda: ud.digit(1, 2))
show("numeric none", lambda: ud.numeric())
show("numeric three", lambda: ud.numeric("1", 2, 3))
show("name list", lambda: ud.name([]))
show("normalize form", lambda: ud.normalize("NFX", "a"))
show("normalize lower", lambda: ud.normalize("nfc", "a"))
show("normalize bytes", lambda: ud.normalize("NFC", b"a"))
show("normalize int form", lambda: ud.normalize(1, "a"))
show("normalize one arg", lambda: ud.normalize("NFC"))
show("is_normalized form", lambda: ud.is_normalized("NFZ", "a"))
show("is_normalized int", lambda: ud.is_normalized("NFC", 3))
show("lookup unknown", lambda: ud.lookup("NO SUCH CHARACTER"))
show("lookup long", lambda: ud.lookup("A" * 257))
show("lookup 256", lambda: ud.lookup("A" * 256))
show("lookup int", lambda: ud.lookup(5))
show("lookup space", lambda: ud.lookup("LATIN SMALL LETTER A "))
show("UCD()", lambda: ud.UCD())

# ---- Names ------------------------------------------------------------------------
for name in ["LATIN SMALL LETTER A", "latin small letter a", "Latin Capital Letter A With Grave",
             "GRINNING FACE", "HANGUL SYLLABLE GAG", "HANGUL SYLLABLE GA", "hangul syllable ga",
             "HANGUL SYLLABLE HIH", "CJK UNIFIED IDEOGRAPH-4E00", "CJK UNIFIED IDEOGRAPH-4e00",
             "cjk unified ideograph-4e00", "CJK UNIFIED IDEOGRAPH-20000",
             "CJK UNIFIED IDEOGRAPH-0041", "CJK COMPATIBILITY IDEOGRAPH-F900",
             "nushu character-1b170", "KHITAN SMALL SCRIPT CHARACTER-18B00",
             "NUL", "NULL", "BYTE ORDER MARK", "LATIN CAPITAL LETTER GHA", "vs256", "ZWJ",
             "KEYCAP DIGIT ONE", "keycap number sign", "LATIN SMALL LETTER R WITH TILDE",
             "TIBETAN LETTER -A", "TANGUT IDEOGRAPH-17000", b"LATIN SMALL LETTER B"]:
    show("lookup %r" % (name,), lambda: ud.lookup(name))
for ch in "\uac00\ud7a3\uc544\u4e00\u9fff\U0002a6df\U00017000\U00018b00\U0001b170\uf900\u0f71\u0f60":
    show("name %04X" % ord(ch), lambda: ud.name(ch))

# Every name must lead back to its character (over all the code points
# that Unicode 15.1 already named, so that the count is stable).
named = mismatched = 0
for cp in range(0x110000):
    ch = chr(cp)
    n = ud.name(ch, None)
    if n is None:
        continue
    by_formula = n.startswith(("HANGUL SYLLABLE", "CJK UNIFIED"))
    if ud.lookup(n) != ch or (not by_formula and ud.lookup(n.lower()) != ch):
        mismatched += 1
    named += 1
print("names round-trip, mismatches:", mismatched)

# ---- Normalization ----------------------------------------------------------------
CASES = ["", "abc", "a\u0301", "\u00e1", "\u1e0a\u0323", "\u1e0c\u0307", "\u212b", "\ufb01",
         "\u00bd", "\uac00", "\u1100\u1161", "\u1100\u1161\u11a8", "\uac00\u11a8", "\u1100\u1100\u1161",
         "\u0958", "\u2126", "\u0344", "e\u0304\u0301", "a\u0328\u0301\u0323", "\u0041\u030a\u0327",
         "\u00c5\u0327", "\u1e9b\u0323", "\u3300", "\u2460", "\U0001d400", "\u0f73", "\u0f77",
         "\u0b47\u0b3e", "\u0b47\u0300\u0b3e", "\u05b8\u05b9\u05b1\u0591\u05c3\u05b0\u05ac\u059f",
         "\u0300a", "\u0301\u0300", "x\u0316\u0301\u0300\u0317", "\uff76\uff9e", "\u30ab\u3099",
         "\u1100\uac00\u11a8", "Henry \u2163", "\u00a8\u0301"]
for s in CASES:
    print(ascii(s), [ascii(ud.normalize(f, s)) for f in ("NFC", "NFD", "NFKC", "NFKD")],
          [ud.is_normalized(f, s) for f in ("NFC", "NFD", "NFKC", "NFKD")])
s = "plain ascii"
print(ud.normalize("NFC", s) is s, ud.normalize("NFKD", "caf\u00e9") == "cafe\u0301")


class Sub(str):
    pass


print(type(ud.normalize("NFD", Sub("\u00e9"))).__name__, ud.normalize("NFD", Sub("\u00e9")) == "e\u0301")

# The standard's own test vectors (NormalizationTest.txt, as written by
# the generator into build/gen): the five invariants of its header.
def hexes(field):
    return "".join(chr(int(h, 16)) for h in field.split())


path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "gen",
                    "NormalizationTest.txt")
cases = failures = 0
part1 = set()
part = None
with open(path, encoding="ascii") as f:
    for line in f:
        line = line.rstrip("\n")
        if line.startswith("@"):
            part = line
            continue
        c1, c2, c3, c4, c5 = (hexes(x) for x in line.split(";"))
        if part == "@Part1":
            part1.add(c1)
        nfc = ud.normalize
        ok = (c2 == nfc("NFC", c1) == nfc("NFC", c2) == nfc("NFC", c3)
              and c4 == nfc("NFC", c4) == nfc("NFC", c5)
              and c3 == nfc("NFD", c1) == nfc("NFD", c2) == nfc("NFD", c3)
              and c5 == nfc("NFD", c4) == nfc("NFD", c5)
              and c4 == nfc("NFKC", c1) == nfc("NFKC", c2) == nfc("NFKC", c3) == nfc("NFKC", c4) == nfc("NFKC", c5)
              and c5 == nfc("NFKD", c1) == nfc("NFKD", c2) == nfc("NFKD", c3) == nfc("NFKD", c4) == nfc("NFKD", c5)
              and ud.is_normalized("NFC", c2) and ud.is_normalized("NFD", c3)
              and ud.is_normalized("NFKC", c4) and ud.is_normalized("NFKD", c5))
        cases += 1
        if not ok:
            failures += 1
            if failures <= 5:
                print("FAIL", line)
print("NormalizationTest: %d cases (%d single characters in part 1), %d failures" % (
    cases, len(part1), failures))
# Part 1's rule for the rest: every other character is its own normal form
# (checked over the BMP, where the table-driven paths differ most).
unchanged = 0
for cp in range(0x10000):
    ch = chr(cp)
    if ch in part1 or 0xD800 <= cp < 0xE000:
        continue
    if (ud.normalize("NFC", ch) == ch and ud.normalize("NFD", ch) == ch
            and ud.normalize("NFKC", ch) == ch and ud.normalize("NFKD", ch) == ch):
        unchanged += 1
print("BMP characters outside part 1 left unchanged:", unchanged == 0x10000 - 0x800 - len([c for c in part1 if ord(c) < 0x10000]))

# ---- The Unicode 3.2 view -----------------------------------------------------------
old = ud.ucd_3_2_0
for ch in "a\u00e9\u0221\u20ac\u0301\U0001f600\u2c00\u4e00\u9fa5\u9fa6\uac00\u00bd\u0e33":
    print("3.2 %04X" % ord(ch), old.category(ch), repr(old.bidirectional(ch)), old.combining(ch),
          old.mirrored(ch), repr(old.decomposition(ch)), old.numeric(ch, None), old.name(ch, None))
print(ascii(old.normalize("NFC", "a\u0301")), ascii(old.normalize("NFKD", "\u00bd")),
      old.is_normalized("NFD", "\u00e9"))
show("3.2 lookup alias", lambda: old.lookup("NUL"))
show("3.2 lookup sequence", lambda: old.lookup("KEYCAP DIGIT ONE"))
show("3.2 lookup", lambda: old.lookup("LATIN SMALL LETTER A"))
show("3.2 name", lambda: old.name("\U0001f600"))
show("3.2 decimal", lambda: old.decimal("\u0661"))
show("3.2 category arg", lambda: old.category("ab"))
import stringprep
print(stringprep.in_table_a1("\u0221"), stringprep.in_table_a1("a"), stringprep.in_table_b1("\u00ad"),
      ascii(stringprep.map_table_b2("\u00df")))
print("b\u00fccher.example".encode("idna"), b"xn--bcher-kva.example".decode("idna"))

# ---- \N{...} escapes ----------------------------------------------------------------
print(ascii("\N{LATIN SMALL LETTER A}\N{latin small letter b}\N{NUL}\N{EM DASH}\N{GRINNING FACE}"))
print(ascii("\N{HANGUL SYLLABLE GAG}\N{CJK UNIFIED IDEOGRAPH-4E00}\N{BYTE ORDER MARK}"))
print(ascii(f"{1}\N{BULLET}{2}"), ascii(r"\N{BULLET}"), ascii(b"\\N{BULLET}"))
for src in ['"\\N{NULL}\\N{foo}"', '"\\N{KEYCAP DIGIT ONE}"', '"\\N{}"', '"\\N{BULLET"',
            '"\\Nx"', '"\\N"', '"\\N{}x"', '"ab\\N{abcd"', '"ab\\N{latin small letter x}\\N{NO SUCH}"']:
    try:
        print(ascii(eval(src)))
    except SyntaxError as e:
        print("SyntaxError", e.msg)
print(ascii(b"\\N{LATIN SMALL LETTER A}\\N{nul}z".decode("unicode_escape")))
for data in [b"ab\\N{xx}cd", b"\\N{KEYCAP DIGIT ONE}", b"\\N{", b"\\N{bullet", b"\\N", b"\\Nx",
             b"\\N{}x", b"\\N{a\\N{b}"]:
    try:
        print(ascii(data.decode("unicode_escape")))
    except UnicodeDecodeError as e:
        print("UnicodeDecodeError", e.start, e.end, e.reason)
print(ascii(b"ab\\N{xx}cd".decode("unicode_escape", "replace")),
      ascii(b"ab\\N{xx".decode("unicode_escape", "replace")),
      ascii(b"\\N{}x".decode("unicode_escape", "backslashreplace")),
      ascii(b"ab\\N{xx}cd".decode("unicode_escape", "ignore")))
print(ascii(b"\\N{BULLET}".decode("raw_unicode_escape")))

# ---- PEP 3131: identifiers are NFKC-normalized ----------------------------------------
ﬁ = 1
print(fi)
exec("ℌ = 2\nprint(H)")
ns = {}
exec("def ｆ(ａ):\n    return ａ + 1\n", ns)
print(sorted(k for k in ns if k != "__builtins__"), ns["f"](1), ns["f"].__code__.co_varnames)


class K:
    ℯ = 3


print(K.e, hasattr(K, "ℯ"))

# ---- What Unicode 16.0 added or changed (values from the 16.0 data) ---------------------
def expect(label, got, want):
    print(label, "ok" if got == want else "got %r, want %r" % (got, want))


expect("0897 props", (ud.name("\u0897"), ud.category("\u0897"), ud.combining("\u0897"), ud.bidirectional("\u0897")),
       ("ARABIC PEPET", "Mn", 230, "NSM"))
expect("1C89 name", ud.name("\u1c89"), "CYRILLIC CAPITAL LETTER TJE")
expect("10D4A props", (ud.name("\U00010d4a"), ud.bidirectional("\U00010d4a")), ("GARAY VOWEL SIGN A", "R"))
expect("1E5F1 digits", (ud.decimal("\U0001e5f1"), ud.digit("\U0001e5f1"), ud.numeric("\U0001e5f1")), (0, 0, 0.0))
expect("13460 name", ud.name("\U00013460"), "EGYPTIAN HIEROGLYPH-13460")
expect("13460 lookup", ud.lookup("egyptian hieroglyph-13460"), "\U00013460")
expect("1CC00 name", ud.lookup("UP-POINTING GO-KART"), "\U0001cc00")
expect("1171E category", ud.category("\U0001171e"), "Mc")
expect("2630 width", ud.east_asian_width("\u2630"), "W")
expect("226D mirrored", ud.mirrored("\u226d"), 1)
expect("\\N 1F8B0", "\N{ARROW POINTING UPWARDS THEN NORTH WEST}", "\U0001f8b0")
expect("3.2 hides 0897", (old.category("\u0897"), old.name("\u0897", None)), ("Cn", None))
expect("names count", named, 40013 + 97668 + 11172)
