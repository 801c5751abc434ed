import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrapIntervalCounts, clearBootstrapIntervals } from "@/lib/compare/bootstrapIntervals";
import { BOOTSTRAP_MAX_PAIRS, compareRuns, type Comparison } from "@/lib/compare/compareRuns";
import { clearCompletedRunReads } from "@/lib/db/cache/completedRunReads";
import { getPairedSums, getScorePairs } from "@/lib/db/judgments/compareQueries";
import { createRun } from "@/lib/engine/createRun";
import { comparisonStatistics } from "@/lib/export/comparisonStatistics";
import { mulberry32, pairedDifferenceSums, pairedNormalMeanDiff } from "@/lib/stats";
import { scoreRun, thirtyRowsWithContext } from "../support/scoreRun";
import { openDataset, type StoredDataset } from "../support/servedDataset";

const FAITHFULNESS = "response/llm_judged/faithfulness";
const judge = { provider: "openai" as const, model: "judge-model" };
const passes = (score: number) => score >= 0.5;

function faithfulnessDelta(comparison: Comparison | null, candidate: string) {
  return comparison?.metrics.find((m) => m.metric === FAITHFULNESS)?.deltas[candidate];
}

// Large comparisons take the normal interval from sums computed in SQL instead of bootstrapping every pair.
// The switch is at BOOTSTRAP_MAX_PAIRS (50,000) paired rows; here it is lowered to 10 so thirty rows cross it.
describe("a score delta over more pairs than the bootstrap takes", () => {
  let env: StoredDataset;
  let baseline: string;
  let candidate: string;

  beforeAll(async () => {
    env = await openDataset(thirtyRowsWithContext("retrieved_context", "chunk"));
    const { db, datasetId } = env;
    baseline = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    candidate = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    const random = mulberry32(21);
    const scores = (shift: number, rows: number) =>
      Array.from({ length: rows }, () => Math.min(1, Math.max(0, 0.3 + shift + random() * 0.4)));
    await scoreRun(db, baseline, scores(0, 30), passes);
    // The candidate scores 26 rows: 4 rows are judged in the baseline only and stay out of the pairs.
    await scoreRun(db, candidate, scores(0.15, 26), passes);
  });
  afterAll(async () => env.cleanup());

  it("is the normal interval of the stored pairs' differences, with no bootstrap and no wait", async () => {
    const { db } = env;
    clearBootstrapIntervals();
    clearCompletedRunReads();
    const before = bootstrapIntervalCounts();
    const comparison = await compareRuns(db, [baseline, candidate], baseline, { waitMs: 0, bootstrapMaxPairs: 10 });
    expect(bootstrapIntervalCounts().computed).toBe(before.computed);
    expect(comparison?.pendingDeltas).toBe(0);

    const pairs = await getScorePairs(db, baseline, candidate, FAITHFULNESS);
    expect(pairs.baseline).toHaveLength(26);
    const expected = pairedNormalMeanDiff(pairedDifferenceSums(pairs.baseline, pairs.candidate))!;
    const delta = faithfulnessDelta(comparison, candidate)!;
    expect(delta.method).toBe("paired_normal");
    expect(delta.pairs).toBe(26);
    expect(delta.delta).toBeCloseTo(expected.meanDiff, 12);
    expect(delta.interval?.low).toBeCloseTo(expected.low, 12);
    expect(delta.interval?.high).toBeCloseTo(expected.high, 12);
    // A shift of 0.15 over 26 rows is far outside the noise.
    expect(delta.verdict).toBe("better");
    expect(delta.words).toMatch(/^Real improvement: \+0\.\d\d \(95% CI 0\.\d\d to 0\.\d\d\)$/);
    // The averages' difference also counts the 4 rows scored in the baseline only: kept apart, as for the bootstrap.
    expect(delta.overallDelta).toBeDefined();

    const [statistics] = comparisonStatistics(comparison!);
    expect(statistics.test).toBe("paired_normal");
    expect(statistics.interval_low).toBe(delta.interval?.low);
    expect(statistics.paired_rows).toBe(26);
  });

  it("keeps the paired bootstrap up to the limit, over the same pairs and mean difference", async () => {
    const { db } = env;
    const normal = faithfulnessDelta(
      await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity, bootstrapMaxPairs: 25 }),
      candidate,
    )!;
    const bootstrapped = faithfulnessDelta(
      await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity, bootstrapMaxPairs: 26 }),
      candidate,
    )!;
    expect(normal.method).toBe("paired_normal");
    expect(bootstrapped.method).toBe("paired_bootstrap");
    expect(bootstrapped.pairs).toBe(normal.pairs);
    expect(bootstrapped.delta).toBeCloseTo(normal.delta!, 12);
    expect(bootstrapped.interval).not.toEqual(normal.interval);
    // The default limit is far above thirty rows.
    expect(BOOTSTRAP_MAX_PAIRS).toBe(50_000);
    const byDefault = await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity });
    expect(faithfulnessDelta(byDefault, candidate)?.method).toBe("paired_bootstrap");
  });

  it("sums the differences in SQL the same in slices as in one statement", async () => {
    const { db } = env;
    const whole = await getPairedSums(db, baseline, candidate, { sliceJudgments: Number.MAX_SAFE_INTEGER });
    const sliced = await getPairedSums(db, baseline, candidate, { sliceJudgments: 7 });
    expect(sliced.counts).toEqual(whole.counts);
    expect(whole.scoreDifferences).toHaveLength(1);
    const [one] = whole.scoreDifferences;
    const [other] = sliced.scoreDifferences;
    expect(other.metric).toBe(FAITHFULNESS);
    expect(other.pairs).toBe(one.pairs);
    expect(other.sum).toBeCloseTo(one.sum, 12);
    expect(other.sumSquares).toBeCloseTo(one.sumSquares, 12);
    const pairs = await getScorePairs(db, baseline, candidate, FAITHFULNESS);
    const inMemory = pairedDifferenceSums(pairs.baseline, pairs.candidate);
    expect(one.pairs).toBe(inMemory.pairs);
    expect(one.sum).toBeCloseTo(inMemory.sum, 12);
    expect(one.sumSquares).toBeCloseTo(inMemory.sumSquares, 12);
  });
});
