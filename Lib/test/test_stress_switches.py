# PYTHONSTRESSALLOC=N[:M] (Doc/stress.md): the stress build fails the
# main program's allocations N to M; any other build refuses the variable
# with a message and exit status 2 rather than ignoring it.
import os
import subprocess
import sys
import sysconfig

stress = bool(sysconfig.get_config_var("Py_STRESS"))
PROGRAM = "x = [str(i) for i in range(100)]\nprint(len(x))"


def run(value):
    env = dict(os.environ, PYTHONSTRESSALLOC=value)
    return subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True)


for value in ("1", "5:9", "30:", "1000000"):
    child = run(value)
    if not stress:
        assert child.returncode == 2 and "configure --with-stress" in child.stderr, child
    elif value == "1000000":
        # Past the program's last allocation: nothing fails.
        assert child.returncode == 0 and child.stdout == "100\n", child
    else:
        # The program dies of MemoryError, reported (with memory back) or
        # not; never a crash.
        assert child.returncode == 1 and child.stdout == "", child
    print(value, "handled")
for bad in ("0", "x", "5:3", "2:x", "-1"):
    child = run(bad)
    assert child.returncode == 2, child
    assert ("takes N, N:M or N:" if stress else "configure --with-stress") in child.stderr, child
    print(repr(bad), "refused")
# -E ignores it, as every PYTHON* variable.
env = dict(os.environ, PYTHONSTRESSALLOC="1")
child = subprocess.run([sys.executable, "-E", "-c", "print('ran')"], env=env, capture_output=True, text=True)
print("-E:", child.returncode, child.stdout.strip())
