"""Reference sentences, word_tokenize tokens and DeepEval's BLEU for tests/metrics/punktSentences.test.ts.

NLTK 3.8's word_tokenize(text) is sent_tokenize(text) (PunktSentenceTokenizer with the English model) and then
NLTKWordTokenizer over each sentence. Debian's NLTK has no model; this loads the English punkt_tab tables
that Assay ships (lib/metrics/statistical/punkt/english.json, converted by scripts/punktTables.ts from
nltk_data's tokenizers/punkt_tab/english) into NLTK's own PunktParameters, so every decision is NLTK's code.
DeepEval's BLEU (deepeval/scorer/scorer.py, sentence_bleu_score) is sentence_bleu on word_tokenize tokens
with one n-gram order: bleu1 is weights (1, 0, 0, 0).
Run with Debian's NLTK:  apt-get install -y python3-nltk && /usr/bin/python3 tests/metrics/reference/punkt_reference.py > tests/metrics/reference/punkt_reference.jsonl
"""
import json
import random
import warnings
from collections import defaultdict
from pathlib import Path

from nltk.tokenize import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
from nltk.translate.bleu_score import sentence_bleu

warnings.simplefilter("ignore")
TABLES = json.loads((Path(__file__).resolve().parents[3] / "lib/metrics/statistical/punkt/english.json").read_text())
params = PunktParameters()
params.abbrev_types = set(TABLES["abbrevTypes"])
params.collocations = set(tuple(pair) for pair in TABLES["collocations"])
params.sent_starters = set(TABLES["sentStarters"])
params.ortho_context = defaultdict(int, TABLES["orthoContext"])
SENTENCES = PunktSentenceTokenizer(params)
WORDS = NLTKWordTokenizer()


def word_tokenize(text):
    return [token for sentence in SENTENCES.tokenize(text) for token in WORDS.tokenize(sentence)]


# Written by hand: each of Punkt's rules, and the cases its README and doctests discuss.
TEXTS = [
    "Dr. Smith arrived at 5 p.m. on Friday. He left early.",
    "The U.S. economy grew 2% in Q3. Analysts expected more.",
    "Mr. and Mrs. Jones live on Elm St. in Springfield. They moved in 1987. The house is old.",
    "J. Bach wrote it. S. Bach did not.",
    "Take vitamin A. The dose is small.",
    "It was founded in 1987. the year after, it grew.",
    "Prices rose 5. International markets fell.",
    "See e.g. the appendix. It lists everything.",
    "Wait... The results are in. Wait... Smith said so.",
    "\"Stop.\" He turned. (See the notes.) Then we left.",
    "Is it done? Yes! It is done.",
    "Very bad acting!!! I promise.",
    "The co. was sold to Acme Inc. for $3.5 million. Its ex-Gov. chairman resigned.",
    "We met at 10 a.m. The meeting ran long.",
    "He earned a Ph.D. in 1990. Then he taught.",
    "Refunds take 14 days.\nContact support for help.\n\nThanks.",
    "The total was 3.5 kg. after drying. Next, weigh it again.",
    "It costs $4. But shipping is free.",
    "Call me at 555-1234. I'll be home.",
    "Section 2.1. Overview of the design.",
    "The results (see Fig. 3) were clear. Nothing changed.",
    "Jan.-Feb. sales were weak. March was better.",
    "They arrived at 9 p.m. Dinner was served.",
    "Gen. Smith and Col. Brown met Sen. Jones. They talked.",
    "This is the end.'' Another begins.",
    "Ellipsis . . . then more. And more.",
    "A.B.C. Corp. reported earnings. Shares rose.",
    "I said no. No means no.",
    "Numbers: 1. first 2. second 3. third.",
    "It's 5 o'clock. Time to go!",
    "«Bonjour.» Il est parti. Ça va?",
    "Le Dr. Martin est arrivé. Il a dit oui.",
    "Über den Fluss. Danach nichts.",
    "The U.S.A. is large. Canada is larger.",
    "He works for the U.S. Congress. It meets daily.",
    "Visit www.example.com. It has docs.",
    "Version 2.0. is out. Update now.",
    "The temperature was -5. Then it snowed.",
    "Q. What is it? A. Nobody knows.",
    "Smith et al. found the same. Their paper is short.",
]

# Random texts over words of every kind Punkt treats differently, seeded: not written to pass.
VOCABULARY = (
    "the The a A he He she it It they They however However but But in In and of to was is "
    "Dr. Mr. Mrs. Prof. Inc. Co. Corp. Ltd. U.S. p.m. a.m. e.g. i.e. etc. vs. Jan. Feb. St. Gen. "
    "J. K. S. B. A. 1987. 5. 3.5 42 $3.88 Q3. 2%. Smith Jones Bach Congress International "
    "sales revenue grew fell ... ! ? ; : , ( ) \" ' -- refund days Acme Paris"
).split()


def random_text(rng):
    words = [rng.choice(VOCABULARY) for _ in range(rng.randint(4, 24))]
    text = " ".join(words)
    return text + rng.choice([".", "", "!", "?", ".\"", ".)"])


rng = random.Random(20261130)
TEXTS += [random_text(rng) for _ in range(400)]

PAIRS = [
    ("Dr. Smith will see you at 5 p.m. today.", "Dr. Smith sees patients at 5 p.m. on weekdays."),
    ("The U.S. economy grew in Q3. Analysts were surprised.", "In Q3. the U.S. economy shrank. Analysts expected growth."),
    ("Mr. Jones paid $3.5 million. He was pleased.", "Mr. Jones paid 3.5 million dollars for it."),
    ("J. Bach wrote the piece in 1723. It is long.", "The piece was written by J. Bach in 1723."),
]

for text in TEXTS:
    print(json.dumps({"text": text, "sentences": SENTENCES.tokenize(text), "tokens": word_tokenize(text)}, ensure_ascii=False))
for response, expected in PAIRS:
    hyp, ref = word_tokenize(response), word_tokenize(expected)
    print(json.dumps({"response": response, "expected": expected, "bleu1": sentence_bleu([ref], hyp, weights=(1, 0, 0, 0))}, ensure_ascii=False))
