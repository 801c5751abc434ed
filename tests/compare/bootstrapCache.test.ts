import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  BOOTSTRAP_ITERATIONS,
  BOOTSTRAP_SEED,
  bootstrapInterval,
  bootstrapIntervalCounts,
  clearBootstrapIntervals,
} from "@/lib/compare/bootstrapIntervals";
import { compareRuns, type Comparison } from "@/lib/compare/compareRuns";
import { clearCompletedRunReads, completedRunReadCounts } from "@/lib/db/cache/completedRunReads";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import { getScorePairs } from "@/lib/db/judgments/compareQueries";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { createRun } from "@/lib/engine/createRun";
import { mulberry32, pairedBootstrapMeanDiff, startPairedBootstrap } from "@/lib/stats";
import { scoreRun, thirtyRowsWithContext } from "../support/scoreRun";
import { recordTimers } from "../support/timerLog";
import { openDataset, type StoredDataset } from "../support/servedDataset";

const FAITHFULNESS = "response/llm_judged/faithfulness";
const judge = { provider: "openai" as const, model: "judge-model" };
const passes = (score: number) => score >= 0.5;

/** Thirty scores in [0, 1], seeded, so the bootstrap interval has a width. */
function noisyScores(seed: number, shift: number): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: 30 }, () => Math.min(1, Math.max(0, 0.3 + shift + random() * 0.4)));
}

function faithfulnessDelta(comparison: Comparison | null, candidate: string) {
  return comparison?.metrics.find((m) => m.metric === FAITHFULNESS)?.deltas[candidate];
}

describe("the compare page's bootstrap intervals", () => {
  let env: StoredDataset;
  let baseline: string;
  let candidate: string;

  beforeAll(async () => {
    env = await openDataset(thirtyRowsWithContext("retrieved_context", "chunk"));
    const { db, datasetId } = env;
    baseline = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    candidate = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    await scoreRun(db, baseline, noisyScores(1, 0), passes);
    await scoreRun(db, candidate, noisyScores(2, 0.05), passes);
    const finished = new Date("2026-11-24T10:00:00Z");
    await db.run.updateMany({
      where: { id: { in: [baseline, candidate] } },
      data: { status: "completed", finishedAt: finished },
    });
  });
  afterAll(async () => env.cleanup());

  it("computes the same interval sliced as in one go, whatever the slice", () => {
    const random = mulberry32(9);
    const a = Array.from({ length: 257 }, () => random());
    const b = a.map((x) => x + random() * 0.2 - 0.05);
    const whole = pairedBootstrapMeanDiff(a, b, { seed: 5, iterations: 300 });
    for (const slice of [1, 257, 1000, 50_000]) {
      const stepped = startPairedBootstrap(a, b, { seed: 5, iterations: 300 })!;
      let steps = 1;
      while (!stepped.step(slice)) steps++;
      expect(stepped.result()).toEqual(whole);
      if (slice === 1) expect(steps).toBe(300); // one resample per step: the thread is given back between them
    }
  });

  it("caches the interval per run pair and metric, equal to a fresh computation", async () => {
    const { db } = env;
    clearBootstrapIntervals();
    const before = bootstrapIntervalCounts();
    const first = await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity });
    const second = await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity });
    const after = bootstrapIntervalCounts();
    expect(after.computed - before.computed).toBe(1);
    expect(after.fromCache - before.fromCache).toBe(1);
    expect(second).toEqual(first);
    expect(faithfulnessDelta(first, candidate)?.words).toMatch(/95% CI/);

    // The cached value is exactly what the bootstrap gives on the stored pairs now.
    const pairs = await getScorePairs(db, baseline, candidate, FAITHFULNESS);
    const fresh = pairedBootstrapMeanDiff(pairs.baseline, pairs.candidate, {
      seed: BOOTSTRAP_SEED,
      iterations: BOOTSTRAP_ITERATIONS,
    });
    const cachedKeyCompare = await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity });
    clearBootstrapIntervals();
    const recomputed = await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity });
    expect(cachedKeyCompare).toEqual(recomputed);
    const direct = await bootstrapInterval("a key of this test", async () => pairs);
    expect(direct).toEqual({ interval: fresh, pairs: 30 });
  });

  it("answers by its deadline with the delta pending, and shows it once computed", async () => {
    const { db } = env;
    clearBootstrapIntervals();
    const early = await compareRuns(db, [baseline, candidate], baseline, { waitMs: 0 });
    const pending = faithfulnessDelta(early, candidate);
    expect(pending?.verdict).toBe("pending");
    expect(pending?.words).toBe("Significance still being computed (paired bootstrap); reload in a moment");
    expect(pending?.delta).not.toBeNull();
    expect(early?.pendingDeltas).toBe(1);
    // The computation went on in the background: a later request, waiting for nothing, finds it done.
    const later = await vi.waitFor(
      async () => {
        const answer = await compareRuns(db, [baseline, candidate], baseline, { waitMs: 0 });
        expect(faithfulnessDelta(answer, candidate)?.verdict).not.toBe("pending");
        return answer;
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(later?.pendingDeltas).toBe(0);
  });

  it("computes a new interval after a re-judge changes the candidate's scores", async () => {
    const { db } = env;
    clearBootstrapIntervals();
    const before = await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity });
    // A second-opinion re-judge of the failed rows, finished with different (higher) scores.
    expect(await resetJudgmentsForRejudge(db, candidate, "errored_or_failed", { secondOpinion: true })).toBeGreaterThan(
      0,
    );
    await scoreRun(db, candidate, noisyScores(3, 0.4), passes);
    await db.run.update({ where: { id: candidate }, data: { status: "completed", finishedAt: new Date() } });
    const counts = bootstrapIntervalCounts();
    const reads = completedRunReadCounts();
    const after = await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity });
    expect(bootstrapIntervalCounts().computed - counts.computed).toBe(1);
    // The candidate's aggregates and judges and the pair's counts are read again; the baseline's come from memory.
    expect(completedRunReadCounts().read - reads.read).toBe(3);
    expect(faithfulnessDelta(after, candidate)?.words).not.toBe(faithfulnessDelta(before, candidate)?.words);
    const candidateCell = after?.metrics.find((m) => m.metric === FAITHFULNESS)?.cells[candidate];
    expect(candidateCell?.aggregate).toEqual(
      (await getRunAggregates(db, candidate, [FAITHFULNESS])).find((a) => a.metric === FAITHFULNESS),
    );
    clearBootstrapIntervals();
    clearCompletedRunReads();
    expect(await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity })).toEqual(after);
  });

  it("reads a completed pair's aggregates and paired counts once, and a run that is not completed every time", async () => {
    const { db, datasetId } = env;
    clearCompletedRunReads();
    const first = completedRunReadCounts();
    const comparison = await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity });
    expect(completedRunReadCounts().read - first.read).toBe(5); // two runs' aggregates and judges, one pair's counts
    const second = completedRunReadCounts();
    expect(await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity })).toEqual(comparison);
    expect(completedRunReadCounts()).toEqual({ read: second.read, fromCache: second.fromCache + 5 });

    const running = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    await scoreRun(db, running, noisyScores(4, 0), passes);
    const third = completedRunReadCounts();
    await compareRuns(db, [baseline, running], baseline, { waitMs: Infinity });
    await compareRuns(db, [baseline, running], baseline, { waitMs: Infinity });
    // Each time: the running run's aggregates and judges and the pair's counts; the baseline's from memory.
    expect(completedRunReadCounts().read - third.read).toBe(6);
  });
});

describe("a score delta still being computed for an earlier request", () => {
  let env: StoredDataset;
  let baseline: string;
  let candidate: string;

  beforeAll(async () => {
    env = await openDataset(thirtyRowsWithContext("retrieved_context", "chunk"));
    const { db, datasetId } = env;
    baseline = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    candidate = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    await scoreRun(db, baseline, noisyScores(4, 0), passes);
    await scoreRun(db, candidate, noisyScores(5, 0.1), passes);
    await db.run.updateMany({
      where: { id: { in: [baseline, candidate] } },
      data: { status: "completed", finishedAt: new Date("2026-11-24T12:00:00Z") },
    });
  });
  afterAll(async () => env.cleanup());

  it("is not waited for again: only the request that queued it waits, later ones answer at once", async () => {
    const { db } = env;
    clearBootstrapIntervals();
    // A long interval ahead in the background worker's queue holds this comparison's interval behind it.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const ahead = bootstrapInterval("a long interval queued first", async () => {
      await gate;
      return { baseline: [0.1, 0.2], candidate: [0.2, 0.3] };
    });
    // The clock stands still for this request, so its deadline is a whole 300 ms timer however slow its reads.
    const now = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(now);
    let answered = false;
    const timers = recordTimers(() => answered);
    let queuing;
    try {
      queuing = await compareRuns(db, [baseline, candidate], baseline, { waitMs: 300 });
      answered = true;
    } finally {
      timers.restore();
      clock.mockRestore();
    }
    // It answered once its deadline's timer had fired, not before: answering early clears that timer unfired.
    expect(timers.fired()).toContainEqual({ ms: 300, seen: false });
    expect(faithfulnessDelta(queuing, candidate)?.verdict).toBe("pending");
    // A deadline past the test's own timeout: had the refresh waited for the held interval, the test would fail.
    const refresh = await compareRuns(db, [baseline, candidate], baseline, { waitMs: 600_000 });
    expect(faithfulnessDelta(refresh, candidate)?.verdict).toBe("pending");
    // An export waits for every delta, queued or not.
    release();
    await ahead;
    const complete = await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity });
    expect(faithfulnessDelta(complete, candidate)?.words).toMatch(/95% CI/);
    expect(await compareRuns(db, [baseline, candidate], baseline, { waitMs: 3000 })).toEqual(complete);
  });
});
