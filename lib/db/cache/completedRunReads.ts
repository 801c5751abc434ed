import { readsHoldTheThread, type Db } from "../client";
import { createPromiseCache, type PromiseCache } from "./promiseCache";

/**
 * A comparison's SQL reads of completed runs, kept in memory. On eight 20,000-row
 * runs with every score metric, the aggregates and the paired counts are tens of
 * millions of index entries read, on SQLite synchronously: seconds of a blocked server on
 * each request (and the compare page asks again while deltas are computing). A
 * completed run's judgments cannot change without its state changing: judgments
 * are written only while pending, and a re-judge puts the run back to pending
 * and finishes it with a new finish time. So a read keyed by the completed runs'
 * (id, finish time) is exact; a run in any other state is read afresh every time.
 */
const MAX_ENTRIES = 500;
const cache = createPromiseCache<unknown>(MAX_ENTRIES);
/** Reads of runs not all completed, which are never cached. */
let uncachedReads = 0;

export type RunState = { id: string; status: string; finishedAt: Date | null };

/**
 * `read()`'s value, from memory when every run in `runs` is completed and was read the same way before.
 * `into` is the cache to keep it in: the flip list's pages have their own (flipPages.ts), so paging through a
 * long list never evicts the comparisons themselves.
 */
export function readOfCompletedRuns<T>(
  db: Db,
  scope: string,
  runs: RunState[],
  read: () => Promise<T>,
  into: PromiseCache<unknown> = cache,
): Promise<T> {
  const stamps = runs.map(completedStamp);
  const fromStore = () => (readsHoldTheThread(db) ? readOnNextTurn(read) : read());
  if (stamps.some((stamp) => stamp === null)) {
    if (into === cache) uncachedReads++;
    return fromStore();
  }
  const key = [scope, ...stamps].join("\u0000");
  return into.getOrCreate(key, fromStore) as Promise<T>;
}

/**
 * Whether a read of completed runs is already kept (done, or still going for an earlier request): one not yet
 * done is then not waited for again (compareReads.ts).
 */
export function completedRunsReadKept(scope: string, runs: RunState[]): boolean {
  const stamps = runs.map(completedStamp);
  return stamps.every((stamp) => stamp !== null) && cache.has([scope, ...stamps].join("\u0000"));
}

/** How many reads went to the database and how many came from memory, since the process started. */
export function completedRunReadCounts(): { read: number; fromCache: number } {
  const { created, fromCache } = cache.counts();
  return { read: created + uncachedReads, fromCache };
}

export function clearCompletedRunReads(): void {
  cache.clear();
}

/**
 * On a store whose reads hold the thread (SQLite), reads run one after another, each on a fresh turn of
 * the event loop: a comparison makes one per run and one per pair; started together (or queued as
 * immediates in the same turn) they would hold the thread as one block. Chained, other requests wait
 * for one query at most. PostgreSQL's reads wait on the network, so they go at once, side by side.
 */
let lastRead: Promise<unknown> = Promise.resolve();

function readOnNextTurn<T>(read: () => Promise<T>): Promise<T> {
  const value = lastRead.then(() => new Promise((resolve) => setImmediate(resolve))).then(read);
  lastRead = value.catch(() => undefined);
  return value;
}

export function completedStamp(run: RunState): string | null {
  if (run.status !== "completed" || !run.finishedAt) return null;
  return `${run.id}|${run.finishedAt.toISOString()}`;
}
