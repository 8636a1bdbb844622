# Golden test for the faulthandler module.  Crashes happen in child
# processes (sys.executable); what they write is normalised (thread ids,
# temporary paths, stdlib paths and lines, the C-stack section that 3.14
# adds) and printed, so the expected output can come from CPython 3.13.
import faulthandler
import os
import re
import signal
import subprocess
import sys
import tempfile

THREAD_ID = re.compile(r"0x[0-9a-f]{16}")
STDLIB_FRAME = re.compile(r'File "[^"]*/([a-z_]+\.py)", line \d+ in')

ASAN_NO_HANDLERS = ("handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0:"
                    "handle_sigill=0:allow_user_segv_handler=1")


def normalise(text):
    kept = []
    skipping = False
    for line in text.splitlines():
        if line.startswith("Current thread's C stack trace"):
            skipping = True
            if kept and kept[-1] == "":
                kept.pop()
            continue
        if skipping:
            if line.startswith("  "):
                continue
            skipping = False
        line = THREAD_ID.sub("0xTID", line)
        line = STDLIB_FRAME.sub(r'File "<stdlib>/\1", line N in', line)
        kept.append(line)
    return kept


def run(title, code, *options, env=None):
    print("==", title)
    child_env = dict(os.environ)
    child_env.pop("PYTHONFAULTHANDLER", None)
    # Under AddressSanitizer the "previous handler" a crash is passed on
    # to would be ASan's own report; let the default action run instead.
    asan = child_env.get("ASAN_OPTIONS", "")
    child_env["ASAN_OPTIONS"] = ":".join(filter(None, [asan, ASAN_NO_HANDLERS]))
    if env:
        child_env.update(env)
    proc = subprocess.run([sys.executable, *options, "-c", code],
                          capture_output=True, text=True, env=child_env)
    print("status", proc.returncode)
    for line in normalise(proc.stdout):
        print("out|", line)
    for line in normalise(proc.stderr):
        print("err|", line)


CRASH_IN_NESTED = """\
import faulthandler
faulthandler.enable({args})
def inner():
    faulthandler.{helper}()
def outer():
    inner()
outer()
"""

run("sigsegv", CRASH_IN_NESTED.format(args="", helper="_sigsegv"))
run("sigsegv one thread", CRASH_IN_NESTED.format(args="all_threads=False", helper="_sigsegv"))
run("sigsegv without the GIL", CRASH_IN_NESTED.format(args="", helper="_sigsegv(True) #"))
run("read_null", CRASH_IN_NESTED.format(args="", helper="_read_null"))
run("sigabrt", CRASH_IN_NESTED.format(args="", helper="_sigabrt"))
run("sigfpe", CRASH_IN_NESTED.format(args="", helper="_sigfpe"))
run("stack overflow", CRASH_IN_NESTED.format(args="", helper="_stack_overflow"))
run("sigsegv to stdout fd", CRASH_IN_NESTED.format(args="1", helper="_sigsegv"))
run("disabled again", CRASH_IN_NESTED.format(
    args=");faulthandler.disable(", helper="_sigsegv"))

run("sigsegv with a second thread", """\
import faulthandler, threading
faulthandler.enable()
lock = threading.Lock()
lock.acquire()
def blocked():
    lock.acquire()
worker = threading.Thread(target=blocked, daemon=True)
worker.start()
while not lock.locked():
    pass
import time; time.sleep(0.2)
def crash():
    faulthandler._sigsegv()
crash()
""")

run("dump_traceback to a file", """\
import faulthandler, sys, tempfile
with tempfile.TemporaryFile("w+") as f:
    def level2():
        faulthandler.dump_traceback(f, all_threads=False)
    def level1():
        level2()
    level1()
    f.seek(0)
    sys.stdout.write(f.read())
""")

run("dump_traceback all threads", """\
import faulthandler, sys, threading, time
ready = threading.Event()
release = threading.Event()
def waiter():
    ready.set()
    release.wait()
t = threading.Thread(target=waiter)
t.start()
ready.wait()
time.sleep(0.2)
def show():
    faulthandler.dump_traceback(sys.stdout)
show()
release.set()
t.join()
""")

run("dump_traceback_later", """\
import faulthandler, time
def slow():
    time.sleep(0.6)
faulthandler.dump_traceback_later(0.2)
slow()
print("after")
""")

run("dump_traceback_later repeat then cancel", """\
import faulthandler, time
faulthandler.dump_traceback_later(0.3, repeat=True)
time.sleep(0.75)
faulthandler.cancel_dump_traceback_later()
time.sleep(0.4)
print("cancelled")
""")

run("dump_traceback_later exit", """\
import faulthandler, time
faulthandler.dump_traceback_later(1.5, exit=True)
def forever():
    time.sleep(10)
forever()
print("not reached")
""")

run("cancel before timeout", """\
import faulthandler, time
faulthandler.dump_traceback_later(0.5)
faulthandler.cancel_dump_traceback_later()
faulthandler.cancel_dump_traceback_later()
time.sleep(0.8)
print("quiet")
""")

run("register SIGUSR1", """\
import faulthandler, os, signal
faulthandler.register(signal.SIGUSR1, all_threads=False)
def poke():
    os.kill(os.getpid(), signal.SIGUSR1)
poke()
print("unregister", faulthandler.unregister(signal.SIGUSR1))
print("again", faulthandler.unregister(signal.SIGUSR1))
""")

run("register chain", """\
import faulthandler, os, signal
seen = []
signal.signal(signal.SIGUSR2, lambda signum, frame: seen.append(signum))
faulthandler.register(signal.SIGUSR2, chain=True)
os.kill(os.getpid(), signal.SIGUSR2)
print("python handler ran", seen == [signal.SIGUSR2])
""")

run("register default chain kills", """\
import faulthandler, os, signal
faulthandler.register(signal.SIGUSR1, chain=True)
os.kill(os.getpid(), signal.SIGUSR1)
print("not reached")
""")

STARTUP = "import faulthandler, sys; print(faulthandler.is_enabled(), sys._xoptions)"
run("-X faulthandler", STARTUP, "-X", "faulthandler")
run("PYTHONFAULTHANDLER", STARTUP, env={"PYTHONFAULTHANDLER": "1"})
run("PYTHONFAULTHANDLER=0 still enables", STARTUP, env={"PYTHONFAULTHANDLER": "0"})
run("-E ignores PYTHONFAULTHANDLER", STARTUP, "-E", env={"PYTHONFAULTHANDLER": "1"})
run("-X dev", "import faulthandler; print(faulthandler.is_enabled())", "-X", "dev")
run("-X faulthandler crash", "import faulthandler\ndef f():\n    faulthandler._sigsegv()\nf()",
    "-X", "faulthandler")

print("== in process")
print("enabled at start", faulthandler.is_enabled())
faulthandler.enable()
print("after enable", faulthandler.is_enabled())
faulthandler.enable(all_threads=False)
print("enable twice", faulthandler.is_enabled())
faulthandler.disable()
print("after disable", faulthandler.is_enabled())
faulthandler.disable()
print("disable twice", faulthandler.is_enabled())


def show_error(label, func, *args, **kwargs):
    try:
        func(*args, **kwargs)
    except Exception as exc:
        print(label, type(exc).__name__, exc)
    else:
        print(label, "no error")


class NoFileno:
    pass


class BadFileno:
    def fileno(self):
        return "three"


class NegativeFileno:
    def fileno(self):
        return -1


import io

show_error("enable object", faulthandler.enable, NoFileno())
show_error("enable bad fileno", faulthandler.enable, BadFileno())
show_error("enable negative fileno", faulthandler.enable, NegativeFileno())
show_error("enable -1", faulthandler.enable, -1)
show_error("enable str", faulthandler.enable, "x")
show_error("enable StringIO", faulthandler.enable, io.StringIO())
show_error("dump_traceback object", faulthandler.dump_traceback, NoFileno())
show_error("dump_traceback -5", faulthandler.dump_traceback, -5)
show_error("later 0", faulthandler.dump_traceback_later, 0)
show_error("later -1.5", faulthandler.dump_traceback_later, -1.5)
show_error("later str", faulthandler.dump_traceback_later, "x")
show_error("later huge", faulthandler.dump_traceback_later, 1e300)
show_error("later object file", faulthandler.dump_traceback_later, 1.0, file=NoFileno())
show_error("register 0", faulthandler.register, 0)
show_error("register 999", faulthandler.register, 999)
show_error("register SIGSEGV", faulthandler.register, signal.SIGSEGV)
show_error("register SIGABRT", faulthandler.register, signal.SIGABRT)
show_error("register str", faulthandler.register, "x")
show_error("unregister 999", faulthandler.unregister, 999)
show_error("unregister SIGSEGV", faulthandler.unregister, signal.SIGSEGV)
print("unregister never registered", faulthandler.unregister(signal.SIGUSR2))
print("still disabled", faulthandler.is_enabled())

with tempfile.TemporaryFile("w+") as f:
    f.write("before\n")
    faulthandler.dump_traceback(f.fileno(), all_threads=False)
    f.seek(0)
    print("fd dump", normalise(f.read()))
