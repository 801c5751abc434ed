import type { RunRowFilter, RunRowPageQuery } from "@/lib/contract/rowQueries";
import { agreementCellOf, agreementFilterSql } from "../labels/agreementRowQueries";
import { pairedLabelsSql } from "../labels/agreementQueries";
import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";
import type { SqlRunner } from "../store/sqlRunner";
import { metricSortSegments, segmentHolds, verdictProbe } from "./metricSortSegments";
import { sortedPlace } from "./metricSortWalk";
import { keyedTotal, rowIndexOf } from "./runRowIndex";
import { plainFilterSql, readsByIndex, segmentBound, sortJoin, tableOrderBy } from "./runRowMetricSort";

/** Where a row stands in the table the reviewer came from, and where j / k / n go from it. */
export type SortedRowPlace = {
  previousId: string | null;
  nextId: string | null;
  nextFailedId: string | null;
  /** 1-based, in the table's order; null when the row is not in the filter. */
  index: number | null;
  total: number;
};

/** A row that failed some metric of the run: where n goes within the filters that are not about failures. */
const FAILED_ANY = `EXISTS (SELECT 1 FROM "JudgmentItem" f WHERE f."runId" = @runId AND f."rowId" = o."id"
  AND f."status" = 'done' AND f."passed" = FALSE)`;

/**
 * A row's place in the table sorted as the reviewer sorted it (a metric's
 * verdict and score, request_id, or row number descending), in ONE statement:
 * the filter's rows numbered by the table's ORDER BY (a window over the
 * filtered rows, never loaded into memory). The row itself is numbered too when
 * it is outside the filter, so j / k still go to its neighbours in that order.
 * n goes to the next row of the filter that failed some metric (within a
 * failed filter, or an agreement filter, the filter's own next row).
 */
export async function getSortedRowPlace(
  db: Db,
  run: { id: string; datasetId: string },
  rowId: string,
  query: RunRowFilter & Pick<RunRowPageQuery, "sort" | "dir">,
): Promise<SortedRowPlace> {
  const sql = sqlOf(db);
  const agreement = query.filter === "disagrees" || query.filter === "people-differ" || query.filter === "cell";
  if (!agreement && (await readsByIndex(sql, run, query))) return placeByIndex(sql, run, rowId, query);
  const cell =
    query.filter === "people-differ"
      ? "people-differ"
      : query.filter === "cell" && query.cell
        ? agreementCellOf(query.cell)
        : undefined;
  const filter = agreement
    ? agreementFilterSql(sqlFragments(sql), run, query, cell)
    : plainFilterSql(sqlFragments(sql), run, query);
  const failed = agreement || query.filter === "failed" ? "TRUE" : FAILED_ANY;
  const sort = sortJoin(query);
  // ordered is read five times: MATERIALIZED numbers the rows once. Whether a row failed is asked only of the
  // rows after this one, until the first that did (not of every row of the filter).
  const statement = `WITH ${agreement ? `paired AS (${pairedLabelsSql(sql)}),` : ""}
    ordered AS MATERIALIZED (
      SELECT r."id" AS "id", (${filter.where}) AS "inFilter", ROW_NUMBER() OVER (ORDER BY ${tableOrderBy(query)}) AS "pos"
      FROM "DatasetRow" r ${sort.join}
      WHERE r."datasetId" = @datasetId AND ((${filter.where}) OR r."id" = @rowId)),
    me AS (SELECT "pos", "inFilter" FROM ordered WHERE "id" = @rowId)
    SELECT
      (SELECT COUNT(*) FROM ordered WHERE "inFilter") AS "total",
      (SELECT "inFilter" FROM me) AS "inFilter",
      (SELECT COUNT(*) FROM ordered WHERE "inFilter" AND "pos" <= (SELECT "pos" FROM me)) AS "idx",
      (SELECT "id" FROM ordered WHERE "inFilter" AND "pos" < (SELECT "pos" FROM me) ORDER BY "pos" DESC LIMIT 1) AS "previousId",
      (SELECT "id" FROM ordered WHERE "inFilter" AND "pos" > (SELECT "pos" FROM me) ORDER BY "pos" ASC LIMIT 1) AS "nextId",
      (SELECT o."id" FROM ordered o WHERE o."inFilter" AND o."pos" > (SELECT "pos" FROM me) AND ${failed} ORDER BY o."pos" ASC LIMIT 1)
        AS "nextFailedId"`;
  const found = await sql.get<{
    total: number;
    inFilter: number | null;
    idx: number;
    previousId: string | null;
    nextId: string | null;
    nextFailedId: string | null;
  }>(statement, {
    // The filter's values bind @runId and @datasetId as well.
    ...filter.bound,
    ...sort.bound,
    rowId,
  });
  if (!found) throw new Error("a SELECT of subqueries returns one row");
  return {
    previousId: found.previousId,
    nextId: found.nextId,
    nextFailedId: found.nextFailedId,
    index: found.inFilter ? found.idx : null,
    total: found.total,
  };
}

/**
 * The same, read through the sorted metric's index (metricSortSegments), segment by segment from the row's
 * key: what the rows table reads for a metric sort within a plain filter and without a search.
 */
async function placeByIndex(
  sql: SqlRunner,
  run: { id: string; datasetId: string },
  rowId: string,
  query: RunRowFilter & Pick<RunRowPageQuery, "sort" | "dir">,
): Promise<SortedRowPlace> {
  const plan = metricSortSegments(query);
  const bound = segmentBound(run, query);
  const judgment = await sql.get<{
    status: string;
    passed: boolean | number | null;
    score: number | null;
    rowNumber: number;
  }>(
    `SELECT t."status", t."passed", t."score", t."rowNumber" FROM "JudgmentItem" t
     WHERE t."runId" = @runId AND t."rowId" = @rowId AND t."metric" = @sortMetric AND t."trial" = 1`,
    { ...bound, rowId },
  );
  const total = await keyedTotal(sql, rowIndexOf(run, query), null);
  if (!judgment) return { previousId: null, nextId: null, nextFailedId: null, index: null, total };
  const mine = {
    status: judgment.status,
    passed: judgment.passed === null ? null : Boolean(judgment.passed),
    score: judgment.score,
    rowNumber: Number(judgment.rowNumber),
  };
  const probe = plan.segments.find((segment) => segmentHolds(segment, mine))?.probe ?? null;
  const inFilter =
    probe?.each === "" ||
    (probe !== null &&
      (await sql.get(
        `SELECT 1 AS "hit" FROM "JudgmentItem" t WHERE t."runId" = @runId AND t."rowId" = @rowId AND t."metric" = @sortMetric AND t."trial" = 1 AND ${probe.each}`,
        { ...bound, rowId },
      )) !== undefined);
  // n within a failed filter is the filter's own next row; within any other, its next row that failed some metric.
  const failedProbe = query.filter === "failed" ? "" : verdictProbe("anyFailed").each;
  const place = await sortedPlace(sql, plan, bound, { inFilter, judgment: mine }, failedProbe);
  return { ...place, total };
}
