# Classes made by a heap metaclass hold one reference to it: the collector
# must count that reference once, or it clears the live metaclass.
import gc

class Meta(type):
    counter = 0
    def __new__(mcls, name, bases, ns):
        cls = super().__new__(mcls, name, bases, ns)
        cls.serial = Meta.counter
        Meta.counter += 1
        return cls

classes = [Meta("C%d" % i, (), {}) for i in range(50)]
gc.collect()
print(sorted(k for k in Meta.__dict__ if not k.startswith("__")))
print(Meta("After", (), {}).serial, Meta.counter)
del classes
gc.collect()
print(Meta.counter, type(Meta("Again", (), {})).__name__)
