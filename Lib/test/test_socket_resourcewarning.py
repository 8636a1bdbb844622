# An unclosed socket that dies warns ResourceWarning (naming it by its repr)
# and is closed; a closed or detached one stays quiet.
import gc
import os
import socket
import warnings


def collect_warnings(make):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        make()
        gc.collect()
    return [(w.category.__name__, str(w.message).split(" fd=")[0]) for w in got]


def leak_plain():
    s = socket.socket()
    del s


def leak_subclass():
    class MySocket(socket.socket):
        pass
    s = MySocket()
    del s


def closed():
    s = socket.socket()
    s.close()
    del s


def detached():
    s = socket.socket()
    fd = s.detach()
    del s
    os.close(fd)


class Holder(socket.socket):
    pass


def in_a_cycle():
    s = Holder()
    s.me = [s]
    del s


print("plain", collect_warnings(leak_plain))
print("subclass", collect_warnings(leak_subclass))
print("closed", collect_warnings(closed))
print("detached", collect_warnings(detached))
print("cycle", collect_warnings(in_a_cycle))

# the fd really is closed after the warning
fds = []
def leak_and_remember():
    s = socket.socket()
    fds.append(s.fileno())
collect_warnings(leak_and_remember)
try:
    os.fstat(fds[0])
    print("fd still open")
except OSError as e:
    print("fd closed", type(e).__name__)

# an "error" filter turns the warning into an unraisable exception, not a crash
import sys
seen = []
sys.unraisablehook = lambda u: seen.append(type(u.exc_value).__name__)
with warnings.catch_warnings():
    warnings.simplefilter("error")
    leak_plain()
    gc.collect()
print("unraisable", seen)
