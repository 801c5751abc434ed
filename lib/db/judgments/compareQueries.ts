import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";
import type { SqlRunner } from "../store/sqlRunner";

/**
 * Paired comparisons of two runs on the same dataset, computed in SQL by
 * joining their judgments on (row, metric). Nothing here loads whole runs:
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
/** The baseline's judgments (a) joined to the candidate's (b, bound first, at the join) on (row, metric), through the pairing index. */
export function pairedJoin(sql: SqlRunner): string {
  const { indexHint } = sqlFragments(sql);
  const pairing = indexHint("JudgmentItem_pairing_idx");
  return `FROM "JudgmentItem" a${pairing}
     JOIN "JudgmentItem" b${pairing} ON b."runId" = ? AND b."rowId" = a."rowId" AND b."metric" = a."metric"`;
}

export async function getPairedCounts(db: Db, baselineRunId: string, candidateRunId: string): Promise<PairedCounts[]> {
  const sql = sqlOf(db);
  const rows = await sql.all<Record<string, number | string>>(
    `SELECT a."metric" AS "metric",
       SUM(CASE WHEN a."rating" IS NOT NULL AND b."rating" IS NOT NULL THEN 1 ELSE 0 END) AS "both",
       SUM(CASE WHEN a."rating" = 'yes' AND b."rating" = 'yes' THEN 1 ELSE 0 END) AS "yesYes",
       SUM(CASE WHEN a."rating" = 'yes' AND b."rating" = 'no' THEN 1 ELSE 0 END) AS "yesNo",
       SUM(CASE WHEN a."rating" = 'no' AND b."rating" = 'yes' THEN 1 ELSE 0 END) AS "noYes",
       SUM(CASE WHEN a."rating" = 'no' AND b."rating" = 'no' THEN 1 ELSE 0 END) AS "noNo",
       SUM(CASE WHEN ${SUCCESS_LOST} THEN 1 ELSE 0 END) AS "passFail",
       SUM(CASE WHEN ${SUCCESS_GAINED} THEN 1 ELSE 0 END) AS "failPass",
       SUM(CASE WHEN a."status" IN ('done', 'error') AND b."status" NOT IN ('done', 'error') THEN 1 ELSE 0 END) AS "onlyBaseline",
       SUM(CASE WHEN b."status" IN ('done', 'error') AND a."status" NOT IN ('done', 'error') THEN 1 ELSE 0 END) AS "onlyCandidate"
     ${pairedJoin(sql)}
     WHERE a."runId" = ?
     GROUP BY a."metric"`,
    [candidateRunId, baselineRunId],
  );
  return rows.map((row) => ({
    metric: String(row.metric),
    both: Number(row.both),
    yesYes: Number(row.yesYes),
    yesNo: Number(row.yesNo),
    noYes: Number(row.noYes),
    noNo: Number(row.noNo),
    passFail: Number(row.passFail),
    failPass: Number(row.failPass),
    onlyBaseline: Number(row.onlyBaseline),
    onlyCandidate: Number(row.onlyCandidate),
  }));
}

/** Per-row score pairs for one score metric (both runs scored the row): the input of a paired bootstrap. */
export async function getScorePairs(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
  metric: string,
): Promise<{ baseline: number[]; candidate: number[] }> {
  const sql = sqlOf(db);
  const rows = await sql.all<{ a: number; b: number }>(
    `SELECT a."score" AS "a", b."score" AS "b"
     ${pairedJoin(sql)}
     WHERE a."runId" = ? AND a."metric" = ? AND a."status" = 'done' AND b."status" = 'done' AND a."score" IS NOT NULL AND b."score" IS NOT NULL
     ORDER BY a."rowId"`,
    [candidateRunId, baselineRunId, metric],
  );
  return { baseline: rows.map((r) => Number(r.a)), candidate: rows.map((r) => Number(r.b)) };
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

/**
 * Rows whose verdict changed between the runs: yes/no ratings that changed and
 * scores whose success changed. Regressions (yes→no, pass→fail) first, then
 * improvements, by row number. The total comes from the paired counts
 * (yesNo + noYes + passFail + failPass), so no second pass over the join is needed.
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
    paired?: PairedCounts[];
  },
) {
  const direction =
    options.direction === "regressions"
      ? REGRESSION
      : options.direction === "improvements"
        ? IMPROVEMENT
        : `(${REGRESSION} OR ${IMPROVEMENT})`;
  const conditions = [`a."runId" = ?`, direction];
  const params: (string | number)[] = [candidateRunId, baselineRunId];
  if (options.metric) {
    conditions.push(`a."metric" = ?`);
    params.push(options.metric);
  }
  const sql = sqlOf(db);
  const records = await sql.all<FlipRecord>(
    `SELECT r."id" AS "rowId", r."rowNumber" AS "rowNumber", r."requestId" AS "requestId", substr(r."requestText", 1, 200) AS "requestText",
         a."metric" AS "metric", CASE WHEN ${REGRESSION} THEN 1 ELSE 0 END AS "regression",
         a."rating" AS "baselineRating", b."rating" AS "candidateRating", a."passed" AS "baselinePassed", b."passed" AS "candidatePassed",
         a."score" AS "baselineScore", b."score" AS "candidateScore", a."threshold" AS "baselineThreshold", b."threshold" AS "candidateThreshold"
       ${pairedJoin(sql)}
       JOIN "DatasetRow" r ON r."id" = a."rowId"
       WHERE ${conditions.join(" AND ")}
       ORDER BY "regression" DESC, r."rowNumber", a."metric"
       LIMIT ? OFFSET ?`,
    [...params, options.limit, options.offset],
  );
  const paired = options.paired ?? (await getPairedCounts(db, baselineRunId, candidateRunId));
  const total = paired
    .filter((c) => !options.metric || c.metric === options.metric)
    .reduce(
      (sum, c) =>
        sum +
        (options.direction === "improvements" ? 0 : c.yesNo + c.passFail) +
        (options.direction === "regressions" ? 0 : c.noYes + c.failPass),
      0,
    );
  return { items: records.map(toFlip), total };
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
