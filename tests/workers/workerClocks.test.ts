// Workers on several machines decide by one clock, the store's: a worker whose own clock is a minute ahead or
// behind (vi.setSystemTime: its Date, not the store's) neither takes over a run whose coordinator is alive nor
// fails to take over one whose lease lapsed, and the leases it sets last as long as the store says.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/client";
import { listRunEvents } from "@/lib/db/runs/runEvents";
import {
  claimRunLease,
  listResumableRuns,
  listRunsNeedingHelp,
  readRunLease,
  renewRunLease,
} from "@/lib/db/runs/runLease";
import { deleteAbandonedPlans, insertPlanningRun } from "@/lib/db/work/runWrites";
import { createRun } from "@/lib/engine/createRun";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb, type TempDb } from "../support/tempDb";
import { clockOff } from "../support/clockOff";

const MINUTE = 60_000;
const LEASE_MS = 20_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("workers whose clocks are a minute off", () => {
  let store: TempDb;
  let db: Db;
  let datasetId: string;

  beforeAll(async () => {
    store = await createTempDb();
    db = store.db;
    datasetId = await importRows(db, syntheticRows(3, 1));
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => store?.cleanup());

  const newRun = () =>
    createRun(db, {
      datasetId,
      metrics: ["safety"],
      judge: { provider: "openai", model: "judge-model" },
      concurrency: 2,
    });

  it.each([
    ["ahead", MINUTE],
    ["behind", -MINUTE],
  ])("a worker a minute %s does not take over a run whose coordinator is alive, and helps it", async (_, offset) => {
    const runId = await newRun();
    expect(await claimRunLease(db, runId, "coordinator", LEASE_MS)).toBe(true);
    clockOff(offset);
    expect(await claimRunLease(db, runId, "skewed-worker", LEASE_MS)).toBe(false);
    expect(await listResumableRuns(db)).not.toContain(runId);
    expect(await listRunsNeedingHelp(db)).toContain(runId);
    expect((await readRunLease(db, runId)).coordinatorGone).toBe(false);
  });

  it.each([
    ["ahead", MINUTE],
    ["behind", -MINUTE],
  ])("a worker a minute %s takes over a run whose lease lapsed, and stops helping it", async (_, offset) => {
    const runId = await newRun();
    expect(await claimRunLease(db, runId, "dead-coordinator", 1)).toBe(true);
    await sleep(20); // the lease lapses (by the store's clock)
    clockOff(offset);
    expect(await listRunsNeedingHelp(db)).not.toContain(runId);
    expect((await readRunLease(db, runId)).coordinatorGone).toBe(true);
    expect(await listResumableRuns(db)).toContain(runId);
    expect(await claimRunLease(db, runId, "skewed-worker", LEASE_MS)).toBe(true);
    // Its resume is recorded after the start, as the store saw them, whatever its clock said.
    expect((await listRunEvents(db, runId)).map((event) => event.kind)).toEqual(["started", "resumed"]);
  });

  it.each([
    ["ahead", MINUTE],
    ["behind", -MINUTE],
  ])(
    "the lease a worker a minute %s claims and renews is live to the others, and lapses for them",
    async (_, offset) => {
      const runId = await newRun();
      clockOff(offset);
      expect(await claimRunLease(db, runId, "skewed-coordinator", LEASE_MS)).toBe(true);
      expect(await renewRunLease(db, runId, "skewed-coordinator", LEASE_MS)).toBe(true);
      vi.useRealTimers();
      expect(await claimRunLease(db, runId, "other-worker", LEASE_MS)).toBe(false);
      expect(await listResumableRuns(db)).not.toContain(runId);
      // A short lease set by the skewed clock lapses when the store says it does.
      clockOff(offset);
      expect(await renewRunLease(db, runId, "skewed-coordinator", 1)).toBe(true);
      vi.useRealTimers();
      await sleep(20);
      expect(await claimRunLease(db, runId, "other-worker", LEASE_MS)).toBe(true);
    },
  );

  it.each([
    ["ahead", MINUTE, 0],
    ["behind", 0, -MINUTE],
  ])(
    "a run being planned is not removed as abandoned by a worker, or for a planner, a minute %s",
    async (_, sweeperOffset, plannerOffset) => {
      const runId = `planning-${plannerOffset}-${sweeperOffset}`;
      if (plannerOffset) clockOff(plannerOffset);
      await insertPlanningRun(
        db,
        {
          id: runId,
          datasetId,
          name: "being planned",
          tags: "[]",
          judgeProvider: "openai",
          judgeModel: "judge-model",
          concurrency: 2,
          config: JSON.stringify({ metrics: ["safety"], chunkMode: "batched", thresholds: {} }),
          generationModel: null,
          generationSystemPrompt: null,
        },
        [],
        { owner: "planner", ttlMs: LEASE_MS },
      );
      vi.useRealTimers();
      if (sweeperOffset) clockOff(sweeperOffset);
      expect(await deleteAbandonedPlans(db)).toBe(0);
      expect(await db.run.count({ where: { id: runId } })).toBe(1);
    },
  );
});
