# PyOS_snprintf is exported by the interpreter (ctypes.pythonapi finds it):
# it formats like snprintf, always NUL-terminates, returns the full length.
from ctypes import c_buffer, sizeof, pythonapi, c_int

buf = c_buffer(64)
n = pythonapi.PyOS_snprintf(buf, sizeof(buf), b"Hello from %s", b"ctypes")
print(n, buf.value)
n = pythonapi.PyOS_snprintf(buf, sizeof(buf), b"%d|%5s|%x", c_int(42), b"ab", c_int(255))
print(n, buf.value)
small = c_buffer(b"xxxxxxxx", 8)
n = pythonapi.PyOS_snprintf(small, 5, b"%s", b"truncated")
print(n, small.raw)
n = pythonapi.PyOS_snprintf(None, 0, b"%d", c_int(123456))
print(n)
