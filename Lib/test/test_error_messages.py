# The messages of common errors.  Division by zero uses the 3.14 wording
# ("division by zero" for int as for float).
import sys
# error messages users see
tests = [
    "1 + 'a'", "'a' * 'b'", "[1][5]", "{}['k']", "None.x", "len(5)", "int('x')", "float('y')",
    "(1).foo", "[].pop()", "{}.popitem()", "1/0", "1//0", "1%0", "2**10000.0", "'abc'.index('z')",
    "tuple()[0]", "list('ab').remove('z')", "int(None)", "abs('a')", "iter(5)", "next(iter([]))",
    "sorted([1, 'a'])", "hash([])", "{[]: 1}", "f()", "x = undefined", "print(undefined_name_here)",
    "'a'.join([1])", "range(1, 2, 0)", "chr(-1)", "ord('ab')", "dict(1)", "set(1)", "min([])",
    "(lambda x: x)()", "(lambda: 0)(1)", "divmod(1, 0)", "[1, 2, 3][1:2:0]", "int('10', 1)",
    "object().__setattr__('a', 1)", "str.upper(1)", "type('X', (int, str), {})", "1 < 'a'",
    "[] + ()", "-'a'", "~1.5", "f'{1:q}'", "'{}'.format()", "'%d' % 'a'", "b'a' + 'b'",
    "bytes(-1)", "bytearray('a')", "getattr(1, 2)", "isinstance(1, 1)", "super()",
]
for src in tests:
    try:
        exec(src, {})
    except Exception as e:
        print(type(e).__name__ + ":", e)
    else:
        print("no error:", src)
