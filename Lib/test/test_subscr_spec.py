# BINARY_OP_SUBSCR_STR_INT and BINARY_OP_SUBSCR_DICT: hot on their types,
# then given others and failing lookups.
REPEAT = 40


def item(container, key):
    return container[key]


def hot(*args):
    for _ in range(REPEAT):
        result = item(*args)
    return result


print(hot("hello", 1), hot("héllo€", 5), hot("😀x", 0), hot({"a": 1}, "a"), hot({(1, 2): "t"}, (1, 2)))
print(item("abc", -1), item("abc", True), item([5, 6], 1), item({1: "one"}, 1.0))
for args in (("abc", 3), ("abc", 2**70), ("", 0), ({}, "k"), ({"a": 1}, ["unhashable"]), ({}, (1, 2))):
    try:
        item(*args)
    except (IndexError, KeyError, TypeError) as e:
        print(type(e).__name__, repr(e))


class D(dict):
    def __missing__(self, key):
        return ("missing", key)


print(item(D(), "x"), hot(D(a=1), "a"))


class S(str):
    def __getitem__(self, i):
        return "sub"


print(item(S("abc"), 0))


class BadHash:
    def __hash__(self):
        raise RuntimeError("no hash")


try:
    item({1: 2}, BadHash())
except RuntimeError as e:
    print("hash raised:", e)
s = "x" * 300 + "é"
print([item(s, i) for i in (0, 299, 300)], item(s, 300) is item(s, 300))
