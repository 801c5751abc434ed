import type { RunRowFilter, RunRowPageQuery } from "@/lib/contract/rowQueries";
import { sqlOf, type Db } from "../client";
import { keyedCount, keyedSelect, keyedTotal, rowIndexOf, type KeyedOrder, type RowIndex } from "./runRowIndex";

/** Where a row stands in a plain filter in row order, and where j / k / n go: see getKeyedRowPlace. */
export type KeyedRowPlace = {
  neighbours: { previousId: string | null; nextId: string | null; nextFailedId: string | null };
  position: { index: number | null; total: number };
};

/** A row that failed some metric of the run: where n goes within the filters that are not about failures. */
function failedAny(index: RowIndex): string {
  return `EXISTS (SELECT 1 FROM "RunRowVerdict" f WHERE f."runId" = @runId AND f."rowId" = ${index.rowId} AND f."anyFailed" = TRUE)`;
}

/**
 * The drill-down's "12 of 322" and j / k / n within a plain filter (all,
 * failed, errored, passed; any metric or one) in row order, ascending or
 * descending, by seeks on the filter's narrow index (runRowIndex): the index
 * is a range count of the entries before the row, the total the kept tally,
 * previous / next / next failed one entry each. Nothing scans the filter.
 */
export async function getKeyedRowPlace(
  db: Db,
  run: { id: string; datasetId: string },
  row: { id: string; rowNumber: number },
  query: RunRowFilter & Pick<RunRowPageQuery, "dir">,
): Promise<KeyedRowPlace> {
  const sql = sqlOf(db);
  const index = rowIndexOf(run, query);
  const forward: KeyedOrder = query.dir;
  const backward: KeyedOrder = forward === "asc" ? "desc" : "asc";
  const ahead = forward === "asc" ? ">" : "<";
  const behind = forward === "asc" ? "<" : ">";
  const params = { ...index.bound, runId: run.id, key: row.rowNumber, take: 1 };
  const seek = async (order: KeyedOrder, op: string, extra: string | null) => {
    const found = await sql.get<{ id: string }>(
      keyedSelect(extra ? { ...index, where: `${index.where} AND ${extra}` } : index, null, {
        columns: `${index.rowId} AS "id", t."rowNumber" AS "rowNumber"`,
        order,
        op,
        rows: false,
      }),
      params,
    );
    return found?.id ?? null;
  };
  // Within a failed filter n is j; within passed-all no row failed (no walk to find none); elsewhere the next row of the
  // filter that also failed some metric.
  const nextFailed =
    query.filter === "failed" || query.filter === "passed" ? null : seek(forward, ahead, failedAny(index));
  const [total, before, inFilter, previousId, nextId, nextFailedId] = await Promise.all([
    keyedTotal(sql, index, null),
    sql.get<{ total: number }>(keyedCount(index, null, behind), params),
    sql.get<{ total: number }>(keyedCount(index, null, "="), params),
    seek(backward, behind, null),
    seek(forward, ahead, null),
    nextFailed,
  ]);
  return {
    neighbours: { previousId, nextId, nextFailedId: query.filter === "failed" ? nextId : nextFailedId },
    position: {
      index: Number(inFilter?.total ?? 0) > 0 ? Number(before?.total ?? 0) + 1 : null,
      total,
    },
  };
}
