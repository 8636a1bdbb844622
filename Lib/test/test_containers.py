# list, tuple, dict and range: indexing, slicing, mutation, iteration.
nums = [5, 3, 8, 1]
nums.append(7)
nums.insert(0, 9)
nums.extend([2, 2])
print(nums, len(nums), nums[0], nums[-1], nums[2:5], nums[::-2])
nums.sort()
print(nums, nums.index(8), nums.count(2), nums.pop(), nums.pop(0))
nums.remove(2)
nums.reverse()
print(nums)
nums[1:3] = ["a", "b", "c"]
del nums[0]
print(nums, nums * 2, nums + [0])
print(sorted([3, 1, 2], reverse=True), [x * x for x in range(6) if x % 2 == 0])

t = (1, "two", 3.0, None)
print(t, t[1], t[-1], t[1:3], len(t), 3.0 in t, (1,), ())
a, b, *rest = [1, 2, 3, 4, 5]
print(a, b, rest)
x, y = 10, 20
x, y = y, x
print(x, y)
(p, q), r = (1, 2), 3
print(p, q, r)

d = {"one": 1, "two": 2}
d["three"] = 3
d.update({"four": 4})
print(d, len(d), d["two"], d.get("five"), d.get("five", 5))
print(list(d.keys()), list(d.values()), list(d.items())[:2])
print({k: v * 10 for k, v in d.items() if v > 1})
print(d.pop("one"), "one" in d, d.setdefault("six", 6), d)
nested = {"a": [1, 2, {"b": (3, 4)}]}
print(nested["a"][2]["b"][1])

r = range(2, 20, 3)
print(r, list(r), len(r), r[2], r[-1], 11 in r, list(range(5, 0, -1)))
print(list(zip("abc", range(3))), list(enumerate(["x", "y"], 1)))
print({1, 2, 3} | {3, 4}, {x % 3 for x in range(10)}, set())
print(list(reversed([1, 2, 3])), any([0, 0, 1]), all([]), [1, 2] < [1, 3])
matrix = [[i * 3 + j for j in range(3)] for i in range(3)]
print(matrix, [row[1] for row in matrix])
print([[0] * 2] * 2, list("hello"), tuple([1, 2]), dict([(1, 2)]))
