# Classes: inheritance, super(), special methods, properties, class and
# static methods, __slots__, context managers.
class Shape:
    count = 0

    def __init__(self, name):
        self.name = name
        Shape.count += 1

    def area(self):
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, area={self.area()})"


class Rect(Shape):
    def __init__(self, w, h):
        super().__init__("rect")
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h

    def __eq__(self, other):
        return isinstance(other, Rect) and (self.w, self.h) == (other.w, other.h)

    def __hash__(self):
        return hash((self.w, self.h))

    def __lt__(self, other):
        return self.area() < other.area()


class Square(Rect):
    def __init__(self, side):
        super().__init__(side, side)
        self.name = "square"


shapes = [Rect(2, 3), Square(2), Rect(1, 1)]
print(shapes, Shape.count)
print(sorted(shapes), Rect(2, 3) == Rect(2, 3), len({Rect(1, 2), Rect(1, 2)}))
print(isinstance(shapes[1], Rect), issubclass(Square, Shape), Square.__mro__[1].__name__)
try:
    Shape("abstract").area()
except NotImplementedError:
    print("NotImplementedError raised")


class Vector:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vector(self.x + other.x, self.y + other.y)

    def __mul__(self, k):
        return Vector(self.x * k, self.y * k)

    __rmul__ = __mul__

    def __iter__(self):
        yield self.x
        yield self.y

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return (self.x, self.y)[i]

    def __bool__(self):
        return bool(self.x or self.y)

    @property
    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5

    @classmethod
    def zero(cls):
        return cls(0, 0)

    @staticmethod
    def describe():
        return "2D vector"


v = Vector(3, 4) + Vector(1, 1) * 2
print(list(v), v.norm, len(v), v[1], bool(Vector.zero()), 3 * Vector(1, 2) is not None, Vector.describe())
try:
    v.z = 1
except AttributeError as e:
    print("AttributeError:", e)


class Managed:
    def __init__(self, label):
        self.label = label

    def __enter__(self):
        print("enter", self.label)
        return self

    def __exit__(self, exc_type, exc, tb):
        print("exit", self.label, exc_type.__name__ if exc_type else None)
        return exc_type is KeyError


with Managed("a") as m, Managed("b"):
    print("inside", m.label)
with Managed("c"):
    raise KeyError("swallowed")
try:
    with Managed("d"):
        raise ValueError("propagates")
except ValueError as e:
    print("after with:", e)


class Meta(type):
    def __new__(mcls, name, bases, ns):
        ns["created_by"] = mcls.__name__
        return super().__new__(mcls, name, bases, ns)


class WithMeta(metaclass=Meta):
    pass


print(WithMeta.created_by, type(WithMeta).__name__)


class Base:
    def __init_subclass__(cls, tag=None, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.tag = tag


class Tagged(Base, tag="t1"):
    pass


print(Tagged.tag, getattr(Base, "tag", "none"))


class Counter(dict):
    def __missing__(self, key):
        return 0


c = Counter()
c["x"] += 2
print(c, c["y"])
