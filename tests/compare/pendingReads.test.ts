import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareRuns, type Comparison } from "@/lib/compare/compareRuns";
import { clearCompletedRunReads, completedRunReadCounts } from "@/lib/db/cache/completedRunReads";
import { sqlOf } from "@/lib/db/client";
import { createTempDb, type TempDb } from "../support/tempDb";
import { insertDatasetRows, insertJudgedRun, RATED } from "./support/pairedRuns";

const CORRECTNESS = RATED[0];
const deltaOf = (comparison: Comparison | null, candidate: string) =>
  comparison?.metrics.find((m) => m.metric === CORRECTNESS)?.deltas[candidate];

describe("compare answers at once while a large comparison's reads are still going", () => {
  let store: TempDb;
  let baseline: string;
  let candidate: string;

  beforeAll(async () => {
    store = await createTempDb();
    const datasetId = await insertDatasetRows(store.db, 120);
    const at = (hour: number) => new Date(`2026-11-24T${hour}:00:00Z`);
    baseline = (await insertJudgedRun(store.db, datasetId, { seed: 1, yesRate: 0.5, finishedAt: at(10) })).runId;
    candidate = (await insertJudgedRun(store.db, datasetId, { seed: 2, yesRate: 0.9, finishedAt: at(11) })).runId;
  }, 60_000);
  afterAll(async () => store.cleanup());

  it("shows completed runs' paired tests and judges as computing past the deadline, then from memory", async () => {
    clearCompletedRunReads();
    // A deadline already passed: the paired counts and the judges, read from every judgment, are not ready.
    const first = await compareRuns(store.db, [baseline, candidate], baseline, { waitMs: 0 });
    const pending = deltaOf(first, candidate);
    expect(pending?.verdict).toBe("pending");
    expect(pending?.words).toMatch(/paired counts/);
    // The aggregates (kept tallies) are there: the delta itself is shown.
    expect(pending?.delta).toBeGreaterThan(0.2);
    expect(first?.pairedPending).toEqual([candidate]);
    expect(first?.paired).toEqual({});
    expect(first?.runs.every((run) => run.judging.metricJudgesPending)).toBe(true);
    expect(first?.pendingDeltas).toBeGreaterThan(0);

    // The reads went on in the background: the next request takes them from memory and reads nothing again.
    const before = completedRunReadCounts();
    const next = await compareRuns(store.db, [baseline, candidate], baseline, { waitMs: Infinity });
    const after = completedRunReadCounts();
    expect(after.read).toBe(before.read);
    expect(after.fromCache - before.fromCache).toBe(5); // 2 aggregates, 2 judges, 1 paired read
    const decided = deltaOf(next, candidate);
    expect(decided?.verdict).toBe("better");
    expect(decided?.pairs).toBeGreaterThan(100);
    expect(next?.pairedPending).toBeUndefined();
    expect(next?.runs.some((run) => run.judging.metricJudgesPending)).toBe(false);
    expect(next?.runs[0].judging.metricJudges.length).toBeGreaterThan(0);
  });

  it("waits for the reads of a run still being judged, which are never kept", async () => {
    clearCompletedRunReads();
    await sqlOf(store.db).run(`UPDATE "Run" SET "status" = 'running', "finishedAt" = NULL WHERE "id" = ?`, [candidate]);
    const comparison = await compareRuns(store.db, [baseline, candidate], baseline, { waitMs: 0 });
    expect(deltaOf(comparison, candidate)?.verdict).toBe("better");
    expect(comparison?.pairedPending).toBeUndefined();
    expect(comparison?.runs.find((run) => run.id === candidate)?.judging.metricJudgesPending).toBeUndefined();
  });
});
