# _tokenize under the tokenize module: token streams as `python -m tokenize`
# prints them (plus each token's `line`), from str and from bytes readlines,
# and the errors tokenize reports.
import io
import tokenize
from token import tok_name

SOURCE = '''\
#!/usr/bin/env python
# -*- coding: utf-8 -*-
"""Module docstring
over two lines."""

import os, sys  # trailing comment
\t
@decorator(arg=1)
class Ünïcode(Base, metaclass=Meta):
    attr: int = 0x_FF + 0o17 + 0b1010 + 1_000_000 + 0XAB

    def method(self, *args, **kwargs) -> None:
        # comment inside a block
        x = (1 +
             2)  # in brackets
        y = [
            1, 2,   # comment in a list

            3,
        ]
        z = 1.5 + .5 + 5. + 1e10 + 1E-5 + 3.14j + 2J + 0.0e+0 + 1_0.0_1
        if x and \\
           y:
            return f"{x!r:>{y}} {{lit}} {z=}" + f'{f"{1}"}' + rf"\\d{x}"
        s = 'single' "double" b'bytes' rb"raw" u"uni" R'RAW' Br'x'
        t = """triple
        quoted""" + \'\'\'other\'\'\'
        café = "naïve ☃"; w = café[1:-1]
        x += 1; x -= 1; x *= 2; x /= 2; x //= 2; x %= 2; x **= 2
        x @= m; x &= 1; x |= 1; x ^= 1; x >>= 1; x <<= 1
        a = b == c != d <= e >= f < g > h
        a = ~b ^ c & d | e << f >> g ** h // i % j @ k
        (n := 10); ...; lambda: None; print(*a, **b)
    async def coro(self):
        async with lock:
            async for i in aiter():
                await i
    def multi(self): return f"""
    {self!s}
    done"""
# dedent after a comment
if True:
\tpass
x = {'a': 1, **d}[0]
'''

NO_NEWLINE = "if x:\n    if y:\n        z = 1  # last"


def show(tokens):
    try:
        for tok in tokens:
            rng = "%d,%d-%d,%d:" % (tok.start + tok.end)
            print("%-20s%-15s%-15r" % (rng, tok_name[tok.exact_type], tok.string))
            print("    line=%r" % tok.line)
    except IndentationError as err:
        print("%s: %s %r" % (type(err).__name__, err.args[0], err.args[1][1:3]))
    except tokenize.TokenError as err:
        print("TokenError: %s %r" % err.args)
    except Exception as err:
        print("%s: %s" % (type(err).__name__, err))


def from_str(src):
    print("--- generate_tokens")
    show(tokenize.generate_tokens(io.StringIO(src).readline))


def from_bytes(data):
    print("--- tokenize")
    show(tokenize.tokenize(io.BytesIO(data).readline))


from_str(SOURCE)
from_bytes(SOURCE.encode("utf-8"))
from_str(NO_NEWLINE)
from_bytes(NO_NEWLINE.encode())
from_str("")
from_str("\n\n# only a comment")
from_str("x = 1\r\ny = (2,\r\n  3)\r\n")
from_bytes("# coding: latin-1\ns = 'é'\n".encode("latin-1"))
from_bytes(b"\xef\xbb\xbfx = 1\n")
from_str("f'{a:{b}}' f'{a:}' f'\\N{DASH}x{{' f'''{\na\n}'''\n")
from_str("$a ? `b`\n")
# Checks the parser makes but tokenize does not.
from_str("1if x else y; 0x1for; 1e; 1.5e; 0777; 08; 1jx\n")

print("=== errors")
for bad in [
    "x = 'unterminated\n",
    "x = '''never closed\n\n",
    "if x:\n        a\n    b\n",
    "foo(1,\n    2\n",
    "x = 1 + \\\n",
    "if x:\n\ta\n        b\n",
    "if x:\n        a\n\tb",
    "x = (1]\n(]\n",
    "0b12 1_ 0x 1e+\n",
    "x = 1\n\0\n",
    "f'{x'\n",
    "x = )\n",
]:
    from_str(bad)


def bad_readline():
    return 42


show(tokenize.generate_tokens(bad_readline))
print("=== readline variants")
show(tokenize.generate_tokens(iter(["def f():\n", "    return 1\n"]).__next__))


def failing_readline():
    raise ValueError("readline failed")


show(tokenize.generate_tokens(failing_readline))
import _tokenize
try:
    _tokenize.TokenizerIter(iter([]).__next__)
except TypeError:
    print("TypeError without extra_tokens")

# PEP 750 template strings tokenize like f-strings, with TSTRING_* types
# (3.14 only: the expected output is the f-string one renamed).
print("=== t-strings")
from_str("t'a{x:>{w}}{{' + T\"\"\"b\n{y}\"\"\"\n")
