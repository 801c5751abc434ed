// Repeated judgments of the same rows: pass@k, pass^k, how often the trials agree, and Fleiss' κ across them.
import { describe, expect, it } from "vitest";
import { wilsonInterval } from "@/lib/stats";
import { FLEISS_1971_COUNTS } from "../support/agreementReferences";
import { fleissKappa, rowRateInterval, summarizeTrialGroups, summarizeTrials } from "@/lib/stats/trialAgreement";

describe("fleissKappa", () => {
  it("gives Fleiss' 1971 example as worked on Wikipedia: P̄ = 0.378, P̄e = 0.213, κ = 0.210", () => {
    expect(fleissKappa(FLEISS_1971_COUNTS)).toBeCloseTo(0.2099307, 6);
  });

  it("is 1 for raters who always agree, and undefined where it has nothing to measure", () => {
    expect(
      fleissKappa([
        [3, 0],
        [0, 3],
        [3, 0],
      ]),
    ).toBe(1);
    // Every rating in one category: no chance agreement to beat.
    expect(
      fleissKappa([
        [3, 0],
        [3, 0],
      ]),
    ).toBeNull();
    expect(fleissKappa([[1, 0]])).toBeNull();
    expect(
      fleissKappa([
        [2, 1],
        [1, 1],
      ]),
    ).toBeNull();
    expect(fleissKappa([])).toBeNull();
    expect(() => fleissKappa([[2, -1]])).toThrow("non-negative");
  });
});

describe("summarizeTrials", () => {
  it("weighs every row the same and counts pass@k, pass^k and the unanimous rows", () => {
    // Four rows of three trials: 3/3, 2/3, 0/3, 1/3.
    const summary = summarizeTrials([
      { passes: 3, trials: 3 },
      { passes: 2, trials: 3 },
      { passes: 0, trials: 3 },
      { passes: 1, trials: 3 },
    ]);
    expect(summary.rows).toBe(4);
    expect(summary.meanPassRate).toBeCloseTo(0.5, 12);
    expect(summary.passAtK).toBe(0.75);
    expect(summary.passAllK).toBe(0.25);
    expect(summary.unanimous).toBe(0.5);
    // By hand: P_i = 1, 1/3, 1, 1/3 → P̄ = 2/3; p = (6/12, 6/12) → P̄e = 1/2; κ = (2/3 − 1/2) / (1/2) = 1/3.
    expect(summary.fleissKappa).toBeCloseTo(1 / 3, 12);
  });

  it("leaves out rows with no finished trial, and has no κ when rows have different numbers of trials", () => {
    const summary = summarizeTrials([
      { passes: 1, trials: 1 },
      { passes: 1, trials: 2 },
      { passes: 0, trials: 0 },
    ]);
    expect(summary).toMatchObject({ rows: 2, passAtK: 1, passAllK: 0.5, unanimous: 0.5, fleissKappa: null });
    expect(summary.meanPassRate).toBeCloseTo(0.75, 12);
    expect(() => summarizeTrials([{ passes: 3, trials: 2 }])).toThrow("passes must be");
  });
});

describe("summarizeTrialGroups", () => {
  it("gives from grouped rows exactly what summarizeTrials gives from the rows, Fleiss' κ included", () => {
    let state = 12345;
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const rows = Array.from({ length: 400 }, () => ({ passes: Math.floor(random() * 4), trials: 3 }));
    const groups = new Map<number, number>();
    for (const row of rows) groups.set(row.passes, (groups.get(row.passes) ?? 0) + 1);
    const grouped = summarizeTrialGroups([...groups].map(([passes, count]) => ({ passes, trials: 3, rows: count })));
    const single = summarizeTrials(rows);
    for (const key of ["rows", "meanPassRate", "passAtK", "passAllK", "unanimous"] as const)
      expect(grouped[key]).toBeCloseTo(single[key], 12);
    expect(grouped.fleissKappa).toBeCloseTo(fleissKappa(rows.map((r) => [r.passes, r.trials - r.passes]))!, 12);
  });
});

describe("rowRateInterval", () => {
  it("is Wilson's interval over the rows when each row has one trial", () => {
    const interval = rowRateInterval([
      { passes: 1, trials: 1, rows: 37 },
      { passes: 0, trials: 1, rows: 13 },
    ]);
    const wilson = wilsonInterval(37, 50)!;
    expect(interval!.low).toBeCloseTo(wilson.low, 12);
    expect(interval!.high).toBeCloseTo(wilson.high, 12);
  });

  it("is wider than Wilson's over the trials counted as rows when the trials of a row agree", () => {
    // 30 rows pass all 3 trials, 20 fail all 3: 150 judgments, but only 50 rows' worth of evidence.
    const interval = rowRateInterval([
      { passes: 3, trials: 3, rows: 30 },
      { passes: 0, trials: 3, rows: 20 },
    ])!;
    const overTrials = wilsonInterval(90, 150)!;
    const overRows = wilsonInterval(30, 50)!;
    expect(interval.high - interval.low).toBeGreaterThan(overTrials.high - overTrials.low);
    // Wilson's over the rows: trials that always agree add nothing to what the rows tell.
    expect(interval.low).toBeCloseTo(overRows.low, 12);
    expect(interval.high).toBeCloseTo(overRows.high, 12);
    expect(rowRateInterval([])).toBeNull();
  });

  it("stays inside [0, 1] and pins the end a rate of 0 or 1 reaches", () => {
    expect(rowRateInterval([{ passes: 3, trials: 3, rows: 10 }])).toMatchObject({ high: 1 });
    expect(rowRateInterval([{ passes: 0, trials: 3, rows: 10 }])).toMatchObject({ low: 0 });
    const mixed = rowRateInterval([
      { passes: 1, trials: 3, rows: 1 },
      { passes: 3, trials: 3, rows: 9 },
    ])!;
    expect(mixed.low).toBeGreaterThanOrEqual(0);
    expect(mixed.high).toBeLessThanOrEqual(1);
  });
});
