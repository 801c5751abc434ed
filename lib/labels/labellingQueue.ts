import type { Db } from "@/lib/db/client";
import { readQueueUnitsPage } from "@/lib/db/labels/labelQueries";
import { runJudgeLabels } from "./datasetJudges";
import { resolveLabelMetric } from "./labelKinds";
import { createQueueSelection, type LabellingQueue } from "./queueSelection";

export const DEFAULT_QUEUE_TARGET = 100;
export const MAX_QUEUE_TARGET = 2000;
const PAGE = 2000;

/**
 * The labelling queue of one run's judge: reads the run's verdicts page by
 * page (bounded queries, bounded memory) into the stratified selection.
 * The seed defaults to one fixed per metric and run, so the queue is stable.
 */
export async function getLabellingQueue(
  db: Db,
  run: { id: string },
  metricName: string,
  options: { target?: number; seed?: number; viewer?: string; labelsPerRow?: number } = {},
): Promise<LabellingQueue | { error: string }> {
  const resolved = resolveLabelMetric(metricName, await runJudgeLabels(db, run.id));
  if ("error" in resolved) return resolved;
  const target = Math.min(Math.max(1, Math.floor(options.target ?? DEFAULT_QUEUE_TARGET)), MAX_QUEUE_TARGET);
  const selection = createQueueSelection({
    seed: options.seed ?? stableSeed(`${run.id}:${resolved.metric}`),
    target,
    labelsPerRow: options.labelsPerRow,
  });
  let after = { rowNumber: 0, chunkPosition: -1 };
  for (;;) {
    const page = await readQueueUnitsPage(db, run, resolved.metric, {
      perChunk: resolved.kind === "chunk_rating",
      score: resolved.kind === "score",
      after,
      limit: PAGE,
      viewer: options.viewer,
    });
    for (const { requestStart, ...unit } of page)
      selection.add({
        ...unit,
        labelled: unit.labelled === 1,
        elsewhere: unit.elsewhere === 1,
        labels: Number(unit.labels),
        mine: Boolean(Number(unit.mine)),
        reserved: Boolean(Number(unit.reserved)),
        requestLine: firstLine(requestStart),
      });
    if (page.length < PAGE) return selection.finish();
    const last = page[page.length - 1];
    after = { rowNumber: last.rowNumber, chunkPosition: last.chunkPosition };
  }
}

/** The request's first non-blank line, cut to fit one line of the queue. */
export function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((part) => part.trim() !== "") ?? "";
  const trimmed = line.trim();
  return trimmed.length > REQUEST_LINE_CHARS ? `${trimmed.slice(0, REQUEST_LINE_CHARS - 1)}…` : trimmed;
}

const REQUEST_LINE_CHARS = 120;

/** A 32-bit FNV-1a hash of a text: the default seed. */
export function stableSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
