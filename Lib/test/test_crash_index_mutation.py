# An index or slice bound whose __index__ resizes the sequence being
# indexed: sizes must be read after the conversion (was a crash or a
# write past the end).
class X:
    def __index__(self):
        del L[:]
        return 1
L = [1, 2, 3]
print(L[:X()])
L = list(range(5))
print(L[0:10:X()])
L = list(range(10))
class Y:
    def __index__(self):
        L[:] = []
        return 1
L[0:10:Y()] = []
print(L)
import array
for make in (lambda: bytearray(b'abcdefghij'), lambda: array.array('b', range(10)), lambda: list(range(10))):
    s = make()
    class X:
        def __index__(self):
            del s[:]
            return 1
    for op in ("get", "set", "del"):
        s = make()
        try:
            if op == "get": r = s[0:10:X()]
            elif op == "set": s[0:10:X()] = make()[:0]
            else: del s[0:10:X()]
            print(type(s).__name__, op, len(s))
        except Exception as e:
            print(type(s).__name__, op, type(e).__name__, e)


import array
for make in (lambda: bytearray(b'abcdefghij'), lambda: array.array('b', range(10)), lambda: list(range(10))):
    s = make()
    class X:
        def __index__(self):
            del s[:]
            return 5
    for op in ("get", "set", "del"):
        s = make()
        try:
            if op == "get": r = s[X()]
            elif op == "set": s[X()] = 1
            else: del s[X()]
            print(type(s).__name__, op, len(s))
        except Exception as e:
            print(type(s).__name__, op, type(e).__name__, e)
