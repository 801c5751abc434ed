import { databaseUrlOf, type Db } from "./client";
import { connectionFor, preparedStatement } from "./directSqlite";

/**
 * Paired comparisons of two runs on the same dataset, computed in SQL by
 * joining their judgments on (row, metric). Nothing here loads whole runs:
 * counts come back as a few numbers per metric, flips a page at a time.
 * These run on the direct connection: on 2 × 70,000 judgments the Prisma
 * round trip (and its row conversion for the score pairs) cost more than the SQL.
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
  /** Rows judged (done or error) in one run but not the other. */
  onlyBaseline: number;
  onlyCandidate: number;
};

export async function getPairedCounts(db: Db, baselineRunId: string, candidateRunId: string): Promise<PairedCounts[]> {
  const rows = preparedStatement(
    connectionFor(databaseUrlOf(db)),
    `SELECT a."metric" AS "metric",
       SUM(CASE WHEN a."rating" IS NOT NULL AND b."rating" IS NOT NULL THEN 1 ELSE 0 END) AS "both",
       SUM(CASE WHEN a."rating" = 'yes' AND b."rating" = 'yes' THEN 1 ELSE 0 END) AS "yesYes",
       SUM(CASE WHEN a."rating" = 'yes' AND b."rating" = 'no' THEN 1 ELSE 0 END) AS "yesNo",
       SUM(CASE WHEN a."rating" = 'no' AND b."rating" = 'yes' THEN 1 ELSE 0 END) AS "noYes",
       SUM(CASE WHEN a."rating" = 'no' AND b."rating" = 'no' THEN 1 ELSE 0 END) AS "noNo",
       SUM(CASE WHEN a."status" IN ('done', 'error') AND b."status" NOT IN ('done', 'error') THEN 1 ELSE 0 END) AS "onlyBaseline",
       SUM(CASE WHEN b."status" IN ('done', 'error') AND a."status" NOT IN ('done', 'error') THEN 1 ELSE 0 END) AS "onlyCandidate"
     FROM "JudgmentItem" a INDEXED BY "JudgmentItem_pairing_idx"
     JOIN "JudgmentItem" b INDEXED BY "JudgmentItem_pairing_idx" ON b."runId" = ? AND b."rowId" = a."rowId" AND b."metric" = a."metric"
     WHERE a."runId" = ?
     GROUP BY a."metric"`,
  ).all(candidateRunId, baselineRunId) as Record<string, number | string>[];
  return rows.map((row) => ({
    metric: String(row.metric),
    both: Number(row.both),
    yesYes: Number(row.yesYes),
    yesNo: Number(row.yesNo),
    noYes: Number(row.noYes),
    noNo: Number(row.noNo),
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
  const rows = preparedStatement(
    connectionFor(databaseUrlOf(db)),
    `SELECT a."score" AS "a", b."score" AS "b"
     FROM "JudgmentItem" a INDEXED BY "JudgmentItem_pairing_idx"
     JOIN "JudgmentItem" b INDEXED BY "JudgmentItem_pairing_idx" ON b."runId" = ? AND b."rowId" = a."rowId" AND b."metric" = a."metric"
     WHERE a."runId" = ? AND a."metric" = ? AND a."status" = 'done' AND b."status" = 'done' AND a."score" IS NOT NULL AND b."score" IS NOT NULL
     ORDER BY a."rowId"`,
  ).all(candidateRunId, baselineRunId, metric) as { a: number; b: number }[];
  return { baseline: rows.map((r) => Number(r.a)), candidate: rows.map((r) => Number(r.b)) };
}

export type Flip = {
  rowId: string;
  rowNumber: number;
  requestId: string;
  requestText: string;
  metric: string;
  baseline: string;
  candidate: string;
};

/**
 * Rows whose verdict changed between the runs: regressions (yes→no) first, then
 * improvements (no→yes), by row number. The total comes from the paired counts
 * (yesNo + noYes), so no second pass over the join is needed.
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
  const conditions = [`a."runId" = ?`, `a."rating" IS NOT NULL`, `b."rating" IS NOT NULL`, `a."rating" <> b."rating"`];
  const params: (string | number)[] = [candidateRunId, baselineRunId];
  if (options.metric) {
    conditions.push(`a."metric" = ?`);
    params.push(options.metric);
  }
  if (options.direction)
    conditions.push(options.direction === "regressions" ? `a."rating" = 'yes'` : `a."rating" = 'no'`);
  const from = `FROM "JudgmentItem" a INDEXED BY "JudgmentItem_pairing_idx"
     JOIN "JudgmentItem" b INDEXED BY "JudgmentItem_pairing_idx" ON b."runId" = ? AND b."rowId" = a."rowId" AND b."metric" = a."metric"
     JOIN "DatasetRow" r ON r."id" = a."rowId"
     WHERE ${conditions.join(" AND ")}`;
  const connection = connectionFor(databaseUrlOf(db));
  const items = preparedStatement(
    connection,
    `SELECT r."id" AS "rowId", r."rowNumber" AS "rowNumber", r."requestId" AS "requestId", substr(r."requestText", 1, 200) AS "requestText",
         a."metric" AS "metric", a."rating" AS "baseline", b."rating" AS "candidate"
       ${from}
       ORDER BY CASE WHEN a."rating" = 'yes' THEN 0 ELSE 1 END, r."rowNumber", a."metric"
       LIMIT ? OFFSET ?`,
  ).all(...params, options.limit, options.offset) as Flip[];
  const paired = options.paired ?? (await getPairedCounts(db, baselineRunId, candidateRunId));
  const total = paired
    .filter((c) => !options.metric || c.metric === options.metric)
    .reduce(
      (sum, c) =>
        sum +
        (options.direction === "improvements" ? 0 : c.yesNo) +
        (options.direction === "regressions" ? 0 : c.noYes),
      0,
    );
  return { items: items.map((f) => ({ ...f, rowNumber: Number(f.rowNumber) })), total };
}
