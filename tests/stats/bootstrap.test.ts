import { describe, expect, it } from "vitest";
import { mulberry32, pairedBootstrapMeanDiff } from "@/lib/stats";

/** Standard normal draws by Box–Muller, so synthetic data is seeded too. */
function normals(seed: number): () => number {
  const random = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

describe("mulberry32", () => {
  it("is deterministic per seed, uniform-looking, and in [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const draws = Array.from({ length: 10_000 }, () => a());
    expect(draws.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    // Mean of U(0,1) is 1/2 with sd 1/sqrt(12·10000) ≈ 0.0029; allow ~4 sd.
    expect(draws.reduce((s, x) => s + x, 0) / draws.length).toBeCloseTo(0.5, 1);
    expect(mulberry32(43)()).not.toBe(mulberry32(42)());
  });
});

describe("pairedBootstrapMeanDiff", () => {
  const noisy = (seed: number, n: number) => {
    const z = normals(seed);
    const baseline = Array.from({ length: n }, () => 3 + z());
    return { baseline, candidate: baseline.map((x) => x + 0.2 + 0.5 * z()) };
  };

  it("identical arrays → diff 0, interval [0, 0]", () => {
    const scores = [0.1, 0.9, 0.4, 0.4, 1];
    expect(pairedBootstrapMeanDiff(scores, [...scores])).toEqual({ meanDiff: 0, low: 0, high: 0, pValue: 1 });
  });

  it("a constant +0.1 shift → every resampled mean is 0.1", () => {
    // Each row's difference is 0.1, so any resample's mean is 0.1 (up to float rounding).
    const baseline = [0.2, 0.55, 0.9, 0.35, 0.0, 0.71];
    const result = pairedBootstrapMeanDiff(
      baseline,
      baseline.map((x) => x + 0.1),
    )!;
    expect(result.meanDiff).toBeCloseTo(0.1, 12);
    expect(result.low).toBeCloseTo(0.1, 12);
    expect(result.high).toBeCloseTo(0.1, 12);
  });

  it("two rows with diffs {0, 1}: resampled means are 0, ½, 1 w.p. ¼, ½, ¼", () => {
    // P(mean = 0) = ¼ > 2.5%, so the 2.5th percentile is 0; likewise the 97.5th is 1. The interval touches 0
    // at every level below 1 − ¼ · 2, so p is about twice the share of resampled means at 0: about ½.
    const result = pairedBootstrapMeanDiff([0, 0], [0, 1])!;
    expect(result).toMatchObject({ meanDiff: 0.5, low: 0, high: 1 });
    expect(result.pValue).toBeGreaterThan(0.4);
    expect(result.pValue).toBeLessThan(0.6);
  });

  it("pairs by index: a shared per-row offset does not widen the interval", () => {
    // Rows differ wildly (0 vs 100) but the candidate is always baseline + 1.
    const baseline = Array.from({ length: 40 }, (_, i) => (i % 2) * 100);
    expect(
      pairedBootstrapMeanDiff(
        baseline,
        baseline.map((x) => x + 1),
      ),
    ).toEqual({ meanDiff: 1, low: 1, high: 1, pValue: 0 });
  });

  it("is deterministic for a seed (default seed included) and varies across seeds", () => {
    const { baseline, candidate } = noisy(7, 200);
    const first = pairedBootstrapMeanDiff(baseline, candidate, { seed: 123 });
    expect(pairedBootstrapMeanDiff(baseline, candidate, { seed: 123 })).toEqual(first);
    expect(pairedBootstrapMeanDiff(baseline, candidate)).toEqual(pairedBootstrapMeanDiff(baseline, candidate));
    expect(pairedBootstrapMeanDiff(baseline, candidate, { seed: 124 })!.low).not.toBe(first!.low);
  });

  it("narrows with a lower confidence level", () => {
    const { baseline, candidate } = noisy(8, 200);
    const at95 = pairedBootstrapMeanDiff(baseline, candidate)!;
    const at50 = pairedBootstrapMeanDiff(baseline, candidate, { confidence: 0.5 })!;
    expect(at50.low).toBeGreaterThan(at95.low);
    expect(at50.high).toBeLessThan(at95.high);
    expect(at95.low).toBeLessThan(at95.meanDiff);
    expect(at95.high).toBeGreaterThan(at95.meanDiff);
  });

  it("covers the true difference about 95% of the time", () => {
    // 300 synthetic datasets of 60 pairs with true mean difference 0.2.
    // Percentile bootstraps undercover slightly at small n; with 300 trials the
    // binomial sd of the rate is ~1.3 points, so [0.89, 0.99] is a loose band.
    let covered = 0;
    const trials = 300;
    for (let t = 0; t < trials; t++) {
      const { baseline, candidate } = noisy(1000 + t, 60);
      const ci = pairedBootstrapMeanDiff(baseline, candidate, { iterations: 1000, seed: t })!;
      if (ci.low <= 0.2 && 0.2 <= ci.high) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.89);
    expect(covered / trials).toBeLessThan(0.99);
  });

  // Its speed at this size (and at 100,000 rows) is bench:compare's to measure, not a test's.
  it("handles 10,000 pairs × 2000 iterations: an interval around the true difference", () => {
    const { baseline, candidate } = noisy(9, 10_000);
    const result = pairedBootstrapMeanDiff(baseline, candidate)!;
    expect(result.high - result.low).toBeGreaterThan(0);
    expect(result.low).toBeLessThanOrEqual(0.2);
    expect(result.high).toBeGreaterThanOrEqual(0.2);
  });

  it("null for empty input; throws on mismatched lengths and bad options", () => {
    expect(pairedBootstrapMeanDiff([], [])).toBeNull();
    expect(() => pairedBootstrapMeanDiff([1, 2], [1])).toThrow(RangeError);
    expect(() => pairedBootstrapMeanDiff([1], [Number.NaN])).toThrow(RangeError);
    expect(() => pairedBootstrapMeanDiff([1], [2], { iterations: 0 })).toThrow(RangeError);
    expect(() => pairedBootstrapMeanDiff([1], [2], { confidence: 95 })).toThrow(RangeError);
  });
});
