# LOAD_SUPER_ATTR_ATTR / LOAD_SUPER_ATTR_METHOD: super() lookups without a
# super object, hot, then in every odd case.
REPEAT = 40


class Base:
    val = "base val"

    def meth(self, x):
        return ("Base.meth", x)

    @property
    def prop(self):
        return "Base.prop"

    @classmethod
    def cm(cls):
        return ("Base.cm", cls.__name__)

    @staticmethod
    def sm(y):
        return ("Base.sm", y)

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.registered = True


class Child(Base):
    def meth(self, x):
        return ("Child", super().meth(x))

    def attrs(self):
        return super().prop, super().val, super().cm(), super().sm(1), super().meth.__qualname__

    @classmethod
    def cm(cls):
        return ("Child.cm", super().cm())

    def explicit(self):
        return super(Child, self).meth(2), super(Base, self).__class__.__name__

    def missing(self):
        return super().nothing_here

    def cls_attr(self):
        return super().__class__.__name__


c = Child()
for _ in range(REPEAT):
    results = (c.meth(0), c.attrs(), Child.cm(), c.explicit(), c.cls_attr())
for r in results:
    print(r)
print("registered", Child.registered)
for _ in range(3):
    try:
        c.missing()
    except AttributeError as e:
        print("AttributeError:", e)


def with_shadowed_super():
    class Local(Base):
        def meth(self, x):
            return super().meth(x)

    obj = Local()
    out = [obj.meth(i) for i in range(REPEAT)][-1]
    import builtins
    real = builtins.super

    class FakeSuper:
        def __init__(self, *args):
            self.args = args

        def __getattr__(self, name):
            return lambda *a: ("fake", name, a)

    builtins.super = FakeSuper
    try:
        shadowed = obj.meth(7)
    finally:
        builtins.super = real
    return out, shadowed, obj.meth(8)


print(with_shadowed_super())


class Slotted(Base):
    __slots__ = ()

    def meth(self, x):
        return super().meth(x * 10)


print([Slotted().meth(i) for i in range(REPEAT)][-1])


class Wrong:
    def meth(self):
        return super().anything


class NotRelated(Child):
    def meth(self, x):
        return super(Child, 5).meth(x)


for _ in range(2):
    try:
        Wrong.meth(42)
    except TypeError as e:
        print("TypeError:", e)
    try:
        NotRelated().meth(1)
    except TypeError as e:
        print("TypeError:", e)


class Deleted(Base):
    def meth(self, x):
        del self
        return super().meth(x)


try:
    Deleted().meth(1)
except (RuntimeError, UnboundLocalError) as e:
    print(type(e).__name__, e)
