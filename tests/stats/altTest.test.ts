import { describe, expect, it } from "vitest";
import { alternativeAnnotatorTest, benjaminiYekutieli, studentTCdf, type JudgedPattern } from "@/lib/stats/altTest";
import { mulberry32 } from "@/lib/stats/prng";

/** Three people and a judge label `rows` yes/no rows; each person errs with `personError`, the judge with `judgeError`. */
function simulate(rows: number, personError: number, judgeError: number, seed = 1): JudgedPattern[] {
  const random = mulberry32(seed);
  const flip = (truth: string, error: number) => (random() < error ? (truth === "yes" ? "no" : "yes") : truth);
  return Array.from({ length: rows }, () => {
    const truth = random() < 0.5 ? "yes" : "no";
    return {
      values: [flip(truth, personError), flip(truth, personError), flip(truth, personError)],
      judge: flip(truth, judgeError),
      count: 1,
    };
  });
}

describe("the alternative annotator test", () => {
  it("Student's t distribution matches tabled values", () => {
    expect(studentTCdf(2, 10)).toBeCloseTo(0.963306, 5);
    expect(studentTCdf(-1.812461, 10)).toBeCloseTo(0.05, 5);
    expect(studentTCdf(0, 4)).toBeCloseTo(0.5, 12);
  });

  it("Benjamini–Yekutieli rejects at (i/m)·q/H_m", () => {
    // m = 3, H_3 = 11/6: thresholds 0.00909, 0.01818, 0.02727 at q = 0.05.
    expect(benjaminiYekutieli([0.009, 0.02, 0.5], 0.05)).toEqual([true, false, false]);
    expect(benjaminiYekutieli([0.03, 0.018, 0.001], 0.05)).toEqual([false, true, true]);
  });

  it("passes a judge that errs less than the people and fails one that errs far more", () => {
    const good = alternativeAnnotatorTest(simulate(300, 0.2, 0.05), 3, { scoring: "accuracy" });
    expect(good.tested).toBe(3);
    expect(good.passed).toBe(true);
    expect(good.winningRate).toBe(1);
    const bad = alternativeAnnotatorTest(simulate(300, 0.1, 0.45), 3, { scoring: "accuracy" });
    expect(bad.passed).toBe(false);
    expect(bad.winningRate).toBe(0);
    expect(bad.advantageProbability!).toBeLessThan(good.advantageProbability!);
  });

  it("counts grouped rows by weight exactly as the rows themselves", () => {
    const rows = simulate(120, 0.2, 0.2, 9);
    const grouped = new Map<string, JudgedPattern>();
    for (const row of rows) {
      const key = JSON.stringify([row.values, row.judge]);
      const existing = grouped.get(key);
      grouped.set(key, existing ? { ...existing, count: existing.count + 1 } : { ...row });
    }
    const a = alternativeAnnotatorTest(rows, 3, { scoring: "accuracy" });
    const b = alternativeAnnotatorTest([...grouped.values()], 3, { scoring: "accuracy" });
    expect(b.labellers.map((l) => l.pValue)).toEqual(a.labellers.map((l) => l.pValue));
  });

  it("tests nobody below 30 rows, and says why", () => {
    const result = alternativeAnnotatorTest(simulate(20, 0.2, 0.05), 3, { scoring: "accuracy" });
    expect(result.passed).toBeNull();
    expect(result.labellers.every((l) => l.beaten === null)).toBe(true);
    expect(result.note).toMatch(/30 rows/);
  });

  it("gives scipy's p-values on a fixed sample (ttest_1samp, alternative 'less', ε 0.15)", () => {
    // Generated and tested in Python with scipy 1.17 by the procedure above (seed 3; the third person
    // skipped a fifth of the rows): the p-values per left-out labeller.
    const rows = ALT_SAMPLE.map((row) => ({ ...row, count: 1 }));
    const result = alternativeAnnotatorTest(rows, 3, { scoring: "accuracy", minRows: 30 });
    const expected = [0.01625827475799899, 0.0030354691815135597, 0.0021796795933717557];
    result.labellers.forEach((labeller, i) => expect(labeller.pValue).toBeCloseTo(expected[i], 10));
  });

  it("scores by root mean square difference for scores", () => {
    const patterns: JudgedPattern[] = Array.from({ length: 40 }, (_, i) => ({
      values: [0.5 + (i % 3) * 0.1, 0.6, 0.4 + (i % 2) * 0.3],
      judge: 0.55,
      count: 1,
    }));
    const result = alternativeAnnotatorTest(patterns, 3, { scoring: "neg_rmse" });
    expect(result.tested).toBe(3);
    expect(result.advantageProbability!).toBeGreaterThan(0.5);
  });
});

const ALT_SAMPLE: { values: (string | null)[]; judge: string }[] = [
  { values: ["yes", "no", null], judge: "yes" },
  { values: ["yes", "yes", "yes"], judge: "yes" },
  { values: ["no", "no", "no"], judge: "no" },
  { values: ["yes", "yes", "yes"], judge: "no" },
  { values: ["yes", "no", null], judge: "yes" },
  { values: ["no", "no", "no"], judge: "no" },
  { values: ["yes", "no", "no"], judge: "yes" },
  { values: ["no", "no", "no"], judge: "no" },
  { values: ["no", "no", "no"], judge: "no" },
  { values: ["yes", "yes", "yes"], judge: "no" },
  { values: ["yes", "yes", "no"], judge: "yes" },
  { values: ["yes", "no", "yes"], judge: "no" },
  { values: ["no", "yes", "yes"], judge: "no" },
  { values: ["no", "no", "yes"], judge: "yes" },
  { values: ["no", "yes", "no"], judge: "yes" },
  { values: ["yes", "yes", null], judge: "no" },
  { values: ["yes", "yes", "yes"], judge: "yes" },
  { values: ["yes", "yes", "yes"], judge: "yes" },
  { values: ["yes", "yes", "yes"], judge: "yes" },
  { values: ["no", "no", "no"], judge: "yes" },
  { values: ["no", "no", "no"], judge: "no" },
  { values: ["yes", "yes", "yes"], judge: "yes" },
  { values: ["no", "no", "no"], judge: "no" },
  { values: ["no", "no", "yes"], judge: "no" },
  { values: ["yes", "no", null], judge: "yes" },
  { values: ["yes", "yes", "yes"], judge: "yes" },
  { values: ["yes", "yes", "yes"], judge: "yes" },
  { values: ["no", "no", "no"], judge: "no" },
  { values: ["yes", "yes", null], judge: "no" },
  { values: ["no", "no", "no"], judge: "no" },
  { values: ["no", "no", "no"], judge: "no" },
  { values: ["no", "no", null], judge: "no" },
  { values: ["no", "yes", "yes"], judge: "yes" },
  { values: ["no", "no", null], judge: "no" },
  { values: ["yes", "no", null], judge: "yes" },
  { values: ["yes", "yes", "no"], judge: "yes" },
  { values: ["yes", "no", "yes"], judge: "no" },
  { values: ["yes", "yes", null], judge: "yes" },
  { values: ["yes", "no", "yes"], judge: "yes" },
  { values: ["no", "no", null], judge: "yes" },
  { values: ["yes", "no", "no"], judge: "no" },
  { values: ["no", "no", null], judge: "no" },
  { values: ["no", "no", null], judge: "yes" },
  { values: ["yes", "yes", "no"], judge: "yes" },
  { values: ["no", "no", "no"], judge: "yes" },
  { values: ["yes", "yes", "no"], judge: "yes" },
  { values: ["no", "yes", null], judge: "yes" },
  { values: ["no", "no", null], judge: "no" },
  { values: ["yes", "yes", "no"], judge: "yes" },
  { values: ["yes", "yes", "no"], judge: "no" },
  { values: ["yes", "no", null], judge: "no" },
  { values: ["no", "no", "yes"], judge: "no" },
  { values: ["yes", "no", "yes"], judge: "yes" },
  { values: ["yes", "yes", null], judge: "yes" },
  { values: ["yes", "yes", null], judge: "yes" },
  { values: ["no", "yes", "yes"], judge: "no" },
  { values: ["yes", "no", "yes"], judge: "yes" },
  { values: ["yes", "yes", "yes"], judge: "yes" },
  { values: ["no", "no", "no"], judge: "yes" },
  { values: ["yes", "yes", "no"], judge: "yes" },
  { values: ["yes", "no", null], judge: "no" },
  { values: ["no", "no", "no"], judge: "no" },
  { values: ["no", "yes", "yes"], judge: "yes" },
  { values: ["no", "no", "no"], judge: "no" },
  { values: ["yes", "yes", null], judge: "yes" },
  { values: ["no", "no", null], judge: "no" },
  { values: ["no", "yes", "no"], judge: "no" },
  { values: ["yes", "yes", null], judge: "yes" },
  { values: ["yes", "no", "yes"], judge: "yes" },
  { values: ["yes", "no", "no"], judge: "yes" },
  { values: ["yes", "yes", null], judge: "yes" },
  { values: ["yes", "no", "yes"], judge: "no" },
  { values: ["yes", "yes", "no"], judge: "yes" },
  { values: ["no", "yes", "no"], judge: "no" },
  { values: ["yes", "no", "yes"], judge: "no" },
  { values: ["yes", "no", "no"], judge: "no" },
  { values: ["no", "no", null], judge: "no" },
  { values: ["yes", "yes", "yes"], judge: "no" },
  { values: ["no", "yes", "no"], judge: "no" },
  { values: ["no", "yes", "no"], judge: "yes" },
];
