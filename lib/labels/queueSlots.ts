import type { Db } from "@/lib/db/client";
import { readLabelQueueSettings } from "@/lib/db/labels/labelQueueSettings";
import { readKeyLabelCount, reserveLastSlot } from "@/lib/db/labels/labelReservations";

/**
 * A labeller opens a row from a queue that asks for several labels per row: if the row needs only one
 * more label and they have not given theirs, its last slot is claimed for them (labelReservations.ts),
 * so the queue offers it to nobody else meanwhile. Whole-row labels only: a per-chunk queue claims none.
 */
export type SlotClaim = "claimed" | "held" | "none";

export async function claimQueueSlot(
  db: Db,
  key: { datasetId: string; rowId: string; metric: string },
  viewer: string,
): Promise<SlotClaim> {
  const setting = (await readLabelQueueSettings(db, key.datasetId)).get(key.metric);
  const needed = setting?.labelsPerRow ?? 1;
  if (needed <= 1) return "none";
  const counts = await readKeyLabelCount(db, key, viewer);
  if (counts.mine || counts.labels !== needed - 1) return "none";
  return (await reserveLastSlot(db, { ...key, chunkPosition: -1 }, viewer)) ? "claimed" : "held";
}
