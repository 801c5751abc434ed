import { decodeVerdictDetails } from "../judgments/verdictDetails";
import { MAX_PAGE_SIZE } from "@/lib/contract/pagination";
import { isMetricSort, type RunRowFilter, type RunRowPageQuery } from "@/lib/contract/rowQueries";
import {
  agreementCellOf,
  getAgreementCellNeighbours,
  getDisagreementNeighbours,
  getPeopleDifferNeighbours,
  listPeopleDifferRows,
  listAgreementCellRows,
  listDisagreementRows,
} from "../labels/agreementRowQueries";
import { pairedLabelsOfRowsSql } from "../labels/agreementQueries";
import { rowLabelMarks, type PairedLabel } from "@/lib/contract/rowLabelMarks";
import { sqlOf, type Db } from "../client";
import { containsIgnoringCase, sqlFragments } from "../store/sqlFragments";
import type { Prisma } from "../generated/sqlite/client";
import { readPage } from "../pagination";
import { listRowsByMetric } from "./runRowMetricSort";
import { getSortedRowPlace } from "./runRowSortedPlace";
import { isKeyedView, keyedTotal, rowIndexOf, searchOf } from "./runRowIndex";
import { getKeyedRowPlace } from "./runRowKeyPlace";
import { listKeyedRows } from "./runRowKeyset";

/**
 * The failed-rows table of a run: dataset rows filtered by their judgments in
 * this run, paged and sorted in SQL (EXISTS subqueries on the judgment index).
 * The query comes parsed from the URL (lib/urlState/runRowQuery).
 */
export function runRowWhere(
  db: Db,
  runId: string,
  datasetId: string,
  query: RunRowFilter,
): Prisma.DatasetRowWhereInput {
  const q = query.q.trim();
  // The search ignores case on both stores, as SQLite's LIKE always did (PostgreSQL's plain contains would not).
  const contains = (text: string) => containsIgnoringCase(sqlOf(db), text);
  // One metric's filter reads trial 1, as the table shows it (a run with trials; see runRowIndex.ts).
  const judged: Prisma.JudgmentItemWhereInput = { runId, ...(query.metric ? { metric: query.metric, trial: 1 } : {}) };
  const byFilter: Record<RunRowPageQuery["filter"], Prisma.DatasetRowWhereInput> = {
    all: {},
    failed: { judgments: { some: { ...judged, status: "done", passed: false } } },
    errored: { judgments: { some: { ...judged, status: "error" } } },
    passed: {
      AND: [
        { judgments: { some: { runId, status: "done" } } },
        { judgments: { none: { runId, OR: [{ status: "error" }, { status: "done", passed: false }] } } },
      ],
    },
    // Not expressible in Prisma: flaky is read in SQL (runRowMetricSort.ts), "judge ≠ label" by agreementRowQueries.
    flaky: {},
    disagrees: {},
    "people-differ": {},
    cell: {},
  };
  return {
    datasetId,
    ...byFilter[query.filter],
    ...(q ? { OR: [{ requestText: contains(q) }, { response: contains(q) }, { requestId: contains(q) }] } : {}),
  };
}

/** The filters that compare the run's verdicts with the human labels, read in SQL by agreementRowQueries. */
function isAgreementFilter(query: RunRowFilter): boolean {
  return query.filter === "disagrees" || query.filter === "people-differ" || query.filter === "cell";
}

/**
 * Where the drill-down's row stands in the table the reviewer came from, and
 * where j / k / n go: in row order through the queries below, or, when the
 * table was sorted otherwise (a metric worst first, request_id, row number
 * descending), in that order (getSortedRowPlace), so "12 of 322" and j / k
 * follow the rows as the table listed them.
 */
export async function getRunRowPlace(
  db: Db,
  run: { id: string; datasetId: string },
  row: { id: string; rowNumber: number },
  query: RunRowFilter & Pick<RunRowPageQuery, "sort" | "dir">,
) {
  // A plain filter in row order, either way, without a search: seeks on the filter's narrow index.
  if (isKeyedView(query) && !query.q.trim()) return getKeyedRowPlace(db, run, row, query);
  // Flaky with a search has no Prisma filter (getRunRowNeighbours): the sorted place reads it in SQL.
  if (query.sort !== "rowNumber" || query.dir !== "asc" || query.filter === "flaky") {
    const { index, total, ...neighbours } = await getSortedRowPlace(db, run, row.id, query);
    return { neighbours, position: { index, total } };
  }
  const [neighbours, position] = await Promise.all([
    getRunRowNeighbours(db, run, row.rowNumber, query),
    getRunRowPosition(db, run, row, query),
  ]);
  return { neighbours, position };
}

async function readRowsPage(db: Db, run: { id: string; datasetId: string }, query: RunRowPageQuery) {
  // The agreement filters read their rows over the label pairing, in any of the table's orders.
  if (query.filter === "cell" && query.metric && query.cell) {
    const page = await listAgreementCellRows(db, run, query.metric, agreementCellOf(query.cell), query);
    return { ...page, items: page.items.map(({ rowId, ...row }) => ({ id: rowId, ...row })) };
  }
  if (isAgreementFilter(query)) {
    const page = await (query.filter === "people-differ" ? listPeopleDifferRows : listDisagreementRows)(db, run, query);
    return { ...page, items: page.items.map(({ rowId, ...row }) => ({ id: rowId, ...row })) };
  }
  if (isKeyedView(query)) return listKeyedRows(db, run, query);
  if (isMetricSort(query) || query.filter === "flaky") return listRowsByMetric(db, run, query);
  // Past a metric sort and row order, the table sorts by request_id (parseRunRowQuery keeps no other).
  const where = runRowWhere(db, run.id, run.datasetId, query);
  const sql = sqlOf(db);
  return readPage(
    query,
    // The count is the kept tally's (or, with a search, the matches').
    () => keyedTotal(sql, rowIndexOf(run, query), searchOf(sql, query)),
    (skip, take) =>
      db.datasetRow.findMany({
        where,
        orderBy: [{ requestId: query.dir }, { rowNumber: "asc" }],
        skip,
        take,
        select: { id: true, rowNumber: true, requestId: true, requestText: true, response: true },
      }),
  );
}

export async function listRunRows(db: Db, run: { id: string; datasetId: string }, query: RunRowPageQuery) {
  const page = await readRowsPage(db, run, query);
  const rows = page.items;
  const { judgments, generated, labels } = await pageVerdicts(
    db,
    run.id,
    rows.map((row) => row.id),
  );
  const byRow = new Map<string, typeof judgments>();
  for (const j of judgments) byRow.set(j.rowId, [...(byRow.get(j.rowId) ?? []), j]);
  const items = rows.map((row) => ({
    id: row.id,
    rowNumber: row.rowNumber,
    requestId: row.requestId,
    requestText: clip(row.requestText),
    response: clip(generated.get(row.id) ?? row.response),
    /** The person's label per metric (labels belong to the dataset row), with whether this run's judge disagrees. */
    labels: labels.get(row.id) ?? {},
    verdicts: Object.fromEntries(
      (byRow.get(row.id) ?? []).map((j) => [
        j.metric,
        {
          status: j.status,
          rating: j.rating,
          score: j.score,
          passed: j.passed === null ? null : Number(j.passed) === 1,
        },
      ]),
    ),
  }));
  return { ...page, items };
}

/**
 * The verdicts and generated responses of one table page's rows. The page is
 * sorted and filtered arbitrarily, so it is not a row-number range: its ids go
 * to the store as ONE bound array (inList), never as a value per id (the
 * page's human labels too, paired with this run's verdicts). That
 * is only for a page, whose size the pagination schema caps (MAX_PAGE_SIZE).
 */
async function pageVerdicts(db: Db, runId: string, rowIds: string[]) {
  if (rowIds.length > MAX_PAGE_SIZE) throw new Error(`a table page has at most ${MAX_PAGE_SIZE} rows`);
  const sql = sqlOf(db);
  const { inList } = sqlFragments(sql);
  const [judgments, generations, paired] = await Promise.all([
    sql.all<{
      rowId: string;
      metric: string;
      status: string;
      rating: string | null;
      score: number | null;
      passed: number | null;
    }>(
      `SELECT "rowId", "metric", "status", "rating", "score", "passed" FROM "JudgmentItem" WHERE "runId" = ? AND "trial" = 1 AND ${inList(`"rowId"`)}`,
      [runId, rowIds],
    ),
    sql.all<{ rowId: string; response: string | null }>(
      `SELECT "rowId", "response" FROM "Generation" WHERE "runId" = ? AND "trial" = 1 AND ${inList(`"rowId"`)}`,
      [runId, rowIds],
    ),
    // The page's labels with this run's verdict beside each, judged as the agreement panel counts them.
    sql.all<PairedLabel>(pairedLabelsOfRowsSql(sql), { runId, rowIds }),
  ]);
  return {
    judgments,
    generated: new Map(generations.map((g) => [g.rowId, g.response])),
    labels: rowLabelMarks(paired),
  };
}
export type RunRowSummary = Awaited<ReturnType<typeof listRunRows>>["items"][number];

/**
 * The rows of the current filter that also failed: where n moves. Within a
 * failed filter that is the filter itself (n and j agree); within any other it
 * is its rows that failed some metric, so n never leaves the filter.
 */
function failedWithin(db: Db, runId: string, datasetId: string, query: RunRowFilter): Prisma.DatasetRowWhereInput {
  const current = runRowWhere(db, runId, datasetId, query);
  if (query.filter === "failed") return current;
  return { AND: [current, runRowWhere(db, runId, datasetId, { filter: "failed", q: "" })] };
}

/**
 * The rows before and after one in the current filter (for j / k), and the
 * next row of that filter that failed (for n), in row order.
 */
export async function getRunRowNeighbours(
  db: Db,
  run: { id: string; datasetId: string },
  rowNumber: number,
  query: RunRowFilter,
) {
  if (isAgreementFilter(query)) {
    // Within the agreement filters every row is one to read, so n goes to the next of them as j does.
    const place = await agreementPlace(db, run, { id: "", rowNumber }, query);
    return { previousId: place.previousId, nextId: place.nextId, nextFailedId: place.nextId };
  }
  const where = runRowWhere(db, run.id, run.datasetId, query);
  const failed = failedWithin(db, run.id, run.datasetId, query);
  const [previous, next, nextFailed] = await Promise.all([
    db.datasetRow.findFirst({
      where: { ...where, rowNumber: { lt: rowNumber } },
      orderBy: { rowNumber: "desc" },
      select: { id: true },
    }),
    db.datasetRow.findFirst({
      where: { ...where, rowNumber: { gt: rowNumber } },
      orderBy: { rowNumber: "asc" },
      select: { id: true },
    }),
    db.datasetRow.findFirst({
      where: { ...failed, rowNumber: { gt: rowNumber } },
      orderBy: { rowNumber: "asc" },
      select: { id: true },
    }),
  ]);
  return { previousId: previous?.id ?? null, nextId: next?.id ?? null, nextFailedId: nextFailed?.id ?? null };
}

/**
 * Where a row stands in the current filter, in row order, counted in SQL: its
 * 1-based index (null when the row is not in the filter) and the filter's size.
 */
export async function getRunRowPosition(
  db: Db,
  run: { id: string; datasetId: string },
  row: { id: string; rowNumber: number },
  query: RunRowFilter,
): Promise<{ index: number | null; total: number }> {
  if (isAgreementFilter(query)) {
    const { index, total } = await agreementPlace(db, run, row, query);
    return { index, total };
  }
  const where = runRowWhere(db, run.id, run.datasetId, query);
  const [total, before, inFilter] = await Promise.all([
    db.datasetRow.count({ where }),
    db.datasetRow.count({ where: { ...where, rowNumber: { lt: row.rowNumber } } }),
    db.datasetRow.count({ where: { ...where, id: row.id } }),
  ]);
  return { index: inFilter > 0 ? before + 1 : null, total };
}

function agreementPlace(
  db: Db,
  run: { id: string; datasetId: string },
  row: { id: string; rowNumber: number },
  query: RunRowFilter,
) {
  if (query.filter === "cell" && query.metric && query.cell)
    return getAgreementCellNeighbours(db, run, row, { metric: query.metric, q: query.q }, agreementCellOf(query.cell));
  if (query.filter === "people-differ") return getPeopleDifferNeighbours(db, run, row, query);
  return getDisagreementNeighbours(db, run, row, query);
}

/**
 * One row of a run with everything the drill-down shows: chunks, judgments with rationales and provenance, per-chunk verdicts.
 * The per-chunk verdicts are read by (run, row) and attached here, not loaded as a relation of the judgments (one bound value per judgment).
 */
export async function getRunRowDetail(db: Db, runId: string, rowId: string) {
  const [row, verdicts] = await Promise.all([
    db.datasetRow.findFirst({
      where: { id: rowId, judgments: { some: { runId } } },
      include: {
        chunks: { orderBy: [{ kind: "asc" }, { position: "asc" }] },
        judgments: { where: { runId }, orderBy: [{ metric: "asc" }, { trial: "asc" }] },
        generations: { where: { runId }, orderBy: { trial: "asc" } },
      },
    }),
    db.chunkJudgment.findMany({ where: { runId, rowId }, orderBy: [{ judgmentId: "asc" }, { position: "asc" }] }),
  ]);
  if (!row) return null;
  const byJudgment = new Map<string, typeof verdicts>();
  for (const verdict of verdicts)
    byJudgment.set(verdict.judgmentId, [...(byJudgment.get(verdict.judgmentId) ?? []), verdict]);
  return {
    ...row,
    judgments: row.judgments.map((judgment) => ({
      ...judgment,
      details: decodeVerdictDetails(judgment.details),
      chunks: byJudgment.get(judgment.id) ?? [],
    })),
  };
}

function clip(text: string | null, max = 240): string | null {
  if (text === null || text.length <= max) return text;
  return `${text.slice(0, max)}…`;
}
