# The command line and the PYTHON* variables reach sys.flags, sys.path,
# sys.warnoptions, sys._xoptions and the import system.
import os
import subprocess
import sys

FLAGS = ("optimize", "dont_write_bytecode", "no_user_site", "no_site",
         "ignore_environment", "isolated", "safe_path", "bytes_warning", "quiet")
SHOW = "import sys; print(' '.join(f'{n}={getattr(sys.flags, n)}' for n in %r))" % (FLAGS,)

def run(args, env_extra=None, code=SHOW):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(env_extra or {})
    proc = subprocess.run([sys.executable] + args + ["-c", code], env=env,
                          capture_output=True, text=True)
    out = proc.stdout.strip() or proc.stderr.strip().splitlines()[-1]
    print(" ".join(args) or "(none)", "->", out.replace(sys.executable, "PYTHON"))

run([])
run(["-O"])
run(["-OO", "-B", "-s"])
run(["-S", "-q", "-b"])
run(["-E"], {"PYTHONDONTWRITEBYTECODE": "1"})
run([], {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONOPTIMIZE": "2"})
run(["-I"])
run(["-P"])
run(["-X", "dev", "-X", "foo=bar"], code="import sys; print(sys._xoptions, sys.flags.dev_mode)")
run(["-W", "error::DeprecationWarning", "-W", "ignore"], {"PYTHONWARNINGS": "default"},
    code="import sys; print(sys.warnoptions)")
run(["-O"], code="assert False, 'kept'; print('asserts removed', __debug__)")
run(["-B"], code="import sys; print(sys.dont_write_bytecode)")
run([], {"PYTHONPATH": "/tmp/ppath:/tmp/qpath"},
    code="import sys; print([p for p in sys.path if p.startswith(('/tmp/ppath', '/tmp/qpath'))])")
run(["-E"], {"PYTHONPATH": "/tmp/ppath"},
    code="import sys; print([p for p in sys.path if p.startswith(('/tmp/ppath', '/tmp/qpath'))])")
run(["-S"], code="import sys; print('site' in sys.modules, hasattr(__builtins__, 'exit'))")
run([], code="import sys; print('site' in sys.modules, type(exit).__name__)")
run(["-X", "int_max_str_digits=1000"], code="import sys; print(sys.get_int_max_str_digits())")
run(["-u"], code="import sys; print(sys.stdout.write_through)")
run(["-m", "no_such_module_here"], code="")

# sys.path[0]: '' for -c (site runs before it goes in, so it stays ''), the
# script's directory for a script, the current directory for -m.
import tempfile
with tempfile.TemporaryDirectory() as d:
    d = os.path.realpath(d)
    with open(os.path.join(d, "showpath0.py"), "w") as f:
        f.write("import sys; print(repr(sys.path[0]))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    def path0(args, cwd):
        out = subprocess.run([sys.executable] + args, env=env, cwd=cwd,
                             capture_output=True, text=True).stdout.strip()
        return out.replace(d, "TMPDIR")
    print("-c ->", path0(["-c", "import sys; print(repr(sys.path[0]))"], d))
    print("script ->", path0([os.path.join(d, "showpath0.py")], "/"))
    print("-m ->", path0(["-m", "showpath0"], d))
    print("-P -c ->", path0(["-P", "-c", "import sys; print(sys.path[0] == '')"], d))
