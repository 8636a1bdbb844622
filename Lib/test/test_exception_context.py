# __context__ chaining (cycles cut, pre-existing cycles left alone), matching
# of exception classes and tuples, and errno errors with a file name.
def chain(e):
    out = []
    seen = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e)); out.append(type(e).__name__); e = e.__context__
    return out
class A(Exception): pass
class B(Exception): pass
class C(Exception): pass
try:
    try:
        raise A
    except A as a:
        try:
            raise B
        except B as b:
            try:
                raise a
            except A as a2:
                print(chain(a2), chain(b))
except Exception as e:
    print("outer", chain(e))
# a pre-existing cycle must not hang
a, b = A(), B()
a.__context__ = b; b.__context__ = a
try:
    try:
        raise a
    except A:
        raise C
except C as c:
    print(chain(c))
print(isinstance(1, int), issubclass(A, (B, (C, A))))
try:
    raise A
except (B, C, A):
    print("tuple matched")
try:
    try:
        raise A
    except (B, (C, (A,))):
        pass
except TypeError as e:
    print("nested:", e)
import errno, os
try:
    os.stat("/nonexistent/file")
except OSError as e:
    print(e.errno == errno.ENOENT, e.filename)
