import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPairedCounts } from "@/lib/db/judgments/compareQueries";
import { createTempDb, testStore, type TempDb } from "../support/tempDb";
import { insertDatasetRows, insertJudgedRun } from "./support/pairedRuns";

const ROWS = 5_000;

/**
 * How many turns of the event loop other work got while `work` ran: a callback that re-queues itself with
 * setImmediate counts each turn it is given. Counted, not timed, so a busy machine cannot change the answer.
 */
async function turnsGivenDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let watching = true;
  const tick = () => {
    if (!watching) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  watching = false;
  return turns;
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

  it("gives the event loop back between slices: other work gets a turn after each slice, none during one statement", async () => {
    const whole = () => getPairedCounts(store.db, baseline, candidate, { sliceJudgments: Number.MAX_SAFE_INTEGER });
    const sliced = () => getPairedCounts(store.db, baseline, candidate, { sliceJudgments: 1000 });
    // In one statement nothing else runs until the count is done (the turns counted are at its start and end);
    // in slices of 1,000 judgments (of 10,000) other work runs between every two.
    expect(await turnsGivenDuring(whole)).toBeLessThanOrEqual(2);
    expect(await turnsGivenDuring(sliced)).toBeGreaterThanOrEqual(8);
    expect(await sliced()).toEqual(await whole());
  });
});
