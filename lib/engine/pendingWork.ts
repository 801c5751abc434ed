import type { Db } from "@/lib/db/client";
import {
  listPendingGenerationsWithRows,
  listPendingJudgmentsWithRows,
  type JudgeRowData,
} from "@/lib/db/work/pendingWorkQueries";

export type PendingJudgment = { item: { id: string; rowId: string; metric: string }; row: JudgeRowData };

/**
 * Streams a run's pending judgments page by page (cursor on the item's
 * position, so items being worked on are not fetched again), with the rows
 * they need loaded once per page. Several workers may pull from it; an async generator serialises them.
 */
export async function* pendingJudgments(db: Db, runId: string, pageSize = 400): AsyncGenerator<PendingJudgment> {
  let cursor = 0;
  for (;;) {
    const { items, rows } = await listPendingJudgmentsWithRows(db, runId, cursor, pageSize);
    if (items.length === 0) return;
    cursor = items[items.length - 1].position;
    for (const item of items) {
      const row = rows.get(item.rowId);
      if (row) yield { item: { id: item.id, rowId: item.rowId, metric: item.metric }, row };
    }
  }
}

export async function* pendingGenerations(
  db: Db,
  runId: string,
  pageSize = 400,
): AsyncGenerator<PendingJudgment["row"] & { generationId: string }> {
  let cursor = 0;
  for (;;) {
    const { items, rows } = await listPendingGenerationsWithRows(db, runId, cursor, pageSize);
    if (items.length === 0) return;
    cursor = items[items.length - 1].position;
    for (const item of items) {
      const row = rows.get(item.rowId);
      if (row) yield { ...row, generationId: item.id };
    }
  }
}

/**
 * Runs `worker` over everything `source` yields with at most `concurrency` at
 * once. Work that never waits on I/O (the offline judge, cache hits) would
 * otherwise run as one unbroken chain of microtasks and starve the web server
 * that hosts the run; so the lanes hand the event loop back every few ms.
 */
export async function forEachConcurrently<T>(
  source: AsyncIterator<T>,
  concurrency: number,
  worker: (value: T) => Promise<void>,
  shouldStop: () => boolean,
): Promise<void> {
  let lastYield = performance.now();
  const lane = async () => {
    while (!shouldStop()) {
      const next = await source.next();
      if (next.done) return;
      await worker(next.value);
      if (performance.now() - lastYield > 10) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        lastYield = performance.now();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
}
