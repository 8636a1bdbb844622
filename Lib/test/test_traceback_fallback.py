# The plain C display of exceptions (Python/pythonrun.c), used when the
# traceback module cannot be: here it is made unimportable.  Entries with
# source lines, folded recursion, chaining, notes, the SyntaxError layout,
# exception groups, a module-qualified type name, and sys.tracebacklimit.
import os
import subprocess
import sys
import tempfile

SCRIPT = r'''
import sys
sys.modules['traceback'] = None
class MyError(Exception):
    pass
def inner(n):
    if n == 0:
        raise ValueError("bad value")
    return inner(n - 1)
def outer():
    try:
        inner(5)
    except ValueError as e:
        err = MyError("wrapped")
        err.add_note("a note")
        raise err from e
def syn():
    compile("x = (1,\n", "<snippet>", "exec")
try:
    syn()
except SyntaxError as e:
    sys.excepthook(type(e), e, e.__traceback__)
try:
    try:
        {}["k"]
    except KeyError:
        raise OSError(2, "no such thing")
except OSError as e:
    sys.excepthook(type(e), e, e.__traceback__)
try:
    raise ExceptionGroup("several", [ValueError(1), TypeError("two")])
except ExceptionGroup as e:
    sys.excepthook(type(e), e, e.__traceback__)
import helpermod
try:
    helpermod.fail()
except helpermod.HelperError as e:
    sys.excepthook(type(e), e, e.__traceback__)
sys.tracebacklimit = 1
outer()
'''

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "fallback.py")
    with open(path, "w") as f:
        f.write(SCRIPT)
    with open(os.path.join(d, "helpermod.py"), "w") as f:
        f.write("class HelperError(Exception):\n    pass\n\ndef fail():\n    raise HelperError('from a module')\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    proc = subprocess.run([sys.executable, path], capture_output=True, text=True, env=env)
    err = proc.stderr.replace(path, "SCRIPT").replace(d, "TMPDIR")
    print("exit status:", proc.returncode)
    print(err, end="")
