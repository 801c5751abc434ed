/**
 * Group commit for a worker's results. Each lane hands in its result and
 * waits for its own outcome; the writes go out one batch at a time, and
 * whatever arrived while a batch was being written goes in the next. Under
 * light load a batch holds one result and waits for nothing but the current
 * tick; when the store is the bottleneck, batches grow by themselves, and
 * each costs the store one transaction instead of one per result.
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
  options: { maxBatch: number; failsEveryEntry: (error: unknown) => boolean },
): GroupedWrites<Entry> {
  const queue: Waiting<Entry>[] = [];
  let busy = false;

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
        // The first result of a quiet spell waits one tick, so that the results finishing with it go in its batch.
        if (!busy) {
          busy = true;
          setImmediate(() => void flush());
        }
      });
    },
  };
}
