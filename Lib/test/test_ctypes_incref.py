# Py_IncRef/Py_DecRef are exported: the function forms of Py_XINCREF and
# Py_XDECREF (NULL is allowed), callable through ctypes.pythonapi.
import sys
from ctypes import pythonapi, py_object, c_void_p

pythonapi.Py_IncRef.argtypes = [py_object]
pythonapi.Py_DecRef.argtypes = [py_object]
pythonapi.Py_IncRef.restype = None
pythonapi.Py_DecRef.restype = None

class Thing:
    pass

t = Thing()
before = sys.getrefcount(t)
pythonapi.Py_IncRef(t)
print(sys.getrefcount(t) - before)
pythonapi.Py_DecRef(t)
print(sys.getrefcount(t) - before)

# NULL is a no-op
pythonapi.Py_IncRef.argtypes = [c_void_p]
pythonapi.Py_DecRef.argtypes = [c_void_p]
pythonapi.Py_IncRef(None)
pythonapi.Py_DecRef(None)
print("null ok")
