# PEP 695/696 type parameters: TypeVar, ParamSpec, TypeVarTuple, TypeAliasType
# from the C _typing module and from the def/type syntax.
import _typing
from _typing import TypeVar, ParamSpec, TypeVarTuple, TypeAliasType, NoDefault


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


# TypeVar
T = TypeVar("T")
print(T, T.__name__, T.__bound__, T.__constraints__, T.__covariant__, T.__contravariant__,
      T.__infer_variance__, T.__default__, T.has_default(), T.__module__)
print(TypeVar("T", covariant=True), TypeVar("T", contravariant=True),
      TypeVar("T", infer_variance=True))
B = TypeVar("B", bound=int)
C = TypeVar("C", int, str)
D = TypeVar("D", default=int)
N = TypeVar("N", default=None)
print(B.__bound__, C.__constraints__, C.__bound__, D.__default__, D.has_default(),
      N.__default__, N.has_default(), TypeVar("X", default=NoDefault).has_default())
show("bivariant", lambda: TypeVar("T", covariant=True, contravariant=True))
show("variance+infer", lambda: TypeVar("T", covariant=True, infer_variance=True))
show("one constraint", lambda: TypeVar("T", int))
show("bound+constraints", lambda: TypeVar("T", int, str, bound=int))
show("no name", lambda: TypeVar())
show("bad name", lambda: TypeVar(1))
show("bad keyword", lambda: TypeVar("T", spam=1))
print(T.__reduce__(), T == T, T == TypeVar("T"), T | int, int | T, T | None)


def subclass_typevar():
    class X(T):
        pass


show("subclass", subclass_typevar)
show("subclass type", lambda: type("X", (TypeVar,), {}))

# ParamSpec and its args/kwargs
P = ParamSpec("P")
print(P, P.__name__, P.__bound__, P.__default__, P.has_default(), P.args, P.kwargs)
print(P.args.__origin__ is P, P.kwargs.__origin__ is P, P.args == P.args, P.args == P.kwargs)
print(type(P.args).__name__, type(P.kwargs).__name__, _typing.ParamSpecArgs(P))
print(ParamSpec("P", covariant=True), ParamSpec("P", default=[int]).__default__)

# TypeVarTuple
Ts = TypeVarTuple("Ts")
print(Ts, Ts.__name__, Ts.__default__, Ts.has_default(), TypeVarTuple("Ts", default=int).has_default())
show("bare subst", lambda: Ts.__typing_subst__(int))

# NoDefault
print(NoDefault, type(NoDefault).__name__, type(NoDefault)() is NoDefault)
show("NoDefault arg", lambda: type(NoDefault)(1))
print(_typing._idfunc(5), _typing.Generic, _typing.Generic.__mro__)

# TypeAliasType made at run time
A = TypeAliasType("A", list[int])
print(A, A.__name__, A.__value__, A.__type_params__, A.__parameters__, A.__module__)
G = TypeAliasType("G", dict[str, T], type_params=(T,))
print(G.__type_params__, G.__parameters__, G[int], G[int].__origin__ is G, G | None)
show("not generic", lambda: A[int])
show("setattr", lambda: setattr(A, "x", 1))
show("bad params", lambda: TypeAliasType("A", int, type_params=[T]))


# The syntax: generic functions
def ident[X](x: X) -> X:
    return x


(X,) = ident.__type_params__
print(X, type(X).__name__, X.__infer_variance__, X.__module__, ident(3))


def many[K: int, V: (str, bytes), *Vs, **Q](): pass


k, v, vs, q = many.__type_params__
print(k, k.__bound__, v.__constraints__, vs, type(vs).__name__, q, q.args)


def lazy[Z: Undefined](): pass


(z,) = lazy.__type_params__
show("lazy bound", lambda: z.__bound__)
Undefined = float
print("now", z.__bound__)


def defaults[A1 = int, *A2 = (str,), **A3 = [bytes]](): pass


print([(p, p.has_default(), p.__default__) for p in defaults.__type_params__])


def nodefault[W](): pass


print(nodefault.__type_params__[0].__default__, nodefault.__type_params__[0].has_default())
print(ident.__type_params__[0] is not nodefault.__type_params__[0], X in ident.__annotations__.values())

# type aliases
type Plain = list[int]
type Later = list[NotYetDefined]
type Gen[E] = dict[str, E]
print(Plain, type(Plain).__name__, Plain.__value__, Plain.__type_params__, Plain.__module__)
show("later", lambda: Later.__value__)
NotYetDefined = bytes
print(Later.__value__, Gen.__type_params__, Gen.__value__, Gen[int], Gen[int].__args__)
print(Plain | None, Gen[int] | int)


# methods and nested scopes see the parameters
class Box:
    def get[R](self, r: R) -> R:
        return r


print(Box().get.__type_params__, Box().get(7))


def outer():
    def inner[S](s: S) -> S:
        return s
    return inner


print(outer().__type_params__)

# compile-time errors
for src in ("def f[T = int, U](): pass", "def f[T, T](): pass", "type A[T = int, U] = T",
            "def f[T: (yield)](): pass", "class C[T]: nonlocal T", "def f[*Ts = *int](): pass"):
    try:
        compile(src, "<test>", "exec")
        print("compiled", src)
    except SyntaxError as e:
        print("SyntaxError", e.msg)

# evaluation is lazy and repeated access reuses the value
calls = []


def note(v):
    calls.append(v)
    return v


def f[T: note(int) = note(str)](): pass


(t,) = f.__type_params__
print(list(calls), t.__bound__, t.__bound__, list(calls), t.__default__, calls)
type Counted = note(list)
print(list(calls), Counted.__value__, Counted.__value__, calls)
