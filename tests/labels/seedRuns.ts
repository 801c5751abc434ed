import { randomUUID } from "node:crypto";
import { sqlOf, type Db } from "@/lib/db/client";
import { readRowKeysInRange } from "@/lib/db/labels/labelQueries";

/**
 * A run whose verdicts the test chooses, written into the real tables the
 * engine writes (Run, JudgmentItem, ChunkJudgment), so agreement can be
 * checked against a hand computation without depending on a judge's output.
 */
export type SeedVerdict = {
  rowNumber: number;
  metric: string;
  status?: "done" | "error" | "skipped" | "pending";
  rating?: "yes" | "no" | null;
  score?: number | null;
  threshold?: number | null;
  rationale?: string;
  /** Per-chunk ratings; "error" writes an errored chunk verdict. */
  chunks?: ("yes" | "no" | "error")[];
};

export async function seedRun(db: Db, datasetId: string, name: string, verdicts: SeedVerdict[]): Promise<string> {
  const runId = randomUUID();
  const rows = await rowIdsByNumber(db, datasetId);
  const judgments: (string | number | null)[][] = [];
  const chunks: (string | number | null)[][] = [];
  for (const verdict of verdicts) {
    const rowId = rows.get(verdict.rowNumber);
    if (!rowId) throw new Error(`no row ${verdict.rowNumber}`);
    const id = randomUUID();
    const status = verdict.status ?? "done";
    judgments.push([
      id,
      runId,
      rowId,
      verdict.metric,
      status,
      verdict.rating ?? null,
      verdict.score ?? null,
      verdict.threshold ?? null,
      status === "error" ? "the judge failed" : null,
      verdict.rationale ?? null,
      // The rows table's per-metric filters page through (runId, metric, status, passed, rowNumber).
      verdict.rowNumber,
    ]);
    (verdict.chunks ?? []).forEach((rating, position) =>
      chunks.push([
        randomUUID(),
        id,
        runId,
        rowId,
        verdict.metric,
        position,
        rating === "error" ? null : rating,
        rating === "error" ? "chunk verdict failed" : null,
      ]),
    );
  }
  await sqlOf(db).bulkInsert([
    {
      table: "Run",
      columns: ["id", "datasetId", "name", "status", "judgeProvider", "judgeModel"],
      rows: [[runId, datasetId, name, "completed", "heuristic", "heuristic"]],
    },
    {
      table: "JudgmentItem",
      columns: [
        "id",
        "runId",
        "rowId",
        "metric",
        "status",
        "rating",
        "score",
        "threshold",
        "errorMessage",
        "rationale",
        "rowNumber",
      ],
      rows: judgments,
    },
    {
      table: "ChunkJudgment",
      columns: ["id", "judgmentId", "runId", "rowId", "metric", "position", "rating", "errorMessage"],
      rows: chunks,
    },
  ]);
  return runId;
}

/** Row id by row number, for writing labels in tests. */
export async function rowIdsByNumber(db: Db, datasetId: string): Promise<Map<number, string>> {
  return new Map((await readRowKeysInRange(db, datasetId, 0, 1_000_000)).map((key) => [key.rowNumber, key.rowId]));
}
