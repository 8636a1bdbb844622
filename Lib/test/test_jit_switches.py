# -X jit, PYTHON_JIT and -X jit_stress: a build with tier 2 honours them;
# a build without refuses each with a message and exit status 2, never
# accepting a switch it cannot honour.
import os
import subprocess
import sys
import sysconfig

PROBE = "import sys; print(sys._jit.is_enabled())"


def run(args, **env):
    environ = dict(os.environ, **env)
    if "PYTHON_JIT" not in env:
        environ.pop("PYTHON_JIT", None)
    return subprocess.run([sys.executable, *args, "-c", PROBE],
                          capture_output=True, text=True, env=environ)


has_tier2 = run(["-X", "jit"]).returncode == 0
# --enable-experimental-jit=yes builds have the JIT on unless switched off.
build = sysconfig.get_config_var("ENABLE_JIT")
default_on = str(build == "yes")
# is_available(): machine code can be made, exactly on builds with the JIT.
assert sys._jit.is_available() == (build in ("yes", "yes-off")), build
print("is_available true to the build")
cases = [
    ("-X jit", ["-X", "jit"], {}, "True"),
    ("PYTHON_JIT=1", [], {"PYTHON_JIT": "1"}, "True"),
    ("no switch", [], {}, default_on),
    ("-X jit_stress", ["-X", "jit_stress"], {}, default_on),
    ("-X jit -X jit_stress", ["-X", "jit", "-X", "jit_stress"], {}, "True"),
]
for label, args, env, enabled in cases:
    child = run(args, **env)
    if has_tier2 or not (args or env):
        assert child.returncode == 0 and child.stdout.strip() == enabled, (label, child)
    else:
        assert child.returncode == 2 and "this build has no tier 2" in child.stderr, (label, child)
        assert child.stdout == "", (label, child.stdout)
    print(label, "handled")
# Switched off, or not asked for: always runs, tier 2 off.
for label, args, env in (("-X jit=0", ["-X", "jit=0"], {}), ("PYTHON_JIT=0", [], {"PYTHON_JIT": "0"})):
    child = run(args, **env)
    assert child.returncode == 0 and child.stdout.strip() == "False", (label, child)
    print(label, "off")
# -X perf names each executor's code in /tmp/perf-PID.map; a build that
# makes no machine code refuses it.
LOOP = "import os\nfor i in range(1000): pass\nprint(os.getpid())"
child = subprocess.run([sys.executable, "-X", "jit", "-X", "perf", "-c", LOOP],
                       capture_output=True, text=True)
if sys._jit.is_available():
    assert child.returncode == 0, child
    path = f"/tmp/perf-{child.stdout.strip()}.map"
    with open(path) as perf_map:
        lines = perf_map.read().splitlines()
    os.unlink(path)
    named = [line.split(" ", 2) for line in lines if line.endswith(" py::jit:<module>:<string>:1")]
    assert len(named) == 1 and int(named[0][0], 16) and int(named[0][1], 16), lines
else:
    assert child.returncode == 2 and "no JIT code" in child.stderr, child
print("-X perf handled")
