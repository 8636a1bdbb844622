# resource: limits read, lowered and restored, prlimit on this process,
# getrusage's struct_rusage, the page size, and the error cases.  Limits
# differ between machines, so only their types and relations are shown.
import os
import resource


def attempt(label, f, *args):
    try:
        res = f(*args)
    except Exception as e:
        print(label, type(e).__name__, e, getattr(e, "errno", None))
    else:
        print(label, "ok", repr(res) if res is None else type(res).__name__)


print(resource.error is OSError, resource.RLIM_INFINITY)
names = [n for n in dir(resource) if n.startswith(("RLIMIT_", "RUSAGE_"))]
print(names)
print(all(type(getattr(resource, n)) is int for n in names))
print(resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN, resource.RUSAGE_THREAD)

for name in [n for n in names if n.startswith("RLIMIT_")]:
    soft, hard = resource.getrlimit(getattr(resource, name))
    ok = hard == resource.RLIM_INFINITY or (soft != resource.RLIM_INFINITY and soft <= hard)
    print(name, type(soft).__name__, type(hard).__name__, ok)

# Lower the core-file soft limit and put it back.
core = resource.getrlimit(resource.RLIMIT_CORE)
resource.setrlimit(resource.RLIMIT_CORE, (0, core[1]))
print("core lowered:", resource.getrlimit(resource.RLIMIT_CORE) == (0, core[1]))
resource.setrlimit(resource.RLIMIT_CORE, core)
print("core restored:", resource.getrlimit(resource.RLIMIT_CORE) == core)
resource.setrlimit(resource.RLIMIT_CORE, [0, core[1]])
print("list accepted:", resource.getrlimit(resource.RLIMIT_CORE)[0])
resource.setrlimit(resource.RLIMIT_CORE, core)

nofile = resource.getrlimit(resource.RLIMIT_NOFILE)
print("prlimit read:", resource.prlimit(0, resource.RLIMIT_NOFILE) == nofile)
print("prlimit pid:", resource.prlimit(os.getpid(), resource.RLIMIT_NOFILE) == nofile)
print("prlimit None:", resource.prlimit(0, resource.RLIMIT_NOFILE, None) == nofile)
print("prlimit set:", resource.prlimit(0, resource.RLIMIT_CORE, (0, core[1])) == core)
print("prlimit old:", resource.prlimit(0, resource.RLIMIT_CORE, core) == (0, core[1]))

usage = resource.getrusage(resource.RUSAGE_SELF)
t = resource.struct_rusage
print(t.__name__, t.__module__, t.n_fields, t.n_sequence_fields, len(usage))
print([type(x).__name__ for x in usage])
print([f for f in dir(usage) if f.startswith("ru_")])
print(usage.ru_utime >= 0, usage.ru_maxrss > 0, usage[2] == usage.ru_maxrss)
print(type(resource.getrusage(resource.RUSAGE_CHILDREN)).__name__)
print(type(resource.getrusage(resource.RUSAGE_THREAD)).__name__)
print(resource.struct_rusage(tuple(range(16))).ru_nivcsw)

page = resource.getpagesize()
print(type(page).__name__, page > 0, page & (page - 1) == 0, page == os.sysconf("SC_PAGESIZE"))

attempt("getrlimit 999", resource.getrlimit, 999)
attempt("getrlimit -1", resource.getrlimit, -1)
attempt("getrlimit str", resource.getrlimit, "a")
attempt("getrlimit big", resource.getrlimit, 2**70)
attempt("getrlimit none", resource.getrlimit)
attempt("setrlimit short", resource.setrlimit, resource.RLIMIT_CORE, (1,))
attempt("setrlimit long", resource.setrlimit, resource.RLIMIT_CORE, (1, 2, 3))
attempt("setrlimit int", resource.setrlimit, resource.RLIMIT_CORE, 5)
attempt("setrlimit str item", resource.setrlimit, resource.RLIMIT_CORE, ("a", 1))
attempt("setrlimit float", resource.setrlimit, resource.RLIMIT_CORE, (1.5, 2))
attempt("setrlimit soft>hard", resource.setrlimit, resource.RLIMIT_CORE, (2, 1))
attempt("setrlimit bad resource", resource.setrlimit, 999, (1, 1))
attempt("setrlimit nargs", resource.setrlimit, 1)
attempt("getrusage bad", resource.getrusage, 99)
attempt("getrusage str", resource.getrusage, "x")
attempt("prlimit none", resource.prlimit)
attempt("prlimit many", resource.prlimit, 1, 2, 3, 4)
attempt("prlimit bad resource", resource.prlimit, 0, 999)
attempt("prlimit no process", resource.prlimit, 999999999, resource.RLIMIT_CORE)
attempt("prlimit str pid", resource.prlimit, "a", 1)
attempt("prlimit short", resource.prlimit, 0, resource.RLIMIT_CORE, (1,))
attempt("prlimit int", resource.prlimit, 0, resource.RLIMIT_CORE, 5)
attempt("prlimit soft>hard", resource.prlimit, 0, resource.RLIMIT_CORE, (2, 1))
attempt("getpagesize arg", resource.getpagesize, 1)
try:
    resource.getrlimit(resource=1)
except TypeError as e:
    print("keywords:", e)
