# The _ast module: node classes, ast.parse (compile with PyCF_ONLY_AST),
# compile() of trees, and the errors for malformed trees.
import _ast
import ast

print(_ast.PyCF_ONLY_AST, _ast.PyCF_TYPE_COMMENTS, _ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
      _ast.PyCF_OPTIMIZED_AST)
print(ast.AST, ast.AST._fields, ast.AST._attributes, ast.Name.__mro__)
for cls in (ast.Module, ast.FunctionDef, ast.BinOp, ast.Name, ast.Constant, ast.arguments,
            ast.arg, ast.keyword, ast.ImportFrom, ast.Compare, ast.MatchAs, ast.TypeVar,
            ast.Load, ast.Add, ast.comprehension):
    print(cls.__name__, cls.__module__, cls._fields, cls.__match_args__, cls._attributes)
    print("   ", cls._field_types, cls.__doc__)
print(ast.expr.__doc__.splitlines()[:3], ast.Constant.kind, ast.expr.end_lineno)
print("_field_types" in ast.expr.__dict__, "_field_types" in ast.Pass.__dict__)

# Construction rules
n = ast.Name("x")
print(n.id, type(n.ctx).__name__, ast.dump(n))
print(ast.dump(ast.FunctionDef("f", ast.arguments())), ast.dump(ast.ImportFrom(names=[ast.alias("a")])))
b = ast.BinOp(ast.Constant(1), ast.Add(), ast.Constant(2), lineno=3)
print(ast.dump(b, include_attributes=True), b.lineno)
for args, kw in (((1, 2, 3), {}), (("x",), {"id": "y"})):
    try:
        ast.Name(*args, **kw)
    except TypeError as e:
        print("TypeError", e)
print(ast.Load() is ast.Load(), isinstance(ast.Load(), ast.expr_context))


class Custom(ast.AST):
    _fields = ("a", "b")


c = Custom(1, b=2)
print(c.a, c.b, Custom._fields)

# Parsing
src = """
def f(a, /, b=1, *c, d, e=2, **g) -> int:
    '''doc'''
    return [x async for x in y if x] or {k: v for k, v in z}
class C(B, metaclass=M):
    x: int = 1
match p:
    case [1, *rest] | {"k": v} if v: pass
    case Point(x=0) as q: pass
try:
    raise E from None
except* (A, B) as e:
    del a.b, c[1]
with open(f) as h, g(): yield
type T[X: int, *Ts, **P] = list[X]
s = f"{a!r:>{w}} {b=}"
lambda q, *, r=3: q
global z
"""
tree = ast.parse(src)
print(ast.dump(tree, include_attributes=False))
print(ast.dump(ast.parse("a[1:2, ::3]", mode="eval")))
print(ast.dump(ast.parse("x", mode="single")))
print(ast.dump(ast.parse("(int, str) -> None", mode="func_type")))
node = tree.body[0]
print(node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, node.body[0].value.value)
def walk(n):
    yield n
    for child in ast.iter_child_nodes(n):
        yield from walk(child)


print([type(x).__name__ for x in walk(ast.parse("a + b * c"))])
print(ast.literal_eval("[1, (2, 3), {'a': -4.5}, {1, 2}, None, b'x']"))
for bad in ("1 +", "def f(:", "x = (1,"):
    try:
        ast.parse(bad)
    except SyntaxError as e:
        print("SyntaxError", e.msg)

# Compiling trees
co = compile(tree := ast.parse("print(sum(i * i for i in range(5)))"), "<tree>", "exec")
exec(co)
print(eval(compile(ast.parse("2 ** 10", mode="eval"), "<e>", "eval")))
t2 = ast.Module([ast.Expr(ast.Call(ast.Name("print"), [ast.Constant("built")], []))], [])
exec(compile(ast.fix_missing_locations(t2), "<built>", "exec"))
print(compile(t2, "<x>", "exec", ast.PyCF_ONLY_AST) is t2)


class Double(ast.NodeTransformer):
    def visit_Constant(self, node):
        return ast.copy_location(ast.Constant(node.value * 2), node) if isinstance(node.value, int) else node


t3 = Double().visit(ast.parse("print(1 + 20)"))
exec(compile(t3, "<t3>", "exec"))


def L(n):
    n.lineno, n.col_offset, n.end_lineno, n.end_col_offset = 1, 0, 1, 1
    return n


def check(label, tree, mode="exec"):
    try:
        compile(tree, "<t>", mode)
        print(label, "compiled")
    except (TypeError, ValueError, SyntaxError) as e:
        print(label, type(e).__name__, e)


check("store ctx", ast.Module([L(ast.Expr(L(ast.Name("x", ast.Store()))))], []))
check("load target", ast.Module([L(ast.Assign([L(ast.Name("x", ast.Load()))], L(ast.Constant(1))))], []))
check("const target", ast.Module([L(ast.Assign([L(ast.Constant(1))], L(ast.Constant(1))))], []))
check("no lineno", ast.Module([ast.Expr(ast.Constant(1))], []))
check("bad const", ast.Module([L(ast.Expr(L(ast.Constant([1]))))], []))
check("empty def", ast.Module([L(ast.FunctionDef("f", ast.arguments(), [], []))], []))
check("empty if", ast.Module([L(ast.If(L(ast.Constant(1)), [], []))], []))
check("wrong mode", ast.Module([], []), "eval")
check("not a node", ast.Module([1], []))
check("not a tree", ast.Constant(1))
check("del load", ast.Module([L(ast.Delete([L(ast.Name("x", ast.Load()))]))], []))
check("empty names", ast.Module([L(ast.Import([]))], []))
check("bad identifier", ast.Module([L(ast.Expr(L(ast.Name(1, ast.Load()))))], []))
check("None body", ast.Module(None, []))
check("empty boolop", ast.Module([L(ast.Expr(L(ast.BoolOp(ast.And(), []))))], []))
check("compare", ast.Module([L(ast.Expr(L(ast.Compare(L(ast.Constant(1)), [ast.Lt()], []))))], []))
check("empty try", ast.Module([L(ast.Try([], [], [], []))], []))
check("try no handler", ast.Module([L(ast.Try([L(ast.Pass())], [], [], []))], []))
check("dict", ast.Module([L(ast.Expr(L(ast.Dict([L(ast.Constant(1))], []))))], []))
check("name None", ast.Module([L(ast.Expr(L(ast.Name("None", ast.Load()))))], []))
check("raise cause", ast.Module([L(ast.Raise(None, L(ast.Constant(1))))], []))
check("defaults", ast.Module([L(ast.FunctionDef("f", ast.arguments(defaults=[L(ast.Constant(1))]), [L(ast.Pass())], []))], []))
check("comprehension", ast.Module([L(ast.Expr(L(ast.ListComp(L(ast.Name("x", ast.Load())), []))))], []))
check("bad int", ast.Module([L(ast.ImportFrom("m", [L(ast.alias("a"))], "x"))], []))
check("func_type source", "(int) -> str", "func_type")
check("good", ast.Module([L(ast.Expr(L(ast.Tuple([L(ast.Starred(L(ast.Name("x", ast.Load())), ast.Load()))], ast.Load()))))], []))
check("None constant", ast.parse("x = None; f(None)"))
check("type alias", ast.parse("type X[T] = list[T]"))
check("all targets", ast.parse("a, *b = c\nfor [d, e.f] in g: pass\nwith h as (i, j[0]): pass\n"
                               "del k, l.m\n(n := 1)\nx += 1\ny: int = 2\n[p for q in r]"))
