/**
 * Group commit for a worker's results. Each lane hands in its result and
 * waits for its own outcome; the writes go out one batch at a time, and
 * whatever arrived while a batch was being written goes in the next. The
 * first entry of a quiet spell waits `gatherMs` (or one tick) for others, or
 * until `flushAt` (else `maxBatch`) are in: a transaction's COMMIT, and the
 * index pages it writes, are most of what a small write costs, so results
 * that trickle in (a judge answering in 200 ms, 64 calls in flight: one every
 * 3 ms) share one. When the store is the bottleneck, batches grow by
 * themselves.
 *
 * When a batch fails, each of its entries is written alone, so that one bad
 * entry fails only its own lane; unless the failure is the store's as a whole
 * (`failsEveryEntry`: unavailable past its retries), which every entry would
 * meet again, one wait each.
 */
export type GroupedWrites<Entry> = { save(entry: Entry): Promise<boolean> };

type Waiting<Entry> = { entry: Entry; resolve(written: boolean): void; reject(error: unknown): void };

export function groupedWrites<Entry>(
  write: (batch: Entry[]) => Promise<boolean[]>,
  options: {
    maxBatch: number;
    failsEveryEntry: (error: unknown) => boolean;
    gatherMs?: number;
    /** A gathering batch goes as soon as it holds this many (maxBatch when unset), without waiting out gatherMs. */
    flushAt?: number;
  },
): GroupedWrites<Entry> {
  const queue: Waiting<Entry>[] = [];
  let busy = false;
  let gathering: NodeJS.Timeout | null = null;

  async function settle(batch: Waiting<Entry>[]): Promise<void> {
    try {
      const written = await write(batch.map((waiting) => waiting.entry));
      batch.forEach((waiting, i) => waiting.resolve(written[i] === true));
      return;
    } catch (error) {
      if (batch.length === 1 || options.failsEveryEntry(error)) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
    }
    for (const waiting of batch) await settle([waiting]);
  }

  async function flush(): Promise<void> {
    if (gathering) clearTimeout(gathering);
    gathering = null;
    try {
      while (queue.length > 0) await settle(queue.splice(0, options.maxBatch));
    } finally {
      busy = false;
    }
  }

  return {
    save(entry) {
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ entry, resolve, reject });
        // The first result of a quiet spell waits for the results finishing with it to join its batch.
        if (!busy) {
          busy = true;
          if (options.gatherMs) gathering = setTimeout(() => void flush(), options.gatherMs);
          else setImmediate(() => void flush());
        } else if (gathering && queue.length >= Math.min(options.flushAt ?? options.maxBatch, options.maxBatch))
          void flush();
      });
    },
  };
}

/**
 * How many entries a gathering batch of a run's engine waits for at most before it goes: half the run's limit.
 * The lanes beyond the limit (as many as the limit) are what keeps every slot busy while results wait for
 * their writes; judge-cache answers and results each wait in a batch of their own, so each may hold half.
 */
export function gatheredLanes(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency / 2));
}
