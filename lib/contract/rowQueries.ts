import type { Pagination } from "./pagination";

/**
 * What the store is asked for one page of a table's rows, as plain values: the pages parse their URL into
 * these (lib/urlState: `runRowQuerySchema`, `datasetRowQuerySchema`, whose output satisfies them), and the
 * repository functions take them without knowing of URLs.
 */

/** A run's rows table: which rows, by their judgments in this run. */
export const RUN_ROW_FILTERS = [
  "all",
  "failed",
  "errored",
  "passed",
  "flaky",
  "disagrees",
  "people-differ",
  "cell",
] as const;
export type RunRowFilterName = (typeof RUN_ROW_FILTERS)[number];

/** The filters a metric narrows ("failed on groundedness", "errored on correctness"); the others ignore one. */
export const METRIC_FILTERS: readonly RunRowFilterName[] = [
  "failed",
  "errored",
  "flaky",
  "disagrees",
  "people-differ",
  "cell",
];

/**
 * A confusion cell of the agreement panel, judge verdict then human label
 * ("yes-no": the judge said yes, the reviewer no), or the labelled rows the
 * judge errored on. Only with filter=cell, which needs a metric too.
 */
export const AGREEMENT_CELLS = ["yes-yes", "yes-no", "no-yes", "no-no", "errors"] as const;
export type AgreementCellName = (typeof AGREEMENT_CELLS)[number];

/** The part of the query that picks rows, and so follows the reviewer from the table into a row and from row to row. */
export type RunRowFilter = {
  filter: RunRowFilterName;
  /** With a filter it narrows (METRIC_FILTERS): only rows that failed (errored on, …) this metric. */
  metric?: string;
  cell?: AgreementCellName;
  /** Search text; "" for none. */
  q: string;
};

/** The table sorts by these row fields, or by one of the run's metrics (its verdict, then its score). */
export const RUN_ROW_SORTS: readonly string[] = ["rowNumber", "requestId"];

/** One page of a run's rows table: its filter, its order, and the page by number or by the pager's keys. */
export type RunRowPageQuery = RunRowFilter &
  Pagination & {
    /** rowNumber, requestId, or one of the run's metrics (see lib/db/runs/runRowMetricSort). */
    sort: string;
    dir: "asc" | "desc";
    /** The pager's keys (row numbers, see lib/db/runs/runRowKeyset): the page after, or before, that row. */
    after?: number;
    before?: number;
  };

/** Whether the table is sorted by a metric (its verdict, then its score) rather than a row field. */
export function isMetricSort(query: { sort: string }): boolean {
  return !RUN_ROW_SORTS.includes(query.sort);
}

/** A dataset's rows table: the columns it sorts by. */
export const DATASET_ROW_SORTS = [
  "rowNumber",
  "requestId",
  "requestText",
  "retrievedChunkCount",
  "latencySeconds",
  "totalTokenCount",
] as const;
export type DatasetRowSort = (typeof DATASET_ROW_SORTS)[number];

/** One page of a dataset's rows table: sorted, and searched ("" for no search). */
export type DatasetRowPageQuery = Pagination & { sort: DatasetRowSort; dir: "asc" | "desc"; q: string };
