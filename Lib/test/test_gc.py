# The cycle collector and the gc module.
import gc


class Node:
    def __init__(self, name):
        self.name = name
        self.other = None

    def __del__(self):
        print("finalized", self.name)


a = Node("a")
b = Node("b")
a.other = b
b.other = a
del a, b
print("collected at least the pair:", gc.collect() >= 2)
print(gc.isenabled(), gc.is_tracked([]), gc.is_tracked(1), gc.is_tracked("s"))
gc.disable()
print(gc.isenabled())
gc.enable()
print(gc.isenabled(), len(gc.get_threshold()), type(gc.get_count()).__name__)

cycles = []
for i in range(50000):
    x = []
    x.append(x)
    cycles.append(len(x))
del x
print(sum(cycles), gc.collect() >= 0)
