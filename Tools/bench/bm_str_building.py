"""Building strings: ``s += piece`` on a local (which CPython extends in
place), ``str.join`` of parts, f-strings with format specs, ``%`` and
``str.format``, ``str()`` and ``repr()`` of numbers.  The size is the
number of pieces appended.
"""

from benchlib import main


def grow(n):
    s = ""
    for k in range(n):
        s += "ab" if k & 1 else "c"
    return s


def report(n):
    lines = []
    for k in range(n):
        lines.append(f"{k:>6}|{k * 0.5:8.2f}|{k:#x}|{'odd' if k & 1 else 'even':<5}")
    return "\n".join(lines)


def classic(n):
    parts = []
    for k in range(n):
        parts.append("%d:%s;" % (k, repr(k * 3)))
        parts.append("{0}-{1!r}".format(k & 15, str(k)))
    return "".join(parts)


def workload(size):
    a = grow(size)
    b = report(size // 8)
    c = classic(size // 8)
    digest = 0
    for text in (a, b, c):
        digest = (digest * 131 + len(text) + text.count("1") * 7 + ord(text[-1])) % 1000000007
    return (len(a), len(b), len(c), digest)


if __name__ == "__main__":
    main(workload, default=1600000, quick=20000,
         expect={1600000: '(2400000, 5930095, 4615740, 354880691)',
                 20000: '(30000, 69727, 43344, 529204237)'})
