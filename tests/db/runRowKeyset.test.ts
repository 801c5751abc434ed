import { foldKeptTallies } from "@/lib/db/judgments/keptTallyFold";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf, type Db } from "@/lib/db/client";
import { getRunRowPlace, listRunRows } from "@/lib/db/runs/runRowQueries";
import { keyedPageStatement } from "@/lib/db/runs/runRowKeyset";
import { createRun } from "@/lib/engine/createRun";
import type { RunRowFilter } from "@/lib/contract/rowQueries";
import { parseRunRowQuery, type RunRowQuery } from "@/lib/urlState/runRowQuery";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

/**
 * The rows table read by key through each filter's narrow index (RunRowVerdict,
 * JudgmentItem, DatasetRow), its count from the kept tallies, and the
 * drill-down's place by index seeks, each checked against a plain recount of
 * the judgments: every page by cursor and by number, both orders, a search,
 * keys past the end or not keys at all, and the statements' plans.
 *
 * Verdicts by row number: groundedness fails every 4th row, correctness every
 * 3rd, chunk_relevance errors on every 5th (passed left NULL) and correctness
 * errors on every 7th with a stale passed = FALSE (so the errored-on-one-metric
 * filter spans the index's passed values); rows 11 and 12 are never judged
 * (pending), so they are in no verdict filter.
 */
const ROWS = 130;
const GROUNDEDNESS = "response/llm_judged/groundedness";
const CORRECTNESS = "response/llm_judged/correctness";
const CHUNK_RELEVANCE = "retrieval/llm_judged/chunk_relevance";
const PAGE_SIZE = 25;

type Judged = { rowNumber: number; metric: string; status: string; passed: number | null };

describe("the rows table by key", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let run: { id: string; datasetId: string };
  const idOf = new Map<number, string>();
  let judged: Judged[] = [];
  let texts = new Map<number, string>();

  const filters: RunRowFilter[] = [
    { filter: "all", q: "" },
    { filter: "failed", q: "" },
    { filter: "failed", metric: GROUNDEDNESS, q: "" },
    { filter: "failed", metric: CORRECTNESS, q: "" },
    { filter: "errored", q: "" },
    { filter: "errored", metric: CORRECTNESS, q: "" },
    { filter: "errored", metric: CHUNK_RELEVANCE, q: "" },
    { filter: "passed", q: "" },
    { filter: "all", q: "OPTION 1" },
    { filter: "failed", q: "option 1" },
    { filter: "errored", metric: CORRECTNESS, q: "option 1" },
  ];
  const view = (filter: RunRowFilter, dir: "asc" | "desc", page: number, keys = {}): RunRowQuery => ({
    ...filter,
    sort: "rowNumber",
    dir,
    page,
    pageSize: PAGE_SIZE,
    ...keys,
  });

  /** The filter recounted from the judgments, in row order: what the table must list. */
  function expected(filter: RunRowFilter, dir: "asc" | "desc"): number[] {
    const of = (n: number) => judged.filter((j) => j.rowNumber === n);
    const failed = (j: Judged) => j.status === "done" && j.passed === 0;
    const onMetric = (j: Judged) => !filter.metric || j.metric === filter.metric;
    const q = filter.q.trim().toLowerCase();
    const rows = Array.from({ length: ROWS }, (_, i) => i + 1).filter((n) => {
      if (q && !(texts.get(n) ?? "").toLowerCase().includes(q)) return false;
      const js = of(n);
      if (filter.filter === "failed") return js.some((j) => onMetric(j) && failed(j));
      if (filter.filter === "errored") return js.some((j) => onMetric(j) && j.status === "error");
      if (filter.filter === "passed")
        return js.some((j) => j.status === "done") && !js.some((j) => j.status === "error" || failed(j));
      return true;
    });
    return dir === "asc" ? rows : rows.reverse();
  }
  const failedAny = (n: number) => judged.some((j) => j.rowNumber === n && j.status === "done" && j.passed === 0);

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const datasetId = await importRows(db, syntheticRows(ROWS, 1));
    const runId = await createRun(db, {
      datasetId,
      metrics: [GROUNDEDNESS, CORRECTNESS, CHUNK_RELEVANCE],
      judge: { provider: "heuristic", model: "heuristic" },
      name: "verdicts by row number",
    });
    run = { id: runId, datasetId };
    await sqlOf(db).run(
      `UPDATE "JudgmentItem" SET
         "status" = CASE
           WHEN d."r" IN (11, 12) THEN 'pending'
           WHEN "metric" = @chunk AND d."r" % 5 = 0 THEN 'error'
           WHEN "metric" = @correctness AND d."r" % 7 = 0 THEN 'error'
           ELSE 'done' END,
         "passed" = CASE
           WHEN d."r" IN (11, 12) THEN NULL
           WHEN "metric" = @chunk AND d."r" % 5 = 0 THEN NULL
           WHEN "metric" = @correctness AND d."r" % 7 = 0 THEN FALSE
           WHEN "metric" = @groundedness AND d."r" % 4 = 0 THEN FALSE
           WHEN "metric" = @correctness AND d."r" % 3 = 0 THEN FALSE
           ELSE TRUE END
       FROM (SELECT "id" AS "rid", "rowNumber" AS "r" FROM "DatasetRow") d
       WHERE d."rid" = "JudgmentItem"."rowId" AND "runId" = @runId`,
      { chunk: CHUNK_RELEVANCE, correctness: CORRECTNESS, groundedness: GROUNDEDNESS, runId },
    );
    judged = await sqlOf(db).all<Judged>(
      `SELECT r."rowNumber" AS "rowNumber", j."metric" AS "metric", j."status" AS "status",
         CASE WHEN j."passed" IS NULL THEN NULL WHEN j."passed" = TRUE THEN 1 ELSE 0 END AS "passed"
       FROM "JudgmentItem" j JOIN "DatasetRow" r ON r."id" = j."rowId" WHERE j."runId" = @runId`,
      { runId },
    );
    const rows = await sqlOf(db).all<{ id: string; rowNumber: number; text: string }>(
      `SELECT "id", "rowNumber", "requestText" || ' ' || COALESCE("response", '') || ' ' || "requestId" AS "text"
       FROM "DatasetRow" WHERE "datasetId" = @datasetId`,
      { datasetId },
    );
    for (const row of rows) idOf.set(row.rowNumber, row.id);
    texts = new Map(rows.map((row) => [row.rowNumber, row.text]));
  });
  afterAll(async () => cleanup());

  for (const filter of filters)
    for (const dir of ["asc", "desc"] as const)
      it(`pages ${filter.filter}${filter.metric ? ` on ${filter.metric}` : ""}${filter.q ? ` matching “${filter.q}”` : ""} (${dir}) by key and by number alike`, async () => {
        const want = expected(filter, dir);
        const pageCount = Math.max(1, Math.ceil(want.length / PAGE_SIZE));
        const slice = (page: number) => want.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
        // By number: every page, as a bookmark would ask for it.
        for (let page = 1; page <= pageCount; page++) {
          const read = await listRunRows(db, run, view(filter, dir, page));
          expect(read.items.map((row) => row.rowNumber)).toEqual(slice(page));
          expect(read.total).toBe(want.length);
          expect(read.page).toBe(page);
        }
        // Forward with Next's key, then back with Previous's.
        let read = await listRunRows(db, run, view(filter, dir, 1));
        const walked = [...read.items.map((row) => row.rowNumber)];
        while (read.page < read.pageCount) {
          read = await listRunRows(db, run, view(filter, dir, read.page + 1, { after: read.cursor?.after }));
          expect(read.items.map((row) => row.rowNumber)).toEqual(slice(read.page));
          // The keys Previous and Next carry: the page's first and last rows.
          expect(read.cursor).toEqual({ before: slice(read.page)[0], after: slice(read.page).at(-1) });
          walked.push(...read.items.map((row) => row.rowNumber));
        }
        expect(walked).toEqual(want);
        while (read.page > 1) {
          read = await listRunRows(db, run, view(filter, dir, read.page - 1, { before: read.cursor?.before }));
          expect(read.items.map((row) => row.rowNumber)).toEqual(slice(read.page));
        }
        // The count is what a COUNT of the filter says.
        const all = await listRunRows(db, run, { ...view(filter, dir, 1), pageSize: 100 });
        expect(all.total).toBe(want.length);
        // The drill-down: "n of m" and j / k / n in the table's order, for the filter's rows and a few others.
        const failedOnes = want.filter(failedAny);
        for (const n of [...want.slice(0, 4), ...want.slice(-3), 11, 2]) {
          const at = want.indexOf(n);
          const place = await getRunRowPlace(
            db,
            run,
            { id: idOf.get(n) ?? "", rowNumber: n },
            { ...filter, sort: "rowNumber", dir },
          );
          expect(place.position).toEqual({ index: at < 0 ? null : at + 1, total: want.length });
          if (at < 0) continue;
          const id = (m: number | undefined) => (m === undefined ? null : (idOf.get(m) ?? null));
          const nextFailed = filter.filter === "failed" ? want[at + 1] : failedOnes.find((m) => want.indexOf(m) > at);
          expect(place.neighbours).toEqual({
            previousId: id(want[at - 1]),
            nextId: id(want[at + 1]),
            nextFailedId: id(nextFailed),
          });
        }
      });

  it("a key past the end shows the last page, and a key that is no row number starts over at page 1", async () => {
    const failed: RunRowFilter = { filter: "failed", q: "" };
    const want = expected(failed, "asc");
    const lastPage = Math.ceil(want.length / PAGE_SIZE);
    const past = await listRunRows(db, run, view(failed, "asc", 2, { after: 1_000_000 }));
    expect(past.page).toBe(lastPage);
    expect(past.items.map((row) => row.rowNumber)).toEqual(want.slice((lastPage - 1) * PAGE_SIZE));
    const farPage = await listRunRows(db, run, view(failed, "asc", 9_999));
    expect(farPage.page).toBe(lastPage);
    // Fewer rows before the key than a page: the link's page number no longer holds, so page 1.
    const early = await listRunRows(db, run, view(failed, "asc", 3, { before: want[2] }));
    expect(early.page).toBe(1);
    expect(early.items.map((row) => row.rowNumber)).toEqual(want.slice(0, PAGE_SIZE));

    for (const bad of [{ after: "abc" }, { before: "-4" }, { after: "1e9" }]) {
      const query = parseRunRowQuery({ filter: "failed", page: "3", ...bad }, []);
      expect(query).toMatchObject({ page: 1, after: undefined, before: undefined });
      const read = await listRunRows(db, run, query);
      expect(read.items.map((row) => row.rowNumber)).toEqual(want.slice(0, PAGE_SIZE));
    }
    expect(parseRunRowQuery({ filter: "failed", page: "3", after: "40" }, [])).toMatchObject({ page: 3, after: 40 });
  });

  it("counts a filter from the kept tallies, not by counting its rows", async () => {
    const sql = sqlOf(db);
    const failed = expected({ filter: "failed", q: "" }, "asc").length;
    const onCorrectness = expected({ filter: "failed", metric: CORRECTNESS, q: "" }, "asc").length;
    // A tally moved by hand (the triggers keep it exact; here it is the witness of where the count comes from),
    // in shard 0, where PostgreSQL's deltas are folded.
    await foldKeptTallies(db);
    await sql.run(
      `UPDATE "RunRowTally" SET "failedRows" = "failedRows" + 1000 WHERE "runId" = @runId AND "shard" = 0`,
      { runId: run.id },
    );
    await sql.run(
      `UPDATE "RunMetricTally" SET "failed" = "failed" + 1000 WHERE "runId" = @runId AND "metric" = @metric AND "shard" = 0`,
      {
        runId: run.id,
        metric: CORRECTNESS,
      },
    );
    try {
      expect((await listRunRows(db, run, view({ filter: "failed", q: "" }, "asc", 1))).total).toBe(failed + 1000);
      expect((await listRunRows(db, run, view({ filter: "failed", metric: CORRECTNESS, q: "" }, "asc", 1))).total).toBe(
        onCorrectness + 1000,
      );
    } finally {
      await sql.run(
        `UPDATE "RunRowTally" SET "failedRows" = "failedRows" - 1000 WHERE "runId" = @runId AND "shard" = 0`,
        { runId: run.id },
      );
      await sql.run(
        `UPDATE "RunMetricTally" SET "failed" = "failed" - 1000 WHERE "runId" = @runId AND "metric" = @metric AND "shard" = 0`,
        {
          runId: run.id,
          metric: CORRECTNESS,
        },
      );
    }
  });

  it("reads a filtered page through the narrow index, never scanning DatasetRow", async () => {
    const merged = (filter: RunRowFilter) => filter.filter === "errored" && filter.metric !== undefined;
    const sql = sqlOf(db);
    const cases: [RunRowFilter, string][] = [
      [{ filter: "failed", q: "" }, "RunRowVerdict_runId_anyFailed_rowNumber_idx"],
      [{ filter: "errored", q: "" }, "RunRowVerdict_runId_anyErrored_rowNumber_idx"],
      [{ filter: "passed", q: "" }, "RunRowVerdict_runId_allPassed_rowNumber_idx"],
      [{ filter: "failed", metric: CORRECTNESS, q: "" }, "JudgmentItem_runId_metric_trial_status_passed_rowNumber_idx"],
      [
        { filter: "errored", metric: CORRECTNESS, q: "" },
        "JudgmentItem_runId_metric_trial_status_passed_rowNumber_idx",
      ],
      [{ filter: "all", q: "" }, "DatasetRow_datasetId_rowNumber_key"],
      // A search walks the dataset's rows in row order and asks the filter of each match by its key.
      [{ filter: "failed", q: "option 1" }, "DatasetRow_datasetId_rowNumber_key"],
    ];
    for (const [filter, index] of cases) {
      const { statement, params } = keyedPageStatement(db, run, view(filter, "asc", 2), 40);
      if (sql.dialect === "sqlite") {
        const plan = (await sql.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement}`, params)).map(
          (row) => row.detail,
        );
        expect(plan.join("\n")).toContain(index);
        // No step scans a table: the index is searched from the key, DatasetRow looked up by id for the page's rows.
        expect(plan.filter((step) => /^SCAN (t|r)\b/.test(step))).toEqual([]);
        expect(plan.filter((step) => /^SEARCH r /.test(step)).every((step) => /\(id=\?\)/.test(step))).toBe(true);
        // One range comes in the index's order; the errored-on-one-metric filter's three ranges (a page each) are merged.
        if (!merged(filter)) expect(plan.filter((step) => /^SCAN |TEMP B-TREE/.test(step))).toEqual([]);
      } else {
        // On a table this small PostgreSQL would rather read it whole, gather a filter's few rows by bitmap and
        // sort them, or hash the page's rows against every row of the dataset (cheap here, where the rows' ids
        // are in the table's order); without sequential or bitmap scans and without hash or merge joins, as at
        // a real run's size, the plan shows whether the index serves the order.
        const plan = await sql.transaction(async (tx) => {
          await tx.run("SET LOCAL enable_seqscan = off");
          await tx.run("SET LOCAL enable_bitmapscan = off");
          await tx.run("SET LOCAL enable_hashjoin = off");
          await tx.run("SET LOCAL enable_mergejoin = off");
          return tx.all<{ "QUERY PLAN": string }>(`EXPLAIN ${statement}`, params);
        });
        const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
        expect(text).not.toMatch(/Seq Scan/);
        if (filter.q !== "") {
          // A substring search has no index to serve it; analyzed, PostgreSQL may as well walk the filter's few
          // rows here and look each up by id. Either way DatasetRow is read through an index, never scanned.
          expect(text).toMatch(
            /Index Scan using "(DatasetRow_datasetId_rowNumber_key|DatasetRow_pkey)" on "DatasetRow"/,
          );
          continue;
        }
        expect(text).toContain(index);
        if (!(filter.filter === "errored" && filter.metric)) expect(text).not.toMatch(/Sort\b/);
        // DatasetRow is looked up by id for the page's rows, never read whole through an index either.
        if (filter.filter !== "all")
          expect(text).toMatch(/Index Scan using "DatasetRow_pkey" on "DatasetRow" r[^\n]*\n\s*Index Cond: \(id = /);
      }
    }
  });
});
