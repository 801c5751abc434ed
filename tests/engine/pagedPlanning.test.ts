import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { claimRunLease, listResumableRuns } from "@/lib/db/runs/runLease";
import { deleteAbandonedPlans, insertPlanningRun, insertPlanPage } from "@/lib/db/work/runWrites";
import { createRun } from "@/lib/engine/createRun";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

const ROWS = 2_000;

describe("planning a run in pages", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, syntheticRows(ROWS, 2));
  }, 120_000);
  afterAll(async () => {
    await cleanup();
  });

  // How long planning holds the event loop is a speed: \`npm run bench:plan\` prints its longest stall against a target.
  it("writes every item, and the run is never runnable before its plan is whole", async () => {
    const seen: string[][] = [];
    const watcher = setInterval(() => void listResumableRuns(db).then((ids) => seen.push(ids)), 25);
    let runId = "";
    try {
      runId = await createRun(db, {
        datasetId,
        metrics: BUILT_IN_METRICS,
        judge: { provider: "openai", model: "judge-model" },
        concurrency: 4,
      });
    } finally {
      clearInterval(watcher);
    }
    expect(await db.judgmentItem.count({ where: { runId } })).toBe(ROWS * BUILT_IN_METRICS.length);
    expect(await db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } })).toEqual({
      status: "pending",
    });
    // While it was being planned, nothing could have taken it for a runnable run.
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.slice(0, -1).some((ids) => ids.includes(runId))).toBe(false);
  }, 120_000);

  it("a planner that dies part-way leaves nothing a resumer would take, and its half plan is removed once its lease lapses", async () => {
    const runId = "half-planned-run";
    const planner = { owner: "planner-dead", ttlMs: 200 };
    await insertPlanningRun(
      db,
      {
        id: runId,
        datasetId,
        name: "half planned",
        tags: "[]",
        judgeProvider: "openai",
        judgeModel: "judge-model",
        concurrency: 4,
        config: JSON.stringify({ metrics: ["safety"], chunkMode: "batched", thresholds: {} }),
        generationModel: null,
        generationSystemPrompt: null,
      },
      [],
      planner,
    );
    const rows = await db.datasetRow.findMany({
      where: { datasetId },
      take: 10,
      select: { id: true, rowNumber: true },
    });
    await insertPlanPage(
      db,
      runId,
      {
        items: rows.map((row, i) => ({
          id: `half-${i}`,
          rowId: row.id,
          rowNumber: row.rowNumber,
          metric: "safety",
          trial: 1,
          status: "pending",
          skipReason: null,
        })),
        generations: [],
        generationModel: null,
      },
      planner,
    );
    // The planner "dies" here.
    expect(await listResumableRuns(db)).not.toContain(runId);
    expect(await claimRunLease(db, runId, "another-worker", 30_000, true)).toBe(false);
    expect(await deleteAbandonedPlans(db)).toBe(0); // its lease has not lapsed yet: it may still be planning
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await deleteAbandonedPlans(db)).toBe(1);
    expect(await db.judgmentItem.count({ where: { runId } })).toBe(0);
  });
});
