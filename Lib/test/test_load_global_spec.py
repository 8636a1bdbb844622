# LOAD_GLOBAL_MODULE / LOAD_GLOBAL_BUILTIN: cached by the keys versions of
# globals and builtins.  Each step runs a site hot, then changes what it
# depends on; the answers must follow.
import builtins

REPEAT = 40
counter = 0


def read_global():
    return counter


def read_builtin():
    return len("abc")


def hot(fn):
    for _ in range(REPEAT):
        result = fn()
    return result


print("global", hot(read_global))
counter = 5  # a value change keeps the keys: still the same entry
print("after value change", hot(read_global))
for i in range(REPEAT):
    counter = i
    assert read_global() == i
print("changing every call", read_global())

print("builtin", hot(read_builtin))
len = lambda s: "shadowed"  # noqa: E731  a new key in globals
print("shadowed by a global", hot(read_builtin))
del len
print("shadow removed", hot(read_builtin))

saved = builtins.len
builtins.len = lambda s: "patched builtins"
print("builtins value replaced", hot(read_builtin))
builtins.len = saved
print("restored", hot(read_builtin))

del counter
try:
    read_global()
except NameError as e:
    print("deleted:", e)
counter = "back"
print("recreated", hot(read_global))

# One code object, several globals dicts.
source = "def get():\n    return value\n"
namespaces = []
for tag in ("a", "b", "c"):
    ns = {"value": tag}
    exec(source, ns)
    namespaces.append(ns)
shared = namespaces[0]["get"].__code__
import types  # noqa: E402
funcs = [types.FunctionType(shared, ns) for ns in namespaces]
print("same code, other globals", [[f() for _ in range(REPEAT)][-1] for f in funcs])


class Loud(dict):
    lookups = 0

    def __getitem__(self, key):
        Loud.lookups += 1
        return super().__getitem__(key)


ns = Loud(__builtins__=builtins)
exec("def probe():\n    return len('xy')\n", ns)
print("dict subclass globals", hot(ns["probe"]), Loud.lookups >= REPEAT)

# Many keys added to globals while a site is hot (each one resets the keys
# version; the site respecializes or stays generic, always right).
for i in range(200):
    globals()[f"extra_{i}"] = i
    assert read_builtin() == 3
print("after many new globals", read_builtin())

# Builtins dict swapped under a function via a fresh globals.
custom_builtins = {"len": lambda s: "custom"}
g = {"__builtins__": custom_builtins}
exec("def via_custom():\n    return len('z')\n", g)
print("custom builtins", hot(g["via_custom"]))
custom_builtins["len"] = lambda s: "custom 2"
print("custom builtins value", hot(g["via_custom"]))
del custom_builtins["len"]
try:
    g["via_custom"]()
except NameError as e:
    print("gone from builtins:", e)
