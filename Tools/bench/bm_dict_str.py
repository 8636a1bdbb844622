"""Dictionaries keyed by strings: counting words of a generated text,
grouping them by first letter, an inverted index from word to line
numbers, and lookups with ``in``, ``get`` and ``setdefault``; with the
string methods that feed them (``split``, ``lower``, ``strip``,
``startswith``, slicing).  The size is the number of lines of text.
"""

from benchlib import Lcg, main

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "ta", "so", "vi", "de", "po",
             "an", "el", "or", "us", "iz"]


def make_words(rng, count):
    words = []
    for _ in range(count):
        n = 1 + rng.below(3)
        words.append("".join(SYLLABLES[rng.below(len(SYLLABLES))] for _ in range(n)))
    return words


def make_text(rng, vocabulary, lines):
    text = []
    for _ in range(lines):
        picked = [vocabulary[rng.below(len(vocabulary))] for _ in range(8)]
        if rng.below(4) == 0:
            picked[0] = picked[0].upper()
        text.append("  " + " ".join(picked) + ". ")
    return text


def analyse(text):
    counts = {}
    index = {}
    by_letter = {}
    for number, line in enumerate(text):
        for word in line.strip().rstrip(".").split():
            word = word.lower()
            counts[word] = counts.get(word, 0) + 1
            index.setdefault(word, []).append(number)
            first = word[0]
            if first in by_letter:
                by_letter[first].add(word)
            else:
                by_letter[first] = {word}
    return counts, index, by_letter


def workload(size):
    rng = Lcg(4242)
    vocabulary = make_words(rng, 400)
    text = make_text(rng, vocabulary, size)
    counts, index, by_letter = analyse(text)
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    spread = sum(lines[-1] - lines[0] for lines in index.values())
    vowels = sum(len(ws) for letter, ws in by_letter.items() if letter in "aeiou")
    prefixed = sum(1 for w in counts if w.startswith("ka") or w[-2:] == "iz")
    misses = sum(1 for w in vocabulary if w + "x" in counts)
    return (len(counts), top[0][0], top[0][1], top[-1][1], spread % 1000003,
            vowels, prefixed, misses)


if __name__ == "__main__":
    main(workload, default=80000, quick=2000,
         expect={80000: '(256, lo, 23780, 9408, 458546, 78, 36, 0)',
                 2000: '(256, lo, 566, 239, 491808, 78, 36, 0)'})
