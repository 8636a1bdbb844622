# Hash randomization: the str/bytes hash key comes from the OS at start-up,
# PYTHONHASHSEED=N derives it from N, and 0 turns randomization off.
import os
import subprocess
import sys

PROBE = 'import sys; print(sys.flags.hash_randomization, hash("abc"), hash(b"abc"), hash("\\u20ac"))'


def run(seed, *options):
    env = dict(os.environ)
    env.pop("PYTHONHASHSEED", None)
    if seed is not None:
        env["PYTHONHASHSEED"] = seed
    proc = subprocess.run([sys.executable, *options, "-c", PROBE], env=env,
                          capture_output=True, text=True)
    return proc.returncode, proc.stdout.split(), proc.stderr


# Seed 0: no randomization, the documented all-zero key (same as CPython's).
rc, out, err = run("0")
print("seed 0:", rc, out, err == "")

# A numeric seed gives the same hashes every run, and CPython's for that seed.
a = run("42")
b = run("42")
print("seed 42 repeatable:", a == b, a[1])
print("seed 42 differs from 43:", a[1][1:] != run("43")[1][1:])
print("'+12' is 12:", run("+12")[1] == run("12")[1])

# Unset and "random": a fresh key each run (five runs all equal would be
# a 2**-256 accident).
randoms = [tuple(run(None)[1]) for _ in range(3)] + [tuple(run("random")[1]) for _ in range(2)]
print("random flag:", {r[0] for r in randoms})
print("random runs differ:", len({r[1:] for r in randoms}) > 1)
print("str and bytes agree:", all(r[1] == r[2] for r in randoms))

# -R wins over PYTHONHASHSEED=0; -E ignores the variable.
rc, out, err = run("0", "-R")
print("-R with seed 0:", out[0], out[1:] != run("0")[1][1:])
rc, out, err = run("not-a-number", "-E")
print("-E ignores it:", rc, out[0])

# Bad values stop start-up with one message.
for bad in ["x", "-1", "4294967296", "12 "]:
    rc, out, err = run(bad)
    print(repr(bad), rc, out, err.strip())
print("max accepted:", run("4294967295")[0])

print(sys.hash_info.algorithm, sys.hash_info.hash_bits, sys.hash_info.seed_bits)
