# The standard streams are io objects: text over buffered over FileIO on
# fds 0-2; stderr uses backslashreplace; output is flushed before the
# traceback of an uncaught exception and at exit.
import sys
import _io

print(type(sys.stdout).__name__, type(sys.stderr).__name__, type(sys.stdin).__name__)
print(sys.stdout.name, sys.stderr.name, sys.stdin.name)
print(sys.stdout.mode, sys.stdin.mode, sys.stderr.errors, sys.stdout.encoding)
print(sys.stdin is sys.__stdin__, sys.stdout is sys.__stdout__, sys.stderr is sys.__stderr__)
print(isinstance(sys.stdout, _io.TextIOWrapper), sys.stdout.writable(), sys.stdin.readable())
print(sys.stdout.buffer.raw.closefd if hasattr(sys.stdout.buffer, 'raw') else sys.stdout.buffer.closefd)
sys.stdout.write('written with write\n')
sys.stdout.flush()
sys.stdout.buffer.write(b'bytes through the buffer\n')
sys.stdout.buffer.flush()
sys.stderr.write('to stderr: lone surrogate \udc80 escaped\n')
print('to stderr via print', file=sys.stderr)
print('é € 😀', 'multi', 'args', sep='|', end='!\n')
print(open is _io.open)
print('last line before the error')
raise RuntimeError('uncaught')
