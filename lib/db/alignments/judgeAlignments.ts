import { z } from "zod";
import { alignedDefinitionSchema, type AlignedDefinition } from "@/lib/alignment/alignedDefinition";
import type { Db } from "../client";
import { isUniqueViolation } from "../store/uniqueViolation";

/**
 * The aligned versions of a dataset's judges (JudgeAlignment): stored with their split, examples and
 * guidance when made, their held-out comparison once measured, and what the user decided. Every call
 * of the alignment flow goes through these; JSON columns are decoded and checked here.
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
    definition: alignedDefinitionSchema.parse(JSON.parse(row.definition)),
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
  for (let attempt = 0; ; attempt++) {
    const last = await db.judgeAlignment.findFirst({
      where: { datasetId: alignment.datasetId, metric: alignment.metric },
      orderBy: { version: "desc" },
      select: { version: true },
    });
    try {
      const version = (last?.version ?? 0) + 1;
      const definition = alignment.defineJudge(version);
      const row = await db.judgeAlignment.create({
        data: {
          datasetId: alignment.datasetId,
          metric: alignment.metric,
          version,
          judgeName: definition.type === "custom" ? definition.judge.assessmentName : definition.judge.name,
          definition: JSON.stringify(definition),
          judgeModel: alignment.judgeModel,
          progressTotal: alignment.heldOutKeys.length,
          heartbeatAt: new Date(),
          seed: alignment.seed,
          heldOutShare: alignment.heldOutShare,
          trainingKeys: JSON.stringify(alignment.trainingKeys),
          heldOutKeys: JSON.stringify(alignment.heldOutKeys),
          examples: JSON.stringify(alignment.examples),
          guidance: alignment.guidance,
          promptSuffix: alignment.promptSuffix,
          baseRunId: alignment.baseRunId,
          createdById: alignment.createdById,
        },
      });
      return decode(row);
    } catch (error) {
      // Another alignment of the same judge took this version number first: take the next.
      if (attempt < 5 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
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
  await db.judgeAlignment.updateMany({
    where: { id, status: "measuring" },
    data: { progressDone: progress.done, heartbeatAt: new Date(), ...spendingColumns(progress.spent) },
  });
}

/** The held-out comparison, once both versions judged the held-out rows: the alignment is then measured. */
export async function recordAlignmentComparison(
  db: Db,
  id: string,
  comparison: unknown,
  measured: { done: number; spent: AlignmentSpending },
): Promise<void> {
  await db.judgeAlignment.update({
    where: { id },
    data: {
      comparison: JSON.stringify(comparison),
      status: "measured",
      errorMessage: null,
      progressDone: measured.done,
      heartbeatAt: new Date(),
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
  await db.judgeAlignment.updateMany({
    where: { id, status: "measuring" },
    data: {
      status: "failed",
      errorMessage: message.slice(0, 2000),
      heartbeatAt: new Date(),
      ...(spent ? spendingColumns(spent) : {}),
    },
  });
}

/**
 * Claims an alignment for measuring: a failed one, or one whose measuring process stopped giving signs of
 * life (its server stopped) before `staleBefore`. False when another process is measuring it.
 */
export async function claimAlignmentMeasurement(db: Db, id: string, staleBefore: Date): Promise<boolean> {
  const { count } = await db.judgeAlignment.updateMany({
    where: {
      id,
      OR: [
        { status: "failed" },
        { status: "measuring", OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: staleBefore } }] },
      ],
    },
    data: { status: "measuring", errorMessage: null, heartbeatAt: new Date() },
  });
  return count === 1;
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
