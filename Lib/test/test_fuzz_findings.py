# Regressions for what the fuzzers (Tools/fuzz, Doc/fuzzing.md) found.

# compile()'s optimize is positional-or-keyword (the fuzz harness passed
# it as the sixth positional argument and got a TypeError).
src = 'def f():\n    """doc"""\n    assert 0, "x"\n'
for level in (-1, 0, 1, 2):
    ns = {}
    exec(compile(src, 'f', 'exec', 0, True, level), ns)
    try:
        ns['f']()
        asserted = 'no'
    except AssertionError:
        asserted = 'yes'
    print('optimize', level, 'doc:', ns['f'].__doc__, 'asserts:', asserted)
print(eval(compile('1 + 2', 'f', 'eval', 0, 1, 2, _feature_version=-1)))
try:
    compile('1', 'f', 'eval', 0, 1, 2, -1)
except TypeError as e:
    print('TypeError', e)
