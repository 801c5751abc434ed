// A yes/no metric judged over several trials compares rows, not trials: each row's pass rate is one
// observation, bootstrapped in pairs, and its verdict, interval and p agree; read with other metrics, its
// adjusted p decides and the words say so.
import { describe, expect, it } from "vitest";
import { correctDeltas } from "@/lib/compare/correctDeltas";
import { yesNoTrialsDelta } from "@/lib/compare/trialsDelta";
import { mulberry32 } from "@/lib/stats";

const CORRECTNESS = "response/llm_judged/correctness";

/** `rows` rows judged over 3 trials: the baseline passes every trial; the candidate fails `failing` of them. */
function rates(rows: number, failing: (row: number) => number) {
  const baseline = Array.from({ length: rows }, () => 1);
  const candidate = Array.from({ length: rows }, (_, row) => (3 - failing(row)) / 3);
  return { baseline, candidate };
}

describe("yesNoTrialsDelta", () => {
  it("takes the mean of the rows' pass-rate differences, with the bootstrap's interval and p over rows", () => {
    // 60 rows; every fourth row fails one trial of three: each such row is 1/3 worse, the mean 1/12 worse.
    const { baseline, candidate } = rates(60, (row) => (row % 4 === 0 ? 1 : 0));
    const delta = yesNoTrialsDelta(baseline, candidate, 0.05);
    expect(delta.delta).toBeCloseTo(-1 / 12, 12);
    expect(delta).toMatchObject({ verdict: "worse", method: "paired_bootstrap", pairs: 60 });
    expect(delta.interval!.high).toBeLessThan(0);
    expect(delta.pValue).toBeLessThan(0.05);
    expect(delta.words).toMatch(/^Real regression: \u22128\.3 points \(95% CI \u2212\d+\.\d to \u2212\d+\.\d; p [=<] /);
  });

  it("counts a row once however many trials it has: one flaky row among many is noise", () => {
    const { baseline, candidate } = rates(60, (row) => (row === 0 ? 3 : 0));
    const delta = yesNoTrialsDelta(baseline, candidate, 0.05);
    expect(delta.delta).toBeCloseTo(-1 / 60, 12);
    expect(delta.verdict).toBe("noise");
    expect(delta.interval!.high).toBeGreaterThanOrEqual(0);
  });

  it("agrees with its interval at every level, and says no change when every row is the same", () => {
    const random = mulberry32(3);
    for (let sample = 0; sample < 40; sample++) {
      const { baseline, candidate } = rates(50, () => (random() < 0.1 + sample * 0.004 ? 1 : 0));
      for (const alpha of [0.01, 0.05, 0.2]) {
        const delta = yesNoTrialsDelta(baseline, candidate, alpha);
        const excludesZero = delta.interval!.low > 0 || delta.interval!.high < 0;
        expect(excludesZero).toBe(delta.pValue! < alpha);
      }
    }
    const same = yesNoTrialsDelta([1, 2 / 3, 0], [1, 2 / 3, 0], 0.05);
    expect(same).toMatchObject({ delta: 0, verdict: "noise", words: "No change: every paired row has the same value" });
    expect(yesNoTrialsDelta([], [], 0.05).verdict).toBe("n/a");
  });

  it("read with 13 other metrics, is judged on its Holm-adjusted p", () => {
    const { baseline, candidate } = rates(60, (row) => (row % 6 === 0 ? 1 : 0));
    const own = yesNoTrialsDelta(baseline, candidate, 0.05);
    expect(own.verdict).toBe("worse");
    const unchanged = yesNoTrialsDelta([1, 1, 0], [1, 1, 0], 0.05);
    const others = Array.from({ length: 13 }, (_, i) => ({
      metric: `response/llm_judged/judge_${i}`,
      delta: unchanged,
    }));
    const { deltas, family } = correctDeltas([{ metric: CORRECTNESS, delta: own }, ...others], "holm", 0.05);
    expect(family).toBe(14);
    expect(deltas[0].adjustedPValue).toBeCloseTo(Math.min(1, 14 * own.pValue!), 12);
    expect(deltas[0].verdict).toBe(14 * own.pValue! < 0.05 ? "worse" : "noise");
    expect(deltas[0].words).toContain("after correcting for 14 metrics");
    expect(deltas[0].words).toContain("Holm-adjusted p");
  });
});
