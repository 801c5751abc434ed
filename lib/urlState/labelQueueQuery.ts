import { z } from "zod";
import { firstValues, type SearchParams } from "./searchParams";
import { withParams } from "./withParams";

/**
 * The labelling queue of a run (/runs/:id/label): which judge's verdicts to
 * stratify, how many units to aim for, and the seed of its stable order. The
 * drill-down carries `queue` (and target, seed) when opened from the queue, so
 * "next row to label" walks the same queue.
 */
export const QUEUE_TARGETS = [25, 50, 100, 200, 500, 1000, 2000] as const;
export const DEFAULT_TARGET = 100;

export const labelQueueQuerySchema = z.object({
  queue: z.string().min(1).max(300).optional().catch(undefined),
  target: z.coerce.number().int().min(1).max(2000).catch(DEFAULT_TARGET),
  seed: z.coerce.number().int().min(0).max(4_294_967_295).optional().catch(undefined),
});
export type LabelQueueQuery = z.infer<typeof labelQueueQuerySchema>;

export function parseLabelQueueQuery(searchParams: SearchParams): LabelQueueQuery {
  const flat = firstValues(searchParams);
  return labelQueueQuerySchema.parse({ ...flat, target: flat.target ?? DEFAULT_TARGET });
}

/** The queue page of a run for one metric. */
export function labelQueueHref(runId: string, query: LabelQueueQuery): string {
  return withParams(`/runs/${runId}/label`, {}, { queue: query.queue, target: query.target, seed: query.seed });
}

/** A row of the queue in the drill-down, keeping the queue so ] goes to the queue's next row. */
export function queueRowHref(runId: string, rowId: string, query: LabelQueueQuery): string {
  return withParams(`/runs/${runId}/rows/${rowId}`, {}, { queue: query.queue, target: query.target, seed: query.seed });
}
