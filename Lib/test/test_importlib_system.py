# The import system is importlib: specs, loaders, finders, namespace
# packages, bytecode caching in __pycache__, and the errors imports raise.
import sys
import os
import importlib
import importlib.util
import importlib.machinery
import _imp

here = os.path.dirname(os.path.abspath(__file__))

# The machinery in place.
print([getattr(f, "__name__", type(f).__name__) for f in sys.meta_path])
print(len(sys.path_hooks) >= 1, isinstance(sys.path_importer_cache, dict))
print(sys.modules["importlib._bootstrap"] is sys.modules["_frozen_importlib"])

# Built-in modules.
import math
print(math.__spec__.origin, math.__loader__ is importlib.machinery.BuiltinImporter)
print(_imp.is_builtin("math"), _imp.is_builtin("sys"), _imp.is_builtin("nope"))
print("math" in sys.builtin_module_names, "os" in sys.stdlib_module_names)

# A source module: its spec, loader, file and cache.
import mainpkg.helper as helper
spec = helper.__spec__
print(spec.name, spec.parent, type(spec.loader).__name__, spec.has_location)
print(os.path.relpath(helper.__file__, here))
print(os.path.relpath(helper.__cached__, here))
print(sys.implementation.cache_tag in helper.__cached__)
print(importlib.util.find_spec("mainpkg").submodule_search_locations == [os.path.join(here, "mainpkg")])

# Namespace packages span directories and have no __file__.
sys.path[:0] = [os.path.join(here, "nspkg_a"), os.path.join(here, "nspkg_b")]
import nsp.mod_a, nsp.mod_b
print(nsp.mod_a.WHO, nsp.mod_b.WHO, nsp.__file__, len(nsp.__path__))
print(type(nsp.__spec__.loader).__name__)

# import_module, relative names, reload.
m = importlib.import_module(".helper", "mainpkg")
print(m is helper, importlib.reload(helper) is helper)

# Bytecode caching: written on import, used next time, ignored when corrupt.
source = os.path.join(here, "cached_mod_%d.py" % os.getpid())
with open(source, "w") as f:
    f.write("VALUE = 41 + 1\n")
sys.path.insert(0, here)
name = os.path.basename(source)[:-3]
mod = importlib.import_module(name)
cache = importlib.util.cache_from_source(source)
print(mod.VALUE, os.path.exists(cache), os.path.basename(cache).split(".")[1])
with open(cache, "rb") as f:
    data = f.read()
print(data[:4] == importlib.util.MAGIC_NUMBER, data[2:4] == b"\r\n")
# A cache with a bad header (stale magic, truncated) is ignored and
# rewritten, as in CPython; one whose header is right but whose body is
# not code makes the import fail, as in CPython.
for broken in (b"\0\0\0\0" + data[4:], data[:10]):
    with open(cache, "wb") as f:
        f.write(broken)
    del sys.modules[name]
    mod = importlib.import_module(name)
    with open(cache, "rb") as f:
        print("bad header ignored:", mod.VALUE, f.read() == data)
with open(cache, "wb") as f:
    f.write(data[:16] + b"N")
del sys.modules[name]
try:
    importlib.import_module(name)
except ImportError as e:
    print("non-code body:", type(e).__name__, str(e).split(" in ")[0])
os.remove(source)
os.remove(cache)

# The errors.
try:
    import no_such_module_xyz
except ModuleNotFoundError as e:
    print(type(e).__name__, e, e.name)
try:
    import mainpkg.nothing_here
except ModuleNotFoundError as e:
    print(type(e).__name__, e, e.name)
try:
    import math.sub
except ModuleNotFoundError as e:
    print(type(e).__name__, e)
try:
    from mainpkg import not_a_name
except ImportError as e:
    print(type(e).__name__, e.name, str(e).split(" (")[0])
try:
    importlib.import_module("..x", "mainpkg")
except ImportError as e:
    print(type(e).__name__, e)
try:
    exec("from . import x", {"__name__": "toplevel", "__package__": ""})
except ImportError as e:
    print(type(e).__name__, e)
sys.modules["blocked_mod"] = None
try:
    import blocked_mod
except ModuleNotFoundError as e:
    print(type(e).__name__, e)
try:
    __import__("")
except ValueError as e:
    print(type(e).__name__, e)
try:
    __import__(42)
except TypeError as e:
    print(type(e).__name__, e)
