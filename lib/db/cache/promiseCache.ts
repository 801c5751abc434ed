/**
 * A bounded in-memory cache of promises, least recently used evicted first,
 * that counts what it computed and what it served from memory. A promise that
 * rejects is dropped, so the next caller tries again instead of being handed
 * the old failure.
 */
export type PromiseCache<T> = {
  /** The cached promise for `key`, or `create()`'s, which is then cached. */
  getOrCreate(key: string, create: () => Promise<T>): Promise<T>;
  /** Whether `key` is cached (settled or still pending), without counting it as a use. */
  has(key: string): boolean;
  counts(): { created: number; fromCache: number };
  clear(): void;
};

export function createPromiseCache<T>(maxEntries: number): PromiseCache<T> {
  const cache = new Map<string, Promise<T>>();
  const counts = { created: 0, fromCache: 0 };
  return {
    getOrCreate(key, create) {
      const cached = cache.get(key);
      if (cached) {
        counts.fromCache++;
        // A Map iterates in insertion order, so re-inserting on use keeps the least recently used first.
        cache.delete(key);
        cache.set(key, cached);
        return cached;
      }
      counts.created++;
      const created = create();
      created.catch(() => {
        if (cache.get(key) === created) cache.delete(key);
      });
      cache.set(key, created);
      for (const oldest of cache.keys()) {
        if (cache.size <= maxEntries) break;
        cache.delete(oldest);
      }
      return created;
    },
    has: (key) => cache.has(key),
    counts: () => ({ ...counts }),
    clear: () => cache.clear(),
  };
}
