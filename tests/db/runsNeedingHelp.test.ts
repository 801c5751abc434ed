import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { listRunsNeedingHelp } from "@/lib/db/runs/runLease";
import { createRun } from "@/lib/engine/createRun";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb, type TempDb } from "../support/tempDb";

/** The runs a worker offers to help: running under a live coordinator, with pending work, and not its own already. */
describe("runs needing help", () => {
  let store: TempDb;
  let db: Db;
  beforeAll(async () => {
    store = await createTempDb();
    db = store.db;
  });
  afterAll(async () => store?.cleanup());

  it("lists a live run with pending judgments, leaves out the asker's own runs, and drops a run with none pending", async () => {
    const datasetId = await importRows(db, syntheticRows(3, 1));
    const started = async () => {
      const runId = await createRun(db, {
        datasetId,
        metrics: ["response/llm_judged/safety"],
        judge: { provider: "openai", model: "judge-model" },
        concurrency: 2,
      });
      await db.run.update({
        where: { id: runId },
        data: { status: "running", leaseExpiresAt: new Date(Date.now() + 60_000) },
      });
      return runId;
    };
    const [first, second] = [await started(), await started()];
    expect((await listRunsNeedingHelp(db)).sort()).toEqual([first, second].sort());
    expect(await listRunsNeedingHelp(db, [first])).toEqual([second]);
    expect(await listRunsNeedingHelp(db, [first, second])).toEqual([]);
    await db.judgmentItem.updateMany({ where: { runId: second }, data: { status: "running", claimedBy: "someone" } });
    expect(await listRunsNeedingHelp(db)).toEqual([first]);
    // A coordinator whose lease lapsed is not helped: its run is for a worker to take over (listResumableRuns).
    await db.run.update({ where: { id: first }, data: { leaseExpiresAt: new Date(Date.now() - 1_000) } });
    expect(await listRunsNeedingHelp(db)).toEqual([]);
  });
});
