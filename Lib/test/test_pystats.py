# -X pystats: a stats build (configure --enable-experimental-jit=interpreter
# --enable-pystats) prints tier 2's figures at exit, with a table of the
# uops run; any other build refuses the option with a message and status 2.
import subprocess
import sys

PROGRAM = """
def f(n):
    s = 0
    for i in range(n):
        s += i
    return s
print(f(1000))
"""

child = subprocess.run([sys.executable, "-X", "pystats", "-X", "jit", "-c", PROGRAM],
                       capture_output=True, text=True)
import os
env = dict(os.environ, PYTHONSTATS="1")
by_env = subprocess.run([sys.executable, "-c", "pass"], env=env, capture_output=True, text=True)
if child.returncode == 2 and "counts no statistics" in child.stderr:
    assert child.stdout == "", child.stdout
    assert by_env.returncode == 2 and "counts no statistics" in by_env.stderr, by_env
else:
    assert child.returncode == 0, child.stderr
    assert child.stdout == "499500\n", child.stdout
    lines = child.stderr.splitlines()
    assert lines[0] == "tier 2 statistics:", lines[:3]
    figures = {}
    for line in lines[1:]:
        words = line.split()
        if words and words[-1].isdigit():
            figures[" ".join(words[:-1])] = int(words[-1])
    assert figures["traces recorded"] >= 1 and figures["uops executed"] > 1000, figures
    table = [line.split() for line in lines if line.strip().startswith("_")]
    names = [row[0] for row in table]
    assert "_BINARY_OP_ADD_INT" in names and "_JUMP_TO_TOP" in names, names
    assert by_env.returncode == 0 and by_env.stderr.startswith("tier 2 statistics:"), by_env
print("pystats: checked")
