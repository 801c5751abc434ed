"""Reference tokens and BLEU values for tests/metrics/bleuVariants.test.ts.

DeepEval's BLEU (deepeval/scorer/scorer.py, sentence_bleu_score): word_tokenize on both sides, then NLTK's
sentence_bleu with weights (1,0,0,0) for bleu1 up to (0,0,0,1) for bleu4: one n-gram order each, no smoothing.
word_tokenize splits sentences with Punkt, whose model is not in Debian's package; each case here gives its
sentences already split, and word_tokenize is NLTKWordTokenizer over each, which is what it runs.
Run with Debian's NLTK:  apt-get install -y python3-nltk && /usr/bin/python3 tests/metrics/reference/bleu_reference.py
"""
import json
import warnings

from nltk.tokenize import NLTKWordTokenizer
from nltk.translate.bleu_score import sentence_bleu

warnings.simplefilter("ignore")
TOKENIZER = NLTKWordTokenizer()

CASES = [
    (["The cat sat on the mat."], ["The cat is sitting on the mat."]),
    (["It's \"great\", isn't it?", "I can't say..."], ["It is great, is it not?", "I cannot say."]),
    (["Refunds take 14 days (from the return date)."], ["Refunds are issued within 14 days of the return."]),
    (["We're gonna ship it -- today; cost: $3.88 & tax!"], ["We will ship it today; it costs $3.88 plus tax."]),
    (["Ça coûte 3,50 € « net »."], ["Ça coûte 3,50 € net."]),
    (["yes"], ["No, it does not."]),
]

for hypothesis, reference in CASES:
    hyp = [t for s in hypothesis for t in TOKENIZER.tokenize(s)]
    ref = [t for s in reference for t in TOKENIZER.tokenize(s)]
    weights = {"bleu1": (1, 0, 0, 0), "bleu2": (0, 1, 0, 0), "bleu3": (0, 0, 1, 0), "bleu4": (0, 0, 0, 1)}
    scores = {name: sentence_bleu([ref], hyp, weights=w) for name, w in weights.items()}
    print(json.dumps({"hypothesis": " ".join(hypothesis), "reference": " ".join(reference), "hyp_tokens": hyp, "ref_tokens": ref, **scores}, ensure_ascii=False))
