import type { AgreementCellName } from "@/lib/urlState/runRowQuery";
import { databaseUrlOf, type Db } from "../client";
import { PAIRED } from "./agreementQueries";
import { connectionFor, preparedStatement } from "../store/directSqlite";
import { sortJoin, tableOrderBy } from "../runs/runRowMetricSort";

/**
 * Rows picked by agreement: a confusion cell's rows (the agreement panel's
 * links) and the rows table's "judge disagrees with the label" filter, paged
 * and sorted like the rows table, with the neighbours the drill-down needs.
 * All read PAIRED (agreementQueries.ts); the row set is an IN over it, so it
 * is computed once per query, not per row.
 */
type RunRef = { id: string; datasetId: string };

function connection(db: Db) {
  return connectionFor(databaseUrlOf(db));
}

/** A confusion cell (judge verdict × human verdict), or the labelled rows the judge errored on. */
export type AgreementCell = { judge: "yes" | "no"; human: "yes" | "no" } | { errors: true };

/** A confusion cell as the URL names it ("yes-no": judge yes, label no). */
export function agreementCellOf(name: AgreementCellName): AgreementCell {
  if (name === "errors") return { errors: true };
  const [judge, human] = name.split("-") as ["yes" | "no", "yes" | "no"];
  return { judge, human };
}

export type AgreementRowQuery = {
  /** Only this metric's labels; all labelled metrics when absent. */
  metric?: string;
  q: string;
  /** rowNumber, requestId, or a metric of the run: its verdict and score, as the rows table sorts (runRowMetricSort). */
  sort: string;
  dir: "asc" | "desc";
  page: number;
  pageSize: number;
};

/** A row of the table: what the rows table shows besides the verdicts it reads for the page (runRowQueries pageVerdicts). */
export type AgreementRowRef = {
  rowId: string;
  rowNumber: number;
  requestId: string;
  requestText: string;
  response: string | null;
};

/**
 * Rows of a run whose labels fall in one confusion cell of a metric (a link
 * from the agreement panel), paged and sorted like the rows table. A chunk
 * metric's row is listed once however many of its chunks fall in the cell.
 */
export function listAgreementCellRows(
  db: Db,
  run: RunRef,
  metric: string,
  cell: AgreementCell,
  query: AgreementRowQuery,
) {
  const { condition, values } = cellCondition(cell);
  return pageOfRows(db, run, { ...query, metric }, condition, values);
}

/**
 * The rows table's "judge disagrees with the label" filter: rows where some
 * judged label (of one metric, or of any) differs from the run's verdict.
 */
export function listDisagreementRows(db: Db, run: RunRef, query: AgreementRowQuery) {
  return pageOfRows(db, run, query, DISAGREES, {});
}

const MAX_ROWS_PAGE = 200;

function filterOf(
  run: RunRef,
  query: Pick<AgreementRowQuery, "metric" | "q">,
  condition: string,
  values: Record<string, string>,
) {
  const q = query.q.trim();
  const where = `r."datasetId" = @datasetId
    AND r."id" IN (SELECT p."rowId" FROM paired p WHERE ${condition}${query.metric ? ` AND p."metric" = @metric` : ""})
    ${q ? `AND (r."requestText" LIKE @like ESCAPE '\\' OR r."response" LIKE @like ESCAPE '\\' OR r."requestId" LIKE @like ESCAPE '\\')` : ""}`;
  const bound: Record<string, string | number> = {
    runId: run.id,
    datasetId: run.datasetId,
    ...(query.metric ? { metric: query.metric } : {}),
    ...(q ? { like: `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } : {}),
    ...values,
  };
  return { where, bound };
}

const DISAGREES = `p."outcome" = 'judged' AND p."judge" <> p."human"`;

/**
 * The rows of the disagreement filter (no cell) or of one confusion cell, as
 * SQL over `r` that needs the `paired` table (WITH paired AS (PAIRED)), with
 * its values: the drill-down's place in a sorted table reads it.
 */
export function agreementFilterSql(
  run: RunRef,
  query: Pick<AgreementRowQuery, "metric" | "q">,
  cell?: AgreementCell,
): { where: string; bound: Record<string, string | number> } {
  if (!cell) return filterOf(run, query, DISAGREES, {});
  const { condition, values } = cellCondition(cell);
  return filterOf(run, query, condition, values);
}

/**
 * Where a row stands in the disagreement filter, in row order (for j / k and
 * "3 of 17" on the drill-down): the rows before and after it, and its 1-based
 * index (null when it is not in the filter) and the filter's size.
 */
export function getDisagreementNeighbours(
  db: Db,
  run: RunRef,
  row: { id: string; rowNumber: number },
  query: Pick<AgreementRowQuery, "metric" | "q">,
): { previousId: string | null; nextId: string | null; index: number | null; total: number } {
  return neighboursWithin(db, run, row, query, DISAGREES, {});
}

/** The same for a confusion cell of one metric (the drill-down reached from an agreement panel link). */
export function getAgreementCellNeighbours(
  db: Db,
  run: RunRef,
  row: { id: string; rowNumber: number },
  query: Pick<AgreementRowQuery, "q"> & { metric: string },
  cell: AgreementCell,
): { previousId: string | null; nextId: string | null; index: number | null; total: number } {
  const { condition, values } = cellCondition(cell);
  return neighboursWithin(db, run, row, query, condition, values);
}

function cellCondition(cell: AgreementCell): { condition: string; values: Record<string, string> } {
  if ("errors" in cell) return { condition: `p."outcome" = 'error'`, values: {} };
  return {
    condition: `p."outcome" = 'judged' AND p."judge" = @judge AND p."human" = @human`,
    values: { judge: cell.judge, human: cell.human },
  };
}

function neighboursWithin(
  db: Db,
  run: RunRef,
  row: { id: string; rowNumber: number },
  query: Pick<AgreementRowQuery, "metric" | "q">,
  condition: string,
  values: Record<string, string>,
): { previousId: string | null; nextId: string | null; index: number | null; total: number } {
  const { where, bound } = filterOf(run, query, condition, values);
  const c = connection(db);
  const one = (sql: string) =>
    (preparedStatement(c, `WITH paired AS (${PAIRED}) ${sql}`).get({
      ...bound,
      rowNumber: row.rowNumber,
      rowId: row.id,
    }) ?? null) as Record<string, string | number> | null;
  const previous = one(
    `SELECT r."id" FROM "DatasetRow" r WHERE ${where} AND r."rowNumber" < @rowNumber ORDER BY r."rowNumber" DESC LIMIT 1`,
  );
  const next = one(
    `SELECT r."id" FROM "DatasetRow" r WHERE ${where} AND r."rowNumber" > @rowNumber ORDER BY r."rowNumber" ASC LIMIT 1`,
  );
  const counts = one(
    `SELECT COUNT(*) AS "total", SUM(r."rowNumber" < @rowNumber) AS "before", SUM(r."id" = @rowId) AS "inFilter" FROM "DatasetRow" r WHERE ${where}`,
  );
  return {
    previousId: previous ? String(previous.id) : null,
    nextId: next ? String(next.id) : null,
    index: Number(counts?.inFilter ?? 0) > 0 ? Number(counts?.before ?? 0) + 1 : null,
    total: Number(counts?.total ?? 0),
  };
}

function pageOfRows(
  db: Db,
  run: RunRef,
  query: AgreementRowQuery,
  condition: string,
  values: Record<string, string>,
): { items: AgreementRowRef[]; total: number; page: number; pageSize: number; pageCount: number } {
  const pageSize = Math.min(Math.max(1, Math.floor(query.pageSize)), MAX_ROWS_PAGE);
  const { where, bound } = filterOf(run, query, condition, values);
  const c = connection(db);
  const { total } = preparedStatement(
    c,
    `WITH paired AS (${PAIRED}) SELECT COUNT(*) AS "total" FROM "DatasetRow" r WHERE ${where}`,
  ).get(bound) as { total: number };
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(query.page)), pageCount);
  const sort = sortJoin(query);
  const items = preparedStatement(
    c,
    `WITH paired AS (${PAIRED})
     SELECT r."id" AS "rowId", r."rowNumber", r."requestId", r."requestText", r."response" FROM "DatasetRow" r ${sort.join}
     WHERE ${where} ORDER BY ${tableOrderBy(query)} LIMIT @limit OFFSET @offset`,
  ).all({ ...bound, ...sort.bound, limit: pageSize, offset: (page - 1) * pageSize }) as AgreementRowRef[];
  return { items, total, page, pageSize, pageCount };
}
