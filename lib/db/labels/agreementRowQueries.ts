import type { AgreementCellName } from "@/lib/contract/rowQueries";
import { sqlOf, type Db } from "../client";
import { pairedLabelsSql } from "./agreementQueries";
import { sqlFragments, type SqlFragments } from "../store/sqlFragments";
import { sortJoin, tableOrderBy } from "../runs/runRowMetricSort";

/**
 * Rows picked by agreement: a confusion cell's rows (the agreement panel's
 * links) and the rows table's "judge disagrees with the label" filter, paged
 * and sorted like the rows table, with the neighbours the drill-down needs.
 * All read the paired labels (agreementQueries.ts); the row set is an IN over it, so it
 * is computed once per query, not per row.
 */
type RunRef = { id: string; datasetId: string };

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
export async function listAgreementCellRows(
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
export async function listDisagreementRows(db: Db, run: RunRef, query: AgreementRowQuery) {
  return pageOfRows(db, run, query, DISAGREES, {});
}

/** The rows table's "people differ" filter: rows where the people who labelled a metric (or any) gave different values. */
export async function listPeopleDifferRows(db: Db, run: RunRef, query: AgreementRowQuery) {
  return pageOfRows(db, run, query, PEOPLE_DIFFER, {});
}

/**
 * A row set of the filters: the rows of paired labels (pairedLabelsSql) meeting a condition, or the rows
 * where people differ, read from their own labels; `metric` says whether @metric narrows it.
 */
type RowSet = (metric: boolean) => string;
const pairedRows =
  (condition: string): RowSet =>
  (metric) =>
    `SELECT p."rowId" FROM paired p WHERE ${condition}${metric ? ` AND p."metric" = @metric` : ""}`;
/** Keys two or more people labelled with different values (a yes and a no, two different scores), as kept with the gold labels. */
const PEOPLE_DIFFER: RowSet = (metric) =>
  `SELECT d."rowId" FROM "LabelDisagreement" d WHERE d."datasetId" = @datasetId${metric ? ` AND d."metric" = @metric` : ""}`;

const MAX_ROWS_PAGE = 200;

function filterOf(
  fragments: SqlFragments,
  run: RunRef,
  query: Pick<AgreementRowQuery, "metric" | "q">,
  condition: string | RowSet,
  values: Record<string, string>,
) {
  const q = query.q.trim();
  const rows = typeof condition === "string" ? pairedRows(condition) : condition;
  // The rows table's search: ASCII letters in any case, on either store.
  const like = (column: string) => fragments.likeIgnoringCase(column, "@like");
  const where = `r."datasetId" = @datasetId
    AND r."id" IN (${rows(Boolean(query.metric))})
    ${q ? `AND (${like(`r."requestText"`)} OR ${like(`r."response"`)} OR ${like(`r."requestId"`)})` : ""}`;
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
 * SQL over `r` that needs the `paired` table (WITH paired AS
 * (pairedLabelsSql(store))), with its values, in the store's SQL: the
 * drill-down's place in a sorted table reads it.
 */
export function agreementFilterSql(
  fragments: SqlFragments,
  run: RunRef,
  query: Pick<AgreementRowQuery, "metric" | "q">,
  cell?: AgreementCell | "people-differ",
): { where: string; bound: Record<string, string | number> } {
  if (cell === "people-differ") return filterOf(fragments, run, query, PEOPLE_DIFFER, {});
  if (!cell) return filterOf(fragments, run, query, DISAGREES, {});
  const { condition, values } = cellCondition(cell);
  return filterOf(fragments, run, query, condition, values);
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
): Promise<Neighbours> {
  return neighboursWithin(db, run, row, query, DISAGREES, {});
}

/** The same for the rows where people differ. */
export function getPeopleDifferNeighbours(
  db: Db,
  run: RunRef,
  row: { id: string; rowNumber: number },
  query: Pick<AgreementRowQuery, "metric" | "q">,
): Promise<Neighbours> {
  return neighboursWithin(db, run, row, query, PEOPLE_DIFFER, {});
}

/** The same for a confusion cell of one metric (the drill-down reached from an agreement panel link). */
export function getAgreementCellNeighbours(
  db: Db,
  run: RunRef,
  row: { id: string; rowNumber: number },
  query: Pick<AgreementRowQuery, "q"> & { metric: string },
  cell: AgreementCell,
): Promise<Neighbours> {
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

type Neighbours = { previousId: string | null; nextId: string | null; index: number | null; total: number };

async function neighboursWithin(
  db: Db,
  run: RunRef,
  row: { id: string; rowNumber: number },
  query: Pick<AgreementRowQuery, "metric" | "q">,
  condition: string | RowSet,
  values: Record<string, string>,
): Promise<Neighbours> {
  const sql = sqlOf(db);
  const { where, bound } = filterOf(sqlFragments(sql), run, query, condition, values);
  const paired = pairedLabelsSql(sql);
  const one = async (select: string, extra: Record<string, string | number>) =>
    (await sql.get<Record<string, string | number>>(`WITH paired AS (${paired}) ${select}`, { ...bound, ...extra })) ??
    null;
  const previous = await one(
    `SELECT r."id" FROM "DatasetRow" r WHERE ${where} AND r."rowNumber" < @rowNumber ORDER BY r."rowNumber" DESC LIMIT 1`,
    { rowNumber: row.rowNumber },
  );
  const next = await one(
    `SELECT r."id" FROM "DatasetRow" r WHERE ${where} AND r."rowNumber" > @rowNumber ORDER BY r."rowNumber" ASC LIMIT 1`,
    { rowNumber: row.rowNumber },
  );
  const counts = await one(
    `SELECT COUNT(*) AS "total", COUNT(*) FILTER (WHERE r."rowNumber" < @rowNumber) AS "before",
       COUNT(*) FILTER (WHERE r."id" = @rowId) AS "inFilter" FROM "DatasetRow" r WHERE ${where}`,
    { rowNumber: row.rowNumber, rowId: row.id },
  );
  return {
    previousId: previous ? String(previous.id) : null,
    nextId: next ? String(next.id) : null,
    index: Number(counts?.inFilter ?? 0) > 0 ? Number(counts?.before ?? 0) + 1 : null,
    total: Number(counts?.total ?? 0),
  };
}

async function pageOfRows(
  db: Db,
  run: RunRef,
  query: AgreementRowQuery,
  condition: string | RowSet,
  values: Record<string, string>,
): Promise<{ items: AgreementRowRef[]; total: number; page: number; pageSize: number; pageCount: number }> {
  const pageSize = Math.min(Math.max(1, Math.floor(query.pageSize)), MAX_ROWS_PAGE);
  const sql = sqlOf(db);
  const { where, bound } = filterOf(sqlFragments(sql), run, query, condition, values);
  const paired = pairedLabelsSql(sql);
  const sort = sortJoin(query);
  // The page and the filter's size in ONE statement (COUNT(*) OVER ()): pairing the labels with the verdicts is
  // the cost, and a separate count paired them twice. Only a page past the end, which holds no row to carry
  // the count, counts apart, then reads the last page.
  const readPage = (page: number) =>
    sql.all<AgreementRowRef & { total: number }>(
      `WITH paired AS (${paired})
       SELECT r."id" AS "rowId", r."rowNumber", r."requestId", r."requestText", r."response", COUNT(*) OVER () AS "total"
       FROM "DatasetRow" r ${sort.join}
       WHERE ${where} ORDER BY ${tableOrderBy(query)} LIMIT @limit OFFSET @offset`,
      { ...bound, ...sort.bound, limit: pageSize, offset: (page - 1) * pageSize },
    );
  let page = Math.max(1, Math.floor(query.page));
  let rows = await readPage(page);
  let total = rows.length > 0 ? Number(rows[0].total) : 0;
  if (rows.length === 0 && page > 1) {
    const counted = await sql.get<{ total: number }>(
      `WITH paired AS (${paired}) SELECT COUNT(*) AS "total" FROM "DatasetRow" r WHERE ${where}`,
      bound,
    );
    total = Number(counted?.total ?? 0);
    page = Math.max(1, Math.ceil(total / pageSize));
    if (total > 0) rows = await readPage(page);
  }
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const items = rows.map(({ total: _total, ...row }) => row);
  return { items, total, page, pageSize, pageCount };
}
