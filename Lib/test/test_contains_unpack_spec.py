# The .exp is 3.13 output except the unpacking messages, which say "got N" as 3.14 does.
# CONTAINS_OP_SET, CONTAINS_OP_DICT and UNPACK_SEQUENCE_TWO_TUPLE: hot on
# their own types, then fed others and failures.
REPEAT = 40


def member(x, container):
    return x in container, x not in container


def hot(fn, *args):
    for _ in range(REPEAT):
        result = fn(*args)
    return result


print(hot(member, 1, {1, 2}), hot(member, 3, frozenset({1})), hot(member, "k", {"k": 0}))


class MySet(set):
    def __contains__(self, x):
        return "overridden"


class MyDict(dict):
    def __contains__(self, x):
        return False


print(member(1, MySet({1})), member("k", MyDict(k=1)), member(2, [1, 2]), member("b", "abc"))
for bad in ([1], {}, set()):
    for container in ({1}, {"a": 1}):
        try:
            member(bad, container)
        except TypeError as e:
            print(type(container).__name__, e)


class Eq:
    def __hash__(self):
        return 1

    def __eq__(self, other):
        raise RuntimeError("eq failed")


class Other:
    def __hash__(self):
        return 1


for container in ({Other()}, {Other(): 1}):
    try:
        member(Eq(), container)
    except RuntimeError as e:
        print("lookup raised:", e)


def pair(p):
    a, b = p
    return b, a


print(hot(pair, (1, 2)), pair([3, 4]), pair("xy"), pair(iter((5, 6))))
for bad in ((1, 2, 3), (1,), [1, 2, 3], 7):
    try:
        pair(bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)


class Tup(tuple):
    pass


print(pair(Tup((8, 9))))
