import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { sqlOf } from "@/lib/db/client";
import { getSortedRowPlace } from "@/lib/db/runs/runRowSortedPlace";
import { listRunRows } from "@/lib/db/runs/runRowQueries";
import { plainFilterSql, readsByIndex, SORT_JOIN, tableOrderBy } from "@/lib/db/runs/runRowMetricSort";
import { sqlFragments } from "@/lib/db/store/sqlFragments";
import { createRun } from "@/lib/engine/createRun";
import { mulberry32 } from "@/lib/stats";
import { parseRunRowQuery, type RunRowQuery } from "@/lib/urlState/runRowQuery";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

/**
 * The rows table sorted by a metric is read from JudgmentItem_metric_sort_idx segment by segment
 * (metricSortSegments). Here it must give, for random verdicts with many equal scores, every filter and both
 * directions, exactly the order of the plain SQL (every filtered row sorted by tableOrderBy): each page, and
 * each row's "12 of 322", j, k and n, for rows inside and outside the filter.
 */
const FAITHFULNESS = "response/llm_judged/faithfulness"; // higher is better
const HALLUCINATION = "response/llm_judged/hallucination"; // lower is better
const CORRECTNESS = "response/llm_judged/correctness"; // yes / no, no score
const METRICS = [FAITHFULNESS, HALLUCINATION, CORRECTNESS];
const ROWS = 70;
const PAGE_SIZE = 25;

type Verdict = { status: string; score: number | null; passed: boolean | null };

function randomVerdict(random: () => number, scored: boolean): Verdict {
  const status = ["done", "done", "done", "done", "error", "pending", "running", "skipped"][Math.floor(random() * 8)];
  // Few distinct scores, so that ties are common; now and then none, and a pass / fail left on an error.
  const score = scored && random() < 0.85 ? [0, 0.25, 0.5, 0.5, 1, 1][Math.floor(random() * 6)] : null;
  const passed = status === "done" || random() < 0.3 ? [true, false, null][Math.floor(random() * 3)] : null;
  return { status, score: status === "pending" ? null : score, passed };
}

describe("the rows table sorted by a metric, read from its index", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let run: { id: string; datasetId: string };
  const ids = new Map<number, string>();

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const datasetId = await importRows(db, syntheticRows(ROWS, 1));
    const runId = await createRun(db, {
      datasetId,
      metrics: METRICS,
      judge: { provider: "heuristic", model: "heuristic" },
      name: "random verdicts",
    });
    run = { id: runId, datasetId };
    const random = mulberry32(20261127);
    const rows = await db.datasetRow.findMany({ where: { datasetId }, select: { id: true, rowNumber: true } });
    for (const row of rows) {
      ids.set(row.rowNumber, row.id);
      for (const metric of METRICS)
        await db.judgmentItem.updateMany({
          where: { runId, rowId: row.id, metric },
          data: randomVerdict(random, metric !== CORRECTNESS),
        });
    }
  }, 120_000);
  afterAll(async () => cleanup());

  const FILTERS: Record<string, string>[] = [
    { filter: "all" },
    { filter: "failed" },
    { filter: "errored" },
    { filter: "passed" },
    ...METRICS.flatMap((metric) => [
      { filter: "failed", metric },
      { filter: "errored", metric },
    ]),
  ];
  const VIEWS = FILTERS.flatMap((filter) =>
    METRICS.flatMap((sort) => (["asc", "desc"] as const).map((dir) => ({ ...filter, sort, dir }))),
  );

  /** The filter's row ids in the plain SQL order: every filtered row sorted, as before the index. */
  async function plainOrder(query: RunRowQuery): Promise<string[]> {
    const sql = sqlOf(db);
    const { where, bound } = plainFilterSql(sqlFragments(sql), run, query);
    const rows = await sql.all<{ id: string }>(
      `SELECT r."id" FROM "DatasetRow" r ${SORT_JOIN} WHERE ${where} ORDER BY ${tableOrderBy(query)}`,
      { ...bound, sortMetric: query.sort },
    );
    return rows.map((row) => row.id);
  }

  async function failedRows(): Promise<Set<string>> {
    const rows = await sqlOf(db).all<{ rowId: string }>(
      `SELECT DISTINCT "rowId" FROM "JudgmentItem" WHERE "runId" = ? AND "status" = 'done' AND "passed" = FALSE`,
      [run.id],
    );
    return new Set(rows.map((row) => row.rowId));
  }

  it("reads every page of every filter in the plain order, in both directions", async () => {
    for (const view of VIEWS) {
      const query = { ...parseRunRowQuery(view, METRICS), pageSize: PAGE_SIZE };
      expect(await readsByIndex(sqlOf(db), run, query)).toBe(true);
      const expected = await plainOrder(query);
      const read: string[] = [];
      for (let page = 1; page <= Math.max(1, Math.ceil(expected.length / PAGE_SIZE)); page++) {
        const found = await listRunRows(db, run, { ...query, page });
        expect(found.total, JSON.stringify(view)).toBe(expected.length);
        read.push(...found.items.map((row) => row.id));
      }
      expect(read, JSON.stringify(view)).toEqual(expected);
    }
  }, 120_000);

  it("places a row, in the filter or not, where the plain order puts it, with j, k and n", async () => {
    const failed = await failedRows();
    const random = mulberry32(7);
    for (const view of VIEWS) {
      const query = parseRunRowQuery(view, METRICS);
      const inFilter = await plainOrder(query);
      const everyRow = await plainOrder({ ...query, filter: "all", metric: undefined });
      for (let probe = 0; probe < 4; probe++) {
        const rowId = ids.get(1 + Math.floor(random() * ROWS));
        if (!rowId) throw new Error("every row number has a row");
        const at = everyRow.indexOf(rowId);
        const before = everyRow.slice(0, at).filter((id) => inFilter.includes(id));
        const after = everyRow.slice(at + 1).filter((id) => inFilter.includes(id));
        const index = inFilter.indexOf(rowId);
        const nextFailed = query.filter === "failed" ? after[0] : after.find((id) => failed.has(id));
        expect(await getSortedRowPlace(db, run, rowId, query), `${JSON.stringify(view)} row ${rowId}`).toEqual({
          index: index < 0 ? null : index + 1,
          total: inFilter.length,
          previousId: before.at(-1) ?? null,
          nextId: after[0] ?? null,
          nextFailedId: nextFailed ?? null,
        });
      }
    }
  }, 120_000);
});
