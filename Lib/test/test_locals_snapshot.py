# PEP 667: in a function, locals() (and vars()) is a fresh dict snapshot;
# frame.f_locals is a write-through proxy; module and class bodies see
# their real namespace.
import sys


def snapshots():
    x = 1
    a = locals()
    b = locals()
    print("distinct snapshots:", a is not b, type(a).__name__, type(vars()).__name__)
    a["x"] = 2
    a["new"] = 3
    print("snapshot writes leave the frame alone:", x, "new" in locals())
    x = 4
    print("old snapshot keeps its value:", a["x"], "fresh one sees", locals()["x"])
    proxy = sys._getframe().f_locals
    proxy["x"] = 5
    print("f_locals writes through:", x, type(proxy).__name__)


snapshots()


def with_cells():
    shared = "cell"

    def inner():
        return shared

    free_seen = sorted(locals())
    print("cells in snapshot:", free_seen)
    return inner


def inner_free():
    outer = 10

    def g():
        print("free var in snapshot:", sorted(locals().items()))
        return outer

    return g


with_cells()
inner_free()()


def exec_uses_snapshot():
    y = 1
    exec("y = 2")
    print("exec cannot rebind a local:", y)
    ns = {}
    exec("z = 1 + 1", globals(), ns)
    print("explicit namespace:", ns)
    print("eval reads locals:", eval("y * 10"))


exec_uses_snapshot()


def comprehension_locals():
    base = 1
    print("inlined comprehension:", [sorted(locals()) for _ in range(1)][0])


comprehension_locals()


class Body:
    k = 1
    ns = locals()
    ns["added"] = 2
    print("class body namespace is live:", type(ns).__name__, "added" in ns)


print("class attr:", Body.added)
print("module locals is globals:", locals() is globals(), vars() is globals())
