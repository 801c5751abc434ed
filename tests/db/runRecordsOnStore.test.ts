import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createJudgeCache } from "@/lib/db/judgeCache/judgeCacheRepository";
import { estimateRejudge } from "@/lib/engine/rejudgeEstimate";
import { getRunSpending } from "@/lib/db/runs/runBudget";
import { estimateRunSpending } from "@/lib/engine/runEstimate";
import { listRowFlagsPage, listRuns } from "@/lib/db/runs/runQueries";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

const CORRECTNESS = "response/llm_judged/correctness";
const RECALL = "retrieval/ground_truth/document_recall";

/**
 * The run repository's raw SQL (spending, estimates, the run list's counts,
 * planning's row flags) and the judge cache, on a run written straight into
 * the tables: the same answers on SQLite and PostgreSQL.
 */
describe("a run's records read through the store's runner", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  let runId: string;
  let rowIds: string[];

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    // Four rows with two retrieved chunks each; the second row's first chunk is blank (the content judges skip it).
    const rows = syntheticRows(4, 2);
    (rows[1].retrieved_context as { content: string }[])[0].content = "  \n";
    rows[2].expected_retrieved_context = [{ doc_uri: "doc-2", content: "Retention is per bucket." }];
    datasetId = await importRows(db, rows);
    rowIds = (await db.datasetRow.findMany({ where: { datasetId }, orderBy: { rowNumber: "asc" } })).map((r) => r.id);
    runId = (
      await db.run.create({
        data: {
          datasetId,
          name: "seeded",
          status: "running",
          judgeProvider: "openai",
          judgeModel: "gpt-test",
          generationModel: "gpt-gen",
          config: JSON.stringify({ metrics: [CORRECTNESS, RECALL], chunkMode: "batched", thresholds: {} }),
        },
      })
    ).id;
    const judged = (rowNumber: number) => ({ runId, rowId: rowIds[rowNumber - 1], metric: CORRECTNESS });
    await db.judgmentItem.createMany({
      data: [
        {
          ...judged(1),
          status: "done",
          rating: "yes",
          passed: true,
          attempts: 1,
          inputTokens: 100,
          outputTokens: 20,
          costUsd: 0.25,
        },
        {
          ...judged(2),
          status: "done",
          rating: "no",
          passed: false,
          attempts: 2,
          inputTokens: 300,
          outputTokens: 60,
          costUsd: 0.5,
        },
        { ...judged(3), status: "error", attempts: 3, errorMessage: "HTTP 500" },
        { ...judged(4), status: "pending" },
        { runId, rowId: rowIds[0], metric: RECALL, status: "done", score: 1, passed: true },
      ],
    });
    await db.generation.createMany({
      data: [
        {
          runId,
          rowId: rowIds[0],
          model: "gpt-gen",
          status: "done",
          attempts: 2,
          inputTokenCount: 10,
          outputTokenCount: 5,
          costUsd: 0.125,
        },
        // Stored before attempts were recorded: counts as the one call it made.
        { runId, rowId: rowIds[1], model: "gpt-gen", status: "error" },
        { runId, rowId: rowIds[2], model: "gpt-gen", status: "pending" },
      ],
    });
  });
  afterAll(async () => cleanup());

  it("sums a run's spending over its finished judgments and generations", async () => {
    expect(await getRunSpending(db, runId)).toEqual({
      calls: 1 + 2 + 3 + 0 + 2 + 1,
      tokens: 120 + 360 + 15,
      usd: 0.875,
    });
    expect(await getRunSpending(db, "no-such-run")).toEqual({ calls: 0, tokens: 0, usd: 0 });
  });

  it("estimates the pending work from the rows' text, and the re-judge from the run's own usage", async () => {
    const estimate = await estimateRunSpending(db, runId, {
      gEvalStepWriters: new Set(),
      judgeModel: "gpt-test",
      generationModel: "gpt-gen",
      chunkMode: "batched",
      heuristic: false,
      prices: {},
    });
    expect(estimate.perMetric).toEqual([{ metric: CORRECTNESS, calls: 1 }]);
    expect(estimate.generationCalls).toBe(1);
    expect(estimate.inputTokens).toBeGreaterThan(0);
    const rejudge = await estimateRejudge(db, runId, "errored_or_failed", { secondOpinion: true, price: null });
    expect(rejudge).toMatchObject({ errored: 1, failed: 1, judgments: 2, generations: 1, llmCalls: 3 });
    // Averaged over the two uncached done judgments: (100 + 300) / 2 in, (20 + 60) / 2 out, for the two judged again.
    expect([rejudge?.inputTokens, rejudge?.outputTokens]).toEqual([400, 80]);
    const erroredOnly = await estimateRejudge(db, runId, "errored", { secondOpinion: false, price: null });
    expect(erroredOnly).toMatchObject({ errored: 1, failed: 0, judgments: 1 });
  });

  it("lists runs with their item counts and headline pass rates, for every dataset or one", async () => {
    const [all, one, other] = await Promise.all([
      listRuns(db),
      listRuns(db, 200, datasetId),
      listRuns(db, 200, "no-such-dataset"),
    ]);
    expect(all.map((run) => run.id)).toEqual([runId]);
    expect(other).toEqual([]);
    for (const run of [all[0], one[0]]) {
      expect(run.counts).toEqual({ done: 3, error: 1, pending: 1 });
      expect(run.headlines).toEqual([{ metric: CORRECTNESS, rate: 0.5, judged: 2 }]);
    }
  });

  it("reads planning's row flags a page at a time, with blank chunks and expected content", async () => {
    const first = await listRowFlagsPage(db, datasetId, 0, 3);
    expect(first.nextRowNumber).toBe(3);
    expect(first.rows.map((row) => row.firstEmptyRetrievedChunk)).toEqual([null, 0, null]);
    expect(first.rows.map((row) => row.hasExpectedContextContent)).toEqual([false, false, true]);
    expect(first.rows[0]).toMatchObject({ hasResponse: true, hasRetrievedContext: true, hasRetrievedContent: true });
    const rest = await listRowFlagsPage(db, datasetId, 3, 3);
    expect([rest.rows.length, rest.nextRowNumber]).toEqual([1, null]);
  });

  it("caches a judge's answer once, and a second opinion replaces it", async () => {
    const cache = createJudgeCache(db);
    const entry = {
      key: "k1",
      model: "gpt-test",
      promptVersion: "v1",
      response: '{"a":1}',
      inputTokens: 7,
      outputTokens: 3,
    };
    expect(await cache.get("k1")).toBeNull();
    await cache.put(entry);
    await cache.put({ ...entry, response: '{"a":2}' });
    expect(await cache.get("k1")).toEqual({ response: '{"a":1}', inputTokens: 7, outputTokens: 3 });
    await cache.put({ ...entry, response: '{"a":3}', inputTokens: 9 }, { replace: true });
    expect(await cache.get("k1")).toEqual({ response: '{"a":3}', inputTokens: 9, outputTokens: 3 });
    expect(await db.judgeCache.count()).toBe(1);
  });
});
