import { z } from "zod";
import { PAGE_SIZES } from "@/lib/contract/pagination";
import {
  AGREEMENT_CELLS,
  METRIC_FILTERS,
  RUN_ROW_FILTERS,
  RUN_ROW_SORTS,
  type AgreementCellName,
  type RunRowFilter,
  type RunRowFilterName,
  type RunRowPageQuery,
} from "@/lib/contract/rowQueries";
import { paginationSchema } from "./pagination";
import { allValues, firstValues, type SearchParams } from "./searchParams";
import { withParams, type ParamValues } from "./withParams";

/**
 * A run's rows table in the URL: which rows (by their judgments in this run), search, sort, columns and
 * page. The filters, cells and sorts are lib/contract/rowQueries.ts's, which the store takes.
 */

/** A row number as a pager's key; anything else is no key. */
const rowKey = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number)
  .optional()
  .catch(undefined);

export const runRowQuerySchema = paginationSchema.extend({
  filter: z.enum(RUN_ROW_FILTERS).catch("all"),
  /** With filter=failed or errored: only rows that failed (or errored on) this metric. */
  metric: z.string().max(300).optional().catch(undefined),
  cell: z.enum(AGREEMENT_CELLS).optional().catch(undefined),
  q: z.string().max(200).catch(""),
  /**
   * rowNumber, requestId, or one of the run's metrics: that metric's verdict
   * and score, worst first when ascending (see lib/db/runs/runRowMetricSort). A
   * metric the run does not have falls back to rowNumber (parseRunRowQuery).
   */
  sort: z.string().max(300).catch("rowNumber"),
  dir: z.enum(["asc", "desc"]).catch("asc"),
  /** The metric columns shown, in the run's order; undefined: the default (all, or a few when the run has many). */
  cols: z.array(z.string()).optional(),
  /**
   * The pager's keys (row numbers, see lib/db/runs/runRowKeyset): the page after
   * the row `after`, or before the row `before`, in the table's order. `page`
   * still says which page that is, for the range shown.
   */
  after: rowKey,
  before: rowKey,
}) satisfies z.ZodType<RunRowPageQuery>;
export type RunRowQuery = z.infer<typeof runRowQuerySchema>;

/**
 * The rest of the table's view, which a row link also carries so j / k / n
 * follow the table's order and the way back lands on the same table: absent
 * parts are the defaults.
 */
export type RunRowView = Partial<Pick<RunRowQuery, "sort" | "dir" | "cols" | "page" | "pageSize">>;

/**
 * A run with more metrics than this shows only this many columns unless the reviewer picks them: Request and
 * Response need the width, and with seven the table was wider than a 1280 px window.
 */
export const DEFAULT_METRIC_COLUMNS = 6;

/**
 * The query in the URL; a metric is kept only with a filter it narrows, so
 * what is shown is what is applied. `metrics` are the run's: a sort or a
 * column naming another is dropped. A metric sort applies to the filters
 * applies to every filter, the agreement ones included (their rows are read
 * in SQL with the same ORDER BY).
 */
export function parseRunRowQuery(searchParams: SearchParams, metrics: readonly string[] = []): RunRowQuery {
  const flat = firstValues(searchParams);
  // cols=a,b or cols=a&cols=b: both name the columns; unknown names are dropped, and none left means the default.
  const named = allValues(searchParams.cols).flatMap((value) => value.split(","));
  const cols = named.length > 0 ? metrics.filter((metric) => named.includes(metric)) : undefined;
  const parsed = runRowQuerySchema.parse({ ...flat, q: flat.q ?? "", cols: cols?.length ? cols : undefined });
  // A key that is not a row number (an edited link) starts the table over at page 1.
  const badKey =
    (flat.after !== undefined && parsed.after === undefined) ||
    (flat.before !== undefined && parsed.before === undefined);
  // One key at most: with both, the link was not the pager's, and its page number alone is kept.
  const keys = parsed.after !== undefined && parsed.before !== undefined ? { after: undefined, before: undefined } : {};
  const keyed = { ...parsed, ...keys, ...(badKey ? { page: 1, after: undefined, before: undefined } : {}) };
  const sortable = RUN_ROW_SORTS.includes(keyed.sort) || metrics.includes(keyed.sort);
  const query = sortable ? keyed : { ...keyed, sort: "rowNumber", after: undefined, before: undefined };
  // A confusion cell is one metric's; without both it names no rows, so the table shows them all.
  if (query.filter === "cell" && (!query.metric || !query.cell))
    return { ...query, filter: "all", metric: undefined, cell: undefined };
  if (query.filter !== "cell") query.cell = undefined;
  return METRIC_FILTERS.includes(query.filter) ? query : { ...query, metric: undefined };
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
    // Only a confusion cell's view has one; the other links keep their parameters as they were.
    ...(query.cell ? { cell: query.cell } : {}),
    ...(query.cols ? { cols: query.cols.join(",") } : {}),
  };
}

/**
 * The metric columns the table shows, the filtered metric's first: the ones
 * the URL names, or all of them up to DEFAULT_METRIC_COLUMNS, and past that
 * the filtered metric and the first ones of the run (the reviewer adds others
 * with the column chooser), so Request and Response keep a readable width.
 * The metric the table is sorted by is always shown, after the filtered one:
 * its header carries the sort's arrow, and the header row's Tab stop.
 */
export function shownMetricColumns(
  query: Pick<RunRowQuery, "cols" | "metric" | "sort">,
  metrics: readonly string[],
): string[] {
  const chosen = query.cols ?? (metrics.length <= DEFAULT_METRIC_COLUMNS ? [...metrics] : defaultFew(query, metrics));
  const filtered = query.metric && metrics.includes(query.metric) ? query.metric : undefined;
  const sorted = metrics.includes(query.sort) && query.sort !== filtered ? query.sort : undefined;
  const first = [filtered, sorted].filter((metric): metric is string => metric !== undefined);
  return [...first, ...chosen.filter((metric) => !first.includes(metric))];
}

/**
 * With many metrics: the filtered one and the sorted one, then the run's first, DEFAULT_METRIC_COLUMNS in all
 * (the two are put first by shownMetricColumns).
 */
function defaultFew(query: Pick<RunRowQuery, "metric" | "sort">, metrics: readonly string[]): string[] {
  const first = [query.metric, query.sort].filter(
    (metric, index, both): metric is string =>
      metric !== undefined && metrics.includes(metric) && both.indexOf(metric) === index,
  );
  const others = metrics.filter((metric) => !first.includes(metric));
  return [...first, ...others.slice(0, DEFAULT_METRIC_COLUMNS - first.length)];
}

function filterParams(query: RunRowFilter) {
  return { filter: query.filter, metric: query.metric, cell: query.cell, q: query.q };
}

/** The view's sort, columns and page, each left out when it is the default (a shorter link, the same view). */
function viewParams(view: RunRowView): ParamValues {
  return {
    sort: view.sort === "rowNumber" ? undefined : view.sort,
    dir: view.dir === "asc" ? undefined : view.dir,
    cols: view.cols?.join(","),
    page: view.page === 1 ? undefined : view.page,
    pageSize: view.pageSize === PAGE_SIZES[0] ? undefined : view.pageSize,
  };
}

/** The rows of one confusion cell of a metric (a link from the agreement panel). */
export function agreementCellHref(runId: string, metric: string, cell: AgreementCellName): string {
  return runRowsHref(runId, { filter: "cell", metric, cell, q: "" });
}

/** The rows table of a run, keeping the filter the reviewer came with and, when given, the table's sort, columns and page. */
export function runRowsHref(runId: string, query: RunRowFilter & RunRowView): string {
  return withParams(`/runs/${runId}`, filterParams(query), viewParams(query)) + "#rows";
}

/**
 * The rows table with some of its filter changed (a tab, a cleared chip): sort
 * and page size stay, the page starts over, and a metric goes where no filter
 * it narrows is left.
 */
export function runRowsViewHref(runId: string, query: RunRowQuery, changes: Partial<RunRowFilter>): string {
  const next = { ...filterParams(query), ...changes };
  const metric = METRIC_FILTERS.includes(next.filter) ? next.metric : undefined;
  const cell = next.filter === "cell" && metric ? next.cell : undefined;
  const filter = next.filter === "cell" && !cell ? "all" : next.filter;
  const kept: ParamValues = {
    sort: query.sort,
    dir: query.dir,
    pageSize: query.pageSize,
    cols: query.cols?.join(","),
  };
  return withParams(`/runs/${runId}`, { ...next, filter, metric, cell }, kept) + "#rows";
}

/**
 * One row of a run, keeping the filter so j / k / n move within it, and the
 * table's sort, columns and page so they move in the table's order and the way
 * back lands on the table as it was.
 */
export function runRowHref(runId: string, rowId: string, query: RunRowFilter & RunRowView): string {
  return withParams(`/runs/${runId}/rows/${rowId}`, {}, { ...filterParams(query), ...viewParams(query) });
}

/** A metric's last segment, as tables and filters name it ("groundedness"). */
export function metricShortName(metric: string): string {
  return metric.split("/").pop() ?? metric;
}

const FILTER_WORDS: Record<RunRowFilterName, string> = {
  all: "all rows",
  failed: "failed on any metric",
  errored: "errored on any metric",
  passed: "passed every metric",
  flaky: "trials disagree on some metric",
  disagrees: "judge disagrees with the label",
  "people-differ": "people's labels differ",
  cell: "in a confusion cell",
};

const CELL_WORDS: Record<AgreementCellName, string> = {
  "yes-yes": "judge yes, label yes",
  "yes-no": "judge yes, label no",
  "no-yes": "judge no, label yes",
  "no-no": "judge no, label no",
  errors: "judge errored, labelled",
};

/** A confusion cell in words: "judge yes, label no". */
export function describeAgreementCell(cell: AgreementCellName): string {
  return CELL_WORDS[cell];
}

/** The filter in words: "failed on groundedness", "all rows matching “refund”". */
export function describeRunRowFilter(query: RunRowFilter): string {
  const words =
    query.filter === "cell" && query.metric && query.cell
      ? `${CELL_WORDS[query.cell]} on ${metricShortName(query.metric)}`
      : query.filter === "disagrees" && query.metric
        ? `judge disagrees with the label on ${metricShortName(query.metric)}`
        : query.filter === "people-differ" && query.metric
          ? `people's labels differ on ${metricShortName(query.metric)}`
          : query.filter === "flaky" && query.metric
            ? `trials disagree on ${metricShortName(query.metric)}`
            : query.metric && METRIC_FILTERS.includes(query.filter)
              ? `${query.filter} on ${metricShortName(query.metric)}`
              : FILTER_WORDS[query.filter];
  const q = query.q.trim();
  return q ? `${words} matching “${q}”` : words;
}

/**
 * Where a row stands in the filter the reviewer came from: "failed on
 * groundedness · 12 of 322", or, for a row outside it, that it is not among them.
 * A table sorted otherwise than by row number says so ("sorted by correctness,
 * worst first"): the count and j / k follow that order.
 */
export function describeRowPlace(
  query: RunRowFilter & Partial<Pick<RunRowQuery, "sort" | "dir">>,
  place: { index: number | null; total: number },
): string {
  const total = place.total.toLocaleString("en-US");
  if (place.index === null) return `not in ${describeRunRowFilter(query)} (${total} rows)`;
  const order = describeSort(query);
  return `${describeRunRowFilter(query)}${order ? `, ${order}` : ""} · ${place.index.toLocaleString("en-US")} of ${total}`;
}

/** The table's order in words, or "" for row order. */
function describeSort(query: Partial<Pick<RunRowQuery, "sort" | "dir">>): string {
  const sort = query.sort ?? "rowNumber";
  const descending = query.dir === "desc";
  if (sort === "rowNumber") return descending ? "last row first" : "";
  if (sort === "requestId") return `sorted by request_id${descending ? ", descending" : ""}`;
  return `sorted by ${metricShortName(sort)}, ${descending ? "best" : "worst"} first`;
}
