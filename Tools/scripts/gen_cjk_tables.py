#!/usr/bin/env python3
"""Build the CJK codecs' mapping tables by asking the host Python's codecs.

The tables are data, not code: rather than carrying mapping files, the build
enumerates every byte sequence and every code point of each charset through
the codecs of the Python that runs this script (the build's
PYTHON_FOR_REGEN), and writes compact C arrays for Modules/cjkcodecs/.

    gen_cjk_tables.py OUTDIR

writes OUTDIR/cjk_tables.h (the data, which Modules/cjkcodecs/cjktables.c
includes) and OUTDIR/cjk_tables_decl.h (one extern declaration a table).

Layout of one table (struct cjk_table in Modules/cjkcodecs/cjkcodecs.h):

  need[256]      what a first byte starts: 0 nothing, 1 a one-byte
                 character, 2 or 3 a sequence of that many bytes.
  single[256]    the code point of each one-byte character.
  rows           for each prefix (the bytes of a sequence but its last),
                 the range of last bytes and where their code points start
                 in a shared pool.  A value with CJK_MULTI set indexes
                 `multi`, pairs of code points one sequence decodes to.
  blocks         per 128 code points, the used range and where its values
                 start in a shared pool; a value packs the byte count in its
                 top byte and the bytes below it, 0 meaning unmapped.

The pools (_PyCJK_Pool16, _PyCJK_Pool32) store each distinct run of values
once.  A table whose values all fit is "narrow" and uses the 16-bit pool:
0xFFFF is then "unmapped", and an encoding value is the code itself (one
byte if <= 0xFF, else two).
  combos         code point pairs that encode as one sequence.

GB18030's four-byte sequences are linear ranges (`runs`).  Doc/cjkcodecs.md
says more.
"""

import os
import sys

NONE = 0xFFFFFFFF
BAD_PAIR = 0xFFFFFFFE     # a sequence the codec rejects as a whole (2 bytes)
MULTI = 0x80000000
BLOCK = 128

# (table name, host codec, kind) for the stateless codecs.
BYTE_CODECS = [
    "shift_jis", "cp932", "euc_jp", "shift_jis_2004", "euc_jis_2004",
    "shift_jisx0213", "euc_jisx0213",
    "gb2312", "gbk", "gb18030",
    "big5", "cp950", "big5hkscs",
    "euc_kr", "cp949", "johab",
]


def decode_or_none(data, codec):
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        return None


def encode_or_none(text, codec):
    try:
        return text.encode(codec)
    except UnicodeEncodeError:
        return None


class Table:
    """One charset: its decoding map (bytes -> str) and encoding map."""

    def __init__(self, name):
        self.name = name
        self.need = [0] * 256
        self.single = [NONE] * 256
        self.decode = {}        # bytes of length >= 2 -> str
        self.encode = {}        # code point -> packed value
        self.combos = {}        # (cp1, cp2) -> packed value
        self.runs = []          # (first cp, last cp, first linear index)


def first_byte_needs(codec):
    """How many bytes each first byte asks for, as the host reports it."""
    need = [0] * 256
    single = [NONE] * 256
    for b in range(256):
        text = decode_or_none(bytes([b]), codec)
        if text is not None:
            need[b] = 1
            single[b] = ord(text)
            continue
        try:
            bytes([b]).decode(codec)
        except UnicodeDecodeError as exc:
            if exc.reason.startswith("incomplete"):
                n = 2
                while n < 4:
                    try:
                        (bytes([b]) + b"\xa1" * (n - 1)).decode(codec)
                    except UnicodeDecodeError as exc2:
                        if exc2.reason.startswith("incomplete") and exc2.end == n:
                            n += 1
                            continue
                    break
                need[b] = n
    return need, single


def scan_decoding(table, codec):
    table.need, table.single = first_byte_needs(codec)
    for lead in range(256):
        n = table.need[lead]
        if n == 2:
            for trail in range(256):
                seq = bytes([lead, trail])
                text = decode_or_none(seq, codec)
                if text is not None and len(text) <= 2:
                    table.decode[seq] = text
                elif text is None and error_span(seq, codec) == (0, 2):
                    table.decode[seq] = None      # rejected as a pair
        elif n == 3:
            for mid in range(0xA1, 0xFF):
                for trail in range(0xA1, 0xFF):
                    seq = bytes([lead, mid, trail])
                    text = decode_or_none(seq, codec)
                    if text is not None:
                        table.decode[seq] = text


def error_span(data, codec):
    try:
        data.decode(codec)
    except UnicodeDecodeError as exc:
        return (exc.start, exc.end)
    return None


def pack(data):
    value = 0
    for b in data:
        value = (value << 8) | b
    return (len(data) << 24) | value


def scan_encoding(table, codec, accept=None):
    """Every code point the codec encodes on its own (blocks that encode to
    nothing with errors='ignore' are skipped whole)."""
    step = 256
    for start in range(0, 0x110000, step):
        if 0xD800 <= start < 0xE000:
            continue
        block = "".join(chr(c) for c in range(start, start + step))
        if not block.encode(codec, "ignore"):
            continue
        for cp in range(start, start + step):
            data = encode_or_none(chr(cp), codec)
            if data is None:
                continue
            if accept is not None:
                value = accept(data)
                if value is not None:
                    table.encode[cp] = value
            elif len(data) <= 3:
                table.encode[cp] = pack(data)


def scan_combos(table, codec, accept=None):
    for seq, text in table.decode.items():
        if text is not None and len(text) == 2:
            data = encode_or_none(text, codec)
            if data is None:
                continue
            value = accept(data) if accept else pack(data)
            if value is not None:
                table.combos[(ord(text[0]), ord(text[1]))] = value


def gb18030_linear(seq):
    b1, b2, b3, b4 = seq
    return (((b1 - 0x81) * 10 + (b2 - 0x30)) * 126 + (b3 - 0x81)) * 10 + (b4 - 0x30)


def gb18030_bytes(linear):
    b4 = linear % 10
    linear //= 10
    b3 = linear % 126
    linear //= 126
    b2 = linear % 10
    b1 = linear // 10
    return bytes([b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30])


def scan_gb18030_runs(table):
    """The four-byte part of GB18030 as runs of consecutive code points."""
    pairs = []
    for b1 in range(0x81, 0x85):
        for b2 in range(0x30, 0x3A):
            for b3 in range(0x81, 0xFF):
                for b4 in range(0x30, 0x3A):
                    seq = bytes([b1, b2, b3, b4])
                    text = decode_or_none(seq, "gb18030")
                    if text is not None and len(text) == 1:
                        pairs.append((gb18030_linear(seq), ord(text)))
    supplementary = gb18030_linear(b"\x90\x30\x81\x30")
    assert decode_or_none(b"\x90\x30\x81\x30", "gb18030") == "\U00010000"
    assert decode_or_none(gb18030_bytes(supplementary + 0xFFFFF), "gb18030") == "\U0010FFFF"
    pairs.append((supplementary, 0x10000))
    runs = []
    for linear, cp in pairs:
        if runs and runs[-1][1] + 1 == cp and runs[-1][2] + (cp - runs[-1][0]) == linear:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp, linear])
    runs[-1][1] = 0x10FFFF
    for first, last, linear in runs:
        for cp in (first, last):
            assert chr(cp).encode("gb18030") == gb18030_bytes(linear + cp - first), hex(cp)
    table.runs = runs


def byte_codec_table(codec):
    table = Table(codec)
    scan_decoding(table, codec)
    scan_encoding(table, codec)
    scan_combos(table, codec)
    if codec == "gb18030":
        scan_gb18030_runs(table)
    return table


# ---- ISO 2022 ---------------------------------------------------------------
# Each graphic set is identified by its designation; its table is read back
# from the host by decoding designation + code.  The encoders' choice of set
# for each code point is read from what the host emits for that code point.

# name -> (designation escape, bytes per character, host codec to read it)
ISO_SETS = {
    "jisx0201_roman": (b"\x1b(J", 1, "iso2022_jp"),
    "jisx0201_kana": (b"\x1b(I", 1, "iso2022_jp_ext"),
    "jisx0208_1978": (b"\x1b$@", 2, "iso2022_jp"),
    "jisx0208": (b"\x1b$B", 2, "iso2022_jp"),
    "jisx0212": (b"\x1b$(D", 2, "iso2022_jp_1"),
    "gb2312": (b"\x1b$A", 2, "iso2022_jp_2"),
    "ksx1001": (b"\x1b$(C", 2, "iso2022_jp_2"),
    "jisx0213_2000_1": (b"\x1b$(O", 2, "iso2022_jp_3"),
    "jisx0213_2": (b"\x1b$(P", 2, "iso2022_jp_3"),
    "jisx0213_2004_1": (b"\x1b$(Q", 2, "iso2022_jp_2004"),
    "iso8859_1": (b"\x1b.A\x1bN", 1, "iso2022_jp_2"),
    "iso8859_7": (b"\x1b.F\x1bN", 1, "iso2022_jp_2"),
}
# Order matters: it is the set id (1-based) the C side names in cjk_iso_sets.
ISO_SET_ORDER = list(ISO_SETS)

ISO_CODECS = ["iso2022_jp", "iso2022_jp_1", "iso2022_jp_2", "iso2022_jp_3",
              "iso2022_jp_2004", "iso2022_jp_ext", "iso2022_kr"]


def iso_set_table(name):
    escape, width, codec = ISO_SETS[name]
    table = Table("iso_" + name)
    if width == 1:
        for b in range(0x20, 0x80):
            text = decode_or_none(escape + bytes([b]), codec)
            if text is not None and len(text) == 1 and not (name.startswith("iso8859") and b < 0x20):
                table.need[b] = 1
                table.single[b] = ord(text)
    else:
        for lead in range(0x21, 0x7F):
            table.need[lead] = 2
            for trail in range(0x21, 0x7F):
                text = decode_or_none(escape + bytes([lead, trail]), codec)
                if text is not None and 1 <= len(text) <= 2:
                    table.decode[bytes([lead, trail])] = text
    return table


def iso_split(data):
    """(set id, code) of one character's encoding, or None."""
    # ESC $ ( F is the long form of ESC $ F (the host writes it for GB2312).
    data = data.replace(b"\x1b$(A", b"\x1b$A")
    if data.startswith(b"\x0e") or data.startswith(b"\x1b$)C\x0e"):
        body = data[data.index(b"\x0e") + 1:]
        if body.endswith(b"\x0f"):
            body = body[:-1]
        if len(body) == 2:
            return (ISO_SET_ORDER.index("ksx1001") + 1) << 16 | body[0] << 8 | body[1]
        return None
    for index, name in enumerate(ISO_SET_ORDER):
        escape, width, _ = ISO_SETS[name]
        if data.startswith(escape):
            body = data[len(escape):]
            if body.endswith(b"\x1b(B"):
                body = body[:-3]
            if len(body) == width:
                code = body[0] if width == 1 else body[0] << 8 | body[1]
                return (index + 1) << 16 | code
    return None


def iso_codec_table(codec):
    table = Table(codec)

    def accept(data):
        if len(data) == 1 and data[0] < 0x80:
            return 0x10000 * 0 | data[0] | 0x800000       # plain ASCII
        return iso_split(data)

    scan_encoding(table, codec, accept)
    # Pairs come from the JIS X 0213 sets' decodings.
    for name in ("jisx0213_2000_1", "jisx0213_2004_1"):
        escape = ISO_SETS[name][0]
        for lead in range(0x21, 0x7F):
            for trail in range(0x21, 0x7F):
                text = decode_or_none(escape + bytes([lead, trail]), "iso2022_jp_2004")
                if text is not None and len(text) == 2:
                    data = encode_or_none(text, codec)
                    if data is not None:
                        value = iso_split(data)
                        if value is not None:
                            table.combos[(ord(text[0]), ord(text[1]))] = value
    return table


# ---- Output -------------------------------------------------------------------

def c_array(out, ctype, name, values, per_line=12):
    storage = "" if name.startswith("_Py") else "static "
    out.append("%sconst %s %s[%d] = {" % (storage, ctype, name, max(len(values), 1)))
    if not values:
        values = [0]
    for i in range(0, len(values), per_line):
        out.append("    " + ", ".join("0x%X" % v for v in values[i:i + per_line]) + ",")
    out.append("};")


class Pools:
    """Shared value arrays: identical runs of values (a row of one table is
    often a row of another, shifted in its bytes) are stored once."""

    def __init__(self):
        self.narrow = []        # uint16_t
        self.wide = []          # uint32_t
        self.seen = {}

    def add(self, values, narrow):
        key = (narrow, tuple(values))
        if key not in self.seen:
            pool = self.narrow if narrow else self.wide
            self.seen[key] = len(pool)
            pool.extend(values)
        return self.seen[key]


NARROW_NONE = 0xFFFF
NARROW_BAD_PAIR = 0xFFFE


def narrow_encoding(value):
    """A packed encoding value as uint16 (1- and 2-byte codes only)."""
    if value == 0:
        return NARROW_NONE
    count, code = value >> 24, value & 0xFFFFFF
    assert (count == 1 and code <= 0xFF) or (count == 2 and 0xFF < code < NARROW_NONE)
    return code


def emit_table(out, table, pools):
    n = table.name
    # Decoding: per prefix, the range of last bytes.
    prefixes = {}
    for seq in table.decode:
        prefixes.setdefault(seq[:-1], []).append(seq[-1])
    multi = []
    rows = []
    cells = {}
    for prefix in sorted(prefixes, key=lambda p: (len(p), int.from_bytes(p, "big"))):
        lasts = prefixes[prefix]
        lo, hi = min(lasts), max(lasts)
        values = []
        for last in range(lo, hi + 1):
            text = table.decode.get(prefix + bytes([last]))
            if last not in lasts and text is None:
                values.append(NONE)
            elif text is None:
                values.append(BAD_PAIR)
            elif len(text) == 1:
                values.append(ord(text))
            else:
                values.append(MULTI | (len(multi) // 2))
                multi.extend(ord(c) for c in text)
        key = int.from_bytes(prefix, "big") | (len(prefix) << 16)
        rows.append((key, lo, hi))
        cells[key] = values
    dec_narrow = all(v in (NONE, BAD_PAIR) or v < NARROW_BAD_PAIR
                     for vs in cells.values() for v in vs)
    narrowed = {NONE: NARROW_NONE, BAD_PAIR: NARROW_BAD_PAIR}
    rows = [(key, lo, hi, pools.add([narrowed.get(v, v) for v in cells[key]]
                                    if dec_narrow else cells[key], dec_narrow))
            for key, lo, hi in rows]
    # Encoding: blocks of BLOCK code points, each trimmed to its used range.
    enc_narrow = all((v >> 24) <= 2 and (v & 0xFFFFFF) < NARROW_NONE
                     for v in table.encode.values())
    top = max(table.encode) // BLOCK + 1 if table.encode else 0
    blocks = []
    for b in range(top):
        used = [i for i in range(BLOCK) if b * BLOCK + i in table.encode]
        if not used:
            blocks.append((0, 1, 0))
            continue
        lo, hi = used[0], used[-1]
        values = [table.encode.get(b * BLOCK + i, 0) for i in range(lo, hi + 1)]
        if enc_narrow:
            values = [narrow_encoding(v) for v in values]
        blocks.append((pools.add(values, enc_narrow), lo, hi))
    out.append("/* %s */" % n)
    c_array(out, "uint8_t", n + "_need", table.need, 32)
    c_array(out, "uint32_t", n + "_single", table.single, 8)
    out.append("static const cjk_dec_row %s_rows[%d] = {" % (n, max(len(rows), 1)))
    for key, lo, hi, off in rows or [(0, 1, 0, 0)]:
        out.append("    {0x%X, 0x%X, 0x%X, %d}," % (key, lo, hi, off))
    out.append("};")
    c_array(out, "uint32_t", n + "_multi", multi, 8)
    out.append("static const cjk_enc_block %s_blocks[%d] = {" % (n, max(len(blocks), 1)))
    for off, lo, hi in blocks or [(0, 1, 0)]:
        out.append("    {%d, 0x%X, 0x%X}," % (off, lo, hi))
    out.append("};")
    combos = sorted(table.combos.items())
    out.append("static const cjk_combo %s_combos[%d] = {" % (n, max(len(combos), 1)))
    for (a, b), v in combos or [((0, 0), 0)]:
        out.append("    {0x%X, 0x%X, 0x%X}," % (a, b, v))
    out.append("};")
    out.append("static const cjk_run %s_runs[%d] = {" % (n, max(len(table.runs), 1)))
    for first, last, linear in table.runs or [(1, 0, 0)]:
        out.append("    {0x%X, 0x%X, 0x%X}," % (first, last, linear))
    out.append("};")
    out.append("const cjk_table _PyCJK_Table_%s = {" % n)
    out.append("    %s_need, %s_single, %s_rows, %d, %d, %s_multi," % (
        n, n, n, len(rows), int(dec_narrow), n))
    out.append("    %s_blocks, %d, %d, %s_combos, %d, %s_runs, %d," % (
        n, len(blocks), int(enc_narrow), n, len(combos), n, len(table.runs)))
    out.append("};")
    out.append("")


def main():
    if sys.version_info < (3, 11):
        sys.exit("gen_cjk_tables.py needs Python 3.11 or newer")
    outdir = sys.argv[1]
    banner = ["/* Generated by Tools/scripts/gen_cjk_tables.py from the host Python's",
           "   codecs (Python %s).  Do not edit. */" % sys.version.split()[0], ""]
    out = list(banner)
    decl = list(banner)
    tables = ([byte_codec_table(c) for c in BYTE_CODECS]
              + [iso_set_table(n) for n in ISO_SET_ORDER]
              + [iso_codec_table(c) for c in ISO_CODECS])
    pools = Pools()
    body = []
    for table in tables:
        emit_table(body, table, pools)
        decl.append("extern const cjk_table _PyCJK_Table_%s;" % table.name)
    c_array(out, "uint16_t", "_PyCJK_Pool16", pools.narrow, 12)
    c_array(out, "uint32_t", "_PyCJK_Pool32", pools.wide, 8)
    out.extend(body)
    decl.append("extern const uint16_t _PyCJK_Pool16[];")
    decl.append("extern const uint32_t _PyCJK_Pool32[];")
    write(os.path.join(outdir, "cjk_tables.h"), out)
    write(os.path.join(outdir, "cjk_tables_decl.h"), decl)


def write(path, lines):
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
