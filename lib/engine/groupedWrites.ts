/**
 * Group commit for a worker's results. Each lane hands in its result and
 * waits for its own outcome; the writes go out one batch at a time, and
 * whatever arrived while a batch was being written goes in the next. Under
 * light load a batch holds one result and waits for nothing but the current
 * tick; when the store is the bottleneck, batches grow by themselves, and
 * each costs the store one transaction instead of one per result.
 *
 * When a batch fails as a whole, each of its entries is written alone, so
 * that one bad entry fails only its own lane.
 */
export type GroupedWrites<Entry> = { save(entry: Entry): Promise<boolean> };

type Waiting<Entry> = { entry: Entry; resolve(written: boolean): void; reject(error: unknown): void };

export function groupedWrites<Entry>(
  write: (batch: Entry[]) => Promise<boolean[]>,
  maxBatch: number,
): GroupedWrites<Entry> {
  const queue: Waiting<Entry>[] = [];
  let busy = false;

  async function flush(): Promise<void> {
    busy = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, maxBatch);
        try {
          const written = await write(batch.map((waiting) => waiting.entry));
          batch.forEach((waiting, i) => waiting.resolve(written[i] === true));
        } catch (error) {
          if (batch.length === 1) batch[0].reject(error);
          else
            for (const waiting of batch)
              await write([waiting.entry]).then(([written]) => waiting.resolve(written === true), waiting.reject);
        }
      }
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
