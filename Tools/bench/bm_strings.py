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
    main(workload, default=900000, quick=20000,
         expect={900000: 'ALPHA0: 8654, ALPHA1: 8654, ALPHA11: 8654, ALPHA12: 8654, ALPHA2: 8654 6282689',
                 20000: 'ALPHA0:  193, ALPHA11:  193, ALPHA3:  193, ALPHA8:  193, BETA10:  193 139613'})
