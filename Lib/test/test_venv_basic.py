# A venv made by `python -m venv --without-pip`: its python finds its
# pyvenv.cfg, so sys.prefix is the venv and its site-packages is on the path.
import os
import subprocess
import sys
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    env_dir = os.path.join(tmp, "env")
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", env_dir],
                          capture_output=True, text=True)
    print("venv created:", made.returncode == 0, made.stderr)
    print("pyvenv.cfg:", os.path.isfile(os.path.join(env_dir, "pyvenv.cfg")))
    env_python = os.path.join(env_dir, "bin", "python")
    probe = ("import sys, sysconfig; "
             "print(sys.prefix == sys.exec_prefix, sys.prefix != sys.base_prefix); "
             "print(sys.executable.endswith('/env/bin/python')); "
             "print(any(p.startswith(sys.prefix) and p.endswith('site-packages') for p in sys.path)); "
             "print(sysconfig.get_path('purelib').startswith(sys.prefix))")
    out = subprocess.run([env_python, "-c", probe], capture_output=True, text=True)
    print(out.stdout, end="")
    print("stderr:", repr(out.stderr))
    purelib = subprocess.run([env_python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True).stdout.strip()
    os.makedirs(purelib, exist_ok=True)
    with open(os.path.join(purelib, "venv_probe_mod.py"), "w") as f:
        f.write("VALUE = 'installed in the venv'\n")
    inside = subprocess.run([env_python, "-c", "import venv_probe_mod; print(venv_probe_mod.VALUE)"],
                            capture_output=True, text=True)
    print(inside.stdout.strip(), repr(inside.stderr))
    outside = subprocess.run([sys.executable, "-c", "import venv_probe_mod"], capture_output=True, text=True)
    print("not visible outside:", outside.returncode != 0)
