import { z } from "zod";
import { paginationSchema } from "./pagination";
import { firstValues, type SearchParams } from "./searchParams";
import { withParams } from "./withParams";

/** A run's rows table: which rows (by their judgments in this run), search, sort and page. */
export const RUN_ROW_FILTERS = ["all", "failed", "errored", "passed"] as const;

export const runRowQuerySchema = paginationSchema.extend({
  filter: z.enum(RUN_ROW_FILTERS).catch("all"),
  /** With filter=failed: only rows that failed this metric. */
  metric: z.string().max(300).optional().catch(undefined),
  q: z.string().max(200).catch(""),
  sort: z.enum(["rowNumber", "requestId"]).catch("rowNumber"),
  dir: z.enum(["asc", "desc"]).catch("asc"),
});
export type RunRowQuery = z.infer<typeof runRowQuerySchema>;

/** The part of the query that picks rows, and so follows the reviewer from the table into a row and from row to row. */
export type RunRowFilter = Pick<RunRowQuery, "filter" | "metric" | "q">;

export function parseRunRowQuery(searchParams: SearchParams): RunRowQuery {
  const flat = firstValues(searchParams);
  return runRowQuerySchema.parse({ ...flat, q: flat.q ?? "" });
}

/** The parameters a link from the rows table carries, in the order its links have always had. */
export function runRowParams(query: RunRowQuery) {
  return {
    filter: query.filter,
    metric: query.metric,
    q: query.q,
    sort: query.sort,
    dir: query.dir,
    page: query.page,
    pageSize: query.pageSize,
  };
}

function filterParams(query: RunRowFilter) {
  return { filter: query.filter, metric: query.metric, q: query.q };
}

/** The rows table of a run, keeping the filter the reviewer came with. */
export function runRowsHref(runId: string, query: RunRowFilter): string {
  return withParams(`/runs/${runId}`, filterParams(query), {}) + "#rows";
}

/** One row of a run, keeping the filter so j / k move within it. */
export function runRowHref(runId: string, rowId: string, query: RunRowFilter): string {
  return withParams(`/runs/${runId}/rows/${rowId}`, {}, filterParams(query));
}

/** The filter n moves in: failed rows on any metric, no search. */
export const NEXT_FAILED_FILTER: RunRowFilter = { filter: "failed", metric: undefined, q: "" };
