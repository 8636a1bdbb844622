# The interactive interpreter driven through pipes: `python -i` on a
# stdin that is not a terminal runs the basic REPL, with its prompts on
# stderr.  Covers incomplete input, errors then recovery, `_`,
# sys.displayhook, sys.ps1/ps2, exit codes, -i after a script, and the
# parser's incomplete-input answer that the loop relies on.
import os
import re
import subprocess
import sys
import tempfile

ENV = {k: v for k, v in os.environ.items()
       if not k.startswith("PYTHON") or k == "PYTHONPATH"}


def run(args, stdin, env=None):
    e = dict(ENV)
    if env:
        e.update(env)
    p = subprocess.run([sys.executable] + args, input=stdin, capture_output=True,
                       text=True, env=e, timeout=60)
    return p.returncode, p.stdout, p.stderr


TMP = None


def show(title, args, stdin, env=None):
    rc, out, err = run(args, stdin, env)
    if TMP:
        out, err = out.replace(TMP, "<tmp>"), err.replace(TMP, "<tmp>")
    print("==", title, "rc", rc)
    print("-- stdout")
    print(out, end="" if out.endswith("\n") or not out else "\n")
    print("-- stderr")
    print(err, end="" if err.endswith("\n") or not err else "\n")


show("expressions and _", ["-q", "-i"], "x = 5\nx\n_ * 2\n_\nNone\n'a' + 'b'\n")
show("multi-line def", ["-q", "-i"],
     "def f(a):\n    return a * 2\n\nf(21)\nclass A:\n  def m(self):\n    return 4\n\nA().m()\n")
show("brackets, backslash, triple quotes", ["-q", "-i"],
     "x = (1,\n 2)\nx\ny = 1 + \\\n 2\ny\n'''a\nb'''\n[i for i in\n range(3)]\n")
show("syntax error then recovery", ["-q", "-i"], "1 1\n1 +\nprint('still here')\nif 1:\n  1 1\n\n2\n")
show("exception then recovery", ["-q", "-i"],
     "1/0\ndef g():\n  return {}['k']\n\ng()\nprint('after')\nimport sys\nsys.last_exc.__class__.__name__\n")
show("displayhook", ["-q", "-i"],
     "import sys\nsys.displayhook = lambda v: print('DH', repr(v))\n5\nNone\n[1][0]\n")
show("prompts", ["-q", "-i"],
     "import sys\nsys.ps1 = 'A> '\nsys.ps2 = 'B> '\nif 1:\n  2\n\nsys.ps1 = 42\n3\n")
show("blank and comment lines", ["-q", "-i"], "\n# just a comment\n   \n7\n")
show("exit codes: exit(3)", ["-q", "-i"], "exit(3)\nprint('not reached')\n")
show("exit codes: SystemExit", ["-q", "-i"], "raise SystemExit(4)\n")
show("exit codes: quit()", ["-q", "-i"], "quit()\n")
show("end of input inside a statement", ["-q", "-i"], "if 1:\n  print(5)")
show("end of input inside a bracket", ["-q", "-i"], "(1,")
show("future import stays", ["-q", "-i"],
     "from __future__ import annotations\ndef f(x: undefined): pass\n\nf.__annotations__\n")

with tempfile.TemporaryDirectory() as d:
    TMP = d
    ok = os.path.join(d, "ok.py")
    bad = os.path.join(d, "bad.py")
    leave = os.path.join(d, "leave.py")
    with open(ok, "w") as f:
        f.write("y = 7\nprint('script ran')\n")
    with open(bad, "w") as f:
        f.write("z = 3\n1/0\n")
    with open(leave, "w") as f:
        f.write("import sys\nw = 1\nsys.exit(9)\n")
    show("-i after a script", ["-i", ok], "y\n")
    show("-i after an exception", ["-i", bad], "z\n")
    show("-i after SystemExit", ["-i", leave], "w\n")
    show("PYTHONINSPECT without a terminal", [ok], "y\n", {"PYTHONINSPECT": "1"})
    show("-i -c", ["-i", "-c", "a = 1"], "a + 1\n")
    show("PYTHONSTARTUP", ["-q", "-i"], "y\n", {"PYTHONSTARTUP": ok})
TMP = None

show("stdin program (not a terminal)", [], "print(1)\nprint(2)\n")
show("- reads the program", ["-"], "import sys\nprint(sys.argv)\n")
show("-i - is interactive", ["-q", "-i", "-"], "1 + 1\n")

# The banner: "Python <sys.version> on <platform>" and the help line.
rc, out, err = run(["-i"], "")
lines = err.splitlines()
print("banner", rc, bool(re.fullmatch(r"Python 3\.\d+\.\d+.* on linux", lines[0])), lines[1])
print("banner with -q", repr(run(["-q", "-i"], "")[2]))

# The parser's answer that the loop builds on (codeop uses it too).
import codeop
for src in ["if x:", "(1,", "x = 1 \\", "'''abc", "def f():\n  return 1",
            "def f():\n  return 1\n", "1 +", "1 1", "x = [", "@dec",
            "class A:", "  1", "f'{", "try:\n  pass\n", "for x in y:",
            "class A:\n  def m(self):", "if 1:\n  pass\nelse:", "if 1: pass",
            "def f(): pass\n", "x = 1; y = 2"]:
    try:
        r = codeop.compile_command(src)
        print(repr(src), "->", "code" if r else "more")
    except SyntaxError as e:
        print(repr(src), "->", type(e).__name__, e.msg)
for src, mode in [("if x:", "exec"), ("(1,", "single"), ("1 +", "exec"),
                  ("1 +\n", "single"), ("x = (1,\n 2)", "single"), ("1", "single")]:
    try:
        compile(src, "<i>", mode, 0x4200, True)
        print(repr(src), mode, "ok")
    except SyntaxError as e:
        print(repr(src), mode, type(e).__name__, e.msg)
