import { isMetricSort, type RunRowFilter, type RunRowPageQuery } from "@/lib/contract/rowQueries";
import { sqlOf, type Db } from "../client";
import { sqlFragments, type SqlFragments } from "../store/sqlFragments";
import type { Page } from "../pagination";
import { toPage } from "../pagination";
import { MAX_PAGE_SIZE } from "@/lib/contract/pagination";
import type { SqlRunner } from "../store/sqlRunner";
import { higherIsWorse, metricSortSegments } from "./metricSortSegments";
import { hasTrials, readSortedPage } from "./metricSortWalk";
import { keyedTotal, rowIndexOf, searchOf } from "./runRowIndex";
import { flakyRowSql } from "./flakyRows";

/**
 * The run rows table sorted by one metric, in SQL: each row joined to its
 * judgment of that metric through the (runId, rowId, metric) unique index, so
 * the sort reads one index entry per row of the filter and SQLite sorts only
 * the filtered rows, never loading them into memory.
 *
 * Worst first (dir=asc), in this order:
 *   1. failed (done, passed = no): the verdicts a reviewer reads first;
 *   2. errored: no verdict, but work to redo before the numbers are whole;
 *   3. passed, and done without a pass/fail (agent/* values);
 *   4. not judged (pending, skipped, or no judgment): nothing to read, so last
 *      in both directions.
 * Within a group, by score, worst first: ascending where higher is better
 * (Databricks precisions, most DeepEval scores), descending where lower is
 * better (hallucination, toxicity, bias) and for agent/* values (more tokens,
 * longer latency). dir=desc reverses groups 1–3 and the scores (best first).
 * Ties go by row number: ascending among the rows without a score, and in the
 * score's direction among equal scores (see metricSortSegments, which reads
 * this order from an index).
 */
const VERDICT_GROUP = `CASE
  WHEN s."status" = 'done' AND s."passed" = FALSE THEN 0
  WHEN s."status" = 'error' THEN 1
  WHEN s."status" = 'done' THEN 2
  ELSE 3 END`;

/**
 * The filters that are plain conditions on this run's judgments; the agreement filters are read over their own pairing.
 * An optional value is CAST where it is first tested for NULL: PostgreSQL cannot type a bare `@value IS NULL`.
 */
const FILTER_SQL: Record<"all" | "failed" | "errored" | "passed" | "flaky", string> = {
  all: "1 = 1",
  failed: `EXISTS (SELECT 1 FROM "JudgmentItem" j WHERE j."runId" = @runId AND j."rowId" = r."id"
    AND (CAST(@filterMetric AS TEXT) IS NULL OR (j."metric" = @filterMetric AND j."trial" = 1)) AND j."status" = 'done' AND j."passed" = FALSE)`,
  errored: `EXISTS (SELECT 1 FROM "JudgmentItem" j WHERE j."runId" = @runId AND j."rowId" = r."id"
    AND (CAST(@filterMetric AS TEXT) IS NULL OR (j."metric" = @filterMetric AND j."trial" = 1)) AND j."status" = 'error')`,
  passed: `EXISTS (SELECT 1 FROM "JudgmentItem" j WHERE j."runId" = @runId AND j."rowId" = r."id" AND j."status" = 'done')
    AND NOT EXISTS (SELECT 1 FROM "JudgmentItem" j WHERE j."runId" = @runId AND j."rowId" = r."id"
      AND (j."status" = 'error' OR (j."status" = 'done' AND j."passed" = FALSE)))`,
  // A run with trials: rows whose judged trials of some metric (or of the filter's metric) did not all agree.
  flaky: flakyRowSql(`r."id"`, `(CAST(@filterMetric AS TEXT) IS NULL OR j."metric" = @filterMetric)`),
};

/** Search as runRowWhere's `contains` ignoring case, on either store, with % and _ taken literally. */
function searchSql({ likeIgnoringCase }: SqlFragments): string {
  const columns = [`r."requestText"`, `r."response"`, `r."requestId"`];
  return `(CAST(@q AS TEXT) IS NULL OR ${columns.map((column) => likeIgnoringCase(column, "@q")).join(" OR ")})`;
}

export type MetricSortedRow = {
  id: string;
  rowNumber: number;
  requestId: string;
  requestText: string;
  response: string | null;
};

function metricOrderBy(metric: string, dir: "asc" | "desc"): string {
  const worstFirst = dir === "asc";
  const scoreAsc = higherIsWorse(metric) ? !worstFirst : worstFirst;
  const judged = `(${VERDICT_GROUP}) <> 3`;
  // Scored rows first within a group, then those without a score (by row number); the rows not judged by row
  // number. Equal scores go by row number in the score's direction: the order metricSortSegments reads
  // from the index, walked backwards for a descending score.
  const tie = scoreAsc
    ? `r."rowNumber"`
    : `CASE WHEN ${judged} AND s."score" IS NOT NULL THEN -r."rowNumber" ELSE r."rowNumber" END`;
  return `(${VERDICT_GROUP}) = 3, (${VERDICT_GROUP}) ${worstFirst ? "ASC" : "DESC"},
    CASE WHEN ${judged} AND s."score" IS NULL THEN 1 ELSE 0 END,
    CASE WHEN ${judged} THEN s."score" END ${scoreAsc ? "ASC" : "DESC"}, ${tie} ASC`;
}

/**
 * The table's order in SQL over `r` (DatasetRow), joined to `s` (the sorted
 * metric's judgment, see SORT_JOIN) when it sorts by a metric: the page, the
 * drill-down's j / k and its "12 of 322" all read it, so they agree.
 */
export function tableOrderBy(query: Pick<RunRowPageQuery, "sort" | "dir">): string {
  if (isMetricSort(query)) return metricOrderBy(query.sort, query.dir);
  // Column and direction come from closed sets, never from text.
  const direction = query.dir === "desc" ? "DESC" : "ASC";
  return query.sort === "requestId" ? `r."requestId" ${direction}, r."rowNumber" ASC` : `r."rowNumber" ${direction}`;
}

/** The sorted metric's judgment of each row (bound as @sortMetric; trial 1), through the (runId, rowId, metric, trial) unique index. */
export const SORT_JOIN = `LEFT JOIN "JudgmentItem" s ON s."runId" = @runId AND s."rowId" = r."id" AND s."metric" = @sortMetric AND s."trial" = 1`;

/** The join and its bound value a sort needs: none for a row field. */
export function sortJoin(query: Pick<RunRowPageQuery, "sort">): { join: string; bound: Record<string, string> } {
  return isMetricSort(query) ? { join: SORT_JOIN, bound: { sortMetric: query.sort } } : { join: "", bound: {} };
}

/** The rows of a filter read through Prisma elsewhere (all, failed, errored, passed), as SQL over `r` with its values. */
export function plainFilterSql(fragments: SqlFragments, run: { id: string; datasetId: string }, query: RunRowFilter) {
  if (query.filter === "disagrees" || query.filter === "people-differ" || query.filter === "cell")
    throw new Error("the agreement filters are read by agreementRowQueries");
  const q = query.q.trim();
  return {
    where: `r."datasetId" = @datasetId AND ${FILTER_SQL[query.filter]} AND ${searchSql(fragments)}`,
    bound: {
      runId: run.id,
      datasetId: run.datasetId,
      filterMetric: query.metric ?? null,
      q: q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null,
    },
  };
}

/**
 * One page of the filtered rows sorted by `query.sort` (a metric of the run; or for the flaky filter, which no
 * kept tally or Prisma filter can express, any of the table's orders), counted with the same filter.
 */
export async function listRowsByMetric(
  db: Db,
  run: { id: string; datasetId: string },
  query: RunRowPageQuery,
): Promise<Page<MetricSortedRow>> {
  const sql = sqlOf(db);
  // The filter's size from the kept tallies, or with a search the count of the matches.
  const total = await keyedTotal(sql, rowIndexOf(run, query), searchOf(sql, query));
  const pageCount = Math.max(1, Math.ceil(total / query.pageSize));
  const shown = Math.min(query.page, pageCount);
  const skip = (shown - 1) * query.pageSize;
  const items = (await readsByIndex(sql, run, query))
    ? await readIndexedPage(sql, run, query, skip)
    : await readSortedRows(sql, run, query, skip);
  return toPage(items, total, { page: shown, pageSize: query.pageSize });
}

/**
 * Whether the sorted metric's index serves this view (metricSortSegments): without a search (a search walks
 * the dataset's rows, and sorts its few matches), and when every row of the run has a judgment of the metric,
 * as planning makes it (a row without one sorts last in the plain query).
 */
export async function readsByIndex(
  sql: SqlRunner,
  run: { id: string },
  query: RunRowFilter & Pick<RunRowPageQuery, "sort">,
): Promise<boolean> {
  if (query.q.trim() || !isMetricSort(query)) return false;
  const bound = { runId: run.id, sortMetric: query.sort };
  // A run with trials: its tallies count every trial, the table reads trial 1, counted in the index.
  const items = (await hasTrials(sql, bound))
    ? `(SELECT COUNT(*) FROM "JudgmentItem" WHERE "runId" = @runId AND "metric" = @sortMetric AND "trial" = 1)`
    : `(SELECT SUM("items") FROM "RunMetricTally" WHERE "runId" = @runId AND "metric" = @sortMetric)`;
  const found = await sql.get<{ items: number | null; rows: number | null }>(
    `SELECT ${items} AS "items", (SELECT SUM("rows") FROM "RunRowTally" WHERE "runId" = @runId) AS "rows"`,
    bound,
  );
  return Number(found?.items ?? 0) === Number(found?.rows ?? 0);
}

/** The values every statement of a segmented read binds. */
export const segmentBound = (run: { id: string }, query: RunRowFilter & Pick<RunRowPageQuery, "sort">) => ({
  runId: run.id,
  sortMetric: query.sort,
  filterMetric: query.metric ?? null,
});

/** A page sorted by the SQL order over every filtered row: for a search, whose matches are few. */
function readSortedRows(sql: SqlRunner, run: { id: string; datasetId: string }, query: RunRowPageQuery, skip: number) {
  const { where, bound } = plainFilterSql(sqlFragments(sql), run, query);
  const sort = sortJoin(query);
  return sql.all<MetricSortedRow>(
    `SELECT r."id", r."rowNumber", r."requestId", r."requestText", r."response" FROM "DatasetRow" r ${sort.join}
     WHERE ${where} ORDER BY ${tableOrderBy(query)} LIMIT @take OFFSET @skip`,
    { ...bound, ...sort.bound, take: query.pageSize, skip },
  );
}

async function readIndexedPage(
  sql: SqlRunner,
  run: { id: string; datasetId: string },
  query: RunRowPageQuery,
  skip: number,
): Promise<MetricSortedRow[]> {
  const keys = await readSortedPage(sql, metricSortSegments(query), segmentBound(run, query), skip, query.pageSize);
  if (keys.length > MAX_PAGE_SIZE) throw new Error(`a table page has at most ${MAX_PAGE_SIZE} rows`);
  const { inList } = sqlFragments(sql);
  // The page's ids as ONE bound array (a page, capped by the pagination schema), put back in the order read.
  const rows = await sql.all<MetricSortedRow>(
    `SELECT r."id", r."rowNumber", r."requestId", r."requestText", r."response" FROM "DatasetRow" r WHERE ${inList(`r."id"`)}`,
    [keys.map((key) => key.id)],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return keys.flatMap((key) => byId.get(key.id) ?? []);
}
