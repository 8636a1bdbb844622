# BINARY_OP_INPLACE_ADD_UNICODE: `s += t` on a local extends the string in
# place when nothing else refers to it; everything else must look as if a
# new string had been made.
REPEAT = 40


def grow(n, piece):
    s = ""
    for _ in range(n):
        s += piece
    return s


print(len(grow(1000, "ab")), grow(3, "xy"), repr(grow(5, "é")), grow(3, "€")[:2], len(grow(4, "😀")))


def alias_kept():
    s = "start"
    seen = []
    for i in range(REPEAT):
        before = s
        s += str(i % 10)
        seen.append(before)
    return seen[0], seen[-1], s[-5:], all(a is not s for a in seen)


print(alias_kept())


def held_in_list():
    s = "x"
    keep = []
    for _ in range(REPEAT):
        keep.append(s)
        s += "y"
    return [len(k) for k in keep[:5]], len(s)


print(held_in_list())


def plus_form():
    s = "p"
    for _ in range(REPEAT):
        s = s + "q"
    return len(s)


print(plus_form())


def other_local():
    s = "a"
    t = ""
    for _ in range(REPEAT):
        t = s + "b"  # stores into a different local: a plain concatenation
    return s, t


print(other_local())


def type_change():
    s = "z"
    out = []
    for i in range(REPEAT):
        s += "z"
        if i == REPEAT - 2:
            try:
                s += 1
            except TypeError as e:
                out.append(str(e))
    return len(s), out


print(type_change())


class S(str):
    pass


def subclass_operand():
    s = "m"
    for _ in range(REPEAT):
        s += S("n")
    return type(s).__name__, len(s)


print(subclass_operand())


def interned_start():
    s = "interned"
    for _ in range(REPEAT):
        s += "!"
    return s.count("!"), "interned" + ""


print(interned_start())


def hashed_then_grown():
    s = "h"
    hashes = set()
    for _ in range(REPEAT):
        hashes.add(hash(s))
        s += "h"
    return len(hashes), hash(s) == hash("h" * (REPEAT + 1)), {s: 1}["h" * (REPEAT + 1)]


print(hashed_then_grown())


def in_closure():
    s = ""

    def add(piece):
        nonlocal s
        s += piece

    for _ in range(REPEAT):
        add("c")
    return len(s)


print(in_closure())


def unicode_widths():
    s = "a"
    for ch in ["b", "é", "c", "€", "d", "😀", "e"] * 6:
        s += ch
    return len(s), s[:8], s.encode("utf-8")[:12]


print(unicode_widths())
