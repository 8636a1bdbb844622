"""String building, splitting, dict counting and sorting."""

words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
counts = {}
text = []
for i in range(200000):
    w = words[(i * 7) % len(words)] + str(i % 13)
    text.append(w)
joined = " ".join(text)
for w in joined.split():
    counts[w] = counts.get(w, 0) + 1
top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
out = []
for k, v in top:
    out.append(f"{k.upper()}:{v:>5}")
print(", ".join(out), len(joined))
