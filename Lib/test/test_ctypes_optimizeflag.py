# Py_OptimizeFlag (the deprecated global) follows -O / -OO like sys.flags.optimize.
import subprocess, sys
code = ("import sys; from ctypes import c_int, pythonapi; "
        "print(c_int.in_dll(pythonapi, 'Py_OptimizeFlag').value, sys.flags.optimize)")
for opts in [[], ["-O"], ["-OO"]]:
    out = subprocess.run([sys.executable, *opts, "-c", code], capture_output=True, text=True)
    print(opts, out.stdout.strip(), out.stderr.strip()[-80:])
