# Building and slicing strings.
parts = []
for i in range(5):
    parts.append(str(i) * i)
print(parts)
print("-".join(parts))

s = ""
for word in ["alpha", "beta", "gamma"]:
    s += word.upper() + ","
print(s)
print(s[:5], s[-6:], s[::2], s[::-1])
print(len(s), s.count("A"), s.find("BETA"), s.replace(",", ";"))
print("  padded  ".strip(), "x".center(7, "*"), "42".zfill(5))
print("a,b,,c".split(","), "a b  c".split(), "line1\nline2".splitlines())
print("Hello"[1], "Hello"[-1], "Hello"[1:4])
print("abc" < "abd", "abc" == "abc", "b" in "abc")
print(repr("quote's"), repr('double"'), repr("tab\there"))
name = "world"
value = 3.14159
print(f"hello {name}! {value:.2f} {len(name)} {name!r} {value=}")
print("%s has %d items (%.1f%%)" % ("list", 3, 42.5))
print("{} and {}".format("x", "y"), "{0}{1}{0}".format("a", "b"))
print("ÿ€😀", len("ÿ€😀"), ord("€"), chr(8364))
print(str(12), str(1.5), str(None), str(True), repr([1, "a"]))
