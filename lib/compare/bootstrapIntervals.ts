import { startPairedBootstrap, type MeanDiffInterval } from "@/lib/stats";
import { createPromiseCache } from "@/lib/db/cache/promiseCache";

/**
 * The paired bootstrap intervals behind the compare page's score deltas, kept
 * off the request path. One bootstrap over 20,000 rows is 20 million draws, and
 * a comparison of eight runs with every score metric needs well over a hundred
 * of them: done inline, that held the server's only thread for tens of seconds.
 * So each interval is
 *  - cached in memory per (baseline, candidate, metric, and a stamp of both
 *    runs' state): a comparison seen before costs no draws at all, and a
 *    re-judge (which changes the runs' state) gets a fresh interval;
 *  - computed by one background worker, in slices of SLICE_DRAWS draws with
 *    the event loop free in between, so other requests are served meanwhile;
 *  - waited for by a request only until its deadline: what is not ready by
 *    then is shown as pending, and the page asks again.
 * The seed is fixed, so the interval is the same whenever and however often it is computed.
 */
export type ScoreInterval = { interval: MeanDiffInterval | null; pairs: number };
export type ScorePairs = { baseline: number[]; candidate: number[] };

/** 1,000 resamples: at the sizes where it matters the percentile interval is stable to the second decimal, at half the cost of 2,000. */
export const BOOTSTRAP_ITERATIONS = 1000;
export const BOOTSTRAP_SEED = 20261122;
/** Draws per slice: about 10–30 ms of work on one core here, the longest any other request waits for the bootstrap. */
export const SLICE_DRAWS = 2_000_000;
/** Intervals kept; each is a few numbers, so the bound is about keys, not memory. */
const MAX_ENTRIES = 5000;

const cache = createPromiseCache<ScoreInterval>(MAX_ENTRIES);
const queue: (() => Promise<void>)[] = [];
let working = false;

/**
 * The (`confidence`) interval for `key`, from the cache or queued for the background worker (the key names the level).
 * `loadPairs` reads the paired scores when the worker gets to it. A failed
 * computation is dropped from the cache, so the next request tries again.
 */
export function bootstrapInterval(
  key: string,
  loadPairs: () => Promise<ScorePairs>,
  confidence = 0.95,
): Promise<ScoreInterval> {
  return cache.getOrCreate(
    key,
    () =>
      new Promise<ScoreInterval>((resolve, reject) => {
        queue.push(() => computeInterval(loadPairs, confidence).then(resolve, reject));
        void drainQueue();
      }),
  );
}

/** Whether the interval for `key` is cached or already queued (a request before this one asked for it). */
export function bootstrapIntervalQueued(key: string): boolean {
  return cache.has(key);
}

/**
 * The value of `promise` if it settles before `deadline` (ms since the epoch), else undefined; a rejection is
 * thrown. A deadline already past still takes a value that is ready (a cached interval), and never waits.
 * `startedEarlier`: the work was started by an earlier request, which waited for it. Only that request waits (and
 * a caller that waits for everything, an export, with an infinite deadline): waiting again would hold every
 * refresh of the compare page the whole wait while the page already says "computing…".
 */
export async function settledBy<T>(
  promise: Promise<T>,
  givenDeadline: number,
  startedEarlier = false,
): Promise<T | undefined> {
  const deadline = startedEarlier && givenDeadline !== Infinity ? Math.min(givenDeadline, Date.now()) : givenDeadline;
  if (deadline === Infinity) return promise;
  const remaining = deadline - Date.now();
  // Both already settled: race takes the first listed, so a ready value wins over "late".
  if (remaining <= 0) return Promise.race([promise, Promise.resolve(undefined)]);
  let timer: Parameters<typeof clearTimeout>[0];
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, remaining);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Forgets every cached interval (tests, and a process that wants its memory back). */
export function clearBootstrapIntervals(): void {
  cache.clear();
}

/** How many intervals were queued for computation and how many came from the cache, since the process started. */
export function bootstrapIntervalCounts(): { computed: number; fromCache: number } {
  const { created, fromCache } = cache.counts();
  return { computed: created, fromCache };
}

async function drainQueue(): Promise<void> {
  if (working) return;
  working = true;
  try {
    for (let job = queue.shift(); job; job = queue.shift()) await job();
  } finally {
    working = false;
  }
}

async function computeInterval(loadPairs: () => Promise<ScorePairs>, confidence: number): Promise<ScoreInterval> {
  // Every job starts on a fresh turn of the event loop, so a queue of small jobs never runs as one block.
  await nextTurn();
  const pairs = await loadPairs();
  const bootstrap = startPairedBootstrap(pairs.baseline, pairs.candidate, {
    seed: BOOTSTRAP_SEED,
    iterations: BOOTSTRAP_ITERATIONS,
    confidence,
  });
  if (!bootstrap) return { interval: null, pairs: 0 };
  while (!bootstrap.step(SLICE_DRAWS)) await nextTurn();
  return { interval: bootstrap.result(), pairs: pairs.baseline.length };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
