import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf, type Db } from "@/lib/db/client";
import { listDatasetRows } from "@/lib/db/datasets/datasetQueries";
import { getRunRowNeighbours, getRunRowPlace, getRunRowPosition, listRunRows } from "@/lib/db/runs/runRowQueries";
import { createRun } from "@/lib/engine/createRun";
import type { RunRowFilter } from "@/lib/contract/rowQueries";
import type { RunRowQuery } from "@/lib/urlState/runRowQuery";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

/**
 * Moving through a run's rows within the filter a reviewer came from (j / k / n
 * and "12 of 322"), and pages past the end, on a real SQLite file. The verdicts
 * follow the row number so every expectation can be counted by hand:
 * groundedness fails every 4th row, correctness every 3rd, chunk_relevance
 * errors on every 5th, everything else passes.
 */
const ROWS = 60;
const GROUNDEDNESS = "response/llm_judged/groundedness";
const CORRECTNESS = "response/llm_judged/correctness";
const CHUNK_RELEVANCE = "retrieval/llm_judged/chunk_relevance";

const numbers = (keep: (n: number) => boolean) => Array.from({ length: ROWS }, (_, i) => i + 1).filter(keep);
const failsGroundedness = (n: number) => n % 4 === 0;
const failsCorrectness = (n: number) => n % 3 === 0;
const errorsChunkRelevance = (n: number) => n % 5 === 0;

describe("a run's rows within a filter", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let run: { id: string; datasetId: string };
  let datasetId: string;
  /** Row id by row number. */
  const idOf = new Map<number, string>();

  const groundedness: RunRowFilter = { filter: "failed", metric: GROUNDEDNESS, q: "" };
  const view = (filter: RunRowFilter, page: number, pageSize = 25): RunRowQuery => ({
    ...filter,
    sort: "rowNumber",
    dir: "asc",
    page,
    pageSize,
  });

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, syntheticRows(ROWS, 1));
    const runId = await createRun(db, {
      datasetId,
      metrics: [GROUNDEDNESS, CORRECTNESS, CHUNK_RELEVANCE],
      judge: { provider: "heuristic", model: "heuristic" },
      name: "verdicts by row number",
    });
    run = { id: runId, datasetId };
    // The verdicts, written in one statement keyed by row number (no list of ids reaches the database).
    await sqlOf(db).run(
      `UPDATE "JudgmentItem" SET
         "status" = CASE WHEN "metric" = ? AND d."r" % 5 = 0 THEN 'error' ELSE 'done' END,
         "passed" = CASE
           WHEN "metric" = ? AND d."r" % 5 = 0 THEN NULL
           WHEN "metric" = ? AND d."r" % 4 = 0 THEN FALSE
           WHEN "metric" = ? AND d."r" % 3 = 0 THEN FALSE
           ELSE TRUE END
       FROM (SELECT "id" AS "rid", "rowNumber" AS "r" FROM "DatasetRow") d WHERE d."rid" = "JudgmentItem"."rowId" AND "runId" = ?`,
      [CHUNK_RELEVANCE, CHUNK_RELEVANCE, GROUNDEDNESS, CORRECTNESS, runId],
    );
    const all = await listRunRows(db, run, view({ filter: "all", q: "" }, 1, 100));
    for (const row of all.items) idOf.set(row.rowNumber, row.id);
    expect(idOf.size).toBe(ROWS);
    expect((await listRunRows(db, run, view(groundedness, 1, 100))).items.map((row) => row.rowNumber)).toEqual(
      numbers(failsGroundedness),
    );
  });
  afterAll(async () => cleanup());

  it("n from a groundedness failure goes to the next row that failed groundedness, not any failed row", async () => {
    // Row 6 failed correctness only: the next failed row, but not in this filter.
    expect(await getRunRowNeighbours(db, run, 4, groundedness)).toEqual({
      previousId: null,
      nextId: idOf.get(8),
      nextFailedId: idOf.get(8),
    });
    const last = numbers(failsGroundedness).at(-1) ?? 0;
    expect((await getRunRowNeighbours(db, run, last, groundedness)).nextFailedId).toBeNull();
  });

  it("n stays within every other filter too: its rows that failed a metric, or none", async () => {
    expect((await getRunRowNeighbours(db, run, 4, { filter: "all", q: "" })).nextFailedId).toBe(idOf.get(6));
    // Errored on chunk_relevance: rows 5, 10, 15, 20, …; of those, 15 and 20 failed something.
    const errored: RunRowFilter = { filter: "errored", metric: CHUNK_RELEVANCE, q: "" };
    expect(await getRunRowNeighbours(db, run, 5, errored)).toEqual({
      previousId: null,
      nextId: idOf.get(10),
      nextFailedId: idOf.get(15),
    });
    // A search narrows n: "row-1" matches rows 1 and 10–19, whose failures are 12, 15, 16, 18.
    expect((await getRunRowNeighbours(db, run, 12, { filter: "all", q: "row-1" })).nextFailedId).toBe(idOf.get(15));
    expect((await getRunRowNeighbours(db, run, 1, { filter: "passed", q: "" })).nextFailedId).toBeNull();
  });

  it("j / k move within the filter", async () => {
    expect(await getRunRowNeighbours(db, run, 8, groundedness)).toMatchObject({
      previousId: idOf.get(4),
      nextId: idOf.get(12),
    });
    expect(await getRunRowNeighbours(db, run, 12, { ...groundedness, q: "row-1" })).toMatchObject({
      previousId: null,
      nextId: idOf.get(16),
    });
  });

  it("says where a row stands in the filter, counted in SQL", async () => {
    const failures = numbers(failsGroundedness);
    const position = (rowNumber: number, filter: RunRowFilter) =>
      getRunRowPosition(db, run, { id: idOf.get(rowNumber) ?? "", rowNumber }, filter);
    expect(await position(12, groundedness)).toEqual({ index: 3, total: failures.length });
    expect(await position(60, groundedness)).toEqual({ index: failures.length, total: failures.length });
    // A row outside the filter (opened by a hand-edited link) has no index.
    expect(await position(13, groundedness)).toEqual({ index: null, total: failures.length });
    expect(await position(16, { ...groundedness, q: "row-1" })).toEqual({ index: 2, total: 2 });
    const failedAny = numbers((n) => failsGroundedness(n) || failsCorrectness(n));
    expect(failedAny.slice(0, 5)).toEqual([3, 4, 6, 8, 9]);
    expect(await position(9, { filter: "failed", q: "" })).toEqual({ index: 5, total: failedAny.length });
    const passedAll = numbers((n) => !failsGroundedness(n) && !failsCorrectness(n) && !errorsChunkRelevance(n));
    expect(passedAll.slice(0, 4)).toEqual([1, 2, 7, 11]);
    expect(await position(7, { filter: "passed", q: "" })).toEqual({ index: 3, total: passedAll.length });
  });

  it("j / k / n and the place follow the table's sort: a metric worst first, or row number descending", async () => {
    const at = (rowNumber: number) => ({ id: idOf.get(rowNumber) ?? "", rowNumber });
    const byCorrectness = { filter: "all" as const, q: "", sort: CORRECTNESS, dir: "asc" as const };
    // Worst first: correctness failures (3, 6, … 60), then the passes (1, 2, 4, 5, 7, …), as the table lists them.
    const listed = (await listRunRows(db, run, { ...byCorrectness, page: 1, pageSize: 100 })).items.map(
      (row) => row.rowNumber,
    );
    const failures = numbers(failsCorrectness);
    expect(listed).toEqual([...failures, ...numbers((n) => !failsCorrectness(n))]);
    expect(await getRunRowPlace(db, run, at(6), byCorrectness)).toEqual({
      neighbours: { previousId: idOf.get(3), nextId: idOf.get(9), nextFailedId: idOf.get(9) },
      position: { index: 2, total: ROWS },
    });
    // From the last failure, j goes on to the first pass; n to the next row that failed anything (4: groundedness).
    expect(await getRunRowPlace(db, run, at(60), byCorrectness)).toMatchObject({
      neighbours: { nextId: idOf.get(1), nextFailedId: idOf.get(4) },
      position: { index: failures.length },
    });
    // Within "failed on groundedness" sorted by correctness: 12, 24, 36, 48, 60 failed both and come first.
    const within = { ...groundedness, sort: CORRECTNESS, dir: "asc" as const };
    expect(await getRunRowPlace(db, run, at(60), within)).toEqual({
      neighbours: { previousId: idOf.get(48), nextId: idOf.get(4), nextFailedId: idOf.get(4) },
      position: { index: 5, total: 15 },
    });
    // A row outside the filter has no index, yet j / k go to its neighbours in the table's order.
    expect(await getRunRowPlace(db, run, at(3), within)).toMatchObject({
      neighbours: { previousId: null, nextId: idOf.get(12) },
      position: { index: null, total: 15 },
    });
    const descending = { filter: "all" as const, q: "", sort: "rowNumber", dir: "desc" as const };
    expect(await getRunRowPlace(db, run, at(10), descending)).toEqual({
      neighbours: { previousId: idOf.get(11), nextId: idOf.get(9), nextFailedId: idOf.get(9) },
      position: { index: 51, total: ROWS },
    });
    // The default order is read as before.
    expect(await getRunRowPlace(db, run, at(6), { ...byCorrectness, sort: "rowNumber" })).toMatchObject({
      neighbours: { previousId: idOf.get(5), nextId: idOf.get(7) },
      position: { index: 6 },
    });
  });

  it("a run rows page past the end shows the last page, its rows and its number", async () => {
    const past = await listRunRows(db, run, view({ filter: "all", q: "" }, 999));
    expect(past).toMatchObject({ page: 3, pageCount: 3, total: ROWS });
    expect(past.items.map((row) => row.rowNumber)).toEqual(numbers((n) => n > 50));
    const filtered = await listRunRows(db, run, view(groundedness, 2));
    expect(filtered).toMatchObject({ page: 1, pageCount: 1, total: 15 });
    expect(filtered.items).toHaveLength(15);
    const none = await listRunRows(db, run, view({ filter: "all", q: "no such row" }, 4));
    expect(none).toMatchObject({ page: 1, pageCount: 1, total: 0, items: [] });
    // A page in range is read as before.
    expect((await listRunRows(db, run, view({ filter: "all", q: "" }, 2))).items[0].rowNumber).toBe(26);
  });

  it("a dataset rows page past the end shows the last page too", async () => {
    const query = { page: 999, pageSize: 25, sort: "rowNumber" as const, dir: "desc" as const, q: "" };
    const past = await listDatasetRows(db, datasetId, query);
    expect(past).toMatchObject({ page: 3, pageCount: 3, total: ROWS });
    expect(past.items.map((row) => row.rowNumber)).toEqual(numbers((n) => n <= 10).reverse());
  });
});
