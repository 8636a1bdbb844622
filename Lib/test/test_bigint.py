# Arbitrary-precision integers.
print(2 ** 200)
print(-(2 ** 200) // 3, (2 ** 200) % 97, divmod(-(10 ** 30), 7))
x = 1
for i in range(1, 50):
    x *= i
print(x)
print(x // (2 ** 64), x >> 100, x & 0xFFFF, x | 1, x ^ x)
print(3 ** 100 - 3 ** 99, -7 // 2, -7 % 2, 7 // -2, 2 ** -1)
print(int("123456789012345678901234567890") * 10 + 5)
print(hex(2 ** 70), bin(37), oct(64), int("ff", 16), int("0b101", 0))
print(10 ** 20 == 100000000000000000000, 10 ** 20 > 10 ** 19, abs(-(10 ** 25)))
print(sum(range(10 ** 6)))
print(pow(3, 200, 1000000007), pow(2, 10), round(2 ** 0.5, 4))
big = 12345678901234567890
print(big * big, big / 10, float(big))
