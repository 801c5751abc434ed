import { describe, expect, it } from "vitest";
import { computeRougeScores, rougeTokens, scoreStatistically } from "@/lib/metrics/statistical";

/**
 * Reference values from Google's rouge_score algorithm over NLTK 3.8's Porter stemmer, printed by
 * tests/metrics/reference/rouge_reference.py (apt-get install -y python3-nltk, then
 * /usr/bin/python3 tests/metrics/reference/rouge_reference.py): [response, expected, F-measures stemmed,
 * F-measures without stemming], each as rouge1, rouge2, rougeL, rougeLsum.
 */
const CASES: [string, string, number[], number[]][] = [
  [
    "The cats are running quickly.",
    "The cat runs quickly.",
    [0.888888888888889, 0.5714285714285715, 0.888888888888889, 0.888888888888889],
    [0.4444444444444445, 0, 0.4444444444444445, 0.4444444444444445],
  ],
  [
    "The quick brown dog jumps on the log.",
    "The quick brown fox jumps over the lazy dog",
    [0.7058823529411765, 0.26666666666666666, 0.5882352941176471, 0.5882352941176471],
    [0.7058823529411765, 0.26666666666666666, 0.5882352941176471, 0.5882352941176471],
  ],
  [
    "You will get your refund within fourteen days after returning it.",
    "Refunds are issued within 14 days of the return.",
    [0.39999999999999997, 0, 0.39999999999999997, 0.39999999999999997],
    [0.19999999999999998, 0, 0.19999999999999998, 0.19999999999999998],
  ],
  [
    "Generalizing the results needs care.\nMore studies are planned for next year.",
    "The generalization of these results requires caution.\nFurther studies are planned.",
    [0.5217391304347826, 0.1904761904761905, 0.43478260869565216, 0.43478260869565216],
    [0.43478260869565216, 0.1904761904761905, 0.43478260869565216, 0.43478260869565216],
  ],
  [
    "cafe prices 3 50",
    "Café prices: 3,50 €",
    [0.75, 0.6666666666666666, 0.75, 0.75],
    [0.75, 0.6666666666666666, 0.75, 0.75],
  ],
  [
    "The store pays shipping.\nThe refund arrives in five days.",
    "The refund arrives in five days.\nThe store pays shipping.",
    [1, 0.8888888888888888, 0.6, 1],
    [1, 0.8888888888888888, 0.6, 1],
  ],
  ["anything at all", "", [0, 0, 0, 0], [0, 0, 0, 0]],
];

const TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"] as const;

describe("ROUGE as Google's rouge_score computes it (DeepEval's scorer)", () => {
  it.each(CASES)("%s against %s", (response, expected, stemmed, unstemmed) => {
    const withStems = computeRougeScores(response, expected);
    const without = computeRougeScores(response, expected, { stem: false });
    TYPES.forEach((type, i) => {
      expect(withStems[type].f1, `${type} stemmed`).toBeCloseTo(stemmed[i], 12);
      expect(without[type].f1, `${type} unstemmed`).toBeCloseTo(unstemmed[i], 12);
    });
  });

  it("tokenises as rouge_score: ASCII letters and digits only, stems past three letters", () => {
    expect(rougeTokens("Café's 3,50 € — RUNNING runs; ran!", true)).toEqual([
      "caf",
      "s",
      "3",
      "50",
      "run",
      "run",
      "ran",
    ]);
    expect(rougeTokens("Café's RUNNING", false)).toEqual(["caf", "s", "running"]);
  });

  it("scores rouge by the run's type, ROUGE-L by default, and keeps every type as a figure", () => {
    const [response, expected] = CASES[5];
    const byDefault = scoreStatistically("response/statistical/rouge", response, expected);
    expect(byDefault.score).toBeCloseTo(0.6, 12);
    expect(byDefault.rationale).toMatch(
      /^ROUGE-L F1 0\.6000 .*Porter-stemmed.*ROUGE-1 1\.0000, ROUGE-2 0\.8889, ROUGE-Lsum 1\.0000\.$/,
    );
    expect(byDefault.details?.figures).toMatchObject({ rougeLsum_f1: 1, rouge1_f1: 1, rougeL_f1: 0.6 });
    const bySummary = scoreStatistically("response/statistical/rouge", response, expected, { rougeType: "rougeLsum" });
    expect(bySummary.score).toBe(1);
    expect(bySummary.rationale).toMatch(/^ROUGE-Lsum F1 1\.0000/);
  });
});
