# Template strings (PEP 750): t-string literals, string.templatelib.Template
# and Interpolation, their errors, and the AST of a t-string.
import ast
from string.templatelib import Template, Interpolation, convert

name = "World"
width = 10
value = 3.14159

# Literals: conversions and format specs, nested fields in the spec.
t = t"Hello {name}"
print(type(t).__name__, type(t).__module__, t.strings, t.values)
print(t)
t = t"Hello {name!r:>10}"
print(t.interpolations)
print(t"{name!s}{name!a}".interpolations)
t = t"pi={value:.{width - 7}f}|{name:>{width}}|"
print(t.strings, [(i.expression, i.format_spec) for i in t.interpolations])
# The expression text keeps leading, not trailing, whitespace.
print([t.interpolations[0].expression for t in (t"{ name  }", t"{name !r}", t"{ name = }")])
print(t"{name.upper()}!".interpolations[0])

# The debug form: the text gets "expr=", conversion r unless given.
t = t"v {value=} {value = } {value=!s} {value=:.2f}"
print(t.strings)
print([(i.expression, i.conversion, i.format_spec) for i in t.interpolations])

# Triple-quoted, raw, escapes, doubled braces.
t = t"""a
{name}
b"""
print(t.strings)
print(rt"\n{name}\t".strings, t"\n{name}\t".strings, T"{{x}}{name}".strings)
print(t"".strings, t"".interpolations, list(t""))

# Implicit concatenation of t-strings.
t = t"a{name}" t"b" t"{value}c"
print(t.strings, t.values)

# Iteration skips empty strings.
print(list(t"{name}{value}"))
print(list(t"x{name}y{value}z"))

# Constructor: adjacent strings joined, '' between interpolations.
i = Interpolation(42, "x", "r", ">5")
print(i, i.value, i.expression, i.conversion, i.format_spec)
print(Interpolation(1))
print(Interpolation(1, conversion=None, format_spec="x", expression="e"))
print(Template("a", "b", i, i, "c").strings)
print(Template(i).strings, Template().strings, Template().interpolations)
print(repr(Template("Hello ", Interpolation("World", "name"))))

# +, between templates only.
a = t"x{name}y"
b = t"z{value}w"
print((a + b).strings, (a + b).values)
for left, right in ((a, "s"), ("s", a), (a, 1)):
    try:
        left + right
    except TypeError as e:
        print("TypeError", e)

# Pattern matching on Interpolation.
for part in t"n={name!r} v={value:.1f}":
    match part:
        case Interpolation(v, "name", conv):
            print("name field", v, conv)
        case Interpolation(v, expr, None, spec):
            print("other field", v, expr, spec)
        case str() as s:
            print("text", repr(s))

# Rendering with convert(), as a t-string consumer would.
def render(tmpl):
    out = []
    for part in tmpl:
        if isinstance(part, str):
            out.append(part)
        else:
            out.append(format(convert(part.value, part.conversion), part.format_spec))
    return "".join(out)

print(render(t"Hello {name!r:>10}|{value:.2f}|{value=}"))

# Errors of the constructors and immutability.
for call in (lambda: Template(1), lambda: Template(strings=()),
             lambda: Interpolation(1, "x", "z"), lambda: Interpolation(1, 2),
             lambda: Interpolation(1, "x", None, 5), lambda: Interpolation()):
    try:
        call()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    i.value = 1
except AttributeError:
    print("AttributeError on set")
try:
    class Sub(Template):
        pass
except TypeError:
    print("TypeError on subclass")

# Pickling support: __reduce__ gives a callable and its arguments.
rebuild, args = t"a{name!r:>3}b".__reduce__()
print(rebuild.__name__, args)
print(rebuild(*args))
rebuild, args = i.__reduce__()
print(rebuild.__name__, args, rebuild(*args))

# Syntax errors, with their position.
for src in ('t"a" "b"', 'x = "a" t"b"', 't"a" f"b"', 'f"a" t"b"', 't"a" b"b"',
            't"{}"', 't"{x!z}"', 't"{x"'):
    try:
        compile(src, "<t>", "exec")
        print("compiled", src)
    except SyntaxError as e:
        print(src, "->", e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset)

# The AST: TemplateStr with Interpolation nodes.
tree = ast.parse('t"a{x!r:>{w}}b{y=}"', mode="eval")
print(ast.dump(tree.body))
print(ast.dump(ast.parse('t"x" t"{y}"', mode="eval").body))

# Compiling a parsed or hand-built AST, and ast.unparse.
x, w = 5, 4
tree = ast.parse('t"a{x!r:>{w}}"', mode="eval")
print(eval(compile(tree, "<ast>", "eval")), ast.unparse(tree))
node = ast.Expression(ast.TemplateStr(values=[
    ast.Constant("q"),
    ast.Interpolation(value=ast.Name("x", ast.Load()), str="x", conversion=-1)]))
print(eval(compile(ast.fix_missing_locations(node), "<ast>", "eval")))
bad = ast.Expression(ast.TemplateStr(values=[ast.Name("x", ast.Load())]))
try:
    compile(ast.fix_missing_locations(bad), "<ast>", "eval")
except (TypeError, ValueError, SystemError) as e:
    print("bad TemplateStr rejected")

# Many fields (past the compiler's stack-use limit).
big = eval("t'" + "-{x}" * 40 + "'")
print(len(big.strings), len(big.interpolations), big.strings[:2], big.values[-1])

# Lazily, inside functions and comprehensions.
def make(n):
    return t"<{n}>"
print([make(k).values for k in range(3)])
print([t"{k}" for k in "ab"][1].values)

# Annotations: the unparser renders t-strings (from __future__ import
# annotations), and annotationlib's STRING format handles them.
ns = {}
exec("from __future__ import annotations\n"
     "def f(x: t'a{b!r:>{w}}c{d}') -> t'q': pass\n", ns)
print(ns["f"].__annotations__)
import annotationlib
def g(x: undefined_name[t"{y}"]): pass
print(annotationlib.get_annotations(g, format=annotationlib.Format.STRING))
