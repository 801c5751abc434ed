import type { JudgeResult } from "@/lib/contract/judgeResult";
import { sqlOf, type Db } from "../client";
import type { SqlRunner, SqlValue } from "../store/sqlRunner";
import { ADD_TO_WORKER_SPENDING, addWorkerSpending, nextSpendingShard } from "./runSpending";
import type { Claimant } from "./runWrites";
import { orderedUuid } from "../orderedUuid";

export type SavedJudgment = Omit<JudgeResult, "chunks" | "usage"> & {
  chunks?: JudgeResult["chunks"];
  usage: JudgeResult["usage"];
  threshold: number | null;
  passed: boolean | null;
  costUsd: number | null;
};

/** One finished judgment to write, and the calls its worker had reserved for it against the run's call budget. */
export type JudgmentToSave = {
  item: { id: string; rowId: string; metric: string };
  result: SavedJudgment;
  reservedCalls?: number;
};

/**
 * Writes finished judgments of one run, their per-chunk verdicts and what
 * they spent, in one transaction, each only if the writer still holds its
 * claim (`workerId`; with none, only a judgment still pending may be written:
 * tests and tools that write results directly). A judgment is written once,
 * never twice, even when a claim was taken back from a worker thought gone
 * that then finished anyway. Resolves to whether each was written, in order;
 * the spending of those that were not is not added.
 *
 * Many at a time because a worker's results arrive many at a time: on
 * PostgreSQL the batch is one statement (an UPDATE over the batch's values,
 * the chunks' INSERT and the spending's upsert as its parts) between BEGIN and
 * COMMIT, and a large batch keeps its tallies per statement, not per judgment.
 */
export async function saveJudgments(
  db: Db,
  runId: string,
  workerId: string | null,
  judgments: readonly JudgmentToSave[],
): Promise<boolean[]> {
  if (judgments.length === 0) return [];
  const sql = sqlOf(db);
  // The results of a batch finished within a few milliseconds of each other: one finishing time for them all.
  const finishedAt = new Date();
  // In row order: on PostgreSQL the rows' kept verdicts, which a row's other metrics also write (and another
  // worker's batch may hold), are locked in the order the judgments are updated, so two batches sharing rows
  // take them in one order rather than deadlock. They are updated inside COMMIT (row triggers) or by the
  // statement's trigger (a large batch) and then held one round trip, until COMMIT.
  const inRowOrder = [...judgments.keys()].sort((a, b) =>
    compareText(judgments[a].item.rowId, judgments[b].item.rowId),
  );
  const ordered = inRowOrder.map((i) => judgments[i]);
  const written = await sql.transaction(
    (tx) =>
      tx.dialect === "postgresql"
        ? writeAsOneStatement(tx, runId, workerId, ordered, finishedAt)
        : writeOneByOne(tx, runId, workerId, ordered, finishedAt),
    { readCommitted: true, relaxedDurability: true, bulkTallies: judgments.length >= BULK_TALLIES_FROM },
  );
  const outcomes: boolean[] = Array(judgments.length).fill(false);
  inRowOrder.forEach((original, position) => (outcomes[original] = written[position]));
  return outcomes;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * From how many results a batch keeps the tallies per statement: a statement's trigger reads its transition
 * tables and groups them, a fixed cost that a judgment's own row trigger undercuts for a batch of a few.
 */
const BULK_TALLIES_FROM = 8;

/** Writes one judgment (saveJudgments with one); false when it was not the writer's to write. */
export async function saveJudgment(
  db: Db,
  item: { id: string; runId: string; rowId: string; metric: string },
  result: SavedJudgment,
  claimant: Claimant | null = null,
): Promise<boolean> {
  const [written] = await saveJudgments(db, item.runId, claimant?.workerId ?? null, [
    { item, result, reservedCalls: claimant?.reservedCalls },
  ]);
  return written;
}

/** The columns a result sets, in the order both writers bind them. */
function resultValues({ result }: JudgmentToSave) {
  return {
    status: result.errorMessage ? "error" : "done",
    rating: result.rating,
    score: result.score,
    threshold: result.threshold,
    passed: result.passed,
    rationale: result.rationale,
    errorMessage: result.errorMessage,
    details: result.details ? JSON.stringify(result.details) : null,
    judgeProvider: result.provider,
    judgeModel: result.model,
    promptVersion: result.promptVersion,
    promptHash: result.promptHash,
    cacheHit: result.cacheHit,
    attempts: result.attempts,
    inputTokens: result.usage?.inputTokens ?? null,
    outputTokens: result.usage?.outputTokens ?? null,
    costUsd: result.costUsd,
    latencyMs: result.latencyMs === null || result.latencyMs === undefined ? null : Math.round(result.latencyMs),
  };
}
type ResultColumn = keyof ReturnType<typeof resultValues>;

/** Each result column's PostgreSQL type, for the arrays the batch travels in. */
const RESULT_TYPES: Record<ResultColumn, string> = {
  status: "text",
  rating: "text",
  score: "float8",
  threshold: "float8",
  passed: "bool",
  rationale: "text",
  errorMessage: "text",
  details: "text",
  judgeProvider: "text",
  judgeModel: "text",
  promptVersion: "text",
  promptHash: "text",
  cacheHit: "bool",
  attempts: "int4",
  inputTokens: "int4",
  outputTokens: "int4",
  costUsd: "float8",
  latencyMs: "int4",
};
/** One value of a batch's column. */
type SqlItem = Extract<SqlValue, readonly unknown[]>[number];

const RESULT_COLUMNS = Object.keys(RESULT_TYPES) as ResultColumn[];
const CHUNK_COLUMNS = ["id", "judgmentId", "position", "rating", "rationale", "errorMessage"] as const;
const CHUNK_TYPES = ["text", "text", "int4", "text", "text", "text"];

function writable(workerId: string | null, table: string): string {
  return workerId === null
    ? `${table}."status" = 'pending'`
    : `${table}."status" = 'running' AND ${table}."claimedBy" = ?`;
}

/**
 * PostgreSQL: each column of the batch travels as one array, `unnest` turns
 * them back into rows, and the UPDATE's RETURNING says which judgments were
 * the writer's: only their chunks are inserted and only their spending added.
 */
async function writeAsOneStatement(
  tx: SqlRunner,
  runId: string,
  workerId: string | null,
  judgments: readonly JudgmentToSave[],
  finishedAt: Date,
): Promise<boolean[]> {
  const values = judgments.map(resultValues);
  const chunks = judgments.flatMap(({ item, result }) =>
    (result.chunks ?? []).map((chunk): SqlItem[] => [
      orderedUuid(),
      item.id,
      chunk.position,
      chunk.rating,
      chunk.rationale,
      chunk.errorMessage,
    ]),
  );
  const columnsOf = (rows: SqlItem[][], width: number) =>
    Array.from({ length: width }, (_, i) => rows.map((row) => row[i]));
  const written = await tx.all<{ id: string }>(
    `WITH v AS (
       SELECT * FROM unnest(?::text[], ?::int4[], ${RESULT_COLUMNS.map((c) => `?::${RESULT_TYPES[c]}[]`).join(", ")})
         AS v("id", "reservedCalls", ${RESULT_COLUMNS.map((c) => `"${c}"`).join(", ")})
     ), written AS (
       UPDATE "JudgmentItem" j SET ${RESULT_COLUMNS.map((c) => `"${c}" = v."${c}"`).join(", ")},
         "finishedAt" = ?::timestamp, "claimedBy" = NULL, "claimedAt" = NULL
       FROM v WHERE j."id" = v."id" AND ${writable(workerId, "j")}
       RETURNING j."id", j."runId", j."rowId", j."metric"
     ), chunks AS (
       INSERT INTO "ChunkJudgment" ("id", "judgmentId", "runId", "rowId", "metric", "position", "rating", "rationale", "errorMessage")
       SELECT c."id", c."judgmentId", w."runId", w."rowId", w."metric", c."position", c."rating", c."rationale", c."errorMessage"
       FROM unnest(${CHUNK_TYPES.map((type) => `?::${type}[]`).join(", ")}) AS c(${CHUNK_COLUMNS.map((c) => `"${c}"`).join(", ")})
       JOIN written w ON w."id" = c."judgmentId"
     ), spent AS (
       INSERT INTO "RunWorkerSpending" ("runId", "workerId", "shard", "calls", "tokens", "usd", "heldCalls")
       SELECT ?::text, ?::text, ?::int4, SUM(v."attempts"), SUM(COALESCE(v."inputTokens", 0) + COALESCE(v."outputTokens", 0)),
         SUM(COALESCE(v."costUsd", 0)), -SUM(v."reservedCalls")
       FROM v JOIN written w ON w."id" = v."id" HAVING COUNT(*) > 0
       ${ADD_TO_WORKER_SPENDING}
     )
     SELECT "id" FROM written`,
    [
      judgments.map(({ item }) => item.id),
      judgments.map(({ reservedCalls }) => reservedCalls ?? 0),
      ...RESULT_COLUMNS.map((c) => values.map((row) => row[c])),
      finishedAt,
      ...(workerId === null ? [] : [workerId]),
      ...columnsOf(chunks, CHUNK_COLUMNS.length),
      runId,
      workerId ?? "direct",
      nextSpendingShard(),
    ],
  );
  const ids = new Set(written.map((row) => row.id));
  return judgments.map(({ item }) => ids.has(item.id));
}

/** SQLite: statements cost no round trip, so each judgment is its own UPDATE, all inside the one transaction. */
async function writeOneByOne(
  tx: SqlRunner,
  runId: string,
  workerId: string | null,
  judgments: readonly JudgmentToSave[],
  finishedAt: Date,
): Promise<boolean[]> {
  const spent = { calls: 0, tokens: 0, usd: 0, reservedCalls: 0 };
  const outcomes: boolean[] = [];
  for (const judgment of judgments) {
    const values = resultValues(judgment);
    const changed = await tx.run(
      `UPDATE "JudgmentItem" SET ${RESULT_COLUMNS.map((c) => `"${c}" = ?`).join(", ")},
         "finishedAt" = ?, "claimedBy" = NULL, "claimedAt" = NULL
       WHERE "id" = ? AND ${writable(workerId, `"JudgmentItem"`)}`,
      [
        ...RESULT_COLUMNS.map((c) => values[c] ?? null),
        finishedAt,
        judgment.item.id,
        ...(workerId === null ? [] : [workerId]),
      ],
    );
    outcomes.push(changed > 0);
    if (changed === 0) continue;
    const chunks = judgment.result.chunks ?? [];
    if (chunks.length > 0)
      await tx.bulkInsert([
        {
          table: "ChunkJudgment",
          columns: ["id", "judgmentId", "runId", "rowId", "metric", "position", "rating", "rationale", "errorMessage"],
          rows: chunks.map((chunk) => [
            orderedUuid(),
            judgment.item.id,
            runId,
            judgment.item.rowId,
            judgment.item.metric,
            chunk.position,
            chunk.rating,
            chunk.rationale,
            chunk.errorMessage,
          ]),
        },
      ]);
    spent.calls += values.attempts;
    spent.tokens += (values.inputTokens ?? 0) + (values.outputTokens ?? 0);
    spent.usd += values.costUsd ?? 0;
    spent.reservedCalls += judgment.reservedCalls ?? 0;
  }
  if (outcomes.some(Boolean)) await addWorkerSpending(tx, runId, workerId ?? "direct", spent);
  return outcomes;
}
