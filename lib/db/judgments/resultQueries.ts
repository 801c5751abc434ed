import type { VerdictDetails } from "@/lib/contract/judgeResult";
import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";
import { decodeVerdictDetails } from "./verdictDetails";

/**
 * A run's results for a page of dataset rows (by row number): the rows, their
 * chunks, judgments, per-chunk verdicts and generated responses. Exports page
 * through a run with this so a large run is never loaded at once.
 *
 * Every query is keyed by (run, dataset, row-number range) and binds the same
 * handful of values whatever the page holds: never a list of ids, never a
 * nested relation load (Prisma sends one bound value per parent id for those,
 * and its SQLite limit is 999: a 200-row run × 11 judges already broke it).
 * `CROSS JOIN` makes SQLite drive each join from the page's rows (the
 * (datasetId, rowNumber) index), then reach the run's judgments by their
 * (runId, rowId, …) indexes, so a page costs the same at row 100 or 100,000.
 * (INDEXED BY for the chunk verdicts: left to itself SQLite picks the
 * (runId, metric, rating) index and scans the whole run once per row.)
 * The join condition is written in WHERE, since PostgreSQL's CROSS JOIN takes
 * no ON; PostgreSQL plans the same joins from its statistics.
 */
export type RunResultChunk = { kind: string; position: number; content: string | null; docUri: string };
export type RunResultChunkJudgment = {
  position: number;
  rating: string | null;
  rationale: string | null;
  errorMessage: string | null;
};
export type RunResultJudgment = {
  metric: string;
  /** Which of the run's trials (1 for a run without trials). */
  trial: number;
  status: string;
  rating: string | null;
  score: number | null;
  threshold: number | null;
  passed: boolean | null;
  rationale: string | null;
  errorMessage: string | null;
  skipReason: string | null;
  judgeProvider: string | null;
  judgeModel: string | null;
  promptVersion: string | null;
  promptHash: string | null;
  /** A score metric's intermediate verdicts (DeepEval, Mastra), decoded; null for the others. */
  details: VerdictDetails | null;
  chunks: RunResultChunkJudgment[];
};
export type RunResultGeneration = {
  trial: number;
  response: string | null;
  errorMessage: string | null;
  latencySeconds: number | null;
  inputTokenCount: number | null;
  outputTokenCount: number | null;
};
export type RunResultRow = {
  id: string;
  rowNumber: number;
  requestId: string;
  requestRaw: string;
  response: string | null;
  expectedResponse: string | null;
  expectedFacts: string | null;
  chunks: RunResultChunk[];
  judgments: RunResultJudgment[];
  generations: RunResultGeneration[];
};

/** The page's rows joined to one table on `on`; binds (values of `on`…, datasetId, afterRowNumber, lastRowNumber). */
function pageRowsJoined(table: string, on: string): string {
  return `"DatasetRow" r CROSS JOIN ${table} WHERE ${on} AND r."datasetId" = ? AND r."rowNumber" > ? AND r."rowNumber" <= ?`;
}

export async function listRunResultsPage(
  db: Db,
  runId: string,
  datasetId: string,
  afterRowNumber: number,
  take: number,
): Promise<{ rows: RunResultRow[]; nextRowNumber: number | null }> {
  const sql = sqlOf(db);
  const rows = (
    await sql.all<Omit<RunResultRow, "chunks" | "judgments" | "generations">>(
      `SELECT r."id" AS "id", r."rowNumber" AS "rowNumber", r."requestId" AS "requestId", r."requestRaw" AS "requestRaw", r."response" AS "response",
       r."expectedResponse" AS "expectedResponse", r."expectedFacts" AS "expectedFacts"
     FROM "DatasetRow" r WHERE r."datasetId" = ? AND r."rowNumber" > ?
     ORDER BY r."rowNumber" LIMIT ?`,
      [datasetId, afterRowNumber, take],
    )
  ).map((row) => ({
    ...row,
    rowNumber: Number(row.rowNumber),
    chunks: [] as RunResultChunk[],
    judgments: [] as RunResultJudgment[],
    generations: [] as RunResultGeneration[],
  }));
  if (rows.length === 0) return { rows, nextRowNumber: null };
  const range = [datasetId, afterRowNumber, rows[rows.length - 1].rowNumber];
  const byId = new Map(rows.map((row) => [row.id, row]));

  const chunks = await sql.all<RunResultChunk & { rowId: string }>(
    `SELECT c."rowId" AS "rowId", c."kind" AS "kind", c."position" AS "position", c."content" AS "content", c."docUri" AS "docUri"
     FROM ${pageRowsJoined(`"ContextChunk" c`, `c."rowId" = r."id"`)}
     ORDER BY r."rowNumber", c."kind", c."position"`,
    range,
  );
  for (const { rowId, ...chunk } of chunks)
    byId.get(rowId)?.chunks.push({ ...chunk, position: Number(chunk.position) });

  const judgments = await sql.all<
    Omit<RunResultJudgment, "chunks" | "passed" | "details"> & {
      id: string;
      rowId: string;
      passed: number | null;
      details: string | null;
    }
  >(
    `SELECT j."id" AS "id", j."rowId" AS "rowId", j."metric" AS "metric", j."trial" AS "trial", j."status" AS "status", j."rating" AS "rating", j."score" AS "score",
       j."threshold" AS "threshold", j."passed" AS "passed", j."rationale" AS "rationale", j."errorMessage" AS "errorMessage", j."skipReason" AS "skipReason",
       j."judgeProvider" AS "judgeProvider", j."judgeModel" AS "judgeModel", j."promptVersion" AS "promptVersion", j."promptHash" AS "promptHash", j."details" AS "details"
     FROM ${pageRowsJoined(`"JudgmentItem" j`, `j."runId" = ? AND j."rowId" = r."id"`)}
     ORDER BY r."rowNumber", j."metric", j."trial"`,
    [runId, ...range],
  );
  const judgmentById = new Map<string, RunResultJudgment>();
  for (const { id, rowId, passed, details, ...fields } of judgments) {
    const judgment: RunResultJudgment = {
      ...fields,
      trial: Number(fields.trial),
      passed: passed === null ? null : Number(passed) === 1,
      details: decodeVerdictDetails(details),
      chunks: [],
    };
    judgmentById.set(id, judgment);
    byId.get(rowId)?.judgments.push(judgment);
  }

  const { indexHint } = sqlFragments(sql);
  const chunkJudgments = await sql.all<RunResultChunkJudgment & { judgmentId: string }>(
    `SELECT cj."judgmentId" AS "judgmentId", cj."position" AS "position", cj."rating" AS "rating", cj."rationale" AS "rationale", cj."errorMessage" AS "errorMessage"
     FROM ${pageRowsJoined(`"ChunkJudgment" cj${indexHint("ChunkJudgment_runId_rowId_idx")}`, `cj."runId" = ? AND cj."rowId" = r."id"`)}
     ORDER BY r."rowNumber", cj."metric", cj."position"`,
    [runId, ...range],
  );
  for (const { judgmentId, ...verdict } of chunkJudgments)
    judgmentById.get(judgmentId)?.chunks.push({ ...verdict, position: Number(verdict.position) });

  const generations = await sql.all<RunResultGeneration & { rowId: string }>(
    `SELECT g."rowId" AS "rowId", g."trial" AS "trial", g."response" AS "response", g."errorMessage" AS "errorMessage", g."latencySeconds" AS "latencySeconds",
       g."inputTokenCount" AS "inputTokenCount", g."outputTokenCount" AS "outputTokenCount"
     FROM ${pageRowsJoined(`"Generation" g`, `g."runId" = ? AND g."rowId" = r."id"`)}
     ORDER BY r."rowNumber", g."trial"`,
    [runId, ...range],
  );
  for (const { rowId, ...generation } of generations)
    byId.get(rowId)?.generations.push({ ...generation, trial: Number(generation.trial) });

  return { rows, nextRowNumber: rows.length === take ? rows[rows.length - 1].rowNumber : null };
}
