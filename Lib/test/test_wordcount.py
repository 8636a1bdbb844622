# A word count with a dict.
text = """the quick brown fox jumps over the lazy dog
the dog barks and the fox runs
a quick brown dog"""

counts = {}
for line in text.split("\n"):
    for word in line.split():
        counts[word] = counts.get(word, 0) + 1

for word in sorted(counts):
    print(word, counts[word])

most = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
print(most)
print(len(counts), "the" in counts, "cat" in counts)
del counts["the"]
print(list(counts.keys())[:4], sum(counts.values()))
