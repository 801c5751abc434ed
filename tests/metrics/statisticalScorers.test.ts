import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  computeBleu,
  computeMeteor,
  computeRouge,
  levenshteinDistance,
  porterStem,
  scoreStatistically,
  statisticalTokens,
} from "@/lib/metrics/statistical";

/**
 * Reference values from Debian's python3-nltk 3.8, produced by
 * tests/fixtures/statistical/nltk_reference.py on tests/fixtures/statistical/pairs.json:
 *   bleu   = sentence_bleu([ref], hyp, weights=(0.25, 0.25, 0.25, 0.25),
 *                          smoothing_function=SmoothingFunction().method1)
 *   meteor = meteor_score([ref], hyp, wordnet=NoSynonyms())   # default PorterStemmer(), alpha 0.9, beta 3, gamma 0.5
 *   edit_distance = nltk.metrics.distance.edit_distance(response, expected)   # on the raw strings
 * with hyp/ref tokenised as re.findall(r"[^\W_]+", text.lower()), the same as statisticalTokens.
 * METEOR: WordNet is not shipped with Assay, so NLTK ran with a WordNet stub that
 * has no synonyms (exact and stem stages only), which is what lib/metrics/statistical/meteor.ts implements.
 */
const NLTK_3_8 = [
  { bleu: 1.0, meteor: 0.9976851851851852, editDistance: 0 },
  { bleu: 0.17567205239427922, meteor: 0.6147540983606558, editDistance: 11 },
  { bleu: 0.22172045047934608, meteor: 0.5471498944405349, editDistance: 25 },
  { bleu: 0.07730551756939454, meteor: 0.7311475409836065, editDistance: 11 },
  { bleu: 0.0011981952414407235, meteor: 0.0909090909090909, editDistance: 26 },
  { bleu: 0.537284965911771, meteor: 0.9561042524005487, editDistance: 26 },
  { bleu: 0.04594899010019892, meteor: 0.485126253891387, editDistance: 44 },
  { bleu: 0, meteor: 0.0, editDistance: 26 },
];

const PAIRS: [string, string][] = JSON.parse(
  fs.readFileSync(path.join(__dirname, "../fixtures/statistical/pairs.json"), "utf8"),
);

describe("statistical scorers against NLTK 3.8", () => {
  it("has a reference value for every pair", () => {
    expect(PAIRS).toHaveLength(NLTK_3_8.length);
  });

  PAIRS.forEach(([response, expected], i) => {
    it(`pair ${i + 1}: BLEU-4 (method 1), METEOR and edit distance match NLTK`, () => {
      const hyp = statisticalTokens(response);
      const ref = statisticalTokens(expected);
      expect(computeBleu(hyp, ref).score).toBeCloseTo(NLTK_3_8[i].bleu, 12);
      expect(computeMeteor(hyp, ref).score).toBeCloseTo(NLTK_3_8[i].meteor, 12);
      expect(levenshteinDistance(response, expected)).toBe(NLTK_3_8[i].editDistance);
    });
  });

  it("stems as NLTK's default PorterStemmer does (including its extensions)", () => {
    // Values from PorterStemmer().stem(word) in NLTK 3.8.
    const expected: Record<string, string> = {
      running: "run",
      runs: "run",
      stations: "station",
      quickly: "quickli",
      generalization: "gener",
      happy: "happi",
      enjoy: "enjoy",
      skies: "sky",
      dying: "die",
      ties: "tie",
      cried: "cri",
      hopefulness: "hope",
      controlling: "control",
      is: "is",
      constructor: "constructor",
    };
    for (const [word, stem] of Object.entries(expected)) expect(porterStem(word), word).toBe(stem);
  });
});

describe("ROUGE against hand-computed values", () => {
  it("counts clipped unigram and bigram overlap and the longest common subsequence", () => {
    // "the cat is sitting on the mat" vs "a cat sat on the mat": unigrams the, cat, on, mat shared (4 of 7, 4 of 6);
    // bigrams "on the", "the mat" (2 of 6, 2 of 5); LCS cat-on-the-mat (4).
    const { rouge1, rouge2, rougeL } = computeRouge(statisticalTokens(PAIRS[1][0]), statisticalTokens(PAIRS[1][1]));
    expect(rouge1.precision).toBeCloseTo(4 / 7, 12);
    expect(rouge1.recall).toBeCloseTo(4 / 6, 12);
    expect(rouge1.f1).toBeCloseTo(8 / 13, 12);
    expect(rouge2.f1).toBeCloseTo(4 / 11, 12);
    expect(rougeL.f1).toBeCloseTo(8 / 13, 12);
  });

  it("rewards order in ROUGE-2 and ROUGE-L but not in ROUGE-1", () => {
    // Same nine words, reordered: every unigram shared; 7 of 8 bigrams; the LCS is 4 words ("the quick brown fox").
    const { rouge1, rouge2, rougeL } = computeRouge(statisticalTokens(PAIRS[5][0]), statisticalTokens(PAIRS[5][1]));
    expect(rouge1.f1).toBe(1);
    expect(rouge2.f1).toBeCloseTo(7 / 8, 12);
    expect(rougeL.f1).toBeCloseTo(4 / 9, 12);
  });

  it("is 0 on an empty side", () => {
    expect(computeRouge([], ["a"]).rougeL.f1).toBe(0);
    expect(computeRouge(["a"], []).rouge1.f1).toBe(0);
  });
});

describe("scoreStatistically", () => {
  it("gives rouge's score as ROUGE-L F1 and keeps ROUGE-1/2 as figures", () => {
    const verdict = scoreStatistically("response/statistical/rouge", PAIRS[1][0], PAIRS[1][1]);
    expect(verdict.score).toBeCloseTo(8 / 13, 12);
    expect(verdict.details?.figures?.rouge2_f1).toBeCloseTo(4 / 11, 4);
    expect(verdict.rationale).toContain("ROUGE-L F1 0.6154");
  });

  it("normalises the edit distance by the longer text; identical texts score 1, two empty texts too", () => {
    const verdict = scoreStatistically("response/statistical/levenshtein", "kitten", "sitting");
    expect(verdict.score).toBeCloseTo(1 - 3 / 7, 12);
    expect(scoreStatistically("response/statistical/levenshtein", "same", "same").score).toBe(1);
    expect(scoreStatistically("response/statistical/levenshtein", "", "").score).toBe(1);
  });

  it("scores BLEU 0 when no word matches and a perfect match 1", () => {
    expect(scoreStatistically("response/statistical/bleu", "alpha beta", "gamma delta").score).toBe(0);
    expect(scoreStatistically("response/statistical/bleu", PAIRS[0][0], PAIRS[0][1]).score).toBeCloseTo(1, 12);
  });
});
