import { z } from "zod";
import { storedAlignedDefinitionSchema, type AlignedDefinition } from "@/lib/contract/judgeDefinitions";
import { sqlOf, type Db } from "../client";
import { orderedUuid } from "../orderedUuid";
import {
  measurementStoppedSql,
  startWithinRunsInProgressLimit,
  type RunsInProgressLimit,
  type StartedWithinLimit,
} from "../runs/runsInProgress";
import { sqlFragments } from "../store/sqlFragments";
import type { SqlRunner } from "../store/sqlRunner";
import { readStoreClock } from "../store/storeClock";
import { isUniqueViolation } from "../store/uniqueViolation";

/**
 * The aligned versions of a dataset's judges (JudgeAlignment): stored with their split, examples and
 * guidance when made, their held-out comparison once measured, and what the user decided. Every call
 * of the alignment flow goes through these; JSON columns are decoded and checked here. A measurement's
 * heartbeat is written, and found stale, by the store's clock (measurementStoppedSql), never by the clock
 * of the server asking: servers on several machines agree on whose measurement has stopped.
 */
export const ALIGNMENT_STATUSES = ["measuring", "measured", "failed", "adopted", "discarded"] as const;
export type AlignmentStatus = (typeof ALIGNMENT_STATUSES)[number];

const keysSchema = z.array(z.string());
const examplesSchema = z.array(
  z.object({ key: z.string(), label: z.enum(["yes", "no"]), text: z.string(), reason: z.string().nullable() }),
);

export type StoredAlignment = {
  id: string;
  datasetId: string;
  metric: string;
  version: number;
  seed: string;
  heldOutShare: number;
  trainingKeys: string[];
  heldOutKeys: string[];
  examples: z.infer<typeof examplesSchema>;
  guidance: string | null;
  promptSuffix: string;
  /** The aligned judge: its name and its whole definition as a run takes it. */
  judgeName: string;
  definition: AlignedDefinition;
  judgeModel: string;
  status: AlignmentStatus;
  progress: { done: number; total: number; heartbeatAt: Date | null };
  errorMessage: string | null;
  spent: AlignmentSpending;
  /** The held-out comparison as stored (lib/alignment/heldOutComparison.ts); null until measured. */
  comparison: unknown;
  baseRunId: string | null;
  createdAt: Date;
};

export type AlignmentSpending = { llmCalls: number; inputTokens: number; outputTokens: number; costUsd: number | null };

type Row = Awaited<ReturnType<Db["judgeAlignment"]["findFirstOrThrow"]>>;

function decode(row: Row): StoredAlignment {
  return {
    id: row.id,
    datasetId: row.datasetId,
    metric: row.metric,
    version: row.version,
    seed: row.seed,
    heldOutShare: row.heldOutShare,
    trainingKeys: keysSchema.parse(JSON.parse(row.trainingKeys)),
    heldOutKeys: keysSchema.parse(JSON.parse(row.heldOutKeys)),
    examples: examplesSchema.parse(JSON.parse(row.examples)),
    guidance: row.guidance,
    promptSuffix: row.promptSuffix,
    judgeName: row.judgeName,
    definition: storedAlignedDefinitionSchema.parse(JSON.parse(row.definition)),
    judgeModel: row.judgeModel,
    status: z.enum(ALIGNMENT_STATUSES).parse(row.status),
    progress: { done: row.progressDone, total: row.progressTotal, heartbeatAt: row.heartbeatAt },
    errorMessage: row.errorMessage,
    spent: {
      llmCalls: row.llmCalls,
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      costUsd: row.costUsd,
    },
    comparison: row.comparison === null ? null : z.unknown().parse(JSON.parse(row.comparison)),
    baseRunId: row.baseRunId,
    createdAt: row.createdAt,
  };
}

export type NewAlignment = Omit<
  StoredAlignment,
  | "id"
  | "version"
  | "status"
  | "comparison"
  | "createdAt"
  | "judgeName"
  | "definition"
  | "progress"
  | "errorMessage"
  | "spent"
> & {
  createdById: string | null;
  /** The aligned judge's definition for the version number this alignment gets. */
  defineJudge(version: number): AlignedDefinition;
};

/**
 * Stores a new aligned version, being measured, as the next version of its (dataset, metric): two made at
 * once get two numbers. Its progress counts the held-out units its aligned version is to judge.
 */
export async function createAlignment(db: Db, alignment: NewAlignment): Promise<StoredAlignment> {
  const created = await createAlignmentWithinLimit(db, alignment, null);
  if (!created.ok) throw new Error("an alignment without a limit was refused");
  return created.value;
}

/**
 * createAlignment, counted as one of its creator's runs in progress: stored only while they have fewer than
 * the limit (lib/db/runs/runsInProgress.ts), the count and the row in one transaction.
 */
export async function createAlignmentWithinLimit(
  db: Db,
  alignment: NewAlignment,
  limit: RunsInProgressLimit,
): Promise<StartedWithinLimit<StoredAlignment>> {
  for (let attempt = 0; ; attempt++) {
    try {
      const started = await startWithinRunsInProgressLimit(db, limit, (tx) => insertAlignment(tx, alignment));
      if (!started.ok) return started;
      const row = await db.judgeAlignment.findUniqueOrThrow({ where: { id: started.value } });
      return { ok: true, value: decode(row) };
    } catch (error) {
      // Another alignment of the same judge took this version number first: take the next.
      if (attempt < 5 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

const ALIGNMENT_COLUMNS = [
  "id",
  "datasetId",
  "metric",
  "version",
  "judgeName",
  "definition",
  "judgeModel",
  "status",
  "progressDone",
  "progressTotal",
  "heartbeatAt",
  "seed",
  "heldOutShare",
  "trainingKeys",
  "heldOutKeys",
  "examples",
  "guidance",
  "promptSuffix",
  "baseRunId",
  "createdById",
  "createdAt",
] as const;

/** The row, as the next version of its judge, through the transaction that counted it; resolves to its id. */
async function insertAlignment(tx: SqlRunner, alignment: NewAlignment): Promise<string> {
  const last = await tx.get<{ version: number }>(
    `SELECT MAX("version") AS "version" FROM "JudgeAlignment" WHERE "datasetId" = ? AND "metric" = ?`,
    [alignment.datasetId, alignment.metric],
  );
  const version = Number(last?.version ?? 0) + 1;
  const definition = alignment.defineJudge(version);
  const id = orderedUuid();
  const now = await readStoreClock(tx);
  await tx.bulkInsert([
    {
      table: "JudgeAlignment",
      columns: ALIGNMENT_COLUMNS,
      rows: [
        [
          id,
          alignment.datasetId,
          alignment.metric,
          version,
          definition.type === "custom" ? definition.judge.assessmentName : definition.judge.name,
          JSON.stringify(definition),
          alignment.judgeModel,
          "measuring",
          0,
          alignment.heldOutKeys.length,
          now,
          alignment.seed,
          alignment.heldOutShare,
          JSON.stringify(alignment.trainingKeys),
          JSON.stringify(alignment.heldOutKeys),
          JSON.stringify(alignment.examples),
          alignment.guidance,
          alignment.promptSuffix,
          alignment.baseRunId,
          alignment.createdById,
          now,
        ],
      ],
    },
  ]);
  return id;
}

export async function getAlignment(db: Db, id: string): Promise<StoredAlignment | null> {
  const row = await db.judgeAlignment.findUnique({ where: { id } });
  return row ? decode(row) : null;
}

/** A judge's aligned versions on a dataset, newest first. */
export async function listAlignments(db: Db, datasetId: string, metric: string): Promise<StoredAlignment[]> {
  const rows = await db.judgeAlignment.findMany({ where: { datasetId, metric }, orderBy: { version: "desc" } });
  return rows.map(decode);
}

/**
 * The label keys every earlier alignment of this judge held out: a new alignment keeps them out of its
 * training, so the figures measured on them stay honest.
 */
export async function heldOutKeysOfEarlierAlignments(db: Db, datasetId: string, metric: string): Promise<Set<string>> {
  const rows = await db.judgeAlignment.findMany({ where: { datasetId, metric }, select: { heldOutKeys: true } });
  return new Set(rows.flatMap((row) => keysSchema.parse(JSON.parse(row.heldOutKeys))));
}

/** A measurement's progress and its sign of life: the held-out units judged so far and what they cost. */
export async function recordAlignmentProgress(
  db: Db,
  id: string,
  progress: { done: number; spent: AlignmentSpending },
): Promise<void> {
  const now = await readStoreClock(sqlOf(db));
  await db.judgeAlignment.updateMany({
    where: { id, status: "measuring" },
    data: { progressDone: progress.done, heartbeatAt: now, ...spendingColumns(progress.spent) },
  });
}

/** The held-out comparison, once both versions judged the held-out rows: the alignment is then measured. */
export async function recordAlignmentComparison(
  db: Db,
  id: string,
  comparison: unknown,
  measured: { done: number; spent: AlignmentSpending },
): Promise<void> {
  const now = await readStoreClock(sqlOf(db));
  await db.judgeAlignment.update({
    where: { id },
    data: {
      comparison: JSON.stringify(comparison),
      status: "measured",
      errorMessage: null,
      progressDone: measured.done,
      heartbeatAt: now,
      ...spendingColumns(measured.spent),
    },
  });
}

/** A measurement that could not finish (the judge unreachable, the alignment refused): it can be measured again. */
export async function recordAlignmentFailure(
  db: Db,
  id: string,
  message: string,
  spent?: AlignmentSpending,
): Promise<void> {
  const now = await readStoreClock(sqlOf(db));
  await db.judgeAlignment.updateMany({
    where: { id, status: "measuring" },
    data: {
      status: "failed",
      errorMessage: message.slice(0, 2000),
      heartbeatAt: now,
      ...(spent ? spendingColumns(spent) : {}),
    },
  });
}

/**
 * Claims an alignment for measuring: a failed one, or one whose measuring process stopped giving signs of
 * life (its server stopped: measurementStoppedSql). False when another process is measuring it.
 */
export async function claimAlignmentMeasurement(db: Db, id: string): Promise<boolean> {
  const claimed = await claimAlignmentMeasurementWithinLimit(db, id, null);
  return claimed.ok && claimed.value;
}

/**
 * claimAlignmentMeasurement, counted as one of the user's runs in progress: claimed only while they have fewer
 * than the limit (the alignment itself, failed or stopped, is not among them until claimed).
 */
export async function claimAlignmentMeasurementWithinLimit(
  db: Db,
  id: string,
  limit: RunsInProgressLimit,
): Promise<StartedWithinLimit<boolean>> {
  return startWithinRunsInProgressLimit(
    db,
    limit,
    async (tx) =>
      (await tx.run(
        `UPDATE "JudgeAlignment" SET "status" = 'measuring', "errorMessage" = NULL, "heartbeatAt" = ${sqlFragments(tx).storeTime()}
          WHERE "id" = ? AND ("status" = 'failed' OR ("status" = 'measuring' AND ${measurementStoppedSql(tx)}))`,
        [id],
      )) === 1,
  );
}

/**
 * Whether an alignment is `measuring` under a process that stopped giving signs of life (its server
 * stopped), as the store's clock says: its page then offers to measure it again.
 */
export async function isAlignmentMeasurementStopped(db: Db, id: string): Promise<boolean> {
  const sql = sqlOf(db);
  const row = await sql.get<{ stopped: number }>(
    `SELECT COUNT(*) AS "stopped" FROM "JudgeAlignment"
      WHERE "id" = ? AND "status" = 'measuring' AND ${measurementStoppedSql(sql)}`,
    [id],
  );
  return Number(row?.stopped ?? 0) > 0;
}

/**
 * A measurement again refused (the spending limits, the runs in progress): the alignment, failed or stopped,
 * is failed with why, which its page shows beside the button to try again. One being measured is left alone.
 */
export async function recordAlignmentRefusal(db: Db, id: string, message: string): Promise<void> {
  const sql = sqlOf(db);
  await sql.run(
    `UPDATE "JudgeAlignment" SET "status" = 'failed', "errorMessage" = ?
      WHERE "id" = ? AND ("status" = 'failed' OR ("status" = 'measuring' AND ${measurementStoppedSql(sql)}))`,
    [message.slice(0, 2000), id],
  );
}

function spendingColumns(spent: AlignmentSpending) {
  return {
    llmCalls: spent.llmCalls,
    inputTokens: spent.inputTokens,
    outputTokens: spent.outputTokens,
    costUsd: spent.costUsd,
  };
}

/** The user's decision on a measured alignment (an adopted one may still be discarded later). */
export async function decideAlignment(db: Db, id: string, status: "adopted" | "discarded"): Promise<boolean> {
  const from = status === "adopted" ? ["measured"] : ["measured", "adopted", "failed"];
  const { count } = await db.judgeAlignment.updateMany({ where: { id, status: { in: from } }, data: { status } });
  return count === 1;
}

/** A dataset's adopted aligned judges, newest first: what the run form offers. */
export async function listAdoptedAlignments(db: Db, datasetId: string): Promise<StoredAlignment[]> {
  const rows = await db.judgeAlignment.findMany({
    where: { datasetId, status: "adopted" },
    orderBy: [{ createdAt: "desc" }],
  });
  return rows.map(decode);
}

/** The alignments that made these judges of a dataset (by the aligned judge's name): a run's aligned judges' proofs. */
export async function findAlignmentsOfJudges(
  db: Db,
  datasetId: string,
  judgeNames: readonly string[],
): Promise<StoredAlignment[]> {
  if (judgeNames.length === 0) return [];
  const rows = await db.judgeAlignment.findMany({
    where: { datasetId, judgeName: { in: [...judgeNames] } },
    orderBy: [{ createdAt: "desc" }],
  });
  return rows.map(decode);
}
