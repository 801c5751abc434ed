import { describe, expect, it } from "vitest";
import { binomial, krippendorffBootstrap, unitsBootstrap } from "@/lib/stats/alphaBootstrap";
import { fleissKappa } from "@/lib/stats/fleissKappa";
import { coincidences, krippendorffAlpha, type CodedUnit } from "@/lib/stats/krippendorffAlpha";
import { mulberry32 } from "@/lib/stats/prng";
import { peopleAgreement, type LabelPattern } from "@/lib/stats/peopleAgreement";
import { FLEISS_1971_COUNTS, KRIPPENDORFF_2011_CODERS, WIKIPEDIA_ALPHA_CODERS } from "../support/agreementReferences";

/** Coders as rows, "." missing: units are the columns. */
function unitsOf(rows: readonly string[]): CodedUnit[] {
  const cells = rows.map((row) => row.trim().split(/\s+/));
  return cells[0].map((_, u) => ({
    values: cells
      .map((coder) => coder[u])
      .filter((v) => v !== ".")
      .map(Number),
  }));
}

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": 4 observers × 12 units with gaps.
const KRIPPENDORFF_2011 = unitsOf(Object.values(KRIPPENDORFF_2011_CODERS));
// Wikipedia's "Krippendorff's alpha" example: 3 coders × 15 units.
const WIKIPEDIA = unitsOf(Object.values(WIKIPEDIA_ALPHA_CODERS));

function alphaOf(units: CodedUnit[], level: "nominal" | "ordinal" | "interval" | "ratio"): number {
  const result = krippendorffAlpha(units, level);
  if (!result.defined) throw new Error(result.reason);
  return result.alpha;
}

describe("Krippendorff's α", () => {
  it("reproduces the 2011 paper's example at every level, with its coincidences", () => {
    const co = coincidences(KRIPPENDORFF_2011);
    expect(co.n).toBeCloseTo(40, 10);
    expect(co.marginals.map((m) => Math.round(m * 1e9) / 1e9)).toEqual([9, 13, 10, 5, 3]);
    expect(co.o[0][1]).toBeCloseTo(4 / 3, 12);
    expect(co.o[1][1]).toBeCloseTo(10, 12);
    expect(alphaOf(KRIPPENDORFF_2011, "nominal")).toBeCloseTo(0.743421, 6);
    expect(alphaOf(KRIPPENDORFF_2011, "ordinal")).toBeCloseTo(0.815388, 6);
    expect(alphaOf(KRIPPENDORFF_2011, "interval")).toBeCloseTo(0.849107, 6);
    expect(alphaOf(KRIPPENDORFF_2011, "ratio")).toBeCloseTo(0.797403, 6);
  });

  it("reproduces Wikipedia's example", () => {
    expect(alphaOf(WIKIPEDIA, "nominal")).toBeCloseTo(0.691358, 6);
    expect(alphaOf(WIKIPEDIA, "interval")).toBeCloseTo(0.810845, 6);
    expect(alphaOf(WIKIPEDIA, "ordinal")).toBeCloseTo(0.806721, 6);
    expect(alphaOf(WIKIPEDIA, "ratio")).toBeCloseTo(0.808944, 6);
  });

  it("is invariant to a linear rescaling at the interval level, and to any monotone one at the ordinal", () => {
    const rescaled = KRIPPENDORFF_2011.map((u) => ({ values: u.values.map((v) => ((v as number) - 1) / 4) }));
    expect(alphaOf(rescaled, "interval")).toBeCloseTo(0.849107, 6);
    const squared = KRIPPENDORFF_2011.map((u) => ({ values: u.values.map((v) => (v as number) ** 2) }));
    expect(alphaOf(squared, "ordinal")).toBeCloseTo(0.815388, 6);
  });

  it("counts grouped units by weight exactly as the rows themselves", () => {
    const repeated = [...WIKIPEDIA, ...WIKIPEDIA, ...WIKIPEDIA];
    const weighted = WIKIPEDIA.map((u) => ({ ...u, weight: 3 }));
    expect(alphaOf(weighted, "nominal")).toBeCloseTo(alphaOf(repeated, "nominal"), 12);
  });

  it("is undefined without a pairable unit or without variation", () => {
    expect(krippendorffAlpha([{ values: ["yes"] }, { values: ["no"] }], "nominal").defined).toBe(false);
    expect(krippendorffAlpha([{ values: ["yes", "yes"] }, { values: ["yes", "yes"] }], "nominal").defined).toBe(false);
    // Perfect agreement with variation is 1.
    expect(alphaOf([{ values: ["yes", "yes"] }, { values: ["no", "no"] }], "nominal")).toBe(1);
  });
});

describe("Fleiss' κ", () => {
  it("reproduces Fleiss (1971): 10 items, 14 raters, 5 categories", () => {
    const units = FLEISS_1971_COUNTS.map((counts) => ({
      values: counts.flatMap((n, category) => Array(n).fill(category + 1)),
    }));
    const result = fleissKappa(units);
    if (!result.defined) throw new Error(result.reason);
    expect(result.observed).toBeCloseTo(0.378, 3);
    expect(result.chance).toBeCloseTo(0.213, 3);
    expect(result.kappa).toBeCloseTo(0.2099307, 6);
  });

  it("is undefined when rows have different numbers of labellers", () => {
    const result = fleissKappa(KRIPPENDORFF_2011);
    expect(result.defined).toBe(false);
  });
});

describe("α's bootstrap intervals", () => {
  it("Krippendorff's algorithm draws M = min(25·Q, (m−1)·n/2) pairs and brackets α on the 2011 example", () => {
    const co = coincidences(KRIPPENDORFF_2011);
    const interval = krippendorffBootstrap(co, "nominal", 4, { resamples: 20_000 })!;
    // The research note's own seeded simulation gave about [0.615, 0.872]; the RNG differs, so a loose bracket.
    expect(interval.low).toBeGreaterThan(0.55);
    expect(interval.low).toBeLessThan(0.68);
    expect(interval.high).toBeGreaterThan(0.83);
    expect(interval.high).toBeLessThan(0.92);
    const interval2 = krippendorffBootstrap(co, "interval", 4, { resamples: 20_000 })!;
    expect(interval2.low).toBeGreaterThan(0.66);
    expect(interval2.low).toBeLessThan(0.77);
    expect(interval2.high).toBeGreaterThan(0.91);
  });

  it("the units bootstrap brackets α and narrows as rows grow", () => {
    const small = unitsBootstrap(WIKIPEDIA, "nominal", { resamples: 2000 })!;
    const alpha = alphaOf(WIKIPEDIA, "nominal");
    expect(small.low).toBeLessThan(alpha);
    expect(small.high).toBeGreaterThanOrEqual(alpha);
    const many = unitsBootstrap(
      WIKIPEDIA.map((u) => ({ ...u, weight: 400 })),
      "nominal",
      { resamples: 2000 },
    )!;
    expect(many.high - many.low).toBeLessThan((small.high - small.low) / 5);
    expect(many.low).toBeLessThan(alpha);
    expect(many.high).toBeGreaterThan(alpha);
  });

  it("binomial draws have the right mean and spread in every regime", () => {
    const random = mulberry32(7);
    for (const [n, p] of [
      [30, 0.3],
      [1000, 0.01],
      [100_000, 0.3],
      [1000, 0.995],
    ] as const) {
      const draws = Array.from({ length: 4000 }, () => binomial(n, p, random));
      const mean = draws.reduce((s, v) => s + v, 0) / draws.length;
      const variance = draws.reduce((s, v) => s + (v - mean) ** 2, 0) / draws.length;
      expect(Math.abs(mean - n * p)).toBeLessThan(4 * Math.sqrt((n * p * (1 - p)) / draws.length) + 1e-9);
      expect(variance / (n * p * (1 - p))).toBeGreaterThan(0.85);
      expect(variance / (n * p * (1 - p))).toBeLessThan(1.15);
    }
  });
});

describe("people's agreement from label patterns", () => {
  it("gives α, Fleiss where every row has the same labellers, and a pairwise table", () => {
    const patterns: LabelPattern[] = [
      { values: ["yes", "yes", "yes"], count: 40 },
      { values: ["no", "no", "no"], count: 30 },
      { values: ["yes", "no", "yes"], count: 10 },
      { values: ["no", "no", "yes"], count: 5 },
    ];
    const result = peopleAgreement(patterns, 3, "nominal");
    expect(result.rows).toBe(85);
    expect(result.labels).toBe(255);
    expect(result.fleiss.defined).toBe(true);
    expect(result.alpha.defined).toBe(true);
    expect(result.pairs).toHaveLength(3);
    const ab = result.pairs.find((p) => p.a === 0 && p.b === 1)!;
    expect(ab.agreement).toBeCloseTo(75 / 85, 12);
    const ac = result.pairs.find((p) => p.a === 0 && p.b === 2)!;
    expect(ac.agreement).toBeCloseTo(80 / 85, 12);
    expect(result.unitsInterval!.low).toBeLessThan((result.alpha as { alpha: number }).alpha);
    expect(Object.keys(result.byLevel)).toEqual(["nominal"]);
  });
});
