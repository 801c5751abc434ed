import type { RunRowFilter, RunRowPageQuery } from "@/lib/contract/rowQueries";
import { isAgentValueMetric } from "@/lib/contract/aggregates";
import { scoreDirection } from "@/lib/contract/metricCatalog";

/**
 * The rows table sorted by a metric, as a list of segments read one after the
 * other. Each segment is a few ranges of JudgmentItem_metric_sort_idx (runId,
 * metric, status, passed, score, rowNumber) over the sorted metric's judgments
 * (`t`), merged in the index's order (UNION ALL … ORDER BY: a merge of index
 * walks on both stores, never a sort). A page, a row's "12 of 322" and its
 * j / k then read index entries up to the place they need, not a sort of every
 * row of the run.
 *
 * The order is runRowMetricSort's: worst first (dir=asc) is failed, errored,
 * passed (or done without a pass / fail), then not judged (pending, running,
 * skipped); best first reverses the first three. Within a group the scored
 * judgments come first, by score worst first (or best first), then those
 * without a score; the not-judged rows come last in both directions. Ties go
 * by row number: ascending among the rows without a score, and in the score's
 * direction among equal scores (the index walked backwards, so best first
 * is the exact reverse of worst first there).
 */
export type Segment = {
  group: Group["name"] | "notJudged";
  /** Conditions on `t` shared by the branches. */
  where: string;
  /** One condition per merged range of the index. */
  branches: string[];
  /** By score then row number in the walk's direction, or by row number ascending. */
  order: "score" | "row";
  /** The filter asked of each judgment of the segment; NO_PROBE when every one is in it, null when none is. */
  probe: Probe | null;
};

/**
 * A condition on the row of `t`, in two forms. `join` (EXISTS) is what PostgreSQL turns into a hash semi-join:
 * the cheapest way to count thousands of rows. `each` (a scalar subquery, which no planner turns into a join)
 * is asked of each judgment in the index's order: what a walk that stops at its first hits needs; as EXISTS,
 * PostgreSQL hashed the whole filter and sorted the segment to read one row (37 ms at 30,000 rows, not 0.1).
 * SQLite asks either of each row.
 */
export type Probe = { join: string; each: string };

export const NO_PROBE: Probe = { join: "", each: "" };

export type SegmentPlan = {
  segments: Segment[];
  /** The score walk's direction (the same for every scored segment of one order). */
  scoreOrder: "ASC" | "DESC";
};

const DONE_FAILED = `t."status" = 'done' AND t."passed" = FALSE`;
const ERRORED = `t."status" = 'error'`;
const DONE_OTHER = `t."status" = 'done'`;
const NOT_JUDGED_STATUSES = ["pending", "running", "skipped"];
const PASSED_VALUES = [`t."passed" IS NULL`, `t."passed" = FALSE`, `t."passed" = TRUE`];

type Group = { name: "failed" | "errored" | "done"; where: string; branches: string[] };

const GROUPS: Record<Group["name"], Group> = {
  failed: { name: "failed", where: DONE_FAILED, branches: [""] },
  // An errored judgment may keep the pass / fail of an earlier attempt: one range per value, merged.
  errored: { name: "errored", where: ERRORED, branches: PASSED_VALUES },
  done: { name: "done", where: DONE_OTHER, branches: [`t."passed" = TRUE`, `t."passed" IS NULL`] },
};

/** Whether the row of `t` has the verdict flag (anyFailed, anyErrored, allPassed): its RunRowVerdict, by key. */
export const verdictProbe = (flag: "anyFailed" | "anyErrored" | "allPassed"): Probe =>
  probeOf(`"RunRowVerdict" v`, `v."runId" = @runId AND v."${flag}" = TRUE AND v."rowNumber" = t."rowNumber"`);

const metricProbe = (condition: string): Probe =>
  probeOf(
    `"JudgmentItem" f`,
    `f."runId" = @runId AND f."rowId" = t."rowId" AND f."metric" = @filterMetric AND f."trial" = 1 AND ${condition.replaceAll("t.", "f.")}`,
  );

/** Both forms of "a row of `from` meets `where`", where at most one row of `from` can (a key). */
function probeOf(from: string, where: string): Probe {
  return { join: `EXISTS (SELECT 1 FROM ${from} WHERE ${where})`, each: `(SELECT 1 FROM ${from} WHERE ${where}) = 1` };
}

/**
 * Which groups can hold rows of the filter, and what each must ask of its judgments: none for a row that
 * failed the sorted metric under "failed", or for any group that is the filter itself (failed or errored on the
 * sorted metric); a lookup of the row's verdict (RunRowVerdict) or of its judgment of the filtered metric else.
 */
function probeFor(group: Group["name"] | "notJudged", filter: RunRowFilter, sortMetric: string): Probe | null {
  const onSorted = filter.metric === sortMetric;
  switch (filter.filter) {
    case "all":
      return NO_PROBE;
    case "failed":
      if (filter.metric) return onSorted ? (group === "failed" ? NO_PROBE : null) : metricProbe(DONE_FAILED);
      return group === "failed" ? NO_PROBE : verdictProbe("anyFailed");
    case "errored":
      if (filter.metric) return onSorted ? (group === "errored" ? NO_PROBE : null) : metricProbe(ERRORED);
      return group === "errored" ? NO_PROBE : verdictProbe("anyErrored");
    case "passed":
      // A row that failed or errored on the sorted metric has not passed every metric.
      return group === "failed" || group === "errored" ? null : verdictProbe("allPassed");
    default:
      throw new Error(`the ${filter.filter} filter is read over the label pairing`);
  }
}

/** The segments of the rows table sorted by `query.sort`, within a plain filter (all, failed, errored, passed). */
export function metricSortSegments(query: RunRowFilter & Pick<RunRowPageQuery, "sort" | "dir">): SegmentPlan {
  const worstFirst = query.dir === "asc";
  const scoreAscending = higherIsWorse(query.sort) ? !worstFirst : worstFirst;
  const groups = worstFirst
    ? [GROUPS.failed, GROUPS.errored, GROUPS.done]
    : [GROUPS.done, GROUPS.errored, GROUPS.failed];
  const segments: Segment[] = [];
  // A group that holds no row of the filter stays in the list (probe null): a row outside the filter has a
  // place in the order too, and j / k go from it.
  for (const group of groups) {
    const probe = probeFor(group.name, query, query.sort);
    segments.push(
      {
        group: group.name,
        where: `${group.where} AND t."score" IS NOT NULL`,
        branches: group.branches,
        order: "score",
        probe,
      },
      {
        group: group.name,
        where: `${group.where} AND t."score" IS NULL`,
        branches: group.branches,
        order: "row",
        probe,
      },
    );
  }
  segments.push({
    group: "notJudged",
    where: "1 = 1",
    // Each (status, passed) a range of the (runId, metric, status, passed, rowNumber) index, in row order.
    branches: NOT_JUDGED_STATUSES.flatMap((status) =>
      PASSED_VALUES.map((passed) => `t."status" = '${status}' AND ${passed}`),
    ),
    order: "row",
    probe: probeFor("notJudged", query, query.sort),
  });
  return { segments, scoreOrder: scoreAscending ? "ASC" : "DESC" };
}

/** Whether a worse value of this metric is a higher one (lower-is-better scores, agent values: tokens, latency, tool calls). */
export function higherIsWorse(metric: string): boolean {
  return scoreDirection(metric) === "lower" || isAgentValueMetric(metric);
}

export type Walk = "forward" | "backward";

/** Whether walking the segment this way reads its key (score or row number, then row number) ascending. */
export function walksAscending(segment: Segment, plan: SegmentPlan, walk: Walk): boolean {
  const ascending = segment.order === "row" || plan.scoreOrder === "ASC";
  return ascending === (walk === "forward");
}

/** A segment's ORDER BY over the merged branches' columns, forward or backward. */
export function orderOf(segment: Segment, plan: SegmentPlan, walk: Walk): string {
  const direction = walksAscending(segment, plan, walk) ? "ASC" : "DESC";
  return segment.order === "row" ? `"rowNumber" ${direction}` : `"score" ${direction}, "rowNumber" ${direction}`;
}

/**
 * orderOf for one branch read alone, led by the columns the branch holds at one value, in the index's column
 * order: its "passed" (each branch fixes it) and, in a segment without scores, its "score". A column held by
 * `= value` is dropped from the order by either store's planner; one held by `IS NULL` is not by PostgreSQL's,
 * which then read every judgment of the branch and sorted them to return the first: the errored judgments
 * without a verdict, for the row drill-down sorted by a metric, 559 ms at 1,000,000 rows (0.1 ms with the
 * order the index already has).
 */
export function branchOrderOf(segment: Segment, plan: SegmentPlan, walk: Walk): string {
  const direction = walksAscending(segment, plan, walk) ? "ASC" : "DESC";
  const held = segment.group !== "notJudged" && segment.order === "row" ? [`t."passed"`, `t."score"`] : [`t."passed"`];
  return [...held.map((column) => `${column} ${direction}`), orderOf(segment, plan, walk)].join(", ");
}

/**
 * The judgments of a segment strictly after (or before) a key in the table's order, as a condition on `t`
 * (row values, which both stores walk as one index range): @keyScore and @keyRow bind the key.
 */
export function pastKey(segment: Segment, plan: SegmentPlan, walk: Walk, inclusive = false): string {
  const op = `${walksAscending(segment, plan, walk) ? ">" : "<"}${inclusive ? "=" : ""}`;
  return segment.order === "row"
    ? `t."rowNumber" ${op} @keyRow`
    : `(t."score", t."rowNumber") ${op} (@keyScore, @keyRow)`;
}

/** Whether a judgment (status, passed, score) falls in the segment: the segment's conditions, in JavaScript. */
export function segmentHolds(
  segment: Segment,
  judgment: { status: string; passed: boolean | null; score: number | null },
): boolean {
  const { status, passed, score } = judgment;
  if (segment.group === "notJudged") return NOT_JUDGED_STATUSES.includes(status);
  // The scored segment of a group orders by score, the other holds the judgments without one.
  if ((score !== null) !== (segment.order === "score")) return false;
  if (segment.group === "failed") return status === "done" && passed === false;
  if (segment.group === "errored") return status === "error";
  return status === "done" && passed !== false;
}
