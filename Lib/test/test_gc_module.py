# The gc module: generations, collect(generation), get_objects,
# get_referrers/get_referents, callbacks, garbage with DEBUG_SAVEALL,
# freeze/unfreeze, is_finalized, and the argument errors.
import gc

class Node:
    def __init__(self, name):
        self.name = name
        self.other = None

def make_cycle(tag):
    a, b = Node(tag + "a"), Node(tag + "b")
    a.other, b.other = b, a

gc.collect()
print("enabled:", gc.isenabled(), "| debug:", gc.get_debug())
print("flags:", gc.DEBUG_STATS, gc.DEBUG_COLLECTABLE, gc.DEBUG_UNCOLLECTABLE,
      gc.DEBUG_SAVEALL, gc.DEBUG_LEAK)
# Only explicit collections from here: an automatic one (at every
# allocation in the stress build) would find the cycles first.
gc.disable()

make_cycle("x")
print("young collection finds the new cycle:", gc.collect(0) >= 2)
make_cycle("y")
print("full collection finds it too:", gc.collect() >= 2)
print("nothing left:", gc.collect())

# get_objects: a tracked new object is in the young generation, then old.
probe = Node("probe")
print("young has it:", any(o is probe for o in gc.get_objects(0)))
gc.collect(0)
print("after a young collection: young", any(o is probe for o in gc.get_objects(0)),
      "older", any(o is probe for o in gc.get_objects(1) + gc.get_objects(2)),
      "all", any(o is probe for o in gc.get_objects()))
print("negative means all:", any(o is probe for o in gc.get_objects(-1)))
for bad in (3,):
    try:
        gc.get_objects(bad)
    except ValueError as e:
        print("get_objects(%d):" % bad, e)

# referrers and referents
holder = [probe]
d = {"k": probe}
refs = gc.get_referrers(probe)
print("referrers:", any(r is holder for r in refs), any(r is d for r in refs))
print("referents of holder:", gc.get_referents(holder) == [probe])
print("referents of ints:", gc.get_referents(1, 2.0))
print("tracked:", gc.is_tracked(holder), gc.is_tracked(1), gc.is_tracked("s"))

# callbacks see start and stop with the generation and the count
events = []
def cb(phase, info):
    events.append((phase, info["generation"], info["collected"] >= 0, info["uncollectable"]))
gc.callbacks.append(cb)
make_cycle("z")
gc.collect()
gc.callbacks.remove(cb)
print("callbacks:", events)

# a callback that raises is reported, the collection goes on
import sys
seen = []
def hook(u):
    seen.append(type(u.exc_value).__name__)
old_hook = sys.unraisablehook
sys.unraisablehook = hook
def bad_cb(phase, info):
    raise RuntimeError(phase)
gc.callbacks.append(bad_cb)
gc.collect()
gc.callbacks.remove(bad_cb)
sys.unraisablehook = old_hook
print("raising callback:", seen)

# DEBUG_SAVEALL keeps the garbage in gc.garbage
gc.set_debug(gc.DEBUG_SAVEALL)
make_cycle("s")
gc.collect()
gc.set_debug(0)
print("saved:", sorted(o.name for o in gc.garbage if isinstance(o, Node)))
for o in gc.garbage:
    if isinstance(o, Node):
        o.other = None
gc.garbage.clear()

# freeze moves everything out of the collector's way
gc.freeze()
print("frozen some:", gc.get_freeze_count() > 0)
make_cycle("f")
print("new cycle still collected:", gc.collect() >= 2)
gc.unfreeze()
print("unfrozen:", gc.get_freeze_count())

# finalizers
class Fin:
    def __del__(self):
        print("del ran")
f = Fin()
f.me = f
print("finalized before:", gc.is_finalized(f))
del f
gc.collect()

print("threshold type:", type(gc.get_threshold()).__name__, len(gc.get_threshold()))
print("count:", len(gc.get_count()))
stats = gc.get_stats()
print("stats:", len(stats), sorted(stats[0]))
try:
    gc.collect(5)
except ValueError as e:
    print("collect(5):", e)
