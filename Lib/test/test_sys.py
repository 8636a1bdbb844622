# The sys module: versions, implementation, flags, limits, std streams.
import sys

print(sys.version_info[:2], sys.version_info.major, sys.version_info >= (3, 14))
print(type(sys.version_info).__name__, len(sys.version_info), sys.version_info.releaselevel)
print(sys.implementation.name, sys.implementation.version[:2] == sys.version_info[:2])
print(sys.implementation.cache_tag)  # ours, so caches never mix with CPython's
print(sys.flags.optimize, sys.flags.dev_mode, sys.maxsize == 2 ** 63 - 1, sys.byteorder)
print(sys.getrecursionlimit())
sys.setrecursionlimit(500)
print(sys.getrecursionlimit())
sys.setrecursionlimit(1000)
print(sys._jit.is_available() in (True, False), hasattr(sys.stdout, "write"))
sys.stdout.write("written directly\n")
print("to stderr", file=sys.stderr)
print(sys.exception())
try:
    raise KeyError("k")
except KeyError:
    print(repr(sys.exception()), sys.exc_info()[0].__name__)
print(sys.exception())
print(sys._getframe().f_code.co_name, sys._getframe().f_lineno)
def inner():
    return sys._getframe(1).f_code.co_name
print(inner())
print("sys" in sys.modules, "builtins" in sys.modules, type(sys.argv).__name__)
