# pdb driven as a person would: `python -m pdb script` (and a script calling
# breakpoint()) with commands typed on stdin.  Paths are normalised so the
# transcript is the same on any checkout.
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

SCRIPT = '''\
def add(a, b):
    c = a + b
    return c

def main():
    total = 0
    for i in range(3):
        total = add(total, i)
    print("total", total)
    return total

main()
'''

CRASH = '''\
def divide(x, y):
    return x / y

def run():
    values = [4, 2, 0]
    return [divide(8, v) for v in values]

run()
'''

HOOK = '''\
def compute(n):
    acc = []
    for i in range(n):
        breakpoint()
        acc.append(i * i)
    return acc

print(compute(2))
'''


def environment():
    env = dict(os.environ)
    env.pop("PYTHONBREAKPOINT", None)
    env["TERM"] = "dumb"
    return env


def normalise(text, directory):
    text = text.replace(directory + os.sep, "<dir>/")
    text = re.sub(r"\S*bdb\.py\(\d+\)", "<bdb>(N)", text)
    text = re.sub(r"\S*pdb\.py\(\d+\)", "<pdb>(N)", text)
    return text


def session(source, commands, as_module=True):
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "script.py")
        with open(path, "w") as f:
            f.write(source)
        args = [sys.executable] + (["-m", "pdb"] if as_module else []) + [path]
        proc = subprocess.run(args, input="\n".join(commands) + "\n", capture_output=True,
                              text=True, env=environment(), cwd=directory, timeout=60)
        print("---", " ".join(commands).replace("\n", " "))
        print(normalise(proc.stdout, os.path.realpath(directory)).replace(directory + os.sep, "<dir>/"), end="")
        if proc.stderr:
            # The traceback's frames inside pdb differ between versions of
            # the standard library: only the exception line is compared.
            print("stderr:", proc.stderr.strip().splitlines()[-1])
        print("exit", proc.returncode)


session(SCRIPT, ["break add", "continue", "where", "p a, b", "next", "pp c", "up", "p total",
                 "down", "return", "step", "list", "continue", "continue", "continue", "quit"])
session(SCRIPT, ["break 9", "continue", "p total", "step", "next", "next", "quit"])
session(CRASH, ["continue", "p v", "up", "p values", "quit"])
session(HOOK, ["p i", "continue", "p i, acc", "continue"], as_module=False)
