import type { Db } from "@/lib/db/client";
import { readLabelQueueSettings } from "@/lib/db/labels/labelQueueSettings";
import { getLabellingQueue } from "@/lib/labels/labellingQueue";
import { parseLabelQueueQuery, queueRowHref } from "@/lib/urlState/labelQueueQuery";
import type { SearchParams } from "@/lib/urlState/searchParams";

/**
 * Where ] (Shift+N) goes from a drill-down: opened from the labelling queue,
 * the queue's next unit on another row (the queue skips what is labelled, so
 * this row drops out once labelled); otherwise the next row of the filter.
 */
export async function nextRowToLabel(
  db: Db,
  run: { id: string; datasetId: string },
  row: { id: string },
  searchParams: SearchParams,
  nextInFilter: string | null,
  viewer: string,
): Promise<string | null> {
  const query = parseLabelQueueQuery(searchParams);
  if (!query.queue) return nextInFilter;
  const setting = (await readLabelQueueSettings(db, run.datasetId)).get(query.queue);
  const queue = await getLabellingQueue(db, run, query.queue, {
    target: query.target,
    seed: query.seed,
    viewer,
    labelsPerRow: setting?.labelsPerRow,
  });
  if ("error" in queue) return nextInFilter;
  const next = queue.next.find((unit) => unit.rowId !== row.id);
  return next ? queueRowHref(run.id, next.rowId, query) : null;
}
