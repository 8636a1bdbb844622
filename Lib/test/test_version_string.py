# sys.version has CPython's shape, "X.Y.Z (build, date, time) [compiler]",
# which platform and other tools parse; -V and -VV print it.
import platform
import re
import subprocess
import sys

print(platform.python_implementation())
print(bool(re.fullmatch(r"3\.14\.0 \(lazypy, \w{3} [ \d]\d \d{4}, \d\d:\d\d:\d\d\) \[.+\]", sys.version)))
print(platform.python_build()[0], platform.python_version())
print(sys.version_info[:3], hex(sys.hexversion))
short = subprocess.run([sys.executable, "-V"], capture_output=True, text=True).stdout
full = subprocess.run([sys.executable, "-VV"], capture_output=True, text=True).stdout
print(short.strip())
print(full.strip() == "Python " + sys.version)
