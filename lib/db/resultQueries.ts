import type { Db } from "./client";

/**
 * A run's results for a page of dataset rows (by row number): the rows, their
 * judgments and per-chunk verdicts. Exports page through a run with this so a
 * large run is never loaded at once.
 */
export async function listRunResultsPage(db: Db, runId: string, datasetId: string, afterRowNumber: number, take: number) {
  const rows = await db.datasetRow.findMany({
    where: { datasetId, rowNumber: { gt: afterRowNumber } },
    orderBy: { rowNumber: "asc" },
    take,
    select: {
      id: true, rowNumber: true, requestId: true, requestRaw: true, response: true, expectedResponse: true, expectedFacts: true,
      chunks: { orderBy: [{ kind: "asc" }, { position: "asc" }], select: { kind: true, position: true, content: true, docUri: true } },
      judgments: {
        where: { runId },
        select: {
          metric: true, status: true, rating: true, score: true, threshold: true, passed: true, rationale: true, errorMessage: true, skipReason: true,
          judgeProvider: true, judgeModel: true, promptVersion: true, promptHash: true,
          chunks: { orderBy: { position: "asc" }, select: { position: true, rating: true, rationale: true, errorMessage: true } },
        },
      },
      generations: { where: { runId }, select: { response: true, errorMessage: true, latencySeconds: true, inputTokenCount: true, outputTokenCount: true } },
    },
  });
  return { rows, nextRowNumber: rows.length === take ? rows[rows.length - 1].rowNumber : null };
}
export type RunResultRow = Awaited<ReturnType<typeof listRunResultsPage>>["rows"][number];
