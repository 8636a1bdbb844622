# sys.float_info: every field in its place, with its C double value.
import sys

info = sys.float_info
for name in ("max", "max_exp", "max_10_exp", "min", "min_exp", "min_10_exp",
             "dig", "mant_dig", "epsilon", "radix", "rounds"):
    value = getattr(info, name)
    print(name, type(value).__name__, repr(value))
print(len(info), info[7] == info.mant_dig)
print(info.epsilon == 2.0 ** (1 - info.mant_dig))
print(info.radix ** info.mant_dig == 2 ** 53)
try:
    info.dig = 3
except AttributeError as exc:
    print(type(exc).__name__)
