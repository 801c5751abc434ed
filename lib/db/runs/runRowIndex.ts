import type { RunRowFilter, RunRowPageQuery } from "@/lib/contract/rowQueries";
import type { SqlParams, SqlRunner } from "../store/sqlRunner";
import { sqlFragments } from "../store/sqlFragments";
import { flakyRowSql } from "./flakyRows";
import { createPromiseCache } from "../cache/promiseCache";

/**
 * The narrow index behind each plain filter of a run's rows table, walked in
 * row order by key (lib/db/runs/runRowKeyset, runRowKeyPlace):
 *   - all: DatasetRow's (datasetId, rowNumber);
 *   - failed, errored, passed on any metric: RunRowVerdict's (runId, flag, rowNumber);
 *   - flaky (trials that disagree): DatasetRow's (datasetId, rowNumber), each row asked of the pairing index;
 *   - failed or errored on one metric: JudgmentItem's (runId, metric, trial, status, passed, rowNumber), trial 1
 *     (a run with trials: the table shows each row's first trial; the flaky filter, the rows whose trials disagree).
 * An errored judgment's `passed` sits between its status and its row number in
 * that index, so the errored-on-one-metric filter is three ranges (passed NULL,
 * false, true), each in row order, merged. Every statement reads `t` (the index's
 * table) and, for the page's text and the search, `r` (DatasetRow).
 */
export type RowIndex = {
  from: string;
  /** `t`'s dataset row id. */
  rowId: string;
  /** Where the row's text is read: `t` itself when the index is DatasetRow's, else `r` joined by id. */
  rowsAlias: "t" | "r";
  where: string;
  /** Conditions ORed as separate ranges of the index; one empty string for a single range. */
  ranges: string[];
  bound: Record<string, string>;
  /** The filter's size from the kept tallies (summed over shards). */
  total: string;
  /**
   * A total no tally keeps (the flaky filter counts its rows over the index): kept in memory per completed run
   * under this scope, since a completed run's judgments do not change until its state does.
   */
  totalOfCompletedRun?: string;
};

export type KeyedOrder = "asc" | "desc";

const VERDICT_FLAG: Record<"failed" | "errored" | "passed", string> = {
  failed: "anyFailed",
  errored: "anyErrored",
  passed: "allPassed",
};

/** Whether the table reads this view through a narrow index by key: a plain filter in row order. */
export function isKeyedView(query: RunRowFilter & Pick<RunRowPageQuery, "sort">): boolean {
  return (
    query.sort === "rowNumber" && (["all", "failed", "errored", "passed", "flaky"] as string[]).includes(query.filter)
  );
}

/**
 * The size of a one-metric filter: the kept tally's count, except in a run with trials, whose tallies count
 * every trial while the table reads trial 1: there the filter's trial-1 judgments are counted in the index.
 */
function metricFilterTotal(tallied: "failed" | "error", condition: string): string {
  return `SELECT CASE WHEN EXISTS (SELECT 1 FROM "JudgmentItem" x WHERE x."runId" = @runId AND x."metric" = @metric AND x."trial" = 2)
    THEN (SELECT COUNT(*) FROM "JudgmentItem" t WHERE t."runId" = @runId AND t."metric" = @metric AND t."trial" = 1 AND ${condition})
    ELSE (SELECT COALESCE(SUM("${tallied}"), 0) FROM "RunMetricTally" WHERE "runId" = @runId AND "metric" = @metric) END AS "total"`;
}

export function rowIndexOf(run: { id: string; datasetId: string }, query: RunRowFilter): RowIndex {
  const runId = run.id;
  // A search is walked over the dataset's rows in row order, the filter asked of each row that matches (by its
  // key): walking the filter's index instead would read every row of the filter to find a rare match.
  if (query.q.trim() && query.filter !== "all") {
    const narrow = rowIndexOf(run, { ...query, q: "" });
    const ranges = narrow.ranges.filter(Boolean);
    const conditions = [narrow.where, ranges.length > 0 ? `(${ranges.join(" OR ")})` : ""].filter(Boolean);
    const within = conditions.join(" AND ").replaceAll("t.", "f.");
    return {
      from: `"DatasetRow" t`,
      rowId: `t."id"`,
      rowsAlias: "t",
      where: `t."datasetId" = @datasetId AND EXISTS (SELECT 1 FROM ${narrow.from.replace(/ t$/, " f")} WHERE ${within} AND ${narrow.rowId.replace("t.", "f.")} = t."id")`,
      ranges: [""],
      bound: { ...narrow.bound, datasetId: run.datasetId },
      total: narrow.total,
    };
  }
  if (query.filter === "all")
    return {
      from: `"DatasetRow" t`,
      rowId: `t."id"`,
      rowsAlias: "t",
      where: `t."datasetId" = @datasetId`,
      ranges: [""],
      bound: { datasetId: run.datasetId, runId },
      // Every row of the dataset is planned with the run, so the run's rows are the dataset's.
      total: `SELECT COALESCE(SUM("rows"), 0) AS "total" FROM "RunRowTally" WHERE "runId" = @runId`,
    };
  if (query.filter === "failed" && query.metric)
    return {
      from: `"JudgmentItem" t`,
      rowId: `t."rowId"`,
      rowsAlias: "r",
      where: `t."runId" = @runId AND t."metric" = @metric AND t."trial" = 1 AND t."status" = 'done' AND t."passed" = FALSE`,
      ranges: [""],
      bound: { runId, metric: query.metric },
      total: metricFilterTotal("failed", `t."status" = 'done' AND t."passed" = FALSE`),
    };
  if (query.filter === "errored" && query.metric)
    return {
      from: `"JudgmentItem" t`,
      rowId: `t."rowId"`,
      rowsAlias: "r",
      where: `t."runId" = @runId AND t."metric" = @metric AND t."trial" = 1 AND t."status" = 'error'`,
      ranges: [`t."passed" IS NULL`, `t."passed" = FALSE`, `t."passed" = TRUE`],
      bound: { runId, metric: query.metric },
      total: metricFilterTotal("error", `t."status" = 'error'`),
    };
  if (query.filter === "flaky") {
    const rowIsFlaky = flakyRowSql(`t."id"`, query.metric ? `j."metric" = @metric` : "1 = 1");
    return {
      from: `"DatasetRow" t`,
      rowId: `t."id"`,
      rowsAlias: "t",
      where: `t."datasetId" = @datasetId AND ${rowIsFlaky}`,
      ranges: [""],
      bound: { datasetId: run.datasetId, runId, ...(query.metric ? { metric: query.metric } : {}) },
      // No tally keeps it: counted over the dataset's rows, each a range of the pairing index (once per completed run).
      total: `SELECT COUNT(*) AS "total" FROM "DatasetRow" t WHERE t."datasetId" = @datasetId AND ${rowIsFlaky}`,
      totalOfCompletedRun: `flaky|${query.metric ?? ""}`,
    };
  }
  if (query.filter === "failed" || query.filter === "errored" || query.filter === "passed") {
    const tallied = { failed: "failedRows", errored: "erroredRows", passed: "passedRows" }[query.filter];
    return {
      from: `"RunRowVerdict" t`,
      rowId: `t."rowId"`,
      rowsAlias: "r",
      where: `t."runId" = @runId AND t."${VERDICT_FLAG[query.filter]}" = TRUE`,
      ranges: [""],
      bound: { runId },
      total: `SELECT COALESCE(SUM("${tallied}"), 0) AS "total" FROM "RunRowTally" WHERE "runId" = @runId`,
    };
  }
  throw new Error(`the ${query.filter} filter has no narrow index (agreementRowQueries reads it)`);
}

/** The search, as runRowWhere's `contains` ignoring case, over `r`, with % and _ taken literally; null without one. */
export function searchOf(
  sql: SqlRunner,
  query: RunRowFilter,
): { where: (alias: string) => string; bound: Record<string, string> } | null {
  const q = query.q.trim();
  if (!q) return null;
  const { likeIgnoringCase } = sqlFragments(sql);
  const columns = (alias: string) => [`${alias}."requestText"`, `${alias}."response"`, `${alias}."requestId"`];
  return {
    where: (alias) =>
      `(${columns(alias)
        .map((column) => likeIgnoringCase(column, "@q"))
        .join(" OR ")})`,
    bound: { q: `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` },
  };
}

/** `t`'s rows joined to their DatasetRow `r`, within the index's conditions, one range and the search. */
function rangeSql(
  index: RowIndex,
  range: string,
  search: ReturnType<typeof searchOf>,
  extra: string[],
  rows: boolean,
): string {
  const conditions = [index.where, range, search?.where(index.rowsAlias) ?? "", ...extra].filter(Boolean).join(" AND ");
  // Without the row's text (a key, a count) and without a search, the index alone answers.
  const join = index.rowsAlias === "r" && (rows || search) ? ` JOIN "DatasetRow" r ON r."id" = ${index.rowId}` : "";
  return `FROM ${index.from}${join} WHERE ${conditions}`;
}

/**
 * A SELECT of `columns` over the filter's rows in `order` by row number, from
 * `key` on (`op` one of > >= < <=, or none), at most `take`: per range an
 * ORDER BY … LIMIT that the index serves, merged in the same order.
 */
export function keyedSelect(
  index: RowIndex,
  search: ReturnType<typeof searchOf>,
  {
    columns,
    order,
    op,
    offset,
    rows = true,
  }: { columns: string; order: KeyedOrder; op?: string; offset?: boolean; rows?: boolean },
): string {
  const direction = order === "asc" ? "ASC" : "DESC";
  const key = op ? [`t."rowNumber" ${op} @key`] : [];
  const limit = `LIMIT @take${offset ? " OFFSET @skip" : ""}`;
  if (index.ranges.length === 1)
    return `SELECT ${columns} ${rangeSql(index, index.ranges[0], search, key, rows)} ORDER BY t."rowNumber" ${direction} ${limit}`;
  // Each range reads at most skip + take entries (@reach) in order; the merge keeps the first of them all.
  const perRange = offset ? "LIMIT @reach" : "LIMIT @take";
  const parts = index.ranges.map(
    (range, i) =>
      `SELECT * FROM (SELECT ${columns} ${rangeSql(index, range, search, key, rows)} ORDER BY t."rowNumber" ${direction} ${perRange}) p${i}`,
  );
  return `SELECT * FROM (${parts.join(" UNION ALL ")}) m ORDER BY "rowNumber" ${direction} ${limit}`;
}

/** How many of the filter's rows lie on one side of `key` (`op`): an index range count per range. */
export function keyedCount(index: RowIndex, search: ReturnType<typeof searchOf>, op?: string): string {
  const key = op ? [`t."rowNumber" ${op} @key`] : [];
  const counts = index.ranges.map((range) => `(SELECT COUNT(*) ${rangeSql(index, range, search, key, false)})`);
  return `SELECT ${counts.join(" + ")} AS "total"`;
}

/** The filter's size: the kept tally, or with a search (which no tally knows) a count of the matching rows. */
export async function keyedTotal(
  sql: SqlRunner,
  index: RowIndex,
  search: ReturnType<typeof searchOf>,
): Promise<number> {
  const params: SqlParams = { ...index.bound, ...(search?.bound ?? {}) };
  const count = async () =>
    Number((await sql.get<{ total: number }>(search ? keyedCount(index, search) : index.total, params))?.total ?? 0);
  const runId = index.bound.runId;
  if (search || !index.totalOfCompletedRun || !runId) return count();
  const run = await sql.get<{ status: string; finishedAt: Date | string | null }>(
    `SELECT "status", "finishedAt" FROM "Run" WHERE "id" = ?`,
    [runId],
  );
  if (run?.status !== "completed" || run.finishedAt === null) return count();
  return completedTotals.getOrCreate(
    `${index.totalOfCompletedRun}\u0000${runId}\u0000${new Date(run.finishedAt).toISOString()}`,
    count,
  );
}

/** Totals of completed runs no tally keeps (see RowIndex.totalOfCompletedRun). */
const completedTotals = createPromiseCache<number>(200);
