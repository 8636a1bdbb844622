# int, float and bool arithmetic, comparison and conversion.
print(7 + 3, 7 - 3, 7 * 3, 7 / 2, 7 // 2, 7 % 3, 2 ** 10, -7 // 2)
print(1.5 + 2, 0.1 + 0.2, 1 / 3, 2.0 ** 0.5, 1e100, 1e-7, 123456789.0 * 10)
print(3.0, -0.0, 1e16, 1.5e-5, float("inf"), -float("inf"), 100.0 / 3)
print(int(3.99), int(-3.99), float(2), int("  42 "), float(" 1.25 "), int(True))
print(round(2.5), round(3.5), round(2.675, 2), abs(-3), abs(-2.5))
print(1 < 2 < 3, 1 < 2 > 3, 2 == 2.0, 3 != 3, 0.1 + 0.2 == 0.3)
print(True + True, True * 3, not 0, not 1, bool(""), bool([0]))
print(5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 10, 1024 >> 3)
x = 10
x += 5
x -= 3
x *= 2
x //= 5
x **= 3
x %= 50
print(x)
y = 2.0
y /= 4
print(y)
print(max(3, 9, 2), min([4, 1, 8]), sum([1.5, 2.5]), divmod(17, 5), divmod(-17.0, 5))
print(isinstance(1, int), isinstance(1.0, int), isinstance(True, int), isinstance("s", (int, str)))
print(0 or 5, 3 and 4, None or "default", 0 and 1/0)
print(float("nan") == float("nan"), 1e308 * 10, -1e308 * 10)
print(hash(1) == hash(1.0), (2 ** 61 - 1) % 7, 10 / 4, 9 ** 0.5)
print(sum([0.1] * 10), sum([1e100, 1.0, -1e100, 1.0]), sum([0.1, 0.2, 0.3]), sum([1, 0.1] * 3), sum([1, 2.5, True]))
