import { describe, expect, it } from "vitest";
import { mulberry32, pairedBootstrapMeanDiff, pairedDifferenceSums, pairedNormalMeanDiff } from "@/lib/stats";

describe("pairedNormalMeanDiff", () => {
  it("is the mean ± 1.96 standard errors of the differences", () => {
    // Differences 1..5: mean 3, sample variance 2.5, standard error √(2.5 / 5).
    const sums = pairedDifferenceSums([0, 0, 0, 0, 0], [1, 2, 3, 4, 5]);
    expect(sums).toEqual({ pairs: 5, sum: 15, sumSquares: 55 });
    const interval = pairedNormalMeanDiff(sums)!;
    const half = 1.959963984540054 * Math.sqrt(0.5);
    expect(interval.meanDiff).toBe(3);
    expect(interval.low).toBeCloseTo(3 - half, 12);
    expect(interval.high).toBeCloseTo(3 + half, 12);
    // A wider level widens it by the ratio of the critical values.
    const wide = pairedNormalMeanDiff(sums, 0.99)!;
    expect((wide.high - wide.low) / (interval.high - interval.low)).toBeCloseTo(
      2.5758293035489004 / 1.959963984540054,
      12,
    );
  });

  it("has nothing to bound with no pairs, and no spread with one", () => {
    expect(pairedNormalMeanDiff({ pairs: 0, sum: 0, sumSquares: 0 })).toBeNull();
    expect(pairedNormalMeanDiff({ pairs: 1, sum: -0.25, sumSquares: 0.0625 })).toEqual({
      meanDiff: -0.25,
      low: -0.25,
      high: -0.25,
      pValue: 0,
    });
  });

  it("reads a variance rounded below zero as no spread", () => {
    // 0.1 a row, 100,000 times: Σd² − (Σd)²/n is 0 exactly, and a few ulps either side in floats.
    const n = 100_000;
    const interval = pairedNormalMeanDiff({ pairs: n, sum: 0.1 * n, sumSquares: 0.01 * n * (1 - 1e-15) })!;
    expect(interval.low).toBeCloseTo(0.1, 12);
    expect(interval.high).toBeCloseTo(0.1, 12);
    expect(interval.high).toBeGreaterThanOrEqual(interval.low);
  });

  it("refuses sums that cannot come from a sample", () => {
    expect(() => pairedNormalMeanDiff({ pairs: 2.5, sum: 1, sumSquares: 1 })).toThrow(RangeError);
    expect(() => pairedNormalMeanDiff({ pairs: 3, sum: Number.NaN, sumSquares: 1 })).toThrow(RangeError);
    expect(() => pairedDifferenceSums([1, 2], [1])).toThrow(RangeError);
  });

  // Where compare switches to it (tens of thousands of pairs), it must agree with the percentile bootstrap it
  // replaces to well within that bootstrap's own Monte Carlo error (about 0.04 standard errors at 4,000 resamples).
  describe("agrees with the paired bootstrap at 20,000 pairs", () => {
    const n = 20_000;
    const random = mulberry32(7);
    const samples: Record<string, { baseline: number[]; candidate: number[] }> = {
      // Judge scores on a 0–1 grid with many ties and a small shift.
      "bounded scores with ties": (() => {
        const baseline = Array.from({ length: n }, () => Math.round(random() * 4) / 4);
        return {
          baseline,
          candidate: baseline.map((x) =>
            Math.min(1, Math.max(0, x + (random() < 0.3 ? 0.25 : random() < 0.2 ? -0.25 : 0))),
          ),
        };
      })(),
      // Token counts: exponential, heavily right-skewed differences.
      "skewed token counts": (() => {
        const tokens = () => Math.round(-800 * Math.log(1 - random()));
        return { baseline: Array.from({ length: n }, tokens), candidate: Array.from({ length: n }, tokens) };
      })(),
      // Pass/fail-like 0/1 scores, where the differences take three values only.
      "zero-one scores": (() => {
        const baseline = Array.from({ length: n }, () => (random() < 0.7 ? 1 : 0));
        return { baseline, candidate: baseline.map((x) => (random() < 0.05 ? 1 - x : x)) };
      })(),
    };
    for (const [name, { baseline, candidate }] of Object.entries(samples)) {
      it(name, () => {
        const normal = pairedNormalMeanDiff(pairedDifferenceSums(baseline, candidate))!;
        const bootstrap = pairedBootstrapMeanDiff(baseline, candidate, { iterations: 4000, seed: 11 })!;
        const standardError = (normal.high - normal.low) / (2 * 1.959963984540054);
        expect(standardError).toBeGreaterThan(0);
        expect(normal.meanDiff).toBeCloseTo(bootstrap.meanDiff, 12);
        expect(Math.abs(normal.low - bootstrap.low)).toBeLessThan(0.15 * standardError);
        expect(Math.abs(normal.high - bootstrap.high)).toBeLessThan(0.15 * standardError);
      });
    }
  });
});
