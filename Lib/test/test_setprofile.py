import sys
def prof(frame, event, arg):
    name = getattr(arg, "__qualname__", None) or getattr(arg, "__name__", None) if event.startswith("c_") else (type(arg).__name__ if arg is not None else None)
    print(f"{event} {frame.f_code.co_name}:{frame.f_lineno - frame.f_code.co_firstlineno} {name}")

def gen():
    yield 1
    yield 2

def f(x):
    l = []
    l.append(len([x]))
    sorted([3, 1], key=abs)
    try:
        int("z")
    except ValueError:
        pass
    return sum(gen())

sys.setprofile(prof)
f(1)
sys.setprofile(None)
print(sys.getprofile())


class K:
    def method(self):
        return [1, 2].index(2)

def uses_methods():
    k = K()
    "a,b".split(",")
    return k.method()

sys.setprofile(prof)
uses_methods()
sys.setprofile(None)


# A profile function that raises is removed and the error propagates.
def broken(frame, event, arg):
    raise KeyError("profiler")

sys.setprofile(broken)
try:
    f(2)
except KeyError as e:
    print("error:", e, sys.getprofile())
