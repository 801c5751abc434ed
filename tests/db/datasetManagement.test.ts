import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { countDatasetRuns, getDataset, listDatasets } from "@/lib/db/datasets/datasetQueries";
import { deleteDatasetWithRuns, renameDataset } from "@/lib/db/datasets/datasetWrites";
import { createRun } from "@/lib/engine/createRun";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { SAMPLE_ROWS } from "../support/evalFiles";
import { importRows, runToCompletion } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

const judge = { provider: "heuristic" as const, model: HEURISTIC_MODEL };
const metrics = ["response/llm_judged/relevance_to_query", "retrieval/llm_judged/chunk_relevance"];

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

/** Everything a dataset owns, counted by table, read by dataset (a join). */
async function countsOf(datasetId: string) {
  return {
    datasets: await db.dataset.count({ where: { id: datasetId } }),
    rows: await db.datasetRow.count({ where: { datasetId } }),
    chunks: await db.contextChunk.count({ where: { row: { datasetId } } }),
    runs: await db.run.count({ where: { datasetId } }),
    judgments: await db.judgmentItem.count({ where: { run: { datasetId } } }),
    chunkJudgments: await db.chunkJudgment.count({ where: { run: { datasetId } } }),
  };
}

describe("renaming a dataset", () => {
  it("changes the name the list and the page show, and nothing else", async () => {
    const id = await importRows(db, SAMPLE_ROWS);
    expect(await renameDataset(db, id, "Support set v2")).toBe(true);
    expect((await getDataset(db, id))?.name).toBe("Support set v2");
    expect((await listDatasets(db)).find((d) => d.id === id)).toMatchObject({ name: "Support set v2", rowCount: 3 });
    expect(await renameDataset(db, "no-such-dataset", "x")).toBe(false);
  });
});

describe("deleting a dataset", () => {
  it("deletes its rows, chunks, runs and their judgments, and leaves other datasets alone", async () => {
    const doomed = await importRows(db, SAMPLE_ROWS);
    const kept = await importRows(db, SAMPLE_ROWS);
    for (const datasetId of [doomed, doomed, kept]) await runToCompletion(db, { datasetId, metrics, judge }, null);
    const before = await countsOf(doomed);
    expect(before).toMatchObject({ datasets: 1, rows: 3, runs: 2 });
    expect(before.chunks).toBeGreaterThan(0);
    expect(before.judgments).toBeGreaterThan(0);
    expect(before.chunkJudgments).toBeGreaterThan(0);
    const keptBefore = await countsOf(kept);

    expect(await countDatasetRuns(db, doomed)).toEqual({ total: 2, inProgress: 0 });
    expect(await deleteDatasetWithRuns(db, doomed, 2)).toEqual({ deleted: true });
    expect(await countsOf(doomed)).toEqual({
      datasets: 0,
      rows: 0,
      chunks: 0,
      runs: 0,
      judgments: 0,
      chunkJudgments: 0,
    });
    expect(await countsOf(kept)).toEqual(keptBefore);
    expect(await deleteDatasetWithRuns(db, doomed, 0)).toEqual({ deleted: false, reason: "notFound" });
  });

  it("is refused while a run on it is pending, naming the run, and deletes nothing", async () => {
    const id = await importRows(db, SAMPLE_ROWS);
    const runId = await createRun(db, { datasetId: id, metrics, judge, name: "nightly" });
    expect(await countDatasetRuns(db, id)).toEqual({ total: 1, inProgress: 1 });
    const before = await countsOf(id);
    expect(await deleteDatasetWithRuns(db, id, 1)).toEqual({
      deleted: false,
      reason: "runInProgress",
      runNames: ["nightly"],
    });
    expect(await countsOf(id)).toEqual(before);
    await db.run.update({ where: { id: runId }, data: { status: "cancelled" } });
    expect(await deleteDatasetWithRuns(db, id, 1)).toEqual({ deleted: true });
  });

  it("is refused when the dataset no longer has the number of runs the user confirmed", async () => {
    const id = await importRows(db, SAMPLE_ROWS);
    await runToCompletion(db, { datasetId: id, metrics, judge }, null);
    expect(await deleteDatasetWithRuns(db, id, 0)).toEqual({ deleted: false, reason: "runCountChanged", runCount: 1 });
    expect((await countsOf(id)).runs).toBe(1);
  });
});
