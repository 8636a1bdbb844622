# termios over a pseudo-terminal pair from os.openpty(): attributes read
# and written back (flags, speeds, control characters), the line control
# calls, the window size, the errors (termios.error carries errno), and
# the stdlib modules built on termios: tty, pty and getpass.
import errno
import getpass
import os
import pty
import sys
import termios
import tty


def attempt(label, f, *args):
    try:
        res = f(*args)
    except termios.error as e:
        print(label, "termios.error", e.args, errno.errorcode.get(e.args[0]))
    except Exception as e:
        print(label, type(e).__name__, e)
    else:
        print(label, "ok", repr(res))


print(termios.error.__module__, termios.error.__name__, termios.error.__mro__[1:])
constants = sorted(n for n in dir(termios) if n.isupper() or n == "_POSIX_VDISABLE")
print(len(constants), all(type(getattr(termios, n)) is int for n in constants))
for start in range(0, len(constants), 8):
    print(", ".join("%s=%d" % (n, getattr(termios, n)) for n in constants[start:start + 8]))
print(sorted(n for n in dir(termios) if n[0].islower() and not n.startswith("__")))

controller, terminal = os.openpty()
attrs = termios.tcgetattr(terminal)
print(type(attrs).__name__, len(attrs), [type(x).__name__ for x in attrs])
cc = attrs[6]
print(len(cc) == termios.NCCS, all(type(c) is bytes and len(c) == 1 for c in cc))
print("canonical:", bool(attrs[3] & termios.ICANON), "echo:", bool(attrs[3] & termios.ECHO))
print("VINTR", cc[termios.VINTR], "VEOF", cc[termios.VEOF])

# Echo off, then on again; each 'when' is accepted.
quiet = list(attrs)
quiet[3] &= ~termios.ECHO
termios.tcsetattr(terminal, termios.TCSANOW, quiet)
print("echo off:", not termios.tcgetattr(terminal)[3] & termios.ECHO)
termios.tcsetattr(terminal, termios.TCSADRAIN, attrs)
print("echo back:", bool(termios.tcgetattr(terminal)[3] & termios.ECHO))
termios.tcsetattr(terminal, termios.TCSAFLUSH, attrs)
print("flush ok:", termios.tcgetattr(terminal) == attrs)

# Speeds and control characters given as ints.
fast = list(attrs)
fast[4] = fast[5] = termios.B9600
fast[6] = list(cc)
fast[6][termios.VINTR] = 7
termios.tcsetattr(terminal, termios.TCSANOW, fast)
now = termios.tcgetattr(terminal)
print("speeds:", now[4] == now[5] == termios.B9600, "VINTR:", now[6][termios.VINTR])
termios.tcsetattr(terminal, termios.TCSANOW, attrs)
print("fileno object:", termios.tcgetattr(open(terminal, closefd=False)) == attrs)

# Canonical input through the pair, with echo.
os.write(controller, b"hello\n")
print("read:", os.read(terminal, 100))
print("echoed:", os.read(controller, 100))

# tty: raw mode makes VMIN/VTIME counts (ints).
tty.setraw(terminal)
raw = termios.tcgetattr(terminal)
print("raw:", not raw[3] & termios.ICANON, not raw[3] & termios.ECHO, not raw[1] & termios.OPOST)
print("VMIN", repr(raw[6][termios.VMIN]), "VTIME", repr(raw[6][termios.VTIME]))
termios.tcsetattr(terminal, termios.TCSANOW, attrs)
tty.setcbreak(terminal)
cbreak = termios.tcgetattr(terminal)
print("cbreak:", not cbreak[3] & termios.ICANON, not cbreak[3] & termios.ECHO)
mode = termios.tcgetattr(terminal)
tty.cfmakeraw(mode)
print("cfmakeraw:", mode[3] & termios.ECHO, mode[6][termios.VMIN])
termios.tcsetattr(terminal, termios.TCSANOW, attrs)

# Line control.
print(termios.tcdrain(terminal), termios.tcflush(terminal, termios.TCIOFLUSH),
      termios.tcflow(terminal, termios.TCOOFF), termios.tcflow(terminal, termios.TCOON),
      termios.tcsendbreak(terminal, 0))

# Window size.
print("winsize:", termios.tcgetwinsize(terminal))
termios.tcsetwinsize(terminal, (24, 80))
print("winsize set:", termios.tcgetwinsize(terminal), termios.tcgetwinsize(controller))
termios.tcsetwinsize(controller, [50, 132])
print("winsize list:", termios.tcgetwinsize(terminal))

# Errors.
attempt("tcgetattr bad fd", termios.tcgetattr, 999)
attempt("tcgetattr not a tty", termios.tcgetattr, os.open(os.devnull, os.O_RDONLY))
attempt("tcgetattr str", termios.tcgetattr, "x")
attempt("tcgetattr negative", termios.tcgetattr, -1)
attempt("tcsetattr bad fd", termios.tcsetattr, 999, termios.TCSANOW, attrs)
attempt("tcsetattr when", termios.tcsetattr, terminal, 99, attrs)
attempt("tcsetattr when str", termios.tcsetattr, terminal, "x", attrs)
attempt("tcsetattr short", termios.tcsetattr, terminal, termios.TCSANOW, attrs[:5])
attempt("tcsetattr tuple", termios.tcsetattr, terminal, termios.TCSANOW, tuple(attrs))
attempt("tcsetattr int", termios.tcsetattr, terminal, termios.TCSANOW, 5)
attempt("tcsetattr cc short", termios.tcsetattr, terminal, termios.TCSANOW, attrs[:6] + [cc[:5]])
attempt("tcsetattr cc str", termios.tcsetattr, terminal, termios.TCSANOW, attrs[:6] + [["a"] * len(cc)])
attempt("tcsetattr cc 2 bytes", termios.tcsetattr, terminal, termios.TCSANOW, attrs[:6] + [[b"ab"] * len(cc)])
attempt("tcsetattr cc float", termios.tcsetattr, terminal, termios.TCSANOW, attrs[:6] + [[1.5] * len(cc)])
attempt("tcsetattr flag str", termios.tcsetattr, terminal, termios.TCSANOW, ["x"] + attrs[1:])
attempt("tcsetattr speed", termios.tcsetattr, terminal, termios.TCSANOW, attrs[:4] + [99999999, 0, cc])
attempt("tcsendbreak bad fd", termios.tcsendbreak, 999, 0)
attempt("tcsendbreak str", termios.tcsendbreak, terminal, "x")
attempt("tcdrain bad fd", termios.tcdrain, 999)
attempt("tcflush bad fd", termios.tcflush, 999, termios.TCIFLUSH)
attempt("tcflush queue", termios.tcflush, terminal, 99)
attempt("tcflow bad fd", termios.tcflow, 999, termios.TCOON)
attempt("tcflow action", termios.tcflow, terminal, 99)
attempt("tcgetwinsize bad fd", termios.tcgetwinsize, 999)
attempt("tcsetwinsize bad fd", termios.tcsetwinsize, 999, (1, 1))
attempt("tcsetwinsize short", termios.tcsetwinsize, terminal, (1,))
attempt("tcsetwinsize int", termios.tcsetwinsize, terminal, 5)
attempt("tcsetwinsize str", termios.tcsetwinsize, terminal, ("a", 2))
attempt("tcsetwinsize big", termios.tcsetwinsize, terminal, (2**40, 1))
attempt("tcsetwinsize negative", termios.tcsetwinsize, terminal, (-1, 1))
try:
    termios.tcgetattr(999)
except termios.error as e:
    print("error value:", isinstance(e, Exception), e.args[0] == errno.EBADF, type(e.args[1]).__name__)

print("tty isatty:", os.isatty(terminal), os.isatty(controller), os.ttyname(terminal).startswith("/dev/pts/"))
os.close(controller)
os.close(terminal)

# pty.fork() gives the child the terminal as its controlling tty, so
# getpass reads the password from it with echo off.  Our own buffered
# output goes out first, or the child would write it again.
sys.stdout.flush()
pid, fd = pty.fork()
if pid == 0:
    try:
        secret = getpass.getpass("Password: ")
        print("child got", repr(secret))
        print("child tty:", os.isatty(0), bool(termios.tcgetattr(0)[3] & termios.ECHO))
    except BaseException as e:
        print("child error", type(e).__name__, e)
    sys.stdout.flush()
    os._exit(3)
seen = b""
while b"Password: " not in seen:
    seen += os.read(fd, 100)
os.write(fd, b"s3cret\n")
while True:
    try:
        chunk = os.read(fd, 1000)
    except OSError:  # EIO once the child's side is gone
        break
    if not chunk:
        break
    seen += chunk
os.close(fd)
_, status = os.waitpid(pid, 0)
print(seen.replace(b"\r\n", b"\n").decode(), end="")
print("child exit:", os.waitstatus_to_exitcode(status))
print("pty names:", pty.STDIN_FILENO, pty.CHILD, callable(pty.spawn), pty.openpty is not None)
