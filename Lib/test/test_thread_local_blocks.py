# A thread that outlives many _thread._local objects (the main thread) must
# not keep one weakref per dead local; measured with the allocator's block
# count (PYTHONCOUNTBLOCKS, Doc/refleak.md) in a child interpreter.
import os
import subprocess
import sys

child = r'''
import gc, sys, _thread
def make(n):
    for _ in range(n):
        l = _thread._local()
        l.x = 1
make(100)
gc.collect()
before = sys.getallocatedblocks()
make(3000)
gc.collect()
grown = sys.getallocatedblocks() - before
print('counting:', before > 0)
print('blocks kept per dead local under 0.1:', grown / 3000 < 0.1)
# One local at a time (what a refleak run of a program sees): the next
# add drops the dead entry, so nothing accumulates at all.
make(1)
gc.collect()
before = sys.getallocatedblocks()
for _ in range(10):
    make(1)
    gc.collect()
print('blocks kept by ten locals made one at a time:', sys.getallocatedblocks() - before)
'''
env = dict(os.environ, PYTHONCOUNTBLOCKS='1')
out = subprocess.run([sys.executable, '-c', child], env=env, capture_output=True, text=True)
print(out.stdout, end='')
print('stderr:', out.stderr.strip() or 'none')
env.pop('PYTHONCOUNTBLOCKS')
out = subprocess.run([sys.executable, '-c', 'import sys; print(sys.getallocatedblocks())'],
                     env=env, capture_output=True, text=True)
print('blocks without counting:', out.stdout.strip())
