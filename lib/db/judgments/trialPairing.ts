import { sqlOf, type Db } from "../client";
import { rowPairingMode } from "./rowPairing";

/** Per metric, two runs' paired rows' means over their trials, in the same row order. */
export type PairedRowMeans = Map<string, { baseline: number[]; candidate: number[] }>;

/**
 * Two runs' rows paired, each row's mean over its judged trials of every metric: for a yes/no metric the share
 * of its trials rated yes, for the others its mean score. The row is the unit a comparison with trials tests
 * (lib/compare/trialsDelta.ts); rows judged in one run only are left out, as every paired read leaves them.
 * One GROUP BY per run over its pairing index (runId, rowId, metric, trial, status, rating, score, …), all
 * metrics at once (a read per metric walked the whole run once per metric: 3 s for 7 metrics at 30,000 rows ×
 * 3 trials); rows pair as compare pairs them (the same row, or across datasets the row of the same request,
 * rowPairing.ts). In the baseline's row order (by id), so that the bootstrap draws the same rows every time.
 */
export async function readPairedRowMeans(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
): Promise<PairedRowMeans> {
  const sql = sqlOf(db);
  const byRequest = (await rowPairingMode(db, baselineRunId, candidateRunId)) === "request_id";
  // The candidate's rows keyed by the baseline row they pair with.
  const partner = byRequest
    ? `(SELECT ra."id" FROM "DatasetRow" rb JOIN "DatasetRow" ra ON ra."datasetId" = (SELECT "datasetId" FROM "Run" WHERE "id" = ?)
         AND ra."requestId" = rb."requestId" AND ra."messages" = rb."messages" WHERE rb."id" = j."rowId")`
    : `j."rowId"`;
  type RowMean = { metric: string; rowId: string | null; yes: number | string | null; mean: number | string | null };
  const means = (runId: string, rowKey: string, params: string[]) =>
    sql.all<RowMean>(
      `SELECT j."metric" AS "metric", ${rowKey} AS "rowId",
         AVG(CASE WHEN j."rating" IS NULL THEN NULL WHEN j."rating" = 'yes' THEN 1.0 ELSE 0.0 END) AS "yes",
         AVG(j."score") AS "mean"
       FROM "JudgmentItem" j
       WHERE j."runId" = ? AND j."status" = 'done' AND (j."rating" IS NOT NULL OR j."score" IS NOT NULL)
       GROUP BY j."metric", j."rowId"`,
      [...params, runId],
    );
  const baseline = await means(baselineRunId, `j."rowId"`, []);
  const candidate = await means(candidateRunId, partner, byRequest ? [baselineRunId] : []);
  const value = (row: { yes: number | string | null; mean: number | string | null }) =>
    row.yes !== null ? Number(row.yes) : Number(row.mean);
  const candidateOf = new Map(
    candidate.filter((row) => row.rowId !== null).map((row) => [`${row.metric}\u0000${row.rowId}`, value(row)]),
  );
  const paired: PairedRowMeans = new Map();
  const rowOrder = (row: RowMean) => row.rowId ?? "";
  for (const row of baseline.sort((a, b) => (rowOrder(a) < rowOrder(b) ? -1 : rowOrder(a) > rowOrder(b) ? 1 : 0))) {
    const other = candidateOf.get(`${row.metric}\u0000${row.rowId}`);
    if (other === undefined) continue;
    const pair = paired.get(row.metric) ?? { baseline: [], candidate: [] };
    pair.baseline.push(value(row));
    pair.candidate.push(other);
    paired.set(row.metric, pair);
  }
  return paired;
}
