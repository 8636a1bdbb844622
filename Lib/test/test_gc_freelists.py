# A full gc.collect() empties the int and float freelists (as the gc docs
# say for the highest generation), so the allocator's block count after
# one is what is alive: refleak runs depend on it (Doc/refleak.md).
# Measured in a child with PYTHONCOUNTBLOCKS=1; the samples go to a
# preallocated array so that storing them allocates nothing.
import os
import subprocess
import sys

child = r'''
import array, gc, sys, sysconfig
samples = array.array('q', [0, 0, 0])
def churn():
    xs = [i + 0.5 for i in range(300)]
    ys = [i + 100000 for i in range(300)]
    del xs, ys
churn()
gc.collect()
samples[0] = sys.getallocatedblocks()
churn()
samples[1] = sys.getallocatedblocks()
gc.collect()
samples[2] = sys.getallocatedblocks()
print('counting:', samples[0] > 0)
# The stress build keeps no freelists (Doc/stress.md): nothing to hold.
stress = bool(sysconfig.get_config_var('Py_STRESS'))
print('the freelists hold blocks before the collection:', (samples[1] - samples[0] >= 100) != stress)
print('blocks left after a full collection:', samples[2] - samples[0])
'''
env = dict(os.environ, PYTHONCOUNTBLOCKS='1')
out = subprocess.run([sys.executable, '-c', child], env=env, capture_output=True, text=True)
print(out.stdout, end='')
print('stderr:', out.stderr.strip() or 'none')
