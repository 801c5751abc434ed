import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";
import type { SqlRunner } from "../store/sqlRunner";
import { runRowRanges } from "./pairedSlices";
import { pairedJoin, partnerRowOn, rowPairingMode } from "./rowPairing";

/**
 * Paired comparisons of two runs, computed in SQL by joining their judgments
 * on (paired row, metric): the same row on one dataset, the row of the same
 * request across two (rowPairing.ts). Nothing here loads whole runs:
 * counts come back as a few numbers per metric, flips a page at a time.
 * These go through the store's runner, not Prisma: on 2 × 70,000 judgments the
 * Prisma round trip (and its row conversion for the score pairs) cost more than the SQL.
 */
export type PairedCounts = {
  metric: string;
  /** Rows judged yes/no in both runs. */
  both: number;
  yesYes: number;
  /** Baseline yes, candidate no: regressions. */
  yesNo: number;
  /** Baseline no, candidate yes: improvements. */
  noYes: number;
  noNo: number;
  /**
   * Score rows (no yes/no rating) scored in both runs whose success changed: baseline passed and
   * candidate failed (a regression), or the reverse. Success already accounts for lower-is-better
   * metrics. Kept apart from the four yes/no cells, which are McNemar's input.
   */
  passFail: number;
  failPass: number;
  /** Rows judged (done or error) in one run but not the other. */
  onlyBaseline: number;
  onlyCandidate: number;
};

// A flip is either a yes/no verdict that changed or, for a score (rating NULL), a success (`passed`) that changed.
// The counts and the flip list share these conditions, so the list's total is exactly the rows it pages through.
const SCORED_IN_BOTH = `a."rating" IS NULL AND b."rating" IS NULL AND a."status" = 'done' AND b."status" = 'done'`;
const SUCCESS_LOST = `${SCORED_IN_BOTH} AND a."passed" = TRUE AND b."passed" = FALSE`;
const SUCCESS_GAINED = `${SCORED_IN_BOTH} AND a."passed" = FALSE AND b."passed" = TRUE`;
export const REGRESSION = `((a."rating" = 'yes' AND b."rating" = 'no') OR (${SUCCESS_LOST}))`;
export const IMPROVEMENT = `((a."rating" = 'no' AND b."rating" = 'yes') OR (${SUCCESS_GAINED}))`;
const PAIRED_SUMS = `SELECT a."metric" AS "metric",
       SUM(CASE WHEN a."rating" IS NOT NULL AND b."rating" IS NOT NULL THEN 1 ELSE 0 END) AS "both",
       SUM(CASE WHEN a."rating" = 'yes' AND b."rating" = 'yes' THEN 1 ELSE 0 END) AS "yesYes",
       SUM(CASE WHEN a."rating" = 'yes' AND b."rating" = 'no' THEN 1 ELSE 0 END) AS "yesNo",
       SUM(CASE WHEN a."rating" = 'no' AND b."rating" = 'yes' THEN 1 ELSE 0 END) AS "noYes",
       SUM(CASE WHEN a."rating" = 'no' AND b."rating" = 'no' THEN 1 ELSE 0 END) AS "noNo",
       SUM(CASE WHEN ${SUCCESS_LOST} THEN 1 ELSE 0 END) AS "passFail",
       SUM(CASE WHEN ${SUCCESS_GAINED} THEN 1 ELSE 0 END) AS "failPass",
       SUM(CASE WHEN a."status" IN ('done', 'error') AND b."status" NOT IN ('done', 'error') THEN 1 ELSE 0 END) AS "onlyBaseline",
       SUM(CASE WHEN b."status" IN ('done', 'error') AND a."status" NOT IN ('done', 'error') THEN 1 ELSE 0 END) AS "onlyCandidate"`;
const COUNT_FIELDS = [
  "both",
  "yesYes",
  "yesNo",
  "noYes",
  "noNo",
  "passFail",
  "failPass",
  "onlyBaseline",
  "onlyCandidate",
] as const;

/**
 * What a score metric's paired interval needs of the rows both runs scored (status done, a score in each):
 * their count and the sum and sum of squares of the differences, candidate minus baseline. On PostgreSQL
 * they are summed as decimals, so the same runs read the same digits whatever order parallel workers add
 * them in; SQLite adds its floats in row order (compensated, so to about the last digit).
 */
function scoreDifferenceSums(sql: SqlRunner): string {
  const paired = `a."status" = 'done' AND b."status" = 'done' AND a."score" IS NOT NULL AND b."score" IS NOT NULL`;
  const difference =
    sql.dialect === "postgresql" ? `(b."score"::numeric - a."score"::numeric)` : `(b."score" - a."score")`;
  return `SUM(CASE WHEN ${paired} THEN 1 ELSE 0 END) AS "scorePairs",
       SUM(CASE WHEN ${paired} THEN ${difference} ELSE 0 END) AS "scoreDiffSum",
       SUM(CASE WHEN ${paired} THEN ${difference} * ${difference} ELSE 0 END) AS "scoreDiffSquares"`;
}

/** Per score metric, the sums of the paired differences (see pairedNormalMeanDiff): no pair is loaded. */
export type ScoreDifferenceSums = { metric: string; pairs: number; sum: number; sumSquares: number };

/**
 * The paired yes/no cells and success flips per metric, and each metric's sums of score differences, in one
 * pass over the paired join. On SQLite in slices of `sliceJudgments` of the baseline's judgments
 * (PAIRED_SLICE_JUDGMENTS), each on a fresh turn of the event loop; the counts are the same as one
 * statement's. A run still being judged may change between two slices, as it may between two requests: its
 * comparison is never cached (lib/db/cache/completedRunReads.ts), and a completed run's judgments do not change.
 */
export async function getPairedSums(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
  options: { sliceJudgments?: number } = {},
): Promise<{ counts: PairedCounts[]; scoreDifferences: ScoreDifferenceSums[] }> {
  const sql = sqlOf(db);
  const join = pairedJoin(sql, await rowPairingMode(db, baselineRunId, candidateRunId), candidateRunId);
  const sumsOf = (range: string, params: string[]) =>
    sql.all<Record<string, number | string>>(
      `${PAIRED_SUMS},
       ${scoreDifferenceSums(sql)} ${join.from} WHERE a."runId" = ?${range} GROUP BY a."metric"`,
      [...join.params, baselineRunId, ...params],
    );
  const totals = new Map<string, PairedCounts>();
  const differences = new Map<string, ScoreDifferenceSums>();
  for await (const range of runRowRanges(sql, baselineRunId, options.sliceJudgments))
    for (const row of await sumsOf(range.condition, range.params)) {
      addCounts(totals, toCounts(row));
      addDifferences(differences, row);
    }
  return {
    counts: byMetric([...totals.values()]),
    scoreDifferences: byMetric([...differences.values()].filter((sums) => sums.pairs > 0)),
  };
}

/** The paired yes/no cells and success flips per metric (getPairedSums without the score sums). */
export async function getPairedCounts(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
  options: { sliceJudgments?: number } = {},
): Promise<PairedCounts[]> {
  return (await getPairedSums(db, baselineRunId, candidateRunId, options)).counts;
}

/** In metric order, as one GROUP BY on SQLite returns them (PostgreSQL's may hash). */
function byMetric<T extends { metric: string }>(counts: T[]): T[] {
  return counts.sort((x, y) => (x.metric < y.metric ? -1 : x.metric > y.metric ? 1 : 0));
}

function toCounts(row: Record<string, number | string>): PairedCounts {
  const counts = { metric: String(row.metric) } as PairedCounts;
  for (const field of COUNT_FIELDS) counts[field] = Number(row[field] ?? 0);
  return counts;
}

function addCounts(totals: Map<string, PairedCounts>, counts: PairedCounts): void {
  const total = totals.get(counts.metric);
  if (!total) {
    totals.set(counts.metric, counts);
    return;
  }
  for (const field of COUNT_FIELDS) total[field] += counts[field];
}

function addDifferences(totals: Map<string, ScoreDifferenceSums>, row: Record<string, number | string>): void {
  const metric = String(row.metric);
  const total = totals.get(metric) ?? { metric, pairs: 0, sum: 0, sumSquares: 0 };
  total.pairs += Number(row.scorePairs ?? 0);
  total.sum += Number(row.scoreDiffSum ?? 0);
  total.sumSquares += Number(row.scoreDiffSquares ?? 0);
  totals.set(metric, total);
}

/**
 * Per-row score pairs for one score metric (both runs scored the row), in row id order: the input of a paired
 * bootstrap. Read in slices on SQLite, as the paired counts are (pairedSlices.ts).
 */
export async function getScorePairs(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
  metric: string,
  options: { sliceJudgments?: number } = {},
): Promise<{ baseline: number[]; candidate: number[] }> {
  const sql = sqlOf(db);
  const join = pairedJoin(sql, await rowPairingMode(db, baselineRunId, candidateRunId), candidateRunId);
  const baseline: number[] = [];
  const candidate: number[] = [];
  for await (const range of runRowRanges(sql, baselineRunId, options.sliceJudgments)) {
    const rows = await sql.all<{ a: number; b: number }>(
      `SELECT a."score" AS "a", b."score" AS "b"
       ${join.from}
       WHERE a."runId" = ?${range.condition} AND a."metric" = ? AND a."status" = 'done' AND b."status" = 'done' AND a."score" IS NOT NULL AND b."score" IS NOT NULL
       ORDER BY a."rowId"`,
      [...join.params, baselineRunId, ...range.params, metric],
    );
    for (const row of rows) {
      baseline.push(Number(row.a));
      candidate.push(Number(row.b));
    }
  }
  return { baseline, candidate };
}

export type Flip = {
  rowId: string;
  rowNumber: number;
  requestId: string;
  requestText: string;
  metric: string;
  /** "verdict": a yes/no rating changed; "success": a score crossed its pass mark. */
  kind: "verdict" | "success";
  /** Baseline succeeded and the candidate did not. */
  regression: boolean;
  /** "yes"/"no" for a verdict flip, "pass"/"fail" for a success flip. */
  baseline: string;
  candidate: string;
  /** Each run's score and pass mark: set for success flips, null for verdict flips. */
  baselineScore: number | null;
  candidateScore: number | null;
  baselineThreshold: number | null;
  candidateThreshold: number | null;
};

type FlipRecord = {
  rowId: string;
  rowNumber: number | bigint;
  requestId: string;
  requestText: string;
  metric: string;
  regression: number;
  baselineRating: string | null;
  candidateRating: string | null;
  baselinePassed: number | null;
  candidatePassed: number | null;
  baselineScore: number | null;
  candidateScore: number | null;
  baselineThreshold: number | null;
  candidateThreshold: number | null;
};

/** Where a flip stands in the list's order: regressions first, then by row number, then metric. */
export type FlipCursor = { regression: boolean; rowNumber: number; metric: string };

/**
 * Rows whose verdict changed between the runs: yes/no ratings that changed and
 * scores whose success changed. Regressions (yes→no, pass→fail) first, then
 * improvements, by row number, then metric. The total comes from the paired counts
 * (yesNo + noYes + passFail + failPass), so no second pass over the join is needed.
 *
 * A page starts `offset` flips in, or right after the flip `after` (a key, the previous page's last flip,
 * its `cursor`). Each direction is read in the order of the dataset's rows, from the (dataset, row number)
 * index joined to both runs' judgments through the pairing index, and stops at the page's end: no sort of
 * the whole paired join (at 100,000 rows × 7 metrics that sort was seconds on every request). Regressions
 * and improvements are read one after the other, so a page that starts in the improvements skips the
 * regressions by their count from the paired counts, never by reading them.
 */
export async function listFlips(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
  options: {
    metric?: string;
    direction?: "regressions" | "improvements";
    offset: number;
    limit: number;
    after?: FlipCursor;
    paired?: PairedCounts[];
  },
): Promise<{ items: Flip[]; total: number }> {
  const paired = options.paired ?? (await getPairedCounts(db, baselineRunId, candidateRunId));
  const counted = paired.filter((c) => !options.metric || c.metric === options.metric);
  const regressions = counted.reduce((sum, c) => sum + c.yesNo + c.passFail, 0);
  const improvements = counted.reduce((sum, c) => sum + c.noYes + c.failPass, 0);
  const wantRegressions = options.direction !== "improvements";
  const wantImprovements = options.direction !== "regressions";
  const total = (wantRegressions ? regressions : 0) + (wantImprovements ? improvements : 0);

  const read = (regression: boolean, skip: number, limit: number, after?: FlipCursor) =>
    readFlipsInRowOrder(db, baselineRunId, candidateRunId, {
      regression,
      metric: options.metric,
      after,
      offset: skip,
      limit,
    });
  const items: Flip[] = [];
  const after = options.after;
  const afterRegressions = after !== undefined && !after.regression;
  if (wantRegressions && !afterRegressions) {
    // Past the regressions, a page starts in the improvements at the offset less their count.
    if (after || options.offset < regressions)
      items.push(...(await read(true, after ? 0 : options.offset, options.limit, after)));
  }
  if (wantImprovements && items.length < options.limit) {
    const skip = after ? 0 : Math.max(0, options.offset - (wantRegressions ? regressions : 0));
    items.push(...(await read(false, skip, options.limit - items.length, afterRegressions ? after : undefined)));
  }
  return { items, total };
}

/** The key the next page starts after (listFlips' `after`). */
export function cursorOf(flip: Flip): FlipCursor {
  return { regression: flip.regression, rowNumber: flip.rowNumber, metric: flip.metric };
}

async function readFlipsInRowOrder(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
  options: { regression: boolean; metric?: string; after?: FlipCursor; offset: number; limit: number },
): Promise<Flip[]> {
  const sql = sqlOf(db);
  const { indexHint } = sqlFragments(sql);
  const pairing = indexHint("JudgmentItem_pairing_idx");
  // The rows drive the joins, in row-number order, so the page's end ends the read. SQLite's planner, not knowing
  // how many judgments the bound run ids have, walked the baseline's first and sorted them all (0.5–0.9 s at
  // 100,000 rows, against 1 ms): its CROSS JOIN keeps the tables in the order written. PostgreSQL plans from
  // statistics, and its CROSS JOIN takes no ON.
  const rowsFirst = sql.dialect === "sqlite" ? "CROSS JOIN" : "JOIN";
  // Across datasets the candidate's judgment is on the baseline row's partner by request (rowPairing.ts).
  const byRequest = (await rowPairingMode(db, baselineRunId, candidateRunId)) === "request_id";
  const candidateRow = byRequest
    ? `${rowsFirst} "DatasetRow" rb ON ${partnerRowOn("r")}
       ${rowsFirst} "JudgmentItem" b${pairing} ON b."runId" = ? AND b."rowId" = rb."id" AND b."metric" = a."metric" AND b."trial" = 1`
    : `${rowsFirst} "JudgmentItem" b${pairing} ON b."runId" = ? AND b."rowId" = r."id" AND b."metric" = a."metric" AND b."trial" = 1`;
  const conditions = [
    `r."datasetId" = (SELECT "datasetId" FROM "Run" WHERE "id" = ?)`,
    options.regression ? REGRESSION : IMPROVEMENT,
  ];
  const params: (string | number)[] = [
    baselineRunId,
    ...(byRequest ? [candidateRunId] : []),
    candidateRunId,
    baselineRunId,
  ];
  if (options.metric) {
    conditions.push(`a."metric" = ?`);
    params.push(options.metric);
  }
  if (options.after) {
    conditions.push(`(r."rowNumber" > ? OR (r."rowNumber" = ? AND a."metric" > ?))`);
    params.push(options.after.rowNumber, options.after.rowNumber, options.after.metric);
  }
  const records = await sql.all<FlipRecord>(
    `SELECT r."id" AS "rowId", r."rowNumber" AS "rowNumber", r."requestId" AS "requestId", substr(r."requestText", 1, 200) AS "requestText",
         a."metric" AS "metric", ${options.regression ? 1 : 0} AS "regression",
         a."rating" AS "baselineRating", b."rating" AS "candidateRating", a."passed" AS "baselinePassed", b."passed" AS "candidatePassed",
         a."score" AS "baselineScore", b."score" AS "candidateScore", a."threshold" AS "baselineThreshold", b."threshold" AS "candidateThreshold"
       FROM "DatasetRow" r
       ${rowsFirst} "JudgmentItem" a${pairing} ON a."runId" = ? AND a."rowId" = r."id" AND a."trial" = 1
       ${candidateRow}
       WHERE ${conditions.join(" AND ")}
       ORDER BY r."rowNumber", a."metric"
       LIMIT ? OFFSET ?`,
    [...params, options.limit, options.offset],
  );
  return records.map(toFlip);
}

function toFlip(record: FlipRecord): Flip {
  const common = {
    rowId: record.rowId,
    rowNumber: Number(record.rowNumber),
    requestId: record.requestId,
    requestText: record.requestText,
    metric: record.metric,
    regression: Number(record.regression) === 1,
  };
  if (record.baselineRating !== null && record.candidateRating !== null)
    return {
      ...common,
      kind: "verdict",
      baseline: record.baselineRating,
      candidate: record.candidateRating,
      baselineScore: null,
      candidateScore: null,
      baselineThreshold: null,
      candidateThreshold: null,
    };
  const word = (passed: number | null) => (Number(passed) === 1 ? "pass" : "fail");
  return {
    ...common,
    kind: "success",
    baseline: word(record.baselinePassed),
    candidate: word(record.candidatePassed),
    baselineScore: record.baselineScore,
    candidateScore: record.candidateScore,
    baselineThreshold: record.baselineThreshold,
    candidateThreshold: record.candidateThreshold,
  };
}
