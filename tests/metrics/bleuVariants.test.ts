import { describe, expect, it } from "vitest";
import { computeIndividualBleu, scoreStatistically, wordTokenize } from "@/lib/metrics/statistical";

/**
 * Reference tokens and scores from NLTK 3.8, printed by tests/metrics/reference/bleu_reference.py
 * (apt-get install -y python3-nltk, then /usr/bin/python3 tests/metrics/reference/bleu_reference.py):
 * DeepEval's bleu1 … bleu4 are NLTK's sentence_bleu with the weight on one order, on word_tokenize's tokens.
 * [response, expected, response tokens, expected tokens, [bleu1, bleu2, bleu3, bleu4]].
 */
const CASES: [string, string, string[], string[], number[]][] = [
  [
    "The cat sat on the mat.",
    "The cat is sitting on the mat.",
    ["The", "cat", "sat", "on", "the", "mat", "."],
    ["The", "cat", "is", "sitting", "on", "the", "mat", "."],
    [0.7430381997858699, 0.5779185998334544, 0.3467511599000727, 0.21671947493754543],
  ],
  [
    "It's \"great\", isn't it? I can't say...",
    "It is great, is it not? I cannot say.",
    ["It", "'s", "``", "great", "''", ",", "is", "n't", "it", "?", "I", "ca", "n't", "say", "..."],
    ["It", "is", "great", ",", "is", "it", "not", "?", "I", "can", "not", "say", "."],
    [0.5333333333333333, 0.14285714285714285, 2.2250738585072626e-308, 2.2250738585072626e-308],
  ],
  [
    "Refunds take 14 days (from the return date).",
    "Refunds are issued within 14 days of the return.",
    ["Refunds", "take", "14", "days", "(", "from", "the", "return", "date", ")", "."],
    ["Refunds", "are", "issued", "within", "14", "days", "of", "the", "return", "."],
    [0.5454545454545454, 0.2, 2.2250738585072626e-308, 2.2250738585072626e-308],
  ],
  [
    "We're gonna ship it -- today; cost: $3.88 & tax!",
    "We will ship it today; it costs $3.88 plus tax.",
    ["We", "'re", "gon", "na", "ship", "it", "--", "today", ";", "cost", ":", "$", "3.88", "&", "tax", "!"],
    ["We", "will", "ship", "it", "today", ";", "it", "costs", "$", "3.88", "plus", "tax", "."],
    [0.5, 0.2, 2.2250738585072626e-308, 2.2250738585072626e-308],
  ],
  [
    "Ça coûte 3,50 € « net ».",
    "Ça coûte 3,50 € net.",
    ["Ça", "coûte", "3,50", "€", "«", "net", "»", "."],
    ["Ça", "coûte", "3,50", "€", "net", "."],
    [0.75, 0.42857142857142855, 0.3333333333333333, 0.2],
  ],
  ["yes", "No, it does not.", ["yes"], ["No", ",", "it", "does", "not", "."], [0, 0, 0, 0]],
];

describe("DeepEval's BLEU variants, as NLTK computes them", () => {
  it.each(CASES)("%s against %s", (response, expected, responseTokens, expectedTokens, scores) => {
    expect(wordTokenize(response)).toEqual(responseTokens);
    expect(wordTokenize(expected)).toEqual(expectedTokens);
    scores.forEach((score, i) => {
      const order = (i + 1) as 1 | 2 | 3 | 4;
      expect(computeIndividualBleu(responseTokens, expectedTokens, order).score, `bleu${order}`).toBeCloseTo(score, 12);
    });
  });

  it("scores bleu by the run's type, the smoothed BLEU-4 by default, and says which in the reason", () => {
    const [response, expected, , , scores] = CASES[0];
    const byDefault = scoreStatistically("response/statistical/bleu", response, expected);
    expect(byDefault.rationale).toMatch(/^BLEU-4 \S+: n-gram precisions .* smoothed by NLTK's method 1/);
    const bleu2 = scoreStatistically("response/statistical/bleu", response, expected, { bleuType: "bleu2" });
    expect(bleu2.score).toBeCloseTo(scores[1], 12);
    expect(bleu2.rationale).toMatch(/^BLEU-2 0\.5779 \(DeepEval's bleu2: 2-gram precision /);
    expect(byDefault.score).not.toBeCloseTo(bleu2.score ?? 0, 3);
  });
});
