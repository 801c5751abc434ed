import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getRun, listRuns } from "@/lib/db/runs/runQueries";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { createRun } from "@/lib/engine/createRun";
import { importRows, runToCompletion } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

const heuristic = { provider: "heuristic" as const, model: "heuristic-v1" };

describe("the run repository decodes a run's JSON columns once", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, [
      {
        request: "q1",
        response: "a1",
        retrieved_context: [{ content: "x", doc_uri: "d1" }],
        expected_retrieved_context: [{ doc_uri: "d1" }],
      },
      { request: "q2", response: "a2", retrieved_context: [], expected_retrieved_context: [{ doc_uri: "d2" }] },
    ]);
  });
  afterAll(async () => {
    await cleanup();
  });

  it("returns config and tags as values, not JSON text", async () => {
    const runId = await createRun(db, {
      datasetId,
      tags: ["baseline", "v2"],
      metrics: ["safety"],
      thresholds: { safety: 0.5 },
      judge: heuristic,
      chunkMode: "per_chunk",
    });
    const run = await getRun(db, runId);
    expect(run?.config).toEqual({
      metrics: ["response/llm_judged/safety"],
      chunkMode: "per_chunk",
      thresholds: { "response/llm_judged/safety": 0.5 },
    });
    expect(run?.tags).toEqual(["baseline", "v2"]);
    const listed = (await listRuns(db, 20, datasetId)).find((r) => r.id === runId);
    expect(listed?.tags).toEqual(["baseline", "v2"]);
  });

  it("refuses a stored config that does not fit the schema, instead of handing it on unchecked", async () => {
    const runId = await createRun(db, { datasetId, metrics: ["safety"], judge: heuristic });
    await db.run.update({ where: { id: runId }, data: { config: JSON.stringify({ metrics: "safety" }) } });
    await expect(getRun(db, runId)).rejects.toThrow(/metrics/);
    await db.run.update({ where: { id: runId }, data: { config: "{}", tags: JSON.stringify([1, 2]) } });
    await expect(getRun(db, runId)).rejects.toThrow();
  });

  it("re-judging failed rows for a second opinion marks the decoded config to refresh the cache, and keeps the rest of it", async () => {
    const { runId } = await runToCompletion(
      db,
      { datasetId, metrics: ["document_recall"], thresholds: { document_recall: 1 }, judge: heuristic },
      null,
    );
    const before = await getRun(db, runId);
    expect(await resetJudgmentsForRejudge(db, runId, "errored_or_failed", { secondOpinion: true })).toBeGreaterThan(0);
    const after = await getRun(db, runId);
    expect(after?.config).toEqual({ ...before?.config, refreshCache: true });
    // Without a second opinion the cache is read again (an earlier second opinion does not stick).
    // (the re-judge put the run back to pending; marked finished again without running it)
    await db.run.update({ where: { id: runId }, data: { status: "completed", rejudgeTotal: null } });
    await db.judgmentItem.updateMany({ where: { runId }, data: { status: "done", passed: false } });
    expect(await resetJudgmentsForRejudge(db, runId, "errored_or_failed")).toBeGreaterThan(0);
    expect((await getRun(db, runId))?.config).toEqual({ ...before?.config, refreshCache: false });
  });
});
