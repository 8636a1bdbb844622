# The atexit module: callbacks run at exit, last registered first, with
# their arguments; unregister; failing callbacks are reported and skipped.

import atexit
import sys


class Named:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "<%s>" % self.name

    def __call__(self, *args, **kwargs):
        print("called", self.name, args, sorted(kwargs.items()))


class Failing(Named):
    def __call__(self):
        print("failing", self.name)
        raise ValueError("boom from " + self.name)


print("--- _run_exitfuncs and _clear")
atexit.register(Named("early1"))
atexit.register(Named("early2"), x=1)
print(atexit._ncallbacks())
atexit._run_exitfuncs()
print(atexit._ncallbacks())
atexit.register(Named("cleared"))
atexit._clear()
print(atexit._ncallbacks())

print("--- register and unregister")
a = Named("a")
print(atexit.register(a) is a)
atexit.register(Named("b"), 1, 2, key="v")
atexit.register(Failing("c"))
gone = Named("gone")
atexit.register(gone)
atexit.register(gone, "again")
print(atexit._ncallbacks())
atexit.unregister(gone)
print(atexit._ncallbacks())
atexit.unregister(Named("never registered"))
print(atexit._ncallbacks())

print("--- errors")
try:
    atexit.register(1)
except TypeError as e:
    print("TypeError:", e)
try:
    atexit.register()
except TypeError as e:
    print("TypeError:", e)


def registers_more():
    print("registers_more runs")


@atexit.register
def decorated():
    print("decorated runs")


atexit.register(registers_more)
atexit.register(Named("d"))


# At exit the interpreter first asks threading to join its threads, then
# runs the callbacks.
class FakeThreading:
    @staticmethod
    def _shutdown():
        print("threading._shutdown called")


sys.modules["threading"] = FakeThreading
print("end of main")
