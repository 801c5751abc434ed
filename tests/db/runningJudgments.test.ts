// A claimed judgment is counted as running by the run's progress and the runs list, and as pending again once
// its claim is released, on both stores: PostgreSQL's kept tallies count a claimed judgment as pending (a
// claim writes no tally), and the readers count the running ones live.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getRunProgress, listRuns } from "@/lib/db/runs/runQueries";
import { claimJudgments, releaseClaims } from "@/lib/db/work/claims";
import { createRun } from "@/lib/engine/createRun";
import { importRows } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

describe("running judgments", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ db, cleanup } = await createTempDb()));
  afterAll(async () => cleanup());

  it("are the claimed ones, read live beside the kept tallies", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({
      request_id: `q${i}`,
      request: `Question ${i}?`,
      response: `Answer ${i}.`,
    }));
    const datasetId = await importRows(db, rows);
    const runId = await createRun(db, {
      datasetId,
      metrics: ["response/llm_judged/relevance_to_query", "response/llm_judged/safety"],
      judge: { provider: "openai", model: "judge-model" },
      concurrency: 4,
    });
    const before = (await getRunProgress(db, runId)).judgments;
    expect(before).toMatchObject({ pending: 60, running: 0, total: 60 });

    const { items } = await claimJudgments(db, runId, "worker-a", 7);
    expect(items).toHaveLength(7);
    expect((await getRunProgress(db, runId)).judgments).toMatchObject({ pending: 53, running: 7, total: 60 });
    const listed = (await listRuns(db)).find((run) => run.id === runId);
    expect(listed?.counts).toMatchObject({ pending: 53, running: 7 });

    await releaseClaims(db, runId, "worker-a");
    expect((await getRunProgress(db, runId)).judgments).toMatchObject({ pending: 60, running: 0, total: 60 });
    expect((await listRuns(db)).find((run) => run.id === runId)?.counts).toEqual({ pending: 60 });
  });
});
