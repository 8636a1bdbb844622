# -X jit, PYTHON_JIT and -X jit_stress: a build with tier 2 honours them;
# a build without refuses each with a message and exit status 2, never
# accepting a switch it cannot honour.
import os
import subprocess
import sys

PROBE = "import sys; print(sys._jit.is_enabled())"


def run(args, **env):
    environ = dict(os.environ, **env)
    if "PYTHON_JIT" not in env:
        environ.pop("PYTHON_JIT", None)
    return subprocess.run([sys.executable, *args, "-c", PROBE],
                          capture_output=True, text=True, env=environ)


has_tier2 = run(["-X", "jit"]).returncode == 0
cases = [
    ("-X jit", ["-X", "jit"], {}, "True"),
    ("PYTHON_JIT=1", [], {"PYTHON_JIT": "1"}, "True"),
    ("-X jit_stress", ["-X", "jit_stress"], {}, "False"),
    ("-X jit -X jit_stress", ["-X", "jit", "-X", "jit_stress"], {}, "True"),
]
for label, args, env, enabled in cases:
    child = run(args, **env)
    if has_tier2:
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
