import type { SqlRunner, SqlValue } from "../store/sqlRunner";
import {
  branchOrderOf,
  NO_PROBE,
  orderOf,
  pastKey,
  segmentHolds,
  type Probe,
  type Segment,
  type SegmentPlan,
  type Walk,
  walksAscending,
} from "./metricSortSegments";

/**
 * Reads of the rows table sorted by a metric, segment by segment (metricSortSegments): a page from its
 * offset, and a row's place ("12 of 322", j / k / n). Every statement walks index ranges from a segment's
 * start or from a key; the cost grows with the offset or the row's position, and reads no row's text.
 */
export type SortedKey = { id: string; rowNumber: number };

/** The row's judgment of the sorted metric: its key in the order. */
export type OrderKey = { score: number | null; rowNumber: number };

type Bound = Record<string, SqlValue>;
type Reader = { sql: SqlRunner; plan: SegmentPlan; bound: Bound };

/** The segment's branches with their filter in the given form (Probe) and the extra conditions, merged. */
function branchesSql(segment: Segment, form: keyof Probe, conditions: string[]): string {
  return branchStatements(segment, form, conditions).join(" UNION ALL ");
}

function branchStatements(segment: Segment, form: keyof Probe, conditions: string[]): string[] {
  return segment.branches.map((branch) => {
    const where = [
      `t."runId" = @runId`,
      `t."metric" = @sortMetric`,
      `t."trial" = 1`,
      segment.where,
      branch,
      segment.probe?.[form] ?? "",
      ...conditions,
    ]
      .filter(Boolean)
      .join(" AND ");
    return `SELECT t."rowId" AS "id", t."rowNumber" AS "rowNumber", t."score" AS "score" FROM "JudgmentItem" t WHERE ${where}`;
  });
}

async function readSegment(
  reader: Reader,
  segment: Segment,
  options: { walk: Walk; take: number; skip: number },
): Promise<SortedKey[]> {
  const rows = await reader.sql.all<{ id: string; rowNumber: number }>(
    `${branchesSql(segment, "each", [])} ORDER BY ${orderOf(segment, reader.plan, options.walk)}
     LIMIT @take OFFSET @skip`,
    { ...reader.bound, take: options.take, skip: options.skip } satisfies Bound,
  );
  return rows.map((row) => ({ id: row.id, rowNumber: Number(row.rowNumber) }));
}

/**
 * The segment's first judgment in the walk's direction that meets the conditions: each branch's first, read by
 * a statement of its own, then the first of those. Merged in SQL with a filter on each row, PostgreSQL
 * misjudged how many rows pass, read them all and sorted them to return one (77 ms at 30,000 rows); alone, a
 * branch walks its index and stops at the first hit.
 */
async function firstOfSegment(
  reader: Reader,
  segment: Segment,
  walk: Walk,
  conditions: string[],
  key?: OrderKey,
): Promise<SortedKey | null> {
  const order = branchOrderOf(segment, reader.plan, walk);
  const hits = await Promise.all(
    branchStatements(segment, "each", conditions).map((statement) =>
      reader.sql.get<{ id: string; rowNumber: number; score: number | null }>(
        `${statement} ORDER BY ${order} LIMIT 1`,
        { ...reader.bound, ...keyParams(key) } satisfies Bound,
      ),
    ),
  );
  const found = hits.flatMap((hit) =>
    hit ? [{ id: hit.id, rowNumber: Number(hit.rowNumber), score: hit.score }] : [],
  );
  const sign = walksAscending(segment, reader.plan, walk) ? 1 : -1;
  found.sort(
    (a, b) => sign * ((segment.order === "score" ? (a.score ?? 0) - (b.score ?? 0) : 0) || a.rowNumber - b.rowNumber),
  );
  return found[0] ?? null;
}

/**
 * How many judgments of a segment meet the conditions, counting no further than `cap` when one is given.
 * A segment whose rows are asked the filter (a probe) is first asked whether it has any judgment at all, by
 * one index entry: PostgreSQL estimates a segment's size from the whole column, so for a metric without
 * scores it expected thousands of scored judgments and hashed every failed row of the run to count none
 * (52 ms of a 121 ms drill-down at 100,000 rows).
 */
async function countSegment(reader: Reader, segment: Segment, conditions: string[], key?: OrderKey, cap?: number) {
  if (segment.probe?.join && !(await segmentHasAny(reader, segment, conditions, key))) return 0;
  const limited = cap === undefined ? "" : " LIMIT @cap";
  const found = await reader.sql.get<{ n: number }>(
    `SELECT COUNT(*) AS "n" FROM (${branchesSql(segment, "join", conditions)}${limited}) c`,
    { ...reader.bound, ...keyParams(key), ...(cap === undefined ? {} : { cap }) } satisfies Bound,
  );
  return Number(found?.n ?? 0);
}

/**
 * Whether the segment holds a judgment that meets the conditions, its filter aside: each branch's first index
 * entry (as one LIMIT 1 over the branches, PostgreSQL expected an early hit and read the table: 568 ms).
 */
async function segmentHasAny(reader: Reader, segment: Segment, conditions: string[], key?: OrderKey) {
  return (await firstOfSegment(reader, { ...segment, probe: NO_PROBE }, "forward", conditions, key)) !== null;
}

const keyParams = (key?: OrderKey): Bound => (key ? { keyScore: key.score, keyRow: key.rowNumber } : {});

/** `take` rows of the order from `skip` on: earlier segments counted (no further than needed), then read. */
export async function readSortedPage(
  sql: SqlRunner,
  plan: SegmentPlan,
  bound: Reader["bound"],
  skip: number,
  take: number,
): Promise<SortedKey[]> {
  const reader: Reader = { sql, plan, bound };
  const out: SortedKey[] = [];
  let remaining = skip;
  for (const segment of plan.segments) {
    if (out.length >= take) break;
    if (segment.probe === null) continue;
    if (remaining > 0) {
      const count = await countSegment(reader, segment, [], undefined, remaining);
      if (count < remaining) {
        remaining -= count;
        continue;
      }
    }
    out.push(...(await readSegment(reader, segment, { walk: "forward", take: take - out.length, skip: remaining })));
    remaining = 0;
  }
  return out;
}

export type SortedPlace = {
  index: number | null;
  previousId: string | null;
  nextId: string | null;
  nextFailedId: string | null;
};

/** The row's judgment of the sorted metric. */
export type SortedJudgment = { status: string; passed: boolean | null; score: number | null; rowNumber: number };

/**
 * A row's place in the order: its 1-based index within the filter (null outside it), the filter's rows
 * before and after it, and the next one after it that also meets `failedProbe` (n; a Probe's `each` form,
 * or "" for the next one).
 * A row outside the filter still has neighbours, by its key.
 */
export async function sortedPlace(
  sql: SqlRunner,
  plan: SegmentPlan,
  bound: Reader["bound"],
  row: { inFilter: boolean; judgment: SortedJudgment },
  failedProbe: string,
): Promise<SortedPlace> {
  const reader: Reader = { sql, plan, bound };
  const mine = plan.segments.findIndex((segment) => segmentHolds(segment, row.judgment));
  if (mine < 0) throw new Error(`a judgment with status ${row.judgment.status} has no place in the order`);
  const key: OrderKey = { score: row.judgment.score, rowNumber: row.judgment.rowNumber };
  const own = plan.segments[mine];
  const inFilter = (segment: Segment) => segment.probe !== null;

  /** The first row of the filter from the row on, in the walk's direction, that meets the conditions. */
  const firstFrom = async (walk: Walk, conditions: string[]) => {
    if (inFilter(own)) {
      const pastMe = [...conditions, pastKey(own, plan, walk)];
      const hit = await firstOfSegment(reader, own, walk, pastMe, key);
      if (hit) return hit.id;
    }
    const rest = walk === "forward" ? plan.segments.slice(mine + 1) : plan.segments.slice(0, mine).reverse();
    for (const segment of rest.filter(inFilter)) {
      const hit = await firstOfSegment(reader, segment, walk, conditions);
      if (hit) return hit.id;
    }
    return null;
  };

  const [previousId, nextId, nextFailedId, index] = await Promise.all([
    firstFrom("backward", []),
    firstFrom("forward", []),
    failedProbe ? firstFrom("forward", [failedProbe]) : null,
    row.inFilter ? indexOf(reader, plan.segments.slice(0, mine).filter(inFilter), own, key) : null,
  ]);
  return { index, previousId, nextId, nextFailedId: failedProbe ? nextFailedId : nextId };
}

/**
 * The row's 1-based place: the filter's rows of the earlier segments, and of its own up to and with it. An
 * earlier group whose every judgment is in the filter (all its segments without a probe) is counted from the
 * run's kept tallies, not its index: counting the 300,000 failed judgments before a row took 150 ms of a
 * million-row run's drill-down on PostgreSQL, where the tally is one row per shard.
 */
async function indexOf(reader: Reader, earlier: Segment[], own: Segment, key: OrderKey): Promise<number> {
  const tallied = wholeGroups(reader.plan, earlier);
  const counts = await Promise.all([
    tallied.size > 0 ? groupTallies(reader, tallied) : 0,
    ...earlier.filter((segment) => !tallied.has(segment.group)).map((segment) => countSegment(reader, segment, [])),
    countSegment(reader, own, [pastKey(own, reader.plan, "backward", true)], key),
  ]);
  return counts.reduce((sum, n) => sum + n, 0);
}

/** The groups all of whose segments are among `earlier` and ask nothing of their judgments (NO_PROBE). */
function wholeGroups(plan: SegmentPlan, earlier: Segment[]): Set<Segment["group"]> {
  const groups = new Set<Segment["group"]>();
  for (const { group } of earlier) {
    const all = plan.segments.filter((segment) => segment.group === group);
    const before = earlier.filter((segment) => segment.group === group);
    if (before.length === all.length && before.every((segment) => segment.probe?.each === "")) groups.add(group);
  }
  return groups;
}

/** Each group's judgments of the sorted metric, by the kept tallies' definitions of the segments' conditions. */
const GROUP_TALLY: Record<Segment["group"], string> = {
  failed: `SUM("failed")`,
  errored: `SUM("error")`,
  // Done and not failed: passed, or done without a pass / fail.
  done: `SUM("done") - SUM("failed")`,
  notJudged: `SUM("pending") + SUM("running") + SUM("skipped")`,
};

/** The same groups as conditions on trial 1's judgments: a run with trials, whose tallies count every trial. */
const GROUP_TRIAL_ONE: Record<Segment["group"], string> = {
  failed: `(t."status" = 'done' AND t."passed" = FALSE)`,
  errored: `t."status" = 'error'`,
  done: `(t."status" = 'done' AND (t."passed" IS NULL OR t."passed" = TRUE))`,
  notJudged: `t."status" IN ('pending', 'running', 'skipped')`,
};

async function groupTallies(reader: Reader, groups: Set<Segment["group"]>): Promise<number> {
  if (await hasTrials(reader.sql, reader.bound)) {
    // Counted in the (runId, metric, trial, status, passed, …) index: trial 1, as the table reads it.
    const counted = await reader.sql.get<{ n: number | string }>(
      `SELECT COUNT(*) AS "n" FROM "JudgmentItem" t WHERE t."runId" = @runId AND t."metric" = @sortMetric AND t."trial" = 1
         AND (${[...groups].map((group) => GROUP_TRIAL_ONE[group]).join(" OR ")})`,
      reader.bound,
    );
    return Number(counted?.n ?? 0);
  }
  const sum = [...groups].map((group) => `COALESCE(${GROUP_TALLY[group]}, 0)`).join(" + ");
  const found = await reader.sql.get<{ n: number | string }>(
    `SELECT ${sum} AS "n" FROM "RunMetricTally" WHERE "runId" = @runId AND "metric" = @sortMetric`,
    reader.bound,
  );
  return Number(found?.n ?? 0);
}

/** Whether the run judged the sorted metric over trials (it has a trial 2). */
export async function hasTrials(sql: SqlRunner, bound: Bound): Promise<boolean> {
  const found = await sql.get<{ hit: number }>(
    `SELECT 1 AS "hit" FROM "JudgmentItem" WHERE "runId" = @runId AND "metric" = @sortMetric AND "trial" = 2 LIMIT 1`,
    bound,
  );
  return found !== undefined;
}
