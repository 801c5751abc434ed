import { describe, expect, it } from "vitest";
import {
  averageRanks,
  cohensKappa,
  meanAbsoluteDifference,
  pairedAgreementTest,
  spearmanCorrelation,
  summarizeAgreement,
} from "@/lib/stats";

describe("cohensKappa (Fleiss–Cohen–Everitt large-sample SE)", () => {
  it("matches a hand computation on a 2×2 table", () => {
    // judge yes/human yes 20, judge yes/human no 5, judge no/human yes 10, judge no/human no 15; n = 50.
    // p = [[.4, .1], [.2, .3]]; judge marginals (.5, .5); human marginals (.6, .4).
    // po = .4 + .3 = .7; pe = .5·.6 + .5·.4 = .5; κ = (.7 − .5)/(1 − .5) = .4.
    // Var numerator:
    //   diagonal: .4·(1 − (.5+.6)·.6)² = .4·.34² = .04624;  .3·(1 − (.5+.4)·.6)² = .3·.46² = .06348  → .10972
    //   off-diagonal: (1 − κ)² = .36 × [ .1·(.6 + .5)² + .2·(.4 + .5)² ] = .36 × (.121 + .162) = .10188
    //   minus (κ − pe(1 − κ))² = (.4 − .3)² = .01
    //   = .2016; Var = .2016 / (50 · .25) = .016128; SE = √.016128 = .126996…
    // 95 %: z = 1.959963984540054 → .4 ± .248908… = [.151092, .648908].
    const result = cohensKappa({ yesYes: 20, yesNo: 5, noYes: 10, noNo: 15 });
    expect(result.defined).toBe(true);
    if (!result.defined) return;
    expect(result.kappa).toBeCloseTo(0.4, 12);
    expect(result.standardError).toBeCloseTo(Math.sqrt(0.016128), 12);
    expect(result.low).toBeCloseTo(0.4 - 1.959963984540054 * Math.sqrt(0.016128), 12);
    expect(result.high).toBeCloseTo(0.648908, 5);
  });

  it("its standard error is the delta-method standard error of κ under multinomial sampling", () => {
    // An independent check of the closed form: Var(κ̂) ≈ (Σ pᵢ gᵢ² − (Σ pᵢ gᵢ)²)/n with g = ∇κ(p) by central
    // differences over the four cell proportions (κ as a function of the normalised cells).
    const kappaOf = (cells: number[]) => {
      const total = cells.reduce((a, b) => a + b, 0);
      const [a, b, c, d] = cells.map((x) => x / total);
      const po = a + d;
      const pe = (a + b) * (a + c) + (c + d) * (b + d);
      return (po - pe) / (1 - pe);
    };
    for (const counts of [
      [20, 5, 10, 15],
      [40, 3, 7, 2],
      [11, 9, 4, 30],
      [3, 1, 1, 1],
    ]) {
      const n = counts.reduce((a, b) => a + b, 0);
      const p = counts.map((x) => x / n);
      const h = 1e-6;
      const g = p.map((_, i) => {
        const up = p.map((x, j) => (j === i ? x + h : x));
        const down = p.map((x, j) => (j === i ? x - h : x));
        return (kappaOf(up) - kappaOf(down)) / (2 * h);
      });
      const mean = p.reduce((sum, x, i) => sum + x * g[i], 0);
      const delta = Math.sqrt((p.reduce((sum, x, i) => sum + x * g[i] ** 2, 0) - mean ** 2) / n);
      const result = cohensKappa({ yesYes: counts[0], yesNo: counts[1], noYes: counts[2], noNo: counts[3] });
      expect(result.defined && result.standardError).toBeCloseTo(delta, 7);
    }
  });

  it("is 1 with a zero-width interval when judge and labels agree on both classes", () => {
    // yy 3, nn 2: po = 1, pe = .6·.6 + .4·.4 = .52, κ = 1; numerator .6·1 + .4·1 − (1 − 0)² = 0 → SE 0.
    const result = cohensKappa({ yesYes: 3, yesNo: 0, noYes: 0, noNo: 2 });
    expect(result).toMatchObject({ defined: true, kappa: 1, low: 1, high: 1 });
    // A zero-width interval from five rows is not certainty: it is flagged so no one prints "[1.00, 1.00]".
    expect(result.defined && result.intervalNote).toContain("agree on every row");
  });

  it("is undefined, with a reason, when both sides say yes on every row", () => {
    // pe = 1·1 + 0·0 = 1: κ = 0/0.
    const result = cohensKappa({ yesYes: 7, yesNo: 0, noYes: 0, noNo: 0 });
    expect(result.defined).toBe(false);
    if (result.defined) return;
    expect(result.reason).toContain('"yes" on every labelled row');
    const no = cohensKappa({ yesYes: 0, yesNo: 0, noYes: 0, noNo: 4 });
    expect(no.defined === false && no.reason).toContain('"no"');
  });

  it("is 0 when the judge always says yes and the labels are mixed (defined: pe < 1)", () => {
    // yy 3, yn 2: judge marginals (1, 0), human (.6, .4); po = .6, pe = .6 → κ = 0.
    const result = cohensKappa({ yesYes: 3, yesNo: 2, noYes: 0, noNo: 0 });
    expect(result).toMatchObject({ defined: true, kappa: 0 });
    expect(result.defined && result.intervalNote).toBe('no interval: the judge said "yes" on every labelled row');
    expect(cohensKappa({ yesYes: 20, yesNo: 5, noYes: 10, noNo: 15 })).toMatchObject({ intervalNote: null });
  });

  it("is undefined for a single labelled row, agreeing or not, and for none", () => {
    for (const counts of [
      { yesYes: 1, yesNo: 0, noYes: 0, noNo: 0 },
      { yesYes: 0, yesNo: 1, noYes: 0, noNo: 0 },
    ]) {
      const result = cohensKappa(counts);
      expect(result.defined === false && result.reason).toContain("only one labelled row");
    }
    expect(cohensKappa({ yesYes: 0, yesNo: 0, noYes: 0, noNo: 0 }).defined).toBe(false);
  });

  it("is negative when the judge systematically disagrees", () => {
    // yn 5, ny 5: po = 0, pe = .5·.5 + .5·.5 = .5 → κ = −1.
    const result = cohensKappa({ yesYes: 0, yesNo: 5, noYes: 5, noNo: 0 });
    expect(result.defined && result.kappa).toBe(-1);
  });
});

describe("summarizeAgreement", () => {
  it("counts errors beside the matrix, never in it", () => {
    // 4 agreeing rows + 1 disagreeing; 3 errors stay out: raw agreement 4/5, labelled 5.
    const summary = summarizeAgreement({ yesYes: 2, yesNo: 1, noYes: 0, noNo: 2 }, 3);
    expect(summary.labelled).toBe(5);
    expect(summary.errors).toBe(3);
    expect(summary.rawAgreement).toBeCloseTo(0.8, 12);
    // po = .8, judge marginals (.6, .4), human (.4, .6): pe = .24 + .24 = .48, κ = .32/.52.
    expect(summary.kappa.defined && summary.kappa.kappa).toBeCloseTo(0.32 / 0.52, 12);
  });

  it("has no raw agreement when only errors were labelled", () => {
    const summary = summarizeAgreement({ yesYes: 0, yesNo: 0, noYes: 0, noNo: 0 }, 2);
    expect(summary).toMatchObject({ labelled: 0, errors: 2, rawAgreement: null, kappa: { defined: false } });
  });
});

describe("score agreement", () => {
  it("averages tied ranks", () => {
    expect(averageRanks([0.2, 0.5, 0.5, 0.9])).toEqual([1, 2.5, 2.5, 4]);
    expect(averageRanks([3, 1, 3, 3])).toEqual([3, 1, 3, 3]);
  });

  it("Spearman ρ and the mean absolute difference match a hand computation with ties", () => {
    // judge [.1, .4, .4, .9] → ranks [1, 2.5, 2.5, 4]; human [.2, .3, .8, .7] → ranks [1, 2, 4, 3].
    // Deviations from 2.5: judge [−1.5, 0, 0, 1.5], human [−1.5, −.5, 1.5, .5].
    // Σ dj·dh = 2.25 + 0 + 0 + .75 = 3; Σ dj² = 4.5; Σ dh² = 5; ρ = 3/√22.5 = .632456…
    // MAD = (.1 + .1 + .4 + .2)/4 = .2.
    const pairs = [
      { judge: 0.1, human: 0.2 },
      { judge: 0.4, human: 0.3 },
      { judge: 0.4, human: 0.8 },
      { judge: 0.9, human: 0.7 },
    ];
    const rho = spearmanCorrelation(pairs);
    expect(rho.defined && rho.rho).toBeCloseTo(3 / Math.sqrt(22.5), 12);
    expect(meanAbsoluteDifference(pairs)).toBeCloseTo(0.2, 12);
  });

  it("Spearman is undefined for one pair or a constant side", () => {
    expect(spearmanCorrelation([{ judge: 0.3, human: 0.4 }]).defined).toBe(false);
    const constant = spearmanCorrelation([
      { judge: 0.5, human: 0.1 },
      { judge: 0.5, human: 0.9 },
    ]);
    expect(constant.defined === false && constant.reason).toContain("judge gave every labelled row the same score");
  });
});

describe("pairedAgreementTest", () => {
  it("is the exact McNemar test on rows where exactly one run agrees", () => {
    // b = 6 (only A agrees), c = 1: n = 7, P(X ≤ 1) = (1 + 7)/128, two-sided 16/128 = .125.
    // Agreement A = (10 + 6)/20 = .8, B = (10 + 1)/20 = .55.
    const test = pairedAgreementTest({ bothAgree: 10, onlyAAgrees: 6, onlyBAgrees: 1, bothDisagree: 3 });
    expect(test.pValue).toBeCloseTo(0.125, 12);
    expect(test).toMatchObject({ pairs: 20, agreementA: 0.8, agreementB: 0.55 });
  });
});
