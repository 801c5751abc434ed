import type { Db } from "./client";

/**
 * Paired comparisons of two runs on the same dataset, computed in SQL by
 * joining their judgments on (row, metric). Nothing here loads whole runs:
 * counts come back as a few numbers per metric, flips a page at a time.
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
  const rows = await db.$queryRawUnsafe<Record<string, number | bigint | string>[]>(
    `SELECT a."metric" AS "metric",
       SUM(CASE WHEN a."rating" IS NOT NULL AND b."rating" IS NOT NULL THEN 1 ELSE 0 END) AS "both",
       SUM(CASE WHEN a."rating" = 'yes' AND b."rating" = 'yes' THEN 1 ELSE 0 END) AS "yesYes",
       SUM(CASE WHEN a."rating" = 'yes' AND b."rating" = 'no' THEN 1 ELSE 0 END) AS "yesNo",
       SUM(CASE WHEN a."rating" = 'no' AND b."rating" = 'yes' THEN 1 ELSE 0 END) AS "noYes",
       SUM(CASE WHEN a."rating" = 'no' AND b."rating" = 'no' THEN 1 ELSE 0 END) AS "noNo",
       SUM(CASE WHEN a."status" IN ('done', 'error') AND b."status" NOT IN ('done', 'error') THEN 1 ELSE 0 END) AS "onlyBaseline",
       SUM(CASE WHEN b."status" IN ('done', 'error') AND a."status" NOT IN ('done', 'error') THEN 1 ELSE 0 END) AS "onlyCandidate"
     FROM "JudgmentItem" a
     JOIN "JudgmentItem" b ON b."runId" = ? AND b."rowId" = a."rowId" AND b."metric" = a."metric"
     WHERE a."runId" = ?
     GROUP BY a."metric"`,
    candidateRunId,
    baselineRunId,
  );
  return rows.map((row) => ({
    metric: String(row.metric),
    both: Number(row.both), yesYes: Number(row.yesYes), yesNo: Number(row.yesNo), noYes: Number(row.noYes), noNo: Number(row.noNo),
    onlyBaseline: Number(row.onlyBaseline), onlyCandidate: Number(row.onlyCandidate),
  }));
}

/** Per-row score pairs for one score metric (both runs scored the row): the input of a paired bootstrap. */
export async function getScorePairs(db: Db, baselineRunId: string, candidateRunId: string, metric: string): Promise<{ baseline: number[]; candidate: number[] }> {
  const rows = await db.$queryRawUnsafe<{ a: number; b: number }[]>(
    `SELECT a."score" AS "a", b."score" AS "b"
     FROM "JudgmentItem" a
     JOIN "JudgmentItem" b ON b."runId" = ? AND b."rowId" = a."rowId" AND b."metric" = a."metric"
     WHERE a."runId" = ? AND a."metric" = ? AND a."status" = 'done' AND b."status" = 'done' AND a."score" IS NOT NULL AND b."score" IS NOT NULL
     ORDER BY a."rowId"`,
    candidateRunId,
    baselineRunId,
    metric,
  );
  return { baseline: rows.map((r) => Number(r.a)), candidate: rows.map((r) => Number(r.b)) };
}

export type Flip = { rowId: string; rowNumber: number; requestId: string; requestText: string; metric: string; baseline: string; candidate: string };

/** Rows whose verdict changed between the runs: regressions (yes→no) first, then improvements (no→yes), by row number. */
export async function listFlips(db: Db, baselineRunId: string, candidateRunId: string, options: { metric?: string; direction?: "regressions" | "improvements"; offset: number; limit: number }) {
  const conditions = [`a."runId" = ?`, `a."rating" IS NOT NULL`, `b."rating" IS NOT NULL`, `a."rating" <> b."rating"`];
  const params: (string | number)[] = [candidateRunId, baselineRunId];
  if (options.metric) {
    conditions.push(`a."metric" = ?`);
    params.push(options.metric);
  }
  if (options.direction) conditions.push(options.direction === "regressions" ? `a."rating" = 'yes'` : `a."rating" = 'no'`);
  const from = `FROM "JudgmentItem" a
     JOIN "JudgmentItem" b ON b."runId" = ? AND b."rowId" = a."rowId" AND b."metric" = a."metric"
     JOIN "DatasetRow" r ON r."id" = a."rowId"
     WHERE ${conditions.join(" AND ")}`;
  const [items, [count]] = await Promise.all([
    db.$queryRawUnsafe<Flip[]>(
      `SELECT r."id" AS "rowId", r."rowNumber" AS "rowNumber", r."requestId" AS "requestId", substr(r."requestText", 1, 200) AS "requestText",
         a."metric" AS "metric", a."rating" AS "baseline", b."rating" AS "candidate"
       ${from}
       ORDER BY CASE WHEN a."rating" = 'yes' THEN 0 ELSE 1 END, r."rowNumber", a."metric"
       LIMIT ? OFFSET ?`,
      ...params, options.limit, options.offset,
    ),
    db.$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT COUNT(*) AS "n" ${from}`, ...params),
  ]);
  return { items: items.map((f) => ({ ...f, rowNumber: Number(f.rowNumber) })), total: Number(count?.n ?? 0) };
}
