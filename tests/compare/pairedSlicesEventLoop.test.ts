import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPairedCounts } from "@/lib/db/judgments/compareQueries";
import { createTempDb, testStore, type TempDb } from "../support/tempDb";
import { turnsGivenDuring } from "../support/eventLoopTurns";
import { insertDatasetRows, insertJudgedRun } from "./support/pairedRuns";

const ROWS = 5_000;

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
    expect((await turnsGivenDuring(whole)).turns).toBeLessThanOrEqual(2);
    expect((await turnsGivenDuring(sliced)).turns).toBeGreaterThanOrEqual(8);
    expect(await sliced()).toEqual(await whole());
  });
});
