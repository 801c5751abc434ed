import type { Db } from "@/lib/db/client";
import { claimGenerations, claimJudgments } from "@/lib/db/work/claims";
import type { JudgeRowData } from "@/lib/db/work/workRows";

export type PendingJudgment = { item: { id: string; rowId: string; metric: string; trial: number }; row: JudgeRowData };

/**
 * Streams the judgments this worker claims from a run, a batch at a time
 * (claims.ts), with the rows they need loaded once per batch. Other workers
 * claim from the same run at the same time; a batch is a worker's own.
 * Lanes pull from one generator, which serialises them. Ends when a claim
 * finds nothing pending.
 */
export async function* claimedJudgments(
  db: Db,
  runId: string,
  workerId: string,
  batchSize: number,
  traceReaders?: ReadonlySet<string>,
): AsyncGenerator<PendingJudgment> {
  for (;;) {
    const { items, rows } = await claimJudgments(db, runId, workerId, batchSize, traceReaders);
    if (items.length === 0) return;
    for (const item of items) {
      const row = rows.get(item.rowId);
      if (!row) continue;
      const trial = Number(item.trial);
      // A trial's judgment reads that trial's generated response (trial 1's is the row's `generation`).
      const generation = row.generationsByTrial.get(trial) ?? null;
      yield { item: { id: item.id, rowId: item.rowId, metric: item.metric, trial }, row: { ...row, generation } };
    }
  }
}

export async function* claimedGenerations(
  db: Db,
  runId: string,
  workerId: string,
  batchSize: number,
): AsyncGenerator<JudgeRowData & { generationId: string; trial: number }> {
  for (;;) {
    const { items, rows } = await claimGenerations(db, runId, workerId, batchSize);
    if (items.length === 0) return;
    for (const item of items) {
      const row = rows.get(item.rowId);
      if (row) yield { ...row, generationId: item.id, trial: Number(item.trial) };
    }
  }
}

/** How many items a worker claims at once: enough to keep every lane busy, few enough to share a run's tail. */
export function claimBatchSize(lanes: number): number {
  return Math.min(200, Math.max(8, lanes));
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
  const yieldNow = async () => {
    if (performance.now() - lastYield <= 10) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    lastYield = performance.now();
  };
  const lane = async () => {
    while (!shouldStop()) {
      const next = await source.next();
      if (next.done) return;
      // Before the work as well as after: a lane's work may wait for the others' (grouped writes), so "after"
      // would come only once every lane had run its synchronous part.
      await yieldNow();
      await worker(next.value);
      await yieldNow();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
}
