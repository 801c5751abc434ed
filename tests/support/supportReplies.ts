import type { Db } from "@/lib/db/client";
import { writeLabels } from "@/lib/db/labels/labelWrites";

/**
 * The alignment tests' dataset: support replies, the even-numbered ones rude ("Figure it out yourself"),
 * and the people's labels on them: no on every rude row, yes on the others, for yes/no judges and (as 0 or 1)
 * for score judges. A judge that says yes to everything agrees on half; one that follows the examples, on all.
 */
export function supportReplies(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    request_id: `q${i + 1}`,
    request: `Can you help with order ${i + 1}?`,
    response: i % 2 === 1 ? "Figure it out yourself, not my problem." : "Glad to help: here is what to do next.",
  }));
}

export const RUDE_REASON = "It brushes the customer off.";
export const POLITE_REASON = "It offers help.";

/** Row numbers count from 1: the even ones are the rude replies. */
export const isRudeRow = (rowNumber: number) => rowNumber % 2 === 0;

export async function labelRudeReplies(
  db: Db,
  datasetId: string,
  metrics: { ratings: readonly string[]; scores: readonly string[] },
  /** Give each yes/no label the labeller's reason too. */
  options: { reasons?: boolean } = {},
): Promise<void> {
  const rows = await db.datasetRow.findMany({ where: { datasetId }, select: { id: true, rowNumber: true } });
  await writeLabels(
    db,
    datasetId,
    rows.map((row) => ({
      rowId: row.id,
      entries: [
        ...metrics.ratings.map((metric) => ({
          metric,
          chunkPosition: -1,
          value: { kind: "rating" as const, rating: isRudeRow(row.rowNumber) ? ("no" as const) : ("yes" as const) },
          ...(options.reasons ? { reason: isRudeRow(row.rowNumber) ? RUDE_REASON : POLITE_REASON } : {}),
        })),
        ...metrics.scores.map((metric) => ({
          metric,
          chunkPosition: -1,
          value: { kind: "score" as const, score: isRudeRow(row.rowNumber) ? 0 : 1 },
        })),
      ],
    })),
    // The laptop's local admin: the same person who labels rows by hand on its pages, so their labels are one person's.
    { labelledBy: "local", source: "upload" },
  );
}
