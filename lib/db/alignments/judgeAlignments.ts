import { z } from "zod";
import type { Db } from "../client";
import { isUniqueViolation } from "../store/uniqueViolation";

/**
 * The aligned versions of a dataset's judges (JudgeAlignment): stored with their split, examples and
 * guidance when made, their held-out comparison once measured, and what the user decided. Every call
 * of the alignment flow goes through these; JSON columns are decoded and checked here.
 */
export const ALIGNMENT_STATUSES = ["draft", "measured", "adopted", "discarded"] as const;
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
  status: AlignmentStatus;
  /** The held-out comparison as stored (lib/alignment/heldOutComparison.ts); null until measured. */
  comparison: unknown;
  baseRunId: string | null;
  createdAt: Date;
};

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
    status: z.enum(ALIGNMENT_STATUSES).parse(row.status),
    comparison: row.comparison === null ? null : z.unknown().parse(JSON.parse(row.comparison)),
    baseRunId: row.baseRunId,
    createdAt: row.createdAt,
  };
}

export type NewAlignment = Omit<StoredAlignment, "id" | "version" | "status" | "comparison" | "createdAt"> & {
  createdById: string | null;
};

/** Stores a new aligned version as the next version of its (dataset, metric); two made at once get two numbers. */
export async function createAlignment(db: Db, alignment: NewAlignment): Promise<StoredAlignment> {
  for (let attempt = 0; ; attempt++) {
    const last = await db.judgeAlignment.findFirst({
      where: { datasetId: alignment.datasetId, metric: alignment.metric },
      orderBy: { version: "desc" },
      select: { version: true },
    });
    try {
      const row = await db.judgeAlignment.create({
        data: {
          datasetId: alignment.datasetId,
          metric: alignment.metric,
          version: (last?.version ?? 0) + 1,
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

/** The held-out comparison, once both versions judged the held-out rows: the alignment is then measured. */
export async function recordAlignmentComparison(db: Db, id: string, comparison: unknown): Promise<void> {
  await db.judgeAlignment.update({
    where: { id },
    data: { comparison: JSON.stringify(comparison), status: "measured" },
  });
}

/** The user's decision on a measured alignment. */
export async function decideAlignment(db: Db, id: string, status: "adopted" | "discarded"): Promise<boolean> {
  const { count } = await db.judgeAlignment.updateMany({ where: { id, status: "measured" }, data: { status } });
  return count === 1;
}
