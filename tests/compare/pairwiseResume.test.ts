// A pairwise comparison stopped part-way and resumed by another process judges only what was left (no call made
// twice), a process that went silent loses the comparison to the next one only once its heartbeat is stale, and
// people's A/B verdicts count only for the responses they were given on. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPairwiseAgreement } from "@/lib/compare/pairwiseAgreement";
import { sqlOf, type Db } from "@/lib/db/client";
import {
  claimPairwiseComparison,
  getPairwiseComparison,
  reopenPairwiseComparison,
  setPairwiseBudget,
} from "@/lib/db/pairwise/pairwiseComparisons";
import { savePairwisePreference } from "@/lib/db/pairwise/pairwisePreferences";
import { getDecidedPairPlace, listDecidedPairs } from "@/lib/db/pairwise/pairwiseRows";
import { judgePairwise } from "@/lib/engine/pairwise/judgePairwise";
import { startPairwise } from "@/lib/engine/pairwise/startPairwise";
import { responseHashOf } from "@/lib/contract/contentHash";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { markerResponder } from "../support/fakePairwiseResponders";
import { fakePairwiseJudge, twoMarkedRuns } from "../support/pairwiseRuns";
import { createTempDb } from "../support/tempDb";

const ROWS = 40;
const CONCURRENCY = 4;

describe("a pairwise comparison stopped and resumed", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  let runs: { baseline: string; candidate: string };

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({ responder: markerResponder("BETTER"), behaviour: { latencyMs: 5 } });
    runs = await twoMarkedRuns(db, ROWS);
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  const start = () =>
    startPairwise(db, {
      baselineRunId: runs.baseline,
      candidateRunId: runs.candidate,
      judgeProvider: "openai",
      judgeModel: "judge-model",
      concurrency: CONCURRENCY,
    });

  it("judges only what was left: every call made once, every verdict written once", async () => {
    const comparison = await start();
    const before = server.stats.totalRequests;
    let written = 0;
    const first = await judgePairwise(db, comparison.id, {
      judge: fakePairwiseJudge(db, server.url, CONCURRENCY),
      ownerId: "process-1",
      onProgress: () => (written += 1),
      stopRequested: () => written >= 25,
    });
    expect(first).toBe("left");
    const stopped = await getPairwiseComparison(db, comparison.id);
    // The calls already out when the stop came were finished and written, never abandoned.
    expect(stopped?.progress.done).toBe(written);
    expect(written).toBeGreaterThanOrEqual(25);
    expect(written).toBeLessThan(2 * ROWS);
    const second = await judgePairwise(db, comparison.id, {
      judge: fakePairwiseJudge(db, server.url, CONCURRENCY),
      ownerId: "process-2",
    });
    expect(second).toBe("completed");
    expect(server.stats.totalRequests - before).toBe(2 * ROWS);
    const done = await getPairwiseComparison(db, comparison.id);
    expect(done).toMatchObject({ status: "completed", progress: { done: 2 * ROWS, total: 2 * ROWS } });
    expect(done?.spent.llmCalls).toBe(2 * ROWS);
  });

  it("stops at its own call budget, keeps what it judged, and judges the rest once the budget is raised", async () => {
    const comparison = await startPairwise(db, {
      baselineRunId: runs.baseline,
      candidateRunId: runs.candidate,
      judgeProvider: "openai",
      judgeModel: "budget-judge",
      concurrency: CONCURRENCY,
      budget: { calls: 10, tokens: null, usd: null },
    });
    const before = server.stats.totalRequests;
    // A model no earlier test asked: every judgment is a call, none from the cache.
    const judge = () => fakePairwiseJudge(db, server.url, CONCURRENCY, "budget-judge");
    expect(await judgePairwise(db, comparison.id, { judge: judge(), ownerId: "p" })).toBe("failed");
    const stopped = await getPairwiseComparison(db, comparison.id);
    expect(server.stats.totalRequests - before).toBe(10);
    expect(stopped).toMatchObject({ status: "failed", progress: { done: 10 }, spent: { llmCalls: 10 } });
    expect(stopped?.errorMessage).toBe(
      `judging stopped at its budget of 10 LLM calls (raise it to judge the rest) with ${2 * ROWS - 10} of ${2 * ROWS} judgments left; what was judged is kept`,
    );
    await setPairwiseBudget(db, comparison.id, { calls: 1000, tokens: null, usd: null });
    expect(await reopenPairwiseComparison(db, comparison.id)).toBe(true);
    expect(await judgePairwise(db, comparison.id, { judge: judge(), ownerId: "p" })).toBe("completed");
    expect(server.stats.totalRequests - before).toBe(2 * ROWS);
    expect(await getPairwiseComparison(db, comparison.id)).toMatchObject({
      status: "completed",
      progress: { done: 2 * ROWS },
      spent: { llmCalls: 2 * ROWS },
    });
  });

  it("is taken from a silent process only once its heartbeat is stale", async () => {
    const comparison = await start();
    expect(await claimPairwiseComparison(db, comparison.id, "process-1")).toBe(true);
    // process-1 holds it with a fresh heartbeat: another process is turned away.
    expect(await claimPairwiseComparison(db, comparison.id, "process-2")).toBe(false);
    expect(
      await judgePairwise(db, comparison.id, { judge: fakePairwiseJudge(db, server.url, 2), ownerId: "process-2" }),
    ).toBe("busy");
    // process-1 died: its last heartbeat a minute ago.
    await sqlOf(db).run(`UPDATE "PairwiseComparison" SET "heartbeatAt" = ? WHERE "id" = ?`, [
      new Date(Date.now() - 60_000),
      comparison.id,
    ]);
    expect((await getPairwiseComparison(db, comparison.id))?.stopped).toBe(true);
    const before = server.stats.totalRequests;
    expect(
      await judgePairwise(db, comparison.id, { judge: fakePairwiseJudge(db, server.url, 2), ownerId: "process-2" }),
    ).toBe("completed");
    // Every prompt was asked by the first comparison: the judge cache answers them all.
    expect(server.stats.totalRequests).toBe(before);
  });

  it("lists the decided pairs and places a row among them", async () => {
    const comparison = await start();
    await judgePairwise(db, comparison.id, { judge: fakePairwiseJudge(db, server.url, 4), ownerId: "p" });
    const won = await listDecidedPairs(db, comparison, "overall", { direction: "improvements", offset: 0, limit: 10 });
    expect(won.total).toBe(ROWS);
    expect(won.items.map((pair) => pair.rowNumber)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    const lost = await listDecidedPairs(db, comparison, "overall", { direction: "regressions", offset: 0, limit: 10 });
    expect(lost.total).toBe(0);
    const place = await getDecidedPairPlace(db, comparison, "overall", "improvements", won.items[1].rowId);
    expect(place).toMatchObject({ position: 2, total: ROWS, previous: won.items[0].rowId, next: won.items[2].rowId });
  });

  it("holds people's verdicts to the judge's, counting only verdicts on these runs' responses", async () => {
    const [comparison] = [await start()];
    await judgePairwise(db, comparison.id, { judge: fakePairwiseJudge(db, server.url, 4), ownerId: "p" });
    const rows = await db.pairwiseVerdict.findMany({
      where: { comparisonId: comparison.id, shownOrder: "ab" },
      orderBy: { rowNumber: "asc" },
      take: 4,
    });
    const responses = await db.datasetRow.findMany({
      where: { id: { in: rows.flatMap((r) => [r.baselineRowId, r.candidateRowId]) } },
    });
    const hashOf = (id: string) => responseHashOf(responses.find((r) => r.id === id)?.response) as string;
    const give = (i: number, labelledBy: string, choice: "a" | "b" | "tie", candidateHash?: string) =>
      savePairwisePreference(
        db,
        {
          baselineRowId: rows[i].baselineRowId,
          candidateRowId: rows[i].candidateRowId,
          baselineResponseHash: hashOf(rows[i].baselineRowId),
          candidateResponseHash: candidateHash ?? hashOf(rows[i].candidateRowId),
          labelledBy,
        },
        { choice, reason: null, baselineRunId: runs.baseline, candidateRunId: runs.candidate },
      );
    await give(0, "ann", "b");
    await give(1, "ann", "a");
    await give(1, "ann", "b"); // changed her mind: one verdict, the latest
    await give(2, "bob", "tie");
    await give(3, "bob", "a");
    await give(3, "cy", "b", "0".repeat(64)); // about another response: not these runs'
    const agreement = await readPairwiseAgreement(db, comparison, {
      baselineGenerates: false,
      candidateGenerates: false,
    });
    expect(agreement.verdicts).toBe(4);
    expect(agreement.compared).toBe(4);
    // The judge said B on every pair; people said B twice, tie once, A once.
    expect(agreement.matrix).toEqual([
      [0, 0, 0],
      [0, 0, 0],
      [1, 1, 2],
    ]);
    expect(agreement.kappa.defined && agreement.kappa.agreement).toBe(0.5);
  });
});
