// Holm and Benjamini–Hochberg adjustments (values as R's p.adjust gives them), and the p-values behind every
// verdict agreeing with the interval shown beside it: exact McNemar with its inverted interval, the paired
// bootstrap with its percentile interval, the normal approximation with its z interval.
import { describe, expect, it } from "vitest";
import { adjustPValues } from "@/lib/stats";
import { exactMcNemar } from "@/lib/stats/mcnemar";
import { mcNemarExactInterval } from "@/lib/stats/mcNemarInterval";
import { pairedBootstrapMeanDiff } from "@/lib/stats/bootstrap";
import { pairedDifferenceSums, pairedNormalMeanDiff } from "@/lib/stats/pairedNormal";
import { mulberry32 } from "@/lib/stats/prng";
import { inverseRegularizedBeta, regularizedBeta, twoSidedNormalP } from "@/lib/stats/specialFunctions";

const LEVELS = [0.01, 0.05, 0.1, 0.2];

describe("adjustPValues", () => {
  const raw = [0.01, 0.04, 0.03, 0.005];

  it("Holm multiplies the i-th smallest by m − i and keeps the order (R: p.adjust(p, 'holm'))", () => {
    // Sorted 0.005, 0.01, 0.03, 0.04 → 0.02, 0.03, 0.06, max(0.06, 0.04) = 0.06.
    const adjusted = adjustPValues(raw, "holm");
    [0.03, 0.06, 0.06, 0.02].forEach((value, i) => expect(adjusted[i]).toBeCloseTo(value, 15));
  });

  it("Benjamini–Hochberg multiplies the i-th smallest by m / i, then takes the running minimum from the top", () => {
    // 0.005 · 4 = 0.02, 0.01 · 2 = 0.02, 0.03 · 4/3 = 0.04, 0.04 · 1 = 0.04.
    const adjusted = adjustPValues(raw, "bh");
    [0.02, 0.04, 0.04, 0.02].forEach((value, i) => expect(adjusted[i]).toBeCloseTo(value, 15));
  });

  it("leaves the p-values as they are with none or a family of one, caps at 1, and refuses what is not a p-value", () => {
    expect(adjustPValues(raw, "none")).toEqual(raw);
    expect(adjustPValues([0.03], "holm")).toEqual([0.03]);
    expect(adjustPValues([0.6, 0.7, 1], "holm")).toEqual([1, 1, 1]);
    expect(() => adjustPValues([0.2, Number.NaN], "holm")).toThrow("p-values must be in [0, 1]");
    expect(() => adjustPValues([1.5], "bh")).toThrow("p-values must be in [0, 1]");
  });

  it("never lowers a p-value, and Holm is never below Benjamini–Hochberg", () => {
    const random = mulberry32(7);
    for (let trial = 0; trial < 200; trial++) {
      const ps = Array.from({ length: 1 + Math.floor(random() * 20) }, () => random() ** 3);
      const holm = adjustPValues(ps, "holm");
      const bh = adjustPValues(ps, "bh");
      ps.forEach((p, i) => {
        expect(holm[i]).toBeGreaterThanOrEqual(p);
        expect(bh[i]).toBeGreaterThanOrEqual(p);
        expect(holm[i]).toBeGreaterThanOrEqual(bh[i] - 1e-15);
      });
    }
  });
});

describe("special functions", () => {
  it("match SciPy's beta distribution and the normal tail", () => {
    expect(regularizedBeta(0.3, 2.5, 7.5)).toBeCloseTo(0.6789434858661821, 12);
    expect(regularizedBeta(0.9, 40, 3)).toBeCloseTo(0.19510765482693676, 12);
    // Clopper–Pearson for 5 of 10 (scipy.stats.beta.ppf).
    expect(inverseRegularizedBeta(0.025, 5, 6)).toBeCloseTo(0.18708602844739855, 12);
    expect(inverseRegularizedBeta(0.975, 6, 5)).toBeCloseTo(0.8129139715526015, 12);
    expect(twoSidedNormalP(1.959963984540054)).toBeCloseTo(0.05, 14);
    expect(twoSidedNormalP(-3)).toBeCloseTo(0.0026997960632601913, 14);
    expect(twoSidedNormalP(0.5)).toBeCloseTo(0.6170750774519738, 14);
    expect(twoSidedNormalP(0)).toBe(1);
  });
});

describe("mcNemarExactInterval", () => {
  it("is Clopper–Pearson's interval for the share of flips won, scaled by the share of rows flipped", () => {
    // b = 12, c = 3 of 20 rows: θ in [0.0433120…, 0.4808911…] (binomtest(3, 15).proportion_ci, exact).
    const interval = mcNemarExactInterval(12, 3, 20)!;
    expect(interval.difference).toBeCloseTo(-0.45, 15);
    expect(interval.low).toBeCloseTo(0.75 * (2 * 0.04331200510583602 - 1), 10);
    expect(interval.high).toBeCloseTo(0.75 * (2 * 0.48089113380685317 - 1), 10);
  });

  it("excludes 0 exactly when the exact McNemar p is below the level, for every count up to 40 flips", () => {
    for (const alpha of LEVELS)
      for (let b = 0; b <= 40; b++)
        for (let c = 0; b + c <= 40; c++) {
          const { pValue } = exactMcNemar(b, c);
          const interval = mcNemarExactInterval(b, c, 60, 1 - alpha)!;
          const excludesZero = interval.low > 0 || interval.high < 0;
          expect(excludesZero, `b=${b} c=${c} alpha=${alpha} p=${pValue}`).toBe(pValue < alpha);
          expect(interval.low).toBeLessThanOrEqual(interval.difference);
          expect(interval.high).toBeGreaterThanOrEqual(interval.difference);
        }
  });

  it("with no row flipped, bounds the difference by the largest share of flips none in n allows", () => {
    const bound = 1 - 0.025 ** (1 / 6);
    const none = mcNemarExactInterval(0, 0, 6)!;
    expect(none.difference).toBe(0);
    expect(none.low).toBeCloseTo(-bound, 14);
    expect(none.high).toBeCloseTo(bound, 14);
    expect(mcNemarExactInterval(0, 0, 0)).toBeNull();
    expect(() => mcNemarExactInterval(4, 3, 6)).toThrow("cannot exceed");
  });
});

describe("score p-values agree with the intervals beside them", () => {
  /** Paired samples with a true shift, some ties and bounded scores, as judges' scores are. */
  function sample(seed: number, n: number, shift: number) {
    const random = mulberry32(seed);
    const baseline = Array.from({ length: n }, () => Math.round(random() * 10) / 10);
    const candidate = baseline.map((x) => Math.min(1, Math.max(0, x + shift + (random() - 0.5) * 0.4)));
    return { baseline, candidate };
  }

  it("the paired bootstrap: its percentile interval excludes 0 exactly when its p is below the level", () => {
    let real = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const { baseline, candidate } = sample(seed, 40, (seed % 7) * 0.01 - 0.03);
      for (const alpha of LEVELS) {
        const result = pairedBootstrapMeanDiff(baseline, candidate, { iterations: 400, confidence: 1 - alpha, seed })!;
        const excludesZero = result.low > 0 || result.high < 0;
        expect(excludesZero, `seed ${seed} alpha ${alpha} p ${result.pValue}`).toBe(result.pValue < alpha);
        if (excludesZero) real++;
      }
    }
    // Both outcomes occur, so the agreement above is not one-sided.
    expect(real).toBeGreaterThan(20);
    expect(real).toBeLessThan(220);
  });

  it("the normal approximation: its z interval excludes 0 exactly when its p is below the level", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { baseline, candidate } = sample(seed, 80, (seed % 9) * 0.005 - 0.02);
      for (const alpha of LEVELS) {
        const result = pairedNormalMeanDiff(pairedDifferenceSums(baseline, candidate), 1 - alpha)!;
        expect(result.low > 0 || result.high < 0, `seed ${seed} alpha ${alpha}`).toBe(result.pValue < alpha);
      }
    }
  });
});
