"""Reference ROUGE values for tests/metrics/rougeScore.test.ts.

Google's rouge_score algorithm (rouge_scorer.py and tokenize.py: lowercase, [^a-z0-9]+ to spaces, NLTK's
PorterStemmer() on tokens longer than 3 characters when stemming, F-measure of rouge1, rouge2, rougeL and
rougeLsum) written out here over NLTK 3.8's own stemmer, since the rouge-score package is not in Debian.
Run with Debian's NLTK:  apt-get install -y python3-nltk && /usr/bin/python3 tests/metrics/reference/rouge_reference.py
"""
import collections
import json
import re

from nltk.stem import porter

STEMMER = porter.PorterStemmer()


def tokenize(text, stem):
    text = re.sub(r"[^a-z0-9]+", " ", text.lower())
    tokens = re.split(r"\s+", text)
    if stem:
        tokens = [STEMMER.stem(x) if len(x) > 3 else x for x in tokens]
    return [x for x in tokens if re.match(r"^[a-z0-9]+$", x)]


def fmeasure(precision, recall):
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def ngrams(tokens, n):
    return collections.Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def score_ngrams(target, prediction, n):
    t, p = ngrams(target, n), ngrams(prediction, n)
    overlap = sum(min(count, p[gram]) for gram, count in t.items())
    precision = overlap / max(sum(p.values()), 1)
    recall = overlap / max(sum(t.values()), 1)
    return fmeasure(precision, recall)


def lcs_table(ref, can):
    table = [[0] * (len(can) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(can) + 1):
            table[i][j] = table[i - 1][j - 1] + 1 if ref[i - 1] == can[j - 1] else max(table[i - 1][j], table[i][j - 1])
    return table


def score_lcs(target, prediction):
    if not target or not prediction:
        return 0.0
    length = lcs_table(target, prediction)[-1][-1]
    return fmeasure(length / len(prediction), length / len(target))


def lcs_indices(ref, can):
    t = lcs_table(ref, can)
    i, j, out = len(ref), len(can), []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            out.insert(0, i - 1)
            i -= 1
            j -= 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return out


def score_lsum(target_text, prediction_text, stem):
    refs = [tokenize(s, stem) for s in target_text.split("\n") if len(s)]
    cans = [tokenize(s, stem) for s in prediction_text.split("\n") if len(s)]
    if not refs or not cans:
        return 0.0
    m, n = sum(map(len, refs)), sum(map(len, cans))
    if not m or not n:
        return 0.0
    counts_r, counts_c = collections.Counter(), collections.Counter()
    for s in refs:
        counts_r.update(s)
    for s in cans:
        counts_c.update(s)
    hits = 0
    for r in refs:
        union = sorted(set().union(*[lcs_indices(r, c) for c in cans]))
        for token in [r[i] for i in union]:
            if counts_c[token] > 0 and counts_r[token] > 0:
                hits += 1
                counts_c[token] -= 1
                counts_r[token] -= 1
    return fmeasure(hits / n, hits / m)


CASES = [
    ("The cat runs quickly.", "The cats are running quickly."),
    ("The quick brown fox jumps over the lazy dog", "The quick brown dog jumps on the log."),
    ("Refunds are issued within 14 days of the return.", "You will get your refund within fourteen days after returning it."),
    ("The generalization of these results requires caution.\nFurther studies are planned.", "Generalizing the results needs care.\nMore studies are planned for next year."),
    ("Café prices: 3,50 €", "cafe prices 3 50"),
    ("The refund arrives in five days.\nThe store pays shipping.", "The store pays shipping.\nThe refund arrives in five days."),
    ("", "anything at all"),
]

for target, prediction in CASES:
    result = {"target": target, "prediction": prediction}
    for stem in (True, False):
        t, p = tokenize(target, stem), tokenize(prediction, stem)
        suffix = "" if stem else "_unstemmed"
        result["rouge1" + suffix] = score_ngrams(t, p, 1)
        result["rouge2" + suffix] = score_ngrams(t, p, 2)
        result["rougeL" + suffix] = score_lcs(t, p)
        result["rougeLsum" + suffix] = score_lsum(target, prediction, stem)
    print(json.dumps(result))
