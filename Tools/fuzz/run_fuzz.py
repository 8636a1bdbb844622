#!/usr/bin/env python3
"""Run the libFuzzer targets built by `make fuzz-build` (Doc/fuzzing.md).

Each target gets a seed corpus made here from Lib/ and the standard library
(build/fuzz/seeds/<target>, rebuilt every run, never committed), its token
dictionary from Tools/fuzz/dicts/, and --seconds of fuzzing; the corpus it
grows is kept in build/fuzz/corpus/<target>.  A crash, a sanitizer report,
a timeout (over 10 s for one input) or running out of memory fails the
target; the input is saved under build/fuzz/artifacts/<target>/.
--jobs N fuzzes N targets at once.  Closes with one line per target (executions, result) and 'N passed, N failed'.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FUZZ = os.path.join(ROOT, 'build', 'fuzz')
TARGETS = ['ast', 'compile', 'marshal', 'sre', 'json', 'number', 'format', 'code']
MAX_LEN = {'ast': 4096, 'compile': 4096, 'marshal': 8192, 'code': 1024}
SEEDS_PER_TARGET = 400


def source_files():
    """Small .py files from Lib/ and the standard library, in a fixed order."""
    dirs = [os.path.join(ROOT, 'Lib'), os.path.join(ROOT, 'build', 'stdlib')]
    found = []
    for top in dirs:
        for base, subdirs, files in os.walk(top):
            subdirs[:] = sorted(d for d in subdirs if d not in ('__pycache__', 'site-packages'))
            for name in sorted(files):
                if name.endswith('.py'):
                    found.append(os.path.join(base, name))
    return found


def read(path, limit):
    try:
        with open(path, 'rb') as f:
            return f.read(limit)
    except OSError:
        return b''


def literal_strings(texts, pattern):
    out = []
    for text in texts:
        out.extend(m.group(2) for m in re.finditer(pattern, text))
    return out


def write_seeds(target, seeds):
    d = os.path.join(FUZZ, 'seeds', target)
    os.makedirs(d, exist_ok=True)
    for old in os.listdir(d):
        os.unlink(os.path.join(d, old))
    unique = {}
    for s in seeds:
        if s:
            unique.setdefault(hashlib.sha1(s).hexdigest(), s)
    for name, s in list(unique.items())[:SEEDS_PER_TARGET]:
        with open(os.path.join(d, name), 'wb') as f:
            f.write(s)
    return d, min(len(unique), SEEDS_PER_TARGET)


def marshal_seeds(python, files):
    """marshal.dumps of code and constants, by the runtime under test."""
    script = r'''
import marshal, sys
out = sys.argv[1]
n = 0
def put(obj):
    global n
    try:
        data = marshal.dumps(obj)
    except ValueError:
        return
    with open('%s/m%04d' % (out, n), 'wb') as f:
        f.write(data)
    n += 1
for path in sys.argv[2:]:
    try:
        with open(path, 'rb') as f:
            put(compile(f.read(), path, 'exec'))
    except (SyntaxError, ValueError, UnicodeDecodeError):
        pass
for v in [0, -1, 2**100, 1.5, 3j, 'abc', 'é€😀', b'xy', (1, 'a'), [1, [2]], {1: 2},
          {1, 2}, frozenset({3}), None, True, Ellipsis, StopIteration]:
    put(v)
'''
    d = os.path.join(FUZZ, 'seeds', 'marshal')
    os.makedirs(d, exist_ok=True)
    for old in os.listdir(d):
        os.unlink(os.path.join(d, old))
    small = [f for f in files if os.path.getsize(f) < 6000][:150]
    subprocess.run([python, '-c', script, d] + small, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return d, len(os.listdir(d))


def build_seeds(python):
    files = source_files()
    sources = [read(f, 4096) for f in files]
    small = [s for s in sources if 0 < len(s) < 4000]
    texts = [s.decode('utf-8', 'replace') for s in sources]
    # Strings passed to re.compile / re.match & co. in the sources.
    patterns = literal_strings(texts, r"re\.(?:compile|match|search|fullmatch|sub|split)\(\s*r?(['\"])(.{1,120}?)\1")
    formats = literal_strings(texts, r"(['\"])([^'\"\n]{0,60}(?:\{[^{}'\"\n]{0,20}\}|%[-#0 +(a-z)]{0,6}[sdrfxegc])[^'\"\n]{0,40})\1")
    seeds = {}
    step = max(1, len(small) // SEEDS_PER_TARGET)
    seeds['ast'] = [bytes([i % 8]) + s for i, s in enumerate(small[::step])]
    seeds['compile'] = [bytes([i % 16]) + s for i, s in enumerate(small[::step])]
    subjects = [b'abc', b'Hello, World 123', b'aaaaaaaaab', b'\xc3\xa9t\xc3\xa9', b'x\ny\n', b'']
    seeds['sre'] = [bytes([i % 64]) + p.encode('utf-8', 'replace') + b'\0' + subjects[i % 6]
                    for i, p in enumerate(patterns)]
    js = [read(f, 8192) for f in files if f.endswith('.json')]
    js += [json.dumps(v).encode() for v in
           [{'a': [1, 2.5, None, True, 'x\u00e9\ud83d\ude00']}, [[[]]], '\\u0041', -1e300,
            {'': {}}, 12345678901234567890]]
    js += [b'[1, 2', b'{"a" 1}', b'"\\ud800"', b'NaN', b'-Infinity', b'\xef\xbb\xbf{}']
    seeds['json'] = js
    numbers = ['0', '-17', '1_000_000', '0x_ff', '0o777', '0b1010', '  42\n', '1e10', '-1.5e-300',
               'inf', '-nan', 'Infinity', '1.7976931348623157e308', '5e-324', '١٢٣', '１２',
               '9' * 200, '0.' + '1' * 100, '1__0', '0x', '+.5', '-.e1']
    seeds['number'] = [bytes([b]) + n.encode() for b in (10, 0, 16, 2, 36, 37) for n in numbers]
    seeds['format'] = [bytes([i % 256]) + f.encode('utf-8', 'replace') for i, f in enumerate(formats)]
    seeds['format'] += [b'\x00{0:>10}', b'\x01{a!r:^20}', b'\x02%s %r', b'\x03%(a)d',
                        b'\x10{:,.2f}', b'\x20{0[0]}', b'\x30%-#10.3x']
    seeds['code'] = [bytes([i]) for i in range(12)]
    seeds['code'] += [bytes([i, 1, 0, 2, 0, 4]) for i in range(12)]  # co_stacksize 2
    seeds['code'] += [bytes([i, 2, 0, 1]) for i in range(12)]  # co_consts cut to 1
    dirs = {}
    for t in TARGETS:
        if t == 'marshal':
            dirs[t] = marshal_seeds(python, files)
        else:
            dirs[t] = write_seeds(t, seeds[t])
    return dirs


def run_target(target, seconds, seed_dir):
    binary = os.path.join(FUZZ, 'fuzz_' + target)
    corpus = os.path.join(FUZZ, 'corpus', target)
    artifacts = os.path.join(FUZZ, 'artifacts', target) + os.sep
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)
    log = os.path.join(FUZZ, 'logs', target + '.log')
    os.makedirs(os.path.dirname(log), exist_ok=True)
    args = [binary, corpus, seed_dir, '-max_total_time=%d' % seconds, '-timeout=10',
            '-rss_limit_mb=3072', '-malloc_limit_mb=3072', '-print_final_stats=1',
            '-max_len=%d' % MAX_LEN.get(target, 2048), '-artifact_prefix=' + artifacts]
    d = os.path.join(ROOT, 'Tools', 'fuzz', 'dicts', target + '.dict')
    if os.path.exists(d):
        args.append('-dict=' + d)
    env = dict(os.environ)
    # The runtime keeps objects alive until exit by design: no leak reports.
    env['ASAN_OPTIONS'] = 'detect_leaks=0:allocator_may_return_null=1:' + env.get('ASAN_OPTIONS', '')
    env['UBSAN_OPTIONS'] = 'print_stacktrace=1:' + env.get('UBSAN_OPTIONS', '')
    start = time.time()
    with open(log, 'w') as out:
        rc = subprocess.run(args, stdout=out, stderr=subprocess.STDOUT, env=env,
                            timeout=seconds + 600).returncode
    text = read(log, 1 << 24).decode('utf-8', 'replace')
    m = re.findall(r'stat::number_of_executed_units:\s*(\d+)', text)
    execs = int(m[-1]) if m else 0
    found = re.findall(r'Test unit written to (\S+)', text)
    why = re.findall(r'(ERROR: (?:AddressSanitizer|libFuzzer|LeakSanitizer): [^\n]*|runtime error: [^\n]*|fuzz_\w+: [^\n]*)', text)
    return {'target': target, 'rc': rc, 'execs': execs, 'seconds': time.time() - start,
            'artifacts': found, 'why': why[:3], 'log': log}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seconds', type=int, default=60)
    ap.add_argument('--targets', default=' '.join(TARGETS))
    ap.add_argument('--python', default=os.path.join(ROOT, 'python'))
    ap.add_argument('--jobs', type=int, default=1, help='targets fuzzed at once (one core each)')
    opts = ap.parse_args()
    targets = opts.targets.split()
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        sys.exit('unknown fuzz targets: %s (have: %s)' % (' '.join(unknown), ' '.join(TARGETS)))
    dirs = build_seeds(opts.python)
    def start(t):
        seed_dir, nseeds = dirs[t]
        print('fuzz_%s: %d seeds, %d s ...' % (t, nseeds, opts.seconds), flush=True)
        return run_target(t, opts.seconds, seed_dir)
    # Threads only wait on the fuzzer processes; results keep the target order.
    with concurrent.futures.ThreadPoolExecutor(max(1, opts.jobs)) as pool:
        results = list(pool.map(start, targets))
    passed = failed = 0
    for r in results:
        ok = r['rc'] == 0 and not r['artifacts']
        passed += ok
        failed += not ok
        print('%-8s %10d execs in %4.0f s  %s' % (r['target'], r['execs'], r['seconds'],
                                                 'ok' if ok else 'FAILED (log %s)' % r['log']))
        for line in r['why']:
            print('         ' + line)
        for a in r['artifacts']:
            print('         input: ' + a)
    print('fuzz: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
