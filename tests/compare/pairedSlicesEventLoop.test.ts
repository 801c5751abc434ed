import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPairedCounts } from "@/lib/db/judgments/compareQueries";
import { createTempDb, testStore, type TempDb } from "../support/tempDb";
import { insertDatasetRows, insertJudgedRun } from "./support/pairedRuns";

const ROWS = 5_000;

/** The longest the event loop stood still while `work` ran: how late a 1 ms timer fired, at worst. */
async function longestStall(work: () => Promise<unknown>): Promise<{ stall: number; took: number }> {
  let stall = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  // The timer's first tick comes on a later turn: start the work on one too, so the whole of it is watched.
  await new Promise((resolve) => setTimeout(resolve, 5));
  last = performance.now();
  await work();
  const took = performance.now() - started;
  clearInterval(timer);
  return { stall: Math.max(stall, performance.now() - last), took };
}

// SQLite answers a statement synchronously: one statement over the whole paired join holds every other request.
// PostgreSQL's reads wait on the network, so there is nothing to measure there.
describe.runIf(testStore() === "sqlite")("counting a large paired comparison on SQLite", () => {
  let store: TempDb;
  let baseline: string;
  let candidate: string;

  beforeAll(async () => {
    store = await createTempDb();
    const datasetId = await insertDatasetRows(store.db, ROWS);
    const finishedAt = new Date("2026-11-24T10:00:00Z");
    baseline = (await insertJudgedRun(store.db, datasetId, { seed: 1, yesRate: 0.7, finishedAt })).runId;
    candidate = (await insertJudgedRun(store.db, datasetId, { seed: 2, yesRate: 0.75, finishedAt })).runId;
  }, 120_000);
  afterAll(async () => store.cleanup());

  it("gives the event loop back between slices: no stall near the length of the whole count", async () => {
    const whole = () => getPairedCounts(store.db, baseline, candidate, { sliceJudgments: Number.MAX_SAFE_INTEGER });
    await whole(); // warm the page cache, so both measurements read from memory
    // The least of three: other processes on a busy machine can pause this one too, never make it stall less.
    const leastOf3 = async (work: () => Promise<unknown>) => {
      const runs = [await longestStall(work), await longestStall(work), await longestStall(work)];
      return runs.reduce((least, run) => (run.stall < least.stall ? run : least));
    };
    const inOne = await leastOf3(whole);
    const sliced = await leastOf3(() => getPairedCounts(store.db, baseline, candidate, { sliceJudgments: 1000 }));
    // In one statement the loop stands still for about the whole count; in slices of 1,000 judgments (of 20,000)
    // for a small part of it.
    expect(inOne.stall).toBeGreaterThan(inOne.took * 0.8);
    expect(sliced.stall).toBeLessThan(inOne.stall / 4);
    expect(await getPairedCounts(store.db, baseline, candidate, { sliceJudgments: 1000 })).toEqual(await whole());
  });
});
