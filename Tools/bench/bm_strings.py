"""String building, splitting, dict counting and sorting.  The size is
the number of words.
"""

from benchlib import main

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]


def workload(size):
    counts = {}
    text = []
    for i in range(size):
        text.append(WORDS[(i * 7) % len(WORDS)] + str(i % 13))
    joined = " ".join(text)
    for w in joined.split():
        counts[w] = counts.get(w, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    out = [f"{k.upper()}:{v:>5}" for k, v in top]
    return ", ".join(out) + f" {len(joined)}"


if __name__ == "__main__":
    main(workload, default=1100000, quick=20000,
         expect={1100000: 'ALPHA0:10577, ALPHA1:10577, ALPHA10:10577, ALPHA11:10577, ALPHA12:10577 7678844',
                 20000: 'ALPHA0:  193, ALPHA11:  193, ALPHA3:  193, ALPHA8:  193, BETA10:  193 139613'})
