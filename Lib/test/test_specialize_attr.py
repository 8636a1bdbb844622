# LOAD_ATTR_WITH_HINT / STORE_ATTR_WITH_HINT: instance attributes found
# at a remembered position of the instance dict.  Run hot, then break
# every assumption and compare with the generic path.
N = 50


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def bump(self):
        self.x = self.x + 1
        self.y += self.x
        return self.y


def get_x(o):
    return o.x


def get_y(o):
    return o.y


def set_x(o, v):
    o.x = v


v = Vec(1, 2)
for i in range(N):
    v.bump()
print("hot", v.x, v.y)
vs = [Vec(i, i * 2) for i in range(N)]
print("sum", sum(get_x(o) + get_y(o) for o in vs))
for o in vs:
    set_x(o, 5)
print("set", sum(get_x(o) for o in vs))

# Attribute deleted: the entry is gone, the generic path raises.
w = Vec(3, 4)
del w.x
show("deleted load", lambda: get_x(w))
set_x(w, 9)
print("re-added", get_x(w), get_y(w), list(w.__dict__))

# Different insertion order: the name is at another position.
z = Vec(0, 0)
z.__dict__.clear()
z.y = "why"
z.x = "ex"
print("reordered", get_x(z), get_y(z))
set_x(z, "ex2")
print("reordered set", get_x(z), z.__dict__)

# The dict replaced through __dict__, and a dict subclass.
r = Vec(1, 1)
r.__dict__ = {"x": "replaced", "y": 0}
print("replaced", get_x(r))
set_x(r, "replaced2")
print("replaced set", get_x(r), r.__dict__)


class LoudDict(dict):
    def __getitem__(self, k):
        return "loud"


r.__dict__ = LoudDict(x="sub", y=1)
print("dict subclass", get_x(r), get_y(r))
set_x(r, "sub2")
print("dict subclass set", get_x(r), type(r.__dict__).__name__)
r.__dict__ = {}
show("empty dict", lambda: get_x(r))

# A class attribute, a property and a slot-like descriptor shadowing later.
for i in range(N):
    get_x(vs[i])
Vec.x = "class attr"
print("class attr (instance wins)", get_x(vs[0]))
Vec.x = property(lambda self: "property")
print("property wins", get_x(vs[0]))
show("property set", lambda: set_x(vs[0], 1))
del Vec.x
print("back to dict", get_x(vs[0]))
set_x(vs[0], 77)
print("set again", get_x(vs[0]))

# __class__ assignment to a class without the attribute / with a getattr.


class Other:
    def __getattr__(self, name):
        return "getattr " + name


o = Vec(8, 9)
for i in range(N):
    get_x(o)
o.__class__ = Other
print("class changed", get_x(o))
del o.x
print("class changed deleted", get_x(o))

# Many attributes: late positions, and an instance without a dict entry.


class Wide:
    pass


ws = []
for i in range(N):
    x = Wide()
    for k in range(40):
        setattr(x, "a%d" % k, k * i)
    ws.append(x)


def get_a39(o):
    return o.a39


print("wide", sum(get_a39(x) for x in ws))
show("wide missing", lambda: get_a39(Wide()))

# The stored value is released when replaced.


class Noisy:
    def __init__(self, tag):
        self.tag = tag

    def __del__(self):
        print("  del", self.tag)


holder = Vec(None, None)
for i in range(3):
    set_x(holder, Noisy(i))
set_x(holder, None)
print("done noisy")

# Integer-like keys cannot collide with names.
q = Vec(1, 2)
q.__dict__[1] = "int key"
print("int key", get_x(q), get_y(q))
